"""What a reader and a class see, in headless Chromium: report pages draw their figures, the Voilà app
answers a slider, and an emoji renders as a glyph, not a box.

* Report pages: for each paper, one executed notebook from ``reports/*/<paper>/`` (the newest holding a
  plotly figure; if none exists yet, the paper's first ``learn_`` notebook is run in the ci profile) is
  rendered with :func:`dpworkbench.experiments.nbtools.notebook_html` into a temporary report and opened
  from disk. Every figure must have traces and drawn SVG marks, and its title must fit in the figure.
* The app: ``dpworkbench teach`` serves a copy of ``mechanisms/learn_sparse_vector`` (ci profile) on
  127.0.0.1; the ε slider is moved with the keyboard and the figure must change. No code is shown.
* Fonts: Noto Color Emoji (Debian ``fonts-noto-color-emoji``) is installed when missing and root/apt exist.

Screenshots go to ``reports/screenshots/`` (override: ``DPWB_SCREENSHOTS``).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
import socket
from pathlib import Path

import pytest

from dpworkbench.experiments.nbtools import NotebookInfo, notebook_groups, notebook_html, run_notebook
from dpworkbench.paths import project_root


def _load_lab_helpers():
    """The installation and server helpers of test_browser_widgets.py (pytest's importlib mode puts no test dir on sys.path)."""
    import importlib.util
    import sys

    name = "dpwb_browser_widgets_helpers"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("test_browser_widgets.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


_h = _load_lab_helpers()
_ensure_chromium, _ensure_playwright, _free_port = _h._ensure_chromium, _h._ensure_playwright, _h._free_port
_inject_profile, _lab_python, _screenshot_dir = _h._inject_profile, _h._lab_python, _h._screenshot_dir

pytestmark = pytest.mark.browser

REPORT_PAPERS = list(notebook_groups())


@pytest.fixture(scope="module")
def browser():
    sync_api = _ensure_playwright()
    chromium = _ensure_chromium()
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium, headless=True,
                               args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run"])
        try:
            yield b
        finally:
            b.close()


# ----------------------------------------------------------------------------- report pages


def _has_plotly_output(executed: Path) -> bool:
    try:
        nb = json.loads(executed.read_text())
    except (OSError, ValueError):
        return False
    return any("application/vnd.plotly.v1+json" in o.get("data", {}) for c in nb.get("cells", []) for o in c.get("outputs", []))


def _executed_notebook(paper: str, tmp: Path) -> Path:
    """The newest executed reproduction notebook of ``paper`` with a figure (else a learn_ one), or a fresh ci run of its
    first learn_ notebook."""
    found = sorted((p for p in (project_root() / "reports").glob(f"*/{paper}/*/*.ipynb") if not p.name.startswith(".")),
                   key=lambda p: (not p.stem.startswith("learn_"), p.stat().st_mtime), reverse=True)  # reproduction pages first
    for p in found:
        if p.parent.name == p.stem and _has_plotly_output(p):
            return p
    learn = sorted((project_root() / "notebooks" / paper).glob("learn_*.ipynb"))
    if not learn:
        pytest.skip(f"no executed notebook of {paper} under reports/ and no learn_ notebook to run")
    info = NotebookInfo(learn[0], paper, learn[0].stem, learn[0].stem, "")
    res = run_notebook(info, profile="ci", output_root=tmp / "run", html=False)
    assert res.status == "ok", f"{info.name} failed in the ci profile: {res.error}"
    return res.output_dir / f"{info.stem}.ipynb"


JS_FIGURE_CHECK = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).map(gd => {
  const full = gd._fullLayout || {};
  const title = gd.querySelector('.gtitle');
  const marks = gd.querySelectorAll('.scatterlayer .trace path, .scatterlayer .trace .point, .barlayer .point, '
                                    + '.heatmaplayer image, .boxlayer path, .pielayer path, .imagelayer image').length;
  return {traces: (gd.data || []).length, marks, width: full.width || 0,
          titleWidth: title ? title.getBBox().width : 0, title: title ? title.textContent : ''};
})"""


@pytest.mark.timeout(600)
@pytest.mark.parametrize("paper", REPORT_PAPERS)
def test_report_page_shows_its_figures(browser, paper, tmp_path):
    executed = _executed_notebook(paper, tmp_path)
    profile_dir = tmp_path / "report"
    page_dir = profile_dir / paper / executed.stem
    page_dir.mkdir(parents=True)
    shutil.copy(executed, page_dir / executed.name)
    from dpworkbench.plots import write_plotlyjs

    js = write_plotlyjs(profile_dir / "_static" / "plotly.min.js")
    html_path = page_dir / f"{executed.stem}.html"
    html_path.write_text(notebook_html(page_dir / executed.name, js))
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(html_path.as_uri(), wait_until="load", timeout=60_000)
        page.wait_for_selector(".js-plotly-plot .main-svg", timeout=30_000)
        page.wait_for_timeout(500)
        figs = page.evaluate(JS_FIGURE_CHECK)
        assert figs, f"{paper}/{executed.stem}: the report page shows no plotly figure"
        empty = [i for i, f in enumerate(figs) if f["traces"] == 0 or f["marks"] == 0]
        assert not empty, f"{paper}/{executed.stem}: figures {empty} of {len(figs)} drew nothing: {figs}"
        wide = [f for f in figs if f["width"] and f["titleWidth"] > f["width"]]
        assert not wide, f"{paper}/{executed.stem}: titles wider than their figure: {wide}"
        assert "not able to be represented" not in page.content()
        assert not errors, f"{paper}/{executed.stem}: page errors {errors}"
        page.screenshot(path=str(_screenshot_dir() / f"report_{paper}_{executed.stem}.png"))
    finally:
        context.close()


# ----------------------------------------------------------------------------- the Voilà app


class App:
    """``dpworkbench teach`` on a free port, started the way a teacher does."""

    def __init__(self, notebook: Path, base: Path):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.log_path = base / "voila.log"
        env = {**os.environ, "DPWB_REPORTS": str(base / "reports"), "DPWB_RESULTS": str(base / "results"),
               "JUPYTER_RUNTIME_DIR": str(base / "rt"), "PYTHONDONTWRITEBYTECODE": "1"}
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen([_lab_python(), "-m", "dpworkbench", "teach", str(notebook), "--no-browser",
                                      "--port", str(self.port)], stdout=self.log, stderr=subprocess.STDOUT, env=env,
                                     cwd=base, start_new_session=True)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"dpworkbench teach exited with {self.proc.returncode}:\n{self.log_path.read_text()[-3000:]}")
            try:  # listening is enough: the first page request itself runs the notebook
                with socket.create_connection(("127.0.0.1", self.port), timeout=2):
                    return
            except OSError:
                time.sleep(0.5)
        raise RuntimeError(f"Voilà did not answer within 90 s:\n{self.log_path.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGINT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        self.log.close()


JS_APP_FIGURES = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).map(gd => {
  const norm = v => (v && typeof v === 'object' && ArrayBuffer.isView(v)) ? Array.from(v) : v;
  const lay = gd.layout || {};
  const title = lay.title && (typeof lay.title === 'string' ? lay.title : lay.title.text);
  return JSON.stringify({title: title || '', traces: (gd.data || []).map(t => [t.name, norm(t.x), norm(t.y)])});
})"""


@pytest.mark.timeout(300)
def test_voila_app_answers_the_slider(browser, tmp_path):
    nb = tmp_path / "app" / "learn_sparse_vector.ipynb"
    nb.parent.mkdir()
    shutil.copy(project_root() / "notebooks" / "mechanisms" / "learn_sparse_vector.ipynb", nb)
    _inject_profile(nb, "ci")
    nb.with_suffix(".py").unlink(missing_ok=True)  # the app reads the .ipynb only
    app = App(nb, tmp_path)
    context = browser.new_context(viewport={"width": 1300, "height": 1000})
    page = context.new_page()
    try:
        t0 = time.monotonic()
        page.goto(app.url, wait_until="domcontentloaded", timeout=120_000)
        slider = page.locator(".widget-slider").first
        slider.wait_for(state="visible", timeout=150_000)
        page.wait_for_function("() => Array.from(document.querySelectorAll('.js-plotly-plot')).some(gd => (gd.data || []).length > 0)",
                               timeout=60_000)
        loaded = time.monotonic() - t0
        code = page.evaluate("() => Array.from(document.querySelectorAll('.jp-InputArea-editor, .cm-content')).map(e => e.textContent)")
        assert not any("import" in c for c in code), f"the app shows code: {code[:2]}"
        before = page.evaluate(JS_APP_FIGURES)
        readout = slider.locator(".widget-readout")
        eps_before = readout.inner_text().strip()
        handle = slider.locator(".noUi-handle").first
        handle.focus()
        for _ in range(3):
            handle.press("ArrowRight")
        # The same serialiser as `before` (a different one compared unequal at once, racing the update).
        page.wait_for_function("(before) => JSON.stringify((" + JS_APP_FIGURES + ")()) !== JSON.stringify(before)",
                               arg=before, timeout=60_000)
        # the screenshot shows the settled panel, not "computing…" of a later keypress
        page.wait_for_function("() => !Array.from(document.querySelectorAll('.dpwb-status')).some(s => /computing/.test(s.textContent))",
                               timeout=60_000)
        after = page.evaluate(JS_APP_FIGURES)
        assert readout.inner_text().strip() != eps_before
        assert after != before
        page.screenshot(path=str(_screenshot_dir() / "voila_learn_sparse_vector.png"))
        assert loaded < 180, f"the app took {loaded:.0f} s to show its slider and figure"
    except BaseException:
        try:
            page.screenshot(path=str(_screenshot_dir() / "voila_learn_sparse_vector_FAILED.png"), full_page=True)
        except Exception:  # noqa: BLE001 - the original failure matters more
            pass
        print(app.log_path.read_text()[-3000:])
        raise
    finally:
        context.close()
        app.stop()


# ----------------------------------------------------------------------------- fonts


def _ensure_emoji_font() -> None:
    def have() -> bool:
        try:
            out = subprocess.run(["fc-list", ":family=Noto Color Emoji"], capture_output=True, text=True, timeout=30).stdout
        except (OSError, subprocess.TimeoutExpired):
            return False
        return bool(out.strip())

    if have():
        return
    if not (hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get")):
        pytest.skip("no Noto Color Emoji font and no root/apt-get to install Debian's fonts-noto-color-emoji")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "fonts-noto-color-emoji"],
                   capture_output=True, text=True, timeout=900, env=env)
    if not have():
        pytest.skip("`apt-get install fonts-noto-color-emoji` did not provide the font")


@pytest.mark.timeout(300)
def test_emoji_and_figure_fonts_render(browser):
    """An emoji (the 🎓 of the gallery) draws in colour, not as a box; the figure font family is installed."""
    _ensure_emoji_font()
    page = browser.new_page()
    try:
        page.set_content("<canvas id=c width=80 height=80></canvas>")
        coloured = page.evaluate("""() => { const c = document.getElementById('c').getContext('2d');
            c.font = '56px sans-serif'; c.textBaseline = 'top'; c.fillText('🎓', 4, 4);
            const d = c.getImageData(0, 0, 80, 80).data; let n = 0;
            for (let i = 0; i < d.length; i += 4) { const [r, g, b, a] = [d[i], d[i+1], d[i+2], d[i+3]];
              if (a > 0 && (Math.abs(r - g) > 40 || Math.abs(g - b) > 40 || Math.abs(r - b) > 40)) n++; }
            return n; }""")
        assert coloured > 100, f"the emoji drew {coloured} coloured pixels: a box or a missing glyph"
    finally:
        page.close()
    from dpworkbench.plots.style import FONT_FAMILY

    first = FONT_FAMILY.split(",")[0].strip()
    out = subprocess.run(["fc-list", f":family={first}"], capture_output=True, text=True, timeout=30).stdout
    assert out.strip(), f"the figures' first font {first!r} is not installed (fc-list)"
