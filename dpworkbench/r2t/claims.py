"""The R2T paper's claims as code: paper value, tolerance and the rule that derives each verdict.

One function per notebook of ``notebooks/r2t/``. A notebook computes its values with package
functions and hands them here; every verdict comes from a rule of
:mod:`dpworkbench.experiments.claims` (``close``, ``at_least``, ``at_most``, ``between``,
``equals``, ``not_comparable``), so every claim can come out "differs" (``tests/test_claims_flip.py``).
Where the paper gives a number, the rule is stated against that number; a large difference is
reported as "differs", not hidden behind a looser bar.

Sources (issue 24): a value printed in the paper (its tables, examples, text) is ``paper``; the numbers behind
Figs. 7–9, Table 3 and Table 5's absolute errors come from the authors' repository (``reference`` marks them
[repo]) and are ``artifact``; the OPT² LP proxy F̂ is the spec's recomputation (``spec``); Theorem checks, the
stand-in's own utility assumption and the teaching notebooks are ``check``.

References
----------
Dong, Fang, Yi, Tao, Machanavajjhala, "Instance-optimal Truncation for Differentially Private
Query Evaluation with Foreign Keys", ACM TODS 49(4), 2024 (seed 001); spec ``../shared/spec/r2t.md``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ..experiments.claims import Claims, at_least, at_most, band, between, claim_defaults, close, equals, not_comparable
from . import example, reference

# Table 3's ratios of R2T / OPT² error to the best fixed-τ error (Amazon2, ε = 0.8), from reference.TABLE3
TABLE3_R2T_OVER_BEST = {q: reference.TABLE3[q]["R2T"] / min(reference.TABLE3[q]["fixed"]) for q in reference.TABLE3}
TABLE3_OPT2_OVER_BEST = {q: reference.TABLE3[q]["OPT2"] / min(reference.TABLE3[q]["fixed"]) for q in reference.TABLE3}


def _printed(v: float) -> str:
    """A reference number as the paper prints it, for :func:`band`'s rounding (``1.37e9`` → ``"1.37e+09"``, ``0.535`` →
    ``"0.535"``, ``4000`` → ``"4000"``)."""
    if isinstance(v, float) and v.is_integer():
        return f"{v:.3g}" if abs(v) >= 1e6 else str(int(v))
    return repr(v)


def _ratio(a: float, b: float) -> float:
    return float(a) / float(b) if b else float("nan")


def _runs_se(runs: pd.DataFrame | None, **where) -> float:
    """Monte-Carlo SE of the 20 %-trimmed mean |error| of the runs matching ``where`` (NaN without runs)."""
    from ..experiments.claims import monte_carlo_se
    from .experiments import TRIM

    if runs is None:
        return float("nan")
    sel = runs[runs.status == "ok"] if "status" in runs else runs
    for k, v in where.items():
        sel = sel[sel[k] == v]
    return monte_carlo_se(sel.abs_error.to_numpy(), trim=TRIM)


def repetitions_of(runs: pd.DataFrame | None, query: str) -> int:
    """How many R2T-5.5 runs of ``query`` finished (0 without runs)."""
    if runs is None:
        return 0
    sel = runs[(runs["query"] == query) & (runs.mechanism == "R2T-5.5")]
    return int((sel.status == "ok").sum()) if "status" in sel else len(sel)


def _ratio_band(paper_num: float, paper_den: float, num: float, se_num: float, den: float, se_den: float):
    """A two-sided band on the ratio of two printed numbers: the ratio's rounding (propagated from both printed
    values) plus 3 Monte-Carlo SEs of our ratio (delta method; SE 0 when unknown, noted by the caller)."""
    from ..experiments.claims import band, printed_rounding

    r = paper_num / paper_den
    rounding = abs(r) * (printed_rounding(paper_num) / abs(paper_num) + printed_rounding(paper_den) / abs(paper_den))
    ours = _ratio(num, den)
    se = abs(ours) * math.hypot(se_num / num, se_den / den) if num and den and math.isfinite(se_num) and math.isfinite(se_den) else 0.0
    return band(r, rounding=rounding, se=se if math.isfinite(se) else 0.0)


@claim_defaults("paper", cause="open:our recomputation of the worked example (Ex. 5.2–6.7) differs from the printed value")
def fig02_worked_example(claims: Claims, table: pd.DataFrame, runs: Mapping, *, r2t_share_below: float, beta: float) -> None:
    """Fig. 2 / Examples 5.2, 6.3, 6.7: Q(I,τ), F̂(I,τ), F(I,τ) and the scripted-noise outputs.

    ``table`` is :func:`dpworkbench.r2t.example.value_table`, ``runs`` :func:`~dpworkbench.r2t.example.scripted_runs`,
    ``r2t_share_below`` the share of seeded R2T runs with output ≤ Q(I).
    """
    for tau in example.TAUS:
        row = table[table.tau == tau].iloc[0]
        claims.add(f"Q(I,τ={tau}) by LP truncation", paper=example.Q_TAU[tau], ours=float(row["Q(I,τ) LP"]),
                   rule=close(example.Q_TAU[tau], atol=1e-6))
        claims.add(f"F̂(I,τ={tau}) (OPT² LP proxy, spec 1.5)", paper=example.FHAT_TAU[tau], ours=float(row["F̂(I,τ)"]),
                   rule=close(example.FHAT_TAU[tau], rtol=1e-6), source="spec")  # relative: claims.json keeps 6 significant digits
        claims.add(f"F(I,τ={tau}) exact vs Ex. 6.3 as printed", paper=example.F_TAU_PRINTED[tau], ours=float(row["F(I,τ) exact"]),
                   rule=equals(example.F_TAU_PRINTED[tau]), cause="paper-error:spec 6.1 #8 (Ex. 6.3's F values)",
                   note=f"paper's Ex. 6.3 is wrong (spec 6.1 #8); corrected value {example.F_TAU_CORRECT[tau]}")
    claims.add("R2T output with scripted noise (Ex. 5.2)", paper=9440, ours=round(runs["r2t"].value), rule=close(9440, atol=0.5))
    claims.add("OPT² τ̃ with scripted noise (Ex. 6.7)", paper=8, ours=float(runs["opt2"].tau), rule=equals(8))
    claims.add("OPT² output with scripted noise (Ex. 6.7)", paper=9912, ours=float(runs["opt2"].value), rule=close(9912, atol=1e-6))
    claims.add("ExpOPT² τ̃ (Ex. 6.3, paper's printed F)", paper=16, ours=float(runs["exp_opt2_printed"].tau), rule=equals(16),
               note="reproduces the paper's arithmetic with its wrong F values")
    claims.add("ExpOPT² τ̃ with the correct F", paper=16, ours=float(runs["exp_opt2_correct"].tau), rule=equals(16),
               cause="paper-error:spec 2.8 (τ̃ = 16 rests on Ex. 6.3's wrong F)",
               note="expected to differ: correct F gives τ̃ = 8 → 9912 (spec 2.8); the paper's 16 → 10024 rests on the wrong F")
    claims.add("R2T never overestimates (fraction ≤ Q over seeded runs)", paper=f"≥ {1 - beta:g}", ours=float(r2t_share_below),
               rule=at_least(1 - beta), note="Theorem 5.1: output ≤ Q(I) with probability ≥ 1 − β", source="check",
               cause="noise:share over few seeded runs")


@claim_defaults("artifact", cause="stand-in:roadnet_pa (synthetic road grid)")
def fig07_epsilon_sweep(claims: Claims, summary: pd.DataFrame, answers: Mapping[str, float], *, eps_grid: Sequence[float],
                        stand_in_ds: float, runs: pd.DataFrame | None = None, full_size: bool = False) -> None:
    """Fig. 7 (RoadnetPA, error vs ε): R2T's and LP's error ratios over ε, NT/SDE exceed Q, R2T's level.

    The ratios and the level are the authors' repository numbers behind the figure ([repo]): each is judged two-sided,
    within its printed rounding plus 3 Monte-Carlo SEs of ours (``runs``: one row per repetition). With ``full_size``
    (the stand-in at RoadnetPA's 1.09M nodes) every mechanism's absolute error at ε = 0.8 (Table 2's column) is judged
    the same way; one over this profile's per-run limit is not comparable (OT here, not in the paper).
    """
    s = summary.set_index(["query", "mechanism", "epsilon"])["error"]
    lo, hi = min(eps_grid), max(eps_grid)
    paper_eps = list(reference.FIG7_EPS)
    on_grid = lo in paper_eps and hi in paper_eps

    def se(q, m, e):
        return _runs_se(runs, query=q, mechanism=m, epsilon=e)

    status = summary.set_index(["query", "mechanism", "epsilon"])["status"] if "status" in summary else None

    def finished(q, m, e):  # a cell over this profile's limits (OT) has no error to judge
        return (q, m, e) in s.index and (status is None or status[(q, m, e)] == "ok")

    for q in ["edge", "path2", "triangle", "rectangle"]:  # Q2- since it is counted per node (it was OT before)
        if (q, "R2T", lo) in s.index and (q, "R2T", hi) in s.index:
            if not (finished(q, "R2T", lo) and finished(q, "R2T", hi)):
                claims.add(f"{q}: R2T error falls with ε (error(ε={lo:g}) / error(ε={hi:g}))", paper="(paper's ratio)",
                           ours=float("nan"), rule=not_comparable("OT here: over this profile's per-run time limit or size caps"),
                           cause="scale:OT here (per-run time limit or size caps), not in the paper")
                continue
            if not on_grid:
                claims.add(f"{q}: R2T error falls with ε (error(ε={lo:g}) / error(ε={hi:g}))", paper="(paper's grid)",
                           ours=_ratio(s[(q, "R2T", lo)], s[(q, "R2T", hi)]),
                           rule=not_comparable("this ε grid's ends are not on the paper's"), cause=f"scale:ε grid {lo:g}–{hi:g}")
                continue
            p_lo, p_hi = reference.FIG7[q]["R2T"][paper_eps.index(lo)], reference.FIG7[q]["R2T"][paper_eps.index(hi)]
            claims.add(f"{q}: R2T error falls with ε (error(ε={lo:g}) / error(ε={hi:g}))", paper=round(p_lo / p_hi, 1),
                       ours=_ratio(s[(q, "R2T", lo)], s[(q, "R2T", hi)]),
                       rule=_ratio_band(p_lo, p_hi, s[(q, "R2T", lo)], se(q, "R2T", lo), s[(q, "R2T", hi)], se(q, "R2T", hi)))
    if ("edge", "LP", lo) in s.index and ("edge", "LP", hi) in s.index:
        p_lo, p_hi = reference.FIG7["edge"]["LP"][0], reference.FIG7["edge"]["LP"][-1]
        claims.add("edge: LP error does not fall with ε (error(ε_min) / error(ε_max); random-τ bias dominates)",
                   paper=round(p_lo / p_hi, 2), ours=_ratio(s[("edge", "LP", lo)], s[("edge", "LP", hi)]),
                   rule=_ratio_band(p_lo, p_hi, s[("edge", "LP", lo)], se("edge", "LP", lo), s[("edge", "LP", hi)], se("edge", "LP", hi)),
                   note=f"paper RoadnetPA: {p_lo:,} → {p_hi:,}; two-sided: rounding + 3 Monte-Carlo SE")
    e08 = 0.8 if 0.8 in eps_grid else lo
    # only finished cells: an OT cell has no error (counting it as "does not exceed" would make the claim fail on OT)
    over = [s[(q, m, e08)] > answers[q] for q in answers for m in ("NT", "SDE") if finished(q, m, e08)]
    claims.add(f"NT and SDE errors exceed the query result at ε = {e08:g} (share of cases)", paper=1.0,
               ours=float(np.mean(over)) if over else float("nan"), rule=close(1.0, atol=0.25), source="paper",
               note=f"{len(over)} finished cells")
    if ("edge", "R2T", 0.8) in s.index:
        ours, se08 = float(s[("edge", "R2T", 0.8)]), se("edge", "R2T", 0.8)
        claims.add(f"edge: R2T absolute error at ε = 0.8 (RoadnetPA; DS {reference.FIG7_DS['edge']} in the paper)", paper=176,
                   ours=ours, rule=band("176", se=se08 if math.isfinite(se08) else 0.0),
                   cause=f"stand-in:roadnet_pa (DS {stand_in_ds:g} here, {reference.FIG7_DS['edge']} in the paper)",
                   note=f"stand-in DS = {stand_in_ds:g}; two-sided: rounding + 3 Monte-Carlo SE")
    if not full_size or 0.8 not in eps_grid:
        return
    k08 = paper_eps.index(0.8)
    for q, per_mech in reference.FIG7.items():
        for mech, ys in per_mech.items():
            if (q, mech) == ("edge", "R2T") or (q, mech, 0.8) not in status.index:
                continue  # R2T on edges is judged above
            text = f"{q}: {MECH_LABEL[mech]} absolute error at ε = 0.8 (RoadnetPA, whole-size stand-in)"
            if status[(q, mech, 0.8)] != "ok":
                claims.add(text, paper=ys[k08], ours=float("nan"), rule=not_comparable("OT here: over this profile's per-run time limit or size caps"),
                           cause="scale:OT here (per-run time limit or size caps), not in the paper")
                continue
            e08 = se(q, mech, 0.8)
            claims.add(text, paper=ys[k08], ours=float(s[(q, mech, 0.8)]), rule=band(_printed(ys[k08]), se=e08 if math.isfinite(e08) else 0.0),
                       cause=f"stand-in:roadnet_pa (synthetic thinned grid at RoadnetPA's 1.09M nodes; DS of Q1- {stand_in_ds:g} "
                             f"here, {reference.FIG7_DS['edge']} in the paper)",
                       note="two-sided: the printed rounding + 3 Monte-Carlo SE")


@claim_defaults("artifact", cause="scale:TPC-H SF grid below the paper's 0.125–8")
def fig08_scalability(claims: Claims, summary: pd.DataFrame, timing: pd.DataFrame, *, sf_grid: Sequence[float],
                      queries: Sequence[str], runs: pd.DataFrame | None = None) -> None:
    """Fig. 8 (TPC-H, error and time over the scale factor). R2T's error ratio over the SF grid is judged two-sided
    against the authors' numbers (their rounding + 3 Monte-Carlo SEs, ``runs`` one row per repetition) when the grid's
    ends are on the paper's; on another grid it is not comparable."""
    e = summary.set_index(["query", "mechanism", "sf"])["error"]
    lo, hi = min(sf_grid), max(sf_grid)
    paper_sf = list(reference.FIG8_SF)
    on_grid = lo in paper_sf and hi in paper_sf
    plo, phi = (lo, hi) if on_grid else (paper_sf[0], paper_sf[-1])
    for q in queries:
        p_hi, p_lo = reference.FIG8[q]["R2T"][paper_sf.index(phi)], reference.FIG8[q]["R2T"][paper_sf.index(plo)]
        text = f"{q}: R2T error barely changes with scale (error(SF {hi:g}) / error(SF {lo:g}))"
        ours = _ratio(e[(q, "R2T", hi)], e[(q, "R2T", lo)])
        if on_grid:
            claims.add(text, paper=round(p_hi / p_lo, 3), ours=ours,
                       rule=_ratio_band(p_hi, p_lo, e[(q, "R2T", hi)], _runs_se(runs, query=q, mechanism="R2T", sf=hi),
                                        e[(q, "R2T", lo)], _runs_se(runs, query=q, mechanism="R2T", sf=lo)),
                       note="two-sided: the ratio's rounding + 3 Monte-Carlo SE")
        else:
            claims.add(text, paper=round(p_hi / p_lo, 3), ours=ours,
                       rule=not_comparable(f"SF grid {lo:g}–{hi:g} is not on the paper's ({plo:g}–{phi:g})"),
                       cause=f"scale:SF {lo:g}–{hi:g} (paper {plo:g}–{phi:g})")
    paper_ls = reference.FIG8["Q3"]["LS"][paper_sf.index(phi)] / reference.FIG8["Q3"]["LS"][paper_sf.index(plo)]
    claims.add("Q3: LS error grows with scale (error(SF max) / error(SF min))", paper=round(paper_ls, 2),
               ours=_ratio(e[("Q3", "LS", hi)], e[("Q3", "LS", lo)]), rule=at_least(1, strict=True),
               note=f"paper's ratio over SF {plo:g} → {phi:g}; pass when > 1")
    t = timing[timing.mechanism == "R2T"].groupby("sf").seconds.sum()
    claims.add("R2T time grows with scale (sum over queries, time(SF max) / time(SF min))", paper=f"linear: {hi / lo:g}",
               ours=_ratio(t.loc[hi], t.loc[lo]), rule=at_least(1, strict=True), source="paper",
               note=f"pass when > 1; the SF ratio is {hi / lo:g}")


@claim_defaults("artifact", cause="scale:TPC-H SF below the paper's SF 1")
def fig09_gs_dependency(claims: Claims, summary: pd.DataFrame, answers: Mapping[str, float], *, gs_grid: Sequence[float],
                        queries: Sequence[str], runs: pd.DataFrame | None = None) -> None:
    """Fig. 9 (TPC-H, error vs the assumed GS_Q).

    The former claim "OPT² error independent of GS" is gone: OPT² never reads GS, so it could not
    fail (issue 13); ``tests/r2t/test_mechanisms.py`` checks that OPT²'s seeded output has no GS input.
    """
    e = summary.set_index(["query", "mechanism", "gs"])["error"]
    lo, hi = min(gs_grid), max(gs_grid)
    paper_gs = list(reference.FIG9_GS)
    for q in queries:
        p_r2t = reference.FIG9[q]["R2T"]
        if hi in paper_gs and lo in paper_gs:
            p_hi, p_lo = p_r2t[paper_gs.index(hi)], p_r2t[paper_gs.index(lo)]
            claims.add(f"{q}: R2T error grows slowly with GS (error(GS={hi:g}) / error(GS={lo:g}))", paper=round(p_hi / p_lo, 2),
                       ours=_ratio(e[(q, "R2T", hi)], e[(q, "R2T", lo)]),
                       rule=_ratio_band(p_hi, p_lo, e[(q, "R2T", hi)], _runs_se(runs, query=q, mechanism="R2T", gs=hi),
                                        e[(q, "R2T", lo)], _runs_se(runs, query=q, mechanism="R2T", gs=lo)),
                       note="two-sided: the ratio's rounding + 3 Monte-Carlo SE (Thm 5.1: ∝ log GS · ln(log GS / β))")
        else:
            claims.add(f"{q}: R2T error grows slowly with GS (error(GS={hi:g}) / error(GS={lo:g}))", paper="(paper's grid)",
                       ours=_ratio(e[(q, "R2T", hi)], e[(q, "R2T", lo)]),
                       rule=not_comparable("this GS grid's ends are not on the paper's"), cause=f"scale:GS grid {lo:g}–{hi:g}")
        p_ls = reference.FIG9[q]["LS"][paper_gs.index(hi)] / reference.TABLE5[q][0] if hi in paper_gs else float("nan")
        claims.add(f"{q}: LS error exceeds the query result at GS = {hi:g} (LS error / Q(I))", paper=round(p_ls, 1),
                   ours=_ratio(e[(q, "LS", hi)], answers[q]), rule=at_least(1, strict=True),
                   note="paper at SF 1; pass when > 1")
        wins = [e[(q, "OPT2", g)] <= min(e[(q, "R2T", g)], e[(q, "LS", g)]) * 1.5 for g in gs_grid]
        claims.add(f"{q}: OPT² has the smallest error at every GS (share of GS values, within 1.5×)", paper=1.0,
                   ours=float(np.mean(wins)), rule=at_least(1.0))


@claim_defaults("paper", cause="open:dataset statistics differ from Table 1 (the data version or the cleaning of the edge list)")
def tab01_datasets(claims: Claims, table1: pd.DataFrame) -> None:
    """Table 1 (graph datasets).

    "max degree ≤ D" is claimed only for real graphs: a stand-in is capped at D by construction, so
    there it could not fail (issue 13). Road stand-ins are compared with the paper's max degree
    (the generator is capped at 16, not calibrated to 9 or 12).
    """
    for _, r in table1.iterrows():
        md = int(r["max degree (= DS of Q1-)"])
        if r.source == "real":
            claims.add(f"{r.dataset} (real): max degree ≤ degree bound D (utility assumption, spec 2.2)",
                       paper=f"≤ {int(r['degree bound D'])}", ours=md, rule=at_most(float(r["degree bound D"])), source="check",
                       cause="open:the real graph exceeds its public degree bound")
        elif r.dataset in reference.TABLE1_MAX_DEGREE and r.dataset.startswith("roadnet"):
            paper = reference.TABLE1_MAX_DEGREE[r.dataset]
            # a stand-in's statistic against the real graph's measures the generator's calibration, not a reproduction
            claims.add(f"{r.dataset} stand-in: max degree vs the paper's", paper=paper, ours=md, rule=close(paper, rtol=0.5),
                       source="check", cause=f"stand-in:{r.dataset} (thinned grid capped at 16)",
                       note="thinned grid capped at 16; pass within ±50 % of the paper's max degree")
        if r.dataset in reference.TABLE1_MAX_DEGREE and r.source != "real":
            claims.add(f"{r.dataset}: stand-in vs paper node count", paper=r.get("paper nodes"), ours=int(r.nodes),
                       rule=not_comparable("synthetic stand-in at laptop scale"), cause=f"stand-in:{r.dataset}")


#: Table 2's headline "R2T's error is under 20 %" can only hold where answer/DS is at least the paper's largest R2T
#: error/DS on Q1- (19.6, RoadnetPA) over 0.20: below it even the paper's error would exceed 20 % of the answer.
#: The paper's cells have answer/DS ≈ 2,000 (deezer Q1-: 10.8 / 0.535 %); the quick samples ≈ 33.
R2T_UNDER_20PCT_MIN_ANSWER_OVER_DS = max(reference.ERR_OVER_DS_EDGE["R2T"]) / 0.20


def _cell_se(runs: pd.DataFrame | None, d: str, q: str, mech: str) -> float:
    """Monte-Carlo SE of a cell's 20 %-trimmed mean |error| (NaN without per-run rows)."""
    from ..experiments.claims import monte_carlo_se
    from .experiments import TRIM

    if runs is None:
        return float("nan")
    r = runs[(runs.dataset == d) & (runs["query"] == q) & (runs.mechanism == mech) & (runs.status == "ok")]
    return monte_carlo_se(r.abs_error.to_numpy(), trim=TRIM)


#: Why a full-size dataset's cell can still differ from the paper's printed number: the graph is not the paper's.
FULL_SIZE_CAUSE = {
    "deezer": "stand-in:deezer (real, but the two-country subset HU ∪ RO: 89,311 of the paper's 143,884 nodes, max degree "
              "112 vs 420)",
    "amazon1": "stand-in:amazon1 (synthetic Holme–Kim at Amazon1's 262k nodes)",
    "amazon2": "stand-in:amazon2 (synthetic Holme–Kim at Amazon2's 335k nodes)",
    "roadnet_pa": "stand-in:roadnet_pa (synthetic thinned grid at RoadnetPA's 1.09M nodes)",
    "roadnet_ca": "stand-in:roadnet_ca (synthetic thinned grid at RoadnetCA's 1.97M nodes)",
}
MECH_LABEL = {"R2T": "R2T", "OPT2": "OPT²", "LP": "LP", "NT": "NT", "SDE": "SDE", "RM": "RM"}


def _full_cause(datasets: Sequence[str]) -> str:
    """The cause of a claim pooled over full-size datasets: the stand-ins among them (the data is not the paper's)."""
    kinds = [d for d in datasets if d in FULL_SIZE_CAUSE]
    return f"stand-in:{', '.join(kinds)} (synthetic or subset graphs at the paper's sizes)" if kinds else "open:full-size run"


@claim_defaults("paper", cause="scale:graph samples of 400–5,000 nodes (answer/DS far below the paper's ≈ 2,000)")
def tab02_graph_queries(claims: Claims, summary: pd.DataFrame, *, datasets: Sequence[str], queries: Sequence[str],
                        runs: pd.DataFrame | None = None, full_size: Mapping[str, bool] | None = None,
                        ot_reasons: Mapping[str, str] | None = None) -> None:
    """Table 2 (graph pattern counting, ε = 0.8). ``runs`` (one row per repetition) gives the Monte-Carlo SEs.

    ``full_size`` (dataset → bool, :func:`dpworkbench.r2t.datasets.full_size`) marks the datasets run on the whole
    graph (the paper profile): there every cell the paper prints is judged two-sided against it (the printed rounding
    + 3 Monte-Carlo SEs), a cell over this profile's per-run limit where the paper finished is not comparable with the
    measured reason (``ot_reasons``: mechanism → text), and the answer/DS scale rule is not applied. Samples keep it.
    """
    from ..experiments.claims import Scale, band

    full = {d: bool((full_size or {}).get(d, False)) for d in datasets}
    ok = summary[summary.status == "ok"].set_index(["dataset", "query", "mechanism"])["error"]
    cell = summary.set_index(["dataset", "query", "mechanism"])
    r2t_cells = [(d, q) for d in datasets for q in queries if (d, q, "R2T") in ok.index]
    # Headline 1: R2T's relative error is under 20 % on every finished cell (paper: 20 of 20); judged per cell, at a
    # comparable scale only (an average would hide the cells where it fails). A full-size cell is at the paper's scale.
    for d, q in r2t_cells:
        k = list(reference.DATASETS).index(d) if d in reference.DATASETS else None
        paper = reference.TABLE2_REL_ERR.get(q, {}).get("R2T", (None,) * 5)[k] if k is not None else None
        c = cell.loc[(d, q, "R2T")]
        if full[d]:
            claims.add(f"Table 2: R2T relative error < 20 % on {d} {q}", paper=paper if paper is not None else "< 20",
                       ours=float(c.rel_error_pct), rule=at_most(20, strict=True),
                       cause=FULL_SIZE_CAUSE.get(d, f"open:{d} at full size"),
                       note=f"paper: {paper} %; pass when < 20 %; whole graph (answer/DS "
                            f"{float(c.answer) / float(c.DS):.3g})")
            continue
        claims.add(f"Table 2: R2T relative error < 20 % on {d} {q}", paper=paper if paper is not None else "< 20",
                   ours=float(c.rel_error_pct), rule=at_most(20, strict=True),
                   scale=Scale("answer/DS", float(c.answer) / float(c.DS) if c.DS else float("nan"),
                               R2T_UNDER_20PCT_MIN_ANSWER_OVER_DS),
                   note=f"paper: {paper} %; pass when < 20 %")
    # Full size: every cell Table 2 prints, two-sided (rounding + 3 Monte-Carlo SEs of our relative error).
    for d in datasets:
        if not full[d] or d not in reference.DATASETS:
            continue
        k = list(reference.DATASETS).index(d)
        for q in queries:
            for mech, per_ds in reference.TABLE2_REL_ERR.get(q, {}).items():
                paper = per_ds[k]
                if (d, q, mech) not in cell.index:
                    continue
                text = f"Table 2: {MECH_LABEL[mech]} relative error % on {d} {q} (whole graph)"
                c = cell.loc[(d, q, mech)]
                if paper is None:  # OT in the paper: nothing printed to compare with
                    continue
                if c.status != "ok":
                    why = (ot_reasons or {}).get(mech, "over this profile's per-run limit")
                    claims.add(text, paper=paper, ours=float("nan"), rule=not_comparable(f"OT here: {why}"),
                               cause=f"scale:OT here, not in the paper (6 h, 24 cores, CPLEX): {why}")
                    continue
                se = 100 * _cell_se(runs, d, q, mech) / float(c.answer) if c.answer else float("nan")
                claims.add(text, paper=paper, ours=float(c.rel_error_pct), rule=band(_printed(paper), se=se if math.isfinite(se) else 0.0),
                           cause=FULL_SIZE_CAUSE[d],
                           note="two-sided: the printed rounding + 3 Monte-Carlo SE" + ("" if math.isfinite(se) else
                                                                                       "; no per-run rows: SE taken as 0"))
    pooled_cause = _full_cause(datasets) if datasets and all(full.values()) else ""
    # Headline 2: R2T releases a non-zero answer (the paper's R2T never answers 0 on these queries).
    if runs is not None and r2t_cells:
        r = runs[(runs.mechanism == "R2T") & (runs.status == "ok")]
        med = r.groupby(["dataset", "query"]).estimate.median()
        zero = [f"{d} {q}" for d, q in r2t_cells if (d, q) in med.index and not med[(d, q)] > 0]
        claims.add("Table 2: R2T releases a non-zero answer (share of finished cells with median output > 0)", paper=1.0,
                   ours=1 - len(zero) / len(r2t_cells), rule=at_least(1.0), cause=pooled_cause,
                   note="cells releasing 0: " + (", ".join(zero) if zero else "none"))
    # "OPT² ≤ R2T" passes trivially where R2T's error is the whole answer (it released ≈ 0): those cells are left out.
    pairs = [(d, q) for d, q in r2t_cells if (d, q, "OPT2") in ok.index and float(cell.loc[(d, q, "R2T")].rel_error_pct) < 99]
    claims.add("OPT² error ≤ R2T error (share of finished cases where R2T's error < 99 %)", paper=1.0,
               ours=float(np.mean([ok[(d, q, "OPT2")] <= ok[(d, q, "R2T")] for d, q in pairs])) if pairs else float("nan"),
               rule=close(1.0, atol=0.25), cause=pooled_cause,
               note="paper: OPT² always better when it finishes; pass when ≥ 0.75 (noise on small stand-ins); "
                    f"{len(pairs)} cells (cells where R2T released ≈ 0 are left out: OPT² ≤ R2T would be trivial)")
    beats = [ok[(d, q, "R2T")] < min(ok.get((d, q, "NT"), np.inf), ok.get((d, q, "SDE"), np.inf))
             for d in datasets for q in queries if (d, q, "R2T") in ok.index]
    claims.add("R2T beats NT and SDE in every case (share)", paper=1.0, ours=float(np.mean(beats)) if beats else float("nan"),
               rule=close(1.0, atol=0), cause=pooled_cause)
    ratio = summary.set_index(["dataset", "query", "mechanism"])["error_over_DS"]
    ran = set(summary.set_index(["dataset", "query", "mechanism"]).index)
    for k, d in enumerate(reference.DATASETS):
        for mech, label in (("R2T", "R2T"), ("OPT2", "OPT²")):
            paper = reference.ERR_OVER_DS_EDGE[mech][k]
            if (d, "edge", mech) in ok.index:
                # two-sided band: the printed value's rounding (one decimal) + 3 Monte-Carlo SEs of our error/DS
                c = cell.loc[(d, "edge", mech)]
                se = _cell_se(runs, d, "edge", mech) / float(c.DS) if c.DS else float("nan")
                stand_in = str(c.source) != "real"
                claims.add(f"Q1- {label} error/DS on {d} (scale-free, spec 5.3)", paper=paper, ours=float(ratio[(d, "edge", mech)]),
                           rule=band(str(paper), se=se if math.isfinite(se) else 0.0),
                           cause=FULL_SIZE_CAUSE[d] if full[d] else
                           f"stand-in:{d} (synthetic, answer/DS {float(c.answer) / float(c.DS):.3g})" if stand_in else "",
                           note="" if math.isfinite(se) else "no per-run rows: SE taken as 0")
            elif (d, "edge", mech) in ran:  # run but over this profile's size/time limit: say so instead of dropping it
                claims.add(f"Q1- {label} error/DS on {d} (scale-free, spec 5.3)", paper=paper, ours=float("nan"),
                           rule=not_comparable("OT: over this profile's size/time limit"),
                           cause="scale:over this profile's size/time limit (OT)")
    nt = summary[(summary.mechanism == "NT") & (summary.status == "ok")]
    paper_nt = [v for q in reference.TABLE2_REL_ERR for v in reference.TABLE2_REL_ERR[q]["NT"] if v is not None]
    claims.add("NT error exceeds the query result (relative error > 100 %): share of cases", paper=round(float(np.mean(np.array(paper_nt) > 100)), 2),
               ours=float(np.mean(nt.rel_error_pct > 100)) if len(nt) else float("nan"), rule=at_least(0.5, strict=True),
               cause=pooled_cause, note="pass when more than half of the cases")


@claim_defaults("artifact", cause="stand-in:amazon2 (synthetic sample at laptop scale)")
def tab03_fixed_tau(claims: Claims, fixed: pd.DataFrame, mech_error: pd.Series, *, queries: Sequence[str],
                    full_size: bool = False, runs: pd.DataFrame | None = None) -> None:
    """Table 3 (LP mechanism with a fixed τ vs R2T/OPT², Amazon2). ``mech_error`` is indexed by (query, mechanism).

    On a sample the ratios to the best fixed τ are judged within a factor 2. With ``full_size`` (the stand-in at
    Amazon2's 335k nodes) every number Table 3 prints is judged two-sided: the ratios by their propagated rounding +
    3 Monte-Carlo SEs, the absolute errors of R2T, OPT², the random-τ LP and each fixed τ by their rounding + 3 SEs
    (``runs``: one row per repetition of R2T/OPT²/LP; ``fixed["se"]``: the fixed τ's SE).
    """
    fixed = fixed.reset_index(drop=True)  # one row per (query, k): concatenated tables repeat index labels
    all_fixed = fixed
    fixed = fixed[np.isfinite(fixed.error.astype(float))]  # τ values over the profile's time limit (OT) have no error
    best = fixed.loc[fixed.groupby("query").error.idxmin()].set_index("query")
    paper_best_k = {q: int(np.argmin(reference.TABLE3[q]["fixed"])) + 1 for q in reference.TABLE3}
    full_cause = "stand-in:amazon2 (synthetic Holme–Kim at Amazon2's 335k nodes)"
    claims.add("no single fixed τ is best for all queries (number of distinct best k)", paper=len(set(paper_best_k.values())),
               ours=int(best.k.nunique()), rule=at_least(2), note="pass when ≥ 2", cause=full_cause if full_size else "")

    def se_of(q, mech):
        if mech == "fixed":
            return float(best.loc[q, "se"]) if "se" in best.columns else float("nan")
        return _runs_se(runs, query=q, mechanism=mech)

    for q in queries:
        for mech, label, paper in (("R2T", "R2T", TABLE3_R2T_OVER_BEST[q]), ("OPT2", "OPT²", TABLE3_OPT2_OVER_BEST[q])):
            v = _ratio(mech_error.get((q, mech), np.nan), best.loc[q, "error"]) if q in best.index else float("nan")
            if not math.isfinite(v):
                claims.add(f"{q}: {label} error / best fixed-τ error", paper=round(paper, 2), ours=v,
                           rule=not_comparable(f"{label} or every fixed τ over this profile's size/time limit (OT)"),
                           cause="scale:OT here (per-run time limit or LP-size cap), not in the paper" if full_size else "")
                continue
            if full_size:
                p_num, p_den = reference.TABLE3[q][mech], min(reference.TABLE3[q]["fixed"])
                s_num, s_den = se_of(q, mech), se_of(q, "fixed")
                claims.add(f"{q}: {label} error / best fixed-τ error", paper=round(paper, 2), ours=v,
                           rule=_ratio_band(p_num, p_den, float(mech_error[(q, mech)]), s_num if math.isfinite(s_num) else 0.0,
                                            float(best.loc[q, "error"]), s_den if math.isfinite(s_den) else 0.0),
                           cause=full_cause, note="two-sided: the ratio's rounding + 3 Monte-Carlo SE")
                continue
            claims.add(f"{q}: {label} error / best fixed-τ error", paper=round(paper, 2), ours=v, rule=between(paper / 2, paper * 2),
                       note="pass within a factor 2 of the paper's ratio")
        if not full_size:
            continue
        # the absolute errors Table 3 prints (Amazon2, ε = 0.8): R2T, OPT², LP with a random τ, and each fixed τ
        for mech, label, paper in (("R2T", "R2T", reference.TABLE3[q]["R2T"]), ("OPT2", "OPT²", reference.TABLE3[q]["OPT2"]),
                                   ("LP", "LP (random τ)", reference.TABLE3[q]["random"])):
            ours = float(mech_error.get((q, mech), np.nan))
            if not math.isfinite(ours):
                claims.add(f"{q}: {label} absolute error (Table 3)", paper=paper, ours=ours,
                           rule=not_comparable("OT here: over this profile's per-run time limit or LP-size cap"),
                           cause="scale:OT here (per-run time limit or LP-size cap), not in the paper")
                continue
            se = se_of(q, mech)
            claims.add(f"{q}: {label} absolute error (Table 3)", paper=paper, ours=ours,
                       rule=band(_printed(paper), se=se if math.isfinite(se) else 0.0), cause=full_cause,
                       note="two-sided: the printed rounding + 3 Monte-Carlo SE")
        for k, paper in enumerate(reference.TABLE3[q]["fixed"], start=1):
            row = all_fixed[(all_fixed["query"] == q) & (all_fixed.k == k)]
            if row.empty:
                continue
            ours, se = float(row.error.iloc[0]), float(row.se.iloc[0]) if "se" in row.columns else float("nan")
            text = f"{q}: fixed τ = GS/8^{k} absolute error (Table 3)"
            if not math.isfinite(ours):
                claims.add(text, paper=paper, ours=ours, rule=not_comparable("OT here: over this profile's per-run time limit or LP-size cap"),
                           cause="scale:OT here (per-run time limit or LP-size cap), not in the paper")
                continue
            claims.add(text, paper=paper, ours=ours, rule=band(_printed(paper), se=se if math.isfinite(se) else 0.0),
                       cause=full_cause, note="two-sided: the printed rounding + 3 Monte-Carlo SE")


@claim_defaults("check", cause="open:early-stop pruning")
def tab04_early_stop(claims: Claims, table4: pd.DataFrame, *, full_size: Mapping[str, bool] | None = None) -> None:
    """Table 4 (early stop).

    "R2T early stop never solves more LPs" is gone: pruning only skips LPs, so it could not fail
    (issue 13). It is replaced by "early stop skips LPs" (it can skip none), and the speed-up is
    judged against the paper's 4.9–99× instead of "≥ 1".
    """
    ok = table4[table4.status == "ok"]
    # only where both runs finished can the outputs be compared (a run without early stop over the limit has none)
    claims.add("early stop changes no output (runs identical to the unpruned run)", paper=len(ok),
               ours=int(ok.identical_output.sum()), rule=equals(len(ok)),
               note=f"{len(ok)} runs" + (f"; {len(table4) - len(ok)} with a run over the limit (OT) left out" if len(ok) < len(table4) else ""))
    r2t_rows = ok[ok.mechanism == "R2T"]
    claims.add("R2T early stop skips LPs (smallest LPs-with / LPs-without over datasets)", paper="< 1",
               ours=float((r2t_rows.LPs_with / r2t_rows.LPs_without).min()) if len(r2t_rows) else float("nan"),
               rule=at_most(1, strict=True))
    social = r2t_rows[r2t_rows.dataset.isin(["deezer", "amazon1", "amazon2"])]
    with_t, without_t = reference.TABLE4["R2T"]["with"][:3], reference.TABLE4["R2T"]["without"][:3]
    paper = [w / v for v, w in zip(with_t, without_t)]
    claims.add("R2T speed-up from early stop on social graphs (largest over datasets)", paper=f"{min(paper):.2g}–{max(paper):.2g}×",
               ours=float(social.speedup.max()) if len(social) else float("nan"), rule=between(min(paper), max(paper)),
               source="paper", cause="open:HiGHS with exact bound pruning vs the paper's CPLEX early stop (spec 2.7)",
               note="paper: CPLEX dual simplex stopped early; ours: exact bound pruning with HiGHS (spec 2.7)")
    if full_size:
        _tab04_full_size(claims, table4, full_size)


def _tab04_full_size(claims: Claims, table4: pd.DataFrame, full_size: Mapping[str, bool]) -> None:
    """Table 4 per dataset at full size: R2T's speed-up from early stop (time without / with) against the paper's.

    A timing ratio has no Monte-Carlo SE, and the solvers differ (HiGHS with certified dual iterates here, CPLEX's dual
    simplex there): judged within a factor 2 of the paper's ratio. Where the run without early stop is over the per-run
    limit (OT) the speed-up is only bounded below (limit / time with): judged ≥ the paper's ratio / 2.
    """
    r2t_rows = table4[table4.mechanism == "R2T"]
    for k, d in enumerate(reference.DATASETS):
        if not full_size.get(d) or d not in set(r2t_rows.dataset):
            continue
        row = r2t_rows[r2t_rows.dataset == d].iloc[0]
        p_with, p_without = reference.TABLE4["R2T"]["with"][k], reference.TABLE4["R2T"]["without"][k]
        paper = p_without / p_with
        text = f"Table 4: R2T speed-up from early stop on {d} (time without / with, Q□, whole graph)"
        cause = FULL_SIZE_CAUSE[d] + "; HiGHS with certified dual iterates vs CPLEX (spec 2.7)"
        lower = float(row.get("speedup_at_least", float("nan")))
        if math.isfinite(float(row.speedup)):
            claims.add(text, paper=round(paper, 2), ours=float(row.speedup), rule=between(paper / 2, paper * 2), source="paper",
                       cause=cause, note=f"paper {p_without:g} s / {p_with:g} s; pass within a factor 2")
        elif math.isfinite(lower):
            claims.add(text + ", at least", paper=round(paper, 2), ours=lower, rule=at_least(paper / 2), source="paper",
                       cause=cause, note=f"without early stop OT: speed-up ≥ per-run limit / time with; paper {p_without:g} s / "
                                         f"{p_with:g} s; pass when ≥ half the paper's ratio")
        else:
            claims.add(text, paper=round(paper, 2), ours=float("nan"),
                       rule=not_comparable("R2T with early stop over this profile's per-run limit (OT)"), source="paper",
                       cause="scale:OT here under this profile's per-run limit, not in the paper")


@claim_defaults("paper", cause="scale:TPC-H SF below the paper's SF 1")
def tab05_tpch(claims: Claims, summary: pd.DataFrame, *, sf: float, queries: Sequence[str], runs: pd.DataFrame | None = None) -> None:
    """Table 5 (TPC-H at the profile's scale factor).

    LS / R2T is the ratio of two numbers Table 5 prints (at SF 1): judged two-sided (the ratio's rounding + 3
    Monte-Carlo SEs, ``runs`` one row per repetition), and not comparable below SF 1 (LS's error grows with the SF,
    R2T's hardly: the ratio is a scale effect).
    """
    from ..experiments.claims import Scale

    e = summary.set_index(["query", "mechanism"])["error"]
    for name in ("Q3", "Q12", "Q20"):
        p_r2t, p_ls = reference.TABLE5[name][1], reference.TABLE5[name][3]
        claims.add(f"{name}: R2T beats LS by orders of magnitude (LS / R2T error)", paper=round(p_ls / p_r2t, 1),
                   ours=_ratio(e[(name, "LS")], e[(name, "R2T")]),
                   rule=_ratio_band(p_ls, p_r2t, e[(name, "LS")], _runs_se(runs, query=name, mechanism="LS"),
                                    e[(name, "R2T")], _runs_se(runs, query=name, mechanism="R2T")),
                   scale=Scale("SF", sf, 1.0))
        if sf in reference.FIG8_SF:
            ref = reference.FIG8[name]["R2T"][reference.FIG8_SF.index(sf)]
            se = _runs_se(runs, query=name, mechanism="R2T-5.5")
            ours55 = float(e[(name, "R2T-5.5")])
            # the authors' number is itself a trimmed mean of 10 runs: its SE is estimated by the spread of their Fig. 8
            # values over the 7 SFs, where R2T's error is flat (anchors §5: Q12 1,170–1,420; Q20 32,570–38,952)
            se_art = float(np.std(reference.FIG8[name]["R2T"], ddof=1))
            both = float(np.hypot(se if math.isfinite(se) else 0.0, se_art))
            within = math.isfinite(ours55) and abs(ours55 - ref) <= 3 * both
            cause = (f"noise:SE {se:,.0f} (ours, trimmed mean of {repetitions_of(runs, name)} runs) and {se_art:,.0f} (the authors' "
                     f"trimmed mean, its spread over Fig. 8's 7 SFs): |ours − theirs| = {abs(ours55 - ref):,.0f} ≤ 3 × {both:,.0f}"
                     if within and math.isfinite(se) else
                     "noise:trimmed mean of few runs" if sf >= 1 else "open:R2T-5.5 level at a reduced SF")
            claims.add(f"{name}: R2T (base 5.5 as in the authors' code) absolute error at SF {sf:g} (Fig. 8 / Table 5 data)",
                       paper=ref, ours=ours55, rule=band(str(ref), se=se if math.isfinite(se) else 0.0),
                       source="artifact", cause=cause)
        else:
            claims.add(f"{name}: R2T (base 5.5) absolute error (paper at SF 1)", paper=reference.TABLE5_ABS_R2T[name],
                       ours=float(e[(name, "R2T-5.5")]), rule=not_comparable(f"ours at SF {sf:g}, the paper's at SF 1"),
                       source="artifact", cause=f"scale:SF {sf:g} < 1")
    both = [(n, e[(n, "OPT2")] <= e[(n, "R2T")]) for n in queries if (n, "OPT2") in e.index and np.isfinite(e[(n, "OPT2")])]
    claims.add("OPT² error ≤ R2T error on every query where it ran (share)", paper=1.0,
               ours=float(np.mean([b for _, b in both])) if both else float("nan"), rule=close(1.0, atol=0.1))


@claim_defaults("paper", cause="open:TPC-H headline differs (the generator or the query text)")
def tab05_headline(claims: Claims, head: pd.DataFrame, *, sf: float, epsilon: float, repetitions: int,
                   runs: pd.DataFrame | None = None) -> None:
    """Table 5's relative errors of Q3 and Q12 at SF 1 (R2T-5.5, the authors' base), two-sided: the printed rounding
    + 3 Monte-Carlo SEs of ours (``runs`` one row per repetition); not comparable at other SFs."""
    hs = head.set_index(["query", "mechanism"])["rel_error_pct"]
    answers = head.set_index(["query", "mechanism"])["answer"]
    for name in ("Q3", "Q12"):
        paper = reference.TABLE5[name][1]
        note = f"SF {sf:g}, {repetitions} runs, trimmed mean; base-2 R2T: {float(hs[(name, 'R2T')]):.4g} %"
        if sf == 1.0:
            se = 100 * _runs_se(runs, query=name, mechanism="R2T-5.5") / float(answers[(name, "R2T-5.5")])
            claims.add(f"Table 5: {name} R2T relative error % at SF 1, ε = {epsilon:g} (R2T-5.5, the authors' base)", paper=paper,
                       ours=float(hs[(name, "R2T-5.5")]), rule=band(str(paper), se=se if math.isfinite(se) else 0.0),
                       cause=f"noise:SE {se:.3g} % over {repetitions} runs" if math.isfinite(se) else "open:no per-run SE",
                       note=note + "; two-sided: rounding + 3 Monte-Carlo SE")
        else:
            claims.add(f"Table 5: {name} R2T relative error % (paper at SF 1)", paper=paper, ours=float(hs[(name, "R2T-5.5")]),
                       rule=not_comparable(f"{note}; Q is ~{1 / sf:g}× smaller than at SF 1"), cause=f"scale:SF {sf:g} < 1")


@claim_defaults("check", cause="open:R2T teaching instance")
def learn_race_to_the_top(claims: Claims, stats: pd.DataFrame, *, beta: float, log2_gs: int) -> None:
    """Teaching notebook: R2T against naive Laplace (GS/ε) and R2T's one-sidedness over many seeded runs."""
    claims.add(f"R2T median |error| / naive Laplace (GS/ε) median |error| at GS = 2^{log2_gs}", paper="≪ 1",
               ours=_ratio(stats.loc["R2T", "median |error|"], stats.loc["naive Laplace", "median |error|"]),
               rule=at_most(1, strict=True),
               note="pass when < 1; a well-chosen fixed τ can beat R2T on one instance, but no fixed τ is good for all (Table 3)")
    claims.add("R2T never overestimates (share of runs ≤ Q)", paper=f"≥ {1 - beta:g}", ours=float(stats.loc["R2T", "share ≤ Q"]),
               rule=at_least(1 - beta))


@claim_defaults("check", cause="open:theorem bound violated on a teaching instance")
def learn_theorem_bounds(claims: Claims, bounds: pd.DataFrame, *, beta: float, ls_share: float, tau: float, jump_naive: float,
                         jump_lp: float) -> None:
    """Teaching notebook: Theorems 5.1 / 6.8, §7's LS lower bound and Example 1.2."""
    n = len(bounds)
    claims.add("R2T error within Thm 5.1 bound at level 1−β (instances)", paper=n,
               ours=int((bounds["R2T err quantile 1-β"] <= bounds["Thm 5.1 bound"]).sum()), rule=equals(n), note=f"{n} instances")
    claims.add("OPT² error within Thm 6.8 bound at level 1−β (instances)", paper=n,
               ours=int((bounds["OPT² err quantile 1-β"] <= bounds["Thm 6.8 bound"]).sum()), rule=equals(n), note=f"{n} instances")
    claims.add("R2T one-sided: P[output ≤ Q] ≥ 1−β (smallest over instances)", paper=1 - beta,
               ours=float(bounds["R2T P[out ≤ Q]"].min()), rule=at_least(1 - beta))
    lb = 1 / (8 * math.e**2)
    claims.add("LS: P[error ≥ GS/(6ε ln(4e GS))] ≥ 1/(8e²)", paper=lb, ours=float(ls_share), rule=at_least(lb))
    claims.add("Ex. 1.2: naive truncation changes by more than τ on neighbours", paper=f"> {tau:g}", ours=float(jump_naive),
               rule=at_least(tau, strict=True))
    claims.add("LP truncation changes by at most τ on the same neighbours", paper=f"≤ {tau:g}", ours=float(jump_lp),
               rule=at_most(tau + 1e-9))


__all__ = ["fig02_worked_example", "fig07_epsilon_sweep", "fig08_scalability", "fig09_gs_dependency", "learn_race_to_the_top",
           "learn_theorem_bounds", "tab01_datasets", "tab02_graph_queries", "tab03_fixed_tau", "tab04_early_stop", "tab05_headline",
           "tab05_tpch"]
