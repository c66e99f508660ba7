"""Issue 14: PrivateClean's GRR over a Spark DataFrame (one stream per partition) and its estimators as Spark
aggregations: the same privatised relation gives the same COUNT/SUM/AVG (values and intervals) on both engines;
the ledger is the in-memory grr's; a seeded run is reproducible; partitions draw independent streams; the law of
GRR holds (kept fraction 1 − p + p/N within 5 standard errors)."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from dpworkbench.accounting import Accountant
from dpworkbench.privateclean import estimate, privacy_cost
from dpworkbench.privateclean.model import CleanedRelation
from dpworkbench.privateclean.spark_engine import estimate_spark, grr_spark
from dpworkbench.spark import to_spark

DOM = ["a", "b", "c", "d", "e"]


def _table(n=4000, seed=0):
    g = np.random.default_rng(seed)
    return pd.DataFrame({"cat": g.choice(DOM, size=n, p=[0.4, 0.3, 0.15, 0.1, 0.05]),
                         "x": g.uniform(0, 100, size=n)})


def _release(spark, df, rng, parts=None):
    # parts=None keeps the row order (the default slices of local[2]); a repartition shuffles rows
    return grr_spark(to_spark(spark, df, partitions=parts), {"cat": 0.3}, {"x": 5.0}, domains={"cat": DOM},
                     bounds={"x": (0.0, 100.0)}, rng=rng, spark=spark)


def test_same_relation_same_estimates(spark):
    df = _table()
    rel = _release(spark, df, 11, parts=4)
    mem = CleanedRelation.start(rel.value.to_pandas())
    for agg, value in (("count", None), ("sum", "x"), ("avg", "x")):
        for pred in ("a", {"b", "c"}):
            for method in ("privateclean", "direct"):
                a = estimate(mem, agg, "cat", pred, value, method=method)
                b = estimate_spark(rel, agg, "cat", pred, value, method=method)
                for x, y in ((a.value, b.value), (a.lo, b.lo), (a.hi, b.hi)):
                    assert (math.isnan(x) and math.isnan(y)) or math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9), (agg, pred, method)


def test_ledger_reproducibility_and_streams(spark):
    df = _table(2000)
    acc = Accountant()
    r1 = grr_spark(to_spark(spark, df), {"cat": 0.3}, {"x": 5.0}, domains={"cat": DOM},
                   bounds={"x": (0.0, 100.0)}, rng=5, spark=spark, accountant=acc)
    assert [e.epsilon for e in r1.ledger] == [e.epsilon for e in privacy_cost({"cat": (0.3, 5)}, {"x": (5.0, 100.0)})]
    assert acc.spent == pytest.approx(sum(e.epsilon for e in r1.ledger))
    v1 = r1.value.data.toPandas()
    v2 = _release(spark, df, 5).value.data.toPandas()
    pd.testing.assert_frame_equal(v1, v2)  # same seed, same partitioning → same V
    v3 = _release(spark, df, 6).value.data.toPandas()
    assert not v1["x"].equals(v3["x"])
    # partitions draw independent streams: the noise of two equal-sized partitions of equal inputs differs
    same = pd.concat([df.head(500)] * 2, ignore_index=True)
    v = grr_spark(to_spark(spark, same), {"cat": 0.3}, {"x": 5.0}, domains={"cat": DOM},
                  bounds={"x": (0.0, 100.0)}, rng=1, spark=spark).value.data.toPandas()
    assert to_spark(spark, same).rdd.getNumPartitions() >= 2
    noise = v["x"].to_numpy() - np.clip(same["x"].to_numpy(), 0, 100)
    assert len(set(np.round(noise, 12))) > 0.99 * len(noise)  # no stream reused across partitions


def test_grr_law_and_release_backend(spark):
    df = _table(6000)
    v = _release(spark, df, None).value.data.toPandas()  # rng=None: a release, OpenDP back-end per partition
    kept = float((v["cat"].to_numpy() == df["cat"].to_numpy()).mean())
    p, n = 0.3, len(df)
    expect = 1 - p + p / len(DOM)
    assert abs(kept - expect) < 5 * math.sqrt(expect * (1 - expect) / n)
    assert set(v["cat"]) <= set(DOM) and v["x"].notna().all()


def test_refusals_are_on_public_inputs_only(spark):
    df = _table(100)
    sdf = to_spark(spark, df)
    with pytest.raises(ValueError, match="neither in discrete"):
        grr_spark(sdf, {"cat": 0.3}, domains={"cat": DOM}, spark=spark, rng=0)
    with pytest.raises(ValueError, match="domains\\['cat'\\] is required"):
        grr_spark(sdf, {"cat": 0.3}, {"x": 1.0}, domains={}, bounds={"x": (0, 100)}, spark=spark, rng=0)
    acc = Accountant()
    with pytest.raises(ValueError, match="other"):
        grr_spark(sdf, {"cat": 0.3}, {"x": 1.0}, domains={"cat": ["a"]}, other={"cat": "zz"}, bounds={"x": (0, 100)},
                  spark=spark, rng=0, accountant=acc)
    assert acc.spent == 0  # refused before spending


SECRET = "SECRET9137"


def test_out_of_domain_and_missing_are_mapped_never_refused(spark):
    """Issue 21 (findings 5, 6): before the fix a value outside the domain, or a missing number, made grr_spark refuse
    with a count of such rows. Now the rows go through grr's public rules: out-of-domain → NULL (declared as the
    target) or ``other``, a missing number → the fill value, clip — and the pre-noise relation equals grr's."""
    from dpworkbench.privateclean import grr
    from dpworkbench.testing.harness import PreNoiseBackend

    df = pd.DataFrame({"cat": ["a", SECRET, None, "b", "e"], "x": [1.0, np.nan, 250.0, -3.0, 50.0]})
    sdf = spark.createDataFrame(df.astype(object).where(df.notna(), None).values.tolist(), schema="cat string, x double")
    for other in ({"cat": None}, {"cat": "e"}):
        rel = grr_spark(sdf, {"cat": 1e-12}, {"x": 1e-9}, domains={"cat": DOM}, other=other, bounds={"x": (0.0, 100.0)},
                        rng=0, spark=spark)
        v = rel.value.data.toPandas()
        mem = grr(df, {"cat": 1e-12}, {"x": 1e-9}, domains={"cat": DOM}, other=other, bounds={"x": (0.0, 100.0)},
                  rng=PreNoiseBackend(0)).value.data
        def cats(col):
            return [None if pd.isna(c) else c for c in col.tolist()]
        assert cats(v["cat"]) == cats(mem["cat"]) and SECRET not in cats(v["cat"])
        assert np.allclose(v["x"].to_numpy(), mem["x"].to_numpy(), atol=1e-6)
        assert v["x"].round(6).tolist() == [1.0, 50.0, 100.0, 0.0, 50.0]
        assert rel.public["domain"]["cat"] == DOM + ([None] if other["cat"] is None else [])


def test_cli_spark_engine_on_file_level_neighbours(spark, tmp_path, capsys):
    """The CLI reads the file once (one line = one row, the flags' schema) for both engines: on every substitution of a
    line by a hostile one the Spark engine releases, like the memory engine, with the same public row count."""
    from dpworkbench.cli import main
    from dpworkbench.testing.harness import csv_line_neighbours, hostile_lines

    text = "cat,x\na,1\nb,2\na,3\n"
    argv = ["--attr", "cat", "--p", "0.3", "--domain", "a,b", "--value-col", "x", "--b", "1", "--bounds", "0,5",
            "--agg", "sum", "--equals", "a", "--seed", "1", "--json", "--engine", "spark"]
    neighbours = list(csv_line_neighbours(text, hostile_lines(text, np.random.default_rng(0), limit=6),
                                          remove=False, add=False))[::3]
    for i, nb in enumerate(neighbours):
        f = tmp_path / f"n{i}.csv"
        f.write_text(nb)
        code = main(["privateclean", "query", str(f), *argv])
        out, err = capsys.readouterr()
        assert code == 0, (nb, err)
        doc = json.loads(out)
        assert doc["public"]["rows"] == 3 and doc["public"]["engine"] == "spark"
        assert SECRET not in out + err
