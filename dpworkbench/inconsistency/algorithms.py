"""The DP algorithms: Algorithm 2 (graph projection) with every θ strategy, baselines, Algorithm 5.

Each run returns a record: θ*, θ₁, noisy bound, true and truncated values, output, relative error,
ε per step (summing to the total) and seconds. Strategies (spec §2.9, total ε):

=================  ============================================  =====================================
strategy           θ choice                                      split
=================  ============================================  =====================================
``baseline_V``     θ = |V| (Laplace with global sensitivity n)   Laplace ε
``baseline_dmax``  θ = d_max(G) — NON-PRIVATE reference          Laplace ε
``em``             Alg. 3 over Θ                                 EM 0.4ε, Laplace 0.6ε
``hier_em``        Alg. 4 without lines 1–5                      EM 0.2ε + 0.2ε, Laplace 0.6ε
``bound_hier``     full Alg. 4 ("our approach")                  bound 0.1ε, EM 0.15ε + 0.15ε, Lap 0.6ε
=================  ============================================  =====================================

``artifact_compat=True`` reproduces the reference code: the Laplace step and the √2θ/ε term use the
full ε while selection spends another 0.4ε (total 1.4ε) — labelled NOT ε-DP at the stated ε.

Single-tuple (unary) DCs (``build(..., unary_policy="separate")``): the released value is |U| + f(π_θ(G[V∖U]))
(and |U| + c for Algorithm 5), spec §1.3. This keeps the sensitivities: an added tuple either violates a unary DC
(|U| grows by 1, G[V∖U] is unchanged) or joins G[V∖U] (|U| unchanged, Δf ≤ θ, θ+1 for I_P, 2 for the cover); the
|U| term cancels in the quality's bias. ``rng`` may be a seed, a Generator, or a noise back-end such as
``dpworkbench.mechanisms.release_backend()`` (OpenDP samplers) for an actual release.
"""

from __future__ import annotations

import math
import time
from typing import Sequence

import numpy as np
import pandas as pd

from .._validation import as_generator, check_epsilon, check_probability
from ..accounting import Accountant
from ..mechanisms import laplace_mechanism
from ..mechanisms.backends import NoiseBackend, resolve_backend
from .conflict_graph import ConflictGraph
from .constraints import DC
from .projection import Projector, order_edges
from .selection import basic_em, laplace_sensitivity, optimized_em, paper_candidates
from . import _kernels as K

def _noise_source(rng):
    """A noise back-end (kept as is: e.g. ``release_backend()``) or a numpy Generator from a seed/None."""
    return rng if isinstance(rng, NoiseBackend) else as_generator(rng)


def projected_value(proj: Projector, theta: int, measure: str) -> int:
    """|U| + f(π_θ(G)): the value Algorithm 2 perturbs (|U| = tuples violating a unary DC, 0 without them)."""
    return int(proj.graph.unary.size) + proj.f(theta, measure)


STRATEGIES = ("baseline_V", "baseline_dmax", "em", "hier_em", "bound_hier")
STRATEGY_LABELS = {
    "baseline_V": "θ=|V| (Baseline 1)",
    "baseline_dmax": "θ=max deg (Baseline 2, non-private)",
    "em": "Exponential mech.",
    "hier_em": "Hierarchical exp. mech.",
    "bound_hier": "Upper bound + hierarchical (ours)",
}


def graph_projection(
    graph: ConflictGraph,
    measure: str,
    epsilon: float,
    *,
    strategy: str = "bound_hier",
    df: pd.DataFrame | None = None,
    dcs: Sequence[DC] = (),
    thetas: Sequence[int] | None = None,
    eps1_frac: float = 0.4,
    eps0_frac: float = 0.25,
    ip_sensitivity: str = "safe",
    artifact_compat: bool = False,
    add_V: str = "if_general_DC",
    prune: str = "le",
    order: str = "rank",
    order_seed: int = 0,
    projector: Projector | None = None,
    clip: str = "range",
    rng=None,
    accountant: Accountant | None = None,
) -> dict:
    """Algorithm 2 for I_MI (``measure="MI"``) or I_P (``"P"``): f(π_θ*(G)) + Lap(Δ(θ*)/ε₂), clipped.

    Spends ``epsilon`` (1.4·ε with ``artifact_compat``). ``projector`` reuses memoised F(θ) across runs
    (it must use the same stable order on the same graph). ``clip``: "range" (default post-processing to
    [0, C(n,2)] for I_MI, [0, n] for I_P), "artifact" (the reference code: I_MI clipped at 0, I_P not clipped —
    reproduces its error curves) or "none".
    """
    t0 = time.perf_counter()
    epsilon = check_epsilon(epsilon)
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {STRATEGIES}, got {strategy!r}")
    if measure not in ("MI", "P"):
        raise ValueError(f"measure must be 'MI' or 'P', got {measure!r}")
    if ip_sensitivity not in ("safe", "paper"):
        raise ValueError(f"ip_sensitivity must be 'safe' or 'paper', got {ip_sensitivity!r}")
    check_probability(eps1_frac, "eps1_frac")
    check_probability(eps0_frac, "eps0_frac")
    gen = _noise_source(rng)
    proj = projector if projector is not None else Projector(graph, rule=order, seed=order_seed)
    if proj.graph is not graph:
        raise ValueError("projector was built on another graph")
    n = graph.n
    f_true = projected_value(proj, n, measure)
    sel: dict = {}
    steps: dict[str, float] = {}
    if strategy in ("baseline_V", "baseline_dmax"):
        eps2 = epsilon
        theta = n if strategy == "baseline_V" else max(1, graph.max_degree())
    else:
        eps1 = eps1_frac * epsilon
        eps2 = (1 - eps1_frac) * epsilon
        noise_eps = epsilon if artifact_compat else eps2
        cands = list(thetas) if thetas is not None else paper_candidates(n)
        if strategy == "em":
            s = basic_em(proj, cands, eps1=eps1, eps2=noise_eps, measure=measure, ip_sensitivity=ip_sensitivity,
                         rng=gen, accountant=accountant)
            sel = {"theta_1": s["theta"], "steps": [s]}
            theta = s["theta"]
            steps["em"] = eps1
        else:
            s = optimized_em(proj, cands, eps1=eps1, eps2=noise_eps, measure=measure, df=df, dcs=dcs,
                             use_bound=(strategy == "bound_hier"), steps=2, add_V=add_V, prune=prune,
                             eps0_frac=eps0_frac, ip_sensitivity=ip_sensitivity, rng=gen, accountant=accountant)
            sel = s
            theta = s["theta"]
            if s["eps0"]:
                steps["bound"] = s["eps0"]
            for i, st in enumerate(s["steps"], start=1):
                steps[f"em_step{i}"] = st["epsilon"]
        eps2 = noise_eps
    f_trunc = projected_value(proj, theta, measure)
    sens = laplace_sensitivity(theta, measure, ip_sensitivity)
    raw = laplace_mechanism(float(f_trunc), epsilon=eps2, sensitivity=sens, rng=gen, accountant=accountant,
                            note=f"Alg. 2 Laplace, I_{measure}, θ*={theta}")
    steps["laplace"] = eps2
    hi = max(n * (n - 1) / 2, n) if measure == "MI" else n
    if clip == "range":
        out = float(min(max(raw, 0.0), hi))
    elif clip == "artifact":
        out = float(max(raw, 0.0)) if measure == "MI" else float(raw)
    elif clip == "none":
        out = float(raw)
    else:
        raise ValueError(f"clip must be 'range', 'artifact' or 'none', got {clip!r}")
    total = float(sum(steps.values()))
    return {
        "measure": "I_" + measure,
        "strategy": strategy,
        "epsilon": epsilon,
        "theta_star": int(theta),
        "theta_1": sel.get("theta_1"),
        "d_bound": sel.get("d_bound"),
        "d_bound_noisy": sel.get("d_bound_noisy"),
        "true": float(f_true),
        "truncated": float(f_trunc),
        "noise": float(raw - f_trunc),
        "output_raw": float(raw),
        "output": out,
        "rel_error": abs(out - f_true) / f_true if f_true else (0.0 if out == 0 else math.inf),
        "eps_per_step": steps,
        "eps_total": total,
        "laplace_sensitivity": sens,
        "ip_sensitivity": ip_sensitivity if measure == "P" else "n/a",
        "artifact_compat": artifact_compat,
        "private": (strategy != "baseline_dmax") and not artifact_compat and not (measure == "P" and ip_sensitivity == "paper"),
        "seconds": time.perf_counter() - t0,
    }


def dp_vertex_cover(
    graph: ConflictGraph,
    epsilon: float,
    *,
    order: str = "rank",
    order_seed: int = 0,
    reference: float | None = None,
    cover_size: int | None = None,
    noise: str = "paper",
    rng=None,
    accountant: Accountant | None = None,
) -> dict:
    """Algorithm 5: size c of a greedy 2-approximate vertex cover in a stable order, + Lap(2/ε). Spends ε.

    (The paper prints Lap(ε/2): a typo; the sensitivity of c is 2, Prop. 3.) ``noise="typo"`` uses the
    printed scale ε/2 and is NOT private — only for showing the difference. ``reference`` is the value the
    relative error is measured against (the paper uses 2·I_R^lin); default c itself. A given ``cover_size``
    (a cached c) must already include the unary violators |U|.
    """
    t0 = time.perf_counter()
    epsilon = check_epsilon(epsilon)
    gen = _noise_source(rng)
    if cover_size is None:  # |U| + c(G[V∖U]): the unary violators (if any) are in every cover
        u, v = order_edges(graph.u, graph.v, rule=order, seed=order_seed, n=graph.n)
        cover_size = int(graph.unary.size) + int(K.greedy_cover(u, v, graph.n))
    if noise == "paper":
        raw = laplace_mechanism(float(cover_size), epsilon=epsilon, sensitivity=2.0, rng=gen, accountant=accountant,
                                note="Alg. 5 vertex cover, Lap(2/ε)")
    elif noise == "typo":
        raw = float(cover_size) + float(resolve_backend(gen).laplace(epsilon / 2))
    else:
        raise ValueError(f"noise must be 'paper' or 'typo', got {noise!r}")
    out = float(min(max(raw, 0.0), graph.n))
    ref = float(cover_size if reference is None else reference)
    return {
        "measure": "I_R", "strategy": "alg5", "epsilon": epsilon, "theta_star": None, "true": ref,
        "truncated": float(cover_size), "noise": float(raw - cover_size), "output_raw": float(raw), "output": out,
        "rel_error": abs(out - ref) / ref if ref else (0.0 if out == 0 else math.inf),
        "eps_per_step": {"laplace": epsilon}, "eps_total": epsilon, "private": noise == "paper",
        "seconds": time.perf_counter() - t0,
    }


def run_all(graph: ConflictGraph, epsilon: float, *, df=None, dcs=(), strategy: str = "bound_hier", rng=None,
            order_seed: int = 0, ip_sensitivity: str = "safe", i_r_reference: float | None = None) -> dict:
    """The three DP measures at ε each (three separate releases: 3ε in total if all are published)."""
    gen = _noise_source(rng)
    proj = Projector(graph, rule="rank", seed=order_seed)
    mi = graph_projection(graph, "MI", epsilon, strategy=strategy, df=df, dcs=dcs, projector=proj, rng=gen,
                          ip_sensitivity=ip_sensitivity)
    p = graph_projection(graph, "P", epsilon, strategy=strategy, df=df, dcs=dcs, projector=proj, rng=gen,
                         ip_sensitivity=ip_sensitivity)
    r = dp_vertex_cover(graph, epsilon, order_seed=order_seed, reference=i_r_reference, rng=gen)
    return {"I_MI": mi, "I_P": p, "I_R": r}


__all__ = ["STRATEGIES", "STRATEGY_LABELS", "dp_vertex_cover", "graph_projection", "run_all"]
