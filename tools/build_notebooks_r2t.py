"""Writes notebooks/r2t/*.ipynb (clean, no outputs). Run: python tools/build_notebooks_r2t.py"""

from pathlib import Path

from dpworkbench.experiments.nbtools import write_notebook

OUT = Path(__file__).resolve().parent.parent / "notebooks" / "r2t"

PARAMS = '''profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...'''

IMPORTS = '''from IPython.display import display, Markdown
import numpy as np
import pandas as pd
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.r2t import experiments as X, figures as F, reference as REF
'''

# ---------------------------------------------------------------------------------
write_notebook(OUT / "fig02_worked_example.ipynb", [
    ("md", """# R2T and OPT² — the worked example (Fig. 2; Examples 5.2, 6.3, 6.7)
Paper: Dong, Fang, Yi, Tao, Machanavajjhala, *Instance-optimal Truncation for Differentially Private Query Evaluation with Foreign Keys* (TODS 2024). Data: the deterministic Fig. 2 graph (1000 triangles, 1000 4-cliques, 100 8-stars, 10 16-stars, one 32-star; N = 8103 nodes) — no real or random data.

Edge counting under node-DP, GS_Q = 2^10, β = 0.1, ε = 1. We recompute Q(I,τ) (LP and max-flow), the OPT² proxy F̂(I,τ) (HiGHS) and the exact F(I,τ) (ILP per component), and replay the paper's scripted noise (unit Laplace values −1, +1, −1, …). **Example 6.3 of the paper is numerically wrong** (spec 6.1 #8): with the correct F, ExpOPT² picks τ̃ = 8 (not 16); both versions are shown, the paper's labelled as such."""),
    ("params", PARAMS + '''
noise_mode = "scripted"   # scripted | random
epsilon = 1.0'''),
    ("code", IMPORTS + '''from dpworkbench.r2t import example as EX, r2t, opt2, tau_grid
from dpworkbench.r2t.mechanisms import r2t_samples, opt2_cache, opt2_samples
ctx = NotebookContext("r2t/fig02_worked_example", profile=profile, output_dir=output_dir, seed=seed)
info = EX.fig2_joininfo()
print("data: Fig. 2 fixture (deterministic);", info.stats())'''),
    ("md", "## Q(I,τ), F̂(I,τ) and F(I,τ) against the paper"),
    ("code", '''table = EX.value_table(info)
ctx.save_table(table, "values_per_tau")
table'''),
    ("md", "## The three mechanisms with the paper's scripted noise"),
    ("code", '''runs = EX.scripted_runs(info)
res_r2t, res_opt2 = runs["r2t"], runs["opt2"]
fig = F.race_figure(res_r2t, info.answer, info.DS, title="Example 5.2 (scripted noise)")
ctx.save_figure(fig, "fig02_r2t_race")
fig'''),
    ("code", '''fig = F.opt2_figure(res_opt2, info.n, title="Example 6.7: OPT² (scripted noise)")
ctx.save_figure(fig, "fig02_opt2_svt")
summary = pd.DataFrame([
    {"mechanism": "R2T (Ex. 5.2)", "paper": 9440, "ours": res_r2t.value, "chosen τ": res_r2t.winner_tau},
    {"mechanism": "OPT² (Ex. 6.7)", "paper": 9912, "ours": res_opt2.value, "chosen τ": res_opt2.tau},
    {"mechanism": "ExpOPT², paper's printed F (Ex. 6.3, wrong)", "paper": 10024, "ours": runs["exp_opt2_printed"].value, "chosen τ": runs["exp_opt2_printed"].tau},
    {"mechanism": "ExpOPT², corrected F", "paper": "—", "ours": runs["exp_opt2_correct"].value, "chosen τ": runs["exp_opt2_correct"].tau},
])
display(summary)
fig'''),
    ("md", "## With random noise (seeded; research mode, not a release)"),
    ("code", '''reps = pick(profile, ci=2000, quick=20000, paper=100000)
gen = np.random.default_rng(seed)
taus = tau_grid(EX.GS)
from dpworkbench.r2t import Truncation, FHat
tr = Truncation(info)
vals = np.array([tr.value(t) for t in taus])
r2t_out = r2t_samples(vals, taus, epsilon=epsilon, beta=EX.BETA, size=reps, rng=gen)
g, q = opt2_cache(info, FHat(info, decompose=True), tr)
opt_out, opt_tau = opt2_samples(g, q, epsilon=epsilon, beta=EX.BETA, size=reps, rng=gen)
import plotly.graph_objects as go
fig = go.Figure()
fig.add_trace(go.Histogram(x=r2t_out, name="R2T", opacity=0.6, nbinsx=80))
fig.add_trace(go.Histogram(x=opt_out, name="OPT²", opacity=0.6, nbinsx=80))
fig.add_vline(x=info.answer, line=dict(color="black", dash="dash"), annotation_text="Q(I) = 9992")
fig.update_layout(barmode="overlay", title=f"Output distributions over {reps} seeded runs (ε = {epsilon})", template="plotly_white")
ctx.save_figure(fig, "fig02_output_histograms")
fig'''),
    ("code", '''for tau in EX.TAUS:
    row = table[table.tau == tau].iloc[0]
    ctx.claims.add(f"Q(I,τ={tau}) by LP truncation", paper=EX.Q_TAU[tau], ours=row["Q(I,τ) LP"], atol=1e-6)
    ctx.claims.add(f"F̂(I,τ={tau}) (OPT² LP proxy, spec 1.5)", paper=EX.FHAT_TAU[tau], ours=row["F̂(I,τ)"], atol=1e-3)
    ctx.claims.add(f"F(I,τ={tau}) exact vs Ex. 6.3 as printed", paper=EX.F_TAU_PRINTED[tau], ours=row["F(I,τ) exact"],
                   verdict="pass" if row["F(I,τ) exact"] == EX.F_TAU_PRINTED[tau] else "differs",
                   note=f"paper's Ex. 6.3 is wrong (spec 6.1 #8); corrected value {EX.F_TAU_CORRECT[tau]}")
ctx.claims.add("R2T output with scripted noise (Ex. 5.2)", paper=9440, ours=round(res_r2t.value), atol=0.5)
ctx.claims.add("OPT² τ̃ with scripted noise (Ex. 6.7)", paper=8, ours=res_opt2.tau, atol=0)
ctx.claims.add("OPT² output with scripted noise (Ex. 6.7)", paper=9912, ours=res_opt2.value, atol=1e-6)
ctx.claims.add("ExpOPT² τ̃ (Ex. 6.3, paper's printed F)", paper=16, ours=runs["exp_opt2_printed"].tau, atol=0,
               note="reproduces the paper's arithmetic with its wrong F values")
ctx.claims.add("ExpOPT² τ̃ with the correct F", paper=16, ours=runs["exp_opt2_correct"].tau, verdict="differs",
               note="correct F gives τ̃ = 8 → 9912 (spec 2.8); the paper's 16 → 10024 rests on the wrong F")
ctx.claims.add("R2T never overestimates (fraction ≤ Q over seeded runs, β=0.1)", paper="≥ 0.9", ours=float(np.mean(r2t_out <= info.answer)),
               verdict="pass" if np.mean(r2t_out <= info.answer) >= 0.9 else "differs")
ctx.finish()'''),
])

# ---------------------------------------------------------------------------------
write_notebook(OUT / "tab01_datasets.ipynb", [
    ("md", """# Table 1 — graph datasets (what we used)
Paper: R2T/OPT² (TODS 2024), Table 1 (SNAP: Deezer, Amazon1, Amazon2, RoadnetPA, RoadnetCA). Data: the SNAP graphs of the paper are **not available offline**, so every row is a **seeded synthetic stand-in** (spec 5.3: degree-capped Holme–Kim for social graphs, thinned grid for road networks), plus two **real** SNAP graphs we do have (Email-Enron, GitHub; BFS-subsampled in the ci/quick profiles). The `source` column says which.

Stand-ins are far smaller than the originals; results are compared by error/DS (scale free), not absolute error. A user with the SNAP files can load them with `dpworkbench.r2t.datasets.load_snap`."""),
    ("params", PARAMS),
    ("code", IMPORTS + '''from dpworkbench.r2t import datasets as DS, patterns as P
ctx = NotebookContext("r2t/tab01_datasets", profile=profile, output_dir=output_dir, seed=seed)
n_social = pick(profile, ci=400, quick=5000, paper=50000)
n_road = pick(profile, ci=600, quick=20000, paper=200000)
n_real = pick(profile, ci=300, quick=8000, paper=None)'''),
    ("code", '''rows, loaded = [], {}
for name, (label, D, kind) in DS.GRAPHS.items():
    n = n_real if name in ("enron", "github") else (n_road if kind == "road" else n_social)
    ds, D = DS.load_graph(name, n=n, seed=seed)
    loaded[name] = ds
    g = ds.data
    row = {"dataset": name, "paper counterpart": label, "source": ds.source, "nodes": g.n, "edges": g.num_edges,
           "max degree (= DS of Q1-)": g.max_degree, "degree bound D": D}
    if name in REF.TABLE1_MAX_DEGREE:
        pn, pe, pd_ = DS.PAPER_TABLE1[name]
        row.update({"paper nodes": pn, "paper edges": pe, "paper max degree": pd_})
    row["triangles"] = P.count(g, "triangle")
    row["length-2 paths"] = P.count(g, "path2")
    rows.append(row)
table1 = pd.DataFrame(rows)
ctx.save_table(table1, "table1")
table1'''),
    ("code", '''import plotly.graph_objects as go
fig = go.Figure()
for name, ds in loaded.items():
    deg = ds.data.degrees
    vals, cnt = np.unique(deg[deg > 0], return_counts=True)
    fig.add_trace(go.Scatter(x=vals, y=cnt, mode="markers", name=f"{name} ({ds.source})"))
fig.update_xaxes(type="log", title="degree"); fig.update_yaxes(type="log", title="nodes")
fig.update_layout(title="Degree distributions of the datasets used", template="plotly_white")
ctx.save_figure(fig, "tab01_degree_distributions")
fig'''),
    ("code", '''for _, r in table1.iterrows():
    ctx.claims.add(f"{r.dataset}: max degree ≤ degree bound D (utility assumption, spec 2.2)", paper=f"≤ {r['degree bound D']}",
                   ours=int(r["max degree (= DS of Q1-)"]), verdict="pass" if r["max degree (= DS of Q1-)"] <= r["degree bound D"] else "differs")
    if r.dataset in REF.TABLE1_MAX_DEGREE:
        ctx.claims.add(f"{r.dataset}: stand-in vs paper node count", paper=r["paper nodes"], ours=int(r.nodes), verdict="not-comparable",
                       note="synthetic stand-in at laptop scale")
road = table1[table1.dataset.isin(["roadnet_pa", "roadnet_ca"])]
ctx.claims.add("road stand-ins: max degree in the paper's range (9–12; D = 16)", paper="≤ 16", ours=int(road["max degree (= DS of Q1-)"].max()),
               verdict="pass" if road["max degree (= DS of Q1-)"].max() <= 16 else "differs")
ctx.finish()'''),
])

# ---------------------------------------------------------------------------------
write_notebook(OUT / "tab02_graph_queries.ipynb", [
    ("md", """# Table 2 — graph pattern counting under node-DP: R2T, OPT², LP, NT, SDE, RM
Paper: R2T/OPT² (TODS 2024), Table 2 (ε = 0.8, β = 0.1; relative error % and time). Data: **synthetic stand-ins** of the five SNAP graphs (spec 5.3) and the **real** Email-Enron and GitHub graphs (BFS-subsampled in ci/quick). Queries Q1- (edges), Q2- (length-2 paths), Q△ (triangles), Q□ (4-cycles); GS = D, D², D², D³.

Relative errors on small stand-ins are larger than the paper's (Q is 50–100× smaller); the scale-free comparison is **error / DS** (spec 5.3). "OT" marks runs over this profile's size/time limits (the paper's 6 h limit becomes a per-LP limit). RM is run on toy-sized instances only. Times = extraction + one uncached mechanism run (HiGHS/max-flow here, CPLEX in the paper; not comparable in absolute terms)."""),
    ("params", PARAMS + '''
epsilon = 0.8
beta = 0.1'''),
    ("code", IMPORTS + '''ctx = NotebookContext("r2t/tab02_graph_queries", profile=profile, output_dir=output_dir, seed=seed)
datasets = pick(profile, ci=["roadnet_pa", "amazon2"], quick=["deezer", "amazon1", "amazon2", "roadnet_pa", "roadnet_ca", "enron", "github"],
                paper=["deezer", "amazon1", "amazon2", "roadnet_pa", "roadnet_ca", "enron", "github"])
sizes = pick(profile, ci={"social": 300, "road": 500, "real": 300}, quick={"social": 1000, "road": 8000, "real": 400},
             paper={"social": 50000, "road": 200000, "real": None})
queries = ["edge", "path2", "triangle", "rectangle"]
repetitions = pick(profile, ci=3, quick=6, paper=20)
limits = pick(profile, ci={"max_m": 50000, "opt2_max_m": 5000, "rm_max_m": 300, "lp_time_limit": 10, "sde_max_edges": 20000},
              quick={"max_m": 60000, "opt2_max_m": 15000, "rm_max_m": 600, "lp_time_limit": 20, "sde_max_edges": 50000},
              paper={"max_m": 10**9, "opt2_max_m": 10**7, "rm_max_m": 3000, "lp_time_limit": 21600, "sde_max_edges": 10**8})
from dpworkbench.r2t.datasets import sample_size
instances = [X.graph_instance(d, q, n=sample_size(d, sizes), seed=seed, max_m=limits["max_m"]) for d in datasets for q in queries]
display(pd.DataFrame([{"dataset": i.dataset, "source": i.source, "query": i.query, "join results M": i.oversize or i.info.m, "Q(I)": i.answer, "DS": i.ds, "GS": i.gs} for i in instances]))'''),
    ("code", '''runs, timings = X.evaluate(instances, X.MECHANISMS_GRAPH, [epsilon], repetitions=repetitions, beta=beta, seed=seed, limits=limits)
summary = X.summarize_runs(runs).merge(timings[["dataset", "query", "mechanism", "seconds"]], on=["dataset", "query", "mechanism"], how="left")
ctx.save_table(runs, "table2_runs"); ctx.save_table(summary, "table2_summary")
wide = summary.pivot_table(index=["query", "mechanism"], columns="dataset", values="rel_error_pct", aggfunc="first")
wide'''),
    ("md", "### Paper's Table 2 (relative error %, ε = 0.8), for reference"),
    ("code", '''paper_rows = [{"query": q, "mechanism": m, **{d: v for d, v in zip(REF.DATASETS, vals)}}
              for q, mm in REF.TABLE2_REL_ERR.items() for m, vals in mm.items()]
paper_table = pd.DataFrame(paper_rows)
ctx.save_table(paper_table, "table2_paper")
paper_table'''),
    ("code", '''fig = F.grouped_bars(summary[summary.status == "ok"], value="error_over_DS", title=f"Table 2 (ε={epsilon}): error / DS per mechanism (log)", y_title="error / DS")
ctx.save_figure(fig, "tab02_error_over_ds")
fig'''),
    ("code", '''fig = F.grouped_bars(summary[summary.status == "ok"], value="rel_error_pct", title=f"Table 2 (ε={epsilon}): relative error % (log)", y_title="relative error %")
ctx.save_figure(fig, "tab02_relative_error")
display(summary.pivot_table(index=["query", "mechanism"], columns="dataset", values="seconds", aggfunc="first"))
fig'''),
    ("code", '''ok = summary[summary.status == "ok"].set_index(["dataset", "query", "mechanism"])["error"]
pairs = [(d, q) for d in datasets for q in queries if (d, q, "R2T") in ok.index and (d, q, "OPT2") in ok.index]
opt_better = np.mean([ok[(d, q, "OPT2")] <= ok[(d, q, "R2T")] for d, q in pairs]) if pairs else float("nan")
ctx.claims.add("OPT² error ≤ R2T error (share of finished cases)", paper=1.0, ours=opt_better, atol=0.25,
               note="paper: OPT² always better when it finishes; we allow noise on small stand-ins")
beats = [ok[(d, q, "R2T")] < min(ok.get((d, q, "NT"), np.inf), ok.get((d, q, "SDE"), np.inf)) for d in datasets for q in queries if (d, q, "R2T") in ok.index]
ctx.claims.add("R2T beats NT and SDE in every case", paper=1.0, ours=float(np.mean(beats)), atol=0)
for k, d in enumerate(REF.DATASETS):
    if (d, "edge", "R2T") in ok.index:
        ours = summary[(summary.dataset == d) & (summary["query"] == "edge") & (summary.mechanism == "R2T")].error_over_DS.iloc[0]
        ctx.claims.add(f"Q1- R2T error/DS on {d} stand-in (scale-free, spec 5.3)", paper=REF.ERR_OVER_DS_EDGE["R2T"][k], ours=ours, rtol=1.0,
                       note="within a factor 2 of the paper's error/DS")
    if (d, "edge", "OPT2") in ok.index:
        ours = summary[(summary.dataset == d) & (summary["query"] == "edge") & (summary.mechanism == "OPT2")].error_over_DS.iloc[0]
        ctx.claims.add(f"Q1- OPT² error/DS on {d} stand-in", paper=REF.ERR_OVER_DS_EDGE["OPT2"][k], ours=ours, rtol=1.0,
                       note="within a factor 2 of the paper's error/DS")
nt_bad = summary[(summary.mechanism == "NT") & (summary.status == "ok")]
ctx.claims.add("NT error exceeds the query result (relative error > 100%) in most cases", paper="> 50% of cases",
               ours=float(np.mean(nt_bad.rel_error_pct > 100)), verdict="pass" if np.mean(nt_bad.rel_error_pct > 100) > 0.5 else "differs")
ctx.finish()'''),
])

# ---------------------------------------------------------------------------------
write_notebook(OUT / "fig07_epsilon_sweep.ipynb", [
    ("md", """# Figure 7 — error vs ε on RoadnetPA (4 panels: edges, length-2 paths, triangles, 4-cycles)
Paper: R2T/OPT² (TODS 2024), Fig. 7 (ε from 0.1 to 12.8, doubling; log–log; dashed line = query result). Data: **synthetic RoadnetPA stand-in** (thinned grid, spec 5.3; the SNAP graph is not available offline). The paper's RoadnetPA curves from the authors' repository are overlaid (dashed, same colours); its graph is ~100× larger, but R2T/OPT²/RM errors scale with DS, which is similar (max degree 9 vs our ≤ 8), so the absolute levels are roughly comparable, while NT/SDE/LP levels are not.

Mechanisms: R2T, OPT², LP (random τ), NT, SDE, and RM on triangles/rectangles (toy sizes only)."""),
    ("params", PARAMS + '''
beta = 0.1'''),
    ("code", IMPORTS + '''ctx = NotebookContext("r2t/fig07_epsilon_sweep", profile=profile, output_dir=output_dir, seed=seed)
n = pick(profile, ci=600, quick=6000, paper=1_000_000)
eps_grid = pick(profile, ci=[0.1, 0.8, 12.8], quick=list(REF.FIG7_EPS), paper=list(REF.FIG7_EPS))
repetitions = pick(profile, ci=3, quick=10, paper=20)
limits = pick(profile, ci={"opt2_max_m": 4000, "rm_max_m": 250, "lp_time_limit": 10, "sde_max_edges": 20000},
              quick={"opt2_max_m": 20000, "rm_max_m": 400, "lp_time_limit": 20, "sde_max_edges": 100000},
              paper={"opt2_max_m": 10**7, "rm_max_m": 3000, "lp_time_limit": 21600, "sde_max_edges": 10**8})
instances = [X.graph_instance("roadnet_pa", q, n=n, seed=seed) for q in ["edge", "path2", "triangle", "rectangle"]]
print("data:", instances[0].source, "RoadnetPA stand-in;", [(i.query, i.info.m, i.ds) for i in instances])'''),
    ("code", '''runs = []
for inst in instances:
    mechs = ["R2T", "OPT2", "LP", "NT", "SDE"] + (["RM"] if inst.query in ("triangle", "rectangle") else [])
    r, _ = X.evaluate([inst], mechs, eps_grid, repetitions=repetitions, beta=beta, seed=seed, limits=limits, timing_epsilon=None)
    runs.append(r)
runs = pd.concat(runs)
summary = X.summarize_runs(runs)
ctx.save_table(summary, "fig07_summary")
paper = {q: {m: (REF.FIG7_EPS, ys) for m, ys in REF.FIG7[q].items() if m in ("R2T", "LP", "RM")} for q in REF.FIG7}
fig = F.sweep_panels(summary, x="epsilon", facet="query", answers={i.query: i.answer for i in instances}, paper=paper,
                     x_title="ε (log)", title="Fig. 7: error vs ε, RoadnetPA stand-in")
ctx.save_figure(fig, "fig07_error_vs_epsilon")
fig'''),
    ("code", '''s = summary.set_index(["query", "mechanism", "epsilon"])["error"]
lo, hi = min(eps_grid), max(eps_grid)
for q in ["edge", "triangle", "rectangle"]:
    if (q, "R2T", lo) in s.index:
        ctx.claims.add(f"{q}: R2T error falls with ε (error(ε={lo}) / error(ε={hi}))", paper="> 10",
                       ours=float(s[(q, "R2T", lo)] / s[(q, "R2T", hi)]), verdict="pass" if s[(q, "R2T", lo)] / s[(q, "R2T", hi)] > 10 else "differs")
ratio = float(s[("edge", "LP", lo)] / s[("edge", "LP", hi)])
ctx.claims.add("edge: LP error does not fall with ε (random-τ bias dominates)", paper="< 3", ours=ratio, verdict="pass" if ratio < 3 else "differs",
               note="paper RoadnetPA: 32,694 → 41,020")
ans = {i.query: i.answer for i in instances}
nt_over = [s[(q, m, 0.8 if 0.8 in eps_grid else lo)] > ans[q] for q in ans for m in ("NT", "SDE") if (q, m, 0.8 if 0.8 in eps_grid else lo) in s.index]
ctx.claims.add("NT and SDE errors exceed the query result at ε = 0.8", paper=1.0, ours=float(np.mean(nt_over)), atol=0.25)
r2t_08 = s.get(("edge", "R2T", 0.8), np.nan)
ctx.claims.add("edge: R2T absolute error at ε = 0.8 (RoadnetPA; DS 9 in the paper)", paper=176, ours=float(r2t_08), rtol=1.0,
               note=f"stand-in DS = {instances[0].ds:g}; within a factor 2")
ctx.finish()'''),
])

# ---------------------------------------------------------------------------------
write_notebook(OUT / "tab03_fixed_tau.ipynb", [
    ("md", """# Table 3 — the LP mechanism with a fixed τ vs R2T/OPT² (Amazon2)
Paper: R2T/OPT² (TODS 2024), Table 3 (ε = 0.8, absolute error). Data: **synthetic Amazon2 stand-in** (degree-capped Holme–Kim, spec 5.3). τ = GS/8^k for k = 1..7: the authors' raw file uses these τ, one factor of 8 below the paper's printed row labels (spec 6.2 #20); both labels are shown.

The non-private Q(I,τ) values are cached; repetitions only redraw noise."""),
    ("params", PARAMS + '''
epsilon = 0.8
beta = 0.1'''),
    ("code", IMPORTS + '''ctx = NotebookContext("r2t/tab03_fixed_tau", profile=profile, output_dir=output_dir, seed=seed)
n = pick(profile, ci=300, quick=1000, paper=50000)
repetitions = pick(profile, ci=5, quick=20, paper=20)
limits = pick(profile, ci={"opt2_max_m": 3000, "lp_time_limit": 10}, quick={"opt2_max_m": 10000, "lp_time_limit": 30},
              paper={"opt2_max_m": 10**7, "lp_time_limit": 21600})
instances = [X.graph_instance("amazon2", q, n=n, seed=seed) for q in ["edge", "path2", "triangle", "rectangle"]]
print("data:", instances[0].source, "Amazon2 stand-in;", [(i.query, i.info.m, i.ds) for i in instances])'''),
    ("code", '''tables = []
runs, _ = X.evaluate(instances, ["R2T", "OPT2", "LP"], [epsilon], repetitions=repetitions, beta=beta, seed=seed, limits=limits, timing_epsilon=None)
mech = X.summarize_runs(runs).set_index(["query", "mechanism"])["error"]
for inst in instances:
    t = X.fixed_tau_errors(inst, range(1, 8), epsilon=epsilon, repetitions=repetitions, seed=seed)
    tables.append(t)
fixed = pd.concat(tables)
ctx.save_table(fixed, "table3_fixed_tau")
wide = fixed.pivot_table(index=["k", "label_printed"], columns="query", values="error")
for m in ("R2T", "OPT2", "LP"):
    wide.loc[(m, "" if m != "LP" else "random τ (Table 2)"), :] = [mech.get((q, m), np.nan) for q in wide.columns]
wide'''),
    ("code", '''import plotly.graph_objects as go
from plotly.subplots import make_subplots
qs = ["edge", "path2", "triangle", "rectangle"]
fig = make_subplots(rows=1, cols=4, subplot_titles=qs)
for c, q in enumerate(qs, start=1):
    t = fixed[fixed["query"] == q]
    fig.add_trace(go.Scatter(x=t.tau, y=t.error, mode="lines+markers", name="fixed τ", showlegend=c == 1, line=dict(color="#2ca02c")), row=1, col=c)
    for m, col in (("R2T", "#1f77b4"), ("OPT2", "#d62728")):
        if np.isfinite(mech.get((q, m), np.nan)):
            fig.add_hline(y=mech[(q, m)], line=dict(color=col, dash="dash"), row=1, col=c)
fig.update_xaxes(type="log", title="τ = GS/8^k"); fig.update_yaxes(type="log")
fig.update_layout(title="Table 3: fixed-τ LP error vs τ (dashed: R2T blue, OPT² red)", template="plotly_white", height=420)
ctx.save_figure(fig, "tab03_fixed_tau")
fig'''),
    ("code", '''best = fixed.groupby("query").apply(lambda t: t.loc[t.error.idxmin()], include_groups=False)
display(best[["k", "tau", "error"]])
ctx.claims.add("no single fixed τ is best for all queries (distinct best k)", paper=">1 distinct", ours=int(best.k.nunique()),
               verdict="pass" if best.k.nunique() > 1 else "differs")
for q in qs:
    r = mech.get((q, "R2T"), np.nan) / best.loc[q, "error"]
    ctx.claims.add(f"{q}: R2T error / best fixed-τ error", paper={"edge": 2.8, "path2": 4.9, "triangle": 6.5, "rectangle": 6.7}[q], ours=float(r),
                   verdict="pass" if r <= 10 else "differs", note="paper: within ≈6× of the best fixed τ; pass if ≤ 10×")
    o = mech.get((q, "OPT2"), np.nan) / best.loc[q, "error"]
    if np.isfinite(o):
        ctx.claims.add(f"{q}: OPT² error / best fixed-τ error", paper={"edge": 1.4, "path2": 2.5, "triangle": 1.15, "rectangle": 1.6}[q], ours=float(o),
                       verdict="pass" if o <= 4 else "differs", note="paper: within ≈2×; pass if ≤ 4×")
ctx.finish()'''),
])

# ---------------------------------------------------------------------------------
write_notebook(OUT / "tab04_early_stop.ipynb", [
    ("md", """# Table 4 — running time of R2T and OPT² with and without early stop (Q□, 4-cycles)
Paper: R2T/OPT² (TODS 2024), Table 4. Data: **synthetic stand-ins** (Deezer-, Amazon- and Roadnet-like, spec 5.3).

The paper stops CPLEX's dual simplex as soon as its running bound cannot win. HiGHS does not expose that bound (spec 2.7), so "early stop" here is the *exact* equivalent: R2T solves τ values in order of a cheap upper bound and skips those whose bound plus offset cannot beat the running maximum; OPT² solves the cheap large-τ LPs first and skips levels whose bound (F̂ is monotone in τ) cannot cross the noisy threshold. Both give **identical outputs** to the unpruned runs (asserted below). Absolute CPLEX times are not reproducible."""),
    ("params", PARAMS + '''
epsilon = 0.8
beta = 0.1
query = "rectangle"'''),
    ("code", IMPORTS + '''ctx = NotebookContext("r2t/tab04_early_stop", profile=profile, output_dir=output_dir, seed=seed)
datasets = pick(profile, ci=["amazon2", "roadnet_pa"], quick=["deezer", "amazon1", "amazon2", "roadnet_pa", "roadnet_ca"],
                paper=["deezer", "amazon1", "amazon2", "roadnet_pa", "roadnet_ca"])
sizes = pick(profile, ci={"social": 300, "road": 900}, quick={"social": 1500, "road": 10000}, paper={"social": 50000, "road": 200000})
opt2_max_m = pick(profile, ci=2000, quick=8000, paper=10**7)
time_limit = pick(profile, ci=20, quick=60, paper=21600)
from dpworkbench.r2t.datasets import GRAPHS'''),
    ("code", '''rows = []
for d in datasets:
    inst = X.graph_instance(d, query, n=sizes[GRAPHS[d][2]], seed=seed)
    t = X.early_stop_timing(inst.info, gs=inst.gs, epsilon=epsilon, beta=beta, seed=seed, opt2_too=inst.info.m <= opt2_max_m, time_limit=time_limit)
    t.insert(0, "dataset", d); t.insert(1, "source", inst.source); t.insert(2, "join results", inst.info.m)
    rows.append(t)
table4 = pd.concat(rows, ignore_index=True)
ctx.save_table(table4, "table4")
table4'''),
    ("code", '''import plotly.graph_objects as go
fig = go.Figure()
for mech in ("R2T", "OPT2"):
    t = table4[table4.mechanism == mech]
    fig.add_trace(go.Bar(x=t.dataset + " " + mech, y=t.with_early_stop_s, name=f"{mech} with early stop"))
    fig.add_trace(go.Bar(x=t.dataset + " " + mech, y=t.without_s, name=f"{mech} without"))
fig.update_yaxes(type="log", title="seconds (mechanism only)")
fig.update_layout(barmode="group", title=f"Table 4: {query} query, with vs without early stop", template="plotly_white")
ctx.save_figure(fig, "tab04_early_stop")
fig'''),
    ("code", '''ctx.claims.add("early stop changes no output (identical to the unpruned run)", paper="identical", ours=int(table4.identical_output.sum()),
               verdict="pass" if bool(table4.identical_output.all()) else "differs", note=f"{len(table4)} runs")
r2t_rows = table4[table4.mechanism == "R2T"]
fewer = (r2t_rows.LPs_with <= r2t_rows.LPs_without).mean()
ctx.claims.add("R2T early stop never solves more LPs", paper=1.0, ours=float(fewer), atol=0,
               note="OPT²'s exact early stop may solve extra cheap large-τ LPs to skip the expensive small-τ ones")
social = table4[(table4.mechanism == "R2T") & table4.dataset.isin(["deezer", "amazon1", "amazon2"])]
ctx.claims.add("R2T speed-up on social stand-ins (paper 4.9–99×)", paper=4.86, ours=float(social.speedup.max()),
               verdict="pass" if social.speedup.max() >= 1 else "differs", note="pass if ≥ 1 (no slow-down); absolute factors depend on the solver")
ctx.finish()'''),
])

# ---------------------------------------------------------------------------------
write_notebook(OUT / "tab05_tpch.ipynb", [
    ("md", """# Table 5 — TPC-H: R2T, OPT² and LS on ten queries
Paper: R2T/OPT² (TODS 2024), Table 5 (SF 1, ε = 0.8, GS_Q = 10^6; relative error % and time). Data: TPC-H generated offline with `tpchgen-cli` (deterministic dbgen-compatible data, not a stand-in); the profile sets the scale factor (ci: 0.01, quick: 0.125, paper: 1). Queries in DuckDB; primary private relations as in the authors' code (multiple R_P as relation-tagged keys, spec 2.12). Q10 is our projection reconstruction (spec 6.2 #21). LS supports only Q3, Q12, Q20 ("n/s" otherwise). R2T is run with the paper's base 2 and, labelled **R2T-5.5**, with the authors' code's base 5.5 (⌊log₅.₅ GS⌋ terms), which produced the published numbers (spec 2.6): compare the paper's R2T column with R2T-5.5. OPT² on multi-relation queries needs an LP over all join results; above this profile's size limit it is reported as OT (the paper's CPLEX runs took up to 1 h)."""),
    ("params", PARAMS + '''
epsilon = 0.8
beta = 0.1
gs = 1e6'''),
    ("code", IMPORTS + '''from dpworkbench.r2t import tpch
ctx = NotebookContext("r2t/tab05_tpch", profile=profile, output_dir=output_dir, seed=seed)
sf = pick(profile, ci=0.01, quick=0.125, paper=1.0)
repetitions = pick(profile, ci=3, quick=10, paper=20)
opt2_max_m = pick(profile, ci=20000, quick=60000, paper=10**8)
con = tpch.connect(sf)
print(f"data: TPC-H SF {sf} generated by tpchgen-cli into {tpch.ensure_tpch(sf)}")'''),
    ("code", '''rows, times = [], []
for name, q in tpch.QUERIES.items():
    inst = X.tpch_instance(con, name, gs=gs, sf=sf)
    mechs = ["R2T", "R2T-5.5", "LS"] + (["OPT2"] if inst.info.self_join_free or inst.info.m <= opt2_max_m else [])
    r, t = X.tpch_evaluate(inst, mechs, [epsilon], repetitions=repetitions, beta=beta, seed=seed)
    if "OPT2" not in mechs:
        t = pd.concat([t, pd.DataFrame([{"query": name, "mechanism": "OPT2", "status": "OT", "seconds": np.nan}])])
    rows.append(r); times.append(t.assign(query=name, sql_seconds=inst.sql_seconds, answer=inst.answer, DS=inst.ds, category=q.category))
runs = pd.concat(rows); timing = pd.concat(times)
summary = X.summarize_runs(runs)
table5 = summary.pivot_table(index="query", columns="mechanism", values="rel_error_pct", aggfunc="first").reindex(list(tpch.QUERIES))
table5.insert(0, "result", [tpch.answer(con, n)[0] for n in table5.index])
table5.insert(1, "DS/IS", [X.tpch_instance(con, n, gs=gs).ds for n in table5.index])
for m in ("R2T", "R2T-5.5", "OPT2", "LS"):
    if m not in table5.columns:
        table5[m] = np.nan
table5["paper R2T %"] = [REF.TABLE5[n][1] for n in table5.index]
table5["paper OPT² %"] = [REF.TABLE5[n][2] for n in table5.index]
table5["paper LS %"] = [REF.TABLE5[n][3] for n in table5.index]
ctx.save_table(table5.reset_index(), "table5"); ctx.save_table(timing, "table5_times")
display(timing.pivot_table(index="query", columns="mechanism", values="seconds", aggfunc="first"))
table5'''),
    ("code", '''plot = summary.assign(dataset=summary["query"], query=f"TPC-H SF {sf}")
fig = F.grouped_bars(plot, value="rel_error_pct", facet="query", x="dataset", title=f"Table 5: relative error % at ε={epsilon} (log)", y_title="relative error %")
ctx.save_figure(fig, "tab05_tpch")
fig'''),
    ("code", '''s = summary.set_index(["query", "mechanism"])["rel_error_pct"]
e = summary.set_index(["query", "mechanism"])["error"]
for name in ("Q3", "Q12", "Q20"):
    ctx.claims.add(f"{name}: R2T and OPT² beat LS by orders of magnitude (LS/R2T error ratio)", paper=">10",
                   ours=float(e[(name, "LS")] / e[(name, "R2T")]), verdict="pass" if e[(name, "LS")] / e[(name, "R2T")] > 10 else "differs")
    if sf in REF.FIG8_SF:
        ref = REF.FIG8[name]["R2T"][REF.FIG8_SF.index(sf)]
        ctx.claims.add(f"{name}: R2T (base 5.5 as in the authors' code) absolute error at SF {sf:g} (Fig. 8 / Table 5 data)", paper=ref,
                       ours=float(e[(name, "R2T-5.5")]), rtol=0.5)
    else:
        ctx.claims.add(f"{name}: R2T (base 5.5) absolute error (paper at SF 1)", paper=REF.TABLE5_ABS_R2T[name], ours=float(e[(name, "R2T-5.5")]),
                       verdict="not-comparable", note=f"ours at SF {sf}")
better = np.mean([e[(n, "OPT2")] <= e[(n, "R2T")] for n in tpch.QUERIES if (n, "OPT2") in e.index and np.isfinite(e[(n, "OPT2")])])
ctx.claims.add("OPT² error ≤ R2T error on every query where it ran", paper=1.0, ours=float(better), atol=0.1)'''),
    ("md", """### Table 5's headline numbers at SF 1 (Q3, Q12)
Relative errors depend on the scale (Q grows with SF, DS hardly), so the paper's Table 5 percentages are compared at **SF 1**. This section runs only Q3 and Q12 there (both self-join-free: the truncation is the exact closed form, so the cost is the DuckDB extraction of 2.9 M and 6.0 M join results). The paper's R2T column was produced by the authors' code with base 5.5 (spec 2.6), so the claim compares **R2T-5.5**; the base-2 R2T of the paper's text is shown alongside. ci runs this at its small SF and marks the claims not comparable."""),
    ("code", '''sf_head = pick(profile, ci=sf, quick=1.0, paper=1.0)
con_head = con if sf_head == sf else tpch.connect(sf_head)
head_runs = []
for name in ("Q3", "Q12"):
    inst_head = X.tpch_instance(con_head, name, gs=gs, sf=sf_head)
    r_head, _ = X.tpch_evaluate(inst_head, ["R2T", "R2T-5.5"], [epsilon], repetitions=repetitions, beta=beta, seed=seed, timing=False)
    head_runs.append(r_head)
head = X.summarize_runs(pd.concat(head_runs))
ctx.save_table(head, "table5_sf1_headline")
hs = head.set_index(["query", "mechanism"])["rel_error_pct"]
for name, paper_pct in (("Q3", 0.254), ("Q12", 0.0229)):
    note = f"SF {sf_head:g}, {repetitions} runs, trimmed mean; base-2 R2T: {float(hs[(name, 'R2T')]):.4g} %"
    if sf_head == 1.0:
        ctx.claims.add(f"Table 5: {name} R2T relative error % at SF 1, ε = {epsilon} (R2T-5.5, the authors' base)", paper=paper_pct,
                       ours=float(hs[(name, "R2T-5.5")]), rtol=0.5, note=note)
    else:
        ctx.claims.add(f"Table 5: {name} R2T relative error % (paper at SF 1)", paper=paper_pct, ours=float(hs[(name, "R2T-5.5")]),
                       verdict="not-comparable", note=f"{note}; Q is ~{1 / sf_head:g}× smaller than at SF 1")
display(head.pivot_table(index="query", columns="mechanism", values="rel_error_pct", aggfunc="first").assign(**{"paper R2T %": [0.254, 0.0229]}))
ctx.finish()'''),
])

# ---------------------------------------------------------------------------------
write_notebook(OUT / "fig08_scalability.ipynb", [
    ("md", """# Figure 8 — error and running time over TPC-H scale factors (Q3, Q12, Q20)
Paper: R2T/OPT² (TODS 2024), Fig. 8 (ε = 0.8, GS = 10^6; SF 0.125 … 8). Data: TPC-H generated offline with `tpchgen-cli` at each scale factor (ci uses tiny SFs). Top: absolute error level with the query result (dashed); bottom: time (extraction + mechanism) and plain SQL time. The authors' R2T and LS errors (repository, computed with base 5.5) are overlaid dashed; our R2T-5.5 series uses that base.

Expected shape: R2T/OPT² errors barely change with scale (they depend on DS), LS error grows with scale (erratically for Q12), times grow linearly."""),
    ("params", PARAMS + '''
epsilon = 0.8
beta = 0.1
gs = 1e6'''),
    ("code", IMPORTS + '''from dpworkbench.r2t import tpch
ctx = NotebookContext("r2t/fig08_scalability", profile=profile, output_dir=output_dir, seed=seed)
sf_grid = pick(profile, ci=[0.01, 0.02], quick=[0.125, 0.25, 0.5], paper=[0.125, 0.25, 0.5, 1.0, 2.0])
repetitions = pick(profile, ci=3, quick=10, paper=20)
queries = ["Q3", "Q12", "Q20"]'''),
    ("code", '''rows, times = [], []
for sf in sf_grid:
    con = tpch.connect(sf)
    for name in queries:
        inst = X.tpch_instance(con, name, gs=gs, sf=sf)
        r, t = X.tpch_evaluate(inst, ["R2T", "R2T-5.5", "OPT2", "LS"], [epsilon], repetitions=repetitions, beta=beta, seed=seed)
        rows.append(r.assign(sf=sf)); times.append(t.assign(sf=sf, sql_seconds=inst.sql_seconds))
    con.close()
runs = pd.concat(rows); timing = pd.concat(times)
summary = X.summarize_runs(runs.assign(dataset=runs.sf.astype(str))).assign(sf=lambda d: d.dataset.astype(float))
ctx.save_table(summary, "fig08_errors"); ctx.save_table(timing, "fig08_times")
answers = summary.groupby("query").answer.max().to_dict()
paper = {q: {m: (REF.FIG8_SF, REF.FIG8[q][m]) for m in ("R2T", "LS")} for q in queries}
fig = F.sweep_panels(summary, x="sf", facet="query", answers=answers, paper=paper, x_title="scale factor (log)", title="Fig. 8 (top): error vs scale")
ctx.save_figure(fig, "fig08_error_vs_scale")
fig'''),
    ("code", '''tsum = timing[timing.status == "ok"].rename(columns={"seconds": "error"})
sql = timing.groupby(["query", "sf"]).sql_seconds.first().reset_index().rename(columns={"sql_seconds": "error"}).assign(mechanism="plain SQL")
fig = F.sweep_panels(pd.concat([tsum, sql]), x="sf", facet="query", answers={}, x_title="scale factor (log)", title="Fig. 8 (bottom): running time (s)")
fig.update_yaxes(title="seconds (log)", row=1, col=1)
ctx.save_figure(fig, "fig08_time_vs_scale")
fig'''),
    ("code", '''e = summary.set_index(["query", "mechanism", "sf"])["error"]
lo, hi = min(sf_grid), max(sf_grid)
for q in queries:
    r = float(e[(q, "R2T", hi)] / e[(q, "R2T", lo)])
    ctx.claims.add(f"{q}: R2T error barely changes with scale (error(SF {hi}) / error(SF {lo}))", paper="≈1 (0.87–1.2 in the repo data)", ours=r,
                   verdict="pass" if 0.25 <= r <= 4 else "differs", note="pass within 4×; answer grows by SF ratio")
ls_grow = float(e[("Q3", "LS", hi)] / e[("Q3", "LS", lo)])
ctx.claims.add("Q3: LS error grows with scale", paper="grows (168,685 → 965,619 from SF 0.125 to 1)", ours=ls_grow,
               verdict="pass" if ls_grow > 1 else "differs")
t = timing[(timing.mechanism == "R2T")].groupby("sf").seconds.sum()
ctx.claims.add("time grows with scale (R2T, sum over queries)", paper="linear", ours=float(t.loc[hi] / t.loc[lo]),
               verdict="pass" if t.loc[hi] > t.loc[lo] else "differs", note=f"ratio for an SF ratio of {hi/lo:g}")
ctx.finish()'''),
])

# ---------------------------------------------------------------------------------
write_notebook(OUT / "fig09_gs_dependency.ipynb", [
    ("md", """# Figure 9 — error vs the assumed global sensitivity GS_Q (TPC-H Q3, Q12, Q20)
Paper: R2T/OPT² (TODS 2024), Fig. 9 (ε = 0.8, SF 1, GS_Q = 10^4 … 10^11). Data: TPC-H generated offline with `tpchgen-cli` (ci: SF 0.01; quick: SF 0.125; paper: SF 1). Theory curves (dotted): R2T's Theorem 5.1 bound 4·log GS·ln(log GS/β)·DS/ε and LS's lower bound GS/(6ε ln(4e·GS)) (§7); OPT² needs no GS at all. The authors' R2T/LS curves (SF 1, base 5.5) are overlaid dashed; R2T-5.5 is our run with that base.

Only the τ grid changes with GS, so the non-private work is shared."""),
    ("params", PARAMS + '''
epsilon = 0.8
beta = 0.1'''),
    ("code", IMPORTS + '''from dpworkbench.r2t import tpch
from dpworkbench.r2t.mechanisms import r2t_bound, ls_lower_bound
ctx = NotebookContext("r2t/fig09_gs_dependency", profile=profile, output_dir=output_dir, seed=seed)
sf = pick(profile, ci=0.01, quick=0.125, paper=1.0)
gs_grid = pick(profile, ci=[1e4, 1e7, 1e11], quick=list(REF.FIG9_GS), paper=list(REF.FIG9_GS))
repetitions = pick(profile, ci=3, quick=10, paper=20)
queries = ["Q3", "Q12", "Q20"]
con = tpch.connect(sf)
print(f"data: TPC-H SF {sf} (tpchgen-cli)")'''),
    ("code", '''rows = []
base = {q: X.tpch_instance(con, q, gs=1e6, sf=sf) for q in queries}
for gs in gs_grid:
    for q, b in base.items():
        inst = X.Instance(f"GS={gs:g}", q, b.info, gs, b.source, trunc=b.trunc, fhat=b.fhat)
        r, _ = X.tpch_evaluate(inst, ["R2T", "R2T-5.5", "OPT2", "LS"], [epsilon], repetitions=repetitions, beta=beta, seed=seed, timing=False)
        rows.append(r.assign(gs=gs))
runs = pd.concat(rows)
summary = X.summarize_runs(runs).assign(gs=lambda d: d.dataset.str[3:].astype(float))
ctx.save_table(summary, "fig09_summary")
theory = {q: {"Thm 5.1 bound (R2T)": (gs_grid, [r2t_bound(base[q].ds, epsilon=epsilon, beta=beta, gs=g) for g in gs_grid]),
              "LS lower bound (§7)": (gs_grid, [ls_lower_bound(g, epsilon=epsilon) for g in gs_grid])} for q in queries}
paper = {q: {m: (REF.FIG9_GS, REF.FIG9[q][m]) for m in ("R2T", "LS")} for q in queries}
fig = F.sweep_panels(summary, x="gs", facet="query", answers={q: base[q].answer for q in queries}, paper=paper, theory=theory,
                     x_title="GS_Q (log)", title=f"Fig. 9: error vs GS_Q (SF {sf})")
ctx.save_figure(fig, "fig09_error_vs_gs")
fig'''),
    ("code", '''e = summary.set_index(["query", "mechanism", "gs"])["error"]
lo, hi = min(gs_grid), max(gs_grid)
for q in queries:
    o = [e[(q, "OPT2", g)] for g in gs_grid]
    ctx.claims.add(f"{q}: OPT² error independent of GS (max/min over the grid)", paper="1 (no GS input)", ours=float(max(o) / min(o)),
                   verdict="pass" if max(o) / min(o) < 3 else "differs", note="differences are Monte-Carlo noise only")
    r = float(e[(q, "R2T", hi)] / e[(q, "R2T", lo)])
    ctx.claims.add(f"{q}: R2T error grows slowly with GS (error(GS={hi:g}) / error(GS={lo:g}))", paper=float(REF.FIG9[q]["R2T"][-1] / REF.FIG9[q]["R2T"][0]),
                   ours=r, verdict="pass" if 1 <= r <= 10 else "differs", note="paper ≈ 3×; pass between 1× and 10×")
    ctx.claims.add(f"{q}: LS error exceeds the query result at GS = {hi:g}", paper="yes", ours=bool(e[(q, "LS", hi)] > base[q].answer),
                   verdict="pass" if e[(q, "LS", hi)] > base[q].answer else "differs")
    best = all(e[(q, "OPT2", g)] <= min(e[(q, "R2T", g)], e[(q, "LS", g)]) * 1.5 for g in gs_grid)
    ctx.claims.add(f"{q}: OPT² has the smallest error at every GS (within noise, 1.5×)", paper="yes", ours=bool(best), verdict="pass" if best else "differs")
ctx.finish()'''),
])

# ---------------------------------------------------------------------------------
write_notebook(OUT / "learn_theorem_bounds.ipynb", [
    ("md", """# Theory check — Theorem 5.1 (R2T), Theorem 6.8 (OPT²), §7 (LS lower bound) and Example 1.2 (naive truncation is not DP with self-joins)
Teaching notebook (no paper figure or table): R2T/OPT² (TODS 2024), §5.1, §6.2, §7, Example 1.2. Data: **synthetic stand-ins** (Amazon2- and RoadnetPA-like graphs, spec 5.3), a synthetic self-join-free instance for LS, and a random regular graph for Ex. 1.2.

We compare empirical error quantiles (at level 1−β) with the theorems' high-probability bounds, check R2T's one-sidedness (it never overestimates w.p. ≥ 1−β), measure how often LS's error exceeds GS/(6ε ln(4e·GS)) (≥ 1/(8e²) ≈ 1.7% on every instance), and exhibit two neighbouring graphs on which naive degree truncation changes by far more than τ."""),
    ("params", PARAMS + '''
epsilon = 0.8
beta = 0.1'''),
    ("code", IMPORTS + '''from dpworkbench.r2t import Truncation, FHat, naive_value, from_lists, tau_grid
from dpworkbench.r2t.mechanisms import r2t_samples, opt2_cache, opt2_samples, r2t_bound, opt2_bound, ls_lower_bound
from dpworkbench.r2t import baselines as B
ctx = NotebookContext("r2t/learn_theorem_bounds", profile=profile, output_dir=output_dir, seed=seed)
reps = pick(profile, ci=2000, quick=20000, paper=100000)
ls_reps = pick(profile, ci=300, quick=2000, paper=10000)
n_social = pick(profile, ci=500, quick=3000, paper=20000)
n_road = pick(profile, ci=900, quick=10000, paper=100000)
gen = np.random.default_rng(seed)'''),
    ("md", "## Move ε and β: empirical |error| against the theorem bounds (the graph and its LPs are cached; only noise is redrawn)"),
    ("code", '''from dpworkbench import widgets
from dpworkbench.r2t import teaching as T
panel = widgets.control_panel(lambda epsilon, beta: T.bounds_panel(epsilon=epsilon, beta=beta, size=n_social, runs=min(reps, 5000), seed=seed),
                              {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=12.8), "beta": widgets.log_slider(beta, 0.01, 0.5, "β")},
                              interactive=interactive, title="Errors vs Theorems 5.1 and 6.8")
panel if interactive else None'''),
    ("code", '''rows = []
for d, n, q in [("amazon2", n_social, "edge"), ("amazon2", n_social, "triangle"), ("roadnet_pa", n_road, "edge"), ("roadnet_pa", n_road, "rectangle")]:
    inst = X.graph_instance(d, q, n=n, seed=seed)
    taus = tau_grid(inst.gs)
    vals = np.array([inst.trunc.value(t) for t in taus])
    out = r2t_samples(vals, taus, epsilon=epsilon, beta=beta, size=reps, rng=gen)
    g, qv = opt2_cache(inst.info, inst.fhat, inst.trunc)
    o, _ = opt2_samples(g, qv, epsilon=epsilon, beta=beta, size=reps, rng=gen)
    err_r, err_o = np.abs(out - inst.answer), np.abs(o - inst.answer)
    rows.append({"dataset": d, "source": inst.source, "query": q, "DS": inst.ds, "GS": inst.gs,
                 "R2T err quantile 1-β": np.quantile(err_r, 1 - beta), "Thm 5.1 bound": r2t_bound(inst.ds, epsilon=epsilon, beta=beta, gs=inst.gs),
                 "R2T P[out ≤ Q]": float(np.mean(out <= inst.answer)),
                 "OPT² err quantile 1-β": np.quantile(err_o, 1 - beta), "Thm 6.8 bound": opt2_bound(inst.ds, epsilon=epsilon, beta=beta)})
bounds = pd.DataFrame(rows)
ctx.save_table(bounds, "theory_bounds")
bounds'''),
    ("code", '''import plotly.graph_objects as go
lab = bounds.dataset + " " + bounds["query"]
fig = go.Figure()
for col, name in [("R2T err quantile 1-β", "R2T empirical (1−β quantile)"), ("Thm 5.1 bound", "Thm 5.1 bound"),
                  ("OPT² err quantile 1-β", "OPT² empirical (1−β quantile)"), ("Thm 6.8 bound", "Thm 6.8 bound")]:
    fig.add_trace(go.Bar(x=lab, y=bounds[col] / bounds.DS, name=name))
fig.update_yaxes(type="log", title="error / DS")
fig.update_layout(barmode="group", title=f"Empirical error vs theorem bounds (ε={epsilon}, β={beta})", template="plotly_white")
ctx.save_figure(fig, "theory_bounds")
fig'''),
    ("md", "## §7: LS (Tao et al.) has error Ω(GS/(ε log GS)) on every instance"),
    ("code", '''rng = np.random.default_rng(seed)
info = from_lists(np.ones(4000), [[int(i)] for i in rng.integers(0, 800, 4000)])
gs_ls = 10**5
errs = np.array([abs(B.ls(info, epsilon=epsilon, gs=gs_ls, rng=rng)["value"] - info.answer) for _ in range(ls_reps)])
lb = ls_lower_bound(gs_ls, epsilon=epsilon)
frac = float(np.mean(errs >= lb))
print(f"LS: P[error ≥ {lb:.0f}] = {frac:.3f} (theory ≥ {1/(8*np.e**2):.4f}); DS = {info.DS:g}, R2T bound would be ~{r2t_bound(info.DS, epsilon=epsilon, beta=beta, gs=gs_ls):.0f}")'''),
    ("md", "## Example 1.2: naive truncation is not τ-sensitive with self-joins"),
    ("code", '''import networkx as nx
from dpworkbench.graphs import from_networkx
from dpworkbench.r2t.patterns import graph_joininfo
tau = 4
g = nx.random_regular_graph(tau, 30, seed=seed)
h = g.copy(); h.add_edges_from((30, v) for v in range(30))
ig = graph_joininfo(from_networkx(g)[0], "edge"); ih = graph_joininfo(from_networkx(h)[0], "edge")
demo = pd.DataFrame([{"instance": "τ-regular graph (30 nodes)", "naive truncation": naive_value(ig, tau, allow_self_joins=True), "LP truncation": Truncation(ig).value(tau)},
                     {"instance": "+ one node adjacent to all", "naive truncation": naive_value(ih, tau, allow_self_joins=True), "LP truncation": Truncation(ih).value(tau)}])
demo["τ"] = tau
display(demo)
jump_naive = abs(demo["naive truncation"].diff().iloc[1]); jump_lp = abs(demo["LP truncation"].diff().iloc[1])'''),
    ("code", '''ctx.claims.add("R2T error within Thm 5.1 bound at level 1−β (all instances)", paper="≤ bound", ours=int((bounds["R2T err quantile 1-β"] <= bounds["Thm 5.1 bound"]).sum()),
               verdict="pass" if (bounds["R2T err quantile 1-β"] <= bounds["Thm 5.1 bound"]).all() else "differs", note=f"{len(bounds)} instances")
ctx.claims.add("OPT² error within Thm 6.8 bound at level 1−β (all instances)", paper="≤ bound", ours=int((bounds["OPT² err quantile 1-β"] <= bounds["Thm 6.8 bound"]).sum()),
               verdict="pass" if (bounds["OPT² err quantile 1-β"] <= bounds["Thm 6.8 bound"]).all() else "differs", note=f"{len(bounds)} instances")
ctx.claims.add("R2T one-sided: P[output ≤ Q] ≥ 1−β", paper=1 - beta, ours=float(bounds["R2T P[out ≤ Q]"].min()),
               verdict="pass" if bounds["R2T P[out ≤ Q]"].min() >= 1 - beta else "differs")
ctx.claims.add("LS: P[error ≥ GS/(6ε ln(4e GS))] ≥ 1/(8e²)", paper=1 / (8 * np.e**2), ours=frac, verdict="pass" if frac >= 1 / (8 * np.e**2) else "differs")
ctx.claims.add("Ex. 1.2: naive truncation changes by more than τ on neighbours", paper=f"> {tau}", ours=float(jump_naive), verdict="pass" if jump_naive > tau else "differs")
ctx.claims.add("LP truncation changes by at most τ on the same neighbours", paper=f"≤ {tau}", ours=float(jump_lp), verdict="pass" if jump_lp <= tau + 1e-9 else "differs")
ctx.finish()'''),
])

# ---------------------------------------------------------------------------------
write_notebook(OUT / "learn_race_to_the_top.ipynb", [
    ("md", """# Race to the top: how R2T picks its truncation threshold privately
Teaching notebook (R2T/OPT², TODS 2024; Fig. 1's intuition made interactive). Data: seeded synthetic graphs (grid-like "road" or power-law "social", spec 5.3) or tiny TPC-H (generated with `tpchgen-cli`).

Every τ gives a truncated answer Q(I,τ) that changes by at most τ when one individual (node) is removed. R2T adds Laplace noise of scale Kτ/ε to each, shifts it down by K·ln(K/β)·τ/ε so that it almost never overshoots, and releases the maximum: a race to the top. OPT² instead uses a sparse-vector test on how many individuals must be removed to make τ enough. Move ε: only noise is redrawn; the LPs (non-private) are cached. β changes only the shift (utility), never the privacy."""),
    ("params", PARAMS + '''
epsilon = 0.8
beta = 0.1
show_mechanisms = ["R2T", "OPT2", "fixed τ", "LP random τ", "naive Laplace"]  # toggles of the error panel'''),
    ("code", '''from IPython.display import display
import ipywidgets
import numpy as np
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench import widgets
from dpworkbench.r2t import teaching as T
ctx = NotebookContext("r2t/learn_race_to_the_top", profile=profile, output_dir=output_dir, seed=seed)
size = pick(profile, ci=400, quick=2000, paper=5000)
runs = pick(profile, ci=200, quick=1000, paper=5000)'''),
    ("md", "## The race: Q(I,τ), the noisy shifted candidates and the winner"),
    ("code", '''controls = {
    "epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=12.8),
    "beta": widgets.log_slider(beta, 0.01, 0.5, "β"),
    "log2_gs": widgets.choice(list(range(3, 31)), 10, "log₂ GS"),
    "base": widgets.choice([2.0, 2.718281828, 5.5], 2.0, "base"),
    "generator": widgets.choice(["road", "social", "tpch-Q12", "tpch-Q3", "fig2"], "social", "data"),
    "query": widgets.choice(["edge", "path2", "triangle", "rectangle"], "edge", "query"),
    "seed": widgets.seed_box(seed),
}
panel = widgets.control_panel(lambda **kw: T.race_panel(size=size, **kw), controls, interactive=interactive, title="Race to the top")
panel if interactive else None'''),
    ("code", '''fig, table = T.race_panel(epsilon=epsilon, beta=beta, log2_gs=10, base=2.0, generator="social", query="edge", seed=seed, size=size)
ctx.save_figure(fig, "learn_race")
table'''),
    ("md", "## Error over many runs: R2T vs OPT² vs a fixed τ vs naive Laplace\nA fixed τ trades bias (τ too small) against noise (τ too large); R2T and OPT² adapt to the instance. Naive Laplace pays the assumed global sensitivity GS, R2T only log GS: with GS close to DS naive Laplace wins, with a loose GS (the usual case: GS must hold for every possible instance) R2T wins by orders of magnitude."),
    ("code", '''controls2 = {
    "epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=12.8),
    "log2_tau": widgets.choice(list(range(1, 16)), 4, "log₂ fixed τ"),
    "log2_gs": widgets.choice(list(range(4, 31)), 16, "log₂ GS"),
    "generator": widgets.choice(["road", "social", "fig2"], "social", "data"),
    "query": widgets.choice(["edge", "triangle"], "edge", "query"),
    "mechanisms": ipywidgets.SelectMultiple(options=T.ERROR_PANEL_MECHANISMS, value=tuple(show_mechanisms), description="mechanisms"),
}
panel2 = widgets.control_panel(lambda **kw: T.error_panel(size=size, runs=runs, beta=beta, seed=seed, **kw), controls2, interactive=interactive,
                               title="Error distribution over runs")
panel2 if interactive else None'''),
    ("code", '''fig2, stats = T.error_panel(epsilon=epsilon, log2_tau=4, log2_gs=16, generator="social", query="edge", size=size, runs=runs, beta=beta, seed=seed,
                            mechanisms=T.ERROR_PANEL_MECHANISMS)
ctx.save_figure(fig2, "learn_error_histogram")
ctx.claims.add("R2T median error < naive Laplace (GS/ε) median error at GS = 2^16", paper="R2T ≪ worst case", ours=float(stats.loc["R2T", "median |error|"] / stats.loc["naive Laplace", "median |error|"]),
               verdict="pass" if stats.loc["R2T", "median |error|"] < stats.loc["naive Laplace", "median |error|"] else "differs",
               note="ratio R2T / naive Laplace; a well-chosen fixed τ can beat R2T on one instance, but no fixed τ is good for all (Table 3)")
ctx.claims.add("R2T never overestimates (share of runs ≤ Q)", paper=f"≥ {1 - beta}", ours=float(stats.loc["R2T", "share ≤ Q"]),
               verdict="pass" if stats.loc["R2T", "share ≤ Q"] >= 1 - beta else "differs")
display(stats)
ctx.finish()'''),
])

print("wrote", sorted(p.name for p in OUT.glob("*.ipynb")))
