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
# # Learn: how much to cut a conflict graph before adding noise (θ), and choosing θ privately
# **What you will learn.** To publish "how many conflicts does this table have?" with differential privacy, we add random
# noise. One tuple can take part in very many conflicts, so the noise would have to be huge. The fix: cap every tuple at
# θ conflicts (cut the rest), then add noise that only needs to cover θ. A small θ cuts a lot (the answer is too low, a
# *bias*); a large θ needs a lot of noise. Here you see that trade-off, and how the paper picks θ without looking at the
# data in a way that leaks it.
#
# **What to do.** Run → Run All, then move ε and θ in the first panel and watch the curves; then change the knobs of the
# second panel (ε split, number of steps, pruning, candidates) and watch which θ gets picked.
#
# **Paper words.** This is a teaching notebook for Mohapatra, Gilad, He, Kimelfeld, *Computing Inconsistency Measures Under
# Differential Privacy* (SIGMOD'25; seeds 000/003): denial constraints define a conflict graph; I_MI counts its edges and
# I_P its non-isolated tuples; *graph projection* (Algorithm 1, edge addition) caps degrees at θ; Eq. 2's quality
# q(θ) = −bias − √2θ/ε₂ scores a θ; Algorithm 4 picks θ with the exponential mechanism, first pruning the candidates with a
# noisy FD degree bound, in two steps. Data: the real tables (Hospital, Tax, Stock, Adult) when the data folder has them,
# else seeded synthetic stand-ins with the paper's schemas and DCs (Flight is always synthetic); the explorer's title says
# which (`real` or `synthetic`).
#
# Neighbouring relation: add or remove one tuple (row) at any position. Public information: the constraints Σ, the schema,
# the stable ordering rule and its seed, and the sample size of the experiment design (`n_bound`). Seeded noise is for
# reproducibility, not a private release; true values are NOT PRIVATE and shown only to teach.

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
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.inconsistency import teaching
from dpworkbench import widgets
ctx = NotebookContext("inconsistency/learn_projection_selection", profile=profile, output_dir=output_dir, seed=seed)
rows = pick(profile, ci=min(rows, 800), quick=rows, paper=rows)

# %% [markdown]
# ## 1. Cutting vs noise: pick θ yourself
# The blue curve is how much the cut loses (bias), the red one how large the noise is (it grows with θ); the dotted one
# is their sum, the error you would expect. The dashed line is your θ.
#
# **Try this.** Move θ from 1 to the largest value and find where the dotted curve is lowest. Then move ε from 0.1 to
# 10: with more budget the noise curve drops and the best θ moves right (less cutting pays off). Switch the ε₁ share:
# the noise uses the rest (ε₂ = (1 − ε₁ share)·ε).

# %%
controls = {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=10),
            "theta": widgets.log_slider(theta, 1, rows, "θ"),
            "measure": widgets.choice(["MI", "P"], measure, "measure"),
            "eps1_frac": widgets.choice([0.2, 0.4, 0.6], 0.4, "ε₁ share"),
            "order": widgets.choice(["rank", "lex"], "rank", "order")}
panel = widgets.control_panel(lambda epsilon, theta, measure, eps1_frac, order: teaching.projection_view(
    dataset, rows, alpha, int(theta), epsilon, measure, seed=seed, eps1_frac=eps1_frac, order=order),
    controls, interactive=interactive, title="θ: truncation bias vs noise")
panel if interactive else None

# %%
ctx.save_figure(teaching.projection_view(dataset, rows, alpha, theta, epsilon, measure, seed=seed), "projection")

# %% [markdown]
# ### What the cut does to each tuple
# Grey: how many conflicts each tuple has; blue: how many it keeps after the cut at θ (never more than θ).
#
# **Try this.** Move θ down to 1: every tuple keeps at most one conflict (the blue bars pile up at 1). Move it up
# past the largest grey degree: nothing is cut and the two histograms coincide.

# %%
deg_panel = widgets.control_panel(lambda theta: teaching.projection_degrees_view(dataset, rows, alpha, int(theta), seed=seed),
                                  {"theta": widgets.log_slider(theta, 1, rows, "θ")}, interactive=interactive, title="degrees before / after")
deg_panel if interactive else None

# %%
ctx.save_figure(teaching.projection_degrees_view(dataset, rows, alpha, theta, seed=seed), "projection_degrees")

# %% [markdown]
# ## 2. Letting the mechanism pick θ (Algorithm 4)
# Each bar is the probability that the exponential mechanism draws that candidate θ; step 2 only keeps the candidates
# not above step 1's pick.
#
# **Try this.** Lower ε to 0.1: the bars flatten (the choice becomes a guess). Turn the FD bound off: large candidates
# come back. Set the steps to 1, or pruning to "<", and see what step 2 may choose from. Type your own candidates
# (e.g. `1, 2, 4, 8, 16, 32`) in the θ box, or a preset: `paper` (the paper's list), `powers of 2`, `log-spaced`. Switch the I_P sensitivity to "paper" with
# measure P: the probabilities sharpen, because the paper's (unproven) sensitivity is smaller.

# %%
em_controls = {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=10),
               "use_bound": widgets.choice([True, False], True, "FD bound"),
               "eps1_frac": widgets.choice([0.2, 0.4, 0.6], 0.4, "ε₁ share"),
               "eps0_frac": widgets.choice([0.1, 0.25, 0.5], 0.25, "ε₀/ε₁", "ε₀ as a share of ε₁ (the part of ε₁ the θ choice spends)"),
               "steps": widgets.choice([1, 2, 3], 2, "EM steps"),
               "prune": widgets.choice(["le", "lt"], "le", "prune", "pruning rule: le keeps candidates ≤ the bound, lt only those <"),
               "add_V": widgets.choice(["if_general_DC", "always", "never"], "if_general_DC", "add |V|"),
               "ip_sensitivity": widgets.choice(["safe", "paper"], "safe", "I_P Δ", "I_P sensitivity mode: safe (proved) or paper (the paper's unproven, smaller)"),
               "measure": widgets.choice(["MI", "P"], measure, "measure"),
               "thetas": widgets.candidate_editor([1, 5, 10, 100, 500], "Θ", "θ candidates: numbers separated by commas, or a preset: paper, powers of 2, log-spaced")}
panel2 = widgets.control_panel(lambda epsilon, use_bound, eps1_frac, eps0_frac, steps, prune, add_V, ip_sensitivity, measure, thetas:
                               teaching.em_view(dataset, rows, alpha, epsilon, measure, seed=seed, use_bound=use_bound,
                                                eps1_frac=eps1_frac, eps0_frac=eps0_frac, steps=steps, prune=prune, add_V=add_V,
                                                ip_sensitivity=ip_sensitivity, thetas=thetas),
                               em_controls, interactive=interactive, title="Algorithm 4")
panel2 if interactive else None

# %% [markdown]
# ## How much ε do I need for ±x %?
# At a fixed θ the measure step adds Laplace noise of scale Δ(θ)/ε₂ with Δ(θ) = θ (I_MI, Lemma 1) and ε₂ the 60 % of ε
# left after the θ choice. The panel gives the ε for ±x % of a public size of I_MI at θ = `theta`. The size must be
# public (stated before looking at the data), never the private answer. Noise only: truncation or clipping bias is not
# in it.
#
# > **Try this.** Halve θ at the top of the notebook and re-run this cell: the ε needed halves (the noise is θ/ε₂), at
# the price of a larger cut.

# %%
from dpworkbench.teaching import epsilon_needed
from dpworkbench.inconsistency.mechanisms import laplace_sensitivity
eps_panel = epsilon_needed.epsilon_needed_panel(epsilon_needed.share(epsilon_needed.laplace(laplace_sensitivity(int(theta), "MI", "safe")), 0.6), reference=10_000, sizes=[1000, 100_000], what="I_MI at θ",
                                                 interactive=interactive)
eps_panel if interactive else None


# %%
fig = teaching.em_view(dataset, rows, alpha, epsilon, measure, seed=seed)
ctx.save_figure(fig, "em_steps")
ctx.finish()
fig
