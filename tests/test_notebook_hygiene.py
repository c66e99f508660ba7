"""Notebook hygiene: every notebook (the landing index included) is stored clean and says what it is.

Rules (DEVELOPERS.md): exactly one cell tagged ``parameters`` assigning ``profile``, ``seed`` and
``interactive``; a first markdown cell naming its paper, its figure/table (or that it is a teaching
notebook) and its data source (real or synthetic, or none); no stored outputs or execution counts;
no absolute paths; named ``notebooks/<paper>/(figNN|tabNN)(_(figNN|tabNN))*_<slug>.ipynb`` or
``learn_<slug>.ipynb``. Notebooks are jupytext pairs edited by hand (``tests/test_notebook_pairs.py``
checks that the ``.py`` agrees): fix a failure in JupyterLab or in the ``.py`` (then ``jupytext --sync``);
``tools/strip_notebooks.py`` removes outputs; ``dpworkbench index`` rewrites the landing notebook.
Execution in the ci profile: ``tests/test_notebooks.py``.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import re
from pathlib import Path

import pytest

from dpworkbench.experiments.nbtools import notebook_groups, notebooks_dir
from dpworkbench.papers import paper_keys
from dpworkbench.paths import project_root

ROOT = notebooks_dir()
NOTEBOOKS = sorted(p for p in ROOT.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
IDS = [p.relative_to(ROOT).as_posix() for p in NOTEBOOKS]

# raha_<slug>: experiments on the raha cleaning benchmarks that no paper has (issue 13).
NAME_RE = re.compile(r"^(?:(?:fig|tab)\d{2}(?:_(?:fig|tab)\d{2})*_[a-z0-9]+(?:_[a-z0-9]+)*|learn_[a-z0-9]+(?:_[a-z0-9]+)*|raha_[a-z0-9]+(?:_[a-z0-9]+)*)\.ipynb$")
ABSOLUTE_PATH_RE = re.compile(r"(?<![\w.:/])/(?:work|home|Users|root|tmp|mnt|private|var/folders)/|\b[A-Za-z]:\\\\|\b[A-Za-z]:\\(?=[\w.])|~/")

# How a first markdown cell names its paper (any one, case-insensitive).
def _paper_words() -> dict[str, list[str]]:
    """What a first cell may say to name its paper: the paper's key or one of its seeds (from its declaration)."""
    from dpworkbench.papers import papers

    words = {p.key: [p.key, *(f"seed {s}" for s in p.seeds)] for p in papers()}
    return {"mechanisms": ["teaching", "shared dp core", "mechanism"], **words}


PAPER_WORDS = _paper_words()
DATA_RE = re.compile(r"\bdata(?:set)?s?\b", re.I)
DATA_SOURCE_RE = re.compile(r"\b(?:real|synthetic|none|generated|seeded)\b", re.I)


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _src(cell: dict) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def _paper(path: Path) -> str:
    return "index" if path.parent == ROOT else path.parent.name


def test_notebooks_exist():
    assert (ROOT / "index.ipynb").exists(), "notebooks/index.ipynb is missing: run `.venv/bin/dpworkbench index`"
    assert any(p.name.startswith("learn_") for p in NOTEBOOKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_name_and_place(path):
    rel = path.relative_to(ROOT)
    if rel.as_posix() == "index.ipynb":
        return
    assert len(rel.parts) == 2, f"{rel}: notebooks live at notebooks/<paper>/<name>.ipynb (only index.ipynb at the top)"
    assert rel.parts[0] in notebook_groups(), f"{rel}: paper directory must be one of {notebook_groups()}"
    assert NAME_RE.match(rel.name), f"{rel}: name must be (figNN|tabNN)(_(figNN|tabNN))*_<slug>.ipynb or learn_<slug>.ipynb"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_exactly_one_parameters_cell(path):
    nb = _load(path)
    tagged = [c for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(tagged) == 1, f"{path.name}: {len(tagged)} cells tagged 'parameters', need exactly one"
    cell = tagged[0]
    assert cell["cell_type"] == "code", f"{path.name}: the parameters cell must be a code cell"
    assigned = set()
    for node in ast.parse(_src(cell)).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        assigned |= {t.id for t in targets if isinstance(t, ast.Name)}
    missing = {"profile", "seed", "interactive"} - assigned
    assert not missing, f"{path.name}: the parameters cell does not assign {sorted(missing)}"
    tags = [t for c in nb["cells"] for t in c.get("metadata", {}).get("tags", [])]
    assert "injected-parameters" not in tags, f"{path.name}: holds papermill's injected-parameters cell (an executed copy?)"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_first_cell_names_paper_figure_and_data(path):
    nb = _load(path)
    first = nb["cells"][0] if nb["cells"] else {}
    assert first.get("cell_type") == "markdown", f"{path.name}: the first cell must be markdown"
    text = _src(first)
    low = text.lower()
    paper = _paper(path)
    if paper == "index":
        missing = [p for p in paper_keys() if p not in low]
        assert not missing, f"index.ipynb: the first cell should introduce every paper (missing {missing})"
    else:
        words = PAPER_WORDS[paper]
        assert any(w in low for w in words), f"{path.name}: the first cell does not name its paper (expected one of {words})"
    if path.name.startswith(("fig", "tab")):
        ids = re.findall(r"(fig|tab)(\d{2})_", re.match(r"^((?:(?:fig|tab)\d{2}_)+)", path.stem).group(1))
        for kind, num in ids:
            n = int(num)
            word = r"fig(?:ures?|s?\.)?" if kind == "fig" else r"tab(?:les?|s?\.)?"
            named = re.search(rf"\b{word}\s*0?{n}(?!\d)", low) or f"{kind}{num}" in low
            # "Figs. 2, 3/9c" names 9 once the kind is named; "Figs. 12–14" names 13
            listed = re.search(rf"\b{word}", low) and (
                re.search(rf"(?<![\d.§]){n}(?![\d.])", low)
                or any(int(a) <= n <= int(b) for a, b in re.findall(r"(?<![\d.§])(\d{1,2})\s*[–-]\s*(\d{1,2})(?!\d)", low)))
            assert named or listed, f"{path.name}: the first cell does not name {'Figure' if kind == 'fig' else 'Table'} {n}"
    else:
        assert re.search(r"teaching|\bfig(?:ure|\.)?\s*\d|\btab(?:le|\.)?\s*\d|no (?:paper )?(?:figure|table)|gallery|landing", low), (
            f"{path.name}: the first cell should say which figure/table it shows, or that it is a teaching notebook")
    explicit = re.search(r"\bdata(?:set)?s?\s*(?:\*\*)?\s*:\s*(?:\*\*)?\s*\w", text, re.I)  # "Data: the paper's toy table, built in code"
    assert explicit or (DATA_RE.search(text) and DATA_SOURCE_RE.search(text)), (
        f"{path.name}: the first cell must name its data source (e.g. 'Data: ... real ... / synthetic stand-in ...')")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_no_stored_outputs(path):
    nb = _load(path)
    dirty = [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code" and (c.get("outputs") or c.get("execution_count") is not None)]
    assert not dirty, f"{path.name}: cells {dirty} hold outputs or execution counts — run tools/strip_notebooks.py"
    assert "widgets" not in nb.get("metadata", {}), f"{path.name}: saved widget state — run tools/strip_notebooks.py"
    with_attachments = [i for i, c in enumerate(nb["cells"]) if c.get("attachments")]
    assert not with_attachments, f"{path.name}: cells {with_attachments} embed attachments"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_no_absolute_paths(path):
    nb = _load(path)
    bad = []
    for i, c in enumerate(nb["cells"]):
        for ln in _src(c).splitlines():
            if ABSOLUTE_PATH_RE.search(ln):
                bad.append(f"cell {i}: {ln.strip()[:120]}")
    assert not bad, f"{path.name}: absolute paths (use dpworkbench.paths / datasets.load):\n" + "\n".join(bad)


def _definitions(source: str) -> list[str]:
    """Functions and classes defined in a code cell (IPython magics and shell lines skipped)."""
    code = "\n".join("" if ln.lstrip().startswith(("%", "!")) else ln for ln in source.splitlines())
    return [f"{type(n).__name__[:-3].lower() or 'def'} {n.name}" for n in ast.walk(ast.parse(code))
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_no_logic_defined_in_notebooks(path):
    """Thin notebooks: logic lives in the package (a short lambda binding a widget panel is fine)."""
    nb = _load(path)
    bad = [f"cell {i}: {d}" for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code" for d in _definitions(_src(c))]
    assert not bad, f"{path.name} defines functions/classes; move them into dpworkbench/ and call them:\n" + "\n".join(bad)


def test_absolute_path_pattern():
    for s in ("open('/work/shared/data/x.csv')", "p = '/home/me/x'", r"C:\Users\x", "'/tmp/out'", "~/data"):
        assert ABSOLUTE_PATH_RE.search(s), s
    for s in ("a / b", "x = 1/2", "see notebooks/mechanisms/x.ipynb", "https://example.org/home/", "ε/k", "kΔ/ε"):
        assert not ABSOLUTE_PATH_RE.search(s), s


def test_strip_tool_cleans_an_executed_notebook(tmp_path):
    spec = importlib.util.spec_from_file_location("strip_notebooks", project_root() / "tools" / "strip_notebooks.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    clean = _load(ROOT / "index.ipynb")
    dirty = json.loads(json.dumps(clean))
    dirty["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {}}
    dirty["metadata"]["papermill"] = {"parameters": {}}
    code = next(c for c in dirty["cells"] if c["cell_type"] == "code")
    code["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["hi\n"]}]
    code["execution_count"] = 3
    code["metadata"]["execution"] = {"iopub.status.busy": "x"}
    injected = {"cell_type": "code", "execution_count": 1, "id": "inj", "metadata": {"tags": ["injected-parameters"]},
                "outputs": [], "source": "profile = 'ci'"}
    dirty["cells"].insert(2, injected)
    path = tmp_path / "x.ipynb"
    path.write_text(json.dumps(dirty))
    assert mod.main(["--check", str(path)]) == 1
    assert mod.main([str(path)]) == 0
    assert _load(path) == clean
    assert mod.main(["--check", str(path)]) == 0


def test_rules_reject_bad_notebooks(tmp_path):
    """The checks above can fail: each rule rejects a notebook that breaks it."""
    good_md = "# Figure 4: R2T on TPC-H\nR2T (seed 001), Figure 4. Data: synthetic TPC-H stand-in (seeded)."
    params = 'profile = "quick"\nseed = 0\ninteractive = True'

    def nb(cells):
        out = {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        for kind, src in cells:
            c = {"cell_type": "markdown" if kind == "md" else "code", "metadata": {}, "source": src, "id": f"c{len(out['cells'])}"}
            if kind != "md":
                c.update(outputs=[], execution_count=None)
            if kind == "params":
                c["metadata"]["tags"] = ["parameters"]
            out["cells"].append(c)
        return out

    def write(cells, name="fig04_tpch.ipynb"):
        path = tmp_path / "r2t" / name
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(cells if isinstance(cells, dict) else nb(cells)))
        return path

    ok = write([("md", good_md), ("params", params), ("code", "x = 1")])
    test_exactly_one_parameters_cell(ok)
    test_first_cell_names_paper_figure_and_data(ok)
    test_no_stored_outputs(ok)
    test_no_absolute_paths(ok)
    test_no_logic_defined_in_notebooks(write([("md", good_md), ("params", params), ("code", "panel = f(lambda e: g(e))")]))
    bad = {
        test_exactly_one_parameters_cell: [
            [("md", good_md), ("code", params)],
            [("md", good_md), ("params", params), ("params", params)],
            [("md", good_md), ("params", 'profile = "quick"\nseed = 0')],
        ],
        test_first_cell_names_paper_figure_and_data: [
            [("code", "x"), ("params", params)],
            [("md", "# Figure 4\nData: synthetic."), ("params", params)],
            [("md", "# R2T, Figure 5\nData: synthetic."), ("params", params)],
            [("md", "# R2T, Figures 1–3 and 5\nData: synthetic."), ("params", params)],
            [("md", "# R2T, Figure 4\nno word on where numbers come from"), ("params", params)],
            [("md", "# R2T, Figure 4\nuses the data"), ("params", params)],
        ],
        test_no_absolute_paths: [[("md", good_md), ("params", params), ("code", "open('/work/shared/data/x.csv')")]],
        test_no_logic_defined_in_notebooks: [
            [("md", good_md), ("params", params), ("code", "def f(x):\n    return x")],
            [("md", good_md), ("params", params), ("code", "%matplotlib inline\nclass A:\n    pass")],
            [("md", good_md), ("params", params), ("code", "import functools\n@functools.cache\ndef g():\n    return 1")],
        ],
    }
    for check, cases in bad.items():
        for cells in cases:
            with pytest.raises(AssertionError):
                check(write(cells))
    executed = nb([("md", good_md), ("params", params), ("code", "x = 1")])
    executed["cells"][2].update(outputs=[{"output_type": "stream", "name": "stdout", "text": "1"}], execution_count=1)
    with pytest.raises(AssertionError):
        test_no_stored_outputs(write(executed))


def test_papermill_parses_every_parameters_line(caplog):
    """papermill must read every line of each `parameters` cell (an "=" inside a comment made it warn
    "Unable to parse line" on the user's terminal and drop that parameter from `dpworkbench run -p` checks)."""
    import logging

    import papermill as pm

    from dpworkbench.experiments.nbtools import notebook_files

    caplog.set_level(logging.WARNING, logger="papermill")
    for path in notebook_files():
        caplog.clear()
        pm.inspect_notebook(str(path))
        bad = [r.getMessage() for r in caplog.records if "Unable to parse" in r.getMessage()]
        assert not bad, f"{path.relative_to(path.parents[2])}: {bad}"
