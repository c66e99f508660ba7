"""The non-private model: exact measures, stable orders, Algorithm 1, Θ, quality, the FD degree bound."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from dpworkbench.inconsistency import FD, Projector, build, examples, from_edges
from dpworkbench.inconsistency import model as M
from dpworkbench.inconsistency.model import degree_bound, edge_addition_reference, order_edges, quality
from dpworkbench.testing import brute_force_sensitivity, graph_node_neighbours, random_small_graph


def test_edge_addition_numba_matches_reference(rng):
    for _ in range(30):
        g = random_small_graph(int(rng.integers(3, 25)), float(rng.uniform(0.05, 0.7)), rng)
        cg = from_edges(g.number_of_nodes(), g.edges)
        u, v = order_edges(cg.u, cg.v, rule="rank", seed=int(rng.integers(100)))
        proj = Projector(cg, rule="rank", seed=0)
        proj.u, proj.v = u, v
        for theta in range(0, 6):
            kept = edge_addition_reference(list(zip(u.tolist(), v.tolist())), cg.n, theta)
            deg = np.bincount(np.array(kept, dtype=int).ravel(), minlength=cg.n) if kept else np.zeros(cg.n)
            assert proj.counts(theta) == (len(kept), int(np.count_nonzero(deg)))
            assert deg.max(initial=0) <= theta


# ----------------------------------------------------------------------------------- brute-force sensitivities
def _cg(h: nx.Graph):
    n = max(h.nodes, default=-1) + 1
    return from_edges(max(n, 1), list(h.edges))


def _graphs(seed, count=25, nmax=7):
    r = np.random.default_rng(seed)
    return [random_small_graph(int(r.integers(2, nmax + 1)), float(r.uniform(0.2, 0.8)), r) for _ in range(count)]


@pytest.mark.parametrize("theta", [1, 2, 3])
def test_edge_addition_sensitivity_bounds(theta):
    graphs = _graphs(theta)
    f_mi = lambda h: Projector(_cg(h), rule="rank", seed=11).f(theta, "MI")
    f_p = lambda h: Projector(_cg(h), rule="rank", seed=11).f(theta, "P")
    s_mi = brute_force_sensitivity(f_mi, graphs, graph_node_neighbours)
    s_p = brute_force_sensitivity(f_p, graphs, graph_node_neighbours)
    assert s_mi <= theta                 # Lemma 1 for I_MI
    assert s_p <= theta + 1              # corrected Lemma 1 for I_P (the paper claims θ)
    assert brute_force_sensitivity(lambda h: M.i_mi(_cg(h)), graphs, graph_node_neighbours) > theta or theta >= 3


def test_ip_counter_example_reaches_theta_plus_one():
    g = nx.Graph(); g.add_node(0)
    f = lambda h: Projector(_cg(h), rule="lex").f(1, "P")
    assert brute_force_sensitivity(f, [g], graph_node_neighbours) == 2  # θ + 1 with θ = 1


def test_vertex_cover_and_quality_sensitivities():
    graphs = _graphs(7, count=30)
    cover = lambda h: M.i_r_2approx(_cg(h), rule="rank", seed=3)
    assert brute_force_sensitivity(cover, graphs, graph_node_neighbours) <= 2  # Prop. 3
    thetas = [1, 2, 3]

    def q(h, measure):
        proj = Projector(_cg(h), rule="rank", seed=3)
        F = {t: proj.f(t, measure) for t in thetas}
        return [quality(F, t, 3, 1.0) for t in thetas]

    s_mi = brute_force_sensitivity(lambda h: q(h, "MI"), graphs, graph_node_neighbours, norm="linf")
    s_p = brute_force_sensitivity(lambda h: q(h, "P"), graphs, graph_node_neighbours, norm="linf")
    assert s_mi <= 3 + 1e-9     # Lemma 2: θ_max
    assert s_p <= 3 + 3 + 1e-9  # corrected: θ_max + θ


def test_degree_bound_sensitivity_and_validity(rng):
    from dpworkbench.testing import tuple_neighbours

    fds = [FD("A", "B"), FD("B", "C")]
    rows = [tuple(int(x) for x in rng.integers(0, 3, 3)) for _ in range(6)]
    universe = [(a, b, c) for a in range(3) for b in range(3) for c in range(2)]
    frame = lambda rs: pd.DataFrame(list(rs), columns=["A", "B", "C"])
    f = lambda rs: np.array(degree_bound(frame(rs), fds)[1], dtype=float) if rs else np.zeros(2)
    assert brute_force_sensitivity(f, [rows], lambda rs: tuple_neighbours(rs, universe), norm="linf") <= 1
    g = build(frame(rows), fds)
    assert g.max_degree() <= degree_bound(frame(rows), fds)[0]  # Thm 3


# ----------------------------------------------------------------------------------- exact measures
def test_lp_relaxation_matches_highs_and_brackets_exact(rng):
    for _ in range(40):
        g = random_small_graph(int(rng.integers(2, 30)), float(rng.uniform(0.05, 0.5)), rng)
        cg = from_edges(g.number_of_nodes(), g.edges)
        lin = M.i_r_lin(cg)
        assert lin == pytest.approx(M.i_r_lin_lp(cg), abs=1e-6)
        ex = M.i_r_exact(cg, method="milp")
        if int(np.count_nonzero(cg.degrees())) <= M.ENUMERATE_MAX_NODES:
            assert M.i_r_exact(cg, method="enumerate") == ex == M.i_r_exact(cg)
        assert lin - 1e-9 <= ex <= 2 * lin + 1e-9
        assert ex <= M.i_r_2approx(cg) <= 2 * ex


def test_imc_and_guards():
    g = examples.fig2_graph()
    assert M.i_mc(g) == 2  # {centre}, {three leaves}
    assert M.i_mc(from_edges(3, [])) == 1
    assert M.max_maximal_independent_sets(6) == 9
    with pytest.raises(ValueError, match="#P-complete"):
        M.i_mc(from_edges(100, [(0, 1)]))
    big = from_edges(5000, [(i, i + 1) for i in range(4999)])
    with pytest.raises(ValueError, match="NP-hard"):
        M.i_r_exact(big, max_nodes=100)


def test_rank_order_is_stable_under_node_addition(rng):
    for _ in range(20):
        g = random_small_graph(8, 0.5, rng)
        cg = from_edges(8, g.edges)
        big = from_edges(9, list(g.edges) + [(8, int(x)) for x in rng.choice(8, 3, replace=False)])
        a = list(zip(*order_edges(cg.u, cg.v, rule="rank", seed=4, n=8)))
        b = [e for e in zip(*order_edges(big.u, big.v, rule="rank", seed=4, n=9)) if 8 not in e]
        assert a == b
