"""Widget views of the teaching notebooks ``learn_race_to_the_top`` and ``learn_theorem_bounds`` (spec 5.7).

Each view takes the knobs of one widget section and returns (figure, table). The non-private
instance (graph → join information → Q(I,τ) / F̂(I,τ) solvers) is cached by
:mod:`dpworkbench.cache`, so moving ε, β or the seed only redraws noise. Figures come from
:mod:`.figures`; noise from the vectorised research samplers of :mod:`.mechanisms` and :mod:`.mechanisms.baselines`
(seeded: these are teaching runs, not releases).

References
----------
Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024: §5 (R2T, Algorithm 1 and Theorem 5.1), §6 (OPT², the
sparse-vector test and Theorem 6.8), §7 (LS lower bound); spec ``r2t.md`` §5.7 (teaching widget knobs).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import check_options
from ..cache import cached
from ..experiments.metrics import absolute_error
from .mechanisms.baselines import NT, GraphStats
from .figures import bounds_histograms, opt2_figure, output_histograms, race_figure
from .mechanisms import FIXED_TAU, NAIVE_LAPLACE, OPT2, R2T, RANDOM_TAU, InstanceStats, opt2, opt2_bound, r2t, r2t_bound
from .model import FHat, Truncation

GENERATORS = ("road", "social", "tpch-Q12", "tpch-Q3", "tpch-Q20", "fig2")
GRAPH_GENERATORS = ("road", "social", "fig2")
ERROR_PANEL_MECHANISMS = ("R2T", "OPT2", "fixed τ", "LP random τ", "NT", "naive Laplace")


@cached("r2t.teaching_instance")
def instance(generator: str, query: str, size: int, seed: int, degree_cap: int = 1024):
    """(JoinInfo, graph or None, label) for a teaching instance (non-private; cached by its parameters).

    ``generator``: ``"road"`` (thinned grid, ≈ ``size`` nodes), ``"social"`` (Holme–Kim power-law graph on
    ``size`` nodes, degrees capped at ``degree_cap``), ``"fig2"`` (the paper's Fig. 2 graph) or
    ``"tpch-Q3|Q12|Q20"`` (TPC-H at SF 0.01).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024; spec 5.7 (dataset generator knobs).
    """
    from ..graphs import degree_capped, holme_kim, thinned_grid
    from .patterns import graph_joininfo

    check_options(generator, "generator", GENERATORS)
    g = None
    if generator == "fig2":
        from .example import fig2_graph

        g = fig2_graph()
        info = graph_joininfo(g, query)
        label = f"Fig. 2 example graph, {query}"
    elif generator.startswith("tpch-"):
        from . import tpch

        con = tpch.connect(0.01)
        info = tpch.extract_query(con, generator[5:]).info
        label = f"TPC-H SF 0.01 {generator[5:]}"
    elif generator == "road":
        side = max(int(np.sqrt(size)), 4)
        g = thinned_grid(side, side, keep=0.73, diagonal=0.08, seed=seed)
        info = graph_joininfo(g, query)
        label = f"road-like grid ({side}×{side}), {query}"
    else:
        g = degree_capped(holme_kim(size, 3, 0.5, seed=seed), int(degree_cap), seed=seed)
        info = graph_joininfo(g, query)
        label = f"power-law graph (n={size}, D≤{int(degree_cap)}), {query}"
    return info, g, label


@cached("r2t.teaching_solvers")
def _solvers(generator: str, query: str, size: int, seed: int, degree_cap: int = 1024) -> tuple[Truncation, FHat]:
    """The Q(I,τ) / F̂(I,τ) solvers of a teaching instance; they memoise solved τ values (non-private)."""
    info, _, _ = instance(generator, query, size, seed, degree_cap)
    return Truncation(info), FHat(info)


def race_panel(*, epsilon: float, beta: float, log2_gs: int, base: float, generator: str, query: str, seed: int, size: int,
               degree_cap: int = 1024):
    """R2T's race to the top on one instance: Q(I,τ), the noisy shifted candidates and the winner (Algorithm 1).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §5 (Algorithm of R2T, Theorem 5.1); spec 5.7.
    """
    info, _, label = instance(generator, query, int(size), int(seed), int(degree_cap))
    tr, _ = _solvers(generator, query, int(size), int(seed), int(degree_cap))
    gs = 2.0 ** int(log2_gs)
    res = r2t(tr, epsilon=epsilon, beta=beta, gs=gs, base=float(base), rng=np.random.default_rng(int(seed) + 1), prune=False)
    title = f"R2T on {label}"
    if gs < info.DS:
        title += "<br><sup>GS < DS: the utility assumption fails (biased, still ε-DP)</sup>"
    fig = race_figure(res, info.answer, info.DS, title=title)
    table = pd.DataFrame({"τ": res.taus, "Q(I,τ)": res.truncated, "noise": res.noise, "penalty": res.penalty, "candidate": res.candidates})
    return fig, table


def opt2_panel(*, epsilon: float, beta: float, generator: str, query: str, seed: int, size: int, degree_cap: int = 1024):
    """OPT²'s sparse-vector test on one instance: Ĝ(I,τ) against the noisy threshold T̃, the stop and τ̃ (§6).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §6.2 (OPT²'s sparse-vector test); spec 5.7.
    """
    info, _, label = instance(generator, query, int(size), int(seed), int(degree_cap))
    tr, fh = _solvers(generator, query, int(size), int(seed), int(degree_cap))
    res = opt2(info, epsilon=epsilon, beta=beta, rng=np.random.default_rng(int(seed) + 3), prune=False, fhat=fh, truncation=tr)
    fig = opt2_figure(res, title=f"OPT² on {label}")
    levels = sorted(res.g_values)
    table = pd.DataFrame({"τ": [2.0**lv for lv in levels], "Ĝ(I,τ)": [res.g_values[lv] for lv in levels]})
    return fig, table


def error_panel(*, epsilon: float, log2_tau: int, generator: str, query: str, size: int, runs: int, beta: float, seed: int,
                log2_gs: int = 16, mechanisms=("R2T", "OPT2", "fixed τ", "naive Laplace"), degree_cap: int = 1024):
    """Histogram of output − Q(I) over ``runs`` runs of each selected mechanism (toggles: ``mechanisms``).

    The x-axis covers the 1–99 % range of R2T, OPT² and fixed τ, so a wide mechanism (naive Laplace with a loose
    GS) does not squeeze the others into one bar. NT needs a graph generator.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, Tables 2–3; spec 5.7 (error histogram).
    """
    mechanisms = tuple(mechanisms)
    unknown = [m for m in mechanisms if m not in ERROR_PANEL_MECHANISMS]
    if unknown or not mechanisms:
        raise ValueError(f"mechanisms must be a non-empty subset of {ERROR_PANEL_MECHANISMS}, got {mechanisms!r}")
    info, g, label = instance(generator, query, int(size), int(seed), int(degree_cap))
    tr, fh = _solvers(generator, query, int(size), int(seed), int(degree_cap))
    gs = 2.0 ** int(log2_gs)
    runs = int(runs)
    tau = 2.0 ** int(log2_tau)
    outs = {}
    for name in ERROR_PANEL_MECHANISMS:  # fixed order: a mechanism's noise does not depend on the other toggles
        sub = np.random.default_rng([int(seed) + 7, ERROR_PANEL_MECHANISMS.index(name)])
        if name not in mechanisms:
            continue
        if name == "R2T":
            outs[name] = R2T.sample(tr, size=runs, rng=sub, epsilon=epsilon, beta=beta, gs=gs)
        elif name == "OPT2":
            outs[name] = OPT2.sample(InstanceStats(tr, fhat=fh), size=runs, rng=sub, epsilon=epsilon, beta=beta)
        elif name == "fixed τ":
            outs[name] = FIXED_TAU.sample(tr, size=runs, rng=sub, epsilon=epsilon, tau=tau)
        elif name == "LP random τ":  # Table 2's LP baseline: τ uniform on the grid {2, 4, ..., GS}, data independent
            outs[name] = RANDOM_TAU.sample(tr, size=runs, rng=sub, epsilon=epsilon, gs=gs)
        elif name == "NT":
            if g is None:
                continue  # TPC-H has no graph: NT is a graph baseline
            outs[name] = _nt_outputs(g, query, int(degree_cap), epsilon, runs, sub)
        else:
            outs[name] = NAIVE_LAPLACE.sample(tr, size=runs, rng=sub, epsilon=epsilon, gs=gs)
    fig = output_histograms(outs, info.answer, focus=[k for k in ("R2T", "OPT2", "fixed τ") if k in outs],
                            labels={"fixed τ": f"fixed τ = {tau:g}", "naive Laplace": f"naive Laplace (GS = 2^{int(log2_gs)})",
                                    "LP random τ": f"LP random τ ≤ 2^{int(log2_gs)}", "NT": f"NT (θ ≤ D = {int(degree_cap)})"},
                            title=f"Errors over {runs} runs at ε={epsilon:g}<br><sup>{label}</sup>"
                                  f"<br><sup>Q(I)={info.answer:,.0f}, DS={info.DS:g}</sup>")
    stats = pd.DataFrame({k: {"median |error|": float(np.median(absolute_error(v, info.answer))),
                              "share ≤ Q": float(np.mean(v <= info.answer))}
                          for k, v in outs.items()}).T
    return fig, stats


def _nt_outputs(g, query: str, degree_bound: int, epsilon: float, runs: int, gen: np.random.Generator) -> np.ndarray:
    """NT over ``runs`` runs: θ uniform on {2, 4, ..., D} with D the public degree bound (the degree-cap knob)."""
    return NT.sample(GraphStats(g, query), size=runs, rng=gen, epsilon=epsilon, query=query,
                     degree_bound=max(int(degree_bound), 2))


def bounds_panel(*, epsilon: float, beta: float, generator: str = "social", query: str = "edge", size: int = 1000,
                 runs: int = 2000, seed: int = 0, log2_gs: int = 10):
    """|error| distributions of R2T and OPT² against the Theorem 5.1 / 6.8 bounds (noise redrawn per call).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, Theorems 5.1 and 6.8.
    """
    info, _, label = instance(generator, query, int(size), int(seed))
    tr, fh = _solvers(generator, query, int(size), int(seed))
    gs = 2.0 ** int(log2_gs)
    gen = np.random.default_rng(int(seed) + 11)
    r2 = absolute_error(R2T.sample(tr, size=runs, rng=gen, epsilon=epsilon, beta=beta, gs=gs), info.answer)
    op = absolute_error(OPT2.sample(InstanceStats(tr, fhat=fh), size=runs, rng=gen, epsilon=epsilon, beta=beta), info.answer)
    b1, b2 = r2t_bound(info.DS, epsilon=epsilon, beta=beta, gs=gs), opt2_bound(info.DS, epsilon=epsilon, beta=beta)
    fig = bounds_histograms(r2, op, b1, b2, title=f"{label}<br><sup>ε={epsilon:g}, β={beta:g}, GS=2^{int(log2_gs)}, DS={info.DS:g}</sup>")
    stats = pd.DataFrame({"R2T": {"quantile 1−β": float(np.quantile(r2, 1 - beta)), "bound": b1},
                          "OPT2": {"quantile 1−β": float(np.quantile(op, 1 - beta)), "bound": b2}}).T
    return fig, stats


def group_by_panel(*, epsilon: float, seed: int, groups, truncations, gs: float, beta: float = 0.1):
    """One R2T release per group of a GROUP BY over a public domain (the "R2T on your own database" notebook).

    ``groups`` are the public group keys and ``truncations`` their :class:`Truncation` (non-private, built once by
    the caller). Each group is released with the full ε (parallel composition: every individual falls in one group);
    the bars show the released estimate next to the exact answer, which is NOT PRIVATE and shown for teaching."""
    import plotly.graph_objects as go

    names = [" / ".join(map(str, g)) for g in groups]
    est = [float(r2t(tr, epsilon=epsilon, beta=beta, gs=gs, rng=seed).value) for tr in truncations]
    exact = [float(tr.info.answer) for tr in truncations]
    fig = go.Figure([go.Bar(name="exact answer (NOT PRIVATE)", x=names, y=exact, marker_color="#bbbbbb"),
                     go.Bar(name="R2T release", x=names, y=est, marker_color="#1f77b4")])
    # colours named in the title, no legend: under the plot it covered the 25 group names on a 1024×768 projector
    fig.update_layout(barmode="group", showlegend=False, xaxis_title="group", yaxis_title="count",
                      title=f"R2T per group, ε = {epsilon:g} each<br><sup>grey: exact answer (NOT PRIVATE), blue: the release</sup>")
    fig.update_xaxes(type="category", tickangle=-90, dtick=1)  # every group named
    return fig


__all__ = ["ERROR_PANEL_MECHANISMS", "GENERATORS", "GRAPH_GENERATORS", "bounds_panel", "error_panel", "group_by_panel", "instance", "opt2_panel",
           "race_panel"]
