"""R2T as the baseline for the inconsistency measure I_MI (seed 000, Table 1 and Figs. 4–5; spec inconsistency 2.10).

I_MI of a database under binary denial constraints is the number of conflicting tuple
pairs = the edge count of the conflict graph. Under tuple-level DP (node-DP on the
conflict graph) it is a self-join counting query: every join result (a conflicting
pair) references two tuples. :func:`r2t_imi` runs R2T on it with the exact max-flow
truncation; the authors' artifact used GS = n, β = 0.1 and base 5.5 (paper default
base 2; both available). :func:`imi_truncation` builds the (cacheable) non-private part
once, so repeated runs only redraw the noise (used by
:class:`dpworkbench.inconsistency.r2t_baseline.R2TIMI`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..accounting import AccountantLike
from .joininfo import from_arrays
from .mechanisms import R2TResult, r2t
from .truncation import Truncation


class IMIRelease(R2TResult):
    """The :class:`R2TResult` of :func:`r2t_imi`; ``release["value"|"true"|"DS"|"winner_tau"|"result"]`` read as the
    old result dict did (``true`` and ``DS`` are exact, NOT PRIVATE; ``result`` is the release itself)."""

    def __getitem__(self, key: str) -> Any:
        if key == "result":
            return self
        if key == "value":
            return self.value
        if key == "true":
            return self.exact["answer"]
        if key == "DS":
            return self.exact["DS"]
        return super().__getitem__(key)


def imi_truncation(edges: np.ndarray, n_tuples: int, *, method: str = "auto") -> Truncation:
    """Q(I, τ) of the I_MI query: one join result per row of ``edges`` ((m, 2) tuple ids; self-loops dropped).

    Rows are not deduplicated: pass each unordered pair once for the R2T paper's self-join count, or both
    orientations for the artifact's ordered-pair count. Values Q(I, τ) are cached inside the returned object.
    """
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    n_tuples = int(n_tuples)
    if e.size and (e.min() < 0 or e.max() >= n_tuples):
        raise ValueError(f"edges must hold tuple ids in [0, n_tuples={n_tuples})")
    e = e[e[:, 0] != e[:, 1]]
    info = from_arrays(np.ones(len(e)), [e[:, 0], e[:, 1]], n_primary=n_tuples, name="I_MI")
    return Truncation(info, method)


def r2t_imi(edges: np.ndarray | None, n_tuples: int, *, epsilon: float, beta: float = 0.1, gs: float | None = None,
            base: float = 2.0, rounding: str = "ceil", rng: Any = None, accountant: AccountantLike | None = None,
            truncation: Truncation | None = None, note: str = "") -> IMIRelease:
    """Private I_MI (number of conflicting unordered pairs) by R2T. Spends ε.

    ``edges``: (m, 2) array of conflicting tuple ids (each unordered pair once);
    ``gs`` defaults to ``n_tuples`` (a tuple conflicts with at most n−1 others), as in the artifact.
    Use ``base=5.5, rounding="floor"`` for the artifact's grid. ``truncation``: a cached
    :func:`imi_truncation` of the same instance (then ``edges`` may be None).

    Treated as public
    -----------------
    gs : GS_Q. When omitted it is ``n_tuples``, the database's size, which is **derived from the data** (one
        tuple more or less changes it, and with it the τ grid): the release lists it in ``derived_public``;
        pass ``gs`` (a public bound on the size) for a strict release.
    n_tuples : used only as that default (and to check the tuple ids)
    base, rounding, beta, epsilon : as in :func:`~dpworkbench.r2t.mechanisms.r2t`
    """
    trunc = truncation if truncation is not None else imi_truncation(edges, n_tuples)
    info = trunc.info
    derived = () if gs is not None else ("GS_Q",)
    res = r2t(trunc, epsilon=epsilon, beta=beta, gs=float(gs if gs is not None else max(n_tuples, 2)), base=base,
              rounding=rounding, rng=rng, accountant=accountant, note=note or "R2T on I_MI (conflicting pairs)")
    return IMIRelease(value=res.value, ledger=res.ledger, public=res.public, derived_public=derived,
                      details=res.details, exact={**res.exact, "answer": float(info.answer), "DS": float(info.DS)},
                      private=res.private, mechanism="r2t")


__all__ = ["IMIRelease", "imi_truncation", "r2t_imi"]
