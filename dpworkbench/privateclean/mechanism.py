"""PrivateClean private relations: GRR on discrete partitions + Laplace on numeric columns (spec §1)."""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from dpworkbench._validation import check_positive, check_probability, check_int
from dpworkbench.accounting import Accountant
from dpworkbench.mechanisms.backends import resolve_backend


def epsilon_grr(p: float, N: int, convention: str = "exact") -> float:
    """ε of GRR with replacement probability p on an N-value domain.

    ``exact``: ln(1 + N(1−p)/p) (true k-RR likelihood ratio, default). ``paper``: Lemma 1's
    ln(3/p − 2), which equals the exact value only at N = 3 (spec §7 item 1).
    """
    p = check_probability(p, "p")
    if convention == "paper":
        return math.log(3.0 / p - 2.0)
    if convention == "exact":
        N = check_int(N, "N", minimum=1)
        return math.log1p(N * (1.0 - p) / p)
    if convention == "appendix":  # App. A.1 as printed; invalid, shown only as a labelled curiosity
        N = check_int(N, "N", minimum=2)
        return math.log((1 - p + p / N) / (p * (N - 1) / N))
    raise ValueError(f"convention must be 'exact', 'paper' or 'appendix', got {convention!r}")


def p_for_epsilon(epsilon: float, N: int | None = None, convention: str = "exact") -> float:
    """Inverse of :func:`epsilon_grr`: exact p = N/(e^ε+N−1); paper p = 3/(e^ε+2)."""
    epsilon = check_positive(epsilon, "epsilon")
    if convention == "paper":
        return 3.0 / (math.exp(epsilon) + 2.0)
    if convention == "exact":
        if N is None:
            raise ValueError("N is required for the exact convention")
        N = check_int(N, "N", minimum=1)
        return N / (math.exp(epsilon) + N - 1.0)
    raise ValueError(f"convention must be 'exact' or 'paper', got {convention!r}")


def epsilon_laplace(b: float, delta: float) -> float:
    """Proposition 1: ε = Δ/b."""
    return check_positive(delta, "delta") / check_positive(b, "b")


def b_for_epsilon(epsilon: float, delta: float) -> float:
    """Laplace scale giving ε for a numeric attribute with range Δ: b = Δ/ε."""
    return check_positive(delta, "delta") / check_positive(epsilon, "epsilon")


def theorem2_bound(N: int, p: float, alpha: float) -> float:
    """Theorem 2 sufficient size: S > (N/p) ln(pN/α)."""
    N = check_int(N, "N", minimum=1)
    p = check_probability(p, "p")
    alpha = check_probability(alpha, "alpha")
    return N / p * math.log(p * N / alpha)


def theorem2_exact(N: int, p: float, alpha: float) -> float:
    """Exact union bound: S ≥ 1 + ln(α/(p(N−1))) / ln(1 − p/N)."""
    N = check_int(N, "N", minimum=2)
    p = check_probability(p, "p")
    alpha = check_probability(alpha, "alpha")
    return 1.0 + math.log(alpha / (p * (N - 1))) / math.log(1.0 - p / N)


def theorem2_probability(N: int, p: float, S: int) -> float:
    """Union lower bound on P[all N values preserved] (worst case: one value has a single row)."""
    return max(0.0, 1.0 - p * (N - 1) * (1.0 - p / N) ** (S - 1))


@dataclass
class PrivateRelation:
    """Released relation V with its parameters, released domains and privacy ledger."""

    data: pd.DataFrame
    p: dict[Any, float]
    b: dict[str, float]
    domains: dict[Any, np.ndarray]
    deltas: dict[str, float]
    ledger: pd.DataFrame
    seed: Any = None
    tries: int = 1
    accountant: Accountant | None = field(default=None, repr=False)

    @property
    def epsilon(self) -> float:
        return float(self.ledger["epsilon_exact"].sum())

    @property
    def epsilon_paper(self) -> float:
        return float(self.ledger["epsilon_paper"].sum())

    def domain_size(self, col: Any) -> int:
        return int(len(self.domains[col]))


_NULL = "\x00NULL"


def _nk(v: Any) -> Any:
    """Hashable key treating None/NaN as one NULL category."""
    if v is None or (isinstance(v, float) and v != v):
        return _NULL
    return v


def _encode(vals: np.ndarray, dom: np.ndarray) -> np.ndarray:
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


def grr(
    df: pd.DataFrame,
    discrete: dict[Any, float],
    numeric: dict[str, float] | None = None,
    *,
    domains: dict[Any, Any] | None = None,
    deltas: dict[str, float] | None = None,
    bounds: dict[str, tuple[float, float]] | None = None,
    rng: Any = None,
    regenerate_until_domain_preserved: bool = False,
    max_tries: int = 100,
    accountant: Accountant | None = None,
) -> PrivateRelation:
    """Generalized Randomized Response (spec §1.4–1.8). Never mutates ``df``.

    Every column of ``df`` must be privatised (listed in ``discrete`` or ``numeric``): a column passed
    through unmodified would have ε = ∞ (Theorem 1), so it is a ValueError rather than a silent leak.

    ``discrete``: {column or tuple of columns (a partition): p}. Each row keeps its value w.p. 1−p,
    else draws uniformly from the declared domain (can redraw the original). ``numeric``: {column: b}
    Laplace scale. ``domains`` declares the public domain per partition; if absent it is taken from
    the data with a warning (data-dependent, outside the formal LDP guarantee). ``deltas``: public
    range per numeric column (else the data range, again with a warning). Spends, per attribute,
    ε = ln(1+N(1−p)/p) and Δ/b (sequential composition, Theorem 1), recorded on ``accountant``.

    ``bounds``: public (lo, hi) per numeric column; values are clipped into it before the noise and
    Δ = hi − lo (spec §7 item 8: a public bound with clipping). A declared ``deltas`` entry without
    bounds must cover the data's range, else ValueError (the ε = Δ/b claim would be false).

    ``rng``: a seed / Generator (seeded numpy: research only) or a back-end such as
    ``dpworkbench.mechanisms.release_backend()`` (OpenDP Laplace for the numeric noise, an OS-seeded
    generator for the discrete draws) for a real release.

    ``regenerate_until_domain_preserved`` (Theorem 2, the paper's option, off by default): redraws V
    until every value of R's domain appears. The acceptance event depends on the whole relation, so
    the released V is a *conditional* draw and the per-row ε in the ledger no longer bounds it
    exactly (if every relation is accepted with probability ≥ 1−α the loss grows by at most
    ln(1/(1−α))); the ledger's note says so.
    """
    if not isinstance(df, pd.DataFrame):
        raise ValueError("df must be a pandas DataFrame")
    numeric = dict(numeric or {})
    domains = dict(domains or {})
    deltas = dict(deltas or {})
    bounds = dict(bounds or {})
    backend = resolve_backend(rng)
    gen = backend.generator
    max_tries = check_int(max_tries, "max_tries", minimum=1)
    for key, p in discrete.items():
        check_probability(p, f"p[{key!r}]")
        for c in _key_cols(key):
            if c not in df.columns:
                raise ValueError(f"unknown discrete attribute {c!r}")
    for col, b in numeric.items():
        check_positive(b, f"b[{col!r}]")
        if col not in df.columns:
            raise ValueError(f"unknown numeric attribute {col!r}")
    listed = {c for key in discrete for c in _key_cols(key)} | set(numeric)
    unlisted = [c for c in df.columns if c not in listed]
    if unlisted:
        raise ValueError(f"columns {unlisted!r} of df are neither in discrete nor in numeric: they would be released "
                         f"unmodified (ε = ∞, which de-privatises the whole row, Theorem 1); privatise them or pass "
                         f"only the columns to release, e.g. df[{sorted(map(str, listed))!r}]")
    S = len(df)
    # encode every partition against its domain
    enc: dict[Any, tuple[np.ndarray, np.ndarray]] = {}
    dom_out: dict[Any, np.ndarray] = {}
    for key in discrete:
        cols = _key_cols(key)
        if len(cols) == 1:
            vals = df[cols[0]].to_numpy()
        else:
            vals = np.empty(S, dtype=object)
            vals[:] = list(zip(*(df[c].to_numpy(dtype=object) for c in cols)))
        if key in domains:
            dom = np.asarray(list(domains[key]), dtype=object)
        else:
            warnings.warn(f"domain of {key!r} taken from the data: this is data-dependent (spec §7 item 8)",
                          stacklevel=2)
            dom = np.asarray(list(pd.unique(pd.Series(vals, dtype=object))), dtype=object)
        codes = pd.Series(_encode(vals, dom), dtype=np.int64)
        if (codes < 0).any():
            bad = pd.Series(vals, dtype=object)[(codes < 0).to_numpy()].iloc[0]
            raise ValueError(f"value {bad!r} of {key!r} is outside the declared domain")
        typed = np.asarray(dom.tolist()) if all(_nk(v) is not _NULL for v in dom.tolist()) else dom
        if typed.dtype.kind in "iufb":
            dom = typed  # homogeneous numeric domain: keep a numeric column (fast downstream)
        enc[key] = (codes.to_numpy(dtype=np.int64), dom)
        dom_out[key] = dom
    clipped: dict[str, np.ndarray] = {}
    for col in numeric:
        x = df[col].to_numpy(dtype=float)
        if not np.isfinite(x).all():
            raise ValueError(f"numeric attribute {col!r} has missing or non-finite values")
        if col in bounds:
            lo, hi = (float(v) for v in bounds[col])
            if not (np.isfinite(lo) and np.isfinite(hi) and hi > lo):
                raise ValueError(f"bounds[{col!r}] must be finite (lo, hi) with hi > lo, got {bounds[col]!r}")
            if col in deltas and abs(deltas[col] - (hi - lo)) > 1e-12 * max(1.0, hi - lo):
                raise ValueError(f"deltas[{col!r}] = {deltas[col]} disagrees with bounds[{col!r}] (Δ = hi − lo = {hi - lo})")
            deltas[col] = hi - lo
            clipped[col] = np.clip(x, lo, hi)
            continue
        clipped[col] = x
        if col in deltas:
            check_positive(deltas[col], f"deltas[{col!r}]")
            span = float(x.max() - x.min()) if x.size else 0.0
            if span > deltas[col] * (1 + 1e-12):
                raise ValueError(f"declared Δ of {col!r} ({deltas[col]}) is smaller than its data range ({span:g}): the "
                                 f"ε = Δ/b claim would be false; pass bounds={{{col!r}: (lo, hi)}} to clip into a public range")
        if col not in deltas:
            warnings.warn(f"Δ of {col!r} taken from the data range: data-dependent (spec §7 item 8)", stacklevel=2)
            deltas[col] = float(np.nanmax(x) - np.nanmin(x)) or 1.0
    rows = []
    for key, (codes, dom) in enc.items():
        p = discrete[key]
        rows.append({"attribute": str(key), "kind": "discrete", "parameter": p, "N": len(dom),
                     "epsilon_exact": epsilon_grr(p, len(dom)), "epsilon_paper": epsilon_grr(p, len(dom), "paper")})
    for col, b in numeric.items():
        e = epsilon_laplace(b, deltas[col])
        rows.append({"attribute": col, "kind": "numeric", "parameter": b, "N": np.nan,
                     "epsilon_exact": e, "epsilon_paper": e})
    ledger = pd.DataFrame(rows)
    ledger["note"] = ""
    if regenerate_until_domain_preserved:
        ledger.loc[ledger["kind"] == "discrete", "note"] = (
            "regenerated until the domain is preserved (Theorem 2): conditional draw, ε is per draw (see grr docstring)")
    if bounds:
        for col in bounds:
            if col in numeric:
                ledger.loc[ledger["attribute"] == col, "note"] = f"clipped to public bounds {tuple(bounds[col])}"

    if accountant is not None:
        for r in rows:
            accountant.spend(r["epsilon_exact"], "privateclean-grr" if r["kind"] == "discrete" else "laplace",
                             note=f"{r['attribute']} ({r['kind']}, param={r['parameter']:g})")
    tries = 0
    while True:
        tries += 1
        new_cols: dict[Any, Any] = {}
        preserved = True
        for key, (codes, dom) in enc.items():
            p = discrete[key]
            idx = np.flatnonzero(gen.random(S) < p)  # rows replaced by a uniform draw from the domain
            new = codes.copy()
            new[idx] = gen.integers(0, len(dom), size=idx.size)
            if regenerate_until_domain_preserved and not np.isin(np.unique(codes), new).all():
                preserved = False
            cols = _key_cols(key)
            if len(cols) == 1:
                new_cols[cols[0]] = pd.Series(dom[new], index=df.index, dtype=dom.dtype)
            else:
                tup = dom[new]
                for j, c in enumerate(cols):
                    new_cols[c] = pd.Series([t[j] for t in tup], index=df.index, dtype=object)
        for col, b in numeric.items():
            new_cols[col] = pd.Series(clipped[col] + np.asarray(backend.laplace(b, S), dtype=float), index=df.index)
        out = pd.DataFrame({c: new_cols[c] for c in df.columns}, index=df.index)  # a new frame: df is never written to
        if preserved or not regenerate_until_domain_preserved:
            break
        if tries >= max_tries:
            warnings.warn(f"domain not preserved after max_tries={max_tries} generations (Theorem 2: S too small for p, N)",
                          stacklevel=2)
            break
    return PrivateRelation(out, {k: float(v) for k, v in discrete.items()}, {k: float(v) for k, v in numeric.items()},
                           dom_out, deltas, ledger, seed=rng, tries=tries, accountant=accountant)
