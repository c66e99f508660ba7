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
# # Fig. 3 and Examples 5–6 — DP vertex cover with a stable ordering (Algorithm 5)
# Mohapatra, Gilad, He, Kimelfeld, *Computing Inconsistency Measures Under Differential Privacy* (SIGMOD'25; seeds 000/003). Data: the paper's 7-node toy graph (G without E, G' with E), built in code.
#
# Example 5: the classic 2-approximation with a *random* order can give 4 on one graph and 6 on its neighbour. Example 6:
# with one global lexicographic order the cover sizes of neighbours differ by at most 2 (Prop. 3), so Lap(2/ε) suffices
# (the paper prints Lap(ε/2): a typo). In iteration 6 the new v* is F (the paper writes E).

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
epsilon = 1.0

# %%
from IPython.display import display
import numpy as np
import pandas as pd
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.inconsistency import claims, examples
from dpworkbench.inconsistency.mechanisms import dp_vertex_cover
from dpworkbench.inconsistency.model import i_r_exact
from dpworkbench.inconsistency.teaching import vertex_cover_steps
from dpworkbench import plots
ctx = NotebookContext("inconsistency/fig03_vertex_cover_toy", profile=profile, output_dir=output_dir, seed=seed)
fig, trace = vertex_cover_steps()
ctx.save_figure(fig, "fig03_graph")
ctx.save_table(trace, "example6_trace")
display(trace)
fig

# %%
orders = examples.example5_orders()
ctx.save_table(orders, "example5_random_orders")
display(orders)
fig = plots.bar(orders, "cover_size", "share_of_orders", color="graph", title="Example 5: greedy cover size over all edge orders")
ctx.save_figure(fig, "example5_orders")
fig

# %%
g, gp = examples.fig3_graphs()
rng = np.random.default_rng(seed)
runs = pick(profile, ci=200, quick=2000, paper=20000)
outs = pd.DataFrame([{"graph": name, "output": dp_vertex_cover(gr, epsilon, order="lex", rng=rng)["output"]} for name, gr in (("G", g), ("G'", gp)) for _ in range(runs)])
display(outs.groupby("graph").output.describe())
claims.fig03_vertex_cover_toy(ctx.claims, trace=trace, orders=orders, tau=(i_r_exact(g), i_r_exact(gp)))
ctx.finish()
