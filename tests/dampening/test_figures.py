"""dampening.figures: the builders draw what they say."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

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


def _builders():
    """Every figure builder of dampening.figures and dampening.teaching on small inputs."""
    import pandas as pd

    from dpworkbench.dampening import datasets as D
    from dpworkbench.dampening import ebc, figures, reference, teaching, worked_examples
    from dpworkbench.graphs import holme_kim

    hist = np.zeros(64)
    hist[[3, 10, 20, 30, 40]] = [5, 8, 20, 7, 2]
    g = holme_kim(200, 3, 0.3, seed=1)
    methods = ["EM", "PF", "LD", "SLD"]
    med = pd.DataFrame([{"epsilon": x, "method": m, "error": 10 / x * (1 + i)} for x in (0.1, 1, 10) for i, m in enumerate(methods)])
    top = pd.DataFrame([{"k": k, "epsilon": x, "method": m, "accuracy": min(1, x / (i + 1))}
                        for k in (5, 10) for x in (0.1, 1, 10) for i, m in enumerate(methods)])
    budgets = pd.DataFrame([{"graph": name, "k": k, "method": m, "budget": 10.0 ** i}
                            for name in ("A", "B") for k in (5, 10) for i, m in enumerate(methods)])
    trees = pd.DataFrame([{"depth": d, "epsilon": x, "method": m, "accuracy": 0.6 + 0.01 * i}
                          for d in (2, 5) for x in (0.1, 1) for i, m in enumerate(["Global", "Local", "Shifted"])])
    probs = pd.DataFrame({"node": list("ab"), "EM": [0.5, 0.5], "LD": [0.6, 0.4]})
    # the notebook's Table 1: 15 columns (ours on the real graph and on the sample's own Δ, the thesis' PSQL) per graph
    paper = reference.TABLE1_PAPER
    table1 = paper[["B"]].assign(**{f"{g} {m}{kind}": paper[f"{g} {m}"] for g in ("Enron", "DBLP", "GitHub")
                                    for m, kind in (("PTK", " (ours, real)"), ("PTK", " (ours, sample's own Δ)"), ("PSQL", " (ours)"),
                                                    ("PSQL", " (ours, sample's own Δ)"), ("PSQL", " (thesis)"))})
    suite = pd.DataFrame([{"dataset": d, "epsilon": x, "method": m, "error": (1 + i) * (1 + k) / x * (1 + x * k / 40 if m == "LD" else 1)}
                          for k, d in enumerate(D.DPBENCH_1D) for x in (0.1, 1, 10) for i, m in enumerate(methods)])
    return {
        "median_figure": lambda: figures.median_figure(med, "Fig. 17: PATENT (synthetic)"),
        "median_sensitivity_figure": lambda: figures.median_sensitivity_figure(hist),
        "ebc_scatter": lambda: figures.ebc_scatter(ebc.ebc_all(g, cache=False), g.degrees, sample=100),
        "privtopk_figure": lambda: figures.privtopk_figure(top, "Fig. 20: Enron (real), ΔEBC = 1,234.5"),
        "budget_figure": lambda: figures.budget_figure(budgets, 0.9),
        "table1_figure": lambda: figures.table1_figure(reference.TABLE1_PAPER),
        "table1_figure_as_the_notebook": lambda: figures.table1_figure(table1),
        "median_suite_figure": lambda: figures.median_suite_figure(suite, "Median selection on every DPBench 1-D histogram (Λ = 4095)"),
        "id3_figure": lambda: figures.id3_figure(trees, "fig24: ACS (real)"),
        "dampening_figure": lambda: figures.dampening_figure([1, 2, 4, 7], 10.0, t_mark=2),
        "bounded_sensitivity_figure": lambda: figures.bounded_sensitivity_figure([1, 2, 4, 7], 10.0),
        "monotone_sensitivity_figure": lambda: figures.monotone_sensitivity_figure([9, 6, 3], np.array([[3, 6, 9, 10], [2, 4, 8, 10],
                                                                                                          [1, 2, 5, 9.0]]), 10.0),
        "example_probabilities_figure": lambda: figures.example_probabilities_figure(probs, ["EM", "LD"], epsilon=2),
        "graph_figure": lambda: figures.graph_figure(worked_examples.fig9c_graph(), "Fig. 3 / 9c / 15 graph"),
        "teaching_topk": lambda: teaching.teaching_topk("synthetic", 2.0, 5, n=100, runs=20, max_degree_factor=2)[0],
        "teaching_figure": lambda: teaching.teaching_figure("les_miserables", 2.0),
        "teaching_dampening_figure": lambda: teaching.teaching_dampening_figure(3, 10.0),
        "shift_figure": lambda: teaching.shift_figure(36.5, 2.0),
        "median_teaching_figure": lambda: teaching.median_teaching_figure(1.0, "thesis candidates", 0.05, "SLD"),
        "privacy_loss_figure": lambda: teaching.privacy_loss_figure(1.0, "thesis candidates")[0],
        "teaching_id3": lambda: teaching.teaching_id3(1.0, 6, 8, "gini", rows=500)[0],
    }


@pytest.mark.parametrize("name", sorted(_builders()))
def test_figures_pass_the_reviewer_checks(name):
    """No axis without a title, no colour missing from the legend, no title wider than the figure (plots.figure_problems)."""
    from dpworkbench.plots import figure_problems

    assert figure_problems(_builders()[name]()) == []


def test_median_suite_figure_one_line_per_dataset_and_it_saves(tmp_path):
    import pandas as pd

    from dpworkbench.dampening import datasets as D
    from dpworkbench.dampening import figures
    from dpworkbench.plots import save_figure

    rows = [dict(dataset=d, epsilon=e, method=m, error={"EM": 2.0, "PF": 1.9, "LD": 1.0, "SLD": 1.5}[m] + e)
            for d in D.DPBENCH_1D for e in (0.1, 1, 10) for m in ("EM", "PF", "LD", "SLD")]
    fig = figures.median_suite_figure(pd.DataFrame(rows), "t")
    assert len(fig.data) == 18 and abs(fig.data[0].y[0] - 1.1 / 2.0) < 1e-12
    assert save_figure(fig, tmp_path / "suite", png=False, svg=False)["html"].exists()   # the styled layout is valid
