"""The privacy auditor passes correct mechanisms at the stated ε and flags a broken one."""

from __future__ import annotations

import numpy as np
import pytest

from dpworkbench import mechanisms as M
from dpworkbench.testing import assert_private, audit_mechanism, brute_force_sensitivity, tuple_neighbours
from dpworkbench.testing.neighbours import graph_node_neighbours, random_small_graph

EPS = 1.0


def _laplace(scale_factor):
    def mech(x, rng, n):
        return x + rng.laplace(0.0, scale_factor / EPS, n)

    return mech


def test_flags_half_scale_laplace():
    res = audit_mechanism(_laplace(0.5), 0.0, 1.0, EPS, n_samples=100_000, vectorized=True, seed=1)
    assert res.flagged and res.epsilon_lower > EPS
    with pytest.raises(AssertionError, match="privacy violation"):
        assert_private(res)


def test_passes_laplace():
    def mech(x, rng):
        return M.laplace_mechanism(x, epsilon=EPS, sensitivity=1.0, rng=rng)

    res = audit_mechanism(lambda x, rng, n: M.laplace_mechanism(np.full(n, x), epsilon=EPS, sensitivity=1.0, rng=rng),
                          0.0, 1.0, EPS, n_samples=100_000, vectorized=True, seed=2)
    assert_private(res)
    assert res.epsilon_hat > 0.5 * EPS  # the audit has power: the loss is visible, close to ε


def test_passes_geometric():
    res = audit_mechanism(lambda x, rng, n: M.geometric_mechanism(np.full(n, x), epsilon=EPS, sensitivity=1, rng=rng),
                          10, 11, EPS, n_samples=100_000, vectorized=True, seed=3)
    assert_private(res)
    assert res.epsilon_hat > 0.5 * EPS


def test_passes_exponential_mechanism():
    u, u2 = np.array([0.0, 1.0, 2.0]), np.array([1.0, 0.0, 2.0])  # neighbouring utilities, Δ=1
    mech = lambda x, rng: M.exponential_mechanism(x, epsilon=EPS, sensitivity=1.0, rng=rng)
    res = audit_mechanism(mech, u, u2, EPS, n_samples=30_000, seed=4)
    assert_private(res)


def test_flags_exponential_mechanism_with_wrong_sensitivity():
    u, u2 = np.array([0.0, 3.0]), np.array([3.0, 0.0])  # these differ by 3 per candidate: Δ=3 needed
    mech = lambda x, rng: M.exponential_mechanism(x, epsilon=EPS, sensitivity=1.0, rng=rng)
    assert audit_mechanism(mech, u, u2, EPS, n_samples=30_000, seed=5).flagged


def test_passes_permute_and_flip():
    u, u2 = np.array([0.0, 1.0, 2.0]), np.array([1.0, 0.0, 1.0])
    mech = lambda x, rng: M.permute_and_flip(x, epsilon=EPS, sensitivity=1.0, rng=rng)
    assert_private(audit_mechanism(mech, u, u2, EPS, n_samples=30_000, seed=6))


def test_passes_randomized_response():
    dom = ["a", "b", "c"]
    mech = lambda x, rng, n: M.randomized_response([x] * n, dom, epsilon=EPS, rng=rng)
    res = audit_mechanism(mech, "a", "b", EPS, n_samples=60_000, vectorized=True, seed=7)
    assert_private(res)
    assert res.epsilon_hat > 0.8 * EPS  # RR is tight: loss e^ε exactly on the true value


def test_brute_force_sensitivity_of_count_and_sum(rng):
    rows = [rng.integers(0, 5, size=rng.integers(1, 5)).tolist() for _ in range(20)]
    universe = list(range(5))
    assert brute_force_sensitivity(len, rows, lambda r: tuple_neighbours(r, universe)) == 1
    assert brute_force_sensitivity(sum, rows, lambda r: tuple_neighbours(r, universe)) == 4


def test_brute_force_node_sensitivity_of_edge_count(rng):
    graphs = [random_small_graph(5, 0.5, rng) for _ in range(5)]
    s = brute_force_sensitivity(lambda g: g.number_of_edges(), graphs, graph_node_neighbours)
    # removing/adding one node changes the edge count by at most its degree (≤ n)
    assert 1 <= s <= 5
    assert s == max(max(dict(g.degree()).values(), default=0) for g in graphs) or s == 5


def test_brute_force_rejects_no_pairs():
    with pytest.raises(ValueError, match="no neighbour pairs"):
        brute_force_sensitivity(len, [[1]], lambda r: [])
