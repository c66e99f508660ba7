"""Empirical privacy auditing of a mechanism on one pair of neighbouring inputs.

Method: draw ``n_samples`` outputs on x and on x'; map outputs to events (the
distinct values for discrete outputs, or quantile bins of a pilot sample for
continuous ones); for each event E bound P[M(x)∈E] and P[M(x')∈E] with
Clopper–Pearson intervals (Bonferroni over all events and both directions) and
report

* ``epsilon_hat``: max |ln(p̂/q̂)| over events with enough mass (point estimate),
* ``epsilon_lower``: max ln(p_lo/q_hi) — a lower confidence bound on the true loss,
* ``epsilon_upper``: max over events of ln(p_hi/q_lo) (informative only).

A mechanism is *flagged* when ``epsilon_lower > epsilon``: with confidence
1 − α, the true privacy loss exceeds the claim. Binning can only under-estimate
the loss, so a flag is never a false alarm beyond α.

Rare exact leaks: quantile bins dilute an atom (a mechanism that returns its exact input 0.5 % of the time
has infinite ε, yet no 1/30-quantile bin shows it). For continuous outputs the events therefore also include
every value that repeats in the independent pilot sample (atoms: a continuous law has none), and narrow
intervals around ``reference_points`` (e.g. the pre-noise statistics of x and x′, where an exact or
barely-noised release would sit).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
from scipy.stats import beta as beta_dist

from .._validation import check_epsilon, check_int, check_probability
from ..mechanisms.backends import as_generator


def clopper_pearson(k: np.ndarray, n: int, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided exact binomial confidence interval at level 1 − α for each count k."""
    k = np.asarray(k, dtype=float)
    lo = np.where(k > 0, beta_dist.ppf(alpha / 2, k, n - k + 1), 0.0)
    hi = np.where(k < n, beta_dist.ppf(1 - alpha / 2, k + 1, n - k), 1.0)
    return lo, hi


def max_log_ratio(p: Any, q: Any) -> float:
    """Exact max over outcomes of |ln p/q| for two known output laws (inf if supports differ)."""
    p = np.asarray(p, dtype=float)
    q = np.asarray(q, dtype=float)
    if p.shape != q.shape:
        raise ValueError(f"p and q have different shapes: {p.shape} vs {q.shape}")
    both_zero = (p == 0) & (q == 0)
    if np.any((p == 0) ^ (q == 0)):
        return float("inf")
    with np.errstate(divide="ignore"):
        r = np.abs(np.log(p[~both_zero]) - np.log(q[~both_zero]))
    return float(r.max()) if r.size else 0.0


@dataclass
class AuditResult:
    epsilon_claimed: float
    epsilon_hat: float
    epsilon_lower: float
    epsilon_upper: float
    n_samples: int
    n_events: int
    alpha: float
    table: Any = field(repr=False, default=None)

    @property
    def flagged(self) -> bool:
        """True when the lower confidence bound on the loss exceeds the claimed ε."""
        return self.epsilon_lower > self.epsilon_claimed

    def __str__(self) -> str:
        verdict = "FLAGGED" if self.flagged else "consistent with"
        return (
            f"audit: ε̂={self.epsilon_hat:.3f}, {100 * (1 - self.alpha):.0f}% lower bound "
            f"{self.epsilon_lower:.3f} ({verdict} claimed ε={self.epsilon_claimed:g}; "
            f"{self.n_samples} samples per side, {self.n_events} events)"
        )


def _sample(mechanism: Callable, x: Any, n: int, gen: np.random.Generator, vectorized: bool) -> np.ndarray:
    if vectorized:
        out = np.asarray(mechanism(x, gen, n))
        if out.shape[0] != n:
            raise ValueError(f"vectorized mechanism returned {out.shape[0]} outputs, expected {n}")
        return out
    return np.asarray([mechanism(x, gen) for _ in range(n)])


def _to_keys(out: np.ndarray) -> np.ndarray:
    if out.ndim > 1:
        return np.asarray(["|".join(map(str, row)) for row in out.tolist()], dtype=object)
    return out


def audit_mechanism(
    mechanism: Callable[..., Any],
    x: Any,
    x_prime: Any,
    epsilon: float,
    *,
    n_samples: int = 20000,
    bins: int | str = "auto",
    alpha: float = 0.05,
    min_count: int = 20,
    vectorized: bool = False,
    seed: int | None = None,
    rng: np.random.Generator | None = None,
    reference_points: Any = None,
    max_atoms: int = 50,
    pilot_samples: int = 2000,
) -> AuditResult:
    """Estimate the privacy loss of ``mechanism`` between neighbours ``x`` and ``x_prime``.

    ``mechanism(data, rng)`` returns one output (a number, a label or a tuple); with
    ``vectorized=True`` it is called as ``mechanism(data, rng, n)`` and returns n outputs.
    ``bins`` is ``"auto"`` (discrete outputs are used as is when there are at most
    200 distinct values, otherwise 30 quantile bins of a pilot sample), ``"discrete"``
    or an int number of quantile bins. ``reference_points`` (continuous outputs) adds events
    ``|output − r| ≤ w`` for a few small widths w around each point r; repeated values of the pilot sample
    (up to ``max_atoms``) are tested as single-value events.
    """
    epsilon = check_epsilon(epsilon)
    n_samples = check_int(n_samples, "n_samples", minimum=100)
    alpha = check_probability(alpha, "alpha")
    gen = as_generator(rng, seed)
    a = _sample(mechanism, x, n_samples, gen, vectorized)
    b = _sample(mechanism, x_prime, n_samples, gen, vectorized)
    if a.ndim > 1 or b.ndim > 1:
        a, b = _to_keys(a), _to_keys(b)
    numeric = np.issubdtype(np.asarray(a).dtype, np.number) and np.issubdtype(np.asarray(b).dtype, np.number)
    n_distinct = len(set(np.concatenate([a, b]).tolist()))
    use_discrete = bins == "discrete" or (bins == "auto" and (not numeric or n_distinct <= 200))
    if use_discrete:
        keys, inv = np.unique(np.concatenate([a, b]).astype(str if not numeric else float), return_inverse=True)
        ca = np.bincount(inv[:n_samples], minlength=keys.size)
        cb = np.bincount(inv[n_samples:], minlength=keys.size)
        labels = keys
    else:
        n_bins = 30 if bins == "auto" else check_int(bins, "bins", minimum=2)
        # Bin edges from an independent pilot sample so they do not depend on a, b.
        pilot = np.concatenate(
            [_sample(mechanism, x, pilot_samples, gen, vectorized), _sample(mechanism, x_prime, pilot_samples, gen, vectorized)]
        ).astype(float)
        edges = np.unique(np.quantile(pilot, np.linspace(0, 1, n_bins + 1)[1:-1]))
        ia = np.searchsorted(edges, a.astype(float), side="right")
        ib = np.searchsorted(edges, b.astype(float), side="right")
        ca = np.bincount(ia, minlength=edges.size + 1)
        cb = np.bincount(ib, minlength=edges.size + 1)
        labels = np.concatenate([[-np.inf], edges])
        extra_a, extra_b = _atom_and_reference_events(
            pilot, a.astype(float), b.astype(float), reference_points, max_atoms
        )
    # Events: single cells plus cumulative unions from each end (tails catch
    # losses that spread thinly over many cells).
    events_a = [ca, np.cumsum(ca), np.cumsum(ca[::-1])[::-1]]
    events_b = [cb, np.cumsum(cb), np.cumsum(cb[::-1])[::-1]]
    if not use_discrete:
        events_a.append(extra_a)
        events_b.append(extra_b)
    ka = np.concatenate(events_a)
    kb = np.concatenate(events_b)
    n_events = ka.size
    level = alpha / (2 * n_events)  # Bonferroni: every event, both directions
    a_lo, a_hi = clopper_pearson(ka, n_samples, level)
    b_lo, b_hi = clopper_pearson(kb, n_samples, level)
    with np.errstate(divide="ignore", invalid="ignore"):
        lower = np.maximum(np.log(a_lo / b_hi), np.log(b_lo / a_hi))
        lower = np.where(np.isfinite(lower), lower, -np.inf)
        upper = np.maximum(np.log(a_hi / np.maximum(b_lo, 1e-300)), np.log(b_hi / np.maximum(a_lo, 1e-300)))
        enough = (ka >= min_count) & (kb >= min_count)
        point = np.abs(np.log(ka / kb))
    eps_hat = float(point[enough].max()) if np.any(enough) else 0.0
    eps_lower = float(max(lower.max(), 0.0))
    eps_upper = float(upper[enough].max()) if np.any(enough) else float("inf")
    import pandas as pd

    table = pd.DataFrame({"event": np.arange(ca.size), "label": labels, "count_x": ca, "count_x_prime": cb})
    return AuditResult(epsilon, eps_hat, eps_lower, eps_upper, n_samples, n_events, alpha, table)


def _atom_and_reference_events(pilot: np.ndarray, a: np.ndarray, b: np.ndarray, reference_points: Any,
                               max_atoms: int) -> tuple[np.ndarray, np.ndarray]:
    """Counts, on a and b, of single-value events at the pilot's repeated values and of narrow intervals
    around the reference points. Chosen from the pilot only, so the tested events do not depend on a, b."""
    values, counts = np.unique(pilot, return_counts=True)
    atoms = values[counts >= 2]
    if atoms.size > max_atoms:
        atoms = values[np.argsort(-counts, kind="stable")[:max_atoms]]
    ca = [np.count_nonzero(a == v) for v in atoms]
    cb = [np.count_nonzero(b == v) for v in atoms]
    if reference_points is not None:
        spread = float(np.subtract(*np.quantile(pilot, [0.75, 0.25]))) or 1.0
        for r in np.atleast_1d(np.asarray(reference_points, dtype=float)):
            if not np.isfinite(r):
                continue
            for w in (0.0, 1e-9 * max(1.0, abs(r)), 1e-3 * spread, 1e-2 * spread, 5e-2 * spread):
                ca.append(np.count_nonzero(np.abs(a - r) <= w))
                cb.append(np.count_nonzero(np.abs(b - r) <= w))
    return np.asarray(ca, dtype=np.int64), np.asarray(cb, dtype=np.int64)


def assert_private(result: AuditResult, epsilon: float | None = None) -> None:
    """Raise ``AssertionError`` when the audit's lower confidence bound exceeds ε."""
    eps = result.epsilon_claimed if epsilon is None else float(epsilon)
    if result.epsilon_lower > eps:
        raise AssertionError(f"privacy violation detected: {result}")
