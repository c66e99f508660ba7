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

from dpworkbench.cache import cached

from . import ebc as E
from . import id3 as I
from . import median as M
from .figures import dampening_figure
from .model import SensitivityMatrix, dampen


TEACHING_DELTA_ROW = (1.0, 2.0, 4.0, 7.0)


def teaching_dampening_figure(t: int, global_sensitivity: float, *, delta_row: Sequence[float] = TEACHING_DELTA_ROW) -> go.Figure:
    """The dampening-function panel of the teaching notebook: ``dampening_figure`` on the first ``t + 1``
    entries of ``delta_row`` (at least 1, at most all), with the breakpoint b(x, t, r) marked."""
    t = int(t)
    if t < 0:
        raise ValueError(f"t must be a non-negative distance, got {t}")
    row = list(delta_row)[: max(1, min(len(delta_row), t + 1))]
    return dampening_figure(row, global_sensitivity, t_mark=t)


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
    """Output law of one PrivTopk draw (k=1) under EM, PF, LD and SLD; ε-only recomputation."""
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
    df = teaching_probabilities(generator, epsilon, **kw)
    fig = px.bar(df, x="node", y="probability", color="method", barmode="group",
                 title=f"P[selected] for the top nodes by EBC, ε = {epsilon:.3g} ({generator})", hover_data=["ebc", "degree"])
    return fig


def shift_figure(shift: float = 0.0, epsilon: float = 2.0) -> go.Figure:
    """LD on D(u − s) over the Fig. 9c graph with the exact element LS: as s → s0 = TΔu + max u the law
    converges to the shifted-LD closed form (Def. 4.2.1 / spec §0.2)."""
    from .worked_examples import NODES, fig9c_element_ls, fig9c_utilities

    u = fig9c_utilities()
    sm = SensitivityMatrix(fig9c_element_ls(), 7.5)
    lg = {"LD on u − s": epsilon * dampen(u - shift, sm) / 2,
          "SLD closed form": epsilon * (u - np.sum(7.5 - sm.values, axis=1)) / (2 * 7.5),
          "EM (Δu = 7.5)": epsilon * u / (2 * 7.5)}
    rows = [{"node": NODES[i], "method": k, "probability": float(p)} for k, v in lg.items()
            for i, p in enumerate(np.exp(v - np.logaddexp.reduce(v)))]
    s0 = sm.horizon * 7.5 + u.max()
    return px.bar(pd.DataFrame(rows), x="node", y="probability", color="method", barmode="group",
                  title=f"Shift s = {shift:g} (s0 = {s0:g}), ε = {epsilon:g}, Fig. 9c graph, exact element LS")


@cached("dampening.teaching_median")
def _teaching_median(median_at: float, delta_kind: str, n: int = 41, lam: int = 40, seed: int = 0):
    rng = np.random.default_rng(seed)
    x = np.clip(np.rint(rng.normal(median_at * lam, lam * 0.15, n)), 0, lam)
    u = M.median_utility(x, lam)
    if delta_kind == "Δu (EM scale)":
        mat = np.full((n, 6), float(lam))
    else:
        kind = "thesis_candidates" if delta_kind.startswith("thesis") else "box"
        mat = np.column_stack([M.element_delta(x, t, lam, delta=kind) for t in range(6)])
    return x, u, np.clip(mat, 1.0, lam), lam


def median_teaching_figure(epsilon: float = 1.0, delta_kind: str = "box (admissible)", median_at: float = 0.5,
                           mechanism: str = "LD") -> go.Figure:
    """Output law of median selection on a small synthetic sample (EM, PF, LD, SLD) with a chosen δ."""
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
    warn = " — NOT ADMISSIBLE (privacy unverified)" if delta_kind.startswith("thesis") else ""
    return px.bar(df, x="value", y="p", title=f"{mechanism}, δ = {delta_kind}{warn}: E|error| = {err:.2f} (Λ = {lam})",
                  labels={"value": "selected element's value", "p": "probability"})


def teaching_topk(generator: str = "karate", epsilon: float = 2.0, k: int = 3, *, n: int = 300, seed: int = 0, runs: int = 300,
                  top: int = 15, max_degree_bound: int | None = None):
    """PrivTopk (total ε, ε/k per draw): first-draw probabilities of the top nodes under EM / LD / SLD (exact)
    and each mechanism's mean top-k accuracy over ``runs`` simulated releases (seeded; teaching only).

    Non-private part (EBC, degrees) from the cache; moving ε only recomputes logits and the simulation."""
    e, d, labels = _teaching_graph(generator, n, seed)
    k = int(min(k, len(e)))
    bound = max_degree_bound or int(d.max())
    rows, acc = [], {}
    order = E.true_top_k(e, min(top, len(e)))
    for i, m in enumerate(("EM", "PF", "LD", "SLD")):
        lg = E.method_logits(e, d, k, epsilon=epsilon, method=m, max_degree_bound=bound)
        acc[m] = E.top_k_accuracy(e, d, k, epsilon=epsilon, method=m, runs=runs, rng=np.random.default_rng([seed, i, k]),
                                  max_degree_bound=bound)
        if m == "PF":
            continue
        p = np.exp(lg - np.logaddexp.reduce(lg))
        rows += [{"node": labels[v], "ebc": e[v], "degree": int(d[v]), "method": m, "probability": float(p[v])} for v in order]
    df = pd.DataFrame(rows)
    fig = px.bar(df, x="node", y="probability", color="method", barmode="group", hover_data=["ebc", "degree"],
                 title=f"PrivTopk first draw (ε/k = {epsilon / k:.3g}) on {generator}; top-{k} accuracy: "
                       + ", ".join(f"{m} {a:.2f}" for m, a in acc.items()))
    fig.update_layout(xaxis_title="node (sorted by true EBC)", yaxis_title="P[selected first]")
    return fig, pd.DataFrame([{"method": m, f"mean top-{k} accuracy ({runs} runs)": a} for m, a in acc.items()])


@cached("dampening.teaching_id3")
def _teaching_id3_stats(dataset: str, rows: int, seed: int, horizon: int = 1024):
    """Non-private part for the root split: contingency tables, u_IG, LS^IG profiles (independent of ε)."""
    from dpworkbench import datasets

    ds = datasets.load(f"dampening/{dataset}", prefer="synthetic", seed=seed)
    Xd, y = ds.data["X"][:rows], ds.data["y"][:rows]
    gs = I.delta_ig_global(Xd.shape[0])
    cnts = [I.contingency(Xd, y, a, ds.data["domains"][a], ds.data["n_classes"]) for a in range(Xd.shape[1])]
    u = np.array([I.utility(c) for c in cnts])
    dm = I.ig_delta_matrix(cnts, gs, horizon)
    D = dampen(u, dm)
    slack = np.sum(gs - dm.values, axis=1)
    return u, D, slack, gs


def teaching_id3(epsilon: float = 1.0, depth: int = 2, horizon: int = 1024, *, dataset: str = "nltcs", rows: int = 5000, seed: int = 0):
    """Root attribute choice of Global/Local/ShiftedLocalDiffPID3 with total budget B = ε and depth d:
    each query gets B/(2(d+1)) (so deeper trees make every choice noisier). ``horizon`` is the public horizon T of δ
    (δ = ΔIG from T on): a small T makes LD/SLD fall back towards EM. The non-private part is cached per (data, T)."""
    u, D, slack, gs = _teaching_id3_stats(dataset, rows, seed, int(horizon))
    e1 = epsilon / (2 * (int(depth) + 1))
    lg = {"Global (EM)": e1 * u / (2 * gs), "Local (LD)": e1 * D / 2, "Shifted (SLD)": e1 * (u - slack) / (2 * gs)}
    rank = np.argsort(-u, kind="stable")
    rows_ = [{"attribute": f"A{a} (IG rank {r + 1})", "method": m, "probability": float(p[a])}
             for m, v in lg.items() for p in [np.exp(v - np.logaddexp.reduce(v))] for r, a in enumerate(rank)]
    df = pd.DataFrame(rows_)
    best = {m: float(np.exp(v - np.logaddexp.reduce(v))[rank[0]]) for m, v in lg.items()}
    fig = px.bar(df, x="attribute", y="probability", color="method", barmode="group",
                 title=f"Root split on {dataset} (synthetic stand-in, {rows} rows): B = {epsilon:g}, depth {depth} ⇒ ε per query = {e1:.3g}, T = {int(horizon)}")
    return fig, pd.DataFrame([{"method": m, "P[best attribute]": p} for m, p in best.items()])
