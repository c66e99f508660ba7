"""Notebook discovery, the run manifest, and headless execution (papermill).

Notebooks are stored as jupytext pairs (``<stem>.ipynb`` + ``<stem>.py`` in the percent format,
both without outputs) and edited by hand, in JupyterLab or an editor. What ``dpworkbench reproduce``
runs is a list of *runs*: one per notebook, except where ``notebooks/manifest.toml`` lists several
(notebook × parameters × output name, e.g. Figs. 4 and 5 of the inconsistency paper from one notebook).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import time
import tomllib
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..paths import project_root

def notebook_groups() -> tuple[str, ...]:
    """The notebook folders in order: the shared core's (``mechanisms``), then each paper's (discovered)."""
    from ..papers import paper_keys

    return ("mechanisms", *paper_keys())


# Every notebook is a jupytext pair: <stem>.ipynb + <stem>.py (percent format), both without outputs.
PAIRED_FORMATS = "ipynb,py:percent"


def notebooks_dir() -> Path:
    return project_root() / "notebooks"


def manifest_path() -> Path:
    return notebooks_dir() / "manifest.toml"


@dataclass(frozen=True)
class NotebookInfo:
    """One run: a notebook (``path``), the parameters papermill injects, and the output name ``stem``.

    For a notebook without manifest entries, ``stem`` is the file's stem and ``parameters`` is empty.
    """

    path: Path
    paper: str
    stem: str
    title: str
    description: str
    parameters: tuple[tuple[str, Any], ...] = ()

    @property
    def name(self) -> str:
        """``<paper>/<output name>``: the run's name in reports, claims and ``--only``."""
        return f"{self.paper}/{self.stem}"

    @property
    def notebook(self) -> str:
        """``<paper>/<file stem>``: the notebook the run executes."""
        return f"{self.paper}/{self.path.stem}"

    @property
    def kind(self) -> str:
        return "teaching" if self.stem.startswith("learn_") else ("index" if self.stem == "index" else "reproduction")


def _markdown_lines(nb: dict) -> list[str]:
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown":
            src = cell.get("source", "")
            text = "".join(src) if isinstance(src, list) else src
            return [ln.strip() for ln in text.splitlines() if ln.strip()]
    return []


def describe_notebook(path: Path) -> NotebookInfo:
    nb = json.loads(Path(path).read_text())
    lines = _markdown_lines(nb)
    title = lines[0].lstrip("#").strip() if lines else Path(path).stem
    desc = next((ln for ln in lines[1:] if not ln.startswith("#")), "")
    desc = re.sub(r"[*_`]", "", desc)
    paper = Path(path).parent.name if Path(path).parent != notebooks_dir() else "index"
    return NotebookInfo(Path(path), paper, Path(path).stem, title, desc[:300])


@dataclass(frozen=True)
class ManifestRun:
    notebook: str  # <paper>/<file stem>
    name: str  # output name (a stem, unique within the paper)
    parameters: tuple[tuple[str, Any], ...]
    title: str = ""


def load_manifest(path: Path | None = None) -> dict[str, list[ManifestRun]]:
    """The run manifest (``notebooks/manifest.toml``): ``{"<paper>/<stem>": [ManifestRun, ...]}``."""
    path = manifest_path() if path is None else Path(path)
    if not path.exists():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML: {exc}") from None
    unknown = set(data) - {"run"}
    if unknown:
        raise ValueError(f"{path}: unknown top-level keys {sorted(unknown)} (only [[run]] tables)")
    runs: dict[str, list[ManifestRun]] = {}
    names: set[str] = set()
    for i, entry in enumerate(data.get("run", [])):
        where = f"{path.name}, run {i + 1}"
        bad = set(entry) - {"notebook", "name", "parameters", "title"}
        if bad:
            raise ValueError(f"{where}: unknown keys {sorted(bad)}")
        nb, name = entry.get("notebook", ""), entry.get("name", "")
        if not re.fullmatch(r"[a-z0-9_]+/[a-z0-9_]+", str(nb)):
            raise ValueError(f"{where}: notebook must be '<paper>/<stem>', got {nb!r}")
        if not re.fullmatch(r"[a-z0-9_]+", str(name)):
            raise ValueError(f"{where}: name must be a lower-case stem, got {name!r}")
        full = f"{nb.split('/')[0]}/{name}"
        if full in names:
            raise ValueError(f"{where}: run name {full!r} is used twice")
        names.add(full)
        params = entry.get("parameters", {})
        if not isinstance(params, dict):
            raise ValueError(f"{where}: parameters must be a table")
        runs.setdefault(nb, []).append(ManifestRun(nb, name, tuple(sorted(params.items())), str(entry.get("title", ""))))
    return runs


def notebook_runs(info: NotebookInfo, manifest: dict[str, list[ManifestRun]]) -> list[NotebookInfo]:
    """The runs of one notebook: its manifest entries, or the notebook itself under its own name."""
    entries = manifest.get(info.notebook)
    if not entries:
        return [info]
    return [dataclasses.replace(info, stem=r.name, title=r.title or info.title, parameters=r.parameters) for r in entries]


def notebook_files() -> list[Path]:
    """Every notebook file ``notebooks/<paper>/*.ipynb`` (sorted)."""
    return [p for p in sorted(notebooks_dir().glob("*/*.ipynb")) if ".ipynb_checkpoints" not in p.parts]


def discover_notebooks(only: str | None = None) -> list[NotebookInfo]:
    """Every run (sorted by paper order, then name): one per notebook under ``notebooks/<paper>/``, or one
    per manifest entry. ``only`` is a regular expression on the run name or the notebook (``<paper>/<stem>``)."""
    manifest = load_manifest()
    found = []
    seen = set()
    for p in notebook_files():
        base = describe_notebook(p)
        seen.add(base.notebook)
        found += notebook_runs(base, manifest)
    missing = sorted(set(manifest) - seen)
    if missing:
        raise ValueError(f"{manifest_path().name} lists notebooks that do not exist: {missing}")
    names = [i.name for i in found]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"run names used twice (a manifest name equals another notebook's?): {twice}")
    if only:
        found = [i for i in found if re.search(only, i.name) or re.search(only, i.notebook)]
    order = {p: i for i, p in enumerate(notebook_groups())}
    return sorted(found, key=lambda i: (order.get(i.paper, 99), i.kind != "reproduction", i.stem))


def new_notebook(cells: Sequence[tuple[str, str]]) -> dict:
    """Build notebook JSON from (kind, source) pairs; kind is "md", "code" or "params" (the papermill
    ``parameters`` cell). Used for the generated landing notebook and for test notebooks."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    for kind, src in cells:
        if kind == "md":
            nb.cells.append(nbformat.v4.new_markdown_cell(src.strip("\n")))
        elif kind in ("code", "params"):
            c = nbformat.v4.new_code_cell(src.strip("\n"))
            if kind == "params":
                c.metadata["tags"] = ["parameters"]
            nb.cells.append(c)
        else:
            raise ValueError(f"cell kind must be md, code or params, got {kind!r}")
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    for i, c in enumerate(nb.cells):
        c["id"] = f"cell-{i:02d}"
    return nb


@dataclass
class RunResult:
    name: str
    status: str  # "ok", "error", "timeout" (a cell ran past the time limit) or "memory" (past the memory limit)
    seconds: float
    output_dir: Path
    error: str = ""
    code_version: str = ""  # run_code_version(info) when it ran: `reproduce --resume` keeps the run while it matches
    commit: str = ""  # git commit it ran at
    finished: str = ""  # UTC time it finished
    kept: bool = False  # True when `--resume` kept an earlier run instead of running it again
    parameters: str = ""  # parameters_json(...) of the run: the manifest's and any `-p` values ("{}": none)


def parameters_json(parameters: Any) -> str:
    """A run's parameters as canonical JSON (sorted keys): what runs.csv, manifest.json and :func:`parameter_hash` use."""
    return json.dumps(dict(parameters or {}), sort_keys=True, default=str, separators=(",", ":"))


def parameter_overrides(info: "NotebookInfo", parameters: dict[str, Any] | None) -> dict[str, Any]:
    """The given parameters that differ from the run's own (its manifest entry's): what makes a run *parameterised*."""
    own = dict(info.parameters)
    return {k: v for k, v in (parameters or {}).items() if k not in own or own[k] != v}


def parameter_hash(profile: str, parameters: dict[str, Any]) -> str:
    """Short hash of a profile and a run's full parameters: the folder name of a parameterised run."""
    return hashlib.blake2b(f"{profile}\n{parameters_json(parameters)}".encode(), digest_size=5).hexdigest()


def parameterised_dir(info: "NotebookInfo", profile: str, parameters: dict[str, Any], root: Path | None = None) -> Path:
    """Where ``dpworkbench run NOTEBOOK -p ...`` writes: ``reports/runs/<paper>/<stem>/<profile>-<hash>/``.

    Never the profile's own folder (``reports/<profile>/<paper>/<stem>``), so a run with other parameters can
    neither replace a reproduction nor be kept by ``reproduce --resume`` in its place."""
    from ..paths import reports_dir

    base = reports_dir() / "runs" if root is None else Path(root)
    full = {**dict(info.parameters), **parameters}
    return base / info.paper / info.stem / f"{profile}-{parameter_hash(profile, full)}"


def notebook_parameters(path: Path) -> dict[str, Any]:
    """The names and defaults of a notebook's ``parameters`` cell (papermill's inference)."""
    import papermill as pm

    return {name: p["default"] for name, p in pm.inspect_notebook(str(path)).items()}


# Parameters papermill injects into every run (see :func:`run_notebook`).
RUNNER_PARAMETERS = ("profile", "interactive", "output_dir")


def check_parameters(info: NotebookInfo, parameters: dict[str, Any]) -> None:
    """Refuse parameters the notebook does not declare, naming the ones it does (one line).

    Only names are checked here: whether a value is allowed is the mechanism's business, not a widget's.
    """
    known = notebook_parameters(info.path)
    unknown = sorted(set(parameters) - set(known))
    if unknown:
        listed = ", ".join(f"{k}={v}" for k, v in known.items() if k not in RUNNER_PARAMETERS) or "none besides the runner's"
        raise ValueError(f"{info.notebook} has no parameter {', '.join(repr(u) for u in unknown)}; its parameters: {listed}")


def _kernel_manager_class():
    """A kernel manager over IPC (Unix sockets in the Jupyter runtime directory) whose stderr goes to a log file.

    TCP on localhost makes ipykernel warn "Kernel is running over TCP without encryption", which alarms
    privacy reviewers: IPC sockets are files only this user can open, so nothing is sent over the network.
    The kernel's own stderr (e.g. "KeyboardInterrupt caught in kernel" when a run is stopped) is kept in
    ``kernel.log`` instead of the user's terminal; cell errors still reach the notebook and the summary.
    """
    from jupyter_client.manager import AsyncKernelManager

    class QuietIPCKernelManager(AsyncKernelManager):
        log_path: Path | None = None
        socket_prefixes: list[str] = []  # removed by run_notebook once the kernel is gone
        kernel_pids: list[int] = []  # watched by run_notebook's memory limit
        kernel_cwd: str | None = None  # the notebook's folder: the kernel starts there (no process-wide chdir)

        def __init__(self, **kw: Any) -> None:
            super().__init__(**kw)
            self.transport = "ipc"
            # Socket files go to the (user-only) Jupyter runtime directory under a unique name, never into the
            # notebook's folder (the default "kernel-ipc" is relative to the kernel's cwd).
            import uuid

            from jupyter_core.paths import jupyter_runtime_dir

            runtime = Path(jupyter_runtime_dir())
            if len(str(runtime)) > 80:  # a Unix socket path must stay under ~107 bytes: use a short private dir
                import os
                import tempfile

                runtime = Path(tempfile.gettempdir()) / f"dpwb-ipc-{os.getuid() if hasattr(os, 'getuid') else 0}"
                runtime.mkdir(mode=0o700, exist_ok=True)
            runtime.mkdir(parents=True, exist_ok=True)
            self.ip = str(runtime / f"dpwb-{uuid.uuid4().hex[:12]}")
            QuietIPCKernelManager.socket_prefixes.append(self.ip)

        async def _async_launch_kernel(self, kernel_cmd: list[str], **kw: Any) -> None:
            if QuietIPCKernelManager.kernel_cwd is not None:
                kw["cwd"] = QuietIPCKernelManager.kernel_cwd
            if QuietIPCKernelManager.log_path is not None:
                log = open(QuietIPCKernelManager.log_path, "ab")  # noqa: SIM115 - closed with the kernel process
                kw.setdefault("stderr", log)
                kw.setdefault("stdout", log)
            await super()._async_launch_kernel(kernel_cmd, **kw)
            process = getattr(self.provisioner, "process", None)
            if process is not None:
                QuietIPCKernelManager.kernel_pids.append(process.pid)

    return QuietIPCKernelManager


def _plotly_html(data: dict, div_id: str) -> str:
    import copy

    import plotly.io as pio

    # A width fixed in the notebook (often wider than the page) would cut the legend off: the page's figure takes
    # the width of its cell instead (responsive), keeping the notebook's height.
    data = copy.deepcopy(data)
    layout = data.setdefault("layout", {})
    layout.pop("width", None)
    layout["autosize"] = True
    return pio.to_html(data, include_plotlyjs=False, full_html=False, div_id=div_id, default_width="100%",
                       config={"responsive": True})


# The report page's template: nbconvert's "lab" page with every asset from the environment, none from a CDN.
# require.js and the widget manager are left out: a report page has no kernel, so a widget on it would be a dead
# control (notebook_html keeps its text form instead) and nothing else on the page loads AMD modules. MathJax comes
# from jupyter-server-mathjax's files, copied beside plotly.min.js, and only onto pages that have math; mermaid
# diagrams (none in the project) stay as their source text.
_PAGE_TEMPLATE = """{%- extends 'lab/index.html.j2' -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{% block jupyter_widgets %}{% endblock jupyter_widgets %}
{%- block html_head_js_mathjax -%}
{%- if resources.dpwb_mathjax_url -%}{{ mathjax(resources.dpwb_mathjax_url) }}{%- endif -%}
{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
"""

_MATH_RE = re.compile(r"\$[^$\s][^$]*\$|\\\(|\\\[|\\begin\{")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def notebook_title(nb: dict, default: str) -> str:
    """The notebook's title: its first markdown line without the ``#`` (the same title ``dpworkbench list`` shows)."""
    lines = _markdown_lines(nb)
    title = re.sub(r"[*_`]", "", lines[0].lstrip("#").strip()) if lines else ""
    return title or default


def _has_math(nb) -> bool:
    for cell in nb.cells:
        texts = [cell.source] if cell.cell_type == "markdown" else []
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if "text/latex" in data:
                return True
            texts += [str(data.get("text/markdown", ""))]
        if any(_MATH_RE.search(t) for t in texts):
            return True
    return False


def write_mathjax(static: Path) -> Path:
    """MathJax (from the jupyter-server-mathjax package) under ``static/mathjax`` once; returns its ``MathJax.js``."""
    import shutil

    import jupyter_server_mathjax

    target = Path(static) / "mathjax"
    if not (target / "MathJax.js").exists():
        src = Path(jupyter_server_mathjax.__file__).parent / "static"
        tmp = target.with_name(f".mathjax.{time.time_ns()}.tmp")
        shutil.copytree(src, tmp)
        try:
            tmp.rename(target)  # complete or absent, even with two pages written at once
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)
    return target / "MathJax.js"


def notebook_html(executed: Path, plotlyjs: Path) -> str:
    """The executed notebook as one HTML page whose plotly figures are drawn (nbconvert alone shows nothing for
    them: it cannot render plotly's JSON mimetype). Figures use the shared ``plotlyjs`` file by relative path.

    The page is titled with the notebook's title and loads nothing from the network (:data:`_PAGE_TEMPLATE`): widget
    outputs show their text form, MathJax comes from ``_static/mathjax`` beside ``plotlyjs``."""
    import os

    import jinja2
    import nbformat
    from nbconvert import HTMLExporter

    nb = nbformat.read(str(executed), as_version=4)
    src = Path(os.path.relpath(plotlyjs, executed.parent)).as_posix()
    first, n = True, 0
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            data.pop(WIDGET_VIEW, None)  # no kernel behind the page: the widget's text form, not a dead control
            if "application/vnd.plotly.v1+json" in data:
                n += 1
                fig_html = _plotly_html(data["application/vnd.plotly.v1+json"], f"dpwb-fig-{n}")
                if first:  # the library once, before the first figure (scripts run in document order)
                    fig_html = f'<script src="{src}"></script>\n' + fig_html
                    first = False
                data["text/html"] = fig_html
                del data["application/vnd.plotly.v1+json"]
    nb.metadata["title"] = notebook_title(nb, executed.stem)
    mathjax = ""
    if _has_math(nb):
        js = write_mathjax(Path(plotlyjs).parent)
        mathjax = Path(os.path.relpath(js, executed.parent)).as_posix() + "?config=TeX-AMS-MML_HTMLorMML-full,Safe"
    exporter = HTMLExporter(extra_loaders=[jinja2.DictLoader({"dpwb_page.html.j2": _PAGE_TEMPLATE})],
                            template_file="dpwb_page.html.j2")
    body, _ = exporter.from_notebook_node(nb, resources={"dpwb_mathjax_url": mathjax})
    return body.replace("<head>", f"<head>\n{HTML_MARKER}", 1)


# Marks pages written by :func:`notebook_html`; `dpworkbench report` re-renders pages without it (older runs).
HTML_MARKER = "<!-- dpworkbench notebook page v4: plotly figures drawn, as wide as the page; titled; no CDN -->"


def run_notebook(
    info: NotebookInfo,
    *,
    profile: str,
    output_root: Path,
    parameters: dict[str, Any] | None = None,
    timeout: int | None = 1800,
    html: bool = True,
    max_memory_gb: float | None = None,
    out_dir: Path | None = None,
) -> RunResult:
    """Execute one notebook headlessly with papermill (``interactive=False``).

    The executed ``.ipynb`` and ``.html`` appear only complete (written under a temporary name, then
    renamed); a success removes a previous run's ``error.txt``. A kernel whose resident memory passes ``max_memory_gb``
    is stopped and the run recorded as "memory" (two notebooks side by side must not take the machine down). Ctrl-C
    (KeyboardInterrupt) stops the
    kernel, removes the partial notebook and propagates, so the caller can stop quietly.
    """
    import papermill as pm

    from ..plots import write_plotlyjs
    from .runner import atomic_write_text

    out_dir = Path(out_dir) if out_dir is not None else output_root / info.paper / info.stem
    out_dir.mkdir(parents=True, exist_ok=True)
    overrides = parameter_overrides(info, parameters)
    # before running: an edit made while it runs must not be credited to this run
    version = run_code_version(info, overrides)
    own = {**dict(info.parameters), **overrides}  # the run's parameters, as runs.csv and manifest.json record them
    params = {"profile": profile, "interactive": False, "output_dir": str(out_dir)}
    params.update(own)
    executed = out_dir / f"{info.stem}.ipynb"
    partial = out_dir / f".{info.stem}.partial.ipynb"
    kernel_log = out_dir / "kernel.log"
    kernel_log.unlink(missing_ok=True)
    km_class = _kernel_manager_class()
    km_class.log_path = kernel_log
    # The kernel runs in the notebook's folder. papermill's own `cwd=` would chdir the whole process, which two
    # notebooks run side by side (`--jobs 2`, threads) would race on.
    km_class.kernel_cwd = str(info.path.parent)
    t0 = time.perf_counter()
    status, err = "ok", ""
    watchdog = _MemoryWatch(km_class.kernel_pids, max_memory_gb) if max_memory_gb else None
    try:
        pm.execute_notebook(
            str(info.path),
            str(partial),
            parameters=params,
            kernel_name="python3",
            progress_bar=False,
            execution_timeout=timeout,
            report_mode=False,
            kernel_manager_class=km_class,
        )
    except KeyboardInterrupt:
        partial.unlink(missing_ok=True)
        raise
    except Exception as exc:  # record and continue with the other notebooks
        status = "error"
        err = f"{type(exc).__name__}: {str(exc).strip().splitlines()[-1] if str(exc).strip() else ''}"
        if isinstance(exc, TimeoutError):  # nbclient's CellTimeoutError: a cell ran past `timeout` seconds
            status, err = "timeout", f"a cell ran longer than the {timeout} s limit (finished grid cells are kept for a rerun)"
        atomic_write_text(out_dir / "error.txt", traceback.format_exc())
    finally:
        km_class.log_path = None
        if watchdog is not None:
            watchdog.stop()
            if watchdog.killed_at:  # the kernel died because we stopped it: say so instead of "kernel died"
                status = "memory"
                err = (f"the kernel grew past the {max_memory_gb:g} GB memory limit (at {watchdog.killed_at / 2**30:.1f} GB "
                       "RSS) and was stopped")
        for prefix in km_class.socket_prefixes:  # the kernel has exited: its socket files are litter
            for sock in Path(prefix).parent.glob(Path(prefix).name + "-*"):
                sock.unlink(missing_ok=True)
    if partial.exists():
        import os

        os.replace(partial, executed)
    if status == "ok":  # a stale failure must not outlive a successful rerun
        for stale in ("error.txt", "html-error.txt"):
            (out_dir / stale).unlink(missing_ok=True)
        _record_parameters(out_dir / "manifest.json", profile, own, overrides, version)
    if kernel_log.exists() and (status == "ok" or kernel_log.stat().st_size == 0):
        kernel_log.unlink()
    secs = time.perf_counter() - t0
    if html and executed.exists():
        try:
            # <root>/<paper>/<stem>/: the same shared file NotebookContext.save_figure uses
            js = write_plotlyjs(out_dir.parent.parent / "_static" / "plotly.min.js")
            atomic_write_text(out_dir / f"{info.stem}.html", notebook_html(executed, js))
        except Exception as exc:  # noqa: BLE001 - HTML is a convenience; never fail the run for it
            atomic_write_text(out_dir / "html-error.txt", f"{type(exc).__name__}: {exc}")
    return RunResult(info.name, status, secs, out_dir, err, code_version=version, commit=git_commit(),
                     finished=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), parameters=parameters_json(own))


def _record_parameters(manifest: Path, profile: str, parameters: dict, overrides: dict, version: str) -> None:
    """Add the run's parameters to the ``manifest.json`` its notebook wrote (the kernel does not know which of its
    values came from ``-p``): ``parameters`` (all), ``overrides`` (those not the profile's) and ``code_version``."""
    from .runner import atomic_write_text

    data: dict = {}
    if manifest.exists():  # a notebook without NotebookContext.finish() writes none: the runner's record stands alone
        try:
            data = json.loads(manifest.read_text())
        except ValueError:
            data = {}
    data.update({"profile": profile, "parameters": json.loads(parameters_json(parameters)),
                 "overrides": json.loads(parameters_json(overrides)), "code_version": version})
    atomic_write_text(manifest, json.dumps(data, indent=2))


class _MemoryWatch:
    """Polls the kernels' resident memory every second; kills a kernel that passes ``limit_gb``."""

    def __init__(self, pids: list[int], limit_gb: float):
        import threading

        self.pids, self.limit = pids, float(limit_gb) * 2**30
        self.killed_at = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True, name="kernel-memory")
        self._thread.start()

    def _watch(self) -> None:
        import psutil

        while not self._stop.wait(1.0):
            for pid in list(self.pids):
                try:
                    rss = psutil.Process(pid).memory_info().rss
                    if rss > self.limit:
                        self.killed_at = rss
                        psutil.Process(pid).kill()
                except psutil.Error:
                    continue

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


def kept_run(info: NotebookInfo, output_root: Path, previous: dict[str, dict]) -> RunResult | None:
    """The earlier run of ``info`` that ``reproduce --resume`` keeps: finished "ok" with the same
    :func:`run_code_version`, its executed notebook still there, and run with the profile's parameters (the row's
    ``parameters`` equal the run's own; a row that does not record them is not kept). ``previous`` maps run names to
    ``runs.csv`` rows."""
    row = previous.get(info.name)
    out_dir = output_root / info.paper / info.stem
    if not row or row.get("status") != "ok" or not (out_dir / f"{info.stem}.ipynb").exists():
        return None
    if str(row.get("parameters")) != parameters_json(info.parameters):
        return None
    if str(row.get("code_version") or "") != run_code_version(info):
        return None
    return RunResult(info.name, "ok", float(row.get("seconds") or 0.0), out_dir, "", code_version=str(row["code_version"]),
                     commit=str(row.get("commit") or ""), finished=str(row.get("finished") or ""), kept=True,
                     parameters=parameters_json(info.parameters))


def run_many(
    infos: Iterable[NotebookInfo], *, profile: str, output_root: Path, parameters: dict[str, Any] | None = None,
    progress: bool = True, timeout: int | None = 1800, resume: bool = False, on_result=None, jobs: int = 1,
    max_memory_gb: float | None = None,
) -> list[RunResult]:
    """Run notebooks one after another, printing one line per notebook as it finishes.

    ``resume`` keeps earlier runs that :func:`kept_run` accepts (from ``output_root/runs.csv``) instead of running them
    again. ``on_result(result)`` is called after each notebook (``reproduce`` writes ``runs.csv`` there, so a stopped
    or crashed run loses at most the notebook in progress). ``timeout`` is the limit per cell, in seconds.
    ``jobs`` > 1 runs that many notebooks side by side (one kernel each), longest first by their last ``runs.csv``
    time, and returns the results in the order given.
    On Ctrl-C the notebook in progress is dropped (no partial file) and :class:`RunInterrupted` carries the
    results of the finished ones.
    """
    infos = list(infos)
    results: list[RunResult] = []
    width = len(str(len(infos)))
    import sys

    previous: dict[str, dict] = {}
    if (resume or jobs > 1) and (Path(output_root) / "runs.csv").exists():
        import pandas as pd

        runs = pd.read_csv(Path(output_root) / "runs.csv", dtype={"code_version": str, "commit": str, "parameters": str})
        previous = {r["notebook"]: r for r in runs.to_dict("records")}
    if jobs > 1:
        return _run_parallel(infos, jobs, previous, profile=profile, output_root=output_root, parameters=parameters,
                             progress=progress, timeout=timeout, resume=resume, on_result=on_result,
                             max_memory_gb=max_memory_gb)
    live = progress and sys.stdout.isatty()  # on a terminal, a transient "running" line that the result overwrites
    for k, info in enumerate(infos, 1):
        r = kept_run(info, output_root, previous) if resume else None
        if r is None:
            if live:
                print(f"[{k:>{width}}/{len(infos)}] running       {info.name} …", end="\r", flush=True)
            try:
                r = run_notebook(info, profile=profile, output_root=output_root, parameters=parameters, timeout=timeout,
                                 max_memory_gb=max_memory_gb)
            except KeyboardInterrupt:
                if live:
                    print("\x1b[2K", end="\r", flush=True)  # clear the transient line
                raise RunInterrupted(results, info.name) from None
        results.append(r)
        if on_result is not None:
            on_result(r)
        if progress:
            print(("\x1b[2K" if live else "") + _result_line(k, len(infos), r), flush=True)
    return results


def _result_line(k: int, n: int, r: RunResult) -> str:
    """``[k/n] status seconds name`` (+ the error, or where a kept run came from): one line per notebook."""
    line = f"[{k:>{len(str(n))}}/{n}] {'kept' if r.kept else r.status:7s} {r.seconds:8.1f}s  {r.name}"
    if r.error:
        line += f"  — {r.error}"
    if r.kept:
        line += f"  (finished {r.finished} at {r.commit}; unchanged since)"
    return line


def _run_parallel(infos: list[NotebookInfo], jobs: int, previous: dict[str, dict], *, profile, output_root, parameters,
                  progress, timeout, resume, on_result, max_memory_gb) -> list[RunResult]:
    """``run_many`` with ``jobs`` notebooks at a time. Each notebook is its own kernel process, so threads only wait.

    Longest-first (by the last recorded time; never-run notebooks first, as they may be long) keeps the two lanes
    even. ``on_result`` and the progress lines run in this thread, one at a time.
    """
    from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

    results: dict[str, RunResult] = {}
    todo, kept = [], []
    for info in infos:
        earlier = kept_run(info, output_root, previous) if resume else None
        (todo if earlier is None else kept).append(earlier or info)

    estimates = dict(previous)
    import pandas as pd

    for other in sorted(Path(output_root).parent.glob("*/runs.csv")):  # never run in this profile: another's time
        for row in pd.read_csv(other).to_dict("records"):                # orders it (roughly) as well
            estimates.setdefault(row["notebook"], row)

    def last_seconds(info: NotebookInfo) -> float:
        v = estimates.get(info.name, {}).get("seconds")
        try:
            return float(v) if v is not None and v == v else float("inf")
        except (TypeError, ValueError):
            return float("inf")

    todo.sort(key=last_seconds, reverse=True)

    def report(r: RunResult) -> None:
        results[r.name] = r
        if on_result is not None:
            on_result(r)
        if progress:
            print(_result_line(len(results), len(infos), r), flush=True)

    for r in kept:
        report(r)
    pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="notebook")
    running: dict = {}
    try:
        queue = list(todo)
        while queue or running:
            while queue and len(running) < jobs:
                info = queue.pop(0)
                running[pool.submit(run_notebook, info, profile=profile, output_root=output_root, parameters=parameters,
                                    timeout=timeout, max_memory_gb=max_memory_gb)] = info
            done, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for fut in done:
                running.pop(fut)
                report(fut.result())
    except KeyboardInterrupt:  # the kernels got the terminal's SIGINT too: their notebooks end as errors, not kept
        pool.shutdown(wait=False, cancel_futures=True)
        raise RunInterrupted([results[i.name] for i in infos if i.name in results],
                             ", ".join(i.name for i in running.values()) or "(between notebooks)") from None
    pool.shutdown(wait=True)
    return [results[i.name] for i in infos]


class RunInterrupted(Exception):
    """Ctrl-C during :func:`run_many`: ``results`` of the notebooks that finished, ``current`` the one dropped."""

    def __init__(self, results: list[RunResult], current: str):
        super().__init__(f"interrupted during {current}")
        self.results = results
        self.current = current



def _module_imports(path: Path, module: str) -> set[str]:
    """The ``dpworkbench`` modules a source file imports (anywhere in it, including inside functions)."""
    import ast

    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError):
        return set()
    pkg = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "dpworkbench"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "dpworkbench":
                continue
            found.add(target)
            found |= {f"{target}.{a.name}" for a in node.names}  # `from pkg import module` imports a module
    return found


def _package_files() -> dict[str, Path]:
    root = project_root() / "dpworkbench"
    files = {}
    for f in sorted(root.rglob("*.py")):
        rel = f.relative_to(root.parent).with_suffix("")
        parts = list(rel.parts[:-1]) if rel.name == "__init__" else list(rel.parts)
        files[".".join(parts)] = f
    return files


def _notebook_source(info: NotebookInfo) -> bytes:
    py = info.path.with_suffix(".py")
    return (py if py.exists() else info.path).read_bytes()


def run_code_version(info: NotebookInfo, overrides: dict[str, Any] | None = None) -> str:
    """A hash of everything that decides a run's output: the notebook, its manifest parameters and any ``-p``
    ``overrides``, the package code it can reach, and the data directory.

    ``reproduce --resume`` keeps a finished run only when this is unchanged. The package part is every module in the
    static import closure of the notebook's ``dpworkbench`` imports (imports inside functions included): papers know
    no other paper (the import contract), so an edit in ``r2t`` does not void a finished ``dampening`` run, and an edit
    of the runner or the report (which no kernel imports) voids none, while an edit in a core the notebook uses voids
    it. Modules loaded by name at run time are not seen; the datasets registry loads only the paper's own module.
    """
    files = _package_files()
    todo: list[str] = []
    src = _notebook_source(info)
    import ast

    try:
        nb_tree = ast.parse(src.decode("utf-8"))
        for node in ast.walk(nb_tree):
            if isinstance(node, ast.Import):
                todo += [a.name for a in node.names if a.name.split(".")[0] == "dpworkbench"]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "dpworkbench":
                todo += [node.module] + [f"{node.module}.{a.name}" for a in node.names]
    except (SyntaxError, UnicodeDecodeError):
        todo += list(files)  # cannot tell: depend on everything
    reached: set[str] = set()
    while todo:
        m = todo.pop()
        while m and m not in files and "." in m:  # `from a.b import name`: name is not a module, a.b is
            m = m.rpartition(".")[0]
        if m in reached or m not in files:
            continue
        reached.add(m)
        parts = m.split(".")
        todo += [".".join(parts[:k]) for k in range(1, len(parts))]  # importing a.b.c runs a/__init__, a/b/__init__
        todo += sorted(_module_imports(files[m], m))
    h = hashlib.sha256(src)
    h.update(json.dumps(info.parameters, sort_keys=True, default=str).encode())
    if overrides:  # a parameterised run never shares a version with the profile's run (empty: as before)
        h.update(("overrides:" + parameters_json(overrides)).encode())
    from ..paths import data_dir  # another DPWB_DATA may hold other (real or absent) files

    data = data_dir()
    h.update(str(Path(data).resolve() if data else "no data directory").encode())
    for m in sorted(reached):
        h.update(m.encode())
        h.update(files[m].read_bytes())
    return h.hexdigest()[:12]


def git_commit() -> str:
    """The project's commit (``<sha>+dirty`` with uncommitted changes; ``""`` outside git)."""
    import subprocess

    try:
        sha = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=project_root(), capture_output=True, text=True,
                             timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "dpworkbench", "notebooks"], cwd=project_root(),
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
    return sha + ("+dirty" if sha and dirty else "")
