"""Views for the teaching notebooks (conflict-graph explorer, projection/θ-selection explorer, vertex cover).

The non-private part (table, noise, conflict graph, F(θ)) is cached; moving the ε slider only redraws noise.
"""

from __future__ import annotations


import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .. import cache
from .._validation import check_options
from ..experiments.metrics import relative_error
from .conflict_graph import build
from .datasets import dcs_for, load_table
from .figures import draw_graph
from .mechanisms import dp_vertex_cover, graph_projection, optimized_em
from .model import SQRT2, Projector, all_measures, paper_candidates
from .noise_injection import conoise, rnoise


def noisy_table(dataset: str, rows: int, alpha: float, seed: int = 0, dc_count: int | None = None, *,
                noise: str = "rnoise", conoise_iters: int = 100):
    """(Dataset, dcs, noisy DataFrame, ConflictGraph, exact measures — NOT PRIVATE), independent of ε.

    Kept in :mod:`dpworkbench.cache` under the sampled table's content, the DCs and the noise parameters, so moving
    the ε slider only redraws noise. ``dc_count``: use only the dataset's first k DCs (None = all); the injected
    errors still target every constrained column, so the table is the same for every k and only the constraint set
    changes. ``noise``: "rnoise" (random typos in a fraction ``alpha`` of the constrained cells) or "conoise"
    (``conoise_iters`` iterations that each create a violation of a random DC).

    References
    ----------
    Mohapatra et al. 2025, §6.1 (RNoise, CONoise); spec §5.4 (teaching widget).
    """
    check_options(noise, "noise", ("rnoise", "conoise"))
    ds = load_table(dataset, rows=rows, seed=seed)
    all_dcs = dcs_for(dataset)
    dcs = all_dcs[: _k(dc_count)]

    def compute():
        if noise == "rnoise":
            *_, (_, df) = rnoise(ds.data, all_dcs, alpha, rng=seed, n_checkpoints=1)
        else:
            *_, (_, df) = conoise(ds.data, all_dcs, conoise_iters, checkpoint_every=max(1, conoise_iters), rng=seed)
        g = build(df, dcs)
        return df, g, all_measures(g, exact_ir=g.num_edges <= 3000)

    key = (ds.data, [d.text or str(d) for d in all_dcs], len(dcs), noise, alpha if noise == "rnoise" else conoise_iters, seed)
    df, g, exact = cache.cached_call("inconsistency.teaching.noisy_table", key, compute)
    return ds, dcs, df, g, exact


def projector(dataset: str, rows: int, alpha: float, seed: int = 0, dc_count: int | None = None, *, order: str = "rank",
              noise: str = "rnoise", conoise_iters: int = 100) -> Projector:
    """The memoising :class:`~.model.Projector` (F(θ) per θ, in the stable ``order``: "rank" or "lex") of
    :func:`noisy_table`'s graph, kept in :mod:`dpworkbench.cache` under the graph's content, the rule and the seed."""
    check_options(order, "order", ("rank", "lex"))
    g = noisy_table(dataset, rows, alpha, seed, _k(dc_count), noise=noise, conoise_iters=conoise_iters)[3]
    return cache.cached_call("inconsistency.teaching.projector", (g, order, seed), lambda: Projector(g, rule=order, seed=seed))


def _k(dc_count) -> int | None:
    """``dc_count`` 0/None = all DCs of the dataset; k = its first k DCs."""
    if dc_count in (None, 0, "all"):
        return None
    k = int(dc_count)
    if k < 1:
        raise ValueError(f"dc_count must be ≥ 1 (or 0/None for all DCs), got {dc_count!r}")
    return k


def _thetas(thetas, n: int) -> list[int] | None:
    """The θ candidate set Θ: None/"paper" = the paper's list scaled to n; "powers of 2" = 1, 2, 4, … < n;
    "log-spaced" = 12 log-spaced values in [1, n]; a sequence or a comma-separated text = those (capped at n)."""
    if thetas is None or (isinstance(thetas, str) and thetas.strip() in ("", "paper")):
        return None
    if isinstance(thetas, str) and thetas.strip() == "powers of 2":
        return [2 ** k for k in range(max(1, n).bit_length()) if 2 ** k <= max(n, 1)]
    if isinstance(thetas, str) and thetas.strip() == "log-spaced":
        return sorted({int(round(x)) for x in np.geomspace(1, max(n, 1), 12)})
    if isinstance(thetas, str):
        from ..widgets import parse_candidates

        thetas = parse_candidates(thetas)
    out = sorted({int(round(t)) for t in thetas if t >= 1})
    if not out:
        raise ValueError("θ candidates: give at least one θ ≥ 1")
    return [min(t, n) for t in out]


def explorer_view(dataset: str, rows: int, alpha: float, epsilon: float, seed: int = 0, repeats: int = 30,
                  dc_count: int | None = None, *, noise: str = "rnoise", conoise_iters: int = 100, order: str = "rank",
                  eps1_frac: float = 0.4, eps0_frac: float = 0.25, ip_sensitivity: str = "safe", add_V: str = "if_general_DC",
                  prune: str = "le", thetas=None):
    """Conflict-graph explorer: degree distribution, and for I_MI, I_P and I_R the spread of ``repeats`` private
    estimates at total ε next to the true value (on the dataset's first ``dc_count`` DCs; None = all).

    The knobs are Algorithm 2/4's: ε₁ = ``eps1_frac``·ε for θ selection (of which ``eps0_frac`` for the FD degree
    bound), the I_P sensitivity mode, the add-|V| policy, the pruning rule, the stable order and the candidate set Θ
    (``thetas``: a list or comma-separated text; None = the paper's). Seeded: research/teaching, not a release.

    References
    ----------
    Mohapatra et al. 2025, Algorithms 2, 4 and 5; spec §5.4.
    """
    ds, dcs, df, g, exact = noisy_table(dataset, rows, alpha, seed, _k(dc_count), noise=noise, conoise_iters=conoise_iters)
    proj = projector(dataset, rows, alpha, seed, _k(dc_count), order=order, noise=noise, conoise_iters=conoise_iters)
    cands = _thetas(thetas, len(df))
    rng = np.random.default_rng(seed + 1)
    est = {"I_MI": [], "I_P": [], "I_R": []}
    lin = exact["I_R_lin"]
    kw = dict(df=df, dcs=dcs, projector=proj, n_bound=len(df), eps1_frac=eps1_frac, eps0_frac=eps0_frac, add_V=add_V,
              prune=prune, order=order, order_seed=seed, thetas=cands)
    cover = exact["I_R_2approx"] if order == "lex" else int(g.unary.size) + proj.cover_size()
    for _ in range(repeats):
        # the sample size is the explorer's public design parameter (n_bound); see graph_projection's docstring
        est["I_MI"].append(graph_projection(g, "MI", epsilon, rng=rng, **kw).value)
        est["I_P"].append(graph_projection(g, "P", epsilon, rng=rng, ip_sensitivity=ip_sensitivity, **kw).value)
        est["I_R"].append(dp_vertex_cover(g, epsilon, cover_size=cover, order=order, order_seed=seed, rng=rng, n_bound=len(df)).value)
    truth = {"I_MI": exact["I_MI"], "I_P": exact["I_P"], "I_R": 2 * lin}
    # 2×2, not 1×4: four panels in a row overlapped their titles at the 580 px of a 1024×768 projector's output area
    fig = make_subplots(rows=2, cols=2, subplot_titles=["degree distribution", "I_MI (edges)", "I_P (tuples)", "I_R vs 2·I_R^lin"],
                        vertical_spacing=0.3, horizontal_spacing=0.2)
    cell = {1: (1, 1), 2: (1, 2), 3: (2, 1), 4: (2, 2)}
    deg = g.degrees()
    fig.add_trace(go.Histogram(x=deg[deg > 0], nbinsx=40, name="tuples per degree", showlegend=True, marker_color="#7f7f7f"), 1, 1)
    for j, m in enumerate(("I_MI", "I_P", "I_R"), start=2):
        fig.add_trace(go.Box(y=est[m], name=f"ε={epsilon:.3g}", boxpoints="all", legendgroup="dp", showlegend=(j == 2),
                             marker_color="#1f77b4", line_color="#1f77b4"), *cell[j])
        fig.add_trace(go.Scatter(x=[f"ε={epsilon:.3g}"], y=[truth[m]], mode="markers", marker=dict(symbol="x", size=14, color="#ff7f0e"),
                                 name="true value (NOT PRIVATE)", legendgroup="true", showlegend=(j == 2)), *cell[j])
    # every panel names its own unit: the three measures count different things (a reader sees untitled axes otherwise)
    for j, unit in ((2, "edges"), (3, "tuples"), (4, "to remove")):
        fig.update_yaxes(title_text=unit, row=cell[j][0], col=cell[j][1])
    fig.update_xaxes(title_text="degree (conflicts)", row=1, col=1)
    fig.update_yaxes(title_text="tuples", row=1, col=1)
    for j in (2, 3, 4):
        fig.update_xaxes(title_text=f"{repeats} releases", row=cell[j][0], col=cell[j][1])
    fig.update_layout(template="plotly_white", height=620,
                      # two lines: on one, a stand-in's title ("synthetic") was wider than the figure allows
                      title=f"{dataset} ({ds.source}), {rows} rows<br><sup>{noise}, {len(dcs)} DC(s), "
                            f"{g.num_edges} edges</sup>")
    # a measure at 0 (no conflicts) has no relative error: NaN in the table, not the paper's ∞ (ZERO_TRUTH)
    table = pd.DataFrame([{"measure": m, "true (NOT PRIVATE)": truth[m], "DP mean": np.mean(est[m]), "DP std": np.std(est[m]),
                           "mean rel. error": np.mean(relative_error(est[m], truth[m], zero_truth="nan"))}
                          for m in truth])
    return fig, table


def projection_view(dataset: str, rows: int, alpha: float, theta: int, epsilon: float, measure: str = "MI", seed: int = 0, *,
                    eps1_frac: float = 0.4, order: str = "rank"):
    """θ explorer: the truncation bias f(G) − f(π_θ(G)) against the Laplace noise scale √2·Δ(θ)/ε₂ (ε₂ = (1 −
    ``eps1_frac``)·ε) over θ — the trade-off Eq. 2's quality optimises. The chosen θ is a dashed line at θ (data units
    on the log axis, within [1, n]).

    References
    ----------
    Mohapatra et al. 2025, Eq. 2, Example 2 / Table 3.
    """
    proj = projector(dataset, rows, alpha, seed, order=order)
    n = max(proj.n, 1)
    theta = int(min(max(int(theta), 1), n))
    grid = sorted(set(np.unique(np.geomspace(1, n, 40).astype(int)).tolist()) | {theta})
    f = np.array([proj.f(t, measure) for t in grid], dtype=float)
    truth = proj.f(n, measure)
    eps2 = (1 - eps1_frac) * epsilon
    noise = SQRT2 * np.asarray(grid) / eps2
    bias = truth - f
    fig = go.Figure()
    # bias is 0 once θ reaches the maximum degree: drawn at the axis floor (a log axis cannot show 0)
    floor = 0.5
    fig.add_trace(go.Scatter(x=grid, y=np.maximum(bias, floor), name="bias f(G) − f(G_θ) (0 drawn at 0.5)", mode="lines",
                             line=dict(color="#1f77b4")))
    fig.add_trace(go.Scatter(x=grid, y=noise, name=f"noise scale √2·θ/ε₂ (ε₂ = {eps2:.3g})", mode="lines",
                             line=dict(color="#d62728")))
    fig.add_trace(go.Scatter(x=grid, y=bias + noise, name="bias + noise (= −quality, Eq. 2)", mode="lines",
                             line=dict(dash="dot", color="#555555")))
    top = float(max((bias + noise).max(), noise.max(), 1.0))
    fig.add_trace(go.Scatter(x=[theta, theta], y=[floor, top], mode="lines", line=dict(dash="dash", color="#444"),
                             name=f"chosen θ = {theta}"))
    fig.update_xaxes(type="log", title="θ (degree cap of the projection)", range=[0, np.log10(n) if n > 1 else 1])
    fig.update_yaxes(type="log", title=f"error scale (count of I_{measure})")
    fig.update_layout(template="plotly_white", height=380, title=f"I_{measure} on {dataset}: truncation bias vs noise (true value {truth})")
    return fig


def projection_degrees_view(dataset: str, rows: int, alpha: float, theta: int, seed: int = 0, *, order: str = "rank"):
    """Degree distribution before and after the projection π_θ (Algorithm 1): every tuple keeps at most θ conflicts.

    References
    ----------
    Mohapatra et al. 2025, Algorithm 1 (edge addition), Lemma 1; spec §5.4 (views).
    """
    proj = projector(dataset, rows, alpha, seed, order=order)
    n = max(proj.n, 1)
    theta = int(min(max(int(theta), 1), n))
    before = proj.graph.degrees()
    after = proj.projected_degrees(theta)
    fig = go.Figure()
    fig.add_trace(go.Histogram(x=before[before > 0], name="before: G", opacity=0.6, marker_color="#7f7f7f", nbinsx=40))
    fig.add_trace(go.Histogram(x=after[after > 0], name=f"after: π_θ(G), θ = {theta}", opacity=0.6, marker_color="#1f77b4", nbinsx=40))
    fig.update_xaxes(title="degree (conflicts of a tuple)")
    fig.update_yaxes(title="tuples", type="log")
    fig.update_layout(template="plotly_white", height=360, barmode="overlay",
                      title=f"{dataset}: degrees before / after projection at θ = {theta}")
    return fig


def em_view(dataset: str, rows: int, alpha: float, epsilon: float, measure: str = "MI", seed: int = 0, use_bound: bool = True, *,
            eps1_frac: float = 0.4, eps0_frac: float = 0.25, steps: int = 2, prune: str = "le", add_V: str = "if_general_DC",
            ip_sensitivity: str = "safe", order: str = "rank", thetas=None):
    """θ-selection explorer: the exponential mechanism's candidate probabilities in each step of Algorithm 4 at total ε
    (ε₁ = ``eps1_frac``·ε for selection, of which ``eps0_frac`` for the FD degree bound when ``use_bound``), with
    ``steps`` EM draws, the pruning rule, the add-|V| policy, the I_P sensitivity mode, the stable order and the
    candidate set (``thetas``: a list or comma-separated text; None = the paper's).

    References
    ----------
    Mohapatra et al. 2025, Algorithms 3–4, Lemma 3 / Thm 3, Table 4.
    """
    ds, dcs, df, g, exact = noisy_table(dataset, rows, alpha, seed)
    proj = projector(dataset, rows, alpha, seed, order=order)
    cands = _thetas(thetas, len(df)) or paper_candidates(len(df))
    rec = optimized_em(proj, cands, eps1=eps1_frac * epsilon, eps2=(1 - eps1_frac) * epsilon, measure=measure, df=df,
                       dcs=dcs, use_bound=use_bound, steps=steps, prune=prune, add_V=add_V, eps0_frac=eps0_frac,
                       ip_sensitivity=ip_sensitivity, rng=seed, n_bound=len(df))  # public sample size
    fig = make_subplots(rows=1, cols=len(rec["steps"]),
                        subplot_titles=[f"step {i + 1}: θ* = {s['theta']}" for i, s in enumerate(rec["steps"])],
                        x_title="candidate θ", y_title="probability of being drawn")
    for i, s in enumerate(rec["steps"], start=1):
        fig.add_trace(go.Bar(x=[str(c) for c in s["candidates"]], y=s["probabilities"], showlegend=False, marker_color="#1f77b4"), 1, i)
    bound = f"degree bound {rec['d_bound_noisy']} (true {rec['d_bound']}), " if rec["d_bound_noisy"] is not None else ""
    fig.update_layout(template="plotly_white", height=360, title=f"{dataset}: {bound}θ* = {rec['theta']}")
    return fig


def vertex_cover_steps(order: str = "lex"):
    """Algorithm 5 step by step on the paper's Fig. 3 graphs (G without E, G' with E).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Fig. 3, Example 6.
    """
    from .examples import FIG3_NAMES, example6_trace, fig3_graphs

    g, gp = fig3_graphs()
    tr = example6_trace()
    return draw_graph(gp, labels=FIG3_NAMES, highlight=[4], title="G' (E in red is the added tuple)"), tr


__all__ = ["em_view", "projection_degrees_view", "explorer_view", "noisy_table", "projection_view", "vertex_cover_steps"]


def vertex_cover_step_view(step: int, epsilon: float):
    """Algorithm 5 on Fig. 3's G' after ``step`` iterations of the lexicographic order (covered nodes in red),
    and the law of the released value c + Lap(2/ε) for G and G' (their pre-noise sizes differ by ≤ 2).

    The law is drawn as its exact density: nothing is sampled, so this view spends no privacy budget and needs
    no ledger (the toy graphs are public anyway).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Algorithm 5, Prop. 3, Fig. 3.
    """
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
    fig = make_subplots(rows=1, cols=2, subplot_titles=[f"G' after {step}/7 edges", f"c + Lap(2/ε), ε = {epsilon:.3g}"])
    for tr_ in left.data:
        fig.add_trace(tr_, 1, 1)
    # draw_graph's room above the top node's name, and more: the subplot is shorter than draw_graph's own figure, so
    # node G's label was cut at the top (rendered review at the saved size)
    lo, hi = left.layout.yaxis.range
    fig.update_yaxes(range=[lo, hi + 0.15 * (hi - lo)], row=1, col=1)
    cg, cgp = int(tr.c.iloc[-1]), int(tr["c'"].iloc[-1])
    scale = 2 / float(epsilon)
    x = np.linspace(min(cg, cgp) - 6 * scale, max(cg, cgp) + 6 * scale, 400)
    for name, c in (("G", cg), ("G'", cgp)):
        fig.add_trace(go.Scatter(x=x, y=np.exp(-np.abs(x - c) / scale) / (2 * scale), name=f"{name} (c={c})", mode="lines",
                                 fill="tozeroy", opacity=0.6), 1, 2)
    # a short axis title and the legend inside the density panel: beside it, the legend pushed the title past the edge
    fig.update_xaxes(title_text="noisy cover size", row=1, col=2)
    fig.update_yaxes(title_text="density", row=1, col=2)
    fig.update_xaxes(visible=False, row=1, col=1)
    fig.update_yaxes(visible=False, row=1, col=1)
    fig.update_layout(template="plotly_white", height=380, title="Algorithm 5 on Fig. 3 (cover in red)",
                      legend=dict(x=0.99, xanchor="right", y=0.98, yanchor="top", bgcolor="rgba(255,255,255,0.7)"))
    return fig, tr.head(step)
