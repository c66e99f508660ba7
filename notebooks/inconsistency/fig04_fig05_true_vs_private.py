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
# # Figs. 4 and 5 — true vs private I_P, I_MI, I_R under RNoise (Fig. 4, α = 1 %) or CONoise (Fig. 5, 200 iterations), ε = 1
# Mohapatra, Gilad, He, Kimelfeld, *Computing Inconsistency Measures Under Differential Privacy* (SIGMOD'25; seeds 000/003). Data: **Adult is the real UCI table** (10k-row samples; the artifact's `inputDB2.csv`); **Hospital (NADEEF's HospitalCompare rows), Tax (the BART tax table, clean version) and Stock (Kaggle) are real** too, sampled to 10k rows and mapped to the DC files' column names; **Flight is a SYNTHETIC seeded stand-in** (the BTS table is not available offline) with the paper's schema and DCs, calibrated to Table 5's maximum degree. Each run prints one `[data]` line per dataset saying which it used (the report's `datasets.csv` lists them). Each table below has a `source` column saying which was used.
#
# One notebook, two figures: the `noise` parameter picks the noise model, `"rnoise"` for Fig. 4 and `"conoise"` for Fig. 5
# (`dpworkbench reproduce` runs it twice, as `fig04_true_vs_private_rnoise` and `fig05_true_vs_private_conoise`; see
# `notebooks/manifest.toml`). "Our approach": Algorithm 2 with the full Algorithm 4 (FD bound + two-step EM; ε split
# 0.1/0.15/0.15/0.6) for I_MI and I_P, Algorithm 5 for I_R. I_P uses the corrected sensitivity θ+1 (set
# `ip_sensitivity = "paper"` for the paper's θ). The I_R "true value" is 2·I_R^lin, as in the paper's artifact. Panels:
# datasets sparsest → densest. The R2T series (I_MI, dotted red) is drawn from `dpworkbench.r2t` through the cross-paper module `dpworkbench.comparisons` with the artifact's
# settings (GS = n, β = 0.1, base 5.5, ordered conflicting pairs with the output halved — spec §2.10; its truncations are computed once per graph); `r2t_series = False` drops it. Neighbouring relation: add or remove one tuple (row) at any position. Public information: the constraints Σ, the schema, the stable ordering rule and its seed, and the sample size of the experiment design (`n_bound`, which sets the candidate set Θ and the clip; a release without a public bound spends 5 % of ε on a private one). Seeded noise is for reproducibility, not a private release.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
noise = "rnoise"       # "rnoise" (Fig. 4) | "conoise" (Fig. 5)
alpha = 0.01           # RNoise: fraction of cells changed (Fig. 4)
conoise_iters = 200    # CONoise: iterations (Fig. 5)
epsilon = 1.0
ip_sensitivity = "safe"
artifact_compat = False
r2t_series = True      # add R2T (I_MI) as in the paper's Figs. 4b/5b

# %%
from IPython.display import display
import pandas as pd
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.inconsistency import claims, experiments, figures
from dpworkbench import comparisons
fig_no = {"rnoise": 4, "conoise": 5}[noise]
stem = f"fig{fig_no:02d}_true_vs_private_{noise}"
ctx = NotebookContext(f"inconsistency/{stem}", profile=profile, output_dir=output_dir, seed=seed)
datasets = ["Stock", "Tax", "Hospital", "Flight", "Adult"]
rows = pick(profile, ci=800, quick=10000, paper=10000)
n_checkpoints = pick(profile, ci=2, quick=5, paper=20)
repeats = pick(profile, ci=2, quick=10, paper=10)
res = experiments.noise_experiment(stem, datasets, noise=noise, alpha=alpha, conoise_iters=conoise_iters, rows=rows,
                         n_checkpoints=n_checkpoints, repeats=repeats, epsilons=[epsilon], ip_sensitivity=ip_sensitivity,
                         strategies=("bound_hier",), artifact_compat=artifact_compat, seed=seed, results_dir=ctx.results_dir)
if r2t_series:
    r2t_res = comparisons.r2t_noise_experiment(f"{stem}_r2t", datasets, noise=noise, alpha=alpha, conoise_iters=conoise_iters,
                                               rows=rows, n_checkpoints=n_checkpoints, repeats=repeats, epsilons=[epsilon],
                                               seed=seed, results_dir=ctx.results_dir)
    res = pd.concat([res, r2t_res], ignore_index=True)
display(res.groupby("dataset").source.first())
summary = experiments.error_summary(res)
ctx.save_table(summary, "error_summary")
summary

# %%
fig = figures.fig_true_vs_private(res, f"Fig. {fig_no}: true vs private ({noise}, ε={epsilon}, {rows} rows, {repeats} runs)")
ctx.save_figure(fig, f"fig{fig_no:02d}_true_vs_private")
fig

# %%
ours = res[res.algo != "r2t"]
avg = experiments.error_summary(ours, by=("measure",)).set_index("measure")["mean"]
per = experiments.error_summary(ours, by=("dataset", "measure")).set_index(["dataset", "measure"])["mean"]
r2t_per_mi = (experiments.error_summary(res[res.algo == "r2t"], by=("dataset", "measure")).query("measure == 'I_MI'")
              .set_index("dataset")["mean"].to_dict() if r2t_series else None)  # per dataset: a mean hides where R2T wins
r2t_avg_mi = float(experiments.error_summary(res[res.algo == "r2t"], by=("measure",)).set_index("measure")["mean"]["I_MI"]) if r2t_series else None
# Monte-Carlo SE of each mean error for the claims' two-sided bands (runs × checkpoints taken as independent draws)
se = {**experiments.error_summary(ours, by=("measure",)).set_index("measure").eval("std / sqrt(count)").to_dict(),
      **experiments.error_summary(ours, by=("dataset", "measure")).set_index(["dataset", "measure"]).eval("std / sqrt(count)").to_dict()}
r2t_se_mi = (experiments.error_summary(res[res.algo == "r2t"], by=("dataset", "measure")).query("measure == 'I_MI'")
             .set_index("dataset").eval("std / sqrt(count)").to_dict() if r2t_series else None)
claims.fig04_fig05_true_vs_private(ctx.claims, avg=avg.to_dict(), per=per.to_dict(), noise=noise, profile=profile, datasets=datasets,
                                   r2t_avg_mi=r2t_avg_mi, se=se, r2t_per_mi=r2t_per_mi, r2t_se_mi=r2t_se_mi)
ctx.finish()
