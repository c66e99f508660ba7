"""A researcher's own mechanism, in one file: a Laplace count of the tuples that violate the FD A → B, each
A-group's contribution clipped at the public ``cap`` (so one added or removed row moves the count by ≤ cap).

Used by tests/mechanisms/test_declaration.py, which puts this file (alone) on DPWB_MECHANISMS_PATH and checks that
the mechanism is in the privacy table, audited by the harness, run by the experiment runner and offered by the CLI.
Setting ``UNDERSTATE = True`` (the test writes a copy so) declares half the true cost: the harness must flag it.
"""

import math

import numpy as np
import pandas as pd

from dpworkbench.accounting import planned
from dpworkbench.datasets.public_schema import PublicSchema, read_csv_public
from dpworkbench.mechanisms.declaration import ADD_REMOVE_ROW, EPSILON, Accuracy, Mechanism, Param

UNDERSTATE = False
NAME = "plugin.conflict_count"


def statistics(df, *, epsilon, cap):
    groups = df.groupby("A")["B"]
    conflicting = groups.transform("nunique").to_numpy() > 1
    per_group = pd.Series(conflicting).groupby(df["A"].to_numpy()).sum().clip(upper=cap)
    return {"count": float(per_group.sum())}


def noise(stats, backend, size, *, epsilon, cap):
    value = np.full(size, stats["count"]) if size else stats["count"]
    return backend.add_laplace(value, cap / epsilon)


def examples(rng):
    return [pd.DataFrame({"A": rng.integers(0, 3, 5), "B": rng.integers(0, 2, 5)}) for _ in range(2)]


def load(path, *, epsilon, cap):
    schema = PublicSchema.parse("A:int, B:int")
    return read_csv_public(path, schema)[0]


MECHANISM = Mechanism(
    name=NAME,
    summary="Laplace count of tuples violating A → B (per-group contribution clipped at cap)",
    relation=ADD_REMOVE_ROW("the rows of a table with integer columns A and B"),
    params=(EPSILON(1.0), Param("cap", int, 2, "public clip of each A-group's conflicting tuples", low=1)),
    public=("columns A, B (int)",),
    cost=lambda *, epsilon, cap: planned(("laplace", epsilon / 2 if UNDERSTATE else epsilon, "conflicting tuples")),
    statistics=statistics,
    sensitivity=lambda *, epsilon, cap: {"count": cap},
    noise=noise,
    truth=lambda stats, **p: stats["count"],
    examples=examples,
    harness_params={"epsilon": 1.0, "cap": 3},
    load=load,
    accuracy=lambda *, epsilon, cap: Accuracy.laplace(cap / epsilon, 0.05, clip=(0.0, math.inf)),
)
