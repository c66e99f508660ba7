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
# # PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 4: error vs Zipf skew z (sum, count)
# Skew of the categorical distribution; z = 0 is uniform.
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

ctx = NotebookContext("privateclean/fig04_skew", profile=profile, output_dir=output_dir, seed=seed)
repetitions = pick(profile, ci=20, quick=200, paper=100)   # paper: 100 random instances per point (App. D)

# %%
df = experiments.sweep(ctx, "fig04_skew", "z", pick(profile, ci=[0.0, 2.0, 3.0], quick=[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0], paper=[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0]), repetitions=repetitions, fixed=fixed, seed=seed,
              multiattr=False, kind=None)
tab = experiments.table(df, "z")
ctx.save_table(tab, "errors")
tab.pivot_table(index="z", columns=["agg", "method"], values=["mean", "median"]).round(3)

# %%
fig = figures.error_curves(tab, "z", "Fig. 4: error vs Zipf skew z (sum, count)")
ctx.save_figure(fig, "fig04_skew")
fig

# %% [markdown]
# ## Paper-claim check

# %%
claims.fig04_skew(ctx.claims, tab)
ctx.finish()
