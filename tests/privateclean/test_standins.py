import numpy as np
import pandas as pd
import pytest

from dpworkbench.privateclean import CleanedRelation, edit_distance_merge, estimate, grr
from dpworkbench.privateclean.datasets import intel_like, mcafe_like
from dpworkbench.privateclean.experiments import run_intel, run_mcafe, run_tpcds
from dpworkbench.privateclean.synthetic import run_instance


def test_intel_like_shape_and_cells():
    df = intel_like(0, scale=0.002)
    assert len(df) == 4600 and df["sensor_id"].nunique(dropna=False) <= 68
    rows = pd.DataFrame(run_intel({"p": 0.1, "scale": 0.002}, 1))
    assert set(rows["method"]) == {"direct", "privateclean", "dirty_nonprivate"}


def test_mcafe_and_tpcds_cells_run():
    df, codes = mcafe_like(0)
    assert len(df) == 406 and len(codes) == 85
    assert len(run_mcafe({"p": 0.1}, 0)) == 4
    assert len(run_tpcds({"S": 2000, "corruptions": 100}, 0)) == 4


def test_edit_distance_merge():
    m = edit_distance_merge(["United States"] * 5 + ["United Statesx", "Canada"])
    assert m == {"United Statesx": "United States"}


def test_null_category_and_released_domain():
    df = pd.DataFrame({"c": [None, 1, 2, 2, 100] * 20, "x": np.arange(100.0)})
    rel = grr(df[["c"]], {"c": 0.2}, domains={"c": [None, 1, 2, 100, 101]}, rng=0).value
    crel = CleanedRelation.start(rel).merge("c", {100: None, 101: None})
    e = estimate(crel, "count", "c", lambda v: v is not None)
    assert e.meta["N"] == 5 and e.meta["l"] == 2
    assert df["c"].isna().sum() == 20  # input untouched


def test_synthetic_cell_query_top():
    rows = pd.DataFrame(run_instance({"query_mode": "top", "p": 0.1}, 0))
    assert {"direct", "privateclean", "pc_noprov", "dirty_nonprivate"} <= set(rows["method"])


def test_matched_b_and_privacy_table():
    from dpworkbench.privateclean import epsilon_grr
    from dpworkbench.privateclean.datasets import INTEL_DOMAIN, TEMP_RANGE
    from dpworkbench.privateclean.experiments import matched_b, privacy_table, run_intel_batch

    assert matched_b(100.0, 0.1, 50) == pytest.approx(100.0 / np.log(3 / 0.1 - 2))      # Appendix E / §8.3.5 setting
    assert matched_b(100.0, 0.1, 50, "exact") == pytest.approx(100.0 / epsilon_grr(0.1, 50))
    with pytest.raises(ValueError, match="epsilon_convention"):
        matched_b(100.0, 0.1, 50, "lemma")
    t = privacy_table([0.1, 0.5], TEMP_RANGE, len(INTEL_DOMAIN))
    assert np.allclose(t["ε numeric Δ/b"], t["ε discrete paper ln(3/p−2)"])
    assert (t["ε total exact"] > t["ε total paper"]).all()  # Lemma 1 understates the discrete ε on 68 values
    rows = pd.DataFrame(run_intel_batch({"p": 0.3, "scale": 0.002, "batch": 5, "epsilon_convention": "exact"}, 0))
    assert set(rows["method"]) == {"direct", "privateclean", "dirty_nonprivate"}


def test_intel_batch_in_chunks_covers_every_instance_and_keeps_the_law(monkeypatch):
    """The full Intel table × 100 instances is drawn in chunks (it took > 11 GB at once): every instance appears once,
    and the chunked errors follow the same law as one block."""
    import numpy as np
    import pandas as pd

    from dpworkbench.privateclean import experiments as standins

    assert standins._chunks(10, 3) == [(0, 10)]
    blocks = standins._chunks(100, 2_300_000)
    assert sum(r for _, r in blocks) == 100 and all(r * 2_300_000 <= standins.CHUNK_ELEMENTS for _, r in blocks)
    assert [s for s, _ in blocks] == list(np.cumsum([0] + [r for _, r in blocks[:-1]]))
    cell = {"p": 0.2, "scale": 0.005, "batch": 60}
    whole = pd.DataFrame(standins.run_intel_batch(dict(cell), np.random.default_rng(1)))
    monkeypatch.setattr(standins, "CHUNK_ELEMENTS", 7 * 12_000)  # a few instances per chunk
    parts = pd.DataFrame(standins.run_intel_batch(dict(cell), np.random.default_rng(1)))
    assert sorted(parts["instance"].unique()) == list(range(60))
    assert len(parts) == len(whole)
    for (agg, method), g in parts.groupby(["agg", "method"]):
        w = whole[(whole["agg"] == agg) & (whole["method"] == method)]["rel_error"]
        if method == "dirty_nonprivate":
            assert np.allclose(g["rel_error"], w.to_numpy())
        else:  # different draws, same law: means within 4 standard errors
            se = np.hypot(g["rel_error"].std(), w.std()) / np.sqrt(60)
            assert abs(g["rel_error"].mean() - w.mean()) <= 4 * se + 1e-12, (agg, method)
