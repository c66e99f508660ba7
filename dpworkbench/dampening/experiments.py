"""Experiment drivers and figures for the local-dampening notebooks (thin notebooks call these)."""

from __future__ import annotations

from functools import lru_cache
from typing import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.express as px
import plotly.graph_objects as go
from tqdm.auto import tqdm

from dpworkbench._validation import as_generator, check_options

from . import ebc as E
from . import id3 as I
from . import median as M
from .core import SensitivityMatrix, dampen

# ---------------------------------------------------------------- median (Fig. 17)
MEDIAN_PAPER = {"PATENT": "mean error reduction ~18% vs EM and PF", "HEPTH": "≤ 12%, mean ~4%", "INCOME": "no reduction (≈ 0%)"}


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


def median_figure(df: pd.DataFrame, title: str) -> go.Figure:
    fig = px.line(df, x="epsilon", y="error", color="method", line_dash="method", log_x=True, log_y=True, markers=True,
                  title=title, labels={"error": "E|median error|", "epsilon": "ε"})
    return fig


def median_sensitivity_figure(hist, horizon: int = 6) -> go.Figure:
    g = M.histogram_groups(hist)
    d = M.grouped_delta(g, horizon)
    fig = go.Figure()
    for side, name in ((-1, "below median"), (0, "median element"), (1, "above median")):
        sel = g["side"] == side
        fig.add_scatter(x=g["bin"][sel], y=d[sel, 0], mode="markers", name=f"LS(x,0,r) {name}", marker={"size": 4})
    for t in range(1, horizon):
        fig.add_hline(y=d[0, t], line_dash="dot", annotation_text=f"box δ(t={t})")
    fig.add_vline(x=g["median_value"], line_color="black", annotation_text="median")
    fig.update_layout(title="Element local sensitivity at t=0 and the box bound for t ≥ 1 (Λ = %d)" % g["lam"],
                      xaxis_title="bin value", yaxis_title="δ")
    return fig


# ---------------------------------------------------------------- EBC (Fig. 16, 20, Table 1)
def ebc_scatter(ebc, degrees, max_degree_bound=None, sample: int = 5000, seed: int = 0) -> go.Figure:
    dmax = max_degree_bound or int(np.max(degrees))
    delta0 = E.delta_ebc(degrees, 0, max_degree_bound=dmax)
    idx = np.random.default_rng(seed).choice(len(ebc), min(sample, len(ebc)), replace=False)
    fig = px.scatter(x=np.asarray(ebc)[idx] + 1, y=delta0[idx], log_x=True, log_y=True, opacity=0.5,
                     labels={"x": "EBC(v) + 1", "y": "δ^EBC(G,0,v)"}, title="EBC vs δ^EBC(G,0,v) (Fig. 16)")
    return fig


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


def privtopk_figure(df: pd.DataFrame, title: str) -> go.Figure:
    return px.line(df, x="epsilon", y="accuracy", color="method", facet_col="k", log_x=True, markers=True, title=title,
                   labels={"epsilon": "B (ε)"})


TABLE1_PAPER = pd.DataFrame({
    "B": [0.1, 0.5, 1.0, 5.0, 10.0],
    "Enron PTK": [0.06, 0.45, 0.60, 0.84, 0.88], "Enron PSQL": [0.01, 0.01, 0.16, 0.20, 0.21],
    "DBLP PTK": [0.05, 0.27, 0.44, 0.87, 0.92], "DBLP PSQL": [0.02, 0.02, 0.05, 0.11, 0.21],
    "GitHub PTK": [0.07, 0.49, 0.69, 0.86, 0.91], "GitHub PSQL": [0.02, 0.02, 0.02, 0.03, 0.07],
})


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


# ---------------------------------------------------------------- ID3 (Figs. 23–25)
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


def id3_figure(df: pd.DataFrame, title: str) -> go.Figure:
    return px.line(df, x="epsilon", y="accuracy", color="method", facet_col="depth", log_x=True, markers=True, title=title)


def id3_gain(df: pd.DataFrame, method: str, base: str = "Global") -> float:
    p = df.pivot_table(index=["depth", "epsilon"], columns="method", values="accuracy")
    return float((p[method] - p[base]).max())


# ---------------------------------------------------------------- dampening function (Figs. 12–14) and teaching
def dampening_figure(delta_row: Sequence[float], global_sensitivity: float, *, u_max: float | None = None, t_mark: int | None = None) -> go.Figure:
    sm = SensitivityMatrix(np.atleast_2d(delta_row), global_sensitivity)
    b = np.concatenate([[0], np.cumsum(sm.values[0])])
    u_max = u_max or float(b[-1] + 2 * global_sensitivity)
    u = np.linspace(-u_max, u_max, 801)
    fig = go.Figure()
    fig.add_scatter(x=u, y=dampen(u, sm), name="D_{u,δ}(x,r) (LD)")
    fig.add_scatter(x=u, y=u / global_sensitivity, name="u/Δu (EM scale)", line={"dash": "dash"})
    fig.add_scatter(x=np.concatenate([-b[::-1], b[1:]]), y=np.concatenate([-np.arange(len(b))[::-1], np.arange(1, len(b))]),
                    mode="markers", name="breakpoints (±b(t), ±t)")
    if t_mark is not None and t_mark < len(b):
        fig.add_vline(x=b[t_mark], line_dash="dot", annotation_text=f"b(x,{t_mark},r)")
    fig.update_layout(title="The dampening function (Def. 3.3.1)", xaxis_title="u(x,r)", yaxis_title="D")
    return fig


TEACHING_DELTA_ROW = (1.0, 2.0, 4.0, 7.0)


def teaching_dampening_figure(t: int, global_sensitivity: float, *, delta_row: Sequence[float] = TEACHING_DELTA_ROW) -> go.Figure:
    """The dampening-function panel of the teaching notebook: ``dampening_figure`` on the first ``t + 1``
    entries of ``delta_row`` (at least 1, at most all), with the breakpoint b(x, t, r) marked."""
    t = int(t)
    if t < 0:
        raise ValueError(f"t must be a non-negative distance, got {t}")
    row = list(delta_row)[: max(1, min(len(delta_row), t + 1))]
    return dampening_figure(row, global_sensitivity, t_mark=t)


@lru_cache(maxsize=32)
def _teaching_graph(generator: str, n: int, seed: int):
    import networkx as nx

    from dpworkbench.graphs import from_networkx, holme_kim

    from .examples import fig9c_graph

    if generator == "fig9c":
        g, labels = from_networkx(fig9c_graph())
    elif generator == "karate":
        g, labels = from_networkx(nx.karate_club_graph())
    elif generator == "les_miserables":
        g, labels = from_networkx(nx.les_miserables_graph())
    else:
        g = holme_kim(n, 3, 0.3, seed=seed); labels = list(range(n))
    e = E.ebc_all(g)  # non-private part: cached, independent of ε
    return e, g.degrees, [str(x) for x in labels]


def teaching_probabilities(generator: str = "fig9c", epsilon: float = 2.0, *, n: int = 300, seed: int = 0, max_degree_bound: int | None = None,
                           top: int = 20) -> pd.DataFrame:
    """Output law of one PrivTopk draw (k=1) under EM, PF, LD and SLD; ε-only recomputation."""
    from dpworkbench.mechanisms import permute_and_flip_probabilities

    e, d, labels = _teaching_graph(generator, n, seed)
    bound = max_degree_bound or int(d.max())
    gs = E.global_sensitivity_ebc(bound)
    logits = {"EM": epsilon * e / (2 * gs), "LD": epsilon * E.ld_scores(e, d, max_degree_bound=bound) / 2,
              "SLD": epsilon * E.sld_scores(e, d, max_degree_bound=bound) / 2}
    probs = {k: np.exp(v - np.logaddexp.reduce(v)) for k, v in logits.items()}
    if len(e) <= 400:
        probs["PF"] = permute_and_flip_probabilities(e, epsilon=epsilon, sensitivity=gs)
    order = E.true_top_k(e, min(top, len(e)))
    rows = [{"node": labels[v], "ebc": e[v], "degree": int(d[v]), "method": m, "probability": float(p[v])}
            for m, p in probs.items() for v in order]
    return pd.DataFrame(rows)


def teaching_figure(generator: str = "fig9c", epsilon: float = 2.0, **kw) -> go.Figure:
    df = teaching_probabilities(generator, epsilon, **kw)
    fig = px.bar(df, x="node", y="probability", color="method", barmode="group",
                 title=f"P[selected] for the top nodes by EBC, ε = {epsilon:.3g} ({generator})", hover_data=["ebc", "degree"])
    return fig


def shift_figure(shift: float = 0.0, epsilon: float = 2.0) -> go.Figure:
    """LD on D(u − s) over the Fig. 9c graph with the exact element LS: as s → s0 = TΔu + max u the law
    converges to the shifted-LD closed form (Def. 4.2.1 / spec §0.2)."""
    from .examples import NODES, fig9c_element_ls, fig9c_utilities

    u = fig9c_utilities()
    sm = SensitivityMatrix(fig9c_element_ls(), 7.5)
    lg = {"LD on u − s": epsilon * dampen(u - shift, sm) / 2,
          "SLD closed form": epsilon * (u - np.sum(7.5 - sm.values, axis=1)) / (2 * 7.5),
          "EM (Δu = 7.5)": epsilon * u / (2 * 7.5)}
    rows = [{"node": NODES[i], "method": k, "probability": float(p)} for k, v in lg.items()
            for i, p in enumerate(np.exp(v - np.logaddexp.reduce(v)))]
    s0 = sm.horizon * 7.5 + u.max()
    return px.bar(pd.DataFrame(rows), x="node", y="probability", color="method", barmode="group",
                  title=f"Shift s = {shift:g} (s0 = {s0:g}), ε = {epsilon:g}, Fig. 9c graph, exact element LS")


@lru_cache(maxsize=16)
def _teaching_median(median_at: float, delta_kind: str, n: int = 41, lam: int = 40, seed: int = 0):
    rng = np.random.default_rng(seed)
    x = np.clip(np.rint(rng.normal(median_at * lam, lam * 0.15, n)), 0, lam)
    u = M.median_utility(x, lam)
    if delta_kind == "Δu (EM scale)":
        mat = np.full((n, 6), float(lam))
    else:
        kind = "thesis_candidates" if delta_kind.startswith("thesis") else "box"
        mat = np.column_stack([M.element_delta(x, t, lam, delta=kind) for t in range(6)])
    return x, u, np.clip(mat, 1.0, lam), lam


def median_teaching_figure(epsilon: float = 1.0, delta_kind: str = "box (admissible)", median_at: float = 0.5,
                           mechanism: str = "LD") -> go.Figure:
    """Output law of median selection on a small synthetic sample (EM, PF, LD, SLD) with a chosen δ."""
    from dpworkbench.mechanisms import exponential_probabilities, permute_and_flip_probabilities

    x, u, mat, lam = _teaching_median(float(median_at), delta_kind)
    sm = SensitivityMatrix(mat, lam, name=delta_kind, privacy_unverified=delta_kind.startswith("thesis"))
    if mechanism == "EM":
        p = exponential_probabilities(u, epsilon=epsilon, sensitivity=lam)
    elif mechanism == "PF":
        p = permute_and_flip_probabilities(u, epsilon=epsilon, sensitivity=lam)
    elif mechanism == "LD":
        lg = epsilon * dampen(u, sm) / 2; p = np.exp(lg - np.logaddexp.reduce(lg))
    else:
        lg = epsilon * (u - np.sum(lam - sm.values, axis=1)) / (2 * lam); p = np.exp(lg - np.logaddexp.reduce(lg))
    df = pd.DataFrame({"value": x, "p": p}).groupby("value", as_index=False)["p"].sum()
    err = float(p @ -u)
    warn = " — NOT ADMISSIBLE (privacy unverified)" if delta_kind.startswith("thesis") else ""
    return px.bar(df, x="value", y="p", title=f"{mechanism}, δ = {delta_kind}{warn}: E|error| = {err:.2f} (Λ = {lam})",
                  labels={"value": "selected element's value", "p": "probability"})


# ---------------------------------------------------------------- teaching: PrivTopk with k, ID3 with depth
def teaching_topk(generator: str = "karate", epsilon: float = 2.0, k: int = 3, *, n: int = 300, seed: int = 0, runs: int = 300,
                  top: int = 15, max_degree_bound: int | None = None):
    """PrivTopk (total ε, ε/k per draw): first-draw probabilities of the top nodes under EM / LD / SLD (exact)
    and each mechanism's mean top-k accuracy over ``runs`` simulated releases (seeded; teaching only).

    Non-private part (EBC, degrees) from the cache; moving ε only recomputes logits and the simulation."""
    e, d, labels = _teaching_graph(generator, n, seed)
    k = int(min(k, len(e)))
    bound = max_degree_bound or int(d.max())
    rows, acc = [], {}
    order = E.true_top_k(e, min(top, len(e)))
    for i, m in enumerate(("EM", "PF", "LD", "SLD")):
        lg = E.method_logits(e, d, k, epsilon=epsilon, method=m, max_degree_bound=bound)
        acc[m] = E.top_k_accuracy(e, d, k, epsilon=epsilon, method=m, runs=runs, rng=np.random.default_rng([seed, i, k]),
                                  max_degree_bound=bound)
        if m == "PF":
            continue
        p = np.exp(lg - np.logaddexp.reduce(lg))
        rows += [{"node": labels[v], "ebc": e[v], "degree": int(d[v]), "method": m, "probability": float(p[v])} for v in order]
    df = pd.DataFrame(rows)
    fig = px.bar(df, x="node", y="probability", color="method", barmode="group", hover_data=["ebc", "degree"],
                 title=f"PrivTopk first draw (ε/k = {epsilon / k:.3g}) on {generator}; top-{k} accuracy: "
                       + ", ".join(f"{m} {a:.2f}" for m, a in acc.items()))
    fig.update_layout(xaxis_title="node (sorted by true EBC)", yaxis_title="P[selected first]")
    return fig, pd.DataFrame([{"method": m, f"mean top-{k} accuracy ({runs} runs)": a} for m, a in acc.items()])


@lru_cache(maxsize=8)
def _teaching_id3_stats(dataset: str, rows: int, seed: int, horizon: int = 1024):
    """Non-private part for the root split: contingency tables, u_IG, LS^IG profiles (independent of ε)."""
    from dpworkbench import datasets

    ds = datasets.load(f"dampening/{dataset}", prefer="synthetic", seed=seed)
    Xd, y = ds.data["X"][:rows], ds.data["y"][:rows]
    gs = I.delta_ig_global(Xd.shape[0])
    cnts = [I.contingency(Xd, y, a, ds.data["domains"][a], ds.data["n_classes"]) for a in range(Xd.shape[1])]
    u = np.array([I.utility(c) for c in cnts])
    dm = I.ig_delta_matrix(cnts, gs, horizon)
    D = dampen(u, dm)
    slack = np.sum(gs - dm.values, axis=1)
    return u, D, slack, gs


def teaching_id3(epsilon: float = 1.0, depth: int = 2, horizon: int = 1024, *, dataset: str = "nltcs", rows: int = 5000, seed: int = 0):
    """Root attribute choice of Global/Local/ShiftedLocalDiffPID3 with total budget B = ε and depth d:
    each query gets B/(2(d+1)) (so deeper trees make every choice noisier). ``horizon`` is the public horizon T of δ
    (δ = ΔIG from T on): a small T makes LD/SLD fall back towards EM. The non-private part is cached per (data, T)."""
    u, D, slack, gs = _teaching_id3_stats(dataset, rows, seed, int(horizon))
    e1 = epsilon / (2 * (int(depth) + 1))
    lg = {"Global (EM)": e1 * u / (2 * gs), "Local (LD)": e1 * D / 2, "Shifted (SLD)": e1 * (u - slack) / (2 * gs)}
    rank = np.argsort(-u, kind="stable")
    rows_ = [{"attribute": f"A{a} (IG rank {r + 1})", "method": m, "probability": float(p[a])}
             for m, v in lg.items() for p in [np.exp(v - np.logaddexp.reduce(v))] for r, a in enumerate(rank)]
    df = pd.DataFrame(rows_)
    best = {m: float(np.exp(v - np.logaddexp.reduce(v))[rank[0]]) for m, v in lg.items()}
    fig = px.bar(df, x="attribute", y="probability", color="method", barmode="group",
                 title=f"Root split on {dataset} (synthetic stand-in, {rows} rows): B = {epsilon:g}, depth {depth} ⇒ ε per query = {e1:.3g}, T = {int(horizon)}")
    return fig, pd.DataFrame([{"method": m, "P[best attribute]": p} for m, p in best.items()])
