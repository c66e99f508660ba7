"""Claims: a value we measured, the paper's value, and the rule that turns the two into a verdict.

A claim is only worth reporting if it can come out "differs". So a verdict is never written by
hand: it is computed by a :class:`Rule` from our value, and every rule can name a value for which
its verdict flips (:meth:`Rule.breaking`). ``tests/test_claims_flip.py`` re-evaluates every claim
of every notebook run with that value and fails when a verdict does not flip.

Rules::

    close(9635, rtol=0.25)     # |ours − 9635| ≤ 25 % of 9635
    at_least(100)              # ours ≥ 100 (e.g. "at least two orders of magnitude")
    at_most(0.12)              # ours ≤ 0.12
    between(0.9, 1.1)          # 0.9 ≤ ours ≤ 1.1
    equals((15, 1))            # exact (numbers, strings, tuples, booleans)
    not_comparable("ci grid is too small to compare")   # no verdict; the reason is required

Each paper keeps its rules in ``<paper>/claims.py``; a notebook computes the values with package
functions and hands them to those functions, which call :meth:`Claims.add`.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

from .._validation import check_options

VERDICTS = ("pass", "differs", "not-comparable")


def _num(v: Any) -> float:
    try:
        import numpy as np

        if isinstance(v, np.generic):
            v = v.item()
    except ImportError:  # pragma: no cover
        pass
    if isinstance(v, bool):
        raise TypeError("a boolean is not a number; use equals(True)")
    return float(v)


def _fmt(v: Any) -> Any:
    if isinstance(v, float) and math.isfinite(v):
        return float(f"{v:.6g}")
    try:
        import numpy as np

        if isinstance(v, np.generic):
            return _fmt(v.item())
        if isinstance(v, np.ndarray):
            return [_fmt(x) for x in v.tolist()]
    except ImportError:  # pragma: no cover
        pass
    if isinstance(v, tuple):
        return [_fmt(x) for x in v]
    if isinstance(v, list):
        return [_fmt(x) for x in v]
    return v


def _g(v: Any) -> str:
    return f"{_num(v):.6g}"


def _exact(v: Any) -> Any:
    """A JSON-friendly copy of ``v`` without rounding."""
    try:
        import numpy as np

        if isinstance(v, np.generic):
            return v.item()
        if isinstance(v, np.ndarray):
            return v.tolist()
    except ImportError:  # pragma: no cover
        pass
    if isinstance(v, (list, tuple)):
        return [_exact(x) for x in v]
    return v


def _plain(v: Any) -> Any:
    """A JSON-friendly copy of ``v`` (tuples and arrays become lists, numpy scalars Python scalars)."""
    return _fmt(v) if not isinstance(v, float) else v


@dataclass(frozen=True)
class Rule:
    """How a verdict is derived from our value.

    ``kind`` is one of ``close``, ``at_least``, ``at_most``, ``between``, ``equals`` and
    ``not_comparable``; the other fields are that kind's parameters.
    """

    kind: str
    target: Any = None
    rtol: float | None = None
    atol: float | None = None
    lo: float | None = None
    hi: float | None = None
    strict: bool = False
    reason: str = ""

    def __post_init__(self):
        check_options(self.kind, "rule kind", ("close", "at_least", "at_most", "between", "equals", "not_comparable"))
        if self.kind == "close":
            if self.rtol is None and self.atol is None:
                raise ValueError("close() needs rtol or atol")
            for name, tol in (("rtol", self.rtol), ("atol", self.atol)):
                if tol is not None and not (math.isfinite(tol) and tol >= 0):
                    raise ValueError(f"close(): {name} must be a finite number >= 0, got {tol!r}")
            _num(self.target)
        if self.kind in ("at_least", "at_most"):
            if not math.isfinite(_num(self.target)):
                raise ValueError(f"{self.kind}(): the bound must be finite, got {self.target!r}")
        if self.kind == "between" and not (math.isfinite(_num(self.lo)) and math.isfinite(_num(self.hi)) and self.lo <= self.hi):
            raise ValueError(f"between(): need finite lo <= hi, got {self.lo!r}, {self.hi!r}")
        if self.kind == "not_comparable" and not self.reason.strip():
            raise ValueError("not_comparable() needs a reason")

    # ---- verdicts -------------------------------------------------------------------------
    def tolerance(self) -> float:
        t = abs(_num(self.target))
        return max(self.rtol * t if self.rtol is not None else 0.0, self.atol or 0.0)

    def holds(self, ours: Any) -> bool:
        k = self.kind
        if k == "equals":
            return _equal(ours, self.target)
        try:
            o = _num(ours)
        except (TypeError, ValueError):
            return False
        if not math.isfinite(o):
            return False
        if k == "close":
            return abs(o - _num(self.target)) <= self.tolerance()
        if k == "at_least":
            return o > _num(self.target) if self.strict else o >= _num(self.target)
        if k == "at_most":
            return o < _num(self.target) if self.strict else o <= _num(self.target)
        if k == "between":
            return self.lo <= o <= self.hi
        raise AssertionError(k)  # not_comparable never reaches here

    def verdict(self, ours: Any) -> str:
        if self.kind == "not_comparable":
            return "not-comparable"
        return "pass" if self.holds(ours) else "differs"

    def breaking(self, ours: Any) -> Any:
        """A value of our value's kind for which the verdict is the opposite of ``verdict(ours)``.

        Used by the flip test: a claim whose verdict does not change with this value cannot fail.
        """
        k = self.kind
        if k == "not_comparable":
            return ours
        passing = self.holds(ours)
        if k == "equals":
            return _different(self.target) if passing else self.target
        if k == "close":
            t, tol = _num(self.target), self.tolerance()
            return t + 2 * tol + 1e-9 * max(1.0, abs(t)) + (1.0 if tol == 0 else 0.0) if passing else t
        b = _num(self.target) if k in ("at_least", "at_most") else None
        step = 0.5 * abs(b) + 1.0 if b is not None else 0.0
        if k == "at_least":
            return b - step if passing else b + step
        if k == "at_most":
            return b + step if passing else b - step
        if k == "between":
            width = self.hi - self.lo
            return self.hi + width + 1.0 if passing else (self.lo + self.hi) / 2
        raise AssertionError(k)

    def describe(self) -> str:
        k = self.kind
        if k == "close":
            parts = []
            if self.rtol is not None:
                parts.append(f"±{self.rtol:.0%}" if self.rtol >= 0.01 else f"±{self.rtol:g} (relative)")
            if self.atol is not None:
                parts.append(f"±{self.atol:g}")
            return f"within {' or '.join(parts)} of {_g(self.target)}"
        if k == "at_least":
            return f"{'>' if self.strict else '≥'} {_g(self.target)}"
        if k == "at_most":
            return f"{'<' if self.strict else '≤'} {_g(self.target)}"
        if k == "between":
            return f"in [{_g(self.lo)}, {_g(self.hi)}]"
        if k == "equals":
            return f"equal to {_fmt(self.target)!r}"
        return f"not comparable: {self.reason}"

    def to_json(self) -> dict:
        d = {k: _plain(v) for k, v in asdict(self).items() if not (v is None or v is False or (isinstance(v, str) and not v))}
        d["kind"] = self.kind
        return d

    @classmethod
    def from_json(cls, d: dict) -> "Rule":
        d = dict(d)
        if isinstance(d.get("target"), list):
            d["target"] = _tuple_deep(d["target"])
        return cls(**d)


def _tuple_deep(v: Any) -> Any:
    return tuple(_tuple_deep(x) for x in v) if isinstance(v, list) else v


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        try:
            a, b = list(a), list(b)
        except TypeError:
            return False
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool) or isinstance(a, str) or isinstance(b, str):
        return type(_fmt(a)) is type(_fmt(b)) and _fmt(a) == _fmt(b)
    try:
        x, y = _num(a), _num(b)
    except (TypeError, ValueError):
        return a == b
    return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)


def _different(v: Any) -> Any:
    if isinstance(v, bool):
        return not v
    if isinstance(v, str):
        return v + " (changed)"
    if isinstance(v, (list, tuple)):
        if not v:
            return ["(changed)"]
        return type(v)([_different(v[0]), *v[1:]]) if isinstance(v, tuple) else [_different(v[0]), *v[1:]]
    try:
        return _num(v) + 1.0 + abs(_num(v))
    except (TypeError, ValueError):
        return f"{v!r} (changed)"


def close(target: Any, *, rtol: float | None = None, atol: float | None = None) -> Rule:
    """Pass when ``|ours − target| ≤ max(rtol·|target|, atol)``."""
    return Rule("close", target=_fmt(target) if not isinstance(target, float) else target, rtol=rtol, atol=atol)


def at_least(bound: float, *, strict: bool = False) -> Rule:
    """Pass when ``ours ≥ bound`` (``>`` with ``strict``)."""
    return Rule("at_least", target=bound, strict=strict)


def at_most(bound: float, *, strict: bool = False) -> Rule:
    """Pass when ``ours ≤ bound`` (``<`` with ``strict``)."""
    return Rule("at_most", target=bound, strict=strict)


def between(lo: float, hi: float) -> Rule:
    """Pass when ``lo ≤ ours ≤ hi``."""
    return Rule("between", lo=float(lo), hi=float(hi))


def equals(expected: Any) -> Rule:
    """Pass when ours equals ``expected`` exactly (numbers to 1e-9 relative; sequences element-wise)."""
    return Rule("equals", target=_tuple_deep(_fmt(expected)) if isinstance(expected, (list, tuple)) else expected)


def not_comparable(reason: str) -> Rule:
    """No verdict, for a stated reason (for example: the ci grid is too small to compare)."""
    return Rule("not_comparable", reason=reason)


@dataclass
class Claim:
    claim: str
    paper_value: Any
    our_value: Any
    verdict: str
    note: str = ""
    rule: dict | None = None
    value: Any = None  # the rule's input at full precision (our_value is for display)


@dataclass
class Claims:
    """Rows of (claim, paper value, our value, verdict, note, rule) for the report."""

    rows: list[Claim] = field(default_factory=list)

    def add(
        self,
        claim: str,
        *,
        paper: Any,
        ours: Any,
        rule: Rule | None = None,
        value: Any = None,
        rtol: float | None = None,
        atol: float | None = None,
        verdict: str | None = None,
        note: str = "",
    ) -> Claim:
        """Add a claim whose verdict ``rule`` derives from ``value`` (default: ``ours``).

        ``rtol``/``atol`` are a shorthand for ``rule=close(paper, rtol=..., atol=...)``. Give
        ``value`` when the displayed ``ours`` is text (for example ``"15 / 1"``) and the rule
        applies to the numbers behind it. ``verdict=`` is accepted only as ``"not-comparable"``
        with a ``note`` saying why; a hand-written pass/differs cannot fail and is refused.
        """
        if verdict is not None:
            check_options(verdict, "verdict", VERDICTS)
            if verdict != "not-comparable":
                raise ValueError(f"claim {claim!r}: a verdict is derived by a rule, not given; use rule=... "
                                 "(close, at_least, at_most, between, equals)")
            if rule is None:
                rule = not_comparable(note or "not comparable")
        if rule is None:
            if rtol is None and atol is None:
                raise ValueError(f"claim {claim!r}: give a rule (close, at_least, at_most, between, equals, not_comparable) or rtol/atol")
            try:
                _num(paper)
            except (TypeError, ValueError):
                raise ValueError(f"claim {claim!r}: a tolerance needs a numeric paper value; give a rule instead") from None
            rule = close(paper, rtol=rtol, atol=atol)
        elif rtol is not None or atol is not None:
            raise ValueError(f"claim {claim!r}: give a rule or rtol/atol, not both")
        subject = ours if value is None else value
        v = rule.verdict(subject)
        if not note and rule.kind != "not_comparable":
            note = f"pass when {rule.describe()}"
        elif rule.kind == "not_comparable" and not note:
            note = rule.reason
        # The rule's input is stored at full precision (our_value is rounded for display), so re-evaluating a stored
        # claim gives the same verdict even under a tight tolerance.
        c = Claim(claim, _fmt(paper), _fmt(ours), v, note, rule.to_json(), _exact(subject))
        self.rows.append(c)
        return c

    def to_frame(self):
        import pandas as pd

        return pd.DataFrame([{k: getattr(c, k) for k in ("claim", "paper_value", "our_value", "verdict", "note")} for c in self.rows],
                            columns=["claim", "paper_value", "our_value", "verdict", "note"])

    def _repr_html_(self) -> str:
        return self.to_frame().to_html(index=False)


def reevaluate(row: dict, value: Any) -> str:
    """The verdict a stored claim (a row of ``claims.json``) would get with ``value`` instead."""
    if not row.get("rule"):
        raise ValueError(f"claim {row.get('claim')!r} has no rule: its verdict cannot be re-derived")
    return Rule.from_json(row["rule"]).verdict(value)


def flip_value(row: dict) -> Any:
    """The value for which a stored claim's verdict must flip (see :meth:`Rule.breaking`)."""
    rule = Rule.from_json(row["rule"])
    subject = row["value"] if row.get("value") is not None else row["our_value"]
    return rule.breaking(_tuple_deep(subject) if isinstance(subject, list) else subject)
