"""The notebook gallery: the landing notebook and the top of reports/<profile>/index.html list every notebook."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from dpworkbench.experiments.index_notebook import index_cells, index_is_current, write_index_notebook
from dpworkbench.experiments.nbtools import RunResult, discover_notebooks, notebooks_dir
from dpworkbench.experiments.report import (
    WORKS,
    build_report,
    gallery_entries,
    gallery_markdown,
    latest_output_dir,
    notebook_gallery,
    write_runs,
)
from dpworkbench.paths import project_root

INFOS = discover_notebooks()
# a tiny valid PNG (1x1)
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)


def _fake_run(profile_dir: Path, info, *, png: bool, claims=()):
    d = profile_dir / info.paper / info.stem
    (d / "figures").mkdir(parents=True, exist_ok=True)
    figs = [{"name": "main", "caption": "", "html": "figures/main.html"}]
    (d / "figures" / "main.html").write_text("<html>" + "x" * 100 + "</html>")
    if png:
        (d / "figures" / "main.png").write_bytes(PNG)
        figs[0]["png"] = "figures/main.png"
    (d / "manifest.json").write_text(json.dumps({"name": info.name, "figures": figs, "tables": []}))
    (d / "claims.json").write_text(json.dumps(list(claims)))
    return d


def test_gallery_markdown_lists_every_notebook_once_grouped_by_paper():
    sections = gallery_markdown(INFOS)
    text = "\n".join(t for _, t in sections)
    assert [p for p, _ in sections] == list(dict.fromkeys(i.paper for i in INFOS))
    for info in INFOS:
        line = f"]({info.paper}/{info.path.name})"
        assert text.count(line) == 1, f"{info.name} should be linked exactly once"
        (row,) = [ln for ln in text.splitlines() if line in ln]
        assert row.startswith("- ") and len(row) < 400


def test_index_notebook_is_up_to_date_with_the_notebooks():
    """Fails when a notebook (or a manifest run) was added without re-running `dpworkbench index`."""
    index = json.loads((notebooks_dir() / "index.ipynb").read_text())
    expected = index_cells()
    got = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in index["cells"]]
    assert got == [src.strip("\n") for _, src in expected], "notebooks/index.ipynb is stale: run `.venv/bin/dpworkbench index`"
    assert index_is_current(), "notebooks/index.py is stale: run `.venv/bin/dpworkbench index`"
    text = "\n".join(got)
    for info in INFOS:
        assert f"({info.paper}/{info.path.name})" in text, f"index.ipynb does not link {info.name}"
    for paper in WORKS:
        assert f"dpworkbench.{paper}" in text or paper in text.lower()


def test_index_writer_writes_a_clean_pair_and_the_check_sees_staleness(tmp_path, monkeypatch):
    from test_notebook_pairs import check_pair

    path = write_index_notebook(tmp_path / "index.ipynb")
    check_pair(path)
    assert index_is_current(path)
    nb = json.loads(path.read_text())
    assert [c for c in nb["cells"] if c["cell_type"] == "code" and (c.get("outputs") or c.get("execution_count"))] == []
    fewer = INFOS[1:]
    monkeypatch.setattr("dpworkbench.experiments.index_notebook.discover_notebooks", lambda: fewer)
    assert not index_is_current(path), "a notebook missing from the list must make the index stale"


def test_index_command_checks_the_committed_index(capsys):
    from dpworkbench.cli import main

    assert main(["index", "--check"]) == 0
    assert "is current" in capsys.readouterr().out


def test_report_index_starts_with_the_gallery_and_keeps_its_outputs(tmp_path):
    profile_dir = tmp_path / "quick"
    first, *rest = INFOS
    _fake_run(profile_dir, first, png=True,
              claims=[{"claim": "c", "paper_value": 1, "our_value": 1, "verdict": "pass", "note": "", "source": "paper",
                      "rule": {"kind": "close", "target": 1, "rtol": 0.1}}])
    if rest:
        _fake_run(profile_dir, rest[0], png=False)
    write_runs(profile_dir, [RunResult(first.name, "ok", 1.5, profile_dir / first.paper / first.stem)])
    index = build_report(profile_dir, "quick")
    page = index.read_text()
    for info in INFOS:
        assert f">{info.stem}</a>" in page, f"gallery misses {info.name}"
    assert page.index("<h2>Notebooks</h2>") < page.index("Runs and claims") < page.index("Reproduction table")
    for paper in WORKS:
        assert f"dpworkbench.{paper}" in page
    assert f"src='{first.paper}/{first.stem}/figures/main.png'" in page
    if rest:
        assert "no PNG thumbnail" in page
    claims = pd.read_csv(profile_dir / "claims.csv")
    assert list(claims["notebook"]) == [first.name]
    runs = pd.read_csv(profile_dir / "runs.csv")
    assert list(runs["status"]) == ["ok"]
    assert (runs["claims_pass"].tolist(), runs["claims_differs"].tolist()) == ([1], [0])  # read from its claims.json
    timing = (profile_dir / "timing.md").read_text()
    assert f"| {first.name} | ok | 0.0 | 1 / 0 / 0 |" in timing and "timing.md" in page
    # a second partial run keeps the first one's row
    if rest:
        write_runs(profile_dir, [RunResult(rest[0].name, "error", 2.0, profile_dir, "boom")])
        assert set(pd.read_csv(profile_dir / "runs.csv")["notebook"]) == {first.name, rest[0].name}


def test_notebook_gallery_inlines_latest_thumbnails_and_degrades(tmp_path):
    info = INFOS[0]
    empty = notebook_gallery(reports_root=tmp_path / "nothing")
    assert "No thumbnails yet" in empty.data and info.stem in empty.data
    old = _fake_run(tmp_path / "ci", info, png=False)
    assert latest_output_dir(info, tmp_path) == old
    assert gallery_entries([info], reports_root=tmp_path)[0].thumbnail is None
    new = _fake_run(tmp_path / "quick", info, png=True)
    assert latest_output_dir(info, tmp_path) == new, "a run with a thumbnail wins"
    assert latest_output_dir(info, tmp_path, prefer="ci") == old, "the preferred profile wins"
    html = notebook_gallery(reports_root=tmp_path).data
    assert "data:image/png;base64," in html and "1 of" in html
    shutil.rmtree(tmp_path / "quick")
    assert gallery_entries([info], reports_root=tmp_path)[0].output_dir == old


def test_lab_command_opens_the_gallery(tmp_path):
    from dpworkbench.cli import build_parser, lab_command, main

    args = build_parser().parse_args(["lab", "--no-browser", "--port", "8899", "--", "--ServerApp.token=abc"])
    cmd = lab_command(args)
    assert cmd[1:3] == ["-m", "jupyterlab"]
    assert f"--ServerApp.root_dir={project_root()}" in cmd
    assert "--LabApp.default_url=/lab/tree/notebooks/index.ipynb" in cmd
    assert "--no-browser" in cmd and "--port=8899" in cmd and cmd[-1] == "--ServerApp.token=abc" and "--" not in cmd
    (tmp_path / "notebooks").mkdir()
    other = lab_command(build_parser().parse_args(["lab", "--root", str(tmp_path)]))
    assert f"--ServerApp.root_dir={tmp_path.resolve()}" in other and not any("default_url" in c for c in other)
    assert main(["lab", "--print-command"]) == 0


@pytest.mark.notebook
@pytest.mark.timeout(300)
def test_index_notebook_executes(tmp_path):
    import papermill as pm

    pm.execute_notebook(str(notebooks_dir() / "index.ipynb"), str(tmp_path / "index.ipynb"), parameters={"interactive": False},
                        kernel_name="python3", cwd=str(notebooks_dir()), progress_bar=False)
    out = json.loads((tmp_path / "index.ipynb").read_text())
    html = [o for c in out["cells"] if c["cell_type"] == "code" for o in c.get("outputs", []) if "text/html" in o.get("data", {})]
    assert html and "dpwb-gallery" in "".join(html[0]["data"]["text/html"])


def test_report_reviews_figures_and_draws_them_on_notebook_pages(tmp_path):
    """build_report re-renders an executed notebook's page with its figure drawn and lists what a reviewer would
    reject in that figure (here: no axis titles) in figure_review.csv and index.html."""
    import json as _json

    import nbformat
    import plotly.graph_objects as go

    from dpworkbench.experiments.nbtools import HTML_MARKER, new_notebook
    from dpworkbench.experiments.report import build_report

    nb = new_notebook([("md", "# t"), ("code", "fig")])
    fig = go.Figure([go.Scatter(x=[1, 2], y=[3, 4], name="a"), go.Scatter(x=[1, 2], y=[4, 3], name="b")])
    nb.cells[1].outputs = [nbformat.v4.new_output("display_data", data={"application/vnd.plotly.v1+json": _json.loads(fig.to_json())})]
    run_dir = tmp_path / "ci" / "mechanisms" / "learn_sparse_vector"
    run_dir.mkdir(parents=True)
    nbformat.write(nb, str(run_dir / "learn_sparse_vector.ipynb"))
    index = build_report(tmp_path / "ci", "ci")
    page = (run_dir / "learn_sparse_vector.html").read_text()
    assert HTML_MARKER in page and "Plotly.newPlot" in page and "../../_static/plotly.min.js" in page
    review = (tmp_path / "ci" / "figure_review.csv").read_text()
    assert "x axis has data but no title" in review and "mechanisms/learn_sparse_vector" in review
    html_text = index.read_text()
    assert "id='figure-review'" in html_text and "1 figure finding" not in html_text and "2 figure findings" in html_text
