"""Edge-list loading: gzip, headers, and a bad first line refused instead of dropped."""

import gzip

import pytest

from dpworkbench.graphs.io import load_edge_list


def test_gzip_csv_with_header(tmp_path):
    p = tmp_path / "e.csv.gz"
    with gzip.open(p, "wt") as fh:
        fh.write("node_1,node_2\n0,1\n1,2\n")
    g = load_edge_list(p)
    assert g.n == 3


def test_float_first_line_is_an_error_not_a_header(tmp_path):
    p = tmp_path / "e.txt"
    p.write_text("1.5 2\n3 4\n")
    with pytest.raises(ValueError, match=r"integers \(first line '1.5 2'\)"):
        load_edge_list(p)
    p.write_text("u v\n3 4\n")
    assert load_edge_list(p).n == 2
