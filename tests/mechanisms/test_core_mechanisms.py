"""Distributions, bad inputs and edge cases of the shared DP primitives."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dpworkbench import mechanisms as M
from dpworkbench.accounting import Accountant


# ---------------------------------------------------------------- distributions
def test_laplace_moments_and_tail(rng):
    eps, sens = 0.5, 2.0
    b = sens / eps
    x = M.laplace_mechanism(np.zeros(200_000), epsilon=eps, sensitivity=sens, rng=rng)
    assert abs(x.mean()) < 5 * b * math.sqrt(2 / x.size)
    assert x.var() == pytest.approx(2 * b * b, rel=0.03)
    # tail: P(|Z| > t) = exp(-t/b)
    for t in (b, 3 * b):
        assert np.mean(np.abs(x) > t) == pytest.approx(math.exp(-t / b), rel=0.08)
    assert stats.kstest(x, stats.laplace(scale=b).cdf).pvalue > 1e-3


def test_laplace_scalar_and_vector_shapes(rng):
    assert isinstance(M.laplace_mechanism(3.0, epsilon=1, sensitivity=1, rng=rng), float)
    assert M.laplace_mechanism(np.ones((3, 4)), epsilon=1, sensitivity=1, rng=rng).shape == (3, 4)


def test_geometric_law(rng):
    eps = 0.7
    z = M.geometric_mechanism(np.zeros(200_000, dtype=int), epsilon=eps, sensitivity=1, rng=rng)
    assert z.dtype.kind == "i"
    alpha = math.exp(-eps)
    for k in (0, 1, -2, 4):
        expected = (1 - alpha) / (1 + alpha) * alpha ** abs(k)
        assert np.mean(z == k) == pytest.approx(expected, rel=0.05)
    assert z.var() == pytest.approx(2 * alpha / (1 - alpha) ** 2, rel=0.04)


def test_exponential_mechanism_matches_softmax(rng):
    u = np.array([0.0, 1.0, 2.0, 5.0])
    p = M.exponential_probabilities(u, epsilon=1.0, sensitivity=1.0)
    draws = np.array([M.exponential_mechanism(u, epsilon=1.0, sensitivity=1.0, rng=rng) for _ in range(20_000)])
    counts = np.bincount(draws, minlength=u.size)
    assert stats.chisquare(counts, p * draws.size).pvalue > 1e-3
    assert np.allclose(p, np.exp(u / 2) / np.exp(u / 2).sum())


def test_exponential_mechanism_large_candidate_set_uses_same_law(rng):
    # n >= 4096 goes through the numba exponential-jump kernel; compare the law of groups.
    n = 5000
    u = np.repeat([0.0, 2.0, 4.0, 6.0, 8.0], n // 5)
    p = M.exponential_probabilities(u, epsilon=1.0, sensitivity=1.0)
    group_p = p.reshape(5, -1).sum(axis=1)
    draws = np.array([M.exponential_mechanism(u, epsilon=1.0, sensitivity=1.0, rng=rng) for _ in range(6000)])
    counts = np.bincount(draws // (n // 5), minlength=5)
    assert stats.chisquare(counts, group_p * draws.size).pvalue > 1e-3


def test_exponential_mechanism_utilities_spanning_1e9(rng):
    # A naive exp(ε u / 2Δ) overflows/underflows here; Gumbel-max in log-space does not.
    u = np.array([-1e9, 0.0, 1e9 - 1.0, 1e9])
    p = M.exponential_probabilities(u, epsilon=1.0, sensitivity=1.0)
    assert np.all(np.isfinite(p)) and p.sum() == pytest.approx(1.0)
    assert p[3] / p[2] == pytest.approx(math.exp(0.5), rel=1e-9)
    draws = np.array([M.exponential_mechanism(u, epsilon=1.0, sensitivity=1.0, rng=rng) for _ in range(6000)])
    # never a deterministic fallback: both top candidates appear in their exact proportions
    frac = np.mean(draws == 3)
    assert frac == pytest.approx(p[3], abs=0.03)
    assert set(np.unique(draws)) == {2, 3}
    # tiny utilities differences at a huge offset: still uniform-ish, not argmax
    v = 1e9 + np.arange(3) * 1e-3
    d = [M.exponential_mechanism(v, epsilon=1.0, sensitivity=1.0, rng=rng) for _ in range(3000)]
    assert len(set(d)) == 3


def test_exponential_top_k_accounting_and_law(rng):
    acc = Accountant(1.0)
    u = np.arange(10.0)
    out = M.exponential_top_k(u, 3, epsilon=1.0, sensitivity=1.0, rng=rng, accountant=acc)
    assert len(set(out.tolist())) == 3
    assert acc.spent == pytest.approx(1.0)
    # first pick follows the EM law with ε/k
    p1 = M.exponential_probabilities(u, epsilon=1.0 / 3, sensitivity=1.0)
    firsts = np.array([M.exponential_top_k(u, 3, epsilon=1.0, sensitivity=1.0, rng=rng)[0] for _ in range(20_000)])
    assert stats.chisquare(np.bincount(firsts, minlength=10), p1 * firsts.size).pvalue > 1e-3


def test_permute_and_flip_matches_exact_law(rng):
    u = np.array([0.0, 1.0, 3.0, 3.5])
    p = M.permute_and_flip_probabilities(u, epsilon=2.0, sensitivity=1.0)
    draws = np.array([M.permute_and_flip(u, epsilon=2.0, sensitivity=1.0, rng=rng) for _ in range(20_000)])
    assert stats.chisquare(np.bincount(draws, minlength=4), p * draws.size).pvalue > 1e-3
    # PF is never worse than EM in expected utility (McKenna & Sheldon)
    pe = M.exponential_probabilities(u, epsilon=2.0, sensitivity=1.0)
    assert p @ u >= pe @ u - 1e-12


def test_report_noisy_max_prefers_best(rng):
    u = np.array([0.0, 0.0, 10.0])
    draws = [M.report_noisy_max(u, epsilon=2.0, sensitivity=1.0, rng=rng) for _ in range(2000)]
    assert np.mean(np.array(draws) == 2) > 0.9


def test_above_threshold_scales_and_index(rng):
    # with huge ε the first query above the threshold is found exactly (0-based)
    idx = M.above_threshold([1, 2, 3, 50, 60], 10.0, epsilon=1e6, rng=rng)
    assert idx == 3
    assert M.above_threshold([1, 2, 3], 10.0, epsilon=1e6, rng=rng) is None
    # lazily evaluated callable
    assert M.above_threshold(lambda i: 10.0 * i, 25.0, epsilon=1e6, max_queries=10, rng=rng) == 3


def test_above_threshold_noise_scales():
    # Recording back-end: threshold noise scale 2Δ/ε, query noise scale 4Δ/ε (R2T Alg. 1)
    class Recorder(M.NumpyBackend):
        def __init__(self):
            super().__init__(0)
            self.scales = []

        def add_laplace(self, value, scale):
            self.scales.append(scale)
            return value

    rec = Recorder()
    M.above_threshold([0, 0, 5], 1.0, epsilon=0.5, sensitivity=2.0, rng=rec)
    assert rec.scales[0] == pytest.approx(8.0)
    assert rec.scales[1:] == [pytest.approx(16.0)] * 3


def test_randomized_response_keep_rate_and_unbiased_estimate(rng):
    dom = ["a", "b", "c", "d"]
    truth = rng.choice(dom, size=100_000, p=[0.5, 0.3, 0.15, 0.05])
    eps = 1.0
    q = M.randomized_response_keep_probability(eps, 4)
    out = M.randomized_response(truth, dom, epsilon=eps, rng=rng)
    assert np.mean(out == truth) == pytest.approx(q, abs=0.01)
    est = M.rr_frequency_estimate(out, dom, keep_probability=q) / truth.size
    assert np.allclose(est, [0.5, 0.3, 0.15, 0.05], atol=0.02)
    # naive frequencies are biased toward uniform
    naive = np.array([np.mean(out == v) for v in dom])
    assert naive[0] < 0.47


def test_grr_epsilon_formula_and_inverse():
    assert M.grr_epsilon(0.5, 3) == pytest.approx(math.log(3 / 0.5 - 2))  # PrivateClean's N=3 case
    for n in (2, 5, 50):
        for eps in (0.1, 1.0, 3.0):
            assert M.grr_epsilon(M.grr_p_for_epsilon(eps, n), n) == pytest.approx(eps)


def test_grr_replacement_rate(rng):
    dom = list(range(5))
    x = np.zeros(50_000, dtype=int)
    out = M.generalized_randomized_response(x, dom, p=0.4, rng=rng)
    assert np.mean(out == 0) == pytest.approx(0.6 + 0.4 / 5, abs=0.01)


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("eps", [0, -1, float("nan"), float("inf"), "x", None])
def test_bad_epsilon_names_argument(eps):
    with pytest.raises(ValueError, match="epsilon"):
        M.laplace_mechanism(1.0, epsilon=eps, sensitivity=1)
    with pytest.raises(ValueError, match="epsilon"):
        M.exponential_mechanism([1, 2], epsilon=eps, sensitivity=1)


@pytest.mark.parametrize("sens", [0, -2, float("nan")])
def test_bad_sensitivity(sens):
    with pytest.raises(ValueError, match="sensitivity"):
        M.laplace_mechanism(1.0, epsilon=1, sensitivity=sens)
    with pytest.raises(ValueError, match="sensitivity"):
        M.permute_and_flip([1, 2], epsilon=1, sensitivity=sens)


def test_empty_candidates_and_nan_utilities():
    for fn in (M.exponential_mechanism, M.permute_and_flip, M.report_noisy_max):
        with pytest.raises(ValueError, match="utilities"):
            fn([], epsilon=1, sensitivity=1)
        with pytest.raises(ValueError, match="utilities"):
            fn([1.0, float("nan")], epsilon=1, sensitivity=1)
    with pytest.raises(ValueError, match="value"):
        M.laplace_mechanism([1.0, float("nan")], epsilon=1, sensitivity=1)
    with pytest.raises(ValueError, match="empty"):
        M.laplace_mechanism([], epsilon=1, sensitivity=1)


def test_bad_rr_inputs():
    with pytest.raises(ValueError, match="domain"):
        M.randomized_response(["a"], ["a"], epsilon=1)
    with pytest.raises(ValueError, match="not in the declared domain"):
        M.randomized_response(["z"], ["a", "b"], epsilon=1)
    with pytest.raises(ValueError, match="p"):
        M.generalized_randomized_response(["a"], ["a", "b"], p=1.5)
    with pytest.raises(ValueError, match="k"):
        M.exponential_top_k([1, 2, 3], 5, epsilon=1, sensitivity=1)
    with pytest.raises(ValueError, match="rng"):
        M.laplace_mechanism(1.0, epsilon=1, sensitivity=1, rng="seed")


def test_spend_recorded_before_sampling_and_refused():
    acc = Accountant(1.0)
    M.laplace_mechanism(0.0, epsilon=0.6, sensitivity=1, rng=0, accountant=acc)
    with pytest.raises(ValueError, match="exceed"):
        M.exponential_mechanism([1, 2], epsilon=0.6, sensitivity=1, rng=0, accountant=acc)
    assert acc.spent == pytest.approx(0.6)
    assert len(acc.ledger()) == 1


def test_seeded_runs_reproduce():
    a = M.laplace_mechanism(np.zeros(5), epsilon=1, sensitivity=1, rng=42)
    b = M.laplace_mechanism(np.zeros(5), epsilon=1, sensitivity=1, rng=42)
    assert np.array_equal(a, b)
