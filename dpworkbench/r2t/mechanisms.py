"""R2T, ExpOPT², OPT² (with early stop) and naive Laplace / fixed-τ LP (spec 2.6–2.11, 3.1–3.2).

All mechanisms take an explicit ``rng`` (Generator, seed, noise back-end, or a
:class:`ScriptedNoise` for the paper's worked examples), spend exactly ``epsilon``
and record it on ``accountant`` before any noise is drawn. Noise is drawn as unit
Laplace variables times the scale, in a fixed order that does not depend on
pruning, so pruned and unpruned runs with the same seed return identical outputs.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from .._validation import check_epsilon, check_positive, check_probability
from ..accounting import Accountant, record_spend
from ..mechanisms.backends import resolve_backend
from .joininfo import JoinInfo
from .truncation import FHat, Truncation, f_exact

OPT2_MAX_LEVELS = 64  # hard cap on the SVT loop (spec 2.9); reaching it has probability < 1e-40


class ScriptedNoise:
    """A noise back-end replaying unit Laplace values (the paper's "−1, +1, ..." examples); not private."""

    name = "scripted"
    seeded = True

    def __init__(self, units: Sequence[float] | None = None, *, alternate_from: float | None = None):
        if units is None and alternate_from is None:
            raise ValueError("give units or alternate_from")
        self._units = list(units) if units is not None else None
        self._alt = alternate_from
        self.i = 0

    def _next(self) -> float:
        if self._units is not None:
            if self.i >= len(self._units):
                raise ValueError("scripted noise exhausted")
            v = self._units[self.i]
        else:
            v = self._alt * (-1) ** self.i
        self.i += 1
        return float(v)

    def laplace(self, scale: float, size=None):
        if size is None:
            return self._next() * scale
        k = int(np.prod(size))
        return np.array([self._next() for _ in range(k)]).reshape(size) * scale

    def _unscripted(self, what: str):
        raise TypeError(f"ScriptedNoise scripts only the Laplace draws of the worked example; {what} needs a "
                        "numpy Generator or a back-end (dpworkbench.mechanisms.backends)")

    def discrete_laplace(self, scale, size=None):  # pragma: no cover - not used
        self._unscripted("discrete Laplace noise")

    def gumbel_argmax(self, logits):  # pragma: no cover
        self._unscripted("the exponential mechanism")

    def gumbel_top_k(self, logits, k):  # pragma: no cover
        self._unscripted("Gumbel top-k")

    def exponential_argmax(self, logits):  # pragma: no cover
        self._unscripted("report-noisy-max")

    @property
    def generator(self):  # pragma: no cover
        self._unscripted("direct generator access")


def _backend(rng: Any):
    return rng if isinstance(rng, ScriptedNoise) else resolve_backend(rng)


def _unit(backend, size=None):
    return backend.laplace(1.0, size)


# ---------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------
def tau_grid(gs: float, base: float = 2.0, *, rounding: str = "ceil") -> np.ndarray:
    """τ^(i) = base^i, i = 1..K with K = ⌈log_base GS⌉ (spec 6.1 #2; ``rounding="floor"`` = authors' code)."""
    gs = check_positive(gs, "gs")
    base = float(base)
    if not base > 1:
        raise ValueError(f"base must be > 1, got {base}")
    if rounding not in ("ceil", "floor"):
        raise ValueError("rounding must be 'ceil' or 'floor'")
    raw = math.log(gs) / math.log(base)
    k = math.ceil(raw - 1e-12) if rounding == "ceil" else math.floor(raw + 1e-12)
    k = max(k, 1)
    return base ** np.arange(1, k + 1, dtype=float)


def _as_truncation(q: Any) -> Truncation:
    if isinstance(q, JoinInfo):
        return Truncation(q)
    if isinstance(q, Truncation):
        return q
    raise ValueError(f"expected a JoinInfo or a Truncation, got {type(q).__name__}")


@dataclass
class R2TResult:
    value: float
    winner_tau: float | None  # None: Q(I,0) = 0 won
    taus: np.ndarray
    truncated: np.ndarray  # Q(I,τ) (NaN where pruned)
    noise: np.ndarray
    penalty: np.ndarray
    candidates: np.ndarray  # Q(I,τ)+noise−penalty (NaN where pruned)
    solved: int
    pruned: int
    seconds: float
    epsilon: float
    extra: dict = field(default_factory=dict)


def r2t(q: JoinInfo | Truncation, *, epsilon: float, beta: float = 0.1, gs: float, base: float = 2.0, rounding: str = "ceil",
        rng: Any = None, prune: bool = True, accountant: Accountant | None = None, note: str = "") -> R2TResult:
    """Race-to-the-Top (spec 2.6, eqs. 8–9). Spends ε (K terms of ε/K each, basic composition).

    Q̃ = max{ max_i Q(I,τ_i) + Lap(Kτ_i/ε) − K ln(K/β) τ_i/ε , Q(I,0)=0 }, τ_i = base^i.
    ``prune=True`` is the exact bound pruning of spec 2.7: τ values whose cheap upper bound
    plus offset cannot beat the running maximum are never solved; the output is identical.
    ``gs`` only sets the grid (utility); privacy holds for any instance.
    """
    epsilon = check_epsilon(epsilon)
    beta = check_probability(beta, "beta")
    trunc = _as_truncation(q)
    taus = tau_grid(gs, base, rounding=rounding)
    K = taus.size
    record_spend(accountant, epsilon, "r2t", note or f"R2T K={K} base={base:g}")
    backend = _backend(rng)
    t0 = time.perf_counter()
    noise = np.asarray(_unit(backend, K), dtype=float) * K * taus / epsilon
    penalty = K * math.log(K / beta) * taus / epsilon
    offset = noise - penalty
    values = np.full(K, np.nan)
    best = 0.0  # Q(I, 0)
    solved = 0
    if prune and trunc.method == "clip":
        prune = False  # closed form: a bound costs as much as the value itself (same output either way)
    if not prune:
        for i in range(K):
            values[i] = trunc.value(taus[i])
            solved += 1
        cand = values + offset
        best = max(best, float(cand.max()))
    else:
        lbs = np.empty(K)
        ubs = np.empty(K)
        for i in range(K):
            lbs[i], ubs[i] = trunc.bounds(taus[i])
        exact = ubs <= lbs  # bounds meet: the value is known exactly
        values[exact] = ubs[exact]
        best = max(best, float((lbs + offset).max()))  # each LB_τ + offset_τ ≤ that τ's candidate
        for i in np.argsort(-(ubs + offset), kind="stable"):
            if exact[i]:
                continue
            if ubs[i] + offset[i] <= best:
                continue
            values[i] = trunc.value(taus[i])
            solved += 1
            best = max(best, values[i] + offset[i])
    cand = values + offset
    finite = np.where(np.isnan(cand), -np.inf, cand)
    winner = int(np.argmax(finite)) if finite.max() > 0 else None
    return R2TResult(float(best), None if winner is None else float(taus[winner]), taus, values, noise, penalty, cand,
                     solved, K - solved, time.perf_counter() - t0, epsilon, {"K": K, "beta": beta, "base": base})


# ---------------------------------------------------------------------------------
# OPT² family
# ---------------------------------------------------------------------------------
@dataclass
class OPT2Result:
    value: float
    tau: float
    level: int
    threshold: float
    noisy_threshold: float
    g_values: dict  # ℓ → Ĝ (or G) values that were computed
    noise: np.ndarray  # unit-scaled SVT query noise per level (scale 6/ε)
    final_noise: float
    truncated: float
    solved: int
    seconds: float
    epsilon: float
    extra: dict = field(default_factory=dict)


def _svt_levels(n_levels_needed: int) -> int:
    return max(1, n_levels_needed)


def _opt2_core(info: JoinInfo, g_of_tau, g_bound, *, epsilon, beta, rng, prune, truncation, accountant, note, label) -> OPT2Result:
    epsilon = check_epsilon(epsilon)
    beta = check_probability(beta, "beta")
    record_spend(accountant, epsilon, label, note or f"{label}: SVT 2ε/3 + Laplace ε/3")
    backend = _backend(rng)
    t0 = time.perf_counter()
    ds = info.DS
    # levels ℓ with τ_ℓ = 2^ℓ < DS need a value; beyond them Ĝ = 0 exactly (Lemma 6.5).
    L = 0
    while 2.0 ** (L + 1) < ds and L + 1 < OPT2_MAX_LEVELS:
        L += 1
    T = -9.0 * math.log(4.0 / beta) / epsilon
    noisy_T = T + float(_unit(backend)) * 3.0 / epsilon
    v = np.asarray(_unit(backend, max(L, 1)), dtype=float) * 6.0 / epsilon
    v = v[:L]
    g_vals: dict[int, float] = {}
    solved = 0

    def g(level: int) -> float:
        nonlocal solved
        if level not in g_vals:
            g_vals[level] = g_of_tau(2.0 ** level)
            solved += 1
        return g_vals[level]

    chosen = None
    if not prune:  # Algorithm 2: sequential SVT, ℓ = 1, 2, ...
        for level in range(1, L + 1):
            if g(level) + v[level - 1] > noisy_T:
                chosen = level
                break
    else:  # Algorithm 4 (exact): solve large τ first; F̂ is monotone in τ, so F̂(τ_ℓ+1) bounds F̂(τ_ℓ)
        ub = g_bound
        trig = []
        for level in range(L, 0, -1):
            rest = v[:level].max()
            if ub + rest <= noisy_T:
                break  # no ℓ' ≤ level can cross: every Ĝ(τ_ℓ') ≤ ub
            if ub + v[level - 1] <= noisy_T:
                continue
            val = g(level)
            ub = min(ub, val)
            if val + v[level - 1] > noisy_T:
                trig.append(level)
        chosen = min(trig) if trig else None
    extra_draws = []
    if chosen is None:  # all levels ≥ L+1 have Ĝ = 0: continue the SVT with fresh noise
        level = L
        while chosen is None:
            level += 1
            if level > OPT2_MAX_LEVELS:
                raise RuntimeError("SVT did not stop within the hard cap of levels (probability < 1e-40)")
            draw = float(_unit(backend)) * 6.0 / epsilon
            extra_draws.append(draw)
            if 0.0 + draw > noisy_T:
                chosen = level
    tau = 2.0 ** chosen
    qt = truncation.value(tau)
    final = float(_unit(backend)) * 3.0 * tau / epsilon
    return OPT2Result(qt + final, tau, chosen, T, noisy_T, dict(sorted(g_vals.items())), np.concatenate([v, extra_draws]),
                      final, qt, solved, time.perf_counter() - t0, epsilon, {"beta": beta, "L": L})


def opt2(info: JoinInfo, *, epsilon: float, beta: float = 0.1, rng: Any = None, prune: bool = True,
         fhat: FHat | None = None, truncation: Truncation | None = None, accountant: Accountant | None = None,
         note: str = "") -> OPT2Result:
    """OPT² (spec 2.9; Algorithm 2 with G → Ĝ; SPJA: same LP on pre-projection results, spec 2.10). Spends ε.

    SVT with ε_svt = 2ε/3 on Ĝ(I, 2^ℓ), threshold −9 ln(4/β)/ε (T̃ = T + Lap(3/ε), Q̃_ℓ = Ĝ + Lap(6/ε)),
    then Q(I, τ̃) + Lap(3τ̃/ε) with the LP-SJA (LP-SPJA) truncation. No GS_Q needed.
    ``prune=True``: Algorithm 4's early stop made exact (identical output; see :func:`_opt2_core`).
    """
    fh = fhat or FHat(info)
    tr = truncation or Truncation(info)
    return _opt2_core(info, fh.g, 0.0, epsilon=epsilon, beta=beta, rng=rng, prune=prune, truncation=tr,
                      accountant=accountant, note=note, label="opt2")


def exp_opt2(info: JoinInfo, *, epsilon: float, beta: float = 0.1, rng: Any = None, f_values: dict | None = None,
             truncation: Truncation | None = None, accountant: Accountant | None = None, note: str = "") -> OPT2Result:
    """ExpOPT² (Algorithm 2 with the exact G = F − N; exponential time, tiny inputs). Spends ε.

    ``f_values`` (τ → F) overrides the exact computation, e.g. with the paper's printed
    (wrong) Ex. 6.3 values for the labelled paper-version reproduction.
    """
    tr = truncation or Truncation(info)

    def g(tau):
        if f_values is not None and tau in f_values:
            return float(f_values[tau]) - info.n
        return f_exact(info, tau) - info.n

    return _opt2_core(info, g, 0.0, epsilon=epsilon, beta=beta, rng=rng, prune=False, truncation=tr,
                      accountant=accountant, note=note, label="exp-opt2")


# ---------------------------------------------------------------------------------
# simple baselines (spec 3.1, 3.2)
# ---------------------------------------------------------------------------------
def naive_laplace(info: JoinInfo, *, epsilon: float, gs: float, rng: Any = None, accountant: Accountant | None = None,
                  note: str = "") -> float:
    """Q(I) + Lap(GS_Q/ε): the worst-case reference (valid only when GS_Q truly bounds the instance class). Spends ε."""
    epsilon = check_epsilon(epsilon)
    gs = check_positive(gs, "gs")
    record_spend(accountant, epsilon, "laplace", note or "naive Laplace, sensitivity GS_Q")
    return info.answer + float(_unit(_backend(rng))) * gs / epsilon


def fixed_tau(q: JoinInfo | Truncation, tau: float, *, epsilon: float, rng: Any = None, accountant: Accountant | None = None,
              note: str = "") -> float:
    """Q_LP(I, τ) + Lap(τ/ε) for a data-independent τ ("LP" baseline, Kasiviswanathan et al.). Spends ε."""
    epsilon = check_epsilon(epsilon)
    tau = check_positive(tau, "tau")
    trunc = _as_truncation(q)
    record_spend(accountant, epsilon, "lp-fixed-tau", note or f"LP truncation at τ={tau:g}")
    return trunc.value(tau) + float(_unit(_backend(rng))) * tau / epsilon


def random_tau(q: JoinInfo | Truncation, *, epsilon: float, gs: float, rng: Any = None, accountant: Accountant | None = None,
               note: str = "") -> tuple[float, float]:
    """LP baseline of Table 2: τ uniform on {2, 4, ..., GS} (data independent), then :func:`fixed_tau`. Returns (value, τ)."""
    taus = tau_grid(gs, 2.0)
    backend = _backend(rng)  # τ and the noise come from the same back-end (a release back-end stays one)
    tau = float(taus[int(backend.gumbel_argmax(np.zeros(taus.size)))])  # Gumbel-max over equal logits: uniform
    return fixed_tau(q, tau, epsilon=epsilon, rng=backend, accountant=accountant, note=note), tau


# ---------------------------------------------------------------------------------
# theory (spec 2.14)
# ---------------------------------------------------------------------------------
def r2t_bound(ds: float, *, epsilon: float, beta: float, gs: float, base: float = 2.0) -> float:
    """Theorem 5.1 error bound with τ* = DS: 4 log(GS) ln(log(GS)/β) τ*/ε (base b: 2b instead of 4)."""
    K = tau_grid(gs, base).size
    return 2 * base * K * math.log(K / beta) * ds / epsilon


def opt2_bound(ds: float, *, epsilon: float, beta: float) -> float:
    """Theorem 6.8: 24 DS/ε · ln(4 log2(2DS)/β)."""
    return 24 * ds / epsilon * math.log(4 * math.log2(max(2 * ds, 2.0)) / beta)


def ls_lower_bound(gs: float, *, epsilon: float) -> float:
    """§7: LS (Tao et al.) error ≥ GS/(6ε ln(4e GS)) with probability ≥ 1/(8e²) on every instance."""
    return gs / (6 * epsilon * math.log(4 * math.e * gs))


__all__ = ["OPT2Result", "R2TResult", "ScriptedNoise", "exp_opt2", "fixed_tau", "naive_laplace", "opt2", "opt2_bound",
           "r2t", "r2t_bound", "random_tau", "ls_lower_bound", "tau_grid"]


# ---------------------------------------------------------------------------------
# vectorised repetitions over cached non-private values (experiments, audits, widgets)
# ---------------------------------------------------------------------------------
def r2t_samples(truncated: np.ndarray, taus: np.ndarray, *, epsilon: float, beta: float, size: int,
                rng: np.random.Generator) -> np.ndarray:
    """``size`` independent R2T outputs given the exact Q(I, τ_i) values (same law as :func:`r2t`)."""
    epsilon = check_epsilon(epsilon)
    beta = check_probability(beta, "beta")
    taus = np.asarray(taus, dtype=float)
    K = taus.size
    noise = rng.laplace(0.0, 1.0, (size, K)) * (K * taus / epsilon)
    cand = np.asarray(truncated, dtype=float)[None, :] + noise - K * math.log(K / beta) * taus / epsilon
    return np.maximum(cand.max(axis=1), 0.0)


def opt2_samples(g_values: dict, truncated: dict, *, epsilon: float, beta: float, size: int,
                 rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``size`` independent OPT² outputs given Ĝ(I, 2^ℓ) for ℓ = 1..L (Ĝ = 0 beyond) and Q(I, 2^ℓ) per ℓ.

    ``truncated`` maps ℓ → Q(I, 2^ℓ) and must cover every level up to L+1 (larger levels use Q(I)).
    Returns (values, chosen τ̃).
    """
    epsilon = check_epsilon(epsilon)
    beta = check_probability(beta, "beta")
    L = max(g_values) if g_values else 0
    levels = OPT2_MAX_LEVELS
    g = np.zeros(levels)
    for lv, val in g_values.items():
        g[lv - 1] = val
    T = -9.0 * math.log(4.0 / beta) / epsilon
    t_noisy = T + rng.laplace(0.0, 3.0 / epsilon, size)
    q = g[None, :] + rng.laplace(0.0, 6.0 / epsilon, (size, levels))
    above = q > t_noisy[:, None]
    if not above.any(axis=1).all():
        raise RuntimeError("SVT did not stop within the hard cap of levels")
    chosen = above.argmax(axis=1) + 1
    full = truncated.get("answer")
    qt = np.array([truncated.get(int(c), full) for c in chosen], dtype=float)
    tau = 2.0 ** chosen
    return qt + rng.laplace(0.0, 1.0, size) * 3.0 * tau / epsilon, tau


def opt2_cache(info: JoinInfo, fhat: FHat | None = None, trunc: Truncation | None = None) -> tuple[dict, dict]:
    """Ĝ(I, 2^ℓ) for ℓ ≤ L and Q(I, 2^ℓ) for ℓ ≤ L+1 (non-private values for :func:`opt2_samples`)."""
    fh = fhat or FHat(info)
    tr = trunc or Truncation(info)
    L = 0
    while 2.0 ** (L + 1) < info.DS and L + 1 < OPT2_MAX_LEVELS:
        L += 1
    g = {lv: fh.g(2.0 ** lv) for lv in range(1, L + 1)}
    q = {lv: tr.value(2.0 ** lv) for lv in range(1, L + 2)}
    q["answer"] = info.answer
    return g, q
