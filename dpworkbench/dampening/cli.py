"""``dpworkbench dampening median|topk ...`` — local-dampening releases from the command line.

* ``dpworkbench dampening median CSV --column C --upper U [--lower L] [--mechanism EM|PF|LD|SLD] [--epsilon E]
  [--seed S] [--json] [--show-exact]``: private median *selection* (Ch. 5): the **row position** of an element close
  to the median. Only the position is released: the privacy proof covers the selected label, and the selected row's
  value is a raw data value, not a post-processing of the label (``--show-exact`` prints it, labelled NOT PRIVATE).
* ``dpworkbench dampening topk EDGES --k K [--nodes FILE] [--max-degree-bound D] [--mechanism ...] [--epsilon E]
  [--seed S] [--json] [--show-exact]``: private top-k nodes by egocentric betweenness (PrivTopk, Ch. 6); ε/k per
  draw, edge-DP on a public node set.

Each command spends exactly ``--epsilon`` (its ledger is printed). Without ``--seed`` the OpenDP release back-end
draws the noise; with ``--seed`` the noise is seeded (a research run: NOT a private release). By default only private
values and public parameters are printed; exact values (the selected row's value, the true median, the true top-k)
appear only with ``--show-exact``, each labelled NOT PRIVATE. ``--json`` writes sections ``private`` / ``public`` /
``NOT_PRIVATE``.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

MEDIAN_HELP = """Private median selection (local dampening thesis, Ch. 5).

Releases the POSITION (0-based data row) of an element whose value is close to the column's median, chosen by EM,
permute-and-flip, local dampening (LD) or shifted LD with utility -|x_m - x_i| on the values clipped to the public
range [--lower, --upper]. Only the row position is released: the mechanism's privacy proof covers the selected label,
and the selected row's value is a raw data value, not a post-processing of the label. --show-exact prints it
(and the true median), labelled NOT PRIVATE.

Neighbouring relation: substitution - one row's value replaced by any value; the number of rows n and the row
positions are fixed. Treated as public: --lower, --upper (Lambda), n, --horizon, --mechanism, --epsilon.
--seed makes it a research run (seeded numpy noise, NOT a private release); without it the OpenDP release
back-end draws the noise."""

TOPK_HELP = """Private top-k nodes by egocentric betweenness (PrivTopk, local dampening thesis, Ch. 6): k draws with
epsilon/k each (EM, PF, LD or SLD), releasing node ids only.

Neighbouring relation: edge-DP - one edge added or removed between two nodes of a fixed, public node set.
Treated as public: the node set (--nodes FILE; without it the set of ids appearing in the edge list is used, which
is derived from the data and reported as such), --max-degree-bound (without it the graph's true max degree is used:
derived from the data, as the thesis assumes it public, and reported as such), --k, --mechanism, --epsilon.
--seed makes it a research run (seeded numpy noise, NOT a private release); without it the OpenDP release
back-end draws the noise. --show-exact adds the true top-k, labelled NOT PRIVATE."""


def _emit(release, args, *, label: str, header: list[str]) -> None:
    from dpworkbench.accounting import release_lines
    from dpworkbench.mechanisms.backends import cli_backend, noise_label  # noqa: F401

    from dpworkbench.cli.common import print_json, release_json

    noise = args._noise
    if args.json:
        out = release_json(release, noise=noise, show_exact=args.show_exact, label=label)
        if args.show_exact and getattr(args, "_input_exact", None):
            out.setdefault("NOT_PRIVATE", {})["input"] = args._input_exact
        print_json(out)
        return
    for line in header:
        print(line)
    for line in release_lines(release, noise=noise, show_exact=args.show_exact, label=label):
        print(line)
    if args.show_exact:
        for k, v in (getattr(args, "_input_exact", None) or {}).items():
            print(f"NOT PRIVATE {k}: {v}")


def _median(args: argparse.Namespace) -> int:
    from dpworkbench._validation import check_epsilon
    from dpworkbench.cli.common import Stages, read_csv, warn_epsilon

    from . import median as M

    path = Path(args.csv)
    eps = check_epsilon(args.epsilon, "--epsilon")
    for flag, bound in (("--lower", args.lower), ("--upper", args.upper)):
        if not math.isfinite(bound):
            raise ValueError(f"{flag} must be a finite number, got {bound!r}")
    if not args.upper > args.lower:
        raise ValueError("--upper must be larger than --lower (public domain bounds)")
    warn_epsilon(eps)
    with Stages(args, ["read CSV", "select"], "dampening median") as st:
        st.next("read CSV")
        df = read_csv(path, "CSV")
        st.next("select")
        rel = _median_release(df, path, eps, args)
    _emit(rel, args, label="row", header=[
        f"{path}: column {args.column!r}; {args.mechanism} median selection releases a row position (0-based data "
        "row), not a value", f"neighbouring relation: {M.RELATION}",
        f"values outside [--lower, --upper] = [{args.lower:g}, {args.upper:g}] are clipped into it (how many is an "
        "exact count of the data: shown only with --show-exact)"])
    return 0


def _median_release(df, path: Path, eps: float, args: argparse.Namespace):
    import pandas as pd

    from dpworkbench.accounting import Accountant
    from dpworkbench.mechanisms.backends import cli_backend, noise_label

    from . import median as M

    if len(df) == 0:  # n is public under the substitution relation: refusing an empty column leaks nothing
        raise ValueError(f"CSV {path} has a header but no rows: there is no median to select")
    if args.column not in df.columns:
        raise ValueError(f"column {args.column!r} not in {path} (columns: {', '.join(map(str, df.columns))})")
    col = pd.to_numeric(df[args.column], errors="coerce")
    if col.isna().any():
        raise ValueError(f"column {args.column!r} has {int(col.isna().sum())} missing or non-numeric values")
    values = col.to_numpy(float)
    # the utility uses the values clipped into the public range; how many were clipped is a count of the data
    args._input_exact = {"values_clipped_into_bounds": int(((values < args.lower) | (values > args.upper)).sum())}
    backend = cli_backend(args.seed)
    args._noise = noise_label(backend)
    return M.select_median(values, lower=args.lower, upper=args.upper, epsilon=eps, mechanism=args.mechanism,
                           horizon=args.horizon, rng=backend, accountant=Accountant(eps))


def _read_graph(path: Path, nodes_path: Path | None):
    """The graph on the node set (public list, or the ids in the edge list) and its node ids in dense order."""
    import numpy as np
    import pandas as pd

    from dpworkbench.cli.common import check_input_file, scan_edge_list
    from dpworkbench.graphs import from_edge_array

    scan = scan_edge_list(path)  # names the file; refuses a numeric non-integer first line instead of dropping it
    raw = scan.raw
    if nodes_path is not None:
        check_input_file(nodes_path, "--nodes")
        try:
            ids = np.unique(pd.read_csv(nodes_path, header=None, comment="#", sep=r"\s+|,", engine="python",
                                        encoding="utf-8").iloc[:, 0].to_numpy())
        except UnicodeDecodeError:
            raise ValueError(f"--nodes {nodes_path} is not UTF-8 text; re-save it as UTF-8") from None
        if not np.issubdtype(ids.dtype, np.integer):
            raise ValueError(f"--nodes {nodes_path}: node ids must be integers, one per line")
        missing = np.setdiff1d(raw.ravel(), ids)
        if missing.size:
            raise ValueError(f"the edge list uses node ids not in the public node set {nodes_path}: "
                             f"{', '.join(map(str, missing[:5].tolist()))}")
        inv = np.searchsorted(ids, raw.ravel())
    else:
        if raw.size == 0:
            raise ValueError(f"empty edge list {path}: pass the public node set with --nodes")
        ids, inv = np.unique(raw.ravel(), return_inverse=True)
    return from_edge_array(inv.reshape(-1, 2), n=ids.size), ids, scan


def _topk(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from dpworkbench._validation import check_epsilon
    from dpworkbench.accounting import Accountant
    from dpworkbench.mechanisms.backends import cli_backend, noise_label

    from . import ebc as E

    from dpworkbench.cli.common import Stages, warn, warn_epsilon

    path = Path(args.edges)
    eps = check_epsilon(args.epsilon, "--epsilon")
    if args.k < 1:
        raise ValueError(f"--k must be >= 1, got {args.k}")
    if args.max_degree_bound is not None and args.max_degree_bound < 1:
        raise ValueError(f"--max-degree-bound must be >= 1, got {args.max_degree_bound}")
    warn_epsilon(eps)
    with Stages(args, ["read edge list", "egocentric betweenness", "select top-k"], "dampening topk") as st:
        st.next("read edge list")
        g, ids, scan = _read_graph(path, Path(args.nodes) if args.nodes else None)
        if not args.json:
            for note in scan.notes():
                warn(note)
        args._input_exact = scan.exact()
        if args.k > g.num_nodes:  # the node set is public (--nodes) or reported as data-derived
            raise ValueError(f"--k {args.k} is larger than the number of nodes ({g.num_nodes})")
        st.next("egocentric betweenness")
        e = E.ebc_all(g)  # cached on disk by graph hash
        st.next("select top-k")
        backend = cli_backend(args.seed)
        args._noise = noise_label(backend)
        rel = E.priv_top_k(e, g.degrees, args.k, epsilon=eps, method=args.mechanism,
                           max_degree_bound=args.max_degree_bound, rng=backend, accountant=Accountant(eps))
    derived = tuple(rel.derived_public) + (() if args.nodes else ("node set",))
    public = dict(rel.public)
    public["node set"] = f"{args.nodes} ({ids.size} nodes)" if args.nodes else f"ids in the edge list ({ids.size} nodes)"
    exact = {"true_top_k": [ids[v].item() for v in rel.exact["true_top_k"]],
             "overlap_with_true_top_k": rel.exact["overlap_with_true_top_k"], "num_edges": int(g.num_edges)}
    out = replace(rel, value=[ids[v].item() for v in rel.value], public=public, derived_public=derived, exact=exact)
    _emit(out, args, label="nodes", header=[
        f"{path}: {args.mechanism}PrivTopk k={args.k} releases node ids ({args.k} draws with ε/k = {eps / args.k:g} each)",
        f"neighbouring relation: {E.RELATION}"])
    return 0


def _common(p) -> None:
    p.add_argument("--seed", type=int, default=None,
                   help="seed the noise: a reproducible RESEARCH run, NOT a private release (default: OpenDP release back-end)")
    p.add_argument("--json", action="store_true", help="JSON with sections private / public / NOT_PRIVATE")
    p.add_argument("--show-exact", action="store_true",
                   help="also print exact values (each labelled NOT PRIVATE): research only, never publish them")


def register(subparsers) -> None:
    p = subparsers.add_parser("dampening", help="local dampening: private median row of a CSV column, private top-k EBC nodes")
    sub = p.add_subparsers(dest="dampening_cmd", required=True)
    m = sub.add_parser("median", help="private median selection: releases a row position (not a value)",
                       description=MEDIAN_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    m.add_argument("csv", help="table (CSV with a header row)")
    m.add_argument("--column", required=True, help="numeric column whose median row is selected")
    m.add_argument("--upper", type=float, required=True, help="public upper bound of the column's values")
    m.add_argument("--lower", type=float, default=0.0, help="public lower bound (default 0)")
    m.add_argument("--mechanism", choices=["EM", "PF", "LD", "SLD"], default="LD",
                   help="EM, permute-and-flip (PF), local dampening (LD) or shifted LD (SLD) (default LD)")
    m.add_argument("--epsilon", type=float, default=1.0, help="privacy budget of the selection (default 1)")
    m.add_argument("--horizon", type=int, default=32, help="public horizon T of δ (δ = Λ beyond it)")
    _common(m)
    m.set_defaults(func=_median)
    t = sub.add_parser("topk", help="private top-k nodes by egocentric betweenness (PrivTopk), edge-DP",
                       description=TOPK_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    t.add_argument("edges", help="edge list (SNAP text or CSV with a header)")
    t.add_argument("--k", type=int, default=5, help="number of nodes released (k draws of ε/k each; default 5)")
    t.add_argument("--nodes", default=None, help="public node set: a file with one node id per line (default: the ids in "
                                                 "the edge list, derived from the data)")
    t.add_argument("--mechanism", choices=["EM", "PF", "LD", "SLD"], default="SLD",
                   help="EM, permute-and-flip (PF), local dampening (LD) or shifted LD (SLD) (default SLD)")
    t.add_argument("--epsilon", type=float, default=1.0, help="total budget B (ε/k per draw)")
    t.add_argument("--max-degree-bound", type=int, default=None,
                   help="public max-degree bound behind ΔEBC (default: the true max degree, derived from the data)")
    _common(t)
    t.set_defaults(func=_topk)
