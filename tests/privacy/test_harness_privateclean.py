"""PrivateClean's release entry points through the privacy harness (substitute-one-record neighbours, the real
code path), plus the installed command end to end."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpworkbench.privateclean.harness import entry_points
from dpworkbench.privateclean.mechanisms import GRR
from dpworkbench.testing.harness import check_entry_point

# the Spark engine's entries need a session and each sample is a Spark run: tests/spark/test_spark_privateclean_harness.py
ENTRIES = {e.name: e for e in entry_points() if e.tests != GRR.engine("spark").tests}
CLI = Path(__file__).resolve().parents[2] / ".venv" / "bin" / "dpworkbench"


# the multi-attribute CLI entry runs the whole CLI ~10⁴ times (minutes on 2 cores): slow; the joint-partition API entry
# (the same GRR declaration on a joint partition) is the fast check of the new release path
SLOW = {n for n in ENTRIES if "--where" in n}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in ENTRIES])
def test_entry_point(name):
    entry = ENTRIES[name]
    rep = check_entry_point(entry)
    assert rep.sensitivity.pairs >= 10
    if entry.expect_flagged:
        assert rep.flagged, f"labelled paper option not caught:\n{rep}"
    else:
        assert not rep.flagged, str(rep)
        assert rep.sensitivity.worst_ratio == pytest.approx(1.0), str(rep)  # the claimed sensitivity is attained


def test_declared_neighbours_substitute_one_record_anywhere_hostile_ones_included():
    df = pd.DataFrame({"cat": ["a", "b"], "val": [1.0, 2.0]})
    out = [o.values.tolist() for o in GRR.neighbours(df)]
    assert len(out) == 6 and all(len(o) == 2 for o in out)  # per row: the other row and two hostile records
    assert out[0][0] == ["b", 2.0] and out[0][1] == ["b", 2.0] and out[2] == [["a", 1e9], ["b", 2.0]]
    assert out[1][0][0] == "zz" and np.isnan(out[1][0][1]) and out[1][1] == ["b", 2.0]
    assert [o for o in out[3:] if o[0] != ["a", 1.0]] == []  # row 0 kept while row 1 is substituted
    assert df.values.tolist() == [["a", 1.0], ["b", 2.0]]  # the input is never written to


def test_installed_command_sections_and_release_backend(tmp_path):
    f = tmp_path / "m.csv"
    pd.DataFrame({"major": ["ME", "Mech E", "EE", "EE", "Math"] * 20, "sat": [3, 4, 9, 4, 2] * 20}).to_csv(f, index=False)
    base = [str(CLI), "privateclean", "query", str(f), "--attr", "major", "--p", "0.3", "--domain", "ME,Mech E,EE,Math",
            "--value-col", "sat", "--b", "1", "--bounds", "1,5", "--merge", "Mech E=ME", "--agg", "avg", "--equals", "ME"]
    rel = json.loads(subprocess.run(base + ["--json"], capture_output=True, text=True, check=True).stdout)
    assert {"private", "public", "epsilon_spent", "ledger", "noise"} <= set(rel) and "NOT_PRIVATE" not in rel
    assert "OpenDP" in rel["noise"] and "privateclean_avg" in rel["private"]
    assert rel["public"]["rows"] == 100 and rel["public"]["bounds"] == {"sat": [1.0, 5.0]}
    seeded = json.loads(subprocess.run(base + ["--json", "--seed", "1", "--show-exact"], capture_output=True, text=True,
                                       check=True).stdout)
    assert "seeded numpy" in seeded["noise"] and "true_answer" in seeded["NOT_PRIVATE"]
    text = subprocess.run(base, capture_output=True, text=True, check=True).stdout
    assert "NOT PRIVATE" not in text and "(private)" in text and "OpenDP" in text
    helptext = subprocess.run([str(CLI), "privateclean", "query", "--help"], capture_output=True, text=True, check=True).stdout
    assert "substitute one line" in helptext and "public" in helptext
    assert "research run on seeded numpy noise, NOT a private release" in " ".join(helptext.split())
    assert "--domain" in helptext and "never refuses because of what the rows hold" in " ".join(helptext.split())


def test_building_the_entries_leaves_the_registry_alone():
    """The joint-partition entry is a copy of GRR with other harness inputs; registered, it replaced GRR itself and
    the privacy table listed the copy twice (found when the README table test ran after this file's entries)."""
    from dpworkbench.mechanisms.declaration import registry
    from dpworkbench.privateclean.mechanisms import GRR

    entry_points()
    assert registry()["privateclean.grr"] is GRR


def test_a_prenoise_v_outside_its_domains_or_bounds_is_an_error():
    """The Spark engine's entries read GRR's declared statistics off the pre-noise V Spark's partitions computed (the
    engine's ``prenoise``): a V that the declaration's own public rules would still move (a value outside the released
    domain, a number outside the bounds or missing) means the partitions did not run those rules, and is an error,
    not a statistic (nor a refusal)."""
    from dpworkbench.privateclean.mechanisms import _prenoise_v
    from dpworkbench.testing.declared import declared_statistics

    params = GRR.check_params(GRR.harness_params)
    statistics = declared_statistics(GRR, params)[0]
    ok = statistics(_prenoise_v(pd.DataFrame({"cat": ["a", "c"], "val": [0.0, 10.0]}), params))
    assert ok["counts[cat]"].tolist() == [1.0, 0.0, 1.0, 0.0] and ok["values[val]"].tolist() == [0.0, 10.0]
    for cat, val, rule in (("zz", 1.0, "out_of_domain"), ("a", 11.0, "numbers_clipped"),
                           ("a", np.nan, "numbers_missing_filled")):
        with pytest.raises(RuntimeError, match=rule):
            _prenoise_v(pd.DataFrame({"cat": [cat, "b"], "val": [val, 2.0]}), params)
