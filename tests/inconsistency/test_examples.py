"""The paper's worked examples (Fig. 2, Tables 3–4, Examples 3, 5–6, Fig. 10): inconsistency.examples."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpworkbench.inconsistency import FD, Projector, dp_vertex_cover, examples
from dpworkbench.inconsistency import model as M
from dpworkbench.inconsistency.model import degree_bound


# ----------------------------------------------------------------------------------- §2.12 exact vectors
@pytest.mark.parametrize("rule", ["lex", "rank"])
def test_fig2_star_vectors(rule):
    g = examples.fig2_graph()
    proj = Projector(g, rule=rule, seed=5)
    assert [proj.f(t, "MI") for t in (1, 2, 3)] == [1, 2, 3]
    assert [proj.f(t, "P") for t in (1, 2, 3)] == [2, 3, 4]
    assert (M.i_mi(g), M.i_p(g), M.i_r_exact(g), M.i_r_2approx(g, rule=rule), g.max_degree()) == (3, 4, 1, 2, 3)
    assert M.i_d(g) == 1 and M.i_d(examples.fig2_graph(False)) == 0


def test_table3_table4_vectors():
    assert np.allclose(examples.table3()["quality"], [-3.4142, -3.8284, -4.2426], atol=1e-4)
    t4 = examples.table4()
    em = t4[t4.scheme == "EM (ε)"].probability.to_numpy()
    assert np.allclose(em, [0.3566, 0.3328, 0.3106], atol=1e-4)
    after3 = t4[(t4.scheme == "2-EM step 2 (ε/2)") & (t4.after == "θ3")].probability.to_numpy()
    assert np.allclose(after3, [0.5086, 0.4914], atol=1e-4)
    after2 = t4[(t4.scheme == "2-EM step 2 (ε/2)") & (t4.after == "θ2")]
    assert after2.theta.tolist() == [1] and after2.probability.iloc[0] == pytest.approx(1.0)


def test_example3_bound_and_example6_trace_and_fig10():
    assert degree_bound(examples.capital_country(), [FD("Capital", "Country")])[0] == 3
    tr = examples.example6_trace()
    assert list(zip(tr.c, tr["c'"])) == [(2, 2), (2, 2), (2, 2), (4, 4), (4, 4), (4, 6), (6, 6)]
    g, gp = examples.fig3_graphs()
    assert (M.i_r_exact(g), M.i_r_exact(gp)) == (3, 4)
    curve = examples.fig10_curve([0.001, 0.01, 0.05, 0.1, 0.2, math.exp(-math.sqrt(2))])
    assert np.allclose(curve.iloc[:, 1], [55.61, 41.80, 32.14, 27.98, 23.82, 22.65], atol=0.01)
    ex5 = examples.example5_orders()
    assert set(ex5[ex5.graph == "G"].cover_size) == {4, 6}


def test_example6_by_the_kernel_in_lexicographic_order():
    g, gp = examples.fig3_graphs()
    assert dp_vertex_cover(g, 1.0, order="lex", rng=0)["truncated"] == 6
    assert dp_vertex_cover(gp, 1.0, order="lex", rng=0)["truncated"] == 6
