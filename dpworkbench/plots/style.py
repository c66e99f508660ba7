"""One look for every figure: the ``dpworkbench`` plotly template and print-aware sizing.

A figure is sized from its panel grid (not a fixed 900×520): each panel gets a fixed
area, the gaps between panels get enough pixels for tick labels and subplot titles, and
the font is chosen so that text prints at :data:`MIN_PRINT_PT` points or more when the
figure is scaled to one column (one or two panel columns) or to the full text width
(three or more panel columns: a ``figure*`` in a two-column paper).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import plotly.graph_objects as go
import plotly.io as pio

TEMPLATE_NAME = "dpworkbench"
PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"]
# Fonts that exist on the test machines (DejaVu via Debian's chromium deps, Noto where installed); the emoji
# font last so that an emoji in a label does not render as a box.
FONT_FAMILY = "DejaVu Sans, Noto Sans, Arial, sans-serif, Noto Color Emoji"

ONE_COLUMN_PT = 252.0  # 3.5 in: one column of a two-column paper (ACM/IEEE/VLDB)
TWO_COLUMN_PT = 504.0  # 7 in: the full text width
MIN_PRINT_PT = 7.0  # smallest printed text a reviewer reads without a loupe
PANEL_W, PANEL_H = 300, 230  # pixels of one subplot's plotting area in a grid
SINGLE_W, SINGLE_H = 560, 400  # a one-panel figure (plot area + margins)
MAX_W, MAX_H = 1800, 2400
LEGEND_ROW = 1.5  # height of one legend entry / font size (1.45 measured in Chromium, plotly.js 3)


def _build_template() -> go.layout.Template:
    base = pio.templates["plotly_white"]
    t = go.layout.Template(base)
    t.layout.font = dict(family=FONT_FAMILY, size=14, color="#222")
    t.layout.colorway = PALETTE
    # The title stands on the plot area (paper y = 1, anchored at its bottom, padded above a grid's subplot titles)
    # and the top margin grows to hold all its lines (automargin). Anchored at the top of the container instead,
    # plotly.js places a multi-line title as if it had one line: a "<br><sup>detail</sup>" title loses the top
    # half of its first line (issue 28, every dampening teaching panel).
    t.layout.title = dict(x=0.0, xanchor="left", xref="paper", y=1.0, yanchor="bottom", yref="paper", automargin=True,
                          pad=dict(b=26), font=dict(size=16))
    t.layout.legend = dict(bgcolor="rgba(255,255,255,0.6)")
    t.layout.margin = dict(l=70, r=20, t=90, b=60)
    for ax in ("xaxis", "yaxis"):
        t.layout[ax].update(automargin=True, showline=True, linecolor="#444", ticks="outside", title=dict(standoff=6))
    return t


pio.templates[TEMPLATE_NAME] = _build_template()


@dataclass(frozen=True)
class Grid:
    """The panel grid of a figure: distinct x domains are columns, distinct y domains are rows."""

    rows: int
    cols: int
    row_gap: float  # smallest vertical gap between stacked panels (fraction of the plot height); 1 when one row
    col_gap: float  # smallest horizontal gap between side-by-side panels (fraction of the plot width)


def _axis_names(fig: go.Figure, letter: str) -> list[str]:
    return sorted((k for k in fig.layout.to_plotly_json() if k.startswith(f"{letter}axis")), key=_axis_order)


def _axis_order(name: str) -> int:
    tail = name[5:]
    return int(tail) if tail else 1


def _domains(fig: go.Figure, letter: str) -> list[tuple[float, float]]:
    out = set()
    for name in _axis_names(fig, letter) or [f"{letter}axis"]:
        ax = fig.layout[name]
        if ax.overlaying:  # a secondary axis on the same panel
            continue
        d = tuple(ax.domain) if ax.domain is not None else (0.0, 1.0)
        out.add((round(float(d[0]), 4), round(float(d[1]), 4)))
    return sorted(out)


def _min_gap(domains: list[tuple[float, float]]) -> float:
    gaps = [b[0] - a[1] for a, b in zip(domains, domains[1:]) if b[0] > a[0]]
    gaps = [g for g in gaps if g > 1e-6]
    return min(gaps) if gaps else 1.0


def panel_grid(fig: go.Figure) -> Grid:
    """Rows and columns of ``fig``'s subplots (1×1 for a plain figure)."""
    xs, ys = _domains(fig, "x"), _domains(fig, "y")
    return Grid(rows=max(1, len(ys)), cols=max(1, len(xs)), row_gap=_min_gap(ys), col_gap=_min_gap(xs))


def print_width_pt(grid: Grid) -> float:
    """The printed width a figure is meant for: one column up to two panel columns, else the text width."""
    return ONE_COLUMN_PT if grid.cols <= 2 else TWO_COLUMN_PT


def figure_size(fig: go.Figure) -> tuple[int, int, int]:
    """``(width, height, font_size)`` in pixels for ``fig`` from its panel grid (see the module docstring)."""
    g = panel_grid(fig)
    if g.rows == 1 and g.cols == 1:
        width, height = SINGLE_W, SINGLE_H
    else:
        width, height = g.cols * PANEL_W + 140, g.rows * PANEL_H + 140
    entries = _legend_entries(fig)
    long_legend = entries > 6 and g.cols == 1
    if long_legend:  # a long legend beside one panel needs room
        width += 160
    width = min(width, MAX_W)
    font = max(12, math.ceil(MIN_PRINT_PT * width / print_width_pt(g)))
    if long_legend and fig.layout.legend.orientation != "h":
        # ... and its height: a column of entries (and its title) taller than the plot is cut at the figure's foot
        rows = entries + (1 if fig.layout.legend.title.text else 0)
        # plotly.js puts tracegroupgap (10 px unless set) between legend groups (px sets 0, go.Scatter keeps 10)
        groups = {t.legendgroup for t in fig.data if t.showlegend is not False and t.name and t.legendgroup}
        gap = 0 if len(groups) < 2 else (10 if fig.layout.legend.tracegroupgap is None else fig.layout.legend.tracegroupgap)
        height = max(height, int(LEGEND_ROW * font * rows + gap * len(groups)) + 200)  # + title (two lines), x ticks and axis title
    height = min(height, MAX_H)
    return width, height, font


def _gaps_needed(fig: go.Figure, font: int, width: int, height: int) -> tuple[float, float]:
    """Fractions of the plot area the gaps between panels need: a row gap holds the upper panel's x tick labels
    and the lower panel's subplot title (plus an x axis title when panels carry their own); a column gap holds
    ~5 characters of y tick labels (plus a y axis title)."""
    per_x_title = sum(1 for k in fig.layout.to_plotly_json() if k.startswith("xaxis") and fig.layout[k].title.text) > 1
    per_y_title = sum(1 for k in fig.layout.to_plotly_json() if k.startswith("yaxis") and fig.layout[k].title.text) > 1
    plot_w, plot_h = max(width - 140, 100), max(height - 140, 100)
    row = (3.0 + (1.6 if per_x_title else 0.0)) * font / plot_h
    col = (4.0 + (1.6 if per_y_title else 0.0)) * font / plot_w
    return row, col


def _respace(fig: go.Figure, letter: str, gap: float) -> None:
    """Re-space a regular grid's panels along one direction to ``gap`` (moving subplot titles with them).

    Only a regular grid (every panel as wide as the others) is changed; anything else keeps its domains.
    """
    names = [k for k in fig.layout.to_plotly_json() if k.startswith(f"{letter}axis") and not fig.layout[k].overlaying]
    old = sorted({tuple(round(float(v), 6) for v in (fig.layout[k].domain or (0.0, 1.0))) for k in names})
    n = len(old)
    if n < 2 or max(b - a for a, b in old) - min(b - a for a, b in old) > 1e-3:
        return
    size = (1.0 - (n - 1) * gap) / n
    if size <= 0.05:
        return
    new = {d: (i * (size + gap), i * (size + gap) + size) for i, d in enumerate(old)}
    for k in names:
        d = tuple(round(float(v), 6) for v in (fig.layout[k].domain or (0.0, 1.0)))
        fig.layout[k].domain = new[d]
    for ann in fig.layout.annotations or ():  # subplot titles: centred over a column, at the top of a row
        if ann.xref != "paper" or ann.yref != "paper":
            continue
        for d, nd in new.items():
            if letter == "x" and ann.x is not None and abs(ann.x - (d[0] + d[1]) / 2) < 1e-3:
                ann.x = (nd[0] + nd[1]) / 2
                break
            if letter == "y" and ann.y is not None and abs(ann.y - d[1]) < 1e-3 and ann.yanchor == "bottom":
                ann.y = nd[1]
                break


def _legend_entries(fig: go.Figure) -> int:
    return sum(1 for t in fig.data if t.showlegend is not False and t.name)


# Average character advance / font size of DejaVu Sans measured in Chromium on this project's titles (0.49-0.52).
CHAR_WIDTH = 0.52
MAX_TITLE_LINES = 3


def wrap_title(text: str, room_px: float, font_px: float) -> str:
    """``text`` with ``<br>`` between words so that each line fits ``room_px`` at ``font_px`` (existing breaks kept)."""
    import re

    per_line = max(8, int(room_px / (CHAR_WIDTH * font_px)))
    out = []
    for line in re.split(r"<br\s*/?>", text, flags=re.I):
        visible = re.sub(r"<[^>]+>", "", line)
        if len(visible) <= per_line or "<" in line:  # markup inside a line: leave it to the author
            out.append(line)
            continue
        current = ""
        for word in line.split(" "):
            if current and len(current) + 1 + len(word) > per_line:
                out.append(current)
                current = word
            else:
                current = f"{current} {word}" if current else word
        out.append(current)
    return "<br>".join(out)


def _calm_ticks(fig: go.Figure, font: int) -> None:
    """In a grid, fewer and horizontal tick labels: at a print-legible font, plotly's automatic ticks on a narrow
    panel get rotated and run into the subplot title below. Axes whose ticks the author set are left alone."""
    plot_w = float(fig.layout.width) - 140
    plot_h = float(fig.layout.height) - 140
    categorical = _categorical_axes(fig)
    for name in [k for k in fig.layout.to_plotly_json() if k[1:5] == "axis"]:
        ax = fig.layout[name]
        if ax.tickvals is not None or ax.dtick is not None or ax.nticks is not None:
            continue
        if ax.type == "category" or (ax.type is None and name in categorical):
            # nticks on a category axis drops category names (r2t tab02 named 3 of its 7 datasets); plotly turns
            # the labels instead when they do not fit.
            continue
        d = ax.domain if ax.domain is not None else (0.0, 1.0)
        if ax.type == "log" and ax.dtick is not None:
            continue  # set by decade_ticks
        if name.startswith("x"):
            span = (d[1] - d[0]) * plot_w
            ax.nticks = max(3, min(8, int(span / (4.2 * font))))
            if ax.tickangle is None and ax.type != "category":
                ax.tickangle = 0
        else:
            span = (d[1] - d[0]) * plot_h
            ax.nticks = max(3, min(8, int(span / (2.2 * font))))


def decade_ticks(fig: go.Figure, *, max_labels: int | None = None) -> go.Figure:
    """Label every log axis of ``fig`` (whose ticks the author did not set) by the decades its data span, in place.

    plotly's own log ticks label the minor steps ("2 3 4 … 9 1 2 … 10 2", or 2, 4, 6, 8, 10, 12 with nticks) at
    nearly the size of the decades, and they run together on a narrow panel or a projector. Over ≥ 2 decades:
    the decades only, minor ticks unlabelled; over 0.7–2 decades (or one value): 1-2-5 labels; else plotly's choice.
    ``max_labels``: at most about that many labels, every 2nd, 3rd, … decade (minor ticks then mark each decade):
    on a short panel ten decades of labels run into each other.
    """
    for name in [k for k in fig.layout.to_plotly_json() if k[1:5] == "axis"]:
        ax = fig.layout[name]
        if ax.type != "log" or ax.tickvals is not None or ax.dtick is not None:
            continue
        # matched panels (shared_yaxes) share one range: their ticks follow the span of all of them
        target = ax.matches or name[0] + name[5:]
        span = _log_span(fig, *[k for k in fig.layout.to_plotly_json() if k[1:5] == "axis" and k[0] == name[0]
                                and (fig.layout[k].matches or k[0] + k[5:]) == target])
        step = max(1, math.ceil(span / (max_labels - 1))) if max_labels and span else 1
        if span is not None and span >= 2 and step > 1:
            ax.dtick, ax.minor = step, dict(ticks="outside", dtick=1, ticklen=3, showgrid=False)
        elif span is not None and span >= 2:
            ax.dtick, ax.minor = 1, dict(ticks="outside", dtick="D1", ticklen=3, showgrid=False)
        elif span is not None and (span >= 0.7 or span == 0):  # one value: plotly's autorange spans ~1 decade
            ax.dtick = "D2"
    return fig


def as_list(vals) -> list:
    """Trace coordinates as a list, also from a notebook's JSON (plotly's typed arrays: ``{"dtype", "bdata"}``)."""
    import base64

    import numpy as np

    if vals is None:
        return []
    if isinstance(vals, dict):
        if "bdata" in vals and "dtype" in vals:
            return np.frombuffer(base64.b64decode(vals["bdata"]), dtype=vals["dtype"]).tolist()
        return []
    return list(vals)


def _log_span(fig: go.Figure, *names: str) -> float | None:
    """Decades spanned by the positive values drawn on the axes ``names`` (None when there are none)."""
    import numpy as np

    letter, refs = names[0][0], {n[0] + n[5:] for n in names}
    vals = []
    for t in fig.data:
        if not hasattr(t, f"{letter}axis") or (getattr(t, f"{letter}axis") or letter) not in refs:
            continue
        try:
            v = np.asarray(as_list(getattr(t, letter)), dtype=float).ravel()
        except (TypeError, ValueError):
            continue
        vals.append(v[np.isfinite(v) & (v > 0)])
    v = np.concatenate(vals) if vals else np.array([])
    return float(np.log10(v.max()) - np.log10(v.min())) if v.size else None


def _categorical_axes(fig: go.Figure) -> set[str]:
    """Layout names of the axes whose traces place text values (plotly makes them category axes)."""
    out = set()
    for t in fig.data:
        for letter in ("x", "y"):
            vals = as_list(getattr(t, letter, None))
            if not vals or not hasattr(t, f"{letter}axis"):
                continue
            if isinstance(vals[0], str):
                ref = getattr(t, f"{letter}axis") or letter
                out.add(f"{letter}axis{ref[1:]}")
    return out


def apply_style(fig: go.Figure, *, width: int | None = None, height: int | None = None) -> go.Figure:
    """A copy of ``fig`` with the ``dpworkbench`` template, its size from the panel grid and a print-legible font.

    Explicit ``width``/``height`` win over the computed size; the font still follows the width.
    """
    out = go.Figure(fig)
    w, h, font = figure_size(out)
    w, h = int(width or w), int(height or h)
    font = max(font, math.ceil(MIN_PRINT_PT * w / print_width_pt(panel_grid(out))))
    out.update_layout(template=TEMPLATE_NAME, width=w, height=h, font_size=font)
    g = panel_grid(out)
    row_need, col_need = _gaps_needed(out, font, w, h)
    if g.rows > 1 and g.row_gap < row_need:
        _respace(out, "y", row_need)
    if g.cols > 1 and g.col_gap < col_need:
        _respace(out, "x", col_need)
    if out.layout.title.text:
        title_px = round(font * 1.15)
        out.update_layout(title_font_size=title_px)
        # A long title is wrapped at word boundaries to the room it has (it starts at the plot's left edge).
        room = w - int(out.layout.margin.l if out.layout.margin.l is not None else 70)
        out.update_layout(title_text=wrap_title(str(out.layout.title.text), room, title_px))
        # Placed in pixels from the top of the figure (measured in Chromium, plotly.js 3): with yanchor "top" the first
        # line of a multi-line title is drawn ~1 em above its anchor (0.25 em for one line), and the other lines run
        # downwards (1.25 em each, 0.8 em for a <sup> line). Anchoring at the plot instead depends on whether the
        # title's automargin fires, and a "<br><sup>" title lost its top half (issue 28) or ran into subplot titles.
        grid = g.rows * g.cols > 1
        rest = re.split(r"<br\s*/?>", str(out.layout.title.text), flags=re.I)[1:]
        extra = sum((0.8 if "<sup>" in ln.lower() else 1.25) * title_px for ln in rest)
        lift = (1.0 if rest else 0.25) * title_px
        top = 4
        out.update_layout(title_y=1.0 - (top + lift) / h, title_yanchor="top", title_yref="container", title_automargin=False,
                          title_pad_t=0, title_pad_b=0,
                          margin_t=int(top + 1.3 * title_px + extra + font * (1.9 if grid else 0.7)))
    decade_ticks(out)
    lg = out.layout.legend
    names = [str(t.name) for t in out.data if t.showlegend is not False and t.name]
    one_row = sum(len(n) * CHAR_WIDTH * font + 3 * font for n in dict.fromkeys(names)) < 0.9 * w
    if g.cols > 1 and names and one_row and lg.orientation is None and lg.x is None and lg.y is None:
        # Beside a grid of panels plotly's legend takes its width from the panels (long entries left 150 px panels
        # whose y titles ran into their neighbours): in one row at the foot of the figure instead. Only when one row
        # holds it: a taller legend anchored to the figure's foot can leave plotly.js no room ("Something went wrong
        # with axis scaling"), and a failed export stops PNG/SVG for the whole run.
        out.update_layout(legend=dict(orientation="h", x=0.0, xanchor="left", yref="container", y=0.0, yanchor="bottom"))
    if g.rows * g.cols > 1:
        _calm_ticks(out, font)
    for ann in out.layout.annotations or ():
        # make_subplots' shared x_title / y_title sit a fixed 30/40 px off the plot: move them past tick labels
        # of the chosen font, and give them the margin they need.
        if ann.xref == "paper" and ann.yref == "paper" and ann.textangle in (-90, 270) and ann.xshift:
            ann.xshift = -int(3.6 * font)
            out.update_layout(margin_l=max(int(out.layout.margin.l or 0), int(5.0 * font)))
        elif ann.xref == "paper" and ann.yref == "paper" and ann.yshift and ann.yshift < 0 and (ann.y or 0) <= 0.02:
            ann.yshift = -int(1.9 * font)
            out.update_layout(margin_b=max(int(out.layout.margin.b or 0), int(3.2 * font)))
    for ann in out.layout.annotations or ():  # subplot titles are annotations with their own (16 px) font
        if ann.font.size is not None and ann.font.size < font:
            ann.font.size = font
    return out


__all__ = [
    "FONT_FAMILY",
    "Grid",
    "MIN_PRINT_PT",
    "PALETTE",
    "TEMPLATE_NAME",
    "apply_style",
    "figure_size",
    "wrap_title",
    "decade_ticks",
    "as_list",
    "panel_grid",
    "print_width_pt",
]
