"""``dpworkbench dampening median|percentile|topk ...`` — local-dampening releases from the command line.

Each subcommand reads its file by public rules (issue 21: one physical line is one row; a cell is clipped into the
public bounds or set to ``--missing``; an edge line is dropped on its own; no refusal depends on the rows and no
message quotes a cell), then calls the paper's API (:func:`.median.select_median`, :func:`.percentile.select_percentile`,
:func:`.ebc.priv_top_k_graph`: declarations in :mod:`.mechanisms`), and prints through the one emitter
(:func:`dpworkbench.cli.release.emit`; shared flags :func:`~dpworkbench.cli.release.add_release_flags`: ``--seed``
is a research run, ``--show-exact`` adds NOT PRIVATE values, ``--plan`` prints the ledger and stops).
"""

from __future__ import annotations

import argparse
import math
from dataclasses import replace
from pathlib import Path
from . import mechanisms as DM

SELECTION_HELP = """Private {what} selection (local dampening thesis, Ch. 5{ch}).

Releases the POSITION (0-based data row) of an element whose value is close to the column's {what}{p}, chosen by
EM, permute-and-flip, local dampening (LD) or shifted LD (SLD) with utility -|x_(k) - x_i| on the values clipped to
the public range [--lower, --upper]. Only the row position is released: the mechanism's privacy proof covers the
selected label, and the selected row's value is a raw data value, not a post-processing of the label. --show-exact
prints it (and the true {what}), labelled NOT PRIVATE.

Neighbouring relation: substitution - one row's value replaced by any value; the number of rows n and the row
positions are fixed. Every line after the header is one row (so n is the number of lines); a value outside
[--lower, --upper] is clipped into it, and a blank, missing or unparseable cell (or a malformed line) counts as
--missing (default --lower): the release never refuses because of what a cell holds.
Treated as public: {flag}--lower, --upper (Lambda), --missing, n, --horizon, --mechanism, --epsilon.
--seed makes it a research run (seeded numpy noise, NOT a private release); without it the OpenDP release
back-end draws the noise."""
MEDIAN_HELP = SELECTION_HELP.format(what="median", ch="", p=" (k = ceil(n/2))", flag="")
PERCENTILE_HELP = SELECTION_HELP.format(what="p-quantile", ch=" generalised to rank k = ceil(p*n)", flag="--p, ",
                                        p=" (--p in (0, 1]; 0.5 is the median rank); LD and SLD use a sensitivity "
                                        "function proved admissible (dpworkbench.dampening.percentile)")

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


def _show(rel, args, *, label: str, header: list[str], inputs: dict, accuracy=None) -> None:
    """The one emitter; the NOT PRIVATE input counts go under ``NOT_PRIVATE.input`` (JSON) or one line each (text).
    ``accuracy``: the declaration's error bar of the released label (a bound on the selection's utility loss)."""
    from dpworkbench.cli.release import emit

    emit(replace(rel, exact={**rel.exact, **({"input": inputs} if args.json else inputs)}), args, label=label,
         accuracy=accuracy, header=header)


def _median(args: argparse.Namespace) -> int:
    from dpworkbench.cli.common import Stages, warn_epsilon
    from dpworkbench.cli.release import checked_epsilon, planned
    from dpworkbench.datasets.public_schema import ColumnSpec, PublicSchema, read_raw_lines
    from dpworkbench.mechanisms.backends import cli_backend

    from . import percentile as Q
    from .mechanisms import MEDIAN, PERCENTILE

    path, p = Path(args.csv), args.p
    eps = checked_epsilon(args)
    if p is not None:  # public flag, checked before the data is read
        Q.check_p(p, "--p")
    for flag, bound in (("--lower", args.lower), ("--upper", args.upper)):
        if not math.isfinite(bound):
            raise ValueError(f"{flag} must be a finite number, got {bound!r}")
    if not args.upper > args.lower:
        raise ValueError("--upper must be larger than --lower (public domain bounds)")
    missing = args.lower if args.missing is None else args.missing
    if not (math.isfinite(missing) and args.lower <= missing <= args.upper):
        raise ValueError("--missing must be a finite number in [--lower, --upper] (the public value of a missing cell)")
    common = dict(epsilon=eps, lower=args.lower, upper=args.upper, missing=missing, horizon=args.horizon)
    decl = MEDIAN[args.mechanism] if p is None else PERCENTILE[args.mechanism]
    params = common if p is None else dict(common, p=p)
    if planned(args, decl, params):
        return 0
    warn_epsilon(eps)
    what = "median" if p is None else "percentile"
    with Stages(args, ["read CSV", "select"], f"dampening {what}") as st:
        st.next("read CSV")
        raw = read_raw_lines(path, "CSV")  # one physical line = one row: n is the number of lines, whatever they hold
        # Refusals below depend only on the header and the number of lines (public under substitution), never a cell.
        if args.column not in raw.columns:
            raise ValueError(f"column {args.column!r} not in {path} (columns: {', '.join(map(str, raw.columns))})")
        if list(raw.columns).count(args.column) > 1:
            raise ValueError(f"column {args.column!r} is named twice in the header of {path}")
        if len(raw) == 0:
            raise ValueError(f"CSV {path} has a header but no rows: there is no {what} to select")
        # The public rule, cell by cell: parse, clip into [--lower, --upper], a NULL becomes --missing.
        spec = ColumnSpec(args.column, "float", args.lower, args.upper, default=missing)
        typed, report = PublicSchema((spec,)).apply(raw[[args.column]])
        values = typed[args.column].to_numpy(float)
        counts = report.columns[args.column]
        st.next("select")
        args._backend = cli_backend(args.seed)
        kw = dict(lower=args.lower, upper=args.upper, epsilon=eps, mechanism=args.mechanism, horizon=args.horizon,
                  rng=args._backend, missing=missing)
        rel = DM.select_median(values, **kw) if p is None else DM.select_percentile(values, p, **kw)
    inputs = {"rows": int(values.size), "values_clipped_into_bounds": counts["clipped"],
              "cells_missing_set_to_default": counts["null"] + counts["unparseable"]}
    if args.dump_scores:  # harness diagnostics (hidden flag): the values the selection ran on, NOT PRIVATE
        inputs["values"] = (values - args.lower).tolist()
    # n (the number of lines) is public under substitution: the error bar is a function of public inputs only
    _show(rel, args, label="row", inputs=inputs, accuracy=decl.accuracy(n=int(values.size), **params), header=[
        f"{path}: column {args.column!r}; {args.mechanism} {what if p is None else f'p = {p:g} percentile'} selection "
        "releases a row position (0-based data row), not a value", f"neighbouring relation: {DM.QUANTILE_RELATION.describe()}",
        f"every line after the header is one row; values outside [--lower, --upper] = [{args.lower:g}, "
        f"{args.upper:g}] are clipped into it, and a blank, missing or unparseable cell (or a malformed line) counts "
        f"as --missing = {missing:g} (how many of each is an exact count of the data: shown only with --show-exact)"])
    return 0


def _topk(args: argparse.Namespace) -> int:
    from dpworkbench.cli.common import Stages, check_input_file, read_node_set, scan_edge_list, warn, warn_epsilon
    from dpworkbench.cli.release import checked_epsilon, emit_plan
    from dpworkbench.mechanisms.backends import cli_backend

    from . import ebc as E
    from .mechanisms import TOPK_GRAPH, graph_topk_statistics

    path = Path(args.edges)
    eps = checked_epsilon(args)
    if args.k < 1:
        raise ValueError(f"--k must be >= 1, got {args.k}")
    if args.max_degree_bound is not None and args.max_degree_bound < 1:
        raise ValueError(f"--max-degree-bound must be >= 1, got {args.max_degree_bound}")
    ids = read_node_set(Path(args.nodes)) if args.nodes else None  # public input: checked (and quoted) freely
    # A release takes its public inputs from flags, before reading the data; only a research run may derive them.
    need = [f for f, v in (("--nodes", args.nodes), ("--max-degree-bound", args.max_degree_bound)) if v is None]
    if args.seed is None and need:
        raise ValueError(f"a private release needs the public {' and '.join(need)} (the node set and the degree "
                         "bound are public inputs, never read off the graph); or add --seed for a research run "
                         "that derives them from the data (NOT a private release)")
    if ids is not None and args.k > ids.size:  # public: the node set
        raise ValueError(f"--k {args.k} is larger than the number of nodes in --nodes ({ids.size})")
    decl = TOPK_GRAPH[args.mechanism]
    if args.plan:  # the node set (when given) is public: its size enters the error bar
        params = dict(epsilon=eps, k=args.k, max_degree_bound=args.max_degree_bound or 1)
        emit_plan(decl, params, args, accuracy=decl.accuracy(nodes=None if ids is None else ids.size,
                                                             **dict(params, max_degree_bound=args.max_degree_bound)))
        return 0
    warn_epsilon(eps)
    if not args.json:
        warn("every edge line is read on its own: a malformed line, a self-loop, a repeated edge or a line naming a "
             "node outside the node set is dropped, and the graph is projected into the degree bound (counts only "
             "with --show-exact)")
    with Stages(args, ["read edge list", "project, EBC and select top-k"], "dampening topk") as st:
        st.next("read edge list")
        # one line is at most one edge (dpworkbench.graphs.read_edge_lines); a line naming a node outside the node
        # set maps outside 0..n−1, so ebc.simple_graph_on drops it — never quoted
        scan = scan_edge_list(check_input_file(path, "edge list"))
        (dense, ids), inputs = scan.on_nodes(ids), scan.exact()
        if args.k > ids.size:  # research run only: the node set was derived from the data (reported as such)
            raise ValueError(f"--k {args.k} is larger than the number of nodes ({ids.size})")
        st.next("project, EBC and select top-k")
        args._backend = cli_backend(args.seed)
        rel = DM.priv_top_k_graph(dense, ids.size, args.k, epsilon=eps, method=args.mechanism, rng=args._backend,
                                 max_degree_bound=args.max_degree_bound)  # None (research run only): derived
    bound = rel.public["max_degree_bound"]
    inputs.update({k: rel.exact[k] for k in ("self_loops_dropped", "duplicate_edges_dropped",
                                              "lines_outside_node_set_dropped", "edges_dropped_by_degree_projection")})
    if args.dump_scores:  # harness diagnostics (hidden flag): the pre-noise scores, NOT PRIVATE
        ld, sld = (graph_topk_statistics((ids.size, dense), method=m, max_degree_bound=bound) for m in ("LD", "SLD"))
        inputs.update({"ebc": sld["ebc"].tolist(), "scores": sld["score"].tolist(), "ld_scores": ld["score"].tolist()})
    derived = rel.derived_public + (() if args.nodes else ("node set",))
    public = dict(rel.public, **{"node set": f"{args.nodes} ({ids.size} nodes)" if args.nodes
                                 else f"ids in the edge list ({ids.size} nodes)"})
    exact = {"true_top_k": [ids[v].item() for v in rel.exact["true_top_k"]],
             "overlap_with_true_top_k": rel.exact["overlap_with_true_top_k"], "num_edges": rel.exact["num_edges"]}
    out = replace(rel, value=[ids[v].item() for v in rel.value], public=public, derived_public=derived, exact=exact)
    # the node-set size and D are public inputs (derived from the data only in a --seed research run, reported so)
    acc = decl.accuracy(epsilon=eps, k=args.k, max_degree_bound=bound, nodes=ids.size)
    _show(out, args, label="nodes", inputs=inputs, accuracy=acc, header=[
        f"{path}: {args.mechanism}PrivTopk k={args.k} releases node ids ({args.k} draws with ε/k = {eps / args.k:g} each)",
        f"neighbouring relation: {DM.TOPK_RELATION.describe()}",
        f"the graph is projected into max degree ≤ {bound} by a stable public rule (an edge is kept iff it is among "
        f"the first {bound} edges of both its endpoints in node-pair order); one edge added or removed changes at most "
        f"{E.PROJECTION_STABILITY} projected edges, and every draw is calibrated to that"])
    return 0


def _flags(p, mechanism_default: str, epsilon_help: str) -> None:
    from dpworkbench.cli.release import add_release_flags

    p.add_argument("--mechanism", choices=["EM", "PF", "LD", "SLD"], default=mechanism_default,
                   help=f"EM, permute-and-flip (PF), local dampening (LD) or shifted LD (SLD) (default {mechanism_default})")
    p.add_argument("--epsilon", type=float, default=1.0, help=epsilon_help)
    add_release_flags(p)
    # The privacy harness reads the pre-noise scores through the real command (NOT PRIVATE, with --show-exact).
    p.add_argument("--dump-scores", action="store_true", help=argparse.SUPPRESS)


def register(subparsers) -> None:
    p = subparsers.add_parser("dampening", help="local dampening: private median/percentile row of a CSV column, "
                                                "private top-k EBC nodes")
    sub = p.add_subparsers(dest="dampening_cmd", required=True)
    for name, text, what in (("median", MEDIAN_HELP, "median"), ("percentile", PERCENTILE_HELP, "p-quantile")):
        m = sub.add_parser(name, help=f"private {what} selection{' (--p)' if name == 'percentile' else ''}: releases "
                           "a row position (not a value)", description=text,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        if name == "percentile":
            m.add_argument("--p", type=float, required=True, help="public quantile level in (0, 1], e.g. 0.9")
        m.add_argument("csv", help="table (CSV with a header row)")
        m.add_argument("--column", required=True, help=f"numeric column whose {what} row is selected")
        m.add_argument("--upper", type=float, required=True, help="public upper bound of the column's values")
        m.add_argument("--lower", type=float, default=0.0, help="public lower bound (default 0)")
        m.add_argument("--missing", type=float, default=None, help="public value of a blank, missing or "
                       "unparseable cell, in [--lower, --upper] (default --lower)")
        m.add_argument("--horizon", type=int, default=32, help="public horizon T of δ (δ = Λ beyond it)")
        _flags(m, "LD", "privacy budget of the selection (default 1)")
        m.set_defaults(func=lambda a: _median(a), **({"p": None} if name == "median" else {}))
    t = sub.add_parser("topk", help="private top-k nodes by egocentric betweenness (PrivTopk), edge-DP",
                       description=TOPK_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    t.add_argument("edges", help="edge list (SNAP text or CSV with a header)")
    t.add_argument("--k", type=int, default=5, help="number of nodes released (k draws of ε/k each; default 5)")
    t.add_argument("--nodes", default=None, help="public node set: a file with one node id per line (required for a "
                                                 "release; with --seed it defaults to the ids in the edge list, derived "
                                                 "from the data)")
    t.add_argument("--max-degree-bound", type=int, default=None,
                   help="public max-degree bound D behind ΔEBC; the graph is projected into it (required for a release; "
                        "with --seed it defaults to the true max degree, derived from the data)")
    _flags(t, "SLD", "total budget B (ε/k per draw)")
    t.set_defaults(func=lambda a: _topk(a))
