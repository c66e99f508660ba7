"""R2T experiment drivers run through run_grid: per-cell streams, resume, OT handling, summaries."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpworkbench.experiments import trimmed_mean
from dpworkbench.r2t import experiments, model

LIMITS = {"rm_max_m": 200, "opt2_max_m": 2000, "lp_time_limit": 10}


@pytest.fixture(scope="module")
def instances():
    return [experiments.graph_instance("roadnet_pa", q, n=150, seed=0) for q in ("edge", "triangle")]


def test_evaluate_resumes_with_identical_results_and_one_stream_per_cell(instances, tmp_path):
    kw = dict(repetitions=3, seed=0, limits=LIMITS, timing_epsilon=None, results_dir=tmp_path, progress=False)
    runs, timings = experiments.evaluate(instances, ["R2T", "LP", "NT"], [0.8, 3.2], **kw)
    assert timings.empty and len(runs) == 2 * 3 * 2 * 3
    assert runs.cell_id.is_unique and set(runs.status) == {"ok"}
    again, _ = experiments.evaluate(instances, ["R2T", "LP", "NT"], [0.8, 3.2], **kw)  # resumed from the parts
    pd.testing.assert_series_equal(runs.sort_values("cell_id").estimate.reset_index(drop=True),
                                   again.sort_values("cell_id").estimate.reset_index(drop=True))
    other, _ = experiments.evaluate(instances, ["R2T", "LP", "NT"], [0.8, 3.2], **{**kw, "seed": 1, "results_dir": tmp_path / "s1"})
    assert not np.allclose(runs.sort_values("cell_id").estimate.to_numpy(), other.sort_values("cell_id").estimate.to_numpy())
    # a subset of the grid reuses the same cells: the stream of a cell does not depend on the other cells
    sub, _ = experiments.evaluate(instances[:1], ["R2T"], [0.8], **{**kw, "results_dir": tmp_path / "sub"})
    merged = sub.merge(runs, on="cell_id", suffixes=("", "_full"))
    assert len(merged) == 3 and np.allclose(merged.estimate, merged.estimate_full)


def test_over_the_limit_is_reported_as_ot_and_timed_once(instances, tmp_path):
    runs, timings = experiments.evaluate(instances[:1], ["R2T", "RM"], [0.8], repetitions=2, seed=0,
                                         limits={**LIMITS, "rm_max_m": 1}, results_dir=tmp_path, progress=False)
    assert dict(zip(timings.mechanism, timings.status)) == {"R2T": "ok", "RM": "OT"}
    assert set(runs[runs.mechanism == "RM"].status) == {"OT"} and runs[runs.mechanism == "RM"].estimate.isna().all()
    s = experiments.summarize_runs(runs)
    assert s.set_index("mechanism").loc["RM", "status"] == "OT"


def test_summarize_runs_is_the_20_percent_trimmed_mean():
    errs = np.array([1.0, 2, 3, 4, 5, 6, 7, 8, 9, 100])
    runs = pd.DataFrame({"dataset": "d", "query": "edge", "mechanism": "R2T", "epsilon": 0.8, "abs_error": errs, "answer": 50.0,
                         "DS": 5.0, "source": "synthetic", "status": "ok"})
    s = experiments.summarize_runs(runs).iloc[0]
    assert s.error == pytest.approx(np.mean(errs[2:8])) == trimmed_mean(errs, proportion=0.2)
    assert s.rel_error_pct == pytest.approx(100 * s.error / 50) and s.error_over_DS == pytest.approx(s.error / 5)


def test_fixed_tau_errors_and_early_stop(instances, tmp_path):
    fixed = experiments.fixed_tau_errors(instances[0], range(1, 4), epsilon=0.8, repetitions=20, results_dir=tmp_path, progress=False)
    assert list(fixed.k) == [1, 2, 3] and list(fixed.label_printed) == ["GS/8^0", "GS/8^1", "GS/8^2"]
    assert (fixed.bias >= 0).all() and (fixed.tau == instances[0].gs / 8.0 ** fixed.k).all()
    table = experiments.early_stop_timing(instances[1], epsilon=0.8, results_dir=tmp_path, progress=False)
    assert list(table.mechanism) == ["R2T", "OPT2"] and table.identical_output.all()
    assert (table.LPs_with <= table.LPs_without).all()


def test_instance_key_follows_the_data():
    a = experiments.graph_instance("roadnet_pa", "edge", n=150, seed=0)
    b = experiments.graph_instance("roadnet_pa", "edge", n=150, seed=1)
    c = experiments.graph_instance("roadnet_pa", "edge", n=150, seed=0)
    assert a.key == c.key and a.key != b.key
    assert model.Instance(a.dataset, a.query, a.info, 2 * a.gs, a.source, a.graph, a.degree_bound).key != a.key


def test_a_run_past_the_run_time_limit_is_ot_and_the_deadline_is_cleared(tmp_path):
    """The paper profile's per-run limit: an LP started past it raises, the cell is OT (no estimate), and the
    instance's solvers carry no deadline afterwards (a later run without a limit must not inherit it)."""
    inst = experiments.graph_instance("roadnet_pa", "triangle", n=150, seed=0)  # GS 256, DS 2: τ = GS/8^3 < DS needs the LP
    fixed = experiments.fixed_tau_errors(inst, [3, 4], epsilon=0.8, repetitions=5, results_dir=tmp_path / "f",
                                         progress=False, run_time_limit=-1.0)  # already past the deadline
    assert set(fixed.status) == {"OT"} and fixed.error.isna().all()
    assert inst.trunc.deadline is None and inst.fhat.deadline is None
    social = experiments.graph_instance("amazon2", "edge", n=300, seed=0)  # τ = 2 < DS: R2T must solve (max-flow)
    assert social.ds > 2
    runs, _ = experiments.evaluate([social], ["R2T"], [0.8], repetitions=2, seed=0, timing_epsilon=None,
                                   limits={**LIMITS, "run_time_limit": -1.0}, results_dir=tmp_path / "e", progress=False)
    assert set(runs.status) == {"OT"} and social.trunc.deadline is None and social.fhat.deadline is None
    ok = experiments.fixed_tau_errors(inst, [3, 4], epsilon=0.8, repetitions=5, results_dir=tmp_path / "g", progress=False)
    assert set(ok.status) == {"ok"} and ok.error.notna().all()


def test_oversize_instance_is_ot_for_fixed_tau_and_fixed_tau_has_its_se(tmp_path):
    """An instance over the profile's join-result cap (counted, not materialised) has no LP: each fixed τ is OT, not the
    empty instance's 0; a solved τ carries the Monte-Carlo SE of its trimmed mean (Table 3's two-sided bands)."""
    # Q□ (Q2- over the cap is counted per node instead, tests/r2t/test_aggregate.py)
    big = experiments.graph_instance("roadnet_pa", "rectangle", n=150, seed=0, max_m=10)
    assert big.oversize > 10
    fixed = experiments.fixed_tau_errors(big, [1, 2], epsilon=0.8, repetitions=5, results_dir=tmp_path / "o", progress=False)
    assert set(fixed.status) == {"OT"} and fixed.error.isna().all() and fixed.se.isna().all()
    inst = experiments.graph_instance("roadnet_pa", "edge", n=150, seed=0)
    ok = experiments.fixed_tau_errors(inst, [1, 3], epsilon=0.8, repetitions=20, results_dir=tmp_path / "s", progress=False)
    assert np.isfinite(ok.se).all() and (ok.se > 0).all()


def test_early_stop_run_time_limit_gives_a_lower_bound_on_the_speedup(tmp_path):
    """Table 4 with a per-run limit: a run past it is OT; when only the run without early stop is OT the speed-up is at
    least limit / time with. With no limit the column is NaN and the runs are as before."""
    inst = experiments.graph_instance("roadnet_pa", "rectangle", n=400, seed=0)
    t = experiments.early_stop_timing(inst, epsilon=0.8, opt2_too=False, results_dir=tmp_path / "a", progress=False)
    assert t.status.iloc[0] == "ok" and np.isnan(t.speedup_at_least.iloc[0])
    t = experiments.early_stop_timing(inst, epsilon=0.8, opt2_too=False, results_dir=tmp_path / "b", progress=False,
                                      run_time_limit=-1.0)  # every run is already past its limit
    assert t.status.iloc[0] == "OT" and np.isnan(t.with_early_stop_s.iloc[0]) and np.isnan(t.speedup.iloc[0])


def test_graph_instance_column_cap_is_separate_from_the_join_result_cap():
    """Q2- over max_m is counted per node; its reduced-LP column cap is max_cols when given (the paper profile sets it
    far above max_m: a column of the reduced LP costs far less than a listed path), max_m otherwise."""
    capped = experiments.graph_instance("roadnet_pa", "path2", n=150, seed=0, max_m=10)
    wide = experiments.graph_instance("roadnet_pa", "path2", n=150, seed=0, max_m=10, max_cols=10**7)
    assert capped.aggregated and wide.aggregated
    assert capped.trunc.max_cols == 10 and wide.trunc.max_cols == 10**7


# Table 2 runs one graph at a time (evaluate_by_dataset): small graphs, every mechanism that keeps per-instance state
# (R2T/LP truncations, OPT²'s F̂, NT/SDE's graph statistics and SDE's shared distance LPs), Q2- both enumerated and
# per-node counted (max_m below its path count), Q□ oversize (max_m below its count).
_BY_DS = dict(mechanisms=["R2T", "OPT2", "LP", "NT", "SDE"], epsilons=[0.8], repetitions=2, seed=0,
              limits={**LIMITS, "max_m": 400, "max_cols": 10**6}, progress=False)
# sizes no other test uses: the memory cache returns the same objects for the same graph, and another test's fixture
# holding them would keep them alive
_BY_DS_GRAPHS = {"roadnet_pa": 170, "amazon2": 130}


def _by_ds_build(d: str) -> list:
    return [experiments.graph_instance(d, q, n=_BY_DS_GRAPHS[d], seed=0, max_m=_BY_DS["limits"]["max_m"],
                                       max_cols=_BY_DS["limits"]["max_cols"]) for q in ("edge", "path2", "triangle", "rectangle")]


def test_evaluate_by_dataset_frees_each_graphs_instances_before_the_next(tmp_path):
    import gc
    import weakref

    from dpworkbench import cache

    for ns in ("r2t.graph_joininfo", "r2t.standin"):  # objects of earlier tests are not this test's to free
        cache.clear(ns, disk=False)
    alive: list[tuple[str, weakref.ref]] = []

    def build(d):
        gc.collect()
        # every object of an earlier graph is gone by the time the next graph is built (its cells have all run)
        assert [name for name, r in alive if r() is not None] == []
        insts = _by_ds_build(d)
        for i in insts:
            alive.extend([(f"{d}/{i.query} instance", weakref.ref(i)), (f"{d}/{i.query} join info", weakref.ref(i.info)),
                          (f"{d}/{i.query} truncation", weakref.ref(i.trunc)), (f"{d} graph", weakref.ref(i.graph))])
        return insts

    kinds = {d: [(i.query, i.aggregated, bool(i.oversize)) for i in _by_ds_build(d)] for d in _BY_DS_GRAPHS}
    assert any(agg for k in kinds.values() for _, agg, _ in k) and any(o for k in kinds.values() for *_, o in k)
    runs, timings, overview = experiments.evaluate_by_dataset(build, list(_BY_DS_GRAPHS), results_dir=tmp_path, **_BY_DS)
    gc.collect()
    assert [name for name, r in alive if r() is not None] == []
    assert len(overview) == 8 and set(runs.dataset) == set(_BY_DS_GRAPHS) and (runs.status == "ok").any()
    assert {*experiments._SDE_PROJECTIONS} == set()  # SDE's distance LPs (they hold their graph) went with it
    # the results.csv of each grid is the whole grid's, not the last graph's
    assert set(pd.read_csv(tmp_path / "r2t_graph" / "results.csv").dataset) == set(_BY_DS_GRAPHS)
    assert set(pd.read_csv(tmp_path / "r2t_graph_timing" / "results.csv").dataset) == set(_BY_DS_GRAPHS)


def test_evaluate_by_dataset_gives_the_seeded_outputs_of_one_grid_over_all_instances(tmp_path):
    # the old path: every instance built first, one evaluate over all of them (separate results, so nothing is reused)
    everything = [i for d in _BY_DS_GRAPHS for i in _by_ds_build(d)]
    old_runs, old_t = experiments.evaluate(everything, results_dir=tmp_path / "old", **_BY_DS)
    del everything
    new_runs, new_t, _ = experiments.evaluate_by_dataset(_by_ds_build, list(_BY_DS_GRAPHS), results_dir=tmp_path / "new", **_BY_DS)
    cols = ["cell_id", "instance", "mechanism", "rep", "status", "estimate", "abs_error"]
    a = old_runs[cols].sort_values("cell_id").reset_index(drop=True)
    b = new_runs[cols].sort_values("cell_id").reset_index(drop=True)
    assert len(a) == 8 * 5 * 2 and (a.status == "ok").sum() > 30
    pd.testing.assert_frame_equal(a, b, check_exact=True)  # the same cells, streams and values (NaN where OT)
    pd.testing.assert_frame_equal(old_t[["cell_id", "status"]].sort_values("cell_id").reset_index(drop=True),
                                  new_t[["cell_id", "status"]].sort_values("cell_id").reset_index(drop=True))
