"""Experiments and figures behind the mechanism teaching notebooks (``notebooks/mechanisms/learn_*``).

Each function is plain and seeded: the notebooks (and their widgets) only call
these. Seeded noise here is for teaching and reproducibility, not a release.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .._validation import check_epsilon, check_finite_array, check_int
from ..accounting import Accountant
from ..experiments.metrics import absolute_error, relative_error, signed_error
from ..mechanisms import core
from ..mechanisms.backends import NumpyBackend, as_generator
from ..plots.style import decade_ticks


# ---------------------------------------------------------------------------------
# Laplace and composition
# ---------------------------------------------------------------------------------
def laplace_releases(true_value: float, *, epsilon: float, sensitivity: float, n: int, seed: int = 0) -> np.ndarray:
    """n independent releases of true_value + Lap(Δ/ε) (no accountant: a what-if distribution)."""
    n = check_int(n, "n", minimum=1)
    # n independent copies of one release: the vector call draws iid Lap(Δ/ε) per entry.
    return core.laplace_mechanism(np.full(n, float(true_value)), epsilon=epsilon, sensitivity=sensitivity, rng=as_generator(seed=seed))


def laplace_figure(true_value: float, neighbour_value: float, *, epsilon: float, sensitivity: float = 1.0, n: int = 20000, seed: int = 0) -> go.Figure:
    """Histograms of the Laplace mechanism on two neighbouring datasets, with densities and the ε bound."""
    a = laplace_releases(true_value, epsilon=epsilon, sensitivity=sensitivity, n=n, seed=seed)
    b = laplace_releases(neighbour_value, epsilon=epsilon, sensitivity=sensitivity, n=n, seed=seed + 1)
    scale = sensitivity / epsilon
    xs = np.linspace(min(true_value, neighbour_value) - 6 * scale, max(true_value, neighbour_value) + 6 * scale, 400)
    dens = lambda mu: np.exp(-np.abs(xs - mu) / scale) / (2 * scale)  # noqa: E731
    fig = make_subplots(rows=1, cols=2, subplot_titles=("outputs on two neighbours", "privacy loss (dashed: ±ε)"))
    fig.add_trace(go.Histogram(x=a, histnorm="probability density", name=f"f(x)={true_value:g}", opacity=0.5, nbinsx=80), 1, 1)
    fig.add_trace(go.Histogram(x=b, histnorm="probability density", name=f"f(x')={neighbour_value:g}", opacity=0.5, nbinsx=80), 1, 1)
    fig.add_trace(go.Scatter(x=xs, y=dens(true_value), name="density x", line=dict(color="#1f77b4")), 1, 1)
    fig.add_trace(go.Scatter(x=xs, y=dens(neighbour_value), name="density x'", line=dict(color="#d62728")), 1, 1)
    ratio = np.log(dens(true_value)) - np.log(dens(neighbour_value))
    fig.add_trace(go.Scatter(x=xs, y=ratio, name="ln f_x/f_x'", line=dict(color="black")), 1, 2)
    for s in (+1, -1):
        fig.add_hline(y=s * epsilon, line_dash="dash", line_color="gray", row=1, col=2)
    fig.update_xaxes(title_text="released value")
    fig.update_yaxes(title_text="density", row=1, col=1)
    fig.update_yaxes(title_text="ln f(x) / f(x′)", row=1, col=2)
    fig.update_layout(barmode="overlay", title=f"Laplace mechanism, ε={epsilon:.3g}, Δ={sensitivity:.3g}, scale Δ/ε={scale:.3g}")
    return fig


def composition_experiment(
    true_values: Sequence[float], *, total_epsilon: float, sensitivity: float = 1.0, repetitions: int = 200, seed: int = 0
) -> tuple[pd.DataFrame, Accountant]:
    """Answer k counting queries with ε/k each (sequential composition) and measure the error.

    Returns per-query errors for every repetition and the ledger of one repetition.
    """
    vals = check_finite_array(true_values, "true_values")
    total_epsilon = check_epsilon(total_epsilon, "total_epsilon")
    rng = as_generator(seed=seed)
    k = vals.size
    rows = []
    ledger = Accountant(total_epsilon)
    for rep in range(check_int(repetitions, "repetitions", minimum=1)):
        acc = ledger if rep == 0 else Accountant(total_epsilon)
        for i, v in enumerate(vals):
            noisy = core.laplace_mechanism(v, epsilon=total_epsilon / k, sensitivity=sensitivity, rng=rng, accountant=acc, note=f"query {i}")
            rows.append({"repetition": rep, "query": i, "k": k, "true_value": v, "private_value": noisy,
                         "abs_error": float(absolute_error(noisy, v))})
    return pd.DataFrame(rows), ledger


def composition_error_curve(ks: Sequence[int], *, total_epsilon: float, sensitivity: float = 1.0) -> pd.DataFrame:
    """Expected absolute error per query when a budget is split evenly over k queries: k·Δ/ε."""
    total_epsilon = check_epsilon(total_epsilon, "total_epsilon")
    ks = np.asarray([check_int(k, "k", minimum=1) for k in ks])
    return pd.DataFrame({"k": ks, "expected_abs_error": ks * sensitivity / total_epsilon, "total_epsilon": total_epsilon})


# ---------------------------------------------------------------------------------
# selection: EM vs PF vs RNM
# ---------------------------------------------------------------------------------
def selection_probabilities(utilities: Sequence[float], *, epsilon: float, sensitivity: float = 1.0) -> pd.DataFrame:
    """Exact output laws of EM and PF (and an RNM Monte-Carlo estimate) per candidate."""
    u = check_finite_array(utilities, "utilities")
    em = core.exponential_probabilities(u, epsilon=epsilon, sensitivity=sensitivity)
    pf = core.permute_and_flip_probabilities(u, epsilon=epsilon, sensitivity=sensitivity)
    n = 20000
    # research noise through the back-end (seeded: a teaching estimate, not a release)
    noisy = NumpyBackend(12345).add_laplace(np.broadcast_to(u, (n, u.size)), 2 * sensitivity / epsilon)
    rnm = np.bincount(noisy.argmax(1), minlength=u.size) / n
    rows = []
    for name, p in (("exponential", em), ("permute-and-flip", pf), ("report-noisy-max", rnm)):
        rows += [{"mechanism": name, "candidate": i, "utility": u[i], "probability": p[i]} for i in range(u.size)]
    return pd.DataFrame(rows)


def selection_accuracy(
    utilities: Sequence[float],
    epsilons: Sequence[float],
    *,
    sensitivity: float = 1.0,
    repetitions: int = 500,
    seed: int = 0,
) -> pd.DataFrame:
    """Expected utility loss u* − u(selected) per mechanism and ε.

    EM and PF use their exact output laws; RNM is Monte-Carlo with ``repetitions``
    draws (its law has no closed form), reported with its standard error.
    """
    u = check_finite_array(utilities, "utilities")
    rng = as_generator(seed=seed)
    best = u.max()
    rows = []
    for eps in epsilons:
        eps = check_epsilon(eps)
        em = core.exponential_probabilities(u, epsilon=eps, sensitivity=sensitivity)
        pf = core.permute_and_flip_probabilities(u, epsilon=eps, sensitivity=sensitivity)
        rows.append({"mechanism": "exponential", "epsilon": eps, "expected_loss": float(em @ (best - u)), "se": 0.0, "p_best": float(em[u == best].sum())})
        rows.append({"mechanism": "permute-and-flip", "epsilon": eps, "expected_loss": float(pf @ (best - u)), "se": 0.0, "p_best": float(pf[u == best].sum())})
        picks = np.array([core.report_noisy_max(u, epsilon=eps, sensitivity=sensitivity, rng=rng) for _ in range(repetitions)])
        loss = best - u[picks]
        rows.append({"mechanism": "report-noisy-max", "epsilon": eps, "expected_loss": float(loss.mean()), "se": float(loss.std(ddof=1) / np.sqrt(repetitions)), "p_best": float(np.mean(u[picks] == best))})
    return pd.DataFrame(rows)


def selection_figure(acc: pd.DataFrame) -> go.Figure:
    fig = go.Figure()
    for i, (name, sub) in enumerate(acc.groupby("mechanism", sort=False)):
        sub = sub.sort_values("epsilon")
        fig.add_trace(go.Scatter(x=sub["epsilon"], y=sub["expected_loss"], name=name, mode="lines+markers",
                                 error_y=dict(type="data", array=1.96 * sub["se"], visible=bool(sub["se"].any()))))
    fig.update_xaxes(type="log", title="ε")
    fig.update_yaxes(title="expected utility loss u* − u(r)")
    fig.update_layout(title="Selection accuracy: EM, permute-and-flip, report-noisy-max")
    # plotly labels 2…9 between the decades as large as the decades: unreadable on a projector
    return decade_ticks(fig)


# ---------------------------------------------------------------------------------
# randomized response
# ---------------------------------------------------------------------------------
def zipf_population(n: int, domain_size: int, skew: float = 1.0, seed: int = 0) -> tuple[np.ndarray, list[str]]:
    """n categorical values from a Zipf(skew) law over ``domain_size`` labels."""
    n = check_int(n, "n", minimum=1)
    k = check_int(domain_size, "domain_size", minimum=2)
    rng = as_generator(seed=seed)
    w = 1.0 / np.arange(1, k + 1) ** skew
    labels = [f"v{i}" for i in range(k)]
    return np.asarray(labels, dtype=object)[rng.choice(k, size=n, p=w / w.sum())], labels


def rr_estimation_experiment(
    n: int, domain_size: int, epsilons: Sequence[float], *, skew: float = 1.0, repetitions: int = 50, seed: int = 0
) -> pd.DataFrame:
    """Frequency estimation from k-ary RR: naive (biased) vs bias-corrected, per ε."""
    values, labels = zipf_population(n, domain_size, skew, seed)
    truth = pd.Series(values).value_counts().reindex(labels, fill_value=0).to_numpy(float)
    rng = as_generator(seed=seed + 1)
    rows = []
    for eps in epsilons:
        q = core.randomized_response_keep_probability(eps, len(labels))
        for rep in range(repetitions):
            rep_vals = core.randomized_response(values, labels, epsilon=eps, rng=rng)
            naive = pd.Series(rep_vals).value_counts().reindex(labels, fill_value=0).to_numpy(float)
            corrected = core.rr_frequency_estimate(rep_vals, labels, keep_probability=q)
            for est_name, est in (("naive", naive), ("bias-corrected", corrected)):
                rows.append({
                    "epsilon": eps, "repetition": rep, "estimator": est_name,
                    # the L1 error of the counts over n = ‖truth‖₁ (est is one repetition); the top share's bias
                    "l1_error": float(relative_error([est], truth)[0]),
                    "top_value_error": float(signed_error(est[0], truth[0]) / n),
                })
    return pd.DataFrame(rows)


def grr_epsilon_table(ps: Sequence[float], domain_sizes: Sequence[int]) -> pd.DataFrame:
    """Exact GRR ε = ln(1+N(1−p)/p) next to PrivateClean's printed ln(3/p − 2)."""
    rows = []
    for p in ps:
        for n in domain_sizes:
            rows.append({"p": p, "N": n, "epsilon_exact": core.grr_epsilon(p, n), "epsilon_paper_lemma1": float(np.log(3 / p - 2))})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------
# sparse vector
# ---------------------------------------------------------------------------------
def svt_experiment(queries: Sequence[float], threshold: float, epsilons: Sequence[float], *, repetitions: int = 500, seed: int = 0) -> pd.DataFrame:
    """Distribution of the index AboveThreshold returns, per ε (sensitivity-1 queries)."""
    q = check_finite_array(queries, "queries")
    rng = as_generator(seed=seed)
    rows = []
    for eps in epsilons:
        counts = np.zeros(q.size + 1)
        for _ in range(repetitions):
            i = core.above_threshold(q, threshold, epsilon=eps, rng=rng)
            counts[q.size if i is None else i] += 1
        for i in range(q.size + 1):
            rows.append({"epsilon": eps, "index": i if i < q.size else "none", "query_value": q[i] if i < q.size else np.nan, "frequency": counts[i] / repetitions})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------
# figure builders bound to widgets
# ---------------------------------------------------------------------------------
def selection_probability_figure(utilities: Sequence[float], *, epsilon: float) -> go.Figure:
    from ..plots import bar

    return bar(selection_probabilities(utilities, epsilon=epsilon), "candidate", "probability", color="mechanism",
               title=f"Selection probabilities, ε={epsilon:.3g}")


def rr_bias_figure(n: int, domain_size: int, *, epsilon: float, skew: float, repetitions: int, seed: int = 0) -> go.Figure:
    from ..experiments.summary import summarize
    from ..plots import bar

    res = rr_estimation_experiment(n, int(domain_size), [epsilon], skew=skew, repetitions=repetitions, seed=seed)
    # short title: the long form ("Bias of the most frequent value's share …") ran past a 700 px figure's edge
    fig = bar(summarize(res, ["estimator"], "top_value_error"), "estimator", "mean",
              title=f"Bias of the top value's share, ε={epsilon:.3g}, N={int(domain_size)}")
    fig.update_yaxes(title_text="estimated − true share")
    return fig


def svt_figure(queries: Sequence[float], threshold: float, *, epsilon: float, repetitions: int, seed: int = 0) -> go.Figure:
    from ..plots import bar

    res = svt_experiment(queries, threshold, [epsilon], repetitions=repetitions, seed=seed)
    # A numeric x axis ("none" drawn one step past the last query): as categories, plotly silently skipped
    # every other index label once there were more than ~16 queries.
    k = len(res) - 1
    pos = res["index"].where(res["index"] != "none", k).astype(int)
    fig = bar(res.assign(position=pos), "position", "frequency", title=f"Index returned by AboveThreshold, ε={epsilon:.3g}, T={threshold:g}")
    step = max(1, int(np.ceil(k / 10)))
    ticks = [i for i in range(0, k, step) if k - i >= step / 2] + [k]
    fig.update_xaxes(title_text="index returned", tickvals=ticks, ticktext=[str(i) if i < k else "none" for i in ticks])
    return fig


def svt_localisation_error(res: pd.DataFrame, queries: Sequence[float], threshold: float) -> pd.DataFrame:
    """Mean |returned index − first index above T| per ε (ignoring 'none')."""
    q = np.asarray(queries, dtype=float)
    first = int(np.argmax(q > threshold))
    rows = []
    for eps, d in res.groupby("epsilon"):
        d = d[d["index"] != "none"]
        dist = absolute_error(d["index"].astype(int), first)
        w = d["frequency"].to_numpy()
        rows.append({"epsilon": eps, "mean": float((w * dist).sum() / w.sum()) if w.sum() else np.nan})
    return pd.DataFrame(rows)
