"""Widget views of the local-dampening teaching notebook (``notebooks/dampening/learn_local_dampening``).

Each view recomputes only the cheap, ε-dependent part (logits, probabilities, a seeded simulation);
the non-private part (EBC, degrees, contingency tables, LS profiles) comes from the cache.

References
----------
V. A. E. de Farias, *Local Dampening: Differential Privacy for Non-numeric Queries via Local
Sensitivity*, PhD thesis, UFC 2021 (PVLDB 14(4) 2020): Def. 3.3.1 (D), Def. 3.4.1 (LD), Def. 4.2.1
(shifted LD), Alg. 3 (PrivTopk), Ch. 5 (median), Ch. 7 (private ID3).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from dpworkbench._validation import check_options
from dpworkbench.cache import cached
from dpworkbench.plots.style import PALETTE

from . import ebc as E
from . import id3 as I
from . import median as M
from . import percentile as Q
from .figures import dampening_figure
from .model import SensitivityMatrix, dampen
from . import mechanisms as DM


TEACHING_DELTA_ROW = (1.0, 2.0, 4.0, 7.0)


def teaching_dampening_figure(t: int, global_sensitivity: float, *, delta_row: Sequence[float] = TEACHING_DELTA_ROW) -> go.Figure:
    """The dampening-function panel of the teaching notebook: ``dampening_figure`` on the first ``t + 1``
    entries of ``delta_row`` (at least 1, at most all), with the breakpoint b(x, t, r) marked.

    References
    ----------
    de Farias 2021, Def. 3.3.1, Fig. 14.
    """
    t = int(t)
    if t < 0:
        raise ValueError(f"t must be a non-negative distance, got {t}")
    row = list(delta_row)[: max(1, min(len(delta_row), t + 1))]
    return dampening_figure(row, global_sensitivity, t_mark=t)


def _title(main: str, detail: str = "") -> dict:
    """A short title line (fits a narrow widget output) with the details on a smaller second line."""
    return {"text": main + (f"<br><sup>{detail}</sup>" if detail else ""), "x": 0.01, "xanchor": "left"}


#: One colour per mechanism in every teaching figure, so "LD" is the same colour in every panel and legend.
METHOD_COLOURS = {"EM": PALETTE[0], "PF": PALETTE[1], "LD": PALETTE[2], "SLD": PALETTE[3],
                  "Global (EM)": PALETTE[0], "Local (LD)": PALETTE[2], "Shifted (SLD)": PALETTE[3],
                  "LD on u − s": PALETTE[2], "SLD closed form": PALETTE[3], "EM (Δu = 7.5)": PALETTE[0]}

MEDIAN_DELTAS = ("box (admissible)", "flat: max over elements", "thesis candidates", "Δu (EM scale)")
MAX_DEGREE_FACTORS = (1, 2, 5)


@cached("dampening.teaching_graph")
def _teaching_graph(generator: str, n: int, seed: int):
    import networkx as nx

    from dpworkbench.graphs import from_networkx, holme_kim

    from .worked_examples import fig9c_graph

    if generator == "fig9c":
        g, labels = from_networkx(fig9c_graph())
    elif generator == "karate":
        g, labels = from_networkx(nx.karate_club_graph())
    elif generator == "les_miserables":
        g, labels = from_networkx(nx.les_miserables_graph())
    else:
        g = holme_kim(n, 3, 0.3, seed=seed); labels = list(range(n))
    e = E.ebc_all(g)  # non-private part: cached, independent of ε
    return e, g.degrees, [str(x) for x in labels]


def teaching_probabilities(generator: str = "fig9c", epsilon: float = 2.0, *, n: int = 300, seed: int = 0, max_degree_bound: int | None = None,
                           top: int = 20) -> pd.DataFrame:
    """Output law of one PrivTopk draw (k=1) under EM, PF, LD and SLD; ε-only recomputation.

    ``max_degree_bound`` is the public bound Δ behind ΔEBC (default: the graph's max degree, assumed public as in the
    thesis); a looser bound makes ΔEBC, hence EM's noise, larger.

    References
    ----------
    de Farias 2021, Alg. 3 (PrivTopk), Def. 6.3.1 (δ^EBC), Example 4.2.1.
    """
    from dpworkbench.mechanisms import permute_and_flip_probabilities

    e, d, labels = _teaching_graph(generator, n, seed)
    bound = max_degree_bound or int(d.max())
    gs = E.global_sensitivity_ebc(bound)
    logits = {"EM": epsilon * e / (2 * gs), "LD": epsilon * E.ld_scores(e, d, max_degree_bound=bound) / 2,
              "SLD": epsilon * E.sld_scores(e, d, max_degree_bound=bound) / 2}
    probs = {k: np.exp(v - np.logaddexp.reduce(v)) for k, v in logits.items()}
    if len(e) <= 400:
        probs["PF"] = permute_and_flip_probabilities(e, epsilon=epsilon, sensitivity=gs)
    order = E.true_top_k(e, min(top, len(e)))
    rows = [{"node": labels[v], "ebc": e[v], "degree": int(d[v]), "method": m, "probability": float(p[v])}
            for m, p in probs.items() for v in order]
    return pd.DataFrame(rows)


def teaching_figure(generator: str = "fig9c", epsilon: float = 2.0, **kw) -> go.Figure:
    """Bars of :func:`teaching_probabilities`: P[selected] of the top nodes by EBC under each mechanism.

    References
    ----------
    de Farias 2021, Alg. 3 (PrivTopk, one draw).
    """
    df = teaching_probabilities(generator, epsilon, **kw)
    fig = px.bar(df, x="node", y="probability", color="method", barmode="group", hover_data=["ebc", "degree"],
                 color_discrete_map=METHOD_COLOURS,
                 labels={"node": "node (sorted by true EBC)", "probability": "P[selected]", "method": "mechanism"})
    fig.update_layout(title=_title(f"One draw, ε = {epsilon:.3g}", f"top nodes by EBC on {generator}"))
    # node names stand upright so that every node is named (turned 30°, plotly dropped every other name)
    fig.update_xaxes(tickangle=-90)
    # the legend in a row at the foot: beside the bars it took the width the 20 node names need
    fig.update_layout(legend=dict(orientation="h", x=0.0, xanchor="left", yref="container", y=0.0, yanchor="bottom"))
    return fig


def shift_figure(shift: float = 0.0, epsilon: float = 2.0) -> go.Figure:
    """LD on D(u − s) over the Fig. 9c graph with the exact element LS: as s → s0 = TΔu + max u the law
    converges to the shifted-LD closed form (Def. 4.2.1 / spec §0.2).

    References
    ----------
    de Farias 2021, Def. 4.2.1; spec §0.2.
    """
    from .worked_examples import NODES, fig9c_element_ls, fig9c_utilities

    u = fig9c_utilities()
    sm = SensitivityMatrix(fig9c_element_ls(), 7.5)
    lg = {"LD on u − s": epsilon * dampen(u - shift, sm) / 2,
          "SLD closed form": epsilon * (u - np.sum(7.5 - sm.values, axis=1)) / (2 * 7.5),
          "EM (Δu = 7.5)": epsilon * u / (2 * 7.5)}
    rows = [{"node": NODES[i], "method": k, "probability": float(p)} for k, v in lg.items()
            for i, p in enumerate(np.exp(v - np.logaddexp.reduce(v)))]
    s0 = sm.horizon * 7.5 + u.max()
    fig = px.bar(pd.DataFrame(rows), x="node", y="probability", color="method", barmode="group", color_discrete_map=METHOD_COLOURS,
                 labels={"node": "node of the Fig. 9c graph", "probability": "P[selected]", "method": "mechanism"})
    fig.update_layout(title=_title(f"Shift s = {shift:g} of s0 = {s0:g}, ε = {epsilon:g}", "Fig. 9c graph, exact element LS"))
    return fig


@cached("dampening.teaching_median")
def _teaching_median(median_at: float, delta_kind: str, n: int = 41, lam: int = 40, seed: int = 0):
    rng = np.random.default_rng(seed)
    x = np.clip(np.rint(rng.normal(median_at * lam, lam * 0.15, n)), 0, lam)
    u = M.median_utility(x, lam)
    check_options(delta_kind, "delta_kind", MEDIAN_DELTAS)
    if delta_kind == "Δu (EM scale)":
        mat = np.full((n, 6), float(lam))
    else:
        kind = "thesis_candidates" if delta_kind.startswith("thesis") else "box"
        mat = np.column_stack([M.element_delta(x, t, lam, delta=kind) for t in range(6)])
        if delta_kind.startswith("flat"):
            # the same δ(x,t) for every element (max over r): admissible, but it forgets which elements are stable
            mat = np.broadcast_to(mat.max(axis=0), mat.shape).copy()
    return x, u, np.clip(mat, 1.0, lam), lam


def median_teaching_figure(epsilon: float = 1.0, delta_kind: str = "box (admissible)", median_at: float = 0.5,
                           mechanism: str = "LD") -> go.Figure:
    """Output law of median selection on a small synthetic sample (EM, PF, LD, SLD) with a chosen δ
    (one of :data:`MEDIAN_DELTAS`) and median position ``median_at`` ∈ (0, 1) of the range [0, Λ].

    References
    ----------
    de Farias 2021, Ch. 5 (median selection, Alg. 2 Candidates); spec §3.4 (box bound).
    """
    from dpworkbench.mechanisms import exponential_probabilities, permute_and_flip_probabilities

    x, u, mat, lam = _teaching_median(float(median_at), delta_kind)
    sm = SensitivityMatrix(mat, lam, name=delta_kind, privacy_unverified=delta_kind.startswith("thesis"))
    if mechanism == "EM":
        p = exponential_probabilities(u, epsilon=epsilon, sensitivity=lam)
    elif mechanism == "PF":
        p = permute_and_flip_probabilities(u, epsilon=epsilon, sensitivity=lam)
    elif mechanism == "LD":
        lg = epsilon * dampen(u, sm) / 2; p = np.exp(lg - np.logaddexp.reduce(lg))
    else:
        lg = epsilon * (u - np.sum(lam - sm.values, axis=1)) / (2 * lam); p = np.exp(lg - np.logaddexp.reduce(lg))
    df = pd.DataFrame({"value": x, "p": p}).groupby("value", as_index=False)["p"].sum()
    err = float(p @ -u)
    warn = " (NOT ADMISSIBLE)" if delta_kind.startswith("thesis") else ""
    fig = px.bar(df, x="value", y="p", labels={"value": "selected element's value (0..Λ)", "p": "P[selected]"})
    fig.update_traces(marker_color=METHOD_COLOURS[mechanism])
    fig.update_layout(title=_title(f"{mechanism}: E|error| = {err:.2f}", f"δ = {delta_kind}{warn}, Λ = {lam}"))
    return fig


PERCENTILE_LEVELS = (0.1, 0.25, 0.5, 0.75, 0.9, 0.99)


def _teaching_percentile_sample(n: int = 41, lam: int = 40, seed: int = 0) -> np.ndarray:
    """A small right-skewed sample (incomes-like) on 0..Λ: its upper quantiles sit in a sparse tail."""
    rng = np.random.default_rng(seed)
    return np.clip(np.rint(rng.gamma(3.0, lam / 10, n)), 0, lam)


def percentile_teaching_probabilities(epsilon: float = 1.0, p: float = 0.9, *, seed: int = 0) -> pd.DataFrame:
    """Exact selection law of EM, PF, LD and SLD for the p-quantile of the teaching sample, summed per value, with
    each mechanism's exact E|error| (non-private: a teaching view of :mod:`.percentile`)."""
    x, lam = _teaching_percentile_sample(seed=seed), 40.0
    err = -Q.percentile_utility(x, lam, p)
    rows = []
    for m in Q.MECHANISMS:
        pr = np.exp(Q.selection_log_probabilities(x, lam, p, epsilon, m))
        d = pd.DataFrame({"value": x, "p": pr}).groupby("value", as_index=False)["p"].sum()
        d["mechanism"] = m
        d["expected_error"] = float(pr @ err)
        rows.append(d)
    out = pd.concat(rows, ignore_index=True)
    out.attrs["target"] = float(np.sort(x, kind="stable")[Q.quantile_rank(x.size, p) - 1])
    return out


def percentile_teaching_figure(epsilon: float = 1.0, p: float = 0.9) -> go.Figure:
    """Bars: P[selected element has this value] for the p-quantile under EM, PF, LD and SLD (exact); the dashed line
    is the true p-quantile; the legend gives each mechanism's E|error|.

    References
    ----------
    de Farias 2021, Ch. 5 generalised to rank ⌈p·n⌉ (:mod:`dpworkbench.dampening.percentile`).
    """
    df = percentile_teaching_probabilities(epsilon, p)
    target = df.attrs["target"]
    err = df.groupby("mechanism", sort=False)["expected_error"].first()
    df["mechanism"] = df["mechanism"].map(lambda m: f"{m} (E|err| {err[m]:.1f})")
    fig = px.bar(df, x="value", y="p", color="mechanism", barmode="group",
                 color_discrete_sequence=[METHOD_COLOURS[m] for m in Q.MECHANISMS],
                 labels={"value": "selected element's value (0..Λ = 40)", "p": "P[selected]"})
    fig.add_vline(x=target, line_dash="dash", line_color="black")
    fig.update_layout(title=_title(f"p = {p:g} percentile, ε = {epsilon:g}", "dashed: the true p-quantile"),
                      legend_title_text="")
    return fig


def teaching_topk(generator: str = "karate", epsilon: float = 2.0, k: int = 3, *, n: int = 300, seed: int = 0, runs: int = 300,
                  top: int = 15, max_degree_bound: int | None = None, max_degree_factor: int = 1):
    """PrivTopk (total ε, ε/k per draw): first-draw probabilities of the top nodes under EM / LD / SLD (exact)
    and each mechanism's mean top-k accuracy over ``runs`` simulated releases (seeded; teaching only).

    The public max-degree bound is ``max_degree_bound`` or, when None, ``max_degree_factor`` × the graph's max degree
    (a looser public bound: ΔEBC grows as Δ², so EM flattens; LD/SLD depend on it only through the horizon).
    ``n`` is the size of the synthetic graph. Non-private part (EBC, degrees) from the cache; moving ε only
    recomputes logits and the simulation.

    References
    ----------
    de Farias 2021, Alg. 3 (PrivTopk), Lemma 6.3.2 (ΔEBC), §6.5.
    """
    e, d, labels = _teaching_graph(generator, int(n), seed)
    k = int(min(k, len(e)))
    bound = max_degree_bound or int(max_degree_factor) * int(d.max())
    rows, acc = [], {}
    order = E.true_top_k(e, min(top, len(e)))
    for i, m in enumerate(("EM", "PF", "LD", "SLD")):
        lg = E.method_logits(e, d, k, epsilon=epsilon, method=m, max_degree_bound=bound)
        acc[m] = DM.top_k_accuracy(e, d, k, epsilon=epsilon, method=m, runs=runs, rng=np.random.default_rng([seed, i, k]),
                                  max_degree_bound=bound)
        if m == "PF":
            continue
        p = np.exp(lg - np.logaddexp.reduce(lg))
        rows += [{"node": labels[v], "ebc": e[v], "degree": int(d[v]), "method": m, "probability": float(p[v])} for v in order]
    df = pd.DataFrame(rows)
    fig = px.bar(df, x="node", y="probability", color="method", barmode="group", hover_data=["ebc", "degree"],
                 color_discrete_map=METHOD_COLOURS)
    fig.update_layout(title=_title(f"PrivTopk, first draw: ε/k = {epsilon / k:.3g}",
                                   f"{generator}, k = {k}, public Δ ≤ {bound}"),
                      xaxis_title="node (sorted by true EBC)", yaxis_title="P[selected first]", legend_title_text="mechanism")
    return fig, pd.DataFrame([{"method": m, f"mean top-{k} accuracy ({runs} runs)": a} for m, a in acc.items()])


ID3_CRITERIA = ("ig", "gini", "max")


@cached("dampening.teaching_id3")
def _teaching_id3_stats(dataset: str, rows: int, seed: int, horizon: int = 1024, criterion: str = "ig"):
    """Non-private part for the root split: contingency tables, utilities, LS^IG profiles (independent of ε)."""
    from dpworkbench import datasets

    ds = datasets.load(f"dampening/{dataset}", prefer="synthetic", seed=seed)
    Xd, y = ds.data["X"][:rows], ds.data["y"][:rows]
    cnts = [I.contingency(Xd, y, a, ds.data["domains"][a], ds.data["n_classes"]) for a in range(Xd.shape[1])]
    u = np.array([I.utility(c, criterion) for c in cnts])
    if criterion != "ig":  # Gini / Max have a small global sensitivity and no LS sequence here: EM only (as fit does)
        return u, None, None, I.CRITERION_SENSITIVITY[criterion]
    gs = I.delta_ig_global(Xd.shape[0])
    dm = I.ig_delta_matrix(cnts, gs, horizon)
    return u, dampen(u, dm), np.sum(gs - dm.values, axis=1), gs


def teaching_id3(epsilon: float = 1.0, depth: int = 2, horizon: int = 1024, criterion: str = "ig", *, dataset: str = "nltcs",
                 rows: int = 5000, seed: int = 0):
    """Root attribute choice of Global/Local/ShiftedLocalDiffPID3 with total budget B = ε and depth d.

    Each query gets B/(2(d+1)) (so deeper trees make every choice noisier). ``horizon`` is the public horizon T of δ
    (δ = ΔIG from T on): a small T makes LD/SLD fall back towards EM. ``criterion``: ``"ig"`` (information gain; EM,
    LD and SLD) or ``"gini"`` / ``"max"`` (small global sensitivity, EM only, as :func:`~dpworkbench.dampening.id3.fit`
    does). The non-private part is cached per (data, T, criterion).

    References
    ----------
    de Farias 2021, Ch. 7 (DiffPID3, budget B/(2(d+1)), Lemma 7.3.1 for ΔIG).
    """
    check_options(criterion, "criterion", ID3_CRITERIA)
    u, D, slack, gs = _teaching_id3_stats(dataset, rows, seed, int(horizon), criterion)
    e1 = epsilon / (2 * (int(depth) + 1))
    if criterion == "ig":
        lg = {"Global (EM)": e1 * u / (2 * gs), "Local (LD)": e1 * D / 2, "Shifted (SLD)": e1 * (u - slack) / (2 * gs)}
    else:
        lg = {"Global (EM)": e1 * u / (2 * gs)}
    rank = np.argsort(-u, kind="stable")
    rows_ = [{"attribute": f"A{a} (rank {r + 1})", "method": m, "probability": float(p[a])}
             for m, v in lg.items() for p in [np.exp(v - np.logaddexp.reduce(v))] for r, a in enumerate(rank)]
    df = pd.DataFrame(rows_)
    best = {m: float(np.exp(v - np.logaddexp.reduce(v))[rank[0]]) for m, v in lg.items()}
    fig = px.bar(df, x="attribute", y="probability", color="method", barmode="group", color_discrete_map=METHOD_COLOURS,
                 labels={"attribute": f"attribute (sorted by true {criterion.upper()})", "probability": "P[chosen as root split]",
                         "method": "DiffPID3 variant"})
    fig.update_layout(title=_title(f"Root split: B = {epsilon:g}, depth {depth}, ε per query {e1:.3g}",
                                   f"{dataset} stand-in, {rows} rows, T = {int(horizon)}, {criterion.upper()}"
                                   + ("" if criterion == "ig" else " (EM only)")))
    return fig, pd.DataFrame([{"method": m, "P[best attribute]": p} for m, p in best.items()])


def privacy_loss_check(epsilon: float = 1.0, delta_kind: str = "box (admissible)", *, values: Sequence[float] = (0, 2, 3, 4, 6),
                       lam: int = 6, horizon: int = 8) -> pd.DataFrame:
    """Exact privacy loss of median selection on a tiny universe: for the row values ``values`` in [0, Λ] and every
    neighbour (one row's value replaced by another value of 0..Λ), the largest |log P[x → i] / P[y → i]| over the
    released row positions i, per mechanism, next to ε. A mechanism is ε-DP on this universe iff its loss ≤ ε.

    The default values are the spec's counterexample to the admissibility of the thesis' Candidates (spec §3.4). An
    admissible δ guarantees loss ≤ ε on every universe; a non-admissible one ("thesis candidates") guarantees
    nothing, even where this small universe shows no violation (it does not at the default values).

    References
    ----------
    de Farias 2021, Def. 3.4.1 / Thm 3.5.1 (LD is ε-DP for an admissible δ), Ch. 5; spec §3.4.
    """
    from dpworkbench.mechanisms import exponential_probabilities, permute_and_flip_probabilities

    check_options(delta_kind, "delta_kind", MEDIAN_DELTAS)
    x0 = np.asarray(values, float)
    kind = "thesis_candidates" if delta_kind.startswith("thesis") else "box"

    def laws(x: np.ndarray) -> dict[str, np.ndarray]:
        u = M.median_utility(x, float(lam))
        if delta_kind == "Δu (EM scale)":
            mat = np.full((x.size, horizon), float(lam))
        else:
            mat = M.median_sensitivity(float(lam), delta=kind).with_floor(1.0).with_horizon(horizon).matrix(x).values
            if delta_kind.startswith("flat"):
                mat = np.broadcast_to(mat.max(axis=0), mat.shape).copy()
        sm = SensitivityMatrix(mat, float(lam))
        ld = epsilon * dampen(u, sm) / 2
        sld = epsilon * (u - np.sum(lam - sm.values, axis=1)) / (2 * lam)
        return {"EM": exponential_probabilities(u, epsilon=epsilon, sensitivity=lam),
                "PF": permute_and_flip_probabilities(u, epsilon=epsilon, sensitivity=lam),
                "LD": np.exp(ld - np.logaddexp.reduce(ld)), "SLD": np.exp(sld - np.logaddexp.reduce(sld))}

    base = laws(x0)
    worst = dict.fromkeys(base, 0.0)
    for i in range(x0.size):
        for v in range(lam + 1):
            if v == x0[i]:
                continue
            y = x0.copy()
            y[i] = v
            for m, p in laws(y).items():
                worst[m] = max(worst[m], float(np.max(np.abs(np.log(base[m]) - np.log(p)))))
    return pd.DataFrame([{"mechanism": m, "max privacy loss over neighbours": w, "ε": float(epsilon), "ε-DP here": w <= epsilon * (1 + 1e-9)}
                         for m, w in worst.items()])


def privacy_loss_figure(epsilon: float = 1.0, delta_kind: str = "box (admissible)") -> tuple[go.Figure, pd.DataFrame]:
    """Bars of :func:`privacy_loss_check` (largest privacy loss over the neighbours of a tiny universe, per
    mechanism) against the line at ε.

    References
    ----------
    de Farias 2021, Thm 3.5.1 (LD), Thm 4.3.1 (SLD); spec §3.4.
    """
    tab = privacy_loss_check(epsilon, delta_kind)
    fig = go.Figure(go.Bar(x=tab["mechanism"], y=tab["max privacy loss over neighbours"], name="max loss over neighbours",
                           marker_color=[METHOD_COLOURS[m] for m in tab["mechanism"]], showlegend=False))
    fig.add_hline(y=float(epsilon), line_color="black", annotation_text=f"ε = {epsilon:g}")
    fig.update_layout(title=_title("Privacy loss on a tiny universe", f"δ = {delta_kind}; ε-DP here iff the bar ≤ ε"),
                      xaxis_title="mechanism", yaxis_title="max |log P[x→i] / P[y→i]| (nats)")
    return fig, tab
