"""The flip check itself can fail: a hand-written verdict, a stale verdict and a rule that cannot flip are caught."""

import dataclasses
import json

from dpworkbench.experiments import Claims, at_least, close, not_comparable

from claims_flip import claim_flip_problems


def _rows(claims):
    return json.loads(json.dumps([dataclasses.asdict(c) for c in claims.rows]))


def test_rules_flip_and_hand_verdicts_are_caught():
    c = Claims()
    c.add("a", paper=9635, ours=9500, rtol=0.25, cause="noise:SE 40")
    c.add("b", paper=100, ours=250, rule=at_least(100), cause="open:suspected")
    c.add("c", paper=1, ours=2, rule=not_comparable("ci grid"), cause="scale:ci grid")
    assert claim_flip_problems(_rows(c)) == []
    rows = _rows(c)
    rows.append({"claim": "d", "paper_value": 1, "our_value": 1, "verdict": "pass", "note": "", "rule": None, "value": None})
    assert len(claim_flip_problems(rows)) == 1 and "written by hand" in claim_flip_problems(rows)[0]
    with __import__("pytest").raises(ValueError, match="derived by a rule"):
        c.add("d", paper=1, ours=1, verdict="pass")  # a verdict nobody derived is refused
    stale = _rows(c)[:1]
    assert claim_flip_problems(stale) == []
    stale[0]["verdict"] = "differs"
    assert "its rule gives 'pass'" in claim_flip_problems(stale)[0]


def test_rules_that_could_never_fail_are_refused():
    import pytest

    with pytest.raises(ValueError, match="finite"):
        at_least(float("-inf"))
    with pytest.raises(ValueError, match="finite"):
        close(1.0, atol=float("inf"))


def test_a_passing_claim_that_would_differ_without_a_cause_is_caught():
    """Issue 24: the report refuses a non-pass without a cause, so a passing claim whose flip would carry none is found
    on the passing run (every notebook's claims in tests/test_notebooks.py), before a seed or profile flips it."""
    c = Claims()
    c.add("explained", paper=1.0, ours=1.0, rule=close(1.0, rtol=0.1), cause="noise:SE 0.01")
    c.add("unexplained", paper=1.0, ours=1.0, rule=close(1.0, rtol=0.1))
    assert c.rows[0].cause == "" and c.rows[0].cause_if_not_pass == "noise:SE 0.01"  # a pass shows no cause, keeps it
    problems = claim_flip_problems(_rows(c))
    assert len(problems) == 1 and "'unexplained'" in problems[0] and "no cause" in problems[0]
