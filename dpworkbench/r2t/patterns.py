"""Graph pattern queries under node-DP (spec 1.3, 4.3): edges, length-2 paths, triangles, 4-cycles.

Two evaluators giving the same join information: the spec's SQL over
``node(id)``/``edge(from_id, to_id)`` (both directions) in DuckDB, and numba
enumerators on a :class:`~dpworkbench.graphs.CSRGraph`. A join result is one
pattern occurrence (symmetry-broken exactly as the SQL), ψ = 1, D_j = its nodes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..graphs import CSRGraph
from .joininfo import JoinInfo, from_arrays

QUERIES = ("edge", "path2", "triangle", "rectangle")
ARITY = {"edge": 2, "path2": 3, "triangle": 3, "rectangle": 4}

SQL = {
    "edge": """select r1.id, r2.id from node r1, node r2, edge
 where r1.id=edge.from_id and r2.id=edge.to_id and r1.id<r2.id""",
    "path2": """select r1.id, r2.id, r3.id from node r1, node r2, node r3, edge r4, edge r5
 where r4.to_id=r5.from_id and r1.id=r4.from_id and r2.id=r5.from_id and r3.id=r5.to_id and r1.id<r3.id""",
    "triangle": """select r1.id, r2.id, r3.id from node r1, node r2, node r3, edge r4, edge r5, edge r6
 where r4.from_id=r6.to_id and r5.from_id=r4.to_id and r6.from_id=r5.to_id
   and r1.id=r4.from_id and r2.id=r5.from_id and r3.id=r6.from_id and r1.id<r2.id and r2.id<r3.id""",
    "rectangle": """select r1.id, r2.id, r3.id, r4.id from node r1, node r2, node r3, node r4, edge r5, edge r6, edge r7, edge r8
 where r5.from_id=r8.to_id and r6.from_id=r5.to_id and r7.from_id=r6.to_id and r8.from_id=r7.to_id
   and r1.id=r5.from_id and r2.id=r6.from_id and r3.id=r7.from_id and r4.id=r8.from_id
   and r1.id<r2.id and r1.id<r3.id and r1.id<r4.id and r2.id<r4.id""",
}


def check_query(query: str) -> str:
    if query not in QUERIES:
        raise ValueError(f"unknown graph query {query!r}; choose one of {QUERIES}")
    return query


# ---------------------------------------------------------------------------------
# numba enumerators
# ---------------------------------------------------------------------------------
@njit(cache=True)
def _triangles(indptr, indices, fill, out):
    """Triangles u < v < w (each once); count or fill, as :func:`_rectangles`."""
    n = indptr.size - 1
    mark = np.zeros(n, np.int64) - 1
    c = 0
    for u in range(n):
        for k in range(indptr[u], indptr[u + 1]):
            mark[indices[k]] = u
        for k in range(indptr[u], indptr[u + 1]):
            v = indices[k]
            if v <= u:
                continue
            for l in range(indptr[v], indptr[v + 1]):
                w = indices[l]
                if w > v and mark[w] == u:
                    if fill:
                        out[c, 0] = u
                        out[c, 1] = v
                        out[c, 2] = w
                    c += 1
    return c


@njit(cache=True)
def _rectangles(indptr, indices, fill, out):
    """4-cycles r1-r2-r3-r4 with r1 = min, r2 < r4 (each cycle once); count or fill."""
    n = indptr.size - 1
    cnt = np.zeros(n, np.int64)
    touched = np.empty(n, np.int64)
    # per r3: list of middle nodes (common neighbours of r1 and r3 greater than r1)
    heads = np.zeros(n, np.int64) - 1
    nxt = np.empty(indices.size, np.int64)
    val = np.empty(indices.size, np.int64)
    total = 0
    for r1 in range(n):
        nt = 0
        pos = 0
        for k in range(indptr[r1], indptr[r1 + 1]):
            x = indices[k]
            if x <= r1:
                continue
            for l in range(indptr[x], indptr[x + 1]):
                r3 = indices[l]
                if r3 <= r1:
                    continue
                if cnt[r3] == 0:
                    touched[nt] = r3
                    nt += 1
                cnt[r3] += 1
                if fill:
                    val[pos] = x
                    nxt[pos] = heads[r3]
                    heads[r3] = pos
                    pos += 1
        for t in range(nt):
            r3 = touched[t]
            c = cnt[r3]
            if fill and c >= 2:
                # collect middles
                mids = np.empty(c, np.int64)
                p = heads[r3]
                q = 0
                while p != -1:
                    mids[q] = val[p]
                    q += 1
                    p = nxt[p]
                for a in range(c):
                    for b in range(c):
                        if mids[a] < mids[b]:
                            out[total, 0] = r1
                            out[total, 1] = mids[a]
                            out[total, 2] = r3
                            out[total, 3] = mids[b]
                            total += 1
            elif c >= 2:
                total += c * (c - 1) // 2
            cnt[r3] = 0
            heads[r3] = -1
    return total


def _edges(g: CSRGraph) -> np.ndarray:
    return g.edge_array().astype(np.int64)


def _paths2(g: CSRGraph) -> np.ndarray:
    deg = g.degrees
    out = []
    # vectorised per degree: for each centre, all pairs a<c of its (sorted) neighbours
    for d in np.unique(deg[deg >= 2]):
        centres = np.flatnonzero(deg == d)
        ia, ic = np.triu_indices(int(d), k=1)
        nb = np.stack([g.indices[g.indptr[v]:g.indptr[v + 1]] for v in centres]).astype(np.int64)
        a = nb[:, ia].ravel()
        c = nb[:, ic].ravel()
        b = np.repeat(centres, ia.size)
        out.append(np.stack([a, b, c], axis=1))
    return np.concatenate(out) if out else np.zeros((0, 3), np.int64)


def occurrences(g: CSRGraph, query: str) -> np.ndarray:
    """(M, arity) int64 array of pattern occurrences, rows in the SQL's column order (r1, r2, ...)."""
    check_query(query)
    if query == "edge":
        return _edges(g)
    if query == "path2":
        return _paths2(g)
    out = np.empty((_cycles(g, query), ARITY[query]), np.int64)
    _cycles(g, query, out)
    return out


def _cycles(g: CSRGraph, query: str, out: np.ndarray | None = None) -> int:
    """Number of triangles or 4-cycles of ``g``; with ``out`` (rows = that number) also their occurrences."""
    kernel = _triangles if query == "triangle" else _rectangles
    fill = out is not None
    out = out if fill else np.empty((0, ARITY[query]), np.int64)
    return int(kernel(g.indptr.astype(np.int64), g.indices.astype(np.int64), fill, out))


def count(g: CSRGraph, query: str) -> int:
    """Number of occurrences without materialising them (triangles, 4-cycles); 2-paths Σ C(d,2).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §10 Table 2 (Q1-, Q2-, Q△, Q□); spec 4.2.
    """
    check_query(query)
    if query == "edge":
        return g.num_edges
    if query == "path2":
        d = g.degrees
        return int((d * (d - 1) // 2).sum())
    return _cycles(g, query)


def graph_joininfo(g: CSRGraph, query: str, *, name: str = "") -> JoinInfo:
    """Join information of a pattern query under node-DP (fast enumerator).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §1.3 (graphs under node-DP as join results); spec 1.3.
    """
    occ = occurrences(g, query)
    return _from_occurrences(occ, g.n, name or query)


def _from_occurrences(occ: np.ndarray, n_nodes: int, name: str) -> JoinInfo:
    # ids are node ids (compacted to active nodes by from_arrays; labels keep the node id)
    return from_arrays(np.ones(occ.shape[0]), [occ[:, c] for c in range(occ.shape[1])], n_primary=n_nodes, name=name)


def graph_tables(g: CSRGraph):
    """pandas ``node(id)`` and ``edge(from_id, to_id)`` (each undirected edge in both directions)."""
    import pandas as pd

    e = g.edge_array().astype(np.int64)
    node = pd.DataFrame({"id": np.arange(g.n, dtype=np.int64)})
    edge = pd.DataFrame({"from_id": np.concatenate([e[:, 0], e[:, 1]]), "to_id": np.concatenate([e[:, 1], e[:, 0]])})
    return node, edge


def sql_occurrences(g: CSRGraph, query: str, con=None) -> np.ndarray:
    """Occurrences via the spec's SQL in DuckDB (reporting query: the keys of the node atoms)."""
    import duckdb

    check_query(query)
    node, edge = graph_tables(g)
    own = con is None
    con = con or duckdb.connect()
    try:
        con.register("node", node)
        con.register("edge", edge)
        arr = con.execute(SQL[query]).fetchnumpy()
    finally:
        if own:
            con.close()
    cols = list(arr.values())
    return np.stack([np.asarray(c, dtype=np.int64) for c in cols], axis=1) if cols and cols[0].size else np.zeros((0, ARITY[query]), np.int64)


def graph_joininfo_sql(g: CSRGraph, query: str, *, name: str = "") -> JoinInfo:
    """The JoinInfo of ``query`` on ``g`` through the spec's SQL in DuckDB (:func:`sql_occurrences`): the reference
    the enumerators of :func:`graph_joininfo` (what the package uses: faster, no database) are tested against — the same
    answer, DS_Q and LP values (tests/r2t/test_sql.py)."""
    return _from_occurrences(sql_occurrences(g, query), g.n, name or query)


__all__ = ["ARITY", "QUERIES", "SQL", "count", "graph_joininfo", "graph_joininfo_sql", "graph_tables", "occurrences", "sql_occurrences"]
