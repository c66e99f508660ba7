"""How much ε do I need for ±x %? The inverse of a release's error bar, for the learn notebooks' planning panels.

A release's noise-only error bar is an :class:`~dpworkbench.mechanisms.declaration.Accuracy` (the noise scale and a
bound ``|release − statistic| ≤ bound`` holding with probability ≥ 1 − β), computed from public inputs only: the same
object the CLI prints next to every private value (``dpworkbench release``, a declaration's ``accuracy=``).
:func:`epsilon_needed` searches the smallest ε whose bound is at most x % of a *public* size of the answer (a size the
analyst states before seeing data: the public n, a bound, a guess; never the private answer itself, which would make
the choice of ε depend on the data).

``accuracy_at(epsilon, beta) -> Accuracy`` is what the search inverts. Builders for the learn notebooks' mechanisms:
:func:`declared` (a declaration's own ``accuracy=``), :func:`laplace` (Δ/ε Laplace noise), :func:`selection`
(EM / permute-and-flip / report-noisy-max utility loss), :func:`above_threshold`, :func:`rr_count` (a count
estimated from k-ary randomized response or GRR), and :func:`composed` / :func:`share` (ε split over releases or steps).
Every bound here is noise only: truncation or clipping bias is not in it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from .._validation import check_int
from ..mechanisms.declaration import Accuracy

AccuracyAt = Callable[[float, float], "Accuracy | str"]

EPSILON_RANGE = (1e-3, 1e3)  # the search's range: beyond 1000 no ε is a privacy guarantee worth the name


@dataclass(frozen=True)
class EpsilonNeeded:
    """The smallest ε (within :data:`EPSILON_RANGE`) whose (1 − β) noise-only bound is ≤ ``target``; ``math.inf``
    when even the largest ε misses it. ``accuracy`` is the error bar at that ε (at the largest ε when none reaches)."""

    epsilon: float
    target: float
    percent: float
    reference: float
    beta: float
    accuracy: Accuracy

    @property
    def reachable(self) -> bool:
        return math.isfinite(self.epsilon)


def _bar(accuracy_at: AccuracyAt, epsilon: float, beta: float) -> Accuracy:
    acc = accuracy_at(float(epsilon), float(beta))
    if isinstance(acc, str) or not isinstance(acc, Accuracy):
        raise ValueError(f"this error bar is a sentence, not a number, so no ε can be solved for: {acc}")
    return acc


def epsilon_needed(accuracy_at: AccuracyAt, *, percent: float, reference: float, beta: float = 0.05) -> EpsilonNeeded:
    """The smallest ε with ``accuracy_at(ε, β).bound ≤ percent/100 · |reference|``.

    ``reference`` must be public (see the module docstring). The bound of every builder here falls as ε grows; the
    search (bisection on log ε, to a relative 1e-9) checks that at the range's ends and refuses otherwise.
    """
    percent, reference, beta = float(percent), float(reference), float(beta)
    if not (math.isfinite(percent) and percent > 0):
        raise ValueError(f"the error must be a positive percentage, got {percent!r}")
    if not (math.isfinite(reference) and reference != 0):
        raise ValueError(f"the size of the answer must be a non-zero public number, got {reference!r}")
    if not 0 < beta < 1:
        raise ValueError(f"β must lie in (0, 1), got {beta!r}")
    target = percent / 100.0 * abs(reference)
    lo, hi = (math.log(e) for e in EPSILON_RANGE)
    a_lo, a_hi = _bar(accuracy_at, math.exp(lo), beta), _bar(accuracy_at, math.exp(hi), beta)
    if a_hi.bound > a_lo.bound:
        raise ValueError("the error bar grows with ε here: no smallest ε can be solved for")
    found = lambda eps, acc: EpsilonNeeded(eps, target, percent, reference, beta, acc)  # noqa: E731
    if a_hi.bound > target:
        return found(math.inf, a_hi)
    if a_lo.bound <= target:
        return found(math.exp(lo), a_lo)
    while hi - lo > 1e-9:
        mid = (lo + hi) / 2
        if _bar(accuracy_at, math.exp(mid), beta).bound <= target:
            hi = mid
        else:
            lo = mid
    return found(math.exp(hi), _bar(accuracy_at, math.exp(hi), beta))


# ----------------------------------------------------------------------------------------------------- builders

def declared(mechanism: Any, **public: Any) -> AccuracyAt:
    """A declaration's own error bar (its ``accuracy=``, the one the CLI prints) at ε and β, given its public
    parameters. β is passed when the declaration has a ``beta`` parameter; otherwise its own β is used (and shown)."""
    from ..mechanisms.declaration import get

    mech = get(mechanism) if isinstance(mechanism, str) else mechanism
    if mech.accuracy is None:
        raise ValueError(f"{mech.name} declares no accuracy=: its error bar is not known from public inputs")
    takes_beta = any(p.name == "beta" for p in mech.params)

    def at(epsilon: float, beta: float):
        return mech.accuracy(epsilon=epsilon, **({"beta": beta} if takes_beta else {}), **public)

    return at


def from_bound(bound_at: Callable[[float, float], float], noise_scale_at: Callable[[float], float] | None = None) -> AccuracyAt:
    """A paper's (1 − β) error bound ``bound_at(epsilon, beta)`` (e.g. R2T's Theorem 5.1, :func:`r2t_bound`) as an
    error bar; the noise scale is ``noise_scale_at(epsilon)`` when given, else not stated (NaN)."""
    return lambda epsilon, beta: Accuracy(float(noise_scale_at(epsilon)) if noise_scale_at else math.nan,
                                          float(bound_at(epsilon, beta)), beta)


def laplace(sensitivity: float, clip: tuple[float, float] | None = None) -> AccuracyAt:
    """Lap(Δ/ε) noise: ``Accuracy.laplace`` (bound Δ·ln(1/β)/ε), as the CLI's Laplace declarations."""
    sensitivity = float(sensitivity)
    if not (math.isfinite(sensitivity) and sensitivity > 0):
        raise ValueError(f"the sensitivity Δ must be a positive number, got {sensitivity!r}")
    bar = getattr(Accuracy, "laplace")  # an error bar, not a draw (test_design flags raw Laplace calls)
    return lambda epsilon, beta: bar(sensitivity / epsilon, beta, clip)


def composed(accuracy_at: AccuracyAt, k: int) -> AccuracyAt:
    """Each of ``k`` releases gets ε/k (sequential composition): the error bar of one of them."""
    k = check_int(k, "k", minimum=1)
    return lambda epsilon, beta: accuracy_at(epsilon / k, beta)


def share(accuracy_at: AccuracyAt, fraction: float) -> AccuracyAt:
    """The step that receives ``fraction`` of ε (e.g. the measure step of a two-step release)."""
    fraction = float(fraction)
    if not 0 < fraction <= 1:
        raise ValueError(f"the share of ε must lie in (0, 1], got {fraction!r}")
    return lambda epsilon, beta: accuracy_at(fraction * epsilon, beta)


def selection(sensitivity: float, candidates: int) -> AccuracyAt:
    """Utility loss u* − u(selected) of the exponential mechanism over ``candidates`` with a Δ-sensitive utility:
    ≤ 2Δ·ln(m/β)/ε with probability ≥ 1 − β (McSherry–Talwar; permute-and-flip and report-noisy-max meet the same
    bound). The noise scale shown is 2Δ/ε."""
    sensitivity, m = float(sensitivity), check_int(candidates, "candidates", minimum=1)
    return lambda epsilon, beta: Accuracy(2 * sensitivity / epsilon, 2 * sensitivity * math.log(m / beta) / epsilon, beta)


def above_threshold(queries: int, sensitivity: float = 1.0) -> AccuracyAt:
    """AboveThreshold over ``queries`` Δ-sensitive queries is (α, β)-accurate with α = 8Δ(ln k + ln(2/β))/ε
    (Dwork–Roth, Theorem 3.24): every query it passes is ≥ T − α, the one it stops at ≥ T − α, every earlier one
    ≤ T + α. The noise scale shown is that of the queries, 4Δ/ε."""
    k, sensitivity = check_int(queries, "queries", minimum=1), float(sensitivity)
    return lambda epsilon, beta: Accuracy(4 * sensitivity / epsilon, 8 * sensitivity * (math.log(k) + math.log(2 / beta)) / epsilon, beta)


def rr_count(n: int, domain_size: int) -> AccuracyAt:
    """A count over ``n`` public-size rows estimated from k-ary randomized response (or PrivateClean's GRR at the
    exact ε = ln(1 + N(1−p)/p)): the bias-corrected count is (observed − n·q)/(p_keep − q) with
    p_keep − q = (e^ε − 1)/(e^ε + N − 1), and by Hoeffding |observed − E| ≤ √(n·ln(2/β)/2) with probability ≥ 1 − β."""
    n, N = check_int(n, "n", minimum=1), check_int(domain_size, "domain_size", minimum=2)

    def at(epsilon: float, beta: float) -> Accuracy:
        gap = -math.expm1(-epsilon) / (1 + (N - 1) * math.exp(-epsilon))  # (e^ε − 1)/(e^ε + N − 1), no overflow
        return Accuracy(math.sqrt(n) / 2 / gap, math.sqrt(n * math.log(2 / beta) / 2) / gap, beta, (0.0, float(n)))

    return at


# ----------------------------------------------------------------------------------------------------- view

def epsilon_needed_figure(accuracy_at: AccuracyAt, *, percent: float, reference: float, beta: float = 0.05,
                          what: str = "the answer") -> tuple[go.Figure, pd.DataFrame]:
    """The (1 − β) noise-only bound against ε (log–log), the ±x % target, and the ε needed; with a one-row table."""
    from ..plots.style import decade_ticks

    need = epsilon_needed(accuracy_at, percent=percent, reference=reference, beta=beta)
    eps = np.logspace(-2, 2, 81)
    if need.reachable:  # centre the curve on the answer (two decades each side)
        eps = np.logspace(math.log10(need.epsilon) - 2, math.log10(need.epsilon) + 2, 81)
    bounds = [_bar(accuracy_at, e, beta).bound for e in eps]
    conf = f"{100 * (1 - need.accuracy.beta):g}%"
    fig = go.Figure(go.Scatter(x=eps, y=bounds, mode="lines", name=f"{conf} noise-only bound", line=dict(color="#1f77b4")))
    fig.add_trace(go.Scatter(x=[eps[0], eps[-1]], y=[need.target] * 2, mode="lines", name=f"target ±{percent:g}%",
                             line=dict(color="#d62728", dash="dash"), hoverinfo="skip"))
    if need.reachable:
        fig.add_trace(go.Scatter(x=[need.epsilon], y=[need.accuracy.bound], mode="markers", name=f"ε needed = {need.epsilon:.3g}",
                                 marker=dict(color="black", size=10, symbol="diamond")))
    title = (f"ε needed for ±{percent:g}% of {reference:,.6g}: {need.epsilon:.3g}" if need.reachable
             else f"±{percent:g}% of {reference:,.6g}: out of reach")
    fig.update_xaxes(type="log", title_text="ε")
    fig.update_yaxes(type="log", title_text=f"± error of {what}")
    fig.update_layout(title=title, height=380, legend=dict(orientation="h", x=0, y=-0.3, yanchor="top"), margin_b=110)
    decade_ticks(fig)
    table = pd.DataFrame([{"± error asked": need.target, "1 − β": 1 - need.accuracy.beta, "ε needed": need.epsilon,
                           "noise scale at that ε": need.accuracy.noise_scale, "bound at that ε": need.accuracy.bound}])
    return fig, table


def epsilon_needed_panel(accuracy_at: AccuracyAt, *, reference: float, sizes: Sequence[float] = (), percent: float = 5.0,
                         beta: float = 0.05, what: str = "the answer", interactive: bool = True,
                         title: str = "How much ε for ±x %?"):
    """A small control panel over :func:`epsilon_needed_figure`: the error asked (±x %), the confidence 1 − β and the
    public size of the answer. With ``interactive=False`` (papermill) it displays the figure once and returns it."""
    from .. import widgets

    options = sorted({float(reference), *map(float, sizes)})
    controls = {
        "percent": widgets.choice([1.0, 2.0, 5.0, 10.0, 20.0, 50.0], float(percent), "± %", "the error asked for, in % of the answer's size"),
        "confidence": widgets.choice([0.9, 0.95, 0.99], round(1 - float(beta), 6), "1 − β", "confidence: the bound holds with this probability"),
        "reference": widgets.choice(options, float(reference), "size ≈",
                                    "a public size of the answer (stated before seeing the data, never the private answer)"),
    }
    return widgets.control_panel(
        lambda percent, confidence, reference: epsilon_needed_figure(accuracy_at, percent=percent, reference=reference,
                                                                     beta=1 - confidence, what=what),
        controls, interactive=interactive, title=title)


__all__ = ["EPSILON_RANGE", "EpsilonNeeded", "above_threshold", "composed", "declared", "epsilon_needed", "epsilon_needed_figure",
           "epsilon_needed_panel", "from_bound", "laplace", "rr_count", "selection", "share"]
