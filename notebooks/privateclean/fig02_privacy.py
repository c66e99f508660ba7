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
# # PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 2: error vs privacy (a–b: p; c–d: b), count and sum
# Direct vs PrivateClean as the discrete privacy parameter p grows (b = 10 fixed), then as the Laplace scale b grows (p = 0.1 fixed); no data errors.
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

ctx = NotebookContext("privateclean/fig02_privacy", profile=profile, output_dir=output_dir, seed=seed)
repetitions = pick(profile, ci=20, quick=200, paper=100)   # paper: 100 random instances per point (App. D)

# %% [markdown]
# ## Fig. 2a–b: error vs p

# %%
df = experiments.sweep(ctx, "fig02_privacy_p", "p", pick(profile, ci=[0.05, 0.3, 0.5], quick=[0.05, 0.1, 0.2, 0.3, 0.4, 0.5], paper=[0.05, 0.1, 0.2, 0.3, 0.4, 0.5]),
              repetitions=repetitions, fixed=fixed, seed=seed)
tab = experiments.table(df, "p")
ctx.save_table(tab, "errors_p")
fig = figures.error_curves(tab, "p", "Fig. 2a–b: error vs privacy p (b = 10)")
ctx.save_figure(fig, "fig02ab_privacy_p")
display(tab.pivot_table(index="p", columns=["agg", "method"], values=["mean", "median"]).round(3))
fig

# %% [markdown]
# ## Fig. 2c–d: error vs b

# %%
df_b = experiments.sweep(ctx, "fig02_privacy_b", "b", pick(profile, ci=[1, 10, 100], quick=[1, 5, 10, 20, 50, 100], paper=[1, 5, 10, 20, 50, 100]),
                repetitions=repetitions, fixed=fixed, seed=seed)
tab_b = experiments.table(df_b, "b")
ctx.save_table(tab_b, "errors_b")
fig = figures.error_curves(tab_b, "b", "Fig. 2c–d: error vs Laplace scale b (p = 0.1)")
ctx.save_figure(fig, "fig02cd_privacy_b")
display(tab_b.pivot_table(index="b", columns=["agg", "method"], values=["mean", "median"]).round(3))
fig

# %% [markdown]
# ## Paper-claim check

# %%
claims.fig02_privacy(ctx.claims, tab, tab_b, df_b)
ctx.finish()
