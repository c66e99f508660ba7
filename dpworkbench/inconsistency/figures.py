"""Every plotly figure of the inconsistency paper: Figs. 4/5 (true vs private), 6 (θ strategies), 7 (ε sweep),
and the conflict-graph drawing used by the toy figures (Figs. 2, 3) and the teaching views.

The builders take the tidy run records of :mod:`.experiments` (or a graph) and draw; they compute nothing private.

References
----------
.. [1] Mohapatra, Gilad, He, Kimelfeld. "Differentially Private Inconsistency Measures", SIGMOD 2025: §6, Figs. 2–7.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..plots import figure_size
from ..plots.style import PALETTE, decade_ticks

from .conflict_graph import ConflictGraph
from .datasets import NAMES
from .mechanisms import STRATEGY_LABELS


def _order(datasets):
    return [d for d in NAMES if d in set(datasets)]


def fig_true_vs_private(res: pd.DataFrame, title: str) -> go.Figure:
    """Figs. 4/5: rows I_P, I_MI, I_R; columns datasets sparsest → densest; true value vs private mean ± std.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §6.2, Figs. 4 and 5.
    """
    ds = _order(res["dataset"].unique())
    ms = [m for m in ("I_P", "I_MI", "I_R") if m in set(res["measure"])]
    fig = make_subplots(rows=len(ms), cols=len(ds), subplot_titles=[f"{m} — {d}" for m in ms for d in ds],
                        horizontal_spacing=0.04, vertical_spacing=0.08, x_title="noise injection iteration (checkpoint)",
                        y_title="measure value (edges for I_MI, tuples for I_P, I_R)")
    for i, m in enumerate(ms, start=1):
        for j, d in enumerate(ds, start=1):
            sub = res[(res.dataset == d) & (res.measure == m)]
            ours = sub[sub.algo != "r2t"] if "algo" in sub else sub
            g = ours.groupby("iteration").agg(true=("true", "mean"), mean=("output", "mean"), std=("output", "std")).reset_index()
            g["std"] = g["std"].fillna(0)
            show = i == 1 and j == 1
            fig.add_trace(go.Scatter(x=list(g.iteration) + list(g.iteration[::-1]), y=list(g["mean"] + g["std"]) + list((g["mean"] - g["std"])[::-1]),
                                     fill="toself", fillcolor="rgba(31,119,180,0.18)", mode="lines", line=dict(width=0), showlegend=False,
                                     hoverinfo="skip"), i, j)
            fig.add_trace(go.Scatter(x=g.iteration, y=g["true"], name="True value" + (" (2·I_R^lin for I_R)" if show else ""),
                                     line=dict(color="#ff7f0e"), showlegend=show, legendgroup="t"), i, j)
            fig.add_trace(go.Scatter(x=g.iteration, y=g["mean"], name="Our approach (mean ± std)", line=dict(color="#1f77b4"),
                                     showlegend=show, legendgroup="o"), i, j)
            if "algo" in sub and (sub.algo == "r2t").any():  # R2T baseline (I_MI): rows from dpworkbench.comparisons.r2t_noise_experiment
                r = sub[sub.algo == "r2t"].groupby("iteration").agg(mean=("output", "mean")).reset_index()
                fig.add_trace(go.Scatter(x=r.iteration, y=r["mean"], name="R2T (mean)", line=dict(color="#d62728", dash="dot"),
                                         showlegend=(i, j) == (ms.index("I_MI") + 1, 1), legendgroup="r"), i, j)
    fig.update_layout(title=title, template="plotly_white", height=280 * len(ms), width=260 * len(ds) + 100)
    # The saved style puts the one-row legend at the figure's foot but gives the foot only the x title's room (3.2 font
    # heights): the legend sat on 'noise injection iteration (checkpoint)'. Two more font heights hold its row.
    fig.update_layout(margin_b=int(5.2 * figure_size(fig)[2]))
    return fig


def fig_runtime_vs_rows(tax: pd.DataFrame, title: str) -> go.Figure:
    """Fig. 8 (left): seconds of each measure's algorithm (without the graph build) against rows, log–log.

    ``tax`` is :func:`.experiments.algorithm_seconds` of the size sweep (columns alpha, rows, source, ``*_algo_s``).
    One colour and one legend entry per measure and α; the same series on the stand-in table is dotted in that colour
    (one entry per table as well made 12 entries, taller than the figure: the last ones were cut off, quick report).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §6.5, Fig. 8.
    """
    fig = go.Figure()
    sources = list(dict.fromkeys(["real", *tax["source"]]))
    k = 0
    for m in ("I_MI", "I_P", "I_R"):
        for a in sorted(tax["alpha"].unique()):
            group, colour = f"{m}, α={a}", PALETTE[k % len(PALETTE)]
            k += 1
            for src in sources:
                g = tax[(tax.alpha == a) & (tax.source == src)].groupby("rows")[f"{m}_algo_s"].mean().reset_index()
                if g.empty:
                    continue
                first = not any(t.legendgroup == group for t in fig.data)
                fig.add_trace(go.Scatter(x=g["rows"], y=g[f"{m}_algo_s"], mode="lines+markers", legendgroup=group,
                                         name=group + ("" if src == "real" else f", {src}"), showlegend=first,
                                         line=dict(color=colour, dash=None if src == "real" else "dot")))
    styles = "<br><sup>solid: real Tax; dotted: stand-in</sup>" if len(set(tax["source"])) > 1 else ""
    fig.update_layout(title=title + styles, xaxis_title="rows", yaxis_title="seconds (without the graph build)")
    fig.update_xaxes(type="log")
    fig.update_yaxes(type="log")
    return decade_ticks(fig)


def fig_strategies(res: pd.DataFrame, title: str) -> go.Figure:
    """Fig. 6: rows I_P, I_MI; columns datasets; x = true value, y = mean relative error (log), five strategies.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §6.3, Fig. 6.
    """
    ds = _order(res["dataset"].unique())
    ms = [m for m in ("I_P", "I_MI") if m in set(res["measure"])]
    colors = {"baseline_V": "#1f77b4", "baseline_dmax": "#ff7f0e", "em": "#2ca02c", "hier_em": "#d62728", "bound_hier": "#9467bd"}
    fig = make_subplots(rows=len(ms), cols=len(ds), subplot_titles=[f"{m} — {d}" for m in ms for d in ds], horizontal_spacing=0.05,
                        x_title="true value of the measure (count, per checkpoint)", y_title="mean relative error |I − M|/I (log)")
    ok = res[res["true"] > 0]
    for i, m in enumerate(ms, start=1):
        for j, d in enumerate(ds, start=1):
            for a, col in colors.items():
                sub = ok[(ok.dataset == d) & (ok.measure == m) & (ok.algo == a)]
                if sub.empty:
                    continue
                g = sub.groupby("true")["rel_error"].mean().reset_index()
                fig.add_trace(go.Scatter(x=g["true"], y=g["rel_error"].clip(lower=1e-6), name=STRATEGY_LABELS[a], mode="lines+markers",
                                         line=dict(color=col, dash="dash" if a == "baseline_dmax" else None),
                                         showlegend=(i == 1 and j == 1), legendgroup=a), i, j)
            fig.update_yaxes(type="log", row=i, col=j)
            xs = ok.loc[(ok.dataset == d) & (ok.measure == m), "true"].to_numpy(dtype=float)
            if xs.size and abs(xs).max() > 0 and xs.max() - xs.min() <= 1e-3 * abs(xs).max():
                # One true value in the panel (Adult's I_P is ~n at every checkpoint): plotly's automatic range of ±1
                # around it reads "9.999k 10k 10.001k". Ticks at ±5 % inside a ±8 % range (an end tick on the panel's
                # edge ran under the legend); the points are unchanged.
                c, step = float(xs.mean()), 0.05 * float(abs(xs).max())
                fig.update_xaxes(range=[c - 1.6 * step, c + 1.6 * step], tickvals=[c - step, c, c + step], row=i, col=j)
    fig.update_layout(title=title, template="plotly_white", height=330 * len(ms), width=270 * len(ds) + 150)
    return fig


def fig_epsilon(res: pd.DataFrame, title: str) -> go.Figure:
    """Fig. 7: panels I_MI, I_P, I_R (log y); x = ε (categorical); mean relative error ± std per dataset.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §6.4, Fig. 7.
    """
    ms = [m for m in ("I_MI", "I_P", "I_R") if m in set(res["measure"])]
    fig = make_subplots(rows=1, cols=len(ms), subplot_titles=ms, x_title="ε (total privacy budget)",
                        y_title="mean relative error |I − M|/I")
    ok = res[res["true"] > 0]
    palette = ["#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#ff7f0e"]
    for j, m in enumerate(ms, start=1):
        for k, d in enumerate(_order(ok["dataset"].unique())):
            g = ok[(ok.dataset == d) & (ok.measure == m)].groupby("eps")["rel_error"].agg(["mean", "std"]).reset_index()
            fig.add_trace(go.Scatter(x=[str(e) for e in g.eps], y=g["mean"], error_y=dict(array=g["std"].fillna(0)), name=d,
                                     mode="lines+markers", line=dict(color=palette[k % 5]), showlegend=(j == 1), legendgroup=d), 1, j)
        if m == "I_R":
            fig.update_yaxes(type="log", row=1, col=j)
    fig.update_layout(title=title, template="plotly_white", height=380, width=1100)
    return fig


def draw_graph(g: ConflictGraph, *, labels=None, highlight=(), max_nodes: int = 300, title: str = "") -> go.Figure:
    """Small graphs: spring layout; larger: only the non-isolated nodes up to ``max_nodes``.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Figs. 2 and 3.
    """
    nodes = np.flatnonzero(g.degrees() > 0) if g.n > 30 else np.arange(g.n)
    nodes = nodes[:max_nodes]
    keep = set(nodes.tolist())
    h = nx.Graph()
    h.add_nodes_from(nodes.tolist())
    h.add_edges_from((a, b) for a, b in zip(g.u.tolist(), g.v.tolist()) if a in keep and b in keep)
    pos = nx.spring_layout(h, seed=1)
    ex, ey = [], []
    for a, b in h.edges:
        ex += [pos[a][0], pos[b][0], None]
        ey += [pos[a][1], pos[b][1], None]
    fig = go.Figure(go.Scatter(x=ex, y=ey, mode="lines", line=dict(color="#999", width=1), hoverinfo="skip", showlegend=False))
    xs = [pos[v][0] for v in h.nodes]
    ys = [pos[v][1] for v in h.nodes]
    text = [str(labels[v]) if labels is not None else str(v) for v in h.nodes]
    col = ["#d62728" if v in set(highlight) else "#1f77b4" for v in h.nodes]
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="markers+text" if len(xs) <= 40 else "markers", text=text, textposition="top center",
                             marker=dict(size=14 if len(xs) <= 40 else 6, color=col), showlegend=False))
    # room above the top node for its name (the label of the highest node was cut by the plot area)
    pad_y = 0.15 * (max(ys) - min(ys) or 1.0)
    fig.update_layout(title=title, template="plotly_white", xaxis=dict(visible=False),
                      yaxis=dict(visible=False, range=[min(ys) - pad_y / 3, max(ys) + pad_y]), height=380)
    return fig


__all__ = ["draw_graph", "fig_epsilon", "fig_runtime_vs_rows", "fig_strategies", "fig_true_vs_private"]
