"""The public schema of a private table, and the one rule that turns a user's raw file into typed columns.

Why this exists: a release is ε-DP only if everything it treats as *public* is fixed before the private rows are
read. Column types inferred by pandas / DuckDB / Spark from the rows are not: one added row with ``x`` in a numeric
column turns the whole column into text, and every other row is then read differently (issue 21, finding 1).
So a release types its columns from a :class:`PublicSchema` given as an argument (``--schema`` / ``schema=``), or,
when none is given, by the documented header-only rule: **every column is text**.

The parsing rule is applied cell by cell, so one row can never change how another row is read:

* every cell is read as the raw string of the file (no NA inference);
* an empty cell is NULL, for every type;
* ``int`` / ``float``: the cell is parsed as a decimal number (``float`` also accepts exponents); a cell that does
  not parse, or parses to NaN/±inf, is NULL (or the column's declared ``default``); ``int`` also takes an
  integral float such as ``1.0``; a declared ``[lower, upper]`` clips the parsed value into the bounds;
* ``text`` with a declared ``domain``: a value outside it maps to the declared ``other`` category, or to NULL.

What was nulled, clipped or mapped is counted in a :class:`ParseReport`: exact counts of the private data, so NOT
PRIVATE, shown only with ``--show-exact``. Messages about a file name only public things (the flag, the path,
the schema's and the header's column names), never a cell.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from .._validation import read_user_bytes

TYPES = ("text", "int", "float")


@dataclass(frozen=True)
class ColumnSpec:
    """One column's public declaration: its type, and optionally numeric bounds (clip) or a categorical domain."""

    name: str
    type: str = "text"
    lower: float | None = None
    upper: float | None = None
    domain: tuple[str, ...] | None = None
    other: str | None = None  # an out-of-domain text value maps here (None: NULL)
    default: Any = None  # what an unparseable or empty cell becomes (None: NULL)

    def __post_init__(self) -> None:
        if self.type not in TYPES:
            raise ValueError(f"schema column {self.name!r}: type must be one of {', '.join(TYPES)}, got {self.type!r}")
        if (self.lower is not None or self.upper is not None) and self.type == "text":
            raise ValueError(f"schema column {self.name!r}: bounds need a numeric type (int or float), not text")
        if self.lower is not None and self.upper is not None and not self.lower <= self.upper:
            raise ValueError(f"schema column {self.name!r}: bounds [{self.lower}, {self.upper}] need lower ≤ upper")
        if self.domain is not None and self.type != "text":
            raise ValueError(f"schema column {self.name!r}: a domain is for text columns; give bounds for numbers")

    def describe(self) -> str:
        s = f"{self.name}:{self.type}"
        if self.lower is not None or self.upper is not None:
            s += f"[{'' if self.lower is None else _num(self.lower)},{'' if self.upper is None else _num(self.upper)}]"
        if self.domain is not None:
            s += "{" + "|".join(self.domain) + "}"
        return s


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


@dataclass(frozen=True)
class PublicSchema:
    """The ordered public columns of a private table.

    Build one with :meth:`parse` (the ``--schema`` text ``"A:int, B:float[0,100], C:text{x|y|z}"``, or ``@file``
    naming a file holding that text or a JSON object ``{"A": "int", ...}``), :meth:`from_mapping`, or
    :meth:`all_text` (the header-only default)."""

    columns: tuple[ColumnSpec, ...]
    source: str = "declared"  # "declared" or "header-only rule (all text)"

    def __post_init__(self) -> None:
        names = [c.name for c in self.columns]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(f"schema names column(s) {', '.join(dup)} twice")

    # -- construction ---------------------------------------------------------------------------------------------
    @classmethod
    def all_text(cls, names: Sequence[str]) -> "PublicSchema":
        """The documented rule that types every column from the header alone: all text."""
        return cls(tuple(ColumnSpec(str(n)) for n in names), source="header-only rule (all text)")

    @classmethod
    def from_mapping(cls, spec: Mapping[str, Any]) -> "PublicSchema":
        """``{"A": "int", "B": {"type": "float", "lower": 0, "upper": 100}, "C": {"domain": [...]}}``."""
        cols = []
        for name, v in spec.items():
            if isinstance(v, str):
                cols.append(_parse_column(f"{name}:{v}"))
            elif isinstance(v, Mapping):
                kw = dict(v)
                if "domain" in kw and kw["domain"] is not None:
                    kw["domain"] = tuple(str(d) for d in kw["domain"])
                kw.setdefault("type", "text")
                try:
                    cols.append(ColumnSpec(str(name), **kw))
                except TypeError as exc:
                    raise ValueError(f"schema column {name!r}: {exc}") from None
            else:
                raise ValueError(f"schema column {name!r}: give a type string or a mapping, got {type(v).__name__}")
        return cls(tuple(cols))

    @classmethod
    def parse(cls, text: str) -> "PublicSchema":
        """Parse ``--schema``: ``"A:int, B:float[0,100], C:text{x|y}"`` or ``@path`` (that text or JSON)."""
        text = str(text).strip()
        if text.startswith("@"):
            p = Path(text[1:])
            if not p.is_file():
                raise ValueError(f"--schema file not found: {p}")
            text = p.read_text(encoding="utf-8").strip()
            if text.startswith("{"):
                try:
                    return cls.from_mapping(json.loads(text))
                except json.JSONDecodeError as exc:
                    raise ValueError(f"--schema file {p} is not valid JSON: {exc.msg} (line {exc.lineno})") from None
        if not text:
            raise ValueError("--schema is empty: give NAME:TYPE pairs, e.g. 'A:int, B:float[0,100], C:text'")
        return cls(tuple(_parse_column(part) for part in _split_top(text)))

    # -- use ------------------------------------------------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]

    def column(self, name: str) -> ColumnSpec:
        for c in self.columns:
            if c.name == name:
                return c
        raise ValueError(f"column {name!r} is not in the schema (columns: {', '.join(self.names)})")

    def kinds(self) -> dict[str, str]:
        """column → "number" | "string" (the kinds the denial-constraint checker speaks)."""
        return {c.name: ("string" if c.type == "text" else "number") for c in self.columns}

    def describe(self) -> str:
        return ", ".join(c.describe() for c in self.columns)

    def to_public(self) -> dict:
        """The schema as a public input of a release (JSON-able)."""
        return {"rule": self.source, "columns": [c.describe() for c in self.columns]}

    def check_header(self, header: Sequence[str], what: str = "CSV") -> None:
        """A declared schema must name exactly the file's header columns (both public), in any order."""
        header = [str(h) for h in header]
        missing = [n for n in self.names if n not in header]
        extra = [h for h in header if h not in self.names]
        if missing or extra:
            parts = []
            if missing:
                parts.append(f"schema columns not in the header: {', '.join(missing)}")
            if extra:
                parts.append(f"header columns not in the schema: {', '.join(extra)}")
            raise ValueError(f"{what}: the header does not match --schema ({'; '.join(parts)})")

    def apply(self, raw: pd.DataFrame) -> tuple[pd.DataFrame, "ParseReport"]:
        """Type a frame of raw strings (as read by :func:`read_csv_public`, or a user's DataFrame) cell by cell.

        Columns come out in the schema's order: ``text`` as object (str or None), ``int`` as pandas ``Int64``,
        ``float`` as float64 with NaN for NULL."""
        self.check_header(list(raw.columns), "table")
        out: dict[str, Any] = {}
        report = ParseReport()
        for c in self.columns:
            out[c.name], stats = _parse_series(raw[c.name], c)
            report.columns[c.name] = stats
        return pd.DataFrame(out, index=pd.RangeIndex(len(raw))), report


@dataclass
class ParseReport:
    """Per column: cells nulled (empty or unparseable), clipped into bounds, mapped out of the domain.
    Exact counts of the private data: NOT PRIVATE."""

    columns: dict[str, dict[str, int]] = field(default_factory=dict)

    def total(self) -> dict[str, int]:
        keys = ("null", "unparseable", "clipped", "out_of_domain")
        return {k: int(sum(v.get(k, 0) for v in self.columns.values())) for k in keys}


def _split_top(text: str) -> list[str]:
    """Split on commas outside [] and {}."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


_COL_RE = re.compile(r"^(?P<name>[^:]+?)\s*:\s*(?P<type>[A-Za-z]+)\s*(?:\[(?P<bounds>[^\]]*)\])?\s*(?:\{(?P<dom>[^}]*)\})?$")


def _parse_column(part: str) -> ColumnSpec:
    m = _COL_RE.match(part.strip())
    if not m:
        raise ValueError(f"--schema entry {part.strip()!r}: write NAME:TYPE, NAME:TYPE[LO,HI] or NAME:text{{a|b|c}} "
                         f"(types: {', '.join(TYPES)})")
    name, typ = m.group("name").strip(), m.group("type").lower()
    lower = upper = None
    if m.group("bounds") is not None:
        lo_hi = [s.strip() for s in m.group("bounds").split(",")]
        if len(lo_hi) != 2:
            raise ValueError(f"--schema entry {part.strip()!r}: bounds are [LO,HI]")
        try:
            lower = float(lo_hi[0]) if lo_hi[0] else None
            upper = float(lo_hi[1]) if lo_hi[1] else None
        except ValueError:
            raise ValueError(f"--schema entry {part.strip()!r}: bounds must be numbers") from None
        if any(b is not None and not math.isfinite(b) for b in (lower, upper)):
            raise ValueError(f"--schema entry {part.strip()!r}: bounds must be finite")
    domain = None
    if m.group("dom") is not None:
        domain = tuple(v.strip() for v in m.group("dom").split("|"))
    return ColumnSpec(name, typ, lower, upper, domain)


_NUMBER_RE = r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$"


def _parse_series(s: pd.Series, c: ColumnSpec) -> tuple[pd.Series, dict[str, int]]:
    """One column under its public rule; each cell's result depends on that cell alone (vectorised in Arrow)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if pd.api.types.infer_dtype(s, skipna=True) not in ("string", "empty"):
        # a user's DataFrame may hold numbers: read each cell as its text (float 1.0 as "1.0")
        s = pd.Series([None if _isna(x) else (x if isinstance(x, str) else _cell_text(x)) for x in s.tolist()],
                      dtype=object)
    text = pa.array(s.to_numpy(dtype=object), type=pa.string(), from_pandas=True)
    stripped = pc.utf8_trim_whitespace(text)
    empty = pc.fill_null(pc.equal(stripped, ""), True)
    empty_np = empty.to_numpy(zero_copy_only=False)
    stats = {"null": int(empty_np.sum()), "unparseable": 0, "clipped": 0, "out_of_domain": 0}
    if c.type == "text":
        vals = pc.if_else(empty, pa.scalar(None, pa.string()), text)
        if c.domain is not None:
            inside = pc.or_(empty, pc.fill_null(pc.is_in(vals, value_set=pa.array(list(c.domain), pa.string())), False))
            stats["out_of_domain"] = int((~inside.to_numpy(zero_copy_only=False)).sum())
            vals = pc.if_else(inside, vals, pa.scalar(c.other, pa.string()))
        out = vals.to_numpy(zero_copy_only=False).astype(object)
        out[pd.isna(out)] = None if c.default is None else c.default
        return pd.Series(out, index=s.index, dtype=object), stats
    ok = pc.fill_null(pc.match_substring_regex(stripped, _NUMBER_RE), False)
    num = pc.cast(pc.if_else(ok, stripped, pa.scalar(None, pa.string())), pa.float64()).to_numpy(zero_copy_only=False)
    num = np.array(num, dtype=float)  # nulls come back as NaN
    bad = ~empty_np & ~np.isfinite(num)  # not a decimal number, or overflows to ±inf
    if c.type == "int":
        # An integral float ("1.0") is the integer; anything else (1.5, "x") does not parse as int.
        frac = np.isfinite(num) & (np.floor(num) != num)
        bad |= frac
        num[frac] = np.nan
    stats["unparseable"] = int(bad.sum())
    num[~np.isfinite(num)] = np.nan
    if c.lower is not None or c.upper is not None:
        lo = -np.inf if c.lower is None else c.lower
        hi = np.inf if c.upper is None else c.upper
        stats["clipped"] = int((np.isfinite(num) & ((num < lo) | (num > hi))).sum())
        num = np.clip(num, lo, hi)
    if c.default is not None:
        num[np.isnan(num)] = float(c.default)
    if c.type == "int":
        return pd.Series(num, index=s.index).round().astype("Int64"), stats
    return pd.Series(num, index=s.index, dtype=float), stats


def _isna(x: Any) -> bool:
    try:
        return bool(pd.isna(x))
    except (TypeError, ValueError):
        return False


def _cell_text(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        return repr(v)
    return str(v)


def read_raw_lines(path: str | Path, what: str = "CSV") -> pd.DataFrame:
    """A user's CSV as a frame of raw strings, by a rule under which **one physical line is one row**:

    * the first line is the header (public: it names the columns); a leading BOM is dropped;
    * bytes that are not UTF-8 become U+FFFD in their cell (UTF-8 resynchronises within the line);
    * every later line is one row, a trailing newline at the end of the file excepted; a blank line, or a line
      whose field count differs from the header's, is a row of NULLs (None);
    * a quoted field is parsed within its line (a quote cannot swallow the lines after it).

    So adding, removing or changing one line changes exactly one row and no other. Refusals depend only on the
    file's existence and its header; the message names the path, never a cell.

    Speed: pandas' C parser reads the file with quoting off, so its rows are physical lines; the lines it cannot
    take as they are (a quote, a wrong field count, a blank) are found from per-line byte counts and re-read one
    by one under the rule above. A file with a lone carriage return takes the pure-Python path."""
    p = Path(path)
    data = read_user_bytes(p, what).removeprefix(b"\xef\xbb\xbf")
    if not data.strip(b"\r\n\t "):
        raise ValueError(f"{what} {p} has no header: the first line must name the columns")
    first_nl = data.find(b"\n")
    header_line = data if first_nl < 0 else data[:first_nl]
    header = [h.strip() for h in _split_line(header_line.decode("utf-8", errors="replace").removesuffix("\r"))]
    if not any(header):
        raise ValueError(f"{what} {p} has no header: the first line must name the columns")
    dup = sorted({h for h in header if header.count(h) > 1})
    if dup:
        raise ValueError(f"{what} {p}: the header names column(s) {', '.join(dup)} twice")
    body = b"" if first_nl < 0 else data[first_nl + 1:]
    if b"\r" in body.replace(b"\r\n", b""):
        return _read_lines_python(body, header)
    return _read_lines_fast(body, header)


def _split_line(line: str) -> list[str]:
    import csv

    return line.split(",") if '"' not in line else next(csv.reader([line]), [""])


def _read_lines_python(body: bytes, header: list[str]) -> pd.DataFrame:
    lines = body.decode("utf-8", errors="replace").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    k = len(header)
    empty = [None] * k
    rows = []
    for ln in lines:
        ln = ln.removesuffix("\r")
        f = _split_line(ln) if ln else empty
        rows.append(f if len(f) == k else empty)
    return pd.DataFrame(rows, columns=header, dtype=object) if rows else pd.DataFrame(columns=header, dtype=object)


def _read_lines_fast(body: bytes, header: list[str]) -> pd.DataFrame:
    import csv
    import io

    k = len(header)
    if not body:
        return pd.DataFrame(columns=header, dtype=object)
    if not body.endswith(b"\n"):
        body += b"\n"
    arr = np.frombuffer(body, dtype=np.uint8)
    ends = np.flatnonzero(arr == 10)  # one per line
    starts = np.concatenate(([0], ends[:-1] + 1))
    n_commas = np.bincount(np.searchsorted(ends, np.flatnonzero(arr == 44)), minlength=len(ends))
    has_quote = np.bincount(np.searchsorted(ends, np.flatnonzero(arr == 34)), minlength=len(ends)) > 0
    length = ends - starts - (arr[np.maximum(ends - 1, 0)] == 13)  # a line's length without its \r
    blank = length <= 0
    too_many = n_commas > k - 1
    # pandas (quoting off) skips lines with too many fields and yields one row for every other line, blank ones too
    parsed = pd.read_csv(io.BytesIO(body), header=None, names=list(range(k)), dtype=object, keep_default_na=False,
                         na_filter=False, skip_blank_lines=False, quoting=csv.QUOTE_NONE, on_bad_lines="skip",
                         encoding="utf-8", encoding_errors="replace", engine="c")
    vals = np.empty((len(ends), k), dtype=object)
    kept = ~too_many
    if int(kept.sum()) != len(parsed):  # never expected; the per-line rule is the definition, so fall back to it
        return _read_lines_python(body, header)
    vals[kept] = parsed.to_numpy(dtype=object)
    vals[(n_commas != k - 1) | blank] = None
    for i in np.flatnonzero(has_quote & ~blank):  # re-read each quoted line on its own
        line = body[starts[i]:ends[i]].decode("utf-8", errors="replace").removesuffix("\r")
        f = _split_line(line)
        vals[i] = f if len(f) == k else None
    return pd.DataFrame(vals, columns=header)


def read_csv_public(path: str | Path, schema: PublicSchema | None = None, *,
                    what: str = "CSV") -> tuple[pd.DataFrame, PublicSchema, ParseReport]:
    """Read a user's CSV by :func:`read_raw_lines` and type it by ``schema`` (default: the header-only all-text
    rule). Returns the typed frame, the schema used (a public input of the release) and the NOT PRIVATE parse
    report. Errors name the file and public column names only."""
    raw = read_raw_lines(path, what)
    if schema is None:
        schema = PublicSchema.all_text(list(raw.columns))
    else:
        schema.check_header(list(raw.columns), what)
    df, report = schema.apply(raw[schema.names])
    return df, schema, report


__all__ = ["ColumnSpec", "ParseReport", "PublicSchema", "TYPES", "read_csv_public", "read_raw_lines"]
