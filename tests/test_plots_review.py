"""figure_problems finds what a reviewer would reject, and stays quiet on a clean figure; save_figure
applies the one template, sizes the figure from its panel grid and writes SVG next to PNG."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest
from plotly.subplots import make_subplots

from dpworkbench.plots import TEMPLATE_NAME, apply_style, figure_problems, figure_size, panel_grid, save_figure
from dpworkbench.plots.style import MIN_PRINT_PT, print_width_pt


def _clean_grid(rows: int = 3, cols: int = 5) -> go.Figure:
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=[f"d{i}" for i in range(rows * cols)], x_title="ε", y_title="relative error")
    for i in range(rows * cols):
        for name, colour, ys in (("plain SQL", "#1f77b4", [1, 0.1, 0.01]), ("R2T", "#d62728", [2, 0.3, 0.02])):
            fig.add_trace(go.Scatter(x=[0.1, 1, 10], y=ys, name=name, marker_color=colour, legendgroup=name, showlegend=i == 0),
                          row=i // cols + 1, col=i % cols + 1)
    fig.update_xaxes(type="log")
    fig.update_yaxes(type="log")
    fig.update_layout(title="Relative error against ε")
    return fig


def _one(**layout) -> go.Figure:
    fig = go.Figure([go.Scatter(x=[1, 2, 3], y=[1, 4, 9], name="a"), go.Scatter(x=[1, 2, 3], y=[2, 5, 7], name="b")])
    fig.update_layout(**{"xaxis_title": "n (rows)", "yaxis_title": "seconds", **layout})
    return fig


def test_clean_figures_have_no_problems():
    assert figure_problems(_clean_grid()) == []
    assert figure_problems(_one()) == []


def test_missing_axis_titles_are_named():
    fig = _one(xaxis_title=None)
    probs = figure_problems(fig)
    assert len(probs) == 1 and "x axis has data but no title" in probs[0]
    grid = make_subplots(rows=1, cols=2, subplot_titles=["left", "right"])
    grid.add_trace(go.Scatter(x=[1, 2], y=[1, 2], name="s"), row=1, col=1)
    grid.add_trace(go.Scatter(x=[1, 2], y=[1, 2], name="s", showlegend=False), row=1, col=2)
    grid.update_yaxes(title_text="count")
    probs = figure_problems(grid)
    assert any("2 panels" in p and "x axis" in p for p in probs) and not any("y axis has data" in p for p in probs)


def test_unexplained_colour_and_colour_changes_are_found():
    fig = _one()
    fig.add_trace(go.Scatter(x=[2], y=[3], mode="markers", marker_color="#00ff00", showlegend=False))
    assert any("is drawn in #00ff00 but is not in the legend" in p for p in figure_problems(fig))
    # the same dots in a legend colour are explained by the legend
    ok = _one()
    ok.add_trace(go.Scatter(x=[2], y=[3], mode="markers", marker_color="#1f77b4", showlegend=False))
    ok.data[0].marker.color = "#1f77b4"
    assert figure_problems(ok) == []
    two = _one()
    two.add_trace(go.Scatter(x=[1, 2], y=[3, 3], name="a", marker_color="#123456", showlegend=False))
    two.data[0].marker.color = "#abcdef"
    assert any("series 'a' is drawn in 2 colours" in p for p in figure_problems(two))


def test_duplicate_and_default_legend_entries():
    fig = _one()
    fig.add_trace(go.Scatter(x=[1, 2], y=[1, 2], name="a", marker_color=fig.data[0].marker.color))
    assert any("lists 'a' 2 times" in p for p in figure_problems(fig))
    fig = go.Figure([go.Scatter(x=[1, 2], y=[1, 2]), go.Scatter(x=[1, 2], y=[2, 1])])
    fig.update_layout(xaxis_title="x", yaxis_title="y")
    assert any("default name" in p for p in figure_problems(fig))


def test_titles_wider_than_the_figure_or_panel():
    assert any("the title is" in p for p in figure_problems(_one(title="word " * 60)))
    grid = _clean_grid(1, 3)
    grid.layout.annotations[0].text = "a subplot title far too long for a third of a figure"
    assert any("subplot title(s) wider than their panel" in p for p in figure_problems(grid))


def test_dashed_line_promised_but_not_drawn():
    fig = _one(title="series (dashed: the true value)")
    assert any("mentions a dashed line" in p for p in figure_problems(fig))
    fig.data[1].line.dash = "dash"
    assert figure_problems(fig) == []


def test_degenerate_ticks_and_log_ranges():
    fig = go.Figure(go.Scatter(x=[1, 2, 3], y=[9999.5, 9999.51, 9999.52], name="v"))
    fig.update_layout(xaxis_title="x", yaxis_title="y")
    assert any("ticks read like" in p for p in figure_problems(fig))
    fig.update_yaxes(tickformat=".2f")
    assert figure_problems(fig) == []
    theta = go.Figure(go.Scatter(x=[1, 10, 1e55], y=[1, 2, 3], name="θ"))
    theta.update_layout(xaxis_type="log", xaxis_title="θ", yaxis_title="error")
    assert any("spans 55 decades" in p for p in figure_problems(theta))


def test_bars_on_a_log_axis_are_judged_on_their_own_values():
    """A bar starts at 0 on a linear axis but at the plot's bottom on a log axis: positive bars on a log axis (Fig. 9's
    runtimes, Table 1's errors) have nothing ≤ 0 to flag, while a real 0 or negative bar still is."""
    def bars(y):
        fig = go.Figure(go.Bar(x=["Stock", "Tax", "Adult"], y=y, name="I_MI"))
        fig.update_layout(yaxis_type="log", xaxis_title="dataset", yaxis_title="seconds")
        return figure_problems(fig)

    assert not [p for p in bars([0.0088, 0.031, 0.052]) if "≤ 0" in p]
    assert any("1 value(s) ≤ 0" in p for p in bars([0.0088, 0.0, 0.052]))
    assert any("1 value(s) ≤ 0" in p for p in bars([0.0088, -0.002, 0.052]))  # e.g. a time minus a larger build time
    horizontal = go.Figure(go.Bar(y=["a", "b"], x=[0.5, -1.0], orientation="h", name="v"))
    horizontal.update_layout(xaxis_type="log", xaxis_title="x", yaxis_title="y")
    assert any("1 value(s) ≤ 0" in p for p in figure_problems(horizontal))


def test_small_text_at_print_width():
    fig = _one(font_size=6)
    probs = figure_problems(fig, as_saved=False, width=1400)
    assert any("prints at" in p for p in probs)
    # as saved, the font follows the width: 7 pt or more at one column
    styled = apply_style(fig)
    assert styled.layout.font.size * print_width_pt(panel_grid(styled)) / styled.layout.width >= MIN_PRINT_PT - 0.05


def test_size_scales_with_panels_and_gaps_hold_titles():
    one = figure_size(_one())
    grid = figure_size(_clean_grid(3, 5))
    assert grid[0] > one[0] and grid[1] > one[1]
    assert figure_size(_clean_grid(3, 5))[1] > figure_size(_clean_grid(1, 5))[1]
    tight = make_subplots(rows=3, cols=1, subplot_titles=["a", "b", "c"], vertical_spacing=0.01)
    for r in (1, 2, 3):
        tight.add_trace(go.Scatter(x=[1, 2], y=[1, 2], name="s", showlegend=r == 1), row=r, col=1)
    tight.update_xaxes(title_text="x")
    tight.update_yaxes(title_text="y")
    assert any("stacked panels are" in p for p in figure_problems(tight, as_saved=False, height=500))
    assert not any("stacked panels are" in p for p in figure_problems(tight))  # save_figure re-spaces the grid


def test_save_figure_applies_template_and_leaves_the_input_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("DPWB_NO_PNG", "1")
    from dpworkbench import plots

    monkeypatch.setattr(plots, "_PNG_STATE", {})
    fig = _one()
    fig.update_layout(template="plotly_dark")
    paths = plots.save_figure(fig, tmp_path / "f", plotlyjs=tmp_path / "_static" / "plotly.min.js")
    assert set(paths) == {"html"} and paths["html"].exists()
    assert apply_style(fig).layout.template == go.layout.Template(plots.pio.templates[TEMPLATE_NAME])
    assert fig.layout.width is None  # the caller's figure is unchanged
    assert not list(tmp_path.glob(".*partial*"))


def test_save_figure_writes_svg_next_to_png(tmp_path, monkeypatch):
    from dpworkbench import plots

    monkeypatch.delenv("DPWB_NO_PNG", raising=False)  # tests/conftest.py turns PNG export off for speed
    monkeypatch.setattr(plots, "_PNG_STATE", {})
    if not plots.png_export_available():
        pytest.skip("no kaleido + headless Chromium on this machine")
    paths = save_figure(_clean_grid(2, 2), tmp_path / "g")
    assert {"html", "png", "svg"} <= set(paths)
    assert paths["svg"].read_text().lstrip().startswith("<svg")
    assert not list(tmp_path.glob("*partial*"))


def test_colours_named_in_the_title_or_grey_graph_edges_need_no_legend():
    fig = _one(title="reach (red: cut into the predicate)")
    fig.add_trace(go.Scatter(x=[2], y=[3], mode="markers", marker_color="crimson", showlegend=False))
    assert figure_problems(fig) == []
    fig.update_layout(title="reach (green: kept)")
    assert any("crimson but is not in the legend" in p for p in figure_problems(fig))
    graph = go.Figure([go.Scatter(x=[0, 1], y=[0, 1], mode="lines", line_color="lightgray", showlegend=False),
                       go.Scatter(x=[0, 1], y=[0, 1], mode="markers", name="kept", marker_color="#1f77b4"),
                       go.Scatter(x=[0.5], y=[0.5], mode="markers", name="cut", marker_color="#d62728")])
    graph.update_xaxes(visible=False)
    graph.update_yaxes(visible=False)
    assert figure_problems(graph) == []
    graph.update_xaxes(visible=True, title_text="x")
    graph.update_yaxes(visible=True, title_text="y")
    assert any("lightgray but is not in the legend" in p for p in figure_problems(graph))


def test_long_titles_are_wrapped_to_the_figure_and_very_long_ones_flagged():
    title = "Expected absolute error per query when the budget ε is split over k queries"
    styled = apply_style(_one(title=title))
    assert "<br>" in styled.layout.title.text and styled.layout.title.text.replace("<br>", " ") == title
    assert figure_problems(_one(title=title)) == []
    assert any("lines once wrapped" in p for p in figure_problems(_one(title="word " * 60)))
    assert any("the title is about" in p for p in figure_problems(_one(title=title), as_saved=False, width=500))


def test_a_band_with_an_unset_mode_draws_dots_and_is_flagged():
    fig = _one()
    fig.add_trace(go.Scatter(x=[1, 2, 3, 3, 2, 1], y=[0, 3, 8, 10, 5, 2], fill="toself", showlegend=False))
    assert any("also draw coloured dots" in p for p in figure_problems(fig))
    fig.data[-1].mode = "lines"
    fig.data[-1].line.width = 0
    assert figure_problems(fig) == []


def test_shared_axis_titles_are_not_subplot_titles():
    from plotly.subplots import make_subplots
    import plotly.graph_objects as go

    from dpworkbench.plots import figure_problems

    fig = make_subplots(rows=1, cols=3, subplot_titles=("a", "b", "c"),
                        x_title="noise injection iteration (checkpoint), a long shared axis title", y_title="value (count)")
    for c in (1, 2, 3):
        fig.add_trace(go.Scatter(x=[1, 2], y=[1, 2], name="s", showlegend=c == 1, line_color="#1f77b4"), row=1, col=c)
    fig.update_layout(title="t")
    assert not [p for p in figure_problems(fig) if "subplot title" in p]
    fig.layout.annotations[1].text = "a subplot title far too long for its one-third-wide panel, much longer than the panel is"
    assert [p for p in figure_problems(fig) if "subplot title" in p]
