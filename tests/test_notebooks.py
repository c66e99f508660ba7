"""Every run (every notebook, or each of its notebooks/manifest.toml entries) executes headlessly in the
ci profile (papermill, interactive=False) and writes its outputs under its run name."""

from __future__ import annotations

import json

import pytest

from dpworkbench.experiments.nbtools import discover_notebooks, run_notebook

from claims_flip import claim_flip_problems

NOTEBOOKS = discover_notebooks()


@pytest.mark.notebook
@pytest.mark.timeout(900)
@pytest.mark.parametrize("info", NOTEBOOKS, ids=[i.name for i in NOTEBOOKS])
def test_notebook_executes_in_ci_profile(info, tmp_path):
    res = run_notebook(info, profile="ci", output_root=tmp_path, html=False)
    err = (res.output_dir / "error.txt")
    assert res.status == "ok", err.read_text()[-4000:] if err.exists() else res.error
    if info.kind == "reproduction" or info.paper == "mechanisms":
        claims = json.loads((res.output_dir / "claims.json").read_text())
        assert claims, f"{info.name} wrote no claims"
        # Issue 13: every claim must be able to come out "differs" (tests/claims_flip.py).
        problems = claim_flip_problems(claims, info.name)
        assert not problems, f"{info.name}: claims that cannot fail or would fail without a cause:\n" + "\n".join(problems)
        manifest = json.loads((res.output_dir / "manifest.json").read_text())
        assert manifest["name"] == info.name, f"{info.path.name} run as {info.name} names its outputs {manifest['name']!r}"
        assert manifest["figures"], f"{info.name} saved no figure"
        for f in manifest["figures"]:
            assert (res.output_dir / f["html"]).stat().st_size > 1000
