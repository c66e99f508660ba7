"""Datasets of the inconsistency paper: stand-ins, real tables, user CSVs, calibration."""

from __future__ import annotations

import pandas as pd
import pytest

from dpworkbench.inconsistency import build
from dpworkbench.inconsistency.datasets import NAMES, calibration, dcs_for, load_table


@pytest.mark.parametrize("name", NAMES)
def test_every_dataset_has_a_consistent_synthetic_stand_in(name):
    ds = load_table(name, rows=500, seed=3, prefer="synthetic")
    assert ds.source == "synthetic" and len(ds.data) == 500
    dcs = dcs_for(name)
    assert build(ds.data, dcs).num_edges == 0  # datasets start consistent
    assert ds.data.shape[1] == {"Adult": 15, "Flight": 20, "Hospital": 15, "Stock": 7, "Tax": 15}[name]


def test_adult_real_and_user_csv(tmp_path):
    ds = load_table("Adult", rows=1000, seed=0)
    if ds.source == "real":
        assert list(ds.data.columns)[:3] == ["Age", "WorkClass", "Fnlwgt"]
    p = tmp_path / "stock.csv"
    load_table("Stock", rows=50, prefer="synthetic").data.to_csv(p, index=False)
    user = load_table("Stock", rows=None, path=p)
    assert user.source == "real" and len(user.data) == 50
    pd.DataFrame({"x": [1]}).to_csv(tmp_path / "bad.csv", index=False)
    with pytest.raises(ValueError, match="lacks the columns"):
        load_table("Stock", path=tmp_path / "bad.csv")
    with pytest.raises(ValueError, match="unknown dataset"):
        load_table("Nope")


def test_tax_generator_scales_and_stays_consistent():
    ds = load_table("Tax", rows=50000, seed=1, prefer="synthetic")
    assert build(ds.data, dcs_for("Tax")).num_edges == 0


@pytest.mark.parametrize("name", ["Stock", "Tax", "Hospital", "Flight"])
def test_synthetic_generators_are_calibrated_to_table5(name):
    """10k rows, 1 % RNoise: the maximum degree lies within ±25 % of Table 5 (Stock: exactly 1), two seeds."""
    for seed in (0, 1):
        cal = calibration(name, seed=seed)
        assert cal["source"] == "synthetic" and cal["rows"] == 10000
        assert cal["within_25pct"], cal
        assert any(k.startswith("generator_") for k in cal)  # the generator reports its own statistics


def test_user_csv_typed_by_a_public_schema(tmp_path):
    """Issue 21: with ``schema=`` a user file's types come from the declaration, cell by cell (a text cell in a
    numeric column is NULL for that row only), not from pandas' inference over the rows."""
    p = tmp_path / "stock.csv"
    df = load_table("Stock", rows=20, prefer="synthetic").data
    df.to_csv(p, index=False)
    with open(p, "a") as fh:
        fh.write(",".join(["x"] * df.shape[1]) + "\n")
    kinds = {c: ("float" if pd.api.types.is_numeric_dtype(df[c]) else "text") for c in df.columns}
    user = load_table("Stock", rows=None, path=p, schema=kinds).data
    num = [c for c, k in kinds.items() if k == "float"]
    assert num and all(pd.api.types.is_float_dtype(user[c]) for c in num)
    assert user[num].iloc[-1].isna().all() and not user[num].iloc[:-1].isna().any().any()


def test_user_csv_defaults_to_the_datasets_public_types(tmp_path):
    """Issue 21 (closing notes): without ``schema=`` main inferred a user file's types with pandas, so one 'x' in
    Gain made the whole column text and every other row's Gain a string (compared as text by the DCs). The default
    is now the dataset's declared public types: the 'x' is NULL in its own row, every other row reads the same."""
    base = load_table("Adult", rows=30, seed=0, prefer="synthetic").data
    frames = []
    for i, cell in enumerate((None, "x")):
        df = base.astype(object)
        if cell is not None:
            df.loc[3, "Gain"] = cell   # a neighbour: one cell substituted
        df.to_csv(tmp_path / f"a{i}.csv", index=False)
        frames.append(load_table("Adult", rows=None, path=tmp_path / f"a{i}.csv").data)
    a, b = frames
    assert pd.isna(b.loc[3, "Gain"]) and all(pd.api.types.is_numeric_dtype(f["Gain"]) for f in frames)
    assert list(a.dtypes.astype(str)) == list(b.dtypes.astype(str))
    assert a.drop(index=3).equals(b.drop(index=3))


def test_inferred_types_are_only_behind_a_labelled_argument(tmp_path):
    from dpworkbench.datasets import provenance

    df = load_table("Adult", rows=20, seed=0, prefer="synthetic").data.astype(object)
    df.loc[0, "Gain"] = "x"
    df.to_csv(tmp_path / "a.csv", index=False)
    provenance.clear()
    ds = load_table("Adult", rows=None, path=tmp_path / "a.csv", infer_types=True)
    assert not pd.api.types.is_numeric_dtype(ds.data["Gain"])   # the old convenience: the 'x' made Gain text
    assert "research only" in ds.description
    assert any("research only" in u.path_or_generator for u in provenance.used())
    with pytest.raises(ValueError, match="not both"):
        load_table("Adult", path=tmp_path / "a.csv", schema={"Gain": "int"}, infer_types=True)


@pytest.mark.parametrize("name", NAMES)
def test_declared_public_types_match_the_registrys_copy(name, tmp_path):
    """The declaration is what the registry's own copy of each dataset holds (real file when present, else the
    stand-in): a user's copy of it loads with the same kinds, and every attribute a DC orders (<, >) is a number."""
    import re

    from dpworkbench.inconsistency.datasets import DC_TEXT, PUBLIC_TYPES

    ds = load_table(name, rows=200, seed=0)
    ds.data.to_csv(tmp_path / "copy.csv", index=False)
    user = load_table(name, rows=None, path=tmp_path / "copy.csv").data
    for c in ds.data.columns:
        declared = PUBLIC_TYPES[name].get(c, "text") != "text"
        if declared:
            assert pd.api.types.is_numeric_dtype(ds.data[c]), c
        elif ds.source == "real" and ds.data[c].notna().any():
            assert not pd.api.types.is_numeric_dtype(ds.data[c]), c
        assert pd.api.types.is_numeric_dtype(user[c]) == declared, c
    ordered = set(re.findall(r"t1\.(\w+)\s*(?:<=|>=|<|>)", DC_TEXT[name]))
    assert all(PUBLIC_TYPES[name].get(a, "text") != "text" for a in ordered), ordered
