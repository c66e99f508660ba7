"""PrivateClean's release entry points for the privacy harness (:mod:`dpworkbench.testing.harness`).

Neighbouring relation for every entry: **substitute one record** (at any position) — bounded DP. GRR and the
Laplace noise randomise each record independently (local DP per record), so the private relation V is ε-DP under
the substitution of one record; the number of rows is public (the spec's model releases a row-aligned V of the
same size S).

Entries

* ``privateclean.grr`` — GRR on a discrete attribute + Laplace on a numeric one (public domain and bounds). Release
  components: each row's privatised category code and value, and the per-category counts of V.
* ``privateclean.grr(accounting='paper_lemma1')`` — the paper's Lemma 1 (ε = ln(3/p − 2)) on a 10-value domain
  with p set so that Lemma 1 claims ε = 1; the true ε is ln(1 + 10(1−p)/p) ≈ 1.9, so the harness must flag it.
* ``privateclean.grr(regenerate_until_domain_preserved=True)`` — the paper's Theorem-2 regeneration: a value
  present in R is never missing from V, so the acceptance event leaks (must be flagged).
* ``dpworkbench privateclean query`` — the CLI handler, in process (:class:`~dpworkbench.testing.harness.InProcessCLI`),
  on small CSV files: the neighbours substitute one *line* of the file at any position by another line, hostile ones
  included (:func:`~dpworkbench.testing.harness.hostile_lines`: unparseable and non-finite numbers, blanks, a new
  category, ±1e9, a blank line, an extra field, an open quote). Whether a release happens and its pre-noise
  statistics (the CLI's NOT PRIVATE true SUM and COUNT, and the public row count) are compared on every pair;
  components are the JSON ``private`` section (PrivateClean SUM, its CI, Direct SUM) with ``--seed <int> --json``.

The pre-noise statistics are computed through the real ``grr`` code path (encoding against the public domain,
clipping into the public bounds) on a back-end that replaces no row and adds no noise.
"""
from __future__ import annotations

import contextlib
import math
import hashlib
from typing import Any, Iterable

import numpy as np
import pandas as pd

from dpworkbench.mechanisms.backends import NumpyBackend
from dpworkbench.testing.harness import EntryPoint, InProcessCLI, csv_line_neighbours, hostile_lines, scratch_dir

from .mechanisms import epsilon_grr, grr, p_for_epsilon

PAPER = "privateclean"
RELATION = "substitute one record at any position (bounded DP; the row count is public)"
FILE_RELATION = ("substitute one line of the CSV at any position, hostile lines included (bounded DP; the number of "
                 "lines is public)")

# Public functions with an ``epsilon`` parameter that spend nothing (pure parameter arithmetic).
EXEMPT = {
    "p_for_epsilon": "pure arithmetic: the p that gives a target ε (no data, no noise)",
    "b_for_epsilon": "pure arithmetic: the Laplace scale Δ/ε (no data, no noise)",
    "allocate_epsilon": "pure arithmetic: splits a total ε into per-attribute p and b (no data, no noise)",
    "tune": "pure arithmetic: Appendix E's p and b from S and a target error (no data, no noise)",
    # Not sampled by this harness (each call starts Spark jobs): the Spark twin of `grr`, which is in the harness.
    "spark_engine.grr_spark": "Spark twin of grr (harness-tested): the same per-row GRR over the same public domain, p "
                              "and b, ledger recorded before any draw; tests/spark/test_spark_privateclean.py checks "
                              "the ledger and that the output law equals grr's (a KNOWN GAP: not sampled on neighbours)",
}


def substitution_neighbours(df: pd.DataFrame, universe: pd.DataFrame) -> Iterable[pd.DataFrame]:
    """Every neighbour of ``df`` that replaces one record (at any position) by a different record of
    ``universe``; the other rows keep their order."""
    for i in range(len(df)):
        for _, u in universe.iterrows():
            if all(df.iloc[i][c] == u[c] for c in df.columns):
                continue
            out = df.copy()
            for c in df.columns:
                out.at[out.index[i], c] = u[c]
            yield out


class _PreNoise(NumpyBackend):
    """The real grr path with randomness switched off: no row is replaced, no noise is added."""

    class _Never:
        @staticmethod
        def random(size=None):
            return np.ones(size)

        @staticmethod
        def integers(lo, hi=None, size=None):
            return np.zeros(size, dtype=np.int64)

    @property
    def generator(self):
        return self._Never()

    def add_laplace(self, value, scale):
        return np.asarray(value, dtype=float)


# --- entry 1: grr, discrete + numeric -------------------------------------------------------------------------
DOM3 = ["a", "b", "c"]
P3, LO, HI, B = 0.5, 0.0, 10.0, 10.0  # ε = ln(1 + 3·0.5/0.5) + 10/10 = ln 4 + 1
# 25 lies outside the public bounds; "zz" outside the domain (replaced with probability 1) with a missing value (the
# midpoint of the bounds): hostile records are substitutes too
UNIVERSE = pd.DataFrame({"cat": ["c", "a", "b", "zz"], "val": [HI, LO, 25.0, np.nan]})


def _grr_inputs(rng: np.random.Generator) -> list[pd.DataFrame]:
    out = []
    for n in (3, 4):
        cat = [DOM3[i] for i in rng.integers(0, 3, n)]
        val = list(np.round(rng.uniform(LO - 2, HI + 2, n), 2))
        cat[0], val[0] = "a", LO  # substituting ("c", 10) at row 0 moves the category and the value by Δ
        out.append(pd.DataFrame({"cat": cat, "val": np.asarray(val, dtype=float)}))
    return out


def _grr_call(df: pd.DataFrame, rng: Any):
    return grr(df, {"cat": P3}, {"val": B}, domains={"cat": DOM3}, bounds={"val": (LO, HI)}, rng=rng)


def _grr_components(V: pd.DataFrame, dom: list) -> dict[str, float]:
    codes = pd.Index(dom).get_indexer(V["cat"])
    out = {f"cat[{i}]": float(c) for i, c in enumerate(codes)}
    if "val" in V:
        out.update({f"val[{i}]": float(v) for i, v in enumerate(V["val"])})
    out.update({f"count[{v}]": float((codes == k).sum()) for k, v in enumerate(dom)})
    return out


def _grr_statistics(df: pd.DataFrame) -> dict[str, float]:
    V = _grr_call(df, _PreNoise(0)).value.data
    comps = _grr_components(V, DOM3)
    return {k: v for k, v in comps.items() if not k.startswith("cat[")}


def _grr_sensitivities(df: pd.DataFrame) -> dict[str, float]:
    out = {f"val[{i}]": HI - LO for i in range(len(df))}
    out.update({f"count[{v}]": 1.0 for v in DOM3})
    return out


# --- entry 2: Lemma 1 accounting (paper option) ---------------------------------------------------------------
DOM10 = [f"v{k}" for k in range(10)]
P_LEMMA1 = p_for_epsilon(1.0, convention="paper")  # Lemma 1 claims ε = 1; the true ε at N = 10 is ≈ 1.9
UNIVERSE10 = pd.DataFrame({"cat": ["v9", "v0", "v5"]})


def _cat_inputs(dom: list, first: str):
    def make(rng: np.random.Generator) -> list[pd.DataFrame]:
        out = []
        for n in (2, 3):
            cat = [dom[i] for i in rng.integers(1, len(dom), n)]
            cat[0] = first
            out.append(pd.DataFrame({"cat": cat}))
        return out
    return make


def _count_statistics(call, dom):
    def stats(df: pd.DataFrame) -> dict[str, float]:
        codes = pd.Index(dom).get_indexer(call(df, _PreNoise(0)).value.data["cat"])
        return {f"count[{v}]": float((codes == k).sum()) for k, v in enumerate(dom)}
    return stats


def _lemma1_call(df: pd.DataFrame, rng: Any):
    return grr(df, {"cat": P_LEMMA1}, domains={"cat": DOM10}, rng=rng, accounting="paper_lemma1")


# --- entry 3: Theorem 2 regeneration (paper option) ------------------------------------------------------------
DOM4 = ["a", "b", "c", "d"]
P_REGEN = 0.5
UNIVERSE4 = pd.DataFrame({"cat": ["d", "b", "c"]})


def _regen_call(df: pd.DataFrame, rng: Any):
    return grr(df, {"cat": P_REGEN}, domains={"cat": DOM4}, rng=rng, regenerate_until_domain_preserved=True)


def _regen_release(df: pd.DataFrame, rng: Any) -> dict[str, float]:
    with _quiet():
        V = _regen_call(df, rng).value.data
    return {f"present[{v}]": float((V["cat"] == v).any()) for v in DOM4}


@contextlib.contextmanager
def _quiet():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


# --- entry 4: the CLI, from the bytes of the file -------------------------------------------------------------------
# The user's data enters as a CSV file, so the neighbours are built at the file level: one line of the file
# substituted, at any position, by another line — including hostile ones (unparseable and non-finite numbers, blanks,
# NA spellings, a new category, out-of-range numbers, a blank line, a line with an extra field, an open quote). Whether
# a release happens and its pre-noise statistics are compared across every pair, through the real handler.
CLI_ARGS = ["--attr", "cat", "--p", str(P3), "--domain", ",".join(DOM3), "--value-col", "val", "--b", str(B),
            "--bounds", f"{LO:g},{HI:g}", "--merge", "b=a", "--equals", "a"]
# NULL joins the released domain (where values outside --domain go), so GRR's N is 4 here
CLI_EPSILON = epsilon_grr(P3, len(DOM3) + 1) + (HI - LO) / B


def _cli() -> InProcessCLI:
    from .cli import register

    return InProcessCLI(register)


_RUN = _cli()


def _csv_path(text: str) -> str:
    """The input as a file, written once per distinct content in this process's scratch folder."""
    path = scratch_dir(PAPER) / f"in-{hashlib.sha1(text.encode()).hexdigest()}.csv"
    if not path.exists():
        path.write_text(text, encoding="utf-8")
    return str(path)


def run_cli(argv: list[str]) -> dict:
    """Run ``dpworkbench <argv>`` in process (the real parser and handler) and parse its JSON output."""
    with _quiet():
        return _RUN(argv)


def _query(text: str, *extra: str) -> dict:
    return run_cli(["privateclean", "query", _csv_path(text), *CLI_ARGS, *extra])


def _cli_release(text: str, seed: Any) -> dict[str, float]:
    out = _query(text, "--agg", "sum", "--seed", str(int(seed)), "--json")
    return {k: (math.nan if v is None else float(v)) for k, v in out["private"].items()}


def _cli_statistics(text: str) -> dict[str, float]:
    # the CLI's own NOT PRIVATE truth on the pre-noise relation (the file read by the public schema, mapped into the
    # domain and clipped into the bounds, then merged and filtered): the quantities the noise is added to
    s = _query(text, "--agg", "sum", "--seed", "0", "--json", "--show-exact")
    c = _query(text, "--agg", "count", "--seed", "0", "--json", "--show-exact")
    return {"true_sum": float(s["NOT_PRIVATE"]["true_answer"]), "true_count": float(c["NOT_PRIVATE"]["true_answer"]),
            "rows": float(s["public"]["rows"])}


def _cli_inputs(rng: np.random.Generator) -> list[str]:
    out = []
    for n in (3, 4):
        cat = [DOM3[i] for i in rng.integers(0, 3, n)]
        val = list(np.round(rng.uniform(LO, HI, n), 2))
        cat[0], val[0] = "a", LO  # the first line is the template of the hostile lines: ("a", 1e9) moves the SUM by Δ
        out.append("cat,val\n" + "".join(f"{c},{v:g}\n" for c, v in zip(cat, val)))
    return out


def _cli_neighbours(text: str) -> Iterable[str]:
    """Every file-level substitution neighbour of ``text`` with the hostile lines (all of them: no random subset)."""
    return csv_line_neighbours(text, hostile_lines(text, limit=None), remove=False, add=False)


def entry_points() -> list[EntryPoint]:
    eps_grr = epsilon_grr(P3, len(DOM3)) + (HI - LO) / B
    public_grr = ("domains (+ the out-of-domain rule)", "bounds (clip; Δ = hi − lo)", "fill (default midpoint)", "p", "b",
                  "number of rows")
    return [
        EntryPoint(
            name="privateclean.grr", kind="api", paper=PAPER, relation=RELATION, claimed_epsilon=eps_grr,
            public_inputs=public_grr, make_inputs=_grr_inputs,
            neighbours=lambda df: substitution_neighbours(df, UNIVERSE),
            statistics=_grr_statistics, sensitivities=_grr_sensitivities,
            release=lambda df, rng: _grr_components(_grr_call(df, rng).value.data, DOM3),
            n_samples=3000, tests="tests/privacy/test_harness_privateclean.py",
            note="GRR (N=3, p=0.5) + Laplace (b=10 on public bounds [0, 10]); exact accounting",
        ),
        EntryPoint(
            name="privateclean.grr(accounting='paper_lemma1')", kind="api", paper=PAPER, relation=RELATION,
            claimed_epsilon=epsilon_grr(P_LEMMA1, 3, "paper"), public_inputs=("domains", "p", "number of rows"),
            make_inputs=_cat_inputs(DOM10, "v0"), neighbours=lambda df: substitution_neighbours(df, UNIVERSE10),
            statistics=_count_statistics(_lemma1_call, DOM10), sensitivities={f"count[{v}]": 1.0 for v in DOM10},
            release=lambda df, rng: _grr_components(_lemma1_call(df, rng).value.data, DOM10),
            expect_flagged=True, n_samples=4000, tests="tests/privacy/test_harness_privateclean.py",
            note="Lemma 1's ln(3/p−2) = 1 on a 10-value domain; the true ε is ln(1+10(1−p)/p) ≈ 1.9",
        ),
        EntryPoint(
            name="privateclean.grr(regenerate_until_domain_preserved=True)", kind="api", paper=PAPER,
            relation=RELATION, claimed_epsilon=epsilon_grr(P_REGEN, len(DOM4)),
            public_inputs=("domains", "p", "number of rows"), make_inputs=_cat_inputs(DOM4, "a"),
            neighbours=lambda df: substitution_neighbours(df, UNIVERSE4),
            statistics=_count_statistics(lambda df, rng: grr(df, {"cat": P_REGEN}, domains={"cat": DOM4}, rng=rng), DOM4),
            sensitivities={f"count[{v}]": 1.0 for v in DOM4}, release=_regen_release, expect_flagged=True,
            n_samples=3000, tests="tests/privacy/test_harness_privateclean.py",
            note="Theorem 2's regeneration: a value present in R is never missing from V",
        ),
        EntryPoint(
            name="dpworkbench privateclean query", kind="cli", paper=PAPER, relation=FILE_RELATION,
            claimed_epsilon=CLI_EPSILON,
            public_inputs=("--domain (+ NULL, or --other)", "--bounds (clip; Δ = HI − LO)", "--fill", "--p/--epsilon",
                           "--b/--value-epsilon", "--merge", "--equals", "header", "number of lines"),
            make_inputs=_cli_inputs, neighbours=_cli_neighbours, statistics=_cli_statistics,
            sensitivities={"true_sum": HI - LO, "true_count": 1.0, "rows": 0.0},
            release=_cli_release, n_samples=1000, tests="tests/privacy/test_harness_privateclean.py",
            note="--agg sum --merge b=a --equals a, in process with --seed <int> --json; file-level neighbours with "
                 "hostile lines",
        ),
    ]


__all__ = ["EXEMPT", "entry_points", "run_cli", "substitution_neighbours"]
