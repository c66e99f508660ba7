"""pandas ↔ Spark DataFrames (Arrow), and the engine names shared by the papers' ``--engine`` flags."""

from __future__ import annotations

from typing import Any

import pandas as pd

ENGINES = ("memory", "spark")
"""``--engine`` values of the papers' CLIs: "memory" (pandas/numba/DuckDB on this machine, the default) or "spark"."""


def to_spark(spark, df: pd.DataFrame, *, row_id: str | None = None, partitions: int | None = None):
    """A Spark DataFrame of ``df`` (via Arrow). ``row_id``: add the row position 0..n-1 as a BIGINT column of that
    name (the tuple id every pipeline keys on; positions are stable because the frame is given in order)."""
    frame = df.reset_index(drop=True)
    if row_id is not None:
        frame = frame.assign(**{row_id: pd.RangeIndex(len(frame)).to_numpy(dtype="int64")})
    # pandas' "string"/"str" and object columns → plain object str (Arrow conversion of pandas 3 strings)
    for c in frame.columns:
        if pd.api.types.is_string_dtype(frame[c]) and not pd.api.types.is_numeric_dtype(frame[c]):
            frame[c] = frame[c].astype(object).where(frame[c].notna(), None)
    sdf = spark.createDataFrame(frame) if len(frame) else spark.createDataFrame(frame, schema=_empty_schema(frame))
    if partitions:
        sdf = sdf.repartition(int(partitions))
    return sdf


def _empty_schema(frame: pd.DataFrame) -> str:
    def kind(s: pd.Series) -> str:
        if pd.api.types.is_bool_dtype(s):
            return "boolean"
        if pd.api.types.is_integer_dtype(s):
            return "bigint"
        if pd.api.types.is_float_dtype(s):
            return "double"
        return "string"
    return ", ".join(f"`{c}` {kind(frame[c])}" for c in frame.columns)


def to_pandas(sdf: Any) -> pd.DataFrame:
    return sdf.toPandas()


__all__ = ["ENGINES", "to_pandas", "to_spark"]
