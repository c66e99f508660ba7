"""Finding 3 (R2T): the R2T family drew a unit Laplace sample and multiplied it by the scale in numpy, even on the
release back-end, which leaves holes in the output support that depend on the true value (Q=2 vs Q=3 at scale 3:
~18 % of M(2)'s negative outputs cannot be produced by M(3)); NT, SDE and LS silently used numpy noise when given
the release back-end; the r2t CLI without --seed drew from unseeded numpy.

Now every noisy value is ``backend.add_laplace(value, final_scale)`` (OpenDP samples the noisy value itself),
research-only baselines refuse the release back-end naming why, and a CLI run without --seed uses OpenDP."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpworkbench.graphs import from_edge_array
from dpworkbench.mechanisms.backends import OpenDPBackend, release_backend
from dpworkbench.r2t import Truncation, fixed_tau, from_lists, naive_laplace, opt2, r2t, random_tau
from dpworkbench.r2t.mechanisms import baselines as B
from dpworkbench.r2t.patterns import graph_joininfo


class SpyBackend(OpenDPBackend):
    """The release back-end, recording every add_laplace and refusing unit samples."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def add_laplace(self, value, scale):
        self.calls.append((np.asarray(value, dtype=float).copy(), np.asarray(scale, dtype=float).copy()))
        return super().add_laplace(value, scale)

    def laplace(self, scale, size=None):  # a unit (or any) noise sample handed out apart from the value
        raise AssertionError("noise drawn apart from the value on the release back-end")


def _sjf(q: int):
    """SJF COUNT whose single primary tuple has q join results: Q(I) = Q(I, τ) = q for τ ≥ q."""
    return from_lists(np.ones(q), [[0]] * q, n=1)


def _graph():
    e = np.array([[0, 1], [0, 2], [0, 3], [1, 2], [3, 4], [4, 5]])
    return graph_joininfo(from_edge_array(e, n=6), "edge")


def test_finding3_holes_of_the_old_unit_times_scale_sampler():
    """The shape of the finding: value + 3·u (u a float unit sample) misses outputs that depend on the value."""
    u = release_backend().laplace(1.0, 4000)
    y2 = 2.0 + 3.0 * u[u < -1]
    # y is producible by 3 + 3u' only if some float u' hits it; the candidates are the floats around (y − 3)/3
    def producible(y):
        c = (y - 3.0) / 3.0
        return any(3.0 + 3.0 * v == y for v in (np.nextafter(c, -np.inf), c, np.nextafter(c, np.inf)))
    holes = np.mean([not producible(y) for y in y2])
    assert holes > 0.05  # the old sampler's support depended on the true value


@pytest.mark.parametrize("q", [2, 3])
def test_finding3_fixed_tau_and_naive_go_through_add_laplace_at_the_final_scale(q):
    b = SpyBackend()
    fixed_tau(_sjf(q), 3.0, epsilon=1.0, rng=b)
    assert len(b.calls) == 1 and float(b.calls[0][0]) == q and float(b.calls[0][1]) == 3.0
    b = SpyBackend()
    naive_laplace(_sjf(q), epsilon=1.0, gs=3.0, rng=b)
    assert len(b.calls) == 1 and float(b.calls[0][0]) == q and float(b.calls[0][1]) == 3.0


def test_finding3_r2t_and_opt2_on_the_release_backend():
    info = _graph()
    b = SpyBackend()
    res = r2t(info, epsilon=1.0, gs=8, rng=b)  # prune=True is ignored: the release back-end solves every τ
    (vals, scales), = b.calls
    taus = res.taus
    assert np.array_equal(vals, np.array([Truncation(info).value(t) for t in taus]))
    assert np.allclose(scales, taus.size * taus / 1.0) and res.pruned == 0
    b = SpyBackend()
    res = opt2(info, epsilon=1.0, rng=b)
    # T̃ = T + Lap(3/ε); Ĝ + Lap(6/ε) per level; Q(I, τ̃) + Lap(3τ̃/ε) last
    assert float(b.calls[0][1]) == pytest.approx(3.0) and float(b.calls[-1][1]) == pytest.approx(3.0 * res.tau)
    assert all(float(s) == pytest.approx(6.0) for _, s in b.calls[1:-1])
    b = SpyBackend()
    random_tau(info, epsilon=1.0, gs=8, rng=b)
    assert len(b.calls) == 1


def test_finding3_rm_uses_the_backend_and_rng_none_is_a_release():
    info = graph_joininfo(from_edge_array(np.array([[0, 1], [1, 2], [2, 0], [2, 3]]), n=4), "triangle")
    b = SpyBackend()
    B.rm(info, epsilon=1.0, rng=b)
    assert len(b.calls) == 2
    assert math.isfinite(r2t(info, epsilon=1.0, gs=8).value)  # rng=None: the OpenDP release back-end


@pytest.mark.parametrize("name", ["NT", "SDE", "LS"])
@pytest.mark.parametrize("rng", [None, "release"])
def test_finding3_research_baselines_refuse_the_release_backend(name, rng):
    rng = release_backend() if rng == "release" else None
    g = from_edge_array(np.array([[0, 1], [1, 2], [2, 0]]), n=3)
    with pytest.raises(ValueError, match=f"{name} cannot run on a release back-end"):
        if name == "NT":
            B.nt(g, "edge", epsilon=1.0, degree_bound=4, rng=rng)
        elif name == "SDE":
            B.sde(g, "edge", epsilon=1.0, degree_bound=4, rng=rng)
        else:
            B.ls(_sjf(3), epsilon=1.0, gs=4, rng=rng)


def test_finding3_seeded_research_runs_keep_their_numbers():
    """numpy's laplace(0, s) is s·laplace(0, 1): seeded outputs move by at most an ulp."""
    info = _graph()
    gen = np.random.default_rng(0)
    u = gen.laplace(0.0, 1.0, 3)
    res = r2t(info, epsilon=1.0, gs=8, rng=0, prune=False)
    old = np.max(np.concatenate([[0.0], res.truncated + u * 3 * res.taus - 3 * math.log(3 / 0.1) * res.taus]))
    assert res.value == pytest.approx(old, rel=1e-14, abs=1e-12)


def test_finding3_cli_without_seed_uses_opendp(tmp_path, capsys):
    import json

    from dpworkbench.cli import main

    (tmp_path / "g.txt").write_text("0\t1\n1\t2\n2\t0\n")
    assert main(["r2t", "graph", str(tmp_path / "g.txt"), "--gs", "8", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["noise"].startswith("OpenDP")
    assert main(["r2t", "graph", str(tmp_path / "g.txt"), "--gs", "8", "--json", "--seed", "1"]) == 0
    assert "seeded numpy" in json.loads(capsys.readouterr().out)["noise"]
