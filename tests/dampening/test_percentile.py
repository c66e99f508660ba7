"""Percentile selection: the sensitivity function's proof checked by brute force, the exact DP ratio of all four
mechanisms, the release and its CLI."""

import json

import numpy as np
import pytest

from dpworkbench.cli import main
from dpworkbench.dampening import median as M
from dpworkbench.dampening import percentile as Q
from dpworkbench.dampening.model import SensitivityFunction
from dpworkbench.dampening import mechanisms as DM
from dpworkbench.experiments.metrics import absolute_error

LEVELS = (0.1, 0.25, 0.5, 0.75, 0.9, 1.0)


def substitutions(x, lam):
    for i in range(len(x)):
        for v in range(lam + 1):
            if v != x[i]:
                y = np.array(x, float); y[i] = v
                yield y


def small(seed, count, nmax=6, lammax=5):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n, lam = int(rng.integers(1, nmax + 1)), int(rng.integers(1, lammax + 1))
        yield rng.integers(0, lam + 1, n).astype(float), lam, float(rng.choice(LEVELS))


def test_quantile_rank_is_the_median_rank_at_one_half_and_exact_in_float():
    assert [Q.quantile_rank(n, 0.5) for n in range(1, 8)] == [1, 1, 2, 2, 3, 3, 4]
    assert Q.quantile_rank(10, 0.7) == 7 and Q.quantile_rank(10, 0.9) == 9 and Q.quantile_rank(3, 1.0) == 3
    assert Q.quantile_rank(100, 0.001) == 1


def test_lemma1_bound_never_below_the_exact_element_ls_and_often_tight():
    tight = total = 0
    for x, lam, p in small(0, 400):
        bf = Q.ls0_bruteforce(x, lam, p)
        b = Q.ls0_bound(x, lam, p)
        assert np.all(b >= bf - 1e-12), (x, lam, p)
        tight += int(np.sum(np.isclose(b, bf))); total += x.size
    assert tight / total > 0.5      # measured 0.64: a bound, not a gross over-estimate


def test_delta_never_below_exact_ls_at_distance_t():
    for x, lam, p in small(1, 40, nmax=4, lammax=3):
        for t in (1, 2):
            assert np.all(Q.percentile_delta(x, t, lam, p) >= Q.ls_bruteforce(x, t, lam, p) - 1e-12)


def _sf(lam, p, fn=None):  # the module's own δ (percentile_sensitivity), or a deliberately wrong one
    return SensitivityFunction(fn, lam, name="test") if fn else Q.percentile_sensitivity(lam, p)


def test_admissible_by_brute_force_on_small_inputs():
    for x, lam, p in small(2, 80, nmax=5, lammax=4):
        bad = _sf(lam, p).check_admissible([x], lambda y: substitutions(y, lam),
                                           lambda y: Q.ls0_bruteforce(y, lam, p), t_max=3)
        assert bad == [], bad[0]
        assert _sf(lam, p).check_bounded([x], lambda y: y.size) == []


def test_admissibility_check_fails_on_deliberately_wrong_sensitivity_functions():
    x, lam, p = np.array([0, 1, 3, 4, 4.0]), 4, 0.9
    nb = lambda y: substitutions(y, lam)  # noqa: E731
    ls0 = lambda y: Q.ls0_bruteforce(y, lam, p)  # noqa: E731
    # (a) the box without its widening in t (M_0 for every t), at the median of (1, 2, 2, 2, 3): condition 2 fails
    #     (moving a 2 to 4 raises X_(k+1) from 2 to 3, so the neighbour's δ at t = 0 exceeds this δ at t = 1)
    xa, pa = np.array([1, 2, 2, 2, 3.0]), 0.5
    no_shift = lambda y, t: (Q.ls0_bound(y, lam, pa) if t == 0 else np.full(y.size, min(lam, max(  # noqa: E731
        Q.order_stat(np.sort(y), 4, lam), lam - Q.order_stat(np.sort(y), 2, lam)))))
    with pytest.raises(ValueError, match="condition 2 fails"):
        _sf(lam, pa, no_shift).assert_admissible([xa], nb, lambda y: Q.ls0_bruteforce(y, lam, pa))
    _sf(lam, pa).assert_admissible([xa], nb, lambda y: Q.ls0_bruteforce(y, lam, pa))
    # (b) the median's exact LS0 used for the 0.9-quantile (the wrong rank): condition 1 fails
    wrong_rank = lambda y, t: M.ls0_elements(y, lam) if t == 0 else Q.percentile_delta(y, t, lam, p)  # noqa: E731
    with pytest.raises(ValueError, match="condition 1 fails"):
        _sf(lam, p, wrong_rank).assert_admissible([x], nb, ls0)
    # (c) Lemma 1 without its M_0 − |u| term: condition 1 fails
    no_far = lambda y, t: (np.maximum(np.abs(Q.percentile_utility(y, lam, p)), 1.0) if t == 0  # noqa: E731
                           else Q.percentile_delta(y, t, lam, p))
    with pytest.raises(ValueError, match="condition 1 fails"):
        _sf(lam, p, no_far).assert_admissible([x], nb, ls0)
    _sf(lam, p).assert_admissible([x], nb, ls0)      # the real one passes on the same input


@pytest.mark.parametrize("eps", [0.5, 3.0])
def test_exact_dp_ratio_over_all_neighbours(eps):
    worst = {}
    for x, lam, p in small(3, 15, nmax=5, lammax=4):
        laws = {m: Q.selection_log_probabilities(x, lam, p, eps, m) for m in Q.MECHANISMS}
        for y in substitutions(x, lam):
            for m in Q.MECHANISMS:
                ly = Q.selection_log_probabilities(y, lam, p, eps, m)
                with np.errstate(invalid="ignore"):
                    d = np.abs(laws[m] - ly)
                worst[m] = max(worst.get(m, 0.0), float(np.nanmax(d)))
    for m, w in worst.items():
        assert w <= eps * (1 + 1e-6), (m, w)


def test_release_ledger_public_and_median_equivalence():
    rng = np.random.default_rng(5)
    vals = rng.integers(0, 101, 301).astype(float)
    for mech in Q.MECHANISMS:
        r = DM.select_percentile(vals, 0.9, lower=0, upper=100, epsilon=50, mechanism=mech, rng=1)
        assert r.private and 0 <= r.value < 301 and sum(e.epsilon for e in r.ledger) == pytest.approx(50)
        assert r.public["rank"] == 271 and r.exact["true_percentile"] == np.sort(vals)[270]
        assert absolute_error(r.exact["selected_value_clipped"], r.exact["true_percentile"]) <= 15
    # p = 0.5 is the median rank: EM and PF (no δ) draw exactly what select_median draws with the same seed
    for mech in ("EM", "PF"):
        a = DM.select_percentile(vals, 0.5, lower=0, upper=100, epsilon=2, mechanism=mech, rng=7).value
        b = DM.select_median(vals, lower=0, upper=100, epsilon=2, mechanism=mech, rng=7).value
        assert a == b


def test_release_is_total_nan_and_inf_mapped_by_public_rules():
    r = DM.select_percentile([np.nan, np.inf, -np.inf, 5.0, 1e9], 0.9, lower=0, upper=10, epsilon=1, rng=0)
    assert 0 <= r.value < 5


@pytest.mark.parametrize("bad", [0, -0.1, 1.5, float("nan"), "x"])
def test_bad_p_refused(bad):
    with pytest.raises(ValueError, match=r"^p must be (a finite float )?in \(0, 1\], got"):
        DM.select_percentile([1.0, 2.0], bad, lower=0, upper=10, epsilon=1, rng=0)


@pytest.mark.parametrize("bad, match", [({"epsilon": -1}, "^epsilon must be > 0"), ({"p": 2.0}, r"^p must be in \(0, 1\]"),
                                        ({"lower": 5, "upper": 1}, "upper"), ({"horizon": 0}, "^horizon must be ≥ 1")])
def test_column_release_refuses_bad_parameters_before_reading_the_file(tmp_path, bad, match):
    """From Python too (the command checks its flags first), a bad public parameter is refused before the file is
    opened: a path that does not exist is never reached."""
    params = {"lower": 0.0, "upper": 10.0, "missing": None, "epsilon": 1.0, "horizon": 32, "p": 0.3, **bad}
    with pytest.raises(ValueError, match=match):
        DM.release_column_quantile(tmp_path / "absent.csv", "x", mechanism="LD", rng=0, **params)
    out = DM.release_column_quantile(_csv(tmp_path), "x", mechanism="LD", rng=0,
                                     **{**params, "lower": 0.0, "upper": 10.0, "epsilon": 1.0, "horizon": 32, "p": 0.3})
    assert 0 <= out.value < 5


def _csv(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("x\n1\n2\n3\n4\n5\n")
    return path


def test_sld_never_worse_than_em_and_ld_gains_on_concentrated_data():
    rng = np.random.default_rng(6)
    x = np.clip(np.round(rng.normal(60, 3, 400)), 0, 100)
    errs = {m: Q.expected_error(x, 100, 0.9, 5.0, m) for m in Q.MECHANISMS}
    assert errs["PF"] <= errs["EM"] + 1e-9
    assert errs["LD"] < errs["EM"]


def test_cli_percentile(tmp_path, capsys):
    rng = np.random.default_rng(0)
    vals = rng.integers(0, 101, 301)
    p = tmp_path / "x.csv"
    p.write_text("id,val\n" + "\n".join(f"{i},{v}" for i, v in enumerate(vals)))
    q90 = np.sort(vals)[Q.quantile_rank(301, 0.9) - 1]
    for mech in Q.MECHANISMS:
        assert main(["dampening", "percentile", str(p), "--p", "0.9", "--column", "val", "--upper", "100",
                     "--mechanism", mech, "--epsilon", "50", "--seed", "1", "--json"]) == 0
        out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        row = out["private"]["row"]
        assert set(out["private"]) == {"row"} and "NOT_PRIVATE" not in out and out["epsilon_spent"] == 50
        assert out["public"]["p"] == 0.9 and abs(vals[row] - q90) <= 15
    # --p is public and checked before the file is read: a missing file does not change the message
    assert main(["dampening", "percentile", str(tmp_path / "nope.csv"), "--p", "2", "--column", "val",
                 "--upper", "1"]) == 2
    assert "--p must be in (0, 1], got 2.0" in capsys.readouterr().err
    with pytest.raises(SystemExit):                                                             # --p required
        main(["dampening", "percentile", str(p), "--column", "val", "--upper", "100"])
