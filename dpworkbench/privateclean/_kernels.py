"""Compiled loops of the multi-attribute estimators (issue 25): one pass over the rows instead of several numpy
passes, each with its temporary (the 10⁶-row grouped query of benchmarks/bench_privateclean_multi.py). Equal outputs
to the numpy expressions they replace (tested in tests/privateclean/test_multi.py)."""
from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def lut_codes(fac, sizes, lut):
    """``lut[mixed-radix index of the columns' factor codes]`` per row; a factor code −1 (NULL) is the column's
    last slot (sizes[j] − 1). ``fac``: a tuple of int64 arrays, one per column, C order as ``np.indices``."""
    S = fac[0].shape[0]
    out = np.empty(S, np.int64)
    for i in range(S):
        idx = 0
        for j in range(len(fac)):
            c = fac[j][i]
            if c < 0:
                c = sizes[j] - 1
            idx = idx * sizes[j] + c
        out[i] = lut[idx]
    return out


@numba.njit(cache=True)
def cell_moments(codes, sizes, y, kmax):
    """(rows per cell, Σ y^k per cell for k = 1..kmax, ok) over the cells of the partitions' codes in mixed radix
    (``np.ravel_multi_index`` order); ``ok`` is False when a code lies outside its partition's domain."""
    M = 1
    for j in range(len(sizes)):
        M *= sizes[j]
    n = np.zeros(M)
    m = np.zeros((kmax, M))
    S = codes[0].shape[0]
    for i in range(S):
        idx = 0
        for j in range(len(codes)):
            c = codes[j][i]
            if c < 0 or c >= sizes[j]:
                return n, m, False
            idx = idx * sizes[j] + c
        n[idx] += 1.0
        if kmax > 0:
            v = y[i]
            p = 1.0
            for k in range(kmax):
                p *= v
                m[k, idx] += p
    return n, m, True
