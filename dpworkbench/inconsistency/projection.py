"""Stable edge orderings and Algorithm 1 (edge addition, Day–Li–Lyu) with memoised F(θ).

An ordering must be fixed before looking at the data and order the common edges of two neighbouring
databases identically (Definition 7). The neighbouring relation is add/remove one tuple **at any row
position**, so an order may depend on what a tuple *is*, never on where the others put it:

* ``"lex"``: key (min position, max position). Stable: deleting or inserting a row keeps the relative
  order of all other rows, hence of their edges.
* ``"rank"`` (default): every tuple gets a pseudo-random rank from a keyed hash (splitmix64) of its
  **identity** and the seed, key (max rank, min rank) — Day et al.'s node-sequence order ("an edge is added
  when its later endpoint is visited"). The identity (:class:`~.conflict_graph.NodeIdentity`) is the user's
  key column or a hash of the tuple's content for a graph built from a table, the node label for an explicit
  edge list. (Hashing the row *position* — the earlier rule — is not stable: deleting row i shifts every
  later position and reshuffles the ranks of all later tuples; finding 1.)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._validation import check_int
from . import _kernels as K
from . import _fastkernels as FK
from .conflict_graph import ConflictGraph, NodeIdentity, label_identity

_M64 = np.uint64(0xFFFFFFFFFFFFFFFF)


def tid_rank(tids: np.ndarray, seed: int = 0) -> np.ndarray:
    """Keyed splitmix64 hash of tuple ids: a data-independent pseudo-random rank per tid."""
    with np.errstate(over="ignore"):
        z = np.asarray(tids, dtype=np.uint64) + np.uint64(0x9E3779B97F4A7C15) * np.uint64(int(seed) % (2**63) + 1)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return z


def node_sequence(identity: NodeIdentity, seed: int = 0) -> np.ndarray:
    """inv[k] = the node at place k of the "rank" node sequence: sorted by the keyed hash of the identity, ties
    by the identity's second hash, content tie-breaker and occurrence (never by row position)."""
    r = tid_rank(identity.key1, seed)
    return np.lexsort((identity.occ, identity.tie, identity.key2, r)).astype(np.int64)


def order_edges(u: np.ndarray, v: np.ndarray, *, rule: str = "rank", seed: int = 0, n: int | None = None,
                identity: NodeIdentity | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The edges (u, v) sorted by the stable ordering ``rule`` (returned with u < v).

    "rank": nodes are placed in the sequence given by the keyed-hash ranks of their ``identity`` (default:
    node labels 0..n-1; pass ``graph.identity`` for a graph built from a table), and edges are sorted by
    (later place, earlier place) — one int64 key per edge, sorted in place and decoded in place (8 bytes per
    edge at peak; the returned u and v are strided views of one interleaved int32 buffer).
    "lex": by (min position, max position).
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

    One int64 key (later place << s) | earlier place per edge — the order of later·n + earlier, no division.
    The keys are generated in parallel (numba) straight into buckets of later places (a counting pass sizes
    every chunk × bucket range), each bucket is sorted by numpy (GIL released: one bucket per thread) and
    decoded in place (8 bytes per edge at peak; the returned u and v are strided views of one interleaved int32
    buffer). Deterministic: the sorted keys do not depend on the number of threads."""
    from concurrent.futures import ThreadPoolExecutor
    from numba import get_num_threads

    inv = node_sequence(identity, seed)  # inv[place] = node
    pos = np.empty(n, np.int32)
    pos[inv] = np.arange(n, dtype=np.int32)
    inv32 = inv.astype(np.int32)
    s = FK.shift_for(n)
    bs = max(0, s - 7)  # ≤ 128 buckets of 2**bs places
    nb = ((n - 1) >> bs) + 1
    m = u.size
    threads = max(1, get_num_threads())
    chunks = max(1, min(4 * threads, m // 100_000))
    cuts = (np.arange(chunks + 1, dtype=np.int64) * m) // chunks
    cnt = np.zeros((chunks, nb), np.int64)
    none = np.zeros(0, np.int64)
    FK.rank_bucket_fill(u, v, pos, np.int64(s), np.int64(bs), cuts, cnt, none, False)
    per_bucket = cnt.sum(axis=0)
    lo = np.concatenate([[0], np.cumsum(per_bucket)]).astype(np.int64)
    cursor = lo[:-1] + np.concatenate([np.zeros((1, nb), np.int64), np.cumsum(cnt, axis=0)[:-1]])
    keys = np.empty(m, np.int64)
    FK.prefault(keys, np.int64(4 * threads))
    FK.rank_bucket_fill(u, v, pos, np.int64(s), np.int64(bs), cuts, cursor, keys, True)
    del pos
    pairs = keys.view(np.int32)  # decoded in place: pair i takes the 8 bytes of key i
    per_place = np.zeros(n + 1, np.int64)

    def finish(b):
        seg = keys[lo[b]:lo[b + 1]]
        seg.sort(kind="quicksort")
        FK.rank_bucket_decode(seg, pairs[2 * lo[b]:2 * lo[b + 1]], inv32, np.int64(s), per_place)

    order = np.argsort(-per_bucket, kind="stable").tolist()  # largest buckets first
    with ThreadPoolExecutor(threads) as ex:
        list(ex.map(finish, order))
    ptr = np.cumsum(per_place)
    return pairs[0::2], pairs[1::2], inv32, ptr


def edge_addition_reference(edges: list[tuple[int, int]], n: int, theta: int) -> list[tuple[int, int]]:
    """Pure-Python Algorithm 1 (for tests): the kept edges, in order."""
    d = [0] * n
    kept = []
    for a, b in edges:
        if d[a] < theta and d[b] < theta:
            kept.append((a, b))
            d[a] += 1
            d[b] += 1
    return kept


@dataclass
class Projector:
    """Edge addition on one graph under one stable order, with F(θ) memoised (one O(m) pass per θ).

    ``rule="artifact_reorder"`` is a compatibility switch reproducing the reference code: a fresh uniformly
    random edge order on *every* call (no memo; each θ of the EM and the final projection see different
    orders). Equivalent in distribution to one random global order, but not what Algorithms 3/4 describe.
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

    def _hint(self) -> list:
        if isinstance(self.hint, str):
            if self.hint != "paper":
                raise ValueError(f"hint must be 'paper' or a sequence of θ, got {self.hint!r}")
            from .selection import paper_candidates

            return [*paper_candidates(max(self.n, 1)), self.n]
        return list(self.hint)

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
        for t in todo:
            if t >= dmax:
                self._memo[t] = (m, nonisolated)
            else:  # edges grouped by their later node: a full node's remaining edges are skipped
                _, _, inv, ptr = self._grouped
                self._memo[t] = tuple(int(x) for x in FK.edge_addition_grouped(self.u, self.v, self.n, t, inv, ptr))
                self.passes += 1

    def cover_size(self) -> int:
        """Algorithm 5's c before noise: 2·|greedy maximal matching| in this order = 2·F_MI(1)."""
        if 1 not in self._memo and self.rule != "artifact_reorder":
            self.prefetch([1])  # only θ = 1 (not the hinted candidates)
        return 2 * self.counts(1)[0]

    def f(self, theta: int, measure: str) -> int:
        """f(π_θ(G)): kept edges for "MI", positive-degree nodes for "P"."""
        kept, pos = self.counts(theta)
        if measure == "MI":
            return kept
        if measure == "P":
            return pos
        raise ValueError(f"measure must be 'MI' or 'P', got {measure!r}")

    def projected_degrees(self, theta: int) -> np.ndarray:
        keep = K.edge_addition_mask(self.u, self.v, self.n, int(theta))
        return np.bincount(self.u[keep], minlength=self.n) + np.bincount(self.v[keep], minlength=self.n)


__all__ = ["Projector", "edge_addition_reference", "node_sequence", "order_edges", "tid_rank"]
