"""Denial constraints: both syntaxes, the Python API, mirrors, errors naming line and attribute."""

from __future__ import annotations

import pandas as pd
import pytest

from dpworkbench.inconsistency import FD, P, build, parse_dc, parse_dcs
from dpworkbench.inconsistency.constraints import make_dc, unique_dcs
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


def test_bind_checks_once_and_the_engines_never_call_back(monkeypatch):
    """#12 item 5: a DC is checked against the schema once (bind); no engine re-validates it."""
    from dpworkbench.inconsistency import conflict_graph as CG
    from dpworkbench.inconsistency import constraints as C

    df = pd.DataFrame({"Zip": [1, 1, 2, 2], "City": ["a", "b", "c", "c"], "Salary": [1, 2, 3, 4], "Rate": [1.0, 0.5, 2.0, 1.0]})
    dcs = parse_dcs("not(t1.City!=t2.City&t1.Zip=t2.Zip)\nnot(t1.Zip=t2.Zip&t1.City!=t2.City)\nnot(t1.Salary<t2.Salary&t1.Rate>t2.Rate)")
    calls = {"validate": 0, "bind": 0}
    real_validate, real_bind = C.validate_dc, CG.bind
    monkeypatch.setattr(C, "validate_dc", lambda *a, **k: (calls.__setitem__("validate", calls["validate"] + 1), real_validate(*a, **k))[1])
    monkeypatch.setattr(CG, "bind", lambda *a, **k: (calls.__setitem__("bind", calls["bind"] + 1), real_bind(*a, **k))[1])
    edges = set()
    for engine in ("fast", "reference", "duckdb", "bruteforce"):  # the in-memory engines (spark: tests/spark)
        calls.update(validate=0, bind=0)
        g = build(df, dcs, engine=engine)
        edges.add(frozenset(g.edge_set()))
        assert calls == {"validate": len(dcs), "bind": 1}, engine  # each DC checked exactly once, by bind
    assert len(edges) == 1
    bound = C.bind(dcs, CG.column_kinds(df))
    assert len(bound.pairwise) == 2 and bound.rep == (0, 0, 1) and bound.unary == ()
    assert build(df, bound).edge_set() == build(df, dcs).edge_set()  # bound constraints are accepted as they are
    with pytest.raises(ValueError, match="another table's schema"):
        build(df.rename(columns={"Rate": "Tax"}), bound)
    with pytest.raises(ValueError, match="unknown attribute 'Nope'"):
        C.bind([parse_dc("not(t1.Nope=t2.Nope&t1.Zip!=t2.Zip)")], CG.column_kinds(df))
    with pytest.raises(ValueError, match="incompatible types"):
        C.bind([parse_dc("not(t1.City=t2.Zip&t1.Rate!=t2.Rate)")], CG.column_kinds(df))
