"""Package helpers the dampening notebooks call (graph drawing, Fig. 20 gap summaries, teaching dampening panel)."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from dpworkbench.dampening import experiments, teaching
from dpworkbench.dampening.figures import graph_figure
from dpworkbench.dampening.worked_examples import NODES, fig2_graph, fig9c_graph


@pytest.mark.parametrize("make", [fig2_graph, fig9c_graph])
def test_graph_figure_draws_every_edge_between_its_endpoints(make):
    G = make()
    fig = graph_figure(G, "toy")
    pos = nx.spring_layout(G, seed=1)
    lines = [tr for tr in fig.data if tr.mode == "lines"]
    nodes = [tr for tr in fig.data if tr.mode == "markers+text"]
    assert len(lines) == G.number_of_edges() and len(nodes) == 1
    assert list(nodes[0].text) == NODES
    at = {(round(float(pos[v][0]), 9), round(float(pos[v][1]), 9)): v for v in G}
    np.testing.assert_allclose(nodes[0].x, [pos[v][0] for v in NODES])
    np.testing.assert_allclose(nodes[0].y, [pos[v][1] for v in NODES])
    drawn = {frozenset(at[(round(x, 9), round(y, 9))] for x, y in zip(tr.x, tr.y)) for tr in lines}
    assert drawn == {frozenset(e) for e in G.edges}
    assert fig.layout.title.text == "toy" and fig.layout.xaxis.visible is False and fig.layout.yaxis.visible is False


def test_graph_figure_rejects_a_non_graph():
    with pytest.raises(ValueError, match="networkx graph"):
        graph_figure([("a", "b")], "x")


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


def _dampen_by_hand(u: float, row, gs: float) -> float:
    """Def. 3.3.1 walked segment by segment: slope 1/δ(t) between b(t) and b(t+1), then 1/Δu."""
    a, acc = abs(u), 0.0
    for k, d in enumerate(row):
        if a < acc + d:
            return math.copysign(k + (a - acc) / d, u)
        acc += d
    return math.copysign(len(row) + (a - acc) / gs, u)


@pytest.mark.parametrize("t", [0, 1, 2, 3, 7])
@pytest.mark.parametrize("gs", [7.0, 10.0, 60.0])
def test_teaching_dampening_figure_curve_and_breakpoint(t, gs):
    fig = teaching.teaching_dampening_figure(t, gs)
    row = list(teaching.TEACHING_DELTA_ROW)[: min(t, 3) + 1]
    ld = fig.data[0]
    want = [_dampen_by_hand(float(u), row, gs) for u in ld.x]
    np.testing.assert_allclose(ld.y, want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(fig.data[1].y, np.asarray(fig.data[1].x) / gs)
    assert max(ld.x) == pytest.approx(sum(row) + 2 * gs)
    shapes = [s for s in fig.layout.shapes]
    if t <= len(row):  # b(t) is drawn only while it is a breakpoint of the row shown
        assert len(shapes) == 1 and shapes[0].x0 == pytest.approx(sum(row[:t]))
    else:
        assert not shapes


def test_teaching_dampening_figure_rejects_negative_distance():
    with pytest.raises(ValueError, match="non-negative"):
        teaching.teaching_dampening_figure(-1, 10.0)
