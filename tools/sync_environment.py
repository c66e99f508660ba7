"""Regenerate environment.yml from the pins in pyproject.toml (the source of truth).

Run: .venv/bin/python tools/sync_environment.py   (tests/foundation checks they agree)
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def render() -> str:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    deps = data["project"]["dependencies"] + data["project"]["optional-dependencies"]["dev"]
    lines = [
        "# Mirrors the pins of pyproject.toml (the source of truth) for conda users.",
        "# `make reproduce` / `make test` do not need conda: they build .venv with pip.",
        "# Regenerate with: .venv/bin/python tools/sync_environment.py",
        "name: dpworkbench",
        "channels:",
        "  - conda-forge",
        "dependencies:",
        "  - python=3.11",
        "  - pip",
        "  - make",
        "  - pip:",
        *[f"      - {d}" for d in deps],
        "      - -e .",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    (ROOT / "environment.yml").write_text(render())
    print("wrote environment.yml")
