"""Spec §2.12 vectors, brute-force node sensitivities, exact measures, privacy audits of Alg. 2 and Alg. 5."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from dpworkbench.inconsistency import FD, Projector, build, dp_vertex_cover, from_edges, graph_projection
from dpworkbench.inconsistency import examples
from dpworkbench.inconsistency import model as M
from dpworkbench.inconsistency.mechanisms import basic_em, noisy_degree_bound, optimized_em
from dpworkbench.inconsistency.model import degree_bound, edge_addition_reference, order_edges, paper_candidates, quality
from dpworkbench.testing import audit_mechanism, brute_force_sensitivity, graph_node_neighbours, random_small_graph


# ----------------------------------------------------------------------------------- §2.12 exact vectors
@pytest.mark.parametrize("rule", ["lex", "rank"])
def test_fig2_star_vectors(rule):
    g = examples.fig2_graph()
    proj = Projector(g, rule=rule, seed=5)
    assert [proj.f(t, "MI") for t in (1, 2, 3)] == [1, 2, 3]
    assert [proj.f(t, "P") for t in (1, 2, 3)] == [2, 3, 4]
    assert (M.i_mi(g), M.i_p(g), M.i_r_exact(g), M.i_r_2approx(g, rule=rule), g.max_degree()) == (3, 4, 1, 2, 3)
    assert M.i_d(g) == 1 and M.i_d(examples.fig2_graph(False)) == 0


def test_table3_table4_vectors():
    assert np.allclose(examples.table3()["quality"], [-3.4142, -3.8284, -4.2426], atol=1e-4)
    t4 = examples.table4()
    em = t4[t4.scheme == "EM (ε)"].probability.to_numpy()
    assert np.allclose(em, [0.3566, 0.3328, 0.3106], atol=1e-4)
    after3 = t4[(t4.scheme == "2-EM step 2 (ε/2)") & (t4.after == "θ3")].probability.to_numpy()
    assert np.allclose(after3, [0.5086, 0.4914], atol=1e-4)
    after2 = t4[(t4.scheme == "2-EM step 2 (ε/2)") & (t4.after == "θ2")]
    assert after2.theta.tolist() == [1] and after2.probability.iloc[0] == pytest.approx(1.0)


def test_example3_bound_and_example6_trace_and_fig10():
    assert degree_bound(examples.capital_country(), [FD("Capital", "Country")])[0] == 3
    tr = examples.example6_trace()
    assert list(zip(tr.c, tr["c'"])) == [(2, 2), (2, 2), (2, 2), (4, 4), (4, 4), (4, 6), (6, 6)]
    g, gp = examples.fig3_graphs()
    assert (M.i_r_exact(g), M.i_r_exact(gp)) == (3, 4)
    curve = examples.fig10_curve([0.001, 0.01, 0.05, 0.1, 0.2, math.exp(-math.sqrt(2))])
    assert np.allclose(curve.iloc[:, 1], [55.61, 41.80, 32.14, 27.98, 23.82, 22.65], atol=0.01)
    ex5 = examples.example5_orders()
    assert set(ex5[ex5.graph == "G"].cover_size) == {4, 6}


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


# ----------------------------------------------------------------------------------- Alg. 2 / 4 records and budgets
@pytest.mark.parametrize("strategy", ["baseline_V", "baseline_dmax", "em", "hier_em", "bound_hier"])
@pytest.mark.parametrize("measure", ["MI", "P"])
def test_records_and_budget_sum(strategy, measure):
    from dpworkbench.inconsistency.datasets import dcs_for, load_table
    from dpworkbench.inconsistency.noise_injection import rnoise

    ds = load_table("Hospital", rows=400, seed=0, prefer="synthetic")
    dcs = dcs_for("Hospital")
    *_, (_, df) = rnoise(ds.data, dcs, 0.02, rng=1, n_checkpoints=1)
    g = build(df, dcs)
    from dpworkbench.accounting import check_ledger_matches
    from dpworkbench.inconsistency.mechanisms import graph_projection_cost

    for n_bound in (None, len(df)):
        rec = graph_projection(g, measure, 1.0, strategy=strategy, df=df, dcs=dcs, rng=0, n_bound=n_bound)
        assert rec.epsilon == pytest.approx(1.0)
        assert sum(rec.eps_per_step().values()) == pytest.approx(1.0)
        check_ledger_matches(graph_projection_cost(1.0, strategy=strategy, dcs=dcs, n_bound=n_bound), rec.ledger)
        for key in ("theta_star", "true", "truncated", "output", "rel_error", "seconds"):
            assert key in rec.record()
        assert rec["truncated"] <= rec["true"] or measure == "P"
        if strategy == "bound_hier":
            mech = [e.mechanism for e in rec.ledger]
            assert mech == (["laplace"] if n_bound is None else []) + ["laplace", "exponential", "exponential", "laplace"]
            bound = rec.ledger[-4].epsilon
            assert bound == pytest.approx(0.1 * (1.0 if n_bound else 0.95))
            assert rec["d_bound_noisy"] is not None
        assert ("n_bound" in rec.details) == (n_bound is None)
    compat = graph_projection(g, measure, 1.0, strategy="em", rng=0, artifact_compat=True, n_bound=len(df))
    assert compat.epsilon == pytest.approx(1.4) and not compat["private"]
    check_ledger_matches(graph_projection_cost(1.0, strategy="em", n_bound=len(df), artifact_compat=True), compat.ledger)


def test_optimized_em_pruning_and_candidates():
    g = examples.fig2_graph()
    proj = Projector(g, rule="lex")
    rec = optimized_em(proj, [1, 2, 3], eps1=1.0, eps2=1.0, steps=2, use_bound=False, prune="le", rng=1)
    assert rec["theta"] <= rec["theta_1"]
    from dpworkbench.mechanisms import exponential_probabilities
    s1 = rec["steps"][0]
    assert np.allclose(s1["probabilities"], exponential_probabilities(s1["quality"], epsilon=s1["epsilon"], sensitivity=s1["sensitivity"]))
    assert paper_candidates(10000) == [1, 5, 10, 100, 500] + list(range(1000, 10000, 1000))
    nb = noisy_degree_bound(examples.capital_country(), [FD("Capital", "Country")], eps0=1e6, n=4, rng=0)
    assert nb["noisy"] == 3


def test_bad_input_raises():
    g = examples.fig2_graph()
    with pytest.raises(ValueError, match="measure"):
        graph_projection(g, "R", 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        graph_projection(g, "MI", 0)
    with pytest.raises(ValueError, match="strategy"):
        graph_projection(g, "MI", 1.0, strategy="nope")
    with pytest.raises(ValueError, match="thetas"):
        basic_em(Projector(g), [], eps1=1, eps2=1)


# ----------------------------------------------------------------------------------- privacy audits
_CACHE: dict = {}


def _alg2(df, rng):
    # the (deterministic) graph build and F(θ) memo are cached per database; the mechanism's randomness is not
    if id(df) not in _CACHE:
        g = build(df, [FD("Capital", "Country")])
        _CACHE[id(df)] = (g, Projector(g, rule="lex"))
    g, proj = _CACHE[id(df)]
    return graph_projection(g, "MI", 1.0, strategy="hier_em", thetas=[1, 2, 3], add_V="never", rng=rng,
                            projector=proj)["output_raw"]


def test_audit_algorithm2_on_neighbouring_databases():
    d, dp = examples.capital_country(False), examples.capital_country(True)
    res = audit_mechanism(_alg2, d, dp, 1.0, n_samples=4000, seed=1)
    assert not res.flagged, str(res)


def test_audit_algorithm5_and_the_printed_typo_is_flagged():
    g, gp = examples.fig2_graph(False), examples.fig2_graph(True)

    def alg5(graph, rng, n, noise="paper"):
        c = M.i_r_2approx(graph)
        if noise == "paper":
            return c + rng.laplace(0, 2.0 / 1.0, n)
        return c + rng.laplace(0, 1.0 / 2, n)  # the PDF's Lap(ε/2)

    ok = audit_mechanism(alg5, g, gp, 1.0, n_samples=40000, vectorized=True, seed=2)
    assert not ok.flagged, str(ok)
    bad = audit_mechanism(lambda x, r, n: alg5(x, r, n, "typo"), g, gp, 1.0, n_samples=40000, vectorized=True, seed=2)
    assert bad.flagged
    rec = dp_vertex_cover(gp, 1.0, rng=0, order="lex")
    assert rec["truncated"] == 2 and rec.epsilon == 1.0


def test_clip_modes_artifact_reorder_and_keep_per_dc():
    g = examples.fig2_graph()
    recs = {c: graph_projection(g, "P", 0.05, strategy="baseline_V", clip=c, rng=3) for c in ("range", "artifact", "none")}
    assert 0 <= recs["range"]["output"] <= 4
    assert recs["artifact"]["output"] == recs["none"]["output"] == recs["artifact"]["output_raw"]
    with pytest.raises(ValueError, match="clip"):
        graph_projection(g, "MI", 1.0, clip="bad")
    star = from_edges(6, [(0, i) for i in range(1, 6)])
    proj = Projector(star, rule="artifact_reorder", seed=1)
    assert proj.f(2, "MI") == 2 and proj.f(6, "MI") == 5 and proj.passes == 2  # no memo: fresh order per call
    df = examples.capital_country()
    lean = build(df, [FD("Capital", "Country")], keep_per_dc=False)
    assert lean.edge_set() == examples.fig2_graph().edge_set()


def test_rank_order_is_stable_under_node_addition(rng):
    for _ in range(20):
        g = random_small_graph(8, 0.5, rng)
        cg = from_edges(8, g.edges)
        big = from_edges(9, list(g.edges) + [(8, int(x)) for x in rng.choice(8, 3, replace=False)])
        a = list(zip(*order_edges(cg.u, cg.v, rule="rank", seed=4, n=8)))
        b = [e for e in zip(*order_edges(big.u, big.v, rule="rank", seed=4, n=9)) if 8 not in e]
        assert a == b


# ----------------------------------------------------------------------------------- audits of the package functions
_GRAPHS: dict = {}


def _graph_of(df, **kw):
    # the deterministic build is cached per database object; the mechanisms' randomness is not
    key = (id(df), tuple(sorted(kw.items())))
    if key not in _GRAPHS:
        g = build(df, [FD("Capital", "Country")], **kw)
        _GRAPHS[key] = (g, Projector(g, rule="lex"))
    return _GRAPHS[key]


def test_audit_dp_vertex_cover_itself_and_its_printed_typo():
    """Algorithm 5 as released by ``dp_vertex_cover`` on neighbouring databases (c = 0 vs 2)."""
    d, dp = examples.capital_country(False), examples.capital_country(True)
    mech = lambda df, rng: dp_vertex_cover(_graph_of(df)[0], 1.0, order="lex", rng=rng)["output_raw"]
    ok = audit_mechanism(mech, d, dp, 1.0, n_samples=20000, bins=20, seed=4)
    assert not ok.flagged, str(ok)
    typo = lambda df, rng: dp_vertex_cover(_graph_of(df)[0], 1.0, order="lex", noise="typo", rng=rng)["output_raw"]
    bad = audit_mechanism(typo, d, dp, 1.0, n_samples=20000, bins=20, seed=4)
    assert bad.flagged, str(bad)


def test_audit_full_algorithm4_with_the_noisy_degree_bound():
    """Algorithm 2 + full Algorithm 4 (noisy FD bound, two EM steps, Laplace) on neighbouring databases."""
    d, dp = examples.capital_country(False), examples.capital_country(True)

    def mech(df, rng):
        g, proj = _graph_of(df)
        return graph_projection(g, "MI", 1.0, strategy="bound_hier", df=df, dcs=g.dcs, thetas=[1, 2, 3], projector=proj,
                                rng=rng)["output_raw"]

    res = audit_mechanism(mech, d, dp, 1.0, n_samples=3000, bins=15, seed=5)
    assert not res.flagged, str(res)


def test_audit_ip_corrected_sensitivity_passes_and_the_papers_is_flagged():
    """Spec §2.7's counter-example as databases: one clean tuple vs the same plus a conflicting one.

    θ = 1: f_P(π_1) goes 0 → 2. With Laplace scale (θ+1)/ε₂ (default) the loss is ε₂ ≤ ε; with the paper's θ/ε₂
    it is 2ε₂ = 1.6ε here (ε₂ = 0.8ε), which the auditor detects."""
    d = pd.DataFrame([("Ottawa", "Canada")], columns=["Capital", "Country"])
    dp = pd.DataFrame([("Ottawa", "Canada"), ("Ottawa", "Canda")], columns=["Capital", "Country"])

    def mech(df, rng, mode):
        g, proj = _graph_of(df)
        return graph_projection(g, "P", 1.0, strategy="em", thetas=[1], eps1_frac=0.2, projector=proj,
                                ip_sensitivity=mode, clip="none", rng=rng)["output_raw"]

    ok = audit_mechanism(lambda x, r: mech(x, r, "safe"), d, dp, 1.0, n_samples=5000, bins=20, seed=6)
    assert not ok.flagged, str(ok)
    bad = audit_mechanism(lambda x, r: mech(x, r, "paper"), d, dp, 1.0, n_samples=5000, bins=20, seed=6)
    assert bad.flagged, str(bad)


def test_unary_violators_enter_every_release_with_the_same_sensitivity(rng):
    """|U| + f(π_θ(G[V∖U])) and |U| + c: brute force over appended/removed tuples (tids stay stable)."""
    from dpworkbench.inconsistency import parse_dc
    from dpworkbench.inconsistency.mechanisms import projected_value

    dcs = [parse_dc("not(t1.A<0)"), FD("A", "B")]
    universe = [(a, b) for a in (-1, 0, 1) for b in (0, 1)]
    frame = lambda rs: pd.DataFrame(list(rs), columns=["A", "B"]) if rs else pd.DataFrame({"A": [0], "B": [0]}).iloc[:0]

    def values(rs):
        g = build(frame(rs), dcs, unary_policy="separate")
        proj = Projector(g, rule="rank", seed=3)
        out = [projected_value(proj, t, m) for t in (1, 2) for m in ("MI", "P")]
        out.append(dp_vertex_cover(g, 1.0, order="rank", order_seed=3, rng=0)["truncated"] if g.n else 0)
        return np.array(out, dtype=float)

    neighbours = lambda rs: ([rs[:-1]] if rs else []) + [rs + [u] for u in universe]
    inputs = [[universe[int(i)] for i in rng.integers(0, len(universe), int(rng.integers(1, 7)))] for _ in range(12)]
    worst = np.zeros(5)
    for rs in inputs:
        base = values(rs)
        for nb in neighbours(rs):
            worst = np.maximum(worst, np.abs(values(nb) - base))
    assert worst[0] <= 1 and worst[2] <= 2          # I_MI: θ = 1, 2
    assert worst[1] <= 2 and worst[3] <= 3          # I_P: θ + 1
    assert worst[4] <= 2                            # Alg. 5
    df = pd.DataFrame({"A": [-1, 2, 2, -3], "B": [1, 1, 2, 5]})
    g = build(df, dcs, unary_policy="separate")
    assert (M.i_mi(g), M.i_p(g)) == (3, 4)
    big = 1e7
    assert graph_projection(g, "MI", big, df=df, dcs=dcs, rng=0)["output"] == pytest.approx(3, abs=1e-3)
    assert graph_projection(g, "P", big, df=df, dcs=dcs, rng=0)["output"] == pytest.approx(4, abs=1e-3)
    assert dp_vertex_cover(g, big, rng=0)["output"] == pytest.approx(4, abs=1e-3)


def test_release_backend_is_accepted():
    from dpworkbench.accounting import Accountant
    from dpworkbench.mechanisms import release_backend

    g, df = examples.fig2_graph(), examples.capital_country()
    acc = Accountant(2.0)
    rec = graph_projection(g, "MI", 1.0, df=df, dcs=g.dcs, rng=release_backend(), accountant=acc, n_bound=len(df))
    assert 0 <= rec["output"] <= 6 and acc.spent == pytest.approx(1.0)
    assert dp_vertex_cover(g, 1.0, rng=release_backend(), accountant=acc).epsilon == 1.0
    assert acc.spent == pytest.approx(2.0)


def test_example6_by_the_kernel_in_lexicographic_order():
    g, gp = examples.fig3_graphs()
    assert dp_vertex_cover(g, 1.0, order="lex", rng=0)["truncated"] == 6
    assert dp_vertex_cover(gp, 1.0, order="lex", rng=0)["truncated"] == 6
