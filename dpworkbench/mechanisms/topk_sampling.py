"""Many independent sequential top-k selections at once (research sweeps: seeded generators only).

:func:`sequential_top_k_samples` draws ``runs`` × k node ids, each row k sequential draws without replacement from
the per-draw log-weights ``logits`` by the exponential mechanism (law ∝ exp(l)) or permute-and-flip. It is the
``size=R`` path of a declared top-k selection (e.g. local dampening's PrivTopk): the same law as the release path
(one-shot Gumbel-top-k / sequential permute-and-flip on the back-end) up to a truncation below 1e-18 in total
variation (candidates whose logit is more than :data:`TRUNCATION` below the k-th largest are never drawn).
"""

from __future__ import annotations

import numba
import numpy as np

TRUNCATION = 60.0  # logits more than this below the k-th largest are dropped: each such node wins a draw with prob. < e^-55


@numba.njit(cache=True)
def _sequential_topk_kernel(logits, k, runs, pf, seed):
    """``runs`` × k sequential draws without replacement over ``logits`` (sorted descending), by rejection.

    Each draw samples from the remaining elements; the acceptance probability of element e is exp(l_e − l_max)
    where l_max is the remaining maximum (accepted with probability 1, so every draw ends).
    ``pf=True``: permute-and-flip (examine the remaining elements in a lazily drawn uniform random order —
    incremental Fisher–Yates — and output the first accepted one; Alg. of McKenna & Sheldon 2020).
    ``pf=False``: exponential mechanism (propose uniformly with replacement, accept; law ∝ exp(l)).
    Cheap exactly where Gumbel-max is expensive (flat logits) and vice versa (peaked logits are truncated)."""
    np.random.seed(seed)
    m0 = logits.size
    out = np.empty((runs, k), np.int64)
    perm = np.empty(m0, np.int64)
    removed = np.zeros(m0, np.bool_)
    for r in range(runs):
        for i in range(m0):
            perm[i] = i
            removed[i] = False
        m = m0
        top = 0
        for j in range(k):
            while removed[top]:
                top += 1
            lmax = logits[top]
            pos = 0
            if pf:
                i = 0
                while True:
                    q = i + np.random.randint(0, m - i)
                    tmp = perm[i]
                    perm[i] = perm[q]
                    perm[q] = tmp
                    if np.random.random() < np.exp(logits[perm[i]] - lmax):
                        pos = i
                        break
                    i += 1
            else:
                while True:
                    pos = np.random.randint(0, m)
                    if np.random.random() < np.exp(logits[perm[pos]] - lmax):
                        break
            e = perm[pos]
            perm[pos] = perm[m - 1]
            perm[m - 1] = e
            m -= 1
            removed[e] = True
            out[r, j] = e
    return out


def sequential_top_k_samples(logits: np.ndarray, k: int, runs: int, *, pf: bool, gen: np.random.Generator,
                             sampler: str = "auto", chunk_elems: int = 4_000_000) -> np.ndarray:
    """``runs`` independent sequential top-k selections (runs × k ids) from per-draw log-weights ``logits``.

    PF (``pf=True``): numba permute-and-flip with a lazy random order over the remaining candidates. EM: whichever
    exact sampler is cheaper for these logits — rejection sampling of k sequential draws without replacement (flat
    logits) or one-shot Gumbel-top-k over the candidates (peaked logits, :func:`gumbel_top_k_samples`); ``sampler``
    = "rejection" / "gumbel" forces one (EM only; both are exact)."""
    if sampler not in ("auto", "rejection", "gumbel"):
        raise ValueError(f"sampler must be one of auto, rejection, gumbel; got {sampler!r}")
    logits = np.asarray(logits, float)
    n = logits.size
    kth = np.partition(logits, n - k)[n - k]
    cand = np.flatnonzero(logits >= kth - TRUNCATION)
    cand = cand[np.lexsort((cand, -logits[cand]))]
    lc = logits[cand]
    if not pf and sampler != "rejection":
        # expected proposals of the rejection sampler ≈ Σ_j m / S_j, S_j = Σ_{i≥j} exp(l_i − l_j) (top-j removed)
        head = lc[: k]
        s = np.array([np.exp(lc[j:] - head[j]).sum() for j in range(k)]) if cand.size <= 200_000 else np.ones(k)
        if sampler == "gumbel" or (cand.size / s).sum() > 3.0 * cand.size:
            return cand[gumbel_top_k_samples(lc, k, runs, pf=False, gen=gen, chunk_elems=chunk_elems)]
    seed = int(gen.integers(0, 2**62))
    return cand[_sequential_topk_kernel(lc, k, runs, pf, seed)]


def gumbel_top_k_samples(logits: np.ndarray, k: int, runs: int, *, pf: bool, gen: np.random.Generator,
                         chunk_elems: int = 4_000_000) -> np.ndarray:
    """Plain numpy reference of :func:`sequential_top_k_samples`: EM by one-shot Gumbel-top-k; PF by k sequential
    steps of report-noisy-max with exponential noise over the remaining ids, identical in law to permute-and-flip
    (Ding, Kifer et al. 2021). All runs' noise is drawn at once (in chunks of ``chunk_elems`` values)."""
    logits = np.asarray(logits, float)
    n = logits.size
    out = np.empty((runs, k), np.int64)
    step = max(1, chunk_elems // max(1, n))
    for a in range(0, runs, step):
        b = min(runs, a + step)
        if pf:
            chosen = np.zeros((b - a, n), bool)
            for j in range(k):
                z = logits[None, :] + gen.exponential(size=(b - a, n))
                z[chosen] = -np.inf
                pick = np.argmax(z, axis=1)
                out[a:b, j] = pick
                chosen[np.arange(b - a), pick] = True
        else:
            z = logits[None, :] + gen.gumbel(size=(b - a, n))
            part = np.argpartition(-z, k - 1, axis=1)[:, :k] if k < n else np.tile(np.arange(n), (b - a, 1))
            order = np.argsort(-np.take_along_axis(z, part, axis=1), axis=1)
            out[a:b] = np.take_along_axis(part, order, axis=1)
    return out


__all__ = ["TRUNCATION", "gumbel_top_k_samples", "sequential_top_k_samples"]
