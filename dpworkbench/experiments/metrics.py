"""The errors every experiment reports, in one place (mechanisms return releases; they never compute errors).

Each metric takes the private outputs (a scalar or an array of repetitions) and the exact answer and returns an
array of the same length; summaries (means, medians, quantiles) are the caller's. :func:`relative_to_truth` puts a
summarised error over the truth with the relative error's zero-truth rule (it takes an error, so it is not in
:data:`METRICS`).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .._validation import check_options


def absolute_error(out: Any, truth: Any) -> np.ndarray:
    """|output − truth|, per repetition (an array output: the L1 distance per repetition)."""
    o, t = np.asarray(out, dtype=float), np.asarray(truth, dtype=float)
    d = np.abs(o - t)
    return d.reshape(d.shape[0], -1).sum(axis=1) if d.ndim > 1 else d


#: how :func:`relative_error` measures against a zero truth; the papers differ, so the rule is the caller's choice
ZERO_TRUTH_RULES = ("floor", "nan", "inf")


def relative_error(out: Any, truth: Any, *, zero_truth: str = "floor", floor: float = 1.0) -> Any:
    """|output − truth| / |truth| per repetition; a float for scalar inputs. A vector truth: ``out`` holds one vector
    per repetition (rows) and the error is their L1 distance over the L1 norm of the truth.

    ``zero_truth`` is the rule for a truth at (or, with ``"floor"``, near) zero, where the ratio is undefined:

    - ``"floor"`` (default; the experiment runner): divide by max(|truth|, ``floor``), so a zero answer keeps a
      finite error;
    - ``"nan"`` (PrivateClean, R2T's relative error %): NaN, so means over runs drop it;
    - ``"inf"`` (the inconsistency paper): 0 when the output is exact too, ∞ otherwise.
    """
    return relative_to_truth(absolute_error(out, truth), truth, zero_truth=zero_truth, floor=floor)


def relative_to_truth(error: Any, truth: Any, *, zero_truth: str = "floor", floor: float = 1.0) -> Any:
    """An error already measured, ``error`` / |truth|, under :func:`relative_error`'s ``zero_truth`` rule (a vector
    truth: its L1 norm); a float for a scalar ``error``.

    For an error summarised before the division — a mean or trimmed mean of :func:`absolute_error` over runs (R2T's
    "relative error %", the inconsistency paper's error against the exact I_R): the summary of the per-run ratios is
    the same number in exact arithmetic, not in floating point, and these tables divide the summary.
    """
    check_options(zero_truth, "zero_truth", ZERO_TRUTH_RULES)
    t = np.asarray(truth, dtype=float)
    err = np.asarray(error, dtype=float)
    size = np.abs(t).sum() if t.ndim else abs(float(t))
    if zero_truth == "floor":
        r = err / np.maximum(size, floor)
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            r = err / size
        r = np.where(size == 0, np.nan if zero_truth == "nan" else np.where(err == 0, 0.0, np.inf), r)
    return float(r) if np.ndim(r) == 0 else r


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


__all__ = ["METRICS", "ZERO_TRUTH_RULES", "absolute_error", "relative_error", "relative_to_truth", "signed_error",
           "squared_error"]
