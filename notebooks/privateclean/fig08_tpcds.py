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
# # PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 8: TPC-DS customer_address — constraint-based cleaning (FD and MD)
# (a) corrupt ca_state, repair with the FD (city, county) → state (majority vote per group, stand-in for Bohannon et al.); (b) append one character to ca_country, repair with the MD (edit distance ≤ 1). GRR p = 0.1 on all four attributes. Error: mean relative error of COUNT(*) GROUP BY over groups (NULL included), against the **uncorrupted ground truth**.
#
# Data: **TPC-DS `customer_address`** generated offline by DuckDB's tpcds extension (`duckdb-extension-tpcds` wheel, `CALL dsdgen(sf=…)`, cached as Parquet; quick: sf = 0.1 → 5 000 rows, paper: sf = 1 → 50 000 rows), canonicalised by majority vote so the FD (city, county) → state holds before corruption. ci (and any machine without the extension) uses the seeded synthetic stand-in (51 skewed states, ~2000 (city, county) pairs, 3 % NULL countries). The cell below prints which was used; the claims' notes repeat it.
#
# **Reading the panels.** Corruptions are counts of rows (quick: of 5 000 rows, 0–10 %; paper: of 50 000). (b) at 0 corruptions the released country domain is {United States, NULL} (N = 2), so GRR moves ~5 % of the US rows into the small NULL group and Direct's relative error on that group is huge; once corrupted variants exist the domain has ~27 values, most GRR draws land on variants that the MD merges back, and Direct's bias almost vanishes. (a) on the real table (≈0.9 rows per (city, county) group) the majority-vote FD repair cannot undo corruption or randomisation in singleton groups, so both errors grow with the corruptions; PrivateClean stays well below Direct.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
fixed = {'source': None}

# %%
from IPython.display import display
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.privateclean import experiments as ex

ctx = NotebookContext("privateclean/fig08_tpcds", profile=profile, output_dir=output_dir, seed=seed)
repetitions = pick(profile, ci=2, quick=3, paper=10)   # paper: 100 random instances per point (App. D)
if fixed.get('source') is None:
    fixed = {**fixed, **pick(profile, ci={'source': 'synthetic', 'S': 5000}, quick={'source': 'real', 'sf': 0.1}, paper={'source': 'real', 'sf': 1.0})}
source = ex.data_source('tpcds', fixed)
print('data source:', source, fixed)

# %%
df = ex.sweep(ctx, "fig08_tpcds", "corruptions", pick(profile, ci=[0, 500], quick=[0, 50, 100, 250, 500], paper=[0, 500, 1000, 2000, 5000]), repetitions=repetitions, fixed=fixed, seed=seed,
              multiattr=False, kind='tpcds')
tab = ex.table(df, "corruptions")
ctx.save_table(tab, "errors")
tab.pivot_table(index="corruptions", columns=["agg", "method"], values=["mean", "median"]).round(3)

# %%
fig = ex.figure(tab, "corruptions", "Fig. 8: TPC-DS customer_address — constraint-based cleaning (FD and MD)", x_title=None)
ctx.save_figure(fig, "fig08_tpcds")
fig

# %% [markdown]
# ## Paper-claim check

# %%
top = tab.corruptions.max()
a_pc = ex.value(tab, "a_state_fd", "privateclean", "corruptions", top); a_d = ex.value(tab, "a_state_fd", "direct", "corruptions", top)
b_pc = ex.value(tab, "b_country_md", "privateclean", "corruptions", top); b_d = ex.value(tab, "b_country_md", "direct", "corruptions", top)
note = f"data: customer_address ({source}), {fixed.get('S') or 'all'} rows"
for lab, panel, pc_, d_ in (("8a", "a_state_fd", a_pc, a_d), ("8b", "b_country_md", b_pc, b_d)):
    m_, se_ = ex.paired_difference(df, panel, "corruptions", top)
    ctx.claims.add(f"Fig. {lab}: PrivateClean beats Direct under {'FD' if lab == '8a' else 'MD'} repair (most corruptions)", paper=True,
                   ours=f"PC {pc_:.3f} vs Direct {d_:.3f} (paired PC − Direct {m_:+.3f} ± {se_:.3f} SE)",
                   verdict="pass" if m_ + 2 * (se_ if se_ == se_ else 0.0) < 0 else "differs",
                   note=note + "; pass = PC better by more than 2 SE of the paired difference. In (b), once corrupted variants of the "
                               "country exist, GRR draws mostly land on variants that the MD merges back, Direct's bias almost vanishes "
                               "and the two are equal within noise (see the panel note)")
sa = ex.slope(tab, "a_state_fd", "privateclean", "corruptions") * top; sb = ex.slope(tab, "b_country_md", "privateclean", "corruptions") * top
ctx.claims.add("Fig. 8: PrivateClean's error grows with corruptions under the FD repair (a) but not under the MD repair (b)",
               paper="(a) grows, (b) flat", ours=f"rise over the grid: (a) {sa:+.3f}, (b) {sb:+.3f}",
               verdict="pass" if sa > 0 and abs(sb) < max(sa, 0.01) else "differs",
               note=note + "; the majority-vote FD repair is fallible (errors in singleton (city, county) groups stay), the MD repair is exact")
ctx.claims.add("Fig. 8: PrivateClean's advantage larger in (b) than in (a)", paper="gap(b) > gap(a)", ours=f"{b_d - b_pc:.3f} vs {a_d - a_pc:.3f}",
               verdict="pass" if b_d - b_pc > a_d - a_pc else "differs",
               note=note + ". Finding, not a bug: once the country is corrupted into ~27 variants that the MD merges back, GRR draws "
                           "mostly land on variants of 'United States' and are merged back too, so Direct's bias on the 97% group shrinks; "
                           "with (city, county) groups of about one row each, GRR on city/county leaves the FD repair unable to fix randomised "
                           "states, so Direct's state counts stay biased")
ctx.finish()
