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
from dpworkbench.dampening import experiments, figures, median
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
    df = experiments.median_curves(ds.data, eps_grid, pf_runs=pf_runs, pf=pf_mode, seed=seed)
    df["dataset"], df["source"] = name, ds.source
    results[name] = (ds, df)
    fig = figures.median_figure(df, f"Fig. 17: {name} ({ds.source})")
    ctx.save_figure(fig, f"fig17_{name.lower()}")
    display(fig)
table = pd.concat([r[1] for r in results.values()]); ctx.save_table(table, "fig17_median_errors")

# %%
fig = figures.median_sensitivity_figure(results["PATENT"][0].data); ctx.save_figure(fig, "median_sensitivity_patent"); fig

# %%
red = {k: experiments.median_reduction(v[1]) for k, v in results.items()}
display(pd.DataFrame(red).T)
src = results["PATENT"][0].source
ctx.claims.add("PATENT: LD reduces mean error vs EM/PF by ~18%", paper=0.18, ours=red["PATENT"]["mean"], rtol=0.5,
               note=f"{src} data; mean over the ε grid of 1 − LD/min(EM,PF); Λ, δ used by the thesis unknown (spec §3.6)")
hep_note = (f"{src} data, Λ = 4095, corrected LS0 + admissible box bound. Real finding, not a code error: our exact expected errors reproduce the "
            "spec's independent recomputation (checked below to 2%), which also gives HEPTH ≈ 16% mean and 31–37% at ε = 10–100. The thesis "
            "states neither Λ, n (subsampling?) nor the δ it used at t ≥ 1 (its Candidates δ is not admissible), so its 4% / 12% cannot be matched")
ctx.claims.add("HEPTH: mean reduction ~4%", paper=0.04, ours=red["HEPTH"]["mean"], atol=0.04, note=hep_note)
ctx.claims.add("HEPTH: max reduction ≤ 12%", paper=0.12, ours=red["HEPTH"]["max"], verdict="pass" if red["HEPTH"]["max"] <= 0.12 else "differs",
               note=hep_note)
if src == "real":  # spec §3.6 sanity reference [D] (exact expected errors on the DPBench copies, box bound, Λ = 4095)
    ref = {("PATENT", 10): (548, 277), ("PATENT", 100): (88, 43), ("HEPTH", 10): (435, 299), ("HEPTH", 100): (79, 50)}
    for (name, e), (em_ref, ld_ref) in ref.items():
        g = median.histogram_groups(results[name][0].data)
        em, ld = median.expected_error(g, "EM", e), median.expected_error(g, "LD", e)
        ctx.claims.add(f"{name} ε={e}: E|err| EM / LD (spec §3.6 recomputation, not the thesis)", paper=f"{em_ref} / {ld_ref}",
                       ours=f"{em:.0f} / {ld:.0f}", verdict="pass" if abs(em / em_ref - 1) < 0.02 and abs(ld / ld_ref - 1) < 0.02 else "differs",
                       note="cross-check of our exact computation against the spec author's independent script")
ctx.claims.add("INCOME: no reduction", paper=0.0, ours=red["INCOME"]["mean"], atol=0.03)
ctx.claims.add("ordering PATENT > HEPTH > INCOME", paper="PATENT > HEPTH > INCOME",
               ours=" > ".join(sorted(red, key=lambda k: -red[k]["mean"])),
               verdict="pass" if red["PATENT"]["mean"] > red["HEPTH"]["mean"] > red["INCOME"]["mean"] else "differs")
ctx.finish()
