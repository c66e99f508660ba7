"""``dpworkbench r2t sql|graph ...``: run R2T (spec 2.6) on a SQL query or a graph pattern.

Each subcommand parses its input (tables into an in-memory DuckDB or a ``--db`` file, an edge list), extracts the join
information with the declared primary private relation(s) and names the declaration :data:`.mechanisms.R2T` (or
``R2T_GROUP_BY``): its parameters give the flags, their help and their checks, the one emitter prints the release.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..cli.release import add_param_flags, add_release_flags, checked_params, emit, planned, release_parser, run_backend
from ..spark import ENGINES

_ABOUT = ("R2T spends the whole --epsilon in one run (ε/K per τ of the grid τ_i = base^i, i = 1..K, K = "
          "ceil(log_base GS), basic composition), recorded in the ledger. GS_Q (--gs) must be chosen without looking "
          "at the data: it sets the τ grid only, privacy holds on every instance. The output is the private estimate "
          "and the winning τ; the exact values (the true answer, DS, the join size, the Theorem 5.1 bound, which "
          "depends on DS, pruning counts, timings) appear only with --show-exact.")
_PUBLIC = ("{}; --epsilon, --beta, --base, --gs, the truncation engine (--method), --prune and --early-stop (none of the "
           "last three changes the output law)")


def _common(p: argparse.ArgumentParser, engines: tuple[str, ...] = (), *, gs_help: str) -> None:
    from .mechanisms import R2T

    gs = next(q for q in R2T.params if q.name == "gs")  # its help is the declaration's, then this command's default
    from .model import TRUNCATION_METHODS

    add_param_flags(p, R2T, ("beta", "base", "gs", "prune", "early_stop"), defaults={"gs": None},
                    helps={"gs": f"{gs.help}; {gs_help}"})
    p.add_argument("--method", choices=TRUNCATION_METHODS, default="auto",
                   help="truncation engine (same Q(I,τ) either way; naive and clip: self-join-free queries only)")
    add_release_flags(p, epsilon=1.0, engines=engines)


def _params(args: argparse.Namespace) -> dict:
    """R2T's public parameters from the flags, each refusal naming its flag (the declaration's constraints)."""
    from .mechanisms import R2T

    return checked_params(args, R2T, ("epsilon", "beta", "gs", "base", "prune", "early_stop"))


def _release(infos, args, what: str, relation, extra: dict, progress=None, *, parallel: bool | None = None,
             join_results: int | None = None, inputs: dict | None = None) -> int:
    """``--plan`` from the declaration it names (:data:`.mechanisms.R2T`, or ``R2T_GROUP_BY`` when ``infos`` is a
    dict group → JoinInfo), else R2T's release of the query (:func:`.mechanisms.release_query`: estimates, error
    bars, floor note and exact values are its output) through the one emitter."""
    from .mechanisms import R2T, R2T_GROUP_BY, release_query

    p = _params(args)
    grouped = isinstance(infos, dict)
    mech = R2T_GROUP_BY if grouped else R2T
    if planned(args, mech, mech.check_params({**p, **({"groups": len(infos), "parallel": parallel} if grouped else {})})):
        return 0
    rel = release_query(infos, query=what, relation=relation, public=extra, method=args.method, parallel=parallel,
                        join_results=join_results, rng=run_backend(args), progress=progress, **p)
    emit(rel, args, label="estimate", inputs=inputs)
    return 0


def _run_sql(args: argparse.Namespace) -> int:
    import duckdb

    from .mechanisms import SQL_RELATION, SQL_RELATION_NO_SCHEMA
    from .schema import groups_arg, load_tables, private_arg, table_arg
    from .sql import complete, extract

    if args.gs is None:
        raise ValueError("--gs is required for SQL queries (a public bound on the query's global sensitivity)")
    if not args.table and not args.db:
        raise ValueError("give --db FILE.duckdb or at least one --table NAME=PATH")
    if not args.private:
        raise ValueError("declare at least one --private RELATION (or ALIAS:KEY)")
    from ..cli.common import Stages, check_input_file, warn_epsilon

    warn_epsilon(_params(args)["epsilon"])
    privs = [private_arg(p) for p in args.private]
    groups = groups_arg(args.groups)
    catalog, con = None, None
    # the schema (keys, types) is public and read before any row: from the DDL, or from the database's catalog
    if args.schema:
        from .schema import catalog_from_ddl

        catalog = catalog_from_ddl(check_input_file(args.schema, "--schema"))
    if args.db:
        from .schema import catalog_from_duckdb

        db = check_input_file(args.db, "--db")
        try:
            con = duckdb.connect(str(db), read_only=True)
        except duckdb.Error:
            raise ValueError(f"--db {db}: not a DuckDB database file") from None
        if catalog is None:
            catalog = catalog_from_duckdb(con, source=f"DuckDB catalog of {db.name}")
    plan = complete(args.query, privs, catalog=catalog, project=args.project)  # refusals on public inputs, first
    if plan.parsed.group_by and args.engine == "spark":
        raise ValueError("GROUP BY runs on --engine memory only")
    if args.plan and not plan.parsed.group_by:  # the plan depends on public inputs only (a GROUP BY: on its domain)
        return _release(None, args, "", SQL_RELATION, {})
    if args.plan:  # a GROUP BY's plan: its public group domain and the schema's composition rule, no join extracted
        from .sql import group_domain

        con = con or duckdb.connect()
        load_tables(con, args.table or [], catalog)  # views only: the domain reads a public relation or --groups
        domain = group_domain(con, plan, catalog, groups)
        return _release({tuple(g): None for g in domain}, args, "", SQL_RELATION, {}, parallel=plan.parallel_groups)
    with Stages(args, ["load tables", "extract join information"], "r2t sql") as st:
        st.next("load tables")
        from ..spark import session_from_args

        spark = session_from_args(args)  # --engine spark (issue 14): the same reporting SQL on Spark
        if spark is None:
            con = con or duckdb.connect()
            load_tables(con, args.table or [], catalog)
        else:
            from .spark_engine import extract_spark, register_tables

            register_tables(spark, dict(table_arg(t) for t in args.table or []), catalog)
        st.next("extract join information")
        ex = (extract(con, args.query, privs, project=args.project, catalog=catalog, groups=groups, plan=plan)
              if spark is None else extract_spark(spark, args.query, privs, project=args.project, catalog=catalog))
        extra = {"primary private": ", ".join(privs), "completed query": ex.completed_sql or args.query,
                 **({"tables": ", ".join(table_arg(t)[0] for t in args.table)} if args.table else {}),
                 "schema": catalog.source if catalog is not None else
                 "none declared: CSV and Parquet columns are text (header-only rule); no foreign keys",
                 **({"foreign keys": "; ".join(f.describe() for f in catalog.foreign) or "(none)"}
                    if catalog is not None else {}),
                 **({"projection": args.project} if args.project else {})}
        relation = SQL_RELATION if catalog is not None else SQL_RELATION_NO_SCHEMA
        if ex.groups is not None:
            return _release(dict(zip(map(tuple, ex.groups), ex.group_infos)), args, f"SQL ({ex.kind}) GROUP BY", relation,
                            extra, st, parallel=ex.parallel_groups, join_results=int(ex.info.m))
        return _release(ex.info, args, f"SQL ({ex.kind})", relation, extra, st)


def _run_graph(args: argparse.Namespace) -> int:
    from .mechanisms import GRAPH_RELATION
    from .model import GS_EXPONENT
    from .._validation import check_options
    from .patterns import QUERIES, graph_joininfo

    check_options(args.query, "--query", QUERIES)
    extra = {"pattern": args.query}
    if args.gs is None:
        if args.max_degree is None:
            raise ValueError("give --gs or a public degree bound --max-degree D (GS = D^k)")
        if args.max_degree < 1:
            raise ValueError(f"--max-degree must be ≥ 1, got {args.max_degree}")
        args.gs = float(args.max_degree) ** GS_EXPONENT[args.query]
        extra["max_degree D (GS_Q = D^k)"] = int(args.max_degree)
    if args.plan:
        return _release(None, args, "", GRAPH_RELATION, extra)
    from ..cli.common import Stages, scan_edge_list, warn, warn_epsilon

    warn_epsilon(_params(args)["epsilon"])
    with Stages(args, ["read edge list", f"enumerate {args.query} occurrences"], "r2t graph") as st:
        st.next("read edge list")
        scan = scan_edge_list(args.edges)  # one line is at most one edge: nothing a line holds is refused or quoted
        if not args.json:
            for note in scan.notes():
                warn(note)
        g = scan.graph()  # an empty file is the empty graph: under node-DP refusing it would depend on the data
        st.next(f"enumerate {args.query} occurrences")
        info = graph_joininfo(g, args.query, name=Path(args.edges).stem)
        # the node count n is not printed: under node-DP it is private
        return _release(info, args, f"graph pattern {args.query} on {Path(args.edges).name}", GRAPH_RELATION, extra, st,
                        inputs=scan.exact())


def register(subparsers) -> None:
    from .mechanisms import GRAPH_RELATION, SQL_RELATION

    p = subparsers.add_parser("r2t", help="R2T (Race-to-the-Top) on a SQL query over CSV/Parquet tables or on a graph pattern")
    sub = p.add_subparsers(dest="r2t_command", required=True)
    s = release_parser(sub, "sql", _ABOUT, relation=SQL_RELATION, public=_PUBLIC.format(
        "the query and its completion, the schema (--db catalog or --schema DDL: column types, primary and foreign "
        "keys), the table names, the primary private relation(s) (--private), the group domain (--groups, ENUM or "
        "public relation), the projection (--project)"),
        help="SELECT COUNT(*)|SUM(e)|COUNT(DISTINCT e) FROM ... WHERE ... over CSV/Parquet tables")
    s.add_argument("query", help="aggregate SPJA query, optionally with GROUP BY over a public group domain")
    s.add_argument("--db", default=None, metavar="FILE.duckdb",
                   help="a DuckDB database: tables and their PRIMARY KEY / FOREIGN KEY constraints (read from its catalog)")
    s.add_argument("--table", action="append", metavar="NAME=PATH", help="a table (CSV or Parquet); repeatable")
    s.add_argument("--schema", default=None, metavar="FILE.sql",
                   help="DDL (CREATE TABLE ... PRIMARY KEY ... REFERENCES ...) giving the --table files' column types and "
                        "keys; a CSV or Parquet cell that does not parse under its declared type is NULL; without it every column is text")
    s.add_argument("--private", action="append", metavar="RELATION | ALIAS:KEY[:RELATION]",
                   help="primary private relation (with --db/--schema: its name; else alias in FROM and key column); "
                        "repeatable; required, no default")
    s.add_argument("--groups", action="append", metavar="EXPR=v1|v2|...",
                   help="the public domain of a GROUP BY expression (else: a public relation's column or an ENUM)")
    s.add_argument("--project", default=None,
                   help="SPJA projection: one expression or several separated by commas (set semantics)")
    _common(s, engines=ENGINES, gs_help="required, no default")  # --engine spark: the same SQL on Spark
    s.set_defaults(func=_run_sql)
    g = release_parser(sub, "graph", _ABOUT, relation=GRAPH_RELATION, public=_PUBLIC.format(
        "the pattern (--query) and the degree bound D (--max-degree; GS_Q = D^k)"),
        help="pattern count (edge, path2, triangle, rectangle) under node-DP on an edge list")
    g.add_argument("edges", help="SNAP edge list or CSV id_1,id_2")
    g.add_argument("--query", default="edge", help="edge | path2 | triangle | rectangle (default edge)")
    g.add_argument("--max-degree", type=int, default=None, help="public degree bound D (GS = D^k unless --gs; one of the two is required, "
                   "no default)")
    _common(g, gs_help="default D^k from --max-degree (one of the two is required)")
    g.set_defaults(func=_run_graph)
