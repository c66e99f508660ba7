"""numba kernels for exact log-space selection on large candidate sets.

``softmax_sample_expj`` draws one index with P[i] ∝ exp(logits[i]) by the
exponential-jump weighted reservoir of Efraimidis & Spirakis (A-ExpJ, k = 1),
which is equal in law to Gumbel-max (the key u_i^{1/w_i} is monotone in
logit_i + Gumbel_i) but draws O(log n) random numbers instead of n. Weights are
exp(logit − max) ∈ (0, 1]; the maximum has weight 1, so nothing overflows, and
weights that underflow to 0 are correctly never selected. There is no
deterministic fallback anywhere.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def softmax_sample_expj(logits: np.ndarray, rng: np.random.Generator) -> int:
    n = logits.size
    lmax = -np.inf
    for i in range(n):
        if logits[i] > lmax:
            lmax = logits[i]
    # Find the first item with positive weight to seed the reservoir.
    start = 0
    while start < n:
        w0 = np.exp(logits[start] - lmax)
        if w0 > 0.0:
            break
        start += 1
    best = start
    u = rng.random()
    while u == 0.0:
        u = rng.random()
    log_key = np.log(u) / w0  # log of key u^(1/w), key in (0, 1)
    # weight to skip before the next replacement
    v = rng.random()
    while v == 0.0:
        v = rng.random()
    x = np.log(v) / log_key
    acc = 0.0
    for i in range(start + 1, n):
        w = np.exp(logits[i] - lmax)
        if w == 0.0:
            continue
        acc += w
        if acc >= x:
            # replace: new key uniform in (T^w, 1) raised to 1/w
            tw = np.exp(w * log_key)
            r = tw + (1.0 - tw) * rng.random()
            if r <= 0.0:
                r = tw
            if r >= 1.0:
                r = np.nextafter(1.0, 0.0)
            log_key = np.log(r) / w
            best = i
            v = rng.random()
            while v == 0.0:
                v = rng.random()
            x = np.log(v) / log_key
            acc = 0.0
    return best
