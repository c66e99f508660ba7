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
    band("152.8", se=4.1)      # a number the paper prints: two-sided, ± (its rounding + 3 Monte-Carlo SE of ours)
    not_comparable("ci grid is too small to compare")   # no verdict; the reason is required

Every claim also records (issue 24) where its reference comes from, ``source``: ``paper`` (a value the paper
prints), ``spec`` (a recomputation of the spec), ``artifact`` (numbers from the authors' repository) or ``check``
(a sanity, theorem or pre-registered check: useful, but not reproduction); its ``rule`` as text
(:meth:`Rule.text`, derived from the rule object); and for a verdict other than pass, its ``cause``
(``paper-error:<spec item>``, ``stand-in:<dataset>``, ``scale:<what was reduced>``, ``noise:<SE>`` or
``open:<what is suspected>``). The report refuses to build when a claim has no source or a non-pass has no cause
(:func:`claim_row_problems`). A ``band`` rule is a claim on a printed number, so its source is ``paper`` (or
``artifact`` when the number is the authors' repository's); the others get theirs from the paper module's function
(:func:`claim_defaults`) or explicitly (``source=``).

Each paper keeps its rules in ``<paper>/claims.py``; a notebook computes the values with package
functions and hands them to those functions, which call :meth:`Claims.add`.
"""

from __future__ import annotations

import contextlib
import functools
import math
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from .._validation import check_options

VERDICTS = ("pass", "differs", "not-comparable")
#: Where a claim's reference value comes from; only ``paper`` claims count as reproduction in the report's headline.
SOURCES = ("paper", "spec", "artifact", "check")
#: The kinds of cause a verdict other than pass must carry, as ``<kind>:<detail>``.
CAUSE_KINDS = ("paper-error", "stand-in", "scale", "noise", "open")
_CAUSE = re.compile(r"^(%s):\s*\S" % "|".join(re.escape(k) for k in CAUSE_KINDS))


def check_cause(cause: str, claim: str = "") -> str:
    """``cause`` if it is ``<kind>:<detail>`` with a known kind, else a ValueError naming the claim."""
    cause = (cause or "").strip()
    if cause and not _CAUSE.match(cause):
        raise ValueError(f"claim {claim!r}: cause {cause!r} is not one of "
                         + ", ".join(f"{k}:<...>" for k in CAUSE_KINDS))
    return cause


def check_source(source: str, claim: str = "") -> str:
    if source not in SOURCES:
        raise ValueError(f"claim {claim!r}: source {source!r} is not one of {', '.join(SOURCES)}")
    return source


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
    # band: the paper's printed rounding, the Monte-Carlo SE of our estimate, how many SEs, and any stated widening
    rounding: float | None = None
    se: float | None = None
    k: float | None = None
    widen: float | None = None

    def __post_init__(self):
        check_options(self.kind, "rule kind", ("close", "at_least", "at_most", "between", "equals", "band", "not_comparable"))
        if self.kind == "band":
            if not math.isfinite(_num(self.target)):
                raise ValueError(f"band(): the paper's value must be finite, got {self.target!r}")
            for name in ("rounding", "se", "widen"):
                v = getattr(self, name)
                if v is None or not (math.isfinite(v) and v >= 0):
                    raise ValueError(f"band(): {name} must be a finite number >= 0, got {v!r}")
            if self.k is None or not (math.isfinite(self.k) and self.k >= 3):
                raise ValueError(f"band(): k must be at least 3 Monte-Carlo SEs, got {self.k!r}")
            if self.widen > 0 and not self.reason.strip():
                raise ValueError("band(): a band wider than rounding + k·SE needs a stated reason")
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
        if self.kind == "band":  # the half-width: printed rounding + k Monte-Carlo SEs (+ a stated widening)
            return self.rounding + self.k * self.se + self.widen
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
        if k in ("close", "band"):
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
        if k in ("close", "band"):
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
        if k == "band":
            extra = f" + {self.widen:g} ({self.reason})" if self.widen else ""
            return (f"within {_g(self.target)} ± {self.tolerance():.3g} (printed rounding {self.rounding:g} + "
                    f"{self.k:g} × Monte-Carlo SE {self.se:.3g}{extra})")
        return f"not comparable: {self.reason}"

    def text(self) -> str:
        """The rule as code, e.g. ``close(176, rtol=1)``: the ``rule`` column of ``claims.csv``."""
        k = self.kind
        if k == "close":
            args = [_g(self.target)] + [f"{n}={v:g}" for n, v in (("rtol", self.rtol), ("atol", self.atol)) if v is not None]
        elif k in ("at_least", "at_most"):
            args = [_g(self.target)] + (["strict=True"] if self.strict else [])
        elif k == "between":
            args = [_g(self.lo), _g(self.hi)]
        elif k == "equals":
            args = [repr(_fmt(self.target))]
        elif k == "band":
            args = [_g(self.target), f"rounding={self.rounding:g}", f"se={self.se:.3g}", f"k={self.k:g}"]
            args += [f"widen={self.widen:g}"] if self.widen else []
        else:
            args = []
        return f"{k}({', '.join(args)})"

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


def printed_rounding(printed: Any) -> float:
    """Half a unit of the last digit the paper prints: ``"152.8"`` → 0.05, ``"176"`` → 0.5, ``"1.2e3"`` → 50.

    A number is read from its shortest repr, so give the printed text when it ends in zeros (``"0.10"``).
    """
    text = str(printed).strip().replace(",", "").lower()
    mant, _, exp = text.partition("e")
    decimals = len(mant.split(".", 1)[1]) if "." in mant else 0
    return 0.5 * 10.0 ** (int(exp or 0) - decimals)


def band(paper: Any, *, se: float, k: float = 3, rounding: float | None = None, widen: float = 0.0, reason: str = "") -> Rule:
    """A claim on a number the paper prints (two-sided): pass when ``|ours − paper| ≤ rounding + k·se (+ widen)``.

    ``paper`` is best given as printed (``"152.8"``): its rounding is then derived (:func:`printed_rounding`).
    ``se`` is the Monte-Carlo standard error of our estimate (recorded in the rule), ``k ≥ 3``; a ``widen`` beyond
    that needs a ``reason``.
    """
    target = _num(float(str(paper).replace(",", "")) if isinstance(paper, str) else paper)
    rnd = printed_rounding(paper) if rounding is None else float(rounding)
    se = _num(se)
    return Rule("band", target=target, rounding=rnd, se=se, k=float(k), widen=float(widen), reason=reason)


def monte_carlo_se(values: Any, *, trim: float = 0.0) -> float:
    """The Monte-Carlo standard error of the (``trim``-per-side trimmed) mean of ``values``; NaN for < 2 values.

    Untrimmed: sample SD / √n. Trimmed: Tukey–McLaughlin, the SD of the values winsorized at the trim over
    (1 − 2g/n)·√n, g = ⌊trim·n⌋ values cut from each side (the R2T paper's 20 % trimmed means).
    """
    import numpy as np

    v = np.sort(np.asarray(values, dtype=float))
    v = v[np.isfinite(v)]
    n = len(v)
    if n < 2:
        return float("nan")
    g = int(math.floor(trim * n))
    if g and n - 2 * g >= 1:
        v = np.clip(v, v[g], v[n - g - 1])
    return float(v.std(ddof=1) / ((1 - 2 * g / n) * math.sqrt(n)))


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
    source: str = ""  # paper | spec | artifact | check (SOURCES)
    cause: str = ""  # why a verdict is not pass (CAUSE_KINDS); may be stated in advance
    # the cause this claim would carry were it not a pass (its own or its function's default): kept for a pass too, so
    # a verdict that flips (another seed, the flip test) still has its cause, and a claim that could come out without
    # one is found on a passing run (claim_cause_problems)
    cause_if_not_pass: str = ""


@dataclass(frozen=True)
class Scale:
    """The scale below which a claim cannot be compared: ``what`` (e.g. ``"answer/DS"``, ``"SF"``, ``"rows"``) is
    ``ours`` in this run and must be at least ``needed``; below it the claim is not-comparable with cause
    ``scale:<what> <ours> < <needed>``."""

    what: str
    ours: float
    needed: float

    def below(self) -> bool:
        return not (_num(self.ours) >= _num(self.needed))

    def cause(self) -> str:
        return f"scale:{self.what} {_num(self.ours):.3g} < {_num(self.needed):.3g}"


@dataclass
class Claims:
    """Rows of (claim, paper value, our value, verdict, note, rule, source, cause) for the report."""

    rows: list[Claim] = field(default_factory=list)
    default_source: str = ""  # set by :meth:`defaults` (a paper module's function, :func:`claim_defaults`)
    default_cause: str = ""

    @contextlib.contextmanager
    def defaults(self, *, source: str = "", cause: str = ""):
        """Within the block, claims without an explicit ``source``/``cause`` get these."""
        if source:
            check_source(source)
        check_cause(cause)
        old = self.default_source, self.default_cause
        self.default_source, self.default_cause = source or old[0], cause or old[1]
        try:
            yield self
        finally:
            self.default_source, self.default_cause = old

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
        source: str | None = None,
        cause: str = "",
        scale: Scale | None = None,
    ) -> Claim:
        """Add a claim whose verdict ``rule`` derives from ``value`` (default: ``ours``).

        ``rtol``/``atol`` are a shorthand for ``rule=close(paper, rtol=..., atol=...)``. Give
        ``value`` when the displayed ``ours`` is text (for example ``"15 / 1"``) and the rule
        applies to the numbers behind it. ``verdict=`` is accepted only as ``"not-comparable"``
        with a ``note`` saying why; a hand-written pass/differs cannot fail and is refused.

        ``source`` (``paper``/``spec``/``artifact``/``check``) is derived when the rule says it (a ``band`` is a
        printed paper number) or taken from :meth:`defaults`; ``cause`` explains a verdict other than pass. With
        ``scale`` below its needed value the claim is not-comparable, its cause the scale.
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
        if rule.kind == "band":
            # a band is a claim on a printed number: the paper's, or the authors' repository's behind its figures
            source = source or (self.default_source if self.default_source == "artifact" else "paper")
            if source not in ("paper", "artifact"):
                raise ValueError(f"claim {claim!r}: a band is a claim on a number the paper (or its artifact) prints; "
                                 f"its source is 'paper' or 'artifact', not {source!r}")
        source = check_source(source or self.default_source, claim) if (source or self.default_source) else ""
        cause = check_cause(cause, claim)
        if scale is not None and scale.below():
            # too small a run to compare: no verdict, and the cause says which scale (the rule it would have had is kept
            # in the note)
            note = f"{note + '; ' if note else ''}at full scale: {rule.text()}"
            rule, cause = not_comparable(f"{scale.what} = {_num(scale.ours):.3g}, below {_num(scale.needed):.3g}"), scale.cause()
        subject = ours if value is None else value
        v = rule.verdict(subject)
        otherwise = cause or self.default_cause
        cause = "" if v == "pass" else otherwise  # a cause explains a difference; a pass has none to explain
        if not note and rule.kind != "not_comparable":
            note = f"pass when {rule.describe()}"
        elif rule.kind == "not_comparable" and not note:
            note = rule.reason
        # The rule's input is stored at full precision (our_value is rounded for display), so re-evaluating a stored
        # claim gives the same verdict even under a tight tolerance.
        c = Claim(claim, _fmt(paper), _fmt(ours), v, note, rule.to_json(), _exact(subject), source, cause, otherwise)
        self.rows.append(c)
        return c

    def to_frame(self):
        import pandas as pd

        cols = ["claim", "paper_value", "our_value", "verdict", "source", "cause", "note"]
        return pd.DataFrame([{k: getattr(c, k) for k in cols} for c in self.rows], columns=cols)

    def _repr_html_(self) -> str:
        return self.to_frame().to_html(index=False)


def claim_defaults(source: str, *, cause: str = ""):
    """Decorator for a paper module's claims function ``f(claims, ...)``: its claims get ``source`` (and ``cause``
    for a non-pass) unless a claim says otherwise."""
    check_source(source)
    check_cause(cause)

    def wrap(fn):
        @functools.wraps(fn)
        def inner(claims: "Claims", *args, **kwargs):
            with claims.defaults(source=source, cause=cause):
                return fn(claims, *args, **kwargs)

        # read by the test that every paper's claims functions give a non-pass a cause
        inner.claim_cause = cause
        return inner

    return wrap


def rule_text(row: dict) -> str:
    """The ``rule`` column of a stored claim: its rule as text (empty for a legacy hand-written verdict)."""
    return Rule.from_json(row["rule"]).text() if row.get("rule") else ""


class ClaimsIncomplete(ValueError):
    """A claim the report cannot show: no source, or a verdict other than pass without a cause."""


def claim_row_problems(row: dict) -> list[str]:
    """What stops a stored claim (a row of ``claims.json`` plus ``notebook``) from entering the report, one line each."""
    where = f"claim {row.get('claim')!r}" + (f" of {row['notebook']}" if row.get("notebook") else "")
    out = []
    source = row.get("source") or ""
    if source not in SOURCES:
        out.append(f"{where} has no source ({'|'.join(SOURCES)}), got {source!r}")
    cause = str(row.get("cause") or "").strip()
    verdict = row.get("verdict")
    if verdict != "pass" and not cause:
        out.append(f"{where} is '{verdict}' with no cause ({', '.join(k + ':<...>' for k in CAUSE_KINDS)})")
    elif cause and not _CAUSE.match(cause):
        out.append(f"{where} has an unknown cause {cause!r}")
    return out


def claim_cause_problems(row: dict) -> list[str]:
    """What the report would refuse were this stored claim's verdict to flip: a claim that can come out other than
    pass (any rule but not_comparable, whatever its verdict in this run) must carry a cause for that case — its own
    ``cause`` or ``cause_if_not_pass`` (issue 24). Checked on passing runs, so a missing cause is found before a new
    seed or profile turns a pass into a difference and stops ``reproduce``."""
    where = f"claim {row.get('claim')!r}" + (f" of {row['notebook']}" if row.get("notebook") else "")
    cause = str(row.get("cause") or row.get("cause_if_not_pass") or "").strip()
    if not cause:
        return [f"{where} has no cause for a verdict other than pass ({', '.join(k + ':<...>' for k in CAUSE_KINDS)})"]
    if not _CAUSE.match(cause):
        return [f"{where} has an unknown cause {cause!r}"]
    return []


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
