"""PrivateClean beyond one column (issue 25): predicates over several randomised attributes, GROUP BY over a public
group domain, VAR/STD, and views over public tables, with the bias correction derived for the joint truth table.

Post-processing only: every estimator here reads the cleaned private relation C(V) and public inputs (each
partition's p and released domain, Laplace's b, the analyst's cleaners, predicate, group domain and public tables).
It spends no ε; the privacy of an answer is that of the :func:`~dpworkbench.privateclean.grr` release.

Derivation (the joint truth table)
----------------------------------
Let the attributes a predicate φ reads lie in the GRR partitions g_1, …, g_k (an attribute of a *joint* partition
lies in that partition; a partition of one attribute is the paper's case). Partition g_j has released domain D_j of
size N_j and replacement probability p_j, and its records are randomised independently of every other partition's:
a row with true value r_j keeps it w.p. 1 − p_j, else draws uniformly from D_j (which may redraw r_j). Its transition
matrix is K_j = (1 − p_j) I + (p_j/N_j) J (J the all-ones matrix), and the row's released tuple v = (v_1, …, v_k) has
law K = K_1 ⊗ … ⊗ K_k given r = (r_1, …, r_k).

The cleaned predicate is a function of the dirty tuple: f(u) = φ(C(u)) ∈ {0, 1} on D = D_1 × … × D_k, with C the
composed single-attribute cleaners (merge, transform, extract, and a join with a public table, which is an extract
through the table's lookup) applied attribute by attribute — the *truth table* of φ over the randomised attributes.
We want a weight w(v) with E[w(v) | r] = f(r) for every r, i.e. K w = f, so w = K^{-1} f. Since J² = N J,
(aI + cJ)^{-1} = (I − c/(a + cN) J)/a, and a + cN = 1 − p + p = 1 here:

    K_j^{-1} = (I − (p_j/N_j) J) / (1 − p_j),          K^{-1} = K_1^{-1} ⊗ … ⊗ K_k^{-1}.

Applied one axis at a time (each factor acts on its own coordinate):

    w = T_1 ∘ … ∘ T_k f,   (T_j h)(v) = [h(v) − (p_j/N_j) Σ_{u ∈ D_j} h(v with v_j := u)] / (1 − p_j),

which expands to w(v) = Π_j (1 − p_j)^{-1} Σ_{A ⊆ {1..k}} Π_{j ∈ A} (−p_j/N_j) Σ_{u_A ∈ D_A} f(v_{−A}, u_A).
For k = 1 this is the paper's Eq. 3 row weight (I(v) − p·l/N)/(1 − p) with l = |{u ∈ D : φ(C(u))}| (PC-W with a
fork-free cleaner; :func:`~dpworkbench.privateclean.estimators.estimate` agrees, tested). Attributes sharing a
partition are one axis (their tuple is randomised jointly); AND, OR, NOT, IN and ranges are whatever f they make.

* COUNT: Ĉ = Σ_i w(v_i), unbiased: E Ĉ = Σ_i f(r_i).
* SUM of a Laplace-noised numeric x (y = x + Lap(b), clipped before the noise, drawn independently of the GRR
  draws): Ĥ = Σ_i w(v_i) y_i, unbiased since E[w y | r, x] = f(r) x.
* AVG = Ĥ/Ĉ (ratio; consistent, bias O(1/n)).
* VAR (population variance over the selected rows) = Q̂/Ĉ − (Ĥ/Ĉ)² with Q̂ = Σ_i w(v_i)(y_i² − 2b²), because
  E[y²] = x² + Var Lap(b) = x² + 2b²; STD = √max(VAR, 0).
* GROUP BY G over a public group domain M: for each m ∈ M the predicate φ ∧ (G = m); one truth table with a leading
  group axis (the group attribute's partition is one more axis; a group value no row holds still gets its estimate).

Direct evaluates φ on C(V) (w = f, no correction; for VAR the raw y without −2b²).

Intervals (95 %, per-row CLT): for a total T̂ = Σ_i t_i, T̂ ± z √(S · var_i(t_i)); for a ratio the delta method on
the per-row influence: AVG u_i = (h_i − μ c_i)/Ĉ; VAR u_i = (q_i − 2μ h_i + (2μ² − μ₂) c_i)/Ĉ (μ₂ = Q̂/Ĉ); STD
u_i/(2 σ̂). The variance is the sample variance over rows of S independent but not identically distributed terms: it
estimates Σ E t_i² − (Σ E t_i)²/S ≥ Σ Var t_i, so it is conservative for totals. Coverage is measured
(tests/privateclean/test_multi.py, the notebook).

A predicate on the Laplace-noised numeric attribute itself is refused: an unbiased estimate of E 1[x ∈ [lo, hi]] from
y = x + Lap(b) would need (1 − b² d²/dx²) applied to an indicator, which is a distribution, not a function.
"""
from __future__ import annotations

import abc
import math
import re
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from dpworkbench._validation import check_options
from dpworkbench.experiments.metrics import signed_error

from .estimators import Estimate
from .mechanisms import key_columns, partition_codes
from .model import CleanedRelation, denull

AGGS = ("count", "sum", "avg", "var", "std", "median", "percentile")
MAX_TABLE_CELLS = 5_000_000  # the truth table's size (product of the involved partitions' domains × groups)


# --------------------------------------------------------------------------------------------------------------------
# predicates: a small public expression language, evaluated on the truth table (domain values), never row by row
# --------------------------------------------------------------------------------------------------------------------
def _num(v: Any) -> float | None:
    if v is None or isinstance(v, bool):
        return None
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def _same(cell: Any, value: Any) -> bool:
    if value is None:
        return denull(cell) is None
    cell = denull(cell)
    if cell is None:
        return False
    if cell == value or str(cell) == str(value):
        return True
    a, b = _num(cell), _num(value)
    return a is not None and b is not None and a == b


class Predicate(abc.ABC):
    """A predicate over attribute values; ``evaluate(values)`` with {attr: object array} → bool array. Abstract: the
    predicate forms are its subclasses below (Eq, In, Range, And, Or, Not, TrueP)."""

    @abc.abstractmethod
    def attrs(self) -> list[str]:
        """The attributes the predicate reads."""

    @abc.abstractmethod
    def evaluate(self, values: dict[str, np.ndarray]) -> np.ndarray:
        """The predicate's truth value per row."""

    def __and__(self, other: "Predicate") -> "Predicate":
        return And((self, other))

    def __or__(self, other: "Predicate") -> "Predicate":
        return Or((self, other))

    def __invert__(self) -> "Predicate":
        return Not(self)


def _cellwise(fn: Callable[[Any], bool], arr: np.ndarray) -> np.ndarray:
    # each distinct value once (the table holds few distinct values per attribute)
    codes, uniq = pd.factorize(pd.Series(arr.ravel(), dtype=object), use_na_sentinel=False)
    hit = np.array([bool(fn(u)) for u in uniq], dtype=bool)
    return hit[codes].reshape(arr.shape) if len(uniq) else np.zeros(arr.shape, dtype=bool)


@dataclass(frozen=True)
class Eq(Predicate):
    attr: str
    value: Any

    def attrs(self):
        return [self.attr]

    def evaluate(self, values):
        return _cellwise(lambda c: _same(c, self.value), values[self.attr])


@dataclass(frozen=True)
class In(Predicate):
    attr: str
    values: tuple

    def attrs(self):
        return [self.attr]

    def evaluate(self, values):
        return _cellwise(lambda c: any(_same(c, v) for v in self.values), values[self.attr])


@dataclass(frozen=True)
class Range(Predicate):
    """lo ≤ attr ≤ hi (either end open or absent); a value that is not a number (or NULL) is outside."""
    attr: str
    lo: float | None = None
    hi: float | None = None
    lo_open: bool = False
    hi_open: bool = False

    def attrs(self):
        return [self.attr]

    def _hit(self, c):
        x = _num(denull(c))
        if x is None:
            return False
        if self.lo is not None and (x < self.lo or (self.lo_open and x == self.lo)):
            return False
        return not (self.hi is not None and (x > self.hi or (self.hi_open and x == self.hi)))

    def evaluate(self, values):
        return _cellwise(self._hit, values[self.attr])


@dataclass(frozen=True)
class And(Predicate):
    parts: tuple

    def attrs(self):
        return list(dict.fromkeys(a for p in self.parts for a in p.attrs()))

    def evaluate(self, values):
        return np.logical_and.reduce([p.evaluate(values) for p in self.parts])


@dataclass(frozen=True)
class Or(Predicate):
    parts: tuple

    def attrs(self):
        return list(dict.fromkeys(a for p in self.parts for a in p.attrs()))

    def evaluate(self, values):
        return np.logical_or.reduce([p.evaluate(values) for p in self.parts])


@dataclass(frozen=True)
class Not(Predicate):
    part: Predicate

    def attrs(self):
        return self.part.attrs()

    def evaluate(self, values):
        return ~self.part.evaluate(values)


@dataclass(frozen=True)
class TrueP(Predicate):
    def attrs(self):
        return []

    def evaluate(self, values):
        shape = next(iter(values.values())).shape if values else ()
        return np.ones(shape, dtype=bool)


_TOKEN = re.compile(r"\s*(?:(?P<str>'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\")|(?P<bq>`[^`]+`)|(?P<op><=|>=|!=|<>|=|<|>|\(|\)|,)"
                    r"|(?P<word>[^\s=<>!(),'\"`]+))")
_KEYWORDS = {"AND", "OR", "NOT", "IN", "BETWEEN", "IS", "NULL"}


def _tokens(text: str) -> list[tuple[str, Any]]:
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ValueError(f"--where: cannot read the expression at character {pos + 1}: {text[pos:pos + 20]!r}")
        pos = m.end()
        if m.group("str") is not None:
            q = m.group("str")
            out.append(("value", q[1:-1].replace(q[0] * 2, q[0])))
        elif m.group("bq") is not None:
            out.append(("name", m.group("bq")[1:-1]))
        elif m.group("op") is not None:
            out.append(("op", m.group("op")))
        else:
            w = m.group("word")
            out.append(("kw", w.upper()) if w.upper() in _KEYWORDS else ("word", w))
    return out


def parse_where(text: str) -> Predicate:
    """Parse a public predicate expression over several attributes, e.g.
    ``carrier = 'AA' AND (origin IN ('JFK', 'LGA') OR dep_hour BETWEEN 6 AND 9)``.

    Grammar: OR of ANDs of [NOT] atoms; an atom is ``(expr)``, ``attr = v``, ``attr != v``, ``attr IN (v, …)``,
    ``attr BETWEEN lo AND hi``, ``attr < x`` (``<=``, ``>``, ``>=``), ``attr IS [NOT] NULL``. Values are quoted
    ('…' or "…") or bare words/numbers (a bare value equals a cell holding the same text or the same number);
    attribute names with spaces in backquotes. Errors name the position, never data."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("--where is empty")
    toks = _tokens(text)
    i = 0

    def peek(k=0):
        return toks[i + k] if i + k < len(toks) else ("end", None)

    def take(kind=None, val=None):
        nonlocal i
        t = peek()
        if (kind and t[0] != kind) or (val is not None and t[1] != val):
            want = val or kind
            raise ValueError(f"--where: expected {want!r} at token {i + 1}, found {t[1] if t[1] is not None else 'the end'!r}")
        i += 1
        return t

    def value():
        t = peek()
        if t[0] in ("value", "word"):
            take()
            return t[1]
        if t == ("kw", "NULL"):
            take()
            return None
        raise ValueError(f"--where: expected a value at token {i + 1}")

    def number():
        t = value()
        x = _num(t)
        if x is None:
            raise ValueError(f"--where: a range needs a number, got {t!r}")
        return x

    def atom():
        t = peek()
        if t == ("op", "("):
            take()
            e = expr()
            take("op", ")")
            return e
        if t == ("kw", "NOT"):
            take()
            return Not(atom())
        if t[0] not in ("word", "name"):
            raise ValueError(f"--where: expected an attribute name at token {i + 1}")
        attr = take()[1]
        op = peek()
        if op == ("op", "="):
            take()
            return Eq(attr, value())
        if op[0] == "op" and op[1] in ("!=", "<>"):
            take()
            return Not(Eq(attr, value()))
        if op == ("kw", "IN") or (op == ("kw", "NOT") and peek(1) == ("kw", "IN")):
            neg = op[1] == "NOT"
            take()
            if neg:
                take("kw", "IN")
            take("op", "(")
            vals = [value()]
            while peek() == ("op", ","):
                take()
                vals.append(value())
            take("op", ")")
            p = In(attr, tuple(vals))
            return Not(p) if neg else p
        if op == ("kw", "BETWEEN"):
            take()
            lo = number()
            take("kw", "AND")
            return Range(attr, lo, number())
        if op[0] == "op" and op[1] in ("<", "<=", ">", ">="):
            take()
            x = number()
            return {"<": Range(attr, hi=x, hi_open=True), "<=": Range(attr, hi=x),
                    ">": Range(attr, lo=x, lo_open=True), ">=": Range(attr, lo=x)}[op[1]]
        if op == ("kw", "IS"):
            take()
            neg = peek() == ("kw", "NOT")
            if neg:
                take()
            take("kw", "NULL")
            return Not(Eq(attr, None)) if neg else Eq(attr, None)
        raise ValueError(f"--where: expected =, !=, IN, BETWEEN, <, <=, >, >= or IS after {attr!r}")

    def conj():
        parts = [atom()]
        while peek() == ("kw", "AND"):
            take()
            parts.append(atom())
        return parts[0] if len(parts) == 1 else And(tuple(parts))

    def expr():
        parts = [conj()]
        while peek() == ("kw", "OR"):
            take()
            parts.append(conj())
        return parts[0] if len(parts) == 1 else Or(tuple(parts))

    out = expr()
    if i != len(toks):
        raise ValueError(f"--where: unexpected {toks[i][1]!r} at token {i + 1}")
    return out


def as_predicate(where: Any) -> Predicate:
    if where is None:
        return TrueP()
    if isinstance(where, Predicate):
        return where
    if isinstance(where, str):
        return parse_where(where)
    raise ValueError(f"where must be a Predicate or an expression string, got {type(where).__name__}")


# --------------------------------------------------------------------------------------------------------------------
# the core on arrays (vectorised over leading axes: Monte-Carlo instances, groups)
# --------------------------------------------------------------------------------------------------------------------
def correction_table(truth: np.ndarray, ps: Sequence[float | None], *, first_axis: int = 0) -> np.ndarray:
    """w = K^{-1} f: the truth table ``truth`` (axes ``first_axis…`` one per partition, in the order of ``ps``)
    with each partition's K_j^{-1} = (I − (p_j/N_j) J)/(1 − p_j) applied on its axis (module docstring)."""
    g = np.asarray(truth, dtype=float)
    for j, p in enumerate(ps):
        if p is None or p == 0:
            continue
        if not 0 <= p < 1:
            raise ValueError(f"p must be in [0, 1) for the correction, got {p}")
        ax = first_axis + j
        g = (g - (p / g.shape[ax]) * g.sum(axis=ax, keepdims=True)) / (1.0 - p)
    return g


def row_weights(table: np.ndarray, codes: Sequence[np.ndarray], *, groups: bool = False) -> np.ndarray:
    """Each row's weight table[codes…] (codes: one array per partition axis, any shape, e.g. instances × rows). With
    ``groups`` the table's leading axis is the group axis and the result has it first."""
    idx = tuple(np.asarray(c, dtype=np.int64) for c in codes)
    if groups:
        return np.stack([table[k][idx] for k in range(table.shape[0])])
    return table[idx]


def aggregate(agg: str, w: np.ndarray, y: np.ndarray | None = None, *, b: float = 0.0, z: float = 1.96,
              interval: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(estimate, lo, hi) of ``agg`` from row weights ``w`` (… × S) and noisy numbers ``y`` (… × S, broadcast),
    reduced over the last axis (module docstring: totals by the per-row CLT, ratios by the delta method; VAR removes
    Laplace's variance 2b²). A ratio whose count estimate is ≤ 0 is NaN."""
    check_options(agg, "agg", AGGS)
    w = np.asarray(w, dtype=float)
    S = w.shape[-1]
    nan = np.full(w.shape[:-1], np.nan)
    if agg == "count":
        est = w.sum(-1)
        half = z * np.sqrt(S * w.var(-1)) if interval else nan
        return est, est - half, est + half
    if y is None:
        raise ValueError(f"{agg} needs a numeric attribute")
    y = np.asarray(y, dtype=float)
    h = w * y
    H = h.sum(-1)
    if agg == "sum":
        half = z * np.sqrt(S * h.var(-1)) if interval else nan
        return H, H - half, H + half
    C = w.sum(-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        Cp = np.where(C > 0, C, np.nan)
        mu = H / Cp
        if agg == "avg":
            u = (h - mu[..., None] * w) / Cp[..., None]
            half = z * np.sqrt(S * u.var(-1)) if interval else nan
            return mu, mu - half, mu + half
        q = w * (y * y - 2.0 * b * b)
        mu2 = q.sum(-1) / Cp
        var = mu2 - mu * mu
        u = (q - 2 * mu[..., None] * h + (2 * mu * mu - mu2)[..., None] * w) / Cp[..., None]
        if agg == "var":
            half = z * np.sqrt(S * u.var(-1)) if interval else nan
            return var, var - half, var + half
        sd = np.sqrt(np.maximum(var, 0.0))
        half = z * np.sqrt(S * u.var(-1)) / (2 * np.where(sd > 0, sd, np.nan)) if interval else nan
        return sd, np.maximum(sd - half, 0.0), sd + half


def aggregate_cells(agg: str, W: np.ndarray, n: np.ndarray, m: Sequence[np.ndarray] = (), *, S: int, b: float = 0.0,
                    z: float = 1.96, interval: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`aggregate` from the cells of the truth table instead of the rows (the same numbers, tested): ``W``
    (… × M) the weight of each cell, ``n`` (M,) the rows per cell and ``m[k-1]`` (M,) Σ y^k over a cell's rows
    (k = 1..4 as the aggregate needs). Each row term is w_cell · r(y_i) for a polynomial r, so Σ_i t_i = W @ Σ r and
    S·var_i(t_i) = W² @ Σ r² − (W @ Σ r)²/S: a query over 10⁶ rows costs a few bincounts and matrix products."""
    check_options(agg, "agg", AGGS[:5])
    W = np.asarray(W, dtype=float)
    W2 = W * W
    nanv = np.full(W.shape[:-1], np.nan)

    def svar(s1, s2):
        return np.maximum(s2 - s1 * s1 / S, 0.0)
    C = W @ n
    if agg == "count":
        half = z * np.sqrt(svar(C, W2 @ n)) if interval else nanv
        return C, C - half, C + half
    m1, m2 = m[0], m[1]
    H = W @ m1
    if agg == "sum":
        half = z * np.sqrt(svar(H, W2 @ m2)) if interval else nanv
        return H, H - half, H + half
    with np.errstate(invalid="ignore", divide="ignore"):
        Cp = np.where(C > 0, C, np.nan)
        mu = H / Cp
        mu_ = mu[..., None]
        if agg == "avg":  # u = w (y − μ)/C
            s1 = (W * (m1 - mu_ * n)).sum(-1) / Cp
            s2 = (W2 * (m2 - 2 * mu_ * m1 + mu_ * mu_ * n)).sum(-1) / Cp ** 2
            half = z * np.sqrt(svar(s1, s2)) if interval else nanv
            return mu, mu - half, mu + half
        m3, m4 = m[2], m[3]
        Q = W @ (m2 - 2 * b * b * n)
        mu2 = Q / Cp
        var = mu2 - mu * mu
        K = (2 * mu * mu - mu2 - 2 * b * b)[..., None]  # u = w (y² − 2μ y + K)/C
        s1 = (W * (m2 - 2 * mu_ * m1 + K * n)).sum(-1) / Cp
        r2 = m4 - 4 * mu_ * m3 + (4 * mu_ * mu_ + 2 * K) * m2 - 4 * mu_ * K * m1 + K * K * n
        s2 = (W2 * r2).sum(-1) / Cp ** 2
        sd_var = np.sqrt(svar(s1, s2))
        if agg == "var":
            half = z * sd_var if interval else nanv
            return var, var - half, var + half
        sd = np.sqrt(np.maximum(var, 0.0))
        half = z * sd_var / (2 * np.where(sd > 0, sd, np.nan)) if interval else nanv
        return sd, np.maximum(sd - half, 0.0), sd + half


def true_aggregate(agg: str, sel: np.ndarray, x: np.ndarray | None = None) -> np.ndarray:
    """The same aggregate on the true relation (selection ``sel`` (… × S) bool, numbers ``x``): NOT PRIVATE, for tests
    and the notebook's error columns."""
    check_options(agg, "agg", AGGS)
    sel = np.asarray(sel, dtype=float)
    if agg == "count":
        return sel.sum(-1)
    x = np.asarray(x, dtype=float)
    H = (sel * x).sum(-1)
    if agg == "sum":
        return H
    with np.errstate(invalid="ignore", divide="ignore"):
        C = np.where(sel.sum(-1) > 0, sel.sum(-1), np.nan)
        mu = H / C
        if agg == "avg":
            return mu
        var = (sel * x * x).sum(-1) / C - mu * mu
        return var if agg == "var" else np.sqrt(np.maximum(var, 0.0))


_C0 = 1.0 / math.sqrt(2.0 * math.pi)


def cdf_weights(t: np.ndarray, y: np.ndarray, b: float, s: float) -> np.ndarray:
    """ψ_t(y) with E[ψ_t(x + Lap(b))] = E G((t − x)/s) ≈ 1[x ≤ t] (the deconvolved, smoothed indicator).

    G(u) = Φ(u) + u φ(u)/2 is the integral of the fourth-order Gaussian kernel (3 − u²)φ(u)/2, so E G((t − x)/s) over
    the data's x is F_X(t) + O(s⁴) (the smoothing's bias). Laplace's characteristic function is 1/(1 + b²ω²), so the
    operator that undoes its convolution is 1 − b² d²/dy²: ψ = G − b² G''/s², and G''(u) = −u(5 − u²)φ(u)/2, giving
    ψ_t(y) = G(u) + b² u (5 − u²) φ(u) / (2 s²) with u = (t − y)/s — a bounded function, unbiased for the smoothed
    CDF."""
    from scipy.special import ndtr

    u = (t - y) / s
    ph = _C0 * np.exp(-0.5 * u * u)
    return ndtr(u) + 0.5 * u * ph + (b * b) * u * (5.0 - u * u) * ph / (2.0 * s * s)


def quantile_estimate(w: np.ndarray, y: np.ndarray, P: float, *, b: float, bounds: tuple[float, float],
                      s: float | None = None, z: float = 1.96, iters: int = 22) -> tuple[np.ndarray, ...]:
    """(estimate, lo, hi) of the P-quantile of the true numbers over the selected rows, from row weights ``w`` and
    Laplace-noised ``y`` (… × S; leading axes vectorised).

    F̂(t) = Σ w_i ψ_t(y_i) / Σ w_i (:func:`cdf_weights`; w the joint-truth-table weights, so the predicate's
    randomisation is corrected too) estimates the selected rows' CDF; the quantile is the root of F̂(t) = P in the
    public ``bounds`` (bisection; the true numbers were clipped into them). Interval (Woodruff): the roots of
    F̂(t) = P ∓ z·se, se the delta-method SE of F̂ at the estimate (per-row influence (w_i ψ_i − F̂ w_i)/Σw).
    ``s``: the smoothing bandwidth, default b/2 (the deconvolution term's variance grows as b²/s²).

    Known bias (measured; tests/privateclean/test_multi.py's synthetic table, b = 4, seed rng = 1, R = 4,000 releases,
    two-sided z-test of mean error = 0, |z| > 3.29 rejects at α = 0.001; queries median / median / P75). At s = b/2
    (default) the bias is +0.135, +0.063, +0.115 (z = 7.6, 2.7, 4.1), coverage 0.983, 0.977, 0.968, mean CI width 5.6,
    7.4, 10.0; s = 3b/8: +0.170, +0.115, +0.122 (z = 7.5, 4.0, 3.7), width 7.8, 10.8, 14.5; s = b/4: +0.106, +0.044,
    +0.202 (z = 3.1, 1.0, 3.7), width 14.5, 20.7, 45.1. It has three parts.

    (a) The table's smoothing gap. The truth is the order statistic x₍⌈nP⌉₎; the estimator targets the root q_s of the
    smoothed sample CDF (1/n) Σ G((t − x_i)/s). Noise-free, q_s − x₍⌈nP⌉₎ = +0.092, +0.012, +0.089 on this table at
    s = 2 (+0.092, +0.052, +0.051 at s = 1; +0.096, +0.111, +0.177 at s = 4; Richardson does not remove it; it vanishes
    only at s ≈ the order statistics' spacing, ≈ 0.05, where the variance ∝ b²/s² is prohibitive). Over 1,000 fresh
    tables (synthetic_joint(1000, 10000 + t)) it averages +0.011, +0.019, +0.020 (SE 0.003–0.004) with an SD across
    tables of 0.10, 0.11, 0.13: a fluctuation of the empirical process at scale s, which no estimator from values
    noised at b = 4 can see. At R = 4,000 the bias SE is 0.018–0.028, so this gap alone gives z an SD ≈ 5 across
    tables: a single-table z-test at R = 4,000 measures the table as much as the estimator.
    (b) The continuity offset: x₍⌈nP⌉₎ sits at ≈ (⌈nP⌉ − ½)/n on the smoothed CDF, on average P − 1/(2dn) for
    P = m/d when n mod d is spread evenly — that is (a)'s mean over tables (shifting the target by it leaves −0.004,
    −0.004, +0.005).
    (c) The root's nonlinearity in the release noise e(t) = F̂(t) − E F̂(t), O(1/n): E[q̂ − q_s] ≈ −f′·Var e/(2f³) +
    Cov(e, e′)/f² − E e/f, with f, f′ the slope and curvature of the *s-smoothed sample* curve at q_s. Checked with
    the release distribution itself (R = 2,000 on this table, e, e′ at the fixed q_s): predicted +0.024, +0.073,
    +0.033 against E[q̂] − q_s = +0.025 ± 0.026, +0.118 ± 0.034, +0.045 ± 0.039; for P75 the curvature (+0.199) and
    the Cov term (−0.174) nearly cancel. Over fresh tables, with R = 4 releases each, the total bias is +0.033,
    +0.124, +0.155 (z = 1.5, 4.5, 5.0; tables 10000 + t) and +0.064, +0.079, +0.070 (z = 2.9, 2.9, 2.4; tables
    20000 + t): (c) does not average away over tables (it follows each sample curve's local f, f′ at scale s; the
    mean of f′_s/f_s³ over tables need not be the population's f′/f³ — a conjecture, not measured).

    Corrections tried (none adopted; all post-processing of the release, no spend). (i) The second-order correction
    with f̂, f̂′ deconvolved at s (the SE of the mean error grows from 0.018 to 1.7, coverage 0.92–0.95), or f̂ from the
    Woodruff interval (+0.135, −0.201, −0.265, coverage 0.96, 0.89, 0.74). (ii) f̂, f̂′ at a pilot bandwidth h = 2b
    (∂ψ/∂t analytically), Var e = se², minus the continuity offset 1/(2dĈf̂): fixed table +0.100, +0.008, −0.038
    (z = 5.7, 0.4, −1.4), coverage 0.983, 0.977, 0.969, width unchanged; tables 10000 + t: +0.005, +0.092, −0.004
    (z = 0.2, 3.3, −0.1); tables 20000 + t: +0.036, +0.047, −0.087 (z = 1.6, 1.7, −3.0); h = 1.5b, 3b alike, h = b
    multiplies the SE of P75's mean error by 4 (fixed table) to 14 (tables). (iii) (ii) plus Cov(e, e′) from the
    per-row influences of F̂ and F̂′ at s (its mean, −1.2·10⁻⁴ for P75, matches the release distribution's −1.3·10⁻⁴):
    fixed +0.112, +0.035, +0.159; tables 10000 + t +0.011, +0.118, +0.185. The pilot's curvature is the population's,
    smoothed at h, while the Cov term and the bias follow the sample curve at scale s, whose derivatives are too noisy
    to estimate: the two terms are estimated at different scales and their near-cancellation is lost. (iv) A
    multiplier bootstrap of the root around the pilot curve (only at R = 100, 32 multiplier draws shared by all
    releases): its answer moved by 0.1–0.5 with the rule that picks one of the noisy curve's several crossings (first
    crossing or bisection); not conclusive.

    Acceptance rule for a correction (issue 25): post-processing of the release only (w, y, public parameters); over
    fresh synthetic tables (synthetic_joint(1000, 10000 + t) and 20000 + t, b = 4, a few releases per table) and on the
    fixed test table, R ≥ 4,000 releases each, the two-sided z-test of mean error = 0 gives |z| < 3.29 for all three
    test queries, the 95 % interval covers ≥ 0.95 − 3 MC SE and its mean width grows by at most 20 %. Measured with a
    scratch study (1,000 tables × 4 releases per series; these releases give, without correction, +0.062, +0.090,
    +0.128 (z = 2.9, 3.3, 4.4) on tables 10000 + t, +0.064, +0.073, +0.132 (z = 3.0, 2.6, 4.5) on 20000 + t,
    +0.115, +0.094, +0.167 (z = 6.2, 3.9, 6.0) on the fixed table; on 10000 + t RMSE 1.36, 1.73, 1.85, coverage
    0.981–0.988, width 6.5, 8.6, 9.8):
    (v) A delete-group jackknife of the root: rows split by the public rule position mod g, θ_J = g θ̂ − (g − 1)·mean
    θ̂_(−j), θ̂_(−j) the root of F̂ without group j (bisection in θ̂ ± 8). Tables 10000 + t, g = 10: +0.398, +0.457,
    +0.660 (z = 4.7, 3.7, 4.9), RMSE 5.4, 7.8, 8.6; Woodruff's interval shifted by θ_J − θ̂ covers 0.845, 0.775, 0.755,
    the jackknife-variance interval (t₉) 0.822, 0.768, 0.742 at widths +27 %, +33 %, +26 % (threshold 0.940). Fixed
    table: +0.255, +0.260, −0.018 (z = 4.4, 2.9, −0.1), RMSE 3.7, 5.8, 8.1 against 1.18, 1.50, 1.76, coverage 0.903,
    0.835, 0.753 (jackknife variance: 0.844, 0.802, 0.741). P75's z there is small only because the SE grew 4.6×.
    The root is not a smooth functional at s = b/2: F̂ wiggles (the deconvolution term's variance ∝ b²/s²), deleting
    a group moves the root by a median 0.22–0.25 (90 % quantile 0.9–1.9) and in 15–30 % of releases at least one
    θ̂_(−j) jumps > 3 to another crossing, so (g − 1)× their mean is noise, not the O(1/n) bias. g = 20 doubles the
    correction's SD (80 releases: RMSE 8.7, 18.5, 18.7). The crossing nearest θ̂ (bracket θ̂ ± 2; 18–26 % of releases
    fall back to ± 8): +0.321, +0.282, +0.527, coverage 0.88, 0.85, 0.84. The jackknife of the root at the pilot
    bandwidth h = 2b (a smooth curve, no jumps) finds almost no O(1/n) bias (it moves the s-estimate's bias by
    ≤ 0.008, coverage unchanged): the bias follows the s-scale curve, which the rows cannot resample without its
    s-scale noise. Adding (vi)'s shift to either jackknife moves each bias by −0.017, −0.019, −0.045 only.
    (vi) The continuity offset alone, as a shift of the root's level (no density estimate): the root of F̂ = P +
    ((d − 1)/(2d) − P)/Ĉ, Ĉ = Σ w (E F(x₍ₖ₎) = k/(n + 1) and k − nP averages (d − 1)/(2d) over n mod d, P = m/d).
    Tables 10000 + t: +0.045, +0.071, +0.083 (z = 2.1, 2.6, 2.8); 20000 + t: +0.052, +0.049, +0.090 (z = 2.4, 1.7,
    3.0); coverage 0.980–0.988, width unchanged; fixed table +0.100, +0.074, +0.129 (z = 5.4, 3.1, 4.7). It passes
    each fresh-table series by a thin margin, but pooled (R = 8,000) P75's z is 4.15 (the medians' 3.18, 3.07), and
    it fails the fixed table, where this one table's smoothing gap (a), which no estimator from values noised at
    b = 4 can see, alone gives the first median z ≈ 5: with the estimator at s = b/2, the fixed-table part of the rule
    cannot be met by any correction that does not see the table. Not adopted: the default is unchanged.

    Why no correction can remove it for every table: the mean of any bounded estimator q̂ over the release is
    g(x) = ∫ q̂(y) Π_i p_b(y_i − x_i) dy (the discrete randomisation only mixes finitely many such terms). The Laplace
    density p_b has a bounded, integrable derivative, so g is continuously differentiable in the table's numbers x.
    The truth x₍ₖ₎ is not: where two rows tie at the k-th place its derivative jumps between 0 and 1. So E q̂ = x₍ₖ₎
    cannot hold on all tables; any estimator from values noised at b has a bias that a large enough R shows on some
    table, near ties (spacings ≈ 0.05 here against b = 4) above all. Unbiasedness can only be tested at a stated R.

    At R = 1,000 (the tests) the bias is not detected (0.8–2.5 % of the CI width); issue 25's "bias not different
    from 0" holds for the quantile queries at R = 1,000, not at R = 4,000."""
    if not 0 < P < 1:
        raise ValueError(f"percentile must lie in (0, 100), got {100 * P:g}")
    lo_b, hi_b = float(bounds[0]), float(bounds[1])
    s = float(s) if s is not None else max(b / 2.0, 1e-9 * (hi_b - lo_b))
    w = np.asarray(w, dtype=float)
    y = np.asarray(y, dtype=float)
    C = w.sum(-1)
    lead = w.shape[:-1]

    def F(t):
        psi = cdf_weights(t[..., None], y, b, s)
        Fh = (w * psi).sum(-1) / C
        return Fh, psi

    def root(target):
        lo, hi = np.full(lead, lo_b), np.full(lead, hi_b)
        for _ in range(iters):
            mid = (lo + hi) / 2
            below = F(mid)[0] < target
            lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
        return (lo + hi) / 2

    with np.errstate(invalid="ignore", divide="ignore"):
        q = root(np.full(lead, P))
        Fh, psi = F(q)
        u = (w * psi - Fh[..., None] * w) / C[..., None]
        se = np.sqrt(w.shape[-1] * u.var(-1))
        qlo, qhi = root(P - z * se), root(P + z * se)
    bad = ~(C > 0)
    return tuple(np.where(bad, np.nan, v) for v in (q, qlo, qhi))


def true_quantile(sel: np.ndarray, x: np.ndarray, P: float) -> float:
    """inf{t : F(t) ≥ P} of the selected true numbers (NOT PRIVATE; tests and the notebook)."""
    xs = np.sort(np.asarray(x, dtype=float)[np.asarray(sel, dtype=bool)])
    return float(xs[max(int(math.ceil(P * len(xs))) - 1, 0)]) if len(xs) else math.nan


# --------------------------------------------------------------------------------------------------------------------
# the front end on a CleanedRelation
# --------------------------------------------------------------------------------------------------------------------
def _partition_of(crel: CleanedRelation, col: str) -> tuple[Any, str]:
    src = crel.sources.get(col, col)
    for key in crel.private.p:
        if src in key_columns(key):
            return key, src
    if src in crel.private.b:
        raise ValueError(f"a predicate or group on {col!r}, the Laplace-noised numeric attribute, has no unbiased "
                         "estimator (deconvolving an indicator gives a distribution, not a row weight): filter on a "
                         "discrete attribute")
    raise ValueError(f"attribute {col!r} was not randomised with GRR (and is not derived from one)")


def _clean_values(crel: CleanedRelation, col: str, key: Any, src: str) -> np.ndarray:
    """The cleaned value of ``col`` for every value of ``key``'s released domain (the composed single-attribute
    cleaner; a join with a public table is such a cleaner)."""
    mapping = crel.mappings.get(col)
    if mapping is None:
        raise ValueError(f"attribute {col!r} was cleaned by a multi-attribute transform: its cleaner is not a value map "
                         "of one attribute, so the joint truth table is not defined (use transform/merge/extract on one "
                         "attribute)")
    dom = crel.private.domains[key].tolist()
    i = key_columns(key).index(src)
    comps = [None if (len(key_columns(key)) > 1 and t is None) else (t[i] if len(key_columns(key)) > 1 else t) for t in dom]
    out = np.empty(len(comps), dtype=object)
    for k, v in enumerate(comps):
        v = denull(v)
        out[k] = mapping.get(v, v)
    return out


def fast_partition_codes(data: pd.DataFrame, key: Any, dom: np.ndarray) -> np.ndarray:
    """:func:`~dpworkbench.privateclean.mechanisms.partition_codes` through the distinct values: each column
    factorised once (a C hash; NULL one more slot), every combination of the columns' distinct values coded by
    ``partition_codes`` itself into a small lookup table, then one gather per row (equal codes, tested; the two hashes
    of the text columns are most of the cost on 10⁶ rows, the rest a mixed-radix index and a gather)."""
    cols = key_columns(key)
    facs = []
    for c in cols:
        codes_j, uniq_j = pd.factorize(data[c].to_numpy(), use_na_sentinel=True)  # NaN/None → −1: the NULL slot, last
        facs.append((codes_j.astype(np.int64, copy=False), list(uniq_j) + [None]))
    sizes = [len(u) for _, u in facs]
    cells = int(np.prod(sizes, dtype=float))
    if cells > 4 * len(data) + 1024:  # many distinct combinations: code only those present
        return _sparse_partition_codes(data, key, dom, facs)
    grid = np.indices(sizes).reshape(len(sizes), -1)  # every combination, C order (the index below)
    frame = {}
    for c, (_, u), g in zip(cols, facs, grid):
        vals = np.empty(cells, dtype=object)
        for i, j in enumerate(g):  # element-wise: small (the product of the distinct counts)
            vals[i] = u[j]
        frame[c] = vals
    lut = partition_codes(pd.DataFrame(frame), key, dom)
    from ._kernels import lut_codes

    return lut_codes(tuple(f for f, _ in facs), np.asarray(sizes, dtype=np.int64), lut)


def _sparse_partition_codes(data: pd.DataFrame, key: Any, dom: np.ndarray, facs: list) -> np.ndarray:
    """:func:`fast_partition_codes` when the product of the distinct counts is large: the combinations present,
    found by a unique over their mixed-radix numbers, coded by ``partition_codes``, then a gather."""
    comb = np.zeros(len(data), dtype=np.int64)
    radix = 1
    for codes_j, uniq_j in facs:
        comb += np.where(codes_j < 0, len(uniq_j) - 1, codes_j) * radix
        radix *= max(len(uniq_j), 1)
    ucomb, inv = np.unique(comb, return_inverse=True)
    distinct = {}
    rem = ucomb.copy()
    for c, (_, uniq_j) in zip(key_columns(key), facs):
        k = max(len(uniq_j), 1)
        idx = rem % k
        rem //= k
        vals = np.empty(len(idx), dtype=object)
        for i, j in enumerate(idx):
            vals[i] = uniq_j[j]
        distinct[c] = vals
    return partition_codes(pd.DataFrame(distinct), key, dom)[inv.ravel()]


def _codes(crel: CleanedRelation, key: Any) -> np.ndarray:
    ck = ("partition_codes", key)
    if ck not in crel._cache:
        crel._cache[ck] = fast_partition_codes(crel.private.data, key, crel.private.domains[key])
    return crel._cache[ck]


@dataclass
class JointTable:
    """The truth table of a predicate (and groups) over the randomised partitions it reads (public: no rows)."""
    keys: list
    ps: list
    truth: np.ndarray            # (G ×) N_1 × … × N_k bool
    groups: list | None = None

    def weights(self, codes: Sequence[np.ndarray], method: str = "privateclean") -> np.ndarray:
        table = correction_table(self.truth, self.ps, first_axis=1 if self.groups is not None else 0) \
            if method == "privateclean" else self.truth.astype(float)
        if not self.keys:  # no randomised attribute read: every row has the same weight
            shape = np.shape(codes[0]) if codes else ()
            return np.broadcast_to(table[..., None] if self.groups is not None else table, table.shape + shape) * 1.0
        return row_weights(table, codes, groups=self.groups is not None)


def joint_table(crel: CleanedRelation, where: Any = None, *, group_by: str | None = None,
                groups: Sequence | None = None) -> JointTable:
    """Build the truth table f(u) = φ(C(u)) (and φ ∧ G = m per public group value m) over the involved partitions."""
    pred = as_predicate(where)
    attrs = list(pred.attrs()) + ([group_by] if group_by is not None else [])
    for a in attrs:
        if a not in crel.data.columns:
            raise ValueError(f"unknown attribute {a!r}")
    keys: list = []
    where_of: dict[str, tuple[Any, str]] = {}
    for a in attrs:
        key, src = _partition_of(crel, a)
        where_of[a] = (key, src)
        if key not in keys:
            keys.append(key)
    sizes = [len(crel.private.domains[k]) for k in keys]
    cells = int(np.prod(sizes, dtype=float)) * (len(groups) if groups is not None else 1)
    if cells > MAX_TABLE_CELLS:
        raise ValueError(f"the predicate's truth table has {cells} cells (product of the released domains it reads), "
                         f"more than {MAX_TABLE_CELLS}: read fewer attributes at once")
    shape = tuple(sizes)
    values = {}
    for a in attrs:
        key, src = where_of[a]
        ax = keys.index(key)
        v = _clean_values(crel, a, key, src).reshape([-1 if j == ax else 1 for j in range(len(keys))])
        values[a] = np.broadcast_to(v, shape)
    truth = pred.evaluate(values) if pred.attrs() else np.ones(shape, dtype=bool)
    truth = np.broadcast_to(truth, shape)
    if group_by is not None:
        if groups is None:
            raise ValueError("GROUP BY needs the public group domain (groups=[...], --groups): the groups are never "
                             "read off the private rows")
        gv = values[group_by]
        truth = np.stack([truth & _cellwise(lambda c, m=m: _same(c, m), gv) for m in groups])
    return JointTable(keys, [crel.private.p[k] for k in keys], np.asarray(truth, dtype=bool),
                      list(groups) if groups is not None else None)


def estimate_where(crel: CleanedRelation, agg: str, where: Any = None, value_col: str | None = None, *,
                   group_by: str | None = None, groups: Sequence | None = None, method: str = "privateclean",
                   z: float = 1.96, percentile: float | None = None, value_bounds: tuple | None = None,
                   bandwidth: float | None = None) -> "Estimate | pd.DataFrame":
    """``SELECT agg(value_col) FROM C(V) WHERE where [GROUP BY group_by]`` with the joint-truth-table correction
    (module docstring). ``where``: a :class:`Predicate` or an expression (:func:`parse_where`) over any discrete
    attributes — independent partitions, attributes of one joint partition, columns extracted from them (a public
    table joined on a key, :func:`join_public`). ``groups``: the public group domain (required with ``group_by``).
    ``method``: ``privateclean`` (corrected, with a 95 % CI) or ``direct`` (the predicate on C(V) as it is; no CI).
    ``median`` / ``percentile`` (``percentile=P`` in (0, 100)): :func:`quantile_estimate`, needing the numeric
    attribute's public ``value_bounds``; ``bandwidth`` its smoothing s (default b/2).
    Returns an :class:`Estimate`, or with ``group_by`` a frame (group, value, lo, hi)."""
    check_options(agg, "agg", AGGS)
    check_options(method, "method", ("privateclean", "direct"))
    if agg in ("median", "percentile"):
        P = 0.5 if agg == "median" else (percentile or 0) / 100.0
        if agg == "percentile" and percentile is None:
            raise ValueError("percentile needs percentile=P (0 < P < 100)")
    y, b = None, 0.0
    if agg != "count":
        if value_col is None or value_col not in crel.data.columns:
            raise ValueError(f"unknown numeric attribute {value_col!r}")
        src = crel.sources.get(value_col, value_col)
        if src not in crel.private.b:
            raise ValueError(f"{agg} needs the Laplace-noised numeric attribute; {value_col!r} is not one")
        y = crel.data[value_col].to_numpy(dtype=float)
        b = float(crel.private.b[src]) if method == "privateclean" else 0.0
    jt = joint_table(crel, where, group_by=group_by, groups=groups)
    codes = [_codes(crel, k) for k in jt.keys] or [np.zeros(len(crel.data), dtype=np.int64)]
    if agg not in ("median", "percentile"):  # the cell path (aggregate_cells): per-cell moments, no row × group array
        sizes = jt.truth.shape[1 if jt.groups is not None else 0:] if jt.keys else (1,)
        M = int(np.prod(sizes))
        table = correction_table(jt.truth, jt.ps, first_axis=1 if jt.groups is not None else 0) \
            if method == "privateclean" else jt.truth.astype(float)
        W = table.reshape((len(jt.groups), M) if jt.groups is not None else (M,))
        kmax = 0 if y is None else 4 if agg in ("var", "std") else 2
        from ._kernels import cell_moments

        n, mk, ok = cell_moments(tuple(np.asarray(c, dtype=np.int64) for c in codes), np.asarray(sizes, dtype=np.int64),
                                 np.empty(0) if y is None else y, kmax)  # one pass: n and Σ y^k per cell
        if not ok:
            raise ValueError("a row's code lies outside its partition's released domain")
        m = list(mk)
        est, lo, hi = aggregate_cells(agg, W, n, m, S=len(crel.data), b=b, z=z, interval=method == "privateclean")
        return _package(crel, jt, agg, method, est, lo, hi, group_by)
    w = jt.weights(codes, method)
    if agg in ("median", "percentile"):
        src = crel.sources.get(value_col, value_col)
        delta = float(crel.private.deltas[src])
        bounds = crel.private.bounds.get(src) if hasattr(crel.private, "bounds") else None
        if bounds is None:  # the public bounds: the released relation carries Δ; the caller passes (lo, hi)
            if value_bounds is None:
                raise ValueError(f"a {agg} needs the public bounds of {value_col!r} (value_bounds=(lo, hi), width Δ)")
            bounds = value_bounds
        if abs((bounds[1] - bounds[0]) - delta) > 1e-9 * max(1.0, delta):
            raise ValueError(f"value_bounds {tuple(bounds)} disagree with the released Δ = {delta:g}")
        if method == "direct":  # the empirical quantile of the noisy numbers over the rows C(V) selects
            sel = w > 0.5
            est = np.asarray([true_quantile(sel[g] if sel.ndim > 1 else sel, y, P)
                              for g in range(sel.shape[0] if sel.ndim > 1 else 1)])
            est = est if sel.ndim > 1 else est[0]
            lo = hi = np.full(np.shape(est), np.nan)
        else:
            est, lo, hi = quantile_estimate(w, y, P, b=b, bounds=bounds, s=bandwidth, z=z)
    else:
        est, lo, hi = aggregate(agg, w, y, b=b, z=z, interval=method == "privateclean")
    return _package(crel, jt, agg, method, est, lo, hi, group_by)


def _package(crel, jt, agg, method, est, lo, hi, group_by):
    meta = {"S": len(crel.data), "partitions": [str(k) for k in jt.keys], "p": jt.ps,
            "N": [int(n) for n in jt.truth.shape[1 if jt.groups is not None else 0:]], "method": method, "agg": agg}
    if group_by is None:
        meta["l"] = int(jt.truth.sum())
        return Estimate(float(est), float(lo), float(hi), meta)
    return pd.DataFrame({"group": pd.Series(jt.groups, dtype=object), "value": est, "lo": lo, "hi": hi})


def join_public(crel: CleanedRelation, table: pd.DataFrame, key: str, *, on: str | None = None,
                columns: Sequence[str] | None = None, prefix: str = "") -> CleanedRelation:
    """A view V ⋈ P along ``key`` (the private relation's cleaned discrete attribute) = ``on`` (P's key column; P is a
    public table, its key unique): each public column becomes an extracted attribute of ``key`` (the table's lookup
    is a single-attribute cleaner, so the joint truth table covers it and the estimator accounts for the
    randomisation of ``key``). A row whose key P lacks gets NULL (a left join); the inner join is the predicate
    ``<column> IS NOT NULL`` on a non-null column of P. Post-processing: P is public and no row of V is dropped."""
    on = on or key
    if key not in crel.data.columns:
        raise ValueError(f"join key {key!r} is not an attribute of the private relation")
    if on not in table.columns:
        raise ValueError(f"the public table has no column {on!r}")
    if table[on].duplicated().any():
        raise ValueError(f"the public table's key {on!r} is not unique: a join would duplicate private rows")
    cols = [c for c in (columns or table.columns) if c != on]
    lookup = {denull(k): i for i, k in enumerate(table[on].tolist())}
    out = crel
    for c in cols:
        vals = table[c].tolist()
        name = f"{prefix}{c}"
        if name in out.data.columns:
            raise ValueError(f"joined column {name!r} collides with an attribute of the private relation (use prefix=)")

        def f(v, vals=vals):
            i = lookup.get(denull(v))
            return None if i is None else denull(vals[i])
        out = out.extract(name, key, f, note=f"join public {on}→{c}")
    return out


__all__ = ["AGGS", "And", "Eq", "In", "JointTable", "Not", "Or", "Predicate", "Range", "aggregate", "as_predicate",
           "correction_table", "estimate_where", "join_public", "joint_table", "parse_where", "row_weights",
           "true_aggregate"]


# --------------------------------------------------------------------------------------------------------------------
# Monte-Carlo study (tests, notebook): R seeded releases of one known table, vectorised
# --------------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Query:
    """One query of a study: ``agg(value_col) WHERE where [GROUP BY group_by over groups]``."""
    name: str
    agg: str
    where: Any = None
    value_col: str | None = None
    group_by: str | None = None
    groups: tuple | None = None
    percentile: float | None = None  # for agg="percentile" (median: 50)

    @property
    def P(self) -> float:
        return 0.5 if self.agg == "median" else float(self.percentile) / 100.0


def synthetic_joint(S: int, rng: Any) -> tuple[pd.DataFrame, dict, dict, dict, dict]:
    """A synthetic table with known truth: a joint partition (a, b) of 3 × 4 values, an independent partition c of
    5 numeric-coded values, and x in [0, 100] depending on a and c (so AVG/VAR differ by group).
    Returns (df, discrete p, numeric b, domains, bounds)."""
    from dpworkbench.mechanisms.backends import check_rng

    gen = check_rng(rng).generator
    a = gen.choice(["a0", "a1", "a2"], S, p=[0.5, 0.3, 0.2])
    bb = gen.choice(["b0", "b1", "b2", "b3"], S, p=[0.4, 0.3, 0.2, 0.1])
    c = gen.choice([0, 1, 2, 3, 4], S, p=[0.3, 0.25, 0.2, 0.15, 0.1])
    x = np.clip(20 + 15 * (a == "a1") + 30 * (a == "a2") + 4 * c + gen.normal(0, 10, S), 0, 100)
    df = pd.DataFrame({"a": a, "b": bb, "c": c, "x": x})
    domains = {("a", "b"): {"a": ["a0", "a1", "a2"], "b": ["b0", "b1", "b2", "b3"]}, "c": [0, 1, 2, 3, 4]}
    return df, {("a", "b"): 0.3, "c": 0.25}, {"x": 10.0}, domains, {"x": (0.0, 100.0)}


def coverage_study(df: pd.DataFrame, discrete: dict, numeric: dict, domains: dict, bounds: dict,
                   queries: Sequence[Query], *, R: int = 1000, rng: Any = 0, z: float = 1.96, block: int = 250,
                   clean: Callable[[CleanedRelation], CleanedRelation] | None = None,
                   truth_df: pd.DataFrame | None = None) -> pd.DataFrame:
    """R seeded GRR releases (:func:`~dpworkbench.privateclean.mechanisms.grr_sample`, the GRR declaration's own
    noise) of the table ``df`` (every value inside its declared domain and bounds), each query answered by
    PrivateClean and by Direct on every release. ``clean``: the analyst's single-attribute cleaners (merge, a join
    with a public table…), applied to the relation the truth tables are built from. One row per query (and group):
    the truth (NOT PRIVATE), PrivateClean's mean error (bias), its Monte-Carlo SE and z = bias/SE, CI coverage and
    its MC SE, mean CI width, and Direct's bias, z and RMSE beside it.

    ``truth_df``: a ground-truth table (raha's clean version: the same columns, rows aligned with ``df``). The truth
    is then each query on ``clean(truth_df)`` — the clean table after the same cleaning — and every error, bias and
    coverage is measured against it; ``target`` (each query on ``clean(df)``, what the estimators are unbiased for)
    and ``residual`` = target − truth (the cleaning's miss, no privacy involved) are reported beside it."""
    from .mechanisms import grr_sample, released_domain, partition_codes as _pc
    from .model import PrivateRelation

    doms = {k: released_domain(k, domains, None)[1] for k in discrete}
    codes = {k: _pc(df, k, doms[k]) for k in discrete}
    if any((c < 0).any() for c in codes.values()):
        raise ValueError("the study table must lie inside its declared domains")
    x = {c: np.clip(df[c].to_numpy(dtype=float), *bounds[c]) for c in numeric}
    base = PrivateRelation(df.copy(), dict(discrete), dict(numeric), doms,
                           {c: float(bounds[c][1] - bounds[c][0]) for c in numeric})
    crel = CleanedRelation.start(base)
    crel = clean(crel) if clean is not None else crel
    gen = np.random.default_rng(rng)
    plans = []
    for q in queries:
        jt = joint_table(crel, q.where, group_by=q.group_by, groups=q.groups)
        tw = jt.weights([codes[k] for k in jt.keys] or [np.zeros(len(df), dtype=np.int64)], "direct") > 0.5
        xv = None if q.agg == "count" else x[crel.sources.get(q.value_col, q.value_col)]
        if q.agg in ("median", "percentile"):
            truth = np.asarray([true_quantile(t, xv, q.P) for t in (tw if q.group_by is not None else [tw])])
            truth = truth if q.group_by is not None else truth[0]
        else:
            truth = true_aggregate(q.agg, tw, xv)
        target = truth
        if truth_df is not None:
            truth = _truth_on_table(truth_df, q, numeric, bounds, clean)
        plans.append((q, jt, truth, xv, target))
    acc: dict = {i: {"pc": [], "lo": [], "hi": [], "d": []} for i in range(len(plans))}
    done = 0
    while done < R:
        n = min(block, R - done)
        cv, vv = grr_sample({k: (codes[k], len(doms[k]), p) for k, p in discrete.items()},
                            {c: (x[c], b) for c, b in numeric.items()}, size=n, rng=gen)
        for i, (q, jt, _, _, _) in enumerate(plans):
            kc = [cv[k] for k in jt.keys] or [np.zeros((n, len(df)), dtype=np.int64)]
            y = None if q.agg == "count" else vv[crel.sources.get(q.value_col, q.value_col)]
            b = 0.0 if q.agg == "count" else float(numeric[crel.sources.get(q.value_col, q.value_col)])
            if q.agg in ("median", "percentile"):
                src = crel.sources.get(q.value_col, q.value_col)
                est, lo, hi = quantile_estimate(jt.weights(kc, "privateclean"), y, q.P, b=b, bounds=bounds[src], z=z)
                sel = jt.weights(kc, "direct") > 0.5  # Direct: the empirical quantile of the noisy numbers it selects
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)  # an empty selection is NaN
                    d = np.nanquantile(np.where(sel, y, np.nan), q.P, axis=-1, method="inverted_cdf")
            else:
                est, lo, hi = aggregate(q.agg, jt.weights(kc, "privateclean"), y, b=b, z=z)
                d = aggregate(q.agg, jt.weights(kc, "direct"), y, b=0.0, interval=False)[0]
            if q.group_by is not None:  # (G × n) → (n × G)
                est, lo, hi, d = est.T, lo.T, hi.T, d.T
            for name, v in (("pc", est), ("lo", lo), ("hi", hi), ("d", d)):
                acc[i][name].append(np.asarray(v).reshape(n, -1))
        done += n
    rows = []
    for i, (q, jt, truth, _, target) in enumerate(plans):
        est, lo, hi, d = (np.concatenate(acc[i][k]) for k in ("pc", "lo", "hi", "d"))
        truth, target = np.atleast_1d(truth), np.atleast_1d(target)
        labels = jt.groups if jt.groups is not None else [None]
        for g, lab in enumerate(labels):
            e, t = signed_error(est[:, g], truth[g]), truth[g]
            ok = np.isfinite(e)
            cov = np.mean((lo[ok, g] <= t) & (t <= hi[ok, g])) if ok.any() else np.nan
            de = signed_error(d[:, g], t)
            dok = np.isfinite(de)
            n_ok = int(ok.sum())
            se = float(e[ok].std(ddof=1) / math.sqrt(n_ok)) if n_ok > 1 else np.nan
            dse = float(de[dok].std(ddof=1) / math.sqrt(dok.sum())) if dok.sum() > 1 else np.nan
            rows.append({"query": q.name, "agg": q.agg, "group": lab, "truth": float(t), "target": float(target[g]),
                         "residual": float(target[g] - t), "R": n_ok,
                         "bias": float(e[ok].mean()), "bias_se": se,
                         "bias_z": float(e[ok].mean() / se) if se and se > 0 else 0.0,
                         "coverage": float(cov), "coverage_se": math.sqrt(0.95 * 0.05 / max(n_ok, 1)),
                         "ci_width": float(np.mean(hi[ok, g] - lo[ok, g])),
                         "rmse": float(np.sqrt(np.mean(e[ok] ** 2))),
                         "direct_bias": float(de[dok].mean()), "direct_bias_se": dse,
                         "direct_bias_z": float(de[dok].mean() / dse) if dse and dse > 0 else 0.0,
                         "direct_rmse": float(np.sqrt(np.mean(de[dok] ** 2)))})
    return pd.DataFrame(rows)


def _truth_on_table(table: pd.DataFrame, q: Query, numeric: dict, bounds: dict,
                    clean: Callable[[CleanedRelation], CleanedRelation] | None) -> np.ndarray:
    """The query ``q`` on a ground-truth table after the analyst's cleaning (NOT PRIVATE): the cleaners run on the
    table's own values (a merge map leaves a clean value it does not list as it is; a public-table join looks the
    key up), the predicate and group are evaluated row by row, and the numbers are the table's, clipped to bounds."""
    from .model import PrivateRelation

    base = PrivateRelation(table.copy(), {}, dict(numeric), {}, {c: float(bounds[c][1] - bounds[c][0]) for c in numeric})
    ct = CleanedRelation.start(base)
    ct = clean(ct) if clean is not None else ct
    pred = as_predicate(q.where)
    attrs = list(pred.attrs()) + ([q.group_by] if q.group_by is not None else [])
    vals = {a: ct.data[a].to_numpy(dtype=object) for a in attrs}
    sel = pred.evaluate(vals) if pred.attrs() else np.ones(len(table), dtype=bool)
    if q.group_by is not None:
        sel = np.stack([sel & _cellwise(lambda c, m=m: _same(c, m), vals[q.group_by]) for m in q.groups])
    if q.agg == "count":
        return true_aggregate("count", sel)
    src = ct.sources.get(q.value_col, q.value_col)
    x = np.clip(pd.to_numeric(table[src]).to_numpy(dtype=float), *bounds[src])
    if q.agg in ("median", "percentile"):
        out = np.asarray([true_quantile(t, x, q.P) for t in (sel if q.group_by is not None else [sel])])
        return out if q.group_by is not None else out[0]
    return true_aggregate(q.agg, sel, x)


__all__ += ["Query", "cdf_weights", "coverage_study", "quantile_estimate", "synthetic_joint", "true_quantile"]


# --------------------------------------------------------------------------------------------------------------------
# raha beers: several attributes cleaned, multi-attribute / grouped / median queries, error vs ε (the notebook's logic)
# --------------------------------------------------------------------------------------------------------------------
BEERS_QUERIES = (
    Query("COUNT ounces=12 AND state IN (CO, CA, MI)", "count", "ounces = '12' AND state IN (CO, CA, MI)"),
    Query("SUM abv WHERE state IN (CO, CA) OR ounces = 16", "sum", "state IN (CO, CA) OR ounces = '16'", "abv"),
    Query("AVG abv GROUP BY ounces WHERE state != CO", "avg", "state != CO", "abv", "ounces", ("12", "16")),
    Query("MEDIAN abv WHERE ounces = 12 AND state != CA", "median", "ounces = '12' AND state != CA", "abv"),
)
BEERS_BOUNDS = (0.0, 0.15)


def beers_table(seed: int = 0) -> tuple[pd.DataFrame, dict, str]:
    """(dirty table with abv parsed, the repair maps {attr: {dirty: clean}} — NOT private, an oracle cleaner —, the
    data's source: "real" or "stand-in"). Real: raha's beers (``DPWB_DATA/cleaning/beers``)."""
    from . import raha

    dirty, clean, kind = raha.pair("beers", seed)
    source = "real" if kind == raha.REAL else "stand-in (seeded; the raha beers tables are absent)"
    df = pd.DataFrame({"ounces": dirty["ounces"].astype(object), "state": dirty["state"].astype(object),
                       "abv": np.clip([raha.parse_number(t, 0.0) for t in dirty["abv"]], *BEERS_BOUNDS)})
    maps = {a: raha.repair_map(dirty[a], clean[a]) for a in ("ounces", "state")}
    return df, maps, source


def beers_study(epsilons: Sequence[float], *, R: int, seed: int = 0, value_epsilon: float = 30.0,
                queries: Sequence[Query] = BEERS_QUERIES) -> tuple[pd.DataFrame, str]:
    """Error against ε for PrivateClean and Direct on beers (research, seeded): ``ounces`` and ``state`` each
    randomised with GRR at ε (their dirty domains, read off the table: data-derived, research only), abv with Laplace
    at ``value_epsilon`` on bounds (0, 0.15); cleaned with the repair maps; every query of ``queries`` answered on R
    releases per ε (:func:`coverage_study`). The truth is the query on the repaired dirty table (what the cleaned
    estimators target; the cleaning residual against the clean table is the map's, not the privacy's)."""
    from .mechanisms import p_for_epsilon

    df, maps, source = beers_table(seed)
    domains = {a: list(pd.unique(df[a])) for a in ("ounces", "state")}
    b = (BEERS_BOUNDS[1] - BEERS_BOUNDS[0]) / value_epsilon

    def clean(c):
        for a, m in maps.items():
            c = c.merge(a, m)
        return c
    out = []
    for k, eps in enumerate(epsilons):
        discrete = {a: p_for_epsilon(eps, len(domains[a])) for a in domains}
        st = coverage_study(df, discrete, {"abv": b}, domains, {"abv": BEERS_BOUNDS}, queries, R=R, rng=seed + k,
                            clean=clean)
        out.append(st.assign(epsilon=eps, p_ounces=discrete["ounces"], p_state=discrete["state"]))
    return pd.concat(out, ignore_index=True), source


__all__ += ["BEERS_QUERIES", "aggregate_cells", "beers_study", "beers_table"]


# --------------------------------------------------------------------------------------------------------------------
# raha beers against its CLEAN ground truth: the cleaning is exact on what the queries read, so the truth is the
# query on the clean table (issue 25's "on raha with its clean ground truth")
# --------------------------------------------------------------------------------------------------------------------
_STATES = "brewery_state"
BEERS_CLEAN_QUERIES = (
    Query("COUNT ounces=16 AND style IN (IPA, DIPA) [shared partition]", "count",
          "ounces = '16' AND style IN ('American IPA', 'American Double / Imperial IPA')"),
    Query("COUNT ounces=12 AND state IN (CO, CA, MI) [view]", "count",
          f"ounces = '12' AND {_STATES} IN (CO, CA, MI)"),
    Query("SUM abv WHERE state IN (CO, CA) OR ounces=16", "sum", f"{_STATES} IN (CO, CA) OR ounces = '16'", "abv"),
    Query("AVG abv WHERE ounces=12 AND state != CO", "avg", f"ounces = '12' AND {_STATES} != CO", "abv"),
    Query("SUM abv GROUP BY ounces WHERE state IN (CO, CA, MI, 'IN', TX)", "sum",
          f"{_STATES} IN (CO, CA, MI, 'IN', TX)", "abv", "ounces", ("12", "16")),
    Query("AVG abv GROUP BY ounces WHERE style != American IPA", "avg", "style != 'American IPA'", "abv", "ounces",
          ("12", "16")),
    Query("AVG abv GROUP BY state [view]", "avg", None, "abv", _STATES, ("CO", "CA", "MI")),
    Query("VAR abv WHERE ounces=16", "var", "ounces = '16'", "abv"),
    Query("STD abv WHERE state IN (CO, CA, OR)", "std", f"{_STATES} IN (CO, CA, 'OR')", "abv"),
    Query("MEDIAN abv WHERE ounces=12 AND state != CA", "median", f"ounces = '12' AND {_STATES} != CA", "abv"),
    Query("P75 abv WHERE state IN (CO, CA, MI, OR)", "percentile", f"{_STATES} IN (CO, CA, MI, 'OR')", "abv",
          percentile=75),
)


def beers_clean_tables() -> dict:
    """raha beers for the clean-ground-truth study (real data only; FileNotFoundError when absent).

    Released: the joint partition (ounces, style) — its domain the (ounces, style) pairs of the dirty table —, the
    brewery key ``brewery_id`` (GRR) and ``abv`` (Laplace on (0, 0.15)). The analyst's cleaning: the repair map of
    ``ounces`` (25 spellings → 7 sizes, exact on this table) and a view with the *public* brewery table
    (brewery_id → state, one state per brewery), which recovers each beer's state where the dirty ``state`` column
    is blank (127 rows a value map of ``state`` cannot repair). Both come from the clean table: an oracle cleaner
    and public table, NOT private, research only. Returns dirty / clean frames of the released columns (abv parsed
    by the owner's public parser and clipped), the maps, the brewery table and the domains."""
    from . import raha

    dirty, clean = raha.load_pair("beers")

    def frame(t):
        return pd.DataFrame({"ounces": t["ounces"].astype(object), "style": t["style"].astype(object),
                             "brewery_id": t["brewery_id"].astype(object),
                             "abv": np.clip([raha.parse_number(v, 0.0) for v in t["abv"]], *BEERS_BOUNDS)})
    d, c = frame(dirty), frame(clean)
    breweries = clean[["brewery_id", "state"]].drop_duplicates().reset_index(drop=True)
    if breweries["brewery_id"].duplicated().any():  # the view needs a key: one state per brewery
        raise ValueError("beers: a brewery with two states in the clean table; the public brewery table needs a key")
    domains = {("ounces", "style"): list(pd.unique(pd.Series(list(zip(d["ounces"], d["style"]))))),
               "brewery_id": list(pd.unique(d["brewery_id"]))}
    return {"dirty": d, "clean": c, "maps": {"ounces": raha.repair_map(dirty["ounces"], clean["ounces"])},
            "breweries": breweries, "domains": domains}


def beers_clean_study(epsilons: Sequence[float] = (8.0,), *, R: int = 1000, seed: int = 0, value_epsilon: float = 30.0,
                      queries: Sequence[Query] = BEERS_CLEAN_QUERIES, tables: dict | None = None) -> pd.DataFrame:
    """Coverage and bias of every new estimator on raha beers against the **clean** table (:func:`coverage_study`
    with ``truth_df``): each partition randomised with GRR at ε (p = N/(e^ε + N − 1)), abv with Laplace at
    ``value_epsilon``, R seeded releases per ε; cleaned with :func:`beers_clean_tables`' repair map and public
    brewery view. ``residual`` (the query on the cleaned dirty table − on the clean table) is 0 for every query
    here: the cleaning is exact on what they read (checked in the tests), so the clean truth is the estimators'
    target."""
    from .mechanisms import p_for_epsilon

    t = tables or beers_clean_tables()
    maps, breweries = t["maps"], t["breweries"]

    def clean(c):
        c = c.merge("ounces", maps["ounces"])
        return join_public(c, breweries, "brewery_id", columns=["state"], prefix="brewery_")
    b = (BEERS_BOUNDS[1] - BEERS_BOUNDS[0]) / value_epsilon
    out = []
    for k, eps in enumerate(epsilons):
        discrete = {key: p_for_epsilon(eps, len(dom)) for key, dom in t["domains"].items()}
        st = coverage_study(t["dirty"], discrete, {"abv": b}, t["domains"], {"abv": BEERS_BOUNDS}, queries, R=R,
                            rng=seed + k, clean=clean, truth_df=t["clean"])
        out.append(st.assign(epsilon=eps))
    return pd.concat(out, ignore_index=True)


__all__ += ["BEERS_CLEAN_QUERIES", "beers_clean_study", "beers_clean_tables"]


def beers_residuals(queries: Sequence[Query] = BEERS_QUERIES) -> pd.DataFrame:
    """For :func:`beers_study`'s queries (``ounces`` and the dirty ``state`` column, each cleaned by its repair map):
    each query on the repaired dirty table (the estimators' target), on the clean table, and the difference — the
    cleaning residual, no privacy involved (NOT PRIVATE; real data only). A value map sends all 127 blank states to
    one state, which is why :func:`beers_clean_study` reads the state through the public brewery view instead."""
    from . import raha

    df, maps, source = beers_table()
    if source != "real":
        raise FileNotFoundError("the raha beers tables are absent (DPWB_DATA/cleaning/beers)")
    _, clean_raw = raha.load_pair("beers")
    clean_df = pd.DataFrame({"ounces": clean_raw["ounces"].astype(object), "state": clean_raw["state"].astype(object),
                             "abv": np.clip([raha.parse_number(t, 0.0) for t in clean_raw["abv"]], *BEERS_BOUNDS)})

    def clean(c):
        for a, m in maps.items():
            c = c.merge(a, m)
        return c
    rows = []
    for q in queries:
        tgt = np.atleast_1d(_truth_on_table(df, q, {"abv": 1.0}, {"abv": BEERS_BOUNDS}, clean))
        tru = np.atleast_1d(_truth_on_table(clean_df, q, {"abv": 1.0}, {"abv": BEERS_BOUNDS}, clean))
        for g, (a, t) in enumerate(zip(tgt, tru)):
            rows.append({"query": q.name, "group": q.groups[g] if q.groups else None, "target (repaired dirty)": a,
                         "clean truth": t, "residual": a - t, "relative": (a - t) / t if t else math.nan})
    return pd.DataFrame(rows)


__all__ += ["beers_residuals"]
