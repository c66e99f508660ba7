"""Dataset registry: stand-ins always, real graphs when the data directory has them, SNAP loader."""

import pytest

from dpworkbench import datasets as registry
from dpworkbench.r2t.datasets import GRAPHS, load_graph, load_snap


@pytest.mark.parametrize("name", ["deezer", "amazon1", "amazon2", "roadnet_pa", "roadnet_ca"])
def test_standins_are_seeded_and_respect_the_degree_bound(name):
    a, D = load_graph(name, n=400, seed=3, prefer="synthetic")  # deezer is real when the data directory has it
    b, _ = load_graph(name, n=400, seed=3, prefer="synthetic")
    assert a.source == "synthetic" and a.data.fingerprint == b.data.fingerprint
    assert a.data.max_degree <= D


@pytest.mark.parametrize("name", ["enron", "github"])
def test_real_graphs_or_their_standins(name):
    ds, D = load_graph(name, n=300, seed=0)
    assert ds.source in ("real", "synthetic") and ds.data.n == 300
    syn, _ = load_graph(name, n=300, seed=0, prefer="synthetic")
    assert syn.source == "synthetic"
    if registry.real_path(registry._REGISTRY[f"r2t.{name}"].real_path) is not None:
        assert ds.source == "real"


def test_load_snap_and_unknown_names(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("# comment\n0\t1\n1\t2\n2\t0\n2\t3\n")
    g = load_snap(p)
    assert g.num_edges == 4 and g.max_degree == 3
    assert load_snap(p, max_degree=2).max_degree <= 2
    with pytest.raises(ValueError):
        load_graph("nosuch")
    assert set(GRAPHS) >= {"deezer", "roadnet_pa", "enron"}


def test_sample_size_by_kind_and_errors():
    from dpworkbench.r2t.datasets import GRAPHS, sample_size

    sizes = {"social": 11, "road": 22, "real": None}
    for name, (_, _, kind) in GRAPHS.items():
        expected = None if name in ("deezer", "enron", "github") else {"social": 11, "road": 22}[kind]
        assert sample_size(name, sizes) == expected, name
    with pytest.raises(ValueError, match="unknown graph dataset"):
        sample_size("facebook", sizes)
    with pytest.raises(ValueError, match="no entry for 'road'"):
        sample_size("roadnet_pa", {"social": 1})


def test_paper_profile_sizes_name_each_standin_and_full_size_follows_them():
    """The paper profile gives each stand-in its paper graph's node count and takes real graphs whole; a cell is
    compared with the paper's printed number only at that size (full_size), a sample keeps the scale rule."""
    from dpworkbench.r2t.datasets import PAPER_NODES, PAPER_TABLE1, full_size, sample_size

    paper = {"real": None, **PAPER_NODES}
    assert PAPER_NODES == {"amazon1": 262_000, "amazon2": 335_000, "roadnet_pa": 1_090_000, "roadnet_ca": 1_970_000}
    for name in GRAPHS:
        n = sample_size(name, paper)
        assert n == (None if name in ("deezer", "enron", "github") else PAPER_TABLE1[name][0]), name
        assert full_size(name, n), name
    # the per-dataset entry wins over the kind's; real graphs ignore it (they take "real")
    assert sample_size("amazon1", {"social": 5, "amazon1": 7}) == 7
    assert sample_size("deezer", {"real": 9, "deezer": 3}) == 9
    assert not full_size("amazon2", 5000) and not full_size("roadnet_ca", 1_090_000) and not full_size("deezer", 5000)
    assert not full_size("amazon1", None)  # a stand-in's default size is a sample
    with pytest.raises(ValueError, match="unknown graph dataset"):
        full_size("facebook", None)


def test_standins_are_cached_by_value():
    """A stand-in is generated once per (seed, n, cap): the paper profile loads each once per query (Amazon2 at 335k
    nodes takes about half a minute to generate); a different argument is a different graph."""
    from dpworkbench.r2t.datasets import amazon2_standin

    a, b = amazon2_standin(seed=5, n=300), amazon2_standin(seed=5, n=300)
    assert a.fingerprint == b.fingerprint
    assert amazon2_standin(seed=6, n=300).fingerprint != a.fingerprint
