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
# # Table 1: SLDPrivTopk (PTK) on 50-node BFS samples vs PrivateSQL (PSQL)
# V. A. E. de Farias, *Local Dampening: Differential Privacy for Non-numeric Queries via Local Sensitivity*, PhD thesis, UFC 2021 (PVLDB 14(4) 2020), §6.5, Table 1. Data: BFS samples of Enron / GitHub (real when available, else stand-ins) and DBLP-like (synthetic).
# **PrivateSQL is not available offline: the PSQL columns are quoted from the thesis and labelled as such**; only the PTK column is reproduced.
# Accuracy averaged over samples, runs and k ∈ {1, 2, 3} (averaging over k is presumed, spec §7 item 23).
# ΔEBC and δ^EBC need a public max-degree bound; the thesis does not say which one it used on the samples. Our main PTK column uses the
# **parent graph's** max degree (the per-dataset Δ(G) the thesis treats as public, valid for every sample); a second column uses each sample's own
# max degree, which is markedly less accurate at B = 0.5–1 (SLD's degree-driven score is flatter with a small ΔEBC).

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...

# %%
from IPython.display import display
import numpy as np, pandas as pd
from dpworkbench import datasets
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.dampening import experiments, reference
ctx = NotebookContext("dampening/tab01_privtopk_vs_privatesql", profile=profile, output_dir=output_dir, seed=seed)
samples = pick(profile, ci=3, quick=10, paper=10); runs = pick(profile, ci=5, quick=10, paper=10)
prefer = pick(profile, ci="synthetic", quick="real", paper="real")
graphs = {"Enron": datasets.load("dampening/enron", prefer=prefer, seed=seed, **({"n": 3000} if profile == "ci" else {})),
          "DBLP": datasets.load("dampening/dblp", seed=seed, **pick(profile, ci={"n": 4000}, quick={"n": 60000}, paper={})),
          "GitHub": datasets.load("dampening/github", prefer=prefer, seed=seed, **({"n": 3000, "cap": 700} if profile == "ci" else {}))}

# %%
ours = reference.TABLE1_PAPER[["B"]].copy()
for name, ds in graphs.items():
    t = experiments.table1_ptk(ds.data, samples=samples, runs=runs, seed=seed, bound="parent")
    ours[f"{name} PTK (ours, {ds.source})"] = t.accuracy.to_numpy()
    ours[f"{name} PTK (ours, sample's own Δ)"] = experiments.table1_ptk(ds.data, samples=samples, runs=runs, seed=seed, bound="sample").accuracy.to_numpy()
    ours[f"{name} PSQL (quoted from thesis)"] = reference.TABLE1_PAPER[f"{name} PSQL"].to_numpy()
ctx.save_table(ours, "table1"); ours

# %%
import plotly.express as px
long = pd.concat([ours[["B", c]].rename(columns={c: "accuracy"}).assign(series=c) for c in ours.columns[1:]])
fig = px.line(long, x="B", y="accuracy", color="series", log_x=True, markers=True, title="Table 1: PTK (ours) vs PSQL (quoted)")
ctx.save_figure(fig, "table1"); display(fig)
for name in graphs:
    col = [c for c in ours.columns if c.startswith(f"{name} PTK (ours, {graphs[name].source}")][0]
    diff = float(np.abs(ours[col] - reference.TABLE1_PAPER[f"{name} PTK"]).max())
    diff_s = float(np.abs(ours[f"{name} PTK (ours, sample's own Δ)"] - reference.TABLE1_PAPER[f"{name} PTK"]).max())
    why = " Synthetic stand-in (no real DBLP copy exists): its BFS samples differ in structure from the real graph's." if graphs[name].source == "synthetic" else ""
    ctx.claims.add(f"Table 1 {name}: PTK accuracy per B", paper=reference.TABLE1_PAPER[f"{name} PTK"].round(2).tolist(), ours=ours[col].round(2).tolist(),
                   verdict="pass" if diff <= 0.15 else "differs",
                   note=f"max |diff| = {diff:.2f} ({graphs[name].source} graph, parent-graph degree bound; {samples} BFS samples × {runs} runs — "
                        f"BFS-seed sampling noise is several hundredths; which degree bound the thesis used is not stated; with each sample's own Δ: "
                        f"max |diff| = {diff_s:.2f}).{why}")
    ctx.claims.add(f"Table 1 {name}: PTK beats PSQL at every B", paper="PTK > PSQL", ours=f"{bool((ours[col] > reference.TABLE1_PAPER[f'{name} PSQL']).all())}",
                   verdict="pass" if (ours[col] > reference.TABLE1_PAPER[f"{name} PSQL"]).all() else "differs", note="PSQL values quoted, not rerun")
ctx.finish()
