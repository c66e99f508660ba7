"""Issue 14: the Spark conflict-graph engine gives the in-memory engine's graph — same edges in the same order, the
same per-DC edge sets, degrees, exact I_MI / I_P, FD degree bounds — and so the same seeded releases; on small
hand-made inputs (NULLs, NaN, order DCs, constants, unary DCs, mirrors), a noisy synthetic Tax table and samples of
the real Hospital and Tax tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpworkbench.inconsistency.mechanisms import dp_vertex_cover, graph_projection
from dpworkbench.inconsistency.conflict_graph import build
from dpworkbench.inconsistency.constraints import FD, parse_dcs
from dpworkbench.inconsistency.model import Projector, degree_bound, i_mi, i_p
from dpworkbench.inconsistency.spark_engine import build_spark, spark_statistics


def _same_graph(df, dcs, spark, **kw):
    mem = build(df, dcs, **kw)
    g, st = build_spark(df, dcs, spark=spark, return_stats=True, **kw)
    assert g.n == mem.n and g.engine == "spark"
    assert np.array_equal(g.u, mem.u) and np.array_equal(g.v, mem.v)
    assert g.u.dtype == mem.u.dtype == np.int32
    assert len(g.per_dc) == len(mem.per_dc) and all(np.array_equal(a, b) for a, b in zip(g.per_dc, mem.per_dc))
    assert np.array_equal(g.unary, mem.unary)
    # statistics computed in Spark (not from the collected edges) against the in-memory measures
    assert st.edges == mem.num_edges and st.i_mi == i_mi(mem) and st.i_p == i_p(mem)
    assert np.array_equal(st.degrees, mem.degrees()) and st.max_degree == mem.max_degree()
    fds = [d for d in dcs if d.is_fd_like]
    if fds:
        from dpworkbench.inconsistency.constraints import unique_dcs

        assert sum(st.fd_degree_bounds) == degree_bound(df, unique_dcs(fds)[0])[0]
    return mem, g


SMALL = pd.DataFrame({"A": [1, 1, 2, 2, 1, None, 2], "B": [1, 2, 3, 3, 3, 1, 4], "C": [5, 4, 3, 2, 1, 0, 3.5],
                      "S": ["x", "y", "x", None, "y", "x", "é"]})


@pytest.mark.parametrize("text,null_policy", [
    ("not(t1.A=t2.A&t1.B!=t2.B)\nnot(t1.C<t2.C&t1.B>t2.B)\nnot(t1.C>t2.C&t1.B<t2.B)", "sql"),  # order DC + mirror
    ("not(t1.A=t2.A&t1.B!=t2.B)\nnot(t1.S=t2.S&t1.C<t2.C)", "artifact"),
    ("not(t1.S=t2.S&t1.C<t2.C)\nnot(t1.S<t2.S&t1.A=t2.A)", "sql"),  # strings: equality and code-point order
    ("not(t1.A=t2.A&t1.S!='x'&t2.C>=3)\nnot(t1.C<t2.B)", "sql"),  # constants; a cross join with a residual filter
])
def test_small_inputs(spark, text, null_policy):
    _same_graph(SMALL, parse_dcs(text), spark, null_policy=null_policy)


def test_unary_and_errors(spark):
    dcs = parse_dcs("not(t1.A=t2.A&t1.B!=t2.B)\nnot(t1.C<1)")
    _same_graph(SMALL, dcs, spark, unary_policy="separate")
    with pytest.raises(ValueError, match="unary"):
        build_spark(SMALL, dcs, spark=spark)
    with pytest.raises(ValueError, match="unknown attribute 'Z'"):
        build_spark(SMALL, [FD("A", "Z")], spark=spark)
    g = build_spark(SMALL.head(1), [FD("A", "B")], spark=spark)
    assert g.num_edges == 0 and g.u.dtype == np.int32


def _tax_synthetic(rows):
    from dpworkbench.inconsistency.datasets import dcs_for, load_table
    from dpworkbench.inconsistency.noise_injection import rnoise

    dcs = dcs_for("Tax")
    *_, (_, df) = rnoise(load_table("Tax", rows=rows, seed=0, prefer="synthetic").data, dcs, 0.01, rng=0, n_checkpoints=1)
    return df, dcs


def _releases_equal(mem, g, df, dcs):
    for m in ("MI", "P"):
        a = graph_projection(mem, m, 1.0, df=df, dcs=dcs, projector=Projector(mem, rule="rank", seed=0), rng=3,
                             n_bound=len(df))
        b = graph_projection(g, m, 1.0, df=df, dcs=dcs, projector=Projector(g, rule="rank", seed=0), rng=3,
                             n_bound=len(df))
        assert a["output"] == b["output"] and a["theta_star"] == b["theta_star"]
    assert dp_vertex_cover(mem, 1.0, rng=5)["output"] == dp_vertex_cover(g, 1.0, rng=5)["output"]


def test_synthetic_tax_graph_and_seeded_releases(spark):
    df, dcs = _tax_synthetic(2000)
    mem, g = _same_graph(df, dcs, spark)
    assert mem.num_edges > 200  # a graph worth comparing
    _releases_equal(mem, g, df, dcs)


TAX_NAMES = {"f_name": "FName", "l_name": "LName", "gender": "Gender", "area_code": "AreaCode", "phone": "Phone",
             "city": "City", "state": "State", "zip": "Zip", "marital_status": "MaritalStatus", "has_child": "HasChild",
             "salary": "Salary", "rate": "Rate", "single_exemp": "SingleExemp", "married_exemp": "MarriedExemp",
             "child_exemp": "ChildExemp"}
HOSPITAL_NAMES = {"ZIPCode": "ZipCode", "CountryName": "CountyName", "StateAvg": "Stateavg"}


def _real(relative, names, dataset, rows):
    from dpworkbench.datasets import real_path
    from dpworkbench.inconsistency.datasets import dcs_for

    p = real_path(relative)
    if p is None:
        pytest.skip(f"real table {relative} not available (DPWB_DATA)")
    df = pd.read_csv(p).rename(columns=names).sample(n=rows, random_state=0).reset_index(drop=True)
    return df, dcs_for(dataset)


def test_real_tax_sample(spark):
    df, dcs = _real("inconsistency/Tax/tax_dirty_rows10001-50000.csv.gz", TAX_NAMES, "Tax", 2000)
    mem, g = _same_graph(df, dcs, spark)
    assert mem.num_edges > 0
    _releases_equal(mem, g, df, dcs)


def test_real_hospital_sample(spark):
    df, dcs = _real("inconsistency/Hospital/hospital_nadeef_10k.csv.gz", HOSPITAL_NAMES, "Hospital", 1500)
    mem, g = _same_graph(df, dcs, spark)
    assert mem.num_edges > 0
    _releases_equal(mem, g, df, dcs)


def test_out_of_core_statistics_from_csv(spark, tmp_path):
    """The path that never collects the edges: a CSV read by Spark, statistics as Spark aggregations."""
    df, dcs = _tax_synthetic(1000)
    csv = tmp_path / "tax.csv"
    df.to_csv(csv, index=False)
    from dpworkbench.datasets.public_schema import PublicSchema, read_csv_public

    # the column types are public (the generator's dtypes), never inferred from the file (issue 21)
    schema = PublicSchema.from_mapping({c: ("float" if pd.api.types.is_numeric_dtype(df[c]) else "text")
                                        for c in df.columns})
    mem = build(read_csv_public(csv, schema)[0], dcs)
    st = spark_statistics(csv, dcs, spark=spark, schema=schema, edges_dir=tmp_path / "e", want_degrees=True)
    assert (st.edges, st.non_isolated, st.max_degree) == (mem.num_edges, int(np.count_nonzero(mem.degrees())),
                                                          mem.max_degree())
    assert np.array_equal(st.degrees, mem.degrees())
    assert any((tmp_path / "e" / "edges.parquet").glob("blk=*"))  # edges kept as Parquet by node range


def test_public_build_engine_spark(spark):
    """``spark_engine.build_spark`` is the Spark engine behind the public API (same graph as ``build``; ``build``
    itself knows no Spark: conflict_graph does not import spark_engine, which imports it)."""
    dcs = parse_dcs("not(t1.A=t2.A&t1.B!=t2.B)\nnot(t1.C<t2.C&t1.B>t2.B)")
    g, mem = build_spark(SMALL, dcs), build(SMALL, dcs)
    with pytest.raises(ValueError, match="build_spark"):
        build(SMALL, dcs, engine="spark")
    assert g.engine == "spark" and np.array_equal(g.u, mem.u) and np.array_equal(g.v, mem.v)
