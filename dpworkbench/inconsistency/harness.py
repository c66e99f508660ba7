"""The inconsistency paper's release entry points for the privacy harness (:mod:`dpworkbench.testing.harness`).

Relation everywhere: add or remove one row of the table at any position (``row_neighbours`` with a small
universe of rows). The pre-noise statistics are computed through the real path from the DataFrame
(``build`` → stable order → projection / cover / degree bound):

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


def _cli_entry() -> EntryPoint:
    tmp = scratch_dir("inconsistency")
    dcs_file = tmp / "dcs.txt"
    dcs_file.write_text("not(t1.A=t2.A&t1.B!=t2.B)\n")
    files: dict[int, tuple[pd.DataFrame, Path]] = {}

    def csv_for(df):
        hit = files.get(id(df))
        if hit is None or hit[0] is not df:
            path = tmp / f"t{len(files)}.csv"
            df.to_csv(path, index=False)
            hit = (df, path)
            files[id(df)] = hit
        return hit[1]

    parsed: dict[Path, Any] = {}

    def release(df, rng):
        from ..cli import build_parser

        seed = int(rng) if not isinstance(rng, np.random.Generator) else int(rng.integers(2**62))
        path = csv_for(df)
        if path not in parsed:  # argv parsed once per input by the real parser; the handler runs per draw
            parsed[path] = build_parser().parse_args(["inconsistency", str(path), "--dcs", str(dcs_file),
                                                      "--epsilon", str(EPS), "--seed", "0", "--json"])
        args = parsed[path]
        args.seed = seed
        out = run_cli_json([], parsed=args)
        comps: dict = {}
        _flatten("", out["private"], comps)
        return comps

    return EntryPoint(
        name="dpworkbench inconsistency", kind="cli", paper=PAPER, relation=RELATION, claimed_epsilon=EPS,
        public_inputs=("--epsilon", "--dcs", "schema", "--order-seed", "--n-bound (when given)", "--id-column"),
        make_inputs=make_inputs, neighbours=neighbours, statistics=statistics, sensitivities=sensitivities(),
        release=release, n_samples=300, tests=TESTS,
        note="the subcommand's handler run in-process with --seed <int> --json on a CSV written once per input "
             "(arguments parsed once per input by the real parser)",
    )


def entry_points() -> list[EntryPoint]:
    return [
        _projection_entry("MI"),
        _projection_entry("P"),
        _cover_entry(),
        _cli_entry(),
        _projection_entry("P", ip_sensitivity="paper", flagged=True),
        _cover_entry("typo", flagged=True),
    ]


__all__ = ["DCS", "EXEMPT", "FINDING1", "entry_points", "run_cli_json", "statistics"]
