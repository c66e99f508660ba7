"""Dataset registry: real loaders (found through ``DPWB_DATA``) and seeded stand-ins.

Every dataset has a synthetic stand-in, so the project runs without the real
files. :func:`load` returns a :class:`Dataset` whose ``source`` says plainly
which one was used; notebooks print :meth:`Dataset.describe`.

Paper subpackages register their datasets by calling :func:`register` in their
own ``datasets`` module; :func:`available` imports those modules lazily.

Every :func:`load` is recorded (:mod:`.provenance`: real or synthetic, file or generator, size, sha256 of
the file) and printed as one line, so each notebook shows which data it used; a real file that cannot
serve the request (fewer rows than asked for) falls back to the stand-in and the line says why.
:mod:`.real` reads the real files (gzip, column maps, seeded sampling) and :mod:`.external` verifies
full public files a user supplies (SNAP graphs, Deezer HR) by size and sha256.
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .._validation import check_options
from ..paths import data_dir
from . import provenance
from .provenance import display_path, file_sha256, record
from .real import NotEnoughRows

_PAPER_MODULES = (
    "dpworkbench.inconsistency.datasets",
    "dpworkbench.r2t.datasets",
    "dpworkbench.privateclean.datasets",
    "dpworkbench.dampening.datasets",
)


@dataclass
class Dataset:
    """A loaded dataset with its provenance."""

    name: str
    data: Any
    source: str  # "real" or "synthetic"
    description: str = ""
    path: Path | None = None
    stats: dict = field(default_factory=dict)

    def describe(self) -> str:
        where = f" from {self.path}" if self.path else ""
        kind = "REAL data" if self.source == "real" else "SYNTHETIC stand-in (seeded generator)"
        extra = f" — {self.description}" if self.description else ""
        return f"{self.name}: {kind}{where}{extra}"


@dataclass(frozen=True)
class DatasetSpec:
    name: str
    paper: str
    description: str
    real_path: str | None  # relative to the data directory
    load_real: Callable[..., Any] | None
    generate: Callable[..., Any]
    extra_files: tuple[str, ...] = ()  # further real files the loader reads (all must exist)


_REGISTRY: dict[str, DatasetSpec] = {}


def register(
    name: str,
    *,
    paper: str,
    description: str,
    generate: Callable[..., Any],
    real_path: str | None = None,
    load_real: Callable[..., Any] | None = None,
    extra_files: tuple[str, ...] = (),
) -> None:
    """Register a dataset: ``generate(seed=..., **kw)`` always; ``load_real(path, **kw)`` when a real file exists.

    ``load_real`` also gets ``seed`` when its signature takes it (sampling). It may return ``(data, info)``
    with ``info["files"]`` (the paths it actually read, for the provenance) and ``info["note"]``.
    ``extra_files`` are further files (relative to the data directory) that must all exist for the real
    data to be used.
    """
    _REGISTRY[name] = DatasetSpec(name, paper, description, real_path, load_real, generate, tuple(extra_files))


def _import_papers() -> None:
    for mod in _PAPER_MODULES:
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as exc:
            if exc.name and not mod.startswith(exc.name):
                raise


def available() -> list[DatasetSpec]:
    """All registered datasets (imports the paper subpackages' registries)."""
    _import_papers()
    return sorted(_REGISTRY.values(), key=lambda s: (s.paper, s.name))


def real_path(relative: str) -> Path | None:
    """Path of a real file under the data directory, or None when absent."""
    base = data_dir()
    if base is None:
        return None
    p = base / relative
    return p if p.exists() else None


def size_of(data: Any) -> int:
    """Rows of a table, nodes of a graph, rows of an ID3 design matrix, bins of a histogram (provenance)."""
    if isinstance(data, dict) and "X" in data:
        return len(data["X"])
    n = getattr(data, "n", None)
    if isinstance(n, (int,)) or (n is not None and hasattr(n, "__index__")):
        return int(n)
    try:
        return len(data)
    except TypeError:
        return 0


def _describe_call(name: str, seed: int, kwargs: dict) -> str:
    args = ", ".join([f"seed={seed}"] + [f"{k}={v!r}" for k, v in sorted(kwargs.items())])
    return f"{name}({args})"


def _takes(fn: Callable[..., Any], arg: str) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return arg in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


def load(name: str, *, prefer: str = "real", seed: int = 0, **kwargs: Any) -> Dataset:
    """Load ``name``: the real file when present and ``prefer="real"``, else the seeded stand-in.

    The choice is recorded and printed (:mod:`dpworkbench.datasets.provenance`).
    """
    check_options(prefer, "prefer", ("real", "synthetic"))
    if name not in _REGISTRY:
        _import_papers()
    if name not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY)) or "(none registered)"
        raise ValueError(f"unknown dataset {name!r}; known datasets: {known}")
    spec = _REGISTRY[name]
    note = ""
    if prefer == "real" and spec.load_real is not None and spec.real_path is not None:
        path = real_path(spec.real_path)
        extras = [real_path(r) for r in spec.extra_files]
        if path is not None and all(e is not None for e in extras):
            kw = dict(kwargs)
            if _takes(spec.load_real, "seed"):
                kw["seed"] = seed
            try:
                out = spec.load_real(path, **kw)
            except NotEnoughRows as exc:
                note = f"real file not used: {exc}"
            else:
                info: dict = {}
                if isinstance(out, tuple) and len(out) == 2 and isinstance(out[1], dict):
                    out, info = out
                files = [Path(f) for f in info.get("files", [path, *extras])]
                shown = ";".join(display_path(f) for f in files)
                params = ", ".join(f"{k}={v!r}" for k, v in sorted(kw.items()))
                record(name, "real", f"{shown}" + (f" [{params}]" if params else ""), size_of(out),
                       ";".join(file_sha256(f) for f in files), info.get("note", ""))
                return Dataset(name, out, "real", spec.description, path)
        elif spec.real_path is not None:
            note = f"real file {spec.real_path} absent under the data directory"
    if prefer == "real" and spec.real_path is None:
        note = "no real copy of this dataset is available: synthetic only"
    elif prefer == "synthetic":
        note = "stand-in requested (prefer='synthetic')"
    data = spec.generate(seed=seed, **kwargs)
    stats = {}
    if isinstance(data, tuple) and len(data) == 2 and isinstance(data[1], dict):
        data, stats = data
    # a registered dataset's generator stands in for the dataset itself (its real file, or the paper's data when none exists)
    record(name, "synthetic", _describe_call(f"stand-in {name}", seed, kwargs), size_of(data), "", note, stands_in_for=name)
    return Dataset(name, data, "synthetic", spec.description + (f" [{note}]" if note else ""), None, stats)


__all__ = ["Dataset", "DatasetSpec", "NotEnoughRows", "available", "file_sha256", "load", "provenance", "real_path", "record",
           "register", "size_of"]
