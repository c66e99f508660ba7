"""What a notebook uses to save its outputs: figures, tables, claims.

A notebook creates one :class:`NotebookContext` from its papermill parameters::

    ctx = NotebookContext("inconsistency/fig04_rnoise", profile=profile, output_dir=output_dir)
    ctx.save_figure(fig, "fig04_adult")
    ctx.claims.add("max degree, Adult 10k, 1% RNoise", paper=9635, ours=9500, rtol=0.25)
    ctx.finish()

Outputs go to ``output_dir`` (set by ``dpworkbench reproduce`` to
``reports/<profile>/<paper>/<name>``; interactive sessions default to
``reports/interactive/<paper>/<name>``) and tidy results to
``results/<profile>/<paper>/<name>``.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from .._validation import check_options
from ..paths import reports_dir, results_dir
from .claims import VERDICTS, Claim, Claims  # noqa: F401  (re-exported)
from .runner import atomic_write_csv, atomic_write_text

PROFILES = ("ci", "quick", "paper")


def pick(profile: str, *, ci: Any, quick: Any, paper: Any) -> Any:
    """The value for a profile: ``ci`` (seconds, for tests), ``quick`` (minutes) or ``paper`` (full grids)."""
    check_options(profile, "profile", PROFILES)
    return {"ci": ci, "quick": quick, "paper": paper}[profile]


def _under(path: Path, root: Path) -> Path | None:
    """``path`` relative to ``root``, or None when it is not inside it."""
    try:
        return Path(path).resolve().relative_to(Path(root).resolve())
    except ValueError:
        return None


class NotebookContext:
    """Output locations and bookkeeping for one notebook run."""

    def __init__(self, name: str, *, profile: str = "ci", output_dir: str | Path | None = None, seed: int = 0):
        check_options(profile, "profile", PROFILES)
        if "/" not in name:
            raise ValueError(f"name must be '<paper>/<notebook>', got {name!r}")
        self.name = name
        self.paper, self.stem = name.split("/", 1)
        self.profile = profile
        self.seed = seed
        self.output_dir = Path(output_dir) if output_dir else reports_dir() / "interactive" / self.paper / self.stem
        self.figures_dir = self.output_dir / "figures"
        self.results_dir = results_dir() / profile / self.paper / self.stem
        parameterised = _under(self.output_dir, reports_dir() / "runs")
        if parameterised is not None:  # `dpworkbench run -p`: its tables and grid caches apart from the profile's too
            self.results_dir = results_dir() / "runs" / parameterised
        self.output_dir.mkdir(parents=True, exist_ok=True)
        self.figures_dir.mkdir(parents=True, exist_ok=True)
        self.results_dir.mkdir(parents=True, exist_ok=True)
        self.claims = Claims()
        self.figures: list[dict] = []
        self.tables: list[str] = []
        self._t0 = time.perf_counter()

    def save_figure(self, fig, name: str, *, png: bool = True, caption: str = "") -> None:
        """Save a plotly figure as HTML, PNG and SVG (the image formats where a headless Chromium exists).

        Returns nothing, so a notebook cell ending in ``ctx.save_figure(...)`` prints nothing; the saved
        paths are in ``ctx.figures``.
        """
        from ..plots import save_figure

        # One shared plotly.min.js per report (reports/<profile>/_static) keeps reports small and offline.
        paths = save_figure(fig, self.figures_dir / name, png=png, plotlyjs=self.output_dir.parent.parent / "_static" / "plotly.min.js")
        entry = {"name": name, "caption": caption, **{k: str(Path(v).relative_to(self.output_dir)) for k, v in paths.items()}}
        self.figures = [f for f in self.figures if f["name"] != name] + [entry]

    def save_table(self, df, name: str) -> Path:
        """Save a table as CSV under the output directory (and the results directory)."""
        path = self.output_dir / "tables" / f"{name}.csv"
        atomic_write_csv(df, path)
        atomic_write_csv(df, self.results_dir / f"{name}.csv")
        self.tables.append(str(path.relative_to(self.output_dir)))
        return path

    def finish(self) -> "Claims":
        """Write ``claims.json`` and ``manifest.json``; returns the claims for display."""
        atomic_write_text(self.output_dir / "claims.json", json.dumps([asdict(c) for c in self.claims.rows], indent=2, default=str))
        manifest = {
            "name": self.name,
            "profile": self.profile,
            "seed": self.seed,
            "figures": self.figures,
            "tables": self.tables,
            "seconds": round(time.perf_counter() - self._t0, 3),
        }
        atomic_write_text(self.output_dir / "manifest.json", json.dumps(manifest, indent=2))
        from ..datasets import provenance  # which data this run used (real or stand-in), gathered into datasets.csv

        provenance.write_json(self.output_dir / "datasets.json")
        return self.claims
