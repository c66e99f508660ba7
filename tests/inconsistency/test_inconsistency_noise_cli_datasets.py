"""RNoise/CONoise, datasets and calibration, the command line."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from dpworkbench.inconsistency import FD, build, parse_dc
from dpworkbench.inconsistency.datasets import NAMES, calibration, dcs_for, load_table
from dpworkbench.inconsistency.noise_injection import conoise, rnoise, typo


def test_rnoise_counts_checkpoints_and_seeding():
    ds = load_table("Tax", rows=300, seed=0, prefer="synthetic")
    dcs = dcs_for("Tax")
    cps = list(rnoise(ds.data, dcs, 0.01, rng=4, checkpoint_every=10))
    assert cps[0][0] == 0 and cps[-1][0] == int(0.01 * 300 * 15) == 45
    assert [c[0] for c in cps] == [0, 10, 20, 30, 40, 45]
    again = list(rnoise(ds.data, dcs, 0.01, rng=4, checkpoint_every=10))
    assert cps[-1][1].equals(again[-1][1])
    changed = (cps[-1][1] != ds.data).any(axis=0)
    constrained = {a for d in dcs for a in d.attributes}
    assert set(changed[changed].index) <= constrained
    assert ds.data.equals(load_table("Tax", rows=300, seed=0, prefer="synthetic").data)  # input untouched


def test_rnoise_honours_value_probabilities():
    df = pd.DataFrame({"A": list("abcdefghij") * 20, "B": [1] * 200})
    dcs = [FD("A", "B")]
    counts = {}
    for skew in (0.0, 3.0):
        *_, (_, out) = rnoise(df, dcs, 1.0, typo_prob=0.0, skew=skew, rng=1, n_checkpoints=1, all_columns_count=False)
        counts[skew] = out["A"].value_counts()
    assert counts[3.0].max() > 2 * counts[0.0].max()  # the artifact's slip made both uniform


def test_typo_rules():
    r = np.random.default_rng(0)
    assert typo("abc", r).startswith("abc") and len(typo("abc", r)) == 4
    v = typo(1234, r)
    assert isinstance(v, int) and sum(a != b for a, b in zip(str(v).zfill(4), "1234")) == 1
    d = typo("2019-01-05", r)
    assert len(d) == 10 and d[4] == "-"


def test_conoise_creates_violations():
    ds = load_table("Hospital", rows=400, seed=0, prefer="synthetic")
    dcs = dcs_for("Hospital")
    cps = list(conoise(ds.data, dcs, 40, checkpoint_every=10, rng=2))
    assert [c[0] for c in cps] == [0, 10, 20, 30, 40]
    edges = [build(df, dcs).num_edges for _, df in cps]
    assert edges[0] == 0 and edges[-1] > 0
    gl = [parse_dc("not(t1.Gain<t2.Gain&t1.Loss<t2.Loss)")]
    adult = load_table("Adult", rows=300, seed=0).data
    *_, (_, noisy) = conoise(adult, gl, 20, checkpoint_every=20, rng=0)
    assert build(noisy, gl).num_edges >= 1


@pytest.mark.parametrize("name", NAMES)
def test_every_dataset_has_a_consistent_synthetic_stand_in(name):
    ds = load_table(name, rows=500, seed=3, prefer="synthetic")
    assert ds.source == "synthetic" and len(ds.data) == 500
    dcs = dcs_for(name)
    assert build(ds.data, dcs).num_edges == 0  # datasets start consistent
    assert ds.data.shape[1] == {"Adult": 15, "Flight": 20, "Hospital": 15, "Stock": 7, "Tax": 15}[name]


def test_adult_real_and_user_csv(tmp_path):
    ds = load_table("Adult", rows=1000, seed=0)
    if ds.source == "real":
        assert list(ds.data.columns)[:3] == ["Age", "WorkClass", "Fnlwgt"]
    p = tmp_path / "stock.csv"
    load_table("Stock", rows=50, prefer="synthetic").data.to_csv(p, index=False)
    user = load_table("Stock", rows=None, path=p)
    assert user.source == "real" and len(user.data) == 50
    pd.DataFrame({"x": [1]}).to_csv(tmp_path / "bad.csv", index=False)
    with pytest.raises(ValueError, match="lacks the columns"):
        load_table("Stock", path=tmp_path / "bad.csv")
    with pytest.raises(ValueError, match="unknown dataset"):
        load_table("Nope")


def test_tax_generator_scales_and_stays_consistent():
    ds = load_table("Tax", rows=50000, seed=1, prefer="synthetic")
    assert build(ds.data, dcs_for("Tax")).num_edges == 0


def test_cli_json_and_errors(tmp_path, capsys):
    from dpworkbench.cli import main
    from dpworkbench.inconsistency.examples import capital_country

    csv = tmp_path / "t.csv"
    capital_country().to_csv(csv, index=False)
    dc = tmp_path / "dcs.txt"
    dc.write_text("t1&t2&EQ(t1.Capital,t2.Capital)&IQ(t1.Country,t2.Country)\n")
    assert main(["inconsistency", str(csv), "--dcs", str(dc), "--seed", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"private", "public"}  # exact values only with --show-exact
    assert set(out["private"]) == {"n_bound", "I_MI", "I_P", "I_R"}
    assert out["public"]["epsilon_spent"] == pytest.approx(1.0)
    assert "research" in out["public"]["noise"] or "NOT a private release" in out["public"]["noise"]
    assert main(["inconsistency", str(csv), "--dcs", str(dc), "--seed", "1", "--json", "--show-exact",
                 "--n-bound", "4"]) == 0
    out = json.loads(capsys.readouterr().out)
    exact = out["NOT_PRIVATE"]["graph_and_exact_measures"]
    assert {k: exact[k] for k in ("n", "edges", "max_degree", "I_MI", "I_P", "I_R_lin", "I_R_exact")} == \
        {"n": 4, "edges": 3, "max_degree": 3, "I_MI": 3, "I_P": 4, "I_R_lin": 1.0, "I_R_exact": 1}
    assert set(out["private"]) == {"I_MI", "I_P", "I_R"} and out["public"]["n_bound"] == 4
    eps_sum = sum(sum(e["epsilon"] for e in out["public"]["releases"][k]["ledger"]) for k in ("I_MI", "I_P", "I_R"))
    assert eps_sum == pytest.approx(1.0)
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
    assert main(["inconsistency", str(csv), "--dcs", str(dc), "--json"]) == 2
    assert "unary" in capsys.readouterr().err
    assert main(["inconsistency", str(csv), "--dcs", str(dc), "--unary-policy", "separate", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "NOT_PRIVATE" not in out
    assert "OpenDP" in out["public"]["noise"]  # no --seed: OpenDP samplers
    assert out["public"]["epsilon_spent"] == pytest.approx(1.0)
    assert main(["inconsistency", str(csv), "--dcs", str(dc), "--unary-policy", "separate", "--json", "--show-exact"]) == 0
    exact = json.loads(capsys.readouterr().out)["NOT_PRIVATE"]["graph_and_exact_measures"]
    assert (exact["unary_violators"], exact["edges"], exact["I_MI"], exact["I_P"]) == (1, 1, 2, 3)


def test_cli_id_column_must_be_a_key(tmp_path, capsys):
    from dpworkbench.cli import main

    csv = tmp_path / "t.csv"
    pd.DataFrame({"id": [1, 2, 2], "A": [0, 0, 0], "B": [0, 1, 2]}).to_csv(csv, index=False)
    dc = tmp_path / "dcs.txt"
    dc.write_text("not(t1.A=t2.A&t1.B!=t2.B)\n")
    assert main(["inconsistency", str(csv), "--dcs", str(dc), "--id-column", "id", "--seed", "0"]) == 2
    assert "not a key" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["Stock", "Tax", "Hospital", "Flight"])
def test_synthetic_generators_are_calibrated_to_table5(name):
    """10k rows, 1 % RNoise: the maximum degree lies within ±25 % of Table 5 (Stock: exactly 1), two seeds."""
    for seed in (0, 1):
        cal = calibration(name, seed=seed)
        assert cal["source"] == "synthetic" and cal["rows"] == 10000
        assert cal["within_25pct"], cal
        assert any(k.startswith("generator_") for k in cal)  # the generator reports its own statistics
