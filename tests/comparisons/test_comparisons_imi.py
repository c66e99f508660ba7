"""R2T on I_MI (:mod:`dpworkbench.comparisons.imi`): the query's truncation, the release and its ledger."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpworkbench.accounting import Accountant, Release, check_ledger_matches
from dpworkbench.comparisons import imi_truncation, r2t_imi
from dpworkbench.r2t.mechanisms import privacy_cost_r2t

E = np.array([[0, 1], [0, 2], [0, 3], [1, 2], [3, 4], [4, 5], [1, 3]])


def test_r2t_imi_api():
    edges = np.array([[0, 1], [1, 2], [2, 0], [3, 4], [1, 1]])
    out = r2t_imi(edges, 10, epsilon=1.0, rng=0)
    assert out["true"] == 4 and out["DS"] == 2 and math.isfinite(out["value"]) and out["value"] >= 0
    acc = Accountant(1.0)
    r2t_imi(edges, 10, epsilon=1.0, base=5.5, rounding="floor", rng=0, accountant=acc)
    assert acc.spent == pytest.approx(1.0)


def test_imi_truncation_is_reused_and_matches_one_shot():
    rng = np.random.default_rng(4)
    edges = np.unique(np.sort(rng.integers(0, 40, size=(150, 2)), axis=1), axis=0)
    tr = imi_truncation(edges, 40)
    a = r2t_imi(None, 40, epsilon=1.0, truncation=tr, rng=7)
    b = r2t_imi(edges, 40, epsilon=1.0, rng=7)
    assert a["value"] == b["value"] and a["true"] == b["true"] == int((edges[:, 0] != edges[:, 1]).sum())
    solved = len(tr.log)
    r2t_imi(None, 40, epsilon=0.5, truncation=tr, rng=8)  # same τ grid: every Q(I,τ) comes from the cache
    assert all(rec.tau in tr._cache for rec in tr.log) and len(tr.log) == solved
    with pytest.raises(ValueError, match="n_tuples"):
        imi_truncation(np.array([[0, 50]]), 40)


def test_plan_matches_ledger():
    acc = Accountant(0.7)
    rel = r2t_imi(E, 6, epsilon=0.7, gs=8, rng=1, accountant=acc)
    assert isinstance(rel, Release)
    check_ledger_matches(privacy_cost_r2t(0.7, 8), rel.ledger)
    check_ledger_matches(privacy_cost_r2t(0.7, 8), acc.entries)
    assert rel.epsilon == pytest.approx(0.7)


def test_data_derived_gs_is_listed():
    assert r2t_imi(E, 6, epsilon=1.0, rng=0).derived_public == ("GS_Q",)
    assert r2t_imi(E, 6, epsilon=1.0, gs=8, rng=0).derived_public == ()
