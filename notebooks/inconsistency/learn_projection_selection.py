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
# # Learn: graph projection (θ) and private θ selection
# Teaching notebook for Mohapatra, Gilad, He, Kimelfeld, *Computing Inconsistency Measures Under Differential Privacy* (SIGMOD'25; seeds 000/003). Data: **Adult is the real UCI table** (10k-row samples; the artifact's `inputDB2.csv`); **Flight, Hospital, Stock and Tax are SYNTHETIC seeded stand-ins** with the paper's schemas and DCs, calibrated to Table 5's maximum degree (the real tables are not available offline). Each table below has a `source` column saying which was used.
#
# Edge addition (Algorithm 1) keeps an edge only if both endpoints still have degree < θ: a small θ truncates (bias) but the
# Laplace noise scale θ/ε₂ is small; a large θ keeps everything but adds a lot of noise. Eq. 2's quality
# q(θ) = −bias − √2θ/ε₂ trades the two; Algorithm 4 picks θ with the exponential mechanism, first pruning with a noisy FD
# degree bound, then in two steps. F(θ) is memoised per graph, so the sliders only redo cheap work. Neighbouring relation: add or remove one tuple (row) at any position. Public information: the constraints Σ, the schema, the stable ordering rule and its seed, and the sample size of the experiment design (`n_bound`, which sets the candidate set Θ and the clip; a release without a public bound spends 5 % of ε on a private one). Seeded noise is for reproducibility, not a private release.
#
# **What the stable order depends on.** Algorithm 1 and Algorithm 5 need one edge order that neighbouring databases share on their common edges. The default `order="rank"` ranks each tuple by a keyed hash of its *identity* — a hash of the tuple's own content, or the key column given with `build(..., id_column=...)` / `--id-column` — never by its row position: deleting a middle row shifts the positions of every later row, so a position-hashed order reshuffles the other tuples' edges (this happened before issue 11: on A = 0, B = [0,0,1,0,1,2] with A → B, deleting row 2 moved F_MI(1) by 2 and the cover by 4). Identical tuples are interchangeable, so they are ordered by occurrence. `order="lex"` sorts by row position and is stable too: a deletion keeps the relative order of the remaining rows.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
dataset = "Hospital"
rows = 2000
alpha = 0.01
epsilon = 1.0
theta = 50
measure = "MI"

# %%
from IPython.display import display
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.inconsistency import teaching
from dpworkbench import widgets
ctx = NotebookContext("inconsistency/learn_projection_selection", profile=profile, output_dir=output_dir, seed=seed)
rows = pick(profile, ci=min(rows, 800), quick=rows, paper=rows)

# %% [markdown]
# ## Projection explorer: bias vs Laplace noise

# %%
import ipywidgets as w
controls = {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=10),
            "theta": widgets.log_slider(theta, 1, rows, "θ"),
            "measure": widgets.choice(["MI", "P"], measure, "measure")}
panel = widgets.control_panel(lambda epsilon, theta, measure: teaching.projection_view(dataset, rows, alpha, int(theta), epsilon, measure, seed=seed),
                              controls, interactive=interactive, title="θ: truncation bias vs noise")
panel if interactive else None

# %%
ctx.save_figure(teaching.projection_view(dataset, rows, alpha, theta, epsilon, measure, seed=seed), "projection")

# %% [markdown]
# ## θ-selection explorer: EM probabilities per step of Algorithm 4

# %%
panel2 = widgets.control_panel(lambda epsilon, use_bound: teaching.em_view(dataset, rows, alpha, epsilon, measure, seed=seed, use_bound=use_bound),
                               {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=10), "use_bound": widgets.choice([True, False], True, "FD bound")},
                               interactive=interactive, title="Algorithm 4")
panel2 if interactive else None

# %%
fig = teaching.em_view(dataset, rows, alpha, epsilon, measure, seed=seed)
ctx.save_figure(fig, "em_steps")
proj = teaching.projector(dataset, rows, alpha, seed)
passes = proj.passes
teaching.projection_view(dataset, rows, alpha, theta, epsilon * 2, measure, seed=seed)
ctx.claims.add("changing ε reuses the memoised F(θ) (no new projection pass)", paper=passes, ours=proj.passes, atol=0)
ctx.finish()
fig
