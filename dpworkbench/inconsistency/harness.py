"""The inconsistency paper's hand-written entry points for the privacy harness (:mod:`dpworkbench.testing.harness`):
the file-level ones. Every API release (Alg. 2 for I_MI / I_P, Alg. 5, the size and FD degree bounds, and the
labelled paper options) is a declaration in :mod:`.mechanisms`, whose harness entry is derived
(:mod:`dpworkbench.testing.declared`).

Relation: add or remove one line of the CSV at any position. The entry points that read a file — the CLI
(header-only rule; declared ``--schema`` with ``--id-column``) and the API loader ``loaders.load_csv`` feeding
``mechanisms.release_measures`` — get neighbours built from the bytes (issue 21): ``csv_line_neighbours`` with
valid lines and ``hostile_lines`` (unparseable values, blanks, NA, ±1e9, inf, 1.0, a new category, a duplicate line =
a duplicate key, an extra field, an open quote), read by the subcommand's own loader; a refusal on one side of a
pair only is a violation. The claimed ε is the command's own ``--plan``
(:func:`~dpworkbench.testing.declared.cli_entry`); the statistics brute-forced are those of every declared release
the command makes (the row bound, I_MI, I_P and the cover: :class:`~.mechanisms.Statistics`' F(θ), EM quality gaps,
FD degree-bound terms, cover size and row count) against each declaration's sensitivities at the parameters the
command passed, of the table and conflict graph the command itself read and built
(:func:`~dpworkbench.testing.declared.command_statistics`). The Spark paths: the out-of-core one is the Spark engine
I_MI, I_P and the cover declare (derived entries); the command's ``--engine spark`` is :func:`spark_cli_entry` (tests/spark/).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..testing.declared import cli_entry
from ..testing.harness import FileCLI, csv_line_neighbours, hostile_lines, numeric_components, scratch_file, seed_of
from .mechanisms import FINDING1, HARNESS_DCS as DCS, harness_tables

PAPER = "inconsistency"
EPS = 1.0

#: public functions of the subpackage that spend ε but are not entry points of their own
EXEMPT: dict[str, str] = {
    "graph_projection": "thin API over the declarations inconsistency.graph_projection_mi / _p / "
                        "_p_paper_sensitivity (derived harness entries): statistics of a built graph → DECL.release",
    "dp_vertex_cover": "thin API over the declarations inconsistency.vertex_cover / vertex_cover_typo (derived "
                       "harness entries): statistics of a built graph → DECL.release",
    "graph_projection_cost": "the plan of graph_projection (I_MI.plan): takes ε as a number, spends nothing",
    "dp_vertex_cover_cost": "the plan of dp_vertex_cover (VERTEX_COVER.plan): takes ε as a number, spends nothing",
}


# --- file-level entry points: the user's bytes → the subcommand's own loader → graph → statistics --------------
#: the finding-1 file (issue 21): B = 1 and 1.0, one number; a row with B = x once re-typed the whole column
FINDING1_TYPES = "A,B\n" + "".join(f"0,{'1' if i % 2 else '1.0'}\n" for i in range(5))
#: CSV lines that hold valid rows (add/remove-one-line neighbours besides the hostile lines)
UNIVERSE_LINES = ("0,0", "0,5", "1,1")


def _csv_text(df: pd.DataFrame) -> str:
    return df.to_csv(index=False, lineterminator="\n")


def _file_inputs(rng: np.random.Generator, id_column: bool) -> list[str]:
    texts = [_csv_text(FINDING1), FINDING1_TYPES, _csv_text(harness_tables(rng)[1].df)]
    if not id_column:
        return texts
    out = []
    for t in texts:  # a key column, with a repeated key already in the file
        lines = t.rstrip("\n").split("\n")
        keys = [str(100 + i) for i in range(len(lines) - 1)]
        keys[-1] = keys[0]
        out.append("\n".join(["id," + lines[0]] + [f"{k},{ln}" for k, ln in zip(keys, lines[1:])]) + "\n")
    return out


def _file_neighbours(text: str, id_column: bool):
    """Add or remove one CSV line at any position: valid rows, and the hostile lines of the core generator
    (unparseable values, blanks, NA spellings, ±1e9, inf, 1.0, a new category, a duplicate line = a duplicate key,
    an extra field, an open quote)."""
    rng = np.random.default_rng(len(text))
    extra = hostile_lines(text, rng, limit=14) + [("900," if id_column else "") + ln for ln in UNIVERSE_LINES]
    return csv_line_neighbours(text, list(dict.fromkeys(extra)), substitute=False)


def _file_entry(via: str, schema: str | None, id_column: str | None, engine: str | None = None):
    """``via="cli"``: ``dpworkbench inconsistency FILE`` run in-process (real parser and handler); ``via="api"``:
    ``loaders.load_csv`` + ``mechanisms.release_measures`` on the same files, with the same claim. Statistics: those
    of the subcommand's own declared releases, on what its public checks, reader and build made; a refusal on one
    side of a pair only is a violation (the release must be a total function of the file)."""
    import dataclasses

    from . import cli as C
    from .loaders import load_csv
    from .mechanisms import release_measures

    dcs_file = scratch_file(PAPER, "".join(f"{dc.text}\n" for dc in DCS), ".txt")  # the API variant's DCs, as text
    extra = (["--schema", schema] if schema else []) + (["--id-column", id_column] if id_column else []) + (
        ["--engine", engine] if engine else [])
    cli = FileCLI(C.register, PAPER, ["--dcs", str(dcs_file), "--epsilon", str(EPS), *extra])
    def api_release(text, rng):
        df, _, _ = load_csv(cli.path(text), schema, dcs=DCS)
        rel = release_measures(df, list(DCS), epsilon=EPS, backend=seed_of(rng), id_column=id_column)
        return numeric_components(rel.value | {"n_bound": rel.details["n_bound"]})

    flags = " ".join(f"{a} '{b}'" if " " in b else f"{a} {b}" for a, b in zip(extra[::2], extra[1::2]))
    entry = cli_entry(
        "dpworkbench inconsistency" + (f" {flags}" if flags else ""), cli.run,
        lambda rng: _file_inputs(rng, id_column is not None),
        lambda text: _file_neighbours(text, id_column is not None),
        relation=FILE_RELATION, n_samples=300, pilot_samples=300,
        public=("--epsilon", "--dcs", "--schema (default: every column text, from the header)", "--order-seed",
                "--n-bound (when given)", "--id-column", *(["--engine"] if engine else [])),
        note="file-level neighbours (csv_line_neighbours + hostile_lines) read by the subcommand's own loader; "
             "the handler run in-process with --seed <int> --json")
    if via == "cli":
        return entry
    return dataclasses.replace(
        entry, kind="api", release=api_release,
        name="inconsistency.loaders.load_csv + mechanisms.release_measures"
             + (f" (schema='{schema}')" if schema else ""),
        public_inputs=("path's header", "schema (default: every column text)", "epsilon", "dcs", "n_bound (when given)",
                       "id_column", "order_seed"))


FILE_RELATION = "add or remove one line of the CSV file at any position (one physical line = one row, any bytes)"


def spark_cli_entry():
    """``--engine spark``: the graph built by Spark SQL self-joins (``build_spark``), the releases on the driver
    (observed there), on one 2-line file and its neighbours (valid lines, a NULL cell): each a Spark run."""
    import dataclasses

    return dataclasses.replace(
        _file_entry("cli", None, None, "spark"), make_inputs=lambda rng: ["A,B\n0,0\n0,1\n"],
        neighbours=lambda text: csv_line_neighbours(text, [*UNIVERSE_LINES, "0,"], substitute=False),
        tests="tests/spark/test_spark_inconsistency_harness.py")


def entry_points():
    return [_file_entry("cli", None, None), _file_entry("cli", "id:int, A:int, B:float", "id"),
            _file_entry("api", None, None), spark_cli_entry()]


__all__ = ["DCS", "EXEMPT", "FINDING1", "FINDING1_TYPES", "entry_points", "spark_cli_entry"]
