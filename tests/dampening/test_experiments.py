"""dampening.experiments: Fig. 20's budget and gap summaries."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dpworkbench.dampening import experiments


def _curves(graph_budgets):
    """Accuracy curves that step from 0 to 1 at the given ε (None: never) per (k, method)."""
    eps = [1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0]
    rows = []
    for (k, m), reach in graph_budgets.items():
        rows += [{"k": k, "method": m, "epsilon": e, "accuracy": float(reach is not None and e >= reach)} for e in eps]
    return pd.DataFrame(rows)


def test_gap_texts_from_budget_to_reach():
    curves = {"A": _curves({(1, "SLD"): 1e-2, (1, "EM"): 10.0, (2, "SLD"): 1e-3, (2, "EM"): None}),
              "B": _curves({(1, "SLD"): 1e-1, (1, "EM"): None, (2, "SLD"): 1.0, (2, "EM"): None})}
    b = pd.concat([experiments.budget_to_reach(d, 0.9).assign(graph=n) for n, d in curves.items()])
    pv = b.pivot_table(index=["graph", "k"], columns="method", values="budget", dropna=False)
    gap = np.log10(pv["EM"] / pv["SLD"])
    # A: k=1 gap log10(10 / 0.01) = 3 orders, k=2 never reached by EM; B: EM never reaches 0.9
    assert experiments.gap_range_text(gap) == "3.0–3.0 orders"
    assert experiments.gap_range_text(gap.loc["B"]) == "not reached on grid"
    text = experiments.per_graph_gap_text(gap, {"A": "real", "B": "synthetic"})
    assert text == ("A (real): 3.0–3.0 orders, 1 k not reached by the baseline on the grid (gap larger); "
                    "B (synthetic): not reached on grid, 2 k not reached by the baseline on the grid (gap larger)")


def test_gap_range_text_is_min_to_max_of_the_finite_gaps():
    vals = [0.52, np.nan, 3.07, 1.4]
    finite = [v for v in vals if not math.isnan(v)]
    assert experiments.gap_range_text(pd.Series(vals)) == f"{min(finite):.1f}–{max(finite):.1f} orders" == "0.5–3.1 orders"


def test_per_graph_gap_text_needs_graph_index_and_sources():
    gap = pd.Series([1.0, 2.0], index=pd.MultiIndex.from_tuples([("A", 1), ("B", 1)], names=["graph", "k"]))
    assert experiments.per_graph_gap_text(gap, {"A": "real", "B": "real"}) == "A (real): 1.0–1.0 orders; B (real): 2.0–2.0 orders"
    with pytest.raises(ValueError, match="no data source"):
        experiments.per_graph_gap_text(gap, {"A": "real"})
    with pytest.raises(ValueError, match="MultiIndex"):
        experiments.per_graph_gap_text(pd.Series([1.0]), {"A": "real"})


def test_median_suite_ranking_and_the_monte_carlo_se(tmp_path):
    import numpy as np
    import pandas as pd

    from dpworkbench.dampening import experiments as X

    rng = np.random.default_rng(0)
    hists = {"A": np.bincount(rng.integers(40, 60, 500), minlength=101),
             "B-X": np.bincount(np.r_[np.zeros(300, int), rng.integers(0, 101, 200)], minlength=101)}
    eps = [0.1, 1.0, 10.0]
    t = X.median_suite(hists, eps, seed=0, results_dir=tmp_path)
    assert set(t["dataset"]) == {"A", "B-X"} and len(t) == 2 * 3 * 4 and (t["se"] == 0).all()
    r = X.median_ranking(t)
    assert list(r["dataset"]) == ["A", "B-X"] and set(r["best"]) <= {"EM", "PF", "LD", "SLD"}
    a = t[t["dataset"] == "A"]
    red = X.median_reduction(a)
    assert red["se_mean"] == 0 and np.isclose(1 - r.loc[0, "ratio_LD"], red["mean"])
    # Monte-Carlo PF: the SE is the exact law's sqrt(Var/R), and it propagates to the reduction where PF < EM
    mc = X.median_curves(hists["A"], eps, pf="montecarlo", pf_runs=400, seed=1, results_dir=tmp_path, experiment="mc")
    pf = mc[mc["method"] == "PF"]
    assert (pf["se"] > 0).all() and (mc[mc["method"] != "PF"]["se"] == 0).all()
    ex = X.median_curves(hists["A"], eps, seed=1, results_dir=tmp_path, experiment="ex")
    z = (pf["error"].to_numpy() - ex[ex["method"] == "PF"]["error"].to_numpy()) / pf["se"].to_numpy()
    assert np.all(np.abs(z) < 5)
    # where PF is the smaller baseline its SE propagates: d(1 − LD/PF) = LD·SE/PF²
    hand = pd.DataFrame({"epsilon": [1.0] * 4, "method": ["EM", "PF", "LD", "SLD"], "error": [10.0, 8.0, 4.0, 5.0],
                         "se": [0.0, 0.4, 0.0, 0.0]})
    assert np.isclose(X.median_reduction(hand)["se_mean"], 4.0 * 0.4 / 64)
    assert X.median_reduction(hand.assign(error=[8.0, 10.0, 4.0, 5.0]))["se_mean"] == 0   # EM smaller: exact
    # PF's Monte-Carlo error 0 (every run exact at a large ε): no ratio there; finite, and the cell is counted
    two = pd.concat([hand, hand.assign(epsilon=1000.0, error=[1e-3, 0.0, 2e-3, 0.0], se=0.0),
                     hand.assign(epsilon=2000.0, error=[1e-3, 0.0, 0.0, 0.0], se=0.0)])
    r = X.median_reduction(two)
    assert np.isfinite([r["mean"], r["max"], r["se_mean"], r["se_max"], r["mean_vs_em"]]).all()
    assert r["cells_undefined"] == 1 and np.isclose(r["mean"], (0.5 + 0.0) / 2)
    rank = X.median_ranking(two.assign(dataset="D"))
    assert np.isfinite(rank[["ratio_EM", "ratio_PF", "ratio_LD", "ratio_SLD"]].to_numpy()).all()
    assert np.isclose(1 - rank.loc[0, "ratio_LD"], r["mean"])  # the same cells and the same rule as median_reduction


def test_every_dpbench_histogram_is_registered_with_a_stand_in(monkeypatch):
    from dpworkbench import datasets
    from dpworkbench.dampening.datasets import DPBENCH_1D, FIG17_SHOWN

    monkeypatch.setenv("DPWB_DATA", "/nonexistent")
    assert len(DPBENCH_1D) == 18 and set(FIG17_SHOWN) <= set(DPBENCH_1D)
    for name in ("BIDS-ALL", "NETTRACE", "LC-REQ-F1"):
        ds = datasets.load(f"dampening/{name}", seed=0)
        assert ds.source == "synthetic" and ds.data.shape == (4096,) and ds.data.sum() > 0
