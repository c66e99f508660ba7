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
# # PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 6: error vs merge rate (sum, count)
# Of the erroneous values (error rate 0.3), a fraction `merge_rate` are merged into existing values; the rest are harmless renames.
#
# Data: **synthetic** (Appendix D generator, seeded; the paper's synthetic data are not published). Table 1 defaults: p = 0.1, b = 10, N = 50, S = 1000, l = 5, z = 2; numeric attribute U[0,100] (`numeric_mode='uniform'`, spec §6.3); a random query per instance (`query_mode='random'`). Error = |estimate − f(C(R))| / f(C(R)); mean over instances with an IQR band.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
fixed = {"error_rate": 0.3}

# %%
from IPython.display import display
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.privateclean import experiments as ex

ctx = NotebookContext("privateclean/fig06_merge_rate", profile=profile, output_dir=output_dir, seed=seed)
repetitions = pick(profile, ci=20, quick=600, paper=2000)   # paper: 100 random instances per point (App. D)

# %%
df = ex.sweep(ctx, "fig06_merge_rate", "merge_rate", pick(profile, ci=[0.0, 1.0], quick=[0.0, 0.25, 0.5, 0.75, 1.0], paper=[0.0, 0.25, 0.5, 0.75, 1.0]), repetitions=repetitions, fixed=fixed, seed=seed,
              multiattr=False, kind=None)
tab = ex.table(df, "merge_rate")
ctx.save_table(tab, "errors")
tab.pivot_table(index="merge_rate", columns=["agg", "method"], values=["mean", "median"]).round(3)

# %%
fig = ex.figure(tab, "merge_rate", "Fig. 6: error vs merge rate (sum, count)", x_title=None)
ctx.save_figure(fig, "fig06_merge_rate")
fig

# %% [markdown]
# ## Paper-claim check

# %%
better = ex.never_worse(tab, "merge_rate")
ctx.claims.add("Fig. 6: PrivateClean ≤ Direct at every merge rate", paper=True, ours=better, verdict="pass" if better else "differs")
sd = ex.slope(tab, "count", "direct", "merge_rate")
ctx.claims.add("Fig. 6: Direct more sensitive to merges", paper="Direct error grows with merge rate", ours=f"slope {sd:.3f}",
               verdict="pass" if sd > 0 else "differs",
               note="finding, not a bug (spec §6.3, §7 item 19): merging aliases back into existing values makes the selected clean "
                    "values hold more rows, so Direct's relative error falls with the merge rate; the merge term of the paper's §6.1 "
                    "describes the no-provenance estimator (pc_noprov) rather than Direct")
d = df[df["agg"] == "count"].pivot_table(index=["merge_rate", "instance"], columns="method", values="rel_error")
diff = (d["privateclean"] - d["pc_noprov"]).groupby(level=0).agg(["mean", "sem"])
display(diff.round(4))
okp = bool((diff["mean"] <= 2 * diff["sem"] + 1e-9).all())
ctx.claims.add("Fig. 6 (§6.1): provenance does not hurt — PrivateClean vs the no-provenance estimator (paired, per merge rate)",
               paper="PC ≤ no-prov", ours="mean paired difference " + ", ".join(f"{m:g}: {r['mean']:+.3f}±{r['sem']:.3f}" for m, r in diff.iterrows()),
               verdict="pass" if okp else "differs",
               note="pass = PC's paired excess relative error ≤ 2 SE at every merge rate. Finding when it differs (spec §6.3 expected "
                    "pc_noprov slightly worse everywhere): at low merge rates the aliases are 1-to-1 renames, which leave dirty values "
                    "with no rows in R; PrivateClean counts them in the released N, the no-provenance estimator only the cleaned values "
                    "observed in V, which adapts to the release and lowers its variance on small-count predicates (5000-instance check: "
                    "+0.061±0.006 at merge rate 0, +0.037±0.006 at 0.25, +0.012±0.006 at 0.5, 0.000±0.005 at 1). Both are unbiased "
                    "here (next claim), so the §6.1 merge term does not bite on this generator")
sg = df[(df["agg"] == "count") & df["method"].isin(["privateclean", "pc_noprov"])].assign(err=lambda d: d["estimate"] - d["truth"])
bias = sg.groupby(["method", "merge_rate"])["err"].agg(["mean", "sem"])
display(bias.round(3))
pcb = bias.loc["privateclean"]
okb = bool((pcb["mean"].abs() <= 3 * pcb["sem"]).all())
ctx.claims.add("PrivateClean's count is unbiased at every merge rate (mean signed error within 3 SE of 0)", paper="unbiased",
               ours=", ".join(f"{m:g}: {r['mean']:+.2f}±{r['sem']:.2f}" for m, r in pcb.iterrows()), verdict="pass" if okb else "differs",
               note="rows; no-provenance estimator: " + ", ".join(f"{m:g}: {r['mean']:+.2f}±{r['sem']:.2f}" for m, r in bias.loc["pc_noprov"].iterrows()))
ctx.finish()
