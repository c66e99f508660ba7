"""The harness itself: it passes a private COUNT and flags a COUNT released with half the noise or with the
data's own size as a clip bound (the shapes of findings 3 and 6)."""

from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np
import pandas as pd

from dpworkbench.graphs.io import EDGE_LINE, read_edge_lines
from dpworkbench.mechanisms import laplace_mechanism
from dpworkbench.testing.harness import (NON_EDGE_LINES, EntryPoint, PreNoiseBackend, check_entry_point,
                                         edge_list_neighbours, fk_tuple_neighbours, markdown_table, node_neighbours,
                                         row_neighbours)


def _tables(rng):
    return [pd.DataFrame({"a": rng.integers(0, 3, size=k)}) for k in (4, 6)]


def _entry(release, name="count", expect=False):
    return EntryPoint(
        name=name, kind="api", paper="core", relation="add/remove one row at any position", claimed_epsilon=1.0,
        public_inputs=(), make_inputs=_tables, neighbours=lambda df: row_neighbours(df, df.iloc[:1]),
        statistics=lambda df: {"count": float((df["a"] == 0).sum())}, sensitivities={"count": 1.0},
        release=release, expect_flagged=expect, n_samples=6000,
    )


def test_harness_passes_private_count():
    rep = check_entry_point(_entry(lambda df, rng: laplace_mechanism(float((df["a"] == 0).sum()), epsilon=1.0,
                                                                     sensitivity=1.0, rng=rng)))
    assert rep.sensitivity.pairs > 10 and not rep.flagged, str(rep)


def test_harness_flags_half_noise_and_data_size_clip():
    half = _entry(lambda df, rng: laplace_mechanism(float((df["a"] == 0).sum()), epsilon=2.0, sensitivity=1.0,
                                                    rng=rng), expect=True)
    assert check_entry_point(half).flagged
    clipped = _entry(lambda df, rng: min(laplace_mechanism(float((df["a"] == 0).sum()), epsilon=1.0, sensitivity=1.0,
                                                           rng=rng), float(len(df))), expect=True)
    assert check_entry_point(clipped).flagged


def test_harness_flags_wrong_sensitivity_claim():
    e = _entry(lambda df, rng: 0.0)
    e2 = EntryPoint(**{**e.__dict__, "statistics": lambda df: {"count": 2.0 * float((df["a"] == 0).sum())}})
    assert check_entry_point(e2, n_samples=500).sensitivity.violations


def test_node_neighbours_relabel_and_table():
    out = list(node_neighbours(3, np.array([[0, 1], [1, 2]])))
    assert [n for n, _ in out] == [2, 2, 2]
    assert out[0][1].tolist() == [[0, 1]] and out[1][1].tolist() == [] and out[2][1].tolist() == [[0, 1]]
    assert "| `count` | api |" in markdown_table([_entry(lambda df, rng: 0.0)])


def test_fk_tuple_neighbours_follow_the_declared_keys_transitively():
    # person ← orders ← items (items reference orders, orders reference person and the public shop): removing a
    # person removes its orders and their items, and nothing the keys do not tie to it
    catalog = SimpleNamespace(
        columns={"shop": ["sid"], "person": ["id"], "orders": ["oid", "pid", "sid"], "items": ["iid", "oid"]},
        foreign=[SimpleNamespace(table="orders", columns=("pid",), ref_table="person", ref_columns=("id",)),
                 SimpleNamespace(table="orders", columns=("sid",), ref_table="shop", ref_columns=("sid",)),
                 SimpleNamespace(table="items", columns=("oid",), ref_table="orders", ref_columns=("oid",))])
    x = {"shop": ((1,),), "person": ((1,), (2,)), "orders": ((10, 1, 1), (11, 2, 1), (12, 1, 1)),
         "items": ((100, 10), (101, 11), (102, 12), (103, 12))}
    out = list(fk_tuple_neighbours(x, catalog, ("person",), lambda t, rel: [{"person": ((3,),), "orders": ((13, 3, 1),)}]))
    assert out[0] == {"shop": ((1,),), "person": ((2,),), "orders": ((11, 2, 1),), "items": ((101, 11),)}
    assert out[1] == {"shop": ((1,),), "person": ((1,),), "orders": ((10, 1, 1), (12, 1, 1)),
                      "items": ((100, 10), (102, 12), (103, 12))}
    assert out[2]["person"] == ((1,), (2,), (3,)) and out[2]["orders"][-1] == (13, 3, 1) and len(out) == 3
    # the public shop is not private: removing it is no neighbour
    assert all(n["shop"] == ((1,),) for n in out)


def test_edge_list_neighbours_node_and_edge(tmp_path):
    text = "0 1\n1,2\n# c\n2\t3\n"
    node = list(edge_list_neighbours(text, "node", ["x y"]))
    # nodes 0..3 by the one-line rule; each removes the lines naming it (the comment is no edge, it stays)
    assert node[:4] == ["1,2\n# c\n2\t3\n", "# c\n2\t3\n", "0 1\n# c\n", "0 1\n1,2\n# c\n"]
    assert node[4:] == ["x y\n" + text, text + "x y\n"]
    assert list(edge_list_neighbours("0 1\n", "node", ())) == ["# no edges\n", "# no edges\n"]
    # by default the lines inserted are NON_EDGE_LINES, none of which the reader takes for an edge
    assert list(edge_list_neighbours("0 1\n", "node"))[2:4] == ["1.5 2\n0 1\n", "0 1\n1.5 2\n"]
    assert not any(re.match(EDGE_LINE, line) for line in NON_EDGE_LINES)
    (tmp_path / "e.txt").write_text("\n".join(NON_EDGE_LINES) + "\n", encoding="utf-8")
    edges, counts = read_edge_lines(tmp_path / "e.txt")
    assert edges.shape == (0, 2) and counts["malformed_lines_dropped"] == len(NON_EDGE_LINES) - 2  # blank, comment
    edge = list(edge_list_neighbours("0 1\n", "edge", ["0 1"], nodes=3))
    # the line removed; then each edge of the node set {0, 1, 2} (and the extra line, already one of them) inserted
    assert edge == ["\n", "0 1\n0 1\n", "0 1\n0 1\n", "0 2\n0 1\n", "0 1\n0 2\n", "1 2\n0 1\n", "0 1\n1 2\n"]


def test_prenoise_backend_draws_nothing():
    b = PreNoiseBackend(0)
    assert b.generator.random(3).tolist() == [1.0, 1.0, 1.0] and b.generator.integers(0, 5, 2).tolist() == [0, 0]
    assert b.add_laplace(np.array([1.5, 2.0]), 10.0).tolist() == [1.5, 2.0] and b.for_partition(3) is b


def test_scratch_duckdb_holds_the_rows_and_the_declared_keys():
    import duckdb

    from dpworkbench.testing.harness import scratch_duckdb

    ddl = "CREATE TABLE p(id INTEGER PRIMARY KEY); CREATE TABLE o(oid INTEGER PRIMARY KEY, pid INTEGER REFERENCES p(id));"
    x = {"p": ((1,), (2,)), "o": ((10, 1), (11, 1))}
    path = scratch_duckdb("core", ddl, x)
    assert scratch_duckdb("core", ddl, x) == path != scratch_duckdb("core", ddl, {**x, "o": ((10, 2),)})  # per content
    con = duckdb.connect(str(path), read_only=True)
    try:
        assert con.execute("SELECT * FROM o ORDER BY oid").fetchall() == [(10, 1), (11, 1)]
        kinds = {r[0] for r in con.execute("SELECT constraint_type FROM duckdb_constraints() WHERE table_name = 'o'").fetchall()}
        assert {"PRIMARY KEY", "FOREIGN KEY"} <= kinds
    finally:
        con.close()
