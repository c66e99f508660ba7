"""The PrivateClean paper's numbers, as printed, in one place (claims compare against these).

Values the paper states in words ("nearly 5x", "under 10 %") are given as the number the words name; where a value
comes from the spec's own oracle rather than the paper, its name says so (``SPEC_…``).

References
----------
Krishnan, Wang, Franklin, Goldberg, Kraska, Milo, Wu: "PrivateClean: Data Cleaning and Differential Privacy",
SIGMOD 2016 (seed 002). Section numbers below are the paper's; /work/shared/spec/privateclean.md §5.3–5.4 lists them.
"""
from __future__ import annotations

#: Fig. 1(d): the running example's AVG satisfaction per cleaned major (illustrative values of a toy table).
FIG1_AVG = {"Mech. Eng.": 3.2, "Electrical Eng.": 4.9}
#: Nominal coverage of the paper's 95 % confidence intervals (§5.4–5.6).
NOMINAL_COVERAGE = 0.95
#: Fig. 2a (§8.2): "at high p PrivateClean has nearly 5x lower count error than Direct".
FIG2_COUNT_ERROR_RATIO = 5.0
#: "Nearly" read as ±20 % (the paper gives no number beyond "nearly 5x").
FIG2_NEARLY = 0.20
#: Figs. 5, 10, 11 (§8.2–8.3): "PrivateClean … less than 10 % error".
ERROR_BAR = 0.10
#: Fig. 9 (§8.2): Direct becomes more accurate than PrivateClean at a distinct fraction N/S of about 0.5.
FIG9_CROSSOVER = 0.5
#: Example 4 (§5.4): ĉ = (c_private − S·p·l/N)/(1 − p) with c = 300, S = 500, p = 0.25, l = 10, N = 25.
EXAMPLE4_COUNT = 333.3
EXAMPLE4_INPUTS = {"c_private": 300, "S": 500, "p": 0.25, "l": 10, "N": 25}
#: Example 3 (§4.3): records for 95 % / 99 % domain preservation at p = 0.25, N = 25 (printed; Theorem 2 as stated
#: gives 482.8 / 643.8, spec §1.7).
EXAMPLE3_RECORDS = {0.05: 391, 0.01: 552}
EXAMPLE3_INPUTS = {"N": 25, "p": 0.25}
#: Lemma 1 (§4.2.1): ε = ln(3/p − 2) at p = 0.25.
LEMMA1_EPSILON_P025 = 2.303
#: Appendix E: the spec's worked value (the paper states the algorithm, not this number): S = 10⁴, error 0.05 → p.
SPEC_APPE_P = 0.804
#: Fig. 7 (§8.4), the spec's [ours] oracle at error rate 0.3: PC-W / PC-U / Direct mean relative error.
SPEC_FIG7_ORACLE = (0.17, 0.30, 0.57)

__all__ = ["FIG1_AVG", "NOMINAL_COVERAGE", "FIG2_COUNT_ERROR_RATIO", "FIG2_NEARLY", "ERROR_BAR", "FIG9_CROSSOVER",
           "EXAMPLE4_COUNT", "EXAMPLE4_INPUTS", "EXAMPLE3_RECORDS", "EXAMPLE3_INPUTS", "LEMMA1_EPSILON_P025",
           "SPEC_APPE_P", "SPEC_FIG7_ORACLE"]
