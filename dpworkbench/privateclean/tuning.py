"""Appendix E parameter tuning (spec §4)."""
from __future__ import annotations

import math
import warnings

from dpworkbench._validation import check_int, check_positive, check_options
from .mechanisms import epsilon_grr


def tune(S: int, error: float, *, z: float = 1.96, deltas: dict[str, float] | None = None,
         convention: str = "exact", N: int | None = None) -> dict:
    """Choose p (and b per numeric attribute) so any count has error ≤ error·S w.p. 1−α.

    p = 1 − z/(2·error·√S); b_j = Δ_j/ε_disc, so each numeric attribute spends the same ε as the discrete one.
    ``convention="exact"`` (default) uses the true GRR ε_disc = ln(1+N(1−p)/p) for the domain size ``N`` (the
    largest partition's, spec §4), which needs ``N`` when ``deltas`` are given; ``"paper"`` is Appendix E as
    printed, ε_disc = ln(3/p−2) (Lemma 1, which understates the discrete ε for N > 3). Both ε values are returned.

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), Appendix E (parameter tuning); spec §4.
    """
    S = check_int(S, "S", minimum=1)
    error = check_positive(error, "error")
    check_options(convention, "convention", ("exact", "paper"))
    if convention == "exact" and deltas and N is None:
        raise ValueError("N (domain size of the discrete partition) is required to set b with convention='exact'; "
                         "or pass convention='paper' (Lemma 1, which understates ε for N > 3)")
    p = 1.0 - z / (2.0 * error * math.sqrt(S))
    feasible = True
    if p <= 0:
        warnings.warn("target error unreachable at this S even without privacy; returning p=0", stacklevel=2)
        return {"p": 0.0, "feasible": False, "b": {}, "epsilon_paper": math.inf, "epsilon_exact": math.inf,
                "convention": convention}
    p = min(p, 1 - 1e-9)
    e_paper = epsilon_grr(p, 3, "paper")
    e_exact = epsilon_grr(p, N, "exact") if N else math.nan
    e_used = e_paper if convention == "paper" else e_exact
    b = {k: check_positive(d, f"deltas[{k}]") / e_used for k, d in (deltas or {}).items()}
    return {"p": p, "feasible": feasible, "b": b, "epsilon_paper": e_paper, "epsilon_exact": e_exact, "convention": convention}


def allocate_epsilon(epsilon: float, discrete: dict | None = None, numeric: dict[str, float] | None = None, *,
                     convention: str = "exact") -> dict:
    """Paper §4.2.3: split a total ε uniformly over the discrete partitions and numeric attributes
    (Theorem 1 sums per partition, spec §7 item 23), then p_i from ε_i and b_j = Δ_j/ε_j.

    ``discrete``: {partition: domain size N}; ``numeric``: {column: public range Δ}. ``convention``
    ``exact`` (default) inverts ε = ln(1+N(1−p)/p), so the composed ε is exactly ``epsilon``;
    ``paper`` inverts Lemma 1's ln(3/p−2), which overspends for N > 3 (the returned
    ``epsilon_exact_total`` shows by how much). Returns {"p": {...}, "b": {...}, "epsilon_each", totals}.

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), Appendix E and Theorem 1 (uniform allocation); spec §4.
    """
    from .mechanisms import b_for_epsilon, p_for_epsilon

    epsilon = check_positive(epsilon, "epsilon")
    discrete = dict(discrete or {})
    numeric = dict(numeric or {})
    k = len(discrete) + len(numeric)
    if k == 0:
        raise ValueError("nothing to allocate: give at least one discrete partition or numeric attribute")
    check_options(convention, "convention", ("exact", "paper"))
    each = epsilon / k
    p = {key: p_for_epsilon(each, check_int(N, f"N[{key!r}]", minimum=2), convention) for key, N in discrete.items()}
    b = {col: b_for_epsilon(each, d) for col, d in numeric.items()}
    exact_total = sum(epsilon_grr(p[key], N) for key, N in discrete.items()) + each * len(numeric)
    return {"p": p, "b": b, "epsilon_each": each, "epsilon_total": epsilon, "epsilon_exact_total": exact_total,
            "convention": convention}
