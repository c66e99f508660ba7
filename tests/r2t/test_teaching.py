"""Teaching views: cached non-private work, mechanism toggles, figures without review problems."""


import pytest

from dpworkbench.graphs import holme_kim
from dpworkbench.r2t.patterns import graph_joininfo


@pytest.fixture(scope="module")
def social():
    return graph_joininfo(holme_kim(400, 3, 0.5, seed=1), "edge")


def test_teaching_panels_cache_nonprivate_work():
    from dpworkbench import cache
    from dpworkbench.r2t import teaching as T
    cache.clear("r2t.teaching_instance", disk=False)
    T.race_panel(epsilon=1.0, beta=0.1, log2_gs=6, base=2.0, generator="road", query="edge", seed=0, size=100)
    before = cache.stats()["hits"]
    T.race_panel(epsilon=2.0, beta=0.1, log2_gs=6, base=2.0, generator="road", query="edge", seed=0, size=100)
    assert cache.stats()["hits"] - before >= 1
    fig, stats = T.error_panel(epsilon=1.0, log2_tau=2, generator="road", query="edge", size=100, runs=50, beta=0.1, seed=0)
    assert set(stats.index) == {"R2T", "OPT2", "fixed τ", "naive Laplace"}

def test_teaching_error_panel_mechanism_toggles():
    from dpworkbench.r2t import teaching as T
    kw = dict(epsilon=1.0, log2_tau=2, generator="road", query="edge", size=100, runs=300, beta=0.1, seed=0)
    fig, stats = T.error_panel(**kw, mechanisms=("R2T", "LP random τ"))
    assert list(stats.index) == ["R2T", "LP random τ"] and len(fig.data) == 2
    _, full = T.error_panel(**kw, mechanisms=T.ERROR_PANEL_MECHANISMS)
    assert full.loc["R2T", "median |error|"] == stats.loc["R2T", "median |error|"]  # a toggle does not redraw the others' noise
    assert full.loc["LP random τ", "median |error|"] == stats.loc["LP random τ", "median |error|"]
    with pytest.raises(ValueError, match="mechanisms"):
        T.error_panel(**kw, mechanisms=())
    with pytest.raises(ValueError, match="mechanisms"):
        T.error_panel(**kw, mechanisms=("R2T", "SDE"))  # NT is a toggle since issue 15 (spec 5.7); SDE is not
