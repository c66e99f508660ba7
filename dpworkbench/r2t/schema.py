"""The public schema R2T's privacy model needs: primary keys, foreign keys and column types (issue 22).

R2T's individual (seed 001 §3) is one tuple of a *primary private relation* together with every tuple that
references it, directly or transitively, through declared foreign keys. Those keys are public (the schema is), so
they are read from where the schema lives, never off the rows:

* :func:`catalog_from_duckdb`: a DuckDB database file's catalog (``duckdb_constraints()``, ``duckdb_columns()``);
* :func:`catalog_from_ddl`: a DDL script (``CREATE TABLE ... PRIMARY KEY ... REFERENCES ...``), parsed by DuckDB
  itself in a scratch in-memory database that holds no data.

:func:`load_csv_view` types a CSV by its declared column types with a row-local rule: the file is read one physical
line per row (:func:`~dpworkbench.datasets.public_schema.read_raw_lines`, every cell text), and each cell is
``TRY_CAST`` to its declared type, so a cell that does not parse is NULL and cannot change how any other row is read
(issue 21, finding 1). Without a declared schema every CSV column is text (the header-only rule).
:func:`load_parquet_view` reads a Parquet file by the same rule (each cell's text, ``TRY_CAST`` to its declared
type, text without a schema): the file's own column types are not the public schema.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class ForeignKey:
    """``table(columns)`` references ``ref_table(ref_columns)``."""

    table: str
    columns: tuple[str, ...]
    ref_table: str
    ref_columns: tuple[str, ...]

    def describe(self) -> str:
        return f"{self.table}({', '.join(self.columns)}) → {self.ref_table}({', '.join(self.ref_columns)})"


@dataclass
class Catalog:
    """Tables with their column types, primary keys and foreign keys (all lower-case names). Public."""

    columns: dict[str, dict[str, str]] = field(default_factory=dict)  # table → column → SQL type
    primary: dict[str, tuple[str, ...]] = field(default_factory=dict)
    foreign: list[ForeignKey] = field(default_factory=list)
    source: str = ""

    def has(self, table: str) -> bool:
        return table.lower() in self.columns

    def fks_of(self, table: str) -> list[ForeignKey]:
        return [f for f in self.foreign if f.table == table.lower()]

    def enum_values(self, table: str, column: str) -> tuple[str, ...] | None:
        """The declared values of an ENUM column (a public domain), else None."""
        t = self.columns.get(table.lower(), {}).get(column.lower(), "")
        m = re.match(r"^\s*ENUM\s*\((.*)\)\s*$", t, re.IGNORECASE | re.DOTALL)
        if not m:
            return None
        return tuple(v.replace("''", "'") for v in re.findall(r"'((?:[^']|'')*)'", m.group(1)))

    def depends(self, private: set[str], roots=None) -> dict[str, bool]:
        """Per table: whether it is, or references directly or transitively, a primary private relation.

        Refuses a foreign-key cycle among the tables reachable from ``roots`` (default: all), on which R2T's
        individuals are undefined: a decision on public inputs only."""
        state: dict[str, int] = {}
        dep: dict[str, bool] = {}

        def visit(t: str, path: list[str]) -> bool:
            if state.get(t) == 1:
                cyc = path[path.index(t):] + [t]
                raise ValueError("the declared foreign keys form a cycle (" + " → ".join(cyc) + "): R2T's individuals "
                                 "(a private tuple with the tuples referencing it) are not defined; drop one key")
            if state.get(t) == 2:
                return dep[t]
            state[t] = 1
            d = t in private
            for f in self.fks_of(t):
                d = visit(f.ref_table, path + [t]) or d
            state[t] = 2
            dep[t] = d
            return d

        for t in list(self.columns) if roots is None else [r.lower() for r in roots if r and r.lower() in self.columns]:
            visit(t, [])
        return dep

    def describe(self) -> dict:
        return {"source": self.source,
                "primary keys": {t: list(k) for t, k in sorted(self.primary.items())},
                "foreign keys": [f.describe() for f in self.foreign]}


def catalog_from_duckdb(con, source: str = "DuckDB catalog") -> Catalog:
    """Primary/foreign keys and column types from a DuckDB connection's catalog (no row is read)."""
    cat = Catalog(source=source)
    for t, c, typ in con.execute("SELECT table_name, column_name, data_type FROM duckdb_columns() "
                                 "WHERE NOT internal ORDER BY table_name, column_index").fetchall():
        cat.columns.setdefault(t.lower(), {})[c.lower()] = str(typ)
    rows = con.execute("SELECT table_name, constraint_type, constraint_column_names, referenced_table, "
                       "referenced_column_names, constraint_text FROM duckdb_constraints()").fetchall()
    seen = set()
    for t, kind, cols, ref, ref_cols, text in rows:
        cols = tuple(str(c).lower() for c in (cols or []))
        if kind == "PRIMARY KEY":
            cat.primary[t.lower()] = cols
        elif kind == "FOREIGN KEY" and ref:  # (a self-reference has an empty constraint_text)
            fk = ForeignKey(t.lower(), cols, str(ref).lower(), tuple(str(c).lower() for c in (ref_cols or [])))
            if fk not in seen:
                seen.add(fk)
                cat.foreign.append(fk)
    return cat


def catalog_from_ddl(path: str | Path) -> Catalog:
    """The catalog declared by a DDL script (``--schema FILE.sql``), parsed by DuckDB in an empty scratch database."""
    import duckdb

    p = Path(path)
    if not p.is_file():
        raise ValueError(f"--schema file not found: {p}")
    text = p.read_text(encoding="utf-8", errors="replace")
    key = (str(p), text)
    if key not in _DDL_CATALOGS:
        scratch = duckdb.connect()
        try:
            scratch.execute(text)
            _DDL_CATALOGS[key] = catalog_from_duckdb(scratch, source=f"DDL {p.name}")
        except duckdb.Error as exc:  # the DDL is public: quoting DuckDB's message leaks nothing
            raise ValueError(f"--schema {p}: not valid DDL: {str(exc).strip().splitlines()[0]}") from None
        finally:
            scratch.close()
    # a copy: callers may complete the catalog (its lists and dicts are theirs)
    return copy.deepcopy(_DDL_CATALOGS[key])


# Catalogs parsed per (path, DDL text): parsing opens a DuckDB database (~20 ms), and an in-process caller that runs
# one command many times (the privacy harness: 1,500 runs of `r2t sql --schema` per audit) parsed the same public
# DDL on every run, 43 % of that audit's time. Keyed by the text, so an edited file is parsed again.
_DDL_CATALOGS: dict[tuple[str, str], Catalog] = {}


def check_columns(have: list[str], types: dict[str, str], what: str, *, part: str = "file",
                  against: str = "--schema") -> None:
    """Refuse a table whose columns (its header: public, like the schema) are not exactly the declared ones, naming
    both differences; the one rule of the CSV and Parquet loaders here and of Spark's ``register_tables``."""
    low = {h.lower() for h in have}
    missing = [c for c in types if c not in low]
    extra = [h for h in have if h.lower() not in types]
    if missing or extra:
        parts = ([f"schema columns not in the {part}: {', '.join(missing)}"] if missing else []) + \
                ([f"{part} columns not in the schema: {', '.join(extra)}"] if extra else [])
        raise ValueError(f"{what}: the {part} does not match {against} ({'; '.join(parts)})")


def load_csv_view(con, name: str, path: Path, types: dict[str, str] | None) -> None:
    """Create view ``name`` over the CSV at ``path``: one physical line per row, each cell ``TRY_CAST`` to its
    declared type (NULL when it does not parse), or text for every column when no type is declared."""
    from ..datasets.public_schema import read_raw_lines

    raw = read_raw_lines(path, what=f"--table {name} ({path})")
    header = [str(h) for h in raw.columns]
    if types is not None:
        check_columns(header, types, f"--table {name} ({path})", part="header")
    raw_name = f"__raw_{name}"
    con.register(raw_name, raw.astype(object).where(raw.notna(), None))
    cols = []
    for h in header:
        q = '"' + h.replace('"', '""') + '"'
        typ = None if types is None else types[h.lower()]
        # TRY_CAST is per cell: an unparseable value is NULL in its own row only (issue 21, finding 1)
        cols.append(f"TRY_CAST({q} AS {typ}) AS {q}" if typ and typ.upper() != "VARCHAR" else f"CAST({q} AS VARCHAR) AS {q}")
    con.execute(f"CREATE VIEW {name} AS SELECT {', '.join(cols) or '*'} FROM {raw_name}")


def load_parquet_view(con, name: str, path: Path, types: dict[str, str] | None) -> None:
    """Create view ``name`` over the Parquet file at ``path`` by the rule :func:`load_csv_view` uses for a CSV.

    The file's own column types are not used: they are written by whoever made the file, often inferred from its
    rows (pandas stores a column of integers as int64, but as text if one cell is not a number), so they are not the
    public schema. Each cell is read as its text (``CAST ... AS VARCHAR``) and ``TRY_CAST`` to its declared type (NULL
    when it does not parse), exactly as a CSV cell is; without a declared schema every column is text (the
    header-only rule). Only the column names are read off the file, as a CSV's header is."""
    lit = str(path).replace("'", "''")
    have = [c[0] for c in con.execute(f"DESCRIBE SELECT * FROM read_parquet('{lit}')").fetchall()]
    low = {h.lower(): h for h in have}
    if types is not None:  # the same refusal as a CSV's header: a file's columns are the declared ones, no more
        check_columns(have, types, f"--table {name} ({path})")
    cols = []
    for h in (have if types is None else [low[c] for c in types]):
        q = '"' + h.replace('"', '""') + '"'
        typ = None if types is None else types[h.lower()]
        text = f"CAST({q} AS VARCHAR)"  # the cell's text, as a CSV holds it; then the CSV's per-cell rule
        cols.append(f"TRY_CAST({text} AS {typ}) AS {q}" if typ and typ.upper() != "VARCHAR" else f"{text} AS {q}")
    con.execute(f"CREATE VIEW {name} AS SELECT {', '.join(cols) or '*'} FROM read_parquet('{lit}')")


# --- the CLI's flags for tables, primary private relations and group domains -----------------------------------------
def table_arg(text: str) -> tuple[str, Path]:
    """``--table NAME=PATH``: an SQL identifier and a readable, non-empty file."""
    if "=" not in text:
        raise ValueError(f"--table must be NAME=PATH, got {text!r}")
    name, path = text.split("=", 1)
    if not name.isidentifier():
        raise ValueError(f"--table name must be an SQL identifier, got {name!r}")
    from ..cli.common import check_input_file

    # a 0-byte file has no header, and the schema is public: refusing it depends on no private value
    return name, check_input_file(path, f"--table {name}")


def private_arg(text: str) -> str:
    """``--private RELATION | ALIAS:KEY[:RELATION]``, checked for its shape."""
    parts = text.split(":")
    if len(parts) == 1 and parts[0].strip().isidentifier():
        return parts[0].strip()  # --private RELATION: its key comes from the declared schema
    if len(parts) not in (2, 3) or not all(parts):
        raise ValueError(f"--private must be RELATION, ALIAS:KEY or ALIAS:KEY:RELATION, got {text!r}")
    return text


def groups_arg(items: list[str] | None) -> dict[str, list[str]]:
    """``--groups EXPR=v1|v2|...`` (repeatable): the public domain of each GROUP BY expression."""
    out = {}
    for text in items or []:
        if "=" not in text:
            raise ValueError(f"--groups must be EXPR=v1|v2|..., got {text!r}")
        expr, vals = text.split("=", 1)
        out[expr.strip()] = [v.strip() for v in vals.split("|")]
    return out


def load_tables(con, tables: list[str], catalog=None) -> None:
    """Each ``--table NAME=PATH`` as a view: CSV by :func:`load_csv_view`, Parquet by :func:`load_parquet_view`."""
    import duckdb

    for spec in tables:
        name, path = table_arg(spec)
        suffix = path.suffix.lower()
        types = catalog.columns.get(name.lower()) if catalog is not None else None
        try:
            if suffix in (".parquet", ".pq"):
                load_parquet_view(con, name, path, types)
            elif suffix in (".csv", ".tsv", ".txt"):
                # types from the declared schema, else every column text (the header-only rule); one line = one row
                load_csv_view(con, name, path, types)
            else:
                raise ValueError(f"--table {name}: unsupported file type {suffix!r} (CSV or Parquet)")
        except duckdb.Error as exc:  # Parquet metadata problems: DuckDB's dump names neither the flag nor the file
            raise ValueError(_duckdb_message(exc, f"--table {name} ({path})")) from None


def _duckdb_message(exc: Exception, where: str) -> str:
    text = " ".join(str(exc).split())
    if "unicode" in text.lower() or "utf-8" in text.lower() or "utf8" in text.lower():
        return f"{where} is not UTF-8 text; re-save it as UTF-8"
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return f"{where}: {first}"


__all__ = ["Catalog", "ForeignKey", "catalog_from_ddl", "catalog_from_duckdb", "groups_arg", "load_csv_view",
           "load_parquet_view", "load_tables", "private_arg", "table_arg"]
