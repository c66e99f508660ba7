"""The figure review on the laid-out page: render a plotly figure headlessly and check what a reader sees.

:func:`rendered_problems` draws the figure with plotly.js in one headless Chromium page (playwright, reused
for every figure of the process) at the size it is saved at, reads every text element's bounding box from the
browser (``getBoundingClientRect``) and the tick labels plotly actually drew, and reports:

- text overlapping other text (axis titles on tick labels, subplot titles on each other, a legend over ticks);
- text clipped by the figure edge (a title whose top line is cut off, a tick label past the right edge) and
  titles wider than the figure;
- a legend cut by the figure (plotly adds a scroll bar when the legend is taller than the plot: the hidden
  entries are invisible in a PNG/SVG);
- degenerate axes (tick labels that repeat or differ only in the fifth digit, e.g. 9.999k–10.001k);
- log axes whose minor labels ("2 3 4 … 9") are as large as the decade labels.

Teaching figures are also checked as a notebook shows them on a 1024×768 projector (``screen=True``): the
figure's own width, or the output area's, whichever is smaller.

The estimates of :func:`dpworkbench.plots.review.figure_problems` (legend/colour logic, titles on axes) stay;
this module measures what those could only estimate. Without playwright or a Chromium, :func:`renderer`
returns None and callers say that the rendered review was skipped.
"""

from __future__ import annotations

import atexit
import json
import threading

import numpy as np
import plotly.graph_objects as go

from .style import apply_style

# A projector at 1024×768: JupyterLab's output area is the window minus the side bars and prompts.
SCREEN_W, SCREEN_H = 1024, 768
SCREEN_OUTPUT_W = 1024 - 120
OVERLAP_PX = 2.0  # two labels overlap when their boxes share more than this in both directions
EDGE_TOL_PX = 1.0

# What is measured on a drawn plotly div ``gd`` (also on a live page: tests/browser measures the figures a notebook
# shows in JupyterLab at 1024×768 with it and judges them with :func:`page_problems`).
JS_MEASURE_DRAWN = r"""
(gd) => {
  const svg = gd.querySelector('.main-svg');  // the drawn figure: in JupyterLab the div around it may be wider
  const root = (svg || gd).getBoundingClientRect();
  const box = (r) => [r.left - root.left, r.top - root.top, r.right - root.left, r.bottom - root.top];
  const texts = [];
  gd.querySelectorAll('text').forEach((el) => {
    const s = (el.textContent || '').trim();
    if (!s) return;
    const st = getComputedStyle(el);
    if (st.display === 'none' || st.visibility === 'hidden' || parseFloat(st.opacity) === 0) return;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return;
    let role = 'text', axis = null, value = null, index = null;
    const cls = el.getAttribute('class') || '';
    const tick = el.parentNode && /^[xy]\d*tick$/.test((el.parentNode.getAttribute('class') || '').trim()) ? el.parentNode : null;
    if (el.closest('g.legend')) role = 'legend';
    else if (cls.includes('gtitle')) role = 'title';
    else if (/^[xy]\d*title$/.test(cls.trim())) { role = 'axis-title'; axis = cls.trim().replace('title', ''); }
    else if (tick) {
      role = 'tick';
      axis = tick.getAttribute('class').trim().replace('tick', '');
      const d = tick.__data__ || el.__data__;
      if (d) { value = d.x; }
    } else if (el.closest('g.textpoint')) {
      role = 'point-text';
      const sp = el.closest('g.subplot');
      const m = sp ? (sp.getAttribute('class') || '').match(/(x\d*y\d*)/) : null;
      axis = m ? m[1] : null;
      const tr = el.closest('g.trace');
      const cl = tr && tr.__data__ && tr.__data__[0] && tr.__data__[0].trace ? tr.__data__[0].trace.cliponaxis : true;
      index = cl === false ? 0 : 1;  // 1: plotly clips this text at the plot area
    } else if (el.closest('g.annotation')) {
      role = 'annotation';
      const a = el.closest('g.annotation');
      index = parseInt(a.getAttribute('data-index'));
    }
    // The glyph box in the text's own (possibly rotated) frame, mapped to the page: rotated tick labels'
    // axis-aligned boxes overlap even when the labels do not.
    let quad = null;
    try {
      const bb = el.getBBox(), ctm = el.getScreenCTM();
      const pt = (x, y) => [ctm.a * x + ctm.c * y + ctm.e - root.left, ctm.b * x + ctm.d * y + ctm.f - root.top];
      quad = [pt(bb.x, bb.y), pt(bb.x + bb.width, bb.y), pt(bb.x + bb.width, bb.y + bb.height), pt(bb.x, bb.y + bb.height)];
    } catch (e) { quad = null; }
    texts.push({role, text: s, box: box(r), quad, size: parseFloat(st.fontSize), axis, value, index});
  });
  const legends = [];
  gd.querySelectorAll('g.legend').forEach((lg) => {
    const bg = lg.querySelector('rect.bg');
    const sb = lg.querySelector('rect.scrollbar');
    const sbh = sb ? sb.getBoundingClientRect().height : 0;
    const entries = lg.querySelectorAll('g.traces').length;
    legends.push({box: bg ? box(bg.getBoundingClientRect()) : null, scrollbar: sbh, entries: entries});
  });
  const axes = {};
  const fl = gd._fullLayout;
  Object.keys(fl).filter((k) => /^[xy]axis\d*$/.test(k)).forEach((k) => {
    const ax = fl[k];
    axes[ax._id] = {type: ax.type, range: ax.range, visible: ax.visible !== false, showticklabels: ax.showticklabels !== false,
                    categories: ax.type === 'category' ? (ax._categories || []).length : null};
  });
  const plots = {};
  Object.keys(fl._plots || {}).forEach((id) => {
    const p = fl._plots[id];
    if (p.xaxis && p.yaxis) plots[id] = [p.xaxis._offset, p.yaxis._offset, p.xaxis._offset + p.xaxis._length, p.yaxis._offset + p.yaxis._length];
  });
  return {texts, legends, axes, plots, width: root.width, height: root.height};
}
"""

_JS_MEASURE = r"""
async ({fig, width, height}) => {
  const gd = document.getElementById('g');
  Plotly.purge(gd);
  gd.style.width = width + 'px'; gd.style.height = height + 'px';
  const layout = Object.assign({}, fig.layout || {}, {width: width, height: height, autosize: false});
  await Plotly.newPlot(gd, fig.data || [], layout, {staticPlot: true, displayModeBar: false});
  return (""" + JS_MEASURE_DRAWN + r""")(gd);
}
"""


class Renderer:
    """One headless Chromium page with plotly.js loaded, reused for every figure (thread-confined)."""

    def __init__(self, executable: str | None):
        from playwright.sync_api import sync_playwright
        from plotly.offline import get_plotlyjs

        self._pw = sync_playwright().start()
        args = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
        self._browser = self._pw.chromium.launch(executable_path=executable, args=args) if executable else self._pw.chromium.launch(args=args)
        self._page = self._browser.new_page(viewport={"width": 2000, "height": 2600})
        self._page.set_content("<!doctype html><html><head><meta charset='utf-8'></head><body style='margin:0'><div id='g'></div></body></html>")
        self._page.add_script_tag(content=get_plotlyjs())
        self._thread = threading.get_ident()

    def measure(self, fig: go.Figure, width: int, height: int) -> dict:
        """Text boxes, legends and axes of ``fig`` drawn at ``width``×``height``; ``{"error": …}`` when plotly.js fails."""
        from playwright.sync_api import Error as PlaywrightError

        spec = json.loads(fig.to_json())
        try:
            return self._page.evaluate(_JS_MEASURE, {"fig": spec, "width": int(width), "height": int(height)})
        except PlaywrightError as exc:  # plotly.js itself gives up (e.g. margins larger than the figure)
            first = str(exc).split("\n")[0].replace("Page.evaluate: ", "")
            return {"error": first, "texts": [], "legends": [], "axes": {}}

    def close(self) -> None:
        try:
            self._browser.close()
        finally:
            self._pw.stop()


_STATE: dict[str, object] = {}


def renderer() -> Renderer | None:
    """The process's shared :class:`Renderer`, started on first use; None when playwright or Chromium is missing."""
    if "r" in _STATE:
        r = _STATE["r"]
        if r is not None and getattr(r, "_thread", None) != threading.get_ident():
            return None  # playwright's sync API is bound to the thread that started it
        return r  # type: ignore[return-value]
    from . import find_chromium

    try:
        r = Renderer(find_chromium())
        atexit.register(r.close)
    except Exception:  # noqa: BLE001 - no browser: the caller reports that the rendered review was skipped
        r = None
    _STATE["r"] = r
    return r


def _quad(t: dict) -> np.ndarray:
    """The text's glyph box as 4 corners, shrunk by 12 % of its height on every side (the font's line gap)."""
    q = np.asarray(t["quad"] if t.get("quad") else [[t["box"][0], t["box"][1]], [t["box"][2], t["box"][1]],
                                                    [t["box"][2], t["box"][3]], [t["box"][0], t["box"][3]]], dtype=float)
    c = q.mean(axis=0)
    u, v = q[1] - q[0], q[3] - q[0]  # along the text, across it
    lu, lv = np.linalg.norm(u), np.linalg.norm(v)
    if lu == 0 or lv == 0:
        return q
    pad = 0.12 * lv
    su, sv = max(lu - 2 * pad, 0.5) / lu, max(lv - 2 * pad, 0.5) / lv
    return c + np.array([-su * u - sv * v, su * u - sv * v, su * u + sv * v, -su * u + sv * v]) / 2


def _quads_overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """Separating-axis test of two convex quadrilaterals, requiring more than OVERLAP_PX of overlap on every axis."""
    for q in (a, b):
        for k in range(2):
            edge = q[k + 1] - q[k]
            axis = np.array([-edge[1], edge[0]])
            n = np.linalg.norm(axis)
            if n == 0:
                continue
            pa, pb = a @ (axis / n), b @ (axis / n)
            if min(pa.max(), pb.max()) - max(pa.min(), pb.min()) <= OVERLAP_PX:
                return False
    return True


def _overlaps(texts: list[dict]) -> list[tuple[int, int]]:
    if len(texts) < 2:
        return []
    # Candidate pairs from the axis-aligned boxes (vectorised), then the exact test on the rotated boxes.
    b = np.array([t["box"] for t in texts], dtype=float)
    w = np.minimum(b[:, None, 2], b[None, :, 2]) - np.maximum(b[:, None, 0], b[None, :, 0])
    h = np.minimum(b[:, None, 3], b[None, :, 3]) - np.maximum(b[:, None, 1], b[None, :, 1])
    i, j = np.nonzero(np.triu((w > OVERLAP_PX) & (h > OVERLAP_PX), 1))
    quads = {}
    out = []
    for a, c in zip(i.tolist(), j.tolist()):
        qa = quads.setdefault(a, _quad(texts[a]))
        qc = quads.setdefault(c, _quad(texts[c]))
        if _quads_overlap(qa, qc):
            out.append((a, c))
    return out


def _name(t: dict) -> str:
    s = " ".join(t["text"].replace("\u200b", " ").split())
    s = s if len(s) <= 40 else s[:38] + "…"
    what = {"title": "the title", "axis-title": f"the {t['axis']} axis title", "tick": f"{t['axis']} tick",
            "legend": "legend entry", "annotation": "annotation", "point-text": "label"}.get(t["role"], "text")
    return f"{what} {s!r}"


def _tick_problems(texts: list[dict], axes: dict) -> list[str]:
    out = []
    by_axis: dict[str, list[dict]] = {}
    for t in texts:
        if t["role"] == "tick" and t["axis"]:
            by_axis.setdefault(t["axis"], []).append(t)
    for axid, ticks in sorted(by_axis.items()):
        info = axes.get(axid, {})
        vals = np.array([t["value"] for t in ticks if isinstance(t["value"], (int, float))], dtype=float)
        labels = [t["text"] for t in ticks]
        if info.get("type") == "log":
            decade = np.isclose(vals, np.round(vals), atol=1e-6) if vals.size == len(ticks) else np.zeros(len(ticks), bool)
            dec_sizes = [t["size"] for t, d in zip(ticks, decade) if d]
            minor = [t for t, d in zip(ticks, decade) if not d]
            # plotly's "D1" labels every digit between the decades ("2 3 4 … 9 1 2 … 10 2") at 0.75 of their size: a
            # row of digits that hides the decades. A 1-2-5 labelling (≤ 2 between decades) reads fine.
            per_decade = np.bincount(np.floor(vals[~decade]).astype(int) - int(np.floor(vals.min()))) if vals.size == len(ticks) and minor else [0]
            if len(dec_sizes) >= 2 and max(per_decade) > 2 and max(t["size"] for t in minor) >= 0.7 * min(dec_sizes):
                out.append(f"log {axid} axis: {len(minor)} minor labels ({', '.join(t['text'] for t in minor[:4])}, …) are nearly as large "
                           f"as the decade labels ({', '.join(t['text'] for t, d in zip(ticks, decade) if d)[:40]}); label the decades only")
            continue
        if info.get("type") not in ("linear", None) or len(ticks) < 2:
            continue
        if len(set(labels)) < len(labels):
            out.append(f"{axid} axis: tick labels repeat ({', '.join(labels[:5])}): the axis is degenerate at this precision")
            continue
        if vals.size >= 2:
            span, mag = float(vals.max() - vals.min()), float(np.abs(vals).max())
            if mag > 0 and span / mag < 1e-3:
                out.append(f"{axid} axis: ticks {labels[0]} … {labels[-1]} differ by {span / mag:.1e} of their size (degenerate axis); "
                           "plot the difference from a reference value")
    for axid, info in sorted(axes.items()):
        n_cat = info.get("categories")
        if n_cat and info.get("visible") and info.get("showticklabels"):
            drawn = len(by_axis.get(axid, []))
            if drawn < n_cat:
                out.append(f"{axid} axis: labels {drawn} of its {n_cat} categories (plotly skips labels that do not fit); "
                           "every category must be named")
    return out


def _page_problems(m: dict, width: float, height: float, where: str) -> list[str]:
    if m.get("error"):
        return [f"plotly.js cannot lay out the figure at {width:.0f}×{height:.0f} px ({m['error']}){where}"]
    texts = m["texts"]
    out = []
    for t in texts:
        x0, y0, x1, y1 = t["box"]
        if t["role"] in ("title", "annotation") and x1 - x0 > width + EDGE_TOL_PX:
            out.append(f"{_name(t)} is {x1 - x0:.0f} px wide in a {width:.0f} px figure{where}")
            continue
        cut = [side for side, bad in (("top", y0 < -EDGE_TOL_PX), ("bottom", y1 > height + EDGE_TOL_PX),
                                      ("left", x0 < -EDGE_TOL_PX), ("right", x1 > width + EDGE_TOL_PX)) if bad]
        if cut:
            out.append(f"{_name(t)} is clipped at the {'/'.join(cut)} edge{where}")
            continue
        area = m.get("plots", {}).get(t["axis"]) if t["role"] == "point-text" and t["index"] == 1 else None
        if area is not None:
            # text on the data (a node's name) is clipped by plotly at the plot area unless cliponaxis=False
            cut = [side for side, bad in (("top", y0 < area[1] - EDGE_TOL_PX), ("bottom", y1 > area[3] + EDGE_TOL_PX),
                                          ("left", x0 < area[0] - EDGE_TOL_PX), ("right", x1 > area[2] + EDGE_TOL_PX)) if bad]
            if cut:
                out.append(f"{_name(t)} is cut at the {'/'.join(cut)} edge of the plot area{where}")
    for i, j in _overlaps(texts):
        a, b = texts[i], texts[j]
        if a["role"] == b["role"] == "legend":
            continue  # a legend entry's text and its own title line; entries are laid out by plotly
        out.append(f"{_name(a)} overlaps {_name(b)}{where}")
    for lg in m["legends"]:
        if lg["box"] is not None:
            # the legend's box (symbols and background) drawn over a label hides it, even where no text overlaps text
            x0, y0, x1, y1 = lg["box"]
            box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=float)
            for t in texts:
                if t["role"] != "legend" and _quads_overlap(box, _quad(t)):
                    out.append(f"the legend covers {_name(t)}{where}")
        if lg["scrollbar"] > 0:
            out.append(f"the legend is cut: {lg['entries']} entries do not fit the plot height, the rest hide behind a scroll bar "
                       f"no PNG/SVG reader can use{where}")
        elif lg["box"] is not None:
            x0, y0, x1, y1 = lg["box"]
            if x0 < -EDGE_TOL_PX or y0 < -EDGE_TOL_PX or x1 > width + EDGE_TOL_PX or y1 > height + EDGE_TOL_PX:
                out.append(f"the legend is cut by the figure edge{where}")
    out += [p + where for p in _tick_problems(texts, m["axes"])]
    return list(dict.fromkeys(out))


def page_problems(m: dict, where: str = "") -> list[str]:
    """Problems of a figure measured on a page with :data:`JS_MEASURE_DRAWN` (its own drawn width and height).

    ``m["clip"]`` (optional, ``[left, top, right, bottom]`` in the figure's pixels): the box of what holds the figure
    on the page (a notebook's output area); text outside it left or right is cut off for the reader even when it lies
    inside the figure.
    """
    out = _page_problems(m, float(m.get("width") or 0), float(m.get("height") or 0), where)
    clip = m.get("clip")
    if clip:
        for t in m["texts"]:
            x0, _, x1, _ = t["box"]
            cut = [side for side, bad in (("left", x0 < clip[0] - EDGE_TOL_PX), ("right", x1 > clip[2] + EDGE_TOL_PX)) if bad]
            if cut:
                out.append(f"{_name(t)} is cut off at the {'/'.join(cut)} edge of the area showing the figure "
                           f"({clip[2] - clip[0]:.0f} px wide){where}")
    return list(dict.fromkeys(out))


def _unnamed_series(fig: go.Figure, m: dict, width: float, height: float) -> list[str]:
    """Series drawn in the figure whose legend entry a reader cannot see (clipped, scrolled away or outside the figure)."""
    legend_texts = [t for t in m["texts"] if t["role"] == "legend"]
    if not legend_texts:
        return []
    # Entries outside the legend's own box are scrolled away (plotly clips them); outside the figure, cut off.
    b = next((lg["box"] for lg in m["legends"] if lg["box"] is not None), [0, 0, width, height])
    area = [max(b[0], 0), max(b[1], 0), min(b[2], width), min(b[3], height)]
    seen = {" ".join(t["text"].replace("\u200b", " ").split()) for t in legend_texts
            if t["box"][0] >= area[0] - EDGE_TOL_PX and t["box"][1] >= area[1] - EDGE_TOL_PX
            and t["box"][2] <= area[2] + EDGE_TOL_PX and t["box"][3] <= area[3] + EDGE_TOL_PX}
    shown_name: dict[str, str] = {}
    for t in fig.data:
        if t.visible is not False and t.showlegend is not False and t.name:
            shown_name.setdefault(t.legendgroup or t.name, str(t.name))
    out = []
    for t in fig.data:
        if t.visible is False or not t.name or getattr(t, "hoverinfo", None) == "skip":
            continue
        name = shown_name.get(t.legendgroup or t.name)
        if name is None:
            continue  # never in the legend: the colour check of figure_problems judges it
        if " ".join(name.split()) not in seen:
            dash = getattr(getattr(t, "line", None), "dash", None)
            what = {"dash": "dashed ", "dot": "dotted ", "longdash": "dashed ", "dashdot": "dash-dotted "}.get(dash, "")
            out.append(f"the {what}series {str(t.name)!r} has no visible legend entry: no reader can tell what it is")
    return list(dict.fromkeys(out))


def measure(fig: go.Figure, width: int, height: int) -> dict | None:
    """Text boxes, legends and axes of ``fig`` laid out at ``width``×``height`` (None without a browser)."""
    r = renderer()
    return None if r is None else r.measure(fig, width, height)


def rendered_problems(fig: go.Figure, *, as_saved: bool = True, screen: bool = False,
                      width: int | None = None, height: int | None = None) -> list[str] | None:
    """What a reader sees wrong in ``fig`` once laid out (see the module docstring); None when no browser exists.

    ``as_saved``: at the size and style :func:`dpworkbench.plots.save_figure` writes (else ``fig`` as it is, at
    ``width``×``height`` or its layout size). ``screen``: also as a notebook shows it on a 1024×768 projector (the
    figure unstyled, at its own size or the output area's); with ``as_saved=False`` only that.
    """
    r = renderer()
    if r is None:
        return None
    if not isinstance(fig, go.Figure):
        fig = go.Figure(fig)
    problems: list[str] = []
    styled = apply_style(fig, width=width, height=height) if as_saved else fig
    w = int(styled.layout.width or width or 700) if as_saved else int(width or fig.layout.width or 700)
    h = int(styled.layout.height or height or 450) if as_saved else int(height or fig.layout.height or 450)
    if as_saved or not screen:
        m = r.measure(styled, w, h)
        problems += _page_problems(m, w, h, "") + _unnamed_series(styled, m, w, h)
    if screen:
        w = int(min(fig.layout.width or SCREEN_OUTPUT_W, SCREEN_OUTPUT_W))
        h = int(fig.layout.height or 450)
        m = r.measure(fig, w, h)
        where = f" (on a {SCREEN_W}×{SCREEN_H} screen, {w}×{h} px)"
        shown = _page_problems(m, w, h, where) + [p + where for p in _unnamed_series(fig, m, w, h)]
        if fig.layout.width and fig.layout.width > SCREEN_OUTPUT_W:
            shown.insert(0, f"the figure is {fig.layout.width:.0f} px wide: wider than a {SCREEN_W} px screen's output area")
        problems += shown
    return problems


__all__ = ["JS_MEASURE_DRAWN", "Renderer", "measure", "page_problems", "rendered_problems", "renderer", "SCREEN_W", "SCREEN_H"]
