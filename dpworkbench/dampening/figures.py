"""Every plotly figure of the local-dampening notebooks (Figs. 2–3, 9c, 12–14, 16, 17, 20, 23–25, Table 1).

Builders take computed results (data frames, arrays) and return a figure; they compute nothing
private and draw no randomness beyond a seeded sample of points to plot.

References
----------
V. A. E. de Farias, *Local Dampening: Differential Privacy for Non-numeric Queries via Local
Sensitivity*, PhD thesis, UFC 2021 (PVLDB 14(4) 2020).
"""

from __future__ import annotations

from typing import Sequence

import networkx as nx
import numpy as np
import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from . import ebc as E
from . import median as M
from .model import SensitivityMatrix, dampen


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


def ebc_scatter(ebc, degrees, max_degree_bound=None, sample: int = 5000, seed: int = 0) -> go.Figure:
    dmax = max_degree_bound or int(np.max(degrees))
    delta0 = E.delta_ebc(degrees, 0, max_degree_bound=dmax)
    idx = np.random.default_rng(seed).choice(len(ebc), min(sample, len(ebc)), replace=False)
    fig = px.scatter(x=np.asarray(ebc)[idx] + 1, y=delta0[idx], log_x=True, log_y=True, opacity=0.5,
                     labels={"x": "EBC(v) + 1", "y": "δ^EBC(G,0,v)"}, title="EBC vs δ^EBC(G,0,v) (Fig. 16)")
    return fig


def privtopk_figure(df: pd.DataFrame, title: str) -> go.Figure:
    return px.line(df, x="epsilon", y="accuracy", color="method", facet_col="k", log_x=True, markers=True, title=title,
                   labels={"epsilon": "B (ε)"})


def id3_figure(df: pd.DataFrame, title: str) -> go.Figure:
    return px.line(df, x="epsilon", y="accuracy", color="method", facet_col="depth", log_x=True, markers=True, title=title)


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


def graph_figure(G: nx.Graph, title: str, *, layout_seed: int = 1) -> go.Figure:
    """Plotly drawing of a small labelled graph (the thesis' toy graphs, Figs. 2 and 3/9c/15).

    Node positions come from ``networkx.spring_layout(G, seed=layout_seed)``; one grey line trace per edge
    (in ``G.edges`` order), then one marker trace with the node labels (in ``G.nodes`` order). Axes are hidden.
    """
    if not isinstance(G, nx.Graph):
        raise ValueError(f"G must be a networkx graph, got {type(G).__name__}")
    pos = nx.spring_layout(G, seed=layout_seed)
    fig = go.Figure()
    for u, v in G.edges:
        fig.add_scatter(x=[pos[u][0], pos[v][0]], y=[pos[u][1], pos[v][1]], mode="lines", line={"color": "grey"}, showlegend=False)
    fig.add_scatter(x=[pos[v][0] for v in G], y=[pos[v][1] for v in G], text=list(G), mode="markers+text", textposition="top center",
                    showlegend=False)
    fig.update_layout(title=title, xaxis_visible=False, yaxis_visible=False)
    return fig
