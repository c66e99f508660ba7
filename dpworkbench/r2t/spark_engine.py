"""R2T's join extraction on Apache Spark (issue 14): the same reporting SQL, the same JoinInfo, written as Parquet.

The aggregate SPJA query is rewritten by :func:`~dpworkbench.r2t.sql.reporting_query` — the very string the DuckDB
path runs. The queries this workbench ships (TPC-H Table 5, graph pattern SQL, user SPJA queries) are written in the
dialect-neutral subset both engines parse alike (comma joins, ``=``/``<``/``>`` predicates, ``date 'YYYY-MM-DD'``
literals, arithmetic, ``COUNT(*)``/``SUM``/``COUNT(DISTINCT)``), so no transpiler is needed: one string, two engines.
Spark evaluates it and writes the join results — ψ, one key column per primary private relation, the projection
key — as Parquet; the driver reads that file into the same :class:`~dpworkbench.r2t.joininfo.JoinInfo`
(:func:`~dpworkbench.r2t.joininfo.from_arrays`: tuple ids compacted in key order, so they do not depend on the row
order either engine returned). The truncation LPs/flows and the noise stay on the driver, unchanged.
"""

from __future__ import annotations

import contextlib

import shutil
import tempfile
import time
from pathlib import Path
from typing import Sequence

import numpy as np

from .joininfo import JoinInfo, from_arrays
from .schema import check_columns
from .sql import Extraction, canonical_order, complete

_NUMERIC = ("Byte", "Short", "Integer", "Long", "Float", "Double", "Decimal")


def register_tables(spark, tables: dict[str, str | Path], catalog=None) -> None:
    """One temporary view per table, named as in the query, over a Parquet (or CSV with header) file.

    Columns are never typed from the file: every column is read as text and, where the schema (``catalog``,
    from ``--schema``/``--db``) declares a type, cast to it cell by cell (Spark's cast yields NULL on a cell that
    does not parse), so one row cannot change how another is read (issue 21, finding 1). A Parquet file's own column
    types are part of the private file too (a writer types a column by its values), so its cells go through text
    and the declared type as a CSV's do, as ``r2t.schema.load_parquet_view`` does on DuckDB."""
    from pyspark.sql import functions as F

    for name, path in tables.items():
        p = str(path)
        if not Path(p).exists() and "://" not in p:
            raise ValueError(f"table {name!r}: file not found: {p}")
        is_csv = p.endswith(".csv") or p.endswith(".csv.gz")
        df = spark.read.csv(p, header=True, inferSchema=False) if is_csv else spark.read.parquet(p)
        types = (catalog.columns.get(name.lower()) if catalog is not None else None) or {}
        if types:  # the file's columns (its header) must be the declared ones, as DuckDB's loaders require
            check_columns(list(df.columns), types, f"table {name!r} ({p})", against="the schema")
        df = df.select(*[F.col(c).cast("string").cast(_spark_type(types.get(c.lower(), "VARCHAR"))).alias(c)
                         for c in df.columns])
        df.createOrReplaceTempView(name)


def _spark_type(duck: str) -> str:
    t = duck.upper()
    for k, v in (("BIGINT", "bigint"), ("HUGEINT", "decimal(38,0)"), ("INT", "int"), ("DOUBLE", "double"),
                 ("FLOAT", "float"), ("REAL", "float"), ("DECIMAL", t.lower()), ("DATE", "date"),
                 ("TIMESTAMP", "timestamp"), ("BOOL", "boolean")):
        if t.startswith(k):
            return v
    return "string"


def tpch_views(spark, sf: float) -> None:
    """The TPC-H tables at scale factor ``sf`` (the same Parquet files ``tpch.connect`` reads) as Spark views."""
    from .tpch import TABLES, catalog, ensure_tpch

    d = ensure_tpch(sf)
    register_tables(spark, {t: d / f"{t}.parquet" for t in TABLES}, catalog())  # typed by the declared TPC-H schema


def _one_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else type(exc).__name__


def extract_spark(spark, sql: str, private, *, project: str | None = None, n_primary: dict | int | None = None,
                  name: str = "", out_dir: str | Path | None = None, catalog=None) -> Extraction:
    """:func:`~dpworkbench.r2t.sql.extract` on Spark: run the reporting query of ``sql`` on the session's views,
    write its rows as Parquet under ``out_dir`` (a temporary folder when not given) and build the JoinInfo from it.
    Errors (unknown table/column, a non-numeric SUM expression) are one-line ``ValueError``s; NULL or negative SUM
    weights become 0 (the DuckDB path's public rule)."""

    plan = complete(sql, private, project=project, catalog=catalog)  # the same completion as the DuckDB path
    if plan.parsed.group_by:
        raise ValueError("GROUP BY runs on --engine memory only")
    rq, kind = plan.reporting_sql(guard=False), plan.kind
    t0 = time.perf_counter()
    # ANSI mode off for this query: an overflow or a failed cast in one row is NULL (or wraps) in that row instead of
    # failing the job, the DuckDB path's TRY() rule (a refusal that depends on one row would tell neighbours apart)
    with _ansi_off(spark):
        return _extract_spark(spark, plan, rq, kind, t0, out_dir, n_primary, name)


@contextlib.contextmanager
def _ansi_off(spark):
    ansi = spark.conf.get("spark.sql.ansi.enabled", None)
    spark.conf.set("spark.sql.ansi.enabled", "false")
    try:
        yield
    finally:
        if ansi is None:
            spark.conf.unset("spark.sql.ansi.enabled")
        else:
            spark.conf.set("spark.sql.ansi.enabled", ansi)


def _extract_spark(spark, plan, rq, kind, t0, out_dir, n_primary, name) -> Extraction:
    import pyarrow.parquet as pq

    try:
        sdf = spark.sql(rq)
        psi_type = type(sdf.schema["__psi"].dataType).__name__
    except Exception as exc:  # AnalysisException / ParseException: unknown table, column, syntax
        raise ValueError(f"query failed in Spark: {_one_line(exc)}") from None
    if not any(psi_type.startswith(t) for t in _NUMERIC):  # decided by the schema (the query's types), not the rows
        raise ValueError(f"SUM weights must be numeric; the SUM expression has type {psi_type.replace('Type', '').upper()} "
                         "(declare the column's type, e.g. CAST(x AS DOUBLE), so it does not depend on the rows)")
    from pyspark.sql import functions as F

    sdf = sdf.withColumn("__psi", F.col("__psi").cast("double"))
    tmp = None
    if out_dir is None:
        tmp = tempfile.mkdtemp(prefix="dpwb-spark-joininfo-")
        out_dir = tmp
    path = Path(out_dir) / "joininfo.parquet"
    try:
        try:
            sdf.write.mode("overwrite").parquet(str(path))
        except Exception as exc:
            raise ValueError(f"query failed in Spark: {_one_line(exc)}") from None
        seconds = time.perf_counter() - t0
        table = pq.read_table(path)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    psi = table.column("__psi").to_numpy(zero_copy_only=False).astype(float) if table.num_rows else np.zeros(0)
    # as the DuckDB path: a refusal that depends on one row's value would tell neighbours apart, so the weights are
    # mapped into R2T's domain by a public rule applied to every row (NULL → 0, negative → 0)
    psi = np.where(np.isfinite(psi), np.maximum(psi, 0.0), 0.0) if psi.size else psi
    keys = [table.column(f"__k{c}").to_numpy(zero_copy_only=False) for c in range(len(plan.keys))]
    proj = table.column("__p").to_numpy(zero_copy_only=False) if "__p" in table.column_names else None
    # as the DuckDB path: a result whose private key is NULL references no individual and is dropped (row-local)
    import pandas as pd

    ok = np.ones(psi.size, dtype=bool)
    for k in keys:
        ok &= ~np.asarray(pd.isnull(k), dtype=bool)
    # as the DuckDB path: sorted by content, so the join information (and what a seeded run draws from it) does not
    # depend on the order Spark's partitions wrote the rows in (one order on local[2], not promised on a cluster)
    order = canonical_order([*keys, psi, *([proj] if proj is not None else [])])
    ok = ok[order]
    psi, keys = psi[order][ok], [k[order][ok] for k in keys]
    proj = None if proj is None else proj[order][ok]
    n_tot = n_primary if isinstance(n_primary, int) else (int(sum(n_primary.values())) if isinstance(n_primary, dict) else None)
    info = from_arrays(psi, keys, tags=[t for _, t in plan.keys], proj=proj, n_primary=n_tot, name=name)
    return Extraction(info, rq, seconds, kind, plan.completed_sql)


def extract_query_spark(spark, name: str, *, out_dir: str | Path | None = None) -> Extraction:
    """A Table 5 TPC-H query on the session's TPC-H views (see :func:`tpch_views`)."""
    from .tpch import QUERIES

    if name not in QUERIES:
        raise ValueError(f"unknown TPC-H query {name!r}; choose from {list(QUERIES)}")
    q = QUERIES[name]
    n_primary = sum(int(spark.sql(f"select count(*) AS c from {rel}").collect()[0]["c"]) for _, _, rel in q.private)
    return extract_spark(spark, q.sql, list(q.private), project=q.project, n_primary=n_primary, name=name, out_dir=out_dir)


def canonical_rows(info: JoinInfo) -> list[tuple]:
    """The join results as a sorted list of (ψ, sorted tuple labels[, projection key]): equal for two JoinInfos of
    the same query result whatever order the rows came in."""
    labels = info.labels.tolist() if isinstance(info.labels, np.ndarray) else (
        list(info.labels) if info.labels is not None else list(range(info.n)))
    proj = None if info.proj is None else np.asarray(info.proj).tolist()
    rows = []
    for j in range(info.m):
        lab = tuple(sorted((labels[i] for i in info.ids[info.ptr[j]:info.ptr[j + 1]].tolist()), key=repr))
        rows.append((float(info.psi[j]), lab) + ((proj[j],) if proj is not None else ()))
    rows.sort(key=repr)
    return rows


def same_joininfo(a: JoinInfo, b: JoinInfo) -> bool:
    """Same sizes, same tuple labels and the same multiset of join results (order-free)."""
    if (a.m, a.n, a.n_primary) != (b.m, b.n, b.n_primary):
        return False
    la = a.labels.tolist() if a.labels is not None else None
    lb = b.labels.tolist() if b.labels is not None else None
    return la == lb and canonical_rows(a) == canonical_rows(b)


def in_row_order(info: JoinInfo, order: Sequence[int]) -> JoinInfo:
    """The same JoinInfo with its join results permuted (``order``): both engines' results put in one order."""
    order = np.asarray(order, dtype=np.int64)
    sizes = np.diff(info.ptr)[order]
    ptr = np.concatenate([[0], np.cumsum(sizes)]).astype(info.ptr.dtype)
    ids = np.concatenate([info.ids[info.ptr[j]:info.ptr[j + 1]] for j in order]) if order.size else info.ids[:0]
    import dataclasses

    return dataclasses.replace(info, psi=info.psi[order], ptr=ptr, ids=ids.astype(info.ids.dtype),
                               proj=None if info.proj is None else info.proj[order])


def sorted_rows(info: JoinInfo) -> JoinInfo:
    """Join results sorted by (ids, ψ, projection key): a canonical row order, so the truncation LPs (and hence the
    released values) see both engines' join information identically."""
    keys = [info.psi]
    if info.proj is not None:
        keys.append(np.asarray(info.proj))
    width = int(np.diff(info.ptr).max()) if info.m else 0
    for c in reversed(range(width)):
        col = np.full(info.m, -1, np.int64)
        has = np.diff(info.ptr) > c
        col[has] = info.ids[info.ptr[:-1][has] + c]
        keys.append(col)
    order = np.lexsort(tuple(keys)) if info.m else np.zeros(0, np.int64)
    return in_row_order(info, order)


__all__ = ["canonical_rows", "extract_query_spark", "extract_spark", "in_row_order", "register_tables", "same_joininfo",
           "sorted_rows", "tpch_views"]
