"""DC parsing, and the fast and DuckDB conflict-graph engines against a brute-force pairwise evaluation."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dpworkbench.inconsistency import FD, P, build, parse_dc, parse_dcs
from dpworkbench.inconsistency.constraints import DC, make_dc, unique_dcs
from dpworkbench.inconsistency.datasets import dcs_for


def test_both_syntaxes_parse_to_the_same_dc():
    a = parse_dc("not(t1.A=t2.A&t1.B!=t2.B)")
    b = parse_dc("t1&t2&EQ(t1.A,t2.A)&IQ(t1.B,t2.B)")
    assert a.key() == b.key()
    assert a.is_fd and a.is_fd_like and a.lhs == ("A",)
    c = parse_dc("t1&t2&LT(t1.x,t2.x)&GTE(t1.y,t2.y)")
    assert [p.op for p in c.predicates] == ["<", ">="] and not c.is_fd_like


def test_python_api_and_fd_recognition():
    fd = FD(["Capital"], "Country")
    assert fd.is_fd and str(fd) == "not(t1.Capital=t2.Capital&t1.Country!=t2.Country)"
    assert len(FD("A", ["B", "C"])) == 2
    key = parse_dc("not(t1.Date=t2.Date&t1.Ticker=t2.Ticker)")
    assert key.is_fd_like and not key.is_fd  # key constraint: FD-like (degree bound applies)
    gl = parse_dc("not(t1.Gain<t2.Gain&t1.Loss<t2.Loss)")
    assert not gl.is_fd_like
    cross = make_dc([P("A", "=", "B"), P("C", "!=", "C")])
    assert not cross.is_fd_like  # different attributes on the two sides
    assert sum(d.is_fd_like for d in dcs_for("Tax")) == 7 and len(dcs_for("Tax")) == 9
    assert sum(d.is_fd_like for d in dcs_for("Adult")) == 2


def test_mirror_dcs_detected():
    tax = dcs_for("Tax")
    kept, rep = unique_dcs(tax)
    assert len(kept) == 8 and rep[-1] == rep[-2]
    assert parse_dc("not(t2.A<t1.A)").is_mirror_of(parse_dc("not(t1.A<t2.A)"))


@pytest.mark.parametrize("text, fragment", [
    ("not(t1.A==t2.A)", "operator"),
    ("not(t1.A~t2.A)", "operator"),
    ("not(t1.A=t2.A&)", "empty predicate"),
    ("not(t1.A=t2.A", "closing"),
    ("t1&t2&XX(t1.a,t2.a)", "unknown operator"),
    ("hello", "syntax"),
    ("not(t3.A=t1.A)", "only t1 and t2"),
])
def test_parse_errors_name_line_and_problem(text, fragment):
    with pytest.raises(ValueError) as err:
        parse_dcs("not(t1.A=t2.A)\n" + text)
    assert "line 2" in str(err.value) and fragment in str(err.value)


def test_unknown_attribute_lists_known_ones_and_incompatible_types():
    df = pd.DataFrame({"A": [1, 2], "B": ["x", "y"]})
    with pytest.raises(ValueError, match="unknown attribute 'Z'.*known attributes: A, B"):
        parse_dcs("not(t1.Z=t2.Z)", columns=df.columns)
    with pytest.raises(ValueError, match="incompatible types"):
        build(df, [parse_dc("not(t1.A=t2.B)")])
    with pytest.raises(ValueError, match="incompatible types"):
        build(df, [parse_dc("not(t1.A<'x'&t1.B=t2.B)")])


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
    from dpworkbench.inconsistency.datasets import load_table
    from dpworkbench.inconsistency.noise_injection import rnoise

    for name in ("Adult", "Tax", "Hospital"):
        ds = load_table(name, rows=150, seed=1)
        dcs = dcs_for(name)
        *_, (_, noisy) = rnoise(ds.data, dcs, 0.05, rng=3, n_checkpoints=1)
        fast = build(noisy, dcs)
        assert fast.edge_set() == build(noisy, dcs, engine="bruteforce").edge_set()
        assert fast.union_of_first(len(dcs)).edge_set() == fast.edge_set()
        assert fast.union_of_first(1).num_edges <= fast.num_edges
        assert fast.u.dtype == fast.v.dtype == np.int32 and bool(np.all(fast.u < fast.v))
        csr = fast.to_csr()  # CSR view: each undirected edge twice, degrees as in the edge arrays
        assert csr.n == fast.n and np.array_equal(np.diff(csr.indptr), fast.degrees())
        if name == "Tax":  # the two Salary/Rate DCs are mirrors: evaluated once, one shared edge array
            assert fast.per_dc[-1] is fast.per_dc[-2]
