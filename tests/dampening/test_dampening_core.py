import numpy as np
import pytest

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


def test_release_mechanisms_refuse_unverified_delta():
    from dpworkbench.accounting import Accountant, check_ledger_matches
    from dpworkbench.dampening import local_dampening, shifted_local_dampening
    from dpworkbench.dampening.mechanisms import privacy_cost_selection

    u = np.array([3.0, 1.0, 0.0])
    bad = SensitivityMatrix(np.ones((3, 2)), 4.0, name="thesis candidates", privacy_unverified=True)
    for f in (local_dampening, shifted_local_dampening):
        acc = Accountant(1.0)
        with pytest.raises(ValueError, match="admissible sensitivity function.*privacy_unverified"):
            f(u, bad, epsilon=1.0, rng=0, accountant=acc)
        assert acc.spent == 0                      # nothing spent on a refused release
        rel = f(u, bad, epsilon=1.0, rng=0, allow_unverified=True)   # explicit, labelled opt-in
        assert 0 <= rel.value < 3 and rel.private is False
        rel = f(u, SensitivityMatrix(np.ones((3, 2)), 4.0), epsilon=1.0, rng=0, accountant=acc)
        assert 0 <= rel.value < 3 and rel.private is True and rel.epsilon == 1.0
        check_ledger_matches(privacy_cost_selection(1.0), rel.ledger)
    with pytest.raises(ValueError, match="SensitivityMatrix"):
        local_dampening(u, np.ones((3, 2)), epsilon=1.0)


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
