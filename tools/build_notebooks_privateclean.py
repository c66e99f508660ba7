"""Writes notebooks/privateclean/*.ipynb (clean, no outputs). Run: python tools/build_notebooks_privateclean.py"""

from pathlib import Path

from dpworkbench.experiments.nbtools import write_notebook

OUT = Path(__file__).resolve().parent.parent / "notebooks" / "privateclean"

PARAMS_COMMON = '''profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...'''

SETUP = '''from IPython.display import display
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.privateclean import experiments as ex

ctx = NotebookContext("privateclean/{stem}", profile=profile, output_dir=output_dir, seed=seed)
repetitions = pick(profile, ci={ci}, quick={quick}, paper={paper})   # paper: 100 random instances per point (App. D)'''

DATA_MD = ("Data: **synthetic** (Appendix D generator, seeded; the paper's synthetic data are not published). "
           "Table 1 defaults: p = 0.1, b = 10, N = 50, S = 1000, l = 5, z = 2; numeric attribute U[0,100] "
           "(`numeric_mode='uniform'`, spec §6.3); a random query per instance (`query_mode='random'`). "
           "Error = |estimate − f(C(R))| / f(C(R)); mean over instances with an IQR band.")


def fig_nb(stem, title, what, x, values, claims_code, *, fixed="{}", ci=20, quick=200, multiattr=False, extra_md="",
           x_title=None, kind=None, data_md=None, setup_extra="", paper=100):
    write_notebook(OUT / f"{stem}.ipynb", [
        ("md", f"# PrivateClean (Krishnan et al., SIGMOD 2016) — {title}\n{what}\n\n{data_md or DATA_MD}\n{extra_md}"),
        ("params", PARAMS_COMMON + f"\nfixed = {fixed}"),
        ("code", SETUP.format(stem=stem, ci=ci, quick=quick, paper=paper) + setup_extra),
        ("code", f'''df = ex.sweep(ctx, "{stem}", "{x}", {values}, repetitions=repetitions, fixed=fixed, seed=seed,
              multiattr={multiattr}, kind={kind!r})
tab = ex.table(df, "{x}")
ctx.save_table(tab, "errors")
tab.pivot_table(index="{x}", columns=["agg", "method"], values=["mean", "median"]).round(3)'''),
        ("code", f'''fig = ex.figure(tab, "{x}", "{title}", x_title={x_title!r})
ctx.save_figure(fig, "{stem}")
fig'''),
        ("md", "## Paper-claim check"),
        ("code", claims_code + "\nctx.finish()"),
    ])


write_notebook(OUT / "fig02_privacy.ipynb", [
    ("md", "# PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 2: error vs privacy (a–b: p; c–d: b), count and sum\n"
           "Direct vs PrivateClean as the discrete privacy parameter p grows (b = 10 fixed), then as the Laplace scale b grows "
           "(p = 0.1 fixed); no data errors.\n\n" + DATA_MD),
    ("params", PARAMS_COMMON + "\nfixed = {}"),
    ("code", SETUP.format(stem="fig02_privacy", ci=20, quick=200, paper=100)),
    ("md", "## Fig. 2a–b: error vs p"),
    ("code", '''df = ex.sweep(ctx, "fig02_privacy_p", "p", pick(profile, ci=[0.05, 0.3, 0.5], quick=[0.05, 0.1, 0.2, 0.3, 0.4, 0.5], paper=[0.05, 0.1, 0.2, 0.3, 0.4, 0.5]),
              repetitions=repetitions, fixed=fixed, seed=seed)
tab = ex.table(df, "p")
ctx.save_table(tab, "errors_p")
fig = ex.figure(tab, "p", "Fig. 2a–b: error vs privacy p (b = 10)")
ctx.save_figure(fig, "fig02ab_privacy_p")
display(tab.pivot_table(index="p", columns=["agg", "method"], values=["mean", "median"]).round(3))
fig'''),
    ("md", "## Fig. 2c–d: error vs b"),
    ("code", '''df_b = ex.sweep(ctx, "fig02_privacy_b", "b", pick(profile, ci=[1, 10, 100], quick=[1, 5, 10, 20, 50, 100], paper=[1, 5, 10, 20, 50, 100]),
                repetitions=repetitions, fixed=fixed, seed=seed)
tab_b = ex.table(df_b, "b")
ctx.save_table(tab_b, "errors_b")
fig = ex.figure(tab_b, "b", "Fig. 2c–d: error vs Laplace scale b (p = 0.1)")
ctx.save_figure(fig, "fig02cd_privacy_b")
display(tab_b.pivot_table(index="b", columns=["agg", "method"], values=["mean", "median"]).round(3))
fig'''),
    ("md", "## Paper-claim check"),
    ("code", '''ratio = ex.value(tab, "count", "direct", "p", 0.5) / ex.value(tab, "count", "privateclean", "p", 0.5)
ctx.claims.add("Fig. 2a: at high p PrivateClean has nearly 5x lower count error than Direct (p=0.5)", paper=5.0, ours=round(ratio, 2),
               verdict="pass" if ratio >= 3 else "differs", note="spec §6.4 [ours] oracle ≈4x; mean relative error")
lin = ex.slope(tab, "count", "direct", "p")
ctx.claims.add("Fig. 2a: Direct count error grows ~linearly with p", paper="increasing", ours=f"slope {lin:.2f}/unit p",
               verdict="pass" if lin > 0 else "differs")
pc_lt = ex.never_worse(tab, "p")
ctx.claims.add("Fig. 2: PrivateClean at least as accurate as Direct at every p (no data errors; 10% tolerance)", paper=True, ours=pc_lt,
               verdict="pass" if pc_lt else "differs")
c = tab_b[(tab_b["agg"] == "count") & (tab_b["method"] == "privateclean")]["mean"]
flat = float(c.max() - c.min())
ctx.claims.add("Fig. 2c: count error does not depend on b", paper="flat", ours=f"spread {flat:.3f}",
               verdict="pass" if flat < 0.35 * float(c.mean()) + 0.02 else "differs",
               note="count ignores the numeric column; residual spread is sampling noise across instances")
g_lo = ex.value(tab_b, "sum", "direct", "b", tab_b["b"].min()) - ex.value(tab_b, "sum", "privateclean", "b", tab_b["b"].min())
g_hi = ex.value(tab_b, "sum", "direct", "b", tab_b["b"].max()) - ex.value(tab_b, "sum", "privateclean", "b", tab_b["b"].max())
ctx.claims.add("Fig. 2d: PrivateClean's sum advantage shrinks as b grows", paper="gap shrinks", ours=f"gap {g_lo:.2f} → {g_hi:.2f}",
               verdict="pass" if g_hi < g_lo else "differs")
ctx.finish()'''),
])

fig_nb("fig03_selectivity", "Fig. 3: error vs selectivity l/N (sum, count)",
       "Predicate selects l of N = 50 distinct values.",
       "l", "pick(profile, ci=[2, 10, 25], quick=[1, 2, 5, 10, 15, 20, 25, 35], paper=[1, 2, 5, 10, 15, 20, 25, 35])",
       '''better = ex.never_worse(tab, "l")
ctx.claims.add("Fig. 3: PrivateClean more accurate than Direct at every selectivity", paper=True, ours=better, verdict="pass" if better else "differs")
lo, hi = tab["l"].min(), tab["l"].max()
g = [ex.value(tab, "count", "direct", "l", v) - ex.value(tab, "count", "privateclean", "l", v) for v in (lo, hi)]
ctx.claims.add("Fig. 3: the gap shrinks at higher selectivity", paper="shrinks", ours=f"{g[0]:.3f} → {g[1]:.3f}",
               verdict="pass" if g[1] < g[0] else "differs")''', x_title="l (distinct values selected, N = 50)")

fig_nb("fig04_skew", "Fig. 4: error vs Zipf skew z (sum, count)",
       "Skew of the categorical distribution; z = 0 is uniform.",
       "z", "pick(profile, ci=[0.0, 2.0, 3.0], quick=[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0], paper=[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0])",
       '''d0 = ex.value(tab, "count", "direct", "z", 0.0); p0 = ex.value(tab, "count", "privateclean", "z", 0.0)
ctx.claims.add("Fig. 4: no count benefit under a uniform distribution (z=0)", paper="PC ≈ Direct", ours=f"Direct {d0:.3f} vs PC {p0:.3f}",
               verdict="pass" if abs(d0 - p0) < 0.5 * max(d0, p0) + 0.01 else "differs")
g3 = ex.value(tab, "count", "direct", "z", 3.0) - ex.value(tab, "count", "privateclean", "z", 3.0)
ctx.claims.add("Fig. 4: PrivateClean increasingly better as skew grows", paper="gap grows", ours=f"gap z=0 {d0 - p0:.3f} → z=3 {g3:.3f}",
               verdict="pass" if g3 > d0 - p0 else "differs")''')

fig_nb("fig05_error_rate", "Fig. 5: error vs data-error rate (sum, count)",
       "A fraction of the distinct values have aliases (≈50 % of their rows) that the cleaner merges back "
       "(`error_mode='split_alias'`, spec §6.3). Also shown: `pc_noprov` (corrected estimator with the cleaned l′, N′) "
       "and the dirty non-private query (gray).",
       "error_rate", "pick(profile, ci=[0.0, 0.5], quick=[0.0, 0.1, 0.2, 0.3, 0.4, 0.5], paper=[0.0, 0.1, 0.2, 0.3, 0.4, 0.5])",
       '''pc = tab[(tab["method"] == "privateclean")]
med = float(pc["median"].max())
ctx.claims.add("Fig. 5: PrivateClean < 10% error at every error rate (random 5-of-50 query, mean)", paper=0.10, ours=round(float(pc["mean"].max()), 3),
               verdict="pass" if pc["mean"].max() < 0.10 else "differs",
               note=f"finding, not a bug: the mean of relative errors is heavy-tailed under random 5-of-50 Zipf(2) predicates (true counts "
                    f"of a few rows; spec §7 item 18); max median {med:.3f}. The paper's query distribution is unknown; see the top-5 query below")
top = ex.table(ex.sweep(ctx, "fig05_error_rate_top", "error_rate", sorted(tab["error_rate"].unique()), repetitions=repetitions,
                        fixed={**fixed, "query_mode": "top"}, seed=seed), "error_rate")
ctx.save_table(top, "errors_top_query")
display(top.pivot_table(index="error_rate", columns=["agg", "method"], values="mean").round(4))
pt = top[top["method"] == "privateclean"]
ctx.claims.add("Fig. 5: PrivateClean < 10% error at every error rate (top-5 query)", paper=0.10, ours=round(float(pt["mean"].max()), 4),
               verdict="pass" if pt["mean"].max() < 0.10 else "differs", note="spec §6.4 [ours]: ≈0.9% at p=0.1 with query_mode='top'")
s = ex.slope(tab, "count", "privateclean", "error_rate")
ctx.claims.add("Fig. 5: PrivateClean error roughly constant in the error rate", paper="flat", ours=f"slope {s:.3f}",
               verdict="pass" if abs(s) < 0.3 else "differs")
sd = ex.slope(tab, "count", "direct", "error_rate"); sg = ex.slope(tab, "count", "dirty_nonprivate", "error_rate")
ctx.claims.add("Fig. 5: Direct increasingly erroneous with the error rate", paper="increasing", ours=f"slope {sd:.3f} (dirty non-private: {sg:.3f})",
               verdict="pass" if sd > 0.1 else "differs",
               note="finding, not a bug (spec §6.3, §7 item 19): with split_alias errors the truth is fixed and GRR draws that land on an "
                    "alias are merged back by the cleaner, so Direct's bias does not grow; the data errors do matter without cleaning "
                    "(the dirty non-private query's error rises with the rate). No literal reading of the paper's generator reproduced it")''')

fig_nb("fig06_merge_rate", "Fig. 6: error vs merge rate (sum, count)",
       "Of the erroneous values (error rate 0.3), a fraction `merge_rate` are merged into existing values; the rest are harmless renames.",
       "merge_rate", "pick(profile, ci=[0.0, 1.0], quick=[0.0, 0.25, 0.5, 0.75, 1.0], paper=[0.0, 0.25, 0.5, 0.75, 1.0])",
       '''better = ex.never_worse(tab, "merge_rate")
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
               note="rows; no-provenance estimator: " + ", ".join(f"{m:g}: {r['mean']:+.2f}±{r['sem']:.2f}" for m, r in bias.loc["pc_noprov"].iterrows()))''',
       fixed='{"error_rate": 0.3}', quick=600, paper=2000)

fig_nb("fig07_multiattr", "Fig. 7: multi-attribute cleaning (PC-W vs PC-U vs Direct)",
       "section (Zipf, N1 = 50) → instructor (N2 = 10) FD; a fraction of instructors NULL; the FD repair fills them in. "
       "GRR on both attributes; count of 2 instructors; weighted (PC-W) vs unweighted (PC-U) provenance cut.",
       "error_rate", "pick(profile, ci=[0.1, 0.3], quick=[0.0, 0.1, 0.2, 0.3, 0.4, 0.5], paper=[0.0, 0.1, 0.2, 0.3, 0.4, 0.5])",
       '''t = tab[tab["error_rate"] > 0]
w = float(t[t.method == "PC-W"]["mean"].mean()); u = float(t[t.method == "PC-U"]["mean"].mean()); d = float(t[t.method == "Direct"]["mean"].mean())
ctx.claims.add("Fig. 7: PC-W more accurate than PC-U and Direct", paper="PC-W < PC-U < Direct", ours=f"{w:.3f} < {u:.3f} < {d:.3f}",
               verdict="pass" if w <= u < d else "differs", note="spec §6.3 [ours] oracle at 0.3: 0.17 / 0.30 / 0.57")''',
       multiattr=True, ci=100, quick=1000, paper=1000)

fig_nb("fig09_distinct_fraction", "Fig. 9: error vs distinct fraction N/S (sum, count)",
       "N varied at S = 1000 with every value present (`ensure_coverage`) and a 5 % error rate.",
       "N", "pick(profile, ci=[50, 500], quick=[50, 100, 200, 300, 500, 700, 900], paper=[50, 100, 200, 300, 500, 700, 900])",
       '''S_ = 1000
lo, hi = tab["N"].min(), tab["N"].max()
b_lo = ex.value(tab, "count", "privateclean", "N", lo) < ex.value(tab, "count", "direct", "N", lo)
b_hi = ex.value(tab, "count", "direct", "N", hi) <= ex.value(tab, "count", "privateclean", "N", hi)
ctx.claims.add("Fig. 9: PrivateClean better than Direct at the lowest N/S, Direct better at the highest (count)",
               paper="PC better below ≈0.5, Direct above", ours=f"N/S={lo / S_:g}: PC better {b_lo}; N/S={hi / S_:g}: Direct better {b_hi}",
               verdict="pass" if b_lo and b_hi else "differs")
for agg in ("count", "sum"):
    x = ex.crossover(tab, agg, "N") / S_
    ctx.claims.add(f"Fig. 9: distinct fraction N/S where Direct becomes more accurate ({agg})", paper=0.5, ours=round(x, 3),
                   verdict="pass" if 0.3 <= x <= 0.7 else "differs",
                   note="first N/S where Direct's mean relative error ≤ PrivateClean's, interpolated between grid points; NaN: Direct "
                        "never catches up on this grid. The two curves are close between N/S 0.2 and 0.5, so the location moves with "
                        "Monte-Carlo noise (pass band 0.3–0.7)")''',
       fixed='{"ensure_coverage": True, "error_rate": 0.05}', x_title="N (S = 1000; N/S = N/1000)")

fig_nb("fig10_intel_like", "Fig. 10: IntelWireless — error vs privacy p (count, avg)",
       "Spurious sensor ids are merged to NULL; queries count / avg(temp) WHERE sensor_id != NULL; b = Δ_temp / ln(3/p−2) "
       "(equal ε for both attributes, paper convention; `fixed={'epsilon_convention': 'exact'}` matches the exact GRR ε on the "
       "68-value domain instead; the table before the claims gives the ε actually spent under both accountings). "
       "Gray: dirty query without cleaning and without privacy.",
       "p", "pick(profile, ci=[0.05, 0.3], quick=[0.05, 0.1, 0.2, 0.3, 0.5, 0.7], paper=[0.05, 0.1, 0.2, 0.3, 0.5, 0.7])",
       '''from dpworkbench.privateclean.standins import INTEL_DOMAIN, TEMP_RANGE, privacy_table
priv = privacy_table(sorted(tab.p.unique()), TEMP_RANGE, len(INTEL_DOMAIN), fixed.get("epsilon_convention", "paper"))
ctx.save_table(priv, "privacy_per_p"); display(priv.round(3))
pc = tab[tab.method == "privateclean"]
ctx.claims.add("Fig. 10: PrivateClean under 10% error on Intel (all p ≤ 0.5)", paper=0.10, ours=round(float(pc[pc.p <= 0.5]["mean"].max()), 4),
               verdict="pass" if pc[pc.p <= 0.5]["mean"].max() < 0.10 else "differs", note=f"intel_like stand-in, scale={fixed.get('scale')}")
better = ex.never_worse(tab[tab.p <= 0.3], "p", aggs=("avg",))
ctx.claims.add("Fig. 10: PrivateClean more accurate than Direct (avg)", paper=True, ours=better, verdict="pass" if better else "differs")
bc = ex.never_worse(tab, "p", aggs=("count",), tol=0.0)
ctx.claims.add("Fig. 10: PrivateClean more accurate than Direct (count, every p)", paper=True, ours=bc, verdict="pass" if bc else "differs")
ps_ = sorted(tab.p.unique())
gray = {p_: ex.value(tab, "count", "dirty_nonprivate", "p", p_) for p_ in ps_}
d_above = [p_ for p_ in ps_ if ex.value(tab, "count", "direct", "p", p_) > gray[p_]]
pc_below = all(ex.value(tab, a, "privateclean", "p", p_) < ex.value(tab, a, "dirty_nonprivate", "p", p_) for a in ("count", "avg") for p_ in ps_)
ctx.claims.add("Fig. 10: the cleaned private result beats the dirty non-private query (gray); Direct's count crosses the gray line as p grows",
               paper="crossover with gray", ours=f"PC below gray at every p: {pc_below}; Direct count above gray from p = {d_above[0] if d_above else None}",
               verdict="pass" if pc_below and d_above and d_above[0] > min(ps_) else "differs",
               note="spec §6.2 [ours]: Direct count crosses the gray line between p = 0.1 and 0.2")''',
       kind="intel", fixed="{'scale': None}", ci=5, quick=30,
       setup_extra="\nif fixed.get('scale') is None:\n    fixed = {**fixed, 'scale': pick(profile, ci=0.005, quick=0.02, paper=1.0)}",
       data_md="Data: **synthetic `intel_like` stand-in** (spec §6.2; the real IntelWireless data are not available offline): "
               "54 valid ids + 14 spurious codes incl. NULL (N = 68), failure rows at 50–122 °C; 2.3 M rows × `scale` "
               "(ci 0.005, quick 0.02, paper 1.0).")

fig_nb("fig11_mcafe_like", "Fig. 11: MCAFE stand-in — error vs privacy p (count, avg) with isEurope(make)",
       "The paper merges European country codes with isEurope(country) on MCAFE (not public). Stand-in: the `vega_datasets` "
       "cars table (406 rows) whose `make` (first word of the name) has **real misspellings** (chevy/chevroelt → chevrolet, "
       "vw/vokswagen → volkswagen, maxda → mazda, toyouta → toyota, mercedes-benz → mercedes). The analyst's cleaner merges the "
       "misspellings and then European makes into 'Europe' (a public list); queries count / avg(acceleration) WHERE make = 'Europe'. "
       "GRR on make (released dirty domain, N = 38); Laplace on acceleration with Δ = 25 s and b = Δ/ln(3/p−2) (paper "
       "convention; `fixed={'epsilon_convention': 'exact'}` matches the exact GRR ε instead; the table before the claims gives the ε "
       "actually spent under both accountings).",
       "p", "pick(profile, ci=[0.05, 0.2], quick=[0.05, 0.1, 0.2, 0.3, 0.5], paper=[0.05, 0.1, 0.2, 0.3, 0.5])",
       '''from dpworkbench.privateclean.standins import ACCEL_RANGE, cars, privacy_table
priv = privacy_table(sorted(tab.p.unique()), ACCEL_RANGE, int(cars(fixed.get("prefer", "real"))[0]["make"].nunique()),
                     fixed.get("epsilon_convention", "paper"))
ctx.save_table(priv, "privacy_per_p"); display(priv.round(3))
better = ex.never_worse(tab, "p", aggs=("count",))
ctx.claims.add("Fig. 11: PrivateClean more accurate than Direct for count", paper=True, ours=better, verdict="pass" if better else "differs",
               note=f"data: cars table ({source})")
lo = tab[(tab.p <= 0.1) & (tab.method == "privateclean")]
ok = bool(lo["mean"].max() < 0.10)
ctx.claims.add("Fig. 11: PrivateClean under 10% error (count and avg, p ≤ 0.1)", paper=0.10, ours=round(float(lo["mean"].max()), 4),
               verdict="pass" if ok else "differs", note=f"data: cars table ({source}), S = 406; avg reported as observed")
ba = ex.never_worse(tab, "p", aggs=("avg",), tol=0.0)
ctx.claims.add("Fig. 11: PrivateClean more accurate than Direct for avg", paper=True, ours=ba, verdict="pass" if ba else "differs",
               note=f"data: cars table ({source}). Finding, not a bug (spec §6.2 [ours]: p=0.1 PC 6.4% vs Direct 5.9%): with b set "
                    "for equal ε (b = Δ/ln(3/p−2), Δ = 25 s) the Laplace variance on ~70 European rows dominates, and the "
                    "corrected avg = ĥ/ĉ carries the extra variance of both de-biased terms; acceleration barely differs between "
                    "Europe and the rest, so Direct's avg bias is small")
dl = tab[(tab.p <= 0.1) & (tab.method == "direct")]
okd = bool(dl["mean"].max() < 0.10)
ctx.claims.add("Fig. 11: Direct also under 10% error (count and avg, p ≤ 0.1)", paper=0.10, ours=round(float(dl["mean"].max()), 4),
               verdict="pass" if okd else "differs",
               note=f"data: cars table ({source}); Direct's count bias S·p(l/N − s) with 15 of 38 dirty makes European "
                    "(l/N = 0.39) vs s ≈ 0.18 of the rows: ≈ +0.2·p·S rows, i.e. ≈ 12% at p = 0.1, as the spec's [ours] oracle (12.1%)")''',
       kind="cars", ci=50, quick=300, paper=1000,
       setup_extra="\nsource = ex.data_source('cars', fixed)\nprint('data source:', source)",
       data_md="Data: **`vega_datasets` cars table** (local copy shipped with the `vega-datasets` package, no network; a "
               "seeded synthetic copy with the same make frequencies and misspellings is the fallback — the cell below prints which "
               "was used). MCAFE itself is not public (spec §6.2).")

fig_nb("fig08_tpcds", "Fig. 8: TPC-DS customer_address — constraint-based cleaning (FD and MD)",
       "(a) corrupt ca_state, repair with the FD (city, county) → state (majority vote per group, stand-in for Bohannon et al.); "
       "(b) append one character to ca_country, repair with the MD (edit distance ≤ 1). GRR p = 0.1 on all four attributes. "
       "Error: mean relative error of COUNT(*) GROUP BY over groups (NULL included), against the **uncorrupted ground truth**.",
       "corruptions", "pick(profile, ci=[0, 500], quick=[0, 50, 100, 250, 500], paper=[0, 500, 1000, 2000, 5000])",
       '''top = tab.corruptions.max()
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
                           "states, so Direct's state counts stay biased")''',
       extra_md="\n**Reading the panels.** Corruptions are counts of rows (quick: of 5 000 rows, 0–10 %; paper: of 50 000). "
                "(b) at 0 corruptions the released country domain is {United States, NULL} (N = 2), so GRR moves ~5 % of the US rows "
                "into the small NULL group and Direct's relative error on that group is huge; once corrupted variants exist the domain "
                "has ~27 values, most GRR draws land on variants that the MD merges back, and Direct's bias almost vanishes. "
                "(a) on the real table (≈0.9 rows per (city, county) group) the majority-vote FD repair cannot undo corruption or "
                "randomisation in singleton groups, so both errors grow with the corruptions; PrivateClean stays well below Direct.",
       kind="tpcds", fixed="{'source': None}", ci=2, quick=3, paper=10,
       setup_extra=("\nif fixed.get('source') is None:\n    fixed = {**fixed, **pick(profile, ci={'source': 'synthetic', 'S': 5000}, "
                    "quick={'source': 'real', 'sf': 0.1}, paper={'source': 'real', 'sf': 1.0})}"
                    "\nsource = ex.data_source('tpcds', fixed)\nprint('data source:', source, fixed)"),
       data_md="Data: **TPC-DS `customer_address`** generated offline by DuckDB's tpcds extension (`duckdb-extension-tpcds` wheel, "
               "`CALL dsdgen(sf=…)`, cached as Parquet; quick: sf = 0.1 → 5 000 rows, paper: sf = 1 → 50 000 rows), canonicalised "
               "by majority vote so the FD (city, county) → state holds before corruption. ci (and any machine without the extension) "
               "uses the seeded synthetic stand-in (51 skewed states, ~2000 (city, county) pairs, 3 % NULL countries). The cell below "
               "prints which was used; the claims' notes repeat it.")

print("figure notebooks written")

write_notebook(OUT / "learn_theory_and_tuning.ipynb", [
    ("md", """# PrivateClean (Krishnan et al., SIGMOD 2016) — theory: Lemma 1, Theorem 2 / Example 3, Example 4, Appendix E tuning
Teaching notebook (no paper figure; the paper's formulas and worked examples, checked). Data: none for the formulas; a **synthetic** worst-case relation (seeded) for the domain-preservation simulation and the
Appendix D generator for CI coverage.

Lemma 1's ε = ln(3/p − 2) is the exact GRR ε only for a 3-value domain; the workbench defaults to the exact
ln(1 + N(1−p)/p) and shows the paper's value beside it (spec §1.6, §7 item 1). Example 3's 391/552 do not follow from
Theorem 2; the correct values are 483/644 (spec §1.7)."""),
    ("params", PARAMS_COMMON),
    ("code", '''from IPython.display import display
import plotly.graph_objects as go
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.privateclean import teaching, count_estimate, theorem2_bound, tune, epsilon_grr

ctx = NotebookContext("privateclean/learn_theory_and_tuning", profile=profile, output_dir=output_dir, seed=seed)
trials = pick(profile, ci=100, quick=400, paper=2000)'''),
    ("md", "## Lemma 1: ε of GRR, both conventions\nMove ε: the p that achieves it per domain size N (exact) next to the paper's N-free formula."),
    ("code", '''from dpworkbench import widgets
panel = widgets.control_panel(teaching.epsilon_to_p_figure, {"epsilon": widgets.epsilon_slider(2.0, minimum=0.1, maximum=10)}, interactive=interactive,
                              title="ε → p")
panel if interactive else None'''),
    ("md", "## The privacy–accuracy trade-off, both ε formulas side by side\nFor a per-attribute ε: the p each formula buys, "
           "the dataset-independent count error bound (Eq. 4) it gives, and the *true* ε of that p for an N-value domain. "
           "The paper's Lemma 1 buys a smaller p (better accuracy) only because it under-states ε for N > 3. Last row: the "
           "uniform split of 2ε over one discrete and one numeric attribute (p and b). Closed forms only: nothing is cached "
           "because nothing depends on data."),
    ("code", '''tcontrols_eps = {"epsilon": widgets.epsilon_slider(2.0, minimum=0.2, maximum=10),
                 "N": widgets.choice([3, 10, 50, 200], 50, "domain size N"),
                 "S": widgets.log_slider(1000, 100, 1_000_000, "S (rows)")}
trade = widgets.control_panel(lambda epsilon, N, S: teaching.tradeoff_panel(epsilon, N=int(N), S=int(round(S))), tcontrols_eps,
                              interactive=interactive, title="privacy–accuracy trade-off")
trade if interactive else None'''),
    ("code", '''tfig, ttab = teaching.tradeoff_panel(2.0)
ctx.save_figure(tfig, "tradeoff"); ctx.save_table(ttab, "tradeoff")
ttab.round(4)'''),
    ("code", '''lem = teaching.lemma1_table()
ctx.save_table(lem, "lemma1")
lem.round(3)'''),
    ("md", "## Theorem 2 and Example 3"),
    ("code", '''thm = teaching.theorem2_table()
ctx.save_table(thm, "theorem2")
display(thm.round(1))
sim = teaching.simulate_preservation(25, 0.25, [100, 200, 300, 400, 483, 600], trials, seed=seed)
ctx.save_table(sim, "preservation")
fig = go.Figure([go.Scatter(x=sim.S, y=sim.simulated, name="simulated (worst case)", mode="lines+markers"),
                 go.Scatter(x=sim.S, y=sim["union bound"], name="union lower bound", mode="lines+markers")])
fig.add_vline(x=theorem2_bound(25, 0.25, 0.05), line_dash="dash", annotation_text="Thm 2, α=0.05")
fig.update_layout(title="P[domain preserved], N=25, p=0.25", xaxis_title="S", yaxis_title="probability")
ctx.save_figure(fig, "theorem2_preservation")
fig'''),
    ("md", "## Appendix E tuning"),
    ("code", '''tcontrols = {"S": widgets.log_slider(10_000, 100, 1_000_000, "S (rows)"),
             "error": widgets.choice([0.005, 0.01, 0.02, 0.05, 0.1], 0.05, "target error"),
             "confidence": widgets.choice([0.9, 0.95, 0.99], 0.95, "confidence"),
             "delta": widgets.choice([1.0, 10.0, 100.0], 100.0, "Δ numeric")}
tpanel = widgets.control_panel(teaching.tuning_view, tcontrols, interactive=interactive, title="tuning calculator (App. E)")
tpanel if interactive else None'''),
    ("code", '''tun = teaching.tuning_table()
ctx.save_table(tun, "tuning")
tun.round(3)'''),
    ("md", "## Paper-claim check"),
    ("code", '''ctx.claims.add("Example 4: ĉ = 333.3", paper=333.3, ours=round(count_estimate(300, 500, 0.25, 10, 25), 2), atol=0.05)
e95, e99 = theorem2_bound(25, .25, .05), theorem2_bound(25, .25, .01)
ctx.claims.add("Example 3: records for 95% domain preservation (p=.25, N=25)", paper=391, ours=round(e95, 1),
               verdict="pass" if abs(e95 - 391) < 1 else "differs",
               note="paper erratum: 391 = (N/p)ln(2.5/α), i.e. pN evaluated as 2.5; Theorem 2 as stated gives 482.8 (spec §1.7)")
ctx.claims.add("Example 3: records for 99% domain preservation", paper=552, ours=round(e99, 1),
               verdict="pass" if abs(e99 - 552) < 1 else "differs", note="paper erratum; Theorem 2 gives 643.8")
ctx.claims.add("Lemma 1: ε = ln(3/p−2) at p=0.25", paper=2.303, ours=round(epsilon_grr(0.25, 3, "paper"), 3), atol=1e-3,
               note=f"exact ε for N=50 is {epsilon_grr(0.25, 50):.3f}: the paper's ε understates the loss for N>3")
ctx.claims.add("App. E tuning: S=10^4, error 0.05 → p", paper=0.804, ours=round(tune(10_000, 0.05)["p"], 4), atol=1e-3,
               note="spec §4 worked value (the paper states the algorithm, not this number)")
true_eps = float(ttab["true ε of this p"].iloc[1])
ctx.claims.add("Lemma 1 at ε = 2 per attribute: the true ε of the p it prescribes (N = 50)", paper=2.0,
               ours=round(true_eps, 3), verdict="pass" if abs(true_eps - 2.0) < 1e-6 else "differs",
               note="paper convention p = 3/(e^ε+2) = %.3f; exact ln(1+N(1−p)/p) at N = 50 (spec §1.6, §7 item 1); the exact "
                    "convention (default) gives p = %.3f" % (ttab["p"].iloc[1], ttab["p"].iloc[0]))
ok = bool((sim.simulated >= sim["union bound"] - 0.05).all())
ctx.claims.add("Theorem 2: the union bound is a lower bound on the simulated preservation probability", paper=True, ours=ok,
               verdict="pass" if ok else "differs")
ctx.finish()'''),
])

write_notebook(OUT / "learn_privateclean.ipynb", [
    ("md", """# Learn PrivateClean: randomized response, de-biasing, and cleaning with provenance
Teaching notebook (PrivateClean, Krishnan et al., SIGMOD 2016). Data: **synthetic** (Appendix D generator, seeded) and the
Fig. 1 running example (a synthetic 100-row majors table).

Set the discrete privacy either by ε (p from the **exact** GRR formula p = N/(e^ε + N − 1)) or by p directly; the
table under the figure gives the ε of that p under both formulas (exact and the paper's Lemma 1). The true relation is
cached, so moving ε or p only redraws the private relation."""),
    ("params", PARAMS_COMMON + '''
knob = "epsilon"   # "epsilon": p from ε (exact formula) | "p": p as given
epsilon = 5.0
p = 0.1
N = 50
z = 2.0
S = 1000
error_rate = 0.3
merge_rate = 1.0'''),
    ("code", '''from IPython.display import display
from dpworkbench.experiments import NotebookContext
from dpworkbench import widgets
from dpworkbench.privateclean import teaching, grr, CleanedRelation, estimate, privacy_cost_table

ctx = NotebookContext("privateclean/learn_privateclean", profile=profile, output_dir=output_dir, seed=seed)'''),
    ("md", "## 1. Randomized response and its de-biasing\nLeft: privacy flattens the histogram (rare values become common). Right: Direct is biased by S·p(l/N − s); PrivateClean removes it."),
    ("code", '''controls = {"knob": widgets.choice(["epsilon", "p"], knob, "set privacy by"),
            "epsilon": widgets.epsilon_slider(epsilon, minimum=0.5, maximum=10),
            "p": teaching.p_slider(p),
            "z": widgets.choice([0.0, 1.0, 2.0, 3.0], z, "z (skew)"),
            "N": widgets.choice([10, 50, 200], N, "N"),
            "S": widgets.log_slider(S, 100, 100_000, "S (rows)")}
panel = widgets.control_panel(lambda knob, epsilon, p, z, N, S: teaching.grr_knob_panel(knob, epsilon, p, z, N, S, seed=seed),
                              controls, interactive=interactive, title="GRR and de-biasing")
panel if interactive else None'''),
    ("code", '''fig, eps_table = teaching.grr_knob_panel(knob, epsilon, p, z, N, S, seed=seed)
ctx.save_figure(fig, "grr_debiasing")
eps_table'''),
    ("md", "## 2. Cleaning on the private relation: Fig. 1's running example with its provenance graph"),
    ("code", '''R = teaching.running_example(seed)
V = grr(R, {"major": 0.25}, {"satisfaction": 1.0}, domains={"major": teaching.MAJORS}, bounds={"satisfaction": (1.0, 5.0)}, rng=seed)
crel = CleanedRelation.start(V).merge("major", {"Mechanical E.": "Mech. Eng."})
display(privacy_cost_table(V))  # ε per attribute, exact and the paper's Lemma 1 (the release's ledger records the exact one)
rows = []
for m in ["Mech. Eng.", "Electrical Eng."]:
    truth = R.satisfaction[R.major.replace({"Mechanical E.": "Mech. Eng."}) == m].mean()
    rows.append({"major": m, "truth": truth, "Direct": estimate(crel, "avg", "major", m, "satisfaction", method="direct").value,
                 "PrivateClean": estimate(crel, "avg", "major", m, "satisfaction").value})
import pandas as pd
avg = pd.DataFrame(rows); ctx.save_table(avg, "running_example_avg"); display(avg.round(2))
g = teaching.provenance_figure(crel, "major", pred={"Mech. Eng."})
ctx.save_figure(g, "provenance_graph")
g'''),
    ("md", "## 3. Cleaning before / after, with the provenance graph\nA fraction `error_rate` of the values get an alias "
           "(half their rows); of those, `merge_rate` are merged back by the analyst (the rest are harmless renames). Moving ε "
           "only redraws the private relation; the dirty relation and the cleaner are cached."),
    ("code", '''panel = widgets.control_panel(lambda epsilon, error_rate, merge_rate: teaching.cleaning_view(epsilon, error_rate, merge_rate, seed=seed),
                              teaching.cleaning_controls(epsilon, error_rate, merge_rate), interactive=interactive,
                              title="cleaning on the private relation")
panel2 = widgets.control_panel(lambda epsilon, error_rate, merge_rate: teaching.cleaning_graph_view(epsilon, error_rate, merge_rate, seed=seed),
                               teaching.cleaning_controls(epsilon, error_rate, merge_rate), interactive=interactive,
                               title="provenance graph (dirty → clean)")
display(panel, panel2) if interactive else None'''),
    ("code", '''cfig, cgraph, ctable = teaching.cleaning_panel(epsilon, error_rate, merge_rate, seed=seed)
ctx.save_figure(cfig, "cleaning_before_after"); ctx.save_figure(cgraph, "cleaning_provenance")
ctx.save_table(ctable, "cleaning_estimates")
ctable'''),
    ("code", '''ctx.claims.add("teaching: the non-private relation is cached across ε changes", paper=True,
               ours=teaching._true_relation.cache_info().hits > 0, verdict="pass" if teaching._true_relation.cache_info().hits > 0 else "differs")
d, pc = float(ctable["direct"].iloc[0]), float(ctable["privateclean"].iloc[0]); t = float(ctable["truth"].iloc[0])
ctx.claims.add("teaching: after cleaning, PrivateClean's count is closer to the truth than Direct's (one release)", paper=True,
               ours=f"|Direct−truth| {abs(d - t):.1f} vs |PC−truth| {abs(pc - t):.1f}", verdict="pass" if abs(pc - t) <= abs(d - t) else "differs",
               note="a single seeded release; the notebooks fig02–fig06 give the Monte-Carlo picture")
ctx.finish()'''),
])
print("theory + learn written")

write_notebook(OUT / "fig01_running_example.ipynb", [
    ("md", """# PrivateClean (Krishnan et al., SIGMOD 2016) — Fig. 1: privatise → clean → query, worked and executable
Fig. 1 of the paper is an illustration: (a) a course-evaluation table with Major and Satisfaction, (b) the private table
after randomized response (student 3's major randomised: plausible deniability), (c) the analyst fixes the inconsistent
spelling "Mechanical E." → "Mech. Eng." on the *private* table, (d) AVG satisfaction per major (paper: Mech. Eng. 3.2,
Electrical Eng. 4.9). Here every step runs: GRR with a declared public domain of majors and Laplace noise on satisfaction,
the merge recorded in the provenance graph, and Direct vs PrivateClean estimates with 95 % intervals, for one release and
over many releases.

Data: **synthetic** 100-row table (seeded; rows 1–3 are the paper's, the rest drawn from a fixed distribution). The
paper's table is not published beyond those rows."""),
    ("params", PARAMS_COMMON + '''
p = 0.25      # GRR replacement probability on Major
b = 1.0       # Laplace scale on Satisfaction, public range 4'''),
    ("code", '''from IPython.display import display
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.privateclean import teaching, privacy_cost_table

ctx = NotebookContext("privateclean/fig01_running_example", profile=profile, output_dir=output_dir, seed=seed)
reps = pick(profile, ci=200, quick=2000, paper=20000)'''),
    ("md", "## (a) original table R and (b) the private release V"),
    ("code", '''R = teaching.fig01_relation(seed)
V, crel = teaching.fig01_private(R, p=p, b=b, seed=seed)
side = R.head(8).assign(private_major=V.value.data["major"].head(8).to_numpy(), private_satisfaction=V.value.data["satisfaction"].head(8).round(2).to_numpy())
ctx.save_table(side, "R_vs_V_first_rows")
display(side)
display(privacy_cost_table(V))  # ε per attribute, exact and the paper's Lemma 1 (the release's ledger records the exact one)
pdn = teaching.plausible_deniability(p)
ctx.save_table(pdn, "plausible_deniability")
pdn.round(3)'''),
    ("md", "## (c) cleaning on the private table, with its provenance graph"),
    ("code", '''g = teaching.provenance_figure(crel, "major", pred={"Mech. Eng."}, domain_source="released")
ctx.save_figure(g, "fig01_provenance")
display(crel.provenance("major"))
g'''),
    ("md", "## (d) AVG (and COUNT) per major: truth on C(R), Direct, PrivateClean — one release, then over many"),
    ("code", '''one = teaching.fig01_estimates(R, crel)
ctx.save_table(one, "one_release")
display(one.round(2))
mc = teaching.fig01_monte_carlo(R, p=p, b=b, reps=reps, seed=seed)
ctx.save_table(mc, "monte_carlo")
mc.round(3)'''),
    ("code", '''import plotly.graph_objects as go
from plotly.subplots import make_subplots
fig = make_subplots(rows=1, cols=2, subplot_titles=["COUNT: mean |error| over releases", "AVG: mean |error| over releases"])
for j, agg in enumerate(("count", "avg"), 1):
    t = mc[mc["agg"] == agg]
    for meth, color in (("direct", "#d62728"), ("privateclean", "#1f77b4")):
        fig.add_bar(x=t.major, y=t[f"{meth} mean abs error"], name=meth, marker_color=color, showlegend=j == 1, row=1, col=j)
fig.update_layout(title=f"Fig. 1(d) over {reps} releases (p = {p}, b = {b}, S = 100)", barmode="group", height=420)
ctx.save_figure(fig, "fig01_errors")
fig'''),
    ("md", "## Paper-claim check"),
    ("code", '''row = lambda m, a: mc[(mc.major == m) & (mc["agg"] == a)].iloc[0]
for m, pv in (("Mech. Eng.", 3.2), ("Electrical Eng.", 4.9)):
    r = row(m, "avg")
    ctx.claims.add(f"Fig. 1(d): AVG satisfaction {m} ≈ {pv} (illustrative)", paper=pv, ours=round(r.truth + r["privateclean bias"], 2),
                   verdict="not-comparable",
                   note=f"the paper's table is illustrative; ours = mean PrivateClean AVG over {reps} releases of our synthetic table, "
                        f"whose truth on C(R) is {r.truth:.2f}")
bias_d = max(abs(row(m, "count")["direct bias"]) for m in mc.major.unique())
bias_pc = max(abs(row(m, "count")["privateclean bias"]) for m in mc.major.unique())
ctx.claims.add("PrivateClean's count is unbiased after cleaning while Direct is biased (max |bias| over majors)", paper="PC unbiased",
               ours=f"Direct {bias_d:.2f} vs PC {bias_pc:.2f} rows", verdict="pass" if bias_pc < bias_d else "differs",
               note="at S = 100 the variance dominates: PC's mean |error| is not always below Direct's (see table); the bias claim is the paper's")
ctx.claims.add("Fig. 1(b): plausible deniability — every major can be reported for any student",
               paper=True, ours=bool(pdn["P[report a given other major]"].iloc[0] > 0),
               verdict="pass" if pdn["P[report a given other major]"].iloc[0] > 0 else "differs",
               note=f"likelihood ratio {pdn['likelihood ratio'].iloc[0]:.1f} = e^ε with exact ε {pdn['ε exact ln(ratio)'].iloc[0]:.3f} (paper's Lemma 1: {pdn['ε paper ln(3/p−2)'].iloc[0]:.3f})")
cov = float(mc["PC 95% CI coverage"].min())
ctx.claims.add("corrected 95% intervals cover the truth (min over majors and aggregates)", paper=0.95, ours=round(cov, 3),
               verdict="pass" if cov >= 0.90 else "differs", note="per-row CLT / delta method (spec §3.6–3.7)")
ctx.finish()'''),
])

write_notebook(OUT / "learn_ci_coverage.ipynb", [
    ("md", """# Learn PrivateClean: do the confidence intervals cover? (paper §5.3–5.6, corrected per spec §3.5–3.7)
Teaching notebook (no paper figure). The paper gives CLT intervals for COUNT (on the selectivity), a SUM interval that
bounds h_p + h_p^c, and for AVG the ratio of interval endpoints. The workbench's default intervals are the corrected
per-row CLT (SUM) and the delta method (AVG); the paper's forms stay available (`ci="paper"`). Here we measure the
empirical coverage of nominal 95 % intervals over many seeded releases.

Data: **synthetic** (Appendix D generator, Table 1 defaults: S = 1000, N = 50, z = 2, l = 5, b = 10, numeric U[0,100]);
a new relation and a new random predicate per release (`query_mode='random'`), and the top-5 predicate (`'top'`)."""),
    ("params", PARAMS_COMMON + '''
epsilon = 5.0   # per-attribute epsilon of the discrete attribute, exact convention, N 50'''),
    ("code", '''from IPython.display import display
import plotly.graph_objects as go
from dpworkbench import widgets
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.privateclean import teaching
from dpworkbench.privateclean.batch import ci_coverage

ctx = NotebookContext("privateclean/learn_ci_coverage", profile=profile, output_dir=output_dir, seed=seed)
reps = pick(profile, ci=300, quick=1000, paper=20000)
ps = pick(profile, ci=[0.1, 0.5], quick=[0.05, 0.1, 0.3, 0.5], paper=[0.05, 0.1, 0.2, 0.3, 0.5, 0.7])'''),
    ("md", "## 50 releases, their intervals and the truth\nMove ε (→ p = N/(e^ε+N−1)): the private releases are redrawn; the 50 true relations are the same for every ε (same seed), and each ε's batch "
           "is cached (`teaching.ci_releases`)."),
    ("code", '''panel = widgets.control_panel(lambda epsilon: teaching.ci_forest(epsilon, seed=seed),
                              {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.5, maximum=10)}, interactive=interactive,
                              title="intervals over releases")
panel if interactive else None'''),
    ("code", '''fig = teaching.ci_forest(epsilon, seed=seed)
ctx.save_figure(fig, "ci_forest")
fig'''),
    ("md", "## Monte-Carlo coverage: corrected vs paper forms"),
    ("code", '''import pandas as pd
cov = pd.concat([ci_coverage(ps, reps, seed=seed, query_mode="random"), ci_coverage(ps, reps, seed=seed + 1, query_mode="top")],
                ignore_index=True)
ctx.save_table(cov, "coverage")
display(cov.round(3))
fig = go.Figure()
for (agg, mode), t in cov.groupby(["agg", "query_mode"], sort=False):
    fig.add_trace(go.Scatter(x=t.p, y=t["coverage corrected (row CLT)"], mode="lines+markers", name=f"{agg} corrected ({mode})"))
    fig.add_trace(go.Scatter(x=t.p, y=t["coverage paper form"], mode="lines+markers", line=dict(dash="dot"), name=f"{agg} paper ({mode})"))
fig.add_hline(y=0.95, line_dash="dash", annotation_text="nominal 95%")
fig.update_layout(title=f"Empirical coverage over {reps} releases per point", xaxis_title="p", yaxis_title="coverage", height=450)
ctx.save_figure(fig, "ci_coverage")
fig'''),
    ("md", "## Paper-claim check"),
    ("code", '''cs = cov[cov["agg"].isin(["count", "sum"])]
lo = float(cs["coverage corrected (row CLT)"].min())
ctx.claims.add("corrected COUNT/SUM intervals reach nominal 95% coverage (min over p and query modes)", paper=0.95, ours=round(lo, 3),
               verdict="pass" if lo >= 0.93 else "differs", note="per-row CLT, spec §3.6; count: identical to the paper's form")
ps_ = cov[cov["agg"] == "sum"]
ctx.claims.add("the paper's SUM interval is very conservative (coverage ≈100%, much wider)", paper="conservative",
               ours=f"coverage {ps_['coverage paper form'].min():.3f}, width ratio paper/corrected {float((ps_['median width / truth, paper'] / ps_['median width / truth, corrected']).median()):.1f}x",
               verdict="pass" if ps_["coverage paper form"].min() >= 0.99 else "differs", note="spec §7 item 9 ([ours]: widths 2–7x)")
av = cov[cov["agg"] == "avg"]
amin = float(av["coverage corrected (row CLT)"].min())
ctx.claims.add("delta-method AVG interval coverage (min over p and query modes)", paper=0.95, ours=round(amin, 3),
               verdict="pass" if amin >= 0.93 else "differs",
               note="finding: with random 5-of-50 Zipf(2) predicates at large p the count estimate ĉ is often near 0, the ratio "
                    "is far from normal and the delta method under-covers (non-positive ĉ → NaN counted as a miss); with the top-5 "
                    "predicate it covers. The paper's ratio-of-endpoints interval covers ~100% but is far wider")
ctx.finish()'''),
])
print("fig01 + learn_ci_coverage written")
