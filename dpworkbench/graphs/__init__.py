"""Graph core: a CSR graph type, SNAP loaders and seeded generators.

Paper subpackages build their kernels (conflict graphs, pattern enumeration, EBC)
on :class:`CSRGraph`; non-private graph work is cached by :meth:`CSRGraph.fingerprint`.
"""

from .core import CSRGraph, from_edge_array, from_networkx
from .generators import degree_capped, erdos_renyi, holme_kim, thinned_grid
from .io import load_edge_list, read_edge_lines

__all__ = [
    "CSRGraph",
    "degree_capped",
    "erdos_renyi",
    "from_edge_array",
    "from_networkx",
    "holme_kim",
    "load_edge_list",
    "read_edge_lines",
    "thinned_grid",
]
