"""The paper's worked (toy) examples: Fig. 2 (Capital/Country, Example 1–4, Tables 3–4), Fig. 3 (Examples 5–6), Fig. 10."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from ..mechanisms import exponential_probabilities
from . import _kernels as K
from .conflict_graph import ConflictGraph, build, from_edges
from .constraints import FD
from .model import SQRT2, Projector, quality, theorem2_bound


def capital_country(with_grey_row: bool = True) -> pd.DataFrame:
    """Fig. 2: three consistent rows and the neighbouring grey row with a typo in Country (all Capital = Ottawa).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Fig. 2, Example 1.
    """
    rows = [("Ottawa", "Canada"), ("Ottawa", "Canada"), ("Ottawa", "Canada")]
    if with_grey_row:
        rows.append(("Ottawa", "Canda"))
    return pd.DataFrame(rows, columns=["Capital", "Country"])


def fig2_graph(with_grey_row: bool = True) -> ConflictGraph:
    """The conflict graph of Fig. 2's table under Capital → Country (a star on the grey row when ``with_grey_row``).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Fig. 2.
    """
    from ..datasets import provenance  # the notebook's data: the paper's own toy table (datasets.csv, issue 24)

    table = capital_country(with_grey_row)
    provenance.record("inconsistency.fig2_toy", "example", "the paper's Fig. 2 table (Capital → Country)", len(table))
    return build(table, [FD("Capital", "Country")])


def table3(eps2: float = 1.0, thetas=(1, 2, 3)) -> pd.DataFrame:
    """Example 2 / Table 3: bias, noise and quality per θ on the Fig. 2 star.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Example 2, Table 3.
    """
    proj = Projector(fig2_graph(), rule="lex")
    F = {t: proj.f(t, "MI") for t in thetas}
    tm = max(thetas)
    return pd.DataFrame({"theta": list(thetas), "e_bias": [F[tm] - F[t] for t in thetas],
                         "noise_sqrt2_theta_over_eps2": [SQRT2 * t / eps2 for t in thetas],
                         "quality": [quality(F, t, tm, eps2) for t in thetas]})


def table4(eps: float = 1.0, prune: str = "lt") -> pd.DataFrame:
    """Example 4 / Table 4: one EM at ε vs two-step EM at ε/2 per step (Δ = 3), per step-1 outcome.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Example 4, Table 4.
    """
    t3 = table3()
    q = t3["quality"].to_numpy()
    one = exponential_probabilities(q, epsilon=eps, sensitivity=3)
    rows = [{"scheme": "EM (ε)", "after": "-", "theta": int(t), "probability": float(p)} for t, p in zip(t3.theta, one)]
    step1 = exponential_probabilities(q, epsilon=eps / 2, sensitivity=3)
    for k, (t1, p1) in enumerate(zip(t3.theta, step1)):
        rows.append({"scheme": "2-EM step 1 (ε/2)", "after": "-", "theta": int(t1), "probability": float(p1)})
    for k, t1 in enumerate(t3.theta):
        keep = [i for i, t in enumerate(t3.theta) if (t < t1 if prune == "lt" else t <= t1)] or [k]
        p2 = exponential_probabilities(q[keep], epsilon=eps / 2, sensitivity=3)
        for i, p in zip(keep, p2):
            rows.append({"scheme": "2-EM step 2 (ε/2)", "after": f"θ{t1}", "theta": int(t3.theta[i]), "probability": float(p)})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------------ Fig. 3 (vertex cover)
FIG3_NAMES = list("ABCDEFG")
FIG3_EDGES = [("A", "B"), ("A", "C"), ("B", "C"), ("C", "D"), ("D", "E"), ("E", "F"), ("F", "G")]


def fig3_graphs() -> tuple[ConflictGraph, ConflictGraph]:
    """G (without E) and G' (with E) on tids A..G = 0..6; E is isolated-and-absent in G.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Fig. 3, Examples 5–6.
    """
    idx = {c: i for i, c in enumerate(FIG3_NAMES)}
    full = [(idx[a], idx[b]) for a, b in FIG3_EDGES]
    g = from_edges(7, [e for e in full if idx["E"] not in e])
    gp = from_edges(7, full)
    from ..datasets import provenance

    provenance.record("inconsistency.fig3_toy", "example", "the paper's Fig. 3 conflict graphs G and G' (Examples 5–6)", 7)
    return g, gp


def example6_trace() -> pd.DataFrame:
    """Algorithm 5 on G and G' in the global lexicographic order: (c, c') after each of e1..e7 (spec §2.8).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Example 6; spec §2.8.
    """
    g, gp = fig3_graphs()
    E = {True: gp.edge_set(), False: g.edge_set()}
    cov = {True: set(), False: set()}
    c = {True: 0, False: 0}
    idx = {ch: i for i, ch in enumerate(FIG3_NAMES)}
    rows = []
    for k, (a, b) in enumerate(FIG3_EDGES, start=1):
        e = (idx[a], idx[b])
        status = []
        for side in (False, True):
            present = e in E[side]
            live = present and e[0] not in cov[side] and e[1] not in cov[side]
            if live:
                cov[side] |= set(e)
                c[side] += 2
            status.append("taken" if live else ("removed" if present else "absent"))
        rows.append({"iteration": k, "edge": f"e{k}=({a},{b})", "in G": status[0], "in G'": status[1], "c": c[False], "c'": c[True]})
    return pd.DataFrame(rows)


def example5_orders() -> pd.DataFrame:
    """Greedy cover sizes over every edge order of G and G' (random orders can give 4 vs 6).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Example 5.
    """
    out = []
    for name, g in zip(("G", "G'"), fig3_graphs()):
        sizes = []
        edges = list(zip(g.u.tolist(), g.v.tolist()))
        for perm in itertools.permutations(edges):
            u = np.array([e[0] for e in perm], np.int32)
            v = np.array([e[1] for e in perm], np.int32)
            sizes.append(int(K.greedy_cover(u, v, g.n)))
        vals, cnt = np.unique(sizes, return_counts=True)
        out += [{"graph": name, "cover_size": int(x), "share_of_orders": c / len(sizes)} for x, c in zip(vals, cnt)]
    return pd.DataFrame(out)


def fig10_curve(betas=None, corrected: bool = False) -> pd.DataFrame:
    """Thm 2's bound for Example 1 (ε₁ = ε₂ = 1): 3.414 + 6·ln(6/β) (spec §2.5).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Theorem 2, Fig. 10; spec §2.5.
    """
    betas = np.geomspace(1e-3, 0.99, 60) if betas is None else np.asarray(betas, dtype=float)
    t3 = table3()
    q_opt = float(t3["quality"].max())
    n_opt = int((t3["quality"] == q_opt).sum())
    # q̃_opt = q_opt + f(G_θmax) − f(G) = q_opt (θ_max = 3 = d_max: nothing truncated)
    kw = dict(q_opt_tilde=q_opt, theta_max=3, n_candidates=3, n_opt=n_opt, eps1=1.0)
    printed = theorem2_bound(betas, **kw)
    df = pd.DataFrame({"beta": betas, "bound (as printed)": printed})
    if corrected:
        df["bound (corrected Laplace tail)"] = theorem2_bound(betas, **kw, theta_star=1, eps2=1.0, corrected=True)
    return df


__all__ = ["capital_country", "example5_orders", "example6_trace", "fig10_curve", "fig2_graph", "fig3_graphs", "table3", "table4"]
