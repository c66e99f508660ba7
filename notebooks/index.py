# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # dpworkbench — start here: the notebook gallery
# Landing notebook for all four works (no paper figure or table of its own: it links the notebooks that reproduce them).
# Data: none — it lists `notebooks/` and shows thumbnails from the latest `reports/` run, if any (real or synthetic as each notebook says).
#
# dpworkbench reproduces the figures and tables of four works on differential privacy for relational and graph data, over a shared core of DP mechanisms (Laplace, geometric, exponential, permute-and-flip, report-noisy-max, sparse vector, randomized response). Every notebook says whether it used the real data or its seeded synthetic stand-in; `learn_*` notebooks are for teaching, with widgets.
#
# - **DP inconsistency measures (seeds 000, 003)** — How inconsistent is a database with its denial constraints, measured under differential privacy: conflict graphs, the measures I_D, I_MI, I_P, I_R, I_MC, graph projection with a privately chosen degree bound θ, and a private vertex cover.
# - **R2T and OPT² (seed 001)** — Race-to-the-top (R2T): instance-optimal truncation for SPJA queries with foreign-key joins (self-joins included), LP-based truncation, node-DP graph pattern counting and TPC-H queries; OPT² for the optimal truncation of sums.
# - **PrivateClean (seed 002)** — PrivateClean: a relation privatized once with generalized randomized response, then cleaned and queried; COUNT/SUM/AVG estimates corrected for the privacy noise and for the cleaning.
# - **Local dampening (seed 004)** — Local dampening: the exponential mechanism with local instead of global sensitivity (LD and shifted LD) for the median, the top-k most influential nodes of a graph (egocentric betweenness), and private ID3 trees.
#
# Below: 52 notebooks (13 teaching notebooks marked 🎓), grouped by paper. Open one, then *Run → Run All Cells*;
# teaching notebooks show widgets (move the ε slider, the figure redraws).

# %% tags=["parameters"]
profile = "quick"      # whose report the thumbnails come from first: ci | quick | paper
seed = 0
interactive = True

# %% [markdown]
# ## DP mechanisms (teaching)
#
# - 🎓 [`learn_laplace_composition`](mechanisms/learn_laplace_composition.ipynb) — The Laplace mechanism and sequential composition
# - 🎓 [`learn_randomized_response`](mechanisms/learn_randomized_response.ipynb) — Randomized response: estimation and its bias correction
# - 🎓 [`learn_selection_em_pf_rnm`](mechanisms/learn_selection_em_pf_rnm.ipynb) — Private selection: exponential mechanism vs permute-and-flip vs report-noisy-max
# - 🎓 [`learn_sparse_vector`](mechanisms/learn_sparse_vector.ipynb) — The sparse vector technique (AboveThreshold)

# %% [markdown]
# ## DP inconsistency measures (seeds 000, 003)
# *How inconsistent is a database with its denial constraints, measured under differential privacy: conflict graphs, the measures I_D, I_MI, I_P, I_R, I_MC, graph projection with a privately chosen degree bound θ, and a private vertex cover.*
#
# - [`fig02_tab03_tab04_fig10_toy`](inconsistency/fig02_tab03_tab04_fig10_toy.ipynb) — Fig. 2, Tables 3–4 and Fig. 10 — the Capital/Country toy example
# - [`fig03_vertex_cover_toy`](inconsistency/fig03_vertex_cover_toy.ipynb) — Fig. 3 and Examples 5–6 — DP vertex cover with a stable ordering (Algorithm 5)
# - [`fig04_fig05_true_vs_private`](inconsistency/fig04_fig05_true_vs_private.ipynb) — Figs. 4 and 5 — true vs private I_P, I_MI, I_R under RNoise (Fig. 4, α = 1 %) or CONoise (Fig. 5, 200 iterations), ε = 1 (runs: `fig04_true_vs_private_rnoise` with noise='rnoise'; `fig05_true_vs_private_conoise` with noise='conoise')
# - [`fig06_theta_strategies`](inconsistency/fig06_theta_strategies.ipynb) — Fig. 6 — strategies for θ: relative error (log) vs the true value, RNoise α = 1 %, ε = 1
# - [`fig07_epsilon_sweep`](inconsistency/fig07_epsilon_sweep.ipynb) — Fig. 7 — varying ε ∈ {0.1, 0.2, 0.5, 1, 2, 3, 5}, RNoise α = 0.5 %, Stock / Hospital / Flight
# - [`fig08_runtime`](inconsistency/fig08_runtime.ipynb) — Fig. 8 — runtime: Tax size sweep (α = 0.5 % and 1 %) and Flight number of DCs (1 … 13)
# - [`fig09_runtime_by_density`](inconsistency/fig09_runtime_by_density.ipynb) — Fig. 9 (App. A.4) — runtime of all measures by dataset, 10k rows, RNoise α = 0.1 %, ε = 1
# - [`tab01_r2t_vs_projection`](inconsistency/tab01_r2t_vs_projection.ipynb) — Table 1 — I_MI under DP: R2T vs graph projection (this work), ε = 1, Adult / Flight / Stock
# - [`tab02_measures`](inconsistency/tab02_measures.ipynb) — Table 2 — the inconsistency measures and their (measured) global sensitivities
# - [`tab05_datasets`](inconsistency/tab05_datasets.ipynb) — Table 5 — datasets, constraints and the conflict graph at 1 % RNoise
# - 🎓 [`learn_conflict_graphs`](inconsistency/learn_conflict_graphs.ipynb) — Learn: conflict graphs and private inconsistency measures
# - 🎓 [`learn_projection_selection`](inconsistency/learn_projection_selection.ipynb) — Learn: how much to cut a conflict graph before adding noise (θ), and choosing θ privately

# %% [markdown]
# ## R2T and OPT² (seed 001)
# *Race-to-the-top (R2T): instance-optimal truncation for SPJA queries with foreign-key joins (self-joins included), LP-based truncation, node-DP graph pattern counting and TPC-H queries; OPT² for the optimal truncation of sums.*
#
# - [`fig02_worked_example`](r2t/fig02_worked_example.ipynb) — R2T and OPT² — the worked example (Fig. 2; Examples 5.2, 6.3, 6.7)
# - [`fig07_epsilon_sweep`](r2t/fig07_epsilon_sweep.ipynb) — Figure 7 — error vs ε on RoadnetPA (4 panels: edges, length-2 paths, triangles, 4-cycles)
# - [`fig08_scalability`](r2t/fig08_scalability.ipynb) — Figure 8 — error and running time over TPC-H scale factors (Q3, Q12, Q20)
# - [`fig09_gs_dependency`](r2t/fig09_gs_dependency.ipynb) — Figure 9 — error vs the assumed global sensitivity GS_Q (TPC-H Q3, Q12, Q20)
# - [`tab01_datasets`](r2t/tab01_datasets.ipynb) — Table 1 — graph datasets (what we used)
# - [`tab02_graph_queries`](r2t/tab02_graph_queries.ipynb) — Table 2 — graph pattern counting under node-DP: R2T, OPT², LP, NT, SDE, RM
# - [`tab03_fixed_tau`](r2t/tab03_fixed_tau.ipynb) — Table 3 — the LP mechanism with a fixed τ vs R2T/OPT² (Amazon2)
# - [`tab04_early_stop`](r2t/tab04_early_stop.ipynb) — Table 4 — running time of R2T and OPT² with and without early stop (Q□, 4-cycles)
# - [`tab05_tpch`](r2t/tab05_tpch.ipynb) — Table 5 — TPC-H: R2T, OPT² and LS on ten queries
# - 🎓 [`learn_own_database`](r2t/learn_own_database.ipynb) — R2T on your own database
# - 🎓 [`learn_race_to_the_top`](r2t/learn_race_to_the_top.ipynb) — Race to the top: counting privately when one person can own many rows
# - 🎓 [`learn_theorem_bounds`](r2t/learn_theorem_bounds.ipynb) — Do the error guarantees hold? R2T's and OPT²'s theorems checked by simulation

# %% [markdown]
# ## PrivateClean (seed 002)
# *PrivateClean: a relation privatized once with generalized randomized response, then cleaned and queried; COUNT/SUM/AVG estimates corrected for the privacy noise and for the cleaning.*
#
# - [`fig01_running_example`](privateclean/fig01_running_example.ipynb) — PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 1: privatise → clean → query, worked and executable
# - [`fig02_privacy`](privateclean/fig02_privacy.ipynb) — PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 2: error vs privacy (a–b: p; c–d: b), count and sum
# - [`fig03_selectivity`](privateclean/fig03_selectivity.ipynb) — PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 3: error vs selectivity l/N (sum, count)
# - [`fig04_skew`](privateclean/fig04_skew.ipynb) — PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 4: error vs Zipf skew z (sum, count)
# - [`fig05_error_rate`](privateclean/fig05_error_rate.ipynb) — PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 5: error vs data-error rate (sum, count)
# - [`fig06_merge_rate`](privateclean/fig06_merge_rate.ipynb) — PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 6: error vs merge rate (sum, count)
# - [`fig07_multiattr`](privateclean/fig07_multiattr.ipynb) — PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 7: multi-attribute cleaning (PC-W vs PC-U vs Direct)
# - [`fig08_tpcds`](privateclean/fig08_tpcds.ipynb) — PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 8: TPC-DS customer_address — constraint-based cleaning (FD and MD)
# - [`fig09_distinct_fraction`](privateclean/fig09_distinct_fraction.ipynb) — PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 9: error vs distinct fraction N/S (sum, count)
# - [`fig10_intel_like`](privateclean/fig10_intel_like.ipynb) — PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 10: IntelWireless — error vs privacy p (count, avg)
# - [`fig11_mcafe_like`](privateclean/fig11_mcafe_like.ipynb) — PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 11: MCAFE stand-in — error vs privacy p (count, avg) with isEurope(make)
# - [`raha_cleaning`](privateclean/raha_cleaning.ipynb) — PrivateClean on real dirty data — raha's beers, flights and rayyan (no paper figure)
# - [`raha_multi_attribute`](privateclean/raha_multi_attribute.ipynb) — PrivateClean beyond one column — multi-attribute, grouped and median queries on raha's beers (no paper figure)
# - 🎓 [`learn_ci_coverage`](privateclean/learn_ci_coverage.ipynb) — Learn PrivateClean: do the confidence intervals cover?
# - 🎓 [`learn_privateclean`](privateclean/learn_privateclean.ipynb) — Learn PrivateClean: randomized response, de-biasing, and cleaning with provenance
# - 🎓 [`learn_theory_and_tuning`](privateclean/learn_theory_and_tuning.ipynb) — Learn PrivateClean: how much privacy does p buy, how many rows keep every value, and how to tune p

# %% [markdown]
# ## Local dampening (seed 004)
# *Local dampening: the exponential mechanism with local instead of global sensitivity (LD and shifted LD) for the median, the top-k most influential nodes of a graph (egocentric betweenness), and private ID3 trees.*
#
# - [`fig02_fig03_fig09_fig11_fig15_worked_examples`](dampening/fig02_fig03_fig09_fig11_fig15_worked_examples.ipynb) — Worked examples: Figs. 2, 3, 9 (9c), 11 and 15; Examples 1.1.2–4.2.1
# - [`fig12_fig13_fig14_dampening_function`](dampening/fig12_fig13_fig14_dampening_function.ipynb) — Figs. 12, 13 and 14: bounded sensitivity functions, monotonicity and the dampening function
# - [`fig16_ebc_correlation`](dampening/fig16_ebc_correlation.ipynb) — Fig. 16: EBC vs δ^EBC(G,0,v) on Enron
# - [`fig17_median`](dampening/fig17_median.ipynb) — Fig. 17: median selection on PATENT, HEPTH, INCOME — and every other DPBench histogram
# - [`fig20_privtopk`](dampening/fig20_privtopk.ipynb) — Fig. 20: private top-k nodes by egocentric betweenness (EM, PF, LD, SLD)
# - [`fig23_fig24_fig25_id3`](dampening/fig23_fig24_fig25_id3.ipynb) — Figs. 23–25: private ID3 (GlobalDiffPID3 = EM, LocalDiffPID3 = LD, ShiftedLocalDiffPID3 = SLD)
# - [`tab01_privtopk_vs_privatesql`](dampening/tab01_privtopk_vs_privatesql.ipynb) — Table 1: SLDPrivTopk (PTK) on 50-node BFS samples vs PrivateSQL (PSQL)
# - 🎓 [`learn_local_dampening`](dampening/learn_local_dampening.ipynb) — Learn: choosing the best answer privately — exponential mechanism vs local dampening

# %% [markdown]
# ## Figure thumbnails from the latest report
# Run the cell below (it only reads `reports/`; `make reproduce` writes them).

# %%
from dpworkbench.experiments.report import notebook_gallery

notebook_gallery(prefer=profile)

# %% [markdown]
# ## Headless use
# Every notebook also runs without a browser, with papermill (`interactive = False` still emits every figure):
#
# ```bash
# .venv/bin/dpworkbench list                       # every run, one line each
# .venv/bin/dpworkbench run notebooks/mechanisms/learn_sparse_vector.ipynb -p epsilon 0.5
# make reproduce                                   # all runs, quick profile -> reports/quick/index.html
# ```
