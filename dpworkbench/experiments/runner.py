"""Grid runner: algorithms × datasets × ε × repetitions, resumable, atomic writes.

Each cell gets an independent random stream derived from (seed, cell parameters),
so results do not depend on the order cells run in, and an interrupted run resumes
exactly where it stopped: completed cells are flushed to Parquet part files (temp
file + ``os.replace``, so a crash never leaves a half-written file) and skipped on
the next call.

A result is reused only if it was computed by the same code: every row records
``code_version`` (a hash of the package's source), and rows of another version are
discarded, so ``make reproduce`` after a code change never shows stale numbers. The
version is not part of a cell's random stream: seeded results stay the same when
unrelated code changes.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
import time
import uuid
import zlib
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from .._validation import check_int
from ..paths import results_dir as default_results_dir

CellFn = Callable[[dict, np.random.Generator], "dict | Sequence[dict]"]


def _jsonable(v: Any) -> Any:
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating,)):
        return float(v)
    return v if isinstance(v, (int, float, str, bool, type(None))) else str(v)


def cell_id(params: Mapping[str, Any]) -> str:
    """Stable identifier of a cell from its parameters."""
    blob = json.dumps({k: _jsonable(params[k]) for k in sorted(params)}, sort_keys=True)
    return hashlib.blake2b(blob.encode(), digest_size=10).hexdigest()


def cell_rng(seed: int, params: Mapping[str, Any]) -> np.random.Generator:
    """Independent stream for one cell: SeedSequence(seed, crc of the cell id)."""
    cid = cell_id(params)
    words = [zlib.crc32(cid.encode()), int(cid[:8], 16)]
    return np.random.default_rng(np.random.SeedSequence([int(seed) & 0xFFFFFFFF, *words]))


def expand_grid(grid: Mapping[str, Sequence[Any]], repetitions: int = 1) -> list[dict]:
    """Cartesian product of the grid's lists, with a ``repetition`` column."""
    for k, v in grid.items():
        if isinstance(v, (str, bytes)) or not isinstance(v, Iterable):
            raise ValueError(f"grid[{k!r}] must be a list of values, got {v!r}")
        if len(list(v)) == 0:
            raise ValueError(f"grid[{k!r}] is empty")
    keys = list(grid)
    cells = []
    for combo in itertools.product(*(list(grid[k]) for k in keys)):
        for r in range(repetitions):
            d = dict(zip(keys, combo))
            d["repetition"] = r
            cells.append(d)
    return cells


@functools.lru_cache(maxsize=1)
def package_code_version() -> str:
    """Short hash of every ``.py`` file of the ``dpworkbench`` package (names and bytes)."""
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for f in sorted(root.rglob("*.py")):
        h.update(f.relative_to(root).as_posix().encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:12]


def _atomic_write_parquet(df: pd.DataFrame, path: Path) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    df.to_parquet(tmp, index=False)
    os.replace(tmp, path)


def atomic_write_text(path: Path, text: str) -> None:
    """Write text via a temp file and rename (never a half-written file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def atomic_write_csv(df: pd.DataFrame, path: Path) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    df.to_csv(tmp, index=False)
    os.replace(tmp, path)


def load_results(directory: str | Path) -> pd.DataFrame:
    """All part files of an experiment directory as one DataFrame (empty if none)."""
    directory = Path(directory)
    parts = sorted(directory.glob("part-*.parquet"))
    if not parts:
        return pd.DataFrame()
    return pd.concat([pd.read_parquet(p) for p in parts], ignore_index=True)


def run_grid(
    experiment: str,
    fn: CellFn,
    grid: Mapping[str, Sequence[Any]],
    *,
    repetitions: int = 1,
    seed: int = 0,
    fixed: Mapping[str, Any] | None = None,
    results_dir: str | Path | None = None,
    resume: bool = True,
    progress: bool = True,
    flush_every: int = 25,
    flush_seconds: float = 20.0,
    code_version: str | None = None,
) -> pd.DataFrame:
    """Run ``fn(cell, rng)`` on every cell of the grid and return the tidy results.

    ``fn`` returns one record (dict) or a list of records; each record gets the
    cell's parameters, ``cell_id`` and ``seconds``. ``fixed`` parameters (dataset
    size, profile, ...) are part of the cell identity, so changing them never
    reuses stale results; neither does a change of the code (``code_version``, default
    :func:`package_code_version`). Results go to ``<results_dir>/<experiment>/part-*.parquet``
    and a consolidated ``results.csv``.
    """
    repetitions = check_int(repetitions, "repetitions", minimum=1)
    if not experiment or not str(experiment).strip():
        raise ValueError("experiment name is empty")
    base = Path(results_dir) if results_dir is not None else default_results_dir()
    out = base / experiment
    out.mkdir(parents=True, exist_ok=True)
    fixed = dict(fixed or {})
    cells = expand_grid(grid, repetitions)
    for c in cells:
        c.update(fixed)
    version = package_code_version() if code_version is None else str(code_version)
    for p in out.glob("part-*.parquet"):  # parts are written by one run, so one version each
        part_version = pd.read_parquet(p, columns=None)
        stale = "code_version" not in part_version or not (part_version["code_version"].astype(str) == version).all()
        if stale or not resume:
            p.unlink()
    existing = load_results(out)
    done = set(existing["cell_id"].unique()) if "cell_id" in existing else set()
    todo = [c for c in cells if cell_id(c) not in done]

    from tqdm.auto import tqdm

    buffer: list[dict] = []
    last_flush = time.monotonic()

    def flush() -> None:
        nonlocal buffer, last_flush
        if buffer:
            part = out / f"part-{time.strftime('%Y%m%d%H%M%S')}-{uuid.uuid4().hex[:8]}.parquet"
            _atomic_write_parquet(pd.DataFrame(buffer), part)
            buffer = []
        last_flush = time.monotonic()

    try:
        for c in tqdm(todo, desc=experiment, disable=not progress or not todo, leave=False):
            cid = cell_id(c)
            rng = cell_rng(seed, c)
            t0 = time.perf_counter()
            res = fn(dict(c), rng)
            secs = time.perf_counter() - t0
            records = [res] if isinstance(res, Mapping) else list(res)
            for r in records:
                row = dict(c)
                row.update(r)
                row["cell_id"] = cid
                row["code_version"] = version
                row.setdefault("seconds", secs)
                buffer.append(row)
            if len(buffer) >= flush_every or time.monotonic() - last_flush > flush_seconds:
                flush()
    finally:
        flush()
    df = load_results(out)
    wanted = {cell_id(c) for c in cells}
    if len(df):
        df = df[df["cell_id"].isin(wanted)].reset_index(drop=True)
        atomic_write_csv(df, out / "results.csv")
    return df


def run_mechanisms(
    experiment: str,
    instances: Mapping[str, Any],
    mechanisms: Sequence[str],
    *,
    epsilons: Sequence[float],
    repetitions: int = 1,
    seed: int = 0,
    params: Mapping[str, Mapping[str, Any]] | None = None,
    metrics: Sequence[str] = ("absolute_error", "relative_error"),
    results_dir: str | Path | None = None,
    resume: bool = True,
    progress: bool = True,
    timeout: float | None = None,
) -> pd.DataFrame:
    """Instances × declared mechanisms × ε × repetitions, through :func:`run_grid`.

    ``timeout`` (seconds) bounds each (instance, mechanism)'s non-private statistics: past it the cell's rows are
    recorded with ``status="OT"`` (out of time, as the papers print it) and no output, and the sweep goes on.

    Each (instance, mechanism) has its non-private statistics computed once (declaration's ``statistics``) and
    each cell draws its repetitions with ``Mechanism.sample(size=repetitions)``: the release's own noise code.
    ``params`` gives a mechanism's further parameters by name; errors come from :mod:`.metrics` against the
    declaration's ``truth``. One row per repetition: instance, mechanism, epsilon, repetition, output, truth,
    the metrics and the ε the plan records.
    """
    from ..accounting import ledger_epsilon
    from ..mechanisms.declaration import get
    from .metrics import METRICS

    params = dict(params or {})
    mechs = {name: get(name) for name in mechanisms}
    unknown = [m for m in metrics if m not in METRICS]
    if unknown:
        raise ValueError(f"unknown metric {unknown[0]!r}; metrics: {', '.join(METRICS)}")
    stats_cache: dict[tuple[str, str], Any] = {}

    def cell(c: dict, rng: np.random.Generator) -> list[dict]:
        mech = mechs[c["mechanism"]]
        p = {**params.get(mech.name, {}), "epsilon": c["epsilon"]}
        checked = mech.check_params(p)
        key = (c["instance"], mech.name)
        if key not in stats_cache:
            try:
                with _time_limit(timeout):
                    stats_cache[key] = mech.statistics(instances[c["instance"]], **checked)
            except TimeoutError:
                stats_cache[key] = None
        stats = stats_cache[key]
        if stats is None:
            return [{"repetition": r, "status": "OT"} for r in range(repetitions)]
        out = mech.sample(stats, size=repetitions, rng=rng, **p)
        truth = mech.truth(stats, **checked) if mech.truth is not None else None
        eps = ledger_epsilon(mech.cost(**checked))
        rows = []
        for r in range(repetitions):
            o = out[r]
            row = {"repetition": r, "status": "ok", "output": o if np.ndim(o) == 0 else np.asarray(o).tolist(),
                   "epsilon_spent": eps}
            if truth is not None and np.ndim(o) == 0 and np.ndim(truth) == 0:
                row["truth"] = float(truth)
                for m in metrics:
                    row[m] = float(METRICS[m](np.asarray([o]), truth)[0])
            rows.append(row)
        return rows

    grid = {"instance": list(instances), "mechanism": list(mechanisms), "epsilon": [float(e) for e in epsilons]}
    return run_grid(experiment, cell, grid, repetitions=1, seed=seed, results_dir=results_dir, resume=resume,
                    progress=progress, fixed={"repetitions_per_cell": int(repetitions)})


class _time_limit:
    """``with _time_limit(seconds):`` raises TimeoutError in the block past ``seconds`` (main thread, POSIX
    interval timer); ``None`` or another thread: no limit."""

    def __init__(self, seconds: float | None):
        import threading

        self.seconds = seconds if seconds and threading.current_thread() is threading.main_thread() else None

    def __enter__(self):
        import signal

        if self.seconds:
            def _raise(signum, frame):
                raise TimeoutError(f"over the time limit of {self.seconds:g} s")

            self._old = signal.signal(signal.SIGALRM, _raise)
            signal.setitimer(signal.ITIMER_REAL, float(self.seconds))
        return self

    def __exit__(self, *exc):
        import signal

        if self.seconds:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._old)
        return False
