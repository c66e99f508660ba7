"""The table of every public release entry point of the workbench, gathered from each paper's ``harness`` module
and from the cross-paper comparisons' (:mod:`dpworkbench.comparisons.harness`).

Each paper lists its entry points (API functions and CLI subcommands) in ``dpworkbench/<paper>/harness.py`` as
:class:`dpworkbench.testing.harness.EntryPoint` values; ``tests/privacy/test_harness_<paper>.py`` checks every
one of them end to end, ``tests/privacy/test_harness_table.py`` checks that nothing that spends ε is missing
and that the README's table is this one (``dpworkbench privacy-table`` prints it).
"""

from __future__ import annotations

import importlib

from .testing.harness import EntryPoint, markdown_table

PAPERS = ("inconsistency", "r2t", "privateclean", "dampening")
#: Packages above the papers with release entry points of their own (``comparisons`` runs one paper's algorithm as
#: another's baseline; it has no CLI subcommand).
COMPARISONS = ("comparisons",)
#: Every package with a ``harness`` module, in table order.
HARNESSES = PAPERS + COMPARISONS


def all_entry_points() -> list[EntryPoint]:
    """Every paper's entry points, in paper order, then the comparisons'."""
    out: list[EntryPoint] = []
    for paper in HARNESSES:
        try:
            mod = importlib.import_module(f"dpworkbench.{paper}.harness")
        except ModuleNotFoundError as exc:
            if exc.name == f"dpworkbench.{paper}.harness":
                continue
            raise
        out.extend(mod.entry_points())
    return out


def readme_table() -> str:
    """The harness table as it stands in the README's privacy section."""
    return markdown_table(all_entry_points())


__all__ = ["COMPARISONS", "HARNESSES", "PAPERS", "all_entry_points", "readme_table"]
