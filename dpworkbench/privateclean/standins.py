"""Stand-ins for the paper's real datasets (spec §6.2): IntelWireless-like, MCAFE-like, TPC-DS customer_address."""
from __future__ import annotations

import math
import string

import numpy as np
import pandas as pd

from .cleaning import CleanedRelation, apply_mapping, edit_distance_merge
from .estimators import estimate
from .mechanism import epsilon_grr, grr

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


def run_intel(cell, rng) -> list[dict]:
    gen = np.random.default_rng(rng)
    R = intel_like(int(gen.integers(1 << 30)), scale=float(cell.get("scale", 0.1)), f_fail=float(cell.get("f_fail", 0.03)))
    p = float(cell["p"])
    b = TEMP_RANGE / epsilon_grr(p, 3, "paper")  # same ε for both attributes (paper convention, spec §5.2)
    C = {v: None for v in INTEL_DOMAIN if v is not None and v >= 100}
    Rc = apply_mapping(R["sensor_id"], C)
    ok = np.array([v is not None for v in Rc])
    truth = {"count": float(ok.sum()), "avg": float(R["temp"][ok].mean())}
    okd = R["sensor_id"].notna().to_numpy()
    dirty = {"count": float(okd.sum()), "avg": float(R["temp"][okd].mean())}
    rel = grr(R, {"sensor_id": p}, {"temp": b}, domains={"sensor_id": INTEL_DOMAIN}, deltas={"temp": TEMP_RANGE}, rng=gen)
    crel = CleanedRelation.start(rel).merge("sensor_id", C)
    rows = []
    for agg in ("count", "avg"):
        for m in ("direct", "privateclean"):
            e = estimate(crel, agg, "sensor_id", lambda v: v is not None, "temp", method=m)
            rows.append({"agg": agg, "method": m, "rel_error": abs(e.value - truth[agg]) / abs(truth[agg])})
        rows.append({"agg": agg, "method": "dirty_nonprivate", "rel_error": abs(dirty[agg] - truth[agg]) / abs(truth[agg])})
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
    rel = grr(R, {"country": p}, {"score": b}, domains={"country": codes}, deltas={"score": 9.0}, rng=gen)
    crel = CleanedRelation.start(rel).merge("country", C)
    rows = []
    for agg in ("count", "avg"):
        for m in ("direct", "privateclean"):
            e = estimate(crel, agg, "country", "Europe", "score", method=m)
            rows.append({"agg": agg, "method": m, "rel_error": abs(e.value - truth[agg]) / abs(truth[agg])})
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


def run_tpcds(cell, rng) -> list[dict]:
    """Fig. 8: corrupt ca_state (a, FD repair) or ca_country (b, MD repair); GROUP BY count error vs ground truth."""
    gen = np.random.default_rng(rng)
    S, k, p = int(cell.get("S", 50_000)), int(cell["corruptions"]), float(cell.get("p", 0.1))
    truth_df = customer_address_like(int(cell.get("data_seed", 0)), S)
    rows = []
    for panel in ("a_state_fd", "b_country_md"):
        R = truth_df.copy()
        idx = gen.choice(S, size=min(k, S), replace=False)
        if panel == "a_state_fd":
            states = sorted(truth_df["ca_state"].unique())
            R.loc[idx, "ca_state"] = np.array(states, dtype=object)[gen.integers(0, len(states), idx.size)]
            col = "ca_state"
        else:
            idx = idx[R["ca_country"].to_numpy()[idx] != None]  # noqa: E711
            R.loc[idx, "ca_country"] = ["United States" + string.ascii_lowercase[j] for j in gen.integers(0, 26, idx.size)]
            col = "ca_country"
        doms = {c: list(pd.unique(R[c])) for c in R.columns}  # released domains of the (corrupted) relation
        rel = grr(R, {c: p for c in R.columns}, None, domains=doms, rng=gen)
        crel = CleanedRelation.start(rel)
        if panel == "a_state_fd":
            fd = rel.data.groupby(["ca_city", "ca_county"])["ca_state"].agg(lambda s: s.value_counts().index[0]).to_dict()
            crel = crel.transform_multi(["ca_city", "ca_county", "ca_state"], lambda a, b, s: (a, b, fd.get((a, b), s)),
                                        note="FD repair (city, county) → state, majority vote")
        else:
            crel = crel.merge("ca_country", edit_distance_merge(rel.data["ca_country"], threshold=1))
        truth = truth_df[col].value_counts(dropna=False)
        for m in ("direct", "privateclean"):
            errs = [abs(estimate(crel, "count", col, g, method=m).value - t) / t for g, t in truth.items() if t > 0]
            rows.append({"panel": panel, "agg": panel, "method": m, "rel_error": float(np.mean(errs))})
    return rows
