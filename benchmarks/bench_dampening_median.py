"""Median selection: grouped exact expected error (≤ 3·4096 groups) vs element-wise computation on n elements; one
percentile release on 10^6 rows next to the median release."""

from __future__ import annotations

import numpy as np

from dpworkbench.bench import row, timeit
from dpworkbench.dampening import SensitivityMatrix, dampen
from dpworkbench.dampening import median as M
from dpworkbench.dampening import mechanisms as DM


def run() -> list[dict]:
    rng = np.random.default_rng(0)
    n, lam = 200_000, 4095
    x = np.clip(rng.normal(2100, 600, n).round(), 0, lam)
    hist = np.bincount(x.astype(int), minlength=lam + 1)
    eps = 10.0

    def grouped():
        return M.expected_error(M.histogram_groups(hist), "LD", eps)

    def elementwise():
        u = M.median_utility(x, lam)
        sx = np.sort(x)
        mat = np.column_stack([M.ls0_elements(x, lam)] + [np.full(n, M.box_delta_from_sorted(sx, t, lam)) for t in range(1, 32)])
        lg = eps * dampen(u, SensitivityMatrix(np.clip(mat, 1, lam), lam)) / 2
        p = np.exp(lg - np.logaddexp.reduce(lg))
        return float(p @ -u)

    assert np.isclose(grouped(), elementwise())
    rows = [row("dampening_median_ld_expected_error", f"seconds (n={n:,})", timeit(grouped, repeat=3), timeit(elementwise, repeat=3),
                "grouped log-multiplicity vs element-wise")]
    # One percentile release (LD, p = 0.9) on 10^6 rows, next to the median release on the same rows (both: one sort,
    # δ for T = 32, one exponential-mechanism draw)
    big = np.clip(rng.normal(2100, 600, 1_000_000).round(), 0, lam)
    t_pct = timeit(lambda: DM.select_percentile(big, 0.9, lower=0, upper=lam, epsilon=1.0, rng=0), repeat=3)
    t_med = timeit(lambda: DM.select_median(big, lower=0, upper=lam, epsilon=1.0, rng=0), repeat=3)
    rows.append(row("dampening_percentile_select_1e6", "seconds, select_percentile(p=0.9, LD) on 10^6 rows", t_pct, t_med,
                    "reference = select_median (LD) on the same rows"))
    return rows


if __name__ == "__main__":
    for r in run():
        print(r)
