"""Datasets of the inconsistency paper: real Adult, Hospital, Tax and Stock; Flight is a seeded synthetic stand-in.

Real files under the data directory (``shared/data/README.md``), used by default whenever present:

* Adult: ``inconsistency/Adult/adult.csv`` (the artifact's table, 32,561 rows).
* Hospital: NADEEF's HospitalCompare rows (10,000 rows, states AK–CA only; the paper had 114,919 rows),
  columns renamed to the DC file's names (``ZIPCode``→ZipCode, ``CountryName``→CountyName, ``StateAvg``→Stateavg).
* Tax: the clean BART tax table of the cleaning benchmarks, rows 10,001–50,000 (40,000 rows; the paper
  generated 10⁶), snake_case renamed to the DC names. The paper injects its own noise (RNoise / CONoise),
  so the clean version is the base table.
* Stock: Kaggle Stock Market Dataset, 587,526 daily rows of 137 tickers (same source and schema as the
  paper's 122,498-row subset, which is not identifiable).

Each is sampled to 10,000 rows as in the paper (seeded, without replacement: ``datasets.real.sample_rows``).
Asking for more rows than a real file has (Fig. 8's Tax sweep up to 10⁶ rows) falls back to the stand-in
and the printed provenance line says why. Flight (the BTS table) is not available offline and is always
the stand-in.

The seeded generators reproduce the paper's schemas and DCs (spec §5.2) and are calibrated so that a
10k-row sample with 1 % RNoise reaches Table 5's maximum degree within ±25 %; ``calibration()`` measures
it for a stand-in or for the real table (``prefer="real"``). ``load_table(name, path=...)`` reads a user's CSV
by the dataset's declared public types (:data:`PUBLIC_TYPES`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .. import datasets as registry
from .._validation import check_int
from ..datasets import provenance
from ..datasets.real import HOSPITAL_COLUMNS, STOCK_COLUMNS, TAX_COLUMNS, read_table, sample_rows
from .constraints import DC, load_dcs, parse_dcs

NAMES = ("Stock", "Tax", "Hospital", "Flight", "Adult")  # sparsest → densest (panel order of every figure)

# The DCs of the paper's artifact (datasets/*/dcs.txt), embedded so the package runs without the data folder.
DC_TEXT = {
    "Adult": """not(t1.EduNum!=t2.EduNum&t1.Education=t2.Education)
not(t1.EduNum=t2.EduNum&t1.Education!=t2.Education)
not(t1.Gain<t2.Gain&t1.Loss<t2.Loss)""",
    "Flight": """not(t1.DAY_OF_WEEK!=t2.DAY_OF_WEEK&t1.FL_DATE=t2.FL_DATE)
not(t1.ORIGIN_AIRPORT_ID=t2.ORIGIN_AIRPORT_ID&t1.ORIGIN!=t2.ORIGIN)
not(t1.ORIGIN_AIRPORT_ID!=t2.ORIGIN_AIRPORT_ID&t1.ORIGIN=t2.ORIGIN)
not(t1.ORIGIN_CITY_NAME!=t2.ORIGIN_CITY_NAME&t1.ORIGIN=t2.ORIGIN)
not(t1.ORIGIN_STATE_ABR!=t2.ORIGIN_STATE_ABR&t1.ORIGIN=t2.ORIGIN)
not(t1.ORIGIN_STATE_NM!=t2.ORIGIN_STATE_NM&t1.ORIGIN=t2.ORIGIN)
not(t1.DEST_AIRPORT_ID=t2.DEST_AIRPORT_ID&t1.DEST!=t2.DEST)
not(t1.DEST_AIRPORT_ID!=t2.DEST_AIRPORT_ID&t1.DEST=t2.DEST)
not(t1.DEST_CITY_NAME!=t2.DEST_CITY_NAME&t1.DEST=t2.DEST)
not(t1.DEST_STATE_ABR!=t2.DEST_STATE_ABR&t1.DEST=t2.DEST)
not(t1.DEST_STATE_NM!=t2.DEST_STATE_NM&t1.DEST=t2.DEST)
not(t1.DEST_STATE_NM=t2.DEST_STATE_NM&t1.DEST_STATE_ABR!=t2.DEST_STATE_ABR)
not(t1.DEST=t2.DEST&t1.ORIGIN=t2.ORIGIN&t1.DISTANCE!=t2.DISTANCE)""",
    "Hospital": """not(t1.City!=t2.City&t1.ZipCode=t2.ZipCode)
not(t1.State!=t2.State&t1.ZipCode=t2.ZipCode)
not(t1.ZipCode!=t2.ZipCode&t1.PhoneNumber=t2.PhoneNumber)
not(t1.MeasureCode=t2.MeasureCode&t1.MeasureName!=t2.MeasureName)
not(t1.MeasureCode!=t2.MeasureCode&t1.MeasureName=t2.MeasureName)
not(t1.State=t2.State&t1.MeasureCode=t2.MeasureCode&t1.Stateavg!=t2.Stateavg)
not(t1.ProviderNumber=t2.ProviderNumber&t1.PhoneNumber!=t2.PhoneNumber)""",
    "Stock": "not(t1.Date=t2.Date&t1.Ticker=t2.Ticker)",
    "Tax": """not(t1.AreaCode=t2.AreaCode&t1.Phone=t2.Phone)
not(t1.City!=t2.City&t1.Zip=t2.Zip)
not(t1.AreaCode=t2.AreaCode&t1.State!=t2.State)
not(t1.State!=t2.State&t1.Zip=t2.Zip)
not(t1.State=t2.State&t1.HasChild=t2.HasChild&t1.ChildExemp!=t2.ChildExemp)
not(t1.State=t2.State&t1.MaritalStatus=t2.MaritalStatus&t1.SingleExemp!=t2.SingleExemp)
not(t1.State=t2.State&t1.Salary=t2.Salary&t1.Rate!=t2.Rate)
not(t1.State=t2.State&t1.Salary>t2.Salary&t1.Rate<t2.Rate)
not(t1.State=t2.State&t1.Salary<t2.Salary&t1.Rate>t2.Rate)""",
}

# Table 5 of the paper
TABLE5 = pd.DataFrame(
    [("Adult", 32561, 15, 3, 2, 9635), ("Flight", 500000, 20, 13, 13, 1520), ("Hospital", 114919, 15, 7, 7, 793),
     ("Stock", 122498, 7, 1, 1, 1), ("Tax", 1000000, 15, 9, 7, 373)],
    columns=["dataset", "tuples", "attributes", "dcs", "fds", "max_degree_paper"],
)


def dcs_for(name: str) -> list[DC]:
    """The dataset's DCs: the shared data folder's dcs.txt when present, else the embedded copy (identical)."""
    if name not in DC_TEXT:
        raise ValueError(f"unknown dataset {name!r}; known: {', '.join(NAMES)}")
    p = registry.real_path(f"inconsistency/{name}/dcs.txt")
    return load_dcs(p) if p is not None else parse_dcs(DC_TEXT[name])


# ----------------------------------------------------------------------------------------------------------
# generators
# ----------------------------------------------------------------------------------------------------------
def _zipf(k: int, s: float) -> np.ndarray:
    w = 1.0 / np.arange(1, k + 1) ** s
    return w / w.sum()


def generate_adult(seed: int = 0, rows: int = 10000) -> tuple[pd.DataFrame, dict]:
    """Adult-like table: Education ↔ EduNum one-to-one, capital gain and loss never both positive (consistent)."""
    rng = np.random.default_rng(seed)
    edu = ["Preschool", "1st-4th", "5th-6th", "7th-8th", "9th", "10th", "11th", "12th", "HS-grad", "Some-college",
           "Assoc-voc", "Assoc-acdm", "Bachelors", "Masters", "Prof-school", "Doctorate"]
    p = np.array([0.2, 0.5, 1, 2, 1.6, 2.9, 3.6, 1.3, 32.3, 22.4, 4.2, 3.3, 16.4, 5.3, 1.8, 1.3])
    e = rng.choice(16, size=rows, p=p / p.sum())
    gains = np.array([0] + sorted(rng.choice(np.arange(100, 99999), 118, replace=False).tolist()))
    losses = np.array([0] + sorted(rng.choice(np.arange(150, 4356), 91, replace=False).tolist()))
    kind = rng.choice(3, size=rows, p=[0.87, 0.085, 0.045])
    gain = np.where(kind == 1, gains[1:][rng.integers(0, 118, rows) % 118], 0)
    loss = np.where(kind == 2, losses[1:][np.minimum(rng.geometric(0.05, rows), 91) - 1], 0)
    df = pd.DataFrame({
        "Age": rng.integers(17, 91, rows), "WorkClass": rng.choice(["Private", "Self-emp", "Gov"], rows),
        "Fnlwgt": rng.integers(12285, 1484705, rows), "Education": np.array(edu)[e], "EduNum": e + 1,
        "MaritalStatus": rng.choice(["Married", "Never-married", "Divorced"], rows),
        "Occupation": rng.choice(["Tech", "Sales", "Craft", "Admin"], rows),
        "Relationship": rng.choice(["Husband", "Wife", "Own-child"], rows), "Race": rng.choice(["White", "Black", "Other"], rows),
        "Sex": rng.choice(["Male", "Female"], rows), "Gain": gain, "Loss": loss, "Hours": rng.integers(1, 100, rows),
        "Country": rng.choice(["United-States", "Mexico", "Other"], rows, p=[0.9, 0.05, 0.05]),
        "MoreLess": rng.choice(["<=50K", ">50K"], rows, p=[0.76, 0.24]),
    })
    return df, {"generator": "adult", "rows": rows}


_STATES = [("AL", "Alabama"), ("AK", "Alaska"), ("AZ", "Arizona"), ("AR", "Arkansas"), ("CA", "California"),
           ("CO", "Colorado"), ("CT", "Connecticut"), ("DE", "Delaware"), ("FL", "Florida"), ("GA", "Georgia"),
           ("HI", "Hawaii"), ("ID", "Idaho"), ("IL", "Illinois"), ("IN", "Indiana"), ("IA", "Iowa"), ("KS", "Kansas"),
           ("KY", "Kentucky"), ("LA", "Louisiana"), ("ME", "Maine"), ("MD", "Maryland"), ("MA", "Massachusetts"),
           ("MI", "Michigan"), ("MN", "Minnesota"), ("MS", "Mississippi"), ("MO", "Missouri"), ("MT", "Montana"),
           ("NE", "Nebraska"), ("NV", "Nevada"), ("NH", "New Hampshire"), ("NJ", "New Jersey"), ("NM", "New Mexico"),
           ("NY", "New York"), ("NC", "North Carolina"), ("ND", "North Dakota"), ("OH", "Ohio"), ("OK", "Oklahoma"),
           ("OR", "Oregon"), ("PA", "Pennsylvania"), ("RI", "Rhode Island"), ("SC", "South Carolina"),
           ("SD", "South Dakota"), ("TN", "Tennessee"), ("TX", "Texas"), ("UT", "Utah"), ("VT", "Vermont"),
           ("VA", "Virginia"), ("WA", "Washington"), ("WV", "West Virginia"), ("WI", "Wisconsin"), ("WY", "Wyoming"),
           ("DC", "District of Columbia"), ("PR", "Puerto Rico")]


def generate_flight(seed: int = 0, rows: int = 10000, airports: int = 300, state_skew: float = 0.6,
                    airport_skew: float = 0.7) -> tuple[pd.DataFrame, dict]:
    """BTS on-time-like table (20 columns, 13 FD-like DCs): one month of dates, Zipf airports grouped by state."""
    rng = np.random.default_rng(seed)
    ns = len(_STATES)
    st_w = _zipf(ns, state_skew)
    ap_state = rng.choice(ns, size=airports, p=st_w)
    ap_w = _zipf(airports, airport_skew)
    ap_w = ap_w[rng.permutation(airports)]
    codes = np.array(["".join(x) for x in rng.choice(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), size=(airports * 2, 3))])
    codes = pd.unique(codes)[:airports]
    ids = rng.choice(np.arange(10000, 16000), airports, replace=False)
    city = np.array([f"City{i}, {_STATES[s][0]}" for i, s in enumerate(ap_state)])
    xy = rng.uniform(0, 3000, size=(airports, 2))
    o = rng.choice(airports, rows, p=ap_w)
    d = rng.choice(airports, rows, p=ap_w)
    same = o == d
    d[same] = (d[same] + 1) % airports
    day = rng.integers(1, 32, rows)
    dates = np.array([f"2019-01-{x:02d}" for x in range(1, 32)])
    dow = (np.arange(1, 32) + 1) % 7 + 1  # 2019-01-01 was a Tuesday (BTS: Monday = 1)
    dist = np.round(np.hypot(*(xy[o] - xy[d]).T)).astype(int) + 50
    abr = np.array([s[0] for s in _STATES]); nm = np.array([s[1] for s in _STATES])
    df = pd.DataFrame({
        "FL_DATE": dates[day - 1], "DAY_OF_WEEK": dow[day - 1], "OP_CARRIER": rng.choice(["AA", "DL", "UA", "WN", "B6"], rows),
        "OP_CARRIER_FL_NUM": rng.integers(1, 7000, rows), "ORIGIN_AIRPORT_ID": ids[o], "ORIGIN": codes[o],
        "ORIGIN_CITY_NAME": city[o], "ORIGIN_STATE_ABR": abr[ap_state[o]], "ORIGIN_STATE_NM": nm[ap_state[o]],
        "DEST_AIRPORT_ID": ids[d], "DEST": codes[d], "DEST_CITY_NAME": city[d], "DEST_STATE_ABR": abr[ap_state[d]],
        "DEST_STATE_NM": nm[ap_state[d]], "CRS_DEP_TIME": rng.integers(0, 2400, rows), "DEP_DELAY": rng.integers(-20, 200, rows),
        "CRS_ARR_TIME": rng.integers(0, 2400, rows), "ARR_DELAY": rng.integers(-30, 200, rows),
        "CANCELLED": rng.choice([0, 1], rows, p=[0.98, 0.02]), "DISTANCE": dist,
    })
    return df, {"generator": "flight", "rows": rows, "airports": airports, "state_skew": state_skew,
                "largest_dest_state_block": int(df["DEST_STATE_NM"].value_counts().max())}


def generate_hospital(seed: int = 0, rows: int = 10000, measures: int = 26, states: int = 20) -> tuple[pd.DataFrame, dict]:
    """HospitalCompare-like table (15 columns, 7 FD-like DCs): providers × measures."""
    rng = np.random.default_rng(seed)
    n_prov = max(1, int(np.ceil(rows / measures)))
    prov_state = rng.choice(states, n_prov, p=_zipf(states, 0.5))
    zips = rng.choice(np.arange(10000, 99999), n_prov, replace=False)
    n_zip_pool = max(1, n_prov // 2)
    zip_id = rng.integers(0, n_zip_pool, n_prov)
    zip_state = rng.choice(states, n_zip_pool)
    prov_state = zip_state[zip_id]
    zipc = zips[:n_zip_pool][zip_id] if n_zip_pool <= zips.size else zips[zip_id]
    phone = rng.choice(np.arange(2000000000, 9999999999, 7919), n_prov, replace=False)
    conds = ["Heart Attack", "Heart Failure", "Pneumonia", "Surgical Infection Prevention"]
    codes = [f"{['ami', 'hf', 'pn', 'scip'][k % 4]}-{k + 1}" for k in range(measures)]
    names = [f"{conds[k % 4]} measure {k + 1}" for k in range(measures)]
    pidx = np.repeat(np.arange(n_prov), measures)[:rows]
    midx = np.tile(np.arange(measures), n_prov)[:rows]
    perm = rng.permutation(rows)
    pidx, midx = pidx[perm], midx[perm]
    st = np.array([f"S{s:02d}" for s in range(states)])
    df = pd.DataFrame({
        "ProviderNumber": 10000 + pidx, "HospitalName": np.array([f"Hospital {i}" for i in range(n_prov)])[pidx],
        "Address1": np.array([f"{i} Main St" for i in range(n_prov)])[pidx],
        "City": np.array([f"Town{z}" for z in range(n_zip_pool)])[zip_id[pidx]], "State": st[prov_state[pidx]],
        "ZipCode": zipc[pidx], "CountyName": np.array([f"County{s}" for s in range(states)])[prov_state[pidx]],
        "PhoneNumber": phone[pidx], "HospitalType": "Acute Care Hospitals",
        "HospitalOwner": rng.choice(["Government", "Voluntary non-profit", "Proprietary"], n_prov)[pidx],
        "EmergencyService": rng.choice(["Yes", "No"], n_prov)[pidx], "Condition": np.array(conds)[midx % 4],
        "MeasureCode": np.array(codes)[midx], "MeasureName": np.array(names)[midx],
        "Stateavg": np.char.add(np.char.add(st[prov_state[pidx]], "_"), np.array(codes)[midx]),
    })
    return df, {"generator": "hospital", "rows": rows, "providers": n_prov, "measures": measures}


def generate_stock(seed: int = 0, rows: int = 10000, tickers: int = 50) -> tuple[pd.DataFrame, dict]:
    """Stock-market-like table (7 columns): (Date, Ticker) is a key; cells of a tickers × dates grid kept at ≈ 8 %."""
    rng = np.random.default_rng(seed)
    n_dates = int(np.ceil(12.25 * rows / tickers))
    cells = rng.choice(tickers * n_dates, size=rows, replace=False)
    t, dd = cells % tickers, cells // tickers
    dates = pd.bdate_range("2000-01-03", periods=n_dates).strftime("%Y-%m-%d").to_numpy()
    names = np.array([f"T{k:03d}" for k in range(tickers)])
    base = rng.uniform(5, 500, tickers)[t] * np.exp(rng.normal(0, 0.02, rows))
    df = pd.DataFrame({"Date": dates[dd], "Ticker": names[t], "Open": np.round(base, 2),
                       "High": np.round(base * 1.02, 2), "Low": np.round(base * 0.98, 2),
                       "Close": np.round(base * np.exp(rng.normal(0, 0.01, rows)), 2),
                       "Volume": rng.integers(1000, 10_000_000, rows)})
    return df, {"generator": "stock", "rows": rows, "tickers": tickers, "dates": n_dates}


def generate_tax(seed: int = 0, rows: int = 10000, states: int = 52, state_skew: float = 0.2,
                 zips_per_state: int | None = None) -> tuple[pd.DataFrame, dict]:
    """BART/Chu-style tax table (15 columns, 9 DCs incl. the Salary/Rate order DCs); vectorised, scales to 10⁶ rows."""
    rng = np.random.default_rng(seed)
    st_p = _zipf(states, state_skew)[rng.permutation(states)]
    s = rng.choice(states, rows, p=st_p)
    acs_per_state = 4
    ac = 200 + s * acs_per_state + rng.integers(0, acs_per_state, rows)
    zps = zips_per_state or max(5, rows // (states * 20))
    zip_local = rng.integers(0, zps, rows)
    zipc = 10000 + s * zps + zip_local
    city = np.char.add("City", (s * zps + zip_local // 3).astype(str))
    phone = rng.permutation(9_000_000)[:rows] + 1_000_000 if rows <= 9_000_000 else rng.integers(1_000_000, 9_999_999, rows)
    marital = rng.choice(["M", "S"], rows)
    child = rng.choice(["Y", "N"], rows)
    salary = rng.integers(1, 21, rows) * 5000
    # per-state non-decreasing bracket rates
    cuts = np.sort(rng.integers(1, 21, size=(states, 3)), axis=1) * 5000
    base_rate = rng.uniform(1, 4, states)
    nb = (salary[:, None] > cuts[s]).sum(axis=1)
    rate = np.round(base_rate[s] + 1.5 * nb, 2)
    single = (rng.integers(1, 20, states) * 100)[s]
    married = (rng.integers(1, 40, states) * 100)[s]
    childex = np.where(child == "Y", (rng.integers(1, 20, states) * 100)[s], 0)
    st = np.array([x[0] for x in _STATES])
    df = pd.DataFrame({
        "FName": rng.choice(["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"], rows), "LName": rng.choice(["Li", "Ng", "Smith", "Jones"], rows),
        "Gender": rng.choice(["F", "M"], rows), "AreaCode": ac, "Phone": phone, "City": city, "State": st[s % len(st)],
        "Zip": zipc, "MaritalStatus": marital, "HasChild": child, "Salary": salary, "Rate": rate,
        "SingleExemp": np.where(marital == "S", single, 0), "MarriedExemp": np.where(marital == "M", married, 0),
        "ChildExemp": childex,
    })
    return df, {"generator": "tax", "rows": rows, "states": states, "largest_state": int(np.bincount(s).max())}


def calibration(name: str, *, rows: int = 10000, alpha: float = 0.01, seed: int = 0, prefer: str = "synthetic") -> dict:
    """The calibration target of a generator: max degree of a ``rows``-row sample with RNoise(α) vs Table 5.

    Returns the generator's own statistics, the conflict graph's size and maximum degree, the paper's value,
    their ratio and whether it lies within ±25 % (Stock: exactly 1). ``prefer="real"`` measures the real table
    instead when one is available (Adult)."""
    from .conflict_graph import build
    from .noise_injection import rnoise

    if name not in GENERATORS:
        raise ValueError(f"unknown dataset {name!r}; known: {', '.join(NAMES)}")
    check_int(rows, "rows", minimum=2)
    if prefer == "synthetic":
        df, stats = GENERATORS[name](seed=seed, rows=rows)
        source = "synthetic"
        provenance.record(f"inconsistency.{name}", "synthetic", f"generate_{name.lower()}(seed={seed}, rows={rows}) (calibration)", len(df))
    else:
        ds = load_table(name, rows=rows, seed=seed, prefer=prefer)
        df, stats, source = ds.data, {}, ds.source
    dcs = dcs_for(name)
    *_, (iters, noisy) = rnoise(df, dcs, alpha, rng=np.random.default_rng([seed, 7, len(name)]), n_checkpoints=1)
    g = build(noisy, dcs)
    paper = int(TABLE5.set_index("dataset").loc[name, "max_degree_paper"])
    dmax = g.max_degree()
    ratio = dmax / paper
    within = (dmax == paper) if name == "Stock" else bool(0.75 <= ratio <= 1.25)
    return {"dataset": name, "source": source, **{f"generator_{k}": v for k, v in stats.items()}, "rows": len(df),
            "alpha": alpha, "rnoise_iterations": int(iters), "edges": g.num_edges,
            "violating_tuples": int(np.count_nonzero(g.degrees())), "max_degree": dmax,
            "max_degree_paper": paper, "ratio": ratio, "within_25pct": within}


def calibration_table(*, rows: int = 10000, alpha: float = 0.01, seed: int = 0,
                      names: tuple[str, ...] = ("Stock", "Tax", "Hospital", "Flight")) -> pd.DataFrame:
    """Stand-ins next to the real data (Table 5 notebook): per dataset, the synthetic generator's and — where the real
    file is present — the real table's conflict graph at RNoise(α): edges (violating pairs), violating tuples and the
    maximum degree, with Table 5's value. Both see the same noise seed, so the rows differ only by the base table."""
    out = []
    for name in names:
        out.append(calibration(name, rows=rows, alpha=alpha, seed=seed, prefer="synthetic"))
        if name in REAL_FILES and registry.real_path(REAL_FILES[name][0]) is not None:
            out.append(calibration(name, rows=rows, alpha=alpha, seed=seed, prefer="real"))
    cols = ["dataset", "source", "rows", "rnoise_iterations", "edges", "violating_tuples", "max_degree", "max_degree_paper", "ratio",
            "within_25pct"]
    df = pd.DataFrame(out)
    return df[cols + [c for c in df.columns if c not in cols]]


GENERATORS = {"Adult": generate_adult, "Flight": generate_flight, "Hospital": generate_hospital,
              "Stock": generate_stock, "Tax": generate_tax}


# name → (file under the data directory, column map to the DC names)
REAL_FILES = {
    "Adult": ("inconsistency/Adult/adult.csv", {}),
    "Hospital": ("inconsistency/Hospital/hospital_nadeef_10k.csv.gz", HOSPITAL_COLUMNS),
    "Tax": ("inconsistency/Tax/tax_clean_rows10001-50000.csv.gz", TAX_COLUMNS),
    "Stock": ("inconsistency/Stock/stock_kaggle_137tickers.csv.gz", STOCK_COLUMNS),
}


def _dc_attributes(name: str) -> list[str]:
    return sorted({a for d in dcs_for(name) for a in d.attributes})


def _read_real(name: str, path: Path, rows: int | None, seed: int) -> pd.DataFrame:
    from .. import cache

    rename = REAL_FILES[name][1]

    def compute() -> pd.DataFrame:
        df = read_table(path, rename=rename, required=_dc_attributes(name))
        return sample_rows(df, rows, seed, what=f"real {name} ({path.name})")

    # The sample is a deterministic function of (file, rows, seed): cached on disk, so Stock's 587k-row
    # gzip is parsed once rather than in every notebook.
    return cache.cached_call("inconsistency.real_sample", (name, path, rows, seed), compute, disk=True, version="1")


def _real_loader(name: str):
    def load(path: Path, rows: int | None = 10000, seed: int = 0) -> pd.DataFrame:
        return _read_real(name, path, rows, seed)

    return load


def real_rows(name: str) -> int | None:
    """Rows of the real file for ``name`` (None when it is absent or there is none, e.g. Flight)."""
    from .. import cache

    if name not in REAL_FILES:
        return None
    path = registry.real_path(REAL_FILES[name][0])
    if path is None:
        return None
    return cache.cached_call("inconsistency.real_rows", (path,), lambda: len(read_table(path)), disk=True, version="1")


# The public column types of each named dataset, by the constraints' column names: the types the registry's own
# copies carry (the real public files; Flight: its generator). A column not named here is text. Declared, never
# inferred from a user's rows, so one cell cannot change how another row is read (issue 21).
PUBLIC_TYPES: dict[str, dict[str, str]] = {
    "Adult": {c: "int" for c in ("Age", "Fnlwgt", "EduNum", "Gain", "Loss", "Hours")},
    "Tax": {**{c: "int" for c in ("AreaCode", "Zip", "Salary", "SingleExemp", "MarriedExemp", "ChildExemp")},
            "Rate": "float"},  # Phone is text ("555-3415") in the real table
    "Hospital": {"ZipCode": "int", "PhoneNumber": "int"},  # ProviderNumber is text ("04010F")
    "Stock": {c: "float" for c in ("Open", "High", "Low", "Close", "Adj Close", "Volume")},
    "Flight": {c: "int" for c in ("DAY_OF_WEEK", "OP_CARRIER_FL_NUM", "ORIGIN_AIRPORT_ID", "DEST_AIRPORT_ID",
                                  "CRS_DEP_TIME", "DEP_DELAY", "CRS_ARR_TIME", "ARR_DELAY", "CANCELLED", "DISTANCE")},
}


def public_schema(name: str, header):
    """The public schema of a user's copy of dataset ``name`` with this (public) header: each column typed by
    :data:`PUBLIC_TYPES` under its constraint name (a raw header name such as NADEEF's ``ZIPCode`` is mapped
    first), every other column text."""
    from ..datasets.public_schema import PublicSchema

    if name not in PUBLIC_TYPES:
        raise ValueError(f"unknown dataset {name!r}; known: {', '.join(NAMES)}")
    rename = REAL_FILES.get(name, ("", {}))[1]
    types = PUBLIC_TYPES[name]
    return PublicSchema.from_mapping({str(h): types.get(rename.get(str(h), str(h)), "text") for h in header})


def load_table(name: str, *, rows: int | None = 10000, seed: int = 0, prefer: str = "real",
               path: str | Path | None = None, schema=None, infer_types: bool = False):
    """A :class:`dpworkbench.datasets.Dataset` for ``name`` (sampled to ``rows``), or a user CSV from ``path``.

    Real data are used whenever the data directory has them (Adult, Hospital, Tax, Stock); Flight, and any
    request larger than the real file, use the seeded stand-in. The choice is printed and recorded.

    A user file (``path``; its own header names) is typed cell by cell (:func:`~.loaders.load_csv`) under
    ``schema`` (the public column types) or, by default, the named dataset's public schema
    (:func:`public_schema`: :data:`PUBLIC_TYPES`, other columns text), never from its rows: a cell that does not
    parse is NULL in its own row only. ``infer_types=True`` is a research convenience, labelled in the provenance:
    pandas infers the types from the rows, so one cell can change how every row is read (issue 21) — never for a
    release.
    """
    if name not in GENERATORS:
        raise ValueError(f"unknown dataset {name!r}; known: {', '.join(NAMES)}")
    if rows is not None:
        check_int(rows, "rows", minimum=2)
    if path is not None:
        p = Path(path)
        if not p.exists():
            raise ValueError(f"{name}: file not found: {p}")
        if infer_types and schema is not None:
            raise ValueError("give schema= or infer_types=True, not both")
        raw_names = REAL_FILES.get(name, ("", {}))[1]
        if not infer_types:
            from .loaders import load_csv, read_header

            header = read_header(p)
            rename = {k: v for k, v in raw_names.items() if k in header}
            typed = load_csv(p, public_schema(name, header) if schema is None else schema)[0].rename(columns=rename)
            missing = [c for c in _dc_attributes(name) if c not in typed.columns]
            if missing:
                raise ValueError(f"{p} lacks the columns the constraints use: {', '.join(map(repr, missing))} "
                                 f"(the file has {', '.join(map(str, typed.columns))})")
            df = sample_rows(typed, rows, seed, what=str(p))
            how = "declared types" if schema is not None else f"{name}'s public types"
        else:
            header = read_table(p, rename=None).columns  # a user copy may keep the raw header (NADEEF's ZIPCode, raha's snake_case)
            rename = {k: v for k, v in raw_names.items() if k in header}
            df = sample_rows(read_table(p, rename=rename, required=_dc_attributes(name)), rows, seed, what=str(p))
            how = "types inferred from the rows: research only, not for a release"
        provenance.record(f"inconsistency.{name}", "real",
                          f"{provenance.display_path(p)} [rows={rows!r}, seed={seed}] (user file; {how})",
                          len(df), provenance.USER_FILE_DIGEST)
        return registry.Dataset(name, df, "real", f"user file, {len(df)} rows, {how}", p)
    return registry.load(f"inconsistency.{name}", prefer=prefer, seed=seed, rows=rows)


for _name, _gen in GENERATORS.items():
    registry.register(
        f"inconsistency.{_name}",
        paper="inconsistency",
        description={"Adult": "UCI Adult (artifact's inputDB2.csv), sampled",
                     "Flight": "BTS on-time-like synthetic table (13 FD-like DCs); the real BTS table is not available",
                     "Hospital": "HospitalCompare rows shipped with NADEEF (AK–CA), sampled; stand-in: HospitalCompare-like synthetic table",
                     "Stock": "Kaggle Stock Market Dataset (137 tickers), sampled; stand-in: key (Date, Ticker) synthetic table",
                     "Tax": "BART tax table of the cleaning benchmarks (clean, 40k rows), sampled; stand-in: BART-style synthetic table"}[_name],
        generate=(lambda g: (lambda seed=0, rows=10000, **kw: g(seed=seed, rows=rows or 10000, **kw)))(_gen),
        real_path=REAL_FILES[_name][0] if _name in REAL_FILES else None,
        load_real=_real_loader(_name) if _name in REAL_FILES else None,
    )


__all__ = ["DC_TEXT", "GENERATORS", "NAMES", "REAL_FILES", "TABLE5", "calibration", "calibration_table", "dcs_for", "generate_adult", "generate_flight",
           "generate_hospital", "generate_stock", "generate_tax", "load_table", "PUBLIC_TYPES", "public_schema", "real_rows"]
