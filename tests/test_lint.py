"""Ruff lints the package, the tests, the benchmarks and the notebooks' .py pairs (pyflakes errors and syntax).

The notebooks' .py is what a reviewer diffs, so it is linted like code: an unused or undefined name in a
notebook fails here, not in a reader's head."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUFF = Path(sys.executable).with_name("ruff")
SELECT = "F,E9"


def _ruff(*paths: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(RUFF), "check", "--select", SELECT, "--output-format", "concise", "--no-cache", *map(str, paths)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(not RUFF.exists() and shutil.which("ruff") is None, reason="ruff is a dev dependency (make install)")
def test_package_tests_and_notebook_pairs_lint_clean():
    res = _ruff("dpworkbench", "tests", "benchmarks", "notebooks")
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-2000:]


@pytest.mark.skipif(not RUFF.exists() and shutil.which("ruff") is None, reason="ruff is a dev dependency (make install)")
def test_the_lint_can_fail(tmp_path):
    nb = tmp_path / "notebook.py"
    nb.write_text("# %%\nimport math\nprint(undefined_name)\n")
    res = _ruff(nb)
    assert res.returncode == 1 and "F401" in res.stdout and "F821" in res.stdout
