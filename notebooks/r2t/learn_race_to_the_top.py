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
# # Race to the top: counting privately when one person can own many rows
# **What you will learn.** When one person (a node of a graph, a customer of a shop) contributes many rows to a count, adding noise for the worst possible person drowns the answer. This notebook shows how R2T instead *truncates* each person's contribution at a threshold τ, tries many τ at once, and picks the best one privately; and how OPT², its successor, picks τ with a sparse-vector test.
#
# **What to do.** Choose **Run → Run All Cells**, then move the **ε** slider in each panel and watch the figure change. Each section ends with a *Try this* box.
#
# **In the paper's words** (teaching notebook; Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §5 Algorithm 1 and §6): every τ gives a truncated answer Q(I,τ) that changes by at most τ when one individual is removed. R2T adds Laplace noise of scale Kτ/ε to each, shifts it down by K·ln(K/β)·τ/ε so that it almost never overshoots, and releases the maximum: a race to the top. OPT² runs a sparse-vector test on Ĝ(I,τ) = F̂(I,τ) − N (how many individuals must go for τ to be enough). Data: seeded synthetic graphs (grid-like "road" or power-law "social", spec 5.3), the paper's Fig. 2 graph, or tiny TPC-H (generated with `tpchgen-cli`). Only noise is redrawn when you move ε; the LPs (non-private) are cached. β changes only the shift (utility), never the privacy.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
epsilon = 0.8
beta = 0.1
show_mechanisms = ["R2T", "OPT2", "fixed τ", "LP random τ", "NT", "naive Laplace"]  # toggles of the error panel

# %%
from IPython.display import display
import ipywidgets
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench import widgets
from dpworkbench.r2t import claims, teaching
ctx = NotebookContext("r2t/learn_race_to_the_top", profile=profile, output_dir=output_dir, seed=seed)
size = pick(profile, ci=400, quick=2000, paper=5000)
runs = pick(profile, ci=200, quick=1000, paper=5000)
sizes = sorted({size, 400, 1000, 2000, 5000})

# %% [markdown]
# ## 1. The race: Q(I,τ), the noisy shifted candidates and the winner
# The grey line is the truncated count Q(I,τ); each blue dot is one noisy, shifted candidate with its noise band; the gold star is the released answer; the green dashed line is the true count Q(I) and the orange line τ* = DS, the largest contribution of one individual.
#
# > **Try this.** Move **ε** from 0.1 to 10 and watch the candidates tighten around the grey line. Then set **log₂ GS** below log₂ DS (e.g. 3 on the social graph): the title warns that the utility assumption fails: the answer is biased, but still ε-DP. Switch **base** to 5.5: fewer candidates, each with less noise.

# %%
controls = {
    "epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=12.8),
    "beta": widgets.log_slider(beta, 0.01, 0.5, "β"),
    "log2_gs": widgets.choice(list(range(3, 31)), 10, "log₂ GS"),
    "base": widgets.choice([2.0, 2.718281828, 5.5], 2.0, "base"),
    "generator": widgets.choice(list(teaching.GENERATORS), "social", "data"),
    "query": widgets.choice(["edge", "path2", "triangle", "rectangle"], "edge", "query"),
    "size": widgets.choice(sizes, size, "nodes n"),
    "degree_cap": widgets.choice([16, 64, 256, 1024], 1024, "degree cap D"),
    "seed": widgets.seed_box(seed),
}
panel = widgets.control_panel(teaching.race_panel, controls, interactive=interactive, title="Race to the top")
panel if interactive else None

# %%
fig, table = teaching.race_panel(epsilon=epsilon, beta=beta, log2_gs=10, base=2.0, generator="social", query="edge", seed=seed, size=size)
ctx.save_figure(fig, "learn_race")
table

# %% [markdown]
# ## 2. OPT²: the sparse-vector test picks τ̃
# Blue: Ĝ(I,τ), minus the number of individuals that must be removed so that nobody contributes more than τ; orange: the same with noise; red dashed: the noisy threshold T̃. OPT² stops at the first τ whose noisy Ĝ crosses T̃ and releases Q(I,τ̃) plus noise of scale 3τ̃/ε.
#
# > **Try this.** Lower **ε** to 0.1: the noisy points scatter and the stop moves to a larger τ̃ (safer, noisier). Raise **β**: the threshold T moves up, the stop comes earlier. Compare **query** edge with triangle.

# %%
controls_opt2 = {
    "epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=12.8),
    "beta": widgets.log_slider(beta, 0.01, 0.5, "β"),
    "generator": widgets.choice(list(teaching.GRAPH_GENERATORS), "social", "data"),
    "query": widgets.choice(["edge", "path2", "triangle", "rectangle"], "edge", "query"),
    "size": widgets.choice(sizes, size, "nodes n"),
    "degree_cap": widgets.choice([16, 64, 256, 1024], 1024, "degree cap D"),
    "seed": widgets.seed_box(seed),
}
panel_opt2 = widgets.control_panel(teaching.opt2_panel, controls_opt2, interactive=interactive, title="OPT²'s sparse-vector test")
panel_opt2 if interactive else None

# %%
fig_opt2, g_table = teaching.opt2_panel(epsilon=epsilon, beta=beta, generator="social", query="edge", seed=seed, size=size)
ctx.save_figure(fig_opt2, "learn_opt2_svt")
g_table

# %% [markdown]
# ## 3. Error over many runs: R2T vs OPT² vs a fixed τ vs NT vs naive Laplace
# A fixed τ trades bias (τ too small) against noise (τ too large); R2T and OPT² adapt to the instance. Naive Laplace pays the assumed global sensitivity GS, R2T only log GS: with GS close to DS naive Laplace wins, with a loose GS (the usual case: GS must hold for every possible instance) R2T wins by orders of magnitude. NT truncates by node degree with a random θ ≤ D and adds smooth-sensitivity noise. The x-axis shows the 1–99 % range of R2T, OPT² and fixed τ; the title counts the runs outside it.
#
# > **Try this.** Move **log₂ fixed τ** from 1 to 12: the green histogram moves from far left (biased: too much truncated) to wide (too much noise); somewhere in between it beats R2T, but only on this instance. Then raise **log₂ GS** to 30: naive Laplace disappears off the axis, R2T barely moves. Untick mechanisms to compare two at a time.

# %%
controls2 = {
    "epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=12.8),
    "log2_tau": widgets.choice(list(range(1, 16)), 4, "log₂ fixed τ"),
    "log2_gs": widgets.choice(list(range(4, 31)), 16, "log₂ GS"),
    "generator": widgets.choice(list(teaching.GENERATORS), "social", "data"),
    "query": widgets.choice(["edge", "triangle"], "edge", "query"),
    "size": widgets.choice(sizes, size, "nodes n"),
    "degree_cap": widgets.choice([16, 64, 256, 1024], 1024, "degree cap D"),
    "runs": widgets.choice(sorted({runs, 200, 1000, 5000}), runs, "runs"),
    "seed": widgets.seed_box(seed),
    "mechanisms": ipywidgets.SelectMultiple(options=teaching.ERROR_PANEL_MECHANISMS, value=tuple(show_mechanisms), description="shown", tooltip="mechanisms drawn (ctrl/shift-click to pick several)"),
}
panel2 = widgets.control_panel(lambda **kw: teaching.error_panel(beta=beta, **kw), controls2, interactive=interactive,
                               title="Error distribution over runs")
panel2 if interactive else None

# %% [markdown]
# ## How much ε do I need for ±x %?
# R2T's Theorem 5.1 bounds its error by 2b·K·ln(K/β)·DS/ε (K = log_b GS rungs) with probability 1 − β. GS is public;
# DS (the largest contribution of one individual) is stated here as a public bound, DS ≤ 64. The size must be public
# (stated before looking at the data), never the private answer. Noise only: truncation or clipping bias is not in it.
#
# > **Try this.** Ask for ±1 % of 1,000: out of reach below ε = 1000; ±5 % of 10,000 needs ε ≈ 27. Truncation bias is
# not in this bound: it is the noise only.

# %%
from dpworkbench.teaching import epsilon_needed
from dpworkbench.r2t.mechanisms import r2t_bound
eps_panel = epsilon_needed.epsilon_needed_panel(epsilon_needed.from_bound(lambda eps, b: r2t_bound(64.0, epsilon=eps, beta=b, gs=2.0 ** 10)), reference=10_000, sizes=[1000, 100_000], what="the R2T answer",
                                                 interactive=interactive)
eps_panel if interactive else None


# %%
fig2, stats = teaching.error_panel(epsilon=epsilon, log2_tau=4, log2_gs=16, generator="social", query="edge", size=size, runs=runs, beta=beta,
                                   seed=seed, mechanisms=teaching.ERROR_PANEL_MECHANISMS)
ctx.save_figure(fig2, "learn_error_histogram")
claims.learn_race_to_the_top(ctx.claims, stats, beta=beta, log2_gs=16)
display(stats)
ctx.finish()
