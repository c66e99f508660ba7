"""Undirected simple graphs in compressed sparse row form (int32 neighbours)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property

import numpy as np


@dataclass(frozen=True, eq=False)
class CSRGraph:
    """Undirected simple graph on nodes 0..n-1.

    ``indptr`` (int64, length n+1) and ``indices`` (int32, sorted per row) store
    each undirected edge twice. Build with :func:`from_edge_array`.
    """

    n: int
    indptr: np.ndarray
    indices: np.ndarray

    @property
    def num_nodes(self) -> int:
        return self.n

    @property
    def num_edges(self) -> int:
        return int(self.indices.size // 2)

    @cached_property
    def degrees(self) -> np.ndarray:
        return np.diff(self.indptr).astype(np.int64)

    @property
    def max_degree(self) -> int:
        return int(self.degrees.max()) if self.n else 0

    def neighbours(self, v: int) -> np.ndarray:
        return self.indices[self.indptr[v] : self.indptr[v + 1]]

    def edge_array(self) -> np.ndarray:
        """(m, 2) int32 array of edges with u < v, sorted."""
        src = np.repeat(np.arange(self.n, dtype=np.int32), self.degrees)
        keep = src < self.indices
        return np.stack([src[keep], self.indices[keep]], axis=1)

    @cached_property
    def fingerprint(self) -> str:
        """Content hash, for caching non-private results per graph."""
        h = hashlib.blake2b(digest_size=16)
        h.update(np.int64(self.n).tobytes())
        h.update(np.ascontiguousarray(self.indptr).tobytes())
        h.update(np.ascontiguousarray(self.indices).tobytes())
        return h.hexdigest()

    def induced_subgraph(self, nodes: np.ndarray) -> "CSRGraph":
        """Subgraph induced by ``nodes`` (relabelled 0..len(nodes)-1 in the given order)."""
        nodes = np.asarray(nodes, dtype=np.int64)
        remap = np.full(self.n, -1, dtype=np.int64)
        remap[nodes] = np.arange(nodes.size)
        e = self.edge_array()
        a, b = remap[e[:, 0]], remap[e[:, 1]]
        keep = (a >= 0) & (b >= 0)
        return from_edge_array(np.stack([a[keep], b[keep]], axis=1), n=nodes.size)

    def to_networkx(self):
        import networkx as nx

        g = nx.Graph()
        g.add_nodes_from(range(self.n))
        g.add_edges_from(map(tuple, self.edge_array().tolist()))
        return g

    def __repr__(self) -> str:
        return f"CSRGraph(n={self.n}, m={self.num_edges}, max_degree={self.max_degree})"


def from_edge_array(edges: np.ndarray, n: int | None = None) -> CSRGraph:
    """Build a simple undirected graph: drops self-loops and duplicate/mirrored edges."""
    e = np.asarray(edges)
    if e.size == 0:
        e = np.zeros((0, 2), dtype=np.int64)
    if e.ndim != 2 or e.shape[1] != 2:
        raise ValueError(f"edges must have shape (m, 2), got {e.shape}")
    e = e.astype(np.int64, copy=False)
    if e.size and e.min() < 0:
        raise ValueError("edges contain negative node ids")
    n_nodes = int(e.max()) + 1 if e.size else 0
    if n is not None:
        if n < n_nodes:
            raise ValueError(f"n={n} is smaller than the largest node id + 1 ({n_nodes})")
        n_nodes = int(n)
    u = np.minimum(e[:, 0], e[:, 1])
    v = np.maximum(e[:, 0], e[:, 1])
    keep = u != v
    key = np.unique(u[keep] * n_nodes + v[keep]) if n_nodes else np.zeros(0, np.int64)
    u, v = key // max(n_nodes, 1), key % max(n_nodes, 1)
    src = np.concatenate([u, v])
    dst = np.concatenate([v, u])
    order = np.lexsort((dst, src))
    src, dst = src[order], dst[order]
    indptr = np.zeros(n_nodes + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n_nodes), out=indptr[1:])
    return CSRGraph(n_nodes, indptr, dst.astype(np.int32))


def from_networkx(graph) -> tuple[CSRGraph, list]:
    """Convert a networkx graph; returns the CSR graph and the node labels in id order."""
    labels = list(graph.nodes)
    index = {v: i for i, v in enumerate(labels)}
    edges = np.array([(index[a], index[b]) for a, b in graph.edges], dtype=np.int64).reshape(-1, 2)
    return from_edge_array(edges, n=len(labels)), labels
