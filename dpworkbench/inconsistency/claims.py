"""The inconsistency notebooks' claims: one function per notebook, each turning the values the notebook computed
(through package functions) into rows of a :class:`~dpworkbench.experiments.claims.Claims` table.

Every verdict comes from a rule (:func:`~dpworkbench.experiments.claims.close`, ``at_least``, ``at_most``,
``between``, ``equals``, ``not_comparable``) applied to a number, so every claim can come out "differs"
(``tests/test_claims_flip.py``). A qualitative finding ("I_R is the most accurate measure") is judged on the signed
difference behind it; a stated range ("10³–10⁴× worse") is judged against that range; an error value is judged
against the paper's value within a stated factor. The paper's numbers are in :mod:`dpworkbench.inconsistency.reference`.
Runs of the ``ci`` profile use tiny tables: their experiment claims are ``not_comparable`` with that reason.

References
----------
.. [1] Mohapatra, Gilad, He, Kimelfeld. "Differentially Private Inconsistency Measures", SIGMOD 2025: Figs. 2–10,
   Tables 1–5, §6.2; spec /work/shared/spec/inconsistency.md §2.5, §2.7, §6 and §7.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from ..experiments.claims import Claims, Rule, at_least, at_most, between, claim_defaults, close, equals, not_comparable
from . import reference as ref
from .experiments import TIMED, algorithm_seconds

#: an error value passes when it lies within this factor of the paper's (both ways: [p/F, F·p])
ERROR_FACTOR = 2.0
#: how the paper prints its errors: §6.2's averages and Table 1 with two decimals, §6.2's per-dataset I_MI with three
#: (a band is that rounding + 3 Monte-Carlo SEs of ours, issue 24)
ROUNDING_2DP, ROUNDING_3DP = 0.005, 0.0005
CI_REASON = "ci profile: tables of a few hundred rows and 2–3 runs, too small to compare with the paper's 10k rows"
#: the cause of a claim not comparable in the ci profile (issue 24: every non-pass carries one)
CI_CAUSE = "scale:ci tables of a few hundred rows (paper: 10k), 2–3 runs"


def _ci_cause(claims: Claims, profile: str) -> bool:
    """True in the ci profile, where this function's claims then get :data:`CI_CAUSE` (the decorator restores the
    default when the function returns)."""
    if _ci(profile):
        claims.default_cause = CI_CAUSE
        return True
    return False


def _ci(profile: str) -> bool:
    return profile == "ci"


def _get(table, key, column=None) -> float:
    """A value of a mapping / Series (``key``) or DataFrame (``key``, ``column``); NaN when absent (e.g. no checkpoint
    with a non-zero true value in a small run) — a NaN never passes a rule, so a missing value reads "differs"."""
    try:
        v = table.loc[key, column] if column is not None else (table[key] if not hasattr(table, "loc") else table.loc[key])
        return float(v)
    except (KeyError, TypeError, ValueError):
        return float("nan")


def _printed_band(paper: float, rounding: float, se: Mapping | None, key) -> Rule:
    """Two-sided: the paper's printed value ± (its rounding + 3 Monte-Carlo SEs of ours; SE 0 when not given)."""
    from ..experiments.claims import band

    v = float(se.get(key, 0.0)) if se is not None else 0.0
    return band(paper, rounding=rounding, se=v if np.isfinite(v) else 0.0)


@claim_defaults("paper", cause="open:an exact computation on the paper's toy table (Fig. 2) disagrees with its print beyond the "
                                "garbles spec §7 lists (items 5, 7, 10): a bug here or an unlisted misprint")
def fig02_tab03_tab04_fig10_toy(claims: Claims, *, measures: Mapping[str, float], table3: pd.DataFrame,
                                table4_strict: pd.DataFrame, degree_bound: int, fig10_at: Mapping[float, float],
                                fig10_curve: pd.DataFrame) -> None:
    """The toy table of Fig. 2: its measures, Tables 3–4, Example 3's degree bound and Fig. 10's bound (exact).

    ``measures`` is :func:`~dpworkbench.inconsistency.model.all_measures` of the Fig. 2 graph; ``table3`` /
    ``table4_strict`` come from :mod:`~dpworkbench.inconsistency.examples` (``table4(prune="lt")``); ``fig10_at``
    maps β to Thm 2's bound; ``fig10_curve`` is the printed bound over a grid of β (second column).

    References
    ----------
    Mohapatra et al. 2025, Fig. 2, Examples 1–4, Tables 3–4, Thm 2 / Fig. 10; spec §2.5.
    """
    for key, label in (("I_MI", "Fig. 2 / Ex. 1: I_MI"), ("I_P", "Fig. 2: I_P"), ("I_R_exact", "Fig. 2: I_R"),
                       ("max_degree", "Fig. 2: max degree")):
        p = ref.FIG2_MEASURES[key]
        claims.add(label, paper=p, ours=measures[key], rule=close(p, atol=0))
    for t, q in zip(table3["theta"], table3["quality"]):
        p = ref.TABLE3_QUALITY[int(t)]
        claims.add(f"Table 3: q(θ={t})", paper=p, ours=float(q), rule=close(p, atol=0.011),
                   note="printed values are truncated to 2 decimals; pass within ±0.011")
    em = table4_strict[table4_strict.scheme == "EM (ε)"]
    for t, pr in zip(em.theta, em.probability):
        p = ref.TABLE4_EM[int(t)]
        claims.add(f"Table 4: EM Pr[θ={t}]", paper=p, ours=float(pr), rule=close(p, atol=0.0075),
                   note="paper truncates (exact 0.3566); pass within ±0.0075")
    s2 = table4_strict[(table4_strict.scheme == "2-EM step 2 (ε/2)") & (table4_strict.after == "θ3")]
    for t, pr in zip(s2.theta, s2.probability):
        p = ref.TABLE4_STEP2_AFTER_THETA3[int(t)]
        claims.add(f"Table 4: 2-EM step 2 after θ3, Pr[θ={t}]", paper=p, ours=float(pr), rule=close(p, atol=0.005))
    after2 = table4_strict[(table4_strict.scheme == "2-EM step 2 (ε/2)") & (table4_strict.after == "θ2")]
    claims.add("Table 4: after θ2 step 2 returns θ1 w.p. 1 (strict pruning)", paper=1.0, ours=float(after2.probability.iloc[0]),
               rule=close(1.0, atol=1e-9))
    claims.add("Example 3: d_bound = freq(Ottawa) − 1", paper=ref.EXAMPLE3_DEGREE_BOUND, ours=int(degree_bound),
               rule=close(ref.EXAMPLE3_DEGREE_BOUND, atol=0))
    for b, v in ref.FIG10_BOUND.items():
        claims.add(f"Fig. 10: bound at β={b}", paper=v, ours=float(fig10_at[b]), rule=close(v, atol=0.01),
                   note="paper plots this curve; values derived in spec §2.5; pass within ±0.01", source="spec")
    steps = np.diff(np.asarray(fig10_curve.iloc[:, 1], dtype=float))
    claims.add("Fig. 10: bound decreasing in β (largest step between grid points)", paper="< 0 (decreasing)",
               ours=float(steps.max()), rule=at_most(0.0, strict=True))


@claim_defaults("paper", cause="open:Alg. 5 on Fig. 3's graphs disagrees with Examples 5–6 beyond their naming garbles (spec §7 "
                                "item 12): a bug in Alg. 5 or in the exact cover")
def fig03_vertex_cover_toy(claims: Claims, *, trace: pd.DataFrame, orders: pd.DataFrame, tau: Sequence[int]) -> None:
    """Algorithm 5 on Fig. 3's G and G': Example 6's trace, Example 5's random orders and the exact covers.

    ``trace`` is :func:`~dpworkbench.inconsistency.examples.example6_trace`, ``orders``
    :func:`~dpworkbench.inconsistency.examples.example5_orders`, ``tau`` = (τ(G), τ(G')) by
    :func:`~dpworkbench.inconsistency.model.i_r_exact`.

    References
    ----------
    Mohapatra et al. 2025, Fig. 3, Examples 5–6, Prop. 3.
    """
    claims.add("Example 6: c(G) with lexicographic order", paper=ref.EXAMPLE6_TRACE[-1][0], ours=int(trace.c.iloc[-1]),
               rule=close(ref.EXAMPLE6_TRACE[-1][0], atol=0))
    claims.add("Example 6: c(G')", paper=ref.EXAMPLE6_TRACE[-1][1], ours=int(trace["c'"].iloc[-1]), rule=close(ref.EXAMPLE6_TRACE[-1][1], atol=0))
    ours = tuple((int(a), int(b)) for a, b in zip(trace.c, trace["c'"]))
    claims.add("Example 6: (c, c') trace", paper="".join(f"({a},{b})" for a, b in ref.EXAMPLE6_TRACE),
               ours="".join(f"({a},{b})" for a, b in ours), value=ours, rule=equals(ref.EXAMPLE6_TRACE))
    sizes = tuple(sorted({int(x) for x in orders[orders.graph == "G"].cover_size}))
    claims.add("Example 5: random orders give 4 or 6 on G", paper="4 vs 6", ours=" vs ".join(map(str, sizes)), value=sizes,
               rule=equals(ref.EXAMPLE5_COVER_SIZES_G))
    t = tuple(int(x) for x in tau)
    claims.add("exact τ(G), τ(G') (2-approx. brackets)", paper="3, 4 (derived)", ours=f"{t[0]}, {t[1]}", value=t, rule=equals(ref.FIG3_TAU), source="spec")


@claim_defaults("paper", cause="open:a brute-force node sensitivity on random small graphs disagrees with Table 2 / Lemma 1 / "
                                "Prop. 3 beyond the corrections spec §1.6 and §2.7 make (a bound the sampled graphs miss, or a bug)")
def tab02_measures(claims: Claims, sensitivities: pd.DataFrame, *, n: int) -> None:
    """Table 2 / Prop. 2, Lemma 1, Prop. 3: brute-force node sensitivities on random n-node graphs against the paper.

    ``sensitivities`` is :func:`~dpworkbench.inconsistency.experiments.measured_sensitivities` (column ``measured_max``).

    References
    ----------
    Mohapatra et al. 2025, Table 2, Prop. 2, Lemma 1, Prop. 3; spec §1.6, §2.7.
    """
    s = sensitivities.set_index("measure")["measured_max"]

    def get(m: str) -> float:
        return float(s.loc[m])

    claims.add("Δ I_D = 1", paper=1, ours=get("I_D"), rule=close(1, atol=0))
    claims.add("Δ I_R = 1", paper=1, ours=get("I_R"), rule=close(1, atol=0))
    claims.add(f"Δ I_MI = n (n = {n})", paper=n, ours=get("I_MI"), rule=close(n, atol=0))
    claims.add(f"Δ I_P = n (n = {n})", paper=n, ours=get("I_P"), rule=at_most(n), cause="paper-error:spec §1.6 (Δ I_P is n + 1)",
               note=f"pass when ≤ {n}; measured n+1 is expected: going from n clean tuples to n+1 makes every tuple problematic (spec §1.6)")
    for t in (1, 2, 3):
        claims.add(f"Lemma 1: Δ(f_MI∘π_θ) ≤ θ, θ={t}", paper=t, ours=get(f"f_MI∘π_θ, θ={t}"), rule=at_most(t))
        claims.add(f"Lemma 1 for I_P: Δ(f_P∘π_θ) ≤ θ, θ={t}", paper=t, ours=get(f"f_P∘π_θ, θ={t}"), rule=at_most(t),
                   cause="paper-error:spec §2.7 (the bound is θ + 1)",
                   note=f"pass when ≤ {t}; the paper's bound is θ, the correct bound θ+1 (spec §2.7); we use θ+1 by default")
    claims.add("Prop. 3: Δc ≤ 2 for Alg. 5", paper=ref.PROP3_COVER_SENSITIVITY, ours=get("Alg. 5 cover size c"),
               rule=at_most(ref.PROP3_COVER_SENSITIVITY))


@claim_defaults("paper", cause="open:a real table's Table 5 statistic differs (our DC set or its 1 % RNoise draw, spec §5.2)")
def tab05_datasets(claims: Claims, table5: pd.DataFrame, *, rows: int) -> None:
    """Table 5: dataset statistics at 1 % RNoise. ``table5`` is :func:`~dpworkbench.inconsistency.experiments.table5`.

    A synthetic stand-in's maximum degree is not compared with the paper: the generator was calibrated to that very
    value, so the comparison could not fail. Only real tables are judged (±25 %; Stock exactly), the others are
    reported as not comparable (the stand-ins are shown next to the real tables by the calibration table).

    References
    ----------
    Mohapatra et al. 2025, Table 5 and Fig. 9 (density order); spec §5.2.
    """
    for r in table5.itertuples():
        paper = int(r.max_degree_paper)
        if rows != 10000:
            claims.add(f"Table 5: max degree, {r.dataset} (only {rows} rows in this profile)", paper=paper, ours=r.max_degree,
                       rule=not_comparable("the paper uses 10k rows; run the quick profile"), cause=f"scale:rows {rows} < 10,000")
        elif r.source != "real":
            claims.add(f"Table 5: max degree, {r.dataset} 10k, 1% RNoise (synthetic stand-in)", paper=paper, ours=r.max_degree,
                       rule=not_comparable("the stand-in generator was calibrated to this value; no real table to compare"),
                       cause=f"stand-in:{r.dataset} (synthetic, calibrated to this value)")
        else:
            rule = close(paper, atol=0) if r.dataset == "Stock" else close(paper, rtol=0.25)
            claims.add(f"Table 5: max degree, {r.dataset} 10k, 1% RNoise (real data)", paper=paper, ours=r.max_degree, rule=rule,
                       cause="noise:the 1 % RNoise draw")
        pair = (int(r.dcs), int(r.fd_like))
        claims.add(f"Table 5: #DCs (#FDs), {r.dataset}", paper=f"{r.dcs_paper} ({r.fds_paper})", ours=f"{pair[0]} ({pair[1]})",
                   value=pair, rule=equals((int(r.dcs_paper), int(r.fds_paper))))
    order = tuple(table5.set_index("dataset").edges.sort_values().index)
    stand_ins = [str(d) for d, src in zip(table5.dataset, table5.source) if src != "real"]
    claims.add("density order Stock < Tax < Hospital < Flight < Adult (edges)", paper="<".join(ref.DENSITY_ORDER),
               ours="<".join(order), value=order, rule=equals(ref.DENSITY_ORDER),
               cause=f"stand-in:{', '.join(stand_ins)}" if stand_ins else (f"scale:rows {rows} < 10,000" if rows != 10000 else ""))


@claim_defaults("paper", cause="paper-error:spec §7 items 19–20 (§6.2's and Table 1's errors disagree; the noise type, "
                                "checkpoints and averaging behind them are unstated)")
def fig04_fig05_true_vs_private(claims: Claims, *, avg: Mapping[str, float], per: Mapping[tuple, float], noise: str,
                                profile: str, datasets: Sequence[str], r2t_avg_mi: float | None = None,
                                se: Mapping | None = None, r2t_per_mi: Mapping[str, float] | None = None,
                                r2t_se_mi: Mapping[str, float] | None = None) -> None:
    """Figs. 4/5: the relative errors of our approach (mean over datasets, checkpoints and runs) against §6.2.

    ``avg[m]`` is the mean relative error of measure m, ``per[(dataset, m)]`` per dataset (both from
    :func:`~dpworkbench.inconsistency.experiments.error_summary`); ``r2t_avg_mi`` the R2T series' mean I_MI error;
    ``se`` the Monte-Carlo SEs of ``avg`` and ``per`` (same keys); ``r2t_per_mi`` the R2T series' mean I_MI error per
    dataset (then "R2T is less accurate" is judged on every dataset, not on the mean, which hid Tax), ``r2t_se_mi`` its
    Monte-Carlo SEs (then a gap within 3 SEs of the difference is labelled noise). The paper's printed errors are judged two-sided: their
    rounding + 3 SEs (issue 24; formerly ±50 % and a factor 2).

    References
    ----------
    Mohapatra et al. 2025, §6.2, Figs. 4–5, Table 1.
    """
    ci = _ci_cause(claims, profile)
    if r2t_per_mi:
        gaps = {d: float(r2t_per_mi[d]) - _get(per, (d, "I_MI")) for d in datasets if d in r2t_per_mi}
        worst = min(gaps, key=lambda d: gaps[d] if np.isfinite(gaps[d]) else -np.inf)
        gap_se = (float(np.hypot(float(r2t_se_mi.get(worst, np.nan)), float((se or {}).get((worst, "I_MI"), np.nan))))
                  if r2t_se_mi else float("nan"))
        noisy = not ci and np.isfinite(gap_se) and gap_se > 0 and -3 * gap_se <= gaps[worst] <= 0
        claims.add("R2T is less accurate than ours for I_MI on every dataset (smallest R2T − ours, relative error)",
                   paper="> 0 (ours < R2T)", ours=gaps[worst], rule=not_comparable(CI_REASON) if ci else at_least(0.0, strict=True),
                   cause="" if ci else (f"noise:SE {gap_se:.3f} of R2T − ours on {worst} (within 3 SE)" if noisy else
                                        f"open:R2T (the artifact's GS = n, β = 0.1, base 5.5, ordered pairs) beats our projection on {worst}"),
                   note=f"smallest on {worst}" + (f" (SE {gap_se:.3f})" if np.isfinite(gap_se) else "")
                        + f"; R2T better on: {', '.join(d for d, g in gaps.items() if not g > 0) or 'none'}; "
                        "R2T with the artifact's GS = n, β = 0.1, base 5.5, ordered pairs halved")
    elif r2t_avg_mi is not None:
        gap = float(r2t_avg_mi) - _get(avg, "I_MI")
        claims.add("R2T is less accurate than ours for I_MI (R2T − ours, average relative error)", paper="> 0 (ours < R2T)",
                   ours=gap, rule=not_comparable(CI_REASON) if ci else at_least(0.0, strict=True),
                   cause="" if ci else "open:R2T (the artifact's GS = n, β = 0.1, base 5.5, ordered pairs) beats our projection on average",
                   note=f"ours {_get(avg, 'I_MI'):.3f}, R2T {float(r2t_avg_mi):.3f}; §6.2 / Table 1; R2T with the artifact's GS = n, "
                        "β = 0.1, base 5.5")
    scale = " (ci: tiny tables)" if ci else ""
    for m, p in ref.PAPER_AVG_ERROR.items():
        spread = ", ".join(f"{d} {_get(per, (d, m)):.3f}" for d in datasets if (d, m) in per)
        claims.add(f"average relative error of {m} over datasets and checkpoints{scale}", paper=p, ours=_get(avg, m),
                   rule=not_comparable(CI_REASON) if ci else _printed_band(p, ROUNDING_2DP, se, m),
                   note=f"paper text §6.2 (whether it averages Figs. 4 and 5 is not said); two-sided: rounding + 3 SE; per dataset: {spread}")
    ir_gap = min(_get(avg, "I_MI"), _get(avg, "I_P")) - _get(avg, "I_R")
    claims.add("I_R is the most accurate measure (min(I_MI, I_P) − I_R, average relative error)", paper="> 0", ours=ir_gap,
               rule=at_least(0.0, strict=True),
               cause="" if ci else "open:Alg. 5's Lap(2/ε) on I_R outweighs the projection's error on I_MI / I_P in these tables",
               note=f"I_R {_get(avg, 'I_R'):.3f}, I_MI {_get(avg, 'I_MI'):.3f}, I_P {_get(avg, 'I_P'):.3f}; I_R's sensitivity is 2")
    if noise != "rnoise":  # the per-dataset I_MI claims (text §6.2, Table 1) belong to Fig. 4 only
        return
    for d, p in ref.PAPER_MI_ERROR_TEXT.items():
        claims.add(f"I_MI relative error, {d} (ours, ε=1){scale}", paper=p, ours=_get(per, (d, "I_MI")),
                   rule=not_comparable(CI_REASON) if ci else _printed_band(p, ROUNDING_3DP, se, (d, "I_MI")),
                   note="text §6.2; two-sided: rounding + 3 SE")
    for d, p in ref.PAPER_TAB1_OURS.items():
        claims.add(f"Table 1 (this work): I_MI error, {d}{scale}", paper=p, ours=_get(per, (d, "I_MI")),
                   rule=not_comparable(CI_REASON) if ci else _printed_band(p, ROUNDING_2DP, se, (d, "I_MI")),
                   note="Table 1's noise setting is not stated; two-sided: rounding + 3 SE")


#: the Tax ablation (issue 24; quick profile, seed 0, 10k rows, 5 checkpoints × 10 runs): with the corrected I_P setting
#: Baseline 1's clipped output wins I_P on Tax (ours 0.51 vs θ=|V| 0.35; I_MI: ours 0.17, best); in the paper's setting
#: (sensitivity θ, I_P measured before the clip; 40 runs per checkpoint since the ablation's Baseline 1 is noisy) Baseline 1
#: rises to 1.08 and ours (0.43) is best (hier 0.54, EM 0.70; ours / best other 0.78)
TAX_IP_CAUSE = ("paper-error:spec §2.7 (I_P sensitivity θ + 1 and the clip to [0, n]; in the paper's setting — θ, error before "
                "the clip — ours is best on Tax, see the paper-setting Tax claim)")


#: Fig. 6's Stock ratio, measured (issue 24; quick, 10k rows, 5 checkpoints × 10 runs, seeds 0/1/2): the claim's ratio
#: 103 / 359 / 434; Baseline 1 alone is 706–3,071× worse than ours (in the paper's range), the EM 163–3,882×, i.e.
#: 0.2–1.3 × Baseline 1's error (an EM whose θ is close to uniform over Θ, as the spec's prototype found on Adult). In the
#: paper's I_P setting (θ sensitivity, I_P error before the clip) the ratio is 539 / 435 / 765 — still below 10³
STOCK_FIG6_CAUSE = ("open:the EM is only 0.2–1.3 × Baseline 1's error (θ close to uniform over Θ?): ratio 103–434 over seeds "
                    "0–2 (Baseline 1 alone 706–3,071×), 435–765 in the paper's I_P setting; the paper's EM candidates or "
                    "quality scale are suspected")


@claim_defaults("paper", cause="open:the strategies' order depends on the I_P sensitivity setting (θ vs θ + 1, spec §2.7)")
def fig06_theta_strategies(claims: Claims, summary: pd.DataFrame, *, profile: str,
                           paper_setting: pd.DataFrame | None = None, paper_setting_se: pd.DataFrame | None = None) -> None:
    """Fig. 6: the five θ strategies' mean relative errors (``summary``: index (dataset, measure), one column per
    strategy, from :func:`~dpworkbench.inconsistency.experiments.error_summary`); ``paper_setting`` the same for the
    paper's I_P setting (``ip_sensitivity="paper"``, unclipped) on the dense datasets, ``paper_setting_se`` the
    Monte-Carlo SEs of those means (std / √count, same shape): a paper-setting gap that differs by less than 3 SEs of
    the gap is labelled noise.

    References
    ----------
    Mohapatra et al. 2025, §6.3, Fig. 6.
    """
    ci = _ci_cause(claims, profile)
    S = summary
    lo, hi = ref.FIG6_STOCK_RATIO
    ratio = (min(_get(S, ("Stock", m), a) for m in ("I_MI", "I_P") for a in ("baseline_V", "em"))
             / max(_get(S, ("Stock", m), "bound_hier") for m in ("I_MI", "I_P")))
    claims.add("Stock: non-pruned private strategies 10³–10⁴× worse than ours", paper="1e3–1e4", ours=ratio,
               rule=not_comparable(CI_REASON) if ci else between(lo, hi), cause="" if ci else STOCK_FIG6_CAUSE,
               note="min over (θ=|V|, EM) and measures of the error ratio to ours; pass in the paper's range [10³, 10⁴]")
    private_others = ["baseline_V", "em", "hier_em"]
    for d in ("Tax", "Hospital"):
        ratio_best = max(_get(S, (d, m), "bound_hier") / max(min(_get(S, (d, m), a) for a in private_others), 1e-12)
                         for m in ("I_MI", "I_P"))
        claims.add(f"{d}: ours best among private strategies (ours / best other private, worst measure)", paper="≤ 1",
                   ours=ratio_best, rule=not_comparable(CI_REASON) if ci else at_most(1.0),
                   cause=TAX_IP_CAUSE if d == "Tax" and not ci else "",
                   note="the paper also puts the hierarchical EM (hier_em) within one order of magnitude of ours")
    def paper_setting_gap(d: str) -> float:  # the same I_P comparison in the paper's setting (NaN without the ablation)
        if paper_setting is None:
            return float("nan")
        return (min(_get(paper_setting, (d, "I_P"), "bound_hier"), _get(paper_setting, (d, "I_P"), "hier_em"))
                - _get(paper_setting, (d, "I_P"), "baseline_V"))

    def paper_setting_gap_se(d: str) -> float:  # SE of that gap: the better of ours/hier and Baseline 1 (independent runs)
        if paper_setting is None or paper_setting_se is None:
            return float("nan")
        best = min(("bound_hier", "hier_em"), key=lambda a: _get(paper_setting, (d, "I_P"), a))
        return float(np.hypot(_get(paper_setting_se, (d, "I_P"), best), _get(paper_setting_se, (d, "I_P"), "baseline_V")))

    for d in ("Flight", "Adult"):
        mi_gap = _get(S, (d, "I_MI"), "baseline_V") - _get(S, (d, "I_MI"), "bound_hier")
        claims.add(f"{d} (dense): Baseline 1 beats ours for I_MI (Baseline 1 − ours)", paper="≤ 0", ours=mi_gap,
                   rule=not_comparable(CI_REASON) if ci else at_most(0.0),
                   cause="" if ci else "open:Baseline 1 (θ = |V|) is not better than the projection for I_MI on a dense table")
        ip_gap = min(_get(S, (d, "I_P"), "bound_hier"), _get(S, (d, "I_P"), "hier_em")) - _get(S, (d, "I_P"), "baseline_V")
        # the ablation settles the cause: when the paper's I_P setting (θ sensitivity, unclipped) restores the order, the
        # difference is the spec's correction; otherwise it stays open (the claim's default)
        settled = not ci and paper_setting_gap(d) <= 0
        claims.add(f"{d} (dense): ours/hier beat Baseline 1 for I_P (min(ours, hier) − Baseline 1)", paper="≤ 0", ours=ip_gap,
                   rule=not_comparable(CI_REASON) if ci else at_most(0.0),
                   cause=(f"paper-error:spec §2.7 (I_P sensitivity θ + 1 and the clip to [0, n]; in the paper's setting ours/hier "
                          f"beat Baseline 1 on {d}, see the paper-setting claim)") if settled else "")
    if paper_setting is None:
        return
    if ("Tax", "I_P") in paper_setting.index:
        others = [a for a in private_others if a in paper_setting.columns]
        r = _get(paper_setting, ("Tax", "I_P"), "bound_hier") / max(min(_get(paper_setting, ("Tax", "I_P"), a) for a in others), 1e-12)
        claims.add("Tax: ours best among private strategies for I_P in the paper's setting (θ sensitivity, unclipped I_P; "
                   "not proven private)", paper="≤ 1", ours=r, rule=not_comparable(CI_REASON) if ci else at_most(1.0),
                   note="ours / best of " + ", ".join(others) + ", mean relative error (the ablation of the Tax claim above)")
    for d in ("Flight", "Adult"):
        gap, se = paper_setting_gap(d), paper_setting_gap_se(d)
        # within 3 SEs a positive gap is the Monte-Carlo noise of the ablation (Baseline 1's |Lap(n/ε)|/n has std ≈ 1 per
        # run: at 10 runs × 5 checkpoints Adult's gap measured +0.037, −0.256, −0.371, −0.480, −0.346 over seeds 0–4)
        noisy = not ci and np.isfinite(se) and se > 0 and 0 < gap <= 3 * se
        claims.add(f"{d}: ours/hier beat Baseline 1 for I_P in the paper's setting (θ sensitivity, unclipped I_P; not proven private)",
                   paper="≤ 0", ours=gap, rule=not_comparable(CI_REASON) if ci else at_most(0.0),
                   cause=f"noise:SE {se:.3f} of the gap (std / √runs of the two means)" if noisy else "",
                   note="min(ours, hier) − Baseline 1, mean relative error" + (f"; SE {se:.3f}" if np.isfinite(se) else ""))


#: Fig. 7's Stock I_R point, measured (issue 24): on Stock (d_max = 1) the conflict graph is a matching of m pairs, Alg. 5's
#: cover is 2m = 2·I_R^lin, so its relative error is exactly E|Lap(2/ε)| / 2m = 1/(ε·m): ≤ 0.05 at ε = 3 needs m ≥ 7. Our
#: 10k samples at RNoise 0.5 % (400 changes) have m = 3, 4, 2, 2, 2, 4, 5, 2 pairs (seeds 0–7): 1/(3m) = 0.067–0.167 (seed 0:
#: m = 3, 0.111; measured 0.085 over 10 runs, SE ≈ 0.035)
STOCK_IR_CAUSE = ("stand-in:Stock (our 10k samples of the 587k-row 137-ticker Kaggle table, not the paper's unidentifiable "
                  "122,498-row subset, have m = 2–5 conflicting pairs at α = 0.5 %, seeds 0–7; Alg. 5's error on a matching is "
                  "exactly 1/(ε·m), so ≤ 0.05 at ε = 3 needs m ≥ 7)")


@claim_defaults("paper", cause="open:I_R's relative error on Stock (very few violations) is dominated by the Lap(2/ε) noise")
def fig07_epsilon_sweep(claims: Claims, summary: pd.DataFrame, *, profile: str) -> None:
    """Fig. 7: relative error against ε (``summary``: dataset, measure, eps, mean from
    :func:`~dpworkbench.inconsistency.experiments.error_summary`).

    References
    ----------
    Mohapatra et al. 2025, §6.4, Fig. 7.
    """
    ci = _ci_cause(claims, profile)
    S = summary.set_index(["dataset", "measure", "eps"])["mean"]
    for d, e in ref.FIG7_IR_POINTS:
        claims.add(f"I_R error ≤ 0.05 at ε={e} on {d}", paper=ref.FIG7_IR_MAX_ERROR, ours=_get(S, (d, "I_R", e)),
                   rule=not_comparable(CI_REASON) if ci else at_most(ref.FIG7_IR_MAX_ERROR),
                   cause=STOCK_IR_CAUSE if d == "Stock" and not ci else "")
    for m in ("I_MI", "I_P", "I_R"):
        lo = float(summary[(summary.measure == m) & (summary.eps == 0.1)]["mean"].mean())
        hi = float(summary[(summary.measure == m) & (summary.eps == 5.0)]["mean"].mean())
        claims.add(f"{m}: error improves from ε=0.1 to ε=5 (error at 5 − error at 0.1)", paper="< 0 (decreasing)", ours=hi - lo,
                   rule=at_most(0.0, strict=True), note=f"{lo:.3g} → {hi:.3g}")


@claim_defaults("paper", cause="open:runtimes on other hardware")
def fig08_runtime(claims: Claims, *, tax_slope: float, edge_slope: float, flight: pd.DataFrame, tax_series: str = "") -> None:
    """Fig. 8: runtime against table size (``tax_slope``: log–log slope of the I_MI algorithm time on Tax, α = 0.005,
    the ``I_MI_algo_s`` of :func:`~dpworkbench.inconsistency.experiments.algorithm_seconds`) and number of DCs
    (``flight``: one row per DC count with build_s, I_MI_s, I_R_s from
    :func:`~dpworkbench.inconsistency.experiments.time_all_measures`; medians after a warm-up). Every time is the
    algorithm's without the graph build, as the artifact timed it (:data:`~dpworkbench.inconsistency.experiments.TIMED`),
    as Fig. 9. ``tax_series`` names the sizes and table the slopes come from (real Tax up to its 40,000 rows, the
    stand-in above).

    References
    ----------
    Mohapatra et al. 2025, §6.5, Fig. 8.
    """
    (n0, t0), (n1, t1) = sorted(ref.FIG8_TAX_SECONDS.items())
    paper_slope = float(np.log10(t1 / t0) / np.log10(n1 / n0))
    claims.add("runtime grows with table size (log–log slope, Tax α=0.005)", paper=round(paper_slope, 2), ours=float(tax_slope),
               rule=not_comparable("our sizes (≤ 10⁵ rows in quick) and hardware differ from the paper's; only the trend is judged"),
               cause="scale:≤ 10⁵ rows (paper: 10⁶ nodes) on other hardware",
               note="paper: 1 ms at 10² nodes → 4,500 s at 10⁶ nodes (322 M edges)")
    on = f"on {tax_series}" if tax_series else ""
    claims.add("runtime increases with size (log–log slope of I_MI time)", paper="> 0", ours=float(tax_slope), rule=at_least(0.0, strict=True),
               note=f"pass when > 0; the algorithm's time without the graph build, as the artifact timed it; {on}".rstrip("; "))
    claims.add("edges grow super-linearly with rows (paper: 'exponentially'; log–log slope)", paper="> 1", ours=float(edge_slope),
               rule=at_least(1.0, strict=True), note=f"pass when > 1 (spec §7 item 18: 'exponentially' means super-linearly); {on}".rstrip("; "))
    fl = algorithm_seconds(flight)
    first, last = float(fl.I_MI_algo_s.iloc[0]), float(fl.I_MI_algo_s.iloc[-1])
    k0, k1 = sorted(ref.FIG8_FLIGHT_SECONDS)
    claims.add(f"Flight: I_MI/I_P time, {k1} DCs vs {k0} DC", paper=ref.FIG8_FLIGHT_SECONDS[k1] / ref.FIG8_FLIGHT_SECONDS[k0], ours=last / first,
               rule=not_comparable("the paper's times are of networkx code on other hardware and the Flight table is a stand-in; ratio shown"),
               cause="stand-in:Flight (synthetic; the paper's times are of its networkx code on a Xeon, ours of the same timed "
                     "window — the algorithm on a built graph — on a shared 2-core machine)",
               note=f"paper: ≈5 s → 25 s; timed: {TIMED}")
    with_build = float(flight.I_MI_s.iloc[-1]) / float(flight.I_MI_s.iloc[0])
    claims.add("Flight: time increases with #DCs (time with all DCs / with one)", paper="> 1", ours=last / first,
               rule=at_least(1.0, strict=True),
               note=f"{first:.3g}s → {last:.3g}s without the graph build; with our build included {with_build:.3g}×")
    r = float(fl.I_R_algo_s.mean()) / float(fl.I_MI_algo_s.mean())
    claims.add("I_R (Alg. 5) faster than I_MI/I_P (mean time ratio I_R / I_MI)", paper="< 1 (≤1 s vs 5 s with 1 DC)", ours=r,
               rule=at_most(1.0, strict=True), note="the algorithms' times without the graph build, as the artifact timed them")


#: what Fig. 9 times (as Fig. 8): the artifact's compute_measures.py times only the algorithm call on the pickled graph
FIG9_TIMED = TIMED


@claim_defaults("paper", cause="open:timing noise (algorithm runs of 5–70 ms on a shared 2-core machine) or the projection's "
                                "fixed per-run costs (stable order, FD bound) outweighing the edges at 10k rows")
def fig09_runtime_by_density(claims: Claims, runtimes: pd.DataFrame) -> None:
    """Fig. 9: runtime by dataset (``runtimes``: dataset, edges, build_s, I_MI_s from
    :func:`~dpworkbench.inconsistency.experiments.time_all_measures`), judged on the Spearman ρ of edges against the
    algorithm's time, I_MI_s − build_s (:data:`FIG9_TIMED`). With the build included ρ measured 0.1 / 0.6 / −0.5 over
    seeds 0–2 (quick, 10k rows): our build costs O(|Σ| n log n + m), its per-DC terms dominate at 10k rows (Tax: 9 DCs,
    8k edges; Adult: 3 DCs, 190k edges) and it is not what the paper timed; without it ρ = 0.9 / 0.9 / 0.7.

    References
    ----------
    Mohapatra et al. 2025, §6.5, Fig. 9; artifact compute_measures.py (the timed window).
    """
    from scipy.stats import spearmanr

    algo = algorithm_seconds(runtimes).I_MI_algo_s
    rho = float(spearmanr(runtimes.edges, algo).statistic)
    with_build = float(spearmanr(runtimes.edges, runtimes.I_MI_s).statistic)
    claims.add("runtime increases with density (Spearman ρ of edges vs I_MI time without the graph build)",
               paper="> 0.5 (proportional)", ours=rho, rule=at_least(0.5, strict=True),
               note=f"the paper gives no numbers; pass when ρ > 0.5; timed: {FIG9_TIMED}; with our build included ρ = {with_build:.2f}")
    densest = str(runtimes.set_index("dataset").edges.idxmax())
    claims.add("densest dataset is Adult", paper=ref.DENSITY_ORDER[-1], ours=densest, rule=equals(ref.DENSITY_ORDER[-1]))


#: Table 1's entries that spec §7 item 19 finds in conflict with §6.2's text (same measure, same dataset)
TAB1_CONFLICTS_TEXT = {("ours", "Adult"): "0.10 vs 0.187", ("R2T", "Flight"): "0.12 vs 0.205", ("ours", "Stock"): "0.07 vs 0.492"}
#: why our Stock ratio is far below the paper's (measured, issue 24; R2TIMI with the artifact's GS = n, β = 0.1, base 5.5 on
#: our real Stock at RNoise 1 %, last checkpoint, 20,000 runs per seed): R2T's relative error on a graph of a few pairs is 1
#: (it releases 0) unless one of its 5 τ's Laplace draws exceeds its shift, P = β/(2·5) = 1 % per τ (measured 4.6–4.8 % of
#: runs), and then it overshoots by ≈ the scale, up to 5·5,033/ε ≈ 25,000. Seeds 0/1/2 (5/8/4 pairs): mean error 68 ± 5 / 38 ± 3 /
#: 86 ± 7 (SE), per-run std 730 / 444 / 1,003; a 10-run mean (the paper's and ours) equals 1.0 in 61–62 % of draws, its 90 %
#: quantile is 78–184. The paper's 123.19 ± 276.73 (std > mean) is one such heavy-tailed 10-run mean; ours, 1.0, the median one.
STOCK_RATIO_CAUSE = ("noise:R2T's Stock error is heavy-tailed (1 unless a τ's Laplace overshoots its shift, ≈ 4.7 % of runs, by up "
                     "to ≈ 25,000 on 4–8 true pairs): over 20,000 runs its mean is 38–86 (SE 3–7), per-run std 444–1,003, so a "
                     "10-run mean has SE 140–317 and is exactly 1.0 in 61 % of draws; the paper's 123.19 ± 276.73 is one such mean")


def _ratio_band(num: float, den: float, se_num: float, se_den: float, paper_num: float, paper_den: float):
    """Two-sided band on a ratio of two printed numbers (issue 24): the paper's ratio ± (its rounding carried through
    the ratio, r·(ρ_num/num + ρ_den/den) with ρ the printed rounding, + 3 × the delta-method SE of our ratio)."""
    from ..experiments.claims import band

    r = paper_num / paper_den
    rounding = abs(r) * (ROUNDING_2DP / abs(paper_num) + ROUNDING_2DP / abs(paper_den))
    ours = num / den if den else float("nan")
    se = abs(ours) * float(np.hypot(se_num / num, se_den / den)) if num and den else 0.0
    return band(r, rounding=rounding, se=se if np.isfinite(se) else 0.0)


#: Table 1's R2T is the artifact's ordered-pair count (output halved, spec §2.10), whose join results weigh 2·degree per
#: tuple: on a dense sample (Adult) the artifact's top τ = 5.5^⌊log_5.5 GS⌋ ≈ 5,033 (GS = n = 10k) lies below that DS
#: and truncates. Measured (quick, seed 0, Adult at RNoise 1 %: max degree 9,927, 2.04 M pairs): every run of both counts
#: wins at τ = 5,033, which keeps ≤ 5,033 pairs per tuple unordered but ≤ 2,516 ordered — error 0.189 vs 0.337.
TAB1_R2T_OPEN_CAUSE = ("open:the artifact's ordered-pair R2T truncates on {d} (τ ≤ 5.5^5 ≈ 5,033 at GS = n = 10k, below its DS = "
                       "2·max degree on a dense sample); Table 1's noise setting is unstated (spec §7 item 19)")


@claim_defaults("paper", cause="open:our I_MI errors differ from Table 1's where §6.2 does not contradict it (noise setting unstated)")
def tab01_r2t_vs_projection(claims: Claims, summary: pd.DataFrame, *, paper_r2t: Mapping[str, float],
                            paper_ours: Mapping[str, float], profile: str, datasets: Sequence[str]) -> None:
    """Table 1: R2T vs this work for I_MI. ``summary`` is indexed by (dataset, algo) with ``mean`` and ``source``
    (:func:`dpworkbench.comparisons.table1_summary`); ``paper_r2t`` / ``paper_ours`` the paper's mean errors per
    dataset (the caller passes them: this package does not import :mod:`dpworkbench.comparisons`).

    References
    ----------
    Mohapatra et al. 2025, Table 1 and §6.2.
    """
    ci = _ci_cause(claims, profile)
    S = summary

    def se(key) -> float:  # Monte-Carlo SE of a mean relative error: std / √runs (0 when the summary has no spread)
        return _get(S, key, "std") / np.sqrt(_get(S, key, "runs")) if "std" in S and "runs" in S else 0.0

    ses = {k: se(k) for k in S.index}
    for d in ("Adult", "Flight"):
        m, p = _get(S, (d, "R2T"), "mean"), float(paper_r2t[d])
        conflict = TAB1_CONFLICTS_TEXT.get(("R2T", d))
        claims.add(f"Table 1 R2T: I_MI relative error, {d}", paper=p, ours=m,
                   rule=not_comparable(CI_REASON) if ci else _printed_band(p, ROUNDING_2DP, ses, (d, "R2T")),
                   cause="" if ci else (f"paper-error:spec §7 item 19 (Table 1 vs §6.2 on {d}: {conflict})" if conflict else
                                        TAB1_R2T_OPEN_CAUSE.format(d=d)),
                   note=f"two-sided: the printed rounding + 3 SE; {S.loc[(d, 'R2T'), 'source']} data; "
                        "R2T counts ordered pairs and halves its output, as the artifact and Figs. 4–5 (spec §2.10)"
                        + (f"; R2T-unordered (the R2T paper's count): {_get(S, (d, 'R2T-unordered'), 'mean'):.3f}"
                           if (d, "R2T-unordered") in S.index else ""))
    for d in datasets:
        m, p = _get(S, (d, "ours"), "mean"), float(paper_ours[d])
        conflict = TAB1_CONFLICTS_TEXT.get(("ours", d))
        claims.add(f"Table 1 this work: I_MI relative error, {d}", paper=p, ours=m,
                   rule=not_comparable(CI_REASON) if ci else _printed_band(p, ROUNDING_2DP, ses, (d, "ours")),
                   cause="" if ci or not conflict else f"paper-error:spec §7 item 19 (Table 1 vs §6.2 on {d}: {conflict})",
                   note="two-sided: the printed rounding + 3 SE")
    better = [d for d in datasets if _get(S, (d, "ours"), "mean") < _get(S, (d, "R2T"), "mean")]
    claims.add("this work beats R2T on every dataset (number of datasets)", paper=len(datasets), ours=len(better),
               rule=not_comparable(CI_REASON) if ci else equals(len(datasets)), note="ours better on: " + (", ".join(better) or "none"),
               cause="" if ci else "open:R2T beats our projection on " + (", ".join(d for d in datasets if d not in better) or "none"))
    num, den = _get(S, ("Stock", "R2T"), "mean"), max(_get(S, ("Stock", "ours"), "mean"), 1e-9)
    stock = num / den
    paper_ratio = ref.TABLE1_STOCK["R2T"] / ref.TABLE1_STOCK["ours"]
    rule = not_comparable(CI_REASON) if ci else _ratio_band(num, den, ses.get(("Stock", "R2T"), 0.0), ses.get(("Stock", "ours"), 0.0),
                                                            ref.TABLE1_STOCK["R2T"], ref.TABLE1_STOCK["ours"])
    claims.add("Stock (very few violations): R2T error / ours", paper=round(paper_ratio), ours=stock, rule=rule,
               cause="" if ci else STOCK_RATIO_CAUSE,
               note=f"paper {ref.TABLE1_STOCK['R2T']} vs {ref.TABLE1_STOCK['ours']}; two-sided: the printed roundings carried "
                    f"through the ratio + 3 × its delta-method SE (it passed within a factor {ERROR_FACTOR:g}). R2T's output is "
                    "max(…, 0), so its relative error is 1 when it releases 0 and ≈ 10²–10⁴ when one of its τ's overshoots (≈ 4.7 % of "
                    "runs on a few true pairs): a 10-run mean of it is 1.0 in 61 % of draws, and its printed SE understates the tail")



#: why Alg. 5 cannot meet Fig. 7's 5 % against the exact I_R: the paper's protocol scores it against 2·I_R^lin
IR_EXACT_CAUSE = ("paper-error:spec §7 item 21 (§6.1 scores Alg. 5 against 2·I_R^lin, the artifact's reference, not I_R = τ); "
                  "Alg. 5's pre-noise cover is a 2-approximation of τ, so against τ its approximation factor dominates")


@claim_defaults("paper", cause=IR_EXACT_CAUSE)
def fig07_ir_exact(claims: Claims, table: pd.DataFrame, *, profile: str) -> None:
    """Fig. 7's I_R error against the exact I_R (issue 24): ``table`` from
    :func:`~dpworkbench.inconsistency.experiments.ir_against_exact`.

    The paper's I_R claims compare with 2·I_R^lin, which is within a few % of Alg. 5's own pre-noise cover, so they
    measure only the Lap(2/ε) noise; here the reference is τ (enumeration / HiGHS MILP) where the graph is small
    enough, and a check that the pre-noise cover is within [τ, 2τ] (Alg. 5 is a 2-approximation).

    References
    ----------
    Mohapatra et al. 2025, §5 (Alg. 5), §6.1 (reference), §6.4 / Fig. 7 (I_R error ≤ 5 %).
    """
    ci = _ci_cause(claims, profile)
    T = table.set_index(["dataset", "eps"])
    for d, e in ref.FIG7_IR_POINTS:
        if (d, e) not in T.index:
            continue
        r = T.loc[(d, e)]
        name = f"I_R error against the exact I_R (τ) ≤ 0.05 at ε={e} on {d}"
        note = (f"τ {r.tau:g}, I_R^lin {r.i_r_lin:g}, pre-noise cover {r.cover:g}; error against 2·I_R^lin "
                f"{r.err_vs_2lin:.3g} (the paper's protocol)")
        if not (np.isfinite(r.tau) and r.tau > 0):
            why = ("no violations: τ = 0, no relative error" if r.tau == 0 else
                   "the graph exceeds the exact I_R guard (NP-hard)")
            claims.add(name, paper=ref.FIG7_IR_MAX_ERROR, ours=r.err_vs_exact, rule=not_comparable(why),
                       cause=f"scale:{why}", note=note)
            continue
        claims.add(name, paper=ref.FIG7_IR_MAX_ERROR, ours=r.err_vs_exact,
                   rule=not_comparable(CI_REASON) if ci else at_most(ref.FIG7_IR_MAX_ERROR), note=note)
    for d, grp in table.groupby("dataset", sort=False):
        r = grp.iloc[0]
        if np.isfinite(r.tau) and r.tau > 0:
            claims.add(f"{d}: Alg. 5's pre-noise cover / exact I_R lies in [1, 2] (2-approximation)", paper="[1, 2]",
                       ours=float(r.cover_over_tau), rule=between(1.0, 2.0), source="check",
                       cause="open:a cover outside [τ, 2τ] would be a bug in Alg. 5 or in the exact solver")


__all__ = ["fig02_tab03_tab04_fig10_toy", "fig03_vertex_cover_toy", "fig04_fig05_true_vs_private", "fig06_theta_strategies",
           "fig07_epsilon_sweep", "fig07_ir_exact", "fig08_runtime", "fig09_runtime_by_density", "tab01_r2t_vs_projection", "tab02_measures",
           "tab05_datasets"]
