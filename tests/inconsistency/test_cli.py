"""The inconsistency command line: JSON, errors, unary DCs, id column, ε spent exactly."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from dpworkbench.inconsistency import FD


def test_cli_json_and_errors(tmp_path, capsys):
    from dpworkbench.cli import main
    from dpworkbench.inconsistency.examples import capital_country

    csv = tmp_path / "t.csv"
    capital_country().to_csv(csv, index=False)
    dc = tmp_path / "dcs.txt"
    dc.write_text("t1&t2&EQ(t1.Capital,t2.Capital)&IQ(t1.Country,t2.Country)\n")
    assert main(["inconsistency", str(csv), "--dcs", str(dc), "--seed", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "NOT_PRIVATE" not in out  # exact values only with --show-exact
    assert set(out["private"]["estimate"]) == {"I_MI", "I_P", "I_R"}
    assert set(out["private"]) == {"estimate", "n_bound", "n_bound_noisy_count", "I_MI", "I_P"}
    assert out["epsilon_spent"] == pytest.approx(1.0)
    # the ten steps of the split add back to the ε asked for (a plain float sum printed 0.9999999999999999 and
    # 0.49999999999999994); not every ε: 0.3's steps are floats whose exact sum is 0.29999999999999993
    for eps in ("1", "0.5"):
        assert main(["inconsistency", str(csv), "--dcs", str(dc), "--seed", "1", "--json", "--epsilon", eps]) == 0
        assert json.loads(capsys.readouterr().out)["epsilon_spent"] == float(eps)
    assert "research" in out["noise"] or "NOT a private release" in out["noise"]
    assert main(["inconsistency", str(csv), "--dcs", str(dc), "--seed", "1", "--json", "--show-exact",
                 "--n-bound", "4"]) == 0
    out = json.loads(capsys.readouterr().out)
    exact = out["NOT_PRIVATE"]["graph_and_exact_measures"]
    assert {k: exact[k] for k in ("n", "edges", "max_degree", "I_MI", "I_P", "I_R_lin", "I_R_exact")} == \
        {"n": 4, "edges": 3, "max_degree": 3, "I_MI": 3, "I_P": 4, "I_R_lin": 1.0, "I_R_exact": 1}
    assert set(out["private"]) == {"estimate", "I_MI", "I_P"} and out["public"]["n_bound"] == 4
    for m in ("I_MI", "I_P", "I_R"):  # each measure's error beside its exact value, from the estimate shown
        d = out["NOT_PRIVATE"][m]
        assert d["rel_error"] == pytest.approx(abs(out["private"]["estimate"][m] - d["true"]) / d["true"])
    assert set(out["public"]["budget split"]) == {"I_MI", "I_P", "I_R"}  # a public n_bound: no row-bound spend
    assert sum(e["epsilon"] for e in out["ledger"]) == pytest.approx(sum(out["public"]["budget split"].values()))
    assert sum(out["public"]["budget split"].values()) == pytest.approx(1.0)
    assert main(["inconsistency", str(csv), "--dcs", str(dc), "--seed", "1", "--show-exact"]) == 0
    text = capsys.readouterr().out
    assert all(line.lstrip().startswith("NOT PRIVATE") for line in text.splitlines() if "exact" in line.lower()
               or line.lstrip().startswith(("NOT PRIVATE",)))
    assert main(["inconsistency", str(csv), "--dcs", str(dc), "--seed", "1"]) == 0
    assert "NOT PRIVATE" not in capsys.readouterr().out
    dc.write_text("not(t1.Capitol=t2.Capitol)\n")
    assert main(["inconsistency", str(csv), "--dcs", str(dc)]) == 2
    assert "unknown attribute 'Capitol'" in capsys.readouterr().err


def test_cli_unary_dcs_and_release_backend_without_seed(tmp_path, capsys):
    from dpworkbench.cli import main

    csv = tmp_path / "t.csv"
    pd.DataFrame({"Age": [-1, 30, 30, 40], "Zip": [1, 2, 3, 4]}).to_csv(csv, index=False)
    dc = tmp_path / "dcs.txt"
    dc.write_text("not(t1.Age<0)\nnot(t1.Age=t2.Age&t1.Zip!=t2.Zip)\n")
    # without --schema every column is text: an order comparison is refused up front, naming the flag
    assert main(["inconsistency", str(csv), "--dcs", str(dc), "--json"]) == 2
    err = capsys.readouterr().err
    assert "--schema" in err and "Age" in err and len(err.strip().splitlines()) == 1
    schema = ["--schema", "Age:int, Zip:int"]
    assert main(["inconsistency", str(csv), "--dcs", str(dc), "--json", *schema]) == 2
    assert "unary" in capsys.readouterr().err
    assert main(["inconsistency", str(csv), "--dcs", str(dc), "--unary-policy", "separate", "--json", *schema]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "NOT_PRIVATE" not in out
    assert "OpenDP" in out["noise"]  # no --seed: OpenDP samplers
    assert out["epsilon_spent"] == pytest.approx(1.0)
    assert main(["inconsistency", str(csv), "--dcs", str(dc), "--unary-policy", "separate", "--json", "--show-exact",
                 *schema]) == 0
    exact = json.loads(capsys.readouterr().out)["NOT_PRIVATE"]["graph_and_exact_measures"]
    assert (exact["unary_violators"], exact["edges"], exact["I_MI"], exact["I_P"]) == (1, 1, 2, 3)


def test_cli_id_column_duplicates_and_nulls_are_released_by_a_public_rule(tmp_path, capsys):
    """Issue 21, finding 6: a repeated or empty key is not refused (that would depend on the rows, and the message
    quoted the key and its count); it is told apart by its occurrence rank."""
    from dpworkbench.cli import main

    csv = tmp_path / "t.csv"
    csv.write_text("id,A,B\n101,0,0\n101,0,1\n,0,2\n")
    dc = tmp_path / "dcs.txt"
    dc.write_text("not(t1.A=t2.A&t1.B!=t2.B)\n")
    assert main(["inconsistency", str(csv), "--dcs", str(dc), "--id-column", "id", "--seed", "0", "--json"]) == 0
    out = capsys.readouterr()
    assert "101" not in out.out + out.err and "occurrence rank" in json.loads(out.out)["public"]["tuple_identity"]
    assert main(["inconsistency", str(csv), "--dcs", str(dc), "--id-column", "key", "--seed", "0"]) == 2
    assert "--id-column 'key'" in capsys.readouterr().err  # a column not in the header: public, refused


def test_cli_run_releases_spends_exactly_epsilon():
    from dpworkbench.accounting import check_ledger_matches
    from dpworkbench.inconsistency.mechanisms import measures_plan, release_measures as run_releases

    df = pd.DataFrame({"A": [0, 0, 0, 1], "B": [0, 1, 2, 0]})
    for n_bound in (None, 10):
        rel = run_releases(df, [FD("A", "B")], epsilon=0.9, backend=np.random.default_rng(0), n_bound=n_bound)
        assert rel.epsilon == pytest.approx(0.9) and ("n_bound" in rel.details) == (n_bound is None)
        assert sum(rel.public["budget split"].values()) == pytest.approx(0.9)
        check_ledger_matches(measures_plan(0.9, n_bound=n_bound, dcs=[FD("A", "B")]), rel.ledger)
