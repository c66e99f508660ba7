"""Budget accountant: sequential and parallel composition, refusal, ledger."""

from __future__ import annotations

import pytest

from dpworkbench.accounting import Accountant, BudgetExceededError


def test_sequential_composition_and_refusal():
    acc = Accountant(1.0)
    acc.spend(0.4, "laplace", "q1")
    acc.spend(0.6, "laplace", "q2")
    assert acc.spent == pytest.approx(1.0) and acc.remaining == pytest.approx(0.0)
    with pytest.raises(BudgetExceededError, match="exceed the budget"):
        acc.spend(1e-3, "laplace", "q3")
    assert len(acc.ledger()) == 2  # the refused spend left no trace
    assert list(acc.ledger().columns[:4]) == ["step", "mechanism", "epsilon", "note"]


def test_float_rounding_does_not_refuse_exact_budget():
    acc = Accountant(1.0)
    for _ in range(10):
        acc.spend(0.1, "laplace")
    assert acc.spent == pytest.approx(1.0)


def test_parallel_composition_costs_max_branch():
    acc = Accountant(1.0)
    with acc.parallel("histogram bins") as block:
        for eps in (0.3, 0.5, 0.2):
            with block.branch() as b:
                b.spend(eps, "laplace")
    assert acc.spent == pytest.approx(0.5)
    assert (acc.ledger()["composition"] == "parallel").sum() == 3
    acc.spend(0.5, "laplace")
    with pytest.raises(BudgetExceededError):
        acc.spend(0.01, "laplace")


def test_parallel_branch_cannot_exceed_remaining():
    acc = Accountant(1.0)
    acc.spend(0.8, "laplace")
    with pytest.raises(BudgetExceededError):
        with acc.parallel() as block:
            with block.branch() as b:
                b.spend(0.5, "laplace")
    assert acc.spent == pytest.approx(0.8)


def test_unlimited_and_bad_budget():
    acc = Accountant()
    acc.spend(100.0, "laplace")
    assert acc.remaining == float("inf")
    with pytest.raises(ValueError, match="total_epsilon"):
        Accountant(0)
    with pytest.raises(ValueError, match="epsilon"):
        Accountant(1.0).spend(-1, "x")


def test_ledger_html():
    acc = Accountant(2.0)
    acc.spend(0.5, "exponential", "θ selection")
    html = acc._repr_html_()
    assert "θ selection" in html and "0.5" in html


def test_large_values_print_in_plain_digits():
    """A noisy SUM of about 1.3e8 printed as ``1.28732e+08`` (issue 28): large values are plain digits, small ones
    keep 6 significant digits, and the error bar's ends follow the same rule."""
    from dpworkbench.accounting import format_number
    from dpworkbench.cli.release import accuracy_text

    assert format_number(128732456.4) == "128732456"
    assert format_number(-2.5e7) == "-25000000"
    assert format_number(0.1234567) == "0.123457" and format_number(3) == "3"
    assert format_number(float("nan")) == "nan" and format_number(2e15) == "2e+15"
    line = accuracy_text({"beta": 0.05, "interval": [128000000.0, 129500000.0], "noise_scale": 250000.0})
    assert "[128000000, 129500000]" in line and "e+08" not in line
