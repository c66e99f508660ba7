"""Issue 14, out of core: the edges sorted by the stable order in Spark and streamed from Parquet through the numba
pass give the in-memory Projector's F(θ) for every θ, the same greedy matching, and so the same seeded releases
(same draws in the same order) — on small hand-made inputs, a noisy synthetic Tax table and real Tax/Hospital
samples."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpworkbench.inconsistency.conflict_graph import build
from dpworkbench.inconsistency.constraints import parse_dcs
from dpworkbench.inconsistency.mechanisms import dp_vertex_cover, graph_projection
from dpworkbench.inconsistency.model import Projector, degree_bound, paper_candidates
from dpworkbench.inconsistency.spark_engine import (StreamedProjector, edgeless_graph, order_places,
                                                    release_from_parquet, spark_statistics, stream_counts,
                                                    write_ordered_edges)

from .test_spark_inconsistency import HOSPITAL_NAMES, SMALL, TAX_NAMES, _real, _tax_synthetic


def _edges(df, dcs, spark, tmp_path, **kw):
    """The edge table written by the out-of-core path (never collected; Parquet by node range) and the in-memory
    graph: the end-to-end path, used on the small inputs (each Spark build costs seconds)."""
    spark_statistics(df, dcs, spark=spark, edges_dir=tmp_path / "e", **kw)
    return tmp_path / "e" / "edges.parquet", build(df, dcs, **kw)


def _edges_of(mem, tmp_path):
    """The in-memory graph's edges as an edge table (u < v), in a shuffled row order: the Spark sort must restore
    the stable order (saves the Spark build already compared with the in-memory graph in test_spark_inconsistency)."""
    perm = np.random.default_rng(0).permutation(mem.num_edges)
    path = tmp_path / "mem_edges.parquet"
    path.mkdir()
    pd.DataFrame({"u": mem.u[perm].astype(np.int64), "v": mem.v[perm].astype(np.int64)}).to_parquet(path / "part-0.parquet")
    return path


def _same_counts(mem, edges, spark, tmp_path, rule, seed):
    """F(θ) for the paper's candidates and more, and the greedy matching, from one streamed pass; returns the
    streamed projector (on the edge-less graph) for the releases."""
    proj = Projector(mem, rule=rule, seed=seed)
    thetas = sorted({*paper_candidates(mem.n), 2, 3, mem.max_degree(), mem.n})
    ordered = write_ordered_edges(spark, edges, tmp_path / f"o_{rule}{seed}", order_places(mem.n, mem.identity,
                                  rule=rule, seed=seed), rule=rule)
    got = stream_counts(ordered, mem.n, thetas, batch_rows=37)  # many batches: state must carry across them
    assert got == {t: proj.counts(t) for t in thetas}
    sp = StreamedProjector(edgeless_graph(mem.n, mem.dcs, mem.unary, mem.identity), ordered, rule=rule, seed=seed)
    assert sp.cover_size() == proj.cover_size()
    assert sp.passes == 1
    return sp


def _same_releases(mem, sp, df, dcs):
    """Seeded releases on the streamed projector equal the in-memory ones: same θ*, output and ledger."""
    for m in ("MI", "P"):
        for strategy in ("bound_hier", "em", "baseline_V"):
            a = graph_projection(mem, m, 1.0, df=df, dcs=dcs, strategy=strategy, projector=Projector(mem), rng=3)
            b = graph_projection(sp.graph, m, 1.0, df=df, dcs=dcs, strategy=strategy, projector=sp, rng=3)
            assert (a["output"], a["theta_star"]) == (b["output"], b["theta_star"])
            assert [(e.mechanism, e.epsilon) for e in a.ledger] == [(e.mechanism, e.epsilon) for e in b.ledger]
    # Θ scaled to the private size bound is not the hinted Θ(n): its θ ≥ d_max need no pass; only a noisy FD bound
    # below d_max and outside the first pass may cost one more pass per bound_hier release (2 here)
    assert sp.passes <= 3, sp.passes
    c = int(sp.graph.unary.size) + sp.cover_size()
    assert dp_vertex_cover(mem, 1.0, rng=5)["output"] == dp_vertex_cover(sp.graph, 1.0, cover_size=c, rng=5)["output"]


def test_small_streamed_counts(spark, tmp_path):
    dcs = parse_dcs("not(t1.A=t2.A&t1.B!=t2.B)\nnot(t1.C<t2.C&t1.B>t2.B)\nnot(t1.S=t2.S&t1.C<t2.C)")
    edges, mem = _edges(SMALL, dcs, spark, tmp_path)
    assert mem.num_edges > 3
    for rule, seed in (("rank", 0), ("rank", 7), ("lex", 0)):
        _same_counts(mem, edges, spark, tmp_path, rule, seed)
    with pytest.raises(ValueError, match="wrong n"):  # a too small n would drop edges in the join
        write_ordered_edges(spark, edges, tmp_path / "o_bad", order_places(mem.n - 1))


def test_unsorted_stream_refused(tmp_path):
    bad = tmp_path / "bad"
    bad.mkdir()
    pd.DataFrame({"a": [3, 1], "b": [0, 0]}).astype(np.int32).to_parquet(bad / "part-00000.parquet")
    with pytest.raises(ValueError, match="not sorted"):
        stream_counts(bad, 4, [1])
    with pytest.raises(ValueError, match="outside 0..2"):  # numba does not bounds-check: the stream does
        stream_counts(bad, 3, [1])


def test_synthetic_tax_streamed(spark, tmp_path):
    df, dcs = _tax_synthetic(2000)
    mem = build(df, dcs)
    assert mem.num_edges > 200
    edges = _edges_of(mem, tmp_path)
    _same_releases(mem, _same_counts(mem, edges, spark, tmp_path, "rank", 0), df, dcs)
    # the public out-of-core entry point (Spark sort + stream + mechanism) against the in-memory release
    a = graph_projection(mem, "MI", 1.0, df=df, dcs=dcs, projector=Projector(mem), rng=11)
    b = release_from_parquet(edges, mem.n, "MI", 1.0, spark=spark, dcs=dcs, unary=mem.unary, identity=mem.identity,
                             df=df, rng=11)
    assert (a["output"], a["theta_star"]) == (b["output"], b["theta_star"])
    # the FD degree-bound terms computed on Spark instead of from the pandas table: the same release
    terms = spark_statistics(df, dcs, spark=spark).fd_degree_bounds
    assert terms == degree_bound(df, [d for d in dcs if d.is_fd_like])[1]
    d = release_from_parquet(edges, mem.n, "MI", 1.0, spark=spark, dcs=dcs, unary=mem.unary, identity=mem.identity,
                             degree_terms=terms, rng=11)
    assert (d["output"], d["theta_star"], d.ledger) == (b["output"], b["theta_star"], b.ledger)
    with pytest.raises(ValueError, match="baseline_dmax"):
        release_from_parquet(edges, mem.n, "MI", 1.0, spark=spark, strategy="baseline_dmax", rng=1)
    with pytest.raises(ValueError, match="edge table not found"):
        release_from_parquet(tmp_path / "nope", mem.n, "R", 1.0, spark=spark, identity=mem.identity, rng=1)
    with pytest.raises(ValueError, match="needs identity"):
        release_from_parquet(edges, mem.n, "R", 1.0, spark=spark, rng=1)
    c = release_from_parquet(edges, mem.n, "R", 1.0, spark=spark, order="lex", rng=5)  # lex: positions are stable
    assert c["output"] == dp_vertex_cover(mem, 1.0, order="lex", rng=5)["output"]


@pytest.mark.parametrize("path, names, dataset, rows", [
    ("inconsistency/Tax/tax_dirty_rows10001-50000.csv.gz", TAX_NAMES, "Tax", 2000),
    ("inconsistency/Hospital/hospital_nadeef_10k.csv.gz", HOSPITAL_NAMES, "Hospital", 1500),
], ids=["tax", "hospital"])
def test_real_sample_streamed(spark, tmp_path, path, names, dataset, rows):
    df, dcs = _real(path, names, dataset, rows)
    mem = build(df, dcs)
    assert mem.num_edges > 0
    edges = _edges_of(mem, tmp_path)
    _same_releases(mem, _same_counts(mem, edges, spark, tmp_path, "rank", 0), df, dcs)
