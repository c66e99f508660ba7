"""Cross-paper comparisons: one paper's algorithm run as another paper's baseline.

The papers never import each other (checked by import-linter, ``dpworkbench layers``); a
comparison that needs two of them lives here, above the papers: ``comparisons`` may import papers, papers and the
core never import ``comparisons``.

* :mod:`~dpworkbench.comparisons.imi` — R2T (seed 001) as the baseline for the inconsistency measure I_MI
  (seed 000): :func:`r2t_imi`, :class:`R2TIMI`;
* :mod:`~dpworkbench.comparisons.table1` — the inconsistency paper's Table 1 (R2T vs. Alg. 2 + Alg. 4);
* :mod:`~dpworkbench.comparisons.figs45` — the R2T series of its Figs. 4 and 5;
* :mod:`~dpworkbench.comparisons.harness` — their release entry points for the privacy harness.
"""

from .figs45 import r2t_noise_experiment
from .imi import IMIRelease, R2TIMI, artifact_r2t, imi_truncation, r2t_imi, r2t_imi_record
from .table1 import PAPER_SEC62_R2T, PAPER_TABLE1, fig_table1, ratio_verdict, table1_experiment, table1_summary

__all__ = ["IMIRelease", "PAPER_SEC62_R2T", "PAPER_TABLE1", "R2TIMI", "artifact_r2t", "fig_table1", "imi_truncation", "r2t_imi",
           "r2t_imi_record", "r2t_noise_experiment", "ratio_verdict", "table1_experiment", "table1_summary"]
