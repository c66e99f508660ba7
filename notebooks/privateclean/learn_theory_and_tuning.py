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
# # Learn PrivateClean: how much privacy does p buy, how many rows keep every value, and how to tune p
# **What you will learn.** How the privacy level ε and the randomisation probability p are linked (and where the
# paper's formula is too optimistic), how many rows a table needs so that randomisation does not make a value vanish,
# and how to pick p and the noise scale b for a target error.
#
# **What to do.** Choose **Run → Run All**, then move ε in the first two panels, α in the Theorem 2 panel and the
# target error in the tuning calculator. Each section has a "Try this" line.
#
# Paper terms (second): teaching notebook for PrivateClean (Krishnan et al., SIGMOD 2016, seed 002) — Lemma 1,
# Theorem 2 / Example 3, Example 4, Appendix E tuning, checked. Lemma 1's ε = ln(3/p − 2) is the exact GRR ε only for
# a 3-value domain; the workbench defaults to the exact ln(1 + N(1−p)/p) and shows the paper's value beside it
# (spec §1.6, §7 item 1). Example 3's 391/552 do not follow from Theorem 2; the correct values are 483/644 (spec §1.7).
#
# Data: none for the formulas; a **synthetic** worst-case relation (seeded) for the domain-preservation simulation.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
alpha = 0.05   # Theorem 2: allowed probability that some value vanishes

# %%
from IPython.display import display
from dpworkbench import widgets
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.privateclean import (claims, count_estimate, epsilon_grr, figures, reference, teaching, theorem2_bound,
                                      tune)

ctx = NotebookContext("privateclean/learn_theory_and_tuning", profile=profile, output_dir=output_dir, seed=seed)
trials = pick(profile, ci=100, quick=400, paper=2000)

# %% [markdown]
# ## Lemma 1: ε of GRR, both conventions
# Move ε: the p that achieves it per domain size N (exact) next to the paper's N-free formula.
#
# **Try this:** at ε = 2, compare the bar for N = 3 with the dashed line (they agree), then the bar for N = 200 (much
# larger p): on a big domain the same ε allows far more randomisation than the paper's formula says.

# %%
panel = widgets.control_panel(teaching.epsilon_to_p_figure, {"epsilon": widgets.epsilon_slider(2.0, minimum=0.1, maximum=10)}, interactive=interactive,
                              title="ε → p")
panel if interactive else None

# %% [markdown]
# ## The privacy–accuracy trade-off, both ε formulas side by side
# For a per-attribute ε: the p each formula buys, the dataset-independent count error bound (Eq. 4) it gives, and the
# *true* ε of that p for an N-value domain. The paper's Lemma 1 buys a smaller p (better accuracy) only because it
# under-states ε for N > 3. Last row: the uniform split of 2ε over one discrete and one numeric attribute (p and b).
# Closed forms only: nothing is cached because nothing depends on data.
#
# **Try this:** set N = 3: the two curves coincide. Set N = 200 and read the "true ε of this p" column for the paper's
# row: it is well above the ε you asked for.

# %%
tcontrols_eps = {"epsilon": widgets.epsilon_slider(2.0, minimum=0.2, maximum=10),
                 "N": widgets.choice([3, 10, 50, 200], 50, "N", "domain size N (values)"),
                 "S": widgets.log_slider(1000, 100, 1_000_000, "S (rows)")}
trade = widgets.control_panel(lambda epsilon, N, S: teaching.tradeoff_panel(epsilon, N=int(N), S=int(round(S))), tcontrols_eps,
                              interactive=interactive, title="privacy–accuracy trade-off")
trade if interactive else None

# %%
tfig, ttab = teaching.tradeoff_panel(2.0)
ctx.save_figure(tfig, "tradeoff")
ctx.save_table(ttab, "tradeoff")
ttab.round(4)

# %%
lem = teaching.lemma1_table()
ctx.save_table(lem, "lemma1")
lem.round(3)

# %% [markdown]
# ## Theorem 2 and Example 3
# How many rows S keep every one of N values visible after randomisation, with probability at least 1 − α? The
# simulation uses the worst case (one value held by a single row).
#
# **Try this:** lower α from 0.05 to 0.01 and watch Theorem 2's S (dashed line) move right; the simulated probability
# at that S stays above 1 − α. Raise p: more rows are needed.

# %%
tcontrols_thm = {"alpha": widgets.choice([0.2, 0.1, 0.05, 0.01], alpha, "α"),
                 "N": widgets.choice([10, 25, 50], 25, "N (values)"),
                 "p": widgets.choice([0.1, 0.25, 0.5], 0.25, "p")}
thm_panel = widgets.control_panel(lambda alpha, N, p: teaching.preservation_view(alpha, N, p, trials=trials, seed=seed), tcontrols_thm,
                                  interactive=interactive, title="Theorem 2: domain preservation")
thm_panel if interactive else None

# %%
thm = teaching.theorem2_table()
ctx.save_table(thm, "theorem2")
display(thm.round(1))
sim = teaching.simulate_preservation(25, 0.25, (100, 200, 300, 400, 483, 600), trials, seed=seed)
ctx.save_table(sim, "preservation")
fig = figures.preservation(sim, N=25, p=0.25, theorem2_size=theorem2_bound(25, 0.25, 0.05))
ctx.save_figure(fig, "theorem2_preservation")
fig

# %% [markdown]
# ## Appendix E tuning
# **Try this:** ask for a smaller target error (0.01) at S = 10,000: the tuned p drops and the ε it costs rises;
# then raise S to 1,000,000 and the same error becomes cheap.

# %%
tcontrols = {"S": widgets.log_slider(10_000, 100, 1_000_000, "S (rows)"),
             "error": widgets.choice([0.005, 0.01, 0.02, 0.05, 0.1], 0.05, "target error"),
             "confidence": widgets.choice([0.9, 0.95, 0.99], 0.95, "confidence"),
             "delta": widgets.choice([1.0, 10.0, 100.0], 100.0, "Δ numeric")}
tpanel = widgets.control_panel(teaching.tuning_view, tcontrols, interactive=interactive, title="tuning calculator (App. E)")
tpanel if interactive else None

# %%
tun = teaching.tuning_table()
ctx.save_table(tun, "tuning")
tun.round(3)

# %% [markdown]
# ## Paper-claim check

# %% [markdown]
# ## How much ε do I need for ±x %?
# Appendix E tunes p for a target error; here the same question in ε: the ε for which a COUNT over S rows (GRR on N =
# 50 values, exact convention) is within ±x % with probability 1 − β (Hoeffding, no normal approximation). The size
# must be public (stated before looking at the data), never the private answer. Noise only: truncation or clipping
# bias is not in it.
#
# > **Try this.** Set ±5 % and 1 − β = 0.95: compare the ε with the tuning calculator's exact ε above (it uses a
# z-score instead).

# %%
from dpworkbench.teaching import epsilon_needed
eps_panel = epsilon_needed.epsilon_needed_panel(epsilon_needed.rr_count(10_000, 50), reference=5000, sizes=[1000, 10_000], what="the COUNT",
                                                 interactive=interactive)
eps_panel if interactive else None


# %%
claims.learn_theory_and_tuning(
    ctx.claims,
    example4=count_estimate(**reference.EXAMPLE4_INPUTS),
    example3={a: theorem2_bound(alpha=a, **reference.EXAMPLE3_INPUTS) for a in reference.EXAMPLE3_RECORDS},
    lemma1=epsilon_grr(0.25, 3, "paper"), exact_n50=epsilon_grr(0.25, 50), tuned_p=tune(10_000, 0.05)["p"],
    tradeoff=ttab, sim=sim)
ctx.finish()
