"""Local dampening hot paths added for the quick profile, each against a simple reference in the same run:

* PF expected median error: exact grouped integral vs the grouped Monte-Carlo (10,000 runs, the thesis' protocol);
* LS^IG profile (T = 1024): numba kernel vs vectorised numpy (fresh tables, memo cache bypassed);
* PrivTopk accuracy simulation: batched Gumbel-top-k vs per-run ``priv_top_k`` calls;
* PrivTopk batch sampler (Fig. 20 hot loop): numba sequential sampler vs the numpy reference.
"""

from __future__ import annotations

import numpy as np

from dpworkbench.bench import row, timeit
from dpworkbench.dampening import ebc as E
from dpworkbench.dampening import id3 as I
from dpworkbench.dampening import median as M
from dpworkbench.graphs import holme_kim
from dpworkbench.dampening import mechanisms as DM


def run() -> list[dict]:
    rows = []
    rng = np.random.default_rng(0)
    x = np.clip(rng.normal(2100, 600, 2_000_000).round(), 0, 4095).astype(int)
    g = M.histogram_groups(np.bincount(x, minlength=4096))
    exact = lambda: M.expected_error(g, "PF", 10.0)  # noqa: E731
    mc = lambda: M.expected_error(g, "PF", 10.0, pf="montecarlo", runs=10_000, rng=0)  # noqa: E731
    assert abs(exact() / mc() - 1) < 0.05
    rows.append(row("dampening_median_pf_expected_error", "seconds (4096 bins, n=2e6)", timeit(exact, repeat=3), timeit(mc, repeat=3),
                    "exact grouped PF integral vs 10,000-run grouped Monte-Carlo"))

    tables = [rng.integers(0, 3000, size=(2, 2)) for _ in range(200)]
    I.ls_ig_profile(tables[0], 1024)  # compile
    def fast():
        for c in tables:
            I.ls_ig_profile(c, 1024)
    def ref():
        for c in tables:
            I.ls_ig_profile_numpy(c, 1024)
    assert all(np.allclose(I.ls_ig_profile(c, 1024), I.ls_ig_profile_numpy(c, 1024)) for c in tables[:20])
    rows.append(row("dampening_id3_ls_profile", "seconds (200 tables, T=1024)", timeit(fast, repeat=3), timeit(ref, repeat=3),
                    "numba kernel vs vectorised numpy"))

    graph = holme_kim(20_000, 5, 0.3, seed=1)
    e, d = E.ebc_all(graph), graph.degrees
    batched = lambda: DM.top_k_accuracy(e, d, 10, epsilon=10.0, method="SLD", runs=100, rng=0)  # noqa: E731
    def per_run():
        gen = np.random.default_rng(0)
        truth = set(E.true_top_k(e, 10).tolist())
        return sum(len(truth & set(DM.priv_top_k(e, d, 10, epsilon=10.0, method="SLD", rng=gen).value.tolist())) for _ in range(100)) / 1000
    assert abs(batched() - per_run()) < 0.1
    rows.append(row("dampening_privtopk_accuracy", "seconds (20k nodes, k=10, 100 runs)", timeit(batched, repeat=3), timeit(per_run, repeat=3),
                    "scores once + batched Gumbel-top-k vs per-run priv_top_k"))

    from dpworkbench.mechanisms.topk_sampling import gumbel_top_k_samples, sequential_top_k_samples

    for method, eps in (("PF", 100.0), ("EM", 1.0)):
        lg = E.method_logits(e, d, 20, epsilon=eps, method=method)
        fast = lambda: sequential_top_k_samples(lg, 20, 30, pf=method == "PF", gen=np.random.default_rng(0))  # noqa: E731
        ref = lambda: gumbel_top_k_samples(lg, 20, 30, pf=method == "PF", gen=np.random.default_rng(0))  # noqa: E731
        fast()  # compile
        rows.append(row(f"dampening_privtopk_batch_{method.lower()}", f"seconds (20k nodes, k=20, 30 runs, ε={eps:g})",
                        timeit(fast, repeat=3), timeit(ref, repeat=3),
                        "numba rejection/permute-and-flip over truncated candidates vs numpy RNM/Gumbel over all nodes"))
    return rows


if __name__ == "__main__":
    for r in run():
        print(r)
