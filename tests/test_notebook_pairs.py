"""Every notebook is a jupytext pair: ``<stem>.ipynb`` + ``<stem>.py`` (percent format), in sync.

Notebooks are edited by hand: in JupyterLab (either file; the jupytext extension saves both) or the
``.py`` in an editor followed by ``.venv/bin/jupytext --sync notebooks/<paper>/<stem>.py``. Reviewers
diff the ``.py``. A test here fails when the two files of a pair disagree (cell types, sources or
tags, read with jupytext's own readers), when a notebook lacks its ``.py`` or the pairing metadata, or
when a ``.py`` under ``notebooks/`` has no notebook.
"""

from __future__ import annotations

import difflib
import json
import shutil
import os
import subprocess
import sys
from pathlib import Path

import jupytext
import pytest

from dpworkbench.experiments.nbtools import PAIRED_FORMATS, notebooks_dir

ROOT = notebooks_dir()
NOTEBOOKS = sorted(p for p in ROOT.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
IDS = [p.relative_to(ROOT).as_posix() for p in NOTEBOOKS]


def _cells(path: Path) -> list[tuple[str, str, tuple[str, ...]]]:
    nb = jupytext.read(path)
    return [(c.cell_type, c.source, tuple(c.metadata.get("tags", ()))) for c in nb.cells]


def check_pair(ipynb: Path) -> None:
    """Assert that ``ipynb`` is paired (metadata) with a ``.py`` holding the same cells."""
    py = ipynb.with_suffix(".py")
    assert py.exists(), f"{ipynb.name} has no paired {py.name}: run `.venv/bin/jupytext --set-formats {PAIRED_FORMATS} {ipynb}`"
    formats = json.loads(ipynb.read_text(encoding="utf-8")).get("metadata", {}).get("jupytext", {}).get("formats")
    assert formats == PAIRED_FORMATS, f"{ipynb.name}: jupytext formats are {formats!r}, need {PAIRED_FORMATS!r} (JupyterLab then saves both)"
    assert jupytext.read(py).metadata.get("jupytext", {}).get("formats") == PAIRED_FORMATS, f"{py.name}: header lacks the pairing"
    a, b = _cells(ipynb), _cells(py)
    if a != b:
        i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        left = "\n".join(map(str, a[i:i + 1])) or "(no cell)"
        right = "\n".join(map(str, b[i:i + 1])) or "(no cell)"
        diff = "\n".join(difflib.unified_diff(left.splitlines(), right.splitlines(), ipynb.name, py.name, lineterm=""))
        raise AssertionError(f"{ipynb.name} and {py.name} are out of sync ({len(a)} vs {len(b)} cells; first difference at "
                             f"cell {i}); run `.venv/bin/jupytext --sync {py}` (the newer file wins):\n{diff}")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_pair_is_in_sync(path):
    check_pair(path)


def test_every_py_under_notebooks_has_its_notebook():
    orphans = [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*.py")
               if ".ipynb_checkpoints" not in p.parts and not p.with_suffix(".ipynb").exists()]
    assert not orphans, f"paired .py files without a notebook (run `jupytext --sync` or delete them): {orphans}"
    assert len(NOTEBOOKS) == len([p for p in ROOT.rglob("*.py") if ".ipynb_checkpoints" not in p.parts])


def test_a_drifted_pair_fails_and_jupytext_sync_repairs_it(tmp_path):
    src = ROOT / "mechanisms" / "learn_sparse_vector.ipynb"
    ipynb = tmp_path / src.name
    py = ipynb.with_suffix(".py")
    shutil.copy(src, ipynb)
    shutil.copy(src.with_suffix(".py"), py)
    check_pair(ipynb)  # the copy is in sync

    # edited in an editor, not synced: the .py changes one line of a code cell
    text = py.read_text()
    assert "n_queries = 30" in text
    py.write_text(text.replace("n_queries = 30", "n_queries = 40"))
    with pytest.raises(AssertionError, match="out of sync"):
        check_pair(ipynb)

    # `jupytext --sync` makes the newer file (the .py) win and the pair agrees again
    ipynb_mtime = ipynb.stat().st_mtime
    os.utime(py, (ipynb_mtime + 10, ipynb_mtime + 10))
    subprocess.run([sys.executable, "-m", "jupytext", "--sync", str(py)], check=True, capture_output=True)
    check_pair(ipynb)
    assert "n_queries = 40" in "".join(c[1] for c in _cells(ipynb))

    # the other direction: a cell added only to the .ipynb (say, edited without the extension)
    nb = json.loads(ipynb.read_text())
    nb["cells"].append({"cell_type": "markdown", "id": "extra", "metadata": {}, "source": "extra"})
    ipynb.write_text(json.dumps(nb))
    with pytest.raises(AssertionError, match="out of sync"):
        check_pair(ipynb)

    # a tag lost on one side (the papermill parameters cell) is drift too
    nb["cells"].pop()
    for c in nb["cells"]:
        c.get("metadata", {}).pop("tags", None)
    ipynb.write_text(json.dumps(nb))
    with pytest.raises(AssertionError, match="out of sync"):
        check_pair(ipynb)

    # an unpaired notebook (no metadata) or a missing .py fails
    del nb["metadata"]["jupytext"]
    ipynb.write_text(json.dumps(nb))
    with pytest.raises(AssertionError, match="jupytext formats"):
        check_pair(ipynb)
    py.unlink()
    with pytest.raises(AssertionError, match="no paired"):
        check_pair(ipynb)
