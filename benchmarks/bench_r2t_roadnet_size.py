"""R2T Q1- and Q△ on a road-network stand-in at RoadnetPA's size (1.09 M nodes) against the paper's RoadnetPA times.

The real roadNet-PA is not available offline; the stand-in is the workbench's thinned grid (``roadnet_standin``:
≈ 27 % of grid edges removed, a few diagonals, max degree ≤ 8) with n = 1,090,000 nodes, D = 16 as in the paper
(GS = D, D²). One R2T run each, timed as the paper times it: pattern enumeration + mechanism (flow for Q1-, the
reduced LPs with the early stop for Q△); generating the graph is not counted. ε = 0.8, β = 0.1, seed 1.
``value`` our seconds, ``reference_value`` the paper's RoadnetPA R2T time (Table 2; 24 cores, CPLEX).
The note gives the edge count, peak RSS and the load average (shared 2-core machine: pessimistic).
"""

from __future__ import annotations

import os
import resource
import time

from dpworkbench.bench import row, timed

EPS, BETA, SEED, D = 0.8, 0.1, 1, 16
N_NODES = int(os.environ.get("DPWB_BENCH_ROAD_NODES", 1_090_000))
PAPER_R2T_ROADNETPA = {"edge": 39.6, "triangle": 14.5}


def run() -> list[dict]:
    from dpworkbench.r2t import Truncation, r2t
    from dpworkbench.r2t.datasets import roadnet_standin
    from dpworkbench.r2t.patterns import graph_joininfo

    t0 = time.perf_counter()
    g = roadnet_standin(seed=0, n=N_NODES)
    t_gen = time.perf_counter() - t0
    rows = []
    for q, k in (("edge", 1), ("triangle", 2)):
        def once(q=q, k=k):
            t0 = time.perf_counter()  # the extraction share inside the timed run (a stage breakdown; the median is timed's)
            info = graph_joininfo(g, q)
            t_ext = time.perf_counter() - t0
            return r2t(Truncation(info), epsilon=EPS, beta=BETA, gs=float(D) ** k, rng=SEED), t_ext

        (res, t_ext), secs = timed(once, repeat=3, warmup=1)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
        load = "/".join(f"{x:.1f}" for x in os.getloadavg())
        rows.append(row(f"r2t_roadnetpa_size_{q}", "seconds per R2T run", secs, PAPER_R2T_ROADNETPA[q],
                        f"stand-in thinned grid n={g.n} |E|={g.num_edges} (generated in {t_gen:.1f} s, not counted); "
                        f"extraction {t_ext:.1f} s + mechanism; {res.solved} τ solved, {res.exact['early_stopped']} "
                        f"early-stopped; peak RSS {peak:.2f} GB; load avg {load}"))
    return rows


if __name__ == "__main__":
    run()
