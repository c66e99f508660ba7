"""R2T and OPT² (Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024; seed 001).

Instance-optimal truncation for DP query evaluation with foreign keys: join
information from DuckDB or graph enumerators (:mod:`.joininfo`, :mod:`.sql`,
:mod:`.patterns`), truncations and LP proxies solved exactly with HiGHS or
max-flow (:mod:`.model`), the mechanisms (:mod:`.mechanisms`), baselines
(:mod:`.baselines`) and the experiments behind every table and figure.
Spec: ``../shared/spec/r2t.md``.
"""

from .joininfo import JoinInfo, from_arrays, from_frame, from_info_file, from_lists
from .mechanisms import (ScriptedNoise, exp_opt2, fixed_tau, naive_laplace, opt2, opt2_bound, r2t, r2t_bound,
                         random_tau, tau_grid)
from .model import FHat, SolverError, Truncation, clip_value, f_exact, naive_value, sja_bounds

__all__ = ["FHat", "JoinInfo", "ScriptedNoise", "SolverError", "Truncation", "clip_value", "exp_opt2", "f_exact",
           "fixed_tau", "from_arrays", "from_frame", "from_info_file", "from_lists", "naive_laplace", "naive_value",
           "opt2", "opt2_bound", "r2t", "r2t_bound", "random_tau", "sja_bounds", "tau_grid"]
