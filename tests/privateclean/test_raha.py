"""The raha cleaning experiment: repair map, parsers, unbiasedness of PrivateClean on real beers, claims can flip."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dpworkbench import datasets
from dpworkbench.experiments.claims import Claims
from dpworkbench.privateclean import claims, raha

HAVE_DATA = datasets.real_path("cleaning/beers/dirty.csv.gz") is not None
needs_data = pytest.mark.skipif(not HAVE_DATA, reason="raha benchmark tables not available")


def test_repair_map_takes_the_majority_clean_value_per_dirty_value():
    dirty = pd.Series(["12 oz", "12 oz", "12 oz", "", "", "16"])
    clean = pd.Series(["12", "12", "16", "CA", "WI", "16"])
    m = raha.repair_map(dirty, clean)
    assert m == {"12 oz": "12", "": "CA", "16": "16"}  # tie between CA and WI → the first in order


def test_owner_parsers():
    assert raha.parse_number("0.05%", 0.0) == 0.05 and raha.parse_number("N/A", -1.0) == -1.0 and raha.parse_number("12.0 oz.", 0) == 12.0
    assert raha._minutes("7:10 a.m.", 0) == 430 and raha._minutes("12:05 p.m.", 0) == 725 and raha._minutes("12:05 a.m.", 0) == 5
    assert raha._minutes("Dec 1", 720.0) == 720.0


def test_missing_data_is_one_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv("DPWB_DATA", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="cleaning/beers/dirty.csv.gz .* no stand-in"):
        raha.load_pair("beers")
    with pytest.raises(ValueError, match="dataset"):
        raha.load_pair("tax")


@needs_data
def test_beers_profile_and_truth():
    prep = raha.prepare("beers")
    assert prep.stats["dirty_values"] == 25 and prep.stats["clean_values"] == 7 and prep.stats["value_map_accuracy"] == 1.0
    assert prep.residual["count"] == 0.0
    assert prep.truth["count"] == 1525.0  # rows whose clean can size is 12 oz


@needs_data
def test_privateclean_count_is_unbiased_and_direct_is_not():
    """Over seeded repetitions at p = 0.3, PrivateClean's mean COUNT is within 4 standard errors of the clean answer
    (the repair map is exact on beers, so only the privacy noise remains); Direct is biased by Prop. 2."""
    prep = raha.prepare("beers")
    rows = [r for s in range(40) for r in raha.run_once(prep, 0.3, rng=s) if r["agg"] == "count"]
    df = pd.DataFrame(rows)
    pc = df[df.method == "privateclean"].estimate
    direct = df[df.method == "direct"].estimate
    t = prep.truth["count"]
    assert abs(pc.mean() - t) <= 4 * pc.std(ddof=1) / math.sqrt(len(pc))
    # Prop. 2: E[direct] − truth = S·p·(l/N − s), l = dirty values the repair maps to '12', N = the dirty domain:
    S, p = prep.stats["rows"], 0.3
    l = sum(1 for v in prep.domain if prep.mapping[v] == "12")
    bias = S * p * (l / len(prep.domain) - t / S)
    assert abs(direct.mean() - (t + bias)) <= 4 * direct.std(ddof=1) / math.sqrt(len(direct)) + 1e-9
    assert abs(bias) > 8 * direct.std(ddof=1) / math.sqrt(len(direct))  # the bias is detectable, not noise


@needs_data
def test_claims_follow_the_results():
    preps = {"beers": raha.prepare("beers")}
    good = pd.DataFrame([
        {"dataset": "beers", "p": p, "agg": "count", "method": m, "median": v, "q25": v, "q75": v, "runs": 5, "coverage": 0.95}
        for p in (0.1, 0.5) for m, v in (("direct", 0.3), ("privateclean", 0.01), ("pc_noprov", 0.1))])
    c = Claims()
    claims.raha_cleaning(c, good, preps)
    assert all(r.verdict == "pass" for r in c.rows), [(r.claim, r.verdict) for r in c.rows]
    from dpworkbench.experiments.claims import flip_value, reevaluate

    for r in c.rows:  # every claim can come out the other way
        d = {"rule": r.rule, "value": r.value, "our_value": r.our_value}
        assert reevaluate(d, flip_value(d)) != r.verdict, r.claim
    bad = good.copy()
    bad.loc[bad.method == "privateclean", "median"] = 0.5  # worse than Direct and no-provenance, above 5 %
    bad["coverage"] = 0.5
    c2 = Claims()
    claims.raha_cleaning(c2, bad, preps)
    flipped = [r.verdict for r in c2.rows if "residual" not in r.claim]
    assert flipped and all(v == "differs" for v in flipped)


@needs_data
def test_run_through_run_grid_is_tidy(tmp_path):
    df = raha.run({"dataset": ["rayyan"], "p": [0.2]}, repetitions=2, seed=1, results_dir=tmp_path)
    assert len(df) == 2 * len(raha.AGGS) * len(raha.METHODS)
    assert set(df.method) == set(raha.METHODS) and np.isfinite(df.rel_error).all()
    again = raha.run({"dataset": ["rayyan"], "p": [0.2]}, repetitions=2, seed=1, results_dir=tmp_path / "b")
    pd.testing.assert_series_equal(df.sort_values(["cell_id", "agg", "method"]).estimate.reset_index(drop=True),
                                   again.sort_values(["cell_id", "agg", "method"]).estimate.reset_index(drop=True))


def test_flights_direct_winning_by_the_cleaning_residual_is_named():
    """Measured (quick): on flights the value map over-counts by 214 %, PrivateClean's error is that residual at every p
    (2.13–2.14) and Direct's privacy bias pulls the over-count toward the truth — the claim says so instead of a bare
    'expectation did not hold'; when PrivateClean's error is not the residual the generic suspicion stays."""
    from types import SimpleNamespace

    preps = {"flights": SimpleNamespace(residual={"count": 2.142})}

    def summ(pc_err: float) -> pd.DataFrame:
        return pd.DataFrame([{"dataset": "flights", "p": p, "agg": "count", "method": m, "median": v, "q25": v, "q75": v,
                              "runs": 5, "coverage": 0.0}
                             for p, direct in ((0.05, 2.00), (0.5, 0.76)) for m, v in (("direct", direct), ("privateclean", pc_err))])

    name = "flights: " + raha.EXPECTATIONS["pc_beats_direct"]
    c = Claims()
    claims.raha_cleaning(c, summ(2.131), preps)
    row = next(r for r in c.rows if r.claim == name)
    assert row.verdict == "differs" and "cleaning residual 2.142" in row.cause and "2.000 at p = 0.05" in row.cause, row.cause
    c2 = Claims()
    claims.raha_cleaning(c2, summ(1.2), preps)
    assert next(r for r in c2.rows if r.claim == name).cause == "open:a pre-registered expectation on a Raha benchmark did not hold"
