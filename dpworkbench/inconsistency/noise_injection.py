"""Violation injection (Livshits et al., spec §4.3): RNoise(α) and CONoise(iterations), seeded, with checkpoints.

Both are generators yielding ``(iteration, DataFrame)`` every ``checkpoint_every`` iterations (and at
iteration 0 and at the end), so a sweep over noise levels builds each checkpoint once. Unlike the
reference code, RNoise honours its value-choice probabilities (Zipf exponent ``skew``; 0 = uniform).
"""

from __future__ import annotations

import re
import string
from typing import Iterator, Sequence

import numpy as np
import pandas as pd

from .._validation import check_int, check_probability
from ..mechanisms.backends import as_generator
from .constraints import DC

_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")


def constrained_columns(df: pd.DataFrame, dcs: Sequence[DC]) -> list[str]:
    cols = []
    for d in dcs:
        for a in d.attributes:
            if a in df.columns and a not in cols:
                cols.append(a)
    if not cols:
        raise ValueError("no column of the table occurs in the constraints")
    return cols


def typo(value, rng: np.random.Generator):
    """The reference typo rules: strings get a random letter appended, numbers a digit ±1 (wrapping), dates a new part.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §6.1 (RNoise typos).
    """
    if isinstance(value, (bool, np.bool_)):
        return not value
    if isinstance(value, (int, np.integer)):
        s = str(abs(int(value)))
        i = int(rng.integers(len(s)))
        d = (int(s[i]) + (1 if rng.random() < 0.5 else -1)) % 10
        out = int(s[:i] + str(d) + s[i + 1:])
        return -out if value < 0 else out
    if isinstance(value, (float, np.floating)):
        s = repr(float(value))
        idx = [k for k, ch in enumerate(s) if ch.isdigit()]
        i = idx[int(rng.integers(len(idx)))]
        d = (int(s[i]) + (1 if rng.random() < 0.5 else -1)) % 10
        try:
            return float(s[:i] + str(d) + s[i + 1:])
        except ValueError:
            return float(value) + 1.0
    s = str(value)
    m = _DATE.match(s)
    if m:
        y, mo, da = int(m.group(1)), int(m.group(2)), int(m.group(3))
        part = int(rng.integers(3))
        if part == 0:
            y = int(rng.integers(1921, 2025))
        elif part == 1:
            mo = int(rng.integers(1, 13))
        else:
            da = int(rng.integers(1, 29))
        return f"{y:04d}-{mo:02d}-{da:02d}"
    return s + string.ascii_letters[int(rng.integers(len(string.ascii_letters)))]


def _zipf_probs(k: int, skew: float) -> np.ndarray:
    w = 1.0 / np.arange(1, k + 1) ** skew
    return w / w.sum()


def rnoise(
    df: pd.DataFrame,
    dcs: Sequence[DC],
    alpha: float,
    *,
    typo_prob: float = 0.5,
    skew: float = 0.0,
    checkpoint_every: int | None = None,
    n_checkpoints: int | None = None,
    all_columns_count: bool = True,
    rng=None,
) -> Iterator[tuple[int, pd.DataFrame]]:
    """RNoise: ⌊α·n·|A|⌋ cell changes (|A| = all columns, as the reference), each in a constrained column.

    With probability ``typo_prob`` a typo, else a value of the column's active domain (computed on the
    clean table) drawn with Zipf(``skew``) probabilities. Yields (iteration, copy) at checkpoints.

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §6.1 (RNoise).
    """
    alpha = check_probability(alpha, "alpha", open_interval=False)
    typo_prob = check_probability(typo_prob, "typo_prob", open_interval=False)
    gen = as_generator(rng)
    cols = constrained_columns(df, dcs)
    width = df.shape[1] if all_columns_count else len(cols)
    iters = int(np.floor(alpha * len(df) * width))
    if checkpoint_every is None:
        checkpoint_every = max(1, int(np.ceil(iters / (n_checkpoints or 10)))) if iters else 1
    checkpoint_every = check_int(checkpoint_every, "checkpoint_every", minimum=1)
    arrays = {c: df[c].to_numpy(dtype=object).copy() for c in cols}
    domains = {}
    for c in cols:
        vals = df[c].dropna()
        counts = vals.value_counts()
        domains[c] = (counts.index.to_numpy(dtype=object), _zipf_probs(len(counts), skew) if len(counts) else None)
    out = df.copy()

    def snapshot():
        snap = out.copy()
        for c in cols:
            snap[c] = pd.Series(arrays[c], index=snap.index).astype(df[c].dtype if df[c].dtype != object else object)
        return snap

    yield 0, snapshot()
    n = len(df)
    for it in range(1, iters + 1):
        c = cols[int(gen.integers(len(cols)))]
        i = int(gen.integers(n))
        tries = 0
        while pd.isna(arrays[c][i]) and tries < 100:
            i = int(gen.integers(n)); tries += 1
        if gen.random() < typo_prob:
            arrays[c][i] = typo(arrays[c][i], gen)
        else:
            values, probs = domains[c]
            arrays[c][i] = values[int(gen.choice(len(values), p=probs))]
        if it % checkpoint_every == 0 or it == iters:
            yield it, snapshot()


def _satisfies(a, op, b) -> bool:
    try:
        return {"=": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]
    except TypeError:
        return False


def conoise(
    df: pd.DataFrame,
    dcs: Sequence[DC],
    iterations: int = 200,
    *,
    checkpoint_every: int = 10,
    rng=None,
) -> Iterator[tuple[int, pd.DataFrame]]:
    """CONoise: each iteration makes a random pair violate a random DC (spec §4.3; fallbacks as the reference).

    References
    ----------
    Mohapatra, Gilad, He, Kimelfeld, SIGMOD 2025: §6.1 (CONoise).
    """
    iterations = check_int(iterations, "iterations", minimum=0)
    checkpoint_every = check_int(checkpoint_every, "checkpoint_every", minimum=1)
    gen = as_generator(rng)
    pair_dcs = [d for d in dcs if not d.is_unary]
    if not pair_dcs:
        raise ValueError("CONoise needs at least one pairwise DC")
    cols = constrained_columns(df, pair_dcs)
    arrays = {c: df[c].to_numpy(dtype=object).copy() for c in cols}
    domains = {c: df[c].dropna().unique() for c in cols}
    out = df.copy()
    integer_cols = {c for c in cols if pd.api.types.is_integer_dtype(df[c])}

    def snapshot():
        snap = out.copy()
        for c in cols:
            s = pd.Series(arrays[c], index=snap.index)
            snap[c] = s.astype(df[c].dtype) if c in integer_cols or pd.api.types.is_float_dtype(df[c]) else s
        return snap

    def fallback(op, comp, is_int, is_str):
        if op == "!=":
            return str(comp) + "1" if is_str else comp + float(gen.uniform(1, 100))
        if op in (">",):
            v = comp + gen.uniform(1, 100)
        else:
            v = comp - gen.uniform(1, 100)
        return int(round(v)) if is_int else float(v)

    yield 0, snapshot()
    n = len(df)
    for it in range(1, iterations + 1):
        dc = pair_dcs[int(gen.integers(len(pair_dcs)))]
        i, j = (int(x) for x in gen.choice(n, size=2, replace=False))
        tid = {1: i, 2: j}
        for p in dc.predicates:
            l, r = p.left, p.right
            lv = arrays[l.attr][tid[l.tuple]]
            rv = r.const if r.is_const else arrays[r.attr][tid[r.tuple]]
            if _satisfies(lv, p.op, rv):
                continue
            change_left = r.is_const or gen.random() < 0.5
            if p.op in ("=", "<=", ">="):
                if change_left:
                    arrays[l.attr][tid[l.tuple]] = rv
                else:
                    arrays[r.attr][tid[r.tuple]] = lv
                continue
            # <, >, != : pick a domain value satisfying the predicate for the changed side
            if change_left:
                attr, row, op, comp = l.attr, tid[l.tuple], p.op, rv
            else:
                flip = {"<": ">", ">": "<", "!=": "!="}
                attr, row, op, comp = r.attr, tid[r.tuple], flip[p.op], lv
            cand = [x for x in domains[attr] if _satisfies(x, op, comp)]
            if cand:
                arrays[attr][row] = cand[int(gen.integers(len(cand)))]
            else:
                is_str = isinstance(comp, str)
                if op != "!=" and is_str:
                    arrays[attr][row] = comp + "1" if op == ">" else comp[:-1] if comp else ""
                else:
                    arrays[attr][row] = fallback(op, comp, attr in integer_cols, is_str)
        if it % checkpoint_every == 0 or it == iterations:
            yield it, snapshot()


__all__ = ["conoise", "constrained_columns", "rnoise", "typo"]
