"""R2T, ExpOPT², OPT² (with early stop) and naive Laplace / fixed-τ LP (spec 2.6–2.11, 3.1–3.2).

Every mechanism takes an explicit ``rng``: ``None`` (the default) is a **release** and uses the
floating-point-safe OpenDP back-end; an int seed or a ``numpy.random.Generator`` is a seeded numpy research run
(tests, figures: not a private release); :class:`ScriptedNoise` replays the paper's worked examples. Each
records its spends (its pure ``privacy_cost_*`` plan) on ``accountant`` before any noise is drawn and returns a
:class:`~dpworkbench.accounting.Release`: the private value, the ledger (the one channel for ε), the public
inputs it assumed and, apart and NOT PRIVATE, the exact diagnostics.

Every noisy value is ``backend.add_laplace(value, final_scale)``: on the release back-end OpenDP samples the
noisy value itself, so the output support does not depend on the data (never a unit sample times the scale in
numpy, which leaves data-dependent holes in the support). Research back-ends (seeded numpy, scripted) may draw
R2T's and OPT²'s noise *ahead* of the values so that the exact pruning can skip τ values; pruned and unpruned
runs with the same seed return identical outputs. The release back-end cannot give the noise without the value,
so there every τ (every SVT level up to the stop) is solved instead: the same output law.
"""

from __future__ import annotations

import math
import time
from typing import Any, Sequence

import numpy as np

from .._validation import check_epsilon, check_positive, check_probability, check_options
from ..accounting import AccountantLike, LedgerEntry, Release, open_ledger, planned, record_spend
from ..mechanisms.backends import NumpyBackend, RngLike, check_rng
from .joininfo import JoinInfo
from .model import FHat, Truncation, f_exact

OPT2_MAX_LEVELS = 64  # hard cap on the SVT loop (spec 2.9); reaching it has probability < 1e-40

#: The neighbouring relation every mechanism here is ε-DP under (spec 1.2; node-DP for graphs, spec 1.3).
RELATION = ("delete or add one tuple of the primary private relation together with every tuple referencing it "
            "(for graphs under node-DP: one node with its edges)")


class ScriptedNoise:
    """A noise back-end replaying unit Laplace values (the paper's "−1, +1, ..." examples); not private.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, Examples 5.2 and 6.7 (the scripted unit Laplace draws −1, +1, −1, …).
    """

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

    def add_laplace(self, value, scale):
        """value + (next scripted unit) · scale, element-wise (the worked examples' outputs)."""
        arr = np.asarray(value, dtype=float)
        if arr.ndim == 0 and np.ndim(scale) == 0:
            return float(arr) + self._next() * float(scale)
        sc = np.broadcast_to(np.asarray(scale, dtype=float), arr.shape)
        return arr + np.array([self._next() for _ in range(arr.size)]).reshape(arr.shape) * sc

    def _unscripted(self, what: str):
        raise TypeError(f"ScriptedNoise scripts only the Laplace draws of the worked example; {what} needs a "
                        "numpy Generator or a back-end (dpworkbench.mechanisms.backends)")

    def discrete_laplace(self, scale, size=None):  # pragma: no cover - not used
        self._unscripted("discrete Laplace noise")

    def add_discrete_laplace(self, value, scale):  # pragma: no cover - not used
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


def _research(backend) -> bool:
    """True for back-ends that may hand out noise apart from the value (seeded numpy, scripted): not releases."""
    return isinstance(backend, (NumpyBackend, ScriptedNoise))


def research_generator(rng: RngLike, mechanism: str, why: str) -> np.random.Generator:
    """The numpy generator of a research-only mechanism; refuses a release back-end (and ``rng=None``) with an
    error naming the mechanism and why, instead of silently falling back to numpy noise."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return np.random.default_rng(int(rng))
    if isinstance(rng, NumpyBackend):
        return rng.generator
    raise ValueError(f"{mechanism} cannot run on a release back-end ({why}); it is a research baseline: pass a "
                     f"seeded numpy Generator or an int seed (got {type(rng).__name__})")


# ---------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------
def tau_grid(gs: float, base: float = 2.0, *, rounding: str = "ceil") -> np.ndarray:
    """τ^(i) = base^i, i = 1..K with K = ⌈log_base GS⌉ (spec 6.1 #2; ``rounding="floor"`` = authors' code).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §5 (τ_i = 2^i, i = 1..log GS_Q); spec 2.6 and 6.1 #2 (the authors' base 5.5).
    """
    gs = check_positive(gs, "gs")
    base = float(base)
    if not base > 1:
        raise ValueError(f"base must be > 1, got {base}")
    check_options(rounding, "rounding", ("ceil", "floor"))
    raw = math.log(gs) / math.log(base)
    k = math.ceil(raw - 1e-12) if rounding == "ceil" else math.floor(raw + 1e-12)
    k = max(k, 1)
    return base ** np.arange(1, k + 1, dtype=float)


def _refuse_time_limits(backend, mechanism: str, *solvers: Any) -> None:
    """A release runs every LP to optimality. With a time limit or deadline (the research tables' "OT" convention)
    whether the release comes out at all would depend on how long the LPs take on the private data: refused on the
    release back-end, before anything is spent."""
    if _research(backend):
        return
    for s in solvers:
        if s is not None and (getattr(s, "time_limit", None) is not None or getattr(s, "deadline", None) is not None):
            raise ValueError(f"{mechanism}: a {type(s).__name__} with a time limit or deadline cannot make a release "
                             "(whether it finishes would depend on the private data); build it without one")


def _as_truncation(q: Any) -> Truncation:
    if isinstance(q, JoinInfo):
        return Truncation(q)
    if isinstance(q, Truncation):
        return q
    raise ValueError(f"expected a JoinInfo or a Truncation, got {type(q).__name__}")


# ---------------------------------------------------------------------------------
# R2T
# ---------------------------------------------------------------------------------
class R2TResult(Release):
    """The :class:`~dpworkbench.accounting.Release` of :func:`r2t`, with attribute views of its parts.

    Private: ``value`` and ``winner_tau`` (the arg-max of the noisy candidates). Public: the τ grid and
    parameters. Exact, NOT PRIVATE: ``truncated`` (Q(I, τ)), ``noise``, ``candidates`` (NaN where pruned),
    ``penalty``, ``solved``/``pruned`` (pruning reads the data) and ``seconds``. ε lives in the ledger only.
    """

    winner_tau = property(lambda self: self.details["winner_tau"])
    taus = property(lambda self: np.asarray(self.public["taus"], dtype=float))
    truncated = property(lambda self: self.exact["truncated"])
    noise = property(lambda self: self.exact["noise"])
    penalty = property(lambda self: self.exact["penalty"])
    candidates = property(lambda self: self.exact["candidates"])
    solved = property(lambda self: self.exact["solved"])
    pruned = property(lambda self: self.exact["pruned"])
    seconds = property(lambda self: self.exact["seconds"])
    extra = property(lambda self: {"K": self.public["K"], "beta": self.public["beta"], "base": self.public["base"]})

    def get(self, key: str, default: Any = None) -> Any:
        """Run-record field (private, exact) or, failing that, a public input such as ``"taus"``."""
        rec = self.record()
        return rec[key] if key in rec else self.public.get(key, default)


def privacy_cost_r2t(epsilon: float, gs: float, base: float = 2.0, rounding: str = "ceil") -> tuple[LedgerEntry, ...]:
    """R2T's plan: one Laplace step of ε/K per τ on the grid (basic composition), K = |τ grid|."""
    epsilon = check_epsilon(epsilon)
    taus = tau_grid(gs, base, rounding=rounding)
    return planned(*(("r2t", epsilon / taus.size, f"Q(I,τ={t:g}) + Lap(Kτ/ε)") for t in taus))


def r2t(q: JoinInfo | Truncation, *, epsilon: float, beta: float = 0.1, gs: float, base: float = 2.0, rounding: str = "ceil",
        rng: RngLike = None, prune: bool = True, accountant: AccountantLike | None = None, note: str = "",
        early_stop: bool = True) -> R2TResult:
    """Race-to-the-Top (spec 2.6, eqs. 8–9). Spends ε (K terms of ε/K each, basic composition).

    Q̃ = max{ max_i Q(I,τ_i) + Lap(Kτ_i/ε) − K ln(K/β) τ_i/ε , Q(I,0)=0 }, τ_i = base^i.
    ``prune=True`` is the exact bound pruning of spec 2.7 on research back-ends: τ values whose cheap upper
    bound plus offset cannot beat the running maximum are never solved; the output is identical. On the
    release back-end every τ is solved (the noise cannot be drawn apart from the value).

    Parameters
    ----------
    q : JoinInfo or Truncation
        The instance (its join information) or a :class:`~dpworkbench.r2t.model.Truncation` of it (reuses solved τ).
    epsilon, beta, gs, base, rounding
        See "Treated as public".
    rng : seed, Generator or back-end, optional
        ``None`` is a release (OpenDP back-end); a seed or Generator is research noise.
    prune : bool
        Exact bound pruning (research back-ends only).
    early_stop : bool
        With ``prune``: the paper's early stop (§9.1, Algorithm 3). Noise is drawn first; each τ's LP is
        abandoned as soon as a certified dual upper bound shows its candidate cannot beat the running maximum
        (:meth:`~dpworkbench.r2t.model.Truncation.value_or_stop`). Same output; research back-ends only.
    accountant : Accountant, optional
        Records the spend before any noise is drawn.

    Returns
    -------
    R2TResult
        A :class:`~dpworkbench.accounting.Release`: ``value`` (private), ``winner_tau`` in ``details`` (private),
        the ledger, and the exact per-τ values only behind ``exact`` (NOT PRIVATE).

    Treated as public
    -----------------
    gs : GS_Q
        Sets the τ grid (utility only: privacy holds on every instance, spec 2.2), so it must be chosen
        without looking at the data.
    base, rounding : the τ grid τ_i = base^i, i = 1..K
    beta : β, in the penalty K ln(K/β) τ_i/ε
    epsilon : ε
    The query and the primary private relation (the join information's schema) are public too.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §5 (R2T, eqs. 8–9; Theorem 5.1); spec 2.6, 2.7 (pruning, §9.1 Algorithm 3).
    """
    epsilon = check_epsilon(epsilon)
    beta = check_probability(beta, "beta")
    trunc = _as_truncation(q)
    taus = tau_grid(gs, base, rounding=rounding)
    K = taus.size
    backend = check_rng(rng)
    _refuse_time_limits(backend, "r2t", trunc)
    plan = privacy_cost_r2t(epsilon, gs, base, rounding)
    acc, mark = open_ledger(accountant)
    prefix = f"{note}: " if note else ""
    for e, t in zip(plan, taus):
        record_spend(acc, e.epsilon, e.mechanism, f"{prefix}R2T τ={t:g} (K={K}, base {base:g})")
    t0 = time.perf_counter()
    scales = K * taus / epsilon
    penalty = K * math.log(K / beta) * taus / epsilon
    values = np.full(K, np.nan)
    solved = 0
    stopped = 0
    if prune and trunc.method == "clip":
        prune = False  # closed form: a bound costs as much as the value itself (same output either way)
    if not _research(backend):
        prune = False  # a release back-end samples the noisy value itself: solve every τ
    if not prune:
        for i in range(K):
            values[i] = trunc.value(taus[i])
            solved += 1
        noisy = np.asarray(backend.add_laplace(values, scales), dtype=float)
        noise = noisy - values
        cand = noisy - penalty
        best = max(0.0, float(cand.max()))  # Q(I, 0) = 0 is a candidate
    else:
        noise = np.asarray(backend.laplace(scales, K), dtype=float)  # research back-end: same draws as add_laplace
        lbs = np.empty(K)
        ubs = np.empty(K)
        for i in range(K):
            lbs[i], ubs[i] = trunc.bounds(taus[i])
        exact = ubs <= lbs  # bounds meet: the value is known exactly
        values[exact] = ubs[exact]
        lo_cand = lbs + noise - penalty  # each LB_τ + noise_τ − penalty_τ ≤ that τ's candidate
        hi_cand = ubs + noise - penalty
        best = max(0.0, float(lo_cand.max()))
        for i in np.argsort(-hi_cand, kind="stable"):
            if exact[i]:
                continue
            if hi_cand[i] <= best:
                continue
            if early_stop and hasattr(trunc, "value_or_stop"):
                # this τ wins only if Q(I,τ) + noise − penalty > best: stop its LP once Q(I,τ) ≤ best − noise + penalty
                v = trunc.value_or_stop(taus[i], best - noise[i] + penalty[i])
                if v is None:
                    stopped += 1
                    continue
                values[i] = v
            else:
                values[i] = trunc.value(taus[i])
            solved += 1
            best = max(best, values[i] + noise[i] - penalty[i])
        cand = values + noise - penalty
    finite = np.where(np.isnan(cand), -np.inf, cand)
    winner = int(np.argmax(finite)) if finite.max() > 0 else None
    return R2TResult(
        value=float(best), ledger=acc.entries_since(mark), mechanism="r2t",
        public={"epsilon": epsilon, "beta": beta, "GS_Q": float(gs), "base": float(base), "rounding": rounding, "K": K,
                "taus": [float(t) for t in taus]},
        details={"winner_tau": None if winner is None else float(taus[winner])},
        exact={"truncated": values, "noise": noise, "penalty": penalty, "candidates": cand, "solved": solved,
               "pruned": K - solved, "early_stopped": stopped, "seconds": time.perf_counter() - t0},
    )


# ---------------------------------------------------------------------------------
# OPT² family
# ---------------------------------------------------------------------------------
class OPT2Result(Release):
    """The :class:`~dpworkbench.accounting.Release` of :func:`opt2` / :func:`exp_opt2`, with attribute views.

    Private: ``value``, ``tau`` and ``level`` (the SVT's answer). Public: ``threshold`` T and the parameters.
    Exact, NOT PRIVATE: ``noisy_threshold`` (releasing T̃ would void SVT's proof), ``g_values`` (Ĝ), ``noise``,
    ``final_noise``, ``truncated`` (Q(I, τ̃)), ``solved`` and ``seconds``. ε lives in the ledger only.
    """

    tau = property(lambda self: self.details["tau"])
    level = property(lambda self: self.details["level"])
    threshold = property(lambda self: self.public["threshold"])
    noisy_threshold = property(lambda self: self.exact["noisy_threshold"])
    g_values = property(lambda self: self.exact["g_values"])
    noise = property(lambda self: self.exact["noise"])
    final_noise = property(lambda self: self.exact["final_noise"])
    truncated = property(lambda self: self.exact["truncated"])
    solved = property(lambda self: self.exact["solved"])
    seconds = property(lambda self: self.exact["seconds"])
    extra = property(lambda self: {"beta": self.public["beta"], "L": self.exact["L"]})


def privacy_cost_opt2(epsilon: float, label: str = "opt2") -> tuple[LedgerEntry, ...]:
    """OPT²'s plan (also ExpOPT² with ``label="exp-opt2"``): SVT with 2ε/3, then Laplace with ε/3."""
    epsilon = check_epsilon(epsilon)
    return planned((f"{label}-svt", 2 * epsilon / 3, "SVT on Ĝ(I, 2^ℓ)"), (f"{label}-laplace", epsilon / 3, "Q(I, τ̃) + Lap(3τ̃/ε)"))


def privacy_cost_exp_opt2(epsilon: float) -> tuple[LedgerEntry, ...]:
    """ExpOPT²'s plan: SVT with 2ε/3 on G = F − N, then Laplace with ε/3."""
    return privacy_cost_opt2(epsilon, "exp-opt2")


def _opt2_core(info: JoinInfo, g_of_tau, g_bound, *, epsilon, beta, rng, prune, truncation, accountant, note, label,
               solvers=()) -> OPT2Result:
    epsilon = check_epsilon(epsilon)
    beta = check_probability(beta, "beta")
    backend = check_rng(rng)
    _refuse_time_limits(backend, label, truncation, *solvers)
    acc, mark = open_ledger(accountant)
    prefix = f"{note}: " if note else ""
    for e in privacy_cost_opt2(epsilon, label):
        record_spend(acc, e.epsilon, e.mechanism, prefix + e.note)
    research = _research(backend)
    t0 = time.perf_counter()
    ds = info.DS
    # levels ℓ with τ_ℓ = 2^ℓ < DS need a value; beyond them Ĝ = 0 exactly (Lemma 6.5). L only decides which
    # values are computed rather than known to be 0: the output law does not depend on it.
    L = 0
    while 2.0 ** (L + 1) < ds and L + 1 < OPT2_MAX_LEVELS:
        L += 1
    T = -9.0 * math.log(4.0 / beta) / epsilon
    noisy_T = float(backend.add_laplace(T, 3.0 / epsilon))
    g_vals: dict[int, float] = {}
    solved = 0

    def g(level: int) -> float:
        nonlocal solved
        if level not in g_vals:
            g_vals[level] = g_of_tau(2.0 ** level)
            solved += 1
        return g_vals[level]

    chosen = None
    noisy_q: list[float] = []
    if research:
        # research back-end: the level noise is drawn ahead (pruning needs it before the values)
        v = np.asarray(backend.laplace(6.0 / epsilon, max(L, 1)), dtype=float)[:L]
    if not research:  # release back-end: Algorithm 2, each Ĝ + Lap(6/ε) sampled by the back-end
        for level in range(1, L + 1):
            noisy_q.append(float(backend.add_laplace(g(level), 6.0 / epsilon)))
            if noisy_q[-1] > noisy_T:
                chosen = level
                break
        v = np.asarray(noisy_q) - np.array([g_vals[lv] for lv in range(1, len(noisy_q) + 1)])
    elif not prune:  # Algorithm 2: sequential SVT, ℓ = 1, 2, ...
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
            draw = float(backend.add_laplace(0.0, 6.0 / epsilon))
            extra_draws.append(draw)
            if draw > noisy_T:
                chosen = level
    tau = 2.0 ** chosen
    qt = truncation.value(tau)
    value = float(backend.add_laplace(qt, 3.0 * tau / epsilon))
    return OPT2Result(
        value=value, ledger=acc.entries_since(mark), mechanism=label,
        public={"epsilon": epsilon, "beta": beta, "threshold": T, "max_levels": OPT2_MAX_LEVELS},
        details={"tau": tau, "level": chosen},
        exact={"noisy_threshold": noisy_T, "g_values": dict(sorted(g_vals.items())),
               "noise": np.concatenate([v, extra_draws]), "final_noise": value - qt, "truncated": qt, "solved": solved,
               "seconds": time.perf_counter() - t0, "L": L},
    )


def opt2(info: JoinInfo, *, epsilon: float, beta: float = 0.1, rng: RngLike = None, prune: bool = True,
         fhat: FHat | None = None, truncation: Truncation | None = None, accountant: AccountantLike | None = None,
         note: str = "") -> OPT2Result:
    """OPT² (spec 2.9; Algorithm 2 with G → Ĝ; SPJA: same LP on pre-projection results, spec 2.10). Spends ε.

    SVT with ε_svt = 2ε/3 on Ĝ(I, 2^ℓ), threshold −9 ln(4/β)/ε (T̃ = T + Lap(3/ε), Q̃_ℓ = Ĝ + Lap(6/ε)),
    then Q(I, τ̃) + Lap(3τ̃/ε) with the LP-SJA (LP-SPJA) truncation. No GS_Q needed.
    ``prune=True``: Algorithm 4's early stop made exact (identical output; research back-ends only, the
    release back-end runs Algorithm 2's sequential SVT).

    Parameters
    ----------
    info : JoinInfo
        The instance's join information.
    epsilon, beta
        See "Treated as public".
    rng : seed, Generator or back-end, optional
        ``None`` is a release (OpenDP back-end).
    prune : bool
        Algorithm 4's exact early stop (research back-ends only).
    fhat, truncation : FHat, Truncation, optional
        Solvers of the same instance to reuse (non-private values they already solved).
    accountant : Accountant, optional
        Records the spend before any noise is drawn.

    Returns
    -------
    OPT2Result
        A :class:`~dpworkbench.accounting.Release` with the private ``value`` and chosen ``tau``.

    Treated as public
    -----------------
    beta : β, in the threshold T = −9 ln(4/β)/ε
    epsilon : ε
    The τ levels 2^ℓ (ℓ ≤ 64), the query and the primary private relation. No GS_Q.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §6.2 (OPT², Algorithm 2 with Ĝ; Theorem 6.8), §6.3 (SPJA), Algorithm 4 (early stop); spec 2.9–2.11.
    """
    fh = fhat or FHat(info)
    tr = truncation or Truncation(info)
    return _opt2_core(info, fh.g, 0.0, epsilon=epsilon, beta=beta, rng=rng, prune=prune, truncation=tr, solvers=(fh,),
                      accountant=accountant, note=note, label="opt2")


def exp_opt2(info: JoinInfo, *, epsilon: float, beta: float = 0.1, rng: RngLike = None, f_values: dict | None = None,
             truncation: Truncation | None = None, accountant: AccountantLike | None = None, note: str = "") -> OPT2Result:
    """ExpOPT² (Algorithm 2 with the exact G = F − N; exponential time, tiny inputs). Spends ε.

    ``f_values`` (τ → F) overrides the exact computation, e.g. with the paper's printed
    (wrong) Ex. 6.3 values for the labelled paper-version reproduction of that one instance.

    Treated as public
    -----------------
    beta, epsilon : as in :func:`opt2`
    f_values : when given, fixed numbers (not computed from the data)

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §6.1 (ExpOPT², Algorithm 2; Theorem 6.4; Example 6.3); spec 2.8.
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
def privacy_cost_laplace(epsilon: float, mechanism: str = "laplace") -> tuple[LedgerEntry, ...]:
    """One Laplace step of ε (naive Laplace, fixed τ, random τ)."""
    return planned((mechanism, check_epsilon(epsilon)))


def naive_laplace(info: JoinInfo, *, epsilon: float, gs: float, rng: RngLike = None, accountant: AccountantLike | None = None,
                  note: str = "") -> Release:
    """Q(I) + Lap(GS_Q/ε): the worst-case reference (valid only when GS_Q truly bounds the instance class). Spends ε.

    Treated as public
    -----------------
    gs : GS_Q, the noise scale's sensitivity; ε-DP only on instance classes where it holds (spec 1.4).
    epsilon : ε

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §1 (the Laplace mechanism with GS_Q); spec 3.1.
    """
    epsilon = check_epsilon(epsilon)
    gs = check_positive(gs, "gs")
    acc, mark = open_ledger(accountant)
    record_spend(acc, epsilon, "laplace", note or "naive Laplace, sensitivity GS_Q")
    value = float(check_rng(rng).add_laplace(float(info.answer), gs / epsilon))
    return Release(value=value, ledger=acc.entries_since(mark), mechanism="laplace",
                   public={"epsilon": epsilon, "GS_Q": gs}, exact={"answer": float(info.answer)})


def fixed_tau(q: JoinInfo | Truncation, tau: float, *, epsilon: float, rng: RngLike = None, accountant: AccountantLike | None = None,
              note: str = "") -> Release:
    """Q_LP(I, τ) + Lap(τ/ε) for a data-independent τ ("LP" baseline, Kasiviswanathan et al.). Spends ε.

    Treated as public
    -----------------
    tau : τ, the truncation threshold and sensitivity; must be chosen without looking at the data.
    epsilon : ε

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §10 Table 3 (the LP mechanism at a fixed τ); spec 3.2.
    """
    epsilon = check_epsilon(epsilon)
    tau = check_positive(tau, "tau")
    trunc = _as_truncation(q)
    acc, mark = open_ledger(accountant)
    record_spend(acc, epsilon, "lp-fixed-tau", note or f"LP truncation at τ={tau:g}")
    qt = float(trunc.value(tau))
    value = float(check_rng(rng).add_laplace(qt, tau / epsilon))
    return Release(value=value, ledger=acc.entries_since(mark), mechanism="lp-fixed-tau",
                   public={"epsilon": epsilon, "tau": tau}, exact={"truncated": qt, "answer": float(trunc.info.answer)})


def random_tau(q: JoinInfo | Truncation, *, epsilon: float, gs: float, rng: RngLike = None, accountant: AccountantLike | None = None,
               note: str = "") -> Release:
    """LP baseline of Table 2: τ uniform on {2, 4, ..., GS} (data independent), then :func:`fixed_tau`.

    Returns a :class:`Release` with the chosen τ in ``details["tau"]`` (private: it is data independent).

    Treated as public
    -----------------
    gs : GS_Q, the top of the τ grid {2, 4, ..., GS}
    epsilon : ε

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §10 Table 2 (the LP baseline with τ uniform on the grid); spec 3.2.
    """
    taus = tau_grid(gs, 2.0)
    backend = check_rng(rng)  # τ and the noise come from the same back-end (a release back-end stays one)
    tau = float(taus[int(backend.gumbel_argmax(np.zeros(taus.size)))])  # Gumbel-max over equal logits: uniform
    rel = fixed_tau(q, tau, epsilon=epsilon, rng=backend, accountant=accountant, note=note)
    return Release(value=rel.value, ledger=rel.ledger, mechanism="lp-random-tau",
                   public={"epsilon": rel.public["epsilon"], "GS_Q": float(gs), "taus": [float(t) for t in taus]},
                   details={"tau": tau}, exact=rel.exact)


# ---------------------------------------------------------------------------------
# theory (spec 2.14)
# ---------------------------------------------------------------------------------
def r2t_bound(ds: float, *, epsilon: float, beta: float, gs: float, base: float = 2.0) -> float:
    """Theorem 5.1 error bound with τ* = DS: 4 log(GS) ln(log(GS)/β) τ*/ε (base b: 2b instead of 4).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, Theorem 5.1.
    """
    K = tau_grid(gs, base).size
    return 2 * base * K * math.log(K / beta) * ds / epsilon


def opt2_bound(ds: float, *, epsilon: float, beta: float) -> float:
    """Theorem 6.8: 24 DS/ε · ln(4 log2(2DS)/β).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, Theorem 6.8.
    """
    return 24 * ds / epsilon * math.log(4 * math.log2(max(2 * ds, 2.0)) / beta)


def ls_lower_bound(gs: float, *, epsilon: float) -> float:
    """§7: LS (Tao et al.) error ≥ GS/(6ε ln(4e GS)) with probability ≥ 1/(8e²) on every instance.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §7 (the lower bound for LS of Tao et al.).
    """
    return gs / (6 * epsilon * math.log(4 * math.e * gs))


__all__ = ["OPT2Result", "R2TResult", "RELATION", "ScriptedNoise", "exp_opt2", "fixed_tau", "naive_laplace", "opt2",
           "opt2_bound", "privacy_cost_exp_opt2", "privacy_cost_laplace", "privacy_cost_opt2", "privacy_cost_r2t", "r2t",
           "r2t_bound", "random_tau", "ls_lower_bound", "tau_grid"]


# ---------------------------------------------------------------------------------
# vectorised repetitions over cached non-private values (experiments, audits, widgets)
# ---------------------------------------------------------------------------------
def r2t_samples(truncated: np.ndarray, taus: np.ndarray, *, epsilon: float, beta: float, size: int,
                rng: np.random.Generator) -> np.ndarray:
    """``size`` independent R2T outputs given the exact Q(I, τ_i) values (same law as :func:`r2t`).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §5 (R2T's output law); used for repetitions over cached Q(I,τ).
    """
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

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §6.2 (OPT²'s output law); used for repetitions over cached Ĝ and Q.
    """
    epsilon = check_epsilon(epsilon)
    beta = check_probability(beta, "beta")
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


def fixed_tau_samples(truncated: float, tau: float, *, epsilon: float, size: int, rng: np.random.Generator) -> np.ndarray:
    """``size`` independent outputs of the LP mechanism at a fixed τ given the exact Q(I, τ) (same law as :func:`fixed_tau`).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §10 Table 3; spec 3.2.
    """
    epsilon = check_epsilon(epsilon)
    return float(truncated) + rng.laplace(0.0, float(tau) / epsilon, size)


def random_tau_samples(truncated: np.ndarray, taus: np.ndarray, *, epsilon: float, size: int,
                       rng: np.random.Generator) -> np.ndarray:
    """``size`` outputs of the LP mechanism with τ uniform on ``taus`` (Table 2's LP baseline; same law as :func:`random_tau`).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §10 Table 2 (LP baseline); spec 3.2.
    """
    epsilon = check_epsilon(epsilon)
    taus = np.asarray(taus, dtype=float)
    k = rng.integers(taus.size, size=size)
    return np.asarray(truncated, dtype=float)[k] + rng.laplace(0.0, 1.0, size) * taus[k] / epsilon


def naive_laplace_samples(answer: float, *, gs: float, epsilon: float, size: int, rng: np.random.Generator) -> np.ndarray:
    """``size`` outputs of the Laplace mechanism with the global sensitivity GS (same law as :func:`naive_laplace`).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §1; spec 3.1.
    """
    epsilon = check_epsilon(epsilon)
    return float(answer) + rng.laplace(0.0, float(gs) / epsilon, size)


def opt2_cache(info: JoinInfo, fhat: FHat | None = None, trunc: Truncation | None = None) -> tuple[dict, dict]:
    """Ĝ(I, 2^ℓ) for ℓ ≤ L and Q(I, 2^ℓ) for ℓ ≤ L+1 (non-private values for :func:`opt2_samples`).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §6.2 (Ĝ(I,τ) = F̂(I,τ) − N, Lemma 6.6).
    """
    fh = fhat or FHat(info)
    tr = trunc or Truncation(info)
    L = 0
    while 2.0 ** (L + 1) < info.DS and L + 1 < OPT2_MAX_LEVELS:
        L += 1
    g = {lv: fh.g(2.0 ** lv) for lv in range(1, L + 1)}
    q = {lv: tr.value(2.0 ** lv) for lv in range(1, L + 2)}
    q["answer"] = info.answer
    return g, q
