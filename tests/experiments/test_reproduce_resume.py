"""`reproduce --resume` and `--timeout`: what a finished run's code version covers, which runs are kept, and
how runs.csv and timing.md record each notebook (status, seconds, claim verdicts, commit)."""

from __future__ import annotations

import time
from pathlib import Path

import nbformat
import pandas as pd
import pytest

from dpworkbench.experiments import nbtools
from dpworkbench.experiments.nbtools import NotebookInfo, new_notebook, run_code_version, run_many
from dpworkbench.experiments.report import timing_markdown, write_runs


def _mini_project(root: Path) -> dict[str, Path]:
    """A package with two core modules and two papers, r2t reaching one core, plus an r2t notebook."""
    files = {
        "core": root / "dpworkbench" / "core.py",
        "r2t": root / "dpworkbench" / "r2t" / "model.py",
        "dampening": root / "dpworkbench" / "dampening" / "model.py",
        "cli": root / "dpworkbench" / "cli" / "__init__.py",
        "report": root / "dpworkbench" / "report.py",
        "notebook": root / "notebooks" / "r2t" / "tab01_x.py",
    }
    texts = {
        "core": "X = 1\n",
        "r2t": "from ..core import X\nY = X\n",
        "dampening": "Z = 3\n",
        "cli": "from dpworkbench.dampening import model\n",  # integration code over papers: not reached from r2t
        "report": "from .core import X\n",  # runner-side core code that no notebook imports
        "notebook": "# %%\nfrom dpworkbench.r2t import model\nprint(model.Y)\n",
    }
    for key, path in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(texts[key])
    for pkg in ("dpworkbench", "dpworkbench/r2t", "dpworkbench/dampening"):
        (root / pkg / "__init__.py").write_text("")
    return files


def test_code_version_covers_the_notebook_and_only_the_modules_it_reaches(tmp_path, monkeypatch):
    files = _mini_project(tmp_path)
    monkeypatch.setattr(nbtools, "project_root", lambda: tmp_path)
    info = NotebookInfo(files["notebook"].with_suffix(".ipynb"), "r2t", "tab01_x", "x", "")
    v0 = run_code_version(info)
    assert run_code_version(info) == v0, "not deterministic"
    files["dampening"].write_text("Z = 4\n")
    files["cli"].write_text("from dpworkbench.dampening import model  # edited\n")
    files["report"].write_text("from .core import X  # edited\n")
    assert run_code_version(info) == v0, "an edit in another paper, the CLI or the report voided an r2t run"
    changed = {}
    for key, edit in (("r2t", "from ..core import X\nY = X + 1\n"), ("core", "X = 2\n"),
                      ("notebook", "# %%\nfrom dpworkbench.r2t import model\nprint(model.Y, 1)\n")):
        before = run_code_version(info)
        files[key].write_text(edit)
        changed[key] = run_code_version(info) != before
    assert changed == {"r2t": True, "core": True, "notebook": True}
    before = run_code_version(info)
    assert run_code_version(NotebookInfo(info.path, "r2t", "tab01_x", "x", "", (("epsilon", 2.0),))) != before, \
        "manifest parameters are not part of the version"


def _tiny(tmp_path: Path, body: str) -> NotebookInfo:
    nb = new_notebook([
        ("md", "# Tiny\nA test notebook."),
        ("params", "profile = 'ci'\ninteractive = True\noutput_dir = ''"),
        ("code", body),
    ])
    path = tmp_path / "nbs" / "mechanisms" / "learn_tiny.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(path))
    return NotebookInfo(path, "mechanisms", "learn_tiny", "Tiny", "")


CLAIMS = ("from dpworkbench.experiments.claims import Claims, at_least, not_comparable\nimport json, pathlib\nc = Claims()\n"
          "c.add('a', paper='≥ 1', ours=2, rule=at_least(1))\nc.add('b', paper='≥ 3', ours=2, rule=at_least(3))\n"
          "c.add('c', paper='x', ours=None, rule=not_comparable('no value'))\n"
          "from dataclasses import asdict\npathlib.Path(output_dir, 'claims.json').write_text(json.dumps([asdict(r) for r in c.rows], default=str))\n")


@pytest.mark.notebook
def test_resume_keeps_unchanged_runs_and_reruns_edited_or_failed_ones(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "rt"))
    info = _tiny(tmp_path, CLAIMS)
    root = tmp_path / "reports"

    def record(r):
        write_runs(root, [r])

    first = run_many([info], profile="ci", output_root=root, on_result=record, resume=True)
    assert [(r.status, r.kept) for r in first] == [("ok", False)]
    runs = pd.read_csv(root / "runs.csv", dtype={"code_version": str})
    row = runs.iloc[0]
    assert (row.claims_pass, row.claims_differs, row.claims_not_comparable) == (1, 1, 1)
    assert row.code_version == run_code_version(info) and row.finished.endswith("Z")
    second = run_many([info], profile="ci", output_root=root, on_result=record, resume=True)
    assert [(r.status, r.kept) for r in second] == [("ok", True)]
    assert second[0].seconds == pytest.approx(row.seconds, abs=0.01), "a kept run must report its own measured time"
    assert "kept" in capsys.readouterr().out
    table = timing_markdown(root, [info])
    assert "| mechanisms/learn_tiny | ok |" in table and "| 1 / 1 / 1 |" in table and "total (1 ok of 1)" in table
    # an edit to the notebook voids the kept run
    nb = nbformat.read(str(info.path), as_version=4)
    nb.cells[-1].source += "\nprint('edited')"
    nbformat.write(nb, str(info.path))
    third = run_many([info], profile="ci", output_root=root, on_result=record, resume=True)
    assert [(r.status, r.kept) for r in third] == [("ok", False)]
    # without --resume everything runs again
    fourth = run_many([info], profile="ci", output_root=root, on_result=record, resume=False)
    assert [r.kept for r in fourth] == [False]


@pytest.mark.notebook
def test_a_cell_past_the_timeout_is_recorded_as_timeout_and_not_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "rt"))
    info = _tiny(tmp_path, "import time\ntime.sleep(30)")
    root = tmp_path / "reports"
    t0 = time.perf_counter()
    res = run_many([info], profile="ci", output_root=root, timeout=2, on_result=lambda r: write_runs(root, [r]))
    assert time.perf_counter() - t0 < 25, "the timeout did not stop the cell"
    assert res[0].status == "timeout" and "2 s" in res[0].error
    assert pd.read_csv(root / "runs.csv").iloc[0].status == "timeout"
    assert "| timeout |" in timing_markdown(root, [info])
    assert nbtools.kept_run(info, root, {info.name: {"status": "timeout", "code_version": run_code_version(info)}}) is None


@pytest.mark.notebook
def test_two_jobs_run_side_by_side_and_return_results_in_order(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "rt"))
    import os

    infos = []
    cwd = os.getcwd()
    for k in range(3):
        nb = new_notebook([("params", "profile = 'ci'\ninteractive = True\noutput_dir = ''"),
                           ("code", "import os, time\nprint('cwd=' + os.getcwd())\ntime.sleep(4)")])
        path = tmp_path / f"nbs{k}" / "mechanisms" / f"learn_t{k}.ipynb"  # each in its own folder
        path.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, str(path))
        infos.append(NotebookInfo(path, "mechanisms", f"learn_t{k}", "t", ""))
    root = tmp_path / "reports"
    t0 = time.perf_counter()
    res = run_many(infos, profile="ci", output_root=root, jobs=2, on_result=lambda r: write_runs(root, [r]))
    wall = time.perf_counter() - t0
    assert [r.name for r in res] == [i.name for i in infos] and {r.status for r in res} == {"ok"}
    assert wall < sum(r.seconds for r in res) - 3, f"no overlap: {wall:.1f}s wall for {[r.seconds for r in res]}"
    assert len(pd.read_csv(root / "runs.csv")) == 3
    assert os.getcwd() == cwd, "the runner's own working directory changed (papermill's process-wide chdir)"
    for info in infos:  # each kernel ran in its own notebook's folder, though two ran at once
        executed = nbformat.read(str(root / "mechanisms" / info.stem / f"{info.stem}.ipynb"), as_version=4)
        printed = "".join(o.get("text", "") for c in executed.cells for o in c.get("outputs", []))
        assert f"cwd={info.path.parent}" in printed, printed
    again = run_many(infos, profile="ci", output_root=root, jobs=2, resume=True)
    assert all(r.kept for r in again)


@pytest.mark.notebook
def test_a_kernel_past_the_memory_limit_is_stopped_and_recorded(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "rt"))
    info = _tiny(tmp_path, "import numpy as np, time\nx = np.ones(100_000_000)  # 800 MB\ntime.sleep(20)")
    root = tmp_path / "reports"
    res = run_many([info], profile="ci", output_root=root, max_memory_gb=0.4, on_result=lambda r: write_runs(root, [r]))
    assert res[0].status == "memory" and "0.4 GB" in res[0].error, res[0]
    assert res[0].seconds < 18, "the kernel was not stopped"
    assert pd.read_csv(root / "runs.csv").iloc[0].status == "memory"
    fine = run_many([_tiny(tmp_path, "x = 1")], profile="ci", output_root=root, max_memory_gb=0.4)
    assert fine[0].status == "ok"
