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
# # Learn PrivateClean: do the confidence intervals cover?
# **What you will learn.** A 95 % confidence interval should contain the true answer in about 95 of 100 private
# releases. You will see 50 releases and their intervals, count how many miss, and compare the workbench's intervals
# with the paper's over many releases.
#
# **What to do.** Choose **Run → Run All**, then move ε under the first figure. The "Try this" line says what to watch.
#
# Paper terms (second): teaching notebook for PrivateClean (Krishnan et al., SIGMOD 2016, seed 002), §5.3–5.6. The
# paper gives CLT intervals for COUNT (on the selectivity), a SUM interval that bounds h_p + h_p^c, and for AVG the
# ratio of interval endpoints. The workbench's default intervals are the corrected per-row CLT (SUM) and the delta
# method (AVG), spec §3.5–3.7; the paper's forms stay available (`ci="paper"`).
#
# Data: **synthetic** (Appendix D generator, Table 1 defaults: S = 1000, N = 50, z = 2, l = 5, b = 10, numeric U[0,100]);
# a new relation and a new random predicate per release (`query_mode='random'`), and the top-5 predicate (`'top'`).

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
epsilon = 5.0   # per-attribute epsilon of the discrete attribute, exact convention, N 50
releases = 50   # intervals drawn in the first figure
query_mode = "top"   # "top": the 5 most frequent values | "random": 5 random values per release

# %%
from IPython.display import display
import pandas as pd
from dpworkbench import widgets
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.privateclean import claims, figures, teaching
from dpworkbench.privateclean.batch import ci_coverage

ctx = NotebookContext("privateclean/learn_ci_coverage", profile=profile, output_dir=output_dir, seed=seed)
reps = pick(profile, ci=300, quick=1000, paper=20000)
ps = pick(profile, ci=[0.1, 0.5], quick=[0.05, 0.1, 0.3, 0.5], paper=[0.05, 0.1, 0.2, 0.3, 0.5, 0.7])

# %% [markdown]
# ## Releases, their intervals and the truth
# Move ε (→ p = N/(e^ε+N−1)): the private releases are redrawn; the true relations are the same for every ε (same
# seed), and each ε's batch comes from the cache when you return to it.
#
# **Try this:** count the red points (intervals that miss the truth) at ε = 5, then at ε = 1: the intervals get much
# wider but the share that covers stays near 95 %. Raise "releases" to 200 to see the share settle. Then switch the
# query to "random": some predicates select values with only a few rows, the count is near 0 and misses are more
# frequent at small ε.

# %%
panel = widgets.control_panel(lambda epsilon, releases, query_mode: teaching.ci_forest(epsilon, n=int(releases), seed=seed, query_mode=query_mode),
                              {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.5, maximum=10),
                               "releases": widgets.choice([20, 50, 100, 200], releases, "releases"),
                               "query_mode": widgets.choice(["top", "random"], query_mode, "query")},
                              interactive=interactive, title="intervals over releases")
panel if interactive else None

# %%
fig = teaching.ci_forest(epsilon, n=releases, seed=seed, query_mode=query_mode)
ctx.save_figure(fig, "ci_forest")
fig

# %% [markdown]
# ## Monte-Carlo coverage: corrected vs paper forms
# Solid lines: the workbench's intervals; dotted: the paper's. The dashed line is the nominal 95 %.

# %%
cov = pd.concat([ci_coverage(ps, reps, seed=seed, query_mode="random"), ci_coverage(ps, reps, seed=seed + 1, query_mode="top")],
                ignore_index=True)
ctx.save_table(cov, "coverage")
display(cov.round(3))
fig = figures.ci_coverage_curves(cov, reps=reps)
ctx.save_figure(fig, "ci_coverage")
fig

# %% [markdown]
# ## A corrected AVG interval: Fieller
# The delta method treats AVG = ĥ/ĉ as if ĉ were far from 0. With random predicates at large p it is not, and the
# delta-method interval misses. Fieller's interval keeps every θ with (ĥ − θĉ)² ≤ z²·Var(ĥ − θĉ): when ĉ is not
# significantly above 0 it is unbounded — it says "we cannot tell" rather than missing.

# %%
display(cov[cov["agg"] == "avg"][["p", "query_mode", "n", "coverage corrected (row CLT)", "coverage Fieller",
                                   "median width / truth, corrected", "median width / truth, Fieller",
                                   "share unbounded, Fieller"]].round(3))

# %% [markdown]
# ## Paper-claim check

# %% [markdown]
# ## How much ε do I need for ±x %?
# The same question for the counts whose intervals are drawn above: a COUNT over S = 1000 rows, GRR on N = 50 values
# at ε (exact convention), noise-only bound √(S·ln(2/β)/2)/(1 − p). The size must be public (stated before looking at
# the data), never the private answer. Noise only: truncation or clipping bias is not in it.
#
# > **Try this.** Compare the ε this gives for ±10 % with the interval widths above at that ε.

# %%
from dpworkbench.teaching import epsilon_needed
eps_panel = epsilon_needed.epsilon_needed_panel(epsilon_needed.rr_count(1000, 50), reference=1000, sizes=[100, 500], percent=10, what="the COUNT",
                                                 interactive=interactive)
eps_panel if interactive else None


# %%
claims.learn_ci_coverage(ctx.claims, cov, reps=reps)
ctx.finish()
