"""Plotly figure builders shared by all papers, and saving to HTML/PNG.

PNG export needs kaleido plus a headless Chrome/Chromium on the machine (Debian's
``chromium``); without one, figures are saved as HTML only and nothing fails.
"""

from __future__ import annotations

import os
import shutil
import threading
import warnings
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from .review import figure_problems, text_width_px
from .style import PALETTE as _PALETTE
from .style import TEMPLATE_NAME, apply_style, decade_ticks, figure_size, panel_grid

# Figures built anywhere in the workbench (notebooks, widgets) share the one template.
pio.templates.default = TEMPLATE_NAME
_PNG_STATE: dict[str, bool] = {}


def _rgba(hex_color: str, alpha: float) -> str:
    h = hex_color.lstrip("#")
    r, g, b = int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)
    return f"rgba({r},{g},{b},{alpha})"


def _check_columns(df: pd.DataFrame, cols: Sequence[str | None]) -> None:
    missing = [c for c in cols if c is not None and c not in df.columns]
    if missing:
        raise ValueError(f"unknown column(s) {missing}; columns: {list(df.columns)}")


def _band_stats(df: pd.DataFrame, x: str, y: str, band: str | None) -> pd.DataFrame:
    g = df.groupby(x)[y]
    out = g.agg(["mean", "std", "count", "median"]).reset_index()
    if band == "std":
        out["lo"], out["hi"] = out["mean"] - out["std"].fillna(0), out["mean"] + out["std"].fillna(0)
    elif band == "se":
        se = out["std"].fillna(0) / np.sqrt(out["count"])
        out["lo"], out["hi"] = out["mean"] - 1.96 * se, out["mean"] + 1.96 * se
    elif band == "iqr":
        q = g.quantile([0.25, 0.75]).unstack()
        out["lo"], out["hi"] = q[0.25].to_numpy(), q[0.75].to_numpy()
    return out


def line_with_band(
    df: pd.DataFrame,
    x: str,
    y: str,
    *,
    color: str | None = None,
    band: str | None = "std",
    log_x: bool = False,
    log_y: bool = False,
    title: str = "",
    x_title: str | None = None,
    y_title: str | None = None,
    summarized: bool = False,
) -> go.Figure:
    """Mean of ``y`` against ``x`` per ``color`` group with a shaded band (std, 95% se or IQR).

    ``summarized=True`` means ``df`` already has one row per point with optional
    ``lo``/``hi`` columns.
    """
    _check_columns(df, [x, y, color])
    fig = go.Figure()
    groups = [(None, df)] if color is None else list(df.groupby(color, sort=False))
    for i, (name, sub) in enumerate(groups):
        c = _PALETTE[i % len(_PALETTE)]
        stats = sub.rename(columns={y: "mean"}) if summarized else _band_stats(sub, x, y, band)
        stats = stats.sort_values(x)
        label = str(name) if name is not None else y
        if band and {"lo", "hi"} <= set(stats.columns):
            lo = stats["lo"].to_numpy(dtype=float)
            if log_y:
                lo = np.where(lo > 0, lo, np.nan)
            fig.add_trace(
                go.Scatter(
                    x=np.concatenate([stats[x].to_numpy(), stats[x].to_numpy()[::-1]]),
                    y=np.concatenate([stats["hi"].to_numpy(dtype=float), lo[::-1]]),
                    fill="toself",
                    mode="lines",  # unset, plotly would add dots at the band's vertices (< 20 points)
                    fillcolor=_rgba(c, 0.15),
                    line=dict(width=0),
                    hoverinfo="skip",
                    showlegend=False,
                    legendgroup=label,
                )
            )
        fig.add_trace(
            go.Scatter(x=stats[x], y=stats["mean"], mode="lines+markers", name=label, line=dict(color=c), legendgroup=label)
        )
    fig.update_layout(
        title=title,
        xaxis_title=x_title or x,
        yaxis_title=y_title or y,
        template=TEMPLATE_NAME,
        legend_title=color or "",
    )
    if log_x:
        fig.update_xaxes(type="log")
    if log_y:
        fig.update_yaxes(type="log")
    # as shown in a notebook too (not only as saved): plotly's 2…9 minor labels drown the decades on a projector
    return decade_ticks(fig) if (log_x or log_y) else fig


def bar(df: pd.DataFrame, x: str, y: str, *, color: str | None = None, log_y: bool = False, title: str = "") -> go.Figure:
    """Grouped bar chart."""
    _check_columns(df, [x, y, color])
    fig = go.Figure()
    groups = [(y, df)] if color is None else list(df.groupby(color, sort=False))
    for i, (name, sub) in enumerate(groups):
        fig.add_trace(go.Bar(x=sub[x], y=sub[y], name=str(name), marker_color=_PALETTE[i % len(_PALETTE)]))
    fig.update_layout(barmode="group", title=title, template=TEMPLATE_NAME, xaxis_title=x, yaxis_title=y)
    if log_y:
        fig.update_yaxes(type="log")
    return fig


def find_chromium() -> str | None:
    """Path of a headless-capable Chrome/Chromium, or None."""
    for env in ("BROWSER_PATH", "CHROME_PATH"):
        p = os.environ.get(env)
        if p and Path(p).exists():
            return p
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def png_export_available() -> bool:
    """True when kaleido and a Chromium are present (checked once per process)."""
    if "ok" not in _PNG_STATE:
        ok = False
        if os.environ.get("DPWB_NO_PNG") != "1":
            try:
                import kaleido  # noqa: F401

                ok = find_chromium() is not None
            except ImportError:
                ok = False
        _PNG_STATE["ok"] = ok
    return _PNG_STATE["ok"]


def _start_png_server() -> None:
    """Keep one headless Chromium for all PNG exports of this process (stopped at exit).

    kaleido 1.x otherwise starts a new Chromium per ``write_image`` (~4 s each); its sync
    server is a singleton, so a second start (e.g. by a notebook) is a silent no-op.
    """
    if _PNG_STATE.get("server") is not None:
        return
    _PNG_STATE["server"] = False
    try:
        import atexit

        import kaleido

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            kaleido.start_sync_server(silence_warnings=True)
        atexit.register(_stop_png_server)
        _PNG_STATE["server"] = True
    except Exception:  # noqa: BLE001 - fall back to one browser per export
        _PNG_STATE["server"] = False


def _stop_png_server() -> None:
    """Stop the shared Chromium at exit and give it a moment to finish writing its temporary profile.

    Without the pause, tempfile's own exit clean-up of that profile sometimes races the exiting browser and
    prints an OSError traceback ("Directory not empty: 'Default'") at the user after an otherwise clean run.
    """
    import time

    import kaleido

    try:
        kaleido.stop_sync_server(silence_warnings=True)
    except Exception:  # noqa: BLE001 - nothing useful to report at interpreter exit
        return
    time.sleep(0.5)


def write_plotlyjs(path: Path) -> Path:
    """Write the bundled plotly.min.js once (reports open offline, no CDN)."""
    path = Path(path)
    if not path.exists():
        from plotly.offline import get_plotlyjs

        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(get_plotlyjs())
        os.replace(tmp, path)
    return path


def save_figure(
    fig: go.Figure,
    stem: str | Path,
    *,
    png: bool = True,
    svg: bool = True,
    width: int | None = None,
    height: int | None = None,
    plotlyjs: str | Path = "inline",
) -> dict[str, Path]:
    """Write ``<stem>.html``, and ``<stem>.png`` + ``<stem>.svg`` when a headless Chromium exists.

    Every file shows the figure as :func:`apply_style` makes it: the one ``dpworkbench`` template,
    a size from the panel grid (``width``/``height`` override it) and text that prints at ≥ 7 pt
    at one column (or text width for three or more panel columns). ``fig`` itself is not changed.
    ``plotlyjs`` is ``"inline"`` (self-contained file, ~4.5 MB) or the path of a shared
    ``plotly.min.js`` that is written once and referenced relatively. Every file is written under a
    temporary name and renamed when complete.
    """
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    styled = apply_style(fig, width=width, height=height)
    w, h = int(styled.layout.width), int(styled.layout.height)
    paths: dict[str, Path] = {}
    html = stem.with_suffix(".html")
    if plotlyjs == "inline":
        include: str | bool = True
    else:
        js = write_plotlyjs(Path(plotlyjs))
        include = os.path.relpath(js, html.parent)
    # The HTML page fills the browser window (interactive): the fixed print size is for PNG/SVG only.
    screen = go.Figure(styled).update_layout(width=None, height=max(h, 420), autosize=True)
    tmp_html = html.with_name(f".{html.name}.partial")
    screen.write_html(tmp_html, include_plotlyjs=include, full_html=True)
    os.replace(tmp_html, html)
    paths["html"] = html
    if (png or svg) and png_export_available():
        chrome = find_chromium()
        if chrome:
            os.environ.setdefault("BROWSER_PATH", chrome)
        _start_png_server()
        try:
            for kind, wanted in (("png", png), ("svg", svg)):
                if wanted:
                    out = stem.with_suffix(f".{kind}")
                    _write_png(styled, out, w, h, png_timeout_seconds())
                    paths[kind] = out
        except Exception as exc:  # a missing/broken/hung browser must never fail or stall a run
            _PNG_STATE["ok"] = False
            warnings.warn(f"PNG/SVG export disabled for this process: {exc}", stacklevel=2)
    return paths


def png_timeout_seconds() -> float:
    """Longest wait for one PNG export (``$DPWB_PNG_TIMEOUT``, default 120 s)."""
    value = float(os.environ.get("DPWB_PNG_TIMEOUT", "120"))
    if not value > 0:
        raise ValueError(f"DPWB_PNG_TIMEOUT must be > 0 seconds, got {value}")
    return value


def _write_png(fig: go.Figure, out: Path, width: int, height: int, timeout: float) -> None:
    """``fig.write_image`` (PNG at 2× for print, or SVG, from ``out``'s suffix) in a worker thread, given up after ``timeout`` seconds.

    A headless Chromium can hang (seen once under heavy load during a reproduce run); a
    hung export must not stall a whole ``make reproduce``. The image goes to a temporary
    name and is renamed only when complete, so a late or broken export leaves no file.
    """
    tmp = out.with_name(f"{out.stem}.partial{out.suffix}")  # keeps the suffix: kaleido picks the format from it
    outcome: dict[str, BaseException | None] = {}

    def work() -> None:
        try:
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message="The kopts argument is ignored")
                scale = 2 if out.suffix == ".png" else 1  # 2×: sharp at print size
                fig.write_image(tmp, width=width, height=height, scale=scale)
            outcome["error"] = None
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            outcome["error"] = exc

    worker = threading.Thread(target=work, name="dpwb-png-export", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise TimeoutError(f"PNG export of {out.name} took more than {timeout:.0f} s (HTML written; set DPWB_PNG_TIMEOUT)")
    if outcome.get("error") is not None:
        tmp.unlink(missing_ok=True)
        raise outcome["error"]  # type: ignore[misc]
    os.replace(tmp, out)


__all__ = [
    "TEMPLATE_NAME",
    "apply_style",
    "bar",
    "figure_problems",
    "figure_size",
    "panel_grid",
    "text_width_px",
    "find_chromium",
    "line_with_band",
    "png_export_available",
    "save_figure",
]
