"""SDE's distance LP (baselines.sde_lp_blocks / sde_distance_solution / sde_projection): the exact reduction to the heavy
nodes (degree > θ; x = 0 at the light ones, their edges folded into the budget rows) and the split by connected
components give the optimum of the whole LP, built here independently (scipy's linprog on every node and edge), and an
x that extends to an optimal solution of the whole LP."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog

from dpworkbench.graphs import erdos_renyi, from_edge_array, holme_kim, thinned_grid
from dpworkbench.r2t.mechanisms import baselines as B
from dpworkbench.r2t.model import SolverError

THETAS = (1, 2, 3, 4, 5, 8, 16)


def _full_lp(g, theta: float) -> float:
    """The LP of spec 3.4 on all of G: min Σ x s.t. Σ_{e∋v} w_e ≤ θ (every v), w_e + x_u + x_v ≥ 1, 0 ≤ x, w ≤ 1."""
    e = g.edge_array().astype(np.int64)
    n, m = g.n, len(e)
    inc = sp.coo_matrix((np.ones(2 * m), (e.T.ravel(), np.tile(np.arange(m), 2))), shape=(n, m))
    budget = sp.hstack([sp.coo_matrix((n, n)), inc])
    cover = -sp.hstack([inc.T, sp.identity(m)])
    res = linprog(np.r_[np.ones(n), np.zeros(m)], A_ub=sp.vstack([budget, cover]).tocsc(),
                  b_ub=np.r_[np.full(n, float(theta)), -np.ones(m)], bounds=(0, 1), method="highs")
    assert res.status == 0
    return res.fun


def _graphs():
    star = from_edge_array(np.array([[0, i] for i in range(1, 8)]), n=8)  # optimum 1 − θ/7: not half-integral
    two_stars = from_edge_array(np.array([[0, i] for i in range(1, 6)] + [[6, i] for i in range(7, 13)] + [[5, 7]]), n=14)
    out = [star, two_stars]
    for seed in range(4):
        out += [erdos_renyi(50, 0.12, seed=seed), erdos_renyi(40, 0.25, seed=seed), holme_kim(120, 3, 0.5, seed=seed), thinned_grid(10, 10, seed=seed),
                from_edge_array(np.vstack([erdos_renyi(30, 0.2, seed=seed).edge_array(),  # two components
                                           holme_kim(40, 2, 0.3, seed=seed).edge_array() + 30]), n=70)]
    return out


@pytest.mark.parametrize("big", [1, 10**9])  # every component its own LP / all components in one LP
def test_reduced_split_lp_equals_the_whole_lp_and_its_x_extends(monkeypatch, big):
    monkeypatch.setattr(B, "SDE_BIG_COMPONENT", big)
    for g in _graphs():
        e = g.edge_array()
        for theta in THETAS + (int(g.degrees.max()),):
            want = _full_lp(g, theta)
            opt, x = B.sde_distance_solution(g, theta)
            assert opt == pytest.approx(want, abs=1e-9)
            # x extends to a feasible solution of the whole LP at the same objective: w_e = max(0, 1 − x_u − x_v)
            # is the least w covering each edge, so the budgets must hold for it
            assert x.shape == (g.n,) and x.min() >= -1e-12 and x.max() <= 1 + 1e-12
            assert x.sum() == pytest.approx(want, abs=1e-9)
            w = np.clip(1 - x[e[:, 0]] - x[e[:, 1]], 0, 1)
            load = np.bincount(e.ravel(), weights=np.repeat(w, 2), minlength=g.n)
            assert load.max(initial=0) <= theta + 1e-9
            assert np.array_equal(B.sde_projection(g, theta)[1], np.flatnonzero(x < 0.25))


def test_blocks_hold_the_heavy_nodes_their_edges_and_light_neighbour_counts(monkeypatch):
    monkeypatch.setattr(B, "SDE_BIG_COMPONENT", 40)
    g = from_edge_array(np.vstack([holme_kim(80, 3, 0.5, seed=1).edge_array(), erdos_renyi(40, 0.15, seed=2).edge_array() + 80]),
                        n=120)
    for theta in (2, 4, 6):
        heavy = g.degrees > theta
        e = g.edge_array()
        want = {tuple(r) for r in e[heavy[e[:, 0]] & heavy[e[:, 1]]]}
        blocks = B.sde_lp_blocks(g, theta)
        got = [tuple(sorted(nodes[r])) for nodes, le, _ in blocks for r in le]
        assert len(got) == len(set(got)) and set(got) == want
        all_nodes = np.concatenate([nodes for nodes, _, _ in blocks])
        assert np.array_equal(np.sort(all_nodes), np.flatnonzero(heavy))  # each heavy node in one block
        k = {int(v): int(c) for nodes, _, kv in blocks for v, c in zip(nodes, kv)}
        assert k == {int(v): int((~heavy[g.neighbours(v)]).sum()) for v in np.flatnonzero(heavy)}
        assert len(blocks) >= 2 and sum(k.values()) > 0


def test_at_or_above_the_max_degree_the_lp_is_zero_without_solving(monkeypatch):
    g = holme_kim(200, 3, 0.5, seed=0)
    monkeypatch.setattr(B, "_distance_lp", lambda *a: pytest.fail("solved an empty LP"))
    for theta in (int(g.degrees.max()), 10**6):
        opt, keep = B.sde_projection(g, theta)
        assert opt == 0 and np.array_equal(keep, np.arange(g.n))


def test_time_limit_over_all_blocks_raises_solver_error():
    with pytest.raises(SolverError, match="SDE distance LP"):
        B.sde_projection(holme_kim(300, 3, 0.5, seed=0), 2, time_limit=0)
