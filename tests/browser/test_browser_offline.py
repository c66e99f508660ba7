"""Offline classrooms (issue 28): with every non-localhost request refused, a report page, the Voilà app and
JupyterLab still work fully, and none of them even tries to reach the network.

Chromium's requests are intercepted (Playwright routes): file:, data:, blob: and 127.0.0.1/localhost pass, anything
else is recorded and aborted; the host resolver also maps every other name to nothing, so a request the interception
did not see fails too. Each test asserts the record is empty.

Screenshots go to ``reports/screenshots/`` (override: ``DPWB_SCREENSHOTS``).
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest

from dpworkbench.experiments.nbtools import notebook_html
from dpworkbench.paths import project_root

pytestmark = pytest.mark.browser


def _load(name: str, file: str):
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(file))
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


_apps = _load("dpwb_browser_apps_helpers", "test_browser_apps.py")
_h = _apps._h
LOCAL_HOSTS = {"127.0.0.1", "localhost"}


@pytest.fixture(scope="module")
def offline_browser():
    sync_api = _h._ensure_playwright()
    chromium = _h._ensure_chromium()
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium, headless=True, args=[
            "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run",
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"])
        try:
            yield b
        finally:
            b.close()


def _offline_page(browser):
    """A 1024×768 page whose non-local requests are refused; returns (context, page, refused, console, errors)."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    refused: list[str] = []

    def route(r):
        u = urlparse(r.request.url)
        if u.scheme in ("file", "data", "blob") or u.hostname in LOCAL_HOSTS:
            return r.continue_()
        refused.append(r.request.url)
        return r.abort()

    context.route("**/*", route)
    page = context.new_page()
    console: list[str] = []
    errors: list[str] = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, refused, console, errors


@pytest.mark.timeout(600)
def test_report_page_works_offline(offline_browser, tmp_path):
    executed = _apps._executed_notebook("mechanisms", tmp_path)
    profile_dir = tmp_path / "report"
    page_dir = profile_dir / "mechanisms" / executed.stem
    page_dir.mkdir(parents=True)
    shutil.copy(executed, page_dir / executed.name)
    from dpworkbench.experiments.nbtools import describe_notebook
    from dpworkbench.plots import write_plotlyjs

    js = write_plotlyjs(profile_dir / "_static" / "plotly.min.js")
    html_path = page_dir / f"{executed.stem}.html"
    html_path.write_text(notebook_html(page_dir / executed.name, js))
    context, page, refused, console, errors = _offline_page(offline_browser)
    try:
        page.goto(html_path.as_uri(), wait_until="load", timeout=60_000)
        page.wait_for_selector(".js-plotly-plot .main-svg", timeout=30_000)
        page.wait_for_timeout(1000)
        figs = page.evaluate(_apps.JS_FIGURE_CHECK)
        assert figs and all(f["traces"] and f["marks"] for f in figs), figs
        assert not refused, f"the report page asked the network for {refused}"
        assert not errors, errors
        failed = [c for c in console if "Failed to load resource" in c]
        assert not failed, failed
        assert page.title() == describe_notebook(executed).title, page.title()
        page.screenshot(path=str(_h._screenshot_dir() / f"offline_report_{executed.stem}.png"))
    finally:
        context.close()


@pytest.mark.timeout(600)
def test_voila_app_works_offline(offline_browser, tmp_path):
    nb = tmp_path / "app" / "learn_sparse_vector.ipynb"
    nb.parent.mkdir()
    shutil.copy(project_root() / "notebooks" / "mechanisms" / "learn_sparse_vector.ipynb", nb)
    _h._inject_profile(nb, "ci")
    nb.with_suffix(".py").unlink(missing_ok=True)
    app = _apps.App(nb, tmp_path)
    context, page, refused, console, errors = _offline_page(offline_browser)
    try:
        # Voilà runs the notebook before it answers (16 s alone): 120 s once ran out under -n 2 with two more jobs
        page.goto(app.url, wait_until="domcontentloaded", timeout=240_000)
        slider = page.locator(".widget-slider").first
        slider.wait_for(state="visible", timeout=150_000)
        page.wait_for_function("() => Array.from(document.querySelectorAll('.js-plotly-plot')).some(gd => (gd.data || []).length > 0)",
                               timeout=60_000)
        before = page.evaluate(_apps.JS_APP_FIGURES)
        handle = slider.locator(".noUi-handle").first
        handle.focus()
        for _ in range(3):
            handle.press("ArrowRight")
        page.wait_for_function("(before) => JSON.stringify((" + _apps.JS_APP_FIGURES + ")()) !== JSON.stringify(before)",
                               arg=before, timeout=60_000)
        # Font Awesome (the icon font the widgets use) came from the app itself, and is in use
        fonts = page.evaluate("() => Array.from(document.styleSheets).map(s => s.href || '').filter(h => /fontawesome|font-awesome/.test(h))")
        assert fonts and all(h.startswith(app.url) for h in fonts), fonts
        loaded = page.evaluate("async () => (await document.fonts.load('900 16px \"Font Awesome 6 Free\"', '\\uf00c')).length")
        assert loaded > 0, "the icon font did not load from the app"
        assert not refused, f"the app asked the network for {refused}"
        text = page.inner_text("body")
        assert "Run All" not in text, "the app tells students to use a menu it does not have"
        assert page.title() == "The sparse vector technique (AboveThreshold)", page.title()
        # jupytext's lab extension is not loaded: no federation warnings, no failed module
        assert not [c for c in console if "Federation Runtime" in c or "Failed to create module" in c], console
        # no shared module at a version its consumer was not built for (Voilà 0.5.8 + the app's own widget manager,
        # dpworkbench/teaching/app.py); 13 such warnings with Voilà 0.5.13 and JupyterLab's widget manager
        unsatisfied = [c for c in console if "Unsatisfied version" in c or "No satisfying version" in c]
        assert not unsatisfied, f"{len(unsatisfied)} version warnings: {unsatisfied[:3]}"
        page.screenshot(path=str(_h._screenshot_dir() / "offline_voila_learn_sparse_vector.png"))
    except BaseException:
        print(app.log_path.read_text()[-3000:])
        raise
    finally:
        context.close()
        app.stop()


@pytest.mark.timeout(400)
def test_jupyterlab_works_offline(offline_browser, tmp_path):
    lab = _h.Lab(tmp_path)
    lab.start()
    context, page, refused, console, errors = _offline_page(offline_browser)
    try:
        page.goto(f"{lab.url}/lab/tree/notebooks/mechanisms/learn_sparse_vector.ipynb?token={lab.token}",
                  wait_until="domcontentloaded", timeout=120_000)
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=120_000)
        t0 = time.monotonic()
        while time.monotonic() - t0 < 5:  # let the lab settle (extensions, kernel start)
            page.wait_for_timeout(500)
        assert page.locator(".jp-RenderedMarkdown h1").first.inner_text().startswith("The sparse vector technique")
        assert not refused, f"JupyterLab asked the network for {refused}"
        page.screenshot(path=str(_h._screenshot_dir() / "offline_lab_learn_sparse_vector.png"))
    finally:
        context.close()
        lab.stop()
