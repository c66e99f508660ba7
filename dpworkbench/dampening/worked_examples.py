"""The thesis' worked examples (spec §2.11): Fig. 2 and Fig. 3/9c/15 graphs, brute-force LS oracles."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np

NODES = ["a", "b", "v0", "v1", "v2", "v3", "v4", "v5"]


def fig2_graph() -> nx.Graph:
    """The thesis' Fig. 2 graph: a–b adjacent, both adjacent to v0..v5.

    References
    ----------
    de Farias 2021, Fig. 2, Example 1.1.2.
    """
    G = nx.Graph(); G.add_nodes_from(NODES)
    G.add_edges_from([("a", "b")] + [(x, f"v{i}") for x in "ab" for i in range(6)])
    from ..datasets import provenance  # the notebook's data: the thesis' own example (datasets.csv, issue 24)

    provenance.record("dampening.fig2_example", "example", "the thesis' Fig. 2 graph", G.number_of_nodes())
    return G


def fig9c_graph() -> nx.Graph:
    """The thesis' Fig. 3 / 9c / 15 graph (reconstructed from the worked examples; nodes in :data:`NODES` order).

    References
    ----------
    de Farias 2021, Figs. 3, 9c and 15; spec §2.11 (reconstruction).
    """
    G = nx.Graph(); G.add_nodes_from(NODES)
    G.add_edges_from([("a", "b"), ("a", "v0"), ("a", "v1"), ("a", "v2"), ("a", "v3"), ("b", "v2"), ("b", "v3"),
                      ("b", "v4"), ("b", "v5"), ("v0", "v1"), ("v4", "v5")])
    from ..datasets import provenance

    provenance.record("dampening.fig9c_example", "example", "the thesis' Fig. 3 / 9c / 15 graph (reconstructed, spec §2.11)",
                      G.number_of_nodes())
    return G


def fig9c_utilities() -> np.ndarray:
    """EBC of the Fig. 9c graph's nodes (the utilities of Examples 3.4.1, 3.6.1 and 4.2.1), in :data:`NODES` order.

    References
    ----------
    de Farias 2021, Example 3.4.1.
    """
    return np.array([6.5, 6.5, 0, 0, 0, 0, 0, 0], float)


def fig9c_element_ls() -> np.ndarray:
    """Exact LS(G,t,r), t=0..3, rows in NODES order (spec §2.11 table).

    References
    ----------
    de Farias 2021, Examples 3.1.1 and 4.2.1; spec §2.11 (table).
    """
    ab, v0145, v23 = [3, 5, 5, 6], [2, 3, 4, 4], [1, 2, 3, 4]
    return np.array([ab, ab, v0145, v0145, v23, v23, v0145, v0145], float)


def ebc_nx(G: nx.Graph) -> np.ndarray:
    """EBC of every node of a networkx graph (in ``G.nodes`` order), by the package's CSR kernel without caching.

    References
    ----------
    de Farias 2021, Def. 6.1.1.
    """
    from .ebc import ebc_all
    from dpworkbench.graphs import from_networkx

    g, labels = from_networkx(G)
    e = ebc_all(g, cache=False)
    pos = {lab: i for i, lab in enumerate(labels)}
    return np.array([e[pos[v]] for v in G.nodes])


def toggles(G: nx.Graph):
    for u, v in itertools.combinations(list(G.nodes), 2):
        H = G.copy()
        if H.has_edge(u, v):
            H.remove_edge(u, v)
        else:
            H.add_edge(u, v)
        yield H


def element_ls_bruteforce(G: nx.Graph, t_max: int = 1) -> np.ndarray:
    """Exact LS^EBC(G,t,v) for t ≤ t_max by enumerating the t-ball of edge toggles (tiny graphs only).

    References
    ----------
    de Farias 2021, Example 2.4.1, Example 3.1.1 / Fig. 11.
    """
    def key(H):
        return frozenset(frozenset(e) for e in H.edges)
    ls0_cache = {}
    def ls0(H):
        k = key(H)
        if k not in ls0_cache:
            e = ebc_nx(H)
            ls0_cache[k] = np.max([np.abs(ebc_nx(Hn) - e) for Hn in toggles(H)], axis=0)
        return ls0_cache[k]
    out = [ls0(G)]
    ball = {key(G): G}
    frontier = [G]
    for _ in range(t_max):
        new = []
        for H in frontier:
            for Hn in toggles(H):
                if key(Hn) not in ball:
                    ball[key(Hn)] = Hn; new.append(Hn)
        frontier = new
        out.append(np.maximum(out[-1], np.max([ls0(H) for H in new], axis=0)))
    return np.array(out).T
