"""PrivateClean's data (spec §6.2–6.3): the Appendix D synthetic relation, the stand-ins for the paper's real datasets
(IntelWireless-like, MCAFE-like, the cars table, TPC-DS customer_address) and their registrations, and the seeded
stand-ins of the raha dirty/clean pairs (beers, flights, rayyan; :func:`dpworkbench.privateclean.raha.pair`).

TPC-DS ``customer_address`` is generated offline with DuckDB's tpcds extension (spec §6.2, Fig. 8).

The extension ships as the PyPI wheel ``duckdb-extension-tpcds`` (its version must equal DuckDB's);
``CALL dsdgen(sf=…)`` generates every TPC-DS table (≈2 min at sf=1 on this machine), so the projection
(ca_city, ca_county, ca_state, ca_country) is cached as Parquet under ``paths.cache_dir()``. The raw
table violates the FD (city, county) → state in a few percent of groups; :func:`canonicalise` repairs it by
majority vote so that the FD holds before our corruption. When the extension is unavailable the
synthetic ``customer_address_like`` stand-in is used (``source`` says which).
"""
from __future__ import annotations

import math
import os
import string
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd

from dpworkbench._validation import check_options
from dpworkbench.cache import cached
from dpworkbench.datasets import register
from dpworkbench.paths import cache_dir

from .synthetic import generate

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


# -- TPC-DS customer_address ---------------------------------------------------------------------------------------
COLUMNS = ["ca_city", "ca_county", "ca_state", "ca_country"]


def extension_path() -> Path | None:
    """The local tpcds extension file bundled by the ``duckdb-extension-tpcds`` wheel, if installed."""
    try:
        import duckdb
        import duckdb_extension_tpcds as m
    except ImportError:
        return None
    p = Path(m.__file__).parent / "extensions" / f"v{duckdb.__version__}" / "tpcds.duckdb_extension"
    return p if p.exists() else None


def cache_file(sf: float) -> Path:
    return cache_dir() / "privateclean" / f"tpcds_customer_address_sf{sf:g}.parquet"


def generate_customer_address(sf: float = 1.0, *, refresh: bool = False) -> pd.DataFrame:
    """Raw ``customer_address`` projection at scale factor ``sf`` (cached). Raises RuntimeError without the extension."""
    f = cache_file(sf)
    if f.exists() and not refresh:
        return pd.read_parquet(f)
    ext = extension_path()
    if ext is None:
        raise RuntimeError("duckdb-extension-tpcds matching the installed duckdb is not available")
    import duckdb

    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute(f"LOAD '{ext}'")
    con.execute(f"CALL dsdgen(sf={float(sf)})")
    df = con.execute(f"SELECT {', '.join(COLUMNS)} FROM customer_address ORDER BY ca_address_sk").df()
    con.close()
    f.parent.mkdir(parents=True, exist_ok=True)
    tmp = f.with_suffix(f".tmp{os.getpid()}")
    df.to_parquet(tmp, index=False)
    os.replace(tmp, f)
    return df


def canonicalise(df: pd.DataFrame) -> pd.DataFrame:
    """Make the FD (ca_city, ca_county) → ca_state hold: each group takes its most frequent state (ties: first)."""
    out = df[COLUMNS].astype(object).where(df[COLUMNS].notna(), None).reset_index(drop=True)
    key = out["ca_city"].astype(str) + "\x1f" + out["ca_county"].astype(str)
    vc = pd.DataFrame({"k": key, "s": out["ca_state"].fillna("\x00NULL")}).value_counts(sort=True).reset_index()
    top = vc.drop_duplicates("k").set_index("k")["s"]
    fixed = key.map(top).astype(object)
    out["ca_state"] = fixed.where(fixed != "\x00NULL", None)
    return out


def fd_violations(df: pd.DataFrame) -> int:
    """Number of (city, county) groups with more than one state."""
    g = df.groupby(["ca_city", "ca_county"], dropna=False)["ca_state"].nunique(dropna=False)
    return int((g > 1).sum())


def load_customer_address(prefer: str = "real", *, sf: float = 1.0, S: int | None = None, seed: int = 0,
                          allow_generate: bool = True) -> tuple[pd.DataFrame, str]:
    """(canonical customer_address, source). ``source`` is "real" (DuckDB dsdgen) or "synthetic" (fallback).

    ``S`` subsamples rows (seeded) when smaller than the table. ``allow_generate=False`` only uses the cache.
    """
    check_options(prefer, "prefer", ("real", "synthetic"))
    if prefer == "real" and (allow_generate or cache_file(sf).exists()):
        try:
            df = canonicalise(generate_customer_address(sf))
            if S is not None and S < len(df):
                df = df.sample(n=int(S), random_state=seed).reset_index(drop=True)
            return df, "real"
        except Exception:  # noqa: BLE001 — no extension / no disk: fall back, and say so
            pass
    return customer_address_like(seed, S or 50_000), "synthetic"


def _tpcds_key(source: str, S: int | None, seed: int, sf: float) -> tuple:
    """What the loaded table depends on: its parameters and, for real data, the dsdgen file's content stamp."""
    f = cache_file(sf)
    return (source, S, seed, sf, f if source == "real" and f.exists() else None)


@cached("privateclean.standins.tpcds_truth", key=_tpcds_key)  # the cache's name from before the move: entries kept
def _load_tpcds(source: str, S: int | None, seed: int, sf: float) -> tuple[pd.DataFrame, str]:
    return load_customer_address(source, S=S, seed=seed, sf=sf)


def tpcds_truth(cell) -> tuple[pd.DataFrame, str]:
    """Uncorrupted, canonical customer_address (real DuckDB dsdgen if available and ``source`` allows, else synthetic),
    loaded once per parameters and file (:mod:`dpworkbench.cache`; shared between calls: do not mutate it)."""
    S = cell.get("S")
    return _load_tpcds(cell.get("source", "real"), None if S is None else int(S), int(cell.get("data_seed", 0)),
                       float(cell.get("sf", 1.0)))


# -- raha dirty/clean pairs (beers, flights, rayyan): seeded stand-ins ----------------------------------------------
# Used only when the benchmark's tables are absent under DPWB_DATA (privateclean.raha.pair says which one was used).
# Each returns (dirty, clean) as the loader returns the real pair: every cell text ("" for missing), the clean table's
# header on both (RAHA_COLUMNS), rows aligned. The columns the experiments read carry the benchmark's kind of error;
# the others are filler of the same kind of text, equal in both versions.
RAHA_COLUMNS = {
    "beers": ("index", "id", "beer-name", "style", "ounces", "abv", "ibu", "brewery_id", "brewery-name", "city", "state"),
    "flights": ("tuple_id", "src", "flight", "sched_dep_time", "act_dep_time", "sched_arr_time", "act_arr_time"),
    "rayyan": ("id", "article_title", "article_language", "journal_title", "jounral_abbreviation", "journal_issn",
               "article_jvolumn", "article_jissue", "article_jcreated_at", "article_pagination", "author_list"),
}
_BEER_STYLES = ("American IPA", "American Pale Ale (APA)", "American Amber / Red Ale", "American Blonde Ale",
                "American Double / Imperial IPA", "American Pale Wheat Ale", "American Brown Ale", "American Porter")


def _text(values) -> np.ndarray:
    return np.asarray(values).astype(str).astype(object)


def raha_beers_standin(seed: int = 0, S: int = 2410) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A seeded stand-in with beers' schema: the can size in dirty spellings ("12.0 oz", "12.0 OZ.", "12 oz" → "12";
    each spelling belongs to one size, so the repair map is exact, as on the real table), a few lower-case states,
    abv around 6 % (some dirty cells written "0.061%", which the owner's parser reads as the clean number).

    ``ounces``, ``state`` and ``abv`` are drawn first and as before the other columns were added (raha_multi_attribute
    reads only them), so its stand-in runs are unchanged; breweries are drawn within a state (one state per brewery)."""
    gen = np.random.default_rng(seed)
    size = gen.choice(["12", "16", "24", "32"], S, p=[0.63, 0.35, 0.015, 0.005])
    spell = {"12": ["12.0 oz", "12.0 OZ.", "12.0 ounce", "12 oz"], "16": ["16.0 oz", "16.0 ounce", "16 OZ"],
             "24": ["24.0 oz"], "32": ["32.0 oz"]}
    dirty_size = np.array([spell[s][gen.integers(len(spell[s]))] for s in size], dtype=object)
    states = np.array(["CO", "CA", "MI", "IN", "TX", "OR", "PA", "IL"])
    st = gen.choice(states, S, p=[0.2, 0.15, 0.13, 0.12, 0.11, 0.1, 0.1, 0.09])
    dirty_st = np.where(gen.random(S) < 0.05, np.char.lower(st.astype(str)), st)
    abv = np.round(np.clip(gen.normal(0.06, 0.013, S) + 0.006 * (size == "16"), 0.03, 0.12), 3).astype(str)
    # the remaining columns (drawn after the three above)
    per_state = 12  # breweries per state
    brewery = pd.Index(states).get_indexer(st) * per_state + gen.integers(per_state, size=S)
    ibu = np.where(gen.random(S) < 0.42, "", gen.integers(10, 100, S).astype(str))
    style = gen.choice(_BEER_STYLES, S)
    ids = gen.permutation(S) + 1
    dirty_abv = np.where(gen.random(S) < 0.29, np.char.add(abv, "%"), abv)
    common = {"index": _text(np.arange(1, S + 1)), "id": _text(ids), "beer-name": _text([f"Beer {i}" for i in ids]),
              "style": _text(style), "ibu": _text(ibu), "brewery_id": _text(brewery),
              "brewery-name": _text([f"Brewery {b}" for b in brewery]),
              "city": _text([f"Town {b}" for b in brewery])}
    clean = pd.DataFrame({**common, "ounces": _text(size), "abv": _text(abv), "state": _text(st)})
    dirty = pd.DataFrame({**common, "ounces": _text(dirty_size), "abv": _text(dirty_abv), "state": _text(dirty_st)})
    cols = list(RAHA_COLUMNS["beers"])
    return dirty[cols], clean[cols]


def _clock(minutes: int) -> str:
    """Minutes after midnight → the benchmark's "7:10 a.m." form (modulo one day)."""
    h, mi = divmod(int(minutes) % 1440, 60)
    return f"{h % 12 or 12}:{mi:02d} {'a' if h < 12 else 'p'}.m."


# a source writes a time in one of these forms (the real sources do: "7:10 a.m.", "11/30 7:10 a.m.", "7:10aDec 1"); the
# owner's parser reads the first two and not the third
_CLOCK_FORMS = {"plain": _clock, "dated": lambda m: "11/30 " + _clock(m),
                "compact": lambda m: _clock(m).replace(" a.m.", "aDec 1").replace(" p.m.", "pDec 1")}
# how far a conflicting source's time is off (minutes; 720 is a.m. and p.m. swapped)
_CONFLICT_SHIFTS = np.array([-60, -30, -15, -10, -5, 5, 10, 15, 30, 60, 720])
_AIRPORTS = ("ORD", "IAH", "MIA", "JFK", "DFW", "LAX", "BOS", "PHX", "MCO", "DEN", "ATL", "SFO")


def raha_flights_standin(seed: int = 0, *, popular_minutes: Sequence[int], rows: int = 2376, n_flights: int = 100,
                         n_sources: int = 38, flights_per_popular: int = 4) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A seeded stand-in with flights' schema: ``rows`` reports of ``n_flights`` flights by ``n_sources`` sources
    (distinct (source, flight) pairs), each flight with one true schedule, which the clean table repeats on each of
    its rows. The sources conflict, as the deep-web sources of the real table do: a source may not report the
    scheduled (30 %) or the actual (15 %) times at all (blank or "Not Available"), writes times in its own form, and
    reports some times off by minutes to an hour or with a.m./p.m. swapped (its own rate, more often for the actual
    times). So a value map repairs forms and blanks only partly: the blank maps to one clean time for every flight.

    ``popular_minutes``: departure times (minutes after midnight) that ``flights_per_popular`` flights each have — the
    query's times, which are the real table's most common ones; the other flights depart on a 5-minute grid."""
    k = len(popular_minutes) * flights_per_popular
    if k > n_flights:
        raise ValueError(f"flights stand-in: {k} flights at popular times need n_flights ≥ {k}, got {n_flights}")
    if rows > n_sources * n_flights:
        raise ValueError(f"flights stand-in: rows={rows} exceeds the {n_sources} × {n_flights} (source, flight) pairs")
    gen = np.random.default_rng(seed)
    dep = gen.choice(np.arange(300, 1380, 5), n_flights)  # 5:00 a.m. – 10:55 p.m.
    dep[:k] = np.repeat(np.asarray(popular_minutes, dtype=int), flights_per_popular)
    arr = dep + 5 * gen.integers(9, 60, n_flights)  # 45 min – 4 h 55
    delay = gen.geometric(1 / 15, n_flights) - 6  # whole minutes late (from 5 early), mean ≈ 9
    true = {"sched_dep_time": dep, "act_dep_time": dep + delay, "sched_arr_time": arr,
            "act_arr_time": arr + delay + gen.integers(-15, 16, n_flights)}
    origin = gen.integers(len(_AIRPORTS), size=n_flights)
    dest = (origin + gen.integers(1, len(_AIRPORTS), n_flights)) % len(_AIRPORTS)
    names = [f"{a}-{n}-{_AIRPORTS[o]}-{_AIRPORTS[d]}" for a, n, o, d in
             zip(gen.choice(["AA", "UA", "CO"], n_flights), gen.choice(np.arange(100, 4000), n_flights, replace=False), origin, dest)]
    pairs = np.sort(gen.choice(n_sources * n_flights, rows, replace=False))
    src, fl = pairs // n_flights, pairs % n_flights
    # each source's habits: which times it omits, its missing marker, its form, how often it conflicts
    omits = {"sched": gen.random(n_sources) < 0.3, "act": gen.random(n_sources) < 0.15}
    marker = np.where(gen.random(n_sources) < 0.2, "Not Available", "")
    form = gen.choice(list(_CLOCK_FORMS), n_sources, p=[0.7, 0.2, 0.1])
    conflict = {"sched": gen.choice([0.0, 0.1, 0.4], n_sources, p=[0.5, 0.3, 0.2]),
                "act": gen.choice([0.05, 0.3, 0.7], n_sources, p=[0.4, 0.3, 0.3])}
    common = {"tuple_id": _text(np.arange(1, rows + 1)), "src": _text([f"source-{s + 1:02d}" for s in src]),
              "flight": _text(np.asarray(names)[fl])}
    clean, dirty = dict(common), dict(common)
    for col, t in true.items():
        kind = col.split("_")[0]  # "sched" or "act"
        v = t[fl]
        clean[col] = _text([_clock(m) for m in v])
        off = np.where(gen.random(rows) < conflict[kind][src], gen.choice(_CONFLICT_SHIFTS, rows), 0)
        missing = omits[kind][src] | (gen.random(rows) < 0.03)
        text = [_CLOCK_FORMS[f](m) for f, m in zip(form[src], v + off)]
        dirty[col] = _text(np.where(missing, marker[src], text))
    cols = list(RAHA_COLUMNS["flights"])
    return pd.DataFrame(dirty)[cols], pd.DataFrame(clean)[cols]


def raha_rayyan_standin(seed: int = 0, S: int = 1000, n_journals: int = 60) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A seeded stand-in with rayyan's schema: articles with an issue and a volume number, where the clean table
    writes an unknown number as the benchmark's missing marker "-1" and the dirty one leaves it blank, as it also
    does for a few issue/volume 1 (so the repair map sends the blank to "-1", exact on all but those few rows)."""
    gen = np.random.default_rng(seed)
    tail = np.exp(-np.arange(1, 40) / 6.0)
    issue = gen.choice(np.array(["-1", "0"] + [str(k) for k in range(1, 40)]), S, p=np.r_[0.05, 0.2, 0.75 * tail / tail.sum()])
    volume = np.where(gen.random(S) < 0.02, "-1", np.where(gen.random(S) < 0.1, "0", gen.integers(1, 120, S).astype(str)))

    def blanked(clean_values: np.ndarray) -> np.ndarray:
        return np.where((clean_values == "-1") | ((clean_values == "1") & (gen.random(S) < 0.03)), "", clean_values)
    dirty_issue, dirty_volume = blanked(issue), blanked(volume)
    ids = gen.choice(np.arange(100_000, 1_000_000), S, replace=False)
    journal = gen.integers(n_journals, size=S)
    first_page = gen.integers(1, 2000, S)
    common = {"id": _text(ids), "article_title": _text([f"Article {i}" for i in ids]),
              "article_language": _text(np.full(S, "eng")), "journal_title": _text([f"Journal of topic {j}" for j in journal]),
              "jounral_abbreviation": _text([f"J Top {j}" for j in journal]),
              "journal_issn": _text([f"{1000 + j:04d}-{(7 * j) % 10000:04d}" for j in journal]),
              "article_jcreated_at": _text([f"{m}/{d}/{y:02d}" for m, d, y in
                                            zip(gen.integers(1, 13, S), gen.integers(1, 29, S), gen.integers(0, 100, S))]),
              "article_pagination": _text([f"{p}-{p + n}" for p, n in zip(first_page, gen.integers(1, 20, S))]),
              "author_list": _text([f'{{"Author {a}","Author {b}"}}' for a, b in zip(gen.integers(1, 5000, S), gen.integers(1, 5000, S))])}
    clean = pd.DataFrame({**common, "article_jvolumn": _text(volume), "article_jissue": _text(issue)})
    dirty = pd.DataFrame({**common, "article_jvolumn": _text(dirty_volume), "article_jissue": _text(dirty_issue)})
    cols = list(RAHA_COLUMNS["rayyan"])
    return dirty[cols], clean[cols]


def _synthetic(seed, S=1000, N=50, z=2.0, numeric_mode="uniform"):
    return generate(S, N, z, numeric_mode=numeric_mode, rng=seed)


register("privateclean_synthetic", paper="privateclean",
         description="Appendix D synthetic relation: Zipf(z) category on N values, numeric in [0,100] (Table 1 defaults)",
         generate=_synthetic)

register("privateclean_intel_like", paper="privateclean",
         description="IntelWireless-like sensor readings: 54 valid ids + 14 spurious codes incl. NULL, failure temperatures "
                     "(spec §6.2; the real data are not available offline)",
         generate=lambda seed, scale=0.01: intel_like(seed, scale=scale))
register("privateclean_cars_synthetic", paper="privateclean",
         description="MCAFE stand-in fallback: synthetic copy of the vega_datasets cars makes (same frequencies and "
                     "misspellings) with acceleration; the real cars table is read by cars('real')",
         generate=lambda seed: cars("synthetic", seed)[0])
register("privateclean_customer_address_like", paper="privateclean",
         description="TPC-DS customer_address fallback (FD (city, county) → state holds); the real table comes from "
                     "DuckDB dsdgen via load_customer_address", generate=lambda seed, S=50_000: customer_address_like(seed, S))
