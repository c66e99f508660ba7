"""R2T as the baseline for the inconsistency measure I_MI (seed 000, Table 1 and Figs. 4–5; spec inconsistency 2.10).

I_MI of a database under binary denial constraints is the number of conflicting tuple
pairs = the edge count of the conflict graph. Under tuple-level DP (node-DP on the
conflict graph) it is a self-join counting query: every join result (a conflicting
pair) references two tuples. :func:`r2t_imi` runs R2T on it with the exact max-flow
truncation; the authors' artifact used GS = n, β = 0.1 and base 5.5 (paper default
base 2; both available).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..accounting import Accountant
from .joininfo import from_arrays
from .mechanisms import r2t
from .truncation import Truncation


def r2t_imi(edges: np.ndarray, n_tuples: int, *, epsilon: float, beta: float = 0.1, gs: float | None = None,
            base: float = 2.0, rounding: str = "ceil", rng: Any = None, accountant: Accountant | None = None) -> dict:
    """Private I_MI (number of conflicting unordered pairs) by R2T. Spends ε.

    ``edges``: (m, 2) array of conflicting tuple ids (each unordered pair once);
    ``gs`` defaults to ``n_tuples`` (a tuple conflicts with at most n−1 others), as in the artifact.
    Use ``base=5.5, rounding="floor"`` for the artifact's grid.
    """
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    e = e[e[:, 0] != e[:, 1]]
    info = from_arrays(np.ones(len(e)), [e[:, 0], e[:, 1]], n_primary=int(n_tuples), name="I_MI")
    res = r2t(Truncation(info), epsilon=epsilon, beta=beta, gs=float(gs or max(n_tuples, 2)), base=base, rounding=rounding,
              rng=rng, accountant=accountant, note="R2T on I_MI (conflicting pairs)")
    return {"value": res.value, "true": info.answer, "DS": info.DS, "winner_tau": res.winner_tau, "result": res}


__all__ = ["r2t_imi"]
