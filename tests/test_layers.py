"""The layers of DESIGN.md, checked by import-linter (contracts built from the discovered papers by ``dpworkbench.papers.import_contracts``).

The core (mechanisms, accounting, testing, graphs, datasets) imports no paper, no comparison and no presentation
module; papers never import each other; ``comparisons`` may import papers, never the reverse. The first test runs
the venv's ``lint-imports`` on the repository; the others inject one forbidden import into a temporary copy of the
package and check that the same contracts, run by the same command, break on exactly that import.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def _lint(cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    from dpworkbench.papers import import_contracts

    config = cwd / ".importlinter-layers"
    config.write_text(import_contracts(), encoding="utf-8")
    try:
        return subprocess.run([str(LINT_IMPORTS), "--no-cache", "--no-logo", "--config", str(config)], cwd=cwd,
                              capture_output=True, text=True, timeout=300, env=env)
    finally:
        config.unlink()


def test_lint_imports_keeps_every_contract():
    assert LINT_IMPORTS.exists(), "import-linter is a dev dependency: pip install -e '.[dev]'"
    out = _lint(ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Contracts: 2 kept, 0 broken." in out.stdout, out.stdout


@pytest.mark.parametrize("module, line, contract, message, broken", [
    ("mechanisms/core.py", "from dpworkbench import plots", "The core",
     "dpworkbench.mechanisms is not allowed to import dpworkbench.plots", 1),
    # every paper imports accounting, so this one also makes each paper import r2t indirectly: both contracts break
    ("accounting/__init__.py", "from dpworkbench.r2t import mechanisms", "The core",
     "dpworkbench.accounting is not allowed to import dpworkbench.r2t", 2),
    ("graphs/core.py", "import dpworkbench.teaching.mechanisms", "The core",
     "dpworkbench.graphs is not allowed to import dpworkbench.teaching", 1),
    ("inconsistency/constraints.py", "import dpworkbench.r2t.model", "Papers never import each other",
     "dpworkbench.inconsistency is not allowed to import dpworkbench.r2t", 1),
    ("dampening/median.py", "from dpworkbench.privateclean import mechanism", "Papers never import each other",
     "dpworkbench.dampening is not allowed to import dpworkbench.privateclean", 1),
    ("r2t/sql.py", "from dpworkbench.comparisons import imi", "Papers never import each other",
     "dpworkbench.r2t is not allowed to import dpworkbench.comparisons", 1),
])
def test_a_forbidden_import_breaks_the_contracts(tmp_path, module, line, contract, message, broken):
    shutil.copytree(ROOT / "dpworkbench", tmp_path / "dpworkbench", ignore=shutil.ignore_patterns("__pycache__"))
    target = tmp_path / "dpworkbench" / module
    target.write_text(target.read_text(encoding="utf-8") + f"\n{line}  # injected by tests/test_layers.py\n",
                      encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}  # the copy shadows the editable install
    out = _lint(tmp_path, env)
    text = " ".join((out.stdout + out.stderr).split())  # rich wraps long lines
    assert out.returncode != 0, text
    assert f"Contracts: {2 - broken} kept, {broken} broken." in text, text
    assert message in text, text
    injected = "dpworkbench." + module.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    assert injected in text, text  # the broken chain starts at the injected import, so the copy was analysed
    assert f"{contract}" in text and "BROKEN" in text, text
