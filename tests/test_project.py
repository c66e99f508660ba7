"""Project hygiene: the set-up contract of the README, pins mirrored for conda."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_environment_yml_mirrors_pyproject():
    spec = importlib.util.spec_from_file_location("sync_environment", ROOT / "tools" / "sync_environment.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert (ROOT / "environment.yml").read_text() == mod.render(), "run tools/sync_environment.py"


def test_readme_has_exactly_two_setup_commands():
    text = (ROOT / "README.md").read_text()
    setup = text.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```bash\n(.*?)```", setup, flags=re.S)
    commands = [ln.split("#")[0].strip() for b in blocks for ln in b.splitlines() if ln.split("#")[0].strip()]
    assert commands == ["make reproduce", "make test"]


def test_ci_runs_make_test_and_makefile_targets():
    ci = (ROOT / ".ci" / "run").read_text()
    assert [ln for ln in ci.splitlines() if ln and not ln.startswith("#") and not ln.startswith("set ") and not ln.startswith("cd ")] == ["make test"]
    mk = (ROOT / "Makefile").read_text()
    for target in ("reproduce:", "test:", "bench:"):
        assert target in mk


def test_every_pin_is_exact():
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    for dep in data["project"]["dependencies"] + data["project"]["optional-dependencies"]["dev"]:
        assert "==" in dep, f"unpinned dependency {dep}"
