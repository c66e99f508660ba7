"""The figure review on the rendered page (dpworkbench.plots.render) catches every defect of issue 24 item 5 and
issue 28's projector bullets on the figures as the code before the fix drew them (JSON fixtures made by
make_fixtures.py from commit 89bca1c), and today's builders on the same inputs pass."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from dpworkbench.plots import figure_problems
from dpworkbench.plots.render import _quads_overlap, _tick_problems, rendered_problems, renderer
from dpworkbench.plots.style import decade_ticks

from . import make_fixtures

FIXTURES = Path(__file__).parent / "fixtures"

# What the review must say about each defective figure (substrings of its findings).
BEFORE = {
    "privateclean_fig05_saved": ["the x axis title 'data-error rate (fraction)' overlaps the x2 axis title",
                                 "the y axis title 'relative error (%): mean, IQR band' is clipped"],
    "r2t_fig07_saved": ["the y axis title 'absolute error (trimmed mean, log)' is clipped",
                        "legend entry 'query result Q(I)' is clipped at the bottom edge",
                        "the dashed series 'RM (paper)' has no visible legend entry"],
    "r2t_tab02_saved": ["x axis: labels 3 of its 7 categories"],
    "inconsistency_fig06_saved": ["x5 axis: ticks 9.999k … 10.001k differ by 2.0e-04"],
    "dampening_topk_screen": ["the title 'PrivTopk, first draw: ε/k = 0.667", "is clipped at the top edge (on a 1024×768 screen"],
    "dampening_median_screen": ["is clipped at the top edge (on a 1024×768 screen"],
    "dampening_privacy_loss_screen": ["the title 'Privacy loss on a tiny universe", "is clipped at the top edge (on a 1024×768 screen"],
}


@pytest.fixture(scope="module")
def browser():
    if renderer() is None:
        pytest.skip("no headless Chromium/playwright: the rendered review cannot run here")
    return renderer()


def _load(name: str) -> go.Figure:
    return pio.from_json((FIXTURES / f"{name}.json").read_text(), skip_invalid=True)


def test_every_fixture_has_expectations():
    assert {p.stem for p in FIXTURES.glob("*.json")} == set(BEFORE)
    assert {f"{n}_{mode}" for n, (_, mode) in make_fixtures.builders().items()} == set(BEFORE)


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_the_review_catches_the_defect_before_the_fix(browser, name):
    found = rendered_problems(_load(name), as_saved=False, screen=name.endswith("_screen"))
    text = "\n".join(found)
    missing = [want for want in BEFORE[name] if want not in text]
    assert not missing, f"{name}: not found {missing}; the review said:\n{text}"


@pytest.mark.parametrize("name", sorted(make_fixtures.builders()))
def test_the_fixed_builders_pass_the_review(browser, name):
    build, mode = make_fixtures.builders()[name]
    fig = build()
    # saved (PNG/SVG at print size) and, for teaching panels, also as the notebook shows them at 1024×768
    assert rendered_problems(fig, screen=mode == "screen") == []
    assert figure_problems(fig) == []


def test_the_fixed_figures_show_the_same_data():
    """The fixes touch layout only: every trace of the fixed figure draws the same points as before."""
    for name, (build, mode) in make_fixtures.builders().items():
        old = json.loads((FIXTURES / f"{name}_{mode}.json").read_text())["data"]
        new = json.loads(build().to_json())["data"]
        assert [(t.get("name"), t.get("x"), t.get("y")) for t in new] == [(t.get("name"), t.get("x"), t.get("y")) for t in old], name


def _log_figure() -> go.Figure:
    x = np.arange(1, 30)
    return go.Figure(go.Scatter(x=x, y=np.logspace(0.9, 2.6, x.size), name="y")).update_layout(
        yaxis_type="log", yaxis_title="count (log)", xaxis_title="step", template="plotly_white")


def test_log_minor_labels_as_large_as_decades_are_found_and_decade_ticks_fix_them(browser):
    before = rendered_problems(_log_figure(), as_saved=False, screen=True)
    assert any("minor labels" in p for p in before), before
    assert not any("minor labels" in p for p in rendered_problems(decade_ticks(_log_figure()), as_saved=False, screen=True))
    assert not any("minor labels" in p for p in rendered_problems(_log_figure()))  # save_figure's style labels decades


def test_a_label_past_the_right_edge_and_a_title_wider_than_the_figure_are_found(browser):
    fig = go.Figure(go.Scatter(x=[1, 2], y=[1, 2], name="a")).update_layout(
        xaxis_title="x", yaxis_title="y", margin_r=0, title="a title far too long for a figure this narrow, it runs off",
        annotations=[dict(x=1, y=1.5, xref="x domain", yref="y", xanchor="left", text="Q(I) = 5,987", showarrow=False)])
    found = "\n".join(rendered_problems(fig, as_saved=False, width=300, height=300))
    assert "annotation 'Q(I) = 5,987' is clipped at the right edge" in found
    assert "the title 'a title far too long" in found


def test_rotated_labels_overlap_only_when_their_glyphs_do():
    def quad(x, y, length, height, angle):
        a = np.deg2rad(angle)
        u, v = np.array([np.cos(a), np.sin(a)]) * length, np.array([-np.sin(a), np.cos(a)]) * height
        p = np.array([x, y])
        return np.array([p, p + u, p + u + v, p + v])

    # two labels turned by 45°, 20 px apart along the axis: their upright boxes overlap, the glyphs do not
    assert not _quads_overlap(quad(0, 0, 80, 12, -45), quad(20, 0, 80, 12, -45))
    assert _quads_overlap(quad(0, 0, 80, 12, 0), quad(20, 0, 80, 12, 0))


def test_tick_checks_on_measured_ticks():
    ticks = [{"role": "tick", "axis": "x", "text": t, "value": v, "size": 12} for t, v in (("9.999k", 9999), ("10k", 10000), ("10.001k", 10001))]
    assert "degenerate" in _tick_problems(ticks, {"x": {"type": "linear"}})[0]
    ok = [{"role": "tick", "axis": "x", "text": t, "value": v, "size": 12} for t, v in (("0", 0), ("5k", 5000), ("10k", 10000))]
    assert _tick_problems(ok, {"x": {"type": "linear"}}) == []
    cats = {"x": {"type": "category", "categories": 7, "visible": True, "showticklabels": True}}
    assert "labels 3 of its 7 categories" in _tick_problems(ticks, cats)[0]


@pytest.mark.parametrize("grouped", [False, True])
def test_a_long_legend_beside_one_panel_gets_the_height_it_needs(browser, grouped):
    """Saved with 14 entries beside one panel (and 10 px between legend groups when each series has its own group, as
    go.Scatter keeps plotly's tracegroupgap): every entry is visible, none clipped at the figure's foot."""
    fig = go.Figure([go.Scatter(x=[1, 2, 3], y=[i, i + 1, i * 1.5], mode="lines+markers", name=f"I_R, α=0.0{i}, synthetic",
                                legendgroup=f"g{i}" if grouped else None) for i in range(1, 15)])
    fig.update_layout(title="Fig. 8: runtime vs rows", xaxis_title="rows", yaxis_title="seconds", legend_title="series")
    assert rendered_problems(fig) == []
