"""Summaries of dpworkbench/privateclean/experiments.py against direct computations, and the sweep's seed streams."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpworkbench.privateclean import experiments


def test_worst_ratio_is_the_largest_ratio_over_x_and_aggregates():
    rows = [{"agg": a, "method": m, "p": p, "mean": v} for a, m, p, v in [
        ("count", "privateclean", 0.1, 1.0), ("count", "direct", 0.1, 2.0), ("count", "privateclean", 0.3, 3.0),
        ("count", "direct", 0.3, 2.0), ("sum", "privateclean", 0.1, 1.0), ("sum", "direct", 0.1, 4.0),
        ("sum", "privateclean", 0.3, 1.0), ("sum", "direct", 0.3, 1.0)]]
    tab = pd.DataFrame(rows)
    assert experiments.worst_ratio(tab, "p") == pytest.approx(1.5)
    assert experiments.worst_ratio(tab, "p", aggs=("sum",)) == pytest.approx(1.0)


def test_merge_rate_paired_against_pandas():
    rng = np.random.default_rng(0)
    rows = []
    for rate in (0.0, 1.0):
        for inst in range(30):
            truth = 100.0
            for m in ("privateclean", "pc_noprov"):
                est = truth + rng.normal(0, 5)
                rows.append({"agg": "count", "method": m, "merge_rate": rate, "instance": inst, "estimate": est,
                             "truth": truth, "rel_error": abs(est - truth) / truth})
    df = pd.DataFrame(rows)
    diff, bias = experiments.merge_rate_paired(df)
    w = df.pivot_table(index=["merge_rate", "instance"], columns="method", values="rel_error")
    d0 = (w["privateclean"] - w["pc_noprov"]).xs(0.0)
    assert diff.loc[0.0, "mean"] == pytest.approx(d0.mean())
    assert diff.loc[0.0, "sem"] == pytest.approx(d0.std(ddof=1) / np.sqrt(len(d0)))
    e = df[(df.method == "privateclean") & (df.merge_rate == 1.0)]
    assert bias.loc[("privateclean", 1.0), "mean"] == pytest.approx((e.estimate - e.truth).mean())


def test_sweep_cells_do_not_depend_on_the_source_code(monkeypatch, tmp_path):
    """The cell parameters (and so each cell's seed stream) hold no source hash: seeded figures keep their numbers
    across edits of the package; run_grid recomputes stale results by its own code version."""
    seen = {}

    def fake_run_grid(name, fn, grid, *, repetitions, seed, fixed, results_dir):
        seen.update(fixed)
        return pd.DataFrame({"rel_error": [0.1]})

    monkeypatch.setattr(experiments, "run_grid", fake_run_grid)

    class Ctx:
        results_dir = tmp_path

    experiments.sweep(Ctx(), "t", "p", [0.1], repetitions=3, fixed={"S": 100})
    assert seen == {"S": 100, "batch": 3}


@pytest.mark.parametrize("kind, fixed, source", [
    ("synthetic", {}, "synthetic"), ("multiattr", {}, "synthetic"), ("intel", {"scale": 0.01}, "synthetic"),
    ("mcafe", {}, "synthetic"), ("cars", {"prefer": "synthetic"}, "synthetic"),
    ("tpcds", {"source": "synthetic", "S": 500}, "synthetic"),
])
def test_every_sweep_records_which_data_it_used(kind, fixed, source):
    """datasets.csv must list the PrivateClean figures' data too (real or synthetic, generator, size)."""
    from dpworkbench.datasets import provenance
    from dpworkbench.privateclean.experiments import record_data_source

    provenance.clear()
    record_data_source(kind, fixed, seed=3)
    uses = provenance.used()
    assert len(uses) == 1 and uses[0].source == source and uses[0].rows_or_nodes > 0
    assert uses[0].dataset.startswith("privateclean.")
