"""Denial constraints (DCs) over pairs of tuples: parsing, validation, FD recognition, mirrors.

Two text syntaxes are accepted (detected per line):

* the artifact's ``not(t1.A=t2.A&t1.B!=t2.B)`` with operators ``= != < > <= >=``;
  the right-hand side may be a constant (``not(t1.Age<0)``, ``not(t1.State='NY'&...)``);
* HoloClean's ``t1&t2&EQ(t1.a,t2.a)&IQ(t1.b,t2.b)`` with ``EQ IQ LT GT LTE GTE``.

and a Python API: ``FD(["Capital"], "Country")`` (one DC per right-hand attribute when a list
is given) and ``DC([P("A", "=", "A"), ...])``. Errors name the line and the problem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

OPS = ("=", "!=", "<", ">", "<=", ">=")
_FLIP = {"=": "=", "!=": "!=", "<": ">", ">": "<", "<=": ">=", ">=": "<="}
_HOLO = {"EQ": "=", "IQ": "!=", "LT": "<", "GT": ">", "LTE": "<=", "GTE": ">="}
_SPLIT = re.compile(r"(!=|>=|<=|>|<|=)")
_TERM = re.compile(r"^\s*(t[12])\.([A-Za-z_][\w\- ]*?)\s*$")


@dataclass(frozen=True)
class Operand:
    """``t1.A``, ``t2.A`` or a constant."""

    tuple: int | None  # 1, 2 or None for a constant
    attr: str | None = None
    const: Any = None

    @property
    def is_const(self) -> bool:
        return self.tuple is None

    def __str__(self) -> str:
        if self.is_const:
            return repr(self.const) if isinstance(self.const, str) else str(self.const)
        return f"t{self.tuple}.{self.attr}"


@dataclass(frozen=True)
class Predicate:
    left: Operand
    op: str
    right: Operand

    def normalised(self) -> "Predicate":
        """Canonical form: a tuple operand on the left, t1 before t2, constants on the right."""
        l, op, r = self.left, self.op, self.right
        if l.is_const and not r.is_const:
            l, r, op = r, l, _FLIP[op]
        if not l.is_const and not r.is_const and l.tuple == 2 and r.tuple == 1:
            l, r, op = r, l, _FLIP[op]
        return Predicate(l, op, r)

    def swapped(self) -> "Predicate":
        """The predicate with the roles of t1 and t2 exchanged."""
        def sw(o: Operand) -> Operand:
            return o if o.is_const else Operand(3 - o.tuple, o.attr)
        return Predicate(sw(self.left), self.op, sw(self.right)).normalised()

    @property
    def is_same_attr_pair(self) -> bool:
        """``t1.A op t2.A`` (same attribute, one operand from each tuple)."""
        l, r = self.left, self.right
        return (not l.is_const and not r.is_const and l.tuple != r.tuple and l.attr == r.attr)

    @property
    def attributes(self) -> tuple[str, ...]:
        return tuple(o.attr for o in (self.left, self.right) if not o.is_const)

    def __str__(self) -> str:
        return f"{self.left}{self.op}{self.right}"


@dataclass(frozen=True)
class DC:
    """A denial constraint ¬(p1 ∧ … ∧ pk) over a pair of tuples (t1, t2).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §2 (denial constraints).
    """

    predicates: tuple[Predicate, ...]
    text: str = ""
    line: int | None = None

    def __post_init__(self):
        if not self.predicates:
            raise ValueError(f"{self.where()}a denial constraint needs at least one predicate")

    def where(self) -> str:
        """'line N: ' when the constraint came from a file line, else '' (the prefix of every error about it)."""
        return f"line {self.line}: " if self.line is not None else ""

    _where = where  # the earlier private name (spark_engine still uses it)

    @property
    def attributes(self) -> tuple[str, ...]:
        seen: list[str] = []
        for p in self.predicates:
            for a in p.attributes:
                if a not in seen:
                    seen.append(a)
        return tuple(seen)

    @property
    def is_unary(self) -> bool:
        """Only t1 (or only t2) occurs: a single-tuple constraint."""
        tuples = {o.tuple for p in self.predicates for o in (p.left, p.right) if not o.is_const}
        return len(tuples) <= 1

    @property
    def is_fd_like(self) -> bool:
        """Every predicate is ``t1.A = t2.A`` or ``t1.A != t2.A`` (same attribute): FDs, keys, multi-≠ DCs.

        A conflict then needs equal values on the ``=`` attributes, so Lemma 3's degree bound applies.
        """
        return all(p.is_same_attr_pair and p.op in ("=", "!=") for p in self.predicates) and bool(self.lhs)

    @property
    def lhs(self) -> tuple[str, ...]:
        """X: attributes of the same-attribute ``=`` predicates."""
        return tuple(p.left.attr for p in self.predicates if p.is_same_attr_pair and p.op == "=")

    @property
    def is_fd(self) -> bool:
        """A proper FD X → B: FD-like with exactly one ``!=``."""
        return self.is_fd_like and sum(p.op == "!=" for p in self.predicates) == 1

    def key(self) -> frozenset:
        return frozenset(p.normalised() for p in self.predicates)

    def mirror_key(self) -> frozenset:
        return frozenset(p.swapped() for p in self.predicates)

    def is_mirror_of(self, other: "DC") -> bool:
        """Same edge set: identical predicates, or identical after exchanging t1 and t2."""
        return self.key() == other.key() or self.key() == other.mirror_key()

    def __str__(self) -> str:
        return "not(" + "&".join(str(p) for p in self.predicates) + ")"


# ------------------------------------------------------------------------------------------------
# Python API
# ------------------------------------------------------------------------------------------------
def P(left: str, op: str, right: Any, *, const: bool = False) -> Predicate:
    """``P("A", "<", "B")`` = t1.A < t2.B; ``P("A", ">", 5, const=True)`` = t1.A > 5.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §2 (predicates of a denial constraint).
    """
    if op not in OPS:
        raise ValueError(f"unknown operator {op!r}; known: {', '.join(OPS)}")
    r = Operand(None, const=right) if const else Operand(2, str(right))
    return Predicate(Operand(1, str(left)), op, r)


def FD(lhs: Sequence[str] | str, rhs: Sequence[str] | str) -> DC | list[DC]:
    """Functional dependency X → Y as DC(s): one per attribute of Y (a list when Y has several).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §2 and §4.3 (functional dependencies as DCs).
    """
    lhs = [lhs] if isinstance(lhs, str) else list(lhs)
    rhs_list = [rhs] if isinstance(rhs, str) else list(rhs)
    if not lhs:
        raise ValueError("an FD needs at least one left-hand attribute")
    if not rhs_list:
        raise ValueError("an FD needs at least one right-hand attribute")
    out = []
    for b in rhs_list:
        out.append(make_dc(tuple(P(a, "=", a) for a in lhs) + (P(b, "!=", b),)))
    return out[0] if isinstance(rhs, str) else out


def make_dc(predicates: Iterable[Predicate], text: str = "") -> DC:
    """A DC built from predicates in code (not parsed from text), its ``text`` the printed form unless given: the
    DCs of :func:`FD` and the random DCs of the conflict-graph tests."""
    preds = tuple(predicates)
    d = DC(preds)
    return DC(preds, text=text or str(d))


# ------------------------------------------------------------------------------------------------
# text parsing
# ------------------------------------------------------------------------------------------------
def _parse_const(text: str, where: str) -> Any:
    t = text.strip()
    if not t:
        raise ValueError(f"{where}empty operand")
    if (t[0] == t[-1]) and t[0] in "'\"" and len(t) >= 2:
        return t[1:-1]
    try:
        return int(t)
    except ValueError:
        pass
    try:
        return float(t)
    except ValueError:
        pass
    raise ValueError(f"{where}malformed operand {t!r}: expected t1.<attr>, t2.<attr>, a number or a quoted string")


def _operand(text: str, where: str) -> Operand:
    m = _TERM.match(text)
    if m:
        return Operand(int(m.group(1)[1]), m.group(2).strip())
    if re.match(r"^\s*t\d+\.", text):
        raise ValueError(f"{where}only t1 and t2 may occur (pairwise DCs); got {text.strip()!r}")
    return Operand(None, const=_parse_const(text, where))


def _parse_artifact(body: str, where: str) -> list[Predicate]:
    preds = []
    for part in body.split("&"):
        if not part.strip():
            raise ValueError(f"{where}malformed text: empty predicate (stray '&')")
        pieces = _SPLIT.split(part)
        if len(pieces) != 3:
            bad = re.search(r"(==|=<|=>|<>|!(?!=)|~)", part)
            if bad or len(pieces) == 1:
                raise ValueError(f"{where}unknown or missing operator in {part.strip()!r}; known operators: {' '.join(OPS)}")
            raise ValueError(f"{where}malformed predicate {part.strip()!r}: exactly one operator expected")
        left, op, right = pieces
        preds.append(Predicate(_operand(left, where), op, _operand(right, where)))
    return preds


def _parse_holoclean(line: str, where: str) -> list[Predicate]:
    parts = [p.strip() for p in line.split("&")]
    preds = []
    for part in parts:
        if re.fullmatch(r"t\d+", part):
            continue
        m = re.fullmatch(r"([A-Z]+)\((.*),(.*)\)", part)
        if not m:
            raise ValueError(f"{where}malformed HoloClean predicate {part!r}; expected OP(t1.a,t2.b)")
        op = m.group(1)
        if op not in _HOLO:
            raise ValueError(f"{where}unknown operator {op!r}; known: {', '.join(_HOLO)}")
        preds.append(Predicate(_operand(m.group(2), where), _HOLO[op], _operand(m.group(3), where)))
    if not preds:
        raise ValueError(f"{where}no predicate found")
    return preds


def detect_syntax(text: str) -> str:
    """"artifact" (``not(...)``) or "holoclean" (``t1&t2&EQ(...)``) for one line."""
    t = text.strip()
    if t.lower().startswith("not(") or t.lower().startswith("¬("):
        return "artifact"
    if re.match(r"^t\d+\s*&", t) or re.match(r"^(EQ|IQ|LT|GT|LTE|GTE)\(", t):
        return "holoclean"
    raise ValueError(f"cannot tell the syntax of {t!r}: expected not(t1.A=t2.A&...) or t1&t2&EQ(t1.a,t2.a)&...")


def parse_dc(text: str, *, line: int | None = None, columns: Sequence[str] | None = None) -> DC:
    """Parse one DC in either syntax; ``columns`` (if given) validates attribute names.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §2; the artifact's dcs.txt syntax.
    """
    where = f"line {line}: " if line is not None else ""
    t = text.strip()
    if not t:
        raise ValueError(f"{where}empty constraint")
    syntax = detect_syntax(t) if line is None else _detect_at(t, where)
    if syntax == "artifact":
        if not t.endswith(")"):
            raise ValueError(f"{where}malformed text {t!r}: missing closing ')'")
        body = t[t.index("(") + 1 : -1]
        preds = _parse_artifact(body, where)
    else:
        preds = _parse_holoclean(t, where)
    dc = DC(tuple(preds), text=t, line=line)
    if columns is not None:
        validate_dc(dc, columns)
    return dc


def _detect_at(t: str, where: str) -> str:
    try:
        return detect_syntax(t)
    except ValueError as exc:
        raise ValueError(f"{where}{exc}") from None


def validate_dc(dc: DC, columns: Sequence[str], dtypes: dict | None = None) -> None:
    """Unknown attributes (listing the known ones) and, given ``dtypes``, incompatible comparisons.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §2.
    """
    where = dc.where()
    known = list(columns)
    for a in dc.attributes:
        if a not in known:
            raise ValueError(f"{where}unknown attribute {a!r} in {dc.text or dc}; known attributes: {', '.join(map(str, known))}")
    if dtypes is None:
        return
    for p in dc.predicates:
        kinds = []
        for o in (p.left, p.right):
            if o.is_const:
                kinds.append("number" if isinstance(o.const, (int, float)) else "string")
            else:
                kinds.append(dtypes[o.attr])
        if kinds[0] != kinds[1]:
            raise ValueError(f"{where}comparison of incompatible types in {p}: {kinds[0]} vs {kinds[1]}")


def parse_dcs(text: str, *, columns: Sequence[str] | None = None) -> list[DC]:
    """Parse a file's content: one DC per non-empty line; '#' starts a comment.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §2.
    """
    out = []
    for i, raw in enumerate(text.splitlines(), start=1):
        s = raw.split("#", 1)[0].strip() if not raw.strip().startswith("not(") else raw.strip()
        if not s:
            continue
        out.append(parse_dc(s, line=i, columns=columns))
    if not out:
        raise ValueError("no constraint found (empty file?)")
    return out


def load_dcs(path: str | Path, *, columns: Sequence[str] | None = None) -> list[DC]:
    """The DCs of a file (one per line, either syntax; see :func:`parse_dcs`); ``columns`` checks attribute names.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §2.
    """
    p = Path(path)
    if not p.exists():
        raise ValueError(f"constraint file not found: {p}")
    return parse_dcs(p.read_text(), columns=columns)


def unique_dcs(dcs: Sequence[DC]) -> tuple[list[DC], list[int]]:
    """Drop duplicates and mirrors; returns the kept DCs and, per input DC, the index of its representative.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §2.
    """
    kept: list[DC] = []
    rep: list[int] = []
    for dc in dcs:
        for j, k in enumerate(kept):
            if dc.is_mirror_of(k):
                rep.append(j)
                break
        else:
            kept.append(dc)
            rep.append(len(kept) - 1)
    return kept, rep


@dataclass(frozen=True)
class BoundConstraints:
    """Denial constraints checked against one table's schema, once, where the data enters.

    Made by :func:`bind`: every attribute exists, every comparison is between compatible kinds (``kinds`` maps
    each column to "number" or "string"), duplicates and mirrors are merged. The graph engines take this object and
    never look at the raw constraints or re-check them.
    """

    dcs: tuple[DC, ...]  # as given, in order (the per-DC edge sets follow it)
    pairwise: tuple[DC, ...]  # the two-tuple DCs without duplicates or mirrors
    rep: tuple[int, ...]  # per two-tuple input DC, the index of its representative in ``pairwise``
    unary: tuple[DC, ...]  # single-tuple DCs
    columns: tuple[str, ...]
    kinds: tuple[tuple[str, str], ...]  # (column, "number" | "string"), in column order

    def kind_map(self) -> dict[str, str]:
        return dict(self.kinds)

    def matches(self, columns: Sequence[str], kinds: dict[str, str]) -> bool:
        """Whether a table with these columns and kinds is the schema these constraints were bound to."""
        return tuple(map(str, columns)) == self.columns and {str(k): v for k, v in kinds.items()} == self.kind_map()


def bind(dcs: Sequence[DC] | BoundConstraints, kinds: dict[str, str]) -> BoundConstraints:
    """Check ``dcs`` against a table's schema (``kinds``: column → "number" | "string", in column order) and bind them.

    Raises ``ValueError`` naming the constraint (and its line) on an unknown attribute or a comparison of
    incompatible kinds. Already bound constraints are returned as they are when the schema matches.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §2; issue 12 item 5 (validate once where data enters).
    """
    if isinstance(dcs, BoundConstraints):
        if not dcs.matches(list(kinds), kinds):
            raise ValueError("the constraints were bound to another table's schema "
                             f"(columns {', '.join(dcs.columns)}); bind them to this table")
        return dcs
    dcs = tuple(dcs)
    if not dcs:
        raise ValueError("dcs is empty: give at least one denial constraint")
    columns = list(kinds)
    for d in dcs:
        validate_dc(d, columns, kinds)
    pairwise, rep = unique_dcs([d for d in dcs if not d.is_unary])
    return BoundConstraints(dcs, tuple(pairwise), tuple(rep), tuple(d for d in dcs if d.is_unary),
                            tuple(map(str, columns)), tuple((str(c), kinds[c]) for c in columns))


def fd_like(dcs: Sequence[DC]) -> list[DC]:
    return [d for d in dcs if d.is_fd_like]


__all__ = ["DC", "FD", "OPS", "BoundConstraints", "Operand", "P", "Predicate", "bind", "detect_syntax", "fd_like", "load_dcs", "make_dc",
           "parse_dc", "parse_dcs", "unique_dcs", "validate_dc"]
