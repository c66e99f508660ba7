"""Experiment runner (seeded cells, atomic parts, resume), summaries, notebook context, CLI."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from dpworkbench.experiments import NotebookContext, pick, relative_error, summarize, trimmed_mean
from dpworkbench.experiments.runner import cell_id, cell_rng, expand_grid, load_results, run_grid

GRID = {"algorithm": ["a", "b"], "epsilon": [0.1, 1.0, 10.0]}


def _cell(cell, rng):
    return {"error": abs(rng.laplace(0, 1 / cell["epsilon"]))}


def test_expand_grid_and_ids():
    cells = expand_grid(GRID, repetitions=3)
    assert len(cells) == 18
    assert len({cell_id(c) for c in cells}) == 18
    with pytest.raises(ValueError):
        expand_grid({"epsilon": []})


def test_cells_have_independent_reproducible_streams():
    c1, c2 = {"epsilon": 1.0, "repetition": 0}, {"epsilon": 1.0, "repetition": 1}
    assert cell_rng(0, c1).random() == cell_rng(0, c1).random()
    assert cell_rng(0, c1).random() != cell_rng(0, c2).random()
    assert cell_rng(0, c1).random() != cell_rng(1, c1).random()


def test_run_grid_writes_tidy_results(tmp_path):
    df = run_grid("exp", _cell, GRID, repetitions=2, seed=3, results_dir=tmp_path, progress=False)
    assert len(df) == 12 and {"algorithm", "epsilon", "repetition", "error", "cell_id", "seconds"} <= set(df.columns)
    on_disk = pd.read_csv(tmp_path / "exp" / "results.csv")
    assert len(on_disk) == 12
    again = run_grid("exp", _cell, GRID, repetitions=2, seed=3, results_dir=tmp_path, progress=False)
    pd.testing.assert_frame_equal(
        df.sort_values("cell_id").reset_index(drop=True)[["cell_id", "error"]],
        again.sort_values("cell_id").reset_index(drop=True)[["cell_id", "error"]],
    )


def test_run_grid_resumes_after_interruption(tmp_path):
    calls = []

    def flaky(cell, rng):
        calls.append(cell_id(cell))
        if len(calls) == 5:
            raise KeyboardInterrupt  # the user pressed stop
        return _cell(cell, rng)

    with pytest.raises(KeyboardInterrupt):
        run_grid("exp", flaky, GRID, repetitions=2, seed=3, results_dir=tmp_path, progress=False, flush_every=1)
    done = load_results(tmp_path / "exp")
    assert len(done) == 4  # the finished cells were written atomically; nothing half-written
    assert not list((tmp_path / "exp").glob("*.tmp*"))
    calls.clear()
    df = run_grid("exp", _cell_counting(calls), GRID, repetitions=2, seed=3, results_dir=tmp_path, progress=False)
    assert len(calls) == 8 and len(df) == 12
    # resumed values equal an uninterrupted run (same per-cell streams)
    ref = run_grid("ref", _cell, GRID, repetitions=2, seed=3, results_dir=tmp_path, progress=False)
    m = df.merge(ref, on="cell_id", suffixes=("", "_ref"))
    assert np.allclose(m["error"], m["error_ref"])


def _cell_counting(calls):
    def fn(cell, rng):
        calls.append(1)
        return _cell(cell, rng)

    return fn


def test_changed_fixed_parameters_do_not_reuse_results(tmp_path):
    run_grid("exp", _cell, GRID, fixed={"n": 10}, results_dir=tmp_path, progress=False)
    calls = []
    run_grid("exp", _cell_counting(calls), GRID, fixed={"n": 20}, results_dir=tmp_path, progress=False)
    assert len(calls) == 6


def test_summaries():
    assert trimmed_mean([100, 1, 2, 3, -50], drop=1) == pytest.approx(2.0)
    with pytest.raises(ValueError):
        trimmed_mean([])
    assert relative_error(12.0, 10.0) == pytest.approx(0.2)  # the package's one relative error, (output, truth)
    df = pd.DataFrame({"g": ["x"] * 4 + ["y"] * 4, "v": [1, 2, 3, 4, 5, 5, 5, 5]})
    s = summarize(df, ["g"], "v")
    assert s.set_index("g").loc["x", "mean"] == pytest.approx(2.5)
    with pytest.raises(ValueError, match="unknown column"):
        summarize(df, ["g"], "nope")


def test_pick_profiles():
    assert pick("ci", ci=1, quick=2, paper=3) == 1
    with pytest.raises(ValueError):
        pick("fast", ci=1, quick=2, paper=3)


def test_notebook_context_writes_claims_and_figures(tmp_path):
    import plotly.graph_objects as go

    ctx = NotebookContext("mechanisms/test_ctx", profile="ci", output_dir=tmp_path / "ci" / "mechanisms" / "test_ctx", seed=1)
    ctx.save_figure(go.Figure(go.Scatter(x=[1, 2], y=[3, 4])), "line", png=False)
    ctx.save_table(pd.DataFrame({"a": [1]}), "tab")
    ctx.claims.add("close", paper=1.0, ours=1.04, rtol=0.05)
    ctx.claims.add("far", paper=1.0, ours=2.0, rtol=0.05)
    ctx.finish()
    claims = json.loads((ctx.output_dir / "claims.json").read_text())
    assert [c["verdict"] for c in claims] == ["pass", "differs"]
    manifest = json.loads((ctx.output_dir / "manifest.json").read_text())
    assert (ctx.output_dir / manifest["figures"][0]["html"]).exists()
    with pytest.raises(ValueError, match="profile"):
        NotebookContext("mechanisms/x", profile="fast")


def test_cli_list_shows_notebooks():
    out = subprocess.run([sys.executable, "-m", "dpworkbench", "list"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "mechanisms/learn_laplace_composition" in out.stdout


def test_cli_run_rejects_unknown_notebook():
    out = subprocess.run([sys.executable, "-m", "dpworkbench", "run", "notebooks/nope.ipynb"], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode != 0
    assert "nope" in (out.stderr + out.stdout)


def test_hung_png_export_is_abandoned_and_the_html_kept(tmp_path, monkeypatch):
    """A headless Chromium that hangs must not stall a reproduce run: give up, keep the HTML, stop trying PNGs."""
    import threading
    import time

    import plotly.graph_objects as go

    from dpworkbench import plots

    release = threading.Event()

    def hung_write_image(self, path, **kwargs):
        release.wait(10)
        raise RuntimeError("browser finally answered")

    monkeypatch.setattr(plots, "png_export_available", lambda: True)
    monkeypatch.setattr(plots, "_start_png_server", lambda: None)
    monkeypatch.setattr(go.Figure, "write_image", hung_write_image)
    monkeypatch.setenv("DPWB_PNG_TIMEOUT", "0.5")
    monkeypatch.setitem(plots._PNG_STATE, "ok", True)
    t0 = time.perf_counter()
    with pytest.warns(UserWarning, match="took more than"):
        paths = plots.save_figure(go.Figure(go.Scatter(y=[1, 2])), tmp_path / "fig", png=True)
    release.set()
    assert time.perf_counter() - t0 < 5
    assert set(paths) == {"html"} and paths["html"].exists()
    assert not list(tmp_path.glob("*.png")), "no partial PNG is left behind"
    assert plots._PNG_STATE["ok"] is False, "PNG export is switched off for the rest of the process"
    monkeypatch.setenv("DPWB_PNG_TIMEOUT", "0")
    with pytest.raises(ValueError, match="DPWB_PNG_TIMEOUT"):
        plots.png_timeout_seconds()


def test_results_of_other_code_are_recomputed_but_streams_do_not_change(tmp_path):
    first = run_grid("exp", _cell, GRID, seed=3, results_dir=tmp_path, progress=False, code_version="v1")
    calls = []
    again = run_grid("exp", _cell_counting(calls), GRID, seed=3, results_dir=tmp_path, progress=False, code_version="v1")
    assert calls == [] and len(again) == len(first), "same code: everything reused"
    changed = run_grid("exp", _cell_counting(calls), GRID, seed=3, results_dir=tmp_path, progress=False, code_version="v2")
    assert len(calls) == 6 and len(changed) == 6, "other code: every cell recomputed, no stale rows returned"
    assert set(changed["code_version"]) == {"v2"} and set(load_results(tmp_path / "exp")["code_version"]) == {"v2"}
    m = changed.merge(first, on="cell_id", suffixes=("", "_v1"))
    assert np.allclose(m["error"], m["error_v1"]), "the code version is not part of a cell's random stream"


def test_default_code_version_is_a_hash_of_the_package():
    from dpworkbench.experiments.runner import package_code_version

    v = package_code_version()
    assert len(v) == 12 and int(v, 16) >= 0
