"""Conflict graphs on Apache Spark (issue 14): the same graph as the in-memory engines, built as Spark SQL self-joins.

Per DC, one self-join blocked on the DC's same-attribute ``=`` predicates, over the table collapsed to its distinct
combinations of the DC's attributes (see :func:`dc_pairs_sql`: Spark hash-partitions the combinations on the ``=``
attributes; order comparisons, ``!=`` and constants are the join's residual filter; violating combination pairs
expand to their member tuples). A DC equal to its own mirror (every FD, every symmetric DC) keeps each unordered
pair once. Each DC's pairs are kept as ``(least, greatest)``;
the union over DCs is deduplicated and written as Parquet partitioned by node range (``blk = u div block``), so
a driver streams it back in (u, v) order one range at a time. The non-private statistics — edge count,
non-isolated nodes, degrees, maximum degree and the FD degree bounds (Thm 3: largest block minus one) — are Spark
aggregations that never bring the edges to the driver.

:func:`build_spark` returns the :class:`~dpworkbench.inconsistency.conflict_graph.ConflictGraph` the in-memory
``build`` returns for the same table (same ``u``/``v`` in lexicographic order, ``per_dc`` keys, unary violators,
tuple identity), so every release on top of it (Projector, Algorithms 2–5) is unchanged and a seeded release gives
the same output on both engines. :func:`spark_statistics` is the out-of-core path: exact I_MI and I_P, degrees
and degree bounds for a table that only Spark holds (a CSV/Parquet path or a Spark DataFrame).

Semantics match the DuckDB engine: NULLs never satisfy a comparison (``null_policy="sql"``: a tuple with NULL in
an attribute of the DC takes part in no violation of it; ``"artifact"``: a tuple with any NULL takes part in none);
NaN counts as NULL (pandas' missing value); strings compare by code point (Spark compares UTF-8 bytes).
"""

from __future__ import annotations

import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd
from numba import njit

from .conflict_graph import ConflictGraph, column_kinds, edges_per_dc, tuple_identity
from .constraints import DC, unique_dcs, validate_dc
from .model import ProjectionCounts

RID = "__rid"
DEFAULT_BLOCK_NODES = 1 << 20  # node ids per Parquet partition of the edge table


@dataclass
class SparkGraphStats:
    """Non-private statistics of a conflict graph computed in Spark (NOT PRIVATE: exact values)."""

    n: int
    edges: int
    non_isolated: int
    max_degree: int
    unary_violators: int
    fd_degree_bounds: list[int] = field(default_factory=list)
    edges_path: str | None = None
    degrees: np.ndarray | None = None
    seconds: float = 0.0

    @property
    def i_mi(self) -> int:
        return self.unary_violators + self.edges

    @property
    def i_p(self) -> int:
        return self.unary_violators + self.non_isolated


# --------------------------------------------------------------------------------------------------
# SQL of one DC
# --------------------------------------------------------------------------------------------------
def _q(name: str) -> str:
    return "`" + str(name).replace("`", "``") + "`"


def _operand(o, side: dict[int, str]) -> str:
    if o.is_const:
        if isinstance(o.const, str):
            return "'" + o.const.replace("\\", "\\\\").replace("'", "\\'") + "'"
        return repr(float(o.const)) if isinstance(o.const, float) else str(int(o.const))
    return f"{side[o.tuple]}.{_q(o.attr)}"


def _present(alias: str, col: str, kind: str) -> str:
    """Not NULL (and not NaN for numbers: pandas' missing value may arrive as NaN)."""
    c = f"{alias}.{_q(col)}"
    return f"({c} IS NOT NULL AND NOT isnan({c}))" if kind == "number" else f"{c} IS NOT NULL"


def _null_cols(dc: DC, columns: Sequence[str], null_policy: str) -> list[str]:
    if null_policy == "sql":
        return list(dc.attributes)
    if null_policy == "artifact":
        return [c for c in columns if c != RID]
    raise ValueError(f"null_policy must be 'sql' or 'artifact', got {null_policy!r}")


def dc_pairs_sql(dc: DC, table: str, kinds: dict[str, str], null_policy: str = "sql") -> str:
    """Spark SQL giving each violating pair of ``dc`` once as ``(u, v)`` with u < v (row ids ``__rid``).

    The in-memory engine's combination partitioning, in SQL: rows collapse to their distinct combinations of the
    DC's attributes (``GROUP BY``, members kept as a list of row ids); combinations join on the ``=`` attributes
    (hash-partitioned blocks) with the other predicates as the join's residual filter (order predicates compare
    within a block); each violating pair of combinations expands to its member pairs. The join costs
    Σ_blocks c_b² combinations, not rows², and the expansion costs the output."""
    eq = [p.left.attr for p in dc.predicates if p.is_same_attr_pair and p.op == "="]
    rest = [p for p in dc.predicates if not (p.is_same_attr_pair and p.op == "=")]
    cols: list[str] = []
    for a in eq + [a for p in rest for a in p.attributes]:
        if a not in cols:
            cols.append(a)
    alias = {a: f"a{i}" for i, a in enumerate(cols)}
    present = [_present("t", c, kinds[c]) for c in _null_cols(dc, list(kinds), null_policy)]
    combos = (f"SELECT {', '.join(f't.{_q(a)} AS {alias[a]}' for a in cols)}, collect_list(t.{RID}) AS m "
              f"FROM {table} t WHERE {' AND '.join(present) or 'TRUE'} GROUP BY {', '.join(f't.{_q(a)}' for a in cols)}")

    def side(o) -> str:
        if o.is_const:
            return _operand(o, {})
        return f"c{o.tuple}.{alias[o.attr]}"

    on = [f"c1.{alias[a]} = c2.{alias[a]}" for a in eq]
    on += [f"{side(p.left)} {'<>' if p.op == '!=' else p.op} {side(p.right)}" for p in rest]
    joined = (f"SELECT c1.m AS m1, c2.m AS m2 FROM ({combos}) c1 JOIN ({combos}) c2 ON {' AND '.join(on) or 'TRUE'}")
    expand = f"({joined}) j LATERAL VIEW explode(j.m1) e1 AS a LATERAL VIEW explode(j.m2) e2 AS b"
    if dc.key() == dc.mirror_key():  # symmetric: each unordered pair appears as (a, b) and (b, a); keep one
        return f"SELECT a AS u, b AS v FROM {expand} WHERE a < b"
    return f"SELECT DISTINCT LEAST(a, b) AS u, GREATEST(a, b) AS v FROM {expand} WHERE a <> b"


def unary_sql(dc: DC, table: str, kinds: dict[str, str], null_policy: str = "sql") -> str:
    side = {1: "t", 2: "t"}
    where = [f"{_operand(p.left, side)} {'<>' if p.op == '!=' else p.op} {_operand(p.right, side)}" for p in dc.predicates]
    where += [_present("t", c, kinds[c]) for c in _null_cols(dc, list(kinds), null_policy)]
    return f"SELECT {RID} AS u FROM {table} t WHERE " + " AND ".join(where)


def fd_bound_sql(dc: DC, table: str, kinds: dict[str, str]) -> str:
    """Largest number of rows sharing one (non-NULL) value of the DC's left-hand side X."""
    lhs = list(dc.lhs)
    present = " AND ".join(_present("t", c, kinds[c]) for c in lhs)
    keys = ", ".join(f"t.{_q(c)}" for c in lhs)
    return (f"SELECT COALESCE(MAX(c), 1) AS m FROM (SELECT COUNT(*) AS c FROM {table} t WHERE {present} "
            f"GROUP BY {keys})")


# --------------------------------------------------------------------------------------------------
# inputs
# --------------------------------------------------------------------------------------------------
def _spark_kinds(sdf) -> dict[str, str]:
    from pyspark.sql.types import BooleanType, NumericType

    return {f.name: ("number" if isinstance(f.dataType, NumericType) and not isinstance(f.dataType, BooleanType)
                     else "string") for f in sdf.schema.fields}


def _frame_to_spark(spark, df: pd.DataFrame):
    """A pandas table as a Spark frame with ``__rid``, typed by its dtypes (the public schema), never by its values:
    nullable ``Int64`` → bigint, floats → double, everything else → string. (Letting Spark infer the type of an
    object column would read the rows, and fails on a column whose cells are all NULL.)"""
    from ..spark import to_spark

    frame = df.reset_index(drop=True)
    kinds = {}
    for c in frame.columns:
        s = frame[c]
        if pd.api.types.is_bool_dtype(s):
            kinds[c] = "boolean"
        elif pd.api.types.is_integer_dtype(s):
            kinds[c] = "bigint"
            if isinstance(s.dtype, pd.api.extensions.ExtensionDtype):  # nullable Int64: NULL as None
                frame[c] = s.astype(object).where(s.notna(), None)
        elif pd.api.types.is_float_dtype(s):
            kinds[c] = "double"
        else:
            kinds[c] = "string"
            frame[c] = s.astype(object).where(s.notna(), None).map(lambda v: v if v is None or isinstance(v, str) else str(v))
    if not len(frame):
        return to_spark(spark, frame, row_id=RID)
    frame[RID] = np.arange(len(frame), dtype=np.int64)
    ddl = ", ".join(f"`{c}` {kinds[c]}" for c in df.columns) + f", `{RID}` bigint"
    return spark.createDataFrame(frame, schema=ddl)


def _with_row_ids(sdf):
    """Row positions 0..n-1 in the frame's order, computed in the JVM (no Python rows): a row's id is the number of
    rows in earlier partitions plus its place in its own partition (``monotonically_increasing_id`` holds the
    partition in its top bits). The frame is cached first so its partitioning is the same in both passes."""
    if RID in sdf.columns:
        return sdf
    from pyspark.sql import functions as F

    tagged = sdf.withColumn("__mid", F.monotonically_increasing_id()).withColumn("__pid", F.spark_partition_id()).cache()
    counts = {r["__pid"]: r["c"] for r in tagged.groupBy("__pid").agg(F.count(F.lit(1)).alias("c")).collect()}
    offsets, run = {}, 0
    for pid in sorted(counts):
        offsets[pid] = run
        run += counts[pid]
    off = F.create_map(*[x for pid, o in offsets.items() for x in (F.lit(pid), F.lit(o))]) if offsets else None
    if off is None:
        return tagged.drop("__mid", "__pid").withColumn(RID, F.lit(0).cast("long"))
    rid = off[F.col("__pid")] + (F.col("__mid") - F.shiftleft(F.col("__pid").cast("long"), 33))
    return tagged.withColumn(RID, rid.cast("long")).drop("__mid", "__pid")


def _raw_rows(lines: Sequence[str], k: int) -> list[list[str | None]]:
    """The data lines of a CSV as raw cells, by the rule of
    :func:`~dpworkbench.datasets.public_schema.read_raw_lines` (one physical line = one row; a trailing ``\\r`` is
    dropped; a blank line or a line whose field count differs from the header's is a row of NULLs; a quote is
    parsed within its line). Each line's row depends on that line alone."""
    import csv

    empty: list[str | None] = [None] * k
    out = []
    for ln in lines:
        ln = "" if ln is None else (ln[:-1] if ln.endswith("\r") else ln)
        f = (ln.split(",") if '"' not in ln else next(csv.reader([ln]))) if ln else empty
        out.append(f if len(f) == k else empty)
    return out


def _spark_type(spec) -> str:
    return {"text": "string", "int": "bigint", "float": "double"}[spec.type]


def read_table(spark, path: str | Path, *, header: bool = True, schema: Any = None, dcs: Sequence[DC] = ()):
    """A user's table as a Spark DataFrame with a ``__rid`` column (row positions 0..n-1).

    Parquet (a file or folder): every value typed cell by cell under ``schema`` (as :meth:`PublicSchema.apply` types a
    pandas frame; default: the header-only rule, every column text), never by the file's own column types. CSV (``.gz`` read directly): never
    ``inferSchema`` (issue 21, finding 1: one row with text in a numeric column re-typed the column for every row).
    The first line is the header (public); every other physical line is read as one string and typed cell by cell
    under the public ``schema`` (a :class:`~dpworkbench.datasets.public_schema.PublicSchema`, its ``--schema``
    text or a mapping; default: the header-only rule, every column text), by the very function the in-memory reader
    uses (:meth:`PublicSchema.apply`, per Arrow batch: the rule is per cell, so batches do not matter). The result
    equals :func:`~dpworkbench.datasets.public_schema.read_csv_public` row for row. ``dcs`` are checked against the
    schema first (public inputs only, before any row is read)."""
    from .loaders import check_constraints, read_header, resolve_schema

    p = str(path)
    if not Path(p).exists() and "://" not in p:
        raise ValueError(f"table not found: {p}")
    if p.endswith(".parquet") or (Path(p).is_dir() and any(Path(p).glob("*.parquet"))):
        sdf = _with_row_ids(spark.read.parquet(p))
        # no schema: the header-only rule, every column text, as for a CSV. The file's own column types are not a
        # public argument (a writer types a column by its values: one text cell makes a numeric column text)
        sch = resolve_schema([c for c in sdf.columns if c != RID], schema, what=f"Parquet {p}")
        if dcs:
            check_constraints(list(dcs), sch, flag="schema=")

        def typed_parquet(batches):
            for b in batches:
                frame, _ = sch.apply(b[sch.names].astype(object))
                frame[RID] = b[RID].to_numpy(dtype="int64")
                yield frame

        out = ", ".join(f"`{c.name}` {_spark_type(c)}" for c in sch.columns) + f", `{RID}` bigint"
        return sdf.mapInPandas(typed_parquet, schema=out)
    if not header:
        raise ValueError("a CSV needs a header line naming its columns (header=True)")
    if "://" in p:  # not readable from here: the first line through Spark (the header only)
        first = spark.read.text(p, lineSep="\n").first()
        names = next(__import__("csv").reader([(first[0] if first else "").lstrip("\ufeff").rstrip("\r")]))
        names = [h.strip() for h in names]
    else:
        names = read_header(p, "CSV")
    sch = resolve_schema(names, schema, what=f"CSV {p}")
    if dcs:
        check_constraints(list(dcs), sch, flag="schema=")
    k = len(names)
    lines = _with_row_ids(spark.read.text(p, lineSep="\n"))
    body = lines.where(f"{RID} > 0").selectExpr("value", f"{RID} - 1 AS {RID}")
    order = [names.index(c) for c in sch.names]

    def typed(batches):
        for b in batches:
            raw = pd.DataFrame(_raw_rows(b["value"].tolist(), k), columns=names, dtype=object)
            if not len(raw):
                raw = pd.DataFrame(columns=names, dtype=object)
            frame, _ = sch.apply(raw.iloc[:, order])
            frame[RID] = b[RID].to_numpy(dtype="int64")
            yield frame

    out_schema = ", ".join(f"`{c.name}` {_spark_type(c)}" for c in sch.columns) + f", `{RID}` bigint"
    return body.mapInPandas(typed, schema=out_schema)


# --------------------------------------------------------------------------------------------------
# the engine
# --------------------------------------------------------------------------------------------------
def _edge_frames(spark, sdf, dcs: Sequence[DC], null_policy: str, unary_policy: str):
    """(kept DCs, representative index per input DC, unary DCs, per-kept-DC Spark frames, kinds)."""
    dcs = list(dcs)
    if not dcs:
        raise ValueError("dcs is empty: give at least one denial constraint")
    if unary_policy not in ("reject", "separate"):
        raise ValueError(f"unary_policy must be 'reject' or 'separate', got {unary_policy!r}")
    kinds = {k: v for k, v in _spark_kinds(sdf).items() if k != RID}
    unary_dcs = [d for d in dcs if d.is_unary]
    if unary_dcs and unary_policy == "reject":
        d = unary_dcs[0]
        raise ValueError(f"{d.where()}{d.text or d} is a single-tuple (unary) constraint; pass unary_policy='separate' "
                         "to count its violators separately (spec §1.3)")
    pair_dcs = [d for d in dcs if not d.is_unary]
    kept, rep = unique_dcs(pair_dcs)
    for d in kept + unary_dcs:
        validate_dc(d, list(kinds), kinds)
    view = f"dpwb_t{abs(hash((id(sdf), time.time_ns()))) % 10**9}"
    sdf.createOrReplaceTempView(view)
    frames = [spark.sql(dc_pairs_sql(d, view, kinds, null_policy)) for d in kept]
    unary = [spark.sql(unary_sql(d, view, kinds, null_policy)) for d in unary_dcs]
    return kept, rep, unary_dcs, frames, unary, kinds, view


def _union_edges(frames, unary_frames):
    from functools import reduce

    if frames:
        edges = reduce(lambda a, b: a.unionByName(b), frames).distinct()
    else:
        edges = None
    bad = reduce(lambda a, b: a.unionByName(b), unary_frames).distinct() if unary_frames else None
    if edges is not None and bad is not None:  # remove edges touching a unary violator (spec §1.3)
        bx, by = bad.withColumnRenamed("u", "x"), bad.withColumnRenamed("u", "y")
        edges = edges.join(bx, edges["u"] == bx["x"], "left_anti")
        edges = edges.join(by, edges["v"] == by["y"], "left_anti")
    return edges, bad


def _write_edges(edges, path: str, block_nodes: int) -> None:
    from pyspark.sql import functions as F

    (edges.withColumn("blk", F.floor(F.col("u") / F.lit(block_nodes)).cast("int"))
     .repartition("blk").sortWithinPartitions("u", "v")
     .write.mode("overwrite").partitionBy("blk").parquet(path))


def read_edges(path: str | Path, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Stream an edge table written by this module back as (u, v) int32 in lexicographic order, one node-range
    partition at a time (each partition sorted on its own: ranges are disjoint and in order)."""
    import pyarrow.parquet as pq

    root = Path(path)
    parts = sorted(((int(p.name.split("=", 1)[1]), p) for p in root.glob("blk=*")), key=lambda t: t[0])
    us, vs = [], []
    for _, p in parts:
        t = pq.read_table(p, columns=["u", "v"])
        key = t.column("u").to_numpy().astype(np.int64) * np.int64(max(n, 1)) + t.column("v").to_numpy().astype(np.int64)
        key.sort(kind="quicksort")
        us.append((key // max(n, 1)).astype(np.int32))
        vs.append((key % max(n, 1)).astype(np.int32))
    if not us:
        return np.zeros(0, np.int32), np.zeros(0, np.int32)
    return np.concatenate(us), np.concatenate(vs)


def _stats(spark, edges_path: str | None, n: int, unary_count: int, fd_bounds: list[int], want_degrees: bool,
           t0: float) -> SparkGraphStats:
    from pyspark.sql import functions as F

    if edges_path is None:
        return SparkGraphStats(n, 0, 0, 0, unary_count, fd_bounds, None,
                               np.zeros(n, np.int64) if want_degrees else None, time.perf_counter() - t0)
    e = spark.read.parquet(edges_path)
    ends = e.select(F.col("u").alias("x")).unionAll(e.select(F.col("v").alias("x")))
    deg = ends.groupBy("x").agg(F.count(F.lit(1)).alias("d")).cache()
    row = deg.agg(F.count(F.lit(1)).alias("nodes"), F.coalesce(F.max("d"), F.lit(0)).alias("dmax"),
                  F.coalesce(F.sum("d"), F.lit(0)).alias("ends")).collect()[0]
    degrees = None
    if want_degrees:
        pdf = deg.toPandas()
        degrees = np.zeros(n, np.int64)
        degrees[pdf["x"].to_numpy(np.int64)] = pdf["d"].to_numpy(np.int64)
    deg.unpersist()
    return SparkGraphStats(n, int(row["ends"]) // 2, int(row["nodes"]), int(row["dmax"]), unary_count, fd_bounds,
                           edges_path, degrees, time.perf_counter() - t0)


def spark_statistics(source: Any, dcs: Sequence[DC], *, spark=None, schema: Any = None, null_policy: str = "sql",
                     unary_policy: str = "reject", edges_dir: str | Path | None = None,
                     block_nodes: int = DEFAULT_BLOCK_NODES, want_degrees: bool = False,
                     master: str | None = None, remote: str | None = None, memory: str | None = None) -> SparkGraphStats:
    """Exact (NOT PRIVATE) statistics of the conflict graph of ``source`` computed in Spark, out of core.

    ``source``: a pandas DataFrame, a Spark DataFrame or a CSV/Parquet path. The edges are written under
    ``edges_dir`` (Parquet, partitioned by node range; a temporary folder removed afterwards when not given).
    ``want_degrees`` also collects the degree of every node (n int64 values) to the driver.

    ``schema``: the table's public column types (see :func:`read_table`). A CSV path is never type-inferred: without
    ``schema`` every column is text (the header-only rule), so a DC that orders a column is refused up front. A
    pandas frame is typed cell by cell under ``schema`` when given (else its dtypes are the caller's declaration)."""
    from ..spark import session_or

    t0 = time.perf_counter()
    spark = session_or(spark, master=master, remote=remote, memory=memory)
    if isinstance(source, pd.DataFrame):
        from .loaders import check_constraints, type_frame

        source, declared, _ = type_frame(source, schema)
        if declared is not None:
            check_constraints(list(dcs), declared, flag="schema=")
        sdf = _frame_to_spark(spark, source)
    elif isinstance(source, (str, Path)):
        sdf = read_table(spark, source, schema=schema, dcs=dcs)
    else:
        sdf = _with_row_ids(source)
    sdf = sdf.cache()
    n = sdf.count()
    kept, rep, unary_dcs, frames, unary_frames, kinds, view = _edge_frames(spark, sdf, dcs, null_policy, unary_policy)
    edges, bad = _union_edges(frames, unary_frames)
    unary_count = int(bad.count()) if bad is not None else 0
    tmp = None
    try:
        if edges_dir is None:
            tmp = tempfile.mkdtemp(prefix="dpwb-spark-edges-")
            edges_dir = tmp
        path = None
        if edges is not None:
            path = str(Path(edges_dir) / "edges.parquet")
            _write_edges(edges, path, block_nodes)
        has_files = path is not None and any(Path(path).glob("blk=*"))
        stats = _stats(spark, path if has_files else None, n, unary_count, _fd_bounds_one_job(spark, view, kept, kinds),
                       want_degrees, t0)
        # the edge table even when it holds no edge (a table without conflicts): release_from_parquet reads it as an
        # empty stream. None there refused the release of exactly those tables, a refusal that depended on the data
        stats.edges_path = path
        if tmp is not None:
            stats.edges_path = None
        return stats
    finally:
        spark.catalog.dropTempView(view)
        sdf.unpersist()
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


def _collect_pairs(sdf, cols: Sequence[str]) -> dict[str, np.ndarray]:
    """Columns of a Spark result as numpy arrays, through Arrow (one job, no Python row objects)."""
    t = sdf.toArrow()
    return {c: t.column(c).to_numpy().astype(np.int64) for c in cols}


def _degree_stats(spark, edges, n: int, unary_count: int, fd_bounds: list[int], t0: float) -> SparkGraphStats:
    """Degrees as a Spark aggregation of the edge frame (one job; n small rows come back)."""
    from pyspark.sql import functions as F

    if edges is None:
        return SparkGraphStats(n, 0, 0, 0, unary_count, fd_bounds, None, np.zeros(n, np.int64), time.perf_counter() - t0)
    ends = edges.select(F.col("u").alias("x")).unionAll(edges.select(F.col("v").alias("x")))
    got = _collect_pairs(ends.groupBy("x").agg(F.count(F.lit(1)).alias("d")), ("x", "d"))
    degrees = np.zeros(n, np.int64)
    degrees[got["x"]] = got["d"]
    return SparkGraphStats(n, int(got["d"].sum()) // 2, int(got["x"].size), int(got["d"].max()) if got["d"].size else 0,
                           unary_count, fd_bounds, None, degrees, time.perf_counter() - t0)


def _fd_bounds_one_job(spark, view: str, dcs: Sequence[DC], kinds) -> list[int]:
    fds = [d for d in dcs if d.is_fd_like]
    if not fds:
        return []
    sql = " UNION ALL ".join(f"SELECT {i} AS i, m FROM ({fd_bound_sql(d, view, kinds)})" for i, d in enumerate(fds))
    rows = sorted((r["i"], r["m"]) for r in spark.sql(sql).collect())
    return [int(m) - 1 for _, m in rows]


def build_spark(df: pd.DataFrame, dcs: Sequence[DC], *, spark=None, null_policy: str = "sql",
                unary_policy: str = "reject", keep_per_dc: bool = True, id_column: str | None = None,
                edges_dir: str | Path | None = None, block_nodes: int = DEFAULT_BLOCK_NODES,
                master: str | None = None, remote: str | None = None, memory: str | None = None,
                return_stats: bool = False):
    """The conflict graph of ``df`` under ``dcs`` built in Spark: the same ``ConflictGraph`` as
    ``conflict_graph.build`` (any in-memory engine), with ``engine="spark"``. See the module docstring.

    The violating pairs of every DC are Spark joins; one job brings them (tagged by DC) to the driver through
    Arrow, where each DC's keys and their union are sorted (the graph's arrays live on the driver anyway: the
    releases run there). ``edges_dir``: also write the union as Parquet partitioned by node range (see
    :func:`read_edges`). Tuple identity (the stable order's input) is computed from ``df`` on the driver exactly as
    the in-memory engines do. ``return_stats=True`` also returns the :class:`SparkGraphStats` computed as Spark
    aggregations (degrees, edge count, non-isolated nodes, FD degree bounds), independently of the collected edges."""
    from ..spark import session_or
    from .conflict_graph import sorted_unique

    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"df must be a pandas DataFrame, got {type(df).__name__}")
    t0 = time.perf_counter()
    df = df.reset_index(drop=True)
    for d in dcs:  # the same messages as the in-memory engines (unknown attribute, incompatible types)
        validate_dc(d, list(df.columns), column_kinds(df))
    identity = tuple_identity(df, id_column)
    n = len(df)
    spark = session_or(spark, master=master, remote=remote, memory=memory)
    sdf = _frame_to_spark(spark, df)
    kept, rep, unary_dcs, frames, unary_frames, kinds, view = _edge_frames(spark, sdf, dcs, null_policy, unary_policy)
    try:
        from functools import reduce
        from pyspark.sql import functions as F

        unary = np.zeros(0, np.int64)
        if unary_frames:
            bad = reduce(lambda a, b: a.unionByName(b), unary_frames)
            unary = np.unique(_collect_pairs(bad, ("u",))["u"])
        per_kept: list[np.ndarray] = [np.zeros(0, np.int64) for _ in frames]
        allk = np.zeros(0, np.int64)
        if frames:
            if keep_per_dc:
                tagged = reduce(lambda a, b: a.unionByName(b), [f.withColumn("dc", F.lit(i)) for i, f in enumerate(frames)])
                got = _collect_pairs(tagged, ("dc", "u", "v"))
                keys = got["u"] * np.int64(n) + got["v"]
                order = np.lexsort((keys, got["dc"]))
                keys, tag = keys[order], got["dc"][order]
                cuts = np.searchsorted(tag, np.arange(len(frames) + 1))
                per_kept = [keys[cuts[i]:cuts[i + 1]] for i in range(len(frames))]
                allk = sorted_unique(keys) if len(frames) > 1 else per_kept[0]
            else:
                edges_only = reduce(lambda a, b: a.unionByName(b), frames).distinct()
                got = _collect_pairs(edges_only, ("u", "v"))
                allk = np.sort(got["u"] * np.int64(n) + got["v"])
        if unary.size and allk.size:
            a, b = allk // n, allk % n
            allk = allk[~(np.isin(a, unary) | np.isin(b, unary))]
        if n:
            u, v = (allk // n).astype(np.int32), (allk % n).astype(np.int32)
        else:
            u, v = np.zeros(0, np.int32), np.zeros(0, np.int32)
        edges = None
        if frames and (edges_dir is not None or return_stats):
            edges, _ = _union_edges(frames, unary_frames)
        if edges_dir is not None and edges is not None:
            _write_edges(edges, str(Path(edges_dir) / "edges.parquet"), block_nodes)
        stats = None
        if return_stats:
            stats = _degree_stats(spark, edges, n, int(unary.size), _fd_bounds_one_job(spark, view, kept, kinds), t0)
            stats.edges_path = str(Path(edges_dir) / "edges.parquet") if edges_dir is not None else None
    finally:
        spark.catalog.dropTempView(view)
    per_dc = edges_per_dc(dcs, rep, per_kept, keep_per_dc)
    g = ConflictGraph(n, u, v, per_dc, list(dcs), unary, time.perf_counter() - t0, "spark", identity)
    return (g, stats) if return_stats else g


# --------------------------------------------------------------------------------------------------
# out-of-core projection and matching: edges sorted by the stable order in Spark, streamed through numba
# --------------------------------------------------------------------------------------------------
def order_places(n: int, identity=None, *, rule: str = "rank", seed: int = 0) -> np.ndarray:
    """pos[node] = the node's place in the stable order (int32, O(n) on the driver): for ``"rank"`` the place in
    :func:`~.model.node_sequence` (keyed hash of the identity), for ``"lex"`` the row position itself."""
    from .._validation import check_options
    from .conflict_graph import label_identity
    from .model import node_sequence

    check_options(rule, "rule", ("rank", "lex"))
    if rule == "lex":
        return np.arange(max(int(n), 1), dtype=np.int32)
    if identity is not None and len(identity) != int(n):
        raise ValueError(f"identity has {len(identity)} nodes, the graph {int(n)}")
    # an empty table (n = 0, identity empty) has no node to order: one unused place, as the stream sizes its degrees
    # max(n, 1). Comparing the identity with that place refused the empty table, a neighbour of any one-row table
    if int(n) == 0:
        return np.zeros(1, dtype=np.int32)
    n = int(n)
    if identity is None:
        identity = label_identity(n)
    inv = node_sequence(identity, seed)
    pos = np.empty(n, np.int32)
    pos[inv] = np.arange(n, dtype=np.int32)
    return pos


def write_ordered_edges(spark, edges_path: str | Path, out_path: str | Path, pos: np.ndarray, *,
                        rule: str = "rank") -> str:
    """Sort the edge table at ``edges_path`` (columns u < v) by the stable-order key in Spark and write it as
    Parquet in that order (columns ``a``, ``b``: files ``part-*`` and their row groups follow the key).

    The key is the one :class:`~.model.Projector` scans: ``"rank"`` — (later place, earlier place) with
    place = ``pos[node]``; ``"lex"`` — (u, v). Algorithm 1 and the greedy matching only compare nodes for
    equality, so the stream carries places, not node ids (the same graph up to relabelling)."""
    from pyspark.sql import functions as F

    from .._validation import check_options

    check_options(rule, "rule", ("rank", "lex"))
    # no edges: an empty stream. Files only: the folder spark_statistics writes for a table without conflicts is
    # itself named edges.parquet and holds no data file (matching it sent an empty folder to Spark's reader)
    if not any(p.is_file() for p in Path(edges_path).rglob("*.parquet")):
        Path(out_path).mkdir(parents=True, exist_ok=True)
        return str(out_path)
    e = spark.read.parquet(str(edges_path)).select("u", "v")
    lo, hi = e.agg(F.min("u"), F.max("v")).collect()[0]  # the join below would silently drop unknown nodes
    if lo < 0 or hi >= pos.size:
        raise ValueError(f"edge table {edges_path} has nodes {lo}..{hi}, outside 0..{pos.size - 1}: wrong n for it")
    if rule == "lex":
        keyed = e.select(F.col("u").cast("int").alias("a"), F.col("v").cast("int").alias("b"))
    else:
        pdf = pd.DataFrame({"x": np.arange(pos.size, dtype=np.int64), "p": pos.astype(np.int32)})
        places = F.broadcast(spark.createDataFrame(pdf)) if pos.size <= 2_000_000 else spark.createDataFrame(pdf)
        pu = places.select(F.col("x").alias("u"), F.col("p").alias("pu"))
        pv = places.select(F.col("x").alias("v"), F.col("p").alias("pv"))
        j = e.join(pu, "u").join(pv, "v")
        keyed = j.select(F.greatest("pu", "pv").alias("a"), F.least("pu", "pv").alias("b"))
    # orderBy range-partitions on the key: part i holds keys below part i+1's, each part sorted
    keyed.orderBy("a", "b").write.mode("overwrite").parquet(str(out_path))
    return str(out_path)


@njit(cache=True)
def _stream_batch(a, b, d, th, kept, last):
    """Algorithm 1 for every θ in ``th`` at once over one batch of edges in the stable order: d[j, x] is node x's
    degree in π_θj so far, kept[j] the kept edges. ``last[0]`` carries the previous key across batches; returns
    1 when the batch is out of order (the stream would not be the stable order), 2 when a node is outside
    0..n-1 (numba does not bounds-check: checked here), else 0."""
    k = th.size
    n = d.shape[1]
    for i in range(a.size):
        x, y = a[i], b[i]
        if x < 0 or y < 0 or x >= n or y >= n:
            return 2
        key = (np.int64(x) << 32) | np.int64(y)
        if key <= last[0]:
            return 1
        last[0] = key
        for j in range(k):
            t = th[j]
            if d[j, x] < t and d[j, y] < t:
                d[j, x] += 1
                d[j, y] += 1
                kept[j] += 1
    return 0


def stream_counts(ordered_path: str | Path, n: int, thetas, *, batch_rows: int = 1 << 20) -> dict:
    """One pass over an ordered edge table (:func:`write_ordered_edges`) in batches: F(θ) = (|E_θ|, |V_{>0}(G_θ)|)
    of the projection π_θ(G) for every θ in ``thetas`` (capped at n, as :class:`~.model.Projector` does). Memory:
    n × |thetas| int32 degrees plus one batch, never the edge table."""
    return _stream(ordered_path, n, thetas, batch_rows)[0]


def _stream(ordered_path, n, thetas, batch_rows):
    """(F(θ) per θ, d_max(G) when θ = n is among ``thetas`` else None): π_n(G) = G, so its degrees give d_max."""
    import pyarrow.parquet as pq

    n = max(int(n), 1)
    ths = sorted({min(max(int(t), 0), n) for t in thetas})
    th = np.asarray(ths, np.int64)
    d = np.zeros((th.size, n), np.int32)
    kept = np.zeros(th.size, np.int64)
    last = np.full(1, -1, np.int64)
    if not Path(ordered_path).is_dir():  # e.g. a projector kept after its path removed the stream: never F = 0
        raise ValueError(f"edge stream {ordered_path} not found")
    files = sorted(Path(ordered_path).glob("part-*.parquet"))
    for f in files:
        # the reader is held open for the whole iteration (a ParquetFile freed mid-iteration crashes the reader)
        with pq.ParquetFile(f) as reader:
            for batch in reader.iter_batches(batch_size=batch_rows, columns=["a", "b"]):
                a = np.ascontiguousarray(batch.column(0).to_numpy(zero_copy_only=False), dtype=np.int32)
                b = np.ascontiguousarray(batch.column(1).to_numpy(zero_copy_only=False), dtype=np.int32)
                bad = _stream_batch(a, b, d, th, kept, last)
                if bad == 1:
                    raise ValueError(f"edge stream {ordered_path} is not sorted by the stable-order key (file {f.name})")
                if bad == 2:
                    raise ValueError(f"edge stream {ordered_path} has a node outside 0..{n - 1} (file {f.name}): "
                                     "wrong n for this edge table")
    nonzero = np.count_nonzero(d, axis=1) if th.size else np.zeros(0, np.int64)
    dmax = int(d[-1].max()) if ths and ths[-1] == n else None
    return {t: (int(kept[j]), int(nonzero[j])) for j, t in enumerate(ths)}, dmax


class StreamedProjector(ProjectionCounts):
    """:class:`~.model.Projector`'s interface (``counts``, ``f``, ``cover_size``, ``prefetch``) over an ordered
    Parquet edge stream: a miss computes the asked θ and the hinted candidates in one streaming pass.

    ``graph`` is what the releases read besides F(θ) (n, unary violators, Σ): the out-of-core graph has no edge
    arrays (:func:`edgeless_graph`)."""

    def __init__(self, graph: ConflictGraph, ordered_path: str | Path, *, rule: str = "rank", seed: int = 0,
                 hint: Any = "paper", batch_rows: int = 1 << 20):
        self.graph, self.path, self.rule, self.seed, self.hint = graph, str(ordered_path), rule, seed, hint
        self.n = graph.n
        self.batch_rows = batch_rows
        self.passes = 0
        self._memo: dict = {}
        self._dmax: int | None = None

    def prefetch(self, thetas) -> None:
        from .._validation import check_int

        cap = max(self.n, 1)
        todo = {min(check_int(t, "theta", minimum=0), cap) for t in thetas} - set(self._memo)
        if self._dmax is not None:  # θ ≥ d_max(G) keeps every edge: F(θ) = F(n), no pass (as Projector.prefetch)
            for t in [t for t in todo if t >= self._dmax]:
                self._memo[t] = self._memo[cap]
                todo.discard(t)
        if todo:
            # θ = n (the whole graph, hence d_max) and θ = 1 (the matching) ride along in every pass
            got, dmax = _stream(self.path, self.n, todo | {1, cap}, self.batch_rows)
            self._memo.update(got)
            self._dmax = dmax
            self.passes += 1
            self.prefetch(todo)  # now only memo look-ups

    def counts(self, theta: int) -> tuple[int, int]:
        from .._validation import check_int

        theta = min(check_int(theta, "theta", minimum=0), max(self.n, 1))
        if theta not in self._memo:
            self.prefetch([theta, *self._hint()])
        return self._memo[theta]

    def cover_size(self) -> int:
        """Algorithm 5's c before noise: 2·|greedy maximal matching| in the stream's order = 2·F_MI(1)."""
        return 2 * self.counts(1)[0]


def edgeless_graph(n: int, dcs: Sequence[DC] = (), unary: np.ndarray | None = None, identity=None) -> ConflictGraph:
    """The public shape of an out-of-core conflict graph (n, Σ, unary violators, identity) without edge arrays:
    its edges live in Parquet and reach the releases only through a :class:`StreamedProjector`."""
    z = np.zeros(0, np.int32)
    return ConflictGraph(int(n), z, z, [], list(dcs), np.zeros(0, np.int64) if unary is None else np.asarray(unary),
                         0.0, "spark-stream", identity)


def release_from_parquet(edges_path: str | Path, n: int, measure: str, epsilon: float, *, spark=None,
                         dcs: Sequence[DC] = (), unary: np.ndarray | None = None, identity=None,
                         df: pd.DataFrame | None = None, order: str = "rank", order_seed: int = 0,
                         work_dir: str | Path | None = None, rng=None, accountant=None, **kw):
    """A DP release of I_MI / I_P (Algorithm 2 with θ selection) or I_R (``measure="R"``, Algorithm 5) from an
    edge table written by :func:`spark_statistics` / :func:`build_spark` (``edges_dir``), out of core: Spark sorts
    the edges by the stable order, the driver streams them (:class:`StreamedProjector`; O(n × |Θ|) memory): the
    statistics are computed on Spark, the noise is drawn by the same declarations as in memory
    (:data:`~.mechanisms.I_MI`, :data:`~.mechanisms.I_P`, :data:`~.mechanisms.VERTEX_COVER`, through
    :func:`~.mechanisms.graph_projection` / :func:`~.mechanisms.dp_vertex_cover`).

    Same output as :func:`~.mechanisms.graph_projection` / :func:`~.mechanisms.dp_vertex_cover` on the in-memory
    graph with the same seed. ``identity``: the tuples' identities (:func:`~.conflict_graph.tuple_identity`),
    required for the ``"rank"`` order; compute it on the table as typed by its public schema
    (:func:`~.loaders.load_csv`, the frame :func:`read_table` reads), never on a frame with inferred types. The FD
    degree bound of ``strategy="bound_hier"`` needs its terms: ``degree_terms=`` (computed on Spark,
    :attr:`SparkGraphStats.fd_degree_bounds`) or the table ``df``;
    ``strategy="baseline_dmax"`` (non-private, needs d_max) is refused. Other keywords go to the mechanism."""
    from ..spark import session_or
    from .._validation import check_options
    from .mechanisms import dp_vertex_cover, graph_projection

    check_options(measure, "measure", ("MI", "P", "R"))
    if kw.get("strategy") == "baseline_dmax":
        raise ValueError("strategy='baseline_dmax' needs d_max(G) (non-private); use spark_statistics for it")
    if not Path(str(edges_path)).exists():
        raise ValueError(f"edge table not found: {edges_path}")
    if order == "rank" and identity is None:  # ranks of row positions are not a stable order (model.py, finding 1)
        raise ValueError("order='rank' needs identity= (conflict_graph.tuple_identity(df) or the id column's): "
                         "ranking row positions is not stable under adding/removing a tuple")
    spark = session_or(spark)
    graph = edgeless_graph(n, dcs, unary, identity)
    tmp = tempfile.mkdtemp(prefix="dpwb-ordered-", dir=None if work_dir is None else str(work_dir))
    try:
        ordered = write_ordered_edges(spark, edges_path, Path(tmp) / "ordered.parquet",
                                      order_places(n, identity, rule=order, seed=order_seed), rule=order)
        proj = StreamedProjector(graph, ordered, rule=order, seed=order_seed)
        if measure == "R":
            return dp_vertex_cover(graph, epsilon, order=order, order_seed=order_seed,
                                   cover_size=int(graph.unary.size) + proj.cover_size(), rng=rng,
                                   accountant=accountant, **kw)
        return graph_projection(graph, measure, epsilon, df=df, dcs=dcs, order=order, order_seed=order_seed,
                                projector=proj, rng=rng, accountant=accountant, **kw)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _release_table(table, *, measure: str, epsilon: float, spark=None, rng=None, accountant=None, **kw):
    """A table's out-of-core release as a user runs it (the Spark engine that :data:`~.mechanisms.I_MI`,
    :data:`~.mechanisms.I_P` and :data:`~.mechanisms.VERTEX_COVER` declare): its edges built on Spark and written as
    Parquet by :func:`spark_statistics` (whose FD degree-bound terms are Spark aggregations), then
    :func:`release_from_parquet`. ``table``: a :class:`~.mechanisms.Table` (the declarations' data)."""
    kw.pop("fd_bound", None)  # a declared parameter graph_projection derives from the DCs
    with tempfile.TemporaryDirectory(prefix="dpwb-spark-table-") as tmp:
        st = spark_statistics(table.df, table.dcs, spark=spark, edges_dir=tmp)
        if measure != "R":
            kw.update(dcs=table.dcs, degree_terms=st.fd_degree_bounds)
        return release_from_parquet(st.edges_path, st.n, measure, epsilon, spark=spark,
                                    identity=tuple_identity(table.df), rng=rng, accountant=accountant, **kw)


__all__ = ["SparkGraphStats", "StreamedProjector", "build_spark", "dc_pairs_sql", "edgeless_graph", "fd_bound_sql",
           "order_places", "read_edges", "read_table", "release_from_parquet", "spark_statistics", "stream_counts",
           "unary_sql", "write_ordered_edges"]
