"""The harness itself: it passes a private COUNT and flags a COUNT released with half the noise or with the
data's own size as a clip bound (the shapes of findings 3 and 6)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dpworkbench.mechanisms import laplace_mechanism
from dpworkbench.testing.harness import EntryPoint, check_entry_point, markdown_table, node_neighbours, row_neighbours


def _tables(rng):
    return [pd.DataFrame({"a": rng.integers(0, 3, size=k)}) for k in (4, 6)]


def _entry(release, name="count", expect=False):
    return EntryPoint(
        name=name, kind="api", paper="core", relation="add/remove one row at any position", claimed_epsilon=1.0,
        public_inputs=(), make_inputs=_tables, neighbours=lambda df: row_neighbours(df, df.iloc[:1]),
        statistics=lambda df: {"count": float((df["a"] == 0).sum())}, sensitivities={"count": 1.0},
        release=release, expect_flagged=expect, n_samples=6000,
    )


def test_harness_passes_private_count():
    rep = check_entry_point(_entry(lambda df, rng: laplace_mechanism(float((df["a"] == 0).sum()), epsilon=1.0,
                                                                     sensitivity=1.0, rng=rng)))
    assert rep.sensitivity.pairs > 10 and not rep.flagged, str(rep)


def test_harness_flags_half_noise_and_data_size_clip():
    half = _entry(lambda df, rng: laplace_mechanism(float((df["a"] == 0).sum()), epsilon=2.0, sensitivity=1.0,
                                                    rng=rng), expect=True)
    assert check_entry_point(half).flagged
    clipped = _entry(lambda df, rng: min(laplace_mechanism(float((df["a"] == 0).sum()), epsilon=1.0, sensitivity=1.0,
                                                           rng=rng), float(len(df))), expect=True)
    assert check_entry_point(clipped).flagged


def test_harness_flags_wrong_sensitivity_claim():
    e = _entry(lambda df, rng: 0.0)
    e2 = EntryPoint(**{**e.__dict__, "statistics": lambda df: {"count": 2.0 * float((df["a"] == 0).sum())}})
    assert check_entry_point(e2, n_samples=500).sensitivity.violations


def test_node_neighbours_relabel_and_table():
    out = list(node_neighbours(3, np.array([[0, 1], [1, 2]])))
    assert [n for n, _ in out] == [2, 2, 2]
    assert out[0][1].tolist() == [[0, 1]] and out[1][1].tolist() == [] and out[2][1].tolist() == [[0, 1]]
    assert "| `count` | api |" in markdown_table([_entry(lambda df, rng: 0.0)])
