
import numpy as np
import pytest

from dpworkbench.dampening import SensitivityMatrix, check_admissible_bruteforce, dampen
from dpworkbench.dampening import median as md
from dpworkbench.mechanisms import exponential_logits, permute_and_flip_probabilities


def substitutions(x, lam):
    for i in range(len(x)):
        for v in range(lam + 1):
            if v != x[i]:
                y = np.array(x, float); y[i] = v
                yield y


def small_inputs(seed, count, nmax=6, lammax=5):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n, lam = int(rng.integers(3, nmax + 1)), int(rng.integers(2, lammax + 1))
        yield rng.integers(0, lam + 1, n).astype(float), lam


def test_corrected_ls0_exact_and_printed_overestimates():
    over = 0
    for x, lam in small_inputs(0, 300):
        bf = md.ls0_bruteforce(x, lam)
        np.testing.assert_allclose(md.ls0_elements(x, lam), bf)
        pr = md.ls0_elements(x, lam, printed=True)
        assert np.all(pr >= bf - 1e-12)
        over += np.any(pr > bf)
    assert over > 0


def test_thesis_candidates_underestimate_counterexample():
    x = np.array([0, 2, 3, 4, 6.0])
    assert md.ls_bruteforce(x, 1, 6)[2] == 3
    assert md.thesis_candidates_delta(x, 1, 6)[2] == 2      # under-estimates → not admissible
    assert md.element_delta(x, 1, 6, delta="box")[2] >= 3   # the box bound covers it


def test_thesis_candidates_fail_admissibility_box_passes():
    inputs = [x for x, lam in small_inputs(1, 40, nmax=5, lammax=4) if lam == 4] + [np.array([0, 1, 2, 3, 4.0])]
    nb = lambda x: substitutions(x, 4)  # noqa: E731
    ls0 = lambda x: md.ls0_bruteforce(x, 4)  # noqa: E731
    bad_box = check_admissible_bruteforce(inputs, nb, lambda x, t: md.element_delta(x, t, 4), ls0, t_max=2)
    assert bad_box == []
    bad_thesis = check_admissible_bruteforce(inputs + [np.array([0, 2, 3, 4, 4.0])], nb,
                                             lambda x, t: md.element_delta(x, t, 4, delta="thesis_candidates"), ls0, t_max=1)
    assert len(bad_thesis) > 0


def test_box_never_below_exact_ls():
    for x, lam in small_inputs(2, 40, nmax=5, lammax=4):
        for t in (1, 2):
            assert np.all(md.element_delta(x, t, lam) >= md.ls_bruteforce(x, t, lam) - 1e-12)


def _delta_matrix(x, lam, T=4):
    return SensitivityMatrix(np.clip(np.column_stack([md.element_delta(x, t, lam) for t in range(T)]), 0.5, lam), lam)


def _laws(x, lam, eps):
    u = md.median_utility(x, lam)
    dm = _delta_matrix(x, lam)
    out = {"EM": exponential_logits(u, epsilon=eps, sensitivity=lam), "LD": eps * dampen(u, dm) / 2,
           "SLD": eps * (u - np.sum(lam - dm.values, axis=1)) / (2 * lam)}
    out = {k: v - np.logaddexp.reduce(v) for k, v in out.items()}
    out["PF"] = np.log(permute_and_flip_probabilities(u, epsilon=eps, sensitivity=lam))
    return out


@pytest.mark.parametrize("eps", [0.5, 2.0])
def test_dp_ratio_all_neighbours(eps):
    worst = {}
    for x, lam in small_inputs(3, 12, nmax=5, lammax=4):
        lx = _laws(x, lam, eps)
        for y in substitutions(x, lam):
            ly = _laws(y, lam, eps)
            for k in lx:
                worst[k] = max(worst.get(k, 0), float(np.max(np.abs(lx[k] - ly[k]))))
    for k, w in worst.items():
        assert w <= eps * (1 + 1e-6), (k, w)


def test_grouped_matches_elementwise():
    rng = np.random.default_rng(4)
    x = rng.integers(0, 30, 200).astype(float)
    hist = np.bincount(x.astype(int), minlength=31)
    g = md.histogram_groups(hist)
    u = md.median_utility(x, 30)
    for eps in (0.3, 5.0):
        p = np.exp(exponential_logits(u, epsilon=eps, sensitivity=30) - np.logaddexp.reduce(exponential_logits(u, epsilon=eps, sensitivity=30)))
        assert np.isclose(p @ -u, md.expected_error(g, "EM", eps))
        dm = SensitivityMatrix(np.clip(np.column_stack([md.element_delta(x, t, 30) for t in range(32)]), 1.0, 30), 30)
        lg = eps * dampen(u, dm) / 2
        p = np.exp(lg - np.logaddexp.reduce(lg))
        assert np.isclose(p @ -u, md.expected_error(g, "LD", eps))


def test_pf_grouped_monte_carlo_close_to_exact():
    x = np.repeat(np.arange(11.0), 3)
    u = md.median_utility(x, 10)
    exact = permute_and_flip_probabilities(u, epsilon=2.0, sensitivity=10) @ -u
    mc = md.expected_error(md.histogram_groups(np.bincount(x.astype(int))), "PF", 2.0, runs=40000, rng=0)
    assert abs(mc - exact) < 0.05 * exact + 0.02


def test_errors():
    with pytest.raises(ValueError, match="empty"):
        md.histogram_groups(np.zeros(10))
    with pytest.raises(ValueError, match="empty"):
        md.median_utility([], 5)
    with pytest.raises(ValueError, match="delta must be"):
        md.element_delta([1, 2, 3], 1, 5, delta="nope")


def test_pf_grouped_exact_law_matches_ungrouped_and_montecarlo():
    from dpworkbench.dampening import median as Md
    from dpworkbench.mechanisms import permute_and_flip_probabilities

    rng = np.random.default_rng(3)
    for _ in range(10):
        G = int(rng.integers(2, 6)); mult = rng.integers(1, 5, G); u = -rng.integers(0, 10, G).astype(float); u[0] = 0
        eps = float(rng.uniform(0.1, 3))
        grouped = Md.pf_group_probabilities(eps * u / 2, mult)
        full = permute_and_flip_probabilities(np.repeat(u, mult), epsilon=eps, sensitivity=1.0)
        np.testing.assert_allclose(grouped, np.add.reduceat(full, np.r_[0, np.cumsum(mult)[:-1]]), atol=1e-10)
    hist = np.bincount(np.clip(rng.normal(300, 80, 200_000).astype(int), 0, 511), minlength=512)
    g = Md.histogram_groups(hist)
    for eps in (0.01, 1.0, 50.0):
        exact = Md.expected_error(g, "PF", eps)
        mc = Md.expected_error(g, "PF", eps, pf="montecarlo", runs=20_000, rng=0)
        assert abs(exact - mc) <= 0.03 * exact + 0.05, (eps, exact, mc)
        assert exact <= Md.expected_error(g, "EM", eps) * (1 + 1e-6)   # PF never worse than EM


def test_global_sensitivity_is_lambda_lemma_5_2_1():
    """Δu_med = Λ: the witness x = (0, …, 0, Λ) (move x_n to 0) attains it, and no tiny input exceeds it."""
    lam = 5
    assert md.ls0_bruteforce(np.array([0, 0, 0, lam], float), lam).max() == lam
    worst = max(md.ls0_bruteforce(x, l).max() / l for x, l in small_inputs(7, 60))
    assert worst <= 1.0 + 1e-12


def test_box_matrix_equals_the_sensitivity_function():
    """The one-sort fast path used by select_median gives the same δ matrix as the checkable SensitivityFunction."""
    rng = np.random.default_rng(3)
    for n in (1, 2, 5, 8, 31):
        for lam in (1.0, 6.0, 100.0):
            x = rng.integers(0, int(lam) + 1, n).astype(float)
            for T in (1, 3, 32):
                ref = md.median_sensitivity(lam).with_floor(min(1.0, lam)).with_horizon(T).matrix(x).values
                np.testing.assert_array_equal(md.box_matrix(x, lam, T, min(1.0, lam)).values, ref)
