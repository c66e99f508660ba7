"""Aggregated counting for Q2- (dpworkbench/r2t/aggregate.py): the reduced LP built from per-node counts equals the
one built from the enumerated paths array by array (so HiGHS sees the same LP), over many random small graphs and
every τ of the grid, and seeded R2T outputs are exactly equal (==)."""

import numpy as np
import pytest

from dpworkbench.graphs import from_edge_array, holme_kim
from dpworkbench.r2t import Truncation, r2t
from dpworkbench.r2t.aggregate import Path2Info, Path2Truncation, reduce_path2
from dpworkbench.r2t.mechanisms.common import tau_grid
from dpworkbench.r2t.patterns import graph_joininfo
from dpworkbench.r2t.reduce import reduce_lp


def _graphs():
    """Random small graphs of several shapes: sparse and dense G(n, p) with isolated edges and nodes (inactive
    tuples), heavy-tailed Holme–Kim, and a star with a triangle (merged triples)."""
    rng = np.random.default_rng(2024)
    out = []
    for k in range(24):
        n = int(rng.integers(5, 40))
        p = float(rng.choice([0.05, 0.15, 0.4]))
        iu = np.triu_indices(n, 1)
        keep = rng.random(iu[0].size) < p
        e = np.stack([iu[0][keep], iu[1][keep]], axis=1)
        if e.size:
            out.append(from_edge_array(e, n=n + 3))  # three extra isolated nodes
    out += [holme_kim(60, 3, 0.6, seed=s) for s in range(4)]
    out.append(from_edge_array(np.array([[0, 1], [0, 2], [0, 3], [0, 4], [1, 2], [5, 6]]), n=7))
    return out


def test_counts_equal_the_enumerated_join_information():
    for g in _graphs():
        info, pi = graph_joininfo(g, "path2"), Path2Info(g)
        assert (pi.n, pi.m, pi.answer, pi.DS) == (info.n, info.m, info.answer, info.DS)
        assert np.array_equal(pi.S, info.S)


@pytest.mark.parametrize("split", [False, True])
def test_reduced_lp_equals_the_enumerated_reduction_array_by_array(split):
    for g in _graphs():
        info, pi = graph_joininfo(g, "path2"), Path2Info(g)
        taus = sorted(set(tau_grid(max(2.0, 2 * info.DS), 2.0).tolist()) | {0.5, 1.0, 3.0, 5.0})
        for tau in taus:
            a, b = reduce_lp(info, tau, split=split), reduce_path2(pi, tau, split=split)
            assert a.fixed == b.fixed and a.closed == b.closed and len(a.blocks) == len(b.blocks), tau
            for (wa, Aa), (wb, Ab) in zip(a.blocks, b.blocks):
                assert np.array_equal(wa, wb)
                assert np.array_equal(Aa.indptr, Ab.indptr) and np.array_equal(Aa.indices, Ab.indices)
                assert np.array_equal(Aa.data, Ab.data)
            if not split:
                assert (a.heavy_ids is None and b.heavy_ids is None) or np.array_equal(a.heavy_ids, b.heavy_ids)


def test_bounds_are_the_enumerated_bounds():
    for g in _graphs()[:10]:
        info = graph_joininfo(g, "path2")
        tr, agg = Truncation(info), Path2Truncation(g)
        for tau in (1.0, 2.0, 4.0, 8.0, 32.0):
            (la, ua), (lb, ub) = tr.bounds(tau), agg.bounds(tau)
            assert ua == ub and lb == pytest.approx(la, rel=1e-12, abs=1e-12)


def _check_seeded_equal(graphs, seeds):
    for g in graphs:
        info = graph_joininfo(g, "path2")
        gs = 32.0 ** 2
        for seed in seeds:
            for prune in (False, True):
                a = r2t(Truncation(info), epsilon=0.8, gs=gs, rng=seed, prune=prune)
                b = r2t(Path2Truncation(g), epsilon=0.8, gs=gs, rng=seed, prune=prune)
                assert a.value == b.value and a.winner_tau == b.winner_tau
        # every τ exactly (what the release path solves): the same floats
        taus = tau_grid(gs, 2.0)
        assert np.array_equal([Truncation(info).value(t) for t in taus], [Path2Truncation(g).value(t) for t in taus])


def test_seeded_r2t_outputs_are_exactly_equal():
    _check_seeded_equal([holme_kim(90, 3, 0.6, seed=0), _graphs()[-1]], range(2))


@pytest.mark.slow
def test_seeded_r2t_outputs_are_exactly_equal_on_more_graphs():
    _check_seeded_equal([holme_kim(90, 3, 0.6, seed=s) for s in range(1, 3)] + _graphs()[:-1:4], range(3))


def test_column_guard_refuses_only_reduced_lps_over_it():
    """max_cols bounds the reduced LP a τ would build (the research drivers' memory guard): over it SolverError (OT),
    under it the same value as without the guard."""
    from dpworkbench.r2t.aggregate import reduced_columns
    from dpworkbench.r2t.model import SolverError

    g = holme_kim(80, 3, 0.6, seed=7)
    free = Path2Truncation(g)
    taus = [float(t) for t in tau_grid(float(free.info.DS) * 2)]
    cols = {t: reduced_columns(free.info, t) for t in taus}
    limit = sorted(set(cols.values()))[len(set(cols.values())) // 2]  # some τ's over it, some under
    guarded = Path2Truncation(g, max_cols=limit)
    over = [t for t in taus if cols[t] > limit and t < free.info.DS]
    assert over and any(cols[t] <= limit for t in taus)
    for t in taus:
        if t in over:
            with pytest.raises(SolverError, match="column limit"):
                guarded.value(t)
        else:
            assert guarded.value(t) == free.value(t)


def test_graph_instance_counts_path2_per_node_over_max_m():
    """Over max_m, graph_instance truncates Q2- from per-node counts (not OT as before): same answer, DS and Q(I, τ) as
    the enumerated instance; R2T and LP run under the driver's size cap; OPT² and RM (they need the join results) are
    OT; a timed run builds a fresh solver of the same kind."""
    from dpworkbench.r2t import experiments

    enum = experiments.graph_instance("amazon2", "path2", n=300, seed=0)
    m = enum.info.m
    agg = experiments.graph_instance("amazon2", "path2", n=300, seed=0, max_m=m - 1)
    assert agg.aggregated and not enum.aggregated and agg.oversize == 0 and agg.key != enum.key
    assert (agg.answer, agg.ds) == (enum.answer, enum.ds)
    assert agg.trunc.max_cols == m - 1  # its reduced LPs are capped by the same limit
    free = experiments.graph_instance("amazon2", "path2", n=300, seed=0, aggregate=True)
    assert free.aggregated and free.trunc.max_cols is None
    for t in tau_grid(free.gs)[:12]:
        assert free.trunc.value(float(t)) == enum.trunc.value(float(t))
    # the other queries keep the old rule (counted only, OT)
    assert experiments.graph_instance("amazon2", "edge", n=300, seed=0, max_m=1).oversize > 0
    limits = {"max_m": m - 1}  # the driver's join-result cap is not applied to an aggregated instance
    gen = np.random.default_rng(0)
    assert np.isfinite(experiments._run_one(free, "R2T", 0.8, 0.1, gen, limits))
    assert np.isfinite(experiments._run_one(free, "LP", 0.8, 0.1, gen, limits))
    for mech in ("OPT2", "RM"):
        with pytest.raises(experiments.OutOfTime, match="join results"):
            experiments._run_one(agg, mech, 0.8, 0.1, gen, {"max_m": 10**9, "opt2_max_m": 10**9, "rm_max_m": 10**9})
    assert experiments.timed_full_run(free, "R2T", 0.8, 0.1, np.random.default_rng(1), limits) > 0
