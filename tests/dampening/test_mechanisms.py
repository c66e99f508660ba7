"""dampening.mechanisms: LD and shifted LD spend ε through a Release and refuse a δ marked privacy_unverified; every
declaration's plan is what its release records, and its research ``sample`` draws through the same code."""

import numpy as np
import pytest

from dpworkbench.dampening import SensitivityMatrix
from dpworkbench.dampening import mechanisms as DM


def test_release_mechanisms_refuse_unverified_delta():
    from dpworkbench.accounting import Accountant, check_ledger_matches
    from dpworkbench.dampening import local_dampening, shifted_local_dampening
    from dpworkbench.dampening.mechanisms import LOCAL_DAMPENING, SHIFTED_LOCAL_DAMPENING

    u = np.array([3.0, 1.0, 0.0])
    bad = SensitivityMatrix(np.ones((3, 2)), 4.0, name="thesis candidates", privacy_unverified=True)
    for f, decl in ((local_dampening, LOCAL_DAMPENING), (shifted_local_dampening, SHIFTED_LOCAL_DAMPENING)):
        acc = Accountant(1.0)
        with pytest.raises(ValueError, match="admissible sensitivity function.*privacy_unverified"):
            f(u, bad, epsilon=1.0, rng=0, accountant=acc)
        assert acc.spent == 0                      # nothing spent on a refused release
        rel = f(u, bad, epsilon=1.0, rng=0, allow_unverified=True)   # explicit, labelled opt-in
        assert 0 <= rel.value < 3 and rel.private is False
        rel = f(u, SensitivityMatrix(np.ones((3, 2)), 4.0), epsilon=1.0, rng=0, accountant=acc)
        assert 0 <= rel.value < 3 and rel.private is True and rel.epsilon == 1.0
        check_ledger_matches(decl.plan(epsilon=1.0), rel.ledger)
    with pytest.raises(ValueError, match="SensitivityMatrix"):
        local_dampening(u, np.ones((3, 2)), epsilon=1.0)


def test_every_declaration_is_registered_and_samples_through_its_noise():
    from dpworkbench.accounting import ledger_epsilon
    from dpworkbench.mechanisms.declaration import registry

    reg = registry("dampening")
    for name in ("dampening.local_dampening", "dampening.median_ld", "dampening.percentile_pf",
                 "dampening.priv_top_k_sld", "dampening.priv_top_k_graph_em", "dampening.id3_shifted"):
        assert name in reg, name
    from dpworkbench.dampening.mechanisms import MEDIAN, quantile_statistics

    x = np.array([1.0, 5.0, 2.0, 4.0, 3.0])
    stats = quantile_statistics(x, selector="LD", lower=0.0, upper=6.0)
    a = MEDIAN["LD"].sample(stats, size=50, rng=3, epsilon=1.0, lower=0.0, upper=6.0)
    b = [MEDIAN["LD"].release(x, rng=g, epsilon=1.0, lower=0.0, upper=6.0).value
         for g in [np.random.default_rng(3)] for _ in range(1)]
    assert a.shape == (50,) and a[0] == b[0] and set(a.tolist()) <= set(range(5))
    assert ledger_epsilon(MEDIAN["LD"].plan(epsilon=0.5, lower=0, upper=1)) == 0.5
    with pytest.raises(ValueError, match="research noise"):
        MEDIAN["LD"].sample(stats, size=5, rng=None, epsilon=1.0, lower=0.0, upper=6.0)


def test_quantile_bounds_are_the_declarations_rule_refused_before_any_spend():
    """lower < upper and missing ∈ [lower, upper] relate two parameters: the quantile declarations hold the rule
    (``joint_check``), so a direct release (and the CLI's ``--plan``) refuses them before ε is recorded, as the API
    does. A percentile without its p is refused, not read as the median."""
    from dpworkbench.accounting import Accountant

    acc = Accountant(total_epsilon=5.0)
    for decl in (*DM.MEDIAN.values(), *DM.PERCENTILE.values()):
        p = {"p": 0.5} if "percentile" in decl.name else {}
        for bounds in ({"lower": 5.0, "upper": 1.0}, {"lower": 0.0, "upper": 1.0, "missing": 2.0}):
            with pytest.raises(ValueError, match="upper must be larger|missing must be"):
                decl.release(np.array([1.0, 2.0]), rng=0, accountant=acc, epsilon=1.0, **bounds, **p)
    assert acc.spent == 0.0
    with pytest.raises(ValueError, match=r"^p must be a finite float in \(0, 1\], got None$"):
        DM.select_percentile([1.0, 2.0], None, lower=0, upper=10, epsilon=1, rng=0)
