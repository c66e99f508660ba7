"""``dpworkbench dampening median|topk ...`` — local-dampening releases from the command line.

* ``dpworkbench dampening median CSV --column C --upper U [--lower L] [--mechanism EM|PF|LD|SLD] [--epsilon E] [--seed S] [--json]``:
  private median *element* (row) of a numeric column (Ch. 5). Values are clipped to the public range [L, U]
  (Λ = U − L). LD/SLD use the corrected distance-0 element LS and the admissible box bound (spec §3.3–3.4).
* ``dpworkbench dampening topk EDGES --k K [--mechanism ...] [--epsilon E] [--max-degree-bound D] [--seed S] [--json]``:
  private top-k nodes by egocentric betweenness (PrivTopk, Ch. 6); ε/k per draw, edge-DP.

Each command spends exactly ``--epsilon`` (printed). Without ``--seed`` the OpenDP release back-end draws the
noise; with ``--seed`` the noise is seeded (research only, not a private release).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def _backend(seed):
    import numpy as np

    from dpworkbench.mechanisms import release_backend

    return np.random.default_rng(seed) if seed is not None else release_backend()


def _note(seed) -> str:
    return "seeded noise: research only, not a private release" if seed is not None else "release back-end (OpenDP), unseeded"


def _median(args: argparse.Namespace) -> int:
    import numpy as np
    import pandas as pd

    from dpworkbench._validation import check_epsilon
    from dpworkbench.accounting import Accountant
    from dpworkbench.mechanisms import exponential_mechanism, permute_and_flip

    from . import median as M
    from .core import local_dampening, shifted_local_dampening

    path = Path(args.csv)
    if not path.exists():
        raise ValueError(f"CSV file not found: {path}")
    eps = check_epsilon(args.epsilon, "--epsilon")
    df = pd.read_csv(path)
    if args.column not in df.columns:
        raise ValueError(f"column {args.column!r} not in {path} (columns: {', '.join(map(str, df.columns))})")
    col = pd.to_numeric(df[args.column], errors="coerce")
    if col.isna().any():
        raise ValueError(f"column {args.column!r} has {int(col.isna().sum())} missing or non-numeric values")
    if not args.upper > args.lower:
        raise ValueError("--upper must be larger than --lower (public domain bounds)")
    lam = float(args.upper - args.lower)
    x = np.clip(col.to_numpy(float), args.lower, args.upper) - args.lower
    u = M.median_utility(x, lam)
    acc = Accountant(eps)
    rng = _backend(args.seed)
    mech = args.mechanism
    if mech == "EM":
        i = exponential_mechanism(u, epsilon=eps, sensitivity=lam, rng=rng, accountant=acc, note="median EM")
    elif mech == "PF":
        i = permute_and_flip(u, epsilon=eps, sensitivity=lam, rng=rng, accountant=acc, note="median PF")
    else:
        sm = M.median_sensitivity(lam, delta="box").with_floor(min(1.0, lam)).with_horizon(args.horizon).matrix(x)
        f = local_dampening if mech == "LD" else shifted_local_dampening
        i = f(u, sm, epsilon=eps, rng=rng, accountant=acc, note=f"median {mech}")
    i = int(i)
    out = {"mechanism": mech, "row": i, "value": float(col.iloc[i]), "epsilon_spent": float(acc.spent),
           "n": int(x.size), "lambda": lam, "noise": _note(args.seed)}
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{path}: column {args.column!r}, n = {x.size}, public range [{args.lower}, {args.upper}] (Λ = {lam:g})")
    print(f"{mech} median selection: row {i}, value {out['value']:g}   [ε spent: {out['epsilon_spent']:g}; {out['noise']}]")
    return 0


def _read_graph(path: Path):
    import numpy as np

    from dpworkbench.graphs import from_edge_array, load_edge_list

    g = load_edge_list(path)  # validates the file; relabels densely
    # original ids, in the same dense order as load_edge_list (np.unique of the ids)
    import pandas as pd

    with path.open() as fh:
        first = next((ln for ln in fh if ln.strip() and not ln.startswith("#")), "")
    sep = "," if "," in first else r"\s+"
    has_header = not first.replace(",", " ").split()[0].lstrip("-").isdigit()
    raw = pd.read_csv(path, sep=sep, comment="#", header=0 if has_header else None, usecols=[0, 1]).to_numpy()
    ids, inv = np.unique(raw.ravel(), return_inverse=True)
    g2 = from_edge_array(inv.reshape(-1, 2), n=ids.size)
    assert g2.num_nodes == g.num_nodes
    return g2, ids


def _topk(args: argparse.Namespace) -> int:
    from dpworkbench._validation import check_epsilon
    from dpworkbench.accounting import Accountant

    from . import ebc as E

    path = Path(args.edges)
    if not path.exists():
        raise ValueError(f"edge list not found: {path}")
    eps = check_epsilon(args.epsilon, "--epsilon")
    g, ids = _read_graph(path)
    if args.k > g.num_nodes:
        raise ValueError(f"--k {args.k} is larger than the number of nodes ({g.num_nodes})")
    e = E.ebc_all(g)  # cached on disk by graph hash
    deg = g.degrees
    bound = args.max_degree_bound if args.max_degree_bound is not None else int(deg.max())
    acc = Accountant(eps)
    got = E.priv_top_k(e, deg, args.k, epsilon=eps, method=args.mechanism, max_degree_bound=bound, rng=_backend(args.seed),
                       accountant=acc)
    nodes = [ids[v].item() for v in got]
    out = {"mechanism": args.mechanism, "k": args.k, "nodes": nodes, "epsilon_spent": float(acc.spent),
           "epsilon_per_draw": eps / args.k, "max_degree_bound": bound, "delta_ebc": E.global_sensitivity_ebc(bound),
           "num_nodes": int(g.num_nodes), "num_edges": int(g.num_edges), "noise": _note(args.seed),
           "max_degree_bound_note": "assumed public (as in the thesis)" if args.max_degree_bound is None else "given"}
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{path}: {g.num_nodes} nodes, {g.num_edges} edges; ΔEBC = {out['delta_ebc']:,.1f} (max-degree bound {bound}, "
          f"{out['max_degree_bound_note']})")
    print(f"{args.mechanism}PrivTopk k={args.k}: {nodes}   [ε spent: {out['epsilon_spent']:g} = {args.k} × {eps / args.k:g}; {out['noise']}]")
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser("dampening", help="local dampening: private median element of a CSV column, private top-k EBC nodes")
    sub = p.add_subparsers(dest="dampening_cmd", required=True)
    m = sub.add_parser("median", help="private median element (row) of a numeric CSV column")
    m.add_argument("csv")
    m.add_argument("--column", required=True)
    m.add_argument("--upper", type=float, required=True, help="public upper bound of the column's values")
    m.add_argument("--lower", type=float, default=0.0, help="public lower bound (default 0)")
    m.add_argument("--mechanism", choices=["EM", "PF", "LD", "SLD"], default="LD")
    m.add_argument("--epsilon", type=float, default=1.0)
    m.add_argument("--horizon", type=int, default=32, help="public horizon T of δ (δ = Λ beyond it)")
    m.add_argument("--seed", type=int, default=None, help="seed for reproducible (non-release) noise")
    m.add_argument("--json", action="store_true")
    m.set_defaults(func=_median)
    t = sub.add_parser("topk", help="private top-k nodes by egocentric betweenness (PrivTopk)")
    t.add_argument("edges", help="edge list (SNAP text or CSV with a header)")
    t.add_argument("--k", type=int, default=5)
    t.add_argument("--mechanism", choices=["EM", "PF", "LD", "SLD"], default="SLD")
    t.add_argument("--epsilon", type=float, default=1.0, help="total budget B (ε/k per draw)")
    t.add_argument("--max-degree-bound", type=int, default=None, help="public max-degree bound (default: the true max, assumed public)")
    t.add_argument("--seed", type=int, default=None)
    t.add_argument("--json", action="store_true")
    t.set_defaults(func=_topk)
