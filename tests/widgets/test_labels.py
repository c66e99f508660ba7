"""Widget labels are short and shown whole (issue 28: "ε₀ share o…", "prune (≤ /…", "θ candida…" on a projector).

The rule: a label has at most LABEL_MAX_CHARS characters, its box is sized to it, the long form is the tooltip.
tests/browser/test_browser_projector.py measures the drawn labels in Chromium; here the rule itself and every
label the learn notebooks and the teaching modules pass.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytest.importorskip("ipywidgets")

from dpworkbench import widgets  # noqa: E402
from dpworkbench.paths import project_root  # noqa: E402

ROOT = project_root()
FACTORIES = {"choice": 2, "log_slider": 3, "epsilon_slider": None, "candidate_editor": 1, "seed_box": 1, "labelled": 1}


def _labels_in(path: Path):
    """(line, label) of every literal label passed to a widget factory (or description= of a raw ipywidget)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        for kw in node.keywords:
            if kw.arg == "description" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                yield node.lineno, kw.value.value
        pos = FACTORIES.get(name)
        if pos is not None and len(node.args) > pos and isinstance(node.args[pos], ast.Constant) and isinstance(node.args[pos].value, str):
            yield node.lineno, node.args[pos].value


SOURCES = sorted((ROOT / "notebooks").glob("*/learn_*.py")) + sorted((ROOT / "dpworkbench").glob("*/teaching.py"))


def test_the_scan_finds_the_labels():
    # the scan must see the labels it judges: a notebook's known label is among them
    found = {lab for p in SOURCES for _, lab in _labels_in(p)}
    assert {"log₂ GS", "ε₁ share", "Θ", "nodes n"} <= found


@pytest.mark.parametrize("path", SOURCES, ids=[p.relative_to(ROOT).as_posix() for p in SOURCES])
def test_every_label_is_short(path):
    long = [f"line {n}: {lab!r} ({len(lab)} characters)" for n, lab in _labels_in(path) if len(lab) > widgets.LABEL_MAX_CHARS]
    assert not long, f"{path.name}: labels longer than {widgets.LABEL_MAX_CHARS} characters are cut on a projector: " + "; ".join(long)


def test_a_long_label_is_refused_with_what_to_do():
    with pytest.raises(ValueError, match=r"'ε₀ share of ε₁' has 14 characters.*tooltip="):
        widgets.choice([0.1, 0.25], 0.25, "ε₀ share of ε₁")
    with pytest.raises(ValueError, match="tooltip="):
        widgets.log_slider(1.0, 0.1, 10, "a very long slider label")


def test_label_box_fits_the_label_and_tooltip_holds_the_long_form():
    c = widgets.choice(["safe", "paper"], "safe", "I_P Δ", "I_P sensitivity mode")
    assert c.description == "I_P Δ" and c.tooltip == "I_P sensitivity mode"
    assert c.style.description_width == f"{widgets.label_width_px('I_P Δ')}px"
    # the box grows with the label: 12 characters get more room than 2, and more than ipywidgets' fixed 80 px
    assert widgets.label_width_px("degree cap D") > 80 > widgets.label_width_px("Δu")
    eps = widgets.epsilon_slider(1.0)
    assert eps.description == "ε" and "privacy budget" in eps.tooltip  # the long form of the shortest label


def test_panel_fits_labels_of_any_widget_and_sizes_controls():
    import ipywidgets as w

    raw = w.Dropdown(options=["a", "bb"], description="mechanisms")  # built by hand: 80 px would cut it
    slider = widgets.epsilon_slider(1.0)
    panel = widgets.control_panel(lambda epsilon, m: __import__("plotly.graph_objects").graph_objects.Figure(),
                                  {"epsilon": slider, "m": raw})
    assert raw.style.description_width == f"{widgets.label_width_px('mechanisms')}px" and raw.tooltip == "mechanisms"
    # sized to label + field, much less than ipywidgets' 300 px + readout: several controls share a row
    assert int(slider.layout.width.rstrip("px")) < 260 and int(raw.layout.width.rstrip("px")) < 200
    assert "dpwb-controls" in panel.children[0]._dom_classes
