"""Noise and selection primitives for pure ε-DP.

Every mechanism takes ``epsilon`` (the ε it spends), an explicit ``sensitivity``
where one applies, ``rng`` (Generator, seed, ``None`` or a back-end; see
:mod:`dpworkbench.mechanisms.backends`) and an optional ``accountant`` on which the
spend is recorded *before* any noise is drawn. Exponential-type mechanisms sample
in log-space (Gumbel-max), so utilities spanning many orders of magnitude never
underflow into an error or a deterministic fallback.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterable, Sequence

import numpy as np
from scipy.special import logsumexp

from .._validation import check_epsilon, check_finite_array, check_int, check_options, check_positive, check_probability
from ..accounting import Accountant, record_spend
from .backends import RngLike, check_rng


# ---------------------------------------------------------------------------------
# additive noise
# ---------------------------------------------------------------------------------
def laplace_mechanism(
    value: float | np.ndarray,
    *,
    epsilon: float,
    sensitivity: float,
    rng: RngLike = None,
    accountant: Accountant | None = None,
    note: str = "",
) -> float | np.ndarray:
    """value + Lap(sensitivity/ε). Spends ε (``sensitivity`` is the L1 sensitivity of the whole vector)."""
    epsilon = check_epsilon(epsilon)
    sensitivity = check_positive(sensitivity, "sensitivity")
    arr = np.asarray(value, dtype=float)
    if arr.size == 0:
        raise ValueError("value is empty: nothing to release")
    if not np.all(np.isfinite(arr)):
        raise ValueError("value contains NaN or inf")
    record_spend(accountant, epsilon, "laplace", note)
    backend = check_rng(rng)
    return backend.add_laplace(float(arr) if arr.ndim == 0 else arr, sensitivity / epsilon)


def geometric_mechanism(
    value: int | np.ndarray,
    *,
    epsilon: float,
    sensitivity: int = 1,
    rng: RngLike = None,
    accountant: Accountant | None = None,
    note: str = "",
) -> int | np.ndarray:
    """Two-sided geometric (discrete Laplace) mechanism: value + Z, P(Z=k) ∝ exp(-ε|k|/Δ). Spends ε."""
    epsilon = check_epsilon(epsilon)
    sensitivity = check_int(sensitivity, "sensitivity", minimum=1)
    arr = np.asarray(value)
    if arr.size == 0:
        raise ValueError("value is empty: nothing to release")
    if not np.issubdtype(arr.dtype, np.integer):
        if np.issubdtype(arr.dtype, np.floating) and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
            arr = arr.astype(np.int64)
        else:
            raise ValueError("geometric_mechanism needs integer values (use laplace_mechanism for reals)")
    record_spend(accountant, epsilon, "geometric", note)
    backend = check_rng(rng)
    return backend.add_discrete_laplace(int(arr) if arr.ndim == 0 else arr.astype(np.int64), sensitivity / epsilon)


# ---------------------------------------------------------------------------------
# selection
# ---------------------------------------------------------------------------------
def _check_utilities(utilities: Any) -> np.ndarray:
    return check_finite_array(utilities, "utilities")


def exponential_logits(utilities: Any, *, epsilon: float, sensitivity: float, monotonic: bool = False) -> np.ndarray:
    """Log-weights ε·u/(2Δ) (or ε·u/Δ for monotonic utilities) of the exponential mechanism."""
    u = _check_utilities(utilities)
    epsilon = check_epsilon(epsilon)
    sensitivity = check_positive(sensitivity, "sensitivity")
    factor = 1.0 if monotonic else 2.0
    return epsilon * u / (factor * sensitivity)


def exponential_probabilities(
    utilities: Any, *, epsilon: float, sensitivity: float, monotonic: bool = False
) -> np.ndarray:
    """Exact output law of the exponential mechanism, computed stably in log-space."""
    logits = exponential_logits(utilities, epsilon=epsilon, sensitivity=sensitivity, monotonic=monotonic)
    return np.exp(logits - logsumexp(logits))


def exponential_mechanism(
    utilities: Any,
    *,
    epsilon: float,
    sensitivity: float,
    rng: RngLike = None,
    accountant: Accountant | None = None,
    monotonic: bool = False,
    note: str = "",
) -> int:
    """Index r with P[r] ∝ exp(ε·u_r/(2Δ)) (McSherry–Talwar). Spends ε.

    Sampled by Gumbel-max, which is exact in log-space for any utility range.
    """
    logits = exponential_logits(utilities, epsilon=epsilon, sensitivity=sensitivity, monotonic=monotonic)
    record_spend(accountant, epsilon, "exponential", note)
    return check_rng(rng).gumbel_argmax(logits)


def exponential_top_k(
    utilities: Any,
    k: int,
    *,
    epsilon: float,
    sensitivity: float,
    rng: RngLike = None,
    accountant: Accountant | None = None,
    monotonic: bool = False,
    note: str = "",
) -> np.ndarray:
    """k indices, best first, by one-shot Gumbel-top-k. Spends ε in total.

    Equal in law to k sequential exponential-mechanism draws without replacement,
    each with ε/k (Durfee–Rogers), hence ε-DP by sequential composition.
    """
    u = _check_utilities(utilities)
    k = check_int(k, "k", minimum=1, maximum=u.size)
    epsilon = check_epsilon(epsilon)
    logits = exponential_logits(u, epsilon=epsilon / k, sensitivity=sensitivity, monotonic=monotonic)
    record_spend(accountant, epsilon, "exponential top-k", note or f"k={k}, ε/k per draw")
    return check_rng(rng).gumbel_top_k(logits, k)


def permute_and_flip(
    utilities: Any,
    *,
    epsilon: float,
    sensitivity: float,
    rng: RngLike = None,
    accountant: Accountant | None = None,
    note: str = "",
) -> int:
    """Permute-and-flip (McKenna & Sheldon 2020). Spends ε.

    Visit candidates in random order; accept r with probability
    exp(ε/(2Δ)·(u_r − u*)). Vectorised: one permutation and one uniform per
    candidate, output the first acceptance in permutation order (the argmax always
    accepts, so it terminates). With the release back-end the equivalent
    report-noisy-max with exponential noise is used.
    """
    u = _check_utilities(utilities)
    epsilon = check_epsilon(epsilon)
    sensitivity = check_positive(sensitivity, "sensitivity")
    record_spend(accountant, epsilon, "permute-and-flip", note)
    backend = check_rng(rng)
    log_p = epsilon / (2.0 * sensitivity) * (u - u.max())
    if not backend.seeded and backend.name == "opendp":
        return backend.exponential_argmax(epsilon / (2.0 * sensitivity) * u)
    gen = backend.generator
    order = gen.permutation(u.size)
    accept = np.log(gen.random(u.size)) < log_p[order]
    # exp(0)=1 at the argmax; log(U) < 0 a.s., so at least one acceptance exists.
    first = int(np.argmax(accept))
    return int(order[first])


def permute_and_flip_probabilities(utilities: Any, *, epsilon: float, sensitivity: float) -> np.ndarray:
    """Exact output law of permute-and-flip: p_r ∫_0^1 ∏_{r'≠r}(1 − s·p_{r'}) ds.

    Numerical quadrature in log-space (Gauss–Legendre, 200 nodes); meant for
    teaching plots and exact DP-ratio tests on small candidate sets.
    """
    u = _check_utilities(utilities)
    epsilon = check_epsilon(epsilon)
    sensitivity = check_positive(sensitivity, "sensitivity")
    p = np.exp(epsilon / (2.0 * sensitivity) * (u - u.max()))
    nodes, weights = np.polynomial.legendre.leggauss(200)
    s = 0.5 * (nodes + 1.0)
    w = 0.5 * weights
    log_terms = np.log1p(-np.outer(s, p).clip(max=1 - 1e-300))  # (S, R)
    total = log_terms.sum(axis=1, keepdims=True)
    integrand = np.exp(total - log_terms)  # ∏_{r'≠r}
    probs = p * (w @ integrand)
    return probs / probs.sum()


def report_noisy_max(
    utilities: Any,
    *,
    epsilon: float,
    sensitivity: float,
    rng: RngLike = None,
    accountant: Accountant | None = None,
    monotonic: bool = False,
    note: str = "",
) -> int:
    """argmax_r u_r + Lap(2Δ/ε) (Lap(Δ/ε) for monotonic utilities). Spends ε."""
    u = _check_utilities(utilities)
    epsilon = check_epsilon(epsilon)
    sensitivity = check_positive(sensitivity, "sensitivity")
    record_spend(accountant, epsilon, "report-noisy-max", note)
    scale = (1.0 if monotonic else 2.0) * sensitivity / epsilon
    return int(np.argmax(check_rng(rng).add_laplace(u, scale)))


def above_threshold(
    queries: Iterable[float] | Callable[[int], float],
    threshold: float,
    *,
    epsilon: float,
    sensitivity: float = 1.0,
    max_queries: int | None = None,
    rng: RngLike = None,
    accountant: Accountant | None = None,
    note: str = "",
) -> int | None:
    """Sparse vector AboveThreshold exactly as R2T's Algorithm 1. Spends ε.

    T̃ = T + Lap(2Δ/ε); for ℓ = 0, 1, ...: Q̃_ℓ = Q_ℓ + Lap(4Δ/ε) (fresh noise),
    return the first ℓ with Q̃_ℓ > T̃ (0-based), or ``None`` if none is above.
    ``queries`` may be a sequence/iterator or a callable ℓ ↦ Q_ℓ evaluated lazily
    (then ``max_queries`` bounds the search).
    """
    epsilon = check_epsilon(epsilon)
    sensitivity = check_positive(sensitivity, "sensitivity")
    t = float(threshold)
    if not math.isfinite(t):
        raise ValueError("threshold must be finite")
    record_spend(accountant, epsilon, "sparse-vector", note)
    backend = check_rng(rng)
    noisy_threshold = float(backend.add_laplace(t, 2.0 * sensitivity / epsilon))
    q_scale = 4.0 * sensitivity / epsilon
    if callable(queries):
        if max_queries is None:
            raise ValueError("max_queries is required when queries is a callable")
        source: Iterable[float] = (queries(i) for i in range(max_queries))
    else:
        source = queries
    for i, q in enumerate(source):
        if max_queries is not None and i >= max_queries:
            break
        q = float(q)
        if not math.isfinite(q):
            raise ValueError(f"query {i} is NaN or inf")
        if float(backend.add_laplace(q, q_scale)) > noisy_threshold:
            return i
    return None


# ---------------------------------------------------------------------------------
# randomized response
# ---------------------------------------------------------------------------------
def _domain_codes(values: Any, domain: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    dom = np.asarray(list(domain), dtype=object)
    if dom.size < 2:
        raise ValueError("domain must have at least two values")
    if len(set(dom.tolist())) != dom.size:
        raise ValueError("domain has duplicate values")
    index = {v: i for i, v in enumerate(dom.tolist())}
    vals = np.asarray(values, dtype=object).ravel()
    if vals.size == 0:
        raise ValueError("values is empty")
    try:
        codes = np.fromiter((index[v] for v in vals.tolist()), dtype=np.int64, count=vals.size)
    except KeyError as exc:
        raise ValueError(f"value {exc.args[0]!r} is not in the declared domain") from None
    return codes, dom


def randomized_response_keep_probability(epsilon: float, domain_size: int) -> float:
    """k-ary RR: P(report the true value) = e^ε / (e^ε + k − 1)."""
    epsilon = check_epsilon(epsilon)
    k = check_int(domain_size, "domain_size", minimum=2)
    return 1.0 / (1.0 + (k - 1) * math.exp(-epsilon))


def randomized_response(
    values: Any,
    domain: Sequence[Any],
    *,
    epsilon: float,
    rng: RngLike = None,
    accountant: Accountant | None = None,
    note: str = "",
) -> np.ndarray:
    """k-ary randomized response (local ε-DP per value): keep w.p. e^ε/(e^ε+k−1), else a uniform *other* value."""
    epsilon = check_epsilon(epsilon)
    codes, dom = _domain_codes(values, domain)
    k = dom.size
    keep = randomized_response_keep_probability(epsilon, k)
    record_spend(accountant, epsilon, "randomized-response", note or f"k={k}, local DP per record")
    gen = check_rng(rng).generator
    flip = gen.random(codes.size) >= keep
    other = gen.integers(0, k - 1, size=codes.size)
    other = other + (other >= codes)  # uniform over the k-1 values different from the truth
    out = np.where(flip, other, codes)
    return dom[out]


def grr_epsilon(p: float, domain_size: int) -> float:
    """Exact local ε of generalized randomized response: ln(1 + N(1−p)/p).

    GRR replaces a value, with probability p, by a uniform draw from the N-value
    domain (possibly the same value). PrivateClean's Lemma 1 states ln(3/p − 2),
    which is this formula at N = 3 only and under-states ε for N > 3.
    """
    p = check_probability(p, "p")
    n = check_int(domain_size, "domain_size", minimum=1)
    return math.log1p(n * (1.0 - p) / p)


def grr_p_for_epsilon(epsilon: float, domain_size: int) -> float:
    """Inverse of :func:`grr_epsilon`: the p that gives exactly ε for an N-value domain, p = N/(e^ε + N − 1)."""
    epsilon = check_epsilon(epsilon)
    n = check_int(domain_size, "domain_size", minimum=1)
    return n / (math.exp(epsilon) + n - 1.0)


def grr_codes(codes: np.ndarray, domain_size: int, p: float, gen: np.random.Generator, *,
              draw: str = "all") -> np.ndarray:
    """GRR on integer codes in {0..N−1} (any shape): keep each w.p. 1−p, else a uniform code (may redraw the original).

    The kernel of :func:`generalized_randomized_response` and of PrivateClean (validated inputs; ``gen`` is a
    numpy Generator). ``draw`` fixes the order of the random draws (both give the same law):
    ``"all"`` draws one uniform per value, then one replacement code per value (vectorised batches);
    ``"replaced"`` draws one uniform per value, then replacement codes only for the replaced values, in order
    (PrivateClean's :func:`~dpworkbench.privateclean.grr`).
    """
    check_options(draw, "draw", ("all", "replaced"))
    replace = gen.random(codes.shape) < p
    if draw == "all":
        return np.where(replace, gen.integers(0, domain_size, size=codes.shape), codes)
    idx = np.flatnonzero(replace)
    new = np.array(codes, copy=True)
    new.flat[idx] = gen.integers(0, domain_size, size=idx.size)
    return new


def generalized_randomized_response(
    values: Any,
    domain: Sequence[Any],
    *,
    p: float,
    rng: RngLike = None,
    accountant: Accountant | None = None,
    note: str = "",
) -> np.ndarray:
    """GRR: with probability p replace each value by a uniform draw from ``domain``. Spends ln(1+N(1−p)/p)."""
    p = check_probability(p, "p")
    codes, dom = _domain_codes(values, domain)
    eps = grr_epsilon(p, dom.size)
    record_spend(accountant, eps, "generalized-randomized-response", note or f"p={p:g}, N={dom.size}")
    return dom[grr_codes(codes, dom.size, p, check_rng(rng).generator)]


def rr_frequency_estimate(reported: Any, domain: Sequence[Any], *, keep_probability: float) -> np.ndarray:
    """Unbiased counts from k-ary RR output with P(keep)=q: (c − n(1−q)/(k−1)) / (q − (1−q)/(k−1))."""
    codes, dom = _domain_codes(reported, domain)
    q = check_probability(keep_probability, "keep_probability", open_interval=False)
    k = dom.size
    n = codes.size
    counts = np.bincount(codes, minlength=k).astype(float)
    off = (1.0 - q) / (k - 1)
    if abs(q - off) < 1e-15:
        raise ValueError("keep_probability gives no information (q = (1-q)/(k-1))")
    return (counts - n * off) / (q - off)


__all__ = [
    "above_threshold",
    "exponential_logits",
    "exponential_mechanism",
    "exponential_probabilities",
    "exponential_top_k",
    "generalized_randomized_response",
    "geometric_mechanism",
    "grr_codes",
    "grr_epsilon",
    "grr_p_for_epsilon",
    "laplace_mechanism",
    "permute_and_flip",
    "permute_and_flip_probabilities",
    "randomized_response",
    "randomized_response_keep_probability",
    "report_noisy_max",
    "rr_frequency_estimate",
]
