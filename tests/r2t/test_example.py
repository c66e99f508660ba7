"""The paper's worked example (Fig. 2; Examples 5.2, 6.3, 6.7; spec 1.5) as exact fixtures."""

import math

import numpy as np
import pytest

from dpworkbench.r2t import FHat, ScriptedNoise, Truncation, exp_opt2, f_exact, opt2, r2t, tau_grid
from dpworkbench.r2t import example as ex


@pytest.fixture(scope="module")
def info():
    return ex.fig2_joininfo()


def test_fixture_sizes(info):
    assert info.n_primary == 8103 and info.n == 8103
    assert info.answer == 9992 and info.DS == 32


@pytest.mark.parametrize("method", ["lp", "flow"])
def test_lp_truncation_values(info, method):
    tr = Truncation(info, method, shortcut=False)
    for tau, want in ex.Q_TAU.items():
        assert tr.value(tau) == pytest.approx(want, abs=1e-6)
    assert tr.value(64) == pytest.approx(9992, abs=1e-6)


def test_fhat_values(info):
    fh = FHat(info, shortcut=False)
    for tau, want in ex.FHAT_TAU.items():
        assert fh.value(tau) == pytest.approx(want, abs=1e-4)
    fh0 = FHat(info, shortcut=False, decompose=True)
    assert fh0.value(0) == pytest.approx(4492, abs=1e-6)  # spec's "my computation" at τ = 0


def test_exact_f_is_the_corrected_value_not_the_printed_one(info):
    for tau, want in ex.F_TAU_CORRECT.items():
        assert f_exact(info, tau) == want
        assert f_exact(info, tau) >= ex.F_TAU_PRINTED[tau]  # the printed values are too small (spec 6.1 #8)


def test_constants():
    K = tau_grid(2**10).size
    assert K == 10 and K * math.log(K / 0.1) == pytest.approx(46.0517, abs=1e-4)
    assert -9 * math.log(40) == pytest.approx(-33.1999, abs=1e-4)
    assert tau_grid(10**6).size == 20 and tau_grid(10**6)[-1] >= 10**6


def test_r2t_scripted_example_5_2(info):
    res = r2t(info, epsilon=1, beta=0.1, gs=2**10, rng=ScriptedNoise(alternate_from=-1.0), prune=False)
    assert round(res.value) == 9440 and res.winner_tau == 8
    np.testing.assert_allclose(res.candidates[:6], [7109.9, 9300, 9440, 9399, 8198, 7685], atol=1.0)
    pruned = r2t(info, epsilon=1, beta=0.1, gs=2**10, rng=ScriptedNoise(alternate_from=-1.0), prune=True)
    assert pruned.value == pytest.approx(res.value, abs=1e-6) and pruned.solved < res.solved


def test_opt2_scripted_example_6_7(info):
    for prune in (False, True):
        res = opt2(info, epsilon=1, beta=0.1, rng=ScriptedNoise(alternate_from=-1.0), prune=prune)
        assert res.tau == 8 and res.value == pytest.approx(9912, abs=1e-6)
        assert res.noisy_threshold == pytest.approx(-36.2, abs=0.01)
        assert res.g_values[3] + 6 == pytest.approx(0.25, abs=1e-4)


def test_exp_opt2_corrected_and_printed(info):
    corrected = exp_opt2(info, epsilon=1, beta=0.1, rng=ScriptedNoise(alternate_from=-1.0))  # exact F by ILP
    assert corrected.tau == 8 and corrected.value == pytest.approx(9912)
    assert [round(g + v) for g, v in zip(corrected.g_values.values(), corrected.noise)] == [-1105, -117, -5]
    printed = exp_opt2(info, epsilon=1, beta=0.1, rng=ScriptedNoise(alternate_from=-1.0),
                       f_values={float(k): v for k, v in ex.F_TAU_PRINTED.items()})
    assert printed.tau == 16 and printed.value == pytest.approx(10024)


def test_scripted_noise_refuses_what_it_cannot_script():
    from dpworkbench.r2t.mechanisms import ScriptedNoise

    noise = ScriptedNoise([0.5])
    assert noise.laplace(2.0) == pytest.approx(1.0)
    with pytest.raises(TypeError, match="only the Laplace draws"):
        noise.gumbel_argmax(np.zeros(3))
