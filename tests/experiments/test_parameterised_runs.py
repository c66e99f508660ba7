"""`dpworkbench run -p` stays apart from the reproduction (issue 28): its own folder, its parameters recorded in
manifest.json, runs.csv and the code version, and `reproduce --resume` never keeps a run with other parameters."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pandas as pd
import pytest

from dpworkbench.cli import main
from dpworkbench.experiments import nbtools
from dpworkbench.experiments.nbtools import NotebookInfo, kept_run, new_notebook, parameters_json, run_code_version

# A tiny reproduction whose one number is its ε: the claim's `ours` tells which run wrote the folder.
BODY = """
from dpworkbench.experiments.context import NotebookContext
import pandas as pd
ctx = NotebookContext('mechanisms/learn_tiny', profile=profile, output_dir=output_dir or None)
ctx.claims.add('epsilon used', paper=1.0, ours=float(epsilon), rtol=0.01, source='check', cause='open:the parameter did not reach the notebook')
ctx.save_table(pd.DataFrame({'epsilon': [float(epsilon)]}), 'used')
ctx.finish()
"""


def _project(tmp_path: Path, monkeypatch) -> Path:
    nbs = tmp_path / "nbs"
    path = nbs / "mechanisms" / "learn_tiny.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(new_notebook([("md", "# Tiny\nA test notebook."),
                                 ("params", "profile = 'ci'\ninteractive = True\noutput_dir = ''\nepsilon = 1.0"),
                                 ("code", BODY)]), str(path))
    monkeypatch.setattr(nbtools, "notebooks_dir", lambda: nbs)
    for var, sub in (("DPWB_REPORTS", "reports"), ("DPWB_RESULTS", "results"), ("JUPYTER_RUNTIME_DIR", "rt")):
        monkeypatch.setenv(var, str(tmp_path / sub))
    return path


def _ours(out_dir: Path) -> float:
    return json.loads((out_dir / "claims.json").read_text())[0]["our_value"]


@pytest.mark.notebook
def test_run_with_parameters_then_reproduce_resume_keeps_the_reproductions_own_numbers(tmp_path, monkeypatch, capsys):
    _project(tmp_path, monkeypatch)
    reports = tmp_path / "reports"
    profile_dir = reports / "ci" / "mechanisms" / "learn_tiny"

    assert main(["run", "mechanisms/learn_tiny", "-p", "epsilon", "0.5", "--profile", "ci"]) == 0
    assert "parameterised run" in capsys.readouterr().out
    assert not profile_dir.exists() and not (reports / "ci" / "runs.csv").exists(), "the -p run wrote into the profile"
    (param_dir,) = (reports / "runs" / "mechanisms" / "learn_tiny").iterdir()
    assert param_dir.name.startswith("ci-") and _ours(param_dir) == 0.5
    manifest = json.loads((param_dir / "manifest.json").read_text())
    assert manifest["parameters"] == {"epsilon": 0.5} and manifest["overrides"] == {"epsilon": 0.5}
    row = pd.read_csv(reports / "runs" / "runs.csv", dtype=str).iloc[0]
    assert json.loads(row.parameters) == {"epsilon": 0.5}
    assert row.code_version == manifest["code_version"]
    info = nbtools.discover_notebooks()[0]
    assert row.code_version != run_code_version(info), "the code version ignores the -p values"
    # its tables went apart too, not into results/ci/... where the reproduction's are
    assert not (tmp_path / "results" / "ci" / "mechanisms" / "learn_tiny" / "used.csv").exists()

    assert main(["reproduce", "--profile", "ci", "--resume", "--only", "learn_tiny"]) == 0
    out = capsys.readouterr().out
    assert "reproducing 1 notebook in" in out and "1 ok (0 kept" in out, out
    assert _ours(profile_dir) == 1.0, "the reproduction shows the ε = 0.5 run's numbers"
    assert json.loads((profile_dir / "manifest.json").read_text())["parameters"] == {}
    runs = pd.read_csv(reports / "ci" / "runs.csv", dtype=str)
    assert list(runs.parameters) == ["{}"]
    claims = pd.read_csv(reports / "ci" / "checks.csv")  # the notebook's one claim is a check: listed apart
    assert claims["our_value"].astype(float).tolist() == [1.0]

    # a second -p run with other values gets another folder; the first is still there
    assert main(["run", "mechanisms/learn_tiny", "-p", "epsilon", "2", "--profile", "ci"]) == 0
    assert len(list((reports / "runs" / "mechanisms" / "learn_tiny").iterdir())) == 2
    assert len(pd.read_csv(reports / "runs" / "runs.csv")) == 2
    # and resume keeps the reproduction, untouched by it
    assert main(["reproduce", "--profile", "ci", "--resume", "--only", "learn_tiny"]) == 0
    assert "1 ok (1 kept" in capsys.readouterr().out and _ours(profile_dir) == 1.0


def test_resume_does_not_keep_a_row_run_with_other_parameters(tmp_path):
    """A runs.csv row whose parameters are not the profile's (or that predates the column) is never kept, even with
    the same code version: e.g. a folder written by `run -p` before runs were kept apart."""
    path = tmp_path / "nbs" / "mechanisms" / "learn_tiny.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(new_notebook([("params", "epsilon = 1.0")]), str(path))
    info = NotebookInfo(path, "mechanisms", "learn_tiny", "Tiny", "")
    out = tmp_path / "reports" / "mechanisms" / "learn_tiny"
    out.mkdir(parents=True)
    (out / "learn_tiny.ipynb").write_text("{}")
    row = {"status": "ok", "code_version": run_code_version(info), "seconds": 1.0}
    assert kept_run(info, tmp_path / "reports", {info.name: {**row, "parameters": parameters_json({})}}) is not None
    for other in ('{"epsilon":0.5}', float("nan"), None):
        assert kept_run(info, tmp_path / "reports", {info.name: {**row, "parameters": other}}) is None, other


def test_a_runner_parameter_given_with_p_is_refused(capsys):
    assert main(["run", "mechanisms/learn_sparse_vector", "-p", "profile", '"paper"']) == 2
    assert "--profile" in capsys.readouterr().err
