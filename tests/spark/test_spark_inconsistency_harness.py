"""The inconsistency paper's out-of-core Spark path in the privacy harness (it was EXEMPT, a known gap: never sampled
on neighbours). I_MI, I_P and the vertex cover declare it (``mechanisms._spark_engine``): a table's edges built by
``spark_statistics`` and written as Parquet, sorted by Spark, F(θ) streamed into the declaration's own release by
``release_from_parquet``. The core derives each entry (``engine_entry``, ``prenoise=None``): its statistics are those
the declaration's release received on that path, observed in one seeded run per input (Spark jobs every time), against
the declaration's sensitivities at its claimed ε; they are compared here, input by input, with the in-memory
declaration's own, so a Spark path that built, sorted or streamed another graph would fail even within the bounds.

A sampled release is seconds of Spark jobs, so the worst pair is audited on draws of the declaration's noise from the
statistics the path handed it, taken while the path is live (``Mechanism.sample``: the release's own noise code); the
real path's seeded releases on that pair equal the in-memory path's."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

from dpworkbench.inconsistency import spark_engine
from dpworkbench.inconsistency.mechanisms import HARNESS_DCS, I_MI, I_P, VERTEX_COVER, Table
from dpworkbench.mechanisms.declaration import Mechanism
from dpworkbench.privacy_harness import engine_entry_points
from dpworkbench.testing.declared import entry_point
from dpworkbench.testing.harness import audit_entry, check_sensitivity

TESTS = "tests/spark/test_spark_inconsistency_harness.py"
MECHS = {"MI": I_MI, "P": I_P, "R": VERTEX_COVER}


def _entry(measure: str):
    return next(e for e in engine_entry_points("inconsistency") if e.name.endswith(f"(measure='{measure}')"))


def test_the_spark_entries_are_derived_and_in_the_table():
    from dpworkbench.inconsistency.harness import EXEMPT

    entries = [e for e in engine_entry_points("inconsistency") if e.tests == TESTS]
    assert sorted(e.name for e in entries) == [f"inconsistency.spark_engine.release_from_parquet(measure='{m}')"
                                               for m in ("MI", "P", "R")]
    assert "spark_engine.release_from_parquet" not in EXEMPT
    for m, mech in MECHS.items():  # the declaration's claim, relation, public inputs and sensitivities
        e, base = _entry(m), entry_point(mech)
        for field in ("kind", "paper", "relation", "claimed_epsilon", "public_inputs", "sensitivities"):
            assert getattr(e, field) == getattr(base, field), (m, field)


def _brute_force(measure: str):
    """The entry's brute force over all neighbours of its 2-row table (12 Spark runs), each input's Spark statistics
    compared with the in-memory declaration's."""
    entry, mech = _entry(measure), MECHS[measure]
    rep = check_sensitivity(entry, np.random.default_rng(0))
    (x,) = entry.make_inputs(np.random.default_rng(0))
    memory = entry_point(mech).statistics
    for t in [x, *entry.neighbours(x)]:
        s = entry.statistics(t)  # cached: the run the brute force made
        assert s == memory(t), (measure, t.df.to_dict("list"))
    return entry, rep


def _served(entry, mech: Mechanism, x, size: int, seed: int):
    """``size`` outputs of the declaration's release on what the Spark path handed it for ``x``: drawn by the release's
    own noise code (``Mechanism.sample``) inside the path's seeded run, while its streamed edges still exist."""
    draws: list = []
    release = Mechanism.release

    def drawing(self, data, *, rng=None, accountant=None, statistics=None, **params):
        out = release(self, data, rng=rng, accountant=accountant, statistics=statistics, **params)
        if self.name == mech.name:
            draws.append(self.sample(statistics, size=size, rng=seed, **params))
        return out

    Mechanism.release = drawing
    try:
        mech.engine("spark").release(x, rng=0, **mech.harness_params)
    finally:
        Mechanism.release = release
    (got,) = draws
    return iter({"output": float(v)} for v in np.ravel(got))


def _audit(entry, mech, rep):
    x, xp = rep.worst_pair
    n, pilot = entry.n_samples, entry.pilot_samples
    served = {id(x): _served(entry, mech, x, n + pilot, 1), id(xp): _served(entry, mech, xp, n + pilot, 2)}
    audited = dataclasses.replace(entry, release=lambda t, rng, _s=served: next(_s[id(t)]))
    audits = audit_entry(audited, x, xp, seed=0)
    assert set(audits) == {"output"} and not audits["output"].flagged, str(audits["output"])
    # the real path's seeded releases on the pair: the in-memory declaration's, draw for draw
    for t, seed in itertools.product((x, xp), (3, 4)):
        assert entry.release(t, seed) == {"output": float(mech.release(t, rng=seed, **mech.harness_params).value)}
    return audits["output"]


@pytest.fixture(scope="module")
def mi(spark):
    return _brute_force("MI")


def test_release_from_parquet_mi_on_neighbours(mi):
    entry, rep = mi
    assert rep.pairs == 11 and not rep.violations, rep.violations[:5]
    # the worst pair moves a statistic by exactly its claimed sensitivity (a conflicting row added or removed)
    assert rep.worst_ratio == pytest.approx(1.0), (rep.worst_statistic, rep.worst_ratio)
    print(f"\nMI: {rep.pairs} pairs, worst {rep.worst_statistic} ratio {rep.worst_ratio:.3g}; "
          f"audit {_audit(entry, I_MI, rep)}")


def test_a_leaking_stream_and_a_halved_sensitivity_are_flagged(mi, monkeypatch):
    entry, rep = mi
    # the declaration's sensitivities halved: the same Spark statistics (cached) now violate them
    halved = dataclasses.replace(entry, sensitivities={k: v / 2 for k, v in entry.sensitivities.items()})
    assert check_sensitivity(halved, np.random.default_rng(0)).violations
    # the streamed F(θ) leaking (each kept edge counted twice, on the Spark path only): a fresh entry on the worst pair
    stream = spark_engine._stream

    def leaking(path, n, thetas, batch_rows):
        counts, dmax = stream(path, n, thetas, batch_rows)
        return {t: (2 * e, v) for t, (e, v) in counts.items()}, dmax

    monkeypatch.setattr(spark_engine, "_stream", leaking)
    x, xp = rep.worst_pair
    fresh = next(e for e in engine_entry_points("inconsistency") if e.name == entry.name)
    leak = check_sensitivity(dataclasses.replace(fresh, make_inputs=lambda rng: [x], neighbours=lambda t: [xp]),
                             np.random.default_rng(0))
    assert leak.violations and leak.worst_ratio >= 2, (leak.worst_statistic, leak.worst_ratio)
    assert entry_point(I_MI).statistics(x) == entry.statistics(x)  # the in-memory path is untouched


def test_an_empty_table_and_a_table_without_conflicts_release(spark):
    """The harness's finding: the out-of-core path refused the empty table (order_places compared its identity of 0
    nodes with the one place it keeps) and could not release a table without conflicts (spark_statistics gave it no
    edge table, edges_path None, and its empty edge folder, named edges.parquet, was taken for data by Spark's reader);
    a refusal on one neighbour only is a violation. Both now release as in memory."""
    import pandas as pd

    with pytest.raises(ValueError, match="not found"):  # a stream read after its folder is gone: never F(θ) = 0
        spark_engine.stream_counts("/nonexistent/dpwb-ordered", 3, [1])
    for df in (pd.DataFrame({"A": [0], "B": [0]}).iloc[:0], pd.DataFrame({"A": [0, 1], "B": [0, 0]})):
        t = Table(df, HARNESS_DCS)
        for measure, mech in (("MI", I_MI), ("R", VERTEX_COVER)):
            got = mech.engine("spark").release(t, rng=5, epsilon=1.0)
            assert got.value == mech.release(t, rng=5, epsilon=1.0).value, (measure, len(df))


@pytest.mark.slow  # 24 Spark runs (≈ 2 min on 2 busy cores); the I_MI entry above checks the same path
@pytest.mark.parametrize("measure", ["P", "R"])
def test_release_from_parquet_ip_and_cover_on_neighbours(spark, measure):
    entry, rep = _brute_force(measure)
    assert rep.pairs == 11 and not rep.violations, rep.violations[:5]
    assert rep.worst_ratio == pytest.approx(1.0), (rep.worst_statistic, rep.worst_ratio)
    print(f"\n{measure}: {rep.pairs} pairs, worst {rep.worst_statistic} ratio {rep.worst_ratio:.3g}; "
          f"audit {_audit(entry, MECHS[measure], rep)}")


@pytest.mark.slow  # 15 runs of the command on Spark (≈ 1 min on 2 busy cores)
def test_the_command_engine_spark_on_file_level_neighbours(spark):
    """``dpworkbench inconsistency --engine spark`` (``build_spark``, then the releases on the driver): the statistics
    its declarations received, brute-forced over one 2-line file's neighbours, equal the memory engine's file by file;
    its seeded releases on the worst pair are the memory engine's (whose audit is in tests/privacy/)."""
    from dpworkbench.inconsistency.harness import entry_points, spark_cli_entry

    entry = spark_cli_entry()
    rep = check_sensitivity(entry, np.random.default_rng(0))
    assert rep.pairs == 14 and not rep.violations, rep.violations[:5]
    assert rep.worst_ratio == pytest.approx(1.0), (rep.worst_statistic, rep.worst_ratio)
    memory = next(e for e in entry_points() if e.name == "dpworkbench inconsistency")
    x = entry.make_inputs(np.random.default_rng(0))[0]
    for text in [x, *entry.neighbours(x)]:
        assert entry.statistics(text) == memory.statistics(text), text
    for text in rep.worst_pair:
        assert entry.release(text, 3) == memory.release(text, 3)
    print(f"\n--engine spark: {rep.pairs} pairs, worst {rep.worst_statistic} ratio {rep.worst_ratio:.3g}")
