"""PrivateClean's query, the API behind ``dpworkbench privateclean query``: privatise a table with GRR (one discrete
attribute) and Laplace (an optional numeric one), clean the *private* relation with merges, and answer COUNT/SUM/AVG
with the PrivateClean estimate, its 95 % interval and the Direct estimate.

:func:`plan_query` checks the public inputs (no data) and turns the budget into GRR's p and Laplace's b;
:func:`query` reads the raw cells by the public schema the plan declares (the attribute text, the value a number,
cell by cell), releases V = :func:`~dpworkbench.privateclean.grr` (the GRR declaration) and post-processes V. The
messages name the CLI's flags.

Privacy: the ledger is grr's (exact GRR accounting); every answer is a post-processing of V and public inputs.
Neighbouring relation: substitute one record (bounded DP); the number of rows is public. The release is a total
function of the rows (issue 21): a value outside the domain maps to ``other`` or NULL (a category of the released
domain), a number is clipped into its bounds and a missing one becomes ``fill``; every refusal depends on public
inputs only. Only a seeded research run may read the domain off the data (listed as data-derived; not private as
claimed).
"""
from __future__ import annotations

import dataclasses
import math
import warnings
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import pandas as pd

from dpworkbench.accounting import DescribedRelease, Release
from dpworkbench.experiments.metrics import signed_error
from dpworkbench.mechanisms.backends import RngLike, check_rng
from dpworkbench.mechanisms.declaration import Param

from .estimators import estimate
from .mechanisms import GRR, b_for_epsilon, epsilon_grr, grr, out_of_domain_rule, p_for_epsilon
from .model import CleanedRelation, apply_mapping

MAX_GRR_EPSILON = 700.0  # largest ε for which e^ε is a finite double; GRR needs it in p = N/(e^ε+N−1)
RELATION = "substitute one line of the file (one record; bounded DP; the number of rows is public)"

#: The query's public budget and numeric-column inputs, declared once (constraints as data): the CLI's flags and their
#: help (``cli.release.add_param_flags``) and the checks of both query front ends, each refusal naming its flag.
PARAMS = {q.name: q for q in (
    Param("p", float, None, "GRR replacement probability in (0, 1) (public)", low=0.0, high=1.0, open_low=True,
          open_high=True),
    Param("epsilon", float, None, "ε of the discrete attribute (exact convention: p = N/(e^ε+N−1))", low=0.0,
          open_low=True),
    Param("b", float, None, "Laplace scale of --value-col (public)", low=0.0, open_low=True),
    Param("value_epsilon", float, None, "ε of --value-col instead of --b (b = Δ/ε)", low=0.0, open_low=True),
    Param("delta", float, None, "optional check of --bounds: must equal HI − LO (a Δ without --bounds bounds nothing: "
                                "refused)"),
    Param("fill", float, None, "what a missing or non-numeric --value-col cell becomes, within --bounds (default: the "
                               "midpoint)"))}


def _check(name: str, value: Any) -> Any:
    """``value`` checked by its declared constraint (:data:`PARAMS`), the refusal naming its flag."""
    return PARAMS[name].check(value, "--" + name.replace("_", "-"))


def _grr_budget(p: float | None, epsilon: float | None) -> tuple[float | None, float | None]:
    """Exactly one of --p and --epsilon, checked; an ε whose e^ε overflows a double is refused (p = N/(e^ε+N−1) would
    be 0, i.e. no randomisation)."""
    if (p is None) == (epsilon is None):
        raise ValueError("give exactly one of --p and --epsilon")
    if p is not None:
        return _check("p", p), None
    epsilon = _check("epsilon", epsilon)
    if epsilon > MAX_GRR_EPSILON:
        raise ValueError(f"--epsilon {epsilon:g} is too large for GRR: e^ε overflows and p = N/(e^ε+N−1) is 0 (no "
                         f"randomisation at all); use --epsilon ≤ {MAX_GRR_EPSILON:g} or give --p")
    return None, epsilon


@dataclass(frozen=True)
class QueryPlan:
    """The checked public inputs of one query (see :func:`plan_query`)."""

    attr: str
    equals: tuple[str, ...]
    agg: str = "count"
    p: float | None = None
    epsilon: float | None = None
    domain: list | None = None
    other: str | None = None
    value_col: str | None = None
    b: float | None = None
    value_epsilon: float | None = None
    bounds: tuple[float, float] | None = None
    delta: float | None = None
    fill: float | None = None
    mapping: dict = field(default_factory=dict)
    ci: str = "row_clt"
    notes: tuple[str, ...] = ()

    label = property(lambda self: f"privateclean_{self.agg}")  # the released value's name

    def grr_params(self) -> dict[str, Any]:
        """The parameters of the GRR declaration this query releases (needs the public domain)."""
        if self.domain is None:
            raise ValueError("--plan needs --domain: without it the domain (and GRR's N) would be read off the data")
        N = len(out_of_domain_rule(self.domain, self.other, declared=True)[0])
        p = self.p if self.p is not None else p_for_epsilon(self.epsilon, N)
        return {"discrete": {self.attr: p}, "domains": {self.attr: self.domain}, "other": {self.attr: self.other},
                **({"numeric": {self.value_col: self.b}, "bounds": {self.value_col: self.bounds}} if self.value_col
                   else {})}


def _value_column(bounds, fill, b, value_epsilon, why: str = "") -> tuple[float, float, float]:
    """The numeric column's public flags, checked once for both query front ends: (lo, hi, Laplace b)."""
    if bounds is None:
        raise ValueError("--bounds LO,HI (public bounds of --value-col) is required: values are clipped into them and "
                         "Δ = HI − LO" + why)
    lo, hi = bounds
    if not (math.isfinite(lo) and math.isfinite(hi) and hi > lo):
        raise ValueError(f"--bounds needs finite LO < HI, got {lo:g},{hi:g}")
    if fill is not None and not (math.isfinite(fill) and lo <= fill <= hi):
        raise ValueError(f"--fill {fill:g} must lie within --bounds [{lo:g}, {hi:g}]")
    if (b is None) == (value_epsilon is None):
        raise ValueError("give exactly one of --b and --value-epsilon for the numeric column")
    if b is not None:
        b = _check("b", b)
    else:  # the numeric column's share of the budget
        b = b_for_epsilon(_check("value_epsilon", value_epsilon), hi - lo)
    return float(lo), float(hi), float(b)


def plan_query(attr: str, equals: Sequence[str], *, agg: str = "count", p: float | None = None,
               epsilon: float | None = None, domain: Sequence[str] | None = None, other: str | None = None,
               value_col: str | None = None, b: float | None = None, value_epsilon: float | None = None,
               bounds: tuple[float, float] | None = None, delta: float | None = None, fill: float | None = None,
               merge: dict | None = None, ci: str = "row_clt", spark: bool = False) -> QueryPlan:
    """Every check on public inputs, before any data is read; the same message for every dataset.

    Exactly one of ``p`` (GRR's replacement probability) and ``epsilon`` (exact GRR accounting on the released
    domain); with ``value_col`` public ``bounds`` and exactly one of ``b`` and ``value_epsilon`` (b = Δ/ε).
    ``merge``: {old: new (None = NULL)}, the cleaning applied to the private relation; ``equals`` the predicate's
    cleaned values."""
    from dpworkbench.cli.common import epsilon_warnings

    p, epsilon = _grr_budget(p, epsilon)
    notes = epsilon_warnings(epsilon, "--epsilon") if epsilon is not None else []  # public remarks (extreme ε)
    if value_epsilon is not None:
        notes += epsilon_warnings(_check("value_epsilon", value_epsilon), "--value-epsilon")
    domain = list(domain) if domain else None
    if domain is not None:
        if "" in domain:
            raise ValueError("--domain has an empty value: a blank cell is NULL, which goes to --other (default NULL)")
        if len(set(domain)) != len(domain):
            raise ValueError("--domain lists a value twice")
    if other is not None:
        if domain is None:
            raise ValueError("--other needs --domain (it names where values outside the domain go)")
        if other not in domain:
            raise ValueError(f"--other {other!r} is not a value of --domain")
    if agg != "count" and value_col is None:
        raise ValueError(f"--value-col is required for {agg}")
    if value_col is None:
        for flag, v in (("--bounds", bounds), ("--delta", delta), ("--fill", fill), ("--b", b),
                        ("--value-epsilon", value_epsilon)):
            if v is not None:
                raise ValueError(f"{flag} needs --value-col")
    else:
        if value_col == attr:
            raise ValueError("--value-col must differ from --attr")
        # a Δ alone does not bound a substitution: one record may move from any value to any other
        lo, hi, b = _value_column(bounds, fill, b, value_epsilon, " (--delta alone does not bound a record's change)"
                                  if delta is not None else "")
        if delta is not None and abs(delta - (hi - lo)) > 1e-12 * max(1.0, hi - lo):
            raise ValueError(f"--delta {delta:g} disagrees with --bounds (Δ = HI − LO = {hi - lo:g})")
    mapping = dict(merge or {})
    if domain is not None:  # the predicate against the cleaned public domain: a public check, before any spend
        released, _ = out_of_domain_rule(domain, other, declared=True)
        if not set(equals) & {mapping.get(v, v) for v in released.tolist()}:
            raise ValueError("--equals names no value of the cleaned domain (--domain after --merge)")
    if spark and domain is None:
        raise ValueError("--engine spark needs a public --domain: the Spark engine never reads a domain off the data")
    return QueryPlan(attr, tuple(equals), agg, p, epsilon, domain, other, value_col, b, value_epsilon,
                     None if bounds is None else (float(bounds[0]), float(bounds[1])), delta, fill, mapping, ci,
                     tuple(notes))


def _release(df: pd.DataFrame, q: QueryPlan, p: float, rng: RngLike, spark) -> Release:
    numeric = {q.value_col: q.b} if q.value_col else {}
    kw = dict(other={q.attr: q.other} if q.domain is not None else None,  # None → NULL, a category of the domain
              bounds={q.value_col: q.bounds} if q.value_col else None,
              fill={q.value_col: q.fill} if q.value_col and q.fill is not None else None, rng=rng)
    if spark is None:
        return grr(df, {q.attr: p}, numeric, domains={q.attr: q.domain} if q.domain else None,
                   deltas={q.value_col: q.delta} if q.value_col and q.delta is not None else None, **kw)
    # issue 14: V drawn by Spark, one stream per partition (GRR's declared engine: spark_engine.grr_spark); the Spark
    # types are the declared schema, never inferred from the rows
    sschema = f"`{q.attr}` string" + (f", `{q.value_col}` double" if q.value_col else "")
    frame = df.copy()
    frame[q.attr] = frame[q.attr].astype(object).where(frame[q.attr].notna(), None)
    released = GRR.release_on("spark", spark.createDataFrame(frame, schema=sschema), discrete={q.attr: p},
                              numeric=numeric, domains={q.attr: q.domain}, spark=spark, **kw)
    return dataclasses.replace(released, value=released.value.to_pandas())


def query(raw: pd.DataFrame, q: QueryPlan, *, rng: RngLike = None, spark=None, source: str = "the table",
          progress=None) -> tuple["QueryRelease", Release, list[str]]:
    """Privatise → merge → query on ``raw`` (cells as read by
    :func:`~dpworkbench.datasets.public_schema.read_raw_lines`). Returns (the :class:`QueryRelease` of the
    PrivateClean answer — ``details`` the interval and the Direct estimate —, the grr release, warnings). ``progress`` (a
    ``cli.common.Stages``) is told each stage."""
    from dpworkbench.datasets.public_schema import ColumnSpec, PublicSchema

    header = list(map(str, raw.columns))
    for flag, col in (("--attr", q.attr), ("--value-col", q.value_col)):
        if col is not None and col not in header:
            raise ValueError(f"{flag} {col!r} not in {source} (columns: {', '.join(header)})")
    if len(raw) == 0:  # the number of rows is public here (substitution relation): refusing leaks nothing
        raise ValueError(f"CSV {source} has a header but no rows: nothing to privatise")
    research = check_rng(rng).seeded
    if q.domain is None and not research:
        # decided by the arguments alone (the same for every file): a release never reads its domain off the rows
        raise ValueError("--domain (the public domain of --attr) is required for a release; only a --seed research run "
                         "may read it off the data")
    # the public schema the plan declares: the attribute text, the value a number; every cell by its own rule
    specs = [ColumnSpec(q.attr, "text")] + ([ColumnSpec(q.value_col, "float")] if q.value_col else [])
    schema = PublicSchema(tuple(specs), source="flags: --attr text, --value-col float")
    df, parse_report = schema.apply(raw[schema.names])
    if progress is not None:
        progress.next("privatise (GRR + Laplace)")
    notes = list(q.notes)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if q.domain is not None:
            p = q.grr_params()["discrete"][q.attr]  # the discrete attribute's share of the budget
        else:  # research run only (refused above otherwise)
            p = q.p if q.p is not None else p_for_epsilon(q.epsilon, df[q.attr].nunique(dropna=False))
        released = _release(df, q, p, rng, spark)
    rel = released.value
    # --- post-processing of V (and public inputs) only ---------------------------------------------------------
    if progress is not None:
        progress.next("clean and estimate")
    crel = CleanedRelation.start(rel)
    if q.mapping:
        crel = crel.merge(q.attr, q.mapping, note="CLI merges")
    pred = set(q.equals)
    try:
        d = estimate(crel, q.agg, q.attr, pred, q.value_col, method="direct").value
    except ValueError as exc:  # AVG over no selected private row: undefined, not a reason to withhold PrivateClean's
        if "empty selection" not in str(exc):
            raise
        d = math.nan
        notes.append("Direct AVG is undefined: no row of the private relation satisfies the predicate (null in JSON)")
    pc = estimate(crel, q.agg, q.attr, pred, q.value_col, ci=q.ci)
    if math.isnan(pc.value):
        notes.append(f"the PrivateClean {q.agg.upper()} is undefined here ({pc.meta.get('flag', 'NaN')}): written as "
                     "null in JSON")
    elif pc.hi - pc.lo == 0 or not (math.isfinite(pc.lo) and math.isfinite(pc.hi)):
        # a function of the private answer and public inputs only, so saying so is post-processing
        notes.append(f"the 95% interval [{pc.lo:g}, {pc.hi:g}] is degenerate (zero width or not finite): too few "
                     "selected rows for the interval's normal approximation; do not read it as certainty")
    numeric = {q.value_col: q.b} if q.value_col else {}
    public = dict(released.public)
    public.update({"agg": q.agg, "attr": q.attr, "equals": sorted(pred), "merges": dict(q.mapping),
                   "value_col": q.value_col, "ci_form": q.ci, "schema": schema.to_public(),
                   # what the paper's Lemma 1 would claim (understates ε for N > 3); the ledger holds the exact ε
                   "epsilon_paper_lemma1": epsilon_grr(p, 3, "paper") + sum(rel.deltas[c] / b for c, b in numeric.items()),
                   "l": pc.meta.get("l"), "N": pc.meta.get("N")})
    derived = list(released.derived_public)
    if q.p is None and not q.domain:
        derived.append("p (from --epsilon and the data-derived domain size)")
    # --- NOT PRIVATE: the true answer f(R_clean) on the pre-noise relation (the GRR declaration's own statistics) ---
    dom = released.public["domain"][str(q.attr)]
    pre = GRR.statistics(df, **GRR.check_params({
        "discrete": {q.attr: p}, "numeric": numeric or None, "domains": {q.attr: dom},
        "other": {q.attr: q.other} if q.domain is not None else None,
        "bounds": {q.value_col: q.bounds} if q.value_col else None,
        "fill": {q.value_col: q.fill} if q.value_col and q.fill is not None else None}))
    attr = np.asarray(dom, dtype=object)[pre["codes"][q.attr]]  # the out-of-domain rule grr applied: --other, else NULL
    sel = pd.Series(apply_mapping(attr, q.mapping) if q.mapping else attr, dtype=object).isin(pred).to_numpy()
    vals = pre["values"][q.value_col] if q.value_col else np.ones(len(df))
    truth = {"count": float(sel.sum()), "sum": float(vals[sel].sum()),
             "avg": float(vals[sel].mean()) if sel.any() else float("nan")}[q.agg]
    exact = {"input": {"cells": parse_report.columns, **dict(released.exact)}, "true_answer": truth,
             "privateclean_error": float(signed_error(pc.value, truth)), "direct_error": float(signed_error(d, truth)),
             "ci_covers_truth": bool(pc.lo <= truth <= pc.hi)}
    lo, hi = pc.lo, pc.hi
    if q.agg == "avg" and q.bounds is not None and math.isfinite(lo) and math.isfinite(hi):
        # an average of numbers clipped into the public bounds lies in them: the interval is clipped too (issue 28;
        # post-processing with public bounds). It is the privacy noise's interval only, not a sampling interval.
        lo, hi = max(lo, q.bounds[0]), min(hi, q.bounds[1])
        notes.append("the AVG interval is the privacy noise's only (not a sampling interval), clipped to --bounds")
    release = QueryRelease(pc.value, released.ledger, public=public, derived_public=tuple(derived),
                           details={"ci_lo": lo, "ci_hi": hi, "direct": d}, exact=exact,
                           private=released.private and not derived, mechanism="privateclean query",
                           header=_header(f"{q.agg.upper()} WHERE {q.attr} IN {sorted(pred)}", public))
    return release, released, notes + [cli_warning(str(w.message)) for w in caught]


NEW_AGGS = ("count", "sum", "avg", "median", "var", "std")  # and percentile:P


def plain_number(v: Any) -> Any:
    """A float printed with plain digits (6 significant, no exponent: 128732000 rather than 1.28732e+08); other
    values unchanged. Display only (issue 28)."""
    if isinstance(v, (float, np.floating)) and math.isfinite(v):
        return np.format_float_positional(float(v), precision=6, unique=False, fractional=False, trim="-")
    return v


def plain_release(release: Release) -> Release:
    """The release as printed in text: numbers with plain digits (:func:`plain_number`; issue 28: a SUM read
    1.28732e+08), lists as one bracketed string. Display only."""
    def conv(v):
        if isinstance(v, dict):
            return {k: conv(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return "[" + ", ".join(str(conv(x)) for x in v) + "]"
        return plain_number(v)
    return dataclasses.replace(release, value=conv(release.value), details=conv(dict(release.details)),
                               exact=conv(dict(release.exact)))


@dataclass(frozen=True)
class QueryRelease(DescribedRelease):
    """The answer of :func:`query` / :func:`query_multi`, with its header (the query in words, the relation, S) and
    its text form (:func:`plain_release`)."""

    as_text = plain_release


def _header(what: str, public: dict) -> tuple[str]:
    return (f"{what}  (neighbouring relation: substitute one record; S = {public['rows']} is public)",)


def cli_warning(message: str) -> str:
    """A library warning in the CLI's words: the flag, not the Python argument (issue 28)."""
    import re

    message = re.sub(r"pass domains=\{.*?: \[\.\.\.\]\}", "pass --domain", message)
    return re.sub(r"pass bounds=\{.*?: \(lo, hi\)\}", "pass --bounds LO,HI", message)


def parse_agg(agg: str) -> tuple[str, float | None]:
    """``count|sum|avg|median|var|std|percentile:P`` → (aggregate, P in (0, 100) or None)."""
    if agg.startswith("percentile:"):
        try:
            P = float(agg.split(":", 1)[1])
        except ValueError:
            raise ValueError(f"--agg percentile:P needs a number P in (0, 100), got {agg!r}") from None
        if not 0 < P < 100:
            raise ValueError(f"--agg percentile:P needs 0 < P < 100, got {P:g}")
        return "percentile", P
    if agg not in NEW_AGGS:
        raise ValueError(f"--agg must be one of {', '.join(NEW_AGGS)} or percentile:P, got {agg!r}")
    return agg, None


@dataclass(frozen=True)
class MultiPlan:
    """The checked public inputs of a multi-attribute query (issue 25): several GRR attributes (independent
    partitions), a --where predicate over them and the joined public columns, --group-by over a public group domain,
    the new aggregates and a --join with a public table."""

    attrs: tuple[str, ...]
    domains: tuple[tuple[str, ...], ...]
    ps: tuple[float, ...]
    where: Any
    where_text: str
    agg: str
    percentile: float | None = None
    value_col: str | None = None
    b: float | None = None
    bounds: tuple[float, float] | None = None
    fill: float | None = None
    merges: dict = field(default_factory=dict)   # {attr: {old: new}}
    group_by: str | None = None
    groups: tuple | None = None
    join: tuple | None = None                     # (public table frame, key)
    join_path: str | None = None
    notes: tuple[str, ...] = ()
    agg_text: str = ""  # --agg as given (``percentile:90``)

    label = property(lambda self: f"privateclean_{self.agg_text.replace(':', '_')}")  # the released value's name

    def grr_params(self) -> dict[str, Any]:
        return {"discrete": dict(zip(self.attrs, self.ps)), "domains": {a: list(d) for a, d in zip(self.attrs, self.domains)},
                "other": {a: None for a in self.attrs},
                **({"numeric": {self.value_col: self.b}, "bounds": {self.value_col: self.bounds}} if self.value_col
                   else {})}


def plan_multi(attrs: Sequence[str], domains: Sequence[Sequence[str]], *, where: str | None, agg: str,
               p: float | None = None, epsilon: float | None = None, value_col: str | None = None,
               b: float | None = None, value_epsilon: float | None = None, bounds: tuple | None = None,
               fill: float | None = None, merges: dict | None = None, group_by: str | None = None,
               groups: Sequence[str] | None = None, join: Sequence[str] | None = None) -> MultiPlan:
    """Every check of a multi-attribute query on public inputs (flags, the public table), before the data is read.
    ``p`` / ``epsilon`` apply to each discrete attribute (its own GRR; the ledger composes them)."""
    from .multi import TrueP, parse_where

    aggname, P = parse_agg(agg)
    attrs = list(attrs)
    if len(set(attrs)) != len(attrs):
        raise ValueError("--attr lists an attribute twice")
    if len(domains) != len(attrs):
        raise ValueError(f"give one --domain per --attr, in the same order ({len(attrs)} --attr, {len(domains)} --domain): "
                         "a release never reads a domain off the data")
    notes: list[str] = []
    ps = []
    for a, dom in zip(attrs, domains):
        if not dom or "" in dom or len(set(dom)) != len(dom):
            raise ValueError(f"--domain of {a!r} must list distinct non-empty values")
        N = len(dom) + 1  # values outside the domain (and blank cells) go to NULL, one more category
        checked_p, e = _grr_budget(p, epsilon)
        ps.append(p_for_epsilon(e, N) if e is not None else checked_p)
    needs_value = aggname != "count"
    if needs_value and value_col is None:
        raise ValueError(f"--value-col is required for {aggname}")
    if value_col is not None:
        if value_col in attrs:
            raise ValueError("--value-col must differ from every --attr")
        lo, hi, b = _value_column(bounds, fill, b, value_epsilon)
    merges = {a: dict(m) for a, m in (merges or {}).items()}
    for a in merges:
        if a not in attrs:
            raise ValueError(f"--merge names {a!r}, which is not an --attr")
    table, key, jpath = None, None, None
    if join is not None:
        if len(join) != 3 or join[1].upper() != "ON":
            raise ValueError("--join expects PUBLIC_TABLE ON KEY")
        jpath, _, key = join
        if key not in attrs:
            raise ValueError(f"--join ... ON {key!r}: the key must be an --attr (a randomised attribute)")
        from pathlib import Path

        from dpworkbench.datasets.public_schema import read_raw_lines

        table = read_raw_lines(Path(jpath), "public table (--join)")  # public: read before the private file
        if key not in table.columns:
            raise ValueError(f"the public table {jpath} has no column {key!r}")
        if table[key].duplicated().any():
            raise ValueError(f"the public table's key {key!r} is not unique: the join would duplicate private rows")
        clash = [c for c in table.columns if c != key and (c in attrs or c == value_col)]
        if clash:
            raise ValueError(f"the public table's columns {clash} collide with the private relation's")
    known = set(attrs) | (set(table.columns) if table is not None else set())
    pred = parse_where(where) if where else TrueP()
    unknown = [a for a in pred.attrs() if a not in known]
    if unknown:
        raise ValueError(f"--where reads {unknown}: not an --attr or a column of the --join table"
                         + (" (a predicate on --value-col, the Laplace-noised number, has no unbiased estimator)"
                            if value_col in unknown else ""))
    if group_by is not None:
        if group_by not in known:
            raise ValueError(f"--group-by {group_by!r} is not an --attr or a column of the --join table")
        if groups is None:  # the public group domain: the declared domain after --merge, or the public table's column
            if group_by in attrs:
                m = merges.get(group_by, {})
                groups = list(dict.fromkeys(m.get(v, v) for v in domains[attrs.index(group_by)]))
                groups = [g for g in groups if g is not None]
            else:
                groups = list(dict.fromkeys(v for v in table[group_by].tolist() if v is not None))
        groups = tuple(groups)
    elif groups is not None:
        raise ValueError("--groups needs --group-by")
    return MultiPlan(tuple(attrs), tuple(tuple(d) for d in domains), tuple(ps), pred, where or "", aggname, P,
                     value_col, b, None if bounds is None else (float(bounds[0]), float(bounds[1])), fill, merges,
                     group_by, groups, None if table is None else (table, key), jpath, tuple(notes), agg)


def plan(attrs: Sequence[str], domains: Sequence[Sequence[str]], *, equals: Sequence[str] | None, where: str | None,
         group_by: str | None, groups: Sequence[str] | None, join: Sequence[str] | None, agg: str, merges: dict,
         other: str | None, delta: float | None, ci: str, spark: bool, **value: Any) -> QueryPlan | MultiPlan:
    """Which query the public inputs ask for, checked: the multi-attribute path (issue 25: several ``attrs``, a
    ``where``, ``group_by``, ``join`` or an aggregate beyond COUNT/SUM/AVG, :func:`plan_multi`), else the
    one-attribute query (:func:`plan_query`). ``domains``: one value list per attribute; ``merges``: {attr: {old:
    new}}; ``groups``: the listed group domain (None: not given); ``value``: the budget and the numeric column's
    inputs (``p``, ``epsilon``, ``value_col``, ``b``, ...)."""
    if len(attrs) > 1 or agg not in ("count", "sum", "avg") or any(v is not None for v in (where, group_by, join)):
        if equals is not None:
            raise ValueError("--equals is the one-attribute predicate: with --where, several --attr, --group-by, --join "
                             "or --agg median/percentile/var/std write the predicate as --where EXPR")
        if spark:
            raise ValueError("--engine spark runs the one-attribute query only")
        if other is not None or delta is not None or ci != "row_clt":
            raise ValueError("--other, --delta and --ci apply to the one-attribute query only")
        if not domains:
            raise ValueError("--domain (the public domain of each --attr, one per --attr) is required: the "
                             "multi-attribute query never reads a domain off the data")
        return plan_multi(attrs, domains, where=where, agg=agg, merges=merges, group_by=group_by, groups=groups or None,
                          join=join, **value)
    if groups is not None:
        raise ValueError("--groups needs --group-by")
    if equals is None:
        raise ValueError("give the predicate: --equals V1,V2 (one attribute) or --where EXPR")
    if len(domains) > 1:
        raise ValueError("--domain is given more than once for one --attr")
    return plan_query(attrs[0], equals, agg=agg, domain=domains[0] if domains else None, other=other, delta=delta,
                      merge=merges.get(attrs[0], {}), ci=ci, spark=spark, **value)


def query_multi(raw: pd.DataFrame, q: MultiPlan, *, rng: RngLike = None, source: str = "the table",
                progress=None) -> tuple["QueryRelease", Release, list[str]]:
    """Privatise (GRR on each --attr, Laplace on --value-col) → merge → join the public table → the joint-truth-table
    estimate (:mod:`dpworkbench.privateclean.multi`), as :func:`query` returns it. Intervals of AVG/MEDIAN/percentile are clipped to the public
    bounds (post-processing); every interval is the privacy noise's only (the randomisation of this table, given its
    rows), not a sampling interval."""
    from dpworkbench.datasets.public_schema import ColumnSpec, PublicSchema

    from .multi import estimate_where, join_public

    header = list(map(str, raw.columns))
    for col in list(q.attrs) + ([q.value_col] if q.value_col else []):
        if col not in header:
            raise ValueError(f"column {col!r} not in {source} (columns: {', '.join(header)})")
    if len(raw) == 0:
        raise ValueError(f"CSV {source} has a header but no rows: nothing to privatise")
    specs = [ColumnSpec(a, "text") for a in q.attrs] + ([ColumnSpec(q.value_col, "float")] if q.value_col else [])
    schema = PublicSchema(tuple(specs), source="flags: --attr text, --value-col float")
    if progress is not None:
        progress.next("parse cells")
    df, parse_report = schema.apply(raw[schema.names])
    if progress is not None:
        progress.next("privatise (GRR + Laplace)")
    params = q.grr_params()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        released = grr(df, params["discrete"], params.get("numeric"), domains=params["domains"], other=params["other"],
                       bounds=params.get("bounds"),
                       fill={q.value_col: q.fill} if q.value_col and q.fill is not None else None, rng=rng)
    if progress is not None:
        progress.next("clean and estimate")
    crel = CleanedRelation.start(released)
    for a, m in q.merges.items():
        crel = crel.merge(a, m, note="CLI merges")
    if q.join is not None:
        crel = join_public(crel, q.join[0], q.join[1])
    kw = dict(group_by=q.group_by, groups=q.groups, percentile=q.percentile, value_bounds=q.bounds)
    pc = estimate_where(crel, q.agg, q.where, q.value_col, **kw)
    d = estimate_where(crel, q.agg, q.where, q.value_col, method="direct", **kw)
    notes = [cli_warning(str(w.message)) for w in caught]
    clip = q.agg in ("avg", "median", "percentile") and q.bounds is not None

    def cl(v):
        return float(np.clip(v, *q.bounds)) if clip and np.isfinite(v) else float(v)
    if q.group_by is None:
        value, details = pc.value, {"ci_lo": cl(pc.lo), "ci_hi": cl(pc.hi), "direct": d.value}
    else:
        value = {str(g): float(v) for g, v in zip(pc["group"], pc["value"])}
        details = {"ci": {str(g): [cl(lo), cl(hi)] for g, lo, hi in zip(pc["group"], pc["lo"], pc["hi"])},
                   "direct": {str(g): float(v) for g, v in zip(d["group"], d["value"])}}
    notes.append("the 95% interval is the privacy noise's only (the randomisation of these rows), not a sampling "
                 "interval" + ("; clipped to the public --bounds" if clip else ""))
    public = dict(released.public)
    public.update({"agg": q.agg if q.percentile is None else f"percentile:{q.percentile:g}", "where": q.where_text,
                   "group_by": q.group_by, "groups": list(q.groups) if q.groups else None,
                   "merges": {a: dict(m) for a, m in q.merges.items()}, "join": q.join_path,
                   "schema": schema.to_public()})
    # --- NOT PRIVATE: the same query on the pre-noise relation (every row kept, no noise) ---------------------------
    from .mechanisms import GRR as _G
    from .model import PrivateRelation

    pre = _G.statistics(df, **_G.check_params({**params, "fill": {q.value_col: q.fill} if q.value_col and q.fill
                                                is not None else None}))
    tdata = pd.DataFrame({a: np.asarray(public["domain"][a], dtype=object)[pre["codes"][a]] for a in q.attrs})
    if q.value_col:
        tdata[q.value_col] = pre["values"][q.value_col]
    trel = CleanedRelation.start(PrivateRelation(tdata, {a: 0.0 for a in q.attrs}, released.value.b,
                                                 released.value.domains, released.value.deltas))
    for a, m in q.merges.items():
        trel = trel.merge(a, m)
    if q.join is not None:
        trel = join_public(trel, q.join[0], q.join[1])
    t = estimate_where(trel, q.agg, q.where, q.value_col, method="direct", **kw)
    truth = t.value if q.group_by is None else {str(g): float(v) for g, v in zip(t["group"], t["value"])}
    exact = {"input": {"cells": parse_report.columns, **dict(released.exact)}, "true_answer": truth}
    what = (f"{q.agg_text.upper()}{' OF ' + q.value_col if q.value_col else ''}"
            f"{' WHERE ' + q.where_text if q.where_text else ''}{' GROUP BY ' + q.group_by if q.group_by else ''}")
    release = QueryRelease(value, released.ledger, public=public, details=details, exact=exact,
                           private=released.private, mechanism="privateclean query", header=_header(what, public))
    return release, released, notes


__all__ = ["MultiPlan", "QueryPlan", "PARAMS", "QueryRelease", "RELATION", "cli_warning", "parse_agg", "plain_number", "plain_release", "plan",
           "plan_multi", "plan_query", "query", "query_multi"]
