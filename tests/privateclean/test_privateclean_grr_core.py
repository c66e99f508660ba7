"""PrivateClean's GRR is the core's (dpworkbench.mechanisms.core.grr_codes / grr_epsilon / grr_p_for_epsilon), with
its own draw order kept: seeded outputs are those of the former in-module implementation (written out here)."""

import math

import numpy as np
import pandas as pd

from dpworkbench.mechanisms import core
from dpworkbench.privateclean import epsilon_grr, grr, p_for_epsilon
from dpworkbench.privateclean.batch import grr_codes as batch_grr_codes


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
        assert np.array_equal(batch_grr_codes(codes, 7, 0.4, np.random.default_rng(seed)), a)
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
