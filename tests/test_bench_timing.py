"""Benchmarks time steady state: a warm-up call first, then the median of the repeats (issue 13 §5)."""

from __future__ import annotations

import re
import time

import pytest

from dpworkbench.bench import timed, timeit
from dpworkbench.paths import project_root


def test_timed_excludes_the_warm_up_and_reports_the_median():
    calls = []

    def fn():
        calls.append(None)
        # first call is slow (a JIT compile, say); the timed calls take 10, 30 and 200 ms: median 30 ms
        time.sleep(0.5 if len(calls) == 1 else (0.01, 0.03, 0.2)[(len(calls) - 2) % 3])
        return len(calls)

    out, t = timed(fn, repeat=3, warmup=1)
    assert out == 4 and len(calls) == 4  # 1 warm-up + 3 timed; the result is the last call's
    assert 0.025 < t < 0.15  # the median (30 ms), neither the warm-up nor the best or worst repeat
    assert timeit(lambda: None, repeat=1, warmup=0) >= 0
    with pytest.raises(ValueError, match="repeat"):
        timed(fn, repeat=0)


def test_every_benchmark_times_through_the_harness():
    """Each benchmark uses dpworkbench.bench.timed/timeit (warm-up + median); raw perf_counter timing is allowed only
    where a file says why it cannot repeat (a budgeted sweep, a stage breakdown that takes the median itself)."""
    files = sorted((project_root() / "benchmarks").glob("bench_*.py"))
    assert files
    for f in files:
        src = f.read_text()
        assert re.search(r"from dpworkbench\.bench import [^\n]*\btime(d|it)\b", src), f"{f.name}: time with bench.timed/timeit"
        if "perf_counter" in src:
            assert re.search(r"median|budget", src), f"{f.name}: raw perf_counter timing without a median or a stated budget"
