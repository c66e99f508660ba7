"""The errors every experiment reports, in one place (mechanisms return releases; they never compute errors).

Each metric takes the private outputs (a scalar or an array of repetitions) and the exact answer and returns an
array of the same length; summaries (means, medians, quantiles) are the caller's.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np


def absolute_error(out: Any, truth: Any) -> np.ndarray:
    """|output − truth|, per repetition (an array output: the L1 distance per repetition)."""
    o, t = np.asarray(out, dtype=float), np.asarray(truth, dtype=float)
    d = np.abs(o - t)
    return d.reshape(d.shape[0], -1).sum(axis=1) if d.ndim > 1 else d


def relative_error(out: Any, truth: Any, *, floor: float = 1.0) -> np.ndarray:
    """|output − truth| / max(|truth|, floor): the papers' relative error (R2T, inconsistency measures); the
    floor keeps a zero answer finite."""
    t = np.asarray(truth, dtype=float)
    return absolute_error(out, t) / np.maximum(np.abs(t).sum() if t.ndim else abs(float(t)), floor)


def squared_error(out: Any, truth: Any) -> np.ndarray:
    o, t = np.asarray(out, dtype=float), np.asarray(truth, dtype=float)
    d = (o - t) ** 2
    return d.reshape(d.shape[0], -1).sum(axis=1) if d.ndim > 1 else d


def signed_error(out: Any, truth: Any) -> np.ndarray:
    """output − truth (bias studies)."""
    return np.asarray(out, dtype=float) - np.asarray(truth, dtype=float)


METRICS: dict[str, Callable[..., np.ndarray]] = {
    "absolute_error": absolute_error,
    "relative_error": relative_error,
    "squared_error": squared_error,
    "signed_error": signed_error,
}


__all__ = ["METRICS", "absolute_error", "relative_error", "signed_error", "squared_error"]
