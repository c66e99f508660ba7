"""The non-private model of the inconsistency paper: exact measures, stable edge orders, Algorithm 1 and the
deterministic parts of θ selection (candidates Θ, the quality of Eq. 2, the FD degree bound, Thm 2's bound).

Nothing here spends ε or draws randomness: every function is a deterministic function of the conflict graph
(:mod:`.conflict_graph`), the table, or public parameters, so results can be cached by content. The private
algorithms built on it are in :mod:`.mechanisms`.

Exact measures (Definition 1, Table 2): I_D, I_MI (edges), I_P (non-isolated nodes), I_R exact (MILP, HiGHS;
small graphs), its LP relaxation I_R^lin (exact, solver-free: half a maximum matching of the bipartite double
cover; and a HiGHS LP for checking), the greedy 2-approximation, and I_MC (number of maximal independent sets;
tiny graphs). With ``unary_policy="separate"`` graphs, |U| (tuples violating a single-tuple DC) is added (spec §1.3).

Stable edge orderings and Algorithm 1 (edge addition, Day–Li–Lyu) with memoised F(θ). An ordering must be fixed
before looking at the data and order the common edges of two neighbouring databases identically (Definition 7).
The neighbouring relation is add/remove one tuple **at any row position**, so an order may depend on what a tuple
*is*, never on where the others put it:

* ``"lex"``: key (min position, max position). Stable: deleting or inserting a row keeps the relative
  order of all other rows, hence of their edges.
* ``"rank"`` (default): every tuple gets a pseudo-random rank from a keyed hash (splitmix64) of its
  **identity** and the seed, key (max rank, min rank) — Day et al.'s node-sequence order ("an edge is added
  when its later endpoint is visited"). The identity (:class:`~.conflict_graph.NodeIdentity`) is the user's
  key column or a hash of the tuple's content for a graph built from a table, the node label for an explicit
  edge list. (Hashing the row *position* — the earlier rule — is not stable: deleting row i shifts every
  later position and reshuffles the ranks of all later tuples; finding 1.)

References
----------
.. [1] Mohapatra, Gilad, He, Kimelfeld. "Differentially Private Inconsistency Measures", SIGMOD 2025:
   Definition 1 and Table 2 (measures), §4 Definition 7 and Algorithm 1 (stable order, edge addition),
   Eq. 2 (quality), Lemma 3 / Thm 3 (FD degree bound), Thm 2 (error bound).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .._validation import check_int
from . import _kernels as K
from . import _fastkernels as FK
from .conflict_graph import ConflictGraph, NodeIdentity, label_identity
from .constraints import DC

# ---------------------------------------------------------------------------------------------------- exact measures (Definition 1, Table 2)
MAX_EXACT_IR_NODES = 2000


MAX_EXACT_IR_EDGES = 20000


MAX_IMC_NODES = 40


def _u(g: ConflictGraph) -> int:
    return int(g.unary.size)


def i_d(g: ConflictGraph) -> int:
    """Drastic measure: 1 iff the database violates Σ (the paper prints it reversed; spec §7.2).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Definition 1 and Table 2 (drastic measure); spec §7.2.
    """
    return int(g.num_edges > 0 or _u(g) > 0)


def i_mi(g: ConflictGraph) -> int:
    """I_MI: the number of minimal inconsistent subsets = edges of the conflict graph (+ |U| unary violators).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Definition 1, Table 2 (I_MI = |E|).
    """
    return _u(g) + g.num_edges


def i_p(g: ConflictGraph) -> int:
    """I_P: the number of problematic tuples = non-isolated nodes of the conflict graph (+ |U| unary violators).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Definition 1, Table 2 (I_P = non-isolated tuples).
    """
    return _u(g) + int(np.count_nonzero(g.degrees()))


def i_r_lin(g: ConflictGraph) -> float:
    """LP relaxation of minimum vertex cover = |maximum matching of the bipartite double cover| / 2.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §5 (I_R^lin, LP relaxation of vertex cover); spec §1.7.
    """
    from scipy.sparse.csgraph import maximum_bipartite_matching

    if g.num_edges == 0:
        return float(_u(g))
    n = g.n
    rows = np.concatenate([g.u, g.v])
    cols = np.concatenate([g.v, g.u])
    a = sp.csr_matrix((np.ones(rows.size, dtype=np.int8), (rows, cols)), shape=(n, n))
    match = maximum_bipartite_matching(a, perm_type="column")
    return _u(g) + float(np.count_nonzero(match >= 0)) / 2.0


def i_r_lin_lp(g: ConflictGraph) -> float:
    """The same LP solved by HiGHS (scipy.optimize.linprog); for checking i_r_lin.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §5, spec §1.7.
    """
    from scipy.optimize import linprog

    if g.num_edges == 0:
        return float(_u(g))
    m, n = g.num_edges, g.n
    rows = np.repeat(np.arange(m), 2)
    cols = np.stack([g.u, g.v], axis=1).ravel()
    a = sp.csr_matrix((-np.ones(2 * m), (rows, cols)), shape=(m, n))
    res = linprog(np.ones(n), A_ub=a, b_ub=-np.ones(m), bounds=(0, 1), method="highs")
    if not res.success:
        raise RuntimeError(f"HiGHS LP failed: {res.message}")
    return _u(g) + float(res.fun)


ENUMERATE_MAX_NODES = 12


def _min_cover_by_enumeration(a: np.ndarray, b: np.ndarray, k: int) -> int:
    """τ of a graph on k ≤ ENUMERATE_MAX_NODES nodes: the smallest subset (bitmask) touching every edge."""
    masks = np.arange(1 << k, dtype=np.int64)
    ok = np.ones(masks.size, dtype=bool)
    for x, y in zip(a.tolist(), b.tolist()):
        ok &= ((masks >> x) & 1 | (masks >> y) & 1).astype(bool)
    sizes = ((masks[:, None] >> np.arange(k)) & 1).sum(axis=1)
    return int(sizes[ok].min())


def i_r_exact(g: ConflictGraph, *, max_nodes: int = MAX_EXACT_IR_NODES, max_edges: int = MAX_EXACT_IR_EDGES,
              method: str = "auto") -> int:
    """Minimum vertex cover size τ(G) by MILP (HiGHS). NP-hard: refuses graphs above the size guards.

    ``method``: "milp" (HiGHS), "enumerate" (all subsets; at most 12 non-isolated nodes) or "auto" (enumeration
    for ≤ 12 non-isolated nodes — ~1000× faster there, used by the brute-force sensitivity sweeps — else MILP).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Definition 1, Table 2 (I_R = minimum vertex cover, NP-hard).
    """
    from scipy.optimize import Bounds, LinearConstraint, milp

    if method not in ("auto", "milp", "enumerate"):
        raise ValueError(f"method must be 'auto', 'milp' or 'enumerate', got {method!r}")
    deg = g.degrees()
    active = np.flatnonzero(deg > 0)
    if active.size > max_nodes or g.num_edges > max_edges:
        raise ValueError(f"I_R exact is NP-hard: {active.size} non-isolated nodes / {g.num_edges} edges exceed the guard "
                         f"({max_nodes} nodes, {max_edges} edges); use i_r_lin (LP, I_R^lin ≤ I_R ≤ 2·I_R^lin)")
    if g.num_edges == 0:
        return _u(g)
    idx = -np.ones(g.n, np.int64)
    idx[active] = np.arange(active.size)
    m, k = g.num_edges, active.size
    if method == "enumerate" or (method == "auto" and k <= ENUMERATE_MAX_NODES):
        if k > ENUMERATE_MAX_NODES:
            raise ValueError(f"method='enumerate' handles at most {ENUMERATE_MAX_NODES} non-isolated nodes, got {k}")
        return _u(g) + _min_cover_by_enumeration(idx[g.u], idx[g.v], k)
    rows = np.repeat(np.arange(m), 2)
    cols = np.stack([idx[g.u], idx[g.v]], axis=1).ravel()
    a = sp.csr_matrix((np.ones(2 * m), (rows, cols)), shape=(m, k))
    res = milp(np.ones(k), constraints=LinearConstraint(a, lb=1, ub=np.inf), integrality=np.ones(k), bounds=Bounds(0, 1))
    if not res.success:
        raise RuntimeError(f"HiGHS MILP failed: {res.message}")
    return _u(g) + int(round(res.fun))


def i_r_2approx(g: ConflictGraph, *, rule: str = "lex", seed: int = 0) -> int:
    """Both endpoints of a greedy maximal matching in a stable order (Algorithm 5 before noise).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §5, Algorithm 5 (before noise).
    """
    u, v = order_edges(g.u, g.v, rule=rule, seed=seed, n=g.n, identity=g.identity)
    return _u(g) + int(K.greedy_cover(u, v, g.n))


def i_mc(g: ConflictGraph, *, max_nodes: int = MAX_IMC_NODES) -> int:
    """Number of maximal consistent subsets = maximal independent sets (#P-complete; tiny graphs only).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Definition 1, Table 2 (I_MC, #P-complete).
    """
    import networkx as nx

    if g.unary.size:
        raise ValueError("i_mc is defined here for pairwise DCs only")
    if g.n > max_nodes:
        raise ValueError(f"I_MC is #P-complete: n={g.n} exceeds the guard of {max_nodes} nodes")
    comp = nx.complement(g.to_networkx())
    return sum(1 for _ in nx.find_cliques(comp)) if g.n else 1


def max_maximal_independent_sets(n: int) -> int:
    """Moon–Moser / Griggs et al.: the largest number of maximal independent sets of an n-vertex graph.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Table 2 (I_MC's sensitivity); Moon–Moser.
    """
    if n < 2:
        return 1
    q, r = divmod(n, 3)
    return 3**q if r == 0 else (4 * 3 ** (q - 1) if r == 1 else 2 * 3**q)


def exact_summary(g: ConflictGraph) -> dict:
    """The conflict graph's size and exact measures as the CLI prints them with --show-exact (NOT PRIVATE)."""
    m = all_measures(g)
    return {"n": g.n, "edges": g.num_edges, "unary_violators": int(g.unary.size), "max_degree": g.max_degree(),
            **{k: m[k] for k in ("I_MI", "I_P", "I_R_lin", "I_R_exact")}}


def all_measures(g: ConflictGraph, *, exact_ir: bool | None = None) -> dict:
    """I_D, I_MI, I_P, I_R^lin, 2·I_R^lin, max degree and (when tractable) I_R exact.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Definition 1, Table 2.
    """
    out = {"n": g.n, "edges": g.num_edges, "max_degree": g.max_degree(), "I_D": i_d(g), "I_MI": i_mi(g), "I_P": i_p(g)}
    out["I_R_lin"] = i_r_lin(g)
    out["I_R_2approx"] = i_r_2approx(g)
    want = exact_ir if exact_ir is not None else (g.num_edges <= MAX_EXACT_IR_EDGES and int(np.count_nonzero(g.degrees())) <= MAX_EXACT_IR_NODES)
    out["I_R_exact"] = i_r_exact(g) if want else None
    return out


# ---------------------------------------------------------------------------------------------------- stable orders and Algorithm 1


def tid_rank(tids: np.ndarray, seed: int = 0) -> np.ndarray:
    """Keyed splitmix64 hash of tuple ids: a data-independent pseudo-random rank per tid.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §4, Definition 7 (stable orders).
    """
    with np.errstate(over="ignore"):
        z = np.asarray(tids, dtype=np.uint64) + np.uint64(0x9E3779B97F4A7C15) * np.uint64(int(seed) % (2**63) + 1)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return z


def node_sequence(identity: NodeIdentity, seed: int = 0) -> np.ndarray:
    """inv[k] = the node at place k of the "rank" node sequence: sorted by the keyed hash of the identity, ties
    by the identity's second hash, content tie-breaker and occurrence (never by row position).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §4, Definition 7.
    """
    r = tid_rank(identity.key1, seed)
    # = np.lexsort((occ, tie, key2, r)), i.e. by r, then key2, tie, occ, then node (lexsort is stable), but 4-key
    # lexsort of 10⁶ nodes costs ~10 argsorts: sort by r alone (SIMD quicksort) and re-sort only the runs of equal r
    idx = np.argsort(r, kind="quicksort").astype(np.int64)
    rs = r[idx]
    eq = rs[1:] == rs[:-1]
    if eq.any():
        tied = np.zeros(r.size, bool)
        tied[:-1] |= eq
        tied[1:] |= eq
        at = np.flatnonzero(tied)  # sorted places of tied nodes: each run is contiguous, runs in order of r
        sub = idx[at]
        idx[at] = sub[np.lexsort((sub, identity.occ[sub], identity.tie[sub], identity.key2[sub], rs[at]))]
    return idx


def order_edges(u: np.ndarray, v: np.ndarray, *, rule: str = "rank", seed: int = 0, n: int | None = None,
                identity: NodeIdentity | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The edges (u, v) sorted by the stable ordering ``rule`` (returned with u < v).

    "rank": nodes are placed in the sequence given by the keyed-hash ranks of their ``identity`` (default:
    node labels 0..n-1; pass ``graph.identity`` for a graph built from a table), and edges are sorted by
    (later place, earlier place) — one int64 key per edge, sorted in place and decoded in place (8 bytes per
    edge at peak; the returned u and v are strided views of one interleaved int32 buffer).
    "lex": by (min position, max position).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §4, Definition 7 and Algorithm 1.
    """
    u = np.asarray(u, dtype=np.int32)
    v = np.asarray(v, dtype=np.int32)
    if rule == "lex":
        a, b = np.minimum(u, v), np.maximum(u, v)
        if a.size > 1 and np.all((a[1:] > a[:-1]) | ((a[1:] == a[:-1]) & (b[1:] >= b[:-1]))):
            return a, b
        idx = np.lexsort((b, a))
        return a[idx], b[idx]
    if rule != "rank":
        raise ValueError(f"rule must be 'lex' or 'rank', got {rule!r}")
    if n is None:
        n = int(max(u.max(initial=-1), v.max(initial=-1))) + 1
    if u.size == 0:
        return u, v
    n = max(int(n), 1)
    if identity is None or len(identity) != n:
        if identity is not None:
            raise ValueError(f"identity has {len(identity)} nodes, the graph {n}")
        identity = label_identity(n)
    u, v, _, _ = _order_rank(u, v, n, identity, seed)
    return u, v


def _order_rank(u, v, n, identity, seed):
    """The "rank" order: (u, v, inv, ptr) with inv[place] = node and ptr the edge ranges per later place.

    One key (later place, earlier place) per edge, generated in parallel (numba) straight into buckets of later
    places (a counting pass sizes every chunk × bucket range); each bucket is sorted by numpy (GIL released: one
    bucket per thread) and decoded in place (8 bytes per edge at peak; the returned u and v are strided views of
    one interleaved int32 buffer). The edges are distinct, so the sorted keys — and the order — are unique:
    deterministic, independent of the number of threads and of the bucket split.

    Up to 2**20 nodes (Tax at 10⁶ rows) the keys are 4 bytes, relative to their bucket (≤ 256 buckets of 2**bs
    places, bs + bits(n) ≤ 32): written into the first half of the bucket's 8-byte-per-edge range, sorted there
    and decoded from the back (:func:`~._fastkernels.rank_bucket_decode32`). Larger graphs use 8-byte keys
    (later place << s) | earlier place."""
    from concurrent.futures import ThreadPoolExecutor
    from numba import get_num_threads

    inv = node_sequence(identity, seed)  # inv[place] = node
    pos = np.empty(n, np.int32)
    pos[inv] = np.arange(n, dtype=np.int32)
    inv32 = inv.astype(np.int32)
    s = FK.shift_for(n)
    bs = max(0, s - 7)  # ≤ 128 buckets of 2**bs places
    narrow = bs + s <= 32 or ((n - 1) >> (32 - s)) < 256  # 4-byte relative keys, ≤ 256 buckets (1-byte table)
    if narrow:
        bs = min(bs, 32 - s)
    nb = ((n - 1) >> bs) + 1
    m = u.size
    threads = max(1, get_num_threads())
    chunks = max(1, min(4 * threads, m // 100_000))
    cuts = (np.arange(chunks + 1, dtype=np.int64) * m) // chunks
    cnt = np.zeros((chunks, nb), np.int64)
    small = m < FK.PARALLEL_MIN  # serial twins: no thread launch for small graphs
    (FK.rank_bucket_count_serial if small else FK.rank_bucket_count)(u, v, (pos >> bs).astype(np.uint8), cuts, cnt)
    per_bucket = cnt.sum(axis=0)
    lo = np.concatenate([[0], np.cumsum(per_bucket)]).astype(np.int64)
    cursor = lo[:-1] + np.concatenate([np.zeros((1, nb), np.int64), np.cumsum(cnt, axis=0)[:-1]])
    keys = FK.scratch(m, np.int64)  # reuses the buffer of a previous order that is gone (see FK.scratch)
    (FK.prefault_serial if small else FK.prefault)(keys, np.int64(4 * threads))
    pairs = keys.view(np.int32)  # decoded in place: pair i takes the 8 bytes of key i
    per_place = np.zeros(n + 1, np.int64)
    if narrow:
        k32 = keys.view(np.uint32)  # bucket b's keys: k32[2·lo[b] : lo[b] + lo[b + 1]], its pairs k32[2·lo[b] : 2·lo[b + 1]]
        (FK.rank_bucket_fill32_serial if small else FK.rank_bucket_fill32)(u, v, pos, np.int64(s), np.int64(bs), cuts,
                                                                           cursor + lo[:-1], k32)

        def finish(b):
            w = k32[2 * lo[b]:2 * lo[b + 1]]
            c = lo[b + 1] - lo[b]
            w[:c].sort(kind="quicksort")
            FK.rank_bucket_decode32(w, np.int64(c), np.int64(b << bs), np.int64(s), inv32, per_place)
    else:
        (FK.rank_bucket_fill_serial if small else FK.rank_bucket_fill)(u, v, pos, np.int64(s), np.int64(bs), cuts,
                                                                       cursor, keys, True)

        def finish(b):
            seg = keys[lo[b]:lo[b + 1]]
            seg.sort(kind="quicksort")
            FK.rank_bucket_decode(seg, pairs[2 * lo[b]:2 * lo[b + 1]], inv32, np.int64(s), per_place)

    del pos
    order = np.argsort(-per_bucket, kind="stable").tolist()  # largest buckets first
    with ThreadPoolExecutor(threads) as ex:
        list(ex.map(finish, order))
    ptr = np.cumsum(per_place)
    return pairs[0::2], pairs[1::2], inv32, ptr


def edge_addition_reference(edges: list[tuple[int, int]], n: int, theta: int) -> list[tuple[int, int]]:
    """Pure-Python Algorithm 1 (for tests): the kept edges, in order.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §4, Algorithm 1 (edge addition).
    """
    d = [0] * n
    kept = []
    for a, b in edges:
        if d[a] < theta and d[b] < theta:
            kept.append((a, b))
            d[a] += 1
            d[b] += 1
    return kept


class ProjectionCounts:
    """What Algorithms 2–5 read from a projector (in memory: :class:`Projector`; streamed from Spark-sorted edges:
    :class:`~.spark_engine.StreamedProjector`): F(θ) through ``counts`` (memoised; a miss also computes the hinted θs)."""

    def _hint(self) -> list:
        if isinstance(self.hint, str):
            if self.hint != "paper":
                raise ValueError(f"hint must be 'paper' or a sequence of θ, got {self.hint!r}")
            return [*paper_candidates(max(self.n, 1)), self.n]
        return list(self.hint)

    def f(self, theta: int, measure: str) -> int:
        """f(π_θ(G)): kept edges for "MI", positive-degree nodes for "P"."""
        if measure not in ("MI", "P"):
            raise ValueError(f"measure must be 'MI' or 'P', got {measure!r}")
        return self.counts(theta)[0 if measure == "MI" else 1]


@dataclass
class Projector(ProjectionCounts):
    """Edge addition on one graph under one stable order, with F(θ) memoised (one O(m) pass per θ).

    ``rule="artifact_reorder"`` is a compatibility switch reproducing the reference code: a fresh uniformly
    random edge order on *every* call (no memo; each θ of the EM and the final projection see different
    orders). Equivalent in distribution to one random global order, but not what Algorithms 3/4 describe.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §4, Algorithm 1 and Lemma 1.
    """

    graph: ConflictGraph
    rule: str = "rank"
    seed: int = 0
    hint: object = "paper"  # θs likely to be asked for (a miss computes them too, in the same pass); "paper":
    # the paper's candidates Θ(n) ∪ {n} — what Algorithms 3/4 ask for with n_bound = n; () for none
    _memo: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        self.n = self.graph.n
        self.passes = 0
        self._full = None
        if self.rule == "artifact_reorder":
            self.u, self.v = self.graph.u, self.graph.v
            self._rng = np.random.default_rng(self.seed)
            return
        self._grouped = None
        g = self.graph
        if self.rule == "rank" and g.u.size:
            if g.identity is not None and len(g.identity) != g.n:
                raise ValueError(f"identity has {len(g.identity)} nodes, the graph {g.n}")
            ident = g.identity if g.identity is not None else label_identity(max(g.n, 1))
            self.u, self.v, inv, ptr = _order_rank(np.asarray(g.u, np.int32), np.asarray(g.v, np.int32),
                                                   max(g.n, 1), ident, self.seed)
            self._grouped = (self.u, self.v, inv, ptr)
        else:
            self.u, self.v = order_edges(g.u, g.v, rule=self.rule, seed=self.seed, n=g.n, identity=g.identity)

    def counts(self, theta: int) -> tuple[int, int]:
        """(|E_θ|, |V_{>0}(G_θ)|) of the projection π_θ(G)."""
        theta = check_int(theta, "theta", minimum=0)
        theta = min(theta, max(self.n, 1))
        if self.rule == "artifact_reorder":
            perm = self._rng.permutation(self.u.size)
            self.passes += 1
            return tuple(int(x) for x in K.edge_addition(self.u[perm], self.v[perm], self.n, theta))
        if theta not in self._memo:
            self.prefetch([theta, *self._hint()])
        return self._memo[theta]

    def prefetch(self, thetas) -> None:
        """Compute F(θ) for every θ in ``thetas`` not yet memoised. Large graphs in the "rank" order: θ ≥ d_max(G)
        needs no pass (every edge is kept); other θs scan the edges grouped by their later node and skip the rest
        of a group once that node is full. Values identical to plain Algorithm 1 passes."""
        if self.rule == "artifact_reorder":
            return
        cap = max(self.n, 1)
        todo = sorted({min(check_int(t, "theta", minimum=0), cap) for t in thetas} - set(self._memo))
        if not todo:
            return
        grouped = self._grouped is not None and self._grouped[0] is self.u and self._grouped[1] is self.v
        if not grouped or self.u.size < 200_000:  # small graphs (or replaced arrays): plain passes
            for t in todo:
                self._memo[t] = tuple(int(x) for x in K.edge_addition(self.u, self.v, self.n, t))
            self.passes += len(todo)
            return
        if self._full is None:  # θ ≥ d_max(G) keeps every edge: F(θ) = (|E|, non-isolated nodes), no pass needed
            deg = self.graph.degrees()
            self._full = (int(deg.max()) if deg.size else 0, int(self.u.size), int(np.count_nonzero(deg)))
        dmax, m, nonisolated = self._full
        need = [t for t in todo if t < dmax]
        for t in todo:
            if t >= dmax:
                self._memo[t] = (m, nonisolated)
        if need:  # edges grouped by their later node (a full node's remaining edges are skipped); the θs share
            # one read of the edges per thread and are split over the threads (FK.grouped_counts)
            _, _, inv, ptr = self._grouped
            for t, c in zip(need, FK.grouped_counts(self.u, self.v, self.n, need, inv, ptr)):
                self._memo[t] = c
            self.passes += len(need)

    def projected_degrees(self, theta: int) -> np.ndarray:
        """Every node's degree in π_θ(G) (one Algorithm 1 pass in this order; not memoised)."""
        theta = check_int(theta, "theta", minimum=0)
        return K.edge_addition_degrees(np.asarray(self.u), np.asarray(self.v), self.n, theta)

    def forget(self) -> None:
        """Drop the memoised F(θ) values (the next call pays for its own passes, e.g. to time one measure)."""
        self._memo.clear()

    def cover_size(self) -> int:
        """Algorithm 5's c before noise: 2·|greedy maximal matching| in this order = 2·F_MI(1)."""
        if 1 not in self._memo and self.rule != "artifact_reorder":
            self.prefetch([1])  # only θ = 1 (not the hinted candidates)
        return 2 * self.counts(1)[0]



# ---------------------------------------------------------------------------------------------------- deterministic parts of θ selection (Eq. 2, Thm 3, Thm 2)
SQRT2 = math.sqrt(2.0)


def paper_candidates(n: int) -> list[int]:
    """The paper's Θ scaled to n: [1, 5, 10, 100, 500] ∪ {k·n/10 : k = 1..9} (= the artifact's list at n = 10,000).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §6.1 (candidate set Θ of the artifact).
    """
    base = [1, 5, 10, 100, 500]
    out = sorted({c for c in base if c < n} | {max(1, int(round(k * n / 10))) for k in range(1, 10)})
    return out or [1]


def quality(F: dict, theta: int, theta_max: int, eps2: float, *, no_bias: bool = False) -> float:
    """q_ε₂(G, θ) = −(F(θ_max) − F(θ)) − √2·θ/ε₂ (Eq. 2); the |V| candidate has no bias term.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §4.2, Eq. 2 and Example 2 / Table 3.
    """
    if no_bias:
        return -SQRT2 * theta / eps2
    return -(F[theta_max] - F[theta]) - SQRT2 * theta / eps2


def degree_bound(df: pd.DataFrame, fds: Sequence[DC]) -> tuple[int, list[int]]:
    """Thm 3: d_bound(D, Σ_FD) = Σ_σ (max_{a_X} freq(D, a_X) − 1); also the per-FD terms (each of sensitivity 1).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §4.3, Lemma 3 and Theorem 3.
    """
    terms = []
    for d in fds:
        if not d.is_fd_like:
            raise ValueError(f"{d} is not FD-like; the degree bound needs = / != predicates on the same attributes")
        terms.append(_max_group_size(df, list(d.lhs)) - 1)
    return sum(terms), terms


def _max_group_size(df: pd.DataFrame, cols: Sequence[str]) -> int:
    """Largest number of rows sharing one value of ``cols`` (rows with a NULL in ``cols`` excluded); 1 if none."""
    key = None
    for c in cols:
        if c not in df.columns:
            raise ValueError(f"column {c!r} of an FD is not in the table; columns: {', '.join(map(str, df.columns))}")
        codes, uniques = pd.factorize(df[c], use_na_sentinel=True)
        codes = codes.astype(np.int64)
        if key is None:
            key = codes
        else:
            bad = (key < 0) | (codes < 0)
            key = np.where(bad, -1, key * (len(uniques) + 1) + codes)
            key = np.where(bad, -1, pd.factorize(key)[0])
    key = key[key >= 0] if key is not None else np.zeros(0, np.int64)
    return int(np.bincount(key).max()) if key.size else 1


def theorem2_bound(beta, *, q_opt_tilde: float, theta_max: float, n_candidates: int, n_opt: int, eps1: float,
                   theta_star: float | None = None, eps2: float | None = None, corrected: bool = False):
    """Thm 2's error bound as printed: −q̃_opt + (2θ_max/ε₁)·ln(2|Θ|/(|Θ_opt|β)).

    ``corrected=True`` adds the Laplace-tail term max(0, ln(2/β) − √2)·θ*/ε₂ (spec §7.10).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §4.2, Theorem 2 and Fig. 10; spec §7.10.
    """
    beta = np.asarray(beta, dtype=float)
    if np.any((beta <= 0) | (beta >= 1)):
        raise ValueError("beta must lie in (0, 1)")
    out = -q_opt_tilde + 2 * theta_max / eps1 * np.log(2 * n_candidates / (n_opt * beta))
    if corrected:
        if theta_star is None or eps2 is None:
            raise ValueError("corrected bound needs theta_star and eps2")
        out = out + np.maximum(0.0, np.log(2 / beta) - SQRT2) * theta_star / eps2
    return out


__all__ = ["all_measures", "degree_bound", "edge_addition_reference", "exact_summary", "i_d", "i_mc", "i_mi", "i_p",
           "i_r_2approx", "i_r_exact", "i_r_lin", "i_r_lin_lp", "max_maximal_independent_sets", "node_sequence",
           "order_edges", "paper_candidates", "Projector", "quality", "SQRT2", "theorem2_bound", "tid_rank"]
