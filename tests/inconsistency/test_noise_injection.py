"""RNoise / CONoise / typos (data errors injected into tables, not DP noise)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dpworkbench.inconsistency import FD, build, parse_dc
from dpworkbench.inconsistency.datasets import dcs_for, load_table
from dpworkbench.inconsistency.noise_injection import conoise, rnoise, typo


def test_rnoise_counts_checkpoints_and_seeding():
    ds = load_table("Tax", rows=300, seed=0, prefer="synthetic")
    dcs = dcs_for("Tax")
    cps = list(rnoise(ds.data, dcs, 0.01, rng=4, checkpoint_every=10))
    assert cps[0][0] == 0 and cps[-1][0] == int(0.01 * 300 * 15) == 45
    assert [c[0] for c in cps] == [0, 10, 20, 30, 40, 45]
    again = list(rnoise(ds.data, dcs, 0.01, rng=4, checkpoint_every=10))
    assert cps[-1][1].equals(again[-1][1])
    changed = (cps[-1][1] != ds.data).any(axis=0)
    constrained = {a for d in dcs for a in d.attributes}
    assert set(changed[changed].index) <= constrained
    assert ds.data.equals(load_table("Tax", rows=300, seed=0, prefer="synthetic").data)  # input untouched


def test_rnoise_honours_value_probabilities():
    df = pd.DataFrame({"A": list("abcdefghij") * 20, "B": [1] * 200})
    dcs = [FD("A", "B")]
    counts = {}
    for skew in (0.0, 3.0):
        *_, (_, out) = rnoise(df, dcs, 1.0, typo_prob=0.0, skew=skew, rng=1, n_checkpoints=1, all_columns_count=False)
        counts[skew] = out["A"].value_counts()
    assert counts[3.0].max() > 2 * counts[0.0].max()  # the artifact's slip made both uniform


def test_typo_rules():
    r = np.random.default_rng(0)
    assert typo("abc", r).startswith("abc") and len(typo("abc", r)) == 4
    v = typo(1234, r)
    assert isinstance(v, int) and sum(a != b for a, b in zip(str(v).zfill(4), "1234")) == 1
    d = typo("2019-01-05", r)
    assert len(d) == 10 and d[4] == "-"


def test_conoise_creates_violations():
    ds = load_table("Hospital", rows=400, seed=0, prefer="synthetic")
    dcs = dcs_for("Hospital")
    cps = list(conoise(ds.data, dcs, 40, checkpoint_every=10, rng=2))
    assert [c[0] for c in cps] == [0, 10, 20, 30, 40]
    edges = [build(df, dcs).num_edges for _, df in cps]
    assert edges[0] == 0 and edges[-1] > 0
    gl = [parse_dc("not(t1.Gain<t2.Gain&t1.Loss<t2.Loss)")]
    adult = load_table("Adult", rows=300, seed=0).data
    *_, (_, noisy) = conoise(adult, gl, 20, checkpoint_every=20, rng=0)
    assert build(noisy, gl).num_edges >= 1
