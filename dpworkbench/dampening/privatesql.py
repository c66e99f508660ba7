"""The thesis' PrivateSQL baseline for Table 1, run rather than quoted (§6.5.1, Appendix B).

PrivateSQL answers the influential-node query through one private *view per node* c: the vector of Appendix B's
counts Q(u, v, c) over every node pair {u, v} (N_c is private, so the view must cover all pairs). Q(u, v, c) is

* 0 if u or v is not a neighbour of c, or if u and v are adjacent;
* otherwise q_uv(c) = #{w ∈ N_c ∪ {c} : uw ∈ E and wv ∈ E}, the number of 2-paths between u and v inside the ego
  network (the query's ``magic2``/``magic3`` joins force u, v ∈ N_c, ``magic4`` forces w ∈ N_c ∪ {c}, and
  ``CNT_1 = 0`` drops adjacent pairs).

Exactly one of those 2-paths runs through c, so EBC(c) = Σ_{Q(u,v,c) > 0} 1/Q(u, v, c) (Def. 6.1.1 with p_uv = 1).
:func:`view_counts` evaluates Appendix B's query for every (u, v, c) at once on DuckDB (one join instead of the thesis'
O(n³) separate queries; the same counts — checked against :func:`~dpworkbench.dampening.ebc.ebc_all`).

**Budget split (§6.5.1).** The n views all read the private edge table, so they compose sequentially: each gets
ε_c = B/n. Each view is released with Laplace noise of scale GS_view/ε_c on every pair's count, where GS_view is the
view's L1 sensitivity under edge-DP (one edge toggled) for graphs of max degree ≤ Δ (public):

**Lemma (view sensitivity).** GS_view(Δ) ≤ max(Δ(Δ−1) + Δ(Δ−1)/2, 3Δ). Toggle an edge xy. (i) x = c (or y = c):
y enters or leaves N_c. The pairs {y, v} with v ∈ N_c (≤ Δ − 1 of them) switch between 0 and a count ≤ Δ (each 2-path
uses a neighbour of y): ≤ Δ(Δ−1). y as the middle vertex w of pairs {u, v} ⊆ N_c ∩ N(y): ≤ (Δ−1)(Δ−2)/2 ≤ Δ(Δ−1)/2
counts move by 1. (ii) x, y ∈ N_c, neither is c: the pair {x, y} flips adjacency (its count ≤ Δ goes to or from 0),
and xy as a path edge changes pairs {y, v} (v ∈ N(x) ∩ N_c) and {x, v} (v ∈ N(y) ∩ N_c) by 1: ≤ Δ + 2Δ.
(iii) otherwise nothing in the view changes (a vertex outside N_c ∪ {c} is neither an endpoint nor a middle). ∎
The bound is checked by brute force (tests/dampening/test_privatesql.py). The thesis reports PrivateSQL's own
(Flex-based) sensitivity, 1448 at Δ = 10; ours is 135 there, so this baseline has *less* noise than the thesis' PSQL.

**Post-processing (PrivateSQL's synopsis and MapQuery).** A noisy count is rounded to the nearest non-negative integer
(the non-negative least-squares synopsis of a single count is max(0, ·)); p̂ = 1 when the rounded count is ≥ 1, and the
pair contributes p̂/q̂ to the noisy EBC; the top-k of the noisy EBC is released.

On a sample with |S| nodes the degree is at most |S| − 1, so Δ = min(public bound, |S| − 1) is a valid public bound.

References
----------
de Farias 2021, §6.5.1, Table 1, Appendix B; Kotsogiannis et al., PrivateSQL, PVLDB 12(11), 2019.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dpworkbench.graphs import CSRGraph


def view_sensitivity(max_degree: int) -> float:
    """GS_view(Δ) = max(Δ(Δ−1) + Δ(Δ−1)/2, 3Δ) (the lemma in the module docstring)."""
    d = int(max_degree)
    return float(max(d * (d - 1) + d * (d - 1) / 2, 3 * d, 1))


def _edge_array(graph: CSRGraph) -> np.ndarray:
    src = np.repeat(np.arange(graph.n), np.diff(graph.indptr))
    dst = np.asarray(graph.indices)
    keep = src < dst
    return np.column_stack([src[keep], dst[keep]]).astype(np.int64)


def view_counts(graph: CSRGraph) -> np.ndarray:
    """Q(u, v, c) of Appendix B for every node c and pair u < v, as an (n, n, n) array indexed [c, u, v] (u < v
    filled; zero elsewhere), computed by one DuckDB query over the edge table (both orientations, as the query's
    ``edge(a, b)`` is read with ``e.b = c`` for the neighbours of c)."""
    import duckdb

    n = graph.n
    e = _edge_array(graph)
    con = duckdb.connect()
    try:
        con.register("edge_in", {"a": e[:, 0], "b": e[:, 1]})
        con.register("node", {"id": np.arange(n, dtype=np.int64)})
        rows = con.execute("""
            WITH edge AS (SELECT a, b FROM edge_in UNION ALL SELECT b AS a, a AS b FROM edge_in),
                 nbr AS (SELECT b AS c, a AS x FROM edge),                               -- x ∈ N_c
                 mid AS (SELECT c, x AS w FROM nbr UNION SELECT id AS c, id AS w FROM node)  -- w ∈ N_c ∪ {c}
            SELECT n1.c, e1.a AS u, e2.b AS v, COUNT(*) AS q
            FROM edge e1
            JOIN edge e2 ON e1.b = e2.a
            JOIN nbr n1 ON n1.x = e1.a
            JOIN nbr n2 ON n2.c = n1.c AND n2.x = e2.b
            JOIN mid ON mid.c = n1.c AND mid.w = e1.b
            WHERE e1.a < e2.b
              AND NOT EXISTS (SELECT 1 FROM edge e3 WHERE e3.a = e1.a AND e3.b = e2.b)   -- CNT_1 = 0
            GROUP BY n1.c, e1.a, e2.b""").fetchnumpy()
    finally:
        con.close()
    out = np.zeros((n, n, n), dtype=np.int64)
    out[rows["c"].astype(np.int64), rows["u"].astype(np.int64), rows["v"].astype(np.int64)] = rows["q"]
    return out


def ebc_from_views(q: np.ndarray) -> np.ndarray:
    """EBC(c) = Σ_{u<v, Q>0} p̂/Q with p̂ = 1[Q ≥ 1] on (rounded, non-negative) counts."""
    q = np.asarray(q, float)
    with np.errstate(divide="ignore"):
        return np.where(q >= 1, 1.0 / np.maximum(q, 1.0), 0.0).sum(axis=(1, 2))


def noisy_ebc(q: np.ndarray, *, epsilon: float, max_degree: int, rng: np.random.Generator) -> np.ndarray:
    """PrivateSQL's noisy EBC for every node: n per-node views, each with ε/n and Laplace(GS_view(Δ)/(ε/n)) on every
    pair's count (pairs u < v), then rounded to non-negative integers. Seeded research simulation (not a release)."""
    n = q.shape[0]
    iu = np.triu_indices(n, 1)
    scale = view_sensitivity(max_degree) / (epsilon / n)
    counts = q[:, iu[0], iu[1]].astype(float)
    from dpworkbench.mechanisms.backends import check_rng

    noisy = np.maximum(np.rint(check_rng(rng).add_laplace(counts, scale)), 0.0)  # the back-end's Laplace draw
    with np.errstate(divide="ignore"):
        return np.where(noisy >= 1, 1.0 / np.maximum(noisy, 1.0), 0.0).sum(axis=1)


def top_k_accuracy(q: np.ndarray, ebc: Any, k: int, *, epsilon: float, max_degree: int, runs: int,
                   rng: np.random.Generator) -> np.ndarray:
    """|noisy top-k ∩ true top-k| / k for ``runs`` independent PrivateSQL runs (ties of the noisy EBC broken at
    random, so an all-zero noisy EBC picks k nodes uniformly)."""
    from .ebc import true_top_k

    truth = set(true_top_k(np.asarray(ebc, float), k).tolist())
    n = q.shape[0]
    acc = np.empty(runs)
    for i in range(runs):
        s = noisy_ebc(q, epsilon=epsilon, max_degree=max_degree, rng=rng)
        order = np.lexsort((rng.random(n), -s))[:k]
        acc[i] = len(truth & set(order.tolist())) / k
    return acc
