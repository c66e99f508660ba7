"""Views for the teaching notebooks (conflict-graph explorer, projection/θ-selection explorer, vertex cover).

The non-private part (table, noise, conflict graph, F(θ)) is cached; moving the ε slider only redraws noise.
"""

from __future__ import annotations

import functools
import math

import networkx as nx
import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .conflict_graph import build
from .datasets import dcs_for, load_table
from .figures import draw_graph
from .mechanisms import dp_vertex_cover, graph_projection, optimized_em
from .model import SQRT2, Projector, all_measures, paper_candidates
from .noise_injection import rnoise


@functools.lru_cache(maxsize=32)
def noisy_table(dataset: str, rows: int, alpha: float, seed: int = 0, dc_count: int | None = None):
    """(Dataset, dcs, noisy DataFrame, ConflictGraph, exact measures) — cached, independent of ε.

    ``dc_count``: use only the dataset's first k DCs (None = all); RNoise still targets every constrained column,
    so the table is the same for every k and only the constraint set changes."""
    ds = load_table(dataset, rows=rows, seed=seed)
    all_dcs = dcs_for(dataset)
    dcs = all_dcs[: _k(dc_count)]
    *_, (_, df) = rnoise(ds.data, all_dcs, alpha, rng=seed, n_checkpoints=1)
    g = build(df, dcs)
    return ds, dcs, df, g, all_measures(g, exact_ir=g.num_edges <= 3000)


@functools.lru_cache(maxsize=32)
def projector(dataset: str, rows: int, alpha: float, seed: int = 0, dc_count: int | None = None) -> Projector:
    return Projector(noisy_table(dataset, rows, alpha, seed, _k(dc_count))[3], rule="rank", seed=seed)


def _k(dc_count) -> int | None:
    """``dc_count`` 0/None = all DCs of the dataset; k = its first k DCs."""
    if dc_count in (None, 0, "all"):
        return None
    k = int(dc_count)
    if k < 1:
        raise ValueError(f"dc_count must be ≥ 1 (or 0/None for all DCs), got {dc_count!r}")
    return k


def explorer_view(dataset: str, rows: int, alpha: float, epsilon: float, seed: int = 0, repeats: int = 30,
                  dc_count: int | None = None):
    """Conflict-graph explorer: degree histogram, exact measures and the spread of their DP estimates at ε
    (on the dataset's first ``dc_count`` DCs; None = all)."""
    ds, dcs, df, g, exact = noisy_table(dataset, rows, alpha, seed, _k(dc_count))
    proj = projector(dataset, rows, alpha, seed, _k(dc_count))
    rng = np.random.default_rng(seed + 1)
    est = {"I_MI": [], "I_P": [], "I_R": []}
    lin = exact["I_R_lin"]
    for _ in range(repeats):
        # the sample size is the explorer's public design parameter (n_bound); see graph_projection's docstring
        est["I_MI"].append(graph_projection(g, "MI", epsilon, df=df, dcs=dcs, projector=proj, rng=rng, n_bound=len(df)).value)
        est["I_P"].append(graph_projection(g, "P", epsilon, df=df, dcs=dcs, projector=proj, rng=rng, n_bound=len(df)).value)
        est["I_R"].append(dp_vertex_cover(g, epsilon, cover_size=exact["I_R_2approx"], rng=rng, n_bound=len(df)).value)
    truth = {"I_MI": exact["I_MI"], "I_P": exact["I_P"], "I_R": 2 * lin}
    fig = make_subplots(rows=1, cols=4, subplot_titles=["degree distribution", "I_MI", "I_P", "I_R (vs 2·I_R^lin)"])
    deg = g.degrees()
    fig.add_trace(go.Histogram(x=deg[deg > 0], nbinsx=40, showlegend=False, marker_color="#7f7f7f"), 1, 1)
    for j, m in enumerate(("I_MI", "I_P", "I_R"), start=2):
        fig.add_trace(go.Box(y=est[m], name=f"DP ε={epsilon:.3g}", boxpoints="all", showlegend=False, marker_color="#1f77b4"), 1, j)
        fig.add_trace(go.Scatter(x=[f"DP ε={epsilon:.3g}"], y=[truth[m]], mode="markers", marker=dict(symbol="x", size=14, color="#ff7f0e"),
                                 name="true", showlegend=(j == 2)), 1, j)
    fig.update_layout(template="plotly_white", height=380,
                      title=f"{dataset} ({ds.source}), {rows} rows, RNoise α={alpha}, {len(dcs)} DC(s), {g.num_edges} edges")
    table = pd.DataFrame([{"measure": m, "true": truth[m], "DP mean": np.mean(est[m]), "DP std": np.std(est[m]),
                           "mean rel. error": np.mean(np.abs(np.asarray(est[m]) - truth[m]) / truth[m]) if truth[m] else np.nan}
                          for m in truth])
    return fig, table


def projection_view(dataset: str, rows: int, alpha: float, theta: int, epsilon: float, measure: str = "MI", seed: int = 0):
    """θ explorer: f(π_θ(G)) vs θ (bias) against the Laplace noise std √2·Δ(θ)/ε — the trade-off Eq. 2 optimises."""
    proj = projector(dataset, rows, alpha, seed)
    n = proj.n
    grid = sorted(set(np.unique(np.geomspace(1, n, 40).astype(int)).tolist()) | {int(theta)})
    f = np.array([proj.f(t, measure) for t in grid], dtype=float)
    truth = proj.f(n, measure)
    noise = SQRT2 * np.asarray(grid) / (0.6 * epsilon)
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=grid, y=truth - f, name="bias f(G) − f(G_θ)", mode="lines"))
    fig.add_trace(go.Scatter(x=grid, y=noise, name="Laplace std √2·θ/ε₂ (ε₂ = 0.6ε)", mode="lines"))
    fig.add_trace(go.Scatter(x=grid, y=truth - f + noise, name="bias + noise (−quality)", mode="lines", line=dict(dash="dot")))
    fig.add_vline(x=theta, line_dash="dash", annotation_text=f"θ = {theta}")
    fig.update_xaxes(type="log", title="θ")
    fig.update_yaxes(type="log", title="absolute error scale")
    fig.update_layout(template="plotly_white", height=380, title=f"I_{measure} on {dataset}: truncation bias vs noise (true value {truth})")
    return fig


def em_view(dataset: str, rows: int, alpha: float, epsilon: float, measure: str = "MI", seed: int = 0, use_bound: bool = True):
    """θ-selection explorer: EM candidate probabilities in each step of Algorithm 4 at total ε (0.4ε for selection)."""
    ds, dcs, df, g, exact = noisy_table(dataset, rows, alpha, seed)
    proj = projector(dataset, rows, alpha, seed)
    rec = optimized_em(proj, paper_candidates(len(df)), eps1=0.4 * epsilon, eps2=0.6 * epsilon, measure=measure, df=df,
                       dcs=dcs, use_bound=use_bound, rng=seed, n_bound=len(df))  # public sample size
    fig = make_subplots(rows=1, cols=len(rec["steps"]), subplot_titles=[f"step {i + 1}: ε={s['epsilon']:.3g}, Δq={s['sensitivity']:.0f}, θ*={s['theta']}"
                                                                          for i, s in enumerate(rec["steps"])])
    for i, s in enumerate(rec["steps"], start=1):
        fig.add_trace(go.Bar(x=[str(c) for c in s["candidates"]], y=s["probabilities"], showlegend=False), 1, i)
    fig.update_layout(template="plotly_white", height=360,
                      title=f"Alg. 4 on {dataset}: noisy degree bound {rec['d_bound_noisy']} (true {rec['d_bound']}), final θ* = {rec['theta']}")
    return fig


def vertex_cover_steps(order: str = "lex"):
    """Algorithm 5 step by step on the paper's Fig. 3 graphs (G without E, G' with E)."""
    from .examples import FIG3_NAMES, example6_trace, fig3_graphs

    g, gp = fig3_graphs()
    tr = example6_trace()
    return draw_graph(gp, labels=FIG3_NAMES, highlight=[4], title="G' (E in red is the added tuple)"), tr


__all__ = ["em_view", "explorer_view", "noisy_table", "projection_view", "vertex_cover_steps"]


def vertex_cover_step_view(step: int, epsilon: float, seed: int = 0, samples: int = 2000):
    """Algorithm 5 on Fig. 3's G' after ``step`` iterations of the lexicographic order (covered nodes in red),
    and the law of the released value c + Lap(2/ε) for G and G' (their pre-noise sizes differ by ≤ 2)."""
    from .examples import FIG3_NAMES, example6_trace, fig3_graphs

    g, gp = fig3_graphs()
    tr = example6_trace()
    step = int(min(max(step, 0), len(tr)))
    covered = set()
    for _, r in tr.head(step).iterrows():
        if r["in G'"] == "taken":
            a, b = r["edge"].split("=")[1].strip("()").split(",")
            covered |= {FIG3_NAMES.index(a), FIG3_NAMES.index(b)}
    left = draw_graph(gp, labels=FIG3_NAMES, highlight=sorted(covered), title="")
    rng = np.random.default_rng(seed)
    fig = make_subplots(rows=1, cols=2, subplot_titles=[f"G' after {step} of 7 edges (cover in red)",
                                                        f"released c + Lap(2/ε), ε = {epsilon:.3g}"])
    for tr_ in left.data:
        fig.add_trace(tr_, 1, 1)
    cg, cgp = int(tr.c.iloc[-1]), int(tr["c'"].iloc[-1])
    for name, c in (("G", cg), ("G'", cgp)):
        fig.add_trace(go.Histogram(x=c + rng.laplace(0, 2 / epsilon, samples), name=f"{name} (c={c})", opacity=0.6, nbinsx=60), 1, 2)
    fig.update_xaxes(visible=False, row=1, col=1)
    fig.update_yaxes(visible=False, row=1, col=1)
    fig.update_layout(template="plotly_white", height=380, barmode="overlay")
    return fig, tr.head(step)
