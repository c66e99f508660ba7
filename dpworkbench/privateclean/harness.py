"""PrivateClean's file-level entry for the privacy harness (:mod:`dpworkbench.testing.harness`).

The API entries are derived from the declarations in :mod:`dpworkbench.privateclean.mechanisms` (``privateclean.grr``
and the paper's two labelled options ``privateclean.grr_lemma1`` and ``privateclean.grr_regenerate``, which the
harness must flag). Here only the CLI: ``dpworkbench privateclean query`` in process
(:class:`~dpworkbench.testing.harness.InProcessCLI`) on small CSV files. Its neighbours substitute one *line* of the
file at any position by another line, hostile ones included (:func:`~dpworkbench.testing.harness.hostile_lines`:
unparseable and non-finite numbers, blanks, a new category, ±1e9, a blank line, an extra field, an open quote).
Whether a release happens and the statistics of the GRR release the command makes (the declaration's ``counts`` and
``values`` of what the command's reader handed it, at the parameters its flags passed, observed in the run:
:func:`~dpworkbench.testing.declared.cli_entry`; a changed row count changes ``values``' length) are compared on every
pair; components are the JSON ``private`` section (PrivateClean SUM, its CI, Direct SUM) with ``--seed <int> --json``;
the claimed ε is the command's own ``--plan`` (GRR's plan for the flags), and the flags are GRR's harness instance.

The Spark engine is declared on GRR (``mechanisms.SPARK``): the core derives its API entry
(:func:`~dpworkbench.privateclean.spark_engine.grr_spark`, :func:`~dpworkbench.testing.declared.engine_entry`) and,
here, the ``--engine spark`` variant of the command (``cli_entry(engine="spark")``): the same checks, on GRR's declared
statistics of the pre-noise relation Spark's partitions computed (the real path run with the core's
:class:`~dpworkbench.testing.harness.PreNoiseBackend`, which draws nothing).
"""
from __future__ import annotations

import dataclasses
from typing import Iterable

import numpy as np
import pandas as pd

from dpworkbench.testing.declared import cli_entry, entry_point
from dpworkbench.testing.harness import EntryPoint, FileCLI, csv_line_neighbours, hostile_lines

from .mechanisms import GRR

FILE_RELATION = ("substitute one line of the CSV at any position, hostile lines included (bounded DP; the number of "
                 "lines is public)")

# Public functions with an ``epsilon`` parameter that spend nothing (pure parameter arithmetic).
EXEMPT = {
    "p_for_epsilon": "pure arithmetic: the p that gives a target ε (no data, no noise)",
    "b_for_epsilon": "pure arithmetic: the Laplace scale Δ/ε (no data, no noise)",
    "allocate_epsilon": "pure arithmetic: splits a total ε into per-attribute p and b (no data, no noise)",
    "tune": "pure arithmetic: Appendix E's p and b from S and a target error (no data, no noise)",
}


#: the CLI entries run GRR's harness instance from the command line (NULL joins the released domain: N = 4)
_H = GRR.harness_params
DOM3, P3, B, (LO, HI) = _H["domains"]["cat"], _H["discrete"]["cat"], _H["numeric"]["val"], _H["bounds"]["val"]
CLI_ARGS = ["--attr", "cat", "--p", str(P3), "--domain", ",".join(DOM3), "--value-col", "val", "--b", str(B),
            "--bounds", f"{LO:g},{HI:g}", "--merge", "b=a", "--equals", "a"]
#: what ``privateclean query`` treats as public (its flags spell GRR's per-attribute parameters), then the file's shape
CLI_PUBLIC = ("--domain (+ NULL, or --other)", "--bounds (clip; Δ = HI − LO)", "--fill", "--p/--epsilon",
              "--b/--value-epsilon", "--merge", "--equals", "header", "number of lines")


def _cli(flags: list[str]) -> FileCLI:
    """``dpworkbench privateclean query FILE <flags>`` in process, on files written once per distinct content."""
    from .cli import register

    return FileCLI(register, "privateclean query", flags, quiet=True)


def _inputs(sizes: tuple[int, ...], sub: bool = False):
    """CSV texts ``cat[,sub],val`` of ``sizes`` lines; the first line ("a"[, "u"], LO) is the template of the hostile
    lines: ("a"[, "u"], 1e9) moves the SUM by Δ."""
    def make(rng: np.random.Generator) -> list[str]:
        out = []
        for n in sizes:
            cols = [[DOM3[i] for i in rng.integers(0, 3, n)]] + ([[("u", "v")[i] for i in rng.integers(0, 2, n)]]
                                                                if sub else [])
            cols.append([f"{v:g}" for v in np.round(rng.uniform(LO, HI, n), 2)])
            for col, first in zip(cols, ["a", "u"][:len(cols) - 1] + [f"{LO:g}"]):
                col[0] = first
            out.append(("cat,sub,val\n" if sub else "cat,val\n") + "".join(",".join(r) + "\n" for r in zip(*cols)))
        return out
    return make


def _cli_neighbours(text: str) -> Iterable[str]:
    """Every file-level substitution neighbour of ``text`` with the hostile lines (all of them: no random subset)."""
    return csv_line_neighbours(text, hostile_lines(text, limit=None), remove=False, add=False)


JOINT_DOMAIN = {"cat": ["a", "b"], "sub": ["u", "v"]}  # a joint partition (cat, sub): N = 4 combinations


def _joint_examples(rng: np.random.Generator) -> list:
    out = []
    for n in (3, 4):
        cat, sub = list(rng.choice(["a", "b"], n)), list(rng.choice(["u", "v"], n))
        cat[0], sub[0] = "a", "u"  # substituting ("b", "v", 1e9)-like records at row 0 moves the tuple and the value by Δ
        out.append(pd.DataFrame({"cat": cat, "sub": sub, "val": np.r_[0.0, np.round(rng.uniform(-2, 12, n - 1), 2)]}))
    return out


def joint_entry() -> EntryPoint:
    """The GRR declaration on a joint partition (issue 25): (cat, sub) randomised jointly over the product of their
    declared domains, with a Laplace number beside it; everything else (plan, statistics, noise, neighbours) is the
    declaration's own, through :func:`dpworkbench.testing.declared.entry_point`."""
    mech = dataclasses.replace(  # GRR's harness instance on the joint partition: ε = ln(1 + 4·0.5/0.5) + 10/10 = ln 5 + 1
        GRR, harness_params={**_H, "discrete": {("cat", "sub"): P3}, "domains": {("cat", "sub"): JOINT_DOMAIN}},
        examples=_joint_examples, register=False)
    # register=False: a copy registered under GRR's name replaced the real GRR in the registry (the privacy table and
    # `dpworkbench release` then showed the harness instance)
    # checked with this paper's entries (test_harness_declared.py checks the registry, where this copy is not)
    return dataclasses.replace(entry_point(mech), tests="tests/privacy/test_harness_privateclean.py",
                               note="joint partition (cat, sub) over the product of declared domains (issue 25)")


MULTI_ARGS = ["--attr", "cat", "--domain", ",".join(DOM3), "--attr", "sub", "--domain", "u,v", "--p", str(P3),
              "--value-col", "val", "--b", str(B), "--bounds", f"{LO:g},{HI:g}", "--where", "cat = a AND sub = u"]


def _cli_entry(name: str, flags: list[str], public: tuple[str, ...], inputs, note: str, **kw) -> EntryPoint:
    """A file-level entry of ``dpworkbench privateclean query`` with ``flags``: its SUM released, the statistics of
    the GRR release it makes brute-forced (each sample is a whole CLI run, ~50 ms)."""
    cli = _cli([*flags, "--agg", "sum"])
    return cli_entry(name, cli.run, inputs, _cli_neighbours, relation=FILE_RELATION, public=public,
                     note=f"{note}, in process with --seed <int> --json; file-level neighbours with hostile lines", **kw)


def _spark_cli_inputs(rng: np.random.Generator) -> list[str]:
    # one file of two lines (each neighbour is a Spark run): the first is the template of the hostile lines
    val = float(np.round(rng.uniform(LO, HI), 2))
    return [f"cat,val\na,{LO:g}\n{DOM3[int(rng.integers(0, 3))]},{val:g}\n"]


def spark_cli_entry() -> EntryPoint:
    """``dpworkbench privateclean query --engine spark`` on file-level neighbours (every line of one small file
    substituted by every hostile line): the statistics of the pre-noise V the Spark engine drew, against GRR's
    sensitivities at the parameters the command passes (each is a Spark run; tests/spark/)."""
    return _cli_entry("dpworkbench privateclean query", CLI_ARGS, CLI_PUBLIC, _spark_cli_inputs,
                      "--agg sum --merge b=a --equals a, V drawn by Spark (grr_spark)", engine="spark")


def entry_points() -> list[EntryPoint]:
    return [joint_entry(), _cli_entry(
        # the multi-attribute path (issue 25): two GRR attributes, a --where over both, SUM
        "dpworkbench privateclean query --attr cat --attr sub --where", MULTI_ARGS,
        ("--domain per --attr (+ NULL)", "--bounds (clip; Δ = HI − LO)", "--p", "--b", "--where", "header",
         "number of lines"), _inputs((3,), sub=True), "--agg sum --where \"cat = a AND sub = u\"",
        # a smaller pilot than the default 2,000: the single-attribute entry below audits the same front end at full
        # size, and each sample here is a whole CLI run (~50 ms)
        n_samples=1000, pilot_samples=500), _cli_entry(
        "dpworkbench privateclean query", CLI_ARGS,
        CLI_PUBLIC, _inputs((3, 4)),
        "--agg sum --merge b=a --equals a", n_samples=1000), spark_cli_entry()]


__all__ = ["EXEMPT", "entry_points", "spark_cli_entry"]
