"""``dpworkbench dampening median|percentile|topk ...`` — local-dampening releases from the command line.

Each subcommand reads its file by public rules (issue 21: one physical line is one row; a cell is clipped into the
public bounds or set to ``--missing``; an edge line is dropped on its own; no refusal depends on the rows and no
message quotes a cell) and names its declaration (:mod:`.mechanisms`): the flags, their help and their checks are the
declared parameters' (:func:`dpworkbench.cli.release.add_param_flags`), the output goes through the one emitter.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..cli.release import add_param_flags, add_release_flags, checked_params, emit, planned, release_parser, run_backend
from . import mechanisms as DM

_SELECTION = ("Private {what} selection (local dampening thesis, Ch. 5{ch}): releases the POSITION (0-based data row) "
              "of an element whose value is close to the column's {what}, chosen by EM, permute-and-flip, local "
              "dampening (LD) or shifted LD (SLD) with utility -|x_(k) - x_i| on the values clipped to the public "
              "range [--lower, --upper]. The privacy proof covers the selected label only: the selected row's value is "
              "a raw data value, not a post-processing of the label (--show-exact prints it and the true {what}).",
              "Every line after the header is one row (so n is the number of lines); a value outside [--lower, --upper] "
              "is clipped into it, and a blank, missing or unparseable cell (or a malformed line) counts as --missing: "
              "the release never refuses because of what a cell holds.")
_TOPK = ("Private top-k nodes by egocentric betweenness (PrivTopk, local dampening thesis, Ch. 6): k draws with ε/k each "
         "(EM, PF, LD or SLD), releasing node ids only. A release needs --nodes and --max-degree-bound; only a --seed "
         "research run may derive them from the edge list (reported as such).",
         "Each line is read on its own: a malformed line, a self-loop, a repeated edge or a line naming a node outside "
         "the node set is dropped. The graph is projected into max degree D by a stable public rule (an edge is kept "
         "iff it is among the first D edges of both endpoints in node-pair order); one edge added or removed changes "
         "at most 3 projected edges, and every draw is calibrated to that, so the release never refuses because of "
         "the graph.")


def _median(args: argparse.Namespace) -> int:
    from dpworkbench.cli.common import Stages

    decl = DM.MEDIAN[args.mechanism] if args.p is None else DM.PERCENTILE[args.mechanism]
    params = checked_params(args, decl, [q.name for q in decl.params])  # public flags, checked before the data is read
    params["missing"] = DM.check_bounds(params["lower"], params["upper"], params.get("missing"), "--")
    if planned(args, decl, params):
        return 0
    backend = run_backend(args, params["epsilon"])
    with Stages(args, ["read CSV", "select"], f"dampening {'median' if args.p is None else 'percentile'}") as st:
        rel = DM.release_column_quantile(Path(args.csv), args.column, mechanism=args.mechanism, rng=backend, progress=st,
                                         **params)
    emit(rel, args, label="row")
    return 0


def _topk(args: argparse.Namespace) -> int:
    from dpworkbench.cli.common import Stages, check_input_file, read_node_set, scan_edge_list, warn
    from dpworkbench.cli.release import emit_plan


    path, decl = Path(args.edges), DM.TOPK_GRAPH[args.mechanism]
    params = checked_params(args, decl, ("epsilon", "k", "max_degree_bound"))
    eps = params["epsilon"]
    ids = read_node_set(Path(args.nodes)) if args.nodes else None  # public input: checked (and quoted) freely
    # A release takes its public inputs from flags, before reading the data; only a research run may derive them.
    need = [f for f, v in (("--nodes", args.nodes), ("--max-degree-bound", args.max_degree_bound)) if v is None]
    if args.seed is None and need:
        raise ValueError(f"a private release needs the public {' and '.join(need)} (the node set and the degree "
                         "bound are public inputs, never read off the graph); or add --seed for a research run "
                         "that derives them from the data (NOT a private release)")
    if ids is not None and args.k > ids.size:  # public: the node set
        raise ValueError(f"--k {args.k} is larger than the number of nodes in --nodes ({ids.size})")
    if args.plan:  # the node set (when given) is public: its size enters the error bar
        emit_plan(decl, dict(params, max_degree_bound=args.max_degree_bound or 1), args, accuracy=decl.accuracy(
            nodes=None if ids is None else ids.size, **dict(params, max_degree_bound=args.max_degree_bound)))
        return 0
    backend = run_backend(args, eps)
    if not args.json:
        warn("every edge line is read on its own: a malformed line, a self-loop, a repeated edge or a line naming a "
             "node outside the node set is dropped, and the graph is projected into the degree bound (counts only "
             "with --show-exact)")
    with Stages(args, ["read edge list", "project, EBC and select top-k"], "dampening topk") as st:
        st.next("read edge list")
        # one line is at most one edge (dpworkbench.graphs.read_edge_lines); a line naming a node outside the node
        # set maps outside 0..n−1, so ebc.simple_graph_on drops it — never quoted
        scan = scan_edge_list(check_input_file(path, "edge list"))
        dense, ids = scan.on_nodes(ids)
        if args.k > ids.size:  # research run only: the node set was derived from the data (reported as such)
            raise ValueError(f"--k {args.k} is larger than the number of nodes ({ids.size})")
        st.next("project, EBC and select top-k")
        rel = DM.priv_top_k_nodes(dense, ids, args.k, epsilon=eps, method=args.mechanism, rng=backend, source=str(path),
                                  max_degree_bound=args.max_degree_bound, node_set=args.nodes, input_counts=scan.exact())
    emit(rel, args, label="nodes")
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser("dampening", help="local dampening: private median/percentile row of a CSV column, "
                                                "private top-k EBC nodes")
    sub = p.add_subparsers(dest="dampening_cmd", required=True)
    for name, decls, what, ch in (("median", DM.MEDIAN, "median", ""),
                                  ("percentile", DM.PERCENTILE, "p-quantile", " generalised to rank k = ceil(p*n), --p in (0, 1]; LD and "
                                   "SLD use a sensitivity function proved admissible in dpworkbench.dampening.percentile")):
        decl = decls["LD"]  # every selector declares the same parameters
        m = release_parser(sub, name, *(t.format(what=what, ch=ch) for t in _SELECTION), relation=decl.relation,
                           help=f"private {what} selection{' (--p)' if name == 'percentile' else ''}: releases a row "
                           "position (not a value)", public="n and " + ", ".join(f"--{q.name}" for q in decl.params)
                           + ", --mechanism")
        m.add_argument("csv", help="table (CSV with a header row)")
        m.add_argument("--column", required=True, help=f"numeric column whose {what} row is selected")
        add_param_flags(m, decl, defaults={"epsilon": 1.0, "lower": 0.0})
        m.set_defaults(func=_median, **({"p": None} if name == "median" else {}))
    t = release_parser(sub, "topk", *_TOPK, help="private top-k nodes by egocentric betweenness (PrivTopk), edge-DP",
                       relation=DM.TOPK_GRAPH["SLD"].relation,
                       public="the node set (--nodes FILE), --max-degree-bound D, --k, --mechanism, --epsilon")
    t.add_argument("edges", help="edge list (SNAP text or CSV with a header)")
    t.add_argument("--nodes", default=None, help="public node set: a file with one node id per line (required for a "
                                                 "release; with --seed it defaults to the ids in the edge list, derived "
                                                 "from the data)")
    add_param_flags(t, DM.TOPK_GRAPH["SLD"], defaults={"epsilon": 1.0, "k": 5, "max_degree_bound": None}, helps={
        "max_degree_bound": "public max-degree bound D behind ΔEBC; the graph is projected into it (required for a "
                            "release; with --seed it defaults to the true max degree, derived from the data)"})
    t.set_defaults(func=_topk)
    for parser, default in ((sub.choices["median"], "LD"), (sub.choices["percentile"], "LD"), (t, "SLD")):
        parser.add_argument("--mechanism", choices=list(DM.SELECTORS), default=default,
                            help=f"EM, permute-and-flip (PF), local dampening (LD) or shifted LD (SLD) (default {default})")
        add_release_flags(parser)
