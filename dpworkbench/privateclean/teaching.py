"""Teaching views of PrivateClean: the tables and widget views of the ``learn_`` notebooks and Fig. 1.

Views compute with the package (GRR, cleaning, estimators) and draw with :mod:`dpworkbench.privateclean.figures`.
The non-private part of a view (the true relation, the dirty relation and its cleaner, the seeded release batches) is
taken from :mod:`dpworkbench.cache`, keyed by its parameters, so moving ε only redraws the private relation.

References
----------
Krishnan et al., "PrivateClean: Data Cleaning and Differential Privacy", SIGMOD 2016 (seed 002): Fig. 1 (§1, §3),
Lemma 1 and Theorem 2 (§4), §5 (estimators), Appendix E (tuning); spec /work/shared/spec/privateclean.md §6.5.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dpworkbench.cache import cached
from dpworkbench.experiments.metrics import absolute_error, signed_error

from . import figures
from .model import CleanedRelation
from .estimators import estimate
from .mechanisms import epsilon_grr, grr, grr_sample, theorem2_bound, theorem2_exact, theorem2_probability
from .synthetic import generate
from .tuning import tune


def lemma1_table(ps=(0.05, 0.1, 0.25, 0.5, 0.75, 0.9)) -> pd.DataFrame:
    return pd.DataFrame([{"p": p, "paper ln(3/p-2)": epsilon_grr(p, 3, "paper"), "exact N=2": epsilon_grr(p, 2),
                          "exact N=50": epsilon_grr(p, 50), "App. A.1 N=50 (invalid)": epsilon_grr(p, 50, "appendix")}
                         for p in ps])


def theorem2_table() -> pd.DataFrame:
    rows = [(25, 0.25, 0.05), (25, 0.25, 0.01), (50, 0.1, 0.05), (68, 0.1, 0.05), (68, 0.5, 0.05), (85, 0.1, 0.05)]
    return pd.DataFrame([{"N": n, "p": p, "alpha": a, "bound (N/p)ln(pN/α)": theorem2_bound(n, p, a),
                          "exact union bound": theorem2_exact(n, p, a)} for n, p, a in rows])


@cached("privateclean.teaching.preservation")
def simulate_preservation(N: int, p: float, sizes, trials: int, seed: int = 0) -> pd.DataFrame:
    """Worst case: one value has a single row; P[every value still visible after GRR]."""
    gen = np.random.default_rng(seed)
    out = []
    for S in sizes:
        base = np.concatenate([[0], gen.integers(1, N, size=S - 1)])
        base[1:N] = np.arange(1, N)
        new = grr_batch_codes(base, N, p, trials, gen)
        present = np.zeros((trials, N), dtype=bool)
        present[np.arange(trials)[:, None], new] = True
        ok = int(present.all(axis=1).sum())
        out.append({"S": S, "simulated": ok / trials, "union bound": theorem2_probability(N, p, S)})
    return pd.DataFrame(out)


def grr_batch_codes(codes: np.ndarray, N: int, p: float, trials: int, gen: np.random.Generator) -> np.ndarray:
    """``trials`` independent GRR releases of one code vector (trials × S)."""
    return grr_sample({"c": (codes, N, p)}, size=trials, rng=gen)[0]["c"]


def tuning_table() -> pd.DataFrame:
    import warnings
    rows = []
    for S in (1000, 10_000, 100_000):
        for e in (0.05, 0.02, 0.01):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t = tune(S, e, deltas={"x": 100.0}, convention="paper")
                tx = tune(S, e, deltas={"x": 100.0}, N=50)
            rows.append({"S": S, "error": e, "p": t["p"], "feasible": t["feasible"],
                         "epsilon_paper": t["epsilon_paper"], "b (Δ=100), paper App. E": t["b"].get("x", np.nan),
                         "epsilon_exact (N=50)": tx["epsilon_exact"], "b (Δ=100), exact N=50": tx["b"].get("x", np.nan)})
    return pd.DataFrame(rows)


@cached("privateclean.teaching.true_relation")
def true_relation(S: int, N: int, z: float, seed: int) -> pd.DataFrame:
    """The seeded Appendix D relation of the GRR panel (non-private, cached by its parameters; do not mutate it)."""
    return generate(S, N, z, rng=seed)


def grr_panel(p: float, N: int = 50, z: float = 2.0, S: int = 1000, l: int = 5, b: float = 10.0, seed: int = 0):
    """Histogram true vs private, and Direct vs PrivateClean count with CI against truth and the Direct bias line."""
    df = true_relation(S, N, z, seed)  # the non-private part is cached
    p = min(max(p, 1e-9), 0.99)
    rel = grr(df, {"cat": p}, {"val": b}, domains={"cat": list(range(N))}, bounds={"val": (0.0, 100.0)}, rng=seed + 1).value
    crel = CleanedRelation.start(rel)
    pred = set(range(l))
    truth = int(df["cat"].isin(pred).sum())
    d = estimate(crel, "count", "cat", pred, method="direct")
    pc = estimate(crel, "count", "cat", pred)
    bias = S * p * (l / N - truth / S)
    fig = figures.grr_histogram_and_count(np.bincount(df["cat"].astype(int), minlength=N),
                                          np.bincount(rel.data["cat"].astype(int), minlength=N), direct=d.value,
                                          privateclean=pc.value, pc_hi=pc.hi, truth=truth, direct_bias=bias, l=l,
                                          title=f"GRR p={p:.2f}, N={N}, z={z}, S={S}")
    eps = pd.DataFrame([{"p": round(p, 4), "ε exact ln(1+N(1−p)/p)": epsilon_grr(p, N), "ε paper ln(3/p−2)": epsilon_grr(p, 3, "paper"),
                         "ε numeric Δ/b": 100.0 / b}]).round(3)
    return fig, eps


def p_slider(value: float = 0.1, description: str = "p"):
    """Slider for the GRR replacement probability p, over [0, 0.95] by default.

    The range is the slider's, not the mechanism's: a value set headlessly (``-p p 0.99``) widens
    it instead of being clamped; the mechanism checks p itself.
    """
    import ipywidgets as w

    from dpworkbench import widgets

    p = float(value)
    slider = w.FloatSlider(value=p, min=min(0.0, p), max=max(0.95, p), step=0.01, continuous_update=False)
    return widgets.labelled(slider, description, "p: probability that GRR replaces a value")


def provenance_figure(crel: CleanedRelation, col: str, pred=None, domain_source: str = "observed") -> go.Figure:
    """Bipartite dirty → clean graph of ``col`` (:func:`figures.provenance_graph` of its provenance edges)."""
    return figures.provenance_graph(crel.provenance(col, domain_source), col, pred)


MAJORS = ["Mechanical E.", "Mech. Eng.", "Electrical Eng.", "Civil Eng.", "Math"]


def running_example(seed: int = 0, S: int = 100) -> pd.DataFrame:
    """Fig. 1's table: Major (with an inconsistent spelling) and Satisfaction 1–5."""
    gen = np.random.default_rng(seed)
    major = gen.choice(MAJORS, size=S, p=[0.15, 0.2, 0.35, 0.2, 0.1])
    sat = np.clip(np.round(np.where(np.isin(major, MAJORS[:2]), 3.2, 4.5) + gen.normal(0, 0.8, S)), 1, 5)
    return pd.DataFrame({"major": pd.Series(major, dtype=object), "satisfaction": sat})


# -- Fig. 1 worked example: privatise → clean → query ---------------------------------------------------------

FIG1_CLEANER = {"Mechanical E.": "Mech. Eng."}


def fig01_relation(seed: int = 0, S: int = 100) -> pd.DataFrame:
    """Fig. 1(a): 100 students, Major (with the inconsistent 'Mechanical E.' / 'Mech. Eng.') and Satisfaction 1–5.
    Rows 1–3 are the paper's (Mechanical E. 4, Mech. Eng. 3, Electrical Eng. 1); the rest are synthetic (seeded)."""
    df = running_example(seed, S)
    df.loc[:2, "major"] = ["Mechanical E.", "Mech. Eng.", "Electrical Eng."]
    df.loc[:2, "satisfaction"] = [4.0, 3.0, 1.0]
    df.insert(0, "id", np.arange(1, S + 1))
    from ..datasets import provenance  # the notebook's data (datasets.csv, issue 24)

    provenance.record("privateclean.fig01_students", "synthetic", f"running_example(seed={seed}, S={S}) with the paper's rows 1–3",
                      S, stands_in_for="the paper's illustrative Fig. 1 table")
    return df


def fig01_private(R: pd.DataFrame, p: float = 0.25, b: float = 1.0, seed: int = 0):
    """Fig. 1(b)–(c): GRR on Major (declared public domain), Laplace(b) on Satisfaction (Δ = 4), then the analyst's merge.
    Returns the :func:`grr` release (its ``value`` is V) and the cleaned relation."""
    V = grr(R[["major", "satisfaction"]], {"major": p}, {"satisfaction": b}, domains={"major": MAJORS},
            bounds={"satisfaction": (1.0, 5.0)}, rng=seed)
    return V, CleanedRelation.start(V).merge("major", FIG1_CLEANER, note="Mechanical E. → Mech. Eng.")


def fig01_estimates(R: pd.DataFrame, crel: CleanedRelation) -> pd.DataFrame:
    """Fig. 1(d) for one release: per cleaned major, truth on C(R) vs Direct vs PrivateClean (count and AVG, 95 % CIs)."""
    clean_R = R["major"].map(lambda v: FIG1_CLEANER.get(v, v))
    rows = []
    for m in sorted(set(clean_R)):
        sel = clean_R == m
        for agg in ("count", "avg"):
            t = float(sel.sum()) if agg == "count" else float(R["satisfaction"][sel].mean())
            d = estimate(crel, agg, "major", m, "satisfaction", method="direct")
            pc = estimate(crel, agg, "major", m, "satisfaction")
            rows.append({"major": m, "agg": agg, "truth C(R)": t, "Direct": d.value, "PrivateClean": pc.value,
                         "PC 95% CI": f"[{pc.lo:.2f}, {pc.hi:.2f}]"})
    return pd.DataFrame(rows)


def fig01_monte_carlo(R: pd.DataFrame, p: float = 0.25, b: float = 1.0, reps: int = 500, seed: int = 0) -> pd.DataFrame:
    """Mean absolute error over ``reps`` releases (vectorised), per cleaned major: Direct vs PrivateClean, count and AVG."""
    from .batch import estimate_batch

    gen = np.random.default_rng(seed)
    codes = pd.Index(MAJORS).get_indexer(R["major"])
    clean_dom = sorted(set(FIG1_CLEANER.get(v, v) for v in MAJORS))
    cmap = pd.Index(clean_dom).get_indexer([FIG1_CLEANER.get(v, v) for v in MAJORS])
    sat = R["satisfaction"].to_numpy(dtype=float)
    V, W = grr_sample({"major": (codes, len(MAJORS), p)}, {"satisfaction": (sat, b)}, size=reps, rng=gen)
    Vcat, Vval = V["major"], W["satisfaction"]
    rows = []
    for k, m in enumerate(clean_dom):
        sel = np.arange(len(clean_dom)) == k
        est = estimate_batch(Vcat, Vval, np.broadcast_to(cmap, (reps, len(MAJORS))), np.broadcast_to(sel, (reps, len(clean_dom))), p)
        I = sel[cmap[codes]]
        truth = {"count": float(I.sum()), "avg": float(sat[I].mean())}
        for agg in ("count", "avg"):
            row = {"major": m, "agg": agg, "truth": truth[agg]}
            for meth in ("direct", "privateclean"):
                v = est[meth][agg]
                row[f"{meth} mean abs error"] = float(np.nanmean(absolute_error(v, truth[agg])))
                row[f"{meth} bias"] = float(np.nanmean(signed_error(v, truth[agg])))
            cov = (est["privateclean"][f"{agg}_lo"] <= truth[agg]) & (truth[agg] <= est["privateclean"][f"{agg}_hi"])
            row["PC 95% CI coverage"] = float(np.mean(cov))
            rows.append(row)
    return pd.DataFrame(rows)


def plausible_deniability(p: float, N: int = len(MAJORS)) -> pd.DataFrame:
    """P[reported major | true major] under GRR and the resulting likelihood ratio (= e^ε exact)."""
    keep = 1 - p + p / N
    other = p / N
    return pd.DataFrame([{"P[report own major]": keep, "P[report a given other major]": other,
                          "likelihood ratio": keep / other, "ε exact ln(ratio)": epsilon_grr(p, N),
                          "ε paper ln(3/p−2)": epsilon_grr(p, 3, "paper")}])


# -- cleaning before/after with the provenance graph (error rate, merge rate) ------------------------------------

@cached("privateclean.teaching.dirty_relation")
def dirty_relation(error_rate: float, merge_rate: float, N: int, S: int, seed: int):
    """Non-private part (cached): clean Zipf(1.5) relation on N values, split-alias errors, the cleaner, C(R)."""
    from .synthetic import inject_errors

    base = generate(S, N, 1.5, rng=seed)
    R, C, domain = inject_errors(base, N, error_rate=error_rate, merge_rate=merge_rate, mode="split_alias", rng=seed + 7)
    return R, C, domain


def cleaning_panel(epsilon: float, error_rate: float = 0.3, merge_rate: float = 1.0, *, N: int = 10, S: int = 2000,
                   domain_source: str = "released", seed: int = 0):
    """GRR at ε (exact convention on the dirty domain), the analyst's merge, before/after histograms, the provenance
    graph of the cut for the most frequent clean value, and Direct / PrivateClean / no-provenance counts vs the truth."""
    from .mechanisms import p_for_epsilon
    from .model import apply_mapping

    R, C, domain = dirty_relation(round(float(error_rate), 3), round(float(merge_rate), 3), int(N), int(S), int(seed))
    p = p_for_epsilon(epsilon, len(domain))
    V = grr(R[["cat"]], {"cat": p}, None, domains={"cat": domain}, rng=seed + 1).value
    crel = CleanedRelation.start(V).merge("cat", C, note="merge aliases back")
    RC = pd.Series(apply_mapping(R["cat"], C), dtype=object)
    target = RC.value_counts().index[0]
    truth = int((RC == target).sum())
    ests = {m: estimate(crel, "count", "cat", target, method=m).value for m in ("direct", "privateclean", "pc_noprov")}
    order = [str(v) for v in domain]
    series = {}
    for name, col in (("R dirty", R["cat"]), ("V private", V.data["cat"]), ("V_clean", crel.data["cat"]), ("C(R) truth", RC)):
        vc = pd.Series(col, dtype=object).astype(str).value_counts()
        series[name] = [int(vc.get(k, 0)) for k in order]
    fig = figures.cleaning_before_after(order, series, ests, truth=truth, target=target,
                                        title=f"ε = {epsilon:.2f} → p = {p:.3f} (N = {len(domain)})")
    graph = provenance_figure(crel, "cat", pred={target}, domain_source=domain_source)
    table = pd.DataFrame([{"truth": truth, **{k: round(v, 1) for k, v in ests.items()}, "p": p,
                           "l (dirty values in the cut)": estimate(crel, "count", "cat", target).meta["l"], "N": len(domain)}])
    return fig, graph, table


def tuning_calculator(S: int, error: float, confidence: float = 0.95, delta: float = 100.0, N: int = 50) -> pd.DataFrame:
    """Appendix E: target error (fraction of S for any count) at a confidence → p, b, and ε both ways."""
    import warnings
    from scipy.stats import norm

    z = float(norm.ppf(0.5 + confidence / 2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = tune(int(S), float(error), z=z, deltas={"x": float(delta)}, N=int(N))
        tp = tune(int(S), float(error), z=z, deltas={"x": float(delta)}, convention="paper")
    return pd.DataFrame([{"S": int(S), "target error": error, "confidence": confidence, "z": round(z, 3), "p": t["p"],
                          "feasible": t["feasible"], "ε discrete, paper ln(3/p−2)": t["epsilon_paper"],
                          f"ε discrete, exact (N={N})": t["epsilon_exact"],
                          f"b for Δ={delta:g} (exact ε, default)": t["b"].get("x", np.nan),
                          f"b for Δ={delta:g} (paper App. E)": tp["b"].get("x", np.nan)}])


def tradeoff_panel(epsilon: float, N: int = 50, S: int = 1000, delta: float = 100.0, z: float = 1.96):
    """Privacy–accuracy trade-off with both ε formulas side by side (spec §1.6, §3.5 Eq. 4, §4).

    For a per-attribute ε, the p it buys under the exact GRR formula (domain size N) and under the
    paper's Lemma 1, and the dataset-independent count error bound z/(1−p)·√(1/(4S)) (fraction of S)
    each gives; plus the uniform allocation of 2ε over one discrete (N) and one numeric (Δ) attribute.
    Pure formulas: nothing here depends on data, so moving ε recomputes only closed forms.
    """
    from .mechanisms import p_for_epsilon
    from .tuning import allocate_epsilon

    eps = np.linspace(0.2, 10.0, 120)
    p_ex = N / (np.exp(eps) + N - 1.0)
    p_pa = 3.0 / (np.exp(eps) + 2.0)
    bound = lambda p: z / (1.0 - p) * np.sqrt(1.0 / (4.0 * S))  # noqa: E731
    fig = figures.tradeoff(eps, p_ex, p_pa, bound(p_ex), bound(p_pa), epsilon=epsilon, N=N, S=S)
    pe, pp = p_for_epsilon(epsilon, N), p_for_epsilon(epsilon, convention="paper")
    alloc = allocate_epsilon(2 * epsilon, {"discrete": N}, {"numeric": delta})
    table = pd.DataFrame([
        {"formula": f"exact ln(1+N(1−p)/p), N = {N}", "p": pe, "count error bound / S": float(bound(pe)),
         "true ε of this p": epsilon_grr(pe, N)},
        {"formula": "paper ln(3/p−2)", "p": pp, "count error bound / S": float(bound(pp)),
         "true ε of this p": epsilon_grr(pp, N)},
        {"formula": f"uniform allocation of 2ε: b for Δ = {delta:g}", "p": alloc["p"]["discrete"],
         "count error bound / S": float(bound(alloc["p"]["discrete"])), "true ε of this p": epsilon_grr(alloc["p"]["discrete"], N),
         "b": alloc["b"]["numeric"]},
    ])
    return fig, table


# -- widget views of the teaching notebooks (bound with a short lambda in the notebook) ---------------------------

def grr_knob_panel(knob: str, epsilon: float, p: float, z: float = 2.0, N: int = 50, S: float = 1000, l: int = 5,
                   b: float = 10.0, *, seed: int = 0):
    """:func:`grr_panel` with privacy set by ``knob``: ``"epsilon"`` takes p = N/(e^ε+N−1) (exact GRR formula on the
    N-value domain), ``"p"`` takes ``p`` as given; ``N`` and ``S`` are rounded to integers (S comes from a log slider).
    Returns ``(figure, ε table)`` as :func:`grr_panel`."""
    from .mechanisms import p_for_epsilon

    if knob == "epsilon":
        p = p_for_epsilon(epsilon, int(N))
    elif knob != "p":
        raise ValueError(f"knob must be 'epsilon' or 'p', got {knob!r}")
    return grr_panel(p, N=int(N), z=z, S=int(round(S)), l=int(l), b=float(b), seed=seed)


def cleaning_view(epsilon: float, error_rate: float = 0.3, merge_rate: float = 1.0, *, seed: int = 0):
    """The before/after figure and the estimates table of :func:`cleaning_panel` (for a control panel)."""
    fig, _graph, table = cleaning_panel(epsilon, error_rate, merge_rate, seed=seed)
    return fig, table


def cleaning_graph_view(epsilon: float, error_rate: float = 0.3, merge_rate: float = 1.0, domain_source: str = "released", *,
                        seed: int = 0) -> go.Figure:
    """The provenance graph (dirty → clean) of :func:`cleaning_panel` (for a control panel); ``domain_source``:
    "released" draws every value of the released domain (also those no private row holds), "observed" only V's."""
    return cleaning_panel(epsilon, error_rate, merge_rate, domain_source=domain_source, seed=seed)[1]


def cleaning_controls(epsilon: float = 5.0, error_rate: float = 0.3, merge_rate: float = 1.0) -> dict:
    """Fresh controls (ε, error rate, merge rate) for the cleaning panels; call once per panel, since one widget
    cannot sit in two panels."""
    from dpworkbench import widgets

    return {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.5, maximum=10),
            "error_rate": widgets.choice([0.0, 0.1, 0.3, 0.5], error_rate, "error rate"),
            "merge_rate": widgets.choice([0.0, 0.5, 1.0], merge_rate, "merge rate")}


def epsilon_to_p_figure(epsilon: float, Ns=(2, 3, 10, 50, 200)) -> go.Figure:
    """Lemma 1 both ways: bars of the exact p = N/(e^ε+N−1) per domain size N, and the paper's N-free
    p = 3/(e^ε+2) as a dashed line."""
    from .mechanisms import p_for_epsilon

    Ns = [int(n) for n in Ns]
    return figures.epsilon_to_p(epsilon, Ns, [p_for_epsilon(epsilon, n) for n in Ns], p_for_epsilon(epsilon, convention="paper"))


def tuning_view(S: float, error: float, confidence: float = 0.95, delta: float = 100.0):
    """Appendix E calculator for a control panel: ε(p) under the paper's ln(3/p−2) and the exact formula (N = 50)
    with the tuned p marked, and :func:`tuning_calculator`'s row (S rounded to an integer; values to 4 decimals)."""
    t = tuning_calculator(int(round(S)), error, confidence, delta)
    ps = np.linspace(0.01, 0.95, 60)
    fig = figures.tuning_epsilon(ps, [epsilon_grr(q, 3, "paper") for q in ps], [epsilon_grr(q, 50) for q in ps],
                                 float(t["p"].iloc[0]))
    return fig, t.round(4)


@cached("privateclean.teaching.ci_releases")
def ci_releases(p: float, n: int = 50, seed: int = 0, query_mode: str = "top") -> pd.DataFrame:
    """``n`` seeded releases of the Appendix D generator (Table 1 defaults; ``query_mode`` "top": the top-5 predicate,
    "random": a random 5-of-50 predicate per release) with PrivateClean's
    count, its corrected 95 % interval and the truth, one row per release (:func:`batch.run_batch`).

    Cached: the result is a deterministic function of (p, n, seed, query_mode) — the same seed draws the same true relations for
    every p, so a cache hit returns exactly what a recomputation would (seeded noise is for teaching, not a private
    release). Shared between calls: do not mutate it."""
    from .batch import run_batch

    return pd.DataFrame(run_batch({"p": p, "batch": int(n), "aggs": ("count",), "methods": ("privateclean",),
                                   "query_mode": query_mode}, np.random.default_rng(seed)))


def ci_forest(epsilon: float, *, n: int = 50, seed: int = 0, query_mode: str = "top") -> go.Figure:
    """CI "forest" at ε: p = N/(e^ε+N−1) with N = 50 (rounded to 4 decimals), the ``n`` releases of
    :func:`ci_releases` as PrivateClean count ± half the 95 % interval width (red: the interval misses the truth)
    and the truth per release as a dashed line; the title gives the share that covers."""
    from .mechanisms import p_for_epsilon

    p = round(p_for_epsilon(epsilon, 50), 4)
    r = ci_releases(p, n, seed, query_mode)
    r = r[r.method == "privateclean"].reset_index(drop=True)
    return figures.ci_forest(r, epsilon=epsilon, p=p, query=("the top-5 values" if query_mode == "top" else "5 random values"))


def report_frequencies(p: float, draws: int = 20_000, *, seed: int = 0) -> pd.DataFrame:
    """Fig. 1(b), measured: run :func:`grr` on ``draws`` copies of one student's record (major = the first of
    :data:`MAJORS`) and count how often each major is reported, next to GRR's probability (1 − p + p/N for the own
    major, p/N for every other). An independent check of plausible deniability: the frequencies come from the
    mechanism's draws, the probabilities from the formula. Seeded: research/teaching only."""
    R = pd.DataFrame({"major": [MAJORS[0]] * int(draws)})
    V = grr(R, {"major": p}, domains={"major": MAJORS}, rng=seed).value
    freq = V.data["major"].value_counts(normalize=True)
    N = len(MAJORS)
    return pd.DataFrame([{"reported major": m, "own": m == MAJORS[0], "observed frequency": float(freq.get(m, 0.0)),
                          "GRR probability": (1 - p + p / N) if m == MAJORS[0] else p / N, "draws": int(draws)}
                         for m in MAJORS])


def grr_knob_controls(knob: str = "epsilon", epsilon: float = 5.0, p: float = 0.1, z: float = 2.0, N: int = 50,
                      S: float = 1000, l: int = 5, b: float = 10.0) -> dict:
    """Controls of :func:`grr_knob_panel` that stay consistent: the slider that does not set the privacy is disabled
    and follows the other one (in "p" mode the ε slider shows the exact ε of the chosen p on N values; in "epsilon"
    mode the p slider shows p = N/(e^ε+N−1)), so no slider shows a stale value."""
    from dpworkbench import widgets

    from .mechanisms import p_for_epsilon

    controls = {"knob": widgets.choice(["epsilon", "p"], knob, "privacy by", "set the privacy by ε or by the GRR probability p"),
                "epsilon": widgets.epsilon_slider(epsilon, minimum=0.5, maximum=10),
                "p": p_slider(p),
                "z": widgets.choice([0.0, 1.0, 2.0, 3.0], z, "z (skew)"),
                "N": widgets.choice([5, 10, 50, 200, 500], N, "N"),
                "S": widgets.log_slider(S, 100, 100_000, "S (rows)"),
                "l": widgets.choice([1, 2, 5, 10], l, "l", "l: values in the query's predicate"),
                "b": widgets.log_slider(b, 0.1, 100, "b (Laplace)")}
    eps_w, p_w, knob_w, n_w = controls["epsilon"], controls["p"], controls["knob"], controls["N"]
    busy = {"on": False}

    def follow(_change=None) -> None:
        if busy["on"]:
            return
        busy["on"] = True
        try:
            n = int(n_w.value)
            if knob_w.value == "p":
                eps_of_p = epsilon_grr(min(max(float(p_w.value), 1e-9), 0.99), n)
                lo, hi = 10 ** eps_w.min, 10 ** eps_w.max
                eps_w.value = min(max(eps_of_p, lo), hi)
            else:
                p_w.value = round(p_for_epsilon(float(eps_w.value), n), 2)
            eps_w.disabled, p_w.disabled = knob_w.value == "p", knob_w.value == "epsilon"
        finally:
            busy["on"] = False

    for w_ in (eps_w, p_w, knob_w, n_w):
        w_.observe(follow, names="value")
    follow()
    return controls


def preservation_view(alpha: float = 0.05, N: int = 25, p: float = 0.25, *, trials: int = 400, seed: int = 0):
    """Theorem 2 panel (spec §6.5 view 4): P[domain preserved] vs S, simulated (worst case, seeded and cached) and the
    union lower bound, with Theorem 2's sufficient S for ``alpha`` marked; the table gives that S and the exact
    union-bound S next to the simulated probability there."""
    N, p, alpha = int(N), float(p), float(alpha)
    s2, sx = theorem2_bound(N, p, alpha), theorem2_exact(N, p, alpha)
    sizes = sorted({int(v) for v in np.geomspace(max(N, 10), max(4 * s2, 2 * N), 8).round()} | {int(np.ceil(s2))})
    sim = simulate_preservation(N, p, tuple(sizes), int(trials), int(seed))
    fig = figures.preservation(sim, N=N, p=p, theorem2_size=s2)
    at = sim[sim.S == int(np.ceil(s2))]
    table = pd.DataFrame([{"α": alpha, "Theorem 2 S (N/p)ln(pN/α)": round(s2, 1), "exact union-bound S": round(sx, 1),
                           "simulated P at Theorem 2's S": float(at["simulated"].iloc[0]), "target 1 − α": 1 - alpha}])
    return fig, table
