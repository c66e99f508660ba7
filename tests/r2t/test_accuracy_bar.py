"""R2T's noise-only error bar (issue 28, item 4): the declared interval covers what it says it covers in at least
1 − β − 3 SE of seeded runs, and the CLI prints it (text and ``--json``) next to every estimate."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dpworkbench.cli import main
from dpworkbench.r2t.mechanisms import R2T, instance_stats, r2t_accuracy, tau_grid
from dpworkbench.r2t.model import Truncation


def _instance():
    """A star-heavy edge-count instance: large enough that R2T usually leaves its floor, so the winning-τ
    statement is exercised, with DS > τ_1 so truncation matters."""
    from dpworkbench.graphs.core import from_edge_array
    from dpworkbench.r2t.patterns import graph_joininfo

    rng = np.random.default_rng(5)
    edges = {tuple(sorted(e)) for e in rng.integers(0, 60, (400, 2)) if e[0] != e[1]}
    edges |= {(0, j) for j in range(1, 40)}
    return graph_joininfo(from_edge_array(np.array(sorted(edges)), 60), "edge")


def test_r2t_interval_covers_the_truncated_answer_at_the_winning_tau():
    """[Q̃, Q̃ + 2K ln(K/β) τ*/ε] ∋ Q(I, τ*) on the event all |Lap| ≤ penalty (probability ≥ 1 − β); with half the
    bound (a Laplace-tail bound per draw only, no factor 2) coverage would fall far below 1 − β."""
    info = _instance()
    p = R2T.check_params({"epsilon": 2.0, "gs": 64.0, "beta": 0.2, "prune": False})
    stats = instance_stats(Truncation(info, "auto"))
    taus = tau_grid(p["gs"], p["base"])
    R, covered, left_floor, half = 600, 0, 0, 0
    for seed in range(R):
        rel = R2T.release(info, rng=seed, statistics=stats, **p)
        tau = rel.details["winner_tau"]
        left_floor += tau is not None
        acc = R2T.accuracy(tau=float(taus[0]) if tau is None else tau, **p)
        lo, hi = acc.interval(rel.value)
        q = stats.q(float(taus[0]) if tau is None else tau)
        covered += lo - 1e-9 <= q <= hi + 1e-9
        half += rel.value <= q <= rel.value + acc.bound / 2
    se = (p["beta"] * (1 - p["beta"]) / R) ** 0.5
    assert left_floor > R / 2  # the statement at the winning τ is what is measured, not the floor's
    assert covered / R >= 1 - p["beta"] - 3 * se
    assert half / R < 1 - p["beta"] - 3 * se  # the factor 2 is needed: the test can fail


def test_r2t_interval_at_tau_K_covers_the_true_answer_fast():
    """At τ_K ≥ GS ≥ DS there is no truncation: [Q̃, Q̃ + bound(τ_K)] covers Q(I) (through R2T.sample)."""
    info = _instance()
    p = R2T.check_params({"epsilon": 1.0, "gs": 64.0, "beta": 0.1})
    stats = R2T.statistics(info, **p)
    out = R2T.sample(stats, size=4000, rng=1, **p)
    acc = R2T.accuracy(**p)  # the --plan form: worst case τ_K
    lo, hi = out, out + acc.bound
    rate = np.mean((lo <= info.answer) & (info.answer <= hi))
    assert rate >= 1 - 0.1 - 3 * (0.1 * 0.9 / 4000) ** 0.5


def test_r2t_accuracy_from_public_inputs_only():
    a = r2t_accuracy(epsilon=1.0, gs=16.0, beta=0.1, tau=4.0)
    K = 4
    assert a.noise_scale == pytest.approx(K * 4.0) and a.bound == pytest.approx(2 * K * np.log(K / 0.1) * 4.0)
    assert a.interval(10.0) == (10.0, pytest.approx(10.0 + a.bound))


@pytest.fixture()
def files(tmp_path):
    (tmp_path / "g.txt").write_text("0\t1\n1\t2\n2\t0\n2\t3\n3\t0\n")
    (tmp_path / "cust.csv").write_text("id,name\n1,a\n2,b\n3,c\n")
    (tmp_path / "orders.csv").write_text("oid,cid,price\n1,1,5\n2,1,7\n3,2,1\n4,3,2\n5,3,2\n")
    (tmp_path / "s.sql").write_text("CREATE TABLE cust(id INT PRIMARY KEY, name TEXT);\n"
                                    "CREATE TABLE orders(oid INT PRIMARY KEY, cid INT REFERENCES cust(id), price DOUBLE);\n")
    return tmp_path


def _sql(files, query, *more):
    return ["r2t", "sql", query, "--schema", str(files / "s.sql"), "--table", f"cust={files / 'cust.csv'}",
            "--table", f"orders={files / 'orders.csv'}", "--private", "cust", "--gs", "100", *more]


def test_cli_prints_the_error_bar_per_estimate_and_group(files, capsys):
    assert main(["r2t", "graph", str(files / "g.txt"), "--max-degree", "4", "--seed", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    a = out["accuracy"]["estimate"]
    assert set(a) >= {"noise_scale", "interval", "beta"} and a["beta"] == 0.1
    assert a["interval"][0] == out["private"]["estimate"] and a["interval"][1] > a["interval"][0]
    q = "SELECT c.name, SUM(o.price) FROM cust c, orders o WHERE c.id=o.cid GROUP BY c.name"
    assert main(_sql(files, q, "--groups", "c.name=a|b|c", "--seed", "1", "--json")) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["accuracy"]) == {"estimate[a]", "estimate[b]", "estimate[c]"}
    for (name, a), est in zip(sorted(out["accuracy"].items()), out["private"]["estimate"]):
        assert a["interval"][0] == est and a["noise_scale"] > 0
    assert main(_sql(files, q, "--groups", "c.name=a|b|c", "--seed", "1")) == 0
    text = capsys.readouterr().out
    assert text.count("error bar of estimate[") == 3 and "covers the noise only" in text
    assert "None" not in text  # a group at the floor says so instead of printing None


def test_winner_tau_none_is_never_printed(files, capsys):
    """An empty graph always sits at R2T's floor: the output says there is no winning τ, never 'None'."""
    (files / "empty.txt").write_text("")
    assert main(["r2t", "graph", str(files / "empty.txt"), "--max-degree", "4", "--seed", "0"]) == 0
    text = capsys.readouterr().out
    assert "winner_tau" not in text and "None" not in text and "no winning τ" in text
    assert "error bar (public parameters only): 90% noise-only interval [0," in text
    # JSON keeps the key, null: a reader of the private section finds the same fields on every run
    assert main(["r2t", "graph", str(files / "empty.txt"), "--max-degree", "4", "--seed", "0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["private"] == {"estimate": 0.0, "winner_tau": None}


def test_plan_prints_ledger_and_expected_error_before_reading(files, capsys):
    """--plan touches no data: the edge list may not even exist."""
    assert main(["r2t", "graph", str(files / "missing.txt"), "--max-degree", "4", "--plan"]) == 0
    text = capsys.readouterr().out
    assert "would spend ε = 1" in text and "expected noise error:" in text
    assert main(["r2t", "graph", str(files / "missing.txt"), "--max-degree", "4", "--plan", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["accuracy"]["noise_scale"] == pytest.approx(2 * 4 / 1.0)  # K τ_K / ε with K = 2, τ_K = 4


def test_required_flags_do_not_claim_a_default():
    """--gs and --private are required for SQL (and --gs or --max-degree for graphs): the help must say so, not
    '(default: none)'."""
    from dpworkbench.cli import build_parser

    def sub(*names):
        p = build_parser()
        for n in names:
            p = next(a for a in p._actions if hasattr(a, "choices") and isinstance(a.choices, dict)).choices[n]
        return {o: a.help for a in p._actions for o in a.option_strings}

    sql, graph = sub("r2t", "sql"), sub("r2t", "graph")
    for h in (sql["--gs"], sql["--private"], graph["--gs"], graph["--max-degree"]):
        assert "(default: none)" not in h and "required" in h
