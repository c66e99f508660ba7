"""Benchmark harness: every ``benchmarks/bench_*.py`` defines ``run() -> list[dict]``.

Each row has ``benchmark, metric, value, reference_value, ratio, note``: the fast
path and a simple reference implementation measured in the same run, so the
ratio is meaningful on any machine. ``dpworkbench bench`` (``make bench``) runs
them all and writes ``reports/bench.csv``.
"""

from __future__ import annotations

import importlib.util
import re
import statistics
import sys
import time
import traceback
from pathlib import Path
from typing import Callable, TypeVar

import pandas as pd

from .paths import project_root, reports_dir

T = TypeVar("T")

COLUMNS = ["benchmark", "metric", "value", "reference_value", "ratio", "note"]


def timed(fn: Callable[[], T], *, repeat: int = 3, warmup: int = 1) -> tuple[T, float]:
    """(result of the last call, median wall time in seconds over ``repeat`` timed calls after ``warmup`` untimed ones).

    Why warm up: the first call pays one-off costs (numba JIT or cache load, imports, page faults, solver set-up)
    that are not the steady-state cost being compared (issue 13: Fig. 8 measured 100 rows slower than 1,000).
    Why the median: robust to a stray slow repeat on a shared machine, unlike the mean; unlike the minimum it is
    a typical time rather than a lucky one.
    """
    if repeat < 1 or warmup < 0:
        raise ValueError(f"need repeat >= 1 and warmup >= 0, got repeat={repeat}, warmup={warmup}")
    out = None
    for _ in range(warmup):
        out = fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return out, float(statistics.median(times))  # type: ignore[return-value]


def timeit(fn: Callable[[], object], *, repeat: int = 3, warmup: int = 1, min_time: float = 0.0) -> float:
    """Median wall time in seconds over ``repeat`` calls, after ``warmup`` untimed calls (see :func:`timed`)."""
    return max(timed(fn, repeat=repeat, warmup=warmup)[1], min_time)


def row(benchmark: str, metric: str, value: float, reference_value: float, note: str = "", *, higher_is_better: bool = False) -> dict:
    """One bench.csv row; ratio = reference/value for times (speed-up), value/reference otherwise."""
    if higher_is_better:
        ratio = value / reference_value if reference_value else float("nan")
    else:
        ratio = reference_value / value if value else float("nan")
    r = {"benchmark": benchmark, "metric": metric, "value": value, "reference_value": reference_value, "ratio": ratio, "note": note}
    print(f"{benchmark:40s} {metric:28s} {value:12.5g} ref {reference_value:12.5g}  ratio {ratio:9.3g}  {note}", flush=True)
    return r


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(f"bench_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod


def run_benchmarks(only: str | None = None, output: Path | None = None) -> int:
    files = sorted((project_root() / "benchmarks").glob("bench_*.py"))
    if only:
        files = [f for f in files if re.search(only, f.name)]
    if not files:
        print("no benchmarks found", file=sys.stderr)
        return 1
    rows: list[dict] = []
    failed = 0
    for f in files:
        print(f"== {f.name}", flush=True)
        try:
            rows.extend(_load(f).run())
        except Exception:
            failed += 1
            traceback.print_exc()
            rows.append({"benchmark": f.stem, "metric": "error", "value": float("nan"), "reference_value": float("nan"), "ratio": float("nan"), "note": "benchmark raised; see log"})
    out = output or reports_dir() / "bench.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows, columns=COLUMNS).to_csv(out, index=False)
    print(f"wrote {out} ({len(rows)} rows, {failed} failed benchmarks)")
    return 1 if failed else 0
