"""Exact (non-private) inconsistency measures on a conflict graph (Definition 1, Table 2).

I_D, I_MI (edges), I_P (non-isolated nodes), I_R exact (MILP, HiGHS; small graphs), its LP relaxation
I_R^lin (exact, solver-free: half a maximum matching of the bipartite double cover; and a HiGHS LP
for checking), the greedy 2-approximation, and I_MC (number of maximal independent sets; tiny graphs).
With ``unary_policy="separate"`` graphs, |U| (tuples violating a single-tuple DC) is added (spec §1.3).
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

from . import _kernels as K
from .conflict_graph import ConflictGraph

MAX_EXACT_IR_NODES = 2000
MAX_EXACT_IR_EDGES = 20000
MAX_IMC_NODES = 40


def _u(g: ConflictGraph) -> int:
    return int(g.unary.size)


def i_d(g: ConflictGraph) -> int:
    """Drastic measure: 1 iff the database violates Σ (the paper prints it reversed; spec §7.2)."""
    return int(g.num_edges > 0 or _u(g) > 0)


def i_mi(g: ConflictGraph) -> int:
    return _u(g) + g.num_edges


def i_p(g: ConflictGraph) -> int:
    return _u(g) + int(np.count_nonzero(g.degrees()))


def i_r_lin(g: ConflictGraph) -> float:
    """LP relaxation of minimum vertex cover = |maximum matching of the bipartite double cover| / 2."""
    from scipy.sparse.csgraph import maximum_bipartite_matching

    if g.num_edges == 0:
        return float(_u(g))
    n = g.n
    rows = np.concatenate([g.u, g.v])
    cols = np.concatenate([g.v, g.u])
    a = sp.csr_matrix((np.ones(rows.size, dtype=np.int8), (rows, cols)), shape=(n, n))
    match = maximum_bipartite_matching(a, perm_type="column")
    return _u(g) + float(np.count_nonzero(match >= 0)) / 2.0


def i_r_lin_lp(g: ConflictGraph) -> float:
    """The same LP solved by HiGHS (scipy.optimize.linprog); for checking i_r_lin."""
    from scipy.optimize import linprog

    if g.num_edges == 0:
        return float(_u(g))
    m, n = g.num_edges, g.n
    rows = np.repeat(np.arange(m), 2)
    cols = np.stack([g.u, g.v], axis=1).ravel()
    a = sp.csr_matrix((-np.ones(2 * m), (rows, cols)), shape=(m, n))
    res = linprog(np.ones(n), A_ub=a, b_ub=-np.ones(m), bounds=(0, 1), method="highs")
    if not res.success:
        raise RuntimeError(f"HiGHS LP failed: {res.message}")
    return _u(g) + float(res.fun)


ENUMERATE_MAX_NODES = 12


def _min_cover_by_enumeration(a: np.ndarray, b: np.ndarray, k: int) -> int:
    """τ of a graph on k ≤ ENUMERATE_MAX_NODES nodes: the smallest subset (bitmask) touching every edge."""
    masks = np.arange(1 << k, dtype=np.int64)
    ok = np.ones(masks.size, dtype=bool)
    for x, y in zip(a.tolist(), b.tolist()):
        ok &= ((masks >> x) & 1 | (masks >> y) & 1).astype(bool)
    sizes = ((masks[:, None] >> np.arange(k)) & 1).sum(axis=1)
    return int(sizes[ok].min())


def i_r_exact(g: ConflictGraph, *, max_nodes: int = MAX_EXACT_IR_NODES, max_edges: int = MAX_EXACT_IR_EDGES,
              method: str = "auto") -> int:
    """Minimum vertex cover size τ(G) by MILP (HiGHS). NP-hard: refuses graphs above the size guards.

    ``method``: "milp" (HiGHS), "enumerate" (all subsets; at most 12 non-isolated nodes) or "auto" (enumeration
    for ≤ 12 non-isolated nodes — ~1000× faster there, used by the brute-force sensitivity sweeps — else MILP)."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    if method not in ("auto", "milp", "enumerate"):
        raise ValueError(f"method must be 'auto', 'milp' or 'enumerate', got {method!r}")
    deg = g.degrees()
    active = np.flatnonzero(deg > 0)
    if active.size > max_nodes or g.num_edges > max_edges:
        raise ValueError(f"I_R exact is NP-hard: {active.size} non-isolated nodes / {g.num_edges} edges exceed the guard "
                         f"({max_nodes} nodes, {max_edges} edges); use i_r_lin (LP, I_R^lin ≤ I_R ≤ 2·I_R^lin)")
    if g.num_edges == 0:
        return _u(g)
    idx = -np.ones(g.n, np.int64)
    idx[active] = np.arange(active.size)
    m, k = g.num_edges, active.size
    if method == "enumerate" or (method == "auto" and k <= ENUMERATE_MAX_NODES):
        if k > ENUMERATE_MAX_NODES:
            raise ValueError(f"method='enumerate' handles at most {ENUMERATE_MAX_NODES} non-isolated nodes, got {k}")
        return _u(g) + _min_cover_by_enumeration(idx[g.u], idx[g.v], k)
    rows = np.repeat(np.arange(m), 2)
    cols = np.stack([idx[g.u], idx[g.v]], axis=1).ravel()
    a = sp.csr_matrix((np.ones(2 * m), (rows, cols)), shape=(m, k))
    res = milp(np.ones(k), constraints=LinearConstraint(a, lb=1, ub=np.inf), integrality=np.ones(k), bounds=Bounds(0, 1))
    if not res.success:
        raise RuntimeError(f"HiGHS MILP failed: {res.message}")
    return _u(g) + int(round(res.fun))


def i_r_2approx(g: ConflictGraph, *, rule: str = "lex", seed: int = 0) -> int:
    """Both endpoints of a greedy maximal matching in a stable order (Algorithm 5 before noise)."""
    from .projection import order_edges

    u, v = order_edges(g.u, g.v, rule=rule, seed=seed, n=g.n, identity=g.identity)
    return _u(g) + int(K.greedy_cover(u, v, g.n))


def i_mc(g: ConflictGraph, *, max_nodes: int = MAX_IMC_NODES) -> int:
    """Number of maximal consistent subsets = maximal independent sets (#P-complete; tiny graphs only)."""
    import networkx as nx

    if g.unary.size:
        raise ValueError("i_mc is defined here for pairwise DCs only")
    if g.n > max_nodes:
        raise ValueError(f"I_MC is #P-complete: n={g.n} exceeds the guard of {max_nodes} nodes")
    comp = nx.complement(g.to_networkx())
    return sum(1 for _ in nx.find_cliques(comp)) if g.n else 1


def max_maximal_independent_sets(n: int) -> int:
    """Moon–Moser / Griggs et al.: the largest number of maximal independent sets of an n-vertex graph."""
    if n < 2:
        return 1
    q, r = divmod(n, 3)
    return 3**q if r == 0 else (4 * 3 ** (q - 1) if r == 1 else 2 * 3**q)


def all_measures(g: ConflictGraph, *, exact_ir: bool | None = None) -> dict:
    """I_D, I_MI, I_P, I_R^lin, 2·I_R^lin, max degree and (when tractable) I_R exact."""
    out = {"n": g.n, "edges": g.num_edges, "max_degree": g.max_degree(), "I_D": i_d(g), "I_MI": i_mi(g), "I_P": i_p(g)}
    out["I_R_lin"] = i_r_lin(g)
    out["I_R_2approx"] = i_r_2approx(g)
    want = exact_ir if exact_ir is not None else (g.num_edges <= MAX_EXACT_IR_EDGES and int(np.count_nonzero(g.degrees())) <= MAX_EXACT_IR_NODES)
    out["I_R_exact"] = i_r_exact(g) if want else None
    return out


__all__ = ["all_measures", "i_d", "i_mc", "i_mi", "i_p", "i_r_2approx", "i_r_exact", "i_r_lin", "i_r_lin_lp",
           "max_maximal_independent_sets"]
