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
# # Fig. 2, Tables 3–4 and Fig. 10 — the Capital/Country toy example
# Mohapatra, Gilad, He, Kimelfeld, *Computing Inconsistency Measures Under Differential Privacy* (SIGMOD'25; seeds 000/003). Data: the paper's toy table (3 rows + the grey neighbouring row with a typo), built in code.
#
# Fig. 2: the conflict graph is a star K₁,₃ (I_MI = 3, I_P = 4, I_R = 1). Table 3: quality q = −bias − √2θ/ε₂ (ε₂ = 1).
# Table 4: one EM at ε = 1 vs two-step EM at ε/2 per step (Δq = 3); the paper's table prunes *strictly* (θ < θ*₁),
# Algorithm 4 non-strictly (θ ≤ θ*₁) — both are shown. Fig. 10: Theorem 2's bound vs β as printed,
# 3.414 + 6·ln(6/β), and the corrected bound with the Laplace tail (spec §7.10).

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...

# %%
from IPython.display import display
import pandas as pd
from dpworkbench.experiments import NotebookContext
from dpworkbench.inconsistency import claims, examples, figures, model, reference
from dpworkbench.inconsistency.model import all_measures
from dpworkbench import plots
ctx = NotebookContext("inconsistency/fig02_tab03_tab04_fig10_toy", profile=profile, output_dir=output_dir, seed=seed)
display(examples.capital_country())
g = examples.fig2_graph()
m = all_measures(g)
fig = figures.draw_graph(g, labels=["t1", "t2", "t3", "t4 (grey)"], highlight=[3], title="Fig. 2: conflict graph of the toy table")
ctx.save_figure(fig, "fig02_conflict_graph")
display(pd.Series(m))
fig

# %%
t3 = examples.table3(); ctx.save_table(t3, "table3"); display(t3)
t4_le = examples.table4(prune="le"); t4 = examples.table4(prune="lt"); ctx.save_table(t4, "table4_strict"); ctx.save_table(t4_le, "table4_alg4_le")
display(t4); display(t4_le)

# %%
curve = examples.fig10_curve(corrected=True)
ctx.save_table(curve, "fig10_bound")
fig = plots.line_with_band(curve.melt(id_vars="beta", var_name="bound", value_name="value"), "beta", "value", color="bound", band=None,
                           log_x=True, title="Fig. 10: Theorem 2 bound vs β (Ex. 1, ε₁ = ε₂ = 1)", x_title="β", y_title="bound on |o − a|")
ctx.save_figure(fig, "fig10_bound_vs_beta")
fig

# %%
claims.fig02_tab03_tab04_fig10_toy(ctx.claims, measures=m, table3=t3, table4_strict=t4,
                                   degree_bound=model.degree_bound(examples.capital_country(), examples.fig2_graph().dcs)[0],
                                   fig10_at={b: float(examples.fig10_curve([b]).iloc[0, 1]) for b in reference.FIG10_BOUND},
                                   fig10_curve=curve)
ctx.finish()
