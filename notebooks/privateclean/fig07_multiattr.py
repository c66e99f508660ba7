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
# # PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 7: multi-attribute cleaning (PC-W vs PC-U vs Direct)
# section (Zipf, N1 = 50) → instructor (N2 = 10) FD; a fraction of instructors NULL; the FD repair fills them in. GRR on both attributes; count of 2 instructors; weighted (PC-W) vs unweighted (PC-U) provenance cut.
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

ctx = NotebookContext("privateclean/fig07_multiattr", profile=profile, output_dir=output_dir, seed=seed)
repetitions = pick(profile, ci=100, quick=1000, paper=1000)   # paper: 100 random instances per point (App. D)

# %%
df = experiments.sweep(ctx, "fig07_multiattr", "error_rate", pick(profile, ci=[0.1, 0.3], quick=[0.0, 0.1, 0.2, 0.3, 0.4, 0.5], paper=[0.0, 0.1, 0.2, 0.3, 0.4, 0.5]), repetitions=repetitions, fixed=fixed, seed=seed,
              multiattr=True, kind=None)
tab = experiments.table(df, "error_rate")
ctx.save_table(tab, "errors")
tab.pivot_table(index="error_rate", columns=["agg", "method"], values=["mean", "median"]).round(3)

# %%
fig = figures.error_curves(tab, "error_rate", "Fig. 7: multi-attribute cleaning")
ctx.save_figure(fig, "fig07_multiattr")
fig

# %% [markdown]
# ## Paper-claim check

# %%
claims.fig07_multiattr(ctx.claims, tab)
ctx.finish()
