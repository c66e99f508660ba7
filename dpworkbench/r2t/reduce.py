"""Exact reductions of the LP truncation Q(I, τ) (spec 2.4) that make it solvable on full graphs.

For one τ, the packing LP  max Σ_j u_j  s.t.  Σ_{j∈C_i} u_j ≤ τ (i ∈ [n]),  0 ≤ u_j ≤ ψ_j  is reduced
without changing its optimum:

1. **Rows that cannot bind are dropped.** If S_i ≤ τ then Σ_{j∈C_i} u_j ≤ Σ_{j∈C_i} ψ_j = S_i ≤ τ for
   every u within its column bounds, so row i is implied by the bounds.
2. **Columns left without a row are fixed.** A join result touching only light tuples (S_i ≤ τ) has no
   constraint besides u_j ≤ ψ_j, so u_j = ψ_j at every optimum; it contributes ψ_j to the value.
3. **Identical columns are merged.** Two columns with the same set of remaining (heavy) rows enter every
   constraint with coefficient 1 and the objective with coefficient 1, so only their sum matters: one
   column with bound Σψ has the same feasible sums and the same optimum.
4. **The LP splits by connected components** of the heavy-tuple/column incidence (a block-diagonal LP is
   the sum of its blocks); a component with one row has the closed form min(τ, Σ_j ψ_j).

Every step is exact (no tolerance is introduced), so the reduced LP's optimum *is* Q(I, τ); HiGHS then
solves a much smaller LP (on the full Deezer HU ∪ RO, Q2- at τ = 512: 2.6 M columns → 0.35 M).

References
----------
Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §5.1 (LP truncation, Lemma 5.3), §9.1 (solving the LPs); spec 2.4.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from numba import njit

from .joininfo import JoinInfo


@dataclass
class ReducedLP:
    """The reduced packing LP of one τ: value = ``fixed`` + ``closed`` + LP over ``blocks``.

    ``blocks``: list of (psi, incidence n_b × m_b CSR) with every row heavy and every column distinct.
    ``stats``: sizes before/after (NOT PRIVATE: read off the data; research logs only).
    """

    tau: float
    fixed: float
    closed: float
    blocks: list
    stats: dict
    heavy_ids: np.ndarray | None = None  # the original tuple id of each LP row (split=False only)


def padded_ids(info: JoinInfo) -> np.ndarray:
    """(M, max|D_j|) matrix of each D_j, padded with n (a sentinel above every id)."""
    m, w = info.m, max(info.max_refs, 1)
    out = np.full((m, w), info.n, dtype=np.int64)
    if m == 0:
        return out
    sizes = info.sizes
    if np.all(sizes == w):  # fixed arity (graph patterns): a reshape, no Python loop
        return info.ids.astype(np.int64).reshape(m, w).copy()
    col = np.arange(info.ids.size) - np.repeat(info.ptr[:-1], sizes)
    out[info.row_of, col] = info.ids
    return out


def reduce_lp(info: JoinInfo, tau: float, *, padded: np.ndarray | None = None, split: bool = True) -> ReducedLP:
    """Reduce Q(I, τ)'s LP exactly (steps 1–4 of the module docstring). SJA only."""
    if info.is_spja:
        raise ValueError("the reduction is defined for SJA LPs (no projection)")
    n = info.n
    S = info.S
    heavy = S > tau
    P = padded_ids(info) if padded is None else padded
    psi = info.psi
    # step 1: light tuples become the sentinel n; sorting each row puts the sentinels last
    sentinel_light = np.append(~heavy, True)  # index n (padding) counts as light
    H = np.where(sentinel_light[P], n, P)
    H.sort(axis=1)
    touches = H[:, 0] < n
    # step 2: columns with no heavy tuple are fixed at ψ
    fixed = float(psi[~touches].sum())
    H = H[touches]
    w = psi[touches]
    stats = {"tau": float(tau), "rows": int(n), "cols": int(info.m), "heavy_rows": int(heavy.sum()),
             "touching_cols": int(H.shape[0])}
    return merge_supports(H, w, heavy, fixed, tau, stats, split=split)


def merge_supports(H: np.ndarray, w: np.ndarray, heavy: np.ndarray, fixed: float, tau: float, stats: dict, *,
                   split: bool = True) -> ReducedLP:
    """Steps 3–4 from the heavy supports ``H`` (one row per column: its heavy tuple ids sorted, padded with the
    sentinel n = ``heavy.size``) and their weights ``w``. Rows of ``H`` may repeat (merged here) and may come in
    any order: the merged columns come out in lexicographic order of their supports, whoever built ``H``
    (the enumerated reduction above, or the aggregated one of :mod:`dpworkbench.r2t.aggregate`)."""
    n = heavy.size
    if H.shape[0] == 0:
        stats.update(merged_cols=0, components=0, lp_rows=0, lp_cols=0)
        return ReducedLP(float(tau), fixed, 0.0, [], stats)
    # step 3: merge identical heavy supports (lexicographic sort of the rows, then run-length groups). The ids are in
    # [0, n], so when W of them fit in 63 bits a row packs into one int64 whose order is the rows' lexicographic order:
    # a stable sort of the keys is the stable lexsort of the rows (same permutation, hence the same sums ψ in the same
    # order), with one k-vector per step instead of k × W copies (Q2- on the whole Amazon2 at τ ≤ 32: k = 23M).
    k, W = H.shape
    bits = max(int(n).bit_length(), 1)
    if bits * W <= 63:
        key = H[:, 0].astype(np.int64)
        for c in range(1, W):
            key <<= bits
            key |= H[:, c]
        order = np.argsort(key, kind="stable")
        key = key[order]
        new = np.empty(k, dtype=bool)
        new[0] = True
        np.not_equal(key[1:], key[:-1], out=new[1:])
        del key
        starts = np.flatnonzero(new)
        del new
        wm = np.add.reduceat(w[order], starts)
        Hm = H[order[starts]]  # the first row of each group (all rows of a group are equal)
        del order
    else:
        order = np.lexsort(H.T[::-1])
        Hs = H[order]
        new = np.empty(Hs.shape[0], dtype=bool)
        new[0] = True
        new[1:] = np.any(Hs[1:] != Hs[:-1], axis=1)
        starts = np.flatnonzero(new)
        wm = np.add.reduceat(w[order], starts)
        Hm = Hs[starts]
        del Hs, order
    del H
    stats["merged_cols"] = int(wm.size)
    # relabel heavy tuples 0..h-1 and build the h × m' incidence: column j holds the heavy tuples of Hm[j] (row-major
    # order of Hm's heavy entries = column by column), built as CSC and converted to the canonical CSR (sorted
    # indices, duplicates summed) that the COO construction gave
    hid = np.flatnonzero(heavy)
    relabel = np.full(n + 1, -1, dtype=np.int64)
    relabel[hid] = np.arange(hid.size)
    mask = Hm < n
    indptr = np.zeros(wm.size + 1, dtype=np.int64)
    np.cumsum(mask.sum(axis=1), out=indptr[1:])
    rows = relabel[Hm[mask]]
    del mask, Hm
    A = sp.csc_matrix((np.ones(rows.size), rows, indptr), shape=(hid.size, wm.size)).tocsr()
    del rows, indptr
    A.sum_duplicates()
    if not split:
        stats.update(components=1, lp_rows=int(A.shape[0]), lp_cols=int(A.shape[1]))
        return ReducedLP(float(tau), fixed, 0.0, [(wm, A)], stats, heavy_ids=hid)
    closed, blocks, k = split_components(wm, A, tau)
    stats.update(components=int(k), lp_rows=int(sum(b[1].shape[0] for b in blocks)),
                 lp_cols=int(sum(b[1].shape[1] for b in blocks)))
    return ReducedLP(float(tau), fixed, closed, blocks, stats)


def split_components(wm: np.ndarray, A: sp.csr_matrix, tau: float) -> tuple[float, list, int]:
    """Step 4: (closed-form value of the one-row components, [(ψ, A) per LP block], number of components)."""
    h, mm = A.shape
    A = A.tocsr()
    # components of the bipartite row/column graph, labelled as scipy's connected_components labels
    # bmat([[None, A], [Aᵀ, None]]) (node order rows then columns, labels by first node): the same labels, hence the same
    # blocks in the same order and the same closed-form sum, without the (h + m')² matrix of 2·nnz entries
    k, lab = _bipartite_components(h, mm, A.indptr.astype(np.int64), A.indices.astype(np.int64))
    rlab, clab = lab[:h], lab[h:]
    nrows = np.bincount(rlab, minlength=k)
    closed = 0.0
    one = nrows[clab] == 1  # a one-row component: min(τ, Σψ) in closed form
    if one.any():
        tot = np.bincount(clab[one], weights=wm[one], minlength=k)
        closed = float(np.minimum(tot[nrows == 1], tau).sum())
    blocks = []
    rest = np.flatnonzero(nrows > 1)
    if rest.size:
        # one LP per big component; the small ones are solved together (a block-diagonal LP is their sum)
        sizes_c = np.bincount(clab, minlength=k)
        big = rest[sizes_c[rest] >= 20_000]
        small = np.setdiff1d(rest, big)
        groups = [np.array([c]) for c in big] + ([small] if small.size else [])
        for grp in groups:
            in_r = np.isin(rlab, grp)
            in_c = np.isin(clab, grp)
            if in_r.all() and in_c.all():  # one block is the whole LP (often at small τ): no copy of A
                blocks.append((wm, A))
            else:
                blocks.append((wm[in_c], A[in_r][:, in_c].tocsr()))
    return closed, blocks, int(k)


@njit(cache=True, nogil=True)
def _bipartite_components(h, mm, indptr, indices):
    """(number, labels) of the connected components of the graph on h rows + mm columns (nodes 0..h−1, h..h+mm−1)
    with an edge per nonzero of the CSR (indptr, indices): union–find, then labels in order of each component's
    first node, as scipy.sparse.csgraph.connected_components numbers them."""
    parent = np.arange(h + mm)
    for i in range(h):
        for q in range(indptr[i], indptr[i + 1]):
            a = i
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            b = h + indices[q]
            while parent[b] != b:
                parent[b] = parent[parent[b]]
                b = parent[b]
            if a != b:
                if a < b:
                    parent[b] = a
                else:
                    parent[a] = b
    lab = np.full(h + mm, -1, np.int32)
    k = 0
    for v in range(h + mm):
        r = v
        while parent[r] != r:
            r = parent[r]
        if lab[r] < 0:
            lab[r] = k
            k += 1
        lab[v] = lab[r]
    return k, lab


# ---------------------------------------------------------------------------------
# certified upper bounds from dual iterates (the early stop of §9.1, Algorithm 3)
# ---------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _dual_value(tau, y, s, w):
    f = tau * y.sum()
    for j in range(w.size):
        if s[j] < 1.0:
            f += w[j] * (1.0 - s[j])
    return f


@njit(cache=True, nogil=True)
def _dual_sweeps(indptr, indices, w, tau, y, s, sweeps, target):
    """Gauss–Seidel coordinate descent on the dual  min_y≥0 f(y) = τ Σ_i y_i + Σ_j ψ_j max(0, 1 − Σ_{i∈D_j} y_i).

    Each coordinate step minimises f exactly in y_i (a weighted quantile of the residuals 1 − Σ_{k≠i} y_k of
    the row's columns). Every iterate y ≥ 0 is dual feasible (with z_j = max(0, 1 − (Aᵀy)_j)), so f(y) is an
    upper bound on the LP optimum (weak duality), whatever the number of sweeps. Stops once the bound is
    ≤ ``target``. Returns (best bound, sweeps done).
    """
    h = indptr.size - 1
    best = _dual_value(tau, y, s, w)
    done = 0
    for sweep in range(sweeps):
        if best <= target:
            break
        for i in range(h):
            k0 = indptr[i]
            k1 = indptr[i + 1]
            if k1 == k0:
                continue
            r = np.empty(k1 - k0)
            for k in range(k0, k1):
                r[k - k0] = 1.0 - (s[indices[k]] - y[i])
            order = np.argsort(-r)
            cum = 0.0
            ynew = 0.0
            for q in range(order.size):
                rq = r[order[q]]
                if rq <= 0.0:
                    break
                cum += w[indices[k0 + order[q]]]
                if cum > tau:
                    ynew = rq
                    break
            d = ynew - y[i]
            if d != 0.0:
                for k in range(k0, k1):
                    s[indices[k]] += d
                y[i] = ynew
        done += 1
        f = _dual_value(tau, y, s, w)
        if f < best:
            best = f
    return best, done


def dual_upper_bound(wm: np.ndarray, A: sp.csr_matrix, tau: float, *, target: float = -np.inf, sweeps: int = 30,
                     y0: np.ndarray | None = None) -> tuple[float, np.ndarray, int]:
    """(upper bound on the LP  max Σu, Au ≤ τ, 0 ≤ u ≤ ψ,  final y, sweeps done): see :func:`_dual_sweeps`.

    Starts from y = 1 (the bound τ·#rows) or from ``y0`` (a previous τ's iterate: warm start).
    """
    A = A.tocsr()
    y = np.ones(A.shape[0]) if y0 is None else np.maximum(np.asarray(y0, dtype=float), 0.0).copy()
    s = np.asarray(A.T @ y, dtype=float).ravel()
    ub, done = _dual_sweeps(A.indptr.astype(np.int64), A.indices.astype(np.int64), np.asarray(wm, dtype=float), float(tau),
                            y, s, int(sweeps), float(target))
    return float(ub), y, int(done)


__all__ = ["ReducedLP", "dual_upper_bound", "merge_supports", "padded_ids", "reduce_lp", "split_components"]
