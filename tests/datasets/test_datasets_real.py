"""The real files of shared/data: every DC attribute resolves, samples are the paper's size, Deezer is HU ∪ RO.

Skipped when the data directory is absent (a user without it gets the stand-ins, tested elsewhere).
"""

from __future__ import annotations

import pytest

from dpworkbench import datasets
from dpworkbench.datasets import provenance

pytestmark = pytest.mark.skipif(datasets.real_path("inconsistency/Tax/tax_clean_rows10001-50000.csv.gz") is None,
                                reason="shared real data not available")


@pytest.mark.parametrize("name", ["Hospital", "Tax", "Stock"])
def test_inconsistency_real_tables_resolve_every_dc_attribute(name):
    from dpworkbench.inconsistency.datasets import dcs_for, load_table

    provenance.clear()
    ds = load_table(name, rows=2000, seed=1)
    assert ds.source == "real" and len(ds.data) == 2000
    attrs = {a for d in dcs_for(name) for a in d.attributes}
    assert attrs <= set(ds.data.columns)
    use = provenance.used()[-1]
    assert use.source == "real" and "seed=1" in use.path_or_generator and len(use.sha256) == 64
    again = load_table(name, rows=2000, seed=1).data
    assert again.equals(ds.data)  # same (file, rows, seed) → same rows


def test_flight_stays_synthetic_and_oversized_requests_say_so():
    from dpworkbench.inconsistency.datasets import load_table

    provenance.clear()
    assert load_table("Flight", rows=500).source == "synthetic"
    big = load_table("Tax", rows=50_000)  # the real Tax file has 40,000 rows
    assert big.source == "synthetic" and "40,000 rows" in provenance.used()[-1].note


def test_user_file_with_raw_header_is_mapped(tmp_path):
    import pandas as pd

    from dpworkbench.inconsistency.datasets import load_table

    raw = pd.read_csv(datasets.real_path("inconsistency/Hospital/hospital_nadeef_10k.csv.gz"), nrows=300)
    raw.to_csv(tmp_path / "h.csv", index=False)
    ds = load_table("Hospital", rows=100, path=tmp_path / "h.csv")
    assert {"ZipCode", "CountyName", "Stateavg"} <= set(ds.data.columns)
    raw.drop(columns=["PhoneNumber"]).to_csv(tmp_path / "bad.csv", index=False)
    with pytest.raises(ValueError, match=r"bad.csv lacks the columns the constraints use: 'PhoneNumber'"):
        load_table("Hospital", rows=100, path=tmp_path / "bad.csv")


def test_deezer_is_the_two_country_disjoint_union():
    from dpworkbench.r2t.datasets import load_graph

    provenance.clear()
    ds, _ = load_graph("deezer")
    g = ds.data
    assert ds.source == "real" and (g.n, g.num_edges) == (89_311, 348_713)  # HU 47,538/222,887 + RO 41,773/125,826
    e = g.edge_array()
    hu = 47_538
    assert not ((e[:, 0] < hu) & (e[:, 1] >= hu)).any()  # no edge joins the two countries
    assert "two-country subset" in provenance.used()[-1].note
    assert ";" in provenance.used()[-1].sha256  # one hash per file read


def test_calibration_table_puts_stand_ins_next_to_real_data():
    from dpworkbench.inconsistency.datasets import calibration_table

    t = calibration_table(rows=1500, names=("Stock", "Tax", "Flight"))
    assert list(zip(t.dataset, t.source)) == [("Stock", "synthetic"), ("Stock", "real"), ("Tax", "synthetic"), ("Tax", "real"),
                                              ("Flight", "synthetic")]
    assert (t.violating_tuples <= 2 * t.edges).all() and (t.max_degree <= t.violating_tuples).all()


def test_real_rows_counts_the_real_file():  # Fig. 8 switches to the stand-in above it
    from dpworkbench.inconsistency.datasets import real_rows

    assert real_rows("Tax") == 40_000 and real_rows("Flight") is None
