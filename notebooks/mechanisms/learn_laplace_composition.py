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
# # The Laplace mechanism and sequential composition
# What you will learn: how adding random noise to a count hides whether one person is in the data, and why asking more questions with the same privacy budget makes every answer noisier.
#
# **What to do:** in JupyterLab choose *Run → Run All Cells* (in the class app they have already run), wait until the figures appear, then move the **ε** slider under "Output distributions on two neighbours" and watch the two curves. Each section below has a **Try this** box.
#
# *Background (teaching notebook, shared DP core):* the Laplace mechanism adds Lap(Δ/ε) noise to a query with sensitivity Δ; k queries of ε/k each compose to ε (sequential composition). The query here is a count whose true answer is 100 on one database and 101 on its neighbour (one more person); no data set is loaded. Seeded noise here is for teaching and reproducibility; a real release uses `dpworkbench.mechanisms.release_backend()`.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
epsilon = 1.0
sensitivity = 1.0
total_epsilon = 1.0
n_queries = 5

# %%
from IPython.display import display
from dpworkbench.experiments import NotebookContext, pick, summarize
from dpworkbench.accounting import BudgetExceededError
from dpworkbench.mechanisms import laplace_mechanism
from dpworkbench.teaching import mechanisms as teaching
from dpworkbench import widgets, plots

ctx = NotebookContext("mechanisms/learn_laplace_composition", profile=profile, output_dir=output_dir, seed=seed)
n_samples = pick(profile, ci=2000, quick=20000, paper=200000)
repetitions = pick(profile, ci=50, quick=500, paper=5000)

# %% [markdown]
# ## Output distributions on two neighbours
# The two histograms are the answers the mechanism gives on the database with 100 people and on the one with 101. The log ratio of the two densities never leaves [−ε, ε]: that is ε-DP.
#
# > **Try this:** move ε down to 0.1. The two curves almost coincide: an observer cannot tell which database was used (strong privacy), but each answer is far from 100 (low accuracy). Then move ε up to 10: the curves separate and the answers cluster near the truth. Watch the log-ratio line stay inside the ±ε band the whole time.

# %%
controls = {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=10)}
panel = widgets.control_panel(
    lambda epsilon: teaching.laplace_figure(100, 101, epsilon=epsilon, sensitivity=sensitivity, n=n_samples, seed=seed),
    controls, interactive=interactive, title="Laplace mechanism")
panel if interactive else None

# %%
ctx.save_figure(teaching.laplace_figure(100, 101, epsilon=epsilon, sensitivity=sensitivity, n=n_samples, seed=seed), "laplace_densities");

# %% [markdown]
# ## Sequential composition: k queries share one budget
# Each query gets ε/k, so the error per query grows linearly in k. The ledger shows every spend.
#
# > **Try this:** in the parameters cell set `n_queries = 10` (or `total_epsilon = 0.5`) and run all cells again. The ledger gets one line per query, the table's mean |error| doubles, and the curve below shows where your k lies on the line kΔ/ε.

# %%
errors, ledger = teaching.composition_experiment([100 + 10 * i for i in range(n_queries)], total_epsilon=total_epsilon,
                                                  sensitivity=sensitivity, repetitions=repetitions, seed=seed)
display(ledger)
stats = summarize(errors, ["query"], "abs_error")
stats

# %%
curve = teaching.composition_error_curve(range(1, 21), total_epsilon=total_epsilon, sensitivity=sensitivity)
fig = plots.line_with_band(curve.rename(columns={"expected_abs_error": "mean"}), "k", "mean", band=None, summarized=True,
                           title="Expected |error| per query when ε is split over k queries", y_title="E|error| = kΔ/ε")
ctx.save_figure(fig, "composition_error")
fig

# %% [markdown]
# ## The accountant refuses to overspend
# One more query after the budget is used raises an error *before* any noise is drawn.
#
# > **Try this:** read the "refused:" line below: it names the budget and what was asked for. Nothing was released, so nothing leaked.

# %%
try:
    laplace_mechanism(1.0, epsilon=total_epsilon / n_queries, sensitivity=1, rng=seed, accountant=ledger, note="one too many")
    refused = False
except BudgetExceededError as err:
    refused = True
    print("refused:", err)

# %% [markdown]
# ## How much ε do I need for ±x %?
# Each of the k = `n_queries` counts gets ε/k of the budget (Laplace noise of scale kΔ/ε). The panel gives the total ε
# that keeps each count within ±x % of its size, with probability 1 − β. The size must be public (stated before
# looking at the data), never the private answer. Noise only: truncation or clipping bias is not in it.
#
# > **Try this.** Ask for ±1 % instead of ±5 % of a count of 1,000: ε grows fivefold (from 0.3 to 1.5). Then pick a
# count of 10,000: the same ±1 % costs ten times less.

# %%
from dpworkbench.teaching import epsilon_needed
eps_panel = epsilon_needed.epsilon_needed_panel(epsilon_needed.composed(epsilon_needed.laplace(sensitivity), n_queries), reference=1000, sizes=[100, 10_000], what="each count",
                                                 interactive=interactive)
eps_panel if interactive else None


# %%
from dpworkbench.teaching import claims as teaching_claims
teaching_claims.laplace_composition(ctx.claims, measured_mean_error=float(stats["mean"].mean()), n_queries=n_queries,
                                    sensitivity=sensitivity, total_epsilon=total_epsilon, refused=refused)
ctx.finish()
