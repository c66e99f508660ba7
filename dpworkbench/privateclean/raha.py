"""PrivateClean on real dirty data: raha's beers, flights and rayyan, with their ground-truth clean versions.

No paper or artifact has this experiment (issue 13). For each dataset:

1. The **dirty** table R is reduced to one discrete attribute A (the predicate attribute) and one numeric
   attribute B. B is typed by the data owner with a documented public parser (:data:`SPECS`: e.g. beers'
   ``abv`` "0.05%" → 0.05; unparseable or missing → the public default), clipped to public bounds.
2. R is privatised once per repetition with GRR (:func:`dpworkbench.privateclean.grr`: A keeps its value w.p.
   1 − p, else a uniform draw from A's domain; B gets Laplace(b) noise).
3. V is cleaned with the **repair map** the clean version implies (:func:`repair_map`): for each dirty value of
   A, the clean value most of its rows have in the aligned clean table. That is a value mapping
   (Merge/Transform on one attribute: the cleaning model PrivateClean's provenance handles). Where the
   benchmark's repairs depend on the row, not only on the value (flights: conflicting sources), a value map
   cannot express them; the *cleaning residual* (:func:`cleaning_residual`: the query on the repaired dirty
   table vs the clean table, no privacy) measures what is left.
4. COUNT / SUM / AVG ``WHERE A ∈ M_pred`` are answered with Direct, PrivateClean (weighted provenance) and
   the no-provenance estimator (``pc_noprov``: l′, N′ of the cleaned domain), and compared with the same query
   on the clean table (relative error), over p and repetitions (:func:`run` → ``experiments.run_grid``).

What is public and what is private
----------------------------------
* Public: the schema (A, B), the row count S, p and b, A's domain (here the distinct values of the dirty
  column — read off the benchmark table, which only a research run may do; a release would take it as an
  argument, and ``grr`` refuses a release without one), B's bounds and parser, the query
  predicates M_pred (fixed in :data:`SPECS` before running), and the repair map as the *analyst's cleaner*.
* NOT private: the repair map is derived from the private dirty table and its ground truth (an oracle
  cleaner standing in for one an analyst would write by looking at V), and the ground-truth answers are exact.
  The experiment measures estimator accuracy with seeded noise (research only); it is not a release.

The expectations (:data:`EXPECTATIONS`, checked by :func:`dpworkbench.privateclean.claims.raha_cleaning`) were written before the experiment
was first run, from the data's error profile alone (dirty vs clean distinct values, value-map accuracy).

Without the benchmark's tables (``DPWB_DATA/cleaning/<name>``), :func:`pair` builds a seeded stand-in of the same schema
(:mod:`dpworkbench.privateclean.datasets`: beers' can-size spellings, flights' conflicting sources, rayyan's blank
issue numbers) and says so (``Prepared.source``, the ``[data]`` line); the claims then carry a ``stand-in`` cause.
"""

from __future__ import annotations

import math
import re
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from dpworkbench import datasets as registry
from dpworkbench._validation import check_options
from dpworkbench.datasets import provenance
from dpworkbench.datasets.real import read_table
from dpworkbench.experiments.metrics import relative_error
from dpworkbench.mechanisms.backends import RngLike, check_rng

from . import datasets as standins
from .estimators import estimate
from .mechanisms import grr
from .model import CleanedRelation

DATASETS = ("beers", "flights", "rayyan")
METHODS = ("direct", "privateclean", "pc_noprov")
AGGS = ("count", "sum", "avg")


def parse_number(text: str, default: float) -> float:
    """Owner's public parser for a numeric attribute: the first number in the text, else ``default``."""
    m = re.search(r"-?\d+(?:\.\d+)?", text or "")
    return float(m.group()) if m else default


def _minutes(text: str, default: float) -> float:
    """'7:10 a.m.' → 430 (minutes after midnight); anything else → ``default``."""
    m = re.search(r"(\d{1,2}):(\d{2})\s*([ap])\.?m", (text or "").lower())
    if not m:
        return default
    h, mi, ap = int(m.group(1)) % 12, int(m.group(2)), m.group(3)
    return float((h + (12 if ap == "p" else 0)) * 60 + mi)


@dataclass(frozen=True)
class RahaSpec:
    """One dataset's experiment: the attributes, the owner's parser for B, its public bounds, the query."""

    name: str
    predicate_attr: str  # A: discrete, privatised with GRR, cleaned with the repair map
    numeric_attr: str  # B: numeric, Laplace
    parse: Callable[[str, float], float]
    default: float  # value of an unparseable/missing B (public)
    bounds: tuple[float, float]  # public clipping range of B; Δ = hi − lo
    predicate: tuple[str, ...]  # M_pred: clean values of A selected by the query
    why: str  # what the repair map does on A (may name the profile's ``dirty_values`` / ``clean_values``)


SPECS: dict[str, RahaSpec] = {
    # 25 dirty spellings of 7 sizes ("12.0 oz", "12.0 OZ.", "12.0 ounce" → "12"): a pure merge; value map is exact.
    "beers": RahaSpec("beers", "ounces", "abv", parse_number, 0.0, (0.0, 0.15), ("12",),
                      "merges {dirty_values} dirty spellings of the can size into {clean_values} clean values"),
    # Scheduled departure times reported by 38 sources that disagree; the clean value depends on the flight,
    # so a value map repairs formats and blanks only partly.
    "flights": RahaSpec("flights", "sched_dep_time", "act_dep_time", _minutes, 720.0, (0.0, 1440.0),
                        ("6:00 a.m.", "7:10 a.m.", "2:55 p.m."),
                        "maps each dirty departure time to the clean time most of its rows have (sources conflict)"),
    # Blank issue numbers are repaired to the benchmark's missing marker "-1".
    "rayyan": RahaSpec("rayyan", "article_jissue", "article_jvolumn", parse_number, 0.0, (0.0, 400.0), ("-1", "1"),
                       "merges blank issue numbers into the missing marker -1"),
}

# Written before the first run (see the module docstring); claims.raha_cleaning turns each into a rule.
EXPECTATIONS = {
    "residual_beers": "beers: the repair map is exact on the can size → cleaning residual of COUNT = 0",
    "pc_beats_direct": "COUNT at the largest p: PrivateClean's median relative error < Direct's on every dataset "
                       "(Direct is biased by S·p·(l/N − s), Prop. 2)",
    "pc_beats_noprov_beers": "beers COUNT, largest p: PrivateClean (l = dirty values merged into '12', N = 25) beats the "
                             "no-provenance estimator (l′ = 1, N′ = 7) — the paper's point on merges",
    "pc_small_beers": "beers COUNT, smallest p: PrivateClean median relative error ≤ 5 %",
    "coverage_beers": "beers COUNT: PrivateClean's 95 % interval covers the clean answer in ≥ 80 % of runs (all p)",
    "residual_flights": "flights: a value map cannot repair conflicting sources → cleaning residual of COUNT ≥ 5 %",
}


# ------------------------------------------------------------------------------------------------------ data
REAL = "real"
STAND_IN = "stand-in"


def load_pair(name: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(dirty, clean) of a raha benchmark, read as text, clean's column names on both (rows are aligned).

    The real tables only: FileNotFoundError when they are absent (:func:`pair` falls back to the stand-in)."""
    check_options(name, "dataset", DATASETS)
    rel = [f"cleaning/{name}/dirty.csv.gz", f"cleaning/{name}/clean.csv.gz"]
    paths = [registry.real_path(r) for r in rel]
    if any(p is None for p in paths):
        raise FileNotFoundError(f"raha {name}: {rel[0]} / {rel[1]} not under the data directory (DPWB_DATA); "
                                "raha.pair uses the seeded stand-in instead")
    dirty, clean = (read_table(p, dtype=str).fillna("") for p in paths)
    if dirty.shape != clean.shape:
        raise ValueError(f"{paths[0]}: shape {dirty.shape} differs from the clean version's {clean.shape}")
    dirty.columns = clean.columns  # beers' dirty header spells beer_name where the clean one has beer-name
    for p, r, df in zip(paths, ("dirty", "clean"), (dirty, clean)):
        provenance.record(f"raha.{name}.{r}", "real", provenance.display_path(p), len(df), registry.file_sha256(p))
    return dirty, clean


def standin_pair(name: str, seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The seeded stand-in of a raha pair, at the real table's size (:mod:`dpworkbench.privateclean.datasets`).

    flights' popular departure times are the query's (:data:`SPECS`), read by the owner's parser."""
    check_options(name, "dataset", DATASETS)
    if name == "flights":
        popular = [int(_minutes(t, math.nan)) for t in SPECS["flights"].predicate]
        return standins.raha_flights_standin(seed, popular_minutes=popular)
    return {"beers": standins.raha_beers_standin, "rayyan": standins.raha_rayyan_standin}[name](seed)


def pair(name: str, seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """(dirty, clean, source): the real pair when its tables are under DPWB_DATA (``source`` :data:`REAL`), else the
    seeded stand-in (:data:`STAND_IN`; ``seed`` is its data seed, unused for the real tables). Either is recorded in
    the provenance and printed as one ``[data]`` line."""
    try:
        return (*load_pair(name), REAL)
    except FileNotFoundError:
        dirty, clean = standin_pair(name, seed)
    for role, df in (("dirty", dirty), ("clean", clean)):
        provenance.record(f"raha.{name}.{role}", "synthetic", f"stand-in raha.standin_pair({name!r}, seed={seed})", len(df),
                          note=f"the raha {name} tables are absent under the data directory", stands_in_for=f"raha.{name}.{role}")
    return dirty, clean, STAND_IN


def repair_map(dirty: pd.Series, clean: pd.Series) -> dict[str, str]:
    """Dirty value → the clean value most of its rows have (ties: the lexicographically first). NOT private."""
    pairs = pd.DataFrame({"d": dirty.to_numpy(), "c": clean.to_numpy()})
    counts = pairs.value_counts().reset_index(name="n").sort_values(["d", "n", "c"], ascending=[True, False, True])
    return dict(counts.drop_duplicates("d")[["d", "c"]].itertuples(index=False, name=None))


def numeric_column(spec: RahaSpec, values: pd.Series) -> np.ndarray:
    lo, hi = spec.bounds
    return np.clip(np.array([spec.parse(v, spec.default) for v in values], dtype=float), lo, hi)


def truth(spec: RahaSpec, clean: pd.DataFrame) -> dict[str, float]:
    """The query on the clean table (exact; NOT private)."""
    sel = clean[spec.predicate_attr].isin(spec.predicate).to_numpy()
    b = numeric_column(spec, clean[spec.numeric_attr])
    c, h = float(sel.sum()), float(b[sel].sum())
    return {"count": c, "sum": h, "avg": h / c if c else math.nan}


def cleaning_residual(spec: RahaSpec, dirty: pd.DataFrame, clean: pd.DataFrame) -> dict[str, float]:
    """Relative error of the query on the repaired dirty table (no privacy) vs the clean table."""
    mapping = repair_map(dirty[spec.predicate_attr], clean[spec.predicate_attr])
    repaired = dirty.copy()
    repaired[spec.predicate_attr] = dirty[spec.predicate_attr].map(mapping)
    t, r = truth(spec, clean), truth(spec, repaired.assign(**{spec.numeric_attr: dirty[spec.numeric_attr]}))
    return {agg: relative_error(r[agg], t[agg], zero_truth="nan") for agg in AGGS}


@dataclass
class Prepared:
    spec: RahaSpec
    table: pd.DataFrame  # the released schema: A (text) and B (parsed, clipped), from the dirty table
    mapping: dict[str, str]
    domain: list[str]
    truth: dict[str, float]
    residual: dict[str, float]
    stats: dict[str, Any]
    source: str = REAL  # REAL or STAND_IN (:func:`pair`)


def prepare(name: str, seed: int = 0) -> Prepared:
    """Everything a repetition needs (read once): released schema, repair map, public domain, ground truth.

    ``seed``: the stand-in's data seed when the real pair is absent (:func:`pair`)."""
    spec = SPECS[name]
    dirty, clean, source = pair(name, seed)
    a = spec.predicate_attr
    table = pd.DataFrame({a: dirty[a].to_numpy(dtype=object), spec.numeric_attr: numeric_column(spec, dirty[spec.numeric_attr])})
    mapping = repair_map(dirty[a], clean[a])
    domain = sorted(dirty[a].unique().tolist())  # data-derived (research only; see the module docstring)
    acc = float((dirty[a].map(mapping) == clean[a]).mean())
    stats = {"dataset": name, "rows": len(dirty), "A": a, "B": spec.numeric_attr, "A_error_rate": float((dirty[a] != clean[a]).mean()),
             "dirty_values": len(domain), "clean_values": int(clean[a].nunique()), "value_map_accuracy": acc,
             "B_error_rate": float((numeric_column(spec, dirty[spec.numeric_attr]) != numeric_column(spec, clean[spec.numeric_attr])).mean()),
             "predicate": " | ".join(spec.predicate)}
    stats["repair"] = spec.why.format(**stats)  # the counts of this table (the real one's or the stand-in's)
    return Prepared(spec, table, mapping, domain, truth(spec, clean), cleaning_residual(spec, dirty, clean), stats, source)


# ------------------------------------------------------------------------------------------------ one run
def run_once(prep: Prepared, p: float, *, b_fraction: float = 0.5, rng: RngLike = None) -> list[dict]:
    """Privatise, clean, answer: one row per (agg, method) with the estimate, its interval and the relative error."""
    spec = prep.spec
    backend = check_rng(rng)
    lo, hi = spec.bounds
    b = b_fraction * (hi - lo)  # ε of B = Δ/b = 1/b_fraction (2 by default), fixed over the p grid
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # domains/bounds are declared; nothing here is data-derived by grr itself
        release = grr(prep.table, {spec.predicate_attr: p}, {spec.numeric_attr: b},
                      domains={spec.predicate_attr: prep.domain}, bounds={spec.numeric_attr: spec.bounds}, rng=backend)
    crel = CleanedRelation.start(release).merge(spec.predicate_attr, prep.mapping, note="repair map from the clean version")
    out = []
    for agg in AGGS:
        t = prep.truth[agg]
        for method in METHODS:
            try:
                e = estimate(crel, agg, spec.predicate_attr, set(spec.predicate), None if agg == "count" else spec.numeric_attr,
                             method=method)
                val, lo_, hi_ = e.value, e.lo, e.hi
            except ValueError:  # an empty selection under heavy noise: no answer
                val = lo_ = hi_ = math.nan
            # no answer (NaN) or an infinite one has no relative error here: NaN, as for a zero truth
            rel = relative_error(val, t, zero_truth="nan") if math.isfinite(val) else math.nan
            covered = bool(lo_ <= t <= hi_) if math.isfinite(lo_) and math.isfinite(hi_) else None
            out.append({"agg": agg, "method": method, "estimate": val, "truth": t, "rel_error": rel, "covered": covered,
                        "epsilon": float(release.epsilon) if hasattr(release, "epsilon") else math.nan})
    return out


def run(profile_grid: dict, *, repetitions: int, seed: int = 0, results_dir=None, progress: bool = False) -> pd.DataFrame:
    """The grid dataset × p × repetition through :func:`dpworkbench.experiments.run_grid`; tidy rows. ``seed`` seeds
    the noise and, where a real pair is absent, the stand-in's data (:func:`prepare`)."""
    from dpworkbench.experiments import run_grid

    preps = {d: prepare(d, seed) for d in profile_grid["dataset"]}

    def cell(c: dict, gen: np.random.Generator) -> list[dict]:
        return run_once(preps[c["dataset"]], float(c["p"]), rng=gen)

    return run_grid("privateclean_raha", cell, {"dataset": list(profile_grid["dataset"]), "p": list(profile_grid["p"])},
                    repetitions=repetitions, seed=seed, results_dir=results_dir, progress=progress)


def summary(results: pd.DataFrame) -> pd.DataFrame:
    """Median and IQR of the relative error, and interval coverage, per dataset × p × agg × method."""
    g = results.groupby(["dataset", "p", "agg", "method"])
    out = g["rel_error"].agg(median="median", q25=lambda s: s.quantile(0.25), q75=lambda s: s.quantile(0.75), runs="size")
    out["coverage"] = g["covered"].apply(lambda s: float(pd.Series(s).dropna().astype(bool).mean()) if s.notna().any() else math.nan)
    return out.reset_index()


COLORS = {"direct": "#888888", "privateclean": "#1f77b4", "pc_noprov": "#d62728"}


def figure(summ: pd.DataFrame, residual: dict[str, dict[str, float]] | None = None, stand_ins: Sequence[str] = ()):
    """One row per dataset, one column per aggregate: median relative error vs p with an IQR band per method.

    A dotted line marks the cleaning residual (repaired dirty table vs clean, no privacy): no estimator can
    go below it on average. ``stand_ins``: the datasets run on their seeded stand-in (named so in the titles).
    """
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    ds = list(dict.fromkeys(summ["dataset"]))
    fig = make_subplots(rows=len(ds), cols=len(AGGS), shared_xaxes=True,
                        subplot_titles=[f"{d}{' (stand-in)' if d in stand_ins else ''}: {a.upper()}" for d in ds for a in AGGS],
                        vertical_spacing=0.08)
    for i, d in enumerate(ds, 1):
        for j, agg in enumerate(AGGS, 1):
            for m in METHODS:
                t = summ[(summ.dataset == d) & (summ["agg"] == agg) & (summ.method == m)].sort_values("p")
                if t.empty:
                    continue
                c = COLORS[m]
                fig.add_trace(go.Scatter(x=list(t.p) + list(t.p)[::-1], y=list(100 * t.q75) + list(100 * t.q25)[::-1], fill="toself", mode="lines",
                                         line=dict(width=0), fillcolor=c, opacity=0.15, showlegend=False, hoverinfo="skip"), row=i, col=j)
                fig.add_trace(go.Scatter(x=t.p, y=100 * t["median"], mode="lines+markers", name=m, line=dict(color=c),
                                         legendgroup=m, showlegend=(i == 1 and j == 1)), row=i, col=j)
            if residual is not None and d in residual and math.isfinite(residual[d][agg]):
                fig.add_hline(y=100 * residual[d][agg], line=dict(dash="dot", color="black", width=1), row=i, col=j)
            fig.update_yaxes(title_text="median rel. error (%)" if j == 1 else None, row=i, col=j)
    for j in range(1, len(AGGS) + 1):
        fig.update_xaxes(title_text="p (GRR)", row=len(ds), col=j)
    n_stand_in = len(set(ds) & set(stand_ins))
    data = ("real dirty data (raha benchmarks)" if n_stand_in == 0 else "seeded stand-ins of the raha benchmarks"
            if n_stand_in == len(ds) else "raha benchmarks (real; seeded stand-ins where marked)")
    fig.update_layout(title=f"PrivateClean on {data}: error vs the clean answer; dotted = cleaning residual",
                      height=300 * len(ds) + 80, template="plotly_white")
    return fig


__all__ = ["DATASETS", "EXPECTATIONS", "METHODS", "Prepared", "REAL", "RahaSpec", "SPECS", "STAND_IN", "cleaning_residual", "load_pair",
           "pair", "prepare", "figure", "repair_map", "run", "run_once", "standin_pair", "summary", "truth"]
