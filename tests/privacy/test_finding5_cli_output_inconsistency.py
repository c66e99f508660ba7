"""Finding 5 (inconsistency): the CLI printed exact statistics (n, edges, max degree, the exact measures) next to the
private estimates. By default only private values and public inputs are printed; exact values need --show-exact
and are labelled NOT PRIVATE; in --json every field sits under private, public or NOT_PRIVATE."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from dpworkbench.cli import main

EXACT_WORDS = ("edges", "max_degree", "max degree", "I_R_lin", "true")


@pytest.fixture()
def files(tmp_path):
    csv = tmp_path / "t.csv"
    pd.DataFrame({"A": [0] * 6, "B": [0, 0, 1, 0, 1, 2]}).to_csv(csv, index=False)
    dcs = tmp_path / "t.dcs"
    dcs.write_text("not(t1.A=t2.A&t1.B!=t2.B)\n")
    return str(csv), str(dcs)


def _run(capsys, argv):
    assert main(argv) == 0
    return capsys.readouterr().out


def test_finding5_json_has_only_private_and_public_sections(capsys, files):
    csv, dcs = files
    out = json.loads(_run(capsys, ["inconsistency", csv, "--dcs", dcs, "--seed", "1", "--json"]))
    # the one emitter's sections: private, public (and the ledger, ε, noise source: public too), accuracy
    assert set(out) <= {"private", "public", "public_derived_from_data", "epsilon_spent", "ledger", "noise",
                        "private_as_claimed", "accuracy", "notes", "null_reasons"}
    assert set(out["private"]["estimate"]) == {"I_MI", "I_P", "I_R"}
    # n_bound: the private size bound (and its noisy count); I_MI, I_P: their private θ*, θ_1, degree bound
    assert set(out["private"]) <= {"estimate", "n_bound", "n_bound_noisy_count", "I_MI", "I_P"}
    # the error bars (issue 28): one per private value, from public inputs and the released θ* only
    assert set(out["accuracy"]) <= {"n_bound", *out["private"]["estimate"]}
    flat = json.dumps(out["private"]) + json.dumps(out["accuracy"])
    assert not any(w in flat for w in EXACT_WORDS), flat


def test_finding5_exact_values_only_with_show_exact_and_labelled(capsys, files):
    csv, dcs = files
    plain = _run(capsys, ["inconsistency", csv, "--dcs", dcs, "--seed", "1"])
    assert "NOT PRIVATE" not in plain
    assert not any(line.lower().startswith(("n:", "edges", "max degree")) for line in plain.splitlines())
    shown = _run(capsys, ["inconsistency", csv, "--dcs", dcs, "--seed", "1", "--show-exact"])
    extra = [ln.strip() for ln in shown.splitlines() if ln not in plain.splitlines()]
    assert extra and all(ln.startswith("NOT PRIVATE") for ln in extra), extra
    js = json.loads(_run(capsys, ["inconsistency", csv, "--dcs", dcs, "--seed", "1", "--json", "--show-exact"]))
    assert "NOT_PRIVATE" in js and js["NOT_PRIVATE"]
