"""The harness flags a release that happens on one neighbour and refuses on the other (issue 21: releases are total)."""

from __future__ import annotations

import numpy as np

from dpworkbench.testing.harness import EntryPoint, check_sensitivity, csv_line_neighbours, hostile_lines


def _entry(statistics):
    text = "a\n1\n2\n"
    return EntryPoint(
        name="toy", kind="api", paper="toy", relation="a CSV line added, removed or substituted", claimed_epsilon=1.0,
        public_inputs=(), make_inputs=lambda rng: [text],
        neighbours=lambda t: csv_line_neighbours(t, hostile_lines(t, limit=None)),
        statistics=statistics, sensitivities={"count": 1.0}, release=lambda x, rng: 0.0)


def _count(text: str) -> dict:
    return {"count": float(len(text.strip().split("\n")) - 1)}


def _count_refusing_text(text: str) -> dict:
    for line in text.strip().split("\n")[1:]:
        try:
            float(line)
        except ValueError:
            raise ValueError("a value is not a number") from None
    return _count(text)


def test_total_release_passes():
    assert check_sensitivity(_entry(_count), np.random.default_rng(0)).violations == []


def test_data_dependent_refusal_is_flagged():
    rep = check_sensitivity(_entry(_count_refusing_text), np.random.default_rng(0))
    assert any("refuses on one neighbour" in v for v in rep.violations)
    assert rep.worst_statistic == "release happens"
