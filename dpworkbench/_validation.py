"""Boundary validation shared by every public function.

Messages name the argument and the allowed values, so a notebook user sees at once
what to fix. Internal kernels assume validated input.
"""

from __future__ import annotations

import math
from typing import Any, Collection

import numpy as np


def check_epsilon(epsilon: Any, name: str = "epsilon") -> float:
    """Return ``epsilon`` as a float after checking it is finite and > 0."""
    try:
        value = float(epsilon)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a positive finite number, got {epsilon!r}") from None
    if math.isnan(value) or math.isinf(value):
        raise ValueError(f"{name} must be a positive finite number, got {value!r} (NaN/inf)")
    if value <= 0:
        raise ValueError(f"{name} must be > 0, got {value!r}")
    return value


def check_positive(value: Any, name: str, *, allow_zero: bool = False) -> float:
    """Return ``value`` as float after checking it is finite and > 0 (or >= 0)."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a finite number, got {value!r}") from None
    if math.isnan(x) or math.isinf(x):
        raise ValueError(f"{name} must be finite, got {x!r}")
    if x < 0 or (x == 0 and not allow_zero):
        bound = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be {bound}, got {x!r}")
    return x


def check_probability(value: Any, name: str, *, open_interval: bool = True) -> float:
    """Check a probability; ``open_interval`` requires 0 < p < 1."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a probability, got {value!r}") from None
    if math.isnan(x):
        raise ValueError(f"{name} must be a probability, got NaN")
    if open_interval and not (0.0 < x < 1.0):
        raise ValueError(f"{name} must lie in the open interval (0, 1), got {x!r}")
    if not open_interval and not (0.0 <= x <= 1.0):
        raise ValueError(f"{name} must lie in [0, 1], got {x!r}")
    return x


def check_finite_array(values: Any, name: str, *, allow_empty: bool = False, ndim: int | None = 1) -> np.ndarray:
    """Return a float64 array after checking for NaN/inf, emptiness and dimension."""
    arr = np.asarray(values, dtype=float)
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-dimensional array, got shape {arr.shape}")
    if arr.size == 0 and not allow_empty:
        raise ValueError(f"{name} is empty: at least one value is needed")
    if arr.size and not np.all(np.isfinite(arr)):
        bad = int(np.flatnonzero(~np.isfinite(arr.ravel()))[0])
        raise ValueError(f"{name} contains NaN or inf (first at flat index {bad})")
    return arr


def check_int(value: Any, name: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """Check an integer in ``[minimum, maximum]``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {value}")
    return value


def _describe_options(allowed: Collection[Any]) -> str:
    """``'a'``, ``'a' or 'b'``, ``'a', 'b' or 'c'`` (the allowed values in their given order; sets sorted)."""
    opts = sorted(allowed, key=repr) if isinstance(allowed, (set, frozenset)) else list(allowed)
    shown = [repr(o) for o in opts]
    if len(shown) <= 1:
        return "".join(shown) or "(nothing: no value is allowed)"
    return ", ".join(shown[:-1]) + " or " + shown[-1]


def check_options(value: Any, name: str, allowed: Collection[Any]) -> Any:
    """Return ``value`` after checking it is one of ``allowed``.

    The one declarative check for option arguments (``strategy``, ``measure``, ``method``, ``convention``, ...)::

        check_options(measure, "measure", ("MI", "P"))
        # ValueError: measure must be 'MI' or 'P', got 'R'
    """
    try:
        ok = value in allowed
    except TypeError:  # an unhashable value tested against a set
        ok = False
    if not ok:
        raise ValueError(f"{name} must be {_describe_options(allowed)}, got {value!r}")
    return value


def check_user_path(path: Any, what: str):
    """``path`` as a Path, or one ValueError naming ``what`` and the path only: missing, or a folder."""
    from pathlib import Path

    p = Path(path)
    if not p.exists():
        raise ValueError(f"{what} file not found: {p}")
    if p.is_dir():
        raise ValueError(f"{what} {p} is a folder, not a file")
    return p


def read_user_bytes(path: Any, what: str) -> bytes:
    """The bytes of a user's input file (``.gz`` decompressed), or one ValueError naming ``what`` and the path only:
    missing, a folder, unreadable or a truncated gzip (the file's format, never a line's content)."""
    import gzip

    p = check_user_path(path, what)
    try:
        data = p.read_bytes()
        return gzip.decompress(data) if p.suffix.lower() == ".gz" else data
    except (OSError, EOFError) as exc:
        raise ValueError(f"{what} {p} cannot be read ({getattr(exc, 'strerror', None) or 'not a complete gzip file'})") from None
