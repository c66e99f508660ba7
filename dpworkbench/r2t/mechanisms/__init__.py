"""R2T, ExpOPT², OPT² (with early stop) and naive Laplace / fixed-τ / random-τ LP, each declared once (spec 2.6–2.11,
3.1–3.2; issue 23).

Each mechanism is a :class:`~dpworkbench.mechanisms.declaration.Mechanism`: its parameters, its neighbouring
relation (:data:`RELATION`, the core's primary-private-tuple relation), its plan (``cost``), its non-private
statistics and its noise step. The statistics are lazy: :class:`InstanceStats` wraps the instance's
:class:`~dpworkbench.r2t.model.Truncation` (and F̂ for OPT²) and solves Q(I, τ) only when asked, so R2T's bound
pruning / early stop and OPT²'s Algorithm 4 interleave the LP solves with the noise inside the noise step. The
framework records the plan before any draw; ``DECL.sample(stats, size=R, rng=seed, **params)`` draws R outputs
through the same noise code (research sweeps; a :class:`Truncation` or :class:`JoinInfo` passes as statistics).

The public functions (:func:`r2t`, :func:`opt2`, ...) keep their signatures: they check the solvers (a time limit
cannot make a release) and call ``DECL.release``. ``rng=None`` is a **release** on the floating-point-safe OpenDP
back-end; a seed or Generator is seeded numpy research noise; :class:`ScriptedNoise` replays the worked examples.

Every noisy value on the release back-end is ``backend.add_laplace(value, final_scale)`` (OpenDP samples the noisy
value itself). Research back-ends may draw R2T's and OPT²'s noise *ahead* of the values so that the exact pruning
can skip τ values; pruned and unpruned runs with the same seed return identical outputs. The release back-end
solves every τ (every SVT level up to the stop) instead: the same output law.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Mapping
from typing import Any, Callable, Sequence

import numpy as np

from ...accounting import AccountantLike, DescribedRelease, LedgerEntry, Release, planned
from ...mechanisms.backends import NumpyBackend, RngLike, check_rng
from ...mechanisms.declaration import EPSILON, Accuracy, Drawn, Mechanism, Param, parallel_plan
from ..joininfo import JoinInfo
from ..model import FHat, Truncation, f_exact
from ..parallel import race, solve_all
from .common import (GRAPH_RELATION, N_NODES, RELATION, SQL_RELATION, SQL_RELATION_NO_SCHEMA, example_graphs,
                     research_generator, tau_grid)

OPT2_MAX_LEVELS = 64  # hard cap on the SVT loop (spec 2.9); reaching it has probability < 1e-40



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
    if isinstance(q, InstanceStats):
        return q.trunc
    raise ValueError(f"expected a JoinInfo or a Truncation, got {type(q).__name__}")


def _levels(ds: float) -> int:
    """L: the SVT levels ℓ with 2^ℓ < DS need a value; beyond them Ĝ = 0 exactly (Lemma 6.5)."""
    L = 0
    while 2.0 ** (L + 1) < ds and L + 1 < OPT2_MAX_LEVELS:
        L += 1
    return L


class InstanceStats(Mapping):
    """The non-private, cacheable pre-noise statistics of one instance, computed lazily: Q(I, τ) through its
    :class:`Truncation`, Ĝ(I, τ) = F̂ − N through :class:`FHat` (or G = F − N for ExpOPT²) and Q(I).

    As a mapping it holds the named statistics a declaration lists (what the harness brute-forces); the noise
    steps call :meth:`q` and :meth:`g` directly, so the pruned runs solve only the τ they need."""

    def __init__(self, trunc: Truncation, keys: Mapping[str, tuple[str, float | None]] | None = None, *,
                 fhat: FHat | None = None, g: Callable[[float], float] | None = None):
        self.trunc, self.info = trunc, trunc.info
        self._fhat, self._g, self._gcache = fhat, g, {}
        self._keys = dict(keys or {})

    @property
    def fhat(self) -> FHat:
        if self._fhat is None:
            self._fhat = FHat(self.info)
        return self._fhat

    def q(self, tau: float) -> float:
        return float(self.trunc.value(tau))

    def g(self, tau: float) -> float:
        if tau not in self._gcache:
            self._gcache[tau] = float(self._g(tau) if self._g is not None else self.fhat.g(tau))
        return self._gcache[tau]

    def g_upper(self, tau: float) -> float:
        """A certified upper bound on Ĝ(I, τ) from what is already solved (:meth:`FHat.g_upper`; 0 for an exact G)."""
        if tau in self._gcache:
            return self._gcache[tau]
        return 0.0 if self._g is not None else self.fhat.g_upper(tau)

    def with_keys(self, keys: Mapping[str, tuple[str, float | None]]) -> "InstanceStats":
        out = InstanceStats(self.trunc, keys, fhat=self._fhat, g=self._g)
        out._gcache = self._gcache
        return out

    def __getitem__(self, key: str) -> float:
        kind, tau = self._keys[key]
        return float(self.info.answer) if kind == "answer" else self.q(tau) if kind == "Q" else self.g(tau)

    def __iter__(self):
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


def instance_stats(data: Any, keys: Mapping[str, tuple[str, float | None]] | None = None) -> InstanceStats:
    """The lazy statistics of a :class:`JoinInfo`, a :class:`Truncation` (its solved values reused) or an
    :class:`InstanceStats` (shared caches)."""
    if isinstance(data, InstanceStats):
        return data.with_keys(keys or data._keys)
    return InstanceStats(_as_truncation(data), keys)


def _q_keys(taus) -> dict[str, tuple[str, float]]:
    return {f"Q(I,{t:g})": ("Q", float(t)) for t in taus}


# ---------------------------------------------------------------------------------
# the harness's inputs: join information of small graphs (edge query), neighbours under the declared relation
# ---------------------------------------------------------------------------------
def _examples(rng: np.random.Generator) -> list[JoinInfo]:
    from ...graphs import from_edge_array
    from ..patterns import graph_joininfo

    return [graph_joininfo(from_edge_array(e, n=N_NODES), "edge") for e in example_graphs(rng)]


def _neighbours(info: JoinInfo):
    """The declared relation on join information: each primary private tuple removed with every join result
    referencing it (adding one is the same pair read the other way)."""
    for i in range(info.n):
        yield info.remove_tuples([i])


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


def _r2t_grid(p: Mapping[str, Any]) -> np.ndarray:
    return tau_grid(p["gs"], p["base"], rounding=p["rounding"])


def _r2t_cost(*, epsilon, gs, beta, base, rounding, prune, early_stop, note) -> tuple[LedgerEntry, ...]:
    taus = tau_grid(gs, base, rounding=rounding)
    prefix = f"{note}: " if note else ""
    return planned(*(("r2t", epsilon / taus.size, f"{prefix}R2T τ={t:g} (K={taus.size}, base {base:g})") for t in taus))


def _r2t_noise(stats, backend, size, *, epsilon, gs, beta, base, rounding, prune, early_stop, note):
    """Q̃ = max{ max_i Q(I,τ_i) + Lap(Kτ_i/ε) − K ln(K/β) τ_i/ε , 0 }, with the exact bound pruning and early stop
    on research back-ends (the noise drawn first, then only the τ that can still win are solved)."""
    s = instance_stats(stats)
    trunc = s.trunc
    taus = tau_grid(gs, base, rounding=rounding)
    K = taus.size
    scales = K * taus / epsilon
    penalty = K * math.log(K / beta) * taus / epsilon
    if size is not None:  # R outputs over all Q(I, τ): one (R, K) block of unit Laplace draws
        vals = np.array([s.q(t) for t in taus])
        noise = np.asarray(backend.laplace(1.0, (size, K)), dtype=float) * scales
        return np.maximum((vals[None, :] + noise - penalty).max(axis=1), 0.0)
    t0 = time.perf_counter()
    values = np.full(K, np.nan)
    solved = stopped = 0
    if trunc.method == "clip" or not _research(backend):
        prune = False  # closed form (a bound costs a value), or a release back-end that samples the noisy value
    if not prune:
        values[:] = solve_all(trunc, taus)  # both cores where each τ's LP is independent; the same floats
        solved = K
        noisy = np.asarray(backend.add_laplace(values, scales), dtype=float)
        noise = noisy - values
        cand = noisy - penalty
        best = max(0.0, float(cand.max()))  # Q(I, 0) = 0 is a candidate
    else:
        noise = np.asarray(backend.laplace(scales, K), dtype=float)  # research back-end: same draws as add_laplace
        lbs, ubs = np.empty(K), np.empty(K)
        for i in range(K):
            lbs[i], ubs[i] = trunc.bounds(taus[i])
        exact = ubs <= lbs  # bounds meet: the value is known exactly
        values[exact] = ubs[exact]
        hi_cand = ubs + noise - penalty
        best = max(0.0, float((lbs + noise - penalty).max()))  # each LB_τ + noise_τ − penalty_τ ≤ that τ's candidate
        # τ's in order of their upper candidate, two in flight: a τ wins only if Q(I,τ) + noise − penalty > best, so
        # its LP stops once Q(I,τ) ≤ best − noise + penalty, best being the maximum known at dispatch (r2t.parallel)
        best, solved, stopped = race(trunc, taus, noise, penalty, values, exact, hi_cand, best, early_stop=early_stop)
        cand = values + noise - penalty
    finite = np.where(np.isnan(cand), -np.inf, cand)
    winner = int(np.argmax(finite)) if finite.max() > 0 else None
    return Drawn(float(best), {"winner_tau": None if winner is None else float(taus[winner])},
                 {"truncated": values, "noise": noise, "penalty": penalty, "candidates": cand, "solved": solved,
                  "pruned": K - solved, "early_stopped": stopped, "seconds": time.perf_counter() - t0})


@dataclasses.dataclass(frozen=True)
class R2TAccuracy(Accuracy):
    """R2T's noise-only error bar: Theorem 5.1's form with a public τ in place of DS. With probability ≥ 1 − β every
    draw |Lap(Kτ_i/ε)| ≤ K ln(K/β) τ_i/ε (the penalty; union bound over the K draws). On that event
    Q̃ ≤ Q(I, τ*) ≤ Q̃ + 2K ln(K/β) τ*/ε at the winning τ* (and Q(I, τ_i) ≤ Q̃ + 2K ln(K/β) τ_i/ε at every τ_i, so
    at τ_1 when no τ won). ``bound`` is that 2K ln(K/β) τ/ε; the interval is one-sided, [Q̃, Q̃ + bound]: R2T
    under-estimates on the event. It covers the noise only: Q(I) − Q(I, τ*) (truncation bias) is not in it."""

    covers: str = ""

    def interval(self, value: float) -> tuple[float, float]:
        lo, hi = float(value), float(value) + self.bound
        if self.clip is not None:
            lo, hi = max(lo, self.clip[0]), min(hi, self.clip[1])
        return lo, hi


def r2t_accuracy(*, epsilon: float, gs: float, beta: float, base: float = 2.0, rounding: str = "ceil",
                 tau: float | None = None, **_) -> R2TAccuracy:
    """The noise-only error bar of one R2T release from public inputs: at ``tau`` (the released winning τ, or τ_1
    when the estimate is the floor 0: post-processing of the output), or, before a run (``--plan``), at the
    largest τ_K (the worst case; it also covers Q(I) itself when GS_Q really bounds DS)."""
    taus = tau_grid(gs, base, rounding=rounding)
    K = taus.size
    t = float(taus[-1] if tau is None else tau)
    pen = K * math.log(K / beta) * t / epsilon
    if tau is None:
        first = 2 * K * math.log(K / beta) * float(taus[0]) / epsilon
        covers = (f"Q(I, τ*) at the winning τ* (worst case τ* = τ_K = {t:g}; {first:.4g} at τ_1 = {taus[0]:g})")
    else:
        covers = f"the truncated answer Q(I, τ) at τ = {t:g}"
    return R2TAccuracy(noise_scale=K * t / epsilon, bound=2 * pen, beta=float(beta), covers=covers)


# What every one-query declaration of this module shares (R2T_GROUP_BY has its own truth): the user-level relation,
# the exact answer the harness and the errors compare with, and the harness's small inputs and their neighbours.
_ONE_QUERY = dict(relation=RELATION, truth=lambda stats, **p: float(stats.info.answer), examples=_examples,
                  neighbours=_neighbours)
_BETA = Param("beta", float, 0.1, "failure probability β (public)", low=0.0, high=1.0, open_low=True)
_NOTE = Param("note", str, "", "a label prefixed to the ledger notes")

R2T = Mechanism(
    name="r2t.r2t",
    summary="Race-to-the-Top: max over the τ grid of Q(I,τ) + Lap(Kτ/ε) − K ln(K/β)τ/ε, and 0",
    params=(EPSILON(), Param("gs", float, help="public GS_Q: sets the τ grid (choose it without looking at the data)",
                             low=0.0, open_low=True), _BETA,
            Param("base", float, 2.0, "τ grid base (2 = paper; the authors' code used 5.5)", low=1.0, open_low=True),
            Param("rounding", str, "ceil", "K = ⌈log_base GS⌉ (ceil) or ⌊·⌋ (floor, the authors' code)",
                  choices=("ceil", "floor")),
            Param("prune", bool, True, "exact bound pruning (research back-ends; same output)"),
            Param("early_stop", bool, True, "the paper's early stop of each LP (research back-ends; same output)"),
            _NOTE),
    public=("the query and its primary private relation (the join information's schema)",),
    cost=_r2t_cost,
    statistics=lambda data, **p: instance_stats(data, _q_keys(_r2t_grid(p))),
    sensitivity=lambda **p: {f"Q(I,{t:g})": float(t) for t in _r2t_grid(p)},
    noise=_r2t_noise,
    **_ONE_QUERY, harness_params={"epsilon": 1.0, "gs": 8.0, "beta": 0.1},
    release_type=R2TResult, accuracy=r2t_accuracy,
    references="Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §5 (R2T, eqs. 8–9; Theorem 5.1), spec 2.6–2.7.",
)


def privacy_cost_r2t(epsilon: float, gs: float, base: float = 2.0, rounding: str = "ceil") -> tuple[LedgerEntry, ...]:
    """R2T's plan (:data:`R2T`'s cost): one Laplace step of ε/K per τ on the grid (basic composition)."""
    return R2T.plan(epsilon=epsilon, gs=gs, base=base, rounding=rounding)


def r2t(q: JoinInfo | Truncation, *, epsilon: float, beta: float = 0.1, gs: float, base: float = 2.0, rounding: str = "ceil",
        rng: RngLike = None, prune: bool = True, accountant: AccountantLike | None = None, note: str = "",
        early_stop: bool = True) -> R2TResult:
    """Race-to-the-Top (spec 2.6, eqs. 8–9): one :data:`R2T` release. Spends ε (K terms of ε/K, basic composition).

    ``q`` is the instance's join information or a :class:`~dpworkbench.r2t.model.Truncation` of it (reuses solved
    τ). ``prune``/``early_stop``: the exact bound pruning and the paper's early stop (§9.1, Algorithm 3) on research
    back-ends; same output. ``rng=None`` is a release (every τ solved). Treated as public: ``gs`` (sets the τ grid;
    utility only, chosen without looking at the data), ``base``, ``rounding``, ``beta``, ``epsilon``, the query and
    its primary private relation. Returns an :class:`R2TResult` (private ``value`` and ``winner_tau``; exact per-τ
    values only behind ``exact``, NOT PRIVATE).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §5 (R2T, eqs. 8–9; Theorem 5.1); spec 2.6, 2.7 (pruning, §9.1 Algorithm 3).
    """
    trunc = _as_truncation(q)
    backend = check_rng(rng)
    p = R2T.check_params({"epsilon": epsilon, "beta": beta, "gs": gs, "base": base, "rounding": rounding,
                          "prune": prune, "early_stop": early_stop, "note": note})
    _refuse_time_limits(backend, "r2t", trunc)
    rel = R2T.release(trunc, rng=backend, accountant=accountant, **p)
    taus = _r2t_grid(p)
    return dataclasses.replace(rel, mechanism="r2t", public={
        "epsilon": p["epsilon"], "beta": p["beta"], "GS_Q": p["gs"], "base": p["base"], "rounding": rounding,
        "K": taus.size, "taus": [float(t) for t in taus]})


def _group_by_cost(*, epsilon, groups, parallel, note, **p) -> tuple[LedgerEntry, ...]:
    """R2T once per group: a parallel block (each group the whole ε) or ε split evenly (basic composition)."""
    per = epsilon if parallel else epsilon / groups
    steps = [_r2t_cost(epsilon=per, note=f"{note + ', ' if note else ''}group {i + 1}/{groups}", **p) for i in range(groups)]
    return parallel_plan(GROUP_BY_BLOCK, steps) if parallel else tuple(e for step in steps for e in step)


def _group_keys(p: Mapping[str, Any]) -> dict[str, tuple[int | None, float]]:
    """:data:`R2T_GROUP_BY`'s named statistics at ``p``, each ``(group index, τ)``: Q_g(I,τ) of the i-th group of the
    public domain (its order is public, so the i-th group is the same one on neighbours) for each τ of the grid, with
    R2T's sensitivity τ; and when the groups compose in parallel, Σ_g Q_g(I,τ) (index ``None``), also with sensitivity τ
    (one individual moves one group only, in one direction)."""
    taus = _r2t_grid(p)
    keys = {f"Q[{i + 1}](I,{t:g})": (i, float(t)) for i in range(p["groups"]) for t in taus}
    keys.update({f"ΣQ_g(I,{t:g})": (None, float(t)) for t in taus} if p["parallel"] else {})
    return keys


class GroupStats(Mapping):
    """:data:`R2T_GROUP_BY`'s statistics: ``groups`` maps each group of the public domain to its lazy
    :class:`InstanceStats` (what the noise step reads); as a mapping it holds the named statistics of
    :func:`_group_keys` (what the harness brute-forces), each solved only when asked."""

    def __init__(self, groups: Mapping[Any, Any], p: Mapping[str, Any]):
        self.groups = {g: instance_stats(d, _q_keys(_r2t_grid(p))) for g, d in groups.items()}
        self._keys = _group_keys(p)

    def __getitem__(self, key: str) -> float:
        i, tau = self._keys[key]
        per = list(self.groups.values())
        return sum(s.q(tau) for s in per) if i is None else per[i].q(tau)

    def __iter__(self):
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


def _groups(stats: Any) -> Mapping[Any, Any]:
    """Each group's statistics: a :class:`GroupStats`' own, or a mapping group → JoinInfo / Truncation (research)."""
    return stats.groups if isinstance(stats, GroupStats) else stats


def _group_by_noise(stats, backend, size, *, epsilon, groups, parallel, **p):
    per = epsilon if parallel else epsilon / groups
    stats = _groups(stats)
    outs = [_r2t_noise(s, backend, size, epsilon=per, **p) for s in stats.values()]
    if size is not None:
        return np.stack(outs, axis=1)
    return Drawn([o.value for o in outs],
                 {"groups": [{"group": list(g), "estimate": o.value, "winner_tau": o.details["winner_tau"]}
                             for g, o in zip(stats, outs)]},
                 {"groups": [{"group": list(g), "answer": float(s.info.answer), "DS": float(s.info.DS)}
                             for g, s in stats.items()]})


GROUP_BY_BLOCK = "GROUP BY: disjoint individuals per group"
_PARALLEL = Param("parallel", bool, help="every individual's join results fall in one group (the group key is a "
                                         "function of the primary private tuple)")

R2T_GROUP_BY = Mechanism(
    name="r2t.r2t_group_by",
    summary="R2T per group of a public GROUP BY domain (parallel composition when each individual's join results "
            "fall in one group, else ε split evenly)",
    relation=RELATION,
    params=(EPSILON(), Param("groups", int, help="the number of groups of the public domain", low=1),
            _PARALLEL,
            *R2T.params[1:]),
    public=("the group domain", "the query and its primary private relation"),
    cost=_group_by_cost,
    statistics=lambda data, **p: GroupStats(data, p),
    sensitivity=lambda **p: {k: tau for k, (_, tau) in _group_keys(p).items()},
    noise=_group_by_noise,
    truth=lambda stats, **p: [float(s.info.answer) for s in _groups(stats).values()],
    accuracy=lambda *, epsilon, groups, parallel, **p: r2t_accuracy(
        epsilon=epsilon if parallel else epsilon / groups, **p),
    references="Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §5 (R2T) per group; parallel composition.",
)


def r2t_group_by(truncations: Mapping[Any, JoinInfo | Truncation], *, parallel: bool, epsilon: float, beta: float = 0.1,
                 gs: float, base: float = 2.0, rounding: str = "ceil", rng: RngLike = None, prune: bool = True,
                 early_stop: bool = True, accountant: AccountantLike | None = None, note: str = "") -> Release:
    """One R2T release per group (``truncations``: group key → the group's join information or Truncation; empty
    groups of the domain included): one :data:`R2T_GROUP_BY` release. The budget split lives here (its ``public``
    says it): with ``parallel`` each group gets the whole ε in one parallel block, else ε/k each (basic composition)."""
    if not truncations:
        raise ValueError("the group domain is empty")
    truncs = {g: _as_truncation(t) for g, t in truncations.items()}
    backend = check_rng(rng)
    _refuse_time_limits(backend, "r2t", *truncs.values())
    rel = R2T_GROUP_BY.release(truncs, rng=backend, accountant=accountant, epsilon=epsilon, groups=len(truncs),
                               parallel=parallel, beta=beta, gs=gs, base=base, rounding=rounding, prune=prune,
                               early_stop=early_stop, note=note)
    p, k = rel.public, len(truncs)
    return dataclasses.replace(rel, public={
        "epsilon": p["epsilon"], "beta": p["beta"], "GS_Q": p["gs"], "base": p["base"],
        "taus": [float(t) for t in _r2t_grid(p)], "group composition": f"parallel: {_PARALLEL.help}" if parallel
        else f"sequential: ε split evenly over the {k} groups", "epsilon per group": p["epsilon"] / (1 if parallel else k),
        "groups": k})


FLOOR_NOTE = "no τ candidate exceeded 0, so the estimate is R2T's floor Q(I, 0) = 0 (no winning τ)"


@dataclasses.dataclass(frozen=True)
class QueryRelease(DescribedRelease):
    """The Release of :func:`release_query`: R2T on one query, with its noise-only error bar(s) and remarks.

    ``error_bar``: :data:`R2T`'s accuracy at the winning τ (τ_1 for the floor), or per group ``{"estimate[g]":
    (Accuracy, estimate)}``; a function of the output and public inputs only (the winning τ is part of the private
    output). ``notes``: the floor remark, post-processing of the private output (no τ won)."""

    def as_text(self) -> "QueryRelease":
        """The release as text prints it: a winning τ that does not exist says so, never "None" (JSON keeps null)."""
        d = dict(self.details)
        if "groups" in d:
            d["groups"] = [{**g, "winner_tau": "none (estimate at the floor 0)"} if g["winner_tau"] is None else g
                           for g in d["groups"]]
        elif "winner_tau" in d and d["winner_tau"] is None:
            del d["winner_tau"]  # the floor note says there is none
        return dataclasses.replace(self, details=d)


def release_query(infos: JoinInfo | Mapping[Any, JoinInfo], *, query: str, relation: Any, epsilon: float, gs: float,
                  beta: float = 0.1, base: float = 2.0, prune: bool = True, early_stop: bool = True,
                  method: str = "auto", parallel: bool | None = None, public: Mapping[str, Any] | None = None, join_results: int | None = None,
                  rng: RngLike = None, progress=None) -> QueryRelease:
    """R2T on one query's join information (``infos`` a JoinInfo), or once per group of a GROUP BY (a mapping group →
    JoinInfo; ``parallel``: the groups' individuals are disjoint; the split is :func:`r2t_group_by`'s), truncated by
    ``method``. Returns ONE :class:`QueryRelease`: private the estimate(s) and winning τ(s); public ``query``, the
    declared ``relation``, the caller's ``public`` description, the parameters and the truncation engine; exact (NOT
    PRIVATE) the true answer, DS, the join size (``join_results`` for a GROUP BY), the Theorem 5.1 bound (single
    query), pruning counts and time. ``progress`` (a ``cli.common.Stages``) is ticked once per solved τ."""
    grouped = isinstance(infos, Mapping)
    truncs = {g: Truncation(i, method) for g, i in (infos.items() if grouped else [(None, infos)])}
    p = {"epsilon": epsilon, "beta": beta, "gs": gs, "base": base, "prune": prune, "early_stop": early_stop}
    taus = tau_grid(gs, base)
    if progress is not None:  # one tick per solved τ: the LP/flow solves are where a large input spends its time
        progress.add(len(truncs) * taus.size)
        for tr in truncs.values():
            tr.value = (lambda tau, _solve=tr.value: (_solve(tau), progress.tick(f"τ={tau:g} solved"))[0])
    if grouped:
        params = R2T_GROUP_BY.check_params({**p, "groups": len(truncs), "parallel": parallel})
        res = r2t_group_by(truncs, parallel=parallel, rng=rng, note=f"R2T on {query}", **p)
        exact = {"groups": res.exact["groups"], "join_results": join_results}
        bar = {f"estimate[{', '.join(map(str, g['group']))}]": (R2T_GROUP_BY.accuracy(
            tau=float(taus[0]) if g["winner_tau"] is None else g["winner_tau"], **params), g["estimate"])
            for g in res.details["groups"]}
        notes = ()
    else:
        res = r2t(truncs[None], rng=rng, note=f"R2T on {query}", **p)
        exact = {"answer": float(infos.answer), "DS": float(infos.DS), "join_results": int(infos.m),
                 "theorem_5_1_bound": r2t_bound(max(infos.DS, 1.0), epsilon=epsilon, beta=beta, gs=gs, base=base),
                 "solved": int(res.solved), "pruned": int(res.pruned), "seconds": float(res.seconds)}
        # no τ candidate exceeded 0: saying so is post-processing of the private output (the winning τ), not a leak
        floor = res.details.get("winner_tau") is None
        bar = R2T.accuracy(tau=float(taus[0]) if floor else res.details["winner_tau"], **R2T.check_params(p))
        notes = (FLOOR_NOTE,) if floor else ()
    return QueryRelease(value=res.value, ledger=res.ledger, details=dict(res.details), exact=exact, mechanism="r2t",
                        public={"query": query, "neighbouring relation": relation.describe(), **(public or {}),
                                **res.public, "truncation engine": method}, error_bar=bar, notes=notes)


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


def _opt2_cost(label: str):
    def cost(*, epsilon, beta, note, **_):
        prefix = f"{note}: " if note else ""
        return planned((f"{label}-svt", 2 * epsilon / 3, prefix + "SVT on Ĝ(I, 2^ℓ)"),
                       (f"{label}-laplace", epsilon / 3, prefix + "Q(I, τ̃) + Lap(3τ̃/ε)"))
    return cost


def _opt2_noise(stats, backend, size, *, epsilon, beta, note, prune=False, g_bound=0.0):
    """SVT with ε_svt = 2ε/3 on Ĝ(I, 2^ℓ) (T̃ = T + Lap(3/ε), Q̃_ℓ = Ĝ + Lap(6/ε)), then Q(I, τ̃) + Lap(3τ̃/ε)."""
    s = instance_stats(stats)
    L = _levels(s.info.DS)  # decides only which values are computed rather than known to be 0: not the law
    T = -9.0 * math.log(4.0 / beta) / epsilon
    if size is not None:  # R outputs: all levels' SVT noise at once
        g = np.zeros(OPT2_MAX_LEVELS)
        g[:L] = [s.g(2.0 ** lv) for lv in range(1, L + 1)]
        t_noisy = T + np.asarray(backend.laplace(3.0 / epsilon, size), dtype=float)
        above = g[None, :] + np.asarray(backend.laplace(6.0 / epsilon, (size, OPT2_MAX_LEVELS)), dtype=float) > t_noisy[:, None]
        if not above.any(axis=1).all():
            raise RuntimeError("SVT did not stop within the hard cap of levels")
        chosen = above.argmax(axis=1) + 1
        qt = np.array([s.q(2.0 ** c) if c <= L + 1 else float(s.info.answer) for c in chosen])
        return qt + np.asarray(backend.laplace(1.0, size), dtype=float) * 3.0 * 2.0 ** chosen / epsilon
    t0 = time.perf_counter()
    research = _research(backend)
    noisy_T = float(backend.add_laplace(T, 3.0 / epsilon))
    g_vals: dict[int, float] = {}

    def g(level: int) -> float:
        if level not in g_vals:
            g_vals[level] = s.g(2.0 ** level)
        return g_vals[level]

    chosen = None
    if not research:  # release back-end: Algorithm 2, each Ĝ + Lap(6/ε) sampled by the back-end
        noisy_q: list[float] = []
        for level in range(1, L + 1):
            noisy_q.append(float(backend.add_laplace(g(level), 6.0 / epsilon)))
            if noisy_q[-1] > noisy_T:
                chosen = level
                break
        v = np.asarray(noisy_q) - np.array([g_vals[lv] for lv in range(1, len(noisy_q) + 1)])
    else:  # research back-end: the level noise is drawn ahead (pruning needs it before the values)
        v = np.asarray(backend.laplace(6.0 / epsilon, max(L, 1)), dtype=float)[:L]
        if not prune:  # Algorithm 2: sequential SVT, ℓ = 1, 2, ...
            chosen = next((lv for lv in range(1, L + 1) if g(lv) + v[lv - 1] > noisy_T), None)
        else:  # Algorithm 4 (exact): solve large τ first; F̂ is monotone in τ, so F̂(τ_ℓ+1) bounds F̂(τ_ℓ)
            ub, trig = g_bound, []
            for level in range(L, 0, -1):
                if ub + v[:level].max() <= noisy_T:
                    break  # no ℓ' ≤ level can cross: every Ĝ(τ_ℓ') ≤ ub
                if ub + v[level - 1] <= noisy_T:
                    continue
                # §9.1's early stop: the duals of the LPs solved so far (larger τ) may already show that this level
                # cannot cross, without its LP (the small τ's are the slow ones); the bound also caps every lower level
                bound = s.g_upper(2.0 ** level)
                if bound + v[level - 1] <= noisy_T:
                    ub = min(ub, bound)
                    continue
                val = g(level)
                ub = min(ub, val)
                if val + v[level - 1] > noisy_T:
                    trig.append(level)
            chosen = min(trig) if trig else None
    extra_draws = []
    level = L
    while chosen is None:  # all levels ≥ L+1 have Ĝ = 0: continue the SVT with fresh noise
        level += 1
        if level > OPT2_MAX_LEVELS:
            raise RuntimeError("SVT did not stop within the hard cap of levels (probability < 1e-40)")
        extra_draws.append(float(backend.add_laplace(0.0, 6.0 / epsilon)))
        if extra_draws[-1] > noisy_T:
            chosen = level
    tau = 2.0 ** chosen
    qt = s.q(tau)
    value = float(backend.add_laplace(qt, 3.0 * tau / epsilon))
    return Drawn(value, {"tau": tau, "level": chosen},
                 {"noisy_threshold": noisy_T, "g_values": dict(sorted(g_vals.items())),
                  "noise": np.concatenate([v, extra_draws]), "final_noise": value - qt, "truncated": qt,
                  "solved": len(g_vals), "seconds": time.perf_counter() - t0, "L": L})


_OPT2_LEVELS = range(1, 4)  # the statistics the harness brute-forces (τ = 2, 4, 8: the examples have DS ≤ 5)


def _opt2_keys(g_name: str) -> dict[str, tuple[str, float]]:
    return {**{f"{g_name}(I,{2 ** lv})": ("G", 2.0 ** lv) for lv in _OPT2_LEVELS}, **_q_keys(2.0 ** lv for lv in _OPT2_LEVELS)}


def _opt2_sens(g_name: str) -> dict[str, float]:
    return {**{f"{g_name}(I,{2 ** lv})": 1.0 for lv in _OPT2_LEVELS}, **{f"Q(I,{2 ** lv})": 2.0 ** lv for lv in _OPT2_LEVELS}}


def _exact_g(info: JoinInfo, f_values: Mapping[float, float] | None = None) -> Callable[[float], float]:
    def g(tau: float) -> float:
        if f_values is not None and tau in f_values:
            return float(f_values[tau]) - info.n
        return f_exact(info, tau) - info.n
    return g


OPT2 = Mechanism(
    name="r2t.opt2",
    summary="OPT²: SVT (2ε/3) on Ĝ(I, 2^ℓ) = F̂ − N picks τ̃, then Q(I, τ̃) + Lap(3τ̃/ε) (ε/3); no GS_Q",
    params=(EPSILON(), _BETA, Param("prune", bool, True, "Algorithm 4's exact early stop (research back-ends)"), _NOTE),
    public=("the τ levels 2^ℓ (ℓ ≤ 64)", "the query and its primary private relation"),
    cost=_opt2_cost("opt2"),
    statistics=lambda data, **p: instance_stats(data, _opt2_keys("Ĝ")),
    sensitivity=lambda **p: _opt2_sens("Ĝ"),
    noise=_opt2_noise,
    **_ONE_QUERY, harness_params={"epsilon": 1.0, "beta": 0.1},
    release_type=OPT2Result,
    references="Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §6.2 (Algorithm 2 with Ĝ; Theorem 6.8), Algorithm 4.",
)

EXP_OPT2 = Mechanism(
    name="r2t.exp_opt2",
    summary="ExpOPT²: OPT² with the exact G = F − N (exponential time; tiny inputs)",
    params=(EPSILON(), _BETA, _NOTE),
    public=("the τ levels 2^ℓ (ℓ ≤ 64)", "the query and its primary private relation"),
    cost=_opt2_cost("exp-opt2"),
    statistics=lambda data, **p: InstanceStats(_as_truncation(data), _opt2_keys("G"), g=_exact_g(_as_truncation(data).info))
    if not isinstance(data, InstanceStats) else data.with_keys(_opt2_keys("G")),
    sensitivity=lambda **p: _opt2_sens("G"),
    noise=_opt2_noise,
    **_ONE_QUERY, harness_params={"epsilon": 1.0, "beta": 0.1},
    release_type=OPT2Result,
    references="Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §6.1 (ExpOPT², Algorithm 2; Theorem 6.4).",
)


def _opt2_release(mech: Mechanism, label: str, stats: InstanceStats, solvers, *, epsilon, beta, rng, accountant,
                  **p) -> OPT2Result:
    backend = check_rng(rng)
    p = mech.check_params({"epsilon": epsilon, "beta": beta, **p})
    _refuse_time_limits(backend, label, stats.trunc, *solvers)
    rel = mech.release(stats.info, rng=backend, accountant=accountant, statistics=stats, **p)
    return dataclasses.replace(rel, mechanism=label, public={
        "epsilon": p["epsilon"], "beta": p["beta"], "threshold": -9.0 * math.log(4.0 / p["beta"]) / p["epsilon"],
        "max_levels": OPT2_MAX_LEVELS})


def opt2(info: JoinInfo, *, epsilon: float, beta: float = 0.1, rng: RngLike = None, prune: bool = True,
         fhat: FHat | None = None, truncation: Truncation | None = None, accountant: AccountantLike | None = None,
         note: str = "") -> OPT2Result:
    """OPT² (spec 2.9; Algorithm 2 with G → Ĝ; SPJA: same LP on pre-projection results, spec 2.10): one
    :data:`OPT2` release. Spends ε. No GS_Q needed.

    ``prune=True``: Algorithm 4's early stop made exact (identical output; research back-ends only, the release
    back-end runs Algorithm 2's sequential SVT). ``fhat``/``truncation``: solvers of the same instance to reuse.
    Treated as public: ``beta`` (in T = −9 ln(4/β)/ε), ``epsilon``, the τ levels 2^ℓ, the query and the primary
    private relation. Returns an :class:`OPT2Result` with the private ``value`` and chosen ``tau``.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §6.2 (OPT², Algorithm 2 with Ĝ; Theorem 6.8), §6.3 (SPJA), Algorithm 4 (early stop); spec 2.9–2.11.
    """
    fh = fhat or FHat(info)
    stats = InstanceStats(truncation or Truncation(info), fhat=fh)
    return _opt2_release(OPT2, "opt2", stats, (fh,), epsilon=epsilon, beta=beta, rng=rng, accountant=accountant,
                         prune=prune, note=note)


def exp_opt2(info: JoinInfo, *, epsilon: float, beta: float = 0.1, rng: RngLike = None, f_values: dict | None = None,
             truncation: Truncation | None = None, accountant: AccountantLike | None = None, note: str = "") -> OPT2Result:
    """ExpOPT² (Algorithm 2 with the exact G = F − N; exponential time, tiny inputs): one :data:`EXP_OPT2` release.

    ``f_values`` (τ → F) overrides the exact computation, e.g. with the paper's printed (wrong) Ex. 6.3 values for
    the labelled paper-version reproduction of that one instance (fixed numbers, not computed from the data).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §6.1 (ExpOPT², Algorithm 2; Theorem 6.4; Example 6.3); spec 2.8.
    """
    stats = InstanceStats(truncation or Truncation(info), g=_exact_g(info, f_values))
    return _opt2_release(EXP_OPT2, "exp-opt2", stats, (), epsilon=epsilon, beta=beta, rng=rng, accountant=accountant,
                         note=note)


# ---------------------------------------------------------------------------------
# simple baselines (spec 3.1, 3.2)
# ---------------------------------------------------------------------------------
def _laplace_at(value: float, size: int | None, backend, scale: float):
    """value + Lap(scale), or R such outputs (one draw each, in order)."""
    return backend.add_laplace(float(value) if size is None else np.full(size, float(value)), scale)


NAIVE_LAPLACE = Mechanism(
    name="r2t.naive_laplace",
    summary="Q(I) + Lap(GS_Q/ε): the worst-case reference (ε-DP only where GS_Q truly bounds the instance class)",
    params=(EPSILON(), Param("gs", float, help="GS_Q, the noise scale's sensitivity (valid on the instance class)",
                             low=0.0, open_low=True), _NOTE),
    cost=lambda *, epsilon, gs, note: planned(("laplace", epsilon, note or "naive Laplace, sensitivity GS_Q")),
    statistics=lambda data, **p: instance_stats(data, {"Q(I)": ("answer", None)}),
    sensitivity=lambda *, epsilon, gs, note: {"Q(I)": gs},
    noise=lambda stats, backend, size, *, epsilon, gs, note: _laplace_at(instance_stats(stats).info.answer, size,
                                                                         backend, gs / epsilon),
    **_ONE_QUERY, harness_params={"epsilon": 1.0, "gs": float(N_NODES - 1)},
    references="Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §1 (the Laplace mechanism with GS_Q); spec 3.1.",
)


def _fixed_tau_noise(stats, backend, size, *, epsilon, tau, note):
    s = instance_stats(stats)
    qt = s.q(tau)
    out = _laplace_at(qt, size, backend, tau / epsilon)
    return out if size is not None else Drawn(float(out), exact={"truncated": qt, "answer": float(s.info.answer)})


FIXED_TAU = Mechanism(
    name="r2t.fixed_tau",
    summary="Q_LP(I, τ) + Lap(τ/ε) at a data-independent τ (the LP baseline)",
    params=(EPSILON(), Param("tau", float, help="τ: truncation threshold and sensitivity, chosen without the data",
                             low=0.0, open_low=True), _NOTE),
    cost=lambda *, epsilon, tau, note: planned(("lp-fixed-tau", epsilon, note or f"LP truncation at τ={tau:g}")),
    statistics=lambda data, **p: instance_stats(data, _q_keys([p["tau"]])),
    sensitivity=lambda *, epsilon, tau, note: {f"Q(I,{tau:g})": tau},
    noise=_fixed_tau_noise,
    **_ONE_QUERY, harness_params={"epsilon": 1.0, "tau": 2.0},
    references="Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §10 Table 3 (the LP mechanism at a fixed τ); spec 3.2.",
)


def _random_tau_noise(stats, backend, size, *, epsilon, gs, note):
    s = instance_stats(stats)
    taus = tau_grid(gs, 2.0)
    if size is not None:  # R outputs: τ indices first, then one unit Laplace draw each
        k = backend.generator.integers(taus.size, size=size)
        vals = np.array([s.q(t) for t in taus])
        return vals[k] + np.asarray(backend.laplace(1.0, size), dtype=float) * taus[k] / epsilon
    tau = float(taus[int(backend.gumbel_argmax(np.zeros(taus.size)))])  # Gumbel-max over equal logits: uniform
    qt = s.q(tau)
    return Drawn(float(backend.add_laplace(qt, tau / epsilon)), {"tau": tau},
                 {"truncated": qt, "answer": float(s.info.answer)})


RANDOM_TAU = Mechanism(
    name="r2t.random_tau",
    summary="the LP baseline of Table 2: τ uniform on {2, 4, ..., GS} (data independent), then Q_LP(I, τ) + Lap(τ/ε)",
    params=(EPSILON(), Param("gs", float, help="GS_Q, the top of the τ grid {2, 4, ..., GS}", low=0.0, open_low=True),
            _NOTE),
    cost=lambda *, epsilon, gs, note: planned(("lp-fixed-tau", epsilon, note or "LP truncation at τ uniform on the grid")),
    statistics=lambda data, **p: instance_stats(data, _q_keys(tau_grid(p["gs"], 2.0))),
    sensitivity=lambda *, epsilon, gs, note: {f"Q(I,{t:g})": float(t) for t in tau_grid(gs, 2.0)},
    noise=_random_tau_noise,
    **_ONE_QUERY, harness_params={"epsilon": 1.0, "gs": 8.0},
    references="Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §10 Table 2 (the LP baseline); spec 3.2.",
)


def naive_laplace(info: JoinInfo, *, epsilon: float, gs: float, rng: RngLike = None, accountant: AccountantLike | None = None,
                  note: str = "") -> Release:
    """Q(I) + Lap(GS_Q/ε): one :data:`NAIVE_LAPLACE` release. Spends ε. Treated as public: ``gs`` (GS_Q; ε-DP only
    on instance classes where it holds, spec 1.4) and ``epsilon``.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §1 (the Laplace mechanism with GS_Q); spec 3.1.
    """
    rel = NAIVE_LAPLACE.release(info, rng=rng, accountant=accountant, epsilon=epsilon, gs=gs, note=note)
    return dataclasses.replace(rel, mechanism="laplace", public={"epsilon": rel.public["epsilon"], "GS_Q": rel.public["gs"]},
                               exact={"answer": rel.exact["truth"]})


def fixed_tau(q: JoinInfo | Truncation, tau: float, *, epsilon: float, rng: RngLike = None, accountant: AccountantLike | None = None,
              note: str = "") -> Release:
    """Q_LP(I, τ) + Lap(τ/ε) for a data-independent τ: one :data:`FIXED_TAU` release. Spends ε. Treated as public:
    ``tau`` (truncation threshold and sensitivity, chosen without looking at the data) and ``epsilon``.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §10 Table 3 (the LP mechanism at a fixed τ); spec 3.2.
    """
    rel = FIXED_TAU.release(_as_truncation(q), rng=rng, accountant=accountant, epsilon=epsilon, tau=tau, note=note)
    return dataclasses.replace(rel, mechanism="lp-fixed-tau", public={"epsilon": rel.public["epsilon"], "tau": rel.public["tau"]},
                               exact={k: rel.exact[k] for k in ("truncated", "answer")})


def random_tau(q: JoinInfo | Truncation, *, epsilon: float, gs: float, rng: RngLike = None, accountant: AccountantLike | None = None,
               note: str = "") -> Release:
    """The LP baseline of Table 2: one :data:`RANDOM_TAU` release (τ uniform on {2, 4, ..., GS} from the same
    back-end as the noise; the chosen τ in ``details["tau"]``, private: it is data independent).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §10 Table 2 (the LP baseline with τ uniform on the grid); spec 3.2.
    """
    rel = RANDOM_TAU.release(_as_truncation(q), rng=rng, accountant=accountant, epsilon=epsilon, gs=gs, note=note)
    return dataclasses.replace(rel, mechanism="lp-random-tau", public={
        "epsilon": rel.public["epsilon"], "GS_Q": rel.public["gs"], "taus": [float(t) for t in tau_grid(gs, 2.0)]},
        exact={k: rel.exact[k] for k in ("truncated", "answer")})


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


__all__ = ["N_NODES", "SQL_RELATION_NO_SCHEMA", "example_graphs", "research_generator", "EXP_OPT2", "FIXED_TAU", "GRAPH_RELATION", "GroupStats", "InstanceStats", "NAIVE_LAPLACE", "OPT2", "OPT2Result", "R2T",
           "R2TResult", "R2T_GROUP_BY", "RANDOM_TAU", "RELATION", "SQL_RELATION", "ScriptedNoise", "exp_opt2", "fixed_tau",
           "instance_stats", "ls_lower_bound", "naive_laplace", "opt2", "opt2_bound", "privacy_cost_r2t", "r2t", "r2t_accuracy", "R2TAccuracy", "r2t_bound", "r2t_group_by", "random_tau", "tau_grid",
           "FLOOR_NOTE", "QueryRelease", "release_query"]

from . import baselines as _baselines  # noqa: E402,F401  (registers NT, SDE, RM and LS, declared there)
