"""figure_review.csv lists every figure of the report: ``ok`` for a clean one, each finding of the rendered review
for a defective one (here r2t tab02 as the code before the fix drew it)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from dpworkbench.plots.render import renderer


def test_figure_review_lists_every_figure_ok_or_its_findings(tmp_path):
    if renderer() is None:
        pytest.skip("no headless Chromium/playwright")
    import nbformat
    import plotly.graph_objects as go

    from dpworkbench.experiments.nbtools import new_notebook
    from dpworkbench.experiments.report import build_report

    clean = go.Figure([go.Scatter(x=[1, 2, 3], y=[3, 4, 2], name="a"), go.Scatter(x=[1, 2, 3], y=[4, 3, 1], name="b")])
    clean.update_layout(title="clean", xaxis_title="x (unit)", yaxis_title="y (unit)")
    broken = json.loads((Path(__file__).parent / "fixtures" / "r2t_tab02_saved.json").read_text())
    nb = new_notebook([("md", "# t"), ("code", "fig"), ("code", "fig")])
    nb.cells[1].outputs = [nbformat.v4.new_output("display_data", data={"application/vnd.plotly.v1+json": json.loads(clean.to_json())})]
    nb.cells[2].outputs = [nbformat.v4.new_output("display_data", data={"application/vnd.plotly.v1+json": broken})]
    run_dir = tmp_path / "ci" / "r2t" / "tab02_graph_queries"
    run_dir.mkdir(parents=True)
    nbformat.write(nb, str(run_dir / "tab02_graph_queries.ipynb"))
    index = build_report(tmp_path / "ci", "ci")
    review = pd.read_csv(tmp_path / "ci" / "figure_review.csv")
    mine = review[review["notebook"] == "r2t/tab02_graph_queries"]
    assert mine[mine["figure"] == 1]["problem"].tolist() == ["ok"]
    second = mine[mine["figure"] == 2]["problem"].tolist()
    assert any("labels 3 of its 7 categories" in p for p in second) and "ok" not in second
    text = index.read_text()
    assert "1 of 2 figure(s) ok" in text and f"<b>{len(second)}</b> finding(s)" in text
