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
# # Fig. 17: median selection on PATENT, HEPTH, INCOME — and every other DPBench histogram
# V. A. E. de Farias, *Local Dampening: Differential Privacy for Non-numeric Queries via Local Sensitivity*, PhD thesis, UFC 2021 (PVLDB 14(4) 2020), §5.4, Fig. 17 (d–f). Data: DPBench 1-D histograms (4,096 bins, Λ = 4095) — real when `../shared/data/dpbench1d` exists,
# else seeded stand-ins (the cell below prints which). Full data (grouped computation, no subsampling) in every profile.
#
# The thesis "tested most of the datasets from Hay et al." (§5.3) and shows three; here all 18 DPBench 1-D histograms run
# (quick and paper profiles; ci runs the three shown), each with a claim against what the thesis says of it.
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
from dpworkbench.dampening.datasets import DPBENCH_1D, FIG17_SHOWN
ctx = NotebookContext("dampening/fig17_median", profile=profile, output_dir=output_dir, seed=seed)
n_eps = pick(profile, ci=5, quick=13, paper=25)
# PF: exact expected error by the grouped integral (spec §2.2) in ci/quick; the thesis' 10,000-run mean in paper
pf_mode = pick(profile, ci="exact", quick="exact", paper="montecarlo"); pf_runs = 10000
eps_grid = np.logspace(np.log10(eps_min), np.log10(eps_max), n_eps)

# %%
names = list(FIG17_SHOWN) if profile == "ci" else list(DPBENCH_1D)
loaded = {name: datasets.load(f"dampening/{name}", seed=seed) for name in names}
for name, ds in loaded.items():
    print(f"{name}: {ds.source} data, n = {int(ds.data.sum()):,}")
table = experiments.median_suite({k: v.data for k, v in loaded.items()}, eps_grid, pf=pf_mode, pf_runs=pf_runs, seed=seed,
                                 results_dir=ctx.results_dir)
table["source"] = table["dataset"].map({k: v.source for k, v in loaded.items()})
results = {name: (loaded[name], table[table["dataset"] == name]) for name in names}
for name in FIG17_SHOWN:
    fig = figures.median_figure(results[name][1], f"Fig. 17: {name} ({loaded[name].source})")
    ctx.save_figure(fig, f"fig17_{name.lower()}")
    display(fig)
_ = ctx.save_table(table, "fig17_median_errors")

# %% [markdown]
# ### Every DPBench histogram
# One panel per dataset; the table below ranks the four mechanisms per dataset by their mean error relative to the
# better of EM and PF (1 = as good; `best` is the lowest), with LD's and SLD's mean reduction.

# %%
if len(names) > len(FIG17_SHOWN):
    fig = figures.median_suite_figure(table, "Median selection on every DPBench 1-D histogram (Λ = 4095)")
    ctx.save_figure(fig, "fig17_all_dpbench", png=profile != "ci")
    display(fig)
ranking = experiments.median_ranking(table)
_ = ctx.save_table(ranking, "fig17_median_ranking")
ranking.round(3)

# %%
fig = figures.median_sensitivity_figure(results["PATENT"][0].data); ctx.save_figure(fig, "median_sensitivity_patent"); fig

# %%
red = {k: experiments.median_reduction(v[1]) for k, v in results.items()}
display(pd.DataFrame(red).T)
src = {k: v[0].source for k, v in results.items()}
# spec §3.6 sanity reference [D] is for the real DPBench copies only
real = {k: v[0].data for k, v in results.items() if v[0].source == "real" and k in ("PATENT", "HEPTH")}
spec = experiments.spec_median_recomputation(real) if real else None
claims.fig17_median(ctx.claims, reductions=red, source=src, spec_recomputation=spec,
                    ranking=ranking if len(names) > len(FIG17_SHOWN) else None)
ctx.finish()
