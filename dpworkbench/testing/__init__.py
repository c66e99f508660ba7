"""Privacy testing kit used by every paper subpackage's tests.

* :func:`audit_mechanism` — empirical privacy loss between two neighbouring inputs
  with Clopper–Pearson confidence bounds; :func:`assert_private` fails when the
  *lower* confidence bound on the loss exceeds ε (a statistically sound violation).
* :func:`brute_force_sensitivity` — exhaustive max |f(x) − f(x')| over all listed
  neighbours, for checking sensitivity claims on small inputs.
* neighbour generators for tuples and graph nodes, and :func:`max_log_ratio` for
  exact DP-ratio checks when both output laws are known.
"""

from .audit import AuditResult, assert_private, audit_mechanism, clopper_pearson, max_log_ratio
from .neighbours import (
    brute_force_sensitivity,
    graph_node_neighbours,
    random_small_graph,
    tuple_neighbours,
)

__all__ = [
    "AuditResult",
    "assert_private",
    "audit_mechanism",
    "brute_force_sensitivity",
    "clopper_pearson",
    "graph_node_neighbours",
    "max_log_ratio",
    "random_small_graph",
    "tuple_neighbours",
]
