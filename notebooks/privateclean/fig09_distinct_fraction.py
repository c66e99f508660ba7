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
# # PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 9: error vs distinct fraction N/S (sum, count)
# N varied at S = 1000 with every value present (`ensure_coverage`) and a 5 % error rate.
#
# Data: **synthetic** (Appendix D generator, seeded; the paper's synthetic data are not published). Table 1 defaults: p = 0.1, b = 10, N = 50, S = 1000, l = 5, z = 2; numeric attribute U[0,100] (`numeric_mode='uniform'`, spec §6.3); a random query per instance (`query_mode='random'`). Error = |estimate − f(C(R))| / f(C(R)); mean over instances with an IQR band.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
fixed = {"ensure_coverage": True, "error_rate": 0.05}

# %%
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.privateclean import claims, experiments, figures

ctx = NotebookContext("privateclean/fig09_distinct_fraction", profile=profile, output_dir=output_dir, seed=seed)
repetitions = pick(profile, ci=20, quick=200, paper=100)   # paper: 100 random instances per point (App. D)

# %%
df = experiments.sweep(ctx, "fig09_distinct_fraction", "N", pick(profile, ci=[50, 500], quick=[50, 100, 200, 300, 500, 700, 900], paper=[50, 100, 200, 300, 500, 700, 900]), repetitions=repetitions, fixed=fixed, seed=seed,
              multiattr=False, kind=None)
tab = experiments.table(df, "N")
ctx.save_table(tab, "errors")
tab.pivot_table(index="N", columns=["agg", "method"], values=["mean", "median"]).round(3)

# %%
fig = figures.error_curves(tab, "N", "Fig. 9: error vs distinct fraction N/S (sum, count)", x_title='N (S = 1000; N/S = N/1000)')
ctx.save_figure(fig, "fig09_distinct_fraction")
fig

# %% [markdown]
# ## Paper-claim check

# %%
claims.fig09_distinct_fraction(ctx.claims, tab, S=1000)
ctx.finish()
