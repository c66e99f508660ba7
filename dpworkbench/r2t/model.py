"""Truncations Q(I, τ) and the OPT² proxies F̂(I, τ), F(I, τ) (spec 2.3–2.5, 2.8–2.9).

Every truncation here satisfies the R2T interface (spec 2.2): GS(Q(·,τ)) ≤ τ,
Q(I,τ) ≤ Q(I) and Q(I,τ) = Q(I) for τ ≥ τ*(I). Privacy rests on the *exact*
optimum of each LP, so a solver status other than optimal raises
:class:`SolverError` instead of returning a value.

Solvers: HiGHS through ``highspy`` (one model per instance; only the row bounds
τ·1 change between τ values, so each re-solve warm-starts from the previous basis),
the exact max-flow shortcut when every join result references exactly two tuples
(fractional b-matching; bipartite double cover for the general case), and closed
forms for self-join-free queries (clipping Σ min(τ, S_i); F̂ = Σ min(1, τ/S_i)).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from functools import cached_property, partial

import numpy as np
import scipy.sparse as sp
from numba import njit
from scipy.sparse.csgraph import connected_components

from .._validation import check_options
from ..cache import cached
from ..graphs import CSRGraph
from .joininfo import JoinInfo
from .patterns import count, graph_joininfo

_INF = math.inf


class SolverError(RuntimeError):
    """The LP solver did not certify optimality; the value would void the sensitivity argument.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §5.1 (privacy rests on the exact LP optimum); spec 2.4.
    """


def check_tau(tau: float) -> float:
    t = float(tau)
    if not math.isfinite(t) or t < 0:
        raise ValueError(f"tau must be a finite number ≥ 0, got {tau!r}")
    return t


# ---------------------------------------------------------------------------------
# self-join-free truncations (spec 2.3)
# ---------------------------------------------------------------------------------
def clip_value(info: JoinInfo, tau: float) -> float:
    """LP truncation for SJF queries in closed form: Σ_i min(τ, S_i). Exact; O(N).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §5.1 (self-join-free truncation); spec 2.3.
    """
    tau = check_tau(tau)
    if not info.self_join_free:
        raise ValueError("clipping is the LP optimum only for self-join-free queries (every |D_j| = 1)")
    return float(np.minimum(info.S, tau).sum())


def naive_value(info: JoinInfo, tau: float, *, allow_self_joins: bool = False) -> float:
    """Naive truncation Σ_{i: S_i ≤ τ} S_i (PrivateSQL / Tao et al.).

    Valid (sensitivity ≤ τ) only for self-join-free queries; ``allow_self_joins=True``
    computes the graph version (drop nodes of degree > τ and count what is left), which
    is NOT τ-sensitive (spec Ex. 1.2) and exists for the negative demonstration only.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, Example 1.2 (naive truncation is not τ-sensitive with self-joins); spec 2.3.
    """
    tau = check_tau(tau)
    if info.self_join_free:
        s = info.S
        return float(s[s <= tau].sum())
    if not allow_self_joins:
        raise ValueError("naive truncation is not DP with self-joins (spec Ex. 1.2); pass allow_self_joins=True for the demo")
    keep_tuple = info.S <= tau
    bad = np.bincount(info.row_of, weights=(~keep_tuple[info.ids]).astype(float), minlength=info.m) > 0
    return float(info.psi[~bad].sum())


def _spja_separable(info: JoinInfo) -> bool:
    """SJF SPJA where all join results of a projected key reference the same primary tuple."""
    if not (info.is_spja and info.self_join_free) or info.m == 0:
        return False
    owner = np.full(info.psi_proj.size, -1, dtype=np.int64)
    owner[info.proj] = info.ids
    return bool(np.all(owner[info.proj] == info.ids))


def spja_clip_value(info: JoinInfo, tau: float) -> float:
    """LP-SPJA optimum in closed form when the LP separates per primary tuple (e.g. COUNT(DISTINCT order) per customer).

    Tuple i can spend τ of u on its groups; each unit of u yields one unit of v_k up to
    c_k = min(ψ(p_k), Σ_{j∈E_k} ψ_j), so its optimum is min(τ, Σ_k c_k).
    """
    tau = check_tau(tau)
    if not _spja_separable(info):
        raise ValueError("the SPJA closed form needs every projected key to be referenced by a single primary tuple")
    L = info.psi_proj.size
    group_w = np.bincount(info.proj, weights=info.psi, minlength=L)
    cap = np.minimum(info.psi_proj, group_w)
    owner = np.zeros(L, dtype=np.int64)
    owner[info.proj] = info.ids
    present = np.zeros(L, dtype=bool)
    present[info.proj] = True
    per_tuple = np.bincount(owner[present], weights=cap[present], minlength=info.n)
    return float(np.minimum(per_tuple, tau).sum())


# ---------------------------------------------------------------------------------
# cheap exact bounds on LP-SJA (spec 2.4), used for bound pruning
# ---------------------------------------------------------------------------------
def sja_bounds(info: JoinInfo, tau: float) -> tuple[float, float]:
    """(LB, UB) with LB ≤ Q_LP(I,τ) ≤ UB.

    UB = τ|H| + Σ_{j: D_j ∩ H = ∅} ψ_j for H = {i : S_i > τ} (dual feasible);
    LB = Σ_j ψ_j min(1, τ / max_{i∈D_j} S_i) (primal feasible).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §9.1 (bounds used by the early stop); spec 2.7.
    """
    tau = check_tau(tau)
    if info.m == 0:
        return 0.0, 0.0
    if info.is_spja:
        return 0.0, info.answer
    s = info.S
    heavy = s > tau
    touches = np.bincount(info.row_of, weights=heavy[info.ids].astype(float), minlength=info.m) > 0
    ub = tau * heavy.sum() + info.psi[~touches].sum()
    smax = np.maximum.reduceat(s[info.ids], info.ptr[:-1]) if info.m else np.zeros(0)
    with np.errstate(divide="ignore", invalid="ignore"):
        frac = np.where(smax > 0, np.minimum(1.0, tau / smax), 1.0)
    lb = float((info.psi * frac).sum())
    return lb, float(min(ub, info.answer))


# ---------------------------------------------------------------------------------
# HiGHS models
# ---------------------------------------------------------------------------------
def highs_model(time_limit: float | None = None):
    import highspy

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    return h


def set_solve_budget(h, time_limit: float | None, deadline: float | None, what: str) -> None:
    """Budget the next HiGHS solve: at most ``time_limit`` s and never past ``deadline`` (a ``time.perf_counter()`` value).

    A run already past its deadline raises :class:`SolverError` (reported as "OT", over the profile's
    run-time limit), as a HiGHS time-out does; HiGHS's clock accumulates over runs, hence ``getRunTime()``.
    """
    budget = _INF if time_limit is None else float(time_limit)
    if deadline is not None:
        left = deadline - time.perf_counter()
        if left <= 0:
            raise SolverError(f"{what}: over the run-time limit")
        budget = min(budget, left)
    if math.isfinite(budget):
        h.setOptionValue("time_limit", h.getRunTime() + budget)


def pass_rowwise(h, cost, col_lo, col_hi, row_lo, row_hi, A: sp.csr_matrix, maximize: bool = True) -> None:
    """Give ``h`` the LP max/min cost·x, row_lo ≤ A x ≤ row_hi, col_lo ≤ x ≤ col_hi (A row-wise, as HiGHS stores it).

    Through highspy's pointer overload of ``passModel``: HiGHS copies straight from the numpy buffers. Filling a
    ``HighsLp`` instead converts every entry through Python into its vectors and then copies them once more (on a
    reduced LP of 19M columns and 48M nonzeros: 18 s and a second copy of the model). The model HiGHS holds is the
    same (tests/r2t/test_model.py compares it with the inputs)."""
    import highspy

    A = A.tocsr()
    A.sort_indices()
    f64 = partial(np.ascontiguousarray, dtype=np.float64)  # no copy when the dtype already fits
    i32 = partial(np.ascontiguousarray, dtype=np.int32)
    nc, nr = int(A.shape[1]), int(A.shape[0])
    sense = highspy.ObjSense.kMaximize if maximize else highspy.ObjSense.kMinimize
    # the pointer overload reads num_col integrality entries: all continuous (HighsVarType.kContinuous = 0)
    status = h.passModel(nc, nr, int(A.nnz), int(highspy.MatrixFormat.kRowwise), int(sense), 0.0,
                         f64(cost), f64(col_lo), f64(col_hi), f64(row_lo), f64(row_hi),
                         i32(A.indptr), i32(A.indices), f64(A.data), np.zeros(nc, dtype=np.int32))
    if status == highspy.HighsStatus.kError:
        raise SolverError("HiGHS rejected the model")


def solve_optimal(h, what: str) -> float:
    import highspy

    h.run()
    status = h.getModelStatus()
    if status != highspy.HighsModelStatus.kOptimal:
        raise SolverError(f"{what}: HiGHS status {h.modelStatusToString(status)} (not optimal); refusing a non-optimal value")
    return float(h.getInfo().objective_function_value)


@dataclass
class SolveRecord:
    tau: float
    value: float
    method: str
    seconds: float


#: the truncation engines of :class:`Truncation` (the CLI's ``--method`` offers these; each gives the same Q(I, τ))
TRUNCATION_METHODS = ("auto", "lp", "flow", "clip", "naive")


class _SolvedPerTau:
    """A function of τ solved on demand (Q(I, τ) or F̂(I, τ)): the subclass's ``_solve(tau)`` gives (value, how) once
    per τ; the value is cached and the solve logged with its time (exact values, NOT PRIVATE)."""

    def __init__(self) -> None:
        self._cache: dict[float, float] = {}
        self.log: list[SolveRecord] = []

    def value(self, tau: float) -> float:
        tau = check_tau(tau)
        if tau in self._cache:
            return self._cache[tau]
        t0 = time.perf_counter()
        v, how = self._solve(tau)
        self._cache[tau] = v
        self.log.append(SolveRecord(tau, v, how, time.perf_counter() - t0))
        return v

    def solved(self) -> dict[float, float]:
        """The values solved so far (τ → value; exact, NOT PRIVATE)."""
        return dict(self._cache)

    def adopt(self, values: dict[float, float]) -> None:
        """Reuse values solved by another solver of the same class on the same instance (skips re-solving them)."""
        self._cache.update(values)


class Truncation(_SolvedPerTau):
    """Q(I, τ) for one instance: LP-SJA / LP-SPJA / flow / clipping, with a value cache.

    ``method``: ``"auto"`` (clipping for SJF, flow when every |D_j| = 2 with integer ψ,
    else the LP), ``"lp"`` (always HiGHS), ``"flow"``, ``"clip"`` or ``"naive"`` (SJF only).
    ``shortcut``: return Q(I) for τ ≥ DS (resp. IS) without solving (exact, Lemma 5.3/5.7).
    ``warm_start``: keep one HiGHS model and only change the row bounds between τ values (unreduced LP only).
    ``reduce``: solve each τ's LP after the exact reductions of :mod:`dpworkbench.r2t.reduce` (rows that cannot
    bind dropped, unconstrained columns fixed, identical columns merged, one LP per connected component);
    SJA only, the same optimum (tests/r2t/test_reduce.py).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §5.1 (LP truncation for SJA, Lemma 5.3), §5.2 (SPJA, Lemma 5.7); spec 2.3–2.5 (max-flow and clipping).
    """

    def __init__(self, info: JoinInfo, method: str = "auto", *, shortcut: bool = True, warm_start: bool = True,
                 time_limit: float | None = None, reduce: bool = True):
        super().__init__()
        check_options(method, "method", TRUNCATION_METHODS)
        self.info = info
        if method == "auto":
            if info.is_spja:
                method = "clip" if _spja_separable(info) else "lp"
            elif info.self_join_free:
                method = "clip"
            elif info.m and info.integral and np.all(info.sizes == 2):
                method = "flow"
            else:
                method = "lp"
        if method in ("clip", "naive") and not info.self_join_free:
            raise ValueError(f"{method} truncation requires a self-join-free query")
        if method == "naive" and info.is_spja:
            raise ValueError("naive truncation is defined for SJA queries only")
        if method == "clip" and info.is_spja and not _spja_separable(info):
            raise ValueError("the SPJA closed form needs every projected key to be referenced by a single primary tuple")
        if method == "flow" and (info.is_spja or not np.all(info.sizes == 2)):
            raise ValueError("the max-flow shortcut needs every join result to reference exactly two tuples (SJA)")
        if method == "flow" and not info.integral:
            # integer capacities only: rounding SUM weights would change Q(I, τ) (spec 2.4); the LP is exact
            raise ValueError("the max-flow shortcut needs integer weights ψ (COUNT); use method='lp' for SUM weights")
        self.method = method
        self.shortcut = shortcut
        self.warm_start = warm_start
        self.reduce = bool(reduce) and not info.is_spja
        self._padded = None
        self._y = None  # last dual iterate per tuple (warm start of the early stop's bounds across τ)
        self.reduced_stats: dict[float, dict] = {}  # NOT PRIVATE: sizes read off the data (research logs)
        self.stopped: dict[float, float] = {}  # τ → certified upper bound at which its LP was stopped (NOT PRIVATE)
        self.time_limit = time_limit
        self.deadline: float | None = None  # perf_counter() value; set by a timed run with a run-time limit
        self._h = None
        self._fg = None

    # -- public ---------------------------------------------------------------------
    def __call__(self, tau: float) -> float:
        return self.value(tau)

    def _solve(self, tau: float) -> tuple[float, str]:
        info = self.info
        if tau == 0 or info.m == 0:
            v, how = 0.0, "zero"
        elif self.shortcut and self.method != "naive" and tau >= info.DS:
            v, how = info.answer, "shortcut τ≥DS"
        elif self.method == "clip":
            v, how = (clip_value(info, tau) if not info.is_spja else spja_clip_value(info, tau)), "clip"
        elif self.method == "naive":
            v, how = naive_value(info, tau), "naive"
        elif self.method == "flow":
            v, how = self._flow(tau), "flow"
        else:
            v, how = self._lp(tau), "lp"
        return v, how

    def prepare(self) -> None:
        """Compute the τ-independent state once, before τ's are solved on several threads (:mod:`.parallel`)."""
        info = self.info
        _ = info.S, info.DS, info.answer, info.sizes
        if self.method == "lp" and self.reduce and info.m:
            from .reduce import padded_ids

            if self._padded is None:
                self._padded = padded_ids(info)
            if self._y is None:
                self._y = np.ones(info.n)

    def bounds(self, tau: float) -> tuple[float, float]:
        tau = check_tau(tau)
        if tau in self._cache:
            return self._cache[tau], self._cache[tau]
        if self.shortcut and tau >= self.info.DS:
            return self.info.answer, self.info.answer
        if self.method == "naive":
            return 0.0, self.info.answer
        if self.method == "clip":  # closed form: exact and O(N)
            v = self.value(tau)
            return v, v
        return sja_bounds(self.info, tau)

    # -- flow -----------------------------------------------------------------------
    def _flow(self, tau: float) -> float:
        info = self.info
        scale = 1
        while tau * scale != math.floor(tau * scale):
            scale *= 2
            if scale > 2**20:
                return self._lp(tau)
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SolverError(f"max-flow truncation at τ={tau:g}: over the run-time limit")
        if self._fg is None:
            self._fg = _flow_network(info)
        net = self._fg
        w = np.round(info.psi * scale).astype(np.int64)  # ψ integral (checked in __init__): exact
        cap_node = np.minimum(np.round(info.S * scale).astype(np.int64), int(round(tau * scale)))
        cap = np.concatenate([cap_node[net.src_nodes], np.tile(w, net.mid_copies), cap_node[net.sink_nodes]])
        if cap.size and cap.max() > 2**50:
            return self._lp(tau)
        return float(maxflow_value(net, cap)) / (net.div * scale)

    # -- LP ---------------------------------------------------------------------------
    def _build(self):
        info = self.info
        h = highs_model(self.time_limit)
        A = info.incidence  # n × M
        if not info.is_spja:
            pass_rowwise(h, np.ones(info.m), np.zeros(info.m), info.psi, np.full(info.n, -_INF), np.full(info.n, 1.0), A)
            self._rows = np.arange(info.n, dtype=np.int32)
        else:
            L = info.psi_proj.size
            E = sp.csr_matrix((np.ones(info.m), (info.proj, np.arange(info.m))), shape=(L, info.m))
            # variables [u (M) | v (L)]; rows: v_k − Σ_{j∈E_k} u_j ≤ 0 ; Σ_{j∈C_i} u_j ≤ τ
            top = sp.hstack([-E, sp.identity(L, format="csr")], format="csr")
            bottom = sp.hstack([A, sp.csr_matrix((info.n, L))], format="csr")
            M = sp.vstack([top, bottom], format="csr")
            cost = np.concatenate([np.zeros(info.m), np.ones(L)])
            hi = np.concatenate([info.psi, info.psi_proj])
            pass_rowwise(h, cost, np.zeros(info.m + L), hi, np.full(L + info.n, -_INF),
                          np.concatenate([np.zeros(L), np.ones(info.n)]), M)
            self._rows = np.arange(L, L + info.n, dtype=np.int32)
        return h

    def _lp(self, tau: float) -> float:
        if self.reduce:
            return self._lp_reduced(tau)
        if self._h is None or not self.warm_start:
            self._h = self._build()
        h = self._h
        r = self._rows
        set_solve_budget(h, self.time_limit, self.deadline, f"LP truncation at τ={tau:g}")
        h.changeRowsBounds(r.size, r, np.full(r.size, -_INF), np.full(r.size, float(tau)))
        v = solve_optimal(h, f"LP truncation at τ={tau:g}")
        return min(v, self.info.answer)

    def _reduced(self, tau: float, *, split: bool):
        """The exactly reduced LP of τ (:func:`dpworkbench.r2t.reduce.reduce_lp`); subclasses may build it without
        enumerating join results (:mod:`dpworkbench.r2t.aggregate`)."""
        from .reduce import padded_ids, reduce_lp

        if self._padded is None:
            self._padded = padded_ids(self.info)
        return reduce_lp(self.info, tau, padded=self._padded, split=split)

    def _lp_reduced(self, tau: float) -> float:
        red = self._reduced(tau, split=True)
        self.reduced_stats[tau] = red.stats
        return min(red.fixed + red.closed + self._solve_blocks(red.blocks, tau), self.info.answer)

    def _solve_blocks(self, blocks: list, tau: float) -> float:
        """Σ of the blocks' LP values. Empties ``blocks``: a block's arrays are dropped once HiGHS holds its copy, so
        the LP is not held twice while HiGHS solves it (a reduced LP of the paper profile's whole graphs has up to
        tens of millions of columns; callers keep no other reference to them)."""
        v = 0.0
        while blocks:
            w, A = blocks.pop(0)
            h = highs_model(self.time_limit)
            set_solve_budget(h, self.time_limit, self.deadline, f"LP truncation at τ={tau:g}")
            pass_rowwise(h, np.ones(w.size), np.zeros(w.size), w, np.full(A.shape[0], -_INF), np.full(A.shape[0], float(tau)), A)
            del w, A
            v += solve_optimal(h, f"LP truncation at τ={tau:g}")
            del h  # this block's HiGHS model goes before the next block's is built
        return v

    def value_or_stop(self, tau: float, target: float, *, sweeps: int = 30) -> float | None:
        """Q(I, τ) exactly, or ``None`` as soon as a certified upper bound shows Q(I, τ) ≤ ``target`` (early stop).

        The paper's early stop (§9.1, Algorithm 3) watches a dual solver's decreasing objective and kills the LP
        once it cannot beat the running maximum. HiGHS exposes no valid running dual bound (spec 2.7), so the
        dual iterates are our own: coordinate descent on the dual of the reduced LP
        (:func:`dpworkbench.r2t.reduce.dual_upper_bound`), each iterate feasible, hence an upper bound by weak
        duality. If the bound does not get below ``target`` within ``sweeps`` sweeps, HiGHS solves the reduced
        LP to optimality, so a returned value is always exact and a ``None`` is always correct.
        """
        tau = check_tau(tau)
        if tau in self._cache:
            return self._cache[tau]
        info = self.info
        if not (self.method == "lp" and self.reduce) or tau == 0 or info.m == 0 or (self.shortcut and tau >= info.DS):
            return self.value(tau)
        from .reduce import dual_upper_bound, split_components

        t0 = time.perf_counter()
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SolverError(f"LP truncation at τ={tau:g}: over the run-time limit")
        red = self._reduced(tau, split=False)
        self.reduced_stats[tau] = red.stats
        v = red.fixed
        if red.blocks:
            w, A = red.blocks[0]
            # warm start: the dual iterate of the previous τ on the tuples heavy at both (any y ≥ 0 is dual feasible)
            if self._y is None:
                self._y = np.ones(info.n)
            ub, y, done = dual_upper_bound(w, A, tau, target=target - v, y0=self._y[red.heavy_ids])
            self._y[red.heavy_ids] = y
            bound = v + ub
            if bound + 1e-9 * max(1.0, abs(bound)) <= target:
                self.stopped[tau] = bound
                self.log.append(SolveRecord(tau, math.nan, f"early stop (UB {bound:.6g} ≤ target, {done} sweeps)",
                                            time.perf_counter() - t0))
                return None
            closed, blocks, _ = split_components(w, A, tau)
            del w, A, y
            red.blocks.clear()  # the blocks list now holds the only references (_solve_blocks drops them as it goes)
            v += closed + self._solve_blocks(blocks, tau)
        v = min(v, info.answer)
        self._cache[tau] = v
        self.log.append(SolveRecord(tau, v, "lp (reduced; early stop not reached)", time.perf_counter() - t0))
        return v


# ---------------------------------------------------------------------------------
# exact max-flow for LP-SJA when every |D_j| = 2 (spec 2.4): push-relabel in numba
# ---------------------------------------------------------------------------------
@dataclass
class FlowNetwork:
    """The τ-independent part of the flow network of LP-SJA (arcs, reverse arcs); only capacities change with τ.

    Forward arcs in order: source → tuple (one per ``src_nodes``), ``mid_copies`` copies of the
    join-result arcs, tuple → sink (one per ``sink_nodes``). ``div`` = 2 for the bipartite double
    cover (general case), 1 for the bipartite case (two primary relations, spec 2.12).
    """

    size: int
    s: int
    t: int
    first: np.ndarray
    head: np.ndarray
    rev: np.ndarray
    pos: np.ndarray  # position of forward arc k in the CSR arrays
    src_nodes: np.ndarray
    sink_nodes: np.ndarray
    mid_copies: int
    div: int


@njit(cache=True)
def _csr_network(size, src, dst):
    m = src.size
    first = np.zeros(size + 1, np.int64)
    for k in range(m):
        first[src[k] + 1] += 1
        first[dst[k] + 1] += 1
    for i in range(size):
        first[i + 1] += first[i]
    fill = first[:-1].copy()
    head = np.empty(2 * m, np.int64)
    rev = np.empty(2 * m, np.int64)
    pos = np.empty(m, np.int64)
    for k in range(m):
        u = src[k]
        v = dst[k]
        i = fill[u]
        fill[u] += 1
        j = fill[v]
        fill[v] += 1
        head[i] = v
        rev[i] = j
        head[j] = u
        rev[j] = i
        pos[k] = i
    return first, head, rev, pos


def _flow_network(info: JoinInfo) -> FlowNetwork:
    n = info.n
    a = info.ids[0::2]
    b = info.ids[1::2]
    tags = info.tags
    nodes = np.arange(n, dtype=np.int64)
    if tags is not None and len(set(tags.tolist())) == 2 and bool(np.all(tags[a] != tags[b])):
        # bipartite: source → left tuple (τ), left → right (ψ_j), right tuple → sink (τ); Q = maxflow
        is_left = tags == tags[a[0]]
        a2 = np.where(is_left[a], a, b)
        b2 = np.where(is_left[a], b, a)
        s, t = n, n + 1
        lefts, rights = nodes[is_left], nodes[~is_left]
        src = np.concatenate([np.full(lefts.size, s), a2, rights])
        dst = np.concatenate([lefts, b2, np.full(rights.size, t)])
        size, copies, div, src_nodes, sink_nodes = n + 2, 1, 1, lefts, rights
    else:
        # bipartite double cover: s → i_L (τ), a_L → b_R and b_L → a_R (ψ_j), i_R → t (τ); Q = maxflow / 2
        s, t = 2 * n, 2 * n + 1
        src = np.concatenate([np.full(n, s), a, b, nodes + n])
        dst = np.concatenate([nodes, b + n, a + n, np.full(n, t)])
        size, copies, div, src_nodes, sink_nodes = 2 * n + 2, 2, 2, nodes, nodes
    first, head, rev, pos = _csr_network(size, src.astype(np.int64), dst.astype(np.int64))
    return FlowNetwork(size, s, t, first, head, rev, pos, src_nodes, sink_nodes, copies, div)


@njit(cache=True)
def _global_relabel(size, first, head, cap, rev, t, label):
    """Exact distance-to-sink labels in the residual graph (BFS backwards from t); unreachable → size."""
    for i in range(size):
        label[i] = size
    label[t] = 0
    queue = np.empty(size, np.int64)
    qh = 0
    qt = 1
    queue[0] = t
    while qh < qt:
        w = queue[qh]
        qh += 1
        for e in range(first[w], first[w + 1]):
            v = head[e]
            if label[v] == size and cap[rev[e]] > 0:
                label[v] = label[w] + 1
                queue[qt] = v
                qt += 1


@njit(cache=True)
def _greedy_three_hop(size, first, head, cap, rev, s, t):
    """Route flow greedily along s → u → v → t paths (a valid flow; max flow = this + max flow of the residual)."""
    to_t = np.full(size, -1, np.int64)
    for v in range(size):
        for e in range(first[v], first[v + 1]):
            if head[e] == t and cap[e] > 0:
                to_t[v] = e
                break
    total = 0
    for e1 in range(first[s], first[s + 1]):
        u = head[e1]
        if u == t:  # (u ≠ t and v ≠ s keep the three arcs distinct)
            continue
        for e2 in range(first[u], first[u + 1]):
            if cap[e1] == 0:
                break
            if cap[e2] == 0 or head[e2] == s:
                continue
            e3 = to_t[head[e2]]
            if e3 < 0 or cap[e3] == 0:
                continue
            d = min(cap[e1], min(cap[e2], cap[e3]))
            cap[e1] -= d
            cap[rev[e1]] += d
            cap[e2] -= d
            cap[rev[e2]] += d
            cap[e3] -= d
            cap[rev[e3]] += d
            total += d
    return total


@njit(cache=True)
def _queue_active(size, s, t, excess, label, queue, inq):
    """Queue (FIFO from 0) every active node that can still reach t; returns how many were queued."""
    qn = 0
    for v in range(size):
        if v != s and v != t and excess[v] > 0 and label[v] < size:
            queue[qn] = v
            qn += 1
            inq[v] = True
    return qn


@njit(cache=True)
def _push_relabel(size, first, head, cap, rev, s, t):
    """Maximum s–t flow value (FIFO push-relabel with periodic global relabelling; integer capacities).

    Phase one only: once no active node can reach t, the excess at t is the max-flow value.
    """
    excess = np.zeros(size, np.int64)
    label = np.zeros(size, np.int64)
    current = first[:-1].copy()
    for e in range(first[s], first[s + 1]):
        c = cap[e]
        if c > 0:
            cap[e] = 0
            cap[rev[e]] += c
            excess[head[e]] += c
    _global_relabel(size, first, head, cap, rev, t, label)
    label[s] = size
    inq = np.zeros(size, np.bool_)
    queue = np.empty(size, np.int64)  # circular FIFO; a node is queued at most once
    qh = 0
    qn = _queue_active(size, s, t, excess, label, queue, inq)
    work = 0
    period = 6 * size + first[size]
    while qn > 0:
        u = queue[qh]
        qh = (qh + 1) % size
        qn -= 1
        inq[u] = False
        if label[u] >= size:
            continue
        while excess[u] > 0:
            e = current[u]
            if e == first[u + 1]:  # relabel
                best = 2 * size
                for f in range(first[u], first[u + 1]):
                    if cap[f] > 0 and label[head[f]] + 1 < best:
                        best = label[head[f]] + 1
                work += first[u + 1] - first[u] + 12
                label[u] = best if best < size else size
                current[u] = first[u]
                if label[u] >= size:
                    break
                continue
            v = head[e]
            if cap[e] > 0 and label[u] == label[v] + 1:
                d = excess[u] if excess[u] < cap[e] else cap[e]
                cap[e] -= d
                cap[rev[e]] += d
                excess[u] -= d
                excess[v] += d
                if v != s and v != t and not inq[v]:
                    queue[(qh + qn) % size] = v
                    qn += 1
                    inq[v] = True
            else:
                current[u] = e + 1
        if work > period:  # global relabel, then rebuild the queue of active nodes that can still reach t
            work = 0
            _global_relabel(size, first, head, cap, rev, t, label)
            label[s] = size
            for i in range(size):
                current[i] = first[i]
                inq[i] = False
            qh = 0
            qn = _queue_active(size, s, t, excess, label, queue, inq)
    return excess[t]


def maxflow_value(net: FlowNetwork, cap: np.ndarray) -> int:
    """Max-flow value of ``net`` with forward capacities ``cap`` (integers ≥ 0, in the network's arc order)."""
    cap = np.asarray(cap, dtype=np.int64)
    if cap.size != net.pos.size:
        raise ValueError(f"cap must have one entry per forward arc ({net.pos.size}), got {cap.size}")
    if cap.size and cap.min() < 0:
        raise ValueError("capacities must be ≥ 0")
    res = np.zeros(net.head.size, dtype=np.int64)
    res[net.pos] = cap
    start = _greedy_three_hop(net.size, net.first, net.head, res, net.rev, net.s, net.t)
    return int(start + _push_relabel(net.size, net.first, net.head, res, net.rev, net.s, net.t))


def network_from_arcs(size: int, src: np.ndarray, dst: np.ndarray, s: int, t: int) -> FlowNetwork:
    """A generic :class:`FlowNetwork` (for tests and reuse): arcs src[k] → dst[k], capacities given to :func:`maxflow_value`."""
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    if src.size != dst.size:
        raise ValueError("src and dst must have the same length")
    if src.size and (min(src.min(), dst.min()) < 0 or max(src.max(), dst.max()) >= size):
        raise ValueError(f"arc endpoints must lie in [0, size={size})")
    first, head, rev, pos = _csr_network(int(size), src, dst)
    empty = np.zeros(0, dtype=np.int64)
    return FlowNetwork(int(size), int(s), int(t), first, head, rev, pos, empty, empty, 0, 1)


# ---------------------------------------------------------------------------------
# OPT² proxies (spec 2.8–2.9)
# ---------------------------------------------------------------------------------
class FHat(_SolvedPerTau):
    """F̂(I, τ) (LP relaxation of the max sub-instance with every S_i ≤ τ), over the active tuples.

    Ĝ(I, τ) = F̂ − N = F̂_active − n_active (inactive tuples always keep y_i = 1, spec 2.0).
    SJF instances use the exact closed form Σ_i min(1, τ/S_i). For τ ≥ DS, F̂ = n (Lemma 6.5).
    ``decompose=True`` solves connected components separately and reuses the value of
    identical components (exact: the LP separates over components).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §6.2 (the LP relaxation F̂ of the max sub-instance, Lemmas 6.5–6.6); spec 2.9.
    """

    def __init__(self, info: JoinInfo, *, shortcut: bool = True, decompose: bool = False, time_limit: float | None = None):
        super().__init__()
        self.info = info
        self.time_limit = time_limit
        self.deadline: float | None = None  # perf_counter() value; set by a timed run with a run-time limit
        self.shortcut = shortcut
        self.decompose = decompose
        self._h = None
        # each solved LP's dual bounds F̂ at every τ by a line a + b·τ (g_upper); only (a, b) are kept, not the duals
        self._dual_lines: list[tuple[float, float]] = []

    def _solve(self, tau: float) -> tuple[float, str]:
        info = self.info
        if info.m == 0 or (self.shortcut and tau >= info.DS):
            v, how = float(info.n), "shortcut τ≥DS"
        elif info.self_join_free:
            with np.errstate(divide="ignore"):
                v, how = float(np.minimum(1.0, np.where(info.S > 0, tau / np.maximum(info.S, 1e-300), 1.0)).sum()), "closed form"
        elif self.decompose:
            v, how = _by_components(info, lambda sub: FHat(sub, decompose=False).value(tau)), "components"
        else:
            v, how = self._lp(tau), "lp"
        return v, how

    def g(self, tau: float) -> float:
        """Ĝ(I, τ) = F̂(I, τ) − N ≤ 0, sensitivity 1 (Lemma 6.6)."""
        return self.value(tau) - self.info.n

    def g_upper(self, tau: float) -> float:
        """A certified upper bound on Ĝ(I, τ) without solving its LP (0 when nothing is known): F̂ is monotone in τ,
        so a value solved at τ' ≥ τ bounds it, and by weak duality so does every solved LP's dual at this τ's
        right-hand side. The second is what lets OPT²'s Algorithm 4 skip a small τ's LP (the slow ones, §9.1): the
        dual of τ' = 2τ already shows that Ĝ(I, τ) plus its noise stays under the threshold.

        For max cᵀx, Ax ≤ b(τ), 0 ≤ x ≤ 1 and any λ ≥ 0: F̂ ≤ b(τ)ᵀλ + Σ_k max(0, c_k − (Aᵀλ)_k). Only the tuples'
        rows (Σ ψ z ≤ τ) depend on τ. The bound holds for any λ ≥ 0, so HiGHS's tolerances cannot make it invalid;
        a margin covers the float sums."""
        tau = check_tau(tau)
        if tau in self._cache:
            return self._cache[tau] - self.info.n
        n = self.info.n
        best = min([float(n)] + [v for t, v in self._cache.items() if t >= tau])
        best = min([best] + [a + b * tau for a, b in self._dual_lines])
        return min(best - n, 0.0)

    def _build(self):
        info = self.info
        n, m = info.n, info.m
        # variables [y (n) | z (m)]
        Dt = sp.csr_matrix((np.ones(info.ids.size), (info.row_of, info.ids)), shape=(m, n))
        top = sp.hstack([Dt, -sp.identity(m, format="csr")], format="csr")
        bottom = sp.hstack([sp.csr_matrix((n, n)), info.incidence.multiply(info.psi[None, :]).tocsr()], format="csr")
        A = sp.vstack([top, bottom], format="csr")
        h = highs_model(self.time_limit)
        cost = np.concatenate([np.ones(n), np.zeros(m)])
        pass_rowwise(h, cost, np.zeros(n + m), np.ones(n + m), np.full(m + n, -_INF),
                      np.concatenate([(info.sizes - 1).astype(float), np.ones(n)]), A)
        self._rows = np.arange(m, m + n, dtype=np.int32)
        self._A, self._c = A, cost  # kept for the dual bounds of g_upper
        return h

    def _lp(self, tau: float) -> float:
        if self._h is None:
            self._h = self._build()
        r = self._rows
        set_solve_budget(self._h, self.time_limit, self.deadline, f"F̂ LP at τ={tau:g}")
        self._h.changeRowsBounds(r.size, r, np.full(r.size, -_INF), np.full(r.size, float(tau)))
        v = min(solve_optimal(self._h, f"F̂ LP at τ={tau:g}"), float(self.info.n))
        # a maximisation's ≤-row duals are ≥ 0 up to sign convention and tolerances; any λ ≥ 0 gives a valid bound,
        # b(τ)ᵀλ + Σ max(0, c − Aᵀλ) = a + b·τ, with the tuples' rows (the last n) the only ones depending on τ
        lam = np.abs(np.asarray(self._h.getSolution().row_dual, dtype=float))
        m, n = self.info.m, self.info.n
        a = float((self.info.sizes - 1).astype(float) @ lam[:m]) + float(np.maximum(self._c - self._A.T @ lam, 0.0).sum())
        margin = 1e-9 * (n + m) * (1.0 + float(lam.max(initial=0.0)))  # covers the float sums
        self._dual_lines.append((a + margin, float(lam[m:].sum())))
        return v


def _components(info: JoinInfo) -> list[JoinInfo]:
    """Split into connected components of the tuple–result incidence (tuples relabelled)."""
    n, m = info.n, info.m
    g = sp.csr_matrix((np.ones(info.ids.size), (info.ids, info.row_of + n)), shape=(n + m, n + m))
    k, lab = connected_components(g, directed=False)
    tuple_lab = lab[:n]
    row_lab = lab[n:]
    order_rows = np.argsort(row_lab, kind="stable")
    out = []
    starts = np.searchsorted(row_lab[order_rows], np.arange(k + 1))
    t_order = np.argsort(tuple_lab, kind="stable")
    t_starts = np.searchsorted(tuple_lab[t_order], np.arange(k + 1))
    for c in range(k):
        rows = order_rows[starts[c]:starts[c + 1]]
        if rows.size == 0:
            continue
        tup = t_order[t_starts[c]:t_starts[c + 1]]
        remap = np.full(n, -1, dtype=np.int64)
        remap[tup] = np.arange(tup.size)
        sizes = info.sizes[rows]
        ptr = np.zeros(rows.size + 1, dtype=np.int64)
        np.cumsum(sizes, out=ptr[1:])
        ids = np.concatenate([info.ids[info.ptr[j]:info.ptr[j + 1]] for j in rows])
        out.append(JoinInfo(info.psi[rows], ptr, remap[ids], int(tup.size)))
    return out


def _signature(sub: JoinInfo) -> bytes:
    return sub.psi.tobytes() + b"|" + sub.ptr.tobytes() + b"|" + sub.ids.tobytes()


def _by_components(info: JoinInfo, fn) -> float:
    memo: dict[bytes, float] = {}
    total = 0.0
    for sub in _components(info):
        key = _signature(sub)
        if key not in memo:
            memo[key] = fn(sub)
        total += memo[key]
    return total


def f_exact(info: JoinInfo, tau: float, *, decompose: bool = True, time_limit: float = 60.0) -> float:
    """Exact F(I, τ) (eq. 13) over the active tuples via the ILP of spec 2.9 (NP-hard: tiny inputs only).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §6.1 (F(I,τ), Example 6.3); spec 2.8.
    """
    tau = check_tau(tau)
    if info.m == 0 or tau >= info.DS:
        return float(info.n)
    if info.self_join_free:
        return float((info.S <= tau).sum())
    if decompose:
        return _by_components(info, lambda sub: f_exact(sub, tau, decompose=False, time_limit=time_limit))
    from scipy.optimize import Bounds, LinearConstraint, milp

    n, m = info.n, info.m
    Dt = sp.csr_matrix((np.ones(info.ids.size), (info.row_of, info.ids)), shape=(m, n))
    top = sp.hstack([Dt, -sp.identity(m)], format="csr")
    bottom = sp.hstack([sp.csr_matrix((n, n)), info.incidence.multiply(info.psi[None, :])], format="csr")
    A = sp.vstack([top, bottom], format="csr")
    ub = np.concatenate([(info.sizes - 1).astype(float), np.full(n, tau)])
    res = milp(-np.concatenate([np.ones(n), np.zeros(m)]), constraints=LinearConstraint(A, -np.inf, ub),
               bounds=Bounds(0, 1), integrality=np.ones(n + m), options={"time_limit": time_limit})
    if res.status != 0:
        raise SolverError(f"exact F MILP not solved to optimality: {res.message}")
    return float(round(-res.fun))




# ---------------------------------------------------------------------------------
# instances: a dataset × query with its non-private state (spec 4, 5.5)
# ---------------------------------------------------------------------------------
GS_EXPONENT = {"edge": 1, "path2": 2, "triangle": 2, "rectangle": 3}


@cached("r2t.graph_joininfo", key=lambda g, query, *, name="": (g.fingerprint, query, name))
def graph_joininfo_cached(g: CSRGraph, query: str, *, name: str = "") -> JoinInfo:
    """:func:`dpworkbench.r2t.patterns.graph_joininfo`, cached by the graph's content (one enumeration per graph × query)."""
    return graph_joininfo(g, query, name=name)


@cached("r2t.pattern_count", key=lambda g, query: (g.fingerprint, query))
def pattern_count(g: CSRGraph, query: str) -> int:
    """:func:`dpworkbench.r2t.patterns.count`, cached by the graph's content."""
    return count(g, query)


@dataclass
class Instance:
    """One (dataset, query) pair with its non-private state: join information, Q(I,τ) and F̂(I,τ) solvers.

    Everything here is exact and NOT PRIVATE; mechanisms in :mod:`.mechanisms` and
    :mod:`.baselines` turn it into releases. ``cache`` memoises per-instance baseline work
    (NT/SDE truncated counts, RM LPs) for repetitions that only redraw noise.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §10 (the experiments' dataset × query instances); spec 5.5 (non-private work cached).
    """

    dataset: str
    query: str
    info: JoinInfo
    gs: float
    source: str
    graph: CSRGraph | None = None
    degree_bound: int | None = None
    extract_seconds: float = 0.0
    sql_seconds: float = 0.0
    trunc: Truncation | None = None
    fhat: FHat | None = None
    cache: dict = field(default_factory=dict)
    oversize: int = 0  # > 0: join results not materialised (count only); LP-based mechanisms report OT

    def __post_init__(self):
        self.trunc = self.trunc or Truncation(self.info)
        self.fhat = self.fhat or FHat(self.info)

    @property
    def answer(self) -> float:
        return float(self.oversize) if self.oversize else self.info.answer

    @property
    def aggregated(self) -> bool:
        """Q2- truncated from per-node counts (:mod:`dpworkbench.r2t.aggregate`): no join results are held."""
        return not hasattr(self.info, "psi")

    @property
    def ds(self) -> float:
        return float("nan") if self.oversize else self.info.DS

    @cached_property
    def key(self) -> str:
        """Content-derived identity (dataset, query, GS and a data fingerprint): a run_grid cell parameter, so a
        resumed run never reuses results computed on other data."""
        from ..cache import fingerprint

        i = self.info
        if self.aggregated:  # Q2- from per-node counts (no join results held): the graph is the data
            data = fingerprint(self.graph.fingerprint, "aggregated", i.n, i.m)
        else:
            data = fingerprint(self.graph.fingerprint if self.graph is not None else None, i.psi, i.ptr, i.ids, i.n, i.proj,
                               i.psi_proj)
        return f"{self.dataset}|{self.query}|GS={self.gs:g}|D={self.degree_bound}|{data[:16]}|{self.oversize}"


def tpch_instance(con, name: str, *, gs: float = 1e6, sf: float | None = None) -> Instance:
    """One TPC-H query (:data:`dpworkbench.r2t.tpch.QUERIES`) as an :class:`Instance`; the join extraction is
    checked against the plain SQL answer.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §8.2 (TPC-H queries, Table 5, Figs. 8–9).
    """
    from . import tpch

    ex = tpch.extract_query(con, name, completed=True)  # the query as written; keys from the TPC-H DDL (issue 22)
    ans, sql_s = tpch.answer(con, name)
    inst = Instance(f"TPC-H SF{sf:g}" if sf else "TPC-H", name, ex.info, gs, "generated (tpchgen-cli)",
                    extract_seconds=ex.seconds, sql_seconds=sql_s)
    if abs(ans - ex.info.answer) > 1e-6 * max(1.0, abs(ans)):
        raise AssertionError(f"{name}: reporting query gives {ex.info.answer}, SQL gives {ans}")
    return inst


__all__ = ["FHat", "GS_EXPONENT", "Instance", "SolverError", "Truncation", "clip_value", "f_exact",
           "graph_joininfo_cached", "naive_value", "pattern_count", "sja_bounds", "tpch_instance"]
