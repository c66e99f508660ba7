"""Baselines of the experiments (spec 3.3–3.6): NT, SDE, RM (toy sizes), LS of Tao et al.

NT, SDE and RM are reconstructed from the authors' conference code (the paper gives no
formulas); RM in particular is the authors' simplified LP variant and not authoritative.
Each spends the ε it is given, records its ``privacy_cost_*`` plan on ``accountant`` before any draw and
returns a :class:`BaselineRelease` (``release["value"]`` still reads the private value).

Back-ends: RM draws all its noise through ``backend.add_laplace`` and runs on the release back-end
(``rng=None``). NT and SDE add smooth-sensitivity noise of density ∝ 1/(1+x⁴), and LS simulates its long SVT
scan by Bernoulli thinning with floating-point probabilities: no floating-point-safe sampler exists for either,
so these three are research baselines that refuse a release back-end (and ``rng=None``) with an error instead
of falling back to numpy noise.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.sparse as sp

from .._validation import check_epsilon, check_positive
from ..accounting import AccountantLike, LedgerEntry, Release, open_ledger, planned, record_spend
from ..graphs import CSRGraph
from .joininfo import JoinInfo
from ..mechanisms.backends import RngLike, check_rng
from .mechanisms import research_generator, tau_grid
from .patterns import check_query, count
from .model import highs_model, pass_rowwise, solve_optimal

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


def privacy_cost_nt(epsilon: float) -> tuple[LedgerEntry, ...]:
    """NT's plan: one smooth-sensitivity release of ε (θ is data independent)."""
    return planned(("nt", check_epsilon(epsilon), "NT: truncated count + smooth-sensitivity noise"))


def privacy_cost_sde(epsilon: float) -> tuple[LedgerEntry, ...]:
    """SDE's plan: one smooth-sensitivity release of ε (θ is data independent)."""
    return planned(("sde", check_epsilon(epsilon), "SDE: projected count + smooth-sensitivity noise"))


def privacy_cost_rm(epsilon: float) -> tuple[LedgerEntry, ...]:
    """RM's plan: ε/2 for the noisy Δ̂, ε/2 for the Laplace release of X."""
    epsilon = check_epsilon(epsilon)
    return planned(("rm-delta", epsilon / 2, "RM phase 1: ln Δ̂ = ln Δ + 1 + Lap(β/ε₁)"),
                   ("rm-laplace", epsilon / 2, "RM phase 2: X + Lap(Δ̂/ε₁)"))


def privacy_cost_ls(epsilon: float) -> tuple[LedgerEntry, ...]:
    """LS's plan (Tao et al.): ε/4 for Q̂, ε/4 for the SVT, ε/2 for the final Laplace."""
    epsilon = check_epsilon(epsilon)
    return planned(("ls-laplace", epsilon / 4, "Q̂ = Q(I, GS) + Lap(4GS/ε)"), ("ls-svt", epsilon / 4, "SVT over i = 1..GS−1"),
                   ("ls-laplace", epsilon / 2, "Q(I, τ) + Lap(2τ/ε)"))


def _record(accountant, plan, note: str = ""):
    acc, mark = open_ledger(accountant)
    for e in plan:
        record_spend(acc, e.epsilon, e.mechanism, f"{note}: {e.note}" if note else e.note)
    return acc, mark


# ---------------------------------------------------------------------------------
# NT: naive truncation + smooth sensitivity (Kasiviswanathan et al.)
# ---------------------------------------------------------------------------------
def nt(g: CSRGraph, query: str, *, epsilon: float, degree_bound: int, theta: float | None = None, rng: RngLike = None,
       accountant: AccountantLike | None = None, note: str = "") -> BaselineRelease:
    """NT (spec 3.3). θ uniform on {2, 4, ..., D} unless given. Spends ε. Research only (seeded numpy).

    Treated as public
    -----------------
    degree_bound : D, the public degree bound (θ's grid {2, 4, ..., D})
    theta : θ when given (must not be chosen from the data)
    epsilon : ε

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §10 (NT of Kasiviswanathan et al.); spec 3.3.
    """
    epsilon = check_epsilon(epsilon)
    gen = research_generator(rng, "NT", _SMOOTH_WHY)
    acc, mark = _record(accountant, privacy_cost_nt(epsilon), note or f"NT {query}")
    given = theta is not None
    if theta is None:
        grid = tau_grid(degree_bound, 2.0)
        theta = float(grid[gen.integers(grid.size)])
    deg = g.degrees
    keep = np.flatnonzero(deg <= theta)
    f = count(g.induced_subgraph(keep), query)
    beta_s = epsilon / 10
    dmax = int(deg.max()) if deg.size else 0
    hist = np.bincount(deg, minlength=dmax + 1)
    cum = np.concatenate([[0], np.cumsum(hist)])

    def n_between(lo, hi):
        lo = max(int(lo), 0)
        hi = min(int(hi), dmax)
        return 0 if hi < lo else int(cum[hi + 1] - cum[lo])

    rs = restricted_sensitivity(query, theta)
    upto = max(dmax, int(theta))
    i = np.arange(upto)
    counts = np.array([n_between(theta - k, theta + k + 1) for k in i]) if upto else np.zeros(1)
    ss = rs * float(np.max(np.exp(-beta_s * i) * (counts + i + 1))) if upto else rs
    value = f + 10 * ss / epsilon * quartic_noise(gen)
    return BaselineRelease(value=float(value), ledger=acc.entries_since(mark), mechanism="nt",
                           public={"epsilon": epsilon, "degree_bound": degree_bound, **({"theta": theta} if given else {})},
                           details={} if given else {"theta": theta},
                           exact={"truncated_count": f, "smooth_sensitivity": ss})


# ---------------------------------------------------------------------------------
# SDE: smooth distance estimator (Blocki et al.)
# ---------------------------------------------------------------------------------
def sde_projection(g: CSRGraph, theta: float, *, time_limit: float | None = None) -> tuple[float, np.ndarray]:
    """SDE's distance LP (spec 3.4): (LP optimum, nodes kept by the projection x < 1/4). Depends on (G, θ) only. NOT PRIVATE.

    ``time_limit`` (seconds) makes a slow solve raise :class:`~dpworkbench.r2t.model.SolverError` (reported as "OT").
    """
    e = g.edge_array().astype(np.int64)
    n, m = g.n, e.shape[0]
    # variables [x (n) | w (m)]; min Σ x ; rows: Σ_{e∋v} w_e ≤ θ ; −(w_e + x_u + x_v) ≤ −1
    inc = sp.csr_matrix((np.ones(2 * m), (np.concatenate([e[:, 0], e[:, 1]]), np.tile(np.arange(m), 2))), shape=(n, m))
    rows1 = sp.hstack([sp.csr_matrix((n, n)), inc], format="csr")
    xe = sp.csr_matrix((np.ones(2 * m), (np.tile(np.arange(m), 2), np.concatenate([e[:, 0], e[:, 1]]))), shape=(m, n))
    rows2 = -sp.hstack([xe, sp.identity(m, format="csr")], format="csr")
    A = sp.vstack([rows1, rows2], format="csr")
    h = highs_model(time_limit)
    pass_rowwise(h, np.concatenate([np.ones(n), np.zeros(m)]), np.zeros(n + m), np.ones(n + m),
                  np.full(n + m, -_INF), np.concatenate([np.full(n, float(theta)), -np.ones(m)]), A, maximize=False)
    opt = solve_optimal(h, "SDE distance LP")
    x = np.asarray(h.getSolution().col_value[:n])
    return opt, np.flatnonzero(x < 0.25)


def sde(g: CSRGraph, query: str, *, epsilon: float, degree_bound: int, theta: float | None = None, rng: RngLike = None,
        accountant: AccountantLike | None = None, note: str = "") -> BaselineRelease:
    """SDE (spec 3.4): one LP of size |V| + |E| for the distance to max degree θ, projection, smooth noise. Spends ε.
    Research only (seeded numpy).

    Treated as public
    -----------------
    degree_bound : D, the public degree bound (θ's grid {2, 4, ..., D})
    theta : θ when given (must not be chosen from the data)
    epsilon : ε

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §10 (SDE of Blocki et al.); spec 3.4.
    """
    epsilon = check_epsilon(epsilon)
    gen = research_generator(rng, "SDE", _SMOOTH_WHY)
    acc, mark = _record(accountant, privacy_cost_sde(epsilon), note or f"SDE {query}")
    given = theta is not None
    if theta is None:
        grid = tau_grid(degree_bound, 2.0)
        theta = float(grid[gen.integers(grid.size)])
    opt, keep = sde_projection(g, theta)
    d_hat = 4 * opt
    f = count(g.induced_subgraph(keep), query)
    beta_s = epsilon / 10
    cands = [math.ceil(d_hat), math.floor(4 / beta_s - 2.5), math.ceil(4 / beta_s - 2.5)]
    rs = restricted_sensitivity(query, 2 * theta)
    s = max(math.exp(-beta_s / 4 * (d - d_hat)) * (2 * d + 5) * rs for d in cands if d >= d_hat) if any(d >= d_hat for d in cands) else (2 * d_hat + 5) * rs
    value = f + 10 * s / epsilon * quartic_noise(gen)
    return BaselineRelease(value=float(value), ledger=acc.entries_since(mark), mechanism="sde",
                           public={"epsilon": epsilon, "degree_bound": degree_bound, **({"theta": theta} if given else {})},
                           details={} if given else {"theta": theta},
                           exact={"distance": d_hat, "projected_count": f, "smooth_bound": s})


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


def rm(info: JoinInfo, *, epsilon: float, delta: float = 0.1, rng: RngLike = None, max_results: int = 5000,
       accountant: AccountantLike | None = None, note: str = "", lps: "RMLPs | None" = None) -> BaselineRelease:
    """Recursive mechanism, authors' simplified LP variant (spec 3.5). Spends ε (ε/2 per phase). Toy sizes only.

    Both noisy values go through ``backend.add_laplace`` (``rng=None``: the release back-end).

    Treated as public
    -----------------
    delta : δ of the recursive mechanism (sets β = ε₁ / log₂(1/δ))
    epsilon : ε
    max_results : the size cap (refusal depends on the join size; raise it explicitly for larger toys)

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §10 (RM of Chen and Zhou, the authors' LP variant); spec 3.5.
    """
    epsilon = check_epsilon(epsilon)
    if info.m > max_results:
        raise ValueError(f"RM is limited to ≤ {max_results} join results (got {info.m}); report it as out of time")
    acc, mark = _record(accountant, privacy_cost_rm(epsilon), note)
    backend = check_rng(rng)
    eps1 = epsilon / 2
    beta_rm = eps1 / math.log2(1 / delta)
    lps = lps if lps is not None else RMLPs(info)  # LP values are non-private: shareable across runs
    N = info.n

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
    return BaselineRelease(value=value, ledger=acc.entries_since(mark), mechanism="rm",
                           public={"epsilon": epsilon, "delta": delta}, details={"delta_hat": delta_hat},
                           exact={"X": X, "i_star": i_star, "lps": lps.solved_count})


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


def ls(info: JoinInfo, *, epsilon: float, gs: float, rng: RngLike = None, accountant: AccountantLike | None = None,
       note: str = "", chunk: int = 1 << 16) -> BaselineRelease:
    """LS mechanism of Tao et al. (spec 3.6; budget ε/4, ε/4, ε/2). Spends ε. SJF COUNT/SUM with single R_P.

    The linear SVT scan i = 1..GS−1 is evaluated exactly: explicitly (vectorised) up to DS,
    then — where Q(I,i) = Q(I) is constant — by thinning the first-success time of the
    per-step Bernoulli events, which has the same law as the step-by-step scan. Research only (seeded
    numpy): the thinning has no floating-point-safe sampler.

    Treated as public
    -----------------
    gs : GS_Q, the top of the SVT scan and Q̂'s truncation (must not be chosen from the data)
    epsilon : ε

    References
    ----------
    Dong, Fang, Yi, Tao, Machanavajjhala, TODS 2024, §7 (LS of Tao et al.); spec 3.6.
    """
    epsilon = check_epsilon(epsilon)
    gs = check_positive(gs, "gs")
    if not info.self_join_free or info.is_spja:
        raise ValueError("LS supports only self-join-free queries with one primary private relation (no projection)")
    if info.tags is not None and len(set(info.tags.tolist())) > 1:
        raise ValueError("LS does not support multiple primary private relations")
    gen = research_generator(rng, "LS", "its SVT scan beyond DS is simulated by Bernoulli thinning with floating-point "
                             "probabilities, for which no floating-point-safe sampler exists")
    acc, mark = _record(accountant, privacy_cost_ls(epsilon), note)
    e1, e2, e3 = epsilon / 4, epsilon / 4, epsilon / 2
    ell = int(math.ceil(gs))
    s = np.sort(info.S)
    pref = np.concatenate([[0.0], np.cumsum(s)])
    Q = float(pref[-1])

    def qtrunc(i):
        return pref[np.searchsorted(s, i, side="right")]

    q_hat = float(qtrunc(np.array([ell]))[0]) + gen.laplace(0, ell / e1)
    t_noisy = gen.laplace(0, 2 / e2)
    b = 4 / e2
    tau = None
    ds = int(math.ceil(info.DS))
    start = 1
    explicit_end = min(ell - 1, ds)
    while start <= explicit_end and tau is None:
        stop = min(explicit_end, start + chunk - 1)
        i = np.arange(start, stop + 1, dtype=float)
        lhs = (qtrunc(i) - q_hat) / i + gen.laplace(0, b, i.size)
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
    value = float(qtrunc(np.array([tau]))[0]) + gen.laplace(0, tau / e3)
    return BaselineRelease(value=value, ledger=acc.entries_since(mark), mechanism="ls",
                           public={"epsilon": epsilon, "GS_Q": gs}, details={"tau": tau},
                           exact={"q_hat": q_hat})


# ---------------------------------------------------------------------------------
# repetitions over cached non-private parts (experiments: only the noise is redrawn)
# ---------------------------------------------------------------------------------
def nt_from_count(g: CSRGraph, query: str, theta: float, f: float, epsilon: float, gen: np.random.Generator) -> float:
    """NT's output given the exact truncated count ``f`` at θ (same law as :func:`nt` with θ given; research only)."""
    epsilon = check_epsilon(epsilon)
    deg = g.degrees
    beta_s = epsilon / 10
    dmax = int(deg.max())
    hist = np.bincount(deg, minlength=dmax + 1)
    cum = np.concatenate([[0], np.cumsum(hist)])
    upto = max(dmax, int(theta))
    i = np.arange(upto)
    lo = np.clip(theta - i, 0, dmax + 1).astype(int)
    hi = np.clip(theta + i + 1, -1, dmax).astype(int)
    cnt = np.where(hi >= lo, cum[np.minimum(hi + 1, dmax + 1)] - cum[lo], 0)
    ss = restricted_sensitivity(query, theta) * float(np.max(np.exp(-beta_s * i) * (cnt + i + 1)))
    return f + 10 * ss / epsilon * quartic_noise(gen)


def sde_parts(g: CSRGraph, query: str, theta: float, *, projection: tuple[float, np.ndarray] | None = None,
              time_limit: float | None = None) -> tuple[float, float]:
    """SDE's exact (distance to max degree θ, projected count): the non-private part of :func:`sde`, NOT PRIVATE.

    ``projection`` reuses :func:`sde_projection` of the same (G, θ) (the LP does not depend on the query).
    """
    opt, keep = projection if projection is not None else sde_projection(g, theta, time_limit=time_limit)
    return 4 * opt, count(g.induced_subgraph(keep), query)


def sde_from_parts(query: str, theta: float, d_hat: float, f: float, epsilon: float, gen: np.random.Generator) -> float:
    """SDE's output given :func:`sde_parts` (same law as :func:`sde` with θ given; research only)."""
    epsilon = check_epsilon(epsilon)
    beta_s = epsilon / 10
    cands = [math.ceil(d_hat), math.floor(4 / beta_s - 2.5), math.ceil(4 / beta_s - 2.5)]
    rs = restricted_sensitivity(query, 2 * theta)
    ok = [d for d in cands if d >= d_hat]
    s = max(math.exp(-beta_s / 4 * (d - d_hat)) * (2 * d + 5) * rs for d in ok) if ok else (2 * d_hat + 5) * rs
    return f + 10 * s / epsilon * quartic_noise(gen)


__all__ = ["BaselineRelease", "ls", "nt", "nt_from_count", "sde_from_parts", "sde_parts", "privacy_cost_ls", "privacy_cost_nt", "privacy_cost_rm", "privacy_cost_sde",
           "quartic_noise", "restricted_sensitivity", "rm", "RMLPs", "sde"]
