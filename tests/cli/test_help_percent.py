"""No help text shows a doubled percent sign (argparse formats only argument help with %, not descriptions)."""

from __future__ import annotations

import argparse

from dpworkbench.cli import build_parser


def _parsers(p: argparse.ArgumentParser):
    yield p
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            for sub in a.choices.values():
                yield from _parsers(sub)


def test_no_doubled_percent_in_help():
    bad = [p.prog for p in _parsers(build_parser()) if "%%" in p.format_help()]
    assert not bad, f"help shows '%%' in: {bad}"
