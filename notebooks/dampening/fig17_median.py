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
# # Fig. 17: median selection on PATENT, HEPTH, INCOME
# V. A. E. de Farias, *Local Dampening: Differential Privacy for Non-numeric Queries via Local Sensitivity*, PhD thesis, UFC 2021 (PVLDB 14(4) 2020), §5.4, Fig. 17 (d–f). Data: DPBench 1-D histograms (4,096 bins, Λ = 4095) — real when `../shared/data/dpbench1d` exists,
# else seeded stand-ins (the cell below prints which). Full data (grouped computation, no subsampling) in every profile.
#
# Methods: EM and PF with Δ = Λ; LD with the **corrected** distance-0 element LS (Lemma 5.2.2 is misprinted) and the **admissible box bound**
# for t ≥ 1 (the thesis' Candidates algorithm under-estimates LS and is not private; spec §3.4); SLD (extension). Expected errors are exact for EM/LD/SLD;
# PF is exact too in ci/quick (grouped permute-and-flip integral), and the thesis' mean over 10,000 runs (grouped sampler) in the paper profile.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
eps_min, eps_max = 1e-3, 1e3

# %%
from IPython.display import display
import numpy as np, pandas as pd
from dpworkbench import datasets
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.dampening import claims, experiments, figures
ctx = NotebookContext("dampening/fig17_median", profile=profile, output_dir=output_dir, seed=seed)
n_eps = pick(profile, ci=5, quick=13, paper=25)
# PF: exact expected error by the grouped integral (spec §2.2) in ci/quick; the thesis' 10,000-run mean in paper
pf_mode = pick(profile, ci="exact", quick="exact", paper="montecarlo"); pf_runs = 10000
eps_grid = np.logspace(np.log10(eps_min), np.log10(eps_max), n_eps)

# %%
results = {}
for name in ["PATENT", "HEPTH", "INCOME"]:
    ds = datasets.load(f"dampening/{name}", seed=seed)
    print(f"{name}: {ds.source} data, n = {int(ds.data.sum()):,}")
    df = experiments.median_curves(ds.data, eps_grid, pf_runs=pf_runs, pf=pf_mode, seed=seed, experiment=f"median_{name.lower()}",
                                   results_dir=ctx.results_dir)
    df["dataset"], df["source"] = name, ds.source
    results[name] = (ds, df)
    fig = figures.median_figure(df, f"Fig. 17: {name} ({ds.source})")
    ctx.save_figure(fig, f"fig17_{name.lower()}")
    display(fig)
table = pd.concat([r[1] for r in results.values()]); _ = ctx.save_table(table, "fig17_median_errors")

# %%
fig = figures.median_sensitivity_figure(results["PATENT"][0].data); ctx.save_figure(fig, "median_sensitivity_patent"); fig

# %%
red = {k: experiments.median_reduction(v[1]) for k, v in results.items()}
display(pd.DataFrame(red).T)
src = results["PATENT"][0].source
# spec §3.6 sanity reference [D] is for the real DPBench copies only
spec = experiments.spec_median_recomputation({k: v[0].data for k, v in results.items()}) if src == "real" else None
claims.fig17_median(ctx.claims, reductions=red, source=src, spec_recomputation=spec)
ctx.finish()
