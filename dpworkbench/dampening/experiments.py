"""Experiment drivers of the local-dampening notebooks (Figs. 17, 20, 23–25 and Table 1).

The drivers compute the non-private model once per dataset and then evaluate the mechanisms over the
grids of the figures; notebooks call them and hand the results to ``figures`` and ``claims``.

References
----------
V. A. E. de Farias, *Local Dampening: Differential Privacy for Non-numeric Queries via Local
Sensitivity*, PhD thesis, UFC 2021 (PVLDB 14(4) 2020), §5.4 (Fig. 17), §6.5 (Fig. 20, Table 1),
Ch. 7 (Figs. 23–25).
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from dpworkbench._validation import check_options

from . import ebc as E
from . import id3 as I
from . import median as M


def median_curves(hist, eps_grid: Sequence[float], *, methods=("EM", "PF", "LD", "SLD"), pf_runs=10_000, pf="exact",
                  seed=0) -> pd.DataFrame:
    """Expected error per (ε, method); PF exact (grouped integral) or Monte-Carlo over ``pf_runs`` runs."""
    g = M.histogram_groups(hist)  # non-private part computed once for the whole ε grid
    rows = []
    for i, eps in enumerate(tqdm(list(eps_grid), desc="median ε grid", leave=False)):
        for m in methods:
            rows.append({"epsilon": float(eps), "method": m,
                         "error": M.expected_error(g, m, float(eps), runs=pf_runs, rng=np.random.default_rng([seed, i]), pf=pf)})
    return pd.DataFrame(rows)


def median_reduction(df: pd.DataFrame) -> dict:
    p = df.pivot(index="epsilon", columns="method", values="error")
    base = np.minimum(p["EM"], p["PF"])
    red = 1 - p["LD"] / base
    return {"mean": float(red.mean()), "max": float(red.max()), "mean_vs_em": float((1 - p["LD"] / p["EM"]).mean())}


def privtopk_curves(ebc, degrees, ks, eps_grid, *, methods=E.METHODS, runs=100, pf_runs=None, seed=0, max_degree_bound=None) -> pd.DataFrame:
    rows = []
    grid = [(k, i, eps, m) for k in ks for i, eps in enumerate(eps_grid) for m in methods]
    for k, i, eps, m in tqdm(grid, desc="PrivTopk", leave=False):
        r = (pf_runs or runs) if m == "PF" else runs
        acc = E.top_k_accuracy(ebc, degrees, k, epsilon=float(eps), method=m, runs=r, rng=np.random.default_rng([seed, k, i, len(m)]),
                               max_degree_bound=max_degree_bound)
        rows.append({"k": k, "epsilon": float(eps), "method": m, "accuracy": acc, "runs": r})
    return pd.DataFrame(rows)


def budget_to_reach(df: pd.DataFrame, level: float = 0.9) -> pd.DataFrame:
    """Smallest ε of the grid with accuracy ≥ level, per (k, method) (NaN when never reached)."""
    out = []
    for (k, m), g in df.groupby(["k", "method"]):
        ok = g[g.accuracy >= level].epsilon
        out.append({"k": k, "method": m, "budget": float(ok.min()) if len(ok) else np.nan})
    return pd.DataFrame(out)


def gap_range_text(gap: pd.Series) -> str:
    """Summary of log10 budget gaps (orders of magnitude): "min–max orders" over the non-NaN entries,
    or "not reached on grid" when every entry is NaN (the baseline never reached the accuracy level)."""
    g = pd.Series(gap, dtype=float)
    return f"{np.nanmin(g):.1f}–{np.nanmax(g):.1f} orders" if g.notna().any() else "not reached on grid"


def per_graph_gap_text(gap: pd.Series, sources: Mapping[str, str]) -> str:
    """Per-graph gap summary for Fig. 20's claims: "<graph> (<source>): <gap_range_text>" joined by "; ".

    ``gap`` is indexed by (graph, k) (first level = graph name, in order of first appearance); ``sources``
    maps each graph name to its data source ("real" / "synthetic"). Graphs with NaN entries (k for which the
    baseline did not reach the accuracy level on the ε grid) say how many.
    """
    if not isinstance(gap.index, pd.MultiIndex):
        raise ValueError("gap must be indexed by (graph, k): a pandas MultiIndex")
    parts = []
    for gname in gap.index.get_level_values(0).unique():
        if gname not in sources:
            raise ValueError(f"no data source given for graph {gname!r}")
        gg = gap.loc[gname]
        miss = int(gg.isna().sum())
        parts.append(f"{gname} ({sources[gname]}): {gap_range_text(gg)}"
                     + (f", {miss} k not reached by the baseline on the grid (gap larger)" if miss else ""))
    return "; ".join(parts)


def table1_ptk(graph, *, samples=10, runs=10, size=50, ks=(1, 2, 3), budgets=(0.1, 0.5, 1.0, 5.0, 10.0), seed=0,
               bound: str = "parent") -> pd.DataFrame:
    """SLDPrivTopk accuracy on BFS samples (|S| = size), averaged over samples, runs and k.

    ``bound``: the public max-degree bound behind ΔEBC and δ^EBC — ``"parent"`` (default): the parent graph's max
    degree, the per-dataset Δ(G) the thesis assumes public (a valid bound for every sample); ``"sample"``: each
    sample's own max degree (also assumed public)."""
    check_options(bound, "bound", ("parent", "sample"))
    gen = np.random.default_rng(seed)
    parent = int(np.max(graph.degrees))
    rows = []
    for s in range(samples):
        sub = E.bfs_sample(graph, size, rng=gen)
        e, d = E.ebc_all(sub, cache=False), sub.degrees
        mdb = parent if bound == "parent" else None
        for B in budgets:
            for k in ks:
                rows.append({"sample": s, "B": B, "k": k,
                             "accuracy": E.top_k_accuracy(e, d, k, epsilon=B, method="SLD", runs=runs, rng=gen, max_degree_bound=mdb)})
    return pd.DataFrame(rows).groupby("B", as_index=False)["accuracy"].mean()


def id3_curves(data: dict, eps_grid, depths, *, methods=I.METHODS, folds=10, repetitions=1, max_rows=None, seed=0) -> pd.DataFrame:
    X, y = data["X"], data["y"]
    if max_rows is not None and X.shape[0] > max_rows:
        idx = np.random.default_rng(seed).choice(X.shape[0], max_rows, replace=False)
        X, y = X[idx], y[idx]
    rows = []
    grid = [(d, i, e, m, r) for d in depths for i, e in enumerate(eps_grid) for m in methods for r in range(repetitions)]
    for d, i, e, m, r in tqdm(grid, desc="ID3", leave=False):
        acc = I.cross_validate(X, y, data["domains"], data["n_classes"], depth=d, budget=float(e), method=m, folds=folds,
                               rng=np.random.default_rng([seed, d, i, r]),  # same noise stream per method (paired)
                               split_rng=np.random.default_rng([seed, 7, r]))  # same folds for every (depth, ε, method)
        rows.append({"depth": d, "epsilon": float(e), "method": m, "rep": r, "accuracy": acc})
    return pd.DataFrame(rows).groupby(["depth", "epsilon", "method"], as_index=False)["accuracy"].mean()


def id3_gain(df: pd.DataFrame, method: str, base: str = "Global") -> float:
    p = df.pivot_table(index=["depth", "epsilon"], columns="method", values="accuracy")
    return float((p[method] - p[base]).max())
