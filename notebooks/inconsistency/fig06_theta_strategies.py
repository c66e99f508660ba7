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
# # Fig. 6 — strategies for θ: relative error (log) vs the true value, RNoise α = 1 %, ε = 1
# Mohapatra, Gilad, He, Kimelfeld, *Computing Inconsistency Measures Under Differential Privacy* (SIGMOD'25; seeds 000/003). Data: **Adult is the real UCI table** (10k-row samples; the artifact's `inputDB2.csv`); **Hospital (NADEEF's HospitalCompare rows), Tax (the BART tax table, clean version) and Stock (Kaggle) are real** too, sampled to 10k rows and mapped to the DC files' column names; **Flight is a SYNTHETIC seeded stand-in** (the BTS table is not available offline) with the paper's schema and DCs, calibrated to Table 5's maximum degree. Each run prints one `[data]` line per dataset saying which it used (the report's `datasets.csv` lists them). Each table below has a `source` column saying which was used.
#
# Five strategies (spec §2.9): θ = |V| (Baseline 1: Laplace with global sensitivity n), θ = max degree (Baseline 2,
# **non-private** oracle), exponential mechanism (Alg. 3; 0.4ε / 0.6ε), hierarchical EM (Alg. 4 without the bound;
# 0.2ε + 0.2ε / 0.6ε) and upper bound + hierarchical EM (ours; 0.1ε + 0.15ε + 0.15ε / 0.6ε). The |V| candidate is added
# when Σ has a general DC (Adult, Tax). Neighbouring relation: add or remove one tuple (row) at any position. Public information: the constraints Σ, the schema, the stable ordering rule and its seed, and the sample size of the experiment design (`n_bound`, which sets the candidate set Θ and the clip; a release without a public bound spends 5 % of ε on a private one). Seeded noise is for reproducibility, not a private release.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
alpha = 0.01
epsilon = 1.0
ip_sensitivity = "safe"

# %%
from IPython.display import display
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.inconsistency import claims, experiments, figures
ctx = NotebookContext("inconsistency/fig06_theta_strategies", profile=profile, output_dir=output_dir, seed=seed)
datasets = ["Stock", "Tax", "Hospital", "Flight", "Adult"]
strategies = ["baseline_V", "baseline_dmax", "em", "hier_em", "bound_hier"]
rows = pick(profile, ci=800, quick=10000, paper=10000)
n_checkpoints = pick(profile, ci=2, quick=5, paper=20)
repeats = pick(profile, ci=2, quick=10, paper=10)
res = experiments.noise_experiment("fig06", datasets, noise="rnoise", alpha=alpha, rows=rows, n_checkpoints=n_checkpoints, repeats=repeats,
                         epsilons=[epsilon], strategies=strategies, measures=("I_MI", "I_P"), ip_sensitivity=ip_sensitivity,
                         seed=seed, results_dir=ctx.results_dir)
summary = experiments.error_summary(res).pivot_table(index=["dataset", "measure"], columns="algo", values="mean")
ctx.save_table(summary.reset_index(), "error_by_strategy")
summary

# %%
fig = figures.fig_strategies(res, f"Fig. 6: θ strategies (RNoise α={alpha}, ε={epsilon}, {rows} rows)")
ctx.save_figure(fig, "fig06_strategies")
fig

# %% [markdown]
# ### The paper's version for I_P (labelled options; the sensitivity is not proven private)
# The curves above use the corrected I_P sensitivities (Laplace (θ+1)/ε₂, quality 2θ_max) and clip every output to
# [0, n] (post-processing). The paper's curves use θ and θ_max, and its code measures I_P's error *before* clipping — which
# is what makes Baseline 1 (noise of scale n on a value close to n) look bad on dense data. `ip_sensitivity="paper"` with
# `clip="artifact"` reproduces that setting for the dense datasets, and for Tax (issue 24: is "ours best among the private
# strategies" on Tax a matter of the I_P sensitivity?).

# %%
# 4× the runs: Baseline 1's |Lap(n/ε)|/n has std ≈ 1 per run, and at 10 runs Adult's gap measured +0.037 … −0.480 over 5 seeds
repeats_p = pick(profile, ci=2, quick=40, paper=40)
res_p = experiments.noise_experiment("fig06_paper_ip", ["Tax", "Flight", "Adult"], noise="rnoise", alpha=alpha, rows=rows, n_checkpoints=n_checkpoints,
                           repeats=repeats_p, epsilons=[epsilon], strategies=["baseline_V", "em", "hier_em", "bound_hier"], measures=("I_P",),
                           ip_sensitivity="paper", clip="artifact", seed=seed, results_dir=ctx.results_dir)
Ep = experiments.error_summary(res_p).assign(se=lambda t: t["std"] / t["count"] ** 0.5)
Sp = Ep.pivot_table(index=["dataset", "measure"], columns="algo", values="mean")
Sp_se = Ep.pivot_table(index=["dataset", "measure"], columns="algo", values="se")  # Monte-Carlo SE of each mean
ctx.save_table(Sp.reset_index(), "error_by_strategy_paper_ip_sensitivity")
display(Sp)
claims.fig06_theta_strategies(ctx.claims, summary, profile=profile, paper_setting=Sp, paper_setting_se=Sp_se)
ctx.finish()
