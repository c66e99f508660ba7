"""Experiment grids, summaries and notebook output bookkeeping."""

from .claims import (Claim, Claims, Rule, Scale, at_least, at_most, band, between, claim_defaults, close, equals,
                     not_comparable)
from .context import PROFILES, NotebookContext, pick
from .runner import atomic_write_csv, atomic_write_text, cell_id, cell_rng, expand_grid, load_results, run_grid
from .metrics import relative_error
from .summary import summarize, trimmed_mean

__all__ = [
    "PROFILES",
    "Claim",
    "Claims",
    "Rule",
    "Scale",
    "band",
    "claim_defaults",
    "at_least",
    "at_most",
    "between",
    "close",
    "equals",
    "not_comparable",
    "NotebookContext",
    "atomic_write_csv",
    "atomic_write_text",
    "cell_id",
    "cell_rng",
    "expand_grid",
    "load_results",
    "pick",
    "relative_error",
    "run_grid",
    "summarize",
    "trimmed_mean",
]
