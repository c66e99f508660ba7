"""Privacy budget accounting for pure ε-DP.

An :class:`Accountant` keeps a ledger of (mechanism, ε, note) entries under
sequential composition, supports parallel composition over disjoint parts of the
data (the block costs the maximum of its branches), and refuses — before any noise
is drawn — a spend that would exceed the budget.

Example
-------
>>> acc = Accountant(total_epsilon=1.0)
>>> acc.spend(0.4, "laplace", "count")
>>> with acc.parallel("per-partition counts") as block:
...     for part in range(3):
...         with block.branch() as branch:
...             branch.spend(0.5, "laplace", f"part {part}")
>>> round(acc.spent, 6)
0.9
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator

from .._validation import check_epsilon

# Float sums like 0.1+0.2 must not trip the guard when the budget is exactly met.
_TOLERANCE = 1e-9


class BudgetExceededError(ValueError):
    """A spend would exceed the accountant's total ε."""


@dataclass(frozen=True)
class LedgerEntry:
    mechanism: str
    epsilon: float
    note: str = ""
    composition: str = "sequential"
    group: str = ""


@dataclass
class Accountant:
    """Sequential/parallel composition of pure ε-DP with a refusing budget.

    Parameters
    ----------
    total_epsilon:
        The budget; ``None`` tracks spends without a limit.
    """

    total_epsilon: float | None = None
    _entries: list[LedgerEntry] = field(default_factory=list, repr=False)
    _spent: float = field(default=0.0, repr=False)

    def __post_init__(self) -> None:
        if self.total_epsilon is not None:
            self.total_epsilon = check_epsilon(self.total_epsilon, "total_epsilon")

    # -- queries -----------------------------------------------------------------
    @property
    def spent(self) -> float:
        """Total ε spent so far (sequential composition; parallel blocks count their max)."""
        return self._spent

    @property
    def remaining(self) -> float:
        """Budget left (``inf`` when unlimited)."""
        if self.total_epsilon is None:
            return math.inf
        return max(self.total_epsilon - self._spent, 0.0)

    @property
    def entries(self) -> list[LedgerEntry]:
        return list(self._entries)

    def can_spend(self, epsilon: float) -> bool:
        if self.total_epsilon is None:
            return True
        return self._spent + epsilon <= self.total_epsilon * (1 + _TOLERANCE) + _TOLERANCE

    # -- spending ----------------------------------------------------------------
    def check(self, epsilon: float, mechanism: str = "", note: str = "") -> float:
        """Validate ε and raise :class:`BudgetExceededError` if it would overspend."""
        epsilon = check_epsilon(epsilon)
        if not self.can_spend(epsilon):
            what = f" for {mechanism}" if mechanism else ""
            extra = f" ({note})" if note else ""
            raise BudgetExceededError(
                f"spending epsilon={epsilon:g}{what}{extra} would exceed the budget: "
                f"spent {self._spent:g} of {self.total_epsilon:g}, remaining {self.remaining:g}"
            )
        return epsilon

    def spend(self, epsilon: float, mechanism: str, note: str = "") -> None:
        """Record a sequential spend; refuses (raises) before recording an overspend."""
        epsilon = self.check(epsilon, mechanism, note)
        self._entries.append(LedgerEntry(mechanism, epsilon, note))
        self._spent += epsilon

    @contextmanager
    def parallel(self, note: str = "parallel composition") -> Iterator["ParallelBlock"]:
        """Parallel composition over disjoint data: the block costs its largest branch.

        Each branch may spend up to the remaining budget. The block's entries are
        recorded only when it closes without error (nothing half-written).
        """
        block = ParallelBlock(self.remaining if self.total_epsilon is not None else None, note)
        yield block
        cost = block.cost
        if cost > 0:
            self.check(cost, "parallel", note)
            for i, branch in enumerate(block.branches):
                for e in branch.entries:
                    self._entries.append(
                        LedgerEntry(e.mechanism, e.epsilon, e.note, composition="parallel", group=f"{note} / branch {i}")
                    )
            self._spent += cost

    # -- display -----------------------------------------------------------------
    def ledger(self):
        """The ledger as a pandas DataFrame (one row per spend)."""
        import pandas as pd

        rows = [
            {
                "step": i + 1,
                "mechanism": e.mechanism,
                "epsilon": e.epsilon,
                "note": e.note,
                "composition": e.composition,
                "group": e.group,
            }
            for i, e in enumerate(self._entries)
        ]
        df = pd.DataFrame(rows, columns=["step", "mechanism", "epsilon", "note", "composition", "group"])
        return df

    def summary(self) -> str:
        total = "unlimited" if self.total_epsilon is None else f"{self.total_epsilon:g}"
        return f"spent ε = {self._spent:.6g} of {total} in {len(self._entries)} entries"

    def _repr_html_(self) -> str:
        return f"<p><b>Privacy ledger</b>: {self.summary()}</p>" + self.ledger().to_html(index=False)


class ParallelBlock:
    """Branches over disjoint parts of the data; see :meth:`Accountant.parallel`."""

    def __init__(self, limit: float | None, note: str):
        self.limit = limit
        self.note = note
        self.branches: list[Accountant] = []

    @contextmanager
    def branch(self) -> Iterator[Accountant]:
        acc = Accountant(self.limit if self.limit and self.limit > 0 else None)
        if self.limit is not None and self.limit <= 0:
            acc = Accountant(total_epsilon=1e-300)  # nothing left: any spend raises
        self.branches.append(acc)
        yield acc

    @property
    def cost(self) -> float:
        return max((b.spent for b in self.branches), default=0.0)


def record_spend(accountant: Accountant | None, epsilon: float, mechanism: str, note: str = "") -> None:
    """Spend on ``accountant`` if one was given (mechanisms call this *before* sampling)."""
    if accountant is not None:
        accountant.spend(epsilon, mechanism, note)


__all__ = ["Accountant", "BudgetExceededError", "LedgerEntry", "ParallelBlock", "record_spend"]
