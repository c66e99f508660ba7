"""R2T as the baseline for the inconsistency measure I_MI (seed 000 Table 1 and the R2T series of Figs. 4–5;
spec inconsistency 2.10): a cross-paper comparison, so it lives here and not in either paper.

I_MI of a database under binary denial constraints is the number of conflicting tuple
pairs = the edge count of the conflict graph. Under tuple-level DP (node-DP on the
conflict graph) it is a self-join counting query: every join result (a conflicting
pair) references two tuples, so R2T [Dong et al., SIGMOD'22] applies to it directly.
:func:`r2t_imi` runs R2T (:func:`dpworkbench.r2t.r2t`) on it with the exact max-flow
truncation; :func:`imi_truncation` builds the (cacheable) non-private part once, so
repeated runs only redraw the noise.

:class:`R2TIMI` is the inconsistency paper's baseline on one conflict graph, with the
artifact's settings as defaults: GS = n, β = 0.1, log base 5.5 with τ_i = 5.5^i for
i = 1..⌊log_5.5 GS⌋ (the R2T paper's default is base 2; both available). By default each
conflicting pair is one join result (``pairs="unordered"``, the R2T paper's formulation of a
self-join count). The artifact counted **ordered** pairs (each pair twice, the output halved):
``pairs="ordered"``; it is the same mechanism on a τ grid shifted by a factor 2, and with the
artifact's τ ≤ 5.5^5 ≈ 5,033 it truncates more on dense graphs (Adult: DS = 2·9,927).
Seeded noise is for reproducibility; it is not a private release.

Built on r2t's public functions only (:func:`~dpworkbench.r2t.from_arrays`, :class:`~dpworkbench.r2t.Truncation`,
:func:`~dpworkbench.r2t.r2t`); it takes the conflict graph (any object with ``n``, ``u``, ``v``, ``num_edges``,
e.g. :class:`dpworkbench.graphs.CSRGraph`), so it imports nothing from the inconsistency paper.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from .._validation import check_epsilon, check_probability
from ..accounting import Accountant, AccountantLike, Release
from ..r2t import Truncation, from_arrays, r2t
from ..r2t.mechanisms import R2TResult


def _research_only(rng: Any, flag: str, where: str) -> None:
    """A value read off the data may stand in for a public one only in a research run (seeded noise, listed in
    ``derived_public``); a release (``rng=None`` or the release back-end) refuses up front — before any spend — and
    names the argument to give (issue 21, finding 5). Depends on the arguments only, never on the data."""
    from ..mechanisms.backends import check_rng

    if not check_rng(rng).seeded:
        raise ValueError(f"{where}: a release needs {flag}; its default is read off the data (the number of tuples), "
                         "allowed only in a research run with a seed (rng=<int>)")


class IMIRelease(R2TResult):
    """The :class:`R2TResult` of :func:`r2t_imi`; ``release["value"|"true"|"DS"|"winner_tau"|"result"]`` read as the
    old result dict did (``true`` and ``DS`` are exact, NOT PRIVATE; ``result`` is the release itself)."""

    def __getitem__(self, key: str) -> Any:
        if key == "result":
            return self
        if key == "value":
            return self.value
        if key == "true":
            return self.exact["answer"]
        if key == "DS":
            return self.exact["DS"]
        return super().__getitem__(key)


def imi_truncation(edges: np.ndarray, n_tuples: int, *, method: str = "auto") -> Truncation:
    """Q(I, τ) of the I_MI query: one join result per row of ``edges`` ((m, 2) tuple ids; self-loops dropped).

    Rows are not deduplicated: pass each unordered pair once for the R2T paper's self-join count, or both
    orientations for the artifact's ordered-pair count. Values Q(I, τ) are cached inside the returned object.
    """
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    n_tuples = int(n_tuples)
    if e.size and (e.min() < 0 or e.max() >= n_tuples):
        raise ValueError(f"edges must hold tuple ids in [0, n_tuples={n_tuples})")
    e = e[e[:, 0] != e[:, 1]]
    info = from_arrays(np.ones(len(e)), [e[:, 0], e[:, 1]], n_primary=n_tuples, name="I_MI")
    return Truncation(info, method)


def r2t_imi(edges: np.ndarray | None, n_tuples: int, *, epsilon: float, beta: float = 0.1, gs: float | None = None,
            base: float = 2.0, rounding: str = "ceil", rng: Any = None, accountant: AccountantLike | None = None,
            truncation: Truncation | None = None, note: str = "") -> IMIRelease:
    """Private I_MI (number of conflicting unordered pairs) by R2T. Spends ε.

    ``edges``: (m, 2) array of conflicting tuple ids (each unordered pair once);
    ``gs`` defaults to ``n_tuples`` (a tuple conflicts with at most n−1 others), as in the artifact.
    Use ``base=5.5, rounding="floor"`` for the artifact's grid. ``truncation``: a cached
    :func:`imi_truncation` of the same instance (then ``edges`` may be None).

    Treated as public
    -----------------
    gs : GS_Q. When omitted it is ``n_tuples``, the database's size, which is **derived from the data** (one
        tuple more or less changes it, and with it the τ grid): allowed only in a research run (a seeded ``rng``),
        which lists it in ``derived_public``; a release (``rng=None``) without ``gs`` is refused up front.
    n_tuples : used only as that default (and to check the tuple ids)
    base, rounding, beta, epsilon : as in :func:`~dpworkbench.r2t.mechanisms.r2t`
    """
    if gs is None:
        _research_only(rng, "gs= (a public bound on GS_Q)", "r2t_imi")
    trunc = truncation if truncation is not None else imi_truncation(edges, n_tuples)
    info = trunc.info
    derived = () if gs is not None else ("GS_Q",)
    res = r2t(trunc, epsilon=epsilon, beta=beta, gs=float(gs if gs is not None else max(n_tuples, 2)), base=base,
              rounding=rounding, rng=rng, accountant=accountant, note=note or "R2T on I_MI (conflicting pairs)")
    return IMIRelease(value=res.value, ledger=res.ledger, public=res.public, derived_public=derived,
                      details=res.details, exact={**res.exact, "answer": float(info.answer), "DS": float(info.DS)},
                      private=res.private, mechanism="r2t")



class R2TIMI:
    """R2T on the I_MI query of one conflict graph, with the truncations cached across runs."""

    def __init__(self, graph, *, pairs: str = "unordered", base: float = 5.5, rounding: str = "floor",
                 beta: float = 0.1, gs: float | None = None, n_bound: int | None = None):
        """``gs`` (R2T's global-sensitivity bound) and ``n_bound`` (upper clip C(n_bound, 2)) are treated as
        public. Default GS = ``n_bound``; when neither is given the graph's own n is used and the release lists
        it in ``derived_public`` (the number of tuples is not public under add/remove-one-tuple neighbours)."""
        if pairs not in ("ordered", "unordered"):
            raise ValueError(f"pairs must be 'ordered' (the artifact) or 'unordered', got {pairs!r}")
        self.graph = graph
        self.pairs = pairs
        self.base = float(base)
        self.rounding = rounding
        self.beta = check_probability(beta, "beta")
        self.n_bound = int(n_bound) if n_bound is not None else None
        self.derived = () if (gs is not None or n_bound is not None) else ("gs = |D| (the data's own size)",
                                                                           "clip C(|D|, 2)")
        self.gs = float(gs if gs is not None else max(n_bound if n_bound is not None else graph.n, 2))
        u = np.asarray(graph.u, dtype=np.int64)
        v = np.asarray(graph.v, dtype=np.int64)
        keep = u != v
        u, v = u[keep], v[keep]
        if pairs == "ordered":
            u, v = np.concatenate([u, v]), np.concatenate([v, u])
        self.scale = 0.5 if pairs == "ordered" else 1.0
        self.true = float(graph.num_edges)
        self.trunc = imi_truncation(np.column_stack([u, v]), int(graph.n))  # caches Q(I, τ): the non-private part

    def run(self, epsilon: float, *, rng: Any = None, accountant: Accountant | None = None) -> Release:
        """One private I_MI by R2T, as a :class:`~dpworkbench.accounting.Release` (``["output"]`` reads it like a
        record). Spends ``epsilon`` (all of it; R2T composes its K τ-steps internally).

        Treated as public: ``epsilon``, β, the τ grid (base, rounding), GS and the clip bound (see ``__init__``).
        Neighbouring relation: add/remove one tuple (its node and its conflicting pairs)."""
        epsilon = check_epsilon(epsilon)
        if self.derived:
            _research_only(rng, "gs= or n_bound= (public bounds)", "R2TIMI.run")
        t0 = time.perf_counter()
        raw = r2t_imi(None, int(self.graph.n), epsilon=epsilon, beta=self.beta, gs=self.gs, base=self.base,
                      rounding=self.rounding, rng=rng, accountant=accountant, truncation=self.trunc,
                      note=f"R2T on I_MI ({self.pairs} pairs, base {self.base:g})")
        if isinstance(raw, Release):  # the r2t package's own Release (if it returns one)
            value, winner, taus = float(raw.value), raw.get("winner_tau"), raw.get("taus") or ()
        else:
            res = raw["result"]
            value, winner, taus = float(res.value), res.winner_tau, res.taus
        nb = self.n_bound if self.n_bound is not None else self.graph.n
        out = float(min(max(value * self.scale, 0.0), nb * (nb - 1) / 2))
        f_true = self.true
        public = {"measure": "I_MI", "strategy": "r2t", "epsilon": epsilon, "beta": self.beta, "gs": self.gs,
                  "base": self.base, "pairs": self.pairs, "tau_grid": ",".join(f"{t:g}" for t in taus),
                  "n_bound": nb}
        exact = {"true": f_true, "output_raw": float(value * self.scale),
                 "truncated": float("nan"), "noise": float("nan"),  # one truncation and noise per τ, not one overall
                 "seconds": time.perf_counter() - t0}
        details = {"winner_tau": winner, "tau_grid": public["tau_grid"], "base": self.base, "pairs": self.pairs}
        return Release(out, raw.ledger, public, self.derived, details, exact, True, "R2T on I_MI")


def artifact_r2t(graph, *, pairs: str = "ordered", base: float = 5.5, n_bound: int | None = None) -> R2TIMI:
    """The inconsistency paper's R2T baseline as its artifact ran it: ordered conflicting pairs with the output halved
    (spec inconsistency §2.10), GS = n (or the public ``n_bound``), β = 0.1, τ_i = 5.5^i, i = 1..⌊log_5.5 GS⌋.
    The one constructor of the R2T series of Figs. 4–5 (:func:`~dpworkbench.comparisons.figs45.r2t_noise_experiment`)
    and of Table 1 (:func:`~dpworkbench.comparisons.table1.table1_experiment`), so the two cannot drift apart;
    ``pairs="unordered"`` (the R2T paper's self-join count) only as a labelled sensitivity variant."""
    return R2TIMI(graph, pairs=pairs, base=base, rounding="floor", beta=0.1, n_bound=n_bound)


def r2t_imi_record(graph, epsilon: float, *, rng: Any = None, accountant: Accountant | None = None, **kw) -> Release:
    """One-off convenience: :class:`R2TIMI` (kwargs) then ``.run``. Spends ``epsilon``."""
    return R2TIMI(graph, **kw).run(epsilon, rng=rng, accountant=accountant)


__all__ = ["IMIRelease", "R2TIMI", "artifact_r2t", "imi_truncation", "r2t_imi", "r2t_imi_record"]
