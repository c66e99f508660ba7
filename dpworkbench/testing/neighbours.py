"""Neighbour generators and exhaustive sensitivity checks for small inputs."""

from __future__ import annotations

import itertools
from typing import Any, Callable, Iterable, Iterator, Sequence

import networkx as nx
import numpy as np


def tuple_neighbours(rows: Sequence[Any], universe: Sequence[Any] | None = None) -> Iterator[list[Any]]:
    """All add/remove-one-tuple neighbours of a list of rows.

    Removal: drop each row once. Addition: append each element of ``universe``
    (if given). Works for lists of tuples; for DataFrames pass ``df.to_records``
    style lists and rebuild in ``f``.
    """
    rows = list(rows)
    for i in range(len(rows)):
        yield rows[:i] + rows[i + 1 :]
    if universe is not None:
        for u in universe:
            yield rows + [u]


def graph_node_neighbours(graph: nx.Graph, *, add: bool = True, max_new_edges: int | None = None) -> Iterator[nx.Graph]:
    """All node-neighbours of a small graph: remove one node with its edges, or add
    one new node connected to any subset of existing nodes (``add=True``)."""
    for v in list(graph.nodes):
        h = graph.copy()
        h.remove_node(v)
        yield h
    if add:
        nodes = list(graph.nodes)
        new = max(nodes, default=-1) + 1 if all(isinstance(v, (int, np.integer)) for v in nodes) else ("new",)
        limit = len(nodes) if max_new_edges is None else min(max_new_edges, len(nodes))
        for r in range(limit + 1):
            for subset in itertools.combinations(nodes, r):
                h = graph.copy()
                h.add_node(new)
                h.add_edges_from((new, s) for s in subset)
                yield h


def random_small_graph(n: int, p: float, rng: np.random.Generator | int | None = None) -> nx.Graph:
    """A G(n, p) graph on nodes 0..n-1 from a seeded generator."""
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    g = nx.Graph()
    g.add_nodes_from(range(n))
    iu, ju = np.triu_indices(n, 1)
    keep = gen.random(iu.size) < p
    g.add_edges_from(zip(iu[keep].tolist(), ju[keep].tolist()))
    return g


def brute_force_sensitivity(
    f: Callable[[Any], Any],
    inputs: Iterable[Any],
    neighbours: Callable[[Any], Iterable[Any]],
    *,
    norm: str = "l1",
) -> float:
    """max over x in ``inputs`` and x' in ``neighbours(x)`` of ‖f(x) − f(x')‖.

    ``norm`` is "l1" (default) or "linf" for vector-valued f.
    """
    worst = 0.0
    count = 0
    for x in inputs:
        fx = np.asarray(f(x), dtype=float)
        for xp in neighbours(x):
            fxp = np.asarray(f(xp), dtype=float)
            if fx.shape != fxp.shape:
                raise ValueError(f"f returned shapes {fx.shape} and {fxp.shape} on neighbours")
            diff = np.abs(fx - fxp)
            d = float(diff.sum() if norm == "l1" else diff.max()) if diff.size else 0.0
            worst = max(worst, d)
            count += 1
    if count == 0:
        raise ValueError("no neighbour pairs were generated: check inputs and neighbours")
    return worst
