"""The landing notebook ``notebooks/index.ipynb`` (+ its pair ``index.py``), generated from the run list.

Every other notebook is edited by hand (a jupytext pair); the index is the one exception because its
gallery lists every notebook: ``dpworkbench index`` rewrites the pair from :func:`index_cells`
(``tests/test_report_gallery.py`` fails when the committed index is stale), and ``dpworkbench index
--check`` only reports. To change its text, edit :func:`index_cells`.

The notebook lists every notebook found by ``discover_notebooks()``, grouped by paper, one line each;
its one code cell shows the figure thumbnails of the latest report
(``reports/<profile>/<paper>/<run>/figures/*.png``) and says so when there is none.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .nbtools import PAIRED_FORMATS, discover_notebooks, new_notebook, notebooks_dir
from .report import PAPER_TITLES, WORKS, WORKS_INTRO, gallery_markdown


def index_path() -> Path:
    return notebooks_dir() / "index.ipynb"


def index_cells() -> list[tuple[str, str]]:
    """(kind, source) cells of the landing notebook; kind is "md", "code" or "params"."""
    infos = discover_notebooks()
    works = "\n".join(f"- **{PAPER_TITLES[p]}** — {WORKS[p]}" for p in WORKS)
    n_files = len({i.path for i in infos})
    n_teach = len({i.path for i in infos if i.kind == "teaching"})
    cells: list[tuple[str, str]] = [
        ("md", f"""# dpworkbench — start here: the notebook gallery
Landing notebook for all four works (no paper figure or table of its own: it links the notebooks that reproduce them).
Data: none — it lists `notebooks/` and shows thumbnails from the latest `reports/` run, if any (real or synthetic as each notebook says).

{WORKS_INTRO}

{works}

Below: {n_files} notebooks ({n_teach} teaching notebooks marked 🎓), grouped by paper. Open one, then *Run → Run All Cells*;
teaching notebooks show widgets (move the ε slider, the figure redraws)."""),
        ("params", '''profile = "quick"      # whose report the thumbnails come from first: ci | quick | paper
seed = 0
interactive = True'''),
    ]
    cells += [("md", text) for _paper, text in gallery_markdown(infos)]
    cells += [
        ("md", "## Figure thumbnails from the latest report\nRun the cell below (it only reads `reports/`; `make reproduce` writes them)."),
        ("code", '''from dpworkbench.experiments.report import notebook_gallery

notebook_gallery(prefer=profile)'''),
        ("md", """## Headless use
Every notebook also runs without a browser, with papermill (`interactive = False` still emits every figure):

```bash
.venv/bin/dpworkbench list                       # every run, one line each
.venv/bin/dpworkbench run notebooks/mechanisms/learn_sparse_vector.ipynb -p epsilon 0.5
make reproduce                                   # all runs, quick profile -> reports/quick/index.html
```"""),
    ]
    return cells


def _sources(nb) -> list[tuple[str, str]]:
    return [(c.cell_type, c.source.strip("\n")) for c in nb.cells]


def index_is_current(path: Path | None = None) -> bool:
    """True when the committed index (both files of the pair) has the cells :func:`index_cells` makes."""
    import jupytext

    path = index_path() if path is None else Path(path)
    expected = _sources(new_notebook(index_cells()))
    pair = [path, path.with_suffix(".py")]
    return all(p.exists() and _sources(jupytext.read(p)) == expected for p in pair)


def write_index_notebook(path: Path | None = None) -> Path:
    """Write ``index.ipynb`` and its pair ``index.py`` (clean, no outputs, paired metadata)."""
    import jupytext

    path = index_path() if path is None else Path(path)
    nb = new_notebook(index_cells())
    nb.metadata["jupytext"] = {"formats": PAIRED_FORMATS}
    jupytext.write(nb, path, fmt="ipynb")
    jupytext.write(nb, path.with_suffix(".py"), fmt="py:percent")
    return path


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--check" in argv:
        ok = index_is_current()
        print("notebooks/index.ipynb is current" if ok else "notebooks/index.ipynb is stale: run `dpworkbench index`")
        return 0 if ok else 1
    path = write_index_notebook()
    print(f"wrote {path} and {path.with_suffix('.py').name} ({len({i.path for i in discover_notebooks()})} notebooks listed)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
