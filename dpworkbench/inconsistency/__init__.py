"""DP inconsistency measures (Mohapatra, Gilad, He, Kimelfeld; SIGMOD'25; seeds 000 and 003).

Modules: ``constraints`` (DC parsing and binding to a table's schema), ``conflict_graph`` (fast/DuckDB/brute-force
builders), ``model`` (non-private: exact measures, stable orders, Algorithm 1, Θ, Eq. 2 quality, FD degree bound),
``mechanisms`` (everything that spends ε: Algorithms 2–5), ``noise_injection`` (RNoise/CONoise: data errors, not
DP noise), ``datasets`` (Adult + synthetic Flight/Hospital/Stock/Tax), ``examples`` (the paper's toy examples),
``experiments`` (drivers), ``figures`` (plotly figures), ``teaching`` (widget views), ``reference`` (the paper's
numbers), ``claims`` (claim rules of the notebooks), ``harness`` (privacy-harness entry points), ``cli``.

References
----------
.. [1] Mohapatra, Gilad, He, Kimelfeld. "Differentially Private Inconsistency Measures", SIGMOD 2025.
"""

from ..papers import Paper

PAPER = Paper(key="inconsistency", title="Differentially private inconsistency measures (Mohapatra, Gilad, He, Kimelfeld; SIGMOD 2025)", seeds=('000', '003'), order=1)

from .constraints import DC, FD, P, load_dcs, parse_dc, parse_dcs
from .conflict_graph import ConflictGraph, build, from_edges
from .model import Projector, all_measures, i_d, i_mc, i_mi, i_p, i_r_2approx, i_r_exact, i_r_lin, order_edges
from .mechanisms import STRATEGIES, dp_vertex_cover, dp_vertex_cover_cost, graph_projection, graph_projection_cost

__all__ = ["ConflictGraph", "DC", "FD", "P", "Projector", "STRATEGIES", "all_measures", "build", "dp_vertex_cover",
           "dp_vertex_cover_cost", "from_edges", "graph_projection", "graph_projection_cost", "i_d", "i_mc", "i_mi", "i_p",
           "i_r_2approx", "i_r_exact", "i_r_lin", "load_dcs", "order_edges", "parse_dc", "parse_dcs"]
