"""dampening.mechanisms: LD and shifted LD spend ε through a Release and refuse a δ marked privacy_unverified."""

import numpy as np
import pytest

from dpworkbench.dampening import SensitivityMatrix


def test_release_mechanisms_refuse_unverified_delta():
    from dpworkbench.accounting import Accountant, check_ledger_matches
    from dpworkbench.dampening import local_dampening, shifted_local_dampening
    from dpworkbench.dampening.mechanisms import privacy_cost_selection

    u = np.array([3.0, 1.0, 0.0])
    bad = SensitivityMatrix(np.ones((3, 2)), 4.0, name="thesis candidates", privacy_unverified=True)
    for f in (local_dampening, shifted_local_dampening):
        acc = Accountant(1.0)
        with pytest.raises(ValueError, match="admissible sensitivity function.*privacy_unverified"):
            f(u, bad, epsilon=1.0, rng=0, accountant=acc)
        assert acc.spent == 0                      # nothing spent on a refused release
        rel = f(u, bad, epsilon=1.0, rng=0, allow_unverified=True)   # explicit, labelled opt-in
        assert 0 <= rel.value < 3 and rel.private is False
        rel = f(u, SensitivityMatrix(np.ones((3, 2)), 4.0), epsilon=1.0, rng=0, accountant=acc)
        assert 0 <= rel.value < 3 and rel.private is True and rel.epsilon == 1.0
        check_ledger_matches(privacy_cost_selection(1.0), rel.ledger)
    with pytest.raises(ValueError, match="SensitivityMatrix"):
        local_dampening(u, np.ones((3, 2)), epsilon=1.0)
