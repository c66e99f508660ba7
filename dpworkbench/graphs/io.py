"""Loaders for SNAP-style edge lists (tab/space separated, or CSV with a header)."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pandas as pd

from .core import CSRGraph, from_edge_array


def _is_number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def load_edge_list(path: str | Path, *, comment: str = "#", allow_empty: bool = False) -> CSRGraph:
    """Read an undirected edge list; node ids are relabelled densely 0..n-1.

    Accepts SNAP text (``u<TAB>v`` per line, ``#`` comments; each undirected edge
    may appear in both directions) and CSV with a header such as ``id_1,id_2``.

    ``allow_empty=True`` returns the empty graph for a file without edges. Release commands pass it: under
    node-DP a neighbour of a one-edge graph has no edges at all, so refusing an empty file would make whether a
    release happens depend on the private data.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"edge list not found: {path}")
    opener = gzip.open if path.suffix == ".gz" else open  # the Deezer graphs ship as .csv.gz
    with opener(path, "rt") as fh:
        first = ""
        for line in fh:
            if line.strip() and not line.startswith(comment):
                first = line
                break
    if not first:
        if allow_empty:
            return from_edge_array(np.zeros((0, 2), dtype=np.int64), n=0)
        raise ValueError(f"{path} has no edges")
    sep = "," if "," in first else r"\s+"
    token = first.replace(",", " ").split()[0]
    # A first line is a header only when its first field is not a number: "1.5 2" is a bad edge, not a header.
    has_header = not _is_number(token)
    if not has_header and not token.lstrip("-").isdigit():
        raise ValueError(f"{path}: node ids must be integers (first line {first.strip()!r})")
    df = pd.read_csv(
        path, sep=sep, comment=comment, header=0 if has_header else None, usecols=[0, 1], engine="c" if sep == "," else "python"
    ) if sep == "," else pd.read_csv(path, sep=r"\s+", comment=comment, header=0 if has_header else None, usecols=[0, 1])
    raw = df.to_numpy()
    if not np.issubdtype(raw.dtype, np.integer):
        raise ValueError(f"{path}: node ids must be integers")
    ids, inv = np.unique(raw.ravel(), return_inverse=True)
    return from_edge_array(inv.reshape(-1, 2), n=ids.size)
