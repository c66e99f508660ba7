"""Everything that spends ε: Algorithms 2–5, θ selection, ledgers and audits."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpworkbench.accounting import check_ledger_matches
from dpworkbench.inconsistency import FD, Projector, build, dp_vertex_cover, dp_vertex_cover_cost, examples, from_edges, graph_projection, parse_dc
from dpworkbench.inconsistency import model as M
from dpworkbench.inconsistency.datasets import dcs_for, load_table
from dpworkbench.inconsistency.mechanisms import basic_em, noisy_degree_bound, optimized_em
from dpworkbench.inconsistency.model import paper_candidates
from dpworkbench.inconsistency.noise_injection import rnoise
from dpworkbench.testing import audit_mechanism


# ----------------------------------------------------------------------------------- Alg. 2 / 4 records and budgets
@pytest.mark.parametrize("strategy", ["baseline_V", "baseline_dmax", "em", "hier_em", "bound_hier"])
@pytest.mark.parametrize("measure", ["MI", "P"])
def test_records_and_budget_sum(strategy, measure):

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
        for key in ("theta_star", "true", "truncated", "output", "seconds"):
            assert key in rec.record()
        assert "rel_error" not in rec.record()  # the release computes no error: the experiments' run_record does
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
    # a public bound is a count: 2.5 is refused by the declaration, not truncated to 2 before it sees it
    with pytest.raises(ValueError, match=r"^n must be a finite int ≥ 1, got 2\.5$"):
        optimized_em(proj, [1, 2, 3], eps1=1.0, eps2=1.0, use_bound=False, rng=1, n_bound=2.5)
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

    from dpworkbench.inconsistency.mechanisms import VERTEX_COVER, VERTEX_COVER_TYPO

    def alg5(graph, rng, n, noise="paper"):  # n outputs through the declaration's own noise (the PDF's Lap(ε/2): typo)
        mech = VERTEX_COVER if noise == "paper" else VERTEX_COVER_TYPO
        return mech.sample({"cover": M.i_r_2approx(graph)}, size=n, rng=rng, epsilon=1.0)

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


# ----------------------------------------------------------------------------------- audits of the package functions
_GRAPHS: dict = {}


def _graph_of(df, **kw):
    # the deterministic build is cached per database object; the mechanisms' randomness is not. The cache holds
    # the frame itself: keyed by id() alone, a frame freed by an earlier test hands its id, and its stale graph,
    # to a new one (CI once audited the grey-row graph in place of a one-row table this way)
    key = (id(df), tuple(sorted(kw.items())))
    hit = _GRAPHS.get(key)
    if hit is None or hit[0] is not df:
        g = build(df, [FD("Capital", "Country")], **kw)
        hit = _GRAPHS[key] = (df, g, Projector(g, rule="lex"))
    return hit[1], hit[2]


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
    from dpworkbench.inconsistency.mechanisms import Statistics

    dcs = [parse_dc("not(t1.A<0)"), FD("A", "B")]
    universe = [(a, b) for a in (-1, 0, 1) for b in (0, 1)]
    frame = lambda rs: pd.DataFrame(list(rs), columns=["A", "B"]) if rs else pd.DataFrame({"A": [0], "B": [0]}).iloc[:0]

    def values(rs):
        g = build(frame(rs), dcs, unary_policy="separate")
        proj = Projector(g, rule="rank", seed=3)
        out = [Statistics(g, projector=proj).value(t, m) for t in (1, 2) for m in ("MI", "P")]
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


@pytest.mark.parametrize("noise", ["paper", "typo"])
def test_dp_vertex_cover_ledger_matches_its_plan(noise):
    g = build(pd.DataFrame({"A": [0] * 5, "B": range(5)}), [FD("A", "B")])
    rel = dp_vertex_cover(g, 0.7, rng=1, noise=noise)
    check_ledger_matches(dp_vertex_cover_cost(0.7), rel.ledger)
    assert rel.private == (noise == "paper")
    assert rel.value >= 0 and rel.public["n_bound"].startswith("none")
    assert dp_vertex_cover(g, 0.7, rng=1, n_bound=3).value <= 3
