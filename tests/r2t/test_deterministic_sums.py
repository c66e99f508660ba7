"""A true answer must not depend on thread scheduling: DuckDB adds a floating-point SUM's per-thread partial sums in
the order the threads finish, so the plain aggregate's last digits change from run to run (TPC-H Q7/Q11 at SF 0.125:
10 and 2 distinct values in 20 calls). ``timed_sql`` answers such a SUM with the exact (``math.fsum``) sum of the
same terms: one value on every run, equal to a reference computed here from the inputs."""

from __future__ import annotations

import math

import duckdb
import numpy as np
import pandas as pd
import pytest

from dpworkbench.r2t import tpch
from dpworkbench.r2t.sql import timed_sql

REPEATS = 20


@pytest.fixture(scope="module")
def fact_db():
    """600,000 rows (five DuckDB row groups) scanned and joined by 4 threads: large enough that the plain DOUBLE SUM
    gives several values in 20 runs (6 on main), small enough for a few seconds."""
    rng = np.random.default_rng(7)
    n = 600_000
    fact = pd.DataFrame({"k": rng.integers(0, 1000, n), "x": rng.integers(1, 10**7, n) / 100})
    con = duckdb.connect()
    con.execute("SET threads = 4")
    con.register("fact_df", fact)
    con.execute("CREATE TABLE fact AS SELECT * FROM fact_df")
    con.execute("CREATE TABLE dim AS SELECT range AS k FROM range(1000)")
    yield con, fact
    con.close()


def test_a_double_sum_over_a_parallel_join_has_one_value_the_exact_sum_of_its_terms(fact_db):
    con, fact = fact_db
    sql = "select sum(f.x * 3 / 7) from fact f, dim d where f.k = d.k"
    got = {timed_sql(con, sql)[0] for _ in range(REPEATS)}
    assert len(got) == 1
    # reference from the inputs: the same IEEE operations per row in numpy, added exactly
    want = math.fsum((fact["x"].to_numpy() * 3 / 7).tolist())
    assert got == {want}
    duck = con.execute(sql).fetchone()[0]  # DuckDB's own SUM: the same number up to its last bits
    assert abs(duck - want) <= 1e-12 * abs(want)


def test_exact_and_integer_aggregates_are_duckdbs_own(fact_db):
    con, fact = fact_db
    assert timed_sql(con, "select count(*) from fact f, dim d where f.k = d.k")[0] == len(fact)
    dec = con.execute("select sum(CAST(x AS DECIMAL(18,2))) from fact").fetchone()[0]  # DECIMAL sums are exact
    assert timed_sql(con, "select sum(CAST(x AS DECIMAL(18,2))) from fact")[0] == float(dec)


def test_null_terms_are_skipped_and_an_empty_sum_is_zero_as_in_sql():
    con = duckdb.connect()
    con.execute("SET threads = 4")
    con.execute("CREATE TABLE t AS SELECT * FROM (VALUES (1.5), (NULL), (2.25)) v(x)")
    assert timed_sql(con, "select sum(x / 3) from t")[0] == math.fsum([1.5 / 3, 2.25 / 3])
    assert timed_sql(con, "select sum(x / 3) from t where x > 10")[0] == 0.0
    with pytest.raises(ValueError, match="ungrouped SUM"):
        timed_sql(con, "select sum(x / 3) from t group by x")
    with pytest.raises(ValueError, match=r"COUNT\(\*\) \| SUM\(expr\)"):
        timed_sql(con, "select avg(x) from t")


@pytest.mark.parametrize("name", ["Q7", "Q11"])
def test_tpch_float_answers_are_reproducible_and_the_exact_sum_of_the_join_weights(name):
    con = tpch.connect(0.01, threads=4)
    answers = {tpch.answer(con, name)[0] for _ in range(REPEATS)}
    assert len(answers) == 1
    info = tpch.extract_query(con, name).info  # ψ: the very per-row terms of the SUM (sorted by content)
    assert answers == {math.fsum(info.psi.tolist())}
    # the join information the mechanisms read is the same array on every run, hence so are Q(I) and DS
    again = tpch.extract_query(con, name).info
    assert np.array_equal(info.psi, again.psi) and np.array_equal(info.ids, again.ids)
    assert (info.answer, info.DS) == (again.answer, again.DS)
