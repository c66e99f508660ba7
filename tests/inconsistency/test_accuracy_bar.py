"""The inconsistency releases' noise-only error bars (issue 28, item 4): coverage over seeded runs, and the CLI's
text, ``--json`` and ``--plan``."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from dpworkbench.cli import main
from dpworkbench.inconsistency.conflict_graph import build
from dpworkbench.inconsistency.constraints import FD
from dpworkbench.inconsistency.mechanisms import I_MI, I_P, VERTEX_COVER, Statistics, graph_projection
from dpworkbench.inconsistency.model import Projector


def _table(n=80, seed=3):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"A": rng.integers(0, 8, n), "B": rng.integers(0, 3, n)})


@pytest.mark.parametrize("measure, decl", [("MI", I_MI), ("P", I_P)])
def test_projection_interval_covers_the_projected_measure(measure, decl):
    """|release − f(π_θ*(G))| ≤ Δ(θ*)/ε₂·ln(1/β) in ≥ 1 − β − 3 SE of seeded releases (clipping to the public range
    only helps); with half the bound coverage falls well below 1 − β, so the test can fail."""
    df, dcs = _table(), [FD("A", "B")]
    g = build(df, dcs)
    proj = Projector(g, rule="rank", seed=0)
    R, eps, nb = 400, 0.5, 100
    covered = half = 0
    for seed in range(R):
        rel = graph_projection(g, measure, eps, df=df, dcs=dcs, projector=proj, rng=seed, n_bound=nb)
        acc = decl.accuracy(epsilon=eps, n_bound=nb, theta=rel.details["theta_star"])
        lo, hi = acc.interval(rel.value)
        truth = rel.exact["truncated"]
        covered += lo <= truth <= hi
        half += abs(rel.value - truth) <= acc.bound / 2
    beta = acc.beta
    se = (beta * (1 - beta) / R) ** 0.5
    assert covered / R >= 1 - beta - 3 * se
    assert half / R < 1 - beta - 3 * se


def test_vertex_cover_interval_covers_c_fast():
    """Through VERTEX_COVER.sample (one vectorised draw of R outputs)."""
    df, dcs = _table(), [FD("A", "B")]
    stats = Statistics(build(df, dcs))
    c = float(stats.cover())
    R, eps, nb = 20000, 0.3, 100
    out = VERTEX_COVER.sample(stats, size=R, rng=0, epsilon=eps, n_bound=nb)
    acc = VERTEX_COVER.accuracy(epsilon=eps, n_bound=nb)
    lo, hi = np.maximum(out - acc.bound, 0.0), np.minimum(out + acc.bound, nb)
    rate = np.mean((lo <= c) & (c <= hi))
    assert rate >= 1 - acc.beta - 3 * (acc.beta * (1 - acc.beta) / R) ** 0.5
    assert np.all([acc.interval(v) == (lo[i], hi[i]) for i, v in enumerate(out[:50])])


@pytest.fixture()
def table(tmp_path):
    path = tmp_path / "t.csv"
    _table(40).to_csv(path, index=False)
    return path


def test_cli_prints_each_error_bar(table, capsys):
    dc = "not(t1.A=t2.A&t1.B!=t2.B)"
    assert main(["inconsistency", str(table), "--dc", dc, "--seed", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["accuracy"]) == {"n_bound", "I_MI", "I_P", "I_R"}
    for k in ("I_MI", "I_P", "I_R"):
        a = out["accuracy"][k]
        lo, hi = a["interval"]
        assert a["noise_scale"] > 0 and a["beta"] == 0.05 and lo <= out["private"]["estimate"][k] <= hi and lo >= 0
    # I_P is clipped to the (private, released) row bound
    assert out["accuracy"]["I_P"]["interval"][1] <= out["private"]["n_bound"]
    assert main(["inconsistency", str(table), "--dc", dc, "--seed", "1", "--n-bound", "50"]) == 0
    text = capsys.readouterr().out
    assert sum(text.count(f"error bar of {k} (public parameters only): 95% noise-only interval")
               for k in ("I_MI", "I_P", "I_R")) == 3 and "error bar of n_bound" not in text
    assert "covers the noise only" in text


def test_cli_plan_states_the_expected_error(table, capsys):
    dc = "not(t1.A=t2.A&t1.B!=t2.B)"
    assert main(["inconsistency", str(table), "--dc", dc, "--plan", "--n-bound", "50", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["accuracy"]) == {"I_MI", "I_P", "I_R"}
    per = 1.0 / 3
    assert out["accuracy"]["I_R"]["noise_scale"] == pytest.approx(2 / per)
    assert out["accuracy"]["I_MI"]["noise_scale"] == pytest.approx(50 / (0.6 * per))  # worst case θ* = n_bound
    assert main(["inconsistency", str(table), "--dc", dc, "--plan"]) == 0
    text = capsys.readouterr().out
    assert "expected noise error of I_MI" in text and "expected noise error of n_bound" in text
