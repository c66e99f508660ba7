"""Control panels: ipywidgets bound to a plain function that returns a plotly figure.

Widgets are a thin layer over package functions; they are never the only way in.
With ``interactive=False`` (papermill runs) :func:`control_panel` calls the function
once with the controls' current values and displays a static figure, so executed
notebooks keep every figure (widget state is not saved by papermill).

Functions bound here should cache their non-private part (conflict graphs, LP
values, EBC) so that moving the ε slider only redraws noise: see
:func:`cache_nonprivate`; long loops show a bar with :func:`progress` (tqdm.auto).

JupyterLab 4 + ipywidgets 8 need no build step: the panel's live figure is a plotly
figure re-displayed in an ipywidgets ``Output`` after each change, drawn by the plotly
renderer JupyterLab (and the class app) already has; not a ``FigureWidget`` (see
:class:`_LiveFigure` for why). ``tests/browser/test_browser_widgets.py`` checks all of
this in headless Chromium.
"""

from __future__ import annotations

import functools
import html
import math
import time
import traceback
from typing import Any, Callable, Iterable, Mapping, Sequence

import plotly.graph_objects as go

# ---------------------------------------------------------------------------------------------- labels
# ipywidgets draws a control's description in a fixed 80 px box (--jp-widgets-inline-label-width) and cuts the rest
# with "…" ("ε₀ share o…", "θ candida…" on a projector, issue 28). Here every label is short (at most
# LABEL_MAX_CHARS characters: a developer who passes a longer one gets a ValueError naming it), its box is sized to
# the label itself (:func:`label_width_px`), and the long form is the tooltip shown on hover.
LABEL_MAX_CHARS = 12
# The widest average advance of a label character in JupyterLab's widget font (13 px system sans): measured in
# Chromium on this project's labels at ≤ 0.58 em ("log₂ GS", "degree cap D", "Δu"); 0.66 em leaves room for a wider
# system font. tests/browser checks on the drawn page that no label is cut.
LABEL_FONT_PX = 13
LABEL_EM_PER_CHAR = 0.66
LABEL_PAD_PX = 10


def label_width_px(text: str) -> int:
    """Width in pixels of the box that shows ``text`` whole in a widget's description."""
    return int(math.ceil(len(str(text)) * LABEL_EM_PER_CHAR * LABEL_FONT_PX)) + LABEL_PAD_PX


def check_label(description: str) -> str:
    """``description`` when it is short enough to show whole next to a control, else a ValueError saying what to do."""
    text = str(description)
    if len(text) > LABEL_MAX_CHARS:
        raise ValueError(f"widget label {text!r} has {len(text)} characters (at most {LABEL_MAX_CHARS} fit beside a control "
                         "on a projector): give a short label and the long form as tooltip=")
    return text


def fit_label(widget: Any, tooltip: str | None = None) -> Any:
    """Size ``widget``'s description box to its label (never cut with "…") and set its tooltip (default: the label).

    Widgets without a description (a FigureWidget, an Output) are returned unchanged. Returns ``widget``.
    """
    description = getattr(widget, "description", None)
    if not description or not hasattr(widget, "style") or not hasattr(widget.style, "description_width"):
        return widget
    widget.style.description_width = f"{label_width_px(description)}px"
    if tooltip is not None:
        widget.tooltip = str(tooltip)
    elif not getattr(widget, "tooltip", None):
        widget.tooltip = str(description)
    return widget


def labelled(widget: Any, description: str, tooltip: str | None = None) -> Any:
    """Give ``widget`` a short label (checked by :func:`check_label`) and the long form as its tooltip."""
    widget.description = check_label(description)
    return fit_label(widget, tooltip)


def epsilon_slider(value: float = 1.0, *, minimum: float = 1e-3, maximum: float = 1e2, description: str = "ε",
                   tooltip: str | None = None):
    """A log-scale slider for ε (steps of 1/10 of a decade).

    ``minimum``/``maximum`` are the slider's comfortable range, not a rule: a ``value`` outside it (a
    headless run with ``-p epsilon 50``) widens the range to hold it. Whether a value is allowed is for the
    mechanism to say; the slider only refuses what a log scale cannot show (≤ 0, NaN, ∞).
    """
    import ipywidgets as w

    if not (0 < minimum < maximum):
        raise ValueError(f"need 0 < minimum < maximum, got {minimum}, {maximum}")
    if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
        raise ValueError(f"{description} must be a positive finite number, got {value!r}")
    minimum, maximum = min(minimum, value), max(maximum, value)
    slider = w.FloatLogSlider(
        value=value,
        base=10,
        min=math.log10(minimum),
        max=math.log10(maximum),
        step=0.1,
        continuous_update=False,
        readout_format=".3g",
    )
    if tooltip is None and description == "ε":
        tooltip = "ε: the privacy budget (log scale; smaller is more private, noisier)"
    return labelled(slider, description, tooltip)


def log_slider(value: float, minimum: float, maximum: float, description: str, tooltip: str | None = None):
    """Generic log slider (noise levels, β, GS, ...)."""
    return epsilon_slider(value, minimum=minimum, maximum=maximum, description=description, tooltip=tooltip)


def parse_candidates(text: str) -> list[float]:
    """Parse a comma/space separated list of positive numbers (θ candidates)."""
    parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p.strip()]
    if not parts:
        raise ValueError("candidate set is empty: enter numbers separated by commas")
    out = []
    for p in parts:
        try:
            v = float(p)
        except ValueError:
            raise ValueError(f"candidate {p!r} is not a number") from None
        if not math.isfinite(v) or v <= 0:
            raise ValueError(f"candidate {p!r} must be a positive finite number")
        out.append(v)
    return sorted(set(out))


def candidate_editor(values: Sequence[float], description: str = "Θ", tooltip: str | None = None):
    """A text box holding a candidate set; read it with :func:`parse_candidates`."""
    import ipywidgets as w

    box = w.Text(value=", ".join(f"{v:g}" for v in values), continuous_update=False)
    return labelled(box, description, tooltip or "candidate set Θ: numbers separated by commas")


def seed_box(value: int = 0, description: str = "seed", tooltip: str | None = None):
    import ipywidgets as w

    box = w.BoundedIntText(value=value, min=0, max=2**31 - 1)
    return labelled(box, description, tooltip or "seed of the research noise (same seed, same draw)")


def choice(options: Sequence[Any], value: Any = None, description: str = "", tooltip: str | None = None):
    """A dropdown. A ``value`` that is not among ``options`` (a headless run's parameter) is added to them:
    the function bound to the panel, not the widget, decides whether it is valid."""
    import ipywidgets as w

    opts = list(options)
    if value is not None and value not in opts:
        opts.append(value)
    box = w.Dropdown(options=opts, value=value if value is not None else opts[0])
    return labelled(box, description, tooltip)


def _widget_value(widget: Any) -> Any:
    return widget.value


def progress(iterable: Iterable[Any] | None = None, *, desc: str = "", total: int | None = None, **kwargs: Any):
    """A ``tqdm.auto`` progress bar (a widget in JupyterLab, text elsewhere).

    Use it around long loops inside functions bound to a panel, e.g.
    ``for theta in widgets.progress(candidates, desc="LP per θ"): ...``.
    """
    from tqdm.auto import tqdm

    return tqdm(iterable, desc=desc, total=total, **kwargs)


def _freeze(value: Any) -> Any:
    """A hashable stand-in for arguments of a cached function (arrays, lists, dicts, sets)."""
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy is a hard dependency
        np = None
    if np is not None and isinstance(value, np.ndarray):
        return ("ndarray", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_freeze(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, _freeze(v)) for k, v in value.items())))
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted(_freeze(v) for v in value)))
    hash(value)  # raises TypeError for anything else that cannot be a key
    return value


def cache_nonprivate(func: Callable[..., Any] | None = None, *, maxsize: int | None = 32):
    """Cache the *non-private* part of a widget computation (conflict graphs, LP values, EBC).

    A thin layer over :func:`functools.lru_cache` that also accepts numpy arrays, lists
    and dicts as arguments (they are keyed by content). Decorate the expensive function
    that does **not** take ε, and call it from the update function that does, so moving
    the ε slider only redraws noise::

        @widgets.cache_nonprivate
        def truncation_values(graph_seed: int, n: int) -> np.ndarray: ...   # deterministic, no noise

        def update(epsilon, graph_seed):
            values = truncation_values(graph_seed, n)        # cached after the first call
            return figure(values + noise(epsilon))

    Never cache anything that draws noise: a cached noisy answer replayed for a new ε
    would be wrong (and re-using noise across releases spends budget twice).
    The wrapper has ``cache_info()`` and ``cache_clear()`` like ``lru_cache``.
    Cached results are shared between calls: do not mutate them.
    """

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        store: dict[Any, Any] = {}

        @functools.lru_cache(maxsize=maxsize)
        def _cached(key: Any) -> Any:
            args, kwargs = store.pop(key)
            return f(*args, **kwargs)

        @functools.wraps(f)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            key = (_freeze(args), _freeze(kwargs))
            store[key] = (args, kwargs)
            try:
                return _cached(key)
            finally:
                store.pop(key, None)

        wrapper.cache_info = _cached.cache_info  # type: ignore[attr-defined]
        wrapper.cache_clear = _cached.cache_clear  # type: ignore[attr-defined]
        return wrapper

    return decorate(func) if func is not None else decorate


def _split(result: Any) -> tuple[Any, Any]:
    return result if isinstance(result, tuple) else (result, None)


# Width of a panel's live figure when its builder sets none. A figure drawn before its output area is laid out falls
# back to plotly's 700 px, whatever the room: on a 1024×768 projector, with JupyterLab's file browser open, the output
# area is 592 px wide (measured in Chromium), and the right 100 px of every panel figure (a "Q(I) = …" label, the last
# tick) were cut off (issue 28).
PANEL_FIGURE_W = 580


def _fit_width(fig: go.Figure) -> go.Figure:
    if fig.layout.width is None:
        fig = go.Figure(fig)
        fig.update_layout(width=PANEL_FIGURE_W)
    return fig


class _LiveFigure:
    """A panel's figure, redrawn in place: ``figure`` (a plotly ``Figure``, the same object for the panel's life) is
    shown in an ``Output`` (``widget``) that displays it again after each change, through the plotly renderer that
    JupyterLab and the class app load once per page.

    Not a plotly ``FigureWidget``: in plotly ≥ 6 that is an anywidget, each one sends plotly's 5 MB bundle to the
    browser to be imported again, and anywidget 0.11 gives that import 2 s; past it the model's ``ready`` promise is
    rejected for good, so every later message from the kernel is dropped while the view still draws the first figure
    ("[anywidget] Failed to initialize model." in the console). With other jobs on a 2-core machine the figure then
    never followed the slider (CI once; 13 of 14 runs of the privateclean teaching notebook in tests/browser).
    """

    def __init__(self, fig: go.Figure):
        import ipywidgets as w

        self.figure = go.Figure(_fit_width(fig))
        self.widget = w.Output()
        with self.widget:
            display_figure(self.figure)

    def set(self, fig: go.Figure) -> None:
        """Replace traces and layout of ``figure`` (it stays ``panel.figure``) by ``fig``'s and draw it again."""
        fig = _fit_width(fig)
        target = self.figure
        target.data = []
        target.add_traces(list(fig.data))
        target.layout = fig.layout
        self.widget.clear_output(wait=True)  # the old drawing stays until the new one arrives: no flicker
        with self.widget:
            display_figure(target)


# Field widths (px) next to a label: what a slider's track + readout, a dropdown's longest option or a number box need.
_SLIDER_FIELD_PX, _READOUT_PX = 150, 64
_TEXT_FIELD_PX, _NUMBER_FIELD_PX = 170, 90
_OPTION_CHAR_PX, _DROPDOWN_CHROME_PX, _DROPDOWN_MAX_PX = 8, 36, 230


def compact(widget: Any) -> Any:
    """Fit ``widget``'s label (:func:`fit_label`) and size the widget to its label plus the field it needs.

    ipywidgets gives every control 300 px (plus the readout): nine of them took five rows above a figure, which then
    started below a 1024×768 projector's fold. Sized to their content they share rows, and the figure stays in view
    under them while a slider moves. A width the author set is kept.
    """
    import ipywidgets as w

    fit_label(widget)
    if getattr(widget, "layout", None) is None or widget.layout.width is not None:
        return widget
    description = getattr(widget, "description", "") or ""
    label = label_width_px(description) if description else 0
    if isinstance(widget, (w.FloatLogSlider, w.FloatSlider, w.IntSlider, w.FloatRangeSlider, w.IntRangeSlider, w.SelectionSlider)):
        field = _SLIDER_FIELD_PX + (_READOUT_PX if widget.readout else 0)
    elif isinstance(widget, w.Dropdown):
        longest = max((len(str(lbl)) for lbl in widget._options_labels), default=4)
        field = min(_DROPDOWN_MAX_PX, longest * _OPTION_CHAR_PX + _DROPDOWN_CHROME_PX)
    elif isinstance(widget, (w.Text, w.Textarea)):
        field = _TEXT_FIELD_PX
    elif isinstance(widget, (w.BoundedIntText, w.IntText, w.BoundedFloatText, w.FloatText)):
        field = _NUMBER_FIELD_PX
    else:
        return widget  # checkboxes, multi-selects, buttons: their own size
    widget.layout.width = f"{label + field + 8}px"
    return widget


def display_figure(fig: Any) -> None:
    from IPython.display import display

    display(fig)


def control_panel(
    update: Callable[..., Any],
    controls: Mapping[str, Any],
    *,
    interactive: bool = True,
    title: str = "",
):
    """Bind ``update(**values)`` to ``controls`` and show its figure.

    ``update`` returns a plotly figure, or ``(figure, extra)`` where ``extra``
    (a DataFrame, text or HTML-capable object) is shown under the figure. In
    interactive mode returns the panel (a VBox holding the live figure, see :class:`_LiveFigure`);
    otherwise displays a static figure once and returns it.

    In the panel, a change of any control calls ``update`` again and redraws the
    figure in place; while it runs the status line says "computing…" (put a
    :func:`progress` bar around long loops). A ``ValueError`` (bad input in a
    control) is shown in red and keeps the old figure; any other exception is
    shown in red with its traceback between the controls and the figure. ``update`` should take the
    non-private part from a cache (:func:`cache_nonprivate`).
    """
    from IPython.display import display

    values = {k: _widget_value(v) for k, v in controls.items()}
    fig, extra = _split(update(**values))
    if not interactive:
        display(fig)
        if extra is not None:
            display(extra)
        return fig

    import ipywidgets as w

    live = _LiveFigure(fig)
    out = w.Output()
    status = w.HTML(value="")
    status.add_class("dpwb-status")
    with out:
        if extra is not None:
            display(extra)

    work = w.Output()  # progress bars and messages of the running update (observer output is otherwise lost)
    work.add_class("dpwb-work")

    def refresh(_change: Any = None) -> None:
        vals = {k: _widget_value(v) for k, v in controls.items()}
        status.value = "<i>computing…</i>"
        t0 = time.perf_counter()
        work.clear_output()
        res, err = None, None
        with work:  # a tqdm.auto bar inside ``update`` shows here while it runs
            try:
                res = update(**vals)
            except Exception as exc:  # noqa: BLE001 - shown to the user, never swallowed silently
                err = exc
                if not isinstance(exc, ValueError):
                    traceback.print_exc()
        if isinstance(err, ValueError):  # bad input from a control: say so, keep the old figure
            status.value = f"<span style='color:#b00'>{html.escape(str(err))}</span>"
            return
        if err is not None:  # any other failure: red status + traceback under the controls
            status.value = f"<span style='color:#b00'>{html.escape(type(err).__name__)}: {html.escape(str(err))}</span>"
            return
        new_fig, new_extra = _split(res)
        live.set(new_fig)
        work.clear_output()
        out.clear_output(wait=True)
        with out:
            if new_extra is not None:
                display(new_extra)
        status.value = f"<span style='color:#888;font-size:85%'>updated in {time.perf_counter() - t0:.2f} s</span>"

    for widget in controls.values():
        widget.observe(refresh, names="value")
        compact(widget)
    header = [w.HTML(f"<h4 style='margin:0.2em 0'>{html.escape(title)}</h4>")] if title else []
    # Controls above the figure in rows sized to their content (see :func:`compact`): on a 1024×768 projector the
    # figure starts within the first screen under them, and stays there while a control moves.
    grid = w.HBox(list(controls.values()), layout=w.Layout(flex_flow="row wrap", align_items="center", grid_gap="2px 12px"))
    grid.add_class("dpwb-controls")
    panel = w.VBox([*header, grid, status, work, live.widget, out])
    panel.add_class("dpwb-panel")
    panel.figure = live.figure  # for tests and for callers that want to inspect the live figure
    panel.refresh = refresh
    panel.status = status
    return panel


__all__ = [
    "LABEL_MAX_CHARS",
    "cache_nonprivate",
    "candidate_editor",
    "check_label",
    "choice",
    "compact",
    "fit_label",
    "label_width_px",
    "labelled",
    "control_panel",
    "epsilon_slider",
    "log_slider",
    "parse_candidates",
    "progress",
    "seed_box",
]
