"""Privacy cost as data: ledger entries, the :class:`Release` every ε-spending function returns, and the
:class:`Accountant` that refuses to overspend.

Pure ε-DP only. Three rules hold everywhere in the package:

* **A spend is recorded before the noise is drawn.** A mechanism calls :func:`record_spend` (or
  ``accountant.spend``) first; a spend that would exceed the budget raises :class:`BudgetExceededError`
  and nothing is sampled. This holds inside parallel blocks too: a branch's spend is checked against the
  budget and written to the ledger at once, so an exception in a later branch cannot lose the spends of the
  branches that already released values.
* **Every function that spends ε returns a** :class:`Release`: the private value, the ledger entries that
  produced it, the public inputs it assumed (and which of them were derived from the data), and — kept
  apart and labelled NOT PRIVATE — exact diagnostics for research.
* **Every compound algorithm has a pure** ``privacy_cost(...)`` returning the :class:`LedgerEntry` tuple it
  will record; :func:`check_ledger_matches` compares a run's ledger with that plan.

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

import itertools
import math
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from typing import Any, Generic, Iterable, Iterator, Mapping, Sequence, TypeVar

from .._validation import check_epsilon

# Float sums like 0.1+0.2 must not trip the guard when the budget is exactly met.
_TOLERANCE = 1e-9


class BudgetExceededError(ValueError):
    """A spend would exceed the accountant's total ε."""


@dataclass(frozen=True)
class LedgerEntry:
    """One spend. ``composition`` is "sequential" or "parallel"; a parallel entry names its ``block`` (unique per
    accountant), the block's label (``group``) and the ``branch`` (disjoint part of the data) it belongs to."""

    mechanism: str
    epsilon: float
    note: str = ""
    composition: str = "sequential"
    group: str = ""
    block: int | None = None
    branch: int | None = None


def ledger_epsilon(entries: Iterable[LedgerEntry]) -> float:
    """Total ε of ledger entries: sequential entries add; a parallel block costs its most expensive branch."""
    # math.fsum (correctly rounded): a budget split into ten steps adds back to the ε asked for, not one ulp below it
    seq: list[float] = []
    blocks: dict[int, dict[int, list[float]]] = {}
    for e in entries:
        if e.composition == "parallel":
            branches = blocks.setdefault(int(e.block if e.block is not None else -1), {})
            branches.setdefault(int(e.branch if e.branch is not None else 0), []).append(e.epsilon)
        else:
            seq.append(e.epsilon)
    return math.fsum(seq + [max(math.fsum(b) for b in br.values()) for br in blocks.values()])


def ledger_frame(entries: Sequence[LedgerEntry]):
    """Ledger entries as a pandas DataFrame (one row per spend)."""
    import pandas as pd

    cols = ["step", "mechanism", "epsilon", "note", "composition", "group", "branch"]
    rows = [
        {"step": i + 1, "mechanism": e.mechanism, "epsilon": e.epsilon, "note": e.note,
         "composition": e.composition, "group": e.group, "branch": e.branch}
        for i, e in enumerate(entries)
    ]
    return pd.DataFrame(rows, columns=cols)


def check_ledger_matches(plan: Sequence[LedgerEntry], ledger: Sequence[LedgerEntry], *, rel_tol: float = 1e-9) -> None:
    """Raise ``AssertionError`` unless ``ledger`` records exactly the planned spends (mechanism, ε, composition),
    in order. Notes may differ (they carry run-time details such as the selected θ)."""
    plan, ledger = list(plan), list(ledger)
    if len(plan) != len(ledger):
        raise AssertionError(f"planned {len(plan)} spends, recorded {len(ledger)}: plan={plan}, ledger={ledger}")
    for i, (p, r) in enumerate(zip(plan, ledger)):
        if p.mechanism != r.mechanism or p.composition != r.composition or not math.isclose(
            p.epsilon, r.epsilon, rel_tol=rel_tol, abs_tol=1e-12
        ):
            raise AssertionError(f"spend {i + 1} differs from the plan: planned {p}, recorded {r}")


T = TypeVar("T")


@dataclass(frozen=True)
class Release(Generic[T]):
    """A private value together with what it cost and what it assumed.

    Attributes
    ----------
    value:
        The released (private) value: a post-processing of noisy mechanisms only.
    ledger:
        The spends that produced it, in order (recorded before each draw).
    public:
        The public inputs and parameters the release relied on (name → value). Anything listed here is
        treated as known to the adversary.
    derived_public:
        Names in ``public`` whose value was *derived from the data* rather than given by the user (stated, so a
        reader can judge the assumption; a strict release passes them explicitly).
    details:
        Further private outputs (e.g. the θ an exponential mechanism selected); post-processing of the release.
    exact:
        NOT PRIVATE diagnostics for research, tests and figures (true values, errors, timings). Never print or
        publish these as part of a release.
    private:
        False when a labelled paper option known not to be ε-DP at the claimed ε was used.
    """

    value: T
    ledger: tuple[LedgerEntry, ...] = ()
    public: Mapping[str, Any] = field(default_factory=dict)
    derived_public: tuple[str, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)
    exact: Mapping[str, Any] = field(default_factory=dict)
    private: bool = True
    mechanism: str = ""

    @property
    def epsilon(self) -> float:
        """Total ε of the ledger (sequential sum; parallel blocks count their largest branch)."""
        return ledger_epsilon(self.ledger)

    def ledger_frame(self):
        return ledger_frame(self.ledger)

    def eps_per_step(self) -> dict[str, float]:
        """ε per ledger step, keyed by the mechanism's note (or name), for run records."""
        out: dict[str, float] = {}
        for i, e in enumerate(self.ledger):
            key = e.note or e.mechanism
            if key in out:
                key = f"{key} #{i + 1}"
            out[key] = e.epsilon
        return out

    def record(self) -> dict[str, Any]:
        """One flat run record: private value and details, ε, and the exact (NOT PRIVATE) diagnostics."""
        rec: dict[str, Any] = {"output": self.value}
        rec.update(self.details)
        rec.update(self.exact)
        rec["epsilon_spent"] = self.epsilon
        rec["private"] = self.private
        return rec

    def __getitem__(self, key: str) -> Any:
        """Run-record view (``release["output"]``), so experiment drivers read a release like a row."""
        rec = self.record()
        if key not in rec:
            raise KeyError(f"{key!r} is not a field of this release (fields: {sorted(rec)})")
        return rec[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.record().get(key, default)


@dataclass(frozen=True)
class DescribedRelease(Release[T]):
    """A release with what its API says about it to a reader, so that no command restates it (the CLI's one emitter,
    ``dpworkbench.cli.release.emit``, prints these with the release).

    ``error_bar``: the noise-only error bar from public inputs and the release's own output (an ``Accuracy`` or a
    sentence, or ``{name: (Accuracy, value)}`` for several private values); ``header``: public lines that introduce
    the release (what it releases, its neighbouring relation, the public rules it applied); ``notes``: remarks on the
    private output (post-processing of it); ``input_counts``: NOT PRIVATE counts of how the public rules read the
    input (shown only with the exact values)."""

    error_bar: Any = None
    header: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    input_counts: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, release: Release, **described: Any) -> "DescribedRelease":
        """``release`` (any :class:`Release`) with these descriptions."""
        return cls(**{f.name: getattr(release, f.name) for f in fields(Release)}, **described)


def jsonable(x: Any) -> Any:
    """JSON-safe copy: NaN/inf become null, numpy scalars/arrays become Python values."""
    try:
        import numpy as np
    except ImportError:  # pragma: no cover
        np = None
    if isinstance(x, Mapping):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if np is not None and isinstance(x, np.ndarray):
        return [jsonable(v) for v in x.tolist()]
    if np is not None and isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, (str, int, float, bool)) or x is None:
        return x
    return str(x)


def release_payload(release: "Release", *, noise: str, show_exact: bool = False, label: str = "value") -> dict:
    """The machine-readable form of a release for ``--json``: every field sits under a key that says whether it
    is private (``private``), public (``public``: inputs and parameters) or exact and NOT PRIVATE
    (``NOT_PRIVATE``, present only with ``show_exact``). Valid JSON: NaN and inf are written as null."""
    out = {
        "private": {label: release.value, **dict(release.details)},
        "public": dict(release.public),
        "public_derived_from_data": list(release.derived_public),
        "epsilon_spent": release.epsilon,
        "ledger": [{"mechanism": e.mechanism, "epsilon": e.epsilon, "note": e.note, "composition": e.composition}
                   for e in release.ledger],
        "noise": noise,
        "private_as_claimed": release.private,
    }
    if show_exact:
        out["NOT_PRIVATE"] = dict(release.exact)
    return jsonable(out)


def format_number(v) -> str:
    """A printed number: 6 significant digits, but a large value in plain digits (a SUM of 128,732,456 read as
    ``1.28732e+08`` hid its size from a reader); non-floats as they are."""
    if not isinstance(v, float) or not math.isfinite(v):
        return str(v)
    return f"{v:.0f}" if 1e6 <= abs(v) < 1e15 else f"{v:.6g}"


def value_tag(noise: str) -> str:
    """How a released value is labelled: ``private`` on a release back-end; a seeded research run's values are
    labelled as research values (anyone with the seed can remove the noise)."""
    return "seeded research value, not a release" if str(noise).startswith("seeded") else "private"


def release_lines(release: "Release", *, noise: str, show_exact: bool = False, label: str = "value") -> list[str]:
    """Human-readable lines: private values (labelled as research values on a seeded run), then public inputs, ε
    and the noise source; exact values only with ``show_exact``, each labelled NOT PRIVATE."""
    fmt = format_number
    tag = value_tag(noise)
    lines = [f"{label} ({tag}): {fmt(release.value)}"]
    lines += [f"{k} ({tag}): {fmt(v)}" for k, v in release.details.items()]
    if not release.private:
        lines.append("WARNING: a labelled paper option that is NOT ε-DP at the stated ε was used")
    pub = ", ".join(f"{k}={fmt(v)}" for k, v in release.public.items())
    lines.append(f"public inputs: {pub or '(none)'}")
    if release.derived_public:
        lines.append("treated as public but derived from the data: " + ", ".join(release.derived_public)
                     + " (pass them explicitly for a strict release)")
    lines.append(f"epsilon spent: {release.epsilon:.6g} in {len(release.ledger)} step(s); noise: {noise}")
    if show_exact:
        lines += [f"NOT PRIVATE {k}: {fmt(v)}" for k, v in release.exact.items()]
    return lines


_block_ids = itertools.count(1)


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
    _sequential: float = field(default=0.0, repr=False)
    _blocks: dict = field(default_factory=dict, repr=False)  # block id -> {branch: ε}
    _open_block: "ParallelBlock | None" = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.total_epsilon is not None:
            self.total_epsilon = check_epsilon(self.total_epsilon, "total_epsilon")

    # -- queries -----------------------------------------------------------------
    @property
    def spent(self) -> float:
        """Total ε spent so far (sequential composition; parallel blocks count their max)."""
        return self._sequential + sum(max(b.values(), default=0.0) for b in self._blocks.values())

    @property
    def remaining(self) -> float:
        """Budget left (``inf`` when unlimited)."""
        if self.total_epsilon is None:
            return math.inf
        return max(self.total_epsilon - self.spent, 0.0)

    @property
    def entries(self) -> list[LedgerEntry]:
        return list(self._entries)

    def mark(self) -> int:
        """A position in the ledger; :meth:`entries_since` returns what was recorded after it."""
        return len(self._entries)

    def entries_since(self, mark: int) -> tuple[LedgerEntry, ...]:
        return tuple(self._entries[mark:])

    def can_spend(self, epsilon: float) -> bool:
        if self.total_epsilon is None:
            return True
        return self.spent + epsilon <= self.total_epsilon * (1 + _TOLERANCE) + _TOLERANCE

    # -- spending ----------------------------------------------------------------
    def _refuse(self, epsilon: float, mechanism: str, note: str) -> None:
        what = f" for {mechanism}" if mechanism else ""
        extra = f" ({note})" if note else ""
        raise BudgetExceededError(
            f"spending epsilon={epsilon:g}{what}{extra} would exceed the budget: "
            f"spent {self.spent:g} of {self.total_epsilon:g}, remaining {self.remaining:g}"
        )

    def check(self, epsilon: float, mechanism: str = "", note: str = "") -> float:
        """Validate ε and raise :class:`BudgetExceededError` if it would overspend."""
        epsilon = check_epsilon(epsilon)
        if not self.can_spend(epsilon):
            self._refuse(epsilon, mechanism, note)
        return epsilon

    def spend(self, epsilon: float, mechanism: str, note: str = "") -> None:
        """Record a sequential spend; refuses (raises) before recording an overspend."""
        epsilon = self.check(epsilon, mechanism, note)
        self._entries.append(LedgerEntry(mechanism, epsilon, note))
        self._sequential += epsilon

    def _spend_in_branch(self, block: "ParallelBlock", branch: int, epsilon: float, mechanism: str, note: str) -> None:
        epsilon = check_epsilon(epsilon)
        costs = self._blocks.setdefault(block.id, {})
        old = max(costs.values(), default=0.0)
        new = max(old, costs.get(branch, 0.0) + epsilon)
        if not self.can_spend(new - old):
            self._refuse(epsilon, mechanism, f"{note}; parallel block {block.note!r}, branch {branch}".lstrip("; "))
        costs[branch] = costs.get(branch, 0.0) + epsilon
        self._entries.append(
            LedgerEntry(mechanism, epsilon, note, composition="parallel", group=block.note, block=block.id, branch=branch)
        )

    @contextmanager
    def parallel(self, note: str = "parallel composition") -> Iterator["ParallelBlock"]:
        """Parallel composition over disjoint data: the block costs its largest branch.

        Each branch's spend is checked against the whole budget and recorded at once (before its noise is
        drawn), so an error in a later branch keeps the spends of the earlier ones.
        """
        if self._open_block is not None:
            raise ValueError("parallel blocks do not nest: close the open block first")
        block = ParallelBlock(self, note, next(_block_ids))
        self._open_block = block
        try:
            yield block
        finally:
            self._open_block = None

    # -- display -----------------------------------------------------------------
    def ledger(self):
        """The ledger as a pandas DataFrame (one row per spend)."""
        return ledger_frame(self._entries)

    def summary(self) -> str:
        total = "unlimited" if self.total_epsilon is None else f"{self.total_epsilon:g}"
        return f"spent ε = {self.spent:.6g} of {total} in {len(self._entries)} entries"

    def _repr_html_(self) -> str:
        return f"<p><b>Privacy ledger</b>: {self.summary()}</p>" + self.ledger().to_html(index=False)


class BranchAccountant:
    """One branch of a parallel block: spends go straight to the parent's ledger (checked first)."""

    def __init__(self, parent: Accountant, block: "ParallelBlock", index: int):
        self._parent = parent
        self._block = block
        self.index = index
        self._spent = 0.0
        self._entries: list[LedgerEntry] = []

    @property
    def spent(self) -> float:
        return self._spent

    @property
    def entries(self) -> list[LedgerEntry]:
        return list(self._entries)

    @property
    def remaining(self) -> float:
        return self._parent.remaining + max(0.0, self._block.cost - self._spent)

    def mark(self) -> int:
        return len(self._entries)

    def entries_since(self, mark: int) -> tuple[LedgerEntry, ...]:
        return tuple(self._entries[mark:])

    def check(self, epsilon: float, mechanism: str = "", note: str = "") -> float:
        epsilon = check_epsilon(epsilon)
        old = self._block.cost
        new = max(old, self._spent + epsilon)
        if not self._parent.can_spend(new - old):
            self._parent._refuse(epsilon, mechanism, note)
        return epsilon

    def spend(self, epsilon: float, mechanism: str, note: str = "") -> None:
        self._parent._spend_in_branch(self._block, self.index, epsilon, mechanism, note)
        epsilon = float(epsilon)
        self._spent += epsilon
        self._entries.append(self._parent._entries[-1])

    def parallel(self, note: str = ""):
        raise ValueError("parallel blocks do not nest inside a branch")


class ParallelBlock:
    """Branches over disjoint parts of the data; see :meth:`Accountant.parallel`."""

    def __init__(self, parent: Accountant, note: str, block_id: int):
        self._parent = parent
        self.note = note
        self.id = block_id
        self.branches: list[BranchAccountant] = []

    @contextmanager
    def branch(self) -> Iterator[BranchAccountant]:
        acc = BranchAccountant(self._parent, self, len(self.branches))
        self.branches.append(acc)
        yield acc

    @property
    def cost(self) -> float:
        return max((b.spent for b in self.branches), default=0.0)


AccountantLike = Accountant | BranchAccountant


def record_spend(accountant: AccountantLike | None, epsilon: float, mechanism: str, note: str = "") -> None:
    """Spend on ``accountant`` if one was given (mechanisms call this *before* sampling)."""
    if accountant is not None:
        accountant.spend(epsilon, mechanism, note)


def open_ledger(accountant: AccountantLike | None) -> tuple[AccountantLike, int]:
    """The accountant a compound release records on (a fresh unlimited one when none is given) and the
    ledger position its own entries start at: ``Release(ledger=acc.entries_since(mark))``."""
    acc = accountant if accountant is not None else Accountant()
    return acc, acc.mark()


def planned(*spends: tuple[str, float] | tuple[str, float, str]) -> tuple[LedgerEntry, ...]:
    """A privacy-cost plan from ``(mechanism, ε[, note])`` tuples (sequential composition)."""
    return tuple(LedgerEntry(s[0], float(s[1]), s[2] if len(s) > 2 else "") for s in spends)


__all__ = [
    "Accountant",
    "AccountantLike",
    "BranchAccountant",
    "BudgetExceededError",
    "LedgerEntry",
    "ParallelBlock",
    "Release",
    "DescribedRelease",
    "check_ledger_matches",
    "jsonable",
    "ledger_epsilon",
    "ledger_frame",
    "open_ledger",
    "planned",
    "record_spend",
    "release_lines",
    "release_payload",
    "value_tag",
]
