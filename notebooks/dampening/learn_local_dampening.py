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
# # Learn: exponential mechanism vs local dampening vs shifted local dampening
# Teaching notebook for V. A. E. de Farias, *Local Dampening: Differential Privacy for Non-numeric Queries via Local Sensitivity*, PhD thesis, UFC 2021 (PVLDB 14(4) 2020). Data: toy graphs (the thesis' Fig. 9c graph, karate club, les Misérables, or a synthetic Holme–Kim graph),
# a small synthetic median sample, and the synthetic NLTCS stand-in (5,000 rows) for ID3.
#
# Panels: PrivTopk (ε, generator, k), one draw (ε, generator), the dampening function (t, Δu), shifting (ε, shift s), median selection
# (ε, sensitivity function, median position, mechanism EM/PF/LD/SLD), private ID3 (ε, depth, horizon T).
#
# Move ε and watch the probability that each of the top nodes (by egocentric betweenness) is selected. EM uses the huge global
# sensitivity ΔEBC; LD divides by local sensitivity (and suffers from *inversion*); SLD is EM on EBC minus a slack — essentially a degree-driven score.
# The non-private part (EBC, degrees) is computed once and cached; only the cheap probabilities are recomputed when ε changes.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
epsilon = 2.0
generator = "karate"
graph_size = 300
t = 2
k = 3
depth = 2

# %%
from IPython.display import display
import numpy as np, pandas as pd
from dpworkbench import datasets
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.dampening import claims, teaching
from dpworkbench import widgets
ctx = NotebookContext("dampening/learn_local_dampening", profile=profile, output_dir=output_dir, seed=seed)

# %% [markdown]
# ## PrivTopk: mechanism bars for the first draw (ε/k each) and top-k accuracy
# Choose the graph generator and k; the bars are the exact output law of the first draw under EM, LD and SLD, the table the mean accuracy of 300 simulated releases (PF included). EBC is computed once per graph (cached).

# %%
controls = {"epsilon": widgets.epsilon_slider(epsilon, minimum=1e-3, maximum=1e4),
            "generator": widgets.choice(["fig9c", "karate", "les_miserables", "synthetic"], generator, "graph"),
            "k": widgets.choice([1, 2, 3, 5, 10, 20], k, "k")}
panel = widgets.control_panel(lambda epsilon, generator, k: teaching.teaching_topk(generator, epsilon, k, n=graph_size, seed=seed), controls,
                              interactive=interactive, title="PrivTopk: EM vs PF vs LD vs SLD")
panel if interactive else None

# %% [markdown]
# ## Selection probabilities of a single draw (k = 1), PF included on small graphs

# %%
panel1b = widgets.control_panel(lambda epsilon, generator: teaching.teaching_figure(generator, epsilon, n=graph_size, seed=seed),
                                {"epsilon": widgets.epsilon_slider(epsilon, minimum=1e-3, maximum=1e4),
                                 "generator": widgets.choice(["fig9c", "karate", "les_miserables", "synthetic"], generator, "graph")},
                                interactive=interactive, title="EM vs PF vs LD vs SLD (one draw)")
panel1b if interactive else None

# %%
fig = teaching.teaching_figure(generator, epsilon, n=graph_size, seed=seed); ctx.save_figure(fig, "selection_probabilities"); fig

# %% [markdown]
# ## The dampening function: breakpoints b(x,t,r) are cumulative sums of δ

# %%
panel2 = widgets.control_panel(teaching.teaching_dampening_figure, {"t": widgets.choice([0, 1, 2, 3], t, "t"), "global_sensitivity": widgets.log_slider(10.0, 7.0, 100.0, "Δu")},
                               interactive=interactive, title="Dampening function")
panel2 if interactive else None

# %% [markdown]
# ## Shifting: LD on u − s converges to shifted LD as s grows to s0

# %%
panel3 = widgets.control_panel(lambda epsilon, shift: teaching.shift_figure(shift, epsilon),
                               {"epsilon": widgets.epsilon_slider(epsilon, minimum=1e-2, maximum=1e2),
                                "shift": widgets.choice([0, 3, 7, 15, 30, 36.5], 7, "shift s")}, interactive=interactive, title="Shift")
panel3 if interactive else None

# %% [markdown]
# ## Median selection: mechanism × sensitivity function (the thesis' Candidates is not admissible)

# %%
panel4 = widgets.control_panel(teaching.median_teaching_figure,
                               {"epsilon": widgets.epsilon_slider(epsilon, minimum=1e-2, maximum=1e3),
                                "delta_kind": widgets.choice(["box (admissible)", "thesis candidates", "Δu (EM scale)"], "box (admissible)", "δ"),
                                "median_at": widgets.choice([0.05, 0.25, 0.5, 0.75], 0.5, "median at"),
                                "mechanism": widgets.choice(["EM", "PF", "LD", "SLD"], "LD", "mechanism")},
                               interactive=interactive, title="Median selection")
panel4 if interactive else None

# %% [markdown]
# ## Private ID3: how the tree depth d spends the budget (B/(2(d+1)) per query) and which root split each mechanism picks
# Synthetic NLTCS-like stand-in (5,000 rows); the contingency tables and LS^IG profiles are cached (per public horizon T), ε only rescales the logits. With T = 1 the sensitivity is Δ IG from distance 1 on, so LD/SLD are close to EM.

# %%
panel5 = widgets.control_panel(lambda epsilon, depth, horizon: teaching.teaching_id3(epsilon, depth, horizon, seed=seed),
                               {"epsilon": widgets.epsilon_slider(1.0, minimum=1e-3, maximum=1e2),
                                "depth": widgets.choice([1, 2, 3, 4, 5, 6], depth, "depth"),
                                "horizon": widgets.choice([1, 8, 64, 1024], 1024, "horizon T")},
                               interactive=interactive, title="DiffPID3 root split")
panel5 if interactive else None

# %%
fig = teaching.teaching_dampening_figure(t, 10.0); ctx.save_figure(fig, "dampening_function")
ctx.save_figure(teaching.teaching_topk(generator, epsilon, k, n=graph_size, seed=seed)[0], "privtopk_teaching", png=profile != "ci")
ctx.save_figure(teaching.teaching_id3(1.0, depth, seed=seed)[0], "id3_root_teaching", png=profile != "ci")
ctx.save_figure(teaching.shift_figure(36.5, epsilon), "shift_convergence", png=profile != "ci")
ctx.save_figure(teaching.median_teaching_figure(epsilon), "median_teaching", png=profile != "ci")
claims.learn_local_dampening(ctx.claims, teaching.teaching_probabilities("fig9c", epsilon))
ctx.finish()
