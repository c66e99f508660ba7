"""The local-dampening notebooks' claims: one function per notebook, each turning the values the notebook computed
(through package functions) into rows of a :class:`~dpworkbench.experiments.claims.Claims` table.

Every verdict comes from a rule (:func:`~dpworkbench.experiments.claims.close`, ``at_least``, ``at_most``,
``between``, ``equals``, ``not_comparable``) applied to a number, so every claim can come out "differs"
(``tests/test_claims_flip.py``). Where the thesis states a qualitative finding ("LD suffers from inversion"), the
number behind it is a difference whose sign is the finding; where it states a range, the verdict is computed against
that range (widened only by the measurement's stated resolution). The thesis' numbers are in
:mod:`dpworkbench.dampening.reference`.

Sources (issue 24): a thesis statement or printed number is ``paper``; the spec's recomputations (§2.11, §3.6) are
``spec``; properties of D, theorem and lemma checks, controls and the teaching notebook are ``check``. Causes cite
the spec's list of the thesis' errors (§7) where it explains a difference.

References
----------
V. A. E. de Farias, *Local Dampening: Differential Privacy for Non-numeric Queries via Local Sensitivity*, PhD thesis,
UFC 2021 (PVLDB 14(4) 2020): Examples 2.4.1–4.2.1, Figs. 2, 9c, 11–17, 20, 23–25 and Table 1; spec
/work/shared/spec/dampening.md §2.11, §3.6 and §7.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from dpworkbench.experiments.claims import Claims, at_least, at_most, band, between, claim_defaults, close, equals, not_comparable

from . import reference as ref
from .experiments import budget_gaps, gap_range_text, id3_gain, per_graph_gap_text, table1_column


@claim_defaults("paper", cause="open:an exact recomputation of a thesis worked example disagrees beyond the misprints spec §7 "
                                     "items 7–8 and §2.11 list (a bug here, or a misprint not listed yet)")
def fig02_fig03_fig09_fig11_fig15_worked_examples(claims: Claims, *, ebc_fig2: Sequence[float], ebc_fig2_without_ab: Sequence[float],
                                                   ebc_fig9c: Sequence[float], element_ls: np.ndarray, p_ld: Sequence[float],
                                                   p_em: Sequence[float], dampened_ex411: Sequence[float],
                                                   p_shifted: Sequence[float]) -> None:
    """The thesis' worked examples on its toy graphs (exact computation, no randomness).

    ``element_ls[v, t]`` is the brute-force element local sensitivity LS(G, t, v) on the Fig. 9c graph (nodes in
    :data:`~dpworkbench.dampening.worked_examples.NODES` order); ``p_ld`` / ``p_em`` / ``p_shifted`` the output laws of
    Examples 3.4.1, 3.6.1 and 4.2.1; ``dampened_ex411`` = (D(r1), D(r2)) of Example 4.1.1.

    References
    ----------
    de Farias 2021, Figs. 2, 9c, 11; Examples 2.4.1, 3.1.1, 3.4.1, 3.6.1, 4.1.1, 4.2.1; spec §2.11 (independent table).
    """
    ls = np.asarray(element_ls, float)
    ex = ref.WORKED_EXAMPLES
    claims.add("Fig. 2: EBC(a) = 7.5", paper=ex["fig2_ebc_a"], ours=float(ebc_fig2[0]), rule=close(ex["fig2_ebc_a"], atol=1e-12))
    pair = (float(ebc_fig2_without_ab[0]), float(ebc_fig2_without_ab[2]))
    claims.add("Fig. 2: removing ab gives EBC(a) = 15 and EBC(v_i) = 1", paper="15 / 1", ours=f"{pair[0]:g} / {pair[1]:g}",
               value=pair, rule=equals(ex["fig2_without_ab"]))
    claims.add("Fig. 9c: EBC(a) = EBC(b) = 6.5", paper=ex["fig9c_ebc_a"], ours=float(ebc_fig9c[0]), rule=close(ex["fig9c_ebc_a"], atol=1e-12))
    claims.add("Ex. 2.4.1: LS(G,0) = 3", paper=ex["ls_0"], ours=float(ls[:, 0].max()), rule=close(ex["ls_0"], atol=0))
    if ls.shape[1] > 1:
        claims.add("Ex. 2.4.1: LS(G,1) = 5", paper=ex["ls_1"], ours=float(ls[:, 1].max()), rule=close(ex["ls_1"], atol=0))
    v4 = ref.FIG9C_NODES.index("v4")
    claims.add("Ex. 3.1.1 / Fig. 11: LS(G,0,v4) = 2 (add the edge v0v4)", paper=ex["ls_0_v4"], ours=float(ls[v4, 0]),
               rule=close(ex["ls_0_v4"], atol=0))
    vi = tuple(float(x) for x in ls[2:, 0])
    claims.add("Ex. 4.2.1: LS(G,0,v_i) = 2 for all i (thesis)", paper=list(ex["ls_0_vi_thesis"]), ours=list(vi), value=vi,
               rule=equals(ex["ls_0_vi_thesis"]), cause="paper-error:spec §2.11 (brute force gives 1 for v2, v3)",
               note="thesis misprint expected to differ: brute force over all 28 edge toggles gives 1 for v2, v3 (both already adjacent "
                    "to a and b, so one toggle changes their EBC by at most 1); v0, v1, v4, v5 have 2 as printed (e.g. add v0v4)")
    claims.add("Ex. 4.2.1: LS(G,0,v_i) as recomputed by spec §2.11 (independent brute force)", paper=list(ex["ls_0_vi_spec"]),
               ours=list(vi), value=vi, rule=equals(ex["ls_0_vi_spec"]), source="spec")
    claims.add("Ex. 3.4.1: LD P[a] = 0.32", paper=0.32, ours=float(p_ld[0]), rule=close(0.32, atol=0.005))
    claims.add("Ex. 3.4.1: LD P[v_i] = 0.06", paper=0.06, ours=float(p_ld[2]), rule=close(0.06, atol=0.005))
    claims.add("Ex. 3.6.1: EM P[a] = 0.22", paper=0.22, ours=float(p_em[0]), rule=close(0.22, atol=0.005))
    claims.add("Ex. 3.6.1: EM P[v_i] = 0.09", paper=0.09, ours=float(p_em[2]), rule=close(0.09, atol=0.005))
    claims.add("Ex. 4.1.1: D(r1) = 2", paper=2, ours=float(dampened_ex411[0]), rule=close(2.0, atol=1e-12))
    claims.add("Ex. 4.1.1: D(r2) = 1 (inversion: u(r2) > u(r1) but D(r2) < D(r1))", paper=1, ours=float(dampened_ex411[1]),
               rule=close(1.0, atol=1e-12))
    claims.add("Ex. 4.2.1: shifted P[a] = 0.472 (thesis, inconsistent)", paper=ex["shifted_p_a_thesis"], ours=float(p_shifted[0]),
               rule=close(ex["shifted_p_a_thesis"], atol=0.005), cause="paper-error:spec §7 item 8 (Ex. 4.2.1 inconsistent)",
               note="thesis misprint expected to differ: its printed values (D(a) = 0.1, 'exp(0.1) = 0.44', P = 0.472 / 0.0046) are "
                    "internally inconsistent and its probabilities sum to 0.97 (spec §7 item 8)")
    claims.add("Ex. 4.2.1: shifted P[a] = 0.403 (spec §2.11 recomputation with the exact element-LS table)", paper=ex["shifted_p_a_spec"],
               ours=float(p_shifted[0]), rule=close(ex["shifted_p_a_spec"], atol=0.0005), source="spec")


@claim_defaults("check", cause="open:a property of D (Def. 3.3.1, Lemma 3.3.1) fails on the grid: a bug in the dampening "
                                     "function or in the shifted scores")
def fig12_fig13_fig14_dampening_function(claims: Claims, *, grid: Sequence[float], dampened: Sequence[float],
                                         dampened_negated: Sequence[float], dampened_ex411: Sequence[float],
                                         sld_scores_ex411: Sequence[float]) -> None:
    """Properties of D (Def. 3.3.1) on a grid and the inversion of Example 4.1.1.

    ``dampened`` = D(u) and ``dampened_negated`` = D(−u) on ``grid`` (increasing); ``dampened_ex411`` = (D(r1), D(r2))
    and ``sld_scores_ex411`` = u − S for (r1, r2).

    References
    ----------
    de Farias 2021, Def. 3.3.1 and Lemma 3.3.1 (D odd, continuous, strictly increasing), Example 4.1.1, Def. 4.2.1.
    """
    d = np.asarray(dampened, float)
    if np.any(np.diff(np.asarray(grid, float)) <= 0):
        raise ValueError("grid must be strictly increasing")
    asym = float(np.max(np.abs(np.asarray(dampened_negated, float) + d)))
    claims.add("D is odd: max |D(−u) + D(u)| over the grid (Def. 3.3.1)", paper=0, ours=asym, rule=at_most(1e-9))
    step = float(np.min(np.diff(d)))
    claims.add("D is strictly increasing: smallest step of D over the grid > 0 (Def. 3.3.1)", paper="> 0", ours=step,
               rule=at_least(0.0, strict=True))
    pair = (float(dampened_ex411[0]), float(dampened_ex411[1]))
    claims.add("Ex. 4.1.1 inversion: D(r1) = 2 > D(r2) = 1 although u(r1) < u(r2)", paper="D(r1)=2, D(r2)=1",
               ours=f"D(r1)={pair[0]:.2f}, D(r2)={pair[1]:.2f}", value=pair, rule=equals((2.0, 1.0)), source="paper")
    s = np.asarray(sld_scores_ex411, float)
    claims.add("SLD keeps the utility order on Ex. 4.1.1 (δ non-decreasing in u): (u − S)(r2) − (u − S)(r1) > 0",
               paper="SLD removes the inversion", ours=f"u−S: r1 {s[0]:.2f}, r2 {s[1]:.2f}", value=float(s[1] - s[0]),
               rule=at_least(0.0, strict=True), source="paper")


@claim_defaults("paper", cause="open:EBC and δ^EBC(G,0,v) rank this graph's nodes differently (the thesis gives no ρ)")
def fig16_ebc_correlation(claims: Claims, *, spearman_rho: float, overlap: pd.DataFrame, source: str) -> None:
    """Fig. 16: EBC and δ^EBC(G,0,v) are positively correlated; the top-k overlap of EBC and degree (diagnostic).

    References
    ----------
    de Farias 2021, §6.4, Fig. 16; spec §0.3 (the overlap diagnostic).
    """
    claims.add("EBC and δ^EBC(G,0,v) positively correlated (Spearman ρ > 0.5, our bar for 'positively correlated')",
               paper="positive correlation", ours=f"Spearman ρ = {spearman_rho:.3f} ({source})", value=float(spearman_rho),
               rule=at_least(0.5, strict=True),
               cause=f"stand-in:{source} graph (the thesis' graph is not available)" if source != "real" else "")
    last = overlap.iloc[-1]
    claims.add(f"top-{int(last.k)} by EBC vs top-{int(last.k)} by degree (diagnostic, not in the thesis)", paper="—", ours=int(last.overlap),
               rule=not_comparable("the thesis gives no overlap; a high overlap explains SLD's large advantage (spec §0.3)"),
               source="check", cause="open:no thesis value (a diagnostic of SLD's advantage, spec §0.3)")


@claim_defaults("paper", cause="paper-error:spec §7 item 13 (the thesis' Candidates δ is not admissible; Λ and n unstated, "
                                     "item 23)")
def fig17_median(claims: Claims, *, reductions: Mapping[str, Mapping[str, float]], source: str | Mapping[str, str],
                 spec_recomputation: pd.DataFrame | None = None, ranking: pd.DataFrame | None = None) -> None:
    """Fig. 17 and §5.3 on every DPBench histogram given: LD's mean error reduction over min(EM, PF) per dataset against
    the thesis' value (PATENT 18%, HEPTH 4% and max 12%, INCOME and "the other datasets" 0), two-sided, with the band
    the thesis' whole-percent rounding (±0.5 pp) plus 3 Monte-Carlo SEs of our estimate; the ordering of the three
    shown datasets; how LD and SLD rank against EM and PF across datasets (``ranking`` from
    :func:`~dpworkbench.dampening.experiments.median_ranking`); and, on real data, the spec's recomputation.

    ``reductions[name]`` = :func:`~dpworkbench.dampening.experiments.median_reduction` (``se_mean``/``se_max``
    default to 0: exact cells); ``source`` is one source for all datasets or one per dataset.

    References
    ----------
    de Farias 2021, §5.3–5.4, Fig. 17 (d–f); spec §3.6 (independent recomputation [D]).
    """
    src_of = (lambda name: source) if isinstance(source, str) else (lambda name: source[name])
    why = ("the thesis states neither Λ, n (subsampling?) nor the δ it used at t ≥ 1 (its Candidates δ is not admissible, "
           "spec §3.4); ours: Λ = 4095, corrected LS0 + admissible box bound, exact expected errors")

    def half_width(red, key="se_mean"):
        se = float(red.get(key, 0.0))
        return ref.MEDIAN_ROUNDING + 3 * se, se

    for name, red in reductions.items():
        atol, se = half_width(red)
        src = src_of(name)
        common = (f"{src} data; mean over the ε grid of 1 − LD/min(EM, PF); band ±{atol:.4f} = the thesis' whole-percent "
                  f"rounding (±0.5 pp) + 3 × Monte-Carlo SE ({se:.4f})")
        if name in ref.MEDIAN_REDUCTION_THESIS_SHOWN:
            paper = ref.MEDIAN_REDUCTION_THESIS_SHOWN[name]
            text = (f"{name}: LD's mean error reduction vs EM/PF = {paper:.0%}" if paper
                    else f"{name}: LD has the same accuracy as EM/PF (no mean reduction)")
        else:
            paper = ref.MEDIAN_REDUCTION_OTHERS
            text = f"{name}: like INCOME, LD has the same accuracy as EM/PF (§5.3: the datasets not presented)"
        c = claims.add(text, paper=paper, ours=red["mean"], rule=band(paper, rounding=ref.MEDIAN_ROUNDING, se=se), note=common)
        if c.verdict == "differs":
            c.note += f". Differs: {why}"
        if name == "HEPTH":
            atol, se = half_width(red, "se_max")
            c = claims.add("HEPTH: LD's largest error reduction vs EM/PF = 12%", paper=0.12, ours=red["max"],
                           rule=band(0.12, rounding=ref.MEDIAN_ROUNDING, se=se),
                           note=f"{src} data; max over the ε grid; band ±{atol:.4f} (rounding + 3 SE)")
            if c.verdict == "differs":
                c.note += f". Differs: {why}"
    if spec_recomputation is not None:
        for r in spec_recomputation.itertuples(index=False):
            em_ref, ld_ref = ref.MEDIAN_SPEC_RECOMPUTATION[(r.dataset, r.epsilon)]
            worst = max(abs(r.em / em_ref - 1), abs(r.ld / ld_ref - 1))
            claims.add(f"{r.dataset} ε={r.epsilon:g}: E|err| EM / LD (spec §3.6 recomputation, not the thesis): worst relative gap",
                       paper=f"{em_ref} / {ld_ref}", ours=f"{r.em:.0f} / {r.ld:.0f}", value=float(worst), rule=at_most(0.02),
                       note="cross-check of our exact computation against the spec author's independent script; pass when both are within 2%",
                       source="spec", cause="open:our exact expected errors differ from the spec's script")
    mean = {k: v["mean"] for k, v in reductions.items()}
    if {"PATENT", "HEPTH", "INCOME"} <= set(mean):
        shown = {k: mean[k] for k in ("PATENT", "HEPTH", "INCOME")}
        claims.add("ordering PATENT > HEPTH > INCOME (smallest of the two gaps in mean reduction > 0)",
                   paper="PATENT > HEPTH > INCOME", ours=" > ".join(sorted(shown, key=lambda k: -shown[k])),
                   value=float(min(mean["PATENT"] - mean["HEPTH"], mean["HEPTH"] - mean["INCOME"])),
                   rule=at_least(0.0, strict=True))
    if ranking is not None and len(ranking):
        worst = ranking.loc[ranking["ratio_LD"].idxmax()]
        claims.add(f"LD is never worse than EM/PF on any of the {len(ranking)} DPBench datasets (§5.4: it outperforms them "
                   "where LS < GS, the same accuracy elsewhere): largest mean err_LD/min(EM, PF) − 1",
                   paper=0.0, ours=f"{worst['ratio_LD'] - 1:+.4f} ({worst['dataset']})",
                   value=float(worst["ratio_LD"] - 1), rule=at_most(ref.MEDIAN_ROUNDING),
                   note="pass when LD's mean error ratio exceeds 1 by at most the thesis' rounding (0.5 pp) on every dataset")
        gains = ranking.loc[ranking["reduction_LD"] > ref.MEDIAN_ROUNDING, "dataset"].tolist()
        claims.add("datasets where LD gains over EM/PF (mean reduction > 0.5 pp)", paper="PATENT, HEPTH (the thesis reports "
                   "two; 'many' of the others have LS near GS)", ours=f"{len(gains)}/{len(ranking)}: {', '.join(gains)}",
                   rule=not_comparable("the thesis does not say how many of the datasets it tested gain, nor which"),
                   source="check", cause="open:no thesis value (which datasets gain)")
        firsts = ranking["best"].value_counts().to_dict()
        claims.add("which mechanism ranks first (lowest mean error ratio) per dataset — SLD for the median is an extension",
                   paper="EM/PF/LD only (no SLD median in the thesis)",
                   ours=", ".join(f"{m} {firsts.get(m, 0)}" for m in ("EM", "PF", "LD", "SLD")),
                   rule=not_comparable("the thesis runs no SLD median selection and gives no per-dataset ranking"),
                   source="check", cause="open:no thesis value (SLD median is our extension)")


#: SLDPrivTopk's accuracy ceiling, measured (issue 24): as ε → ∞ SLD returns the top-k of its utility EBC(v) − S_v (spec
#: §4.4's closed form: EM on φ(d_v) + EBC(v)/ΔEBC, a degree-dominated score), not the top-k of EBC. Its overlap with the true
#: top-k is the plateau: real Enron k = 5/10/20: 1.00 / 0.90 / 0.95, real GitHub 1.00 / 1.00 / 0.95, synthetic DBLP (60k) 1.00
#: at every k — the 0.90–0.95 seen up to ε = 10⁴ is SLD's limit, not noise or a sampler bug
FIG20_SLD_CEILING = ("SLD's limit as ε → ∞ is the top-k of EBC − S_v (spec §4.4), whose overlap with the top-k by EBC is 0.90 / 0.95 "
                     "on real Enron k = 10 / 20 and 0.95 on real GitHub k = 20")


@claim_defaults("paper", cause="open:" + FIG20_SLD_CEILING + ", so at accuracy 0.9 the ε SLD needs is set by that ceiling")
def fig20_privtopk(claims: Claims, results: pd.DataFrame, budgets: pd.DataFrame, sources: Mapping[str, str], *,
                   grid_step_orders: float, ceiling: pd.DataFrame | None = None) -> None:
    """Fig. 20: budget gaps (orders of magnitude of ε to reach accuracy 0.9) of SLD vs EM and PF, and LD's inversion.

    ``results`` = :func:`~dpworkbench.dampening.experiments.privtopk_curves` rows with a ``graph`` column, ``budgets``
    = :func:`~dpworkbench.dampening.experiments.budget_to_reach` rows with a ``graph`` column; ``grid_step_orders`` =
    the ε grid's step in orders of magnitude (a gap is measured to ± one step); ``ceiling`` = rows (graph, k, ceiling)
    of :func:`~dpworkbench.dampening.ebc.sld_limit_accuracy`, SLD's accuracy as ε → ∞ (issue 24: the plateau it shows).

    The thesis' value is a range ("3–4 orders" vs EM, "2–4 orders" vs PF); the verdict is computed against that range,
    widened by one grid step on each side (the resolution of the measurement). Gaps that the baseline never closes on
    the grid (NaN) are left out of the median and counted in the note.

    References
    ----------
    de Farias 2021, §6.5, Fig. 20 (d–f) and its text.
    """
    gaps = budget_gaps(budgets)
    for base, (lo, hi), text in (("EM", ref.FIG20_ORDERS_EM, "SLDPrivTopk needs 3–4 orders of magnitude less ε than EMPrivTopk"),
                                 ("PF", ref.FIG20_ORDERS_PF, "… and 2–4 orders less than PFPrivTopk")):
        gap = gaps[base]
        med = float(np.nanmedian(gap)) if gap.notna().any() else float("nan")
        # the same median over the real graphs only: when it lies in the range and the all-graph one does not, the
        # synthetic stand-ins are what moved it (their gap is set by their own max degree, hence EM's ΔEBC)
        real = gap[[sources.get(gname) == "real" for gname in gap.index.get_level_values(0)]]
        med_real = float(np.nanmedian(real)) if real.notna().any() else float("nan")
        synth = sorted({str(gname) for gname in gap.index.get_level_values(0) if sources.get(gname) != "real"})
        widened = (lo - grid_step_orders, hi + grid_step_orders)
        by_stand_in = bool(synth) and not (widened[0] <= med <= widened[1]) and widened[0] <= med_real <= widened[1]
        claims.add(f"{text} (median gap over graphs × k)", paper=f"{lo:g}–{hi:g} orders",
                   ours=f"median {med:.1f} orders; {gap_range_text(gap)}", value=med,
                   rule=between(*widened),
                   cause=(f"stand-in:{', '.join(synth)} (synthetic; over the real graphs alone the median gap is {med_real:.1f} "
                          f"orders, inside the range)") if by_stand_in else "",
                   note=(f"budget to reach accuracy {ref.FIG20_LEVEL} on the ε grid ({grid_step_orders:g}-order steps, so each gap is "
                         f"± {grid_step_orders:g}); pass when the median gap lies in the thesis' {lo:g}–{hi:g} orders widened by one step. "
                         "Per graph — " + per_graph_gap_text(gap, sources)
                         + ". The synthetic DBLP-like stand-in (no real copy; small max degree, so EM's ΔEBC is small) shows the smallest gap"))
    hi_eps = results[results.epsilon == results.epsilon.max()]
    if ceiling is not None and len(ceiling):
        at_max = hi_eps[hi_eps.method == "SLD"].groupby(["graph", "k"]).accuracy.mean()
        cm = ceiling.set_index(["graph", "k"])["ceiling"]
        diff = (at_max.reindex(cm.index) - cm).abs()
        claims.add("SLDPrivTopk's accuracy at the largest ε is its ε → ∞ ceiling, the top-k of φ(d_v) + EBC(v)/ΔEBC against "
                   "the top-k by EBC (max |difference| over graphs × k)", paper="SLD's limit (spec §4.4 closed form)",
                   ours=float(diff.max()), rule=at_most(0.05), source="check",
                   cause="open:SLD at the largest ε is not at its closed-form limit (the sampler or the ε grid)",
                   note=f"largest ε {results.epsilon.max():g}; ceiling < 1 (EM's is 1): "
                        + (", ".join(f"{g} k={k} {v:.2f}" for (g, k), v in cm.items() if v < 1) or "none"))
    ld, sld = float(hi_eps[hi_eps.method == "LD"].accuracy.mean()), float(hi_eps[hi_eps.method == "SLD"].accuracy.mean())
    claims.add("LDPrivTopk suffers from inversion, SLD fixes it (SLD − LD mean accuracy at the largest ε > 0)", paper="LD < SLD",
               ours=f"mean acc at max ε: LD {ld:.2f}, SLD {sld:.2f}", value=sld - ld, rule=at_least(0.0, strict=True))


@claim_defaults("paper", cause="paper-error:spec §7 items 23–24 (class attribute, bins and N unstated; the gains differ "
                                     "across the thesis: 8 %/5 %/12 %)")
def fig23_fig24_fig25_id3(claims: Claims, results: Mapping[str, pd.DataFrame], *, sources: Mapping[str, str],
                          majority: Mapping[str, float], folds: int, repetitions: int, max_rows: int | None,
                          n_rows: Mapping[str, int] | None = None) -> None:
    """Figs. 23–25: the largest accuracy gain of LocalDiffPID3 / ShiftedLocalDiffPID3 over GlobalDiffPID3, and ACS' inversion.

    ``results[name]`` = :func:`~dpworkbench.dampening.experiments.id3_curves` for ``nltcs``, ``acs`` and ``adult``.

    "Up to X%" is a number the thesis prints (whole percent): our largest gain over the grid is judged two-sided with
    :func:`~dpworkbench.experiments.claims.band` — the rounding (±0.5 point) plus 3 Monte-Carlo SEs of our gain at the
    grid point where it is largest (issue 24; it was one-sided, "≥ X − 1 point"). ``n_rows[name]`` is the number of
    rows the cross-validation tested (every row once): the SE is that of a paired difference of two accuracies over
    them, √(a₁(1−a₁) + a₂(1−a₂)) / √n — the test-set part of the noise, a lower bound on the whole when the tree's
    DP noise is drawn once per fold (the band can be too narrow, never too wide). Without ``n_rows`` the SE is 0.

    References
    ----------
    de Farias 2021, Ch. 7, Figs. 23 (NLTCS), 24 (ACS), 25 (Adult).
    """
    common = ("The size of the gap is set by where EM's selection becomes sharp: ε per query = B/(2(d+1)) against ΔIG = log2(N+1)+1.44, "
              "while LD/SLD divide by LS^IG (at t = 0: 1.6–4 bits on NLTCS, 1.8–15.7 on ACS, against ΔIG ≈ 16–17), so the largest gap "
              "sits at the B where EM is still nearly uniform and depends on the ε grid, the training size N and the data version")
    for name, (txt, val, meth) in ref.ID3_GAINS.items():
        df = results[name]
        g = id3_gain(df, meth)
        pv = df.pivot_table(index=["depth", "epsilon"], columns="method", values="accuracy")
        at = (pv[meth] - pv["Global"]).idxmax()
        wins = int((pv[meth] >= pv["Global"]).sum())
        a1, a0 = float(pv.loc[at, meth]), float(pv.loc[at, "Global"])
        n = int(n_rows[name]) if n_rows and name in n_rows else 0
        se = float(np.sqrt((a1 * (1 - a1) + a0 * (1 - a0)) / n)) if n > 0 else 0.0
        note = (f"two-sided: the thesis' whole-percent rounding ±0.005 + 3 × SE {se:.4f} (test-set SE over {n or '?'} rows, a lower "
                f"bound); {sources[name]} data, max gain over the (depth, ε) grid, "
                f"at depth {at[0]}, B = {at[1]:g}: {meth} {pv.loc[at, meth]:.3f} vs Global {pv.loc[at, 'Global']:.3f} "
                f"(majority class {majority[name]:.3f}); {meth} ≥ Global at {wins} of {len(pv)} grid points; {folds}-fold CV × "
                f"{repetitions} repetition(s), {'all rows' if max_rows is None else f'rows ≤ {max_rows}'}")
        if name == "nltcs":
            note += ("; " + common + ". The class attribute (column 13) is not stated in the thesis (taken from the author's later code); "
                     "with another class column the gap differs")
        elif name == "acs":
            note += "; " + common + "; the class attribute (column 10) is from the author's later code, not the thesis"
        claims.add(f"{name.upper()}: {txt}", paper=val, ours=g, rule=band(val, rounding=0.005, se=se), note=note,
                   cause="" if sources[name] == "real" else f"stand-in:{name} (synthetic)")
    acs = results["acs"]
    d_min, e_max = acs.depth.min(), acs.epsilon.max()
    d2 = acs[(acs.depth == d_min) & (acs.epsilon == e_max)].set_index("method").accuracy
    claims.add(f"ACS depth {d_min}: inversion — LocalDiffPID3 below GlobalDiffPID3 at large B (Global − Local > 0)", paper="Local < Global",
               ours=f"Local {d2['Local']:.3f}, Shifted {d2['Shifted']:.3f}, Global {d2['Global']:.3f} at B = {e_max:g}",
               value=float(d2["Global"] - d2["Local"]), rule=at_least(0.0, strict=True),
               note="see the root ranking table (IG order vs D order)")


#: why our Table 1 cells differ from the thesis' beyond rounding + 3 SE on a real graph: the table's settings are unstated
TAB01_UNSTATED = ("paper-error:spec §7 item 23 (Table 1's settings are unstated: averaging over k presumed, BFS sample size, "
                  "the public degree bound)")
TAB01_PSQL_CAUSE = ("paper-error:spec §7 item 23 (no PSQL sensitivity, synopsis or p̂/q̂ settings; the thesis' 0.01–0.02 at "
                    "B ≤ 0.5 is below random guessing)")


def _per_b_se(frame: pd.DataFrame | None, name: str, budgets) -> np.ndarray:
    """The Monte-Carlo SE per B of graph ``name`` (parent-graph degree bound) from a long table with ``graph, bound, B,
    se``; 0 where not given (then the band is the printed rounding alone, the narrowest: a missing SE cannot widen it)."""
    if frame is None or "se" not in frame:
        return np.zeros(len(budgets))
    sel = frame[(frame["graph"] == name) & (frame["bound"] == "parent")].set_index("B")["se"]
    return sel.reindex(list(budgets)).astype(float).fillna(0.0).to_numpy()


@claim_defaults("paper", cause="open:PTK does not beat PSQL on the same samples and B (both run here)")
def tab01_privtopk_vs_privatesql(claims: Claims, table: pd.DataFrame, sources: Mapping[str, str], *, samples: int, runs: int,
                                 psql: pd.DataFrame | None = None, ptk: pd.DataFrame | None = None) -> None:
    """Table 1, cell by cell (issue 24: a printed number is judged two-sided): our SLDPrivTopk accuracy at each B against
    the thesis' PTK column and our PrivateSQL (run, Appendix B) against its PSQL column, each with
    :func:`~dpworkbench.experiments.claims.band` — the thesis' two-decimal rounding (±0.005) plus 3 Monte-Carlo SEs of
    our cell; and PTK vs PSQL, both ours, on the same samples and B.

    ``table`` = :func:`~dpworkbench.dampening.experiments.table1`; ``psql`` =
    :func:`~dpworkbench.dampening.experiments.privatesql_results` and ``ptk`` the PTK rows of
    :func:`~dpworkbench.dampening.experiments.table1_ptk` with a ``graph`` column (their ``se``: over BFS samples for
    PTK, over samples × k × runs for PSQL; without them the SE is taken as 0).

    References
    ----------
    de Farias 2021, §6.5, §6.5.1, Table 1, Appendix B; spec §7 item 23.
    """
    from .experiments import table1_psql_column

    paper = ref.TABLE1_PAPER
    budgets = paper["B"].to_numpy(float)
    for name, source in sources.items():
        ours = table[table1_column(name, source)].to_numpy(float)
        own = table[table1_column(name, source, bound="sample")].to_numpy(float)
        thesis = paper[f"{name} PTK"].to_numpy(float)
        se = _per_b_se(ptk, name, budgets)
        stand_in = source == "synthetic"
        for b, o, t, s, o_s in zip(budgets, ours, thesis, se, own):
            claims.add(f"Table 1 {name}: PTK accuracy at B = {b:g}", paper=round(float(t), 2), ours=round(float(o), 3), value=float(o),
                       rule=band(f"{t:.2f}", se=float(s)),
                       cause=f"stand-in:{name.lower()} (synthetic: no real copy; its BFS samples differ in structure)" if stand_in
                       else TAB01_UNSTATED,
                       note=(f"two-sided: ±0.005 (two-decimal rounding) + 3 × SE {s:.3f} over {samples} BFS samples × {runs} runs "
                             f"(SE over samples); {source} graph, parent-graph degree bound; with each sample's own Δ: {o_s:.3f}"))
        col = table1_psql_column(name)
        if col not in table:
            continue
        mine = table[col].to_numpy(float)
        thesis_psql = paper[f"{name} PSQL"].to_numpy(float)
        se_psql = _per_b_se(psql, name, budgets)
        for b, m, t, s in zip(budgets, mine, thesis_psql, se_psql):
            claims.add(f"Table 1 {name}: PrivateSQL accuracy at B = {b:g}, run (Appendix B views, B/n each) vs the thesis' PSQL",
                       paper=round(float(t), 2), ours=round(float(m), 3), value=float(m), rule=band(f"{t:.2f}", se=float(s)),
                       cause=TAB01_PSQL_CAUSE,
                       note=(f"two-sided: ±0.005 (two-decimal rounding) + 3 × SE {s:.3f}; {source} graph, same {samples} BFS samples × "
                             f"{runs} runs and B as PTK; per-view L1 sensitivity from our proved bound (135 at Δ = 10 against "
                             "PrivateSQL's reported 1448), Δ = min(Δ(G), |S| − 1). Top-k from B/n per view stays near random "
                             "guessing (mean over k = 1..3 of k/|S| = 0.04 on 50 nodes); the thesis prints 0.01–0.02 at B ≤ 0.5 "
                             "(below random) and up to 0.21 at B = 10 (the Laplace scale per count is GS·|S|/B ≥ 675 there)"))
        margin = float(np.min(ours - mine))
        claims.add(f"Table 1 {name}: PTK beats PSQL at every B (smallest PTK − PSQL > 0, both run here)", paper="PTK > PSQL",
                   ours=f"smallest margin {margin:+.2f}", value=margin, rule=at_least(0.0, strict=True),
                   note="both ours, on the same BFS samples, B and degree bound")


@claim_defaults("check", cause="open:an exact teaching computation on the Fig. 9c graph contradicts Example 4.2.1's ordering "
                                   "or Thms 3.5.1 / 4.3.1 (a bug in a mechanism or in the δ)")
def learn_local_dampening(claims: Claims, probabilities: pd.DataFrame, privacy_loss: pd.DataFrame | None = None) -> None:
    """Teaching notebook: on the Fig. 9c graph SLD puts more mass on the top node than EM (Example 4.2.1's ordering),
    and (``privacy_loss`` given) every mechanism with the admissible box δ keeps its privacy loss ≤ ε on the tiny universe.

    ``probabilities`` = :func:`~dpworkbench.dampening.teaching.teaching_probabilities` on ``"fig9c"``;
    ``privacy_loss`` = :func:`~dpworkbench.dampening.teaching.privacy_loss_check` (exact enumeration of neighbours).

    References
    ----------
    de Farias 2021, Examples 3.6.1 and 4.2.1; Thm 3.5.1 (LD) and Thm 4.3.1 (SLD) for the privacy check.
    """
    top = probabilities[probabilities.node == "a"].set_index("method").probability
    claims.add("on Fig. 9c, SLD puts more mass on the top node than EM (P_SLD[a] − P_EM[a] > 0)", paper="SLD > EM",
               ours=f"SLD {top['SLD']:.3f}, EM {top['EM']:.3f}", value=float(top["SLD"] - top["EM"]), rule=at_least(0.0, strict=True))
    if privacy_loss is not None:
        ratio = privacy_loss["max privacy loss over neighbours"] / privacy_loss["ε"]
        worst = privacy_loss.loc[ratio.idxmax()]
        claims.add("EM, PF, LD and SLD (box δ) are ε-DP on a tiny universe: largest privacy loss / ε over all neighbours ≤ 1",
                   paper="≤ 1 (Thms 3.5.1, 4.3.1)", ours=f"{ratio.max():.3f} ({worst.mechanism})", value=float(ratio.max()),
                   rule=at_most(1.0 + 1e-9), note="exact enumeration of every substitution neighbour, independent of the proofs")


@claim_defaults("check", cause="open:an exact selection law contradicts §4.4 inside its stated conditions (a bug in SLD, in the δ, "
                                   "or in the dominance test)")
def sec44_accuracy(claims: Claims, instances: pd.DataFrame, minimum: pd.DataFrame) -> None:
    """§4.4's accuracy statements as claims that can fail, from exact selection laws
    (:func:`~dpworkbench.dampening.accuracy.median_instances`, ``ebc_instances``) and the brute-force check of
    Lemma 4.4.2 (:func:`~dpworkbench.dampening.accuracy.minimum_admissible_gaps`).

    A gap is how much worse the first law is: max over θ of the tail difference P[E ≥ θ], or the relative difference of
    the expected errors; "never worse" is a gap ≤ 1e-9 (float round-off).

    References
    ----------
    de Farias 2021, §4.4: Def. 4.4.1, Lemma 4.4.1, Corollary 4.4.1, Lemma 4.4.2, §4.4.3; spec §2.9, §7 item 9.
    """
    from .accuracy import TOL

    def worst(df):
        return float(max(df["tail_gap"].max(), df["mean_gap"].max()))

    def where(df):
        return ", ".join(sorted(set(df.loc[(df["tail_gap"] > TOL) | (df["mean_gap"] > TOL), "instance"]))) or "none"

    for kind, df in instances.groupby("utility", sort=False):
        n_eps = df["epsilon"].nunique()
        cor = df[df["statement"].str.startswith("Cor. 4.4.1") & df["stated_condition"]]
        mono = sorted(set(cor.loc[cor["statement"] == "Cor. 4.4.1: SLD(δ) vs EM", "instance"]))
        claims.add(f"Cor. 4.4.1 ({kind}): with a stable δ, SLD is never worse than EM (every tail P[E ≥ θ] and the mean)",
                   paper="never worse (gap ≤ 0)", ours=f"worst gap {worst(cor):.2e} over {len(cor)} instance×ε",
                   value=worst(cor), rule=at_most(TOL),
                   note=f"exact laws over {n_eps} ε; stable δ's: the flat max_r δ (Lemma 3.2.3) on every instance, and "
                        f"our admissible δ itself where it is monotone in u ({', '.join(mono) or 'no instance'})")
        lem = df[df["statement"].str.startswith("Lemma 4.4.1")]
        claims.add(f"Lemma 4.4.1 ({kind}): a dominating δ = δ̄ + α (α ≥ 0, ordered like u) is never worse than δ̄",
                   paper="never worse (gap ≤ 0)", ours=f"worst gap {worst(lem):.2e} over {len(lem)} instance×ε",
                   value=worst(lem), rule=at_most(TOL),
                   note="δ̄ = our admissible δ, α(t, r) = Δu/2 · (u_r − min u)/(max u − min u) at t = 0, 1 — the "
                        "comparison is of the two laws at x (admissibility of δ is not used by the lemma's conclusion)")
        ctrl = df[df["statement"].str.startswith("control")]
        claims.add(f"check ({kind}): the dominance test sees a worse law when α is ordered against u",
                   paper="gap > 0", ours=f"largest tail gap {ctrl['tail_gap'].max():.3f}",
                   value=float(ctrl["tail_gap"].max()), rule=at_least(0.01),
                   note="control, not in the thesis: α reversed must make SLD worse, else the test above could not fail")
        weak = df[(df["statement"] == "Cor. 4.4.1: SLD(δ) vs EM") & ~df["stated_condition"]]
        if len(weak):
            claims.add(f"§4.4.3 ({kind}): with a non-monotone δ ('weak monotonicity') SLD still has no larger expected "
                       "error than EM", paper="SLD outperforms EM in the experiments",
                       ours=f"worst relative gap {weak['mean_gap'].max():+.2e} ({len(weak)} instance×ε)",
                       value=float(weak["mean_gap"].max()), rule=at_most(TOL), source="paper",
                       cause="paper-error:spec §7 items 9–10 (SLD beats EM only when δ − δ̄ is ordered like u)",
                       note=f"exact expected errors; worse than EM on: {', '.join(sorted(set(weak.loc[weak['mean_gap'] > TOL, 'instance']))) or 'none'}")
            claims.add(f"§4.4.3 ({kind}): with a non-monotone δ SLD's error tails are never above EM's (Cor. 4.4.1's "
                       "first statement, outside its conditions)", paper="never worse (gap ≤ 0)",
                       ours=f"worst tail gap {weak['tail_gap'].max():.2e}", value=float(weak["tail_gap"].max()),
                       rule=at_most(TOL), cause="paper-error:spec §7 items 9–10 (outside Cor. 4.4.1's conditions)",
                       note=f"exact tails; above EM on: {where(weak[['instance', 'tail_gap']].assign(mean_gap=0.0))}")
    claims.add("Lemma 4.4.2: the element local sensitivity is below every admissible δ (brute force, tiny inputs)",
               paper="LS(x,t,r) ≤ δ(x,t,r)", ours=f"max LS − δ = {minimum['gap'].max():g} over {len(minimum)} cases",
               value=float(minimum["gap"].max()), rule=at_most(0.0),
               note="admissible δ's: " + ", ".join(sorted(set(minimum["delta"]))) + "; exact LS by enumerating the t-ball")
