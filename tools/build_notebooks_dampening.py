"""Writes notebooks/dampening/*.ipynb (clean, no outputs). Run: python tools/build_notebooks_dampening.py"""

from pathlib import Path

from dpworkbench.experiments.nbtools import write_notebook

OUT = Path(__file__).resolve().parent.parent / "notebooks" / "dampening"

P = '''profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...'''

THESIS = "V. A. E. de Farias, *Local Dampening: Differential Privacy for Non-numeric Queries via Local Sensitivity*, PhD thesis, UFC 2021 (PVLDB 14(4) 2020)"


def ctx(stem):
    return f'''ctx = NotebookContext("dampening/{stem}", profile=profile, output_dir=output_dir, seed=seed)'''


IMPORTS = '''from IPython.display import display
import numpy as np, pandas as pd
from dpworkbench import datasets
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.dampening import experiments as X, ebc as E, median as M, id3 as I, examples as EX'''

# ------------------------------------------------------------------ worked examples
stem = "fig02_fig03_fig09_fig11_fig15_worked_examples"
write_notebook(OUT / f"{stem}.ipynb", [
    ("md", f"""# Worked examples: Figs. 2, 3, 9 (9c), 11 and 15; Examples 1.1.2–4.2.1
{THESIS}. Data: the thesis' toy graphs (reconstructed, spec §2.11) — no dataset, exact computation.

We recompute EBC, the exact element local sensitivity by brute force over edge toggles (Fig. 11: LS(G,0,v4) = 2), δ^EBC, the
probabilities of Examples 3.4.1 (LD), 3.6.1 (EM) and 4.2.1 (shifted by −7; the thesis' printed numbers are inconsistent, spec §7 item 8),
and the dampened values of Example 4.1.1 (the inversion problem)."""),
    ("params", P),
    ("code", IMPORTS + "\nfrom dpworkbench.dampening import SensitivityMatrix, dampen, ld_logits\nfrom dpworkbench.dampening.examples import NODES\nfrom dpworkbench.mechanisms import exponential_probabilities\nimport plotly.graph_objects as go\n" + ctx(stem)),
    ("code", '''G2, G = EX.fig2_graph(), EX.fig9c_graph()
ctx.save_figure(EX.graph_figure(G2, "Fig. 2 graph"), "fig02_graph")
fig = EX.graph_figure(G, "Fig. 3 / 9c / 15 graph"); ctx.save_figure(fig, "fig09c_graph"); fig'''),
    ("code", '''e2 = EX.ebc_nx(G2); H = G2.copy(); H.remove_edge("a", "b"); e2b = EX.ebc_nx(H)
ebc = EX.ebc_nx(G)
ls = EX.element_ls_bruteforce(G, t_max=pick(profile, ci=1, quick=2, paper=3))
deg = np.array([d for _, d in G.degree()])
tab = pd.DataFrame({"node": list(G), "EBC": ebc, "degree": deg, **{f"LS(G,{t},v)": ls[:, t] for t in range(ls.shape[1])},
                    **{f"δ^EBC(G,{t},v)": E.delta_ebc(deg, t, max_degree_bound=7) for t in range(ls.shape[1])}})
ctx.save_table(tab, "fig09c_sensitivities"); tab'''),
    ("code", '''u = EX.fig9c_utilities()
p_ld = np.exp(ld_logits(u, SensitivityMatrix(np.tile([3.0, 5.0], (8, 1)), 7.5), epsilon=2)); p_ld /= p_ld.sum()
p_em = exponential_probabilities(u, epsilon=2, sensitivity=7.5)
D421 = dampen(u - 7, SensitivityMatrix(EX.fig9c_element_ls(), 7.5)); p421 = np.exp(D421 - D421.max()); p421 /= p421.sum()
probs = pd.DataFrame({"node": list(G), "EM (Ex. 3.6.1)": p_em, "LD flat LS (Ex. 3.4.1)": p_ld, "D shifted −7 (Ex. 4.2.1)": D421, "shifted LD (Ex. 4.2.1)": p421})
ctx.save_table(probs, "example_probabilities")
fig = go.Figure([go.Bar(x=probs.node, y=probs[c], name=c) for c in ["EM (Ex. 3.6.1)", "LD flat LS (Ex. 3.4.1)", "shifted LD (Ex. 4.2.1)"]])
fig.update_layout(title="Output probabilities on the Fig. 9c graph, ε = 2", barmode="group"); ctx.save_figure(fig, "example_probabilities"); probs'''),
    ("code", '''ctx.claims.add("Fig. 2: EBC(a) = 7.5", paper=7.5, ours=e2[0], atol=1e-12)
ctx.claims.add("Fig. 2: removing ab gives EBC(a) = 15 and EBC(v_i) = 1", paper="15 / 1", ours=f"{e2b[0]:g} / {e2b[2]:g}", verdict="pass" if e2b[0] == 15 and e2b[2] == 1 else "differs")
ctx.claims.add("Fig. 9c: EBC(a) = EBC(b) = 6.5", paper=6.5, ours=ebc[0], atol=1e-12)
ctx.claims.add("Ex. 2.4.1: LS(G,0) = 3", paper=3, ours=ls[:, 0].max(), atol=0)
ctx.claims.add("Ex. 2.4.1: LS(G,1) = 5", paper=5, ours=ls[:, 1].max(), atol=0)
ctx.claims.add("Ex. 3.1.1 / Fig. 11: LS(G,0,v4) = 2 (add the edge v0v4)", paper=2, ours=ls[NODES.index("v4"), 0], atol=0)
ctx.claims.add("Ex. 4.2.1: LS(G,0,v_i) = 2 for all i", paper=2, ours=f"{ls[2:, 0].tolist()}", verdict="differs",
               note="thesis misprint: brute force over all 28 edge toggles gives 1 for v2, v3 (both already adjacent to a and b, so one "
                    "toggle changes their EBC by at most 1); v0, v1, v4, v5 have 2 as printed (e.g. add v0v4). Same as spec §2.11")
ctx.claims.add("Ex. 3.4.1: LD P[a] = 0.32", paper=0.32, ours=p_ld[0], atol=0.005)
ctx.claims.add("Ex. 3.4.1: LD P[v_i] = 0.06", paper=0.06, ours=p_ld[2], atol=0.005)
ctx.claims.add("Ex. 3.6.1: EM P[a] = 0.22", paper=0.22, ours=p_em[0], atol=0.005)
ctx.claims.add("Ex. 3.6.1: EM P[v_i] = 0.09", paper=0.09, ours=p_em[2], atol=0.005)
# Ex. 4.1.1 (inversion): u(r1)=3, δ(·,0,r1)=1, δ(·,1,r1)=2; u(r2)=4, δ(·,0,r2)=4 (Δu = 4 beyond)
D411 = dampen(np.array([3.0, 4.0]), SensitivityMatrix(np.array([[1.0, 2.0, 4.0], [4.0, 4.0, 4.0]]), 4.0))
ctx.claims.add("Ex. 4.1.1: D(r1) = 2", paper=2, ours=D411[0], atol=1e-12)
ctx.claims.add("Ex. 4.1.1: D(r2) = 1 (inversion: u(r2) > u(r1) but D(r2) < D(r1))", paper=1, ours=D411[1], atol=1e-12)
ctx.claims.add("Ex. 4.2.1: shifted P[a] = 0.472 (thesis, inconsistent)", paper=0.472, ours=p421[0], verdict="differs",
               note="thesis misprint, not our code: its printed values (D(a) = 0.1, 'exp(0.1) = 0.44', P = 0.472 / 0.0046) are internally "
                    "inconsistent and its probabilities sum to 0.97 (spec §7 item 8); recomputing with the brute-force element-LS table gives "
                    "0.403 (= spec §2.11), and the intended ordering SLD 0.403 ≥ LD 0.323 ≥ EM 0.221 holds")
ctx.finish()'''),
])

# ------------------------------------------------------------------ dampening function
stem = "fig12_fig13_fig14_dampening_function"
write_notebook(OUT / f"{stem}.ipynb", [
    ("md", f"""# Figs. 12, 13 and 14: bounded sensitivity functions, monotonicity and the dampening function
{THESIS}. Data: none (concept plots drawn from the definitions, §1.9–1.10 of the spec), plus the Fig. 9c toy graph for the inversion example."""),
    ("params", P + '''
global_sensitivity = 10.0
delta_row = [1.0, 2.0, 4.0, 7.0]'''),
    ("code", IMPORTS + "\nfrom dpworkbench.dampening import SensitivityMatrix, dampen\nimport plotly.graph_objects as go\n" + ctx(stem)),
    ("code", '''fig = go.Figure()
for name, row in [("LS(x,t) flat, bounded", delta_row), ("Δu (global)", [global_sensitivity] * len(delta_row))]:
    t = np.arange(len(row) + 4); vals = [row[i] if i < len(row) else global_sensitivity for i in t]
    fig.add_scatter(x=t, y=vals, mode="lines+markers", name=name)
fig.update_layout(title="Fig. 12: a bounded sensitivity function reaches Δu at the public horizon T", xaxis_title="t", yaxis_title="δ(x,t,r)")
ctx.save_figure(fig, "fig12_bounded"); fig'''),
    ("code", '''us = np.array([9.0, 6.0, 3.0]); rows = np.array([[3, 6, 9, 10], [2, 4, 8, 10], [1, 2, 5, 9.0]])
fig = go.Figure([go.Scatter(x=np.arange(4), y=rows[i], name=f"r{i+1} (u={us[i]:g})", mode="lines+markers") for i in range(3)])
mono = SensitivityMatrix(rows, global_sensitivity).monotonicity(us)
fig.update_layout(title=f"Fig. 13: a {mono} sensitivity function (higher utility ⇒ larger δ)", xaxis_title="t", yaxis_title="δ")
ctx.save_figure(fig, "fig13_monotonic"); fig'''),
    ("code", '''fig = X.dampening_figure(delta_row, global_sensitivity, t_mark=2)
ctx.save_figure(fig, "fig14_dampening_function"); fig'''),
    ("md", "## The inversion problem\nLD divides by δ: an element with higher utility but larger δ may get a *smaller* D than a lower-utility element with small δ. SLD removes the inversion for monotone δ."),
    ("code", '''# Thesis Example 4.1.1: u(r1)=3 with δ(t=0)=1, δ(t=1)=2; u(r2)=4 with δ(t=0)=4; Δu = 4
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
ctx.finish()'''),
])

# ------------------------------------------------------------------ median
stem = "fig17_median"
write_notebook(OUT / f"{stem}.ipynb", [
    ("md", f"""# Fig. 17: median selection on PATENT, HEPTH, INCOME
{THESIS}, §5.4, Fig. 17 (d–f). Data: DPBench 1-D histograms (4,096 bins, Λ = 4095) — real when `../shared/data/dpbench1d` exists,
else seeded stand-ins (the cell below prints which). Full data (grouped computation, no subsampling) in every profile.

Methods: EM and PF with Δ = Λ; LD with the **corrected** distance-0 element LS (Lemma 5.2.2 is misprinted) and the **admissible box bound**
for t ≥ 1 (the thesis' Candidates algorithm under-estimates LS and is not private; spec §3.4); SLD (extension). Expected errors are exact for EM/LD/SLD;
PF is exact too in ci/quick (grouped permute-and-flip integral), and the thesis' mean over 10,000 runs (grouped sampler) in the paper profile."""),
    ("params", P + '''
eps_min, eps_max = 1e-3, 1e3'''),
    ("code", IMPORTS + "\n" + ctx(stem) + '''
n_eps = pick(profile, ci=5, quick=13, paper=25)
# PF: exact expected error by the grouped integral (spec §2.2) in ci/quick; the thesis' 10,000-run mean in paper
pf_mode = pick(profile, ci="exact", quick="exact", paper="montecarlo"); pf_runs = 10000
eps_grid = np.logspace(np.log10(eps_min), np.log10(eps_max), n_eps)'''),
    ("code", '''results = {}
for name in ["PATENT", "HEPTH", "INCOME"]:
    ds = datasets.load(f"dampening/{name}", seed=seed)
    print(f"{name}: {ds.source} data, n = {int(ds.data.sum()):,}")
    df = X.median_curves(ds.data, eps_grid, pf_runs=pf_runs, pf=pf_mode, seed=seed)
    df["dataset"], df["source"] = name, ds.source
    results[name] = (ds, df)
    fig = X.median_figure(df, f"Fig. 17: {name} ({ds.source})")
    ctx.save_figure(fig, f"fig17_{name.lower()}")
    display(fig)
table = pd.concat([r[1] for r in results.values()]); ctx.save_table(table, "fig17_median_errors")'''),
    ("code", '''fig = X.median_sensitivity_figure(results["PATENT"][0].data); ctx.save_figure(fig, "median_sensitivity_patent"); fig'''),
    ("code", '''red = {k: X.median_reduction(v[1]) for k, v in results.items()}
display(pd.DataFrame(red).T)
src = results["PATENT"][0].source
ctx.claims.add("PATENT: LD reduces mean error vs EM/PF by ~18%", paper=0.18, ours=red["PATENT"]["mean"], rtol=0.5,
               note=f"{src} data; mean over the ε grid of 1 − LD/min(EM,PF); Λ, δ used by the thesis unknown (spec §3.6)")
hep_note = (f"{src} data, Λ = 4095, corrected LS0 + admissible box bound. Real finding, not a code error: our exact expected errors reproduce the "
            "spec's independent recomputation (checked below to 2%), which also gives HEPTH ≈ 16% mean and 31–37% at ε = 10–100. The thesis "
            "states neither Λ, n (subsampling?) nor the δ it used at t ≥ 1 (its Candidates δ is not admissible), so its 4% / 12% cannot be matched")
ctx.claims.add("HEPTH: mean reduction ~4%", paper=0.04, ours=red["HEPTH"]["mean"], atol=0.04, note=hep_note)
ctx.claims.add("HEPTH: max reduction ≤ 12%", paper=0.12, ours=red["HEPTH"]["max"], verdict="pass" if red["HEPTH"]["max"] <= 0.12 else "differs",
               note=hep_note)
if src == "real":  # spec §3.6 sanity reference [D] (exact expected errors on the DPBench copies, box bound, Λ = 4095)
    ref = {("PATENT", 10): (548, 277), ("PATENT", 100): (88, 43), ("HEPTH", 10): (435, 299), ("HEPTH", 100): (79, 50)}
    for (name, e), (em_ref, ld_ref) in ref.items():
        g = M.histogram_groups(results[name][0].data)
        em, ld = M.expected_error(g, "EM", e), M.expected_error(g, "LD", e)
        ctx.claims.add(f"{name} ε={e}: E|err| EM / LD (spec §3.6 recomputation, not the thesis)", paper=f"{em_ref} / {ld_ref}",
                       ours=f"{em:.0f} / {ld:.0f}", verdict="pass" if abs(em / em_ref - 1) < 0.02 and abs(ld / ld_ref - 1) < 0.02 else "differs",
                       note="cross-check of our exact computation against the spec author's independent script")
ctx.claims.add("INCOME: no reduction", paper=0.0, ours=red["INCOME"]["mean"], atol=0.03)
ctx.claims.add("ordering PATENT > HEPTH > INCOME", paper="PATENT > HEPTH > INCOME",
               ours=" > ".join(sorted(red, key=lambda k: -red[k]["mean"])),
               verdict="pass" if red["PATENT"]["mean"] > red["HEPTH"]["mean"] > red["INCOME"]["mean"] else "differs")
ctx.finish()'''),
])

# ------------------------------------------------------------------ EBC correlation
stem = "fig16_ebc_correlation"
write_notebook(OUT / f"{stem}.ipynb", [
    ("md", f"""# Fig. 16: EBC vs δ^EBC(G,0,v) on Enron
{THESIS}, §6.4, Fig. 16. Data: SNAP Email-Enron (real when available; ci uses a 3,000-node Holme–Kim stand-in; the cell prints which).
Also the diagnostic of spec §0.3: overlap of the top-k by EBC with the top-k by degree (SLD is essentially EM on a concave function of the degree)."""),
    ("params", P),
    ("code", IMPORTS + "\nfrom scipy.stats import spearmanr\n" + ctx(stem) + '''
ds = datasets.load("dampening/enron", prefer=pick(profile, ci="synthetic", quick="real", paper="real"), seed=seed,
                   **({"n": 3000} if profile == "ci" else {}))
g = ds.data; print(ds.source, g)
ebc = E.ebc_all(g); deg = g.degrees'''),
    ("code", '''fig = X.ebc_scatter(ebc, deg, sample=pick(profile, ci=2000, quick=10000, paper=len(ebc)), seed=seed)
ctx.save_figure(fig, "fig16_ebc_vs_delta"); fig'''),
    ("code", '''rho = spearmanr(ebc, E.delta_ebc(deg, 0, max_degree_bound=int(deg.max()))).statistic
ov = pd.DataFrame([{"k": k, "overlap": E.topk_overlap_with_degree(ebc, deg, k)} for k in (5, 10, 20)])
ctx.save_table(ov, "topk_overlap_ebc_degree"); display(ov)
ctx.claims.add("EBC and δ^EBC(G,0,v) positively correlated, not strictly monotone", paper="positive correlation", ours=f"Spearman ρ = {rho:.3f} ({ds.source})",
               verdict="pass" if rho > 0.5 else "differs")
ctx.claims.add("top-20 by EBC vs top-20 by degree (diagnostic, not in the thesis)", paper="—", ours=int(ov.overlap.iloc[-1]), verdict="not-comparable",
               note="high overlap explains SLD's large advantage (spec §0.3)")
ctx.finish()'''),
])

# ------------------------------------------------------------------ PrivTopk
stem = "fig20_privtopk"
write_notebook(OUT / f"{stem}.ipynb", [
    ("md", f"""# Fig. 20: private top-k nodes by egocentric betweenness (EM, PF, LD, SLD)
{THESIS}, §6.5, Fig. 20 (d–f). Data: Enron and GitHub (real SNAP files when available; ci uses small synthetic stand-ins), DBLP-like synthetic
(no real copy exists; in quick it is scaled to 60,000 nodes). The max degree is assumed public, as in the thesis (ΔEBC = g(Δ)).
Accuracy = |retrieved ∩ true top-k| / k; EM/LD/SLD use one-shot Gumbel-top-k, PF k sequential passes (simulated as report-noisy-max with
exponential noise, identical in law to permute-and-flip). EBC is computed once per graph (numba kernel, cached on disk by graph hash) and all runs'
noise is drawn in one batch."""),
    ("params", P + '''
ks = [5, 10, 20]'''),
    ("code", IMPORTS + "\n" + ctx(stem) + '''
runs = pick(profile, ci=5, quick=30, paper=100)
pf_runs = pick(profile, ci=5, quick=30, paper=100)
eps_grid = np.logspace(-3, 4, pick(profile, ci=5, quick=15, paper=29))
if profile == "ci":
    ks = [5]
prefer = pick(profile, ci="synthetic", quick="real", paper="real")
graphs = {"Enron": datasets.load("dampening/enron", prefer=prefer, seed=seed, **({"n": 3000} if profile == "ci" else {})),
          "DBLP": datasets.load("dampening/dblp", seed=seed, **pick(profile, ci={"n": 4000}, quick={"n": 60000}, paper={})),
          "GitHub": datasets.load("dampening/github", prefer=prefer, seed=seed, **({"n": 3000, "cap": 700} if profile == "ci" else {}))}
for k, ds in graphs.items():
    print(f"{k}: {ds.source}, {ds.data}")'''),
    ("code", '''frames = []
for name, ds in graphs.items():
    g = ds.data; ebc = E.ebc_all(g); deg = g.degrees
    df = X.privtopk_curves(ebc, deg, ks, eps_grid, runs=runs, pf_runs=pf_runs, seed=seed)
    df["graph"], df["source"] = name, ds.source
    frames.append(df)
    fig = X.privtopk_figure(df, f"Fig. 20: {name} ({ds.source}), ΔEBC = {E.global_sensitivity_ebc(int(deg.max())):,.1f}")
    ctx.save_figure(fig, f"fig20_{name.lower()}"); display(fig)
res = pd.concat(frames); ctx.save_table(res, "fig20_privtopk")'''),
    ("code", '''level = 0.9
b = pd.concat([X.budget_to_reach(d, level).assign(graph=n) for n, d in res.groupby("graph")])
ctx.save_table(b, "budget_to_reach_0.9"); display(b.pivot_table(index=["graph", "k"], columns="method", values="budget"))
import plotly.express as px
fig = px.bar(b, x="graph", y="budget", color="method", barmode="group", facet_col="k", log_y=True, title=f"Budget to reach accuracy {level}")
ctx.save_figure(fig, "budget_to_reach"); fig'''),
    ("code", '''pv = b.pivot_table(index=["graph", "k"], columns="method", values="budget")
gap_em = np.log10(pv["EM"] / pv["SLD"]).replace([np.inf, -np.inf], np.nan)
gap_pf = np.log10(pv["PF"] / pv["SLD"]).replace([np.inf, -np.inf], np.nan)
sources = {name: ds.source for name, ds in graphs.items()}
why = ("budget to reach accuracy 0.9 on the ε grid (half-decade steps, so gaps are ±0.5 order); verdict: median gap ≥ 2 orders. "
       "Per graph — ")
ctx.claims.add("SLDPrivTopk needs 3–4 orders of magnitude less ε than EMPrivTopk", paper="3–4 orders", ours=X.gap_range_text(gap_em),
               verdict="pass" if gap_em.notna().any() and np.nanmedian(gap_em) >= 2 else "differs",
               note=why + X.per_graph_gap_text(gap_em, sources) + ". The synthetic DBLP-like stand-in (no real copy; small max degree, so EM's ΔEBC is small) shows the smallest gap")
ctx.claims.add("… and 2–4 orders less than PFPrivTopk", paper="2–4 orders", ours=X.gap_range_text(gap_pf),
               verdict="pass" if gap_pf.notna().any() and np.nanmedian(gap_pf) >= 2 else "differs", note=why + X.per_graph_gap_text(gap_pf, sources))
hi = res[res.epsilon == res.epsilon.max()]
ld_inv = hi[hi.method == "LD"].accuracy.mean() < hi[hi.method == "SLD"].accuracy.mean()
ctx.claims.add("LDPrivTopk suffers from inversion, SLD fixes it", paper="LD < SLD", ours=f"mean acc at max ε: LD {hi[hi.method=='LD'].accuracy.mean():.2f}, SLD {hi[hi.method=='SLD'].accuracy.mean():.2f}",
               verdict="pass" if ld_inv else "differs")
ctx.finish()'''),
])

# ------------------------------------------------------------------ Table 1
stem = "tab01_privtopk_vs_privatesql"
write_notebook(OUT / f"{stem}.ipynb", [
    ("md", f"""# Table 1: SLDPrivTopk (PTK) on 50-node BFS samples vs PrivateSQL (PSQL)
{THESIS}, §6.5, Table 1. Data: BFS samples of Enron / GitHub (real when available, else stand-ins) and DBLP-like (synthetic).
**PrivateSQL is not available offline: the PSQL columns are quoted from the thesis and labelled as such**; only the PTK column is reproduced.
Accuracy averaged over samples, runs and k ∈ {{1, 2, 3}} (averaging over k is presumed, spec §7 item 23).
ΔEBC and δ^EBC need a public max-degree bound; the thesis does not say which one it used on the samples. Our main PTK column uses the
**parent graph's** max degree (the per-dataset Δ(G) the thesis treats as public, valid for every sample); a second column uses each sample's own
max degree, which is markedly less accurate at B = 0.5–1 (SLD's degree-driven score is flatter with a small ΔEBC)."""),
    ("params", P),
    ("code", IMPORTS + "\n" + ctx(stem) + '''
samples = pick(profile, ci=3, quick=10, paper=10); runs = pick(profile, ci=5, quick=10, paper=10)
prefer = pick(profile, ci="synthetic", quick="real", paper="real")
graphs = {"Enron": datasets.load("dampening/enron", prefer=prefer, seed=seed, **({"n": 3000} if profile == "ci" else {})),
          "DBLP": datasets.load("dampening/dblp", seed=seed, **pick(profile, ci={"n": 4000}, quick={"n": 60000}, paper={})),
          "GitHub": datasets.load("dampening/github", prefer=prefer, seed=seed, **({"n": 3000, "cap": 700} if profile == "ci" else {}))}'''),
    ("code", '''ours = X.TABLE1_PAPER[["B"]].copy()
for name, ds in graphs.items():
    t = X.table1_ptk(ds.data, samples=samples, runs=runs, seed=seed, bound="parent")
    ours[f"{name} PTK (ours, {ds.source})"] = t.accuracy.to_numpy()
    ours[f"{name} PTK (ours, sample's own Δ)"] = X.table1_ptk(ds.data, samples=samples, runs=runs, seed=seed, bound="sample").accuracy.to_numpy()
    ours[f"{name} PSQL (quoted from thesis)"] = X.TABLE1_PAPER[f"{name} PSQL"].to_numpy()
ctx.save_table(ours, "table1"); ours'''),
    ("code", '''import plotly.express as px
long = pd.concat([ours[["B", c]].rename(columns={c: "accuracy"}).assign(series=c) for c in ours.columns[1:]])
fig = px.line(long, x="B", y="accuracy", color="series", log_x=True, markers=True, title="Table 1: PTK (ours) vs PSQL (quoted)")
ctx.save_figure(fig, "table1"); display(fig)
for name in graphs:
    col = [c for c in ours.columns if c.startswith(f"{name} PTK (ours, {graphs[name].source}")][0]
    diff = float(np.abs(ours[col] - X.TABLE1_PAPER[f"{name} PTK"]).max())
    diff_s = float(np.abs(ours[f"{name} PTK (ours, sample's own Δ)"] - X.TABLE1_PAPER[f"{name} PTK"]).max())
    why = " Synthetic stand-in (no real DBLP copy exists): its BFS samples differ in structure from the real graph's." if graphs[name].source == "synthetic" else ""
    ctx.claims.add(f"Table 1 {name}: PTK accuracy per B", paper=X.TABLE1_PAPER[f"{name} PTK"].round(2).tolist(), ours=ours[col].round(2).tolist(),
                   verdict="pass" if diff <= 0.15 else "differs",
                   note=f"max |diff| = {diff:.2f} ({graphs[name].source} graph, parent-graph degree bound; {samples} BFS samples × {runs} runs — "
                        f"BFS-seed sampling noise is several hundredths; which degree bound the thesis used is not stated; with each sample's own Δ: "
                        f"max |diff| = {diff_s:.2f}).{why}")
    ctx.claims.add(f"Table 1 {name}: PTK beats PSQL at every B", paper="PTK > PSQL", ours=f"{bool((ours[col] > X.TABLE1_PAPER[f'{name} PSQL']).all())}",
                   verdict="pass" if (ours[col] > X.TABLE1_PAPER[f"{name} PSQL"]).all() else "differs", note="PSQL values quoted, not rerun")
ctx.finish()'''),
])

# ------------------------------------------------------------------ ID3
stem = "fig23_fig24_fig25_id3"
write_notebook(OUT / f"{stem}.ipynb", [
    ("md", f"""# Figs. 23–25: private ID3 (GlobalDiffPID3 = EM, LocalDiffPID3 = LD, ShiftedLocalDiffPID3 = SLD)
{THESIS}, Ch. 7, Figs. 23 (NLTCS), 24 (ACS), 25 (Adult). Data: real NLTCS / ACS / Adult when available (class: NLTCS column 13, ACS column 10 —
not stated in the thesis, taken from the author's later code), else seeded stand-ins. Add/remove neighbours; ΔIG = log2(N+1)+1/ln 2 with N the training size;
corrected Candidates (no `a < τ` guard, closed form), stopping rule √2/ε, budget B/(2(d+1)); continuous Adult attributes in 10 bins from public bounds.
ci subsamples rows and uses 2 folds; quick and paper use all rows and the thesis' 10-fold CV (paper repeats it 10 times; printed below)."""),
    ("params", P + '''
depths = [2, 5]'''),
    ("code", IMPORTS + "\n" + ctx(stem) + '''
eps_grid = pick(profile, ci=[0.05, 1.0], quick=[0.01, 0.05, 0.1, 0.5, 1.0, 2.0], paper=[0.01, 0.05, 0.1, 0.5, 1.0, 2.0])
folds = pick(profile, ci=2, quick=10, paper=10); reps = pick(profile, ci=1, quick=1, paper=10)
max_rows = pick(profile, ci=3000, quick=None, paper=None)
if profile == "ci":
    depths = [2]
print(f"{folds}-fold CV × {reps} repetition(s), " + ("all rows" if max_rows is None else f"rows ≤ {max_rows}"))'''),
    ("code", '''res = {}
for name, fig_id in (("nltcs", "fig23"), ("acs", "fig24"), ("adult", "fig25")):
    ds = datasets.load(f"dampening/{name}", seed=seed)
    df = X.id3_curves(ds.data, eps_grid, depths, folds=folds, repetitions=reps, max_rows=max_rows, seed=seed)
    df["dataset"], df["source"] = name, ds.source
    res[name] = (ds, df)
    fig = X.id3_figure(df, f"{fig_id}: {name.upper()} ({ds.source})"); ctx.save_figure(fig, f"{fig_id}_{name}"); display(fig)
ctx.save_table(pd.concat([v[1] for v in res.values()]), "id3_accuracy")'''),
    ("md", "## Inversion diagnostic at the root (IG order vs D order vs SLD order)"),
    ("code", '''ds = res["acs"][0]
rk = I.root_ranking(ds.data["X"][: (max_rows or len(ds.data["y"]))], ds.data["y"][: (max_rows or len(ds.data["y"]))], ds.data["domains"], 2)
ctx.save_table(rk, "acs_root_ranking"); rk.head(6)'''),
    ("code", '''paper = {"nltcs": ("Local vs Global: up to 5%", 0.05, "Local"), "acs": ("Shifted vs Global: up to 8%", 0.08, "Shifted"), "adult": ("Shifted vs Global: up to 4%", 0.04, "Shifted")}
for name, (txt, val, meth) in paper.items():
    ds, df = res[name]
    g = X.id3_gain(df, meth)
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
ctx.finish()'''),
])

# ------------------------------------------------------------------ teaching
stem = "learn_local_dampening"
write_notebook(OUT / f"{stem}.ipynb", [
    ("md", f"""# Learn: exponential mechanism vs local dampening vs shifted local dampening
Teaching notebook for {THESIS}. Data: toy graphs (the thesis' Fig. 9c graph, karate club, les Misérables, or a synthetic Holme–Kim graph),
a small synthetic median sample, and the synthetic NLTCS stand-in (5,000 rows) for ID3.

Panels: PrivTopk (ε, generator, k), one draw (ε, generator), the dampening function (t, Δu), shifting (ε, shift s), median selection
(ε, sensitivity function, median position, mechanism EM/PF/LD/SLD), private ID3 (ε, depth, horizon T).

Move ε and watch the probability that each of the top nodes (by egocentric betweenness) is selected. EM uses the huge global
sensitivity ΔEBC; LD divides by local sensitivity (and suffers from *inversion*); SLD is EM on EBC minus a slack — essentially a degree-driven score.
The non-private part (EBC, degrees) is computed once and cached; only the cheap probabilities are recomputed when ε changes."""),
    ("params", P + '''
epsilon = 2.0
generator = "karate"
graph_size = 300
t = 2
k = 3
depth = 2'''),
    ("code", IMPORTS + "\nfrom dpworkbench import widgets\n" + ctx(stem)),
    ("md", "## PrivTopk: mechanism bars for the first draw (ε/k each) and top-k accuracy\n"
           "Choose the graph generator and k; the bars are the exact output law of the first draw under EM, LD and SLD, "
           "the table the mean accuracy of 300 simulated releases (PF included). EBC is computed once per graph (cached)."),
    ("code", '''controls = {"epsilon": widgets.epsilon_slider(epsilon, minimum=1e-3, maximum=1e4),
            "generator": widgets.choice(["fig9c", "karate", "les_miserables", "synthetic"], generator, "graph"),
            "k": widgets.choice([1, 2, 3, 5, 10, 20], k, "k")}
panel = widgets.control_panel(lambda epsilon, generator, k: X.teaching_topk(generator, epsilon, k, n=graph_size, seed=seed), controls,
                              interactive=interactive, title="PrivTopk: EM vs PF vs LD vs SLD")
panel if interactive else None'''),
    ("md", "## Selection probabilities of a single draw (k = 1), PF included on small graphs"),
    ("code", '''panel1b = widgets.control_panel(lambda epsilon, generator: X.teaching_figure(generator, epsilon, n=graph_size, seed=seed),
                                {"epsilon": widgets.epsilon_slider(epsilon, minimum=1e-3, maximum=1e4),
                                 "generator": widgets.choice(["fig9c", "karate", "les_miserables", "synthetic"], generator, "graph")},
                                interactive=interactive, title="EM vs PF vs LD vs SLD (one draw)")
panel1b if interactive else None'''),
    ("code", '''fig = X.teaching_figure(generator, epsilon, n=graph_size, seed=seed); ctx.save_figure(fig, "selection_probabilities"); fig'''),
    ("md", "## The dampening function: breakpoints b(x,t,r) are cumulative sums of δ"),
    ("code", '''panel2 = widgets.control_panel(X.teaching_dampening_figure, {"t": widgets.choice([0, 1, 2, 3], t, "t"), "global_sensitivity": widgets.log_slider(10.0, 7.0, 100.0, "Δu")},
                               interactive=interactive, title="Dampening function")
panel2 if interactive else None'''),
    ("md", "## Shifting: LD on u − s converges to shifted LD as s grows to s0"),
    ("code", '''panel3 = widgets.control_panel(lambda epsilon, shift: X.shift_figure(shift, epsilon),
                               {"epsilon": widgets.epsilon_slider(epsilon, minimum=1e-2, maximum=1e2),
                                "shift": widgets.choice([0, 3, 7, 15, 30, 36.5], 7, "shift s")}, interactive=interactive, title="Shift")
panel3 if interactive else None'''),
    ("md", "## Median selection: mechanism × sensitivity function (the thesis' Candidates is not admissible)"),
    ("code", '''panel4 = widgets.control_panel(X.median_teaching_figure,
                               {"epsilon": widgets.epsilon_slider(epsilon, minimum=1e-2, maximum=1e3),
                                "delta_kind": widgets.choice(["box (admissible)", "thesis candidates", "Δu (EM scale)"], "box (admissible)", "δ"),
                                "median_at": widgets.choice([0.05, 0.25, 0.5, 0.75], 0.5, "median at"),
                                "mechanism": widgets.choice(["EM", "PF", "LD", "SLD"], "LD", "mechanism")},
                               interactive=interactive, title="Median selection")
panel4 if interactive else None'''),
    ("md", "## Private ID3: how the tree depth d spends the budget (B/(2(d+1)) per query) and which root split each mechanism picks\n"
           "Synthetic NLTCS-like stand-in (5,000 rows); the contingency tables and LS^IG profiles are cached (per public horizon T), "
           "ε only rescales the logits. With T = 1 the sensitivity is Δ IG from distance 1 on, so LD/SLD are close to EM."),
    ("code", '''panel5 = widgets.control_panel(lambda epsilon, depth, horizon: X.teaching_id3(epsilon, depth, horizon, seed=seed),
                               {"epsilon": widgets.epsilon_slider(1.0, minimum=1e-3, maximum=1e2),
                                "depth": widgets.choice([1, 2, 3, 4, 5, 6], depth, "depth"),
                                "horizon": widgets.choice([1, 8, 64, 1024], 1024, "horizon T")},
                               interactive=interactive, title="DiffPID3 root split")
panel5 if interactive else None'''),
    ("code", '''fig = X.teaching_dampening_figure(t, 10.0); ctx.save_figure(fig, "dampening_function")
ctx.save_figure(X.teaching_topk(generator, epsilon, k, n=graph_size, seed=seed)[0], "privtopk_teaching", png=profile != "ci")
ctx.save_figure(X.teaching_id3(1.0, depth, seed=seed)[0], "id3_root_teaching", png=profile != "ci")
ctx.save_figure(X.shift_figure(36.5, epsilon), "shift_convergence", png=profile != "ci")
ctx.save_figure(X.median_teaching_figure(epsilon), "median_teaching", png=profile != "ci")
probs = X.teaching_probabilities("fig9c", epsilon)
top = probs[probs.node == "a"].set_index("method").probability
ctx.claims.add("on Fig. 9c, SLD puts more mass on the top node than EM", paper="SLD > EM", ours=f"SLD {top['SLD']:.3f}, EM {top['EM']:.3f}",
               verdict="pass" if top["SLD"] > top["EM"] else "differs")
ctx.finish()'''),
])
print("notebooks written to", OUT)
