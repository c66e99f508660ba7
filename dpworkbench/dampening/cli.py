"""``dpworkbench dampening median|topk ...`` — local-dampening releases from the command line.

* ``dpworkbench dampening median CSV --column C --upper U [--lower L] [--mechanism EM|PF|LD|SLD] [--epsilon E]
  [--seed S] [--json] [--show-exact]``: private median *selection* (Ch. 5): the **row position** of an element close
  to the median. Only the position is released: the privacy proof covers the selected label, and the selected row's
  value is a raw data value, not a post-processing of the label (``--show-exact`` prints it, labelled NOT PRIVATE).
* ``dpworkbench dampening topk EDGES --k K --nodes FILE --max-degree-bound D [--mechanism ...] [--epsilon E]
  [--seed S] [--json] [--show-exact]``: private top-k nodes by egocentric betweenness (PrivTopk, Ch. 6); ε/k per
  draw, edge-DP on a public node set, the graph projected into the degree bound (:func:`ebc.project_max_degree`).

Input boundary (issue 21): the median reads one physical line as one row and maps a cell by a public rule (clip into
the bounds, a missing cell to ``--missing``); the edge list is read line by line and projected into the public
degree bound. No refusal depends on the rows, and no message quotes a cell, an id or a count of the data.

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
positions are fixed. Every line after the header is one row (so n is the number of lines); a value outside
[--lower, --upper] is clipped into it, and a blank, missing or unparseable cell (or a malformed line) counts as
--missing (default --lower): the release never refuses because of what a cell holds.
Treated as public: --lower, --upper (Lambda), --missing, n, --horizon, --mechanism, --epsilon.
--seed makes it a research run (seeded numpy noise, NOT a private release); without it the OpenDP release
back-end draws the noise."""

PERCENTILE_HELP = """Private p-quantile selection (local dampening, the thesis' Ch. 5 generalised to rank ceil(p*n)).

Releases the POSITION (0-based data row) of an element whose value is close to the column's p-quantile (--p in
(0, 1]; 0.5 is the median rank), chosen by EM, permute-and-flip, local dampening (LD) or shifted LD (SLD) with
utility -|x_(k) - x_i|, k = ceil(p*n), on the values clipped to [--lower, --upper]. LD and SLD use a sensitivity
function proved admissible (dpworkbench.dampening.percentile). Only the row position is released; --show-exact
prints the selected value and the true p-quantile, labelled NOT PRIVATE.

Neighbouring relation: substitution - one row's value replaced by any value; n and the row positions are fixed.
Reading rules are those of `dampening median`: every line after the header is one row; values outside the bounds
are clipped; a blank, missing or unparseable cell (or a malformed line) counts as --missing (default --lower).
Treated as public: --p, --lower, --upper (Lambda), --missing, n, --horizon, --mechanism, --epsilon.
--seed makes it a research run (seeded numpy noise, NOT a private release)."""

TOPK_HELP = """Private top-k nodes by egocentric betweenness (PrivTopk, local dampening thesis, Ch. 6): k draws with
epsilon/k each (EM, PF, LD or SLD), releasing node ids only.

Neighbouring relation: edge-DP - one edge added or removed between two nodes of a fixed, public node set.
Treated as public: the node set (--nodes FILE), --max-degree-bound D, --k, --mechanism, --epsilon. A release needs
--nodes and --max-degree-bound; only a --seed research run may derive them from the edge list (reported as such).
Each line is read on its own: a malformed line, a self-loop, a repeated edge or a line naming a node outside the
node set is dropped. The graph is projected into max degree D by a stable public rule (an edge is kept iff it is
among the first D edges of both endpoints in node-pair order); one edge added or removed changes at most 3
projected edges, and every draw is calibrated to that, so the release never refuses because of the graph.
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
    from dpworkbench.cli.common import Stages, warn_epsilon
    from dpworkbench.datasets.public_schema import read_raw_lines

    from . import median as M

    path = Path(args.csv)
    eps = check_epsilon(args.epsilon, "--epsilon")
    pct = getattr(args, "p", None)
    if pct is not None:  # public flag, checked before the data is read
        from .percentile import check_p

        check_p(pct, "--p")
    what = "median" if pct is None else f"p = {pct:g} percentile"
    for flag, bound in (("--lower", args.lower), ("--upper", args.upper)):
        if not math.isfinite(bound):
            raise ValueError(f"{flag} must be a finite number, got {bound!r}")
    if not args.upper > args.lower:
        raise ValueError("--upper must be larger than --lower (public domain bounds)")
    missing = args.lower if args.missing is None else args.missing
    if not (math.isfinite(missing) and args.lower <= missing <= args.upper):
        raise ValueError("--missing must be a finite number in [--lower, --upper] (the public value of a missing cell)")
    warn_epsilon(eps)
    with Stages(args, ["read CSV", "select"], f"dampening {'median' if pct is None else 'percentile'}") as st:
        st.next("read CSV")
        raw = read_raw_lines(path, "CSV")  # one physical line = one row: n is the number of lines, whatever they hold
        st.next("select")
        rel = _median_release(raw, path, eps, missing, args)
    _emit(rel, args, label="row", header=[
        f"{path}: column {args.column!r}; {args.mechanism} {what} selection releases a row position (0-based data "
        "row), not a value", f"neighbouring relation: {M.RELATION}",
        f"every line after the header is one row; values outside [--lower, --upper] = [{args.lower:g}, "
        f"{args.upper:g}] are clipped into it, and a blank, missing or unparseable cell (or a malformed line) counts "
        f"as --missing = {missing:g} (how many of each is an exact count of the data: shown only with --show-exact)"])
    return 0


def _median_release(raw, path: Path, eps: float, missing: float, args: argparse.Namespace):
    from dpworkbench.accounting import Accountant
    from dpworkbench.datasets.public_schema import ColumnSpec, PublicSchema
    from dpworkbench.mechanisms.backends import cli_backend, noise_label

    from . import median as M

    # Refusals below depend only on the header and the number of lines (public under substitution), never a cell.
    if args.column not in raw.columns:
        raise ValueError(f"column {args.column!r} not in {path} (columns: {', '.join(map(str, raw.columns))})")
    if list(raw.columns).count(args.column) > 1:
        raise ValueError(f"column {args.column!r} is named twice in the header of {path}")
    if len(raw) == 0:
        raise ValueError(f"CSV {path} has a header but no rows: there is no "
                         f"{'median' if getattr(args, 'p', None) is None else 'percentile'} to select")
    # The public rule, cell by cell: parse as a number, clip into [--lower, --upper], a NULL becomes --missing.
    # So a substituted line changes exactly its own value, and n (the range of the released label) never moves.
    spec = ColumnSpec(args.column, "float", args.lower, args.upper, default=missing)
    typed, report = PublicSchema((spec,)).apply(raw[[args.column]])
    values = typed[args.column].to_numpy(float)
    stats = report.columns[args.column]
    args._input_exact = {"rows": int(values.size), "values_clipped_into_bounds": stats["clipped"],
                         "cells_missing_set_to_default": stats["null"] + stats["unparseable"]}
    backend = cli_backend(args.seed)
    args._noise = noise_label(backend)
    if getattr(args, "p", None) is None:
        rel = M.select_median(values, lower=args.lower, upper=args.upper, epsilon=eps, mechanism=args.mechanism,
                              horizon=args.horizon, rng=backend, accountant=Accountant(eps), missing=missing)
    else:
        from .percentile import select_percentile

        rel = select_percentile(values, args.p, lower=args.lower, upper=args.upper, epsilon=eps,
                                mechanism=args.mechanism, horizon=args.horizon, rng=backend,
                                accountant=Accountant(eps), missing=missing)
    if args.dump_scores:  # harness diagnostics (hidden flag): the values the selection ran on, NOT PRIVATE
        args._input_exact["values"] = (values - args.lower).tolist()
    return rel


def _read_nodes(nodes_path: Path):
    """The public node set (a file of integer ids, one per line). Public input: its messages may quote it."""
    import numpy as np
    import pandas as pd

    from dpworkbench.cli.common import check_input_file

    check_input_file(nodes_path, "--nodes")
    try:
        ids = np.unique(pd.read_csv(nodes_path, header=None, comment="#", sep=r"\s+|,", engine="python",
                                    encoding="utf-8").iloc[:, 0].to_numpy())
    except UnicodeDecodeError:
        raise ValueError(f"--nodes {nodes_path} is not UTF-8 text; re-save it as UTF-8") from None
    except pd.errors.EmptyDataError:
        raise ValueError(f"--nodes {nodes_path} is empty: give one node id per line") from None
    if not np.issubdtype(ids.dtype, np.integer):
        raise ValueError(f"--nodes {nodes_path}: node ids must be integers, one per line")
    return ids.astype(np.int64)


def read_edge_lines(path: Path) -> tuple:
    """An edge list by the one-line-at-most-one-edge rule (:func:`dpworkbench.graphs.read_edge_lines`): a header,
    comment, blank, malformed or non-UTF-8 line, or a non-integer id, is dropped on its own; nothing is refused
    for what a line holds and no message quotes a line. Returns the (m, 2) ids and the NOT PRIVATE counts."""
    from dpworkbench.cli.common import check_input_file
    from dpworkbench.graphs import read_edge_lines as read

    check_input_file(path, "edge list")
    return read(path)


def _read_graph(path: Path, ids):
    """The edge list as dense indices into the node set, and that node set.

    ``ids`` is the public node set (``--nodes``) or ``None`` (a research run: the ids in the edge list, derived).
    A line naming a node outside the public set is mapped to an index outside 0..n−1, so that
    :func:`ebc.simple_graph_on` drops it (with the self-loops and repeats) — never quoted."""
    import numpy as np

    raw, exact = read_edge_lines(path)
    if ids is None:
        ids = np.unique(raw.ravel())
    flat = raw.ravel()
    pos = np.searchsorted(ids, flat).clip(0, max(ids.size - 1, 0))
    hit = (ids[pos] == flat) if ids.size else np.zeros(flat.size, bool)
    dense = np.where(hit, pos, -1).reshape(-1, 2)
    return dense, ids, exact


def _topk(args: argparse.Namespace) -> int:
    from dataclasses import replace

    import numpy as np

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
    ids = _read_nodes(Path(args.nodes)) if args.nodes else None  # public input: checked (and quoted) freely
    # A release takes its public inputs from flags, before reading the data; only a research run may derive them.
    if args.seed is None:
        need = [f for f, v in (("--nodes", args.nodes), ("--max-degree-bound", args.max_degree_bound)) if v is None]
        if need:
            raise ValueError(f"a private release needs the public {' and '.join(need)} (the node set and the degree "
                             "bound are public inputs, never read off the graph); or add --seed for a research run "
                             "that derives them from the data (NOT a private release)")
    if ids is not None and args.k > ids.size:  # public: the node set
        raise ValueError(f"--k {args.k} is larger than the number of nodes in --nodes ({ids.size})")
    warn_epsilon(eps)
    if not args.json:
        warn("every edge line is read on its own: a malformed line, a self-loop, a repeated edge or a line naming a "
             "node outside the node set is dropped, and the graph is projected into the degree bound (counts only "
             "with --show-exact)")
    with Stages(args, ["read edge list", "project, EBC and select top-k"], "dampening topk") as st:
        st.next("read edge list")
        dense, ids, exact_in = _read_graph(path, ids)
        args._input_exact = exact_in
        if args.k > ids.size:  # research run only: the node set was derived from the data (reported as such)
            raise ValueError(f"--k {args.k} is larger than the number of nodes ({ids.size})")
        bound = args.max_degree_bound
        if bound is None:  # research run: the true max degree, derived (the projection is then the identity)
            und, _ = E.simple_graph_on(dense, ids.size)
            bound = max(int(np.bincount(und.ravel(), minlength=ids.size).max(initial=0)), 1)
        st.next("project, EBC and select top-k")
        backend = cli_backend(args.seed)
        args._noise = noise_label(backend)
        rel = E.priv_top_k_graph(dense, ids.size, args.k, epsilon=eps, method=args.mechanism, max_degree_bound=bound,
                                 rng=backend, accountant=Accountant(eps))
        exact_in.update({k: rel.exact[k] for k in ("self_loops_dropped", "duplicate_edges_dropped",
                                                    "lines_outside_node_set_dropped",
                                                    "edges_dropped_by_degree_projection")})
        if args.dump_scores:  # harness diagnostics (hidden flag): the pre-noise scores, NOT PRIVATE
            from dpworkbench.graphs import from_edge_array

            g = from_edge_array(E.project_max_degree(E.simple_graph_on(dense, ids.size)[0], ids.size, bound)[0],
                                n=ids.size)
            e = E.ebc_all(g)
            exact_in.update({"ebc": e.tolist(), "scores": E.sld_scores(e, g.degrees, max_degree_bound=bound).tolist(),
                             "ld_scores": E.ld_scores(e, g.degrees, max_degree_bound=bound).tolist()})
    derived = (() if args.max_degree_bound is not None else ("max_degree_bound",)) + (() if args.nodes else ("node set",))
    public = dict(rel.public)
    public["node set"] = f"{args.nodes} ({ids.size} nodes)" if args.nodes else f"ids in the edge list ({ids.size} nodes)"
    exact = {"true_top_k": [ids[v].item() for v in rel.exact["true_top_k"]],
             "overlap_with_true_top_k": rel.exact["overlap_with_true_top_k"], "num_edges": rel.exact["num_edges"]}
    out = replace(rel, value=[ids[v].item() for v in rel.value], public=public, derived_public=derived, exact=exact)
    _emit(out, args, label="nodes", header=[
        f"{path}: {args.mechanism}PrivTopk k={args.k} releases node ids ({args.k} draws with ε/k = {eps / args.k:g} each)",
        f"neighbouring relation: {E.RELATION}",
        f"the graph is projected into max degree ≤ {bound} by a stable public rule (an edge is kept iff it is among "
        f"the first {bound} edges of both its endpoints in node-pair order); one edge added or removed changes at most "
        f"{E.PROJECTION_STABILITY} projected edges, and every draw is calibrated to that"])
    return 0


def _common(p) -> None:
    p.add_argument("--seed", type=int, default=None,
                   help="seed the noise: a reproducible RESEARCH run, NOT a private release (default: OpenDP release back-end)")
    p.add_argument("--json", action="store_true", help="JSON with sections private / public / NOT_PRIVATE")
    p.add_argument("--show-exact", action="store_true",
                   help="also print exact values (each labelled NOT PRIVATE): research only, never publish them")
    # The privacy harness reads the pre-noise scores through the real command (NOT PRIVATE, with --show-exact).
    p.add_argument("--dump-scores", action="store_true", help=argparse.SUPPRESS)


def _selection_flags(m, what: str) -> None:
    """The flags and reading rules shared by ``median`` and ``percentile``."""
    m.add_argument("csv", help="table (CSV with a header row)")
    m.add_argument("--column", required=True, help=f"numeric column whose {what} row is selected")
    m.add_argument("--upper", type=float, required=True, help="public upper bound of the column's values")
    m.add_argument("--lower", type=float, default=0.0, help="public lower bound (default 0)")
    m.add_argument("--missing", type=float, default=None,
                   help="public value of a blank, missing or unparseable cell, in [--lower, --upper] (default --lower)")
    m.add_argument("--mechanism", choices=["EM", "PF", "LD", "SLD"], default="LD",
                   help="EM, permute-and-flip (PF), local dampening (LD) or shifted LD (SLD) (default LD)")
    m.add_argument("--epsilon", type=float, default=1.0, help="privacy budget of the selection (default 1)")
    m.add_argument("--horizon", type=int, default=32, help="public horizon T of δ (δ = Λ beyond it)")
    _common(m)


def register(subparsers) -> None:
    p = subparsers.add_parser("dampening", help="local dampening: private median/percentile row of a CSV column, "
                                                "private top-k EBC nodes")
    sub = p.add_subparsers(dest="dampening_cmd", required=True)
    m = sub.add_parser("median", help="private median selection: releases a row position (not a value)",
                       description=MEDIAN_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    _selection_flags(m, "median")
    m.set_defaults(func=_median, p=None)
    q = sub.add_parser("percentile", help="private p-quantile selection (--p): releases a row position (not a value)",
                       description=PERCENTILE_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    q.add_argument("--p", type=float, required=True, help="public quantile level in (0, 1], e.g. 0.9")
    _selection_flags(q, "p-quantile")
    q.set_defaults(func=_median)
    t = sub.add_parser("topk", help="private top-k nodes by egocentric betweenness (PrivTopk), edge-DP",
                       description=TOPK_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    t.add_argument("edges", help="edge list (SNAP text or CSV with a header)")
    t.add_argument("--k", type=int, default=5, help="number of nodes released (k draws of ε/k each; default 5)")
    t.add_argument("--nodes", default=None, help="public node set: a file with one node id per line (required for a "
                                                 "release; with --seed it defaults to the ids in the edge list, derived "
                                                 "from the data)")
    t.add_argument("--mechanism", choices=["EM", "PF", "LD", "SLD"], default="SLD",
                   help="EM, permute-and-flip (PF), local dampening (LD) or shifted LD (SLD) (default SLD)")
    t.add_argument("--epsilon", type=float, default=1.0, help="total budget B (ε/k per draw)")
    t.add_argument("--max-degree-bound", type=int, default=None,
                   help="public max-degree bound D behind ΔEBC; the graph is projected into it (required for a release; "
                        "with --seed it defaults to the true max degree, derived from the data)")
    _common(t)
    t.set_defaults(func=_topk)
