"""Finding 5 (PrivateClean CLI): by default only private values (answers computed from the private relation, with
CIs) and public parameters; exact values only with ``--show-exact``, each labelled NOT PRIVATE; ``--json`` has
private / public / NOT_PRIVATE sections and is valid JSON (NaN → null)."""
from __future__ import annotations

import json

import pandas as pd

from dpworkbench.cli import main


def _csv(tmp_path):
    f = tmp_path / "m.csv"
    pd.DataFrame({"major": ["ME", "Mech E", "EE", "EE", "Math"] * 8, "sat": [3, 4, 5, 4, 2] * 8}).to_csv(f, index=False)
    return str(f)


def _run(capsys, argv):
    assert main(argv) == 0
    return capsys.readouterr().out


BASE = ["--attr", "major", "--p", "0.3", "--domain", "ME,Mech E,EE,Math", "--value-col", "sat", "--b", "1",
        "--bounds", "1,5", "--merge", "Mech E=ME", "--agg", "avg", "--equals", "ME", "--seed", "4"]


def test_default_output_has_no_exact_values(tmp_path, capsys):
    out = _run(capsys, ["privateclean", "query", _csv(tmp_path), *BASE])
    assert "NOT PRIVATE" not in out and "true" not in out.lower()
    assert "privateclean_avg (seeded research value, not a release)" in out and "ci_lo (seeded research value, not a release)" in out and "public inputs" in out
    assert "(private)" not in out  # a seeded run's values are research values, not a release
    assert "research/test run" in out  # --seed: the noise label says it is not a release


def test_show_exact_lines_are_labelled(tmp_path, capsys):
    out = _run(capsys, ["privateclean", "query", _csv(tmp_path), *BASE, "--show-exact"])
    exact = [l for l in out.splitlines() if "true_answer" in l or "error" in l]
    assert exact and all("NOT PRIVATE" in l for l in exact)


def test_json_sections_and_valid_json(tmp_path, capsys):
    # the paper's AVG interval on a small selection with p = 0.6 is unbounded (inf), which must be written as null
    argv = ["privateclean", "query", _csv(tmp_path), "--attr", "major", "--p", "0.6", "--domain", "ME,Mech E,EE,Math",
            "--value-col", "sat", "--b", "1", "--bounds", "1,5", "--agg", "avg", "--equals", "Math", "--ci", "paper",
            "--seed", "4", "--json"]
    raw = _run(capsys, argv)

    def no_nan(c):
        raise AssertionError(f"invalid JSON constant {c}")
    out = json.loads(raw, parse_constant=no_nan)
    assert {"private", "public"} <= set(out) and "NOT_PRIVATE" not in out
    assert out["private"]["ci_hi"] is None and isinstance(out["private"]["privateclean_avg"], float)
    assert out["public"]["p"] == {"major": 0.6} and out["public"]["equals"] == ["Math"]
    out = json.loads(_run(capsys, argv + ["--show-exact"]), parse_constant=no_nan)
    assert set(out["NOT_PRIVATE"]) >= {"true_answer", "privateclean_error"}
    assert "true_answer" not in out["private"] and "true_answer" not in out["public"]
