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
# # Learn: conflict graphs and private inconsistency measures
# Teaching notebook for Mohapatra, Gilad, He, Kimelfeld, *Computing Inconsistency Measures Under Differential Privacy* (SIGMOD'25; seeds 000/003). Data: **Adult is the real UCI table** (10k-row samples; the artifact's `inputDB2.csv`); **Flight, Hospital, Stock and Tax are SYNTHETIC seeded stand-ins** with the paper's schemas and DCs, calibrated to Table 5's maximum degree (the real tables are not available offline). Each table below has a `source` column saying which was used.
#
# Pick a dataset, which of its DCs to use (the first k; 0 = all), a table size and a noise level: the conflict graph and the exact measures are
# computed once and cached; the ε slider only redraws the Laplace/EM randomness, so moving it is cheap.
# Below: Algorithm 5 (DP vertex cover) step by step on the paper's Fig. 3 graph. Neighbouring relation: add or remove one tuple (row) at any position. Public information: the constraints Σ, the schema, the stable ordering rule and its seed, and the sample size of the experiment design (`n_bound`, which sets the candidate set Θ and the clip; a release without a public bound spends 5 % of ε on a private one). Seeded noise is for reproducibility, not a private release.
#
# **What the stable order depends on.** Algorithm 1 and Algorithm 5 need one edge order that neighbouring databases share on their common edges. The default `order="rank"` ranks each tuple by a keyed hash of its *identity* — a hash of the tuple's own content, or the key column given with `build(..., id_column=...)` / `--id-column` — never by its row position: deleting a middle row shifts the positions of every later row, so a position-hashed order reshuffles the other tuples' edges (this happened before issue 11: on A = 0, B = [0,0,1,0,1,2] with A → B, deleting row 2 moved F_MI(1) by 2 and the cover by 4). Identical tuples are interchangeable, so they are ordered by occurrence. `order="lex"` sorts by row position and is stable too: a deletion keeps the relative order of the remaining rows.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
dataset = "Tax"
dc_count = 0           # 0 = all of the dataset's DCs; k = only its first k
rows = 2000
alpha = 0.01
epsilon = 1.0

# %%
from IPython.display import display
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.inconsistency import figures, teaching
from dpworkbench.inconsistency.datasets import dcs_for, NAMES
from dpworkbench import widgets
ctx = NotebookContext("inconsistency/learn_conflict_graphs", profile=profile, output_dir=output_dir, seed=seed)
rows = pick(profile, ci=min(rows, 800), quick=rows, paper=rows)
repeats = pick(profile, ci=10, quick=30, paper=100)
for i, d in enumerate(dcs_for(dataset), start=1):
    print(f"{i:2d} " + ("FD-like  " if d.is_fd_like else "general  ") + str(d))

# %%
controls = {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=10),
            "dataset": widgets.choice(list(NAMES), dataset, "dataset"),
            "alpha": widgets.choice([0.001, 0.005, 0.01, 0.02], alpha, "RNoise α"),
            "dc_count": widgets.choice(list(range(0, 14)), dc_count, "first k DCs (0 = all)")}
panel = widgets.control_panel(lambda epsilon, dataset, alpha, dc_count: teaching.explorer_view(dataset, rows, alpha, epsilon, seed=seed, repeats=repeats, dc_count=dc_count),
                              controls, interactive=interactive, title="Conflict-graph explorer")
panel if interactive else None

# %%
fig, table = teaching.explorer_view(dataset, rows, alpha, epsilon, seed=seed, repeats=repeats, dc_count=dc_count)
ctx.save_figure(fig, "explorer")
ds, dcs, df, g, exact = teaching.noisy_table(dataset, rows, alpha, seed, dc_count or None)
print(f"{len(dcs)} DC(s) in use")
print(ds.describe()); display(exact); display(table)
ctx.save_figure(figures.draw_graph(g, max_nodes=150, title="non-isolated part of the conflict graph (first 150 nodes)"), "graph")

# %% [markdown]
# ## Algorithm 5 step by step (Fig. 3, Example 6)
# The global lexicographic order makes the two neighbouring graphs take the same decisions except along one chain: their cover sizes differ by at most 2. (Any order that ranks tuples by what they are — or by their relative row order — works; an order that hashes row positions does not, see above.)

# %%
vc_controls = {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=10),
               "step": widgets.choice(list(range(8)), 7, "iterations")}
vc_panel = widgets.control_panel(lambda epsilon, step: teaching.vertex_cover_step_view(step, epsilon, seed=seed), vc_controls,
                                 interactive=interactive, title="Algorithm 5 step by step")
vc_panel if interactive else None

# %%
gfig, trace = teaching.vertex_cover_steps()
ctx.save_figure(gfig, "fig3_graph")
ctx.save_figure(teaching.vertex_cover_step_view(7, epsilon, seed=seed)[0], "vertex_cover_release")
display(trace)
ctx.claims.add("ε slider changes only noise (graph cached)", paper="cached", ours=f"{teaching.noisy_table.cache_info().hits} cache hits", verdict="pass" if teaching.noisy_table.cache_info().hits > 0 else "differs")
ctx.finish()
gfig
