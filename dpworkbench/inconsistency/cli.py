"""``dpworkbench inconsistency CSV --dcs FILE|--dc 'not(t1.A=t2.A&t1.B!=t2.B)' [--schema 'A:int, B:text'] [--epsilon E]
[--n-bound N] [--id-column C] [--seed S] [--json] [--show-exact]``.

Releases DP estimates of I_MI and I_P (Algorithm 2 + 4) and of the size of a 2-approximate vertex cover (≈ 2·I_R,
Algorithm 5) for a table. By default only private values and public parameters are printed; the exact measures
and the conflict graph's size are NOT PRIVATE and appear only with ``--show-exact``, every such line labelled
``NOT PRIVATE`` (in ``--json`` under the key ``NOT_PRIVATE``; every other field sits under ``private`` or
``public``).

Neighbouring relation: add or remove one row of the CSV at any position (one physical line is one row). Public:
ε, the constraints, the schema (``--schema``; without it every column is text, a rule that reads the header
only), the order seed, ``--n-bound`` when given and ``--id-column``'s name. Column types are never inferred from
the rows: a cell that does not parse under its declared type is NULL, numbers clip into declared bounds, text out
of a declared domain is NULL. The release is a total function of the file: it refuses only on the flags and the
header, before any row is read. Without ``--n-bound``, 5 % of ε buys
a private upper bound on the number of rows (shared by the three releases); the rest is split equally over the
three releases. Without ``--seed`` the noise comes from OpenDP's floating-point-safe samplers (OS entropy): a
release. With ``--seed`` it is reproducible numpy noise: a research run, not a private release.
"""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = __doc__


def run_releases(df, dcs, *, epsilon: float, backend, n_bound: int | None = None, id_column: str | None = None,
                 engine: str = "fast", null_policy: str = "sql", unary_policy: str = "reject", order_seed: int = 0,
                 progress=None, schema=None):
    """The three releases of the subcommand on a table: (releases {name: Release}, size-bound release or None,
    graph). Spends ``epsilon`` in total (see the module docstring). ``progress`` (a ``cli.common.Stages``) is told
    each stage.

    ``schema`` (a :class:`~dpworkbench.datasets.public_schema.PublicSchema`, its ``--schema`` text or a mapping):
    the table's public column types; ``df`` is then typed cell by cell under it (a cell that does not parse is
    NULL), so one row cannot change how another is read, and the constraints are checked against it. Without it
    the frame's own dtypes are taken as the caller's declaration: do not pass a frame whose dtypes were inferred
    from its rows (``pandas.read_csv``); read a file with :func:`~.loaders.load_csv` instead."""
    from .loaders import check_constraints, type_frame

    if schema is not None:
        df, declared, _ = type_frame(df, schema)
        check_constraints(list(dcs), declared, flag="schema=")

    def stage(name: str) -> None:
        if progress is not None:
            progress.next(name)

    from ..accounting import Accountant, Release
    from .mechanisms import N_FRAC, dp_vertex_cover, graph_projection, private_size_bound
    from .conflict_graph import build
    from .model import Projector

    stage("build conflict graph")
    if engine == "spark":  # issue 14: the same graph, built by Spark SQL self-joins (spark_engine)
        from .spark_engine import build_spark

        g = build_spark(df, dcs, null_policy=null_policy, unary_policy=unary_policy, id_column=id_column)
    else:
        g = build(df, dcs, engine=engine, null_policy=null_policy, unary_policy=unary_policy, id_column=id_column)
    acc = Accountant(epsilon)
    size = None
    per = epsilon / 3
    if n_bound is None:
        stage("private row bound")
        eps_n = N_FRAC * epsilon
        mark = acc.mark()
        nb, _ = private_size_bound(g.n, eps_n, rng=backend, accountant=acc)
        size = Release(nb, acc.entries_since(mark), {"epsilon": eps_n}, (), {}, {"n": g.n}, True,
                       "private size bound (Laplace count + margin)")
        per = (epsilon - eps_n) / 3
    else:
        nb = n_bound
    proj = Projector(g, rule="rank", seed=order_seed)
    rel = {}
    for key, meas in (("I_MI", "MI"), ("I_P", "P")):
        stage(f"release {key}")
        rel[key] = graph_projection(g, meas, per, strategy="bound_hier", df=df, dcs=dcs, projector=proj, rng=backend,
                                    accountant=acc, n_bound=nb)
    stage("release I_R")
    rel["I_R"] = dp_vertex_cover(g, per, order_seed=order_seed, rng=backend, accountant=acc, n_bound=nb)
    return rel, size, g


def public_inputs(path, *, schema, dcs, id_column):
    """The subcommand's public inputs — (schema, constraints) — from its flags and the CSV's header alone, before
    any row is read: every refusal here is the same for every dataset with this header. (The privacy harness reads
    its file-level neighbours through this function and ``read_csv_public``, as the subcommand does.)"""
    from .loaders import check_constraints, read_header, resolve_schema

    header = read_header(path, "CSV")
    schema = resolve_schema(header, schema, what=f"CSV {path}")
    if id_column is not None and id_column not in header:
        raise ValueError(f"--id-column {id_column!r} not in {path} (columns: {', '.join(header)})")
    dcs = constraints_from_args(dcs, columns=header)
    check_constraints(dcs, schema, flag="--schema")
    return schema, dcs


def _exact(g) -> dict:
    from .model import all_measures

    m = all_measures(g)
    return {"n": g.n, "edges": g.num_edges, "unary_violators": int(g.unary.size), "max_degree": g.max_degree(),
            "I_MI": m["I_MI"], "I_P": m["I_P"], "I_R_lin": m["I_R_lin"], "I_R_exact": m["I_R_exact"]}


def _run(args: argparse.Namespace) -> int:

    from ..accounting import release_lines, release_payload
    from ..mechanisms.backends import cli_backend, noise_label
    from .._validation import check_epsilon, check_int
    from .mechanisms import NEIGHBOURS
    from ..cli.common import print_json

    from ..cli.common import Stages, warn_epsilon
    from ..datasets.public_schema import read_csv_public

    path = Path(args.csv)
    eps = check_epsilon(args.epsilon, "--epsilon")
    n_bound = check_int(args.n_bound, "--n-bound", minimum=1) if args.n_bound is not None else None
    warn_epsilon(eps)
    # Everything public is settled from the flags and the header alone, before a row is read; every refusal below
    # depends on nothing else, so it is the same for every dataset with this header (issue 21).
    schema, dcs = public_inputs(path, schema=args.schema, dcs=args.dcs, id_column=args.id_column)
    names = ["read table", "build conflict graph", "release I_MI", "release I_P", "release I_R"]
    with Stages(args, names if n_bound is not None else names + ["private row bound"], "inconsistency") as st:
        st.next("read table")
        # one physical line = one row, typed cell by cell under the public schema (a cell that does not parse is
        # NULL): the release is a total function of the file. A header-only table is released like any other.
        df, schema, report = read_csv_public(path, schema)
        backend = cli_backend(args.seed)
        noise = noise_label(backend)
        from ..spark import session_from_args

        session_from_args(args)  # --engine spark: start/reach Spark now (one-line error when it cannot)
        rel, size, g = run_releases(df, dcs, epsilon=eps, backend=backend, n_bound=n_bound, id_column=args.id_column,
                                    engine=args.engine, null_policy=args.null_policy, unary_policy=args.unary_policy,
                                    order_seed=args.order_seed, progress=st)
    clamped = {k: c for k, r in rel.items() if (c := _clamp_note(r))}
    labels = {"I_MI": "I_MI estimate", "I_P": "I_P estimate", "I_R": "vertex cover size estimate (≈ 2·I_R)"}
    public = {"epsilon_total": eps, "noise": noise, "neighbours": NEIGHBOURS, "constraints": len(dcs),
              "columns": list(map(str, df.columns)), "schema": schema.to_public(), "order": "rank",
              "order_seed": args.order_seed,
              "tuple_identity": (f"id_column {args.id_column!r} (a repeated or NULL key: key + occurrence rank)"
                                 if args.id_column else "content hash of the row as typed by the schema"),
              "n_bound": n_bound if n_bound is not None else "private estimate (5 % of ε)",
              "research_run": args.seed is not None}
    if args.json:
        out: dict = {"private": {}, "public": {**public, "releases": {}}}
        if args.show_exact:
            out["NOT_PRIVATE"] = {"graph_and_exact_measures": _exact(g), "parse": report.total(), "releases": {}}
        if size is not None:
            out["private"]["n_bound"] = size.value
            out["public"]["releases"]["n_bound"] = {"ledger": [e.__dict__ for e in size.ledger],
                                                    "epsilon_spent": size.epsilon}
        for k, r in rel.items():
            p = release_payload(r, noise=noise, show_exact=args.show_exact, label="estimate")
            out["private"][k] = p.pop("private")
            if k in clamped:
                out["private"][k]["clamped"] = clamped[k]
            if args.show_exact:
                out["NOT_PRIVATE"]["releases"][k] = p.pop("NOT_PRIVATE")
            out["public"]["releases"][k] = p
        out["public"]["epsilon_spent"] = sum(r.epsilon for r in rel.values()) + (size.epsilon if size else 0.0)
        print_json(out)
        return 0
    print(f"table {path} — {len(dcs)} constraints ({sum(d.is_fd_like for d in dcs)} FD-like); neighbours: {NEIGHBOURS}")
    print(f"schema ({schema.source}): {schema.describe()}")
    print(f"noise: {noise}")
    if size is not None:
        print(f"private upper bound on the number of rows (private): {size.value}  [ε={size.epsilon:.4g}]")
    else:
        print(f"public bound on the number of rows: {n_bound}")
    for k, r in rel.items():
        print(f"{k}:")
        for line in release_lines(r, noise=noise, show_exact=args.show_exact, label=labels[k]):
            print("  " + line)
        if k in clamped:
            print(f"  note (private): {clamped[k]}")
    total = sum(r.epsilon for r in rel.values()) + (size.epsilon if size else 0.0)
    print(f"total epsilon spent: {total:.6g} of {eps:g}")
    if args.show_exact:
        for k, v in _exact(g).items():
            print(f"NOT PRIVATE {k}: {v if v is not None else 'intractable (skipped)'}")
        for k, v in report.total().items():
            print(f"NOT PRIVATE cells {k.replace('_', ' ')} by the schema: {v}")
    return 0


def _clamp_note(release) -> str | None:
    """Whether the released value was clamped into its range, in words. The comparison is between the noisy value
    before clamping and the output, both private (post-processing of the Laplace output), so it can be shown."""
    raw = release.exact.get("output_raw")
    if raw is None or raw == release.value:
        return None
    side = "raised to the lower end" if raw < release.value else "lowered to the upper end"
    return f"the noisy value was clamped: {side} of its range, {release.value:g}"


def constraints_from_args(values, *, columns):
    """The denial constraints of ``--dcs``/``--dc`` values: each is a file (one DC per line) or constraints written
    inline (``'not(t1.A=t2.A&t1.B!=t2.B)'``; several separated by ``;``). Errors name the value."""
    from .constraints import parse_dcs

    dcs = []
    for value in values if isinstance(values, (list, tuple)) else [values]:
        p = Path(value)
        if p.is_file():
            try:
                text = p.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                raise ValueError(f"--dcs {p} is not UTF-8 text; re-save it as UTF-8") from None
            source = f"--dcs {p}"
        elif any(ch in value for ch in "(&=<>"):  # a file name has none of these; every DC has a predicate
            text = "\n".join(part for part in value.split(";"))
            source = f"--dc {value!r}"
        else:
            raise ValueError(f"--dcs {value}: no such file, and not a constraint such as 'not(t1.A=t2.A&t1.B!=t2.B)'")
        try:
            dcs.extend(parse_dcs(text, columns=columns))
        except ValueError as exc:
            raise ValueError(f"{source}: {exc}") from None
    return dcs


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "inconsistency", help="DP estimates of inconsistency measures (I_MI, I_P, vertex cover ≈ 2·I_R) for a CSV",
        description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("csv", help="table (CSV with a header)")
    p.add_argument("--dcs", "--dc", required=True, action="append", metavar="FILE_OR_DC",
                   help="denial constraints: a file with one per line, or constraints inline such as "
                        "'not(t1.A=t2.A&t1.B!=t2.B)' (several separated by ';'); repeatable (no default: required)")
    p.add_argument("--epsilon", type=float, default=1.0, help="total privacy budget (default 1): 5 %% for the row-count "
                   "bound unless --n-bound is given, the rest split equally over the three releases")
    p.add_argument("--n-bound", type=int, default=None,
                   help="PUBLIC upper bound on the number of rows (sets the candidate θs and the clip); default: "
                        "estimated privately with 5 %% of ε")
    p.add_argument("--schema", default=None, metavar="SCHEMA",
                   help="PUBLIC column types, e.g. 'A:int, B:float[0,100], C:text{x|y}' or @FILE (that text or "
                        "JSON); a cell that does not parse is NULL, numbers clip into [LO,HI], text outside {..} is "
                        "NULL (default: the header-only rule, every column text; then constraints with <, >, <=, >= "
                        "or numeric constants are refused)")
    p.add_argument("--id-column", default=None,
                   help="key column giving each tuple its identity in the stable edge order; a repeated or empty "
                        "key is told apart by its occurrence rank (public rule, never refused); default: a hash of "
                        "the tuple's content")
    p.add_argument("--order-seed", type=int, default=0, help="public seed of the stable edge order (default 0)")
    p.add_argument("--seed", type=int, default=None,
                   help="seed for reproducible numpy noise: makes this a RESEARCH run, not a private release "
                        "(default: no seed = release with OpenDP's samplers)")
    p.add_argument("--show-exact", action="store_true",
                   help="also print the exact measures and graph size, each labelled NOT PRIVATE")
    p.add_argument("--engine", choices=["fast", "duckdb", "bruteforce", "spark"], default="fast",
                   help="conflict-graph builder; every engine gives the same graph (default fast; spark: Spark SQL "
                        "self-joins, local[*] or the cluster of --spark-master/--spark-remote)")
    from ..spark import add_spark_arguments

    add_spark_arguments(p)
    p.add_argument("--null-policy", choices=["sql", "artifact"], default="sql",
                   help="sql: a NULL in an attribute a DC mentions never violates it (default); artifact: any NULL column excludes the tuple")
    p.add_argument("--unary-policy", choices=["reject", "separate"], default="reject",
                   help="single-tuple DCs such as not(t1.Age<0): reject (default) or count their violators separately (spec §1.3)")
    p.add_argument("--json", action="store_true", help="print one JSON object: private / public / NOT_PRIVATE sections")
    p.set_defaults(func=_run)
