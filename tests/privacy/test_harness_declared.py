"""The privacy harness on every declared mechanism (issue 23): the entries are derived from the declarations
(:mod:`dpworkbench.testing.declared`), so a new declaration is audited without editing this file."""

from __future__ import annotations

import time

import pytest

from dpworkbench.privacy_harness import declared_entry_points
from dpworkbench.testing.harness import check_entry_point

ENTRIES = declared_entry_points()
#: Each derived entry's brute force and audit must fit this budget, so the suite's time grows with the number of
#: mechanisms, not with the size of any one mechanism's examples.
SECONDS_PER_ENTRY = 60.0


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_declared_entry(entry, tmp_path, monkeypatch):
    monkeypatch.setenv("DPWB_CACHE", str(tmp_path))
    t0 = time.perf_counter()
    rep = check_entry_point(entry)
    seconds = time.perf_counter() - t0
    assert rep.flagged == entry.expect_flagged, str(rep)
    assert rep.sensitivity.pairs > 0
    assert seconds < SECONDS_PER_ENTRY, f"{entry.name}: harness took {seconds:.0f} s (budget {SECONDS_PER_ENTRY:g} s)"


def test_every_paper_declares_its_mechanisms():
    from dpworkbench.mechanisms.declaration import registry
    from dpworkbench.papers import paper_keys

    reg = registry()
    assert all(m.relation.key and m.params for m in reg.values())
    declared = {m.paper for m in reg.values()}
    assert declared >= set(paper_keys()), f"papers without a declared mechanism: {set(paper_keys()) - declared}"
