"""Issue 25: PrivateClean's Spark release path in the privacy harness (it was EXEMPT, a known gap: never sampled on
neighbours). Both Spark entries (``spark_engine.grr_spark`` and ``privateclean query --engine spark``) are brute-forced
here over all their neighbours, each statistic computed by a Spark run of the real path with the pre-noise back-end;
the Spark pre-noise statistics are then compared, input by input, with the declaration's own (in memory) and with the
memory engine's, so a Spark path that mapped, clipped or filled a row differently would fail even within the bounds.

The audit of the noise is not repeated here (each sample would be a Spark run, ~0.7 s): every partition draws with
GRR.noise, audited by the privateclean.grr entries, and a seeded one-partition Spark V is grr's V on the same stream
(test_spark_privateclean_joint.py)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from dpworkbench.privateclean.harness import (CLI_ARGS, SPARK_ARGS, _cli, entry_points, prenoise_cli_statistics,
                                              spark_entry_points)
from dpworkbench.privateclean.mechanisms import GRR
from dpworkbench.testing.harness import check_sensitivity

ENTRIES = {e.kind: e for e in spark_entry_points()}


def _recording(entry):
    """The entry with its statistics recorded (input, statistics or the refusal's message) as the brute force runs."""
    seen: list = []

    def stats(x):
        try:
            s = entry.statistics(x)
        except ValueError as exc:
            seen.append((x, str(exc)))
            raise
        seen.append((x, s))
        return s
    return dataclasses.replace(entry, statistics=stats), seen


def _check(entry):
    rep = check_sensitivity(entry, np.random.default_rng(0))
    assert rep.pairs >= 10
    assert not rep.violations, rep.violations[:5]
    # the worst pair moves a statistic by exactly its claimed sensitivity (the hostile ±1e9 line / record at row 0)
    assert rep.worst_ratio == pytest.approx(1.0), (rep.worst_statistic, rep.worst_ratio)
    return rep


def test_the_spark_entries_are_in_the_table():
    names = {e.name for e in entry_points()}
    assert {e.name for e in spark_entry_points()} <= names
    assert any("spark_engine.grr_spark" in n for n in names) and "dpworkbench privateclean query --engine spark" in names


def test_grr_spark_entry_on_substitution_neighbours(spark):
    entry, seen = _recording(ENTRIES["api"])
    rep = _check(entry)
    checked = GRR.check_params(GRR.harness_params)
    forced = 0
    for x, s in seen:
        assert not isinstance(s, str), f"grr_spark refused: {s}"  # a release is total
        mem = GRR.statistics(x, **checked)
        # the declaration's codes, forced rows (outside the domain, no declared target) at the placeholder 0 where the
        # pre-noise back-end's uniform redraw puts them
        expect = np.bincount(mem["codes"]["cat"], minlength=len(mem["counts[cat]"])).astype(float)
        np.testing.assert_array_equal(s["counts[cat]"], expect)
        np.testing.assert_allclose(s["values[val]"], mem["values"]["val"], rtol=0, atol=1e-12)
        forced += int(mem["forced"]["cat"].sum())
    assert forced > 0  # the hostile record outside the domain went through Spark
    # the real release (a seeded research run) on the worst pair: the same components on both sides, reproducible
    x, xp = rep.worst_pair
    a, b = entry.release(x, 3), entry.release(xp, 3)
    assert a.keys() == b.keys() and entry.release(x, 3) == a


@pytest.mark.slow  # ~45 Spark runs (≈ 35 s on 2 busy cores); test_grr_spark_entry_on_substitution_neighbours is the fast one
def test_query_engine_spark_entry_on_file_level_neighbours(spark):
    entry, seen = _recording(ENTRIES["cli"])
    rep = _check(entry)
    memory = prenoise_cli_statistics(CLI_ARGS)  # the same flags without --engine spark
    exact = _cli(CLI_ARGS)
    hostile = 0
    for text, s in seen:
        assert not isinstance(s, str), f"--engine spark refused a file: {s}"
        m = memory(text)
        assert s.keys() == m.keys()
        for k in m:
            np.testing.assert_allclose(s[k], m[k], rtol=0, atol=1e-9, err_msg=k)
        # Spark's SUM over its pre-noise V is the CLI's NOT PRIVATE truth (the declaration's statistics on the driver)
        assert s["true_sum"] == pytest.approx(exact.exact(text, "--agg", "sum")["NOT_PRIVATE"]["true_answer"])
        hostile += "1e9" in text or "zz_new" in text or '"open' in text
    assert hostile > 0 and len(seen) == rep.pairs + 1
    # the real Spark CLI on the worst pair: it releases on both sides and says the same public things
    x, xp = rep.worst_pair
    cli = _cli(SPARK_ARGS)
    a, b = cli.release(x, 5, "--agg", "sum"), cli.release(xp, 5, "--agg", "sum")
    assert a["public"] == b["public"] and a["public"]["engine"] == "spark" and "NOT_PRIVATE" not in a


def test_the_partition_hook_is_a_research_back_ends_only(spark):
    """grr_spark lets a research back-end open each partition's stream (``for_partition``: how the pre-noise back-end
    reaches the executors). A release back-end is never asked, even one that has the method."""
    import pandas as pd

    from dpworkbench.mechanisms.backends import OpenDPBackend
    from dpworkbench.privateclean.harness import _PreNoise
    from dpworkbench.privateclean.spark_engine import grr_spark

    class Hooked(OpenDPBackend):
        def for_partition(self, part):  # pragma: no cover - reached only if the release took the hook
            raise AssertionError("a release opened its partition streams through for_partition")

    df = pd.DataFrame({"cat": ["a", "b", "zz", "c"] * 5, "val": [-3.0, 4.0, 25.0, 7.5] * 5})
    kw = dict(domains={"cat": ["a", "b", "c"]}, other={"cat": None}, bounds={"val": (0.0, 10.0)}, spark=spark)
    rel = grr_spark(df, {"cat": 0.5}, {"val": 1.0}, rng=Hooked(), **kw)
    assert rel.public["streams"].endswith("(OpenDP back-end, OS entropy)")
    v = rel.value.data.toPandas()
    assert not np.allclose(v["val"].to_numpy(), np.clip(df["val"].to_numpy(), 0, 10))  # noise was added
    pre = grr_spark(df, {"cat": 0.5}, {"val": 1.0}, rng=_PreNoise(0), **kw)
    assert "for_partition" in pre.public["streams"]
    v = pre.value.data.toPandas()  # every partition (local[2]: two) ran without randomness
    assert spark.createDataFrame(df).rdd.getNumPartitions() >= 2
    assert [None if pd.isna(c) else c for c in v["cat"]] == ["a", "b", None, "c"] * 5  # "zz" → the declared NULL
    np.testing.assert_array_equal(v["val"].to_numpy(), np.clip(df["val"].to_numpy(), 0, 10))
