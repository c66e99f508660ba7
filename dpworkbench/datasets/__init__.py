"""Dataset registry: real loaders (found through ``DPWB_DATA``) and seeded stand-ins.

Every dataset has a synthetic stand-in, so the project runs without the real
files. :func:`load` returns a :class:`Dataset` whose ``source`` says plainly
which one was used; notebooks print :meth:`Dataset.describe`.

Paper subpackages register their datasets by calling :func:`register` in their
own ``datasets`` module; :func:`available` imports those modules lazily.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .._validation import check_options
from ..paths import data_dir

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

    @property
    def is_synthetic(self) -> bool:
        return self.source == "synthetic"

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


_REGISTRY: dict[str, DatasetSpec] = {}


def register(
    name: str,
    *,
    paper: str,
    description: str,
    generate: Callable[..., Any],
    real_path: str | None = None,
    load_real: Callable[..., Any] | None = None,
) -> None:
    """Register a dataset: ``generate(seed=..., **kw)`` always; ``load_real(path, **kw)`` when a real file exists."""
    _REGISTRY[name] = DatasetSpec(name, paper, description, real_path, load_real, generate)


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


def load(name: str, *, prefer: str = "real", seed: int = 0, **kwargs: Any) -> Dataset:
    """Load ``name``: the real file when present and ``prefer="real"``, else the seeded stand-in."""
    check_options(prefer, "prefer", ("real", "synthetic"))
    if name not in _REGISTRY:
        _import_papers()
    if name not in _REGISTRY:
        known = ", ".join(sorted(_REGISTRY)) or "(none registered)"
        raise ValueError(f"unknown dataset {name!r}; known datasets: {known}")
    spec = _REGISTRY[name]
    if prefer == "real" and spec.load_real is not None and spec.real_path is not None:
        path = real_path(spec.real_path)
        if path is not None:
            data = spec.load_real(path, **kwargs)
            return Dataset(name, data, "real", spec.description, path)
    data = spec.generate(seed=seed, **kwargs)
    stats = {}
    if isinstance(data, tuple) and len(data) == 2 and isinstance(data[1], dict):
        data, stats = data
    return Dataset(name, data, "synthetic", spec.description, None, stats)


__all__ = ["Dataset", "DatasetSpec", "available", "load", "real_path", "register"]
