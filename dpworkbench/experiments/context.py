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
import math
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .._validation import check_options
from ..paths import reports_dir, results_dir
from .runner import atomic_write_csv, atomic_write_text

PROFILES = ("ci", "quick", "paper")
VERDICTS = ("pass", "differs", "not-comparable")


def pick(profile: str, *, ci: Any, quick: Any, paper: Any) -> Any:
    """The value for a profile: ``ci`` (seconds, for tests), ``quick`` (minutes) or ``paper`` (full grids)."""
    check_options(profile, "profile", PROFILES)
    return {"ci": ci, "quick": quick, "paper": paper}[profile]


@dataclass
class Claim:
    claim: str
    paper_value: Any
    our_value: Any
    verdict: str
    note: str = ""


def _fmt(v: Any) -> Any:
    if isinstance(v, float) and math.isfinite(v):
        return float(f"{v:.6g}")
    try:
        import numpy as np

        if isinstance(v, np.generic):
            return _fmt(v.item())
    except ImportError:  # pragma: no cover
        pass
    return v


@dataclass
class Claims:
    """Rows of (claim, paper value, our value, verdict, note) for the report."""

    rows: list[Claim] = field(default_factory=list)

    def add(
        self,
        claim: str,
        *,
        paper: Any,
        ours: Any,
        verdict: str | None = None,
        rtol: float | None = None,
        atol: float | None = None,
        note: str = "",
    ) -> Claim:
        """Add a claim; give ``verdict`` or a tolerance (``rtol``/``atol``) to derive pass/differs."""
        if verdict is None:
            if rtol is None and atol is None:
                raise ValueError("give a verdict or a tolerance (rtol/atol)")
            try:
                p, o = float(paper), float(ours)
            except (TypeError, ValueError):
                raise ValueError("a tolerance needs numeric paper and our values; give a verdict instead") from None
            tol = max(rtol * abs(p) if rtol is not None else 0.0, atol or 0.0)
            verdict = "pass" if math.isfinite(o) and abs(o - p) <= tol else "differs"
            if rtol is not None and not note:
                note = f"tolerance ±{rtol:.0%} of the paper's value"
        check_options(verdict, "verdict", VERDICTS)
        c = Claim(claim, _fmt(paper), _fmt(ours), verdict, note)
        self.rows.append(c)
        return c

    def to_frame(self):
        import pandas as pd

        return pd.DataFrame([asdict(c) for c in self.rows], columns=["claim", "paper_value", "our_value", "verdict", "note"])

    def _repr_html_(self) -> str:
        return self.to_frame().to_html(index=False)


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
        self.output_dir.mkdir(parents=True, exist_ok=True)
        self.figures_dir.mkdir(parents=True, exist_ok=True)
        self.results_dir.mkdir(parents=True, exist_ok=True)
        self.claims = Claims()
        self.figures: list[dict] = []
        self.tables: list[str] = []
        self._t0 = time.perf_counter()

    def save_figure(self, fig, name: str, *, png: bool = True, caption: str = "") -> dict:
        """Save a plotly figure as HTML (and PNG where a headless Chromium exists)."""
        from ..plots import save_figure

        # One shared plotly.min.js per report (reports/<profile>/_static) keeps reports small and offline.
        paths = save_figure(fig, self.figures_dir / name, png=png, plotlyjs=self.output_dir.parent.parent / "_static" / "plotly.min.js")
        entry = {"name": name, "caption": caption, **{k: str(Path(v).relative_to(self.output_dir)) for k, v in paths.items()}}
        self.figures = [f for f in self.figures if f["name"] != name] + [entry]
        return entry

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
        return self.claims
