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
# # Learn PrivateClean: randomized response, de-biasing, and cleaning with provenance
# **What you will learn.** How a table can be made private *before* anyone cleans it (each value is replaced by a
# random one with probability p), why a query on that private table is then biased, how PrivateClean removes the bias,
# and how cleaning the private table (merging misspelled values) stays correct because every merge is remembered in a
# *provenance graph*.
#
# **What to do.** Choose **Run → Run All**, then move the sliders under each figure: start with ε, then switch
# "privacy by" to p. Each section ends with a "Try this" line saying what to change and what to watch.
#
# Paper terms (second): this is a teaching notebook for PrivateClean (Krishnan et al., SIGMOD 2016, seed 002):
# Generalized Randomized Response (GRR, §4.2), the Direct estimator and its bias S·p(l/N − s) (§5.2), the corrected
# COUNT (§5.4), and cleaning with value provenance (§6). ε sets p through the **exact** GRR formula
# p = N/(e^ε + N − 1); the table under the figure gives the ε of that p under the exact formula and the paper's Lemma 1.
#
# Data: **synthetic** (Appendix D generator, seeded) and the Fig. 1 running example (a synthetic 100-row majors table).

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
knob = "epsilon"   # "epsilon": p from ε (exact formula) | "p": p as given
epsilon = 5.0
p = 0.1
N = 50
z = 2.0
S = 1000
l = 5
b = 10.0
error_rate = 0.3
merge_rate = 1.0
domain_source = "released"

# %%
from IPython.display import display
import pandas as pd
from dpworkbench.experiments import NotebookContext
from dpworkbench import widgets
from dpworkbench.privateclean import claims, teaching, grr, CleanedRelation, estimate, privacy_cost_table

ctx = NotebookContext("privateclean/learn_privateclean", profile=profile, output_dir=output_dir, seed=seed)

# %% [markdown]
# ## 1. Randomized response and its de-biasing
# Left: privacy flattens the histogram (rare values become common). Right: Direct is biased by S·p(l/N − s);
# PrivateClean removes it. The slider that does not set the privacy is greyed out and follows the other one.
#
# **Try this:** with ε = 5, note the gap between the red Direct point and the truth line; lower ε to 1 and watch the
# gap grow while the blue PrivateClean point stays near the truth (its interval widens). Then set z to 0 (uniform
# values): the bias almost vanishes, because l/N ≈ s.

# %%
panel = widgets.control_panel(lambda knob, epsilon, p, z, N, S, l, b: teaching.grr_knob_panel(knob, epsilon, p, z, N, S, l, b, seed=seed),
                              teaching.grr_knob_controls(knob, epsilon, p, z, N, S, l, b), interactive=interactive,
                              title="GRR and de-biasing")
panel if interactive else None

# %%
fig, eps_table = teaching.grr_knob_panel(knob, epsilon, p, z, N, S, l, b, seed=seed)
ctx.save_figure(fig, "grr_debiasing")
eps_table

# %% [markdown]
# ## 2. Cleaning on the private relation: Fig. 1's running example with its provenance graph
# The analyst merges "Mechanical E." into "Mech. Eng." on the private table; the graph shows which dirty values
# feed each clean value (red: the edges into the queried major).

# %%
R = teaching.running_example(seed)
V = grr(R, {"major": 0.25}, {"satisfaction": 1.0}, domains={"major": teaching.MAJORS}, bounds={"satisfaction": (1.0, 5.0)}, rng=seed)
crel = CleanedRelation.start(V).merge("major", {"Mechanical E.": "Mech. Eng."})
display(privacy_cost_table(V))  # ε per attribute, exact and the paper's Lemma 1 (the release's ledger records the exact one)
rows = []
for m in ["Mech. Eng.", "Electrical Eng."]:
    truth = R.satisfaction[R.major.replace({"Mechanical E.": "Mech. Eng."}) == m].mean()
    rows.append({"major": m, "truth": truth, "Direct": estimate(crel, "avg", "major", m, "satisfaction", method="direct").value,
                 "PrivateClean": estimate(crel, "avg", "major", m, "satisfaction").value})
avg = pd.DataFrame(rows)
ctx.save_table(avg, "running_example_avg")
display(avg.round(2))
g = teaching.provenance_figure(crel, "major", pred={"Mech. Eng."})
ctx.save_figure(g, "provenance_graph")
g

# %% [markdown]
# ## 3. Cleaning before / after, with the provenance graph
# A fraction `error_rate` of the values get an alias (half their rows); of those, `merge_rate` are merged back by the
# analyst (the rest are harmless renames). Moving ε only redraws the private relation; the dirty relation and the
# cleaner come from the cache.
#
# **Try this:** set the error rate to 0.5 and the merge rate to 1: Direct (red bar) drifts from the truth line while
# PrivateClean (blue) stays close. In the graph, switch "domain source" from released to observed: dirty values that
# no private row holds disappear from the left column, and PrivateClean's l (the number of dirty values in the cut)
# is counted on what was observed instead of the released domain.

# %%
panel = widgets.control_panel(lambda epsilon, error_rate, merge_rate: teaching.cleaning_view(epsilon, error_rate, merge_rate, seed=seed),
                              teaching.cleaning_controls(epsilon, error_rate, merge_rate), interactive=interactive,
                              title="cleaning on the private relation")
panel2 = widgets.control_panel(lambda epsilon, error_rate, merge_rate, domain_source: teaching.cleaning_graph_view(epsilon, error_rate, merge_rate, domain_source, seed=seed),
                               {**teaching.cleaning_controls(epsilon, error_rate, merge_rate),
                                "domain_source": widgets.choice(["released", "observed"], domain_source, "domain", "domain source: released (every value of the released domain) or observed (only values V holds)")},
                               interactive=interactive, title="provenance graph (dirty → clean)")
display(panel, panel2) if interactive else None

# %%
cfig, cgraph, ctable = teaching.cleaning_panel(epsilon, error_rate, merge_rate, domain_source=domain_source, seed=seed)
ctx.save_figure(cfig, "cleaning_before_after")
ctx.save_figure(cgraph, "cleaning_provenance")
ctx.save_table(ctable, "cleaning_estimates")
ctable

# %% [markdown]
# ## Paper-claim check

# %% [markdown]
# ## How much ε do I need for ±x %?
# A COUNT over S = `S` rows whose discrete attribute went through GRR at ε (exact convention on N = `N` values): the
# corrected count's noise-only error is at most √(S·ln(2/β)/2)/(1 − p) with probability 1 − β (Hoeffding). The size
# must be public (stated before looking at the data), never the private answer. Noise only: truncation or clipping
# bias is not in it.
#
# > **Try this.** Ask for ±2 % of S/10 rows: out of reach (GRR's error never falls below √(S·ln(2/β)/2)); ±10 % of S =
# 1000 needs ε ≈ 3.6.

# %%
from dpworkbench.teaching import epsilon_needed
eps_panel = epsilon_needed.epsilon_needed_panel(epsilon_needed.rr_count(S, N), reference=S, sizes=[S // 10, S // 2], percent=10, what="the COUNT",
                                                 interactive=interactive)
eps_panel if interactive else None


# %%
claims.learn_privateclean(ctx.claims, ctable)
ctx.finish()
