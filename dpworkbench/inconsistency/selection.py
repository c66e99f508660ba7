"""θ selection: quality (Eq. 2), Algorithm 3 (basic EM), the FD degree bound (Lemma 3/Thm 3) and Algorithm 4.

Sensitivities (spec §2.5–2.7): Δq = θ_max for I_MI (Lemma 2). For I_P the paper's Lemmas 1–2 are wrong;
``ip_sensitivity="safe"`` (default) uses Δq = 2·θ_max (≥ θ_max + θ) and Laplace scale (θ+1)/ε₂;
``ip_sensitivity="paper"`` reproduces the paper (Δq = θ_max, scale θ/ε₂) and is labelled not proven private.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd

from .._validation import check_epsilon, check_options
from ..mechanisms import exponential_mechanism, laplace_mechanism
from ..mechanisms.backends import RngLike, check_rng
from .constraints import DC
from .projection import Projector

SQRT2 = math.sqrt(2.0)


def paper_candidates(n: int) -> list[int]:
    """The paper's Θ scaled to n: [1, 5, 10, 100, 500] ∪ {k·n/10 : k = 1..9} (= the artifact's list at n = 10,000)."""
    base = [1, 5, 10, 100, 500]
    out = sorted({c for c in base if c < n} | {max(1, int(round(k * n / 10))) for k in range(1, 10)})
    return out or [1]


def quality(F: dict, theta: int, theta_max: int, eps2: float, *, no_bias: bool = False) -> float:
    """q_ε₂(G, θ) = −(F(θ_max) − F(θ)) − √2·θ/ε₂ (Eq. 2); the |V| candidate has no bias term."""
    if no_bias:
        return -SQRT2 * theta / eps2
    return -(F[theta_max] - F[theta]) - SQRT2 * theta / eps2


def quality_sensitivity(theta_max: int, measure: str, ip_sensitivity: str) -> float:
    if measure == "MI" or ip_sensitivity == "paper":
        return float(theta_max)
    return 2.0 * theta_max


def laplace_sensitivity(theta: int, measure: str, ip_sensitivity: str) -> float:
    if measure == "P" and ip_sensitivity == "safe":
        return float(theta + 1)
    return float(theta)


def _check_mode(measure: str, ip_sensitivity: str) -> None:
    check_options(measure, "measure", ("MI", "P"))
    check_options(ip_sensitivity, "ip_sensitivity", ("safe", "paper"))


def em_step(proj: Projector, candidates: Sequence[int], theta_max: int, *, eps_em: float, eps2: float, measure: str,
            ip_sensitivity: str, no_bias_theta: int | None, rng: RngLike, accountant=None, note: str = "") -> dict:
    """One exponential-mechanism draw over ``candidates`` (quality sensitivity from θ_max). Spends ``eps_em``."""
    cands = sorted(set(int(c) for c in candidates))
    F = {t: proj.f(t, measure) for t in set(cands) | {theta_max}}
    q = np.array([quality(F, t, theta_max, eps2, no_bias=(t == no_bias_theta)) for t in cands])
    delta = quality_sensitivity(theta_max, measure, ip_sensitivity)
    w = eps_em * q / (2.0 * delta)  # the EM's log-weights (Def. 5); the sample itself is drawn by Gumbel-max below
    probs = np.exp(w - w.max())
    probs /= probs.sum()
    idx = exponential_mechanism(q, epsilon=eps_em, sensitivity=delta, rng=rng, accountant=accountant, note=note)
    return {"candidates": cands, "quality": q, "probabilities": probs, "sensitivity": delta, "theta": cands[idx], "epsilon": eps_em}


def basic_em(proj: Projector, thetas: Sequence[int], *, eps1: float, eps2: float, measure: str = "MI",
             ip_sensitivity: str = "safe", rng: RngLike = None, accountant=None) -> dict:
    """Algorithm 3: θ* ∝ exp(ε₁·q/(2Δq)) over Θ, Δq = max Θ. Spends ε₁."""
    _check_mode(measure, ip_sensitivity)
    eps1, eps2 = check_epsilon(eps1, "eps1"), check_epsilon(eps2, "eps2")
    if not len(thetas):
        raise ValueError("thetas is empty: give at least one candidate θ")
    theta_max = int(max(thetas))
    return em_step(proj, thetas, theta_max, eps_em=eps1, eps2=eps2, measure=measure, ip_sensitivity=ip_sensitivity,
                   no_bias_theta=None, rng=check_rng(rng),
                   accountant=accountant, note="Alg. 3 EM")


def degree_bound(df: pd.DataFrame, fds: Sequence[DC]) -> tuple[int, list[int]]:
    """Thm 3: d_bound(D, Σ_FD) = Σ_σ (max_{a_X} freq(D, a_X) − 1); also the per-FD terms (each of sensitivity 1)."""
    terms = []
    for d in fds:
        if not d.is_fd_like:
            raise ValueError(f"{d} is not FD-like; the degree bound needs = / != predicates on the same attributes")
        terms.append(_max_group_size(df, list(d.lhs)) - 1)
    return sum(terms), terms


def _max_group_size(df: pd.DataFrame, cols: Sequence[str]) -> int:
    """Largest number of rows sharing one value of ``cols`` (rows with a NULL in ``cols`` excluded); 1 if none."""
    key = None
    for c in cols:
        if c not in df.columns:
            raise ValueError(f"column {c!r} of an FD is not in the table; columns: {', '.join(map(str, df.columns))}")
        codes, uniques = pd.factorize(df[c], use_na_sentinel=True)
        codes = codes.astype(np.int64)
        if key is None:
            key = codes
        else:
            bad = (key < 0) | (codes < 0)
            key = np.where(bad, -1, key * (len(uniques) + 1) + codes)
            key = np.where(bad, -1, pd.factorize(key)[0])
    key = key[key >= 0] if key is not None else np.zeros(0, np.int64)
    return int(np.bincount(key).max()) if key.size else 1


def noisy_degree_bound(df: pd.DataFrame, fds: Sequence[DC], *, eps0: float, n: int, rng: RngLike = None, accountant=None,
                       minus_one: bool = True) -> dict:
    """Σ_σ (d_bound(D, X_σ) + Lap(|Σ_FD|/ε₀)), rounded and clamped to [1, n] (post-processing). Spends ε₀."""
    eps0 = check_epsilon(eps0, "eps0")
    if not fds:
        raise ValueError("the degree bound needs at least one FD-like DC")
    true, terms = degree_bound(df, fds)
    if not minus_one:  # the artifact drops the "−1"
        terms = [t + 1 for t in terms]
        true = sum(terms)
    k = len(fds)
    noisy_terms = laplace_mechanism(np.asarray(terms, dtype=float), epsilon=eps0, sensitivity=float(k), rng=rng,
                                    accountant=accountant, note=f"FD degree bound ({k} FDs, ε₀/|Σ_FD| each)")
    # Each FD term has sensitivity 1 and gets ε₀/k: the vector of k terms has L1 sensitivity k at total ε₀.
    raw = float(np.sum(noisy_terms))
    return {"d_bound": true, "terms": terms, "noisy_raw": raw, "noisy": int(min(max(round(raw), 1), n)), "epsilon": eps0}


def optimized_em(proj: Projector, thetas: Sequence[int], *, eps1: float, eps2: float, measure: str = "MI",
                 df: pd.DataFrame | None = None, dcs: Sequence[DC] = (), use_bound: bool = True, steps: int = 2,
                 add_V: str = "if_general_DC", prune: str = "le", eps0_frac: float = 0.25,
                 ip_sensitivity: str = "safe", rng: RngLike = None, accountant=None, n_bound: int | None = None) -> dict:
    """Algorithm 4 (optionally without lines 1–5: ``use_bound=False`` = hierarchical EM). Spends ε₁ in total.

    ``n_bound`` is the *public* (or privately estimated) size bound used for the θ = |V| candidate and to clamp
    the noisy degree bound; ``None`` falls back to the graph's own n, which is NOT a public value under
    add/remove-one-tuple neighbours (:func:`~.algorithms.graph_projection` always passes one).

    ε₀ = ``eps0_frac``·ε₁ for the bound (only when Σ has an FD-like DC and ``use_bound``), the rest split
    evenly over ``steps`` EM draws; candidates above each draw are pruned (``prune="le"`` keeps θ ≤ θ*, as
    Alg. 4; ``"lt"`` keeps θ < θ*, as Table 4, falling back to {θ*} when empty).
    """
    _check_mode(measure, ip_sensitivity)
    eps1, eps2 = check_epsilon(eps1, "eps1"), check_epsilon(eps2, "eps2")
    check_options(add_V, "add_V", ("always", "never", "if_general_DC"))
    check_options(prune, "prune", ("le", "lt"))
    check_options(steps, "steps", (1, 2, 3))
    if not len(thetas):
        raise ValueError("thetas is empty: give at least one candidate θ")
    gen = check_rng(rng)
    n = int(n_bound) if n_bound is not None else proj.n
    cands = sorted(set(int(t) for t in thetas))
    theta_max = max(cands)
    eps_em = eps1
    record: dict = {"d_bound": None, "d_bound_noisy": None, "eps0": 0.0, "steps": []}
    fds = [d for d in dcs if d.is_fd_like]
    if use_bound and fds:
        if df is None:
            raise ValueError("the FD degree bound needs the table df")
        eps0 = eps0_frac * eps1
        eps_em = eps1 - eps0
        b = noisy_degree_bound(df, fds, eps0=eps0, n=n, rng=gen, accountant=accountant)
        record.update(d_bound=b["d_bound"], d_bound_noisy=b["noisy"], eps0=eps0)
        cands = sorted({t for t in cands if t <= b["noisy"]} | {b["noisy"]})
        theta_max = min(b["noisy"], n)
    has_general = any(not d.is_fd_like for d in dcs)
    addV = add_V == "always" or (add_V == "if_general_DC" and has_general)
    orig = set(cands)
    no_bias = n if (addV and n not in orig) else None
    C = sorted(set(cands) | ({n} if addV else set()))
    theta = None
    for s in range(steps):
        step = em_step(proj, C, theta_max, eps_em=eps_em / steps, eps2=eps2, measure=measure,
                       ip_sensitivity=ip_sensitivity, no_bias_theta=no_bias, rng=gen, accountant=accountant,
                       note=f"Alg. 4 EM step {s + 1}")
        record["steps"].append(step)
        theta = step["theta"]
        if prune == "le":
            C = [t for t in C if t <= theta]
        else:
            C = [t for t in C if t < theta] or [theta]
        theta_max = theta
        if theta == no_bias:
            no_bias = None  # step 2 after picking |V|: all candidates, Δ = |V|, F(|V|) = f(G)
    record["theta"] = theta
    record["theta_1"] = record["steps"][0]["theta"]
    record["eps_em"] = eps_em
    return record


def theorem2_bound(beta, *, q_opt_tilde: float, theta_max: float, n_candidates: int, n_opt: int, eps1: float,
                   theta_star: float | None = None, eps2: float | None = None, corrected: bool = False):
    """Thm 2's error bound as printed: −q̃_opt + (2θ_max/ε₁)·ln(2|Θ|/(|Θ_opt|β)).

    ``corrected=True`` adds the Laplace-tail term max(0, ln(2/β) − √2)·θ*/ε₂ (spec §7.10).
    """
    beta = np.asarray(beta, dtype=float)
    if np.any((beta <= 0) | (beta >= 1)):
        raise ValueError("beta must lie in (0, 1)")
    out = -q_opt_tilde + 2 * theta_max / eps1 * np.log(2 * n_candidates / (n_opt * beta))
    if corrected:
        if theta_star is None or eps2 is None:
            raise ValueError("corrected bound needs theta_star and eps2")
        out = out + np.maximum(0.0, np.log(2 / beta) - SQRT2) * theta_star / eps2
    return out


__all__ = ["basic_em", "degree_bound", "em_step", "noisy_degree_bound", "optimized_em", "paper_candidates", "quality",
           "theorem2_bound"]
