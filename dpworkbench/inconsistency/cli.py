"""``dpworkbench inconsistency CSV --dcs FILE|--dc 'not(t1.A=t2.A&t1.B!=t2.B)' ...``: DP estimates of I_MI and I_P
(Algorithm 2 + 4) and of the size of a 2-approximate vertex cover (≈ 2·I_R, Algorithm 5) for a table, through
:func:`~.mechanisms.release_measures` (the budget split lives there: one composed release), printed by the one
emitter :func:`~dpworkbench.cli.release.emit`; flags and checks from the declarations.
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from types import SimpleNamespace

HELP = (("Releases DP estimates of I_MI and I_P (Algorithm 2 + 4) and of the size of a 2-approximate vertex cover (≈ "
         "2·I_R, Algorithm 5) for a table. Without --n-bound, {pct} of ε buys a private upper bound on the number of rows "
         "(shared by the three releases); the rest is split equally over the three releases. Every --engine builds the "
         "same conflict graph.",
         "Column types are never inferred from the rows: a cell that does not parse under its declared type is NULL, "
         "numbers clip into declared bounds, text out of a declared domain is NULL. The release is a total function "
         "of the file: it refuses only on the flags and the header, before any row is read."),
        "ε, the constraints, the schema (--schema; without it every column is text, a rule that reads the header only), "
        "the order seed, --n-bound when given and --id-column's name")


def _run(args: argparse.Namespace) -> int:
    from ..cli.common import Stages
    from ..cli.release import checked_params, emit, emit_plan, run_backend
    from ..datasets.public_schema import read_csv_public
    from ..spark import session_from_args
    from .conflict_graph import build
    from .loaders import public_inputs
    from .mechanisms import RELATION, VERTEX_COVER, measures_accuracy, measures_plan, release_measures
    from ..experiments.metrics import relative_error
    from .experiments import ZERO_TRUTH
    from .model import exact_summary

    path = Path(args.csv)
    params = checked_params(args, VERTEX_COVER, ("epsilon", "n_bound"))  # the declared constraints, naming the flag
    eps, n_bound = params["epsilon"], params.get("n_bound")
    backend = run_backend(args, eps)
    # Everything public is settled from the flags and the header alone, before a row is read; every refusal below
    # depends on nothing else, so it is the same for every dataset with this header (issue 21).
    schema, dcs = public_inputs(path, schema=args.schema, dcs=args.dcs, id_column=args.id_column)
    if args.plan:
        plan = measures_plan(eps, n_bound=n_bound, dcs=dcs)
        emit_plan(SimpleNamespace(name="inconsistency (I_MI, I_P, I_R)", plan=lambda: plan), {}, args,
                  accuracy=measures_accuracy(eps, n_bound))
        return 0
    names = ["read table", "build conflict graph", "release I_MI", "release I_P", "release I_R"]
    with Stages(args, names if n_bound is not None else names + ["private row bound"], "inconsistency") as st:
        st.next("read table")
        # one physical line = one row, typed cell by cell under the public schema (a cell that does not parse is
        # NULL): the release is a total function of the file. A header-only table is released like any other.
        df, schema, report = read_csv_public(path, schema)
        session_from_args(args)  # --engine spark: start/reach Spark now (one-line error when it cannot)
        st.next("build conflict graph")  # built here (not in release_measures) so --show-exact can summarise it
        policies = {"null_policy": args.null_policy, "unary_policy": args.unary_policy, "id_column": args.id_column}
        if args.engine == "spark":  # issue 14: the same graph, built by Spark SQL self-joins
            from .spark_engine import build_spark

            graph = build_spark(df, dcs, **policies)
        else:
            graph = build(df, dcs, engine=args.engine, **policies)
        rel = release_measures(df, dcs, epsilon=eps, backend=backend, n_bound=n_bound, graph=graph,
                               order_seed=args.order_seed, progress=st)
    if args.show_exact:  # each measure's relative error beside its exact value (metrics: the release computes none)
        exact = {m: {**d, "rel_error": relative_error(rel.value[m], d["true"], zero_truth=ZERO_TRUTH)} if "true" in d
                 else d for m, d in rel.exact.items()}
        rel = dataclasses.replace(rel, exact={"graph_and_exact_measures": exact_summary(graph), **exact})
    public = {"constraints": len(dcs), "columns": list(map(str, df.columns)), "schema": schema.to_public(),
              "tuple_identity": (f"id_column {args.id_column!r} (a repeated or NULL key: key + occurrence rank)"
                                 if args.id_column else "content hash of the row as typed by the schema"),
              "research_run": args.seed is not None}
    header = [f"table {path} — {len(dcs)} constraints ({sum(d.is_fd_like for d in dcs)} FD-like); neighbours: "
              f"{RELATION.describe()}", f"schema ({schema.source}): {schema.describe()}"]
    emit(dataclasses.replace(rel, public={**rel.public, **public}), args, label="estimate", header=header,
         inputs=report.total())
    return 0


def register(subparsers) -> None:
    from ..cli.release import add_param_flags, add_release_flags, release_parser
    from .mechanisms import N_FRAC, RELATION, VERTEX_COVER
    pct = f"{100 * N_FRAC:g} %"  # the declared share of ε on the private row bound (in a flag's help: "{pct}%" = "5 %%")

    p = release_parser(subparsers, "inconsistency", *(h.format(pct=pct) for h in HELP[0]), relation=RELATION,
                       public=HELP[1], help="DP estimates of inconsistency measures (I_MI, I_P, vertex cover ≈ 2·I_R) for a CSV")
    p.add_argument("csv", help="table (CSV with a header)")
    p.add_argument("--dcs", "--dc", required=True, action="append", metavar="FILE_OR_DC",
                   help="denial constraints: a file with one per line, or constraints inline such as "
                        "'not(t1.A=t2.A&t1.B!=t2.B)' (several separated by ';'); repeatable (no default: required)")
    add_param_flags(p, VERTEX_COVER, ("order_seed",))
    p.add_argument("--schema", default=None, metavar="SCHEMA",
                   help="PUBLIC column types, e.g. 'A:int, B:float[0,100], C:text{x|y}' or @FILE (that text or "
                        "JSON); a cell that does not parse is NULL, numbers clip into [LO,HI], text outside {..} is "
                        "NULL (default: the header-only rule, every column text; then constraints with <, >, <=, >= "
                        "or numeric constants are refused)")
    p.add_argument("--id-column", default=None,
                   help="key column giving each tuple its identity in the stable edge order; a repeated or empty "
                        "key is told apart by its occurrence rank (public rule, never refused); default: a hash of "
                        "the tuple's content")
    # --engine spark: the same graph by Spark SQL self-joins (local[*] or --spark-master/--spark-remote)
    add_release_flags(p, epsilon=1.0, engines=("fast", "duckdb", "bruteforce", "spark"), n_bound="the number of rows "
                      f"(sets the candidate θs and the clip; default: estimated privately with {pct}% of ε)")
    p.add_argument("--null-policy", choices=["sql", "artifact"], default="sql",
                   help="sql: a NULL in an attribute a DC mentions never violates it (default); artifact: any NULL "
                        "column excludes the tuple")
    p.add_argument("--unary-policy", choices=["reject", "separate"], default="reject",
                   help="single-tuple DCs such as not(t1.Age<0): reject (default) or count their violators "
                        "separately (spec §1.3)")
    p.set_defaults(func=_run)
