"""The mechanism teaching notebooks' claims pass on the right values and differ on the wrong ones."""

import pandas as pd
import pytest

from dpworkbench.experiments import Claims
from dpworkbench.teaching import claims as teaching_claims


def _verdicts(c):
    return [r.verdict for r in c.rows]


def test_laplace_composition():
    c = Claims()
    teaching_claims.laplace_composition(c, measured_mean_error=10.5, n_queries=10, sensitivity=1, total_epsilon=1, refused=True)
    teaching_claims.laplace_composition(c, measured_mean_error=5.0, n_queries=10, sensitivity=1, total_epsilon=1, refused=False)
    assert _verdicts(c) == ["pass", "pass", "differs", "differs"]


def test_randomized_response():
    import math

    c = Claims()
    teaching_claims.randomized_response(c, worst_z=1.2, naive_max_bias=-0.1, epsilon_exact=math.log(151))
    teaching_claims.randomized_response(c, worst_z=4.0, naive_max_bias=0.01, epsilon_exact=math.log(10))
    assert _verdicts(c) == ["pass"] * 3 + ["differs"] * 3


def test_selection_and_sparse_vector():
    loss = pd.DataFrame({"mechanism": ["exponential", "permute-and-flip"] * 2, "epsilon": [1, 1, 2, 2],
                         "expected_loss": [1.0, 0.8, 0.5, 0.4]})
    c = Claims()
    teaching_claims.selection(c, expected_loss=loss, flagged=0)
    teaching_claims.selection(c, expected_loss=loss.assign(expected_loss=[1.0, 1.2, 0.5, 0.4]), flagged=1)
    assert _verdicts(c) == ["pass", "pass", "differs", "differs"]
    c = Claims()
    errs = pd.Series([3.0, 1.0], index=[0.25, 16.0])
    teaching_claims.sparse_vector(c, errors_by_epsilon=errs, spent=1.0, epsilon=1.0, budget=10.0, n_queries=30)
    teaching_claims.sparse_vector(c, errors_by_epsilon=pd.Series([1.0, 3.0], index=[0.25, 16.0]), spent=30.0, epsilon=1.0, budget=10.0, n_queries=30)
    assert _verdicts(c) == ["pass", "pass", "differs", "differs"]
    with pytest.raises(ValueError, match="must exceed"):
        teaching_claims.sparse_vector(Claims(), errors_by_epsilon=errs, spent=1.0, epsilon=1.0, budget=1.0, n_queries=30)
