"""The PrivateClean model (non-private, deterministic): the released relation V with its public parameters, cleaning
on it with automatic provenance, and the value provenance graph the estimators read (spec §1.2, §2).

Nothing here draws randomness or spends ε: :class:`PrivateRelation` is the value a :func:`~dpworkbench.privateclean.
mechanisms.grr` release carries, and every cleaner is post-processing of V.

References
----------
Krishnan, Wang, Franklin, Goldberg, Kraska, Milo, Wu: "PrivateClean: Data Cleaning and Differential Privacy",
SIGMOD 2016 (seed 002), §3.2 (cleaning operations), §6.2–6.4 (value provenance), §7 (weighted provenance).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pandas as pd

from dpworkbench._validation import check_options
from dpworkbench.accounting import Release

NULL = None


def levenshtein(a: str, b: str) -> int:
    a, b = str(a), str(b)
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


@dataclass
class PrivateRelation:
    """The released relation V with its public parameters: p per partition, b per numeric column, the released
    domain per partition and the Laplace range Δ per numeric column.

    This is the *value* of the :class:`~dpworkbench.accounting.Release` that :func:`grr` returns; the ε it cost
    travels only in that release's ledger (:func:`privacy_cost_table` shows it per attribute under both
    conventions). Everything here is private output (``data``) or public input (the rest).

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §4.2 (the private relation V); spec §1.2, §1.8.
    """

    data: pd.DataFrame
    p: dict[Any, float]
    b: dict[str, float]
    domains: dict[Any, np.ndarray]
    deltas: dict[str, float]
    tries: int = 1

    def domain_size(self, col: Any) -> int:
        return int(len(self.domains[col]))


def _apply_per_distinct(data: pd.DataFrame, cols: list[str], fn: Callable[..., Any]) -> tuple[list, dict]:
    """``fn`` over the rows' value tuples of ``cols``, called once per distinct tuple (cleaning functions act on
    values, and the provenance maps need the value → result table): the per-row results and that table."""
    cache: dict = {}
    res = []
    for v in zip(*(data[c].to_numpy(dtype=object) for c in cols)):
        if v not in cache:
            cache[v] = fn(*v)
        res.append(cache[v])
    return res, cache


@dataclass
class CleanedRelation:
    """Row-aligned cleaned relation: ``data`` = C(V), ``private`` = V, ``sources`` = clean col → source col.

    ``mappings`` holds, per cleaned column, the composed pure value mapping when the cleaning was
    single-attribute (fork-free), so the same cleaner can be applied to R and to released-domain
    values absent from V.

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §3.2.1 (cleaning operations), §6.2–6.4 (value provenance), §7 (weighted provenance); spec §2.
    """

    private: PrivateRelation
    data: pd.DataFrame
    sources: dict[str, str] = field(default_factory=dict)
    mappings: dict[str, dict] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    # provenance graphs and factorised columns, computed once per relation (cleaners return new relations, so a
    # relation's data never changes through this API; do not assign into ``data`` after querying)
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def start(cls, rel: "PrivateRelation | Release") -> "CleanedRelation":
        """Start cleaning a private relation (or the :func:`grr` release holding it). Cleaning and every query
        on the result are post-processing of V: they read only V and the public parameters (p, domains)."""
        if isinstance(rel, Release):
            rel = rel.value
        cols = [c for c in rel.data.columns]
        # the composed cleaner starts as the identity on the whole released domain, so values of the domain that
        # no private row holds (masked, Theorem 2) are still carried through every later cleaner (provenance
        # with domain_source="released" needs their images)
        maps = {c: ({denull(v): denull(v) for v in rel.domains[c].tolist()} if c in rel.domains else {}) for c in cols}
        for key, dom in rel.domains.items():  # an attribute of a joint partition: the components of its tuples
            if isinstance(key, tuple) and len(key) > 1:
                for i, c in enumerate(key):
                    comps = [None if t is None else denull(t[i]) for t in dom.tolist()]
                    maps[c] = {v: v for v in comps}
        return cls(rel, rel.data.copy(), {c: c for c in cols}, maps, [])

    # -- local cleaners ------------------------------------------------------
    def transform(self, col: str, fn: Callable[[Any], Any] | dict, note: str = "") -> "CleanedRelation":
        """Transform({col}): v[col] ← C(v[col]); deterministic, row by row."""
        self._check(col)
        f = fn.get if isinstance(fn, dict) else fn
        col_s = self.data[col]
        # vectorised: the cleaner runs once per distinct value (None/NaN are one NULL category), then a gather
        codes, _ = pd.factorize(col_s, use_na_sentinel=False)
        first = np.unique(codes, return_index=True)[1]
        uniq = col_s.iloc[first].tolist()
        table = {u: (f(u, u) if isinstance(fn, dict) else f(u)) for u in uniq}
        newvals = np.empty(len(uniq), dtype=object)
        for k, u in enumerate(uniq):
            newvals[k] = table[u]
        out = self._copy()
        out.data[col] = pd.Series(newvals[codes], index=self.data.index, dtype=object)
        m = dict(out.mappings.get(col, {}))
        # compose: existing dirty→current then current→new; also map values not yet seen
        m = {k: table.get(v, (f(v, v) if isinstance(fn, dict) else f(v))) for k, v in m.items()}
        for u, v in table.items():
            m.setdefault(u, v)
        out.mappings[col] = m
        out.log.append(note or f"transform({col})")
        return out

    def merge(self, col: str, mapping: dict, note: str = "") -> "CleanedRelation":
        """Merge({col}, Domain): replace values by other (or NULL) values; unmapped values are kept."""
        return self.transform(col, dict(mapping), note or f"merge({col}, {len(mapping)} values)")

    def delete(self, col: str, values, note: str = "") -> "CleanedRelation":
        """Deletion modelled as Merge to NULL (rows stay aligned)."""
        return self.merge(col, {v: NULL for v in values}, note or f"merge-to-NULL({col})")

    def extract(self, new_col: str, cols: str | list[str], fn: Callable[..., Any], note: str = "") -> "CleanedRelation":
        """Extract(g): new discrete attribute from C(v[g]); single source column keeps a fork-free map."""
        cols = [cols] if isinstance(cols, str) else list(cols)
        for c in cols:
            self._check(c)
        out = self._copy()
        res, cache = _apply_per_distinct(self.data, cols, fn)
        out.data[new_col] = pd.Series(res, index=self.data.index, dtype=object)
        src = cols[0]
        out.sources[new_col] = self.sources.get(src, src)
        if len(cols) == 1:
            base = self.mappings.get(src, {})
            m = {k: fn(v) for k, v in base.items()}
            for (u,), v in cache.items():
                m.setdefault(u, v)
            out.mappings[new_col] = m
        else:
            out.mappings.pop(new_col, None)
        out.log.append(note or f"extract({new_col} ← {cols})")
        return out

    def filter_outliers(self, col: str, value_col: str | None = None, *, value_range: tuple[float, float] | None = None,
                        min_rows: int = 0, note: str = "") -> "CleanedRelation":
        """Outlier filtering as Merge to NULL (spec §2.1, the Intel task): values of ``col`` found by
        :func:`outlier_values` on the current (private) data are deleted; rows stay aligned."""
        bad = outlier_values(self.data, col, value_col, value_range=value_range, min_rows=min_rows)
        return self.delete(col, bad, note or f"filter-outliers({col}: {len(bad)} values → NULL)")

    def transform_multi(self, cols: list[str], fn: Callable[..., tuple], note: str = "") -> "CleanedRelation":
        """Transform on a projection g = cols (e.g. FD repair); provenance becomes weighted (forks)."""
        for c in cols:
            self._check(c)
        out = self._copy()
        res, cache = _apply_per_distinct(self.data, cols, lambda *v: tuple(fn(*v)))
        for j, c in enumerate(cols):
            out.data[c] = pd.Series([r[j] for r in res], index=self.data.index, dtype=object)
            out.mappings.pop(c, None)
        out.log.append(note or f"transform({cols})")
        return out

    # -- provenance ------------------------------------------------------------
    def provenance(self, col: str, domain_source: str = "released") -> pd.DataFrame:
        """Weighted provenance graph of ``col``: rows (l, m, rows, weight) with l ∈ L (dirty), m ∈ M (clean)."""
        key = ("provenance", col, domain_source)
        if key in self._cache:
            return self._cache[key].copy()
        check_options(domain_source, "domain_source", ("released", "observed"))
        src = self.sources.get(col, col)
        edges = diff_provenance(self.private.data, self.data, src, col)
        if domain_source == "released" and src in self.private.domains:
            present = set(denull(v) for v in edges["l"].tolist())
            mapping = self.mappings.get(col)
            extra = [v for v in self.private.domains[src].tolist() if denull(v) not in present]
            if extra:
                add = pd.DataFrame({"l": extra, "m": [mapping.get(v, v) if mapping is not None else v for v in extra],
                                    "rows": 0, "weight": 1.0})
                edges = pd.concat([edges, add], ignore_index=True)
        self._cache[key] = edges
        return edges.copy()

    def factorized(self, col: str) -> tuple[np.ndarray, list]:
        """(codes, distinct values) of a cleaned column, NULL as one category (cached)."""
        self._check(col)
        key = ("factorize", col)
        if key not in self._cache:
            codes, uniq = pd.factorize(self.data[col], use_na_sentinel=False)
            self._cache[key] = (codes, list(uniq))
        return self._cache[key]

    def _check(self, col: str) -> None:
        if col not in self.data.columns:
            raise ValueError(f"unknown attribute {col!r}")

    def _copy(self) -> "CleanedRelation":
        return CleanedRelation(self.private, self.data.copy(), dict(self.sources),
                               {k: dict(v) for k, v in self.mappings.items()}, list(self.log))


def _key(s: pd.Series) -> pd.Series:
    return s.astype(object).where(s.notna(), "\x00NULL")


def diff_provenance(V: pd.DataFrame, V_clean: pd.DataFrame, src: str, dst: str) -> pd.DataFrame:
    """Build the weighted graph by grouping rows on (V[src], V_clean[dst]); w_lm = rows(l→m)/rows(l).

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §7 (weighted provenance w_lm), Example 6; spec §2.5.
    """
    if len(V) != len(V_clean):
        raise ValueError("V and V_clean must be row-aligned")
    cl, ul = pd.factorize(V[src], use_na_sentinel=False)
    cm, um = pd.factorize(V_clean[dst], use_na_sentinel=False)
    counts = np.bincount(cl.astype(np.int64) * len(um) + cm, minlength=len(ul) * len(um))
    key = np.flatnonzero(counts)
    rows = counts[key]
    li, mi = key // len(um), key % len(um)
    ul, um = list(ul), list(um)
    g = pd.DataFrame({"l": pd.Series([denull(ul[k]) for k in li], dtype=object),
                      "m": pd.Series([denull(um[k]) for k in mi], dtype=object), "rows": rows})
    g["weight"] = rows / np.bincount(li, weights=rows, minlength=len(ul))[li]
    return g


def denull(x: Any) -> Any:
    """A cell as a domain value: every NULL spelling (None, NaN, the NULL marker) → None, an integral float → int."""
    if x is None or (isinstance(x, float) and x != x) or (isinstance(x, str) and x == "\x00NULL"):
        return None
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


def apply_mapping(values: Any, mapping: dict) -> np.ndarray:
    """Apply a pure cleaner (dict, identity default) to raw values — used to compute C(R).

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §3.2.1 (Merge/Transform as value maps); spec §2.1.
    """
    vals = np.asarray(values, dtype=object)
    return np.array([mapping.get(v, v) for v in vals], dtype=object)


def fd_repair_majority(df: pd.DataFrame, lhs: list[str], rhs: str) -> dict:
    """FD repair stand-in for Bohannon et al.: each lhs group takes its most frequent rhs (returns a tuple map).

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §8.3 (TPC-DS FD repair, after Bohannon et al.); spec §5.2.
    """
    g = df.groupby(lhs, dropna=False)[rhs].agg(lambda s: s.value_counts().index[0] if s.notna().any() else None)
    return {k if isinstance(k, tuple) else (k,): v for k, v in g.items()}


def edit_distance_merge(values: Any, *, threshold: int = 1, counts: pd.Series | None = None) -> dict:
    """Matching-dependency merge: map each value to a more frequent value within edit distance ≤ threshold.

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §8.3 (matching-dependency merge); spec §5.2.
    """
    s = pd.Series(values, dtype=object).dropna()
    vc = counts if counts is not None else s.value_counts()
    order = list(vc.index)
    mapping = {}
    for i, v in enumerate(order):
        for w in order[:i]:
            if w not in mapping and levenshtein(v, w) <= threshold:
                mapping[v] = w
                break
    return mapping


def outlier_values(data: pd.DataFrame, col: str, value_col: str | None = None, *,
                   value_range: tuple[float, float] | None = None, min_rows: int = 0) -> list:
    """Values of discrete ``col`` that look spurious on the (private) data: the mean of ``value_col``
    over their rows lies outside ``value_range`` (e.g. sensor ids logging impossible temperatures), or
    they hold fewer than ``min_rows`` rows. NULL is never returned (it is already the deletion target).

    Learning the cleaner from V is post-processing (no privacy cost); under GRR every value also
    receives about p·S/N random rows, so thresholds must allow for that dilution.

    References
    ----------
    Krishnan et al., PrivateClean (SIGMOD 2016, seed 002), §8.3 (IntelWireless outlier task); spec §2.1, §5.2.
    """
    if col not in data.columns:
        raise ValueError(f"unknown attribute {col!r}")
    if value_range is None and min_rows <= 0:
        raise ValueError("give value_range (with value_col) and/or min_rows > 0")
    key = _key(data[col])
    bad: set = set()
    if min_rows > 0:
        vc = key.value_counts()
        bad |= set(vc.index[vc < min_rows])
    if value_range is not None:
        if value_col is None or value_col not in data.columns:
            raise ValueError(f"value_range needs a numeric value_col present in the data, got {value_col!r}")
        lo, hi = (float(v) for v in value_range)
        if not hi > lo:
            raise ValueError(f"value_range must be (lo, hi) with lo < hi, got {value_range!r}")
        means = pd.to_numeric(data[value_col], errors="coerce").groupby(key.to_numpy()).mean()
        bad |= set(means.index[(means < lo) | (means > hi)])
    return sorted((v for v in (denull(b) for b in bad) if v is not None), key=repr)
