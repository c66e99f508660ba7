"""Strip outputs from notebooks so the repository stores them clean.

Usage:
    .venv/bin/python tools/strip_notebooks.py                # every notebooks/**/*.ipynb, in place
    .venv/bin/python tools/strip_notebooks.py PATH ...       # given notebooks or directories
    .venv/bin/python tools/strip_notebooks.py --check [PATH] # exit 1 listing notebooks that need stripping

Removes cell outputs and execution counts, saved widget state (``metadata.widgets``),
papermill metadata and per-cell execution/collapse/scroll metadata. Keeps cell tags (the
``parameters`` tag), cell ids, sources and the kernelspec. Standard library only; writes
atomically (a crash never leaves a half-written notebook).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import tempfile
from pathlib import Path

CELL_METADATA_DROPPED = ("execution", "collapsed", "scrolled", "papermill", "ExecuteTime", "jupyter", "editable", "deletable")
NOTEBOOK_METADATA_DROPPED = ("widgets", "papermill", "celltoolbar", "toc", "varInspector")


def strip(nb: dict) -> dict:
    """A copy of notebook JSON ``nb`` without outputs, execution counts and run metadata."""
    nb = copy.deepcopy(nb)
    # papermill's injected-parameters cell is a run artefact, never part of a clean notebook
    nb["cells"] = [c for c in nb.get("cells", []) if "injected-parameters" not in c.get("metadata", {}).get("tags", [])]
    for key in NOTEBOOK_METADATA_DROPPED:
        nb.get("metadata", {}).pop(key, None)
    for cell in nb.get("cells", []):
        meta = cell.setdefault("metadata", {})
        for key in CELL_METADATA_DROPPED:
            meta.pop(key, None)
        if meta.get("tags") == []:
            meta.pop("tags")
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    return nb


def _notebooks(paths: list[str]) -> list[Path]:
    if not paths:
        paths = [str(Path(__file__).resolve().parent.parent / "notebooks")]
    out = []
    for p in map(Path, paths):
        if p.is_dir():
            out += [q for q in sorted(p.rglob("*.ipynb")) if ".ipynb_checkpoints" not in q.parts]
        elif p.suffix == ".ipynb" and p.exists():
            out.append(p)
        else:
            raise SystemExit(f"not a notebook or directory: {p}")
    return out


def _write_atomic(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def needs_strip(nb: dict) -> bool:
    return strip(nb) != nb


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", help="notebooks or directories (default: notebooks/)")
    ap.add_argument("--check", action="store_true", help="only report notebooks with outputs; exit 1 if any")
    args = ap.parse_args(argv)
    dirty = []
    for path in _notebooks(args.paths):
        nb = json.loads(path.read_text(encoding="utf-8"))
        if not needs_strip(nb):
            continue
        dirty.append(path)
        if not args.check:
            _write_atomic(path, json.dumps(strip(nb), indent=1, ensure_ascii=False) + "\n")
    verb = "need stripping" if args.check else "stripped"
    for p in dirty:
        print(f"{verb}: {p}")
    if not dirty:
        print("all notebooks are clean")
    return 1 if (args.check and dirty) else 0


if __name__ == "__main__":
    sys.exit(main())
