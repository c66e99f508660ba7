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
# # Table 2 — the inconsistency measures and their (measured) global sensitivities
# Mohapatra, Gilad, He, Kimelfeld, *Computing Inconsistency Measures Under Differential Privacy* (SIGMOD'25; seeds 000/003). Data: random small conflict graphs (seeded); no dataset.
#
# Every sensitivity is measured by brute force over **all** one-node neighbours (remove a node, or add a node joined to any
# subset of nodes) of random graphs with n nodes, and set next to Prop. 2 / Lemma 1 / Prop. 3. Corrections (spec §7):
# I_D is 1 iff the database is *in*consistent (the paper's Definition 1 prints it reversed); I_P's worst case is n+1
# (from n clean tuples to n+1), and the projected I_P has sensitivity θ+1, not θ.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
n_nodes = 6

# %%
from IPython.display import display
import pandas as pd
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.inconsistency import claims, experiments
ctx = NotebookContext("inconsistency/tab02_measures", profile=profile, output_dir=output_dir, seed=seed)
n_graphs = pick(profile, ci=4, quick=20, paper=200)
nn = pick(profile, ci=5, quick=n_nodes, paper=n_nodes + 1)

# %%
summary = pd.DataFrame([
    ("I_D", "1 if D ⊭ Σ", "[E ≠ ∅]", "O(|Σ|n²)", "1"), ("I_MI", "|MI_Σ(D)|", "|E|", "O(|Σ|n²)", "n"),
    ("I_P", "|∪ MI_Σ(D)|", "#non-isolated nodes", "O(|Σ|n²)", "n"), ("I_MC", "|MC_Σ(D)|", "#maximal independent sets", "#P-complete", "exponential"),
    ("I_R", "|D| − |D_R|", "min vertex cover τ(G)", "NP-hard", "1")], columns=["measure", "definition", "on the conflict graph", "cost", "sensitivity (Prop. 2)"])
display(summary)
sens = experiments.measured_sensitivities(nn, n_graphs, seed=seed)
ctx.save_table(sens, "measured_sensitivities")
sens

# %%
from dpworkbench import plots
fig = plots.bar(sens.dropna(subset=["measured_max"]).melt(id_vars="measure", value_vars=["measured_max", "paper_value_at_n"]).dropna(),
                "measure", "value", color="variable", title=f"Measured node sensitivity vs the paper's (n = {nn})")
ctx.save_figure(fig, "tab02_sensitivities")
fig

# %%
claims.tab02_measures(ctx.claims, sens, n=nn)
ctx.finish()
