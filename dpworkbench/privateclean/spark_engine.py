"""PrivateClean on Apache Spark (issue 14): GRR over a Spark DataFrame, and the estimators as aggregations.

:func:`grr_spark` is :func:`~dpworkbench.privateclean.grr` for a relation only Spark holds. The public parameters and
the ledger are the same (:func:`~dpworkbench.privateclean.privacy_cost`, recorded before any draw); domains and
numeric bounds must be declared (public) — reading them off a distributed table would be data-dependent. Each Spark
partition draws from its own independent stream: for a research run (a seed / Generator / seeded back-end) the
stream of partition k is ``default_rng([root, k])`` with ``root`` drawn once from the caller's generator, so the
release is reproducible; for a release (``rng=None`` or the OpenDP back-end) every partition opens its own
:class:`~dpworkbench.mechanisms.backends.OpenDPBackend` (OS entropy; Laplace through OpenDP's floating-point-safe
sampler). The privatised relation is materialised once (Parquet under ``out_dir``, else a local checkpoint), so
later actions never redraw the noise.

:func:`estimate_spark` answers ``SELECT agg(value) FROM V WHERE pred_col IN M`` on the privatised relation with the
PrivateClean bias correction (Eq. 3/5, row-CLT intervals) as one Spark aggregation — the same numbers as
:func:`~dpworkbench.privateclean.estimate` on the same relation with no cleaning (provenance = identity).
Post-processing: it reads only V and public parameters.
"""

from __future__ import annotations

import math
from typing import Any, Iterable

import numpy as np
import pandas as pd

from .._validation import check_options, check_positive, check_probability
from ..accounting import LedgerEntry, Release, open_ledger
from ..mechanisms.backends import RngLike, check_rng
from .estimators import Estimate
from .mechanisms import privacy_cost


class SparkPrivateRelation:
    """The released relation V as a Spark DataFrame (materialised) with its public parameters."""

    def __init__(self, data, p: dict[str, float], b: dict[str, float], domains: dict[str, np.ndarray],
                 deltas: dict[str, float], rows: int):
        self.data, self.p, self.b, self.domains, self.deltas, self.rows = data, p, b, domains, deltas, rows

    def to_pandas(self):
        """The in-memory :class:`~dpworkbench.privateclean.model.PrivateRelation` of the same released V."""
        from .model import PrivateRelation

        return PrivateRelation(self.data.toPandas(), dict(self.p), dict(self.b), dict(self.domains), dict(self.deltas))


def _partition_sampler(columns: list[str], discrete: dict[str, tuple[float, list, int | None]],
                       numeric: dict[str, tuple[float, float, float, float]], root: int | None):
    """The function every partition runs: its own stream, GRR codes via the core kernel, Laplace via the back-end.
    Each row goes through the same public, row-local rules as :func:`~dpworkbench.privateclean.grr`: an out-of-domain
    value maps to the declared target (or is replaced with probability 1), a missing number to ``fill``, and every
    number is clipped into its bounds. Nothing here can refuse because of what a row holds."""

    def run(batches: Iterable[pd.DataFrame]) -> Iterable[pd.DataFrame]:
        from pyspark import TaskContext

        from ..mechanisms.backends import NumpyBackend, OpenDPBackend
        from ..mechanisms.core import grr_codes
        from .mechanisms import domain_codes

        part = TaskContext.get().partitionId()
        backend = NumpyBackend(np.random.default_rng([root, part])) if root is not None else OpenDPBackend()
        gen = backend.generator
        doms = {c: np.asarray(dom, dtype=object) for c, (_, dom, _) in discrete.items()}
        # a homogeneous numeric domain is released as numbers (the column's declared Spark type)
        typed = {c: (t if t.dtype.kind in "iuf" else d) for c, d in doms.items()
                 for t in [np.asarray(d.tolist()) if all(v is not None for v in d.tolist()) else d]}
        for batch in batches:
            out = {}
            for c in columns:
                if c in discrete:
                    p, _, target = discrete[c]
                    dom = doms[c]
                    codes = domain_codes(batch[c].to_numpy(dtype=object), dom)
                    oob = codes < 0
                    codes[oob] = 0 if target is None else target
                    new = grr_codes(codes.astype(np.int64), len(dom), p, gen, draw="replaced")
                    if target is None and oob.any():  # replaced with probability 1 (GRR's replacement law)
                        new[oob] = gen.integers(0, len(dom), size=int(oob.sum()))
                    out[c] = typed[c][new]
                else:
                    b, lo, hi, fill = numeric[c]
                    x = pd.to_numeric(batch[c], errors="coerce").to_numpy(dtype=float)
                    x = np.clip(np.where(np.isfinite(x), x, fill), lo, hi)
                    out[c] = np.asarray(backend.add_laplace(x, b), dtype=float).reshape(len(x)) if len(x) else x
            yield pd.DataFrame(out, columns=columns)
    return run


def grr_spark(sdf: Any, discrete: dict[str, float], numeric: dict[str, float] | None = None, *,
              domains: dict[str, Any], bounds: dict[str, tuple[float, float]] | None = None,
              other: dict[str, Any] | None = None, fill: dict[str, float] | None = None, rng: RngLike = None,
              spark=None, out_dir: str | None = None, accountant=None) -> Release:
    """GRR (+ Laplace for numeric columns) over a Spark DataFrame (or a pandas one, sent to Spark); see the module
    docstring. Every column must be privatised; ``domains`` for every discrete column and ``bounds`` for every
    numeric one are required (public). ``other`` and ``fill`` are :func:`~dpworkbench.privateclean.grr`'s
    out-of-domain and missing-number rules; like ``grr`` the release is total: it never refuses, or says anything,
    because of what the rows hold. Returns a ``Release`` whose value is a :class:`SparkPrivateRelation`."""
    from ..spark import session_or, to_spark
    from .mechanisms import out_of_domain_rule

    numeric = dict(numeric or {})
    bounds = dict(bounds or {})
    other = dict(other or {})
    fill = dict(fill or {})
    if isinstance(sdf, pd.DataFrame):
        sdf = to_spark(session_or(spark), sdf)
    columns = list(sdf.columns)
    listed = set(discrete) | set(numeric)
    unlisted = [c for c in columns if c not in listed]
    if unlisted:
        raise ValueError(f"columns {unlisted!r} are neither in discrete nor in numeric: they would be released unmodified "
                         "(ε = ∞); privatise them or select only the columns to release")
    for c in listed:
        if c not in columns:
            raise ValueError(f"unknown attribute {c!r}; columns: {', '.join(columns)}")
    disc: dict[str, tuple[float, list, int | None]] = {}
    for c, p in discrete.items():
        check_probability(p, f"p[{c!r}]")
        if c not in domains:
            raise ValueError(f"domains[{c!r}] is required on the Spark engine (a public domain; reading it off the data "
                             "would be data-dependent)")
        dom = list(domains[c])
        nulls = [v for v in dom if v is None or (isinstance(v, float) and v != v)]
        if len(nulls) > 1 or len(set(v for v in dom if v not in nulls)) != len(dom) - len(nulls):
            raise ValueError(f"domains[{c!r}] must list distinct values (NULL at most once)")
        full, target = out_of_domain_rule(dom, other.get(c), declared=c in other)
        disc[c] = (float(p), [None if (v is None or (isinstance(v, float) and v != v)) else v for v in full.tolist()],
                   target)
    num: dict[str, tuple[float, float, float, float]] = {}
    for c, b in numeric.items():
        check_positive(b, f"b[{c!r}]")
        if c not in bounds:
            raise ValueError(f"bounds[{c!r}] = (lo, hi) is required on the Spark engine (values are clipped into it; Δ = hi − lo)")
        lo, hi = (float(v) for v in bounds[c])
        if not (math.isfinite(lo) and math.isfinite(hi) and hi > lo):
            raise ValueError(f"bounds[{c!r}] must be finite (lo, hi) with hi > lo, got {bounds[c]!r}")
        f = float(fill.get(c, (lo + hi) / 2.0))
        if not (math.isfinite(f) and lo <= f <= hi):
            raise ValueError(f"fill[{c!r}] must be a finite number within bounds[{c!r}], got {fill[c]!r}")
        num[c] = (float(b), lo, hi, f)
    from pyspark.sql.types import StringType

    for c, (_, dom, _) in disc.items():  # Spark types are the frame's declared schema (public), never the rows
        is_text = isinstance(sdf.schema[c].dataType, StringType)
        if any(v is not None and isinstance(v, str) != is_text for v in dom):
            raise ValueError(f"domains[{c!r}] must hold values of the column's type ({'text' if is_text else 'numbers'})")
    rows = int(sdf.count())  # the number of rows is public under the substitution relation
    backend = check_rng(rng)
    plan = privacy_cost({c: (p, len(dom)) for c, (p, dom, _) in disc.items()},
                        {c: (b, hi - lo) for c, (b, lo, hi, _) in num.items()})
    plan = tuple(LedgerEntry(e.mechanism, e.epsilon, e.note + (f"; clipped to public bounds {bounds[k]}" if k in num else ""))
                 for k, e in zip(list(disc) + list(num), plan))
    acc, mark = open_ledger(accountant)
    for e in plan:  # recorded before any draw
        acc.spend(e.epsilon, e.mechanism, note=e.note)
    root = None if backend.name == "opendp" else int(backend.generator.integers(0, 2**63 - 1))
    from pyspark.sql.types import DoubleType, StructField, StructType

    fields = [StructField(c, DoubleType(), False) if c in num else StructField(c, sdf.schema[c].dataType, True)
              for c in columns]
    out = sdf.mapInPandas(_partition_sampler(columns, disc, num, root), StructType(fields))
    if out_dir is not None:  # materialise once: a later action must not redraw the noise
        out.write.mode("overwrite").parquet(str(out_dir))
        out = session_or(spark).read.parquet(str(out_dir))
    else:
        out = out.localCheckpoint(eager=True)
    rel = SparkPrivateRelation(out, {c: p for c, (p, _, _) in disc.items()}, {c: b for c, (b, _, _, _) in num.items()},
                               {c: np.asarray(dom, dtype=object) for c, (_, dom, _) in disc.items()},
                               {c: hi - lo for c, (_, lo, hi, _) in num.items()}, rows)
    public = {"rows": rows, "columns": columns, "p": {c: p for c, (p, _, _) in disc.items()},
              "b": {c: b for c, (b, _, _, _) in num.items()}, "domain": {c: list(dom) for c, (_, dom, _) in disc.items()},
              "bounds": {c: [lo, hi] for c, (_, lo, hi, _) in num.items()}, "accounting": "exact",
              "engine": "spark", "streams": "one per partition" + (" (seeded: research)" if root is not None else
                                                                   " (OpenDP back-end, OS entropy)")}
    return Release(rel, acc.entries_since(mark), public=public, mechanism="privateclean.grr")


def estimate_spark(rel: SparkPrivateRelation | Release, agg: str, pred_col: str, pred: Any, value_col: str | None = None,
                   *, method: str = "privateclean", z: float = 1.96) -> Estimate:
    """``SELECT agg(value_col) FROM V WHERE pred_col IN pred`` with the bias correction, as one Spark aggregation.

    ``pred``: a value or a set of values of ``pred_col``'s released domain. ``method``: "privateclean" (Eq. 3/5 with
    l = selected domain values, N = domain size; row-CLT intervals) or "direct". Equal to
    :func:`~dpworkbench.privateclean.estimate` on the same relation without cleaning."""
    from pyspark.sql import functions as F

    rel = rel.value if isinstance(rel, Release) else rel
    check_options(agg, "agg", ("count", "sum", "avg"))
    check_options(method, "method", ("direct", "privateclean"))
    if pred_col not in rel.p:
        raise ValueError(f"attribute {pred_col!r} was not randomized with GRR")
    if agg != "count" and (value_col is None or value_col not in rel.data.columns):
        raise ValueError(f"unknown numeric attribute {value_col!r}")
    sel = list(pred) if isinstance(pred, (set, frozenset, list, tuple)) else [pred]
    dom = list(rel.domains[pred_col])
    l = sum(1 for v in dom if v in set(sel))
    if l == 0:
        raise ValueError(f"predicate on {pred_col!r} selects no value of its domain: {pred!r}")
    S, p, N = rel.rows, rel.p[pred_col], len(dom)
    i = F.col(pred_col).isin(sel).cast("double")
    a = F.lit(1.0) if agg == "count" else F.col(value_col).cast("double")
    meta = {"S": S, "p": p, "N": N, "l": float(l), "method": method, "engine": "spark"}
    if method == "direct":
        r = rel.data.agg(F.sum(i).alias("c"), F.sum(a * i).alias("h")).collect()[0]
        c, h = float(r["c"] or 0.0), float(r["h"] or 0.0)
        if agg == "avg" and c == 0:
            raise ValueError("empty selection: no rows satisfy the predicate")
        return Estimate({"count": c, "sum": h, "avg": h / c if c else math.nan}[agg], math.nan, math.nan, meta)
    tau_n = p * l / N
    yc = (i - F.lit(tau_n)) / F.lit(1 - p)
    yh = a * yc
    r = rel.data.agg(F.sum(yc).alias("c"), F.sum(yc * yc).alias("cc"), F.sum(yh).alias("h"), F.sum(yh * yh).alias("hh"),
                     F.sum(yh * yc).alias("hc")).collect()[0]
    c, cc, h, hh, hc = (float(r[k] or 0.0) for k in ("c", "cc", "h", "hh", "hc"))
    meta.update(tau_n=tau_n, tau_p=1 - p + tau_n)

    def half(s1: float, s2: float) -> float:  # z·sqrt(S·var) with the population variance, as numpy's var()
        return z * math.sqrt(max(S * (s2 / S - (s1 / S) ** 2), 0.0)) if S else math.nan

    if agg == "count":
        return Estimate(c, c - half(c, cc), c + half(c, cc), meta)
    if agg == "sum":
        return Estimate(h, h - half(h, hh), h + half(h, hh), meta)
    if c <= 0:
        meta["flag"] = "non-positive count estimate"
        return Estimate(math.nan, math.nan, math.nan, meta)
    avg = h / c
    # u = (yh − avg·yc)/c: Σu and Σu² from the sums above
    su = (h - avg * c) / c
    suu = (hh - 2 * avg * hc + avg * avg * cc) / (c * c)
    w = half(su, suu)
    return Estimate(avg, avg - w, avg + w, meta)


__all__ = ["SparkPrivateRelation", "estimate_spark", "grr_spark"]
