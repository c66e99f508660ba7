"""Finding 6: releases used add/remove-one-tuple neighbours but clipped to [0, n] with the data's own n (and built
Θ from it). On 12 conflicting rows vs the same minus one, graph_projection for I_P put mass 0.19 on the output 12
for D and none above 11 for D' (infinite privacy loss); dp_vertex_cover: P(out > 5) was 0.69 on D vs 0 on D'.
Now nothing depends on the true n: a public ``n_bound`` or (default) a private size bound from a share of ε."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from dpworkbench.inconsistency import FD, build, dp_vertex_cover, graph_projection

DCS = (FD("A", "B"),)


def _tables(n):
    d = pd.DataFrame({"A": [0] * n, "B": list(range(n))})  # every pair conflicts
    return d, d.iloc[:-1].reset_index(drop=True)


def test_graph_projection_ip_above_the_neighbours_size():
    D, Dp = _tables(12)
    g, gp = build(D, DCS), build(Dp, DCS)
    runs = 600
    hi = [graph_projection(g, "P", 1.0, df=D, dcs=DCS, rng=s)["output"] > 11 for s in range(runs)]
    hip = [graph_projection(gp, "P", 1.0, df=Dp, dcs=DCS, rng=10**6 + s)["output"] > 11 for s in range(runs)]
    p, pp = np.mean(hi), np.mean(hip)
    assert p > 0.1
    assert pp >= p * math.exp(-1.0) - 0.06, (p, pp)  # comparable: within e^ε up to sampling error


def test_dp_vertex_cover_above_the_neighbours_size():
    D, Dp = _tables(6)
    g, gp = build(D, DCS), build(Dp, DCS)
    p = np.mean([dp_vertex_cover(g, 1.0, rng=s)["output"] > 5 for s in range(600)])
    pp = np.mean([dp_vertex_cover(gp, 1.0, rng=10**6 + s)["output"] > 5 for s in range(600)])
    assert p > 0.3 and pp >= p * math.exp(-1.0) - 0.06, (p, pp)


def test_harness_flags_the_old_behaviour_data_size_as_public():
    """Passing the data's own size as n_bound is exactly the old behaviour: the harness must flag it."""
    from dpworkbench.inconsistency.mechanisms import I_P, Table, table_statistics
    from dpworkbench.testing.declared import entry_point
    from dpworkbench.testing.harness import EntryPoint, check_entry_point

    base = entry_point(I_P)  # the declared I_P release's harness entry
    cache: dict = {}

    def old(table, rng):
        if id(table) not in cache:  # the deterministic build once per table; the noise is not cached
            cache[id(table)] = (table, table_statistics(table))
        stats = cache[id(table)][1]
        return graph_projection(stats.graph, "P", 1.0, df=table.df, dcs=DCS, rng=rng, projector=stats.proj,
                                n_bound=len(table.df)).value

    def tables(rng):
        return [Table(_tables(6)[0], DCS)]

    e = EntryPoint(**{**base.__dict__, "release": old, "make_inputs": tables, "expect_flagged": True,
                      "neighbours": lambda t: [Table(t.df.iloc[:-1].reset_index(drop=True), DCS)]})
    assert check_entry_point(e, n_samples=3000).flagged
