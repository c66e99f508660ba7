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
