"""Teaching notebooks speak to students first: a plain-words opening (what you will learn, what to do),
then the paper jargon; every widget section carries a "Try this" prompt.

Checked on the shared core's ``notebooks/mechanisms/learn_*`` notebooks; :func:`opening_problems` is the
rule, usable for any ``learn_`` notebook.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dpworkbench.experiments.nbtools import notebooks_dir

JARGON = re.compile(r"\bseeds? \d{3}\b|\bAlgorithm \d|\bLemma \d|\bTheorem \d|§")


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def opening_problems(path: Path) -> list[str]:
    nb = json.loads(Path(path).read_text())
    cells = nb["cells"]
    problems = []
    first_md = next((c for c in cells if c["cell_type"] == "markdown"), None)
    if first_md is None:
        return ["no markdown cell"]
    lines = [ln.strip() for ln in _source(first_md).splitlines() if ln.strip()]
    if not lines or not lines[0].startswith("# "):
        problems.append("the first markdown cell does not start with a '# ' title")
    body = lines[1:]
    if not body or not body[0].lower().startswith("what you will learn"):
        problems.append("the line after the title is not 'What you will learn: …'")
    if not any("what to do" in ln.lower() and "run all" in ln.lower() for ln in body):
        problems.append("no 'What to do' line telling the student to Run All")
    plain = "\n".join(body[:2])
    if JARGON.search(plain):
        problems.append(f"paper jargon in the plain-words opening: {JARGON.search(plain).group(0)!r}")
    for i, cell in enumerate(cells):
        if cell["cell_type"] == "code" and "control_panel(" in _source(cell):
            before = [c for c in cells[:i] if c["cell_type"] == "markdown"]
            prev_code = max((j for j in range(i) if cells[j]["cell_type"] == "code"), default=-1)
            between = [_source(c) for c in cells[prev_code + 1:i] if c["cell_type"] == "markdown"]
            if not before or not any("try this" in s.lower() for s in between):
                problems.append(f"cell {i} builds a widget panel without a 'Try this' prompt right before it")
    return problems


MECHANISMS = sorted((notebooks_dir() / "mechanisms").glob("learn_*.ipynb"))


@pytest.mark.parametrize("path", MECHANISMS, ids=[p.stem for p in MECHANISMS])
def test_teaching_notebook_opens_in_plain_words(path):
    assert opening_problems(path) == []


def test_the_rule_can_fail(tmp_path):
    from dpworkbench.experiments.nbtools import new_notebook

    bad = new_notebook([("md", "# Title\nTeaching notebook (seed 001, Algorithm 4)."), ("params", "epsilon = 1.0"),
                        ("code", "panel = widgets.control_panel(f, {})")])
    p = tmp_path / "learn_bad.ipynb"
    p.write_text(json.dumps(bad))
    probs = opening_problems(p)
    assert any("What you will learn" in x for x in probs) and any("Run All" in x for x in probs)
    assert any("jargon" in x for x in probs) and any("Try this" in x for x in probs)
