"""The one module of errors: each zero-truth rule of the relative error, a vector truth, the (output, truth) order."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpworkbench import experiments
from dpworkbench.experiments import metrics as M


def test_one_relative_error_for_the_package():
    # the package exports the metrics' function: no second relative error with another argument order
    assert experiments.relative_error is M.relative_error is M.METRICS["relative_error"]
    assert not hasattr(experiments.summary, "relative_error")


def test_argument_order_is_output_then_truth():
    # swapping output and truth changes the denominator: 2/10 against 2/12
    assert M.relative_error(12.0, 10.0, zero_truth="nan") == pytest.approx(0.2)
    assert M.relative_error(10.0, 12.0, zero_truth="nan") == pytest.approx(2 / 12)
    assert M.absolute_error(12.0, 10.0) == M.absolute_error(10.0, 12.0) == 2.0
    assert M.signed_error(12.0, 10.0) == 2.0


@pytest.mark.parametrize("rule", M.ZERO_TRUTH_RULES)
def test_rules_agree_away_from_zero(rule):
    out = np.array([0.0, 7.5, -3.0, 12.0])
    assert M.relative_error(out, -10.0, zero_truth=rule) == pytest.approx(np.abs(out + 10.0) / 10.0)
    assert isinstance(M.relative_error(7.5, 10.0, zero_truth=rule), float)


def test_floor_rule_measures_small_truths_against_the_floor():
    assert M.relative_error(3.0, 0.0) == 3.0  # default rule: |3 − 0| / max(0, 1)
    assert M.relative_error(3.0, 0.5) == pytest.approx(2.5)  # a truth below the floor too
    assert M.relative_error(3.0, 0.5, floor=0.25) == pytest.approx(5.0)
    assert M.relative_error(np.array([0.0, 2.0]), 0.0).tolist() == [0.0, 2.0]


def test_nan_rule_leaves_a_zero_truth_undefined():
    assert np.isnan(M.relative_error(np.array([0.0, 2.0]), 0.0, zero_truth="nan")).all()  # even an exact 0
    assert math.isnan(M.relative_error(0.0, 0.0, zero_truth="nan"))
    assert M.relative_error(4.0, 2.0, zero_truth="nan") == 1.0


def test_inf_rule_is_zero_only_for_an_exact_zero_output():
    r = M.relative_error(np.array([0.0, -0.0, 1e-12, -2.0]), 0.0, zero_truth="inf")
    assert r.tolist() == [0.0, 0.0, math.inf, math.inf]
    assert M.relative_error(0.0, 0.0, zero_truth="inf") == 0.0
    assert M.relative_error(5.0, 0.0, zero_truth="inf") == math.inf


def test_vector_truth_is_measured_in_l1():
    truth = np.array([3.0, -1.0])
    out = np.array([[3.0, -1.0], [4.0, 1.0], [0.0, 0.0]])  # three repetitions of a 2-vector
    for rule in M.ZERO_TRUTH_RULES:
        assert M.relative_error(out, truth, zero_truth=rule).tolist() == [0.0, 0.75, 1.0]
    zero = np.zeros(2)
    assert M.relative_error(out[:2], zero).tolist() == [4.0, 5.0]  # floor 1
    assert np.isnan(M.relative_error(out[:2], zero, zero_truth="nan")).all()
    assert M.relative_error(np.zeros((2, 2)), zero, zero_truth="inf").tolist() == [0.0, 0.0]
    assert M.relative_error(out[1:2], zero, zero_truth="inf").tolist() == [math.inf]


def test_unknown_rule_is_one_line():
    with pytest.raises(ValueError, match="zero_truth must be"):
        M.relative_error(1.0, 0.0, zero_truth="zero")


@pytest.mark.parametrize("rule", M.ZERO_TRUTH_RULES)
def test_relative_error_is_the_absolute_error_over_the_truth(rule):
    # one rule for both: relative_error is relative_to_truth of the absolute error, bit for bit, zero truths included
    rng = np.random.default_rng(3)
    for truth in (0.0, -2.5, 7.0, np.array([0.0, 0.0]), np.array([2.0, -1.0])):
        out = rng.normal(0, 3, (5,) + np.shape(truth))
        out[0] = truth
        np.testing.assert_array_equal(M.relative_error(out, truth, zero_truth=rule),
                                      M.relative_to_truth(M.absolute_error(out, truth), truth, zero_truth=rule))


def test_a_summarised_error_over_the_truth_keeps_the_zero_truth_rule():
    errs = M.absolute_error(np.array([9.0, 12.0, 10.5]), 10.0)
    # the mean error over the truth, in percent (R2T's relative error %): the summary is divided, not summarised ratios
    assert M.relative_to_truth(100 * errs.mean(), 10.0, zero_truth="nan") == 100 * errs.mean() / 10.0 == pytest.approx(35 / 3)
    assert math.isnan(M.relative_to_truth(4.0, 0.0, zero_truth="nan"))
    assert math.isnan(M.relative_to_truth(4.0, math.nan, zero_truth="nan"))  # an uncomputable truth stays undefined
    assert M.relative_to_truth(4.0, 0.0, zero_truth="inf") == math.inf
    assert M.relative_to_truth(0.0, 0.0, zero_truth="inf") == 0.0
    assert M.relative_to_truth(4.0, 0.5) == 4.0  # the floor
    assert M.relative_to_truth(np.array([3.0, 6.0]), np.array([1.0, -2.0])).tolist() == [1.0, 2.0]  # ‖truth‖₁
    with pytest.raises(ValueError, match="zero_truth must be"):
        M.relative_to_truth(1.0, 0.0, zero_truth="zero")
