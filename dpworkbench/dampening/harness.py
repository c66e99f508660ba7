"""Local dampening's file-level CLI entries for the privacy harness (:mod:`dpworkbench.testing.harness`).

Every API release is a declaration (:mod:`dpworkbench.dampening.mechanisms`): its harness entry is derived from it
(:mod:`dpworkbench.testing.declared`). What stays here are the subcommands ``dpworkbench dampening
median|percentile|topk``, run in-process with ``--seed <int> --json`` on small files written once per input, from
bytes: CSV texts whose neighbours substitute one line at any position (median, percentile: substitution, n fixed),
and edge-list texts whose neighbours add or remove one line (topk: edge-DP on the public node set, graphs above the
degree bound projected). Each command runs at its declarations' harness parameters (their flags, from the command's
parser); its claimed ε, relation and declared public flags are those of the declaration it names (its ``--plan``,
:func:`~dpworkbench.testing.declared.cli_entry`); its pre-noise statistics are the declaration's, of what the command's
reader handed it (the values for median and percentile; for topk the edges on the node set, of both ``--mechanism
LD`` and ``SLD``), checked against the declarations' own sensitivities.
"""

from __future__ import annotations

import numpy as np

from dpworkbench.testing.declared import cli_entry, declared_pairs
from dpworkbench.testing.harness import FileCLI, csv_line_neighbours, edge_list_neighbours, hostile_lines, scratch_file

from .cli import register
from .mechanisms import LAM, MEDIAN, N_NODES, PERCENTILE, TOPK_GRAPH, graph_examples


# The median CLI starts from bytes: CSV texts whose neighbours substitute one line, at any position, by any line a
# user's file may hold (a value, a blank, NA, text, ±inf, out-of-range numbers, an extra field, an open quote).
def _median_csv_inputs(rng):
    return ["val\n" + "\n".join(map(str, x)) + "\n" for x in MEDIAN["LD"].examples(rng)] + [
        "id,val\n" + "\n".join(f"{i},{v}" for i, v in enumerate(rng.integers(0, LAM + 1, 5))) + "\n"]


def _median_csv_neighbours(text):
    ncol = text.split("\n", 1)[0].count(",") + 1
    values = [str(v) for v in range(LAM + 1)] + ["NA", "", "abc", "-3", "1e9", "2.5", "inf"]
    extra = hostile_lines(text, np.random.default_rng(len(text)), limit=None) + [
        ",".join(["7"] * (ncol - 1) + [v]) for v in values]
    return csv_line_neighbours(text, list(dict.fromkeys(extra)), add=False, remove=False)


def _selection_cli(sub, params):
    """``dpworkbench dampening median|percentile`` at a selection declaration's harness parameters."""
    cli = FileCLI(register, f"dampening {sub}", ["--column", "val"], params)

    def pairs(mech, params, values, stats):  # the declaration the command names, on the values its reader selected on
        return {**declared_pairs(mech, params, stats), "n": (float(np.size(values)), 0.0)}  # n: public, fixed

    return cli_entry(f"dpworkbench dampening {sub}", cli.run, _median_csv_inputs, _median_csv_neighbours,
                     pairs=pairs, cli=cli, public=("n", "--mechanism"), n_samples=1000,
                     note="file-level: one CSV line substituted at any position by a value or a hostile line")


P_CLI = 0.9    # the CLI entry's --p (rank n on the small files: the top end, where Λ − X_(k−1) binds)


# The topk CLI starts from bytes: edge-list texts whose neighbours add or remove one line at any position — an edge
# (new, repeated, reversed), a self-loop, a line naming a node outside --nodes, a header, a malformed line.
def _edge_text_inputs(rng):
    out = []
    for j, (_, e) in enumerate(graph_examples(rng)):
        lines = [f"{a} {b}" if (a + b) % 2 else f"{b},{a}" for a, b in e.tolist()]
        out.append(("src dst\n" if j == 0 else "# a comment\n") + "\n".join(lines) + "\n")
    return out


_HOSTILE_EDGE_LINES = ("3 3", "0 9", "9 0", "7 8", "x y", "1.5 2", "", "# c", "-1 2", "2 1 0.5",
                       "99999999999999999999 1", "\ufffd 1", '"0",1')


def _edge_line_neighbours(text):
    """One line removed, or one line added at every position: an edge of the node set, two reversed edges, the
    hostile lines and a repeated line."""
    extra = [f"{b} {a}" for a, b in ((0, 1), (2, 4))] + list(_HOSTILE_EDGE_LINES) + text.split("\n")[1:2]
    return edge_list_neighbours(text, "edge", extra, nodes=N_NODES)


def _topk_cli():
    nodes = scratch_file("dampening", "\n".join(str(v) for v in range(N_NODES)) + "\n", ".txt")
    params = TOPK_GRAPH["LD"].harness_params  # the graph PrivTopk declarations' harness instance (k, bound, ε)
    cli = FileCLI(register, "dampening topk", ["--nodes", str(nodes)], params, ".txt")

    def pairs(mech, checked, graph, stats):
        """The release the command made (SLD, its default) and LD's (``--mechanism LD``), each the declaration's own
        statistics of the edges the command read, at the parameters it passed; the node set (--nodes) is public."""
        out = {"num_nodes": (float(graph[0]), 0.0)}
        for tag in ("LD", "SLD"):
            decl = TOPK_GRAPH[tag]
            own = stats if decl is mech else decl.statistics(graph, **checked)
            out.update({f"{tag}.{k}": v for k, v in declared_pairs(decl, checked, own).items()})
        return out

    return cli_entry(
        "dpworkbench dampening topk", cli.run, _edge_text_inputs, _edge_line_neighbours, pairs=pairs,
        cli=cli, public=("--nodes", "--mechanism"), n_samples=1000,
        components=lambda out: {f"node_{j + 1}": float(v) for j, v in enumerate(out["private"]["nodes"])},
        note="file-level: one edge line added or removed at any position; graphs above the bound are projected")


# Public functions that take ε but release nothing themselves (checked by tests/privacy/test_harness_table.py).
EXEMPT = {
    "ld_logits": "pure log-weights ε·D/2 of local dampening; the sampling entry points (local_dampening, "
                 "select_median, priv_top_k) are in the harness",
    "sld_logits": "pure closed-form log-weights of shifted LD; shifted_local_dampening is in the harness",
    "sld_logits_explicit_shift": "the thesis' explicit-shift log-weights, kept only to test the closed form; "
                                 "samples nothing",
}


def entry_points():
    """The file-level entry points of the local-dampening paper (its API entries are derived from declarations)."""
    return [_selection_cli("median", MEDIAN["LD"].harness_params),
            _selection_cli("percentile", {**PERCENTILE["LD"].harness_params, "p": P_CLI}), _topk_cli()]


__all__ = ["entry_points"]
