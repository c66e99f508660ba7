"""Every claim can fail: its stored rule re-derives its verdict, and a value beyond the rule flips it; and when it
fails, it has a cause (issue 24: the report refuses a non-pass without one).

Used by tests/test_notebooks.py on the claims.json of every notebook run (ci profile)."""

from __future__ import annotations

from dpworkbench.experiments.claims import claim_cause_problems, flip_value, reevaluate


#: notebooks whose claims functions are not yet giving every claim a cause for a non-pass, with who owns them: their
#: missing causes are not reported here (the report still refuses such a claim if it ever differs). Remove an entry when
#: its claims module gives one (tests/experiments/test_claims_sources.py lists the same functions).
CAUSES_PENDING: dict[str, str] = {}


def claim_flip_problems(rows: list[dict], notebook: str = "") -> list[str]:
    """What stops each claim of a claims.json from being able to come out "differs" (empty when all can), and a claim
    that would then carry no cause (``notebook``: its run name, for :data:`CAUSES_PENDING`)."""
    problems = []
    for row in rows:
        name = row.get("claim")
        if not row.get("rule"):
            problems.append(f"{name!r}: verdict {row.get('verdict')!r} was written by hand, not derived by a rule")
            continue
        if row["rule"]["kind"] == "not_comparable":
            continue
        subject = row["value"] if row.get("value") is not None else row["our_value"]
        again = reevaluate(row, subject)
        if again != row["verdict"]:
            problems.append(f"{name!r}: its rule gives {again!r} on the stored value, the report says {row['verdict']!r}")
            continue
        flipped = reevaluate(row, flip_value(row))
        if flipped == row["verdict"]:
            problems.append(f"{name!r}: verdict stays {flipped!r} when the value moves beyond the rule ({row['rule']})")
        # the claim forced to a non-pass (flipped, if it passed here) must name why, or the report would refuse it
        if notebook not in CAUSES_PENDING:
            problems += claim_cause_problems(row)
    return problems
