"""The thesis' numbers that the local-dampening notebooks compare with.

References
----------
V. A. E. de Farias, *Local Dampening: Differential Privacy for Non-numeric Queries via Local
Sensitivity*, PhD thesis, UFC 2021 (PVLDB 14(4) 2020): §5.4 (Fig. 17), §6.5 (Table 1).
"""

from __future__ import annotations

import pandas as pd


MEDIAN_PAPER = {"PATENT": "mean error reduction ~18% vs EM and PF", "HEPTH": "≤ 12%, mean ~4%", "INCOME": "no reduction (≈ 0%)"}


TABLE1_PAPER = pd.DataFrame({
    "B": [0.1, 0.5, 1.0, 5.0, 10.0],
    "Enron PTK": [0.06, 0.45, 0.60, 0.84, 0.88], "Enron PSQL": [0.01, 0.01, 0.16, 0.20, 0.21],
    "DBLP PTK": [0.05, 0.27, 0.44, 0.87, 0.92], "DBLP PSQL": [0.02, 0.02, 0.05, 0.11, 0.21],
    "GitHub PTK": [0.07, 0.49, 0.69, 0.86, 0.91], "GitHub PSQL": [0.02, 0.02, 0.02, 0.03, 0.07],
})
