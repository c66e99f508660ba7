"""``dpworkbench privateclean query``: privatise a CSV (GRR on one discrete column, Laplace on an optional numeric
column), clean the *private* relation with merges, and answer COUNT/SUM/AVG with the PrivateClean estimate, its 95 %
interval and the Direct estimate.

Privacy: the release is V = grr(R) (ε = the ledger's, exact GRR accounting); every answer printed is a
post-processing of V and public inputs. Neighbouring relation: substitute one record (bounded DP, local DP per
record); the number of rows is public. Treated as public: the domain of ``--attr`` (``--domain``; read off the data
if absent, which is flagged as data-derived), p / ε, b / ``--value-epsilon``, the numeric range (``--bounds`` or
``--delta``), the merges and the predicate. Without ``--seed`` the OpenDP release back-end draws the noise; a seed
makes it a research run (seeded numpy: NOT a private release). Exact values (the true answer on the original data,
errors) appear only with ``--show-exact``, labelled NOT PRIVATE; ``--json`` writes sections private / public /
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

Neighbouring relation: substitute one record (bounded DP; each record is randomised independently, local DP); the
number of rows is public. Treated as public: the domain of --attr (--domain; without it the domain is read off the
data and reported as data-derived), --p/--epsilon, --b/--value-epsilon, the numeric range (--bounds LO,HI clips;
--delta must cover the data), --merge and --equals.

No --seed: a release, noise from the OpenDP floating-point-safe back-end. --seed makes it a RESEARCH run (seeded
numpy noise, NOT a private release). --show-exact adds the true answer and errors, each labelled NOT PRIVATE."""


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
                   help="public domain of --attr, comma-separated (default: read off the data, reported as data-derived)")
    q.add_argument("--value-col", default=None, help="numeric attribute for SUM/AVG (Laplace noise)")
    q.add_argument("--b", type=float, default=None, help="Laplace scale of --value-col (public)")
    q.add_argument("--value-epsilon", type=float, default=None, help="ε of --value-col instead of --b (b = Δ/ε)")
    q.add_argument("--delta", type=float, default=None,
                   help="public range Δ of --value-col (must cover the data; or give --bounds)")
    q.add_argument("--bounds", default=None, metavar="LO,HI",
                   help="public bounds of --value-col: values are clipped into [LO, HI] and Δ = HI − LO")
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
                   help="also print the true answer on the original data and the errors, labelled NOT PRIVATE")
    q.add_argument("--engine", choices=["memory", "spark"], default="memory",
                   help="where V is drawn: memory (default) or spark (GRR over a Spark DataFrame, one noise stream per "
                        "partition; needs --domain and, with --value-col, --bounds)")
    from ..spark import add_spark_arguments

    add_spark_arguments(q)
    q.set_defaults(func=_query)


def _split(s: str | None) -> list[str]:
    return [v.strip() for v in s.split(",")] if s else []


def query_release(args: argparse.Namespace, progress=None):
    """Run the query; returns (Release of the PrivateClean answer, the grr release, noise label, warnings).
    ``progress`` (a ``cli.common.Stages``) is told each stage."""
    import numpy as np
    import pandas as pd

    from dpworkbench.accounting import Release
    from dpworkbench.cli.common import write_csv_atomic
    from dpworkbench.mechanisms.backends import cli_backend, noise_label

    from .model import CleanedRelation, apply_mapping
    from .estimators import estimate
    from .mechanisms import b_for_epsilon, epsilon_grr, grr, p_for_epsilon

    from dpworkbench._validation import check_epsilon
    from dpworkbench.cli.common import check_output_path, epsilon_warnings, read_csv

    path = Path(args.csv)
    notes: list[str] = []  # public-only remarks for the user (extreme ε, a degenerate interval)
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
    if progress is not None:
        progress.next("read CSV")
    df = read_csv(path, "CSV", dtype={args.attr: str}, keep_default_na=True)
    if len(df) == 0:  # the number of rows is public here (substitution relation): refusing leaks nothing
        raise ValueError(f"CSV {path} has a header but no rows: nothing to privatise")
    if args.attr not in df.columns:
        raise ValueError(f"--attr {args.attr!r} not in {path} (columns: {', '.join(map(str, df.columns))})")
    df[args.attr] = df[args.attr].astype(object).where(df[args.attr].notna(), None)
    cols = [args.attr]
    numeric = {}
    deltas = {}
    bounds = None
    delta = args.delta
    if args.agg != "count" and args.value_col is None:
        raise ValueError(f"--value-col is required for {args.agg}")
    if args.value_col is not None:
        if args.value_col not in df.columns:
            raise ValueError(f"--value-col {args.value_col!r} not in {path} (columns: {', '.join(map(str, df.columns))})")
        if args.bounds is not None:
            try:
                lo, hi = (float(v) for v in args.bounds.split(","))
            except ValueError:
                raise ValueError(f"--bounds expects LO,HI, got {args.bounds!r}") from None
            if not hi > lo:
                raise ValueError(f"--bounds needs LO < HI, got {args.bounds!r}")
            bounds = {args.value_col: (lo, hi)}
            if delta is None:
                delta = hi - lo
        if delta is None or not delta > 0:
            raise ValueError("--delta (public range of --value-col, > 0) or --bounds is required with a numeric column")
        x = pd.to_numeric(df[args.value_col], errors="coerce")
        if x.isna().any():
            raise ValueError(f"--value-col {args.value_col!r} has {int(x.isna().sum())} missing or non-numeric values")
        df[args.value_col] = x.astype(float)
        if (args.b is None) == (args.value_epsilon is None):
            raise ValueError("give exactly one of --b and --value-epsilon for the numeric column")
        b = args.b if args.b is not None else b_for_epsilon(args.value_epsilon, delta)
        numeric[args.value_col] = b
        deltas[args.value_col] = delta
        cols.append(args.value_col)
    domain = _split(args.domain) or None
    backend = cli_backend(args.seed)
    if progress is not None:
        progress.next("privatise (GRR + Laplace)")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        N = len(domain) if domain else df[args.attr].nunique(dropna=False)
        p = args.p if args.p is not None else p_for_epsilon(args.epsilon, N)
        from ..spark import session_from_args

        spark = session_from_args(args)
        if spark is None:
            released = grr(df[cols], {args.attr: p}, numeric, domains={args.attr: domain} if domain else None,
                           deltas=deltas if bounds is None else None, bounds=bounds, rng=backend)
        else:  # issue 14: V drawn by Spark, one stream per partition; cleaning and estimates below are unchanged
            import dataclasses

            from ..spark import to_spark
            from .spark_engine import grr_spark

            if not domain or (numeric and bounds is None):
                raise ValueError("--engine spark needs a public --domain (and --bounds for --value-col): the Spark "
                                 "engine never reads a domain or range off the data")
            released = grr_spark(to_spark(spark, df[cols]), {args.attr: p}, numeric, domains={args.attr: domain},
                                 bounds=bounds, rng=backend, spark=spark)
            released = dataclasses.replace(released, value=released.value.to_pandas())
    rel = released.value
    mapping = {}
    for m in args.merge:
        if "=" not in m:
            raise ValueError(f"--merge expects OLD=NEW, got {m!r}")
        old, new = m.split("=", 1)
        mapping[old] = new if new != "" else None
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
                   "value_col": args.value_col, "ci_form": args.ci,
                   # what the paper's Lemma 1 would claim (understates ε for N > 3); the ledger holds the exact ε
                   "epsilon_paper_lemma1": epsilon_grr(p, 3, "paper") + sum(rel.deltas[c] / b for c, b in numeric.items()),
                   "l": pc.meta.get("l"), "N": pc.meta.get("N")})
    derived = list(released.derived_public)
    if args.p is None and not domain:
        derived.append("p (from --epsilon and the data-derived domain size)")
    # --- NOT PRIVATE: the true answer f(R_clean) on the original data ------------------------------------------
    R_clean = pd.Series(apply_mapping(df[args.attr], mapping) if mapping else df[args.attr], dtype=object)
    sel = R_clean.isin(pred).to_numpy()
    vals = df[args.value_col].to_numpy(dtype=float) if args.value_col else np.ones(len(df))
    truth = {"count": float(sel.sum()), "sum": float(vals[sel].sum()),
             "avg": float(vals[sel].mean()) if sel.any() else float("nan")}[args.agg]
    if bounds is not None:  # --bounds clips the values before the Laplace noise; how many is a count of the data
        lo, hi = bounds[args.value_col]
        x = df[args.value_col].to_numpy(dtype=float)
        clipped = {"values_clipped_into_bounds": int(((x < lo) | (x > hi)).sum())}
    else:
        clipped = {}
    exact = {**clipped, "true_answer": truth, "privateclean_error": pc.value - truth, "direct_error": d.value - truth,
             "ci_covers_truth": bool(pc.lo <= truth <= pc.hi)}
    release = Release(pc.value, released.ledger, public=public, derived_public=tuple(derived),
                      details={"ci_lo": pc.lo, "ci_hi": pc.hi, "direct": d.value}, exact=exact,
                      private=released.private, mechanism="privateclean query")
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
        out["neighbouring_relation"] = "substitute one record (bounded DP; the number of rows is public)"
        print_json(out, indent=2)
        return 0
    print(f"{args.agg.upper()} WHERE {args.attr} IN {sorted(release.public['equals'])}  "
          f"(neighbouring relation: substitute one record; S = {release.public['rows']} is public)")
    for line in release_lines(release, noise=noise, show_exact=args.show_exact, label=label):
        print("  " + line)
    for w in warns:
        print(f"warning: {w}", file=sys.stderr)
    return 0
