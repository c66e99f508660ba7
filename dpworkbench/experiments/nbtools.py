"""Notebook discovery, description, creation and headless execution (papermill)."""

from __future__ import annotations

import json
import re
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..paths import project_root

PAPERS = ("mechanisms", "inconsistency", "r2t", "privateclean", "dampening")
NAME_RE = re.compile(r"^((fig|tab)\d{2}(_(fig|tab)\d{2})*_[a-z0-9_]+|learn_[a-z0-9_]+|index)\.ipynb$")


def notebooks_dir() -> Path:
    return project_root() / "notebooks"


@dataclass(frozen=True)
class NotebookInfo:
    path: Path
    paper: str
    stem: str
    title: str
    description: str

    @property
    def name(self) -> str:
        return f"{self.paper}/{self.stem}"

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


def discover_notebooks(only: str | None = None) -> list[NotebookInfo]:
    """All notebooks under ``notebooks/<paper>/`` (sorted by paper order, then name)."""
    root = notebooks_dir()
    found = []
    for p in sorted(root.glob("*/*.ipynb")):
        if ".ipynb_checkpoints" in p.parts:
            continue
        info = describe_notebook(p)
        if only and not re.search(only, info.name):
            continue
        found.append(info)
    order = {p: i for i, p in enumerate(PAPERS)}
    return sorted(found, key=lambda i: (order.get(i.paper, 99), i.kind != "reproduction", i.stem))


def new_notebook(cells: Sequence[tuple[str, str]]) -> dict:
    """Build notebook JSON from (kind, source) pairs; kind is "md", "code" or "params"."""
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


def write_notebook(path: str | Path, cells: Sequence[tuple[str, str]]) -> Path:
    """Write a clean notebook (no outputs) with exactly one ``parameters`` cell."""
    import nbformat

    nb = new_notebook(cells)
    tagged = sum("parameters" in c.metadata.get("tags", []) for c in nb.cells)
    if tagged != 1:
        raise ValueError(f"a notebook needs exactly one parameters cell, got {tagged}")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(path))
    return path


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
