"""Class mode: a ``learn_`` notebook served as a Voilà app (widgets, figures and text; no code cells).

``dpworkbench teach NOTEBOOK`` (and ``make teach NB=...``) runs the notebook in a fresh kernel on
localhost and shows its outputs only: students move sliders without seeing or editing code. The
notebook is the same file as in JupyterLab; nothing is generated.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..experiments.nbtools import discover_notebooks, notebooks_dir


def teaching_notebooks() -> list[Path]:
    """Every ``learn_*.ipynb`` under ``notebooks/`` (paper order)."""
    seen: dict[Path, None] = {}
    for info in discover_notebooks():
        if info.kind == "teaching":
            seen.setdefault(info.path, None)
    return list(seen)


def resolve_teaching_notebook(name: str) -> Path:
    """``learn_sparse_vector``, ``mechanisms/learn_sparse_vector`` (with or without ``.ipynb``) or a path.

    Raises ValueError naming the teaching notebooks when ``name`` matches none or several.
    """
    key = name[: -len(".ipynb")] if name.endswith(".ipynb") else name
    key = key[: -len(".py")] if key.endswith(".py") else key
    path = Path(key + ".ipynb")
    if path.exists():
        return path.resolve()
    candidates = teaching_notebooks()
    hits = [p for p in candidates if f"{p.parent.name}/{p.stem}" == key or p.stem == key]
    if len(hits) == 1:
        return hits[0]
    names = ", ".join(f"{p.parent.name}/{p.stem}" for p in candidates)
    if hits:
        raise ValueError(f"{name!r} names several notebooks ({', '.join(str(h) for h in hits)}); give <paper>/<stem>")
    raise ValueError(f"no teaching notebook {name!r}; the teaching notebooks are: {names}")


def voila_command(notebook: Path | None, *, port: int = 8866, ip: str = "127.0.0.1", open_browser: bool = True,
                  extra: list[str] | None = None) -> list[str]:
    """The Voilà command line: the notebook (or, with ``None``, the ``notebooks/`` tree) on ``ip:port``.

    Sources are stripped (students see outputs only) and tracebacks are not shown in the page (an error
    shows as a short message; the details stay in the server log). The page uses the project's template
    (:data:`TEMPLATE`, found through :func:`teach_environment`'s ``JUPYTER_PATH``): every asset from this machine.
    """
    target = str(notebook) if notebook is not None else str(notebooks_dir())
    cmd = [sys.executable, "-m", "voila", target, f"--port={port}", f"--Voila.ip={ip}",
           "--strip_sources=True", "--show_tracebacks=False", f"--template={TEMPLATE}",
           f"--VoilaConfiguration.extension_denylist={APP_DENIED_EXTENSIONS!r}"]
    if not open_browser:
        cmd.append("--no-browser")
    return cmd + list(extra or [])


def teach_environment() -> dict[str, str]:
    """The app's environment: PNG export off (a class does not need report files; it keeps the app fast), and the
    project's Voilà template (:func:`write_voila_template`) first on ``JUPYTER_PATH``, then the app's own widget
    manager (:func:`install_app_widget_manager`) when it is installed."""
    share = write_voila_template()
    own = [str(app_widget_share())] if app_widget_manager_installed() else []
    path = os.pathsep.join([str(share), *own, *[p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p]])
    return {**os.environ, "DPWB_NO_PNG": os.environ.get("DPWB_NO_PNG", "1"), "JUPYTER_PATH": path}


# The app's Voilà template: Voilà's "lab" template with every asset served by the app itself. Voilà (0.5.8 and 0.5.13) links Font
# Awesome from a CDN (lab/index.html.j2 and base/page.html, the tree and error pages); here the same stylesheets come
# from the xstatic-font-awesome package, copied into the template's static folder. Nothing else on the page is
# fetched from outside (tests/browser/test_browser_offline.py blocks the network and checks).
TEMPLATE = "dpwb"

# The "Unsatisfied version" console warnings (13 with Voilà 0.5.13, issue 28) came from two front ends built for a newer
# JupyterLab than the 4.2.5 core Voilà bundles: 9 from @jupyter-widgets/jupyterlab-manager 5.0.16 (jupyterlab_widgets
# 3.0.17, built for ^4.6.2, which JupyterLab 4.6 itself needs), 4 from Voilà 0.5.13's own widgets-manager8 (asks ^4.5.10
# of its own 4.2.5 core). So: Voilà is pinned at 0.5.8, whose widgets-manager8 asks for the core it bundles, and the app
# (only the app: JupyterLab keeps 3.0.17) loads the widget manager of jupyterlab_widgets 3.0.13 (built for ^4.2.4), put
# first on the app's labextension path. Voilà takes the first extension of a name on that path (jupyterlab_server's
# get_federated_extensions), so JupyterLab's copy is not loaded by the app. The kernel side (ipywidgets 8.1.9) speaks the
# same widget protocol (2.1.0, controls 2.0.0) to both. With both: 0 warnings (tests/browser/test_browser_offline.py).
# Using 3.0.13 in JupyterLab 4.6 instead fails its widgets ("model not found"), hence the app-only copy.
APP_WIDGET_MANAGER = ("jupyterlab_widgets", "3.0.13")
_MANAGER = "@jupyter-widgets/jupyterlab-manager"


def app_widget_share(prefix: str | Path | None = None) -> Path:
    """The folder (a ``JUPYTER_PATH`` entry) holding the app's widget manager: inside the environment, beside its
    ``share/jupyter``."""
    return Path(prefix if prefix is not None else sys.prefix) / "share" / "dpwb-app"


def app_widget_manager_installed(prefix: str | Path | None = None) -> bool:
    return (app_widget_share(prefix) / "labextensions" / _MANAGER / "package.json").exists()


def install_app_widget_manager(prefix: str | Path | None = None) -> Path:
    """Download jupyterlab_widgets :data:`APP_WIDGET_MANAGER`'s wheel (no dependencies, nothing installed into the
    environment) and copy its lab extension into :func:`app_widget_share`. Run by ``make install``; idempotent."""
    import shutil
    import subprocess
    import tempfile
    import zipfile

    dest = app_widget_share(prefix) / "labextensions" / _MANAGER
    if app_widget_manager_installed(prefix):
        return dest
    name, version = APP_WIDGET_MANAGER
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                        f"{name}=={version}", "-d", tmp], check=True)
        wheel = next(Path(tmp).glob(f"{name}-{version}-*.whl"))
        inside = f"{name}-{version}.data/data/share/jupyter/labextensions/{_MANAGER}/"
        staging = dest.with_name(dest.name + ".tmp")  # copied whole, then renamed: never half-installed
        shutil.rmtree(staging, ignore_errors=True)
        with zipfile.ZipFile(wheel) as z:
            members = [m for m in z.namelist() if m.startswith(inside) and not m.endswith("/")]
            if not any(m.endswith("/package.json") for m in members):
                raise ValueError(f"{wheel.name} has no {_MANAGER} lab extension")
            for m in members:
                out = staging / m[len(inside):]
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(z.read(m))
        shutil.rmtree(dest, ignore_errors=True)
        staging.rename(dest)
    return dest


# JupyterLab extensions the app does not load: jupytext's editor extension is built against a newer JupyterLab than
# Voilà's front end (4.2), which made "Unsatisfied version" console warnings and a failed module, and it does nothing in
# an app without menus or editors. anywidget and plotly (the live figures) stay.
APP_DENIED_EXTENSIONS = ["jupyterlab-jupytext"]
_CDN_FA5 = "https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@^5/css/"
_CDN_FA4 = '<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/font-awesome@4.5.0/css/font-awesome.min.css" type="text/css" />'
_LOCAL_FA = "voila/templates/" + TEMPLATE + "/static/fontawesome/css/"

# The notebooks' "What to do" line tells JupyterLab users to run all cells; the app has no menu and has already run
# them. In the app that clause is dropped, so the line speaks to the student in front of the app.
_APP_TEXT_JS = r"""<script>
(function () {
  var runAll = /(in JupyterLab )?(choose )?(<(em|strong)>)?Run → Run All( Cells)?(<\/(em|strong)>)?( \(in the class app they have already run\))?,\s*(then\s+)?/i;
  function speakToTheApp() {
    document.querySelectorAll('.jp-RenderedMarkdown p, .jp-RenderedHTMLCommon p').forEach(function (p) {
      if (!runAll.test(p.innerHTML)) return;
      p.innerHTML = p.innerHTML.replace(runAll, '').replace(/(What to do[.:]?<\/strong>:?\s*)([a-z])/,
        function (m, head, c) { return head + c.toUpperCase(); });
    });
  }
  function title() {  // the notebook's title, not its file name, on the browser tab
    var h = document.querySelector('.jp-RenderedMarkdown h1');
    var t = h && h.textContent.replace(/¶\s*$/, '').trim();
    if (t && document.title !== t) document.title = t;  // only on change: setting it is itself a mutation
  }
  function update() { speakToTheApp(); title(); }
  update();
  new MutationObserver(update).observe(document.documentElement, {childList: true, subtree: true});
})();
</script>"""

_INDEX = """{%- extends 'lab/index.html.j2' -%}
{#- dpworkbench: Voilà's lab page with Font Awesome from this server, not a CDN (dpworkbench/teaching/app.py) -#}
{%- block notebook_css -%}
{{ super() | replace('""" + _CDN_FA5 + """', resources.base_url ~ '""" + _LOCAL_FA + """') }}
""" + _APP_TEXT_JS + """
{%- endblock notebook_css -%}
"""


def _local_fa_links(base: str) -> str:
    return "".join(f'<link rel="stylesheet" href="{base}{_LOCAL_FA}{css}" type="text/css" />' for css in ("all.min.css", "v4-shims.min.css"))


def write_voila_template(root: Path | None = None) -> Path:
    """Write the ``dpwb`` Voilà template under ``root`` (default: the cache directory) and return the folder to put on
    ``JUPYTER_PATH``. Rewritten on every start (a few small files), so it always matches the installed Voilà."""
    import json
    import shutil

    import xstatic.pkg.font_awesome as fa

    from ..paths import cache_dir

    share = Path(root) if root is not None else cache_dir() / "voila-share"
    tpl = share / "voila" / "templates" / TEMPLATE
    from jupyter_core.paths import jupyter_path

    found = [Path(p) for p in jupyter_path("voila", "templates") if (Path(p) / "lab" / "index.html.j2").exists()]
    if not found:
        raise ValueError("Voilà's templates (share/jupyter/voila/templates) are not installed: run `make install`")
    voila_templates = found[0]
    fonts = tpl / "static" / "fontawesome"
    if not (fonts / "webfonts" / "fa-solid-900.woff2").exists() or not (fonts / "css" / "v4-shims.min.css").exists():
        for sub in ("css", "webfonts"):
            shutil.copytree(Path(fa.BASE_DIR) / sub, fonts / sub, dirs_exist_ok=True)
    from ..experiments.runner import atomic_write_text  # two apps starting at once never read half a template

    atomic_write_text(tpl / "conf.json", json.dumps({"base_template": "lab"}))
    atomic_write_text(tpl / "index.html.j2", _INDEX)
    # The tree and error pages: Voilà's lab page over a copy of its base page whose Font Awesome link is local.
    base_page = (voila_templates / "base" / "page.html").read_text()
    atomic_write_text(tpl / "dpwb_base_page.html", base_page.replace(_CDN_FA4, _local_fa_links("{{ base_url }}")))
    lab_page = (voila_templates / "lab" / "page.html").read_text()
    atomic_write_text(tpl / "page.html", lab_page.replace("'voila/templates/base/page.html'", "'dpwb_base_page.html'"))
    return share


__all__ = ["app_widget_manager_installed", "app_widget_share", "install_app_widget_manager", "resolve_teaching_notebook", "teach_environment", "teaching_notebooks", "voila_command", "write_voila_template"]
