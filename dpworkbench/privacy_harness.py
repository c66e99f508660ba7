"""The table of every public release entry point of the workbench.

Two sources, in paper order (papers are discovered, :mod:`dpworkbench.papers`):

* every declared mechanism with harness inputs (:mod:`dpworkbench.mechanisms.declaration`), turned into an entry
  by :func:`dpworkbench.testing.declared.entry_point`: its relation, claimed ε (its plan) and public inputs come from
  the declaration; then each other engine a declaration names (e.g. Spark), by
  :func:`dpworkbench.testing.declared.engine_entry`;
* the entries a paper still writes by hand in ``dpworkbench/<paper>/harness.py`` (file-level CLI runs, whose
  neighbours are lines of a file), and the cross-paper comparisons' (:mod:`dpworkbench.comparisons.harness`).

``tests/privacy`` checks every one end to end and that the README's table is this one (``dpworkbench
privacy-table`` prints it).
"""

from __future__ import annotations

import importlib

from .testing.harness import EntryPoint, markdown_table

#: Packages above the papers with release entry points of their own (``comparisons`` runs one paper's algorithm as
#: another's baseline; it has no CLI subcommand).
COMPARISONS = ("comparisons",)


def harness_packages() -> tuple[str, ...]:
    """Every package that may have a ``harness`` module, in table order: the papers, then the comparisons."""
    from .papers import paper_keys

    return (*paper_keys(), *COMPARISONS)


def declared_entry_points(paper: str | None = None) -> list[EntryPoint]:
    """The entries derived from the declarations (of one paper, or all)."""
    from .mechanisms.declaration import registry
    from .testing.declared import entry_point

    return [entry_point(m) for m in registry(paper).values() if m.examples is not None]


def engine_entry_points(paper: str | None = None) -> list[EntryPoint]:
    """The entries of the other engines the declarations name (of one paper, or all): each engine's API, derived."""
    from .mechanisms.declaration import registry
    from .testing.declared import engine_entry

    return [engine_entry(m, e.key) for m in registry(paper).values() if m.examples is not None for e in m.engines]


def all_entry_points() -> list[EntryPoint]:
    """Every paper's entry points (declared, then hand-written), in paper order, then the comparisons'."""
    out: list[EntryPoint] = []
    for package in harness_packages():
        out.extend(declared_entry_points(package) + engine_entry_points(package))
        try:
            mod = importlib.import_module(f"dpworkbench.{package}.harness")
        except ModuleNotFoundError as exc:
            if exc.name == f"dpworkbench.{package}.harness":
                continue
            raise
        out.extend(mod.entry_points())
    # a researcher's own declarations (DPWB_MECHANISMS_PATH) belong to no package of ours
    known = set(harness_packages())
    out.extend(e for e in declared_entry_points() + engine_entry_points() if e.paper not in known)
    return out


def readme_table() -> str:
    """The harness table as it stands in the README's privacy section."""
    return markdown_table(all_entry_points())


__all__ = ["COMPARISONS", "all_entry_points", "declared_entry_points", "engine_entry_points", "harness_packages",
           "readme_table"]
