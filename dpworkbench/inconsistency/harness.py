"""The inconsistency paper's release entry points for the privacy harness (:mod:`dpworkbench.testing.harness`).

Relation everywhere: add or remove one row of the table at any position. The API entry points that take a
DataFrame get ``row_neighbours`` with a small universe of rows. The entry points that read a file — the CLI
(header-only rule; declared ``--schema`` with ``--id-column``) and the API loader ``loaders.load_csv`` feeding
``cli.run_releases`` — get neighbours built from the bytes (issue 21): ``csv_line_neighbours`` with valid lines
and ``hostile_lines`` (unparseable values, blanks, NA, ±1e9, inf, 1.0, a new category, a duplicate line = a
duplicate key, an extra field, an open quote), read by the subcommand's own loader (``cli.public_inputs`` +
``read_csv_public``); a refusal on one side of a pair only is a violation. The pre-noise statistics are
computed through the real path (``build`` → stable order → projection / cover / degree bound):

* ``F_MI(θ)``, ``F_P(θ)`` for θ = 1..8 (claimed sensitivity θ, and θ+1 for I_P with the safe option);
* the EM's data-dependent quality part ``F(θ_max) − F(θ)`` for θ ≤ θ_max ∈ {2, 5} (claimed Δq);
* the Alg. 5 cover size (claimed 2), the FD degree-bound terms (1 each) and the row count behind the private
  size bound (1).

The releases are run with a seeded numpy back-end (the harness's research mode); the graph of each input table
is built once and reused across the audit's draws (the build is deterministic; the sensitivity pass rebuilds
it for every neighbour).
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..testing.harness import EntryPoint, row_neighbours, scratch_dir
from .conflict_graph import build
from .constraints import FD
from .mechanisms import (NEIGHBOURS, dp_vertex_cover, dp_vertex_cover_cost, graph_projection, graph_projection_cost,
                         laplace_sensitivity, quality_sensitivity)
from .model import Projector, degree_bound, i_r_2approx

PAPER = "inconsistency"
EPS = 1.0
DCS = (FD("A", "B"),)
THETAS = tuple(range(1, 9))
THETA_MAX = (2, 5)
RELATION = NEIGHBOURS
TESTS = "tests/privacy/test_harness_inconsistency.py"
UNIVERSE = pd.DataFrame({"A": [0, 0, 1], "B": [0, 5, 1]})
#: the table of finding 1 (deleting row 2 reordered the edges of the position-hashed order)
FINDING1 = pd.DataFrame({"A": [0] * 6, "B": [0, 0, 1, 0, 1, 2]})

#: public functions of the subpackage that spend ε but are not separate entry points
EXEMPT: dict[str, str] = {
    "graph_projection_cost": "pure privacy_cost plan of graph_projection: takes ε as a number, spends nothing",
    "dp_vertex_cover_cost": "pure privacy_cost plan of dp_vertex_cover: takes ε as a number, spends nothing",
    # Not sampled by this harness (each call starts Spark jobs): the out-of-core twin of the harness-tested releases.
    "spark_engine.release_from_parquet": "out-of-core twin of graph_projection and dp_vertex_cover (harness-tested): the same mechanisms fed "
                                         "by StreamedProjector; tests/spark/test_spark_inconsistency_stream.py checks "
                                         "that seeded outputs and ledgers equal the in-memory path's (a KNOWN GAP: not "
                                         "sampled on neighbours)",
}


def make_inputs(rng: np.random.Generator) -> list[pd.DataFrame]:
    n = int(rng.integers(5, 7))
    rand = pd.DataFrame({"A": rng.integers(0, 2, size=n), "B": rng.integers(0, 3, size=n)})
    return [FINDING1.copy(), rand]


def neighbours(df: pd.DataFrame):
    return row_neighbours(df, UNIVERSE)


def statistics(df: pd.DataFrame, ip_sensitivity: str = "safe") -> dict[str, float]:
    g = build(df, DCS)
    proj = Projector(g, rule="rank", seed=0)
    out: dict[str, float] = {}
    for m in ("MI", "P"):
        for t in THETAS:
            out[f"F_{m}({t})"] = float(proj.f(t, m))
        for tm in THETA_MAX:
            for t in range(1, tm):
                out[f"q_{m}({t}|θmax={tm})"] = float(proj.f(tm, m) - proj.f(t, m))
    out["cover"] = float(i_r_2approx(g, rule="rank", seed=0))
    _, terms = degree_bound(df, DCS)
    for i, t in enumerate(terms):
        out[f"d_bound term {i}"] = float(t)
    out["rows (private size bound)"] = float(len(df))
    return out


def sensitivities(ip_sensitivity: str = "safe") -> dict[str, float]:
    s: dict[str, float] = {}
    for m in ("MI", "P"):
        for t in THETAS:
            s[f"F_{m}({t})"] = laplace_sensitivity(t, m, ip_sensitivity)
        for tm in THETA_MAX:
            for t in range(1, tm):
                s[f"q_{m}({t}|θmax={tm})"] = quality_sensitivity(tm, m, ip_sensitivity)
    s["cover"] = 2.0
    s["d_bound term 0"] = 1.0
    s["rows (private size bound)"] = 1.0
    return s


class _GraphCache:
    """One build per input table object (the audit draws thousands of releases on the same two tables)."""

    def __init__(self):
        self._store: dict[int, tuple[Any, Any, Any]] = {}

    def get(self, df: pd.DataFrame):
        hit = self._store.get(id(df))
        if hit is None or hit[0] is not df:
            g = build(df, DCS)
            hit = (df, g, Projector(g, rule="rank", seed=0))
            self._store[id(df)] = hit
        return hit[1], hit[2]


def _num(x) -> float:
    return float("nan") if x is None else float(x)


def _projection_entry(measure: str, *, ip_sensitivity: str = "safe", flagged: bool = False) -> EntryPoint:
    cache = _GraphCache()

    def release(df, rng):
        g, proj = cache.get(df)
        r = graph_projection(g, measure, EPS, df=df, dcs=DCS, projector=proj, rng=rng, ip_sensitivity=ip_sensitivity)
        return {"output": r.value, "theta_star": r.details["theta_star"], "theta_1": _num(r.details["theta_1"]),
                "d_bound_noisy": _num(r.details["d_bound_noisy"]), "n_bound": r.details["n_bound"]}

    label = f"inconsistency.graph_projection(measure='{measure}'" + (
        f", ip_sensitivity='{ip_sensitivity}')" if ip_sensitivity != "safe" else ")")
    claimed = sum(e.epsilon for e in graph_projection_cost(EPS, dcs=DCS))
    return EntryPoint(
        name=label, kind="api", paper=PAPER, relation=RELATION, claimed_epsilon=claimed,
        public_inputs=("epsilon", "strategy", "eps1_frac", "eps0_frac", "n_frac", "order", "order_seed", "dcs",
                       "n_bound (when given; default: private estimate)", "thetas (when given)"),
        make_inputs=make_inputs, neighbours=neighbours,
        statistics=lambda df: statistics(df, ip_sensitivity), sensitivities=sensitivities(ip_sensitivity),
        release=release, expect_flagged=flagged, n_samples=6000, tests=TESTS,
        note="labelled paper option (Lemmas 1–2 as printed): not ε-DP" if flagged else "",
    )


def _cover_entry(noise: str = "paper", flagged: bool = False) -> EntryPoint:
    cache = _GraphCache()

    def release(df, rng):
        g, _ = cache.get(df)
        return dp_vertex_cover(g, EPS, rng=rng, noise=noise).value

    label = "inconsistency.dp_vertex_cover(" + (f"noise='{noise}')" if noise != "paper" else ")")
    return EntryPoint(
        name=label, kind="api", paper=PAPER, relation=RELATION,
        claimed_epsilon=sum(e.epsilon for e in dp_vertex_cover_cost(EPS)),
        public_inputs=("epsilon", "order", "order_seed", "dcs", "n_bound (when given: upper clip)"),
        make_inputs=make_inputs, neighbours=neighbours, statistics=statistics,
        sensitivities={"cover": 2.0}, release=release, expect_flagged=flagged, n_samples=6000, tests=TESTS,
        note="labelled paper option (the printed Lap(ε/2)): not ε-DP" if flagged else "",
    )


def _flatten(prefix: str, x, out: dict) -> None:
    if isinstance(x, dict):
        for k, v in x.items():
            _flatten(f"{prefix}.{k}" if prefix else str(k), v, out)
    elif isinstance(x, (int, float)) and not isinstance(x, bool):
        out[prefix] = float(x)
    elif x is None:
        out[prefix] = float("nan")


def run_cli_json(argv: list[str], parsed=None) -> dict:
    """Run ``dpworkbench <argv>`` in-process (``main``, or the subcommand's handler on already ``parsed``
    arguments) and parse its JSON output."""
    from ..cli import main

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(argv) if parsed is None else parsed.func(parsed)
    if code != 0:
        raise RuntimeError(f"dpworkbench {' '.join(argv)} exited with {code}")
    return json.loads(buf.getvalue())


# --- file-level entry points: the user's bytes → the subcommand's own loader → graph → statistics --------------
#: the finding-1 file (issue 21): B = 1 and 1.0, one number; a row with B = x once re-typed the whole column
FINDING1_TYPES = "A,B\n" + "".join(f"0,{'1' if i % 2 else '1.0'}\n" for i in range(5))
#: CSV lines that hold valid rows (add/remove-one-line neighbours besides the hostile lines)
UNIVERSE_LINES = ("0,0", "0,5", "1,1")


def _csv_text(df: pd.DataFrame) -> str:
    return df.to_csv(index=False, lineterminator="\n")


def _file_inputs(rng: np.random.Generator, id_column: bool) -> list[str]:
    texts = [_csv_text(FINDING1), FINDING1_TYPES, _csv_text(make_inputs(rng)[1])]
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
    from ..testing.harness import csv_line_neighbours, hostile_lines

    rng = np.random.default_rng(len(text))
    extra = hostile_lines(text, rng, limit=14) + [("900," if id_column else "") + ln for ln in UNIVERSE_LINES]
    return csv_line_neighbours(text, list(dict.fromkeys(extra)), substitute=False)


class _Files:
    """One scratch file per distinct CSV text (the CLI reads files)."""

    def __init__(self, tag: str):
        self.dir = scratch_dir(tag)
        self.paths: dict[str, Path] = {}

    def __call__(self, text: str) -> Path:
        p = self.paths.get(text)
        if p is None:
            p = self.dir / f"t{len(self.paths)}.csv"
            p.write_text(text, encoding="utf-8")
            self.paths[text] = p
        return p


def _file_entry(via: str, schema: str | None, id_column: str | None) -> EntryPoint:
    """``via="cli"``: ``dpworkbench inconsistency FILE`` run in-process (real parser and handler); ``via="api"``:
    ``loaders.load_csv`` + ``cli.run_releases``. Statistics: the subcommand's own public checks and reader
    (``cli.public_inputs`` + ``read_csv_public``), then the same build/projection as every entry; a refusal on one
    side of a pair only is a violation (the release must be a total function of the file)."""
    from ..datasets.public_schema import read_csv_public
    from ..testing.harness import InProcessCLI
    from . import cli as C

    files = _Files(f"inconsistency-{via}-{'schema' if schema else 'text'}")
    dcs_file = files.dir / "dcs.txt"
    dcs_file.write_text("not(t1.A=t2.A&t1.B!=t2.B)\n")
    run_cli = InProcessCLI(C.register)
    extra = (["--schema", schema] if schema else []) + (["--id-column", id_column] if id_column else [])
    graphs: dict[str, Any] = {}

    def loaded(text: str):
        hit = graphs.get(text)
        if hit is None:
            path = files(text)
            sch, dcs = C.public_inputs(path, schema=schema, dcs=[str(dcs_file)], id_column=id_column)
            df, _, _ = read_csv_public(path, sch)
            g = build(df, dcs, id_column=id_column)
            hit = graphs[text] = (df, dcs, g)
        return hit

    def stats(text: str) -> dict[str, float]:
        df, dcs, g = loaded(text)
        proj = Projector(g, rule="rank", seed=0)
        out: dict[str, float] = {}
        for m in ("MI", "P"):
            for t in THETAS:
                out[f"F_{m}({t})"] = float(proj.f(t, m))
        out["cover"] = float(i_r_2approx(g, rule="rank", seed=0))
        _, terms = degree_bound(df, dcs)
        for i, t in enumerate(terms):
            out[f"d_bound term {i}"] = float(t)
        out["rows (private size bound)"] = float(len(df))
        return out

    def release(text, rng):
        seed = int(rng) if not isinstance(rng, np.random.Generator) else int(rng.integers(2**62))
        path = files(text)
        if via == "cli":
            out = run_cli(["inconsistency", str(path), "--dcs", str(dcs_file), "--epsilon", str(EPS), "--seed",
                           str(seed), "--json", *extra])["private"]
        else:
            from .loaders import load_csv

            df, _, _ = load_csv(path, schema, dcs=DCS)
            rel, size, _ = C.run_releases(df, list(DCS), epsilon=EPS, backend=seed, id_column=id_column)
            out = {k: r.value for k, r in rel.items()} | {"n_bound": size.value}
        comps: dict = {}
        _flatten("", out, comps)
        return comps

    flags = " ".join(f"{a} '{b}'" if " " in b else f"{a} {b}" for a, b in zip(extra[::2], extra[1::2]))
    if via == "cli":
        name = "dpworkbench inconsistency" + (f" {flags}" if flags else "")
        public = ("--epsilon", "--dcs", "--schema (default: every column text, from the header)", "--order-seed",
                  "--n-bound (when given)", "--id-column")
    else:
        name = "inconsistency.loaders.load_csv + cli.run_releases" + (f" (schema='{schema}')" if schema else "")
        public = ("path's header", "schema (default: every column text)", "epsilon", "dcs", "n_bound (when given)",
                  "id_column", "order_seed")
    sens = sensitivities()
    sens = {k: v for k, v in sens.items() if not k.startswith("q_")}
    return EntryPoint(
        name=name, kind=via, paper=PAPER, relation=FILE_RELATION, claimed_epsilon=EPS, public_inputs=public,
        make_inputs=lambda rng: _file_inputs(rng, id_column is not None),
        neighbours=lambda text: _file_neighbours(text, id_column is not None), statistics=stats,
        sensitivities=sens, release=release, n_samples=300, pilot_samples=300, tests=TESTS,
        note="file-level neighbours (csv_line_neighbours + hostile_lines) read by the subcommand's own loader; "
             "the handler run in-process with --seed <int> --json",
    )


FILE_RELATION = "add or remove one line of the CSV file at any position (one physical line = one row, any bytes)"


def entry_points() -> list[EntryPoint]:
    return [
        _projection_entry("MI"),
        _projection_entry("P"),
        _cover_entry(),
        _file_entry("cli", None, None),
        _file_entry("cli", "id:int, A:int, B:float", "id"),
        _file_entry("api", None, None),
        _projection_entry("P", ip_sensitivity="paper", flagged=True),
        _cover_entry("typo", flagged=True),
    ]


__all__ = ["DCS", "EXEMPT", "FINDING1", "entry_points", "run_cli_json", "statistics"]
