"""How much ε for ±x %: the inverse of a release's error bar (dpworkbench.teaching.epsilon_needed)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpworkbench.mechanisms import core
from dpworkbench.mechanisms.backends import as_generator
from dpworkbench.mechanisms.declaration import ADD_REMOVE_ROW, EPSILON, Accuracy, Mechanism, Param, planned
from dpworkbench.teaching import epsilon_needed as en


def test_laplace_matches_the_closed_form():
    # Δ·ln(1/β)/ε ≤ x·ref  ⇔  ε ≥ Δ·ln(1/β)/(x·ref)
    for delta, pct, ref, beta in ((1.0, 5, 1000, 0.05), (2.0, 1, 250, 0.01), (7.5, 20, 40, 0.1)):
        got = en.epsilon_needed(en.laplace(delta), percent=pct, reference=ref, beta=beta)
        assert got.epsilon == pytest.approx(delta * math.log(1 / beta) / (pct / 100 * ref), rel=1e-6)
        assert got.accuracy.bound <= got.target * (1 + 1e-9) and got.accuracy.beta == beta


@pytest.mark.parametrize("name,acc", [("rr_count", en.rr_count(2000, 10)), ("selection", en.selection(1.0, 50)),
                                      ("above_threshold", en.above_threshold(30)),
                                      ("composed", en.composed(en.laplace(1.0), 5)), ("share", en.share(en.laplace(3.0), 0.6))])
def test_the_epsilon_found_is_the_smallest(name, acc):
    got = en.epsilon_needed(acc, percent=10, reference=1000, beta=0.05)
    assert got.reachable
    assert acc(got.epsilon, 0.05).bound <= got.target * (1 + 1e-9)
    assert acc(got.epsilon * (1 - 1e-6), 0.05).bound > got.target  # a hair less ε misses it


def test_composition_and_share_scale_the_epsilon():
    one = en.epsilon_needed(en.laplace(1.0), percent=5, reference=500).epsilon
    assert en.epsilon_needed(en.composed(en.laplace(1.0), 4), percent=5, reference=500).epsilon == pytest.approx(4 * one, rel=1e-6)
    assert en.epsilon_needed(en.share(en.laplace(1.0), 0.5), percent=5, reference=500).epsilon == pytest.approx(2 * one, rel=1e-6)


def _coverage(draw, truth, bound, runs):
    return np.mean(np.abs(np.array([draw(s) for s in range(runs)]) - truth) <= bound)


def test_at_the_epsilon_needed_laplace_releases_stay_within_the_target():
    """≥ 1 − β − 3 SE of seeded releases at the ε found are within ±x % of the (public-size) answer."""
    beta, runs, truth = 0.05, 4000, 1000.0
    need = en.epsilon_needed(en.laplace(1.0), percent=2, reference=truth, beta=beta)
    out = core.laplace_mechanism(np.full(runs, truth), epsilon=need.epsilon, sensitivity=1.0, rng=as_generator(seed=1))
    cov = np.mean(np.abs(out - truth) <= need.target)
    assert cov >= 1 - beta - 3 * math.sqrt(beta * (1 - beta) / runs)
    # and the bound is not vacuous: at a third of that ε, far fewer releases stay within it
    worse = core.laplace_mechanism(np.full(runs, truth), epsilon=need.epsilon / 3, sensitivity=1.0, rng=as_generator(seed=2))
    assert np.mean(np.abs(worse - truth) <= need.target) < 1 - beta - 0.2


def test_at_the_epsilon_needed_rr_counts_stay_within_the_target():
    n, N, beta = 1000, 5, 0.05
    values = np.array(["v0"] * 400 + ["v1"] * 300 + ["v2"] * 150 + ["v3"] * 100 + ["v4"] * 50, dtype=object)
    labels = [f"v{i}" for i in range(N)]
    need = en.epsilon_needed(en.rr_count(n, N), percent=10, reference=n, beta=beta)
    q = core.randomized_response_keep_probability(need.epsilon, N)
    rng = as_generator(seed=3)
    runs = 300
    est = np.array([core.rr_frequency_estimate(core.randomized_response(values, labels, epsilon=need.epsilon, rng=rng), labels,
                                               keep_probability=q)[0] for _ in range(runs)])
    assert np.mean(np.abs(est - 400) <= need.target) >= 1 - beta - 3 * math.sqrt(beta * (1 - beta) / runs)


def test_a_declarations_own_error_bar_is_inverted():
    """declared(): the accuracy= of a declaration (what the CLI prints), with its public parameters."""
    mech = Mechanism(name="toy.capped_count", summary="toy", relation=ADD_REMOVE_ROW, register=False,
                     params=(EPSILON(), Param("cap", int, 2, low=1)),
                     cost=lambda *, epsilon, cap: planned(("laplace", epsilon)),
                     statistics=lambda x, **p: {"n": float(len(x))},
                     noise=lambda s, b, size, *, epsilon, cap: b.add_laplace(s["n"], cap / epsilon),
                     accuracy=lambda *, epsilon, cap: Accuracy.laplace(cap / epsilon, 0.05))
    got = en.epsilon_needed(en.declared(mech, cap=3), percent=5, reference=200, beta=0.05)
    assert got.epsilon == pytest.approx(3 * math.log(20) / 10, rel=1e-6)
    with pytest.raises(ValueError, match="declares no accuracy"):
        en.declared(Mechanism(**{**{k: getattr(mech, k) for k in ("name", "summary", "relation", "params", "cost", "statistics", "noise")},
                                 "register": False}))
    sentence = Mechanism(**{**{k: getattr(mech, k) for k in ("name", "summary", "relation", "params", "cost", "statistics", "noise")},
                            "register": False, "accuracy": lambda **p: "a formula in θ*"})
    with pytest.raises(ValueError, match="sentence"):
        en.epsilon_needed(en.declared(sentence, cap=1), percent=5, reference=100)


def test_out_of_reach_and_bad_input():
    far = en.epsilon_needed(en.rr_count(1000, 10), percent=5, reference=100)
    assert not far.reachable and far.epsilon == math.inf and far.accuracy.bound > far.target
    for kw, msg in (({"percent": 0, "reference": 10}, "positive percentage"), ({"percent": 5, "reference": 0}, "non-zero"),
                    ({"percent": 5, "reference": 10, "beta": 1.5}, "β")):
        with pytest.raises(ValueError, match=msg):
            en.epsilon_needed(en.laplace(1.0), **kw)
    with pytest.raises(ValueError, match="grows with ε"):
        en.epsilon_needed(lambda e, b: Accuracy.laplace(e, b), percent=5, reference=10)


def test_figure_and_panel():
    from dpworkbench.plots import figure_problems
    from dpworkbench.plots.render import rendered_problems, renderer

    fig, table = en.epsilon_needed_figure(en.laplace(1.0), percent=5, reference=1000, what="the count")
    assert table["ε needed"].iloc[0] == pytest.approx(math.log(20) / 50, rel=1e-6)
    assert "ε needed for ±5% of 1,000" in fig.layout.title.text and figure_problems(fig) == []
    if renderer() is not None:
        assert rendered_problems(fig, screen=True) == []
    pytest.importorskip("ipywidgets")
    from dpworkbench import widgets

    panel = en.epsilon_needed_panel(en.laplace(1.0), reference=1000, sizes=[100, 10_000])
    controls = panel.children[1].children
    assert [c.description for c in controls] == ["± %", "1 − β", "size ≈"]
    assert all(len(c.description) <= widgets.LABEL_MAX_CHARS and c.tooltip for c in controls)
    controls[0].value = 1.0  # the panel redraws for ±1 %
    assert "±1%" in panel.figure.layout.title.text


def test_static_panel_still_emits_the_figure(capsys):
    fig = en.epsilon_needed_panel(en.selection(1.0, 20), reference=19, interactive=False)
    assert "ε needed" in fig.layout.title.text


def test_every_learn_notebook_has_the_panel():
    """Issue 28: each learn notebook asks "how much ε for ±x %?" through this module (run headless, the panel's
    figure is displayed: tests/test_notebooks.py executes them in the ci profile)."""
    from dpworkbench.paths import project_root

    books = sorted((project_root() / "notebooks").glob("*/learn_*.py"))
    assert len(books) >= 13
    missing = [p.name for p in books if "epsilon_needed.epsilon_needed_panel(" not in p.read_text(encoding="utf-8")
               or "How much ε do I need for ±x %?" not in p.read_text(encoding="utf-8")]
    assert not missing, f"no ε-needed panel in {missing}"
