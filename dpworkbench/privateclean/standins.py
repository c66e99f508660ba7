"""Stand-ins for the paper's real datasets (spec §6.2): IntelWireless-like, MCAFE-like, TPC-DS customer_address."""
from __future__ import annotations

import math
import string

import numpy as np
import pandas as pd

from dpworkbench._validation import check_options
from dpworkbench.experiments.summary import relative_error

from dpworkbench.cache import cached

from .model import CleanedRelation, apply_mapping, edit_distance_merge
from .estimators import estimate
from .mechanisms import epsilon_grr, grr, grr_sample

TEMP_RANGE = 122.0  # public bound on temperature (°C), Δ for the Laplace mechanism


def intel_like(seed=0, scale=0.1, f_fail=0.03) -> pd.DataFrame:
    """54 valid sensor ids (Gamma(2,1) weights) + 14 spurious codes incl. NULL carrying f_fail of the rows."""
    gen = np.random.default_rng(seed)
    S = int(2_300_000 * scale)
    w = gen.gamma(2.0, 1.0, 54)
    valid = gen.choice(54, size=S, p=w / w.sum()).astype(object)
    fail = gen.random(S) < f_fail
    spurious = np.array([None] + [100 + k for k in range(13)], dtype=object)
    ids = np.where(fail, spurious[gen.integers(0, 14, S)], valid)
    t = np.arange(S) / S * 30 * 2 * math.pi
    temp = np.where(fail, gen.uniform(50, 122, S), 22 + 3 * np.sin(t) + gen.normal(0, 1.5, S))
    return pd.DataFrame({"sensor_id": pd.Series(ids, dtype=object), "temp": temp})


INTEL_DOMAIN = list(range(54)) + [None] + [100 + k for k in range(13)]


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
            rows.append({"agg": agg, "method": m, "rel_error": relative_error(truth[agg], e.value)})
        rows.append({"agg": agg, "method": "dirty_nonprivate", "rel_error": relative_error(truth[agg], dirty[agg])})
    return rows


EUROPE = ["GB", "DE", "FR", "ES", "IT", "NL", "SE", "NO", "DK", "FI", "PL", "PT", "IE", "BE", "AT", "CH", "GR", "CZ", "HU", "RO"]


def mcafe_like(seed=0, S=406, n_codes=85) -> pd.DataFrame:
    """406 rows, ~85 country codes (US ≈60 %, Zipf tail), ~20 European codes, a few NULLs, score 1–10."""
    gen = np.random.default_rng(seed)
    others = [a + b for a in string.ascii_uppercase for b in string.ascii_uppercase
              if a + b not in EUROPE and a + b != "US"][: n_codes - 1 - len(EUROPE) - 1]
    codes = ["US"] + EUROPE + others + [None]
    w = np.array([0.6] + list(0.25 * np.arange(1, len(codes) - 1, dtype=float) ** -0.8 /
                              np.sum(np.arange(1, len(codes) - 1, dtype=float) ** -0.8) * 0 + 0) + [0.0])
    tail = np.arange(1, len(codes) - 1, dtype=float) ** -0.6
    w[1:-1] = 0.37 * tail / tail.sum()
    w[-1] = 0.03
    c = gen.choice(len(codes), size=S, p=w / w.sum())
    c[: len(codes)] = np.arange(len(codes))  # every code observed once at least
    country = np.array(codes, dtype=object)[c]
    eu = np.isin(country, EUROPE)
    score = np.clip(np.round(gen.normal(np.where(eu, 7.5, 6.0), 1.5)), 1, 10)
    return pd.DataFrame({"country": pd.Series(country, dtype=object), "score": score}), codes


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
            rows.append({"agg": agg, "method": m, "rel_error": relative_error(truth[agg], e.value)})
    return rows


def customer_address_like(seed=0, S=50_000) -> pd.DataFrame:
    """Synthetic TPC-DS customer_address projection (fallback, spec §6.2): FD (city, county) → state holds."""
    gen = np.random.default_rng(seed)
    states = [f"S{k:02d}" for k in range(51)]
    w = np.arange(1, 52, dtype=float) ** -0.7
    pairs = 2000
    pair_state = gen.choice(51, size=pairs, p=w / w.sum())
    pw = gen.pareto(1.5, pairs) + 1
    pr = gen.choice(pairs, size=S, p=pw / pw.sum())
    return pd.DataFrame({"ca_city": pd.Series([f"city{k % 700}" for k in pr], dtype=object),
                         "ca_county": pd.Series([f"county{k}" for k in pr], dtype=object),
                         "ca_state": pd.Series(np.array(states, dtype=object)[pair_state[pr]], dtype=object),
                         "ca_country": pd.Series(np.where(gen.random(S) < 0.03, None, "United States"), dtype=object)})


def fd_majority_map(df: pd.DataFrame, lhs: list[str], rhs: str) -> dict:
    """FD repair stand-in (vectorised majority vote): {lhs tuple: most frequent rhs in the group}."""
    k = df[lhs + [rhs]].astype(object).where(df[lhs + [rhs]].notna(), "\x00NULL")
    vc = k.value_counts(sort=True).reset_index()
    top = vc.drop_duplicates(lhs)
    return {tuple(None if x == "\x00NULL" else x for x in r[:-1]): (None if r[-1] == "\x00NULL" else r[-1])
            for r in top[lhs + [rhs]].itertuples(index=False, name=None)}


_NULLKEY = "\x00NULL"


def _tpcds_key(source: str, S: int | None, seed: int, sf: float) -> tuple:
    """What the loaded table depends on: its parameters and, for real data, the dsdgen file's content stamp."""
    from .tpcds import cache_file

    f = cache_file(sf)
    return (source, S, seed, sf, f if source == "real" and f.exists() else None)


@cached("privateclean.standins.tpcds_truth", key=_tpcds_key)
def _load_tpcds(source: str, S: int | None, seed: int, sf: float) -> tuple[pd.DataFrame, str]:
    from .tpcds import load_customer_address

    return load_customer_address(source, S=S, seed=seed, sf=sf)


def tpcds_truth(cell) -> tuple[pd.DataFrame, str]:
    """Uncorrupted, canonical customer_address (real DuckDB dsdgen if available and ``source`` allows, else synthetic),
    loaded once per parameters and file (:mod:`dpworkbench.cache`; shared between calls: do not mutate it)."""
    S = cell.get("S")
    return _load_tpcds(cell.get("source", "real"), None if S is None else int(S), int(cell.get("data_seed", 0)),
                       float(cell.get("sf", 1.0)))


def run_tpcds(cell, rng) -> list[dict]:
    """Fig. 8: corrupt ca_state (a, FD repair) or ca_country (b, MD repair); GROUP BY count error vs ground truth."""
    from .estimators import count_by_group

    gen = np.random.default_rng(rng)
    k, p = int(cell["corruptions"]), float(cell.get("p", 0.1))
    truth_df, source = tpcds_truth(cell)
    S = len(truth_df)
    rows = []
    for panel in ("a_state_fd", "b_country_md"):
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
            errs = [abs(float(est.get(_NULLKEY if g is None or g != g else g, 0.0)) - t) / t
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
                     "rel_error": relative_error(t, v)}
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


CARS_CLEANER = {"chevy": "chevrolet", "chevroelt": "chevrolet", "maxda": "mazda", "toyouta": "toyota",
                "vw": "volkswagen", "vokswagen": "volkswagen", "mercedes-benz": "mercedes", "capri": "ford"}
EUROPEAN_MAKES = ["audi", "bmw", "citroen", "fiat", "mercedes", "opel", "peugeot", "renault", "saab", "triumph",
                  "volkswagen", "volvo"]  # public knowledge, not read from the data
ACCEL_RANGE = 25.0  # public bound on 0–60 mph acceleration (s), Δ for the Laplace mechanism


def cars(prefer: str = "real", seed: int = 0) -> tuple[pd.DataFrame, str]:
    """MCAFE stand-in: the vega_datasets cars table (406 rows; ``make`` = first word of the name, with real
    misspellings: chevy/chevroelt, vw/vokswagen, maxda, toyouta, mercedes-benz). Falls back to a synthetic copy
    with the same make frequencies (and its misspellings) when vega_datasets is missing."""
    if prefer == "real":
        try:
            from vega_datasets import data

            df = data.cars()
            return pd.DataFrame({"make": pd.Series(df["Name"].str.split().str[0], dtype=object),
                                 "acceleration": df["Acceleration"].astype(float)}), "real"
        except Exception:  # noqa: BLE001 — no local copy: fall back, and say so
            pass
    gen = np.random.default_rng(seed)
    makes = {"ford": 53, "chevrolet": 44, "plymouth": 32, "amc": 29, "dodge": 28, "toyota": 25, "datsun": 23, "buick": 17,
             "pontiac": 16, "volkswagen": 16, "honda": 13, "mercury": 11, "oldsmobile": 10, "mazda": 10, "peugeot": 8,
             "fiat": 8, "audi": 7, "chrysler": 6, "volvo": 6, "vw": 6, "saab": 5, "renault": 5, "opel": 4, "subaru": 4,
             "chevy": 3, "bmw": 2, "maxda": 2, "mercedes-benz": 2, "cadillac": 2, "citroen": 1, "hi": 1, "toyouta": 1,
             "chevroelt": 1, "capri": 1, "mercedes": 1, "vokswagen": 1, "triumph": 1, "nissan": 1}
    mk = np.repeat(np.array(list(makes), dtype=object), list(makes.values()))
    gen.shuffle(mk)
    eu = np.isin([CARS_CLEANER.get(m, m) for m in mk], EUROPEAN_MAKES)
    acc = np.clip(gen.normal(np.where(eu, 16.8, 15.3), 2.7), 8, 24.8)
    return pd.DataFrame({"make": pd.Series(mk, dtype=object), "acceleration": acc}), "synthetic"


def cars_cleaner() -> dict:
    """Merge misspellings, then isEurope(make): European makes → 'Europe' (composed fork-free map)."""
    def f(v):
        v = CARS_CLEANER.get(v, v)
        return "Europe" if v in EUROPEAN_MAKES else v
    return f


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
