"""Finding 1: the "stable" edge order hashed row positions, so deleting a middle row reordered the edges of the
other tuples. Table A = 0, B = [0, 0, 1, 0, 1, 2], FD A → B: deleting row 2 moved F_MI(θ=1) by 2 (claimed ≤ θ),
the Alg. 5 cover by 4 (claimed ≤ 2) and an EM quality by 1.67× its sensitivity. Now the order ranks each tuple's
identity (content hash, or a key column), so every add/remove-one-row neighbour keeps the claims."""

from __future__ import annotations

import pandas as pd
import pytest

from dpworkbench.inconsistency import FD, build, dp_vertex_cover, graph_projection
from dpworkbench.inconsistency.mechanisms import basic_em, quality_sensitivity
from dpworkbench.inconsistency.model import Projector
from dpworkbench.testing.harness import row_neighbours

D = pd.DataFrame({"A": [0] * 6, "B": [0, 0, 1, 0, 1, 2]})
DCS = [FD("A", "B")]
UNIVERSE = pd.DataFrame({"A": [0, 0], "B": [0, 3]})
CANDS = [1, 2, 3]


def _stats(df, **kw):
    g = build(df, DCS, **kw)
    f1 = graph_projection(g, "MI", 1.0, strategy="em", thetas=[1], rng=0)["truncated"]
    cover = dp_vertex_cover(g, 1.0, rng=0)["truncated"]
    q = basic_em(Projector(g), CANDS, eps1=0.4, eps2=0.6, measure="MI", rng=0)["quality"]
    return f1, cover, q


@pytest.mark.parametrize("kw", [{}, {"id_column": "id"}], ids=["content", "id_column"])
def test_deletion_and_insertion_at_every_position_keep_the_sensitivities(kw):
    base = D.assign(id=[10, 11, 12, 13, 14, 15]) if kw else D
    uni = UNIVERSE.assign(id=[20, 21]) if kw else UNIVERSE
    f1, cover, q = _stats(base, **kw)
    dq = quality_sensitivity(max(CANDS), "MI", "safe")
    pairs = 0
    for nb in row_neighbours(base, uni):
        g1, c1, q1 = _stats(nb, **kw)
        assert abs(g1 - f1) <= 1, (nb, f1, g1)
        assert abs(c1 - cover) <= 2, (nb, cover, c1)
        assert max(abs(a - b) for a, b in zip(q, q1)) <= dq + 1e-9, (nb, q, q1)
        pairs += 1
    assert pairs == 6 + 2 * 7


def test_the_reported_deletion():
    g, gp = build(D, DCS), build(D.drop(index=2).reset_index(drop=True), DCS)
    assert abs(Projector(g).f(1, "MI") - Projector(gp).f(1, "MI")) <= 1
    assert abs(dp_vertex_cover(g, 1.0, rng=0)["truncated"] - dp_vertex_cover(gp, 1.0, rng=0)["truncated"]) <= 2


def test_lex_order_on_positions_is_stable_too():
    f = [Projector(build(x, DCS), rule="lex").f(1, "MI") for x in [D, *row_neighbours(D, UNIVERSE)]]
    assert max(abs(a - f[0]) for a in f[1:]) <= 1
