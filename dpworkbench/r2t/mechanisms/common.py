"""What R2T's declarations and its baselines (:mod:`.baselines`) share: the neighbouring relations (declared once),
the τ grid, the research-only generator and the harness's example graphs. Its own module so that the package and
``baselines`` both import it and neither imports the other's half."""

from __future__ import annotations

import math

import numpy as np

from ..._validation import check_options, check_positive
from ...mechanisms.backends import NumpyBackend, RngLike
from ...mechanisms.declaration import FK_TUPLE, NODE

#: The neighbouring relation every mechanism here is ε-DP under (spec 1.2-1.3), declared once.
RELATION = FK_TUPLE("on the query's join information: one primary private tuple with every join result referencing "
                    "it; for a graph pattern the nodes are the primary private relation (node-DP)")
#: ``dpworkbench r2t sql``: the primary private relation(s) named by --private, keys from the declared schema.
SQL_RELATION = FK_TUPLE("the primary private relation(s) are named by --private; dependants follow the declared "
                        "foreign keys, directly or transitively")
SQL_RELATION_NO_SCHEMA = FK_TUPLE("the primary private relation(s) are named by --private; no foreign keys are "
                                  "declared, so every other table is public")
#: ``dpworkbench r2t graph``: node-DP on the edge list.
GRAPH_RELATION = NODE("the nodes of the edge list are the primary private relation; a pattern occurrence references "
                      "its nodes")


def research_generator(rng: RngLike, mechanism: str, why: str) -> np.random.Generator:
    """The numpy generator of a research-only mechanism; refuses a release back-end (and ``rng=None``) with an
    error naming the mechanism and why, instead of silently falling back to numpy noise."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return np.random.default_rng(int(rng))
    if isinstance(rng, NumpyBackend):
        return rng.generator
    raise ValueError(f"{mechanism} cannot run on a release back-end ({why}); it is a research baseline: pass a "
                     f"seeded numpy Generator or an int seed (got {type(rng).__name__})")


def tau_grid(gs: float, base: float = 2.0, *, rounding: str = "ceil") -> np.ndarray:
    """τ^(i) = base^i, i = 1..K with K = ⌈log_base GS⌉ (spec 6.1 #2; ``rounding="floor"`` = authors' code).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §5 (τ_i = 2^i, i = 1..log GS_Q); spec 2.6 and 6.1 #2 (the authors' base 5.5).
    """
    gs = check_positive(gs, "gs")
    base = float(base)
    if not base > 1:
        raise ValueError(f"base must be > 1, got {base}")
    check_options(rounding, "rounding", ("ceil", "floor"))
    raw = math.log(gs) / math.log(base)
    k = math.ceil(raw - 1e-12) if rounding == "ceil" else math.floor(raw + 1e-12)
    k = max(k, 1)
    return base ** np.arange(1, k + 1, dtype=float)


N_NODES = 6  # graphs on at most 6 nodes: a node's edge count (S_Q for the edge query) is ≤ 5


def example_graphs(rng: np.random.Generator) -> list[np.ndarray]:
    """Edge lists on ``N_NODES`` nodes: a star with DS = 5 (the neighbour pair that moves most) and two random graphs."""
    iu = np.array([(i, j) for i in range(N_NODES) for j in range(i + 1, N_NODES)])
    star = np.array([[0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [1, 2]])
    return [star] + [iu[rng.random(len(iu)) < p] for p in (0.5, 0.7)]


__all__ = ["GRAPH_RELATION", "N_NODES", "RELATION", "SQL_RELATION", "SQL_RELATION_NO_SCHEMA", "example_graphs",
           "research_generator", "tau_grid"]
