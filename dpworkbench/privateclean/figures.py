"""Every plotly figure of the PrivateClean notebooks and teaching views, built from tables the other modules compute.

Builders take data (summary tables, provenance edges, estimates) and public parameters and only draw: no sampling,
no ε. Every axis has a title with its unit, legend entries name what is drawn in the colour drawn, and titles are
short enough for the panel they sit over (``dpworkbench.plots.figure_problems`` finds none on the tests' inputs).

References
----------
Krishnan et al., "PrivateClean: Data Cleaning and Differential Privacy", SIGMOD 2016 (seed 002): Figs. 1–11 (§8);
spec /work/shared/spec/privateclean.md §5.3 (what each figure shows), §6.5 (teaching views).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..plots import figure_size

#: One colour per estimator / series, everywhere.
COLORS = {"direct": "#d62728", "privateclean": "#1f77b4", "pc_noprov": "#9467bd", "dirty_nonprivate": "#7f7f7f",
          "Direct": "#d62728", "PC-W": "#1f77b4", "PC-U": "#2ca02c"}
#: Legend names of the methods (the tables keep the short codes).
METHOD_NAMES = {"direct": "Direct", "privateclean": "PrivateClean", "pc_noprov": "PrivateClean, no provenance",
                "dirty_nonprivate": "dirty, non-private", "Direct": "Direct", "PC-W": "PC-W (weighted)",
                "PC-U": "PC-U (unweighted)"}
#: Category labels under a narrow panel (the legend gives the full name in the same colour).
SHORT_METHOD_NAMES = {"pc_noprov": "PC, no prov."}
#: Axis titles (with units) of the sweep parameters.
X_TITLES = {"p": "p (GRR replacement probability)", "b": "b (Laplace scale, value units)",
            "l": "l (distinct values selected)", "z": "z (Zipf skew)", "error_rate": "data-error rate (fraction)",
            "merge_rate": "merge rate (fraction of aliases)", "N": "N (distinct values)",
            "corruptions": "corruptions (rows)"}
#: Colours of the relation histograms of the teaching views (distinct from the estimator colours).
RELATION_COLORS = {"R dirty": "#8c564b", "V private": "#ff7f0e", "V_clean": "#17becf", "C(R) truth": "#2ca02c",
                   "true R": "#2ca02c", "private V": "#ff7f0e"}

_PANEL_TITLES = {"count": "COUNT", "sum": "SUM", "avg": "AVG", "a_state_fd": "(a) state, FD repair",
                 "b_country_md": "(b) country, MD repair"}


def error_curves(tab: pd.DataFrame, x: str, title: str, *, methods: Sequence[str] | None = None,
                 x_title: str | None = None) -> go.Figure:
    """One panel per aggregate: mean relative error (%) per method, with its interquartile band (same colour).

    ``tab`` is :func:`dpworkbench.privateclean.experiments.table` of a sweep over ``x``.
    """
    aggs = list(dict.fromkeys(tab["agg"]))
    panels = [_PANEL_TITLES.get(a, str(a).upper()) for a in aggs]
    # One x title under the grid (panels share the sweep variable): one title per panel ran into its neighbour and
    # into the y title at print size (issue 24, fig05). A single panel's name goes into the figure title: the styled
    # one-panel figure leaves no row for a subplot title, and Fig. 7's two-line title ran into its 'COUNT'.
    fig = make_subplots(rows=1, cols=len(aggs), subplot_titles=panels if len(aggs) > 1 else None,
                        x_title=x_title or X_TITLES.get(x, x))
    shown: set[str] = set()
    for j, agg in enumerate(aggs, 1):
        for m in methods or list(dict.fromkeys(tab["method"])):
            t = tab[(tab["agg"] == agg) & (tab["method"] == m)].sort_values(x)
            if t.empty:
                continue
            c = COLORS.get(m)
            name = METHOD_NAMES.get(m, str(m))
            fig.add_trace(go.Scatter(x=list(t[x]) + list(t[x])[::-1], y=list(100 * t["q75"]) + list(100 * t["q25"])[::-1],
                                     mode="lines", fill="toself", line=dict(width=0, color=c), fillcolor=c, opacity=0.15, name=name,
                                     legendgroup=name, showlegend=False, hoverinfo="skip"), row=1, col=j)
            fig.add_trace(go.Scatter(x=t[x], y=100 * t["mean"], mode="lines+markers", name=name, legendgroup=name,
                                     line=dict(color=c), showlegend=name not in shown), row=1, col=j)
            shown.add(name)
    # A short y title fits the panel height; what the line and the band are goes on the title's second line.
    fig.update_yaxes(title_text="relative error (%)", row=1, col=1)
    head = f"{title} ({panels[0]})" if len(aggs) == 1 else title
    fig.update_layout(title=f"{head}<br><sup>lines: mean; bands: interquartile range</sup>", height=420)
    return _room_for_foot_legend(fig) if len(aggs) > 1 else fig  # one panel keeps its legend at the side


def _room_for_foot_legend(fig: go.Figure) -> go.Figure:
    """``fig`` (a grid of panels) with a bottom margin that holds the shared x title and, under it, the one-row legend
    that the saved style puts at a grid's foot (in place).

    The style gives the foot only the x title's room, so the legend sat on the title (Figs. 8, 10, 11 of the quick
    report); 5.2 font heights: tick labels and the title (3.2, the style's own) plus one legend row (2).
    """
    font = figure_size(fig)[2]
    fig.update_layout(margin_b=int(5.2 * font))
    return fig


def grr_histogram_and_count(true_counts: np.ndarray, private_counts: np.ndarray, *, direct: float, privateclean: float,
                            pc_hi: float, truth: int, direct_bias: float, l: int, title: str) -> go.Figure:
    """Teaching view 1–2 (spec §6.5): value histogram of R and V, and the two count estimates against the truth and
    the analytic Direct bias S·p(l/N − s)."""
    # short panel titles and line labels: the legend beside the grid leaves each panel ~250 px at print size
    fig = make_subplots(rows=1, cols=2, subplot_titles=["values: R vs V", f"COUNT, top-{l}"])
    k = np.arange(len(true_counts))
    fig.add_bar(x=k, y=true_counts, name="true R", marker_color=RELATION_COLORS["true R"], row=1, col=1)
    fig.add_bar(x=k, y=private_counts, name="private V", marker_color=RELATION_COLORS["private V"], row=1, col=1)
    fig.add_trace(go.Scatter(x=["Direct"], y=[direct], mode="markers", marker=dict(size=12, color=COLORS["direct"]),
                             name="Direct estimate"), row=1, col=2)
    fig.add_trace(go.Scatter(x=["PrivateClean"], y=[privateclean], mode="markers", marker=dict(size=12, color=COLORS["privateclean"]),
                             error_y=dict(type="data", array=[pc_hi - privateclean]), name="PrivateClean ± 95% CI"), row=1, col=2)
    fig.add_hline(y=truth, line_dash="dash", line_color="black", annotation_text="truth", row=1, col=2)
    fig.add_hline(y=truth + direct_bias, line_dash="dot", line_color=COLORS["direct"], annotation_text="+ Direct bias",
                  row=1, col=2)
    fig.update_xaxes(title_text="value code", row=1, col=1)
    fig.update_yaxes(title_text="rows", row=1, col=1)
    fig.update_xaxes(title_text="estimator", row=1, col=2)
    fig.update_yaxes(title_text="COUNT (rows)", row=1, col=2)
    fig.update_layout(height=420, title=title, barmode="group")
    return fig


def provenance_graph(edges: pd.DataFrame, col: str, pred: Iterable | None = None) -> go.Figure:
    """Teaching view 3: the bipartite provenance graph dirty → clean (``edges`` from
    :meth:`~dpworkbench.privateclean.model.CleanedRelation.provenance`); edges into the predicate's values in red,
    line widths = weights."""
    L = list(dict.fromkeys(map(str, edges["l"])))
    M = list(dict.fromkeys(map(str, edges["m"])))
    yl = {v: i for i, v in enumerate(L)}
    ym = {v: i * (len(L) - 1) / max(len(M) - 1, 1) for i, v in enumerate(M)}
    sel = set(map(str, pred)) if pred is not None else set()
    fig = go.Figure()
    first = {True: True, False: True}
    for _, r in edges.iterrows():
        hit = str(r["m"]) in sel
        fig.add_trace(go.Scatter(x=[0, 1], y=[yl[str(r["l"])], ym[str(r["m"])]], mode="lines",
                                 line=dict(width=1 + 4 * float(r["weight"]), color="crimson" if hit else "lightgray"),
                                 hovertext=f"{r['l']} → {r['m']}: w={r['weight']:.2f}",
                                 name="edge into the predicate" if hit else "other edge", legendgroup=str(hit),
                                 showlegend=first[hit]))
        first[hit] = False
    # value names beside the two columns of nodes: room for them on the axis (at print size 0.6 units held ~6
    # characters, "Mechanical E." was cut to "anical E.") and drawn even where they pass the plot area
    fig.add_trace(go.Scatter(x=[0] * len(L), y=list(yl.values()), text=L, mode="markers+text", textposition="middle left",
                             marker=dict(color="#1f77b4"), name="L: dirty values", cliponaxis=False))
    fig.add_trace(go.Scatter(x=[1] * len(M), y=list(ym.values()), text=M, mode="markers+text", textposition="middle right",
                             marker=dict(color="#2ca02c"), name="M: cleaned values", cliponaxis=False))
    fig.update_layout(title=f"provenance of {col!r}", height=450,
                      legend=dict(orientation="h", x=0.0, xanchor="left", yref="container", y=0.0, yanchor="bottom"),
                      xaxis=dict(visible=False, range=[-1.5, 2.5], title_text="dirty → clean"),
                      yaxis=dict(visible=False, title_text="value"))
    return fig


def cleaning_before_after(order: Sequence[str], series: Mapping[str, Sequence[int]], estimates: Mapping[str, float], *,
                          truth: int, target: object, title: str) -> go.Figure:
    """Teaching: value counts of R, V, V_clean and C(R) (top) and the three count estimates vs the truth (below)."""
    # One column, two rows: side by side (55/45) the 13 value codes and the estimator names did not fit the 740×370
    # print size (labels skipped, the y title over the neighbour's ticks, 7 legend entries scrolled away).
    fig = make_subplots(rows=2, cols=1, subplot_titles=["value counts", f"COUNT(cat = {target})"])
    for name, counts in series.items():
        fig.add_bar(x=list(order), y=list(counts), name=name, marker_color=RELATION_COLORS.get(name), row=1, col=1)
    for m, v in estimates.items():
        # the bar's category is a short form of its legend name: "PrivateClean, no provenance" under a 45 % panel
        # took the plot's height and plotly could not lay the figure out at its saved size
        fig.add_bar(x=[SHORT_METHOD_NAMES.get(m, METHOD_NAMES.get(m, m))], y=[v], name=METHOD_NAMES.get(m, m),
                    marker_color=COLORS.get(m), row=2, col=1)
    fig.add_hline(y=truth, line_dash="dash", line_color="black", annotation_text=f"truth {truth}", row=2, col=1)
    # every value code named (plotly skips category labels it thinks crowded)
    fig.update_xaxes(title_text="value", type="category", dtick=1, tickangle=0, row=1, col=1)
    fig.update_yaxes(title_text="rows", row=1, col=1)
    fig.update_xaxes(title_text="estimator", row=2, col=1)
    fig.update_yaxes(title_text="COUNT (rows)", row=2, col=1)
    fig.update_layout(title=title, height=560, barmode="group")
    return fig


def tradeoff(eps: np.ndarray, p_exact: np.ndarray, p_paper: np.ndarray, bound_exact: np.ndarray, bound_paper: np.ndarray, *,
             epsilon: float, N: int, S: int) -> go.Figure:
    """Teaching: the p each ε formula buys (left) and the count error bound (Eq. 4) it gives (right)."""
    fig = make_subplots(rows=1, cols=2, subplot_titles=["p bought by ε", f"error bound, S = {S}"])
    for y, bound, name, dash, color in ((p_exact, bound_exact, f"exact, N = {N}", None, COLORS["privateclean"]),
                                        (p_paper, bound_paper, "paper Lemma 1 (N = 3 only)", "dash", COLORS["direct"])):
        fig.add_trace(go.Scatter(x=eps, y=y, name=name, legendgroup=name, line=dict(dash=dash, color=color)), row=1, col=1)
        fig.add_trace(go.Scatter(x=eps, y=bound, name=name, legendgroup=name, line=dict(dash=dash, color=color), showlegend=False),
                      row=1, col=2)
    for c in (1, 2):
        fig.add_vline(x=epsilon, line_dash="dot", row=1, col=c)
    fig.update_xaxes(title_text="ε per attribute")
    fig.update_yaxes(title_text="p (probability)", row=1, col=1)
    fig.update_yaxes(title_text="error bound (fraction of S)", type="log", row=1, col=2)
    fig.update_layout(height=380, title=f"trade-off at ε = {epsilon:.2f}")
    return fig


def epsilon_to_p(epsilon: float, Ns: Sequence[int], p_exact: Sequence[float], p_paper: float) -> go.Figure:
    """Lemma 1 both ways: bars of the exact p per domain size N, the paper's N-free p as a dashed line."""
    fig = go.Figure([go.Bar(x=[str(n) for n in Ns], y=list(p_exact), name="exact p = N/(e^ε+N−1)", marker_color=COLORS["privateclean"])])
    fig.add_hline(y=p_paper, line_dash="dash", annotation_text="paper p = 3/(e^ε+2)")
    fig.update_layout(title=f"p for ε = {epsilon:.2f}", xaxis_title="domain size N (values)", yaxis_title="p (probability)",
                      yaxis_range=[0, 1])
    return fig


def tuning_epsilon(ps: np.ndarray, eps_paper: Sequence[float], eps_exact: Sequence[float], tuned_p: float) -> go.Figure:
    """Appendix E: ε(p) under the paper's ln(3/p−2) and the exact formula (N = 50), the tuned p marked."""
    fig = go.Figure([go.Scatter(x=ps, y=list(eps_paper), name="paper ln(3/p−2)"),
                     go.Scatter(x=ps, y=list(eps_exact), name="exact, N=50")])
    fig.add_vline(x=tuned_p, line_dash="dash", annotation_text="tuned p")
    fig.update_layout(title="App. E: tuned p and its ε", xaxis_title="p (probability)", yaxis_title="ε (discrete attribute)",
                      height=380)
    return fig


def ci_forest(r: pd.DataFrame, *, epsilon: float, p: float, query: str = "the top-5 values") -> go.Figure:
    """Intervals over releases: PrivateClean count ± half its 95 % interval per release (blue: covers the truth,
    red: misses, as the legend says), the truth per release dashed. ``r``: one row per release with estimate, width,
    truth, covered."""
    r = r.reset_index(drop=True)
    cov = r["covered"].astype(bool).to_numpy()
    fig = go.Figure(go.Scatter(x=r.index, y=r.estimate, mode="markers", error_y=dict(type="data", array=r["width"] / 2),
                               marker=dict(color=np.where(cov, COLORS["privateclean"], COLORS["direct"])),
                               name="PC count ± 95% CI (red: misses)"))
    fig.add_trace(go.Scatter(x=r.index, y=r.truth, mode="lines", line=dict(dash="dash", color="black"), name="truth"))
    fig.update_layout(title=f"ε = {epsilon:.2f}, p = {p:.3f}: {cov.mean():.0%} of {len(r)} intervals cover",
                      xaxis_title="release (index)", yaxis_title=f"COUNT of {query} (rows)", height=400)
    return fig


def fig01_errors(mc: pd.DataFrame, *, reps: int, p: float, b: float, S: int) -> go.Figure:
    """Fig. 1(d) over many releases: mean |error| of Direct and PrivateClean per major, COUNT and AVG."""
    fig = make_subplots(rows=1, cols=2, subplot_titles=["COUNT: mean |error|", "AVG: mean |error|"])
    for j, agg in enumerate(("count", "avg"), 1):
        t = mc[mc["agg"] == agg]
        for meth in ("direct", "privateclean"):
            fig.add_bar(x=t.major, y=t[f"{meth} mean abs error"], name=METHOD_NAMES[meth], marker_color=COLORS[meth],
                        legendgroup=meth, showlegend=j == 1, row=1, col=j)
        fig.update_xaxes(title_text="major (cleaned)", row=1, col=j)
    # short y titles (the subplot titles say "mean |error|"): the long one was taller than the panel and was cut
    fig.update_yaxes(title_text="|error| (rows)", row=1, col=1)
    fig.update_yaxes(title_text="|error| (score)", row=1, col=2)
    fig.update_layout(title=f"Fig. 1(d): {reps} releases, p = {p}, b = {b}, S = {S}", barmode="group", height=420)
    return fig


def ci_coverage_curves(cov: pd.DataFrame, *, reps: int) -> go.Figure:
    """Empirical coverage of the corrected (solid) and the paper's (dotted) intervals vs p, per aggregate and query
    mode; ``cov`` = :func:`dpworkbench.privateclean.batch.ci_coverage` rows."""
    fig = go.Figure()
    palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
    # One legend entry per aggregate and query mode (its colour); the line style says which interval, in the title.
    # Twelve entries, one per line, did not fit the figure's height: the last three were cut off (quick report).
    for k, ((agg, mode), t) in enumerate(cov.groupby(["agg", "query_mode"], sort=False)):
        c, group = palette[k % len(palette)], f"{agg} ({mode})"
        fig.add_trace(go.Scatter(x=t.p, y=t["coverage corrected (row CLT)"], mode="lines+markers", line=dict(color=c),
                                 name=group, legendgroup=group))
        fig.add_trace(go.Scatter(x=t.p, y=t["coverage paper form"], mode="lines+markers", line=dict(dash="dot", color=c),
                                 name=f"{agg}, paper ({mode})", legendgroup=group, showlegend=False))
    fig.add_hline(y=0.95, line_dash="dash", annotation_text="nominal 95%")
    fig.update_layout(title=f"Coverage over {reps} releases per point<br><sup>solid: corrected interval; dotted: the paper's</sup>",
                      xaxis_title="p (GRR replacement probability)",
                      yaxis_title="coverage (fraction)", height=450)
    return fig


def preservation(sim: pd.DataFrame, *, N: int, p: float, theorem2_size: float) -> go.Figure:
    """Theorem 2: P[domain preserved] vs S, simulated (worst case) and the union lower bound, Theorem 2's S marked."""
    fig = go.Figure([go.Scatter(x=sim.S, y=sim.simulated, name="simulated (worst case)", mode="lines+markers"),
                     go.Scatter(x=sim.S, y=sim["union bound"], name="union lower bound", mode="lines+markers")])
    fig.add_vline(x=theorem2_size, line_dash="dash", annotation_text="Theorem 2's S")
    fig.update_layout(title=f"P[domain preserved], N={N}, p={p}", xaxis_title="S (rows)", yaxis_title="probability")
    return fig


__all__ = ["COLORS", "METHOD_NAMES", "X_TITLES", "error_curves", "grr_histogram_and_count", "provenance_graph",
           "cleaning_before_after", "tradeoff", "epsilon_to_p", "tuning_epsilon", "ci_forest", "fig01_errors",
           "ci_coverage_curves", "preservation"]


def multi_error_vs_epsilon(st: pd.DataFrame, *, title: str = "Error against ε: PrivateClean vs Direct") -> go.Figure:
    """One panel per query of :func:`dpworkbench.privateclean.multi.beers_study` (grouped queries: one line per
    group): relative RMSE of PrivateClean and Direct against each discrete attribute's ε (issue 25)."""
    queries = list(dict.fromkeys(st["query"]))
    aggs = [str(st.loc[st["query"] == q, "agg"].iloc[0]).upper() for q in queries]
    # short panel titles (Q1 COUNT …); the notebook's table names each query in full
    fig = make_subplots(rows=1, cols=len(queries), subplot_titles=[f"Q{j} {a}" for j, a in enumerate(aggs, 1)])
    shown = set()
    for j, q in enumerate(queries, 1):
        t = st[st["query"] == q]
        for g in t["group"].drop_duplicates():
            tg = t[t["group"].isna()] if g is None or (isinstance(g, float) and np.isnan(g)) else t[t["group"] == g]
            tg = tg.sort_values("epsilon")
            scale = np.abs(tg["truth"]).where(np.abs(tg["truth"]) > 0, 1.0)
            for m, col, dash in (("privateclean", "rmse", "solid"), ("direct", "direct_rmse", "dash")):
                name = METHOD_NAMES[m]
                fig.add_trace(go.Scatter(x=tg["epsilon"], y=tg[col] / scale, mode="lines+markers",
                                         line={"color": COLORS[m], "dash": dash if g is None or pd.isna(g) else "dot"},
                                         name=name, legendgroup=m, showlegend=m not in shown,
                                         hovertext=f"group {g}" if not pd.isna(g) else None), row=1, col=j)
                shown.add(m)
        fig.update_xaxes(title_text="ε per attribute", type="log", row=1, col=j)
    fig.update_yaxes(title_text="relative RMSE", type="log", row=1, col=1)
    fig.update_layout(title=title, height=380)
    return fig


def multi_coverage_by_query(st: pd.DataFrame, *, title: str = "95% CI coverage per estimator") -> go.Figure:
    """At one ε: each query's (and group's) coverage as a dot with its ±2 MC SE bar, one row per estimator, against
    the nominal 0.95 (dashed) and the acceptance floor 0.95 − 3 MC SE (dotted) (issue 25, clean-truth study)."""
    qn = {q: j for j, q in enumerate(dict.fromkeys(st["query"]), 1)}
    labels = [f"Q{qn[q]} {a.upper()}" + ("" if pd.isna(g) else f" [{g}]")
              for q, a, g in zip(st["query"], st["agg"], st["group"])]
    fig = go.Figure(go.Scatter(x=st["coverage"], y=labels, mode="markers", name="PrivateClean",
                               error_x=dict(type="data", array=2 * st["coverage_se"], visible=True)))
    floor = 0.95 - 3 * float(st["coverage_se"].max())
    fig.add_vline(x=0.95, line_dash="dash", line_color="black")
    fig.add_vline(x=floor, line_dash="dot", line_color="grey")
    fig.update_layout(title=f"{title}<br><sup>dashed: 0.95; dotted: 0.95 − 3 MC SE; bars ±2 MC SE</sup>",
                      xaxis_title="coverage (fraction of releases)",
                      yaxis=dict(autorange="reversed", title="query (and group)", dtick=1),  # every label shown
                      height=200 + 48 * len(labels),
                      showlegend=False,
                      xaxis_range=[min(floor, float(st["coverage"].min())) - 0.01, 1.005])
    return fig


def multi_coverage(st: pd.DataFrame) -> go.Figure:
    """Coverage of PrivateClean's 95 % CIs per query (and group) and ε, with the 0.95 − 3 MC SE floor."""
    qn = {q: j for j, q in enumerate(dict.fromkeys(st["query"]), 1)}
    t = st.assign(label=[f"Q{qn[q]} {a.upper()}" + ("" if pd.isna(g) else f" [{g}]")
                         for q, a, g in zip(st["query"], st["agg"], st["group"])])
    fig = go.Figure()
    for lab in dict.fromkeys(t["label"]):
        tl = t[t["label"] == lab].sort_values("epsilon")
        fig.add_trace(go.Scatter(x=tl["epsilon"], y=tl["coverage"], mode="lines+markers", name=lab))
    floor = 0.95 - 3 * t["coverage_se"].max()
    fig.add_hline(y=0.95, line_dash="dash", line_color="black")
    fig.add_hline(y=floor, line_dash="dot", line_color="grey")
    fig.update_layout(title="95% CI coverage (dotted: 0.95 − 3 MC SE)", xaxis_title="ε per attribute",
                      yaxis_title="coverage (fraction of releases)", xaxis_type="log", height=380)
    return fig
