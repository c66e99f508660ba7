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
# **What you will learn.** A table breaks a rule ("same zip code ⇒ same city") when two rows disagree. Draw every row
# as a dot and join two dots when they break a rule together: that picture is the *conflict graph*. Counting its lines,
# or the rows that touch one, measures how dirty the table is. You will see those counts, and what differential privacy
# does to them: each private answer is the count plus random noise, and the less budget ε you spend, the wider the spread.
#
# **What to do.** Run → Run All, then move ε in the first panel and watch the blue boxes (private answers) widen or
# shrink around the orange × (the true value).
#
# **Paper words.** This is a teaching notebook for Mohapatra, Gilad, He, Kimelfeld, *Computing Inconsistency Measures Under
# Differential Privacy* (SIGMOD'25; seeds 000/003). The rules are *denial constraints* (DCs); I_MI counts the conflict
# graph's edges (minimal inconsistent subsets), I_P its non-isolated tuples (problematic tuples), I_R the fewest tuples to
# delete (minimum vertex cover, approximated by Algorithm 5 against 2·I_R^lin). I_MI and I_P are released by graph
# projection (Algorithms 1, 2 and 4). Data: the real tables (Hospital, Tax, Stock, Adult) when the data folder has them,
# else seeded synthetic stand-ins with the paper's schemas and DCs (Flight is always synthetic); the explorer's title and
# `source` say which (`real` or `synthetic`). Errors are injected with RNoise (random typos) or CONoise (one new
# violation per iteration) — data errors, not DP noise.
#
# Neighbouring relation: add or remove one tuple (row) at any position. Public information: the constraints Σ, the schema,
# the stable ordering rule and its seed, and the sample size of the experiment design (`n_bound`, which sets the candidate
# set Θ and the clip; a release without a public bound spends 5 % of ε on a private one). Seeded noise is for
# reproducibility, not a private release; true values are NOT PRIVATE and shown only to teach.
#
# **What the stable order depends on.** Algorithm 1 and Algorithm 5 need one edge order that neighbouring databases share
# on their common edges. The default `order="rank"` ranks each tuple by a keyed hash of its *identity* (its content, or a
# key column given with `build(..., id_column=...)`), never by its row position. `order="lex"` sorts by row position and
# is stable too: a deletion keeps the relative order of the remaining rows.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
dataset = "Tax"
dc_count = 0           # 0: all DCs of the dataset; k: only its first k
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

# %% [markdown]
# ## 1. The conflict-graph explorer
# Left: how many conflicts each tuple has (its degree). Then, for each measure, the spread of private answers (blue box)
# and the true value (orange ×).
#
# **Try this.** Move ε from 10 down to 0.1 and watch the boxes widen; I_R stays tight (its noise covers a change of 2,
# whatever the data). Switch the noise to CONoise, or raise α, and watch the degrees grow. Use only the first DC (k = 1),
# then all: more rules, more edges. Change the ε₁ share, the I_P sensitivity mode ("paper" is the paper's unproven
# smaller noise), the add-|V| rule, the pruning rule or the order, and compare the I_MI / I_P boxes. Type your own θ
# candidates (e.g. `1, 10, 100`), or a preset: `paper`, `powers of 2`, `log-spaced`. Change the rows (bigger tables take
# longer the first time, then come from the cache) and the seed (another sample of the table and other errors).

# %%
controls = {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=10),
            "dataset": widgets.choice(list(NAMES), dataset, "dataset"),
            "n_rows": widgets.choice(sorted({rows, 1000, 2000, 5000, 10000, 20000}), rows, "rows"),
            "seed": widgets.seed_box(seed),
            "noise": widgets.choice(["rnoise", "conoise"], "rnoise", "noise"),
            "alpha": widgets.choice([0.001, 0.005, 0.01, 0.02], alpha, "RNoise α"),
            "conoise_iters": widgets.choice([25, 50, 100, 200], 100, "CON iters", "CONoise iterations"),
            "dc_count": widgets.choice(list(range(0, 14)), dc_count, "first k DCs", "use the first k denial constraints (0 = all)"),
            "eps1_frac": widgets.choice([0.2, 0.4, 0.6], 0.4, "ε₁ share"),
            "eps0_frac": widgets.choice([0.1, 0.25, 0.5], 0.25, "ε₀/ε₁", "ε₀ as a share of ε₁ (the part of ε₁ the θ choice spends)"),
            "ip_sensitivity": widgets.choice(["safe", "paper"], "safe", "I_P Δ", "I_P sensitivity mode: safe (proved) or paper (the paper's unproven, smaller)"),
            "add_V": widgets.choice(["if_general_DC", "always", "never"], "if_general_DC", "add |V|"),
            "prune": widgets.choice(["le", "lt"], "le", "prune", "pruning rule: le keeps candidates ≤ the bound, lt only those <"),
            "order": widgets.choice(["rank", "lex"], "rank", "order"),
            "thetas": widgets.candidate_editor([1, 5, 10, 100, 500], "Θ", "θ candidates: numbers separated by commas, or a preset: paper, powers of 2, log-spaced")}
panel = widgets.control_panel(lambda epsilon, dataset, n_rows, seed, noise, alpha, conoise_iters, dc_count, eps1_frac, eps0_frac, ip_sensitivity, add_V,
                              prune, order, thetas: teaching.explorer_view(dataset, n_rows, alpha, epsilon, seed=seed, repeats=repeats, dc_count=dc_count,
                                                                   noise=noise, conoise_iters=conoise_iters, order=order, eps1_frac=eps1_frac,
                                                                   eps0_frac=eps0_frac, ip_sensitivity=ip_sensitivity, add_V=add_V, prune=prune,
                                                                   thetas=thetas),
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
# ## 2. Algorithm 5 step by step (Fig. 3, Example 6)
# The global lexicographic order makes the two neighbouring graphs take the same decisions except along one chain: their cover sizes differ by at most 2. (Any order that ranks tuples by what they are — or by their relative row order — works; an order that hashes row positions does not, see above.)
#
# **Try this.** Step through the 7 edges and watch which tuples join the cover (red). The two histograms are the
# private answers for G and for G' (one tuple more): at ε = 1 they overlap a lot — that overlap is the privacy. Raise ε
# to 10 and they separate.

# %%
vc_controls = {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=10),
               "step": widgets.choice(list(range(8)), 7, "iterations")}
vc_panel = widgets.control_panel(lambda epsilon, step: teaching.vertex_cover_step_view(step, epsilon), vc_controls,
                                 interactive=interactive, title="Algorithm 5 step by step")
vc_panel if interactive else None

# %% [markdown]
# ## How much ε do I need for ±x %?
# The vertex cover c behind I_R is released with Laplace noise of scale 2/ε (one row changes c by at most 2). The
# panel gives the ε for ±x % of a public size of c (e.g. a bound on the conflicting rows). The size must be public
# (stated before looking at the data), never the private answer. Noise only: truncation or clipping bias is not in it.
#
# > **Try this.** A cover of 10 needs ten times the ε of a cover of 100 for the same ±x %: small measures are
# expensive.

# %%
from dpworkbench.teaching import epsilon_needed
eps_panel = epsilon_needed.epsilon_needed_panel(epsilon_needed.laplace(2.0), reference=100, sizes=[10, 1000], what="the cover size c",
                                                 interactive=interactive)
eps_panel if interactive else None


# %%
gfig, trace = teaching.vertex_cover_steps()
ctx.save_figure(gfig, "fig3_graph")
ctx.save_figure(teaching.vertex_cover_step_view(7, epsilon)[0], "vertex_cover_release")
display(trace)
ctx.finish()
gfig
