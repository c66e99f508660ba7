"""Finding 3 (PrivateClean): numeric Laplace noise goes through ``backend.add_laplace`` (OpenDP samples the noisy
value itself), never a unit sample scaled in numpy; GRR's uniform draws come from the back-end's generator; the
paper options that are not ε-DP are refused by the release back-end with an error naming them."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpworkbench.mechanisms.backends import NumpyBackend, OpenDPBackend
from dpworkbench.privateclean import grr

DF = pd.DataFrame({"c": ["x", "y", "z", "x"] * 5, "v": np.linspace(0.0, 10.0, 20)})


class _SpyOpenDP(OpenDPBackend):
    def __init__(self):
        super().__init__()
        self.calls = []

    def laplace(self, scale, size=None):  # a unit/zero-centred sample added in numpy is the floating-point hole
        raise AssertionError("grr drew centred Laplace noise and added it in numpy")

    def add_laplace(self, value, scale):
        self.calls.append((np.shape(value), scale))
        return super().add_laplace(value, scale)


def test_numeric_noise_is_added_by_the_release_backend():
    be = _SpyOpenDP()
    rel = grr(DF, {"c": 0.3}, {"v": 2.0}, domains={"c": ["x", "y", "z"]}, bounds={"v": (0.0, 10.0)}, rng=be)
    assert be.calls == [((20,), 2.0)]
    v = rel.value.data["v"].to_numpy()
    assert np.isfinite(v).all() and not np.allclose(v, DF["v"])


def test_seeded_numpy_path_uses_add_laplace_too():
    class Spy(NumpyBackend):
        def laplace(self, scale, size=None):
            raise AssertionError("unit-sample path used")
    out = grr(DF, {"c": 0.3}, {"v": 2.0}, domains={"c": ["x", "y", "z"]}, bounds={"v": (0.0, 10.0)}, rng=Spy(3))
    ref = grr(DF, {"c": 0.3}, {"v": 2.0}, domains={"c": ["x", "y", "z"]}, bounds={"v": (0.0, 10.0)}, rng=3)
    pd.testing.assert_frame_equal(out.value.data, ref.value.data)  # same seeded numbers as before


def test_grr_draws_only_from_the_backend_generator(monkeypatch):
    be = OpenDPBackend()

    def forbidden(*a, **k):
        raise AssertionError("grr created its own numpy generator under the release back-end")
    monkeypatch.setattr(np.random, "default_rng", forbidden)
    monkeypatch.setattr(np.random, "random", forbidden)
    monkeypatch.setattr(np.random, "laplace", forbidden)
    a = grr(DF, {"c": 0.5}, {"v": 1.0}, domains={"c": ["x", "y", "z"]}, bounds={"v": (0.0, 10.0)}, rng=be)
    b = grr(DF, {"c": 0.5}, {"v": 1.0}, domains={"c": ["x", "y", "z"]}, bounds={"v": (0.0, 10.0)}, rng=be)
    assert not a.value.data.equals(b.value.data)


@pytest.mark.parametrize("option,match", [({"regenerate_until_domain_preserved": True}, "regenerate_until_domain_preserved"),
                                          ({"accounting": "paper_lemma1"}, "paper_lemma1")])
def test_release_backend_refuses_non_private_paper_options(option, match):
    with pytest.raises(ValueError, match=match) as err:
        grr(DF[["c"]].assign(c=list("abcdefghij") * 2), {"c": 0.5}, domains={"c": list("abcdefghij")},
            rng=OpenDPBackend(), **option)
    assert "grr" in str(err.value) and "release back-end" in str(err.value)


def test_batch_simulation_refuses_the_release_backend():
    from dpworkbench.privateclean.batch import run_batch, run_multiattr_batch
    with pytest.raises(ValueError, match="run_batch.*research simulation"):
        run_batch({"batch": 2, "S": 50, "N": 5}, OpenDPBackend())
    with pytest.raises(ValueError, match="run_multiattr_batch"):
        run_multiattr_batch({"batch": 2, "S": 50}, OpenDPBackend())
    assert len(run_batch({"batch": 2, "S": 50, "N": 5}, 0)) > 0
