"""Every claim can fail: its stored rule re-derives its verdict, and a value beyond the rule flips it.

Used by tests/test_notebooks.py on the claims.json of every notebook run (ci profile)."""

from __future__ import annotations

from dpworkbench.experiments.claims import flip_value, reevaluate


def claim_flip_problems(rows: list[dict]) -> list[str]:
    """What stops each claim of a claims.json from being able to come out "differs" (empty when all can)."""
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
    return problems
