"""dampening.teaching: the widget views."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpworkbench.dampening import teaching


def _dampen_by_hand(u: float, row, gs: float) -> float:
    """Def. 3.3.1 walked segment by segment: slope 1/δ(t) between b(t) and b(t+1), then 1/Δu."""
    a, acc = abs(u), 0.0
    for k, d in enumerate(row):
        if a < acc + d:
            return math.copysign(k + (a - acc) / d, u)
        acc += d
    return math.copysign(len(row) + (a - acc) / gs, u)


@pytest.mark.parametrize("t", [0, 1, 2, 3, 7])
@pytest.mark.parametrize("gs", [7.0, 10.0, 60.0])
def test_teaching_dampening_figure_curve_and_breakpoint(t, gs):
    fig = teaching.teaching_dampening_figure(t, gs)
    row = list(teaching.TEACHING_DELTA_ROW)[: min(t, 3) + 1]
    ld = fig.data[0]
    want = [_dampen_by_hand(float(u), row, gs) for u in ld.x]
    np.testing.assert_allclose(ld.y, want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(fig.data[1].y, np.asarray(fig.data[1].x) / gs)
    assert max(ld.x) == pytest.approx(sum(row) + 2 * gs)
    shapes = [s for s in fig.layout.shapes]
    if t <= len(row):  # b(t) is drawn only while it is a breakpoint of the row shown
        assert len(shapes) == 1 and shapes[0].x0 == pytest.approx(sum(row[:t]))
    else:
        assert not shapes


def test_teaching_dampening_figure_rejects_negative_distance():
    with pytest.raises(ValueError, match="non-negative"):
        teaching.teaching_dampening_figure(-1, 10.0)
