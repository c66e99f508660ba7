"""Summaries: trimmed means (R2T drops the 2 largest and 2 smallest of 10), bands."""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

def trimmed_mean(values: Sequence[float], drop: int = 0, proportion: float | None = None) -> float:
    """Mean after dropping ``drop`` smallest and ``drop`` largest values (or a proportion from each end)."""
    x = np.sort(np.asarray(values, dtype=float))
    if x.size == 0:
        raise ValueError("trimmed_mean of an empty sequence")
    if proportion is not None:
        if not 0 <= proportion < 0.5:
            raise ValueError(f"proportion must be in [0, 0.5), got {proportion}")
        drop = int(np.floor(proportion * x.size))
    if drop < 0:
        raise ValueError("drop must be >= 0")
    if 2 * drop >= x.size:
        drop = (x.size - 1) // 2
    return float(x[drop : x.size - drop].mean())


def summarize(
    df: pd.DataFrame, by: Sequence[str], value: str, *, trim: int = 0
) -> pd.DataFrame:
    """Per group: mean, std, standard error, count, median and a trimmed mean of ``value``."""
    if value not in df.columns:
        raise ValueError(f"unknown column {value!r}; columns: {list(df.columns)}")
    missing = [b for b in by if b not in df.columns]
    if missing:
        raise ValueError(f"unknown grouping columns {missing}; columns: {list(df.columns)}")
    g = df.groupby(list(by), dropna=False)[value]
    out = g.agg(["mean", "std", "count", "median"]).reset_index()
    out["se"] = out["std"] / np.sqrt(out["count"].clip(lower=1))
    tm = g.apply(lambda s: trimmed_mean(s.to_numpy(), drop=trim)).reset_index(name="trimmed_mean")
    return out.merge(tm, on=list(by))
