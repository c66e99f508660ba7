"""inconsistency.claims: every notebook's claim function on small hand-made inputs on both sides of each rule."""

from __future__ import annotations

import pandas as pd

from dpworkbench.experiments.claims import Claims, flip_value, reevaluate
from dpworkbench.inconsistency import claims as C
from dpworkbench.inconsistency import examples, reference as ref
from dpworkbench.inconsistency.model import all_measures, degree_bound


def _verdicts(c: Claims) -> dict[str, str]:
    return {r.claim: r.verdict for r in c.rows}


def _every_claim_flips(c: Claims) -> None:
    """What tests/test_claims_flip.py checks on notebook runs, on these hand-made rows."""
    for r in c.rows:
        row = {"claim": r.claim, "rule": r.rule, "value": r.value, "our_value": r.our_value}
        if r.rule["kind"] == "not_comparable":
            assert r.verdict == "not-comparable" and r.note
            continue
        assert reevaluate(row, flip_value(row)) != r.verdict, r.claim


def _toy_inputs():
    g = examples.fig2_graph()
    curve = examples.fig10_curve(corrected=True)
    return dict(measures=all_measures(g), table3=examples.table3(), table4_strict=examples.table4(prune="lt"),
                degree_bound=degree_bound(examples.capital_country(), g.dcs)[0],
                fig10_at={b: float(examples.fig10_curve([b]).iloc[0, 1]) for b in ref.FIG10_BOUND}, fig10_curve=curve)


def test_toy_claims_pass_on_the_package_values_and_differ_on_altered_ones():
    kw = _toy_inputs()
    c = Claims()
    C.fig02_tab03_tab04_fig10_toy(c, **kw)
    assert set(_verdicts(c).values()) == {"pass"}
    _every_claim_flips(c)
    bad = dict(kw, measures={**kw["measures"], "I_MI": 4}, degree_bound=2,
               fig10_curve=kw["fig10_curve"].assign(**{kw["fig10_curve"].columns[1]: kw["fig10_curve"].iloc[:, 1][::-1].to_numpy()}))
    c2 = Claims()
    C.fig02_tab03_tab04_fig10_toy(c2, **bad)
    v = _verdicts(c2)
    assert v["Fig. 2 / Ex. 1: I_MI"] == "differs" and v["Example 3: d_bound = freq(Ottawa) − 1"] == "differs"
    assert v["Fig. 10: bound decreasing in β (largest step between grid points)"] == "differs"
    assert v["Fig. 2: I_P"] == "pass"


def test_vertex_cover_toy_claims_on_both_sides():
    trace, orders = examples.example6_trace(), examples.example5_orders()
    c = Claims()
    C.fig03_vertex_cover_toy(c, trace=trace, orders=orders, tau=(3, 4))
    assert set(_verdicts(c).values()) == {"pass"}
    _every_claim_flips(c)
    t2 = trace.copy()
    t2.loc[t2.index[-1], "c'"] = 8
    c2 = Claims()
    C.fig03_vertex_cover_toy(c2, trace=t2, orders=orders[orders.cover_size == 4], tau=(3, 3))
    v = _verdicts(c2)
    assert v["Example 6: c(G')"] == v["Example 6: (c, c') trace"] == "differs"
    assert v["Example 5: random orders give 4 or 6 on G"] == "differs" and v["exact τ(G), τ(G') (2-approx. brackets)"] == "differs"
    assert v["Example 6: c(G) with lexicographic order"] == "pass"


def _sens(i_p: float, f_p: float, cover: float) -> pd.DataFrame:
    rows = [("I_D", 1), ("I_R", 1), ("I_MI", 5), ("I_P", i_p), ("Alg. 5 cover size c", cover)]
    rows += [(f"f_MI∘π_θ, θ={t}", t) for t in (1, 2, 3)] + [(f"f_P∘π_θ, θ={t}", f_p * t) for t in (1, 2, 3)]
    return pd.DataFrame(rows, columns=["measure", "measured_max"])


def test_sensitivity_claims_on_both_sides():
    c = Claims()
    C.tab02_measures(c, _sens(5, 1, 2), n=5)
    assert set(_verdicts(c).values()) == {"pass"}
    _every_claim_flips(c)
    c2 = Claims()
    C.tab02_measures(c2, _sens(6, 2, 3), n=5)
    v = _verdicts(c2)
    assert v["Δ I_P = n (n = 5)"] == "differs" and v["Prop. 3: Δc ≤ 2 for Alg. 5"] == "differs"
    assert v["Lemma 1 for I_P: Δ(f_P∘π_θ) ≤ θ, θ=2"] == "differs" and v["Lemma 1: Δ(f_MI∘π_θ) ≤ θ, θ=2"] == "pass"


def _t5(source: str, tax_degree: int, order=("Stock", "Tax", "Hospital", "Flight", "Adult")) -> pd.DataFrame:
    p = ref.TABLE5.set_index("dataset")
    return pd.DataFrame([{"dataset": d, "source": source, "max_degree": tax_degree if d == "Tax" else int(p.loc[d, "max_degree_paper"]),
                          "max_degree_paper": int(p.loc[d, "max_degree_paper"]), "dcs": int(p.loc[d, "dcs"]), "fd_like": int(p.loc[d, "fds"]),
                          "dcs_paper": int(p.loc[d, "dcs"]), "fds_paper": int(p.loc[d, "fds"]), "edges": 10 ** k}
                         for k, d in enumerate(order)])


def test_table5_judges_real_tables_only_and_never_a_stand_in_against_its_calibration_target():
    c = Claims()
    C.tab05_datasets(c, _t5("real", 373), rows=10000)
    assert set(_verdicts(c).values()) == {"pass"}
    _every_claim_flips(c)
    v = _verdicts(_run(C.tab05_datasets, _t5("real", 373 * 2, order=("Tax", "Stock", "Hospital", "Flight", "Adult")), rows=10000))
    assert v["Table 5: max degree, Tax 10k, 1% RNoise (real data)"] == "differs"
    assert v["density order Stock < Tax < Hospital < Flight < Adult (edges)"] == "differs"
    syn = _run(C.tab05_datasets, _t5("synthetic", 373), rows=10000)
    assert all(r.verdict == "not-comparable" for r in syn.rows if r.claim.startswith("Table 5: max degree"))
    small = _run(C.tab05_datasets, _t5("real", 373), rows=1500)
    assert all(r.verdict == "not-comparable" for r in small.rows if r.claim.startswith("Table 5: max degree"))


def _run(fn, *args, **kw) -> Claims:
    c = Claims()
    fn(c, *args, **kw)
    return c


def _errors(scale: float, ir: float = ref.PAPER_AVG_ERROR["I_R"]):
    avg = {"I_MI": ref.PAPER_AVG_ERROR["I_MI"] * scale, "I_P": ref.PAPER_AVG_ERROR["I_P"] * scale, "I_R": ir}
    per = {(d, "I_MI"): p * scale for d, p in ref.PAPER_MI_ERROR_TEXT.items()}
    per.update({(d, m): 0.1 for d in ref.PAPER_MI_ERROR_TEXT for m in ("I_P", "I_R")})
    return avg, per


def test_true_vs_private_claims_on_both_sides_and_ci_not_comparable():
    avg, per = _errors(1.0)
    ds = list(ref.PAPER_MI_ERROR_TEXT)
    c = _run(C.fig04_fig05_true_vs_private, avg=avg, per=per, noise="rnoise", profile="quick", datasets=ds, r2t_avg_mi=1.0)
    v = _verdicts(c)
    assert all(x == "pass" for k, x in v.items() if "Table 1" not in k)
    _every_claim_flips(c)
    avg3, per3 = _errors(3.0, ir=5.0)
    v3 = _verdicts(_run(C.fig04_fig05_true_vs_private, avg=avg3, per=per3, noise="rnoise", profile="quick", datasets=ds, r2t_avg_mi=0.1))
    assert v3["average relative error of I_MI over datasets and checkpoints"] == "differs"
    assert v3["I_MI relative error, Stock (ours, ε=1)"] == "differs"
    assert v3["I_R is the most accurate measure (min(I_MI, I_P) − I_R, average relative error)"] == "differs"
    assert v3["R2T is less accurate than ours for I_MI (R2T − ours, average relative error)"] == "differs"
    # R2T against ours per dataset: the mean hid Tax, where R2T wins
    r2t_per = {d: per[(d, "I_MI")] + 0.5 for d in ds}
    r2t_per["Tax"] = per[("Tax", "I_MI")] - 0.01
    vd = _verdicts(_run(C.fig04_fig05_true_vs_private, avg=avg, per=per, noise="rnoise", profile="quick", datasets=ds,
                        r2t_avg_mi=1.0, r2t_per_mi=r2t_per))
    key = "R2T is less accurate than ours for I_MI on every dataset (smallest R2T − ours, relative error)"
    assert vd[key] == "differs"
    # R2T winning on Tax by 0.01: noise when that is within 3 SEs of the difference, open when it is not
    se_tax = {(d, "I_MI"): 0.03 for d in ds}
    rows = _run(C.fig04_fig05_true_vs_private, avg=avg, per=per, noise="rnoise", profile="quick", datasets=ds, se=se_tax,
                r2t_per_mi=r2t_per, r2t_se_mi={d: 0.04 for d in ds}).rows
    assert next(r for r in rows if r.claim == key).cause.startswith("noise:SE 0.050 of R2T − ours on Tax")  # hypot(.03, .04)
    rows = _run(C.fig04_fig05_true_vs_private, avg=avg, per=per, noise="rnoise", profile="quick", datasets=ds,
                se={k: 0.001 for k in se_tax}, r2t_per_mi=r2t_per, r2t_se_mi={d: 0.001 for d in ds}).rows
    assert next(r for r in rows if r.claim == key).cause.startswith("open:")  # 0.01 > 3 × hypot(.001, .001)
    r2t_per["Tax"] = per[("Tax", "I_MI")] - 0.2
    rows = _run(C.fig04_fig05_true_vs_private, avg=avg, per=per, noise="rnoise", profile="quick", datasets=ds, se=se_tax,
                r2t_per_mi=r2t_per, r2t_se_mi={d: 0.04 for d in ds}).rows
    assert next(r for r in rows if r.claim == key).cause.startswith("open:")  # 0.2 > 3 × 0.05
    r2t_per["Tax"] = per[("Tax", "I_MI")] + 0.01
    assert _verdicts(_run(C.fig04_fig05_true_vs_private, avg=avg, per=per, noise="rnoise", profile="quick", datasets=ds,
                          r2t_per_mi=r2t_per))[key] == "pass"
    # printed errors are two-sided bands (rounding + 3 SE): 10 % off fails with SE 0, passes with a large enough SE
    avg_off, per_off = _errors(1.1)
    se = {"I_MI": 0.01, "I_P": 0.02, "I_R": 0.0}
    off = _verdicts(_run(C.fig04_fig05_true_vs_private, avg=avg_off, per=per_off, noise="rnoise", profile="quick", datasets=ds))
    assert off["average relative error of I_MI over datasets and checkpoints"] == "differs"
    off_se = _verdicts(_run(C.fig04_fig05_true_vs_private, avg=avg_off, per=per_off, noise="rnoise", profile="quick", datasets=ds, se=se))
    assert off_se["average relative error of I_MI over datasets and checkpoints"] == "pass"  # 0.025 ≤ 0.005 + 3 × 0.01
    assert off_se["average relative error of I_P over datasets and checkpoints"] == "pass"  # 0.046 ≤ 0.005 + 3 × 0.02
    ci = _run(C.fig04_fig05_true_vs_private, avg=avg, per=per, noise="conoise", profile="ci", datasets=ds)
    assert {r.verdict for r in ci.rows if "average relative error of" in r.claim} == {"not-comparable"}
    assert not any("Stock (ours" in r.claim for r in ci.rows)  # per-dataset claims belong to Fig. 4 only


def _strategies(ours: float, base_v: float, em: float, hier: float) -> pd.DataFrame:
    idx = pd.MultiIndex.from_product([["Stock", "Tax", "Hospital", "Flight", "Adult"], ["I_MI", "I_P"]], names=["dataset", "measure"])
    return pd.DataFrame({"baseline_V": base_v, "baseline_dmax": 0.01, "em": em, "hier_em": hier, "bound_hier": ours}, index=idx)


def test_theta_strategy_claims_on_both_sides():
    s = _strategies(ours=0.001, base_v=3.0, em=5.0, hier=0.002)  # ratio 3000× on Stock; ours best
    s.loc[("Flight", "I_MI"), "baseline_V"] = s.loc[("Adult", "I_MI"), "baseline_V"] = 0.0005
    c = _run(C.fig06_theta_strategies, s, profile="quick", paper_setting=s)
    assert set(_verdicts(c).values()) == {"pass"}
    _every_claim_flips(c)
    s2 = _strategies(ours=0.01, base_v=0.5, em=0.5, hier=0.005)  # ratio 50×, hier beats ours, Baseline 1 worse on I_MI
    v = _verdicts(_run(C.fig06_theta_strategies, s2, profile="quick", paper_setting=s2))
    assert v["Stock: non-pruned private strategies 10³–10⁴× worse than ours"] == "differs"
    assert v["Tax: ours best among private strategies for I_P in the paper's setting (θ sensitivity, unclipped I_P; "
             "not proven private)"] == "differs"
    assert v["Tax: ours best among private strategies (ours / best other private, worst measure)"] == "differs"
    assert v["Flight (dense): Baseline 1 beats ours for I_MI (Baseline 1 − ours)"] == "differs"
    assert v["Flight (dense): ours/hier beat Baseline 1 for I_P (min(ours, hier) − Baseline 1)"] == "pass"
    assert set(_verdicts(_run(C.fig06_theta_strategies, s, profile="ci")).values()) == {"not-comparable"}


def test_paper_setting_gap_within_three_se_is_noise_beyond_is_open():
    # the paper-setting ablation's Baseline 1 (|Lap(n/ε)|/n, std ≈ 1 per run) made Adult's gap +0.037 at seed 0 and
    # −0.26 … −0.48 at seeds 1–4: a positive gap within 3 SEs is labelled noise with its SE, a larger one stays open
    s = _strategies(ours=0.001, base_v=3.0, em=5.0, hier=0.002)
    p = s.copy()
    p.loc[("Adult", "I_P"), ["baseline_V", "hier_em", "bound_hier"]] = [0.70, 0.83, 0.72]  # gap +0.02 (seed 0, 10 runs)
    se = p * 0 + 0.05
    se.loc[("Adult", "I_P"), "baseline_V"] = 0.13
    name = "Adult: ours/hier beat Baseline 1 for I_P in the paper's setting (θ sensitivity, unclipped I_P; not proven private)"
    row = next(r for r in _run(C.fig06_theta_strategies, s, profile="quick", paper_setting=p, paper_setting_se=se).rows if r.claim == name)
    assert row.verdict == "differs" and row.cause.startswith("noise:SE 0.139"), row.cause  # hypot(0.05, 0.13)
    far = p.copy()
    far.loc[("Adult", "I_P"), "baseline_V"] = 0.20  # gap +0.52 ≫ 3 × 0.139
    row = next(r for r in _run(C.fig06_theta_strategies, s, profile="quick", paper_setting=far, paper_setting_se=se).rows if r.claim == name)
    assert row.verdict == "differs" and row.cause.startswith("open:"), row.cause
    no_se = next(r for r in _run(C.fig06_theta_strategies, s, profile="quick", paper_setting=p).rows if r.claim == name)
    assert no_se.cause.startswith("open:")  # without SEs nothing is called noise


def _eps_summary(ir_err: float, improve: bool) -> pd.DataFrame:
    rows = []
    for d in ("Stock", "Hospital", "Flight"):
        for m in ("I_MI", "I_P", "I_R"):
            for e in (0.1, 3.0, 5.0):
                base = ir_err if m == "I_R" else 0.3
                rows.append({"dataset": d, "measure": m, "eps": e, "mean": base * ((0.1 / e) if improve else (e / 0.1))})
    return pd.DataFrame(rows)


def test_epsilon_sweep_claims_on_both_sides():
    c = _run(C.fig07_epsilon_sweep, _eps_summary(0.04, True), profile="quick")
    assert set(_verdicts(c).values()) == {"pass"}
    _every_claim_flips(c)
    v = _verdicts(_run(C.fig07_epsilon_sweep, _eps_summary(0.2, False), profile="quick"))
    assert v["I_R error ≤ 0.05 at ε=0.1 on Hospital"] == "differs"
    assert v["I_MI: error improves from ε=0.1 to ε=5 (error at 5 − error at 0.1)"] == "differs"
    causes = {r.claim: r.cause for r in _run(C.fig07_epsilon_sweep, _eps_summary(0.2, False), profile="quick").rows}
    # Stock's I_R error is 1/(ε·m) on its m-pair matching: the sample's violation count, not Alg. 5 (measured m = 2–5)
    assert causes["I_R error ≤ 0.05 at ε=3.0 on Stock"].startswith("stand-in:Stock") and "1/(ε·m)" in causes["I_R error ≤ 0.05 at ε=3.0 on Stock"]
    assert causes["I_R error ≤ 0.05 at ε=0.1 on Hospital"].startswith("open:")  # elsewhere the suspicion stays open



def _ir_exact_table(err: float, cover_over_tau: float, tau: float = 60.0) -> pd.DataFrame:
    rows = []
    for d, e in ref.FIG7_IR_POINTS:
        rows.append(dict(dataset=d, eps=e, tau=tau, i_r_lin=tau, two_lin=2 * tau, cover=cover_over_tau * tau,
                         cover_over_tau=cover_over_tau, err_vs_2lin=0.01, err_vs_exact=err, runs=3))
    return pd.DataFrame(rows)


def test_ir_against_exact_claims_on_both_sides_with_a_cause_when_they_differ():
    c = _run(C.fig07_ir_exact, _ir_exact_table(0.03, 1.0), profile="quick")
    assert set(_verdicts(c).values()) == {"pass"}
    _every_claim_flips(c)
    c = _run(C.fig07_ir_exact, _ir_exact_table(0.95, 2.5), profile="quick")
    v = _verdicts(c)
    assert v["I_R error against the exact I_R (τ) ≤ 0.05 at ε=0.1 on Hospital"] == "differs"
    assert v["Hospital: Alg. 5's pre-noise cover / exact I_R lies in [1, 2] (2-approximation)"] == "differs"
    assert all(r.cause.startswith(("paper-error:", "open:")) for r in c.rows)
    # an exact value that could not be computed (NaN) or is 0 is not comparable, with the reason as its cause
    v = _verdicts(_run(C.fig07_ir_exact, _ir_exact_table(float("nan"), float("nan"), tau=float("nan")), profile="quick"))
    assert set(v.values()) == {"not-comparable"}


def test_ir_against_exact_scores_the_releases_against_tau():
    from dpworkbench.inconsistency import experiments as E
    from dpworkbench.inconsistency.model import i_r_exact

    g = examples.fig2_graph()
    assert E.ir_exact_reference(g) == i_r_exact(g) == ref.FIG2_MEASURES["I_R_exact"]


def test_runtime_claims_on_both_sides():
    fl = pd.DataFrame({"dcs": [1, 2, 13], "build_s": [0.0, 0.0, 0.0], "I_MI_s": [1.0, 2.0, 5.0], "I_R_s": [0.1, 0.2, 0.3]})
    c = _run(C.fig08_runtime, tax_slope=1.2, edge_slope=1.8, flight=fl)
    assert {r.verdict for r in c.rows} == {"pass", "not-comparable"}
    _every_claim_flips(c)
    slow_ir = fl.assign(I_MI_s=[5.0, 2.0, 1.0], I_R_s=[9.0, 9.0, 9.0])
    v = _verdicts(_run(C.fig08_runtime, tax_slope=-0.1, edge_slope=0.9, flight=slow_ir))
    assert v["runtime increases with size (log–log slope of I_MI time)"] == "differs"
    assert v["edges grow super-linearly with rows (paper: 'exponentially'; log–log slope)"] == "differs"
    assert v["Flight: time increases with #DCs (time with all DCs / with one)"] == "differs"
    assert v["I_R (Alg. 5) faster than I_MI/I_P (mean time ratio I_R / I_MI)"] == "differs"
    rt = pd.DataFrame({"dataset": ["Stock", "Adult"], "edges": [1, 100], "build_s": [0.05, 0.05], "I_MI_s": [0.1, 1.0]})
    c9 = _run(C.fig09_runtime_by_density, rt)
    assert set(_verdicts(c9).values()) == {"pass"}
    _every_claim_flips(c9)
    v9 = _verdicts(_run(C.fig09_runtime_by_density, rt.assign(edges=[100, 1])))
    assert set(v9.values()) == {"differs"}


def test_fig08_times_the_algorithm_not_the_graph_build():
    """Fig. 8's Flight claims judge the algorithm's time on a built graph, as the artifact timed it (compute_measures.py
    times only the call on the pickled graph) and as Fig. 9: a build whose cost dominates must not decide them."""
    fl = pd.DataFrame({"dcs": [1, 7, 13], "build_s": [0.1, 1.0, 2.0], "I_MI_algo": [0.5, 0.4, 0.3], "I_R_algo": [0.6, 0.6, 0.6]})
    fl["I_MI_s"], fl["I_R_s"] = fl.build_s + fl.I_MI_algo, fl.build_s + fl.I_R_algo
    c = _run(C.fig08_runtime, tax_slope=1.2, edge_slope=1.8, flight=fl)
    rows = {r.claim: r for r in c.rows}
    grows = rows["Flight: time increases with #DCs (time with all DCs / with one)"]
    assert abs(grows.value - 0.3 / 0.5) < 1e-12 and grows.verdict == "differs"  # with the build: 2.3 / 0.6 > 1, a pass
    assert "with our build included 3.83×" in grows.note
    ir = rows["I_R (Alg. 5) faster than I_MI/I_P (mean time ratio I_R / I_MI)"]
    assert abs(ir.value - 0.6 / 0.4) < 1e-12 and ir.verdict == "differs"  # with the build: 1.63 / 1.43 as well, but closer
    ratio = rows["Flight: I_MI/I_P time, 13 DCs vs 1 DC"]
    assert "networkx graph building" not in ratio.cause and "built graph" in ratio.note


def test_fig09_times_the_algorithm_not_the_graph_build():
    # measured (quick, seed 0): the build's per-DC costs made Tax (9 DCs, 8k edges) slower than Adult (3 DCs, 190k edges)
    # and ρ(edges, build + algorithm) = 0.1; the artifact times only the algorithm on a pickled graph, so the claim must
    # pass when the algorithm's time grows with the edges whatever the build costs
    rt = pd.DataFrame({"dataset": ["Stock", "Tax", "Flight", "Hospital", "Adult"], "edges": [1, 8190, 29339, 37312, 191477],
                       "build_s": [0.07, 0.26, 0.32, 0.24, 0.02], "I_MI_algo": [0.006, 0.021, 0.038, 0.040, 0.070]})
    rt["I_MI_s"] = rt.build_s + rt.I_MI_algo
    c = _run(C.fig09_runtime_by_density, rt)
    row = next(r for r in c.rows if r.claim.startswith("runtime increases with density"))
    assert row.verdict == "pass" and abs(row.value - 1.0) < 1e-12, row
    from scipy.stats import spearmanr
    with_build = spearmanr(rt.edges, rt.I_MI_s).statistic
    assert with_build < 0.5 and f"with our build included ρ = {with_build:.2f}" in row.note  # what the old claim judged
    # an algorithm whose time does not follow the edges still differs, however cheap the build
    slow_sparse = rt.assign(I_MI_s=rt.build_s + rt.I_MI_algo[::-1].to_numpy())
    assert _verdicts(_run(C.fig09_runtime_by_density, slow_sparse))[row.claim] == "differs"


def _tab1(ours: float, r2t: float, std: float = 0.0) -> pd.DataFrame:
    rows = []
    for d in ("Adult", "Flight", "Stock"):
        rows += [{"dataset": d, "algo": "ours", "mean": ours, "std": std, "runs": 4, "source": "real"},
                 {"dataset": d, "algo": "R2T", "mean": r2t, "std": std, "runs": 4, "source": "real"},
                 {"dataset": d, "algo": "R2T-unordered", "mean": r2t, "std": std, "runs": 4, "source": "real"}]
    return pd.DataFrame(rows).set_index(["dataset", "algo"])


def test_table1_claims_judge_against_the_paper_values_including_stock_ratio():
    paper_r2t = {"Adult": 0.2, "Flight": 0.2, "Stock": 123.19}
    paper_ours = {"Adult": 0.10, "Flight": 0.10, "Stock": 0.07}
    kw = dict(paper_r2t=paper_r2t, paper_ours=paper_ours, profile="quick", datasets=["Adult", "Flight", "Stock"])
    s = _tab1(0.10, 0.2)
    s.loc[("Stock", "ours"), "mean"] = 0.07
    s.loc[("Stock", "R2T"), "mean"] = 123.19
    c = _run(C.tab01_r2t_vs_projection, s, **kw)
    assert set(_verdicts(c).values()) == {"pass"}
    _every_claim_flips(c)
    v = _verdicts(_run(C.tab01_r2t_vs_projection, _tab1(0.5, 0.3, std=0.2), **kw))  # ours 5× the paper; R2T only 0.6× ours on Stock
    assert v["Table 1 this work: I_MI relative error, Adult"] == "differs"  # 0.4 off > 0.005 + 3 × 0.1
    assert v["Stock (very few violations): R2T error / ours"] == "differs"  # the old "≥ 5×" bar would have hidden 1,760× vs 0.6×
    assert v["this work beats R2T on every dataset (number of datasets)"] == "differs"
    assert v["Table 1 R2T: I_MI relative error, Adult"] == "pass"  # 0.1 off ≤ 0.005 + 3 × 0.2 / √4
    v0 = _verdicts(_run(C.tab01_r2t_vs_projection, _tab1(0.10, 0.3), **kw))  # the same 0.1 off with no spread: two-sided band
    assert v0["Table 1 R2T: I_MI relative error, Adult"] == "differs"



def test_table1_r2t_claims_read_the_ordered_pair_series_not_the_unordered_one():
    """Table 1's "R2T" is the artifact's ordered-pair count, halved (spec §2.10), as Figs. 4–5's R2T series: the claims
    read the ``R2T`` row (comparisons.table1_experiment builds it with comparisons.artifact_r2t, pairs="ordered"), never
    the ``R2T-unordered`` sensitivity row. Measured (quick, seed 0): Adult 0.337 ordered vs 0.189 unordered."""
    kw = dict(paper_r2t={"Adult": 0.17, "Flight": 0.12, "Stock": 123.19}, paper_ours={"Adult": 0.10, "Flight": 0.10, "Stock": 0.07},
              profile="quick", datasets=["Adult", "Flight", "Stock"])
    s = _tab1(0.10, 0.17)
    s.loc[("Adult", "R2T"), "mean"] = 0.337           # ordered (the artifact): far from 0.17
    s.loc[("Adult", "R2T-unordered"), "mean"] = 0.189  # unordered: within 0.005 + 3 SE of 0.17
    s["std"] = 0.017
    c = _run(C.tab01_r2t_vs_projection, s, **kw)
    row = {r.claim: r for r in c.rows}["Table 1 R2T: I_MI relative error, Adult"]
    assert abs(row.value - 0.337) < 1e-12 and row.verdict == "differs"
    assert row.cause.startswith("open:the artifact's ordered-pair R2T truncates on Adult")
    assert "R2T-unordered (the R2T paper's count): 0.189" in row.note


def test_stock_ratio_band_is_two_sided_and_table1_conflicts_cite_the_spec():
    """Issue 24: Table 1's Stock ratio R2T / ours (123.19 / 0.07) is judged two-sided — the printed roundings carried
    through the ratio plus 3 delta-method SEs (it was a factor 2) — and Table 1's entries that §6.2 contradicts carry
    spec §7 item 19 as their cause."""
    paper_r2t = {"Adult": 0.2, "Flight": 0.2, "Stock": 123.19}
    paper_ours = {"Adult": 0.10, "Flight": 0.10, "Stock": 0.07}
    kw = dict(paper_r2t=paper_r2t, paper_ours=paper_ours, profile="quick", datasets=["Adult", "Flight", "Stock"])
    name = "Stock (very few violations): R2T error / ours"

    def stock(r2t: float, ours: float = 0.07, std: float = 0.0) -> Claims:
        s = _tab1(0.10, 0.2, std=std)
        s.loc[("Stock", "ours"), "mean"], s.loc[("Stock", "R2T"), "mean"] = ours, r2t
        return _run(C.tab01_r2t_vs_projection, s, **kw)

    # the band: 1,760 × (0.005/123.19 + 0.005/0.07) ≈ 126 from the roundings alone
    assert _verdicts(stock(123.19 * 1.05))[name] == "pass"
    assert _verdicts(stock(123.19 * 1.5))[name] == "differs"  # above: a factor-2 bar passed it
    assert _verdicts(stock(123.19 / 1.5))[name] == "differs"
    assert _verdicts(stock(123.19 * 1.5, std=4.0))[name] == "pass"  # a noisy ratio gets a wider band
    c = stock(1.0, ours=0.6)
    causes = {r.claim: r.cause for r in c.rows if r.verdict != "pass"}
    # measured: R2T's Stock error is heavy-tailed, a 10-run mean is exactly 1.0 in 61 % of draws (claims.STOCK_RATIO_CAUSE)
    assert causes[name].startswith("noise:") and "10-run mean" in causes[name]
    assert causes["Table 1 this work: I_MI relative error, Stock"].startswith("paper-error:spec §7 item 19")
