"""Issue 24: a claim whose verdict flips across 3 seeds is marked unstable in claims.csv and in the report."""

from __future__ import annotations

import dataclasses
import json

import pandas as pd
import pytest

from dpworkbench.experiments.claims import Claims, at_least, close
from dpworkbench.experiments.report_stability import (base_seed, has_seed, run_stability, stability_root, stability_table,
                                                      write_stability)


def _write(d, claims: Claims) -> None:
    d.mkdir(parents=True, exist_ok=True)
    (d / "claims.json").write_text(json.dumps([dataclasses.asdict(c) for c in claims.rows]))


def _claims(noisy: float) -> Claims:
    c = Claims()
    # a claim near its bound flips with the seed's noise; a claim far from it does not
    c.add("noisy", paper=1.0, ours=noisy, rule=close(1.0, rtol=0.1), source="paper", cause="noise:SE 0.05")
    c.add("steady", paper="≥ 0", ours=5.0, rule=at_least(0.0), source="check", cause="open:?")
    return c


def _info():
    from dpworkbench.experiments.nbtools import discover_notebooks

    return next(i for i in discover_notebooks() if i.kind == "reproduction" and has_seed(i))


def test_a_claim_that_flips_across_seeds_is_marked_unstable_in_claims_csv_and_the_report(tmp_path):
    from dpworkbench.experiments.report import build_report

    info = _info()
    profile = tmp_path / "quick"
    _write(profile / info.paper / info.stem, _claims(1.05))  # seed s: pass
    root = stability_root(profile)
    assert root == tmp_path / "stability" / "quick"  # outside the profile: its datasets and figures stay out of the report
    _write(root / "seed+1" / info.paper / info.stem, _claims(1.2))  # seed s+1: differs
    _write(root / "seed+2" / info.paper / info.stem, _claims(0.95))  # seed s+2: pass
    table = stability_table(profile).set_index("claim")
    assert table.loc["noisy", "verdicts"] == "s+0:pass s+1:differs s+2:pass" and bool(table.loc["noisy", "unstable"])
    assert table.loc["steady", "seeds"] == 3 and not bool(table.loc["steady", "unstable"])
    page = build_report(profile, "quick").read_text()
    csv = pd.read_csv(profile / "claims.csv").set_index("claim")
    checks = pd.read_csv(profile / "checks.csv").set_index("claim")  # the check is listed apart (issue 24)
    assert csv.loc["noisy", "unstable"] == "yes" and checks.loc["steady", "unstable"] == "no"
    assert "<b>1</b> of 2 claims rerun on 3 seeds flip their verdict" in page and "1 of them paper claims" in page
    # the headline's tally (issue 24): the share of passes from the paper, the open causes
    assert ("1 of the 1 passes in claims.csv (100%) test a number the paper prints (1 of 2, 50%, with the checks); "
            "<b>0</b> non-passes have an open cause") in page
    row = next(line for line in page.splitlines() if "<td>noisy</td>" in line)
    assert "class='unstable'" in row
    assert "class='unstable'" not in next(line for line in page.splitlines() if "<td>steady</td>" in line)


def test_without_stability_runs_the_column_is_empty_and_the_report_says_so(tmp_path):
    from dpworkbench.experiments.report import build_report

    info = _info()
    _write(tmp_path / "ci" / info.paper / info.stem, _claims(1.0))
    page = build_report(tmp_path / "ci", "ci").read_text()
    assert pd.read_csv(tmp_path / "ci" / "claims.csv")["unstable"].isna().all()
    assert "No claim was rerun on other seeds" in page


def test_run_stability_reruns_with_seeds_s_plus_1_and_s_plus_2(tmp_path, monkeypatch):
    """The runner passes seed s + k to the notebook and files each run under seed+k; a claim whose value depends on
    the seed flips, one that does not stays stable (the notebook run itself is replaced: its cost is the profile's)."""
    from dpworkbench.experiments import nbtools

    info = _info()
    s = base_seed(info)
    seen = []

    class Result:
        status, seconds = "ok", 0.0

    def fake_run(nb, *, profile, output_root, parameters, out_dir, **kw):
        seen.append((nb.name, profile, parameters["seed"], out_dir.relative_to(tmp_path).as_posix()))
        _write(out_dir, _claims(1.0 + 0.15 * (parameters["seed"] - s)))  # s: 1.0 pass, s+1: 1.15 differs, s+2: 1.3 differs
        return Result()

    monkeypatch.setattr(nbtools, "run_notebook", fake_run)
    _write(tmp_path / "ci" / info.paper / info.stem, _claims(1.0))
    table = run_stability("ci", only=f"^{info.name}$", reports=tmp_path, progress=False).set_index("claim")
    assert seen == [(info.name, "ci", s + k, f"stability/ci/seed+{k}/{info.paper}/{info.stem}") for k in (1, 2)]
    assert bool(table.loc["noisy", "unstable"]) and not bool(table.loc["steady", "unstable"])
    assert (tmp_path / "stability" / "ci" / "stability.csv").exists()
    with pytest.raises(ValueError, match="at least 2"):
        run_stability("ci", only=info.name, reports=tmp_path, seeds=1)
    assert write_stability(tmp_path / "quick").empty  # no reruns: nothing to compare


def test_a_seed_s_run_of_one_notebook_does_not_hide_the_profile_runs_of_the_others(tmp_path):
    """The stability folder runs seed s itself for a notebook that had no profile run; the other notebooks' seed s
    still comes from the profile's run (a bug once compared them on seeds s+1, s+2 only)."""
    from dpworkbench.experiments.nbtools import discover_notebooks

    a, b = [i for i in discover_notebooks() if i.kind == "reproduction"][:2]
    profile, root = tmp_path / "quick", stability_root(tmp_path / "quick")
    _write(profile / a.paper / a.stem, _claims(1.05))  # a: profile run at s
    for k, v in ((1, 1.05), (2, 1.05)):
        _write(root / f"seed+{k}" / a.paper / a.stem, _claims(v))
    for k, v in ((0, 1.3), (1, 1.05), (2, 1.05)):  # b: no profile run, seed s run in the stability folder
        _write(root / f"seed+{k}" / b.paper / b.stem, _claims(v))
    t = stability_table(profile).set_index(["notebook", "claim"])
    assert t.loc[(a.name, "noisy"), "verdicts"] == "s+0:pass s+1:pass s+2:pass"
    assert t.loc[(b.name, "noisy"), "verdicts"] == "s+0:differs s+1:pass s+2:pass" and bool(t.loc[(b.name, "noisy"), "unstable"])
