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
# # PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 1: privatise → clean → query, worked and executable
# Fig. 1 of the paper is an illustration: (a) a course-evaluation table with Major and Satisfaction, (b) the private table
# after randomized response (student 3's major randomised: plausible deniability), (c) the analyst fixes the inconsistent
# spelling "Mechanical E." → "Mech. Eng." on the *private* table, (d) AVG satisfaction per major (paper: Mech. Eng. 3.2,
# Electrical Eng. 4.9). Here every step runs: GRR with a declared public domain of majors and Laplace noise on satisfaction,
# the merge recorded in the provenance graph, and Direct vs PrivateClean estimates with 95 % intervals, for one release and
# over many releases.
#
# Data: **synthetic** 100-row table (seeded; rows 1–3 are the paper's, the rest drawn from a fixed distribution). The
# paper's table is not published beyond those rows.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
p = 0.25      # GRR replacement probability on Major
b = 1.0       # Laplace scale on Satisfaction, public range 4

# %%
from IPython.display import display
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.privateclean import claims, figures, teaching, privacy_cost_table

ctx = NotebookContext("privateclean/fig01_running_example", profile=profile, output_dir=output_dir, seed=seed)
reps = pick(profile, ci=200, quick=2000, paper=20000)

# %% [markdown]
# ## (a) original table R and (b) the private release V

# %%
R = teaching.fig01_relation(seed)
V, crel = teaching.fig01_private(R, p=p, b=b, seed=seed)
side = R.head(8).assign(private_major=V.value.data["major"].head(8).to_numpy(), private_satisfaction=V.value.data["satisfaction"].head(8).round(2).to_numpy())
ctx.save_table(side, "R_vs_V_first_rows")
display(side)
display(privacy_cost_table(V))  # ε per attribute, exact and the paper's Lemma 1 (the release's ledger records the exact one)
pdn = teaching.plausible_deniability(p)
ctx.save_table(pdn, "plausible_deniability")
display(pdn.round(3))
reports = teaching.report_frequencies(p, draws=pick(profile, ci=20_000, quick=50_000, paper=200_000), seed=seed)
ctx.save_table(reports, "report_frequencies")
reports.round(4)

# %% [markdown]
# ## (c) cleaning on the private table, with its provenance graph

# %%
g = teaching.provenance_figure(crel, "major", pred={"Mech. Eng."}, domain_source="released")
ctx.save_figure(g, "fig01_provenance")
display(crel.provenance("major"))
g

# %% [markdown]
# ## (d) AVG (and COUNT) per major: truth on C(R), Direct, PrivateClean — one release, then over many

# %%
one = teaching.fig01_estimates(R, crel)
ctx.save_table(one, "one_release")
display(one.round(2))
mc = teaching.fig01_monte_carlo(R, p=p, b=b, reps=reps, seed=seed)
ctx.save_table(mc, "monte_carlo")
mc.round(3)

# %%
fig = figures.fig01_errors(mc, reps=reps, p=p, b=b, S=len(R))
ctx.save_figure(fig, "fig01_errors")
fig

# %% [markdown]
# ## Paper-claim check

# %%
claims.fig01_running_example(ctx.claims, mc, reports, reps=reps)
ctx.finish()
