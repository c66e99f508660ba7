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
    shows as a short message; the details stay in the server log).
    """
    target = str(notebook) if notebook is not None else str(notebooks_dir())
    cmd = [sys.executable, "-m", "voila", target, f"--port={port}", f"--Voila.ip={ip}",
           "--strip_sources=True", "--show_tracebacks=False"]
    if not open_browser:
        cmd.append("--no-browser")
    return cmd + list(extra or [])


def teach_environment() -> dict[str, str]:
    """The app's environment: PNG export off (a class does not need report files; it keeps the app fast)."""
    return {**os.environ, "DPWB_NO_PNG": os.environ.get("DPWB_NO_PNG", "1")}


__all__ = ["resolve_teaching_notebook", "teach_environment", "teaching_notebooks", "voila_command"]
