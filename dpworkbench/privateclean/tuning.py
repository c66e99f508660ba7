"""Appendix E parameter tuning (spec §4)."""
from __future__ import annotations

import math
import warnings

from dpworkbench._validation import check_int, check_positive, check_probability
from .mechanism import epsilon_grr


def tune(S: int, error: float, *, z: float = 1.96, deltas: dict[str, float] | None = None,
         convention: str = "paper", N: int | None = None) -> dict:
    """Choose p (and b per numeric attribute) so any count has error ≤ error·S w.p. 1−α.

    p = 1 − z/(2·error·√S); b_j = Δ_j/ε_disc with ε_disc = ln(3/p−2) (paper) or ln(1+N(1−p)/p) (exact).
    """
    S = check_int(S, "S", minimum=1)
    error = check_positive(error, "error")
    p = 1.0 - z / (2.0 * error * math.sqrt(S))
    feasible = True
    if p <= 0:
        warnings.warn("target error unreachable at this S even without privacy; returning p=0", stacklevel=2)
        return {"p": 0.0, "feasible": False, "b": {}, "epsilon_paper": math.inf, "epsilon_exact": math.inf}
    p = min(p, 1 - 1e-9)
    e_paper = epsilon_grr(p, 3, "paper")
    e_exact = epsilon_grr(p, N, "exact") if N else math.nan
    e_used = e_paper if convention == "paper" else e_exact
    b = {k: check_positive(d, f"deltas[{k}]") / e_used for k, d in (deltas or {}).items()}
    return {"p": p, "feasible": feasible, "b": b, "epsilon_paper": e_paper, "epsilon_exact": e_exact}
