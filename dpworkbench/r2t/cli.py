"""``dpworkbench r2t sql|graph ...``: run R2T (spec 2.6) on a SQL query or a graph pattern.

``dpworkbench r2t sql "SELECT COUNT(*) FROM orders o, lineitem l WHERE o.k=l.k" \
    --table orders=orders.parquet --table lineitem=lineitem.csv --private o:custkey --gs 1e6``
loads each table (CSV or Parquet) into an in-memory DuckDB, extracts the join information
with the declared primary private relation(s) and runs R2T.

``dpworkbench r2t graph edges.txt --query triangle --max-degree 1024`` reads a SNAP edge list
(or CSV ``id_1,id_2``) and runs R2T for the pattern count under node-DP; GS = D^k for the
public degree bound D (k = 1 edges, 2 paths/triangles, 3 4-cycles) unless ``--gs`` is given.

GS only sets R2T's τ grid (privacy holds on every instance), but it must be chosen without
looking at the data. The whole ``--epsilon`` is spent by one R2T run (ε/K per τ, basic
composition) and is recorded in an accountant whose ledger is printed. The exact answer and
DS are printed too, labelled NOT PRIVATE: this is a research tool, not a release service.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--epsilon", type=float, default=1.0, help="privacy budget of the R2T run (default 1)")
    p.add_argument("--beta", type=float, default=0.1, help="failure probability β (default 0.1)")
    p.add_argument("--base", type=float, default=2.0, help="τ grid base (2 = paper; the authors' code used 5.5)")
    p.add_argument("--gs", type=float, default=None, help="public global sensitivity bound GS_Q (sets the τ grid)")
    p.add_argument("--method", choices=["auto", "lp", "flow", "clip"], default="auto", help="truncation engine")
    p.add_argument("--no-prune", action="store_true", help="solve every τ (the output is identical with pruning)")
    p.add_argument("--seed", type=int, default=None, help="seed for reproducible (non-release) noise")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _table_arg(text: str) -> tuple[str, Path]:
    if "=" not in text:
        raise ValueError(f"--table must be NAME=PATH, got {text!r}")
    name, path = text.split("=", 1)
    if not name.isidentifier():
        raise ValueError(f"--table name must be an SQL identifier, got {name!r}")
    path = Path(path)
    if not path.exists():
        raise ValueError(f"--table file not found: {path}")
    return name, path


def _private_arg(text: str) -> tuple[str, ...]:
    parts = tuple(t for t in text.split(":"))
    if len(parts) not in (2, 3) or not all(parts):
        raise ValueError(f"--private must be ALIAS:KEY or ALIAS:KEY:RELATION, got {text!r}")
    return parts


def _load_tables(con, tables: list[str]) -> None:
    for spec in tables:
        name, path = _table_arg(spec)
        lit = str(path).replace("'", "''")
        suffix = path.suffix.lower()
        if suffix in (".parquet", ".pq"):
            con.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet('{lit}')")
        elif suffix in (".csv", ".tsv", ".txt", ".gz"):
            con.execute(f"CREATE VIEW {name} AS SELECT * FROM read_csv_auto('{lit}')")
        else:
            raise ValueError(f"--table {name}: unsupported file type {suffix!r} (CSV or Parquet)")


def _release(info, args, what: str) -> dict:
    from ..accounting import Accountant
    from .._validation import check_epsilon, check_positive, check_probability
    from .mechanisms import r2t, r2t_bound
    from .truncation import Truncation

    eps = check_epsilon(args.epsilon, "--epsilon")
    beta = check_probability(args.beta, "--beta")
    gs = check_positive(args.gs, "--gs")
    base = check_positive(args.base, "--base")
    if base <= 1:
        raise ValueError(f"--base must be > 1, got {base}")
    acc = Accountant(eps)
    res = r2t(Truncation(info, args.method), epsilon=eps, beta=beta, gs=gs, base=base, rng=args.seed,
              prune=not args.no_prune, accountant=acc, note=f"R2T on {what}")
    return {
        "query": what, "estimate": res.value, "epsilon": eps, "beta": beta, "gs": gs, "base": base,
        "taus": [float(t) for t in res.taus], "winner_tau": res.winner_tau, "solved": res.solved, "pruned": res.pruned,
        "seconds": res.seconds, "join_results": int(info.m), "theorem_5_1_bound": r2t_bound(max(info.DS, 1.0), epsilon=eps,
                                                                                              beta=beta, gs=gs, base=base),
        "ledger": [{k: (float(v) if isinstance(v, float) else int(v) if isinstance(v, int) else str(v)) for k, v in e.items()}
                   for e in _ledger(acc)],
        "not_private": {"answer": float(info.answer), "DS": float(info.DS)},
        "note": "seeded noise is for research; not a private release" if args.seed is not None else "unseeded noise",
    }


def _ledger(acc) -> list[dict]:
    led = acc.ledger()
    if hasattr(led, "to_dict"):
        return led.to_dict("records")
    return [dict(e) if isinstance(e, dict) else vars(e) for e in led]


def _print(out: dict, args) -> int:
    if args.json:
        print(json.dumps(out, default=str))
        return 0
    print(f"R2T on {out['query']}: {out['join_results']} join results")
    print(f"  ε={out['epsilon']:g}  β={out['beta']:g}  GS={out['gs']:g}  base={out['base']:g}  K={len(out['taus'])} τ values"
          f"  (solved {out['solved']}, pruned {out['pruned']}, {out['seconds']:.3f}s)")
    print(f"  private estimate: {out['estimate']:.4f}   (winner τ={out['winner_tau']})")
    print(f"  Theorem 5.1 error bound (prob. ≥ 1−β): {out['theorem_5_1_bound']:.4g}")
    print(f"  NOT PRIVATE, for comparison: exact answer {out['not_private']['answer']:g}, DS {out['not_private']['DS']:g}")
    print(f"  ε spent: {sum(e.get('epsilon', 0.0) for e in out['ledger'] if isinstance(e.get('epsilon'), float)):g}  ({out['note']})")
    return 0


def _run_sql(args: argparse.Namespace) -> int:
    import duckdb

    from .sql import extract

    if args.gs is None:
        raise ValueError("--gs is required for SQL queries (a public bound on the query's global sensitivity)")
    if not args.table:
        raise ValueError("declare at least one --table NAME=PATH")
    if not args.private:
        raise ValueError("declare at least one --private ALIAS:KEY")
    con = duckdb.connect()
    _load_tables(con, args.table)
    privs = [_private_arg(p) for p in args.private]
    ex = extract(con, args.query, privs, project=args.project)
    return _print(_release(ex.info, args, f"SQL ({ex.kind})"), args)


def _run_graph(args: argparse.Namespace) -> int:
    from ..graphs import load_edge_list
    from .experiments import GS_EXPONENT
    from .patterns import QUERIES, graph_joininfo

    if args.query not in QUERIES:
        raise ValueError(f"--query must be one of {QUERIES}, got {args.query!r}")
    if args.gs is None:
        if args.max_degree is None:
            raise ValueError("give --gs or a public degree bound --max-degree D (GS = D^k)")
        if args.max_degree < 1:
            raise ValueError(f"--max-degree must be ≥ 1, got {args.max_degree}")
        args.gs = float(args.max_degree) ** GS_EXPONENT[args.query]
    try:
        g = load_edge_list(args.edges)
    except FileNotFoundError as exc:
        raise ValueError(str(exc)) from None
    info = graph_joininfo(g, args.query, name=Path(args.edges).stem)
    return _print(_release(info, args, f"graph pattern {args.query} on {Path(args.edges).name} (n={g.n})"), args)


def register(subparsers) -> None:
    p = subparsers.add_parser("r2t", help="R2T (Race-to-the-Top) on a SQL query over CSV/Parquet tables or on a graph pattern")
    sub = p.add_subparsers(dest="r2t_command", required=True)
    s = sub.add_parser("sql", help="SELECT COUNT(*)|SUM(e)|COUNT(DISTINCT e) FROM ... WHERE ... over CSV/Parquet tables")
    s.add_argument("query", help="aggregate SPJA query without GROUP BY")
    s.add_argument("--table", action="append", metavar="NAME=PATH", help="a table (CSV or Parquet); repeatable")
    s.add_argument("--private", action="append", metavar="ALIAS:KEY[:RELATION]",
                   help="primary private relation atom (alias in FROM, key column); repeatable")
    s.add_argument("--project", default=None, help="SPJA projection expression (set semantics)")
    _common(s)
    s.set_defaults(func=_run_sql)
    g = sub.add_parser("graph", help="pattern count (edge, path2, triangle, rectangle) under node-DP on an edge list")
    g.add_argument("edges", help="SNAP edge list or CSV id_1,id_2")
    g.add_argument("--query", default="edge", help="edge | path2 | triangle | rectangle (default edge)")
    g.add_argument("--max-degree", type=int, default=None, help="public degree bound D (GS = D^k unless --gs)")
    _common(g)
    g.set_defaults(func=_run_graph)
