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
# Mohapatra, Gilad, He, Kimelfeld, *Computing Inconsistency Measures Under Differential Privacy* (SIGMOD'25; seeds 000/003). Data: Tax is the **real** BART tax table for every size up to its 40,000 rows (40,000 itself included); above it the **synthetic** BART-style stand-in takes over (the paper's 10⁶-row Tax was generated too). The two are separate series, and the largest real size is also run on the stand-in, so the switch is measured rather than hidden in one curve; the trend claims use the real series. Flight is a **synthetic** stand-in (the BTS table is not available offline). The `[data]` lines and `datasets.csv` say which.
#
# Times are wall-clock seconds of each DP measure at ε = 1 (I_MI and I_P: full Algorithm 4; I_R: Algorithm 5) on a built
# conflict graph, on a shared 2-core machine: the artifact (`compute_measures.py`) loads each graph from the pickle that
# `create_graph.py` built beforehand and times only the algorithm call, so the figures and claims use each measure's time
# **without the graph build** (`*_algo_s` = `*_s` − `build_s`, as Fig. 9; the build time is in the tables). Absolute times
# are not comparable with the paper's (Xeon, networkx); the log–log slopes and trends are. Every time is the median of 3 runs after an untimed warm-up run (JIT
# compilation is not timed: it once made 100 rows look slower than 1,000). The quick profile stops at 10⁵ rows, the stand-in above 40,000 (the paper: 10⁶; see the benchmark
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
from dpworkbench.inconsistency import claims, experiments, figures
from dpworkbench.datasets import provenance
from dpworkbench.inconsistency.datasets import load_table, dcs_for, real_rows
from dpworkbench.inconsistency.noise_injection import rnoise
from dpworkbench import plots
from tqdm.auto import tqdm
ctx = NotebookContext("inconsistency/fig08_runtime", profile=profile, output_dir=output_dir, seed=seed)
sizes = pick(profile, ci=[100, 300, 1000, 2000], quick=[100, 1000, 10000, 30000, 100000], paper=[100, 1000, 10000, 100000, 1000000])
flight_rows = pick(profile, ci=1000, quick=10000, paper=10000)
repeats = pick(profile, ci=3, quick=3, paper=3)  # every time: the median of `repeats` runs after one untimed warm-up run
# Real Tax for every size it holds (its own size too, when the sweep goes past it); the stand-in above, and at the
# largest real size as well (the overlap shows what the switch of tables does to the time)
n_real = real_rows("Tax") or 0
real_sizes = sorted({n for n in sizes if n <= n_real} | ({n_real} if n_real and max(sizes) > n_real else set()))
stand_sizes = [n for n in sizes if n > n_real]
overlap = real_sizes[-1:] if real_sizes and stand_sizes else []
plan = [("real", n) for n in real_sizes] + [("synthetic", n) for n in overlap + stand_sizes]
if stand_sizes:
    where = f"above the {n_real:,} real rows" if n_real else "no real Tax file"
    provenance.record("inconsistency.Tax", "synthetic", f"size sweep: BART-style stand-in at {overlap + stand_sizes} rows",
                      max(stand_sizes), note=f"real Tax at {real_sizes} rows; the stand-in takes over {where}",
                      stands_in_for="inconsistency.Tax (real BART tax table)")
print(f"Tax: real at {real_sizes} rows; stand-in at {overlap + stand_sizes} rows")
rows_out = []
for a in (0.005, 0.01):
    for source, n in tqdm(plan, desc=f"Tax α={a}"):
        if a == 0.01 and n >= 1000000:
            continue  # omitted in the paper too
        ds = load_table("Tax", rows=n, seed=seed, prefer=source)
        *_, (_, df) = rnoise(ds.data, dcs_for("Tax"), a, rng=seed, n_checkpoints=1)
        rows_out.append({"alpha": a, "source": ds.source, **experiments.time_all_measures(df, dcs_for("Tax"), rng=seed, repeats=repeats)})
tax = experiments.algorithm_seconds(pd.DataFrame(rows_out))  # + *_algo_s: what the paper timed, the algorithm on a built graph
ctx.save_table(tax, "tax_size_sweep")
tax

# %%
where = f"real ≤ {n_real:,} rows, stand-in above" if real_sizes and stand_sizes else ("real" if real_sizes else "stand-in")
fig = figures.fig_runtime_vs_rows(tax, f"Fig. 8: runtime vs rows, Tax ({where})")
ctx.save_figure(fig, "fig08_tax_runtime")
# the trend claims are judged on the real series when it has three sizes or more, else on the stand-in's
trend = tax[tax.source == "real"] if len(real_sizes) >= 3 else tax[tax.source != "real"]
slopes = {a: experiments.loglog_slope(trend[trend.alpha == a].rows, trend[trend.alpha == a].I_MI_algo_s) for a in (0.005, 0.01)}
edge_slope = experiments.loglog_slope(trend[trend.alpha == 0.005].rows, trend[trend.alpha == 0.005].edges)
series = f"{trend.source.iloc[0]} Tax, {trend.rows.min():,}–{trend.rows.max():,} rows"
display(pd.Series({"runtime slope α=0.005": slopes[0.005], "runtime slope α=0.01": slopes[0.01], "edges slope α=0.005": edge_slope},
                  name=series))
if overlap:
    at = tax[tax.rows == overlap[0]].set_index(["alpha", "source"])[["edges", "build_s", "I_MI_algo_s"]].unstack("source")
    display(at)  # the same size on both tables: where the stand-in takes over, what it changes
fig

# %%
ds = load_table("Flight", rows=flight_rows, seed=seed)
dcs = dcs_for("Flight")
*_, (_, fdf) = rnoise(ds.data, dcs, 0.005, rng=seed, n_checkpoints=1)
fl = experiments.algorithm_seconds(pd.DataFrame([{"dcs": k, **experiments.time_all_measures(fdf, dcs[:k], rng=seed, repeats=repeats)}
                                                 for k in tqdm(range(1, len(dcs) + 1), desc="Flight #DCs")]))
ctx.save_table(fl, "flight_dc_sweep")
fig2 = plots.line_with_band(fl.melt(id_vars="dcs", value_vars=["I_MI_algo_s", "I_P_algo_s", "I_R_algo_s"], var_name="measure",
                                    value_name="seconds (without the graph build)").assign(measure=lambda d: d.measure.str.removesuffix("_algo_s")),
                            "dcs", "seconds (without the graph build)", color="measure", band=None, log_y=True, title=f"Fig. 8 (right): runtime vs #DCs, Flight (synthetic, {flight_rows} rows)")
ctx.save_figure(fig2, "fig08_flight_dcs")
display(fl[["dcs", "edges", "build_s", "I_MI_algo_s", "I_P_algo_s", "I_R_algo_s", "I_MI_theta"]])
fig2

# %%
claims.fig08_runtime(ctx.claims, tax_slope=slopes[0.005], edge_slope=edge_slope, flight=fl, tax_series=series)
ctx.finish()
