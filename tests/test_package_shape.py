"""One shape for four papers (issue 12): the same module set in every paper, no private reach-ins."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "dpworkbench"
from dpworkbench.papers import paper_keys

PAPERS = paper_keys()
MODULE_SET = ("model", "mechanisms", "datasets", "experiments", "figures", "teaching", "reference", "claims", "cli")


@pytest.mark.parametrize("paper", PAPERS)
def test_every_paper_has_the_module_set(paper):
    present = {p.stem for p in (PACKAGE / paper).glob("*.py")} | {p.parent.name for p in (PACKAGE / paper).glob("*/__init__.py")}
    assert not set(MODULE_SET) - present, f"{paper} lacks {sorted(set(MODULE_SET) - present)}"
    assert not present & {"core", "algorithms"}, f"{paper} has {sorted(present & {'core', 'algorithms'})}: say what the module is"


def private_reach_ins(package: Path) -> list[str]:
    """Imports of another module's private names (``from .x import _y``) and ``module._attr`` uses.

    Private *modules* of the same package (``from . import _kernels``) are fine: that is what the
    underscore is for. The standard library's ``argparse._…Action`` classes are the documented way
    to tell action kinds apart and are allowed.
    """
    found = []
    for f in sorted(package.rglob("*.py")):
        tree = ast.parse(f.read_text())
        modules = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for a in node.names:
                    if a.name.startswith("_") and not a.name.startswith("__") and node.module is not None:
                        found.append(f"{f.relative_to(package.parent)}:{node.lineno}: from {'.' * node.level}{node.module} import {a.name}")
                    modules.add(a.asname or a.name)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    modules.add((a.asname or a.name).split(".")[0])
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                    and isinstance(node.value, ast.Name) and node.value.id in modules and node.value.id != "argparse"):
                found.append(f"{f.relative_to(package.parent)}:{node.lineno}: {node.value.id}.{node.attr}")
    return found


def test_no_module_reaches_into_another_modules_private_names():
    assert private_reach_ins(PACKAGE) == []


def test_the_reach_in_check_can_fail(tmp_path):
    pkg = tmp_path / "dpworkbench"
    pkg.mkdir()
    (pkg / "a.py").write_text("_secret = 1\n")
    (pkg / "b.py").write_text("from .a import _secret\nfrom . import a\nx = a._secret\nfrom . import _kernels\n")
    assert len(private_reach_ins(pkg)) == 2
