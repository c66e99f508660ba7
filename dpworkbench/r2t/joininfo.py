"""Join information: what every R2T/OPT² mechanism consumes (spec 2.0).

One row per join result q_j: its weight ψ_j ≥ 0 and the *set* D_j of primary
private tuples it references (CSR: ``ptr``/``ids``), optionally the projection
key p(j) for SPJA queries. From it: C_i (inverted index), S_i = Σ_{j∈C_i} ψ_j,
DS = max_i S_i (SJA) and IS (SPJA; computed on the pre-projection results).

Primary tuples that occur in no join result never matter (spec 2.0): ids are
compacted to the *active* tuples 0..n-1; ``n_inactive`` keeps the count of the
others so N = n + n_inactive where a mechanism needs it (it never does).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Sequence

import numpy as np
import scipy.sparse as sp


@dataclass(eq=False)
class JoinInfo:
    """(ψ_j, D_j[, p(j)]) for j = 0..M-1 over primary tuples 0..n-1.

    Build with :func:`from_lists`, :func:`from_arrays` or :func:`from_frame`.
    ``psi_proj`` (SPJA) holds ψ(p_k) per projected key k = 0..L-1, ``proj`` the key of each row.
    ``tags`` (optional, length n) names the primary relation of each tuple (multiple R_P, spec 2.12).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §2 and §5 ((ψ_j, D_j) per join result; DS_Q, IS_Q); spec 2.0.
    """

    psi: np.ndarray
    ptr: np.ndarray
    ids: np.ndarray
    n: int
    proj: np.ndarray | None = None
    psi_proj: np.ndarray | None = None
    tags: np.ndarray | None = None
    n_inactive: int = 0
    labels: np.ndarray | None = field(default=None, repr=False)  # original key of each active tuple
    name: str = ""

    # -- sizes --------------------------------------------------------------------
    @property
    def m(self) -> int:
        """Number of join results M."""
        return int(self.psi.size)

    @property
    def n_primary(self) -> int:
        """N: active plus inactive primary tuples."""
        return self.n + self.n_inactive

    @property
    def is_spja(self) -> bool:
        return self.proj is not None

    @cached_property
    def sizes(self) -> np.ndarray:
        """|D_j| per join result."""
        return np.diff(self.ptr).astype(np.int64)

    @cached_property
    def max_refs(self) -> int:
        return int(self.sizes.max()) if self.m else 0

    @cached_property
    def row_of(self) -> np.ndarray:
        """Join-result index of every entry of ``ids``."""
        return np.repeat(np.arange(self.m, dtype=np.int64), self.sizes)

    @cached_property
    def incidence(self) -> sp.csr_matrix:
        """n × M 0/1 matrix with A[i, j] = 1 iff j ∈ C_i."""
        data = np.ones(self.ids.size)
        return sp.csr_matrix((data, (self.ids, self.row_of)), shape=(self.n, self.m))

    # -- sensitivities ------------------------------------------------------------
    @cached_property
    def S(self) -> np.ndarray:
        """S_i = Σ_{j∈C_i} ψ_j (eq. 5), per active primary tuple."""
        return np.bincount(self.ids, weights=self.psi[self.row_of], minlength=self.n)

    @cached_property
    def DS(self) -> float:
        """Downward local sensitivity for SJA (eq. 7); IS for SPJA (spec 1.4)."""
        return float(self.S.max()) if self.n else 0.0

    @property
    def IS(self) -> float:
        return self.DS

    @cached_property
    def answer(self) -> float:
        """Q(I): Σ_j ψ_j, or Σ_k ψ(p_k) over the distinct projected keys for SPJA."""
        if self.proj is None:
            return float(self.psi.sum())
        return float(self.psi_proj[np.unique(self.proj)].sum()) if self.m else 0.0

    @cached_property
    def self_join_free(self) -> bool:
        """Every join result references exactly one primary tuple (sum estimation)."""
        return self.m == 0 or bool(np.all(self.sizes == 1))

    @cached_property
    def integral(self) -> bool:
        return bool(np.all(self.psi == np.round(self.psi)))

    def stats(self) -> dict:
        return {"N_active": self.n, "M": self.m, "Q": self.answer, "DS" if not self.is_spja else "IS": self.DS,
                "max |D_j|": self.max_refs, "SJF": self.self_join_free}

    # -- neighbours ---------------------------------------------------------------
    def remove_tuples(self, remove: Sequence[int] | np.ndarray) -> "JoinInfo":
        """The instance I' ⊆ I without the given primary tuples and every join result referencing them.

        Tuple ids are kept (removed tuples become inactive but stay numbered) so that
        per-tuple quantities remain comparable.
        """
        rm = np.zeros(self.n, dtype=bool)
        rm[np.asarray(remove, dtype=np.int64)] = True
        bad = np.bincount(self.row_of, weights=rm[self.ids].astype(float), minlength=self.m) > 0
        keep = ~bad
        sizes = self.sizes[keep]
        ptr = np.zeros(keep.sum() + 1, dtype=np.int64)
        np.cumsum(sizes, out=ptr[1:])
        ids = self.ids[keep[self.row_of]]
        return JoinInfo(self.psi[keep], ptr, ids, self.n, None if self.proj is None else self.proj[keep], self.psi_proj,
                        self.tags, self.n_inactive, self.labels, self.name)

    def add_tuple(self, rows: Sequence[tuple[float, Sequence[int]]], proj: Sequence[int] | None = None) -> "JoinInfo":
        """The instance with one more primary tuple (id n) and join results ``rows`` = [(ψ, D_j incl. n), ...]."""
        new = self.n
        psi = list(self.psi.tolist())
        lists = [list(self.ids[self.ptr[j]:self.ptr[j + 1]]) for j in range(self.m)]
        for w, d in rows:
            if new not in d:
                raise ValueError("every added join result must reference the added tuple")
            psi.append(w)
            lists.append(list(d))
        p = None if self.proj is None else np.concatenate([self.proj, np.asarray(proj, dtype=np.int64)])
        return from_lists(psi, lists, n=self.n + 1, proj=p, psi_proj=self.psi_proj)


def _csr_from_lists(lists: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    sizes = np.fromiter((len(set(d)) for d in lists), dtype=np.int64, count=len(lists))
    ptr = np.zeros(len(lists) + 1, dtype=np.int64)
    np.cumsum(sizes, out=ptr[1:])
    ids = np.fromiter((i for d in lists for i in sorted(set(d))), dtype=np.int64, count=int(ptr[-1]))
    return ptr, ids


def _check_psi(psi: Any) -> np.ndarray:
    arr = np.asarray(psi)
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool):
        raise ValueError(f"weights ψ must be numeric, got dtype {arr.dtype}")
    arr = arr.astype(float)
    if arr.size and not np.all(np.isfinite(arr)):
        raise ValueError("weights ψ contain NaN or inf")
    if arr.size and arr.min() < 0:
        raise ValueError(f"weights ψ must be ≥ 0 (the paper's ψ: dom → ℕ); found {arr.min()}")
    return arr


def from_lists(psi: Sequence[float], lists: Sequence[Sequence[int]], *, n: int | None = None, proj: Any = None,
               psi_proj: Any = None, name: str = "") -> JoinInfo:
    """JoinInfo from ψ_j and Python lists D_j of primary-tuple ids 0..n-1 (deduplicated). Ids are kept as given.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §2; spec 2.0.
    """
    psi = _check_psi(psi)
    if len(lists) != psi.size:
        raise ValueError(f"psi has {psi.size} entries but {len(lists)} reference lists were given")
    ptr, ids = _csr_from_lists(lists)
    if ids.size and ids.min() < 0:
        raise ValueError("primary tuple ids must be ≥ 0")
    if np.any(np.diff(ptr) == 0):
        raise ValueError("every join result must reference at least one primary tuple")
    n_ = int(ids.max()) + 1 if ids.size else 0
    n = n_ if n is None else max(int(n), n_)
    return _finish(psi, ptr, ids, n, proj, psi_proj, None, 0, None, name)


def _finish(psi, ptr, ids, n, proj, psi_proj, tags, n_inactive, labels, name) -> JoinInfo:
    if proj is not None:
        proj = np.asarray(proj)
        if proj.size != psi.size:
            raise ValueError("proj must have one key per join result")
        uniq, proj = np.unique(proj, return_inverse=True)
        proj = proj.astype(np.int64)
        if psi_proj is None:
            # natural choice (spec 2.5): ψ(p_k) = weight of (any) result projecting to p_k; COUNT(DISTINCT) → 1
            order = np.argsort(proj, kind="stable")
            starts = np.searchsorted(proj[order], np.arange(uniq.size))
            psi_proj = np.maximum.reduceat(psi[order], starts) if psi.size else np.zeros(0)
        else:
            psi_proj = _check_psi(psi_proj)
            if psi_proj.size != uniq.size:
                raise ValueError("psi_proj must have one weight per distinct projected key")
    return JoinInfo(psi, ptr, ids, n, proj, psi_proj, tags, n_inactive, labels, name)


def from_arrays(psi: Any, keys: np.ndarray | Sequence[np.ndarray], *, tags: Sequence[str] | None = None,
                proj: Any = None, n_primary: int | None = None, name: str = "") -> JoinInfo:
    """JoinInfo from ψ (length M) and k key columns (each length M) naming the referenced primary tuples.

    Column c holds keys of primary relation ``tags[c]`` (default: all columns refer to the
    same relation, as in graph self-joins). Keys of different relations are kept apart
    (relation-tagged, spec 2.12); a join result referencing the same tuple twice counts it once.
    ``n_primary`` (optional) is |I(R_P)| including tuples in no join result.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §2, §8 (multiple primary private relations); spec 2.0, 2.12.
    """
    psi = _check_psi(psi)
    cols = [np.asarray(c) for c in (keys if isinstance(keys, (list, tuple)) else [keys[:, c] for c in range(np.asarray(keys).shape[1])])]
    if not cols:
        raise ValueError("at least one key column is required")
    m = psi.size
    for c in cols:
        if c.size != m:
            raise ValueError(f"key column has {c.size} rows, ψ has {m}")
    tags = list(tags) if tags is not None else ["R_P"] * len(cols)
    if len(tags) != len(cols):
        raise ValueError("tags must name the relation of every key column")
    if m and any(pd_isnull(c).any() for c in cols):
        raise ValueError("a join result has a NULL key of a primary relation")
    # Map (tag, key) → compact id.
    tag_names = sorted(set(tags))
    codes = []
    labels = []
    tag_of = []
    offset = 0
    for t in tag_names:
        vals = np.concatenate([cols[c] for c in range(len(cols)) if tags[c] == t])
        uniq = np.unique(vals)
        for c in range(len(cols)):
            if tags[c] == t:
                codes.append((c, np.searchsorted(uniq, cols[c]) + offset))
        labels.extend((t, u) for u in uniq.tolist())
        tag_of.extend([t] * uniq.size)
        offset += uniq.size
    codes.sort()
    mat = np.stack([cc for _, cc in codes], axis=1).astype(np.int64) if m else np.zeros((0, len(cols)), np.int64)
    mat.sort(axis=1)
    dup = np.zeros_like(mat, dtype=bool)
    if mat.shape[1] > 1:
        dup[:, 1:] = mat[:, 1:] == mat[:, :-1]
    keep = ~dup
    sizes = keep.sum(axis=1)
    ptr = np.zeros(m + 1, dtype=np.int64)
    np.cumsum(sizes, out=ptr[1:])
    ids = mat[keep]
    n = offset
    n_inactive = max(0, int(n_primary) - n) if n_primary is not None else 0
    lab = np.empty(len(labels), dtype=object)
    lab[:] = labels
    return _finish(psi, ptr, ids, n, proj, None, np.asarray(tag_of, dtype=object), n_inactive, lab, name)


def pd_isnull(a: np.ndarray) -> np.ndarray:
    import pandas as pd

    return np.asarray(pd.isnull(a))


def from_frame(df, *, psi: str, keys: Sequence[str], tags: Sequence[str] | None = None, proj: str | None = None,
               n_primary: int | None = None, name: str = "") -> JoinInfo:
    """JoinInfo from a reporting-query result (one row per join result: ψ, primary keys[, projection key]).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §2; spec 2.0.
    """
    for c in [psi, *keys, *([proj] if proj else [])]:
        if c not in df.columns:
            raise ValueError(f"column {c!r} not in the reporting-query result (columns: {list(df.columns)})")
    pv = df[proj].to_numpy() if proj else None
    return from_arrays(df[psi].to_numpy(), [df[k].to_numpy() for k in keys], tags=tags, proj=pv, n_primary=n_primary, name=name)


def from_info_file(path, *, name: str = "") -> JoinInfo:
    """Read the authors' information-file format: one line per join result, ``ψ id id ...``.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §2; spec 2.0.
    """
    psi, lists = [], []
    with open(path) as fh:
        for line in fh:
            parts = line.split()
            if not parts:
                continue
            psi.append(float(parts[0]))
            lists.append([int(x) for x in parts[1:]])
    uniq = np.unique([i for d in lists for i in d])
    remap = {v: k for k, v in enumerate(uniq.tolist())}
    return from_lists(psi, [[remap[i] for i in d] for d in lists], n=uniq.size, name=name)


__all__ = ["JoinInfo", "from_arrays", "from_frame", "from_info_file", "from_lists"]
