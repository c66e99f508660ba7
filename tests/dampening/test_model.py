"""dampening.model: D (Def. 3.3.1), LD/SLD log-weights, the thesis' worked examples, and sensitivity functions as
checkable objects."""

import networkx as nx
import numpy as np
import pytest

from dpworkbench.dampening import SensitivityFunction, local_dampening, shifted_local_dampening
from dpworkbench.dampening import ebc as E
from dpworkbench.dampening import worked_examples as ex
from dpworkbench.dampening import id3
from dpworkbench.dampening import median as md

from dpworkbench.dampening import (SensitivityMatrix, bound_delta, dampen, ld_logits, sld_logits,
                                   sld_logits_explicit_shift, is_monotone)
from dpworkbench.dampening.worked_examples import fig9c_element_ls, fig9c_utilities
from dpworkbench.mechanisms import exponential_logits


def probs(logits):
    p = np.exp(logits - logits.max())
    return p / p.sum()


def test_example_3_4_1_ld_flat_ls():
    u = fig9c_utilities()
    d = SensitivityMatrix(np.tile([3.0, 5.0], (8, 1)), 7.5)
    np.testing.assert_allclose(dampen(u, d), [1.7, 1.7, 0, 0, 0, 0, 0, 0])
    p = probs(ld_logits(u, d, epsilon=2))
    np.testing.assert_allclose(p[:2], 0.323, atol=5e-4)
    np.testing.assert_allclose(p[2:], 0.059, atol=5e-4)


def test_example_3_6_1_em():
    p = probs(exponential_logits(fig9c_utilities(), epsilon=2, sensitivity=7.5))
    np.testing.assert_allclose(p[:2], 0.221, atol=5e-4)
    np.testing.assert_allclose(p[2:], 0.093, atol=5e-4)


def test_example_4_2_1_recomputed():
    d = SensitivityMatrix(fig9c_element_ls(), 7.5)
    D = dampen(fig9c_utilities() - 7, d)
    np.testing.assert_allclose(D, [-1 / 6, -1 / 6, -2.5, -2.5, -3.25, -3.25, -2.5, -2.5])
    p = probs(2 * D / 2)
    np.testing.assert_allclose(p[:2], 0.403, atol=5e-4)
    np.testing.assert_allclose(p[4], 0.0185, atol=5e-4)


@pytest.mark.parametrize("direction", ["non-decreasing", "non-increasing"])
def test_sld_closed_form_equals_explicit_shift(direction):
    rng = np.random.default_rng(1)
    for _ in range(100):
        R, T, gs = rng.integers(2, 8), rng.integers(1, 6), rng.uniform(1, 10)
        u = rng.uniform(-20, 20, R)
        d = SensitivityMatrix(rng.uniform(0.1, 1, (R, T)) * gs, gs)
        a = sld_logits(u, d, epsilon=1.3, direction=direction)
        b = sld_logits_explicit_shift(u, d, epsilon=1.3, direction=direction)
        np.testing.assert_allclose(probs(a), probs(b), rtol=1e-9, atol=1e-12)


def test_flat_sld_is_em():
    u = np.array([3.0, 1.0, -2.0])
    d = SensitivityMatrix(np.tile([1.0, 2.0, 3.0], (3, 1)), 4.0)
    np.testing.assert_allclose(probs(sld_logits(u, d, epsilon=1)), probs(exponential_logits(u, epsilon=1, sensitivity=4)))


def test_explicit_shift_refuses_beyond_2_53():
    d = SensitivityMatrix(np.full((2, 3), 1e16), 1e16)
    with pytest.raises(ValueError, match="2\\^53"):
        sld_logits_explicit_shift(np.array([0.0, 1.0]), d, epsilon=1)


def test_dampen_is_odd_increasing_and_matches_loop():
    rng = np.random.default_rng(2)
    d = SensitivityMatrix(rng.uniform(0.5, 2, (1, 5)), 2.0)
    us = np.linspace(-30, 30, 301)
    D = dampen(us, d)
    assert np.all(np.diff(D) > 0)
    np.testing.assert_allclose(dampen(-us, d), -D)
    for u in us[::17]:  # the loop of spec §1.10
        a, cum, s = abs(u), 0.0, np.sign(u)
        for t in range(5):
            dd = d.values[0, t]
            if a < cum + dd:
                ref = s * (t + (a - cum) / dd); break
            cum += dd
        else:
            ref = s * (5 + (a - cum) / 2.0)
        assert np.isclose(dampen([u], d)[0], ref)


def test_validation():
    with pytest.raises(ValueError, match="> 0"):
        SensitivityMatrix(np.zeros((1, 2)), 1.0)
    with pytest.raises(ValueError, match="global_sensitivity"):
        SensitivityMatrix(np.full((1, 2), 3.0), 1.0)
    with pytest.raises(ValueError, match="floor"):
        bound_delta([1.0], 1.0, floor=2.0)
    np.testing.assert_allclose(bound_delta([0.0, 5.0], 2.0, floor=0.5), [0.5, 2.0])
    assert is_monotone([1, 2, 3], [[1], [2], [3]]) == "non-decreasing"
    assert is_monotone([1, 2, 3], [[1], [1], [1]]) == "flat"


def test_example_4_1_1_inversion():
    """Thesis Ex. 4.1.1: u(r1)=3 with δ(·,0,r1)=1, δ(·,1,r1)=2; u(r2)=4 with δ(·,0,r2)=4 ⇒ D(r1)=2 > D(r2)=1 (inversion),
    and shifted LD (non-decreasing) restores the utility order."""
    u = np.array([3.0, 4.0])
    d = SensitivityMatrix(np.array([[1.0, 2.0, 4.0], [4.0, 4.0, 4.0]]), 4.0)
    np.testing.assert_allclose(dampen(u, d), [2.0, 1.0])
    p_ld = probs(ld_logits(u, d, epsilon=1.0))
    assert p_ld[0] > p_ld[1]                                  # LD prefers the worse element
    p_sld = probs(sld_logits(u, d, epsilon=1.0))
    assert p_sld[1] > p_sld[0]                                # SLD does not (δ non-decreasing in u here)
    assert is_monotone(u, d.values) == "non-decreasing"        # lower u, smaller δ: the case SLD (Def. 4.2.1) is for


# ================================================================== sensitivity functions (was test_dampening_sensitivity.py)
# Sensitivity functions as checkable objects: brute-force admissibility (both conditions of Def. 3.2.1) for every δ the
# package uses, boundedness, monotonicity, and the helpers (min(δ, Δu), floor, public horizon). The thesis' median Candidates
# and the ID3 Candidates with the `a < τ` guard are shown to FAIL admissibility (they are kept only as labelled options).





# ------------------------------------------------------------------ median (substitution neighbours, values 0..Λ)
def _subs(lam):
    def nb(x):
        for i in range(len(x)):
            for v in range(lam + 1):
                if v != x[i]:
                    y = np.array(x, float); y[i] = v
                    yield y
    return nb


def _median_inputs(seed, count, lam=4, nmax=5):
    rng = np.random.default_rng(seed)
    return [rng.integers(0, lam + 1, int(rng.integers(3, nmax + 1))).astype(float) for _ in range(count)]


def test_median_box_admissible_and_bounded():
    lam = 4
    sf = md.median_sensitivity(lam)
    inputs = _median_inputs(0, 30) + [np.array([0, 1, 2, 3, 4.0]), np.array([0, 0, 4, 4.0])]
    assert sf.check_admissible(inputs, _subs(lam), lambda x: md.ls0_bruteforce(x, lam), t_max=3) == []
    sf.assert_admissible(inputs[:5], _subs(lam), lambda x: md.ls0_bruteforce(x, lam), t_max=2)   # does not raise
    assert sf.check_bounded(inputs, lambda x: len(x)) == []        # Def. 3.2.2: δ = Λ for t ≥ n
    assert not sf.privacy_unverified


def test_median_thesis_candidates_fail_admissibility():
    """Documents the thesis bug (spec §0.4, §3.4): Alg. 2 under-estimates LS(x,1,r), so condition 2 fails."""
    lam = 6
    sf = md.median_sensitivity(lam, delta="thesis_candidates")
    assert sf.privacy_unverified
    x = np.array([0, 2, 3, 4, 6.0])                       # the spec's minimal counterexample
    bad = sf.check_admissible([x], _subs(lam), lambda x: md.ls0_bruteforce(x, lam), t_max=1)
    assert bad and all(b["condition"] == 2 for b in bad)
    with pytest.raises(ValueError, match="not admissible.*condition 2 fails"):
        sf.assert_admissible([x], _subs(lam), lambda x: md.ls0_bruteforce(x, lam), t_max=1)
    # the LD / SLD releases refuse the flagged function's matrix
    m = sf.with_floor(1.0).with_horizon(3).matrix(x)
    for f in (local_dampening, shifted_local_dampening):
        with pytest.raises(ValueError, match="admissible"):
            f(md.median_utility(x, lam), m, epsilon=1.0, rng=0)


# ------------------------------------------------------------------ EBC (edge toggles, public degree bound)
def test_delta_ebc_object_admissible_bounded_monotone():
    rng = np.random.default_rng(3)
    graphs = [nx.gnp_random_graph(7, float(rng.uniform(0.2, 0.7)), seed=int(rng.integers(1 << 30))) for _ in range(15)]
    graphs.append(ex.fig9c_graph())
    bound = 7
    sf = E.ebc_sensitivity(bound)

    def ls0(G):
        e = ex.ebc_nx(G)
        return np.max([np.abs(ex.ebc_nx(H) - e) for H in ex.toggles(G)], axis=0)

    assert sf.check_admissible(graphs, lambda G: list(ex.toggles(G)), ls0, t_max=3) == []
    assert sf.check_bounded(graphs, bound) == []                                  # saturates at t = Δ
    assert sf.with_horizon(bound).check_bounded(graphs, bound) == []
    # δ^EBC grows with the degree: non-decreasing in u when EBC orders nodes like degree
    star = nx.star_graph(4)                                                        # hub EBC 6, leaves 0
    assert sf.monotonicity(star, ex.ebc_nx(star)) == "non-decreasing"
    with pytest.raises(ValueError, match="max_degree_bound"):
        E.ebc_sensitivity(2)(star, 0)


# ------------------------------------------------------------------ ID3 (add/remove one tuple)
def _addremove(c):
    for j in range(c.shape[0]):
        for k in range(c.shape[1]):
            y = c.copy(); y[j, k] += 1
            yield y
            if c[j, k] > 0:
                y = c.copy(); y[j, k] -= 1
                yield y


def _tables(seed=0, count=40):
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 4, (2, 2)) for _ in range(count)] + [np.array([[3, 0], [0, 0]]), np.array([[2, 0], [0, 0]])]


def test_ig_profile_admissible_and_thesis_guard_fails():
    ls0 = lambda c: [id3.ls_ig_bruteforce(c, 0)]  # noqa: E731
    good = id3.ig_sensitivity(20, horizon=8)                    # the O(1) profile the tree builder uses
    assert good.check_admissible(_tables(), lambda c: list(_addremove(c)), ls0, t_max=3) == []
    guarded = id3.ig_sensitivity(20, horizon=8, candidates="thesis_guard")
    assert guarded.privacy_unverified
    bad = guarded.check_admissible(_tables(), lambda c: list(_addremove(c)), ls0, t_max=3)
    assert len(bad) > 0 and {b["condition"] for b in bad} == {2}
    with pytest.raises(ValueError, match="not admissible"):
        guarded.assert_admissible(_tables(), lambda c: list(_addremove(c)), ls0, t_max=3)


def test_ig_sensitivity_object_is_what_the_tree_builder_uses():
    rng = np.random.default_rng(5)
    cnts = [rng.integers(0, 300, (int(rng.integers(2, 5)), 2)) for _ in range(6)]
    gs = id3.delta_ig_global(5000)
    via_object = id3.ig_sensitivity(5000, horizon=64).matrix(cnts).values
    np.testing.assert_allclose(via_object, id3.ig_delta_matrix(cnts, gs, 64).values, rtol=0, atol=0)


# ------------------------------------------------------------------ helpers
def test_helpers_cap_floor_horizon_and_validation():
    sf = SensitivityFunction(lambda x, t: np.array([0.0, 2.0 + t, 50.0]), 10.0, name="toy")
    np.testing.assert_allclose(sf(None, 0), [0.0, 2.0, 10.0])              # min(δ, Δu) always applied
    fl = sf.with_floor(0.5)
    np.testing.assert_allclose(fl(None, 0), [0.5, 2.0, 10.0])
    h = fl.with_horizon(3)
    np.testing.assert_allclose(h(None, 2), [0.5, 4.0, 10.0])
    np.testing.assert_allclose(h(None, 3), [10.0, 10.0, 10.0])             # Δu from the public horizon on
    m = h.matrix(None)
    assert m.horizon == 3 and m.values.shape == (3, 3)
    assert sf.check_bounded([None], 2) != []                               # not bounded without a horizon
    assert h.check_bounded([None], 3) == []
    with pytest.raises(ValueError, match="horizon"):
        fl.matrix(None)
    with pytest.raises(ValueError, match="floor"):
        sf.with_horizon(3).matrix(None)
    with pytest.raises(ValueError, match="floor must be in"):
        sf.with_floor(11.0)
    with pytest.raises(ValueError, match="horizon"):
        sf.with_horizon(0)
    with pytest.raises(ValueError, match="t must be"):
        sf(None, -1)


def test_monotonicity_definitions_including_ties():
    sf = SensitivityFunction(lambda x, t: np.array(x) + t, 100.0)
    assert sf.monotonicity([1.0, 2.0, 3.0], [3.0, 2.0, 1.0]) == "non-increasing"
    assert sf.monotonicity([1.0, 2.0, 3.0], [1.0, 2.0, 3.0]) == "non-decreasing"
    assert sf.monotonicity([2.0, 2.0, 2.0], [5.0, 1.0, 3.0]) == "flat"
    # equal utilities with different δ violate every monotonicity (u(r) ≥ u(r') both ways forces δ(r) = δ(r'))
    assert sf.monotonicity([1.0, 2.0, 3.0], [1.0, 1.0, 3.0]) == "none"
