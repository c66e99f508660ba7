"""Graph core (CSR) and the dataset registry (real file or seeded stand-in)."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from dpworkbench import datasets
from dpworkbench.graphs import from_edge_array, from_networkx, load_edge_list
from dpworkbench.graphs.generators import degree_capped, erdos_renyi, holme_kim


def test_csr_from_edges_drops_loops_and_duplicates():
    g = from_edge_array(np.array([[0, 1], [1, 0], [1, 1], [2, 1], [3, 4]]))
    assert g.n == 5 and g.num_edges == 3
    assert g.degrees.tolist() == [1, 2, 1, 1, 1]
    assert sorted(map(tuple, g.edge_array().tolist())) == [(0, 1), (1, 2), (3, 4)]
    with pytest.raises(ValueError, match="shape"):
        from_edge_array(np.array([1, 2, 3]))
    with pytest.raises(ValueError, match="negative"):
        from_edge_array(np.array([[-1, 2]]))


def test_csr_matches_networkx(rng):
    G = nx.gnp_random_graph(60, 0.1, seed=int(rng.integers(1 << 30)))
    g, labels = from_networkx(G)
    assert g.num_edges == G.number_of_edges()
    assert np.array_equal(g.degrees, np.array([G.degree(v) for v in labels]))
    sub = g.induced_subgraph(np.arange(30))
    assert sub.num_edges == G.subgraph(labels[:30]).number_of_edges()
    assert nx.is_isomorphic(g.to_networkx(), G)


def test_generators_are_seeded():
    a, b = erdos_renyi(200, 0.05, seed=1), erdos_renyi(200, 0.05, seed=1)
    assert a.fingerprint == b.fingerprint
    assert erdos_renyi(200, 0.05, seed=2).fingerprint != a.fingerprint
    hk = holme_kim(300, 3, 0.5, seed=0)
    assert hk.n == 300 and hk.num_edges > 0
    capped = degree_capped(hk, 5, seed=0)
    assert capped.max_degree <= 5


def test_load_edge_list_snap_and_csv(tmp_path):
    snap = tmp_path / "g.txt"
    snap.write_text("# comment\n10\t20\n20\t10\n20\t30\n")
    g = load_edge_list(snap)
    assert g.n == 3 and g.num_edges == 2
    csv = tmp_path / "g.csv"
    csv.write_text("id_1,id_2\n5,6\n6,7\n7,5\n")
    assert load_edge_list(csv).num_edges == 3
    with pytest.raises(FileNotFoundError):
        load_edge_list(tmp_path / "missing.txt")


def test_dataset_registry_real_and_synthetic(tmp_path, monkeypatch):
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "toy.csv").write_text("x\n1\n2\n")
    monkeypatch.setenv("DPWB_DATA", str(tmp_path))
    datasets.register("toy_test", paper="mechanisms", description="toy", generate=lambda seed=0: [seed],
                      real_path="toy/toy.csv", load_real=lambda p: p.read_text().split())
    real = datasets.load("toy_test")
    assert real.source == "real" and real.data == ["x", "1", "2"]
    synth = datasets.load("toy_test", prefer="synthetic", seed=7)
    assert synth.source == "synthetic" and synth.data == [7]
    monkeypatch.setenv("DPWB_DATA", str(tmp_path / "nowhere"))
    assert datasets.load("toy_test").source == "synthetic"  # runs without the real data
    with pytest.raises(ValueError, match="unknown dataset"):
        datasets.load("no_such_dataset")
    with pytest.raises(ValueError, match="prefer"):
        datasets.load("toy_test", prefer="best")
