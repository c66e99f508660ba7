"""SPJA queries on DuckDB → join information (spec 2.0, 2.13, Ex. 9.1).

An aggregate query ``SELECT COUNT(*) | SUM(expr) | COUNT(DISTINCT expr) FROM ... WHERE ...``
plus its primary private relation(s) (alias and key column) is rewritten into the
*reporting query* ``SELECT expr AS psi, alias.key AS k0, ... [, proj AS p] FROM ... WHERE ...``
that returns one row per join result; :func:`extract` runs it and builds a
:class:`~dpworkbench.r2t.joininfo.JoinInfo`. Group-by clauses are not supported
(the paper removes them, spec 4.4).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

import numpy as np

from .joininfo import JoinInfo, from_arrays

_AGG = re.compile(r"^\s*select\s+(?P<agg>count\s*\(\s*\*\s*\)|count\s*\(\s*distinct\s+(?P<dexpr>.+?)\)|sum\s*\((?P<sexpr>.+)\))\s+from\s+(?P<rest>.+?);?\s*$",
                  re.IGNORECASE | re.DOTALL)


@dataclass(frozen=True)
class PrivateRelation:
    """A primary private relation atom: its alias in the query, its key column and the relation it names."""

    alias: str
    key: str
    relation: str = ""

    @property
    def tag(self) -> str:
        return self.relation or self.alias


@dataclass
class Extraction:
    info: JoinInfo
    reporting_sql: str
    seconds: float
    kind: str  # "count" | "sum" | "count_distinct"


def normalize_private(private) -> list[PrivateRelation]:
    """The primary private relation(s) as a list of :class:`PrivateRelation` (from one, a dict alias → key, or pairs).

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §8 (multiple primary private relations); spec 2.12.
    """
    if isinstance(private, PrivateRelation):
        return [private]
    if isinstance(private, dict):
        return [PrivateRelation(a, k) for a, k in private.items()]
    out = []
    for p in private:
        if isinstance(p, PrivateRelation):
            out.append(p)
        elif isinstance(p, (tuple, list)) and len(p) in (2, 3):
            out.append(PrivateRelation(*p))
        else:
            raise ValueError(f"private relation must be (alias, key[, relation]), got {p!r}")
    if not out:
        raise ValueError("declare at least one primary private relation")
    return out


def _from_aliases(rest: str) -> set[str]:
    m = re.split(r"\bwhere\b", rest, maxsplit=1, flags=re.IGNORECASE)
    names = set()
    for item in m[0].split(","):
        toks = item.strip().split()
        if not toks:
            continue
        names.add(toks[0].lower().split(".")[-1].strip('"'))
        if len(toks) >= 3 and toks[1].lower() == "as":
            names.add(toks[2].lower())
        elif len(toks) == 2:
            names.add(toks[1].lower())
    return names


def reporting_query(sql: str, private, *, project: str | None = None) -> tuple[str, str]:
    """Rewrite an aggregate SPJA query into its reporting query; returns (sql, kind)."""
    m = _AGG.match(sql.strip())
    if not m:
        raise ValueError("query must be 'SELECT COUNT(*) | SUM(expr) | COUNT(DISTINCT expr) FROM ... [WHERE ...]' without GROUP BY")
    rest = m.group("rest")
    if re.search(r"\bgroup\s+by\b", rest, re.IGNORECASE):
        raise ValueError("GROUP BY is not supported (the paper removes all group-by clauses)")
    privs = normalize_private(private)
    aliases = _from_aliases(rest)
    for p in privs:
        if p.alias.lower() not in aliases:
            raise ValueError(f"the query does not reference the declared private relation {p.alias!r} (FROM has {sorted(aliases)})")
    if m.group("sexpr") is not None:
        psi, kind = f"({m.group('sexpr')})", "sum"
    elif m.group("dexpr") is not None:
        psi, kind = "1", "count_distinct"
        project = project or m.group("dexpr")
    else:
        psi, kind = "1", "count"
    keys = ", ".join(f"{p.alias}.{p.key} AS __k{c}" for c, p in enumerate(privs))
    proj = f", ({project}) AS __p" if project else ""
    return f"SELECT {psi} AS __psi, {keys}{proj} FROM {rest}", kind


def extract(con, sql: str, private, *, project: str | None = None, n_primary: dict | int | None = None,
            name: str = "") -> Extraction:
    """Run the reporting query of ``sql`` on DuckDB connection ``con`` and build the join information.

    ``private``: ``[(alias, key_column[, relation]), ...]`` or ``{alias: key_column}``; atoms
    with the same relation name share tuple ids (self-joins), different relations are tagged
    apart (multiple primary private relations, spec 2.12). ``project``: SPJA projection
    expression (set semantics); ``COUNT(DISTINCT e)`` implies ``project=e``.
    """
    import duckdb

    rq, kind = reporting_query(sql, private, project=project)
    privs = normalize_private(private)
    t0 = time.perf_counter()
    try:
        res = con.execute(rq)
        desc = res.description
        arr = res.fetchnumpy()
    except duckdb.Error as exc:  # unknown table/column, type errors ...
        raise ValueError(f"query failed in DuckDB: {str(exc).splitlines()[0]}") from None
    seconds = time.perf_counter() - t0
    psi = arr["__psi"]
    type_name = str(desc[0][1]).upper()
    # An empty join has no weights: a header-only CSV sniffs as VARCHAR, and refusing it would make whether a
    # release happens depend on whether the private table is empty (it neighbours a one-row table).
    if psi.size and not any(t in type_name for t in ("INT", "DECIMAL", "DOUBLE", "FLOAT", "REAL", "NUMERIC", "HUGEINT")):
        raise ValueError(f"SUM weights must be numeric; the SUM expression has type {type_name} "
                         "(declare the column's type, e.g. CAST(x AS DOUBLE), so it does not depend on the rows)")
    psi = np.asarray(psi, dtype=float) if not np.ma.isMaskedArray(psi) else np.asarray(psi.filled(np.nan), dtype=float)
    # A refusal that depends on one row's value would tell neighbours apart; the weights are mapped into the
    # domain R2T assumes instead (NULL → 0, negative → 0), a rule that is public and applied to every row.
    psi = np.where(np.isnan(psi), 0.0, np.maximum(psi, 0.0)) if psi.size else psi
    keys = [np.asarray(arr[f"__k{c}"]) for c in range(len(privs))]
    proj = np.asarray(arr["__p"]) if "__p" in arr else None
    n_tot = None
    if isinstance(n_primary, int):
        n_tot = n_primary
    elif isinstance(n_primary, dict):
        n_tot = int(sum(n_primary.values()))
    info = from_arrays(psi, keys, tags=[p.tag for p in privs], proj=proj, n_primary=n_tot, name=name)
    return Extraction(info, rq, seconds, kind)


def timed_sql(con, sql: str) -> tuple[float, float]:
    """Plain SQL evaluation (the tables' "query running time"): returns (answer, seconds)."""
    t0 = time.perf_counter()
    v = con.execute(sql).fetchone()[0]
    return float(v or 0.0), time.perf_counter() - t0


__all__ = ["Extraction", "PrivateRelation", "extract", "reporting_query", "timed_sql"]
