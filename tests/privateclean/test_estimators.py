import math

import numpy as np
import pandas as pd
import pytest

from dpworkbench.privateclean.mechanisms import grr_sample
from dpworkbench.privateclean import (CleanedRelation, count_estimate, direct_bias_count, epsilon_grr, estimate, grr,
                                      p_for_epsilon, sum_estimate, theorem2_bound, theorem2_exact, tune, b_for_epsilon)
from dpworkbench.privateclean.synthetic import generate, run_multiattr_instance
from dpworkbench.testing import audit_mechanism


def test_oracles():
    assert count_estimate(300, 500, 0.25, 10, 25) == pytest.approx(333.3333, abs=1e-3)
    assert epsilon_grr(0.25, 3, "paper") == pytest.approx(2.302585, abs=1e-6)
    assert epsilon_grr(0.1, 50) == pytest.approx(6.1115, abs=1e-4)
    assert epsilon_grr(0.25, 3) == pytest.approx(epsilon_grr(0.25, 3, "paper"))
    assert theorem2_bound(25, 0.25, 0.05) == pytest.approx(482.83, abs=0.01)
    assert theorem2_bound(25, 0.25, 0.01) == pytest.approx(643.8, abs=0.1)
    assert theorem2_exact(25, 0.25, 0.05) == pytest.approx(477.4, abs=0.1)
    assert tune(10_000, 0.05)["p"] == pytest.approx(0.804, abs=1e-5)
    with pytest.warns(UserWarning, match="unreachable"):
        assert tune(100, 0.05)["p"] == 0.0
    assert tune(1000, 0.05, deltas={"x": 100.0}, convention="paper")["p"] == pytest.approx(0.380, abs=1e-3)
    assert tune(1000, 0.05, deltas={"x": 100.0}, convention="paper")["b"]["x"] == pytest.approx(100 / math.log(3 / 0.380 - 2), rel=1e-2)
    ex = tune(1000, 0.05, deltas={"x": 100.0}, N=50)  # default: exact ε of the tuned p for N = 50
    assert ex["b"]["x"] == pytest.approx(100.0 / epsilon_grr(ex["p"], 50)) and ex["convention"] == "exact"
    with pytest.raises(ValueError, match="N"):
        tune(1000, 0.05, deltas={"x": 100.0})
    assert 100 / epsilon_grr(0.1, 3, "paper") == pytest.approx(30.01, abs=0.01)
    assert p_for_epsilon(1.0, convention="paper") == pytest.approx(0.636, abs=1e-3)
    assert p_for_epsilon(1.0, 50) == pytest.approx(0.967, abs=1e-3)
    assert epsilon_grr(p_for_epsilon(2.0, 50), 50) == pytest.approx(2.0)
    assert b_for_epsilon(2.0, 100) == 50


def test_sum_closed_form_matches_rowwise():
    df = generate(500, 20, 1.5, rng=3)
    rel = grr(df, {"cat": 0.3}, {"val": 5.0}, domains={"cat": list(range(20))}, bounds={"val": (0.0, 100.0)}, rng=4).value
    crel = CleanedRelation.start(rel)
    pred = {0, 1, 2}
    est = estimate(crel, "sum", "cat", pred, "val")
    I = rel.data["cat"].isin(pred).to_numpy()
    a = rel.data["val"].to_numpy()
    assert est.value == pytest.approx(sum_estimate(a[I].sum(), a[~I].sum(), 0.3, 3, 20))


def test_p_zero_every_method_exact():
    df = generate(300, 10, 1.0, rng=1)
    rel = grr(df[["cat"]], {"cat": 1e-15}, domains={"cat": list(range(10))}, rng=2).value
    crel = CleanedRelation.start(rel).merge("cat", {9: 0})
    truth = int(df["cat"].isin([0, 9]).sum())
    for m in ("direct", "privateclean", "pc_unweighted", "pc_noprov"):
        assert estimate(crel, "count", "cat", 0, method=m).value == pytest.approx(truth, abs=1e-6)


def test_unbiased_and_direct_bias():
    S, N, p = 1000, 50, 0.3
    df = generate(S, N, 2.0, rng=11)
    pred = set(range(5))
    c_true = int(df["cat"].isin(pred).sum())
    h_true = float(df["val"][df["cat"].isin(pred)].sum())
    codes = df["cat"].to_numpy(dtype=np.int64)
    gen = np.random.default_rng(0)
    R = 5000
    V, W = grr_sample({"cat": (codes, N, p)}, {"val": (df["val"].to_numpy(), 10.0)}, size=R, rng=gen)  # the declaration
    new, vals = V["cat"], W["val"]
    I = new < 5
    c_p = I.sum(1)
    c_hat = (c_p - S * p * 5 / N) / (1 - p)
    tau_n = p * 5 / N
    h_hat = ((vals * (I - tau_n)) / (1 - p)).sum(1)
    for est, truth in ((c_hat, c_true), (h_hat, h_true)):
        err = est - truth
        assert abs(err.mean()) < 3 * err.std() / math.sqrt(R)
    pred_bias = direct_bias_count(S, p, 5, N, c_true / S)
    assert (c_p - c_true).mean() == pytest.approx(pred_bias, rel=0.05)


def test_grr_audit_exact_epsilon():
    N, p = 4, 0.5
    eps = epsilon_grr(p, N)

    def mech(x, rng, n):
        rep = rng.random(n) < p
        return np.where(rep, rng.integers(0, N, n), x)

    res = audit_mechanism(mech, 0, 1, eps, n_samples=40000, vectorized=True, seed=1)
    assert not res.flagged
    assert res.epsilon_lower > 0.6 * eps  # tight: the paper ε ln(3/p−2) is below the true loss for N>3
    assert epsilon_grr(0.5, 50) > epsilon_grr(0.5, 3, "paper")


def test_grr_does_not_mutate_and_errors():
    df = generate(100, 5, 1.0, rng=0)
    before = df.copy()
    with pytest.warns(UserWarning, match="data-dependent"):
        grr(df, {"cat": 0.5}, {"val": 2.0}, rng=1)
    pd.testing.assert_frame_equal(df, before)
    with pytest.raises(ValueError, match="p"):
        grr(df, {"cat": 1.5}, domains={"cat": range(5)})
    with pytest.raises(ValueError, match="b"):
        grr(df, {"cat": 0.5}, {"val": 0.0}, domains={"cat": range(5)}, bounds={"val": (0, 100)})
    # values outside the declared domain are mapped by a public rule, never refused (issue 21)
    assert set(grr(df[["cat"]], {"cat": 0.5}, domains={"cat": [0, 1]}, rng=1).value.data["cat"]) <= {0, 1}
    with pytest.raises(ValueError, match=r"\['val'\].*neither"):
        grr(df, {"cat": 0.5}, domains={"cat": range(5)}, rng=1)  # a column left out would be released raw (ε = ∞)
    rel = grr(df, {"cat": 0.5}, {"val": 2.0}, domains={"cat": range(5)}, bounds={"val": (0.0, 100.0)}, rng=1).value
    crel = CleanedRelation.start(rel)
    with pytest.raises(ValueError, match="unknown attribute"):
        estimate(crel, "count", "nope", 1)
    with pytest.raises(ValueError, match="outside the domain"):
        estimate(crel, "avg", "cat", "zzz", "val", method="direct")
    rel0 = grr(df, {"cat": 1e-15}, {"val": 2.0}, domains={"cat": list(range(6))}, bounds={"val": (0.0, 100.0)}, rng=1).value  # value 5: declared, no rows
    with pytest.raises(ValueError, match="empty selection"):
        estimate(CleanedRelation.start(rel0), "avg", "cat", 5, "val", method="direct")


def test_example6_weights_and_fork_free_equality():
    V = pd.DataFrame({"section": [1, 1, 2], "instructor": ["John Doe", None, None], "x": [1.0, 2.0, 3.0]})
    rel = grr(V[["section", "instructor"]], {"section": 1e-15, "instructor": 1e-15}, domains={"section": [1, 2],
              "instructor": ["John Doe", None]}, rng=0).value
    fd = {1: "John Doe", 2: "Jane Smith"}
    crel = CleanedRelation.start(rel).transform_multi(["section", "instructor"], lambda s, i: (s, fd[s] if i is None else i))
    g = crel.provenance("instructor", "observed")
    w = g[g["l"].isna()].set_index("m")["weight"]
    assert w["John Doe"] == pytest.approx(0.5) and w["Jane Smith"] == pytest.approx(0.5)
    # fork-free: PC-W == PC-U
    df = generate(400, 10, 1.0, rng=5)
    rel = grr(df[["cat"]], {"cat": 0.2}, domains={"cat": range(10)}, rng=6).value
    crel = CleanedRelation.start(rel).merge("cat", {8: 0, 9: 1})
    a = estimate(crel, "count", "cat", {0, 1}, method="privateclean").value
    b = estimate(crel, "count", "cat", {0, 1}, method="pc_unweighted").value
    assert a == pytest.approx(b)


def test_example5_cut_and_multiattr_ordering():
    majors = ["Civil Engineering", "Mechanical Engineering", "M.E", "Math"]
    V = pd.DataFrame({"major": majors * 5, "score": np.arange(20.0)})
    rel = grr(V[["major"]], {"major": 1e-15}, domains={"major": majors}, rng=0).value
    crel = CleanedRelation.start(rel).merge("major", {m: "Engineering" for m in majors[:3]})
    est = estimate(crel, "count", "major", "Engineering")
    assert est.meta["l"] == 3 and est.meta["N"] == 4
    rows = []
    for i in range(60):
        rows += run_multiattr_instance({"error_rate": 0.3}, i)
    m = pd.DataFrame(rows).groupby("method")["rel_error"].mean()
    assert m["PC-W"] <= m["PC-U"] + 0.02 and m["PC-U"] < m["Direct"]
