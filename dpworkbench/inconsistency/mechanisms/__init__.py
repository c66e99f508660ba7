"""Everything in the inconsistency paper that spends ε, declared once (:mod:`dpworkbench.mechanisms.declaration`):
the private size bound, the noisy FD degree bound (Lemma 3/Thm 3), one exponential-mechanism θ draw (Alg. 3), Alg. 2
(graph projection) for I_MI and I_P with every θ strategy, and Alg. 5 (DP vertex cover). Each declaration's plan is
recorded by the framework before any draw; the compound Alg. 2 is the composition of the declared steps (its plan
is theirs, its noise calls theirs). The public functions (:func:`graph_projection`, :func:`dp_vertex_cover`,
:func:`release_measures`, …) check their arguments, compute the non-private statistics (in memory, or on Spark
through :class:`~.spark_engine.StreamedProjector`) and call the declaration.

Each run returns a :class:`~dpworkbench.accounting.Release`: the private output with the private θ*, θ₁ and noisy
bound as details, the ledger (the plan is ``DECL.plan(...)``, also :func:`graph_projection_cost` /
:func:`dp_vertex_cover_cost`), the public inputs, and — NOT PRIVATE — the true and truncated values and seconds
(no errors: the experiments measure them, :func:`~dpworkbench.inconsistency.experiments.run_record`).
``release["output"]`` etc. read it like a run record.

Neighbouring relation: add/remove one tuple at any row position. Nothing depends on the true number of tuples:
a public ``n_bound`` sets Θ, the θ = |V| candidate and the clip; without one, ``N_FRAC`` = 5 % of ε buys a private
upper bound first (the splits below then apply to the remaining 95 %). Strategies (spec §2.9, total ε):

=================  ============================================  =====================================
strategy           θ choice                                      split
=================  ============================================  =====================================
``baseline_V``     θ = |V| (Laplace with global sensitivity n)   Laplace ε
``baseline_dmax``  θ = d_max(G) — NON-PRIVATE reference          Laplace ε
``em``             Alg. 3 over Θ                                 EM 0.4ε, Laplace 0.6ε
``hier_em``        Alg. 4 without lines 1–5                      EM 0.2ε + 0.2ε, Laplace 0.6ε
``bound_hier``     full Alg. 4 ("our approach")                  bound 0.1ε, EM 0.15ε + 0.15ε, Lap 0.6ε
=================  ============================================  =====================================

Labelled paper options (NOT ε-DP at the stated ε; their releases say ``private=False``): ``artifact_compat=True``
(the reference code: the Laplace step and the √2θ/ε term use the full ε while selection spends another 0.4ε, total
1.4ε), ``strategy="baseline_dmax"`` (θ read off the data), ``ip_sensitivity="paper"`` (declared separately,
:data:`I_P_PAPER`: the paper's Lemmas 1–2 for I_P are wrong; "safe" uses Δq = 2·θ_max and Laplace scale (θ+1)/ε₂)
and Alg. 5's printed ``noise="typo"`` Lap(ε/2) (:data:`VERTEX_COVER_TYPO`).

Single-tuple (unary) DCs (``build(..., unary_policy="separate")``): the released value is |U| + f(π_θ(G[V∖U]))
(and |U| + c for Algorithm 5), spec §1.3: an added tuple either violates a unary DC (|U| grows by 1, G[V∖U] is
unchanged) or joins G[V∖U] (|U| unchanged, Δf ≤ θ, θ+1 for I_P, 2 for the cover). ``rng`` may be a seed, a
Generator, or a noise back-end such as ``dpworkbench.mechanisms.release_backend()`` (OpenDP samplers).

References
----------
.. [1] Mohapatra, Gilad, He, Kimelfeld. "Differentially Private Inconsistency Measures", SIGMOD 2025:
   §4 Algorithm 2 (graph projection), Lemmas 1–2 (sensitivities), Algorithm 3 (EM θ selection), Lemma 3 / Thm 3
   (FD degree bound), Algorithm 4 (hierarchical EM with the bound), §5 Algorithm 5 and Prop. 3 (DP vertex cover).
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Mapping
from typing import Any, Sequence

import numpy as np
import pandas as pd

from ..._validation import check_epsilon, check_options
from ...accounting import Accountant, DescribedRelease, LedgerEntry, Release, planned
from ...mechanisms import exponential_logits
from ...mechanisms.declaration import ADD_REMOVE_ROW, EPSILON, REQUIRED, Accuracy, Drawn, Engine, Mechanism, Param
from ..conflict_graph import ConflictGraph, build
from ..constraints import DC, FD
from ..model import Projector, degree_bound, i_r_2approx, paper_candidates, quality

STRATEGIES = ("baseline_V", "baseline_dmax", "em", "hier_em", "bound_hier")
STRATEGY_LABELS = {
    "baseline_V": "θ=|V| (Baseline 1)",
    "baseline_dmax": "θ=max deg (Baseline 2, non-private)",
    "em": "Exponential mech.",
    "hier_em": "Hierarchical exp. mech.",
    "bound_hier": "Upper bound + hierarchical (ours)",
}
#: share of ε spent on the private size bound when no public ``n_bound`` is given
N_FRAC = 0.05
#: the private size bound n̂ = noisy |D| + ln(1/(2β))/ε_n exceeds |D| with probability 1 − β
N_BETA = 0.01
RELATION = ADD_REMOVE_ROW("the table's tuples; the conflict graph gains or loses that tuple's node and edges")
#: the relation in words, as every release's ``public["neighbours"]`` states it: the declaration's, not a second wording
NEIGHBOURS = RELATION.describe()


# ---------------------------------------------------------------------------------------------------- sensitivities
def quality_sensitivity(theta_max: int, measure: str, ip_sensitivity: str) -> float:
    """Δq of Eq. 2's quality for the exponential mechanism: θ_max for I_MI (Lemma 2), 2·θ_max for I_P ("safe"),
    θ_max with ``ip_sensitivity="paper"`` (the paper's value; not proven private). Spec §2.7."""
    if measure == "MI" or ip_sensitivity == "paper":
        return float(theta_max)
    return 2.0 * theta_max


def laplace_sensitivity(theta: int, measure: str, ip_sensitivity: str) -> float:
    """Δ of f∘π_θ for Algorithm 2's Laplace step: θ (Lemma 1), θ + 1 for I_P in the "safe" mode (spec §2.7)."""
    if measure == "P" and ip_sensitivity == "safe":
        return float(theta + 1)
    return float(theta)


# ---------------------------------------------------------------------------------------------------- statistics
#: what the harness brute-forces (small inputs): F(θ) for these θ, the EM quality gaps below these θ_max
AUDIT_THETAS = tuple(range(1, 9))
AUDIT_THETA_MAX = (2, 5)
AUDIT_FDS = 4


@dataclasses.dataclass(frozen=True, eq=False)
class Table:
    """The private table with its public constraints Σ (the declarations' data)."""

    df: pd.DataFrame
    dcs: tuple = ()


class Statistics(Mapping):
    """The non-private pre-noise values of one table, computed lazily (F(θ) memoised by the projector, which may be
    a :class:`~.spark_engine.StreamedProjector` streaming Spark-sorted edges). Attributes serve the noise steps; the
    mapping holds the numbers the harness brute-forces (row count, F(θ), EM quality gaps, cover size, FD terms)."""

    def __init__(self, graph: ConflictGraph | None, *, df: pd.DataFrame | None = None, dcs: Sequence[DC] = (),
                 thetas: Sequence[int] | None = None, projector: Any = None, order: str = "rank", order_seed: int = 0,
                 cover: int | None = None, degree_terms: Sequence[int] | None = None):
        self.graph, self.df, self.dcs, self._terms = graph, df, tuple(dcs), degree_terms
        self.thetas = None if thetas is None else [int(t) for t in thetas]
        self.order, self.order_seed = order, order_seed
        self._proj, self._cover = projector, cover

    @property
    def n(self) -> int:
        return self.graph.n

    @property
    def proj(self):
        if self._proj is None:
            self._proj = Projector(self.graph, rule=self.order, seed=self.order_seed)
        return self._proj

    def value(self, theta: int, measure: str) -> int:
        """|U| + f(π_θ(G)): the value Algorithm 2 perturbs (|U| = tuples violating a unary DC)."""
        return int(self.graph.unary.size) + self.proj.f(theta, measure)

    def cover(self) -> int:
        """|U| + c(G[V∖U]): Alg. 5's greedy 2-approximate cover in the stable order (unary violators in every cover)."""
        if self._cover is None:
            self._cover = i_r_2approx(self.graph, rule=self.order, seed=self.order_seed)
        return self._cover

    def fds(self) -> list:
        return [d for d in self.dcs if d.is_fd_like]

    def degree_terms(self, minus_one: bool = True) -> tuple[int, list[int]]:
        """Thm 3's per-FD terms: given (e.g. computed on Spark, ``SparkGraphStats.fd_degree_bounds``), else from df."""
        if self._terms is not None:
            true, terms = sum(self._terms), [int(t) for t in self._terms]
        elif self.df is None:
            raise ValueError("the FD degree bound needs the table df (or its terms, degree_terms=)")
        else:
            true, terms = degree_bound(self.df, self.fds())
        if not minus_one:  # the artifact drops the "−1"
            terms = [t + 1 for t in terms]
            true = sum(terms)
        return true, terms

    def _audited(self) -> dict[str, float]:
        if getattr(self, "_aud", None) is not None:
            return self._aud
        out: dict[str, float] = {"rows": float(self.n), "cover": float(self.cover())}
        for m in ("MI", "P"):
            for t in AUDIT_THETAS:
                out[f"F_{m}({t})"] = float(self.proj.f(t, m))
            for tm in AUDIT_THETA_MAX:
                for t in range(1, tm):
                    out[f"q_{m}({t}|θmax={tm})"] = float(self.proj.f(tm, m) - self.proj.f(t, m))
        if self.fds() and (self.df is not None or self._terms is not None):
            for i, t in enumerate(self.degree_terms()[1]):
                out[f"d_bound term {i}"] = float(t)
        self._aud = out
        return out

    def __getitem__(self, key):
        return self._audited()[key]

    def __iter__(self):
        return iter(self._audited())

    def __len__(self) -> int:
        return len(self._audited())


def table_statistics(data: Table, *, order: str = "rank", order_seed: int = 0, **_: Any) -> Statistics:
    """The statistics of a :class:`Table`: its conflict graph built in memory, projected in the stable order."""
    return Statistics(build(data.df, list(data.dcs)), df=data.df, dcs=data.dcs, order=order, order_seed=order_seed)


# ---------------------------------------------------------------------------------------------------- harness inputs
#: the harness's rows (add/remove one of them) and the table of finding 1 (deleting row 2 reordered the edges of a
#: position-hashed order)
HARNESS_DCS = (FD("A", "B"),)
UNIVERSE = pd.DataFrame({"A": [0, 0, 1], "B": [0, 5, 1]})
FINDING1 = pd.DataFrame({"A": [0] * 6, "B": [0, 0, 1, 0, 1, 2]})


def harness_tables(rng: np.random.Generator) -> list[Table]:
    n = int(rng.integers(5, 7))
    rand = pd.DataFrame({"A": rng.integers(0, 2, size=n), "B": rng.integers(0, 3, size=n)})
    return [Table(FINDING1.copy(), HARNESS_DCS), Table(rand, HARNESS_DCS)]


def _neighbours(table: Table):
    from ...testing.harness import row_neighbours

    return (Table(df, table.dcs) for df in row_neighbours(table.df, UNIVERSE))


def _spark_engine(measure: str) -> Engine:
    """The Spark path of one measure's declaration (:func:`~..spark_engine._release_table`, named: spark_engine imports
    this module): it hands the declaration's own release the statistics it streamed (``prenoise=None``: the harness
    observes them there). Each run starts Spark jobs (seconds), so the harness runs it
    on one 2-row table (11 neighbours)."""
    return Engine("spark", "inconsistency.spark_engine.release_from_parquet", None,
                  lambda value: {"output": float(value)}, run="inconsistency.spark_engine._release_table",
                  options={"measure": measure},
                  examples=lambda rng: [Table(pd.DataFrame({"A": [0, 0], "B": [0, 1]}), HARNESS_DCS)],
                  harness_samples=2000, tests="tests/spark/test_spark_inconsistency_harness.py",
                  note="edges by spark_statistics, F(θ) streamed from the Spark-sorted edges into the declaration")


def _repeat(one, size):
    """``size`` independent outputs of a compound noise step (one release each, in draw order)."""
    return one() if size is None else np.asarray([one().value for _ in range(size)])


# ---------------------------------------------------------------------------------------------------- the private size bound
ACCURACY_BETA = 0.05


@dataclasses.dataclass(frozen=True)
class CoveredAccuracy(Accuracy):
    """A Laplace error bar (:meth:`Accuracy.laplace`) that says what it covers (``covers``): the pre-noise value it
    is centred on, never the bias of a truncation or an approximation."""

    covers: str = ""


def _laplace_bar(scale: float, covers: str, clip: tuple[float, float] | None = None) -> CoveredAccuracy:
    # Accuracy.laplace's bound (P(|Lap(b)| > b·ln(1/β)) = β), with what it covers
    return CoveredAccuracy(float(scale), float(scale) * math.log(1.0 / ACCURACY_BETA), ACCURACY_BETA, clip, covers)


def _size_accuracy(*, epsilon, beta=None, **_):
    """|D| within ±ln(1/β')/ε of the released noisy count (Lap(1/ε)); the released bound adds ln(1/(2β))/ε to it."""
    return _laplace_bar(1.0 / epsilon, "the number of rows |D|, around the noisy count (the released bound adds "
                        "ln(1/(2β))/ε to it so that it is ≥ |D| with probability 1 − β)", (0.0, math.inf))


def _measure_hi(measure: str, nb: float) -> float:
    return max(nb * (nb - 1) / 2, nb) if measure == "MI" else float(nb)


def _projection_accuracy(measure: str, ip_sensitivity: str):
    """Alg. 2's Laplace step: f(π_θ*(G)) + Lap(Δ(θ*)/ε₂). After a release the scale is a function of the released
    θ* (a private output: post-processing) and public parameters; the interval is clipped to the public range
    [0, C(n_bound, 2)] (I_MI) or [0, n_bound] (I_P) with ``clip="range"`` (``n_bound``: the public bound, or the
    released private one). Before a run (``theta=None``) the worst case θ* = n_bound (or a formula in θ*). It
    covers the noise only: f(π_θ*(G)) may be below f(G) (truncation bias)."""
    label = {"MI": "I_MI", "P": "I_P"}[measure]

    def accuracy(*, epsilon, strategy="bound_hier", n_bound=None, n_frac=N_FRAC, eps1_frac=0.4,
                 artifact_compat=False, clip="range", theta=None, size_bound=None, bound_outside=False, **_):
        # n_frac·ε buys the private size bound inside the release unless a bound is given (public, or bought
        # outside it: ``bound_outside``, as release_measures does)
        rest = epsilon - n_frac * epsilon if (n_bound is None and not bound_outside) else epsilon
        eps2 = rest if (strategy in ("baseline_V", "baseline_dmax") or artifact_compat) else (1 - eps1_frac) * rest
        nb = n_bound if n_bound is not None else size_bound
        covers = f"{label} of the projection π_θ*(G) at the released θ*"
        if theta is None:
            if nb is None:
                one = laplace_sensitivity(1, measure, ip_sensitivity) / eps2
                return (f"Laplace noise of scale Δ(θ*)/ε₂ with ε₂ = {eps2:.4g} and Δ(θ*) = θ*"
                        + (" + 1" if measure == "P" and ip_sensitivity == "safe" else "")
                        + f": {one:.4g} at θ* = 1; {100 * (1 - ACCURACY_BETA):g}% noise-only bound ±scale·ln(1/{ACCURACY_BETA:g})"
                        f" (θ* ≤ the private row bound; truncation bias not included)")
            theta, covers = nb, f"{label} of the projection π_θ*(G) (worst case θ* = n_bound = {nb})"
        scale = laplace_sensitivity(int(theta), measure, ip_sensitivity) / eps2
        rng = (0.0, _measure_hi(measure, nb)) if (clip == "range" and nb is not None) else None
        return _laplace_bar(scale, covers, rng)

    return accuracy


def _cover_accuracy(scale_of):
    def accuracy(*, epsilon, n_bound=None, **_):
        return _laplace_bar(scale_of(epsilon), "c, the size of the greedy 2-approximate vertex cover (≈ 2·I_R; the "
                            "approximation is not included)", (0.0, math.inf if n_bound is None else float(n_bound)))

    return accuracy


def _size_noise(stats, backend, size, *, epsilon, beta):
    def one():
        noisy = float(backend.add_laplace(float(stats["rows"]), 1.0 / epsilon))
        nb = max(1, int(math.ceil(noisy + math.log(1.0 / (2.0 * beta)) / epsilon)))
        return Drawn(nb, {"noisy_count": noisy})

    return _repeat(one, size)


SIZE_BOUND = Mechanism(
    name="inconsistency.size_bound",
    summary="private upper bound on the number of tuples: ⌈|D| + Lap(1/ε) + ln(1/(2β))/ε⌉ (≥ |D| w.p. 1 − β)",
    relation=RELATION,
    params=(EPSILON(), Param("beta", float, N_BETA, "probability that the bound is below |D|", low=0, high=0.5,
                             open_low=True)),
    cost=lambda *, epsilon, beta: planned(("laplace", epsilon, "private size bound |D| (Laplace count + margin)")),
    statistics=lambda df, **p: {"rows": float(len(df))},
    sensitivity=lambda **p: {"rows": 1.0},
    noise=_size_noise,
    truth=lambda stats, **p: stats["rows"], accuracy=_size_accuracy,
    examples=lambda rng: [pd.DataFrame({"A": rng.integers(0, 2, 4)}), FINDING1.copy()],
    harness_params={"epsilon": 1.0},
    references="spec §1.5 (public information)",
)


# ---------------------------------------------------------------------------------------------------- the noisy FD degree bound
def _degree_noise(stats, backend, size, *, epsilon, n, minus_one):
    true, terms = stats.degree_terms(minus_one)
    k = len(terms)

    def one():
        # each FD term has sensitivity 1 and gets ε₀/k: the vector of k terms has L1 sensitivity k at total ε₀
        raw = float(np.sum(backend.add_laplace(np.asarray(terms, dtype=float), k / epsilon)))
        return Drawn(int(min(max(round(raw), 1), n)), {"noisy_raw": raw}, {"d_bound": true, "terms": terms})

    return _repeat(one, size)


DEGREE_BOUND = Mechanism(
    name="inconsistency.fd_degree_bound",
    summary="Σ_σ (d_bound(D, X_σ) + Lap(|Σ_FD|/ε₀)), rounded and clamped to [1, n] (Lemma 3, Thm 3, Alg. 4 l. 1–5)",
    relation=RELATION,
    params=(EPSILON(), Param("n", int, REQUIRED, "public clamp (the size bound)", low=1),
            Param("minus_one", bool, True, "False: the artifact's terms without the −1")),
    public=("dcs (at least one FD-like)",),
    cost=lambda *, epsilon, n, minus_one: planned(("laplace", epsilon, "FD degree bound")),
    statistics=table_statistics,
    sensitivity=lambda **p: {f"d_bound term {i}": 1.0 for i in range(AUDIT_FDS)},
    noise=_degree_noise,
    truth=lambda stats, **p: stats.degree_terms(p["minus_one"])[0],
    examples=harness_tables,
    neighbours=_neighbours,
    harness_params={"epsilon": 1.0, "n": 8},
)


def noisy_degree_bound(df: pd.DataFrame, fds: Sequence[DC], *, eps0: float, n: int, rng=None, accountant=None,
                       minus_one: bool = True) -> dict:
    """:data:`DEGREE_BOUND` on ``df`` (a dict: true bound, terms, noisy raw sum, clamped bound). Spends ε₀."""
    if not fds:
        raise ValueError("the degree bound needs at least one FD-like DC")
    p = DEGREE_BOUND.check_params({"epsilon": eps0, "n": n, "minus_one": minus_one}, labels={"epsilon": "eps0"})
    r = DEGREE_BOUND.release(None, rng=rng, accountant=accountant, statistics=Statistics(None, df=df, dcs=fds), **p)
    return {"d_bound": r.exact["d_bound"], "terms": r.exact["terms"], "noisy_raw": r.details["noisy_raw"],
            "noisy": r.value, "epsilon": r.ledger[0].epsilon}


# ---------------------------------------------------------------------------------------------------- one EM θ draw (Alg. 3)
def _em_draw(stats, backend, *, epsilon, eps2, measure, ip_sensitivity, theta_max, no_bias_theta, candidates):
    cands = sorted(set(int(c) for c in candidates))
    F = {t: stats.proj.f(t, measure) for t in set(cands) | {theta_max}}
    q = np.array([quality(F, t, theta_max, eps2, no_bias=(t == no_bias_theta)) for t in cands])
    delta = quality_sensitivity(theta_max, measure, ip_sensitivity)
    logits = exponential_logits(q, epsilon=epsilon, sensitivity=delta)
    probs = np.exp(logits - logits.max())
    idx = backend.gumbel_argmax(logits)
    return {"candidates": cands, "quality": q, "probabilities": probs / probs.sum(), "sensitivity": delta,
            "theta": cands[idx], "epsilon": epsilon}


def _em_noise(stats, backend, size, **p):
    return _repeat(lambda: (lambda s: Drawn(s["theta"], s))(_em_draw(stats, backend, candidates=stats.thetas, **p)),
                   size)


_MEASURE = Param("measure", str, "MI", "I_MI or I_P", choices=("MI", "P"))
_ADD_V = Param("add_V", str, "if_general_DC", "add the θ = |V| candidate", choices=("always", "never", "if_general_DC"))
_PRUNE = Param("prune", str, "le", "keep θ ≤ θ* (le, Alg. 4) or θ < θ* (lt, Table 4)", choices=("le", "lt"))
_EPS0_FRAC = Param("eps0_frac", float, 0.25, "share of the selection ε on the FD degree bound", low=0, high=1)
_FD_BOUND = Param("fd_bound", bool, True, "Σ has an FD-like DC (then the degree bound is spent on)")
_IPS = Param("ip_sensitivity", str, "safe", "safe: Δq = 2θ_max for I_P; paper: the paper's θ_max (not private)",
             choices=("safe", "paper"))

def _em_statistics(data: Table, *, theta_max: int = 1, **p: Any) -> Statistics:
    """A table's statistics with the public candidates Θ = {1, …, θ_max} (a caller with its own Θ, as
    :func:`basic_em`, passes the statistics itself)."""
    stats = table_statistics(data, **p)
    stats.thetas = list(range(1, int(theta_max) + 1))
    return stats


THETA_EM = Mechanism(
    name="inconsistency.theta_em",
    summary="one exponential-mechanism draw of θ over the public candidates Θ, quality Eq. 2 (Alg. 3)",
    relation=RELATION,
    params=(EPSILON(), Param("eps2", float, 1.0, "ε of the Laplace step (the √2θ/ε₂ term)", low=0, open_low=True),
            _MEASURE, _IPS, Param("theta_max", int, 1, "largest candidate (the quality's reference θ)", low=1),
            Param("no_bias_theta", int, None, "the |V| candidate without the bias term")),
    public=("candidates Θ",),
    cost=lambda *, epsilon, **p: planned(("exponential", epsilon, "Alg. 3 EM")),
    statistics=_em_statistics,
    # the quality's data part, F(θ_max) − F(θ) for each θ < θ_max, moves by at most Δq on a neighbour (Lemma 2);
    # the √2θ/ε₂ bias is public
    sensitivity=lambda *, measure, ip_sensitivity, theta_max, **_: {
        f"q_{measure}({t}|θmax={theta_max})": quality_sensitivity(theta_max, measure, ip_sensitivity)
        for t in range(1, theta_max)},
    noise=_em_noise,
    examples=harness_tables,
    neighbours=_neighbours,
    harness_params={"epsilon": 1.0, "theta_max": AUDIT_THETA_MAX[-1]},  # Θ = {1..5}: its gaps are audited
)


def basic_em(proj, thetas: Sequence[int], *, eps1: float, eps2: float, measure: str = "MI",
             ip_sensitivity: str = "safe", rng=None, accountant=None) -> dict:
    """Algorithm 3, a release of :data:`THETA_EM` over Θ with Δq from θ_max = max Θ (a dict: candidates, quality,
    probabilities, Δq, θ). Spends ε₁."""
    if not len(thetas):
        raise ValueError("thetas is empty: give at least one candidate θ")
    p = THETA_EM.check_params({"epsilon": eps1, "eps2": eps2, "measure": measure, "ip_sensitivity": ip_sensitivity,
                               "theta_max": int(max(thetas))}, labels={"epsilon": "eps1"})
    r = THETA_EM.release(None, rng=rng, accountant=accountant, statistics=Statistics(proj.graph, projector=proj,
                         thetas=thetas), **p)
    return dict(r.details)


# ---------------------------------------------------------------------------------------------------- Alg. 4 (θ selection), composed
def _selection_plan(eps1: float, *, strategy: str, bound: bool, eps0_frac: float, steps: int = 2) -> tuple:
    """The plan of θ selection from the steps' plans: Alg. 3 (one EM) or Alg. 4 (bound, then ``steps`` EMs)."""
    em = lambda e, note: tuple(dataclasses.replace(x, note=note) for x in THETA_EM.plan(epsilon=e))
    if strategy == "em":
        return em(eps1, "Alg. 3 EM")
    plan, eps_em = (), eps1
    if bound:
        eps0 = eps0_frac * eps1
        plan, eps_em = DEGREE_BOUND.plan(epsilon=eps0, n=1), eps1 - eps0
    return plan + sum((em(eps_em / steps, f"Alg. 4 EM step {s + 1}") for s in range(steps)), ())


def _select(stats: Statistics, backend, cands, *, eps1, eps2, measure, ip_sensitivity, use_bound, steps, add_V, prune,
            eps0_frac, n) -> dict:
    """Algorithm 4's draws (the noise of the composition; the plan is :func:`_selection_plan`)."""
    cands = sorted(set(int(t) for t in cands))
    theta_max = max(cands)
    eps_em = eps1
    record: dict = {"d_bound": None, "d_bound_noisy": None, "eps0": 0.0, "steps": []}
    if use_bound and stats.fds():
        eps0 = eps0_frac * eps1
        eps_em = eps1 - eps0
        b = _degree_noise(stats, backend, None, epsilon=eps0, n=n, minus_one=True)
        record.update(d_bound=b.exact["d_bound"], d_bound_noisy=b.value, eps0=eps0)
        cands = sorted({t for t in cands if t <= b.value} | {b.value})
        theta_max = min(b.value, n)
    has_general = any(not d.is_fd_like for d in stats.dcs)
    addV = add_V == "always" or (add_V == "if_general_DC" and has_general)
    no_bias = n if (addV and n not in set(cands)) else None
    C = sorted(set(cands) | ({n} if addV else set()))
    theta = None
    for _ in range(steps):
        step = _em_draw(stats, backend, epsilon=eps_em / steps, eps2=eps2, measure=measure,
                        ip_sensitivity=ip_sensitivity, theta_max=theta_max, no_bias_theta=no_bias, candidates=C)
        record["steps"].append(step)
        theta = step["theta"]
        C = [t for t in C if t <= theta] if prune == "le" else ([t for t in C if t < theta] or [theta])
        theta_max = theta
        if theta == no_bias:
            no_bias = None  # step 2 after picking |V|: all candidates, Δ = |V|, F(|V|) = f(G)
    record.update(theta=theta, theta_1=record["steps"][0]["theta"], eps_em=eps_em)
    return record


def _selection_noise(stats, backend, size, *, epsilon, eps2, measure, ip_sensitivity, use_bound, steps, add_V, prune,
                     eps0_frac, n, fd_bound):
    return _repeat(lambda: (lambda r: Drawn(r["theta"], r))(_select(
        stats, backend, stats.thetas, eps1=epsilon, eps2=eps2, measure=measure, ip_sensitivity=ip_sensitivity,
        use_bound=use_bound, steps=steps, add_V=add_V, prune=prune, eps0_frac=eps0_frac, n=n)), size)


THETA_SELECTION = Mechanism(
    name="inconsistency.theta_selection",
    summary="Alg. 4: the noisy FD degree bound (when Σ has an FD-like DC), then hierarchical EM draws of θ over Θ",
    relation=RELATION,
    params=(EPSILON(), THETA_EM.params[1], _MEASURE, _IPS,
            Param("use_bound", bool, True, "lines 1–5 (the FD degree bound); False: hierarchical EM"),
            Param("steps", int, 2, "EM draws", choices=(1, 2, 3)),
            _ADD_V, _PRUNE, _EPS0_FRAC,
            Param("n", int, REQUIRED, "public (or privately estimated) size bound: the |V| candidate and the clamp",
                  low=1), _FD_BOUND),
    public=("candidates Θ", "dcs"),
    cost=lambda *, epsilon, use_bound, steps, eps0_frac, fd_bound, **p: _selection_plan(
        epsilon, strategy="hier_em", bound=use_bound and fd_bound, eps0_frac=eps0_frac, steps=steps),
    statistics=lambda data, **p: _em_statistics(data, **p, theta_max=AUDIT_THETA_MAX[-1]),
    # the FD degree-bound terms (Lemma 3) and the EM quality gaps at each audited θ_max (Lemma 2)
    sensitivity=lambda *, measure, ip_sensitivity, **_: {
        **{f"d_bound term {i}": 1.0 for i in range(AUDIT_FDS)},
        **{f"q_{measure}({t}|θmax={tm})": quality_sensitivity(tm, measure, ip_sensitivity)
           for tm in AUDIT_THETA_MAX for t in range(1, tm)}},
    noise=_selection_noise,
    examples=harness_tables,
    neighbours=_neighbours,
    harness_params={"epsilon": 1.0, "n": 8},  # Θ = {1..5} (table statistics), the public clamp n = 8
)


def optimized_em(proj, thetas: Sequence[int], *, eps1: float, eps2: float, measure: str = "MI",
                 df: pd.DataFrame | None = None, dcs: Sequence[DC] = (), use_bound: bool = True, steps: int = 2,
                 add_V: str = "if_general_DC", prune: str = "le", eps0_frac: float = 0.25,
                 ip_sensitivity: str = "safe", rng=None, accountant=None, n_bound: int | None = None) -> dict:
    """Algorithm 4 (``use_bound=False``: hierarchical EM without lines 1–5), a release of :data:`THETA_SELECTION`
    (the composition of :data:`DEGREE_BOUND` and ``steps`` × :data:`THETA_EM`; a dict: θ, θ₁, the steps, the noisy
    bound). Spends ε₁: ε₀ = ``eps0_frac``·ε₁ for the bound (only when Σ has an FD-like DC), the rest split evenly
    over the EM draws; candidates above each draw are pruned (``prune="le"`` keeps θ ≤ θ*, as Alg. 4; ``"lt"``
    keeps θ < θ*, as Table 4).

    ``n_bound`` is the *public* (or privately estimated) size bound used for the θ = |V| candidate and to clamp the
    noisy degree bound; ``None`` falls back to the graph's own n, which is NOT public under add/remove-one-tuple
    neighbours (:func:`graph_projection` always passes one)."""
    if not len(thetas):
        raise ValueError("thetas is empty: give at least one candidate θ")
    fd = any(d.is_fd_like for d in dcs)
    if use_bound and fd and df is None:
        raise ValueError("the FD degree bound needs the table df")
    p = THETA_SELECTION.check_params({
        "epsilon": eps1, "eps2": eps2, "measure": measure, "ip_sensitivity": ip_sensitivity, "use_bound": use_bound,
        "steps": steps, "add_V": add_V, "prune": prune, "eps0_frac": eps0_frac,
        "n": n_bound if n_bound is not None else max(proj.n, 1), "fd_bound": fd}, labels={"epsilon": "eps1"})
    stats = Statistics(proj.graph, df=df, dcs=dcs, thetas=thetas, projector=proj)
    r = THETA_SELECTION.release(None, rng=rng, accountant=accountant, statistics=stats, **p)
    return dict(r.details)


# ---------------------------------------------------------------------------------------------------- Algorithm 2 (graph projection)
def _projection_cost(*, epsilon, strategy, n_bound, n_frac, eps1_frac, eps0_frac, artifact_compat, fd_bound, **_):
    plan: tuple = ()
    rest = epsilon
    if n_bound is None:
        eps_n = n_frac * epsilon
        plan, rest = SIZE_BOUND.plan(epsilon=eps_n), epsilon - eps_n
    if strategy in ("baseline_V", "baseline_dmax"):
        return plan + planned(("laplace", rest, "Alg. 2 Laplace"))
    eps1 = eps1_frac * rest
    plan += _selection_plan(eps1, strategy=strategy, bound=strategy == "bound_hier" and fd_bound, eps0_frac=eps0_frac)
    return plan + planned(("laplace", rest if artifact_compat else (1 - eps1_frac) * rest, "Alg. 2 Laplace"))


def _projection_noise(measure: str, ip_sensitivity: str):
    def noise(stats: Statistics, backend, size, *, epsilon, strategy, n_bound, n_frac, eps1_frac, eps0_frac,
              artifact_compat, add_V, prune, clip, **_):
        if strategy == "baseline_dmax" and not backend.seeded:  # issue 21, finding 5: research only
            raise ValueError("strategy='baseline_dmax' uses θ = d_max(G), read off the data: allowed only in a "
                             "research run with a seed (rng=<int>); for a release use strategy='bound_hier'")

        def one():
            details: dict = {}
            rest = epsilon
            if n_bound is None:
                eps_n = n_frac * epsilon
                rest = epsilon - eps_n
                nb = _size_noise({"rows": stats.n}, backend, None, epsilon=eps_n, beta=N_BETA).value
                details["n_bound"] = nb
            else:
                nb = n_bound
            sel: dict = {}
            if strategy in ("baseline_V", "baseline_dmax"):
                eps2 = rest
                theta = nb if strategy == "baseline_V" else max(1, stats.graph.max_degree())
            else:
                eps1 = eps1_frac * rest
                eps2 = rest if artifact_compat else (1 - eps1_frac) * rest
                cands = stats.thetas if stats.thetas is not None else paper_candidates(nb)
                if stats.thetas is None and n_bound is None:
                    details["thetas"] = [int(t) for t in cands]
                if strategy == "em":
                    s = _em_draw(stats, backend, epsilon=eps1, eps2=eps2, measure=measure,
                                 ip_sensitivity=ip_sensitivity, theta_max=int(max(cands)), no_bias_theta=None,
                                 candidates=cands)
                    sel = {"theta_1": s["theta"], "steps": [s], "theta": s["theta"]}
                else:
                    sel = _select(stats, backend, cands, eps1=eps1, eps2=eps2, measure=measure,
                                  ip_sensitivity=ip_sensitivity, use_bound=strategy == "bound_hier", steps=2,
                                  add_V=add_V, prune=prune, eps0_frac=eps0_frac, n=nb)
                theta = sel["theta"]
            f_trunc = stats.value(theta, measure)
            sens = laplace_sensitivity(theta, measure, ip_sensitivity)
            raw = float(backend.add_laplace(float(f_trunc), sens / eps2))
            hi = max(nb * (nb - 1) / 2, nb) if measure == "MI" else nb
            if clip == "range":
                out = float(min(max(raw, 0.0), hi))
            elif clip == "artifact":
                out = float(max(raw, 0.0)) if measure == "MI" else float(raw)
            else:
                out = float(raw)
            details.update(theta_star=int(theta), theta_1=sel.get("theta_1"), d_bound_noisy=sel.get("d_bound_noisy"))
            exact = {"truncated": float(f_trunc), "noise": float(raw - f_trunc), "output_raw": raw,
                     "d_bound": sel.get("d_bound"), "laplace_sensitivity": sens}
            return Drawn(out, details, exact)

        return _repeat(one, size)

    return noise


def _projection_sensitivity(measure: str, ip_sensitivity: str):
    def sensitivity(**p) -> dict[str, float]:
        s = {f"F_{measure}({t})": laplace_sensitivity(t, measure, ip_sensitivity) for t in AUDIT_THETAS}
        s.update({f"q_{measure}({t}|θmax={tm})": quality_sensitivity(tm, measure, ip_sensitivity)
                  for tm in AUDIT_THETA_MAX for t in range(1, tm)})
        s["rows"] = 1.0
        if p.get("strategy") == "bound_hier":
            s.update({f"d_bound term {i}": 1.0 for i in range(AUDIT_FDS)})
        return s

    return sensitivity


_PROJECTION_PARAMS = (
    EPSILON(),
    Param("strategy", str, "bound_hier", "θ choice (Alg. 2 with a baseline, Alg. 3 or Alg. 4)", choices=STRATEGIES),
    Param("n_bound", int, None, "PUBLIC upper bound on the number of tuples (default: a private one)", low=1),
    Param("n_frac", float, N_FRAC, "share of ε on the private size bound (without n_bound)", low=0, high=1),
    Param("eps1_frac", float, 0.4, "share of ε on θ selection", low=0, high=1),
    _EPS0_FRAC, _FD_BOUND,
    Param("artifact_compat", bool, False, "the reference code's 1.4ε (labelled: NOT ε-DP at ε)"), _ADD_V, _PRUNE,
    Param("order", str, "rank", "stable edge order", choices=("rank", "lex", "artifact_reorder")),
    Param("order_seed", int, 0, "public seed of the stable edge order"),
    Param("clip", str, "range", "post-processing clip", choices=("range", "artifact", "none")),
)


@dataclasses.dataclass(frozen=True)
class ProjectionRelease(Release):
    """An Alg. 2 release: not private whenever a labelled option that is not ε-DP at the claimed ε was used
    (``artifact_compat``'s 1.4ε, ``baseline_dmax``'s θ read off the data)."""

    def __post_init__(self):
        if self.public.get("artifact_compat") or self.public.get("strategy") == "baseline_dmax":
            object.__setattr__(self, "private", False)


def _projection(measure: str, ip_sensitivity: str, name: str, paper_option: bool = False,
                engines: tuple[Engine, ...] = ()) -> Mechanism:
    label = {"MI": "I_MI", "P": "I_P"}[measure]
    return Mechanism(
        name=name,
        summary=f"Alg. 2: {label} of the projection π_θ*(G) + Laplace, θ* by Alg. 3/4 (graph projection)"
                + (" with the paper's printed I_P sensitivities (NOT ε-DP)" if paper_option else ""),
        relation=RELATION,
        params=_PROJECTION_PARAMS,
        public=("dcs", "thetas (when given)", "schema"),
        cost=_projection_cost,
        statistics=table_statistics,
        sensitivity=_projection_sensitivity(measure, ip_sensitivity),
        noise=_projection_noise(measure, ip_sensitivity),
        truth=lambda stats, **p: float(stats.value(stats.n, measure)),
        examples=harness_tables,
        neighbours=_neighbours,
        harness_params={"epsilon": 1.0},
        harness_samples=5000,
        paper_option=paper_option,
        release_type=ProjectionRelease, accuracy=_projection_accuracy(measure, ip_sensitivity),
        references="Mohapatra et al., SIGMOD 2025: Alg. 2 with Alg. 3–4; Lemmas 1–2", engines=engines,
    )


I_MI = _projection("MI", "safe", "inconsistency.graph_projection_mi", engines=(_spark_engine("MI"),))
I_P = _projection("P", "safe", "inconsistency.graph_projection_p", engines=(_spark_engine("P"),))
I_P_PAPER = _projection("P", "paper", "inconsistency.graph_projection_p_paper_sensitivity", paper_option=True)
PROJECTIONS = {("MI", "safe"): I_MI, ("MI", "paper"): I_MI, ("P", "safe"): I_P, ("P", "paper"): I_P_PAPER}


def graph_projection_cost(epsilon: float, *, strategy: str = "bound_hier", dcs: Sequence[DC] = (),
                          n_bound: int | None = None, n_frac: float = N_FRAC, eps1_frac: float = 0.4,
                          eps0_frac: float = 0.25, artifact_compat: bool = False) -> tuple[LedgerEntry, ...]:
    """:func:`graph_projection`'s plan (``I_MI.plan``; the FD degree bound only when ``dcs`` has an FD-like DC)."""
    return I_MI.plan(epsilon=epsilon, strategy=strategy, n_bound=n_bound, n_frac=n_frac, eps1_frac=eps1_frac,
                     eps0_frac=eps0_frac, artifact_compat=artifact_compat, fd_bound=any(d.is_fd_like for d in dcs))


def graph_projection(graph: ConflictGraph, measure: str, epsilon: float, *, strategy: str = "bound_hier",
                     df: pd.DataFrame | None = None, dcs: Sequence[DC] = (), thetas: Sequence[int] | None = None,
                     n_bound: int | None = None, n_frac: float = N_FRAC, eps1_frac: float = 0.4,
                     eps0_frac: float = 0.25, ip_sensitivity: str = "safe", artifact_compat: bool = False,
                     add_V: str = "if_general_DC", prune: str = "le", order: str = "rank", order_seed: int = 0,
                     projector: Projector | None = None, clip: str = "range", rng=None,
                     accountant: Accountant | None = None, degree_terms: Sequence[int] | None = None) -> Release:
    """Algorithm 2 for I_MI (``measure="MI"``) or I_P (``"P"``): f(π_θ*(G)) + Lap(Δ(θ*)/ε₂), clipped — a release
    of :data:`I_MI` / :data:`I_P` (:data:`I_P_PAPER` with ``ip_sensitivity="paper"``) on statistics of ``graph``.

    Spends ``epsilon`` in total, as planned by :func:`graph_projection_cost` (1.4·ε with ``artifact_compat``).
    Neighbouring relation: add or remove one tuple at any row position (unbounded DP). The stable edge order
    (``order="rank"``) depends on each tuple's identity (content hash or ``build(..., id_column=...)``) and
    ``order_seed`` only; ``order="lex"`` sorts by row position, which is also stable.

    Treated as public: ``epsilon``, ``strategy``, the fractions, ``order``, ``order_seed``, ``clip``,
    ``ip_sensitivity``, Σ (``dcs``), the schema, ``thetas`` when given, and ``n_bound`` (a public upper bound on the
    number of tuples: Θ = ``paper_candidates(n_bound)``, the θ = |V| candidate and the clip; ``None``: ``n_frac``·ε
    buys a private bound). ``strategy="baseline_dmax"`` uses θ = d_max(G), read off the data: research runs only
    (a seeded ``rng``), listed in ``derived_public`` and marked not private. ``projector`` reuses memoised F(θ)
    (e.g. a Spark :class:`~.spark_engine.StreamedProjector`). ``clip``: "range" ([0, C(n_bound, 2)] for I_MI,
    [0, n_bound] for I_P), "artifact" (I_MI clipped at 0, I_P not clipped) or "none". ``degree_terms``: the FD
    degree-bound terms (Thm 3, one per FD-like DC of ``dcs``) when computed elsewhere (on Spark:
    ``SparkGraphStats.fd_degree_bounds``); else they are computed from ``df``."""
    from ...mechanisms.backends import check_rng

    t0 = time.perf_counter()
    # which declaration runs: by the choices the declared parameters hold (one list of measures, one of sensitivities)
    measure, ip_sensitivity = _MEASURE.check(measure), _IPS.check(ip_sensitivity)
    params = dict(epsilon=epsilon, strategy=strategy, n_bound=n_bound, n_frac=n_frac,
                  eps1_frac=eps1_frac, eps0_frac=eps0_frac, fd_bound=any(d.is_fd_like for d in dcs),
                  artifact_compat=artifact_compat, add_V=add_V, prune=prune, order=order, order_seed=order_seed,
                  clip=clip)
    mech = PROJECTIONS[measure, ip_sensitivity]
    p = mech.check_params(params)
    backend = check_rng(rng)
    if strategy == "baseline_dmax" and not backend.seeded:  # issue 21, finding 5: a derived value is research only
        raise ValueError("strategy='baseline_dmax' uses θ = d_max(G), read off the data: allowed only in a research "
                         "run with a seed (rng=<int>); for a release give thetas= or use strategy='bound_hier'")
    if strategy == "bound_hier" and p["fd_bound"] and df is None and degree_terms is None:
        raise ValueError("the FD degree bound needs the table df (or its terms, degree_terms=)")
    if thetas is not None and not len(thetas):
        raise ValueError("thetas is empty: give at least one candidate θ")
    if projector is not None and projector.graph is not graph:
        raise ValueError("projector was built on another graph")
    stats = Statistics(graph, df=df, dcs=dcs, thetas=thetas, projector=projector, order=order, order_seed=order_seed,
                       degree_terms=degree_terms)
    rel = mech.release(None, rng=backend, accountant=accountant, statistics=stats, **p)
    public: dict = {"measure": "I_" + measure, "strategy": strategy, "epsilon": p["epsilon"],
                    "n_bound": n_bound if n_bound is not None else "private estimate", "order": order,
                    "order_seed": order_seed, "eps1_frac": eps1_frac, "eps0_frac": eps0_frac,
                    "ip_sensitivity": ip_sensitivity if measure == "P" else "n/a", "clip": clip,
                    "constraints": len(dcs) if dcs else len(graph.dcs), "neighbours": NEIGHBOURS}
    derived: tuple = ()
    details = dict(rel.details)
    if strategy == "baseline_dmax":
        public["theta (d_max(G))"] = details["theta_star"]
        derived = ("theta (d_max(G))",)
    elif strategy != "baseline_V" and "thetas" not in details:
        public["thetas"] = [int(t) for t in (thetas if thetas is not None else paper_candidates(n_bound))]
    f_true, x = rel.exact["truth"], rel.exact
    exact = {"true": f_true, "truncated": x["truncated"], "noise": x["noise"], "output_raw": x["output_raw"],
             "d_bound": x["d_bound"], "laplace_sensitivity": x["laplace_sensitivity"], "n": graph.n,
             "artifact_compat": artifact_compat, "seconds": time.perf_counter() - t0}
    private = rel.private and strategy != "baseline_dmax" and not artifact_compat
    return dataclasses.replace(rel, public=public, derived_public=derived, details=details, exact=exact,
                               private=private, mechanism=f"Alg. 2 graph projection for I_{measure} ({strategy})")


# ---------------------------------------------------------------------------------------------------- Algorithm 5 (DP vertex cover)
def _cover_noise(scale_of):
    def noise(stats, backend, size, *, epsilon, n_bound, **_):
        c = float(stats.cover() if isinstance(stats, Statistics) else stats["cover"])
        raw = backend.add_laplace(c if size is None else np.full(size, c), scale_of(epsilon))
        out = np.maximum(raw, 0.0) if n_bound is None else np.clip(raw, 0.0, n_bound)
        if size is not None:
            return out
        return Drawn(float(out), {}, {"truncated": c, "noise": float(raw - c), "output_raw": float(raw)})

    return noise


def _cover(name: str, scale_of, summary: str, note: str, paper_option: bool = False,
           engines: tuple[Engine, ...] = ()) -> Mechanism:
    return Mechanism(
        name=name, summary=summary, relation=RELATION,
        params=(EPSILON(), Param("order", str, "rank", "stable edge order", choices=("rank", "lex")),
                Param("order_seed", int, 0, "public seed of the stable edge order"),
                Param("n_bound", int, None, "PUBLIC upper bound on the number of tuples (upper clip only)", low=1)),
        public=("dcs", "schema"),
        cost=lambda *, epsilon, **p: planned(("laplace", epsilon, note)),
        statistics=table_statistics,
        sensitivity=lambda **p: {"cover": 2.0},
        noise=_cover_noise(scale_of),
        truth=lambda stats, **p: float(stats.cover()),
        examples=harness_tables, neighbours=_neighbours, harness_params={"epsilon": 1.0}, harness_samples=6000,
        paper_option=paper_option, accuracy=_cover_accuracy(scale_of),
        references="Mohapatra et al., SIGMOD 2025: §5, Algorithm 5 and Prop. 3", engines=engines,
    )


VERTEX_COVER = _cover("inconsistency.vertex_cover", lambda eps: 2.0 / eps,
                      "Alg. 5: size of a greedy 2-approximate vertex cover in a stable order + Lap(2/ε) (≈ 2·I_R)",
                      "Alg. 5 vertex cover, Lap(2/ε)", engines=(_spark_engine("R"),))
VERTEX_COVER_TYPO = _cover("inconsistency.vertex_cover_typo", lambda eps: eps / 2,
                           "Alg. 5 with the printed (typo) scale Lap(ε/2): NOT ε-DP",
                           "Alg. 5 vertex cover with the printed (typo) scale ε/2 — NOT private", paper_option=True)


def dp_vertex_cover_cost(epsilon: float) -> tuple[LedgerEntry, ...]:
    """:func:`dp_vertex_cover`'s plan: one Laplace step of ``epsilon`` (``VERTEX_COVER.plan``)."""
    return VERTEX_COVER.plan(epsilon=epsilon)


def dp_vertex_cover(graph: ConflictGraph, epsilon: float, *, order: str = "rank", order_seed: int = 0,
                    n_bound: int | None = None, reference: float | None = None, cover_size: int | None = None,
                    noise: str = "paper", rng=None, accountant: Accountant | None = None) -> Release:
    """Algorithm 5: size c of a greedy 2-approximate vertex cover in a stable order, + Lap(2/ε), a release of
    :data:`VERTEX_COVER` (``noise="typo"``: :data:`VERTEX_COVER_TYPO`, the printed Lap(ε/2), NOT private). Spends ε.

    Neighbouring relation: add or remove one tuple at any row position; c moves by at most 2 because the order of
    the other tuples' edges does not change. ``reference`` is the exact value the record's ``true`` holds, the one
    experiments measure the error against (the paper uses 2·I_R^lin); default c itself. A given ``cover_size`` (a
    cached c, e.g. from Spark) must already include the unary violators |U| and use the same order. Public:
    ``epsilon``, ``order``, ``order_seed``, Σ, and ``n_bound`` (upper clip only; without it the output is clipped at
    0 only)."""
    t0 = time.perf_counter()
    check_options(noise, "noise", ("paper", "typo"))
    mech = VERTEX_COVER if noise == "paper" else VERTEX_COVER_TYPO
    stats = Statistics(graph, order=order, order_seed=order_seed, cover=cover_size)  # lazy: nothing read yet
    rel = mech.release(None, rng=rng, accountant=accountant, statistics=stats, epsilon=epsilon, order=order,
                       order_seed=order_seed, n_bound=n_bound)  # the declaration checks them before the cover
    n_bound = rel.public["n_bound"]
    ref = float(rel.exact["truncated"] if reference is None else reference)
    public = {"measure": "I_R", "strategy": "alg5", "epsilon": rel.public["epsilon"], "order": order,
              "order_seed": order_seed, "n_bound": n_bound if n_bound is not None else "none (clipped at 0 only)",
              "noise": noise, "neighbours": NEIGHBOURS}
    exact = {"true": ref, **{k: v for k, v in rel.exact.items() if k != "truth"}, "n": graph.n,
             "seconds": time.perf_counter() - t0}
    return dataclasses.replace(rel, public=public, exact=exact, mechanism="Alg. 5 DP vertex cover (≈ 2·I_R)")


# ---------------------------------------------------------------------------------------------------- the three releases of a table
def measures_split(epsilon: float, n_bound: int | None) -> tuple[float, float]:
    """The budget split of :func:`release_measures`: (ε of the private size bound, 0 with a public ``n_bound``;
    ε of each of the three releases I_MI, I_P, I_R)."""
    eps_n = N_FRAC * epsilon if n_bound is None else 0.0
    return eps_n, (epsilon - eps_n) / 3


def measures_plan(epsilon: float, *, n_bound: int | None = None, dcs: Sequence[DC] = ()) -> tuple[LedgerEntry, ...]:
    """The plan of :func:`release_measures`, from the declarations' plans (total ``epsilon``)."""
    eps_n, per = measures_split(check_epsilon(epsilon), n_bound)
    nb = n_bound if n_bound is not None else 1  # the releases get a (public or private) bound either way
    fd = any(d.is_fd_like for d in dcs)
    return ((SIZE_BOUND.plan(epsilon=eps_n) if eps_n else ()) + I_MI.plan(epsilon=per, n_bound=nb, fd_bound=fd)
            + I_P.plan(epsilon=per, n_bound=nb, fd_bound=fd) + VERTEX_COVER.plan(epsilon=per))


def clamp_notes(release: Release) -> list[str]:
    """Which of :func:`release_measures`' estimates were clamped into their range, in words. The comparison is between
    the noisy value before clamping and the output, both private (post-processing of the Laplace output), so it can
    be shown."""
    notes = []
    for k, value in release.value.items():
        raw = release.exact[k].get("output_raw")
        if raw is not None and raw != value:
            side = "raised to the lower end" if raw < value else "lowered to the upper end"
            notes.append(f"{k}: the noisy value was clamped: {side} of its range, {value:g}")
    return notes


def measures_accuracy(epsilon: float, n_bound: int | None, release: Release | None = None) -> dict:
    """The declarations' error bars of :func:`release_measures`' three releases (and of the private row bound): before
    a run (``release`` None, ``--plan``) from ε and the public bound alone; after it at the released θ* and the
    released row bound (both private outputs of ``release``: post-processing)."""
    eps_n, per = measures_split(epsilon, n_bound)
    nb = n_bound if n_bound is not None else (release.details["n_bound"] if release is not None else None)
    out = {} if n_bound is not None else {"n_bound": SIZE_BOUND.accuracy(epsilon=eps_n)}
    for k, decl in (("I_MI", I_MI), ("I_P", I_P)):
        theta = release.details[k]["theta_star"] if release is not None else None
        out[k] = decl.accuracy(epsilon=per, n_bound=nb, theta=theta, bound_outside=True)
    out["I_R"] = VERTEX_COVER.accuracy(epsilon=per, n_bound=nb)
    return out


def release_measures(df, dcs, *, epsilon: float, backend, n_bound: int | None = None, id_column: str | None = None,
                     engine: str = "fast", null_policy: str = "sql", unary_policy: str = "reject", order_seed: int = 0,
                     progress=None, schema=None, graph: ConflictGraph | None = None) -> Release:
    """DP estimates of I_MI, I_P (Alg. 2 + 4) and the vertex cover size (Alg. 5) of one table, as ONE composed
    :class:`~dpworkbench.accounting.DescribedRelease` (its error bars: :func:`measures_accuracy` at the released θ*s
    and row bound; its notes: :func:`clamp_notes`): ``value`` {measure: estimate}; ``details`` the private row bound ``n_bound`` and its
    ``n_bound_noisy_count`` (without a public bound) and each measure's further private outputs (θ*, …); ``ledger`` every spend in order; ``public`` the budget split per
    release, the composition rule, the neighbouring relation and each measure's public parameters; ``exact`` (NOT
    PRIVATE) each measure's diagnostics, with ``output_raw`` the noisy value before clamping. Spends ``epsilon`` in
    total (:func:`measures_plan`): without a public ``n_bound``, 5 % buys a private bound on the number of rows shared
    by the three releases; the rest is split equally over them. ``progress`` (a ``cli.common.Stages``) is told each
    stage. ``graph``: the table's conflict graph when already built (e.g. by :func:`~.spark_engine.build_spark`);
    else ``build(..., engine=)``.

    ``schema`` (a :class:`~dpworkbench.datasets.public_schema.PublicSchema`, its ``--schema`` text or a mapping):
    the table's public column types; ``df`` is then typed cell by cell under it, so one row cannot change how
    another is read. Without it the frame's own dtypes are taken as the caller's declaration (read a file with
    :func:`~.loaders.load_csv`, never with ``pandas.read_csv``)."""
    from ..loaders import check_constraints, type_frame

    if schema is not None:
        df, declared, _ = type_frame(df, schema)
        check_constraints(list(dcs), declared, flag="schema=")
    stage = progress.next if progress is not None else (lambda name: None)
    g = graph
    if g is None:
        stage("build conflict graph")
        g = build(df, dcs, engine=engine, null_policy=null_policy, unary_policy=unary_policy, id_column=id_column)
    acc = Accountant(epsilon)
    eps_n, per = measures_split(epsilon, n_bound)
    size = None
    if n_bound is None:
        stage("private row bound")
        size = SIZE_BOUND.release(None, rng=backend, accountant=acc, statistics={"rows": float(g.n)}, epsilon=eps_n)
    nb = size.value if size is not None else n_bound
    proj = Projector(g, rule="rank", seed=order_seed)
    rel = {}
    for key, meas in (("I_MI", "MI"), ("I_P", "P")):
        stage(f"release {key}")
        rel[key] = graph_projection(g, meas, per, strategy="bound_hier", df=df, dcs=dcs, projector=proj, rng=backend,
                                    accountant=acc, n_bound=nb)
    stage("release I_R")
    rel["I_R"] = dp_vertex_cover(g, per, order_seed=order_seed, rng=backend, accountant=acc, n_bound=nb)
    parts = ({"n_bound": size} if size is not None else {}) | rel
    public = {"epsilon": epsilon, "budget split": {k: r.epsilon for k, r in parts.items()},
              "composition": "sequential: the private row bound (without a public one), then I_MI, I_P and I_R, each on "
                             "its share; the three share the row bound",
              "neighbouring relation": RELATION.describe(), "order": "rank", "order_seed": order_seed,
              "n_bound": n_bound if n_bound is not None else f"private estimate ({100 * N_FRAC:g} % of ε)",
              # each measure's own public parameters (the relation is the one above, not restated)
              **{k: {n: v for n, v in r.public.items() if n != "neighbours"} for k, r in rel.items()}}
    # the row bound's noisy count is private too (the bound is its ceiling plus a public margin): its error bar is
    # centred on it
    details = ({"n_bound": size.value, "n_bound_noisy_count": size.details["noisy_count"]} if size is not None else {})
    details |= {k: dict(r.details) for k, r in rel.items() if r.details}
    out = Release(value={k: r.value for k, r in rel.items()}, ledger=tuple(e for r in parts.values() for e in r.ledger),
                  public=public, derived_public=tuple(f"{k}.{d}" for k, r in rel.items() for d in r.derived_public),
                  details=details, exact={k: dict(r.exact) for k, r in rel.items()},
                  private=all(r.private for r in parts.values()), mechanism="inconsistency measures (I_MI, I_P, I_R)")
    # each error bar from public parameters and released (private) values only: θ*, the private row bound
    values = out.value | ({"n_bound": details["n_bound_noisy_count"]} if n_bound is None else {})
    return DescribedRelease.of(out, notes=tuple(clamp_notes(out)), error_bar={
        k: (a, values[k]) for k, a in measures_accuracy(epsilon, n_bound, out).items()})


__all__ = ["DEGREE_BOUND", "I_MI", "I_P", "I_P_PAPER", "N_BETA", "N_FRAC", "NEIGHBOURS", "SIZE_BOUND", "STRATEGIES",
           "STRATEGY_LABELS", "Statistics", "THETA_EM", "Table", "VERTEX_COVER", "VERTEX_COVER_TYPO", "basic_em", "clamp_notes",
           "dp_vertex_cover", "dp_vertex_cover_cost", "graph_projection", "graph_projection_cost",
           "laplace_sensitivity", "measures_accuracy", "measures_plan", "measures_split", "noisy_degree_bound",
           "optimized_em",
           "quality_sensitivity", "release_measures"]
