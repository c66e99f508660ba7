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
from dpworkbench.privateclean import experiments as ex

ctx = NotebookContext("privateclean/fig05_error_rate", profile=profile, output_dir=output_dir, seed=seed)
repetitions = pick(profile, ci=20, quick=200, paper=100)   # paper: 100 random instances per point (App. D)

# %%
df = ex.sweep(ctx, "fig05_error_rate", "error_rate", pick(profile, ci=[0.0, 0.5], quick=[0.0, 0.1, 0.2, 0.3, 0.4, 0.5], paper=[0.0, 0.1, 0.2, 0.3, 0.4, 0.5]), repetitions=repetitions, fixed=fixed, seed=seed,
              multiattr=False, kind=None)
tab = ex.table(df, "error_rate")
ctx.save_table(tab, "errors")
tab.pivot_table(index="error_rate", columns=["agg", "method"], values=["mean", "median"]).round(3)

# %%
fig = ex.figure(tab, "error_rate", "Fig. 5: error vs data-error rate (sum, count)", x_title=None)
ctx.save_figure(fig, "fig05_error_rate")
fig

# %% [markdown]
# ## Paper-claim check

# %%
pc = tab[(tab["method"] == "privateclean")]
med = float(pc["median"].max())
ctx.claims.add("Fig. 5: PrivateClean < 10% error at every error rate (random 5-of-50 query, mean)", paper=0.10, ours=round(float(pc["mean"].max()), 3),
               verdict="pass" if pc["mean"].max() < 0.10 else "differs",
               note=f"finding, not a bug: the mean of relative errors is heavy-tailed under random 5-of-50 Zipf(2) predicates (true counts "
                    f"of a few rows; spec §7 item 18); max median {med:.3f}. The paper's query distribution is unknown; see the top-5 query below")
top = ex.table(ex.sweep(ctx, "fig05_error_rate_top", "error_rate", sorted(tab["error_rate"].unique()), repetitions=repetitions,
                        fixed={**fixed, "query_mode": "top"}, seed=seed), "error_rate")
ctx.save_table(top, "errors_top_query")
display(top.pivot_table(index="error_rate", columns=["agg", "method"], values="mean").round(4))
pt = top[top["method"] == "privateclean"]
ctx.claims.add("Fig. 5: PrivateClean < 10% error at every error rate (top-5 query)", paper=0.10, ours=round(float(pt["mean"].max()), 4),
               verdict="pass" if pt["mean"].max() < 0.10 else "differs", note="spec §6.4 [ours]: ≈0.9% at p=0.1 with query_mode='top'")
s = ex.slope(tab, "count", "privateclean", "error_rate")
ctx.claims.add("Fig. 5: PrivateClean error roughly constant in the error rate", paper="flat", ours=f"slope {s:.3f}",
               verdict="pass" if abs(s) < 0.3 else "differs")
sd = ex.slope(tab, "count", "direct", "error_rate"); sg = ex.slope(tab, "count", "dirty_nonprivate", "error_rate")
ctx.claims.add("Fig. 5: Direct increasingly erroneous with the error rate", paper="increasing", ours=f"slope {sd:.3f} (dirty non-private: {sg:.3f})",
               verdict="pass" if sd > 0.1 else "differs",
               note="finding, not a bug (spec §6.3, §7 item 19): with split_alias errors the truth is fixed and GRR draws that land on an "
                    "alias are merged back by the cleaner, so Direct's bias does not grow; the data errors do matter without cleaning "
                    "(the dirty non-private query's error rises with the rate). No literal reading of the paper's generator reproduced it")
ctx.finish()
