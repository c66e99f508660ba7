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
    real = H.InProcessCLI.__call__
    monkeypatch.setattr(H.InProcessCLI, "__call__", lambda self, argv: outs.append(real(self, argv)) or outs[-1])
    entry.release(entry.make_inputs(np.random.default_rng(0))[0], 1)
    spent = outs[-1]["epsilon_spent"] if "epsilon_spent" in outs[-1] else outs[-1]["public"]["epsilon_spent"]
    assert float(spent) == pytest.approx(entry.claimed_epsilon, rel=1e-9), (spent, entry.claimed_epsilon)


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_claim_is_what_a_run_records(name, monkeypatch):
    _check(ENTRIES[name], monkeypatch)


def test_the_check_can_fail(monkeypatch):
    entry = ENTRIES["dpworkbench dampening median"]
    with pytest.raises(AssertionError):
        _check(dataclasses.replace(entry, claimed_epsilon=entry.claimed_epsilon / 2), monkeypatch)
