"""Every ε-spending R2T function returns a Release whose ledger is its pure privacy_cost plan."""

from __future__ import annotations

import numpy as np
import pytest

from dpworkbench.accounting import Accountant, Release, check_ledger_matches
from dpworkbench.graphs import from_edge_array
from dpworkbench.r2t import baselines as B
from dpworkbench.r2t import from_lists
from dpworkbench.r2t.mechanisms import (exp_opt2, fixed_tau, naive_laplace, opt2, privacy_cost_exp_opt2,
                                        privacy_cost_laplace, privacy_cost_opt2, privacy_cost_r2t, r2t, random_tau)
from dpworkbench.r2t.patterns import graph_joininfo

E = np.array([[0, 1], [0, 2], [0, 3], [1, 2], [3, 4], [4, 5], [1, 3]])


@pytest.fixture(scope="module")
def graph():
    return from_edge_array(E, n=6)


@pytest.fixture(scope="module")
def info(graph):
    return graph_joininfo(graph, "edge")


def test_plans_match_ledgers(info, graph):
    sjf = from_lists(np.ones(6), [[0], [0], [1], [2], [2], [2]], n=3)
    cases = [
        (lambda a: r2t(info, epsilon=0.7, gs=64, base=2.0, rng=1, accountant=a), privacy_cost_r2t(0.7, 64, 2.0)),
        (lambda a: r2t(info, epsilon=0.7, gs=100, base=5.5, rounding="floor", rng=1, accountant=a),
         privacy_cost_r2t(0.7, 100, 5.5, "floor")),
        (lambda a: opt2(info, epsilon=0.7, rng=1, accountant=a), privacy_cost_opt2(0.7)),
        (lambda a: exp_opt2(info, epsilon=0.7, rng=1, accountant=a), privacy_cost_exp_opt2(0.7)),
        (lambda a: naive_laplace(info, epsilon=0.7, gs=8, rng=1, accountant=a), privacy_cost_laplace(0.7)),
        (lambda a: fixed_tau(info, 4, epsilon=0.7, rng=1, accountant=a), privacy_cost_laplace(0.7, "lp-fixed-tau")),
        (lambda a: random_tau(info, epsilon=0.7, gs=8, rng=1, accountant=a), privacy_cost_laplace(0.7, "lp-fixed-tau")),
        (lambda a: B.rm(info, epsilon=0.7, rng=1, accountant=a), B.privacy_cost_rm(0.7)),
        (lambda a: B.ls(sjf, epsilon=0.7, gs=8, rng=1, accountant=a), B.privacy_cost_ls(0.7)),
        (lambda a: B.nt(graph, "edge", epsilon=0.7, degree_bound=8, rng=1, accountant=a), B.privacy_cost_nt(0.7)),
        (lambda a: B.sde(graph, "edge", epsilon=0.7, degree_bound=8, rng=1, accountant=a), B.privacy_cost_sde(0.7)),
    ]
    for run, plan in cases:
        acc = Accountant(0.7)
        rel = run(acc)
        assert isinstance(rel, Release)
        check_ledger_matches(plan, rel.ledger)
        check_ledger_matches(plan, acc.entries)
        assert rel.epsilon == pytest.approx(0.7)


def test_result_views_keep_their_attributes(info):
    res = r2t(info, epsilon=1.0, gs=16, rng=0)
    assert res.winner_tau == res.details["winner_tau"] and res["output"] == res.value
    assert res.truncated.shape == res.taus.shape and res.extra["K"] == 4 and res.epsilon == pytest.approx(1.0)
    o = opt2(info, epsilon=1.0, rng=0)
    assert o.tau == 2.0 ** o.level and "noisy_threshold" in o.exact and "noisy_threshold" not in o.details
    assert B.rm(info, epsilon=1.0, rng=0)["value"] == B.rm(info, epsilon=1.0, rng=0).value
