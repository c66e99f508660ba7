"""The privacy harness on the local-dampening CLI subcommands (the API releases are declarations: their entries are
derived and run by tests/privacy/test_harness_declared.py), plus the INSTALLED ``dpworkbench dampening`` command driven as a user would (subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dpworkbench.dampening.harness import entry_points
from dpworkbench.testing.harness import check_entry_point

ENTRIES = entry_points()


def test_every_release_function_and_subcommand_has_an_entry():
    """The API releases are declarations (their entries derived, run by test_harness_declared.py); the
    subcommands are here."""
    from dpworkbench.privacy_harness import declared_entry_points

    declared = declared_entry_points("dampening")
    names = " ".join(e.name for e in ENTRIES + declared)
    for f in ["dampening.local_dampening", "dampening.shifted_local_dampening"] + [
            f"dampening.{a}_{m}" for a in ("median", "percentile", "priv_top_k", "priv_top_k_graph")
            for m in ("em", "pf", "ld", "sld")] + [f"dampening.id3_{m}" for m in ("global", "local", "shifted")] + [
            "dpworkbench dampening median", "dpworkbench dampening percentile", "dpworkbench dampening topk"]:
        assert f in names, f
    assert all(e.relation and e.claimed_epsilon > 0 and e.public_inputs for e in ENTRIES + declared)


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_harness_dampening(entry, tmp_path, monkeypatch):
    monkeypatch.setenv("DPWB_CACHE", str(tmp_path))   # the topk CLI caches EBC on disk
    rep = check_entry_point(entry)
    assert rep.flagged == entry.expect_flagged, str(rep)


BIN = Path(sys.executable).with_name("dpworkbench")


def _installed(*argv) -> subprocess.CompletedProcess:
    if not BIN.exists():
        pytest.skip(f"installed command not found next to {sys.executable}")
    return subprocess.run([str(BIN), "dampening", *argv], capture_output=True, text=True, timeout=120)


def test_installed_command(tmp_path):
    vals = [11.0625, 37.4375, 52.8125, 68.1875, 93.5625]
    csv = tmp_path / "x.csv"
    csv.write_text("val\n" + "\n".join(map(str, vals)))
    edges = tmp_path / "g.txt"
    edges.write_text("1 2\n2 3\n3 4\n1 3\n4 5\n5 1\n2 5\n")
    nodes = tmp_path / "nodes.txt"
    nodes.write_text("1\n2\n3\n4\n5\n")
    runs = {"median": ["median", str(csv), "--column", "val", "--upper", "100"],
            "topk": ["topk", str(edges), "--k", "2", "--nodes", str(nodes), "--max-degree-bound", "3"]}
    for name, argv in runs.items():
        seeded = _installed(*argv, "--seed", "1", "--json")
        assert seeded.returncode == 0, seeded.stderr
        out = json.loads(seeded.stdout)
        assert {"private", "public", "ledger", "epsilon_spent", "noise"} <= set(out) and "NOT_PRIVATE" not in out
        assert "seeded numpy" in out["noise"]
        release = _installed(*argv, "--json")                    # no --seed: a release on OpenDP's samplers
        assert release.returncode == 0, release.stderr
        assert json.loads(release.stdout)["noise"].startswith("OpenDP")
        exact = json.loads(_installed(*argv, "--seed", "1", "--json", "--show-exact").stdout)
        assert exact["NOT_PRIVATE"]
        text = _installed(*argv, "--seed", "1").stdout
        assert "NOT PRIVATE" not in text and "(seeded research value, not a release)" in text and "(private)" not in text
    med = _installed(*runs["median"], "--seed", "2").stdout + _installed(*runs["median"], "--json").stdout
    assert not any(f"{v:g}" in med or str(v) in med for v in vals)   # the median prints no raw value
    assert set(json.loads(_installed(*runs["median"], "--json").stdout)["private"]) == {"row"}
