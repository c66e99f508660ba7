"""Everything in PrivateClean that spends ε: GRR on discrete partitions + Laplace on numeric columns, and the ε/p/b
conversions and the ledger plan (spec §1). :func:`grr` returns the shared :class:`~dpworkbench.accounting.Release`."""
from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pandas as pd

from dpworkbench._validation import check_positive, check_probability, check_int, check_options
from dpworkbench.accounting import Accountant, LedgerEntry, Release, open_ledger
from dpworkbench.mechanisms.backends import RngLike, check_rng
from dpworkbench.mechanisms.core import grr_codes, grr_epsilon, grr_p_for_epsilon

from .model import PrivateRelation


def epsilon_grr(p: float, N: int, convention: str = "exact") -> float:
    """ε of GRR with replacement probability p on an N-value domain.

    ``exact``: ln(1 + N(1−p)/p) (true k-RR likelihood ratio, default). ``paper``: Lemma 1's
    ln(3/p − 2), which equals the exact value only at N = 3 (spec §7 item 1).

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §4.2.1 Lemma 1 and App. A.1; spec §1.6, §7 item 1.
    """
    p = check_probability(p, "p")
    if convention == "paper":
        return math.log(3.0 / p - 2.0)
    if convention == "exact":
        return grr_epsilon(p, check_int(N, "N", minimum=1))
    if convention == "appendix":  # App. A.1 as printed; invalid, shown only as a labelled curiosity
        N = check_int(N, "N", minimum=2)
        return math.log((1 - p + p / N) / (p * (N - 1) / N))
    raise ValueError(f"convention must be 'exact', 'paper' or 'appendix', got {convention!r}")


def p_for_epsilon(epsilon: float, N: int | None = None, convention: str = "exact") -> float:
    """Inverse of :func:`epsilon_grr`: exact p = N/(e^ε+N−1); paper p = 3/(e^ε+2).

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §4.2.1 Lemma 1 (inverse); spec §1.6.
    """
    epsilon = check_positive(epsilon, "epsilon")
    if convention == "paper":
        return 3.0 / (math.exp(epsilon) + 2.0)
    if convention == "exact":
        if N is None:
            raise ValueError("N is required for the exact convention")
        return grr_p_for_epsilon(epsilon, check_int(N, "N", minimum=1))
    raise ValueError(f"convention must be 'exact' or 'paper', got {convention!r}")


def epsilon_laplace(b: float, delta: float) -> float:
    """Proposition 1: ε = Δ/b.

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §4.2.2 Proposition 1; spec §1.5.
    """
    return check_positive(delta, "delta") / check_positive(b, "b")


def b_for_epsilon(epsilon: float, delta: float) -> float:
    """Laplace scale giving ε for a numeric attribute with range Δ: b = Δ/ε.

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §4.2.2 Proposition 1; spec §1.5.
    """
    return check_positive(delta, "delta") / check_positive(epsilon, "epsilon")


def theorem2_bound(N: int, p: float, alpha: float) -> float:
    """Theorem 2 sufficient size: S > (N/p) ln(pN/α).

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §4.3 Theorem 2, Example 3; spec §1.7.
    """
    N = check_int(N, "N", minimum=1)
    p = check_probability(p, "p")
    alpha = check_probability(alpha, "alpha")
    return N / p * math.log(p * N / alpha)


def theorem2_exact(N: int, p: float, alpha: float) -> float:
    """Exact union bound: S ≥ 1 + ln(α/(p(N−1))) / ln(1 − p/N).

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §4.3 Theorem 2 (exact union bound); spec §1.7.
    """
    N = check_int(N, "N", minimum=2)
    p = check_probability(p, "p")
    alpha = check_probability(alpha, "alpha")
    return 1.0 + math.log(alpha / (p * (N - 1))) / math.log(1.0 - p / N)


def theorem2_probability(N: int, p: float, S: int) -> float:
    """Union lower bound on P[all N values preserved] (worst case: one value has a single row).

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §4.3 Theorem 2; spec §1.7.
    """
    return max(0.0, 1.0 - p * (N - 1) * (1.0 - p / N) ** (S - 1))


ACCOUNTING = ("exact", "paper_lemma1")


def privacy_cost(discrete: dict[Any, tuple[float, int]] | None = None,
                 numeric: dict[str, tuple[float, float]] | None = None, *,
                 accounting: str = "exact") -> tuple[LedgerEntry, ...]:
    """The ledger :func:`grr` records, from public parameters only (pure; no data).

    ``discrete``: {partition: (p, N)} with N the size of the released domain; each spends GRR's
    ε = ln(1 + N(1−p)/p) (``accounting="exact"``, the true k-RR likelihood ratio) or, as the paper's labelled
    option ``accounting="paper_lemma1"``, Lemma 1's ln(3/p − 2), which equals the true ε only at N = 3 and
    *understates* it for N > 3 (such a release is marked ``private=False``). ``numeric``: {column: (b, Δ)};
    each spends ε = Δ/b (Proposition 1). Sequential composition over attributes (Theorem 1), in the order
    given (discrete partitions first, as :func:`grr` records them).

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §4.2 Lemma 1, Proposition 1, Theorem 1 (composition); spec §1.6.
    """
    check_options(accounting, "accounting", ACCOUNTING)
    out = []
    for key, (p, N) in (discrete or {}).items():
        eps = epsilon_grr(p, N, "paper" if accounting == "paper_lemma1" else "exact")
        label = "paper Lemma 1 ln(3/p-2)" if accounting == "paper_lemma1" else "exact ln(1+N(1-p)/p)"
        out.append(LedgerEntry("privateclean-grr", eps, f"{key} (discrete, p={p:g}, N={int(N)}; {label})"))
    for col, (b, delta) in (numeric or {}).items():
        out.append(LedgerEntry("laplace", epsilon_laplace(b, delta), f"{col} (numeric, b={b:g}, Δ={delta:g})"))
    return tuple(out)


def privacy_cost_table(rel: "PrivateRelation | Release") -> pd.DataFrame:
    """Per attribute: parameter, N, ε under the exact and the paper's Lemma-1 accounting (both from
    :func:`privacy_cost` on the relation's public parameters; the release's ledger is the one that counts).

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §4.2 Lemma 1 and Theorem 1; spec §1.6.
    """
    rel = rel.value if isinstance(rel, Release) else rel
    d = {k: (rel.p[k], len(rel.domains[k])) for k in rel.p}
    nm = {c: (rel.b[c], rel.deltas[c]) for c in rel.b}
    ex, pa = privacy_cost(d, nm), privacy_cost(d, nm, accounting="paper_lemma1")
    rows = [{"attribute": str(k), "kind": "discrete", "parameter": rel.p[k], "N": len(rel.domains[k])} for k in d]
    rows += [{"attribute": c, "kind": "numeric", "parameter": rel.b[c], "N": np.nan} for c in nm]
    out = pd.DataFrame(rows, columns=["attribute", "kind", "parameter", "N"])
    out["epsilon_exact"] = [e.epsilon for e in ex]
    out["epsilon_paper"] = [e.epsilon for e in pa]
    return out


_NULL = "\x00NULL"


def _nk(v: Any) -> Any:
    """Hashable key treating None/NaN as one NULL category."""
    if v is None or (isinstance(v, float) and v != v):
        return _NULL
    return v


def domain_codes(vals: np.ndarray, dom: np.ndarray) -> np.ndarray:
    """Vectorised codes of ``vals`` in ``dom`` (hash join in C); None/NaN match a NULL domain entry; −1 = outside."""
    s = pd.Series(vals, dtype=object) if vals.dtype == object else pd.Series(vals)
    dnull = [i for i, v in enumerate(dom.tolist()) if _nk(v) is _NULL]
    keep = [i for i in range(len(dom)) if i not in dnull]
    idx = pd.Index(dom[keep].tolist(), dtype=object) if s.dtype == object else pd.Index(dom[keep].tolist())
    pos = idx.get_indexer(s)
    codes = np.where(pos >= 0, np.asarray(keep, dtype=np.int64)[np.maximum(pos, 0)] if keep else -1, -1)
    nulls = s.isna().to_numpy()
    if nulls.any():
        codes[nulls] = dnull[0] if dnull else -1
    return codes


def _key_cols(key: Any) -> list[str]:
    return list(key) if isinstance(key, tuple) else [key]


def _is_null(v: Any) -> bool:
    return _nk(v) is _NULL


def out_of_domain_rule(domain: Any, other: Any = _NULL, *, declared: bool = False) -> tuple[np.ndarray, int | None]:
    """The public rule that makes GRR total on a declared domain (issue 21): the domain GRR draws from, and the code
    an out-of-domain (or, when NULL is not a domain value, a missing) value maps to.

    * ``other`` declared (``declared=True``): a value of the domain → that code; ``None`` (NULL) → the NULL entry of
      the domain, appended at the end if the domain does not list NULL (the declared target joins the public domain);
    * not declared and the domain lists NULL → the NULL entry;
    * not declared and no NULL in the domain → ``None``: the value is *replaced with probability 1* (a uniform draw
      from the domain, GRR's replacement law). That is ε-DP at GRR's ε: against an in-domain record the likelihood
      ratio is at most max(N(1−p)+p, 1/p) ≤ 1 + N(1−p)/p.

    Depends on public inputs only; never on the rows."""
    dom = np.asarray(list(domain), dtype=object)
    nulls = [i for i, v in enumerate(dom.tolist()) if _is_null(v)]
    if declared:
        if _is_null(other):
            if not nulls:
                dom = np.asarray(dom.tolist() + [None], dtype=object)
                return dom, len(dom) - 1
            return dom, nulls[0]
        hits = [i for i, v in enumerate(dom.tolist()) if not _is_null(v) and v == other]
        if not hits:
            raise ValueError(f"other value {other!r} is not a value of its declared domain: declare it in the domain, or "
                             "use None (NULL)")
        return dom, hits[0]
    return dom, (nulls[0] if nulls else None)


def grr(
    df: pd.DataFrame,
    discrete: dict[Any, float],
    numeric: dict[str, float] | None = None,
    *,
    domains: dict[Any, Any] | None = None,
    deltas: dict[str, float] | None = None,
    bounds: dict[str, tuple[float, float]] | None = None,
    other: dict[Any, Any] | None = None,
    fill: dict[str, float] | None = None,
    rng: RngLike = None,
    regenerate_until_domain_preserved: bool = False,
    max_tries: int = 100,
    accountant: Accountant | None = None,
    accounting: str = "exact",
) -> Release[PrivateRelation]:
    """Generalized Randomized Response (spec §1.4–1.8): the private relation V = T(R). Never mutates ``df``.

    Returns a :class:`~dpworkbench.accounting.Release` whose ``value`` is the :class:`PrivateRelation` and whose
    ledger is :func:`privacy_cost` of the public parameters (recorded on ``accountant``, if given, before any draw).

    Every column of ``df`` must be privatised (listed in ``discrete`` or ``numeric``): a column passed
    through unmodified would have ε = ∞ (Theorem 1), so it is a ValueError rather than a silent leak.

    The release is a **total** function of the rows: every refusal depends on the arguments only (and is raised
    before a value is looked at), and no message names a cell or a count of the data. What the rules below changed
    (out-of-domain values mapped, missing numbers filled, numbers clipped) is counted in ``Release.exact``: NOT
    PRIVATE.

    Parameters
    ----------
    discrete:
        {column or tuple of columns (a partition): p}. Each row keeps its value w.p. 1−p, else draws uniformly
        from the declared domain (can redraw the original). The uniform draws come from the back-end's
        ``generator`` (OS-seeded under the release back-end).
    numeric:
        {column: b}, the Laplace scale; noise is added by ``backend.add_laplace`` (under the OpenDP release
        back-end the library samples the noisy value itself: floating-point safe).
    domains:
        Public domain per partition. Required for a release (the release back-end refuses without it, before the
        data is read). Only a research run (a seed / Generator) may read it off the data: it warns, the name is
        listed in ``Release.derived_public`` and the release is ``private=False`` (not ε-DP as claimed).
    other:
        {partition: value}: where a value outside the declared domain (and a missing one, if NULL is not a domain
        value) goes: a value of the domain, or ``None`` = NULL (appended to the domain if it does not list NULL).
        Not given: NULL if the domain lists NULL, else the row is replaced with probability 1 (a uniform draw
        from the domain; see :func:`out_of_domain_rule` for why that keeps GRR's ε).
    bounds:
        Public ``(lo, hi)`` per numeric column: values are clipped into it before the noise and Δ = hi − lo
        (spec §7 item 8). Required for a release. A research run without bounds uses the data's range (warns;
        ``derived_public``; ``private=False``).
    deltas:
        Optional cross-check of ``bounds``: Δ = hi − lo. A Δ **without** bounds is refused: it does not bound a
        substitution (a record may move from any value to any other, so no Δ covers it unless values are clipped
        into a public interval of that width).
    fill:
        {column: value in the bounds}: what a missing or non-finite number (NaN, ±inf, a cell that is not a
        number) becomes before the noise; default the midpoint (lo + hi)/2 of the bounds. A row-local public rule.
    rng:
        A seed / Generator (seeded numpy: research only) or a back-end such as
        ``dpworkbench.mechanisms.release_backend()`` for a real release (``None``: the release back-end).
    accounting:
        ``"exact"`` (default): GRR spends ln(1 + N(1−p)/p). ``"paper_lemma1"``: the paper's Lemma 1,
        ln(3/p − 2) — a labelled option that understates ε for N > 3; the release is then ``private=False`` and
        the release back-end refuses it.
    regenerate_until_domain_preserved:
        Theorem 2, the paper's option (off by default): redraws V until every value present in R appears. The
        acceptance event depends on R itself (a value present in R can never be missing from V, while it can
        be under a neighbour without it), so the per-row ε in the ledger does **not** bound the release: it is
        ``private=False`` and refused by the release back-end. The number of generations is in ``details``.

    Treated as public
    -----------------
    The schema (which columns, which are discrete/numeric), the number of rows S (the neighbouring relation
    substitutes one record, so S is revealed), p per partition and b per numeric column, the domain of each
    partition and its out-of-domain rule (``domains``, ``other``), and the numeric bounds (``bounds``, ``fill``).

    Neighbouring relation
    ---------------------
    Substitute one record (at any position): bounded DP. Each record is mapped into the public domain / bounds by
    a row-local rule and then randomised independently (local DP per record), so V is ε-DP for the ledger's ε with
    respect to changing any one record — to any value, in or out of the declared domain and bounds.

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §4.2 (GRR: §4.2.1 discrete, §4.2.2 numeric), Theorem 1, Theorem 2 (§4.3); spec §1.4–1.8.
    """
    if not isinstance(df, pd.DataFrame):
        raise ValueError("df must be a pandas DataFrame")
    check_options(accounting, "accounting", ACCOUNTING)
    numeric = dict(numeric or {})
    domains = dict(domains or {})
    deltas = dict(deltas or {})
    bounds = dict(bounds or {})
    other = dict(other or {})
    fill = dict(fill or {})
    backend = check_rng(rng)
    release = backend.name == "opendp"
    if release and regenerate_until_domain_preserved:
        raise ValueError("grr: regenerate_until_domain_preserved (the paper's Theorem 2 regeneration) cannot run on the "
                         "release back-end: whether a draw is accepted depends on the values present in R, so the "
                         "released V is not ε-DP at the ledger's ε (use a seed for a research run)")
    gen = backend.generator
    max_tries = check_int(max_tries, "max_tries", minimum=1)
    # --- every check on public inputs, before any value of df is looked at -----------------------------------------
    for key, p in discrete.items():
        check_probability(p, f"p[{key!r}]")
        for c in _key_cols(key):
            if c not in df.columns:
                raise ValueError(f"unknown discrete attribute {c!r}")
        if key not in domains and release:
            raise ValueError(f"grr: the domain of {key!r} is a public input: pass domains={{{key!r}: [...]}} (only a "
                             "research run with a seed may read it off the data)")
    for col, b in numeric.items():
        check_positive(b, f"b[{col!r}]")
        if col not in df.columns:
            raise ValueError(f"unknown numeric attribute {col!r}")
        if col in deltas and col not in bounds:
            raise ValueError(f"grr: deltas[{col!r}] without bounds does not bound a substitution (one record may move "
                             f"from any value to any other): pass bounds={{{col!r}: (lo, hi)}}; values are clipped into "
                             "them and Δ = hi − lo")
        if col not in bounds and release:
            raise ValueError(f"grr: the bounds of {col!r} are a public input: pass bounds={{{col!r}: (lo, hi)}} (only a "
                             "research run with a seed may read the range off the data)")
    listed = {c for key in discrete for c in _key_cols(key)} | set(numeric)
    unlisted = [c for c in df.columns if c not in listed]
    if unlisted:
        raise ValueError(f"columns {unlisted!r} of df are neither in discrete nor in numeric: they would be released "
                         f"unmodified (ε = ∞, which de-privatises the whole row, Theorem 1); privatise them or pass "
                         f"only the columns to release, e.g. df[{sorted(map(str, listed))!r}]")
    rules: dict[Any, tuple[np.ndarray, int | None]] = {}
    for key in discrete:
        if key in domains:
            rules[key] = out_of_domain_rule(domains[key], other.get(key), declared=key in other)
        elif key in other:
            raise ValueError(f"other[{key!r}] needs a declared domains[{key!r}]")
    lohi: dict[str, tuple[float, float]] = {}
    for col in numeric:
        if col not in bounds:
            if col in fill:
                raise ValueError(f"fill[{col!r}] needs declared bounds[{col!r}]")
            continue
        try:
            lo, hi = (float(v) for v in bounds[col])
        except (TypeError, ValueError):
            raise ValueError(f"bounds[{col!r}] must be (lo, hi), got {bounds[col]!r}") from None
        if not (np.isfinite(lo) and np.isfinite(hi) and hi > lo):
            raise ValueError(f"bounds[{col!r}] must be finite (lo, hi) with hi > lo, got {bounds[col]!r}")
        if col in deltas:
            check_positive(deltas[col], f"deltas[{col!r}]")
            if abs(deltas[col] - (hi - lo)) > 1e-12 * max(1.0, hi - lo):
                raise ValueError(f"deltas[{col!r}] = {deltas[col]} disagrees with bounds[{col!r}] (Δ = hi − lo = {hi - lo})")
        if col in fill and not (np.isfinite(float(fill[col])) and lo <= float(fill[col]) <= hi):
            raise ValueError(f"fill[{col!r}] must be a finite number within bounds[{col!r}], got {fill[col]!r}")
        lohi[col] = (lo, hi)
    # --- the rows, each by a row-local public rule ---------------------------------------------------------------
    S = len(df)
    derived: list[str] = []
    exact: dict[str, dict[str, int]] = {"out_of_domain": {}, "numbers_missing_filled": {}, "numbers_clipped": {}}
    enc: dict[Any, tuple[np.ndarray, np.ndarray]] = {}
    forced: dict[Any, np.ndarray] = {}  # rows replaced with probability 1 (out of a domain without NULL or other)
    dom_out: dict[Any, np.ndarray] = {}
    for key in discrete:
        cols = _key_cols(key)
        if len(cols) == 1:
            vals = df[cols[0]].to_numpy()
        else:
            vals = np.empty(S, dtype=object)
            vals[:] = list(zip(*(df[c].to_numpy(dtype=object) for c in cols)))
        if key in rules:
            dom, target = rules[key]
        else:
            # research run only (the release back-end refused above); spec §7 item 8
            warnings.warn(f"domain of {key!r} taken from the data: this is data-dependent; pass domains={{{key!r}: [...]}} "
                          "with a public domain for a private release", stacklevel=2)
            dom, target = np.asarray(list(pd.unique(pd.Series(vals, dtype=object))), dtype=object), None
            derived.append(f"domain[{key}]")
        codes = domain_codes(vals, dom)
        out = codes < 0
        exact["out_of_domain"][str(key)] = int(out.sum())
        if target is not None:
            codes[out] = target
        else:
            forced[key] = out
            codes[out] = 0  # a placeholder: these rows are redrawn uniformly below
        typed = np.asarray(dom.tolist()) if all(not _is_null(v) for v in dom.tolist()) else dom
        if typed.dtype.kind in "iufb":
            dom = typed  # homogeneous numeric domain: keep a numeric column (fast downstream)
        enc[key] = (codes.astype(np.int64), dom)
        dom_out[key] = dom
    clipped: dict[str, np.ndarray] = {}
    for col in numeric:
        # a cell that is not a number is missing: one row never changes how another is read
        s = df[col]
        if pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_bool_dtype(s):
            x = s.to_numpy(dtype=float, na_value=np.nan)
        else:
            x = pd.to_numeric(pd.Series(s.to_numpy(), dtype=object), errors="coerce").to_numpy(dtype=float)
        bad = ~np.isfinite(x)
        if col in lohi:
            lo, hi = lohi[col]
        else:
            # research run only: the range read off the data (spec §7 item 8)
            warnings.warn(f"range of {col!r} taken from the data: data-dependent; pass bounds={{{col!r}: (lo, hi)}} "
                          "(public) for a private release", stacklevel=2)
            finite = x[~bad]
            lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
            if hi <= lo:
                hi = lo + 1.0
            derived.append(f"delta[{col}]")
        deltas[col] = hi - lo
        x = np.where(bad, float(fill.get(col, (lo + hi) / 2.0)), x)
        exact["numbers_missing_filled"][col] = int(bad.sum())
        exact["numbers_clipped"][col] = int(((x < lo) | (x > hi)).sum())
        clipped[col] = np.clip(x, lo, hi)
    plan = privacy_cost({k: (discrete[k], len(dom)) for k, (_, dom) in enc.items()},
                        {c: (numeric[c], deltas[c]) for c in numeric}, accounting=accounting)
    understated = accounting == "paper_lemma1" and any(len(dom) > 3 for _, dom in enc.values())
    if understated and release:
        raise ValueError("grr: accounting='paper_lemma1' (the paper's Lemma 1) understates GRR's ε for domains larger "
                         "than 3 values, so it cannot be a release on the release back-end (use accounting='exact')")
    notes = {}
    for col in lohi:
        if col in numeric:
            notes[col] = f"; clipped to public bounds {tuple(bounds[col])}"
    if regenerate_until_domain_preserved:
        for k in enc:
            notes[k] = "; regenerated until the domain is preserved (Theorem 2): conditional draw, NOT bounded by this ε"
    keys = list(enc) + list(numeric)
    plan = tuple(LedgerEntry(e.mechanism, e.epsilon, e.note + notes.get(k, "")) for k, e in zip(keys, plan))
    acc, mark = open_ledger(accountant)
    for e in plan:  # recorded before any draw
        acc.spend(e.epsilon, e.mechanism, note=e.note)
    tries = 0
    while True:
        tries += 1
        new_cols: dict[Any, Any] = {}
        preserved = True
        for key, (codes, dom) in enc.items():
            p = discrete[key]
            new = grr_codes(codes, len(dom), p, gen, draw="replaced")  # the core's GRR, in this module's draw order
            f = forced.get(key)
            if f is not None and f.any():  # replaced with probability 1: GRR's replacement law (a uniform code)
                new[f] = gen.integers(0, len(dom), size=int(f.sum()))
            if regenerate_until_domain_preserved and not np.isin(np.unique(codes), new).all():
                preserved = False
            cols = _key_cols(key)
            if len(cols) == 1:
                new_cols[cols[0]] = pd.Series(dom[new], index=df.index, dtype=dom.dtype)
            else:
                tup = dom[new]
                for j, c in enumerate(cols):
                    new_cols[c] = pd.Series([None if _is_null(t) else t[j] for t in tup], index=df.index, dtype=object)
        for col, b in numeric.items():
            noisy = backend.add_laplace(clipped[col], float(b)) if S else clipped[col].copy()
            new_cols[col] = pd.Series(np.asarray(noisy, dtype=float).reshape(S), index=df.index)
        out = pd.DataFrame({c: new_cols[c] for c in df.columns}, index=df.index)  # a new frame: df is never written to
        if preserved or not regenerate_until_domain_preserved:
            break
        if tries >= max_tries:
            warnings.warn(f"domain not preserved after max_tries={max_tries} generations (Theorem 2: S too small for p, N)",
                          stacklevel=2)
            break
    rel = PrivateRelation(out, {k: float(v) for k, v in discrete.items()}, {k: float(v) for k, v in numeric.items()},
                          dom_out, deltas, tries=tries)
    public: dict[str, Any] = {"rows": S, "columns": list(map(str, df.columns)),
                              "p": {str(k): float(v) for k, v in discrete.items()},
                              "b": {str(k): float(v) for k, v in numeric.items()},
                              "domain": {str(k): dom.tolist() for k, dom in dom_out.items()},
                              "delta": {str(k): float(v) for k, v in deltas.items() if k in numeric},
                              "bounds": {str(k): [float(v[0]), float(v[1])] for k, v in lohi.items()},
                              "accounting": accounting}
    if other:
        public["other"] = {str(k): v for k, v in other.items()}
    if fill:
        public["fill"] = {str(k): float(v) for k, v in fill.items()}
    details = {"generations": tries} if regenerate_until_domain_preserved else {}
    exact = {k: v for k, v in exact.items() if v}
    # a value read off the data is outside the formal guarantee: never labelled private as claimed
    private = not (understated or regenerate_until_domain_preserved or derived)
    return Release(rel, acc.entries_since(mark), public=public, derived_public=tuple(derived), details=details,
                   exact=exact, private=private, mechanism="privateclean.grr")
