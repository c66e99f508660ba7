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
# # Fig. 16: EBC vs δ^EBC(G,0,v) on Enron
# V. A. E. de Farias, *Local Dampening: Differential Privacy for Non-numeric Queries via Local Sensitivity*, PhD thesis, UFC 2021 (PVLDB 14(4) 2020), §6.4, Fig. 16. Data: SNAP Email-Enron (real when available; ci uses a 3,000-node Holme–Kim stand-in; the cell prints which).
# Also the diagnostic of spec §0.3: overlap of the top-k by EBC with the top-k by degree (SLD is essentially EM on a concave function of the degree).

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...

# %%
from IPython.display import display
import pandas as pd
from dpworkbench import datasets
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.dampening import claims, ebc, figures
from scipy.stats import spearmanr
ctx = NotebookContext("dampening/fig16_ebc_correlation", profile=profile, output_dir=output_dir, seed=seed)
ds = datasets.load("dampening/enron", prefer=pick(profile, ci="synthetic", quick="real", paper="real"), seed=seed,
                   **({"n": 3000} if profile == "ci" else {}))
g = ds.data; print(ds.source, g)
ebc_values = ebc.ebc_all(g); deg = g.degrees

# %%
fig = figures.ebc_scatter(ebc_values, deg, sample=pick(profile, ci=2000, quick=10000, paper=len(ebc_values)), seed=seed)
ctx.save_figure(fig, "fig16_ebc_vs_delta"); fig

# %%
rho = spearmanr(ebc_values, ebc.delta_ebc(deg, 0, max_degree_bound=int(deg.max()))).statistic
ov = pd.DataFrame([{"k": k, "overlap": ebc.topk_overlap_with_degree(ebc_values, deg, k)} for k in (5, 10, 20)])
ctx.save_table(ov, "topk_overlap_ebc_degree"); display(ov)
claims.fig16_ebc_correlation(ctx.claims, spearman_rho=rho, overlap=ov, source=ds.source)
ctx.finish()
