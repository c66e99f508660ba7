"""Core loader layer: provenance record, file hashes, external-file verification, real readers, fallbacks."""

from __future__ import annotations

import gzip
import hashlib
import json

import numpy as np
import pandas as pd
import pytest

from dpworkbench import datasets
from dpworkbench.datasets import external, provenance
from dpworkbench.datasets.real import NotEnoughRows, disjoint_union, read_edges, read_table, sample_rows


@pytest.fixture(autouse=True)
def _fresh_record(monkeypatch, tmp_path):
    monkeypatch.setenv("DPWB_CACHE", str(tmp_path / "cache"))
    provenance.clear()
    yield
    provenance.clear()


def test_record_prints_one_line_and_drops_duplicates(capsys):
    provenance.record("toy", "real", "x/y.csv [rows=10, seed=3]", 10, "ab" * 32)
    provenance.record("toy", "real", "x/y.csv [rows=10, seed=3]", 10, "ab" * 32)
    provenance.record("toy2", "synthetic", "gen(seed=0)", 5, note="real file absent")
    out = capsys.readouterr().out.strip().splitlines()
    # a repeated use is recorded and printed once per process (issue 28: the [data] line repeated per panel)
    assert len(out) == 2 and "REAL data" in out[0] and "SYNTHETIC stand-in" in out[1] and "real file absent" in out[1]
    assert [u.dataset for u in provenance.used()] == ["toy", "toy2"]
    with pytest.raises(ValueError, match="source"):
        provenance.record("toy", "maybe", "p", 1)


def test_datasets_json_and_table(tmp_path):
    provenance.record("a", "real", "f.csv [seed=1]", 3, "00" * 32)
    provenance.record("b", "synthetic", "gen(seed=0)", 7, note="real file absent", stands_in_for="B")
    provenance.write_json(tmp_path / "inconsistency" / "tab05" / "datasets.json")
    provenance.clear()
    provenance.record("c", "real", "g.txt", 9, "11" * 32)
    provenance.write_json(tmp_path / "r2t" / "tab01" / "datasets.json")
    table = provenance.provenance_table(tmp_path)
    assert list(table.columns) == ["notebook", "dataset", "source", "stands_in_for", "path_or_generator", "rows_or_nodes", "sha256"]
    assert table.stands_in_for.fillna("").tolist() == ["", "B", ""]  # a stand-in names what it stands in for
    assert table.notebook.tolist() == ["inconsistency/tab05", "inconsistency/tab05", "r2t/tab01"]
    assert table.source.tolist() == ["real", "synthetic", "real"] and table.rows_or_nodes.tolist() == [3, 7, 9]
    assert table.path_or_generator.tolist()[1] == "gen(seed=0) (real file absent)"  # the reason travels with the path
    provenance.clear()
    provenance.write_json(tmp_path / "mechanisms" / "learn_x" / "datasets.json")  # a notebook that loaded nothing
    table = provenance.provenance_table(tmp_path)
    assert table[table.notebook == "mechanisms/learn_x"].dataset.tolist() == [provenance.NO_DATASET]  # still listed
    (tmp_path / "x" / "y").mkdir(parents=True)
    (tmp_path / "x" / "y" / "datasets.json").write_text("{not json")
    with pytest.raises(ValueError, match="datasets.json"):
        provenance.provenance_table(tmp_path)


def test_notebook_context_finish_writes_datasets_json(tmp_path):
    from dpworkbench.experiments import NotebookContext

    ctx = NotebookContext("toy/provenance", profile="ci", output_dir=tmp_path / "out")
    provenance.record("toy", "synthetic", "gen(seed=0)", 4)
    ctx.finish()
    rows = json.loads((tmp_path / "out" / "datasets.json").read_text())
    assert rows == [{"dataset": "toy", "source": "synthetic", "path_or_generator": "gen(seed=0)", "rows_or_nodes": 4,
                     "sha256": "", "note": "", "stands_in_for": ""}]


def test_file_sha256_matches_hashlib_and_follows_rewrites(tmp_path):
    p = tmp_path / "f.bin"
    p.write_bytes(b"abc" * 1000)
    assert provenance.file_sha256(p) == hashlib.sha256(b"abc" * 1000).hexdigest()
    p.write_bytes(b"abcd" * 1000)  # new size → new cache key
    assert provenance.file_sha256(p) == hashlib.sha256(b"abcd" * 1000).hexdigest()


def test_external_files_are_verified_by_size_then_hash(tmp_path, monkeypatch):
    content = b"# toy\n0\t1\n1\t2\n"
    p = tmp_path / "HR_edges.csv"
    p.write_bytes(content)
    with pytest.raises(external.ExternalFileError, match=r"HR_edges.csv: 14 bytes, but the published HR_edges.csv has 5,769,739"):
        external.verify_external("deezer_hr", p)
    fake = external.ExternalFile("deezer_hr", "HR_edges.csv", len(content), "0" * 64, "https://example.org")
    monkeypatch.setitem(external.EXTERNAL_FILES, "deezer_hr", fake)
    with pytest.raises(external.ExternalFileError, match="sha256 .* differs"):
        external.verify_external("deezer_hr", p)
    ok = external.ExternalFile("deezer_hr", "HR_edges.csv", len(content), hashlib.sha256(content).hexdigest(), "https://example.org")
    monkeypatch.setitem(external.EXTERNAL_FILES, "deezer_hr", ok)
    assert external.verify_external("deezer_hr", p) == p
    with pytest.raises(external.ExternalFileError, match="not found"):
        external.verify_external("deezer_hr", tmp_path / "nope.csv")
    with pytest.raises(external.ExternalFileError, match="unknown external file"):
        external.verify_external("facebook", p)
    # found under the data directory's graphs/ → used; a wrong copy there raises instead of being skipped
    (tmp_path / "graphs").mkdir()
    (tmp_path / "graphs" / "HR_edges.csv").write_bytes(content)
    monkeypatch.setenv("DPWB_DATA", str(tmp_path))
    assert external.find_external("deezer_hr") == tmp_path / "graphs" / "HR_edges.csv"
    (tmp_path / "graphs" / "HR_edges.csv").write_bytes(content + b"3\t4\n")
    with pytest.raises(external.ExternalFileError, match="bytes"):
        external.find_external("deezer_hr")


def test_published_table_matches_the_readme():
    """The sizes/hashes are copied from shared/data/README.md; check them against it when it is here."""
    from dpworkbench.paths import data_dir

    base = data_dir()
    if base is None or not (base / "README.md").exists():
        pytest.skip("no shared data README")
    text = (base / "README.md").read_text()
    for f in external.EXTERNAL_FILES.values():
        assert f.sha256 in text and f"{f.size:,}" in text, f.filename


def test_read_table_gzip_rename_and_clear_errors(tmp_path):
    p = tmp_path / "t.csv.gz"
    with gzip.open(p, "wt") as fh:
        fh.write("ZIPCode,CountryName,City\n1,A,x\n2,B,y\n")
    df = read_table(p, rename={"ZIPCode": "ZipCode", "CountryName": "CountyName"}, required=["ZipCode", "City"])
    assert list(df.columns) == ["ZipCode", "CountyName", "City"] and len(df) == 2
    with pytest.raises(ValueError, match=r"t.csv.gz lacks the columns the constraints use: 'State'"):
        read_table(p, required=["City", "State"])
    with pytest.raises(ValueError, match=r"t.csv.gz: expected column 'StateAvg'"):
        read_table(p, rename={"StateAvg": "Stateavg"})


def test_sample_rows_is_seeded_and_never_upsamples():
    df = pd.DataFrame({"a": np.arange(100)})
    a, b, c = sample_rows(df, 10, 1), sample_rows(df, 10, 1), sample_rows(df, 10, 2)
    assert a.equals(b) and not a.equals(c) and a.a.is_unique
    assert len(sample_rows(df, None, 0)) == 100
    with pytest.raises(NotEnoughRows, match="100 rows, 101 requested"):
        sample_rows(df, 101, 0)


def test_edges_and_disjoint_union(tmp_path):
    p = tmp_path / "e.csv.gz"
    with gzip.open(p, "wt") as fh:
        fh.write("node_1,node_2\n0,5\n5,0\n5,7\n7,7\n")
    e = read_edges(p)
    assert e.tolist() == [[0, 5], [5, 7]]  # both directions kept once, self-loop dropped
    u, n = disjoint_union([e, np.array([[0, 5]])])
    assert n == 5 and u.tolist() == [[0, 1], [1, 2], [3, 4]]  # second part offset past the first, ids dense


def test_load_records_real_fallback_and_absent(tmp_path, monkeypatch, capsys):
    (tmp_path / "toy.csv").write_text("a\n1\n2\n3\n")
    datasets.register("toy_provenance", paper="test", description="toy",
                      generate=lambda seed=0, rows=5, **kw: pd.DataFrame({"a": np.arange(rows or 5)}),
                      real_path="toy.csv", load_real=lambda path, rows=None, seed=0: sample_rows(pd.read_csv(path), rows, seed))
    monkeypatch.setenv("DPWB_DATA", str(tmp_path))
    real = datasets.load("toy_provenance", rows=2, seed=4)
    assert real.source == "real" and len(real.data) == 2
    big = datasets.load("toy_provenance", rows=10)  # more rows than the file: stand-in, and it says why
    assert big.source == "synthetic" and len(big.data) == 10
    (tmp_path / "toy.csv").unlink()
    absent = datasets.load("toy_provenance", rows=3)
    assert absent.source == "synthetic"
    datasets.register("toy_no_real", paper="test", description="toy", generate=lambda seed=0, **kw: pd.DataFrame({"a": [1]}))
    datasets.load("toy_no_real")
    used = provenance.used()
    assert [u.source for u in used] == ["real", "synthetic", "synthetic", "synthetic"]
    assert "synthetic only" in used[3].note
    assert used[0].path_or_generator == "toy.csv [rows=2, seed=4]" and len(used[0].sha256) == 64
    assert "3 rows, 10 requested" in used[1].note and "absent" in used[2].note
    assert capsys.readouterr().out.count("[data] toy_") == 4


def test_a_users_own_file_gets_no_hash(tmp_path):
    """Privacy: an exact hash of a user's private table would let anyone holding a candidate confirm it."""
    from dpworkbench.datasets import provenance
    from dpworkbench.inconsistency.datasets import load_table

    src = load_table("Stock", rows=50, seed=1, prefer="synthetic").data
    path = tmp_path / "mine.csv"
    src.to_csv(path, index=False)
    provenance.clear()
    load_table("Stock", path=path, rows=20, seed=1)
    uses = [u for u in provenance.used() if "user file" in u.path_or_generator]
    assert uses and all(u.sha256 == provenance.USER_FILE_DIGEST for u in uses)


def test_a_registered_stand_in_names_the_dataset_it_stands_in_for(tmp_path, monkeypatch):
    from dpworkbench import datasets

    monkeypatch.setenv("DPWB_DATA", str(tmp_path))  # no real files: every load is the stand-in
    provenance.clear()
    datasets.load("r2t.roadnet_pa", n=200, seed=0)
    (use,) = provenance.used()
    assert (use.source, use.stands_in_for) == ("synthetic", "r2t.roadnet_pa")
