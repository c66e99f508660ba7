"""The one cache for non-private, per-dataset work (conflict graphs, EBC, LP values, provenance).

Why one cache: the papers used to keep their own module-level dicts and ``lru_cache``s holding
data (``_IR_CACHE``, ``_WARM``, ebc ``_CACHE``, ``_TPCDS_CACHE``, …), each with its own key and no
way to clear them together. Here every entry is keyed by

* a *namespace* (what is cached: ``"dampening.ebc"``),
* the source of the module that computes it (editing that code invalidates its entries), and
* a *fingerprint* of the inputs: the content of DataFrames, arrays, graphs and files, not their
  identity, so the same data loaded twice hits the same entry.

Entries live in memory (bounded, least recently used first out) and, for ``disk=True``, under
:func:`dpworkbench.paths.cache_dir` (``$DPWB_CACHE`` or ``data/cache``) as joblib files, written
atomically. Cached values are exact, NOT PRIVATE quantities derived from the data (they are what
mechanisms take as input); they stay on the data owner's machine like the data itself.
``dpworkbench cache clear`` (or :func:`clear`) removes them.

Nothing random may be cached: a cached value must be a deterministic function of its key.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import os
import shutil
import uuid
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from .paths import cache_dir

T = TypeVar("T")

_MEMORY: OrderedDict[str, Any] = OrderedDict()
_MEMORY_ENTRIES = 64
_STATS = {"hits": 0, "disk_hits": 0, "misses": 0}


def _update(h: "hashlib._Hash", obj: Any) -> None:
    """Feed a canonical byte form of ``obj`` into ``h`` (content, not identity)."""
    import pandas as pd

    fp = getattr(obj, "fingerprint", None)
    if isinstance(fp, str):
        h.update(b"fp:" + fp.encode())
        return
    if isinstance(obj, pd.DataFrame):
        h.update(b"df:" + repr((list(map(str, obj.columns)), [str(t) for t in obj.dtypes], obj.shape)).encode())
        h.update(pd.util.hash_pandas_object(obj, index=True).to_numpy().tobytes())
        return
    if isinstance(obj, pd.Series):
        h.update(b"s:" + repr((str(obj.name), str(obj.dtype), len(obj))).encode())
        h.update(pd.util.hash_pandas_object(obj, index=True).to_numpy().tobytes())
        return
    if isinstance(obj, np.ndarray):
        h.update(b"nd:" + repr((obj.dtype.str, obj.shape)).encode())
        h.update(np.ascontiguousarray(obj).tobytes() if obj.dtype != object else repr(obj.tolist()).encode())
        return
    if isinstance(obj, Path):
        st = obj.stat()
        # Path, size and modification time: cheap, and any rewrite of the file changes them.
        h.update(b"path:" + repr((str(obj.resolve()), st.st_size, st.st_mtime_ns)).encode())
        return
    if isinstance(obj, (list, tuple)):
        h.update(f"seq{len(obj)}:".encode())
        for x in obj:
            _update(h, x)
        return
    if isinstance(obj, dict):
        h.update(f"dict{len(obj)}:".encode())
        for k in sorted(obj, key=repr):
            _update(h, k)
            _update(h, obj[k])
        return
    if isinstance(obj, (frozenset, set)):
        h.update(f"set{len(obj)}:".encode())
        for x in sorted(obj, key=repr):
            _update(h, x)
        return
    try:
        import networkx as nx

        if isinstance(obj, nx.Graph):
            nodes = sorted(obj.nodes(), key=repr)
            edges = sorted((tuple(sorted((u, v), key=repr)) if not obj.is_directed() else (u, v)) for u, v in obj.edges())
            h.update(b"nx:" + repr((obj.is_directed(), nodes, edges)).encode())
            return
    except ImportError:  # pragma: no cover
        pass
    if obj is None or isinstance(obj, (bool, int, float, str, bytes, np.generic)):
        h.update(f"{type(obj).__name__}:{obj!r}".encode())
        return
    raise TypeError(f"cannot fingerprint a {type(obj).__name__}; give it a `fingerprint` str attribute or pass plain data")


def fingerprint(*parts: Any) -> str:
    """A sha256 of the content of ``parts`` (DataFrames, arrays, graphs, files, plain values)."""
    h = hashlib.sha256()
    for p in parts:
        _update(h, p)
    return h.hexdigest()


@functools.lru_cache(maxsize=None)
def _source_version(module_name: str) -> str:
    import importlib

    try:
        src = inspect.getsource(importlib.import_module(module_name))
    except (OSError, TypeError):  # pragma: no cover - frozen or built-in module
        return "nosource"
    return hashlib.sha256(src.encode()).hexdigest()[:12]


def _disk_path(namespace: str, key: str) -> Path:
    return cache_dir() / "memo" / namespace / f"{key}.joblib"


def cached_call(namespace: str, key_parts: tuple, compute: Callable[[], T], *, disk: bool = False,
                version: str = "") -> T:
    """``compute()``, or its cached result for (``namespace``, ``version``, fingerprint of ``key_parts``)."""
    key = fingerprint(namespace, version, *key_parts)
    mem_key = f"{namespace}/{key}"
    if mem_key in _MEMORY:
        _MEMORY.move_to_end(mem_key)
        _STATS["hits"] += 1
        return _MEMORY[mem_key]
    value = None
    found = False
    if disk:
        import joblib

        path = _disk_path(namespace, key)
        if path.exists():
            try:
                value, found = joblib.load(path), True
                _STATS["disk_hits"] += 1
            except Exception:  # noqa: BLE001 - a truncated or foreign file is recomputed, never trusted
                path.unlink(missing_ok=True)
    if not found:
        _STATS["misses"] += 1
        value = compute()
        if disk:
            import joblib

            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
            joblib.dump(value, tmp)
            os.replace(tmp, path)
    _MEMORY[mem_key] = value
    while len(_MEMORY) > _MEMORY_ENTRIES:
        _MEMORY.popitem(last=False)
    return value


def cached(namespace: str, *, disk: bool = False, key: Callable[..., tuple] | None = None):
    """Decorator: cache a deterministic function of data by content.

    ``key(*args, **kwargs)`` returns the parts to fingerprint (default: all arguments). The
    function's module source is part of the key, so editing the code invalidates its entries.
    """

    def deco(fn: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(fn)
        def wrapper(*args, **kwargs) -> T:
            parts = key(*args, **kwargs) if key is not None else (args, kwargs)
            return cached_call(namespace, (fn.__qualname__, parts), lambda: fn(*args, **kwargs), disk=disk,
                               version=_source_version(fn.__module__))

        wrapper.uncached = fn  # type: ignore[attr-defined]
        return wrapper

    return deco


def clear(namespace: str | None = None, *, disk: bool = True) -> None:
    """Forget cached entries (all, or one namespace), in memory and on disk."""
    for k in [k for k in _MEMORY if namespace is None or k.startswith(namespace + "/")]:
        del _MEMORY[k]
    if disk:
        root = cache_dir() / "memo"
        target = root if namespace is None else root / namespace
        shutil.rmtree(target, ignore_errors=True)


def forget(values: Any) -> int:
    """Drop the in-memory entries whose value *is* one of ``values`` (identity; the disk copies stay).

    For drivers that free a dataset's large objects before loading the next: the memory LRU would otherwise keep
    them alive up to its entry limit (R2T Table 2's join results of every graph). Returns the entries dropped."""
    ids = {id(v) for v in values}
    drop = [k for k, v in _MEMORY.items() if id(v) in ids]
    for k in drop:
        del _MEMORY[k]
    return len(drop)


def stats() -> dict[str, int]:
    """Hits (memory), disk hits and misses since the process started (used by the teaching notebooks)."""
    return dict(_STATS, entries=len(_MEMORY))
