"""Everything in PrivateClean that spends ε: GRR on discrete partitions + Laplace on numeric columns, and the ε/p/b
conversions and the ledger plan (spec §1).

GRR is declared once (:data:`GRR`, with the paper's two labelled options :data:`GRR_LEMMA1` and
:data:`GRR_REGENERATE`, each carrying its true claim): its parameters, relation (substitute one record), plan
(:func:`privacy_cost`), pre-noise statistics (each partition's codes in its public domain, each number clipped into
its public bounds) and noise. :func:`grr` is the thin public front (research-only data-derived domains and bounds,
then ``DECL.release``, then the codes decoded into a :class:`PrivateRelation`); :func:`grr_sample` draws ``R``
releases through the same noise code for the vectorised Monte-Carlo paths (``batch``, ``experiments``, ``teaching``)
and the Spark engine draws each partition with :func:`draw_rows`."""
from __future__ import annotations

import dataclasses
import math
import warnings
from typing import Any

import numpy as np
import pandas as pd

from dpworkbench._validation import check_positive, check_probability, check_int, check_options
from dpworkbench.accounting import Accountant, LedgerEntry, Release
from dpworkbench.mechanisms.backends import RngLike, check_rng
from dpworkbench.mechanisms.core import grr_codes, grr_epsilon, grr_p_for_epsilon
from dpworkbench.mechanisms.declaration import SUBSTITUTE_ROW, Drawn, Engine, Mechanism, Param

from ..model import PrivateRelation


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


def key_columns(key: Any) -> list[str]:
    """The attributes of a partition key: one column, or the columns of a joint partition (a tuple)."""
    return list(key) if isinstance(key, tuple) else [key]


def object_array(values: Any) -> np.ndarray:
    """A 1-D object array of ``values`` (``np.asarray`` would turn a list of tuples into a 2-D array)."""
    vals = list(values)
    out = np.empty(len(vals), dtype=object)
    for i, v in enumerate(vals):  # element-wise: a tuple stays one cell
        out[i] = v
    return out


def _component(v: Any) -> Any:
    return None if _is_null(v) else v


def partition_domain(key: Any, domain: Any) -> np.ndarray:
    """The public domain of a partition as a 1-D object array (issue 25).

    One attribute: the declared values. A partition of several attributes ``(a, b, …)`` (§4.2.3) is randomised
    jointly over its domain of value *tuples*, declared as

    * ``{a: [...], b: [...]}`` or ``[[...], [...]]`` (one list per attribute, in the key's order): the **product**
      of the per-attribute domains; or
    * ``[(a1, b1), (a2, b2), …]`` (tuples): the **allowed combinations** only.

    A ``None`` entry is the NULL category of the partition (a tuple's ``None`` component is a NULL attribute). Public
    inputs only; the order (product: itertools order) fixes the codes."""
    cols = key_columns(key)
    if len(cols) == 1:
        return object_array(domain) if not isinstance(domain, np.ndarray) else domain.astype(object).ravel()
    import itertools

    if isinstance(domain, dict):
        missing = [c for c in cols if c not in domain]
        if missing:
            raise ValueError(f"domains[{key!r}] as {{attribute: values}} lacks {missing!r}")
        per = [list(domain[c]) for c in cols]
        combos: list = list(itertools.product(*per))
    else:
        items = list(domain)
        if items and all(isinstance(t, tuple) or t is None for t in items):
            bad = [t for t in items if t is not None and len(t) != len(cols)]
            if bad:
                raise ValueError(f"domains[{key!r}]: a combination must have {len(cols)} values (one per attribute of "
                                 f"the partition), got {bad[0]!r}")
            combos = [None if t is None else tuple(_component(v) for v in t) for t in items]
        elif len(items) == len(cols) and all(isinstance(d, (list, np.ndarray, pd.Index)) for d in items):
            combos = list(itertools.product(*(list(d) for d in items)))
        else:
            raise ValueError(f"domains[{key!r}] must be a list of tuples (the allowed combinations), one list of values "
                             f"per attribute [[...], [...]] or {{attribute: [...]}} (their product)")
    combos = [None if t is None else tuple(_component(v) for v in t) for t in combos]
    if len(set(combos)) != len(combos):
        raise ValueError(f"domains[{key!r}] lists a combination twice")
    if not combos:
        raise ValueError(f"domains[{key!r}] is empty")
    return object_array(combos)


def partition_codes(df: pd.DataFrame, key: Any, dom: np.ndarray) -> np.ndarray:
    """Codes of each row's value of partition ``key`` in ``dom`` (−1 = outside), vectorised: one attribute through
    :func:`domain_codes`; several through per-attribute codes combined in mixed radix and looked up among the
    declared combinations (a NULL cell matches a ``None`` component; an all-NULL row matches a ``None`` entry)."""
    cols = key_columns(key)
    if len(cols) == 1:
        return domain_codes(df[cols[0]].to_numpy(), dom)
    entries = dom.tolist()
    whole_null = [i for i, t in enumerate(entries) if t is None]
    tuples = [(i, t) for i, t in enumerate(entries) if t is not None]
    comb = np.zeros(len(df), dtype=np.int64)
    ok = np.ones(len(df), dtype=bool)
    allnull = np.ones(len(df), dtype=bool)
    radix = 1
    dkey = np.zeros(len(tuples), dtype=np.int64)
    for j, c in enumerate(cols):
        comp = list(dict.fromkeys(t[j] for _, t in tuples))
        cc = domain_codes(df[c].to_numpy(), object_array(comp)) if comp else np.full(len(df), -1)
        allnull &= pd.isna(df[c]).to_numpy()
        ok &= cc >= 0
        comb += np.maximum(cc, 0) * radix
        pos = {(_NULL if v is None else v): k for k, v in enumerate(comp)}
        dkey += np.asarray([pos[_NULL if t[j] is None else t[j]] for _, t in tuples], dtype=np.int64) * radix
        radix *= max(len(comp), 1)
    order = np.argsort(dkey, kind="stable")
    sk = dkey[order]
    at = np.clip(np.searchsorted(sk, comb), 0, max(len(sk) - 1, 0))
    found = ok & (sk[at] == comb) if len(sk) else np.zeros(len(df), dtype=bool)
    codes = np.where(found, np.asarray([i for i, _ in tuples], dtype=np.int64)[order][at] if len(sk) else -1, -1)
    if whole_null:
        codes[~found & allnull] = whole_null[0]
    return codes


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
    dom = domain if isinstance(domain, np.ndarray) and domain.ndim == 1 else object_array(domain)
    dom = dom.astype(object)
    nulls = [i for i, v in enumerate(dom.tolist()) if _is_null(v)]
    if declared:
        if _is_null(other):
            if not nulls:
                dom = object_array(dom.tolist() + [None])
                return dom, len(dom) - 1
            return dom, nulls[0]
        hits = [i for i, v in enumerate(dom.tolist()) if not _is_null(v) and v == other]
        if not hits:
            raise ValueError(f"other value {other!r} is not a value of its declared domain: declare it in the domain, or "
                             "use None (NULL)")
        return dom, hits[0]
    return dom, (nulls[0] if nulls else None)


def released_domain(key: Any, domains: dict, other: dict | None) -> tuple[np.ndarray, np.ndarray, int | None]:
    """(domain GRR encodes against, the released domain — numeric when homogeneous —, out-of-domain target code)."""
    other = other or {}
    dom, target = out_of_domain_rule(partition_domain(key, domains[key]), other.get(key), declared=key in other)
    if len(key_columns(key)) > 1:  # a joint partition: its values are tuples, kept as one object cell each
        return dom, dom, target
    typed = np.asarray(dom.tolist()) if all(not _is_null(v) for v in dom.tolist()) else dom
    return dom, (typed if typed.dtype.kind in "iufb" else dom), target


def _values(df: pd.DataFrame, key: Any) -> np.ndarray:
    cols = key_columns(key)
    if len(cols) == 1:
        return df[cols[0]].to_numpy()
    vals = np.empty(len(df), dtype=object)
    vals[:] = list(zip(*(df[c].to_numpy(dtype=object) for c in cols)))
    return vals


def _numbers(s: pd.Series) -> np.ndarray:
    """A numeric column as floats; a cell that is not a number is missing (one row never changes how another is read)."""
    if pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_bool_dtype(s):
        return s.to_numpy(dtype=float, na_value=np.nan)
    return pd.to_numeric(pd.Series(s.to_numpy(), dtype=object), errors="coerce").to_numpy(dtype=float)


def _check_schema(columns, discrete: dict, numeric: dict) -> None:
    """The schema checks (public: the frame's column names)."""
    for key in discrete:
        for c in key_columns(key):
            if c not in columns:
                raise ValueError(f"unknown discrete attribute {c!r}")
    for col in numeric:
        if col not in columns:
            raise ValueError(f"unknown numeric attribute {col!r}")
    listed = {c for key in discrete for c in key_columns(key)} | set(numeric)
    unlisted = [c for c in columns if c not in listed]
    if unlisted:
        raise ValueError(f"columns {unlisted!r} of df are neither in discrete nor in numeric: they would be released "
                         f"unmodified (ε = ∞, which de-privatises the whole row, Theorem 1); privatise them or pass "
                         f"only the columns to release, e.g. df[{sorted(map(str, listed))!r}]")


def _bounds(col: str, bounds: dict, deltas: dict | None, fill: dict | None) -> tuple[float, float]:
    try:
        lo, hi = (float(v) for v in bounds[col])
    except (TypeError, ValueError):
        raise ValueError(f"bounds[{col!r}] must be (lo, hi), got {bounds[col]!r}") from None
    if not (np.isfinite(lo) and np.isfinite(hi) and hi > lo):
        raise ValueError(f"bounds[{col!r}] must be finite (lo, hi) with hi > lo, got {bounds[col]!r}")
    if deltas and col in deltas:
        check_positive(deltas[col], f"deltas[{col!r}]")
        if abs(deltas[col] - (hi - lo)) > 1e-12 * max(1.0, hi - lo):
            raise ValueError(f"deltas[{col!r}] = {deltas[col]} disagrees with bounds[{col!r}] (Δ = hi − lo = {hi - lo})")
    if fill and col in fill and not (np.isfinite(float(fill[col])) and lo <= float(fill[col]) <= hi):
        raise ValueError(f"fill[{col!r}] must be a finite number within bounds[{col!r}], got {fill[col]!r}")
    return lo, hi


def _cost(*, discrete, numeric, domains, bounds, other, fill, deltas, derived, accounting,
          regenerate_until_domain_preserved, **_) -> tuple[LedgerEntry, ...]:
    """The plan of one GRR release from its public parameters: :func:`privacy_cost` with the public rules noted."""
    numeric, domains, bounds = numeric or {}, domains or {}, bounds or {}
    d, nm, notes = {}, {}, {}
    for key, p in discrete.items():
        check_probability(p, f"p[{key!r}]")
        if key not in domains:
            raise ValueError(f"grr: the domain of {key!r} is a public input: pass domains={{{key!r}: [...]}} (only a "
                             "research run with a seed may read it off the data)")
        d[key] = (p, len(released_domain(key, domains, other)[0]))
        if regenerate_until_domain_preserved:
            notes[key] = "; regenerated until the domain is preserved (Theorem 2): conditional draw, NOT bounded by this ε"
    for col, b in numeric.items():
        check_positive(b, f"b[{col!r}]")
        if col not in bounds:
            raise ValueError(f"grr: the bounds of {col!r} are a public input: pass bounds={{{col!r}: (lo, hi)}} (only a "
                             "research run with a seed may read the range off the data)")
        lo, hi = _bounds(col, bounds, deltas, fill)
        nm[col] = (b, hi - lo)
        if f"delta[{col}]" not in derived:
            notes[col] = f"; clipped to public bounds {tuple(bounds[col])}"
    plan = privacy_cost(d, nm, accounting=accounting)
    return tuple(LedgerEntry(e.mechanism, e.epsilon, e.note + notes.get(k, "")) for k, e in zip(list(d) + list(nm), plan))


def _statistics(df: pd.DataFrame, *, discrete, numeric, domains, bounds, other, fill, **_) -> dict[str, Any]:
    """The pre-noise relation (NOT PRIVATE): each partition's codes in its public domain (an out-of-domain value
    mapped to its target, or marked ``forced``: replaced with probability 1) and each number filled and clipped into
    its public bounds; ``counts[key]`` (the code histogram, forced rows in a last bin) and ``values[col]`` are what
    the harness brute-forces. Row-local public rules only."""
    numeric, fill = numeric or {}, fill or {}
    _check_schema(df.columns, discrete, numeric)
    stats: dict[str, Any] = {"codes": {}, "forced": {}, "sizes": {}, "values": {}}
    exact: dict[str, dict[str, int]] = {"out_of_domain": {}, "numbers_missing_filled": {}, "numbers_clipped": {}}
    for key in discrete:
        dom, _, target = released_domain(key, domains, other)
        codes = partition_codes(df, key, dom)
        out = codes < 0
        exact["out_of_domain"][str(key)] = int(out.sum())
        codes[out] = len(dom) if target is None else target
        stats[f"counts[{key}]"] = np.bincount(codes, minlength=len(dom) + 1).astype(float)
        if target is None:
            stats["forced"][key] = out
            codes[out] = 0  # a placeholder: these rows are redrawn uniformly
        stats["codes"][key], stats["sizes"][key] = codes.astype(np.int64), len(dom)
    for col in numeric:
        x = _numbers(df[col])
        bad = ~np.isfinite(x)
        lo, hi = _bounds(col, bounds, None, fill)
        x = np.where(bad, float(fill.get(col, (lo + hi) / 2.0)), x)
        exact["numbers_missing_filled"][col] = int(bad.sum())
        exact["numbers_clipped"][col] = int(((x < lo) | (x > hi)).sum())
        stats["values"][col] = stats[f"values[{col}]"] = np.clip(x, lo, hi)
    stats["exact"] = {k: v for k, v in exact.items() if v}
    return stats


def _noise(stats, backend, size, *, discrete, numeric, regenerate_until_domain_preserved, max_tries, **_):
    """One release: a (k × S) array, row j the private codes of partition j (then the noisy numbers), drawn in
    :func:`grr`'s order (per partition: one uniform per row, then codes for the replaced rows, then the forced
    rows; then Laplace per numeric column). ``size=R``: an (R × k × S) array of R releases, each partition drawn
    as one (R × S) batch (one uniform per cell, then one code per cell: the vectorised order); statistics whose
    codes are already (R × S) hold R instances, one per release (the Monte-Carlo paths)."""
    numeric = numeric or {}
    gen = backend.generator
    if size is not None:
        if regenerate_until_domain_preserved:
            raise ValueError("the Theorem-2 regeneration draws one release at a time")
        out = None
        for j, key in enumerate(list(discrete) + list(numeric)):
            x = stats["codes"][key] if key in discrete else stats["values"][key]
            x = np.broadcast_to(x, (size, x.shape[-1])) if x.ndim == 1 else x
            if x.shape[0] != size:
                raise ValueError(f"statistics hold {x.shape[0]} instances, size is {size}")
            if out is None:
                out = np.empty((size, len(discrete) + len(numeric), x.shape[-1]))
            if key in numeric:
                out[:, j] = backend.add_laplace(x, float(numeric[key]))
                continue
            N = stats["sizes"][key]
            new = grr_codes(x, N, discrete[key], gen)
            f = stats["forced"].get(key)
            if f is not None and f.any():
                new[:, f] = gen.integers(0, N, size=(size, int(f.sum())))
            out[:, j] = new
        return out
    tries = 0
    while True:
        tries += 1
        rows, preserved = [], True
        for key, p in discrete.items():
            codes, N = stats["codes"][key], stats["sizes"][key]
            new = grr_codes(codes, N, p, gen, draw="replaced")
            f = stats["forced"].get(key)
            if f is not None and f.any():  # replaced with probability 1: GRR's replacement law (a uniform code)
                new[f] = gen.integers(0, N, size=int(f.sum()))
            if regenerate_until_domain_preserved and not np.isin(np.unique(codes), new).all():
                preserved = False
            rows.append(new)
        for col, b in numeric.items():
            x = stats["values"][col]
            rows.append(np.asarray(backend.add_laplace(x, float(b)), dtype=float).reshape(len(x)) if len(x) else x.copy())
        if preserved or not regenerate_until_domain_preserved:
            break
        if tries >= max_tries:
            warnings.warn(f"domain not preserved after max_tries={max_tries} generations (Theorem 2: S too small for p, N)",
                          stacklevel=4)
            break
    value = np.vstack(rows).astype(float) if rows else np.empty((0, 0))
    return Drawn(value, {"generations": tries} if regenerate_until_domain_preserved else {}, stats["exact"])


def _substitutes(df: pd.DataFrame):
    """Substitute one record at any position by another record of the input, or by a hostile one (a category outside
    every domain with a missing number; the first record's category with an out-of-bounds number)."""
    df = df.reset_index(drop=True)
    num = {c: pd.api.types.is_numeric_dtype(df[c]) for c in df.columns}
    hostile = [{c: np.nan if num[c] else "zz" for c in df.columns}, {c: 1e9 if num[c] else df[c].iloc[0] for c in df.columns}]
    universe = [df.iloc[i].to_dict() for i in range(len(df))] + hostile
    for i in range(len(df)):
        row = df.iloc[i].to_dict()
        for u in universe:
            if any(not (u[c] == row[c] or (pd.isna(u[c]) and pd.isna(row[c]))) for c in df.columns):
                out = df.copy()
                for c in df.columns:
                    out.at[i, c] = u[c]
                yield out


def _examples(dom: list, first: str, numeric: bool):
    def make(rng: np.random.Generator) -> list[pd.DataFrame]:
        out = []
        for n in (3, 4) if numeric else (2, 3):
            cat = [dom[i] for i in rng.integers(0 if numeric else 1, len(dom), n)]
            cat[0] = first  # substituting ("c", 1e9) at row 0 moves the category and the value by Δ
            cols = {"cat": cat}
            if numeric:
                cols["val"] = np.r_[0.0, np.round(rng.uniform(-2, 12, n - 1), 2)]
            out.append(pd.DataFrame(cols))
        return out
    return make


# --- the Spark engine (issue 14) ---------------------------------------------------------------------------------
# grr_spark draws V partition by partition (spark_engine._partition_sampler: GRR's statistics, then its noise), in
# executors a caller cannot observe. Declared here, on GRR, the privacy harness derives its entries (the API and
# ``privateclean query --engine spark``): that very path run with the pre-noise back-end (its for_partition, pickled to
# the executors) returns the V Spark's partitions computed before the noise, and GRR's statistics of that V are
# brute-forced against GRR's sensitivities.
def _prenoise_v(v: pd.DataFrame, params: dict) -> pd.DataFrame:
    """The pre-noise V (in pandas) that GRR's statistics are read from, at the checked ``params``. V holds every record
    mapped into its released domain (NULL included when it joins the domain: the CLI's out-of-domain rule) and its
    bounds, so they are the partitions' own, except a forced record (outside a domain without a declared target),
    which the pre-noise back-end's uniform redraw puts at code 0: its forced bin stays empty; one substituted record
    still moves the histogram by ≤ 2 (L1)."""
    stats = _statistics(v, **params)
    changed = [rule for rule, counts in stats["exact"].items() if any(counts.values())]  # what the public rules moved
    if changed:  # not a refusal (a ValueError would be read as one): V left its released domains or bounds
        raise RuntimeError(f"the pre-noise V is not in its released domains and bounds ({', '.join(changed)})")
    return v


def _spark_components(rel) -> dict[str, float]:
    """V's codes in the released domains, then its numbers."""
    v, comps = rel.data.toPandas(), {}
    for k, dom in rel.domains.items():
        comps.update({f"{k}[{i}]": float(c) for i, c in enumerate(partition_codes(v, k, np.asarray(dom, object)))})
    for c in rel.b:
        comps.update({f"{c}[{i}]": float(y) for i, y in enumerate(v[c].to_numpy(dtype=float))})
    return comps


SPARK = Engine(  # its function is the one its entry names (imported when it first runs: pyspark is optional)
    "spark", "privateclean.spark_engine.grr_spark", lambda rel, params: _prenoise_v(rel.data.toPandas(), params),
    _spark_components,
    examples=1,  # one 3-row table: each statistic is a whole Spark run (~0.7 s), ~13 of them
    harness_samples=400, tests="tests/spark/test_spark_privateclean_harness.py",
    note="pre-noise statistics computed by the Spark path itself (grr_spark with the harness's pre-noise back-end in "
         "every partition); each sample is a Spark run, so the release is audited on grr_spark only, each side drawn "
         "by one release run on many copies of the table (records are randomised independently)")


def _declare(name: str, summary: str, *, accounting: tuple[str, ...], regenerate: tuple[bool, ...], paper_option: bool,
             harness_params: dict, examples, harness_samples: int, engines: tuple[Engine, ...] = ()) -> Mechanism:
    return Mechanism(
        name=name, summary=summary,
        relation=SUBSTITUTE_ROW("each record mapped into the public domains and bounds by a row-local rule, then "
                                "randomised independently (local DP per record)"),
        params=(Param("discrete", dict, help="{column or tuple of columns: GRR replacement probability p}"),
                Param("numeric", dict, None, "{column: Laplace scale b}"),
                Param("domains", dict, None, "{partition: public domain}"),
                Param("bounds", dict, None, "{column: public (lo, hi)}: numbers are clipped into them, Δ = hi − lo"),
                Param("other", dict, None, "{partition: where an out-of-domain value goes}"),
                Param("fill", dict, None, "{column: what a missing number becomes}"),
                Param("deltas", dict, None, "{column: Δ}, a cross-check of the bounds"),
                Param("derived", tuple, (), "public inputs a research run read off the data"),
                Param("accounting", str, accounting[0], "GRR's ε: exact or the paper's Lemma 1", choices=accounting),
                Param("regenerate_until_domain_preserved", bool, regenerate[0], "Theorem 2's regeneration",
                      choices=regenerate),
                Param("max_tries", int, 100, "generations at most (Theorem 2)", low=1)),
        public=("domains (+ the out-of-domain rule)", "bounds (clip; Δ = hi − lo)", "fill (default midpoint)",
                "number of rows"),
        cost=_cost, statistics=_statistics, noise=_noise,
        sensitivity=lambda *, discrete, numeric, bounds, **_: {
            **{f"counts[{k}]": 2.0 for k in discrete},
            **{f"values[{c}]": float(bounds[c][1]) - float(bounds[c][0]) for c in (numeric or {})}},
        examples=examples, harness_params=harness_params, harness_samples=harness_samples, neighbours=_substitutes,
        paper_option=paper_option, engines=engines,
        references="Krishnan et al., PrivateClean (SIGMOD 2016), §4.2, Lemma 1, Proposition 1, Theorems 1–2")


_DOM3, _DOM4, _DOM10 = ["a", "b", "c"], ["a", "b", "c", "d"], [f"v{k}" for k in range(10)]
GRR = _declare("privateclean.grr", "GRR on discrete partitions + Laplace on clipped numbers (exact ε per attribute)",
               accounting=("exact",), regenerate=(False,), paper_option=False, harness_samples=3000,
               harness_params={"discrete": {"cat": 0.5}, "numeric": {"val": 10.0}, "domains": {"cat": _DOM3},
                               "bounds": {"val": (0.0, 10.0)}},  # ε = ln(1 + 3·0.5/0.5) + 10/10 = ln 4 + 1
               examples=_examples(_DOM3, "a", True), engines=(SPARK,))
GRR_LEMMA1 = _declare(  # Lemma 1 claims ε = 1 on a 10-value domain; the true ε is ln(1 + 10(1−p)/p) ≈ 1.9
    "privateclean.grr_lemma1", "GRR charged with the paper's Lemma 1 ln(3/p−2) (understates ε for N > 3)",
    accounting=("paper_lemma1",), regenerate=(False,), paper_option=True, harness_samples=4000,
    harness_params={"discrete": {"cat": 0.6358}, "domains": {"cat": _DOM10}},  # p ≈ 3/(e + 2)
    examples=_examples(_DOM10, "v0", False))
GRR_REGENERATE = _declare(  # a value present in R is never missing from V: the acceptance event leaks
    "privateclean.grr_regenerate", "GRR redrawn until every value of R appears in V (the paper's Theorem 2 option)",
    accounting=("exact", "paper_lemma1"), regenerate=(True,), paper_option=True, harness_samples=3000,
    harness_params={"discrete": {"cat": 0.5}, "domains": {"cat": _DOM4}}, examples=_examples(_DOM4, "a", False))


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
    ledger is :func:`privacy_cost` of the public parameters (recorded on ``accountant``, if given, before any draw):
    the release of the declaration :data:`GRR` (or of a labelled paper option, :data:`GRR_LEMMA1`,
    :data:`GRR_REGENERATE`), its codes decoded into the public domains.

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
    numeric, domains, deltas = dict(numeric or {}), dict(domains or {}), dict(deltas or {})
    bounds, other, fill = dict(bounds or {}), dict(other or {}), dict(fill or {})
    backend = check_rng(rng)
    release = backend.name == "opendp"
    if release and regenerate_until_domain_preserved:
        raise ValueError("grr: regenerate_until_domain_preserved (the paper's Theorem 2 regeneration) cannot run on the "
                         "release back-end: whether a draw is accepted depends on the values present in R, so the "
                         "released V is not ε-DP at the ledger's ε (use a seed for a research run)")
    max_tries = check_int(max_tries, "max_tries", minimum=1)
    # --- every check on public inputs, before any value of df is looked at -----------------------------------------
    for key, p in discrete.items():
        check_probability(p, f"p[{key!r}]")
    for col, b in numeric.items():
        check_positive(b, f"b[{col!r}]")
        if col in deltas and col not in bounds:
            raise ValueError(f"grr: deltas[{col!r}] without bounds does not bound a substitution (one record may move "
                             f"from any value to any other): pass bounds={{{col!r}: (lo, hi)}}; values are clipped into "
                             "them and Δ = hi − lo")
    _check_schema(df.columns, discrete, numeric)
    for key in discrete:
        if key not in domains and key in other:
            raise ValueError(f"other[{key!r}] needs a declared domains[{key!r}]")
    for col in numeric:
        if col not in bounds and col in fill:
            raise ValueError(f"fill[{col!r}] needs declared bounds[{col!r}]")
    if release:  # the public inputs a release needs (GRR's plan refuses without them, before the data is read)
        _cost(discrete=discrete, numeric=numeric, domains=domains, bounds=bounds, other=other, fill=fill, deltas=deltas,
              derived=(), accounting=accounting, regenerate_until_domain_preserved=False)
    # --- research runs only: a public input read off the data (spec §7 item 8; never labelled private) -------------
    derived: list[str] = []
    for key in discrete:
        if key not in domains:
            warnings.warn(f"domain of {key!r} taken from the data: this is data-dependent; pass domains={{{key!r}: [...]}} "
                          "with a public domain for a private release", stacklevel=2)
            domains[key] = object_array(pd.unique(pd.Series(_values(df, key), dtype=object)))
            derived.append(f"domain[{key}]")
    for col in numeric:
        if col not in bounds:
            warnings.warn(f"range of {col!r} taken from the data: data-dependent; pass bounds={{{col!r}: (lo, hi)}} "
                          "(public) for a private release", stacklevel=2)
            finite = _numbers(df[col])
            finite = finite[np.isfinite(finite)]
            lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
            bounds[col] = (lo, hi if hi > lo else lo + 1.0)
            derived.append(f"delta[{col}]")
    doms = {k: released_domain(k, domains, other)[1] for k in discrete}
    understated = accounting == "paper_lemma1" and any(len(d) > 3 for d in doms.values())
    if understated and release:
        raise ValueError("grr: accounting='paper_lemma1' (the paper's Lemma 1) understates GRR's ε for domains larger "
                         "than 3 values, so it cannot be a release on the release back-end (use accounting='exact')")
    mech = GRR_REGENERATE if regenerate_until_domain_preserved else GRR_LEMMA1 if accounting == "paper_lemma1" else GRR
    rel = mech.release(df, rng=backend, accountant=accountant, discrete=discrete, numeric=numeric, domains=domains,
                       bounds=bounds, other=other or None, fill=fill or None, deltas=deltas or None,
                       derived=tuple(derived), accounting=accounting,
                       regenerate_until_domain_preserved=regenerate_until_domain_preserved, max_tries=max_tries)
    # --- post-processing: the private codes decoded into the public domains --------------------------------------
    cols: dict[Any, pd.Series] = {}
    for j, key in enumerate(discrete):
        new = doms[key][rel.value[j].astype(np.int64)] if len(df) else doms[key][:0]
        kc = key_columns(key)
        if len(kc) == 1:
            cols[kc[0]] = pd.Series(new, index=df.index, dtype=doms[key].dtype)
        for i, c in enumerate(kc if len(kc) > 1 else ()):
            cols[c] = pd.Series([None if _is_null(t) else t[i] for t in new], index=df.index, dtype=object)
    for j, col in enumerate(numeric, len(discrete)):
        cols[col] = pd.Series(rel.value[j] if len(df) else np.empty(0), index=df.index, dtype=float)
    out = pd.DataFrame({c: cols[c] for c in df.columns}, index=df.index)  # a new frame: df is never written to
    lohi = {c: tuple(float(v) for v in bounds[c]) for c in numeric if f"delta[{c}]" not in derived}
    deltas = {c: float(bounds[c][1]) - float(bounds[c][0]) for c in numeric}
    tries = int(rel.details.get("generations", 1))
    value = PrivateRelation(out, {k: float(v) for k, v in discrete.items()}, {k: float(v) for k, v in numeric.items()},
                            doms, deltas, tries=tries)
    public: dict[str, Any] = {"rows": len(df), "columns": list(map(str, df.columns)),
                              "p": {str(k): float(v) for k, v in discrete.items()},
                              "b": {str(k): float(v) for k, v in numeric.items()},
                              "domain": {str(k): dom.tolist() for k, dom in doms.items()},
                              "delta": {str(k): v for k, v in deltas.items()},
                              "bounds": {str(k): [v[0], v[1]] for k, v in lohi.items()}, "accounting": accounting}
    if other:
        public["other"] = {str(k): v for k, v in other.items()}
    if fill:
        public["fill"] = {str(k): float(v) for k, v in fill.items()}
    # a value read off the data is outside the formal guarantee: never labelled private as claimed
    private = not (understated or regenerate_until_domain_preserved or derived)
    return dataclasses.replace(rel, value=value, public=public, derived_public=tuple(derived), private=private,
                               mechanism="privateclean.grr")


def grr_sample(codes: dict[Any, tuple[np.ndarray, int, float]], values: dict[str, tuple[np.ndarray, float]] | None = None,
               *, size: int, rng: RngLike) -> tuple[dict[Any, np.ndarray], dict[str, np.ndarray]]:
    """``size`` GRR releases of integer-coded data through :data:`GRR`'s own noise (research: a seed or Generator).

    ``codes``: {partition: (codes in 0..N−1, N, p)}; ``values``: {column: (numbers, b)}. Each array is one
    instance (S,) — the ``size`` releases are of the same data — or ``size`` instances (size × S), one per
    release. Returns ({partition: (size × S) private codes}, {column: (size × S) noisy numbers}), drawn in the
    vectorised order (per partition one uniform per cell, then one code per cell; then Laplace per column)."""
    values = values or {}
    stats = {"codes": {k: np.asarray(c) for k, (c, _, _) in codes.items()}, "forced": {},
             "sizes": {k: int(n) for k, (_, n, _) in codes.items()},
             "values": {k: np.asarray(v, dtype=float) for k, (v, _) in values.items()}}
    out = GRR.sample(stats, size=size, rng=rng, discrete={k: p for k, (_, _, p) in codes.items()},
                     numeric={k: b for k, (_, b) in values.items()})
    return ({k: out[:, j].astype(np.int64) for j, k in enumerate(codes)},
            {k: out[:, j] for j, k in enumerate(values, len(codes))})


__all__ = ["ACCOUNTING", "GRR", "GRR_LEMMA1", "GRR_REGENERATE", "b_for_epsilon", "domain_codes", "epsilon_grr", "released_domain",
           "epsilon_laplace", "grr", "grr_sample", "out_of_domain_rule", "p_for_epsilon", "partition_codes",
           "partition_domain", "privacy_cost",
           "privacy_cost_table", "theorem2_bound", "theorem2_exact", "theorem2_probability"]
