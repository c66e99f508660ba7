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
# # PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 5: error vs data-error rate (sum, count)
# A fraction of the distinct values have aliases (≈50 % of their rows) that the cleaner merges back (`error_mode='split_alias'`, spec §6.3). Also shown: `pc_noprov` (corrected estimator with the cleaned l′, N′) and the dirty non-private query (gray).
#
# Data: **synthetic** (Appendix D generator, seeded; the paper's synthetic data are not published). Table 1 defaults: p = 0.1, b = 10, N = 50, S = 1000, l = 5, z = 2; numeric attribute U[0,100] (`numeric_mode='uniform'`, spec §6.3); a random query per instance (`query_mode='random'`). Error = |estimate − f(C(R))| / f(C(R)); mean over instances with an IQR band.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
fixed = {}

# %%
from IPython.display import display
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.privateclean import claims, experiments, figures

ctx = NotebookContext("privateclean/fig05_error_rate", profile=profile, output_dir=output_dir, seed=seed)
repetitions = pick(profile, ci=20, quick=200, paper=100)   # paper: 100 random instances per point (App. D)

# %%
df = experiments.sweep(ctx, "fig05_error_rate", "error_rate", pick(profile, ci=[0.0, 0.5], quick=[0.0, 0.1, 0.2, 0.3, 0.4, 0.5], paper=[0.0, 0.1, 0.2, 0.3, 0.4, 0.5]), repetitions=repetitions, fixed=fixed, seed=seed,
              multiattr=False, kind=None)
tab = experiments.table(df, "error_rate")
ctx.save_table(tab, "errors")
tab.pivot_table(index="error_rate", columns=["agg", "method"], values=["mean", "median"]).round(3)

# %%
fig = figures.error_curves(tab, "error_rate", "Fig. 5: error vs data-error rate (sum, count)")
ctx.save_figure(fig, "fig05_error_rate")
fig

# %% [markdown]
# ## Paper-claim check

# %%
top = experiments.table(experiments.sweep(ctx, "fig05_error_rate_top", "error_rate", sorted(tab["error_rate"].unique()), repetitions=repetitions,
                                        fixed={**fixed, "query_mode": "top"}, seed=seed), "error_rate")
ctx.save_table(top, "errors_top_query")
display(top.pivot_table(index="error_rate", columns=["agg", "method"], values="mean").round(4))
claims.fig05_error_rate(ctx.claims, tab, top)
ctx.finish()
