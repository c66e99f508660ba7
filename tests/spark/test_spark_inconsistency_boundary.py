"""Issue 21, finding 1 on the Spark path: ``inferSchema=True`` typed a CSV's columns from its rows, so one row with
B = ``x`` turned B into text and the other rows into conflicts (edges 0 → 100 on twenty rows); and the CLI's
``--engine spark`` shared the in-memory reader's stable-order break. Now Spark reads every line as a string and
types it cell by cell by the public schema, with the same result as the in-memory reader."""

from __future__ import annotations

import contextlib
import io
import json

import numpy as np
import pandas as pd
import pytest

from dpworkbench.datasets.public_schema import PublicSchema, read_csv_public
from dpworkbench.inconsistency.conflict_graph import build
from dpworkbench.inconsistency.constraints import parse_dcs
from dpworkbench.inconsistency.spark_engine import read_table, spark_statistics

DC = "not(t1.A=t2.A&t1.B!=t2.B)"
TWENTY = "A,B\n" + "".join(f"0,{'1' if i % 2 else '1.0'}\n" for i in range(20))
STABLE = "A,B,C\n1,2,16\n0,1,16\n0,1,31\n1,1,48\n0,2,35\n0,1,31\n0,0,41\n1,0,16\n1,2,38\n0,1,12\n"
HOSTILE = 'A,B\n0,1\n0,1.0\n\n0,x\n1,\n0,0,extra\n"open,0\n1,inf\r\n2,1e9\n0,NA\n 3 , 7 \n0,-1e9\n'


def _norm(df: pd.DataFrame) -> list[tuple]:
    return [tuple(None if pd.isna(v) else (float(v) if not isinstance(v, str) else v) for v in row)
            for row in df.itertuples(index=False)]


@pytest.mark.parametrize("schema", [None, "A:int, B:float[-10,10]"], ids=["header-only", "declared"])
def test_spark_reader_equals_the_in_memory_reader(spark, tmp_path, schema):
    p = tmp_path / "h.csv"
    p.write_text(HOSTILE)
    got = read_table(spark, p, schema=schema).toPandas().sort_values("__rid")
    assert got["__rid"].tolist() == list(range(len(got)))
    exp, _, _ = read_csv_public(p, None if schema is None else PublicSchema.parse(schema))
    assert _norm(got.drop(columns="__rid")) == _norm(exp)
    dcs = parse_dcs(DC)
    st = spark_statistics(p, dcs, spark=spark, schema=schema, want_degrees=True)
    mem = build(exp, dcs)
    assert (st.n, st.edges) == (mem.n, mem.num_edges) and np.array_equal(st.degrees, mem.degrees())


def test_spark_statistics_one_text_row_does_not_retype_the_column(spark, tmp_path):
    dcs = parse_dcs(DC)
    (tmp_path / "d.csv").write_text(TWENTY)
    (tmp_path / "d1.csv").write_text(TWENTY + "0,x\n")
    a = spark_statistics(tmp_path / "d.csv", dcs, spark=spark)
    b = spark_statistics(tmp_path / "d1.csv", dcs, spark=spark)
    assert 0 <= b.edges - a.edges <= a.n, (a.edges, b.edges)  # the old reader: 0 → 100 on 20 rows
    a = spark_statistics(tmp_path / "d.csv", dcs, spark=spark, schema="A:int, B:float")
    b = spark_statistics(tmp_path / "d1.csv", dcs, spark=spark, schema="A:int, B:float")
    assert a.edges == b.edges == 0
    with pytest.raises(ValueError, match="schema="):  # ordering a text column: refused up front
        spark_statistics(tmp_path / "d.csv", parse_dcs("not(t1.A<t2.A)"), spark=spark)


def test_spark_cli_stable_order_survives_a_text_row(spark, tmp_path):
    from dpworkbench.cli import main

    covers = []
    for name, text in (("s.csv", STABLE), ("s1.csv", STABLE + "9,0,x\n")):
        (tmp_path / name).write_text(text)
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert main(["inconsistency", str(tmp_path / name), "--dc", DC, "--engine", "spark", "--seed", "1",
                         "--n-bound", "40", "--json", "--show-exact"]) == 0
        covers.append(json.loads(buf.getvalue().strip().splitlines()[-1])["NOT_PRIVATE"]["I_R"]["truncated"])
    assert abs(covers[1] - covers[0]) <= 2, covers  # the old reader: 8 → 4


def test_spark_parquet_typed_by_a_declared_schema(spark, tmp_path):
    """A Parquet file whose writer typed B as text (because one row held ``x``) is read under the declared schema,
    cell by cell, as the in-memory rule types the same frame."""
    from dpworkbench.inconsistency.loaders import type_frame

    raw = pd.DataFrame({"A": ["0"] * 5, "B": ["1", "1.0", "x", None, "2"]})
    raw.to_parquet(tmp_path / "t.parquet")
    got = read_table(spark, tmp_path / "t.parquet", schema="A:int, B:float").toPandas().sort_values("__rid")
    exp, _, _ = type_frame(raw, "A:int, B:float")
    assert _norm(got.drop(columns="__rid")) == _norm(exp)


def test_spark_parquet_without_a_schema_is_text_not_the_files_types(spark, tmp_path):
    """Without a declared schema a Parquet file is read by the header-only rule (every column text), as a CSV is: a
    neighbour whose one text cell made the writer type B as text reads every other row as the original does."""
    a = pd.DataFrame({"A": [0, 1, 2], "B": [1.5, 2.0, 3.0]})
    b = pd.DataFrame({"A": [0, 1, 2, 3], "B": ["1.5", "2.0", "3.0", "x"]})
    a.to_parquet(tmp_path / "a.parquet")
    b.to_parquet(tmp_path / "b.parquet")
    ga = read_table(spark, tmp_path / "a.parquet")
    gb = read_table(spark, tmp_path / "b.parquet")
    assert {t for c, t in ga.dtypes if c != "__rid"} == {"string"} == {t for c, t in gb.dtypes if c != "__rid"}
    ra = ga.toPandas().sort_values("__rid").drop(columns="__rid")
    rb = gb.toPandas().sort_values("__rid").drop(columns="__rid")
    assert ra.reset_index(drop=True).equals(rb.head(3).reset_index(drop=True))
