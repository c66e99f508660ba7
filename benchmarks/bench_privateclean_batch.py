"""PrivateClean Monte-Carlo: R private instances of the Appendix D experiment (generate, corrupt, GRR, clean, random
query; Direct / PrivateClean / no-provenance COUNT and SUM with CIs).

Fast path: ``privateclean.batch.run_batch`` (all instances as one R × S code matrix). Reference: the per-instance
``synthetic.run_instance`` (pandas relation, CleanedRelation, ``estimate``) called R times. Same model, different
random streams; the ratio is wall time reference / fast for the same number of instances.
"""

from __future__ import annotations

import numpy as np

from dpworkbench.bench import row, timeit
from dpworkbench.privateclean.batch import run_batch
from dpworkbench.privateclean.synthetic import run_instance

CELL = {"p": 0.1, "b": 10.0, "error_rate": 0.3, "S": 1000, "N": 50}


def run() -> list[dict]:
    R = 100
    fast = timeit(lambda: run_batch({**CELL, "batch": R}, np.random.default_rng(0)), repeat=3)
    ref = timeit(lambda: [run_instance(CELL, np.random.default_rng(i)) for i in range(R)], repeat=3)
    big = timeit(lambda: run_batch({**CELL, "batch": 2000}, np.random.default_rng(1)), repeat=3)
    return [row("privateclean_batch_montecarlo", f"{R} instances (s)", fast, ref,
                "run_batch vs per-instance run_instance loop, S=1000, N=50, error_rate 0.3"),
            row("privateclean_batch_montecarlo", "2000 instances (s)", big, ref * 20,
                "reference extrapolated linearly from 100 instances")]


if __name__ == "__main__":
    run()
