"""Claim rules of the four mechanism teaching notebooks (``notebooks/mechanisms/learn_*``).

Each function takes the values a notebook measured through package functions and adds its
claims; the verdicts come from rules (:mod:`dpworkbench.experiments.claims`), so each can fail.
"""

from __future__ import annotations

import math

import pandas as pd

from ..experiments.claims import Claims, at_most, claim_defaults, close, equals


@claim_defaults("check", cause="open:the measured Laplace error or the accountant disagrees with sequential composition (a bug in "
                         "the mechanism or the accountant)")  # mechanism sanity checks, not a paper reproduction
def laplace_composition(claims: Claims, *, measured_mean_error: float, n_queries: int, sensitivity: float,
                        total_epsilon: float, refused: bool) -> None:
    """Sequential composition: splitting ε over k queries multiplies each query's Laplace error by k.

    References
    ----------
    Dwork & Roth, *The Algorithmic Foundations of Differential Privacy* (2014), Thm. 3.6 and 3.16.
    """
    expected = n_queries * sensitivity / total_epsilon
    claims.add("mean |error| per query with ε split over k queries equals kΔ/ε", paper=expected, ours=measured_mean_error,
               rule=close(expected, rtol=0.15), note="Laplace E|Z| = scale; Monte-Carlo over repetitions; pass within ±15 %")
    claims.add("the accountant refuses a spend past the budget", paper="refused", ours="refused" if refused else "allowed",
               rule=equals("refused"))


@claim_defaults("check", cause="open:the RR estimator or GRR's exact ε disagrees with its closed form (a bug in the estimator)")  # mechanism sanity checks, not a paper reproduction
def randomized_response(claims: Claims, *, worst_z: float, naive_max_bias: float, epsilon_exact: float) -> None:
    """Randomised response: the bias-corrected estimator is unbiased, the naive count is not; GRR's exact ε.

    References
    ----------
    Krishnan et al., *PrivateClean* (SIGMOD 2016), §4 and Lemma 1; Wang et al., *Locally differentially
    private protocols for frequency estimation* (USENIX Security 2017), §4.1.
    """
    claims.add("bias-corrected RR estimator is unbiased (max |mean|/se over ε)", paper="< 3", ours=round(worst_z, 2),
               value=worst_z, rule=at_most(3.0, strict=True), note="a z-score of 3 or more would show bias")
    claims.add("naive counting under-estimates the most frequent value (largest mean error over ε)", paper="< 0",
               ours=naive_max_bias, rule=at_most(0.0, strict=True))
    exact = math.log(1 + 50 * 0.75 / 0.25)
    claims.add("GRR exact ε at p=0.25, N=50 (PrivateClean's Lemma 1 gives ln 10 ≈ 2.30)", paper=round(exact, 3),
               ours=epsilon_exact, rule=close(exact, rtol=0.001), note="ln(1 + 50·0.75/0.25) = ln 151")


@claim_defaults("check", cause="open:permute-and-flip lost to the exponential mechanism in exact expected loss, or the audit flagged a "
                         "mechanism (a bug in a mechanism)")  # mechanism sanity checks, not a paper reproduction
def selection(claims: Claims, *, expected_loss: pd.DataFrame, flagged: int) -> None:
    """Permute-and-flip never loses to the exponential mechanism in expected utility.

    ``expected_loss`` has columns ``mechanism`` (``exponential``, ``permute-and-flip``), ``epsilon``
    and ``expected_loss``.

    References
    ----------
    McKenna & Sheldon, *Permute-and-Flip* (NeurIPS 2020), Thm. 2.
    """
    em = expected_loss[expected_loss.mechanism == "exponential"].set_index("epsilon")["expected_loss"]
    pf = expected_loss[expected_loss.mechanism == "permute-and-flip"].set_index("epsilon")["expected_loss"]
    gap = float((pf - em).max())
    claims.add("PF expected loss ≤ EM expected loss at every ε (McKenna & Sheldon 2020)", paper="PF − EM ≤ 0",
               ours=f"max PF−EM = {gap:.2e}", value=gap, rule=at_most(1e-9))
    claims.add("no mechanism flagged by the privacy audit", paper=0, ours=int(flagged), rule=equals(0))


@claim_defaults("check", cause="open:AboveThreshold's error or its recorded spend contradicts Dwork & Roth Thm 3.23 (a bug in SVT or "
                         "its accounting)")  # mechanism sanity checks, not a paper reproduction
def sparse_vector(claims: Claims, *, errors_by_epsilon: pd.Series, spent: float, epsilon: float, budget: float,
                  n_queries: int) -> None:
    """AboveThreshold: error falls with ε, and it pays ε once however many queries it reads.

    ``spent`` is what an accountant with ``budget`` > ε recorded for one run over ``n_queries``
    queries: the generous budget lets an over-spend show as a value instead of a refusal.

    References
    ----------
    Dwork & Roth (2014), Alg. 1 and Thm. 3.23; Tao et al., *R2T* (SIGMOD 2022), Alg. 1.
    """
    errs = errors_by_epsilon.sort_index()
    claims.add("SVT localisation error at the largest ε is below that at the smallest ε", paper="decreasing",
               ours=f"{errs.iloc[0]:.2f} → {errs.iloc[-1]:.2f}", value=float(errs.iloc[-1] / errs.iloc[0]),
               rule=at_most(1.0, strict=True), note="ratio of the two mean errors; pass when < 1")
    if budget <= epsilon:
        raise ValueError(f"budget ({budget}) must exceed ε ({epsilon}) so an over-spend can show")
    claims.add(f"one ε spend for {n_queries} queries (accountant budget {budget:g})", paper=epsilon, ours=spent,
               rule=close(epsilon, rtol=1e-9))
