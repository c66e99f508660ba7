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
# # Figs. 12, 13 and 14: bounded sensitivity functions, monotonicity and the dampening function
# V. A. E. de Farias, *Local Dampening: Differential Privacy for Non-numeric Queries via Local Sensitivity*, PhD thesis, UFC 2021 (PVLDB 14(4) 2020). Data: none (concept plots drawn from the definitions, §1.9–1.10 of the spec), plus the Fig. 9c toy graph for the inversion example.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
global_sensitivity = 10.0
delta_row = [1.0, 2.0, 4.0, 7.0]

# %%
from IPython.display import display
import numpy as np, pandas as pd
from dpworkbench.experiments import NotebookContext
from dpworkbench.dampening import claims, figures
from dpworkbench.dampening import SensitivityMatrix, dampen, sld_slack
ctx = NotebookContext("dampening/fig12_fig13_fig14_dampening_function", profile=profile, output_dir=output_dir, seed=seed)

# %%
fig = figures.bounded_sensitivity_figure(delta_row, global_sensitivity)
ctx.save_figure(fig, "fig12_bounded"); fig

# %%
fig = figures.monotone_sensitivity_figure([9.0, 6.0, 3.0], np.array([[3, 6, 9, 10], [2, 4, 8, 10], [1, 2, 5, 9.0]]), global_sensitivity)
ctx.save_figure(fig, "fig13_monotonic"); fig

# %%
fig = figures.dampening_figure(delta_row, global_sensitivity, t_mark=2)
ctx.save_figure(fig, "fig14_dampening_function"); fig

# %% [markdown]
# ## The inversion problem
# LD divides by δ: an element with higher utility but larger δ may get a *smaller* D than a lower-utility element with small δ. SLD removes the inversion for monotone δ.

# %%
# Thesis Example 4.1.1: u(r1)=3 with δ(t=0)=1, δ(t=1)=2; u(r2)=4 with δ(t=0)=4; Δu = 4
u = np.array([3.0, 4.0]); dm = SensitivityMatrix(np.array([[1.0, 2.0, 4.0], [4.0, 4.0, 4.0]]), 4.0)
D = dampen(u, dm)
inv = pd.DataFrame({"element": ["r1", "r2"], "u": u, "δ(t=0)": dm.values[:, 0], "δ(t=1)": dm.values[:, 1], "D (LD)": D,
                    "u − S (SLD)": u - sld_slack(dm)})
ctx.save_table(inv, "inversion_example"); display(inv)
sm = SensitivityMatrix(np.atleast_2d(delta_row), global_sensitivity)
grid = np.linspace(-60, 60, 241)
claims.fig12_fig13_fig14_dampening_function(ctx.claims, grid=grid, dampened=dampen(grid, sm), dampened_negated=dampen(-grid, sm),
                                            dampened_ex411=D, sld_scores_ex411=inv["u − S (SLD)"].to_numpy())
ctx.finish()
