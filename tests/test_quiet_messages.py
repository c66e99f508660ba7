"""What users read is plain: no "(spec §...)" references inside warning messages (they belong in comments)."""

from __future__ import annotations

import ast
from pathlib import Path

import dpworkbench


def _warning_texts(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "warn" and node.args:
            parts = [n.value for n in ast.walk(node.args[0]) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
            yield node.lineno, "".join(parts)


def test_no_spec_references_in_user_warnings():
    root = Path(dpworkbench.__file__).parent
    found = [f"{p.relative_to(root)}:{line}: {text[:80]}" for p in sorted(root.rglob("*.py"))
             for line, text in _warning_texts(p) if "spec §" in text or "(spec" in text]
    assert not found, "warnings that cite the spec (move the reference to a comment):\n" + "\n".join(found)


def test_the_scan_sees_spec_references(tmp_path):
    bad = tmp_path / "m.py"
    bad.write_text('import warnings\nwarnings.warn(f"x is odd (spec §7 item 8)")\n')
    assert [t for _, t in _warning_texts(bad) if "spec §" in t]
