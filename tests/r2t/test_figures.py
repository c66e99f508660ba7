"""Every R2T figure builder on small inputs: dpworkbench.plots.figure_problems finds nothing a reviewer would reject."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from dpworkbench.plots import figure_problems
from dpworkbench.r2t import example, figures, teaching
from dpworkbench.r2t.mechanisms import ScriptedNoise, opt2, r2t


@pytest.fixture(scope="module")
def fig2():
    info = example.fig2_joininfo()
    runs = example.scripted_runs(info)
    return info, runs


def _summary(x: str, xs, mechanisms=("R2T", "OPT2", "LS")) -> pd.DataFrame:
    return pd.DataFrame([{"query": q, "mechanism": m, x: v, "error": 100.0 * (1 + i) * v ** 0.2, "dataset": f"d{j}",
                          "rel_error_pct": 0.5 * (1 + i), "error_over_DS": 2.0 + i}
                         for q in ("Q3", "Q12") for i, m in enumerate(mechanisms) for j, v in enumerate(xs)])


def _wide_summary() -> pd.DataFrame:
    """Table 2's shape: 4 queries × 7 datasets × 6 mechanisms, errors over ten decades (SDE's reach 10^9 × DS)."""
    mechs = ("R2T", "OPT2", "LP", "NT", "SDE", "RM")
    return pd.DataFrame([{"query": q, "mechanism": m, "dataset": d, "epsilon": 0.8, "rel_error_pct": 0.1 * 10.0 ** (2 * i + j % 2),
                          "error_over_DS": 10.0 ** (1.8 * i)}
                         for q in ("edge", "path2", "triangle", "rectangle")
                         for j, d in enumerate(("deezer", "amazon1", "amazon2", "roadnet_pa", "roadnet_ca", "enron", "github"))
                         for i, m in enumerate(mechs)])


def builders(fig2):
    info, runs = fig2
    gen = np.random.default_rng(0)
    r2t_out, opt_out = info.answer - np.abs(gen.normal(0, 50, 500)), info.answer + gen.normal(0, 20, 500)
    bounds = pd.DataFrame({"dataset": ["amazon2", "roadnet_pa"], "query": ["edge", "edge"], "DS": [50.0, 8.0],
                           "R2T err quantile 1-β": [300.0, 60.0], "Thm 5.1 bound": [5000.0, 900.0],
                           "OPT² err quantile 1-β": [100.0, 20.0], "Thm 6.8 bound": [2000.0, 400.0]})
    fixed = pd.DataFrame([{"query": q, "k": k, "tau": 2.0 ** (20 - 3 * k), "error": 10.0 ** (1 + abs(k - 3))} for q in ("edge", "path2")
                          for k in range(1, 8)])
    mech = pd.Series({("edge", "R2T"): 300.0, ("edge", "OPT2"): 120.0, ("path2", "R2T"): 900.0})
    table4 = pd.DataFrame([{"dataset": d, "mechanism": m, "with_early_stop_s": 1.0, "without_s": 3.0} for d in ("deezer", "amazon2")
                           for m in ("R2T", "OPT2")])
    graphs = {"a": SimpleNamespace(data=example.fig2_graph(), source="synthetic")}
    return {
        "race_figure": lambda: figures.race_figure(runs["r2t"], info.answer, info.DS, title="Example 5.2"),
        "opt2_figure": lambda: figures.opt2_figure(runs["opt2"], title="Example 6.7"),
        # RM without one finite error on Q12 (it failed there): the panel draws no empty RM series
        "sweep_panels": lambda: figures.sweep_panels(_summary("epsilon", [0.1, 0.8, 12.8], ("R2T", "OPT2", "LS", "RM"))
                                                     .assign(error=lambda d: d.error.where((d.mechanism != "RM") | (d["query"] == "Q3"))),
                                                     x="epsilon", facet="query",
                                                     answers={"Q3": 1e5, "Q12": 1e5},
                                                     paper={"Q3": {"R2T": ([0.1, 12.8], [500.0, 10.0])}},
                                                     theory={"Q12": {"Thm 5.1 bound (R2T)": ([0.1, 12.8], [1e4, 100.0])}},
                                                     x_title="ε (log)", title="error vs ε"),
        "grouped_bars": lambda: figures.grouped_bars(_wide_summary(), value="rel_error_pct", title="Table 2 (ε=0.8): relative error % (log)",
                                                     y_title="relative error % (log)", x_title="dataset"),
        "output_histograms": lambda: figures.output_histograms({"R2T": r2t_out, "OPT²": opt_out}, info.answer, title="outputs"),
        "bounds_histograms": lambda: figures.bounds_histograms(np.abs(r2t_out - info.answer), np.abs(opt_out - info.answer),
                                                               400.0, 150.0, title="bounds"),
        "bounds_bars": lambda: figures.bounds_bars(bounds, epsilon=0.8, beta=0.1),
        "degree_distributions": lambda: figures.degree_distributions(graphs),
        "fixed_tau_figure": lambda: figures.fixed_tau_figure(fixed, mech, ["edge", "path2"]),
        "early_stop_figure": lambda: figures.early_stop_figure(table4, query="rectangle"),
    }


def test_every_builder_is_covered(fig2):
    assert set(builders(fig2)) == {n for n in figures.__all__ if n != "COLORS"}


@pytest.mark.parametrize("name", ["race_figure", "opt2_figure", "sweep_panels", "grouped_bars", "output_histograms",
                                  "bounds_histograms", "bounds_bars", "degree_distributions", "fixed_tau_figure",
                                  "early_stop_figure"])
def test_figure_has_no_review_problems(fig2, name):
    fig = builders(fig2)[name]()
    assert figure_problems(fig) == []


def test_output_histograms_focus_keeps_narrow_mechanisms_visible():
    gen = np.random.default_rng(1)
    narrow, wide = 1000 + gen.normal(0, 5, 400), 1000 + gen.laplace(0, 1e5, 400)
    fig = figures.output_histograms({"R2T": narrow, "naive Laplace": wide}, 1000.0, focus=["R2T"], title="t")
    lo, hi = fig.layout.xaxis.range
    assert hi - lo < 100 and "outside the axis range" in fig.layout.title.text


@pytest.mark.parametrize("view", ["race", "opt2", "error", "bounds"])
def test_teaching_views_have_no_review_problems(view):
    kw = dict(generator="road", query="edge", seed=0, size=100)
    if view == "race":
        fig, _ = teaching.race_panel(epsilon=0.8, beta=0.1, log2_gs=3, base=2.0, **kw)  # GS < DS: the longest title
    elif view == "opt2":
        fig, _ = teaching.opt2_panel(epsilon=0.8, beta=0.1, **kw)
    elif view == "error":
        fig, _ = teaching.error_panel(epsilon=0.8, log2_tau=2, runs=200, beta=0.1, mechanisms=teaching.ERROR_PANEL_MECHANISMS, **kw)
    else:
        fig, _ = teaching.bounds_panel(epsilon=0.8, beta=0.1, runs=200, **kw)
    assert figure_problems(fig) == []


def test_scripted_fixtures_unused_names_are_importable():
    # the figures above draw Releases of the real mechanisms
    assert callable(r2t) and callable(opt2) and ScriptedNoise is not None


def test_grouped_bars_labels_a_wide_log_axis_every_few_decades_on_all_panels():
    fig = figures.grouped_bars(_wide_summary(), value="rel_error_pct", title="t", y_title="relative error % (log)")
    steps = {fig.layout[k].dtick for k in fig.layout.to_plotly_json() if k.startswith("yaxis")}
    assert steps == {3}  # 0.1 % … 10^9 %: ten decades, labelled at 0.1, 100, 100k, 100M (one step for the shared axes)
    narrow = figures.grouped_bars(_summary("epsilon", [0.8]).assign(rel_error_pct=lambda d: np.where(d.mechanism == "R2T", 1.0, 1e3)),
                                  value="rel_error_pct", title="t")
    assert narrow.layout.yaxis.dtick == 1  # three decades: every one labelled


def test_grouped_bars_names_a_single_panel_in_the_title():
    one = _wide_summary().query("query == 'edge'")
    fig = figures.grouped_bars(one, value="rel_error_pct", title="Table 5", y_title="relative error % (log)")
    assert not fig.layout.annotations and fig.layout.title.text == "Table 5<br><sup>edge</sup>"
    assert figure_problems(fig) == []


def test_sweep_panels_draws_no_series_without_a_finite_error():
    summary = _summary("epsilon", [0.1, 0.8], ("R2T", "RM")).assign(error=lambda d: d.error.where(d.mechanism != "RM"))
    fig = figures.sweep_panels(summary, x="epsilon", facet="query", answers={})
    assert [t.name for t in fig.data] == ["R2T", "R2T"] and all(len(t.y) == 2 for t in fig.data)
