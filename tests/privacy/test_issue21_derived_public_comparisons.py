"""Issue 21, finding 5 (comparisons): R2T on I_MI took GS_Q = the number of tuples, read off the data, also in a
release (``rng=None``), where it was only listed in ``derived_public``. A derived public value is for research
runs (seeded); a release without the public value refuses up front — before any spend — naming the argument."""

from __future__ import annotations

import numpy as np
import pytest

from dpworkbench.accounting import Accountant
from dpworkbench.comparisons import R2TIMI, r2t_imi
from dpworkbench.inconsistency import from_edges

E = np.array([[0, 1], [1, 2], [2, 3], [0, 2]])


def test_release_without_gs_refuses_up_front_naming_it():
    acc = Accountant(1.0)
    with pytest.raises(ValueError, match="gs="):
        r2t_imi(E, 6, epsilon=1.0, accountant=acc)
    assert acc.spent == 0
    g = from_edges(6, E.tolist())
    with pytest.raises(ValueError, match="n_bound="):
        R2TIMI(g).run(1.0, accountant=acc)
    assert acc.spent == 0


def test_research_runs_and_strict_releases_still_work():
    assert r2t_imi(E, 6, epsilon=1.0, rng=0).derived_public == ("GS_Q",)
    assert r2t_imi(E, 6, epsilon=1.0, gs=8).derived_public == ()
    g = from_edges(6, E.tolist())
    assert R2TIMI(g, n_bound=10).run(1.0).value >= 0
