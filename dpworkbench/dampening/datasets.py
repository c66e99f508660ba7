"""Datasets of the local-dampening thesis: real files under the data dir and seeded stand-ins (spec §6.2)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from dpworkbench.datasets import register
from dpworkbench.graphs import CSRGraph, from_edge_array, holme_kim

PAPER = "dampening"


# ---------------------------------------------------------------- DPBench 1-D histograms
def _hist_synthetic(seed: int = 0, *, kind: str = "central", n: int = 1_000_000, bins: int = 4096, median_at: float = 0.55):
    rng = np.random.default_rng(seed)
    if kind == "skewed":  # INCOME-like: log-normal, median ≈ median_at of the domain (INCOME: 1%)
        vals = rng.lognormal(mean=np.log(bins * 1.25 * median_at), sigma=1.2, size=n)
    else:  # PATENT/HEPTH-like: central median, bimodal mixture
        a = rng.normal(bins * (median_at - 0.18), bins * 0.08, n // 2)
        b = rng.normal(bins * (median_at + 0.15), bins * 0.1, n - n // 2)
        vals = np.concatenate([a, b])
    vals = np.clip(np.rint(vals), 0, bins - 1).astype(np.int64)
    return np.bincount(vals, minlength=bins)


def _load_npy(path: Path, **_):
    return np.load(path).astype(np.int64)


#: The DPBench 1-D histograms (Hay et al. 2016; 4,096 bins each) under ``dpbench1d/``, by their DPBench names (the
#: file ↔ name map of dpcomp_core's dataset table) and how their seeded stand-ins are
#: shaped when a file is absent: (file, stand-in kind, median position as a fraction of the domain). The stand-ins only
#: mimic the position of the median (read off the published DPBench files once, as a description of the stand-in);
#: they are labelled synthetic wherever they are used.
DPBENCH_1D = {
    "PATENT": ("PATENT.n4096.npy", "central", 0.52),
    "HEPTH": ("HEPTH.n4096.npy", "central", 0.66),
    "INCOME": ("INCOME.n4096.npy", "skewed", 0.01),
    "ADULTFRANK": ("ADULTFRANK.n4096.npy", "skewed", 0.0),
    "MEDCOST": ("MEDCOST.n4096.npy", "skewed", 0.01),
    "NETTRACE": ("NETTRACE.n4096.npy", "skewed", 0.001),
    "SEARCHLOGS": ("SEARCHLOGS.n4096.npy", "central", 0.86),
    "BIDS-ALL": ("bids.npy", "central", 0.5),
    "BIDS-FJ": ("bids_j.npy", "central", 0.51),
    "BIDS-FM": ("bids_m.npy", "central", 0.48),
    "MDSALARY": ("GrossCompenMDSalary1.npy", "skewed", 0.017),
    "MDSALARY-FA": ("GrossCompenMDSalary2_filtered.npy", "skewed", 0.021),
    "LC-REQ-F1": ("RejectStats_0_4096_no_outliers_filter_7_1.npy", "skewed", 0.09),
    "LC-REQ-F2": ("RejectStats_0_4096_no_outliers_filter_7_2.npy", "skewed", 0.12),
    "LC-REQ-ALL": ("RejectStats_0_4096_no_outliers.npy", "skewed", 0.09),
    "LC-DTIR-F1": ("RejectStats_4_4096_no_outliers_filter_7_1.npy", "central", 0.18),
    "LC-DTIR-F2": ("RejectStats_4_4096_no_outliers_filter_7_2.npy", "central", 0.16),
    "LC-DTIR-ALL": ("RejectStats_4_4096_no_outliers.npy", "central", 0.18),
}
#: The three datasets Fig. 17 shows (the ci profile runs only these).
FIG17_SHOWN = ("PATENT", "HEPTH", "INCOME")


def _stand_in(seed: int = 0, *, kind: str, median_at: float, **kw):
    if kind == "skewed":
        return (_hist_synthetic(seed, kind="skewed", median_at=median_at, **kw) if median_at >= 0.005
                else _hist_point_mass(seed, **kw))
    return _hist_synthetic(seed, kind="central", median_at=median_at, **kw)


def _hist_point_mass(seed: int = 0, *, n: int = 1_000_000, bins: int = 4096):
    """ADULTFRANK/NETTRACE-like: more than half of the mass in the first bins, a long sparse tail."""
    rng = np.random.default_rng(seed)
    vals = np.where(rng.random(n) < 0.7, 0, rng.geometric(0.002, n))
    return np.bincount(np.clip(vals, 0, bins - 1).astype(np.int64), minlength=bins)


for _name, (_file, _kind, _med) in DPBENCH_1D.items():
    register(f"dampening/{_name}", paper=PAPER,
             description=f"DPBench 1-D {_name} histogram ({_file}) over 4,096 bins (synthetic: seeded "
                         f"{'bimodal mixture' if _kind == 'central' else 'skewed'} stand-in with its median near "
                         f"{_med:.0%} of the domain)",
             generate=lambda seed=0, _k=_kind, _m=_med, **kw: _stand_in(seed, kind=_k, median_at=_m, **kw),
             real_path=f"dpbench1d/{_file}", load_real=_load_npy)


# ---------------------------------------------------------------- graphs
def _load_enron(path: Path, **_) -> CSRGraph:
    e = np.loadtxt(path, dtype=np.int64, comments="#")
    return _undirected(e)


def _load_github(path: Path, **_) -> CSRGraph:
    e = np.loadtxt(path, dtype=np.int64, delimiter=",", skiprows=1)
    return _undirected(e)


def _undirected(e: np.ndarray) -> CSRGraph:
    e = e[e[:, 0] != e[:, 1]]
    e = np.unique(np.sort(e, axis=1), axis=0)
    return from_edge_array(e, int(e.max()) + 1)


def _enron_synth(seed=0, *, n=36_692, m=5, p=0.3):
    return holme_kim(n, m, p, seed=seed)


def _github_synth(seed=0, *, n=37_700, mean_degree=15.3, gamma=2.1, cap=9_458):
    rng = np.random.default_rng(seed)
    w = (np.arange(1, n + 1) ** (-1.0 / (gamma - 1)))
    w = np.minimum(w / w.mean() * mean_degree, cap)
    m = int(round(w.sum() / 2))
    p = w / w.sum()
    e = np.stack([rng.choice(n, m, p=p), rng.choice(n, m, p=p)], axis=1)
    return _undirected(np.vstack([e, [[n - 2, n - 1]]]))


def _dblp_synth(seed=0, *, n=317_080, papers=None, cap=120):
    rng = np.random.default_rng(seed)
    papers = papers or int(n * 1.0)
    act = np.minimum(rng.pareto(1.6, n) + 1, cap)
    p = act / act.sum()
    sizes = 1 + rng.poisson(1.6, papers)
    members = rng.choice(n, sizes.sum(), p=p)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    rows = []
    for k in range(2, sizes.max() + 1):
        idx = np.flatnonzero(sizes == k)
        if idx.size == 0:
            continue
        grp = members[starts[idx][:, None] + np.arange(k)]
        for i in range(k):
            for j in range(i + 1, k):
                rows.append(grp[:, [i, j]])
    e = np.vstack(rows + [np.array([[n - 2, n - 1]])])
    return _undirected(e)


register("dampening/enron", paper=PAPER, description="SNAP Email-Enron (synthetic: Holme–Kim powerlaw-cluster n=36,692, m=5, p=0.3)",
         generate=_enron_synth, real_path="graphs/email-enron.txt", load_real=_load_enron)
register("dampening/github", paper=PAPER, description="SNAP musae GitHub (synthetic: Chung–Lu power-law γ=2.1, capped at 9,458)",
         generate=_github_synth, real_path="graphs/musae_git_edges.csv", load_real=_load_github)
def _load_dblp(path: Path, **_) -> CSRGraph:
    """SNAP com-DBLP, used only after its size and sha256 match the published file."""
    from dpworkbench.datasets.external import verify_external
    from dpworkbench.datasets.real import read_edges

    verify_external("com_dblp", path)
    e = read_edges(path)
    ids, inv = np.unique(e.ravel(), return_inverse=True)
    return from_edge_array(inv.reshape(-1, 2), int(ids.size))


register("dampening/dblp", paper=PAPER,
         description="DBLP co-authorship (synthetic: bipartite projection of random papers; real when the published "
                     "com-dblp.ungraph.txt is in graphs/, verified by size and sha256)",
         generate=_dblp_synth, real_path="graphs/com-dblp.ungraph.txt", load_real=_load_dblp)


def _load_deezer(path: Path, **_):
    from dpworkbench.datasets.real import read_deezer

    edges, n, files, label = read_deezer(path)
    return from_edge_array(edges, n), {"files": files, "note": label}


def _deezer_synth(seed=0, *, n=89_311, m=4, p=0.3):
    # Same size and mean degree (≈ 7.8) as the real HU ∪ RO union.
    return holme_kim(n, m, p, seed=seed)


register("dampening/deezer", paper=PAPER,
         description="Deezer friendship graph, HU ∪ RO (real: the two-country subset of gemsec-Deezer, disjoint union with "
                     "relabelled ids; not in the thesis; synthetic: Holme–Kim n=89,311, m=4, p=0.3)",
         generate=_deezer_synth, real_path="graphs/deezer_HU_edges.csv.gz", extra_files=("graphs/deezer_RO_edges.csv.gz",),
         load_real=_load_deezer)


# ---------------------------------------------------------------- tabular (ID3)
def _load_binary(path: Path, *, class_col: int, **_):
    data = np.loadtxt(path, dtype=np.int64, ndmin=2)
    if not -data.shape[1] <= class_col < data.shape[1]:
        raise ValueError(f"class attribute missing: column {class_col} does not exist in {path} ({data.shape[1]} columns)")
    y = data[:, class_col]
    X = np.delete(data, class_col, axis=1)
    return {"X": X, "y": y, "domains": [2] * X.shape[1], "n_classes": 2, "names": [f"A{i}" for i in range(X.shape[1])]}


def _binary_synth(seed=0, *, n=21_574, d=16, n_rel=4):
    rng = np.random.default_rng(seed)
    X = np.zeros((n, d), np.int64)
    X[:, 0] = rng.random(n) < 0.4
    for j in range(1, d):
        parent = rng.integers(0, j)
        p0, p1 = rng.uniform(0.1, 0.5), rng.uniform(0.5, 0.9)
        X[:, j] = rng.random(n) < np.where(X[:, parent] == 1, p1, p0)
    rel = rng.choice(d + 1, n_rel, replace=False)
    coef = rng.uniform(1.0, 1.3, n_rel) * rng.choice([-1, 1], n_rel)
    Xf = np.column_stack([X, rng.random(n) < 0.5])
    logit = (Xf[:, rel] - 0.5) @ coef * 2
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.int64)
    return {"X": X, "y": y, "domains": [2] * d, "n_classes": 2, "names": [f"A{i}" for i in range(d)]}


ADULT_CONT = {"age": (0, 17, 90), "capital-gain": (10, 0, 99_999), "capital-loss": (11, 0, 4_356), "hours-per-week": (12, 1, 99)}
ADULT_COLS = ["age", "workclass", "fnlwgt", "education", "education-num", "marital-status", "occupation", "relationship",
              "race", "gender", "capital-gain", "capital-loss", "hours-per-week", "native-country", "income"]
ADULT_PRED = ["age", "workclass", "education-num", "marital-status", "occupation", "relationship", "race", "gender",
              "capital-gain", "capital-loss", "hours-per-week", "native-country"]


# Public attribute domains (UCI adult.names; marital-status binarised as in the author's later code): the trees iterate over
# these full domains, not over the values that happen to occur in the data (spec §5.3: empty cells matter).
ADULT_DOMAINS = {
    "workclass": ["Private", "Self-emp-not-inc", "Self-emp-inc", "Federal-gov", "Local-gov", "State-gov", "Without-pay", "Never-worked"],
    "education-num": [str(i) for i in range(1, 17)],
    "marital-status": ["married", "not-married"],
    "occupation": ["Tech-support", "Craft-repair", "Other-service", "Sales", "Exec-managerial", "Prof-specialty", "Handlers-cleaners",
                   "Machine-op-inspct", "Adm-clerical", "Farming-fishing", "Transport-moving", "Priv-house-serv", "Protective-serv",
                   "Armed-Forces"],
    "relationship": ["Wife", "Own-child", "Husband", "Not-in-family", "Other-relative", "Unmarried"],
    "race": ["White", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other", "Black"],
    "gender": ["Female", "Male"],
    "native-country": ["United-States", "Cambodia", "England", "Puerto-Rico", "Canada", "Germany", "Outlying-US(Guam-USVI-etc)", "India",
                       "Japan", "Greece", "South", "China", "Cuba", "Iran", "Honduras", "Philippines", "Italy", "Poland", "Jamaica",
                       "Vietnam", "Mexico", "Portugal", "Ireland", "France", "Dominican-Republic", "Laos", "Ecuador", "Taiwan", "Haiti",
                       "Columbia", "Hungary", "Guatemala", "Nicaragua", "Scotland", "Thailand", "Yugoslavia", "El-Salvador",
                       "Trinadad&Tobago", "Peru", "Hong", "Holand-Netherlands"],
}


def _load_adult(path: Path, *, bins: int = 10, **_):
    import pandas as pd

    frames = []
    for p in (path, path.with_name("adult.test")):
        if p.exists():
            frames.append(pd.read_csv(p, header=None, names=ADULT_COLS, sep=r",\s*", engine="python", comment="|", na_values="?"))
    df = pd.concat(frames).dropna()
    df["income"] = df["income"].str.rstrip(".")
    df["marital-status"] = df["marital-status"].str.startswith("Married").map({True: "married", False: "not-married"})
    X, domains = [], []
    for c in ADULT_PRED:
        if c in ADULT_CONT:
            _, lo, hi = ADULT_CONT[c]  # public domain bounds, not data-derived
            edges = np.linspace(lo, hi, bins + 1)[1:-1]
            X.append(np.searchsorted(edges, df[c].to_numpy(float), side="right")); domains.append(bins)
        else:
            cats = ADULT_DOMAINS[c]
            vals = df[c].astype(str).str.replace(r"\.0$", "", regex=True)
            outside = ~vals.isin(cats)
            if outside.any():
                raise ValueError(f"Adult attribute {c!r} has values outside its public domain: {sorted(set(vals[outside]))[:5]}")
            codes = pd.Categorical(vals, categories=cats).codes.astype(np.int64)
            X.append(codes); domains.append(len(cats))
    if not df["income"].isin(["<=50K", ">50K"]).all():
        raise ValueError("class attribute 'income' must be '<=50K' or '>50K'")
    y = (df["income"] == ">50K").to_numpy(np.int64)
    return {"X": np.column_stack(X), "y": y, "domains": domains, "n_classes": 2, "names": ADULT_PRED}


def _adult_synth(seed=0, *, n=45_222, bins=10):
    rng = np.random.default_rng(seed)
    card = {"workclass": 7, "education-num": 16, "marital-status": 2, "occupation": 14, "relationship": 6, "race": 5,
            "gender": 2, "native-country": 41}
    X, domains = [], []
    latent = rng.normal(size=n)
    for c in ADULT_PRED:
        k = bins if c in ADULT_CONT else card[c]
        z = 0.6 * latent + rng.normal(size=n) if c in ("education-num", "marital-status", "relationship", "age", "hours-per-week") else rng.normal(size=n)
        q = np.quantile(z, np.linspace(0, 1, k + 1)[1:-1])
        X.append(np.searchsorted(q, z)); domains.append(k)
    logit = 1.6 * latent - 1.6
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.int64)
    return {"X": np.column_stack(X).astype(np.int64), "y": y, "domains": domains, "n_classes": 2, "names": ADULT_PRED}


register("dampening/nltcs", paper=PAPER, description="NLTCS 21,574×16 binary, class = column 13 (synthetic: tree Bayesian network + sparse logistic class)",
         generate=lambda seed=0, **kw: _binary_synth(seed, n=21_574, d=15, **kw), real_path="tabular/nltcs.dat",
         load_real=lambda p, **kw: _load_binary(p, class_col=13))
register("dampening/acs", paper=PAPER, description="ACS 47,461×23 binary, class = column 10 (synthetic: tree Bayesian network + sparse logistic class)",
         generate=lambda seed=0, **kw: _binary_synth(seed, n=47_461, d=22, **kw), real_path="tabular/acs.dat",
         load_real=lambda p, **kw: _load_binary(p, class_col=10))
register("dampening/adult", paper=PAPER, description="UCI Adult 45,222 rows, 12 predictors (4 continuous in 10 public-bound bins), class income>50K",
         generate=_adult_synth, real_path="tabular/adult.data", load_real=_load_adult)
