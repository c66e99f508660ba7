"""R2T's τ's on two threads (dpworkbench/r2t/parallel.py): seeded outputs equal the sequential path's exactly (same
float, same winning τ), and the release path's per-τ values are bit-identical, with and without the early stop."""

import threading
import time

import numpy as np
import pytest

from dpworkbench.graphs import holme_kim
from dpworkbench.r2t import Truncation, r2t
from dpworkbench.r2t.mechanisms.common import tau_grid
from dpworkbench.r2t.parallel import default_workers, parallel_safe, race, solve_all
from dpworkbench.r2t.patterns import graph_joininfo

GS = {"path2": 64.0 ** 2, "triangle": 64.0 ** 2, "rectangle": 64.0 ** 3}


def _info(query, seed=11):
    # path2 has ~5× the join results of the others on the same graph: a smaller graph keeps the test fast
    return graph_joininfo(holme_kim(120 if query == "path2" else 250, 4, 0.6, seed=seed), query)


@pytest.mark.parametrize("query", ["path2", "triangle", "rectangle"])
def test_seeded_outputs_equal_sequential_exactly(query, monkeypatch):
    info = _info(query)
    for seed in range(4):
        # every τ solved (no pruning) once; the pruned runs, with and without early stop, for every seed
        for prune, early in ((True, True), (True, False)) + (((False, False),) if seed == 0 else ()):
            monkeypatch.setenv("DPWB_R2T_WORKERS", "1")
            seq = r2t(Truncation(info), epsilon=0.8, gs=GS[query], rng=seed, prune=prune, early_stop=early)
            monkeypatch.setenv("DPWB_R2T_WORKERS", "2")
            par = r2t(Truncation(info), epsilon=0.8, gs=GS[query], rng=seed, prune=prune, early_stop=early)
            assert par.value == seq.value  # the same float, not approximately
            assert par.winner_tau == seq.winner_tau
            solved = ~np.isnan(par.truncated) & ~np.isnan(seq.truncated)
            assert np.array_equal(par.truncated[solved], seq.truncated[solved])


def test_solve_all_is_bit_identical_and_really_runs_two_at_once(monkeypatch):
    info = _info("path2")
    taus = tau_grid(GS["path2"], 2.0)
    seq = solve_all(Truncation(info, shortcut=False), taus, workers=1)
    tr = Truncation(info, shortcut=False)
    in_flight, peak = [0], [0]
    lock = threading.Lock()
    orig = tr.value

    def counting(tau):  # count concurrent solves: a 2-worker pool must overlap at least two τ's
        with lock:
            in_flight[0] += 1
            peak[0] = max(peak[0], in_flight[0])
        try:
            time.sleep(0.01)
            return orig(tau)
        finally:
            with lock:
                in_flight[0] -= 1

    monkeypatch.setattr(tr, "value", counting)
    par = solve_all(tr, taus, workers=2)
    assert np.array_equal(par, seq) and peak[0] == 2


def test_release_path_solves_every_tau_with_the_same_values(monkeypatch):
    """rng=None: every τ exact (no pruning, no early stop); its Q(I, τ) equal the sequential floats."""
    info = _info("triangle")
    monkeypatch.setenv("DPWB_R2T_WORKERS", "2")
    rel = r2t(Truncation(info), epsilon=0.8, gs=GS["triangle"])
    taus = tau_grid(GS["triangle"], 2.0)
    assert rel.solved == taus.size and rel.exact["early_stopped"] == 0
    assert np.array_equal(rel.truncated, solve_all(Truncation(info), taus, workers=1))


def test_race_never_stops_a_tau_that_could_win():
    """Random noise vectors (many seeds, including large ones that make every τ a contender): the raced maximum is the
    maximum over all exactly solved candidates."""
    info = _info("rectangle", seed=3)
    taus = tau_grid(GS["rectangle"], 2.0)
    full = solve_all(Truncation(info), taus, workers=1)
    tr = Truncation(info)
    lbs, ubs = np.array([tr.bounds(t) for t in taus]).T
    rng = np.random.default_rng(0)
    for _ in range(6):
        noise = rng.laplace(0, rng.choice([1.0, 100.0, 1e4]), taus.size)
        penalty = rng.uniform(0, 50, taus.size) * taus / taus.max()
        want = max(0.0, float((full + noise - penalty).max()))
        values = np.full(taus.size, np.nan)
        exact = ubs <= lbs
        values[exact] = ubs[exact]
        best0 = max(0.0, float((lbs + noise - penalty).max()))
        best, solved, stopped = race(Truncation(info), taus, noise, penalty, values, exact, ubs + noise - penalty,
                                     best0, early_stop=True, workers=2)
        assert best == pytest.approx(want, rel=1e-12, abs=1e-9)


def test_workers_setting_and_safety(monkeypatch):
    info = _info("path2")
    assert parallel_safe(Truncation(info)) and not parallel_safe(Truncation(info, reduce=False))
    from dpworkbench.r2t.parallel import _workers

    monkeypatch.delenv("DPWB_R2T_WORKERS", raising=False)
    assert _workers(Truncation(info), None) == 1  # a small instance: no thread pool unless asked for
    assert _workers(Truncation(info), 2) == 2 and _workers(Truncation(info, reduce=False), 2) == 1
    monkeypatch.setenv("DPWB_R2T_WORKERS", "3")
    assert default_workers() == 3 and _workers(Truncation(info), None) == 3
    monkeypatch.setenv("DPWB_R2T_WORKERS", "zero")
    with pytest.raises(ValueError, match="DPWB_R2T_WORKERS"):
        default_workers()
