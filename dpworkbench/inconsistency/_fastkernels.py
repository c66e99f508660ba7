"""Parallel numba kernels for large conflict graphs (issue 16: Tax at 10⁶ rows, 313 M edges).

Edges are packed as int64 keys ``(a << s) | b`` with ``s = bits(n)`` — the same order as ``a·n + b`` but
decoded with a shift and a mask instead of a 64-bit division (two divisions per edge cost seconds at 3·10⁸
edges). Every kernel is deterministic: the output never depends on the number of threads.
"""

from __future__ import annotations

import types

import numpy as np
from numba import get_num_threads, njit, prange

from ._kernels import compact_sorted


def shift_for(n: int) -> int:
    """Bits needed for a node id in 0..n-1 (at least 1)."""
    return max(1, int(n - 1).bit_length()) if n > 1 else 1


@njit(cache=True, parallel=True)
def prefault(a, chunks):
    """Touch every 4 KiB page of a fresh int64 array from all threads (chunks in parallel). First-touch page
    faults of a multi-GB array cost seconds on a VM; faulting from both cores, in address order, before the
    scattered writes of a bucket fill, roughly halves that."""
    m = a.size
    for c in prange(chunks):
        for i in range(m * c // chunks, m * (c + 1) // chunks, 512):
            a[i] = 0


@njit(cache=True)
def expand_pairs_shift(member_ptr, members, pa, pb, s):
    """Keys (min << s) | max of every tuple pair between combos pa[k] and pb[k] (within the combo when equal)."""
    total = 0
    for k in range(pa.size):
        sa = member_ptr[pa[k] + 1] - member_ptr[pa[k]]
        if pa[k] == pb[k]:
            total += sa * (sa - 1) // 2
        else:
            total += sa * (member_ptr[pb[k] + 1] - member_ptr[pb[k]])
    out = np.empty(total, np.int64)
    t = 0
    for k in range(pa.size):
        a0, a1 = member_ptr[pa[k]], member_ptr[pa[k] + 1]
        if pa[k] == pb[k]:
            for i in range(a0, a1):
                x = members[i]
                for j in range(i + 1, a1):
                    y = members[j]
                    if x < y:
                        out[t] = (x << s) | y
                    else:
                        out[t] = (y << s) | x
                    t += 1
        else:
            b0, b1 = member_ptr[pb[k]], member_ptr[pb[k] + 1]
            for i in range(a0, a1):
                x = members[i]
                for j in range(b0, b1):
                    y = members[j]
                    if x < y:
                        out[t] = (x << s) | y
                    else:
                        out[t] = (y << s) | x
                    t += 1
    return out


def pair_chunks(member_ptr, pa, pb, chunks):
    """Boundaries (chunks+1 pair indices) splitting the combo pairs into ranges of about equal edge counts."""
    sa = (member_ptr[pa + 1] - member_ptr[pa]).astype(np.int64)
    sb = (member_ptr[pb + 1] - member_ptr[pb]).astype(np.int64)
    w = np.where(pa == pb, sa * (sa - 1) // 2, sa * sb) + 1
    cw = np.cumsum(w)
    if cw.size == 0:
        return np.zeros(2, np.int64)
    cuts = np.searchsorted(cw, (np.arange(1, chunks) * cw[-1]) // chunks, side="right")
    return np.unique(np.concatenate([[0], cuts, [pa.size]])).astype(np.int64)


@njit(cache=True, parallel=True)
def bucket_fill(member_ptr, members, pa, pb, s, bs, cuts, cursor, out, write):
    """Keys (min << s) | max of every tuple pair between combos pa[k] and pb[k] (within the combo when equal),
    scattered by bucket ``min >> bs``. Chunk c (pairs cuts[c]..cuts[c+1]) uses the cursors cursor[c, :]:
    with ``write`` false only counts (cursor[c, b] += keys of bucket b), else writes out[cursor[c, b]++]."""
    for c in prange(cuts.size - 1):
        for k in range(cuts[c], cuts[c + 1]):
            a0, a1 = member_ptr[pa[k]], member_ptr[pa[k] + 1]
            if pa[k] == pb[k]:  # members ascending: x = members[i] is the smaller end
                for i in range(a0, a1):
                    x = np.int64(members[i])
                    b = x >> bs
                    if write:
                        t = cursor[c, b]
                        for j in range(i + 1, a1):
                            out[t] = (x << s) | np.int64(members[j])
                            t += 1
                        cursor[c, b] = t
                    else:
                        cursor[c, b] += a1 - i - 1
            else:
                b0, b1 = member_ptr[pb[k]], member_ptr[pb[k] + 1]
                for i in range(a0, a1):
                    x = np.int64(members[i])
                    bx = x >> bs
                    for j in range(b0, b1):
                        y = np.int64(members[j])
                        if x < y:
                            if write:
                                out[cursor[c, bx]] = (x << s) | y
                            cursor[c, bx] += 1
                        else:
                            by = y >> bs
                            if write:
                                out[cursor[c, by]] = (y << s) | x
                            cursor[c, by] += 1




@njit(cache=True, parallel=True)
def bucket_fill32(member_ptr, members, pa, pb, s, bs, cuts, cursor, out):
    """The writing pass of :func:`bucket_fill` with 4-byte keys relative to the bucket: (min mod 2**bs) << s | max
    (needs bs + s ≤ 32; same order within a bucket as the 8-byte keys). ``out`` is uint32 and cursor[c, b] counts
    in its items. Half the bytes to write, and numpy sorts 4-byte keys about twice as fast as 8-byte ones."""
    bmask = (np.int64(1) << bs) - 1
    for c in prange(cuts.size - 1):
        for k in range(cuts[c], cuts[c + 1]):
            a0, a1 = member_ptr[pa[k]], member_ptr[pa[k] + 1]
            if pa[k] == pb[k]:  # members ascending: x = members[i] is the smaller end
                for i in range(a0, a1):
                    x = np.int64(members[i])
                    b = x >> bs
                    hx = (x & bmask) << s
                    t = cursor[c, b]
                    for j in range(i + 1, a1):
                        out[t] = np.uint32(hx | np.int64(members[j]))
                        t += 1
                    cursor[c, b] = t
            else:
                b0, b1 = member_ptr[pb[k]], member_ptr[pb[k] + 1]
                for i in range(a0, a1):
                    x = np.int64(members[i])
                    bx = x >> bs
                    for j in range(b0, b1):
                        y = np.int64(members[j])
                        if x < y:
                            out[cursor[c, bx]] = np.uint32(((x & bmask) << s) | y)
                            cursor[c, bx] += 1
                        else:
                            by = y >> bs
                            out[cursor[c, by]] = np.uint32(((y & bmask) << s) | x)
                            cursor[c, by] += 1


@njit(cache=True, nogil=True)
def compact_decode32(w, c, base, s):
    """One bucket of :func:`bucket_fill32` keys: ``w`` (uint32) holds the bucket's 2·c items, its first c the
    sorted relative keys of smaller ends base + (key >> s). Keeps the distinct keys at the front and decodes them in
    place into node pairs w[2i] = min, w[2i + 1] = max, from the last to the first (pair i overwrites keys 2i and
    2i + 1, which are ≥ i: already decoded). Returns how many."""
    m = 0
    for i in range(c):
        if m == 0 or w[i] != w[m - 1]:
            w[m] = w[i]
            m += 1
    mask = (np.int64(1) << s) - 1
    for i in range(m - 1, -1, -1):
        k = np.int64(w[i])
        w[2 * i] = np.uint32(base + (k >> s))
        w[2 * i + 1] = np.uint32(k & mask)
    return m


@njit(cache=True, nogil=True)
def compact_decode(keys, pairs, s):
    """Keep the distinct sorted keys at the front and decode them in place into node pairs:
    ``pairs`` is the int32 view of ``keys`` (pair i takes the 8 bytes of key i). Returns how many."""
    m = compact_sorted(keys)  # _kernels' kernel, compiled with nogil for the bucket threads
    mask = (np.int64(1) << s) - 1
    for i in range(m):
        k = keys[i]
        pairs[2 * i] = np.int32(k >> s)
        pairs[2 * i + 1] = np.int32(k & mask)
    return m


@njit(cache=True)
def move_left(buf, lo, cnt, dst):
    """Move the runs buf[lo[b] : lo[b] + cnt[b]] to buf[dst[b]:] in order (dst[b] ≤ lo[b]: each element moves left)."""
    for b in range(lo.size):
        src = lo[b]
        d = dst[b]
        if src != d:
            for j in range(cnt[b]):
                buf[d + j] = buf[src + j]


@njit(cache=True, parallel=True)
def rank_bucket_fill(u, v, pos, s, bs, cuts, cursor, out, write):
    """Rank keys (later place << s) | earlier place (place = pos[node]) of the edges, scattered by bucket
    ``later place >> bs``. Chunk c (edges cuts[c]..cuts[c+1]) uses the cursors cursor[c, :]: with ``write``
    false only counts, else writes out[cursor[c, b]++]."""
    for c in prange(cuts.size - 1):
        for i in range(cuts[c], cuts[c + 1]):
            a = np.int64(pos[u[i]])
            b = np.int64(pos[v[i]])
            if a < b:
                a, b = b, a
            bk = a >> bs
            if write:
                out[cursor[c, bk]] = (a << s) | b
            cursor[c, bk] += 1


@njit(cache=True, parallel=True)
def rank_bucket_count(u, v, bkt, cuts, cnt):
    """The counting pass of :func:`rank_bucket_fill` from a 1-byte table bkt[node] = pos[node] >> bs (1 MB at 10⁶
    nodes: it stays in L2, the 4-byte places do not): the later place's bucket is max(bkt[u], bkt[v]), since
    buckets are ranges of places in order (equal buckets: the same bucket either way). cnt[c, b] += edges."""
    for c in prange(cuts.size - 1):
        for i in range(cuts[c], cuts[c + 1]):
            a = bkt[u[i]]
            b = bkt[v[i]]
            cnt[c, max(a, b)] += 1


@njit(cache=True, nogil=True)
def rank_bucket_decode(keys, pairs, inv, s, per_place):
    """Sorted rank keys of one bucket: count the edges per later place (per_place[place + 1] += 1) and decode
    the keys in place into node pairs (min node, max node); ``pairs`` is the int32 view of ``keys``."""
    mask = (np.int64(1) << s) - 1
    for i in range(keys.size):
        k = keys[i]
        p = k >> s
        per_place[p + 1] += 1
        a = inv[p]
        b = inv[k & mask]
        if a > b:
            a, b = b, a
        pairs[2 * i] = a
        pairs[2 * i + 1] = b


@njit(cache=True, parallel=True)
def rank_bucket_fill32(u, v, pos, s, bs, cuts, cursor, out):
    """The writing pass of :func:`rank_bucket_fill` with 4-byte keys relative to the bucket: (later place mod
    2**bs) << s | earlier place (needs bs + s ≤ 32; same order within a bucket as the 8-byte keys). ``out`` is
    uint32 and cursor[c, b] counts in its items. Half the bytes to write, and numpy sorts 4-byte keys about twice
    as fast as 8-byte ones (AVX-512: 16 lanes, not 8)."""
    bmask = (np.int64(1) << bs) - 1
    for c in prange(cuts.size - 1):
        for i in range(cuts[c], cuts[c + 1]):
            a = np.int64(pos[u[i]])
            b = np.int64(pos[v[i]])
            if a < b:
                a, b = b, a
            bk = a >> bs
            out[cursor[c, bk]] = np.uint32(((a & bmask) << s) | b)
            cursor[c, bk] += 1


@njit(cache=True, nogil=True)
def rank_bucket_decode32(w, m, base, s, inv, per_place):
    """One bucket of :func:`rank_bucket_fill32` keys: ``w`` (uint32) holds the bucket's 2·m items, its first m the
    sorted relative keys of later places base + (key >> s). Counts the edges per later place (per_place[place + 1]
    += 1) and decodes in place into node pairs w[2i] = min node, w[2i + 1] = max node, from the last key to the
    first: pair i overwrites keys 2i and 2i + 1, which are ≥ i, so already decoded (key 0 is read before pair 0 is
    written)."""
    qmask = (np.int64(1) << s) - 1
    for i in range(m - 1, -1, -1):
        k = np.int64(w[i])
        p = base + (k >> s)
        per_place[p + 1] += 1
        a = inv[p]
        b = inv[k & qmask]
        if a > b:
            a, b = b, a
        w[2 * i] = np.uint32(a)
        w[2 * i + 1] = np.uint32(b)


@njit(cache=True, nogil=True)  # nogil: the θs of one measure run on threads (grouped_counts)
def _grouped_scan(u, v, th, inv, ptr, d):
    kept = 0
    for p in range(ptr.size - 1):
        h = inv[p]
        dh = np.int64(d[h])
        for i in range(ptr[p], ptr[p + 1]):
            if dh >= th:
                break
            lo = u[i] + v[i] - h
            if d[lo] < th:
                d[lo] += 1
                dh += 1
                kept += 1
        d[h] = dh
    pos = 0
    for i in range(d.size):
        if d[i] > 0:
            pos += 1
    return kept, pos


def edge_addition_grouped(u, v, n, theta, inv, ptr):
    """Algorithm 1 over rank-ordered edges grouped by their later node h = inv[p] (edges ptr[p]..ptr[p+1]):
    once h has degree θ none of its remaining edges can be kept, so the scan skips the rest of the group.
    Same result as :func:`~._kernels.edge_addition`: (kept edges, nodes of positive degree).

    The projected degrees never exceed θ, so they are counted in the narrowest integer type that holds θ
    (1 byte for θ < 255: 1 MB at 10⁶ nodes stays in L2 cache, where the random updates of a pass are cheap)."""
    th = int(min(max(int(theta), 0), 2**31 - 1))
    dt = np.uint8 if th < 255 else np.uint16 if th < 65535 else np.int32
    kept, pos = _grouped_scan(u, v, np.int64(th), inv, ptr, np.zeros(int(n), dt))
    return int(kept), int(pos)


def grouped_counts(u, v, n, thetas, inv, ptr) -> list[tuple[int, int]]:
    """(kept edges, positive-degree nodes) of Algorithm 1 for every θ in ``thetas`` over rank-grouped edges, one
    :func:`edge_addition_grouped` pass per θ, the θs split over the threads (largest first, each to the least-loaded
    thread; the passes release the GIL). Deterministic: each θ's values do not depend on the split. (One fused scan
    for all θs was measured slower: the random counter updates, not reading the edges, dominate a pass.)"""
    from concurrent.futures import ThreadPoolExecutor

    thetas = [int(t) for t in thetas]
    k = max(1, min(get_num_threads(), len(thetas)))
    load, groups = [0] * k, [[] for _ in range(k)]
    for i in sorted(range(len(thetas)), key=lambda i: -thetas[i]):
        j = load.index(min(load))
        groups[j].append(i)
        load[j] += thetas[i]

    def run(g):
        return [(i, edge_addition_grouped(u, v, n, thetas[i], inv, ptr)) for i in g]

    out: list = [None] * len(thetas)
    if k == 1:
        parts = [run(groups[0])] if thetas else []
    else:
        with ThreadPoolExecutor(k) as ex:
            parts = list(ex.map(run, groups))
    for part in parts:
        for i, c in part:
            out[i] = c
    return out


def degrees(u, v, n):
    """Node degrees (int64): per-chunk counts (one chunk per thread on large graphs), then summed (exact)."""
    if u.size < 1_000_000:  # one chunk: no parallel region to launch
        return _degrees_serial(u, v, np.int64(n), np.int64(1))
    return _degrees(u, v, np.int64(n), np.int64(max(1, get_num_threads())))


@njit(cache=True, parallel=True)
def _degrees(u, v, n, chunks):
    m = u.size
    part = np.zeros((chunks, n), np.int64)
    for c in prange(chunks):
        lo = m * c // chunks
        hi = m * (c + 1) // chunks
        for i in range(lo, hi):
            part[c, u[i]] += 1
            part[c, v[i]] += 1
    d = np.zeros(n, np.int64)
    for c in range(chunks):
        for i in range(n):
            d[i] += part[c, i]
    return d


# Serial twins of the parallel kernels, for small inputs: launching a parallel region costs tens of ms when the
# cores are busy (measured ≈ 65 ms per bucket_fill call on the shared 2-core machine, so a 100-row Tax graph took
# > 1 s to build and Fig. 8's smallest points were flat). Same code, compiled without threads: identical outputs.
#
# A twin must be a *distinct* Python function (own __qualname__), not ``njit(...)(kernel.py_func)``: numba's
# on-disk cache names its files by module + qualname + line and keys entries by (signature, CPU, bytecode) only —
# never by the ``parallel`` flag. Twins sharing the py_func therefore shared ONE cache entry (issue 27, item 5):
# whichever variant compiled first was loaded for both in every later process. With a fresh cache the warm-up's
# small build compiles the serial twins first, so on a fresh machine every "parallel" kernel (key generation,
# first-touch prefault, rank keys, degrees) ran on one core from the second process on.
def _serial_twin(kernel):
    f = kernel.py_func
    g = types.FunctionType(f.__code__, f.__globals__, f.__name__ + "_serial", f.__defaults__, f.__closure__)
    g.__qualname__ = f.__qualname__ + "_serial"  # its own cache files (see above)
    g.__module__ = f.__module__
    g.__doc__ = f"Serial twin of :func:`{f.__name__}` (same code, no threads)."
    return njit(cache=True)(g)


bucket_fill_serial = _serial_twin(bucket_fill)
bucket_fill32_serial = _serial_twin(bucket_fill32)
rank_bucket_fill_serial = _serial_twin(rank_bucket_fill)
rank_bucket_fill32_serial = _serial_twin(rank_bucket_fill32)
_degrees_serial = _serial_twin(_degrees)
prefault_serial = _serial_twin(prefault)
rank_bucket_count_serial = _serial_twin(rank_bucket_count)


def warm_parallel() -> None:
    """Compile (or load from numba's cache) the threaded kernels, and the grouped projection pass, with the array
    layouts of a large graph (edge arrays are strided views of one interleaved buffer), so that the first timed
    call on a large graph does not pay for it: small graphs only ever use the serial twins."""
    prefault(np.zeros(4, np.int64), np.int64(2))
    mp, mem = np.array([0, 1, 2], np.int64), np.array([0, 1], np.int64)
    pa, pb, cuts = np.array([0], np.int64), np.array([1], np.int64), np.array([0, 1], np.int64)
    pairs = np.array([0, 1], np.int32)
    u, v, pos = pairs[0::2], pairs[1::2], np.array([1, 0], np.int32)
    for write in (False, True):
        bucket_fill(mp, mem, pa, pb, np.int64(1), np.int64(0), cuts, np.zeros((1, 2), np.int64), np.zeros(1, np.int64),
                    write)
        rank_bucket_fill(u, v, pos, np.int64(1), np.int64(0), cuts, np.zeros((1, 2), np.int64), np.zeros(1, np.int64),
                         write)
    rank_bucket_fill32(u, v, pos, np.int64(1), np.int64(0), cuts, np.zeros((1, 2), np.int64), np.zeros(1, np.uint32))
    bucket_fill32(mp, mem, pa, pb, np.int64(1), np.int64(0), cuts, np.zeros((1, 2), np.int64), np.zeros(1, np.uint32))
    compact_decode32(np.zeros(2, np.uint32), np.int64(1), np.int64(0), np.int64(1))
    rank_bucket_count(u, v, pos.astype(np.uint8), cuts, np.zeros((1, 2), np.int64))
    rank_bucket_decode32(np.zeros(2, np.uint32), np.int64(1), np.int64(0), np.int64(1), pos, np.zeros(3, np.int64))
    _degrees(u, v, np.int64(2), np.int64(2))
    ptr = np.array([0, 0, 1], np.int64)
    for theta in (1, 300, 70_000):  # the three counter widths
        edge_addition_grouped(u, v, 2, theta, pos, ptr)


#: below this many items (pairs of combos, edges) the serial twins are used
PARALLEL_MIN = 200_000


# ---------------------------------------------------------------------------------------------- scratch buffers
# Issue 27, item 5: on this project's machines (Firecracker VMs whose virtio-balloon has free page reporting,
# page_reporting_order 9) a 2 MB block the process frees is handed back to the host about 2 s later, and touching
# it again costs a host page fault: first touch of a "fresh" array measured ≈ 1.2–1.5 s per GB against 0.18 s/GB
# for memory the process kept. The two big arrays of a large graph (the edge buffer behind ConflictGraph.u/.v and
# the rank-order buffer behind Projector.u/.v: 2.5 GB each for Tax at 10⁶ rows) were therefore fresh memory in
# every repeat of a benchmark, however many warm-up runs preceded it. They now come from a small pool that keeps
# the buffers of the previous graph once nothing refers to them any more.

#: requests below this many bytes are plain np.empty (the pool only matters for multi-GB arrays)
SCRATCH_MIN_BYTES = 64 << 20
#: at most this many unused buffers are kept (a graph and its order need two)
SCRATCH_KEEP = 2
_scratch: list = []  # owning uint8 arrays; a buffer is in use while a view of it is alive


def _unused(i: int) -> bool:
    # references: the list slot and getrefcount's argument; every live view adds one (its .base is the buffer)
    import sys

    return sys.getrefcount(_scratch[i]) <= 2


def scratch(size: int, dtype=np.int64) -> np.ndarray:
    """An uninitialised 1-d array of ``size`` items (like ``np.empty``), reusing a kept buffer that nothing refers
    to any more when it is large. Its ``.base`` is the kept buffer, so the buffer stays in use for as long as any
    view of the result lives (e.g. a graph's ``u``/``v``)."""
    dtype = np.dtype(dtype)
    nbytes = int(size) * dtype.itemsize
    if nbytes < SCRATCH_MIN_BYTES:
        return np.empty(size, dtype)
    free = [i for i in range(len(_scratch)) if _unused(i)]
    if len(free) > SCRATCH_KEEP:  # several large graphs died together: keep only the largest unused buffers
        for i in sorted(free, key=lambda i: _scratch[i].nbytes)[: len(free) - SCRATCH_KEEP]:
            _scratch[i] = None
        _scratch[:] = [b for b in _scratch if b is not None]
        free = [i for i in range(len(_scratch)) if _unused(i)]
    fits = [i for i in free if _scratch[i].nbytes >= nbytes]
    if fits:
        best = min(fits, key=lambda i: _scratch[i].nbytes)
        return _scratch[best][:nbytes].view(dtype)
    # none fits: drop unused buffers beyond the kept number (the smallest first) and allocate a new one
    for i in sorted(free, key=lambda i: _scratch[i].nbytes)[: max(0, len(free) - SCRATCH_KEEP + 1)]:
        _scratch[i] = None
    _scratch[:] = [b for b in _scratch if b is not None]
    buf = np.empty(nbytes, np.uint8)
    _scratch.append(buf)
    return buf.view(dtype)


def release_scratch() -> int:
    """Free every kept buffer that nothing refers to any more (returns how many bytes were released)."""
    keep, freed = [], 0
    for i in range(len(_scratch)):
        if _unused(i):
            freed += _scratch[i].nbytes
        else:
            keep.append(_scratch[i])
    _scratch[:] = keep
    return freed
