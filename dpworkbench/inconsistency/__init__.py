"""DP inconsistency measures (Mohapatra, Gilad, He, Kimelfeld; SIGMOD'25; seeds 000 and 003).

Modules: ``constraints`` (DC parsing), ``conflict_graph`` (fast/DuckDB/brute-force builders),
``measures`` (exact measures), ``projection`` (stable orders, Algorithm 1), ``selection`` (Eq. 2,
Algorithms 3–4, degree bound), ``algorithms`` (Algorithm 2 strategies, Algorithm 5), ``noise``
(RNoise/CONoise), ``datasets`` (Adult + synthetic Flight/Hospital/Stock/Tax), ``toy`` (the paper's toy
examples), ``experiments`` (figure drivers), ``teaching`` (widget views), ``cli``.
"""

from .constraints import DC, FD, P, load_dcs, parse_dc, parse_dcs
from .conflict_graph import ConflictGraph, build, from_edges
from .measures import all_measures, i_d, i_mc, i_mi, i_p, i_r_2approx, i_r_exact, i_r_lin
from .projection import Projector, order_edges
from .algorithms import STRATEGIES, dp_vertex_cover, dp_vertex_cover_cost, graph_projection, graph_projection_cost

__all__ = ["ConflictGraph", "DC", "FD", "P", "Projector", "STRATEGIES", "all_measures", "build", "dp_vertex_cover",
           "dp_vertex_cover_cost", "from_edges", "graph_projection", "graph_projection_cost", "i_d", "i_mc", "i_mi", "i_p", "i_r_2approx", "i_r_exact", "i_r_lin",
           "load_dcs", "order_edges", "parse_dc", "parse_dcs"]
