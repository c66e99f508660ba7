"""The PrivateClean notebooks' claims: one function per notebook, each turning the values the notebook computed
(through package functions) into rows of a :class:`~dpworkbench.experiments.claims.Claims` table.

Every verdict comes from a rule (:func:`~dpworkbench.experiments.claims.close`, ``at_least``, ``at_most``, ``between``,
``not_comparable``) applied to a number, so every claim can come out "differs" (``tests/test_claims_flip.py``).
Where the workbench's reading of a worded claim needs a bar, the bar and the paper's words are both in the claim;
the paper's numbers are in :mod:`dpworkbench.privateclean.reference`.

References
----------
Krishnan et al., "PrivateClean: Data Cleaning and Differential Privacy", SIGMOD 2016 (seed 002): Figs. 1–11 (§8),
Lemma 1, Theorem 2 and Example 3 (§4), Example 4 (§5.4), Appendix E; spec /work/shared/spec/privateclean.md §5–7.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from dpworkbench.experiments.claims import Claims, at_least, at_most, between, claim_defaults, close, not_comparable
from dpworkbench.experiments.metrics import absolute_error

from . import reference as ref
from .experiments import crossover, paired_difference, slope, value, worst_ratio


def coverage_floor(reps: int, nominal: float = ref.NOMINAL_COVERAGE, k: float = 3.0) -> float:
    """The lowest empirical coverage that still agrees with ``nominal`` over ``reps`` releases: nominal − k·SE,
    SE = √(nominal(1 − nominal)/reps) (Monte-Carlo error of a proportion)."""
    return nominal - k * math.sqrt(nominal * (1 - nominal) / reps)


def _kruskal_p(df: pd.DataFrame, agg: str, method: str, x: str) -> float:
    """p-value of the Kruskal–Wallis test that ``method``'s per-instance relative error of ``agg`` has the same
    distribution at every ``x`` (rank-based: the errors are heavy-tailed, see spec §7 item 18)."""
    from scipy.stats import kruskal

    d = df[(df["agg"] == agg) & (df["method"] == method)]
    groups = [g["rel_error"].to_numpy(dtype=float) for _, g in d.groupby(x)]
    groups = [g[np.isfinite(g)] for g in groups]
    if len(groups) < 2 or any(len(g) < 2 for g in groups):
        return float("nan")
    return float(kruskal(*groups).pvalue)


#: why a comparison of mean relative errors can come out otherwise than the paper's figure: its query and averaging are
#: unspecified and the mean of relative errors is heavy-tailed when true counts are small (spec §7 item 18)
MEAN_ERROR_CAUSE = ("paper-error:spec §7 item 18 (the 'randomly selected query' and the averaging of relative errors are "
                    "unspecified; the mean of relative errors is heavy-tailed at small true counts)")


@claim_defaults("paper", cause="open:PrivateClean's count on the running example is not less biased than Direct's (a bug in "
                                "the estimator, spec §3.5)")
def fig01_running_example(claims: Claims, mc: pd.DataFrame, reports: pd.DataFrame, *, reps: int) -> None:
    """Fig. 1: the running example. ``mc`` = :func:`~dpworkbench.privateclean.teaching.fig01_monte_carlo`,
    ``reports`` = :func:`~dpworkbench.privateclean.teaching.report_frequencies` (GRR run on one student many times)."""
    def row(m: str, a: str) -> pd.Series:
        return mc[(mc.major == m) & (mc["agg"] == a)].iloc[0]

    for m, pv in ref.FIG1_AVG.items():
        r = row(m, "avg")
        claims.add(f"Fig. 1(d): AVG satisfaction {m} ≈ {pv} (illustrative)", paper=pv, ours=round(r.truth + r["privateclean bias"], 2),
                   rule=not_comparable(f"the paper's table is illustrative; ours = mean PrivateClean AVG over {reps} releases of "
                                       f"our synthetic table, whose truth on C(R) is {r.truth:.2f}"),
                   cause="stand-in:our synthetic running-example table (the paper's Fig. 1 table is illustrative)")
    bias_d = max(abs(row(m, "count")["direct bias"]) for m in mc.major.unique())
    bias_pc = max(abs(row(m, "count")["privateclean bias"]) for m in mc.major.unique())
    claims.add("PrivateClean's count is unbiased after cleaning while Direct is biased (max |bias| over majors: Direct − PC)",
               paper="PC unbiased", ours=f"Direct {bias_d:.2f} vs PC {bias_pc:.2f} rows", value=bias_d - bias_pc,
               rule=at_least(0.0, strict=True),
               note="pass when Direct's max |bias| exceeds PC's; at S = 100 the variance dominates: PC's mean |error| is not "
                    "always below Direct's (see table)")
    other = reports[~reports["own"]]
    expected = float(other["GRR probability"].iloc[0])
    draws = int(reports["draws"].iloc[0])
    se = math.sqrt(expected * (1 - expected) / draws)
    lowest = float(other["observed frequency"].min())
    claims.add("Fig. 1(b): plausible deniability — every other major is reported for a student with probability p/N "
               "(lowest observed frequency over the other majors)", paper=round(expected, 4), ours=round(lowest, 4), value=lowest,
               rule=close(expected, atol=4 * se), source="check", cause=f"noise:SE {se:.4f} of the observed frequency",
               note=f"{draws} GRR releases of one student's record; pass when within 4 SE ({4 * se:.4f}) of p/N")
    cov = float(mc["PC 95% CI coverage"].min())
    floor = coverage_floor(reps)
    claims.add("corrected 95% intervals cover the truth (min over majors and aggregates)", paper=ref.NOMINAL_COVERAGE,
               ours=round(cov, 3), value=cov, rule=at_least(floor), source="spec",
               note=f"pass when ≥ 0.95 − 3 Monte-Carlo SE over {reps} releases = {floor:.3f}; per-row CLT / delta method "
                    "(spec §3.6–3.7)")


@claim_defaults("paper", cause=MEAN_ERROR_CAUSE)
def fig02_privacy(claims: Claims, tab: pd.DataFrame, tab_b: pd.DataFrame, df_b: pd.DataFrame) -> None:
    """Fig. 2: error vs p (``tab``) and vs b (``tab_b``, per-instance ``df_b``)."""
    top_p = float(tab["p"].max())
    ratio = value(tab, "count", "direct", "p", top_p) / value(tab, "count", "privateclean", "p", top_p)
    claims.add(f"Fig. 2a: at high p PrivateClean has nearly 5x lower count error than Direct (p={top_p:g})",
               paper=ref.FIG2_COUNT_ERROR_RATIO, ours=round(ratio, 2), value=ratio,
               rule=close(ref.FIG2_COUNT_ERROR_RATIO, rtol=ref.FIG2_NEARLY),
               note="'nearly 5x' read as within ±20 % of 5; mean relative error (spec §6.4 [ours] oracle ≈4x)")
    lin = slope(tab, "count", "direct", "p")
    claims.add("Fig. 2a: Direct count error grows ~linearly with p", paper="increasing", ours=f"slope {lin:.2f}/unit p", value=lin,
               rule=at_least(0.0, strict=True))
    w = worst_ratio(tab, "p")
    claims.add("Fig. 2: PrivateClean at least as accurate as Direct at every p (no data errors; worst PC/Direct error ratio)",
               paper="≤ 1", ours=round(w, 3), value=w, rule=at_most(1.0))
    c = tab_b[(tab_b["agg"] == "count") & (tab_b["method"] == "privateclean")]["mean"]
    pval = _kruskal_p(df_b, "count", "privateclean", "b")
    claims.add("Fig. 2c: count error does not depend on b (Kruskal–Wallis p-value over b of PrivateClean's count errors)",
               paper="flat", ours=f"p = {pval:.3f} (spread of the means {float(c.max() - c.min()):.3f})", value=pval,
               rule=at_least(0.01),
               note="pass when the test does not reject 'same error distribution at every b' at the 1 % level. The count "
                    "ignores the numeric column, and each b draws its own instances (per-cell seed streams), so the means "
                    "differ by sampling noise only; they are heavy-tailed (small true counts), which is why the former bar "
                    "on the spread of the means (0.35·mean + 0.02) flipped when the instances were redrawn")
    b_lo, b_hi = tab_b["b"].min(), tab_b["b"].max()
    g_lo = value(tab_b, "sum", "direct", "b", b_lo) - value(tab_b, "sum", "privateclean", "b", b_lo)
    g_hi = value(tab_b, "sum", "direct", "b", b_hi) - value(tab_b, "sum", "privateclean", "b", b_hi)
    claims.add("Fig. 2d: PrivateClean's sum advantage shrinks as b grows (gap at the largest b − gap at the smallest)",
               paper="gap shrinks", ours=f"gap {g_lo:.2f} → {g_hi:.2f}", value=g_hi - g_lo, rule=at_most(0.0, strict=True))


@claim_defaults("paper", cause=MEAN_ERROR_CAUSE)
def fig03_selectivity(claims: Claims, tab: pd.DataFrame) -> None:
    """Fig. 3: error vs selectivity l."""
    w = worst_ratio(tab, "l")
    claims.add("Fig. 3: PrivateClean more accurate than Direct at every selectivity (worst PC/Direct error ratio)", paper="≤ 1",
               ours=round(w, 3), value=w, rule=at_most(1.0))
    lo, hi = tab["l"].min(), tab["l"].max()
    g = [value(tab, "count", "direct", "l", v) - value(tab, "count", "privateclean", "l", v) for v in (lo, hi)]
    claims.add("Fig. 3: the gap shrinks at higher selectivity (count gap at the largest l − at the smallest)", paper="shrinks",
               ours=f"{g[0]:.3f} → {g[1]:.3f}", value=g[1] - g[0], rule=at_most(0.0, strict=True))


@claim_defaults("paper", cause=MEAN_ERROR_CAUSE)
def fig04_skew(claims: Claims, tab: pd.DataFrame) -> None:
    """Fig. 4: error vs Zipf skew z."""
    z_lo, z_hi = tab["z"].min(), tab["z"].max()
    d0, p0 = value(tab, "count", "direct", "z", z_lo), value(tab, "count", "privateclean", "z", z_lo)
    rel = abs(d0 - p0) / max(d0, p0)
    claims.add(f"Fig. 4: no count benefit under a uniform distribution (z={z_lo:g}; |Direct − PC| / max)", paper="PC ≈ Direct",
               ours=f"Direct {d0:.3f} vs PC {p0:.3f}", value=rel, rule=at_most(0.5),
               note="pass when the two mean errors differ by at most half the larger one")
    g_hi = value(tab, "count", "direct", "z", z_hi) - value(tab, "count", "privateclean", "z", z_hi)
    claims.add("Fig. 4: PrivateClean increasingly better as skew grows (count gap at the largest z − at z = 0)", paper="gap grows",
               ours=f"gap z={z_lo:g} {d0 - p0:.3f} → z={z_hi:g} {g_hi:.3f}", value=g_hi - (d0 - p0), rule=at_least(0.0, strict=True))


@claim_defaults("paper", cause="paper-error:spec §7 item 19 (the error-rate generator is under-specified; Direct's rising "
                                     "trend is not reproduced by any literal reading)")
def fig05_error_rate(claims: Claims, tab: pd.DataFrame, top: pd.DataFrame) -> None:
    """Fig. 5: error vs data-error rate, random 5-of-50 predicates (``tab``) and the top-5 predicate (``top``)."""
    pc = tab[tab["method"] == "privateclean"]
    worst = float(pc["mean"].max())
    claims.add("Fig. 5: PrivateClean < 10% error at every error rate (random 5-of-50 query, mean)", paper=ref.ERROR_BAR,
               ours=round(worst, 3), value=worst, rule=at_most(ref.ERROR_BAR, strict=True),
               cause="paper-error:spec §7 item 18 (the 'randomly selected query' is unspecified; the mean of relative errors is "
                     "heavy-tailed)",
               note=f"finding, not a bug: the mean of relative errors is heavy-tailed under random 5-of-50 Zipf(2) predicates "
                    f"(true counts of a few rows; spec §7 item 18); max median {float(pc['median'].max()):.3f}. The paper's query "
                    "distribution is unknown; see the top-5 query below")
    pt = top[top["method"] == "privateclean"]
    worst_top = float(pt["mean"].max())
    claims.add("Fig. 5: PrivateClean < 10% error at every error rate (top-5 query)", paper=ref.ERROR_BAR, ours=round(worst_top, 4),
               value=worst_top, rule=at_most(ref.ERROR_BAR, strict=True), note="spec §6.4 [ours]: ≈0.9% at p=0.1 with query_mode='top'")
    s = slope(tab, "count", "privateclean", "error_rate")
    claims.add("Fig. 5: PrivateClean error roughly constant in the error rate (slope of the count error)", paper="flat",
               ours=f"slope {s:.3f}", value=s, rule=between(-0.3, 0.3),
               note="pass when |slope| ≤ 0.3 (relative error per unit error rate)")
    sd = slope(tab, "count", "direct", "error_rate")
    sg = slope(tab, "count", "dirty_nonprivate", "error_rate")
    claims.add("Fig. 5: Direct increasingly erroneous with the error rate (slope of the count error)", paper="increasing",
               ours=f"slope {sd:.3f} (dirty non-private: {sg:.3f})", value=sd, rule=at_least(0.1),
               note="finding, not a bug (spec §6.3, §7 item 19): with split_alias errors the truth is fixed and GRR draws that land on an "
                    "alias are merged back by the cleaner, so Direct's bias does not grow; the data errors do matter without cleaning "
                    "(the dirty non-private query's error rises with the rate). No literal reading of the paper's generator reproduced it")


@claim_defaults("paper", cause="paper-error:spec §7 item 19 (the merge-rate generator is under-specified; §6.1's bias "
                                     "describes the no-provenance estimator)")
def fig06_merge_rate(claims: Claims, tab: pd.DataFrame, diff: pd.DataFrame, bias: pd.DataFrame,
                     ablation: pd.DataFrame | None = None) -> None:
    """Fig. 6: error vs merge rate; ``diff`` and ``bias`` from :func:`~dpworkbench.privateclean.experiments.merge_rate_paired`,
    ``ablation`` from :func:`~dpworkbench.privateclean.experiments.merge_rate_domain_ablation` (issue 24: the released
    domain with and without the renamed-away values)."""
    w = worst_ratio(tab, "merge_rate")
    claims.add("Fig. 6: PrivateClean ≤ Direct at every merge rate (worst PC/Direct error ratio)", paper="≤ 1", ours=round(w, 3),
               value=w, rule=at_most(1.0))
    sd = slope(tab, "count", "direct", "merge_rate")
    claims.add("Fig. 6: Direct more sensitive to merges (slope of Direct's count error)", paper="Direct error grows with merge rate",
               ours=f"slope {sd:.3f}", value=sd, rule=at_least(0.0, strict=True),
               note="finding, not a bug (spec §6.3, §7 item 19): merging aliases back into existing values makes the selected clean "
                    "values hold more rows, so Direct's relative error falls with the merge rate; the merge term of the paper's §6.1 "
                    "describes the no-provenance estimator (pc_noprov) rather than Direct")
    excess = float((diff["mean"] - 2 * diff["sem"]).max())
    cause = ("open:the split_alias generator keeps renamed-away values with zero rows in the released domain (no "
             "ablation in this run)")
    if ablation is not None:
        fmt = lambda a: ", ".join(f"{r.merge_rate:g}: {r['mean']:+.3f}±{r['sem']:.3f}" for _, r in a.iterrows())  # noqa: E731
        kept, dropped = (ablation[ablation["domain"] == k] for k in ("kept emptied", "without emptied"))
        ex_kept = float((kept["mean"] - 2 * kept["sem"]).max())
        ex_dropped = float((dropped["mean"] - 2 * dropped["sem"]).max())
        if ex_dropped <= 0 < ex_kept:
            cause = ("stand-in:our split_alias generator keeps renamed-away (emptied) values in the released domain; with a "
                     "domain without them provenance does not hurt (ablation claim), so the excess is a reconstruction "
                     "artefact, not the paper's behaviour")
        elif ex_dropped > 0:
            cause = "open:the excess persists with a domain without the emptied values (ablation claim); not the domain"
        else:
            cause = "noise:the per-instance replication with the emptied values kept shows no excess (ablation table)"
        claims.add("Fig. 6 ablation: with a released domain without the emptied values, provenance does not hurt "
                   "(PC vs no-provenance, paired, per merge rate; max of mean − 2 SE)", paper="PC ≤ no-prov",
                   ours="without emptied " + fmt(dropped) + "; kept " + fmt(kept), value=ex_dropped, rule=at_most(0.0),
                   cause="open:the excess is not caused by the emptied domain values",
                   note=f"per-instance path, {int(dropped['n'].min())}–{int(dropped['n'].max())} instances per merge rate; "
                        f"with the emptied values kept the same check gives {ex_kept:+.3f}")
    claims.add("Fig. 6 (§6.1): provenance does not hurt — PrivateClean vs the no-provenance estimator (paired, per merge rate; "
               "max of mean − 2 SE)", paper="PC ≤ no-prov",
               ours="mean paired difference " + ", ".join(f"{m:g}: {r['mean']:+.3f}±{r['sem']:.3f}" for m, r in diff.iterrows()),
               value=excess, rule=at_most(0.0), cause=cause,
               note="pass = PC's paired excess relative error ≤ 2 SE at every merge rate. Finding when it differs (spec §6.3 expected "
                    "pc_noprov slightly worse everywhere): at low merge rates the aliases are 1-to-1 renames, which leave dirty values "
                    "with no rows in R; PrivateClean counts them in the released N, the no-provenance estimator only the cleaned values "
                    "observed in V, which adapts to the release and lowers its variance on small-count predicates (5000-instance check: "
                    "+0.061±0.006 at merge rate 0, +0.037±0.006 at 0.25, +0.012±0.006 at 0.5, 0.000±0.005 at 1). Both are unbiased "
                    "here (next claim), so the §6.1 merge term does not bite on this generator")
    pcb = bias.loc["privateclean"]
    z = float((pcb["mean"].abs() / pcb["sem"]).max())
    claims.add("PrivateClean's count is unbiased at every merge rate (max |mean signed error| / SE)", paper="unbiased",
               ours=", ".join(f"{m:g}: {r['mean']:+.2f}±{r['sem']:.2f}" for m, r in pcb.iterrows()), value=z, rule=at_most(3.0),
               note="pass when within 3 SE of 0 at every merge rate; rows; no-provenance estimator: "
                    + ", ".join(f"{m:g}: {r['mean']:+.2f}±{r['sem']:.2f}" for m, r in bias.loc["pc_noprov"].iterrows()))


@claim_defaults("paper", cause="paper-error:spec §7 items 12–13 (the weighted-edge formula and L_pred are reconstructed, so "
                                "PC-W's weights are ours)")
def fig07_multiattr(claims: Claims, tab: pd.DataFrame) -> None:
    """Fig. 7: multi-attribute cleaning, weighted (PC-W) vs unweighted (PC-U) provenance vs Direct."""
    t = tab[tab["error_rate"] > 0]
    w, u, d = (float(t[t.method == m]["mean"].mean()) for m in ("PC-W", "PC-U", "Direct"))
    claims.add("Fig. 7: PC-W more accurate than PC-U and Direct (max of PC-W − PC-U and PC-U − Direct, mean error over rates > 0)",
               paper="PC-W < PC-U < Direct", ours=f"{w:.3f} < {u:.3f} < {d:.3f}", value=max(w - u, u - d), rule=at_most(0.0),
               note="spec §6.3 [ours] oracle at 0.3: %.2f / %.2f / %.2f" % ref.SPEC_FIG7_ORACLE)


@claim_defaults("paper", cause="open:the MD panel moves with the released ca_country domain (N = 2 at 0 corruptions, ~28 "
                                     "after; the public-domain ablation below shows how)")
def fig08_tpcds(claims: Claims, tab: pd.DataFrame, df: pd.DataFrame, *, source: str, rows: object,
                ablation: pd.DataFrame | None = None) -> None:
    """Fig. 8: TPC-DS customer_address, FD repair (a) and MD repair (b), vs the number of corruptions; ``ablation``
    from :func:`~dpworkbench.privateclean.experiments.country_domain_ablation` (issue 24: a public country domain)."""
    top = tab.corruptions.max()
    b_cause = ""  # the claim_defaults cause (open) unless the ablation settles it
    if ablation is not None:
        w = ablation[ablation["country_domain"] == "public_world"]
        m_w, se_w = paired_difference(w, "b_country_md", "corruptions", top)
        worst_w = max(paired_difference(w, "b_country_md", "corruptions", x)[0] for x in sorted(w.corruptions.unique()))
        bound_w = m_w + 2 * (se_w if se_w == se_w else 0.0)
        claims.add("Fig. 8b ablation: with a public world-sized country domain PrivateClean beats Direct under MD repair "
                   "(most corruptions; paired PC − Direct + 2 SE)", paper=True, ours=f"paired PC − Direct {m_w:+.3f} ± {se_w:.3f} SE",
                   value=bound_w, rule=at_most(0.0, strict=True),
                   cause="open:Direct stays nearly unbiased under the MD repair even with a public domain",
                   note=f"ablation, world-sized public country domain (276 values): worst paired PC − Direct over the grid "
                        f"{worst_w:+.3f}; with the corruption alphabet as public domain (28 values) Direct is unbiased at every "
                        "count (ablation table)")
        if bound_w < 0:
            b_cause = ("stand-in:our released ca_country domain is the corrupted table's own values, so GRR draws land on "
                       "variants the MD merges back and Direct is nearly unbiased by construction; with a public world-sized "
                       "country domain PrivateClean beats Direct again (ablation claim): a reconstruction artefact")
    a_pc, a_d = value(tab, "a_state_fd", "privateclean", "corruptions", top), value(tab, "a_state_fd", "direct", "corruptions", top)
    b_pc, b_d = value(tab, "b_country_md", "privateclean", "corruptions", top), value(tab, "b_country_md", "direct", "corruptions", top)
    note = f"data: customer_address ({source}), {rows or 'all'} rows"
    for lab, panel, pc_, d_ in (("8a", "a_state_fd", a_pc, a_d), ("8b", "b_country_md", b_pc, b_d)):
        m_, se_ = paired_difference(df, panel, "corruptions", top)
        bound = m_ + 2 * (se_ if se_ == se_ else 0.0)
        claims.add(f"Fig. {lab}: PrivateClean beats Direct under {'FD' if lab == '8a' else 'MD'} repair (most corruptions; paired "
                   "PC − Direct + 2 SE)", paper=True,
                   ours=f"PC {pc_:.3f} vs Direct {d_:.3f} (paired PC − Direct {m_:+.3f} ± {se_:.3f} SE)", value=bound,
                   rule=at_most(0.0, strict=True), cause=b_cause if lab == "8b" else "",
                   note=note + "; pass = PC better by more than 2 SE of the paired difference. In (b), once corrupted variants of the "
                               "country exist, GRR draws mostly land on variants that the MD merges back, Direct's bias almost vanishes "
                               "and the two are equal within noise (see the panel note)")
    sa = slope(tab, "a_state_fd", "privateclean", "corruptions") * top
    sb = slope(tab, "b_country_md", "privateclean", "corruptions") * top
    claims.add("Fig. 8a: PrivateClean's error grows with corruptions under the FD repair (rise over the grid)", paper="grows",
               ours=f"{sa:+.3f}", value=sa, rule=at_least(0.0, strict=True),
               note=note + "; the majority-vote FD repair is fallible (errors in singleton (city, county) groups stay)")
    flat = abs(sb) / max(sa, 0.01)
    claims.add("Fig. 8b: … but not under the MD repair (|rise (b)| / max(rise (a), 0.01))", paper="flat",
               ours=f"rise (b) {sb:+.3f} vs (a) {sa:+.3f}", value=flat, rule=at_most(1.0, strict=True),
               note=note + "; the MD repair is exact")
    claims.add("Fig. 8: PrivateClean's advantage larger in (b) than in (a) (gap (b) − gap (a))", paper="gap(b) > gap(a)",
               ours=f"{b_d - b_pc:.3f} vs {a_d - a_pc:.3f}", value=(b_d - b_pc) - (a_d - a_pc), rule=at_least(0.0, strict=True),
               cause=b_cause,
               note=note + ". Finding, not a bug: once the country is corrupted into ~27 variants that the MD merges back, GRR draws "
                           "mostly land on variants of 'United States' and are merged back too, so Direct's bias on the 97% group shrinks; "
                           "with (city, county) groups of about one row each, GRR on city/county leaves the FD repair unable to fix randomised "
                           "states, so Direct's state counts stay biased")


@claim_defaults("paper", cause=MEAN_ERROR_CAUSE)
def fig09_distinct_fraction(claims: Claims, tab: pd.DataFrame, *, S: int) -> None:
    """Fig. 9: error vs distinct fraction N/S."""
    lo, hi = tab["N"].min(), tab["N"].max()
    g_lo = value(tab, "count", "privateclean", "N", lo) - value(tab, "count", "direct", "N", lo)
    claims.add(f"Fig. 9: PrivateClean better than Direct at the lowest N/S = {lo / S:g} (count; PC − Direct)", paper="PC better below ≈0.5",
               ours=round(g_lo, 4), value=g_lo, rule=at_most(0.0, strict=True))
    g_hi = value(tab, "count", "direct", "N", hi) - value(tab, "count", "privateclean", "N", hi)
    claims.add(f"Fig. 9: Direct better than PrivateClean at the highest N/S = {hi / S:g} (count; Direct − PC)", paper="Direct better above ≈0.5",
               ours=round(g_hi, 4), value=g_hi, rule=at_most(0.0))
    for agg in ("count", "sum"):
        x = crossover(tab, agg, "N") / S
        claims.add(f"Fig. 9: distinct fraction N/S where Direct becomes more accurate ({agg})", paper=ref.FIG9_CROSSOVER, ours=round(x, 3),
                   value=x, rule=close(ref.FIG9_CROSSOVER, atol=0.2),
                   note="pass when within ±0.2 of the paper's 0.5. First N/S where Direct's mean relative error ≤ PrivateClean's, "
                        "interpolated between grid points; NaN: Direct never catches up on this grid. The two curves are close between "
                        "N/S 0.2 and 0.5, so the location moves with Monte-Carlo noise")


@claim_defaults("paper", cause="stand-in:intel_like for the Intel sensor data")
def fig10_intel_like(claims: Claims, tab: pd.DataFrame, *, scale: object) -> None:
    """Fig. 10: IntelWireless stand-in, error vs p (count, avg)."""
    pc = tab[tab.method == "privateclean"]
    worst = float(pc[pc.p <= 0.5]["mean"].max())
    claims.add("Fig. 10: PrivateClean under 10% error on Intel (all p ≤ 0.5)", paper=ref.ERROR_BAR, ours=round(worst, 4), value=worst,
               rule=at_most(ref.ERROR_BAR, strict=True), note=f"intel_like stand-in, scale={scale}")
    wa = worst_ratio(tab[tab.p <= 0.3], "p", aggs=("avg",))
    claims.add("Fig. 10: PrivateClean more accurate than Direct (avg, p ≤ 0.3; worst PC/Direct error ratio)", paper="≤ 1",
               ours=round(wa, 3), value=wa, rule=at_most(1.0))
    wc = worst_ratio(tab, "p", aggs=("count",))
    claims.add("Fig. 10: PrivateClean more accurate than Direct (count, every p; worst PC/Direct error ratio)", paper="≤ 1",
               ours=round(wc, 3), value=wc, rule=at_most(1.0))
    ps_ = sorted(tab.p.unique())
    gray = {p_: value(tab, "count", "dirty_nonprivate", "p", p_) for p_ in ps_}
    above = max(value(tab, a, "privateclean", "p", p_) - value(tab, a, "dirty_nonprivate", "p", p_) for a in ("count", "avg") for p_ in ps_)
    claims.add("Fig. 10: the cleaned private result beats the dirty non-private query (gray) at every p (max PC − gray)",
               paper="PC below gray", ours=round(above, 4), value=above, rule=at_most(0.0, strict=True))
    d_above = [p_ for p_ in ps_ if value(tab, "count", "direct", "p", p_) > gray[p_]]
    first = float(d_above[0]) if d_above else float("nan")
    claims.add("Fig. 10: Direct's count crosses the gray line as p grows (first p with Direct above gray)", paper="crossover with gray",
               ours=first, value=first, rule=at_least(float(min(ps_)), strict=True),
               note="pass when Direct starts below gray and crosses inside the grid (NaN: never crosses); spec §6.2 [ours]: "
                    "between p = 0.1 and 0.2")


@claim_defaults("paper", cause="stand-in:cars table for MCAFE (other make frequencies)")
def fig11_mcafe_like(claims: Claims, tab: pd.DataFrame, *, source: str) -> None:
    """Fig. 11: MCAFE stand-in (the cars table), error vs p (count, avg)."""
    wc = worst_ratio(tab, "p", aggs=("count",))
    claims.add("Fig. 11: PrivateClean more accurate than Direct for count (worst PC/Direct error ratio)", paper="≤ 1", ours=round(wc, 3),
               value=wc, rule=at_most(1.0), note=f"data: cars table ({source})")
    lo = tab[(tab.p <= 0.1) & (tab.method == "privateclean")]
    worst = float(lo["mean"].max())
    claims.add("Fig. 11: PrivateClean under 10% error (count and avg, p ≤ 0.1)", paper=ref.ERROR_BAR, ours=round(worst, 4), value=worst,
               rule=at_most(ref.ERROR_BAR, strict=True), note=f"data: cars table ({source}), S = 406; avg reported as observed")
    wa = worst_ratio(tab, "p", aggs=("avg",))
    claims.add("Fig. 11: PrivateClean more accurate than Direct for avg (worst PC/Direct error ratio)", paper="≤ 1", ours=round(wa, 3),
               value=wa, rule=at_most(1.0),
               note=f"data: cars table ({source}). Finding, not a bug (spec §6.2 [ours]: p=0.1 PC 6.4% vs Direct 5.9%): with b set "
                    "for equal ε (b = Δ/ln(3/p−2), Δ = 25 s) the Laplace variance on ~70 European rows dominates, and the "
                    "corrected avg = ĥ/ĉ carries the extra variance of both de-biased terms; acceleration barely differs between "
                    "Europe and the rest, so Direct's avg bias is small")
    dl = tab[(tab.p <= 0.1) & (tab.method == "direct")]
    worst_d = float(dl["mean"].max())
    claims.add("Fig. 11: Direct also under 10% error (count and avg, p ≤ 0.1)", paper=ref.ERROR_BAR, ours=round(worst_d, 4), value=worst_d,
               rule=at_most(ref.ERROR_BAR, strict=True),
               note=f"data: cars table ({source}). A genuine difference, not noise or a seed artefact: Direct's count bias is "
                    "S·p(l/N − s) with 15 of 38 dirty makes European (l/N = 0.39) vs s ≈ 0.18 of the rows, ≈ +0.2·p·S rows, i.e. "
                    "≈ 12% at p = 0.1, the spec's [ours] oracle (12.1%); the paper's MCAFE has other frequencies")


@claim_defaults("check", cause="open:a corrected interval under-covers by more than 3 Monte-Carlo SEs (spec §3.6–3.7's "
                                "row-CLT interval)")
def learn_ci_coverage(claims: Claims, cov: pd.DataFrame, *, reps: int) -> None:
    """Teaching: empirical coverage of the intervals, ``cov`` = :func:`~dpworkbench.privateclean.batch.ci_coverage` rows."""
    floor = coverage_floor(reps)
    cs = cov[cov["agg"].isin(["count", "sum"])]
    lo = float(cs["coverage corrected (row CLT)"].min())
    claims.add("corrected COUNT/SUM intervals reach nominal 95% coverage (min over p and query modes)", paper=ref.NOMINAL_COVERAGE,
               ours=round(lo, 3), value=lo, rule=at_least(floor),
               note=f"pass when ≥ 0.95 − 3 Monte-Carlo SE over {reps} releases = {floor:.3f}; per-row CLT, spec §3.6; count: "
                    "identical to the paper's form")
    s = cov[cov["agg"] == "sum"]
    width = float((s["median width / truth, paper"] / s["median width / truth, corrected"]).median())
    smin = float(s["coverage paper form"].min())
    claims.add("the paper's SUM interval is very conservative (coverage ≈100%, min over p and query modes)", paper="conservative",
               ours=f"coverage {smin:.3f}, width ratio paper/corrected {width:.1f}x", value=smin, rule=at_least(0.99),
               note="spec §7 item 9 ([ours]: widths 2–7x)")
    av = cov[cov["agg"] == "avg"]
    amin = float(av["coverage corrected (row CLT)"].min())
    cause = ("open:the delta-method AVG interval under-covers when ĉ is near 0 (random Zipf(2) predicates at large p; no "
             "corrected interval in this run)")
    if "coverage Fieller" in av:
        fmin = float(av["coverage Fieller"].min())
        unb = float(av["share unbounded, Fieller"].max())
        claims.add("Fieller AVG interval coverage (min over p and query modes)", paper=ref.NOMINAL_COVERAGE, ours=round(fmin, 3),
                   value=fmin, rule=at_least(floor),
                   cause="open:Fieller's interval also under-covers: the ratio estimate's normal approximation fails",
                   note=f"pass when ≥ {floor:.3f} (0.95 − 3 SE). Fieller: every θ with (ĥ − θĉ)² ≤ z²·Var(ĥ − θĉ), per-row "
                        f"variances and covariance; unbounded (−∞, ∞) when ĉ is not significantly above 0 — up to {unb:.0%} "
                        "of the releases with random predicates at the largest p, none with the top-5 predicate")
        if fmin >= floor:
            cause = (f"paper-error:spec §3.7 (the delta-method AVG interval assumes ĉ far from 0; Fieller's interval, unbounded "
                     f"where ĉ is not significantly positive, covers: min {fmin:.3f}; a property of the delta method, not of "
                     "the reconstruction, and not the paper's interval (its ratio of endpoints covers ~100 %))")
    claims.add("delta-method AVG interval coverage (min over p and query modes)", paper=ref.NOMINAL_COVERAGE, ours=round(amin, 3),
               value=amin, rule=at_least(floor), cause=cause,
               note=f"pass when ≥ {floor:.3f} (0.95 − 3 SE). Finding: with random 5-of-50 Zipf(2) predicates at large p the count "
                    "estimate ĉ is often near 0, the ratio is far from normal and the delta method under-covers (non-positive ĉ → NaN "
                    "counted as a miss); with the top-5 predicate it covers. The paper's ratio-of-endpoints interval covers ~100% but "
                    "is far wider")


@claim_defaults("check", cause="noise:one seeded release (its SE is the estimator's own SD; fig02–fig06 average many)")
def learn_privateclean(claims: Claims, ctable: pd.DataFrame) -> None:
    """Teaching: one seeded release of the cleaning panel (``ctable`` from
    :func:`~dpworkbench.privateclean.teaching.cleaning_panel`)."""
    t = float(ctable["truth"].iloc[0])
    d, pc = (float(absolute_error(ctable[m].iloc[0], t)) for m in ("direct", "privateclean"))
    claims.add("teaching: after cleaning, PrivateClean's count is closer to the truth than Direct's (one release; |PC−truth| − "
               "|Direct−truth|)", paper="PC closer", ours=f"|Direct−truth| {d:.1f} vs |PC−truth| {pc:.1f}",
               value=pc - d, rule=at_most(0.0),
               note="a single seeded release; the notebooks fig02–fig06 give the Monte-Carlo picture")


@claim_defaults("paper", cause="open:a formula or worked example of the paper, computed here, disagrees beyond the errata of "
                                "spec §7 items 1–2")
def learn_theory_and_tuning(claims: Claims, *, example4: float, example3: dict[float, float], lemma1: float, exact_n50: float,
                            tuned_p: float, tradeoff: pd.DataFrame, sim: pd.DataFrame) -> None:
    """Teaching: the paper's formulas and worked examples, each computed by the package and checked against the print."""
    claims.add("Example 4: ĉ = 333.3", paper=ref.EXAMPLE4_COUNT, ours=round(example4, 2), value=example4,
               rule=close(ref.EXAMPLE4_COUNT, atol=0.05))
    claims.add("Example 3: records for 95% domain preservation (p=.25, N=25)", paper=ref.EXAMPLE3_RECORDS[0.05],
               ours=round(example3[0.05], 1), value=example3[0.05], rule=close(ref.EXAMPLE3_RECORDS[0.05], atol=1),
               cause="paper-error:spec §7 item 2 (Example 3's 391 / 552 contradict Theorem 2)",
               note="paper erratum: 391 = (N/p)ln(2.5/α), i.e. pN evaluated as 2.5; Theorem 2 as stated gives 482.8 (spec §1.7)")
    claims.add("Example 3: records for 99% domain preservation", paper=ref.EXAMPLE3_RECORDS[0.01], ours=round(example3[0.01], 1),
               value=example3[0.01], rule=close(ref.EXAMPLE3_RECORDS[0.01], atol=1), note="paper erratum; Theorem 2 gives 643.8",
               cause="paper-error:spec §7 item 2 (Example 3's 391 / 552 contradict Theorem 2)")
    claims.add("Lemma 1: ε = ln(3/p−2) at p=0.25", paper=ref.LEMMA1_EPSILON_P025, ours=round(lemma1, 3), value=lemma1,
               rule=close(ref.LEMMA1_EPSILON_P025, atol=1e-3),
               note=f"exact ε for N=50 is {exact_n50:.3f}: the paper's ε understates the loss for N>3")
    claims.add("App. E tuning: S=10^4, error 0.05 → p", paper=ref.SPEC_APPE_P, ours=round(tuned_p, 4), value=tuned_p,
               rule=close(ref.SPEC_APPE_P, atol=1e-3), source="spec", note="spec §4 worked value (the paper states the algorithm, not this number)")
    true_eps = float(tradeoff["true ε of this p"].iloc[1])
    claims.add("Lemma 1 at ε = 2 per attribute: the true ε of the p it prescribes (N = 50)", paper=2.0, ours=round(true_eps, 3),
               value=true_eps, rule=close(2.0, atol=1e-6), cause="paper-error:spec §7 item 1 (Lemma 1's ε is exact only for N = 3)",
               note="paper convention p = 3/(e^ε+2) = %.3f; exact ln(1+N(1−p)/p) at N = 50 (spec §1.6, §7 item 1); the exact "
                    "convention (default) gives p = %.3f" % (tradeoff["p"].iloc[1], tradeoff["p"].iloc[0]))
    gap = float((sim.simulated - sim["union bound"]).min())
    claims.add("Theorem 2: the union bound is a lower bound on the simulated preservation probability (min simulated − bound)",
               paper="≥ 0", ours=round(gap, 4), value=gap, rule=at_least(-0.05), source="check",
               note="pass when no simulated point lies more than 0.05 (Monte-Carlo allowance) below the bound")


__all__ = ["coverage_floor", "fig01_running_example", "fig02_privacy", "fig03_selectivity", "fig04_skew",
           "fig05_error_rate", "fig06_merge_rate", "fig07_multiattr", "fig08_tpcds", "fig09_distinct_fraction",
           "fig10_intel_like", "fig11_mcafe_like", "learn_ci_coverage", "learn_privateclean", "learn_theory_and_tuning"]


# ---------------------------------------------------------------------------------------------- raha_cleaning (issue 13)
@claim_defaults("check", cause="open:a pre-registered expectation on a Raha benchmark did not hold")
def raha_cleaning(claims: Claims, summ: pd.DataFrame, preps: dict) -> None:
    """raha_cleaning notebook (no paper figure): the expectations written before the first run
    (:data:`dpworkbench.privateclean.raha.EXPECTATIONS`), each checked by a rule.

    ``summ`` = :func:`dpworkbench.privateclean.raha.summary` of the runs, ``preps`` = {dataset:
    :class:`~dpworkbench.privateclean.raha.Prepared`} (cleaning residuals). There is no paper value: the "paper"
    column shows the expectation.

    The expectations were written for the real tables. On a dataset's seeded stand-in (``Prepared.source``; the real
    pair absent) its claims say so in their name and note, and a verdict other than pass has a ``stand-in`` cause:
    the stand-in was built to have the error profile the expectation reads, so it checks the estimators, not the data.
    """
    from .raha import EXPECTATIONS, REAL

    def on(d: str) -> tuple[str, str, str]:
        """(claim-name suffix, cause, note prefix) of dataset ``d``: empty on the real tables."""
        if preps[d].source == REAL:
            return "", "", ""
        return (" [seeded stand-in]", f"stand-in:{d} (seeded stand-in of the raha pair, which is absent; the expectation "
                "was written for the real table)", "on the seeded stand-in (the real raha pair is absent); ")

    def med(d, p, agg, method):
        r = summ[(summ.dataset == d) & (summ.p == p) & (summ["agg"] == agg) & (summ.method == method)]
        return float(r["median"].iloc[0]) if len(r) else math.nan

    p_hi, p_lo = float(summ.p.max()), float(summ.p.min())
    if "beers" in preps:
        tag, cause, pre = on("beers")
        claims.add(EXPECTATIONS["residual_beers"] + tag, paper="0 (expected)", ours=round(preps["beers"].residual["count"], 4),
                   rule=close(0.0, atol=1e-9), cause=cause, note=pre + "no paper value: a pre-registered expectation")
    if "flights" in preps:
        tag, cause, pre = on("flights")
        claims.add(EXPECTATIONS["residual_flights"] + tag, paper="≥ 0.05 (expected)", ours=round(preps["flights"].residual["count"], 4),
                   rule=at_least(0.05), cause=cause, note=pre + "no paper value: a pre-registered expectation")
    for d in preps:
        tag, cause, pre = on(d)
        pc, direct = med(d, p_hi, "count", "privateclean"), med(d, p_hi, "count", "direct")
        res = float(preps[d].residual["count"])
        # PrivateClean estimates the answer on the *repaired* table; when its error is that table's cleaning residual
        # (within 5 %) the comparison with Direct measures the cleaner, not the estimator (measured on flights: the value
        # map over-counts by 214 %, PrivateClean's error is 2.13–2.14 at every p, Direct's privacy bias pulls its
        # over-count toward the truth as p grows, 2.00 → 0.76)
        by_residual = math.isfinite(pc) and res > 0 and abs(pc - res) <= 0.05 * res and direct < pc
        claims.add(f"{d}: " + EXPECTATIONS["pc_beats_direct"] + tag, paper="Direct − PrivateClean > 0 (expected)",
                   ours=f"{pc:.3f} vs {direct:.3f}", value=round(direct - pc, 4), rule=at_least(0.0, strict=True),
                   cause=(f"open:the cleaning residual {res:.3f} (repaired vs clean, no privacy) is PrivateClean's whole error "
                          f"({pc:.3f}); Direct's privacy bias shrinks the repaired over-count toward the truth ({direct:.3f} at "
                          f"p = {p_hi:g}, {med(d, p_lo, 'count', 'direct'):.3f} at p = {p_lo:g}): two errors cancelling, "
                          "the expectation ignored the residual's sign") if by_residual else cause,
                   note=pre + f"value = Direct − PrivateClean median relative error at p = {p_hi}; no paper value. PrivateClean removes "
                        f"the privacy bias, not the cleaning error: the cleaning residual of this COUNT is {preps[d].residual['count']:.3f}")
    if "beers" in preps:
        tag, cause, pre = on("beers")
        pc, nop = med("beers", p_hi, "count", "privateclean"), med("beers", p_hi, "count", "pc_noprov")
        claims.add(EXPECTATIONS["pc_beats_noprov_beers"] + tag, paper="no-provenance − PrivateClean > 0 (expected)",
                   ours=f"{pc:.3f} vs {nop:.3f}", value=round(nop - pc, 4), rule=at_least(0.0, strict=True), cause=cause,
                   note=pre + (f"its N = {preps['beers'].stats['dirty_values']}, N′ = {preps['beers'].stats['clean_values']}; " if pre else "")
                   + f"value = no-provenance − PrivateClean median relative error at p = {p_hi}")
        claims.add(EXPECTATIONS["pc_small_beers"] + tag, paper="≤ 0.05 (expected)", ours=round(med("beers", p_lo, "count", "privateclean"), 4),
                   rule=at_most(0.05), cause=cause, note=pre + f"p = {p_lo}")
        cov = summ[(summ.dataset == "beers") & (summ["agg"] == "count") & (summ.method == "privateclean")]
        claims.add(EXPECTATIONS["coverage_beers"] + tag, paper="≥ 0.80 (expected; nominal 0.95)", ours=round(float(cov.coverage.min()), 3),
                   rule=at_least(0.80), cause=cause, note=pre + "the lowest coverage over the p grid")


__all__ += ["raha_cleaning"]


@claim_defaults("check", cause="open:a new estimator's coverage or bias check failed on raha beers (issue 25's rule)")
def multi_attribute(claims: Claims, st: pd.DataFrame) -> None:
    """raha_multi_attribute notebook (issue 25, no paper figure): at the largest ε of the grid, every new estimator's 95 %
    CI covers the (repaired) truth in at least 0.95 − 3 MC SE of the releases, and PrivateClean's bias is not
    detectable (|z| ≤ 3.29, two-sided α = 0.001); Direct's bias z is shown beside it."""
    top = st[st["epsilon"] == st["epsilon"].max()]
    for _, r in top.iterrows():
        lab = r["query"] + ("" if pd.isna(r["group"]) else f" [{r['group']}]")
        floor = 0.95 - 3 * r["coverage_se"]
        claims.add(f"{lab}: 95% CI coverage ≥ 0.95 − 3 MC SE (ε = {r['epsilon']:g}, R = {int(r['R'])})",
                   paper=f"≥ {floor:.3f} (expected)", ours=round(float(r["coverage"]), 3), value=float(r["coverage"]),
                   rule=at_least(floor), note="no paper value: issue 25's acceptance rule")
        claims.add(f"{lab}: PrivateClean bias z-test (Direct's z = {r['direct_bias_z']:.1f})", paper="|z| ≤ 3.29 (expected)",
                   ours=round(float(r["bias_z"]), 2), value=abs(float(r["bias_z"])), rule=at_most(3.29),
                   note="z = mean error / its MC SE over the releases; no paper value")
