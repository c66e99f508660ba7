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
# Data: **real** raha beers (`DPWB_DATA/cleaning/beers`, 2,410 rows); a seeded stand-in of the same shape when the tables are absent (the source is printed). Public: schema, row count, ε, the attributes' domains (their dirty distinct values, read off the table: data-derived, so this is a research run), abv's bounds (0, 0.15) and the queries. **NOT private**: the repair maps (an oracle cleaner) and the truths. Noise is seeded (research, not a release). The truth of the first study is each query on the repaired dirty table, which is what a cleaned estimator targets; the second study measures every new estimator against raha's **clean** table.

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
# ## Against the clean table: coverage and bias of every new estimator
# The truth above is each query on the *repaired dirty* table. Against raha's **clean** table, the repair map of `state` leaves a residual no privacy is involved in: 127 beers have a blank dirty state, and a value map sends every blank to one state (below: the query on the repaired dirty table − on the clean table).

# %%
if source == "real":
    display(multi.beers_residuals().round(5))

# %% [markdown]
# So the second study releases what the clean truth can be recovered from: the joint partition (`ounces`, `style`) — GRR on its 559 (ounces, style) pairs —, the brewery key `brewery_id` (GRR on 558 values) and `abv` (Laplace). The cleaning is the `ounces` repair map and a **view** with a public brewery table (brewery_id → state: one state per brewery, so the blank states are recovered); both come from the clean table (NOT private, an oracle). The truth is each query on the clean table after the same cleaning; `residual` (cleaned dirty − clean) is 0 for every query. Eleven queries cover every new estimator: a COUNT over a shared partition, COUNT / SUM / AVG over independent partitions and the view, GROUP BY SUM and AVG (over `ounces` and over the view's state), VAR, STD, MEDIAN and the 75th percentile. Bias test: a two-sided z-test of "mean error = 0" over the R releases, rejected when |z| > 3.29 (α = 0.001); Direct's bias and z beside it.

# %%
R_clean = pick(profile, ci=200, quick=1000, paper=1000)
if source == "real":
    stc = multi.beers_clean_study([8.0], R=R_clean, seed=seed, value_epsilon=value_epsilon)
    ctx.save_table(stc, "clean_truth_bias_coverage")
    display(stc[["query", "group", "truth", "residual", "bias", "bias_z", "coverage", "coverage_se", "ci_width",
                 "direct_bias", "direct_bias_z"]].round(5))
else:
    stc = None
    print("the clean-truth study needs the real raha beers tables (DPWB_DATA/cleaning/beers)")

# %%
if stc is not None:
    fig = figures.multi_coverage_by_query(stc, title=f"Against the clean table, ε = 8, R = {R_clean}")
    ctx.save_figure(fig, "multi_ci_coverage_clean_truth")
    display(fig)

# %% [markdown]
# ## Checks at the largest ε

# %%
claims.multi_attribute(ctx.claims, st)
if stc is not None:  # the same acceptance rules against the clean table
    claims.multi_attribute(ctx.claims, stc)
ctx.finish()
display(ctx.claims.to_frame())
