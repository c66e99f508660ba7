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
from dpworkbench import datasets
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.dampening import figures
from dpworkbench.dampening import SensitivityMatrix, dampen
import plotly.graph_objects as go
ctx = NotebookContext("dampening/fig12_fig13_fig14_dampening_function", profile=profile, output_dir=output_dir, seed=seed)

# %%
fig = go.Figure()
for name, row in [("LS(x,t) flat, bounded", delta_row), ("Δu (global)", [global_sensitivity] * len(delta_row))]:
    t = np.arange(len(row) + 4); vals = [row[i] if i < len(row) else global_sensitivity for i in t]
    fig.add_scatter(x=t, y=vals, mode="lines+markers", name=name)
fig.update_layout(title="Fig. 12: a bounded sensitivity function reaches Δu at the public horizon T", xaxis_title="t", yaxis_title="δ(x,t,r)")
ctx.save_figure(fig, "fig12_bounded"); fig

# %%
us = np.array([9.0, 6.0, 3.0]); rows = np.array([[3, 6, 9, 10], [2, 4, 8, 10], [1, 2, 5, 9.0]])
fig = go.Figure([go.Scatter(x=np.arange(4), y=rows[i], name=f"r{i+1} (u={us[i]:g})", mode="lines+markers") for i in range(3)])
mono = SensitivityMatrix(rows, global_sensitivity).monotonicity(us)
fig.update_layout(title=f"Fig. 13: a {mono} sensitivity function (higher utility ⇒ larger δ)", xaxis_title="t", yaxis_title="δ")
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
                    "u − S (SLD)": u - (4.0 - dm.values).sum(axis=1)})
ctx.save_table(inv, "inversion_example"); display(inv)
sm = SensitivityMatrix(np.atleast_2d(delta_row), global_sensitivity)
grid = np.linspace(-60, 60, 241); Dg = dampen(grid, sm)
odd = np.allclose(dampen(-grid, sm), -Dg); inc = bool(np.all(np.diff(Dg) > 0))
ctx.claims.add("D is odd and strictly increasing (Def. 3.3.1)", paper="odd, increasing", ours=f"odd={odd}, increasing={inc}", verdict="pass" if odd and inc else "differs")
ctx.claims.add("Ex. 4.1.1 inversion: D(r1) = 2 > D(r2) = 1 although u(r1) < u(r2)", paper="D(r1)=2, D(r2)=1", ours=f"D(r1)={D[0]:.2f}, D(r2)={D[1]:.2f}",
               verdict="pass" if np.allclose(D, [2.0, 1.0]) else "differs")
slo = inv["u − S (SLD)"].to_numpy()
ctx.claims.add("SLD keeps the utility order on Ex. 4.1.1 (δ non-decreasing in u)", paper="SLD removes the inversion", ours=f"u−S: r1 {slo[0]:.2f}, r2 {slo[1]:.2f}",
               verdict="pass" if slo[1] > slo[0] else "differs")
ctx.finish()
