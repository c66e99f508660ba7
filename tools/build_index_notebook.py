"""Writes notebooks/index.ipynb, the landing notebook (clean, no outputs).

Run: .venv/bin/python tools/build_index_notebook.py  (re-run whenever notebooks are added;
``tests/test_report_gallery.py`` fails when the index misses a notebook).

The notebook lists every notebook found by ``discover_notebooks()``, grouped by paper,
one line each; its one code cell shows the figure thumbnails of the latest report
(``reports/<profile>/<paper>/<stem>/figures/*.png``) and says so when there is none.
"""

from __future__ import annotations

import sys
from pathlib import Path

from dpworkbench.experiments.nbtools import discover_notebooks, notebooks_dir, write_notebook
from dpworkbench.experiments.report import PAPER_TITLES, WORKS, WORKS_INTRO, gallery_markdown


def index_cells() -> list[tuple[str, str]]:
    infos = discover_notebooks()
    works = "\n".join(f"- **{PAPER_TITLES[p]}** — {WORKS[p]}" for p in WORKS)
    n_teach = sum(i.kind == "teaching" for i in infos)
    cells: list[tuple[str, str]] = [
        ("md", f"""# dpworkbench — start here: the notebook gallery
Landing notebook for all four works (no paper figure or table of its own: it links the notebooks that reproduce them).
Data: none — it lists `notebooks/` and shows thumbnails from the latest `reports/` run, if any (real or synthetic as each notebook says).

{WORKS_INTRO}

{works}

Below: {len(infos)} notebooks ({n_teach} teaching notebooks marked 🎓), grouped by paper. Open one, then *Run → Run All Cells*;
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
.venv/bin/dpworkbench list                       # every notebook, one line each
.venv/bin/dpworkbench run notebooks/mechanisms/learn_sparse_vector.ipynb -p epsilon 0.5
make reproduce                                   # all notebooks, quick profile -> reports/quick/index.html
```"""),
    ]
    return cells


def main() -> int:
    path = write_notebook(notebooks_dir() / "index.ipynb", index_cells())
    print(f"wrote {path} ({len(discover_notebooks())} notebooks listed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
