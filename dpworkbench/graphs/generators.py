"""Seeded synthetic graph generators used as stand-ins for unavailable SNAP data."""

from __future__ import annotations

import numpy as np

from .._validation import check_int, check_probability
from ..mechanisms.backends import as_generator
from .core import CSRGraph, from_edge_array


def erdos_renyi(n: int, p: float, *, seed: int | None = None, rng: np.random.Generator | None = None) -> CSRGraph:
    """G(n, p) by geometric skipping over the upper triangle (O(n + m))."""
    n = check_int(n, "n", minimum=1)
    p = check_probability(p, "p", open_interval=False)
    gen = as_generator(rng, seed)
    total = n * (n - 1) // 2
    if p == 0 or total == 0:
        return from_edge_array(np.zeros((0, 2), np.int64), n=n)
    expected = int(total * p * 1.2) + 100
    gaps = gen.geometric(p, size=expected) if p < 1 else np.ones(total, dtype=np.int64)
    pos = np.cumsum(gaps) - 1
    pos = pos[pos < total]
    # invert the linear index of the strict upper triangle
    i = (n - 2 - np.floor(np.sqrt(-8 * pos + 4 * n * (n - 1) - 7) / 2.0 - 0.5)).astype(np.int64)
    j = pos + i + 1 - n * (n - 1) // 2 + (n - i) * ((n - i) - 1) // 2
    return from_edge_array(np.stack([i, j], axis=1), n=n)


def holme_kim(n: int, m: int, p_triangle: float, *, seed: int | None = None) -> CSRGraph:
    """Holme–Kim power-law graph with tunable clustering (networkx's powerlaw_cluster_graph)."""
    import networkx as nx

    n = check_int(n, "n", minimum=2)
    m = check_int(m, "m", minimum=1, maximum=n - 1)
    p_triangle = check_probability(p_triangle, "p_triangle", open_interval=False)
    g = nx.powerlaw_cluster_graph(n, m, p_triangle, seed=seed)
    edges = np.array(list(g.edges), dtype=np.int64).reshape(-1, 2)
    return from_edge_array(edges, n=n)


def thinned_grid(rows: int, cols: int, keep: float = 0.7, *, diagonal: float = 0.05, seed: int | None = None) -> CSRGraph:
    """Road-network-like graph: a 2-D grid with edges kept w.p. ``keep`` plus a few diagonals (max degree ≤ 8)."""
    rows = check_int(rows, "rows", minimum=1)
    cols = check_int(cols, "cols", minimum=1)
    gen = np.random.default_rng(seed)
    idx = np.arange(rows * cols).reshape(rows, cols)
    parts = [
        np.stack([idx[:, :-1].ravel(), idx[:, 1:].ravel()], 1),
        np.stack([idx[:-1, :].ravel(), idx[1:, :].ravel()], 1),
    ]
    e = np.concatenate(parts)
    e = e[gen.random(len(e)) < keep]
    d = np.stack([idx[:-1, :-1].ravel(), idx[1:, 1:].ravel()], 1)
    d = d[gen.random(len(d)) < diagonal]
    return from_edge_array(np.concatenate([e, d]), n=rows * cols)


def degree_capped(graph: CSRGraph, max_degree: int, *, seed: int | None = None) -> CSRGraph:
    """Drop edges (in random order) so no node exceeds ``max_degree``."""
    max_degree = check_int(max_degree, "max_degree", minimum=1)
    gen = np.random.default_rng(seed)
    e = graph.edge_array()
    e = e[gen.permutation(len(e))]
    deg = np.zeros(graph.n, dtype=np.int64)
    keep = np.zeros(len(e), dtype=bool)
    # Sequential by nature (each decision depends on earlier ones); fine for ≤ 10^7 edges.
    for k, (a, b) in enumerate(e.tolist()):
        if deg[a] < max_degree and deg[b] < max_degree:
            deg[a] += 1
            deg[b] += 1
            keep[k] = True
    return from_edge_array(e[keep], n=graph.n)
