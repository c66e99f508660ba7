"""``dpworkbench inconsistency CSV --dcs FILE [--epsilon E] [--seed S] [--json]``.

Reports the conflict graph's size and maximum degree, the exact measures (I_MI, I_P, I_R^lin and I_R exact
when tractable) and DP estimates of I_MI, I_P (Algorithm 2 + 4) and I_R (Algorithm 5). The total budget
``--epsilon`` is split equally over the three releases; the ε spent per step is printed. Without ``--seed`` the
noise comes from :func:`dpworkbench.mechanisms.release_backend` (OpenDP samplers, OS entropy); with ``--seed`` it is
reproducible research noise, not a private release.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def _run(args: argparse.Namespace) -> int:
    import numpy as np
    import pandas as pd

    from .algorithms import dp_vertex_cover, graph_projection
    from .conflict_graph import build
    from .constraints import load_dcs
    from .measures import all_measures
    from .projection import Projector
    from .._validation import check_epsilon

    path = Path(args.csv)
    if not path.exists():
        raise ValueError(f"CSV file not found: {path}")
    eps = check_epsilon(args.epsilon, "--epsilon")
    df = pd.read_csv(path)
    dcs = load_dcs(args.dcs, columns=list(df.columns))
    g = build(df, dcs, engine=args.engine, null_policy=args.null_policy, unary_policy=args.unary_policy)
    m = all_measures(g)
    if args.seed is None:  # an actual release: OpenDP's floating-point-safe samplers from OS entropy
        from ..mechanisms import release_backend

        rng = release_backend()
    else:
        rng = np.random.default_rng(args.seed)
    per = eps / 3
    proj = Projector(g, rule="rank", seed=args.seed or 0)
    dp = {}
    for key, meas in (("I_MI", "MI"), ("I_P", "P")):
        r = graph_projection(g, meas, per, strategy="bound_hier", df=df, dcs=dcs, projector=proj, rng=rng)
        dp[key] = {"estimate": r["output"], "theta_star": r["theta_star"], "eps_per_step": r["eps_per_step"]}
    r = dp_vertex_cover(g, per, rng=rng, order_seed=args.seed or 0)
    dp["I_R"] = {"estimate": r["output"], "estimates": "size of a 2-approximate vertex cover (≈ 2·I_R)", "eps_per_step": r["eps_per_step"]}
    dp["epsilon_total"] = eps
    dp["note"] = ("seeded noise is for research; not a private release" if args.seed is not None
                  else "release back-end (OpenDP samplers, OS entropy)")
    out = {"n": g.n, "edges": g.num_edges, "unary_violators": int(g.unary.size), "max_degree": g.max_degree(), "I_MI": m["I_MI"], "I_P": m["I_P"],
           "I_R_lin": m["I_R_lin"], "I_R_exact": m["I_R_exact"], "dp": dp}
    if args.json:
        print(json.dumps(out, default=float))
        return 0
    print(f"table {path} — {g.n} tuples, {len(dcs)} constraints ({sum(d.is_fd_like for d in dcs)} FD-like)")
    print(f"conflict graph: {g.num_edges} edges, max degree {g.max_degree()}, built in {g.seconds:.3f}s")
    print(f"exact: I_MI={m['I_MI']}  I_P={m['I_P']}  I_R^lin={m['I_R_lin']}  I_R exact={m['I_R_exact'] if m['I_R_exact'] is not None else 'intractable (skipped)'}")
    print(f"DP estimates (total ε={eps}, ε/3 per measure):")
    for k in ("I_MI", "I_P", "I_R"):
        steps = ", ".join(f"{s}={v:.4g}" for s, v in dp[k]["eps_per_step"].items())
        print(f"  {k}: {dp[k]['estimate']:.2f}   [ε per step: {steps}]")
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser("inconsistency", help="conflict graph, inconsistency measures and their DP estimates for a CSV")
    p.add_argument("csv", help="table (CSV with a header)")
    p.add_argument("--dcs", required=True, help="denial constraints, one per line (not(t1.A=t2.A&...) or t1&t2&EQ(...))")
    p.add_argument("--epsilon", type=float, default=1.0, help="total privacy budget, split over the three measures (default 1)")
    p.add_argument("--seed", type=int, default=None, help="seed for reproducible (non-release) noise")
    p.add_argument("--engine", choices=["fast", "duckdb", "bruteforce"], default="fast")
    p.add_argument("--null-policy", choices=["sql", "artifact"], default="sql",
                   help="sql: a NULL in an attribute a DC mentions never violates it (default); artifact: any NULL column excludes the tuple")
    p.add_argument("--unary-policy", choices=["reject", "separate"], default="reject",
                   help="single-tuple DCs such as not(t1.Age<0): reject (default) or count their violators separately (spec §1.3)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_run)
