"""How the Spark conflict-graph statistics scale with cores (issue 14): the same Tax-like table on ``local[1]`` and
``local[c]`` (c = ``DPWB_BENCH_SPARK_CORES``, default: every core of this machine), each session after a warm-up,
median of the repeats. Row ``spark_cores_<c>``: seconds on c cores, reference = seconds on 1 core; the ratio is the
speed-up's inverse (0.5 = twice as fast).

Rows default to 2·10⁵ (``DPWB_BENCH_SPARK_CORES_ROWS``) so the run takes minutes, not an hour.
"""

from __future__ import annotations

import os
import shutil
import tempfile

from dpworkbench.bench import row, timed


def _seconds(cores: int, df, dcs, repeat: int) -> tuple[float, tuple]:
    from dpworkbench.inconsistency.spark_engine import spark_statistics
    from dpworkbench.spark import get_session, stop_sessions

    stop_sessions()
    local_dir = tempfile.mkdtemp(prefix="dpwb-spark-cores-")
    try:
        spark = get_session(f"local[{cores}]", memory=os.environ.get("DPWB_BENCH_SPARK_MEMORY", "4g"),
                            shuffle_partitions=4 * cores, conf={"spark.local.dir": local_dir})
        spark_statistics(df.head(5000), dcs, spark=spark)  # warm-up: JVM JIT and Spark's code generation
        st, seconds = timed(lambda: spark_statistics(df, dcs, spark=spark), repeat=repeat, warmup=0)
        return seconds, (st.i_mi, st.i_p, st.max_degree)
    finally:
        stop_sessions()
        shutil.rmtree(local_dir, ignore_errors=True)


def run() -> list[dict]:
    from dpworkbench.inconsistency.datasets import dcs_for, load_table
    from dpworkbench.inconsistency.noise_injection import rnoise

    n = int(os.environ.get("DPWB_BENCH_SPARK_CORES_ROWS", "200000"))
    cores = int(os.environ.get("DPWB_BENCH_SPARK_CORES", str(os.cpu_count() or 2)))
    repeat = int(os.environ.get("DPWB_BENCH_SPARK_REPEAT", "3"))
    dcs = dcs_for("Tax")
    *_, (_, df) = rnoise(load_table("Tax", rows=n, seed=0, prefer="synthetic").data, dcs, 0.0002, rng=0, n_checkpoints=1)
    one, stats_one = _seconds(1, df, dcs, repeat)
    many, stats_many = _seconds(cores, df, dcs, repeat)
    assert stats_one == stats_many, (stats_one, stats_many)
    note = (f"{n} synthetic Tax rows, 9 DCs, RNoise α=0.02 %: {stats_one[0]} edges on both; local[{cores}] vs local[1], "
            f"4 shuffle partitions per core, after warm-up, median of {repeat}; speed-up {one / many:.2f}× on {cores} cores")
    print(note)
    return [row(f"spark_cores_{cores}", "seconds exact I_MI+I_P+degrees on c cores vs 1 core", many, one, note)]


if __name__ == "__main__":
    import pandas as pd

    print(pd.DataFrame(run()).to_string())
