"""R2T's hand-written privacy-harness entries (:mod:`dpworkbench.testing.harness`): what the declarations do not cover.

R2T, OPT², ExpOPT², naive Laplace, fixed τ, random τ, NT, SDE, RM and LS are declared once (:mod:`.mechanisms`,
:mod:`.mechanisms.baselines`); their entries are derived from the declarations (:mod:`dpworkbench.testing.declared`). Here
remain the CLI subcommands (``dpworkbench r2t sql|graph``, run in-process on small files written once per input),
whose neighbours are rows or lines of files: :func:`~dpworkbench.testing.declared.cli_entry` derives each one's
claimed ε from the command's own ``--plan``, and its statistics are those of the declared release the command makes
(:func:`~dpworkbench.testing.declared.command_statistics`: R2T's Q(I, τ) for each τ of the grid, sensitivity τ, of
the :class:`Truncation` the command's own reader and extraction built from the files; per group for a GROUP BY,
``R2T_GROUP_BY``'s). The
relations are the declared ones (``SQL_RELATION``, ``GRAPH_RELATION``) realised on each input: one customer with its
orders; one node with its edges. GS_Q is public on the small instance class (at most ``N_NODES`` nodes; at most
``MAX_ORDERS`` orders per customer).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from dpworkbench.testing.declared import cli_entry
from dpworkbench.testing.harness import (FileCLI, csv_line_neighbours, edge_list_neighbours, fk_tuple_neighbours,
                                         hostile_lines, scratch_duckdb, scratch_file)

from .cli import register
from .mechanisms import GRAPH_RELATION as _GRAPH, R2T, SQL_RELATION as _SQL, example_graphs
from .schema import catalog_from_ddl

MAX_ORDERS = 3       # each customer has at most 3 orders: S_Q ≤ 3
SQL_PARAMS = {"epsilon": 1.0, "gs": 4.0}  # public GS_Q for the COUNT query on that class (τ grid 2, 4)
SQL = "SELECT COUNT(*) FROM cust c, orders o WHERE c.id = o.cid"
SQL_RELATION = _SQL("the primary private relation cust; each orders tuple references one customer").describe()

#: Public functions that take ε but release nothing (pure plans, theory bounds).
EXEMPT = {
    "opt2_bound": "Theorem 6.8's error bound: a formula of (DS, ε, β), releases nothing",
    "r2t_bound": "Theorem 5.1's error bound: a formula of (DS, ε, β, GS), releases nothing",
}

#: ``dpworkbench r2t …`` in process (the real parser and handler), on files written once per distinct content.
_CLI = FileCLI(register, "r2t")


def _sql(query: str, files, *flags: str):
    """``run(x, *extra)``: ``dpworkbench r2t sql QUERY <files(x)> FLAGS <SQL_PARAMS' flags> EXTRA``."""
    return lambda x, *extra: _CLI.argv(["r2t", "sql", query, *files(x), *flags,
                                        *_CLI.param_argv(["r2t", "sql"], SQL_PARAMS), *extra])


def _components(out: dict) -> dict:
    p = out["private"]
    if "groups" in p:
        return {f"estimate[{'/'.join(g['group'])}]": float(g["estimate"]) for g in p["groups"]}
    return {"estimate": float(p["estimate"]), "winner_tau": float(p["winner_tau"] or 0.0)}


# ------------------------------------------------------------------ SQL (primary private relation cust)
def _tables(c: Path, o: Path) -> list[str]:
    return ["--table", f"cust={c}", "--table", f"orders={o}"]


def _sql_cli(engine: tuple[str, ...] = ()):
    """``dpworkbench r2t sql`` on CSV tables (no keys declared): the schema inputs' persons as customers, their
    orders referencing them; neighbours: a customer removed with its orders, or added with ``MAX_ORDERS`` orders.
    ``engine=("--engine", "spark")``: the same plan extracted on Spark, R2T's release on the driver (observed there);
    each statistic is a Spark run, so tests/spark/ checks it on one input."""
    def files(x):
        return _tables(scratch_file("r2t", "id\n" + "".join(f"{p}\n" for p, _ in x["person"])),
                       scratch_file("r2t", "oid,cid\n" + "".join(f"{o[0]},{o[1]}\n" for o in x["orders"])))
    return cli_entry(
        " ".join(("dpworkbench r2t sql", *engine)), _sql(SQL, files, "--private", "c:id", *engine), _schema_inputs,
        _schema_neighbours(("person",)), relation=SQL_RELATION, components=_components, cli=_CLI,
        public=("query", "--table names", "--private", *engine[:1]), n_samples=600, pilot_samples=400,
        **({"tests": "tests/spark/test_spark_r2t_harness.py"} if engine else {}))  # a DuckDB run: ~10–30 ms


# ------------------------------------------------------------------ graphs (node-DP), at the file level
def _graph_text(e) -> str:
    e = np.asarray(e, dtype=np.int64).reshape(-1, 2)
    # isolated nodes are absent from an edge list (they never matter: spec 2.0)
    return "".join(f"{u}\t{v}\n" for u, v in e) or "# no edges\n"


def _graph_cli():
    # R2T's harness instance (its GS_Q for the edge count on graphs of at most N_NODES nodes: τ grid 2, 4, 8)
    cli = FileCLI(register, "r2t graph", ["--query", "edge"], R2T.harness_params, ".txt")
    return cli_entry(
        "dpworkbench r2t graph", cli.run, lambda rng: [_graph_text(e) for e in example_graphs(rng)],
        lambda text: edge_list_neighbours(text, "node"), components=_components, n_samples=600,
        cli=cli, public=("--query", "--max-degree"),
        relation=_GRAPH.describe() + "; at the file level: every line naming the node removed, and any line that is "
                 "not two integer ids (dropped by the one-line rule) inserted anywhere")


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
    """A primary private tuple removed with its dependants (derived from SCHEMA_DDL's keys, read by the command's own
    DDL reader), or added with :func:`_added`'s."""
    catalog = catalog_from_ddl(scratch_file("r2t", SCHEMA_DDL, ".sql"))
    return lambda x: fk_tuple_neighbours(x, catalog, private, _added)


def _added(x, table):
    """A new person (in each nation) with MAX_ORDERS orders and a knows edge each way, or a new shop with MAX_ORDERS."""
    start, new = max((o[0] for o in x["orders"]), default=0) + 1, max(r[0] for r in x[table]) + 1
    if table == "person":
        for nk in (0, 1):
            # fresh (day, reg) pairs: the projection entry's Q(I,τ) can then move by the full τ
            yield {"person": ((new, nk),), "orders": tuple((start + i, new, 1, 10 + i, "x") for i in range(MAX_ORDERS)),
                   "knows": ((new, 1), (1, new))}
    if table == "shop":
        yield {"shop": ((new,),), "orders": tuple((start + i, 1, new, 2, "y") for i in range(MAX_ORDERS))}


def _schema_entry(name, query, private, *, groups=None, project=None, note=""):
    """``dpworkbench r2t sql --db FILE.duckdb`` with the keys read from the catalog; pre-noise statistics of the
    release the command makes on what its own completion and extraction read."""
    flags = [a for g in (groups or {}).items() for a in ("--groups", f"{g[0]}={'|'.join(g[1])}")]
    flags += ["--project", project] if project else []
    flags += [a for p in private for a in ("--private", p)]
    return cli_entry(
        f"dpworkbench r2t sql --db ({name})",
        _sql(query, lambda x: ["--db", str(scratch_duckdb("r2t", SCHEMA_DDL, x))], *flags),  # the input with its keys
        _schema_inputs, _schema_neighbours(tuple(private)),
        relation=_SQL.describe(), cli=_CLI,
        public=("query and its completion", "--db catalog (keys)", "--private", "--groups", "--project"),
        components=_components, note=note,
        # The brute force of every statistic over every neighbour is the check these entries add (the noise is R2T's,
        # audited at full strength on the API entries); each sampled release reopens a DuckDB file through the CLI
        # (~0.05–0.1 s), so the end-to-end audit here is a smaller one that still catches a gross leak.
        n_samples=400 if name == "completion" else 200, pilot_samples=300 if name == "completion" else 150)


#: (name, query, primary private relations, options) of each schema entry
SCHEMA_CASES = (
    ("completion", "SELECT COUNT(*) FROM orders", ("person",), {"note": "orders is completed with person along orders.pid"}),
    ("two primary private relations", "SELECT COUNT(*) FROM orders", ("person", "shop"), {}),
    ("self-join", "SELECT COUNT(*) FROM person p1, knows k, person p2 WHERE p1.id = k.a AND k.b = p2.id", ("person",), {}),
    ("GROUP BY, parallel", "SELECT n.name, COUNT(*) FROM orders o, person p, nation n WHERE o.pid = p.id AND p.nk = n.nk "
     "GROUP BY n.name", ("person",), {}),  # parallel: the group key is a function of the person (the command finds it)
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


def _csv_entry():
    def files(text):
        return [*_tables(scratch_file("r2t", "id\n1\n2\n3\n"), scratch_file("r2t", text)), "--schema",
                str(scratch_file("r2t", CSV_DDL, ".sql"))]
    return cli_entry(
        "dpworkbench r2t sql --schema (CSV lines)", _sql(CSV_SQL, files, "--private", "cust"), _csv_inputs,
        _csv_neighbours, relation=CSV_RELATION, components=_components, cli=_CLI,
        public=("query and its completion", "--schema DDL (types, keys)", "--private"), n_samples=400, pilot_samples=300,
        note="a cell that does not parse under its declared type is NULL (weight 0 / no individual)")


def entry_points():
    """Every public release entry point of the R2T / OPT² paper."""
    return [_sql_cli(), _graph_cli(),
            *(_schema_entry(name, q, private, **kw) for name, q, private, kw in SCHEMA_CASES), _csv_entry(),
            _sql_cli(("--engine", "spark"))]


__all__ = ["EXEMPT", "entry_points"]
