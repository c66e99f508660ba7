"""Egocentric betweenness (Def. 6.1.1), δ^EBC (Def. 6.3.1) and PrivTopk (Alg. 3), spec §4.

Edge-DP. ΔEBC = g(Δ) with g(k) = max(k(k−1)/4, k) needs a public max-degree bound
(``max_degree_bound``; default the true max degree, *assumed public as in the thesis*).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from dpworkbench._validation import check_epsilon, check_int
from dpworkbench.mechanisms.backends import as_generator
from dpworkbench.cache import cached_call
from dpworkbench.graphs import CSRGraph


METHODS = ("EM", "PF", "LD", "SLD")


@numba.njit(cache=True)
def ebc_kernel(indptr, indices, nodes):
    """EBC of ``nodes`` (closed form of spec §4.1): per ego, mark the alters, build their local CSR adjacency, and for each
    alter i count common alters C_iv of every alter v > i by walking two-hop alter paths; adjacent pairs contribute 0,
    non-adjacent pairs 1/(1 + C_iv) (1 when C_iv = 0)."""
    n = indptr.size - 1
    out = np.zeros(nodes.size)
    stamp = np.full(n, -1, np.int64)   # stamp[w] == c  <=> w is an alter of c
    local = np.zeros(n, np.int64)
    adjmark = np.full(n, -1, np.int64)
    cnt = np.zeros(n, np.int64)
    maxd = 0
    for c in range(n):
        d = indptr[c + 1] - indptr[c]
        if d > maxd:
            maxd = d
    lptr = np.zeros(maxd + 1, np.int64)
    lidx = np.zeros(max(1, 2 * indices.size), np.int64)
    touched = np.zeros(maxd + 1, np.int64)
    for ci in range(nodes.size):
        c = nodes[ci]
        s, e = indptr[c], indptr[c + 1]
        d = e - s
        if d < 2:
            continue
        for i in range(d):
            w = indices[s + i]
            stamp[w] = c
            local[w] = i
        # local alter adjacency (CSR)
        m2 = 0
        lptr[0] = 0
        for i in range(d):
            u = indices[s + i]
            for p in range(indptr[u], indptr[u + 1]):
                w = indices[p]
                if w != c and stamp[w] == c:
                    lidx[m2] = local[w]
                    m2 += 1
            lptr[i + 1] = m2
        m_c = m2 // 2
        total = 0.0
        kpos = 0
        for i in range(d):
            for p in range(lptr[i], lptr[i + 1]):
                adjmark[lidx[p]] = i + c * (maxd + 1)
            nt = 0
            for p in range(lptr[i], lptr[i + 1]):
                w = lidx[p]
                for q in range(lptr[w], lptr[w + 1]):
                    v = lidx[q]
                    if v > i:
                        if cnt[v] == 0:
                            touched[nt] = v
                            nt += 1
                        cnt[v] += 1
            for z in range(nt):
                v = touched[z]
                if adjmark[v] != i + c * (maxd + 1):
                    total += 1.0 / (1.0 + cnt[v])
                    kpos += 1
                cnt[v] = 0
            for p in range(lptr[i], lptr[i + 1]):
                adjmark[lidx[p]] = -1
        out[ci] = (d * (d - 1) / 2 - m_c - kpos) + total
    return out


EBC_KERNEL_VERSION = 1  # part of the cache key: bump when the kernel's output changes


def _ebc_every_node(graph: CSRGraph) -> np.ndarray:
    return ebc_kernel(np.asarray(graph.indptr, np.int64), np.asarray(graph.indices, np.int64),
                       np.arange(graph.num_nodes, dtype=np.int64))


def ebc_all(graph: CSRGraph, *, cache: bool = True, disk: bool = True) -> np.ndarray:
    """EBC of every node (closed form of spec §4.1; numba CSR kernel). Exact, NOT PRIVATE: the input of PrivTopk.

    With ``cache`` the result comes from :mod:`dpworkbench.cache` (namespace ``dampening.ebc``), keyed by the graph's
    content fingerprint and :data:`EBC_KERNEL_VERSION`: in memory, and (``disk=True``) as a file under the cache
    directory (``DPWB_CACHE``), so a second call on the same graph (same or later process) does not recompute it.

    References
    ----------
    de Farias 2021, Def. 6.1.1 (egocentric betweenness); spec §4.1 (closed form).
    """
    if not cache:
        return _ebc_every_node(graph)
    # The version names the kernel's output, not this module's source: editing unrelated code here must not
    # throw away the EBC of large graphs (minutes of numba work each).
    return cached_call("dampening.ebc", (graph.fingerprint,), lambda: _ebc_every_node(graph), disk=disk,
                       version=f"kernel-v{EBC_KERNEL_VERSION}")


def ebc_nodes(graph: CSRGraph, nodes: Any) -> np.ndarray:
    """EBC of the given nodes only (same numba kernel, no cache) — for benchmarks on node samples."""
    nodes = np.asarray(nodes, np.int64)
    if nodes.ndim != 1 or (nodes.size and (nodes.min() < 0 or nodes.max() >= graph.num_nodes)):
        raise ValueError(f"nodes must be a 1-D array of node ids in 0..{graph.num_nodes - 1}")
    return ebc_kernel(np.asarray(graph.indptr, np.int64), np.asarray(graph.indices, np.int64), nodes)


def ebc_reference_networkx(G, nodes=None) -> dict:
    """Reference by the definition: geodesics in the ego network (networkx all_shortest_paths)."""
    import itertools

    import networkx as nx

    out = {}
    for c in (G.nodes if nodes is None else nodes):
        ego = nx.ego_graph(G, c)
        val = 0.0
        for u, v in itertools.combinations(list(G.neighbors(c)), 2):
            paths = list(nx.all_shortest_paths(ego, u, v))
            val += sum(1 for p in paths if c in p[1:-1]) / len(paths)
        out[c] = val
    return out


def ebc_reference_ego(G, nodes) -> dict:
    """networkx ego-graph reference for benchmarks: for each node c, ``nx.ego_graph(G, c)``, then over all pairs of
    alters: adjacent → 0, else 1/(1 + |common alters|) (the definition's geodesic ratio inside the ego network)."""
    import itertools

    import networkx as nx

    out = {}
    for c in nodes:
        ego = nx.ego_graph(G, c)
        alters = set(ego.neighbors(c))
        nb = {v: set(ego.neighbors(v)) - {c} for v in alters}
        val = 0.0
        for u, v in itertools.combinations(alters, 2):
            if v in nb[u]:
                continue
            val += 1.0 / (1 + len(nb[u] & nb[v]))
        out[c] = val
    return out


def ebc_reference_sets(G, nodes) -> dict:
    """Second pure-Python reference (no ego-graph construction): per alter pair, intersect the full-graph neighbour sets
    with the alters (same closed form; slower than ``ebc_reference_ego`` on hubs, it rebuilds the sets for every pair)."""
    import itertools

    out = {}
    for c in nodes:
        alters = set(G.neighbors(c))
        val = 0.0
        for u, v in itertools.combinations(alters, 2):
            if G.has_edge(u, v):
                continue
            common = len(set(G.neighbors(u)) & set(G.neighbors(v)) & alters)
            val += 1.0 / (1 + common)
        out[c] = val
    return out


def g_fun(k: Any) -> np.ndarray:
    k = np.asarray(k, dtype=float)
    return np.maximum(k * (k - 1) / 4.0, k)


def global_sensitivity_ebc(max_degree: int) -> float:
    """ΔEBC = max(Δ(Δ−1)/4, Δ) (Lemma 6.3.2).

    References
    ----------
    de Farias 2021, Lemma 6.3.2.
    """
    return float(g_fun(int(max_degree)))


def delta_ebc(degrees: Any, t: int, *, max_degree_bound: int, floor: float = 1.0) -> np.ndarray:
    """δ^EBC(G,t,v) = min(g(d_v+t), ΔEBC), floored at η=1 (admissible, spec §1.9, §4.4).

    References
    ----------
    de Farias 2021, Def. 6.3.1; spec §1.9, §4.4.
    """
    gs = global_sensitivity_ebc(max_degree_bound)
    return np.maximum(np.minimum(g_fun(np.asarray(degrees) + t), gs), floor)


def _degrees_of(x) -> np.ndarray:
    if isinstance(x, CSRGraph):
        return np.asarray(x.degrees, np.int64)
    if hasattr(x, "degree") and callable(getattr(x, "degree")):  # networkx graph
        return np.array([d for _, d in x.degree()], np.int64)
    return np.asarray(x, np.int64)


def ebc_sensitivity(max_degree_bound: int, *, horizon: int | None = None, floor: float = 1.0):
    """δ^EBC (Def. 6.3.1) as a checkable ``SensitivityFunction``: x is a graph (networkx or CSR) or its degree array;
    δ(G,t,v) = min(g(d_v+t), ΔEBC) floored at η; ΔEBC from the public ``max_degree_bound``. The natural public horizon is
    T = max_degree_bound (δ = ΔEBC from there on for every node).

    References
    ----------
    de Farias 2021, Def. 6.3.1.
    """
    from .model import SensitivityFunction

    bound = check_int(max_degree_bound, "max_degree_bound", minimum=1)

    def fn(x, t):
        d = _degrees_of(x)
        if d.size and d.max() > bound:
            raise ValueError(f"max_degree_bound={bound} is below the graph's max degree {int(d.max())}; ΔEBC would be invalid")
        return g_fun(d + t)

    return SensitivityFunction(fn, global_sensitivity_ebc(bound), name=f"δ^EBC (Δ ≤ {bound})", horizon=horizon, floor=floor)


def _prefix(max_degree_bound: int, floor: float = 1.0):
    gs = global_sensitivity_ebc(max_degree_bound)
    k = np.arange(max_degree_bound + 1)
    gk = np.maximum(np.minimum(g_fun(k), gs), floor)
    G = np.concatenate([[0.0], np.cumsum(gk)])  # G[k] = Σ_{j<k}
    return gs, gk, G


def check_degree_bound(degrees, max_degree_bound):
    if max_degree_bound is None:
        max_degree_bound = int(degrees.max())
    max_degree_bound = check_int(max_degree_bound, "max_degree_bound", minimum=1)
    if degrees.max() > max_degree_bound:
        raise ValueError(f"max_degree_bound={max_degree_bound} is below the graph's max degree; ΔEBC would be invalid")
    return max_degree_bound


def ld_scores(ebc: Any, degrees: Any, *, max_degree_bound: int | None = None) -> np.ndarray:
    """D_{EBC,δ^EBC}(G, v) by one searchsorted over the degree prefix sums (spec §4.4).

    References
    ----------
    de Farias 2021, Def. 3.3.1 on EBC; spec §4.4.
    """
    ebc = np.asarray(ebc, float)
    degrees = np.asarray(degrees, np.int64)
    Dm = check_degree_bound(degrees, max_degree_bound)
    gs, gk, G = _prefix(Dm)
    target = G[degrees] + ebc
    j = np.searchsorted(G, target, side="right") - 1  # G[j] <= target < G[j+1]
    inside = j < Dm + 1
    jj = np.minimum(j, Dm)
    D = np.where(inside, (j - degrees) + (target - G[jj]) / gk[jj], (Dm + 1 - degrees) + (target - G[-1]) / gs)
    return D


def sld_scores(ebc: Any, degrees: Any, *, max_degree_bound: int | None = None) -> np.ndarray:
    """Sensitivity-1 SLD score φ(d_v) + EBC(v)/ΔEBC with φ(d) = d − G(d)/ΔEBC (spec §4.4).

    Equals (EBC − S_v)/ΔEBC up to a constant, S_v = Σ_{t<Δ}(ΔEBC − δ^EBC(G,t,v)), horizon Δ public.

    References
    ----------
    de Farias 2021, Def. 4.2.1 on EBC; spec §4.4.
    """
    ebc = np.asarray(ebc, float)
    degrees = np.asarray(degrees, np.int64)
    Dm = check_degree_bound(degrees, max_degree_bound)
    gs, gk, G = _prefix(Dm)
    phi = degrees - G[degrees] / gs
    return phi + ebc / gs


def true_top_k(ebc: Any, k: int) -> np.ndarray:
    """Deterministic true top-k (EBC desc, id asc).

    References
    ----------
    de Farias 2021, §6.5 (accuracy against the true top-k).
    """
    ebc = np.asarray(ebc, float)
    order = np.lexsort((np.arange(ebc.size), -ebc))
    return order[:k]


PROJECTION_STABILITY = 3  # edges of the projected graph one raw edge change can change (proof in project_max_degree)


def project_max_degree(edges: Any, n: int, max_degree_bound: int) -> tuple[np.ndarray, int]:
    """Project a simple graph on the public node set 0..n-1 into max degree ≤ D by a public, stable rule.

    **Rule.** Order the edges canonically by their node pair (a, b), a < b (lexicographic on the public node
    labels: it does not depend on which other edges exist, nor on file order). For every node, rank its incident
    edges in that order (0, 1, …). Keep an edge iff its rank is < D at *both* endpoints. Every node keeps ≤ D edges.

    **Stability (edge-DP).** Let G' = G + e, e = (u, v). Ranks change only at u and v (no other node's list of
    incident edges changes). At u, inserting e shifts the edges after it by one, so at most one edge f_u ≠ e
    crosses from rank D−1 to rank D and loses its place; likewise at most one f_v at v; f_u ≠ f_v (an edge at both
    u and v is e itself). The keep-decision of every other edge depends on its ranks alone, which did not move. So
    π(G') = π(G) − {f_u, f_v} (+ e), a symmetric difference of at most 3 edges — no cascade, unlike greedy
    projections. Removing e is the same pair read backwards.

    **Composite sensitivity.** Walk π(G) → π(G) − f_u → π(G) − f_u − f_v → π(G'): every intermediate is a subgraph
    of π(G) or of π(G'), so it is a graph of max degree ≤ D on the node set, and consecutive graphs are edge-DP
    neighbours. Along this path of ≤ 3 steps EBC(v) moves by ≤ ΔEBC(D) per step (Lemma 6.3.2), the dampened
    utility D(·, v) by ≤ 1 per step (Lemma 3.3.1 with δ^EBC admissible on degree-≤D graphs), and the SLD score
    (EBC − S_v)/ΔEBC by ≤ 1 per step (Thm 4.3.1). Hence EBC∘π has sensitivity 3·ΔEBC(D) and the LD/SLD scores
    of the projected graph sensitivity 3 under one raw edge added or removed: :func:`priv_top_k` with
    ``stability=3`` (:data:`PROJECTION_STABILITY`) calibrates every draw to these and stays ε-DP for the raw
    graph, whatever its degrees. The harness checks the bounds on brute-forced file-level edge neighbours.

    Parameters
    ----------
    edges:
        (m, 2) node indices in 0..n−1 (a simple graph: no self-loops, no repeated pair).
    n, max_degree_bound:
        The public node count and degree bound D.

    Returns
    -------
    (kept edges as (m', 2) with a < b in canonical order, number of edges dropped — NOT PRIVATE).
    """
    D = check_int(max_degree_bound, "max_degree_bound", minimum=1)
    e = np.sort(np.asarray(edges, np.int64).reshape(-1, 2), axis=1)
    if e.shape[0] == 0:
        return e, 0
    e = e[np.lexsort((e[:, 1], e[:, 0]))]  # canonical order of node pairs
    m = e.shape[0]
    ends = e.ravel()  # endpoint occurrences, edge j at 2j and 2j+1
    edge_of = np.repeat(np.arange(m), 2)
    order = np.lexsort((edge_of, ends))  # by node, then by the edge's canonical position
    node_sorted = ends[order]
    start = np.searchsorted(node_sorted, node_sorted, side="left")
    rank = np.empty(2 * m, np.int64)
    rank[order] = np.arange(2 * m) - start
    keep = (rank.reshape(m, 2) < D).all(axis=1)
    return e[keep], int(m - keep.sum())


def simple_graph_on(edges: Any, num_nodes: int) -> tuple[np.ndarray, dict]:
    """The simple undirected graph on the public node set 0..num_nodes−1, by public rules applied edge by edge:
    a pair naming a node outside the set is dropped, a self-loop is dropped, a repeated pair is one edge. One raw
    edge added or removed therefore adds or removes at most one edge. Returns the (m, 2) pairs (a < b, sorted) and
    the NOT PRIVATE counts of what was dropped."""
    e = np.asarray(edges, np.int64).reshape(-1, 2)
    inside = ((e >= 0) & (e < num_nodes)).all(axis=1)
    e = e[inside]
    loops = e[:, 0] == e[:, 1]
    und = np.unique(np.sort(e[~loops], axis=1), axis=0) if (~loops).any() else np.zeros((0, 2), np.int64)
    return und, {"lines_outside_node_set_dropped": int((~inside).sum()), "self_loops_dropped": int(loops.sum()),
                 "duplicate_edges_dropped": int((~loops).sum() - und.shape[0])}


def method_logits(ebc: Any, degrees: Any, k: int, *, epsilon: float, method: str, max_degree_bound: int | None = None) -> np.ndarray:
    """Per-draw log-weights (ε/k per draw) of EM, LD or SLD; for PF the per-draw scale ε/(2kΔ)·(EBC − max)."""
    ebc = np.asarray(ebc, float)
    degrees = np.asarray(degrees, np.int64)
    epsilon = check_epsilon(epsilon)
    Dm = check_degree_bound(degrees, max_degree_bound)
    gs = global_sensitivity_ebc(Dm)
    e1 = epsilon / k
    if method in ("EM", "PF"):
        return e1 * (ebc - ebc.max()) / (2 * gs)
    if method == "LD":
        return e1 * ld_scores(ebc, degrees, max_degree_bound=Dm) / 2
    if method == "SLD":
        return e1 * sld_scores(ebc, degrees, max_degree_bound=Dm) / 2
    raise ValueError(f"method must be one of {METHODS}, got {method!r}")


def topk_overlap_with_degree(ebc: Any, degrees: Any, k: int) -> int:
    """|top-k by EBC ∩ top-k by degree| — diagnostic for SLD's advantage (spec §0.3).

    References
    ----------
    de Farias 2021, spec §0.3 (diagnostic, not in the thesis).
    """
    a = set(true_top_k(ebc, k).tolist())
    b = set(true_top_k(np.asarray(degrees, float), k).tolist())
    return len(a & b)


def sld_limit_accuracy(ebc: Any, degrees: Any, k: int, *, max_degree_bound: int | None = None) -> float:
    """SLDPrivTopk's accuracy as ε → ∞: |top-k of its score φ(d_v) + EBC(v)/ΔEBC ∩ true top-k| / k (issue 24).

    SLD samples from exp(ε'/2 · score), so as ε grows it returns the top-k of :func:`sld_scores` — a degree-dominated
    score — not the top-k of EBC: this overlap is SLD's accuracy ceiling (EM's is 1).

    References
    ----------
    de Farias 2021, Def. 4.2.1 on EBC; spec §4.4 (SLD closed form).
    """
    k = int(k)
    limit = set(true_top_k(sld_scores(ebc, degrees, max_degree_bound=max_degree_bound), k).tolist())
    return len(limit & set(true_top_k(ebc, k).tolist())) / k


def bfs_sample(graph: CSRGraph, size: int, *, rng=None) -> CSRGraph:
    """Table 1 sampling: random seed node, BFS until ``size`` nodes, induced subgraph.

    References
    ----------
    de Farias 2021, §6.5, Table 1.
    """
    gen = as_generator(rng)
    n = graph.num_nodes
    for _ in range(100):
        start = int(gen.integers(n))
        seen = [start]
        seen_set = {start}
        qi = 0
        while qi < len(seen) and len(seen) < size:
            v = seen[qi]; qi += 1
            for w in graph.neighbours(v):
                w = int(w)
                if w not in seen_set:
                    seen.append(w); seen_set.add(w)
                    if len(seen) >= size:
                        break
        if len(seen) >= size:
            return graph.induced_subgraph(np.array(sorted(seen)))
    raise ValueError(f"no connected component with {size} nodes found")
