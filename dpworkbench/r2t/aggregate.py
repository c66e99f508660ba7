"""Q2- (length-2 paths) truncated without enumerating the paths (issue 27, item 3): aggregated counting.

A length-2 path a–b–c (centre b, ψ = 1, D_j = {a, b, c}) only matters to the reduced LP of τ
(:mod:`dpworkbench.r2t.reduce`) through its *heavy support* D_j ∩ H, H = {i : S_i > τ}: columns with the same
support are merged into one column whose bound is the number of paths with that support, and paths with no
heavy node are fixed. Those numbers follow from per-node counts, with L_x = the number of light neighbours of x:

* S_x = C(d_x, 2) + Σ_{b ~ x} (d_b − 1) (centre of C(d_x, 2) paths, end of d_b − 1 paths through each neighbour b);
  Q(I) = Σ_b C(d_b, 2); DS = max S.
* no heavy node (fixed): Σ_{b light} C(L_b, 2);
* support {x}, x heavy: C(L_x, 2) (x the centre, both ends light) + Σ_{b ~ x, b light} L_b (x an end, light centre
  b and light other end — it is not x, x being heavy);
* support {x, y}, both heavy: [x ~ y] (L_x + L_y) (one of them the centre, the other end light) + the number of
  light common neighbours (a light centre);
* support {a, b, c}, all heavy: the paths among heavy nodes themselves (a triangle gives three paths on one set).

Only the last two kinds are enumerated (numba, over heavy neighbours only), so the work and memory are those of
the *reduced* LP, not of the M = Σ C(d, 2) paths: GitHub's 127 M paths are never materialised. The supports and
weights go through the same merge as the enumerated reduction (:func:`dpworkbench.r2t.reduce.merge_supports`),
so the reduced LP is the same — same columns, same order, same integer bounds — and HiGHS returns the same float
(tests/r2t/test_aggregate.py checks the reduced LPs array by array and the seeded R2T outputs with ==).

Small τ make almost every node heavy; then the heavy–heavy–heavy paths are nearly all paths and the reduced LP is
as large as the enumerated one (this module does not make that LP smaller, only avoids building the full join).

References
----------
Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §5.1 (LP truncation), §10 (Q2-); spec 2.4.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..graphs import CSRGraph
from .model import SolverError, Truncation, check_tau
from .reduce import ReducedLP, merge_supports


@njit(cache=True, nogil=True)
def _path2_s(indptr, indices):
    n = indptr.size - 1
    deg = np.diff(indptr)
    s = np.zeros(n, np.float64)
    for x in range(n):
        d = deg[x]
        acc = d * (d - 1) // 2
        for k in range(indptr[x], indptr[x + 1]):
            acc += deg[indices[k]] - 1
        s[x] = acc
    return s


@njit(cache=True, nogil=True)
def _path2_lb(indptr, indices, s, tau):
    """Σ over paths of min(1, τ / max S over the path's nodes) (the primal-feasible lower bound of sja_bounds), per
    centre in O(d log d): with the ends sorted by S, the k-th end pairs with k earlier ones whose S is ≤ its own."""
    n = indptr.size - 1
    total = 0.0
    for b in range(n):
        d = indptr[b + 1] - indptr[b]
        if d < 2:
            continue
        vals = np.sort(s[indices[indptr[b]:indptr[b + 1]]])
        for k in range(1, d):
            mx = max(vals[k], s[b])
            total += k * (min(1.0, tau / mx) if mx > 0 else 1.0)
    return total


@njit(cache=True, nogil=True)
def _supports(indptr, indices, heavy, light_nb, big):
    """(supports (k, 3) padded with ``big``, weights) of the merged columns of every kind; fixed weight."""
    n = indptr.size - 1
    # sizes first (exact), then fill
    cnt = 0
    for x in range(n):
        if heavy[x]:
            cnt += 1  # single {x}
            hx = 0
            for k in range(indptr[x], indptr[x + 1]):
                y = indices[k]
                if heavy[y]:
                    hx += 1
                    if y > x:
                        cnt += 1  # pair over the edge
            cnt += hx * (hx - 1) // 2  # heavy triples centred at x
        else:
            hx = 0
            for k in range(indptr[x], indptr[x + 1]):
                if heavy[indices[k]]:
                    hx += 1
            cnt += hx * (hx - 1) // 2  # heavy pairs with this light centre
    sup = np.full((cnt, 3), big, np.int32)  # node ids < 2^31 (CSR indices are int32): half the memory of int64
    w = np.zeros(cnt, np.float64)
    single = np.zeros(n, np.float64)
    fixed = 0.0
    c = 0
    buf = np.empty(indices.size + 1, np.int64)
    for x in range(n):
        lx = light_nb[x]
        if not heavy[x]:
            fixed += lx * (lx - 1) / 2
            # x light centre: ends heavy y with light other end → single {y} gains lx; two heavy ends → pair
            hx = 0
            for k in range(indptr[x], indptr[x + 1]):
                y = indices[k]
                if heavy[y]:
                    single[y] += lx
                    buf[hx] = y
                    hx += 1
            for p in range(hx):
                for q in range(p + 1, hx):
                    a = buf[p]
                    b = buf[q]
                    sup[c, 0] = min(a, b)
                    sup[c, 1] = max(a, b)
                    w[c] = 1.0
                    c += 1
        else:
            single[x] += lx * (lx - 1) / 2
            hx = 0
            for k in range(indptr[x], indptr[x + 1]):
                y = indices[k]
                if heavy[y]:
                    buf[hx] = y
                    hx += 1
                    if y > x:
                        sup[c, 0] = x
                        sup[c, 1] = y
                        w[c] = lx + light_nb[y]
                        c += 1
            for p in range(hx):
                for q in range(p + 1, hx):
                    a = buf[p]
                    b = buf[q]
                    lo = min(a, min(b, x))
                    hi = max(a, max(b, x))
                    mid = a + b + x - lo - hi
                    sup[c, 0] = lo
                    sup[c, 1] = mid
                    sup[c, 2] = hi
                    w[c] = 1.0
                    c += 1
    for x in range(n):
        if heavy[x]:
            sup[c, 0] = x
            w[c] = single[x]
            c += 1
    return sup, w, fixed


class Path2Info:
    """What R2T reads off Q2-'s join information, computed from the graph (NOT PRIVATE): n (active nodes), M, S,
    DS, Q(I). No join results are held (``m`` is their count)."""

    is_spja = False
    self_join_free = False
    integral = True
    proj = None

    def __init__(self, g: CSRGraph, name: str = "path2"):
        self.graph = g
        self.name = name
        self.indptr = g.indptr.astype(np.int64)
        self.indices = g.indices.astype(np.int64)
        s_all = _path2_s(self.indptr, self.indices)
        self.active = np.flatnonzero(s_all > 0)  # nodes on some path; compact ids as from_arrays gives them
        self.S = s_all[self.active]
        self.s_all = s_all
        self.n = int(self.active.size)
        deg = np.diff(self.indptr)
        self.m = int((deg * (deg - 1) // 2).sum())
        self.answer = float(self.m)
        self.DS = float(self.S.max()) if self.n else 0.0
        self.IS = self.DS


def reduce_path2(pi: Path2Info, tau: float, *, split: bool = True) -> ReducedLP:
    """The reduced LP of Q2- at τ from aggregated counts: equal, array by array, to
    ``reduce_lp(graph_joininfo(g, "path2"), τ)`` (module docstring)."""
    tau = check_tau(tau)
    n_all = pi.s_all.size
    heavy_all = pi.s_all > tau
    light = ~heavy_all
    light_nb = np.bincount(np.repeat(np.arange(n_all), np.diff(pi.indptr)), weights=light[pi.indices].astype(float),
                           minlength=n_all).astype(np.int64) if pi.indices.size else np.zeros(n_all, np.int64)
    sup, w, fixed = _supports(pi.indptr, pi.indices, heavy_all, light_nb, n_all)
    keep = w > 0  # a support no path has is no column
    if not keep.all():
        sup, w = sup[keep], w[keep]
    del keep
    # graph node ids → compact ids of the active nodes (monotone, so the lexicographic order is unchanged); int32 as
    # sup (the values, hence the merged LP, are the same as with int64)
    compact = np.full(n_all + 1, pi.n, dtype=np.int32)
    compact[pi.active] = np.arange(pi.n)
    H = compact[sup]
    del sup
    heavy = pi.S > tau
    stats = {"tau": float(tau), "rows": pi.n, "cols": pi.m, "heavy_rows": int(heavy.sum()),
             "touching_cols": int(round(w.sum())), "aggregated": True}
    return merge_supports(H, w, heavy, float(fixed), tau, stats, split=split)


def reduced_columns(pi: Path2Info, tau: float) -> int:
    """An upper bound on the columns of :func:`reduce_path2`'s LP at τ before merging (heavy nodes + heavy edges +
    heavy pairs around light centres + heavy–heavy–heavy paths), without building it (memory planning; NOT PRIVATE)."""
    heavy = pi.s_all > float(tau)
    src = np.repeat(np.arange(heavy.size), np.diff(pi.indptr))
    hx = np.bincount(src, weights=heavy[pi.indices].astype(float), minlength=heavy.size)
    pairs = hx * (hx - 1) / 2
    return int(heavy.sum() + hx[heavy].sum() / 2 + pairs.sum())


class Path2Truncation(Truncation):
    """Q(I, τ) of Q2- (LP truncation) from aggregated counts: the same values as
    ``Truncation(graph_joininfo(g, "path2"))`` without its M join results (module docstring).

    ``max_cols``: refuse (:class:`~dpworkbench.r2t.model.SolverError`, reported as OT by the research drivers) to
    build a reduced LP with more than this many columns (:func:`reduced_columns` or M, upper bounds): at small τ almost
    every node is heavy and the reduced LP is as large as the enumerated join (the shared machine's memory). A
    release never gets here (seeded research runs only)."""

    def __init__(self, g: CSRGraph, *, time_limit: float | None = None, max_cols: int | None = None):
        super().__init__(Path2Info(g), "lp", time_limit=time_limit, reduce=True)
        self.max_cols = None if max_cols is None else int(max_cols)

    def _reduced(self, tau: float, *, split: bool):
        if self.max_cols is not None:
            k = min(reduced_columns(self.info, tau), self.info.m)  # a column's weight counts ≥ 1 path: ≤ M columns
            if k > self.max_cols:
                # the message names the public limit only, never the data's column count
                raise SolverError(f"Q2- LP truncation at τ={tau:g}: its reduced LP would exceed the column limit of "
                                  f"{self.max_cols:,}")
        return reduce_path2(self.info, tau, split=split)

    def prepare(self) -> None:
        if self._y is None:
            self._y = np.ones(self.info.n)

    def bounds(self, tau: float) -> tuple[float, float]:
        """(LB, UB) of sja_bounds from the counts: UB = τ|H| + (paths with no heavy node), LB as there."""
        tau = check_tau(tau)
        if tau in self._cache:
            return self._cache[tau], self._cache[tau]
        pi = self.info
        if self.shortcut and tau >= pi.DS:
            return pi.answer, pi.answer
        if pi.m == 0:
            return 0.0, 0.0
        heavy_all = pi.s_all > tau
        light = ~heavy_all
        light_nb = np.bincount(np.repeat(np.arange(heavy_all.size), np.diff(pi.indptr)),
                               weights=light[pi.indices].astype(float), minlength=heavy_all.size)
        fixed = float((light_nb * (light_nb - 1) / 2)[light].sum())
        ub = tau * float(heavy_all.sum()) + fixed
        lb = float(_path2_lb(pi.indptr, pi.indices, pi.s_all, float(tau)))
        return lb, float(min(ub, pi.answer))


__all__ = ["Path2Info", "Path2Truncation", "reduce_path2", "reduced_columns"]
