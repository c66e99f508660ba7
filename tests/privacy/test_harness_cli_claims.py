"""A CLI entry's claimed ε is derived from the command itself (its ``--plan``, :func:`dpworkbench.testing.declared.
cli_entry`): this checks that claim against what a run of the same command records in its ledger, so a ``--plan``
that drifted from the run (or a run that spends more than it plans) cannot make the harness audit the wrong ε."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from dpworkbench.privacy_harness import all_entry_points
from dpworkbench.testing import harness as H

# the Spark entries start a session per run: their claim is the same command's --plan without --engine spark
ENTRIES = {e.name: e for e in all_entry_points() if e.kind == "cli" and "--engine spark" not in e.name}


def _check(entry, monkeypatch) -> None:
    outs: list[dict] = []
    argvs: list[list[str]] = []
    real = H.InProcessCLI.__call__
    monkeypatch.setattr(H.InProcessCLI, "__call__",
                        lambda self, argv: argvs.append(list(argv)) or outs.append(real(self, argv)) or outs[-1])
    entry.release(entry.make_inputs(np.random.default_rng(0))[0], 1)
    spent = outs[-1]["epsilon_spent"] if "epsilon_spent" in outs[-1] else outs[-1]["public"]["epsilon_spent"]
    assert float(spent) == pytest.approx(entry.claimed_epsilon, rel=1e-9), (spent, entry.claimed_epsilon)
    # ... and against the budget the command was given, read off its own argv: a --plan and a run that agreed on
    # spending more (or less) than --epsilon would otherwise both pass the line above
    argv = argvs[-1]
    if "--epsilon" in argv:
        asked = float(argv[argv.index("--epsilon") + 1])
        assert entry.claimed_epsilon == pytest.approx(asked, rel=1e-9), (entry.claimed_epsilon, asked)


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_claim_is_what_a_run_records(name, monkeypatch):
    _check(ENTRIES[name], monkeypatch)


def test_the_check_can_fail(monkeypatch):
    entry = ENTRIES["dpworkbench dampening median"]
    with pytest.raises(AssertionError):
        _check(dataclasses.replace(entry, claimed_epsilon=entry.claimed_epsilon / 2), monkeypatch)


def test_a_run_and_plan_that_agree_on_the_wrong_budget_fail(monkeypatch):
    """Both the claim and the recorded spend doubled (a --plan and a run that agree with each other, not with
    --epsilon): the budget check fails."""
    entry = ENTRIES["dpworkbench dampening median"]
    real = H.InProcessCLI.__call__

    def doubled(self, argv):
        out = real(self, argv)
        key = "epsilon_spent" if "epsilon_spent" in out else None
        if key:
            out[key] = 2 * float(out[key])
        else:
            out["public"]["epsilon_spent"] = 2 * float(out["public"]["epsilon_spent"])
        return out

    monkeypatch.setattr(H.InProcessCLI, "__call__", doubled)
    with pytest.raises(AssertionError, match=r"\(2\.0, 1\.0\)"):  # (claimed, asked): the budget line fired
        _check(dataclasses.replace(entry, claimed_epsilon=2 * entry.claimed_epsilon), monkeypatch)
