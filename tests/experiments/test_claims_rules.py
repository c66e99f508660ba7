"""Claim rules derive every verdict, and each can name a value that flips it."""

import dataclasses
import json

import pytest

from dpworkbench.experiments import Claims, at_least, at_most, between, close, equals, not_comparable
from dpworkbench.experiments.claims import flip_value, reevaluate


def _stored(claim):
    return json.loads(json.dumps(dataclasses.asdict(claim)))


@pytest.mark.parametrize(
    "rule, ours, verdict",
    [
        (close(100, rtol=0.1), 109, "pass"),
        (close(100, rtol=0.1), 111, "differs"),
        (close(0.0, atol=0.05), -0.04, "pass"),
        (close(100, rtol=0.1), float("nan"), "differs"),
        (at_least(100), 100, "pass"),
        (at_least(100, strict=True), 100, "differs"),
        (at_most(0.12), 0.2, "differs"),
        (between(0.9, 1.1), 1.0, "pass"),
        (between(0.9, 1.1), 1.2, "differs"),
        (equals((15, 1)), [15, 1], "pass"),
        (equals((15, 1)), (15, 2), "differs"),
        (equals(True), True, "pass"),
        (equals(True), 1, "differs"),
        (equals("decreasing"), "not", "differs"),
    ],
)
def test_rule_verdicts(rule, ours, verdict):
    claims = Claims()
    row = claims.add("c", paper="p", ours=ours, rule=rule)
    assert row.verdict == verdict
    stored = _stored(row)
    # The stored rule re-derives the stored verdict, and its breaking value flips it.
    assert reevaluate(stored, stored["our_value"]) == verdict
    assert reevaluate(stored, flip_value(stored)) != verdict


def test_value_separate_from_display():
    row = Claims().add("EBC(a), EBC(v)", paper="15 / 1", ours="15 / 1", value=(15, 1), rule=equals((15, 1)))
    stored = _stored(row)
    assert stored["verdict"] == "pass" and reevaluate(stored, flip_value(stored)) == "differs"


def test_tolerance_shorthand_and_refusals():
    claims = Claims()
    assert claims.add("max degree", paper=9635, ours=9500, rtol=0.25).verdict == "pass"
    with pytest.raises(ValueError, match="numeric paper value"):
        claims.add("x", paper="odd", ours=1, rtol=0.1)
    with pytest.raises(ValueError, match="not both"):
        claims.add("x", paper=1, ours=1, rule=close(1, rtol=0.1), rtol=0.1)
    with pytest.raises(ValueError, match="reason"):
        not_comparable("")
    with pytest.raises(ValueError, match="rtol or atol"):
        close(1)
    nc = claims.add("ci grid", paper=1, ours=2, rule=not_comparable("the ci grid has one cell"))
    assert nc.verdict == "not-comparable" and nc.note == "the ci grid has one cell"
