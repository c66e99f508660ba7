"""Finding 7: the auditor had no power against rare exact leaks. A mechanism that returns its exact input
0.5 % of the time (true ε = ∞) passed ``audit_mechanism`` at ε = 1 with 200,000 samples: quantile bins diluted
the atom. Repeated pilot values and narrow intervals around reference points are now tested events."""

from __future__ import annotations

import numpy as np

from dpworkbench.testing import audit_mechanism


def _leaky(x, rng, n):
    out = x + rng.laplace(0.0, 1.0, n)
    leak = rng.random(n) < 0.005
    out[leak] = x
    return out


def _laplace(x, rng, n):
    return x + rng.laplace(0.0, 1.0, n)


def test_finding7_rare_exact_leak_is_flagged_within_budget():
    res = audit_mechanism(_leaky, 0.0, 1.0, 1.0, n_samples=20_000, vectorized=True, seed=3)
    assert res.flagged, str(res)


def test_finding7_leak_flagged_by_reference_points_without_atoms():
    res = audit_mechanism(_leaky, 0.0, 1.0, 1.0, n_samples=20_000, vectorized=True, seed=4, max_atoms=0,
                          reference_points=[0.0, 1.0])
    assert res.flagged, str(res)


def test_finding7_correct_laplace_not_flagged():
    for seed in range(3):
        res = audit_mechanism(_laplace, 0.0, 1.0, 1.0, n_samples=20_000, vectorized=True, seed=seed,
                              reference_points=[0.0, 1.0])
        assert not res.flagged, str(res)
        assert np.isfinite(res.epsilon_hat)
