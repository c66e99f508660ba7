"""``dpworkbench privateclean query``: privatise a CSV (GRR on one discrete column, Laplace on an optional numeric
column), clean the *private* relation with merges, and answer COUNT/SUM/AVG with the PrivateClean estimate, its 95 %
interval and the Direct estimate.

Privacy: the release is V = grr(R) (ε = the ledger's, exact GRR accounting); every answer printed is a
post-processing of V and public inputs. Neighbouring relation: substitute one line of the file (bounded DP, local DP
per record); the number of rows is public. The release is a total function of the file's rows (issue 21):

* the file is read one physical line = one row (:func:`~dpworkbench.datasets.public_schema.read_raw_lines`) and
  typed by the public schema the flags declare — ``--attr`` text, ``--value-col`` a number; a blank cell or a cell
  that is not a number is NULL, cell by cell, so one line never changes how another is read;
* ``--attr`` values outside ``--domain`` (and blanks) map to ``--other`` (a value of ``--domain``) or, by default, to
  NULL, which is then a category of the released domain; ``--value-col`` is clipped into ``--bounds`` (Δ = HI − LO)
  and a missing number becomes ``--fill`` (default the midpoint of the bounds);
* every refusal depends on public inputs only (flags, the file's header and its number of lines) and names no cell;
  a release needs ``--domain`` (and ``--bounds`` with ``--value-col``); only a ``--seed`` research run may read the
  domain off the data, which is then listed as data-derived and never labelled private as claimed.

Without ``--seed`` the OpenDP release back-end draws the noise; a seed makes it a research run (seeded numpy: NOT a
private release). Exact values (the true answer on the original data, errors, how many cells were mapped, filled or
clipped) appear only with ``--show-exact``, labelled NOT PRIVATE; ``--json`` writes sections private / public /
NOT_PRIVATE (valid JSON, NaN → null).
"""
from __future__ import annotations

import argparse
import math
import sys
from types import SimpleNamespace
import warnings
from pathlib import Path

# largest ε for which e^ε is a finite double (e^709.78 overflows); GRR needs it in p = N/(e^ε+N−1)
_MAX_GRR_EPSILON = 700.0

_DESCRIPTION = """Privatise a CSV with GRR (discrete --attr) and Laplace (numeric --value-col), clean the private
relation with --merge, and answer COUNT/SUM/AVG WHERE --attr IN --equals (PrivateClean estimate with a 95%% CI, and
the Direct estimate). Every printed answer is post-processing of the private relation.

Neighbouring relation: substitute one line of the file (bounded DP; each record is randomised independently, local
DP); the number of rows is public. Treated as public: the domain of --attr (--domain, required for a release) and
where other values go (--other, default NULL), --p/--epsilon, --b/--value-epsilon, the bounds of --value-col
(--bounds LO,HI: values are clipped into them, Δ = HI − LO; a missing number becomes --fill), --merge and --equals.
The file is read one line = one row; --attr is text and --value-col a number, cell by cell (a cell that does not
parse is NULL). A release never refuses because of what the rows hold.

No --seed: a release, noise from the OpenDP floating-point-safe back-end. --seed makes it a RESEARCH run (seeded
numpy noise, NOT a private release; only then may the domain be read off the data, reported as data-derived).
--show-exact adds the true answer, errors and the counts of mapped/filled/clipped cells, each labelled NOT PRIVATE."""


def register(subparsers) -> None:
    p = subparsers.add_parser("privateclean", help="PrivateClean: GRR-privatise a CSV, clean it, bias-corrected COUNT/SUM/AVG")
    sub = p.add_subparsers(dest="privateclean_cmd", required=True)
    q = sub.add_parser("query", help="privatise → merge → query, PrivateClean vs Direct with CIs",
                       description=_DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    q.add_argument("csv")
    q.add_argument("--attr", required=True, help="discrete attribute to randomise (GRR) and to filter on")
    g = q.add_mutually_exclusive_group(required=True)
    g.add_argument("--p", type=float, help="GRR replacement probability in (0, 1) (public)")
    g.add_argument("--epsilon", type=float, help="ε of the discrete attribute (exact convention: p = N/(e^ε+N−1))")
    q.add_argument("--domain", default=None,
                   help="public domain of --attr, comma-separated (required for a release; a --seed research run "
                        "without it reads the domain off the data, reported as data-derived)")
    q.add_argument("--other", default=None,
                   help="where an --attr value outside --domain (or a blank cell) goes: a value of --domain (default: "
                        "NULL, which is then one more category of the released domain)")
    q.add_argument("--value-col", default=None, help="numeric attribute for SUM/AVG (Laplace noise)")
    q.add_argument("--b", type=float, default=None, help="Laplace scale of --value-col (public)")
    q.add_argument("--value-epsilon", type=float, default=None, help="ε of --value-col instead of --b (b = Δ/ε)")
    q.add_argument("--bounds", default=None, metavar="LO,HI",
                   help="public bounds of --value-col (required with it): values are clipped into [LO, HI], Δ = HI − LO")
    q.add_argument("--delta", type=float, default=None,
                   help="optional check of --bounds: must equal HI − LO (a Δ without --bounds bounds nothing: refused)")
    q.add_argument("--fill", type=float, default=None,
                   help="what a missing or non-numeric --value-col cell becomes, within --bounds (default: the midpoint)")
    q.add_argument("--merge", action="append", default=[], metavar="OLD=NEW",
                   help="cleaning: merge value OLD into NEW on the private relation (repeatable; NEW empty = NULL)")
    q.add_argument("--agg", choices=["count", "sum", "avg"], default="count")
    q.add_argument("--equals", required=True, help="predicate: cleaned value(s) of --attr, comma-separated (public)")
    q.add_argument("--ci", choices=["row_clt", "paper"], default="row_clt", help="interval form (default: corrected per-row CLT)")
    q.add_argument("--save-private", default=None, help="write the private relation V to this CSV")
    q.add_argument("--seed", type=int, default=None,
                   help="seed the noise: a reproducible RESEARCH run, NOT a private release "
                        "(default: OpenDP release back-end)")
    q.add_argument("--json", action="store_true",
                   help="JSON with sections private / public / NOT_PRIVATE (NaN written as null)")
    q.add_argument("--show-exact", action="store_true",
                   help="also print the true answer on the original data, the errors and the counts of mapped, filled "
                        "and clipped cells, labelled NOT PRIVATE")
    q.add_argument("--engine", choices=["memory", "spark"], default="memory",
                   help="where V is drawn: memory (default) or spark (GRR over a Spark DataFrame, one noise stream per "
                        "partition; needs --domain)")
    from ..spark import add_spark_arguments

    add_spark_arguments(q)
    q.set_defaults(func=_query)


def _split(s: str | None) -> list[str]:
    return [v.strip() for v in s.split(",")] if s else []


def _public_plan(args: argparse.Namespace) -> SimpleNamespace:
    """Every check on public inputs (flags only), before the file is opened; the same message for every dataset."""
    from dpworkbench._validation import check_epsilon
    from dpworkbench.cli.common import check_output_path, epsilon_warnings

    notes: list[str] = []  # public-only remarks for the user (extreme ε)
    if args.epsilon is not None:
        eps = check_epsilon(args.epsilon, "--epsilon")
        if eps > _MAX_GRR_EPSILON:  # e^ε overflows a double: p = N/(e^ε+N−1) would be 0, i.e. no randomisation
            raise ValueError(f"--epsilon {eps:g} is too large for GRR: e^ε overflows and p = N/(e^ε+N−1) is 0 (no "
                             f"randomisation at all); use --epsilon ≤ {_MAX_GRR_EPSILON:g} or give --p")
        notes += epsilon_warnings(eps, "--epsilon")
    elif not 0 < args.p < 1:
        raise ValueError(f"--p must lie in the open interval (0, 1), got {args.p!r}")
    if args.value_epsilon is not None:
        notes += epsilon_warnings(check_epsilon(args.value_epsilon, "--value-epsilon"), "--value-epsilon")
    if args.save_private:  # checked before any budget is spent: a failed write must not waste a release
        check_output_path(args.save_private, "--save-private")
    mapping = {}
    for m in args.merge:
        if "=" not in m:
            raise ValueError(f"--merge expects OLD=NEW, got {m!r}")
        old, new = m.split("=", 1)
        mapping[old] = new if new != "" else None
    domain = _split(args.domain) or None
    if domain is not None:
        if "" in domain:
            raise ValueError("--domain has an empty value: a blank cell is NULL, which goes to --other (default NULL)")
        if len(set(domain)) != len(domain):
            raise ValueError("--domain lists a value twice")
    if args.other is not None:
        if domain is None:
            raise ValueError("--other needs --domain (it names where values outside the domain go)")
        if args.other not in domain:
            raise ValueError(f"--other {args.other!r} is not a value of --domain")
    if args.agg != "count" and args.value_col is None:
        raise ValueError(f"--value-col is required for {args.agg}")
    bounds = None
    if args.value_col is None:
        for flag, v in (("--bounds", args.bounds), ("--delta", args.delta), ("--fill", args.fill), ("--b", args.b),
                        ("--value-epsilon", args.value_epsilon)):
            if v is not None:
                raise ValueError(f"{flag} needs --value-col")
    else:
        if args.value_col == args.attr:
            raise ValueError("--value-col must differ from --attr")
        if args.bounds is None:
            # a Δ alone does not bound a substitution: one record may move from any value to any other
            raise ValueError("--bounds LO,HI (public bounds of --value-col) is required: values are clipped into them and "
                             "Δ = HI − LO" + (" (--delta alone does not bound a record's change)" if args.delta is not None
                                              else ""))
        try:
            lo, hi = (float(v) for v in args.bounds.split(","))
        except ValueError:
            raise ValueError(f"--bounds expects LO,HI, got {args.bounds!r}") from None
        if not (math.isfinite(lo) and math.isfinite(hi) and hi > lo):
            raise ValueError(f"--bounds needs finite LO < HI, got {args.bounds!r}")
        if args.delta is not None and abs(args.delta - (hi - lo)) > 1e-12 * max(1.0, hi - lo):
            raise ValueError(f"--delta {args.delta:g} disagrees with --bounds (Δ = HI − LO = {hi - lo:g})")
        if args.fill is not None and not (math.isfinite(args.fill) and lo <= args.fill <= hi):
            raise ValueError(f"--fill {args.fill:g} must lie within --bounds [{lo:g}, {hi:g}]")
        bounds = (lo, hi)
        if (args.b is None) == (args.value_epsilon is None):
            raise ValueError("give exactly one of --b and --value-epsilon for the numeric column")
        if args.b is not None and not (math.isfinite(args.b) and args.b > 0):
            raise ValueError(f"--b must be a positive number, got {args.b!r}")
    if domain is not None:  # the predicate against the cleaned public domain: a public check, before any spend
        from .mechanisms import out_of_domain_rule

        released, _ = out_of_domain_rule(domain, args.other, declared=True)
        cleaned = {mapping.get(v, v) for v in released.tolist()}
        if not set(_split(args.equals)) & cleaned:
            raise ValueError("--equals names no value of the cleaned domain (--domain after --merge)")
    if args.engine == "spark" and domain is None:
        raise ValueError("--engine spark needs a public --domain: the Spark engine never reads a domain off the data")
    return SimpleNamespace(notes=notes, mapping=mapping, domain=domain, bounds=bounds)


def query_release(args: argparse.Namespace, progress=None):
    """Run the query; returns (Release of the PrivateClean answer, the grr release, noise label, warnings).
    ``progress`` (a ``cli.common.Stages``) is told each stage."""
    import numpy as np
    import pandas as pd

    from dpworkbench.accounting import Release
    from dpworkbench.cli.common import write_csv_atomic
    from dpworkbench.datasets.public_schema import ColumnSpec, PublicSchema, read_raw_lines
    from dpworkbench.mechanisms.backends import cli_backend, noise_label

    from .model import CleanedRelation, apply_mapping
    from .estimators import estimate
    from .mechanisms import b_for_epsilon, epsilon_grr, grr, out_of_domain_rule, p_for_epsilon

    plan = _public_plan(args)
    notes, mapping, domain, bounds = plan.notes, plan.mapping, plan.domain, plan.bounds
    path = Path(args.csv)
    if progress is not None:
        progress.next("read CSV")
    raw = read_raw_lines(path, "CSV")  # one physical line = one row; errors name the path, never a cell
    header = list(map(str, raw.columns))
    for flag, col in (("--attr", args.attr), ("--value-col", args.value_col)):
        if col is not None and col not in header:
            raise ValueError(f"{flag} {col!r} not in {path} (columns: {', '.join(header)})")
    if len(raw) == 0:  # the number of rows is public here (substitution relation): refusing leaks nothing
        raise ValueError(f"CSV {path} has a header but no rows: nothing to privatise")
    if domain is None and args.seed is None:
        # decided by the flags alone (the same for every file): a release never reads its domain off the rows
        raise ValueError("--domain (the public domain of --attr) is required for a release; only a --seed research run "
                         "may read it off the data")
    # the public schema the flags declare: --attr text, --value-col a number; every cell by its own rule
    specs = [ColumnSpec(args.attr, "text")] + ([ColumnSpec(args.value_col, "float")] if args.value_col else [])
    schema = PublicSchema(tuple(specs), source="flags: --attr text, --value-col float")
    df, parse_report = schema.apply(raw[schema.names])
    cols = schema.names
    numeric, bounds_arg, fill_arg, deltas = {}, None, None, None
    if args.value_col is not None:
        lo, hi = bounds
        b = args.b if args.b is not None else b_for_epsilon(args.value_epsilon, hi - lo)
        numeric[args.value_col] = b
        bounds_arg = {args.value_col: bounds}
        fill_arg = {args.value_col: args.fill} if args.fill is not None else None
        deltas = {args.value_col: args.delta} if args.delta is not None else None
    other_arg = {args.attr: args.other} if domain is not None else None  # None → NULL, a category of the domain
    backend = cli_backend(args.seed)
    if progress is not None:
        progress.next("privatise (GRR + Laplace)")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if domain is not None:
            released_domain, target = out_of_domain_rule(domain, args.other, declared=True)
            N = len(released_domain)
        else:  # research run only (refused above without --seed)
            N = df[args.attr].nunique(dropna=False)
        p = args.p if args.p is not None else p_for_epsilon(args.epsilon, N)
        from ..spark import session_from_args

        spark = session_from_args(args)
        if spark is None:
            released = grr(df[cols], {args.attr: p}, numeric, domains={args.attr: domain} if domain else None,
                           other=other_arg, bounds=bounds_arg, deltas=deltas, fill=fill_arg, rng=backend)
        else:  # issue 14: V drawn by Spark, one stream per partition; cleaning and estimates below are unchanged
            import dataclasses

            from .spark_engine import grr_spark

            # the Spark types are the declared schema, never inferred from the rows
            sschema = f"`{args.attr}` string" + (f", `{args.value_col}` double" if args.value_col else "")
            frame = df[cols].copy()
            frame[args.attr] = frame[args.attr].astype(object).where(frame[args.attr].notna(), None)
            sdf = spark.createDataFrame(frame, schema=sschema)
            released = grr_spark(sdf, {args.attr: p}, numeric, domains={args.attr: domain}, other=other_arg,
                                 bounds=bounds_arg, fill=fill_arg, rng=backend, spark=spark)
            released = dataclasses.replace(released, value=released.value.to_pandas())
    rel = released.value
    # --- post-processing of V (and public inputs) only ---------------------------------------------------------
    if progress is not None:
        progress.next("clean and estimate")
    crel = CleanedRelation.start(rel)
    if mapping:
        crel = crel.merge(args.attr, mapping, note="CLI merges")
    pred = set(_split(args.equals))
    try:
        d = estimate(crel, args.agg, args.attr, pred, args.value_col, method="direct")
    except ValueError as exc:  # AVG over no selected private row: undefined, not a reason to withhold PrivateClean's
        if "empty selection" not in str(exc):
            raise
        d = SimpleNamespace(value=math.nan)
        notes.append("Direct AVG is undefined: no row of the private relation satisfies the predicate (null in JSON)")
    pc = estimate(crel, args.agg, args.attr, pred, args.value_col, ci=args.ci)
    if args.save_private:
        write_csv_atomic(rel.data, args.save_private)
    if math.isnan(pc.value):
        notes.append(f"the PrivateClean {args.agg.upper()} is undefined here ({pc.meta.get('flag', 'NaN')}): written as "
                     "null in JSON")
    elif pc.hi - pc.lo == 0 or not (math.isfinite(pc.lo) and math.isfinite(pc.hi)):
        # a function of the private answer and public inputs only, so saying so is post-processing
        notes.append(f"the 95% interval [{pc.lo:g}, {pc.hi:g}] is degenerate (zero width or not finite): too few "
                     "selected rows for the interval's normal approximation; do not read it as certainty")
    public = dict(released.public)
    public.update({"agg": args.agg, "attr": args.attr, "equals": sorted(pred), "merges": dict(mapping),
                   "value_col": args.value_col, "ci_form": args.ci, "schema": schema.to_public(),
                   # what the paper's Lemma 1 would claim (understates ε for N > 3); the ledger holds the exact ε
                   "epsilon_paper_lemma1": epsilon_grr(p, 3, "paper") + sum(rel.deltas[c] / b for c, b in numeric.items()),
                   "l": pc.meta.get("l"), "N": pc.meta.get("N")})
    derived = list(released.derived_public)
    if args.p is None and not domain:
        derived.append("p (from --epsilon and the data-derived domain size)")
    # --- NOT PRIVATE: the true answer f(R_clean) on the pre-noise relation (the rows after the public rules) --------
    attr = df[args.attr].to_numpy(dtype=object)
    if domain is not None:
        released_domain = released.public["domain"][str(args.attr)]
        inside = pd.Series(attr, dtype=object).isin([v for v in released_domain if v is not None]).to_numpy()
        attr = attr.copy()
        attr[~inside] = released_domain[target]  # the out-of-domain rule grr applied: --other, else NULL
    R_clean = pd.Series(apply_mapping(attr, mapping) if mapping else attr, dtype=object)
    sel = R_clean.isin(pred).to_numpy()
    if args.value_col:
        x = df[args.value_col].to_numpy(dtype=float)
        lo, hi = bounds
        vals = np.clip(np.where(np.isfinite(x), x, args.fill if args.fill is not None else (lo + hi) / 2.0), lo, hi)
    else:
        vals = np.ones(len(df))
    truth = {"count": float(sel.sum()), "sum": float(vals[sel].sum()),
             "avg": float(vals[sel].mean()) if sel.any() else float("nan")}[args.agg]
    exact = {"input": {"cells": parse_report.columns, **dict(released.exact)}, "true_answer": truth,
             "privateclean_error": pc.value - truth, "direct_error": d.value - truth,
             "ci_covers_truth": bool(pc.lo <= truth <= pc.hi)}
    release = Release(pc.value, released.ledger, public=public, derived_public=tuple(derived),
                      details={"ci_lo": pc.lo, "ci_hi": pc.hi, "direct": d.value}, exact=exact,
                      private=released.private and not derived, mechanism="privateclean query")
    return release, released, noise_label(backend), notes + [str(w.message) for w in caught]


def _query(args: argparse.Namespace) -> int:
    from dpworkbench.accounting import release_lines
    from dpworkbench.cli.common import print_json, release_json

    from dpworkbench.cli.common import Stages

    with Stages(args, ["read CSV", "privatise (GRR + Laplace)", "clean and estimate"], "privateclean") as st:
        release, _, noise, warns = query_release(args, progress=st)
    label = f"privateclean_{args.agg}"
    if args.json:
        out = release_json(release, noise=noise, show_exact=args.show_exact, label=label)
        out["warnings"] = warns
        out["neighbouring_relation"] = "substitute one line of the file (one record; bounded DP; the number of rows is public)"
        print_json(out)  # one line, as every paper CLI (the harness reads the last line)
        return 0
    print(f"{args.agg.upper()} WHERE {args.attr} IN {sorted(release.public['equals'])}  "
          f"(neighbouring relation: substitute one record; S = {release.public['rows']} is public)")
    for line in release_lines(release, noise=noise, show_exact=args.show_exact, label=label):
        print("  " + line)
    for w in warns:
        print(f"warning: {w}", file=sys.stderr)
    return 0
