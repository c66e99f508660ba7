"""Experiment drivers and figures for the PrivateClean notebooks (spec §5, §6.4)."""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from dpworkbench.experiments import run_grid
from .standins import run_cars_batch, run_intel, run_intel_batch, run_mcafe, run_tpcds
from .batch import run_batch, run_multiattr_batch
from .synthetic import run_instance, run_multiattr_instance

BATCHED = {"synthetic", "intel", "cars", "multiattr"}
KINDS = {"synthetic": run_batch, "synthetic_loop": run_instance, "multiattr": run_multiattr_batch,
         "multiattr_loop": run_multiattr_instance, "intel": run_intel_batch, "intel_loop": run_intel, "cars": run_cars_batch, "mcafe": run_mcafe, "tpcds": run_tpcds}

COLORS = {"direct": "#d62728", "privateclean": "#1f77b4", "pc_noprov": "#9467bd", "dirty_nonprivate": "#7f7f7f",
          "Direct": "#d62728", "PC-W": "#1f77b4", "PC-U": "#2ca02c"}


@functools.lru_cache(maxsize=1)
def code_version() -> str:
    """Short hash of this subpackage's source: part of every sweep cell's identity, so results cached by
    ``run_grid`` (resume) are recomputed after the model or estimator code changes instead of being reused."""
    h = hashlib.sha256()
    for f in sorted(Path(__file__).resolve().parent.glob("*.py")):
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:12]


def sweep(ctx, name: str, x: str, values, *, repetitions: int, fixed: dict | None = None, multiattr: bool = False,
          seed: int = 0, kind: str | None = None) -> pd.DataFrame:
    """Run ``repetitions`` random private instances per x value; returns the tidy per-instance errors."""
    kind = kind or ("multiattr" if multiattr else "synthetic")
    fn = KINDS[kind]
    fixed = {**dict(fixed or {}), "code_version": code_version()}
    if kind in BATCHED:  # all repetitions of a cell drawn at once (vectorised; batch.py)
        fixed["batch"] = int(repetitions)
        repetitions = 1
    df = run_grid(f"privateclean_{name}", fn, {x: list(values)}, repetitions=repetitions, seed=seed,
                  fixed=fixed, results_dir=ctx.results_dir)
    if "skipped" in df.columns:
        df = df[df["skipped"].isna() | (df["skipped"] == False)]  # noqa: E712
    return df.dropna(subset=["rel_error"])


def table(df: pd.DataFrame, x: str) -> pd.DataFrame:
    """Mean / median / IQR of the relative error per (agg, method, x)."""
    g = df.groupby(["agg", "method", x])["rel_error"]
    return pd.DataFrame({"mean": g.mean(), "median": g.median(), "q25": g.quantile(0.25), "q75": g.quantile(0.75),
                         "n": g.size()}).reset_index()


def figure(tab: pd.DataFrame, x: str, title: str, *, methods=None, x_title: str | None = None) -> go.Figure:
    """One panel per aggregate: mean relative error (%) with an IQR band per method."""
    aggs = list(dict.fromkeys(tab["agg"]))
    fig = make_subplots(rows=1, cols=len(aggs), subplot_titles=[a.upper() for a in aggs])
    for j, agg in enumerate(aggs, 1):
        for m in methods or list(dict.fromkeys(tab["method"])):
            t = tab[(tab["agg"] == agg) & (tab["method"] == m)].sort_values(x)
            if t.empty:
                continue
            c = COLORS.get(m, None)
            fig.add_trace(go.Scatter(x=list(t[x]) + list(t[x])[::-1], y=list(100 * t["q75"]) + list(100 * t["q25"])[::-1],
                                     fill="toself", line=dict(width=0), fillcolor=c, opacity=0.15, showlegend=False,
                                     hoverinfo="skip"), row=1, col=j)
            fig.add_trace(go.Scatter(x=t[x], y=100 * t["mean"], mode="lines+markers", name=m, line=dict(color=c),
                                     showlegend=j == 1), row=1, col=j)
        fig.update_xaxes(title_text=x_title or x, row=1, col=j)
        fig.update_yaxes(title_text="mean relative error (%)", row=1, col=j)
    fig.update_layout(title=title, height=420)
    return fig


def value(tab: pd.DataFrame, agg: str, method: str, x: str, xv, stat: str = "mean") -> float:
    t = tab[(tab["agg"] == agg) & (tab["method"] == method) & np.isclose(tab[x].astype(float), float(xv))]
    return float(t[stat].iloc[0]) if len(t) else float("nan")


def slope(tab: pd.DataFrame, agg: str, method: str, x: str) -> float:
    t = tab[(tab["agg"] == agg) & (tab["method"] == method)].sort_values(x)
    return float(np.polyfit(t[x].astype(float), t["mean"], 1)[0])


def never_worse(tab: pd.DataFrame, x: str, *, better: str = "privateclean", than: str = "direct", tol: float = 0.1,
                aggs=("count", "sum")) -> bool:
    """True when ``better``'s mean error ≤ (1+tol)·``than``'s at every x value and aggregate."""
    return all(value(tab, a, better, x, v) <= (1 + tol) * value(tab, a, than, x, v) + 1e-9
               for a in aggs for v in tab[x].unique())


def data_source(kind: str, fixed: dict | None = None) -> str:
    """Which data a stand-in notebook used: "real" or "synthetic" (said plainly in the notebook)."""
    fixed = dict(fixed or {})
    if kind == "tpcds":
        from .standins import tpcds_truth
        return tpcds_truth(fixed)[1]
    if kind == "cars":
        from .standins import cars
        return cars(fixed.get("prefer", "real"))[1]
    return "synthetic"


def crossover(tab: pd.DataFrame, agg: str, x: str, *, a: str = "direct", b: str = "privateclean") -> float:
    """First x at which ``a``'s mean error drops to ``b``'s or below (linear interpolation between grid points);
    NaN when ``a`` stays worse over the whole grid, the first grid value when it is never worse."""
    xs = sorted(float(v) for v in tab[x].unique())
    d = [value(tab, agg, a, x, v) - value(tab, agg, b, x, v) for v in xs]
    if d[0] <= 0:
        return xs[0]
    for (x0, d0), (x1, d1) in zip(zip(xs, d), zip(xs[1:], d[1:])):
        if d1 <= 0:
            return x0 + (x1 - x0) * d0 / (d0 - d1)
    return float("nan")


def paired_difference(df: pd.DataFrame, agg: str, x: str, at, *, a: str = "privateclean", b: str = "direct",
                      pair: str = "repetition") -> tuple[float, float]:
    """Paired ``a`` − ``b`` relative error at ``x == at`` for aggregate (or panel) ``agg`` of a tidy sweep: the
    mean over the ``pair`` units (repetitions) and its standard error (sample SD / √n; NaN with fewer than two)."""
    d = df[df["agg"] == agg].pivot_table(index=[x, pair], columns="method", values="rel_error")
    for m in (a, b):
        if m not in d.columns:
            raise ValueError(f"method {m!r} has no rel_error for agg {agg!r} (methods: {sorted(d.columns)})")
    diff = (d[a] - d[b]).xs(at, level=0)
    se = float(diff.std(ddof=1) / len(diff) ** 0.5) if len(diff) > 1 else float("nan")
    return float(diff.mean()), se
