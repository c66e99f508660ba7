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
