"""Every figure builder of the paper (figures.py and the teaching views) passes plots.figure_problems on small inputs:
axis titles with units, legends that explain every colour, no log axis over values ≤ 0, titles that fit."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpworkbench.inconsistency import examples, figures, teaching
from dpworkbench.plots import figure_problems


def _records() -> pd.DataFrame:
    """Tidy run records shaped like experiments.noise_experiment's, hand-made (no experiment run)."""
    rng = np.random.default_rng(0)
    rows = []
    for d in ("Stock", "Tax"):
        for it in (0, 1, 2):
            for m in ("I_MI", "I_P", "I_R"):
                for algo in ("baseline_V", "baseline_dmax", "em", "hier_em", "bound_hier") if m != "I_R" else ("alg5",):
                    for eps in (0.5, 1.0):
                        for run in range(2):
                            true = 10.0 * (it + 1)
                            out = true + rng.normal(0, 2)
                            rows.append(dict(dataset=d, iteration=it, measure=m, algo=algo, eps=eps, run=run, true=true,
                                             output=out, rel_error=abs(out - true) / true))
    return pd.DataFrame(rows)


@pytest.mark.parametrize("build", [
    lambda r: figures.fig_true_vs_private(r[r.eps == 1.0], "Fig. 4"),
    lambda r: figures.fig_strategies(r, "Fig. 6"),
    lambda r: figures.fig_epsilon(r[r.algo.isin(["bound_hier", "alg5"])], "Fig. 7"),
    lambda r: figures.draw_graph(examples.fig2_graph(), labels=["t1", "t2", "t3", "t4"], highlight=[3], title="Fig. 2"),
], ids=["fig_true_vs_private", "fig_strategies", "fig_epsilon", "draw_graph"])
def test_paper_figures_have_no_problems(build):
    assert figure_problems(build(_records())) == []


def test_a_figure_problem_is_caught():
    """The check itself can fail: a figure without axis titles is reported."""
    import plotly.graph_objects as go

    assert figure_problems(go.Figure(go.Scatter(x=[1, 2], y=[3, 4])))


@pytest.mark.parametrize("view", [
    lambda: teaching.explorer_view("Stock", 200, 0.01, 1.0, repeats=3)[0],
    lambda: teaching.projection_view("Stock", 200, 0.01, 10, 1.0),
    lambda: teaching.projection_degrees_view("Tax", 400, 0.01, 2),
    lambda: teaching.em_view("Stock", 200, 0.01, 1.0),
    lambda: teaching.vertex_cover_step_view(3, 1.0)[0],
    lambda: teaching.vertex_cover_steps()[0],
], ids=["explorer", "projection", "projection_degrees", "em", "vertex_cover_step", "vertex_cover_graph"])
def test_teaching_views_have_no_problems(view):
    assert figure_problems(view()) == []


def test_projection_view_theta_marker_stays_on_the_theta_axis():
    """Issue 15 item 4: the θ marker was placed in log units, stretching the axis to 10^θ."""
    fig = teaching.projection_view("Stock", 200, 0.01, 50, 1.0)
    xs = [x for tr in fig.data for x in (tr.x if tr.x is not None else ()) if x is not None]
    n = teaching.projector("Stock", 200, 0.01, 0).n
    assert min(xs) >= 1 and max(xs) <= n and not fig.layout.shapes
    assert fig.layout.xaxis.range[1] <= np.log10(n) + 1e-9
