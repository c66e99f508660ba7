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
# # PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 3: error vs selectivity l/N (sum, count)
# Predicate selects l of N = 50 distinct values.
#
# Data: **synthetic** (Appendix D generator, seeded; the paper's synthetic data are not published). Table 1 defaults: p = 0.1, b = 10, N = 50, S = 1000, l = 5, z = 2; numeric attribute U[0,100] (`numeric_mode='uniform'`, spec §6.3); a random query per instance (`query_mode='random'`). Error = |estimate − f(C(R))| / f(C(R)); mean over instances with an IQR band.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
fixed = {}

# %%
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.privateclean import claims, experiments, figures

ctx = NotebookContext("privateclean/fig03_selectivity", profile=profile, output_dir=output_dir, seed=seed)
repetitions = pick(profile, ci=20, quick=200, paper=100)   # paper: 100 random instances per point (App. D)

# %%
df = experiments.sweep(ctx, "fig03_selectivity", "l", pick(profile, ci=[2, 10, 25], quick=[1, 2, 5, 10, 15, 20, 25, 35], paper=[1, 2, 5, 10, 15, 20, 25, 35]), repetitions=repetitions, fixed=fixed, seed=seed,
              multiattr=False, kind=None)
tab = experiments.table(df, "l")
ctx.save_table(tab, "errors")
tab.pivot_table(index="l", columns=["agg", "method"], values=["mean", "median"]).round(3)

# %%
fig = figures.error_curves(tab, "l", "Fig. 3: error vs selectivity l/N (sum, count)", x_title='l (distinct values selected, N = 50)')
ctx.save_figure(fig, "fig03_selectivity")
fig

# %% [markdown]
# ## Paper-claim check

# %%
claims.fig03_selectivity(ctx.claims, tab)
ctx.finish()
