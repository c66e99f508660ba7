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
