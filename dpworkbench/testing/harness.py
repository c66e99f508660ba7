"""The end-to-end privacy harness: one table of every public release entry point, each checked through the
code path a user's data takes.

Each :class:`EntryPoint` says, at the user's input level (a table, a graph, a file), what its neighbouring
relation is, what ε it claims (from the algorithm's pure ``privacy_cost``), what it treats as public, how to
make small random inputs and all their neighbours, which pre-noise statistics the real code path computes
(with their claimed sensitivities), and how to run the release itself. :func:`check_entry_point` then

1. brute-forces every pre-noise statistic over all neighbours of the small random inputs, through the real
   code (DataFrame → model → statistic), and fails when any moves by more than its claimed sensitivity;
2. audits the full output distribution — every component, selection steps included — on the neighbour pair
   where the statistics moved most relative to their sensitivities (:func:`audit_mechanism`, with the
   statistics as reference points so an exact leak is caught).

An entry for a paper's published option that is *not* private sets ``expect_flagged=True``: the harness then
asserts that the check finds it.

The module is generic (the core knows no paper); each paper lists its entries in ``<paper>/harness.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from ..mechanisms.backends import NumpyBackend
from .audit import AuditResult, audit_mechanism


@dataclass(frozen=True)
class EntryPoint:
    """One public release entry point (an API function or a CLI subcommand) and how to test it.

    Attributes
    ----------
    name:
        What a user calls: ``"inconsistency.graph_projection(measure='MI')"`` or ``"dpworkbench inconsistency"``.
    kind:
        ``"api"`` or ``"cli"``.
    relation:
        The neighbouring relation at the user's input level, in words.
    claimed_epsilon:
        ε claimed for the run the harness makes (from the algorithm's ``privacy_cost``).
    public_inputs:
        What the entry point treats as public (names as in its signature or flags).
    make_inputs:
        ``rng ↦ list`` of small random user-level inputs.
    neighbours:
        ``x ↦ iterable`` of all neighbours of ``x`` under ``relation``.
    statistics:
        ``x ↦ {name: value}``: every pre-noise statistic, computed by the real code path.
    sensitivities:
        ``{name: claimed sensitivity}`` (a statistic not listed is not checked; use it for diagnostics).
    release:
        ``(x, rng) ↦ output``: the real entry point; a number, or a dict of named numeric components.
    expect_flagged:
        True for a labelled non-private paper option: the harness must find a violation.
    """

    name: str
    kind: str
    paper: str
    relation: str
    claimed_epsilon: float
    public_inputs: tuple[str, ...]
    make_inputs: Callable[[np.random.Generator], list[Any]]
    neighbours: Callable[[Any], Iterable[Any]]
    statistics: Callable[[Any], Mapping[str, float]]
    sensitivities: Mapping[str, float] | Callable[[Any], Mapping[str, float]]
    release: Callable[[Any, Any], Any]
    expect_flagged: bool = False
    n_samples: int = 6000
    pilot_samples: int = 2000  # the audit's independent pilot (bin edges, atoms) for continuous outputs
    tests: str = ""  # the test file that checks it (default tests/privacy/test_harness_<paper>.py)
    note: str = ""


@dataclass
class SensitivityReport:
    pairs: int
    worst_ratio: float  # max over pairs and statistics of |Δ| / claimed sensitivity
    worst_statistic: str
    worst_pair: tuple[Any, Any] | None
    violations: list[str] = field(default_factory=list)


@dataclass
class EntryReport:
    entry: EntryPoint
    sensitivity: SensitivityReport
    audits: dict[str, AuditResult]

    @property
    def flagged(self) -> bool:
        return bool(self.sensitivity.violations) or any(a.flagged for a in self.audits.values())

    def __str__(self) -> str:
        lines = [f"{self.entry.name}: {self.sensitivity.pairs} neighbour pairs, worst |Δ|/sensitivity "
                 f"{self.sensitivity.worst_ratio:.3g} ({self.sensitivity.worst_statistic})"]
        lines += [f"  sensitivity violated: {v}" for v in self.sensitivity.violations[:5]]
        lines += [f"  {k}: {a}" for k, a in self.audits.items()]
        return "\n".join(lines)


def _sens(entry: EntryPoint, x: Any) -> Mapping[str, float]:
    s = entry.sensitivities
    return s(x) if callable(s) else s


@dataclass(frozen=True)
class _Refused:
    message: str


def _statistics_or_refusal(entry: EntryPoint, x: Any) -> Mapping[str, float] | _Refused:
    """The entry's statistics, or the refusal (a ValueError: the one-line input error every entry point raises)."""
    try:
        return entry.statistics(x)
    except ValueError as exc:
        return _Refused(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)


def check_sensitivity(entry: EntryPoint, rng: np.random.Generator) -> SensitivityReport:
    """Brute force every claimed sensitivity over all neighbours of the entry's small random inputs."""
    pairs = 0
    worst, worst_stat, worst_pair = -1.0, "", None
    violations: list[str] = []
    for x in entry.make_inputs(rng):
        fx = _statistics_or_refusal(entry, x)
        sens = _sens(entry, x)
        for xp in entry.neighbours(x):
            fxp = _statistics_or_refusal(entry, xp)
            pairs += 1
            if isinstance(fx, _Refused) or isinstance(fxp, _Refused):
                # A release is a total function of the data: whether it happens may depend on public inputs only,
                # which neighbours share. One side refusing and the other releasing is a violation (prob. 1 vs 0).
                if isinstance(fx, _Refused) != isinstance(fxp, _Refused):
                    which = fx if isinstance(fx, _Refused) else fxp
                    violations.append(f"refuses on one neighbour and releases on the other ({which.message})")
                    if worst < math.inf:
                        worst, worst_stat, worst_pair = math.inf, "release happens", (x, xp)
                continue
            for name, delta in sens.items():
                if name not in fx and name not in fxp:
                    continue
                a, b = fx.get(name, 0.0), fxp.get(name, 0.0)
                dist = _l1(a, b)
                ratio = dist / delta if delta > 0 else (math.inf if dist else 0.0)
                if ratio > worst:
                    worst, worst_stat, worst_pair = ratio, name, (x, xp)
                if ratio > 1 + 1e-9:
                    violations.append(f"{name}: moved by {dist:g} (L1) on neighbours, claimed sensitivity {delta:g}")
    if pairs == 0:
        raise ValueError(f"{entry.name}: no neighbour pairs were generated")
    return SensitivityReport(pairs, worst, worst_stat, worst_pair, violations)


def _l1(a: Any, b: Any) -> float:
    """L1 distance of two statistics (numbers or arrays; arrays of different shapes are infinitely apart)."""
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if x.shape != y.shape:
        return math.inf
    return float(np.abs(x - y).sum())


def _components(out: Any) -> dict[str, float]:
    if isinstance(out, Mapping):
        return {str(k): float(v) for k, v in out.items()}
    return {"output": float(out)}


def audit_entry(entry: EntryPoint, x: Any, x_prime: Any, *, seed: int = 0, rng_factory: Callable[[int], Any] | None = None,
                n_samples: int | None = None) -> dict[str, AuditResult]:
    """Audit every output component of the release between ``x`` and ``x_prime`` at the claimed ε.

    Each call gets its own stream: ``rng_factory(i)`` (default: the integer seed itself, i.e. a seeded numpy
    back-end). One set of samples serves all components (each component's marginal is audited; a joint
    release is ε-DP only if every marginal is)."""
    n = int(n_samples or entry.n_samples)
    pilot = int(entry.pilot_samples)
    if n == pilot:
        n += 1
    total = n + pilot
    make = rng_factory or (lambda i: i)
    base = np.random.default_rng(seed)
    seeds_x = base.integers(0, 2**62, size=total)
    seeds_y = base.integers(0, 2**62, size=total)
    outs_x = [_components(entry.release(x, make(int(s)))) for s in seeds_x]
    outs_y = [_components(entry.release(x_prime, make(int(s)))) for s in seeds_y]
    refs = [float(v) for side in (x, x_prime) for s in entry.statistics(side).values()
            for v in np.ravel(np.asarray(s, dtype=float))]
    results: dict[str, AuditResult] = {}
    for comp in outs_x[0]:
        ax = np.asarray([o[comp] for o in outs_x], dtype=float)
        ay = np.asarray([o[comp] for o in outs_y], dtype=float)
        served = {"x": (ax[:pilot], ax[pilot:]), "y": (ay[:pilot], ay[pilot:])}

        def mech(side, gen, k, _s=served):
            # audit_mechanism asks for n main samples per side, then (continuous outputs) the pilot.
            return _s[side][1][:k] if k == n else _s[side][0][:k]

        results[comp] = audit_mechanism(mech, "x", "y", entry.claimed_epsilon, n_samples=n, vectorized=True,
                                        seed=seed, reference_points=refs, pilot_samples=pilot)
    return results


def check_entry_point(entry: EntryPoint, *, seed: int = 0, rng_factory: Callable[[int], Any] | None = None,
                      n_samples: int | None = None) -> EntryReport:
    """Sensitivity brute force over all neighbours, then the audit on the worst pair it found."""
    rng = np.random.default_rng(seed)
    sens = check_sensitivity(entry, rng)
    x, xp = sens.worst_pair
    audits = audit_entry(entry, x, xp, seed=seed, rng_factory=rng_factory, n_samples=n_samples)
    return EntryReport(entry, sens, audits)


def markdown_table(entries: Iterable[EntryPoint]) -> str:
    """The harness table for the README (entry point, neighbouring relation, claimed ε, public inputs, tests)."""
    rows = ["| entry point | kind | neighbouring relation | claimed ε (harness run) | treated as public | tests |",
            "|---|---|---|---|---|---|"]
    for e in entries:
        tests = e.tests or f"tests/privacy/test_harness_{e.paper}.py"
        flag = " — labelled paper option, must be flagged" if e.expect_flagged else ""
        rows.append(f"| `{e.name}`{flag} | {e.kind} | {e.relation} | {e.claimed_epsilon:g} | "
                    f"{', '.join(e.public_inputs) or '—'} | {tests} |")
    return "\n".join(rows)


_SCRATCH: dict[str, Any] = {}


class InProcessCLI:
    """Runs a paper's ``dpworkbench <paper> …`` subcommands in-process with the real parser and handlers, and parses
    the last line of their ``--json`` output. The parser is built once (``register`` is the paper CLI's own), since
    building it per sample would dominate a harness run."""

    def __init__(self, register: Callable[[Any], None]):
        self._register = register
        self._parser = None

    def command(self, words: Sequence[str]):
        """The parser of ``dpworkbench <words>`` (its flags: what a harness entry derives public inputs from)."""
        import argparse

        if self._parser is None:
            self._parser = argparse.ArgumentParser(prog="dpworkbench")
            self._register(self._parser.add_subparsers(dest="command", required=True))
        parser = self._parser
        for w in words:
            parser = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[w]
        return parser

    def flags(self, words: Sequence[str]) -> dict[str, str]:
        """``{destination: flag}`` of ``dpworkbench <words>``: a declared parameter's flag is the one whose
        destination is its name."""
        return {a.dest: a.option_strings[0] for a in self.command(words)._actions if a.option_strings}

    def param_argv(self, words: Sequence[str], params: Mapping[str, Any]) -> list[str]:
        """The command line of a declaration's parameters (each one's flag, then its value), so a harness states
        its parameters once, as data."""
        flags = self.flags(words)
        return [t for k, v in params.items() for t in (flags[k], f"{v:g}" if isinstance(v, float) else str(v))]

    def __call__(self, argv: list[str]) -> dict:
        import contextlib
        import io
        import json

        args = self.command([]).parse_args(argv)
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            code = args.func(args)
        if code != 0:
            raise RuntimeError(f"dpworkbench {' '.join(argv)} exited with {code}")
        return json.loads(buf.getvalue().strip().splitlines()[-1])


def scratch_dir(tag: str):
    """One temporary folder per process and tag for the files a CLI entry point reads (written once per input);
    removed when the process exits, so harness runs leave nothing behind."""
    import tempfile
    from pathlib import Path

    if tag not in _SCRATCH:
        _SCRATCH[tag] = tempfile.TemporaryDirectory(prefix=f"dpwb-harness-{tag}-")
    return Path(_SCRATCH[tag].name)


def scratch_file(tag: str, text: str, suffix: str = ".csv"):
    """The bytes of one file-level input in :func:`scratch_dir`, named by a hash of its content and written once
    (the harness runs a release thousands of times on each input)."""
    import hashlib

    data = text.encode("utf-8", "surrogatepass")
    path = scratch_dir(tag) / f"f_{hashlib.sha1(data).hexdigest()[:20]}{suffix}"
    if not path.exists():
        path.write_bytes(data)
    return path


def scratch_duckdb(tag: str, ddl: str, tables: Mapping[str, Sequence[tuple]]):
    """A relational input (``tables``: table → rows, referenced tables first) as a DuckDB file in :func:`scratch_dir`
    whose tables ``ddl`` creates (its keys declared, as a user's database would hold them); named by a hash of the
    DDL and the rows and written once (under a temporary name, then renamed: a half-written file is never read)."""
    import duckdb

    from ..cache import fingerprint

    path = scratch_dir(tag) / f"db_{fingerprint((ddl, tuple(tables.items())))[:20]}.duckdb"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        tmp.unlink(missing_ok=True)
        con = duckdb.connect(str(tmp))
        con.execute(ddl)
        for table, rows in tables.items():
            if rows:
                con.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(rows[0]))})", [list(r) for r in rows])
        con.close()
        tmp.rename(path)
    return path


def seed_of(rng: Any) -> int:
    """The integer ``--seed`` of one sampled CLI run: the audit's own seed, or one drawn from a generator."""
    if isinstance(rng, (int, np.integer)):
        return int(rng)
    return int(np.random.default_rng(rng).integers(2**31))


class PreNoiseBackend(NumpyBackend):
    """A back-end that draws nothing: a declaration's real release path (partition samplers included) run with it
    computes what it would before the noise (``random`` is 1: no record is replaced; ``integers`` 0; Laplace noise
    0). For the harness only: no release chooses it (``cli_backend``, ``check_rng(None)``); a caller passes it."""

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

    def for_partition(self, part: int) -> PreNoiseBackend:
        """Every Spark partition draws nothing either (the instance is pickled to the executors, so the class lives
        at module level)."""
        return self


def numeric_components(out: Any, prefix: str = "") -> dict[str, float]:
    """The numbers of a JSON section (nested mappings flattened to ``a.b`` keys; a null is NaN; text, flags and
    lists are left out): the components the audit compares."""
    comps: dict[str, float] = {}
    if isinstance(out, Mapping):
        for k, v in out.items():
            comps.update(numeric_components(v, f"{prefix}.{k}" if prefix else str(k)))
    elif isinstance(out, (int, float)) and not isinstance(out, bool):
        comps[prefix] = float(out)
    elif out is None:
        comps[prefix] = math.nan
    return comps


_RUNNERS: dict[Any, "InProcessCLI"] = {}


class FileCLI:
    """One paper subcommand run in process (:class:`InProcessCLI`, one parser per ``register``) on small files
    written from text: ``dpworkbench <command> FILE <flags>`` (without ``--seed``/``--json``), then the command's own
    flag of each of a declaration's ``params`` (:meth:`InProcessCLI.param_argv`). The files are kept in the scratch
    folder of the command's first word."""

    def __init__(self, register: Callable[[Any], None], command: str, flags: Sequence[str] = (),
                 params: Mapping[str, Any] | None = None, suffix: str = ".csv", *, quiet: bool = False):
        if register not in _RUNNERS:
            _RUNNERS[register] = InProcessCLI(register)
        self._runner, self._words, self._suffix, self._quiet = _RUNNERS[register], command.split(), suffix, quiet
        self._flags = [*flags, *(self._runner.param_argv(self._words, params) if params else ())]

    def _argv(self, path) -> list[str]:
        return [*self._words, str(path), *self._flags]

    def path(self, text: str):
        return scratch_file(self._words[0], text, self._suffix)

    def flags(self, words: Sequence[str]) -> dict[str, str]:
        return self._runner.flags(words)

    def param_argv(self, words: Sequence[str], params: Mapping[str, Any]) -> list[str]:
        return self._runner.param_argv(words, params)

    def argv(self, argv: list[str]) -> dict:
        """Any command line of the same parser (``quiet``: Python warnings silenced, e.g. an estimator's numeric
        warnings, which thousands of sampled runs would repeat)."""
        import warnings

        with warnings.catch_warnings():
            if self._quiet:
                warnings.simplefilter("ignore")
            return self._runner(argv)

    def run(self, text: str, *extra: str) -> dict:
        return self.argv([*self._argv(self.path(text)), *extra])

    def release(self, text: str, rng: Any, *extra: str) -> dict:
        """The JSON of one sampled run: ``--seed`` from the audit's stream."""
        return self.run(text, *extra, "--seed", str(seed_of(rng)), "--json")

    def exact(self, text: str, *extra: str) -> dict:
        """The JSON with the NOT PRIVATE section (``--seed 0 --show-exact``): what the statistics are read from."""
        return self.run(text, *extra, "--seed", "0", "--json", "--show-exact")


# --- neighbour generators at the user's input level ---------------------------------------------------------
def row_neighbours(df, universe=None) -> Iterable[Any]:
    """Every add/remove-one-row neighbour of a DataFrame: each row removed (later rows keep their order, the
    index is reset as a file re-read would), and each row of ``universe`` inserted at every position."""
    import pandas as pd

    n = len(df)
    for i in range(n):
        yield df.drop(index=df.index[i]).reset_index(drop=True)
    if universe is not None:
        for _, row in universe.iterrows():
            for pos in range(n + 1):
                yield pd.concat([df.iloc[:pos], row.to_frame().T.astype(df.dtypes.to_dict()), df.iloc[pos:]],
                                ignore_index=True)


def csv_line_neighbours(text: str, extra_lines: Sequence[str] = (), *, remove: bool = True, add: bool = True,
                        substitute: bool = True, header: bool = True) -> Iterable[str]:
    """Every file-level neighbour of a CSV's text (header first): each data line removed; each of ``extra_lines``
    inserted at every position; each data line replaced by each of ``extra_lines`` (the substitution relation).
    The neighbours are where a user's data enters: the bytes of the file, read by the entry point's own loader.
    ``header=False``: every line is data (an edge list, whose first line may be an edge or be dropped)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    head, body = (lines[:1], lines[1:]) if header else ([], lines)

    def join(b: list[str]) -> str:
        return "\n".join(head + b) + "\n"

    if remove:
        for i in range(len(body)):
            yield join(body[:i] + body[i + 1:])
    if add:
        for extra in extra_lines:
            for pos in range(len(body) + 1):
                yield join(body[:pos] + [extra] + body[pos:])
    if substitute:
        for i in range(len(body)):
            for extra in extra_lines:
                if extra != body[i]:
                    yield join(body[:i] + [extra] + body[i + 1:])


#: Lines an edge-list file may hold that are not edges (:data:`dpworkbench.graphs.io.EDGE_LINE` matches none: a
#: decimal, text, a header, one field, a blank, a comment, an undecodable byte, a dash, an exponent): the one-line rule
#: drops each on its own, so inserting one anywhere is no change at all; a release that refused or moved on one is caught.
NON_EDGE_LINES = ("1.5 2", "x y", "node_1,node_2", "7", "", "# comment", "\ufffd 3", "-", "1e3 4")


def edge_list_neighbours(text: str, relation: str, extra_lines: Sequence[str] = NON_EDGE_LINES, *,
                         nodes: int = 0) -> Iterable[str]:
    """File-level neighbours of an edge list's text (every line is data; a line is an edge by the one-line rule of
    :func:`dpworkbench.graphs.read_edge_lines`) under the core's graph relations:

    * ``"node"``: for each node id the lines name, every line naming it removed (the node with its edges; a file left
      without lines holds a comment); then each of ``extra_lines`` (default :data:`NON_EDGE_LINES`) inserted at the
      top and at the bottom;
    * ``"edge"`` (on the public nodes ``0..nodes−1``): one line removed, or one line inserted at every position:
      an edge ``"a b"`` between two public nodes, then each of ``extra_lines``."""
    import re

    from ..graphs.io import EDGE_LINE

    if relation not in ("node", "edge"):
        raise ValueError(f"no edge-list neighbours for relation {relation!r} (node or edge)")
    if relation == "edge":
        pairs = [f"{a} {b}" for a in range(nodes) for b in range(a + 1, nodes)]
        yield from csv_line_neighbours(text, list(dict.fromkeys(pairs + list(extra_lines))), substitute=False,
                                       header=False)
        return
    lines = text.splitlines()
    ids = [{int(m["u"]), int(m["v"])} if (m := re.match(EDGE_LINE, ln)) else set() for ln in lines]
    for v in sorted(set().union(*ids)):
        yield "".join(ln + "\n" for ln, named in zip(lines, ids) if v not in named) or "# no edges\n"
    for h in extra_lines:
        yield h + "\n" + text
        yield text + h + "\n"


def hostile_lines(text: str, rng: np.random.Generator | None = None, *, limit: int | None = 16,
                  values: Sequence[str] = ("x", "", "n/a", "NaN", "inf", "1e9", "-1e9", "1.0", "zz_new")) -> list[str]:
    """Lines a user's file may hold that a loader must not let change how *other* lines are read: for each
    column, a copy of an existing line with that cell replaced by each of ``values`` (unparseable text, a blank,
    NA spellings, out-of-range numbers, an integral float, a new category); a duplicate of an existing line
    (duplicate key); a blank line; a line with one field too many; a line opening a quote it never closes.
    ``limit`` keeps a random subset (``rng``), so the neighbour count stays small."""
    lines = [ln for ln in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    header, body = lines[0].split(","), lines[1:]
    base = body[0].split(",") if body else ["0"] * len(header)
    if len(base) != len(header):
        base = ["0"] * len(header)
    out: list[str] = []
    for j in range(len(header)):
        for v in values:
            row = list(base)
            row[j] = v
            out.append(",".join(row))
    if body:
        out.append(body[-1])
    out += ["", ",".join(base + ["extra"]), ",".join(['"open'] + base[1:])]
    out = list(dict.fromkeys(out))
    if limit is not None and len(out) > limit:
        gen = rng if rng is not None else np.random.default_rng(0)
        keep = sorted(gen.choice(len(out), size=limit, replace=False).tolist())
        out = [out[i] for i in keep]
    return out


def node_neighbours(n: int, edges: np.ndarray) -> Iterable[tuple[int, np.ndarray]]:
    """Every remove-one-node neighbour of a graph on 0..n-1: the node and its edges are removed and the
    remaining nodes relabelled 0..n-2 in order (as a re-read edge list with dense ids would be)."""
    edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    for v in range(n):
        keep = (edges[:, 0] != v) & (edges[:, 1] != v)
        e = edges[keep]
        e = e - (e > v)
        yield n - 1, e


def fk_tuple_neighbours(tables: Mapping[str, tuple], catalog: Any, private: Sequence[str],
                        added: Callable[[Mapping[str, tuple], str], Iterable[Mapping[str, tuple]]]) -> Iterable[dict]:
    """Every ``fk_tuple`` neighbour of a relational instance (``tables``: table → rows, each a tuple in the declared
    column order), derived from its public schema ``catalog`` (``columns``: table → its columns in order; ``foreign``:
    keys with ``table``, ``columns``, ``ref_table`` and ``ref_columns``, as a DDL's ``REFERENCES`` declare them). For
    each primary private relation in ``private``: each of its tuples removed with every tuple referencing it through
    the keys, directly or transitively; then each ``{table: rows}`` of ``added(tables, relation)`` appended (a new
    private tuple with its dependants: the keys say what references a tuple, not what a new one holds)."""
    cols = {t: list(catalog.columns[t]) for t in tables}

    def without(table: str, index: int) -> dict:
        gone: dict[str, set[int]] = {t: set() for t in tables}
        todo = [(table, index)]
        while todo:
            t, i = todo.pop()
            if i not in gone[t]:
                gone[t].add(i)
                for fk in (f for f in catalog.foreign if f.ref_table == t and f.table in tables):
                    key = tuple(tables[t][i][cols[t].index(c)] for c in fk.ref_columns)
                    at = [cols[fk.table].index(c) for c in fk.columns]
                    todo += [(fk.table, j) for j, r in enumerate(tables[fk.table]) if tuple(r[k] for k in at) == key]
        return {t: tuple(r for j, r in enumerate(rows) if j not in gone[t]) for t, rows in tables.items()}

    for rel in private:
        yield from (without(rel, i) for i in range(len(tables[rel])))
        for new in added(tables, rel):
            yield {t: rows + tuple(new.get(t, ())) for t, rows in tables.items()}


__all__ = [
    "EntryPoint",
    "EntryReport",
    "FileCLI",
    "InProcessCLI",
    "NON_EDGE_LINES",
    "PreNoiseBackend",
    "SensitivityReport",
    "audit_entry",
    "check_entry_point",
    "check_sensitivity",
    "csv_line_neighbours",
    "edge_list_neighbours",
    "fk_tuple_neighbours",
    "hostile_lines",
    "markdown_table",
    "node_neighbours",
    "numeric_components",
    "row_neighbours",
    "scratch_dir",
    "scratch_duckdb",
    "scratch_file",
    "seed_of",
]
