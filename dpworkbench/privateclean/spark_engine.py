"""PrivateClean on Apache Spark (issue 14): GRR over a Spark DataFrame, and the estimators as aggregations.

:func:`grr_spark` is :func:`~dpworkbench.privateclean.grr` for a relation only Spark holds: the same declaration
(:data:`~dpworkbench.privateclean.mechanisms.GRR`): its plan is recorded once before any draw, and every partition
draws each column through the declaration's own statistics and noise; domains and
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
from ..accounting import Release
from ..mechanisms.backends import RngLike, check_rng
from .estimators import Estimate
from .mechanisms import GRR, object_array, key_columns


class SparkPrivateRelation:
    """The released relation V as a Spark DataFrame (materialised) with its public parameters."""

    def __init__(self, data, p: dict[str, float], b: dict[str, float], domains: dict[str, np.ndarray],
                 deltas: dict[str, float], rows: int):
        self.data, self.p, self.b, self.domains, self.deltas, self.rows = data, p, b, domains, deltas, rows

    def to_pandas(self):
        """The in-memory :class:`~dpworkbench.privateclean.model.PrivateRelation` of the same released V."""
        from .model import PrivateRelation

        return PrivateRelation(self.data.toPandas(), dict(self.p), dict(self.b), dict(self.domains), dict(self.deltas))


def _null(v: Any) -> bool:
    return v is None or (isinstance(v, float) and v != v)


def _partition_sampler(columns: list[str], params: dict[str, dict], root: int | None, spawn=None):
    """The function every partition runs: its own stream, and each column drawn by the GRR declaration's own
    statistics (the public, row-local rules of :func:`~dpworkbench.privateclean.grr`: out-of-domain → the declared
    target or replaced with probability 1, a missing number → ``fill``, every number clipped) and noise (the plan
    was recorded once by the driver). Nothing here can refuse because of what a row holds. ``spawn``: a research
    back-end's own ``for_partition`` (pickled to the executors), which opens partition k's back-end itself."""

    def run(batches: Iterable[pd.DataFrame]) -> Iterable[pd.DataFrame]:
        from pyspark import TaskContext

        from ..mechanisms.backends import NumpyBackend, OpenDPBackend
        from .mechanisms import GRR, released_domain

        part = TaskContext.get().partitionId()
        if spawn is not None:
            backend = spawn(part)
        else:
            backend = NumpyBackend(np.random.default_rng([root, part])) if root is not None else OpenDPBackend()
        p = {k: GRR.check_params(q) for k, q in params.items()}
        typed = {k: released_domain(k, q["domains"], q["other"])[1] for k, q in p.items() if q["discrete"]}
        # the draw order: the frame's column order, a joint partition drawn (as one tuple) at its first column
        order = list(dict.fromkeys(next(k for k in params if c in key_columns(k)) for c in columns))
        for batch in batches:
            out = {}
            for k in order:
                v = GRR.noise(GRR.statistics(batch[key_columns(k)], **p[k]), backend, None, **p[k]).value[0]
                if k not in typed:
                    out[k] = v
                    continue
                new = typed[k][v.astype(np.int64)]
                kc = key_columns(k)
                if len(kc) == 1:
                    out[k] = new
                for i, c in enumerate(kc if len(kc) > 1 else ()):  # a tuple's components (NULL entry: all NULL)
                    out[c] = [None if _null(t) else t[i] for t in new]
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
    listed = {c for k in discrete for c in key_columns(k)} | set(numeric)
    unlisted = [c for c in columns if c not in listed]
    if unlisted:
        raise ValueError(f"columns {unlisted!r} are neither in discrete nor in numeric: they would be released unmodified "
                         "(ε = ∞); privatise them or select only the columns to release")
    for c in listed:
        if c not in columns:
            raise ValueError(f"unknown attribute {c!r}; columns: {', '.join(columns)}")
    disc: dict[Any, tuple[float, list, int | None]] = {}
    for c, p in discrete.items():
        check_probability(p, f"p[{c!r}]")
        if c not in domains:
            raise ValueError(f"domains[{c!r}] is required on the Spark engine (a public domain; reading it off the data "
                             "would be data-dependent)")
        if len(key_columns(c)) > 1:  # a joint partition (issue 25): grr's own domain forms and out-of-domain rule
            from .mechanisms import released_domain

            full, _, target = released_domain(c, domains, other)
            disc[c] = (float(p), full.tolist(), target)
            continue
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
        for i, col in enumerate(key_columns(c)):
            is_text = isinstance(sdf.schema[col].dataType, StringType)
            comps = dom if len(key_columns(c)) == 1 else [None if t is None else t[i] for t in dom]
            if any(v is not None and isinstance(v, str) != is_text for v in comps):
                raise ValueError(f"domains[{c!r}] must hold values of the column's type ({col}: "
                                 f"{'text' if is_text else 'numbers'})")
    rows = int(sdf.count())  # the number of rows is public under the substitution relation
    backend = check_rng(rng)
    params = {c: {"discrete": {c: p}, "domains": {c: domains[c] if len(key_columns(c)) > 1 else list(domains[c])},
                  "other": {c: other[c]} if c in other else None} for c, p in discrete.items()}
    params.update({c: {"discrete": {}, "numeric": {c: b}, "bounds": {c: (lo, hi)}, "fill": {c: f}}
                   for c, (b, lo, hi, f) in num.items()})
    ledger = GRR.record(accountant, discrete=dict(discrete), numeric=numeric,  # recorded before any draw
                        domains={c: domains[c] if len(key_columns(c)) > 1 else list(domains[c]) for c in discrete},
                        bounds={c: bounds[c] for c in num},
                        other=other or None)
    # A research back-end may open each partition's stream itself with ``for_partition(k)`` (it must pickle): the
    # privacy harness's pre-noise back-end does, to run this very path with randomness switched off. A release
    # (OpenDP back-end) never takes that path.
    spawn = None if backend.name == "opendp" else getattr(backend, "for_partition", None)
    root = None if backend.name == "opendp" or spawn is not None else int(backend.generator.integers(0, 2**63 - 1))
    from pyspark.sql.types import DoubleType, StructField, StructType

    fields = [StructField(c, DoubleType(), False) if c in num else StructField(c, sdf.schema[c].dataType, True)
              for c in columns]
    out = sdf.mapInPandas(_partition_sampler(columns, params, root, spawn), StructType(fields))
    if out_dir is not None:  # materialise once: a later action must not redraw the noise
        out.write.mode("overwrite").parquet(str(out_dir))
        out = session_or(spark).read.parquet(str(out_dir))
    else:
        out = out.localCheckpoint(eager=True)
    rel = SparkPrivateRelation(out, {c: p for c, (p, _, _) in disc.items()}, {c: b for c, (b, _, _, _) in num.items()},
                               {c: object_array(dom) for c, (_, dom, _) in disc.items()},  # a tuple stays one cell
                               {c: hi - lo for c, (_, lo, hi, _) in num.items()}, rows)
    public = {"rows": rows, "columns": columns, "p": {str(c): p for c, (p, _, _) in disc.items()},
              "b": {c: b for c, (b, _, _, _) in num.items()},
              "domain": {str(c): list(dom) for c, (_, dom, _) in disc.items()},
              "bounds": {c: [lo, hi] for c, (_, lo, hi, _) in num.items()}, "accounting": "exact",
              "engine": "spark", "streams": "one per partition" + (
                  " (seeded: research)" if root is not None else
                  " (the research back-end's for_partition)" if spawn is not None else " (OpenDP back-end, OS entropy)")}
    return Release(rel, ledger, public=public, mechanism="privateclean.grr")


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
