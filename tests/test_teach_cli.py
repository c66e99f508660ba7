"""`dpworkbench teach` and `dpworkbench lab` build the right commands and refuse bad names in one line."""

from __future__ import annotations

import pytest

from dpworkbench.cli import main
from dpworkbench.paths import project_root


def test_teach_serves_a_learn_notebook_on_localhost_without_code(capsys):
    assert main(["teach", "learn_sparse_vector", "--print-command", "--port", "9999"]) == 0
    cmd = capsys.readouterr().out.split()
    assert cmd[1:3] == ["-m", "voila"] and cmd[3].endswith("notebooks/mechanisms/learn_sparse_vector.ipynb")
    assert "--port=9999" in cmd and "--Voila.ip=127.0.0.1" in cmd and "--strip_sources=True" in cmd
    assert "--show_tracebacks=False" in cmd


def test_teach_lists_names_with_titles_and_refuses_unknown_notebooks(capsys):
    from dpworkbench.experiments.nbtools import discover_notebooks

    assert main(["teach", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    listed = {ln.split()[0]: ln.split(None, 1)[1] if len(ln.split()) > 1 else "" for ln in lines}
    assert "mechanisms/learn_sparse_vector" in listed and all("/learn_" in n for n in listed)
    titles = {i.notebook: i.title for i in discover_notebooks() if i.kind == "teaching"}
    assert listed == {n: titles[n] for n in listed}, "each name must be followed by its notebook's title"
    assert listed["mechanisms/learn_sparse_vector"] == "The sparse vector technique (AboveThreshold)"
    assert main(["teach", "learn_nothing_like_this"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "learn_nothing_like_this" in err and "mechanisms/learn_sparse_vector" in err


def test_lab_uses_the_project_lab_settings(capsys):
    assert main(["lab", "--print-command"]) == 0
    out = capsys.readouterr().out
    settings = project_root() / "lab" / "settings"
    assert f"--LabApp.app_settings_dir={settings}" in out
    import json

    overrides = json.loads((settings / "overrides.json").read_text())
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"


@pytest.mark.parametrize("nb", ["mechanisms/learn_sparse_vector", "learn_sparse_vector.ipynb"])
def test_teach_accepts_paper_and_bare_names(nb, capsys):
    assert main(["teach", nb, "--print-command"]) == 0
    assert "learn_sparse_vector.ipynb" in capsys.readouterr().out
