"""Appendix D synthetic generator and the per-instance experiment cell (spec §6.3)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from dpworkbench.experiments.metrics import relative_error

from .model import CleanedRelation, apply_mapping
from .estimators import estimate
from .mechanisms import grr


def zipf_pmf(N: int, z: float) -> np.ndarray:
    w = np.arange(1, N + 1, dtype=float) ** (-float(z))
    return w / w.sum()


def generate(S=1000, N=50, z=2.0, *, numeric_mode="uniform", ensure_coverage=False, rng=None) -> pd.DataFrame:
    """Categorical 'cat' ∈ {0..N−1} from truncated Zipf(z); numeric 'val' in [0, 100]."""
    gen = np.random.default_rng(rng)
    cat = gen.choice(N, size=S, p=zipf_pmf(N, z))
    if ensure_coverage:
        cat[: min(N, S)] = np.arange(min(N, S))
    if numeric_mode == "uniform":
        val = gen.uniform(0, 100, S)
    elif numeric_mode == "zipf":
        val = gen.choice(np.arange(1, 101), size=S, p=zipf_pmf(100, z)).astype(float)
    elif numeric_mode == "correlated":
        val = np.clip(100 * (1 - cat / N) + gen.normal(0, 10, S), 0, 100)
    else:
        raise ValueError(f"numeric_mode must be uniform, zipf or correlated, got {numeric_mode!r}")
    return pd.DataFrame({"cat": pd.Series(cat, dtype=object), "val": val})


def inject_errors(clean: pd.DataFrame, N: int, *, error_rate=0.0, merge_rate=1.0, mode="split_alias", rng=None,
                  keep_emptied: bool = True):
    """Return (dirty R, cleaner mapping C, dirty domain). Truth is C(R) by construction.

    ``keep_emptied`` (split_alias): a value renamed as a whole has no rows left; True keeps it in the released domain
    (the workbench's generator), False drops it, as a domain of the dirty relation's values would (the issue 24
    ablation of Fig. 6)."""
    gen = np.random.default_rng(rng)
    R = clean.copy()
    E = int(round(error_rate * N))
    mapping: dict = {}
    domain = list(range(N))
    if E == 0:
        return R, mapping, domain
    if mode == "merge_existing":
        # a fraction of dirty values are errors of other existing values: C maps them onto those
        bad = gen.choice(N, size=E, replace=False)
        good = np.setdiff1d(np.arange(N), bad)
        for v in bad:
            if gen.random() < merge_rate:
                mapping[int(v)] = int(gen.choice(good))
            else:
                mapping[int(v)] = f"r{int(v)}"
    elif mode == "split_alias":
        vals = gen.choice(N, size=E, replace=False)
        cat = R["cat"].to_numpy(dtype=object).copy()
        for v in vals:
            alias = f"a{int(v)}"
            rows = np.flatnonzero(cat == v)
            move = rows[gen.random(rows.size) < 0.5]
            if gen.random() < merge_rate:
                cat[move] = alias
                mapping[alias] = int(v)
            else:  # harmless 1-to-1 rename of the whole value
                cat[rows] = alias
                mapping[alias] = f"r{int(v)}"
                if not keep_emptied:
                    domain.remove(int(v))
            domain.append(alias)
        R["cat"] = pd.Series(cat, dtype=object)
    else:
        raise ValueError(f"mode must be merge_existing or split_alias, got {mode!r}")
    return R, mapping, domain


def run_instance(cell: dict, rng) -> list[dict]:
    """One private instance: generate, corrupt, GRR, clean, random query; errors of every estimator."""
    S, N, z = int(cell.get("S", 1000)), int(cell.get("N", 50)), float(cell.get("z", 2.0))
    p, b, l = float(cell.get("p", 0.1)), float(cell.get("b", 10.0)), int(cell.get("l", 5))
    gen = np.random.default_rng(rng)
    base = generate(S, N, z, numeric_mode=cell.get("numeric_mode", "uniform"),
                    ensure_coverage=bool(cell.get("ensure_coverage", False)), rng=gen)
    R, C, domain = inject_errors(base, N, error_rate=float(cell.get("error_rate", 0.0)),
                                 merge_rate=float(cell.get("merge_rate", 1.0)),
                                 mode=cell.get("error_mode", "split_alias"), rng=gen,
                                 keep_emptied=bool(cell.get("keep_emptied", True)))
    R_clean = apply_mapping(R["cat"], C)
    clean_domain = pd.unique(pd.Series(apply_mapping(domain, C), dtype=object))
    if cell.get("query_mode", "random") == "top":
        vc = pd.Series(R_clean).value_counts()
        M_pred = set(vc.index[:l])
    else:
        M_pred = set(gen.choice(clean_domain, size=min(l, len(clean_domain)), replace=False).tolist())
    I = np.isin(R_clean, list(M_pred))
    truth = {"count": float(I.sum()), "sum": float(R["val"].to_numpy()[I].sum())}
    if truth["count"] == 0:
        return [{"skipped": True}]
    Id = np.isin(R["cat"].to_numpy(dtype=object), list(M_pred))
    dirty = {"count": float(Id.sum()), "sum": float(R["val"].to_numpy()[Id].sum())}
    if b > 0:
        rel = grr(R, {"cat": p if p > 0 else 1e-12}, {"val": b}, domains={"cat": domain}, bounds={"val": (0.0, 100.0)},
                  rng=gen).value
    else:  # b = 0: the simulation's "no numeric noise" point (Fig. 2c–d grid); the numeric column is not private
        rel = grr(R[["cat"]], {"cat": p if p > 0 else 1e-12}, domains={"cat": domain}, rng=gen).value
        rel.data["val"] = R["val"].to_numpy()
    crel = CleanedRelation.start(rel).merge("cat", C)
    rows = []
    for agg in cell.get("aggs", ("count", "sum")):
        for method in cell.get("methods", ("direct", "privateclean", "pc_noprov")):
            est = estimate(crel, agg, "cat", M_pred, "val", method=method)
            rows.append({"agg": agg, "method": method, "estimate": est.value, "truth": truth[agg],
                         "rel_error": relative_error(est.value, truth[agg], zero_truth="nan"),
                         "covered": bool(est.lo <= truth[agg] <= est.hi) if est.lo == est.lo else None})
        rows.append({"agg": agg, "method": "dirty_nonprivate", "estimate": dirty[agg], "truth": truth[agg],
                     "rel_error": relative_error(dirty[agg], truth[agg], zero_truth="nan"), "covered": None})
    return rows


def run_multiattr_instance(cell: dict, rng) -> list[dict]:
    """Fig. 7: section (Zipf, N1) → instructor (N2) FD; NULL instructors; repair by FD; PC-W vs PC-U vs Direct."""
    S, N1, N2 = int(cell.get("S", 1000)), int(cell.get("N1", 50)), int(cell.get("N2", 10))
    p, z, er = float(cell.get("p", 0.1)), float(cell.get("z", 2.0)), float(cell.get("error_rate", 0.1))
    gen = np.random.default_rng(rng)
    F = {k: f"i{gen.integers(N2)}" for k in range(N1)}
    sec = gen.choice(N1, size=S, p=zipf_pmf(N1, z))
    ins_true = np.array([F[s] for s in sec], dtype=object)
    ins = ins_true.copy()
    ins[gen.random(S) < er] = None
    R = pd.DataFrame({"section": pd.Series(sec, dtype=object), "instructor": pd.Series(ins, dtype=object),
                      "val": gen.uniform(0, 100, S)})
    M_pred = set(gen.choice(sorted(set(F.values())), size=min(2, len(set(F.values()))), replace=False).tolist())
    truth = float(np.isin(ins_true, list(M_pred)).sum())
    if truth == 0:
        return [{"skipped": True}]
    rel = grr(R[["section", "instructor"]], {"section": p, "instructor": p}, None,
              domains={"section": list(range(N1)), "instructor": [f"i{k}" for k in range(N2)] + [None]}, rng=gen).value
    crel = CleanedRelation.start(rel).transform_multi(
        ["section", "instructor"], lambda s, i: (s, F[s] if i is None else i), note="FD repair section→instructor")
    rows = []
    for method, label in (("direct", "Direct"), ("privateclean", "PC-W"), ("pc_unweighted", "PC-U")):
        est = estimate(crel, "count", "instructor", M_pred, method=method)
        rows.append({"agg": "count", "method": label, "estimate": est.value, "truth": truth,
                     "rel_error": relative_error(est.value, truth, zero_truth="nan")})
    return rows
