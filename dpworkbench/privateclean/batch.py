"""Vectorised Monte-Carlo path: many GRR instances at once on integer-coded relations (spec §3, §6.3).

Each instance is a row of an (R × S) code matrix. The cleaner is a fork-free value map ``cmap`` (dirty code →
clean code, per instance), the predicate a boolean mask ``sel`` over clean codes. The estimators are the same
closed forms as :func:`dpworkbench.privateclean.estimators.estimate` (tested equal on single instances):
Direct, PrivateClean (l, N over the released dirty domain) and ``pc_noprov`` (l′, N′ of the observed cleaned
domain), with the corrected per-row CLT intervals (``lo``/``hi``) and the paper's forms (``lo_paper``/``hi_paper``).
"""
from __future__ import annotations

import numpy as np

from dpworkbench.experiments.metrics import relative_error

from .mechanisms import grr_sample  # R releases through the GRR declaration's own noise code
from .synthetic import zipf_pmf

Z95 = 1.96  # as in estimators.estimate


def _rowvar(x: np.ndarray) -> np.ndarray:
    return x.var(axis=1)


def estimate_batch(Vcat: np.ndarray, Vval: np.ndarray | None, cmap: np.ndarray, sel: np.ndarray, p: float, *,
                   z: float = Z95) -> dict[str, dict[str, np.ndarray]]:
    """Estimates per instance. ``Vcat`` (R × S) private dirty codes, ``cmap`` (R × Nd) dirty → clean codes,
    ``sel`` (R × K) predicate on clean codes. Returns {method: {"count"/"sum"/"avg": value, "*_lo"/"*_hi",
    "*_lo_paper"/"*_hi_paper"}}.
    """
    R, S = Vcat.shape
    Nd, K = cmap.shape[1], sel.shape[1]
    rows = np.arange(R)[:, None]
    Vclean = cmap[rows, Vcat]
    Iv = sel[rows, Vclean]
    a = np.ones((R, S)) if Vval is None else Vval
    out: dict[str, dict[str, np.ndarray]] = {}
    c = Iv.sum(1).astype(float)
    h = (a * Iv).sum(1)
    with np.errstate(invalid="ignore", divide="ignore"):
        out["direct"] = {"count": c, "sum": h, "avg": np.where(c > 0, h / c, np.nan)}
    # l, N over the released dirty domain (fork-free: every dirty value has weight 1 on its image)
    l_rel = sel[rows, cmap].sum(1).astype(float)
    N_rel = np.full(R, float(Nd))
    present = np.zeros((R, K), dtype=bool)
    present[rows, Vclean] = True
    l_obs = (present & sel).sum(1).astype(float)
    N_obs = present.sum(1).astype(float)
    sp = Iv.mean(1)
    for m, l, N in (("privateclean", l_rel, N_rel), ("pc_noprov", l_obs, N_obs)):
        tau_n = (p * l / N)[:, None]
        yc = (Iv - tau_n) / (1 - p)
        yh = a * yc
        c_hat, h_hat = yc.sum(1), yh.sum(1)
        half_c = z * np.sqrt(S * _rowvar(yc))
        half_h = z * np.sqrt(S * _rowvar(yh))
        half_cp = z * np.sqrt(S * sp * (1 - sp)) / (1 - p)
        half_hp = z * 2 * np.sqrt((sp * (1 - sp) * a.mean(1) ** 2 + a.var(1)) / S) * S / (1 - p)
        with np.errstate(invalid="ignore", divide="ignore"):
            avg = np.where(c_hat > 0, h_hat / c_hat, np.nan)
            u = (yh - avg[:, None] * yc) / c_hat[:, None]
            half_a = z * np.sqrt(S * _rowvar(u))
            lo_f, hi_f = fieller_interval(h_hat, c_hat, S * _rowvar(yh), S * _rowvar(yc), S * _rowcov(yh, yc), z)
            lo_cp, hi_cp = c_hat - half_cp, c_hat + half_cp
            lo_ap = np.where(hi_cp > 0, (h_hat - half_hp) / hi_cp, -np.inf)
            hi_ap = np.where(lo_cp > 0, (h_hat + half_hp) / lo_cp, np.inf)
        out[m] = {"count": c_hat, "count_lo": c_hat - half_c, "count_hi": c_hat + half_c,
                  "count_lo_paper": lo_cp, "count_hi_paper": hi_cp,
                  "sum": h_hat, "sum_lo": h_hat - half_h, "sum_hi": h_hat + half_h,
                  "sum_lo_paper": h_hat - half_hp, "sum_hi_paper": h_hat + half_hp,
                  "avg": avg, "avg_lo": avg - half_a, "avg_hi": avg + half_a, "avg_lo_paper": lo_ap, "avg_hi_paper": hi_ap,
                  "avg_lo_fieller": lo_f, "avg_hi_fieller": hi_f}
    return out


def _rowcov(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return ((x - x.mean(1, keepdims=True)) * (y - y.mean(1, keepdims=True))).mean(1)


def fieller_interval(h: np.ndarray, c: np.ndarray, v_hh: np.ndarray, v_cc: np.ndarray, v_hc: np.ndarray,
                     z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Fieller's interval for the ratio h/c of two jointly normal estimates with variances v_hh, v_cc and covariance
    v_hc: every θ with (h − θc)² ≤ z²·Var(h − θc). When c is not significantly away from 0 (c² ≤ z²·v_cc) the set
    is unbounded and the interval is (−∞, ∞) — the honest answer where the delta method, which assumes c far from 0,
    under-covers (issue 24's corrected AVG interval)."""
    z2 = z * z
    A = c * c - z2 * v_cc
    B = h * c - z2 * v_hc
    C = h * h - z2 * v_hh
    disc = B * B - A * C
    bounded = (A > 0) & (disc >= 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.sqrt(np.where(bounded, disc, 0.0))
        lo = np.where(bounded, (B - r) / A, -np.inf)
        hi = np.where(bounded, (B + r) / A, np.inf)
    return lo, hi


def zipf_codes(R: int, S: int, N: int, z: float, gen: np.random.Generator, ensure_coverage: bool = False) -> np.ndarray:
    """(R × S) i.i.d. truncated-Zipf(z) codes on {0..N−1} (inverse-CDF sampling)."""
    cdf = np.cumsum(zipf_pmf(N, z))
    cat = np.minimum(np.searchsorted(cdf, gen.random((R, S)) * cdf[-1], side="right"), N - 1)
    if ensure_coverage:
        cat[:, : min(N, S)] = np.arange(min(N, S))
    return cat


def numeric_values(cat: np.ndarray, N: int, z: float, mode: str, gen: np.random.Generator) -> np.ndarray:
    if mode == "uniform":
        return gen.uniform(0, 100, cat.shape)
    if mode == "zipf":
        return (zipf_codes(cat.shape[0], cat.shape[1], 100, z, gen) + 1).astype(float)
    if mode == "correlated":
        return np.clip(100 * (1 - cat / N) + gen.normal(0, 10, cat.shape), 0, 100)
    raise ValueError(f"numeric_mode must be uniform, zipf or correlated, got {mode!r}")


def inject_errors_batch(cat: np.ndarray, N: int, error_rate: float, merge_rate: float, mode: str,
                        gen: np.random.Generator) -> tuple[np.ndarray, np.ndarray, int]:
    """Vectorised :func:`synthetic.inject_errors`: returns (dirty codes, cmap (R × Nd) dirty → clean, K clean codes).

    Clean codes 0..N−1 are the original values; N+j is the fresh clean value of a renamed error j ("r{v}").
    ``split_alias``: dirty code N+j is the alias of bad value j (≈50 % of its rows; all rows when renamed).
    ``merge_existing``: bad dirty values map onto a random other existing value (or are renamed).
    """
    R, S = cat.shape
    E = int(round(error_rate * N))
    if E == 0:
        return cat, np.tile(np.arange(N), (R, 1)), N
    rows = np.arange(R)[:, None]
    bad = np.argsort(gen.random((R, N)), axis=1)[:, :E]
    merged = gen.random((R, E)) < merge_rate
    if mode == "split_alias":
        pos = np.full((R, N), -1)
        pos[rows, bad] = np.arange(E)
        j = pos[rows, cat]
        hit = j >= 0
        jj = np.maximum(j, 0)
        move = hit & (~merged[rows, jj] | (gen.random((R, S)) < 0.5))
        dirty = np.where(move, N + jj, cat)
        cmap = np.concatenate([np.tile(np.arange(N), (R, 1)), np.where(merged, bad, N + np.arange(E))], axis=1)
        return dirty, cmap, N + E
    if mode == "merge_existing":
        cmap = np.tile(np.arange(N), (R, 1))
        isbad = np.zeros((R, N), dtype=bool)
        isbad[rows, bad] = True
        # a uniformly random good value per bad value
        keys = np.where(isbad, np.inf, gen.random((R, N)))
        order = np.argsort(keys, axis=1)  # good values first, in random order
        pick = order[rows, gen.integers(0, N - E, size=(R, E))]
        cmap[rows, bad] = np.where(merged, pick, N + np.arange(E))
        return cat, cmap, N + E
    raise ValueError(f"mode must be merge_existing or split_alias, got {mode!r}")


def choose_predicate(Rclean: np.ndarray, cmap: np.ndarray, K: int, l: int, mode: str,
                     gen: np.random.Generator) -> np.ndarray:
    """(R × K) mask of l clean values: uniformly from the clean domain (``random``) or the most frequent (``top``)."""
    R = cmap.shape[0]
    rows = np.arange(R)[:, None]
    if mode == "top":
        counts = np.zeros((R, K))
        np.add.at(counts, (np.broadcast_to(rows, Rclean.shape), Rclean), 1)
        idx = np.argsort(-counts, axis=1, kind="stable")[:, :l]
    elif mode == "random":
        indom = np.zeros((R, K), dtype=bool)
        indom[rows, cmap] = True
        keys = np.where(indom, gen.random((R, K)), np.inf)
        idx = np.argsort(keys, axis=1)[:, :l]
        idx = np.where(np.take_along_axis(keys, idx, 1) < np.inf, idx, idx[:, :1])
    else:
        raise ValueError(f"query_mode must be random or top, got {mode!r}")
    sel = np.zeros((R, K), dtype=bool)
    sel[rows, idx] = True
    return sel


def _research_generator(rng, what: str) -> np.random.Generator:
    """The batch path is a seeded Monte-Carlo simulation of synthetic data (figures), never a release: it refuses
    a noise back-end (e.g. the OpenDP release back-end) instead of silently drawing numpy noise."""
    if not (rng is None or isinstance(rng, (int, np.integer, np.random.Generator, np.random.SeedSequence, list, tuple))):
        raise ValueError(f"privateclean.batch.{what} is a research simulation on synthetic data (GRR and Laplace drawn "
                         f"by the declaration for many instances at once) and cannot run on a noise back-end "
                         f"({type(rng).__name__}); use grr() for a release")
    return np.random.default_rng(rng)


def run_batch(cell: dict, rng) -> list[dict]:
    """``cell['batch']`` synthetic instances at once (same model as :func:`synthetic.run_instance`)."""
    R = int(cell.get("batch", 1))
    S, N, z = int(cell.get("S", 1000)), int(cell.get("N", 50)), float(cell.get("z", 2.0))
    p, b, l = float(cell.get("p", 0.1)), float(cell.get("b", 10.0)), int(cell.get("l", 5))
    gen = _research_generator(rng, "run_batch")
    cat = zipf_codes(R, S, N, z, gen, bool(cell.get("ensure_coverage", False)))
    val = numeric_values(cat, N, z, cell.get("numeric_mode", "uniform"), gen)
    dirty, cmap, K = inject_errors_batch(cat, N, float(cell.get("error_rate", 0.0)), float(cell.get("merge_rate", 1.0)),
                                         cell.get("error_mode", "split_alias"), gen)
    rows = np.arange(R)[:, None]
    Rclean = cmap[rows, dirty]
    sel = choose_predicate(Rclean, cmap, K, l, cell.get("query_mode", "random"), gen)
    I = sel[rows, Rclean]
    truth = {"count": I.sum(1).astype(float), "sum": (val * I).sum(1)}
    with np.errstate(invalid="ignore", divide="ignore"):
        truth["avg"] = truth["sum"] / truth["count"]
    Id = (dirty < N) & sel[rows, np.minimum(dirty, K - 1)]
    dirty_est = {"count": Id.sum(1).astype(float), "sum": (val * Id).sum(1)}
    with np.errstate(invalid="ignore", divide="ignore"):
        dirty_est["avg"] = dirty_est["sum"] / dirty_est["count"]
    V, W = grr_sample({"cat": (dirty, cmap.shape[1], p)}, {"val": (val, b)} if b > 0 else None, size=R, rng=gen)
    Vcat, Vval = V["cat"], W.get("val", val)
    est = estimate_batch(Vcat, Vval, cmap, sel, p)
    est["dirty_nonprivate"] = dirty_est
    aggs = list(cell.get("aggs", ("count", "sum")))
    methods = list(cell.get("methods", ("direct", "privateclean", "pc_noprov"))) + ["dirty_nonprivate"]
    out: list[dict] = []
    ok = truth["count"] > 0
    for i in range(R):
        if not ok[i]:
            out.append({"instance": i, "skipped": True})
            continue
        for agg in aggs:
            t = float(truth[agg][i])
            for m in methods:
                v = float(est[m][agg][i])
                r = {"instance": i, "agg": agg, "method": m, "estimate": v, "truth": t,
                     "rel_error": relative_error(v, t, zero_truth="nan")}
                if f"{agg}_lo" in est[m]:
                    r["covered"] = bool(est[m][f"{agg}_lo"][i] <= t <= est[m][f"{agg}_hi"][i])
                    r["covered_paper"] = bool(est[m][f"{agg}_lo_paper"][i] <= t <= est[m][f"{agg}_hi_paper"][i])
                    r["width"] = float(est[m][f"{agg}_hi"][i] - est[m][f"{agg}_lo"][i])
                    r["width_paper"] = float(est[m][f"{agg}_hi_paper"][i] - est[m][f"{agg}_lo_paper"][i])
                if f"{agg}_lo_fieller" in est[m]:
                    r["covered_fieller"] = bool(est[m][f"{agg}_lo_fieller"][i] <= t <= est[m][f"{agg}_hi_fieller"][i])
                    r["width_fieller"] = float(est[m][f"{agg}_hi_fieller"][i] - est[m][f"{agg}_lo_fieller"][i])
                out.append(r)
    return out


def ci_coverage(ps=(0.1, 0.3, 0.5), reps: int = 1000, *, seed: int = 0, query_mode: str = "random",
                aggs=("count", "sum", "avg"), **cell) -> "pandas.DataFrame":  # noqa: F821 - pandas imported lazily
    """Empirical coverage of the nominal-95 % intervals over ``reps`` seeded releases per p (spec §3.5–3.7):
    the corrected per-row CLT / delta-method intervals (default of :func:`estimate`) vs the paper's forms."""
    import pandas as pd

    out = []
    for k, p in enumerate(ps):
        rows = pd.DataFrame(run_batch({**cell, "p": float(p), "batch": int(reps), "aggs": tuple(aggs),
                                       "methods": ("privateclean",), "query_mode": query_mode},
                                      np.random.default_rng([seed, k])))
        rows = rows[(rows.get("method") == "privateclean") & rows["covered"].notna()]
        for agg, g in rows.groupby("agg", sort=False):
            t = g["truth"].abs()
            out.append({"p": float(p), "agg": agg, "query_mode": query_mode, "n": len(g),
                        "coverage corrected (row CLT)": float(g["covered"].astype(bool).mean()),
                        "coverage paper form": float(g["covered_paper"].astype(bool).mean()),
                        "median width / truth, corrected": float((g["width"] / t).median()),
                        "median width / truth, paper": float((g["width_paper"] / t).median())})
            if "covered_fieller" in g and g["covered_fieller"].notna().any():  # AVG only: Fieller's ratio interval
                out[-1].update({"coverage Fieller": float(g["covered_fieller"].astype(bool).mean()),
                                "median width / truth, Fieller": float((g["width_fieller"] / t).median()),
                                "share unbounded, Fieller": float(np.isinf(g["width_fieller"]).mean())})
    return pd.DataFrame(out)


# -- Fig. 7, vectorised: section → instructor FD, NULL instructors repaired, weighted (PC-W) vs unweighted (PC-U) cut ---

def multiattr_estimates(Vsec: np.ndarray, Vins: np.ndarray, F: np.ndarray, sel: np.ndarray, p: float) -> dict[str, np.ndarray]:
    """COUNT(instructor ∈ M_pred) per instance after the FD repair ``if instructor is NULL: instructor := F(section)``.

    ``Vsec`` (R × S) private section codes, ``Vins`` (R × S) private instructor codes on {0..N2} with N2 = NULL,
    ``F`` (R × N1) the FD section → instructor, ``sel`` (R × N2) the predicate on instructors. The released
    instructor domain has N = N2 + 1 values (NULL included); every non-NULL value maps to itself (weight 1), NULL
    forks to F(section) with weight = share of the NULL rows repaired into each instructor (spec §2.5). Returns
    Direct, PC-W (weighted l) and PC-U (every dirty value with an edge into M_pred counts 1); equal to
    :func:`estimators.estimate` on a single instance (tested).
    """
    R, S = Vsec.shape
    N2 = sel.shape[1]
    rows = np.arange(R)[:, None]
    null = Vins == N2
    clean = np.where(null, F[rows, Vsec], Vins)
    I = sel[rows, clean]
    c = I.sum(1).astype(float)
    n_null = null.sum(1)
    into = (null & I).sum(1)
    k = sel.sum(1).astype(float)  # instructors of M_pred, each an identity edge of weight 1
    with np.errstate(invalid="ignore", divide="ignore"):
        l_w = k + np.where(n_null > 0, into / np.maximum(n_null, 1), 0.0)
    l_u = k + (into > 0)
    N = float(N2 + 1)
    out = {"Direct": c}
    for name, l in (("PC-W", l_w), ("PC-U", l_u)):
        out[name] = (c - S * p * l / N) / (1 - p)
    return out


def run_multiattr_batch(cell: dict, rng) -> list[dict]:
    """Fig. 7, ``cell['batch']`` instances at once (same model as :func:`synthetic.run_multiattr_instance`)."""
    R = int(cell.get("batch", 1))
    S, N1, N2 = int(cell.get("S", 1000)), int(cell.get("N1", 50)), int(cell.get("N2", 10))
    p, z, er = float(cell.get("p", 0.1)), float(cell.get("z", 2.0)), float(cell.get("error_rate", 0.1))
    gen = _research_generator(rng, "run_multiattr_batch")
    rows = np.arange(R)[:, None]
    F = gen.integers(0, N2, size=(R, N1))
    sec = zipf_codes(R, S, N1, z, gen)
    ins_true = F[rows, sec]
    ins = np.where(gen.random((R, S)) < er, N2, ins_true)
    # predicate: 2 instructors drawn from those F uses
    used = np.zeros((R, N2), dtype=bool)
    used[rows, F] = True
    keys = np.where(used, gen.random((R, N2)), np.inf)
    idx = np.argsort(keys, axis=1)[:, :2]
    idx = np.where(np.take_along_axis(keys, idx, 1) < np.inf, idx, idx[:, :1])
    sel = np.zeros((R, N2), dtype=bool)
    sel[rows, idx] = True
    truth = sel[rows, ins_true].sum(1).astype(float)
    V, _ = grr_sample({"sec": (sec, N1, p), "ins": (ins, N2 + 1, p)}, size=R, rng=gen)
    Vsec, Vins = V["sec"], V["ins"]
    est = multiattr_estimates(Vsec, Vins, F, sel, p)
    out: list[dict] = []
    for i in range(R):
        if truth[i] == 0:
            out.append({"instance": i, "skipped": True})
            continue
        for m in ("Direct", "PC-W", "PC-U"):
            v = float(est[m][i])
            out.append({"instance": i, "agg": "count", "method": m, "estimate": v, "truth": float(truth[i]),
                        "rel_error": relative_error(v, truth[i], zero_truth="nan")})
    return out
