"""The dampening selections' error bars (issue 28, item 4): a (1 − β) bound on the utility loss, checked over
seeded draws of the declarations' own noise (``.sample``), and printed by the CLI (text, ``--json``, ``--plan``)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from dpworkbench.cli import main
from dpworkbench.dampening.mechanisms import MEDIAN, PERCENTILE, SELECTION_BETA, TOPK_GRAPH


def _hard_median(m=20, lam=10.0):
    """m values at 0, one at Λ/2, m at Λ: every row but one is Λ/2 from the median, the EM tail bound's worst case."""
    return np.array([0.0] * m + [lam / 2] + [lam] * m), lam


@pytest.mark.parametrize("selector", ["EM", "PF", "LD"])
def test_median_loss_bound_covers(selector):
    """At ε = 1.05·4·ln(n/β) the bound 2Λ·ln(n/β)/ε is just below Λ/2, so it holds only because a Λ/2 loss has
    probability below β: the coverage is close to 1 − β and a bound without the ln n (a union over the rows) fails."""
    x, lam = _hard_median()
    n, beta = x.size, SELECTION_BETA
    eps = 1.05 * 4 * math.log(n / beta)
    decl = MEDIAN[selector]
    p = decl.check_params({"epsilon": eps, "lower": 0.0, "upper": lam})
    stats = decl.statistics(x, **p)
    R = 6000
    idx = decl.sample(stats, size=R, rng=7, **p)
    loss = np.abs(x[idx] - stats["target"])
    acc = decl.accuracy(n=n, **p)
    lo, hi = acc.interval(None)
    se = (beta * (1 - beta) / R) ** 0.5
    assert lo == 0.0 and hi < lam / 2
    assert np.mean(loss <= hi) >= 1 - beta - 3 * se
    if selector == "EM":
        # the ln(n) (a union over the rows) matters: a bound 2Λ·ln(1/β)/ε' alone, at the ε' where it falls just
        # below Λ/2, is broken by the draws, while the declared bound at ε' (above Λ/2) holds
        eps_w = 1.05 * 4 * math.log(1 / beta)
        pw = decl.check_params({"epsilon": eps_w, "lower": 0.0, "upper": lam})
        loss_w = np.abs(x[decl.sample(stats, size=R, rng=8, **pw)] - stats["target"])
        assert np.mean(loss_w <= 2 * lam * math.log(1 / beta) / eps_w) < 1 - beta - 3 * se
        assert np.mean(loss_w <= decl.accuracy(n=n, **pw).interval(None)[1]) >= 1 - beta - 3 * se


def test_percentile_bound_is_the_same_form():
    p = PERCENTILE["EM"].check_params({"epsilon": 2.0, "lower": 0.0, "upper": 10.0, "p": 0.9})
    acc = PERCENTILE["EM"].accuracy(n=50, **p)
    assert acc.bound == pytest.approx(2 * 10 * math.log(50 / SELECTION_BETA) / 2.0)
    assert acc.interval(None) == (0.0, 10.0)  # capped at Λ: the loss is a distance in [0, Λ]
    assert isinstance(PERCENTILE["EM"].accuracy(**p), str)  # before the file is read n is unknown: a formula in n


def test_topk_first_draw_loss_bound_covers():
    """PrivTopk EM: the first draw's EBC loss against the best node is within the per-draw bound (β/k each)."""
    from dpworkbench.dampening.mechanisms import graph_topk_statistics

    rng = np.random.default_rng(2)
    edges = rng.integers(0, 25, (70, 2))
    decl = TOPK_GRAPH["EM"]
    p = decl.check_params({"epsilon": 40.0, "k": 2, "max_degree_bound": 4})
    stats = graph_topk_statistics((25, edges), method="EM", max_degree_bound=4)
    out = decl.sample(stats, size=1000, rng=3, **p)
    first = np.asarray(out)[:, 0]
    loss = stats["ebc"].max() - stats["ebc"][first]
    acc = decl.accuracy(nodes=25, **p)
    assert np.mean(loss <= acc.interval(None)[1]) >= 1 - SELECTION_BETA / 2 - 3 * (0.025 * 0.975 / 1000) ** 0.5


@pytest.fixture()
def files(tmp_path):
    rng = np.random.default_rng(0)
    (tmp_path / "v.csv").write_text("v\n" + "\n".join(f"{x:.2f}" for x in rng.uniform(0, 100, 40)))
    (tmp_path / "e.txt").write_text("\n".join(f"{a} {b}" for a, b in rng.integers(0, 20, (50, 2)) if a != b))
    (tmp_path / "nodes.txt").write_text("\n".join(map(str, range(20))))
    return tmp_path


@pytest.mark.parametrize("cmd", [["median"], ["percentile", "--p", "0.9"]])
def test_cli_selection_prints_its_bound(files, capsys, cmd):
    argv = ["dampening", *cmd, str(files / "v.csv"), "--column", "v", "--upper", "100", "--epsilon", "50",
            "--mechanism", "EM", "--seed", "1"]
    assert main(argv + ["--json"]) == 0
    a = json.loads(capsys.readouterr().out)["accuracy"]["row"]
    assert a["beta"] == SELECTION_BETA and a["interval"] == [0.0, pytest.approx(2 * 100 * math.log(40 / 0.05) / 50)]
    assert main(argv) == 0
    assert "error bar (public parameters only): 95% noise-only interval [0, " in capsys.readouterr().out
    assert main(argv[:2 + len(cmd) - 1] + [str(files / "missing.csv")] + argv[3 + len(cmd) - 1:] + ["--plan"]) == 0
    assert "expected noise error: with probability ≥ 0.95" in capsys.readouterr().out  # no file read


def test_cli_topk_prints_its_bound(files, capsys):
    argv = ["dampening", "topk", str(files / "e.txt"), "--nodes", str(files / "nodes.txt"), "--max-degree-bound", "4",
            "--k", "2", "--mechanism", "EM", "--seed", "1"]
    assert main(argv + ["--json"]) == 0
    a = json.loads(capsys.readouterr().out)["accuracy"]["nodes"]
    assert a["interval"][0] == 0 and a["interval"][1] > 0 and a["noise_scale"] > 0
    assert main(argv + ["--plan"]) == 0
    assert "expected noise error: 95% noise-only interval" in capsys.readouterr().out
