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


def test_privacy_loss_check_enumerates_neighbours_and_stays_below_epsilon_with_the_box():
    tab = teaching.privacy_loss_check(1.0, "box (admissible)")
    assert list(tab.mechanism) == ["EM", "PF", "LD", "SLD"]
    assert (tab["max privacy loss over neighbours"] > 0).all() and tab["ε-DP here"].all()
    # EM on the median utility with Δu = Λ: the loss is at most ε (Thm of the EM) and grows with ε
    big = teaching.privacy_loss_check(4.0, "box (admissible)").set_index("mechanism")["max privacy loss over neighbours"]
    assert big["EM"] > tab.set_index("mechanism").loc["EM", "max privacy loss over neighbours"]
    with pytest.raises(ValueError, match="delta_kind"):
        teaching.privacy_loss_check(1.0, "nonsense")


def test_flat_delta_is_the_elementwise_maximum_and_colours_follow_the_mechanism():
    x, u, box, lam = teaching._teaching_median(0.5, "box (admissible)")
    _, _, flat, _ = teaching._teaching_median(0.5, "flat: max over elements")
    np.testing.assert_allclose(flat, np.broadcast_to(box.max(axis=0), box.shape))
    for m in ("EM", "LD"):
        fig = teaching.median_teaching_figure(1.0, mechanism=m)
        assert fig.data[0].marker.color == teaching.METHOD_COLOURS[m]


def test_topk_degree_bound_and_id3_criterion_knobs():
    f1, acc1 = teaching.teaching_topk("karate", 0.5, 3, runs=50, max_degree_factor=1)
    f5, acc5 = teaching.teaching_topk("karate", 0.5, 3, runs=50, max_degree_factor=5)
    em = lambda f: max(t.y.max() for t in f.data if t.name == "EM")  # noqa: E731
    assert em(f5) < em(f1)        # a looser public bound Δ: larger ΔEBC, flatter EM
    assert "Δ ≤ 85" in f5.layout.title.text and "Δ ≤ 17" in f1.layout.title.text
    fig, best = teaching.teaching_id3(1.0, 2, 64, "gini", rows=500)
    assert list(best.method) == ["Global (EM)"]
    fig, best = teaching.teaching_id3(1.0, 2, 64, "ig", rows=500)
    assert list(best.method) == ["Global (EM)", "Local (LD)", "Shifted (SLD)"]
    with pytest.raises(ValueError, match="criterion"):
        teaching.teaching_id3(1.0, 2, 64, "entropy")


def test_percentile_teaching_view_is_the_exact_law_and_ld_gains_in_the_tail():
    from dpworkbench.dampening import percentile as Q

    df = teaching.percentile_teaching_probabilities(10.0, 0.9)
    for m, d in df.groupby("mechanism"):
        assert d["p"].sum() == pytest.approx(1.0)
    err = df.groupby("mechanism")["expected_error"].first()
    assert err["LD"] < err["EM"] and err["PF"] <= err["EM"] + 1e-9
    x = teaching._teaching_percentile_sample()
    assert df.attrs["target"] == np.sort(x)[Q.quantile_rank(x.size, 0.9) - 1]
    fig = teaching.percentile_teaching_figure(10.0, 0.9)
    assert len(fig.data) == 4 and "p = 0.9" in fig.layout.title.text
