"""Issue 25 on the Spark engine: GRR over a joint partition (several attributes randomised as one tuple).

The law is the in-memory grr's because both run the same declaration (GRR.statistics / GRR.noise); the seeded test
makes that exact: a one-partition Spark release draws from ``default_rng([root, 0])`` with ``root`` taken from the
caller's seed, in the frame's column order (a joint partition at its first column), which is grr's order when the
``discrete`` dict follows the columns — so grr on that stream must give the identical V, value for value."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dpworkbench.mechanisms.backends import check_rng
from dpworkbench.privateclean import CleanedRelation, grr
from dpworkbench.privateclean.mechanisms import epsilon_grr
from dpworkbench.privateclean.multi import estimate_where
from dpworkbench.privateclean.spark_engine import grr_spark
from dpworkbench.spark import to_spark

DOM = {("a", "b"): [["x", "y", "z"], ["u", "v"]], "c": ["k0", "k1", "k2", "k3"]}


def _table(n=3000, seed=0):
    g = np.random.default_rng(seed)
    return pd.DataFrame({"a": g.choice(["x", "y", "z"], n, p=[0.5, 0.3, 0.2]), "b": g.choice(["u", "v"], n),
                         "c": g.choice(DOM["c"], n), "x": g.uniform(0, 100, n)})


def _args(**kw):
    return dict(discrete={("a", "b"): 0.3, "c": 0.2}, numeric={"x": 5.0}, domains=DOM, bounds={"x": (0.0, 100.0)}, **kw)


@pytest.mark.parametrize("discrete", [{("a", "b"): 0.3, "c": 0.2}, {"a": 0.3, "b": 0.25, "c": 0.2}])
def test_seeded_release_equals_grr_on_the_same_stream(spark, discrete):
    df = _table(1500)
    domains = DOM if ("a", "b") in discrete else {"a": ["x", "y", "z"], "b": ["u", "v"], "c": DOM["c"]}
    kw = dict(numeric={"x": 5.0}, domains=domains, bounds={"x": (0.0, 100.0)})
    rel = grr_spark(to_spark(spark, df, partitions=1), discrete, rng=9, spark=spark, **kw)
    root = int(check_rng(9).generator.integers(0, 2**63 - 1))  # what grr_spark draws from the caller's seed
    mem = grr(df, discrete, rng=np.random.default_rng([root, 0]), **kw)
    v = rel.value.data.toPandas()
    for c in ("a", "b", "c"):
        assert v[c].tolist() == mem.value.data[c].tolist(), c
    np.testing.assert_allclose(v["x"].to_numpy(), mem.value.data["x"].to_numpy(), rtol=0, atol=1e-12)
    assert [e.epsilon for e in rel.ledger] == pytest.approx([e.epsilon for e in mem.ledger])
    assert (df[["a", "b", "c"]] != v[["a", "b", "c"]]).any().any()  # the randomisation did something


def test_joint_law_tuple_kept_and_estimates(spark):
    # the tuple (a, b) is kept w.p. 1 − p + p/N (N = 6 combinations), not (1 − p + p/3)(1 − p + p/2) as if a and b
    # were randomised separately; two Spark partitions draw independent streams
    df = _table(6000, 1)
    sdf = to_spark(spark, df)  # the default slices keep the row order (a repartition would shuffle the rows)
    assert sdf.rdd.getNumPartitions() >= 2
    rel = grr_spark(sdf, rng=4, spark=spark, **_args())
    assert [e.epsilon for e in rel.ledger][:2] == pytest.approx([epsilon_grr(0.3, 6), epsilon_grr(0.2, 4)])
    v = rel.value.data.toPandas()
    kept = float(((v["a"] == df["a"]) & (v["b"] == df["b"])).mean())
    p, n = 0.3, len(df)
    expect = 1 - p + p / 6
    assert abs(kept - expect) < 5 * math.sqrt(expect * (1 - expect) / n)
    separate = (1 - p + p / 3) * (1 - p + p / 2)
    assert abs(kept - separate) > 5 * math.sqrt(expect * (1 - expect) / n)
    assert rel.public["domain"]["('a', 'b')"][0] == ("x", "u") and len(rel.public["domain"]["('a', 'b')"]) == 6
    # the in-memory multi-attribute estimators run on the Spark release (its domains keyed by the partition)
    c = CleanedRelation.start(rel.value.to_pandas())
    e = estimate_where(c, "count", "a = x AND b = v")
    truth = float(((df["a"] == "x") & (df["b"] == "v")).sum())
    assert e.lo <= truth <= e.hi


def test_joint_out_of_domain_rule_matches_grr(spark):
    # ("z", "v") is not an allowed combination and "w" is outside a's values: both map to the declared NULL entry
    df = pd.DataFrame({"a": ["x", "z", "w", "y"], "b": ["u", "v", "u", "u"]})
    dom = {("a", "b"): [("x", "u"), ("y", "u"), ("z", "u")]}
    rel = grr_spark(to_spark(spark, df, partitions=1), {("a", "b"): 1e-12}, domains=dom, other={("a", "b"): None},
                    rng=0, spark=spark)
    v = rel.value.data.toPandas()
    cells = [tuple(None if pd.isna(x) else x for x in t) for t in zip(v["a"], v["b"])]  # toPandas: NULL → NaN
    assert cells == [("x", "u"), (None, None), (None, None), ("y", "u")]
    assert rel.public["domain"]["('a', 'b')"][-1] is None  # the declared target joined the public domain
    with pytest.raises(ValueError, match="must have 2 values"):
        grr_spark(to_spark(spark, df), {("a", "b"): 0.3}, domains={("a", "b"): [("x",)]}, rng=0, spark=spark)
