"""Finding 6 (PrivateClean): what the release treats as public is stated (numpydoc "Treated as public"), accepted as
arguments, and — where read off the data (a domain from the values present, Δ from the data range) — recorded in
``Release.derived_public`` and printed by the CLI. The neighbouring relation is stated."""
from __future__ import annotations

import json
import warnings

import pandas as pd

from dpworkbench.cli import main
from dpworkbench.privateclean import grr

DF = pd.DataFrame({"c": ["x", "y", "y", "z"], "v": [0.0, 3.0, 7.0, 9.0]})


def test_docstring_states_public_inputs_and_relation():
    doc = grr.__doc__
    assert "Treated as public" in doc and "number of rows" in doc and "domain" in doc and "bounds" in doc
    assert "Substitute one record" in doc


def test_declared_inputs_are_public_and_nothing_is_derived():
    rel = grr(DF, {"c": 0.2}, {"v": 1.0}, domains={"c": ["x", "y", "z", "w"]}, bounds={"v": (0.0, 10.0)}, rng=0)
    assert rel.derived_public == ()
    pub = rel.public
    assert pub["rows"] == 4 and pub["p"] == {"c": 0.2} and pub["b"] == {"v": 1.0}
    assert pub["domain"] == {"c": ["x", "y", "z", "w"]} and pub["bounds"] == {"v": [0.0, 10.0]} and pub["delta"] == {"v": 10.0}


def test_data_derived_domain_and_range_are_recorded():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rel = grr(DF, {"c": 0.2}, {"v": 1.0}, rng=0)
    assert set(rel.derived_public) == {"domain[c]", "delta[v]"}
    assert rel.public["delta"] == {"v": 9.0} and sorted(rel.public["domain"]["c"]) == ["x", "y", "z"]


def test_cli_prints_data_derived_public_values(tmp_path, capsys):
    f = tmp_path / "d.csv"
    DF.to_csv(f, index=False)
    argv = ["privateclean", "query", str(f), "--attr", "c", "--p", "0.2", "--equals", "y", "--seed", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "derived from the data: domain[c]" in out and "substitute one record" in out
    assert main(argv + ["--json"]) == 0
    js = json.loads(capsys.readouterr().out)
    assert js["public_derived_from_data"] == ["domain[c]"] and js["public"]["rows"] == 4
    assert main(argv + ["--domain", "x,y,z", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["public_derived_from_data"] == []
