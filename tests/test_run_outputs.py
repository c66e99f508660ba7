"""Headless runs leave complete, current outputs and a quiet terminal.

One tiny notebook is run twice with papermill (a failing run, then a good one): the executed
notebook and its HTML appear only complete, a success removes the old error.txt, the HTML page
draws its plotly figure with the shared plotly.js, and neither the TCP-encryption warning nor
nbconvert's template warning reaches the terminal. Unknown parameters are refused by name.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from dpworkbench.experiments.nbtools import NotebookInfo, check_parameters, new_notebook, run_many, run_notebook

pytestmark = pytest.mark.notebook


def _tiny(tmp_path: Path) -> NotebookInfo:
    nb = new_notebook([
        ("md", "# Tiny\nA test notebook."),
        ("params", "profile = 'ci'\ninteractive = True\noutput_dir = ''\nfail = False\nepsilon = 1.0"),
        ("code", "import plotly.graph_objects as go\nassert not fail, 'asked to fail'\n"
                 "go.Figure(go.Scatter(x=[1, 2], y=[epsilon, 2 * epsilon], name='s'))"),
    ])
    path = tmp_path / "nbs" / "mechanisms" / "learn_tiny.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(nb, str(path))
    return NotebookInfo(path, "mechanisms", "learn_tiny", "Tiny", "")


def test_run_outputs_are_complete_current_and_quiet(tmp_path, capfd, monkeypatch):
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "rt"))  # this test's kernels only (others may be running)
    info = _tiny(tmp_path)
    root = tmp_path / "reports"
    bad = run_notebook(info, profile="ci", output_root=root, parameters={"fail": True})
    out_dir = root / "mechanisms" / "learn_tiny"
    assert bad.status == "error" and "asked to fail" in bad.error
    assert (out_dir / "error.txt").exists()
    results = run_many([info], profile="ci", output_root=root, parameters={"epsilon": 50})
    assert [r.status for r in results] == ["ok"]
    assert not (out_dir / "error.txt").exists(), "a successful rerun left the old error.txt behind"
    assert not list(out_dir.glob(".*partial*")) and not (out_dir / "kernel.log").exists()
    executed = json.loads((out_dir / "learn_tiny.ipynb").read_text())
    assert any("application/vnd.plotly.v1+json" in o.get("data", {}) for c in executed["cells"] for o in c.get("outputs", []))
    page = (out_dir / "learn_tiny.html").read_text()
    assert '<script src="../../_static/plotly.min.js"></script>' in page and (root / "_static" / "plotly.min.js").exists()
    assert 'id="dpwb-fig-1"' in page and "Plotly.newPlot" in page and '"y":[50,100]' in page.replace(" ", "")
    from jupyter_core.paths import jupyter_runtime_dir

    assert not list(info.path.parent.glob("kernel-ipc*")), "IPC sockets left in the notebook's folder"
    assert not list(Path(jupyter_runtime_dir()).glob("dpwb-*")), "IPC socket files left in the runtime dir"
    err = capfd.readouterr()
    terminal = err.out + err.err
    assert "without encryption" not in terminal and "not able to be represented" not in terminal
    assert "KeyboardInterrupt" not in terminal
    lines = [ln for ln in err.out.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("[1/1] ok") and "mechanisms/learn_tiny" in lines[0]


def test_unknown_parameter_names_the_notebooks_parameters(tmp_path):
    info = _tiny(tmp_path)
    check_parameters(info, {"epsilon": 50, "fail": False})  # any value: validation belongs to the mechanism
    with pytest.raises(ValueError) as exc:
        check_parameters(info, {"epsilonn": 0.5})
    msg = str(exc.value)
    assert "'epsilonn'" in msg and "epsilon=1.0" in msg and "fail=False" in msg and "\n" not in msg
