"""Plotly figures for the R2T notebooks (thin: every number comes from the package)."""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..experiments.metrics import absolute_error, signed_error
from ..plots.style import decade_ticks

COLORS = {"R2T": "#1f77b4", "OPT2": "#d62728", "LP": "#2ca02c", "NT": "#9467bd", "SDE": "#8c564b", "RM": "#ff7f0e",
          "LS": "#17becf", "R2T-5.5": "#aec7e8", "naive Laplace": "#7f7f7f", "R2T (paper)": "#1f77b4", "LS (paper)": "#17becf",
          "fixed τ": "#2ca02c", "LP random τ": "#bcbd22", "OPT²": "#d62728", "plain SQL": "#555555"}


def race_figure(res, answer: float, ds: float, *, title: str = "Race to the top") -> go.Figure:
    """Q(I,τ) vs τ, each noisy shifted candidate with its noise scale as error bar, and the winner.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §5 (the race to the top, Fig. 1's intuition).
    """
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
    fig.update_xaxes(type="log", title="truncation threshold τ (log)")
    fig.update_yaxes(title="query value (count)", range=[y0, y1])
    # legend rows at the foot of the figure (anchored to the container): at y = −0.25 of the plot it covered the
    # x axis title
    fig.update_layout(title=f"{title}<br><sup>R2T output {res.value:,.1f}</sup>", template="plotly_white",
                      legend=dict(orientation="h", x=0.0, xanchor="left", yref="container", y=0.0, yanchor="bottom"))
    return decade_ticks(fig)


def opt2_figure(res, *, title: str = "OPT²: sparse vector over Ĝ(I, 2^ℓ)") -> go.Figure:
    """Ĝ(I,τ) per level, its noisy values, the threshold T and noisy threshold T̃, and the chosen τ̃ of one OPT² run.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §6 (the sparse-vector test of OPT²).
    """
    levels = sorted(res.g_values)
    g = np.array([res.g_values[lv] for lv in levels]) if levels else np.zeros(0)
    fig = go.Figure()
    if levels:
        fig.add_trace(go.Scatter(x=[2.0**lv for lv in levels], y=g, mode="lines+markers", name="Ĝ(I,τ) = F̂ − N (computed)"))
        noisy = [g[k] + res.noise[lv - 1] for k, lv in enumerate(levels) if lv - 1 < len(res.noise)]
        fig.add_trace(go.Scatter(x=[2.0**lv for lv in levels][: len(noisy)], y=noisy, mode="markers", name="Ĝ + Lap(6/ε)",
                                 marker=dict(size=9)))
    x_all = [2.0**lv for lv in levels] or [res.tau]
    xs = [min(x_all + [res.tau]), max(x_all + [res.tau])]
    # thresholds as traces (not shapes) so the legend explains them
    fig.add_trace(go.Scatter(x=xs, y=[res.noisy_threshold] * 2, mode="lines", name=f"noisy threshold T̃ = {res.noisy_threshold:.1f}",
                             line=dict(color="red", dash="dash")))
    fig.add_trace(go.Scatter(x=xs, y=[res.threshold] * 2, mode="lines", name=f"threshold T = {res.threshold:.1f}",
                             line=dict(color="#999", dash="dot")))
    ys = [res.noisy_threshold, res.threshold, *(g.tolist() if levels else [0.0])]
    fig.add_trace(go.Scatter(x=[res.tau, res.tau], y=[min(ys) - 1, max(max(ys), 0) + 1], mode="lines", name=f"τ̃ = {res.tau:g}",
                             line=dict(color="gold", width=3)))
    fig.update_xaxes(type="log", title="τ = 2^ℓ (log)")
    fig.update_layout(title=f"{title}<br><sup>τ̃ = {res.tau:g}, output {res.value:,.1f}</sup>", template="plotly_white",
                      yaxis_title="Ĝ(I,τ) = F̂ − N (individuals, ≤ 0)")
    return decade_ticks(fig)  # decades labelled: plotly's own log ticks crowd a projector


def grouped_bars(summary: pd.DataFrame, *, value: str = "rel_error_pct", facet: str = "query", x: str = "dataset",
                 color: str = "mechanism", title: str = "", log_y: bool = True, y_title: str = "", x_title: str = "") -> go.Figure:
    """``value`` per ``x`` and ``color`` (one panel per ``facet``): grouped bars on a linear axis, grouped dots on a
    log axis (a bar's base cannot be drawn on a log scale, so its length would mean nothing).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, Tables 2 and 5.
    """
    facets = list(dict.fromkeys(summary[facet]))
    # one panel: its name joins the title (a subplot title there stands on the figure's title)
    fig = make_subplots(rows=1, cols=len(facets), subplot_titles=[str(f) for f in facets] if len(facets) > 1 else None,
                        shared_yaxes=True)
    if len(facets) == 1:
        title = f"{title}<br><sup>{facets[0]}</sup>"
    shown = set()
    for c, f in enumerate(facets, start=1):
        sub = summary[summary[facet] == f]
        for mech in dict.fromkeys(sub[color]):
            s = sub[(sub[color] == mech) & (sub[value] > 0 if log_y else True)]
            kw = dict(x=s[x].astype(str), y=s[value], name=str(mech), showlegend=mech not in shown, legendgroup=str(mech))
            if log_y:
                fig.add_trace(go.Scatter(mode="markers", marker=dict(color=COLORS.get(mech), size=9), offsetgroup=str(mech), **kw),
                              row=1, col=c)
            else:
                fig.add_trace(go.Bar(marker_color=COLORS.get(mech), **kw), row=1, col=c)
            shown.add(mech)
    if log_y:
        # every 2nd/3rd decade labelled when the errors span many: under turned dataset names a panel is short
        decade_ticks(fig.update_yaxes(type="log"), max_labels=5)
    fig.update_yaxes(title=y_title or value, row=1, col=1)
    fig.update_xaxes(title=x_title or x)
    # The legend in a row at the foot of the figure: beside a one-row grid whose dataset names stand turned under
    # the panels, the plot is too short for a column of mechanisms and the last ones were cut.
    fig.update_layout(barmode="group", scattermode="group", title=title, template="plotly_white", height=450,
                      legend=dict(orientation="h", x=0.0, xanchor="left", yref="container", y=0.0, yanchor="bottom"))
    return fig


def sweep_panels(summary: pd.DataFrame, *, x: str, facet: str, answers: dict, paper: dict | None = None,
                 x_title: str = "", title: str = "", theory: dict | None = None, y: str = "error",
                 y_title: str = "error (trimmed mean)") -> go.Figure:
    """Log–log panels of ``y`` vs ``x`` per mechanism, the query-result line (black dashed, in the legend),
    optional paper curves (dashed, the mechanism's colour) and theory curves (dotted).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, Figs. 7–9.
    """
    facets = list(dict.fromkeys(summary[facet]))
    fig = make_subplots(rows=1, cols=len(facets), subplot_titles=[str(f) for f in facets])
    shown = set()
    for c, f in enumerate(facets, start=1):
        sub = summary[summary[facet] == f]
        for mech in dict.fromkeys(sub["mechanism"]):
            s = sub[(sub["mechanism"] == mech) & np.isfinite(sub[y])].sort_values(x)
            if s.empty:
                continue  # no finite error in this panel: plotly lists no legend entry for an empty trace
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
            xs = sorted(set(sub[x].dropna().astype(float)))
            if xs:
                nm = "query result Q(I)"
                fig.add_trace(go.Scatter(x=[xs[0], xs[-1]], y=[answers[f]] * 2, mode="lines", name=nm,
                                         line=dict(color="black", dash="dash"), legendgroup=nm, showlegend=nm not in shown),
                              row=1, col=c)
                shown.add(nm)
    fig.update_xaxes(type="log", title=x_title)
    fig.update_yaxes(type="log")
    fig.update_yaxes(title=y_title, row=1, col=1)
    # The legend (up to ~10 entries: mechanisms, their paper curves, theory, Q(I)) goes in rows under the panels: at
    # the side of a one-row grid it was taller than the plot and cut, which left the dashed paper curves unnamed.
    fig.update_layout(title=title, template="plotly_white", height=430,
                      legend=dict(orientation="h", x=0.0, xanchor="left", yref="container", y=0.0, yanchor="bottom"))
    return fig


def output_histograms(outputs: dict[str, np.ndarray], answer: float, *, title: str, signed: bool = True,
                      focus: Sequence[str] = (), labels: dict[str, str] | None = None) -> go.Figure:
    """Overlaid histograms of each mechanism's output − Q(I) (``signed``) or |output − Q(I)|, with one shared binning.

    ``focus``: mechanisms whose 1–99 % range sets the x-axis (others, e.g. naive Laplace, may run off it; the
    title says how many runs are off-axis), so outliers of a wide mechanism do not hide the narrow ones.
    ``labels`` renames legend entries (colours stay those of the mechanism keys).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §5–6 (output distributions); spec 5.7.
    """
    err = {k: (signed_error if signed else absolute_error)(v, answer) for k, v in outputs.items()}
    keys = [k for k in focus if k in err] or list(err)
    lo = min(float(np.quantile(err[k], 0.01)) for k in keys)
    hi = max(float(np.quantile(err[k], 0.99)) for k in keys)
    if not signed:
        lo = 0.0
    if hi <= lo:
        hi = lo + 1.0
    pad = 0.05 * (hi - lo)
    lo, hi = lo - (pad if signed else 0.0), hi + pad
    size = (hi - lo) / 60
    fig = go.Figure()
    off = 0
    for name, e in err.items():
        off += int(np.sum((e < lo) | (e > hi)))
        fig.add_trace(go.Histogram(x=e, name=(labels or {}).get(name, name), opacity=0.55, xbins=dict(start=lo, end=hi, size=size),
                                   marker_color=COLORS.get(name, "#7f7f7f")))
    fig.add_vline(x=0.0, line=dict(color="black", dash="dash"), annotation_text="no error")  # linear axis: data coordinates
    total = sum(e.size for e in err.values())
    if off and title.endswith("</sup>"):  # the note joins the last subtitle line (a fourth line is too many)
        title = title[: -len("</sup>")] + f"; {off} of {total} runs off the axis</sup>"
    elif off:
        title += f"<br><sup>{off} of {total} runs outside the axis range</sup>"
    note = ""
    fig.update_xaxes(range=[lo, hi], title="output − Q(I) (count)" if signed else "|output − Q(I)| (count)")
    fig.update_yaxes(title="runs")
    fig.update_layout(barmode="overlay", template="plotly_white", title=title + note)
    return fig


def bounds_histograms(r2t_err: np.ndarray, opt2_err: np.ndarray, bound_r2t: float, bound_opt2: float, *, title: str) -> go.Figure:
    """|error| histograms of R2T and OPT² with the Theorem 5.1 / 6.8 bounds as dashed lines (in the legend).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, Theorems 5.1 and 6.8.
    """
    hi = max(float(np.quantile(r2t_err, 0.995)), float(np.quantile(opt2_err, 0.995)), bound_r2t, bound_opt2) * 1.05
    size = hi / 60
    fig = go.Figure()
    fig.add_trace(go.Histogram(x=r2t_err, name="R2T |error|", opacity=0.6, marker_color=COLORS["R2T"], xbins=dict(start=0, end=hi, size=size)))
    fig.add_trace(go.Histogram(x=opt2_err, name="OPT² |error|", opacity=0.6, marker_color=COLORS["OPT2"], xbins=dict(start=0, end=hi, size=size)))
    for x, name, col in ((bound_r2t, "Thm 5.1 bound (R2T)", COLORS["R2T"]), (bound_opt2, "Thm 6.8 bound (OPT²)", COLORS["OPT2"])):
        fig.add_trace(go.Scatter(x=[x, x], y=[0, 1], yaxis="y2", mode="lines", name=name, line=dict(color=col, dash="dash")))
    fig.update_layout(yaxis2=dict(overlaying="y", range=[0, 1], visible=False))
    fig.update_xaxes(range=[0, hi], title="|output − Q(I)| (count)")
    fig.update_yaxes(title="runs")
    fig.update_layout(barmode="overlay", template="plotly_white", title=title)
    return fig


def bounds_bars(bounds: pd.DataFrame, *, epsilon: float, beta: float) -> go.Figure:
    """Empirical (1−β)-quantile errors of R2T and OPT² (dots) next to the Theorem 5.1 / 6.8 bounds (dashes), divided by DS.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, Theorems 5.1 and 6.8.
    """
    lab = bounds.dataset + " " + bounds["query"]
    fig = go.Figure()
    for col, name, colour, symbol in [("R2T err quantile 1-β", "R2T empirical (1−β quantile)", COLORS["R2T"], "circle"),
                                      ("Thm 5.1 bound", "Thm 5.1 bound (R2T)", COLORS["R2T"], "line-ew-open"),
                                      ("OPT² err quantile 1-β", "OPT² empirical (1−β quantile)", COLORS["OPT2"], "circle"),
                                      ("Thm 6.8 bound", "Thm 6.8 bound (OPT²)", COLORS["OPT2"], "line-ew-open")]:
        group = "R2T" if "5.1" in name or name.startswith("R2T") else "OPT2"
        fig.add_trace(go.Scatter(x=lab, y=bounds[col] / bounds.DS, name=name, mode="markers", offsetgroup=group,
                                 marker=dict(color=colour, symbol=symbol, size=10 if symbol == "circle" else 22,
                                             line=dict(width=3, color=colour))))
    fig.update_yaxes(type="log", title="error / DS (log)")
    fig.update_xaxes(title="dataset and query")
    fig.update_layout(scattermode="group", title=f"Empirical error vs theorem bounds (ε={epsilon:g}, β={beta:g})", template="plotly_white")
    return decade_ticks(fig)  # decades labelled: plotly's own 2…9 labels drown them on a projector


def degree_distributions(graphs: dict) -> go.Figure:
    """Degree histogram (log–log) of each loaded graph dataset; ``graphs`` maps name → dataset with ``.data`` and ``.source``.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, Table 1.
    """
    fig = go.Figure()
    for name, ds in graphs.items():
        deg = ds.data.degrees
        vals, cnt = np.unique(deg[deg > 0], return_counts=True)
        fig.add_trace(go.Scatter(x=vals, y=cnt, mode="markers", name=f"{name} ({ds.source})"))
    fig.update_xaxes(type="log", title="degree (log)")
    fig.update_yaxes(type="log", title="number of nodes (log)")
    fig.update_layout(title="Degree distributions of the datasets used", template="plotly_white")
    return fig


def fixed_tau_figure(fixed: pd.DataFrame, mech_error: pd.Series, queries: Sequence[str]) -> go.Figure:
    """Table 3: the LP mechanism's error at τ = GS/8^k (one panel per query) with R2T's and OPT²'s errors as lines.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, Table 3.
    """
    fig = make_subplots(rows=1, cols=len(queries), subplot_titles=list(queries))
    shown = set()
    for c, q in enumerate(queries, start=1):
        t = fixed[fixed["query"] == q].sort_values("tau")
        fig.add_trace(go.Scatter(x=t.tau, y=t.error, mode="lines+markers", name="fixed τ (LP)", legendgroup="fixed",
                                 showlegend="fixed" not in shown, line=dict(color=COLORS["LP"])), row=1, col=c)
        shown.add("fixed")
        for m, label in (("R2T", "R2T"), ("OPT2", "OPT²")):
            v = mech_error.get((q, m), np.nan)
            if np.isfinite(v) and len(t):
                fig.add_trace(go.Scatter(x=[t.tau.min(), t.tau.max()], y=[v, v], mode="lines", name=label, legendgroup=m,
                                         showlegend=m not in shown, line=dict(color=COLORS[m], dash="dash")), row=1, col=c)
                shown.add(m)
    fig.update_xaxes(type="log", title="τ = GS/8^k (log)")
    fig.update_yaxes(type="log")
    fig.update_yaxes(title="absolute error (log)", row=1, col=1)
    fig.update_layout(title="Table 3: fixed-τ LP error vs τ", template="plotly_white", height=420)
    return fig


def early_stop_figure(table4: pd.DataFrame, *, query: str) -> go.Figure:
    """Table 4: seconds with (filled) and without (open) early stop per dataset and mechanism, on a log axis.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, Table 4.
    """
    fig = go.Figure()
    for mech in ("R2T", "OPT2"):
        t = table4[table4.mechanism == mech]
        if t.empty:
            continue
        label = "OPT²" if mech == "OPT2" else mech
        for col, what, symbol in (("with_early_stop_s", "with early stop", "circle"), ("without_s", "without", "circle-open")):
            ok = t[t[col] > 0]
            fig.add_trace(go.Scatter(x=ok.dataset, y=ok[col], mode="markers", name=f"{label} {what}", offsetgroup=mech,
                                     marker=dict(color=COLORS[mech], symbol=symbol, size=11, line=dict(width=2, color=COLORS[mech]))))
    fig.update_yaxes(type="log", title="seconds (mechanism only, log)")
    fig.update_xaxes(title="dataset")
    fig.update_layout(scattermode="group", title=f"Table 4: {query} query,<br>with vs without early stop", template="plotly_white")
    return fig


__all__ = ["COLORS", "bounds_bars", "bounds_histograms", "degree_distributions", "early_stop_figure", "fixed_tau_figure",
           "grouped_bars", "opt2_figure", "output_histograms", "race_figure", "sweep_panels"]
