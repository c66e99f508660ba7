"""Plotly figures for the R2T notebooks (thin: every number comes from the package)."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

COLORS = {"R2T": "#1f77b4", "OPT2": "#d62728", "LP": "#2ca02c", "NT": "#9467bd", "SDE": "#8c564b", "RM": "#ff7f0e",
          "LS": "#17becf", "R2T-5.5": "#aec7e8", "naive Laplace": "#7f7f7f", "R2T (paper)": "#1f77b4", "LS (paper)": "#17becf"}


def race_figure(res, answer: float, ds: float, *, title: str = "Race to the top") -> go.Figure:
    """Q(I,τ) vs τ, each noisy shifted candidate with its noise scale as error bar, and the winner."""
    taus = res.taus
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=taus, y=res.truncated, mode="lines+markers", name="Q(I,τ) (truncated answer)", line=dict(color="#444")))
    scale = res.extra["K"] * taus / res.epsilon
    fig.add_trace(go.Scatter(x=taus, y=res.truncated - res.penalty, mode="lines", name="Q(I,τ) − penalty",
                             line=dict(color="#aaa", dash="dot")))
    fig.add_trace(go.Scatter(x=taus, y=res.candidates, mode="markers", name="Q̃(I,τ) = Q(I,τ) + noise − penalty",
                             error_y=dict(type="data", array=scale, visible=True, thickness=1), marker=dict(size=9, color=COLORS["R2T"])))
    if res.winner_tau is not None:
        i = int(np.flatnonzero(taus == res.winner_tau)[0])
        fig.add_trace(go.Scatter(x=[taus[i]], y=[res.candidates[i]], mode="markers", name=f"winner τ={taus[i]:g}",
                                 marker=dict(size=18, symbol="star", color="gold", line=dict(color="black", width=1))))
    fig.add_hline(y=answer, line=dict(color="green", dash="dash"), annotation_text=f"Q(I) = {answer:,.0f}")
    lo = np.nanmin(np.concatenate([res.candidates[np.isfinite(res.candidates)], [0.0]]))
    y0, y1 = max(lo, -0.5 * answer), 1.15 * answer + 1
    # vertical marker as a trace: shapes on log axes take log10 coordinates
    fig.add_trace(go.Scatter(x=[ds, ds], y=[y0, y1], mode="lines", name=f"τ* = DS = {ds:g}", line=dict(color="orange", dash="dash")))
    fig.update_xaxes(type="log", title="τ (log)")
    fig.update_yaxes(title="value", range=[y0, y1])
    fig.update_layout(title=f"{title}: output {res.value:,.1f}", template="plotly_white", legend=dict(orientation="h", y=-0.2))
    return fig


def opt2_figure(res, n_active: int, *, title: str = "OPT²: sparse vector over Ĝ(I, 2^ℓ)") -> go.Figure:
    levels = sorted(res.g_values)
    g = np.array([res.g_values[lv] for lv in levels]) if levels else np.zeros(0)
    fig = go.Figure()
    if levels:
        fig.add_trace(go.Scatter(x=[2.0**lv for lv in levels], y=g, mode="lines+markers", name="Ĝ(I,τ) = F̂ − N (computed)"))
        noisy = [g[k] + res.noise[lv - 1] for k, lv in enumerate(levels) if lv - 1 < len(res.noise)]
        fig.add_trace(go.Scatter(x=[2.0**lv for lv in levels][: len(noisy)], y=noisy, mode="markers", name="Ĝ + Lap(6/ε)",
                                 marker=dict(size=9)))
    fig.add_hline(y=res.noisy_threshold, line=dict(color="red", dash="dash"), annotation_text=f"T̃ = {res.noisy_threshold:.1f}")
    fig.add_hline(y=res.threshold, line=dict(color="#999", dash="dot"), annotation_text=f"T = {res.threshold:.1f}")
    ys = [res.noisy_threshold, res.threshold, *(g.tolist() if levels else [0.0])]
    fig.add_trace(go.Scatter(x=[res.tau, res.tau], y=[min(ys) - 1, max(max(ys), 0) + 1], mode="lines", name=f"τ̃ = {res.tau:g}",
                             line=dict(color="gold", width=3)))
    fig.update_xaxes(type="log", title="τ = 2^ℓ (log)")
    fig.update_layout(title=f"{title}: τ̃ = {res.tau:g}, output {res.value:,.1f}", template="plotly_white", yaxis_title="value")
    return fig


def grouped_bars(summary: pd.DataFrame, *, value: str = "rel_error_pct", facet: str = "query", x: str = "dataset",
                 color: str = "mechanism", title: str = "", log_y: bool = True, y_title: str = "") -> go.Figure:
    facets = list(dict.fromkeys(summary[facet]))
    fig = make_subplots(rows=1, cols=len(facets), subplot_titles=[str(f) for f in facets], shared_yaxes=True)
    shown = set()
    for c, f in enumerate(facets, start=1):
        sub = summary[summary[facet] == f]
        for mech in dict.fromkeys(sub[color]):
            s = sub[sub[color] == mech]
            fig.add_trace(go.Bar(x=s[x].astype(str), y=s[value], name=str(mech), marker_color=COLORS.get(mech),
                                 showlegend=mech not in shown, legendgroup=str(mech)), row=1, col=c)
            shown.add(mech)
    if log_y:
        fig.update_yaxes(type="log")
    fig.update_yaxes(title=y_title or value, row=1, col=1)
    fig.update_layout(barmode="group", title=title, template="plotly_white", height=450)
    return fig


def sweep_panels(summary: pd.DataFrame, *, x: str, facet: str, answers: dict, paper: dict | None = None,
                 x_title: str = "", title: str = "", theory: dict | None = None, y: str = "error") -> go.Figure:
    """Log–log panels of error vs ``x`` per mechanism, the query-result line, optional paper curves (dashed)."""
    facets = list(dict.fromkeys(summary[facet]))
    fig = make_subplots(rows=1, cols=len(facets), subplot_titles=[str(f) for f in facets])
    shown = set()
    for c, f in enumerate(facets, start=1):
        sub = summary[summary[facet] == f]
        for mech in dict.fromkeys(sub["mechanism"]):
            s = sub[(sub["mechanism"] == mech) & np.isfinite(sub[y])].sort_values(x)
            fig.add_trace(go.Scatter(x=s[x], y=s[y], mode="lines+markers", name=str(mech), line=dict(color=COLORS.get(mech)),
                                     legendgroup=str(mech), showlegend=mech not in shown), row=1, col=c)
            shown.add(mech)
        if paper and f in paper:
            for mech, (xs, ys) in paper[f].items():
                nm = f"{mech} (paper)"
                fig.add_trace(go.Scatter(x=list(xs), y=list(ys), mode="lines", name=nm, line=dict(dash="dash", color=COLORS.get(mech)),
                                         opacity=0.6, legendgroup=nm, showlegend=nm not in shown), row=1, col=c)
                shown.add(nm)
        if theory and f in theory:
            for nm, (xs, ys) in theory[f].items():
                fig.add_trace(go.Scatter(x=list(xs), y=list(ys), mode="lines", name=nm, line=dict(dash="dot", color="#555"),
                                         legendgroup=nm, showlegend=nm not in shown), row=1, col=c)
                shown.add(nm)
        if f in answers:
            fig.add_hline(y=answers[f], line=dict(color="black", dash="dash"), row=1, col=c)
    fig.update_xaxes(type="log", title=x_title)
    fig.update_yaxes(type="log")
    fig.update_yaxes(title="error level (absolute, log)", row=1, col=1)
    fig.update_layout(title=title + " (dashed black: query result)", template="plotly_white", height=430)
    return fig


__all__ = ["grouped_bars", "opt2_figure", "race_figure", "sweep_panels"]
