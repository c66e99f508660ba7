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
# # Learn: choosing the best answer privately — exponential mechanism vs local dampening
# **What you will learn.** Many private questions do not ask for a number but for a *choice*: the most central
# people in a network, the median of a list, the best attribute to split a decision tree on. The standard tool, the
# exponential mechanism (EM), scales its randomness by how much one person can change a score in the *worst* case.
# Local dampening (LD) scales it by how much one person can change the score *in this data set*, which is often much
# smaller, so the right answer is picked far more often for the same privacy budget ε. You will see when that helps,
# when it backfires ("inversion"), and how shifted local dampening (SLD) repairs it.
#
# **What to do.** Run → Run All, then move the ε slider in each section and watch the bars. Each section ends with a
# *try this* prompt.
#
# *For readers of the thesis:* V. A. E. de Farias, *Local Dampening: Differential Privacy for Non-numeric Queries via
# Local Sensitivity*, PhD thesis, UFC 2021 (PVLDB 14(4) 2020): PrivTopk (Alg. 3) on egocentric betweenness (EBC),
# the dampening function D (Def. 3.3.1), shifted LD (Def. 4.2.1), median selection (Ch. 5) and its percentile
# generalisation, private ID3 (Ch. 7).
# Data: toy graphs (the thesis' Fig. 9c graph, karate club, les Misérables, or a synthetic Holme–Kim graph), a small
# synthetic median sample, a tiny hand-made universe for the privacy check, and the synthetic NLTCS stand-in
# (5,000 rows) for ID3. The non-private part (EBC, degrees, counts) is computed once and cached; moving ε only
# recomputes the cheap probabilities.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
epsilon = 2.0
generator = "karate"
graph_size = 300
max_degree_factor = 1
t = 2
k = 3
depth = 2
criterion = "ig"

# %%
from dpworkbench.experiments import NotebookContext
from dpworkbench.dampening import claims, teaching
from dpworkbench import widgets
ctx = NotebookContext("dampening/learn_local_dampening", profile=profile, output_dir=output_dir, seed=seed)

# %% [markdown]
# ## 1. Private top-k: who are the k most central people?
# The bars are the chance that each of the most central nodes (by EBC) is picked first, under EM, LD and SLD; the
# table is the mean accuracy of 300 simulated releases (PF, permute-and-flip, included). The budget ε is split over
# the k picks (ε/k each). The *public degree bound* Δ is what everyone may know about the graph; EM's noise grows
# with Δ², LD and SLD barely notice it.
#
# **Try this:** set ε to 0.1 and compare EM with SLD; then raise the degree bound to "5 ×" and watch EM flatten
# while SLD stays put. With the `synthetic` graph, change its size and see whether SLD still finds the top-k.

# %%
controls = {"epsilon": widgets.epsilon_slider(epsilon, minimum=1e-3, maximum=1e4),
            "generator": widgets.choice(["fig9c", "karate", "les_miserables", "synthetic"], generator, "graph"),
            "k": widgets.choice([1, 2, 3, 5, 10, 20], k, "k"),
            "n": widgets.choice([100, 300, 1000], graph_size, "size n", "nodes of the synthetic graph (other graphs have their own size)"),
            "max_degree_factor": widgets.choice(list(teaching.MAX_DEGREE_FACTORS), max_degree_factor, "Δ bound", "public degree bound Δ, as a multiple of the graph's max degree")}
panel = widgets.control_panel(lambda epsilon, generator, k, n, max_degree_factor: teaching.teaching_topk(
                                  generator, epsilon, k, n=n, seed=seed, max_degree_factor=max_degree_factor),
                              controls, interactive=interactive, title="PrivTopk: EM vs PF vs LD vs SLD")
panel if interactive else None

# %% [markdown]
# ## 2. One pick (k = 1), permute-and-flip included
# **Try this:** on the `fig9c` graph move ε from 0.1 to 10: which mechanism concentrates on node a first?

# %%
panel1b = widgets.control_panel(lambda epsilon, generator: teaching.teaching_figure(generator, epsilon, n=graph_size, seed=seed),
                                {"epsilon": widgets.epsilon_slider(epsilon, minimum=1e-3, maximum=1e4),
                                 "generator": widgets.choice(["fig9c", "karate", "les_miserables", "synthetic"], generator, "graph")},
                                interactive=interactive, title="EM vs PF vs LD vs SLD (one draw)")
panel1b if interactive else None

# %%
fig = teaching.teaching_figure(generator, epsilon, n=graph_size, seed=seed); _ = ctx.save_figure(fig, "selection_probabilities"); fig

# %% [markdown]
# ## 3. The dampening function: how LD rescales a score
# LD replaces a score u by D(u): the first δ(0) units of score count as 1 step, the next δ(1) units as another, …
# (δ(t) = how much the score can change if t people change). The breakpoints b(t) are the running sums of δ.
#
# **Try this:** move t from 0 to 3 and watch the marked breakpoint b(t) move right; raise Δu and see the EM line
# u/Δu get flatter while D stays steep near 0.

# %%
panel2 = widgets.control_panel(teaching.teaching_dampening_figure, {"t": widgets.choice([0, 1, 2, 3], t, "t"), "global_sensitivity": widgets.log_slider(10.0, 7.0, 100.0, "Δu")},
                               interactive=interactive, title="Dampening function")
panel2 if interactive else None

# %% [markdown]
# ## 4. Shifting: how SLD removes the inversion
# LD on a shifted score u − s becomes shifted LD when s reaches s0.
#
# **Try this:** step the shift s from 0 up to 36.5 (= s0) and watch the LD bars converge to the SLD closed form.

# %%
panel3 = widgets.control_panel(lambda epsilon, shift: teaching.shift_figure(shift, epsilon),
                               {"epsilon": widgets.epsilon_slider(epsilon, minimum=1e-2, maximum=1e2),
                                "shift": widgets.choice([0, 3, 7, 15, 30, 36.5], 7, "shift s")}, interactive=interactive, title="Shift")
panel3 if interactive else None

# %% [markdown]
# ## 5. Private median: which sensitivity function?
# The bars are the chance of selecting each value as the median of a small synthetic sample. "box" is the admissible
# sensitivity function; "flat" uses the largest δ for every element; "thesis candidates" is the thesis' algorithm,
# which under-estimates the sensitivity and is **not** private; "Δu" is EM's scale.
#
# **Try this:** with LD, switch δ from "box" to "flat" and to "Δu" and watch E|error| in the title grow; move the
# median to 0.05 (a skewed sample) and compare LD with EM.

# %%
panel4 = widgets.control_panel(teaching.median_teaching_figure,
                               {"epsilon": widgets.epsilon_slider(epsilon, minimum=1e-2, maximum=1e3),
                                "delta_kind": widgets.choice(list(teaching.MEDIAN_DELTAS), "box (admissible)", "δ"),
                                "median_at": widgets.choice([0.05, 0.25, 0.5, 0.75], 0.5, "median at"),
                                "mechanism": widgets.choice(["EM", "PF", "LD", "SLD"], "LD", "mechanism")},
                               interactive=interactive, title="Median selection")
panel4 if interactive else None

# %% [markdown]
# ## 5b. Private percentiles: the 90th percentile of a skewed sample
# The same idea for any quantile: the chance of selecting each value as the p-quantile (p = 0.9: the element ranked
# ⌈0.9·n⌉). The sample is skewed (like incomes), so its upper quantiles sit in a sparse tail where one person can move
# the answer a lot — and in its dense middle, where they cannot. LD and SLD use a sensitivity function proved
# admissible in `dpworkbench.dampening.percentile`; on the command line: `dpworkbench dampening percentile --p 0.9`.
#
# **Try this:** at ε = 10 compare p = 0.5 with p = 0.9 and 0.99: which mechanism gains most in the tail? Then lower
# ε to 0.1: every mechanism falls back to (almost) a uniform pick.

# %%
panel_pct = widgets.control_panel(teaching.percentile_teaching_figure,
                                  {"epsilon": widgets.epsilon_slider(epsilon, minimum=1e-2, maximum=1e3),
                                   "p": widgets.choice(list(teaching.PERCENTILE_LEVELS), 0.9, "p")},
                                  interactive=interactive, title="Percentile selection")
panel_pct if interactive else None

# %% [markdown]
# ## 6. Check the privacy promise on a tiny universe
# For five rows with values in 0..6, every neighbouring data set (one row's value replaced) is enumerated and the
# largest privacy loss |log P[x → i] / P[y → i]| is computed exactly. ε-DP means every bar stays at or below ε.
#
# **Try this:** move ε and check that every bar stays below the line; switch δ to "thesis candidates": the bars may
# still stay below ε here, but nothing guarantees it on other data (the δ is not admissible).

# %%
panel6 = widgets.control_panel(teaching.privacy_loss_figure,
                               {"epsilon": widgets.epsilon_slider(1.0, minimum=1e-2, maximum=1e2),
                                "delta_kind": widgets.choice(list(teaching.MEDIAN_DELTAS), "box (admissible)", "δ")},
                               interactive=interactive, title="Privacy loss check")
panel6 if interactive else None

# %% [markdown]
# ## 7. Private decision trees: the root split
# A private ID3 tree of depth d spends B/(2(d+1)) per question, so deeper trees make every choice noisier. The bars are
# the chance that each attribute is chosen as the root split. T is the public horizon of δ (a small T makes LD and SLD
# fall back towards EM); Gini and Max are scores with a small global sensitivity, used with EM only.
#
# **Try this:** raise the depth from 1 to 6 at B = 1 and watch the bars of the best attribute shrink; set T = 1 and see
# LD/SLD collapse onto EM; switch the criterion to "gini".

# %%
panel5 = widgets.control_panel(lambda epsilon, depth, horizon, criterion: teaching.teaching_id3(epsilon, depth, horizon, criterion, seed=seed),
                               {"epsilon": widgets.epsilon_slider(1.0, minimum=1e-3, maximum=1e2),
                                "depth": widgets.choice([1, 2, 3, 4, 5, 6], depth, "depth"),
                                "horizon": widgets.choice([1, 8, 64, 1024], 1024, "horizon T"),
                                "criterion": widgets.choice(list(teaching.ID3_CRITERIA), criterion, "criterion")},
                               interactive=interactive, title="DiffPID3 root split")
panel5 if interactive else None

# %% [markdown]
# ## How much ε do I need for ±x %?
# The exponential mechanism's median over a public domain of 1,000 candidate values (rank utility, Δ = 1) misses the
# median's rank by at most 2·ln(1000/β)/ε with probability 1 − β. Local dampening can only do better where the local
# sensitivity is small; this is the global-sensitivity baseline. The size must be public (stated before looking at the
# data), never the private answer. Noise only: truncation or clipping bias is not in it.
#
# > **Try this.** Ask for ±1 % of 1,000 ranks, then of 10,000 (the domain staying 1,000 values): ten times less ε for
# the same share.

# %%
from dpworkbench.teaching import epsilon_needed
eps_panel = epsilon_needed.epsilon_needed_panel(epsilon_needed.selection(1.0, 1000), reference=1000, sizes=[100, 10_000], what="the median's rank",
                                                 interactive=interactive)
eps_panel if interactive else None


# %%
fig = teaching.teaching_dampening_figure(t, 10.0); _ = ctx.save_figure(fig, "dampening_function")
_ = ctx.save_figure(teaching.teaching_topk(generator, epsilon, k, n=graph_size, seed=seed, max_degree_factor=max_degree_factor)[0],
                    "privtopk_teaching", png=profile != "ci")
_ = ctx.save_figure(teaching.teaching_id3(1.0, depth, criterion=criterion, seed=seed)[0], "id3_root_teaching", png=profile != "ci")
_ = ctx.save_figure(teaching.shift_figure(36.5, epsilon), "shift_convergence", png=profile != "ci")
_ = ctx.save_figure(teaching.median_teaching_figure(epsilon), "median_teaching", png=profile != "ci")
_ = ctx.save_figure(teaching.percentile_teaching_figure(epsilon, 0.9), "percentile_teaching", png=profile != "ci")
_ = ctx.save_figure(teaching.privacy_loss_figure(1.0)[0], "privacy_loss_check", png=profile != "ci")
claims.learn_local_dampening(ctx.claims, teaching.teaching_probabilities("fig9c", epsilon),
                             teaching.privacy_loss_check(1.0, "box (admissible)"))
ctx.finish()
