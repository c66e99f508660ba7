"""Private ID3: GlobalDiffPID3 (EM), LocalDiffPID3 (LD), ShiftedLocalDiffPID3 (SLD) — Ch. 7, spec §5.

Add/remove-one-tuple neighbours (the thesis' ΔIG and Lemma 7.3.1 are for this model, spec §7 item 19).
Data: integer-coded attributes ``X`` (n×d) with public domain sizes, class codes ``y``.
Budget split B/(2(d+1)) per level (d = depth), NoisyCount = Laplace(1/ε), stopping rule with √2/ε
(corrected from the printed √2/2). Gini and Max criteria (Friedman & Schuster 2010, not in the
thesis) are EM-only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numba
import numpy as np

from dpworkbench._validation import check_int, check_options

from .model import SensitivityMatrix, dampen

METHODS = ("Global", "Local", "Shifted")
CRITERIA = ("ig", "gini", "max")


def phi(x):
    x = np.asarray(x, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x > 0, x * np.log2(np.where(x > 0, x, 1.0)), 0.0)


def f_add(x):
    x = np.asarray(x, float)
    return np.where(x > 0, phi(x + 1) - phi(x), 0.0)


def g_rem(x):
    x = np.asarray(x, float)
    return np.where(x > 1, phi(x - 1) - phi(x), 0.0)


def h(a, b):
    """Lemma 7.3.1: max(f(a)−f(b), g(b)−g(a)) — effect of adding / removing a (j,c) tuple."""
    return np.maximum(f_add(a) - f_add(b), g_rem(b) - g_rem(a))


def delta_ig_global(n_bound: int) -> float:
    """ΔIG = log2(N+1) + 1/ln 2 with a public size bound N (Thm / spec §5.4)."""
    return math.log2(n_bound + 1) + 1 / math.log(2)


def contingency(X: np.ndarray, y: np.ndarray, attr: int, n_values: int, n_classes: int) -> np.ndarray:
    return np.bincount(X[:, attr] * n_classes + y, minlength=n_values * n_classes).reshape(n_values, n_classes)


def contingencies(X: np.ndarray, y: np.ndarray, attrs: list[int], domains: list[int], n_classes: int) -> list[np.ndarray]:
    """``contingency`` for several attributes with one ``bincount`` (same tables)."""
    if not attrs:
        return []
    sizes = np.array([domains[a] * n_classes for a in attrs], np.int64)
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    codes = X[:, attrs].astype(np.int64) * n_classes + np.asarray(y, np.int64)[:, None] + offsets[None, :]
    flat = np.bincount(codes.ravel(), minlength=int(sizes.sum()))
    return [flat[o:o + z].reshape(domains[a], n_classes) for a, o, z in zip(attrs, offsets, sizes)]


def utilities_ig(cnts: list[np.ndarray]) -> np.ndarray:
    """``utility(c, "ig")`` for a list of tables in one vectorised pass."""
    if not cnts:
        return np.zeros(0)
    cells = np.concatenate([c.ravel() for c in cnts])
    rows = np.concatenate([c.sum(axis=1) for c in cnts])
    cell_id = np.repeat(np.arange(len(cnts)), [c.size for c in cnts])
    row_id = np.repeat(np.arange(len(cnts)), [c.shape[0] for c in cnts])
    return np.bincount(cell_id, phi(cells), minlength=len(cnts)) - np.bincount(row_id, phi(rows), minlength=len(cnts))


def utility(cnt: np.ndarray, criterion: str = "ig") -> float:
    """u_IG = Σ_j[Σ_c φ(τ_jc) − φ(τ_j)] (≤ 0); Gini / Max from Friedman & Schuster."""
    tj = cnt.sum(axis=1)
    if criterion == "ig":
        return float(phi(cnt).sum() - phi(tj).sum())
    if criterion == "gini":
        with np.errstate(divide="ignore", invalid="ignore"):
            return float(-np.sum(np.where(tj > 0, tj * (1 - np.sum((cnt / np.maximum(tj, 1)[:, None]) ** 2, axis=1)), 0.0)))
    if criterion == "max":
        return float(cnt.max(axis=1).sum())
    raise ValueError(f"criterion must be one of {CRITERIA}, got {criterion!r}")


CRITERION_SENSITIVITY = {"gini": 2.0, "max": 1.0}


def ls_ig(cnt: np.ndarray, t: int) -> float:
    """LS^IG(T,t,A) by the closed form of the corrected Candidates (no `a < τ` guard):
    max_{j,c} max_{0≤k≤min(t,τ_jc)} h(τ_j+t−2k, τ_jc−k)."""
    a = np.repeat(cnt.sum(axis=1), cnt.shape[1]).astype(float)
    b = cnt.ravel().astype(float)
    best = 0.0
    for k in range(t + 1):
        ok = b >= k
        if not ok.any():
            break
        best = max(best, float(h(a[ok] + t - 2 * k, b[ok] - k).max()))
    return best


@numba.njit(cache=True)
def _phi1(x):
    return x * math.log2(x) if x > 0 else 0.0


@numba.njit(cache=True)
def _fg_tables(size):
    """F[x] = φ(x+1) − φ(x) (x > 0) and G[x] = φ(x−1) − φ(x) (x > 1) for integer x < size."""
    F = np.zeros(size)
    G = np.zeros(size)
    for x in range(size):
        xf = float(x)
        if x > 0:
            F[x] = _phi1(xf + 1) - _phi1(xf)
        if x > 1:
            G[x] = _phi1(xf - 1) - _phi1(xf)
    return F, G


@numba.njit(cache=True)
def _ls_profile_kernel(a, b, horizon, F, G):
    """Integer counts: h(a', b') = max(F[a'] − F[b'], G[b'] − G[a']) by table look-up (no logarithms in the loop)."""
    out = np.zeros(horizon)
    for i in range(a.size):
        ai = a[i]
        bi = b[i]
        for t in range(horizon):
            K = min(t, bi)
            best = out[t]
            for k in (0, max(K - 1, 0), K):
                x = ai + t - 2 * k
                y = bi - k
                v = max(F[x] - F[y], G[y] - G[x])
                if v > best:
                    best = v
            out[t] = best
    return out


# Precomputed φ-difference tables for counts up to "size" (pure arithmetic, no data), grown on demand.
_FG: dict = {}


def _tables(size: int):
    have = _FG.get("size", 0)
    if have < size:
        size = max(size, 2 * have, 65_536)
        _FG["F"], _FG["G"] = _fg_tables(size)
        _FG["size"] = size
    return _FG["F"], _FG["G"]


def ls_ig_profile(cnt: np.ndarray, horizon: int) -> np.ndarray:
    """LS^IG(T,t,A) for t = 0..horizon−1 at once, using the {0, K−1, K} shortcut of spec §5.6
    (K = min(t, τ_jc); checked against the O(K) closed form ``ls_ig`` by a property test).

    numba kernel over precomputed φ-difference tables (integer counts). Not memoised: one profile costs about as
    much as hashing its table would, so a per-table cache did not pay (measured on NLTCS, depth 5)."""
    cnt = np.ascontiguousarray(cnt, dtype=np.int64)
    if cnt.size and cnt.min() < 0:
        raise ValueError("contingency counts must be non-negative")
    a = np.repeat(cnt.sum(axis=1), cnt.shape[1]).astype(np.int64)
    b = cnt.ravel().astype(np.int64)
    F, G = _tables(int(a.max(initial=0)) + int(horizon) + 2)
    res = _ls_profile_kernel(a, b, int(horizon), F, G)
    res.flags.writeable = False
    return res


def ls_ig_profile_numpy(cnt: np.ndarray, horizon: int) -> np.ndarray:
    """Vectorised numpy version of ``ls_ig_profile`` (reference for tests and the benchmark)."""
    a = np.repeat(cnt.sum(axis=1), cnt.shape[1]).astype(float)[None, :]
    b = cnt.ravel().astype(float)[None, :]
    t = np.arange(horizon, dtype=float)[:, None]
    K = np.minimum(t, b)
    best = np.zeros((horizon, a.shape[1]))
    for k in (np.zeros_like(K), np.maximum(K - 1, 0), K):
        best = np.maximum(best, h(a + t - 2 * k, b - k))
    return best.max(axis=1)


def ls_ig_candidates(cnt: np.ndarray, t: int, *, tau: int | None = None, guard: bool = False) -> float:
    """Alg. 5 enumerated; ``guard=True`` keeps the thesis' spurious `a < τ` guard (under-estimates)."""
    best = 0.0
    tau = int(cnt.sum()) if tau is None else tau
    for j in range(cnt.shape[0]):
        for c in range(cnt.shape[1]):
            level = {(int(cnt[j].sum()), int(cnt[j, c]))}
            allc = set(level)
            for _ in range(t):
                nxt = set()
                for a, b in level:
                    if a > 0 and b > 0:
                        nxt.add((a - 1, b - 1))
                    if not guard or a < tau:
                        nxt.add((a + 1, b))
                level = nxt
                allc |= nxt
            best = max(best, max(float(h(a, b)) for a, b in allc))
    return best


def ls_ig_bruteforce(cnt: np.ndarray, t: int) -> float:
    """Exact LS^IG(T,t,A) over add/remove moves of any (j,c) tuple (tiny tables only)."""
    def ls0(c):
        u0 = utility(c)
        best = 0.0
        for j in range(c.shape[0]):
            for k in range(c.shape[1]):
                y = c.copy(); y[j, k] += 1; best = max(best, abs(utility(y) - u0))
                if c[j, k] > 0:
                    y = c.copy(); y[j, k] -= 1; best = max(best, abs(utility(y) - u0))
        return best
    ball = {cnt.tobytes(): cnt}
    frontier = [cnt]
    for _ in range(t):
        new = []
        for c in frontier:
            for j in range(c.shape[0]):
                for k in range(c.shape[1]):
                    for s in (1, -1):
                        if s < 0 and c[j, k] == 0:
                            continue
                        y = c.copy(); y[j, k] += s
                        if y.tobytes() not in ball:
                            ball[y.tobytes()] = y; new.append(y)
        frontier = new
    return max(ls0(c) for c in ball.values())


def ig_delta_matrix(cnts: list[np.ndarray], global_sensitivity: float, horizon: int) -> SensitivityMatrix:
    """δ = min(LS^IG(T,t,A), ΔIG) floored at η = 1e-9 for t < T (public horizon), one row per attribute — what
    LocalDiffPID3 / ShiftedLocalDiffPID3 use (``ig_sensitivity`` is the same function as a checkable object)."""
    return SensitivityMatrix(np.clip([ls_ig_profile(c, horizon) for c in cnts], 1e-9, global_sensitivity), global_sensitivity,
                             name="LS^IG (corrected Candidates, closed form)")


def ig_sensitivity(n_bound: int, *, horizon: int | None = 1024, candidates: str = "corrected", floor: float = 1e-9):
    """LS^IG(T, t, A) (Alg. 5 / Lemma 7.3.2) as a checkable ``SensitivityFunction``; x is a list of contingency tables
    (one per attribute; a single table is accepted), add/remove-one-tuple neighbours, ΔIG from the public size bound N.

    ``candidates="corrected"`` (default): no `a < τ` guard, the O(1) {0, K−1, K} profile used by the tree builder.
    ``candidates="thesis_guard"``: Alg. 5 as printed, which under-estimates LS — not admissible, marked ``privacy_unverified``."""
    from .model import SensitivityFunction

    gs = delta_ig_global(check_int(n_bound, "n_bound", minimum=1))
    check_options(candidates, "candidates", ("corrected", "thesis_guard"))

    def tables(x):
        return [np.asarray(x)] if isinstance(x, np.ndarray) and x.ndim == 2 else [np.asarray(c) for c in x]

    def fn(x, t):
        if candidates == "thesis_guard":
            return [ls_ig_candidates(c, t, guard=True) for c in tables(x)]
        if horizon is not None:
            return [ls_ig_profile(c, horizon)[t] for c in tables(x)]
        return [ls_ig(c, t) for c in tables(x)]

    return SensitivityFunction(fn, gs, name="LS^IG " + ("(corrected)" if candidates == "corrected" else "(thesis `a < τ` guard, NOT admissible)"),
                               horizon=horizon, floor=floor, privacy_unverified=candidates == "thesis_guard")


@dataclass
class Node:
    attr: int | None = None
    label: int | None = None
    children: list = field(default_factory=list)


def rows_used(X: np.ndarray, y: np.ndarray, domains: list[int], n_classes: int, n_bound: int | None):
    """The rows :func:`fit` grows its tree on, by public rules applied to the user's rows (issue 21):

    1. a row with an attribute or class code outside the public domains is dropped (a rule on the row alone, so one
       row added or removed adds or removes at most that row; no refusal, no code quoted);
    2. with a public ``n_bound`` N, only the first N rows in input order are kept (see :func:`fit` for why the
       queries are then calibrated to twice their one-row sensitivity: ``stab`` = 2).

    Returns ``(X, y, n_bound, stab, rows dropped, rows cut)``; the two counts are NOT PRIVATE."""
    ok = (y >= 0) & (y < n_classes)
    if X.shape[0]:
        ok &= ((X >= 0) & (X < np.asarray(domains))).all(axis=1)
    X, y = X[ok].astype(np.int64), y[ok].astype(np.int64)
    # n_bound is checked by the declaration (``dampening.id3_*``: an int ≥ 1) before any row is read
    n_bound, stab = (max(X.shape[0], 1), 1) if n_bound is None else (int(n_bound), 2)  # None: derived, nothing cut
    return X[:n_bound], y[:n_bound], n_bound, stab, int((~ok).sum()), max(X.shape[0] - n_bound, 0)


def predict(tree: Node, X: Any) -> np.ndarray:
    X = np.asarray(X)
    out = np.empty(X.shape[0], np.int64)
    def go(node, idx):
        if node.label is not None:
            out[idx] = node.label; return
        col = X[idx, node.attr]
        for v, ch in enumerate(node.children):
            go(ch, idx[col == v])
    go(tree, np.arange(X.shape[0]))
    return out


def root_ranking(X, y, domains, n_classes, *, horizon: int = 1024, n_bound=None) -> "Any":
    """Inversion diagnostic at the root: IG order vs D order vs SLD-score order.

    References
    ----------
    de Farias 2021, Ch. 7 (inversion at the root, Fig. 24).
    """
    import pandas as pd

    X = np.asarray(X); y = np.asarray(y)
    gs = delta_ig_global(n_bound or X.shape[0])
    cnts = [contingency(X, y, a, domains[a], n_classes) for a in range(X.shape[1])]
    u = np.array([utility(c) for c in cnts])
    dm = ig_delta_matrix(cnts, gs, horizon)
    D = dampen(u, dm)
    sld = u - np.sum(gs - dm.values, axis=1)
    df = pd.DataFrame({"attribute": range(X.shape[1]), "u_ig": u, "ls0": dm.values[:, 0], "D": D, "sld_utility": sld})
    for col in ("u_ig", "D", "sld_utility"):
        df[f"rank_{col}"] = df[col].rank(ascending=False, method="first").astype(int)
    return df.sort_values("rank_u_ig")
