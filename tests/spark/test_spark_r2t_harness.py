"""``dpworkbench r2t sql --engine spark`` in the privacy harness (it had no entry): the same completed plan extracted
on Spark (``extract_spark``), R2T's declared release on the driver, observed there by the harness
(:func:`~dpworkbench.testing.declared.command_statistics`). Each statistic is a whole Spark run, so one input and its
neighbours (a customer removed with its orders, or added with ``MAX_ORDERS`` of them) are brute-forced; the DuckDB
entry beside it (tests/privacy/test_harness_r2t.py) is audited at full strength on the same relation, and here the
Spark entry's statistics and seeded releases must be that entry's, input by input."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from dpworkbench.r2t.harness import entry_points
from dpworkbench.testing.harness import check_sensitivity


def test_the_command_engine_spark_on_foreign_key_neighbours(spark):
    entries = {e.name: e for e in entry_points()}
    entry, memory = entries["dpworkbench r2t sql --engine spark"], entries["dpworkbench r2t sql"]
    assert entry.tests == "tests/spark/test_spark_r2t_harness.py" and "--engine" in entry.public_inputs
    assert (entry.claimed_epsilon, entry.relation) == (memory.claimed_epsilon, memory.relation)
    x = entry.make_inputs(np.random.default_rng(0))[0]
    rep = check_sensitivity(dataclasses.replace(entry, make_inputs=lambda rng: [x]), np.random.default_rng(0))
    assert rep.pairs >= 5 and not rep.violations, rep.violations[:5]
    assert rep.worst_ratio == pytest.approx(1.0), (rep.worst_statistic, rep.worst_ratio)  # a customer moves Q(I,τ) by τ
    for t in [x, *entry.neighbours(x)]:  # the graph Spark joined is DuckDB's, neighbour by neighbour
        assert entry.statistics(t) == memory.statistics(t), t
    for t in rep.worst_pair:  # and a seeded release is DuckDB's, draw for draw (both sort the join results)
        assert entry.release(t, 3) == memory.release(t, 3)
    # the same Spark statistics against half the declared sensitivities: the brute force must flag them
    halved = dataclasses.replace(entry, make_inputs=lambda rng: [x],
                                 sensitivities=lambda t: {k: v / 2 for k, v in entry.sensitivities(t).items()})
    assert check_sensitivity(halved, np.random.default_rng(0)).violations
    print(f"\n--engine spark: {rep.pairs} pairs, worst {rep.worst_statistic} ratio {rep.worst_ratio:.3g}")
