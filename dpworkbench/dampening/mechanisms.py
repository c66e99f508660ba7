"""Everything of local dampening that spends ε on a generic utility: LD (Def. 3.4.1) and shifted LD
(Def. 4.2.1), each returning the shared :class:`dpworkbench.accounting.Release` after recording its
spend. The application mechanisms that build on them live with their models: PrivTopk in ``ebc``
(:func:`dpworkbench.dampening.ebc.priv_top_k`), median selection in ``median``
(:func:`dpworkbench.dampening.median.select_median`) and private ID3 in ``id3``
(:func:`dpworkbench.dampening.id3.fit`).

References
----------
V. A. E. de Farias, *Local Dampening: Differential Privacy for Non-numeric Queries via Local
Sensitivity*, PhD thesis, UFC 2021 (PVLDB 14(4) 2020), Def. 3.4.1 / Thm 3.5.1 (LD), Def. 4.2.1 /
Thm 4.3.1 (shifted LD).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dpworkbench._validation import check_epsilon
from dpworkbench.mechanisms import exponential_mechanism
from dpworkbench.mechanisms.backends import RngLike, check_rng

from .model import SensitivityMatrix, dampen, sld_utility

__all__ = ["local_dampening", "mechanism_ledger_name", "privacy_cost_selection", "shifted_local_dampening"]


def _require_admissible(delta: SensitivityMatrix, allow_unverified: bool, what: str) -> None:
    if not isinstance(delta, SensitivityMatrix):
        raise ValueError(f"delta must be a SensitivityMatrix, got {type(delta).__name__}")
    if delta.privacy_unverified and not allow_unverified:
        raise ValueError(f"{what} requires an admissible sensitivity function, but delta {delta.name or ''!s} is marked "
                         "privacy_unverified (e.g. the thesis' median Candidates, which under-estimates the local sensitivity); "
                         "pass allow_unverified=True only for labelled, non-private reproductions of the thesis")


def _selection_release(index: int, acc, mark, *, mechanism: str, public: dict, private: bool, exact: dict | None = None):
    from dpworkbench.accounting import Release

    return Release(int(index), ledger=acc.entries_since(mark), public=public, private=private, mechanism=mechanism,
                   exact=exact or {})


def privacy_cost_selection(epsilon: float, mechanism: str = "local dampening", note: str = ""):
    """The ledger of one LD / SLD / EM selection: a single sequential spend of ε (no budget is spent on δ:
    the data-dependent local sensitivity is covered by Thm 3.5.1 / 4.3.1).

    References
    ----------
    de Farias 2021, Thm 3.5.1 (LD), Thm 4.3.1 (SLD).
    """
    from dpworkbench.accounting import planned

    return planned((mechanism_ledger_name(mechanism), check_epsilon(epsilon), note))


def mechanism_ledger_name(mechanism: str) -> str:
    """Ledger name of a selection: LD, SLD and EM are all recorded as an exponential-mechanism draw (on D with
    sensitivity 1, on u − S with Δu, on u with Δu); PF as permute-and-flip.

    References
    ----------
    de Farias 2021, Def. 3.4.1, Def. 4.2.1.
    """
    return "permute-and-flip" if mechanism in ("PF", "permute-and-flip") else "exponential"


def local_dampening(utilities: Any, delta: SensitivityMatrix, *, epsilon: float, rng: RngLike = None, accountant=None, note: str = "",
                    allow_unverified: bool = False):
    """M_LD (Def. 3.4.1): ε-DP when δ is admissible (Thm 3.5.1). Spends ε (recorded before the draw).

    Parameters
    ----------
    utilities, delta:
        u(x, r) per candidate and δ(x, t, r) for t < T (a :class:`SensitivityMatrix`), both computed from the data.
    epsilon:
        Privacy budget of this selection.
    rng:
        ``None`` (default): the OpenDP release back-end; an int seed / Generator: seeded research run.

    Treated as public
    -----------------
    The candidate set (its size and order), ``epsilon``, the global sensitivity Δu and the horizon T of δ.

    Returns
    -------
    Release
        ``value`` = the selected candidate's index (a label; no utility or data value is released).
        ``private`` is False when a δ marked ``privacy_unverified`` was allowed (``allow_unverified=True``).

    References
    ----------
    de Farias 2021, Def. 3.4.1, Thm 3.5.1.
    """
    from dpworkbench.accounting import open_ledger

    _require_admissible(delta, allow_unverified, "local dampening")
    acc, mark = open_ledger(accountant)
    i = exponential_mechanism(dampen(utilities, delta), epsilon=epsilon, sensitivity=1.0, rng=check_rng(rng),
                              accountant=acc, note=note or "local dampening")
    return _selection_release(i, acc, mark, mechanism="local dampening", private=not delta.privacy_unverified,
                              public={"epsilon": float(epsilon), "candidates": int(np.size(utilities)),
                                      "global_sensitivity": delta.global_sensitivity, "horizon": delta.horizon,
                                      "delta": delta.name})


def shifted_local_dampening(utilities: Any, delta: SensitivityMatrix, *, epsilon: float, direction: str = "non-decreasing",
                            rng: RngLike = None, accountant=None, note: str = "", allow_unverified: bool = False):
    """M_SLD (Def. 4.2.1) via its closed form. ε-DP for admissible and bounded δ (Thm 4.3.1). Spends ε.

    ``rng=None`` uses the OpenDP release back-end; an int seed / Generator is a seeded research run.

    Treated as public
    -----------------
    The candidate set, ``epsilon``, the global sensitivity Δu, the horizon T (δ = Δu from T on: bounded, and
    admissible only because T does not depend on the data) and ``direction``.

    Returns
    -------
    Release
        ``value`` = the selected candidate's index; ``private`` is False for an allowed ``privacy_unverified`` δ.

    References
    ----------
    de Farias 2021, Def. 4.2.1, Thm 4.3.1.
    """
    from dpworkbench.accounting import open_ledger

    _require_admissible(delta, allow_unverified, "shifted local dampening")
    score = sld_utility(utilities, delta, direction)
    acc, mark = open_ledger(accountant)
    i = exponential_mechanism(score, epsilon=epsilon, sensitivity=delta.global_sensitivity, rng=check_rng(rng),
                              accountant=acc, note=note or "shifted local dampening")
    return _selection_release(i, acc, mark, mechanism="shifted local dampening", private=not delta.privacy_unverified,
                              public={"epsilon": float(epsilon), "candidates": int(np.size(utilities)),
                                      "global_sensitivity": delta.global_sensitivity, "horizon": delta.horizon,
                                      "direction": direction, "delta": delta.name})


