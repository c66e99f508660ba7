"""The cross-paper comparisons' release entry points for the privacy harness (:mod:`dpworkbench.testing.harness`).

One entry per public release API: :func:`~dpworkbench.comparisons.imi.r2t_imi` and
:meth:`R2TIMI.run <dpworkbench.comparisons.imi.R2TIMI.run>` (through :func:`r2t_imi_record`). The input is a
conflict graph; the neighbouring relation is the one of tuple-level DP on the database behind it, i.e. node-DP:
remove one node (a tuple) with its edges (its conflicting pairs), the rest relabelled (:func:`node_neighbours`).

Pre-noise statistics go through the real code (edge list → :func:`imi_truncation` → :class:`Truncation`): Q(I, τ)
for each τ of the grid, with sensitivity τ (R2T's property 1, spec r2t 2.2), on graphs of at most ``N_NODES``
nodes with the public GS_Q = ``GS_GRAPH`` (τ grid 2, 4, 8).
"""

from __future__ import annotations

import numpy as np

from dpworkbench.cache import cached_call
from dpworkbench.inconsistency import from_edges
from dpworkbench.r2t import Truncation, tau_grid
from dpworkbench.r2t.mechanisms import R2T
from dpworkbench.testing.harness import EntryPoint, node_neighbours

from .imi import imi_truncation, r2t_imi, r2t_imi_record

EPS = 1.0
BETA = 0.1
N_NODES = 6          # conflict graphs on at most 6 tuples: a tuple's conflicting pairs (S_Q) are ≤ 5
GS_GRAPH = 8.0       # public GS_Q on that class (τ grid 2, 4, 8)
TESTS = "tests/privacy/test_harness_comparisons.py"
RELATION = "node-DP on the conflict graph: remove one tuple (node) with its conflicting pairs (remaining nodes relabelled)"

#: Public functions that take ε but release nothing a user would publish.
EXEMPT = {
    "table1_experiment": "research experiment (seeded numpy noise): a table of relative errors next to the paper's, "
                         "built from r2t_imi / R2TIMI.run and graph_projection, which are each in the harness",
}

def _inputs(rng):
    star = np.array([[0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [1, 2]])  # DS = 5: the neighbour pair that moves most
    iu = np.array([(i, j) for i in range(N_NODES) for j in range(i + 1, N_NODES)])
    return [(N_NODES, star)] + [(N_NODES, iu[rng.random(len(iu)) < p]) for p in (0.5, 0.7)]


def _memo(kind: str, x, compute):
    """Non-private per-input work ``compute(n, edges)``, content-keyed in :mod:`dpworkbench.cache`."""
    n, e = int(x[0]), np.asarray(x[1], dtype=np.int64).reshape(-1, 2)
    return cached_call("comparisons.harness", (kind, n, tuple(map(tuple, e.tolist()))), lambda: compute(n, e))


def _trunc(x) -> Truncation:
    """The I_MI query's truncation (the real code path), cached per input: the non-private part."""
    return _memo("trunc", x, lambda n, e: imi_truncation(e, n))


def _graph(x):
    """The inconsistency paper's :class:`ConflictGraph` of the edge list (what :class:`R2TIMI` is given)."""
    return _memo("graph", x, lambda n, e: from_edges(n, [tuple(p) for p in e.tolist()]))


def _stats(x):
    tr = _trunc(x)
    return {**{f"Q(I,{t:g})": float(tr.value(t)) for t in tau_grid(GS_GRAPH)}, "Q(I)": float(tr.info.answer)}


def _entry(name, release, *, public, n_samples=4000):
    return EntryPoint(
        name=name, kind="api", paper="comparisons", relation=RELATION,
        claimed_epsilon=R2T.epsilon(epsilon=EPS, gs=GS_GRAPH), public_inputs=public,
        make_inputs=_inputs, neighbours=lambda x: node_neighbours(*x), statistics=_stats,
        sensitivities={f"Q(I,{t:g})": float(t) for t in tau_grid(GS_GRAPH)}, release=release, n_samples=n_samples,
        tests=TESTS)


def _r2t_imi_api():
    def release(x, rng):
        n, _ = x
        return r2t_imi(None, n, epsilon=EPS, beta=BETA, gs=GS_GRAPH, rng=rng, truncation=_trunc(x)).value
    return _entry("comparisons.r2t_imi", release,
                  public=("gs (GS_Q; default n_tuples is data-derived and listed in derived_public)", "base",
                          "rounding", "beta", "epsilon"))


def _r2t_imi_record_api():
    def release(x, rng):
        # base 2 / ceil: the τ grid of the statistics above; n_bound: the public size bound of the class (the clip)
        return r2t_imi_record(_graph(x), EPS, rng=rng, gs=GS_GRAPH, n_bound=N_NODES, base=2.0, rounding="ceil",
                              beta=BETA).value
    return _entry("comparisons.r2t_imi_record (R2TIMI.run)", release,
                  public=("gs", "n_bound (default: the graph's n, data-derived, listed in derived_public)", "pairs",
                          "base", "rounding", "beta", "epsilon"))


def entry_points() -> list[EntryPoint]:
    """Every public release entry point of the cross-paper comparisons."""
    return [_r2t_imi_api(), _r2t_imi_record_api()]


__all__ = ["EXEMPT", "RELATION", "entry_points"]
