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
# # Worked examples: Figs. 2, 3, 9 (9c), 11 and 15; Examples 1.1.2–4.2.1
# V. A. E. de Farias, *Local Dampening: Differential Privacy for Non-numeric Queries via Local Sensitivity*, PhD thesis, UFC 2021 (PVLDB 14(4) 2020). Data: the thesis' toy graphs (reconstructed, spec §2.11) — no dataset, exact computation.
#
# We recompute EBC, the exact element local sensitivity by brute force over edge toggles (Fig. 11: LS(G,0,v4) = 2), δ^EBC, the
# probabilities of Examples 3.4.1 (LD), 3.6.1 (EM) and 4.2.1 (shifted by −7; the thesis' printed numbers are inconsistent, spec §7 item 8),
# and the dampened values of Example 4.1.1 (the inversion problem).

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...

# %%
import numpy as np, pandas as pd
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.dampening import claims, ebc, figures, worked_examples
from dpworkbench.dampening import SensitivityMatrix, dampen, ld_logits
from dpworkbench.mechanisms import exponential_probabilities
ctx = NotebookContext("dampening/fig02_fig03_fig09_fig11_fig15_worked_examples", profile=profile, output_dir=output_dir, seed=seed)

# %%
G2, G = worked_examples.fig2_graph(), worked_examples.fig9c_graph()
ctx.save_figure(figures.graph_figure(G2, "Fig. 2 graph"), "fig02_graph")
fig = figures.graph_figure(G, "Fig. 3 / 9c / 15 graph"); ctx.save_figure(fig, "fig09c_graph"); fig

# %%
ebc_fig2 = worked_examples.ebc_nx(G2); G2_without_ab = G2.copy(); G2_without_ab.remove_edge("a", "b")
ebc_fig2_without_ab = worked_examples.ebc_nx(G2_without_ab)
ebc_fig9c = worked_examples.ebc_nx(G)
ls = worked_examples.element_ls_bruteforce(G, t_max=pick(profile, ci=1, quick=2, paper=3))
deg = np.array([d for _, d in G.degree()])
tab = pd.DataFrame({"node": list(G), "EBC": ebc_fig9c, "degree": deg, **{f"LS(G,{t},v)": ls[:, t] for t in range(ls.shape[1])},
                    **{f"δ^EBC(G,{t},v)": ebc.delta_ebc(deg, t, max_degree_bound=7) for t in range(ls.shape[1])}})
ctx.save_table(tab, "fig09c_sensitivities"); tab

# %%
u = worked_examples.fig9c_utilities()
p_ld = np.exp(ld_logits(u, SensitivityMatrix(np.tile([3.0, 5.0], (8, 1)), 7.5), epsilon=2)); p_ld /= p_ld.sum()
p_em = exponential_probabilities(u, epsilon=2, sensitivity=7.5)
D421 = dampen(u - 7, SensitivityMatrix(worked_examples.fig9c_element_ls(), 7.5)); p421 = np.exp(D421 - D421.max()); p421 /= p421.sum()
probs = pd.DataFrame({"node": list(G), "EM (Ex. 3.6.1)": p_em, "LD flat LS (Ex. 3.4.1)": p_ld, "D shifted −7 (Ex. 4.2.1)": D421, "shifted LD (Ex. 4.2.1)": p421})
ctx.save_table(probs, "example_probabilities")
fig = figures.example_probabilities_figure(probs, ["EM (Ex. 3.6.1)", "LD flat LS (Ex. 3.4.1)", "shifted LD (Ex. 4.2.1)"], epsilon=2)
ctx.save_figure(fig, "example_probabilities"); probs

# %%
# Ex. 4.1.1 (inversion): u(r1)=3, δ(·,0,r1)=1, δ(·,1,r1)=2; u(r2)=4, δ(·,0,r2)=4 (Δu = 4 beyond)
D411 = dampen(np.array([3.0, 4.0]), SensitivityMatrix(np.array([[1.0, 2.0, 4.0], [4.0, 4.0, 4.0]]), 4.0))
claims.fig02_fig03_fig09_fig11_fig15_worked_examples(ctx.claims, ebc_fig2=ebc_fig2, ebc_fig2_without_ab=ebc_fig2_without_ab,
                                                     ebc_fig9c=ebc_fig9c, element_ls=ls, p_ld=p_ld, p_em=p_em, dampened_ex411=D411,
                                                     p_shifted=p421)
ctx.finish()
