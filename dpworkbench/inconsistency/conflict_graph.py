"""Conflict graphs G^D_Σ without pairwise Python loops (spec §3.2), a DuckDB engine and a brute-force oracle.

Fast engine, per DC: hash-partition the rows on the DC's same-attribute ``=`` predicates (blocks),
collapse each block to the distinct value combinations of the attributes used by the remaining
predicates (order predicates, ``!=``, constants, cross-attribute comparisons), evaluate the DC once
per ordered pair of combinations inside a block (numba), and expand each violating pair of
combinations to the Cartesian product of its member tuples. Cost O(n log n + Σ_blocks c_b² + m).
FD-like DCs have c_b = number of distinct right-hand values in the block; Adult's Gain/Loss DC has a
few hundred (Gain, Loss) combinations. Edges are int64 keys min·n+max, deduplicated by sort + mask,
kept per DC (mirror DCs are evaluated once) and stored as int32 (u < v) arrays.

NULLs (``null_policy``): "sql" (default) — a tuple with NULL in an attribute a DC mentions cannot
take part in a violation of that DC (a comparison with NULL is not true); "artifact" — a tuple with
any NULL column takes part in no violation (the reference code's rule).
Unary DCs (``unary_policy``): "reject" (default) raises; "separate" records the violating tuples in
``ConflictGraph.unary`` and removes their edges (spec §1.3).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
import pandas as pd

from .constraints import DC, BoundConstraints, bind
from . import _kernels as K
from . import _fastkernels as FK


@dataclass(frozen=True)
class NodeIdentity:
    """What a tuple *is*, independently of the other tuples: the input of the stable ``"rank"`` order.

    The neighbouring relation is add/remove one tuple (at any row position). A stable order must order the
    common edges of two neighbouring tables identically, so a tuple's place in it may depend only on the
    tuple itself, never on its row position (deleting a middle row shifts every later position). Identity is

    * ``"id_column <name>"``: the user's key column, hashed; rows sharing a key (or a NULL key) are told apart by
      their occurrence rank (see :func:`tuple_identity`: this keeps the order stable, so nothing is refused);
    * ``"content"`` (default for tables): a deterministic hash of the tuple's values in every column as typed
      (numbers as float64, everything else as text). The types are fixed by the table's public schema, never
      inferred from the rows: with inferred types one added row with text in a numeric column re-typed the
      column and changed *every* row's hash (issue 21, finding 1). Identical tuples are interchangeable: ties among them are broken by occurrence, which is
      safe because exchanging identical tuples maps the conflict graph onto itself. Two *different* tuples
      whose two 64-bit hashes both collide are ordered by their content (text form of the row);
    * ``"labels"``: node labels 0..n-1 (graphs given as explicit edge lists).

    ``key1`` (uint64) is mixed with the order seed; ``key2``, ``tie`` and ``occ`` break ties in that order.
    """

    key1: np.ndarray
    key2: np.ndarray
    tie: np.ndarray
    occ: np.ndarray
    source: str = "labels"

    def __len__(self) -> int:
        return int(self.key1.size)


def label_identity(n: int) -> NodeIdentity:
    """Identity = node label (explicit edge lists; the same ranks as before the identity existed)."""
    z = np.zeros(n, np.int64)
    return NodeIdentity(np.arange(n, dtype=np.uint64), np.zeros(n, np.uint64), z, z.copy(), "labels")


def _canonical(frame: pd.DataFrame) -> pd.DataFrame:
    out = {}
    for i, c in enumerate(frame.columns):
        s = frame[c]
        if pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_bool_dtype(s):
            out[f"c{i}"] = s.to_numpy(dtype=float, na_value=np.nan)
        elif pd.api.types.infer_dtype(s, skipna=True) in ("string", "empty"):
            out[f"c{i}"] = s.to_numpy(dtype=object)  # already text (NULLs hash alike whatever their kind)
        else:
            arr = s.to_numpy(dtype=object)
            na = pd.isna(arr)
            out[f"c{i}"] = np.where(na, None, arr.astype(str)).astype(object)
    return pd.DataFrame(out, index=range(len(frame)))


def _row_hashes(canon: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Two independent keyed 64-bit hashes of every row (pandas' SipHash-based row hashing)."""
    h1 = pd.util.hash_pandas_object(canon, index=False, hash_key="dpwb-identity-01").to_numpy(np.uint64)
    h2 = pd.util.hash_pandas_object(canon, index=False, hash_key="dpwb-identity-02").to_numpy(np.uint64)
    return h1, h2


def tuple_identity(df: pd.DataFrame, id_column: str | None = None) -> NodeIdentity:
    """The :class:`NodeIdentity` of every row of ``df`` (see there). ``id_column``: the user's key column.

    Whatever the key column holds, this never refuses and never quotes a value: whether a release happens must not
    depend on the rows (issue 21, finding 6). Duplicate keys and missing keys (NULL is a key value like any other)
    are handled by a public rule: a tuple's identity is **(key, occurrence rank)**, the rank counting earlier rows
    of the file with the same key (the same rule as identical rows under the content hash).

    Why the claimed sensitivities still hold: the releases need only that the node sequence of ``D`` is the
    restriction of that of ``D' = D + t`` (Definition 7: common edges keep their order). Two rows of ``D`` with
    different keys are ordered by their keyed hashes, which ``t`` does not change. Two rows with the same key are
    ordered by occurrence rank, i.e. by row order; adding (or removing) ``t`` shifts the ranks of the later rows
    with that key by one, all alike, so their relative order is kept. Hence every common edge keeps its place and
    F(θ) moves by ≤ θ (I_MI) / ≤ θ+1 (I_P), the Alg. 5 cover by ≤ 2, exactly as with unique keys.

    The hash reads the row *as typed*: a table read from a file is typed cell by cell under its public schema
    (:mod:`dpworkbench.datasets.public_schema`), so one row can never change another row's identity.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §4, Definition 7 (stable orders).
    """
    df = df.reset_index(drop=True)
    n = len(df)
    if id_column is not None:
        if id_column not in df.columns:  # the header is public: naming its columns leaks nothing
            raise ValueError(f"id_column {id_column!r} is not a column; columns: {', '.join(map(str, df.columns))}")
        frame, source = df[[id_column]], f"id_column {id_column!r}"
    else:
        frame, source = df, "content"
    canon = _canonical(frame)
    if n == 0:
        z = np.zeros(0, np.int64)
        return NodeIdentity(np.zeros(0, np.uint64), np.zeros(0, np.uint64), z, z.copy(), source)
    h1, h2 = _row_hashes(canon)
    tie = np.zeros(n, np.int64)
    order = np.lexsort((np.arange(n), h2, h1))  # rows sharing both hashes become runs, in row order
    a_s, b_s = h1[order], h2[order]
    new = np.ones(n, bool)
    new[1:] = (a_s[1:] != a_s[:-1]) | (b_s[1:] != b_s[:-1])
    start = np.maximum.accumulate(np.where(new, np.arange(n), 0))
    occ = np.empty(n, np.int64)
    occ[order] = np.arange(n) - start
    first = np.empty(n, np.int64)  # group label = the group's first row
    first[order] = order[start]
    dup = np.flatnonzero(occ > 0)
    if dup.size:  # rows sharing both hashes: identical (interchangeable) unless the hashes collided
        first_row = first
        a = canon.iloc[dup].reset_index(drop=True)
        b = canon.iloc[first_row[dup]].reset_index(drop=True)
        same = ((a == b) | (a.isna() & b.isna())).all(axis=1).to_numpy()
        if not same.all():  # a genuine collision of different tuples: order the group by content
            for g in np.unique(first[dup[~same]]):
                members = np.flatnonzero(first == g)
                texts = [repr(tuple(canon.iloc[i].tolist())) for i in members]
                distinct = sorted(set(texts))
                seen: dict[str, int] = {}
                for i, t in zip(members, texts):
                    tie[i] = distinct.index(t)
                    occ[i] = seen.get(t, 0)
                    seen[t] = occ[i] + 1
    return NodeIdentity(h1, h2, tie, occ, source)


@dataclass
class ConflictGraph:
    """Undirected simple conflict graph on tuples 0..n-1 (row positions).

    ``identity`` (see :class:`NodeIdentity`) is what the stable ``"rank"`` order uses: computed from the
    tuples' content (or the user's ``id_column``) when the graph is built from a table, node labels for an
    explicit edge list (``None`` means labels).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §2 (conflict graph of a database under denial constraints).
    """

    n: int
    u: np.ndarray  # int32, u < v, sorted lexicographically
    v: np.ndarray
    per_dc: list = field(default_factory=list)  # per input DC: sorted unique int64 keys (mirrors share arrays)
    dcs: list = field(default_factory=list)
    unary: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    seconds: float = 0.0
    engine: str = "fast"
    identity: NodeIdentity | None = None

    @property
    def num_edges(self) -> int:
        return int(self.u.size)

    @property
    def fingerprint(self) -> str:
        """sha256 of the graph's content (n, edges, unary violators, node identities): the key under which
        :mod:`dpworkbench.cache` keeps per-graph work (graphs are not modified after they are built)."""
        fp = self.__dict__.get("_fingerprint")
        if fp is None:
            from ..cache import fingerprint

            parts = [int(self.n), np.asarray(self.u), np.asarray(self.v), np.asarray(self.unary)]
            if self.identity is not None:
                parts += [self.identity.key1, self.identity.key2, self.identity.tie, self.identity.occ]
            fp = fingerprint(*parts)
            self.__dict__["_fingerprint"] = fp
        return fp

    def degrees(self) -> np.ndarray:
        """Every node's degree (int64; a copy of the value computed once per graph: one pass over 3·10⁸ edges
        costs seconds, and a run asks for it more than once — max_degree, the projector's θ ≥ d_max shortcut)."""
        d = self.__dict__.get("_degrees")
        if d is None or d[0] is not self.u or d[1] is not self.v:  # keyed on the arrays themselves
            d = (self.u, self.v, FK.degrees(np.asarray(self.u), np.asarray(self.v), np.int64(self.n)))
            self.__dict__["_degrees"] = d
        return d[2].copy()

    def max_degree(self) -> int:
        return int(self.degrees().max()) if self.n else 0

    def keys(self) -> np.ndarray:
        return self.u.astype(np.int64) * self.n + self.v.astype(np.int64)

    def edge_set(self) -> set[tuple[int, int]]:
        return set(zip(self.u.tolist(), self.v.tolist()))

    def union_of_first(self, k: int) -> "ConflictGraph":
        """The conflict graph of the first k DCs (union of their per-DC edge sets, no recomputation)."""
        if not 1 <= k <= len(self.per_dc):
            raise ValueError(f"k must be in 1..{len(self.per_dc)}, got {k}")
        keys = sorted_unique(np.concatenate(self.per_dc[:k])) if k > 1 else self.per_dc[0]
        u, v = _split(keys, self.n)
        return ConflictGraph(self.n, u, v, self.per_dc[:k], self.dcs[:k], self.unary, 0.0, self.engine, self.identity)

    def to_networkx(self):
        import networkx as nx

        g = nx.Graph()
        g.add_nodes_from(range(self.n))
        g.add_edges_from(zip(self.u.tolist(), self.v.tolist()))
        return g

    def __repr__(self) -> str:
        return f"ConflictGraph(n={self.n}, edges={self.num_edges}, dcs={len(self.dcs)}, engine={self.engine!r})"


def from_edges(n: int, edges: Sequence[tuple[int, int]]) -> ConflictGraph:
    """A ConflictGraph from an explicit edge list (toy graphs, tests).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §2 (conflict graph).
    """
    e = np.asarray(list(edges), dtype=np.int64).reshape(-1, 2)
    if e.size and (e.min() < 0 or e.max() >= n):
        raise ValueError(f"edge endpoints must lie in 0..{n - 1}")
    e = e[e[:, 0] != e[:, 1]]
    keys = sorted_unique(np.minimum(e[:, 0], e[:, 1]) * n + np.maximum(e[:, 0], e[:, 1]))
    u, v = _split(keys, n)
    return ConflictGraph(n, u, v, [keys], [], engine="edges")


def sorted_unique(keys: np.ndarray, *, inplace: bool = False) -> np.ndarray:
    """Sorted distinct int64 keys (sort + compaction; much faster than numpy 2's hash-based np.unique here).

    ``inplace=True`` sorts ``keys`` itself and compacts it without a second full-size copy (large graphs)."""
    if keys.size == 0:
        return keys.astype(np.int64)
    if inplace:
        keys.sort(kind="quicksort")
        m = int(K.compact_sorted(keys))
        return keys[:m].copy() if m < keys.size // 2 else keys[:m]
    k = np.sort(keys, kind="quicksort")
    mask = np.empty(k.size, bool)
    mask[0] = True
    np.not_equal(k[1:], k[:-1], out=mask[1:])
    return k[mask]


def _split(keys: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    if n == 0:
        return np.zeros(0, np.int32), np.zeros(0, np.int32)
    return K.split_keys(keys, np.int64(n))


# --------------------------------------------------------------------------------------------------
# typing and encoding
# --------------------------------------------------------------------------------------------------
def column_kinds(df: pd.DataFrame) -> dict[str, str]:
    out = {}
    for c in df.columns:
        s = df[c]
        out[c] = "number" if (pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_bool_dtype(s)) else "string"
    return out


def _valid_rows(df: pd.DataFrame, dc: DC, null_policy: str) -> np.ndarray:
    if null_policy == "artifact":
        return ~df.isna().any(axis=1).to_numpy()
    if null_policy == "sql":
        return ~df[list(dc.attributes)].isna().any(axis=1).to_numpy()
    raise ValueError(f"null_policy must be 'sql' or 'artifact', got {null_policy!r}")


def _encode(df: pd.DataFrame, dc: DC, kinds: dict[str, str]) -> tuple[dict[str, np.ndarray], dict]:
    """Float64 codes per attribute; strings share one sorted vocabulary (order-preserving) per DC."""
    str_attrs = [a for a in dc.attributes if kinds[a] == "string"]
    consts = [o.const for p in dc.predicates for o in (p.left, p.right) if o.is_const and isinstance(o.const, str)]
    vocab = None
    if str_attrs:
        pieces = [df[a].dropna().astype(str).unique() for a in str_attrs] + [np.asarray(consts, dtype=object)]
        vocab = np.unique(np.concatenate([np.asarray(p, dtype=object) for p in pieces]).astype(str))
    codes = {}
    for a in dc.attributes:
        s = df[a]
        if kinds[a] == "number":
            codes[a] = s.to_numpy(dtype=float, na_value=np.nan)
        else:
            arr = np.full(len(s), np.nan)
            ok = s.notna().to_numpy()
            arr[ok] = np.searchsorted(vocab, s[ok].astype(str).to_numpy()).astype(float)
            codes[a] = arr
    const_codes = {}
    for c in consts:
        const_codes[c] = float(np.searchsorted(vocab, c))
    return codes, const_codes


def _encode_all(df: pd.DataFrame, dcs: Sequence[DC], kinds: dict[str, str]) -> tuple[dict[str, np.ndarray], dict]:
    """Float64 codes of every attribute the DCs use, computed once per build.

    Strings share one sorted vocabulary over all constrained string columns and string constants, so codes
    preserve the order of the strings (for ``<``/``>``) and compare across attributes. Each column is hashed
    once (``pd.factorize``) and only its distinct values are located in the vocabulary. NULL → NaN."""
    attrs: list[str] = []
    consts: list[str] = []
    for d in dcs:
        for a in d.attributes:
            if a not in attrs:
                attrs.append(a)
        consts += [o.const for p in d.predicates for o in (p.left, p.right) if o.is_const and isinstance(o.const, str)]
    facts = {}
    for a in attrs:
        if kinds[a] == "string":
            fc, uniq = pd.factorize(df[a], use_na_sentinel=True)
            facts[a] = (fc, np.asarray([str(x) for x in uniq], dtype=object))
    vocab = None
    if facts or consts:
        pieces = [u for _, u in facts.values()] + [np.asarray(consts, dtype=object)]
        vocab = np.unique(np.concatenate(pieces).astype(str))
    codes = {}
    for a in attrs:
        if kinds[a] == "number":
            codes[a] = df[a].to_numpy(dtype=float, na_value=np.nan)
        else:
            fc, uniq = facts[a]
            pos = np.searchsorted(vocab, uniq.astype(str)).astype(float)
            codes[a] = np.where(fc >= 0, pos[np.maximum(fc, 0)] if pos.size else np.nan, np.nan)
    const_codes = {c: float(np.searchsorted(vocab, c)) for c in consts}
    return codes, const_codes


def _dc_edges_fast(df: pd.DataFrame, dc: DC, kinds: dict[str, str], null_policy: str,
                   encoded: tuple[dict, dict] | None = None) -> np.ndarray:
    """The reference engine's per-DC edges: sorted distinct int64 keys min·n+max."""
    parts = _dc_combo_pairs(df, dc, kinds, null_policy, encoded)
    if parts is None:
        return np.zeros(0, np.int64)
    keys = K.expand_pairs(*parts, np.int64(len(df)))
    return sorted_unique(keys, inplace=True)


def _sorted_shift_keys(parts, s: int) -> np.ndarray:
    """Sorted distinct keys (min << s) | max of one DC's combination pairs (``None``: no edges)."""
    if parts is None:
        return np.zeros(0, np.int64)
    keys = FK.expand_pairs_shift(*parts, np.int64(s))
    if keys.size == 0:
        return keys
    keys.sort(kind="quicksort")
    m = int(K.compact_sorted(keys))
    return keys[:m].copy() if m < keys.size // 2 else keys[:m]


def _dc_combo_pairs(df: pd.DataFrame, dc: DC, kinds: dict[str, str], null_policy: str,
                    encoded: tuple[dict, dict] | None = None):
    """(member_ptr, members, pa, pb): the violating pairs of value combinations of one DC and their members
    (row positions, ascending within a combination); ``None`` when fewer than two rows can take part."""
    valid = np.flatnonzero(_valid_rows(df, dc, null_policy))
    if valid.size < 2:
        return None
    if encoded is None:
        codes, const_codes = _encode(df.iloc[valid], dc, kinds)
    else:
        full, const_codes = encoded
        codes = {a: full[a][valid] for a in dc.attributes}
    eq_attrs = [p.left.attr for p in dc.predicates if p.is_same_attr_pair and p.op == "="]
    rest = [p.normalised() for p in dc.predicates if not (p.is_same_attr_pair and p.op == "=")]
    combo_attrs: list[str] = []
    for p in rest:
        for a in p.attributes:
            if a not in combo_attrs:
                combo_attrs.append(a)
    frame = pd.DataFrame({f"e{i}": codes[a] for i, a in enumerate(eq_attrs)} | {f"c{i}": codes[a] for i, a in enumerate(combo_attrs)})
    ecols = [f"e{i}" for i in range(len(eq_attrs))]
    ccols = [f"c{i}" for i in range(len(combo_attrs))]
    m = len(valid)
    if ecols:
        block = frame.groupby(ecols, sort=True).ngroup().to_numpy()
    else:
        block = np.zeros(m, np.int64)
    if ccols or ecols:
        combo = frame.groupby(ecols + ccols, sort=True).ngroup().to_numpy() if (ecols + ccols) else np.zeros(m, np.int64)
    else:
        combo = np.zeros(m, np.int64)
    n_combo = int(combo.max()) + 1
    order = np.argsort(combo, kind="stable")
    sizes = np.bincount(combo, minlength=n_combo)
    member_ptr = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    members = valid[order].astype(np.int64)
    first = order[member_ptr[:-1]]
    combo_block = block[first]
    n_block = int(combo_block.max()) + 1
    block_ptr = np.searchsorted(combo_block, np.arange(n_block + 1)).astype(np.int64)
    vals = np.zeros((n_combo, max(1, len(combo_attrs))))
    for i, a in enumerate(combo_attrs):
        vals[:, i] = codes[a][first]
    col = {a: i for i, a in enumerate(combo_attrs)}
    k = len(rest)
    lt = np.zeros(k, np.int64); lc = np.zeros(k, np.int64); op = np.zeros(k, np.int64)
    rk = np.zeros(k, np.int64); rc = np.zeros(k, np.int64); rconst = np.zeros(k)
    for i, p in enumerate(rest):
        lt[i] = p.left.tuple
        lc[i] = col[p.left.attr]
        op[i] = K.OP_CODES[p.op]
        if p.right.is_const:
            rk[i] = 2
            c = p.right.const
            rconst[i] = const_codes[c] if isinstance(c, str) else float(c)
        else:
            rk[i] = 0 if p.right.tuple == 1 else 1
            rc[i] = col[p.right.attr]
    symmetric = dc.key() == dc.mirror_key()
    pa, pb = K.combo_pairs(block_ptr, sizes.astype(np.int64), vals, lt, lc, op, rk, rc, rconst, symmetric)
    return member_ptr, members, pa, pb


def _unary_violators(df: pd.DataFrame, dc: DC, kinds: dict[str, str], null_policy: str) -> np.ndarray:
    valid = _valid_rows(df, dc, null_policy)
    mask = np.asarray(valid, dtype=bool).copy()
    if not len(df):
        return np.zeros(0, np.int64)
    ops = {"=": np.equal, "!=": np.not_equal, "<": np.less, ">": np.greater, "<=": np.less_equal, ">=": np.greater_equal}
    for p in dc.predicates:
        def val(o):
            return o.const if o.is_const else df[o.attr].reset_index(drop=True)
        with np.errstate(invalid="ignore"):
            res = np.asarray(ops[p.op](val(p.left), val(p.right)), dtype=bool)  # vectorised; NULL rows are masked by ``valid``
        mask &= res
    return np.flatnonzero(mask).astype(np.int64)


def build(
    df: pd.DataFrame,
    dcs: Sequence[DC] | BoundConstraints,
    *,
    engine: str = "fast",
    null_policy: str = "sql",
    unary_policy: str = "reject",
    keep_per_dc: bool = True,
    id_column: str | None = None,
) -> ConflictGraph:
    """Conflict graph of ``df`` under ``dcs`` (tuples = row positions 0..n-1).

    Neighbouring relation of every release built on it: add or remove one tuple (row) at any position.
    The graph carries each tuple's identity (:func:`tuple_identity`): the user's key column ``id_column``
    when given (duplicate keys raise ``ValueError``), else a hash of the tuple's own content. The stable
    ``"rank"`` order depends on that identity and the order seed only — not on row positions — so adding
    or removing a tuple never reorders the edges of the others.

    ``engine``: "fast" (hash/combination partitioning + numba; every DC's keys, packed with a shift, generated in
    parallel into one buffer grouped by the smaller end's top bits, each bucket sorted and deduplicated on its own), "reference" (the previous fast engine: the same combination partitioning,
    keys min·n+max, one global sort of all DCs' keys; kept as the reference the fast engine is tested against —
    identical output), "duckdb" (SQL self-joins) or "bruteforce" (every pair in Python; small tables only, for
    tests). ``keep_per_dc=False`` drops the
    per-DC edge sets after the union (saves memory on very large graphs; ``union_of_first`` then fails).

    ``dcs`` are checked against the table's schema once (:func:`~.constraints.bind`; or pass constraints already
    bound to this schema); the engines receive the bound constraints and never re-validate.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §2 and §3 (conflict graph); spec §3.2 (fast construction).
    """
    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"df must be a pandas DataFrame, got {type(df).__name__}")
    if not isinstance(dcs, BoundConstraints):
        dcs = list(dcs)
        if not dcs:
            raise ValueError("dcs is empty: give at least one denial constraint")
    if unary_policy not in ("reject", "separate"):
        raise ValueError(f"unary_policy must be 'reject' or 'separate', got {unary_policy!r}")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(repr(e) for e in ENGINES)}, got {engine!r}"
                         + ("; Spark builds the same graph with spark_engine.build_spark" if engine == "spark" else ""))
    df = df.reset_index(drop=True)
    identity = tuple_identity(df, id_column)
    kinds = column_kinds(df)
    t0 = time.perf_counter()
    n = len(df)
    bound = bind(dcs, kinds)  # the one place a DC is checked against the schema
    dcs = list(bound.dcs)
    unary_dcs = list(bound.unary)
    if unary_dcs and unary_policy == "reject":
        d = unary_dcs[0]
        raise ValueError(f"{d.where()}{d.text or d} is a single-tuple (unary) constraint; pass unary_policy='separate' "
                         "to count its violators separately (spec §1.3)")
    kept, rep = list(bound.pairwise), list(bound.rep)
    if engine == "fast":
        return _build_fast(df, dcs, kept, rep, kinds, null_policy, unary_dcs, keep_per_dc, identity, t0)
    if engine == "reference":
        encoded = _encode_all(df, kept, kinds)
        kept_keys = [_dc_edges_fast(df, d, kinds, null_policy, encoded) for d in kept]
    elif engine == "duckdb":
        kept_keys = [_dc_edges_duckdb(df, d, kinds, null_policy) for d in kept]
    else:
        kept_keys = [_dc_edges_brute(df, d, kinds, null_policy) for d in kept]
    per_dc_pairs = [kept_keys[r] if keep_per_dc else np.zeros(0, np.int64) for r in rep]
    unary = np.zeros(0, np.int64)
    if unary_dcs:
        unary = np.unique(np.concatenate([_unary_violators(df, d, kinds, null_policy) for d in unary_dcs]))
    per_dc = []
    it = iter(per_dc_pairs)
    for d in dcs:
        per_dc.append(np.zeros(0, np.int64) if d.is_unary else next(it))
    if len(kept_keys) == 1:
        allk = kept_keys[0]
    elif kept_keys:
        allk = np.concatenate(kept_keys)
        if not keep_per_dc:
            kept_keys.clear()
        allk = sorted_unique(allk, inplace=True)
    else:
        allk = np.zeros(0, np.int64)
    if unary.size and allk.size:
        a, b = allk // n, allk % n
        bad = np.isin(a, unary) | np.isin(b, unary)
        allk = allk[~bad]
    u, v = _split(allk, n)
    return ConflictGraph(n, u, v, per_dc, dcs, unary, time.perf_counter() - t0, engine, identity)


ENGINES = ("fast", "reference", "duckdb", "bruteforce")


def _union_bucketed(parts: list, n: int, s: int) -> tuple[np.ndarray, np.ndarray]:
    """Union of every DC's edges → (u, v) int32 in lexicographic order, without a global sort or merge.

    ``parts``: per DC ``(member_ptr, members, pa, pb)`` (consumed). The keys (min << s) | max are generated in
    parallel (chunks of combo pairs, numba) straight into one preallocated buffer, grouped by bucket = the top
    bits of the smaller end (a counting pass sizes every chunk × bucket range first). Buckets are disjoint
    ranges of the smaller end, in order, so sorting + deduplicating each bucket (numpy's sort releases the GIL:
    one bucket per thread) and concatenating them gives the sorted union. Each key is decoded in place into its
    (u, v) pair: the returned u and v are strided int32 views of one interleaved buffer (no second allocation —
    first-touch page faults of a fresh 2.5 GB array cost seconds). Deterministic: sorted distinct keys whatever
    the number of threads."""
    from concurrent.futures import ThreadPoolExecutor
    from numba import get_num_threads

    threads = max(1, get_num_threads())
    bs = max(0, s - 7)  # ≤ 128 buckets of 2**bs node ids
    # 4-byte keys relative to the bucket ((min mod 2**bs) << s | max) when they fit with ≤ 256 buckets (up to 2**20
    # nodes): written into the first half of the bucket's range, sorted there (numpy sorts 4-byte keys about twice
    # as fast) and decoded from the back (FK.compact_decode32); the order within a bucket is the 8-byte keys'
    narrow = bs + s <= 32 or ((n - 1) >> (32 - s)) < 256
    if narrow:
        bs = min(bs, 32 - s)
    nb = ((n - 1) >> bs) + 1 if n > 0 else 1
    none = np.zeros(0, np.int64)
    small = sum(p[2].size for p in parts) < FK.PARALLEL_MIN and n < FK.PARALLEL_MIN
    fill = FK.bucket_fill_serial if small else FK.bucket_fill
    plans = []
    for mp, mem, pa, pb in parts:
        cuts = FK.pair_chunks(mp, pa, pb, 4 * threads)
        cnt = np.zeros((cuts.size - 1, nb), np.int64)
        fill(mp, mem, pa, pb, np.int64(s), np.int64(bs), cuts, cnt, none, False)
        plans.append((cuts, cnt))
    per_bucket = sum(c.sum(axis=0) for _, c in plans) if plans else np.zeros(nb, np.int64)
    lo = np.concatenate([[0], np.cumsum(per_bucket)]).astype(np.int64)
    total = int(lo[-1])
    if total == 0:
        parts.clear()
        return np.zeros(0, np.int32), np.zeros(0, np.int32)
    buf = FK.scratch(total, np.int64)  # reuses the buffer of a previous graph that is gone (see FK.scratch)
    (FK.prefault_serial if total < FK.PARALLEL_MIN else FK.prefault)(buf, np.int64(4 * threads))
    start = lo[:-1].copy()
    cursors = []
    for _, cnt in plans:  # bucket b: DC after DC, chunk after chunk
        cur = np.empty_like(cnt)
        for c in range(cnt.shape[0]):
            cur[c] = start
            start = start + cnt[c]
        cursors.append(cur)
    if narrow:  # bucket b's keys: k32[2·lo[b] : lo[b] + lo[b + 1]], its pairs k32[2·lo[b] : 2·lo[b + 1]]
        k32 = buf.view(np.uint32)
        fill32 = FK.bucket_fill32_serial if small else FK.bucket_fill32
        for (mp, mem, pa, pb), (cuts, _), cur in zip(parts, plans, cursors):
            fill32(mp, mem, pa, pb, np.int64(s), np.int64(bs), cuts, cur + lo[:-1], k32)
    else:
        for (mp, mem, pa, pb), (cuts, _), cur in zip(parts, plans, cursors):
            fill(mp, mem, pa, pb, np.int64(s), np.int64(bs), cuts, cur, buf, True)
    parts.clear()

    pairs = buf.view(np.int32)

    def sort_bucket(b):
        if narrow:
            w = k32[2 * lo[b]:2 * lo[b + 1]]
            c = lo[b + 1] - lo[b]
            w[:c].sort(kind="quicksort")  # numpy's (SIMD) sort, GIL released
            return FK.compact_decode32(w, np.int64(c), np.int64(b << bs), np.int64(s))
        seg = buf[lo[b]:lo[b + 1]]  # noqa: F821 - the closure runs before `del buf` below
        seg.sort(kind="quicksort")  # numpy's (SIMD) sort, GIL released
        return FK.compact_decode(seg, pairs[2 * lo[b]:2 * lo[b + 1]], np.int64(s))

    order = np.argsort(-per_bucket, kind="stable").tolist()  # largest buckets first
    with ThreadPoolExecutor(threads) as ex:
        got = dict(zip(order, ex.map(sort_bucket, order)))
    cnt = np.array([got[b] for b in range(nb)], np.int64)
    dst = np.concatenate([[0], np.cumsum(cnt)]).astype(np.int64)
    FK.move_left(buf, lo[:-1].copy(), cnt, dst[:-1].copy())  # close the gaps left by duplicates
    m = int(dst[-1])
    if m < 0.75 * total:  # many duplicates: a compact copy (else views over the slightly larger buffer)
        pairs = pairs[:2 * m].copy()
    else:
        pairs = pairs[:2 * m]
    del buf
    return pairs[0::2], pairs[1::2]


def _build_fast(df, dcs, kept, rep, kinds, null_policy, unary_dcs, keep_per_dc, identity, t0) -> ConflictGraph:
    n = len(df)
    s = FK.shift_for(n)
    encoded = _encode_all(df, kept, kinds)
    all_parts = [_dc_combo_pairs(df, d, kinds, null_policy, encoded) for d in kept]
    per_dc_kept = None
    if keep_per_dc:  # the public per-DC format: sorted keys min·n+max (a monotone map of the packed keys)
        mask = np.int64((1 << s) - 1)
        per_dc_kept = []
        for p in all_parts:
            k = _sorted_shift_keys(p, s)
            per_dc_kept.append((k >> s) * np.int64(n) + (k & mask))
            del k
    u, v = _union_bucketed([p for p in all_parts if p is not None], n, s)
    all_parts.clear()
    unary = np.zeros(0, np.int64)
    if unary_dcs:
        unary = np.unique(np.concatenate([_unary_violators(df, d, kinds, null_policy) for d in unary_dcs]))
        if unary.size and u.size:
            bad = np.isin(u, unary) | np.isin(v, unary)
            u, v = u[~bad], v[~bad]
    per_dc = edges_per_dc(dcs, rep, per_dc_kept, keep_per_dc)
    return ConflictGraph(n, u, v, per_dc, dcs, unary, time.perf_counter() - t0, "fast", identity)


def edges_per_dc(dcs, rep, per_kept, keep_per_dc: bool) -> list[np.ndarray]:
    """One edge-index array per DC in ``dcs`` order: unary DCs have none; binary DC ``i`` gets ``per_kept[rep[i]]``
    (DCs with the same pair predicate share one representative) when ``keep_per_dc``, else an empty array."""
    out = []
    it = iter(rep)
    for d in dcs:
        if d.is_unary:
            out.append(np.zeros(0, np.int64))
        else:
            r = next(it)
            out.append(per_kept[r] if keep_per_dc else np.zeros(0, np.int64))
    return out


# --------------------------------------------------------------------------------------------------
# DuckDB engine and brute-force oracle
# --------------------------------------------------------------------------------------------------
def _sql_operand(o, side_names, kinds):
    if o.is_const:
        return "'" + str(o.const).replace("'", "''") + "'" if isinstance(o.const, str) else repr(o.const)
    return f'{side_names[o.tuple]}."{o.attr}"'


def _dc_edges_duckdb(df: pd.DataFrame, dc: DC, kinds: dict[str, str], null_policy: str) -> np.ndarray:
    import duckdb

    n = len(df)
    cols = list(dc.attributes) if null_policy == "sql" else list(df.columns)
    tab = df[list(dict.fromkeys(list(dc.attributes) + cols))].copy()
    for a in tab.columns:
        if kinds[a] == "string":
            tab[a] = tab[a].astype("string")
    tab["__rid"] = np.arange(n, dtype=np.int64)
    where = [f"{_sql_operand(p.left, {1: 't1', 2: 't2'}, kinds)} {'<>' if p.op == '!=' else p.op} "
             f"{_sql_operand(p.right, {1: 't1', 2: 't2'}, kinds)}" for p in dc.predicates]
    where += [f't1."{c}" IS NOT NULL AND t2."{c}" IS NOT NULL' for c in cols]
    sql = (f"SELECT DISTINCT LEAST(t1.__rid, t2.__rid) * {n}::BIGINT + GREATEST(t1.__rid, t2.__rid) AS k "
           f"FROM tab t1, tab t2 WHERE t1.__rid <> t2.__rid AND " + " AND ".join(where))
    con = duckdb.connect()
    try:
        con.register("tab", tab)
        keys = con.execute(sql).fetchnumpy()["k"]
    finally:
        con.close()
    return sorted_unique(np.asarray(keys, dtype=np.int64))


def _dc_edges_brute(df: pd.DataFrame, dc: DC, kinds: dict[str, str], null_policy: str) -> np.ndarray:
    import operator

    ops = {"=": operator.eq, "!=": operator.ne, "<": operator.lt, ">": operator.gt, "<=": operator.le, ">=": operator.ge}
    rows = df.to_dict("records")
    valid = _valid_rows(df, dc, null_policy)
    n = len(rows)
    keys = set()
    for i in range(n):
        for j in range(n):
            if i == j or not (valid[i] and valid[j]):
                continue
            t = {1: rows[i], 2: rows[j]}
            ok = True
            for p in dc.predicates:
                a = p.left.const if p.left.is_const else t[p.left.tuple][p.left.attr]
                b = p.right.const if p.right.is_const else t[p.right.tuple][p.right.attr]
                if kinds.get(p.left.attr, "") == "string" and not p.left.is_const:
                    a = str(a)
                if not p.right.is_const and kinds.get(p.right.attr, "") == "string":
                    b = str(b)
                if not ops[p.op](a, b):
                    ok = False
                    break
            if ok:
                keys.add(min(i, j) * n + max(i, j))
    return np.asarray(sorted(keys), dtype=np.int64)


__all__ = ["ConflictGraph", "NodeIdentity", "build", "column_kinds", "from_edges", "label_identity", "tuple_identity"]
