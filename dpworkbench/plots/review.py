"""What a reviewer would reject in a plotly figure, as a list of one-line findings.

:func:`figure_problems` looks at the figure as :func:`dpworkbench.plots.save_figure` writes it
(the ``dpworkbench`` template, the size from the panel grid) unless told ``as_saved=False``.
Text widths are estimated from character counts (no browser is started), so the width checks
are conservative approximations, not measurements: :mod:`dpworkbench.plots.render` measures the laid-out
figure in a headless Chromium (overlaps, clipping, cut legends), and the report runs both.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from .style import CHAR_WIDTH, MAX_TITLE_LINES, MIN_PRINT_PT, PALETTE, apply_style, panel_grid, print_width_pt
from .style import as_list
# Relative span of an axis's values below which plotly's automatic ticks read like "9.9995k".
DEGENERATE_SPAN = 1e-3
MAX_LOG_DECADES = 20.0

_NO_AXES = {"pie", "sunburst", "treemap", "icicle", "funnelarea", "table", "indicator", "sankey", "parcoords", "parcats",
            "scattergeo", "choropleth", "scattermapbox", "scattermap", "scatterpolar", "barpolar", "scatterternary",
            "scatter3d", "surface", "mesh3d", "cone", "streamtube", "volume", "isosurface", "splom"}


def _text(value) -> str:
    """Visible text of a plotly string: tags removed, entities decoded, one entry per line."""
    if value is None:
        return ""
    s = re.sub(r"<br\s*/?>", "\n", str(value), flags=re.I)
    return html.unescape(re.sub(r"<[^>]+>", "", s))


def text_width_px(text: str, font_px: float) -> float:
    """Estimated width in pixels of the longest line of ``text`` at ``font_px``."""
    lines = _text(text).split("\n") or [""]
    return max(len(ln) for ln in lines) * CHAR_WIDTH * font_px


def _axis_layout_name(ref: str | None, letter: str) -> str:
    ref = ref or letter
    return f"{letter}axis{ref[1:]}"


def _numeric(values) -> np.ndarray | None:
    if values is None:
        return None
    try:
        # a figure read back from a notebook holds plotly's typed arrays ({"dtype", "bdata"}), not lists
        arr = np.asarray(as_list(values), dtype=float).ravel()
    except (TypeError, ValueError):
        return None  # categories or dates: no numeric tick check
    arr = arr[np.isfinite(arr)]
    return arr


@dataclass
class _Trace:
    index: int
    trace: object
    name: str
    colour: str | None
    in_legend: bool
    legendgroup: str | None
    has_marks: bool
    is_band: bool
    band_markers: bool = False  # a filled band that also draws dots at its vertices


def _colour(trace, default: str) -> str | None:
    for attr in ("marker", "line"):
        part = getattr(trace, attr, None)
        c = getattr(part, "color", None) if part is not None else None
        if isinstance(c, str):
            return c.lower().replace(" ", "")
        if c is not None and not isinstance(c, str):
            return None  # a colour scale: one trace, many colours; not compared
    fc = getattr(trace, "fillcolor", None)
    if isinstance(fc, str):
        return fc.lower().replace(" ", "")
    return default


_NAMED = {
    "red": (255, 0, 0), "crimson": (220, 20, 60), "darkred": (139, 0, 0), "firebrick": (178, 34, 34), "tomato": (255, 99, 71),
    "orange": (255, 165, 0), "darkorange": (255, 140, 0), "gold": (255, 215, 0), "yellow": (255, 255, 0),
    "green": (0, 128, 0), "darkgreen": (0, 100, 0), "seagreen": (46, 139, 87), "forestgreen": (34, 139, 34), "limegreen": (50, 205, 50),
    "blue": (0, 0, 255), "navy": (0, 0, 128), "royalblue": (65, 105, 225), "steelblue": (70, 130, 180), "dodgerblue": (30, 144, 255),
    "purple": (128, 0, 128), "violet": (238, 130, 238), "magenta": (255, 0, 255), "pink": (255, 192, 203), "brown": (165, 42, 42),
    "teal": (0, 128, 128), "cyan": (0, 255, 255), "black": (0, 0, 0), "white": (255, 255, 255), "gray": (128, 128, 128),
    "grey": (128, 128, 128), "lightgray": (211, 211, 211), "lightgrey": (211, 211, 211), "darkgray": (169, 169, 169),
    "darkgrey": (169, 169, 169), "silver": (192, 192, 192), "dimgray": (105, 105, 105),
}


def _rgb(colour: str | None) -> tuple[int, int, int] | None:
    if not colour:
        return None
    c = colour.strip().lower()
    if c in _NAMED:
        return _NAMED[c]
    if c.startswith("#") and len(c) in (4, 7):
        h = c[1:] if len(c) == 7 else "".join(ch * 2 for ch in c[1:])
        try:
            return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)
        except ValueError:
            return None
    m = re.match(r"rgba?\(([\d.]+),([\d.]+),([\d.]+)", c.replace(" ", ""))
    return (int(float(m.group(1))), int(float(m.group(2))), int(float(m.group(3)))) if m else None


def colour_words(colour: str | None) -> set[str]:
    """Words a caption would use for ``colour`` ("red", "grey", ...); empty when unknown."""
    import colorsys

    rgb = _rgb(colour)
    if rgb is None:
        return set()
    h, lightness, sat = colorsys.rgb_to_hls(*(v / 255 for v in rgb))
    if sat < 0.15 or lightness < 0.08 or lightness > 0.95:
        return {"black"} if lightness < 0.25 else ({"white"} if lightness > 0.95 else {"gray", "grey"})
    deg = h * 360
    for limit, words in ((15, {"red"}), (45, {"orange"}), (70, {"yellow", "gold"}), (170, {"green"}), (200, {"cyan", "teal"}),
                         (260, {"blue"}), (300, {"purple", "violet"}), (340, {"pink", "magenta"}), (361, {"red"})):
        if deg < limit:
            return words | ({"brown"} if words == {"orange"} and lightness < 0.35 else set())
    return set()


def _neutral(colour: str | None) -> bool:
    return bool(colour_words(colour) & {"gray", "black", "white"})


def _traces(fig: go.Figure) -> list[_Trace]:
    colorway = list(fig.layout.colorway or []) or list(getattr(fig.layout.template.layout, "colorway", None) or PALETTE)
    candidates = [t for t in fig.data if t.visible is not False and t.showlegend is not False]
    legend_on = fig.layout.showlegend is True or (fig.layout.showlegend is None and len(candidates) >= 2)
    out = []
    for i, t in enumerate(fig.data):
        if t.visible is False:
            continue
        mode = getattr(t, "mode", None) or ""
        is_scatter = t.type in ("scatter", "scattergl")
        line_w = getattr(getattr(t, "line", None), "width", None)
        fill = getattr(t, "fill", None)
        is_band = bool(is_scatter and fill not in (None, "none") and (line_w == 0 or "lines" not in mode or t.hoverinfo == "skip"))
        has_marks = (not is_scatter) or mode == "" or "markers" in mode or "lines" in mode
        # plotly's default mode for a scatter of fewer than 20 points is lines+markers: an unset mode on a
        # band draws coloured dots at its vertices (the unexplained dots of issue 15's Fig. 4)
        n_points = len(t.x) if getattr(t, "x", None) is not None else len(t.y) if getattr(t, "y", None) is not None else 0
        band_markers = bool(is_scatter and fill not in (None, "none") and ("markers" in mode or (mode == "" and n_points < 20)))
        out.append(_Trace(i, t, str(t.name) if t.name is not None else "", _colour(t, colorway[i % len(colorway)].lower()),
                          legend_on and t.showlegend is not False and t.type not in _NO_AXES,
                          t.legendgroup, has_marks, is_band or band_markers, band_markers))
    return out


def _panel_label(fig: go.Figure, xname: str, yname: str) -> str:
    """A human name for a panel: its subplot title when there is one, else its axes."""
    xa, ya = fig.layout[xname], fig.layout[yname]
    xd = tuple(xa.domain) if xa.domain is not None else (0.0, 1.0)
    yd = tuple(ya.domain) if ya.domain is not None else (0.0, 1.0)
    for ann in fig.layout.annotations or ():
        if ann.xref == "paper" and ann.yref == "paper" and ann.x is not None and ann.y is not None and ann.text:
            if abs(ann.x - (xd[0] + xd[1]) / 2) < 1e-3 and abs(ann.y - yd[1]) < 1e-3:
                return f"panel '{_text(ann.text).strip()}'"
    if len([k for k in fig.layout.to_plotly_json() if k.startswith("xaxis")]) <= 1:
        return "the figure"
    return f"panel {xname[0]}{xname[5:] or ''}/{yname[0]}{yname[5:] or ''}"


def _shared_titles(fig: go.Figure) -> tuple[bool, bool]:
    """Whether paper-level annotations title all x axes (below the plot) or all y axes (rotated, at the left)."""
    shared_x = shared_y = False
    for ann in fig.layout.annotations or ():
        if ann.xref != "paper" or ann.yref != "paper" or not _text(ann.text).strip():
            continue
        if ann.textangle in (-90, 270) and (ann.x or 0) <= 0.05:
            shared_y = True
        elif (ann.y is not None and ann.y <= 0.02) and (ann.yanchor == "top" or (ann.yshift or 0) < 0):
            shared_x = True
    return shared_x, shared_y


def _axis_title(ax) -> str:
    t = ax.title.text if ax.title is not None else None
    return _text(t).strip()


def _dash_drawn(fig: go.Figure, word: str) -> bool:
    styles = {"dashed": {"dash", "longdash", "dashdot", "longdashdot"}, "dotted": {"dot", "dashdot", "longdashdot"}}[word]
    for t in fig.data:
        d = getattr(getattr(t, "line", None), "dash", None)
        if d in styles or (isinstance(d, str) and any(ch.isdigit() for ch in d)):
            return True
    for s in fig.layout.shapes or ():
        if s.line is not None and s.line.dash in styles:
            return True
    return False


def figure_problems(fig: go.Figure, *, as_saved: bool = True, width: int | None = None, height: int | None = None) -> list[str]:
    """Everything a reviewer would reject in ``fig``, one sentence each (an empty list: nothing found).

    Checks: a panel axis with data but no title (a title on another axis of the same grid column/row,
    or make_subplots' shared ``x_title``/``y_title``, counts); a trace drawn with a colour that the legend
    does not explain while other traces are in the legend; one series name drawn in several colours; a
    legend entry listed twice or unnamed; a figure or subplot title wider than the figure or panel at its
    font size; text smaller than 7 pt at the printed width; a title promising a dashed/dotted line that is
    not drawn; degenerate ticks (an axis whose values span less than 1e-3 of their size, e.g. "9.9995k");
    a log axis over more than 20 decades or with values ≤ 0; gaps between stacked panels too small for
    tick labels and subplot titles; no trace at all.

    With ``as_saved`` (default) the figure is first styled as :func:`save_figure` writes it; ``width`` and
    ``height`` are the size it will be saved at (default: from the panel grid).
    """
    if not isinstance(fig, go.Figure):
        fig = go.Figure(fig)
    if as_saved:
        fig = apply_style(fig, width=width, height=height)
    problems: list[str] = []
    if not fig.data:
        return ["the figure has no traces"]
    W = float(width or fig.layout.width or 700)
    H = float(height or fig.layout.height or 450)
    base_font = float(fig.layout.font.size or 12)
    margin = fig.layout.margin
    plot_w = W - float(margin.l if margin.l is not None else 80) - float(margin.r if margin.r is not None else 80)
    plot_h = H - float(margin.t if margin.t is not None else 100) - float(margin.b if margin.b is not None else 80)
    grid = panel_grid(fig)
    traces = _traces(fig)

    # --- axes: titles, ticks, log ranges
    shared_x, shared_y = _shared_titles(fig)
    used: dict[tuple[str, str], list] = {}
    for tr in traces:
        t = tr.trace
        if t.type in _NO_AXES or not hasattr(t, "xaxis"):
            continue
        used.setdefault((_axis_layout_name(t.xaxis, "x"), _axis_layout_name(t.yaxis, "y")), []).append(t)
    for letter, shared in (("x", shared_x), ("y", shared_y)):
        titled_domains = set()
        for name in [k for k in fig.layout.to_plotly_json() if k.startswith(f"{letter}axis")] or [f"{letter}axis"]:
            ax = fig.layout[name]
            if _axis_title(ax):
                titled_domains.add(tuple(np.round(ax.domain, 4)) if ax.domain is not None else (0.0, 1.0))
        reported: list[str] = []
        for (xname, yname), ts in used.items():
            name = xname if letter == "x" else yname
            ax = fig.layout[name]
            if ax.visible is False or ax.showticklabels is False:
                continue
            dom = tuple(np.round(ax.domain, 4)) if ax.domain is not None else (0.0, 1.0)
            if not (_axis_title(ax) or shared or dom in titled_domains) and _panel_label(fig, xname, yname) not in reported:
                reported.append(_panel_label(fig, xname, yname))
            values = [v for v in (_numeric(getattr(t, letter, None)) for t in ts if t.type not in ("histogram", "histogram2d", "box", "violin"))
                      if v is not None and v.size]
            bar_like = any(t.type in ("bar", "waterfall", "funnel") for t in ts) and letter == ("y" if all(
                getattr(t, "orientation", None) != "h" for t in ts) else "x")
            if not values or ax.type == "category":
                continue
            # a bar is drawn from 0 on a linear axis (0 belongs to its span), but from the bottom of the plot on a log
            # axis, where 0 is not drawn at all: only the bars' own values count there (fig09's positive runtimes
            # were flagged "≤ 0" for the added 0)
            v = np.concatenate(values + ([np.zeros(1)] if bar_like and ax.type != "log" else []))
            lo, hi = float(v.min()), float(v.max())
            if ax.range is not None and ax.type != "log":
                try:
                    lo, hi = sorted(float(r) for r in ax.range)
                except (TypeError, ValueError):
                    pass
            label = _panel_label(fig, xname, yname)
            if ax.type == "log":
                pos = v[v > 0]
                if (v <= 0).any():
                    problems.append(f"{label}: the {letter} axis is logarithmic but {(v <= 0).sum()} value(s) ≤ 0 cannot be drawn")
                if pos.size and np.log10(pos.max()) - np.log10(pos.min()) > MAX_LOG_DECADES:
                    problems.append(f"{label}: the {letter} axis spans {np.log10(pos.max()) - np.log10(pos.min()):.0f} decades "
                                    f"({pos.min():.3g} to {pos.max():.3g}); a value placed in log units on a log axis?")
                if ax.range is not None:
                    try:
                        r0, r1 = sorted(float(r) for r in ax.range)
                        if r1 - r0 > MAX_LOG_DECADES:
                            problems.append(f"{label}: the {letter} axis range covers {r1 - r0:.0f} decades (log axis ranges are in log10 units)")
                    except (TypeError, ValueError):
                        pass
                continue
            mag = max(abs(lo), abs(hi))
            if hi > lo and mag > 0 and (hi - lo) / mag < DEGENERATE_SPAN and not ax.tickformat:
                problems.append(f"{label}: the {letter} axis values span only {hi - lo:.3g} around {mag:.6g}, so the ticks read like "
                                f"'{mag / 1000:.4f}k'; plot the difference from a reference value or set tickformat")

        if reported:
            where = reported[0] if len(reported) == 1 else f"{len(reported)} panels ({', '.join(reported[:3])}{', …' if len(reported) > 3 else ''})"
            problems.append(f"{where}: the {letter} axis has data but no title (say what it is, with its unit)")

    # --- legend: what is drawn must be explained
    legend = [tr for tr in traces if tr.in_legend]
    if legend:
        legend_colours = {tr.colour for tr in legend if tr.colour}
        legend_groups = {tr.legendgroup for tr in legend if tr.legendgroup}
        captions = " ".join([_text(fig.layout.title.text)] + [_text(a.text) for a in fig.layout.annotations or ()]).lower()

        def explained(tr: _Trace) -> bool:
            if tr.colour is None or tr.colour in legend_colours or (tr.legendgroup and tr.legendgroup in legend_groups):
                return True
            if any(re.search(rf"\b{w}\b", captions) for w in colour_words(tr.colour)):
                return True  # "red: cut into the predicate" in the title explains the red marks
            t = tr.trace
            if _neutral(tr.colour) and hasattr(t, "xaxis"):  # grey edges of a graph drawing (axes hidden) are structure
                xa, ya = fig.layout[_axis_layout_name(t.xaxis, "x")], fig.layout[_axis_layout_name(t.yaxis, "y")]
                if (xa.visible is False or xa.showticklabels is False) and (ya.visible is False or ya.showticklabels is False):
                    return True
            return False

        unexplained = [tr for tr in traces if not tr.in_legend and tr.has_marks and not tr.is_band and tr.trace.type not in _NO_AXES
                       and not explained(tr)]
        for tr in unexplained:
            what = f"trace {tr.name!r}" if tr.name else f"trace #{tr.index}"
            problems.append(f"{what} is drawn in {tr.colour} but is not in the legend, while {len(legend)} other trace(s) are")
        seen: dict[tuple[str, str | None], int] = {}
        for tr in legend:
            key = (tr.name, tr.legendgroup)
            seen[key] = seen.get(key, 0) + 1
        for (name, _group), n in seen.items():
            if n > 1:
                problems.append(f"the legend lists {name!r} {n} times (showlegend=False on the repeats, or one legendgroup)")
        for tr in legend:
            if not tr.name or re.fullmatch(r"trace \d+", tr.name):
                problems.append(f"legend entry 'trace {tr.index}' is plotly's default name: name the series")
    dotted_bands = [tr.index for tr in traces if tr.band_markers]
    if dotted_bands:
        problems.append(f"{len(dotted_bands)} filled band(s) (traces #{', #'.join(map(str, dotted_bands[:5]))}{', …' if len(dotted_bands) > 5 else ''}) "
                        "also draw coloured dots at their vertices (mode unset: plotly adds markers below 20 points); "
                        "set mode='lines' and line_width=0")
    colours_by_name: dict[str, set[str]] = {}
    for tr in traces:
        if tr.name and tr.colour and tr.has_marks and not tr.is_band:
            colours_by_name.setdefault(tr.name, set()).add(tr.colour)
    for name, cs in colours_by_name.items():
        if len(cs) > 1:
            problems.append(f"series {name!r} is drawn in {len(cs)} colours ({', '.join(sorted(cs))}): one series, one colour")

    # --- text: widths and printed size
    title_text = _text(fig.layout.title.text).strip() if fig.layout.title is not None else ""
    title_font = float(fig.layout.title.font.size or base_font * 1.15) if fig.layout.title is not None else base_font
    # The template starts the title at the plot area's left edge (x=0 of the paper), so it has W − margin.l.
    room = W - float(margin.l if margin.l is not None else 80)
    n_lines = len([ln for ln in _text(fig.layout.title.text).split("\n") if ln.strip()]) if title_text else 0
    if title_text and (text_width_px(title_text, title_font) > room or n_lines > MAX_TITLE_LINES):
        what = (f"{n_lines} lines once wrapped" if n_lines > MAX_TITLE_LINES else
                f"about {text_width_px(title_text, title_font):.0f} px wide at {title_font:.0f} px but has {room:.0f} px of a {W:.0f} px figure")
        problems.append(f"the title is {what}: shorten it (details belong in the caption)")
    for word in ("dashed", "dotted"):
        texts = [title_text] + [_text(a.text) for a in fig.layout.annotations or ()]
        if any(word in s.lower() for s in texts) and not _dash_drawn(fig, word):
            problems.append(f"the title or a note mentions a {word} line, but no trace or shape is {word}")
    too_wide: list[str] = []
    for ann in fig.layout.annotations or ():
        if ann.xref != "paper" or ann.yref != "paper" or not ann.text:
            continue
        # make_subplots' shared axis titles (x_title below the grid, y_title turned by -90°) span the whole grid:
        # with an odd number of columns the x title is centred over the middle panel, but it is not that panel's title.
        if (ann.y is not None and ann.y <= 0 and ann.yanchor == "top") or ann.textangle == -90:
            continue
        # A subplot title sits centred over its panel: compare with that panel's width.
        for xname in [k for k in fig.layout.to_plotly_json() if k.startswith("xaxis")]:
            d = fig.layout[xname].domain
            if d is not None and ann.x is not None and abs(ann.x - (d[0] + d[1]) / 2) < 1e-3 and grid.cols > 1:
                size = float(ann.font.size or base_font)
                panel_px = (d[1] - d[0]) * plot_w
                if text_width_px(ann.text, size) > panel_px + 0.5 * (plot_w * grid.col_gap if grid.cols > 1 else 0):
                    too_wide.append(f"{_text(ann.text).strip()!r} (≈{text_width_px(ann.text, size):.0f} px over {panel_px:.0f} px)")
                break
    if too_wide:
        problems.append(f"{len(too_wide)} subplot title(s) wider than their panel: {', '.join(too_wide[:3])}{', …' if len(too_wide) > 3 else ''}"
                        "; shorten them or break with <br>")
    sizes = [base_font] + [float(a.font.size) for a in fig.layout.annotations or () if a.font is not None and a.font.size]
    for name in [k for k in fig.layout.to_plotly_json() if k[1:5] == "axis"]:
        tf = fig.layout[name].tickfont
        if tf is not None and tf.size:
            sizes.append(float(tf.size))
    if fig.layout.legend.font is not None and fig.layout.legend.font.size:
        sizes.append(float(fig.layout.legend.font.size))
    printed = min(sizes) * print_width_pt(grid) / W
    if printed < MIN_PRINT_PT - 0.05:
        problems.append(f"the smallest text ({min(sizes):.0f} px in a {W:.0f} px figure) prints at {printed:.1f} pt at "
                        f"{'one column' if grid.cols <= 2 else 'text width'}; needs ≥ {MIN_PRINT_PT:g} pt")

    # --- stacked panels: room for tick labels and subplot titles
    has_subplot_titles = any(a.yref == "paper" and a.yanchor == "bottom" for a in fig.layout.annotations or ())
    if grid.rows > 1 and has_subplot_titles:
        gap_px = grid.row_gap * plot_h
        need = 2.6 * base_font
        if gap_px < need:
            problems.append(f"stacked panels are {gap_px:.0f} px apart, too little for x tick labels plus a subplot title "
                            f"(≈{need:.0f} px at {base_font:.0f} px text): raise vertical_spacing or the height")
    return problems


__all__ = ["figure_problems", "text_width_px"]
