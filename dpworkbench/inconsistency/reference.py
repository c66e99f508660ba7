"""The inconsistency paper's published numbers, in one place, for claims and figures to compare against.

References
----------
.. [1] Mohapatra, Gilad, He, Kimelfeld. "Differentially Private Inconsistency Measures", SIGMOD 2025:
   §6.2 (average relative errors, Figs. 4–5), Table 1 (our approach's I_MI error), Table 5 (datasets).
"""

from __future__ import annotations

from .datasets import TABLE5  # Table 5 (tuples, attributes, DCs, FDs, max degree) is kept next to the dataset loaders

#: §6.2: average relative error of our approach over the five datasets and all noise checkpoints (ε = 1)
PAPER_AVG_ERROR = {"I_MI": 0.25, "I_P": 0.46, "I_R": 0.08}
#: §6.2: I_MI relative error per dataset quoted in the text (RNoise, ε = 1)
PAPER_MI_ERROR_TEXT = {"Tax": 0.207, "Hospital": 0.209, "Flight": 0.202, "Adult": 0.187, "Stock": 0.492}
#: Table 1: I_MI relative error of our approach (Alg. 2 + Alg. 4) on the three datasets of the table
PAPER_TAB1_OURS = {"Adult": 0.10, "Flight": 0.10, "Stock": 0.07}

__all__ = ["PAPER_AVG_ERROR", "PAPER_MI_ERROR_TEXT", "PAPER_TAB1_OURS", "TABLE5"]

# ------------------------------------------------------------------------------------ toy examples (§3–§5)
#: Fig. 2 / Examples 1–2: the Capital/Country star (3 edges, 4 problematic tuples, τ = 1, max degree 3)
FIG2_MEASURES = {"I_MI": 3, "I_P": 4, "I_R_exact": 1, "max_degree": 3}
#: Table 3: quality q(θ) at ε₂ = 1, printed truncated to two decimals
TABLE3_QUALITY = {1: -3.41, 2: -3.82, 3: -4.24}
#: Table 4: one EM at ε (Δ = 3) and the two-step EM's second step after θ3 (ε/2 each)
TABLE4_EM = {1: 0.35, 2: 0.33, 3: 0.31}
TABLE4_STEP2_AFTER_THETA3 = {1: 0.51, 2: 0.49}
#: Example 3: d_bound = freq(Ottawa) − 1
EXAMPLE3_DEGREE_BOUND = 3
#: Fig. 10: Thm 2's bound for Example 1 at a few β (read off the curve; spec §2.5 derives them)
FIG10_BOUND = {0.001: 55.61, 0.01: 41.80, 0.1: 27.98}
#: Example 6: (c, c') after each edge e1..e7 in the lexicographic order; Example 5: random orders give 4 or 6 on G
EXAMPLE6_TRACE = ((2, 2), (2, 2), (2, 2), (4, 4), (4, 4), (4, 6), (6, 6))
EXAMPLE5_COVER_SIZES_G = (4, 6)
#: τ(G), τ(G') of Fig. 3 (derived from the figure; the paper does not print them)
FIG3_TAU = (3, 4)

# ------------------------------------------------------------------------------------ Table 2 / Lemma 1 / Prop. 3
#: Prop. 3: the sensitivity of Algorithm 5's cover size
PROP3_COVER_SENSITIVITY = 2

# ------------------------------------------------------------------------------------ experiments (§6)
#: Fig. 6 text: on Stock the non-pruned private strategies are 10³–10⁴× worse than ours
FIG6_STOCK_RATIO = (1e3, 1e4)
#: Fig. 7 text: I_R's error is at most 5 % at these (dataset, ε)
FIG7_IR_MAX_ERROR = 0.05
FIG7_IR_POINTS = (("Stock", 3.0), ("Hospital", 0.1), ("Flight", 0.1))
#: Fig. 8: 1 ms at 10² rows → 4,500 s at 10⁶ rows (Tax, α = 0.005); Flight ≈ 5 s with 1 DC → 25 s with 13 DCs
FIG8_TAX_SECONDS = {100: 1e-3, 1_000_000: 4500.0}
FIG8_FLIGHT_SECONDS = {1: 5.0, 13: 25.0}
#: Table 5 / Fig. 9: the datasets from sparsest to densest
DENSITY_ORDER = ("Stock", "Tax", "Hospital", "Flight", "Adult")
#: Table 1: R2T's I_MI relative error on Stock and ours (their ratio ≈ 1,760×)
TABLE1_STOCK = {"R2T": 123.19, "ours": 0.07}

__all__ += ["DENSITY_ORDER", "EXAMPLE3_DEGREE_BOUND", "EXAMPLE5_COVER_SIZES_G", "EXAMPLE6_TRACE", "FIG10_BOUND", "FIG2_MEASURES",
            "FIG3_TAU", "FIG6_STOCK_RATIO", "FIG7_IR_MAX_ERROR", "FIG7_IR_POINTS", "FIG8_FLIGHT_SECONDS", "FIG8_TAX_SECONDS",
            "PROP3_COVER_SENSITIVITY", "TABLE1_STOCK", "TABLE3_QUALITY", "TABLE4_EM", "TABLE4_STEP2_AFTER_THETA3"]
