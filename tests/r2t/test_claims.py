"""The R2T claims (dpworkbench.r2t.claims) on small hand-made inputs on both sides of each rule."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from dpworkbench.experiments.claims import Claims, flip_value, reevaluate
from dpworkbench.r2t import claims, example, reference


def verdicts(c: Claims) -> dict[str, str]:
    return {row.claim: row.verdict for row in c.rows}


def every_claim_can_flip(c: Claims) -> None:
    for row in c.rows:
        d = {"claim": row.claim, "our_value": row.our_value, "value": row.value, "rule": row.rule, "verdict": row.verdict}
        assert row.rule, f"{row.claim}: no rule"
        if row.rule["kind"] == "not_comparable":
            continue
        assert reevaluate(d, flip_value(d)) != row.verdict, row.claim


def one(c: Claims, text: str) -> str:
    hits = [r.verdict for r in c.rows if text in r.claim]
    assert len(hits) == 1, (text, [r.claim for r in c.rows])
    return hits[0]


# --- fig02 ---------------------------------------------------------------------------------------
def _fig02_inputs(q_shift=0.0, r2t_value=9440.2, opt_tau=8.0, exp_correct_tau=8.0):
    table = pd.DataFrame({"tau": list(example.TAUS),
                          "Q(I,τ) LP": [example.Q_TAU[t] + q_shift for t in example.TAUS],
                          "F̂(I,τ)": [example.FHAT_TAU[t] for t in example.TAUS],
                          "F(I,τ) exact": [example.F_TAU_CORRECT[t] for t in example.TAUS]})
    runs = {"r2t": SimpleNamespace(value=r2t_value), "opt2": SimpleNamespace(tau=opt_tau, value=9912.0),
            "exp_opt2_printed": SimpleNamespace(tau=16.0), "exp_opt2_correct": SimpleNamespace(tau=exp_correct_tau)}
    return table, runs


def test_fig02_passes_on_the_papers_numbers_and_flags_the_wrong_example():
    c = Claims()
    claims.fig02_worked_example(c, *_fig02_inputs(), r2t_share_below=0.95, beta=0.1)
    v = verdicts(c)
    assert v["Q(I,τ=2) by LP truncation"] == "pass" and v["R2T output with scripted noise (Ex. 5.2)"] == "pass"
    assert v["F(I,τ=2) exact vs Ex. 6.3 as printed"] == "differs"      # the paper's Ex. 6.3 is wrong (spec 6.1 #8)
    assert v["F(I,τ=32) exact vs Ex. 6.3 as printed"] == "pass"        # 8103 in both
    assert v["ExpOPT² τ̃ with the correct F"] == "differs"             # 8, not the paper's 16
    assert one(c, "never overestimates") == "pass"
    every_claim_can_flip(c)


def test_fig02_fails_on_wrong_values():
    c = Claims()
    claims.fig02_worked_example(c, *_fig02_inputs(q_shift=1.0, r2t_value=9450.0, opt_tau=16.0, exp_correct_tau=16.0),
                                r2t_share_below=0.85, beta=0.1)
    v = verdicts(c)
    assert v["Q(I,τ=2) by LP truncation"] == "differs"
    assert v["R2T output with scripted noise (Ex. 5.2)"] == "differs"
    assert v["OPT² τ̃ with scripted noise (Ex. 6.7)"] == "differs"
    assert v["ExpOPT² τ̃ with the correct F"] == "pass"
    assert one(c, "never overestimates") == "differs"


# --- fig07 ---------------------------------------------------------------------------------------
def _fig07_summary(r2t_lo_factor=1.0, lp_lo_factor=1.0, nt=1e9, r2t_08=176.0):
    """Fig. 7's summary at the authors' repository values (ε = 0.1, 0.8, 12.8), the ε = 0.1 ends scaled by a factor."""
    rows = []
    for q in ("edge", "path2", "triangle", "rectangle"):
        ys = reference.FIG7[q]["R2T"] if q in reference.FIG7 else (1000.0,) + (20.0,) * 7
        rows += [{"query": q, "mechanism": "R2T", "epsilon": 0.1, "error": ys[0] * r2t_lo_factor},
                 {"query": q, "mechanism": "R2T", "epsilon": 0.8, "error": r2t_08},
                 {"query": q, "mechanism": "R2T", "epsilon": 12.8, "error": ys[-1]},
                 {"query": q, "mechanism": "NT", "epsilon": 0.8, "error": nt},
                 {"query": q, "mechanism": "SDE", "epsilon": 0.8, "error": nt}]
    lp = reference.FIG7["edge"]["LP"]
    rows += [{"query": "edge", "mechanism": "LP", "epsilon": 0.1, "error": lp[0] * lp_lo_factor},
             {"query": "edge", "mechanism": "LP", "epsilon": 12.8, "error": lp[-1]}]
    return pd.DataFrame(rows)


@pytest.mark.parametrize("good", [True, False])
def test_fig07_both_sides(good):
    s = _fig07_summary() if good else _fig07_summary(r2t_lo_factor=0.1, lp_lo_factor=5.0, nt=10.0, r2t_08=500.0)
    c = Claims()
    claims.fig07_epsilon_sweep(c, s, {q: 1e6 for q in ("edge", "path2", "triangle", "rectangle")}, eps_grid=[0.1, 0.8, 12.8],
                               stand_in_ds=8)
    expected = "pass" if good else "differs"
    assert set(verdicts(c).values()) == {expected}
    assert len(c.rows) == 7  # R2T's ratio on each of the four queries, LP's, NT/SDE > Q, R2T's level on edges
    every_claim_can_flip(c)


def test_fig07_ratios_are_two_sided():
    """A ratio far above the authors' fails too: "does not fall" (LP) and "falls" (R2T) are judged on the number."""
    c = Claims()
    claims.fig07_epsilon_sweep(c, _fig07_summary(r2t_lo_factor=10.0, lp_lo_factor=0.2), {"edge": 1e6}, eps_grid=[0.1, 0.8, 12.8],
                               stand_in_ds=8)
    v = verdicts(c)
    assert v["edge: R2T error falls with ε (error(ε=0.1) / error(ε=12.8))"] == "differs"  # falls 10× more than the paper's
    assert v["edge: LP error does not fall with ε (error(ε_min) / error(ε_max); random-τ bias dominates)"] == "differs"
    assert {r.source for r in c.rows if "falls" in r.claim or "LP" in r.claim} == {"artifact"}


# --- fig08 ---------------------------------------------------------------------------------------
def _fig08(r2t_ratio: float, ls_ratio: float, t_ratio: float, hi: float = 0.5):
    rows, times = [], []
    for q in ("Q3", "Q12", "Q20"):
        for sf, f in ((0.125, 1.0), (hi, None)):
            # R2T at the authors' numbers for that SF (0.5's off their grid), the top SF's scaled by r2t_ratio
            paper = reference.FIG8[q]["R2T"][reference.FIG8_SF.index(sf if sf in reference.FIG8_SF else 0.5)]
            rows.append({"query": q, "mechanism": "R2T", "sf": sf, "error": paper * (1.0 if f else r2t_ratio)})
            rows.append({"query": q, "mechanism": "LS", "sf": sf, "error": 1e5 * (1.0 if f else ls_ratio)})
            times.append({"query": q, "mechanism": "R2T", "sf": sf, "seconds": 1.0 if f else t_ratio})
    return pd.DataFrame(rows), pd.DataFrame(times)


def test_fig08_both_sides():
    c = Claims()
    claims.fig08_scalability(c, *_fig08(1.0, 3.0, 3.5), sf_grid=[0.125, 0.25, 0.5], queries=["Q3", "Q12", "Q20"])
    assert set(verdicts(c).values()) == {"pass"}
    every_claim_can_flip(c)
    c = Claims()
    claims.fig08_scalability(c, *_fig08(10.0, 0.5, 0.9), sf_grid=[0.125, 0.25, 0.5], queries=["Q3", "Q12", "Q20"])
    assert set(verdicts(c).values()) == {"differs"}
    c = Claims()  # "barely changes" is two-sided: a ratio well below the authors' fails too
    claims.fig08_scalability(c, *_fig08(0.5, 3.0, 3.5), sf_grid=[0.125, 0.25, 0.5], queries=["Q3", "Q12", "Q20"])
    assert {v for k, v in verdicts(c).items() if "barely changes" in k} == {"differs"}
    c = Claims()  # off the paper's SF grid: not comparable, the grid in its cause
    claims.fig08_scalability(c, *_fig08(1.0, 3.0, 3.5, hi=0.3), sf_grid=[0.125, 0.3], queries=["Q3"])
    (r,) = [r for r in c.rows if "barely changes" in r.claim]
    assert r.verdict == "not-comparable" and r.cause.startswith("scale:SF 0.125–0.3")


# --- fig09 ---------------------------------------------------------------------------------------
def _fig09(r2t_growth: float, ls_top: float, opt2_level: float):
    """R2T's errors at GS 1e4 and 1e11: the authors' repository values, the top one scaled by ``r2t_growth``."""
    rows = []
    for q in ("Q3", "Q12"):
        ys = reference.FIG9[q]["R2T"]
        for gs, k in ((1e4, 0), (1e11, 1)):
            rows += [{"query": q, "mechanism": "R2T", "gs": gs, "error": ys[-1] * r2t_growth if k else ys[0]},
                     {"query": q, "mechanism": "LS", "gs": gs, "error": ls_top if k else 100.0},
                     {"query": q, "mechanism": "OPT2", "gs": gs, "error": opt2_level}]
    return pd.DataFrame(rows)


def test_fig09_both_sides():
    answers = {"Q3": 1e6, "Q12": 1e6}
    c = Claims()
    claims.fig09_gs_dependency(c, _fig09(1.0, 1e8, 50.0), answers, gs_grid=[1e4, 1e11], queries=["Q3", "Q12"])
    assert set(verdicts(c).values()) == {"pass"} and len(c.rows) == 6
    assert not any("independent of GS" in r.claim for r in c.rows)  # removed: OPT² never reads GS (issue 13)
    every_claim_can_flip(c)
    c = Claims()
    claims.fig09_gs_dependency(c, _fig09(30.0, 1e3, 1e9), answers, gs_grid=[1e4, 1e11], queries=["Q3", "Q12"])
    assert set(verdicts(c).values()) == {"differs"}
    c = Claims()  # "grows slowly" is two-sided: growing less than the paper's ratio fails as well
    claims.fig09_gs_dependency(c, _fig09(0.5, 1e8, 50.0), answers, gs_grid=[1e4, 1e11], queries=["Q3", "Q12"])
    assert {v for k, v in verdicts(c).items() if "grows slowly" in k} == {"differs"}


# --- tab01 ---------------------------------------------------------------------------------------
def _tab01(real_max: int, road_max: int):
    return pd.DataFrame([
        {"dataset": "enron", "source": "real", "nodes": 300, "max degree (= DS of Q1-)": real_max, "degree bound D": 1400},
        {"dataset": "roadnet_pa", "source": "synthetic", "nodes": 600, "max degree (= DS of Q1-)": road_max, "degree bound D": 16,
         "paper nodes": 1088092},
        {"dataset": "amazon2", "source": "synthetic", "nodes": 400, "max degree (= DS of Q1-)": 549, "degree bound D": 549,
         "paper nodes": 334863}])


def test_tab01_claims_only_what_can_fail():
    c = Claims()
    claims.tab01_datasets(c, _tab01(real_max=1383, road_max=8))
    v = verdicts(c)
    assert v["enron (real): max degree ≤ degree bound D (utility assumption, spec 2.2)"] == "pass"
    assert v["roadnet_pa stand-in: max degree vs the paper's"] == "pass"
    assert not any("amazon2" in k and "max degree" in k for k in v)  # capped at D by construction: no claim
    assert v["amazon2: stand-in vs paper node count"] == "not-comparable"
    every_claim_can_flip(c)
    c = Claims()
    claims.tab01_datasets(c, _tab01(real_max=2000, road_max=16))
    v = verdicts(c)
    assert v["enron (real): max degree ≤ degree bound D (utility assumption, spec 2.2)"] == "differs"
    assert v["roadnet_pa stand-in: max degree vs the paper's"] == "differs"


# --- tab02 ---------------------------------------------------------------------------------------
def _tab02(opt2_factor: float, r2t_err: float, nt_rel: float, *, r2t_rel: float = 1.0, estimate: float = 1.0,
           answer_over_ds: float = 2000.0):
    """A Table 2 summary and its per-run rows (5 identical runs per cell: Monte-Carlo SE 0)."""
    rows, runs = [], []
    for k, d in enumerate(("deezer", "amazon2")):
        i = reference.DATASETS.index(d)
        ds = 100.0
        for mech, err in (("R2T", reference.ERR_OVER_DS_EDGE["R2T"][i] * ds * r2t_err),
                          ("OPT2", reference.ERR_OVER_DS_EDGE["OPT2"][i] * ds * opt2_factor),
                          ("NT", 1e6), ("SDE", 1e6)):
            rows.append({"dataset": d, "query": "edge", "mechanism": mech, "error": err, "error_over_DS": err / ds,
                         "rel_error_pct": nt_rel if mech == "NT" else (r2t_rel if mech == "R2T" else 1.0), "status": "ok",
                         "answer": answer_over_ds * ds, "DS": ds, "source": "real"})
            runs += [{"dataset": d, "query": "edge", "mechanism": mech, "rep": r, "abs_error": err,
                      "estimate": estimate if mech == "R2T" else 1.0, "status": "ok"} for r in range(5)]
    return pd.DataFrame(rows), pd.DataFrame(runs)


def test_tab02_both_sides():
    c = Claims()
    summary, runs = _tab02(1.0, 1.0, 500.0)
    claims.tab02_graph_queries(c, summary, datasets=["deezer", "amazon2"], queries=["edge"], runs=runs)
    assert set(verdicts(c).values()) == {"pass"} and len(c.rows) == 10
    assert {r.source for r in c.rows} == {"paper"}
    every_claim_can_flip(c)
    c = Claims()
    summary, runs = _tab02(1e6, 1e5, 50.0, r2t_rel=50.0, estimate=0.0)
    claims.tab02_graph_queries(c, summary, datasets=["deezer", "amazon2"], queries=["edge"], runs=runs)
    assert set(verdicts(c).values()) == {"differs"}
    assert all(r.cause for r in c.rows)  # every difference carries a cause
    # a printed error/DS just outside rounding + 3 SE fails on either side (band, two-sided)
    for factor in (1.05, 0.95):
        c = Claims()
        summary, runs = _tab02(1.0, factor, 500.0)
        claims.tab02_graph_queries(c, summary, datasets=["deezer", "amazon2"], queries=["edge"], runs=runs)
        assert verdicts(c)["Q1- R2T error/DS on deezer (scale-free, spec 5.3)"] == "differs"  # 10.8 ± 0.05 (SE 0)


def test_tab02_headline_is_not_comparable_below_its_scale():
    c = Claims()
    summary, runs = _tab02(1.0, 1.0, 500.0, r2t_rel=60.0, answer_over_ds=33.0)  # the quick samples' answer/DS
    claims.tab02_graph_queries(c, summary, datasets=["deezer", "amazon2"], queries=["edge"], runs=runs)
    heads = [r for r in c.rows if r.claim.startswith("Table 2: R2T relative error < 20 %")]
    assert len(heads) == 2 and {r.verdict for r in heads} == {"not-comparable"}
    assert all(r.cause.startswith("scale:answer/DS 33 <") for r in heads)


def _tab02_full(factor: float, *, sde_ot: bool = False, answer_over_ds: float = 33.0):
    """Table 2 on whole graphs: every printed Q1- cell at the paper's relative error × ``factor`` (5 identical runs:
    SE 0); answer/DS deliberately small, to show the scale rule no longer applies at full size."""
    rows, runs = [], []
    for d in ("deezer", "amazon2"):
        i = reference.DATASETS.index(d)
        ds = 100.0
        answer = answer_over_ds * ds
        for mech in ("R2T", "OPT2", "NT", "SDE", "LP", "RM"):
            paper = reference.TABLE2_REL_ERR["edge"][mech][i]
            ot = mech == "RM" or (sde_ot and mech == "SDE")
            rel = float("nan") if ot else paper * factor
            err = rel * answer / 100
            rows.append({"dataset": d, "query": "edge", "mechanism": mech, "error": err, "error_over_DS": err / ds,
                         "rel_error_pct": rel, "status": "OT" if ot else "ok", "answer": answer, "DS": ds, "source": "real"})
            if not ot:
                runs += [{"dataset": d, "query": "edge", "mechanism": mech, "rep": r, "abs_error": err, "estimate": answer - err,
                          "status": "ok"} for r in range(5)]
    return pd.DataFrame(rows), pd.DataFrame(runs)


def test_tab02_full_size_compares_every_printed_cell_two_sided():
    full = {"deezer": True, "amazon2": True}
    c = Claims()
    summary, runs = _tab02_full(1.0, sde_ot=True)
    claims.tab02_graph_queries(c, summary, datasets=["deezer", "amazon2"], queries=["edge"], runs=runs, full_size=full,
                               ot_reasons={"SDE": "distance LP over the limit (measured)"})
    cells = {r.claim: r for r in c.rows if "(whole graph)" in r.claim}
    # R2T, OPT², NT, LP on both datasets are printed numbers; SDE is OT here (not in the paper); RM is OT in the paper
    assert {k.split(" relative")[0] for k in cells} == {"Table 2: R2T", "Table 2: OPT²", "Table 2: NT", "Table 2: LP", "Table 2: SDE"}
    assert all(r.verdict == "pass" for k, r in cells.items() if "SDE" not in k)
    sde = [r for k, r in cells.items() if "SDE" in k]
    assert len(sde) == 2 and {r.verdict for r in sde} == {"not-comparable"}
    assert all(r.cause.startswith("scale:OT here") and "measured" in r.cause for r in sde)
    assert not any(r.claim.startswith("Table 2: RM") for r in c.rows)  # the paper's own OT: nothing to compare
    # the headline is judged at full size although answer/DS (33) is below the sample threshold
    heads = [r for r in c.rows if r.claim.startswith("Table 2: R2T relative error < 20 %")]
    assert len(heads) == 2 and {r.verdict for r in heads} == {"pass"}
    every_claim_can_flip(c)
    for factor in (1.05, 0.95):  # just outside the printed rounding (SE 0) on either side
        c = Claims()
        summary, runs = _tab02_full(factor)
        claims.tab02_graph_queries(c, summary, datasets=["deezer", "amazon2"], queries=["edge"], runs=runs, full_size=full)
        bands = [r for r in c.rows if "(whole graph)" in r.claim]
        assert len(bands) == 10 and {r.verdict for r in bands} == {"differs"}
        assert all(r.cause.startswith("stand-in:") for r in bands)  # the data is not the paper's, not a scale reduction
    # the same numbers on samples: no per-cell comparison, the scale rule stays
    c = Claims()
    summary, runs = _tab02_full(1.0)
    claims.tab02_graph_queries(c, summary, datasets=["deezer", "amazon2"], queries=["edge"], runs=runs)
    assert not any("(whole graph)" in r.claim for r in c.rows)
    assert {r.verdict for r in c.rows if r.claim.startswith("Table 2: R2T relative error < 20 %")} == {"not-comparable"}


# --- tab03 ---------------------------------------------------------------------------------------
def _tab03(best_k_same: bool, scale: float):
    fixed, mech = [], {}
    for j, q in enumerate(("edge", "triangle")):
        best_k = 2 if best_k_same else 2 + 3 * j
        for k in range(1, 8):
            fixed.append({"query": q, "k": k, "tau": 2.0**(20 - 3 * k), "error": 100.0 if k == best_k else 1000.0 + k})
        mech[(q, "R2T")] = 100.0 * claims.TABLE3_R2T_OVER_BEST[q] * scale
        mech[(q, "OPT2")] = 100.0 * claims.TABLE3_OPT2_OVER_BEST[q] * scale
    fixed = pd.DataFrame(fixed)
    fixed.index = fixed.index % 7  # as concatenated per-query tables: repeated index labels
    return fixed, pd.Series(mech)


def test_tab03_both_sides():
    c = Claims()
    claims.tab03_fixed_tau(c, *_tab03(False, 1.0), queries=["edge", "triangle"])
    assert set(verdicts(c).values()) == {"pass"} and len(c.rows) == 5
    every_claim_can_flip(c)
    c = Claims()
    claims.tab03_fixed_tau(c, *_tab03(True, 10.0), queries=["edge", "triangle"])
    assert set(verdicts(c).values()) == {"differs"}


def test_tab03_full_size_bands_on_every_printed_number():
    """At Amazon2's size every number Table 3 prints is judged two-sided; off by 5 % with SE 0 it differs."""
    def data(scale):
        fixed = []
        for q in ("edge", "triangle"):
            for k, v in enumerate(reference.TABLE3[q]["fixed"], start=1):
                fixed.append({"query": q, "k": k, "tau": 2.0 ** (20 - 3 * k), "error": v * scale, "se": 0.0, "status": "ok"})
        mech = {(q, m): reference.TABLE3[q][key] * scale for q in ("edge", "triangle")
                for m, key in (("R2T", "R2T"), ("OPT2", "OPT2"), ("LP", "random"))}
        return pd.DataFrame(fixed), pd.Series(mech)

    c = Claims()
    claims.tab03_fixed_tau(c, *data(1.0), queries=["edge", "triangle"], full_size=True)
    # 1 best-k claim + per query: 2 ratios, 3 mechanisms' absolute errors, 7 fixed τ
    assert len(c.rows) == 1 + 2 * (2 + 3 + 7) and set(verdicts(c).values()) == {"pass"}
    assert all(r.rule["kind"] == "band" for r in c.rows[1:])
    every_claim_can_flip(c)
    c = Claims()
    claims.tab03_fixed_tau(c, *data(1.05), queries=["edge", "triangle"], full_size=True)
    absolute = [r for r in c.rows if "absolute error" in r.claim]
    assert len(absolute) == 20 and {r.verdict for r in absolute} == {"differs"}
    assert all(r.cause.startswith("stand-in:amazon2") for r in absolute)


# --- tab04 ---------------------------------------------------------------------------------------
def _tab04(identical: bool, lps_with: int, speedup: float):
    return pd.DataFrame([{"dataset": d, "mechanism": "R2T", "identical_output": identical, "LPs_with": lps_with, "LPs_without": 10,
                          "speedup": speedup, "status": "ok"} for d in ("deezer", "amazon2")])


def test_tab04_speedup_is_judged_against_the_papers_range():
    c = Claims()
    claims.tab04_early_stop(c, _tab04(True, 4, 20.0))
    assert set(verdicts(c).values()) == {"pass"}
    assert not any("never solves more" in r.claim for r in c.rows)  # removed: could not fail (issue 13)
    every_claim_can_flip(c)
    c = Claims()
    claims.tab04_early_stop(c, _tab04(False, 10, 1.3))  # a 1.3× speed-up used to pass at "≥ 1"
    assert set(verdicts(c).values()) == {"differs"}


def test_tab04_full_size_per_dataset_speedups_and_the_ot_lower_bound():
    """Whole graphs: each dataset's R2T speed-up against the paper's (within a factor 2); when the run without early
    stop is OT only the lower bound (limit / time with) is judged, ≥ half the paper's ratio."""
    paper = {d: reference.TABLE4["R2T"]["without"][k] / reference.TABLE4["R2T"]["with"][k] for k, d in enumerate(reference.DATASETS)}
    rows = [{"dataset": "amazon1", "mechanism": "R2T", "identical_output": True, "LPs_with": 3, "LPs_without": 10,
             "speedup": paper["amazon1"], "speedup_at_least": float("nan"), "status": "ok"},
            {"dataset": "deezer", "mechanism": "R2T", "identical_output": True, "LPs_with": 3, "LPs_without": 0,
             "speedup": float("nan"), "speedup_at_least": 60.0, "status": "OT/ok"}]
    rows[1]["identical_output"] = False  # as experiments.early_stop_timing writes it: NaN output without early stop
    full = {"deezer": True, "amazon1": True}
    c = Claims()
    claims.tab04_early_stop(c, pd.DataFrame(rows), full_size=full)
    per = {r.claim: r for r in c.rows if r.claim.startswith("Table 4:")}
    assert len(per) == 2 and {r.verdict for r in per.values()} == {"pass"}
    assert any(k.endswith("at least") for k in per)
    every_claim_can_flip(c)
    rows[0]["speedup"], rows[1]["speedup_at_least"] = paper["amazon1"] * 3, 10.0  # 3× the paper's; bound below half of 99
    c = Claims()
    claims.tab04_early_stop(c, pd.DataFrame(rows), full_size=full)
    assert {r.verdict for r in c.rows if r.claim.startswith("Table 4:")} == {"differs"}
    same = [r for r in c.rows if r.claim.startswith("early stop changes no output")][0]
    assert same.our_value == 1 and same.verdict == "pass"  # the OT row (no output without early stop) is left out
    c = Claims()
    claims.tab04_early_stop(c, pd.DataFrame(rows))  # samples: no per-dataset claims
    assert not any(r.claim.startswith("Table 4:") for r in c.rows)


def test_fig07_full_size_judges_every_mechanism_at_eps_08():
    s = _fig07_summary()
    s = s[~((s["query"] == "triangle") & (s.mechanism == "SDE"))].assign(status="ok")
    s = pd.concat([s, pd.DataFrame([{"query": "triangle", "mechanism": "LP", "epsilon": 0.8, "error": 69.5, "status": "ok"},
                                    {"query": "triangle", "mechanism": "SDE", "epsilon": 0.8, "error": float("nan"), "status": "OT"}])],
                  ignore_index=True)
    c = Claims()
    claims.fig07_epsilon_sweep(c, s, {"edge": 1e6, "triangle": 1e6}, eps_grid=[0.1, 0.8, 12.8], stand_in_ds=8, full_size=True)
    tri = {r.claim.split(" absolute")[0]: r for r in c.rows if "whole-size stand-in" in r.claim}
    assert tri["triangle: LP"].verdict == "pass" and tri["triangle: SDE"].verdict == "not-comparable"
    assert tri["triangle: SDE"].cause.startswith("scale:OT here")
    # OT cells are left out, not judged: an R2T end of the ε grid (ratio not comparable), SDE everywhere (NT alone decides)
    ot = s.copy()
    ot.loc[(ot["query"] == "path2") & (ot.mechanism == "R2T") & (ot.epsilon == 0.1), ["error", "status"]] = [float("nan"), "OT"]
    ot.loc[ot.mechanism == "SDE", ["error", "status"]] = [float("nan"), "OT"]
    c = Claims()
    claims.fig07_epsilon_sweep(c, ot, {"edge": 1e6, "triangle": 1e6}, eps_grid=[0.1, 0.8, 12.8], stand_in_ds=8, full_size=True)
    v = verdicts(c)
    assert v["path2: R2T error falls with ε (error(ε=0.1) / error(ε=12.8))"] == "not-comparable"
    assert v["edge: R2T error falls with ε (error(ε=0.1) / error(ε=12.8))"] == "pass"
    assert v["NT and SDE errors exceed the query result at ε = 0.8 (share of cases)"] == "pass"
    c = Claims()
    claims.fig07_epsilon_sweep(c, s, {"edge": 1e6, "triangle": 1e6}, eps_grid=[0.1, 0.8, 12.8], stand_in_ds=8)
    assert not any("whole-size stand-in" in r.claim for r in c.rows)


# --- tab05 ---------------------------------------------------------------------------------------
def _tab05(ls_factor: float, r2t55: float, opt2_better: bool, sf: float):
    """Table 5's summary: LS / R2T at the paper's printed ratio × ``ls_factor``, R2T-5.5 at the authors' error × ``r2t55``."""
    rows = []
    for q in ("Q3", "Q12", "Q20", "Q5"):
        r2t_err = 1000.0
        abs55 = reference.FIG8[q]["R2T"][reference.FIG8_SF.index(sf)] if q in reference.FIG8 and sf in reference.FIG8_SF else 1.0
        rows += [{"query": q, "mechanism": "R2T", "error": r2t_err, "rel_error_pct": 0.1},
                 {"query": q, "mechanism": "R2T-5.5", "error": abs55 * r2t55, "rel_error_pct": 0.1},
                 {"query": q, "mechanism": "OPT2", "error": r2t_err / 10 if opt2_better else r2t_err * 10, "rel_error_pct": 0.01}]
        if q != "Q5":
            ratio = reference.TABLE5[q][3] / reference.TABLE5[q][1]
            rows.append({"query": q, "mechanism": "LS", "error": r2t_err * ratio * ls_factor, "rel_error_pct": 10.0})
    return pd.DataFrame(rows)


def test_tab05_both_sides_and_not_comparable_off_sf():
    qs = ["Q3", "Q12", "Q20", "Q5"]
    c = Claims()
    claims.tab05_tpch(c, _tab05(1.0, 1.0, True, 1.0), sf=1.0, queries=qs)
    assert set(verdicts(c).values()) == {"pass"}
    every_claim_can_flip(c)
    for low_or_high in (0.5, 2.0):  # LS / R2T two-sided: Q3's 19.5 against the printed 152.8 no longer passes "> 10"
        c = Claims()
        claims.tab05_tpch(c, _tab05(low_or_high, 3.0, False, 1.0), sf=1.0, queries=qs)
        assert set(verdicts(c).values()) == {"differs"}
    c = Claims()  # below SF 1 LS / R2T is a scale effect: not comparable, the SF in its cause
    claims.tab05_tpch(c, _tab05(0.13, 1.0, True, 0.125), sf=0.125, queries=qs)
    ls = [r for r in c.rows if "LS / R2T" in r.claim]
    assert {r.verdict for r in ls} == {"not-comparable"} and {r.cause for r in ls} == {"scale:SF 0.125 < 1"}
    assert {r.verdict for r in c.rows if r not in ls} == {"pass"}
    c = Claims()
    claims.tab05_tpch(c, _tab05(1.0, 1.0, True, 0.01), sf=0.01, queries=qs)
    assert sum(v == "not-comparable" for v in verdicts(c).values()) == 6


@pytest.mark.parametrize("sf, factor, expected", [(1.0, 1.0, "pass"), (1.0, 3.0, "differs"), (1.0, 0.3, "differs"),
                                                  (0.01, 1.0, "not-comparable")])
def test_tab05_headline(sf, factor, expected):
    head = pd.DataFrame([{"query": q, "mechanism": m, "rel_error_pct": reference.TABLE5[q][1] * factor, "answer": reference.TABLE5[q][0]}
                         for q in ("Q3", "Q12") for m in ("R2T", "R2T-5.5")])
    runs = pd.DataFrame([{"query": q, "mechanism": "R2T-5.5", "abs_error": reference.TABLE5[q][1] * factor * reference.TABLE5[q][0] / 100,
                          "status": "ok"} for q in ("Q3", "Q12") for _ in range(5)])
    c = Claims()
    claims.tab05_headline(c, head, sf=sf, epsilon=0.8, repetitions=5, runs=runs)
    assert set(verdicts(c).values()) == {expected}
    if expected != "not-comparable":
        assert all(r.rule["kind"] == "band" and r.rule["se"] < 1e-12 for r in c.rows)  # identical runs: SE 0, the rounding alone


# --- teaching notebooks ----------------------------------------------------------------------------
@pytest.mark.parametrize("r2t_median, share, expected", [(10.0, 0.95, "pass"), (1e6, 0.5, "differs")])
def test_learn_race(r2t_median, share, expected):
    stats = pd.DataFrame({"median |error|": [r2t_median, 1000.0], "share ≤ Q": [share, 0.5]}, index=["R2T", "naive Laplace"])
    c = Claims()
    claims.learn_race_to_the_top(c, stats, beta=0.1, log2_gs=16)
    assert set(verdicts(c).values()) == {expected}
    every_claim_can_flip(c)


@pytest.mark.parametrize("good", [True, False])
def test_learn_theorem_bounds(good):
    bounds = pd.DataFrame({"R2T err quantile 1-β": [10.0, 20.0], "Thm 5.1 bound": [100.0, 15.0 if not good else 200.0],
                           "OPT² err quantile 1-β": [5.0, 5.0], "Thm 6.8 bound": [50.0, 50.0 if good else 1.0],
                           "R2T P[out ≤ Q]": [0.95, 0.99 if good else 0.5]})
    c = Claims()
    claims.learn_theorem_bounds(c, bounds, beta=0.1, ls_share=0.05 if good else 0.001, tau=4,
                                jump_naive=26.0 if good else 4.0, jump_lp=4.0 if good else 26.0)
    assert set(verdicts(c).values()) == {"pass" if good else "differs"}
    every_claim_can_flip(c)


def test_no_claim_function_writes_a_verdict_by_hand():
    import inspect

    src = inspect.getsource(claims)
    assert 'verdict="pass"' not in src and 'verdict="differs"' not in src
    assert math.isfinite(claims.TABLE3_R2T_OVER_BEST["edge"]) and np.isfinite(claims.TABLE3_OPT2_OVER_BEST["path2"])


def test_tab05_artifact_level_within_both_trimmed_means_noise_is_noise():
    """Q20 at SF 0.125 (quick, measured): our R2T-5.5 runs' 20 %-trimmed mean 43,077 against the authors' 33,222, itself
    a trimmed mean whose spread over Fig. 8's 7 SFs is 2.6k: within 3 combined SEs → noise with both SEs; far off → open."""
    measured = [65241.7, 39081.4, 52246.8, 40334.5, 43615.8, 41566.7, 65583.2, 41616.4, 38566.7, 31891.8]

    def run(values):
        kept = sorted(values)[2:-2]
        summ = _tab05(1.0, 1.0, True, 0.125)
        summ.loc[(summ["query"] == "Q20") & (summ.mechanism == "R2T-5.5"), "error"] = float(np.mean(kept))
        runs = pd.DataFrame({"query": "Q20", "mechanism": "R2T-5.5", "abs_error": values, "status": "ok"})
        c = Claims()
        claims.tab05_tpch(c, summ, sf=0.125, queries=["Q3", "Q12", "Q20", "Q5"], runs=runs)
        return next(r for r in c.rows if r.claim.startswith("Q20: R2T (base 5.5"))

    row = run(measured)
    assert row.verdict == "differs" and row.cause.startswith("noise:SE") and "of 10 runs" in row.cause, row.cause
    far = run([v * 2 for v in measured])
    assert far.verdict == "differs" and far.cause == "open:R2T-5.5 level at a reduced SF"
