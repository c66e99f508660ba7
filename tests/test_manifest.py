"""The run manifest (notebooks/manifest.toml): notebook × parameters × output name.

``dpworkbench list``/``reproduce``/``report``, the gallery and tests/test_notebooks.py run what
:func:`discover_notebooks` returns: every notebook once, except those the manifest lists, which run once
per entry (Figs. 4 and 5 of the inconsistency paper come from one notebook with a ``noise`` parameter).
"""

from __future__ import annotations

import ast
import json

import pytest

from dpworkbench.cli import main, resolve_run
from dpworkbench.experiments.nbtools import discover_notebooks, load_manifest, manifest_path, notebook_files

RUNS = discover_notebooks()


def _parameter_names(path) -> set[str]:
    nb = json.loads(path.read_text())
    (cell,) = [c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", [])]
    src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    return {t.id for n in ast.parse(src).body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}


def test_every_notebook_runs_and_manifest_entries_replace_the_default_run():
    manifest = load_manifest()
    files = notebook_files()
    assert len(RUNS) == len(files) - sum(1 for f in files if f"{f.parent.name}/{f.stem}" in manifest) + sum(map(len, manifest.values()))
    assert len({r.name for r in RUNS}) == len(RUNS)
    for f in files:
        assert any(r.path == f for r in RUNS), f"{f} is never run"


def test_figs_4_and_5_are_two_runs_of_one_notebook():
    runs = {r.name: r for r in discover_notebooks("inconsistency/fig0[45]")}
    assert set(runs) == {"inconsistency/fig04_true_vs_private_rnoise", "inconsistency/fig05_true_vs_private_conoise"}
    assert len({r.path for r in runs.values()}) == 1
    assert dict(runs["inconsistency/fig04_true_vs_private_rnoise"].parameters) == {"noise": "rnoise"}
    assert dict(runs["inconsistency/fig05_true_vs_private_conoise"].parameters) == {"noise": "conoise"}
    assert runs["inconsistency/fig05_true_vs_private_conoise"].title.startswith("Fig. 5")


def test_manifest_parameters_exist_in_the_notebooks_parameters_cell():
    for r in RUNS:
        unknown = {k for k, _ in r.parameters} - _parameter_names(r.path)
        assert not unknown, f"{r.name}: the manifest sets {sorted(unknown)}, which {r.path.name}'s parameters cell does not assign"


@pytest.mark.parametrize("text,message", [
    ('[[run]]\nnotebook = "inconsistency/nope"\nname = "x"\n', "do not exist"),
    ('[[run]]\nnotebook = "inconsistency"\nname = "x"\n', "<paper>/<stem>"),
    ('[[run]]\nnotebook = "a/b"\nname = "X Y"\n', "lower-case stem"),
    ('[[run]]\nnotebook = "a/b"\nname = "x"\n[[run]]\nnotebook = "a/c"\nname = "x"\n', "used twice"),
    ('[[run]]\nnotebook = "a/b"\nname = "x"\nparams = {}\n', "unknown keys"),
    ('[[run]]\nnotebook = "a/b"\nname = "x"\nparameters = 3\n', "must be a table"),
    ('runs = 1\n', "unknown top-level"),
    ('[[run]\n', "not valid TOML"),
    ('[[run]]\nnotebook = "mechanisms/learn_sparse_vector"\nname = "learn_randomized_response"\n', "used twice"),
])
def test_bad_manifests_are_rejected(tmp_path, monkeypatch, text, message):
    path = tmp_path / "manifest.toml"
    path.write_text(text)
    monkeypatch.setattr("dpworkbench.experiments.nbtools.manifest_path", lambda: path)
    with pytest.raises(ValueError, match=message.replace("<", r"\<").replace(">", r"\>")):
        discover_notebooks()


def test_run_resolves_run_names_and_parameters():
    assert resolve_run("inconsistency/fig05_true_vs_private_conoise", {}).parameters == (("noise", "conoise"),)
    path = next(r.path for r in RUNS if r.stem == "fig04_true_vs_private_rnoise")
    assert resolve_run(str(path), {"noise": "conoise"}).stem == "fig05_true_vs_private_conoise"
    assert resolve_run(str(path), {}).stem == path.stem
    assert resolve_run("mechanisms/learn_sparse_vector", {}).name == "mechanisms/learn_sparse_vector"
    assert resolve_run("no/such_notebook", {}) is None


def test_list_names_the_runs(capsys):
    assert main(["list", "--only", "inconsistency/fig0[45]"]) == 0
    out = capsys.readouterr().out
    assert "fig04_true_vs_private_rnoise" in out and "fig05_true_vs_private_conoise" in out and "Fig. 5 —" in out
    assert manifest_path().exists()
