"""The non-private model of local dampening: sensitivity functions, the dampening function D and the
log-weights of LD / shifted LD (spec §1.9–2.10). Deterministic and cacheable; nothing here spends ε.

A sensitivity function evaluated at one database ``x`` is represented as a matrix
``delta[r, t]`` for the public horizon ``t = 0..T-1``; for ``t >= T`` it is the global
sensitivity ``Δu`` (public-horizon truncation, spec §1.9, admissible and bounded when the
truncated function is admissible and ``T`` does not depend on the data).

The application models sit beside this module: ``ebc`` (egocentric betweenness and δ^EBC),
``median`` (median utility, element LS, box bound) and ``id3`` (information gain and LS^IG).

References
----------
V. A. E. de Farias, *Local Dampening: Differential Privacy for Non-numeric Queries via Local
Sensitivity*, PhD thesis, UFC 2021 (PVLDB 14(4) 2020), Ch. 3 (Defs. 3.2.1–3.3.1) and Ch. 4
(Def. 4.2.1).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable

import numpy as np

from dpworkbench._validation import check_finite_array, check_int, check_positive
from dpworkbench.mechanisms import exponential_logits

__all__ = [
    "SensitivityFunction", "SensitivityMatrix", "bound_delta", "check_admissible_bruteforce", "dampen", "is_monotone",
    "ld_logits", "sld_logits", "sld_logits_explicit_shift", "sld_slack", "sld_utility",
]


def bound_delta(delta: Any, global_sensitivity: float, *, floor: float | None = None) -> np.ndarray:
    """min(δ, Δu) (Lemma 3.2.2) and max(·, η) with a constant floor η ∈ (0, Δu] (admissible, spec §1.9).

    References
    ----------
    de Farias 2021, Lemma 3.2.2 (min(δ, Δu)); spec §1.9 (constant floor η).
    """
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
    """δ(x, t, r) for one database: ``values[r, t]`` for t < horizon, Δu beyond (bounded).

    References
    ----------
    de Farias 2021, Def. 1.8 (sensitivity function), Defs. 3.2.1–3.2.2 (admissible, bounded); spec §1.9 (public horizon).
    """

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


@dataclass(frozen=True)
class SensitivityFunction:
    """A sensitivity function δ(x, t, ·) (Def. 1.8) as a checkable object.

    ``fn(x, t)`` returns δ(x, t, r) for every r of the range of ``x``. Evaluating the object applies, in order,
    min(·, Δu) (Lemma 3.2.2: admissible and bounded-friendly; always applied), the constant floor η ∈ (0, Δu]
    (``with_floor``; admissible, avoids δ = 0 in D) and the public horizon T (``with_horizon``; δ = Δu for t ≥ T,
    admissible and bounded when T does not depend on the data, spec §1.9).

    Checks: ``check_admissible`` (both conditions of Def. 3.2.1, brute force over given inputs and all their
    neighbours), ``assert_admissible`` (raises ``ValueError`` naming the violated condition), ``check_bounded``
    (Def. 3.2.2), ``monotonicity`` (Defs. 3.2.3–3.2.5). ``privacy_unverified=True`` marks a function known *not*
    to be admissible (the thesis' median Candidates); LD/SLD refuse it unless explicitly allowed.

    References
    ----------
    de Farias 2021, Def. 1.8, Defs. 3.2.1–3.2.5; spec §1.9.
    """

    fn: Callable[[Any, int], Any]
    global_sensitivity: float
    name: str = ""
    horizon: int | None = None
    floor: float | None = None
    privacy_unverified: bool = False

    def __post_init__(self):
        gs = check_positive(self.global_sensitivity, "global_sensitivity")
        object.__setattr__(self, "global_sensitivity", gs)
        if self.horizon is not None:
            object.__setattr__(self, "horizon", check_int(self.horizon, "horizon", minimum=1))
        if self.floor is not None:
            eta = check_positive(self.floor, "floor")
            if eta > gs:
                raise ValueError(f"floor must be in (0, global_sensitivity], got {self.floor} > {gs}")

    def __call__(self, x: Any, t: int) -> np.ndarray:
        t = check_int(t, "t", minimum=0)
        raw = np.atleast_1d(np.asarray(self.fn(x, min(t, self.horizon - 1) if self.horizon else t), dtype=float))
        if self.horizon is not None and t >= self.horizon:
            return np.full(raw.shape, self.global_sensitivity)
        return bound_delta(raw, self.global_sensitivity, floor=self.floor)

    def with_floor(self, floor: float) -> "SensitivityFunction":
        """max(δ, η) with a constant η ∈ (0, Δu] (admissible, spec §1.9)."""
        return replace(self, floor=floor)

    def with_horizon(self, horizon: int) -> "SensitivityFunction":
        """δ' = δ for t < T, Δu for t ≥ T; T must be public (data-independent), else condition 2 breaks."""
        return replace(self, horizon=horizon)

    def matrix(self, x: Any) -> SensitivityMatrix:
        """δ(x, t, r) for t < T as a ``SensitivityMatrix`` (bounded: Δu from T on); needs a public horizon and a floor > 0."""
        if self.horizon is None:
            raise ValueError(f"sensitivity function {self.name!r} needs a public horizon T (with_horizon) to be evaluated as a matrix")
        if self.floor is None:
            raise ValueError(f"sensitivity function {self.name!r} needs a floor η > 0 (with_floor) so that D is defined")
        vals = np.column_stack([self(x, t) for t in range(self.horizon)])
        return SensitivityMatrix(vals, self.global_sensitivity, name=self.name, privacy_unverified=self.privacy_unverified)

    def check_admissible(self, inputs: Iterable[Any], neighbours: Callable[[Any], Iterable[Any]],
                         local_sensitivity0: Callable[[Any], Any], *, t_max: int = 3, tol: float = 1e-9) -> list[dict]:
        """Violations of Def. 3.2.1 (condition 1: δ(x,0,r) ≥ LS(x,0,r); condition 2: δ(x,t+1,r) ≥ δ(y,t,r) for y ~ x)."""
        return check_admissible_bruteforce(inputs, neighbours, self, local_sensitivity0, t_max=t_max, tol=tol)

    def assert_admissible(self, inputs: Iterable[Any], neighbours: Callable[[Any], Iterable[Any]],
                          local_sensitivity0: Callable[[Any], Any], *, t_max: int = 3) -> None:
        """Raise ``ValueError`` when the brute-force check finds a violation (first one reported)."""
        bad = self.check_admissible(inputs, neighbours, local_sensitivity0, t_max=t_max)
        if bad:
            b = bad[0]
            if b["condition"] == 1:
                what = f"condition 1 fails: δ(x,0,r={b['r']}) = {b['delta']:g} < LS(x,0,r) = {b['ls']:g} at x = {b['x']!r}"
            else:
                what = (f"condition 2 fails: δ(x,{b['t'] + 1},r={b['r']}) = {b['delta_x']:g} < δ(y,{b['t']},r) = {b['delta_y']:g} "
                        f"for x = {b['x']!r} and its neighbour y = {b['y']!r}")
            raise ValueError(f"sensitivity function {self.name!r} is not admissible ({len(bad)} violations); {what}. "
                             "LD/SLD would not be differentially private with it")

    def check_bounded(self, inputs: Iterable[Any], n: Callable[[Any], int] | int, *, extra: int = 3, tol: float = 1e-9) -> list[dict]:
        """Violations of Def. 3.2.2: δ(x,t,r) = Δu for t ≥ n (checked for t = n..n+extra); ``n`` an int or a function of x."""
        bad = []
        for x in inputs:
            nx_ = n(x) if callable(n) else n
            for t in range(nx_, nx_ + extra + 1):
                d = self(x, t)
                for r in np.flatnonzero(np.abs(d - self.global_sensitivity) > tol):
                    bad.append({"x": x, "t": t, "r": int(r), "delta": float(d[r])})
        return bad

    def monotonicity(self, x: Any, utilities: Any, *, t_max: int | None = None) -> str:
        """'flat', 'non-decreasing', 'non-increasing' or 'none' at x for t < t_max (default: the horizon, else 4)."""
        T = t_max or self.horizon or 4
        return is_monotone(utilities, np.column_stack([self(x, t) for t in range(T)]))


def is_monotone(utilities: Any, delta: Any) -> str:
    """'flat', 'non-decreasing', 'non-increasing' or 'none' (Defs. 3.2.3–3.2.5), checked for every t (column).

    As defined: non-decreasing means u(r) ≥ u(r') ⇒ δ(r) ≥ δ(r') for all pairs, so elements with *equal* utility
    must have equal δ (the thesis' "weak monotonicity" of Fig. 16 is not monotonicity).

    References
    ----------
    de Farias 2021, Defs. 3.2.3–3.2.5.
    """
    u = check_finite_array(utilities, "utilities").astype(float)
    d = np.atleast_2d(np.asarray(delta, dtype=float))
    if d.shape[0] == 1:
        return "flat"
    if d.shape[0] != u.size:
        raise ValueError(f"delta has {d.shape[0]} rows but there are {u.size} utilities")
    if np.all(d == d[:1]):
        return "flat"
    ge = u[:, None] >= u[None, :]                      # pairs (r, r') with u(r) ≥ u(r')
    diff = d[:, None, :] - d[None, :, :]               # δ(r) − δ(r') per t
    if np.all(diff[ge] >= -1e-12):
        return "non-decreasing"
    if np.all(diff[ge] <= 1e-12):
        return "non-increasing"
    return "none"


def dampen(utilities: Any, delta: SensitivityMatrix | Any, global_sensitivity: float | None = None) -> np.ndarray:
    """D_{u,δ}(x, r) (Def. 3.3.1), vectorised over r with prefix sums and a saturated Δu tail.

    Odd, continuous, strictly increasing in u; slope 1/δ(x,t,r) on |u| ∈ [b(t), b(t+1)).

    References
    ----------
    de Farias 2021, Def. 3.3.1 and Lemma 3.3.1.
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
    """Log-weights ε·D/2 of local dampening (EM with sensitivity 1 on D).

    References
    ----------
    de Farias 2021, Def. 3.4.1.
    """
    return exponential_logits(dampen(utilities, delta), epsilon=epsilon, sensitivity=1.0)


def sld_slack(delta: SensitivityMatrix) -> np.ndarray:
    """S_r = Σ_{t<T} (Δu − δ(x,t,r)) ≥ 0 (spec §0.2).

    References
    ----------
    de Farias 2021, Def. 4.2.1; spec §0.2 (closed form).
    """
    return np.sum(delta.global_sensitivity - delta.values, axis=1)


def sld_utility(utilities, delta: SensitivityMatrix, direction: str) -> np.ndarray:
    """The shifted score u − S_r (``direction="non-decreasing"``) or u + S_r (``"non-increasing"``) on which shifted LD
    runs the exponential mechanism with sensitivity Δu.

    References
    ----------
    de Farias 2021, Def. 4.2.1; spec §0.2 (closed form).
    """
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
    """Closed form of shifted LD: ε(u ∓ S_r)/(2Δu) (spec §0.2). Never forms the thesis' shift s0.

    References
    ----------
    de Farias 2021, Def. 4.2.1; spec §0.2 (closed form).
    """
    return exponential_logits(sld_utility(utilities, delta, direction), epsilon=epsilon, sensitivity=delta.global_sensitivity)


def sld_logits_explicit_shift(utilities: Any, delta: SensitivityMatrix, *, epsilon: float, direction: str = "non-decreasing") -> np.ndarray:
    """The thesis' explicit path: D(u − s0) with s0 = TΔu + max u (or D(u + s0), s0 = TΔu − min u).

    Only for checking the closed form on small inputs: refuses when s0 exceeds 2^53.

    References
    ----------
    de Farias 2021, Def. 4.2.1 (explicit shift s0).
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

    References
    ----------
    de Farias 2021, Def. 3.2.1.
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
