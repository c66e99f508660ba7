"""The shared widget layer: panels redraw in place, errors are shown, the non-private part is cached."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import math

import pytest

from dpworkbench import widgets


def _fig(epsilon: float, n: int = 3) -> go.Figure:
    return go.Figure(go.Scatter(x=list(range(n)), y=[epsilon * i for i in range(n)]), layout={"title": {"text": f"ε={epsilon:g}"}})


def test_epsilon_slider_is_a_log_slider_named_epsilon():
    s = widgets.epsilon_slider(0.5, minimum=0.01, maximum=10)
    assert type(s).__name__ == "FloatLogSlider"
    assert s.description == "ε" and s.value == pytest.approx(0.5)
    assert s.min == pytest.approx(-2) and s.max == pytest.approx(1)
    with pytest.raises(ValueError, match="minimum"):
        widgets.epsilon_slider(1, minimum=0, maximum=1)
    # the slider's range never restricts a headless run (-p epsilon 50): it widens to hold the value
    wide = widgets.epsilon_slider(50, minimum=0.05, maximum=20)
    assert wide.value == pytest.approx(50) and wide.max == pytest.approx(math.log10(50))
    low = widgets.epsilon_slider(1e-4, minimum=0.05, maximum=20)
    assert low.value == pytest.approx(1e-4) and low.min == pytest.approx(-4)
    for bad in (0, -1.0, float("nan"), float("inf")):  # a log scale cannot show these
        with pytest.raises(ValueError, match="positive finite"):
            widgets.epsilon_slider(bad)


def test_choice_accepts_a_value_outside_its_options():
    d = widgets.choice(["a", "b"], "zzz", "mode")
    assert d.value == "zzz" and list(d.options) == ["a", "b", "zzz"]


def test_panel_redraws_figure_in_place_when_epsilon_moves():
    calls = []

    def update(epsilon, n):
        calls.append((epsilon, n))
        return _fig(epsilon, n), f"ε = {epsilon}"

    controls = {"epsilon": widgets.epsilon_slider(1.0), "n": widgets.choice([3, 5], 3, "n")}
    panel = widgets.control_panel(update, controls, interactive=True, title="demo")
    fw = panel.figure
    assert list(fw.data[0].y) == [0, 1, 2]
    controls["epsilon"].value = 10.0
    assert calls[-1] == (pytest.approx(10.0), 3)
    assert panel.figure is fw, "the figure must be updated in place (the browser keeps the same view)"
    assert list(fw.data[0].y) == pytest.approx([0, 10, 20])
    assert fw.layout.title.text == "ε=10"
    assert "updated" in panel.status.value
    controls["n"].value = 5
    assert len(fw.data[0].y) == 5 and calls[-1][1] == 5


def test_panel_shows_errors_instead_of_losing_them():
    def update(epsilon):
        if epsilon > 5:
            raise ValueError("ε too large for this demo")
        if epsilon < 0.01:
            raise RuntimeError("boom")
        return _fig(epsilon)

    s = widgets.epsilon_slider(1.0, minimum=1e-3, maximum=100)
    panel = widgets.control_panel(update, {"epsilon": s})
    s.value = 50
    assert "too large" in panel.status.value and "#b00" in panel.status.value
    assert list(panel.figure.data[0].y) == [0, 1, 2], "a bad input keeps the old figure"
    s.value = 0.001
    assert "RuntimeError" in panel.status.value and "boom" in panel.status.value
    s.value = 2
    assert "updated" in panel.status.value


def test_non_interactive_panel_displays_a_static_figure(capsys):
    fig = widgets.control_panel(lambda epsilon: _fig(epsilon), {"epsilon": widgets.epsilon_slider(2.0)}, interactive=False)
    assert isinstance(fig, go.Figure) and not isinstance(fig, go.FigureWidget)
    assert list(fig.data[0].y) == [0, 2, 4]


def test_live_figure_is_redrawn_in_an_output():
    s = widgets.epsilon_slider(1.0)
    panel = widgets.control_panel(lambda epsilon: _fig(epsilon), {"epsilon": s})
    fig = panel.figure
    s.value = 10.0
    assert panel.figure is fig and list(fig.data[0].y) == pytest.approx([0, 10, 20])
    assert type(panel.children[-2]).__name__ == "Output" and "dpwb-work" not in panel.children[-2]._dom_classes


def test_cache_nonprivate_keys_arrays_by_content_and_never_recomputes():
    calls = []

    @widgets.cache_nonprivate(maxsize=8)
    def expensive(values, *, scale=1.0):
        calls.append(1)
        return np.asarray(values).sum() * scale

    a = np.arange(5.0)
    assert expensive(a) == 10.0
    assert expensive(a.copy()) == 10.0 and len(calls) == 1
    assert expensive([0.0, 1.0, 2.0, 3.0, 4.0]) == 10.0 and len(calls) == 2  # a list is a different key than an array
    assert expensive(a, scale=2.0) == 20.0 and len(calls) == 3
    assert expensive.cache_info().hits == 1
    expensive.cache_clear()
    expensive(a)
    assert len(calls) == 4


def test_epsilon_change_reuses_cached_nonprivate_part():
    builds = []

    @widgets.cache_nonprivate
    def structure(seed: int) -> np.ndarray:  # stands for a conflict graph / LP values / EBC
        builds.append(seed)
        return np.random.default_rng(seed).random(50)

    def update(epsilon, seed):
        values = structure(seed)
        noisy = values + np.random.default_rng(1).laplace(scale=1 / epsilon, size=values.size)
        return _fig(float(noisy.mean()))

    controls = {"epsilon": widgets.epsilon_slider(1.0), "seed": widgets.seed_box(0)}
    widgets.control_panel(update, controls)
    for eps in (0.1, 0.5, 2.0, 5.0):
        controls["epsilon"].value = eps
    assert builds == [0]
    controls["seed"].value = 3
    assert builds == [0, 3]


def test_progress_is_tqdm_auto():
    from tqdm.auto import tqdm

    bar = widgets.progress(range(3), desc="x", disable=True)
    assert isinstance(bar, tqdm) and list(bar) == [0, 1, 2]


def test_candidates_and_small_controls():
    assert widgets.parse_candidates("4, 1; 2 2") == [1.0, 2.0, 4.0]
    with pytest.raises(ValueError, match="empty"):
        widgets.parse_candidates(" , ")
    with pytest.raises(ValueError, match="positive"):
        widgets.parse_candidates("1, -2")
    assert widgets.candidate_editor([1, 2.5]).value == "1, 2.5"
    assert widgets.seed_box(7).value == 7
    assert widgets.log_slider(0.5, 0.1, 10, "β").description == "β"


def _two_panel_fig(epsilon: float, with_marker_size: bool = False) -> go.Figure:
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=1, cols=2, subplot_titles=["box", f"ε={epsilon:g}"])
    fig.add_trace(go.Box(y=[epsilon, 2 * epsilon], name=f"DP ε={epsilon:g}"), 1, 1)
    fig.add_trace(go.Scatter(x=[f"DP ε={epsilon:g}"], y=[epsilon], mode="markers",
                             marker=dict(size=9) if with_marker_size else None), 1, 2)
    return fig.update_layout(title=f"ε={epsilon:g}")


def test_update_replaces_traces_and_layout_exactly_and_keeps_the_widget():
    live = widgets._LiveFigure(_two_panel_fig(1.0, with_marker_size=True))
    fw = live.figure
    new = _two_panel_fig(2.0)
    live.set(new)
    assert live.figure is fw
    got, want = fw.to_dict(), new.to_dict()
    # a figure without a width is drawn PANEL_FIGURE_W wide (plotly's 700 px fallback is wider than the output area of a
    # 1024 px window): everything else exactly as built
    assert got["layout"] == {**want["layout"], "width": widgets.PANEL_FIGURE_W}
    live.set(new.update_layout(width=640))
    assert fw.layout.width == 640  # a width the builder chose is kept
    assert [{k: v for k, v in t.items() if k != "uid"} for t in got["data"]] == want["data"], "removed properties are gone"
    live.set(go.Figure([go.Scatter(y=[1]), go.Bar(y=[3])]))
    assert [t.type for t in fw.data] == ["scatter", "bar"]


def test_a_panel_opens_no_anywidget(monkeypatch):
    """No comm of a panel carries an ES module: a plotly FigureWidget (an anywidget) ships plotly's 5 MB bundle, and
    when the browser takes more than anywidget's 2 s to import it every later update of the figure is dropped (the
    browser test's figure stayed at its first ε on a loaded machine)."""
    import comm
    from ipywidgets.widgets import widget as ipw

    opened: list[str] = []
    real = comm.create_comm

    def spy(**kw):
        state = (kw.get("data") or {}).get("state") or {}
        opened.append(state.get("_model_name", "?") + (" with _esm" if "_esm" in state else ""))
        return real(**kw)

    monkeypatch.setattr(ipw.comm, "create_comm", spy)
    s = widgets.epsilon_slider(1.0)
    panel = widgets.control_panel(lambda epsilon: go.Figure([go.Bar(x=[1, 2], y=[3, 4 * epsilon])]), {"epsilon": s})
    s.value = 2.0
    assert opened and "FloatLogSliderModel" in opened, opened  # the spy sees the panel's comms
    assert not [m for m in opened if "_esm" in m or m == "AnyModel"], f"the panel opened an anywidget: {opened}"
    assert list(panel.figure.data[0].y) == [3, 8]
