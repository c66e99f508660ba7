"""Experiment drivers of the PrivateClean notebooks (spec §5, §6.4): sweeps through the shared runner and the
summaries (tables, slopes, ratios, crossovers) that the figures and claims read; the cell runners of the
stand-in datasets (Figs. 8, 10, 11) and the ε tables of their notebooks.

References
----------
Krishnan et al., "PrivateClean: Data Cleaning and Differential Privacy", SIGMOD 2016 (seed 002), §8 and Appendix D
(experimental setup: 100 random instances per point, relative error).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

import string

from dpworkbench._validation import check_options
from dpworkbench.experiments import run_grid
from dpworkbench.experiments.metrics import relative_error, signed_error

from .batch import run_batch, run_multiattr_batch
from .datasets import (ACCEL_RANGE, EUROPE, INTEL_DOMAIN, TEMP_RANGE, cars, cars_cleaner, intel_like, mcafe_like,
                       tpcds_truth)
from .estimators import estimate
from .mechanisms import epsilon_grr, grr, grr_sample
from .model import CleanedRelation, apply_mapping, edit_distance_merge
from .synthetic import run_instance, run_multiattr_instance

def matched_b(delta: float, p: float, N: int, convention: str = "paper") -> float:
    """Laplace scale giving the numeric attribute the same ε as the discrete one (paper §8.3.5):
    b = Δ/ε_disc with ε_disc = ln(3/p−2) (``paper``, the experiments' setting) or ln(1+N(1−p)/p) (``exact``)."""
    check_options(convention, "epsilon_convention", ("paper", "exact"))
    return delta / (epsilon_grr(p, 3, "paper") if convention == "paper" else epsilon_grr(p, N))


def privacy_table(ps, delta: float, N: int, convention: str = "paper") -> pd.DataFrame:
    """Per p of a figure's grid: b, and the ε actually spent per record (exact GRR on N values + Δ/b) beside the
    paper's Lemma-1 accounting."""
    rows = []
    for p in ps:
        b = matched_b(delta, float(p), N, convention)
        rows.append({"p": float(p), "b": b, "ε discrete exact (N=%d)" % N: epsilon_grr(float(p), N),
                     "ε discrete paper ln(3/p−2)": epsilon_grr(float(p), 3, "paper"), "ε numeric Δ/b": delta / b,
                     "ε total exact": epsilon_grr(float(p), N) + delta / b,
                     "ε total paper": epsilon_grr(float(p), 3, "paper") + delta / b})
    return pd.DataFrame(rows)


def run_intel(cell, rng) -> list[dict]:
    gen = np.random.default_rng(rng)
    R = intel_like(int(gen.integers(1 << 30)), scale=float(cell.get("scale", 0.1)), f_fail=float(cell.get("f_fail", 0.03)))
    p = float(cell["p"])
    b = matched_b(TEMP_RANGE, p, len(INTEL_DOMAIN), cell.get("epsilon_convention", "paper"))  # same ε for both (spec §5.2)
    C = {v: None for v in INTEL_DOMAIN if v is not None and v >= 100}
    Rc = apply_mapping(R["sensor_id"], C)
    ok = np.array([v is not None for v in Rc])
    truth = {"count": float(ok.sum()), "avg": float(R["temp"][ok].mean())}
    okd = R["sensor_id"].notna().to_numpy()
    dirty = {"count": float(okd.sum()), "avg": float(R["temp"][okd].mean())}
    rel = grr(R, {"sensor_id": p}, {"temp": b}, domains={"sensor_id": INTEL_DOMAIN}, bounds={"temp": (0.0, TEMP_RANGE)}, rng=gen).value
    crel = CleanedRelation.start(rel).merge("sensor_id", C)
    rows = []
    for agg in ("count", "avg"):
        for m in ("direct", "privateclean"):
            e = estimate(crel, agg, "sensor_id", lambda v: v is not None, "temp", method=m)
            rows.append({"agg": agg, "method": m, "rel_error": relative_error(e.value, truth[agg], zero_truth="nan")})
        rows.append({"agg": agg, "method": "dirty_nonprivate",
                     "rel_error": relative_error(dirty[agg], truth[agg], zero_truth="nan")})
    return rows


def run_mcafe(cell, rng) -> list[dict]:
    gen = np.random.default_rng(rng)
    R, codes = mcafe_like(int(cell.get("data_seed", 0)))
    p = float(cell["p"])
    b = 9.0 / epsilon_grr(p, 3, "paper")
    C = {c: "Europe" for c in EUROPE}
    Rc = apply_mapping(R["country"], C)
    sel = Rc == "Europe"
    truth = {"count": float(sel.sum()), "avg": float(R["score"][sel].mean())}
    rel = grr(R, {"country": p}, {"score": b}, domains={"country": codes}, bounds={"score": (1.0, 10.0)}, rng=gen).value
    crel = CleanedRelation.start(rel).merge("country", C)
    rows = []
    for agg in ("count", "avg"):
        for m in ("direct", "privateclean"):
            e = estimate(crel, agg, "country", "Europe", "score", method=m)
            rows.append({"agg": agg, "method": m, "rel_error": relative_error(e.value, truth[agg], zero_truth="nan")})
    return rows


def fd_majority_map(df: pd.DataFrame, lhs: list[str], rhs: str) -> dict:
    """FD repair stand-in (vectorised majority vote): {lhs tuple: most frequent rhs in the group}."""
    k = df[lhs + [rhs]].astype(object).where(df[lhs + [rhs]].notna(), "\x00NULL")
    vc = k.value_counts(sort=True).reset_index()
    top = vc.drop_duplicates(lhs)
    return {tuple(None if x == "\x00NULL" else x for x in r[:-1]): (None if r[-1] == "\x00NULL" else r[-1])
            for r in top[lhs + [rhs]].itertuples(index=False, name=None)}


_NULLKEY = "\x00NULL"


#: Fig. 8b ablation: a public ca_country domain, fixed before any data is seen — the uncorrupted value, NULL and every
#: value the corruption rule (append one letter a–z) can produce; the real and stand-in tables hold no other country
PUBLIC_COUNTRY_DOMAIN = ["United States", None] + ["United States" + c for c in string.ascii_lowercase]
#: … and a world-sized one: that alphabet plus 248 other countries (ISO 3166-1 has 249 codes; placeholder names, none
#: within edit distance 1 of "United States", so the MD repair never merges a GRR draw on them back)
PUBLIC_WORLD_DOMAIN = PUBLIC_COUNTRY_DOMAIN + [f"Country {i:03d}" for i in range(1, 249)]
COUNTRY_DOMAINS = {"observed": None, "public": PUBLIC_COUNTRY_DOMAIN, "public_world": PUBLIC_WORLD_DOMAIN}


def run_tpcds(cell, rng) -> list[dict]:
    """Fig. 8: corrupt ca_state (a, FD repair) or ca_country (b, MD repair); GROUP BY count error vs ground truth."""
    from .estimators import count_by_group

    gen = np.random.default_rng(rng)
    k, p = int(cell["corruptions"]), float(cell.get("p", 0.1))
    truth_df, source = tpcds_truth(cell)
    S = len(truth_df)
    rows = []
    country_domain = cell.get("country_domain", "observed")
    if country_domain not in COUNTRY_DOMAINS:
        raise ValueError(f"country_domain must be one of {', '.join(COUNTRY_DOMAINS)}, got {country_domain!r}")
    for panel in cell.get("panels", ("a_state_fd", "b_country_md")):
        R = truth_df.copy()
        idx = gen.choice(S, size=min(k, S), replace=False)
        if panel == "a_state_fd":
            states = sorted(truth_df["ca_state"].dropna().unique())
            R.loc[idx, "ca_state"] = np.array(states, dtype=object)[gen.integers(0, len(states), idx.size)]
            col = "ca_state"
        else:
            idx = idx[R["ca_country"].to_numpy()[idx] != None]  # noqa: E711
            R.loc[idx, "ca_country"] = ["United States" + string.ascii_lowercase[j] for j in gen.integers(0, 26, idx.size)]
            col = "ca_country"
        # released domains of the (corrupted) relation, read off the simulated table: a research run only (seeded);
        # a release would take them as public inputs (grr refuses a release without them)
        doms = {c: list(pd.unique(R[c])) for c in R.columns}
        if panel == "b_country_md" and country_domain != "observed":
            # issue 24's ablation: a country domain fixed in advance, the same at every corruption count, instead of the
            # corrupted table's own values; nothing is read off the data (grr maps a value outside it by its public rule)
            doms["ca_country"] = list(COUNTRY_DOMAINS[country_domain])
        rel = grr(R, {c: p for c in R.columns}, None, domains=doms, rng=gen).value
        crel = CleanedRelation.start(rel)
        if panel == "a_state_fd":
            fd = fd_majority_map(rel.data, ["ca_city", "ca_county"], "ca_state")
            crel = crel.transform_multi(["ca_city", "ca_county", "ca_state"], lambda a, b, s: (a, b, fd.get((a, b), s)),
                                        note="FD repair (city, county) → state, majority vote")
        else:
            crel = crel.merge("ca_country", edit_distance_merge(rel.data["ca_country"], threshold=1))
        truth = truth_df[col].value_counts(dropna=False)
        for m in ("direct", "privateclean"):
            est = count_by_group(crel, col, method=m)
            est.index = [_NULLKEY if v is None or v != v else v for v in est.index]
            errs = [relative_error(float(est.get(_NULLKEY if g is None or g != g else g, 0.0)), t, zero_truth="nan")
                    for g, t in truth.items() if t > 0]
            rows.append({"panel": panel, "agg": panel, "method": m, "rel_error": float(np.mean(errs)), "source": source})
    return rows


# -- vectorised (batched) versions: the data of a cell is drawn once, then ``batch`` GRR instances at once ----------


def _batch_rows(est: dict, truth: dict, aggs, methods, R: int, extra: dict | None = None) -> list[dict]:
    out = []
    for i in range(R):
        for agg in aggs:
            t = float(truth[agg])
            for m in methods:
                v = float(est[m][agg][i] if np.ndim(est[m][agg]) else est[m][agg])
                r = {"instance": i, "agg": agg, "method": m, "estimate": v, "truth": t,
                     "rel_error": relative_error(v, t, zero_truth="nan")}
                if f"{agg}_lo" in est[m]:
                    r["covered"] = bool(est[m][f"{agg}_lo"][i] <= t <= est[m][f"{agg}_hi"][i])
                out.append({**r, **(extra or {})})
    return out


def run_intel_batch(cell, rng) -> list[dict]:
    """Fig. 10, vectorised: one intel_like relation per cell, ``batch`` GRR instances of it."""
    from .batch import estimate_batch

    gen = np.random.default_rng(rng)
    R = int(cell.get("batch", 1))
    df = intel_like(int(gen.integers(1 << 30)), scale=float(cell.get("scale", 0.1)), f_fail=float(cell.get("f_fail", 0.03)))
    p = float(cell["p"])
    b = matched_b(TEMP_RANGE, p, len(INTEL_DOMAIN), cell.get("epsilon_convention", "paper"))  # same ε for both (spec §5.2)
    dom = np.asarray(INTEL_DOMAIN, dtype=object)
    null = INTEL_DOMAIN.index(None)
    ids = df["sensor_id"].to_numpy(dtype=object)
    codes = np.where(pd.isna(ids), null, pd.Index(dom[[i for i in range(len(dom)) if i != null]].tolist())
                     .get_indexer(ids))
    codes = np.where(codes >= null, codes + 1, codes)  # undo the removed NULL slot
    codes = np.where(pd.isna(ids), null, codes)
    cmap = np.array([i if i <= null else null for i in range(len(dom))])  # spurious codes (≥100) merged to NULL
    sel = np.arange(len(dom)) != null
    temp = df["temp"].to_numpy()
    ok = sel[cmap[codes]]
    truth = {"count": float(ok.sum()), "avg": float(temp[ok].mean())}
    okd = codes != null
    dirty = {"count": float(okd.sum()), "avg": float(temp[okd].mean())}
    out = []
    for start, r in _chunks(R, codes.size):  # the full Intel table (2.3M rows) × 100 instances at once is > 11 GB
        V, W = grr_sample({"id": (codes, len(dom), p)}, {"temp": (temp, b)}, size=r, rng=gen)
        Vcat, Vval = V["id"], W["temp"]
        del V, W
        est = estimate_batch(Vcat, Vval, np.broadcast_to(cmap, (r, len(dom))), np.broadcast_to(sel, (r, len(dom))), p)
        del Vcat, Vval
        est["dirty_nonprivate"] = dirty
        rows = _batch_rows(est, truth, ("count", "avg"), ("direct", "privateclean", "dirty_nonprivate"), r)
        out += [{**row, "instance": row["instance"] + start} for row in rows]
    return out


# Instances × rows drawn at once by the vectorised runners: 240 MB per float array, and the estimators hold about
# ten such arrays. Inputs under it (ci, quick) take one chunk, so their seeded draws are those of the unchunked code.
CHUNK_ELEMENTS = 3 * 10**7


def _chunks(R: int, n: int) -> list[tuple[int, int]]:
    """(first instance, instances) blocks of ``R`` instances of ``n`` rows, each ≤ ``CHUNK_ELEMENTS`` (≥ 1 instance)."""
    per = max(1, CHUNK_ELEMENTS // max(int(n), 1))
    return [(s, min(per, R - s)) for s in range(0, R, per)]


def run_cars_batch(cell, rng) -> list[dict]:
    """Fig. 11 on the cars table: merge misspelt makes + isEurope; count / avg(acceleration) WHERE make = 'Europe'."""
    from .batch import estimate_batch

    gen = np.random.default_rng(rng)
    R = int(cell.get("batch", 1))
    df, _ = cars(cell.get("prefer", "real"))
    p = float(cell["p"])
    b = matched_b(ACCEL_RANGE, p, len(pd.unique(df["make"])), cell.get("epsilon_convention", "paper"))  # same ε for both
    dom = sorted(pd.unique(df["make"]).tolist())  # released domain of the dirty attribute
    codes = pd.Index(dom).get_indexer(df["make"])
    f = cars_cleaner()
    clean_dom = sorted(set(f(v) for v in dom))
    cmap = pd.Index(clean_dom).get_indexer([f(v) for v in dom])
    sel = np.array([c == "Europe" for c in clean_dom])
    acc = df["acceleration"].to_numpy(dtype=float)
    ok = sel[cmap[codes]]
    truth = {"count": float(ok.sum()), "avg": float(acc[ok].mean())}
    V, W = grr_sample({"make": (codes, len(dom), p)}, {"acceleration": (acc, b)}, size=R, rng=gen)
    Vcat, Vval = V["make"], W["acceleration"]
    est = estimate_batch(Vcat, Vval, np.broadcast_to(cmap, (R, len(dom))), np.broadcast_to(sel, (R, len(clean_dom))), p)
    return _batch_rows(est, truth, ("count", "avg"), ("direct", "privateclean"), R)


BATCHED = {"synthetic", "intel", "cars", "multiattr"}
KINDS = {"synthetic": run_batch, "synthetic_loop": run_instance, "multiattr": run_multiattr_batch,
         "multiattr_loop": run_multiattr_instance, "intel": run_intel_batch, "intel_loop": run_intel, "cars": run_cars_batch, "mcafe": run_mcafe, "tpcds": run_tpcds}


def sweep(ctx, name: str, x: str, values, *, repetitions: int, fixed: dict | None = None, multiattr: bool = False,
          seed: int = 0, kind: str | None = None) -> pd.DataFrame:
    """Run ``repetitions`` random private instances per x value through :func:`dpworkbench.experiments.run_grid`;
    returns the tidy per-instance errors.

    Each cell's seed stream is derived from ``seed`` and the cell's parameters only. The code version is not one of
    them (``run_grid`` recomputes stale cells by its own ``code_version``): a privateclean source hash in the cell
    parameters redrew every instance, and moved every seeded figure, after any edit of the package.
    """
    kind = kind or ("multiattr" if multiattr else "synthetic")
    fn = KINDS[kind]
    fixed = dict(fixed or {})
    record_data_source(kind, fixed, seed=seed)
    if kind in BATCHED:  # all repetitions of a cell drawn at once (vectorised; batch.py)
        fixed["batch"] = int(repetitions)
        repetitions = 1
    df = run_grid(f"privateclean_{name}", fn, {x: list(values)}, repetitions=repetitions, seed=seed,
                  fixed=fixed, results_dir=ctx.results_dir)
    if "skipped" in df.columns:
        df = df[df["skipped"].isna() | (df["skipped"] == False)]  # noqa: E712
    return df.dropna(subset=["rel_error"])


def table(df: pd.DataFrame, x: str) -> pd.DataFrame:
    """Mean / median / IQR of the relative error per (agg, method, x)."""
    g = df.groupby(["agg", "method", x])["rel_error"]
    return pd.DataFrame({"mean": g.mean(), "median": g.median(), "q25": g.quantile(0.25), "q75": g.quantile(0.75),
                         "n": g.size()}).reset_index()


def value(tab: pd.DataFrame, agg: str, method: str, x: str, xv, stat: str = "mean") -> float:
    """``stat`` of ``method``'s relative error for aggregate ``agg`` at ``x == xv`` (NaN when absent)."""
    t = tab[(tab["agg"] == agg) & (tab["method"] == method) & np.isclose(tab[x].astype(float), float(xv))]
    return float(t[stat].iloc[0]) if len(t) else float("nan")


def slope(tab: pd.DataFrame, agg: str, method: str, x: str) -> float:
    """Least-squares slope of ``method``'s mean relative error for ``agg`` against ``x``."""
    t = tab[(tab["agg"] == agg) & (tab["method"] == method)].sort_values(x)
    return float(np.polyfit(t[x].astype(float), t["mean"], 1)[0])


def worst_ratio(tab: pd.DataFrame, x: str, *, better: str = "privateclean", than: str = "direct",
                aggs=("count", "sum")) -> float:
    """max over the x values and aggregates of ``better``'s mean error / ``than``'s (≤ 1: never worse)."""
    return float(max(value(tab, a, better, x, v) / value(tab, a, than, x, v) for a in aggs for v in tab[x].unique()))


def record_data_source(kind: str, fixed: dict | None = None, *, seed: int = 0) -> None:
    """Record in the run's provenance (``datasets.json`` → ``reports/<profile>/datasets.csv``) which data a sweep of
    ``kind`` uses: the Appendix D generator, the IntelWireless stand-in, the cars table or TPC-DS customer_address."""
    from ..datasets import provenance

    fixed = dict(fixed or {})
    if kind in ("synthetic", "synthetic_loop"):
        provenance.record("privateclean.appendix_d", "synthetic", f"Appendix D generator (seed={seed}; N, S, l, z per cell; "
                          "the paper's synthetic data are not published)", int(fixed.get("S", 1000)),
                          stands_in_for="the paper's Appendix D synthetic data (unpublished)")
    elif kind in ("multiattr", "multiattr_loop"):
        provenance.record("privateclean.appendix_d_multiattr", "synthetic", f"Appendix D two-attribute generator (seed={seed})",
                          int(fixed.get("S", 1000)), stands_in_for="the paper's Appendix D synthetic data (unpublished)")
    elif kind in ("intel", "intel_loop"):
        scale = float(fixed.get("scale", 0.1))
        provenance.record("privateclean.intel_like", "synthetic", f"intel_like(scale={scale:g}) stand-in for IntelWireless "
                          "(the real data are not available offline)", int(2_300_000 * scale),
                          stands_in_for="IntelWireless")
    elif kind == "cars":
        df, source = cars(fixed.get("prefer", "real"))
        provenance.record("privateclean.cars", source, "vega_datasets cars table (MCAFE stand-in)" if source == "real"
                          else "synthetic copy of the cars table's make frequencies", len(df), stands_in_for="MCAFE")
    elif kind == "tpcds":
        df, source = tpcds_truth(fixed)
        what = (f"TPC-DS customer_address (dsdgen, sf={float(fixed.get('sf', 1.0)):g})" if source == "real"
                else f"customer_address stand-in (S={fixed.get('S')})")
        provenance.record("privateclean.tpcds_customer_address", source, what, len(df),
                          stands_in_for="" if source == "real" else "TPC-DS customer_address")
    elif kind == "mcafe":
        data_seed = int(fixed.get("data_seed", 0))
        provenance.record("privateclean.mcafe_like", "synthetic", f"mcafe_like(seed={data_seed}) stand-in for MCAFE",
                          len(mcafe_like(data_seed)[0]), stands_in_for="MCAFE")


def data_source(kind: str, fixed: dict | None = None) -> str:
    """Which data a stand-in notebook used: "real" or "synthetic" (said plainly in the notebook)."""
    fixed = dict(fixed or {})
    if kind == "tpcds":
        return tpcds_truth(fixed)[1]
    if kind == "cars":
        return cars(fixed.get("prefer", "real"))[1]
    return "synthetic"


def crossover(tab: pd.DataFrame, agg: str, x: str, *, a: str = "direct", b: str = "privateclean") -> float:
    """First x at which ``a``'s mean error drops to ``b``'s or below (linear interpolation between grid points);
    NaN when ``a`` stays worse over the whole grid, the first grid value when it is never worse."""
    xs = sorted(float(v) for v in tab[x].unique())
    d = [value(tab, agg, a, x, v) - value(tab, agg, b, x, v) for v in xs]
    if d[0] <= 0:
        return xs[0]
    for (x0, d0), (x1, d1) in zip(zip(xs, d), zip(xs[1:], d[1:])):
        if d1 <= 0:
            return x0 + (x1 - x0) * d0 / (d0 - d1)
    return float("nan")


def paired_difference(df: pd.DataFrame, agg: str, x: str, at, *, a: str = "privateclean", b: str = "direct",
                      pair: str = "repetition") -> tuple[float, float]:
    """Paired ``a`` − ``b`` relative error at ``x == at`` for aggregate (or panel) ``agg`` of a tidy sweep: the
    mean over the ``pair`` units (repetitions) and its standard error (sample SD / √n; NaN with fewer than two)."""
    d = df[df["agg"] == agg].pivot_table(index=[x, pair], columns="method", values="rel_error")
    for m in (a, b):
        if m not in d.columns:
            raise ValueError(f"method {m!r} has no rel_error for agg {agg!r} (methods: {sorted(d.columns)})")
    diff = (d[a] - d[b]).xs(at, level=0)
    se = float(diff.std(ddof=1) / len(diff) ** 0.5) if len(diff) > 1 else float("nan")
    return float(diff.mean()), se


def country_domain_ablation(ctx, values, *, repetitions: int, fixed: dict | None = None, seed: int = 0) -> pd.DataFrame:
    """Fig. 8b's ablation (issue 24): the MD panel with a public country domain fixed in advance — the corruption
    alphabet (``public``: 28 values) and a world-sized one (``public_world``: 276) — instead of the corrupted table's
    own values. Tidy per-instance rows as :func:`sweep` (``agg`` = ``b_country_md``) with a ``country_domain`` column."""
    out = []
    for dom in ("public", "public_world"):
        df = sweep(ctx, f"fig08b_domain_{dom}", "corruptions", values, repetitions=repetitions,
                   fixed={**(fixed or {}), "country_domain": dom, "panels": ["b_country_md"]}, seed=seed, kind="tpcds")
        out.append(df.assign(country_domain=dom))
    return pd.concat(out, ignore_index=True)


def merge_rate_domain_ablation(ctx, values, *, repetitions: int, fixed: dict | None = None, seed: int = 0) -> pd.DataFrame:
    """Fig. 6's ablation (issue 24): PrivateClean − no-provenance paired count error per merge rate, with the renamed-away
    (emptied) values kept in the released domain and dropped from it (the per-instance path, where the domain can
    differ between instances). Rows: domain ("kept emptied" / "without emptied"), merge_rate, mean, sem, n."""
    out = []
    for keep, label in ((True, "kept emptied"), (False, "without emptied")):
        df = sweep(ctx, f"fig06_domain_{'kept' if keep else 'dropped'}", "merge_rate", values, repetitions=repetitions,
                   fixed={**(fixed or {}), "keep_emptied": keep}, seed=seed, kind="synthetic_loop")
        d = df[df["agg"] == "count"].pivot_table(index=["merge_rate", "repetition"], columns="method", values="rel_error")
        diff = (d["privateclean"] - d["pc_noprov"]).groupby(level=0).agg(["mean", "sem", "count"])
        out.append(diff.rename(columns={"count": "n"}).reset_index().assign(domain=label))
    return pd.concat(out, ignore_index=True)[["domain", "merge_rate", "mean", "sem", "n"]]


def merge_rate_paired(df: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Fig. 6's two paired summaries of a tidy sweep: per merge rate, the mean and SE of PrivateClean − no-provenance
    count relative error (paired by instance), and per (method, merge rate) the mean and SE of the signed count error."""
    d = df[df["agg"] == "count"].pivot_table(index=["merge_rate", "instance"], columns="method", values="rel_error")
    diff = (d["privateclean"] - d["pc_noprov"]).groupby(level=0).agg(["mean", "sem"])
    sg = df[(df["agg"] == "count") & df["method"].isin(["privateclean", "pc_noprov"])]
    sg = sg.assign(err=signed_error(sg["estimate"], sg["truth"]))
    bias = sg.groupby(["method", "merge_rate"])["err"].agg(["mean", "sem"])
    return diff, bias
