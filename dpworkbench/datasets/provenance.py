"""Which data a run used: a process-level record, one line printed per load, ``datasets.json`` per notebook.

Every loader in :mod:`dpworkbench.datasets` (and the papers' loaders built on it) calls :func:`record`
once per load. The record says whether the data were ``real`` or a ``synthetic`` stand-in, the file (or
the generator and its parameters), the size and the sha256 of the source file. It is printed as one
line, so a notebook shows which data it used without any code of its own, and
:func:`write_json` (called by ``NotebookContext.finish``) stores it beside ``claims.json``;
:func:`provenance_table` gathers those files into ``reports/<profile>/datasets.csv``.

The record holds public facts about the inputs (file names, sizes, hashes), never data values.

A source is ``real`` (a published file, or a benchmark's official generator such as TPC-H's and TPC-DS's at a stated
scale factor), ``synthetic`` (our seeded generator) or ``example`` (a worked example typed in from the paper). A use
that stands in for another dataset names it in ``stands_in_for`` (a synthetic stand-in for the registered real file it
replaces, the cars table for MCAFE, …). A notebook that loaded nothing gets one row saying so
(:data:`NO_DATASET`), so every executed notebook appears in ``datasets.csv`` (issue 24).
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path

import pandas as pd

from ..paths import data_dir

COLUMNS = ["notebook", "dataset", "source", "stands_in_for", "path_or_generator", "rows_or_nodes", "sha256"]
SOURCES = ("real", "synthetic", "example")
#: The ``dataset`` of the one row of a notebook that recorded no dataset (its inputs are computed in the notebook).
NO_DATASET = "(none loaded)"


@dataclass(frozen=True)
class DataUse:
    """One dataset a run used."""

    dataset: str
    source: str  # "real" or "synthetic"
    path_or_generator: str
    rows_or_nodes: int
    sha256: str = ""  # of the source file(s); empty for a generator
    note: str = ""  # e.g. why a stand-in replaced the real file
    stands_in_for: str = ""  # the dataset this one replaces (empty when it is the data the paper used)


_RECORD: list[DataUse] = []
# Printing is on by default (a notebook shows its data without code); tests and batch callers may silence it.
_PRINT = os.environ.get("DPWB_QUIET_DATASETS", "") == ""


def display_path(path: Path | str) -> str:
    """``path`` relative to the data directory when it lies inside it (stable across machines), else as given."""
    p = Path(path)
    base = data_dir()
    if base is not None:
        try:
            return p.resolve().relative_to(base.resolve()).as_posix()
        except ValueError:
            pass
    return str(p)


def record(dataset: str, source: str, path_or_generator: str, rows_or_nodes: int, sha256: str = "", note: str = "", *,
           stands_in_for: str = "") -> DataUse:
    """Add one use to the process record and print one line saying what was used.

    The line is printed the first time a use is recorded in this process (kernel) only: a notebook that loads the
    same data in each of its panels says so once, not once per panel."""
    if source not in SOURCES:
        raise ValueError(f"source must be one of {', '.join(SOURCES)}, got {source!r}")
    use = DataUse(dataset, source, path_or_generator, int(rows_or_nodes), sha256, note, stands_in_for)
    if use in _RECORD:
        return use
    _RECORD.append(use)
    if _PRINT:
        kind = {"real": "REAL data", "synthetic": "SYNTHETIC stand-in", "example": "the paper's worked example"}[source]
        kind += f" for {stands_in_for}" if stands_in_for else ""
        digest = f", sha256 {sha256[:12]}…" if sha256 and ";" not in sha256 else (", sha256 recorded" if sha256 else "")
        why = f" ({note})" if note else ""
        print(f"[data] {dataset}: {kind} — {path_or_generator}, {rows_or_nodes:,} rows/nodes{digest}{why}", flush=True)
    return use


def used() -> list[DataUse]:
    """Every dataset use recorded in this process, in order (duplicates dropped)."""
    return list(_RECORD)


def clear() -> None:
    """Forget the record (tests; a long-lived kernel starting a new experiment)."""
    _RECORD.clear()


def set_printing(on: bool) -> None:
    """Turn the one-line message per load on or off."""
    global _PRINT
    _PRINT = bool(on)


def write_json(path: Path | str) -> Path:
    """Write the record as ``datasets.json`` (atomically: a reader never sees half a file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    tmp.write_text(json.dumps([asdict(u) for u in _RECORD], indent=2))
    os.replace(tmp, path)
    return path


def provenance_table(report_dir: Path | str) -> pd.DataFrame:
    """All ``datasets.json`` under ``report_dir`` (``<paper>/<notebook>/datasets.json``) as one table.

    Columns: :data:`COLUMNS` (``notebook`` is ``<paper>/<notebook>``). A notebook whose ``datasets.json`` is empty
    gets one row, dataset :data:`NO_DATASET`, so every executed notebook is listed.
    """
    report_dir = Path(report_dir)
    rows = []
    for f in sorted(report_dir.glob("*/*/datasets.json")):
        notebook = f"{f.parent.parent.name}/{f.parent.name}"
        try:
            entries = json.loads(f.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"{f}: unreadable datasets.json ({exc})") from None
        if not entries:
            rows.append({"notebook": notebook, "dataset": NO_DATASET, "source": "", "stands_in_for": "",
                         "path_or_generator": "no dataset loaded: its inputs are computed in the notebook", "rows_or_nodes": 0,
                         "sha256": ""})
        for e in entries:
            row = {"notebook": notebook, **{k: e.get(k, "") for k in COLUMNS[1:]}}
            if e.get("note"):  # why a stand-in was used, or which subset of the real data (kept with the path)
                row["path_or_generator"] = f"{row['path_or_generator']} ({e['note']})"
            rows.append(row)
    return pd.DataFrame(rows, columns=COLUMNS)


# ------------------------------------------------------------------------------------------------ file hashes
# A user's own file may be private: its exact hash lets anyone holding a candidate table confirm it, so the
# provenance record keeps hashes of the published benchmark files only.
USER_FILE_DIGEST = "withheld: user file (a hash of private data is not released)"


def _sha256_uncached(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def file_sha256(path: Path | str) -> str:
    """sha256 of a file, cached by (path, size, mtime) in :mod:`dpworkbench.cache` (a 10 MB file takes ~50 ms)."""
    from .. import cache

    p = Path(path)
    # The cache fingerprints a Path by resolved name, size and mtime: a rewritten file is hashed again.
    return cache.cached_call("datasets.sha256", (p,), lambda: _sha256_uncached(p), disk=True, version="1")


__all__ = ["USER_FILE_DIGEST", "COLUMNS", "DataUse", "clear", "display_path", "file_sha256", "provenance_table", "record", "set_printing",
           "used", "write_json"]
