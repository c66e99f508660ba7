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
# # Randomized response: estimation and its bias correction
# What you will learn: how each person can protect their own answer by sometimes lying at random, and how the analyst can still estimate the true distribution by correcting for the known lying rate.
#
# **What to do:** in JupyterLab choose *Run → Run All Cells* (in the class app they have already run), then move the **ε** slider and change **N** (the number of possible answers) in the "Randomized response" panel, and compare the two bars: how far each estimator is from the true share of the most common answer.
#
# *Background (teaching notebook, shared DP core):* generalized randomized response (GRR) keeps the true value with probability p and otherwise reports a uniformly random one; it is the mechanism of PrivateClean (seed 002). Counting the reported values is biased towards uniform; inverting the known response matrix removes the bias. The GRR ε table shows PrivateClean's Lemma 1 (ln(3/p − 2)) next to the exact ln(1 + N(1−p)/p). Data: a synthetic Zipf-distributed population (seeded).

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
epsilon = 1.0
domain_size = 10
skew = 1.0

# %%
from IPython.display import display
import numpy as np
from dpworkbench.experiments import NotebookContext, pick, summarize
from dpworkbench.accounting import Accountant
from dpworkbench.mechanisms import randomized_response
from dpworkbench.teaching import mechanisms as teaching
from dpworkbench import widgets, plots

ctx = NotebookContext("mechanisms/learn_randomized_response", profile=profile, output_dir=output_dir, seed=seed)
n = pick(profile, ci=2000, quick=20000, paper=100000)
repetitions = pick(profile, ci=5, quick=30, paper=200)

# %% [markdown]
# ## What the analyst sees, and what the correction recovers
# Each bar is the average error of the estimated share of the most common answer (0 = right on average).
#
# > **Try this:** at ε = 1 and N = 10 the naive share (counting the reports as they are) is about 0.2 too low: random lies pull every answer towards 1/N. The bias-corrected bar is near 0. Now set N = 50 and move ε down to 0.1: with 50 possible answers almost every report is a random lie and even the correction misses. Move ε up to 10 and both bars shrink to 0.

# %%
panel = widgets.control_panel(
    lambda epsilon, domain_size: teaching.rr_bias_figure(n, domain_size, epsilon=epsilon, skew=skew, repetitions=repetitions, seed=seed), {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=10),
                                          "domain_size": widgets.choice([2, 5, 10, 50], domain_size, "N")},
                              interactive=interactive, title="Randomized response")
panel if interactive else None

# %% [markdown]
# ## Error against ε over many repetitions
# > **Try this:** compare the two curves at small and at large ε. Where is the naive estimator's error close to the corrected one's, and where does the correction pay off? (The correction removes bias but amplifies noise, so it helps most when ε is not tiny.)

# %%
eps_grid = list(np.round(np.logspace(-1, 1, pick(profile, ci=3, quick=8, paper=15)), 3))
res = teaching.rr_estimation_experiment(n, domain_size, eps_grid, skew=skew, repetitions=repetitions, seed=seed)
fig = plots.line_with_band(res, "epsilon", "l1_error", color="estimator", log_x=True, log_y=True,
                           title="Total variation error of the estimated distribution", x_title="ε")
ctx.save_figure(fig, "rr_error_vs_epsilon")
ctx.save_table(res, "rr_estimation")
fig

# %%
bias = summarize(res, ["epsilon", "estimator"], "top_value_error")
bias

# %%
ledger = Accountant(epsilon)
randomized_response(["v0"] * 10, [f"v{i}" for i in range(domain_size)], epsilon=epsilon, rng=seed, accountant=ledger,
                    note="each respondent: local ε-DP")
display(ledger)
table = teaching.grr_epsilon_table([0.1, 0.25, 0.5, 0.75], [2, 3, 10, 50])
table

# %% [markdown]
# ## How much ε do I need for ±x %?
# A count over the n respondents, estimated from k-ary randomized response on N = `domain_size` values (the bias-
# corrected estimate above): its error bound (Hoeffding) shrinks like √n, so the ε needed depends on n and N. The size
# must be public (stated before looking at the data), never the private answer. Noise only: truncation or clipping
# bias is not in it.
#
# > **Try this.** Ask for ±5 % of a count of n/10: no ε up to 1000 reaches it (RR's error never falls below
# √(n·ln(2/β)/2), however large ε is); ±20 % of n/2 does.

# %%
from dpworkbench.teaching import epsilon_needed
eps_panel = epsilon_needed.epsilon_needed_panel(epsilon_needed.rr_count(n, domain_size), reference=n, sizes=[n // 10, n // 2], what="a value's count",
                                                 interactive=interactive)
eps_panel if interactive else None


# %%
from dpworkbench.teaching import claims as teaching_claims
corrected = bias[bias.estimator == "bias-corrected"]
naive = bias[bias.estimator == "naive"]
teaching_claims.randomized_response(
    ctx.claims,
    worst_z=float((corrected["mean"].abs() / corrected["se"].clip(lower=1e-12)).max()),
    naive_max_bias=float(naive["mean"].max()),
    epsilon_exact=float(table[(table.p == 0.25) & (table.N == 50)].iloc[0].epsilon_exact),
)
ctx.finish()
