"""Where a user's table enters the inconsistency paper: the public schema, the constraints checked against it, and
the rows typed cell by cell (issue 21).

A release of I_MI / I_P / I_R is ε-DP under add/remove-one-row only if one row cannot change how the *other*
rows are read. Column types inferred from the rows break that: with B = ``1`` and ``1.0`` in twenty rows pandas
reads B as a number (no conflict under A → B); one more row with B = ``x`` makes B text, the twenty rows now
conflict (edges 0 → 100, cover 0 → 20) and every row's content hash changes (the stable order breaks). So the
types come from a :class:`~dpworkbench.datasets.public_schema.PublicSchema` given as an argument (``--schema`` /
``schema=``) or, without one, from the documented header-only rule: **every column is text**. Under that rule a
constraint that orders a column (``<``, ``>``, ``<=``, ``>=``) or compares it with a number would compare text;
it is refused up front — on public inputs only, before any row is read — with one line naming ``--schema``.

What a cell that does not parse under its type becomes (NULL, or a declared default), how numbers are clipped into
declared bounds and text mapped into a declared domain: :mod:`dpworkbench.datasets.public_schema`. Nothing a row
holds makes a release refuse; the counts of nulled/clipped/mapped cells are NOT PRIVATE (``--show-exact``).
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any, Mapping, Sequence

import pandas as pd

from .._validation import check_user_path
from ..datasets.public_schema import ParseReport, PublicSchema, read_csv_public

ORDER_OPS = ("<", ">", "<=", ">=")
HEADER_RULE = "header-only rule (all text)"


def read_header(path: str | Path, what: str = "CSV") -> list[str]:
    """The column names of a CSV's first line (public), read without reading any row. Same rule as
    :func:`~dpworkbench.datasets.public_schema.read_raw_lines` (BOM dropped, bad UTF-8 replaced, quotes within the
    line). Errors name the path only."""
    p = check_user_path(path, what)
    try:
        with open(p, "rb") as fh:
            first = fh.readline()
    except OSError as exc:
        raise ValueError(f"{what} {p} cannot be read ({exc.strerror})") from None
    text = first.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text[:-1] if text.endswith("\n") else text
    text = text[:-1] if text.endswith("\r") else text
    if not text.strip():
        raise ValueError(f"{what} {p} has no header: the first line must name the columns")
    fields = text.split(",") if '"' not in text else next(csv.reader([text]))
    return [h.strip() for h in fields]


def resolve_schema(header: Sequence[str], schema: PublicSchema | str | Mapping[str, Any] | None = None, *,
                   what: str = "CSV") -> PublicSchema:
    """The public schema of a table with this header: ``schema`` (a :class:`PublicSchema`, the ``--schema`` text or
    a mapping), checked against the header, or the header-only all-text rule when ``None``."""
    if schema is None:
        return PublicSchema.all_text(list(header))
    if isinstance(schema, str):
        schema = PublicSchema.parse(schema)
    elif isinstance(schema, Mapping):
        schema = PublicSchema.from_mapping(schema)
    elif not isinstance(schema, PublicSchema):
        raise ValueError(f"schema must be a PublicSchema, a '--schema' string or a mapping, got {type(schema).__name__}")
    schema.check_header(list(header), what)
    return schema


def check_constraints(dcs: Sequence, schema: PublicSchema, *, flag: str = "--schema") -> None:
    """Refuse, on public inputs only, constraints the schema cannot evaluate as meant: under the header-only rule
    (every column text) an order comparison (``<``, ``>``, ``<=``, ``>=``) of a column, or a comparison of a column
    with a number, would compare text; one line names the constraint, the column and ``flag``. Then the constraints
    are checked against the schema's kinds (unknown attributes, incompatible types)."""
    from .constraints import validate_dc

    if schema.source == HEADER_RULE:
        for d in dcs:
            for p in d.predicates:
                cols = [o.attr for o in (p.left, p.right) if not o.is_const]
                num_const = any(o.is_const and not isinstance(o.const, str) for o in (p.left, p.right))
                if cols and (p.op in ORDER_OPS or num_const):
                    why = f"compares with {p.op}" if p.op in ORDER_OPS else "compares with a number"
                    raise ValueError(
                        f"{d.where()}{d.text or d}: {p} {why}, but without {flag} every column is text; declare the "
                        f"column's type, e.g. {flag} '{cols[0]}:float' (with every other column of the header)")
    kinds = schema.kinds()
    for d in dcs:
        validate_dc(d, schema.names, kinds)


def type_frame(df: pd.DataFrame, schema: PublicSchema | str | Mapping[str, Any] | None
               ) -> tuple[pd.DataFrame, PublicSchema | None, ParseReport | None]:
    """A user's DataFrame typed cell by cell under a public schema. ``schema=None``: the frame's own dtypes are the
    caller's declaration (fixed before the rows, as with the package's generators) and it is returned unchanged."""
    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"df must be a pandas DataFrame, got {type(df).__name__}")
    if schema is None:
        return df, None, None
    s = resolve_schema([str(c) for c in df.columns], schema, what="table")
    typed, report = s.apply(df.rename(columns=str)[s.names])
    return typed, s, report


def load_csv(path: str | Path, schema: PublicSchema | str | Mapping[str, Any] | None = None, *, dcs: Sequence = (),
             what: str = "CSV", flag: str = "schema=") -> tuple[pd.DataFrame, PublicSchema, ParseReport]:
    """A user's CSV for a release: one physical line = one row, typed cell by cell under ``schema`` (default: the
    header-only all-text rule). ``dcs`` are checked against the schema first — on the header and the flags alone,
    before any row is read. Returns (typed frame, the public schema used, the NOT PRIVATE parse report)."""
    header = read_header(path, what)
    s = resolve_schema(header, schema, what=f"{what} {path}")
    if dcs:
        check_constraints(dcs, s, flag=flag)
    return read_csv_public(path, s, what=what)


__all__ = ["HEADER_RULE", "ORDER_OPS", "check_constraints", "load_csv", "read_header", "resolve_schema", "type_frame"]


def constraints_from_args(values, *, columns) -> list:
    """The denial constraints of ``--dcs``/``--dc`` values: each is a file (one DC per line) or constraints written
    inline (``'not(t1.A=t2.A&t1.B!=t2.B)'``; several separated by ``;``). Errors name the value."""
    from .constraints import parse_dcs

    dcs = []
    for value in values if isinstance(values, (list, tuple)) else [values]:
        p = Path(value)
        if p.is_file():
            try:
                text = p.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                raise ValueError(f"--dcs {p} is not UTF-8 text; re-save it as UTF-8") from None
            source = f"--dcs {p}"
        elif any(ch in value for ch in "(&=<>"):  # a file name has none of these; every DC has a predicate
            text, source = "\n".join(value.split(";")), f"--dc {value!r}"
        else:
            raise ValueError(f"--dcs {value}: no such file, and not a constraint such as 'not(t1.A=t2.A&t1.B!=t2.B)'")
        try:
            dcs.extend(parse_dcs(text, columns=columns))
        except ValueError as exc:
            raise ValueError(f"{source}: {exc}") from None
    return dcs


def public_inputs(path, *, schema, dcs, id_column):
    """The subcommand's public inputs — (schema, constraints) — from its flags and the CSV's header alone, before
    any row is read: every refusal here is the same for every dataset with this header. (The privacy harness reads
    its file-level neighbours through this function and ``read_csv_public``, as the subcommand does.)"""
    header = read_header(path, "CSV")
    schema = resolve_schema(header, schema, what=f"CSV {path}")
    if id_column is not None and id_column not in header:
        raise ValueError(f"--id-column {id_column!r} not in {path} (columns: {', '.join(header)})")
    dcs = constraints_from_args(dcs, columns=header)
    check_constraints(dcs, schema, flag="--schema")
    return schema, dcs
