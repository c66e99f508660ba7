"""PrivateClean (Krishnan et al., SIGMOD 2016): GRR private relations, cleaning with provenance,
bias-corrected COUNT/SUM/AVG, tuning. See /work/shared/spec/privateclean.md."""
from .mechanism import (PrivateRelation, b_for_epsilon, epsilon_grr, epsilon_laplace, grr, p_for_epsilon,
                        theorem2_bound, theorem2_exact, theorem2_probability)
from .cleaning import (CleanedRelation, apply_mapping, diff_provenance, edit_distance_merge, fd_repair_majority,
                       outlier_values)
from .estimators import Estimate, count_estimate, direct_bias_count, estimate, sum_estimate
from .tuning import allocate_epsilon, tune

__all__ = ["PrivateRelation", "b_for_epsilon", "epsilon_grr", "epsilon_laplace", "grr", "p_for_epsilon",
           "theorem2_bound", "theorem2_exact", "theorem2_probability", "CleanedRelation", "apply_mapping",
           "diff_provenance", "edit_distance_merge", "fd_repair_majority", "outlier_values", "Estimate", "count_estimate",
           "direct_bias_count", "estimate", "sum_estimate", "tune", "allocate_epsilon"]
