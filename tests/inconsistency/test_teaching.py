"""Teaching views: the knobs the spec lists (§5.4) reach the mechanisms, candidate presets, content-keyed caches."""

from __future__ import annotations

import pytest

from dpworkbench import cache
from dpworkbench.inconsistency import teaching


def test_candidate_presets_and_custom_lists():
    assert teaching._thetas(None, 800) is None and teaching._thetas("paper", 800) is None
    assert teaching._thetas("powers of 2", 100) == [1, 2, 4, 8, 16, 32, 64]
    logs = teaching._thetas("log-spaced", 800)
    assert logs[0] == 1 and logs[-1] == 800 and len(logs) == 12
    assert teaching._thetas("5, 1, 5000", 800) == [1, 5, 800]  # sorted, capped at n
    with pytest.raises(ValueError):
        teaching._thetas("0.2", 800)


def test_explorer_knobs_change_the_releases_and_the_table_is_cached():
    kw = dict(repeats=4)
    base = teaching.explorer_view("Stock", 300, 0.01, 1.0, **kw)[1].set_index("measure")
    hits = cache.stats()["hits"]
    again = teaching.explorer_view("Stock", 300, 0.01, 1.0, **kw)[1].set_index("measure")
    assert cache.stats()["hits"] > hits and base.equals(again)  # same seed, same table from the cache: same numbers
    split = teaching.explorer_view("Stock", 300, 0.01, 1.0, eps1_frac=0.2, **kw)[1].set_index("measure")
    assert split.loc["I_MI", "DP mean"] != base.loc["I_MI", "DP mean"]
    con = teaching.explorer_view("Stock", 300, 0.01, 1.0, noise="conoise", conoise_iters=25, **kw)[1].set_index("measure")
    assert con.loc["I_MI", "true (NOT PRIVATE)"] != base.loc["I_MI", "true (NOT PRIVATE)"]
    em1 = teaching.em_view("Stock", 300, 0.01, 1.0, steps=1, thetas="powers of 2", use_bound=False)
    assert len(em1.data) == 1 and [int(x) for x in em1.data[0].x][:3] == [1, 2, 4]


def test_projected_degrees_are_capped_and_match_algorithm_1_counts():
    proj = teaching.projector("Tax", 400, 0.01, 0)
    for theta in (1, 2, 5):
        d = proj.projected_degrees(theta)
        assert d.max() <= theta and d.sum() // 2 == proj.f(theta, "MI") and int((d > 0).sum()) == proj.f(theta, "P")
    assert (proj.projected_degrees(proj.n) == proj.graph.degrees()).all()


def test_vertex_cover_view_draws_the_exact_laplace_law_without_sampling(monkeypatch):
    """The view shows c + Lap(2/ε) as its density (area 1, peak 1/(2b) at c), and draws no noise at all."""
    import numpy as np

    from dpworkbench.inconsistency import teaching

    def no_sampling(*a, **k):
        raise AssertionError("the view sampled noise")

    monkeypatch.setattr(np.random, "default_rng", no_sampling)
    fig, _ = teaching.vertex_cover_step_view(7, 0.5)
    curves = [t for t in fig.data if t.type == "scatter" and "c=" in str(t.name)]
    assert len(curves) == 2
    for t in curves:
        x, y = np.asarray(t.x), np.asarray(t.y)
        c = int(t.name.split("c=")[1].rstrip(")"))
        assert abs(np.trapezoid(y, x) - 1) < 0.01 and x[np.argmax(y)] == pytest.approx(c, abs=0.1)
        assert y.max() == pytest.approx(1 / (2 * 4.0), rel=0.02)  # b = 2/ε = 4
