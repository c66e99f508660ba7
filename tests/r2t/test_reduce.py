"""Exact LP reductions (dpworkbench/r2t/reduce.py): the reduced LP's optimum equals the plain HiGHS LP's, for
each reduction separately and together, on graphs where the plain LP finishes in well under a second."""

import numpy as np
import pytest

from dpworkbench.graphs import holme_kim
from dpworkbench.r2t import Truncation, from_lists, r2t
from dpworkbench.r2t.model import highs_model, pass_rowwise, solve_optimal
from dpworkbench.r2t.patterns import QUERIES, graph_joininfo
from dpworkbench.r2t.reduce import reduce_lp

TAUS = (0.5, 1, 2, 3, 4, 8, 16, 64)


def _solve(red) -> float:
    v = red.fixed + red.closed
    for w, A in red.blocks:
        h = highs_model()
        pass_rowwise(h, np.ones(w.size), np.zeros(w.size), w, np.full(A.shape[0], -np.inf), np.full(A.shape[0], red.tau), A)
        v += solve_optimal(h, "test")
    return v


def _random_info(seed: int):
    """Mixed |D_j| (1..4), repeated tuple sets, fractional SUM weights: the general SJA case."""
    rng = np.random.default_rng(seed)
    n, m = 40, 300
    lists = [sorted(set(rng.integers(0, n, int(rng.integers(1, 5))).tolist())) for _ in range(m)]
    lists += lists[:60]  # identical columns for the merge
    psi = np.round(rng.gamma(1.0, 1.5, len(lists)), 3)
    return from_lists(psi, lists, n=n)


@pytest.mark.parametrize("query", QUERIES)
def test_reduced_lp_equals_plain_lp_on_graph_patterns(query):
    info = graph_joininfo(holme_kim(150, 3, 0.6, seed=3), query)
    plain = Truncation(info, "lp", shortcut=False, reduce=False)
    red = Truncation(info, "lp", shortcut=False, reduce=True)
    for tau in TAUS:
        assert red.value(tau) == pytest.approx(plain.value(tau), rel=1e-9, abs=1e-6), tau


@pytest.mark.parametrize("seed", range(4))
def test_each_reduction_alone_and_together_is_exact(seed):
    info = _random_info(seed)
    plain = Truncation(info, "lp", shortcut=False, reduce=False)
    for tau in TAUS:
        want = plain.value(tau)
        # rows dropped + columns fixed + identical columns merged, one LP (no component split)
        assert _solve(reduce_lp(info, tau, split=False)) == pytest.approx(want, rel=1e-9, abs=1e-6)
        # ... and split by connected components (closed form for one-row components)
        assert _solve(reduce_lp(info, tau)) == pytest.approx(want, rel=1e-9, abs=1e-6)


def test_reduction_shrinks_the_lp_and_uses_components():
    info = graph_joininfo(holme_kim(400, 3, 0.6, seed=5), "path2")
    r = reduce_lp(info, 128.0)
    s = r.stats
    assert s["heavy_rows"] < s["rows"] and s["merged_cols"] < s["touching_cols"] < s["cols"]
    # disjoint copies of a star: every star is its own one-row component (closed form, no LP at all)
    stars = from_lists(np.ones(40), [[10 * (j // 10), 10 * (j // 10) + 1 + j % 9] for j in range(40)], n=40)
    r = reduce_lp(stars, 3.0)
    assert r.blocks == [] and r.closed == pytest.approx(4 * 3.0) and r.stats["components"] == 4


def test_r2t_seeded_output_identical_with_and_without_reduction():
    info = graph_joininfo(holme_kim(300, 3, 0.6, seed=7), "triangle")
    for prune in (False, True):
        a = r2t(Truncation(info, "lp", reduce=False), epsilon=1.0, gs=64.0, rng=3, prune=prune)
        b = r2t(Truncation(info, "lp", reduce=True), epsilon=1.0, gs=64.0, rng=3, prune=prune)
        assert a.value == pytest.approx(b.value, rel=1e-9, abs=1e-6)
        assert a.winner_tau == b.winner_tau


def test_spja_is_not_reduced():
    info = from_lists([1.0, 1.0], [[0, 1], [1, 2]], n=3, proj=[0, 0], psi_proj=[1.0])
    assert Truncation(info, "lp").reduce is False
    with pytest.raises(ValueError, match="SJA"):
        reduce_lp(info, 1.0)


def test_dual_iterates_are_upper_bounds_and_early_stop_is_exact():
    """Every coordinate-descent iterate bounds the LP from above; value_or_stop never stops a τ that could win."""
    from dpworkbench.r2t.reduce import dual_upper_bound

    for seed in range(3):
        info = _random_info(seed)
        plain = Truncation(info, "lp", shortcut=False, reduce=False)
        for tau in (1.0, 2.0, 4.0):
            want = plain.value(tau)
            r = reduce_lp(info, tau, split=False)
            for sweeps in (0, 1, 3, 50):
                ub, _, _ = dual_upper_bound(*r.blocks[0], tau, sweeps=sweeps)
                assert r.fixed + ub >= want - 1e-7
            tr = Truncation(info, "lp", shortcut=False)
            assert tr.value_or_stop(tau, want + 1e-3) is None or tr.value_or_stop(tau, want + 1e-3) == pytest.approx(want)
            assert Truncation(info, "lp", shortcut=False).value_or_stop(tau, want - 1e-3) == pytest.approx(want, abs=1e-6)


@pytest.mark.parametrize("query", ["path2", "triangle", "rectangle"])
def test_r2t_seeded_output_identical_with_early_stop(query):
    info = graph_joininfo(holme_kim(250, 4, 0.6, seed=11), query)
    gs = 64.0 ** (3 if query == "rectangle" else 2)
    for seed in range(3):
        ref = r2t(Truncation(info, "lp", reduce=False), epsilon=0.8, gs=gs, rng=seed, prune=False)
        es = r2t(Truncation(info, "lp"), epsilon=0.8, gs=gs, rng=seed, prune=True, early_stop=True)
        assert es.value == pytest.approx(ref.value, rel=1e-9, abs=1e-6)
        assert es.winner_tau == ref.winner_tau
        assert es.exact["early_stopped"] >= 1  # the early stop really cut LPs short here


# The memory-lean merge (packed int64 keys, CSC-built incidence) and components (union–find) must give the reduced LP
# the old code gave, array by array: these are the old steps 3–4 (lexsort, COO incidence, scipy's components on the
# bipartite block matrix), kept here as the reference.
def _merge_reference(H, w, heavy, fixed, tau):
    import scipy.sparse as sp
    from scipy.sparse.csgraph import connected_components

    n = heavy.size
    order = np.lexsort(H.T[::-1])
    Hs = H[order]
    new = np.empty(Hs.shape[0], dtype=bool)
    new[0] = True
    new[1:] = np.any(Hs[1:] != Hs[:-1], axis=1)
    starts = np.flatnonzero(new)
    wm = np.add.reduceat(w[order], starts)
    Hm = Hs[starts]
    hid = np.flatnonzero(heavy)
    relabel = np.full(n + 1, -1, dtype=np.int64)
    relabel[hid] = np.arange(hid.size)
    jj, kk = np.nonzero(Hm < n)
    A = sp.csr_matrix((np.ones(jj.size), (relabel[Hm[jj, kk]], jj)), shape=(hid.size, wm.size))
    h = A.shape[0]
    k, lab = connected_components(sp.bmat([[None, A], [A.T, None]], format="csr"), directed=False)
    from dpworkbench.r2t.reduce import _bipartite_components

    k2, lab2 = _bipartite_components(A.shape[0], A.shape[1], A.indptr.astype(np.int64), A.indices.astype(np.int64))
    assert k2 == k and np.array_equal(lab2, lab)  # the same numbering: blocks and closed-form sums in the same order
    rlab, clab = lab[:h], lab[h:]
    nrows = np.bincount(rlab, minlength=k)
    one = nrows[clab] == 1
    closed = float(np.minimum(np.bincount(clab[one], weights=wm[one], minlength=k)[nrows == 1], tau).sum()) if one.any() else 0.0
    rest = np.flatnonzero(nrows > 1)
    blocks = []
    if rest.size:
        sizes_c = np.bincount(clab, minlength=k)
        big = rest[sizes_c[rest] >= 20_000]
        small = np.setdiff1d(rest, big)
        for grp in [np.array([c]) for c in big] + ([small] if small.size else []):
            in_r, in_c = np.isin(rlab, grp), np.isin(clab, grp)
            blocks.append((wm[in_c], A[in_r][:, in_c].tocsr()))
    return wm, A, closed, blocks, int(k)


def _random_supports(rng, n, k, width, p_heavy, dtype):
    heavy = rng.random(n) < p_heavy
    hid = np.flatnonzero(heavy)
    H = np.full((k, width), n, dtype=np.int64)
    for j in range(k):  # 1..width distinct heavy ids, sorted, padded with the sentinel n
        c = min(int(rng.integers(1, width + 1)), hid.size)
        H[j, :c] = np.sort(rng.choice(hid, size=c, replace=False))
    H = np.concatenate([H, H[rng.integers(0, k, k // 3)]])  # repeated supports for the merge
    w = rng.integers(1, 9, H.shape[0]).astype(float) + rng.random(H.shape[0]) * (rng.random() < 0.5)
    return H.astype(dtype), w, heavy


@pytest.mark.parametrize("case", [(60, 400, 3, 0.3, np.int64), (60, 400, 3, 0.9, np.int32), (300, 200, 2, 0.05, np.int64),
                                  (70_000, 300, 4, 0.001, np.int64), (40, 30, 1, 0.5, np.int32), (500, 2000, 3, 0.02, np.int32)])
def test_lean_merge_and_components_give_the_old_reduced_lp_array_by_array(case):
    from dpworkbench.r2t.reduce import merge_supports

    n, k, width, p, dtype = case  # (70 000, width 4): 17 bits × 4 > 63, the lexsort path
    for seed in range(3):
        rng = np.random.default_rng(seed)
        H, w, heavy = _random_supports(rng, n, k, width, p, dtype)
        wm, A, closed, blocks, ncomp = _merge_reference(H.astype(np.int64), w, heavy, 1.5, 2.0)
        red = merge_supports(H.copy(), w.copy(), heavy, 1.5, 2.0, {}, split=False)
        (wm2, A2), = red.blocks
        assert np.array_equal(wm2, wm) and (A2 != A).nnz == 0
        assert np.array_equal(A2.indptr, A.indptr) and np.array_equal(A2.indices, A.indices) and np.array_equal(A2.data, A.data)
        red = merge_supports(H.copy(), w.copy(), heavy, 1.5, 2.0, {}, split=True)
        assert red.closed == closed and red.stats["components"] == ncomp and len(red.blocks) == len(blocks)
        for (b1, M1), (b2, M2) in zip(red.blocks, blocks):
            M1.sort_indices(), M2.sort_indices()  # pass_rowwise sorts what it hands to HiGHS
            assert np.array_equal(b1, b2) and np.array_equal(M1.indptr, M2.indptr) and np.array_equal(M1.indices, M2.indices)
            assert np.array_equal(M1.data, M2.data)
