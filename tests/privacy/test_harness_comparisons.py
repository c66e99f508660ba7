"""The cross-paper comparisons' release entry points (R2T on I_MI) through the privacy harness (node-DP on the
conflict graph: one tuple removed with its conflicting pairs)."""

from __future__ import annotations

import pytest

from dpworkbench.comparisons.harness import entry_points
from dpworkbench.testing.harness import check_entry_point

ENTRIES = {e.name: e for e in entry_points()}


@pytest.mark.parametrize("name", list(ENTRIES))
def test_entry_point(name):
    entry = ENTRIES[name]
    rep = check_entry_point(entry)
    assert rep.sensitivity.pairs >= 9
    assert not entry.expect_flagged
    assert not rep.flagged, str(rep)
    assert rep.sensitivity.worst_ratio == pytest.approx(1.0), str(rep)  # the claimed sensitivity is attained
