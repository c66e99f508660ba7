"""``dpworkbench privateclean query`` beyond one attribute (issue 25) and the issue-28 items of that CLI, in process."""
from __future__ import annotations


import numpy as np
import pandas as pd
import pytest

from dpworkbench.privateclean.cli import register
from dpworkbench.privateclean.query import cli_warning, plain_number
from dpworkbench.testing.harness import InProcessCLI

run_cli = InProcessCLI(register)  # ``dpworkbench <argv>`` in process (the real parser and handler), its JSON parsed

BASE = ["--attr", "carrier", "--domain", "AA,UA,DL", "--attr", "origin", "--domain", "JFK,LGA,EWR,BOS", "--epsilon", "2",
        "--value-col", "delay", "--bounds", "0,100", "--b", "2"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("pcm")
    rng = np.random.default_rng(0)
    S = 3000
    pd.DataFrame({"carrier": rng.choice(["AA", "UA", "DL"], S), "origin": rng.choice(["JFK", "LGA", "EWR", "BOS"], S),
                  "delay": np.round(rng.uniform(0, 100, S), 1)}).to_csv(d / "f.csv", index=False)
    pd.DataFrame({"origin": ["JFK", "LGA", "EWR"], "state": ["NY", "NY", "NJ"]}).to_csv(d / "air.csv", index=False)
    return d


def _run(files, *extra):
    return run_cli(["privateclean", "query", str(files / "f.csv"), *BASE, *extra, "--json"])


@pytest.mark.parametrize("agg", ["count", "sum", "avg", "median", "percentile:90", "var", "std"])
def test_every_aggregate_with_a_multi_attribute_where(files, agg):
    out = _run(files, "--where", "carrier = AA AND origin IN (JFK, LGA)", "--agg", agg, "--seed", "1", "--show-exact")
    label = f"privateclean_{agg.replace(':', '_')}"
    v, lo, hi = out["private"][label], out["private"]["ci_lo"], out["private"]["ci_hi"]
    assert lo <= v <= hi and np.isfinite(out["private"]["direct"])  # every printed private value with its interval
    assert out["public"]["where"] == "carrier = AA AND origin IN (JFK, LGA)"
    assert out["epsilon_spent"] == pytest.approx(sum(e["epsilon"] for e in out["ledger"]))
    assert len(out["ledger"]) == 3  # two GRR attributes and one Laplace column, composed
    if agg in ("avg", "median", "percentile:90"):
        assert 0 <= lo and hi <= 100  # clipped to the public bounds


def test_group_by_join_and_release_backend(files):
    out = _run(files, "--where", "carrier != DL", "--group-by", "state", "--join", str(files / "air.csv"), "ON", "origin",
               "--agg", "sum")
    assert set(out["private"]["privateclean_sum"]) == {"NY", "NJ"} and set(out["private"]["ci"]) == {"NY", "NJ"}
    assert "OpenDP" in out["noise"] and "NOT_PRIVATE" not in out
    g = _run(files, "--group-by", "carrier", "--groups", "AA,DL", "--agg", "avg", "--seed", "2")
    assert set(g["private"]["privateclean_avg"]) == {"AA", "DL"}


@pytest.mark.parametrize("extra, msg", [
    (["--where", "delay > 3"], "Laplace-noised"),
    (["--where", "zz = 1"], "not an --attr"),
    (["--where", "carrier = AA", "--equals", "AA"], "--equals is the one-attribute"),
    (["--agg", "percentile:100", "--where", "carrier = AA"], "0 < P < 100"),
    (["--agg", "mode", "--where", "carrier = AA"], "--agg must be one of"),
    (["--group-by", "state", "--where", "carrier = AA"], "not an --attr"),
    (["--join", "nope.csv", "AT", "origin", "--where", "carrier = AA"], "PUBLIC_TABLE ON KEY"),
    (["--where", "carrier = "], "expected a value"),
])
def test_flags_validated_before_the_data_is_read(files, extra, msg, capsys, tmp_path):
    from dpworkbench.cli import main

    missing = tmp_path / "not-there.csv"  # the private file does not exist: the flags' error comes first
    assert main(["privateclean", "query", str(missing), *BASE, *extra]) != 0
    err = capsys.readouterr().err
    assert msg in err and "not-there" not in err and "Traceback" not in err


def test_issue28_plain_digits_clipped_avg_and_flag_names(files, capsys):
    assert plain_number(128731994.3) == "128732000" and plain_number(0.5) == "0.5" and plain_number("x") == "x"
    w = cli_warning("domain of 'a' taken from the data: this is data-dependent; pass domains={'a': [...]} with a public "
                    "domain for a private release")
    assert "--domain" in w and "domains={" not in w
    from dpworkbench.cli import main

    assert main(["privateclean", "query", str(files / "f.csv"), "--attr", "carrier", "--domain", "AA,UA,DL", "--p", "0.3",
                 "--value-col", "delay", "--bounds", "0,1000000000", "--b", "1", "--equals", "AA", "--agg", "sum",
                 "--seed", "1"]) == 0
    text = capsys.readouterr().out
    line = next(s for s in text.splitlines() if s.startswith("privateclean_sum"))
    assert "e+" not in line  # plain digits
    # a one-attribute AVG near a bound: the interval never runs past the public bounds
    out = run_cli(["privateclean", "query", str(files / "f.csv"), "--attr", "carrier", "--domain", "AA,UA,DL", "--p",
                   "0.9", "--value-col", "delay", "--bounds", "0,100", "--b", "400", "--equals", "AA", "--agg", "avg",
                   "--seed", "3", "--json"])
    assert 0 <= out["private"]["ci_lo"] <= out["private"]["ci_hi"] <= 100
    assert any("noise's only" in w for w in out["warnings"])
