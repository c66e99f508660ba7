"""Parallel numba kernels for large conflict graphs (issue 16: Tax at 10⁶ rows, 313 M edges).

Edges are packed as int64 keys ``(a << s) | b`` with ``s = bits(n)`` — the same order as ``a·n + b`` but
decoded with a shift and a mask instead of a 64-bit division (two divisions per edge cost seconds at 3·10⁸
edges). Every kernel is deterministic: the output never depends on the number of threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange


def shift_for(n: int) -> int:
    """Bits needed for a node id in 0..n-1 (at least 1)."""
    return max(1, int(n - 1).bit_length()) if n > 1 else 1


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


@njit(cache=True)
def _merge_chunk(cat, off, lo, hi, ou, ov, start, s, mask):
    """k-way merge of the sorted distinct runs cat[off[i] + lo[i] : off[i] + hi[i]] with duplicates removed;
    writes decoded (u, v) from ``start``; returns the number written."""
    k = lo.size
    big = np.int64(9223372036854775807)
    cur = np.empty(k, np.int64)
    end = np.empty(k, np.int64)
    hv = np.empty(k, np.int64)
    for i in range(k):
        cur[i] = off[i] + lo[i]
        end[i] = off[i] + hi[i]
        hv[i] = cat[cur[i]] if cur[i] < end[i] else big
    t = start
    last = np.int64(-1)
    while True:
        best = 0
        bv = hv[0]
        for i in range(1, k):
            if hv[i] < bv:
                bv = hv[i]
                best = i
        if bv == big:
            break
        c = cur[best] + 1
        cur[best] = c
        hv[best] = cat[c] if c < end[best] else big
        if bv != last:
            ou[t] = np.int32(bv >> s)
            ov[t] = np.int32(bv & mask)
            t += 1
            last = bv
    return t - start


@njit(cache=True, parallel=True)
def merge_unique_split(cat, off, bounds, s):
    """Union of sorted distinct int64 key lists (run i = cat[off[i]:off[i+1]]) → (u, v) int32 in key order, m.

    ``bounds[c, i]``: where chunk c starts in run i (value splitters, so equal keys fall in one chunk). Chunks
    are merged in parallel into disjoint ranges of over-allocated outputs, then compacted in order."""
    k = off.size - 1
    nc = bounds.shape[0] - 1
    cap = np.zeros(nc + 1, np.int64)
    for c in range(nc):
        tot = 0
        for i in range(k):
            tot += bounds[c + 1, i] - bounds[c, i]
        cap[c + 1] = cap[c] + tot
    ou = np.empty(cap[nc], np.int32)
    ov = np.empty(cap[nc], np.int32)
    got = np.zeros(nc, np.int64)
    mask = (np.int64(1) << s) - 1
    for c in prange(nc):
        got[c] = _merge_chunk(cat, off, bounds[c], bounds[c + 1], ou, ov, cap[c], s, mask)
    m = 0
    for c in range(nc):
        src = cap[c]
        for j in range(got[c]):
            ou[m + j] = ou[src + j]
            ov[m + j] = ov[src + j]
        m += got[c]
    return ou, ov, m


@njit(cache=True, parallel=True)
def rank_keys_shift(u, v, pos, s):
    """Key (max place << s) | min place per edge (place = pos[node] in the stable node sequence)."""
    m = u.size
    out = np.empty(m, np.int64)
    for i in prange(m):
        a = np.int64(pos[u[i]])
        b = np.int64(pos[v[i]])
        if a < b:
            a, b = b, a
        out[i] = (a << s) | b
    return out


@njit(cache=True, parallel=True)
def decode_rank_inplace(keys, pairs, inv, s):
    """Decode sorted rank keys into node pairs (min node, max node), written over the keys themselves:
    ``pairs`` is the int32 view of ``keys`` (pair i occupies the 8 bytes of key i)."""
    mask = (np.int64(1) << s) - 1
    for i in prange(keys.size):
        k = keys[i]
        a = inv[k >> s]
        b = inv[k & mask]
        if a > b:
            a, b = b, a
        pairs[2 * i] = np.int32(a)
        pairs[2 * i + 1] = np.int32(b)


@njit(cache=True)
def _edge_addition_group(u, v, n, thetas, js, kept, pos, d):
    """One pass for the θs thetas[js]: degree row d[node·g : node·g + g] (d zeroed, dtype wide enough)."""
    g = js.size
    th = np.empty(g, np.int64)
    for q in range(g):
        th[q] = thetas[js[q]]
    cnt = np.zeros(g, np.int64)
    for k in range(u.size):
        a = np.int64(u[k]) * g
        b = np.int64(v[k]) * g
        for q in range(g):
            if d[a + q] < th[q] and d[b + q] < th[q]:
                d[a + q] += 1
                d[b + q] += 1
                cnt[q] += 1
    for q in range(g):
        p = 0
        for i in range(n):
            if d[i * g + q] > 0:
                p += 1
        kept[js[q]] = cnt[q]
        pos[js[q]] = p


@njit(cache=True, parallel=True)
def edge_addition_multi(u, v, n, thetas, groups, d16):
    """Algorithm 1 for several θ, one pass over the edges per thread group: (kept edges, positive-degree
    nodes) per θ. θ j is handled by group j % groups, each with a degree row of its θs (uint16 when
    ``d16`` — every θ < 65535 — so the rows stay in cache)."""
    k = thetas.size
    kept = np.zeros(k, np.int64)
    pos = np.zeros(k, np.int64)
    for gi in prange(groups):
        cnt = 0
        for j in range(k):
            if j % groups == gi:
                cnt += 1
        js = np.empty(cnt, np.int64)
        c = 0
        for j in range(k):
            if j % groups == gi:
                js[c] = j
                c += 1
        if cnt > 0:
            if d16:
                _edge_addition_group(u, v, n, thetas, js, kept, pos, np.zeros(n * cnt, np.uint16))
            else:
                _edge_addition_group(u, v, n, thetas, js, kept, pos, np.zeros(n * cnt, np.int32))
    return kept, pos


@njit(cache=True)
def group_ptr(keys, s, n):
    """ptr[p]..ptr[p+1]: the edges whose later place is p, in sorted rank keys (before decoding)."""
    ptr = np.zeros(n + 1, np.int64)
    for i in range(keys.size):
        ptr[(keys[i] >> s) + 1] += 1
    for p in range(n):
        ptr[p + 1] += ptr[p]
    return ptr


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


@njit(cache=True)
def degrees(u, v, n):
    d = np.zeros(n, np.int64)
    for i in range(u.size):
        d[u[i]] += 1
        d[v[i]] += 1
    return d
