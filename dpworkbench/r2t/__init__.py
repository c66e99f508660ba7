"""R2T and OPT² (Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024; seed 001).

Instance-optimal truncation for DP query evaluation with foreign keys. The modules, in the
roles every paper of the workbench shares:

* :mod:`.model` — the non-private side: truncations Q(I,τ) (LP with HiGHS, max-flow,
  clipping), the OPT² proxies F̂(I,τ) and F(I,τ), and :class:`~.model.Instance` (a dataset ×
  query with its solvers; join information cached by content). Join information comes from
  :mod:`.joininfo`, :mod:`.sql` (DuckDB), :mod:`.patterns` (graph enumerators) and :mod:`.tpch`.
* :mod:`.mechanisms` — everything that spends ε (R2T, OPT², ExpOPT², the Laplace/fixed-τ/random-τ
  baselines), returning :class:`dpworkbench.accounting.Release`; :mod:`.mechanisms.baselines` holds NT,
  SDE, RM and LS (also Releases).
* :mod:`.datasets`, :mod:`.experiments` (drivers through ``run_grid``), :mod:`.figures`,
  :mod:`.teaching` (widget views), :mod:`.reference` (the paper's numbers), :mod:`.claims`
  (claim rules per notebook), :mod:`.cli`; :mod:`.example` (Fig. 2) and :mod:`.harness`
  (privacy-harness entry points) beside them.

Spec: ``../shared/spec/r2t.md``.

References
----------
Dong, Fang, Yi, Tao, Machanavajjhala, "Instance-optimal Truncation for Differentially Private Query
Evaluation with Foreign Keys", ACM Transactions on Database Systems 49(4), 2024.
"""

from ..papers import Paper

PAPER = Paper(key="r2t", title="R2T and OPT²: instance-optimal truncation with foreign keys (Dong, Fang, Yi, Tao, Machanavajjhala; TODS 2024)", seeds=('001',), order=2)

from .joininfo import JoinInfo, from_arrays, from_frame, from_info_file, from_lists
from .mechanisms import (ScriptedNoise, exp_opt2, fixed_tau, naive_laplace, opt2, opt2_bound, r2t, r2t_bound,
                         random_tau, tau_grid)
from .model import FHat, SolverError, Truncation, clip_value, f_exact, naive_value, sja_bounds

__all__ = ["FHat", "JoinInfo", "ScriptedNoise", "SolverError", "Truncation", "clip_value", "exp_opt2", "f_exact",
           "fixed_tau", "from_arrays", "from_frame", "from_info_file", "from_lists", "naive_laplace", "naive_value",
           "opt2", "opt2_bound", "r2t", "r2t_bound", "random_tau", "sja_bounds", "tau_grid"]
