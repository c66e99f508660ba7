"""TPC-H at SF 0.1 with its declared keys, through ``dpworkbench r2t sql --db``: the exact answer and DS
(``--show-exact``) equal a brute-force computation (hand-completed SQL, per-individual sums in pandas) for queries
covering completion, SUM, two primary private relations, a self-join and GROUP BY (issue 22)."""

from __future__ import annotations

import json

import duckdb
import pandas as pd
import pytest

from dpworkbench.cli import main

SF = 0.1

# (query, --private, extra flags, hand-completed brute force: SELECT ψ AS psi, <tag>__<key> ... [, g] FROM ... WHERE)
CASES = {
    "Q3 (names customer)": (
        "select count(*) from customer, orders, lineitem where c_custkey = o_custkey and l_orderkey = o_orderkey "
        "and o_orderdate < date '1997-01-01' and l_shipdate > date '1994-01-01'", ["customer"], [],
        "select 1 as psi, c_custkey as customer__k from customer, orders, lineitem where c_custkey = o_custkey and "
        "l_orderkey = o_orderkey and o_orderdate < date '1997-01-01' and l_shipdate > date '1994-01-01'"),
    "completion lineitem → orders → customer": (
        "select count(*) from lineitem where l_shipdate > date '1998-06-01'", ["customer"], [],
        "select 1 as psi, o_custkey as customer__k from lineitem, orders where l_orderkey = o_orderkey "
        "and l_shipdate > date '1998-06-01'"),
    "SUM with completion": (
        "select sum(l_quantity) from lineitem", ["customer"], [],
        "select l_quantity as psi, o_custkey as customer__k from lineitem, orders where l_orderkey = o_orderkey"),
    "two primary private relations": (
        "select count(*) from lineitem where l_discount > 0.09", ["customer", "supplier"], [],
        "select 1 as psi, o_custkey as customer__k, l_suppkey as supplier__k, ps_suppkey as supplier__k2 "
        "from lineitem, orders, partsupp where l_orderkey = o_orderkey and l_partkey = ps_partkey and "
        "l_suppkey = ps_suppkey and l_discount > 0.09"),
    "self-join": (
        "select count(*) from customer c1, customer c2 where c1.c_nationkey = c2.c_nationkey and c1.c_acctbal > 9900 "
        "and c2.c_acctbal > 9900", ["customer"], [],
        "select 1 as psi, c1.c_custkey as customer__k, c2.c_custkey as customer__k2 from customer c1, customer c2 "
        "where c1.c_nationkey = c2.c_nationkey and c1.c_acctbal > 9900 and c2.c_acctbal > 9900"),
    "Q12 (private orders)": (
        "select count(*) from orders, lineitem where o_orderkey = l_orderkey", ["orders"], [],
        "select 1 as psi, o_orderkey as orders__k from orders, lineitem where o_orderkey = l_orderkey"),
    "Q11 SUM (private supplier)": (
        "select sum(ps_supplycost * ps_availqty / 1000000) from nation, supplier, partsupp where ps_suppkey = s_suppkey "
        "and s_nationkey = n_nationkey", ["supplier"], [],
        "select ps_supplycost * ps_availqty / 1000000 as psi, s_suppkey as supplier__k from nation, supplier, partsupp "
        "where ps_suppkey = s_suppkey and s_nationkey = n_nationkey"),
    "Q5 (customer and supplier)": (
        "select count(*) from supplier, lineitem, orders, customer, nation, region where s_suppkey = l_suppkey "
        "and l_orderkey = o_orderkey and o_custkey = c_custkey and c_nationkey = n_nationkey and n_nationkey = s_nationkey "
        "and r_regionkey = n_regionkey", ["customer", "supplier"], [],
        "select 1 as psi, c_custkey as customer__k, s_suppkey as supplier__k from supplier, lineitem, orders, customer, "
        "nation, region where s_suppkey = l_suppkey and l_orderkey = o_orderkey and o_custkey = c_custkey and "
        "c_nationkey = n_nationkey and n_nationkey = s_nationkey and r_regionkey = n_regionkey"),
    "GROUP BY nation (parallel)": (
        "select n_name, count(*) from orders, customer, nation where o_custkey = c_custkey and c_nationkey = n_nationkey "
        "group by n_name", ["customer"], [],
        "select 1 as psi, c_custkey as customer__k, n_name as g from orders, customer, nation where o_custkey = c_custkey "
        "and c_nationkey = n_nationkey"),
    "GROUP BY priority (split, --groups)": (
        "select o_orderpriority, sum(o_totalprice / 1000) from orders group by o_orderpriority", ["customer"],
        ["--groups", "o_orderpriority=1-URGENT|2-HIGH|3-MEDIUM|4-NOT SPECIFIED|5-LOW|6-NONE"],
        "select o_totalprice / 1000 as psi, o_custkey as customer__k, o_orderpriority as g from orders"),
    "GROUP BY region via supplier (parallel, SUM)": (
        "select r_name, sum(ps_availqty) from partsupp, supplier, nation, region where ps_suppkey = s_suppkey "
        "and s_nationkey = n_nationkey and n_regionkey = r_regionkey group by r_name", ["supplier"], [],
        "select ps_availqty as psi, ps_suppkey as supplier__k, r_name as g from partsupp, supplier, nation, region "
        "where ps_suppkey = s_suppkey and s_nationkey = n_nationkey and n_regionkey = r_regionkey"),
}
PARALLEL = {"GROUP BY nation (parallel)": True, "GROUP BY priority (split, --groups)": False,
            "GROUP BY region via supplier (parallel, SUM)": True}


@pytest.fixture(scope="module")
def db():
    from dpworkbench.r2t import tpch

    return tpch.make_database(SF)


def _brute(con, sql: str) -> pd.DataFrame:
    """Per individual (relation, key): Σ ψ over the results referencing it (a result counts a tuple once)."""
    df = con.execute(sql).df()
    df["row"] = range(len(df))
    keys = [c for c in df.columns if "__k" in c]
    long = pd.concat([pd.DataFrame({"row": df["row"], "tag": c.split("__")[0], "key": df[c]}) for c in keys])
    long = long.drop_duplicates()
    long["psi"] = df["psi"].astype(float).to_numpy()[long["row"].to_numpy()]
    if "g" in df:
        long["g"] = df["g"].to_numpy()[long["row"].to_numpy()]
    return df, long


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_exact_answer_and_ds_equal_brute_force(db, case, capsys):
    query, private, extra, brute_sql = CASES[case]
    argv = ["r2t", "sql", query, "--db", str(db), *[a for p in private for a in ("--private", p)], *extra,
            "--gs", "2", "--seed", "0", "--json", "--show-exact"]
    code = main(argv)
    out = capsys.readouterr()
    assert code == 0, out.err
    res = json.loads(out.out)
    con = duckdb.connect(str(db), read_only=True)
    df, long = _brute(con, brute_sql)
    if "g" not in df:
        assert res["NOT_PRIVATE"]["answer"] == pytest.approx(float(df["psi"].astype(float).sum()), rel=1e-9)
        assert res["NOT_PRIVATE"]["answer"] == pytest.approx(float(con.execute(query).fetchone()[0]), rel=1e-9)
        assert res["NOT_PRIVATE"]["DS"] == pytest.approx(float(long.groupby(["tag", "key"])["psi"].sum().max()), rel=1e-9)
        return
    assert res["public"]["group composition"].startswith("parallel" if PARALLEL[case] else "sequential")
    plain = dict(con.execute(query).fetchall())
    for g in res["NOT_PRIVATE"]["groups"]:
        name = g["group"][0]
        want_ans = float(df.loc[df["g"] == name, "psi"].astype(float).sum())
        sub = long[long["g"] == name]
        want_ds = float(sub.groupby(["tag", "key"])["psi"].sum().max()) if len(sub) else 0.0
        assert g["answer"] == pytest.approx(want_ans, rel=1e-9) and g["DS"] == pytest.approx(want_ds, rel=1e-9), name
        assert g["answer"] == pytest.approx(float(plain.get(name, 0.0)), rel=1e-9), name
    if case.startswith("GROUP BY priority"):  # a group of the declared domain with no rows is released too
        assert [g["group"] for g in res["private"]["groups"]][-1] == ["6-NONE"]
        assert res["NOT_PRIVATE"]["groups"][-1]["answer"] == 0
