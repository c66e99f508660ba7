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
# # Figs. 23–25: private ID3 (GlobalDiffPID3 = EM, LocalDiffPID3 = LD, ShiftedLocalDiffPID3 = SLD)
# V. A. E. de Farias, *Local Dampening: Differential Privacy for Non-numeric Queries via Local Sensitivity*, PhD thesis, UFC 2021 (PVLDB 14(4) 2020), Ch. 7, Figs. 23 (NLTCS), 24 (ACS), 25 (Adult). Data: real NLTCS / ACS / Adult when available (class: NLTCS column 13, ACS column 10 —
# not stated in the thesis, taken from the author's later code), else seeded stand-ins. Add/remove neighbours; ΔIG = log2(N+1)+1/ln 2 with N the training size;
# corrected Candidates (no `a < τ` guard, closed form), stopping rule √2/ε, budget B/(2(d+1)); continuous Adult attributes in 10 bins from public bounds.
# ci subsamples rows and uses 2 folds; quick and paper use all rows and the thesis' 10-fold CV (paper repeats it 10 times; printed below).

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
depths = [2, 5]

# %%
from IPython.display import display
import numpy as np, pandas as pd
from dpworkbench import datasets
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.dampening import experiments, figures, id3
ctx = NotebookContext("dampening/fig23_fig24_fig25_id3", profile=profile, output_dir=output_dir, seed=seed)
eps_grid = pick(profile, ci=[0.05, 1.0], quick=[0.01, 0.05, 0.1, 0.5, 1.0, 2.0], paper=[0.01, 0.05, 0.1, 0.5, 1.0, 2.0])
folds = pick(profile, ci=2, quick=10, paper=10); reps = pick(profile, ci=1, quick=1, paper=10)
max_rows = pick(profile, ci=3000, quick=None, paper=None)
if profile == "ci":
    depths = [2]
print(f"{folds}-fold CV × {reps} repetition(s), " + ("all rows" if max_rows is None else f"rows ≤ {max_rows}"))

# %%
res = {}
for name, fig_id in (("nltcs", "fig23"), ("acs", "fig24"), ("adult", "fig25")):
    ds = datasets.load(f"dampening/{name}", seed=seed)
    df = experiments.id3_curves(ds.data, eps_grid, depths, folds=folds, repetitions=reps, max_rows=max_rows, seed=seed)
    df["dataset"], df["source"] = name, ds.source
    res[name] = (ds, df)
    fig = figures.id3_figure(df, f"{fig_id}: {name.upper()} ({ds.source})"); ctx.save_figure(fig, f"{fig_id}_{name}"); display(fig)
ctx.save_table(pd.concat([v[1] for v in res.values()]), "id3_accuracy")

# %% [markdown]
# ## Inversion diagnostic at the root (IG order vs D order vs SLD order)

# %%
ds = res["acs"][0]
rk = id3.root_ranking(ds.data["X"][: (max_rows or len(ds.data["y"]))], ds.data["y"][: (max_rows or len(ds.data["y"]))], ds.data["domains"], 2)
ctx.save_table(rk, "acs_root_ranking"); rk.head(6)

# %%
paper = {"nltcs": ("Local vs Global: up to 5%", 0.05, "Local"), "acs": ("Shifted vs Global: up to 8%", 0.08, "Shifted"), "adult": ("Shifted vs Global: up to 4%", 0.04, "Shifted")}
for name, (txt, val, meth) in paper.items():
    ds, df = res[name]
    g = experiments.id3_gain(df, meth)
    pv = df.pivot_table(index=["depth", "epsilon"], columns="method", values="accuracy"); at = (pv[meth] - pv["Global"]).idxmax()
    majority = np.bincount(ds.data["y"]).max() / len(ds.data["y"])
    wins = int((pv[meth] >= pv["Global"]).sum())
    note = (f"{ds.source} data, max gain over the (depth, ε) grid, at depth {at[0]}, B = {at[1]:g}: {meth} {pv.loc[at, meth]:.3f} vs Global "
            f"{pv.loc[at, 'Global']:.3f} (majority class {majority:.3f}); {meth} ≥ Global at {wins} of {len(pv)} grid points; "
            f"{folds}-fold CV × {reps} repetition(s), {'all rows' if max_rows is None else f'rows ≤ {max_rows}'}")
    common = ("The size of the gap is set by where EM's selection becomes sharp: ε per query = B/(2(d+1)) against ΔIG = log2(N+1)+1.44, "
              "while LD/SLD divide by LS^IG (at t = 0: 1.6–4 bits on NLTCS, 1.8–15.7 on ACS, against ΔIG ≈ 16–17), so the largest gap sits "
              "at the B where EM is still nearly uniform and depends "
              "on the ε grid, the training size N and the data version")
    if name == "nltcs":
        note += ("; " + common + ". The class attribute (column 13) is not stated in the thesis (taken from the author's later code); with "
                 "another class column the gap differs. Qualitatively as in the thesis: Local improves on Global at almost every ε")
    elif name == "acs":
        note += ("; " + common + "; the class attribute (column 10) is from the author's later code, not the thesis. "
                 "The qualitative ACS finding (inversion at depth 2) is checked below")
    # "up to X%" is a claim about the best grid point: pass when our largest gain reaches X within 1 point (CV noise at these sizes
    # is a few tenths of a point); a larger gain than the thesis' also passes
    ctx.claims.add(f"{name.upper()}: {txt}", paper=val, ours=g, verdict="pass" if g >= val - 0.01 else "differs",
                   note="verdict: pass iff our max gain ≥ the thesis' 'up to' value − 1 point; " + note)
acs = res["acs"][1]; d2 = acs[(acs.depth == min(depths)) & (acs.epsilon == max(eps_grid))].set_index("method").accuracy
ctx.claims.add(f"ACS depth {min(depths)}: inversion — LocalDiffPID3 below GlobalDiffPID3 at large B", paper="Local < Global",
               ours=f"Local {d2['Local']:.3f}, Shifted {d2['Shifted']:.3f}, Global {d2['Global']:.3f} at B = {max(eps_grid)}",
               verdict="pass" if d2["Local"] < d2["Global"] else "differs", note="see the root ranking table (IG order vs D order)")
ctx.finish()
