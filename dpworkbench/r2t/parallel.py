"""Solving R2T's τ's on both cores at once (issue 27, item 1; the paper runs its LPs with 10 threads, §10.1).

Two things run in parallel, each giving exactly the sequential output:

* :func:`solve_all` — every τ solved exactly (the release path, and research runs without pruning). Each τ's
  value is computed from its own reduced LP (:func:`dpworkbench.r2t.reduce.reduce_lp`, a fresh HiGHS model per
  block), so it does not depend on which τ ran before or on which thread: the values — and hence the release's
  value — are bit-identical to the sequential loop's.
* :func:`race` — the exact bound pruning with the paper's early stop (§9.1, Algorithm 3) on research back-ends,
  with up to ``workers`` τ's in flight. A τ is dispatched with target ``best − noise_τ + penalty_τ`` where
  ``best`` is the running maximum of the candidates known *at dispatch time*. That maximum is a lower bound on
  the final maximum, so stopping a τ whose certified upper bound is ≤ its target is still correct (the τ cannot
  beat the final maximum). Every τ is therefore solved, stopped with a correct certificate or skipped with one,
  and the returned maximum is the exact maximum of the candidates — the same float as the sequential loop's
  (each solved value is the same float, see above). Which τ's get stopped may differ (a τ in flight saw an older
  ``best``); that is bookkeeping only (``solved``/``early_stopped`` counts, NOT PRIVATE).

Threads, not processes: HiGHS releases the GIL while it solves (checked: a Python loop runs at full speed beside
``Highs.run``), and the dual sweeps of the early stop are numba ``nogil`` kernels. Only truncations whose
per-τ solve keeps no shared solver state run in parallel (:func:`parallel_safe`: the reduced LP); the warm-started
single HiGHS model of ``reduce=False`` keeps its basis across τ and stays sequential.

References
----------
Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §9.1 (early stop, Algorithm 3), §10.1 (parallel LP solving).
"""

from __future__ import annotations

import os
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

import numpy as np


def default_workers() -> int:
    """Worker threads for the τ's: ``DPWB_R2T_WORKERS`` if set, else min(2, CPUs) (the project's 2-core machine)."""
    env = os.environ.get("DPWB_R2T_WORKERS", "").strip()
    if env:
        try:
            w = int(env)
        except ValueError:
            raise ValueError(f"DPWB_R2T_WORKERS must be a whole number ≥ 1, got {env!r}") from None
        if w < 1:
            raise ValueError(f"DPWB_R2T_WORKERS must be a whole number ≥ 1, got {env!r}")
        return w
    return max(1, min(2, os.cpu_count() or 1))


def parallel_safe(trunc) -> bool:
    """Whether ``trunc``'s τ's may be solved concurrently: the reduced LP (a fresh model per τ, no shared state)."""
    return getattr(trunc, "method", None) == "lp" and bool(getattr(trunc, "reduce", False))


# Below this many join results a τ's LP takes milliseconds and a thread pool costs more than it saves (the privacy
# harness runs thousands of tiny releases): sequential unless DPWB_R2T_WORKERS or ``workers`` asks explicitly.
PARALLEL_MIN_M = 50_000


def _workers(trunc, workers: int | None) -> int:
    if not parallel_safe(trunc):
        return 1
    if workers is not None:
        return int(workers)
    if not os.environ.get("DPWB_R2T_WORKERS", "").strip() and getattr(trunc.info, "m", 0) < PARALLEL_MIN_M:
        return 1
    return default_workers()


def solve_all(trunc, taus, *, workers: int | None = None) -> np.ndarray:
    """Q(I, τ) for every τ of ``taus`` (exact), up to ``workers`` at a time; the same floats as the sequential loop."""
    taus = [float(t) for t in taus]
    w = _workers(trunc, workers)
    if w <= 1 or len(taus) <= 1:
        return np.array([trunc.value(t) for t in taus], dtype=float)
    trunc.prepare()
    with ThreadPoolExecutor(max_workers=w) as ex:
        futs = [ex.submit(trunc.value, t) for t in taus]
        return np.array([f.result() for f in futs], dtype=float)


def race(trunc, taus, noise, penalty, values, exact, hi_cand, best: float, *, early_stop: bool,
         workers: int | None = None) -> tuple[float, int, int]:
    """The pruned loop of R2T's research back-ends with up to ``workers`` τ's in flight (module docstring).

    ``values`` (NaN where unknown) is filled in place; ``exact`` marks τ's whose bounds already met. Returns
    (best, solved, early_stopped) with ``best`` the exact maximum of 0 and the candidates.
    """
    order = [int(i) for i in np.argsort(-hi_cand, kind="stable")]
    w = _workers(trunc, workers)
    use_stop = early_stop and hasattr(trunc, "value_or_stop")

    def solve(i: int, target: float):
        if use_stop:
            return trunc.value_or_stop(float(taus[i]), target)
        return trunc.value(float(taus[i]))

    solved = stopped = 0

    def record(i: int, v) -> None:
        nonlocal best, solved, stopped
        if v is None:
            stopped += 1
            return
        values[i] = v
        solved += 1
        best = max(best, values[i] + noise[i] - penalty[i])

    if w <= 1:
        for i in order:
            if exact[i] or hi_cand[i] <= best:
                continue
            record(i, solve(i, best - noise[i] + penalty[i]))
        return best, solved, stopped
    trunc.prepare()
    pending = list(order)
    with ThreadPoolExecutor(max_workers=w) as ex:
        running: dict = {}
        while pending or running:
            while pending and len(running) < w:
                i = pending.pop(0)
                if exact[i] or hi_cand[i] <= best:  # skipped with the best known now (a lower bound on the final)
                    continue
                running[ex.submit(solve, i, best - noise[i] + penalty[i])] = i
            if not running:
                break
            done, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for f in done:
                record(running.pop(f), f.result())
    return best, solved, stopped


__all__ = ["default_workers", "parallel_safe", "race", "solve_all"]
