"""Every ε-spending step of local dampening, each declared once (:class:`~dpworkbench.mechanisms.declaration.Mechanism`).

* ``dampening.local_dampening`` / ``dampening.shifted_local_dampening``: LD (Def. 3.4.1) and shifted LD
  (Def. 4.2.1) on a generic utility — the exponential mechanism on D (sensitivity 1) or on u − S (Δu);
* ``dampening.median_<em|pf|ld|sld>`` and ``dampening.percentile_<…>``: quantile selection (Ch. 5; the median is the
  p = 0.5 rank with its own, tighter δ), one declaration per selector, one dispatch (:func:`_selection`);
* ``dampening.priv_top_k_<…>`` and ``dampening.priv_top_k_graph_<…>``: PrivTopk (Alg. 3), k draws of ε/k on the
  EBC of a graph, or of a raw edge list projected into the degree bound (stability 3);
* ``dampening.id3_<global|local|shifted>``: DiffPID3 (Alg. 4), composed of two declared steps per tree level and
  partition: :data:`NOISY_COUNT` (Laplace) and :data:`ID3_SPLIT` (EM / LD / SLD on information gain, or the leaf
  class counts).

The models (utilities, sensitivity functions, EBC, information gain) live in ``model``, ``median``, ``percentile``,
``ebc`` and ``id3``; their public API functions (``select_median``, ``priv_top_k``, ``id3.fit`` …) are thin
wrappers over these declarations. Each declaration's plan is recorded by the framework before any draw; its
``noise(size=R)`` is the research path (``DECL.sample``) through the same code.

References
----------
V. A. E. de Farias, *Local Dampening: Differential Privacy for Non-numeric Queries via Local Sensitivity*, PhD
thesis, UFC 2021 (PVLDB 14(4) 2020): Def. 3.4.1 / Thm 3.5.1 (LD), Def. 4.2.1 / Thm 4.3.1 (SLD), Ch. 5, Alg. 3, Alg. 4.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

import numpy as np

from dpworkbench.accounting import DescribedRelease, LedgerEntry, planned
from dpworkbench.mechanisms import exponential_mechanism, exponential_top_k, laplace_mechanism, permute_and_flip
from dpworkbench.mechanisms.declaration import (ADD_REMOVE_ROW, EDGE, EPSILON, REQUIRED, SUBSTITUTE_ROW, Accuracy, Drawn,
                                                Mechanism, Param, parallel_plan)

from ..model import SensitivityMatrix, dampen, sld_slack, sld_utility

SELECTORS = ("EM", "PF", "LD", "SLD")
_HARNESS_MAX = 64  # per-element statistics (u[i], D[i], …) are exposed for inputs of at most this many candidates


def _elementwise(**bounds: float) -> dict[str, float]:
    """Claimed per-element sensitivities {name[i]: bound}; only names present in the statistics are checked."""
    return {f"{name}[{i}]": float(b) for name, b in bounds.items() for i in range(_HARNESS_MAX)}


def _expose(out: dict, **vectors: Any) -> dict:
    """Add the per-element views of small vectors (what the harness brute-forces against :func:`_elementwise`)."""
    for name, vec in vectors.items():
        vec = np.asarray(vec, float)
        if vec.size <= _HARNESS_MAX:
            out.update({f"{name}[{i}]": float(v) for i, v in enumerate(vec)})
    return out


def ledger_name(selector: str) -> str:
    """LD, SLD and EM are exponential-mechanism draws (on D with sensitivity 1, on u − S or u with Δu); PF is
    permute-and-flip."""
    return "permute-and-flip" if selector == "PF" else "exponential"


def _pick(stats, backend, epsilon: float, selector: str) -> int:
    """One selection on ``stats["score"]`` with sensitivity ``stats["scale"]`` (no spend: the plan is recorded)."""
    f = permute_and_flip if selector == "PF" else exponential_mechanism
    return int(f(stats["score"], epsilon=epsilon, sensitivity=stats["scale"], rng=backend))


def _selection(selector: str, exact=None):
    """The noise of a one-shot selection (one dispatch for LD, SLD, median and percentile)."""
    def noise(stats, backend, size, epsilon, **_):
        if size is not None:
            return np.array([_pick(stats, backend, epsilon, selector) for _ in range(size)], np.int64)
        i = _pick(stats, backend, epsilon, selector)
        return Drawn(i, exact=exact(stats, i) if exact is not None else {})
    return noise


@dataclass(frozen=True)
class SelectionAccuracy(Accuracy):
    """The error bar of a selection (a label, not a number): with probability ≥ 1 − β the selected candidate's
    utility loss against the best candidate is at most ``bound`` (EM and permute-and-flip on n candidates with
    scale s: P(loss ≥ 2s·ln(n/β)/ε) ≤ β, since each candidate r is output with probability at most
    exp(−ε·loss_r/(2s))). ``interval`` is the loss interval [0, bound], capped at ``clip``'s upper end (the public
    range of the loss); ``covers`` says in what units. Noise only."""

    covers: str = ""

    def interval(self, value: Any = None) -> tuple[float, float]:
        hi = self.bound if self.clip is None else min(self.bound, self.clip[1])
        return 0.0, hi


SELECTION_BETA = 0.05


def selection_loss_bound(scale: float, epsilon: float, candidates: int, beta: float = SELECTION_BETA) -> float:
    """2·scale·ln(candidates/β)/ε: the (1 − β) bound on the utility loss of one EM or PF draw."""
    return 2.0 * scale * math.log(max(int(candidates), 1) / beta) / epsilon


def _quantile_accuracy(selector: str, median: bool):
    """|x_selected − x_(k)| for EM, PF (utility −|x_(k) − x_i| with Δ = Λ) and LD (on the dampened utility D with
    sensitivity 1: every δ ≤ Λ, so a loss of d in D is a loss of at most Λ·d in u, and D is 0 at x_(k)); for SLD a
    bound on the loss of its score u − S (score units: the slack S is data-dependent). ``n`` (the number of rows,
    public under substitution) is known once the file is read; before (``--plan``) the bound is a formula in n."""
    what = "median" if median else "p-quantile"

    def accuracy(*, epsilon, lower, upper, n=None, **_):
        lam = float(upper - lower)
        if selector == "SLD":
            covers = f"the loss of the selected row's SLD score u − S against the best row's (score units, not a {what} distance)"
        else:
            covers = f"|x_selected − x_(k)|, the distance of the selected row's clipped value from the {what}"
        if n is None:
            return (f"with probability ≥ {1 - SELECTION_BETA:g}, {covers} ≤ 2Λ·ln(n/β)/ε = "
                    f"{2 * lam / epsilon:.4g}·ln(n/{SELECTION_BETA:g}) for n rows (n is public: the file's lines), "
                    "at most Λ = " f"{lam:g}; noise only")
        b = selection_loss_bound(lam, epsilon, n)
        return SelectionAccuracy(noise_scale=2 * lam / epsilon, bound=b, beta=SELECTION_BETA,
                                 clip=None if selector == "SLD" else (0.0, lam), covers=covers)

    return accuracy


def _topk_accuracy(method: str, graph: bool):
    """Per draw of PrivTopk (ε/k each, union bound over the k draws: β/k each): the selected node's score loss
    against the best node not yet drawn, at most 2s·ln(N·k/β)·k/ε for N public nodes. EM/PF: in EBC (s = the
    stability × ΔEBC(D)); LD/SLD: in their score units (s = the stability)."""
    def accuracy(*, epsilon, k, max_degree_bound=None, stability=1, nodes=None, **_):
        from ..ebc import PROJECTION_STABILITY

        stab = PROJECTION_STABILITY if graph else stability
        s = stab * (_ebc_gs(max_degree_bound) if method in ("EM", "PF") else 1.0)
        units = "EBC" if method in ("EM", "PF") else f"{method} score units, not EBC"
        covers = f"each draw's loss against the best node not yet drawn ({units})"
        if nodes is None:
            return (f"with probability ≥ {1 - SELECTION_BETA:g}, {covers} ≤ 2s·k·ln(N·k/β)/ε = "
                    f"{2 * s * k / epsilon:.4g}·ln({k}N/{SELECTION_BETA:g}) for N nodes in the public node set; noise only")
        b = selection_loss_bound(s, epsilon / k, int(nodes) * k)
        return SelectionAccuracy(noise_scale=2 * s * k / epsilon, bound=b, beta=SELECTION_BETA, covers=covers)

    return accuracy


def _require_admissible(delta: SensitivityMatrix, allow_unverified: bool, what: str) -> None:
    if not isinstance(delta, SensitivityMatrix):
        raise ValueError(f"delta must be a SensitivityMatrix, got {type(delta).__name__}")
    if delta.privacy_unverified and not allow_unverified:
        raise ValueError(f"{what} requires an admissible sensitivity function, but delta {delta.name or ''!s} is marked "
                         "privacy_unverified (e.g. the thesis' median Candidates, which under-estimates the local sensitivity); "
                         "pass allow_unverified=True only for labelled, non-private reproductions of the thesis")


def shaped(rel, *, public: dict | None = None, derived: tuple = (), private: bool | None = None, exact=None):
    """The declaration's release with the API's public fields (all public values) and labels."""
    return replace(rel, public={**rel.public, **(public or {})}, derived_public=derived,
                   private=rel.private if private is None else private, exact={**rel.exact, **(exact or {})})


# ---------------------------------------------------------------------------------------------------------------
# graphs of the harness: a fixed public node set of 6 nodes
# ---------------------------------------------------------------------------------------------------------------
N_NODES = 6


def graph_examples(rng):
    pairs = list(combinations(range(N_NODES), 2))
    out = []
    while len(out) < 2:
        keep = rng.random(len(pairs)) < 0.5
        e = np.array([p for p, k in zip(pairs, keep) if k], dtype=np.int64).reshape(-1, 2)
        if len(e) >= 4:
            out.append((N_NODES, e))
    return out


def _ebc_of(n: int, edges, disk: bool = False) -> tuple[np.ndarray, np.ndarray]:
    from dpworkbench.graphs import from_edge_array

    from ..ebc import ebc_all

    g = from_edge_array(np.asarray(edges, np.int64).reshape(-1, 2), n=int(n))
    return ebc_all(g, cache=True, disk=disk), np.asarray(g.degrees, np.int64)


# ---------------------------------------------------------------------------------------------------------------
# LD and SLD on a generic utility (harness instance: EBC with δ^EBC, edge-DP)
# ---------------------------------------------------------------------------------------------------------------
def _generic_stats(selector: str):
    def stats(data, max_degree_bound, **_):
        from ..ebc import ebc_sensitivity, global_sensitivity_ebc

        e, d = _ebc_of(*data)
        sm = ebc_sensitivity(max_degree_bound, horizon=max_degree_bound).matrix(d)
        gs = global_sensitivity_ebc(max_degree_bound)
        out = ({"score": dampen(e, sm), "scale": 1.0} if selector == "LD"
               else {"score": sld_utility(e, sm, "non-decreasing"), "scale": gs})
        return _expose(out, u=e, dampened=out["score"] / out["scale"])
    return stats


_GENERIC_RELATION = EDGE("the application fixes the relation (δ must be admissible for it); harness instance: EBC "
                         "utilities with δ^EBC on a fixed public node set, ΔEBC from the public max-degree bound")


def _generic(selector: str, name: str, what: str) -> Mechanism:
    return Mechanism(
        name=f"dampening.{name}", summary=f"{what}: one label by the exponential mechanism on "
        + ("D_{u,δ} (sensitivity 1), Def. 3.4.1" if selector == "LD" else "u − S (sensitivity Δu), Def. 4.2.1"),
        relation=_GENERIC_RELATION,
        params=(EPSILON(), Param("max_degree_bound", int, None, "public max-degree bound of the harness instance (EBC)",
                                 low=1)),
        public=("candidate set", "global_sensitivity", "horizon"),
        cost=lambda epsilon, **_: planned(("exponential", epsilon, what)),
        statistics=_generic_stats(selector), noise=_selection("EM"),
        sensitivity=lambda max_degree_bound=None, **_: _elementwise(u=_ebc_gs(max_degree_bound), dampened=1.0),
        examples=graph_examples, harness_params={"epsilon": 1.0, "max_degree_bound": N_NODES - 1},
        harness_samples=3000, references="de Farias 2021, Def. 3.4.1 / Thm 3.5.1, Def. 4.2.1 / Thm 4.3.1")


def _ebc_gs(bound) -> float:
    from ..ebc import global_sensitivity_ebc

    return global_sensitivity_ebc(bound) if bound else math.inf


LOCAL_DAMPENING = _generic("LD", "local_dampening", "local dampening")
SHIFTED_LOCAL_DAMPENING = _generic("SLD", "shifted_local_dampening", "shifted local dampening")


def local_dampening(utilities: Any, delta: SensitivityMatrix, *, epsilon: float, rng=None, accountant=None,
                    note: str = "", allow_unverified: bool = False):
    """M_LD (Def. 3.4.1): ε-DP when δ is admissible (Thm 3.5.1). Spends ε (recorded before the draw).

    ``utilities`` u(x, r) per candidate and ``delta`` δ(x, t, r) for t < T (a :class:`SensitivityMatrix`), both
    computed from the data. ``rng=None``: the OpenDP release back-end; a seed / Generator: a seeded research run.
    Treated as public: the candidate set, ``epsilon``, Δu and the horizon T of δ. Returns a Release whose ``value``
    is the selected index; ``private`` is False when a δ marked ``privacy_unverified`` was allowed. (``note`` is
    kept for compatibility: the ledger note is the declaration's.)
    """
    _require_admissible(delta, allow_unverified, "local dampening")
    rel = LOCAL_DAMPENING.release(None, rng=rng, accountant=accountant, epsilon=epsilon,
                                  statistics={"score": dampen(utilities, delta), "scale": 1.0})
    return shaped(rel, private=not delta.privacy_unverified, public={
        "candidates": int(np.size(utilities)), "global_sensitivity": delta.global_sensitivity,
        "horizon": delta.horizon, "delta": delta.name})


def shifted_local_dampening(utilities: Any, delta: SensitivityMatrix, *, epsilon: float,
                            direction: str = "non-decreasing", rng=None, accountant=None, note: str = "",
                            allow_unverified: bool = False):
    """M_SLD (Def. 4.2.1) via its closed form: ε-DP for admissible, bounded δ (Thm 4.3.1). Spends ε.

    Treated as public: the candidate set, ``epsilon``, Δu, the horizon T and ``direction``."""
    _require_admissible(delta, allow_unverified, "shifted local dampening")
    score = sld_utility(utilities, delta, direction)
    rel = SHIFTED_LOCAL_DAMPENING.release(None, rng=rng, accountant=accountant, epsilon=epsilon,
                                          statistics={"score": score, "scale": delta.global_sensitivity})
    return shaped(rel, private=not delta.privacy_unverified, public={
        "candidates": int(np.size(utilities)), "global_sensitivity": delta.global_sensitivity,
        "horizon": delta.horizon, "direction": direction, "delta": delta.name})


# ---------------------------------------------------------------------------------------------------------------
# quantile selection: median (Ch. 5) and percentile (p-quantile rank), substitution neighbours
# ---------------------------------------------------------------------------------------------------------------
QUANTILE_RELATION = SUBSTITUTE_ROW("substitution: one row's value replaced by any value, the row positions fixed "
                                   "and public (the thesis' Hamming model, Ch. 5)")
LAM = 6  # public range [0, 6] of the harness's small inputs


def check_bounds(lower: float, upper: float, missing: float | None, prefix: str = "") -> float:
    """The public bounds and missing value (checked before the data is read); returns ``missing``. ``prefix``
    (``"--"`` for the CLI) names them as the caller knows them."""
    if not (math.isfinite(lower) and math.isfinite(upper) and upper > lower):
        raise ValueError(f"{prefix}upper must be larger than {prefix}lower, both finite (public domain bounds)")
    missing = float(lower) if missing is None else float(missing)
    if not (math.isfinite(missing) and lower <= missing <= upper):
        raise ValueError(f"{prefix}missing must be a finite number in [{prefix}lower, {prefix}upper] (the public value "
                         "of a missing value)")
    return missing


def quantile_statistics(values: Any, *, selector: str, lower: float, upper: float, missing: float | None = None,
                        horizon: int = 32, p: float | None = None, delta: str = "box", **_) -> dict:
    """The pre-noise values of a quantile selection: the values clipped by the public rules (NaN → ``missing``),
    u(x, i) = −|x_(k) − x_i| (k = ⌈n/2⌉ for the median, ``p is None``, else :func:`percentile.quantile_rank`), and
    the selector's score and scale (EM/PF: u with Λ; LD: D with 1; SLD: u − S with Λ)."""
    from .. import median as M
    from .. import percentile as Q

    missing = check_bounds(lower, upper, missing)
    col = np.asarray(values, dtype=float)
    if col.ndim != 1 or col.size == 0:
        raise ValueError("values must be a non-empty 1-D array")
    lam = float(upper - lower)
    x = np.clip(np.where(np.isnan(col), missing, col), lower, upper) - lower
    u = M.median_utility(x, lam) if p is None else Q.percentile_utility(x, lam, p)
    k = math.ceil(x.size / 2) if p is None else Q.quantile_rank(x.size, p)
    out = {"col": col, "x": x, "lower": float(lower), "lam": lam, "rank": k,
           "target": float(np.sort(x, kind="stable")[k - 1]) + lower}
    if selector in ("EM", "PF"):
        out.update(score=u, scale=lam)
    else:
        if p is not None:
            sm = Q.percentile_matrix(x, lam, p, horizon, min(1.0, lam))
        elif delta == "box":
            sm = M.box_matrix(x, lam, horizon, min(1.0, lam))
        else:
            sm = M.median_sensitivity(lam, delta=delta).with_floor(min(1.0, lam)).with_horizon(horizon).matrix(x)
        out.update({"score": dampen(u, sm), "scale": 1.0} if selector == "LD"
                   else {"score": sld_utility(u, sm, "non-decreasing"), "scale": sm.global_sensitivity})
        out = _expose(out, dampened=out["score"] if selector == "LD" else (u - sld_slack(sm)) / lam)
    return _expose(out, u=u)


def _quantile_exact(stats, i: int) -> dict:
    sel = float(stats["x"][i]) + stats["lower"]
    return {"selected_value": float(stats["col"][i]), "selected_value_clipped": sel}


def _substitutions(x):
    x = np.asarray(x)
    for i in range(x.size):
        for v in range(LAM + 1):
            if v != x[i]:
                y = x.copy()
                y[i] = v
                yield y


def _quantile_examples(rng):
    return [np.array([0, 2, 3, 4, 6]), rng.integers(0, LAM + 1, 5), rng.integers(0, LAM + 1, 6)]


def _thesis_examples(rng):
    """An input on which the thesis' Candidates under-estimate enough for SLD's score u − S to move by 7/6·Λ on a
    neighbour (flagged). No small input found moves LD's D by more than 1: the LD option is declared, not audited."""
    return [np.array([0, 0, 0, 1, 5, 4])]


def read_column(path, column: str | None, *, lower: float, upper: float, missing: float, what: str = "value"):
    """One numeric column of a CSV by the public rules of ``dpworkbench dampening median``: one physical line is one
    row (n, public under substitution, is the number of lines), a value is clipped into [lower, upper], and a blank,
    missing or unparseable cell is ``missing`` — so a release never refuses because of what a cell holds; refusals
    depend only on the header and the number of lines. ``column=None``: a one-column file. Returns the values and
    the NOT PRIVATE counts of rows, clipped and missing cells."""
    from dpworkbench.datasets.public_schema import ColumnSpec, PublicSchema, read_raw_lines

    raw = read_raw_lines(path, "CSV")
    if column is None and raw.shape[1] != 1:
        raise ValueError(f"CSV {path} has {raw.shape[1]} columns: give a one-column CSV (a header, then one value per "
                         "line), or use `dpworkbench dampening median --column NAME`")
    column = raw.columns[0] if column is None else column
    if column not in raw.columns:
        raise ValueError(f"column {column!r} not in {path} (columns: {', '.join(map(str, raw.columns))})")
    if list(raw.columns).count(column) > 1:
        raise ValueError(f"column {column!r} is named twice in the header of {path}")
    if len(raw) == 0:
        raise ValueError(f"CSV {path} has a header but no rows: there is no {what} to select")
    typed, report = PublicSchema((ColumnSpec(column, "float", lower, upper, default=missing),)).apply(raw[[column]])
    values, c = typed[column].to_numpy(float), report.columns[column]
    return values, {"rows": int(values.size), "values_clipped_into_bounds": c["clipped"],
                    "cells_missing_set_to_default": c["null"] + c["unparseable"]}


def load_one_column(path, *, lower: float, upper: float, missing: float | None = None, **_) -> np.ndarray:
    """``dpworkbench release dampening.median_* FILE``: a one-column CSV (a header, then one value per line) read by
    :func:`read_column`."""
    return read_column(path, None, lower=lower, upper=upper, missing=check_bounds(lower, upper, missing))[0]


QUANTILE_P = Param("p", float, REQUIRED, "public quantile level in (0, 1]", low=0.0, open_low=True, high=1.0)


def _quantile(selector: str, median: bool, thesis: bool = False) -> Mechanism:
    """One selector of median (``median``) or percentile selection; ``thesis``: the median with the thesis'
    Candidates δ (Alg. 2, NOT admissible: a labelled paper option, not ε-DP as claimed)."""
    what = "median" if median else "percentile"
    params = (EPSILON(), Param("lower", float, REQUIRED, "public lower bound of the values"),
              Param("upper", float, REQUIRED, "public upper bound of the values"),
              Param("missing", float, None, "public value of a missing value, in [lower, upper] (default lower)"),
              Param("horizon", int, 32, "public horizon T of δ (δ = Λ from T on)", low=1))
    if not median:
        params = params[:1] + (QUANTILE_P,) + params[1:]

    def note(p):
        return f"median {selector}" if median else f"percentile p={p['p']:g} {selector}"

    delta = "thesis_candidates" if thesis else "box"
    return Mechanism(
        name=f"dampening.{what}_{selector.lower()}" + ("_thesis_candidates" if thesis else ""),
        summary=f"private {what} selection by {selector}: releases a row position (not a value)"
        + ("; the thesis' Candidates δ (Alg. 2), NOT admissible: a labelled paper option" if thesis else ""),
        relation=QUANTILE_RELATION, params=params, public=("n",), paper_option=thesis,
        joint_check=lambda p: check_bounds(p["lower"], p["upper"], p["missing"]),
        cost=lambda **p: planned((ledger_name(selector), p["epsilon"], note(p))),
        statistics=lambda values, **p: quantile_statistics(values, selector=selector, delta=delta, **p),
        noise=_selection(selector, _quantile_exact),
        sensitivity=lambda **p: _elementwise(u=p["upper"] - p["lower"],
                                             **({} if selector in ("EM", "PF") else {"dampened": 1.0})),
        truth=lambda stats, **_: stats["target"], accuracy=None if thesis else _quantile_accuracy(selector, median),
        load=None if thesis else load_one_column,
        examples=(None if selector == "LD" else _thesis_examples) if thesis else _quantile_examples,
        neighbours=_substitutions, harness_samples=3000,
        harness_params={"epsilon": 1.0, "lower": 0.0, "upper": float(LAM), **({} if median else {"p": 0.75}),
                        **({"horizon": 4} if thesis else {})},
        references="de Farias 2021, Ch. 5; Lemma 5.2.2 (corrected); Thms 3.5.1, 4.3.1")


MEDIAN = {s: _quantile(s, True) for s in SELECTORS}
MEDIAN_THESIS = {s: _quantile(s, True, thesis=True) for s in ("LD", "SLD")}  # EM and PF use no δ
PERCENTILE = {s: _quantile(s, False) for s in SELECTORS}


def select_quantile(values: Any, p: float | None, *, lower: float, upper: float, epsilon: float, mechanism: str,
                    horizon: int, rng, accountant, missing: float | None, delta: str = "box",
                    allow_unverified: bool = False):
    """The one dispatch of :func:`median.select_median` (``p=None``) and :func:`percentile.select_percentile`: the
    declaration checks the public parameters (with :func:`check_bounds`) before the values are read."""
    params = dict(lower=lower, upper=upper, missing=missing, horizon=horizon, epsilon=epsilon)
    thesis = p is None and delta != "box" and mechanism in ("LD", "SLD")
    if p is None:
        decl = MEDIAN_THESIS[mechanism] if thesis else MEDIAN[mechanism]
        if thesis and not allow_unverified:
            raise ValueError(f"{'local' if mechanism == 'LD' else 'shifted local'} dampening requires an admissible "
                             f"sensitivity function, but delta {delta!r} is marked privacy_unverified (e.g. the thesis' "
                             "median Candidates, which under-estimates the local sensitivity); pass "
                             "allow_unverified=True only for labelled, non-private reproductions of the thesis")
    else:
        decl, params["p"] = PERCENTILE[mechanism], p
    params = decl.check_params(params)
    params["missing"] = check_bounds(params["lower"], params["upper"], params["missing"])
    rel = decl.release(values, rng=rng, accountant=accountant, **params)
    exact = dict(rel.exact)
    exact["true_median" if p is None else "true_percentile"] = exact.pop("truth")
    n = int(np.size(values))
    public = {"mechanism": mechanism, "lambda": params["upper"] - params["lower"], "n": n}
    if p is None:
        public["delta"] = delta
    else:
        from ..percentile import quantile_rank

        public["rank"] = quantile_rank(n, params["p"])
    return shaped(replace(rel, exact=exact), public=public)


def release_column_quantile(path, column: str | None, *, mechanism: str, rng: RngLike = None, progress=None,
                            **params: Any) -> DescribedRelease:
    """:func:`select_quantile` on one column of a CSV read by :func:`read_column`'s public rules (``params``: the
    declaration's, with ``p`` for a percentile, without it the median): the release of a row position with its
    error bar (from the public parameters and n, the number of lines, public under substitution), the header naming
    the rules, and the NOT PRIVATE counts of what they did. ``progress`` (a ``cli.common.Stages``) is told each
    stage."""
    check_options(mechanism, "mechanism", MEDIAN)
    median = params.get("p") is None
    decl, what = (MEDIAN[mechanism], "median") if median else (PERCENTILE[mechanism], "percentile")
    # the public parameters are refused before the file is read (the command checks them first too; a Python caller)
    params = decl.check_params({k: v for k, v in params.items() if not (median and k == "p")})
    params["missing"] = check_bounds(params["lower"], params["upper"], params["missing"])
    if progress is not None:
        progress.next("read CSV")  # one physical line = one row; refusals depend on the header and the number of lines
    values, inputs = read_column(path, column, lower=params["lower"], upper=params["upper"], missing=params["missing"],
                                 what=what)
    if progress is not None:
        progress.next("select")
    p = params.pop("p", None)
    rel = select_quantile(values, p, mechanism=mechanism, rng=rng, accountant=None, **params)
    return DescribedRelease.of(
        rel, error_bar=decl.accuracy(n=int(values.size), **params, **({} if p is None else {"p": p})),
        input_counts=inputs, header=(
            f"{path}: column {column!r}; {mechanism} {what if p is None else f'p = {p:g} percentile'} selection "
            "releases a row position (0-based data row), not a value", f"neighbouring relation: {decl.relation.describe()}",
            f"every line after the header is one row; values outside [--lower, --upper] = [{params['lower']:g}, "
            f"{params['upper']:g}] are clipped into it, and a blank, missing or unparseable cell (or a malformed line) "
            f"counts as --missing = {params['missing']:g} (how many of each is an exact count of the data: shown only "
            "with --show-exact)"))


# ---------------------------------------------------------------------------------------------------------------
# PrivTopk (Alg. 3): k draws with ε/k each, edge-DP on a public node set
# ---------------------------------------------------------------------------------------------------------------
TOPK_RELATION = EDGE("spec §1.1, §4.2; the node set and the max-degree bound behind ΔEBC are public")
GRAPH_RELATION = EDGE("one line of the user's raw edge list; self-loops, repeats and foreign ids are dropped by "
                      "public rules and the graph is projected into the public degree bound (≤ 3 projected edges "
                      "per raw edge)")
K = 2
CLI_BOUND = 2


def topk_plan(epsilon: float, k: int, method: str) -> tuple[LedgerEntry, ...]:
    """k sequential draws with ε/k each (EM/LD/SLD recorded as ``exponential``, PF as ``permute-and-flip``)."""
    return planned(*[(ledger_name(method), epsilon / k, f"PrivTopk {method} draw {j + 1}/{k}") for j in range(k)])


def topk_statistics(ebc: Any, degrees: Any, *, method: str, max_degree_bound: int | None,
                    stability: int = 1, k: int | None = None, **_) -> dict:
    """The pre-noise values of PrivTopk: per node the score the draws run on (EBC with ΔEBC for EM/PF, D with 1 for
    LD, the SLD score with 1), each calibrated to ``stability`` one-edge steps, and the true top-k (NOT PRIVATE)."""
    from ..ebc import check_degree_bound, global_sensitivity_ebc, ld_scores, sld_scores

    ebc = np.asarray(ebc, float)
    degrees = np.asarray(degrees, np.int64)
    bound = check_degree_bound(degrees, max_degree_bound)
    gs = global_sensitivity_ebc(bound)
    if method in ("EM", "PF"):
        score, sens = ebc, gs
    else:
        score, sens = (ld_scores if method == "LD" else sld_scores)(ebc, degrees, max_degree_bound=bound), 1.0
    out = {"ebc": ebc, "score": score, "scale": stability * sens, "bound": bound, "gs": gs}
    return _expose(out, ebc=ebc, **({} if method in ("EM", "PF") else {"score": score}))


def _topk_noise(method: str):
    def noise(stats, backend, size, epsilon, k, **_):
        score, scale = stats["score"], stats["scale"]
        if size is not None:
            from dpworkbench.mechanisms.topk_sampling import sequential_top_k_samples

            e1 = epsilon / k
            lg = e1 * (score - score.max() if method in ("EM", "PF") else score) / (2 * scale)
            return sequential_top_k_samples(lg, k, size, pf=method == "PF", gen=backend.generator)
        if method != "PF":
            return np.asarray(exponential_top_k(score, k, epsilon=epsilon, sensitivity=scale, rng=backend), np.int64)
        remaining, chosen = np.arange(score.size), []
        for _ in range(k):
            j = permute_and_flip(score[remaining], epsilon=epsilon / k, sensitivity=scale, rng=backend)
            chosen.append(int(remaining[j]))
            remaining = np.delete(remaining, j)
        return np.array(chosen, dtype=np.int64)
    return noise


def _topk_truth(stats, k, **_):
    from ..ebc import true_top_k

    return true_top_k(stats["ebc"], k).tolist()


def graph_topk_statistics(data, *, method: str, max_degree_bound: int, disk: bool = False, **_) -> dict:
    """Raw edges → simple graph on the public node set → stable projection into the bound → EBC (stability 3)."""
    from ..ebc import PROJECTION_STABILITY, project_max_degree, simple_graph_on

    n, edges = int(data[0]), data[1]
    und, dropped = simple_graph_on(edges, n)
    kept, cut = project_max_degree(und, n, max_degree_bound)
    e, d = _ebc_of(n, kept, disk)
    out = topk_statistics(e, d, method=method, max_degree_bound=max_degree_bound, stability=PROJECTION_STABILITY)
    out["dropped"] = dict(dropped, edges_dropped_by_degree_projection=cut, num_edges=int(kept.shape[0]))
    return out


def _raw_edge_neighbours(data):
    """Edge-DP neighbours of a raw edge array: every pair toggled, and one raw row added that the public rules
    absorb (a self-loop, a node outside the set, a repeated or reversed edge)."""
    n, e = data[0], np.asarray(data[1], np.int64).reshape(-1, 2)
    have = {tuple(map(int, x)) for x in e}
    for p in combinations(range(n), 2):
        yield n, np.array(sorted(have ^ {p}), dtype=np.int64).reshape(-1, 2)
    for row in ([3, 3], [0, 9], [-1, 2], e[0].tolist(), e[0][::-1].tolist()):
        yield n, np.vstack([e, np.array([row], np.int64)])


def _topk(method: str, graph: bool) -> Mechanism:
    def stats(data, **p):
        if graph:
            return graph_topk_statistics(data, method=method, **p)
        return topk_statistics(*_ebc_of(*data), method=method, **p)

    def sens(**p):
        from ..ebc import PROJECTION_STABILITY, global_sensitivity_ebc

        stab = PROJECTION_STABILITY if graph else p["stability"]
        return _elementwise(ebc=stab * global_sensitivity_ebc(p["max_degree_bound"] or 1),
                            **({} if method in ("EM", "PF") else {"score": float(stab)}))

    params = (EPSILON(), Param("k", int, REQUIRED, "number of nodes released (k draws of ε/k)", low=1),
              Param("max_degree_bound", int, REQUIRED if graph else None, "public max-degree bound D behind ΔEBC",
                    low=1))
    if not graph:
        params += (Param("stability", int, 1, "edges of the graph passed in that one user edge can change", low=1),)
    return Mechanism(
        name=f"dampening.priv_top_k{'_graph' if graph else ''}_{method.lower()}",
        summary=f"{method}PrivTopk: k nodes of highest egocentric betweenness, k draws of ε/k"
        + (" (raw edge list, projected into the degree bound)" if graph else ""),
        relation=GRAPH_RELATION if graph else TOPK_RELATION, params=params, public=("node set",),
        cost=lambda epsilon, k, **_: topk_plan(epsilon, k, method), statistics=stats, noise=_topk_noise(method),
        sensitivity=sens, truth=_topk_truth, examples=graph_examples, accuracy=_topk_accuracy(method, graph),
        neighbours=_raw_edge_neighbours if graph else None, harness_samples=2000 if graph else 3000,
        harness_params={"epsilon": 1.0, "k": K, "max_degree_bound": CLI_BOUND if graph else N_NODES - 1},
        references="de Farias 2021, Alg. 3, Lemma 6.3.2, Def. 6.3.1")


TOPK = {m: _topk(m, False) for m in SELECTORS}
TOPK_GRAPH = {m: _topk(m, True) for m in SELECTORS}


# ---------------------------------------------------------------------------------------------------------------
# DiffPID3 (Alg. 4): declared steps, composed
# ---------------------------------------------------------------------------------------------------------------
ID3_METHODS = ("Global", "Local", "Shifted")
ID3_RELATION = ADD_REMOVE_ROW("spec §1.1 / §7 item 19: ΔIG, Lemma 7.3.1 and the Laplace NoisyCount are for this "
                              "relation; attribute domains, the class domain and the size bound N are public")

NOISY_COUNT = Mechanism(
    name="dampening.noisy_count", summary="NoisyCount: the number of rows + Laplace(stability/ε)",
    relation=ADD_REMOVE_ROW("one partition's rows"),
    params=(EPSILON(), Param("stability", int, 1, "add/remove steps one user row can make", low=1)),
    cost=lambda epsilon, **_: planned(("laplace", epsilon, "NoisyCount")),
    statistics=lambda rows, **_: {"count": float(len(rows))},
    noise=lambda stats, backend, size, epsilon, stability: laplace_mechanism(
        stats["count"] if size is None else np.full(size, stats["count"]), epsilon=epsilon,
        sensitivity=float(stability), rng=backend),
    sensitivity=lambda stability, **_: {"count": float(stability)}, register=False)


def _split_scores(cnts, utils, method: str, criterion: str, gs: float, horizon: int, stab: int) -> dict:
    """Score and scale of one split selection (EM on u, LD on D, SLD on u − S), every sensitivity × ``stab``."""
    from ..id3 import CRITERION_SENSITIVITY, ig_delta_matrix

    if method == "Global" or criterion != "ig":
        return {"score": utils, "scale": stab * (gs if criterion == "ig" else CRITERION_SENSITIVITY[criterion])}
    dm = ig_delta_matrix(cnts, gs, horizon)
    if method == "Local":
        return {"score": dampen(utils, dm), "scale": float(stab)}
    return {"score": np.asarray(utils) - np.sum(gs - dm.values, axis=1), "scale": stab * gs}


ID3_SPLIT = Mechanism(
    name="dampening.id3_split", summary="one DiffPID3 split: EM / LD / SLD on the attributes' information gain",
    relation=ADD_REMOVE_ROW("one partition's rows"), params=(EPSILON(),),
    cost=lambda epsilon: planned(("exponential", epsilon, "split selection")),
    statistics=lambda data, **_: data, noise=_selection("EM"), register=False)

LEAF_COUNTS = Mechanism(
    name="dampening.id3_leaf", summary="DiffPID3 leaf: the class counts + Laplace, the noisy majority class",
    relation=ADD_REMOVE_ROW("one partition's rows (the classes are disjoint: one histogram)"),
    params=(EPSILON(), Param("stability", int, 1, low=1)),
    cost=lambda epsilon, **_: planned(("laplace", epsilon, "leaf class counts")),
    statistics=lambda counts, **_: {"counts": counts},
    noise=lambda stats, backend, size, epsilon, stability: _leaf(stats["counts"], backend, epsilon, stability)
    if size is None else np.array([_leaf(stats["counts"], backend, epsilon, stability) for _ in range(size)]),
    register=False)


def _leaf(counts, backend, epsilon: float, stability: int) -> int:
    """The noisy majority class: one Laplace draw per class count (disjoint classes: one histogram)."""
    return int(np.argmax([laplace_mechanism(c, epsilon=epsilon, sensitivity=float(stability), rng=backend)
                          for c in counts]))


def id3_plan(epsilon: float, depth: int, selector: str) -> tuple[LedgerEntry, ...]:
    """ε' = B/(2(d+1)) per query; each of the d+1 levels is one parallel block over the level's disjoint partitions,
    in which every partition spends ε' on :data:`NOISY_COUNT` and ε' on :data:`ID3_SPLIT` or, at a leaf, on
    :data:`LEAF_COUNTS`. Levels compose sequentially: total 2ε'(d+1) = B."""
    eps = epsilon / (2 * (depth + 1))
    out: tuple[LedgerEntry, ...] = ()
    for level in range(depth + 1):
        count = replace(NOISY_COUNT.plan(epsilon=eps)[0], note=f"level {level}: NoisyCount per partition")
        if level == depth:
            second = replace(LEAF_COUNTS.plan(epsilon=eps)[0], note=f"level {level}: leaf class counts per partition")
        else:  # a partition of an inner level either splits or stops at a leaf: one of the two, ε' either way
            split, leaf = ID3_SPLIT.plan(epsilon=eps)[0], LEAF_COUNTS.plan(epsilon=eps)[0]
            second = LedgerEntry(f"{split.mechanism} or {leaf.mechanism}", eps,
                                 f"level {level}: split selection ({selector}) or leaf class counts per partition")
        out += parallel_plan(f"DiffPID3 level {level} (disjoint partitions)", [(count, second)], block=level)
    return out


@dataclass(frozen=True)
class FittedTree:
    """A DiffPID3 tree with its public domains. As an array (what the harness audits): the root attribute (−1 for a
    leaf) and the predicted class at every point of the public attribute grid (small domains only)."""

    root: Any
    domains: tuple[int, ...]

    def __array__(self, dtype=None, copy=None):
        from itertools import product

        from ..id3 import predict

        grid = np.array(list(product(*[range(d) for d in self.domains])), np.int64).reshape(-1, len(self.domains))
        attr = -1 if self.root.attr is None else self.root.attr
        return np.concatenate([[attr], predict(self.root, grid)]).astype(dtype or float)


def _id3_rows(data, domains: str, n_classes: int, n_bound: int | None):
    from ..id3 import rows_used

    X, y = (data[0], data[1]) if isinstance(data, tuple) else (data.iloc[:, :-1].to_numpy(np.int64),
                                                               data.iloc[:, -1].to_numpy(np.int64))
    return rows_used(np.asarray(X), np.asarray(y), _domains(domains), n_classes, n_bound)


def _domains(text: str) -> list[int]:
    return [int(v) for v in str(text).split(",") if v.strip()]


def _id3_statistics(method: str):
    def stats(data, *, domains, n_classes, n_bound=None, horizon=1024, criterion="ig", **_):
        from ..id3 import contingencies, delta_ig_global, utilities_ig

        X, y, n_bound, stab, dropped, cut = _id3_rows(data, domains, n_classes, n_bound)
        dom = _domains(domains)
        gs = delta_ig_global(n_bound)
        out = {"X": X, "y": y, "n_bound": n_bound, "stab": stab, "gs": gs,
               "exact": {"n_rows": int(X.shape[0]), "rows_beyond_n_bound_cut": cut,
                         "rows_out_of_domain_dropped": dropped}}
        if X.shape[0] <= _HARNESS_MAX and X.shape[1] <= 4 and max(dom, default=0) <= 4:  # the harness's root views
            out["count"] = float(X.shape[0])
            out.update({f"class[{c}]": float((y == c).sum()) for c in range(n_classes)})
            for a, size in enumerate(dom):
                for v in range(size):
                    m = X[:, a] == v
                    out[f"count[a{a}={v}]"] = float(m.sum())
                    out.update({f"class[a{a}={v},{c}]": float((y[m] == c).sum()) for c in range(n_classes)})
            attrs = list(range(X.shape[1]))
            cnts = contingencies(X, y, attrs, dom, n_classes)
            u = utilities_ig(cnts)
            split = _split_scores(cnts, u, method, criterion, gs, horizon, stab)
            _expose(out, u_ig=u, **({} if method == "Global" else {"score": split["score"] / split["scale"]}))
        return out
    return stats


def _id3_sensitivity(method: str):
    def sens(*, domains, n_classes, n_bound=None, **_):
        from ..id3 import delta_ig_global

        # With a public N, rows beyond it are cut: a raw add/remove is ≤ 2 add/remove steps of the rows used, so
        # every one-step bound doubles (fit calibrates to stab = 2); a single count still moves by ≤ 1.
        stab = 1 if n_bound is None else 2
        dom = _domains(domains)
        out = {"count": 1.0, **{f"class[{c}]": 1.0 for c in range(n_classes)}}
        out.update({f"count[a{a}={v}]": 1.0 for a, s in enumerate(dom) for v in range(s)})
        out.update({f"class[a{a}={v},{c}]": 1.0 for a, s in enumerate(dom) for v in range(s) for c in range(n_classes)})
        out.update(_elementwise(u_ig=stab * delta_ig_global(n_bound or 1), score=1.0))  # score/scale: 1 (Lemma 3.3.1)
        return out
    return sens


def _id3_noise(method: str):
    def noise(stats, backend, size, *, epsilon, depth, domains, n_classes, criterion="ig", horizon=1024, **_):
        from ..id3 import Node, contingencies, utilities_ig, utility

        if size is not None:
            out = np.empty(size, dtype=object)
            out[:] = [noise(stats, backend, None, epsilon=epsilon, depth=depth, domains=domains, n_classes=n_classes,
                            criterion=criterion, horizon=horizon).value for _ in range(size)]
            return out
        X, y, stab, gs, dom = stats["X"], stats["y"], stats["stab"], stats["gs"], _domains(domains)
        eps = epsilon / (2 * (depth + 1))

        def build(idx, attrs, d):
            Xs, ys = X[idx], y[idx]
            nt = NOISY_COUNT.noise({"count": float(idx.size)}, backend, None, epsilon=eps, stability=stab)
            t_a = max(dom[a] for a in attrs) if attrs else 1  # max #values over the remaining attributes (public)
            if not attrs or d == 0 or nt / (t_a * n_classes) < math.sqrt(2) / eps:
                counts = np.bincount(ys, minlength=n_classes).astype(float)
                return Node(label=LEAF_COUNTS.noise({"counts": counts}, backend, None, epsilon=eps, stability=stab))
            cnts = contingencies(Xs, ys, attrs, dom, n_classes)
            utils = utilities_ig(cnts) if criterion == "ig" else np.array([utility(c, criterion) for c in cnts])
            split = _split_scores(cnts, utils, method, criterion, gs, horizon, stab)
            a = attrs[ID3_SPLIT.noise(split, backend, None, epsilon=eps).value]
            rest = [b for b in attrs if b != a]
            col = Xs[:, a]
            return Node(attr=a, children=[build(idx[col == v], rest, d - 1) for v in range(dom[a])])

        tree = build(np.arange(X.shape[0]), list(range(X.shape[1])), depth)
        return Drawn(FittedTree(tree, tuple(dom)), exact=stats["exact"])
    return noise


def _id3_examples(rng):
    import pandas as pd

    return [pd.DataFrame({"a0": rng.integers(0, 2, n), "a1": rng.integers(0, 2, n), "y": rng.integers(0, 2, n)})
            for n in (5, 6)]


def _id3_neighbours(df):
    import pandas as pd

    from dpworkbench.testing.harness import row_neighbours

    universe = pd.DataFrame([(a, b, c) for a in range(2) for b in range(2) for c in range(2)], columns=df.columns)
    return row_neighbours(df, universe)


def _id3(method: str) -> Mechanism:
    selector = {"Global": "EM", "Local": "LD", "Shifted": "SLD"}[method]
    return Mechanism(
        name=f"dampening.id3_{method.lower()}",
        summary=f"{method}DiffPID3: a private ID3 decision tree (NoisyCount + {selector} split per partition)",
        relation=ID3_RELATION,
        params=(EPSILON(), Param("depth", int, REQUIRED, "maximal depth d", low=1),
                Param("domains", str, REQUIRED, "public domain sizes of the attributes, comma-separated"),
                Param("n_classes", int, REQUIRED, "public number of classes", low=2),
                Param("n_bound", int, None, "public size bound N behind ΔIG (rows beyond it are cut)", low=1),
                Param("horizon", int, 1024, "public horizon T of δ", low=1),
                Param("criterion", str, "ig", "split criterion (Gini and Max are EM-only)",
                      choices=("ig", "gini", "max") if method == "Global" else ("ig",))),
        cost=lambda epsilon, depth, **_: id3_plan(epsilon, depth, selector),
        statistics=_id3_statistics(method), noise=_id3_noise(method), sensitivity=_id3_sensitivity(method),
        examples=_id3_examples, neighbours=_id3_neighbours, harness_samples=2000,
        harness_params={"epsilon": 2.0, "depth": 1, "domains": "2,2", "n_classes": 2, "n_bound": 5},
        references="de Farias 2021, Ch. 7 (DiffPID3), Lemma 7.3.1")


ID3 = {m: _id3(m) for m in ID3_METHODS}


# ---------------------------------------------------------------------------------------------------------------
# the paper's API: thin wrappers over the declarations (moved here from ebc, median, percentile and id3, which now
# hold only their models, so no model module imports this package)
# ---------------------------------------------------------------------------------------------------------------
from ..ebc import METHODS as TOPK_METHODS, PROJECTION_STABILITY, check_degree_bound, simple_graph_on, true_top_k  # noqa: E402
from ..id3 import delta_ig_global, predict  # noqa: E402
from ..median import DELTAS  # noqa: E402
from dpworkbench._validation import check_int, check_options  # noqa: E402
from dpworkbench.mechanisms.backends import as_generator  # noqa: E402
from dpworkbench.accounting import Accountant  # noqa: E402
from dpworkbench.mechanisms.backends import RngLike, check_rng  # noqa: E402


def priv_top_k(ebc: Any, degrees: Any, k: int, *, epsilon: float, method: str = "SLD", max_degree_bound: int | None = None,
               rng: RngLike = None, accountant: Accountant | None = None, stability: int = 1):
    """PrivTopk (Alg. 3) over V∖Ω: k draws with ε/k each — the declarations ``dampening.priv_top_k_<em|pf|ld|sld>``
    (:data:`.mechanisms.TOPK`). Spends ε in total (k ledger entries, recorded before the draws).

    EM/LD/SLD use one-shot Gumbel-top-k of the noise back-end (equal in law to k sequential draws without
    replacement); PF runs k sequential permute-and-flip passes on the remaining nodes.

    Parameters
    ----------
    ebc, degrees:
        EBC(v) and d(v) for every node of the public node set (index = node label).
    k, epsilon, method:
        Number of nodes, total budget B (ε/k per draw), ``"EM"``, ``"PF"``, ``"LD"`` or ``"SLD"``.
    max_degree_bound:
        Public bound Δ on the max degree (ΔEBC = g(Δ), δ^EBC saturates at t = Δ − d_v). ``None`` takes the graph's
        true max degree — *derived from the data* (as the thesis assumes it public); recorded in
        ``Release.derived_public``. Pass a data-independent bound for a strict release.
    stability:
        How many edges of the graph passed in can change when the user's graph gains or loses one edge: 1 for the
        user's own graph; :data:`PROJECTION_STABILITY` (3) for a graph projected by :func:`project_max_degree`.
    rng:
        An int seed / Generator: a seeded research run. The release back-end (``None``) is refused: the input here
        is statistics of the graph, so its precondition (every degree ≤ ``max_degree_bound``) is a property of the
        private graph that no public rule can restore; :func:`priv_top_k_graph` is the release entry point (it
        projects the raw edge list into the public bound first).

    Treated as public: the node set, ``k``, ``epsilon``, ``method``, ``max_degree_bound`` (hence ΔEBC and the horizon
    of δ^EBC). Neighbouring relation: edge-DP on the fixed node set (one edge added or removed).

    Returns
    -------
    Release
        ``value`` = the k selected node indices, in draw order; ``exact`` (NOT PRIVATE): the true top-k and the overlap.

    References
    ----------
    de Farias 2021, Alg. 3 (PrivTopk), Lemma 6.3.2, Def. 6.3.1.
    """

    if not check_rng(rng).seeded:  # before anything reads the scores: the refusal depends on no data
        raise ValueError("priv_top_k takes the graph's EBC scores and degrees, whose degree bound no public rule can "
                         "enforce; release through priv_top_k_graph (the raw edge list, projected into the bound), or "
                         "pass a seed for a research run")
    check_options(method, "method", TOPK)
    p = TOPK[method].check_params({"epsilon": epsilon, "k": k, "max_degree_bound": max_degree_bound,
                                   "stability": stability})  # the declared constraints, before the scores are read
    epsilon, k = p["epsilon"], p["k"]
    ebc = np.asarray(ebc, float)
    degrees = np.asarray(degrees, np.int64)
    if ebc.size == 0:
        raise ValueError("graph has no nodes")
    if k > ebc.size:
        raise ValueError(f"k={k} is larger than the number of nodes ({ebc.size})")
    derived = () if max_degree_bound is not None else ("max_degree_bound",)
    p["max_degree_bound"] = bound = check_degree_bound(degrees, p["max_degree_bound"])
    stats = topk_statistics(ebc, degrees, method=method, max_degree_bound=bound, stability=p["stability"])
    rel = TOPK[method].release(None, rng=rng, accountant=accountant, statistics=stats, **p)
    truth = rel.exact["truth"]
    public = {"method": method, "epsilon_per_draw": epsilon / k, "delta_ebc": stats["gs"], "num_nodes": int(ebc.size)}
    if p["stability"] == 1:
        rel = replace(rel, public={k_: v for k_, v in rel.public.items() if k_ != "stability"})
    return shaped(replace(rel, exact={}), public=public, derived=derived, exact={
        "true_top_k": truth, "overlap_with_true_top_k": int(np.isin(rel.value, truth).sum())})


def priv_top_k_graph(edges: Any, num_nodes: int, k: int, *, epsilon: float, max_degree_bound: int | None,
                     method: str = "SLD", rng: RngLike = None, accountant: Accountant | None = None):
    """PrivTopk on a user's raw graph, total whatever the graph: the release entry point for an edge list.

    The graph on the public node set 0..num_nodes−1 is made simple by :func:`simple_graph_on`, projected into the
    public ``max_degree_bound`` by :func:`project_max_degree` (≤ 3 projected edges per raw edge), and PrivTopk runs
    on the projection with ``stability=3`` (every draw calibrated to three edge steps). Nothing is refused because
    of the graph: its degrees, self-loops, repeats and foreign ids are handled by the public rules above.

    Treated as public: ``num_nodes`` (the node set), ``k``, ``epsilon``, ``method``, ``max_degree_bound`` (``None``:
    the simple graph's max degree, *derived from the data*: a seeded research run only, recorded in
    ``Release.derived_public``; refused on the release back-end).
    Neighbouring relation: :data:`RELATION` (one edge added or removed), on the raw graph.

    Returns the :func:`priv_top_k` release; ``exact`` (NOT PRIVATE) adds the counts of what the rules dropped.
    """

    n = check_int(num_nodes, "num_nodes", minimum=1)
    check_options(method, "method", TOPK_GRAPH)
    derived = () if max_degree_bound is not None else ("max_degree_bound",)
    if max_degree_bound is None and not check_rng(rng).seeded:  # a release's public inputs are arguments
        raise ValueError("max_degree_bound is a public input of a release: pass it (only a seeded research run may "
                         "derive it from the graph)")
    if max_degree_bound is None:  # research run: the true max degree (the projection is then the identity)
        max_degree_bound = max(int(np.bincount(simple_graph_on(edges, n)[0].ravel(), minlength=n).max(initial=0)), 1)
    p = TOPK_GRAPH[method].check_params({"epsilon": epsilon, "k": k, "max_degree_bound": max_degree_bound})
    if p["k"] > n:
        raise ValueError(f"k={p['k']} is larger than the number of nodes ({n})")
    stats = graph_topk_statistics((n, edges), method=method, max_degree_bound=p["max_degree_bound"], disk=True)
    rel = TOPK_GRAPH[method].release((n, edges), rng=rng, accountant=accountant, statistics=stats, **p)
    truth = rel.exact["truth"]
    return replace(rel, derived_public=derived, public={
        **rel.public, "method": method, "epsilon_per_draw": p["epsilon"] / p["k"], "delta_ebc": stats["gs"], "num_nodes": n,
        "stability": PROJECTION_STABILITY},
                   exact={"true_top_k": truth, "overlap_with_true_top_k": int(np.isin(rel.value, truth).sum()),
                          **stats["dropped"]})


def priv_top_k_nodes(edges: Any, ids: Any, k: int, *, epsilon: float, max_degree_bound: int | None,
                     method: str = "SLD", rng: RngLike = None, node_set: str | None = None, source: str = "edge list",
                     input_counts: dict | None = None) -> DescribedRelease:
    """:func:`priv_top_k_graph` on an edge list read onto a node set (``edges`` indices into the sorted node ids
    ``ids``, −1 outside it, as :meth:`~dpworkbench.cli.common.EdgeListScan.on_nodes` gives them), released as node
    ids. ``node_set``: where the public node set came from (e.g. its file); ``None``: the ids in the edge list,
    *derived from the data* (a research run; recorded in ``derived_public``). The release carries its error bar
    (from the node-set size and the bound, both public), the header naming the projection rule, and the NOT PRIVATE
    counts of what the public rules dropped (``input_counts``, the reader's first)."""
    if node_set is None and not check_rng(rng).seeded:  # as the degree bound: a release never derives its node set
        raise ValueError("the node set is a public input of a release: name it (only a seeded research run may take "
                         "the ids in the edge list)")
    rel = priv_top_k_graph(edges, ids.size, k, epsilon=epsilon, method=method, rng=rng,
                           max_degree_bound=max_degree_bound)  # None (research run only): derived
    bound, decl = rel.public["max_degree_bound"], TOPK_GRAPH[method]
    nodes = f"{node_set} ({ids.size} nodes)" if node_set else f"ids in the edge list ({ids.size} nodes)"
    return DescribedRelease(
        value=[ids[v].item() for v in rel.value], ledger=rel.ledger, public=dict(rel.public, **{"node set": nodes}),
        derived_public=rel.derived_public + (() if node_set else ("node set",)), details=rel.details,
        exact={"true_top_k": [ids[v].item() for v in rel.exact["true_top_k"]],
               **{c: rel.exact[c] for c in ("overlap_with_true_top_k", "num_edges")}},
        private=rel.private, mechanism=rel.mechanism,
        error_bar=decl.accuracy(epsilon=epsilon, k=k, max_degree_bound=bound, nodes=ids.size),
        input_counts={**(input_counts or {}), **{c: v for c, v in rel.exact.items() if "_dropped" in c}}, header=(
            f"{source}: {method}PrivTopk k={k} releases node ids ({k} draws with ε/k = {epsilon / k:g} each)",
            f"neighbouring relation: {decl.relation.describe()}",
            f"the graph is projected into max degree ≤ {bound} by a stable public rule (an edge is kept iff it is among"
            f" the first {bound} edges of both its endpoints in node-pair order); one edge added or removed changes at "
            f"most {PROJECTION_STABILITY} projected edges, and every draw is calibrated to that"))


def top_k_accuracy(ebc: Any, degrees: Any, k: int, *, epsilon: float, method: str, runs: int, rng=None,
                   max_degree_bound: int | None = None) -> float:
    """Mean |retrieved ∩ true top-k| / k over ``runs`` simulations (scores computed once; the declaration's
    ``sample(size=runs)``, research noise drawn in one batch).

    References
    ----------
    de Farias 2021, §6.5, Fig. 20.
    """
    runs = check_int(runs, "runs", minimum=1)
    ebc = np.asarray(ebc, float)
    if k > ebc.size:
        raise ValueError(f"k={k} is larger than the number of nodes ({ebc.size})")

    check_options(method, "method", TOPK_METHODS)
    stats = topk_statistics(ebc, degrees, method=method, max_degree_bound=max_degree_bound)
    got = TOPK[method].sample(stats, size=runs, rng=rng, epsilon=epsilon, k=k, max_degree_bound=stats["bound"])
    truth = np.zeros(ebc.size, bool)
    truth[true_top_k(ebc, k)] = True
    return float(truth[got].sum()) / (k * runs)


def privacy_cost_median(epsilon: float, mechanism: str = "LD"):
    """The ledger of :func:`select_median` (the declaration's plan): one selection with the full ε (spec §2.7)."""

    check_options(mechanism, "mechanism", MEDIAN)
    return MEDIAN[mechanism].plan(epsilon=epsilon, lower=0.0, upper=1.0)


def select_median(values: Any, *, lower: float, upper: float, epsilon: float, mechanism: str = "LD", horizon: int = 32,
                  delta: str = "box", rng: RngLike = None, accountant=None, allow_unverified: bool = False,
                  missing: float | None = None):
    """Private median *selection* (thesis Ch. 5): the label (row position) of an element close to the median.

    The declarations ``dampening.median_<em|pf|ld|sld>`` (:data:`.mechanisms.MEDIAN`): range = the row positions
    {0, …, n−1}, u(x, i) = −|x_m − x_i| on the values clipped to the public [lower, upper] (Λ = upper − lower; a NaN
    takes the public ``missing``, default ``lower``). EM and PF run with Δu = Λ; LD / SLD (Thm 3.5.1 / 4.3.1) with the
    corrected LS0 and the admissible box bound (``delta="box"``), or the thesis' Candidates
    (``delta="thesis_candidates"``: NOT admissible, refused unless ``allow_unverified=True``, then ``private=False``).
    The proof covers the selected *position* only: the selected row's value is a raw data value, kept in
    ``Release.exact`` (NOT PRIVATE, clipped as ``selected_value_clipped``) with the true median (the absolute error
    between the two is the caller's: :func:`dpworkbench.experiments.metrics.absolute_error`).

    Treated as public: ``lower``, ``upper``, ``missing``, n (fixed under substitution), ``horizon``, ``mechanism``,
    ``epsilon``. Neighbouring relation: substitution of one row's value (not add/remove: the labels would shift and
    the range would reveal n). ``rng=None``: the OpenDP release back-end; a seed / Generator: a research run.

    References
    ----------
    de Farias 2021, Ch. 5 (median selection), Lemma 5.2.2 (corrected); spec §3.4.
    """

    check_options(mechanism, "mechanism", MEDIAN)
    check_options(delta, "delta", DELTAS)
    return select_quantile(values, None, lower=lower, upper=upper, epsilon=epsilon, mechanism=mechanism,
                           horizon=horizon, rng=rng, accountant=accountant, missing=missing, delta=delta,
                           allow_unverified=allow_unverified)


def select_percentile(values: Any, p: float, *, lower: float, upper: float, epsilon: float, mechanism: str = "LD",
                      horizon: int = 32, rng: RngLike = None, accountant=None, missing: float | None = None):
    """Private p-quantile *selection*: the label (row position) of an element close to the p-quantile.

    The declarations ``dampening.percentile_<em|pf|ld|sld>`` (:data:`.mechanisms.PERCENTILE`; one dispatch with the
    median, :func:`.mechanisms.select_quantile`): range = the row positions, u(x, i) = −|x_(k) − x_i| with
    k = ⌈p·n⌉ on the values clipped to the public [lower, upper] (NaN → ``missing``, default ``lower``). EM and PF
    run with Δu = Λ; LD (Thm 3.5.1) and SLD (Thm 4.3.1) with the admissible, bounded δ proved in this module's
    docstring. The selected row's value is not released (``Release.exact``, NOT PRIVATE).

    Treated as public: ``p``, ``lower``, ``upper``, ``missing``, n, ``horizon``, ``mechanism``, ``epsilon``.
    Neighbouring relation: substitution of one row's value, n and the positions fixed.

    References
    ----------
    de Farias 2021, Ch. 5 generalised to rank ⌈p·n⌉; Defs. 3.2.1–3.2.2, Thms 3.5.1, 4.3.1.
    """

    check_options(mechanism, "mechanism", PERCENTILE)
    p = QUANTILE_P.check(p)  # here, not only in the declaration: select_quantile reads p=None as the median
    return select_quantile(values, p, lower=lower, upper=upper, epsilon=epsilon, mechanism=mechanism,
                           horizon=horizon, rng=rng, accountant=accountant, missing=missing)


def id3_privacy_cost(budget: float, depth: int, method: str = "Shifted", criterion: str = "ig"):
    """The ledger :func:`fit` records (the declaration's plan, spec §2.7; :func:`.mechanisms.id3_plan`): ε = B/(2(d+1))
    per query; each of the d+1 tree levels is one parallel block over the level's disjoint partitions, in which every
    partition spends ε on NoisyCount and ε on the split selection or, at a leaf, on the Laplace class counts."""

    check_options(method, "method", ID3)
    # the criterion as given: the declaration refuses Gini / Max for the LD methods, as fit does
    p = _id3_params(method, budget=budget, depth=depth, domains="2", n_classes=2, criterion=criterion)
    return ID3[method].plan(**p)


def _id3_params(method: str, *, budget: float, **params: Any) -> dict:
    """``ID3[method]``'s parameters checked by its declaration, ε named ``budget`` as the API calls it."""
    return ID3[method].check_params({"epsilon": budget, **params}, labels={"epsilon": "budget"})


def id3_fit(X: Any, y: Any, domains: list[int], n_classes: int, *, depth: int, budget: float, method: str = "Shifted",
        criterion: str = "ig", n_bound: int | None = None, horizon: int = 1024, rng: RngLike = None, accountant=None):
    """DiffPID3 family (Alg. 4): GlobalDiffPID3 (EM), LocalDiffPID3 (LD), ShiftedLocalDiffPID3 (SLD). Spends ``budget``.

    The ledger is recorded before any noise is drawn: one parallel block per tree level (:func:`privacy_cost`).
    All noise comes from one back-end: NoisyCount and the leaf class counts by ``add_laplace``, the split
    selections by ``gumbel_argmax`` (EM, LD and SLD are exponential-mechanism draws).

    Parameters
    ----------
    X, y:
        Integer-coded attributes (n×d) and class codes.
    domains, n_classes:
        Public domain sizes of the attributes and of the class (the tree iterates over the full public domains).
    depth, budget:
        Maximal depth d and total budget B; each query gets ε = B/(2(d+1)).
    method, criterion:
        ``"Global"``/``"Local"``/``"Shifted"``; ``"ig"`` (Gini / Max are EM-only).
    n_bound:
        Public upper bound N on the data set size behind ΔIG = log2(N+1) + 1/ln 2. Rows beyond it are handled by a
        public rule: the tree is grown on the first N rows in input order, and every query is calibrated to twice its
        one-row sensitivity, so the release is ε-DP whatever the number of rows (proof in the code). ``None`` uses
        the number of rows — *derived from the data* (not public under add/remove; recorded in
        ``Release.derived_public``; a research run).
    horizon:
        Public horizon T of δ (δ = ΔIG from T on): must not depend on the data.
    rng:
        ``None``: the OpenDP release back-end; an int seed / Generator: seeded research run (not a release).

    Treated as public
    -----------------
    ``domains``, ``n_classes``, ``depth``, ``budget``, ``method``, ``criterion``, ``n_bound`` (hence ΔIG), ``horizon``;
    the candidate set of every split (the attributes not yet used on the path: determined by the public tree shape).

    Neighbouring relation
    ---------------------
    Add/remove one row at any position (ΔIG, Lemma 7.3.1 and the counts' sensitivity 1 are for this relation).

    Returns
    -------
    Release
        ``value`` = the tree (:class:`Node`), a post-processing of the noisy counts and selections.

    References
    ----------
    de Farias 2021, Ch. 7 (DiffPID3), Lemma 7.3.1.
    """


    if y is None:
        raise ValueError("class attribute missing: y (the class codes) is required")
    X = np.asarray(X); y = np.asarray(y)
    if X.ndim != 2 or y.ndim != 1 or X.shape[0] != y.size:  # shapes: the public column layout, not the rows
        raise ValueError(f"X must be n×d and y must have n entries (class attribute missing?); got {X.ndim}-D X with "
                         f"{X.shape[1] if X.ndim == 2 else '?'} columns and {y.ndim}-D y, or different row counts")
    if len(domains) != X.shape[1]:
        raise ValueError(f"domains must give one public domain size per attribute: {len(domains)} sizes for {X.shape[1]} attributes")
    check_options(method, "method", ID3)
    if criterion != "ig" and method != "Global":  # the declaration refuses it too; this says why
        raise ValueError("Gini and Max (Friedman & Schuster) are EM-only: use method='Global'")
    p = _id3_params(method, budget=budget, depth=depth, domains=",".join(str(int(d)) for d in domains),
                    n_classes=n_classes, n_bound=n_bound, horizon=horizon, criterion=criterion)
    derived = () if n_bound is not None else ("n_bound",)
    # Rows beyond the public N (issue 21, finding 7): ΔIG(N) only holds for data sets of ≤ N rows, so the tree is
    # grown on the FIRST N rows in input order, and every draw is calibrated for two add/remove steps (stab = 2).
    # Proof: let D' = D + r (r at any position). If |D'| ≤ N nothing is cut. Otherwise the first N rows of D' are
    # the first N of D, or those with r inserted and the N-th row of D pushed out: a substitution, reached by
    # removing the pushed-out row (≤ N−1 rows) and then adding r (N rows). Both steps stay within N rows, where every
    # query (NoisyCount, the split selection, the leaf counts) is (ε/2)-DP when calibrated to twice its one-step
    # sensitivity; by group privacy the pair costs ε per query, as the ledger records. A derived N (None: the row
    # count, a research run) cuts nothing and keeps stab = 1, so seeded research figures are unchanged.

    rel = ID3[method].release((X, y), rng=rng, accountant=accountant, **p)
    stab = 1 if n_bound is None else 2
    n_bound = max(rel.exact["n_rows"], 1) if n_bound is None else p["n_bound"]
    gs = delta_ig_global(n_bound)
    return shaped(replace(rel, value=rel.value.root), derived=derived, public={
        "method": method, "budget": p["epsilon"], "epsilon_per_query": p["epsilon"] / (2 * (p["depth"] + 1)),
        "domains": list(map(int, domains)), "n_bound": n_bound, "delta_ig": gs, "stability": stab,
        "utility_sensitivity": stab * gs})


def id3_cross_validate(X, y, domains, n_classes, *, depth, budget, method, folds=10, rng=None, criterion="ig", horizon=1024,
                   split_rng=None) -> float:
    """Mean accuracy over a k-fold CV (one run; repeat with different rng for '10 runs').

    Research helper, NOT a release: the accuracy is measured on the data's own held-out folds (exact).

    ``split_rng`` (optional) draws the fold split separately from the noise, so that several methods and budgets
    can share the same folds (paired comparison; the non-private statistics are then reused from the cache).

    References
    ----------
    de Farias 2021, Ch. 7 (10-fold CV).
    """
    gen = as_generator(rng)
    X = np.asarray(X); y = np.asarray(y)
    perm = (gen if split_rng is None else as_generator(split_rng)).permutation(X.shape[0])
    parts = np.array_split(perm, folds)
    accs = []
    for i in range(folds):
        test = parts[i]
        train = np.concatenate([p for j, p in enumerate(parts) if j != i])
        tree = id3_fit(X[train], y[train], domains, n_classes, depth=depth, budget=budget, method=method, rng=gen,
                   criterion=criterion, horizon=horizon).value
        accs.append(float(np.mean(predict(tree, X[test]) == y[test])))
    return float(np.mean(accs))


__all__ = ["priv_top_k", "priv_top_k_graph", "priv_top_k_nodes", "release_column_quantile", "top_k_accuracy", "privacy_cost_median", "select_median", "select_percentile", "id3_privacy_cost", "id3_fit", "id3_cross_validate", "ID3", "ID3_SPLIT", "LEAF_COUNTS", "LOCAL_DAMPENING", "MEDIAN", "MEDIAN_THESIS", "NOISY_COUNT", "PERCENTILE",
           "SHIFTED_LOCAL_DAMPENING", "TOPK", "TOPK_GRAPH", "check_bounds", "id3_plan", "ledger_name",
           "local_dampening", "quantile_statistics", "select_quantile", "shifted_local_dampening", "topk_plan",
           "topk_statistics"]
