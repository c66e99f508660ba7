"""Writes notebooks/inconsistency/*.ipynb (clean, no outputs). Run: python tools/build_notebooks_inconsistency.py"""

from pathlib import Path

from dpworkbench.experiments.nbtools import write_notebook

OUT = Path(__file__).resolve().parent.parent / "notebooks" / "inconsistency"

PARAMS = '''profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...'''

IMPORTS = '''from IPython.display import display
import numpy as np
import pandas as pd
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.inconsistency import experiments as X'''

PAPER = "Mohapatra, Gilad, He, Kimelfeld, *Computing Inconsistency Measures Under Differential Privacy* (SIGMOD'25; seeds 000/003)"
ASSUME = ("Neighbouring relation: add or remove one tuple (row) at any position. Public information: the constraints Σ, the "
          "schema, the stable ordering rule and its seed, and the sample size of the experiment design (`n_bound`, which "
          "sets the candidate set Θ and the clip; a release without a public bound spends 5 % of ε on a private one). "
          "Seeded noise is for reproducibility, not a private release.")
ORDER_NOTE = ("**What the stable order depends on.** Algorithm 1 and Algorithm 5 need one edge order that neighbouring "
              "databases share on their common edges. The default `order=\"rank\"` ranks each tuple by a keyed hash of its "
              "*identity* — a hash of the tuple's own content, or the key column given with `build(..., id_column=...)` / "
              "`--id-column` — never by its row position: deleting a middle row shifts the positions of every later row, so a "
              "position-hashed order reshuffles the other tuples' edges (this happened before issue 11: on A = 0, "
              "B = [0,0,1,0,1,2] with A → B, deleting row 2 moved F_MI(1) by 2 and the cover by 4). Identical tuples are "
              "interchangeable, so they are ordered by occurrence. `order=\"lex\"` sorts by row position and is stable too: "
              "a deletion keeps the relative order of the remaining rows.")
DATA_NOTE = ("Data: **Adult is the real UCI table** (10k-row samples; the artifact's `inputDB2.csv`); **Flight, Hospital, Stock and "
             "Tax are SYNTHETIC seeded stand-ins** with the paper's schemas and DCs, calibrated to Table 5's maximum degree "
             "(the real tables are not available offline). Each table below has a `source` column saying which was used.")


def nb(name, cells):
    write_notebook(OUT / f"{name}.ipynb", cells)


# ----------------------------------------------------------------------------------------------- Table 2
nb("tab02_measures", [
    ("md", f"""# Table 2 — the inconsistency measures and their (measured) global sensitivities
{PAPER}. Data: random small conflict graphs (seeded); no dataset.

Every sensitivity is measured by brute force over **all** one-node neighbours (remove a node, or add a node joined to any
subset of nodes) of random graphs with n nodes, and set next to Prop. 2 / Lemma 1 / Prop. 3. Corrections (spec §7):
I_D is 1 iff the database is *in*consistent (the paper's Definition 1 prints it reversed); I_P's worst case is n+1
(from n clean tuples to n+1), and the projected I_P has sensitivity θ+1, not θ."""),
    ("params", PARAMS + '''
n_nodes = 6'''),
    ("code", IMPORTS + '''
ctx = NotebookContext("inconsistency/tab02_measures", profile=profile, output_dir=output_dir, seed=seed)
n_graphs = pick(profile, ci=4, quick=20, paper=200)
nn = pick(profile, ci=5, quick=n_nodes, paper=n_nodes + 1)'''),
    ("code", '''summary = pd.DataFrame([
    ("I_D", "1 if D ⊭ Σ", "[E ≠ ∅]", "O(|Σ|n²)", "1"), ("I_MI", "|MI_Σ(D)|", "|E|", "O(|Σ|n²)", "n"),
    ("I_P", "|∪ MI_Σ(D)|", "#non-isolated nodes", "O(|Σ|n²)", "n"), ("I_MC", "|MC_Σ(D)|", "#maximal independent sets", "#P-complete", "exponential"),
    ("I_R", "|D| − |D_R|", "min vertex cover τ(G)", "NP-hard", "1")], columns=["measure", "definition", "on the conflict graph", "cost", "sensitivity (Prop. 2)"])
display(summary)
sens = X.measured_sensitivities(nn, n_graphs, seed=seed)
ctx.save_table(sens, "measured_sensitivities")
sens'''),
    ("code", '''from dpworkbench import plots
fig = plots.bar(sens.dropna(subset=["measured_max"]).melt(id_vars="measure", value_vars=["measured_max", "paper_value_at_n"]).dropna(),
                "measure", "value", color="variable", title=f"Measured node sensitivity vs the paper's (n = {nn})")
ctx.save_figure(fig, "tab02_sensitivities")
fig'''),
    ("code", '''get = lambda m: float(sens.set_index("measure").loc[m, "measured_max"])
ctx.claims.add("Δ I_D = 1", paper=1, ours=get("I_D"), atol=0)
ctx.claims.add("Δ I_R = 1", paper=1, ours=get("I_R"), atol=0)
ctx.claims.add(f"Δ I_MI = n (n = {nn})", paper=nn, ours=get("I_MI"), atol=0)
ctx.claims.add(f"Δ I_P = n (n = {nn})", paper=nn, ours=get("I_P"), verdict="differs" if get("I_P") > nn else "pass",
               note="measured n+1: going from n clean tuples to n+1 makes every tuple problematic (spec §1.6)")
for t in (1, 2, 3):
    ctx.claims.add(f"Lemma 1: Δ(f_MI∘π_θ) ≤ θ, θ={t}", paper=t, ours=get(f"f_MI∘π_θ, θ={t}"),
                   verdict="pass" if get(f"f_MI∘π_θ, θ={t}") <= t else "differs")
    ctx.claims.add(f"Lemma 1 for I_P: Δ(f_P∘π_θ) ≤ θ, θ={t}", paper=t, ours=get(f"f_P∘π_θ, θ={t}"),
                   verdict="pass" if get(f"f_P∘π_θ, θ={t}") <= t else "differs",
                   note="the paper's bound is θ; the correct bound is θ+1 (spec §2.7); we use θ+1 by default")
ctx.claims.add("Prop. 3: Δc ≤ 2 for Alg. 5", paper=2, ours=get("Alg. 5 cover size c"), verdict="pass" if get("Alg. 5 cover size c") <= 2 else "differs")
ctx.finish()'''),
])

# ----------------------------------------------------------------------------------------------- toy: Fig. 2, Tables 3-4, Fig. 10
nb("fig02_tab03_tab04_fig10_toy", [
    ("md", f"""# Fig. 2, Tables 3–4 and Fig. 10 — the Capital/Country toy example
{PAPER}. Data: the paper's toy table (3 rows + the grey neighbouring row with a typo), built in code.

Fig. 2: the conflict graph is a star K₁,₃ (I_MI = 3, I_P = 4, I_R = 1). Table 3: quality q = −bias − √2θ/ε₂ (ε₂ = 1).
Table 4: one EM at ε = 1 vs two-step EM at ε/2 per step (Δq = 3); the paper's table prunes *strictly* (θ < θ*₁),
Algorithm 4 non-strictly (θ ≤ θ*₁) — both are shown. Fig. 10: Theorem 2's bound vs β as printed,
3.414 + 6·ln(6/β), and the corrected bound with the Laplace tail (spec §7.10)."""),
    ("params", PARAMS),
    ("code", IMPORTS + '''
from dpworkbench.inconsistency import toy, all_measures
from dpworkbench.inconsistency.teaching import draw_graph
from dpworkbench import plots
ctx = NotebookContext("inconsistency/fig02_tab03_tab04_fig10_toy", profile=profile, output_dir=output_dir, seed=seed)
display(toy.capital_country())
g = toy.fig2_graph()
m = all_measures(g)
fig = draw_graph(g, labels=["t1", "t2", "t3", "t4 (grey)"], highlight=[3], title="Fig. 2: conflict graph of the toy table")
ctx.save_figure(fig, "fig02_conflict_graph")
display(pd.Series(m))
fig'''),
    ("code", '''t3 = toy.table3(); ctx.save_table(t3, "table3"); display(t3)
t4_le = toy.table4(prune="le"); t4 = toy.table4(prune="lt"); ctx.save_table(t4, "table4_strict"); ctx.save_table(t4_le, "table4_alg4_le")
display(t4); display(t4_le)'''),
    ("code", '''curve = toy.fig10_curve(corrected=True)
ctx.save_table(curve, "fig10_bound")
fig = plots.line_with_band(curve.melt(id_vars="beta", var_name="bound", value_name="value"), "beta", "value", color="bound", band=None,
                           log_x=True, title="Fig. 10: Theorem 2's error bound vs β (Example 1, ε₁ = ε₂ = 1)", x_title="β", y_title="bound on |o − a|")
ctx.save_figure(fig, "fig10_bound_vs_beta")
fig'''),
    ("code", '''c = ctx.claims
c.add("Fig. 2 / Ex. 1: I_MI", paper=3, ours=m["I_MI"], atol=0); c.add("Fig. 2: I_P", paper=4, ours=m["I_P"], atol=0)
c.add("Fig. 2: I_R", paper=1, ours=m["I_R_exact"], atol=0); c.add("Fig. 2: max degree", paper=3, ours=m["max_degree"], atol=0)
for (t, q) in zip(t3.theta, t3.quality):
    c.add(f"Table 3: q(θ={t})", paper={1: -3.41, 2: -3.82, 3: -4.24}[t], ours=q, atol=0.011, note="printed values are truncated to 2 decimals")
em = t4[t4.scheme == "EM (ε)"]
for t, p in zip(em.theta, em.probability):
    c.add(f"Table 4: EM Pr[θ={t}]", paper={1: 0.35, 2: 0.33, 3: 0.31}[t], ours=p, atol=0.0075, note="paper truncates (exact 0.3566)")
s2 = t4[(t4.scheme == "2-EM step 2 (ε/2)") & (t4.after == "θ3")]
for t, p in zip(s2.theta, s2.probability):
    c.add(f"Table 4: 2-EM step 2 after θ3, Pr[θ={t}]", paper={1: 0.51, 2: 0.49}[t], ours=p, atol=0.005)
after2 = t4[(t4.scheme == "2-EM step 2 (ε/2)") & (t4.after == "θ2")]
c.add("Table 4: after θ2 step 2 returns θ1 w.p. 1 (strict pruning)", paper=1.0, ours=float(after2.probability.iloc[0]), atol=1e-9)
c.add("Example 3: d_bound = freq(Ottawa) − 1", paper=3, ours=__import__("dpworkbench.inconsistency.selection", fromlist=["x"]).degree_bound(toy.capital_country(), toy.fig2_graph().dcs)[0], atol=0)
for b, v in [(0.001, 55.61), (0.01, 41.80), (0.1, 27.98)]:
    c.add(f"Fig. 10: bound at β={b}", paper=v, ours=float(toy.fig10_curve([b]).iloc[0, 1]), atol=0.01, note="paper plots this curve; values derived in spec §2.5")
c.add("Fig. 10: bound decreasing in β", paper="decreasing", ours="decreasing" if bool((curve.iloc[:, 1].diff().dropna() < 0).all()) else "not", verdict="pass" if bool((curve.iloc[:, 1].diff().dropna() < 0).all()) else "differs")
ctx.finish()'''),
])

# ----------------------------------------------------------------------------------------------- Fig. 3
nb("fig03_vertex_cover_toy", [
    ("md", f"""# Fig. 3 and Examples 5–6 — DP vertex cover with a stable ordering (Algorithm 5)
{PAPER}. Data: the paper's 7-node toy graph (G without E, G' with E), built in code.

Example 5: the classic 2-approximation with a *random* order can give 4 on one graph and 6 on its neighbour. Example 6:
with one global lexicographic order the cover sizes of neighbours differ by at most 2 (Prop. 3), so Lap(2/ε) suffices
(the paper prints Lap(ε/2): a typo). In iteration 6 the new v* is F (the paper writes E)."""),
    ("params", PARAMS + '''
epsilon = 1.0'''),
    ("code", IMPORTS + '''
from dpworkbench.inconsistency import toy, dp_vertex_cover
from dpworkbench.inconsistency.measures import i_r_exact
from dpworkbench.inconsistency.teaching import draw_graph, vertex_cover_steps
from dpworkbench import plots
ctx = NotebookContext("inconsistency/fig03_vertex_cover_toy", profile=profile, output_dir=output_dir, seed=seed)
fig, trace = vertex_cover_steps()
ctx.save_figure(fig, "fig03_graph")
ctx.save_table(trace, "example6_trace")
display(trace)
fig'''),
    ("code", '''orders = toy.example5_orders()
ctx.save_table(orders, "example5_random_orders")
display(orders)
fig = plots.bar(orders, "cover_size", "share_of_orders", color="graph", title="Example 5: greedy cover size over all edge orders")
ctx.save_figure(fig, "example5_orders")
fig'''),
    ("code", '''g, gp = toy.fig3_graphs()
rng = np.random.default_rng(seed)
runs = pick(profile, ci=200, quick=2000, paper=20000)
outs = pd.DataFrame([{"graph": name, "output": dp_vertex_cover(gr, epsilon, order="lex", rng=rng)["output"]} for name, gr in (("G", g), ("G'", gp)) for _ in range(runs)])
display(outs.groupby("graph").output.describe())
c = ctx.claims
c.add("Example 6: c(G) with lexicographic order", paper=6, ours=int(trace.c.iloc[-1]), atol=0)
c.add("Example 6: c(G')", paper=6, ours=int(trace["c'"].iloc[-1]), atol=0)
c.add("Example 6: (c, c') trace", paper="(2,2)(2,2)(2,2)(4,4)(4,4)(4,6)(6,6)", ours="".join(f"({a},{b})" for a, b in zip(trace.c, trace["c'"])),
      verdict="pass" if list(zip(trace.c, trace["c'"])) == [(2, 2), (2, 2), (2, 2), (4, 4), (4, 4), (4, 6), (6, 6)] else "differs")
c.add("Example 5: random orders give 4 or 6 on G", paper="4 vs 6", ours=sorted(orders[orders.graph == "G"].cover_size.tolist()),
      verdict="pass" if set(orders[orders.graph == "G"].cover_size) == {4, 6} else "differs")
c.add("exact τ(G), τ(G') (2-approx. brackets)", paper="3, 4 (derived)", ours=f"{i_r_exact(g)}, {i_r_exact(gp)}", verdict="pass" if (i_r_exact(g), i_r_exact(gp)) == (3, 4) else "differs")
ctx.finish()'''),
])

# ----------------------------------------------------------------------------------------------- Table 5
nb("tab05_datasets", [
    ("md", f"""# Table 5 — datasets, constraints and the conflict graph at 1 % RNoise
{PAPER}. {DATA_NOTE}

Each dataset is sampled to 10k rows (ci: fewer), made inconsistent with RNoise α = 1 % (typo probability 0.5, uniform
value choice — the artifact's Zipf-argument slip is not copied), and its conflict graph is built by the fast engine.
The synthetic generators were calibrated so that the maximum degree lands within ±25 % of Table 5."""),
    ("params", PARAMS + '''
alpha = 0.01'''),
    ("code", IMPORTS + '''
from dpworkbench import plots
ctx = NotebookContext("inconsistency/tab05_datasets", profile=profile, output_dir=output_dir, seed=seed)
rows = pick(profile, ci=1500, quick=10000, paper=10000)
seeds = pick(profile, ci=[seed], quick=[seed, seed + 1], paper=list(range(seed, seed + 5)))
t5 = X.table5(rows=rows, alpha=alpha, seeds=seeds)
ctx.save_table(t5, "table5")
t5'''),
    ("code", '''fig = plots.bar(t5.melt(id_vars="dataset", value_vars=["max_degree", "max_degree_paper"]), "dataset", "value", color="variable", log_y=True,
                title=f"Max degree at 1% RNoise, {rows} rows: ours vs Table 5")
ctx.save_figure(fig, "tab05_max_degree")
for r in t5.itertuples():
    if rows == 10000:
        ctx.claims.add(f"Table 5: max degree, {r.dataset} 10k, 1% RNoise ({r.source})", paper=r.max_degree_paper, ours=r.max_degree,
                       rtol=0.25 if r.dataset != "Stock" else None, atol=0 if r.dataset == "Stock" else None,
                       note=("real data" if r.source == "real" else "synthetic generator calibrated to this value"))
    else:
        ctx.claims.add(f"Table 5: max degree, {r.dataset} (only {rows} rows in this profile)", paper=r.max_degree_paper, ours=r.max_degree,
                       verdict="not-comparable", note="the paper uses 10k rows; run the quick profile")
    ctx.claims.add(f"Table 5: #DCs (#FDs), {r.dataset}", paper=f"{r.dcs_paper} ({r.fds_paper})", ours=f"{r.dcs} ({r.fd_like})",
                   verdict="pass" if (r.dcs, r.fd_like) == (r.dcs_paper, r.fds_paper) else "differs")
order = t5.set_index("dataset").edges
ctx.claims.add("density order Stock < Tax < Hospital < Flight < Adult (edges)", paper="Stock<Tax<Hospital<Flight<Adult",
               ours="<".join(order.sort_values().index), verdict="pass" if list(order.sort_values().index) == ["Stock", "Tax", "Hospital", "Flight", "Adult"] else "differs")
fig'''),
    ("md", """### Calibration of the synthetic generators
`calibration()` regenerates each synthetic table, applies the same RNoise and reports the generator's own statistics
(airports, providers, states, …) with the maximum degree it reaches next to Table 5 (target ±25 %)."""),
    ("code", '''from dpworkbench.inconsistency.datasets import calibration
cal = pd.DataFrame([calibration(d, rows=rows, alpha=alpha, seed=seed) for d in ("Stock", "Tax", "Hospital", "Flight")])
ctx.save_table(cal, "calibration")
cal'''),
    ("code", "ctx.finish()"),
])

# ----------------------------------------------------------------------------------------------- Figs. 4/5
nb("fig04_fig05_true_vs_private", [
    ("md", f"""# Figs. 4 and 5 — true vs private I_P, I_MI, I_R under RNoise (Fig. 4, α = 1 %) or CONoise (Fig. 5, 200 iterations), ε = 1
{PAPER}. {DATA_NOTE}

One notebook, two figures: the `noise` parameter picks the noise model, `"rnoise"` for Fig. 4 and `"conoise"` for Fig. 5
(`dpworkbench reproduce` runs it twice, as `fig04_true_vs_private_rnoise` and `fig05_true_vs_private_conoise`; see
`notebooks/manifest.toml`). "Our approach": Algorithm 2 with the full Algorithm 4 (FD bound + two-step EM; ε split
0.1/0.15/0.15/0.6) for I_MI and I_P, Algorithm 5 for I_R. I_P uses the corrected sensitivity θ+1 (set
`ip_sensitivity = "paper"` for the paper's θ). The I_R "true value" is 2·I_R^lin, as in the paper's artifact. Panels:
datasets sparsest → densest. The R2T series (I_MI, dotted red) is drawn from `dpworkbench.r2t` with the artifact's
settings (GS = n, β = 0.1, base 5.5; its truncations are computed once per graph); `r2t_series = False` drops it. {ASSUME}"""),
    ("params", PARAMS + '''
noise = "rnoise"       # "rnoise" (Fig. 4) | "conoise" (Fig. 5)
alpha = 0.01           # RNoise: fraction of cells changed (Fig. 4)
conoise_iters = 200    # CONoise: iterations (Fig. 5)
epsilon = 1.0
ip_sensitivity = "safe"
artifact_compat = False
r2t_series = True      # add R2T (I_MI) as in the paper's Figs. 4b/5b'''),
    ("code", IMPORTS + '''
fig_no = {"rnoise": 4, "conoise": 5}[noise]
stem = f"fig{fig_no:02d}_true_vs_private_{noise}"
ctx = NotebookContext(f"inconsistency/{stem}", profile=profile, output_dir=output_dir, seed=seed)
datasets = ["Stock", "Tax", "Hospital", "Flight", "Adult"]
rows = pick(profile, ci=800, quick=10000, paper=10000)
n_checkpoints = pick(profile, ci=2, quick=5, paper=20)
repeats = pick(profile, ci=2, quick=10, paper=10)
res = X.noise_experiment(stem, datasets, noise=noise, alpha=alpha, conoise_iters=conoise_iters, rows=rows,
                         n_checkpoints=n_checkpoints, repeats=repeats, epsilons=[epsilon], ip_sensitivity=ip_sensitivity,
                         strategies=("bound_hier", "r2t") if r2t_series else ("bound_hier",),
                         artifact_compat=artifact_compat, seed=seed, results_dir=ctx.results_dir)
display(res.groupby("dataset").source.first())
summary = X.error_summary(res)
ctx.save_table(summary, "error_summary")
summary'''),
    ("code", '''fig = X.fig_true_vs_private(res, f"Fig. {fig_no}: true vs private ({noise}, ε={epsilon}, {rows} rows, {repeats} runs)")
ctx.save_figure(fig, f"fig{fig_no:02d}_true_vs_private")
fig'''),
    ("code", '''ours = res[res.algo != "r2t"]
avg = X.error_summary(ours, by=("measure",)).set_index("measure")["mean"]
per = X.error_summary(ours, by=("dataset", "measure")).set_index(["dataset", "measure"])["mean"]
if r2t_series:
    r2t_err = X.error_summary(res[res.algo == "r2t"], by=("measure",)).set_index("measure")["mean"]
    ctx.claims.add("R2T is less accurate than ours for I_MI (average relative error)", paper="ours < R2T",
                   ours=f"ours {avg['I_MI']:.3f}, R2T {float(r2t_err['I_MI']):.3f}",
                   verdict="not-comparable" if profile == "ci" else ("pass" if avg["I_MI"] < float(r2t_err["I_MI"]) else "differs"),
                   note="§6.2 / Table 1; R2T with the artifact's GS = n, β = 0.1, base 5.5")
scale = "" if profile != "ci" else " (ci: tiny tables)"
for m, p in X.PAPER_AVG_ERROR.items():
    ctx.claims.add(f"average relative error of {m} over datasets and checkpoints{scale}", paper=p, ours=float(avg[m]),
                   rtol=0.5 if profile != "ci" else None, verdict="not-comparable" if profile == "ci" else None,
                   note="paper text §6.2 (whether it averages Figs. 4 and 5 is not said); tolerance ±50%; per dataset (paper's worst: "
                        "Stock for I_MI and I_R, Adult for I_P): " + ", ".join(f"{d} {float(per[(d, m)]):.3f}" for d in datasets if (d, m) in per.index))
ctx.claims.add("I_R is the most accurate measure (sensitivity 2)", paper="I_R < I_MI, I_P", ours=f"I_R {avg['I_R']:.3f}, I_MI {avg['I_MI']:.3f}, I_P {avg['I_P']:.3f}",
               verdict="pass" if avg["I_R"] < min(avg["I_MI"], avg["I_P"]) else "differs")
if noise == "rnoise":  # the per-dataset I_MI claims (text §6.2, Table 1) belong to Fig. 4 only
    for d, p in X.PAPER_MI_ERROR_TEXT.items():
        ctx.claims.add(f"I_MI relative error, {d} (ours, ε=1){scale}", paper=p, ours=float(per[(d, "I_MI")]),
                       verdict="not-comparable" if profile == "ci" else ("pass" if float(per[(d, "I_MI")]) <= 2 * p else "differs"),
                       note="pass = within 2× the paper's value (text §6.2); synthetic data except Adult")
    for d, p in X.PAPER_TAB1_OURS.items():
        ctx.claims.add(f"Table 1 (this work): I_MI error, {d}{scale}", paper=p, ours=float(per[(d, "I_MI")]),
                       verdict="not-comparable" if profile == "ci" else ("pass" if float(per[(d, "I_MI")]) <= 2 * p + 0.05 else "differs"),
                       note="Table 1's noise setting is not stated; pass = within 2×+0.05")
ctx.finish()'''),
])

# ----------------------------------------------------------------------------------------------- Table 1
nb("tab01_r2t_vs_projection", [
    ("md", f"""# Table 1 — I_MI under DP: R2T vs graph projection (this work), ε = 1, Adult / Flight / Stock
{PAPER}. {DATA_NOTE}

Both mechanisms estimate I_MI (the number of conflicting tuple pairs) under tuple-level DP with ε = 1. **R2T** (Dong et
al., SIGMOD'22) runs from `dpworkbench.r2t` with the artifact's settings (GS = n, β = 0.1, log base 5.5, τ_i = 5.5^i up
to ⌊log_5.5 n⌋, exact max-flow truncation): `R2T` counts each conflicting pair once (the R2T paper's self-join count),
`R2T-ordered` counts ordered pairs and halves the output as the artifact did (same mechanism, τ grid shifted by 2).
**Ours** is Algorithm 2 with the full Algorithm 4 (FD bound + two-step EM; 0.1/0.15/0.15/0.6 ε split).
The paper does not state Table 1's noise setting (and its §6.2 numbers differ: spec §7 item 19); we use RNoise α = 1 %
(as Figs. 4 and 6) at the last checkpoint. The paper's Stock R2T entry (123.19) is a *ratio* (≈ 12,300 %), spec §7 item 27.
R2T releases max(…, Q(I,0) = 0), and both outputs are clipped to [0, C(n,2)], so an output of 0 has relative error 1. {ASSUME}"""),
    ("params", PARAMS + '''
alpha = 0.01
epsilon = 1.0
base = 5.5             # the artifact's R2T log base (the R2T paper uses 2)'''),
    ("code", IMPORTS + '''
from dpworkbench.inconsistency import r2t_baseline as T
ctx = NotebookContext("inconsistency/tab01_r2t_vs_projection", profile=profile, output_dir=output_dir, seed=seed)
datasets = ["Adult", "Flight", "Stock"]
rows = pick(profile, ci=800, quick=10000, paper=10000)
repeats = pick(profile, ci=2, quick=10, paper=10)
n_checkpoints = pick(profile, ci=1, quick=1, paper=5)
res = T.table1_experiment("tab01", datasets, alpha=alpha, rows=rows, repeats=repeats, epsilon=epsilon, base=base,
                          n_checkpoints=n_checkpoints, seed=seed, results_dir=ctx.results_dir)
summary = T.table1_summary(res)
ctx.save_table(summary, "table1")
summary'''),
    ("code", '''fig = T.fig_table1(summary, f"Table 1: relative error of I_MI at ε = {epsilon} (RNoise α = {alpha}, {rows} rows, {repeats} runs)")
ctx.save_figure(fig, "tab01_r2t_vs_projection")
fig'''),
    ("code", '''S = summary.set_index(["dataset", "algo"])
na = profile == "ci"
for d in ("Adult", "Flight"):
    m = float(S.loc[(d, "R2T"), "mean"])
    ctx.claims.add(f"Table 1 R2T: I_MI relative error, {d}", paper=T.PAPER_TABLE1["R2T"][d][0], ours=m, verdict=T.ratio_verdict(m, T.PAPER_TABLE1["R2T"][d][0], comparable=not na),
                   note=f"pass = within 0.5–2× of the paper; {S.loc[(d, 'R2T'), 'source']} data; R2T-ordered (artifact): {float(S.loc[(d, 'R2T-ordered'), 'mean']):.3f}")
for d in datasets:
    m = float(S.loc[(d, "ours"), "mean"])
    p = T.PAPER_TABLE1["ours"][d][0]
    ctx.claims.add(f"Table 1 this work: I_MI relative error, {d}", paper=p, ours=m,
                   verdict="not-comparable" if na else ("pass" if m <= 2 * p + 0.05 else "differs"), note="pass = at most 2× the paper + 0.05")
better = [d for d in datasets if float(S.loc[(d, "ours"), "mean"]) < float(S.loc[(d, "R2T"), "mean"])]
ctx.claims.add("this work beats R2T on every dataset", paper="Adult, Flight, Stock", ours=", ".join(better) or "none",
               verdict="not-comparable" if na else ("pass" if len(better) == len(datasets) else "differs"))
stock = float(S.loc[("Stock", "R2T"), "mean"]) / max(float(S.loc[("Stock", "ours"), "mean"]), 1e-9)
ctx.claims.add("Stock (very few violations): R2T error far above ours", paper=f"{123.19 / 0.07:.0f}× (123.19 vs 0.07)", ours=f"{stock:.3g}×",
               verdict="not-comparable" if na else ("pass" if stock >= 5 else "differs"),
               note="R2T's output is max(…, 0), so its relative error is 1 when it releases 0; the paper's 123.19 means outputs ≈ 124× the "
                    "true count, which a clipped R2T cannot produce unless the true count is tiny — we report our ratio")
ctx.finish()'''),
])

# ----------------------------------------------------------------------------------------------- Fig. 6
nb("fig06_theta_strategies", [
    ("md", f"""# Fig. 6 — strategies for θ: relative error (log) vs the true value, RNoise α = 1 %, ε = 1
{PAPER}. {DATA_NOTE}

Five strategies (spec §2.9): θ = |V| (Baseline 1: Laplace with global sensitivity n), θ = max degree (Baseline 2,
**non-private** oracle), exponential mechanism (Alg. 3; 0.4ε / 0.6ε), hierarchical EM (Alg. 4 without the bound;
0.2ε + 0.2ε / 0.6ε) and upper bound + hierarchical EM (ours; 0.1ε + 0.15ε + 0.15ε / 0.6ε). The |V| candidate is added
when Σ has a general DC (Adult, Tax). {ASSUME}"""),
    ("params", PARAMS + '''
alpha = 0.01
epsilon = 1.0
ip_sensitivity = "safe"'''),
    ("code", IMPORTS + '''
ctx = NotebookContext("inconsistency/fig06_theta_strategies", profile=profile, output_dir=output_dir, seed=seed)
datasets = ["Stock", "Tax", "Hospital", "Flight", "Adult"]
strategies = ["baseline_V", "baseline_dmax", "em", "hier_em", "bound_hier"]
rows = pick(profile, ci=800, quick=10000, paper=10000)
n_checkpoints = pick(profile, ci=2, quick=5, paper=20)
repeats = pick(profile, ci=2, quick=10, paper=10)
res = X.noise_experiment("fig06", datasets, noise="rnoise", alpha=alpha, rows=rows, n_checkpoints=n_checkpoints, repeats=repeats,
                         epsilons=[epsilon], strategies=strategies, measures=("I_MI", "I_P"), ip_sensitivity=ip_sensitivity,
                         seed=seed, results_dir=ctx.results_dir)
summary = X.error_summary(res).pivot_table(index=["dataset", "measure"], columns="algo", values="mean")
ctx.save_table(summary.reset_index(), "error_by_strategy")
summary'''),
    ("code", '''fig = X.fig_strategies(res, f"Fig. 6: θ strategies (RNoise α={alpha}, ε={epsilon}, {rows} rows)")
ctx.save_figure(fig, "fig06_strategies")
fig'''),
    ("code", '''S = summary
na = profile == "ci"
ratio = float(min(S.loc[("Stock", m), a] for m in ("I_MI", "I_P") for a in ("baseline_V", "em")) / max(S.loc[("Stock", m), "bound_hier"] for m in ("I_MI", "I_P")))
ctx.claims.add("Stock: non-pruned private strategies 10³–10⁴× worse than ours", paper="1e3–1e4", ours=f"{ratio:.3g}×",
               verdict="not-comparable" if na else ("pass" if ratio >= 100 else "differs"), note="min over (θ=|V|, EM) and measures of error ratio vs ours; pass ≥ 100×")
for d in ("Tax", "Hospital"):
    best = S.loc[d].drop(columns="baseline_dmax").idxmin(axis=1)
    ctx.claims.add(f"{d}: ours best among private strategies", paper="bound_hier", ours=", ".join(f"{m}: {best[m]}" for m in best.index),
                   verdict="not-comparable" if na else ("pass" if all(b in ("bound_hier", "hier_em") for b in best) else "differs"),
                   note="the paper also puts the red hierarchical EM within one order of magnitude; pass = bound_hier or hier_em best")
for d in ("Flight", "Adult"):
    mi_base_better = S.loc[(d, "I_MI"), "baseline_V"] <= S.loc[(d, "I_MI"), "bound_hier"]
    ip_ours_better = min(S.loc[(d, "I_P"), "bound_hier"], S.loc[(d, "I_P"), "hier_em"]) <= S.loc[(d, "I_P"), "baseline_V"]
    ctx.claims.add(f"{d} (dense): Baseline 1 beats ours for I_MI, ours/hier beat Baseline 1 for I_P", paper="yes / yes",
                   ours=f"{'yes' if mi_base_better else 'no'} / {'yes' if ip_ours_better else 'no'}",
                   verdict="not-comparable" if na else ("pass" if (mi_base_better and ip_ours_better) else "differs"))
'''),
    ("md", """### The paper's version for I_P (labelled options; the sensitivity is not proven private)
The curves above use the corrected I_P sensitivities (Laplace (θ+1)/ε₂, quality 2θ_max) and clip every output to
[0, n] (post-processing). The paper's curves use θ and θ_max, and its code measures I_P's error *before* clipping — which
is what makes Baseline 1 (noise of scale n on a value close to n) look bad on dense data. `ip_sensitivity="paper"` with
`clip="artifact"` reproduces that setting for the dense datasets."""),
    ("code", '''res_p = X.noise_experiment("fig06_paper_ip", ["Flight", "Adult"], noise="rnoise", alpha=alpha, rows=rows, n_checkpoints=n_checkpoints,
                           repeats=repeats, epsilons=[epsilon], strategies=["baseline_V", "hier_em", "bound_hier"], measures=("I_P",),
                           ip_sensitivity="paper", clip="artifact", seed=seed, results_dir=ctx.results_dir)
Sp = X.error_summary(res_p).pivot_table(index=["dataset", "measure"], columns="algo", values="mean")
ctx.save_table(Sp.reset_index(), "error_by_strategy_paper_ip_sensitivity")
display(Sp)
for d in ("Flight", "Adult"):
    better = min(Sp.loc[(d, "I_P"), "bound_hier"], Sp.loc[(d, "I_P"), "hier_em"]) <= Sp.loc[(d, "I_P"), "baseline_V"]
    ctx.claims.add(f"{d}: ours/hier beat Baseline 1 for I_P in the paper's setting (θ sensitivity, unclipped I_P; not proven private)", paper="yes",
                   ours="yes" if better else "no", verdict="not-comparable" if na else ("pass" if better else "differs"))
ctx.finish()'''),
])

# ----------------------------------------------------------------------------------------------- Fig. 7
nb("fig07_epsilon_sweep", [
    ("md", f"""# Fig. 7 — varying ε ∈ {{0.1, 0.2, 0.5, 1, 2, 3, 5}}, RNoise α = 0.5 %, Stock / Hospital / Flight
{PAPER}. {DATA_NOTE} (All three datasets of this figure are synthetic stand-ins.)

Each ε runs Algorithm 2 + full Algorithm 4 (I_MI, I_P) and Algorithm 5 (I_R) on the graph at α = 0.5 % (the final
checkpoint, as the artifact's plot script does). {ASSUME}"""),
    ("params", PARAMS + '''
alpha = 0.005'''),
    ("code", IMPORTS + '''
ctx = NotebookContext("inconsistency/fig07_epsilon_sweep", profile=profile, output_dir=output_dir, seed=seed)
datasets = ["Stock", "Hospital", "Flight"]
epsilons = [0.1, 0.2, 0.5, 1.0, 2.0, 3.0, 5.0]
rows = pick(profile, ci=800, quick=10000, paper=10000)
repeats = pick(profile, ci=3, quick=10, paper=10)
res = X.noise_experiment("fig07", datasets, noise="rnoise", alpha=alpha, rows=rows, n_checkpoints=1, repeats=repeats, epsilons=epsilons,
                         seed=seed, results_dir=ctx.results_dir, last_checkpoint_only=True)
summary = X.error_summary(res, by=("dataset", "measure", "eps"))
ctx.save_table(summary, "error_vs_epsilon")
summary.pivot_table(index=["dataset", "measure"], columns="eps", values="mean")'''),
    ("code", '''fig = X.fig_epsilon(res, f"Fig. 7: relative error vs ε (RNoise α={alpha}, {rows} rows, {repeats} runs)")
ctx.save_figure(fig, "fig07_epsilon")
fig'''),
    ("code", '''S = summary.set_index(["dataset", "measure", "eps"])["mean"]
na = profile == "ci"
for d, e in (("Stock", 3.0), ("Hospital", 0.1), ("Flight", 0.1)):
    v = float(S[(d, "I_R", e)])
    ctx.claims.add(f"I_R error ≤ 0.05 at ε={e} on {d}", paper=0.05, ours=v, verdict="not-comparable" if na else ("pass" if v <= 0.05 else "differs"))
for m in ("I_MI", "I_P", "I_R"):
    lo, hi = float(summary[(summary.measure == m) & (summary.eps == 0.1)]["mean"].mean()), float(summary[(summary.measure == m) & (summary.eps == 5.0)]["mean"].mean())
    ctx.claims.add(f"{m}: error improves from ε=0.1 to ε=5", paper="decreasing", ours=f"{lo:.3g} → {hi:.3g}", verdict="pass" if hi < lo else "differs")
ctx.finish()'''),
])

# ----------------------------------------------------------------------------------------------- Fig. 8
nb("fig08_runtime", [
    ("md", f"""# Fig. 8 — runtime: Tax size sweep (α = 0.5 % and 1 %) and Flight number of DCs (1 … 13)
{PAPER}. Data: **synthetic** Tax and Flight stand-ins (the real tables are not available offline).

Times are wall-clock seconds for graph construction plus each DP measure at ε = 1 (I_MI and I_P: full Algorithm 4;
I_R: Algorithm 5), on a shared 2-core machine. Absolute times are not comparable with the paper's (Xeon, networkx,
pickles); the log–log slopes and trends are. The quick profile stops at 10⁵ rows (the paper: 10⁶; see the benchmark
`benchmarks/bench_inconsistency_scale.py` with `DPWB_BENCH_TAX_ROWS=1000000`)."""),
    ("params", PARAMS),
    ("code", IMPORTS + '''
from dpworkbench.inconsistency.datasets import load_table, dcs_for
from dpworkbench.inconsistency.noise import rnoise
from dpworkbench import plots
from tqdm.auto import tqdm
ctx = NotebookContext("inconsistency/fig08_runtime", profile=profile, output_dir=output_dir, seed=seed)
sizes = pick(profile, ci=[100, 300, 1000, 2000], quick=[100, 1000, 10000, 30000, 100000], paper=[100, 1000, 10000, 100000, 1000000])
flight_rows = pick(profile, ci=1000, quick=10000, paper=10000)
rows_out = []
for a in (0.005, 0.01):
    for n in tqdm(sizes, desc=f"Tax α={a}"):
        if a == 0.01 and n >= 1000000:
            continue  # omitted in the paper too
        ds = load_table("Tax", rows=n, seed=seed)
        *_, (_, df) = rnoise(ds.data, dcs_for("Tax"), a, rng=seed, n_checkpoints=1)
        rows_out.append({"alpha": a, **X.time_all_measures(df, dcs_for("Tax"), rng=seed)})
tax = pd.DataFrame(rows_out)
ctx.save_table(tax, "tax_size_sweep")
tax'''),
    ("code", '''long = tax.melt(id_vars=["alpha", "rows"], value_vars=["I_MI_s", "I_P_s", "I_R_s"], var_name="measure", value_name="seconds")
long["series"] = long.measure.str[:-2] + ", α=" + long.alpha.astype(str)
fig = plots.line_with_band(long, "rows", "seconds", color="series", band=None, log_x=True, log_y=True,
                           title="Fig. 8 (left/center): runtime vs number of rows, Tax (synthetic)")
ctx.save_figure(fig, "fig08_tax_runtime")
slopes = {a: X.loglog_slope(tax[tax.alpha == a].rows, tax[tax.alpha == a].I_MI_s) for a in (0.005, 0.01)}
edge_slope = X.loglog_slope(tax[tax.alpha == 0.005].rows, tax[tax.alpha == 0.005].edges)
display(pd.Series({"runtime slope α=0.005": slopes[0.005], "runtime slope α=0.01": slopes[0.01], "edges slope α=0.005": edge_slope}))
fig'''),
    ("code", '''ds = load_table("Flight", rows=flight_rows, seed=seed)
dcs = dcs_for("Flight")
*_, (_, fdf) = rnoise(ds.data, dcs, 0.005, rng=seed, n_checkpoints=1)
fl = pd.DataFrame([{"dcs": k, **X.time_all_measures(fdf, dcs[:k], rng=seed)} for k in tqdm(range(1, len(dcs) + 1), desc="Flight #DCs")])
ctx.save_table(fl, "flight_dc_sweep")
fig2 = plots.line_with_band(fl.melt(id_vars="dcs", value_vars=["I_MI_s", "I_P_s", "I_R_s"], var_name="measure", value_name="seconds"),
                            "dcs", "seconds", color="measure", band=None, log_y=True, title=f"Fig. 8 (right): runtime vs #DCs, Flight (synthetic, {flight_rows} rows)")
ctx.save_figure(fig2, "fig08_flight_dcs")
display(fl[["dcs", "edges", "build_s", "I_MI_s", "I_P_s", "I_R_s", "I_MI_theta"]])
fig2'''),
    ("code", '''paper_slope = np.log10(4500 / 1e-3) / 4  # 10² nodes: 1 ms; 10⁶ nodes: 4,500 s
c = ctx.claims
c.add("runtime grows with table size (log–log slope, Tax α=0.005)", paper=round(paper_slope, 2), ours=slopes[0.005], verdict="not-comparable",
      note="paper: 1 ms at 10² nodes → 4,500 s at 10⁶ nodes (322 M edges); our sizes/hardware differ; trend only")
c.add("runtime increases with size", paper="increasing", ours=f"slope {slopes[0.005]:.2f}", verdict="pass" if slopes[0.005] > 0 else "differs")
c.add("edges grow super-linearly with rows (paper: 'exponentially')", paper="> 1", ours=edge_slope, verdict="pass" if edge_slope > 1 else "differs")
c.add("Flight: I_MI/I_P time, 13 DCs vs 1 DC", paper=25 / 5, ours=float(fl.I_MI_s.iloc[-1] / fl.I_MI_s.iloc[0]), verdict="not-comparable",
      note="paper: ≈5 s → 25 s; ratio shown")
c.add("Flight: time increases with #DCs", paper="increasing", ours=f"{fl.I_MI_s.iloc[0]:.3g}s → {fl.I_MI_s.iloc[-1]:.3g}s",
      verdict="pass" if fl.I_MI_s.iloc[-1] > fl.I_MI_s.iloc[0] else "differs")
c.add("I_R (Alg. 5) faster than I_MI/I_P", paper="≤1 s vs 5 s (1 DC)", ours=f"{fl.I_R_s.mean():.3g}s vs {fl.I_MI_s.mean():.3g}s",
      verdict="pass" if fl.I_R_s.mean() < fl.I_MI_s.mean() else "differs")
ctx.finish()'''),
])

# ----------------------------------------------------------------------------------------------- Fig. 9
nb("fig09_runtime_by_density", [
    ("md", f"""# Fig. 9 (App. A.4) — runtime of all measures by dataset, 10k rows, RNoise α = 0.1 %, ε = 1
{PAPER}. {DATA_NOTE}

The paper: "runtime is proportional to the density of the dataset". Times on a shared 2-core machine."""),
    ("params", PARAMS + '''
alpha = 0.001'''),
    ("code", IMPORTS + '''
from dpworkbench.inconsistency.datasets import load_table, dcs_for, NAMES
from dpworkbench.inconsistency.noise import rnoise
from dpworkbench import plots
ctx = NotebookContext("inconsistency/fig09_runtime_by_density", profile=profile, output_dir=output_dir, seed=seed)
rows = pick(profile, ci=1000, quick=10000, paper=10000)
out = []
for name in NAMES:
    ds = load_table(name, rows=rows, seed=seed)
    *_, (_, df) = rnoise(ds.data, dcs_for(name), alpha, rng=seed, n_checkpoints=1)
    out.append({"dataset": name, "source": ds.source, **X.time_all_measures(df, dcs_for(name), rng=seed)})
rt = pd.DataFrame(out)
ctx.save_table(rt, "runtime_by_dataset")
rt'''),
    ("code", '''fig = plots.bar(rt.melt(id_vars="dataset", value_vars=["I_MI_s", "I_P_s", "I_R_s"], var_name="measure", value_name="seconds"),
                "dataset", "seconds", color="measure", log_y=True, title=f"Fig. 9: runtime by dataset (sparsest → densest), {rows} rows, α={alpha}")
ctx.save_figure(fig, "fig09_runtime")
from scipy.stats import spearmanr
rho = float(spearmanr(rt.edges, rt.I_MI_s).statistic)
ctx.claims.add("runtime increases with density (Spearman ρ of edges vs I_MI time)", paper="proportional", ours=rho,
               verdict="pass" if rho > 0.5 else "differs", note="no numbers in the paper")
ctx.claims.add("densest dataset is Adult", paper="Adult", ours=rt.set_index("dataset").edges.idxmax(), verdict="pass" if rt.set_index("dataset").edges.idxmax() == "Adult" else "differs")
ctx.finish()
fig'''),
])

# ----------------------------------------------------------------------------------------------- teaching
nb("learn_conflict_graphs", [
    ("md", f"""# Learn: conflict graphs and private inconsistency measures
Teaching notebook for {PAPER}. {DATA_NOTE}

Pick a dataset, which of its DCs to use (the first k; 0 = all), a table size and a noise level: the conflict graph and the exact measures are
computed once and cached; the ε slider only redraws the Laplace/EM randomness, so moving it is cheap.
Below: Algorithm 5 (DP vertex cover) step by step on the paper's Fig. 3 graph. {ASSUME}

{ORDER_NOTE}"""),
    ("params", PARAMS + '''
dataset = "Tax"
dc_count = 0           # 0 = all of the dataset's DCs; k = only its first k
rows = 2000
alpha = 0.01
epsilon = 1.0'''),
    ("code", '''from IPython.display import display
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.inconsistency import teaching
from dpworkbench.inconsistency.datasets import dcs_for, NAMES
from dpworkbench import widgets
ctx = NotebookContext("inconsistency/learn_conflict_graphs", profile=profile, output_dir=output_dir, seed=seed)
rows = pick(profile, ci=min(rows, 800), quick=rows, paper=rows)
repeats = pick(profile, ci=10, quick=30, paper=100)
for i, d in enumerate(dcs_for(dataset), start=1):
    print(f"{i:2d} " + ("FD-like  " if d.is_fd_like else "general  ") + str(d))'''),
    ("code", '''controls = {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=10),
            "dataset": widgets.choice(list(NAMES), dataset, "dataset"),
            "alpha": widgets.choice([0.001, 0.005, 0.01, 0.02], alpha, "RNoise α"),
            "dc_count": widgets.choice(list(range(0, 14)), dc_count, "first k DCs (0 = all)")}
panel = widgets.control_panel(lambda epsilon, dataset, alpha, dc_count: teaching.explorer_view(dataset, rows, alpha, epsilon, seed=seed, repeats=repeats, dc_count=dc_count),
                              controls, interactive=interactive, title="Conflict-graph explorer")
panel if interactive else None'''),
    ("code", '''fig, table = teaching.explorer_view(dataset, rows, alpha, epsilon, seed=seed, repeats=repeats, dc_count=dc_count)
ctx.save_figure(fig, "explorer")
ds, dcs, df, g, exact = teaching.noisy_table(dataset, rows, alpha, seed, dc_count or None)
print(f"{len(dcs)} DC(s) in use")
print(ds.describe()); display(exact); display(table)
ctx.save_figure(teaching.draw_graph(g, max_nodes=150, title="non-isolated part of the conflict graph (first 150 nodes)"), "graph")'''),
    ("md", "## Algorithm 5 step by step (Fig. 3, Example 6)\nThe global lexicographic order makes the two neighbouring graphs take the same decisions except along one chain: their cover sizes differ by at most 2. (Any order that ranks tuples by what they are — or by their relative row order — works; an order that hashes row positions does not, see above.)"),
    ("code", '''vc_controls = {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=10),
               "step": widgets.choice(list(range(8)), 7, "iterations")}
vc_panel = widgets.control_panel(lambda epsilon, step: teaching.vertex_cover_step_view(step, epsilon, seed=seed), vc_controls,
                                 interactive=interactive, title="Algorithm 5 step by step")
vc_panel if interactive else None'''),
    ("code", '''gfig, trace = teaching.vertex_cover_steps()
ctx.save_figure(gfig, "fig3_graph")
ctx.save_figure(teaching.vertex_cover_step_view(7, epsilon, seed=seed)[0], "vertex_cover_release")
display(trace)
ctx.claims.add("ε slider changes only noise (graph cached)", paper="cached", ours=f"{teaching.noisy_table.cache_info().hits} cache hits", verdict="pass" if teaching.noisy_table.cache_info().hits > 0 else "differs")
ctx.finish()
gfig'''),
])

nb("learn_projection_selection", [
    ("md", f"""# Learn: graph projection (θ) and private θ selection
Teaching notebook for {PAPER}. {DATA_NOTE}

Edge addition (Algorithm 1) keeps an edge only if both endpoints still have degree < θ: a small θ truncates (bias) but the
Laplace noise scale θ/ε₂ is small; a large θ keeps everything but adds a lot of noise. Eq. 2's quality
q(θ) = −bias − √2θ/ε₂ trades the two; Algorithm 4 picks θ with the exponential mechanism, first pruning with a noisy FD
degree bound, then in two steps. F(θ) is memoised per graph, so the sliders only redo cheap work. {ASSUME}

{ORDER_NOTE}"""),
    ("params", PARAMS + '''
dataset = "Hospital"
rows = 2000
alpha = 0.01
epsilon = 1.0
theta = 50
measure = "MI"'''),
    ("code", '''from IPython.display import display
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.inconsistency import teaching
from dpworkbench import widgets
ctx = NotebookContext("inconsistency/learn_projection_selection", profile=profile, output_dir=output_dir, seed=seed)
rows = pick(profile, ci=min(rows, 800), quick=rows, paper=rows)'''),
    ("md", "## Projection explorer: bias vs Laplace noise"),
    ("code", '''import ipywidgets as w
controls = {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=10),
            "theta": widgets.log_slider(theta, 1, rows, "θ"),
            "measure": widgets.choice(["MI", "P"], measure, "measure")}
panel = widgets.control_panel(lambda epsilon, theta, measure: teaching.projection_view(dataset, rows, alpha, int(theta), epsilon, measure, seed=seed),
                              controls, interactive=interactive, title="θ: truncation bias vs noise")
panel if interactive else None'''),
    ("code", '''ctx.save_figure(teaching.projection_view(dataset, rows, alpha, theta, epsilon, measure, seed=seed), "projection")'''),
    ("md", "## θ-selection explorer: EM probabilities per step of Algorithm 4"),
    ("code", '''panel2 = widgets.control_panel(lambda epsilon, use_bound: teaching.em_view(dataset, rows, alpha, epsilon, measure, seed=seed, use_bound=use_bound),
                               {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=10), "use_bound": widgets.choice([True, False], True, "FD bound")},
                               interactive=interactive, title="Algorithm 4")
panel2 if interactive else None'''),
    ("code", '''fig = teaching.em_view(dataset, rows, alpha, epsilon, measure, seed=seed)
ctx.save_figure(fig, "em_steps")
proj = teaching.projector(dataset, rows, alpha, seed)
passes = proj.passes
teaching.projection_view(dataset, rows, alpha, theta, epsilon * 2, measure, seed=seed)
ctx.claims.add("changing ε reuses the memoised F(θ) (no new projection pass)", paper=passes, ours=proj.passes, atol=0)
ctx.finish()
fig'''),
])
print("notebooks written to", OUT)
