"""Local dampening's public release entry points for the privacy harness (:mod:`dpworkbench.testing.harness`).

One entry per public release API function (``local_dampening``, ``shifted_local_dampening``, ``select_median``,
``priv_top_k``, ``id3.fit``) and per CLI subcommand (``dpworkbench dampening median|topk``, run in-process with
``--seed <int> --json`` on small files written once per input). Each entry states its neighbouring relation at the
user's input level:

* median selection — substitution: one row's value replaced (n and the positions fixed; the thesis' model);
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
from dpworkbench.testing.harness import EntryPoint, InProcessCLI, row_neighbours, scratch_dir

from . import ebc as E
from . import id3 as I
from . import median as M
from .mechanisms import local_dampening, shifted_local_dampening
from .model import dampen, sld_slack

LAM = 6            # public range [0, 6] of the small median inputs
EPS = 1.0
N_NODES = 6        # fixed public node set 0..5 of the small graphs
BOUND = N_NODES - 1  # public max-degree bound (valid for every graph on 6 nodes)
K = 2
ID3_BOUND = 40     # public size bound N behind ΔIG
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


def _csv_for(x) -> Path:
    key = "m_" + "_".join(map(str, np.asarray(x).tolist()))
    p = _tmpdir() / f"{key}.csv"
    if not p.exists():
        p.write_text("val\n" + "\n".join(str(int(v)) for v in x) + "\n")
    return p


@functools.cache  # the parser is built once per process
def _cli() -> InProcessCLI:
    from .cli import register

    return InProcessCLI(register)


def _run_cli(argv) -> dict:
    """Parse ``argv`` with the real parser, run the subcommand's handler in-process, parse its ``--json`` output."""
    return _cli()(argv)


def _median_cli():
    def release(x, rng):
        seed = int(rng) if isinstance(rng, (int, np.integer)) else int(np.random.default_rng(rng).integers(2**31))
        out = _run_cli(["dampening", "median", str(_csv_for(x)), "--column", "val", "--upper", str(LAM),
                        "--epsilon", str(EPS), "--seed", str(seed), "--json"])
        return float(out["private"]["row"])
    return EntryPoint(
        name="dpworkbench dampening median", kind="cli", paper="dampening", relation=M.RELATION,
        claimed_epsilon=ledger_epsilon(M.privacy_cost_median(EPS, "LD")),
        public_inputs=("--lower", "--upper", "n", "--horizon", "--mechanism", "--epsilon"),
        make_inputs=_median_inputs, neighbours=_substitutions, statistics=_median_stats("LD"),
        sensitivities=_median_sens("LD"), release=release, n_samples=1000,
        tests="tests/privacy/test_harness_dampening.py")


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


def _graph_files(edges) -> tuple[Path, Path]:
    key = "g_" + "_".join(f"{a}-{b}" for a, b in np.asarray(edges).tolist())
    p, nodes = _tmpdir() / f"{key}.txt", _tmpdir() / "nodes.txt"
    if not nodes.exists():
        nodes.write_text("\n".join(str(v) for v in range(N_NODES)) + "\n")
    if not p.exists():
        p.write_text("\n".join(f"{a} {b}" for a, b in np.asarray(edges).tolist()) + "\n")
    return p, nodes


def _topk_cli():
    def release(edges, rng):
        seed = int(rng) if isinstance(rng, (int, np.integer)) else int(np.random.default_rng(rng).integers(2**31))
        p, nodes = _graph_files(edges)
        out = _run_cli(["dampening", "topk", str(p), "--nodes", str(nodes), "--k", str(K), "--max-degree-bound",
                        str(BOUND), "--epsilon", str(EPS), "--seed", str(seed), "--json"])
        return {f"node_{j + 1}": float(v) for j, v in enumerate(out["private"]["nodes"])}
    return EntryPoint(
        name="dpworkbench dampening topk", kind="cli", paper="dampening", relation=E.RELATION,
        claimed_epsilon=ledger_epsilon(E.privacy_cost_topk(EPS, K, "SLD")),
        public_inputs=("--nodes", "--k", "--epsilon", "--mechanism", "--max-degree-bound"),
        make_inputs=_graph_inputs, neighbours=_edge_toggles, statistics=_ebc_stats("SLD"), sensitivities=_ebc_sens("SLD"),
        release=release, n_samples=1000, tests="tests/privacy/test_harness_dampening.py")


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
    return df[["a0", "a1"]].to_numpy(np.int64), df["y"].to_numpy(np.int64)


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
        d0 = I.ig_delta_matrix(cnts, gs, 1024).values[:, 0]
        out = {k: 1.0 for k in _id3_stats("Global")(df) if k.startswith(("count", "class"))}
        out.update({f"u_ig[{a}]": gs for a in range(2)})
        out.update({f"u_by_delta0[{a}]": float(d0[a]) for a in range(2)})
        if method != "Global":
            out.update({f"{'D' if method == 'Local' else 'sld'}[{a}]": 1.0 for a in range(2)})
        return out
    return sens


def _id3_api(method, budget=2.0, depth=1):
    points = np.array([[a, b] for a in range(2) for b in range(2)])

    def release(df, rng):
        X, y = _id3_xy(df)
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
            + [_generic_api("LD"), _generic_api("SLD")]
            + [_topk_api(m) for m in E.METHODS]
            + [_id3_api(m) for m in I.METHODS]
            + [_median_cli(), _topk_cli()])


__all__ = ["entry_points"]
