"""Graph datasets of the R2T experiments: real graphs where we have them, synthetic SNAP stand-ins (spec 5.3) otherwise.

* Deezer is real: the gemsec-Deezer graphs of Hungary and Romania (``graphs/deezer_{HU,RO}_edges.csv.gz``),
  as a disjoint union with relabelled ids — the **two-country subset** of the paper's HR ∪ HU ∪ RO (89,311
  nodes / 348,713 edges vs 143,884 / 846,915). With the published ``HR_edges.csv`` in the data directory
  (verified by size and sha256) it is the paper's full three-country graph.
* Amazon1/2 and RoadnetPA/CA are real when the published SNAP files (``amazon0302.txt.gz``,
  ``com-amazon.ungraph.txt``, ``roadNet-PA.txt.gz``, ``roadNet-CA.txt.gz``) are in ``graphs/`` of the data
  directory (verified by size and sha256); otherwise each gets a seeded stand-in with the same qualitative
  shape (degree-capped Holme–Kim for co-purchasing graphs, a thinned grid with a few diagonals for road
  networks). Results on stand-ins are compared by error/DS (scale free), not by absolute error.
* Email-Enron and GitHub are real SNAP graphs (not in the paper).

Every load prints and records which one was used (:mod:`dpworkbench.datasets.provenance`).
:func:`load_snap` reads a user-provided SNAP edge list; with ``expected=`` it is verified first.
"""

from __future__ import annotations

import numpy as np

from .. import datasets as registry
from ..cache import cached
from ..datasets import provenance
from ..datasets.external import EXTERNAL_FILES, verify_external
from ..datasets.real import read_deezer, read_edges
from ..graphs import CSRGraph, degree_capped, from_edge_array, holme_kim, load_edge_list, thinned_grid

# name → (paper counterpart, degree bound D, kind)
GRAPHS = {
    "deezer": ("Deezer (real: HU ∪ RO, the two-country subset)", 1024, "social"),
    "amazon1": ("Amazon1", 1024, "social"),
    "amazon2": ("Amazon2", 1024, "social"),
    "roadnet_pa": ("RoadnetPA", 16, "road"),
    "roadnet_ca": ("RoadnetCA", 16, "road"),
    "enron": ("Email-Enron (real, not in the paper)", 2048, "social"),
    "github": ("GitHub (real, not in the paper)", 16384, "social"),
}
REAL_GRAPHS = ("deezer", "enron", "github")  # real whenever the data directory has them (take sizes["real"])
# Stand-ins that become real when the user puts the published SNAP file in graphs/ (key of datasets.external)
EXTERNAL_GRAPHS = {"amazon1": "amazon0302", "amazon2": "com_amazon", "roadnet_pa": "roadnet_pa", "roadnet_ca": "roadnet_ca"}


def sample_size(dataset: str, sizes: dict) -> int | None:
    """Node count to use for ``dataset`` from a profile's ``sizes`` ({"social", "road", "real"} → n or None).

    The real SNAP graphs take ``sizes["real"]`` (a BFS sample, None = whole graph); stand-ins take the
    size of their kind (social or road), or their own entry when ``sizes`` names the dataset (the paper
    profile: each stand-in at its paper graph's node count, :data:`PAPER_NODES`).
    """
    if dataset not in GRAPHS:
        raise ValueError(f"unknown graph dataset {dataset!r}; known: {sorted(GRAPHS)}")
    kind = "real" if dataset in REAL_GRAPHS or _external_present(dataset) else GRAPHS[dataset][2]
    if kind != "real" and dataset in sizes:
        return sizes[dataset]
    if kind not in sizes:
        raise ValueError(f"sizes has no entry for {kind!r} (needed by {dataset!r}); it has {sorted(sizes)}")
    return sizes[kind]


# paper Table 1 statistics: nodes, edges, max degree
PAPER_TABLE1 = {
    "deezer": (144_000, 847_000, 420), "amazon1": (262_000, 900_000, 420), "amazon2": (335_000, 926_000, 549),
    "roadnet_pa": (1_090_000, 1_540_000, 9), "roadnet_ca": (1_970_000, 2_770_000, 12),
}
#: A stand-in at its paper graph's node count (Table 1) is "full size": its cells compare with the paper's printed
#: numbers (the graph is still synthetic); a smaller one is a scale reduction.
PAPER_NODES = {d: v[0] for d, v in PAPER_TABLE1.items() if d != "deezer"}


def full_size(dataset: str, n: int | None) -> bool:
    """Whether ``dataset`` loaded with ``n`` (from :func:`sample_size`) is the whole graph the experiments use.

    A real graph (or a stand-in made real by its published file) is full size unless BFS-sampled (``n`` given);
    a synthetic stand-in is full size at its paper graph's node count (:data:`PAPER_NODES`) or more.
    Real Deezer is full size here although it is the two-country subset (the third country is not available).
    """
    if dataset not in GRAPHS:
        raise ValueError(f"unknown graph dataset {dataset!r}; known: {sorted(GRAPHS)}")
    if dataset in REAL_GRAPHS or _external_present(dataset):
        return n is None
    return n is not None and n >= PAPER_NODES[dataset]


def _social(n: int, m: int, p: float, cap: int, seed: int, components: int = 1) -> CSRGraph:
    parts = []
    offset = 0
    for c in range(components):
        g = degree_capped(holme_kim(n, m, p, seed=seed + 101 * c), cap, seed=seed + c)
        parts.append(g.edge_array().astype(np.int64) + offset)
        offset += n
    return from_edge_array(np.concatenate(parts), n=offset)


def deezer_standin(seed: int = 0, n: int = 4000, cap: int = 420) -> CSRGraph:
    """Three disjoint Holme–Kim components (m=6, p=0.3; avg degree ≈ 11.8), degrees capped."""
    return _social(n // 3, 6, 0.3, cap, seed, components=3)


# Deterministic in (seed, n, cap): cached by value (memory and disk) because the paper profile loads each full-size
# stand-in once per query (Amazon2 at 335k nodes takes ≈ 33 s to generate on this machine, the 1.09M road grid ≈ 4 s).
@cached("r2t.standin", disk=True)
def amazon1_standin(seed: int = 0, n: int = 5000, cap: int = 420) -> CSRGraph:
    return _social(n, 3, 0.5, cap, seed + 1)


@cached("r2t.standin", disk=True)
def amazon2_standin(seed: int = 0, n: int = 5000, cap: int = 549) -> CSRGraph:
    return _social(n, 3, 0.6, cap, seed + 2)


@cached("r2t.standin", disk=True)
def roadnet_standin(seed: int = 0, n: int = 10000, cap: int = 16) -> CSRGraph:
    """Thinned grid: ≈ 27% of edges removed, a few diagonals (triangles, 4-cycles), max degree ≤ 8."""
    side = max(int(round(np.sqrt(n))), 2)
    return thinned_grid(side, side, keep=0.73, diagonal=0.08, seed=seed)


def roadnet_ca_standin(seed: int = 0, n: int = 16000, cap: int = 16) -> CSRGraph:
    return roadnet_standin(seed + 7, n, cap)


def _external_present(dataset: str) -> bool:
    key = EXTERNAL_GRAPHS.get(dataset)
    return key is not None and registry.real_path(f"graphs/{EXTERNAL_FILES[key].filename}") is not None


def load_snap(path, *, max_degree: int | None = None, seed: int = 0, expected: str | None = None) -> CSRGraph:
    """A user-provided SNAP edge list (undirected, plain or ``.gz``), optionally degree-capped to D (spec 5.3).

    ``expected`` names the published file it must be (``"roadnet_pa"``, ``"amazon0302"``, ``"com_amazon"``,
    ``"roadnet_ca"``, ``"com_dblp"``, ``"deezer_hr"``): its size and sha256 are checked before it is read.
    """
    if expected is not None:
        verify_external(expected, path)
    e = read_edges(path)
    ids, inv = np.unique(e.ravel(), return_inverse=True)
    g = from_edge_array(inv.reshape(-1, 2), n=ids.size)
    provenance.record(f"r2t.snap:{expected or 'user'}", "real",
                      provenance.display_path(path) + (" (verified)" if expected else " (unverified user file)"),
                      g.n, registry.file_sha256(path) if expected else provenance.USER_FILE_DIGEST)
    return degree_capped(g, max_degree, seed=seed) if max_degree else g


def _subsample(g: CSRGraph, n: int | None, seed: int) -> CSRGraph:
    """Induced subgraph on the first ``n`` nodes of a BFS from a random node (keeps local structure)."""
    if n is None or n >= g.n:
        return g
    import scipy.sparse as sp
    from scipy.sparse.csgraph import breadth_first_order

    gen = np.random.default_rng(seed)
    A = sp.csr_matrix((np.ones(g.indices.size), g.indices, g.indptr), shape=(g.n, g.n))
    start = int(gen.integers(g.n))
    order = breadth_first_order(A, start, directed=False, return_predecessors=False)
    nodes = order[:n]
    if nodes.size < n:
        rest = np.setdiff1d(np.arange(g.n), nodes)
        nodes = np.concatenate([nodes, rest[: n - nodes.size]])
    return g.induced_subgraph(np.sort(nodes))


def _real_loader(path, n: int | None = None, seed: int = 0, **_):
    return _subsample(load_edge_list(path), n, seed)


def _deezer_loader(path, n: int | None = None, seed: int = 0, **_):
    edges, nodes, files, label = read_deezer(path)
    g = _subsample(from_edge_array(edges, n=nodes), n, seed)
    return g, {"files": files, "note": label + (f"; BFS sample of {n:,} nodes" if n is not None and n < nodes else "")}


def _external_loader(key: str):
    def load(path, n: int | None = None, seed: int = 0, **_):
        verify_external(key, path)
        e = read_edges(path)
        ids, inv = np.unique(e.ravel(), return_inverse=True)
        return _subsample(from_edge_array(inv.reshape(-1, 2), n=ids.size), n, seed)

    return load


registry.register("r2t.deezer", paper="r2t",
                  description="Deezer HU ∪ RO (real, the two-country subset of the paper's HR ∪ HU ∪ RO; BFS-subsampled when n "
                              "is given); stand-in: 3 Holme–Kim components (m=6, p=0.3), degree-capped",
                  generate=deezer_standin, real_path="graphs/deezer_HU_edges.csv.gz", extra_files=("graphs/deezer_RO_edges.csv.gz",),
                  load_real=_deezer_loader)
_STANDINS = {"amazon1": amazon1_standin, "amazon2": amazon2_standin, "roadnet_pa": roadnet_standin, "roadnet_ca": roadnet_ca_standin}
_STANDIN_DESC = {
    "amazon1": "Amazon1 stand-in: Holme–Kim (m=3, p=0.5), degree-capped",
    "amazon2": "Amazon2 stand-in: Holme–Kim (m=3, p=0.6), degree-capped",
    "roadnet_pa": "RoadnetPA stand-in: thinned grid with diagonals",
    "roadnet_ca": "RoadnetCA stand-in: thinned grid with diagonals",
}
for _name, _key in EXTERNAL_GRAPHS.items():
    registry.register(f"r2t.{_name}", paper="r2t",
                      description=_STANDIN_DESC[_name] + f"; real when graphs/{EXTERNAL_FILES[_key].filename} is present (verified)",
                      generate=_STANDINS[_name], real_path=f"graphs/{EXTERNAL_FILES[_key].filename}", load_real=_external_loader(_key))

registry.register("r2t.enron", paper="r2t", description="SNAP Email-Enron (real; BFS-subsampled when n is given)",
                  generate=lambda seed=0, n=4000, **kw: _social(n, 5, 0.4, 2048, seed + 3),
                  real_path="graphs/email-enron.txt", load_real=_real_loader)
registry.register("r2t.github", paper="r2t", description="SNAP MUSAE GitHub (real; BFS-subsampled when n is given)",
                  generate=lambda seed=0, n=4000, **kw: _social(n, 4, 0.2, 16384, seed + 4),
                  real_path="graphs/musae_git_edges.csv", load_real=_real_loader)


def load_graph(name: str, *, n: int | None = None, seed: int = 0, prefer: str = "real"):
    """(Dataset, degree bound D) for a graph of the experiments; ``n`` = stand-in size / real subsample size."""
    if name not in GRAPHS:
        raise ValueError(f"unknown graph {name!r}; choose from {list(GRAPHS)}")
    kw = {} if n is None else {"n": n}
    ds = registry.load(f"r2t.{name}", prefer=prefer, seed=seed, **kw)
    return ds, GRAPHS[name][1]


__all__ = ["EXTERNAL_GRAPHS", "GRAPHS", "PAPER_NODES", "PAPER_TABLE1", "REAL_GRAPHS", "full_size", "load_graph", "load_snap",
           "sample_size"]
