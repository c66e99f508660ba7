"""Conflict graphs: unary and NULL policies, engines against brute force, per-DC sets, tuple identity."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
import numpy as np
import pandas as pd
import pytest

from dpworkbench.inconsistency import FD, P, build, from_edges, parse_dc
from dpworkbench.inconsistency import conflict_graph as CG
from dpworkbench.inconsistency.constraints import make_dc
from dpworkbench.inconsistency.datasets import dcs_for, load_table
from dpworkbench.inconsistency.model import node_sequence
from dpworkbench.inconsistency.noise_injection import rnoise


def test_unary_policy():
    df = pd.DataFrame({"A": [-1, 2, 2], "B": [1, 1, 2]})
    dcs = [parse_dc("not(t1.A<0)"), FD("A", "B")]
    with pytest.raises(ValueError, match="unary"):
        build(df, dcs)
    g = build(df, dcs, unary_policy="separate")
    assert g.unary.tolist() == [0] and g.edge_set() == {(1, 2)}


def test_null_policies():
    df = pd.DataFrame({"A": [1, 1, 1], "B": ["x", "y", None], "C": [None, 1.0, 2.0]})
    fd = [FD("A", "B")]
    assert build(df, fd).edge_set() == {(0, 1)}  # sql: a NULL B cannot violate
    assert build(df, fd, null_policy="artifact").num_edges == 0  # artifact: any NULL column excludes the tuple
    assert build(df, fd, engine="duckdb").edge_set() == build(df, fd, engine="bruteforce").edge_set() == {(0, 1)}


# ------------------------------------------------------------------ property test: three engines agree
_ATTRS = ["A", "B", "C"]


@st.composite
def tables_and_dcs(draw):
    n = draw(st.integers(2, 9))
    a = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    b = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    c = draw(st.lists(st.sampled_from(["p", "q", "r", None]), min_size=n, max_size=n))
    df = pd.DataFrame({"A": a, "B": b, "C": c})
    dcs = []
    for _ in range(draw(st.integers(1, 3))):
        preds = []
        for _ in range(draw(st.integers(1, 3))):
            kind = draw(st.integers(0, 3))
            if kind == 0:  # same attribute, any operator (strings: = / != / order on codes)
                attr = draw(st.sampled_from(_ATTRS))
                preds.append(P(attr, draw(st.sampled_from(["=", "!=", "<", ">", "<=", ">="])), attr))
            elif kind == 1:  # cross attribute between the two integer columns
                preds.append(P("A", draw(st.sampled_from(["=", "!=", "<", ">="])), "B"))
            elif kind == 2:  # constant
                preds.append(P(draw(st.sampled_from(["A", "B"])), draw(st.sampled_from(["<", ">=", "!="])), draw(st.integers(0, 3)), const=True))
            else:
                preds.append(P("C", draw(st.sampled_from(["=", "!="])), "C"))
        dcs.append(make_dc(preds))
    if all(d.is_unary for d in dcs):
        dcs.append(FD("A", "B"))
    return df, [d for d in dcs if not d.is_unary]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables_and_dcs())
def test_fast_and_duckdb_equal_bruteforce(case):
    df, dcs = case
    brute = build(df, dcs, engine="bruteforce")
    fast = build(df, dcs)
    duck = build(df, dcs, engine="duckdb")
    assert fast.edge_set() == brute.edge_set()
    assert duck.edge_set() == brute.edge_set()
    for k in range(len(dcs)):
        assert set(fast.per_dc[k].tolist()) == set(brute.per_dc[k].tolist())


def test_per_dc_union_and_real_dcs_on_noisy_sample():

    for name in ("Adult", "Tax", "Hospital"):
        ds = load_table(name, rows=150, seed=1)
        dcs = dcs_for(name)
        *_, (_, noisy) = rnoise(ds.data, dcs, 0.05, rng=3, n_checkpoints=1)
        fast = build(noisy, dcs)
        assert fast.edge_set() == build(noisy, dcs, engine="bruteforce").edge_set()
        assert fast.union_of_first(len(dcs)).edge_set() == fast.edge_set()
        assert fast.union_of_first(1).num_edges <= fast.num_edges
        assert fast.u.dtype == fast.v.dtype == np.int32 and bool(np.all(fast.u < fast.v))
        if name == "Tax":  # the two Salary/Rate DCs are mirrors: evaluated once, one shared edge array
            assert fast.per_dc[-1] is fast.per_dc[-2]


def test_id_column_duplicates_and_nulls_by_occurrence_rank():
    """Issue 21, finding 6: duplicate or missing keys are not refused (a refusal depending on the rows, whose
    message quoted the key); identity = (key, occurrence rank), and the node sequence of every neighbour is the
    restriction of the larger table's (the stable-order property the sensitivities need)."""
    df = pd.DataFrame({"id": [1, 2, 2, None, 2, None], "A": [0] * 6, "B": [0, 1, 2, 3, 4, 5]})
    ident = CG.tuple_identity(df, "id")
    assert ident.occ.tolist() == [0, 0, 1, 0, 2, 1]
    with pytest.raises(ValueError, match="not a column"):
        build(df, [FD("A", "B")], id_column="nope")
    seq = node_sequence(ident, 3).tolist()
    for drop in range(len(df)):
        sub = df.drop(index=drop).reset_index(drop=True)
        keep = [i for i in range(len(df)) if i != drop]
        got = [keep[i] for i in node_sequence(CG.tuple_identity(sub, "id"), 3).tolist()]
        assert got == [i for i in seq if i != drop]


def test_identity_ignores_position_and_dtype():
    df = pd.DataFrame({"A": [0, 0, 1], "B": [1.0, 2.0, np.nan], "C": ["x", "y", None]})
    a = CG.tuple_identity(df)
    b = CG.tuple_identity(df.iloc[[2, 0, 1]].reset_index(drop=True))
    assert a.key1.tolist() == b.key1[[1, 2, 0]].tolist()
    ints = CG.tuple_identity(pd.DataFrame({"A": [0, 1], "B": [1, 2]}))
    floats = CG.tuple_identity(pd.DataFrame({"A": [0.0, 1.0], "B": [1.0, 2.0]}))
    assert ints.key1.tolist() == floats.key1.tolist()  # int and float columns hash alike (numbers as float64)


def test_identical_rows_tie_by_occurrence_and_collisions_by_content(monkeypatch):
    df = pd.DataFrame({"A": [5, 5, 7, 5], "B": [1, 1, 2, 1]})
    ident = CG.tuple_identity(df)
    assert ident.occ.tolist() == [0, 1, 0, 2] and not ident.tie.any()
    monkeypatch.setattr(CG, "_row_hashes", lambda canon: (np.zeros(len(canon), np.uint64),) * 2)
    ident = CG.tuple_identity(df)  # every row collides: different contents are ordered by content
    assert ident.tie.tolist() == [0, 0, 1, 0] and ident.occ.tolist() == [0, 1, 0, 2]
    seq = node_sequence(ident)
    assert seq.tolist() == [0, 1, 3, 2]


def test_edge_list_graphs_use_labels():
    g = from_edges(4, [(0, 1), (1, 2)])
    assert g.identity is None
    gt = build(pd.DataFrame({"A": [0, 0], "B": [1, 2]}), [FD("A", "B")])
    assert gt.identity is not None and gt.identity.source == "content"
    assert gt.union_of_first(1).identity is gt.identity
