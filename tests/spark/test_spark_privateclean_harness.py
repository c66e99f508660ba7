"""Issue 25: PrivateClean's Spark release path in the privacy harness (it was EXEMPT, a known gap: never sampled on
neighbours). Both Spark entries (``spark_engine.grr_spark`` and ``privateclean query --engine spark``, derived from the
engine GRR declares, ``mechanisms.SPARK``) are brute-forced here over all their neighbours, each statistic computed by a
Spark run of the real path with the pre-noise back-end;
the Spark pre-noise statistics are then compared, input by input, with the declaration's own (in memory) and with the
memory engine's, so a Spark path that mapped, clipped or filled a row differently would fail even within the bounds.

A sampled release would be a Spark run each (~0.7 s), so ``check_entry_point``'s audit is run on grr_spark only, with
each side's samples drawn by one release run over many copies of the table (test_grr_spark_release_audited); the
CLI's answer is post-processing of the same grr_spark V, audited through the memory engine's entry."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from dpworkbench.privacy_harness import all_entry_points
from dpworkbench.privateclean.harness import CLI_ARGS, _cli, entry_points
from dpworkbench.privateclean.mechanisms import GRR
from dpworkbench.testing.declared import entry_point, observed_releases
from dpworkbench.testing.harness import check_sensitivity

#: the entries of GRR's Spark engine (the API derived from the declaration, the command's --engine spark variant)
ENTRIES = {e.kind: e for e in all_entry_points() if e.tests == GRR.engine("spark").tests}
SPARK_ARGS = [*CLI_ARGS, "--engine", "spark"]


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
    # the API entry is derived from the engine GRR declares (the paper's harness writes none); the command's variant
    # is the paper's file-level entry with --engine spark
    assert ENTRIES.keys() == {"api", "cli"}
    assert ENTRIES["api"].name == "privateclean.spark_engine.grr_spark" + entry_point(GRR).name[len(GRR.name):]
    written = {e.name for e in entry_points()}
    assert ENTRIES["api"].name not in written and "dpworkbench privateclean query --engine spark" in written


@pytest.fixture(scope="module")
def api_brute_force(spark):
    """The grr_spark entry's brute force (~13 Spark runs), once for the tests below: (report, recorded statistics)."""
    entry, seen = _recording(ENTRIES["api"])
    return _check(entry), seen


def test_grr_spark_entry_on_substitution_neighbours(api_brute_force):
    entry = ENTRIES["api"]
    rep, seen = api_brute_force
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
    # the memory engine's entry, the same flags without --engine spark: its statistics are those of the GRR release
    # the command makes, observed in the run
    memory = next(e for e in entry_points() if e.name == "dpworkbench privateclean query").statistics
    exact = _cli(CLI_ARGS)
    hostile = 0
    for text, s in seen:
        assert not isinstance(s, str), f"--engine spark refused a file: {s}"
        m = memory(text)
        assert s.keys() == m.keys() == {"counts[cat]", "values[val]"}  # GRR's declared statistics, on both engines
        assert len(s["counts[cat]"]) == 5  # a, b, c and NULL (the CLI's out-of-domain target), then the forced bin
        for k in m:
            np.testing.assert_allclose(s[k], m[k], rtol=0, atol=1e-9, err_msg=k)
        # Spark's SUM over its pre-noise V (the command's engine run observed with the pre-noise back-end, as the
        # entry's statistics are) is the CLI's NOT PRIVATE truth (the declaration's statistics on the driver)
        with observed_releases("spark"):
            pre = exact.run(text, "--engine", "spark", "--agg", "sum", "--seed", "0", "--json")
        assert pre["private"]["direct"] == pytest.approx(exact.exact(text, "--agg", "sum")["NOT_PRIVATE"]["true_answer"])
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
    from dpworkbench.testing.harness import PreNoiseBackend
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
    pre = grr_spark(df, {"cat": 0.5}, {"val": 1.0}, rng=PreNoiseBackend(0), **kw)
    assert "for_partition" in pre.public["streams"]
    v = pre.value.data.toPandas()  # every partition (local[2]: two) ran without randomness
    assert spark.createDataFrame(df).rdd.getNumPartitions() >= 2
    assert [None if pd.isna(c) else c for c in v["cat"]] == ["a", "b", None, "c"] * 5  # "zz" → the declared NULL
    np.testing.assert_array_equal(v["val"].to_numpy(), np.clip(df["val"].to_numpy(), 0, 10))


@pytest.mark.slow  # 6 Spark runs on 24,000 rows and 12 audits of 8,000 samples per side (≈ 35 s on 2 busy cores)
def test_grr_spark_release_audited(api_brute_force):
    """The audit of grr_spark's real release (rng=None: the OpenDP back-end in every partition) at the entry's claimed
    ε, on the pair the brute force found worst and on the pair whose number moves by Δ (row 0's value → the hostile
    1e9, clipped to 10). One sample per call would be one Spark run each, so each side is drawn by ONE grr_spark run
    on K copies of the table: GRR randomises every record independently (the declared relation: local DP per record),
    so copy i of V is an independent release of the table. The pre-noise run on the same K copies shows the rows come
    back in order (copy i is rows i·S … i·S+S−1)."""
    import pandas as pd

    from dpworkbench.testing.harness import PreNoiseBackend
    from dpworkbench.privateclean.spark_engine import grr_spark
    from dpworkbench.testing.harness import audit_entry

    entry = ENTRIES["api"]
    params = dict(GRR.harness_params)
    n, pilot = 6000, 2000
    K = n + pilot  # audit_entry draws n + pilot per side

    def batch(table):
        big = pd.concat([table] * K, ignore_index=True)
        pre = grr_spark(big, rng=PreNoiseBackend(0), **params).value.data.toPandas()
        single = grr_spark(table, rng=PreNoiseBackend(0), **params).value.data.toPandas()
        pd.testing.assert_frame_equal(pre, pd.concat([single] * K, ignore_index=True))  # in order, copy by copy
        rel = grr_spark(big, rng=None, **params)  # a release: OpenDP back-end per partition
        assert rel.public["streams"].endswith("(OpenDP back-end, OS entropy)")
        v, dom = rel.value.data.toPandas(), list(rel.value.domains["cat"])
        S = len(table)
        codes = np.array([dom.index(c) for c in v["cat"]], dtype=float).reshape(K, S)
        vals = v["val"].to_numpy(dtype=float).reshape(K, S)
        return iter([{**{f"cat[{j}]": codes[i, j] for j in range(S)}, **{f"val[{j}]": vals[i, j] for j in range(S)}}
                     for i in range(K)])

    x, worst = api_brute_force[0].worst_pair
    far = x.copy()
    far.at[0, "val"] = 1e9
    assert any(nb.equals(far) for nb in GRR.neighbours(x))  # a neighbour the brute force went through
    for xp in (worst, far):
        served = {id(x): batch(x), id(xp): batch(xp)}
        audited = dataclasses.replace(entry, release=lambda table, rng, _s=served: next(_s[id(table)]), n_samples=n,
                                      pilot_samples=pilot)
        audits = audit_entry(audited, x, xp, seed=0)
        assert set(audits) == {f"{c}[{j}]" for c in ("cat", "val") for j in range(len(x))}
        flagged = {k: str(a) for k, a in audits.items() if a.flagged}
        assert not flagged, flagged
        # the audit sees the substituted record (else it could not fail): its moved component's loss is clearly > 0
        # (measured: cat[0] lower bound ≈ 1.3 of GRR's ln 4; val[0] ≈ 0.9 of Laplace's Δ/b = 1)
        pre = [GRR.statistics(t, **GRR.check_params(params)) for t in (x, xp)]  # row 0 mapped and clipped
        moved = [k for k, (a, b) in {"cat[0]": (pre[0]["codes"]["cat"][0], pre[1]["codes"]["cat"][0]),
                                     "val[0]": (pre[0]["values"]["val"][0], pre[1]["values"]["val"][0])}.items() if a != b]
        assert moved and all(audits[k].epsilon_lower > 0.4 for k in moved), {k: str(audits[k]) for k in moved}
