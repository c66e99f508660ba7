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
# # PrivateClean beyond one column — multi-attribute, grouped and median queries on raha's beers (no paper figure)
# PrivateClean (Krishnan et al., SIGMOD 2016) answers COUNT/SUM/AVG with a predicate on **one** randomised attribute. Here two attributes of the real dirty **beers** table (`ounces`: 25 dirty spellings of 7 can sizes; `state`) are each randomised with GRR and cleaned with the repair map their clean version implies, `abv` gets Laplace noise, and four queries read both attributes: a multi-attribute COUNT, an OR-predicate SUM, an AVG grouped over a public group domain and a MEDIAN. The estimator inverts the joint randomisation on the predicate's truth table (`dpworkbench.privateclean.multi`, derivation in its docstring).
#
# Data: **real** raha beers (`DPWB_DATA/cleaning/beers`, 2,410 rows); a seeded stand-in of the same shape when the tables are absent (the source is printed). Public: schema, row count, ε, the attributes' domains (their dirty distinct values, read off the table: data-derived, so this is a research run), abv's bounds (0, 0.15) and the queries. **NOT private**: the repair maps (an oracle cleaner) and the truths. Noise is seeded (research, not a release). The truth is each query on the repaired dirty table, which is what a cleaned estimator targets.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
value_epsilon = 30.0   # epsilon of abv, b is 0.15 over it; the median deconvolution needs b below the spread of abv

# %%
from IPython.display import display
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.privateclean import claims, figures, multi

ctx = NotebookContext("privateclean/raha_multi_attribute", profile=profile, output_dir=output_dir, seed=seed)
epsilons = pick(profile, ci=[2.0, 8.0], quick=[1.0, 2.0, 4.0, 8.0], paper=[0.5, 1.0, 2.0, 4.0, 8.0, 16.0])
R = pick(profile, ci=60, quick=400, paper=1000)

# %% [markdown]
# ## Error against ε, PrivateClean vs Direct
# Direct evaluates the predicate on the cleaned private table as it is: the randomisation of `ounces` and `state` biases it. PrivateClean removes that bias; at small ε its variance is the price (state has 52 values, so GRR replaces most rows).

# %%
st, source = multi.beers_study(epsilons, R=R, seed=seed, value_epsilon=value_epsilon)
print("data:", source)
ctx.save_table(st, "error_bias_coverage")
st.insert(0, "Q", st["query"].map({q: f"Q{j}" for j, q in enumerate(dict.fromkeys(st["query"]), 1)}))
display(st[["Q", "epsilon", "query", "group", "truth", "bias", "bias_z", "coverage", "rmse", "direct_bias", "direct_bias_z", "direct_rmse"]].round(4))

# %%
fig = figures.multi_error_vs_epsilon(st)
ctx.save_figure(fig, "multi_error_vs_epsilon")
fig

# %% [markdown]
# ## Coverage of every new interval
# Per query (and group) and ε: the fraction of releases whose 95 % interval covers the truth. The dotted line is the acceptance floor 0.95 − 3 Monte-Carlo SE.

# %%
fig = figures.multi_coverage(st)
ctx.save_figure(fig, "multi_ci_coverage")
fig

# %% [markdown]
# ## Checks at the largest ε

# %%
claims.multi_attribute(ctx.claims, st)
ctx.finish()
display(ctx.claims.to_frame())
