"""Experiment drivers of the local-dampening notebooks (Figs. 17, 20, 23–25 and Table 1).

The drivers compute the non-private model once per dataset and then evaluate the mechanisms over the
grids of the figures through :func:`dpworkbench.experiments.run_grid`: every cell draws from its own stream
(derived from the seed and the cell's parameters), completed cells are kept and skipped when a run resumes,
and results of other code versions or other data (the data's content fingerprint is part of every cell) are
never reused. Notebooks call the drivers and hand the results to ``figures`` and ``claims``.

References
----------
V. A. E. de Farias, *Local Dampening: Differential Privacy for Non-numeric Queries via Local
Sensitivity*, PhD thesis, UFC 2021 (PVLDB 14(4) 2020), §5.4 (Fig. 17), §6.5 (Fig. 20, Table 1),
Ch. 7 (Figs. 23–25).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from dpworkbench.cache import fingerprint
from dpworkbench.experiments import run_grid

from . import ebc as E
from . import id3 as I
from . import median as M
from . import privatesql as PS
from . import mechanisms as DM


def _in_grid_order(df: pd.DataFrame, keys: Sequence[str], grid: Mapping[str, Sequence[Any]], columns: Sequence[str]) -> pd.DataFrame:
    """The runner's rows (in whatever order their part files were written) in the grid's order, with ``columns`` only."""
    order = {k: {v: i for i, v in enumerate(grid[k])} for k in keys}
    rank = [df[k].map(order[k]) for k in keys]
    return (df.assign(**{f"_o{i}": r for i, r in enumerate(rank)}).sort_values([f"_o{i}" for i in range(len(keys))], kind="stable")
              .loc[:, list(columns)].reset_index(drop=True))


def median_curves(hist, eps_grid: Sequence[float], *, methods: Sequence[str] = ("EM", "PF", "LD", "SLD"), pf_runs: int = 10_000,
                  pf: str = "exact", seed: int = 0, experiment: str = "median", results_dir: str | Path | None = None) -> pd.DataFrame:
    """Expected absolute error of median selection per (ε, method), through ``run_grid``.

    EM, LD and SLD are exact; PF is exact (``pf="exact"``, grouped integral) or the mean over ``pf_runs`` runs
    (``"montecarlo"``, the thesis' protocol; the only cells that use their random stream). ``se`` is the Monte-Carlo
    standard error of a cell: 0 for an exact cell; for a PF mean over R runs, sqrt(Var/R) with the variance of the
    error under PF's exact law (so the SE is known, not itself estimated).

    Returns
    -------
    DataFrame
        ``epsilon, method, error, se`` in grid order.

    References
    ----------
    de Farias 2021, §5.4, Fig. 17; spec §2.2 (grouped PF integral), §3.4 (box bound).
    """
    g = M.histogram_groups(hist)  # non-private part computed once for the whole ε grid
    grid = {"epsilon": [float(e) for e in eps_grid], "method": list(methods)}
    err = M.group_errors(g)

    def cell(c: dict, rng: np.random.Generator) -> dict:
        e = M.expected_error(g, c["method"], c["epsilon"], runs=pf_runs, rng=rng, pf=pf)
        se = 0.0
        if c["method"] == "PF" and pf == "montecarlo":
            law = M.pf_group_probabilities(c["epsilon"] * (-err) / (2 * g["lam"]), g["mult"])
            se = float(np.sqrt(max(law @ err ** 2 - (law @ err) ** 2, 0.0) / pf_runs))
        return {"error": e, "se": se}

    df = run_grid(experiment, cell, grid, seed=seed, results_dir=results_dir,
                  fixed={"data": fingerprint(np.asarray(hist)), "pf": pf, "pf_runs": int(pf_runs)})
    return _in_grid_order(df, ["epsilon", "method"], grid, ["epsilon", "method", "error", "se"])


def median_reduction(df: pd.DataFrame, method: str = "LD") -> dict:
    """``method``'s error reduction 1 − err/min(EM, PF) over the ε grid: its mean and max, the mean of 1 − err/EM, and
    the Monte-Carlo SEs of the mean and of the max (propagated from PF's SE where PF is the smaller baseline;
    0 when every cell is exact).

    A cell whose baseline error is 0 (at large ε every one of PF's Monte-Carlo runs picks the median) has no ratio:
    it counts as no reduction when ``method`` is exact there too, and is left out otherwise (``cells_undefined``);
    the paper profile's first run divided by it and stopped on an infinite band.

    References
    ----------
    de Farias 2021, §5.4 (the text's "mean error reduction").
    """
    p = df.pivot(index="epsilon", columns="method", values="error")
    se = (df.pivot(index="epsilon", columns="method", values="se") if "se" in df
          else p * 0.0)
    base = np.minimum(p["EM"], p["PF"]).to_numpy(float)
    err, em = p[method].to_numpy(float), p["EM"].to_numpy(float)
    both_zero = (base <= 0) & (err <= 0)
    ok = (base > 0) | both_zero
    safe = np.where(base > 0, base, 1.0)
    red = np.where(both_zero, 0.0, 1 - err / safe)[ok]
    # d red / d base = err / base²; only PF carries Monte-Carlo noise
    se_cell = np.where((p["PF"].to_numpy() < em) & (base > 0), err * se["PF"].to_numpy(float) / safe ** 2, 0.0)[ok]
    vs_em = np.where(em > 0, 1 - err / np.where(em > 0, em, 1.0), 0.0)[(em > 0) | (err <= 0)]
    i = int(np.argmax(red))
    return {"mean": float(red.mean()), "max": float(red.max()), "mean_vs_em": float(vs_em.mean()),
            "se_mean": float(np.sqrt(np.sum(se_cell ** 2)) / len(red)), "se_max": float(se_cell[i]),
            "cells_undefined": int((~ok).sum())}


def median_suite(histograms: Mapping[str, Any], eps_grid: Sequence[float], *, pf: str = "exact", pf_runs: int = 10_000,
                 seed: int = 0, results_dir: str | Path | None = None) -> pd.DataFrame:
    """:func:`median_curves` on every histogram given (one resumable grid per dataset).

    Returns
    -------
    DataFrame
        ``dataset, epsilon, method, error, se``.

    References
    ----------
    de Farias 2021, §5.3 ("we tested most of the datasets from Hay et al."), Fig. 17.
    """
    parts = []
    for name, hist in histograms.items():
        df = median_curves(hist, eps_grid, pf=pf, pf_runs=pf_runs, seed=seed, results_dir=results_dir,
                           experiment=f"median_{name.lower().replace('-', '_')}")
        parts.append(df.assign(dataset=name))
    return pd.concat(parts, ignore_index=True)[["dataset", "epsilon", "method", "error", "se"]]


def median_ranking(table: pd.DataFrame) -> pd.DataFrame:
    """Per dataset: each method's mean over ε of err/min(EM, PF) (1 = as good as the better global method), its rank
    (1 = lowest mean ratio) and LD's and SLD's mean reduction.

    Returns
    -------
    DataFrame
        one row per dataset: ``ratio_EM, ratio_PF, ratio_LD, ratio_SLD, rank_EM, …, best, reduction_LD, reduction_SLD``.
    """
    rows = []
    for name, df in table.groupby("dataset", sort=False):
        p = df.pivot(index="epsilon", columns="method", values="error")
        base = np.minimum(p["EM"], p["PF"]).to_numpy(float)
        # the rule of median_reduction: a zero baseline (PF's Monte-Carlo runs all exact) has no ratio; "as good" (1)
        # when the method is exact there too, else left out (it made LD's ratio +inf on ADULTFRANK, paper profile)
        cell = lambda m: np.where(base > 0, p[m].to_numpy(float) / np.where(base > 0, base, 1.0),  # noqa: E731
                                  np.where(p[m].to_numpy(float) <= 0, 1.0, np.nan))
        ratio = {m: float(np.nanmean(cell(m))) for m in ("EM", "PF", "LD", "SLD")}
        order = sorted(ratio, key=lambda m: ratio[m])
        row = {"dataset": name, **{f"ratio_{m}": r for m, r in ratio.items()},
               **{f"rank_{m}": order.index(m) + 1 for m in ratio}, "best": order[0]}
        row["reduction_LD"], row["reduction_SLD"] = 1 - ratio["LD"], 1 - ratio["SLD"]
        rows.append(row)
    return pd.DataFrame(rows)


def spec_median_recomputation(histograms: Mapping[str, Any]) -> pd.DataFrame:
    """Our exact expected errors (EM, LD) at the reference points of spec §3.6 [D], for the datasets given.

    Returns
    -------
    DataFrame
        ``dataset, epsilon, em, ld``.

    References
    ----------
    Spec §3.6 (the spec author's independent recomputation on the DPBench copies; box bound, Λ = 4095).
    """
    from .reference import MEDIAN_SPEC_RECOMPUTATION

    rows = []
    for (name, eps) in MEDIAN_SPEC_RECOMPUTATION:
        if name in histograms:
            g = M.histogram_groups(histograms[name])
            rows.append({"dataset": name, "epsilon": eps, "em": M.expected_error(g, "EM", eps), "ld": M.expected_error(g, "LD", eps)})
    return pd.DataFrame(rows, columns=["dataset", "epsilon", "em", "ld"])


def privtopk_curves(ebc, degrees, ks: Sequence[int], eps_grid: Sequence[float], *, methods: Sequence[str] = E.METHODS, runs: int = 100,
                    pf_runs: int | None = None, seed: int = 0, max_degree_bound: int | None = None, experiment: str = "privtopk",
                    results_dir: str | Path | None = None) -> pd.DataFrame:
    """Mean top-k accuracy |retrieved ∩ true top-k| / k of EM/PF/LD/SLD PrivTopk per (k, ε, method), through ``run_grid``.

    Seeded research simulation (:func:`~dpworkbench.dampening.ebc.top_k_accuracy`), not a release.

    Returns
    -------
    DataFrame
        ``k, epsilon, method, accuracy, runs`` in grid order.

    References
    ----------
    de Farias 2021, §6.5, Fig. 20; Alg. 3 (PrivTopk).
    """
    ebc = np.asarray(ebc, float)
    degrees = np.asarray(degrees, np.int64)
    grid = {"k": [int(k) for k in ks], "epsilon": [float(e) for e in eps_grid], "method": list(methods)}

    def cell(c: dict, rng: np.random.Generator) -> dict:
        r = (pf_runs or runs) if c["method"] == "PF" else runs
        acc = DM.top_k_accuracy(ebc, degrees, c["k"], epsilon=c["epsilon"], method=c["method"], runs=r, rng=rng,
                               max_degree_bound=max_degree_bound)
        return {"accuracy": acc, "runs": r}

    df = run_grid(experiment, cell, grid, seed=seed, results_dir=results_dir,
                  fixed={"data": fingerprint(ebc, degrees), "sim_runs": int(runs), "pf_runs": int(pf_runs or runs),
                         "max_degree_bound": max_degree_bound})
    return _in_grid_order(df, ["k", "epsilon", "method"], grid, ["k", "epsilon", "method", "accuracy", "runs"])


def budget_to_reach(df: pd.DataFrame, level: float = 0.9) -> pd.DataFrame:
    """Smallest ε of the grid with accuracy ≥ level, per (k, method) (NaN when never reached).

    References
    ----------
    de Farias 2021, §6.5, Fig. 20.
    """
    out = []
    for (k, m), g in df.groupby(["k", "method"]):
        ok = g[g.accuracy >= level].epsilon
        out.append({"k": k, "method": m, "budget": float(ok.min()) if len(ok) else np.nan})
    return pd.DataFrame(out)


def budget_gaps(budgets: pd.DataFrame, *, against: str = "SLD") -> dict[str, pd.Series]:
    """log10(budget of each other method / budget of ``against``) per (graph, k): orders of magnitude of ε saved.

    ``budgets`` = :func:`budget_to_reach` rows with a ``graph`` column. NaN where either method never reached the
    accuracy level on the grid.

    References
    ----------
    de Farias 2021, §6.5, Fig. 20 (the text's "orders of magnitude").
    """
    pv = budgets.pivot_table(index=["graph", "k"], columns="method", values="budget", dropna=False, sort=False)
    return {m: np.log10(pv[m] / pv[against]).replace([np.inf, -np.inf], np.nan) for m in pv.columns if m != against}


def gap_range_text(gap: pd.Series) -> str:
    """Summary of log10 budget gaps (orders of magnitude): "min–max orders" over the non-NaN entries,
    or "not reached on grid" when every entry is NaN (the baseline never reached the accuracy level).

    References
    ----------
    de Farias 2021, §6.5.
    """
    g = pd.Series(gap, dtype=float)
    return f"{np.nanmin(g):.1f}–{np.nanmax(g):.1f} orders" if g.notna().any() else "not reached on grid"


def per_graph_gap_text(gap: pd.Series, sources: Mapping[str, str]) -> str:
    """Per-graph gap summary for Fig. 20's claims: "<graph> (<source>): <gap_range_text>" joined by "; ".

    ``gap`` is indexed by (graph, k) (first level = graph name, in order of first appearance); ``sources``
    maps each graph name to its data source ("real" / "synthetic"). Graphs with NaN entries (k for which the
    baseline did not reach the accuracy level on the ε grid) say how many.

    References
    ----------
    de Farias 2021, §6.5.
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


TABLE1_BOUNDS = ("parent", "sample")


def table1_column(name: str, source: str, *, bound: str = "parent") -> str:
    """Column of :func:`table1` holding our PTK accuracy on graph ``name`` with the given degree ``bound``."""
    return f"{name} PTK (ours, {source})" if bound == "parent" else f"{name} PTK (ours, sample's own Δ)"


def table1_ptk(graph, *, samples: int = 10, runs: int = 10, size: int = 50, ks: Sequence[int] = (1, 2, 3),
               budgets: Sequence[float] = (0.1, 0.5, 1.0, 5.0, 10.0), seed: int = 0, experiment: str = "table1",
               results_dir: str | Path | None = None) -> pd.DataFrame:
    """SLDPrivTopk accuracy on BFS samples (|S| = ``size``) per (B, bound), averaged over samples, runs and k.

    One ``run_grid`` cell per BFS sample: the sample is drawn from the cell's stream, then both public max-degree
    bounds behind ΔEBC and δ^EBC are evaluated on it — ``"parent"``: the parent graph's max degree, the per-dataset
    Δ(G) the thesis assumes public (a valid bound for every sample); ``"sample"``: each sample's own max degree (also
    assumed public) — so the two columns compare the bounds on the same samples.

    PrivateSQL (:mod:`~dpworkbench.dampening.privatesql`) runs on the same sample and budgets after PTK.

    Returns
    -------
    DataFrame
        ``method (PTK | PSQL), bound, B, accuracy, se`` (se: the Monte-Carlo standard error — PSQL's over samples × k × runs,
        PTK's over BFS samples; NaN with one sample).

    References
    ----------
    de Farias 2021, §6.5, Table 1 (averaging over k presumed, spec §7 item 23), §6.5.1, Appendix B.
    """
    parent = int(np.max(graph.degrees))

    def cell(c: dict, rng: np.random.Generator) -> list[dict]:
        sub = E.bfs_sample(graph, size, rng=rng)
        e, d = E.ebc_all(sub, cache=False), sub.degrees
        rows = [{"method": "PTK", "bound": bound, "B": float(B), "k": int(k),
                 "accuracy": DM.top_k_accuracy(e, d, int(k), epsilon=float(B), method="SLD", runs=runs, rng=rng,
                                              max_degree_bound=parent if bound == "parent" else None)}
                for bound in TABLE1_BOUNDS for B in budgets for k in ks]
        # PrivateSQL on the same sample, after PTK's draws (so PTK's stream is what it was before PSQL was added).
        # Its public degree bound: the parent's Δ(G) capped by |S| − 1 (no node of the sample can exceed it), or the
        # sample's own max degree.
        q = PS.view_counts(sub)
        for bound in TABLE1_BOUNDS:
            delta = min(parent, sub.n - 1) if bound == "parent" else int(np.max(d))
            for B in budgets:
                for k in ks:
                    acc = PS.top_k_accuracy(q, e, int(k), epsilon=float(B), max_degree=delta, runs=runs, rng=rng)
                    rows.append({"method": "PSQL", "bound": bound, "B": float(B), "k": int(k),
                                 "accuracy": float(acc.mean()), "sq": float(np.mean(acc ** 2)), "delta": delta})
        return rows

    df = run_grid(experiment, cell, {"sample": list(range(samples))}, seed=seed, results_dir=results_dir,
                  fixed={"data": graph.fingerprint, "runs": int(runs), "size": int(size), "ks": repr(tuple(ks)),
                         "budgets": repr(tuple(budgets))})
    g = df.groupby(["method", "bound", "B"], as_index=False)
    out = g["accuracy"].mean()
    # Monte-Carlo SE of PSQL's mean over samples × k × runs (every run is one draw of the views' noise)
    if "sq" in df:
        m2 = g["sq"].mean()["sq"].to_numpy()
        n = df.groupby(["method", "bound", "B"]).size().to_numpy() * int(runs)
        out["se"] = np.where(out["method"] == "PSQL", np.sqrt(np.maximum(m2 - out["accuracy"] ** 2, 0) / n), np.nan)
    # PTK's SE over BFS samples: each sample's accuracy (mean over k and runs) is one draw of sample and noise together
    per_sample = df[df["method"] == "PTK"].groupby(["bound", "B", "sample"])["accuracy"].mean().groupby(level=["bound", "B"])
    ptk_se = (per_sample.std(ddof=1) / np.sqrt(per_sample.size())).rename("ptk_se").reset_index()
    out = out.merge(ptk_se, on=["bound", "B"], how="left")
    out["se"] = np.where(out["method"] == "PTK", out.pop("ptk_se"), out["se"] if "se" in out else np.nan)
    return out


def table1(graphs: Mapping[str, Any], sources: Mapping[str, str], *, samples: int, runs: int, seed: int = 0,
           results_dir: str | Path | None = None) -> pd.DataFrame:
    """Table 1: our PTK columns (both degree bounds), our PrivateSQL columns (Appendix B's per-node views on DuckDB,
    B/n per view, on the same BFS samples and B) and the thesis' PSQL numbers beside them.

    ``graphs`` maps a name of :data:`~dpworkbench.dampening.reference.TABLE1_PAPER` (Enron, DBLP, GitHub) to a
    :class:`~dpworkbench.graphs.CSRGraph`; ``sources`` to its data source ("real" / "synthetic").

    References
    ----------
    de Farias 2021, §6.5, §6.5.1, Table 1, Appendix B.
    """
    from .reference import TABLE1_PAPER

    out = TABLE1_PAPER[["B"]].copy()
    for name, graph in graphs.items():
        t = table1_ptk(graph, samples=samples, runs=runs, seed=seed, budgets=tuple(out.B), experiment=f"table1_{name.lower()}",
                       results_dir=results_dir).set_index(["method", "bound", "B"]).accuracy
        for bound in TABLE1_BOUNDS:
            out[table1_column(name, sources[name], bound=bound)] = t.loc[("PTK", bound)].reindex(out.B).to_numpy()
        for bound in TABLE1_BOUNDS:
            out[table1_psql_column(name, bound)] = t.loc[("PSQL", bound)].reindex(out.B).to_numpy()
        out[f"{name} PSQL (thesis)"] = TABLE1_PAPER[f"{name} PSQL"].to_numpy()
    return out


def table1_psql_column(name: str, bound: str = "parent") -> str:
    """Column of :func:`table1` holding our PrivateSQL accuracy on graph ``name`` with the given degree ``bound``."""
    return f"{name} PSQL (ours)" if bound == "parent" else f"{name} PSQL (ours, sample's own Δ)"


def privatesql_results(graphs: Mapping[str, Any], sources: Mapping[str, str], *, samples: int, runs: int, seed: int = 0,
                       results_dir: str | Path | None = None) -> pd.DataFrame:
    """Our PrivateSQL results as their own long table (the cells of :func:`table1`, read back from the runner).

    Returns
    -------
    DataFrame
        ``graph, source, bound, B, accuracy, se, thesis``.
    """
    from .reference import TABLE1_PAPER

    parts = []
    for name, graph in graphs.items():
        t = table1_ptk(graph, samples=samples, runs=runs, seed=seed, budgets=tuple(TABLE1_PAPER.B),
                       experiment=f"table1_{name.lower()}", results_dir=results_dir)
        t = t[t["method"] == "PSQL"].drop(columns="method")
        t["thesis"] = t["B"].map(dict(zip(TABLE1_PAPER.B, TABLE1_PAPER[f"{name} PSQL"])))
        parts.append(t.assign(graph=name, source=sources[name]))
    return pd.concat(parts, ignore_index=True)[["graph", "source", "bound", "B", "accuracy", "se", "thesis"]]


def id3_curves(data: dict, eps_grid: Sequence[float], depths: Sequence[int], *, methods: Sequence[str] = I.METHODS, folds: int = 10,
               repetitions: int = 1, max_rows: int | None = None, seed: int = 0, experiment: str = "id3",
               results_dir: str | Path | None = None) -> pd.DataFrame:
    """k-fold CV accuracy of Global/Local/ShiftedLocalDiffPID3 per (depth, budget B, method), through ``run_grid``.

    One cell per (depth, B, repetition) evaluates every method on the same noise stream (a seed drawn from the
    cell's stream) and the same folds, so the methods are compared paired. The fold split depends only on
    (``seed``, repetition), so every (depth, B, method) of a repetition sees the same folds (common random numbers,
    and the non-private statistics of each fold are reused from the cache).

    Returns
    -------
    DataFrame
        ``depth, epsilon, method, accuracy`` (mean over repetitions).

    References
    ----------
    de Farias 2021, Ch. 7, Figs. 23–25 (10-fold CV, budget B/(2(d+1)) per query).
    """
    X, y = data["X"], data["y"]
    if max_rows is not None and X.shape[0] > max_rows:
        idx = np.random.default_rng(seed).choice(X.shape[0], max_rows, replace=False)
        X, y = X[idx], y[idx]
    grid = {"depth": [int(d) for d in depths], "epsilon": [float(e) for e in eps_grid]}

    def cell(c: dict, rng: np.random.Generator) -> list[dict]:
        noise_seed = int(rng.integers(2**63))
        rows = []
        for m in methods:
            acc = DM.id3_cross_validate(X, y, data["domains"], data["n_classes"], depth=c["depth"], budget=c["epsilon"], method=m, folds=folds,
                                   rng=np.random.default_rng(noise_seed),  # same noise stream per method (paired)
                                   split_rng=np.random.default_rng([seed, 7, c["repetition"]]))  # same folds across cells
            rows.append({"method": m, "accuracy": acc})
        return rows

    df = run_grid(experiment, cell, grid, repetitions=repetitions, seed=seed, results_dir=results_dir,
                  fixed={"data": fingerprint(np.asarray(X), np.asarray(y), list(data["domains"]), int(data["n_classes"])),
                         "folds": int(folds), "methods": repr(tuple(methods))})
    mean = df.groupby(["depth", "epsilon", "method"], as_index=False)["accuracy"].mean()
    return _in_grid_order(mean, ["depth", "epsilon", "method"], {**grid, "method": list(methods)}, ["depth", "epsilon", "method", "accuracy"])


def id3_gain(df: pd.DataFrame, method: str, base: str = "Global") -> float:
    """Largest accuracy gain of ``method`` over ``base`` over the (depth, ε) grid.

    References
    ----------
    de Farias 2021, Ch. 7 (the text's "up to X%").
    """
    p = df.pivot_table(index=["depth", "epsilon"], columns="method", values="accuracy")
    return float((p[method] - p[base]).max())
