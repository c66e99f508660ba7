"""Results come back in the order their cells ran, even when many parts are written within one second (a random
part-name suffix used to shuffle them, so a mean over the rows changed in its last digit from run to run)."""

from __future__ import annotations

from dpworkbench.experiments.runner import run_grid


def test_rows_come_back_in_the_order_written(tmp_path):
    df = run_grid("order", lambda c, rng: {"v": c["i"]}, {"i": list(range(40))}, results_dir=tmp_path, progress=False,
                  flush_every=1, code_version="x")
    assert list(df["v"]) == list(range(40))
