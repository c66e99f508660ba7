"""R2T's hand-written privacy-harness entries (:mod:`dpworkbench.testing.harness`): what the declarations do not cover.

R2T, OPT², ExpOPT², naive Laplace, fixed τ, random τ, NT, SDE, RM and LS are declared once (:mod:`.mechanisms`,
:mod:`.mechanisms.baselines`); their entries are derived from the declarations (:mod:`dpworkbench.testing.declared`). Here
remain the CLI subcommands (``dpworkbench r2t sql|graph``, run in-process with
``--seed <int> --json`` on small files written once per input), whose neighbours are rows or lines of files. The
relations are the declared ones (:data:`~.mechanisms.RELATION`, ``SQL_RELATION``, ``GRAPH_RELATION``) realised on
each input: one customer with its orders; one node with its edges (:func:`node_neighbours`).

Pre-noise statistics go through the real code (edge list / tables → join information → :class:`Truncation`):
Q(I, τ) for each τ of the grid with sensitivity τ (property 1 of spec 2.2), Q(I) with sensitivity GS_Q on the small
instance class (at most ``N_NODES`` nodes; at most ``MAX_ORDERS`` orders per customer).
"""

from __future__ import annotations

from contextlib import contextmanager
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from dpworkbench.cache import cached_call, fingerprint
from dpworkbench.testing.harness import (EntryPoint, FileCLI, csv_line_neighbours, hostile_lines,
                                         scratch_dir, scratch_file, seed_of)

from .cli import register
from .mechanisms import GRAPH_RELATION as _GRAPH, N_NODES, R2T, SQL_RELATION as _SQL, example_graphs, tau_grid
from .model import Truncation

EPS = 1.0
GS_GRAPH = 8.0       # public GS_Q for the edge count on that class (τ grid 2, 4, 8)
MAX_ORDERS = 3       # each customer has at most 3 orders: S_Q ≤ 3
GS_SQL = 4.0         # public GS_Q for the COUNT query on that class (τ grid 2, 4)
SQL = "SELECT COUNT(*) FROM cust c, orders o WHERE c.id = o.cid"
TESTS = "tests/privacy/test_harness_r2t.py"
GRAPH_RELATION = _GRAPH.describe()
SQL_RELATION = _SQL("the primary private relation cust; each orders tuple references one customer").describe()
SCHEMA_RELATION = _SQL.describe()
SQL_GRID, GRAPH_GRID = tau_grid(GS_SQL), tau_grid(GS_GRAPH)

#: Public functions that take ε but release nothing (pure plans, theory bounds).
EXEMPT = {
    "opt2_bound": "Theorem 6.8's error bound: a formula of (DS, ε, β), releases nothing",
    "r2t_bound": "Theorem 5.1's error bound: a formula of (DS, ε, β, GS), releases nothing",
}

#: Every entry here is the R2T paper's, listed in its harness test.
_entry = partial(EntryPoint, paper="r2t", tests=TESTS)
#: ``dpworkbench r2t …`` in process (the real parser and handler), on files written once per distinct content.
_cli = partial(FileCLI, register, "r2t")


def _memo(kind: str, key: tuple, compute):
    """Non-private per-input work (join information, Q(I,τ) solvers), content-keyed in
    :mod:`dpworkbench.cache`: the harness calls a release thousands of times on each input."""
    return cached_call("r2t.harness", (kind, key), compute)


def _q(trunc, grid=SQL_GRID) -> dict[str, float]:
    return {f"Q(I,{t:g})": float(trunc.value(t)) for t in grid}


def _q_stats(trunc, grid) -> dict[str, float]:
    return {**_q(trunc, grid), "Q(I)": float(trunc.info.answer)}


def _q_sens(grid=SQL_GRID) -> dict[str, float]:
    return {f"Q(I,{t:g})": float(t) for t in grid}


@contextmanager
def _duck(db: Path | None = None, **tables):
    """A DuckDB connection (in memory, or ``db`` read-only) with ``tables`` registered, closed after use."""
    import duckdb

    con = duckdb.connect(str(db), read_only=True) if db else duckdb.connect()
    for name, df in tables.items():
        con.register(name, df)
    try:
        yield con
    finally:
        con.close()


# ------------------------------------------------------------------ graphs (node-DP): the research baselines
def _graph_inputs(rng):
    """The declarations' example graphs (:func:`.mechanisms.example_graphs`) as (n, edges)."""
    return [(N_NODES, e) for e in example_graphs(rng)]


# ------------------------------------------------------------------ SQL (primary private relation cust)
def _sql_inputs(rng):
    out = []
    for n_cust in (3, 4):
        cust = pd.DataFrame({"id": np.arange(1, n_cust + 1)})
        counts = rng.integers(0, MAX_ORDERS + 1, n_cust)
        counts[0] = MAX_ORDERS
        cid = np.repeat(cust["id"].to_numpy(), counts)
        out.append((cust, pd.DataFrame({"oid": np.arange(1, cid.size + 1), "cid": cid})))
    return out


def _sql_neighbours(x):
    cust, orders = x
    for i in cust["id"]:  # delete a customer and every order referencing it
        yield (cust[cust["id"] != i].reset_index(drop=True), orders[orders["cid"] != i].reset_index(drop=True))
    new = int(cust["id"].max()) + 1  # add a customer with MAX_ORDERS orders
    start = int(orders["oid"].max()) + 1 if len(orders) else 1
    extra = pd.DataFrame({"oid": np.arange(start, start + MAX_ORDERS), "cid": new})
    yield (pd.concat([cust, pd.DataFrame({"id": [new]})], ignore_index=True), pd.concat([orders, extra], ignore_index=True))


def _sql_info(x):
    from .sql import extract

    def compute() -> Truncation:
        with _duck(cust=x[0], orders=x[1]) as con:
            return Truncation(extract(con, SQL, [("c", "id")]).info)

    cust, orders = x
    return _memo("sqlinfo", (tuple(cust["id"].tolist()), tuple(orders["oid"].tolist()), tuple(orders["cid"].tolist())),
                 compute)


def _sql_entry(name, kind, release, *, claimed, public, n_samples=3000, pilot=2000):
    return _entry(
        name=name, kind=kind, relation=SQL_RELATION, claimed_epsilon=claimed, public_inputs=public,
        make_inputs=_sql_inputs, neighbours=_sql_neighbours, statistics=lambda x: _q_stats(_sql_info(x), SQL_GRID),
        sensitivities=_q_sens(), release=release, n_samples=n_samples, pilot_samples=pilot)


def _cli_components(out: dict) -> dict:
    p = out["private"]
    if "groups" in p:
        return {f"estimate[{'/'.join(g['group'])}]": float(g["estimate"]) for g in p["groups"]}
    return {"estimate": float(p["estimate"]), "winner_tau": float(p["winner_tau"] or 0.0)}


def _run_sql(query: str, rng, *flags: str) -> dict:
    """``dpworkbench r2t sql QUERY FLAGS --gs GS_SQL --epsilon EPS`` in-process, with ``--seed`` from the audit and
    ``--json``: the released components."""
    argv = ["r2t", "sql", query, *flags, "--gs", f"{GS_SQL:g}", "--epsilon", f"{EPS:g}", "--seed", str(seed_of(rng))]
    return _cli_components(_cli(None).argv([*argv, "--json"]))


def _tables(c: Path, o: Path) -> list[str]:
    return ["--table", f"cust={c}", "--table", f"orders={o}"]


def _sql_cli():
    def release(x, rng):
        c, o = (scratch_file("r2t", df.to_csv(index=False)) for df in x)
        return _run_sql(SQL, rng, *_tables(c, o), "--private", "c:id")
    return _sql_entry("dpworkbench r2t sql", "cli", release, claimed=R2T.epsilon(epsilon=EPS, gs=GS_SQL),
                      public=("query", "--table names", "--private", "--gs", "--base", "--beta", "--epsilon"),
                      n_samples=600, pilot=400)  # each run opens a DuckDB connection (~10–30 ms)


def _graph_text(x) -> str:
    e = np.asarray(x[1], dtype=np.int64).reshape(-1, 2)
    # isolated nodes are absent from an edge list (they never matter: spec 2.0)
    return "".join(f"{u}\t{v}\n" for u, v in e) or "# no edges\n"


#: Lines a user's edge list may hold that are not edges: the one-line rule drops each on its own (issue 21), so
#: inserting one anywhere is no change at all — a release that refused or moved on one would be caught here.
HOSTILE_EDGE_LINES = ("1.5 2", "x y", "node_1,node_2", "7", "", "# comment", "\ufffd 3", "-", "1e3 4")


def _graph_text_neighbours(text: str):
    """File-level node-DP neighbours of an edge list: every line naming one node removed (the node with its edges),
    and each hostile line inserted at the top and at the bottom."""
    from ..graphs import read_edge_lines

    lines = text.splitlines()
    raw, _ = read_edge_lines(scratch_file("r2t", text, ".txt"))
    for v in np.unique(raw):
        yield "".join(ln + "\n" for ln in lines if v not in _line_ids(ln)) or "# no edges\n"
    for h in HOSTILE_EDGE_LINES:
        yield h + "\n" + text
        yield text + h + "\n"


def _line_ids(line: str) -> set[int]:
    parts = line.replace(",", " ").split()
    try:
        return {int(parts[0]), int(parts[1])}
    except (IndexError, ValueError):
        return set()


def _graph_text_stats(text):
    """Q(I, τ) for the graph the CLI's own reader makes of the file (``scan_edge_list``, dense relabelling)."""
    from ..cli.common import scan_edge_list
    from .patterns import graph_joininfo

    def compute():
        return Truncation(graph_joininfo(scan_edge_list(scratch_file("r2t", text, ".txt")).graph(), "edge"))
    return _q_stats(_memo("trunc-text", (fingerprint(text),), compute), GRAPH_GRID)


def _graph_cli():
    cli = _cli(lambda path: ["r2t", "graph", str(path), "--query", "edge", "--gs", f"{GS_GRAPH:g}", "--epsilon",
                             f"{EPS:g}"], ".txt")
    return _entry(
        name="dpworkbench r2t graph", kind="cli",
        relation=GRAPH_RELATION + "; at the file level: every line naming the node removed, and any line that is not "
                 "two integer ids (dropped by the one-line rule) inserted anywhere",
        claimed_epsilon=R2T.epsilon(epsilon=EPS, gs=GS_GRAPH),
        public_inputs=("--query", "--max-degree / --gs", "--base", "--beta", "--epsilon"),
        make_inputs=lambda rng: [_graph_text(x) for x in _graph_inputs(rng)], neighbours=_graph_text_neighbours,
        statistics=_graph_text_stats, sensitivities=_q_sens(GRAPH_GRID),
        release=lambda text, rng: _cli_components(cli.release(text, rng)), n_samples=600)


# ------------------------------------------------------------------ SQL on a declared schema (issue 22), CLI --db
#: Keys of the schema entries: nation is public (persons reference it), person and shop can be primary private;
#: an order references one person and one shop; knows references two persons.
SCHEMA_DDL = """
CREATE TABLE nation(nk INTEGER PRIMARY KEY, name VARCHAR);
CREATE TABLE person(id INTEGER PRIMARY KEY, nk INTEGER REFERENCES nation(nk));
CREATE TABLE shop(sid INTEGER PRIMARY KEY);
CREATE TABLE orders(oid INTEGER PRIMARY KEY, pid INTEGER REFERENCES person(id), sid INTEGER REFERENCES shop(sid),
                    day INTEGER, reg VARCHAR);
CREATE TABLE knows(a INTEGER REFERENCES person(id), b INTEGER REFERENCES person(id));
"""
_TABLES = ("nation", "person", "shop", "orders", "knows")


def _schema_inputs(rng):
    out = []
    for n_person in (3, 4):
        person = tuple((i, int(rng.integers(0, 2))) for i in range(1, n_person + 1))
        orders, oid = [], 1
        for pid, _ in person:
            for _ in range(MAX_ORDERS if pid == 1 else int(rng.integers(0, MAX_ORDERS + 1))):
                orders.append((oid, pid, int(rng.integers(1, 3)), int(rng.integers(1, 3)), "xy"[int(rng.integers(0, 2))]))
                oid += 1
        knows = tuple((a, b) for a, _ in person for b, _ in person if a != b and rng.random() < 0.4)
        out.append({"nation": ((0, "FR"), (1, "DE")), "person": person, "shop": ((1,), (2,)), "orders": tuple(orders),
                    "knows": knows})
    return out


def _schema_neighbours(private: tuple[str, ...]):
    """A primary private tuple removed with its dependants, or added with MAX_ORDERS orders (and a knows edge)."""
    def without(x, table, key, col):  # the tuple and every order referencing it (and, for a person, its knows edges)
        out = {**x, table: tuple(r for r in x[table] if r[0] != key),
               "orders": tuple(o for o in x["orders"] if o[col] != key)}
        return {**out, "knows": tuple(k for k in x["knows"] if key not in k)} if table == "person" else out

    def neighbours(x):
        start = max((o[0] for o in x["orders"]), default=0) + 1
        if "person" in private:
            yield from (without(x, "person", pid, 1) for pid, _ in x["person"])
            new = max(p[0] for p in x["person"]) + 1
            for nk in (0, 1):
                yield {**x, "person": x["person"] + ((new, nk),),
                       # fresh (day, reg) pairs: the projection entry's Q(I,τ) can then move by the full τ
                       "orders": x["orders"] + tuple((start + i, new, 1, 10 + i, "x") for i in range(MAX_ORDERS)),
                       "knows": x["knows"] + ((new, 1), (1, new))}
        if "shop" in private:
            yield from (without(x, "shop", sid, 2) for (sid,) in x["shop"])
            new = max(s[0] for s in x["shop"]) + 1
            yield {**x, "shop": x["shop"] + ((new,),),
                   "orders": x["orders"] + tuple((start + i, 1, new, 2, "y") for i in range(MAX_ORDERS))}
    return neighbours


def _schema_db(x) -> Path:
    """The input as a DuckDB file with the declared keys (written once per input)."""
    import duckdb

    p = scratch_dir("r2t") / f"db_{fingerprint(tuple(x[t] for t in _TABLES))[:20]}.duckdb"
    if not p.exists():
        tmp = p.with_suffix(".tmp")
        tmp.unlink(missing_ok=True)
        con = duckdb.connect(str(tmp))
        con.execute(SCHEMA_DDL)
        for t in _TABLES:
            if x[t]:
                con.executemany(f"INSERT INTO {t} VALUES ({', '.join('?' * len(x[t][0]))})", [list(r) for r in x[t]])
        con.close()
        tmp.rename(p)
    return p


def _schema_entry(name, query, private, *, groups=None, project=None, parallel=None, note=""):
    """``dpworkbench r2t sql --db FILE.duckdb`` with the keys read from the catalog; pre-noise statistics through the
    same completion and extraction. GROUP BY: Q_g(I,τ) per group with sensitivity τ; with parallel composition also
    Σ_g Q_g(I,τ) with sensitivity τ (one individual moves one group only, in one direction)."""
    from .schema import catalog_from_duckdb
    from .sql import extract

    flags = [a for g in (groups or {}).items() for a in ("--groups", f"{g[0]}={'|'.join(g[1])}")]
    flags += ["--project", project] if project else []

    def extraction(x):
        with _duck(_schema_db(x)) as con:
            return extract(con, query, list(private), catalog=catalog_from_duckdb(con), groups=groups, project=project)

    def stats(x):
        key = tuple(x[t] for t in _TABLES)
        ex = _memo("schema-ex", (query, private, str(groups), project, key), lambda: extraction(x))
        if ex.groups is None:
            return _q(_memo("schema-tr", (query, private, project, key), lambda: Truncation(ex.info)))
        out = {}
        for g, info in zip(ex.groups, ex.group_infos):
            out.update({f"Q[{'/'.join(g)}]{k[1:]}": v for k, v in _q(Truncation(info)).items()})
        if parallel:
            for t in SQL_GRID:
                out[f"ΣQ_g(I,{t:g})"] = sum(v for k, v in out.items() if k.endswith(f"(I,{t:g})") and k.startswith("Q["))
        return out

    def release(x, rng):
        return _run_sql(query, rng, "--db", str(_schema_db(x)), *[a for p in private for a in ("--private", p)], *flags)

    return _entry(
        name=f"dpworkbench r2t sql --db ({name})", kind="cli", relation=SCHEMA_RELATION,
        claimed_epsilon=EPS, public_inputs=("query and its completion", "--db catalog (keys)", "--private", "--groups",
                                            "--project", "--gs", "--epsilon"),
        make_inputs=_schema_inputs, neighbours=_schema_neighbours(tuple(private)), statistics=stats,
        sensitivities=lambda x: {k: float(k.rsplit(",", 1)[1].rstrip(")")) for k in stats(x)},
        # The brute force of every statistic over every neighbour is the check these entries add (the noise is R2T's,
        # audited at full strength on the API entries); each sampled release reopens a DuckDB file through the CLI
        # (~0.05–0.1 s), so the end-to-end audit here is a smaller one that still catches a gross leak.
        release=release, n_samples=400 if name == "completion" else 200, pilot_samples=300 if name == "completion" else 150,
        note=note)


#: (name, query, primary private relations, options) of each schema entry
SCHEMA_CASES = (
    ("completion", "SELECT COUNT(*) FROM orders", ("person",), {"note": "orders is completed with person along orders.pid"}),
    ("two primary private relations", "SELECT COUNT(*) FROM orders", ("person", "shop"), {}),
    ("self-join", "SELECT COUNT(*) FROM person p1, knows k, person p2 WHERE p1.id = k.a AND k.b = p2.id", ("person",), {}),
    ("GROUP BY, parallel", "SELECT n.name, COUNT(*) FROM orders o, person p, nation n WHERE o.pid = p.id AND p.nk = n.nk "
     "GROUP BY n.name", ("person",), {"parallel": True}),
    ("GROUP BY, ε split", "SELECT o.reg, COUNT(*) FROM orders o GROUP BY o.reg", ("person",),
     {"groups": {"o.reg": ["x", "y"]}}),
    ("projection", "SELECT COUNT(*) FROM orders o", ("person",), {"project": "o.day, o.reg"}),
)


# ------------------------------------------------------------------ SQL on CSV files typed by --schema DDL
CSV_DDL = ("CREATE TABLE cust(id INTEGER PRIMARY KEY);\n"
           "CREATE TABLE orders(oid INTEGER PRIMARY KEY, cid INTEGER REFERENCES cust(id), amount DOUBLE);\n")
CSV_SQL = "SELECT SUM(amount) FROM orders"
CSV_RELATION = ("a line of orders.csv removed, added or substituted at any position (unparseable, blank, NA, inf, "
                "±1e9, duplicate, extra-field, open-quote lines): one customer's dependants change, or a line that "
                "references none is added")


def _csv_inputs(rng):
    return ["oid,cid,amount\n" + "\n".join(f"{i},{int(rng.integers(1, 4))},{int(rng.integers(0, 3))}"
                                            for i in range(1, n + 1)) + "\n" for n in (3, 4)]


def _csv_neighbours(text):
    extra = hostile_lines(text, np.random.default_rng(len(text)), limit=8) + ["99,2,1"]
    yield from csv_line_neighbours(text, extra)


def _csv_files(text) -> tuple[Path, Path, Path]:
    return scratch_file("r2t", "id\n1\n2\n3\n"), scratch_file("r2t", text), scratch_file("r2t", CSV_DDL, ".sql")


def _csv_stats(text):
    from .schema import catalog_from_ddl, load_tables
    from .sql import extract

    def compute():
        c, o, s = _csv_files(text)
        cat = catalog_from_ddl(s)
        with _duck() as con:
            load_tables(con, [f"cust={c}", f"orders={o}"], cat)  # the CLI's own loader
            return _q(Truncation(extract(con, CSV_SQL, ["cust"], catalog=cat).info))

    return _memo("csv", (text,), compute)


def _csv_release(text, rng):
    c, o, s = _csv_files(text)
    return _run_sql(CSV_SQL, rng, *_tables(c, o), "--schema", str(s), "--private", "cust")


def _csv_entry():
    return _entry(
        name="dpworkbench r2t sql --schema (CSV lines)", kind="cli", relation=CSV_RELATION,
        claimed_epsilon=EPS, public_inputs=("query and its completion", "--schema DDL (types, keys)", "--private",
                                            "--gs", "--epsilon"),
        make_inputs=_csv_inputs, neighbours=_csv_neighbours, statistics=_csv_stats, sensitivities=_q_sens(),
        release=_csv_release, n_samples=400, pilot_samples=300,
        note="a cell that does not parse under its declared type is NULL (weight 0 / no individual)")


def entry_points() -> list[EntryPoint]:
    """Every public release entry point of the R2T / OPT² paper."""
    return [_sql_cli(), _graph_cli(),
            *(_schema_entry(name, q, private, **kw) for name, q, private, kw in SCHEMA_CASES), _csv_entry()]


__all__ = ["EXEMPT", "entry_points"]
