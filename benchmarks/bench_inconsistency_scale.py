"""Scale (issue 16): a Tax-like table (synthetic) with RNoise α = 0.5 %: graph build + the three DP measures.

Default 10⁶ rows, the paper's largest size (paper: 322 M edges, 4,500 s end to end on a Xeon). Here: 313 M edges;
target ≤ 20 s for build + order + I_MI + I_P + I_R on 2 cores (issue 27), peak memory < 8 GB. Reports the stage
breakdown (generate, build, stable order, I_MI, I_P, I_R — each measure pays for its own projection passes — total,
peak RSS) through :func:`~dpworkbench.inconsistency.experiments.time_all_measures` (the Fig. 8 code path).
``DPWB_BENCH_TAX_ROWS`` sets the size (2·10⁵ rows: a few seconds). A second part builds 2·10⁵ rows with the fast,
the reference and the DuckDB engines (``DPWB_BENCH_TAX_DUCK_ROWS``; identical edge arrays asserted) and reports the
ratio.

The note states what the machine had run before the measurement (issue 27): uptime, load average before and after,
whether numba's cache was cold (kernels compiled in the untimed warm-up) and the first repeat's time, which is the
one on fresh memory (every later repeat reuses the big buffers, see below), plus CPU seconds and minor page faults
per repeat, so a figure taken on a busy shared machine can be told from one taken on a quiet one.

Why a fresh machine measured 45.6 s against 18.9 s on a warm one (issue 27, item 5; both causes fixed):

1. numba's on-disk cache keyed the serial twins of the parallel kernels (``njit(kernel.py_func)``) and the parallel
   kernels under ONE entry (its key has no ``parallel`` flag). With a fresh cache the warm-up's small build compiles
   the serial twin first, so from then on key generation, the rank keys, the first-touch prefault and the degree
   count ran on one core (measured: the "parallel" ``_degrees`` busy on one thread after a serial-first cache fill).
   A machine whose cache happened to be filled by a large build first ran them on both cores.
2. These VMs hand freed memory back to the host (virtio-balloon free page reporting, 2 MB blocks, ~2 s after the
   free); touching it again costs a host page fault: measured 1.2–1.5 s per GB against 0.18 s/GB for memory the
   process kept. The 2.5 GB edge buffer and the 2.5 GB rank-order buffer were fresh in every repeat (5.5 s of
   system time in the prefault alone). They are now reused across graphs (``_fastkernels.scratch``; released at
   the end of this benchmark).

Also: the threaded kernels are compiled in the warm-up (not in the first timed run), degrees are computed once per
graph, the rank order's counting pass reads a 1-byte bucket table, and the F(θ) passes count degrees in the
narrowest integer type that holds θ (1 byte for θ < 255: L2-resident) with the θs of a measure split over the cores.

Measured at 10⁶ rows (313,284,286 edges), seconds:
- before (main b7ce6bb, lead, quiet machine, load 0.8, 2 repeats): build 11.62, order 11.79, I_MI 6.05, I_P 4.47,
  I_R 0.88, total 36.85; peak 5.54 GB; 582,924 minor faults.
- before, same busy machine as "after" (main b7ce6bb, load 7.9–9.1, stage profiler): CPU 49.6 s (cold) and 43.5 s
  per repeat; 5.8 s of system time per repeat in first-touch faults (prefault + buffers).
- after (2026-11-27 01:42 UTC, this branch, 3 repeats; the machine had been up 11.1 h, running other helpers' test
  suites and builds, 1/5/15-min load 9.1/10.5/10.4 — about 5 runnable tasks per core — so wall times are inflated):
  CPU 36.2 s (first repeat, fresh memory) / 29.0 / 32.1 s per repeat, 152,725–161,400 minor faults per repeat,
  wall median 90.4 s (build 34.1, order 28.7, I_MI 10.1, I_P 9.3, I_R 1.6), peak 5.77 GB, numba cache warm.
  ≤ 20 s wall needs ≤ 40 CPU s spread over both cores; not yet confirmed on a quiet machine.
- main 5e9cb92 (lead, quiet machine): build 8.4, order 5.05, I_MI 2.33, I_P 2.63, I_R 0.40; total 20.03 s median
  (24.1/19.2/20.0), peak 5.85 GB.

4-byte sort keys (issue 27, item 5; branch tax-order). The build's union and the rank order each sort all of a graph's
keys (313 M edges at 10⁶ rows, more keys before the union's deduplication), bucket by bucket. Both now write a key
relative to its bucket — (offset of the bucket's end in the bucket) << bits(n) | other end — as 4 bytes whenever that
fits with ≤ 256 buckets (up to 2**20 nodes; larger graphs keep 8-byte keys): the scatter writes half the bytes, and
numpy's AVX-512 sort took 3.95 ns per 4-byte key (1.2 M-key buckets) against 8.85 ns per 8-byte key (2.45 M-key
buckets). Keys are sorted in the first half of their bucket's 8-byte-per-edge range and decoded in place from the back.
The node sequence sorts the keyed ranks with one SIMD argsort and re-sorts only runs of equal ranks instead of a 4-key
lexsort (10⁶ nodes: 0.11 s against 1.08 s, load 8.5). Outputs are unchanged: tests against np.argsort(kind="stable"),
sorted_unique and np.lexsort, and at 10⁶ rows the same blake2b digests of the graph (u, v) and of the order (u, v, inv,
ptr) from main's code and from this branch. Measured old (main's functions) vs new, interleaved in one process after
warm-up, on the shared 2-core machine while other helpers ran test suites (1-min load 8–12: wall times are 5–8 times the
quiet ones, so CPU seconds are the better guide):
- 2·10⁵ rows (12.5 M edges), 5 repeats, load 8.3–9.2: order wall median 0.96 → 0.67 s (×0.69), CPU 0.32 → 0.22 s
  (×0.70); build wall 4.0 → 2.9 s (×0.72), CPU 1.17 → 0.98 s (×0.84).
- 10⁶ rows, 2 repeats, load 10.6–11.9: build CPU 14.0/12.95 → 11.06/10.09 s (×0.79), wall median 49.9 → 37.6 s; order
  CPU 10.26/10.17 → 9.05/10.77 s (×0.97: within the noise at this load), wall 37.0 → 34.6 s.
- 10⁶ rows, the order stage alone (one graph, main's order and this branch's alternating), 4 repeats, load 8.6–9.9
  (the inconsistency privacy-harness tests ran alongside for part of it): CPU 11.34/11.57/10.71/11.58 →
  8.90/8.69/9.91/9.97 s (median ×0.82), wall median 52.3 → 46.0 s (×0.88); peak RSS 6.9 GB (digest copies included).
  On the quiet machine's 5.05 s this would be ≈ 4.1–4.4 s if the CPU ratio carries over, and the build's ×0.79 CPU
  ≈ 1.5–1.8 s off its 8.4 s: an estimate, not a measurement.
- main 7711573 + the 4-byte keys (lead, 2026-11-27 05:03 UTC, up 14.5 h after a day of test runs, helpers finished a
  few minutes before: 1-min load 1.3–1.5 during the repeats, 5-min 2.5–3.0; numba cache warm): build 8.48, order 4.59,
  I_MI 2.57, I_P 2.91, I_R 0.65; total 20.46 s median (22.3/20.5/20.1), CPU 34.1/29.3/30.1 s, peak 5.77 GB. The order
  stage fell 5.05 → 4.59 s; the build did not move (8.4 → 8.48): the estimate above did not carry over. ≤ 20 s is
  still not met.
- main 9cb4670, unchanged code (lead, 2026-11-27 06:16–06:23 UTC, first thing in a new session: up 15.7 h, nothing had
  run for ~40 min before, 1-min load 0.45 at start): this script alone 13.68 s median (15.8/13.5/13.7; build 5.95,
  order 3.13, I_MI 1.72, I_P 1.74, I_R 0.36), CPU 24.6/20.3/20.3 s; through `dpworkbench bench --only
  inconsistency_scale` (what `make bench` runs) 13.34 s (14.9/13.3/12.9), CPU 23.0/19.8/19.0 s, load 1.3–1.5; and
  with an empty numba cache (``NUMBA_CACHE_DIR`` a new folder: 7 large-graph kernels compiled in the untimed warm-up,
  as on a fresh clone) 13.08 s (18.1/13.1/12.6 — the first repeat on fresh memory), CPU 26.9/19.2/18.5 s, peak 5.86 GB.
  ≤ 20 s is met, the first repeat on fresh memory included. The same code took 29–34 CPU s per repeat at 05:03: the
  CPU seconds themselves moved 1.5× between the two sessions at similar load, so the host (other VMs on it), not this
  process, set the 20.46 s. This machine could not be restarted here, so "freshly started" is approximated by the cold
  numba cache and the fresh-memory first repeat.
- main 1e2fab1, unchanged code, **on a freshly started machine** (lead, 2026-11-27 15:01–15:03 UTC): the machine had been
  up 2 min and had run only `make install` (apt + pip into a new .venv, 88 s) in a fresh checkout, so numba's cache was
  empty (7 kernels compiled in the untimed warm-up) and all memory was fresh; 1-min load 0.85 at start, 1.24 at end;
  through `dpworkbench bench --only inconsistency_scale` (what `make bench` runs): **13.15 s** median
  (22.4/13.2/12.7; build 5.72, order 2.97, I_MI 1.66, I_P 1.62, I_R 0.34), CPU 35.9/19.2/18.7 s, minor faults
  166,201/149,360/149,864, peak 5.93 GB. ≤ 20 s holds on a fresh machine. The first repeat (22.4 s, CPU 35.9 s) is the
  one that first touches the big buffers on memory the host had never given this VM; every later repeat reuses them
  (cause 2 above), which is why the figure is the median of three, and why a single cold run is above 20 s.
"""

from __future__ import annotations

import os
import resource
import time

import numpy as np

from dpworkbench.bench import row, timeit
from dpworkbench.inconsistency.conflict_graph import build
from dpworkbench.inconsistency.datasets import dcs_for, load_table
from dpworkbench.inconsistency.experiments import time_all_measures, warmup
from dpworkbench.inconsistency.noise_injection import rnoise


def _tax(n: int):
    dcs = dcs_for("Tax")
    ds = load_table("Tax", rows=n, seed=0)
    *_, (_, df) = rnoise(ds.data, dcs, 0.005, rng=0, n_checkpoints=1)
    return df, dcs


def _machine() -> dict:
    """What the machine is doing / has done (stated in the row's note, issue 27)."""
    with open("/proc/uptime") as fh:
        up = float(fh.read().split()[0])
    return {"uptime_h": up / 3600, "load": os.getloadavg()}


def _cache_cold() -> int:
    """How many of the large-graph kernels were compiled in this process (not loaded from numba's cache)."""
    from dpworkbench.inconsistency import _fastkernels as FK

    kernels = [FK.bucket_fill, FK.bucket_fill32, FK.rank_bucket_fill32, FK.rank_bucket_count, FK.prefault, FK._degrees,
               FK._grouped_scan]
    return sum(1 for k in kernels if sum(k.stats.cache_misses.values()))


def stages(n: int) -> dict:
    """Seconds per stage at ``n`` rows (own time of each measure, not cumulative), CPU seconds and minor page faults
    per repeat, the first (fresh-memory) repeat's total and the peak RSS."""
    before = _machine()
    t0 = time.perf_counter()
    df, dcs = _tax(n)
    gen = time.perf_counter() - t0
    warmup()
    build(df.head(5000), dcs)  # load the kernels (numba cache) outside the timed region
    compiled = _cache_cold()
    # median of repeats per stage (a stray slow run on a shared machine does not set the number)
    repeats = int(os.environ.get("DPWB_BENCH_SCALE_REPEAT", "3"))
    recs, totals, cpus, faults, loads = [], [], [], [], []
    for _ in range(max(1, repeats)):
        loads.append(os.getloadavg()[0])
        r0 = resource.getrusage(resource.RUSAGE_SELF)
        t0 = time.perf_counter()
        recs.append(time_all_measures(df, dcs, rng=0, keep_per_dc=False, repeats=1, warmup_runs=0))  # this loop repeats
        totals.append(time.perf_counter() - t0)
        r1 = resource.getrusage(resource.RUSAGE_SELF)
        cpus.append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
        faults.append(r1.ru_minflt - r0.ru_minflt)
    med = {k: float(np.median([r[k] for r in recs])) for k in ("build_s", "order_s", "I_MI_s", "I_P_s", "I_R_s")}
    rec = recs[-1]
    base = med["build_s"] + med["order_s"]
    return {"rows": n, "edges": rec["edges"], "generate_s": gen, "build_s": med["build_s"], "order_s": med["order_s"],
            "I_MI_s": med["I_MI_s"] - base, "I_P_s": med["I_P_s"] - base, "I_R_s": med["I_R_s"] - base,
            "total_s": float(np.median(totals)), "peak_gb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2,
            "I_MI_theta": rec["I_MI_theta"], "I_P_theta": rec["I_P_theta"], "repeats": len(recs),
            "totals_s": totals, "cpu_s": cpus, "minor_faults": faults, "load_at_repeat": loads,
            "uptime_h": before["uptime_h"], "load_before": before["load"], "load_after": os.getloadavg(),
            "kernels_compiled": compiled}


def run() -> list[dict]:
    n = int(os.environ.get("DPWB_BENCH_TAX_ROWS", "1000000"))
    st = stages(n)
    from dpworkbench.inconsistency import _fastkernels as FK

    FK.release_scratch()  # the reused big buffers: `make bench` runs the other benchmarks in this process
    print("stage breakdown:", {k: (round(v, 2) if isinstance(v, float) else v) for k, v in st.items()})
    note = ", ".join(f"{k[:-2]} {st[k]:.1f} s" for k in ("generate_s", "build_s", "order_s", "I_MI_s", "I_P_s", "I_R_s"))
    fmt = lambda xs, d=1: "/".join(f"{x:.{d}f}" for x in xs)  # noqa: E731
    machine = (f"machine before: up {st['uptime_h']:.1f} h, load {fmt(st['load_before'], 2)} (1/5/15 min) at start, "
               f"{fmt(st['load_after'], 2)} at end; numba cache {'cold: ' + str(st['kernels_compiled']) + ' large-graph kernels compiled in the untimed warm-up' if st['kernels_compiled'] else 'warm'}; "
               f"process peak RSS includes the benchmarks run before it in this process. Repeats (s): {fmt(st['totals_s'])} "
               f"(the first on fresh memory), CPU s {fmt(st['cpu_s'])}, minor faults {'/'.join(str(f) for f in st['minor_faults'])}, "
               f"1-min load at each {fmt(st['load_at_repeat'], 2)}")
    rows = [row(f"inconsistency_tax_{n}", f"seconds build+order+I_MI+I_P+I_R ({st['edges']} edges, peak {st['peak_gb']:.2f} GB)",
                st["total_s"], 20.0, f"target ≤ 20 s on 2 cores (ratio = 20 s / ours, median of {st['repeats']}); {note}; {machine}")]
    if n >= 1_000_000:
        rows.append(row(f"inconsistency_tax_{n}", "seconds vs the paper's 4,500 s end to end", st["total_s"], 4500.0,
                        "reference: paper 4,500 s at 10⁶ rows (Xeon)"))
    m = int(os.environ.get("DPWB_BENCH_TAX_DUCK_ROWS", "200000"))
    sdf, dcs = _tax(m)
    fast = timeit(lambda: build(sdf, dcs), repeat=3)
    ref = timeit(lambda: build(sdf, dcs, engine="reference"), repeat=3)
    duck = timeit(lambda: build(sdf, dcs, engine="duckdb"), repeat=3)
    g_fast, g_ref, g_duck = build(sdf, dcs), build(sdf, dcs, engine="reference"), build(sdf, dcs, engine="duckdb")
    assert np.array_equal(g_fast.u, g_duck.u) and np.array_equal(g_fast.v, g_duck.v)
    assert np.array_equal(g_fast.u, g_ref.u) and np.array_equal(g_fast.v, g_ref.v)
    rows.append(row(f"inconsistency_tax_{m}", f"build seconds vs DuckDB engine ({g_fast.num_edges} edges)", fast, duck,
                    "identical edge arrays checked (fast = reference = DuckDB)"))
    rows.append(row(f"inconsistency_tax_{m}", "build seconds vs the reference (previous) engine", fast, ref,
                    "identical edge arrays checked"))
    return rows


if __name__ == "__main__":
    run()
