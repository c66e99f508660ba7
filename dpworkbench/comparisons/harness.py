"""The cross-paper comparisons' release entry points for the privacy harness (:mod:`dpworkbench.testing.harness`).

One entry per public release API: :func:`~dpworkbench.comparisons.imi.r2t_imi` and
:meth:`R2TIMI.run <dpworkbench.comparisons.imi.R2TIMI.run>` (through :func:`r2t_imi_record`). Both run the R2T
declaration on a conflict graph's I_MI truncation (:func:`imi_truncation`), so its claimed ε, statistics (Q(I, τ) with
sensitivity τ) and sensitivities are R2T's (:func:`~dpworkbench.testing.declared.wrapped_entry`); the inputs and
parameters are R2T's harness instance (its example graphs of at most ``N_NODES`` tuples, a tuple conflicting with at
most 5 others, with its public GS_Q = 8: τ grid 2, 4, 8). The relation is tuple-level DP on the database behind the
graph, i.e. node-DP: one node (a tuple) removed with its edges, the rest relabelled.
"""

from __future__ import annotations

import numpy as np

from dpworkbench.cache import cached_call
from dpworkbench.inconsistency import from_edges
from dpworkbench.r2t.mechanisms import N_NODES, R2T, example_graphs
from dpworkbench.testing.declared import wrapped_entry
from dpworkbench.testing.harness import node_neighbours

from .imi import imi_truncation, r2t_imi, r2t_imi_record

PARAMS = dict(R2T.harness_params)  # epsilon, gs, beta
RELATION = "node-DP on the conflict graph: remove one tuple (node) with its conflicting pairs (remaining nodes relabelled)"

#: Public functions that take ε but release nothing a user would publish.
EXEMPT = {
    "table1_experiment": "research experiment (seeded numpy noise): a table of relative errors next to the paper's, "
                         "built from r2t_imi / R2TIMI.run and graph_projection, which are each in the harness",
}


def _memo(kind: str, x, compute):
    """Non-private per-input work ``compute(n, edges)``, content-keyed in :mod:`dpworkbench.cache`."""
    n, e = int(x[0]), np.asarray(x[1], dtype=np.int64).reshape(-1, 2)
    return cached_call("comparisons.harness", (kind, n, tuple(map(tuple, e.tolist()))), lambda: compute(n, e))


def _trunc(x):
    """The I_MI query's truncation (the real code path), cached per input: the non-private part."""
    return _memo("trunc", x, lambda n, e: imi_truncation(e, n))


def _entry(name, release, public):
    return wrapped_entry(R2T, PARAMS, name, _trunc, release,
                         relation=RELATION, public_inputs=public, n_samples=4000,
                         make_inputs=lambda rng: [(N_NODES, e) for e in example_graphs(rng)],
                         neighbours=lambda x: node_neighbours(*x))


def entry_points():
    """Every public release entry point of the cross-paper comparisons."""
    def record(x, rng):
        # base 2 / ceil: R2T's τ grid; n_bound: the public size bound of the class (the clip)
        graph = _memo("graph", x, lambda n, e: from_edges(n, [tuple(p) for p in e.tolist()]))
        return r2t_imi_record(graph, rng=rng, n_bound=N_NODES, base=2.0, rounding="ceil", **PARAMS).value
    return [_entry("comparisons.r2t_imi",
                   lambda x, rng: r2t_imi(None, x[0], rng=rng, truncation=_trunc(x), **PARAMS).value,
                   ("gs (GS_Q; default n_tuples is data-derived and listed in derived_public)", "base", "rounding",
                    "beta", "epsilon")),
            _entry("comparisons.r2t_imi_record (R2TIMI.run)", record,
                   ("gs", "n_bound (default: the graph's n, data-derived, listed in derived_public)", "pairs", "base",
                    "rounding", "beta", "epsilon"))]


__all__ = ["EXEMPT", "RELATION", "entry_points"]
