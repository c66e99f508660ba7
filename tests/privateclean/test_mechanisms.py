"""Privacy audits of the real ``grr`` (not a re-implementation), public bounds with clipping, and the release back-end."""
import numpy as np
import pandas as pd
import pytest

from dpworkbench.accounting import Accountant
from dpworkbench.mechanisms import release_backend
from dpworkbench.accounting import check_ledger_matches
from dpworkbench.privateclean import epsilon_grr, grr, privacy_cost, privacy_cost_table
from dpworkbench.testing import audit_mechanism

DOM = list(range(50))


class NoNoise:
    """The real grr code path with the Laplace draw switched off (a NumpyBackend whose add_laplace is the identity)."""

    def __new__(cls, seed):
        from dpworkbench.mechanisms.backends import NumpyBackend

        class _NoNoise(NumpyBackend):
            def add_laplace(self, value, scale):
                return np.asarray(value, dtype=float)
        return _NoNoise(seed)


def _grr_discrete(p):
    # rows are privatised independently, so n identical rows = n draws of the mechanism on one record
    def mech(x, rng, n):
        df = pd.DataFrame({"c": np.full(n, x)})
        return grr(df, {"c": p}, domains={"c": DOM}, rng=rng).value.data["c"].to_numpy()
    return mech


def test_grr_audit_exact_epsilon_and_paper_epsilon_flagged():
    p = 0.5
    mech = _grr_discrete(p)
    exact, paper = epsilon_grr(p, 50), epsilon_grr(p, 50, "paper")
    ok = audit_mechanism(mech, 0, 1, exact, n_samples=40000, vectorized=True, seed=3)
    assert not ok.flagged and ok.epsilon_lower > 0.6 * exact
    assert audit_mechanism(mech, 0, 1, paper, n_samples=40000, vectorized=True, seed=3).flagged


def test_numeric_bounds_clip_and_audit():
    b, lo, hi = 2.0, 0.0, 10.0

    def mech(x, rng, n):
        df = pd.DataFrame({"v": np.full(n, float(x))})
        return grr(df, {}, {"v": b}, bounds={"v": (lo, hi)}, rng=rng).value.data["v"].to_numpy()

    # 1000 is far outside the public range: clipped to 10, so ε = Δ/b = 5 still holds
    res = audit_mechanism(mech, 0.0, 1000.0, (hi - lo) / b, n_samples=40000, bins=30, vectorized=True, seed=4)
    assert not res.flagged
    # ... and a smaller ε is detected (the audit has power)
    assert audit_mechanism(mech, 0.0, 1000.0, 0.5 * (hi - lo) / b, n_samples=40000, bins=30, vectorized=True, seed=4).flagged
    rel = grr(pd.DataFrame({"v": [-5.0, 3.0, 50.0]}), {}, {"v": b}, bounds={"v": (lo, hi)}, rng=0)
    assert rel.value.deltas["v"] == 10.0 and rel.ledger[0].epsilon == pytest.approx(5.0)
    assert "clipped" in rel.ledger[0].note and rel.public["bounds"] == {"v": [lo, hi]}


def test_declared_delta_needs_bounds_and_bad_numbers_are_filled():
    """Issue 21, finding 2: a Δ without bounds bounds nothing (a record may move from 0 to 100), so it is refused for
    every dataset alike; with bounds, a missing or non-numeric cell becomes the fill value (default the midpoint)."""
    df = pd.DataFrame({"v": [0.0, 30.0]})
    for data in (df, pd.DataFrame({"v": [0.0, 5.0]})):
        with pytest.raises(ValueError, match="without bounds does not bound a substitution"):
            grr(data, {}, {"v": 1.0}, deltas={"v": 10.0}, rng=0)
    with pytest.raises(ValueError, match="bounds"):
        grr(df, {}, {"v": 1.0}, bounds={"v": (5.0, 5.0)}, rng=0)
    with pytest.raises(ValueError, match="disagrees"):
        grr(df, {}, {"v": 1.0}, bounds={"v": (0.0, 40.0)}, deltas={"v": 10.0}, rng=0)
    with pytest.raises(ValueError, match="fill"):
        grr(df, {}, {"v": 1.0}, bounds={"v": (0.0, 40.0)}, fill={"v": 50.0}, rng=0)
    rel = grr(pd.DataFrame({"v": [0.0, np.nan, "x", np.inf]}, dtype=object), {}, {"v": 1.0}, bounds={"v": (0.0, 40.0)},
              fill={"v": 7.0}, rng=NoNoise(0))
    assert rel.value.data["v"].tolist() == [0.0, 7.0, 7.0, 7.0] and rel.exact["numbers_missing_filled"] == {"v": 3}
    assert grr(df, {}, {"v": 1.0}, bounds={"v": (0.0, 30.0)}, deltas={"v": 30.0}, rng=0).value.deltas["v"] == 30.0


def test_release_backend_and_accountant():
    df = pd.DataFrame({"c": np.arange(200) % 5, "v": np.linspace(0, 10, 200)})
    acc = Accountant(20.0)
    rel = grr(df, {"c": 0.3}, {"v": 2.0}, domains={"c": range(5)}, bounds={"v": (0, 10)}, rng=release_backend(),
              accountant=acc).value
    assert rel.data.shape == df.shape and set(rel.data["c"]) <= set(range(5))
    assert np.isfinite(rel.data["v"]).all() and not np.allclose(rel.data["v"], df["v"])
    assert acc.spent == pytest.approx(epsilon_grr(0.3, 5) + 5.0)
    # two unseeded releases differ; seeded ones repeat
    assert not rel.data.equals(grr(df, {"c": 0.3}, {"v": 2.0}, domains={"c": range(5)}, bounds={"v": (0, 10)},
                                   rng=release_backend()).value.data)
    a = grr(df, {"c": 0.3}, {"v": 2.0}, domains={"c": range(5)}, bounds={"v": (0, 10)}, rng=7).value.data
    assert a.equals(grr(df, {"c": 0.3}, {"v": 2.0}, domains={"c": range(5)}, bounds={"v": (0, 10)}, rng=7).value.data)


def test_regeneration_is_labelled_in_the_ledger():
    df = pd.DataFrame({"c": np.arange(100) % 4})
    rel = grr(df, {"c": 0.2}, domains={"c": range(4)}, rng=0, regenerate_until_domain_preserved=True)
    assert "conditional draw" in rel.ledger[0].note and not rel.private and rel.details["generations"] >= 1
    plain = grr(df, {"c": 0.2}, domains={"c": range(4)}, rng=0)
    assert "conditional" not in plain.ledger[0].note and plain.private
    with pytest.raises(ValueError, match="regenerate_until_domain_preserved"):  # never on the release back-end
        grr(df, {"c": 0.2}, domains={"c": range(4)}, rng=release_backend(), regenerate_until_domain_preserved=True)


def test_cli_release_backend_and_bounds(tmp_path):
    import json
    import subprocess
    import sys
    f = tmp_path / "m.csv"
    pd.DataFrame({"major": ["ME", "Mech E", "EE", "EE", "Math"] * 40, "sat": [3, 4, 9, 4, 2] * 40}).to_csv(f, index=False)
    base = [sys.executable, "-m", "dpworkbench", "privateclean", "query", str(f), "--attr", "major", "--p", "0.2",
            "--domain", "ME,Mech E,EE,Math", "--value-col", "sat", "--b", "1", "--merge", "Mech E=ME",
            "--agg", "avg", "--equals", "ME", "--json"]
    out = json.loads(subprocess.run(base + ["--bounds", "1,5"], capture_output=True, text=True, check=True).stdout)
    assert "OpenDP" in out["noise"] and np.isfinite(out["private"]["privateclean_avg"])
    assert out["ledger"][1]["epsilon"] == pytest.approx(4.0)  # Δ = 5 − 1, b = 1; the 9s were clipped to 5
    bad = subprocess.run(base + ["--delta", "4"], capture_output=True, text=True)  # a Δ alone bounds nothing
    assert bad.returncode != 0 and "--bounds" in bad.stderr and "range (" not in bad.stderr


def test_outlier_filter_finds_intel_spurious_ids_on_the_private_relation():
    from dpworkbench.privateclean import CleanedRelation, estimate
    from dpworkbench.privateclean.model import outlier_values
    from dpworkbench.privateclean.datasets import INTEL_DOMAIN, TEMP_RANGE, intel_like
    R = intel_like(seed=1, scale=0.05)
    p = 0.1
    rel = grr(R, {"sensor_id": p}, {"temp": TEMP_RANGE / epsilon_grr(p, 3, "paper")}, domains={"sensor_id": INTEL_DOMAIN},
              bounds={"temp": (0.0, TEMP_RANGE)}, rng=2).value
    crel = CleanedRelation.start(rel).filter_outliers("sensor_id", "temp", value_range=(0.0, 40.0))
    assert outlier_values(rel.data, "sensor_id", "temp", value_range=(0.0, 40.0)) == list(range(100, 113))
    assert crel.data["sensor_id"].isna().sum() > R["sensor_id"].isna().sum()
    e = estimate(crel, "count", "sensor_id", lambda v: v is not None)
    truth = R["sensor_id"].map(lambda v: v is not None and v < 100).sum()
    assert abs(e.value - truth) / truth < 0.02
    assert outlier_values(pd.DataFrame({"c": ["a"] * 5 + ["b"]}), "c", min_rows=2) == ["b"]
    with pytest.raises(ValueError, match="value_range"):
        outlier_values(rel.data, "sensor_id")
    with pytest.raises(ValueError, match="unknown attribute"):
        outlier_values(rel.data, "nope", min_rows=3)


def test_allocate_epsilon_composes_to_the_total():
    from dpworkbench.privateclean import allocate_epsilon
    R = pd.DataFrame({"c": np.arange(300) % 50, "d": np.arange(300) % 3, "v": np.linspace(0, 100, 300)})
    a = allocate_epsilon(6.0, {"c": 50, "d": 3}, {"v": 100.0})
    assert a["epsilon_each"] == pytest.approx(2.0) and a["b"]["v"] == pytest.approx(50.0)
    rel = grr(R, a["p"], a["b"], domains={"c": range(50), "d": range(3)}, bounds={"v": (0, 100)}, rng=0)
    assert rel.epsilon == pytest.approx(6.0)
    pa = allocate_epsilon(6.0, {"c": 50, "d": 3}, {"v": 100.0}, convention="paper")
    assert pa["p"]["d"] == pytest.approx(a["p"]["d"])          # Lemma 1 is exact at N = 3 ...
    assert pa["epsilon_exact_total"] > 6.0 + 1.0                # ... and overspends at N = 50
    with pytest.raises(ValueError, match="nothing to allocate"):
        allocate_epsilon(1.0)


def test_tradeoff_panel_formulas():
    from dpworkbench.privateclean import teaching
    fig, t = teaching.tradeoff_panel(2.0, N=50, S=1000)
    assert t["true ε of this p"].iloc[0] == pytest.approx(2.0)          # exact convention spends what it says
    assert t["true ε of this p"].iloc[1] > 4.0                           # Lemma 1's p spends more at N = 50
    assert t["count error bound / S"].iloc[1] < t["count error bound / S"].iloc[0]
    _, t3 = teaching.tradeoff_panel(2.0, N=3)
    assert t3["p"].iloc[0] == pytest.approx(t3["p"].iloc[1])             # the two agree at N = 3
    assert len(fig.data) == 4


def test_numeric_sensitivity_brute_force_is_the_public_range():
    from dpworkbench.mechanisms.backends import NumpyBackend
    from dpworkbench.testing import brute_force_sensitivity

    class NoNoise(NumpyBackend):  # the real grr code path with the Laplace draw switched off
        def add_laplace(self, value, scale):
            return np.asarray(value, dtype=float)

    lo, hi = 0.0, 100.0

    def f(record):  # the pre-noise value grr releases for one record (local DP: a record is the unit)
        return grr(pd.DataFrame({"v": [record]}), {}, {"v": 1.0}, bounds={"v": (lo, hi)}, rng=NoNoise(0)).value.data["v"].to_numpy()

    gen = np.random.default_rng(5)
    inputs = list(gen.uniform(-50, 150, 12)) + [lo, hi]
    grid = sorted(set(np.round(gen.uniform(-1e6, 1e6, 20), 3)) | {lo, hi, -1e9, 1e9})
    sens = brute_force_sensitivity(f, inputs, lambda x: [y for y in grid if y != x])
    assert sens == pytest.approx(hi - lo)  # Δ = hi − lo, attained, whatever the raw values


def test_ledger_shows_exact_and_paper_epsilon_per_attribute_and_composes():
    import math
    df = pd.DataFrame({"c": np.arange(400) % 50, "g": np.arange(400) % 3, "v": np.linspace(0, 10, 400)})
    rel = grr(df, {"c": 0.25, "g": 0.5}, {"v": 2.0}, domains={"c": range(50), "g": range(3)}, bounds={"v": (0, 10)}, rng=0)
    led = privacy_cost_table(rel).set_index("attribute")
    assert led.loc["c", "epsilon_exact"] == pytest.approx(math.log(1 + 50 * 0.75 / 0.25))   # ln 151, the true loss
    assert led.loc["c", "epsilon_paper"] == pytest.approx(math.log(3 / 0.25 - 2))           # Lemma 1, labelled beside it
    assert led.loc["g", "epsilon_exact"] == pytest.approx(led.loc["g", "epsilon_paper"])     # equal at N = 3
    assert led.loc["v", "epsilon_exact"] == pytest.approx(5.0) and led.loc["c", "N"] == 50
    assert rel.epsilon == pytest.approx(led["epsilon_exact"].sum()) and rel.epsilon > led["epsilon_paper"].sum()
    # the ledger the run recorded is the pure plan
    check_ledger_matches(privacy_cost({"c": (0.25, 50), "g": (0.5, 3)}, {"v": (2.0, 10.0)}), rel.ledger)
    paper = grr(df, {"c": 0.25, "g": 0.5}, {"v": 2.0}, domains={"c": range(50), "g": range(3)}, bounds={"v": (0, 10)},
                rng=0, accounting="paper_lemma1")
    assert paper.epsilon == pytest.approx(led["epsilon_paper"].sum()) and not paper.private  # labelled, N = 50 > 3
    check_ledger_matches(privacy_cost({"c": (0.25, 50), "g": (0.5, 3)}, {"v": (2.0, 10.0)}, accounting="paper_lemma1"),
                         paper.ledger)
    with pytest.raises(ValueError, match="paper_lemma1"):
        grr(df, {"c": 0.25, "g": 0.5}, {"v": 2.0}, domains={"c": range(50), "g": range(3)}, bounds={"v": (0, 10)},
            rng=release_backend(), accounting="paper_lemma1")


def test_queries_are_post_processing_of_V_and_public_parameters():
    """The estimators see only V and the public parameters: rebuilding the relation from those alone gives the same
    answers, and no field of the release holds the original data."""
    from dpworkbench.privateclean import CleanedRelation, PrivateRelation, estimate
    R = pd.DataFrame({"c": np.arange(300) % 6, "v": np.linspace(0, 10, 300)})
    rel = grr(R, {"c": 0.3}, {"v": 2.0}, domains={"c": range(6)}, bounds={"v": (0, 10)}, rng=3)
    V, pub = rel.value.data.copy(), rel.public
    rebuilt = PrivateRelation(V, dict(pub["p"]), dict(pub["b"]), {k: np.asarray(d) for k, d in pub["domain"].items()},
                              dict(pub["delta"]))
    merge = {5: 0}
    a = CleanedRelation.start(rel).merge("c", merge)
    b = CleanedRelation.start(rebuilt).merge("c", merge)
    for m in ("direct", "privateclean", "pc_unweighted", "pc_noprov"):
        for agg in ("count", "sum", "avg"):
            ea, eb = estimate(a, agg, "c", {0, 1}, "v", method=m), estimate(b, agg, "c", {0, 1}, "v", method=m)
            assert (ea.value, ea.lo, ea.hi) == pytest.approx((eb.value, eb.lo, eb.hi), nan_ok=True)
    assert not any(isinstance(x, pd.DataFrame) and x.equals(R) for x in vars(rel.value).values())


# --- GRR on the core -------------------------------------------------------------------------------------------------
# (formerly test_privateclean_grr_core.py) PrivateClean's GRR is the core's (dpworkbench.mechanisms.core.grr_codes / grr_epsilon / grr_p_for_epsilon), with its own draw order kept: seeded outputs are those of the former in-module implementation (written out here).

import math  # noqa: E402

from dpworkbench.mechanisms import core  # noqa: E402
from dpworkbench.privateclean import p_for_epsilon  # noqa: E402
from dpworkbench.privateclean.mechanisms import grr_sample  # noqa: E402


def _old_privateclean_draws(codes, N, p, gen):
    idx = np.flatnonzero(gen.random(codes.size) < p)
    new = codes.copy()
    new[idx] = gen.integers(0, N, size=idx.size)
    return new


def _old_batch_draws(codes, N, p, gen):
    rep = gen.random(codes.shape) < p
    return np.where(rep, gen.integers(0, N, size=codes.shape), codes)


def test_grr_keeps_privateclean_draw_order():
    dom = ["a", "b", "c", "d", "e"]
    df = pd.DataFrame({"c": [dom[i % 5] for i in range(200)]})
    for seed in range(5):
        out = grr(df, {"c": 0.35}, domains={"c": dom}, rng=seed).value.data["c"].tolist()
        codes = np.array([i % 5 for i in range(200)], dtype=np.int64)
        ref = _old_privateclean_draws(codes, 5, 0.35, np.random.default_rng(seed))
        assert out == [dom[i] for i in ref]


def test_core_kernel_orders_match_the_former_code():
    codes = np.random.default_rng(0).integers(0, 7, (4, 50))
    for seed in range(3):
        a = core.grr_codes(codes, 7, 0.4, np.random.default_rng(seed))
        assert np.array_equal(a, _old_batch_draws(codes, 7, 0.4, np.random.default_rng(seed)))
        # the declaration's size=R path (stacked instances) draws in the batch order
        assert np.array_equal(grr_sample({"c": (codes, 7, 0.4)}, size=4, rng=np.random.default_rng(seed))[0]["c"], a)
        flat = codes[0]
        b = core.grr_codes(flat, 7, 0.4, np.random.default_rng(seed), draw="replaced")
        assert np.array_equal(b, _old_privateclean_draws(flat, 7, 0.4, np.random.default_rng(seed)))


def test_epsilon_and_p_are_the_cores():
    for p in (0.05, 0.3, 0.9):
        for N in (1, 2, 3, 50):
            assert epsilon_grr(p, N) == core.grr_epsilon(p, N) == math.log1p(N * (1.0 - p) / p)
    for eps in (0.1, 0.7, 1.0, 3.3):
        for N in (1, 2, 3, 17, 50):
            assert p_for_epsilon(eps, N) == core.grr_p_for_epsilon(eps, N) == N / (math.exp(eps) + N - 1.0)


# --- the declarations (issue 23) ---------------------------------------------------------------------------------------
def test_grr_is_the_declarations_release_and_its_plan():
    from dpworkbench.accounting import Accountant
    from dpworkbench.mechanisms.declaration import registry
    from dpworkbench.privateclean.mechanisms import GRR, GRR_LEMMA1, GRR_REGENERATE

    assert {"privateclean.grr", "privateclean.grr_lemma1", "privateclean.grr_regenerate"} <= set(registry("privateclean"))
    assert not GRR.paper_option and GRR_LEMMA1.paper_option and GRR_REGENERATE.paper_option
    df = pd.DataFrame({"c": list("abcab"), "x": [1.0, 2.0, 50.0, np.nan, 3.0]})
    params = dict(discrete={"c": 0.3}, numeric={"x": 2.0}, domains={"c": list("abc")}, bounds={"x": (0, 10)})
    acc = Accountant(total_epsilon=100.0)
    rel = grr(df, rng=1, accountant=acc, **params)
    assert [(e.mechanism, e.epsilon, e.note) for e in rel.ledger] == [(e.mechanism, e.epsilon, e.note) for e in GRR.plan(**params)]
    assert rel.epsilon == pytest.approx(math.log(1 + 3 * 0.7 / 0.3) + 10 / 2.0)
    raw = GRR.release(df, rng=1, **params)  # the declaration's own release: codes, then the noisy numbers
    assert [list("abc")[int(k)] for k in raw.value[0]] == rel.value.data["c"].tolist()
    assert np.array_equal(raw.value[1], rel.value.data["x"].to_numpy())
    with pytest.raises(ValueError, match="accounting must be one of exact"):
        GRR.plan(accounting="paper_lemma1", **params)
    with pytest.raises(ValueError, match="domain of 'c' is a public input"):
        GRR.plan(discrete={"c": 0.3})


def test_grr_sample_draws_the_batch_order_and_the_release_law():
    codes = np.array([0, 1, 2, 2, 1], dtype=np.int64)
    vals = np.arange(5.0)
    V, W = grr_sample({"c": (codes, 3, 0.4)}, {"v": (vals, 1.5)}, size=4, rng=np.random.default_rng(7))
    gen = np.random.default_rng(7)
    ref = core.grr_codes(np.broadcast_to(codes, (4, 5)), 3, 0.4, gen)
    from dpworkbench.mechanisms.backends import NumpyBackend

    assert np.array_equal(V["c"], ref)
    assert np.array_equal(W["v"], NumpyBackend(gen).add_laplace(np.broadcast_to(vals, (4, 5)), 1.5))
    with pytest.raises(ValueError, match="research noise"):
        grr_sample({"c": (codes, 3, 0.4)}, size=2, rng=None)
