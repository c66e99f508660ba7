"""R2T / OPT²'s release entry points through the privacy harness (user-level neighbours: one primary private
tuple with its foreign-key dependants; one node with its edges), plus the installed command end to end."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from dpworkbench.r2t.harness import entry_points
from dpworkbench.testing.harness import check_entry_point

# the --engine spark entry is a Spark run per statistic: tests/spark/test_spark_r2t_harness.py checks it
ENTRIES = {e.name: e for e in entry_points() if "--engine spark" not in e.name}
SLOW: set[str] = set()  # the SQL CLI entry runs with a small audit pilot (each run opens DuckDB)
CLI = Path(__file__).resolve().parents[2] / ".venv" / "bin" / "dpworkbench"


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in ENTRIES])
def test_entry_point(name):
    entry = ENTRIES[name]
    rep = check_entry_point(entry)
    assert rep.sensitivity.pairs >= 9
    if entry.expect_flagged:
        assert rep.flagged, f"labelled paper option not caught:\n{rep}"
    else:
        assert not rep.flagged, str(rep)
        assert rep.sensitivity.worst_ratio == pytest.approx(1.0), str(rep)  # the claimed sensitivity is attained


def _run(*args):
    out = subprocess.run([str(CLI), *args], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_installed_command_sections_and_noise(tmp_path):
    (tmp_path / "g.txt").write_text("0\t1\n1\t2\n2\t0\n2\t3\n")
    (tmp_path / "cust.csv").write_text("id\n1\n2\n")
    (tmp_path / "orders.csv").write_text("oid,cid\n1,1\n2,1\n3,2\n")
    graph = ["r2t", "graph", str(tmp_path / "g.txt"), "--gs", "8"]
    sql = ["r2t", "sql", "SELECT COUNT(*) FROM cust c, orders o WHERE c.id = o.cid", "--table",
           f"cust={tmp_path / 'cust.csv'}", "--table", f"orders={tmp_path / 'orders.csv'}", "--private", "c:id",
           "--gs", "4"]
    for argv in (graph, sql):
        out = json.loads(_run(*argv, "--json"))  # no --seed: a release
        assert {"private", "public", "ledger", "noise"} <= set(out) and "NOT_PRIVATE" not in out
        assert out["noise"].startswith("OpenDP") and out["epsilon_spent"] == pytest.approx(1.0)
        text = _run(*argv, "--seed", "3")
        assert "NOT PRIVATE" not in text and "seeded numpy" in text
        shown = json.loads(_run(*argv, "--seed", "3", "--json", "--show-exact"))
        assert "answer" in shown["NOT_PRIVATE"] and "answer" not in shown["private"]


def test_group_by_entries_check_the_declared_per_group_sensitivity():
    # the GROUP BY entries brute-force R2T_GROUP_BY's own statistics against its own sensitivity (nothing restated in
    # the harness): the same declaration claiming τ/2 per group (and for the parallel sum) is caught
    import numpy as np

    from dpworkbench.r2t.mechanisms import R2T_GROUP_BY
    from dpworkbench.testing.harness import check_sensitivity

    honest = R2T_GROUP_BY.sensitivity
    object.__setattr__(R2T_GROUP_BY, "sensitivity", lambda **p: {k: d / 2 for k, d in honest(**p).items()})
    try:
        for e in (e for e in entry_points() if "GROUP BY" in e.name):
            rep = check_sensitivity(e, np.random.default_rng(0))
            assert rep.violations and rep.worst_ratio == pytest.approx(2.0), (e.name, rep.violations)
    finally:
        object.__setattr__(R2T_GROUP_BY, "sensitivity", honest)
