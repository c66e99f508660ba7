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
    """Fig. 17: expected absolute error of the selected median per ε and method (log–log).

    References
    ----------
    de Farias 2021, §5.4, Fig. 17 (d–f).
    """
    return px.line(df, x="epsilon", y="error", color="method", line_dash="method", log_x=True, log_y=True, markers=True,
                   title=title, labels={"error": "E|selected − true median| (bins)", "epsilon": "privacy budget ε", "method": "mechanism"})


def median_suite_figure(table: pd.DataFrame, title: str, method: str = "LD") -> go.Figure:
    """Fig. 17 on every DPBench histogram in one panel: ``method``'s expected error relative to the better global
    mechanism, err/min(EM, PF), per ε, one line per dataset (below 1: local dampening helps).

    References
    ----------
    de Farias 2021, §5.3 (all DPBench datasets tested), Fig. 17.
    """
    p = table.pivot_table(index=["dataset", "epsilon"], columns="method", values="error").reset_index()
    p["ratio"] = p[method] / np.minimum(p["EM"], p["PF"])
    fig = px.line(p, x="epsilon", y="ratio", color="dataset", log_x=True, markers=True, title=title,
                  labels={"epsilon": "privacy budget ε", "ratio": f"E|error| {method} / min(EM, PF)", "dataset": ""})
    fig.add_hline(y=1.0, line_dash="dot", line_color="black")
    return fig


def median_sensitivity_figure(hist, horizon: int = 6) -> go.Figure:
    """Element local sensitivity LS(x, 0, r) per bin and the admissible box bound δ(t) for t ≥ 1 (dotted lines).

    References
    ----------
    de Farias 2021, Ch. 5 (Lemma 5.2.2, corrected); spec §3.4 (box bound).
    """
    g = M.histogram_groups(hist)
    d = M.grouped_delta(g, horizon)
    fig = go.Figure()
    for side, name in ((-1, "below median"), (0, "median element"), (1, "above median")):
        sel = g["side"] == side
        fig.add_scatter(x=g["bin"][sel], y=d[sel, 0], mode="markers", name=f"LS(x,0,r) {name}", marker={"size": 4})
    # One label per distinct bound, each at its own place along its line: bounds that coincide (the box bound reaches
    # its cap after a few steps) share one label, and five labels at the right end ran into each other.
    levels: dict[float, list[int]] = {}
    for t in range(1, horizon):
        fig.add_hline(y=d[0, t], line_dash="dot")
        levels.setdefault(float(d[0, t]), []).append(t)
    for k, (y, ts) in enumerate(levels.items()):
        label = f"δ(t={ts[0]})" if len(ts) == 1 else f"δ(t={ts[0]}…{ts[-1]})"
        fig.add_annotation(x=(k + 0.5) / len(levels), xref="x domain", xanchor="center", y=y, yref="y", yanchor="bottom",
                           text=label, showarrow=False)
    fig.add_vline(x=g["median_value"], line_color="black", annotation_text="median", annotation_position="bottom right")
    fig.update_layout(title=f"Element LS (t = 0), box bound (t ≥ 1), Λ = {g['lam']}",
                      xaxis_title="bin value (0..Λ)", yaxis_title="sensitivity δ (bins)")
    return fig


def ebc_scatter(ebc, degrees, max_degree_bound: int | None = None, sample: int = 5000, seed: int = 0) -> go.Figure:
    """Fig. 16: EBC(v) + 1 against δ^EBC(G, 0, v) on a seeded sample of ``sample`` nodes (log–log).

    References
    ----------
    de Farias 2021, §6.4, Fig. 16; Def. 6.3.1 (δ^EBC).
    """
    dmax = max_degree_bound or int(np.max(degrees))
    delta0 = E.delta_ebc(degrees, 0, max_degree_bound=dmax)
    idx = np.random.default_rng(seed).choice(len(ebc), min(sample, len(ebc)), replace=False)
    return px.scatter(x=np.asarray(ebc)[idx] + 1, y=delta0[idx], log_x=True, log_y=True, opacity=0.5,
                      labels={"x": "EBC(v) + 1", "y": "δ^EBC(G,0,v)"}, title="EBC vs δ^EBC(G,0,v) (Fig. 16)")


def privtopk_figure(df: pd.DataFrame, title: str) -> go.Figure:
    """Fig. 20: top-k accuracy per budget B, one panel per k, one line per mechanism.

    References
    ----------
    de Farias 2021, §6.5, Fig. 20 (d–f).
    """
    return px.line(df, x="epsilon", y="accuracy", color="method", facet_col="k", log_x=True, markers=True, title=title,
                   labels={"epsilon": "budget B (ε)", "accuracy": "top-k accuracy", "method": "mechanism"})


def budget_figure(budgets: pd.DataFrame, level: float) -> go.Figure:
    """Fig. 20 summary: the smallest ε of the grid reaching accuracy ``level`` per graph, k and mechanism, as a dot plot
    on a log axis (a mechanism that never reaches the level on the grid has no dot).

    References
    ----------
    de Farias 2021, §6.5 (the text's "orders of magnitude less ε").
    """
    # dots, not bars: a bar on a log axis has no honest baseline
    fig = px.scatter(budgets, x="graph", y="budget", color="method", symbol="method", facet_col="k", log_y=True,
                     title=f"Budget to reach accuracy {level:g}",
                     labels={"graph": "graph", "budget": f"ε to reach accuracy {level:g}", "method": "mechanism"})
    return fig.update_traces(marker_size=10)


def table1_figure(table: pd.DataFrame) -> go.Figure:
    """Table 1 as lines: our PTK and PrivateSQL accuracy per B (both degree bounds) and the thesis' PSQL columns.

    References
    ----------
    de Farias 2021, §6.5, Table 1.
    """
    long = pd.concat([table[["B", c]].rename(columns={c: "accuracy"}).assign(series=c) for c in table.columns[1:]])
    return px.line(long, x="B", y="accuracy", color="series", log_x=True, markers=True, title="Table 1: PTK vs PrivateSQL, ours and the thesis'",
                   labels={"B": "budget B (ε)", "accuracy": "top-k accuracy (mean over k = 1..3)", "series": "column"})


def id3_figure(df: pd.DataFrame, title: str) -> go.Figure:
    """Figs. 23–25: cross-validated accuracy per budget B, one panel per depth, one line per method.

    References
    ----------
    de Farias 2021, Ch. 7, Figs. 23–25.
    """
    return px.line(df, x="epsilon", y="accuracy", color="method", facet_col="depth", log_x=True, markers=True, title=title,
                   labels={"epsilon": "budget B (ε)", "accuracy": "CV accuracy", "method": "DiffPID3 variant"})


def dampening_figure(delta_row: Sequence[float], global_sensitivity: float, *, u_max: float | None = None,
                     t_mark: int | None = None) -> go.Figure:
    """Fig. 14: the dampening function D(u) of one element with sensitivities ``delta_row`` (δ = Δu beyond), the EM scale
    u/Δu (dashed) and the breakpoints (±b(t), ±t); ``t_mark`` marks b(x, t, r) (dotted).

    References
    ----------
    de Farias 2021, Def. 3.3.1, Fig. 14.
    """
    sm = SensitivityMatrix(np.atleast_2d(delta_row), global_sensitivity)
    b = np.concatenate([[0], np.cumsum(sm.values[0])])
    u_max = u_max or float(b[-1] + 2 * global_sensitivity)
    u = np.linspace(-u_max, u_max, 801)
    fig = go.Figure()
    fig.add_scatter(x=u, y=dampen(u, sm), name="D(u) (LD)")
    fig.add_scatter(x=u, y=u / global_sensitivity, name="u/Δu (EM scale)", line={"dash": "dash"})
    fig.add_scatter(x=np.concatenate([-b[::-1], b[1:]]), y=np.concatenate([-np.arange(len(b))[::-1], np.arange(1, len(b))]),
                    mode="markers", name="breakpoints (±b(t), ±t)")
    if t_mark is not None and t_mark < len(b):
        fig.add_vline(x=b[t_mark], line_dash="dot", annotation_text=f"b(x,{t_mark},r)")
    fig.update_layout(title="The dampening function (Def. 3.3.1)", xaxis_title="utility u(x,r)", yaxis_title="dampened utility D")
    return fig


def bounded_sensitivity_figure(delta_row: Sequence[float], global_sensitivity: float, *, extra: int = 4) -> go.Figure:
    """Fig. 12: a bounded sensitivity function reaches Δu at the public horizon T = len(delta_row).

    References
    ----------
    de Farias 2021, Def. 3.2.2, Fig. 12.
    """
    fig = go.Figure()
    for name, row in [("δ(x,t,r): bounded, flat in r", list(delta_row)), ("Δu (global)", [global_sensitivity] * len(delta_row))]:
        t = np.arange(len(row) + extra)
        fig.add_scatter(x=t, y=[row[i] if i < len(row) else global_sensitivity for i in t], mode="lines+markers", name=name)
    fig.update_layout(title="Fig. 12: a bounded δ reaches Δu at the horizon T", xaxis_title="distance t (rows / edges changed)",
                      yaxis_title="sensitivity δ(x,t,r)")
    return fig


def monotone_sensitivity_figure(utilities: Sequence[float], rows: np.ndarray, global_sensitivity: float) -> go.Figure:
    """Fig. 13: δ(x, t, r) of three elements; the title names the monotonicity the rows have (Defs. 3.2.3–3.2.5).

    References
    ----------
    de Farias 2021, Defs. 3.2.3–3.2.5, Fig. 13.
    """
    u = np.asarray(utilities, float)
    rows = np.asarray(rows, float)
    mono = SensitivityMatrix(rows, global_sensitivity).monotonicity(u)
    fig = go.Figure([go.Scatter(x=np.arange(rows.shape[1]), y=rows[i], name=f"r{i + 1} (u={u[i]:g})", mode="lines+markers")
                     for i in range(rows.shape[0])])
    fig.update_layout(title=f"Fig. 13: a {mono} sensitivity function", xaxis_title="distance t",
                      yaxis_title="sensitivity δ(x,t,r)")
    return fig


def example_probabilities_figure(probabilities: pd.DataFrame, columns: Sequence[str], *, epsilon: float) -> go.Figure:
    """Output laws of the worked examples on the Fig. 9c graph: one bar group per node, one bar per mechanism column.

    References
    ----------
    de Farias 2021, Examples 3.4.1, 3.6.1 and 4.2.1.
    """
    fig = go.Figure([go.Bar(x=probabilities.node, y=probabilities[c], name=c) for c in columns])
    fig.update_layout(title=f"Output probabilities on the Fig. 9c graph, ε = {epsilon:g}", barmode="group",
                      xaxis_title="node", yaxis_title="P[selected]")
    return fig


def graph_figure(G: nx.Graph, title: str, *, layout_seed: int = 1) -> go.Figure:
    """Plotly drawing of a small labelled graph (the thesis' toy graphs, Figs. 2 and 3/9c/15).

    Node positions come from ``networkx.spring_layout(G, seed=layout_seed)``; one grey line trace per edge
    (in ``G.edges`` order), then one marker trace with the node labels (in ``G.nodes`` order). Axes are hidden.

    References
    ----------
    de Farias 2021, Figs. 2 and 3 / 9c / 15.
    """
    if not isinstance(G, nx.Graph):
        raise ValueError(f"G must be a networkx graph, got {type(G).__name__}")
    pos = nx.spring_layout(G, seed=layout_seed)
    fig = go.Figure()
    for u, v in G.edges:
        fig.add_scatter(x=[pos[u][0], pos[v][0]], y=[pos[u][1], pos[v][1]], mode="lines", line={"color": "grey"}, showlegend=False)
    fig.add_scatter(x=[pos[v][0] for v in G], y=[pos[v][1] for v in G], text=list(G), mode="markers+text", textposition="top center",
                    showlegend=False)
    # node names above the top nodes and beside the outer ones stand past the plot area: drawn there, not cut off
    fig.update_traces(cliponaxis=False, selector=dict(mode="markers+text"))
    fig.update_layout(title=title, xaxis_visible=False, yaxis_visible=False)
    return fig
