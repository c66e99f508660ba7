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
# # PrivateClean on real dirty data — raha's beers, flights and rayyan (no paper figure)
# PrivateClean (Krishnan et al., SIGMOD 2016) evaluates on synthetic errors and stand-ins; no paper or artifact has an experiment on real dirty data with a known clean version. Here the **dirty** table is privatised with GRR, cleaned with the **repair map** its ground-truth clean version implies (a value map per attribute: the Merge/Transform cleaning PrivateClean's provenance handles), and COUNT / SUM / AVG are answered with Direct, PrivateClean and the no-provenance estimator and compared with the same query on the **clean** table, over p and repetitions.
#
# Data: **real** (raha/baran benchmark tables under `DPWB_DATA/cleaning/`: beers 2,410 rows, flights 2,376, rayyan 1,000). Where a pair is absent, a **seeded stand-in** of the same schema and size takes its place (`dpworkbench.privateclean.datasets`: beers' dirty can-size spellings, flights' conflicting sources, rayyan's blank issue numbers); the `[data]` lines, the `source` printed below, the figure's titles and the claims' names say which was used. What is public: schema, row count, p and b, the predicate attribute's domain (the dirty column's distinct values: data-derived), the numeric bounds and parser, the queries. **NOT private**: the repair map (an oracle cleaner derived from the dirty/clean pair) and the ground-truth answers; the noise is seeded (research, not a release).
#
# The expectations checked at the end (`raha.EXPECTATIONS`) were written before the experiment was first run.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...

# %%
from IPython.display import display
import pandas as pd
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.privateclean import claims, raha

ctx = NotebookContext("privateclean/raha_cleaning", profile=profile, output_dir=output_dir, seed=seed)
grid = {"dataset": list(raha.DATASETS), "p": pick(profile, ci=[0.1, 0.5], quick=[0.05, 0.1, 0.25, 0.5], paper=[0.05, 0.1, 0.2, 0.3, 0.4, 0.5])}
repetitions = pick(profile, ci=5, quick=50, paper=200)

# %% [markdown]
# ## The data's error profile and the repair map
# `A_error_rate`: dirty ≠ clean on the predicate attribute; `value_map_accuracy`: rows the repair map restores exactly (below 1 when the benchmark's repair depends on the row, not only the value); `B_error_rate`: the numeric attribute, which PrivateClean does not clean. The cleaning residual is the relative error of the query on the repaired dirty table without any privacy.

# %%
preps = {d: raha.prepare(d, seed) for d in grid["dataset"]}
print("data:", ", ".join(f"{d} {pr.source}" for d, pr in preps.items()))
profile_table = pd.DataFrame([{**pr.stats, **{f"residual_{a}": pr.residual[a] for a in raha.AGGS}} for pr in preps.values()])
ctx.save_table(profile_table, "error_profile")
profile_table

# %%
results = raha.run(grid, repetitions=repetitions, seed=seed, results_dir=ctx.results_dir)
summ = raha.summary(results)
ctx.save_table(summ, "errors")
summ.pivot_table(index=["dataset", "p"], columns=["agg", "method"], values="median").round(3)

# %%
fig = raha.figure(summ, {d: pr.residual for d, pr in preps.items()}, stand_ins=[d for d, pr in preps.items() if pr.source != raha.REAL])
ctx.save_figure(fig, "raha_cleaning_error_vs_p")
fig

# %% [markdown]
# ## Expectations (written before the first run) against the results

# %%
claims.raha_cleaning(ctx.claims, summ, preps)
ctx.finish()
display(ctx.claims.to_frame())
