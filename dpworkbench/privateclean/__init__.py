"""PrivateClean (Krishnan et al., SIGMOD 2016): GRR private relations, cleaning with provenance,
bias-corrected COUNT/SUM/AVG, tuning. See /work/shared/spec/privateclean.md.

Modules (the same roles as every paper): ``model`` (non-private: PrivateRelation, CleanedRelation, cleaners,
provenance), ``mechanisms`` (everything that spends ε: GRR + Laplace, ε/p/b conversions, the ledger plan),
``datasets``, ``experiments`` (sweeps through ``run_grid`` and their summaries), ``figures`` (every plotly figure),
``teaching`` (widget views), ``reference`` (the paper's numbers), ``claims`` (one claim function per notebook) and
``cli``. Paper-specific extras: ``estimators`` (Direct / PrivateClean / no-provenance COUNT, SUM, AVG), ``tuning``
(Appendix E), ``batch`` (vectorised Monte-Carlo), ``synthetic`` (Appendix D generator), ``query`` (the
query behind the CLI: privatise → clean → estimate), ``harness`` (the CLI's privacy-harness entry).

Where the workbench departs from the paper (corrected default first, the paper's version as a labelled option):

* ε of GRR: exact ln(1 + N(1−p)/p) per discrete partition (``epsilon_grr(..., convention="exact")``); Lemma 1's
  ln(3/p − 2), exact only for N = 3, is ``convention="paper"`` and shown beside it in every ledger.
* Domains and numeric bounds are public inputs (issue 21): a release without them is refused from the arguments
  alone; only a seeded research run may read them off the data (warns, ``derived_public``, ``private=False``).
  Numeric attributes are clipped into ``bounds`` (Δ = hi − lo; a Δ without bounds is refused: it bounds nothing) and a
  missing number becomes ``fill``; a value outside the domain maps to ``other``/NULL (or is replaced with probability
  1). The release is a total function of the rows, and no message names a cell or a count.
* ``grr`` privatises every column it releases (an unlisted column is a ValueError: it would have ε = ∞) and never
  writes to its input. ``regenerate_until_domain_preserved`` (Theorem 2) is off by default and labelled in the ledger.
* Theorem 2 / Example 3: the bound as stated gives 483 / 644 records (the paper prints 391 / 552).
* ``grr`` returns an ``accounting.Release`` (value: the ``PrivateRelation``; ε only in its ledger, which equals
  ``privacy_cost(...)``); Lemma 1's accounting is the labelled option ``accounting="paper_lemma1"`` (``private=False``
  for N > 3). Neighbouring relation: substitute one record (bounded DP; the row count S is public). Cleaning and
  every estimator (Direct, PrivateClean, no-provenance) are post-processing: they read only V and public parameters.
* Intervals: per-row CLT (COUNT, SUM) and delta method (AVG) by default; the paper's forms with ``ci="paper"``.
* Appendix E tuning: b from the exact ε of the tuned p (needs N); the printed ln(3/p − 2) with ``convention="paper"``.
* Weighted provenance w_lm = rows(l → m) / rows(l) (the printed formula contradicts Example 6); L_pred counts
  dirty values with *an* edge into M_pred.
"""

from ..papers import Paper

PAPER = Paper(key="privateclean", title="PrivateClean: data cleaning and differential privacy (Krishnan et al.; SIGMOD 2016)", seeds=('002',), order=3)
from .mechanisms import (b_for_epsilon, epsilon_grr, epsilon_laplace, grr, p_for_epsilon, privacy_cost,
                         privacy_cost_table, theorem2_bound, theorem2_exact, theorem2_probability)
from .model import (CleanedRelation, PrivateRelation, apply_mapping, diff_provenance, edit_distance_merge,
                    fd_repair_majority, outlier_values)
from .estimators import Estimate, count_estimate, direct_bias_count, estimate, sum_estimate
from .tuning import allocate_epsilon, tune

__all__ = ["PrivateRelation", "b_for_epsilon", "epsilon_grr", "epsilon_laplace", "grr", "p_for_epsilon", "privacy_cost",
           "privacy_cost_table",
           "theorem2_bound", "theorem2_exact", "theorem2_probability", "CleanedRelation", "apply_mapping",
           "diff_provenance", "edit_distance_merge", "fd_repair_majority", "outlier_values", "Estimate", "count_estimate",
           "direct_bias_count", "estimate", "sum_estimate", "tune", "allocate_epsilon"]
