"""Egocentric betweenness on Apache Spark (issue 14): EBC per node as a Spark job over a broadcast CSR graph.

The graph (``indptr``, ``indices``: two int arrays, 8(n + 2m) bytes) is broadcast once to every executor; the nodes
are cut into contiguous ranges, one Spark task per range, and each task runs the numba kernel of
:mod:`dpworkbench.dampening.ebc` on its range. Every node's EBC depends on its ego network only, so the result is
the in-memory kernel's, value for value, whatever the split. On a cluster the per-node work (O(Σ_alters deg²)) is
what scales out; the graph itself has to fit in each executor's memory (Enron: 1.8 MB). Exact, NOT PRIVATE: the input
of PrivTopk, which stays on the driver. Needs a classic Spark session (``sparkContext``), not Spark Connect.
"""

from __future__ import annotations

import math

import numpy as np

from dpworkbench.graphs import CSRGraph


def ebc_spark(graph: CSRGraph, *, spark=None, tasks: int | None = None, master: str | None = None,
              memory: str | None = None) -> np.ndarray:
    """EBC of every node of ``graph`` (same values as :func:`~dpworkbench.dampening.ebc.ebc_all`), computed by Spark
    tasks over a broadcast CSR graph. ``tasks``: node ranges (default: 4 per core, at most ~20k nodes each)."""
    from dpworkbench.spark import SparkUnavailable, session_or

    spark = session_or(spark, master=master, memory=memory)
    try:
        sc = spark.sparkContext
    except Exception:
        raise SparkUnavailable("EBC on Spark needs a classic session (--spark-master), not Spark Connect") from None
    n = graph.num_nodes
    if n == 0:
        return np.zeros(0)
    if tasks is None:
        tasks = max(4 * sc.defaultParallelism, math.ceil(n / 20_000))
    tasks = max(1, min(int(tasks), n))
    cuts = np.linspace(0, n, tasks + 1).round().astype(np.int64)
    shared = sc.broadcast((np.asarray(graph.indptr, np.int64), np.asarray(graph.indices, np.int64)))

    def run(ranges):
        from dpworkbench.dampening.ebc import ebc_kernel

        indptr, indices = shared.value
        for lo, hi in ranges:
            yield int(lo), ebc_kernel(indptr, indices, np.arange(lo, hi, dtype=np.int64))

    try:
        parts = (sc.parallelize([(int(cuts[i]), int(cuts[i + 1])) for i in range(tasks)], tasks)
                 .mapPartitions(run).collect())
    finally:
        shared.unpersist()
    out = np.empty(n)
    for lo, vals in parts:
        out[lo:lo + vals.size] = vals
    return out


__all__ = ["ebc_spark"]
