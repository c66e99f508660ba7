"""Every release entry point is in the privacy harness, and the README shows the harness table."""

from __future__ import annotations

import argparse
import importlib
import inspect
import re
from pathlib import Path

import pytest

from dpworkbench.cli import build_parser
from dpworkbench.papers import paper_keys
from dpworkbench.privacy_harness import all_entry_points, harness_packages, readme_table

PAPERS = paper_keys()
HARNESSES = harness_packages()

ROOT = Path(__file__).resolve().parents[2]
SPENDING_PARAMS = {"epsilon", "accountant", "budget"}


def _cli_subcommands() -> set[str]:
    parser = build_parser()
    out = set()
    top = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in top.choices.items():
        if name not in PAPERS:
            continue
        subs = [a for a in sub._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            out.add(f"dpworkbench {name}")
        for a in subs:
            out.update(f"dpworkbench {name} {s}" for s in a.choices)
    return out


def _spending_api(paper: str) -> set[str]:
    mod = importlib.import_module(f"dpworkbench.{paper}")
    out = set()
    for name in getattr(mod, "__all__", []):
        obj = getattr(mod, name, None)
        if inspect.isfunction(obj):
            params = set(inspect.signature(obj).parameters)
            if params & SPENDING_PARAMS:
                out.add(name)
    # The Spark engine's release paths are public API too (not in the package's __all__).
    try:
        spark = importlib.import_module(f"dpworkbench.{paper}.spark_engine")
    except ImportError:
        return out
    for name, obj in vars(spark).items():
        if (inspect.isfunction(obj) and obj.__module__ == spark.__name__ and not name.startswith("_")
                and set(inspect.signature(obj).parameters) & SPENDING_PARAMS):
            out.add(f"spark_engine.{name}")
    return out


def test_every_cli_subcommand_is_in_the_harness():
    names = {e.name.split(" (")[0].strip() for e in all_entry_points() if e.kind == "cli"}
    missing = sorted(c for c in _cli_subcommands() if not any(n == c or n.startswith(c + " ") for n in names))
    assert not missing, f"CLI subcommands missing from the privacy harness: {missing}"


@pytest.mark.parametrize("paper", HARNESSES)  # the papers and the cross-paper comparisons
def test_every_spending_api_function_is_in_the_harness_or_exempt(paper):
    harness = importlib.import_module(f"dpworkbench.{paper}.harness")
    exempt = getattr(harness, "EXEMPT", {})
    names = [e.name for e in all_entry_points() if e.kind == "api" and e.paper == paper]
    missing = sorted(f for f in _spending_api(paper)
                     if f not in exempt and not any(re.search(rf"\b{re.escape(f)}\b", n) for n in names))
    assert not missing, f"{paper}: public functions that spend ε but are not in the harness (or EXEMPT with a reason): {missing}"
    assert all(isinstance(r, str) and len(r) > 10 for r in exempt.values()), "each exemption needs a reason"


def test_readme_shows_the_harness_table():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme_table() in readme, "README's privacy harness table is stale: paste `dpworkbench privacy-table`"


def test_harness_covers_all_papers_and_labelled_options():
    entries = all_entry_points()
    assert {e.paper for e in entries} == set(HARNESSES)
    assert any(e.expect_flagged for e in entries), "the paper options that are not private must be listed and flagged"
