"""Control panels: ipywidgets bound to a plain function that returns a plotly figure.

Widgets are a thin layer over package functions; they are never the only way in.
With ``interactive=False`` (papermill runs) :func:`control_panel` calls the function
once with the controls' current values and displays a static figure, so executed
notebooks keep every figure (widget state is not saved by papermill).

Functions bound here should cache their non-private part (conflict graphs, LP
values, EBC) so that moving the ε slider only redraws noise.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Mapping, Sequence

import plotly.graph_objects as go


def epsilon_slider(value: float = 1.0, *, minimum: float = 1e-3, maximum: float = 1e2, description: str = "ε"):
    """A log-scale slider for ε (steps of 1/10 of a decade)."""
    import ipywidgets as w

    if not (0 < minimum < maximum):
        raise ValueError(f"need 0 < minimum < maximum, got {minimum}, {maximum}")
    if not (minimum <= value <= maximum):
        raise ValueError(f"value {value} outside [{minimum}, {maximum}]")
    return w.FloatLogSlider(
        value=value,
        base=10,
        min=math.log10(minimum),
        max=math.log10(maximum),
        step=0.1,
        description=description,
        continuous_update=False,
        readout_format=".3g",
    )


def log_slider(value: float, minimum: float, maximum: float, description: str):
    """Generic log slider (noise levels, β, GS, ...)."""
    return epsilon_slider(value, minimum=minimum, maximum=maximum, description=description)


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


def candidate_editor(values: Sequence[float], description: str = "θ candidates"):
    """A text box holding a candidate set; read it with :func:`parse_candidates`."""
    import ipywidgets as w

    return w.Text(value=", ".join(f"{v:g}" for v in values), description=description, continuous_update=False)


def seed_box(value: int = 0, description: str = "seed"):
    import ipywidgets as w

    return w.BoundedIntText(value=value, min=0, max=2**31 - 1, description=description)


def choice(options: Sequence[Any], value: Any = None, description: str = ""):
    import ipywidgets as w

    return w.Dropdown(options=list(options), value=value if value is not None else list(options)[0], description=description)


def _widget_value(widget: Any) -> Any:
    return widget.value


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
    interactive mode returns the panel (a VBox holding a live FigureWidget);
    otherwise displays a static figure once and returns it.
    """
    from IPython.display import display

    values = {k: _widget_value(v) for k, v in controls.items()}
    result = update(**values)
    fig, extra = (result if isinstance(result, tuple) else (result, None))
    if not interactive:
        display(fig)
        if extra is not None:
            display(extra)
        return fig

    import ipywidgets as w

    fw = go.FigureWidget(fig)
    out = w.Output()
    status = w.HTML(value="")
    with out:
        if extra is not None:
            display(extra)

    def refresh(_change: Any = None) -> None:
        vals = {k: _widget_value(v) for k, v in controls.items()}
        status.value = "<i>computing…</i>"
        try:
            res = update(**vals)
        except ValueError as exc:  # bad input from a control: say so, keep the old figure
            status.value = f"<span style='color:#b00'>{exc}</span>"
            return
        new_fig, new_extra = (res if isinstance(res, tuple) else (res, None))
        with fw.batch_update():
            fw.data = []
            fw.add_traces(list(new_fig.data))
            fw.layout = new_fig.layout
        out.clear_output(wait=True)
        with out:
            if new_extra is not None:
                display(new_extra)
        status.value = ""

    for widget in controls.values():
        widget.observe(refresh, names="value")
    header = [w.HTML(f"<h4>{title}</h4>")] if title else []
    panel = w.VBox([*header, w.HBox(list(controls.values()), layout=w.Layout(flex_flow="row wrap")), status, fw, out])
    panel.figure = fw  # for tests and for callers that want to inspect the live figure
    panel.refresh = refresh
    return panel


__all__ = [
    "candidate_editor",
    "choice",
    "control_panel",
    "epsilon_slider",
    "log_slider",
    "parse_candidates",
    "seed_box",
]
