"""The shape issue 23 asks for, checked on the source: one declaration per mechanism and nothing drawn or spent
beside it; no import cycle; the list of papers written once."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "dpworkbench"
PAPERS = [p.parent.name for p in PACKAGE.glob("*/__init__.py") if "PAPER = Paper(" in p.read_text()]


def _sources(exclude: tuple[str, ...] = ()):
    for f in sorted(PACKAGE.rglob("*.py")):
        rel = f.relative_to(PACKAGE).as_posix()
        if not rel.startswith(exclude):
            yield rel, f.read_text(encoding="utf-8")


def _code_lines(text: str):
    for i, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if s and not s.startswith("#"):
            yield i, line


RAW_DRAW = re.compile(r"(?<!backend)(?<!_backend)\.(laplace|gumbel|exponential)\(")


def test_no_raw_noise_draw_outside_mechanisms():
    found = [f"{rel}:{i}: {line.strip()}" for rel, text in _sources(("mechanisms/",))
             for i, line in _code_lines(text) if RAW_DRAW.search(line)]
    assert not found, "Laplace/Gumbel/exponential drawn outside dpworkbench/mechanisms:\n" + "\n".join(found)


def test_no_research_twin():
    """No ``*_samples`` / ``batch_*`` function outside the core's samplers (``mechanisms/``, which the declarations'
    ``noise`` calls for one release and for ``size=R`` alike)."""
    twin = re.compile(r"^def ((\w+_samples)|(batch_\w+))\(", re.M)
    found = [f"{rel}: {m.group(1)}" for rel, text in _sources(("mechanisms/",)) for m in twin.finditer(text)]
    assert not found, "research twins that draw a law a second way:\n" + "\n".join(found)


def test_no_spend_recorded_by_hand_in_paper_code():
    spend = re.compile(r"\brecord_spend\(|\.spend\(|\bopen_ledger\(")
    found = [f"{rel}:{i}: {line.strip()}" for rel, text in _sources() if rel.split("/")[0] in PAPERS
             for i, line in _code_lines(text) if spend.search(line)]
    assert not found, "spends recorded by hand in paper code (the declaration's plan is recorded):\n" + "\n".join(found)


def _import_graph() -> dict[str, set[str]]:
    root = PACKAGE.parent
    mods: dict[str, set[str]] = {}
    for f in PACKAGE.rglob("*.py"):
        parts = list(f.relative_to(root).with_suffix("").parts)
        pkg = parts[:-1] if parts[-1] != "__init__" else parts[:-1]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = pkg[: len(pkg) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else [])) if node.level else (node.module or "")
                if not target.startswith("dpworkbench"):
                    continue
                for a in node.names:
                    sub = f"{target}.{a.name}"
                    p = root / sub.replace(".", "/")
                    deps.add(sub if p.with_suffix(".py").exists() or (p / "__init__.py").exists() else target)
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name.startswith("dpworkbench"))
        mods[".".join(parts)] = deps
    return {m: {d for d in deps if d in mods and d != m} for m, deps in mods.items()}


def test_no_import_cycle():
    graph = _import_graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    cycles: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    assert not cycles, f"import cycles: {cycles}"


def test_the_list_of_papers_is_written_once():
    """Papers are discovered (dpworkbench.papers); no tuple of two or more paper names anywhere else."""
    names = "|".join(PAPERS)
    listing = re.compile(rf"""[\[(]\s*["']({names})["']\s*,\s*["']({names})["']""")
    found = [f"{rel}:{i}" for rel, text in _sources() for i, line in _code_lines(text) if listing.search(line)]
    tests = Path(__file__).resolve().parent
    found += [f"tests/{f.relative_to(tests)}:{i}" for f in sorted(tests.rglob("*.py"))
              for i, line in _code_lines(f.read_text(encoding="utf-8")) if listing.search(line)]
    assert not found, "a hand-written list of papers:\n" + "\n".join(found)
