"""Every subcommand that reads a user's file is in the privacy harness with neighbours built *at the file level*
(issue 21): its inputs are the file's text, its neighbours are texts too, and they include lines the file's reader
must not let change how other lines are read (unparseable values, blanks, new categories, out-of-range numbers,
malformed edge lines). Whether a release happens and its pre-noise statistics are compared on every such pair by
tests/privacy/test_harness_<paper>.py; this test checks that no file-reading subcommand escapes that."""

from __future__ import annotations

import argparse
import itertools

import numpy as np
import pytest

from dpworkbench.privacy_harness import all_entry_points


def _file_reading_subcommands() -> list[str]:
    """Each paper's `dpworkbench <paper> [<sub>]` command with a positional file argument or a --table/--db option,
    read from the real parser: a new file-reading subcommand is checked without editing this test."""
    from dpworkbench.cli import build_parser
    from dpworkbench.papers import paper_keys

    def reads_files(p: argparse.ArgumentParser) -> bool:
        opts = {o for a in p._actions for o in a.option_strings}
        positional = [a for a in p._actions if not a.option_strings and not isinstance(a, argparse._SubParsersAction)]
        return bool(positional) or bool({"--table", "--db"} & opts)

    out = []
    top = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for paper in paper_keys():
        sub = top.choices[paper]
        nested = [a for a in sub._actions if isinstance(a, argparse._SubParsersAction)]
        if not nested and reads_files(sub):
            out.append(f"dpworkbench {paper}")
        for act in nested:
            out += [f"dpworkbench {paper} {name}" for name, p in act.choices.items() if reads_files(p)]
    return sorted(out)


SUBCOMMANDS = _file_reading_subcommands()


def test_the_list_of_file_reading_subcommands_is_not_empty():
    assert {"dpworkbench inconsistency", "dpworkbench r2t sql", "dpworkbench r2t graph",
            "dpworkbench privateclean query", "dpworkbench dampening median",
            "dpworkbench dampening topk"} <= set(SUBCOMMANDS)


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_file_level_entry(command):
    entries = [e for e in all_entry_points() if e.kind == "cli" and (e.name == command or e.name.startswith(command + " "))]
    assert entries, f"{command} reads a user's file but has no harness entry"
    rng = np.random.default_rng(0)
    file_level = [e for e in entries if all(isinstance(x, str) for x in e.make_inputs(rng))]
    assert file_level, f"{command}: no harness entry builds its neighbours from the file's text"
    e = file_level[0]
    x = e.make_inputs(np.random.default_rng(0))[0]
    nbs = list(itertools.islice(e.neighbours(x), 20000))
    assert nbs and all(isinstance(n, str) for n in nbs)
    original = set(x.splitlines())
    # some neighbour holds a line the original file does not: the generator adds or substitutes lines, not rows
    assert any(set(n.splitlines()) - original for n in nbs), f"{command}: neighbours only remove lines"
