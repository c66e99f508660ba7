"""Where things live: project root, shared real data, results and reports."""

from __future__ import annotations

import os
from pathlib import Path


def project_root() -> Path:
    """The checkout that holds the package (``pyproject.toml`` beside ``dpworkbench/``).

    Falls back to the current directory for a non-editable install.
    """
    here = Path(__file__).resolve().parent.parent
    if (here / "pyproject.toml").exists():
        return here
    return Path.cwd()


def data_dir() -> Path | None:
    """Real datasets: ``$DPWB_DATA``, else ``../shared/data`` beside the project root if it exists."""
    env = os.environ.get("DPWB_DATA")
    if env:
        p = Path(env).expanduser()
        return p if p.exists() else None
    candidate = project_root().parent / "shared" / "data"
    return candidate if candidate.exists() else None


def results_dir() -> Path:
    """Tidy experiment outputs (``$DPWB_RESULTS`` or ``<root>/results``)."""
    return Path(os.environ.get("DPWB_RESULTS", project_root() / "results"))


def reports_dir() -> Path:
    """Executed notebooks, figures and the HTML index (``$DPWB_REPORTS`` or ``<root>/reports``)."""
    return Path(os.environ.get("DPWB_REPORTS", project_root() / "reports"))


def cache_dir() -> Path:
    """Cache for generated data (TPC-H Parquet, EBC arrays): ``$DPWB_CACHE`` or ``<root>/data/cache``."""
    return Path(os.environ.get("DPWB_CACHE", project_root() / "data" / "cache"))
