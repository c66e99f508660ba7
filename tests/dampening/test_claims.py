"""dampening.claims: every rule on both sides, with small hand-made inputs (no experiment is run)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpworkbench.dampening import claims, reference
from dpworkbench.experiments import Claims


def _verdicts(c: Claims) -> dict[str, str]:
    return {r.claim: r.verdict for r in c.rows}


def _one(c: Claims, starts: str) -> str:
    hits = [r.verdict for r in c.rows if r.claim.startswith(starts)]
    assert len(hits) == 1, (starts, [r.claim for r in c.rows])
    return hits[0]


def _worked(**over):
    ls = np.array([[3, 5], [3, 5], [2, 3], [2, 3], [1, 2], [1, 2], [2, 3], [2, 3]], float)
    kw = dict(ebc_fig2=[7.5] + [1.0] * 7, ebc_fig2_without_ab=[15.0, 15.0, 1.0], ebc_fig9c=[6.5] * 8, element_ls=ls,
              p_ld=[0.3229, 0.3229, 0.0590], p_em=[0.2210, 0.2210, 0.0930], dampened_ex411=[2.0, 1.0], p_shifted=[0.4031])
    kw.update(over)
    c = Claims()
    claims.fig02_fig03_fig09_fig11_fig15_worked_examples(c, **kw)
    return c


def test_worked_examples_pass_on_the_thesis_values_and_the_misprints_differ():
    v = _verdicts(_worked())
    differs = {k for k, x in v.items() if x == "differs"}
    # the two thesis misprints (spec §7 item 8, §2.11) differ; everything else, including the spec's recomputations, passes
    assert differs == {"Ex. 4.2.1: LS(G,0,v_i) = 2 for all i (thesis)", "Ex. 4.2.1: shifted P[a] = 0.472 (thesis, inconsistent)"}
    assert all(r.rule for r in _worked().rows)


@pytest.mark.parametrize("over, claim", [
    ({"ebc_fig2": [7.0]}, "Fig. 2: EBC(a)"),
    ({"ebc_fig2_without_ab": [15.0, 15.0, 2.0]}, "Fig. 2: removing ab"),
    ({"ebc_fig9c": [6.0]}, "Fig. 9c"),
    ({"p_ld": [0.35, 0.35, 0.06]}, "Ex. 3.4.1: LD P[a]"),
    ({"p_em": [0.22, 0.22, 0.08]}, "Ex. 3.6.1: EM P[v_i]"),
    ({"dampened_ex411": [2.0, 1.5]}, "Ex. 4.1.1: D(r2)"),
    ({"p_shifted": [0.41]}, "Ex. 4.2.1: shifted P[a] = 0.403"),
])
def test_worked_examples_differ_when_a_value_moves(over, claim):
    assert _one(_worked(**over), claim) == "differs"


def test_worked_example_ls_table_against_the_spec_recomputation():
    ls = np.array([[3, 5], [3, 5], [2, 3], [2, 3], [2, 2], [2, 2], [2, 3], [2, 3]], float)  # the thesis' v_i = 2 everywhere
    c = _worked(element_ls=ls)
    assert _one(c, "Ex. 4.2.1: LS(G,0,v_i) = 2 for all i") == "pass"
    assert _one(c, "Ex. 4.2.1: LS(G,0,v_i) as recomputed") == "differs"
    assert _one(_worked(element_ls=ls * 0 + [[4, 5]]), "Ex. 2.4.1: LS(G,0)") == "differs"


def _dampening(d, dneg, d411=(2.0, 1.0), sld=(1.0, 2.0)):
    c = Claims()
    claims.fig12_fig13_fig14_dampening_function(c, grid=[-1.0, 0.0, 1.0], dampened=d, dampened_negated=dneg, dampened_ex411=d411,
                                                sld_scores_ex411=sld)
    return c


def test_dampening_function_rules_both_sides():
    assert set(_verdicts(_dampening([-1.0, 0.0, 1.0], [1.0, 0.0, -1.0])).values()) == {"pass"}
    c = _dampening([-1.0, 0.0, 1.5], [1.0, 0.0, -1.0], d411=(1.0, 2.0), sld=(2.0, 1.0))
    v = _verdicts(c)
    assert [k for k, x in v.items() if x == "pass"] == ["D is strictly increasing: smallest step of D over the grid > 0 (Def. 3.3.1)"]
    assert _one(_dampening([-1.0, 0.0, 0.0], [0.0, 0.0, 1.0]), "D is strictly increasing") == "differs"
    with pytest.raises(ValueError, match="increasing"):
        claims.fig12_fig13_fig14_dampening_function(Claims(), grid=[1.0, 0.0], dampened=[0, 1], dampened_negated=[0, -1],
                                                    dampened_ex411=(2, 1), sld_scores_ex411=(1, 2))


def test_ebc_correlation_both_sides_and_the_diagnostic_is_not_comparable():
    ov = pd.DataFrame({"k": [5, 20], "overlap": [4, 15]})
    for rho, want in ((0.8, "pass"), (0.3, "differs")):
        c = Claims()
        claims.fig16_ebc_correlation(c, spearman_rho=rho, overlap=ov, source="real")
        assert c.rows[0].verdict == want and c.rows[1].verdict == "not-comparable" and c.rows[1].claim.startswith("top-20")


def _median(patent=0.18, hep_mean=0.043, hep_max=0.12, income=0.0, spec=None, others=None, se=0.0, ranking=None):
    red = {"PATENT": {"mean": patent, "max": 0.3, "se_mean": se}, "HEPTH": {"mean": hep_mean, "max": hep_max},
           "INCOME": {"mean": income, "max": 0.01}}
    red.update({k: {"mean": v, "max": v} for k, v in (others or {}).items()})
    c = Claims()
    claims.fig17_median(c, reductions=red, source="real", spec_recomputation=spec, ranking=ranking)
    return c


def test_median_rules_both_sides():
    assert set(_verdicts(_median()).values()) == {"pass"}
    c = _median(patent=0.05, hep_mean=0.1, hep_max=0.2, income=0.05)
    assert set(_verdicts(c).values()) == {"differs"}  # ordering too: HEPTH 0.1 > PATENT 0.05
    spec_ok = pd.DataFrame({"dataset": ["PATENT"], "epsilon": [10.0], "em": [550.0], "ld": [278.0]})
    spec_bad = spec_ok.assign(ld=[300.0])
    assert _one(_median(spec=spec_ok), "PATENT ε=10") == "pass"
    assert _one(_median(spec=spec_bad), "PATENT ε=10") == "differs"


def test_median_bands_are_two_sided_rounding_plus_three_monte_carlo_ses():
    # 18% printed: [17.5%, 18.5%] with exact cells; 22.6% (what the real PATENT gives) differs, also from above
    assert _one(_median(patent=0.186), "PATENT") == "differs" and _one(_median(patent=0.184), "PATENT") == "pass"
    assert _one(_median(patent=0.226), "PATENT") == "differs"
    # a Monte-Carlo SE of 0.01 widens the band to ±0.035
    assert _one(_median(patent=0.21, se=0.01), "PATENT") == "pass"
    assert _one(_median(patent=0.22, se=0.01), "PATENT") == "differs"


def test_median_one_claim_per_dataset_and_the_ranking_summary():
    c = _median(others={"BIDS-ALL": 0.26, "NETTRACE": 0.001})
    v = _verdicts(c)
    assert v[next(k for k in v if k.startswith("BIDS-ALL"))] == "differs"
    assert v[next(k for k in v if k.startswith("NETTRACE"))] == "pass"
    rank = pd.DataFrame({"dataset": ["A", "B"], "ratio_LD": [0.8, 1.001], "reduction_LD": [0.2, -0.001],
                         "best": ["SLD", "PF"]})
    assert _one(_median(ranking=rank), "LD is never worse") == "pass"
    assert _one(_median(ranking=rank.assign(ratio_LD=[0.8, 1.02])), "LD is never worse") == "differs"
    assert _one(_median(ranking=rank), "which mechanism ranks first") == "not-comparable"


def _privtopk(sld_budget: float, em_budget: float, pf_budget: float, ld_acc=0.5, sld_acc=0.9):
    budgets = pd.DataFrame([{"graph": g, "k": 5, "method": m, "budget": b} for g in ("A", "B")
                            for m, b in (("EM", em_budget), ("PF", pf_budget), ("LD", 1.0), ("SLD", sld_budget))])
    results = pd.DataFrame([{"graph": "A", "k": 5, "epsilon": e, "method": m, "accuracy": a}
                            for e in (1.0, 10.0) for m, a in (("LD", ld_acc), ("SLD", sld_acc), ("EM", 0.1), ("PF", 0.1))])
    c = Claims()
    claims.fig20_privtopk(c, results, budgets, {"A": "real", "B": "synthetic"}, grid_step_orders=0.5)
    return c


def test_fig20_gaps_are_judged_against_the_thesis_range():
    assert reference.FIG20_ORDERS_EM == (3.0, 4.0) and reference.FIG20_ORDERS_PF == (2.0, 4.0)
    ok = _privtopk(1e-3, 10 ** 0.5, 1e-1)                 # 3.5 and 2 orders
    assert set(_verdicts(ok).values()) == {"pass"}
    two = _privtopk(1e-3, 1e-1, 1e-1)                      # 2 orders vs EM: the old "≥ 2" bar passed it; the thesis' 3–4 does not
    assert _one(two, "SLDPrivTopk needs") == "differs" and _one(two, "… and 2–4") == "pass"
    far = _privtopk(1e-3, 1e3, 1e3, ld_acc=0.95)           # 6 orders: beyond the range too; LD not below SLD
    assert set(_verdicts(far).values()) == {"differs"}
    never = _privtopk(1e-3, np.nan, np.nan)                # the baselines never reach the level on the grid
    assert _one(never, "SLDPrivTopk needs") == "differs"


def test_fig20_gap_moved_by_the_synthetic_graph_is_a_stand_in_cause():
    # measured in quick: the synthetic DBLP-like graph's gaps (1–1.5 orders) pulled the EM median to 2.0, while the real
    # Enron and GitHub alone have 3.5: such a difference is the stand-in's, with the real median in the cause
    budgets = pd.DataFrame([{"graph": g, "k": k, "method": m, "budget": b}
                            for g, em in (("A", 10 ** 0.5), ("B", 1e-2)) for k in (5, 10)
                            for m, b in (("EM", em), ("PF", em), ("LD", 1.0), ("SLD", 1e-3))])
    results = pd.DataFrame([{"graph": "A", "k": 5, "epsilon": 10.0, "method": m, "accuracy": a}
                            for m, a in (("LD", 0.5), ("SLD", 0.9), ("EM", 0.1), ("PF", 0.1))])
    c = Claims()
    claims.fig20_privtopk(c, results, budgets, {"A": "real", "B": "synthetic"}, grid_step_orders=0.5)
    row = next(r for r in c.rows if r.claim.startswith("SLDPrivTopk needs"))
    assert row.verdict == "differs" and row.cause.startswith("stand-in:B") and "3.5 orders" in row.cause, row.cause
    c2 = Claims()  # both graphs real: the same gaps keep the open suspicion (SLD's ceiling), no stand-in to blame
    claims.fig20_privtopk(c2, results, budgets, {"A": "real", "B": "real"}, grid_step_orders=0.5)
    assert next(r for r in c2.rows if r.claim.startswith("SLDPrivTopk needs")).cause.startswith("open:SLD's limit")


def _id3(gain_nltcs=0.05, gain_acs=0.08, gain_adult=0.04, inversion=True, n_rows=None):
    def frame(meth, gain, local_lt_global=False):
        rows = []
        for d in (2,):
            for e in (0.1, 1.0):
                g = 0.7
                rows += [{"depth": d, "epsilon": e, "method": "Global", "accuracy": g},
                         {"depth": d, "epsilon": e, "method": "Local",
                          "accuracy": g + (gain if meth == "Local" and e == 0.1 else (-0.05 if local_lt_global else 0.0))},
                         {"depth": d, "epsilon": e, "method": "Shifted", "accuracy": g + (gain if meth == "Shifted" and e == 0.1 else 0.0)}]
        return pd.DataFrame(rows)

    res = {"nltcs": frame("Local", gain_nltcs), "acs": frame("Shifted", gain_acs, local_lt_global=inversion),
           "adult": frame("Shifted", gain_adult)}
    c = Claims()
    claims.fig23_fig24_fig25_id3(c, res, sources=dict.fromkeys(res, "real"), majority=dict.fromkeys(res, 0.6), folds=2, repetitions=1,
                                 max_rows=None, n_rows=n_rows)
    return c


def test_id3_rules_both_sides():
    assert set(_verdicts(_id3()).values()) == {"pass"}
    assert set(_verdicts(_id3(0.02, 0.05, 0.01, inversion=False)).values()) == {"differs"}
    # two-sided (issue 24): a gain well above the thesis' "up to" value differs too (it passed "≥ X − 1 point")
    above = _id3(0.09, 0.12, 0.08)
    assert [_one(above, k) for k in ("NLTCS", "ACS:", "ADULT")] == ["differs"] * 3
    assert all(r.cause.startswith("paper-error:spec §7 items 23–24") for r in above.rows if r.verdict == "differs" and "up to" in r.claim)
    # the band is the whole-percent rounding + 3 test-set SEs: on 1,000 rows (SE ≈ 0.019 at accuracy ≈ 0.7) 0.09 is within
    # 0.05 ± 0.063, on 100,000 rows (SE ≈ 0.002, ± 0.011) it is not
    assert _one(_id3(0.09, n_rows=dict.fromkeys(("nltcs", "acs", "adult"), 1000)), "NLTCS") == "pass"
    assert _one(_id3(0.09, n_rows=dict.fromkeys(("nltcs", "acs", "adult"), 100000)), "NLTCS") == "differs"


def _table1(shift: float, psql_margin: float, psql_shift: float = 0.0, se: float = 0.0, ptk_se: float | None = None,
            source: str = "real"):
    paper = reference.TABLE1_PAPER
    t = paper[["B"]].copy()
    for name in ("Enron", "DBLP", "GitHub"):
        t[f"{name} PTK (ours, {source})"] = paper[f"{name} PTK"] + shift
        t[f"{name} PTK (ours, sample's own Δ)"] = paper[f"{name} PTK"]
        t[f"{name} PSQL (ours)"] = paper[f"{name} PSQL"] + psql_shift
        t[f"{name} PSQL (thesis)"] = paper[f"{name} PSQL"]
    if psql_margin < 0:
        t.loc[0, f"Enron PTK (ours, {source})"] = paper.loc[0, "Enron PSQL"] + psql_shift + psql_margin
    c = Claims()
    psql = pd.DataFrame([{"graph": g, "bound": "parent", "B": b, "se": se} for g in ("Enron", "DBLP", "GitHub")
                         for b in paper["B"]])
    ptk = None if ptk_se is None else psql.assign(se=ptk_se)
    claims.tab01_privtopk_vs_privatesql(c, t, dict.fromkeys(("Enron", "DBLP", "GitHub"), source), samples=2, runs=2, psql=psql, ptk=ptk)
    return c


def test_table1_rules_both_sides():
    assert set(_verdicts(_table1(0.004, 0.0)).values()) == {"pass"}
    # one claim per printed cell, two-sided: rounding ±0.005 + 3 SE of ours
    assert _one(_table1(0.004, 0.0), "Table 1 Enron: PTK accuracy at B = 0.1") == "pass"
    assert _one(_table1(-0.02, 0.0), "Table 1 Enron: PTK accuracy at B = 0.1") == "differs"
    assert _one(_table1(0.05, 0.0), "Table 1 Enron: PTK accuracy at B = 10") == "differs"  # above the print fails too
    assert _one(_table1(0.05, 0.0, ptk_se=0.02), "Table 1 Enron: PTK accuracy at B = 10") == "pass"  # 0.005 + 3 × 0.02
    c = _table1(0.2, -0.01)
    assert _one(c, "Table 1 Enron: PTK accuracy at B = 5") == "differs" and _one(c, "Table 1 Enron: PTK beats PSQL") == "differs"
    # each non-pass carries its cause: the unstated settings (real graph), the stand-in (synthetic), PSQL's unstated setup
    diff = {r.claim: r.cause for r in c.rows if r.verdict != "pass"}
    assert diff["Table 1 Enron: PTK accuracy at B = 5"].startswith("paper-error:spec §7 item 23")
    assert diff["Table 1 Enron: PTK beats PSQL at every B (smallest PTK − PSQL > 0, both run here)"].startswith("open:")
    syn = {r.claim: r.cause for r in _table1(0.2, 0.0, source="synthetic").rows if r.verdict != "pass"}
    assert syn["Table 1 DBLP: PTK accuracy at B = 5"].startswith("stand-in:dblp")
    # our PrivateSQL against the thesis' PSQL: two-sided, rounding ±0.005 plus 3 SE
    psql = "Table 1 Enron: PrivateSQL accuracy at B = 0.1"
    assert _one(_table1(0.004, 0.0, psql_shift=0.004), psql) == "pass"
    assert _one(_table1(0.004, 0.0, psql_shift=-0.02), psql) == "differs"
    assert _one(_table1(0.004, 0.0, psql_shift=0.02), psql) == "differs"
    assert _one(_table1(0.004, 0.0, psql_shift=0.02, se=0.01), psql) == "pass"
    assert {r.cause for r in _table1(0.004, 0.0, psql_shift=0.02).rows if r.verdict != "pass"} == {claims.TAB01_PSQL_CAUSE}


def test_learn_claim_both_sides():
    for sld, want in ((0.4, "pass"), (0.2, "differs")):
        probs = pd.DataFrame({"node": ["a", "a"], "method": ["SLD", "EM"], "probability": [sld, 0.22]})
        c = Claims()
        claims.learn_local_dampening(c, probs)
        assert c.rows[0].verdict == want


def test_learn_privacy_check_both_sides():
    probs = pd.DataFrame({"node": ["a", "a"], "method": ["SLD", "EM"], "probability": [0.4, 0.22]})
    for loss, want in ((0.4, "pass"), (1.3, "differs")):
        tab = pd.DataFrame({"mechanism": ["EM", "LD"], "max privacy loss over neighbours": [0.2, loss], "ε": [1.0, 1.0]})
        c = Claims()
        claims.learn_local_dampening(c, probs, tab)
        assert c.rows[1].verdict == want and "(LD)" in c.rows[1].our_value


def test_every_claim_can_flip():
    """Each rule names a value that flips its verdict (the check tests/test_claims_flip.py runs on notebook outputs)."""
    from dpworkbench.experiments.claims import Rule

    for c in (_worked(), _dampening([-1.0, 0.0, 1.0], [1.0, 0.0, -1.0]), _median(), _privtopk(1e-3, 10 ** 0.5, 1e-1), _id3(), _table1(0.05, 0.0)):
        for r in c.rows:
            rule = Rule.from_json(r.rule)
            if rule.kind == "not_comparable":
                continue
            subject = r.value if r.value is not None else r.our_value
            subject = tuple(subject) if isinstance(subject, list) else subject
            assert rule.verdict(rule.breaking(subject)) != r.verdict, r.claim


def test_sec44_claims_both_sides():
    import numpy as np

    from dpworkbench.dampening import accuracy as A

    rng = np.random.default_rng(1)
    inst = A.median_instances({"c": np.bincount(rng.integers(30, 70, 2000), minlength=101)}, [1.0, 10.0])
    mini = pd.DataFrame({"delta": ["box"], "input": ["x"], "t": [1], "gap": [0.0]})
    c = Claims()
    claims.sec44_accuracy(c, inst, mini)
    v = _verdicts(c)
    assert all(v[k] == "pass" for k in v if k.startswith(("Cor. 4.4.1", "Lemma", "check"))), v
    # a law that got worse under the stated conditions, or an LS above δ, makes them differ
    bad = inst.copy()
    bad.loc[bad["statement"].str.startswith("Lemma 4.4.1"), "tail_gap"] = 0.01
    c = Claims()
    claims.sec44_accuracy(c, bad, mini.assign(gap=[1.0]))
    assert _one(c, "Lemma 4.4.1") == "differs" and _one(c, "Lemma 4.4.2") == "differs"


def test_fig20_sld_at_its_ceiling_passes_away_from_it_differs():
    # measured (quick): SLD's accuracy up to ε = 10⁴ is its ε → ∞ ceiling (Enron k = 10: 0.90; GitHub k = 20: 0.95)
    ceiling = pd.DataFrame({"graph": ["A"], "k": [5], "ceiling": [0.9]})
    on = _privtopk(1e-3, 10 ** 0.5, 1e-1, sld_acc=0.9)
    c = Claims()
    budgets = pd.DataFrame([{"graph": "A", "k": 5, "method": m, "budget": b}
                            for m, b in (("EM", 10 ** 0.5), ("PF", 0.1), ("LD", 1.0), ("SLD", 1e-3))])
    results = pd.DataFrame([{"graph": "A", "k": 5, "epsilon": e, "method": m, "accuracy": a}
                            for e in (1.0, 10.0) for m, a in (("LD", 0.5), ("SLD", 0.9), ("EM", 0.1), ("PF", 0.1))])
    claims.fig20_privtopk(c, results, budgets, {"A": "real"}, grid_step_orders=0.5, ceiling=ceiling)
    name = next(r.claim for r in c.rows if r.claim.startswith("SLDPrivTopk's accuracy at the largest ε"))
    assert _verdicts(c)[name] == "pass" and "A k=5 0.90" in next(r.note for r in c.rows if r.claim == name)
    c2 = Claims()
    claims.fig20_privtopk(c2, results.assign(accuracy=results.accuracy.where(results.method != "SLD", 1.0)), budgets,
                          {"A": "real"}, grid_step_orders=0.5, ceiling=ceiling)
    assert _verdicts(c2)[name] == "differs"
    assert not any(r.claim == name for r in on.rows)  # without the ceiling table no such claim
