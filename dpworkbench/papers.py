"""The papers of the workbench, discovered rather than listed.

A paper is a subpackage of ``dpworkbench`` whose ``__init__`` declares ``PAPER = Paper(...)``: its key (the
package name, which is also its notebook folder ``notebooks/<key>/``, its CLI subcommand and the prefix of its
mechanisms' names), its title, the seeds it reproduces and its place in tables. Everything that needs the list of
papers (the CLI, the privacy table, the notebook index, the report, the tests) asks :func:`papers`. Adding a paper
is adding a package; no list anywhere is edited.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path


@dataclass(frozen=True)
class Paper:
    """One paper's declaration (in its package's ``__init__``)."""

    key: str
    title: str
    seeds: tuple[str, ...] = ()
    order: int = 100

    @property
    def package(self) -> str:
        return f"dpworkbench.{self.key}"

    def module(self, role: str) -> str:
        """The module of one role (``cli``, ``datasets``, ``harness``, ``mechanisms``, ...)."""
        return f"{self.package}.{role}"

    def has(self, role: str) -> bool:
        root = Path(__file__).resolve().parent / self.key
        return (root / f"{role}.py").exists() or (root / role / "__init__.py").exists()


def _declares_paper(init: Path) -> bool:
    try:
        return "PAPER = Paper(" in init.read_text(encoding="utf-8")
    except OSError:
        return False


@lru_cache(maxsize=1)
def papers() -> tuple[Paper, ...]:
    """Every paper, in table order (``order``, then key). Found on disk: a package whose ``__init__`` declares
    ``PAPER``; only those packages are imported."""
    root = Path(__file__).resolve().parent
    found = []
    for info in pkgutil.iter_modules([str(root)]):
        if info.ispkg and _declares_paper(root / info.name / "__init__.py"):
            paper = importlib.import_module(f"dpworkbench.{info.name}").PAPER
            if paper.key != info.name:
                raise ValueError(f"dpworkbench.{info.name} declares PAPER with key {paper.key!r}")
            found.append(paper)
    return tuple(sorted(found, key=lambda p: (p.order, p.key)))


def paper_keys() -> tuple[str, ...]:
    """The papers' keys, in table order."""
    return tuple(p.key for p in papers())


def paper(key: str) -> Paper:
    for p in papers():
        if p.key == key:
            return p
    raise ValueError(f"no paper {key!r}; papers: {', '.join(paper_keys())}")


#: The shared core: imports no paper, no comparison, no presentation module (DESIGN.md's layers).
CORE = ("cache", "spark", "mechanisms", "accounting", "testing", "graphs", "datasets")
PRESENTATION = ("plots", "experiments", "widgets", "teaching")
#: Above the papers: may import them; they never import it.
ABOVE_PAPERS = ("comparisons",)
#: The command line and the harness registry gather the papers; the core must not import them either.
GATHERERS = ("cli", "privacy_harness")


def import_contracts() -> str:
    """The layers as an import-linter configuration (INI), built from the discovered papers, so the contracts
    never list a paper by hand: ``dpworkbench layers`` and ``tests/test_layers.py`` run ``lint-imports --config``
    on it."""
    pkg = "dpworkbench"
    keys = paper_keys()

    def block(names) -> str:
        return "".join(f"\n    {pkg}.{n}" for n in names)

    return (f"[importlinter]\nroot_package = {pkg}\n\n"
            "[importlinter:contract:core]\n"
            "name = The core (mechanisms, accounting, testing, graphs, datasets, cache, spark) imports no paper, "
            "comparison or presentation module\n"
            f"type = forbidden\nsource_modules ={block(CORE)}\n"
            f"forbidden_modules ={block(PRESENTATION + keys + ABOVE_PAPERS + GATHERERS)}\n\n"
            "[importlinter:contract:papers]\n"
            "name = Papers never import each other; comparisons sit above them (comparisons may import papers, "
            "never the reverse)\n"
            f"type = layers\nlayers ={block(ABOVE_PAPERS)}\n    " + " | ".join(f"{pkg}.{k}" for k in keys) + "\n")


__all__ = ["ABOVE_PAPERS", "CORE", "GATHERERS", "PRESENTATION", "Paper", "import_contracts", "paper", "paper_keys",
           "papers"]
