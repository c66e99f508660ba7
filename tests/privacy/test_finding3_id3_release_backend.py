"""Finding 3: private ID3 raised an unexplained error with ``release_backend()`` (it forced the noise source into
a numpy Generator). Every dampening release now draws all its noise from the back-end it is given: counts via
``add_laplace``, selections via ``gumbel_argmax`` / ``gumbel_top_k`` (log-space Gumbel-max) — no numpy fallback —
and ``rng=None`` means the OpenDP release back-end."""

from __future__ import annotations

import numpy as np
import pytest

from dpworkbench.accounting import check_ledger_matches
from dpworkbench.dampening import id3
from dpworkbench.dampening.mechanisms import local_dampening, shifted_local_dampening
from dpworkbench.dampening.model import SensitivityMatrix
from dpworkbench.mechanisms.backends import OpenDPBackend, release_backend
from dpworkbench.dampening import mechanisms as DM


class Spy(OpenDPBackend):
    """The release back-end, counting what it is asked for; its numpy generator must not be touched."""

    def __init__(self):
        super().__init__()
        self.calls: dict[str, int] = {}

    def _n(self, k):
        self.calls[k] = self.calls.get(k, 0) + 1

    def add_laplace(self, value, scale):
        self._n("add_laplace"); return super().add_laplace(value, scale)

    def gumbel_argmax(self, logits):
        self._n("gumbel_argmax"); return super().gumbel_argmax(logits)

    def gumbel_top_k(self, logits, k):
        self._n("gumbel_top_k"); return super().gumbel_top_k(logits, k)

    @property
    def generator(self):
        raise AssertionError("a numpy generator was used for noise")


def _data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, 3)); y = (X[:, 0] ^ (rng.random(n) < 0.1)).astype(int)
    return X, y


@pytest.mark.parametrize("method", id3.METHODS)
def test_finding3_id3_runs_on_the_release_backend(method):
    X, y = _data()
    spy = Spy()
    rel = DM.id3_fit(X, y, [2, 2, 2], 2, depth=2, budget=5.0, method=method, n_bound=1000, rng=spy)
    assert rel.value is not None and rel.epsilon == pytest.approx(5.0)
    check_ledger_matches(DM.id3_privacy_cost(5.0, 2, method), rel.ledger)
    assert spy.calls.get("add_laplace", 0) >= 3                       # NoisyCount + leaf class counts
    assert set(spy.calls) <= {"add_laplace", "gumbel_argmax"}
    # release_backend() itself and rng=None (which means the release back-end) work too
    assert DM.id3_fit(X, y, [2, 2, 2], 2, depth=1, budget=1.0, method=method, n_bound=1000, rng=release_backend()).value
    assert DM.id3_fit(X, y, [2, 2, 2], 2, depth=1, budget=1.0, method=method, n_bound=1000).value


def test_finding3_selections_use_the_backend_gumbel_samplers():
    u = np.array([0.0, -1.0, -3.0])
    d = SensitivityMatrix(np.ones((3, 2)), 4.0)
    for f in (local_dampening, shifted_local_dampening):
        spy = Spy()
        assert 0 <= f(u, d, epsilon=1.0, rng=spy).value < 3 and spy.calls == {"gumbel_argmax": 1}
    for mech in ("EM", "LD", "SLD"):
        spy = Spy()
        DM.select_median([1.0, 5.0, 7.0, 9.0], lower=0, upper=10, epsilon=1.0, mechanism=mech, rng=spy)
        assert spy.calls == {"gumbel_argmax": 1}
    edges = np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 4], [3, 4]])  # the release entry point takes the edge list
    for m in ("EM", "LD", "SLD"):
        spy = Spy()
        assert len(DM.priv_top_k_graph(edges, 5, 2, epsilon=1.0, method=m, max_degree_bound=6, rng=spy).value) == 2
        assert spy.calls["gumbel_top_k"] == 1 and set(spy.calls) <= {"gumbel_top_k", "gumbel_argmax"}  # OpenDP: k argmaxes


def test_finding3_pf_on_the_release_backend():
    rel = DM.priv_top_k_graph(np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 4], [3, 4]]), 5, 2, epsilon=1.0,
                              method="PF", max_degree_bound=6, rng=release_backend())
    assert len(set(rel.value.tolist())) == 2
    rel = DM.select_median([1.0, 5.0, 7.0, 9.0], lower=0, upper=10, epsilon=1.0, mechanism="PF", rng=release_backend())
    assert 0 <= rel.value < 4
