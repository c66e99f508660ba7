"""Sensitivity claims by brute force over all neighbours of small random instances (spec 2.2, 2.9, 5.5)."""

import networkx as nx
import numpy as np
import pytest

from dpworkbench.graphs import from_networkx
from dpworkbench.r2t import FHat, Truncation, from_lists, naive_value
from dpworkbench.r2t.patterns import QUERIES, graph_joininfo
from dpworkbench.testing import brute_force_sensitivity, graph_node_neighbours, random_small_graph


def _info(g: nx.Graph, query: str):
    csr, _ = from_networkx(nx.convert_node_labels_to_integers(g))
    return graph_joininfo(csr, query)


def _graphs(seed, k=4, n=7, p=0.5):
    rng = np.random.default_rng(seed)
    return [random_small_graph(n, p, rng) for _ in range(k)]


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("tau", [1, 2, 3.5])
def test_lp_truncation_has_sensitivity_tau(query, tau):
    def f(g):
        info = _info(g, query)
        return Truncation(info, "lp", shortcut=False).value(tau) if info.m else 0.0

    worst = brute_force_sensitivity(f, _graphs(hash((query, tau)) % 1000), lambda g: graph_node_neighbours(g, max_new_edges=None))
    assert worst <= tau + 1e-7


@pytest.mark.parametrize("query", QUERIES)
def test_ghat_has_sensitivity_one(query):
    def f(g):
        info = _info(g, query)
        return FHat(info, shortcut=False).g(2.0) if info.m else 0.0

    worst = brute_force_sensitivity(f, _graphs(7, k=3), lambda g: graph_node_neighbours(g, max_new_edges=None))
    assert worst <= 1 + 1e-7


def _remove_neighbours(info):
    return [info.remove_tuples([i]) for i in range(info.n)]


def test_multiple_primary_relations_and_sum_weights():
    rng = np.random.default_rng(3)
    for _ in range(5):
        m = 12
        psi = rng.integers(0, 5, m) + rng.random(m)
        lists = [[int(rng.integers(0, 4)), 4 + int(rng.integers(0, 4))] for _ in range(m)]  # supplier × customer
        info = from_lists(psi, lists, n=8)
        for tau in (0.5, 2.0, 5.0):
            worst = brute_force_sensitivity(lambda x: Truncation(x, "lp", shortcut=False).value(tau) if x.m else 0.0,
                                            [info], _remove_neighbours)
            assert worst <= tau + 1e-7
            worst_g = brute_force_sensitivity(lambda x: FHat(x, shortcut=False).g(tau) if x.m else 0.0, [info], _remove_neighbours)
            assert worst_g <= 1 + 1e-7


def test_spja_truncation_has_sensitivity_tau():
    rng = np.random.default_rng(5)
    for _ in range(5):
        m = 14
        lists = [[int(rng.integers(0, 5)), 5 + int(rng.integers(0, 3))] for _ in range(m)]
        proj = rng.integers(0, 4, m)
        info = from_lists(np.ones(m), lists, n=8, proj=proj)
        for tau in (1.0, 2.0):
            worst = brute_force_sensitivity(lambda x: Truncation(x, "lp", shortcut=False).value(tau) if x.m else 0.0,
                                            [info], _remove_neighbours)
            assert worst <= tau + 1e-7


def test_naive_truncation_breaks_with_self_joins():
    """Ex. 1.2: on a τ-regular graph, adding one vertex adjacent to all drops the answer from nτ/2 to 0."""
    tau = 3
    g = nx.random_regular_graph(tau, 10, seed=1)
    h = g.copy()
    h.add_edges_from((10, v) for v in range(10))
    a = naive_value(_info(g, "edge"), tau, allow_self_joins=True)
    b = naive_value(_info(h, "edge"), tau, allow_self_joins=True)
    assert a == 15 and b == 0 and abs(a - b) > tau
    with pytest.raises(ValueError):
        naive_value(_info(g, "edge"), tau)
    # the LP truncation stays within τ on the same pair
    assert abs(Truncation(_info(g, "edge"), "lp").value(tau) - Truncation(_info(h, "edge"), "lp").value(tau)) <= tau


def test_clip_is_lp_optimum_for_sjf():
    rng = np.random.default_rng(2)
    psi = rng.integers(1, 6, 40).astype(float)
    info = from_lists(psi, [[int(i)] for i in rng.integers(0, 9, 40)])
    for tau in (1, 3, 7.5, 20):
        assert Truncation(info, "clip").value(tau) == pytest.approx(Truncation(info, "lp").value(tau), abs=1e-7)


def test_spja_ghat_sensitivity_and_opt2_runs():
    """OPT² for SPJA (spec 2.10): Ĝ on the pre-projection results keeps sensitivity 1; the final truncation is LP-SPJA."""
    from dpworkbench.r2t import opt2
    rng = np.random.default_rng(9)
    for _ in range(4):
        m = 14
        lists = [[int(rng.integers(0, 5)), 5 + int(rng.integers(0, 3))] for _ in range(m)]
        info = from_lists(np.ones(m), lists, n=8, proj=rng.integers(0, 4, m))
        for tau in (1.0, 2.0):
            worst = brute_force_sensitivity(lambda x: FHat(x, shortcut=False).g(tau) if x.m else 0.0, [info], _remove_neighbours)
            assert worst <= 1 + 1e-7
        res = opt2(info, epsilon=1.0, rng=0)
        assert res.truncated == pytest.approx(Truncation(info, "lp", shortcut=False).value(res.tau), abs=1e-7)
        assert res.truncated <= info.answer + 1e-9
