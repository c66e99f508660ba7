"""Issue 14: ``dpworkbench inconsistency CSV --dcs DCS --engine spark --json --seed 1`` prints what the default engine
prints (private values, public parameters, the NOT PRIVATE exact measures), and bad Spark settings are one line."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from dpworkbench.cli import main


def _drop_seconds(x):
    if isinstance(x, dict):
        return {k: _drop_seconds(v) for k, v in x.items() if k != "seconds"}
    if isinstance(x, list):
        return [_drop_seconds(v) for v in x]
    return x


def _run(capsys, args):
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_same_output_both_engines(spark, tmp_path, capsys):
    g = np.random.default_rng(3)
    n = 300
    df = pd.DataFrame({"Zip": g.integers(0, 20, n), "City": g.integers(0, 25, n), "Salary": g.integers(1, 6, n) * 1000,
                       "Rate": g.integers(1, 6, n), "State": g.choice(["A", "B", "C"], n)})
    csv, dcs = tmp_path / "t.csv", tmp_path / "dcs.txt"
    df.to_csv(csv, index=False)
    dcs.write_text("not(t1.Zip=t2.Zip&t1.City!=t2.City)\nnot(t1.State=t2.State&t1.Salary<t2.Salary&t1.Rate>t2.Rate)\n")
    outs = {}
    for engine in ("fast", "spark"):
        code, out, _ = _run(capsys, ["inconsistency", str(csv), "--dcs", str(dcs), "--engine", engine, "--json", "--seed", "1",
                                     "--schema", "Zip:int, City:int, Salary:int, Rate:int, State:text",
                                     "--show-exact"])
        assert code == 0
        outs[engine] = json.loads(out.strip().splitlines()[-1])
    assert outs["fast"]["NOT_PRIVATE"]["graph_and_exact_measures"]["I_MI"] > 0
    assert _drop_seconds(outs["fast"]) == _drop_seconds(outs["spark"])


def test_cli_bad_spark_settings_one_line(tmp_path, capsys):
    csv, dcs = tmp_path / "t.csv", tmp_path / "dcs.txt"
    pd.DataFrame({"A": [1, 1], "B": [1, 2]}).to_csv(csv, index=False)
    dcs.write_text("not(t1.A=t2.A&t1.B!=t2.B)\n")
    code, out, err = _run(capsys, ["inconsistency", str(csv), "--dcs", str(dcs), "--engine", "spark", "--spark-master",
                                   "bogus://x", "--seed", "1"])
    assert code != 0 and "bad Spark master URL 'bogus://x'" in err and "Traceback" not in err
    assert len([line for line in err.splitlines() if "master URL" in line]) == 1
    code, out, err = _run(capsys, ["inconsistency", str(csv), "--dcs", str(dcs), "--spark-master", "local[1]", "--seed", "1"])
    assert code != 0 and "--engine spark" in err
