"""``comparisons.ratio_verdict``: the 0.5–2× band of Table 1's R2T claims."""

from __future__ import annotations

import numpy as np
import pytest

from dpworkbench.comparisons import ratio_verdict


def test_band_is_inclusive_and_scaled_by_the_paper_value():
    assert ratio_verdict(2.0, 4.0) == "pass" and ratio_verdict(8.0, 4.0) == "pass"
    assert ratio_verdict(1.999, 4.0) == "differs" and ratio_verdict(8.001, 4.0) == "differs"
    assert ratio_verdict(0.3, 0.1, lo=0.9, hi=3.0) == "pass"
    assert ratio_verdict(0.3, 0.1, lo=0.9, hi=2.5) == "differs"


def test_agrees_with_the_ratio_on_random_values():
    rng = np.random.default_rng(7)
    for ours, paper in zip(rng.lognormal(0, 1.5, 500), rng.lognormal(0, 1.5, 500)):
        r = ours / paper
        if abs(r - 0.5) > 1e-9 and abs(r - 2.0) > 1e-9:
            assert ratio_verdict(ours, paper) == ("pass" if 0.5 < r < 2.0 else "differs")


def test_not_comparable_and_bad_band():
    assert ratio_verdict(1.0, 1.0, comparable=False) == "not-comparable"
    with pytest.raises(ValueError, match="lo"):
        ratio_verdict(1.0, 1.0, lo=3.0, hi=2.0)
