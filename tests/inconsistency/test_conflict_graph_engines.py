"""Issue 16: the fast engine (packed keys generated in parallel straight into buckets of the smaller end, each
bucket sorted and deduplicated on its own), the bucketed in-place "rank" order and the grouped projection passes give exactly the reference engine's output: the same edge set, the same order, the
same F(θ) and the same released values for the same seed. The 10⁵-row check takes ~7 s (not marked slow)."""

from __future__ import annotations

import numpy as np
import pytest

from dpworkbench.inconsistency import _kernels as K
from dpworkbench.inconsistency.mechanisms import dp_vertex_cover, graph_projection
from dpworkbench.inconsistency.conflict_graph import build
from dpworkbench.inconsistency.datasets import dcs_for, load_table
from dpworkbench.inconsistency.noise_injection import rnoise
from dpworkbench.inconsistency.model import Projector, node_sequence


def _tax(rows, alpha=0.005):
    dcs = dcs_for("Tax")
    *_, (_, df) = rnoise(load_table("Tax", rows=rows, seed=0).data, dcs, alpha, rng=0, n_checkpoints=1)
    return df, dcs


def _reference_rank_order(g, seed):
    inv = node_sequence(g.identity, seed)
    pos = np.empty(g.n, np.int64)
    pos[inv] = np.arange(g.n)
    keys = K.rank_keys(g.u, g.v, pos, np.int64(g.n))
    keys.sort()
    return K.decode_rank_keys(keys, inv, np.int64(g.n))


def _check_same(df, dcs, *, duckdb: bool):
    fast = build(df, dcs)
    ref = build(df, dcs, engine="reference")
    assert fast.num_edges > 200_000  # large enough for the grouped passes (≥ 200k edges)
    assert np.array_equal(fast.u, ref.u) and np.array_equal(fast.v, ref.v)
    assert len(fast.per_dc) == len(ref.per_dc) and all(np.array_equal(a, b) for a, b in zip(fast.per_dc, ref.per_dc))
    if duckdb:
        duck = build(df, dcs, engine="duckdb")
        assert np.array_equal(fast.u, duck.u) and np.array_equal(fast.v, duck.v)
    for seed in (0, 7):
        proj = Projector(fast, rule="rank", seed=seed)
        u0, v0 = _reference_rank_order(ref, seed)
        assert np.array_equal(np.asarray(proj.u), u0) and np.array_equal(np.asarray(proj.v), v0)
        thetas = [1, 2, 5, 10, 100, 500, 10**9]
        proj.prefetch(thetas)
        for t in thetas:
            assert proj.counts(t) == tuple(int(x) for x in K.edge_addition(u0, v0, fast.n, min(t, fast.n))), t
        assert proj.cover_size() == K.greedy_cover(u0, v0, fast.n)
    # released values: the fast graph + grouped projector vs the reference graph + plain passes
    for m in ("MI", "P"):
        p_fast = Projector(fast, rule="rank", seed=0)
        p_ref = Projector(ref, rule="rank", seed=0, hint=())
        p_ref.u, p_ref.v = _reference_rank_order(ref, 0)  # plain Algorithm 1 passes over the reference order
        a = graph_projection(fast, m, 1.0, df=df, dcs=dcs, projector=p_fast, rng=3, n_bound=len(df))
        b = graph_projection(ref, m, 1.0, df=df, dcs=dcs, projector=p_ref, rng=3, n_bound=len(df))
        assert a["output"] == b["output"] and a["theta_star"] == b["theta_star"]
    assert dp_vertex_cover(fast, 1.0, rng=5)["output"] == dp_vertex_cover(ref, 1.0, rng=5)["output"]


def test_fast_engine_matches_reference_and_duckdb_tax_20k():
    df, dcs = _tax(20_000, alpha=0.01)
    _check_same(df, dcs, duckdb=True)


def test_fast_engine_matches_reference_and_duckdb_tax_100k():
    df, dcs = _tax(100_000)
    _check_same(df, dcs, duckdb=True)


def test_fast_engine_small_cases():
    import pandas as pd

    from dpworkbench.inconsistency.constraints import FD, parse_dcs

    df = pd.DataFrame({"A": [1, 1, 2, 2, 1, None], "B": [1, 2, 3, 3, 3, 1], "C": [5, 4, 3, 2, 1, 0]})
    for dcs in ([FD("A", "B")], parse_dcs("not(t1.A=t2.A&t1.B!=t2.B)\nnot(t1.C<t2.C&t1.B>t2.B)\nnot(t1.C>t2.C&t1.B<t2.B)")):
        f, r = build(df, dcs), build(df, dcs, engine="reference")
        assert f.edge_set() == r.edge_set() == build(df, dcs, engine="bruteforce").edge_set()
        assert np.array_equal(f.u, r.u) and np.array_equal(f.v, r.v)
        assert all(np.array_equal(a, b) for a, b in zip(f.per_dc, r.per_dc))
    empty = build(df.head(1), [FD("A", "B")])
    assert empty.num_edges == 0 and empty.u.dtype == np.int32
    with pytest.raises(ValueError, match="engine"):
        build(df, [FD("A", "B")], engine="nope")


def test_fast_engine_and_order_do_not_depend_on_threads():
    """Bucketed build, bucketed rank order and chunked degrees: the same arrays with 1 thread as with all."""
    import numba

    df, dcs = _tax(30_000, alpha=0.01)
    full = numba.get_num_threads()
    out = []
    for t in (1, full):
        numba.set_num_threads(t)
        try:
            g = build(df, dcs, keep_per_dc=False)
            p = Projector(g, rule="rank", seed=3)
            out.append((np.asarray(g.u).copy(), np.asarray(g.v).copy(), np.asarray(p.u).copy(),
                        np.asarray(p.v).copy(), g.degrees()))
        finally:
            numba.set_num_threads(full)
    assert out[0][0].size > 100_000
    for a, b in zip(*out):
        assert np.array_equal(a, b)
    ref = build(df, dcs, engine="reference")
    assert np.array_equal(out[1][0], ref.u) and np.array_equal(out[1][1], ref.v)
    u0, v0 = _reference_rank_order(ref, 3)
    assert np.array_equal(out[1][2], u0) and np.array_equal(out[1][3], v0)
    assert np.array_equal(out[1][4], np.bincount(ref.u, minlength=ref.n) + np.bincount(ref.v, minlength=ref.n))


def test_serial_twins_for_small_inputs_give_identical_graphs_and_orders(monkeypatch):
    """Small inputs use the serial twins of the parallel kernels (no thread launch); the output must not change."""
    from dpworkbench.inconsistency import _fastkernels as FKm

    df, dcs = _tax(3000)
    serial = build(df, dcs)
    ps = Projector(serial, rule="rank", seed=5)
    monkeypatch.setattr(FKm, "PARALLEL_MIN", 0)  # force the parallel kernels
    parallel = build(df, dcs)
    pp = Projector(parallel, rule="rank", seed=5)
    assert serial.num_edges > 0
    assert np.array_equal(serial.u, parallel.u) and np.array_equal(serial.v, parallel.v)
    assert np.array_equal(ps.u, pp.u) and np.array_equal(ps.v, pp.v)
    assert np.array_equal(serial.degrees(), FKm._degrees(parallel.u, parallel.v, np.int64(parallel.n), np.int64(2)))


def test_serial_twins_do_not_share_numba_cache_entries_with_parallel_kernels():
    """Issue 27 (Tax 10⁶ on a fresh machine): numba's on-disk cache keys an entry by (signature, CPU, bytecode), not
    by ``parallel=True``. Twins built as ``njit(kernel.py_func)`` shared one cache file with the parallel kernel, so
    with a fresh cache (the warm-up compiles the serial twin first) every later process ran the "parallel" kernels
    on one core. Every jitted kernel with its own target options must have its own cache index file."""
    from numba.core.registry import CPUDispatcher

    from dpworkbench.inconsistency import _fastkernels as FKm

    seen: dict[str, dict] = {}
    for mod in (K, FKm):
        for obj in vars(mod).values():
            if isinstance(obj, CPUDispatcher) and obj._cache._cache_file is not None and obj._can_compile:
                name = obj._cache._cache_file._index_name
                opts = {k: v for k, v in obj.targetoptions.items() if k != "boundscheck"}
                assert seen.setdefault(name, opts) == opts, f"{name} is shared by kernels with options {opts} and {seen[name]}"
    assert {"_fastkernels.bucket_fill_serial", "_fastkernels.bucket_fill"} <= {n.split("-")[0] for n in seen}


def test_threaded_narrow_counter_passes_and_byte_table_count_match_algorithm_1():
    """The threaded F(θ) passes with narrow counters (FK.grouped_counts) give exactly one edge_addition_grouped pass per θ, and the
    1-byte bucket table counts exactly what the rank-key counting pass counted, on random graphs (incl. θ = 0,
    θ above every degree, isolated nodes)."""
    from dpworkbench.inconsistency import _fastkernels as FKm
    from dpworkbench.inconsistency.conflict_graph import from_edges

    rng = np.random.default_rng(1)
    checked = 0
    for trial in range(25):
        n = int(rng.integers(2, 300))
        e = rng.integers(0, n, (int(rng.integers(1, 3000)), 2))
        e = e[e[:, 0] != e[:, 1]]
        if not len(e):
            continue
        g = from_edges(n, [tuple(x) for x in e])
        p = Projector(g, rule="rank", seed=trial)
        _, _, inv, ptr = p._grouped
        thetas = [0, 1, 2, 3, 5, 10, 50, 10_000][: int(rng.integers(1, 9))]
        got = FKm.grouped_counts(p.u, p.v, n, thetas, inv, ptr)
        assert got == [tuple(int(x) for x in K.edge_addition(p.u, p.v, n, t)) for t in thetas]  # plain Algorithm 1
        pos = rng.permutation(n).astype(np.int32)
        s = FKm.shift_for(n)
        bs = max(0, s - 7)
        nb = ((n - 1) >> bs) + 1
        cuts = np.array([0, g.num_edges // 2, g.num_edges], np.int64)
        old, new = np.zeros((2, nb), np.int64), np.zeros((2, nb), np.int64)
        FKm.rank_bucket_fill_serial(g.u, g.v, pos, np.int64(s), np.int64(bs), cuts, old, np.zeros(0, np.int64), False)
        FKm.rank_bucket_count(g.u, g.v, (pos >> bs).astype(np.uint8), cuts, new)
        assert np.array_equal(old, new)
        checked += 1
    assert checked > 20
    # the counter widths (1 byte below θ = 255, 2 bytes below 65,535): hubs of degree > 255 around the boundaries
    n = 2000
    e = [(0, j) for j in range(1, 700)] + [(1, j) for j in range(2, 400)] + [tuple(x) for x in rng.integers(0, n, (4000, 2))]
    g = from_edges(n, [x for x in e if x[0] != x[1]])
    p = Projector(g, rule="rank", seed=3)
    _, _, inv, ptr = p._grouped
    thetas = [1, 254, 255, 256, 300, 699, 65_534, 65_535, 70_000]
    assert FKm.grouped_counts(p.u, p.v, n, thetas, inv, ptr) == [tuple(int(x) for x in K.edge_addition(p.u, p.v, n, t))
                                                                 for t in thetas]


def test_scratch_buffers_are_reused_only_when_nothing_refers_to_them(monkeypatch):
    """Issue 27: the big edge/order buffers are kept across graphs (freed memory comes back as fresh host pages on
    these VMs), but a buffer is handed out again only once no view of it (a graph's u/v) is alive."""
    from dpworkbench.inconsistency import _fastkernels as FKm

    monkeypatch.setattr(FKm, "SCRATCH_MIN_BYTES", 1024)
    monkeypatch.setattr(FKm, "_scratch", [])
    a = FKm.scratch(1000)
    a[:] = 7
    u = a.view(np.int32)[0::2]  # what a graph keeps: a strided view
    del a
    b = FKm.scratch(1000)
    assert not np.shares_memory(b, u) and (u == 7).all()  # u's buffer is still in use
    b[:] = 1
    del u, b
    c = FKm.scratch(900)
    assert any(np.shares_memory(c, buf) for buf in FKm._scratch)  # reused, no new buffer
    assert len(FKm._scratch) == 2
    small = FKm.scratch(10)
    assert not any(np.shares_memory(small, buf) for buf in FKm._scratch)  # below the threshold: plain np.empty
    del c
    assert FKm.release_scratch() == 2 * 8000 and FKm._scratch == []


def _stable_argsort_rank_order(g, seed):
    """The "rank" order by the plainest means: np.argsort(kind="stable") of max(place)·n + min(place), and the
    edge ranges per later place (ptr)."""
    inv = node_sequence(g.identity, seed)
    pos = np.empty(g.n, np.int64)
    pos[inv] = np.arange(g.n)
    a, b = pos[np.asarray(g.u)], pos[np.asarray(g.v)]
    hi, lo = np.maximum(a, b), np.minimum(a, b)
    idx = np.argsort(hi * g.n + lo, kind="stable")
    ptr = np.concatenate([[0], np.cumsum(np.bincount(hi, minlength=g.n))])
    return np.asarray(g.u)[idx], np.asarray(g.v)[idx], ptr  # g.u < g.v: (min node, max node) already


@pytest.mark.parametrize("force_parallel", [False, True])
def test_rank_order_4_and_8_byte_keys_match_stable_argsort(monkeypatch, force_parallel):
    """Issue 27, item 5: up to 2**20 nodes the rank order sorts 4-byte keys relative to their bucket (≤ 256 buckets;
    at 2**19 < n ≤ 2**20 the buckets are narrower than the 128-bucket split), above that 8-byte keys. Both give
    exactly np.argsort(kind="stable")'s order and per-place ranges, on graphs with hubs, with edges at the bucket
    boundaries and the last place, and with node identities full of ties (few distinct keys: the node sequence is
    decided by the tie-breakers), serial twins and threaded kernels alike."""
    from dpworkbench.inconsistency import _fastkernels as FKm
    from dpworkbench.inconsistency.conflict_graph import NodeIdentity, from_edges

    if force_parallel:
        monkeypatch.setattr(FKm, "PARALLEL_MIN", 0)
    rng = np.random.default_rng(11)
    # 2**19 + 1 and 2**20: 4-byte keys with bs = 32 - 20 = 12 (the 128-bucket split would need 33 bits);
    # 2**20 + 1: 8-byte keys (4-byte ones would need 512 buckets)
    for n in (2, 7, 300, 5000, 2**19 + 1, 2**20, 2**20 + 1):
        key = rng.integers(0, 3, n).astype(np.uint64)  # 3 distinct keys: ties everywhere
        occ = np.zeros(n, np.int64)
        for k in range(3):
            occ[key == k] = np.arange(int(np.sum(key == k)))
        ident = NodeIdentity(key, rng.integers(0, 2, n).astype(np.uint64), np.zeros(n, np.int64), occ, "labels")
        s = FKm.shift_for(n)
        inv = node_sequence(ident, 0)
        edge_places = [0, 1, n - 1, n - 2] + [p for bs in (s - 7, 32 - s) if bs > 0 for p in (2**bs - 1, 2**bs)]
        spots = [int(inv[p]) for p in edge_places if 0 <= p < n]
        e = [(a, b) for a in spots for b in spots]
        e += [(int(spots[-1]), int(x)) for x in rng.integers(0, n, 400)]  # a hub at the last place
        e += [tuple(int(y) for y in x) for x in rng.integers(0, n, (2000, 2))]
        g = from_edges(n, [x for x in e if x[0] != x[1]])
        g.identity = ident
        for seed in ((0, 5) if n < 10**5 else (5,)):  # one seed for the large n (the node sequence is most of it)
            u0, v0, ptr0 = _stable_argsort_rank_order(g, seed)
            p = Projector(g, rule="rank", seed=seed)
            u, v, _, ptr = p._grouped
            assert u.dtype == np.int32 and v.dtype == np.int32 and u.size == g.num_edges
            assert np.array_equal(u, u0) and np.array_equal(v, v0), (n, seed)
            assert np.array_equal(ptr, ptr0), (n, seed)


@pytest.mark.parametrize("force_parallel", [False, True])
def test_bucketed_union_4_and_8_byte_keys_match_sorted_unique(monkeypatch, force_parallel):
    """Issue 27, item 5: the fast build's union writes 4-byte keys relative to their bucket up to 2**20 nodes (at
    2**19 < n ≤ 2**20 with 256 buckets), 8-byte keys above; both give the sorted distinct pairs of every DC's combo
    pairs (here two DCs sharing combinations: duplicate keys), serial twins and threaded kernels alike, including
    the first/last nodes and the bucket boundaries. Synthetic combos: no table of 10⁶ rows needed."""
    from dpworkbench.inconsistency import _fastkernels as FKm
    from dpworkbench.inconsistency.conflict_graph import _union_bucketed, sorted_unique

    if force_parallel:
        monkeypatch.setattr(FKm, "PARALLEL_MIN", 0)
    rng = np.random.default_rng(4)
    for n in (2, 9, 1000, 2**19 + 1, 2**20, 2**20 + 1):
        s = FKm.shift_for(n)
        special = [x for bs in (s - 7, 32 - s) if bs > 0 for x in (2**bs - 1, 2**bs, 2**(bs + 1) - 1) if x < n]
        # disjoint combinations (each row in one), members ascending; the first holds the first/last/boundary nodes
        first = np.unique([0, n - 1, *special])
        rest = rng.permutation(np.setdiff1d(np.arange(min(n, 5000)) * max(1, n // 5000), first))[:800]
        cut = np.sort(rng.choice(np.arange(1, max(rest.size, 2)), size=min(79, max(rest.size - 1, 0)), replace=False))
        combos = [first] + [np.sort(c) for c in np.split(rest, cut) if c.size]
        mp = np.concatenate([[0], np.cumsum([c.size for c in combos])]).astype(np.int64)
        mem = np.concatenate(combos).astype(np.int64)
        parts, expect = [], []
        for dc in range(2):  # two DCs over the same combinations, overlapping combo pairs: duplicate keys
            pa = rng.integers(0, len(combos), 150)
            pb = np.where(rng.random(150) < 0.3, pa, rng.integers(0, len(combos), 150))
            pa, pb = np.minimum(pa, pb).astype(np.int64), np.maximum(pa, pb).astype(np.int64)
            pa[0] = pb[0] = 0
            parts.append((mp, mem, pa, pb))
            expect.append(FKm.expand_pairs_shift(mp, mem, pa, pb, np.int64(s)))
        keys = sorted_unique(np.concatenate(expect))
        u, v = _union_bucketed(parts, n, s)
        assert u.dtype == np.int32 and u.size == keys.size > 0, n
        assert np.array_equal(u, keys >> s) and np.array_equal(v, keys & ((1 << s) - 1)), n


def test_node_sequence_equals_four_key_lexsort_with_ties():
    """Issue 27, item 5: the node sequence sorts the keyed ranks alone and re-sorts only runs of equal ranks; it must
    be exactly np.lexsort((occ, tie, key2, rank)) (stable: fully equal nodes by node number), with no ties, with
    ties on the rank only, and with ties on every key."""
    from dpworkbench.inconsistency.conflict_graph import NodeIdentity
    from dpworkbench.inconsistency.model import tid_rank

    rng = np.random.default_rng(2)
    for n, k1, k2, k3, k4 in [(1, 5, 5, 1, 1), (50, 2**40, 2**40, 1, 1), (3000, 4, 3, 2, 3), (3000, 2, 1, 1, 1),
                              (20_000, 300, 2, 2, 50)]:
        ident = NodeIdentity(rng.integers(0, k1, n).astype(np.uint64), rng.integers(0, k2, n).astype(np.uint64),
                             rng.integers(0, k3, n).astype(np.int64), rng.integers(0, k4, n).astype(np.int64), "content")
        for seed in (0, 9):
            want = np.lexsort((ident.occ, ident.tie, ident.key2, tid_rank(ident.key1, seed)))
            got = node_sequence(ident, seed)
            assert got.dtype == np.int64 and np.array_equal(got, want), (n, seed)
