"""Experiment drivers of the PrivateClean notebooks (spec §5, §6.4): sweeps through the shared runner and the
summaries (tables, slopes, ratios, crossovers) that the figures and claims read.

References
----------
Krishnan et al., "PrivateClean: Data Cleaning and Differential Privacy", SIGMOD 2016 (seed 002), §8 and Appendix D
(experimental setup: 100 random instances per point, relative error).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from dpworkbench.experiments import run_grid
from .standins import run_cars_batch, run_intel, run_intel_batch, run_mcafe, run_tpcds
from .batch import run_batch, run_multiattr_batch
from .synthetic import run_instance, run_multiattr_instance

BATCHED = {"synthetic", "intel", "cars", "multiattr"}
KINDS = {"synthetic": run_batch, "synthetic_loop": run_instance, "multiattr": run_multiattr_batch,
         "multiattr_loop": run_multiattr_instance, "intel": run_intel_batch, "intel_loop": run_intel, "cars": run_cars_batch, "mcafe": run_mcafe, "tpcds": run_tpcds}


def sweep(ctx, name: str, x: str, values, *, repetitions: int, fixed: dict | None = None, multiattr: bool = False,
          seed: int = 0, kind: str | None = None) -> pd.DataFrame:
    """Run ``repetitions`` random private instances per x value through :func:`dpworkbench.experiments.run_grid`;
    returns the tidy per-instance errors.

    Each cell's seed stream is derived from ``seed`` and the cell's parameters only. The code version is not one of
    them (``run_grid`` recomputes stale cells by its own ``code_version``): a privateclean source hash in the cell
    parameters redrew every instance, and moved every seeded figure, after any edit of the package.
    """
    kind = kind or ("multiattr" if multiattr else "synthetic")
    fn = KINDS[kind]
    fixed = dict(fixed or {})
    record_data_source(kind, fixed, seed=seed)
    if kind in BATCHED:  # all repetitions of a cell drawn at once (vectorised; batch.py)
        fixed["batch"] = int(repetitions)
        repetitions = 1
    df = run_grid(f"privateclean_{name}", fn, {x: list(values)}, repetitions=repetitions, seed=seed,
                  fixed=fixed, results_dir=ctx.results_dir)
    if "skipped" in df.columns:
        df = df[df["skipped"].isna() | (df["skipped"] == False)]  # noqa: E712
    return df.dropna(subset=["rel_error"])


def table(df: pd.DataFrame, x: str) -> pd.DataFrame:
    """Mean / median / IQR of the relative error per (agg, method, x)."""
    g = df.groupby(["agg", "method", x])["rel_error"]
    return pd.DataFrame({"mean": g.mean(), "median": g.median(), "q25": g.quantile(0.25), "q75": g.quantile(0.75),
                         "n": g.size()}).reset_index()


def value(tab: pd.DataFrame, agg: str, method: str, x: str, xv, stat: str = "mean") -> float:
    """``stat`` of ``method``'s relative error for aggregate ``agg`` at ``x == xv`` (NaN when absent)."""
    t = tab[(tab["agg"] == agg) & (tab["method"] == method) & np.isclose(tab[x].astype(float), float(xv))]
    return float(t[stat].iloc[0]) if len(t) else float("nan")


def slope(tab: pd.DataFrame, agg: str, method: str, x: str) -> float:
    """Least-squares slope of ``method``'s mean relative error for ``agg`` against ``x``."""
    t = tab[(tab["agg"] == agg) & (tab["method"] == method)].sort_values(x)
    return float(np.polyfit(t[x].astype(float), t["mean"], 1)[0])


def worst_ratio(tab: pd.DataFrame, x: str, *, better: str = "privateclean", than: str = "direct",
                aggs=("count", "sum")) -> float:
    """max over the x values and aggregates of ``better``'s mean error / ``than``'s (≤ 1: never worse)."""
    return float(max(value(tab, a, better, x, v) / value(tab, a, than, x, v) for a in aggs for v in tab[x].unique()))


def record_data_source(kind: str, fixed: dict | None = None, *, seed: int = 0) -> None:
    """Record in the run's provenance (``datasets.json`` → ``reports/<profile>/datasets.csv``) which data a sweep of
    ``kind`` uses: the Appendix D generator, the IntelWireless stand-in, the cars table or TPC-DS customer_address."""
    from ..datasets import provenance

    fixed = dict(fixed or {})
    if kind in ("synthetic", "synthetic_loop"):
        provenance.record("privateclean.appendix_d", "synthetic", f"Appendix D generator (seed={seed}; N, S, l, z per cell; "
                          "the paper's synthetic data are not published)", int(fixed.get("S", 1000)))
    elif kind in ("multiattr", "multiattr_loop"):
        provenance.record("privateclean.appendix_d_multiattr", "synthetic", f"Appendix D two-attribute generator (seed={seed})",
                          int(fixed.get("S", 1000)))
    elif kind in ("intel", "intel_loop"):
        scale = float(fixed.get("scale", 0.1))
        provenance.record("privateclean.intel_like", "synthetic", f"intel_like(scale={scale:g}) stand-in for IntelWireless "
                          "(the real data are not available offline)", int(2_300_000 * scale))
    elif kind == "cars":
        from .standins import cars

        df, source = cars(fixed.get("prefer", "real"))
        provenance.record("privateclean.cars", source, "vega_datasets cars table (MCAFE stand-in)" if source == "real"
                          else "synthetic copy of the cars table's make frequencies", len(df))
    elif kind == "tpcds":
        from .standins import tpcds_truth

        df, source = tpcds_truth(fixed)
        what = (f"TPC-DS customer_address (dsdgen, sf={float(fixed.get('sf', 1.0)):g})" if source == "real"
                else f"customer_address stand-in (S={fixed.get('S')})")
        provenance.record("privateclean.tpcds_customer_address", source, what, len(df))
    elif kind == "mcafe":
        from .standins import mcafe_like

        data_seed = int(fixed.get("data_seed", 0))
        provenance.record("privateclean.mcafe_like", "synthetic", f"mcafe_like(seed={data_seed}) stand-in for MCAFE",
                          len(mcafe_like(data_seed)[0]))


def data_source(kind: str, fixed: dict | None = None) -> str:
    """Which data a stand-in notebook used: "real" or "synthetic" (said plainly in the notebook)."""
    fixed = dict(fixed or {})
    if kind == "tpcds":
        from .standins import tpcds_truth
        return tpcds_truth(fixed)[1]
    if kind == "cars":
        from .standins import cars
        return cars(fixed.get("prefer", "real"))[1]
    return "synthetic"


def crossover(tab: pd.DataFrame, agg: str, x: str, *, a: str = "direct", b: str = "privateclean") -> float:
    """First x at which ``a``'s mean error drops to ``b``'s or below (linear interpolation between grid points);
    NaN when ``a`` stays worse over the whole grid, the first grid value when it is never worse."""
    xs = sorted(float(v) for v in tab[x].unique())
    d = [value(tab, agg, a, x, v) - value(tab, agg, b, x, v) for v in xs]
    if d[0] <= 0:
        return xs[0]
    for (x0, d0), (x1, d1) in zip(zip(xs, d), zip(xs[1:], d[1:])):
        if d1 <= 0:
            return x0 + (x1 - x0) * d0 / (d0 - d1)
    return float("nan")


def paired_difference(df: pd.DataFrame, agg: str, x: str, at, *, a: str = "privateclean", b: str = "direct",
                      pair: str = "repetition") -> tuple[float, float]:
    """Paired ``a`` − ``b`` relative error at ``x == at`` for aggregate (or panel) ``agg`` of a tidy sweep: the
    mean over the ``pair`` units (repetitions) and its standard error (sample SD / √n; NaN with fewer than two)."""
    d = df[df["agg"] == agg].pivot_table(index=[x, pair], columns="method", values="rel_error")
    for m in (a, b):
        if m not in d.columns:
            raise ValueError(f"method {m!r} has no rel_error for agg {agg!r} (methods: {sorted(d.columns)})")
    diff = (d[a] - d[b]).xs(at, level=0)
    se = float(diff.std(ddof=1) / len(diff) ** 0.5) if len(diff) > 1 else float("nan")
    return float(diff.mean()), se


def merge_rate_paired(df: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Fig. 6's two paired summaries of a tidy sweep: per merge rate, the mean and SE of PrivateClean − no-provenance
    count relative error (paired by instance), and per (method, merge rate) the mean and SE of the signed count error."""
    d = df[df["agg"] == "count"].pivot_table(index=["merge_rate", "instance"], columns="method", values="rel_error")
    diff = (d["privateclean"] - d["pc_noprov"]).groupby(level=0).agg(["mean", "sem"])
    sg = df[(df["agg"] == "count") & df["method"].isin(["privateclean", "pc_noprov"])].assign(err=lambda x: x["estimate"] - x["truth"])
    bias = sg.groupby(["method", "merge_rate"])["err"].agg(["mean", "sem"])
    return diff, bias
