"""Parallel numba kernels for large conflict graphs (issue 16: Tax at 10⁶ rows, 313 M edges).

Edges are packed as int64 keys ``(a << s) | b`` with ``s = bits(n)`` — the same order as ``a·n + b`` but
decoded with a shift and a mask instead of a 64-bit division (two divisions per edge cost seconds at 3·10⁸
edges). Every kernel is deterministic: the output never depends on the number of threads.
"""

from __future__ import annotations

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


@njit(cache=True)
def edge_addition_grouped(u, v, n, theta, inv, ptr):
    """Algorithm 1 over rank-ordered edges grouped by their later node h = inv[p] (edges ptr[p]..ptr[p+1]):
    once h has degree θ none of its remaining edges can be kept, so the scan skips the rest of the group.
    Same result as :func:`~._kernels.edge_addition`."""
    d = np.zeros(n, np.int32)
    th = np.int32(min(theta, 2**31 - 1))
    kept = 0
    for p in range(ptr.size - 1):
        h = inv[p]
        dh = d[h]
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
    for i in range(n):
        if d[i] > 0:
            pos += 1
    return kept, pos


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
bucket_fill_serial = njit(cache=True)(bucket_fill.py_func)
rank_bucket_fill_serial = njit(cache=True)(rank_bucket_fill.py_func)
_degrees_serial = njit(cache=True)(_degrees.py_func)
prefault_serial = njit(cache=True)(prefault.py_func)

#: below this many items (pairs of combos, edges) the serial twins are used
PARALLEL_MIN = 200_000
