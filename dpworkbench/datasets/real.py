"""Readers for the real files under the data directory: tables (``.csv`` / ``.csv.gz``) and edge lists.

Tables are renamed to the names their consumers use (the inconsistency paper's DC files spell
Hospital's ``ZIPCode`` as ``ZipCode``, Tax's ``area_code`` as ``AreaCode``, ...) and every column a
consumer needs is checked, so a wrong file fails with one line naming the file and the column.

Sampling: the inconsistency paper evaluates each dataset on a 10,000-row random sample; :func:`sample_rows`
draws it without replacement with ``pandas.DataFrame.sample(random_state=seed)``, so a (file, rows, seed)
triple always gives the same rows. The seed is recorded in the provenance (``path_or_generator``).
"""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Iterable, Mapping

import numpy as np
import pandas as pd

# Column maps to the DC files' names (shared/data/README.md). Hospital: NADEEF's header differs in three names
# (CountryName is NADEEF's misspelling of CountyName). Tax: raha's snake_case → the BART/DC CamelCase.
HOSPITAL_COLUMNS = {"ZIPCode": "ZipCode", "CountryName": "CountyName", "StateAvg": "Stateavg"}
TAX_COLUMNS = {
    "f_name": "FName", "l_name": "LName", "gender": "Gender", "area_code": "AreaCode", "phone": "Phone", "city": "City",
    "state": "State", "zip": "Zip", "marital_status": "MaritalStatus", "has_child": "HasChild", "salary": "Salary",
    "rate": "Rate", "single_exemp": "SingleExemp", "married_exemp": "MarriedExemp", "child_exemp": "ChildExemp",
}
STOCK_COLUMNS: dict[str, str] = {}  # the Kaggle header already uses the DC's names (Ticker, Date)


class NotEnoughRows(ValueError):
    """The real file has fewer rows than asked for; the caller may fall back to a stand-in and say why."""


def read_table(path: Path | str, *, rename: Mapping[str, str] | None = None, required: Iterable[str] = (),
               dtype: Mapping[str, str] | str | None = None) -> pd.DataFrame:
    """Read a CSV (gzip read directly when the name ends in ``.gz``), rename columns, check ``required`` ones exist."""
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"{p}: not found")
    try:
        df = pd.read_csv(p, dtype=dtype, compression="infer", low_memory=False)
    except (pd.errors.ParserError, UnicodeDecodeError, EOFError, OSError) as exc:
        # the parser's own text names a line number and field counts of the user's file: only its kind is shown
        raise ValueError(f"{p}: cannot read as CSV ({type(exc).__name__})") from None
    if rename:
        absent = [c for c in rename if c not in df.columns]
        if absent:
            raise ValueError(f"{p}: expected column {absent[0]!r} (to be read as {rename[absent[0]]!r}) is missing; "
                             f"the file has {', '.join(map(str, df.columns))}")
        df = df.rename(columns=dict(rename))
    missing = [c for c in required if c not in df.columns]
    if missing:
        raise ValueError(f"{p} lacks the columns the constraints use: {', '.join(map(repr, missing))} "
                         f"(the file has {', '.join(map(str, df.columns))})")
    return df


def sample_rows(df: pd.DataFrame, rows: int | None, seed: int, *, what: str = "table") -> pd.DataFrame:
    """``rows`` rows drawn without replacement (seeded), or all rows when ``rows`` is None or equals the size.

    Asking for more rows than the file has raises :class:`NotEnoughRows` (never silently up-sampled).
    """
    if rows is None or rows == len(df):
        return df.reset_index(drop=True)
    if rows > len(df):
        raise NotEnoughRows(f"{what} has {len(df):,} rows, {rows:,} requested")
    return df.sample(n=rows, random_state=seed).reset_index(drop=True)


def _first_data_line(path: Path, comment: str = "#") -> str:
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt") as fh:
        for line in fh:
            if line.strip() and not line.startswith(comment):
                return line
    return ""


def read_edges(path: Path | str, *, comment: str = "#") -> np.ndarray:
    """An undirected edge list as an (m, 2) int64 array of the file's own ids: SNAP text or CSV, plain or ``.gz``.

    Self-loops are dropped and each undirected edge is kept once (SNAP lists some edges in both directions).
    """
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"{p}: not found")
    first = _first_data_line(p, comment)
    if not first:
        raise ValueError(f"{p}: no edges")
    sep = "," if "," in first else r"\s+"
    has_header = not first.replace(",", " ").split()[0].lstrip("-").isdigit()
    df = pd.read_csv(p, sep=sep, comment=comment, header=0 if has_header else None, usecols=[0, 1], compression="infer")
    raw = df.to_numpy()
    if not np.issubdtype(raw.dtype, np.integer):
        raise ValueError(f"{p}: node ids must be integers in the first two columns")  # no line quoted: they are data
    e = raw.astype(np.int64)
    e = e[e[:, 0] != e[:, 1]]
    return np.unique(np.sort(e, axis=1), axis=0)


def disjoint_union(edge_arrays: list[np.ndarray]) -> tuple[np.ndarray, int]:
    """Disjoint union of edge lists: each part's ids are relabelled densely and offset past the previous parts.

    Returns (edges, n). Node ids of different parts never collide, so no edge joins two parts.
    """
    parts, offset = [], 0
    for e in edge_arrays:
        ids, inv = np.unique(e.ravel(), return_inverse=True)
        parts.append(inv.reshape(-1, 2).astype(np.int64) + offset)
        offset += ids.size
    return (np.concatenate(parts) if parts else np.zeros((0, 2), np.int64)), offset


__all__ = ["HOSPITAL_COLUMNS", "NotEnoughRows", "STOCK_COLUMNS", "TAX_COLUMNS", "disjoint_union", "read_edges",
           "read_table", "sample_rows"]


def read_deezer(hu_path: Path | str) -> tuple[np.ndarray, int, list[Path], str]:
    """Deezer friendship graph as a disjoint union of the country graphs, ids relabelled (edges, n, files, label).

    ``hu_path`` is ``graphs/deezer_HU_edges.csv.gz``; RO is read from beside it. When the data directory
    also holds the published ``HR_edges.csv`` (verified by size and sha256), HR joins and the graph is the
    paper's three-country Deezer; otherwise it is the two-country subset HU ∪ RO (89,311 nodes, 348,713
    edges vs the paper's 143,884 / 846,915) and the label says so.
    """
    from .external import find_external

    hu = Path(hu_path)
    files = [hu, hu.with_name(hu.name.replace("_HU_", "_RO_"))]
    hr = find_external("deezer_hr")
    if hr is not None:
        files = [hr, *files]
    edges, n = disjoint_union([read_edges(f) for f in files])
    label = ("Deezer HR ∪ HU ∪ RO (the paper's three countries)" if hr is not None
             else "Deezer HU ∪ RO, the two-country subset (the paper's Deezer also has HR, not available)")
    return edges, n, files, label


__all__ += ["read_deezer"]
