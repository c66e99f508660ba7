"""The non-private model: truncation sensitivity by brute force over all neighbours of small random instances
(spec 2.2, 2.9, 5.5), LP/flow agreement, bounds and solver checks."""

import networkx as nx
import numpy as np
import pytest

from dpworkbench.graphs import from_networkx
from dpworkbench.r2t import FHat, Truncation, from_lists, naive_value
from dpworkbench.r2t.patterns import QUERIES, graph_joininfo
from dpworkbench.testing import brute_force_sensitivity, graph_node_neighbours, random_small_graph

from dpworkbench.graphs import holme_kim
from dpworkbench.r2t import opt2


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

@pytest.fixture(scope="module")
def social():
    return graph_joininfo(holme_kim(400, 3, 0.5, seed=1), "edge")


def test_flow_equals_lp(social):
    lp, fl = Truncation(social, "lp", shortcut=False), Truncation(social, "flow", shortcut=False)
    for tau in (1, 2, 4, 8, 16, 0.25):
        assert fl.value(tau) == pytest.approx(lp.value(tau), abs=1e-6)
    bip = from_lists(np.ones(30), [[i % 5, 5 + (i * 7) % 6] for i in range(30)], n=11)
    bip.tags = np.array(["s"] * 5 + ["c"] * 6, dtype=object)
    for tau in (1, 2, 3):
        assert Truncation(bip, "flow").value(tau) == pytest.approx(Truncation(bip, "lp").value(tau), abs=1e-7)

def test_bounds_bracket_the_lp(social):
    lp = Truncation(social, "lp", shortcut=False)
    for tau in (1, 2, 4, 8, 16, 32):
        lb, ub = lp.bounds(tau)
        v = lp.value(tau)
        assert lb - 1e-7 <= v <= ub + 1e-7

def test_non_optimal_solver_status_is_refused():
    from dpworkbench.r2t import SolverError
    info = graph_joininfo(holme_kim(1500, 4, 0.5, seed=4), "triangle")
    with pytest.raises(SolverError, match="not optimal"):
        Truncation(info, "lp", shortcut=False, time_limit=1e-9).value(2)
    with pytest.raises(SolverError):
        FHat(info, shortcut=False, time_limit=1e-9).value(2)

def test_flow_refuses_sum_weights():
    """Integer capacities only: rounding SUM weights would silently change Q(I, τ); 'auto' picks the LP instead."""
    info = from_lists([1.5, 2.25, 0.5], [[0, 1], [1, 2], [0, 2]], n=3)
    with pytest.raises(ValueError, match="integer weights"):
        Truncation(info, "flow")
    assert Truncation(info).method == "lp"
    assert Truncation(info).value(1.0) == pytest.approx(1.5, abs=1e-9)  # LP optimum: u = 1/2 on each edge of the triangle

def test_push_relabel_equals_scipy_max_flow():
    """The numba push-relabel engine of the flow truncation against SciPy's max-flow on random networks."""
    import scipy.sparse as sp
    from scipy.sparse.csgraph import maximum_flow
    from dpworkbench.r2t.model import maxflow_value, network_from_arcs

    rng = np.random.default_rng(11)
    for trial in range(800):  # includes parallel arcs, arcs into s and out of t
        size = int(rng.integers(2, 25 if trial < 600 else 200))
        m = int(rng.integers(1, 70 if trial < 600 else 1500))
        src, dst, cap = rng.integers(0, size, m), rng.integers(0, size, m), rng.integers(0, 7, m)
        keep = src != dst
        src, dst, cap = src[keep], dst[keep], cap[keep]
        if not src.size:
            continue
        g = sp.csr_matrix((cap.astype(np.int32), (src, dst)), shape=(size, size))
        g.sum_duplicates()
        want = maximum_flow(g, 0, size - 1).flow_value
        net = network_from_arcs(size, src, dst, 0, size - 1)
        assert maxflow_value(net, cap) == want
        assert maxflow_value(net, cap) == want  # capacities are copied: the network is reusable across τ
    with pytest.raises(ValueError):
        maxflow_value(network_from_arcs(3, [0, 1], [1, 2], 0, 2), [1])

def test_flow_engine_reuses_its_network_across_tau(social):
    fl = Truncation(social, "flow", shortcut=False)
    lp = Truncation(social, "lp", shortcut=False)
    vals = [fl.value(t) for t in (2, 4, 8, 0.5)]
    net = fl._fg
    assert net is not None and [fl.value(t) for t in (3,)] and fl._fg is net
    np.testing.assert_allclose(vals, [lp.value(t) for t in (2, 4, 8, 0.5)], atol=1e-6)

def test_warm_started_lp_equals_cold_lp():
    """One HiGHS model re-solved across τ (only the row bounds change) gives the same optimum as a fresh model per τ."""
    info = graph_joininfo(holme_kim(200, 4, 0.5, seed=21), "triangle")
    warm = Truncation(info, "lp", shortcut=False, reduce=False)
    cold = Truncation(info, "lp", shortcut=False, warm_start=False, reduce=False)
    for tau in (64, 8, 2, 16, 1, 32):
        assert warm.value(tau) == pytest.approx(cold.value(tau), rel=1e-9, abs=1e-6)
    assert warm._h is not None


def test_pass_rowwise_gives_highs_exactly_the_lp():
    """The pointer overload of passModel: HiGHS holds the arrays it was given (row-wise matrix, bounds, costs, sense),
    all columns continuous, and solves it as an LP."""
    import highspy
    import scipy.sparse as sp
    from dpworkbench.r2t.model import highs_model, pass_rowwise, solve_optimal

    rng = np.random.default_rng(5)
    A = sp.random(7, 12, density=0.4, random_state=3, format="csr", dtype=float)
    A.data = np.round(A.data * 4) + 1
    cost, lo, hi = rng.integers(1, 4, 12).astype(float), np.zeros(12), rng.integers(1, 3, 12).astype(float)
    rlo, rhi = np.full(7, -np.inf), rng.integers(2, 6, 7).astype(float)
    h = highs_model()
    pass_rowwise(h, cost, lo, hi, rlo, rhi, A)
    lp = h.getLp()
    assert (lp.num_col_, lp.num_row_, lp.sense_) == (12, 7, highspy.ObjSense.kMaximize)
    for got, want in ((lp.col_cost_, cost), (lp.col_lower_, lo), (lp.col_upper_, hi), (lp.row_lower_, rlo), (lp.row_upper_, rhi)):
        np.testing.assert_array_equal(np.asarray(got), want)
    m = lp.a_matrix_
    got = sp.csr_matrix((np.asarray(m.value_), np.asarray(m.index_), np.asarray(m.start_)), shape=(7, 12)) \
        if m.format_ == highspy.MatrixFormat.kRowwise else \
        sp.csc_matrix((np.asarray(m.value_), np.asarray(m.index_), np.asarray(m.start_)), shape=(7, 12))
    assert (got != A).nnz == 0
    assert all(t == highspy.HighsVarType.kContinuous for t in lp.integrality_)
    v = solve_optimal(h, "test LP")
    x = np.asarray(h.getSolution().col_value)
    assert v == pytest.approx(cost @ x) and np.all(A @ x <= rhi + 1e-9) and np.all((x >= -1e-9) & (x <= hi + 1e-9))
    assert h.getInfo().mip_node_count in (-1, 0)  # solved as an LP, not a MIP


@pytest.mark.parametrize("early_stop", [False, True])
def test_reduced_lp_arrays_are_freed_before_highs_solves_them(monkeypatch, early_stop):
    """HiGHS holds its own copy of a reduced LP once passed: the truncation keeps no reference to the block's arrays
    while HiGHS solves it (on the paper profile's whole graphs a reduced LP has tens of millions of columns, held twice
    otherwise), on both paths (``value`` and the early stop's ``value_or_stop``)."""
    import gc
    import weakref

    from dpworkbench.r2t import model

    info = graph_joininfo(holme_kim(300, 4, 0.5, seed=9), "path2")
    trunc = Truncation(info, "lp")
    taus = [t for t in (2.0, 4.0, 8.0, 16.0) if t < info.DS]
    refs: list[weakref.ref] = []
    reduced, solve = trunc._reduced, model.solve_optimal

    def reduced_spy(tau, *, split):
        red = reduced(tau, split=split)
        refs[:] = [weakref.ref(x) for blk in red.blocks for x in blk]
        return red

    checked = []

    def solve_spy(h, what):
        gc.collect()
        checked.append((len(refs), [r for r in refs if r() is not None]))
        return solve(h, what)

    monkeypatch.setattr(trunc, "_reduced", reduced_spy)
    monkeypatch.setattr(model, "solve_optimal", solve_spy)
    for tau in taus:
        trunc.value_or_stop(tau, target=-1.0) if early_stop else trunc.value(tau)  # target −1: never stops early
    assert len(checked) >= len(taus) and all(n > 0 and alive == [] for n, alive in checked)
    fresh = Truncation(info, "lp")
    assert [trunc.value(t) for t in taus] == [fresh.value(t) for t in taus]
