"""``dpworkbench privateclean query``: privatise a CSV column (GRR, + Laplace on a numeric column), clean it with
merges, and answer COUNT/SUM/AVG with Direct and PrivateClean estimates and 95 % intervals."""
from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path


def register(subparsers) -> None:
    p = subparsers.add_parser("privateclean", help="PrivateClean: GRR-privatise a CSV, clean it, bias-corrected COUNT/SUM/AVG")
    sub = p.add_subparsers(dest="privateclean_cmd", required=True)
    q = sub.add_parser("query", help="privatise → merge → query, Direct vs PrivateClean with CIs")
    q.add_argument("csv")
    q.add_argument("--attr", required=True, help="discrete attribute to randomise (GRR) and to filter on")
    g = q.add_mutually_exclusive_group(required=True)
    g.add_argument("--p", type=float, help="GRR replacement probability in (0, 1)")
    g.add_argument("--epsilon", type=float, help="ε of the discrete attribute (exact convention: p = N/(e^ε+N−1))")
    q.add_argument("--domain", default=None,
                   help="declared public domain, comma-separated (default: taken from the data, with a warning: data-dependent)")
    q.add_argument("--value-col", default=None, help="numeric attribute for SUM/AVG (Laplace noise)")
    q.add_argument("--b", type=float, default=None, help="Laplace scale of --value-col")
    q.add_argument("--value-epsilon", type=float, default=None, help="ε of --value-col instead of --b (b = Δ/ε)")
    q.add_argument("--delta", type=float, default=None,
                   help="public range Δ of --value-col (must cover the data; or give --bounds)")
    q.add_argument("--bounds", default=None, metavar="LO,HI",
                   help="public bounds of --value-col: values are clipped into [LO, HI] and Δ = HI − LO")
    q.add_argument("--merge", action="append", default=[], metavar="OLD=NEW",
                   help="cleaning: merge value OLD into NEW on the private relation (repeatable; NEW empty = NULL)")
    q.add_argument("--agg", choices=["count", "sum", "avg"], default="count")
    q.add_argument("--equals", required=True, help="predicate: cleaned value(s) of --attr, comma-separated")
    q.add_argument("--ci", choices=["row_clt", "paper"], default="row_clt", help="interval form (default: corrected per-row CLT)")
    q.add_argument("--save-private", default=None, help="write the private relation V to this CSV")
    q.add_argument("--seed", type=int, default=None,
                   help="seed (research only: seeded noise is not a private release; without it the OpenDP release back-end is used)")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=_query)


def _split(s: str | None) -> list[str]:
    return [v.strip() for v in s.split(",")] if s else []


def _query(args: argparse.Namespace) -> int:
    import pandas as pd

    from .cleaning import CleanedRelation
    from .estimators import estimate
    from .mechanism import b_for_epsilon, grr, p_for_epsilon

    path = Path(args.csv)
    if not path.exists():
        raise ValueError(f"CSV file not found: {path}")
    df = pd.read_csv(path, dtype={args.attr: str}, keep_default_na=True)
    if args.attr not in df.columns:
        raise ValueError(f"--attr {args.attr!r} not in {path} (columns: {', '.join(map(str, df.columns))})")
    df[args.attr] = df[args.attr].astype(object).where(df[args.attr].notna(), None)
    cols = [args.attr]
    numeric = {}
    deltas = {}
    if args.agg != "count" and args.value_col is None:
        raise ValueError(f"--value-col is required for {args.agg}")
    if args.value_col is not None:
        if args.value_col not in df.columns:
            raise ValueError(f"--value-col {args.value_col!r} not in {path}")
        bounds = None
        if args.bounds is not None:
            try:
                lo, hi = (float(v) for v in args.bounds.split(","))
            except ValueError:
                raise ValueError(f"--bounds expects LO,HI, got {args.bounds!r}") from None
            if not hi > lo:
                raise ValueError(f"--bounds needs LO < HI, got {args.bounds!r}")
            bounds = {args.value_col: (lo, hi)}
            if args.delta is None:
                args.delta = hi - lo
        if args.delta is None or not args.delta > 0:
            raise ValueError("--delta (public range of --value-col, > 0) or --bounds is required with a numeric column")
        x = pd.to_numeric(df[args.value_col], errors="coerce")
        if x.isna().any():
            raise ValueError(f"--value-col {args.value_col!r} has {int(x.isna().sum())} missing or non-numeric values")
        df[args.value_col] = x.astype(float)
        if (args.b is None) == (args.value_epsilon is None):
            raise ValueError("give exactly one of --b and --value-epsilon for the numeric column")
        b = args.b if args.b is not None else b_for_epsilon(args.value_epsilon, args.delta)
        numeric[args.value_col] = b
        deltas[args.value_col] = args.delta
        cols.append(args.value_col)
    else:
        bounds = None
    domain = _split(args.domain) or None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        N = len(domain) if domain else df[args.attr].nunique(dropna=False)
        p = args.p if args.p is not None else p_for_epsilon(args.epsilon, N)
        if args.seed is not None:
            rng = args.seed
        else:
            from dpworkbench.mechanisms import release_backend
            rng = release_backend()
        rel = grr(df[cols], {args.attr: p}, numeric, domains={args.attr: domain} if domain else None,
                  deltas=deltas if bounds is None else None, bounds=bounds, rng=rng)
    mapping = {}
    for m in args.merge:
        if "=" not in m:
            raise ValueError(f"--merge expects OLD=NEW, got {m!r}")
        old, new = m.split("=", 1)
        mapping[old] = new if new != "" else None
    crel = CleanedRelation.start(rel)
    if mapping:
        crel = crel.merge(args.attr, mapping, note="CLI merges")
    pred = set(_split(args.equals))
    d = estimate(crel, args.agg, args.attr, pred, args.value_col, method="direct")
    pc = estimate(crel, args.agg, args.attr, pred, args.value_col, ci=args.ci)
    if args.save_private:
        rel.data.to_csv(args.save_private, index=False)
    out = {"agg": args.agg, "attr": args.attr, "equals": sorted(pred), "rows": len(df), "p": p, "b": numeric.get(args.value_col),
           "direct": d.value, "privateclean": pc.value, "ci": [pc.lo, pc.hi], "ci_form": args.ci,
           "l": pc.meta.get("l"), "N": pc.meta.get("N"),
           "epsilon_exact": rel.epsilon, "epsilon_paper_lemma1": rel.epsilon_paper,
           "ledger": rel.ledger.to_dict(orient="records"), "merges": {k: v for k, v in mapping.items()},
           "noise": "seeded numpy: research only, not a private release" if args.seed is not None
                    else "release back-end: OpenDP Laplace, OS-seeded discrete draws",
           "warnings": [str(w.message) for w in caught]}
    if args.json:
        json.dump(out, sys.stdout, indent=2, default=str)
        sys.stdout.write("\n")
    else:
        print(f"{args.agg.upper()} WHERE {args.attr} IN {sorted(pred)}  (S = {len(df)}, p = {p:.4f}"
              + (f", b = {numeric[args.value_col]:.4g}" if numeric else "") + ")")
        print(f"  Direct        {d.value:.4f}")
        print(f"  PrivateClean  {pc.value:.4f}   95% CI [{pc.lo:.4f}, {pc.hi:.4f}] ({args.ci})   l = {pc.meta.get('l')}, N = {pc.meta.get('N')}")
        print(f"  ε spent: {rel.epsilon:.4f} exact (paper's Lemma 1 would say {rel.epsilon_paper:.4f})")
        for w in out["warnings"]:
            print(f"  warning: {w}")
        print(f"  noise: {out['noise']}")
    return 0
