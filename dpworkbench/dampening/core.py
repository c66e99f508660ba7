"""Local dampening (LD) and shifted local dampening (SLD), spec §1.9–2.10.

A sensitivity function evaluated at one database ``x`` is represented as a matrix
``delta[r, t]`` for the public horizon ``t = 0..T-1``; for ``t >= T`` it is the global
sensitivity ``Δu`` (public-horizon truncation, spec §1.9, admissible and bounded when the
truncated function is admissible and ``T`` does not depend on the data).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

import numpy as np

from dpworkbench._validation import check_epsilon, check_finite_array, check_positive
from dpworkbench.mechanisms import exponential_mechanism, exponential_logits

__all__ = [
    "SensitivityMatrix", "bound_delta", "dampen", "ld_logits", "local_dampening", "shifted_local_dampening",
    "sld_logits", "sld_slack", "sld_logits_explicit_shift", "check_admissible_bruteforce", "is_monotone",
]


def bound_delta(delta: Any, global_sensitivity: float, *, floor: float | None = None) -> np.ndarray:
    """min(δ, Δu) (Lemma 3.2.2) and max(·, η) with a constant floor η ∈ (0, Δu] (admissible, spec §1.9)."""
    gs = check_positive(global_sensitivity, "global_sensitivity")
    d = np.minimum(np.asarray(delta, dtype=float), gs)
    if floor is not None:
        eta = check_positive(floor, "floor")
        if eta > gs:
            raise ValueError(f"floor must be in (0, global_sensitivity], got {floor} > {gs}")
        d = np.maximum(d, eta)
    return d


@dataclass(frozen=True)
class SensitivityMatrix:
    """δ(x, t, r) for one database: ``values[r, t]`` for t < horizon, Δu beyond (bounded)."""

    values: np.ndarray
    global_sensitivity: float
    name: str = ""
    privacy_unverified: bool = False  # True for the thesis' non-admissible median Candidates

    def __post_init__(self):
        v = np.atleast_2d(np.asarray(self.values, dtype=float))
        if not np.all(np.isfinite(v)):
            raise ValueError("sensitivity values must be finite")
        if np.any(v <= 0):
            raise ValueError("sensitivity values must be > 0 (floor them with bound_delta(..., floor=η))")
        if np.any(v > self.global_sensitivity * (1 + 1e-12)):
            raise ValueError("sensitivity values must be ≤ global_sensitivity (apply bound_delta)")
        object.__setattr__(self, "values", v)

    @property
    def horizon(self) -> int:
        return self.values.shape[1]

    def at(self, t: int) -> np.ndarray:
        return self.values[:, t] if t < self.horizon else np.full(self.values.shape[0], self.global_sensitivity)

    def monotonicity(self, utilities: Any) -> str:
        """'flat', 'non-decreasing', 'non-increasing' or 'none' (Defs. 3.2.3–3.2.5)."""
        return is_monotone(utilities, self.values)


def is_monotone(utilities: Any, delta: Any) -> str:
    u = np.asarray(utilities, dtype=float)
    d = np.atleast_2d(np.asarray(delta, dtype=float))
    if np.all(d == d[:1]):
        return "flat"
    order = np.lexsort((np.zeros_like(u), u))
    du = d[order]
    uu = u[order]
    inc = np.all(np.diff(du, axis=0) >= -1e-12, axis=None) or _tie_ok(uu, du, 1)
    if inc:
        return "non-decreasing"
    dec = np.all(np.diff(du, axis=0) <= 1e-12, axis=None) or _tie_ok(uu, du, -1)
    return "non-increasing" if dec else "none"


def _tie_ok(u, d, sign):
    # strict check on pairs with u_r > u_r'
    for i in range(len(u)):
        for j in range(len(u)):
            if u[i] > u[j] and np.any(sign * (d[i] - d[j]) < -1e-12):
                return False
    return True


def dampen(utilities: Any, delta: SensitivityMatrix | Any, global_sensitivity: float | None = None) -> np.ndarray:
    """D_{u,δ}(x, r) (Def. 3.3.1), vectorised over r with prefix sums and a saturated Δu tail.

    Odd, continuous, strictly increasing in u; slope 1/δ(x,t,r) on |u| ∈ [b(t), b(t+1)).
    """
    if not isinstance(delta, SensitivityMatrix):
        if global_sensitivity is None:
            raise ValueError("global_sensitivity is required when delta is a plain array")
        delta = SensitivityMatrix(np.atleast_2d(delta), float(global_sensitivity))
    u = check_finite_array(utilities, "utilities").astype(float)
    d = delta.values
    if d.shape[0] == 1 and u.size > 1:
        d = np.broadcast_to(d, (u.size, d.shape[1]))
    if d.shape[0] != u.size:
        raise ValueError(f"delta has {d.shape[0]} rows but there are {u.size} utilities")
    T = d.shape[1]
    gs = delta.global_sensitivity
    a = np.abs(u)
    B = np.concatenate([np.zeros((u.size, 1)), np.cumsum(d, axis=1)], axis=1)  # B[:, k] = b(k), k=0..T
    k = np.sum(B[:, 1:] <= a[:, None], axis=1)  # number of completed segments
    rows = np.arange(u.size)
    inside = k < T
    res = np.empty(u.size)
    kk = np.minimum(k, T - 1)
    res[inside] = k[inside] + (a[inside] - B[rows, k][inside]) / d[rows, kk][inside]
    res[~inside] = T + (a[~inside] - B[~inside, T]) / gs
    return np.sign(u) * res


def ld_logits(utilities: Any, delta: SensitivityMatrix, *, epsilon: float) -> np.ndarray:
    """Log-weights ε·D/2 of local dampening (EM with sensitivity 1 on D)."""
    return exponential_logits(dampen(utilities, delta), epsilon=epsilon, sensitivity=1.0)


def _require_admissible(delta: SensitivityMatrix, allow_unverified: bool, what: str) -> None:
    if not isinstance(delta, SensitivityMatrix):
        raise ValueError(f"delta must be a SensitivityMatrix, got {type(delta).__name__}")
    if delta.privacy_unverified and not allow_unverified:
        raise ValueError(f"{what} requires an admissible sensitivity function, but delta {delta.name or ''!s} is marked "
                         "privacy_unverified (e.g. the thesis' median Candidates, which under-estimates the local sensitivity); "
                         "pass allow_unverified=True only for labelled, non-private reproductions of the thesis")


def local_dampening(utilities: Any, delta: SensitivityMatrix, *, epsilon: float, rng=None, accountant=None, note: str = "",
                    allow_unverified: bool = False) -> int:
    """M_LD (Def. 3.4.1): ε-DP when δ is admissible (Thm 3.5.1). Spends ε (recorded).

    Refuses a δ marked ``privacy_unverified`` unless ``allow_unverified=True`` (then the output is *not* private)."""
    _require_admissible(delta, allow_unverified, "local dampening")
    return exponential_mechanism(dampen(utilities, delta), epsilon=epsilon, sensitivity=1.0, rng=rng,
                                 accountant=accountant, note=note or "local dampening")


def sld_slack(delta: SensitivityMatrix) -> np.ndarray:
    """S_r = Σ_{t<T} (Δu − δ(x,t,r)) ≥ 0 (spec §0.2)."""
    return np.sum(delta.global_sensitivity - delta.values, axis=1)


def _sld_utility(utilities, delta: SensitivityMatrix, direction: str) -> np.ndarray:
    u = check_finite_array(utilities, "utilities").astype(float)
    s = sld_slack(delta)
    if s.size == 1 and u.size > 1:
        s = np.full(u.size, s[0])
    if direction == "non-decreasing":
        return u - s
    if direction == "non-increasing":
        return u + s
    raise ValueError(f"direction must be 'non-decreasing' or 'non-increasing', got {direction!r}")


def sld_logits(utilities: Any, delta: SensitivityMatrix, *, epsilon: float, direction: str = "non-decreasing") -> np.ndarray:
    """Closed form of shifted LD: ε(u ∓ S_r)/(2Δu) (spec §0.2). Never forms the thesis' shift s0."""
    return exponential_logits(_sld_utility(utilities, delta, direction), epsilon=epsilon, sensitivity=delta.global_sensitivity)


def shifted_local_dampening(utilities: Any, delta: SensitivityMatrix, *, epsilon: float, direction: str = "non-decreasing",
                            rng=None, accountant=None, note: str = "", allow_unverified: bool = False) -> int:
    """M_SLD (Def. 4.2.1) via its closed form. ε-DP for admissible and bounded δ (Thm 4.3.1). Spends ε.

    Refuses a δ marked ``privacy_unverified`` unless ``allow_unverified=True`` (then the output is *not* private)."""
    _require_admissible(delta, allow_unverified, "shifted local dampening")
    return exponential_mechanism(_sld_utility(utilities, delta, direction), epsilon=epsilon,
                                 sensitivity=delta.global_sensitivity, rng=rng, accountant=accountant,
                                 note=note or "shifted local dampening")


def sld_logits_explicit_shift(utilities: Any, delta: SensitivityMatrix, *, epsilon: float, direction: str = "non-decreasing") -> np.ndarray:
    """The thesis' explicit path: D(u − s0) with s0 = TΔu + max u (or D(u + s0), s0 = TΔu − min u).

    Only for checking the closed form on small inputs: refuses when s0 exceeds 2^53.
    """
    u = check_finite_array(utilities, "utilities").astype(float)
    gs = delta.global_sensitivity
    if direction == "non-decreasing":
        s0 = delta.horizon * gs + u.max()
        shifted = u - s0
    else:
        s0 = delta.horizon * gs - u.min()
        shifted = u + s0
    if abs(s0) > 2.0 ** 53:
        raise ValueError("explicit shift s0 exceeds 2^53; use the closed form sld_logits")
    return exponential_logits(dampen(shifted, delta), epsilon=epsilon, sensitivity=1.0)


def check_admissible_bruteforce(
    inputs: Iterable[Any],
    neighbours: Callable[[Any], Iterable[Any]],
    delta: Callable[[Any, int], np.ndarray],
    local_sensitivity0: Callable[[Any], np.ndarray],
    *,
    t_max: int = 3,
    tol: float = 1e-9,
) -> list[dict]:
    """All violations of Def. 3.2.1 over the given inputs and all their neighbours.

    Condition 1: δ(x,0,r) ≥ LS(x,0,r). Condition 2: δ(x,t+1,r) ≥ δ(y,t,r) for y ~ x.
    ``delta(x, t)`` and ``local_sensitivity0(x)`` return arrays over the range R.
    """
    bad: list[dict] = []
    for x in inputs:
        d0 = np.asarray(delta(x, 0), float)
        ls0 = np.asarray(local_sensitivity0(x), float)
        for r in np.flatnonzero(d0 < ls0 - tol):
            bad.append({"condition": 1, "x": x, "r": int(r), "delta": d0[r], "ls": ls0[r]})
        nbrs = list(neighbours(x))
        for t in range(t_max):
            dx = np.asarray(delta(x, t + 1), float)
            for y in nbrs:
                dy = np.asarray(delta(y, t), float)
                for r in np.flatnonzero(dx < dy - tol):
                    bad.append({"condition": 2, "x": x, "y": y, "t": t, "r": int(r), "delta_x": dx[r], "delta_y": dy[r]})
    return bad
