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
# **PrivateSQL is run, not quoted**: Appendix B's query gives one view per node (the counts Q(u, v, c) over every pair), computed on DuckDB;
# the n views share B (B/n each) and are released with Laplace noise at each view's L1 sensitivity (our proved bound; PrivateSQL's own
# Flex bound is not available offline and the thesis gives it only at Δ = 10), then EBC and its top-k are post-processing
# (`dpworkbench.dampening.privatesql`). Both systems run on the same BFS samples and B; the thesis' PSQL numbers are shown beside ours,
# and our PrivateSQL results are saved on their own as `privatesql_table1.csv`.
# Accuracy averaged over samples, runs and k ∈ {1, 2, 3} (averaging over k is presumed, spec §7 item 23).
# Claims: every printed cell (PTK and PSQL, per B) is judged two-sided — the thesis' two-decimal rounding (±0.005) plus 3
# Monte-Carlo SEs of our cell (PTK's SE over the BFS samples, PSQL's over samples × k × runs).
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
import pandas as pd
from dpworkbench import datasets
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.dampening import claims, experiments, figures
from dpworkbench.dampening.reference import TABLE1_PAPER
ctx = NotebookContext("dampening/tab01_privtopk_vs_privatesql", profile=profile, output_dir=output_dir, seed=seed)
samples = pick(profile, ci=3, quick=10, paper=10); runs = pick(profile, ci=5, quick=10, paper=10)
prefer = pick(profile, ci="synthetic", quick="real", paper="real")
graphs = {"Enron": datasets.load("dampening/enron", prefer=prefer, seed=seed, **({"n": 3000} if profile == "ci" else {})),
          "DBLP": datasets.load("dampening/dblp", seed=seed, **pick(profile, ci={"n": 4000}, quick={"n": 60000}, paper={})),
          "GitHub": datasets.load("dampening/github", prefer=prefer, seed=seed, **({"n": 3000, "cap": 700} if profile == "ci" else {}))}
sources = {name: ds.source for name, ds in graphs.items()}

# %%
ours = experiments.table1({name: ds.data for name, ds in graphs.items()}, sources, samples=samples, runs=runs, seed=seed,
                          results_dir=ctx.results_dir)
ctx.save_table(ours, "table1")
psql = experiments.privatesql_results({name: ds.data for name, ds in graphs.items()}, sources, samples=samples, runs=runs,
                                      seed=seed, results_dir=ctx.results_dir)
_ = ctx.save_table(psql, "privatesql_table1")
# PTK's cells with their Monte-Carlo SE over BFS samples (read back from the same cached runs): each printed PTK number
# is judged two-sided, its rounding + 3 SE
ptk = pd.concat([experiments.table1_ptk(ds.data, samples=samples, runs=runs, seed=seed, budgets=tuple(TABLE1_PAPER.B),
                                        experiment=f"table1_{name.lower()}", results_dir=ctx.results_dir)
                 .query("method == 'PTK'").assign(graph=name) for name, ds in graphs.items()], ignore_index=True)
ours

# %%
fig = figures.table1_figure(ours)
ctx.save_figure(fig, "table1"); display(fig)
claims.tab01_privtopk_vs_privatesql(ctx.claims, ours, sources, samples=samples, runs=runs, psql=psql, ptk=ptk)
ctx.finish()
