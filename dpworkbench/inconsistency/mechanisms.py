"""Everything in the inconsistency paper that spends ε: θ selection (Algorithm 3, the noisy FD degree bound of
Lemma 3/Thm 3, Algorithm 4), Algorithm 2 (graph projection) with every θ strategy and baseline, and Algorithm 5
(DP vertex cover). Every mechanism records its spend in the shared :class:`~dpworkbench.accounting.Accountant` before it
samples; the public entry points return :class:`~dpworkbench.accounting.Release`.

Each run returns a :class:`~dpworkbench.accounting.Release`: the private output with the private θ*, θ₁ and noisy
bound as details, the ledger (``release.eps_per_step()``, summing to the total; the plan is
:func:`graph_projection_cost` / :func:`dp_vertex_cover_cost`), the public inputs, and — NOT PRIVATE — the true and
truncated values, relative error and seconds. ``release["output"]`` etc. read it like a run record.

Neighbouring relation: add/remove one tuple at any row position. Nothing depends on the true number of tuples:
a public ``n_bound`` sets Θ, the θ = |V| candidate and the clip; without one, ``N_FRAC`` = 5 % of ε buys a private
upper bound first (the splits below then apply to the remaining 95 %). Strategies (spec §2.9, total ε):

=================  ============================================  =====================================
strategy           θ choice                                      split
=================  ============================================  =====================================
``baseline_V``     θ = |V| (Laplace with global sensitivity n)   Laplace ε
``baseline_dmax``  θ = d_max(G) — NON-PRIVATE reference          Laplace ε
``em``             Alg. 3 over Θ                                 EM 0.4ε, Laplace 0.6ε
``hier_em``        Alg. 4 without lines 1–5                      EM 0.2ε + 0.2ε, Laplace 0.6ε
``bound_hier``     full Alg. 4 ("our approach")                  bound 0.1ε, EM 0.15ε + 0.15ε, Lap 0.6ε
=================  ============================================  =====================================

``artifact_compat=True`` reproduces the reference code: the Laplace step and the √2θ/ε term use the
full ε while selection spends another 0.4ε (total 1.4ε) — labelled NOT ε-DP at the stated ε.

Single-tuple (unary) DCs (``build(..., unary_policy="separate")``): the released value is |U| + f(π_θ(G[V∖U]))
(and |U| + c for Algorithm 5), spec §1.3. This keeps the sensitivities: an added tuple either violates a unary DC
(|U| grows by 1, G[V∖U] is unchanged) or joins G[V∖U] (|U| unchanged, Δf ≤ θ, θ+1 for I_P, 2 for the cover); the
|U| term cancels in the quality's bias. ``rng`` may be a seed, a Generator, or a noise back-end such as
``dpworkbench.mechanisms.release_backend()`` (OpenDP samplers) for an actual release.

Sensitivities of θ selection (spec §2.5–2.7): Δq = θ_max for I_MI (Lemma 2). For I_P the paper's Lemmas 1–2 are
wrong; ``ip_sensitivity="safe"`` (default) uses Δq = 2·θ_max (≥ θ_max + θ) and Laplace scale (θ+1)/ε₂;
``ip_sensitivity="paper"`` reproduces the paper (Δq = θ_max, scale θ/ε₂) and is labelled not proven private.

References
----------
.. [1] Mohapatra, Gilad, He, Kimelfeld. "Differentially Private Inconsistency Measures", SIGMOD 2025:
   §4 Algorithm 2 (graph projection), Lemmas 1–2 (sensitivities), Algorithm 3 (EM θ selection), Lemma 3 / Thm 3
   (FD degree bound), Algorithm 4 (hierarchical EM with the bound), §5 Algorithm 5 and Prop. 3 (DP vertex cover).
"""

from __future__ import annotations

import math
import time
from typing import Sequence

import numpy as np
import pandas as pd

from .._validation import check_epsilon, check_int, check_probability, check_options
from ..accounting import Accountant, LedgerEntry, Release, open_ledger, planned, record_spend
from ..experiments.summary import relative_error
from ..mechanisms import exponential_mechanism, laplace_mechanism
from ..mechanisms.backends import RngLike, check_rng
from .conflict_graph import ConflictGraph
from .constraints import DC
from .model import Projector, degree_bound, order_edges, paper_candidates, quality
from . import _kernels as K

# ---------------------------------------------------------------------------------------------------- θ selection (Algorithms 3 and 4, the noisy FD degree bound)
def quality_sensitivity(theta_max: int, measure: str, ip_sensitivity: str) -> float:
    """Δq of Eq. 2's quality for the exponential mechanism: θ_max for I_MI (Lemma 2), 2·θ_max for I_P ("safe"),
    θ_max with ``ip_sensitivity="paper"`` (the paper's value; not proven private).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Lemma 2; spec §2.7 (corrected I_P sensitivity).
    """
    if measure == "MI" or ip_sensitivity == "paper":
        return float(theta_max)
    return 2.0 * theta_max


def laplace_sensitivity(theta: int, measure: str, ip_sensitivity: str) -> float:
    """Δ of f∘π_θ for Algorithm 2's Laplace step: θ (Lemma 1), θ + 1 for I_P in the "safe" mode.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Lemma 1; spec §2.7.
    """
    if measure == "P" and ip_sensitivity == "safe":
        return float(theta + 1)
    return float(theta)


def _check_mode(measure: str, ip_sensitivity: str) -> None:
    check_options(measure, "measure", ("MI", "P"))
    check_options(ip_sensitivity, "ip_sensitivity", ("safe", "paper"))


def em_step(proj: Projector, candidates: Sequence[int], theta_max: int, *, eps_em: float, eps2: float, measure: str,
            ip_sensitivity: str, no_bias_theta: int | None, rng: RngLike, accountant=None, note: str = "") -> dict:
    """One exponential-mechanism draw over ``candidates`` (quality sensitivity from θ_max). Spends ``eps_em``.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Algorithm 3 (exponential mechanism over Θ).
    """
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
    """Algorithm 3: θ* ∝ exp(ε₁·q/(2Δq)) over Θ, Δq = max Θ. Spends ε₁.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Algorithm 3.
    """
    _check_mode(measure, ip_sensitivity)
    eps1, eps2 = check_epsilon(eps1, "eps1"), check_epsilon(eps2, "eps2")
    if not len(thetas):
        raise ValueError("thetas is empty: give at least one candidate θ")
    theta_max = int(max(thetas))
    return em_step(proj, thetas, theta_max, eps_em=eps1, eps2=eps2, measure=measure, ip_sensitivity=ip_sensitivity,
                   no_bias_theta=None, rng=check_rng(rng),
                   accountant=accountant, note="Alg. 3 EM")


def noisy_degree_bound(df: pd.DataFrame, fds: Sequence[DC], *, eps0: float, n: int, rng: RngLike = None, accountant=None,
                       minus_one: bool = True) -> dict:
    """Σ_σ (d_bound(D, X_σ) + Lap(|Σ_FD|/ε₀)), rounded and clamped to [1, n] (post-processing). Spends ε₀.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Lemma 3, Theorem 3, Algorithm 4 lines 1–5.
    """
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
    add/remove-one-tuple neighbours (:func:`graph_projection` always passes one).

    ε₀ = ``eps0_frac``·ε₁ for the bound (only when Σ has an FD-like DC and ``use_bound``), the rest split
    evenly over ``steps`` EM draws; candidates above each draw are pruned (``prune="le"`` keeps θ ≤ θ*, as
    Alg. 4; ``"lt"`` keeps θ < θ*, as Table 4, falling back to {θ*} when empty).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Algorithm 4 and Table 4.
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


# ---------------------------------------------------------------------------------------------------- Algorithm 2 (graph projection) and Algorithm 5 (DP vertex cover)
def projected_value(proj: Projector, theta: int, measure: str) -> int:
    """|U| + f(π_θ(G)): the value Algorithm 2 perturbs (|U| = tuples violating a unary DC, 0 without them).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Algorithm 2; spec §1.3 (unary DCs).
    """
    return int(proj.graph.unary.size) + proj.f(theta, measure)


STRATEGIES = ("baseline_V", "baseline_dmax", "em", "hier_em", "bound_hier")


STRATEGY_LABELS = {
    "baseline_V": "θ=|V| (Baseline 1)",
    "baseline_dmax": "θ=max deg (Baseline 2, non-private)",
    "em": "Exponential mech.",
    "hier_em": "Hierarchical exp. mech.",
    "bound_hier": "Upper bound + hierarchical (ours)",
}


#: share of ε spent on the private size bound when no public ``n_bound`` is given


N_FRAC = 0.05
#: the private size bound n̂ = noisy |D| + ln(1/(2β))/ε_n exceeds |D| with probability 1 − β


N_BETA = 0.01


NEIGHBOURS = ("add or remove one tuple (row) at any position; the conflict graph gains or loses that tuple's "
              "node and edges")


def private_size_bound(n: int, epsilon: float, *, beta: float = N_BETA, rng: RngLike = None, accountant=None) -> tuple[int, float]:
    """A private upper bound on the number of tuples: ⌈|D| + Lap(1/ε) + ln(1/(2β))/ε⌉ (≥ 1), which is ≥ |D|
    with probability 1 − β. Spends ``epsilon`` (a Laplace count, sensitivity 1). Returns (bound, noisy count).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: spec §1.5 (public information).
    """
    noisy = float(laplace_mechanism(float(n), epsilon=epsilon, sensitivity=1.0, rng=rng, accountant=accountant,
                                    note="private size bound |D| (Laplace count + margin)"))
    return max(1, int(math.ceil(noisy + math.log(1.0 / (2.0 * beta)) / epsilon))), noisy


def _has_fd(dcs) -> bool:
    return any(d.is_fd_like for d in dcs)


def graph_projection_cost(
    epsilon: float,
    *,
    strategy: str = "bound_hier",
    dcs: Sequence[DC] = (),
    n_bound: int | None = None,
    n_frac: float = N_FRAC,
    eps1_frac: float = 0.4,
    eps0_frac: float = 0.25,
    artifact_compat: bool = False,
) -> tuple[LedgerEntry, ...]:
    """The spends :func:`graph_projection` records, in order (pure; no data). Total ``epsilon`` (1.4·ε's
    Laplace share with ``artifact_compat``). The FD degree bound (``bound_hier``) is spent only when ``dcs``
    has an FD-like DC; the size bound only when no public ``n_bound`` is given.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Algorithms 2–4 (budget split); spec §2.9.
    """
    epsilon = check_epsilon(epsilon)
    check_options(strategy, "strategy", STRATEGIES)
    plan: list[tuple] = []
    rest = epsilon
    if n_bound is None:
        plan.append(("laplace", n_frac * epsilon, "private size bound"))
        rest = (1 - n_frac) * epsilon
    if strategy in ("baseline_V", "baseline_dmax"):
        plan.append(("laplace", rest, "Alg. 2 Laplace"))
        return planned(*plan)
    eps1, eps2 = eps1_frac * rest, (1 - eps1_frac) * rest
    if strategy == "em":
        plan.append(("exponential", eps1, "Alg. 3 EM"))
    else:
        eps_em = eps1
        if strategy == "bound_hier" and _has_fd(dcs):
            plan.append(("laplace", eps0_frac * eps1, "FD degree bound"))
            eps_em = eps1 - eps0_frac * eps1
        plan += [("exponential", eps_em / 2, "Alg. 4 EM step 1"), ("exponential", eps_em / 2, "Alg. 4 EM step 2")]
    plan.append(("laplace", rest if artifact_compat else eps2, "Alg. 2 Laplace"))
    return planned(*plan)


def graph_projection(
    graph: ConflictGraph,
    measure: str,
    epsilon: float,
    *,
    strategy: str = "bound_hier",
    df: pd.DataFrame | None = None,
    dcs: Sequence[DC] = (),
    thetas: Sequence[int] | None = None,
    n_bound: int | None = None,
    n_frac: float = N_FRAC,
    eps1_frac: float = 0.4,
    eps0_frac: float = 0.25,
    ip_sensitivity: str = "safe",
    artifact_compat: bool = False,
    add_V: str = "if_general_DC",
    prune: str = "le",
    order: str = "rank",
    order_seed: int = 0,
    projector: Projector | None = None,
    clip: str = "range",
    rng: RngLike = None,
    accountant: Accountant | None = None,
) -> Release:
    """Algorithm 2 for I_MI (``measure="MI"``) or I_P (``"P"``): f(π_θ*(G)) + Lap(Δ(θ*)/ε₂), clipped.

    Returns a :class:`~dpworkbench.accounting.Release` (``release["output"]``, ``["theta_star"]``, … read it
    like a run record; ``release.eps_per_step()`` gives ε per step). Spends ``epsilon`` in total, as planned by
    :func:`graph_projection_cost` (1.4·ε with ``artifact_compat``).

    Neighbouring relation: add or remove one tuple at any row position (unbounded DP); the conflict graph
    gains or loses one node with its edges. The stable edge order (``order="rank"``) depends on each tuple's
    identity (content hash or ``build(..., id_column=...)``) and ``order_seed`` only; ``order="lex"`` sorts by
    row position, which is also stable (a deletion keeps the others' relative order).

    Treated as public
    -----------------
    * ``epsilon``, ``strategy``, ``eps1_frac``, ``eps0_frac``, ``n_frac``, ``order``, ``order_seed``, ``clip``,
      ``ip_sensitivity``, the constraints Σ (``dcs``) and the schema;
    * ``n_bound``: a public upper bound on the number of tuples (e.g. the sample size fixed by a study design).
      It sets the candidates Θ = ``paper_candidates(n_bound)``, the θ = |V| candidate/baseline and the upper
      clip. When ``None`` (default), ``n_frac``·ε is spent on a private bound (:func:`private_size_bound`,
      recorded in the ledger) — nothing depends on the true |D|. A bound below |D| only costs accuracy;
    * ``thetas``: the candidate set Θ when given;
    * ``strategy="baseline_dmax"`` uses θ = d_max(G), derived from the data: research runs only (a seeded
      ``rng``; a release refuses up front), listed in ``derived_public`` and marked not private (the paper's
      non-private reference).

    ``projector`` reuses memoised F(θ) across runs (same stable order on the same graph). ``clip``: "range"
    (default post-processing to [0, C(n_bound, 2)] for I_MI, [0, n_bound] for I_P), "artifact" (the reference
    code: I_MI clipped at 0, I_P not clipped) or "none".

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Algorithm 2 with Algorithms 3–4; Lemmas 1–2.
    """
    t0 = time.perf_counter()
    epsilon = check_epsilon(epsilon)
    check_options(strategy, "strategy", STRATEGIES)
    check_options(measure, "measure", ("MI", "P"))
    check_options(ip_sensitivity, "ip_sensitivity", ("safe", "paper"))
    check_options(clip, "clip", ("range", "artifact", "none"))
    check_probability(eps1_frac, "eps1_frac")
    check_probability(eps0_frac, "eps0_frac")
    if n_bound is not None:
        n_bound = check_int(n_bound, "n_bound", minimum=1)
    else:
        check_probability(n_frac, "n_frac")
    gen = check_rng(rng)
    if strategy == "baseline_dmax" and not gen.seeded:  # issue 21, finding 5: a derived value is research only
        raise ValueError("strategy='baseline_dmax' uses θ = d_max(G), read off the data: allowed only in a research "
                         "run with a seed (rng=<int>); for a release give thetas= or use strategy='bound_hier'")
    proj = projector if projector is not None else Projector(graph, rule=order, seed=order_seed)
    if proj.graph is not graph:
        raise ValueError("projector was built on another graph")
    acc, mark = open_ledger(accountant)
    n = graph.n
    f_true = projected_value(proj, n, measure)
    details: dict = {}
    public: dict = {"measure": "I_" + measure, "strategy": strategy, "epsilon": epsilon,
                    "n_bound": n_bound if n_bound is not None else "private estimate",
                    "order": order, "order_seed": order_seed, "eps1_frac": eps1_frac, "eps0_frac": eps0_frac,
                    "ip_sensitivity": ip_sensitivity if measure == "P" else "n/a", "clip": clip,
                    "constraints": len(dcs) if dcs else len(graph.dcs), "neighbours": NEIGHBOURS}
    derived: list[str] = []
    rest = epsilon
    if n_bound is None:
        eps_n = n_frac * epsilon
        rest = epsilon - eps_n
        nb, _ = private_size_bound(n, eps_n, rng=gen, accountant=acc)
        details["n_bound"] = nb
    else:
        nb = n_bound
    sel: dict = {}
    if strategy in ("baseline_V", "baseline_dmax"):
        eps2 = rest
        if strategy == "baseline_V":
            theta = nb
        else:
            theta = max(1, graph.max_degree())
            public["theta (d_max(G))"] = theta
            derived.append("theta (d_max(G))")
    else:
        eps1 = eps1_frac * rest
        eps2 = (1 - eps1_frac) * rest
        noise_eps = rest if artifact_compat else eps2
        cands = list(thetas) if thetas is not None else paper_candidates(nb)
        if thetas is not None:
            public["thetas"] = [int(t) for t in cands]
        else:
            (details if n_bound is None else public)["thetas"] = [int(t) for t in cands]
        if strategy == "em":
            s = basic_em(proj, cands, eps1=eps1, eps2=noise_eps, measure=measure, ip_sensitivity=ip_sensitivity,
                         rng=gen, accountant=acc)
            sel = {"theta_1": s["theta"], "steps": [s]}
            theta = s["theta"]
        else:
            s = optimized_em(proj, cands, eps1=eps1, eps2=noise_eps, measure=measure, df=df, dcs=dcs,
                             use_bound=(strategy == "bound_hier"), steps=2, add_V=add_V, prune=prune,
                             eps0_frac=eps0_frac, ip_sensitivity=ip_sensitivity, rng=gen, accountant=acc,
                             n_bound=nb)
            sel = s
            theta = s["theta"]
        eps2 = noise_eps
    f_trunc = projected_value(proj, theta, measure)
    sens = laplace_sensitivity(theta, measure, ip_sensitivity)
    raw = float(laplace_mechanism(float(f_trunc), epsilon=eps2, sensitivity=sens, rng=gen, accountant=acc,
                                  note=f"Alg. 2 Laplace, I_{measure}, θ*={theta}"))
    hi = max(nb * (nb - 1) / 2, nb) if measure == "MI" else nb
    if clip == "range":
        out = float(min(max(raw, 0.0), hi))
    elif clip == "artifact":
        out = float(max(raw, 0.0)) if measure == "MI" else float(raw)
    else:
        out = float(raw)
    details.update(theta_star=int(theta), theta_1=sel.get("theta_1"), d_bound_noisy=sel.get("d_bound_noisy"))
    private = (strategy != "baseline_dmax") and not artifact_compat and not (measure == "P" and ip_sensitivity == "paper")
    exact = {
        "true": float(f_true), "truncated": float(f_trunc), "noise": float(raw - f_trunc), "output_raw": raw,
        "rel_error": relative_error(f_true, out, zero_true="inf"),
        "d_bound": sel.get("d_bound"), "laplace_sensitivity": sens, "n": n,
        "artifact_compat": artifact_compat, "seconds": time.perf_counter() - t0,
    }
    return Release(out, acc.entries_since(mark), public, tuple(derived), details, exact, private,
                   f"Alg. 2 graph projection for I_{measure} ({strategy})")


def dp_vertex_cover_cost(epsilon: float) -> tuple[LedgerEntry, ...]:
    """The spend :func:`dp_vertex_cover` records: one Laplace step of ``epsilon`` (pure).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: Algorithm 5, Prop. 3.
    """
    return planned(("laplace", check_epsilon(epsilon), "Alg. 5 vertex cover"))


def dp_vertex_cover(
    graph: ConflictGraph,
    epsilon: float,
    *,
    order: str = "rank",
    order_seed: int = 0,
    n_bound: int | None = None,
    reference: float | None = None,
    cover_size: int | None = None,
    noise: str = "paper",
    rng: RngLike = None,
    accountant: Accountant | None = None,
) -> Release:
    """Algorithm 5: size c of a greedy 2-approximate vertex cover in a stable order, + Lap(2/ε). Spends ε.

    Returns a :class:`~dpworkbench.accounting.Release` (``release["output"]``). Neighbouring relation: add or
    remove one tuple at any row position; c moves by at most 2 because the order of the other tuples' edges
    does not change (``order="rank"`` ranks tuple identities, ``"lex"`` row positions — both stable).

    (The paper prints Lap(ε/2): a typo; the sensitivity of c is 2, Prop. 3.) ``noise="typo"`` uses the
    printed scale ε/2 and is NOT private — only for showing the difference. ``reference`` is the value the
    relative error is measured against (the paper uses 2·I_R^lin); default c itself. A given ``cover_size``
    (a cached c) must already include the unary violators |U| and use the same order.

    Treated as public
    -----------------
    ``epsilon``, ``order``, ``order_seed``, Σ, and ``n_bound``: a public upper bound on the number of tuples,
    used only for the upper clip. Without it the output is clipped at 0 only (nothing depends on the true |D|).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §5, Algorithm 5 and Prop. 3.
    """
    t0 = time.perf_counter()
    epsilon = check_epsilon(epsilon)
    check_options(noise, "noise", ("paper", "typo"))
    if n_bound is not None:
        n_bound = check_int(n_bound, "n_bound", minimum=1)
    gen = check_rng(rng)
    acc, mark = open_ledger(accountant)
    if cover_size is None:  # |U| + c(G[V∖U]): the unary violators (if any) are in every cover
        u, v = order_edges(graph.u, graph.v, rule=order, seed=order_seed, n=graph.n, identity=graph.identity)
        cover_size = int(graph.unary.size) + int(K.greedy_cover(u, v, graph.n))
    if noise == "paper":
        raw = float(laplace_mechanism(float(cover_size), epsilon=epsilon, sensitivity=2.0, rng=gen, accountant=acc,
                                      note="Alg. 5 vertex cover, Lap(2/ε)"))
    else:  # the printed scale ε/2: recorded as a spend of ε, sampled by the back-end, NOT ε-DP
        record_spend(acc, epsilon, "laplace", "Alg. 5 vertex cover with the printed (typo) scale ε/2 — NOT private")
        raw = float(gen.add_laplace(float(cover_size), epsilon / 2))
    out = float(max(raw, 0.0)) if n_bound is None else float(min(max(raw, 0.0), n_bound))
    ref = float(cover_size if reference is None else reference)
    public = {"measure": "I_R", "strategy": "alg5", "epsilon": epsilon, "order": order, "order_seed": order_seed,
              "n_bound": n_bound if n_bound is not None else "none (clipped at 0 only)", "noise": noise,
              "neighbours": NEIGHBOURS}
    exact = {"true": ref, "truncated": float(cover_size), "noise": float(raw - cover_size), "output_raw": raw,
             "rel_error": relative_error(ref, out, zero_true="inf"), "n": graph.n,
             "seconds": time.perf_counter() - t0}
    return Release(out, acc.entries_since(mark), public, (), {}, exact, noise == "paper",
                   "Alg. 5 DP vertex cover (≈ 2·I_R)")


def run_record(release: Release, **extra) -> dict:
    """A flat run record for experiment tables: the release's record (private value, details, NOT PRIVATE exact
    values), its public parameters, ``eps_per_step`` (as a string) and ``eps_total``.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §6 (experiment records).
    """
    rec = {k: v for k, v in release.public.items() if k in ("measure", "strategy", "epsilon", "ip_sensitivity")}
    rec.update(release.record())
    rec["eps_per_step"] = str(release.eps_per_step())
    rec["eps_total"] = release.epsilon
    rec.update(extra)
    return rec


__all__ = ["basic_em", "dp_vertex_cover", "dp_vertex_cover_cost", "em_step", "graph_projection", "graph_projection_cost", "laplace_sensitivity", "N_BETA", "N_FRAC", "NEIGHBOURS", "noisy_degree_bound", "optimized_em", "private_size_bound", "projected_value", "quality_sensitivity", "run_record", "STRATEGIES", "STRATEGY_LABELS"]
