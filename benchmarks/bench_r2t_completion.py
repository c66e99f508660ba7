"""TPC-H SF 1: query completion along the declared keys + join extraction, against the plain DuckDB query.

``SELECT SUM(l_quantity) FROM lineitem`` with ``--private customer`` is completed from the TPC-H DDL's foreign keys
(lineitem → orders → customer, two added atoms) and extracted into the join information (one row per lineitem, its
customer's key); the reference is DuckDB evaluating the plain aggregate, as written, on the same Parquet views.
Q5 (customer and supplier private; completion adds lineitem → partsupp → supplier) is timed the same way.
Data are generated once with tpchgen-cli into the cache (not timed).
"""

from __future__ import annotations

from dpworkbench.bench import row, timed
from dpworkbench.r2t import tpch
from dpworkbench.r2t.sql import extract, timed_sql

CASES = {
    "sum_lineitem": ("select sum(l_quantity) from lineitem", ["customer"]),
    "Q5": (tpch.QUERIES["Q5"].sql, ["customer", "supplier"]),
}


def run() -> list[dict]:
    con = tpch.connect(1.0)
    cat = tpch.catalog()
    rows = []
    for name, (sql, private) in CASES.items():
        # warm-up call first (DuckDB page cache, imports), then the median of 3
        ex, t_ex = timed(lambda: extract(con, sql, private, catalog=cat), repeat=3)
        _, t_plain = timed(lambda: timed_sql(con, sql), repeat=3)
        rows.append(row(f"r2t_completion_sf1_{name}", "seconds completion + extraction", t_ex, t_plain,
                        f"reference: plain DuckDB aggregate; M={ex.info.m}; atoms added: {len(ex.added)}"))
    return rows


if __name__ == "__main__":
    run()
