"""Baselines of the experiments (spec 3.3–3.6): NT, SDE, RM (toy sizes), LS of Tao et al.

NT, SDE and RM are reconstructed from the authors' conference code (the paper gives no
formulas); RM in particular is the authors' simplified LP variant and not authoritative.
Each is declared once (:data:`NT`, :data:`SDE`, :data:`RM`, :data:`LS`; registered through :mod:`.mechanisms`): the
framework records its plan before any draw; the functions below check their inputs and return a
:class:`BaselineRelease` (``release["value"]`` still reads the private value). Research sweeps redraw only the noise
with ``DECL.sample(stats, size=R, rng=gen, ...)`` over cached non-private parts (:class:`GraphStats`).

Back-ends: RM draws all its noise through ``backend.add_laplace`` and runs on the release back-end
(``rng=None``). NT and SDE add smooth-sensitivity noise of density ∝ 1/(1+x⁴), and LS simulates its long SVT
scan by Bernoulli thinning with floating-point probabilities: no floating-point-safe sampler exists for either,
so these three are research baselines that refuse a release back-end (and ``rng=None``) with an error instead
of falling back to numpy noise.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Mapping
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from ...accounting import AccountantLike, Release, planned
from ...graphs import CSRGraph
from ...mechanisms.backends import RngLike
from ...mechanisms.declaration import EPSILON, Drawn, Mechanism, Param
from ..joininfo import JoinInfo
from .common import GRAPH_RELATION, N_NODES, RELATION, example_graphs, research_generator, tau_grid
from ..patterns import QUERIES, check_query, count
from ..model import highs_model, pass_rowwise, set_solve_budget, solve_optimal

_INF = math.inf


# ---------------------------------------------------------------------------------
# smooth-sensitivity noise X with density ∝ 1/(1+x^4)
# ---------------------------------------------------------------------------------
def quartic_noise(gen: np.random.Generator, size: int | None = None) -> np.ndarray | float:
    """Samples of the Nissim–Raskhodnikova–Smith admissible noise, density ∝ 1/(1 + x⁴) (rejection from Cauchy, exact)."""
    k = 1 if size is None else int(size)
    out = np.empty(0)
    bound = 1.0 + 1.0 / math.sqrt(2.0)  # max of (1+x²)/(1+x⁴), at x² = √2 − 1 (≈1.2071)
    while out.size < k:
        x = gen.standard_cauchy(2 * k + 8)
        acc = gen.random(x.size) * bound <= (1 + x**2) / (1 + x**4)
        out = np.concatenate([out, x[acc]])
    out = out[:k]
    return float(out[0]) if size is None else out


def restricted_sensitivity(query: str, theta: float) -> float:
    """Pattern count sensitivity on graphs of max degree θ (the authors' NT/SDE constants, spec 3.3 step 4)."""
    check_query(query)
    t = float(theta)
    return {"edge": t, "triangle": t * (t - 1) / 2, "path2": 3 * t * (t - 1) / 2, "rectangle": t * (t - 1) ** 2 / 2}[query]


class BaselineRelease(Release):
    """A baseline's :class:`~dpworkbench.accounting.Release`; ``release["value"]`` is the private value and
    ``release[k]`` any detail, public input or exact (NOT PRIVATE) diagnostic, as the old result dicts."""

    def __getitem__(self, key: str) -> Any:
        if key == "value":
            return self.value
        if key in self.public:
            return self.public[key]
        return super().__getitem__(key)


_SMOOTH_WHY = "its smooth-sensitivity noise has density ∝ 1/(1+x⁴), for which no floating-point-safe sampler exists"


# ---------------------------------------------------------------------------------
# NT: naive truncation + smooth sensitivity (Kasiviswanathan et al.)
# ---------------------------------------------------------------------------------
class GraphStats(Mapping):
    """The non-private parts of NT and SDE on one graph and pattern, cached per θ (NOT PRIVATE): the truncated
    count on the nodes of degree ≤ θ (NT), and SDE's (distance, projected count) at θ. ``sde`` may be pre-filled
    (an experiment solving the distance LP under its own time limit). As a mapping: Q(I)."""

    def __init__(self, g: CSRGraph, query: str):
        self.graph, self.query = g, check_query(query)
        self.nt: dict[float, float] = {}
        self.sde: dict[float, tuple[float, float]] = {}

    def nt_count(self, theta: float) -> float:
        if theta not in self.nt:
            self.nt[theta] = count(self.graph.induced_subgraph(np.flatnonzero(self.graph.degrees <= theta)), self.query)
        return self.nt[theta]

    def sde_parts(self, theta: float) -> tuple[float, float]:
        if theta not in self.sde:
            self.sde[theta] = sde_parts(self.graph, self.query, theta)
        return self.sde[theta]

    def __getitem__(self, key: str) -> float:
        if key != "Q(I)":
            raise KeyError(key)
        return float(count(self.graph, self.query))

    def __iter__(self):
        return iter(("Q(I)",))

    def __len__(self) -> int:
        return 1


def _graph_stats(data: Any, query: str) -> GraphStats:
    """A graph's (or an ``(n, edges)`` pair's, the harness's inputs) statistics."""
    if isinstance(data, tuple):
        from ...graphs import from_edge_array

        data = from_edge_array(np.asarray(data[1], dtype=np.int64).reshape(-1, 2), n=data[0])
    return data if isinstance(data, GraphStats) else GraphStats(data, query)


def _nt_smooth(g: CSRGraph, query: str, theta: float, epsilon: float) -> float:
    """NT's smooth bound at θ from the degree histogram (spec 3.3 step 4)."""
    deg = g.degrees
    beta_s = epsilon / 10
    dmax = int(deg.max()) if deg.size else 0
    cum = np.concatenate([[0], np.cumsum(np.bincount(deg, minlength=dmax + 1))])
    upto = max(dmax, int(theta))
    if not upto:
        return restricted_sensitivity(query, theta)
    i = np.arange(upto)
    lo = np.clip(theta - i, 0, dmax + 1).astype(int)
    hi = np.clip(theta + i + 1, -1, dmax).astype(int)
    cnt = np.where(hi >= lo, cum[np.minimum(hi + 1, dmax + 1)] - cum[lo], 0)
    return restricted_sensitivity(query, theta) * float(np.max(np.exp(-beta_s * i) * (cnt + i + 1)))


def _sde_smooth(query: str, theta: float, d_hat: float, epsilon: float) -> float:
    beta_s = epsilon / 10
    cands = [math.ceil(d_hat), math.floor(4 / beta_s - 2.5), math.ceil(4 / beta_s - 2.5)]
    rs = restricted_sensitivity(query, 2 * theta)
    ok = [d for d in cands if d >= d_hat]
    return max(math.exp(-beta_s / 4 * (d - d_hat)) * (2 * d + 5) * rs for d in ok) if ok else (2 * d_hat + 5) * rs


def _smooth_noise(which: str):
    """NT / SDE: θ (given, or uniform on {2, 4, ..., D}), the non-private part at θ, then + 10 S/ε · X with X of
    density ∝ 1/(1+x⁴). ``size=R``: R θ draws first, then one X per output in order."""
    def noise(stats, backend, size, *, epsilon, query, degree_bound, theta, note):
        gen = research_generator(backend, which.upper(), _SMOOTH_WHY)
        s = _graph_stats(stats, query)
        grid = tau_grid(degree_bound, 2.0)
        if theta is not None:
            thetas = [float(theta)] * (size or 1)
        elif size is None:
            thetas = [float(grid[gen.integers(grid.size)])]
        else:
            thetas = [float(t) for t in grid[gen.integers(grid.size, size=size)]]
        out, exact = [], {}
        for th in thetas:
            if which == "nt":
                f, bound = s.nt_count(th), _nt_smooth(s.graph, query, th, epsilon)
                exact = {"truncated_count": f, "smooth_sensitivity": bound}
            else:
                d_hat, f = s.sde_parts(th)
                bound = _sde_smooth(query, th, d_hat, epsilon)
                exact = {"distance": d_hat, "projected_count": f, "smooth_bound": bound}
            out.append(f + 10 * bound / epsilon * quartic_noise(gen))
        if size is not None:
            return np.asarray(out, dtype=float)
        return Drawn(float(out[0]), {} if theta is not None else {"theta": thetas[0]}, exact)
    return noise


def _smooth_mechanism(which: str, summary: str, references: str) -> Mechanism:
    return Mechanism(
        name=f"r2t.{which}", summary=summary, relation=GRAPH_RELATION,
        params=(EPSILON(), Param("query", str, "edge", "the pattern", choices=tuple(QUERIES)),
                Param("degree_bound", int, help="D, the public degree bound (θ's grid {2, 4, ..., D})", low=2),
                Param("theta", float, None, "θ when given (must not be chosen from the data)", low=0.0, open_low=True),
                Param("note", str, "", "a label for the ledger note")),
        cost=lambda *, epsilon, query, note, **_: planned((which, epsilon, note or f"{which.upper()} {query}: " + (
            "truncated count + smooth-sensitivity noise" if which == "nt" else "projected count + smooth-sensitivity noise"))),
        statistics=lambda g, *, query, **_: _graph_stats(g, query),
        # Q(I) moves by at most the restricted sensitivity on graphs of max degree D (the harness's class)
        sensitivity=lambda *, query, degree_bound, **_: {"Q(I)": restricted_sensitivity(query, degree_bound)},
        noise=_smooth_noise(which),
        truth=lambda stats, **p: stats["Q(I)"],
        examples=lambda rng: [(N_NODES, e) for e in example_graphs(rng)],
        harness_params={"epsilon": 1.0, "query": "edge", "degree_bound": N_NODES - 1},
        harness_samples=4000 if which == "nt" else 2000,
        release_type=BaselineRelease, references=references,
    )


NT = _smooth_mechanism("nt", "NT: count on the nodes of degree ≤ θ + smooth-sensitivity noise (research only)",
                       "Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §10 (NT of Kasiviswanathan et al.); spec 3.3.")
SDE = _smooth_mechanism("sde", "SDE: projection to max degree θ by the distance LP + smooth-sensitivity noise "
                        "(research only)", "Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §10 (SDE of Blocki et "
                        "al.); spec 3.4.")


def _smooth_release(mech: Mechanism, g: CSRGraph, query, epsilon, degree_bound, theta, rng, accountant, note):
    research_generator(rng, mech.name.split(".")[1].upper(), _SMOOTH_WHY)  # refused before anything is spent
    rel = mech.release(g, rng=rng, accountant=accountant, epsilon=epsilon, query=query, degree_bound=degree_bound,
                       theta=theta, note=note)
    return dataclasses.replace(rel, mechanism=mech.name.split(".")[1], public={
        "epsilon": rel.public["epsilon"], "degree_bound": degree_bound, **({"theta": theta} if theta is not None else {})},
        exact={k: v for k, v in rel.exact.items() if k != "truth"})


def nt(g: CSRGraph, query: str, *, epsilon: float, degree_bound: int, theta: float | None = None, rng: RngLike = None,
       accountant: AccountantLike | None = None, note: str = "") -> BaselineRelease:
    """NT (spec 3.3): one :data:`NT` release. θ uniform on {2, 4, ..., D} unless given. Spends ε. Research only
    (seeded numpy). Treated as public: ``degree_bound`` D, ``theta`` when given, ``epsilon``.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §10 (NT of Kasiviswanathan et al.); spec 3.3.
    """
    return _smooth_release(NT, g, query, epsilon, degree_bound, theta, rng, accountant, note)


# ---------------------------------------------------------------------------------
# SDE: smooth distance estimator (Blocki et al.)
# ---------------------------------------------------------------------------------
#: SDE's distance LP solves a connected component of at least this many columns on its own and the smaller ones
#: together, as :func:`dpworkbench.r2t.reduce.split_components` does for R2T's LPs (see :func:`sde_lp_blocks`).
SDE_BIG_COMPONENT = 20_000


def sde_lp_blocks(g: CSRGraph, theta: float) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """SDE's distance LP after its exact reductions, as independent blocks ``(nodes, local edges, light neighbours)``.
    NOT PRIVATE.

    The LP on G (spec 3.4): variables x_v (v ∈ V), w_e (e ∈ E) in [0, 1]; minimise Σ x_v subject to
    Σ_{e∋v} w_e ≤ θ for every v (budget) and w_e + x_u + x_v ≥ 1 for every edge uv (cover). Heavy: deg v > θ; light:
    the others. Any feasible w may be lowered to w_e = max(0, 1 − x_u − x_v) (its rows only relax), so a solution is its x.

    1. Light budget rows never bind: Σ_{e∋v} w_e ≤ deg v ≤ θ. Dropping them leaves the same LP.
    2. Some optimum has x_u = 0 at every light u (θ > 0). Among the optima take one with the least Σ_{light} x (the
       optima form a polytope), and suppose x_u > 0 at a light u. Lower x_u by a small t > 0 and, at each heavy
       neighbour a whose budget row is tight with 1 − x_u − x_a ≥ 0, raise x_a by t / (q_a + 1), q_a the number of a's
       other edges with w > 0. a's load rises by at most t on ua and falls by t / (q_a + 1) on ua and on each of those
       q_a edges: it stays ≤ θ. A tight a with 1 − x_u − x_a < 0, or a heavy neighbour with slack, stays feasible for
       small t; every other load only falls (x rises), and u, light, has no row. A tight a has x_a < 1 (x_a = 1 leaves
       it load 0) and q_a + 1 ≥ θ (its load θ is a sum of w ≤ 1 over ua and those q_a edges), and u has at most
       deg u ≤ θ neighbours, so Σ x changes by −t + Σ_a t / (q_a + 1) ≤ 0: an optimum with less Σ_{light} x, a
       contradiction. (tests/r2t/test_sde_distance_lp.py compares with the whole LP on random graphs.)
    3. With x_u = 0, an edge ua from a light u to a heavy a needs w_ua ≥ 1 − x_a and is read only by a's budget row,
       where its least value 1 − x_a ≥ 0 is best. So the LP equals R: x_v for the heavy nodes only, w_e for the edges
       between heavy nodes, and for each heavy v the budget row Σ_{heavy e∋v} w_e + k_v (1 − x_v) ≤ θ, k_v its number of
       light neighbours, with the cover rows of the heavy–heavy edges. A feasible x of R, 0 at the light nodes, is a
       feasible x of the LP at the same objective, and the optimum of step 2 restricts to R; at θ ≥ max degree R is
       empty (optimum 0).
    4. Components. Every row of R reads the variables of one connected component of its graph (heavy nodes,
       heavy–heavy edges): a budget row the edges at its node and x_v, a cover row its edge and that edge's ends. So R
       separates into one LP per component, its optimum their sum. Components of at least :data:`SDE_BIG_COMPONENT`
       columns are one block each; the smaller ones form one block (a block-diagonal LP). Blocks are listed big ones
       first, in component order; ``nodes`` are G's ids of a block's local ids, ``light neighbours`` their k_v.

    An optimal x of the blocks, 0 at the light nodes, is an optimal x of the whole LP.
    """
    heavy = g.degrees > theta
    if not heavy.any():
        return []
    e = g.edge_array().astype(np.int64)
    light_nb = np.bincount(e[heavy[e[:, 0]] & ~heavy[e[:, 1]], 0], minlength=g.n) + \
        np.bincount(e[heavy[e[:, 1]] & ~heavy[e[:, 0]], 1], minlength=g.n)
    nodes = np.flatnonzero(heavy)
    local = np.searchsorted(nodes, e[heavy[e[:, 0]] & heavy[e[:, 1]]])
    k = nodes.size
    ncomp, lab = connected_components(sp.coo_matrix((np.ones(len(local)), (local[:, 0], local[:, 1])), shape=(k, k)),
                                      directed=False)
    cols = np.bincount(lab, minlength=ncomp) + np.bincount(lab[local[:, 0]], minlength=ncomp)
    big = np.flatnonzero(cols >= SDE_BIG_COMPONENT)
    groups = [lab == c for c in big]
    if big.size < ncomp:
        groups.append(~np.isin(lab, big))
    blocks = []
    for in_grp in groups:
        ids = np.flatnonzero(in_grp)
        relabel = np.full(k, -1)
        relabel[ids] = np.arange(ids.size)
        blocks.append((nodes[ids], relabel[local[in_grp[local[:, 0]]]], light_nb[nodes[ids]]))
    return blocks


def _distance_lp(e: np.ndarray, light_nb: np.ndarray, theta: float, deadline: float | None) -> tuple[float, np.ndarray]:
    """(optimum, x) of the reduced distance LP R of :func:`sde_lp_blocks` on heavy nodes 0..len(light_nb)−1 joined by
    edges ``e``, each node's budget row with its light neighbours' k_v (1 − x_v)."""
    k, m = light_nb.size, e.shape[0]
    kv = light_nb.astype(float)
    # variables [x (k) | w (m)]; min Σ x ; rows: Σ_{e∋v} w_e − k_v x_v ≤ θ − k_v ; −(w_e + x_u + x_v) ≤ −1
    ends, eid = np.concatenate([e[:, 0], e[:, 1]]), np.tile(np.arange(m), 2)
    budget = sp.csr_matrix((np.concatenate([np.ones(2 * m), -kv]), (np.concatenate([ends, np.arange(k)]),
                                                                     np.concatenate([k + eid, np.arange(k)]))),
                           shape=(k, k + m))
    cover = sp.csr_matrix((-np.ones(3 * m), (np.concatenate([eid, np.arange(m)]), np.concatenate([ends, k + np.arange(m)]))),
                          shape=(m, k + m))
    h = highs_model()
    set_solve_budget(h, None, deadline, "SDE distance LP")
    pass_rowwise(h, np.concatenate([np.ones(k), np.zeros(m)]), np.zeros(k + m), np.ones(k + m),
                 np.full(k + m, -_INF), np.concatenate([float(theta) - kv, -np.ones(m)]),
                 sp.vstack([budget, cover], format="csr"), maximize=False)
    opt = solve_optimal(h, "SDE distance LP")
    return opt, np.asarray(h.getSolution().col_value[:k])


def sde_distance_solution(g: CSRGraph, theta: float, *, time_limit: float | None = None) -> tuple[float, np.ndarray]:
    """(optimum, x ∈ [0, 1]^V) of SDE's distance LP, an optimal x of the whole LP (with w_e = max(0, 1 − x_u − x_v)),
    solved block by block after the exact reduction of :func:`sde_lp_blocks`. NOT PRIVATE.

    ``time_limit`` (seconds) bounds all blocks together; over it: :class:`~dpworkbench.r2t.model.SolverError`.
    """
    deadline = None if time_limit is None else time.perf_counter() + float(time_limit)
    x, opt = np.zeros(g.n), 0.0
    for nodes, e, light_nb in sde_lp_blocks(g, theta):
        v, xb = _distance_lp(e, light_nb, theta, deadline)
        opt += v
        x[nodes] = xb
    return opt, x


def sde_projection(g: CSRGraph, theta: float, *, time_limit: float | None = None) -> tuple[float, np.ndarray]:
    """SDE's distance LP (spec 3.4): (LP optimum, nodes kept by the projection x < 1/4). Depends on (G, θ) only. NOT PRIVATE.

    The LP is solved after an exact reduction, one block per large connected component (:func:`sde_lp_blocks`,
    :func:`sde_distance_solution`). ``time_limit`` (seconds, all blocks together) makes a slow solve raise
    :class:`~dpworkbench.r2t.model.SolverError` (reported as "OT").
    """
    opt, x = sde_distance_solution(g, theta, time_limit=time_limit)
    return opt, np.flatnonzero(x < 0.25)


def sde(g: CSRGraph, query: str, *, epsilon: float, degree_bound: int, theta: float | None = None, rng: RngLike = None,
        accountant: AccountantLike | None = None, note: str = "") -> BaselineRelease:
    """SDE (spec 3.4): one :data:`SDE` release (the distance LP to max degree θ, solved on the nodes of degree > θ and
    the edges between them (:func:`sde_lp_blocks`), projection, smooth noise). Spends ε. Research only (seeded numpy).
    Treated as public: ``degree_bound`` D, ``theta`` when given, ``epsilon``.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §10 (SDE of Blocki et al.); spec 3.4.
    """
    return _smooth_release(SDE, g, query, epsilon, degree_bound, theta, rng, accountant, note)


# ---------------------------------------------------------------------------------
# RM: recursive mechanism, the authors' LP variant (toy sizes only)
# ---------------------------------------------------------------------------------
class RMLPs:
    def __init__(self, info: JoinInfo):
        self.info = info
        n, m = info.n, info.m
        self.n, self.m = n, m
        Dt = sp.csr_matrix((np.ones(info.ids.size), (info.row_of, info.ids)), shape=(m, n))
        # variables [x (n) | z (m) | s]; rows: Σ_{i∈D_j} x_i − z_j ≤ |D_j|−1 ; Σ x = k ; Σ_{j∈C_i} ψ_j z_j − s ≤ 0
        self.top = sp.hstack([Dt, -sp.identity(m), sp.csr_matrix((m, 1))], format="csr")
        self.sumrow = sp.csr_matrix(np.concatenate([np.ones(n), np.zeros(m + 1)])[None, :])
        self.srows = sp.hstack([sp.csr_matrix((n, n)), info.incidence.multiply(info.psi[None, :]), -np.ones((n, 1))], format="csr")
        self._cache: dict = {}

    def _solve(self, k: float, kind: str) -> float:
        key = (kind, k)
        if key in self._cache:
            return self._cache[key]
        n, m, info = self.n, self.m, self.info
        if kind == "H":
            A = sp.vstack([self.top, self.sumrow], format="csr")
            cost = np.concatenate([np.zeros(n), info.psi, [0.0]])
            lo = np.concatenate([np.full(m, -_INF), [k]])
            hi = np.concatenate([(info.sizes - 1).astype(float), [k]])
        else:
            A = sp.vstack([self.top, self.sumrow, self.srows], format="csr")
            cost = np.concatenate([np.zeros(n + m), [1.0]])
            lo = np.concatenate([np.full(m, -_INF), [k], np.full(n, -_INF)])
            hi = np.concatenate([(info.sizes - 1).astype(float), [k], np.zeros(n)])
        h = highs_model()
        pass_rowwise(h, cost, np.zeros(n + m + 1), np.concatenate([np.ones(n), np.full(m + 1, _INF)]), lo, hi, A, maximize=False)
        v = solve_optimal(h, f"RM {kind}({k})")
        self._cache[key] = v
        return v

    @property
    def solved_count(self) -> int:
        """How many of RM's LPs were solved so far (they are shared across runs)."""
        return len(self._cache)

    def H(self, k):
        return self._solve(float(k), "H")

    def G(self, k):
        return self._solve(float(k), "G")


class InfoStats(Mapping):
    """An instance's non-private part for RM and LS: its join information and, for RM, its LPs (:class:`RMLPs`,
    built and solved lazily, shareable across runs). As a mapping: Q(I) and, for each τ of ``taus``, LS's truncated
    count Q(I, τ) = Σ of the tuple sensitivities S_j ≤ τ (a tuple above τ is dropped whole, as LS's scan reads it)."""

    def __init__(self, info: JoinInfo, lps: "RMLPs | None" = None, taus: Any = ()):
        # a range is kept as it is, never listed: LS's τ = 1..⌈GS⌉ reaches 10¹¹ at Fig. 9's largest GS, and each Q(I, τ)
        # is computed only when asked for (the release asks for none of them; the harness for all, at GS = 4)
        self._lps, self.info = lps, info
        self._taus = taus if isinstance(taus, range) else tuple(float(t) for t in taus)

    @property
    def lps(self) -> RMLPs:
        if not isinstance(self._lps, RMLPs):
            self._lps = RMLPs(self.info)
        return self._lps

    def __getitem__(self, key: str) -> float:
        if key == "Q(I)":
            return float(self.info.answer)
        t = self._tau_of(key)
        if t is None:
            raise KeyError(key)
        s = np.asarray(self.info.S, dtype=float)
        return float(s[s <= t].sum())

    def _tau_of(self, key: str) -> float | None:
        if not (isinstance(key, str) and key.startswith("Q(I,") and key.endswith(")")):
            return None
        try:
            t = float(key[4:-1])
        except ValueError:
            return None
        if isinstance(self._taus, range):
            return t if t.is_integer() and int(t) in self._taus and key == f"Q(I,{t:g})" else None
        return t if t in self._taus and key == f"Q(I,{t:g})" else None

    def __iter__(self):
        import itertools

        return itertools.chain(("Q(I)",), (f"Q(I,{float(t):g})" for t in self._taus))

    def __len__(self) -> int:
        return 1 + len(self._taus)


def _info_stats(data: Any, taus: Any = ()) -> InfoStats:
    """RM's and LS's statistics of join information, or of the edge pattern of a graph ``(n, edges)`` (RM's harness
    inputs, read as the edge query's join information: the nodes are the primary private relation)."""
    if isinstance(data, InfoStats):
        return data
    if isinstance(data, tuple):
        from ...graphs import from_edge_array
        from ..patterns import graph_joininfo

        data = graph_joininfo(from_edge_array(np.asarray(data[1], dtype=np.int64).reshape(-1, 2), n=data[0]), "edge")
    return InfoStats(data, taus=taus)


#: LS's harness class: SJF instances, one primary private relation ("customers"), each join result (an "order")
#: referencing one of them, at most MAX_REFS each, so GS_Q = 4 bounds the instance class.
MAX_REFS = 3


def _sjf_examples(rng: np.random.Generator) -> list[JoinInfo]:
    """Customers 0..n−1 (n = 3, 4) with 0..MAX_REFS orders each, the first with MAX_REFS."""
    from ..joininfo import from_lists

    out = []
    for n in (3, 4):
        counts = rng.integers(0, MAX_REFS + 1, n)
        counts[0] = MAX_REFS
        lists = [[c] for c in range(n) for _ in range(int(counts[c]))]
        out.append(from_lists(np.ones(len(lists)), lists, n=n))
    return out


def _sjf_neighbours(info: JoinInfo):
    """The declared relation on these instances: one customer removed with its orders, or one added with MAX_REFS."""
    for i in range(info.n):
        yield info.remove_tuples([i])
    yield info.add_tuple([(1.0, [info.n])] * MAX_REFS)


def _node_neighbours(x):
    from ...testing.harness import node_neighbours

    return node_neighbours(*x)


def _rm_noise(stats, backend, size, *, epsilon, delta, max_results, note):
    """Phase 1: ln Δ̂ = ln Δ + 1 + Lap(β/ε₁); phase 2: X + Lap(Δ̂/ε₁), both through ``backend.add_laplace``."""
    if size is not None:
        return np.array([_rm_noise(stats, backend, None, epsilon=epsilon, delta=delta, max_results=max_results,
                                   note=note).value for _ in range(size)])
    eps1 = epsilon / 2
    beta_rm = eps1 / math.log2(1 / delta)
    lps = stats.lps
    N = lps.info.n

    def ok(i):
        gval = lps.G(N - i)
        return gval > 0 and math.log(gval) >= i * beta_rm

    lo, hi = 0, N  # largest i with ok(i); ok is monotone (G(N−i) decreases, iβ increases)
    if not ok(0):
        i_star = 0
    else:
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if ok(mid):
                lo = mid
            else:
                hi = mid - 1
        i_star = lo
    log_delta_hat = float(backend.add_laplace((i_star + 1) * beta_rm + 1.0, beta_rm / eps1))  # ln Δ + 1 + Lap(β/ε₁)
    delta_hat = math.exp(log_delta_hat)

    def obj(i):
        return lps.H(i) + (N - i) * delta_hat

    lo, hi = 0, N  # convex in i: ternary/binary search on the slope
    while lo < hi:
        mid = (lo + hi) // 2
        if obj(mid) <= obj(mid + 1):
            hi = mid
        else:
            lo = mid + 1
    X = obj(lo)
    value = float(backend.add_laplace(X, delta_hat / eps1))
    return Drawn(value, {"delta_hat": delta_hat}, {"X": X, "i_star": i_star, "lps": lps.solved_count})


RM = Mechanism(
    name="r2t.rm", summary="recursive mechanism, the authors' simplified LP variant (toy sizes only)", relation=RELATION,
    params=(EPSILON(), Param("delta", float, 0.1, "δ of the recursive mechanism (β = ε₁ / log₂(1/δ))", low=0.0,
                             high=1.0, open_low=True),
            Param("max_results", int, 5000, "the size cap (refusal depends on the join size)", low=1),
            Param("note", str, "", "a label prefixed to the ledger notes")),
    cost=lambda *, epsilon, note, **_: planned(
        ("rm-delta", epsilon / 2, (f"{note}: " if note else "") + "RM phase 1: ln Δ̂ = ln Δ + 1 + Lap(β/ε₁)"),
        ("rm-laplace", epsilon / 2, (f"{note}: " if note else "") + "RM phase 2: X + Lap(Δ̂/ε₁)")),
    statistics=lambda data, **p: _info_stats(data),
    # RM's own analysis needs no bound; on its harness class (graphs on N_NODES nodes, the edge query) one node moves
    # Q(I) by at most its degree N_NODES − 1
    sensitivity=lambda **p: {"Q(I)": float(N_NODES - 1)},
    noise=_rm_noise,
    truth=lambda stats, **p: stats["Q(I)"],
    examples=lambda rng: [(N_NODES, e) for e in example_graphs(rng)], neighbours=_node_neighbours,
    harness_params={"epsilon": 1.0}, harness_samples=3000,
    release_type=BaselineRelease,
    references="Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §10 (RM of Chen and Zhou, the authors' LP variant); spec 3.5.",
)


def rm(info: JoinInfo, *, epsilon: float, delta: float = 0.1, rng: RngLike = None, max_results: int = 5000,
       accountant: AccountantLike | None = None, note: str = "", lps: "RMLPs | None" = None) -> BaselineRelease:
    """Recursive mechanism, authors' simplified LP variant (spec 3.5): one :data:`RM` release. Spends ε (ε/2 per
    phase). Toy sizes only; runs on the release back-end (``rng=None``). ``lps``: the instance's LPs, shared across
    runs. Treated as public: ``delta``, ``epsilon``, ``max_results``.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §10 (RM of Chen and Zhou, the authors' LP variant); spec 3.5.
    """
    if info.m > max_results:
        raise ValueError(f"RM is limited to ≤ {max_results} join results (got {info.m}); report it as out of time")
    rel = RM.release(info, rng=rng, accountant=accountant, statistics=InfoStats(info, lps), epsilon=epsilon, delta=delta,
                     max_results=max_results, note=note)
    return dataclasses.replace(rel, mechanism="rm", public={"epsilon": rel.public["epsilon"], "delta": delta},
                               exact={k: v for k, v in rel.exact.items() if k != "truth"})


# ---------------------------------------------------------------------------------
# LS: Tao et al. (SJF, single R_P, COUNT)
# ---------------------------------------------------------------------------------
def _bern_first(p_of, a: int, b: int, gen: np.random.Generator) -> int | None:
    """First success in independent Bernoulli(p_i), i = a..b−1, with p monotone on the block (exact thinning)."""
    pa, pb = p_of(np.array([a]))[0], p_of(np.array([b - 1]))[0]
    pmax = max(pa, pb)
    if pmax <= 0:
        return None
    i = a - 1
    while True:
        i += int(gen.geometric(pmax))
        if i >= b:
            return None
        if gen.random() * pmax <= p_of(np.array([i]))[0]:
            return i


_LS_WHY = ("its SVT scan beyond DS is simulated by Bernoulli thinning with floating-point probabilities, for which "
           "no floating-point-safe sampler exists")


def _ls_noise(stats, backend, size, *, epsilon, gs, chunk, note):
    """Q̂ = Q(I, GS) + Lap(4GS/ε); the SVT over i = 1..GS−1 (explicit up to DS, then exact thinning); Q(I, τ) +
    Lap(2τ/ε). The Laplace draws go through the (seeded numpy) back-end."""
    if size is not None:
        return np.array([_ls_noise(stats, backend, None, epsilon=epsilon, gs=gs, chunk=chunk, note=note).value
                         for _ in range(size)])
    gen = research_generator(backend, "LS", _LS_WHY)
    lap = backend.laplace
    e1, e2, e3 = epsilon / 4, epsilon / 4, epsilon / 2
    ell = int(math.ceil(gs))
    s = np.sort(stats.info.S)
    pref = np.concatenate([[0.0], np.cumsum(s)])
    Q = float(pref[-1])

    def qtrunc(i):
        return pref[np.searchsorted(s, i, side="right")]

    q_hat = float(qtrunc(np.array([ell]))[0]) + float(lap(ell / e1))
    t_noisy = float(lap(2 / e2))
    b = 4 / e2
    tau = None
    ds = int(math.ceil(stats.info.DS))
    start = 1
    explicit_end = min(ell - 1, ds)
    while start <= explicit_end and tau is None:
        stop = min(explicit_end, start + chunk - 1)
        i = np.arange(start, stop + 1, dtype=float)
        lhs = (qtrunc(i) - q_hat) / i + lap(b, i.size)
        hit = np.flatnonzero(lhs >= t_noisy)
        if hit.size:
            tau = float(i[hit[0]])
        start = stop + 1
    if tau is None and start <= ell - 1:
        c = Q - q_hat

        def p_of(i):
            t = t_noisy - c / i.astype(float)
            with np.errstate(over="ignore"):
                return np.where(t >= 0, 0.5 * np.exp(-np.abs(t) / b), 1 - 0.5 * np.exp(-np.abs(t) / b))

        a = start
        while a <= ell - 1 and tau is None:
            bnd = min(ell, max(a + 1, 2 * a))
            hit = _bern_first(p_of, a, bnd, gen)
            if hit is not None:
                tau = float(hit)
            a = bnd
    if tau is None:
        tau = float(ell)
    value = float(qtrunc(np.array([tau]))[0]) + float(lap(tau / e3))
    return Drawn(value, {"tau": tau}, {"q_hat": q_hat})


def _ls_taus(gs: float) -> range:
    """τ = 1..⌈GS⌉, the thresholds LS's SVT can stop at: a range, never a list (Fig. 9 runs GS = 10¹¹)."""
    return range(1, int(math.ceil(gs)) + 1)


LS = Mechanism(
    name="r2t.ls", summary="LS of Tao et al. (SJF, one primary private relation): Q̂, an SVT over i = 1..GS−1, then "
    "Q(I, τ) + Lap(2τ/ε) (research only)", relation=RELATION,
    params=(EPSILON(), Param("gs", float, help="GS_Q, the top of the SVT scan and Q̂'s truncation", low=0.0,
                             open_low=True),
            Param("chunk", int, 1 << 16, "block size of the explicit scan (no effect on the output law)", low=1),
            Param("note", str, "", "a label prefixed to the ledger notes")),
    cost=lambda *, epsilon, note, **_: planned(*((m, e, (f"{note}: " if note else "") + t) for m, e, t in (
        ("ls-laplace", epsilon / 4, "Q̂ = Q(I, GS) + Lap(4GS/ε)"), ("ls-svt", epsilon / 4, "SVT over i = 1..GS−1"),
        ("ls-laplace", epsilon / 2, "Q(I, τ) + Lap(2τ/ε)")))),
    statistics=lambda data, *, gs, **p: _info_stats(data, _ls_taus(gs)),
    sensitivity=lambda *, gs, **p: {f"Q(I,{t:g})": float(t) for t in _ls_taus(gs)},  # the harness's small GS only
    noise=_ls_noise,
    truth=lambda stats, **p: stats["Q(I)"],
    examples=_sjf_examples, neighbours=_sjf_neighbours, harness_params={"epsilon": 1.0, "gs": 4.0}, harness_samples=3000,
    release_type=BaselineRelease,
    references="Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §7 (LS of Tao et al.); spec 3.6.",
)


def ls(info: JoinInfo, *, epsilon: float, gs: float, rng: RngLike = None, accountant: AccountantLike | None = None,
       note: str = "", chunk: int = 1 << 16) -> BaselineRelease:
    """LS mechanism of Tao et al. (spec 3.6; budget ε/4, ε/4, ε/2): one :data:`LS` release. Spends ε. SJF COUNT/SUM
    with a single primary private relation. The linear SVT scan i = 1..GS−1 is evaluated exactly: explicitly
    (vectorised) up to DS, then — where Q(I,i) = Q(I) is constant — by thinning the first-success time of the
    per-step Bernoulli events (same law as the step-by-step scan). Research only (seeded numpy). Treated as public:
    ``gs`` (must not be chosen from the data) and ``epsilon``.

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §7 (LS of Tao et al.); spec 3.6.
    """
    p = LS.check_params({"epsilon": epsilon, "gs": gs, "chunk": chunk, "note": note})
    if not info.self_join_free or info.is_spja:
        raise ValueError("LS supports only self-join-free queries with one primary private relation (no projection)")
    if info.tags is not None and len(set(info.tags.tolist())) > 1:
        raise ValueError("LS does not support multiple primary private relations")
    research_generator(rng, "LS", _LS_WHY)  # refused before anything is spent
    rel = LS.release(info, rng=rng, accountant=accountant, **p)
    return dataclasses.replace(rel, mechanism="ls", public={"epsilon": p["epsilon"], "GS_Q": p["gs"]},
                               exact={"q_hat": rel.exact["q_hat"]})


# ---------------------------------------------------------------------------------
# the non-private part of SDE (NOT PRIVATE)
# ---------------------------------------------------------------------------------
def sde_parts(g: CSRGraph, query: str, theta: float, *, projection: tuple[float, np.ndarray] | None = None,
              time_limit: float | None = None) -> tuple[float, float]:
    """SDE's exact (distance to max degree θ, projected count): the non-private part of :func:`sde`, NOT PRIVATE.

    ``projection`` reuses :func:`sde_projection` of the same (G, θ) (the LP does not depend on the query).
    """
    opt, keep = projection if projection is not None else sde_projection(g, theta, time_limit=time_limit)
    return 4 * opt, count(g.induced_subgraph(keep), query)


__all__ = ["BaselineRelease", "GraphStats", "LS", "NT", "RM", "InfoStats", "SDE", "ls", "nt", "sde_parts",
           "quartic_noise", "restricted_sensitivity", "rm", "RMLPs", "sde"]
