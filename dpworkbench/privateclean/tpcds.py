"""TPC-DS ``customer_address`` generated offline with DuckDB's tpcds extension (spec §6.2, Fig. 8).

The extension ships as the PyPI wheel ``duckdb-extension-tpcds`` (its version must equal DuckDB's);
``CALL dsdgen(sf=…)`` generates every TPC-DS table (≈2 min at sf=1 on this machine), so the projection
(ca_city, ca_county, ca_state, ca_country) is cached as Parquet under ``paths.cache_dir()``. The raw
table violates the FD (city, county) → state in a few percent of groups; :func:`canonicalise` repairs it by
majority vote so that the FD holds before our corruption. When the extension is unavailable the
synthetic ``customer_address_like`` stand-in is used (``source`` says which).
"""
from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from dpworkbench._validation import check_options
from dpworkbench.paths import cache_dir

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
    from .standins import customer_address_like

    return customer_address_like(seed, S or 50_000), "synthetic"
