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
# # Private selection: exponential mechanism vs permute-and-flip vs report-noisy-max
# What you will learn: how to pick the "best" option (the most frequent item, the best threshold) privately, and how three standard ways of doing it trade privacy for the chance of picking well.
#
# **What to do:** in JupyterLab choose *Run → Run All Cells* (in the class app they have already run), then move the **ε** slider in "Who gets selected?" and watch the probability mass move towards the best candidate (the right-most one).
#
# *Background (teaching notebook, shared DP core):* the exponential mechanism (EM) picks candidate i with probability ∝ exp(ε·u_i/2Δ); permute-and-flip (PF) and report-noisy-max (RNM, Laplace noise 2Δ/ε) are the alternatives. EM and PF output laws are computed exactly (log-space); RNM by Monte-Carlo. PF is never worse than EM (McKenna & Sheldon 2020). Data: synthetic utility vectors (candidate i has utility i·gap); no paper figure.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
epsilon = 1.0
n_candidates = 20
gap = 1.0

# %%
from IPython.display import display
import numpy as np
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.accounting import Accountant
from dpworkbench.mechanisms import exponential_mechanism, permute_and_flip, report_noisy_max
from dpworkbench.teaching import mechanisms as teaching
from dpworkbench.testing import audit_mechanism
from dpworkbench import widgets

ctx = NotebookContext("mechanisms/learn_selection_em_pf_rnm", profile=profile, output_dir=output_dir, seed=seed)
repetitions = pick(profile, ci=100, quick=1000, paper=10000)
audit_samples = pick(profile, ci=3000, quick=30000, paper=200000)
utilities = np.arange(n_candidates, dtype=float) * gap

# %% [markdown]
# ## Output probabilities per candidate
# > **Try this:** at ε = 0.01 every candidate gets about 1/20 of the probability: the choice reveals nearly nothing, and is nearly useless. Raise ε to 1: the best candidate (19) now wins 40–47 % of the time, permute-and-flip most often. At ε = 5 it wins over 90 %. In the parameters cell set `gap = 0.1` and rerun: close utilities need a ten times larger ε to be told apart.

# %%
panel = widgets.control_panel(lambda epsilon: teaching.selection_probability_figure(utilities, epsilon=epsilon), {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.01, maximum=20)},
                              interactive=interactive, title="Who gets selected?")
panel if interactive else None

# %%
ctx.save_figure(teaching.selection_probability_figure(utilities, epsilon=epsilon), "selection_probabilities");

# %% [markdown]
# ## Accuracy vs ε
# > **Try this:** read off the ε at which each mechanism's expected loss falls below 1 (on average it then picks within one utility step of the best; about ε ≈ 1.5 here). Permute-and-flip's curve is never above the exponential mechanism's; report-noisy-max (a Monte-Carlo estimate, with error bars) sits close to both.

# %%
eps_grid = np.logspace(-2, 1.3, pick(profile, ci=5, quick=12, paper=25))
acc = teaching.selection_accuracy(utilities, eps_grid, repetitions=repetitions, seed=seed)
fig = teaching.selection_figure(acc)
ctx.save_figure(fig, "selection_accuracy")
ctx.save_table(acc, "selection_accuracy")
fig

# %% [markdown]
# ## Each mechanism spends ε: ledger and empirical privacy audit on neighbouring utility vectors
# > **Try this:** compare `epsilon_hat` (the privacy loss measured from samples on two neighbouring utility vectors) with ε: it should stay at or below ε, and `flagged` must be False. A mechanism whose measured loss exceeds its claim would be flagged.

# %%
ledger = Accountant(3 * epsilon)
for mech in (exponential_mechanism, permute_and_flip, report_noisy_max):
    mech(utilities, epsilon=epsilon, sensitivity=1.0, rng=seed, accountant=ledger, note="one selection")
display(ledger)
u_neighbour = utilities.copy(); u_neighbour[-1] -= 1.0; u_neighbour[0] += 1.0   # sensitivity-1 neighbour
audits = []
for name, mech in (("exponential", exponential_mechanism), ("permute-and-flip", permute_and_flip), ("report-noisy-max", report_noisy_max)):
    res = audit_mechanism(lambda u, rng, m=mech: m(u, epsilon=epsilon, sensitivity=1.0, rng=rng), utilities, u_neighbour, epsilon,
                          n_samples=audit_samples, seed=seed)
    audits.append({"mechanism": name, "epsilon": epsilon, "epsilon_hat": res.epsilon_hat, "lower_95": res.epsilon_lower, "flagged": res.flagged})
import pandas as pd
audits = pd.DataFrame(audits); audits

# %% [markdown]
# ## How much ε do I need for ±x %?
# Selection's error is the utility lost, u* − u(r): with probability 1 − β at most 2Δ·ln(m/β)/ε for m candidates (EM;
# permute-and-flip and report-noisy-max meet the same bound). The size must be public (stated before looking at the
# data), never the private answer. Noise only: truncation or clipping bias is not in it.
#
# > **Try this.** Move the best score from 19 to 1,000: the same ±5 % is a 50 times larger loss, so an ε about 50
# times smaller suffices.

# %%
from dpworkbench.teaching import epsilon_needed
eps_panel = epsilon_needed.epsilon_needed_panel(epsilon_needed.selection(1.0, n_candidates), reference=float(utilities.max()), sizes=[100.0, 1000.0], what="the utility loss",
                                                 interactive=interactive)
eps_panel if interactive else None


# %%
from dpworkbench.teaching import claims as teaching_claims
teaching_claims.selection(ctx.claims, expected_loss=acc, flagged=int(audits.flagged.sum()))
ctx.finish()
