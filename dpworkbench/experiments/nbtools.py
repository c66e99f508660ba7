"""Notebook discovery, the run manifest, and headless execution (papermill).

Notebooks are stored as jupytext pairs (``<stem>.ipynb`` + ``<stem>.py`` in the percent format,
both without outputs) and edited by hand, in JupyterLab or an editor. What ``dpworkbench reproduce``
runs is a list of *runs*: one per notebook, except where ``notebooks/manifest.toml`` lists several
(notebook × parameters × output name, e.g. Figs. 4 and 5 of the inconsistency paper from one notebook).
"""

from __future__ import annotations

import dataclasses
import json
import re
import time
import tomllib
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..paths import project_root

PAPERS = ("mechanisms", "inconsistency", "r2t", "privateclean", "dampening")
NAME_RE = re.compile(r"^((fig|tab)\d{2}(_(fig|tab)\d{2})*_[a-z0-9_]+|learn_[a-z0-9_]+|index)\.ipynb$")


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
    order = {p: i for i, p in enumerate(PAPERS)}
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
    status: str  # "ok" or "error"
    seconds: float
    output_dir: Path
    error: str = ""


def run_notebook(
    info: NotebookInfo,
    *,
    profile: str,
    output_root: Path,
    parameters: dict[str, Any] | None = None,
    timeout: int | None = 1800,
    html: bool = True,
) -> RunResult:
    """Execute one notebook headlessly with papermill (``interactive=False``)."""
    import papermill as pm

    out_dir = output_root / info.paper / info.stem
    out_dir.mkdir(parents=True, exist_ok=True)
    params = {"profile": profile, "interactive": False, "output_dir": str(out_dir)}
    params.update(dict(info.parameters))
    params.update(parameters or {})
    executed = out_dir / f"{info.stem}.ipynb"
    t0 = time.perf_counter()
    status, err = "ok", ""
    try:
        pm.execute_notebook(
            str(info.path),
            str(executed),
            parameters=params,
            kernel_name="python3",
            cwd=str(info.path.parent),
            progress_bar=False,
            execution_timeout=timeout,
            report_mode=False,
        )
    except Exception as exc:  # record and continue with the other notebooks
        status = "error"
        err = f"{type(exc).__name__}: {str(exc).strip().splitlines()[-1] if str(exc).strip() else ''}"
        (out_dir / "error.txt").write_text(traceback.format_exc())
    secs = time.perf_counter() - t0
    if html and executed.exists():
        try:
            from nbconvert import HTMLExporter

            body, _ = HTMLExporter().from_filename(str(executed))
            (out_dir / f"{info.stem}.html").write_text(body)
        except Exception as exc:  # HTML is a convenience; never fail the run for it
            (out_dir / "html-error.txt").write_text(str(exc))
    return RunResult(info.name, status, secs, out_dir, err)


def run_many(
    infos: Iterable[NotebookInfo], *, profile: str, output_root: Path, parameters: dict[str, Any] | None = None, progress: bool = True
) -> list[RunResult]:
    from tqdm.auto import tqdm

    infos = list(infos)
    results = []
    for info in tqdm(infos, desc=f"notebooks ({profile})", disable=not progress):
        r = run_notebook(info, profile=profile, output_root=output_root, parameters=parameters)
        print(f"  {r.status:5s} {r.seconds:7.1f}s  {r.name}" + (f"  — {r.error}" if r.error else ""), flush=True)
        results.append(r)
    return results
