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


__all__ = ["Paper", "paper", "paper_keys", "papers"]
