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
# # The sparse vector technique (AboveThreshold)
# What you will learn: how to scan a long list of questions for the first one whose answer is above a threshold, paying the privacy cost only once, however many questions you ask.
#
# **What to do:** in JupyterLab choose *Run → Run All Cells* (in the class app they have already run), then move the **ε** slider in "Sparse vector" and watch where the returned index lands compared with 15, the first query that is truly above the threshold T = 10.
#
# *Background (teaching notebook, shared DP core):* AboveThreshold adds Lap(2/ε) noise to the threshold and Lap(4/ε) to each query, and stops at the first noisy query above the noisy threshold; it is exactly R2T's Algorithm 1 (seed 001). SVT pays ε once, however many queries fall below the threshold. Data: a synthetic increasing query sequence (30 queries from 0 to 20).

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
epsilon = 1.0
threshold = 10.0
n_queries = 30

# %%
from IPython.display import display
import numpy as np
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.accounting import Accountant
from dpworkbench.mechanisms import above_threshold
from dpworkbench.teaching import mechanisms as teaching
from dpworkbench import widgets, plots

ctx = NotebookContext("mechanisms/learn_sparse_vector", profile=profile, output_dir=output_dir, seed=seed)
repetitions = pick(profile, ci=200, quick=2000, paper=20000)
queries = np.linspace(0, 20, n_queries)     # the first query above the threshold is index 15

# %% [markdown]
# ## Where does AboveThreshold stop?
# > **Try this:** at ε = 0.1 the noise is so large that AboveThreshold usually stops at one of the first queries (index 0 most often), long before 15. At ε = 1 the stops spread over 0–20. At ε = 5 they concentrate on 13–16. Every run costs the same ε, whether it stops at index 2 or index 29: that is the point of SVT.

# %%
panel = widgets.control_panel(
    lambda epsilon: teaching.svt_figure(queries, threshold, epsilon=epsilon, repetitions=repetitions, seed=seed), {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=20)},
                              interactive=interactive, title="Sparse vector")
panel if interactive else None

# %% [markdown]
# ## Localisation error against ε
# > **Try this:** from ε = 1 on, the error falls about four- to five-fold each time ε is multiplied by four. In the parameters cell set `threshold = 5.0` and rerun: the first true crossing moves to index 8 and the slider's bars gather there instead.

# %%
eps_grid = [0.25, 1.0, 4.0, 16.0]
res = teaching.svt_experiment(queries, threshold, eps_grid, repetitions=repetitions, seed=seed)
summary = teaching.svt_localisation_error(res, queries, threshold)
fig = plots.line_with_band(summary, "epsilon", "mean", band=None,
                           summarized=True, log_x=True, title="SVT localisation error vs ε", y_title="mean |returned − first above T|")
ctx.save_figure(fig, "svt_error_vs_epsilon")
fig

# %% [markdown]
# ## How much ε do I need for ±x %?
# AboveThreshold is (α, β)-accurate with α = 8(ln k + ln(2/β))/ε for k queries (Dwork–Roth, Theorem 3.24): every query
# it passes is at least T − α, every earlier one at most T + α. The panel asks for α within ±x % of the threshold T.
# The size must be public (stated before looking at the data), never the private answer. Noise only: truncation or
# clipping bias is not in it.
#
# > **Try this.** Ask for ±1 % of T = 10: ε above 500. With T = 1,000 the same ±1 % costs a hundred times less.

# %%
from dpworkbench.teaching import epsilon_needed
eps_panel = epsilon_needed.epsilon_needed_panel(epsilon_needed.above_threshold(n_queries), reference=threshold, sizes=[100.0, 1000.0], what="α",
                                                 interactive=interactive)
eps_panel if interactive else None


# %%
# A budget of 10ε, not ε: an over-spend would then show in the ledger instead of stopping the run.
ledger = Accountant(10 * epsilon)
above_threshold(queries, threshold, epsilon=epsilon, rng=seed, accountant=ledger, note=f"{n_queries} queries, one spend")
display(ledger)
from dpworkbench.teaching import claims as teaching_claims
teaching_claims.sparse_vector(ctx.claims, errors_by_epsilon=summary.set_index("epsilon")["mean"], spent=ledger.spent,
                              epsilon=epsilon, budget=10 * epsilon, n_queries=n_queries)
ctx.finish()
