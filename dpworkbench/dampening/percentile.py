"""Percentile selection with local dampening — the p-quantile generalisation of the thesis' median selection (Ch. 5).

Data: x ∈ [0, Λ]^n; range = element labels (row positions); target rank k = k(n, p) = min(n, max(1, ⌈p·n⌉)) in the
stable sort by (value, index), so p = 0.5 gives the median rank m = ⌈n/2⌉ of Ch. 5. Utility
u(x, i) = −|x_(k) − x_i|. Substitution neighbours (n and the positions fixed and public). Δu = Λ: u ∈ [−Λ, 0], and
Lemma 5.2.1's witness works for every k < n (x = (0, …, 0, Λ): moving the last element to 0 moves its utility from
−Λ to 0; for k = n use x = (0, Λ, …, Λ) and move the first element to Λ).

The sensitivity function (:func:`percentile_delta`) is a *provable* upper bound with a short proof (below), not the
exact element local sensitivity: the thesis' median δ was wrong twice (Lemma 5.2.2 misprinted, Alg. 2 not
admissible; spec §3.3–3.4), so here every step is proved and checked by brute force
(tests/dampening/test_percentile.py).

Notation: X_(j) is the j-th smallest value of x, with X_(j) = 0 for j < 1 and Λ for j > n (these conventions only
widen intervals, which is what the proof needs). Let M_t(x) = max(X_(k+1+t), Λ − X_(k−1−t)).

δ(x, 0, i) = min(Λ, S(x, i)),  S(x, i) = max(X_(k+1) − X_(k), X_(k) − X_(k−1), |u(x,i)|, M_0(x) − |u(x,i)|);
δ(x, t, i) = min(Λ, M_t(x)) for t ≥ 1 (flat in i).

**Fact A (a substitution moves each order statistic by at most one rank).** If z differs from y in one position,
z_(j) ∈ [y_(j−1), y_(j+1)] for every j. Removing one value from y leaves n − 1 values whose j-th smallest lies in
[y_(j), y_(j+1)] and whose (j−1)-th smallest lies in [y_(j−1), y_(j)]; inserting any value v puts z_(j) between
those two. At the ends the conventions y_(0) = 0 and y_(n+1) = Λ hold because all values lie in [0, Λ].

**Lemma 1 (condition 1 of Def. 3.2.1: S(y, i) ≥ LS(y, 0, i)).** Let z ~ y, a = y_(k), a' = z_(k), b = y_i, b' = z_i.
(i) The changed position j ≠ i: b' = b, and | |a − b| − |a' − b| | ≤ |a − a'| ≤ max(y_(k+1) − y_(k), y_(k) − y_(k−1))
by Fact A. (ii) j = i: |u(z, i)| = |a' − b'| ≤ max(a', Λ − a') ≤ max(y_(k+1), Λ − y_(k−1)) = M_0(y) by Fact A, and
also |u(y, i)| ≤ M_0(y) (a ∈ [y_(k−1), y_(k+1)]). Two numbers in [0, M_0] with one of them equal to c differ by at
most max(c, M_0 − c). So |u(y, i) − u(z, i)| ≤ S(y, i) in both cases. ∎

**Lemma 2 (S(y, i) ≤ M_0(y)).** y_(k+1) − y_(k) ≤ y_(k+1); y_(k) − y_(k−1) ≤ Λ − y_(k−1); |u|, M_0 − |u| ∈ [0, M_0]. ∎

**Lemma 3 (M_t(y) ≤ M_{t+1}(x) for y ~ x).** By Fact A, y_(k+1+t) ≤ x_(k+2+t) and y_(k−1−t) ≥ x_(k−2−t). ∎

**Theorem (δ is admissible and bounded).** Condition 1 is Lemma 1 (min with Λ keeps it, since LS ≤ Δu = Λ).
Condition 2, δ(x, t+1, i) ≥ δ(y, t, i) for y ~ x: for t = 0, δ(y, 0, i) ≤ min(Λ, M_0(y)) ≤ min(Λ, M_1(x)) =
δ(x, 1, i) by Lemmas 2 and 3; for t ≥ 1 it is Lemma 3 (and min(Λ, ·) is monotone). Bounded (Def. 3.2.2): for t ≥ n,
k + 1 + t > n so X_(k+1+t) = Λ and δ = Λ. The constant floor η ∈ (0, Λ] and a public horizon T keep admissibility
and boundedness (spec §1.9). So LD (Thm 3.5.1) and SLD (Thm 4.3.1) are ε-DP with it. ∎

Tightness: Lemma 1 is exact for elements far from X_(k) and within a factor ≤ 2 near it; for p = 0.5 it is never
below :func:`median.ls0_elements` (the exact corrected Lemma 5.2.2) and the box here drops the median box's extra
terms (which Lemma 2 shows are dominated by M_t). Measured in the tests against the brute-force LS.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from dpworkbench._validation import check_epsilon, check_int, check_options, check_positive


MECHANISMS = ("EM", "PF", "LD", "SLD")


def check_p(p: float, name: str = "p") -> float:
    """The public quantile level p ∈ (0, 1]."""
    try:
        p = float(p)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number in (0, 1], got {p!r}") from None
    if not (math.isfinite(p) and 0 < p <= 1):
        raise ValueError(f"{name} must be a number in (0, 1], got {p!r}")
    return p


def quantile_rank(n: int, p: float) -> int:
    """k(n, p) = min(n, max(1, ⌈p·n⌉)) (1-based), a function of the public n and p only; p = 0.5 → ⌈n/2⌉.

    The 1e-9 guard keeps ⌈0.7·10⌉ = 7 although 0.7·10 = 7.000000000000001 in binary floating point."""
    return int(min(n, max(1, math.ceil(p * n - 1e-9))))


def _values(x, lam):
    x = np.asarray(x, dtype=float)
    if x.ndim != 1 or x.size == 0:
        raise ValueError("empty data: percentile selection needs at least one element")
    if np.any(x < 0) or np.any(x > lam):
        raise ValueError("values must lie in [0, Λ]")
    return x


def order_stat(sx: np.ndarray, j, lam: float):
    """X_(j) with X_(j) = 0 for j < 1 and Λ for j > n (1-based), vectorised over j."""
    j = np.asarray(j)
    n = sx.size
    return np.where(j < 1, 0.0, np.where(j > n, lam, sx[np.clip(j - 1, 0, n - 1)]))


def percentile_utility(x: Any, lam: float, p: float) -> np.ndarray:
    """u(x, i) = −|x_(k) − x_i| per element (k = :func:`quantile_rank`); values already in [0, Λ]."""
    x = _values(x, lam)
    k = quantile_rank(x.size, check_p(p))
    return -np.abs(float(np.sort(x, kind="stable")[k - 1]) - x)


def box_profile(sx: np.ndarray, horizon: int, lam: float, k: int) -> np.ndarray:
    """min(Λ, M_t(x)) for t = 1..horizon−1 (the flat part of δ; see the module docstring)."""
    t = np.arange(1, max(int(horizon), 1), dtype=np.int64)
    return np.minimum(lam, np.maximum(order_stat(sx, k + 1 + t, lam), lam - order_stat(sx, k - 1 - t, lam)))


def ls0_bound(x: Any, lam: float, p: float) -> np.ndarray:
    """min(Λ, S(x, i)) per element: Lemma 1's upper bound on the element local sensitivity LS(x, 0, i)."""
    x = _values(x, lam)
    k = quantile_rank(x.size, check_p(p))
    sx = np.sort(x, kind="stable")
    xk, xkm, xkp = (float(order_stat(sx, j, lam)) for j in (k, k - 1, k + 1))
    a = np.abs(xk - x)
    m0 = max(xkp, lam - xkm)
    return np.minimum(lam, np.maximum.reduce([np.full_like(x, xkp - xk), np.full_like(x, xk - xkm), a, m0 - a]))


def percentile_delta(x: Any, t: int, lam: float, p: float) -> np.ndarray:
    """δ(x, t, ·) per element (admissible and bounded; proof in the module docstring)."""
    x = _values(x, lam)
    t = check_int(t, "t", minimum=0)
    if t == 0:
        return ls0_bound(x, lam, p)
    k = quantile_rank(x.size, check_p(p))
    return np.full(x.size, float(box_profile(np.sort(x, kind="stable"), t + 1, lam, k)[-1]))


def percentile_sensitivity(lam: float, p: float, *, horizon: int | None = None, floor: float | None = None):
    """δ for percentile selection as a checkable :class:`~.model.SensitivityFunction` (x: values in [0, Λ])."""
    from .model import SensitivityFunction

    lam = check_positive(lam, "lam")
    p = check_p(p)
    return SensitivityFunction(lambda x, t: percentile_delta(x, t, lam, p), lam, name=f"percentile p={p:g} bound",
                               horizon=horizon, floor=floor)


def percentile_matrix(x: Any, lam: float, p: float, horizon: int, floor: float):
    """``percentile_sensitivity(lam, p).with_floor(floor).with_horizon(horizon).matrix(x)`` in one sort."""
    from .model import SensitivityMatrix, bound_delta

    x = _values(x, lam)
    k = quantile_rank(x.size, check_p(p))
    vals = np.empty((x.size, int(horizon)))
    vals[:, 0] = ls0_bound(x, lam, p)
    vals[:, 1:] = box_profile(np.sort(x, kind="stable"), horizon, lam, k)[None, :]
    return SensitivityMatrix(bound_delta(vals, lam, floor=floor), lam, name=f"percentile p={p:g} bound")


# ---------------------------------------------------------------- brute-force oracles (tiny integer inputs)
def ls0_bruteforce(x: Any, lam: int, p: float) -> np.ndarray:
    """Exact LS(x, 0, i): every single substitution of a value in {0..Λ}."""
    x = np.asarray(x, float)
    u = percentile_utility(x, lam, p)
    best = np.zeros(x.size)
    for i in range(x.size):
        for v in range(int(lam) + 1):
            y = x.copy(); y[i] = v
            best = np.maximum(best, np.abs(percentile_utility(y, lam, p) - u))
    return best


def ls_bruteforce(x: Any, t: int, lam: int, p: float) -> np.ndarray:
    """Exact LS(x, t, i) = max over the t-ball (values 0..Λ) of LS(y, 0, i)."""
    ball = frontier = {tuple(np.asarray(x, float))}
    for _ in range(t):
        new = {tuple(float(v) if j == i else c for j, c in enumerate(y)) for y in frontier
               for i in range(len(y)) for v in range(int(lam) + 1)}
        frontier = new - ball
        ball = ball | new
    return np.max([ls0_bruteforce(np.array(y), lam, p) for y in ball], axis=0)


# ---------------------------------------------------------------- exact laws (non-private; teaching, §4.4 checks)
def selection_log_probabilities(x: Any, lam: float, p: float, epsilon: float, mechanism: str, *,
                                horizon: int = 32) -> np.ndarray:
    """log Pr[M(x) = i] for every element, exactly (PF by its closed-form law). Non-private: for teaching and tests."""
    from scipy.special import logsumexp

    from dpworkbench.mechanisms import exponential_logits, permute_and_flip_probabilities

    from .model import ld_logits, sld_logits

    epsilon = check_epsilon(epsilon)
    check_options(mechanism, "mechanism", MECHANISMS)
    u = percentile_utility(x, lam, p)
    if mechanism == "PF":
        with np.errstate(divide="ignore"):
            return np.log(permute_and_flip_probabilities(u, epsilon=epsilon, sensitivity=lam))
    if mechanism == "EM":
        lg = exponential_logits(u, epsilon=epsilon, sensitivity=lam)
    else:
        sm = percentile_matrix(x, lam, p, horizon, min(1.0, lam))
        lg = (ld_logits if mechanism == "LD" else sld_logits)(u, sm, epsilon=epsilon)
    return lg - logsumexp(lg)


def expected_error(x: Any, lam: float, p: float, epsilon: float, mechanism: str, *, horizon: int = 32) -> float:
    """E|x_{M(x)} − x_(k)| exactly (non-private)."""
    return float(np.exp(selection_log_probabilities(x, lam, p, epsilon, mechanism, horizon=horizon))
                 @ -percentile_utility(x, lam, p))


# ---------------------------------------------------------------- the release
