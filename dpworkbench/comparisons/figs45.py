"""The R2T series (I_MI) of the inconsistency paper's Figs. 4 and 5 (seed 000): R2T
(:class:`~dpworkbench.comparisons.imi.R2TIMI`, the artifact's GS = n, β = 0.1, base 5.5) on the same RNoise /
CONoise checkpoints as :func:`dpworkbench.inconsistency.experiments.noise_experiment`, in the same tidy rows
(``algo="r2t"``, ``measure="I_MI"``), so a notebook concatenates the two and draws them in one figure
(:func:`~dpworkbench.inconsistency.figures.fig_true_vs_private` draws rows with ``algo == "r2t"`` as the
dotted R2T series). Seeded noise is for reproducibility; it is not a private release.
"""

from __future__ import annotations

from typing import Sequence

import pandas as pd

from .imi import R2TIMI


def r2t_noise_experiment(experiment: str, datasets: Sequence[str], *, noise: str, alpha: float = 0.01,
                         conoise_iters: int = 200, rows: int, n_checkpoints: int, repeats: int, epsilons=(1.0,),
                         seed: int = 0, results_dir=None, prefer: str = "real",
                         last_checkpoint_only: bool = False) -> pd.DataFrame:
    """run_grid over (dataset, checkpoint, ε) of R2T on I_MI: rows (dataset, noise, checkpoint, measure, algo, eps,
    run, …) as :func:`~dpworkbench.inconsistency.experiments.noise_experiment` writes them. The truncations are
    computed once per checkpoint's graph; each run only redraws the noise."""
    from ..experiments import run_grid
    from ..inconsistency import experiments as X
    from ..inconsistency.mechanisms import run_record

    grid = {"dataset": list(datasets), "checkpoint": list(range(n_checkpoints + 1)) if not last_checkpoint_only else [-1],
            "eps": list(epsilons)}
    fixed = dict(noise=noise, alpha=alpha if noise == "rnoise" else None, conoise_iters=conoise_iters if noise == "conoise" else None,
                 rows=rows, n_checkpoints=n_checkpoints, repeats=repeats, strategies="r2t", measures="I_MI", prefer=prefer)

    def cell(c, rng):
        ds, dcs, cps = X.checkpoints(c["dataset"], noise=noise, alpha=alpha, conoise_iters=conoise_iters, rows=rows,
                                     n_checkpoints=n_checkpoints, seed=seed, prefer=prefer)
        if c["checkpoint"] >= len(cps):
            return []
        it, df, g, build_s = cps[c["checkpoint"]]
        q = R2TIMI(g)  # truncations computed once per graph, noise redrawn per run
        recs = [run_record(q.run(c["eps"], rng=rng), algo="r2t", run=r) for r in range(repeats)]
        for r in recs:
            r.update(iteration=it, edges=g.num_edges, max_degree=g.max_degree(), source=ds.source, build_seconds=build_s)
        return recs

    return run_grid(experiment, cell, grid, repetitions=1, seed=seed, fixed=fixed, results_dir=results_dir)


__all__ = ["r2t_noise_experiment"]
