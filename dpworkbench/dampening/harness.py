"""Local dampening's public release entry points for the privacy harness (:mod:`dpworkbench.testing.harness`).

One entry per public release API function (``local_dampening``, ``shifted_local_dampening``, ``select_median``,
``select_percentile``, ``priv_top_k``, ``id3.fit``) and per CLI subcommand (``dpworkbench dampening
median|percentile|topk``, run in-process with
``--seed <int> --json`` on small files written once per input). Each entry states its neighbouring relation at the
user's input level:

* median and percentile selection — substitution: one row's value replaced (n and the positions fixed; the thesis'
  model);
* PrivTopk / LD / SLD on EBC — edge-DP: one edge added or removed on a fixed, public node set;
* ID3 — add/remove one row at any position.

Pre-noise statistics go through the real code (utilities, dampened utilities D, SLD scores, counts) with the
sensitivities the proofs claim: u(·, r) by Δu, D(·, r) by 1 (Lemma 3.3.1, the dampening function's property for an
admissible δ), the SLD score (u − S_r)/Δu by 1 (Thm 4.3.1 in closed form), counts by 1, and u(·, r) by δ(x, 0, r)
(admissibility condition 1). Outputs are the selected labels as numeric components.
"""

from __future__ import annotations

import functools
from itertools import combinations
from pathlib import Path

import numpy as np

from dpworkbench.accounting import ledger_epsilon
from dpworkbench.testing.harness import (EntryPoint, InProcessCLI, csv_line_neighbours, hostile_lines, row_neighbours,
                                        scratch_dir)

from . import ebc as E
from . import id3 as I
from . import median as M
from . import percentile as Q
from .mechanisms import local_dampening, shifted_local_dampening
from .model import dampen, sld_slack

LAM = 6            # public range [0, 6] of the small median inputs
EPS = 1.0
N_NODES = 6        # fixed public node set 0..5 of the small graphs
BOUND = N_NODES - 1  # public max-degree bound (valid for every graph on 6 nodes)
K = 2
ID3_BOUND = 5      # public size bound N behind ΔIG: the inputs (5 and 6 rows) and their neighbours cross it
CLI_BOUND = 2      # the topk CLI's public degree bound: most small graphs exceed it and are projected
ID3_DOMAINS = [2, 2]

@functools.cache  # one scratch folder per process (removed at exit by scratch_dir); holds no data
def _tmpdir() -> Path:
    return scratch_dir("dampening")


# ------------------------------------------------------------------ median (substitution)
def _median_inputs(rng):
    return [np.array([0, 2, 3, 4, 6]),                     # the spec's counterexample to the thesis' Candidates
            rng.integers(0, LAM + 1, 5), rng.integers(0, LAM + 1, 6)]


def _substitutions(x):
    for i in range(x.size):
        for v in range(LAM + 1):
            if v != x[i]:
                y = x.copy()
                y[i] = v
                yield y


def _median_stats(mechanism, delta="box"):
    def stats(x):
        u = M.median_utility(x.astype(float), float(LAM))
        out = {f"u[{i}]": u[i] for i in range(x.size)}
        out.update({f"u_by_delta0[{i}]": u[i] for i in range(x.size)})
        sm = M.median_sensitivity(float(LAM), delta=delta).with_floor(1.0).with_horizon(32).matrix(x.astype(float))
        if mechanism == "LD":
            out.update({f"D[{i}]": d for i, d in enumerate(dampen(u, sm))})
        if mechanism == "SLD":
            out.update({f"sld[{i}]": s for i, s in enumerate((u - sld_slack(sm)) / LAM)})
        return out
    return stats


def _median_sens(mechanism, delta="box"):
    def sens(x):
        d0 = M.element_delta(x.astype(float), 0, float(LAM), delta=delta)
        out = {f"u[{i}]": float(LAM) for i in range(x.size)}
        out.update({f"u_by_delta0[{i}]": max(float(d0[i]), 1.0) for i in range(x.size)})
        out.update({f"{'D' if mechanism == 'LD' else 'sld'}[{i}]": 1.0 for i in range(x.size)})
        return out
    return sens


def _median_api(mechanism, delta="box", expect=False):
    allow = delta != "box"

    def release(x, rng):
        return float(M.select_median(x, lower=0, upper=LAM, epsilon=EPS, mechanism=mechanism, delta=delta, rng=rng,
                                     allow_unverified=allow).value)
    opt = "" if delta == "box" else f", delta={delta!r}, allow_unverified=True"
    return EntryPoint(
        name=f"dampening.median.select_median(mechanism={mechanism!r}{opt})", kind="api", paper="dampening",
        relation=M.RELATION, claimed_epsilon=ledger_epsilon(M.privacy_cost_median(EPS, mechanism)),
        public_inputs=("lower", "upper", "n", "horizon", "mechanism", "epsilon"),
        make_inputs=_median_inputs, neighbours=_substitutions, statistics=_median_stats(mechanism, delta),
        sensitivities=_median_sens(mechanism, delta), release=release, expect_flagged=expect, n_samples=3000,
        tests="tests/privacy/test_harness_dampening.py",
        note="labelled thesis option: Alg. 2 Candidates under-estimate LS (spec §3.4)" if expect else "")


def _file_for(text: str, suffix: str) -> Path:
    """The bytes of one file-level input, written once per distinct content."""
    import hashlib

    p = _tmpdir() / f"f_{hashlib.sha1(text.encode('utf-8', 'surrogatepass')).hexdigest()[:16]}{suffix}"
    if not p.exists():
        p.write_bytes(text.encode("utf-8", "surrogatepass"))
    return p


@functools.cache  # the parser is built once per process
def _cli() -> InProcessCLI:
    from .cli import register

    return InProcessCLI(register)


def _run_cli(argv) -> dict:
    """Parse ``argv`` with the real parser, run the subcommand's handler in-process, parse its ``--json`` output.
    A refusal surfaces as the handler's ValueError (what the harness compares across a pair)."""
    return _cli()(argv)


def _seed_of(rng) -> int:
    return int(rng) if isinstance(rng, (int, np.integer)) else int(np.random.default_rng(rng).integers(2**31))


# The median CLI starts from bytes: CSV texts whose neighbours substitute one line, at any position, by any line a
# user's file may hold (a value, a blank, NA, text, ±inf, out-of-range numbers, an extra field, an open quote).
def _median_csv_inputs(rng):
    return ["val\n" + "\n".join(map(str, x)) + "\n" for x in _median_inputs(rng)] + [
        "id,val\n" + "\n".join(f"{i},{v}" for i, v in enumerate(rng.integers(0, LAM + 1, 5))) + "\n"]


def _median_csv_neighbours(text):
    ncol = text.split("\n", 1)[0].count(",") + 1
    values = [str(v) for v in range(LAM + 1)] + ["NA", "", "abc", "-3", "1e9", "2.5", "inf"]
    extra = hostile_lines(text, np.random.default_rng(len(text)), limit=None) + [
        ",".join(["7"] * (ncol - 1) + [v]) for v in values]
    return csv_line_neighbours(text, list(dict.fromkeys(extra)), add=False, remove=False)


def _median_cli_argv(text):
    return ["dampening", "median", str(_file_for(text, ".csv")), "--column", "val", "--upper", str(LAM),
            "--epsilon", str(EPS)]


def _median_cli_values(text) -> np.ndarray:
    """The values the real command selects on (read, parsed, clipped, defaults filled), via its NOT PRIVATE dump."""
    out = _run_cli(_median_cli_argv(text) + ["--seed", "0", "--json", "--show-exact", "--dump-scores"])
    return np.asarray(out["NOT_PRIVATE"]["input"]["values"], float)


def _median_cli():
    def release(text, rng):
        out = _run_cli(_median_cli_argv(text) + ["--seed", str(_seed_of(rng)), "--json"])
        return float(out["private"]["row"])

    def stats(text):
        x = _median_cli_values(text)
        out = _median_stats("LD")(x)
        out["n"] = float(x.size)  # public under substitution: must not move
        return out

    def sens(text):
        out = dict(_median_sens("LD")(_median_cli_values(text)))
        out["n"] = 0.0
        return out
    return EntryPoint(
        name="dpworkbench dampening median", kind="cli", paper="dampening", relation=M.RELATION,
        claimed_epsilon=ledger_epsilon(M.privacy_cost_median(EPS, "LD")),
        public_inputs=("--lower", "--upper", "--missing", "n", "--horizon", "--mechanism", "--epsilon"),
        make_inputs=_median_csv_inputs, neighbours=_median_csv_neighbours, statistics=stats,
        sensitivities=sens, release=release, n_samples=1000,
        tests="tests/privacy/test_harness_dampening.py",
        note="file-level: one CSV line substituted at any position by a value or a hostile line")


# ------------------------------------------------------------------ percentile (substitution)
P_API = 0.75   # public quantile level of the API entries (rank 4 of 5, 5 of 6)
P_CLI = 0.9    # the CLI entry's --p (rank n on the small files: the top end, where Λ − X_(k−1) binds)


def _percentile_stats(mechanism, p):
    def stats(x):
        x = x.astype(float)
        u = Q.percentile_utility(x, float(LAM), p)
        out = {f"u[{i}]": u[i] for i in range(x.size)}
        out.update({f"u_by_delta0[{i}]": u[i] for i in range(x.size)})
        sm = Q.percentile_sensitivity(float(LAM), p).with_floor(1.0).with_horizon(32).matrix(x)
        if mechanism == "LD":
            out.update({f"D[{i}]": d for i, d in enumerate(dampen(u, sm))})
        if mechanism == "SLD":
            out.update({f"sld[{i}]": s for i, s in enumerate((u - sld_slack(sm)) / LAM)})
        return out
    return stats


def _percentile_sens(mechanism, p):
    def sens(x):
        d0 = Q.percentile_delta(x.astype(float), 0, float(LAM), p)   # admissibility condition 1, checked per pair
        out = {f"u[{i}]": float(LAM) for i in range(x.size)}
        out.update({f"u_by_delta0[{i}]": max(float(d0[i]), 1.0) for i in range(x.size)})
        out.update({f"{'D' if mechanism == 'LD' else 'sld'}[{i}]": 1.0 for i in range(x.size)})
        return out
    return sens


def _percentile_api(mechanism):
    def release(x, rng):
        return float(Q.select_percentile(x, P_API, lower=0, upper=LAM, epsilon=EPS, mechanism=mechanism,
                                         rng=rng).value)
    return EntryPoint(
        name=f"dampening.percentile.select_percentile(p={P_API}, mechanism={mechanism!r})", kind="api",
        paper="dampening", relation=Q.RELATION,
        claimed_epsilon=ledger_epsilon(Q.privacy_cost_percentile(EPS, mechanism)),
        public_inputs=("p", "lower", "upper", "missing", "n", "horizon", "mechanism", "epsilon"),
        make_inputs=_median_inputs, neighbours=_substitutions, statistics=_percentile_stats(mechanism, P_API),
        sensitivities=_percentile_sens(mechanism, P_API), release=release, n_samples=3000,
        tests="tests/privacy/test_harness_dampening.py")


def _percentile_cli_argv(text):
    return ["dampening", "percentile", str(_file_for(text, ".csv")), "--p", str(P_CLI), "--column", "val",
            "--upper", str(LAM), "--epsilon", str(EPS)]


def _percentile_cli():
    def values(text):
        out = _run_cli(_percentile_cli_argv(text) + ["--seed", "0", "--json", "--show-exact", "--dump-scores"])
        return np.asarray(out["NOT_PRIVATE"]["input"]["values"], float)

    def release(text, rng):
        return float(_run_cli(_percentile_cli_argv(text) + ["--seed", str(_seed_of(rng)), "--json"])["private"]["row"])

    def stats(text):
        x = values(text)
        out = _percentile_stats("LD", P_CLI)(x)
        out["n"] = float(x.size)  # public under substitution: must not move
        return out

    def sens(text):
        out = dict(_percentile_sens("LD", P_CLI)(values(text)))
        out["n"] = 0.0
        return out
    return EntryPoint(
        name="dpworkbench dampening percentile", kind="cli", paper="dampening", relation=Q.RELATION,
        claimed_epsilon=ledger_epsilon(Q.privacy_cost_percentile(EPS, "LD")),
        public_inputs=("--p", "--lower", "--upper", "--missing", "n", "--horizon", "--mechanism", "--epsilon"),
        make_inputs=_median_csv_inputs, neighbours=_median_csv_neighbours, statistics=stats,
        sensitivities=sens, release=release, n_samples=1000,
        tests="tests/privacy/test_harness_dampening.py",
        note="file-level: one CSV line substituted at any position by a value or a hostile line")


# ------------------------------------------------------------------ EBC (edge-DP on a fixed node set)
def _graph_inputs(rng):
    pairs = list(combinations(range(N_NODES), 2))
    out = []
    while len(out) < 2:
        keep = rng.random(len(pairs)) < 0.5
        e = np.array([p for p, k in zip(pairs, keep) if k], dtype=np.int64).reshape(-1, 2)
        if len(e) >= 4:
            out.append(e)
    return out


def _edge_toggles(edges):
    have = {tuple(map(int, e)) for e in edges}
    for p in combinations(range(N_NODES), 2):
        new = have ^ {p}
        yield np.array(sorted(new), dtype=np.int64).reshape(-1, 2)


def _ebc_deg(edges):
    from dpworkbench.graphs import from_edge_array

    g = from_edge_array(edges, n=N_NODES)
    return E.ebc_all(g, cache=True, disk=False), np.asarray(g.degrees, np.int64)


def _ebc_stats(kind):
    def stats(edges):
        e, d = _ebc_deg(edges)
        gs = E.global_sensitivity_ebc(BOUND)
        out = {f"ebc[{v}]": e[v] for v in range(N_NODES)}
        if kind == "LD":
            out.update({f"D[{v}]": s for v, s in enumerate(E.ld_scores(e, d, max_degree_bound=BOUND))})
            sm = E.ebc_sensitivity(BOUND, horizon=BOUND).matrix(d)
            out.update({f"D_generic[{v}]": s for v, s in enumerate(dampen(e, sm))})
        if kind == "SLD":
            out.update({f"sld[{v}]": s for v, s in enumerate(E.sld_scores(e, d, max_degree_bound=BOUND))})
            sm = E.ebc_sensitivity(BOUND, horizon=BOUND).matrix(d)
            out.update({f"sld_generic[{v}]": s for v, s in enumerate((e - sld_slack(sm)) / gs)})
        return out
    return stats


def _ebc_sens(kind):
    def sens(edges):
        _, d = _ebc_deg(edges)
        # Lemma 6.3.1 (element sensitivity g(d_v), d_v the larger degree of the pair: d_v + 1 bounds it) and ΔEBC
        out = {f"ebc[{v}]": E.global_sensitivity_ebc(BOUND) for v in range(N_NODES)}
        out.update({f"{n}[{v}]": 1.0 for v in range(N_NODES)
                    for n in ({"LD": ("D", "D_generic"), "SLD": ("sld", "sld_generic")}.get(kind, ()))})
        return out
    return sens


def _topk_api(method):
    def release(edges, rng):
        e, d = _ebc_deg(edges)
        got = E.priv_top_k(e, d, K, epsilon=EPS, method=method, max_degree_bound=BOUND, rng=rng).value
        return {f"node_{j + 1}": float(v) for j, v in enumerate(got)}
    return EntryPoint(
        name=f"dampening.ebc.priv_top_k(method={method!r})", kind="api", paper="dampening", relation=E.RELATION,
        claimed_epsilon=ledger_epsilon(E.privacy_cost_topk(EPS, K, method)),
        public_inputs=("node set", "k", "epsilon", "method", "max_degree_bound"),
        make_inputs=_graph_inputs, neighbours=_edge_toggles, statistics=_ebc_stats(method), sensitivities=_ebc_sens(method),
        release=release, tests="tests/privacy/test_harness_dampening.py", n_samples=3000)


def _raw_edge_neighbours(edges):
    """Edge-DP neighbours of a raw edge array: every pair toggled, and one raw row added that the public rules
    absorb (a self-loop, a node outside the set, a repeated or reversed edge)."""
    yield from _edge_toggles(edges)
    e = np.asarray(edges, np.int64).reshape(-1, 2)
    for row in ([3, 3], [0, 9], [-1, 2], e[0].tolist(), e[0][::-1].tolist()):
        yield np.vstack([e, np.array([row], np.int64)])


def _projected_stats(edges):
    from dpworkbench.graphs import from_edge_array

    und, _ = E.simple_graph_on(edges, N_NODES)
    g = from_edge_array(E.project_max_degree(und, N_NODES, CLI_BOUND)[0], n=N_NODES)
    e, d = E.ebc_all(g, cache=True, disk=False), np.asarray(g.degrees, np.int64)
    out = {f"ebc[{v}]": x for v, x in enumerate(e)}
    out.update({f"sld[{v}]": x for v, x in enumerate(E.sld_scores(e, d, max_degree_bound=CLI_BOUND))})
    out.update({f"D[{v}]": x for v, x in enumerate(E.ld_scores(e, d, max_degree_bound=CLI_BOUND))})
    return out


def _projected_sens():
    # project_max_degree's proof: one raw edge changes ≤ 3 projected edges, each a degree-≤D edge-DP step
    stab = E.PROJECTION_STABILITY
    sens = {f"ebc[{v}]": stab * E.global_sensitivity_ebc(CLI_BOUND) for v in range(N_NODES)}
    sens.update({f"{n}[{v}]": float(stab) for v in range(N_NODES) for n in ("sld", "D")})
    return sens


def _topk_graph_api(method):
    def release(edges, rng):
        got = E.priv_top_k_graph(edges, N_NODES, K, epsilon=EPS, method=method, max_degree_bound=CLI_BOUND,
                                 rng=rng).value
        return {f"node_{j + 1}": float(v) for j, v in enumerate(got)}
    return EntryPoint(
        name=f"dampening.ebc.priv_top_k_graph(method={method!r})", kind="api", paper="dampening", relation=E.RELATION,
        claimed_epsilon=ledger_epsilon(E.privacy_cost_topk(EPS, K, method)),
        public_inputs=("num_nodes", "k", "epsilon", "method", "max_degree_bound"),
        make_inputs=_graph_inputs, neighbours=_raw_edge_neighbours, statistics=_projected_stats,
        sensitivities=_projected_sens(), release=release, tests="tests/privacy/test_harness_dampening.py",
        n_samples=2000, note="raw graphs above the degree bound are projected (stable rule, ≤ 3 edges per edge)")


def _generic_api(kind):
    f = local_dampening if kind == "LD" else shifted_local_dampening

    def release(edges, rng):
        e, d = _ebc_deg(edges)
        sm = E.ebc_sensitivity(BOUND, horizon=BOUND).matrix(d)
        return float(f(e, sm, epsilon=EPS, rng=rng).value)
    from .mechanisms import privacy_cost_selection

    return EntryPoint(
        name=f"dampening.{f.__name__}(EBC utilities, δ^EBC)", kind="api", paper="dampening", relation=E.RELATION,
        claimed_epsilon=ledger_epsilon(privacy_cost_selection(EPS)),
        public_inputs=("candidate set", "epsilon", "global_sensitivity", "horizon"),
        make_inputs=_graph_inputs, neighbours=_edge_toggles, statistics=_ebc_stats(kind), sensitivities=_ebc_sens(kind),
        release=release, tests="tests/privacy/test_harness_dampening.py", n_samples=3000)


@functools.cache
def _nodes_file() -> Path:
    p = _tmpdir() / "nodes.txt"
    p.write_text("\n".join(str(v) for v in range(N_NODES)) + "\n")
    return p


# The topk CLI starts from bytes: edge-list texts whose neighbours add or remove one line at any position — an edge
# (new, repeated, reversed), a self-loop, a line naming a node outside --nodes, a header, a malformed line.
def _edge_text_inputs(rng):
    out = []
    for j, e in enumerate(_graph_inputs(rng)):
        lines = [f"{a} {b}" if (a + b) % 2 else f"{b},{a}" for a, b in e.tolist()]
        out.append(("src dst\n" if j == 0 else "# a comment\n") + "\n".join(lines) + "\n")
    return out


_HOSTILE_EDGE_LINES = ("3 3", "0 9", "9 0", "7 8", "x y", "1.5 2", "", "# c", "-1 2", "2 1 0.5",
                       "99999999999999999999 1", "\ufffd 1", '"0",1')


def _edge_line_neighbours(text):
    lines = text.split("\n")[:-1]
    extra = [f"{a} {b}" for a, b in combinations(range(N_NODES), 2)] + [f"{b} {a}" for a, b in ((0, 1), (2, 4))]
    extra += list(_HOSTILE_EDGE_LINES) + lines[1:2]  # a repeated line
    for i in range(len(lines)):  # one line removed
        yield "\n".join(lines[:i] + lines[i + 1:]) + "\n"
    for x in dict.fromkeys(extra):  # one line added at every position
        for pos in range(len(lines) + 1):
            yield "\n".join(lines[:pos] + [x] + lines[pos:]) + "\n"


def _topk_cli_argv(text):
    return ["dampening", "topk", str(_file_for(text, ".txt")), "--nodes", str(_nodes_file()), "--k", str(K),
            "--max-degree-bound", str(CLI_BOUND), "--epsilon", str(EPS)]


def _topk_cli():
    def release(text, rng):
        out = _run_cli(_topk_cli_argv(text) + ["--seed", str(_seed_of(rng)), "--json"])
        return {f"node_{j + 1}": float(v) for j, v in enumerate(out["private"]["nodes"])}

    def stats(text):
        exact = _run_cli(_topk_cli_argv(text) + ["--seed", "0", "--json", "--show-exact", "--dump-scores"])
        # the real command's reader, projection and scores
        inp = exact["NOT_PRIVATE"]["input"]
        out = {f"ebc[{v}]": float(x) for v, x in enumerate(inp["ebc"])}
        out.update({f"sld[{v}]": float(x) for v, x in enumerate(inp["scores"])})
        out.update({f"D[{v}]": float(x) for v, x in enumerate(inp["ld_scores"])})
        out["num_nodes"] = float(len(inp["ebc"]))
        return out

    sens = dict(_projected_sens(), num_nodes=0.0)
    return EntryPoint(
        name="dpworkbench dampening topk", kind="cli", paper="dampening", relation=E.RELATION,
        claimed_epsilon=ledger_epsilon(E.privacy_cost_topk(EPS, K, "SLD")),
        public_inputs=("--nodes", "--k", "--epsilon", "--mechanism", "--max-degree-bound"),
        make_inputs=_edge_text_inputs, neighbours=_edge_line_neighbours, statistics=stats, sensitivities=sens,
        release=release, n_samples=1000, tests="tests/privacy/test_harness_dampening.py",
        note="file-level: one edge line added or removed at any position; graphs above the bound are projected")


# ------------------------------------------------------------------ ID3 (add/remove one row)
def _id3_inputs(rng):
    import pandas as pd

    return [pd.DataFrame({"a0": rng.integers(0, 2, n), "a1": rng.integers(0, 2, n), "y": rng.integers(0, 2, n)})
            for n in (5, 6)]


def _id3_universe():
    import pandas as pd

    rows = [(a, b, c) for a in range(2) for b in range(2) for c in range(2)]
    return pd.DataFrame(rows, columns=["a0", "a1", "y"])


def _id3_xy(df):
    """The rows fit grows its tree on (its own public rule: domain filter, the first N rows)."""
    X, y = df[["a0", "a1"]].to_numpy(np.int64), df["y"].to_numpy(np.int64)
    return I.rows_used(X, y, ID3_DOMAINS, 2, ID3_BOUND)[:2]


def _id3_stats(method):
    def stats(df):
        X, y = _id3_xy(df)
        gs = I.delta_ig_global(ID3_BOUND)
        out = {"count": float(len(df))}
        out.update({f"class[{c}]": float((y == c).sum()) for c in range(2)})
        for a in range(2):
            for v in range(2):
                m = X[:, a] == v
                out[f"count[a{a}={v}]"] = float(m.sum())
                out.update({f"class[a{a}={v},{c}]": float((y[m] == c).sum()) for c in range(2)})
        cnts = I.contingencies(X, y, [0, 1], ID3_DOMAINS, 2)
        u = I.utilities_ig(cnts)
        out.update({f"u_ig[{a}]": u[a] for a in range(2)})
        dm = I.ig_delta_matrix(cnts, gs, 1024)
        out.update({f"u_by_delta0[{a}]": u[a] for a in range(2)})
        if method == "Local":
            out.update({f"D[{a}]": s for a, s in enumerate(dampen(u, dm))})
        if method == "Shifted":
            out.update({f"sld[{a}]": s for a, s in enumerate((u - sld_slack(dm)) / gs)})
        return out
    return stats


def _id3_sens(method):
    def sens(df):
        X, y = _id3_xy(df)
        gs = I.delta_ig_global(ID3_BOUND)
        cnts = I.contingencies(X, y, [0, 1], ID3_DOMAINS, 2)
        dm = I.ig_delta_matrix(cnts, gs, 1024).values
        # Rows beyond N are cut (fit's rule): a raw add/remove is ≤ 2 add/remove steps of the rows used (through a
        # data set of ≤ N rows), so every one-step bound doubles — what fit calibrates to (stab = 2). A single count
        # still moves by ≤ 1 (the two steps remove one row and add another).
        out = {k: 1.0 for k in _id3_stats("Global")(df) if k.startswith(("count", "class"))}
        out.update({f"u_ig[{a}]": 2 * gs for a in range(2)})
        out.update({f"u_by_delta0[{a}]": float(dm[a, 0] + dm[a, 1]) for a in range(2)})
        if method != "Global":
            out.update({f"{'D' if method == 'Local' else 'sld'}[{a}]": 2.0 for a in range(2)})
        return out
    return sens


def _id3_api(method, budget=2.0, depth=1):
    points = np.array([[a, b] for a in range(2) for b in range(2)])

    def release(df, rng):
        X, y = df[["a0", "a1"]].to_numpy(np.int64), df["y"].to_numpy(np.int64)  # all rows: fit applies its rule
        tree = I.fit(X, y, ID3_DOMAINS, 2, depth=depth, budget=budget, method=method, n_bound=ID3_BOUND, rng=rng).value
        pred = I.predict(tree, points)
        out = {"root_attribute": float(-1 if tree.attr is None else tree.attr)}
        out.update({f"predict{tuple(p)}": float(v) for p, v in zip(points.tolist(), pred)})
        return out
    return EntryPoint(
        name=f"dampening.id3.fit(method={method!r})", kind="api", paper="dampening", relation=I.RELATION,
        claimed_epsilon=ledger_epsilon(I.privacy_cost(budget, depth, method)),
        public_inputs=("domains", "n_classes", "depth", "budget", "n_bound", "horizon", "method", "criterion"),
        make_inputs=_id3_inputs, neighbours=lambda df: row_neighbours(df, _id3_universe()),
        statistics=_id3_stats(method), sensitivities=_id3_sens(method), release=release, n_samples=2000,
        tests="tests/privacy/test_harness_dampening.py")


# Public functions that take ε but release nothing themselves (checked by tests/privacy/test_harness_table.py).
EXEMPT = {
    "ld_logits": "pure log-weights ε·D/2 of local dampening; the sampling entry points (local_dampening, "
                 "select_median, priv_top_k) are in the harness",
    "sld_logits": "pure closed-form log-weights of shifted LD; shifted_local_dampening is in the harness",
    "sld_logits_explicit_shift": "the thesis' explicit-shift log-weights, kept only to test the closed form; "
                                 "samples nothing",
}


def entry_points() -> list[EntryPoint]:
    """Every public release entry point of the local-dampening paper."""
    return ([_median_api(m) for m in M.MECHANISMS]
            + [_percentile_api(m) for m in Q.MECHANISMS]
            + [_generic_api("LD"), _generic_api("SLD")]
            + [_topk_api(m) for m in E.METHODS]
            + [_topk_graph_api(m) for m in ("EM", "SLD")]
            + [_id3_api(m) for m in I.METHODS]
            + [_median_cli(), _percentile_cli(), _topk_cli()])


__all__ = ["entry_points"]
