"""Every figure builder of dpworkbench/privateclean/figures.py (and the teaching views that call them), on small
inputs, has no problem that dpworkbench.plots.figure_problems finds: axis titles, legends that match the colours
drawn, titles that fit. Also checks the legend/colour fixes of issue 15 item 4 directly."""
from __future__ import annotations

import pandas as pd
import pytest

from dpworkbench.privateclean import figures, teaching

review = pytest.importorskip("dpworkbench.plots.review")


def _tab(x="p", xs=(0.05, 0.1, 0.3)):
    rows = [{"agg": a, "method": m, x: v, "mean": 0.1 + 0.1 * k, "median": 0.1, "q25": 0.05, "q75": 0.2, "n": 10}
            for a in ("count", "sum") for m in ("direct", "privateclean", "pc_noprov", "dirty_nonprivate")
            for k, v in enumerate(xs)]
    return pd.DataFrame(rows)


NOTEBOOK_TITLES = ["Fig. 2a–b: error vs privacy p (b = 10)", "Fig. 2c–d: error vs Laplace scale b (p = 0.1)",
                   "Fig. 3: error vs selectivity l/N (sum, count)", "Fig. 4: error vs Zipf skew z (sum, count)",
                   "Fig. 5: error vs data-error rate (sum, count)", "Fig. 6: error vs merge rate (sum, count)",
                   "Fig. 7: multi-attribute cleaning", "Fig. 8: TPC-DS customer_address, FD / MD repair",
                   "Fig. 9: error vs distinct fraction N/S (sum, count)", "Fig. 10: Intel stand-in: error vs p",
                   "Fig. 11: MCAFE stand-in (cars): error vs p"]


@pytest.mark.parametrize("title", NOTEBOOK_TITLES)
def test_error_curves_have_no_problems(title):
    fig = figures.error_curves(_tab(), "p", title)
    assert review.figure_problems(fig) == []
    # one legend entry per method, in the colour its line is drawn
    shown = [t for t in fig.data if t.showlegend is not False]
    assert [t.name for t in shown] == [figures.METHOD_NAMES[m] for m in ("direct", "privateclean", "pc_noprov", "dirty_nonprivate")]
    for t in shown:
        assert t.line.color == figures.COLORS[next(k for k, v in figures.METHOD_NAMES.items() if v == t.name)]


def _views():
    R = teaching.fig01_relation(0)
    V, crel = teaching.fig01_private(R)
    mc = teaching.fig01_monte_carlo(R, reps=20)
    sim = teaching.simulate_preservation(10, 0.25, (20, 40), 20)
    cov = pd.DataFrame([{"agg": a, "query_mode": q, "p": p, "coverage corrected (row CLT)": 0.95, "coverage paper form": 1.0}
                        for a in ("count", "sum") for q in ("random", "top") for p in (0.1, 0.5)])
    yield "grr_panel", teaching.grr_panel(0.1, S=300)[0]
    fig, graph, _ = teaching.cleaning_panel(3.0, 0.3, 1.0, S=300)
    yield "cleaning_before_after", fig
    yield "cleaning_provenance", graph
    yield "provenance_fig01", teaching.provenance_figure(crel, "major", pred={"Mech. Eng."}, domain_source="released")
    yield "tradeoff", teaching.tradeoff_panel(2.0)[0]
    yield "epsilon_to_p", teaching.epsilon_to_p_figure(2.0)
    yield "tuning", teaching.tuning_view(10_000, 0.05)[0]
    yield "ci_forest", teaching.ci_forest(3.0, n=10)
    yield "fig01_errors", figures.fig01_errors(mc, reps=20, p=0.25, b=1.0, S=len(R))
    yield "ci_coverage", figures.ci_coverage_curves(cov, reps=20)
    yield "preservation", figures.preservation(sim, N=10, p=0.25, theorem2_size=30.0)
    yield "preservation_view", teaching.preservation_view(0.05, 10, 0.25, trials=20)[0]


def test_teaching_figures_have_no_problems():
    found = {name: review.figure_problems(fig) for name, fig in _views()}
    assert {k: v for k, v in found.items() if v} == {}


def test_cleaning_bars_match_their_legend():
    fig = teaching.cleaning_panel(3.0, 0.3, 1.0, S=300)[0]
    est = [t for t in fig.data if t.xaxis == "x2"]
    assert [t.name for t in est] == ["Direct", "PrivateClean", "PrivateClean, no provenance"]
    assert [t.marker.color for t in est] == [figures.COLORS[m] for m in ("direct", "privateclean", "pc_noprov")]
    assert all(t.showlegend is not False for t in est)
    hist = [t for t in fig.data if t.xaxis in (None, "x")]
    assert len({t.marker.color for t in hist}) == len(hist) and not {t.marker.color for t in hist} & {t.marker.color for t in est}


def test_knob_controls_never_show_a_stale_value():
    pytest.importorskip("ipywidgets")
    from dpworkbench.privateclean import epsilon_grr, p_for_epsilon

    c = teaching.grr_knob_controls("epsilon", 5.0, 0.1, N=50)
    assert c["p"].value == pytest.approx(round(p_for_epsilon(5.0, 50), 2)) and c["p"].disabled and not c["epsilon"].disabled
    c["knob"].value = "p"
    c["p"].value = 0.3
    assert c["epsilon"].disabled and not c["p"].disabled
    assert c["epsilon"].value == pytest.approx(epsilon_grr(0.3, 50), rel=1e-6)
    c["N"].value = 10
    assert c["epsilon"].value == pytest.approx(epsilon_grr(0.3, 10), rel=1e-6)
    c["knob"].value = "epsilon"
    c["epsilon"].value = 2.0
    assert c["p"].value == pytest.approx(round(p_for_epsilon(2.0, 10), 2))
