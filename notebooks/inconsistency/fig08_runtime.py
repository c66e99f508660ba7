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
# # Fig. 8 — runtime: Tax size sweep (α = 0.5 % and 1 %) and Flight number of DCs (1 … 13)
# Mohapatra, Gilad, He, Kimelfeld, *Computing Inconsistency Measures Under Differential Privacy* (SIGMOD'25; seeds 000/003). Data: Tax is the **real** BART tax table (40,000 rows) when every size of the sweep fits in it, else the **synthetic** BART-style stand-in for the whole sweep (a runtime curve must not switch tables; the paper's 10⁶-row Tax was generated too); Flight is a **synthetic** stand-in (the BTS table is not available offline). The `[data]` lines say which.
#
# Times are wall-clock seconds for graph construction plus each DP measure at ε = 1 (I_MI and I_P: full Algorithm 4;
# I_R: Algorithm 5), on a shared 2-core machine. Absolute times are not comparable with the paper's (Xeon, networkx,
# pickles); the log–log slopes and trends are. Every time is the median of 3 runs after an untimed warm-up run (JIT
# compilation is not timed: it once made 100 rows look slower than 1,000). The quick profile stops at 10⁵ rows (the paper: 10⁶; see the benchmark
# `benchmarks/bench_inconsistency_scale.py` with `DPWB_BENCH_TAX_ROWS=1000000`).

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...

# %%
from IPython.display import display
import pandas as pd
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.inconsistency import claims, experiments
from dpworkbench.inconsistency.datasets import load_table, dcs_for, sweep_source
from dpworkbench.inconsistency.noise_injection import rnoise
from dpworkbench import plots
from tqdm.auto import tqdm
ctx = NotebookContext("inconsistency/fig08_runtime", profile=profile, output_dir=output_dir, seed=seed)
sizes = pick(profile, ci=[100, 300, 1000, 2000], quick=[100, 1000, 10000, 30000, 100000], paper=[100, 1000, 10000, 100000, 1000000])
flight_rows = pick(profile, ci=1000, quick=10000, paper=10000)
repeats = pick(profile, ci=3, quick=3, paper=3)  # every time: the median of `repeats` runs after one untimed warm-up run
rows_out = []
tax_source = sweep_source("Tax", sizes)
for a in (0.005, 0.01):
    for n in tqdm(sizes, desc=f"Tax α={a}"):
        if a == 0.01 and n >= 1000000:
            continue  # omitted in the paper too
        ds = load_table("Tax", rows=n, seed=seed, prefer=tax_source)
        *_, (_, df) = rnoise(ds.data, dcs_for("Tax"), a, rng=seed, n_checkpoints=1)
        rows_out.append({"alpha": a, **experiments.time_all_measures(df, dcs_for("Tax"), rng=seed, repeats=repeats)})
tax = pd.DataFrame(rows_out)
ctx.save_table(tax, "tax_size_sweep")
tax

# %%
long = tax.melt(id_vars=["alpha", "rows"], value_vars=["I_MI_s", "I_P_s", "I_R_s"], var_name="measure", value_name="seconds")
long["series"] = long.measure.str[:-2] + ", α=" + long.alpha.astype(str)
fig = plots.line_with_band(long, "rows", "seconds", color="series", band=None, log_x=True, log_y=True,
                           title=f"Fig. 8: runtime vs rows, Tax ({tax_source})")
ctx.save_figure(fig, "fig08_tax_runtime")
slopes = {a: experiments.loglog_slope(tax[tax.alpha == a].rows, tax[tax.alpha == a].I_MI_s) for a in (0.005, 0.01)}
edge_slope = experiments.loglog_slope(tax[tax.alpha == 0.005].rows, tax[tax.alpha == 0.005].edges)
display(pd.Series({"runtime slope α=0.005": slopes[0.005], "runtime slope α=0.01": slopes[0.01], "edges slope α=0.005": edge_slope}))
fig

# %%
ds = load_table("Flight", rows=flight_rows, seed=seed)
dcs = dcs_for("Flight")
*_, (_, fdf) = rnoise(ds.data, dcs, 0.005, rng=seed, n_checkpoints=1)
fl = pd.DataFrame([{"dcs": k, **experiments.time_all_measures(fdf, dcs[:k], rng=seed, repeats=repeats)} for k in tqdm(range(1, len(dcs) + 1), desc="Flight #DCs")])
ctx.save_table(fl, "flight_dc_sweep")
fig2 = plots.line_with_band(fl.melt(id_vars="dcs", value_vars=["I_MI_s", "I_P_s", "I_R_s"], var_name="measure", value_name="seconds"),
                            "dcs", "seconds", color="measure", band=None, log_y=True, title=f"Fig. 8 (right): runtime vs #DCs, Flight (synthetic, {flight_rows} rows)")
ctx.save_figure(fig2, "fig08_flight_dcs")
display(fl[["dcs", "edges", "build_s", "I_MI_s", "I_P_s", "I_R_s", "I_MI_theta"]])
fig2

# %%
claims.fig08_runtime(ctx.claims, tax_slope=slopes[0.005], edge_slope=edge_slope, flight=fl)
ctx.finish()
