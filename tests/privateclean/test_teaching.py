"""Widget views of the PrivateClean teaching notebooks and the Fig. 8 paired difference, checked against
independent computations (closed forms, direct calls of the underlying generator / panels)."""
import math
import re

import numpy as np
import pandas as pd
import pytest

from dpworkbench import cache
from dpworkbench.privateclean import experiments
from dpworkbench.privateclean import teaching
from dpworkbench.privateclean.batch import run_batch

BLUE, RED = "#1f77b4", "#d62728"


def _hline_y(fig):
    (shape,) = fig.layout.shapes
    assert shape.y0 == shape.y1
    return shape.y0


def _vline_x(fig):
    (shape,) = fig.layout.shapes
    assert shape.x0 == shape.x1
    return shape.x0


def test_ci_forest_matches_the_generator_and_caches_the_batch():
    eps, n, seed = 3.0, 20, 3
    p = round(50 / (math.exp(eps) + 49), 4)  # exact GRR p on the 50-value domain
    ref = pd.DataFrame(run_batch({"p": p, "batch": n, "aggs": ("count",), "methods": ("privateclean",), "query_mode": "top"},
                                 np.random.default_rng(seed)))
    ref = ref[ref.method == "privateclean"].reset_index(drop=True)
    cache.clear("privateclean.teaching.ci_releases", disk=False)
    fig = teaching.ci_forest(eps, n=n, seed=seed)
    pts, truth = fig.data
    assert len(pts.y) == len(ref) == n
    np.testing.assert_allclose(pts.y, ref.estimate)
    np.testing.assert_allclose(truth.y, ref.truth)
    np.testing.assert_allclose(pts.error_y.array, ref.width / 2)
    # colour = does estimate ± half-width (symmetric CLT count interval) contain the truth
    covers = np.abs(ref.estimate - ref.truth) <= ref.width / 2 + 1e-9
    assert list(pts.marker.color) == [BLUE if c else RED for c in covers]
    share = re.search(r"(\d+)% of (\d+) intervals", fig.layout.title.text)
    assert int(share.group(1)) == round(100 * covers.mean()) and int(share.group(2)) == n
    assert f"p = {p:.3f}" in fig.layout.title.text
    # the ε slider moving back to the same value reuses the cached batch; a new ε redraws only the noise
    hits = cache.stats()["hits"]
    assert teaching.ci_forest(eps, n=n, seed=seed).to_json() == fig.to_json()
    assert cache.stats()["hits"] == hits + 1
    other = teaching.ci_forest(8.0, n=n, seed=seed)
    np.testing.assert_allclose(other.data[1].y, truth.y)  # same seed: same true relations
    assert not np.allclose(other.data[0].y, pts.y)


def test_epsilon_to_p_figure_closed_forms():
    for eps in (0.3, 2.0, 7.5):
        fig = teaching.epsilon_to_p_figure(eps, Ns=(2, 3, 50))
        (bars,) = fig.data
        assert list(bars.x) == ["2", "3", "50"]
        np.testing.assert_allclose(bars.y, [n / (math.exp(eps) + n - 1) for n in (2, 3, 50)])
        assert _hline_y(fig) == pytest.approx(3 / (math.exp(eps) + 2))
        assert bars.y[1] == pytest.approx(_hline_y(fig))  # the paper's formula is exact for N = 3 only


def test_tuning_view_curves_and_tuned_p():
    fig, t = teaching.tuning_view(9_999.6, 0.05, 0.95, 100.0)
    assert int(t["S"].iloc[0]) == 10_000
    pd.testing.assert_frame_equal(t, teaching.tuning_calculator(10_000, 0.05, 0.95, 100.0).round(4))
    assert t["p"].iloc[0] == pytest.approx(0.804, abs=1e-3)  # spec §4 worked value
    paper, exact = fig.data
    ps = np.asarray(paper.x)
    np.testing.assert_allclose(ps, np.linspace(0.01, 0.95, 60))
    np.testing.assert_allclose(paper.y, np.log(3 / ps - 2))
    np.testing.assert_allclose(exact.y, np.log(1 + 50 * (1 - ps) / ps))
    assert _vline_x(fig) == pytest.approx(t["p"].iloc[0], abs=1e-4)


def test_grr_knob_panel_sets_p_from_epsilon_or_takes_it():
    eps, N, S = 4.0, 10, 1500.4
    p_exact = N / (math.exp(eps) + N - 1)
    fig, tab = teaching.grr_knob_panel("epsilon", eps, 0.7, 2.0, N, S, seed=1)
    ref, ref_tab = teaching.grr_panel(p_exact, N=N, z=2.0, S=1500, seed=1)
    assert fig.to_json() == ref.to_json()
    pd.testing.assert_frame_equal(tab, ref_tab)
    assert tab["ε exact ln(1+N(1−p)/p)"].iloc[0] == pytest.approx(eps, abs=1e-3)
    fig_p, tab_p = teaching.grr_knob_panel("p", eps, 0.7, 2.0, N, S, seed=1)
    assert f"p={0.7:.2f}" in fig_p.layout.title.text
    assert tab_p["ε exact ln(1+N(1−p)/p)"].iloc[0] == pytest.approx(math.log(1 + N * 0.3 / 0.7), abs=1e-3)
    with pytest.raises(ValueError, match="knob"):
        teaching.grr_knob_panel("delta", eps, 0.7, 2.0, N, S)


def test_cleaning_views_and_fresh_controls():
    fig, graph, table = teaching.cleaning_panel(2.5, 0.1, 0.5, seed=2)
    vfig, vtable = teaching.cleaning_view(2.5, 0.1, 0.5, seed=2)
    assert vfig.to_json() == fig.to_json()
    pd.testing.assert_frame_equal(vtable, table)
    assert teaching.cleaning_graph_view(2.5, 0.1, 0.5, seed=2).to_json() == graph.to_json()
    a = teaching.cleaning_controls(3.0, 0.1, 0.5)
    b = teaching.cleaning_controls(3.0, 0.1, 0.5)
    assert list(a) == ["epsilon", "error_rate", "merge_rate"]
    assert [a[k].value for k in a] == pytest.approx([3.0, 0.1, 0.5])
    assert all(a[k] is not b[k] for k in a)  # one set of widgets per panel
    assert a["epsilon"].min == pytest.approx(math.log10(0.5)) and a["epsilon"].max == pytest.approx(1.0)
    # since 22e2fe9 a slider range never restricts a headless run: ε = 20 widens the slider instead of failing
    wide = teaching.cleaning_controls(20.0)["epsilon"]
    assert wide.value == pytest.approx(20.0) and wide.max == pytest.approx(math.log10(20.0))


def test_paired_difference_against_numpy():
    gen = np.random.default_rng(7)
    rows = [{"agg": agg, "corruptions": c, "repetition": r, "method": m, "rel_error": float(gen.random())}
            for agg in ("a_state_fd", "b_country_md") for c in (0, 50) for r in range(5)
            for m in ("direct", "privateclean", "pc_noprov")]
    df = pd.DataFrame(rows)
    for agg in ("a_state_fd", "b_country_md"):
        t = df[(df["agg"] == agg) & (df["corruptions"] == 50)]
        pc = t[t.method == "privateclean"].sort_values("repetition")["rel_error"].to_numpy()
        d = t[t.method == "direct"].sort_values("repetition")["rel_error"].to_numpy()
        m, se = experiments.paired_difference(df, agg, "corruptions", 50)
        assert m == pytest.approx(np.mean(pc - d))
        assert se == pytest.approx(np.std(pc - d, ddof=1) / np.sqrt(5))
    m, se = experiments.paired_difference(df, "a_state_fd", "corruptions", 0, a="pc_noprov")
    t = df[(df["agg"] == "a_state_fd") & (df["corruptions"] == 0)].pivot(index="repetition", columns="method", values="rel_error")
    assert m == pytest.approx((t["pc_noprov"] - t["direct"]).mean())
    one = df[df["repetition"] == 0]
    m1, se1 = experiments.paired_difference(one, "a_state_fd", "corruptions", 50)
    r0 = one[(one["agg"] == "a_state_fd") & (one["corruptions"] == 50)].set_index("method")["rel_error"]
    assert m1 == pytest.approx(r0["privateclean"] - r0["direct"])
    assert math.isnan(se1)
    with pytest.raises(ValueError, match="PC-W"):
        experiments.paired_difference(df, "a_state_fd", "corruptions", 50, a="PC-W")
