"""Every inconsistency release entry point (API and CLI) through the privacy harness, and the installed
``dpworkbench inconsistency`` command's output sections (issue 11, findings 1, 5 and 6)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from dpworkbench.inconsistency.harness import entry_points
from dpworkbench.testing.harness import check_entry_point

# the --engine spark entry is a Spark run per statistic: tests/spark/test_spark_inconsistency_harness.py checks it
ENTRIES = [e for e in entry_points() if "--engine spark" not in e.name]


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_entry_point(entry):
    rep = check_entry_point(entry, seed=0)
    assert rep.flagged == entry.expect_flagged, str(rep)


def _installed() -> Path:
    exe = Path(sys.executable).parent / "dpworkbench"
    if not exe.exists():
        pytest.skip("the dpworkbench command is not installed in this environment")
    return exe


def _run(args):
    out = subprocess.run([str(_installed()), "inconsistency", *args], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_installed_command_sections(tmp_path):
    csv, dcs = tmp_path / "t.csv", tmp_path / "dcs.txt"
    pd.DataFrame({"A": [0, 0, 0, 1, 1, 2], "B": [0, 1, 2, 0, 0, 1]}).to_csv(csv, index=False)
    dcs.write_text("not(t1.A=t2.A&t1.B!=t2.B)\n")
    seeded = json.loads(_run([str(csv), "--dcs", str(dcs), "--seed", "3", "--json"]))
    assert "NOT_PRIVATE" not in seeded
    assert set(seeded["accuracy"]) <= {"n_bound", *seeded["private"]["estimate"]}
    assert set(seeded["private"]["estimate"]) == {"I_MI", "I_P", "I_R"} and "n_bound" in seeded["private"]
    assert "NOT a private release" in seeded["noise"]
    text = _run([str(csv), "--dcs", str(dcs), "--seed", "3"])
    assert "NOT PRIVATE" not in text
    release = json.loads(_run([str(csv), "--dcs", str(dcs), "--json"]))  # no seed: a release
    assert "OpenDP" in release["noise"] and "NOT_PRIVATE" not in release
    assert release["epsilon_spent"] == pytest.approx(1.0)
    exact = json.loads(_run([str(csv), "--dcs", str(dcs), "--seed", "3", "--json", "--show-exact"]))
    assert set(exact) == set(seeded) | {"NOT_PRIVATE"}
    assert exact["NOT_PRIVATE"]["graph_and_exact_measures"]["I_MI"] == 3
    text = _run([str(csv), "--dcs", str(dcs), "--seed", "3", "--show-exact"])
    for line in text.splitlines():
        if any(k in line for k in ("true", "I_R_lin", "max_degree", "edges:", "rel_error")):
            assert line.strip().startswith("NOT PRIVATE"), line
    helptext = subprocess.run([str(_installed()), "inconsistency", "--help"], capture_output=True, text=True).stdout
    helptext = " ".join(helptext.split())  # the shared description is wrapped: compare words, not lines
    assert "research run on seeded numpy noise, NOT a private release" in helptext
    assert "Neighbouring relation: add or remove one row" in helptext and "PUBLIC" in helptext
