"""Figures for the teaching notebook ``learn_race_to_the_top`` (non-private parts cached)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from .figures import COLORS, race_figure
from .mechanisms import opt2_cache, opt2_samples, r2t, r2t_samples, tau_grid
from .model import FHat, Truncation


@lru_cache(maxsize=16)
def instance(generator: str, query: str, size: int, seed: int):
    """(JoinInfo, Truncation, FHat, label) for a teaching instance; cached (non-private work only)."""
    from ..graphs import degree_capped, holme_kim, thinned_grid
    from .patterns import graph_joininfo

    if generator == "fig2":
        from .example import fig2_joininfo

        info = fig2_joininfo()
        label = "Fig. 2 example (edges)"
    elif generator.startswith("tpch-"):
        from . import tpch

        con = tpch.connect(0.01)
        info = tpch.extract_query(con, generator[5:]).info
        label = f"TPC-H SF 0.01 {generator[5:]}"
    elif generator == "road":
        side = max(int(np.sqrt(size)), 4)
        info = graph_joininfo(thinned_grid(side, side, keep=0.73, diagonal=0.08, seed=seed), query)
        label = f"road-like grid ({side}×{side}), {query}"
    elif generator == "social":
        info = graph_joininfo(degree_capped(holme_kim(size, 3, 0.5, seed=seed), 1024, seed=seed), query)
        label = f"power-law graph (n={size}), {query}"
    else:
        raise ValueError(f"unknown generator {generator!r}")
    return info, Truncation(info), FHat(info), label


def race_panel(*, epsilon: float, beta: float, log2_gs: int, base: float, generator: str, query: str, seed: int, size: int):
    info, tr, _, label = instance(generator, query, size, int(seed))
    gs = 2.0 ** int(log2_gs)
    res = r2t(tr, epsilon=epsilon, beta=beta, gs=gs, base=float(base), rng=np.random.default_rng(int(seed) + 1), prune=False)
    fig = race_figure(res, info.answer, info.DS, title=f"R2T on {label}")
    note = "" if gs >= info.DS else " — GS < DS: the utility assumption fails (biased, still ε-DP)"
    fig.update_layout(title=fig.layout.title.text + note)
    table = pd.DataFrame({"τ": res.taus, "Q(I,τ)": res.truncated, "noise": res.noise, "penalty": res.penalty, "candidate": res.candidates})
    return fig, table


ERROR_PANEL_MECHANISMS = ("R2T", "OPT2", "fixed τ", "LP random τ", "naive Laplace")
_PANEL_COLORS = {"fixed τ": COLORS.get("LP"), "LP random τ": "#17becf", "naive Laplace": "#7f7f7f"}


def error_panel(*, epsilon: float, log2_tau: int, generator: str, query: str, size: int, runs: int, beta: float, seed: int,
                log2_gs: int = 16, mechanisms=("R2T", "OPT2", "fixed τ", "naive Laplace")):
    """Histogram of output − Q(I) over ``runs`` runs of each selected mechanism (toggles: ``mechanisms``)."""
    mechanisms = tuple(mechanisms)
    unknown = [m for m in mechanisms if m not in ERROR_PANEL_MECHANISMS]
    if unknown or not mechanisms:
        raise ValueError(f"mechanisms must be a non-empty subset of {ERROR_PANEL_MECHANISMS}, got {mechanisms!r}")
    info, tr, fh, label = instance(generator, query, size, int(seed))
    gs = 2.0 ** int(log2_gs)
    taus = tau_grid(gs)
    vals = np.array([tr.value(t) for t in taus])
    tau = 2.0 ** int(log2_tau)
    outs = {}
    for name in ERROR_PANEL_MECHANISMS:  # fixed order: a mechanism's noise does not depend on the other toggles
        sub = np.random.default_rng([int(seed) + 7, ERROR_PANEL_MECHANISMS.index(name)])
        if name not in mechanisms:
            continue
        if name == "R2T":
            outs[name] = r2t_samples(vals, taus, epsilon=epsilon, beta=beta, size=runs, rng=sub)
        elif name == "OPT2":
            g, q = opt2_cache(info, fh, tr)
            outs[name] = opt2_samples(g, q, epsilon=epsilon, beta=beta, size=runs, rng=sub)[0]
        elif name == "fixed τ":
            outs[name] = tr.value(tau) + sub.laplace(0, tau / epsilon, runs)
        elif name == "LP random τ":  # Table 2's LP baseline: τ uniform on the grid {2, 4, ..., GS}, data independent
            k = sub.integers(taus.size, size=runs)
            outs[name] = vals[k] + sub.laplace(0.0, 1.0, runs) * taus[k] / epsilon
        else:
            outs[name] = info.answer + sub.laplace(0, gs / epsilon, runs)
    fig = go.Figure()
    for name, v in outs.items():
        fig.add_trace(go.Histogram(x=v - info.answer, name=name, opacity=0.55, nbinsx=60, marker_color=COLORS.get(name, _PANEL_COLORS.get(name))))
    fig.add_vline(x=0, line=dict(color="black", dash="dash"))  # linear axis: data coordinates
    fig.update_layout(barmode="overlay", template="plotly_white", xaxis_title="output − Q(I)",
                      title=f"{label}: {runs} runs at ε={epsilon:g} (Q(I)={info.answer:,.0f}, DS={info.DS:g}, fixed τ={tau:g})")
    stats = pd.DataFrame({k: {"median |error|": float(np.median(np.abs(v - info.answer))), "share ≤ Q": float(np.mean(v <= info.answer))}
                          for k, v in outs.items()}).T
    return fig, stats


__all__ = ["ERROR_PANEL_MECHANISMS", "error_panel", "instance", "race_panel"]


def bounds_panel(*, epsilon: float, beta: float, generator: str = "social", query: str = "edge", size: int = 1000,
                 runs: int = 2000, seed: int = 0):
    """|error| distributions of R2T and OPT² against the Theorem 5.1 / 6.8 bounds (noise redrawn per call)."""
    from .mechanisms import opt2_bound, r2t_bound

    info, tr, fh, label = instance(generator, query, size, int(seed))
    gs = 2.0**10
    taus = tau_grid(gs)
    vals = np.array([tr.value(t) for t in taus])
    gen = np.random.default_rng(int(seed) + 11)
    r2 = np.abs(r2t_samples(vals, taus, epsilon=epsilon, beta=beta, size=runs, rng=gen) - info.answer)
    g, q = opt2_cache(info, fh, tr)
    op = np.abs(opt2_samples(g, q, epsilon=epsilon, beta=beta, size=runs, rng=gen)[0] - info.answer)
    b1, b2 = r2t_bound(info.DS, epsilon=epsilon, beta=beta, gs=gs), opt2_bound(info.DS, epsilon=epsilon, beta=beta)
    fig = go.Figure()
    fig.add_trace(go.Histogram(x=r2, name="R2T |error|", opacity=0.6, marker_color=COLORS["R2T"]))
    fig.add_trace(go.Histogram(x=op, name="OPT² |error|", opacity=0.6, marker_color=COLORS["OPT2"]))
    fig.add_vline(x=b1, line=dict(color=COLORS["R2T"], dash="dash"), annotation_text="Thm 5.1")
    fig.add_vline(x=b2, line=dict(color=COLORS["OPT2"], dash="dash"), annotation_text="Thm 6.8")
    fig.update_layout(barmode="overlay", template="plotly_white", xaxis_title="|output − Q(I)|",
                      title=f"{label}: ε={epsilon:g}, β={beta:g}, DS={info.DS:g}")
    stats = pd.DataFrame({"R2T": {"quantile 1−β": float(np.quantile(r2, 1 - beta)), "bound": b1},
                          "OPT2": {"quantile 1−β": float(np.quantile(op, 1 - beta)), "bound": b2}}).T
    return fig, stats
