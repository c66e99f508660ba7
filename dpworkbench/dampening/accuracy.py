"""§4.4's accuracy statements, measured on exact selection laws (no sampling).

The thesis compares instances of shifted local dampening (SLD) by their sensitivity functions:

* **Def. 4.4.1 / Lemma 4.4.1.** If δ = δ̄ + α with α(x,t,r_1) ≥ … ≥ α(x,t,r_q) ≥ 0 (elements sorted by decreasing
  utility), SLD with δ is never worse than SLD with δ̄: P[E ≥ θ] is no larger for every θ ≥ 0, and so is E[E], where
  E = u* − u(x, M(x)) is the error.
* **Corollary 4.4.1.** With a *stable* δ (admissible, bounded, monotonic), SLD is never worse than EM (EM is SLD with
  δ = Δu).
* **Lemma 4.4.2.** The element local sensitivity LS(x,t,r) is the pointwise minimum admissible function.
* **§4.4.3.** Strict monotonicity is not needed in practice ("weak monotonicity" suffices; SLD outperforms EM in the
  experiments although none of the δ's is monotonic).

The laws here are exact: SLD's closed form ε(u − S_r)/(2Δu), S_r = Σ_{t<T}(Δu − δ(x,t,r)) (spec §0.2), EM's
εu/(2Δu), normalised in log space; tails P[E ≥ θ] are evaluated at every θ in the support. Which instances meet the
stated conditions is decided per instance (:func:`monotonicity`, sort-based, same definition as
:func:`~dpworkbench.dampening.model.is_monotone`). Everything here is non-private analysis of a fixed x.

References
----------
de Farias 2021, §4.4 (Def. 4.4.1, Lemma 4.4.1, Corollary 4.4.1, Lemma 4.4.2, §4.4.3); spec §2.9 and §7 item 9.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy.special import logsumexp

from . import ebc as E
from . import median as M

TOL = 1e-9   # float64 round-off on probabilities that sum to 1


def monotonicity(u: Any, delta: Any) -> str:
    """'flat', 'non-decreasing', 'non-increasing' or 'none' (Defs. 3.2.3–3.2.5) in O(q log q) per t.

    Non-decreasing: u(r) ≥ u(r') ⇒ δ(r) ≥ δ(r') for every t — along the utility order δ never falls, and elements of
    equal utility have equal δ."""
    u = np.asarray(u, float)
    d = np.asarray(delta, float).reshape(u.size, -1)
    if np.all(d == d[:1]):
        return "flat"
    order = np.argsort(u, kind="stable")
    us, ds = u[order], d[order]
    same = us[1:] == us[:-1]
    step = np.diff(ds, axis=0)
    if np.any(np.abs(step[same]) > 1e-12):
        return "none"   # equal utilities, different δ: neither direction holds
    if np.all(step >= -1e-12):
        return "non-decreasing"
    if np.all(step <= 1e-12):
        return "non-increasing"
    return "none"


def sld_log_law(u: Any, slack: Any, global_sensitivity: float, epsilon: float, log_mult: Any = 0.0) -> np.ndarray:
    """log P[SLD = r] (non-decreasing version, closed form) from the slack S_r = Σ_{t<T}(Δu − δ(x,t,r))."""
    lg = epsilon * (np.asarray(u, float) - slack) / (2 * global_sensitivity) + log_mult
    return lg - logsumexp(lg)


def slack(delta: Any, global_sensitivity: float) -> np.ndarray:
    """S_r = Σ_{t<T}(Δu − δ(x,t,r)) of a δ matrix (rows r, columns t < T)."""
    return np.sum(global_sensitivity - np.asarray(delta, float), axis=1)


def em_log_law(u: Any, global_sensitivity: float, epsilon: float, log_mult: Any = 0.0) -> np.ndarray:
    lg = epsilon * np.asarray(u, float) / (2 * global_sensitivity) + log_mult
    return lg - logsumexp(lg)


def compare(log_a: Any, log_b: Any, err: Any) -> dict:
    """How much worse law a is than law b: ``tail_gap`` = max_θ (P_a[E ≥ θ] − P_b[E ≥ θ]) over the support, and
    ``mean_gap`` = (E_a[E] − E_b[E]) / E_b[E] (relative). Both ≤ 0 (up to round-off) means a is never worse than b."""
    err = np.asarray(err, float)
    pa, pb = np.exp(np.asarray(log_a, float)), np.exp(np.asarray(log_b, float))
    order = np.argsort(-err, kind="stable")
    e = err[order]
    ta, tb = np.cumsum(pa[order]), np.cumsum(pb[order])   # P[E ≥ e_j] once all ties of e_j are in
    last = np.r_[e[1:] != e[:-1], True]
    eb = float(pb @ err)
    return {"tail_gap": float(np.max((ta - tb)[last])), "mean_gap": float((pa @ err - eb) / eb) if eb > 0 else 0.0,
            "error_b": eb}


def _tilt(u: np.ndarray, scale: float, reverse: bool = False) -> np.ndarray:
    """Σ_t α(t, r) for α(t, r) = scale·q_r at t ∈ {0, 1} (0 from t = 2 on), q_r ∈ [0, 1] the utility's position in its
    range: non-decreasing in u and ≥ 0 (Def. 4.4.1's ordering); ``reverse`` gives 1 − q_r, the opposite ordering (a
    control that must come out worse)."""
    span = u.max() - u.min()
    q = (u - u.min()) / span if span > 0 else np.zeros_like(u)
    return 2 * scale * (1 - q if reverse else q)


def _instance_rows(kind: str, name: str, u, err, s, s_flat: float, mono: str, gs, eps_grid, log_mult=0.0) -> list[dict]:
    """Every comparison of §4.4 at one instance x, across the ε grid. ``s``: SLD's slack S_r for the admissible δ;
    ``s_flat``: the slack of its flat version max_r δ (Lemma 3.2.3: admissible; flat, hence stable); ``mono``: δ's
    monotonicity in u."""
    a, a_rev = _tilt(u, gs / 2), _tilt(u, gs / 2, reverse=True)
    rows = []
    for eps in eps_grid:
        em = em_log_law(u, gs, eps, log_mult)
        sld = sld_log_law(u, s, gs, eps, log_mult)
        base = {"utility": kind, "instance": name, "epsilon": float(eps), "monotonicity": mono}
        for statement, cond, la, lb in (
                ("Cor. 4.4.1: SLD(δ) vs EM", mono != "none", sld, em),
                ("Cor. 4.4.1: SLD(flat max_r δ) vs EM", True, sld_log_law(u, np.full(u.shape, s_flat), gs, eps, log_mult), em),
                ("Lemma 4.4.1: SLD(δ + α) vs SLD(δ)", True, sld_log_law(u, s - a, gs, eps, log_mult), sld),
                ("control: SLD(δ + reversed α) vs SLD(δ)", False, sld_log_law(u, s - a_rev, gs, eps, log_mult), sld)):
            rows.append({**base, "statement": statement, "stated_condition": cond, **compare(la, lb, err)})
    return rows


def median_instances(histograms: Mapping[str, Any], eps_grid: Sequence[float], *, horizon: int = 32) -> pd.DataFrame:
    """§4.4 comparisons for median selection on each histogram (grouped exact laws; δ = corrected LS0 + box bound)."""
    rows = []
    for name, hist in histograms.items():
        g = M.histogram_groups(hist)
        err = M.group_errors(g)
        d = M.grouped_delta(g, horizon)
        rows += _instance_rows("median", name, -err, err, slack(d, g["lam"]), float(slack(d.max(axis=0)[None], g["lam"])[0]),
                               monotonicity(-err, d), g["lam"], eps_grid, np.log(g["mult"]))
    return pd.DataFrame(rows)


def ebc_instances(graphs: Mapping[str, tuple], eps_grid: Sequence[float]) -> pd.DataFrame:
    """§4.4 comparisons for one PrivTopk draw (k = 1) on each graph: ``graphs[name] = (ebc, degrees)``;
    δ^EBC with the graph's max degree as the public bound and horizon (Def. 6.3.1)."""
    rows = []
    for name, (ebc, deg) in graphs.items():
        ebc, deg = np.asarray(ebc, float), np.asarray(deg, np.int64)
        bound = int(deg.max())
        gs = E.global_sensitivity_ebc(bound)
        # δ^EBC(G,t,v) = clip(g(d_v + t), 1, ΔEBC) for t < T = bound: S_v from prefix sums over the degree axis
        k = np.arange(2 * bound + 1)
        pre = np.r_[0.0, np.cumsum(np.clip(E.g_fun(k), 1.0, gs))]
        s = bound * gs - (pre[deg + bound] - pre[deg])
        s_flat = float(bound * gs - (pre[bound + bound] - pre[bound]))   # max_v δ(t, v) = δ at the max degree
        # δ^EBC rows strictly increase with the degree, so δ is monotone non-decreasing in EBC iff the degrees never
        # fall along the EBC order and equal EBC means equal degree (the definition, Defs. 3.2.3–3.2.5)
        rows += _instance_rows("EBC", name, ebc, ebc.max() - ebc, s, s_flat, monotonicity(ebc, deg.astype(float)),
                               gs, eps_grid)
    return pd.DataFrame(rows)


def minimum_admissible_gaps(median_inputs: Sequence[tuple], ebc_graphs: Sequence[Any], *, t_max: int = 2) -> pd.DataFrame:
    """Lemma 4.4.2 by brute force: max_r (LS(x,t,r) − δ(x,t,r)) for admissible δ's (median box bound, percentile bound,
    δ^EBC) on tiny inputs; ≤ 0 everywhere is the lemma. ``median_inputs``: (x, Λ) pairs; ``ebc_graphs``: networkx graphs."""
    from . import percentile as Q
    from .worked_examples import element_ls_bruteforce

    rows = []
    for x, lam in median_inputs:
        x = np.asarray(x, float)
        for t in range(t_max + 1):
            ls = M.ls_bruteforce(x, t, lam)
            rows.append({"delta": "median: corrected LS0 + box", "input": str(x.astype(int).tolist()), "t": t,
                         "gap": float(np.max(ls - M.element_delta(x, t, lam)))})
            for p in (0.25, 0.9):
                lsq = Q.ls_bruteforce(x, t, lam, p)
                rows.append({"delta": f"percentile p={p}", "input": str(x.astype(int).tolist()), "t": t,
                             "gap": float(np.max(lsq - Q.percentile_delta(x, t, lam, p)))})
    for G in ebc_graphs:
        ls = element_ls_bruteforce(G, t_max=min(t_max, 1))
        deg = np.array([d for _, d in G.degree()])
        for t in range(ls.shape[1]):
            rows.append({"delta": "EBC: g(d + t)", "input": f"graph {G.number_of_nodes()} nodes / {G.number_of_edges()} "
                         "edges", "t": t, "gap": float(np.max(ls[:, t] - E.g_fun(deg + t)))})
    return pd.DataFrame(rows)
