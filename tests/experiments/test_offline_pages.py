"""Report pages and the class app load nothing from the network (issue 28), report pages carry the notebook's title,
and a notebook prints its `[data]` line once per dataset, not once per load."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat

from dpworkbench.datasets import provenance
from dpworkbench.experiments.nbtools import new_notebook, notebook_html

REMOTE = re.compile(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", re.I)


def _executed(tmp_path: Path, *, math: bool) -> Path:
    nb = new_notebook([("md", "# The sparse vector technique\nWhat you will learn" + (": $\\varepsilon$ bounds." if math else ".")),
                       ("code", "x = 1")])
    widget = {"model_id": "abc", "version_major": 2, "version_minor": 0}
    nb.cells[1].outputs = [
        nbformat.v4.new_output("display_data", data={"application/vnd.jupyter.widget-view+json": widget,
                                                     "text/plain": "FloatLogSlider(value=1.0)"}),
        nbformat.v4.new_output("display_data", data={"application/vnd.plotly.v1+json": {
            "data": [{"type": "scatter", "x": [1, 2], "y": [3, 4]}], "layout": {"title": {"text": "t"}}}}),
    ]
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"version_major": 2, "version_minor": 0,
                                                                             "state": {}}}
    path = tmp_path / "ci" / "mechanisms" / "learn_x" / "learn_x.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(nb, str(path))
    return path


def test_a_report_page_loads_nothing_from_the_network_and_is_titled_by_its_notebook(tmp_path):
    executed = _executed(tmp_path, math=True)
    js = tmp_path / "ci" / "_static" / "plotly.min.js"
    page = notebook_html(executed, js)
    assert not REMOTE.findall(page), sorted(set(re.findall(r"""(?:src|href)=["'][^"']*""", page)))
    assert "<title>The sparse vector technique</title>" in page
    assert "require" not in re.sub(r"<style.*?</style>", "", page, flags=re.S).split("<body")[0].lower(), \
        "require.js is still loaded"
    mathjax = tmp_path / "ci" / "_static" / "mathjax" / "MathJax.js"
    assert mathjax.exists() and 'src="../../_static/mathjax/MathJax.js?config=' in page
    assert "FloatLogSlider(value=1.0)" in page, "a widget output must keep its text form"
    assert 'src="../../_static/plotly.min.js"' in page


def test_a_page_without_math_loads_no_mathjax(tmp_path):
    executed = _executed(tmp_path, math=False)
    page = notebook_html(executed, tmp_path / "ci" / "_static" / "plotly.min.js")
    assert "MathJax" not in page.split("<body")[0] and not (tmp_path / "ci" / "_static" / "mathjax").exists()
    assert not REMOTE.findall(page)


def test_the_app_template_serves_font_awesome_itself(tmp_path):
    from jupyter_core.paths import jupyter_path

    from dpworkbench.teaching import app

    share = app.write_voila_template(tmp_path)
    tpl = share / "voila" / "templates" / app.TEMPLATE
    for f in [*tpl.glob("*.html"), *tpl.glob("*.j2")]:
        text = f.read_text()
        assert not re.search(r"""(?:href|src)="https?://""", text), f  # (index.html.j2 names the CDN URL it replaces)
    assert (tpl / "static" / "fontawesome" / "css" / "all.min.css").exists()
    assert any((tpl / "static" / "fontawesome" / "webfonts").glob("*.woff2"))
    # the CDN link that the template rewrites is still Voilà's (else an upgrade brought a new one: look again)
    voila_lab = next(Path(p) / "lab" / "index.html.j2" for p in jupyter_path("voila", "templates")
                     if (Path(p) / "lab" / "index.html.j2").exists())
    assert app._CDN_FA5 in voila_lab.read_text()
    cmd = app.voila_command(None)
    assert f"--template={app.TEMPLATE}" in cmd and any("extension_denylist" in c and "jupytext" in c for c in cmd)
    assert str(app.write_voila_template()) in app.teach_environment()["JUPYTER_PATH"].split(":")[0]


def test_the_app_loads_its_own_widget_manager_before_jupyterlabs(tmp_path, monkeypatch):
    """`make install` puts jupyterlab_widgets 3.0.13's manager in the environment; the app's JUPYTER_PATH names it second
    (after the template), before anything inherited, so Voilà (first extension of a name wins) loads it, not 3.0.17's."""
    import json

    from dpworkbench.teaching import app

    assert app.app_widget_manager_installed(), "run `make install` (the app's widget manager is missing)"
    pkg = json.loads((app.app_widget_share() / "labextensions" / app._MANAGER / "package.json").read_text())
    assert pkg["name"] == app._MANAGER
    # built for the JupyterLab core Voilà bundles (its webpack share scope asks ^4.2.x of @jupyterlab/notebook, encoded
    # [1,4,2,x]), not for JupyterLab 4.6's (3.0.17's asks ^4.6.2)
    entry = (app.app_widget_share() / "labextensions" / app._MANAGER / pkg["jupyterlab"]["_build"]["load"]).read_text()
    assert re.search(r'"@jupyterlab/notebook",\[1,4,2,\d+\]', entry), "the app's widget manager is not built for 4.2"
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    path = app.teach_environment()["JUPYTER_PATH"].split(":")
    assert path[1] == str(app.app_widget_share()) and path[2] == str(tmp_path)
    import voila

    assert voila.__version__ == "0.5.8"  # its widgets-manager8 asks for the 4.2.5 core it bundles (app.py explains)


def test_the_data_line_is_printed_once_per_dataset_per_kernel(capsys):
    before, printing = provenance.used(), provenance._PRINT
    provenance.clear()
    provenance.set_printing(True)
    try:
        for _ in range(7):  # a notebook loading the same data in each of its seven panels
            provenance.record("adult", "synthetic", "generator(n=100)", 100)
        provenance.record("tax", "synthetic", "generator(n=100)", 100)
        lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("[data]")]
        assert [ln.split(":")[0] for ln in lines] == ["[data] adult", "[data] tax"], lines
        assert len(provenance.used()) == 2
    finally:
        provenance.clear()
        provenance._RECORD.extend(before)
        provenance.set_printing(printing)


def test_every_learn_notebooks_menu_instruction_is_rewritten_for_the_app(tmp_path):
    """The app's script (run in node on each learn notebook's "What to do" paragraph, rendered as the app renders
    markdown) drops the JupyterLab menu clause and leaves a sentence that starts with a capital."""
    import json
    import shutil
    import subprocess

    import pytest
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    from dpworkbench.experiments.nbtools import discover_notebooks
    from dpworkbench.teaching import app

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = re.search(r"var runAll = (/.*?/i);", app._APP_TEXT_JS).group(1)
    head = re.search(r"\.replace\((/\(What to do.*?/)\s*,", app._APP_TEXT_JS).group(1)
    paragraphs = {}
    for info in discover_notebooks():
        if info.kind != "teaching":
            continue
        nb = nbformat.read(str(info.path), as_version=4)
        for cell in nb.cells:
            for par in cell.source.split("\n\n") if cell.cell_type == "markdown" else []:
                if "Run All" in par:
                    paragraphs[info.notebook] = markdown2html_mistune(par)
    assert len(paragraphs) >= 10, paragraphs.keys()
    js = (f"const runAll = {script}; const head = {head};\n"
          f"const ps = {json.dumps(paragraphs)};\n"
          "const out = {}; for (const [k, h] of Object.entries(ps)) { out[k] = h.replace(runAll, '').replace(head, "
          "(m, a, c) => a + c.toUpperCase()); }\nconsole.log(JSON.stringify(out));")
    out = json.loads(subprocess.run([node, "-e", js], capture_output=True, text=True, check=True, timeout=60).stdout)
    for name, html in out.items():
        text = re.sub(r"<[^>]+>", "", html)
        assert "Run All" not in text and "Run →" not in text, (name, text)
        assert re.search(r"What to do[.:]?:?\s+[A-Z]", text), (name, text)
