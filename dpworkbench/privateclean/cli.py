"""``dpworkbench privateclean query``: the flags of :func:`.query.plan` (which query they ask for, checked; the budget and
numeric-column flags are the declared :data:`.query.PARAMS`), the file read one physical line = one row
(:func:`~dpworkbench.datasets.public_schema.read_raw_lines`), the query (:func:`~.query.query` or
:func:`~.query.query_multi`) and the one emitter (:func:`dpworkbench.cli.release.emit`). Privacy, the public inputs and
the neighbouring relation are in the description below and in the API's docstrings.
"""
from __future__ import annotations

import argparse

_ABOUT = ("Privatise a CSV with GRR (discrete --attr) and Laplace (numeric --value-col), clean the private relation "
          "with --merge, and answer COUNT/SUM/AVG WHERE --attr IN --equals (PrivateClean estimate with a 95% CI, and the "
          "Direct estimate). Every printed answer is post-processing of the private relation. The file is read one "
          "line = one row; --attr is text and --value-col a number, cell by cell (a cell that does not parse is NULL). "
          "A release never refuses because of what the rows hold; a --seed research run alone may read the domain off "
          "the data (reported as data-derived).",
          "Beyond one attribute (issue 25): repeat --attr (one --domain each, in order; each its own GRR at "
          "--p/--epsilon, the ledger composes them), write the predicate as --where EXPR over those attributes and the "
          "columns of a public table joined with --join PUBLIC_TABLE ON KEY, group with --group-by (over a public group "
          "domain: --groups, else the declared --domain after --merge or the public table's values), and use --agg "
          "median, percentile:P, var or std. The estimate inverts the randomisation on the predicate's truth table; "
          "each interval is the privacy noise's only (an AVG, MEDIAN or percentile interval is clipped to --bounds). "
          "All flags are checked before the file is read.")
_PUBLIC = ("the domain of --attr (--domain, required for a release) and where other values go (--other, default NULL), "
           "--p/--epsilon, --b/--value-epsilon, the bounds of --value-col (--bounds LO,HI: values are clipped into them, "
           "Δ = HI − LO; a missing number becomes --fill), --merge and --equals")


def register(subparsers) -> None:
    from dpworkbench.cli.release import add_param_flags, add_release_flags, release_parser
    from dpworkbench.spark import ENGINES

    from .query import PARAMS, RELATION

    p = subparsers.add_parser("privateclean", help="PrivateClean: GRR-privatise a CSV, clean it, bias-corrected COUNT/SUM/AVG")
    sub = p.add_subparsers(dest="privateclean_cmd", required=True)
    q = release_parser(sub, "query", *_ABOUT, help="privatise → merge → query, PrivateClean vs Direct with CIs",
                       relation=RELATION, public=_PUBLIC)
    a = q.add_argument
    a("csv")
    a("--attr", required=True, action="append",
      help="discrete attribute to randomise (GRR) and to filter on; repeat it for several attributes (each its own "
           "GRR, the ledger composes them; give one --domain per --attr, in the same order)")
    add_param_flags(q.add_mutually_exclusive_group(required=True), PARAMS.values(), ("p", "epsilon"))
    a("--domain", action="append", help="public domain of --attr, comma-separated (required for a release; a --seed "
                                        "research run without it reads the domain off the data, reported as "
                                        "data-derived); repeated: the i-th --domain is the i-th --attr's")
    a("--other", help="where an --attr value outside --domain (or a blank cell) goes: a value of --domain (default: "
                      "NULL, which is then one more category of the released domain)")
    a("--value-col", help="numeric attribute for SUM/AVG (Laplace noise)")
    add_param_flags(q, PARAMS.values(), ("b", "value_epsilon"))
    a("--bounds", metavar="LO,HI",
      help="public bounds of --value-col (required with it): values are clipped into [LO, HI], Δ = HI − LO")
    add_param_flags(q, PARAMS.values(), ("delta", "fill"))
    a("--merge", action="append", default=[], metavar="OLD=NEW",
      help="cleaning: merge value OLD into NEW on the private relation (repeatable; NEW empty = NULL); with several "
           "--attr write ATTR:OLD=NEW")
    a("--agg", default="count", metavar="AGG",
      help="count|sum|avg|median|percentile:P|var|std (median, percentile, var and std: the multi-attribute path)")
    a("--equals", help="predicate: cleaned value(s) of --attr, comma-separated (public); or use --where")
    a("--where", metavar="EXPR",
      help="public predicate over the --attr attributes and the --join table's columns, e.g. \"a = 'x' AND (b IN "
           "(u, v) OR c BETWEEN 1 AND 5)\" (AND, OR, NOT, =, !=, IN, BETWEEN, <, <=, >, >=, IS [NOT] NULL)")
    a("--group-by", metavar="ATTR", help="GROUP BY an --attr or a --join column, over its public domain (--groups)")
    a("--groups", metavar="V1,V2,...", help="the public group domain (default: the declared --domain after --merge, "
                                            "or the --join table's values)")
    a("--join", nargs=3, metavar=("PUBLIC_TABLE", "ON", "KEY"),
      help="join a public CSV on KEY (an --attr): its columns can be used in --where and --group-by")
    a("--ci", choices=["row_clt", "paper"], default="row_clt", help="interval form (default: corrected per-row CLT)")
    a("--save-private", help="write the private relation V to this CSV")
    add_release_flags(q, engines=ENGINES, engine_help="where V is drawn: memory (default) or spark (GRR over "
                      "a Spark DataFrame, one noise stream per partition; needs --domain)")
    q.set_defaults(func=_query)


def _split(s: str | None) -> list[str]:
    return [v.strip() for v in s.split(",")] if s else []


def _merges(flags: list[str], attrs: list[str]) -> dict[str, dict[str, str | None]]:
    """``--merge OLD=NEW`` (with several --attr: ``ATTR:OLD=NEW``) as {attribute: {old: new}}; NEW empty = NULL."""
    merges: dict = {}
    for m in flags:
        attr = attrs[0]
        if len(attrs) > 1:
            if ":" not in m.split("=", 1)[0]:
                raise ValueError(f"--merge with several --attr expects ATTR:OLD=NEW, got {m!r}")
            attr, m = m.split(":", 1)
        if "=" not in m:
            raise ValueError(f"--merge expects OLD=NEW, got {m!r}")
        old, new = m.split("=", 1)
        merges.setdefault(attr, {})[old] = new if new != "" else None
    return merges


def _bounds(args):
    if args.bounds is None or args.value_col is None:
        return args.bounds
    try:
        lo, hi = (float(v) for v in args.bounds.split(","))
    except ValueError:
        raise ValueError(f"--bounds expects LO,HI, got {args.bounds!r}") from None
    return lo, hi


def query_plan(args: argparse.Namespace):
    """The public inputs, checked from the flags alone before the file is opened (:func:`.query.plan`)."""
    from dpworkbench.cli.common import check_output_path

    from .query import PARAMS, plan

    if args.save_private:  # checked before any budget is spent: a failed write must not waste a release
        check_output_path(args.save_private, "--save-private")
    return plan(args.attr, [_split(d) for d in args.domain or []], equals=None if args.equals is None else
                _split(args.equals), merges=_merges(args.merge, args.attr), bounds=_bounds(args),
                groups=None if args.groups is None else _split(args.groups), spark=args.engine == "spark",
                **{k: getattr(args, k) for k in (*PARAMS, "where", "group_by", "join", "agg", "other", "ci", "value_col")})


def run_query(args: argparse.Namespace, plan, rng, progress=None):
    """The handler's release once its plan is checked: the file read one physical line = one row (errors name the
    path, never a cell), then the query on the engine ``--engine`` names (Spark: GRR's declared engine, which the
    privacy harness observes with its pre-noise back-end), its noise from ``rng`` (``--seed``'s back-end). Returns the
    query's (answer, grr release, warnings)."""
    from pathlib import Path

    from dpworkbench.datasets.public_schema import read_raw_lines

    from ..spark import session_from_args
    from .query import MultiPlan, query, query_multi

    if progress is not None:
        progress.next("read CSV")
    raw = read_raw_lines(Path(args.csv), "CSV")
    if isinstance(plan, MultiPlan):
        return query_multi(raw, plan, rng=rng, source=str(args.csv), progress=progress)
    return query(raw, plan, rng=rng, spark=session_from_args(args), source=str(args.csv), progress=progress)


def _query(args: argparse.Namespace) -> int:
    from dpworkbench.cli.common import Stages, warn, write_csv_atomic
    from dpworkbench.cli.release import emit, emit_plan, run_backend

    from .mechanisms import GRR
    from .query import RELATION, MultiPlan

    plan = query_plan(args)
    multi = isinstance(plan, MultiPlan)
    if args.plan:  # GRR's plan from the public inputs (the answer is post-processing: it spends nothing more)
        emit_plan(GRR, plan.grr_params(), args)
        return 0
    stages = ["read CSV"] + (["parse cells"] if multi else []) + ["privatise (GRR + Laplace)", "clean and estimate"]
    with Stages(args, stages, "privateclean") as st:
        release, released, warns = run_query(args, plan, run_backend(args), progress=st)
    if args.save_private:
        write_csv_atomic(released.value.data, args.save_private)
    emit(release, args, label=plan.label, extra={"warnings": warns, "neighbouring_relation": RELATION})
    for w in warns if not args.json else ():
        warn(w)
    return 0
