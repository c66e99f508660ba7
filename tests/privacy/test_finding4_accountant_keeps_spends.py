"""Finding 4: the accountant lost spends — a parallel block recorded nothing when a later branch raised, and a
spend on the parent inside a block was checked only at block exit. Each spend is now checked and recorded
before its noise is drawn, inside parallel blocks too."""

from __future__ import annotations

import pytest

from dpworkbench.accounting import Accountant, BudgetExceededError, Release, check_ledger_matches, planned
from dpworkbench.mechanisms import laplace_mechanism


def test_finding4_branch_spends_survive_a_later_error():
    acc = Accountant(10.0)
    released = []
    with pytest.raises(RuntimeError):
        with acc.parallel("partitions") as block:
            for part in range(3):
                with block.branch() as branch:
                    released.append(laplace_mechanism(1.0, epsilon=0.5, sensitivity=1, rng=part, accountant=branch))
                    if part == 1:
                        raise RuntimeError("the second partition failed after releasing")
    assert len(released) == 2
    assert acc.spent == pytest.approx(0.5)  # parallel: the block costs its largest branch
    assert len(acc.entries) == 2 and all(e.composition == "parallel" for e in acc.entries)


def test_finding4_parent_spend_inside_block_is_refused_before_sampling():
    acc = Accountant(1.0)
    with acc.parallel("partitions") as block:
        with block.branch() as branch:
            branch.spend(0.7, "laplace")
        draws = []

        class Spy:
            def __getattr__(self, name):
                draws.append(name)
                raise AssertionError("noise was drawn although the budget was exceeded")

        with pytest.raises(BudgetExceededError):
            laplace_mechanism(1.0, epsilon=0.5, sensitivity=1, rng=Spy(), accountant=acc)
        assert draws == []
    assert acc.spent == pytest.approx(0.7)


def test_finding4_branch_overspend_refused_at_the_spend():
    acc = Accountant(1.0)
    with acc.parallel("p") as block:
        with block.branch() as b1:
            b1.spend(0.6, "laplace")
        with block.branch() as b2:
            b2.spend(0.6, "laplace")  # max stays 0.6
            with pytest.raises(BudgetExceededError):
                b2.spend(0.5, "laplace")  # branch 2 would cost 1.1
    assert acc.spent == pytest.approx(0.6)


def test_release_epsilon_counts_parallel_blocks_by_their_max():
    acc = Accountant()
    mark = acc.mark()
    acc.spend(0.25, "exponential")
    with acc.parallel("p") as block:
        for eps in (0.5, 0.75):
            with block.branch() as b:
                b.spend(eps, "laplace")
    rel = Release(1.0, acc.entries_since(mark))
    assert rel.epsilon == pytest.approx(1.0)
    with pytest.raises(AssertionError):
        check_ledger_matches(planned(("exponential", 0.25)), rel.ledger)
    check_ledger_matches(planned(("exponential", 0.25), ("laplace", 0.5, "x"))[:1], rel.ledger[:1])
