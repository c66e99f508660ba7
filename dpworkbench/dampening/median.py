"""Median selection with local dampening (Ch. 5; spec §3).

Data: x ∈ [0, Λ]^n; range = element indices; u(x,i) = −|x_m − x_i|, m = ⌈n/2⌉ (1-based rank in the
stable sort by (value, index)). Substitution neighbours. Δu = Λ (Lemma 5.2.1).

* ``ls0_elements`` — the *corrected* Lemma 5.2.2 (exact); the printed version is ``ls0_printed``.
* ``box_delta`` — the admissible box bound for t ≥ 1 (default, flat in r).
* ``thesis_candidates_delta`` — Alg. 2 / Lemma 5.2.3, **not admissible** (privacy_unverified).
* Grouped computation over histograms (≤ 3·bins groups) with log-multiplicities.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy.special import logsumexp

from dpworkbench._validation import check_epsilon, check_int, check_options, check_positive
from dpworkbench.experiments.metrics import absolute_error
from dpworkbench.mechanisms.backends import as_generator

from .percentile import order_stat as _order_stat  # X_(k), 0 below rank 1 and Λ above rank n

DELTAS = ("box", "thesis_candidates")


def _sorted(x, lam):
    x = np.asarray(x, dtype=float)
    if x.size == 0:
        raise ValueError("empty data: median selection needs at least one element")
    if np.any(x < 0) or np.any(x > lam):
        raise ValueError("values must lie in [0, Λ]")
    return x


def median_utility(x: Any, lam: float) -> np.ndarray:
    """u(x, i) = −|x_m − x_i| per row on the values clipped to [0, Λ] (x_m the true median).

    References
    ----------
    de Farias 2021, Ch. 5 (median selection).
    """
    x = _sorted(x, lam)
    sx = np.sort(x, kind="stable")
    m = math.ceil(x.size / 2)
    return -np.abs(sx[m - 1] - x)


def ranks(x: np.ndarray) -> np.ndarray:
    order = np.argsort(x, kind="stable")
    r = np.empty(x.size, np.int64)
    r[order] = np.arange(1, x.size + 1)
    return r


def _ls0_terms(xi, side, xm, xm1, xp1, lam, printed=False):
    base = np.maximum.reduce([np.abs(xm - xi), np.full_like(xi, xp1 - xm), np.full_like(xi, xm - xm1)])
    if printed:
        p = np.where(side > 0, lam - xi, np.where(side == 0, lam - xp1, lam + xi - 3 * xm + xp1))
        q = np.where(side > 0, xi, np.where(side == 0, xm1, 3 * xm - xi - xm1))
    else:
        p = np.where(side > 0, lam - xi, np.where(side == 0, lam - xp1, np.abs(lam - xp1 - xm + xi)))
        q = np.where(side > 0, np.abs(xi - xm - xm1), np.where(side == 0, xm1, xi))
    return np.maximum.reduce([base, p, q])


def ls0_elements(x: Any, lam: float, *, printed: bool = False) -> np.ndarray:
    """LS(x,0,i) for every element: corrected Lemma 5.2.2 (``printed=True``: thesis as printed)."""
    x = _sorted(x, lam)
    sx = np.sort(x, kind="stable")
    m = math.ceil(x.size / 2)
    xm, xm1, xp1 = (float(_order_stat(sx, k, lam)) for k in (m, m - 1, m + 1))
    side = np.sign(ranks(x) - m)
    return _ls0_terms(x, side, xm, xm1, xp1, lam, printed)


def box_delta_from_sorted(sx: np.ndarray, t: int, lam: float) -> float:
    """Admissible box bound δ_box(x,t) for t ≥ 1 (spec §3.4), flat in r."""
    n = sx.size
    m = math.ceil(n / 2)
    lo = lambda k: float(_order_stat(sx, k - t, lam))  # noqa: E731
    hi = lambda k: float(_order_stat(sx, k + t, lam))  # noqa: E731
    terms = [hi(m), lam - lo(m), hi(m + 1) - lo(m), hi(m) - lo(m - 1), lam - lo(m + 1),
             max(abs(lam - hi(m + 1) - hi(m)), abs(lam - lo(m + 1) - lo(m) + hi(m))),
             max(abs(lo(m) - hi(m) - hi(m - 1)), abs(lam - lo(m) - lo(m - 1))), hi(m - 1)]
    return min(lam, max(terms))


def box_delta_profile(sx: np.ndarray, horizon: int, lam: float) -> np.ndarray:
    """``box_delta_from_sorted(sx, t, lam)`` for t = 1..horizon−1 at once (same values, vectorised over t)."""
    n = sx.size
    m = math.ceil(n / 2)
    t = np.arange(1, max(int(horizon), 1), dtype=np.int64)
    lo = lambda k: _order_stat(sx, k - t, lam).astype(float)  # noqa: E731
    hi = lambda k: _order_stat(sx, k + t, lam).astype(float)  # noqa: E731
    terms = [hi(m), lam - lo(m), hi(m + 1) - lo(m), hi(m) - lo(m - 1), lam - lo(m + 1),
             np.maximum(np.abs(lam - hi(m + 1) - hi(m)), np.abs(lam - lo(m + 1) - lo(m) + hi(m))),
             np.maximum(np.abs(lo(m) - hi(m) - hi(m - 1)), np.abs(lam - lo(m) - lo(m - 1))), hi(m - 1)]
    return np.minimum(lam, np.maximum.reduce(terms))


def box_matrix(x: Any, lam: float, horizon: int, floor: float):
    """``median_sensitivity(lam).with_floor(floor).with_horizon(horizon).matrix(x)`` (identical values) in one sort."""
    from .model import SensitivityMatrix, bound_delta

    x = _sorted(x, lam)
    sx = np.sort(x, kind="stable")
    vals = np.empty((x.size, int(horizon)))
    vals[:, 0] = np.minimum(ls0_elements(x, lam), lam)
    vals[:, 1:] = box_delta_profile(sx, horizon, lam)[None, :]
    return SensitivityMatrix(bound_delta(vals, lam, floor=floor), lam, name="corrected LS0 + box bound")


def element_delta(x: Any, t: int, lam: float, *, delta: str = "box") -> np.ndarray:
    """δ(x,t,·) per element: t=0 corrected LS0; t≥1 box bound (or thesis candidates, unsafe)."""
    x = _sorted(x, lam)
    if t == 0:
        return np.minimum(ls0_elements(x, lam), lam)
    if delta == "box":
        return np.full(x.size, box_delta_from_sorted(np.sort(x, kind="stable"), t, lam))
    if delta == "thesis_candidates":
        return thesis_candidates_delta(x, t, lam)
    raise ValueError(f"delta must be one of {DELTAS}, got {delta!r}")


def median_sensitivity(lam: float, *, delta: str = "box", horizon: int | None = None, floor: float | None = None):
    """δ(x, t, i) for median selection as a checkable ``SensitivityFunction`` (x: the data values in [0, Λ]).

    t = 0: the corrected Lemma 5.2.2 (exact); t ≥ 1: the admissible box bound (``delta="box"``, default) or the thesis'
    Candidates (``delta="thesis_candidates"``: not admissible, marked ``privacy_unverified``; reproduction only)."""
    from .model import SensitivityFunction

    lam = check_positive(lam, "lam")
    check_options(delta, "delta", DELTAS)
    return SensitivityFunction(lambda x, t: element_delta(x, t, lam, delta=delta), lam,
                               name="corrected LS0 + box bound" if delta == "box" else "thesis Candidates (NOT admissible)",
                               horizon=horizon, floor=floor, privacy_unverified=delta == "thesis_candidates")


def _candidates(x, t, r, lam):
    if t == 0:
        return [x]
    if t == 1:
        def with_(y, idx, v):
            y = y.copy(); y[idx] = v; return y
        med = lambda y: int(np.argsort(y, kind="stable")[math.ceil(y.size / 2) - 1])  # noqa: E731
        x1 = with_(x, r, lam); x3 = with_(x, r, 0.0)
        return [x1, x1.copy(), x3, x3.copy(), with_(x, med(x), lam), with_(x, med(x), 0.0)]
    prev = _candidates(x, t - 1, r, lam)
    out = []
    for j, y in enumerate(prev):
        y = y.copy()
        mi = int(np.argsort(y, kind="stable")[math.ceil(y.size / 2) - 1])
        y[mi] = 0.0 if j % 2 == 0 else lam
        out.append(y)
    return out


def thesis_candidates_delta(x: Any, t: int, lam: float) -> np.ndarray:
    """Thesis Alg. 2 / Lemma 5.2.3 — UNSAFE: under-estimates LS(x,t,r) (~22% of small cases), not admissible.

    Reproduction only (spec §3.4); O(n) per element, small inputs only.
    """
    x = _sorted(x, lam)
    out = np.empty(x.size)
    for r in range(x.size):
        out[r] = max(float(ls0_elements(y, lam)[r]) for y in _candidates(x, t, r, lam))
    return np.minimum(out, lam)


def ls_bruteforce(x: Any, t: int, lam: int) -> np.ndarray:
    """Exact LS(x,t,r) for tiny integer inputs: the percentile oracle at p = 0.5 (the median rank ⌈n/2⌉)."""
    from .percentile import ls_bruteforce as ls_p

    return ls_p(x, t, lam, 0.5)


def ls0_bruteforce(x: np.ndarray, lam: int) -> np.ndarray:
    """Exact LS(x,0,r): every single substitution of a value in {0..Λ} (the percentile oracle at p = 0.5)."""
    from .percentile import ls0_bruteforce as ls0_p

    return ls0_p(x, lam, 0.5)


# ---------------------------------------------------------------- grouped (histograms)
def histogram_groups(hist: Any) -> dict:
    """Groups (bin, side) of a histogram over 0..Λ (Λ = bins−1) with multiplicities.

    References
    ----------
    de Farias 2021, §5.4; spec §2.2.
    """
    h = np.asarray(hist)
    if h.ndim != 1 or np.any(h < 0):
        raise ValueError("hist must be a 1-D array of non-negative counts")
    h = np.rint(h).astype(np.int64)
    n = int(h.sum())
    if n == 0:
        raise ValueError("empty histogram: median selection needs at least one element")
    lam = float(h.size - 1)
    cum = np.cumsum(h)
    m = math.ceil(n / 2)
    mb = int(np.searchsorted(cum, m))  # bin of the median element
    below_in_mb = m - 1 - (cum[mb - 1] if mb > 0 else 0)
    bins, sides, mult = [], [], []
    for b in np.flatnonzero(h):
        if b < mb:
            bins.append(b); sides.append(-1); mult.append(h[b])
        elif b > mb:
            bins.append(b); sides.append(1); mult.append(h[b])
        else:
            if below_in_mb > 0:
                bins.append(b); sides.append(-1); mult.append(below_in_mb)
            bins.append(b); sides.append(0); mult.append(1)
            above = h[b] - below_in_mb - 1
            if above > 0:
                bins.append(b); sides.append(1); mult.append(above)
    def order_stat(k):
        k = np.asarray(k)
        return np.where(k < 1, 0.0, np.where(k > n, lam, np.searchsorted(cum, np.clip(k, 1, n)).astype(float)))
    return {"bin": np.array(bins, float), "side": np.array(sides), "mult": np.array(mult, np.int64), "n": n, "lam": lam,
            "m": m, "median_value": float(mb), "order_stat": order_stat}


def grouped_delta(groups: dict, horizon: int) -> np.ndarray:
    """δ matrix (groups × horizon): corrected LS0 at t=0, box bound for t ≥ 1, capped at Λ, floored at 1."""
    os_, lam, m = groups["order_stat"], groups["lam"], groups["m"]
    xm, xm1, xp1 = (float(os_(k)) for k in (m, m - 1, m + 1))
    out = np.empty((groups["bin"].size, horizon))
    out[:, 0] = _ls0_terms(groups["bin"], groups["side"], xm, xm1, xp1, lam)
    for t in range(1, horizon):
        lo = lambda k: float(os_(k - t))  # noqa: E731
        hi = lambda k: float(os_(k + t))  # noqa: E731
        terms = [hi(m), lam - lo(m), hi(m + 1) - lo(m), hi(m) - lo(m - 1), lam - lo(m + 1),
                 max(abs(lam - hi(m + 1) - hi(m)), abs(lam - lo(m + 1) - lo(m) + hi(m))),
                 max(abs(lo(m) - hi(m) - hi(m - 1)), abs(lam - lo(m) - lo(m - 1))), hi(m - 1)]
        out[:, t] = max(terms)
    return np.clip(out, 1.0, lam)


def grouped_logits(groups: dict, method: str, epsilon: float, *, horizon: int = 32) -> np.ndarray:
    """Per-group log-probabilities (log-multiplicity included) for EM, LD or SLD."""
    from .model import SensitivityMatrix, dampen

    epsilon = check_epsilon(epsilon)
    u = -np.abs(groups["median_value"] - groups["bin"])
    lam = groups["lam"]
    if method == "EM":
        base = epsilon * u / (2 * lam)
    elif method in ("LD", "SLD"):
        dm = SensitivityMatrix(grouped_delta(groups, horizon), lam)
        if method == "LD":
            base = epsilon * dampen(u, dm) / 2
        else:
            base = epsilon * (u - np.sum(lam - dm.values, axis=1)) / (2 * lam)
    else:
        raise ValueError(f"method must be EM, PF, LD or SLD, got {method!r}")
    lg = base + np.log(groups["mult"])
    return lg - logsumexp(lg)


def group_errors(groups: dict) -> np.ndarray:
    """The absolute error of selecting each group of :func:`histogram_groups`: |its bin − the true median value|."""
    return absolute_error(groups["bin"], groups["median_value"])


def expected_error(groups: dict, method: str, epsilon: float, *, runs: int = 10_000, rng=None, horizon: int = 32,
                   pf: str = "exact") -> float:
    """E|retrieved median value − true median value|: exact for EM/LD/SLD; PF exact by the grouped
    integral (``pf="exact"``, default) or a grouped Monte-Carlo over ``runs`` runs (``pf="montecarlo"``, the thesis' protocol).

    References
    ----------
    de Farias 2021, §5.4, Fig. 17; spec §2.2.
    """
    err = group_errors(groups)
    if method != "PF":
        return float(np.exp(grouped_logits(groups, method, epsilon, horizon=horizon)) @ err)
    epsilon = check_epsilon(epsilon)
    if pf == "exact":
        return float(pf_group_probabilities(epsilon * (-err) / (2 * groups["lam"]), groups["mult"]) @ err)
    if pf != "montecarlo":
        raise ValueError(f"pf must be 'exact' or 'montecarlo', got {pf!r}")
    gen = as_generator(rng)
    runs = check_int(runs, "runs", minimum=1)
    lp = epsilon * (-err) / (2 * groups["lam"])  # u − u*, u* = 0
    keep = lp > -745
    p = np.exp(lp[keep]); mult = groups["mult"][keep]; e = err[keep]
    total = 0.0
    chunk = max(1, 2_000_000 // max(1, p.size))
    done = 0
    while done < runs:
        c = min(chunk, runs - done)
        K = gen.binomial(mult[None, :], p[None, :], size=(c, p.size))
        with np.errstate(divide="ignore"):
            times = np.where(K > 0, gen.beta(1.0, np.maximum(K, 1)), np.inf)
        total += e[np.argmin(times, axis=1)].sum()
        done += c
    return total / runs


def _pf_quadrature():
    """Nodes/weights on (0, 1) for ∫ F(s) ds with F ≈ e^{−sM}, M up to ~1e17: Gauss–Legendre (8 nodes) on
    dyadic pieces [2^-(j+1), 2^-j] (j < 60) and on [1 − 2^-j, 1 − 2^-(j+1)] towards 1."""
    x, w = np.polynomial.legendre.leggauss(8)
    edges = [0.0] + [2.0 ** -j for j in range(60, 0, -1)] + [1 - 2.0 ** -j for j in range(2, 30)] + [1.0]
    s, wt = [], []
    for a, b in zip(edges[:-1], edges[1:]):
        s.append(a + (b - a) * (x + 1) / 2)
        wt.append((b - a) * w / 2)
    return np.concatenate(s), np.concatenate(wt)


_PF_S, _PF_W = _pf_quadrature()


def pf_group_probabilities(log_p: Any, mult: Any) -> np.ndarray:
    """Exact law of permute-and-flip over groups of identical acceptance probabilities.

    Group g has ``mult[g]`` members with acceptance probability p_g = exp(log_p[g]) ≤ 1 (max = 1).
    P[group g] = m_g p_g ∫_0^1 (1 − s p_g)^{m_g − 1} ∏_{g' ≠ g} (1 − s p_{g'})^{m_{g'}} ds (spec §2.2), by
    piecewise Gauss–Legendre quadrature in log space (accurate for total multiplicities up to ~1e17).
    """
    lp = np.asarray(log_p, float)
    m = np.asarray(mult, float)
    if lp.shape != m.shape or lp.ndim != 1:
        raise ValueError("log_p and mult must be 1-D arrays of equal length")
    if np.any(lp > 1e-12):
        raise ValueError("log_p must be ≤ 0 (acceptance probabilities ≤ 1)")
    p = np.exp(lp)
    keep = p > 0
    out = np.zeros(lp.size)
    pk, mk = p[keep], m[keep]
    L = np.log1p(-np.outer(_PF_S, pk))  # (S, G)
    logF = L @ mk
    integ = _PF_W @ np.exp(logF[:, None] - L)  # ∫ F(s)/(1 − s p_g) ds
    out[keep] = mk * pk * integ
    return out / out.sum()


# ---------------------------------------------------------------- the release (Ch. 5 MedianSelection)
MECHANISMS = ("EM", "PF", "LD", "SLD")


