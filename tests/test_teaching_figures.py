"""The shared core's teaching figures pass the reviewer's check (axis titles, legends, titles that fit)."""

from __future__ import annotations

import numpy as np
import pytest

from dpworkbench.plots import figure_problems
from dpworkbench.teaching import mechanisms as teaching

FIGURES = {
    "laplace": lambda: teaching.laplace_figure(100, 101, epsilon=1.0),
    "selection_probabilities": lambda: teaching.selection_probability_figure(np.arange(20.0), epsilon=1.0),
    "selection_accuracy": lambda: teaching.selection_figure(teaching.selection_accuracy(np.arange(20.0), [0.1, 1.0], repetitions=30)),
    "rr_bias": lambda: teaching.rr_bias_figure(500, 10, epsilon=1.0, skew=1.0, repetitions=2),
    "svt": lambda: teaching.svt_figure(np.linspace(0, 20, 30), 10.0, epsilon=1.0, repetitions=50),
}


@pytest.mark.parametrize("name", list(FIGURES))
def test_teaching_figure_has_no_reviewer_findings(name):
    assert figure_problems(FIGURES[name]()) == []
