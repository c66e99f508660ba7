"""Direct and PrivateClean (bias-corrected) COUNT/SUM/AVG with confidence intervals (spec §3).

Post-processing: every estimator here (Direct, PrivateClean weighted/unweighted, the no-provenance ``pc_noprov``)
reads only the cleaned private relation C(V) and public parameters (p, the released domains, the analyst's
cleaner and predicate). It spends no ε and returns a plain :class:`Estimate`, not a ``Release``: the privacy of an
answer is the privacy of the :func:`~dpworkbench.privateclean.grr` release it was computed from (its ledger).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pandas as pd

from dpworkbench._validation import check_options

from .model import CleanedRelation

METHODS = ("direct", "privateclean", "pc_unweighted", "pc_noprov")


@dataclass
class Estimate:
    """An estimate with its 95 % confidence interval [lo, hi] and what it was computed from (``meta``: l, N, the
    private counts; all post-processing of V and public parameters).

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §5.4–5.6 (estimates with confidence intervals); spec §3.
    """

    value: float
    lo: float
    hi: float
    meta: dict = field(default_factory=dict)


def count_estimate(c_private: float, S: int, p: float, l: float, N: int) -> float:
    """Eq. 3: ĉ = (c_private − S·p·l/N)/(1−p). Example 4 → 333.33.

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §5.4 Eq. 3, Example 4; spec §3.5.
    """
    if not 0 <= p < 1:
        raise ValueError(f"p must be in [0, 1), got {p}")
    return (c_private - S * p * l / N) / (1.0 - p)


def sum_estimate(h_p: float, h_c: float, p: float, l: float, N: int) -> float:
    """Eq. 5: ĥ = ((N − lp) h_p − lp h_p^c)/((1−p)N).

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §5.5; spec §3.6.
    """
    if not 0 <= p < 1:
        raise ValueError(f"p must be in [0, 1), got {p}")
    return ((N - l * p) * h_p - l * p * h_c) / ((1.0 - p) * N)


def _selector(pred: Any) -> Callable[[Any], bool]:
    f = _selector_raw(pred)

    def sel(v: Any) -> bool:
        if isinstance(v, float) and v != v:
            v = None
        return bool(f(v))
    return sel


def _selector_raw(pred: Any) -> Callable[[Any], bool]:
    if callable(pred):
        return pred
    if isinstance(pred, (set, frozenset, list, tuple)):
        vals = set(pred)
        return lambda v: v in vals
    return lambda v: v == pred


def estimate(
    crel: CleanedRelation,
    agg: str,
    pred_col: str,
    pred: Any,
    value_col: str | None = None,
    *,
    method: str = "privateclean",
    domain_source: str = "released",
    ci: str = "row_clt",
    z: float = 1.96,
) -> Estimate:
    """``SELECT agg(value_col) FROM V_clean WHERE pred(pred_col)``.

    ``pred``: a value, a set of clean values (M_pred) or a callable on clean values.
    ``method``: direct | privateclean (weighted cut, PC-W) | pc_unweighted (PC-U) | pc_noprov (l′, N′ of the
    cleaned domain). ``ci``: row_clt (default; per-row CLT, delta method for avg) or paper (Eq. 3/5 forms,
    ratio-interval for avg).

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §5.1–5.6 (Direct, PrivateClean COUNT/SUM/AVG), §6.4 (provenance), §7 (weighted); spec §3.
    """
    check_options(agg, "agg", ("count", "sum", "avg"))
    check_options(method, "method", METHODS)
    check_options(ci, "ci", ("row_clt", "paper"))
    data = crel.data
    if pred_col not in data.columns:
        raise ValueError(f"predicate on unknown attribute {pred_col!r}")
    if agg != "count":
        if value_col is None or value_col not in data.columns:
            raise ValueError(f"unknown numeric attribute {value_col!r}")
    src = crel.sources.get(pred_col, pred_col)
    if src not in crel.private.p:
        raise ValueError(f"attribute {src!r} was not randomized with GRR")
    p = crel.private.p[src]
    sel = _selector(pred)
    fcodes, uniq = crel.factorized(pred_col)
    hitarr = np.array([bool(sel(u)) for u in uniq], dtype=bool)
    hit = {i: bool(h) for i, h in enumerate(hitarr)}
    I = hitarr[fcodes]
    S = len(data)
    a = np.ones(S) if agg == "count" else data[value_col].to_numpy(dtype=float)
    edges = crel.provenance(pred_col, domain_source)
    N = int(edges["l"].nunique(dropna=False))
    edges_hit = edges[[bool(sel(m)) for m in edges["m"]]]
    l_w = float(edges_hit["weight"].sum())
    l_u = int(edges_hit["l"].nunique(dropna=False))
    Mset = [u for u in uniq]
    l_clean = int(sum(hit.values()))
    if l_u == 0 and l_clean == 0:
        raise ValueError(f"predicate on {pred_col!r} selects no value of its domain (a value outside the domain?): {pred!r}")
    meta = {"S": S, "p": p, "N": N, "l": l_w, "l_unweighted": l_u, "l_clean": l_clean, "N_clean": len(Mset),
            "s_p": float(I.mean()), "method": method, "ci": ci}
    if method == "direct":
        c = float(I.sum())
        h = float(a[I].sum())
        if agg == "count":
            val = c
        elif agg == "sum":
            val = h
        else:
            if c == 0:
                raise ValueError("empty selection: no rows satisfy the predicate")
            val = h / c
        return Estimate(val, math.nan, math.nan, meta)
    if method == "privateclean":
        l, NN = l_w, N
    elif method == "pc_unweighted":
        l, NN = l_u, N
    else:
        l, NN = l_clean, len(Mset)
    tau_n = p * l / NN
    tau_p = 1 - p + tau_n
    meta.update(tau_n=tau_n, tau_p=tau_p, l_used=l, N_used=NN)
    if p >= 1:
        raise ValueError("p must be < 1 for the corrected estimators")
    yc = (I.astype(float) - tau_n) / (1 - p)
    c_hat = float(yc.sum())
    if agg == "count":
        if ci == "row_clt":
            half = z * math.sqrt(S * yc.var())
        else:
            sp = I.mean()
            half = z * math.sqrt(S * sp * (1 - sp)) / (1 - p)
        return Estimate(c_hat, c_hat - half, c_hat + half, meta)
    yh = a * yc
    h_hat = float(yh.sum())
    if ci == "row_clt":
        half_h = z * math.sqrt(S * yh.var())
    else:
        sp = I.mean()
        half_h = z * 2 * math.sqrt((sp * (1 - sp) * a.mean() ** 2 + a.var()) / S) * S / (1 - p)
    if agg == "sum":
        return Estimate(h_hat, h_hat - half_h, h_hat + half_h, meta)
    if c_hat <= 0:
        meta["flag"] = "non-positive count estimate"
        return Estimate(math.nan, math.nan, math.nan, meta)
    avg = h_hat / c_hat
    if ci == "row_clt":
        u = (yh - avg * yc) / c_hat
        half = z * math.sqrt(S * u.var())
        return Estimate(avg, avg - half, avg + half, meta)
    sp = I.mean()
    half_c = z * math.sqrt(S * sp * (1 - sp)) / (1 - p)
    lo_c, hi_c = c_hat - half_c, c_hat + half_c
    lo = (h_hat - half_h) / hi_c if hi_c > 0 else -math.inf
    hi = (h_hat + half_h) / lo_c if lo_c > 0 else math.inf
    return Estimate(avg, lo, hi, meta)


def direct_bias_count(S: int, p: float, l: int, N: int, s: float) -> float:
    """Prop. 2: E[c_private] − c_true = S·p·(l/N − s).

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §5.2 Proposition 2, App. A.4; spec §3.3.
    """
    return S * p * (l / N - s)


def count_by_group(crel: CleanedRelation, col: str, *, method: str = "privateclean",
                   domain_source: str = "released") -> pd.Series:
    """``SELECT col, COUNT(*) … GROUP BY col`` for every cleaned value at once (one provenance pass).

    Each group m is the predicate ``col = m``: PrivateClean uses l = Σ weights of edges into m over the dirty
    domain of N values (PC-W), ``pc_unweighted`` the number of such dirty values; ``direct`` the raw counts.
    Values equal :func:`estimate` (tested)."""
    check_options(method, "method", ("direct", "privateclean", "pc_unweighted"))
    if col not in crel.data.columns:
        raise ValueError(f"unknown attribute {col!r}")
    key = crel.data[col].astype(object).where(crel.data[col].notna(), None)
    c = key.fillna("\x00NULL").value_counts()
    c.index = [None if k == "\x00NULL" else k for k in c.index]
    if method == "direct":
        return c.astype(float)
    src = crel.sources.get(col, col)
    p = crel.private.p[src]
    e = crel.provenance(col, domain_source)
    N = int(e["l"].fillna("\x00NULL").nunique())
    m = e["m"].fillna("\x00NULL")
    l = e.groupby(m)["weight"].sum() if method == "privateclean" else e.groupby(m)["l"].size().astype(float)
    l.index = [None if k == "\x00NULL" else k for k in l.index]
    S = len(crel.data)
    idx = list(dict.fromkeys(list(l.index) + list(c.index)))
    cc = pd.Series([float(c.get(k, 0.0)) if k is not None else float(c[c.index.isna()].sum()) for k in idx], index=idx)
    ll = pd.Series([float(l.get(k, 0.0)) if k is not None else float(l[l.index.isna()].sum()) for k in idx], index=idx)
    return (cc - S * p * ll / N) / (1 - p)
