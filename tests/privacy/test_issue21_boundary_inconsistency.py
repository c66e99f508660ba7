"""Issue 21 (privacy at the input boundary), the inconsistency paper: what is public is declared, never read off
the rows, and every release is a total function of the file.

Finding 1 — column types were inferred from the private rows (pandas): twenty rows with B = ``1`` / ``1.0`` (one
number, no conflict under A → B) and one more row with B = ``x`` turned B into text, the twenty rows into a clique
(edges 0 → 100, cover 0 → 20: privacy loss ≈ 3.3 at ε = 1); and the text row changed every row's content hash, so
the "stable" order broke (cover 8 → 4 on the table below, claimed ≤ 2). Finding 6 — a repeated ``--id-column``
key was refused with "value 101 occurs 2 times"; unreadable bytes or an open quote in one row refused the file.
Every test runs the public entry point (the CLI in-process, or the API loader) and fails on the code before the
fix."""

from __future__ import annotations

import contextlib
import io
import json

import numpy as np
import pandas as pd
import pytest

from dpworkbench.cli import main

DC = "not(t1.A=t2.A&t1.B!=t2.B)"
ONE_AND_ONE_POINT_ZERO = "A,B\n" + "".join(f"0,{'1' if i % 2 else '1.0'}\n" for i in range(20))
#: found on the old code: adding the row 9,0,x (conflicting with nothing) moved the cover 8 → 4
STABLE = "A,B,C\n1,2,16\n0,1,16\n0,1,31\n1,1,48\n0,2,35\n0,1,31\n0,0,41\n1,0,16\n1,2,38\n0,1,12\n"


def _cli(tmp_path, name: str, text: str | bytes, *extra: str) -> tuple[int, dict | None, str]:
    p = tmp_path / name
    p.write_bytes(text if isinstance(text, bytes) else text.encode())
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["inconsistency", str(p), "--dc", DC, "--seed", "1", "--n-bound", "40", "--json", *extra])
    return code, (json.loads(out.getvalue()) if code == 0 else None), err.getvalue()


def _cover_and_edges(tmp_path, name, text, *extra):
    code, doc, err = _cli(tmp_path, name, text, "--show-exact", *extra)
    assert code == 0, err
    ex = doc["NOT_PRIVATE"]
    return ex["I_R"]["truncated"], ex["graph_and_exact_measures"]["edges"], ex["graph_and_exact_measures"]["n"]


@pytest.mark.parametrize("schema", [[], ["--schema", "A:int, B:float"]], ids=["header-only rule", "declared"])
def test_finding1_one_text_row_does_not_retype_the_column(tmp_path, schema):
    c0, e0, n0 = _cover_and_edges(tmp_path, "d.csv", ONE_AND_ONE_POINT_ZERO, *schema)
    c1, e1, _ = _cover_and_edges(tmp_path, "d1.csv", ONE_AND_ONE_POINT_ZERO + "0,x\n", *schema)
    assert abs(c1 - c0) <= 2, (c0, c1)  # Alg. 5's claimed sensitivity
    assert 0 <= e1 - e0 <= n0  # the new row brings its own edges only; the others' conflicts are unchanged
    if schema:  # B declared a number: 1 and 1.0 are one value, x does not parse (NULL): no conflict at all
        assert (e0, e1) == (0, 0)


def test_finding1_stable_order_survives_a_text_row(tmp_path):
    c0, _, _ = _cover_and_edges(tmp_path, "s.csv", STABLE)
    c1, _, _ = _cover_and_edges(tmp_path, "s1.csv", STABLE + "9,0,x\n")
    assert abs(c1 - c0) <= 2, (c0, c1)  # the old reader: 8 → 4
    c0, _, _ = _cover_and_edges(tmp_path, "s.csv", STABLE, "--schema", "A:int, B:int, C:int")
    c1, _, _ = _cover_and_edges(tmp_path, "s1.csv", STABLE + "9,0,x\n", "--schema", "A:int, B:int, C:int")
    assert abs(c1 - c0) <= 2, (c0, c1)


def test_finding1_api_loader_hashes_rows_as_typed(tmp_path):
    """``loaders.load_csv`` (the API's file reader): a row appended with text in a numeric column leaves every other
    row's identity (the stable order's input) unchanged."""
    from dpworkbench.inconsistency.conflict_graph import tuple_identity
    from dpworkbench.inconsistency.loaders import load_csv

    (tmp_path / "a.csv").write_text(STABLE)
    (tmp_path / "b.csv").write_text(STABLE + "9,0,x\n")
    for schema in (None, "A:int, B:int, C:int"):
        a, b = (tuple_identity(load_csv(tmp_path / f, schema)[0]) for f in ("a.csv", "b.csv"))
        assert np.array_equal(a.key1, b.key1[:-1]) and np.array_equal(a.key2, b.key2[:-1])


def test_finding1_api_run_releases_types_a_frame_by_the_schema():
    from dpworkbench.inconsistency import FD
    from dpworkbench.inconsistency.mechanisms import release_measures as run_releases

    raw = pd.DataFrame({"A": ["0"] * 6, "B": ["1", "1.0"] * 3}, dtype=object)
    r = run_releases(raw, [FD("A", "B")], epsilon=1.0, backend=0, n_bound=10, schema="A:int, B:float")
    r1 = run_releases(pd.concat([raw, pd.DataFrame({"A": ["0"], "B": ["x"]})], ignore_index=True),
                      [FD("A", "B")], epsilon=1.0, backend=0, n_bound=10, schema="A:int, B:float")
    assert r.exact["I_MI"]["true"] == r1.exact["I_MI"]["true"] == 0  # I_MI of an FD = the conflict graph's edges


def test_header_only_rule_refuses_order_comparisons_up_front_with_one_public_line(tmp_path):
    msgs = set()
    for i, rows in enumerate(["1,2\n3,4\n", "999,-5\nx,\n"]):
        p = tmp_path / f"o{i}.csv"
        p.write_text("A,B\n" + rows)
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            assert main(["inconsistency", str(p), "--dc", "not(t1.A<t2.A&t1.B>t2.B)", "--seed", "0"]) == 2
        lines = err.getvalue().strip().splitlines()
        assert len(lines) == 1 and "--schema" in lines[0]
        msgs.add(lines[0].replace(str(p), "PATH"))
    assert len(msgs) == 1  # the same message for every dataset with this header


def test_finding6_duplicate_and_missing_keys_are_released_without_echo(tmp_path):
    text = "id,A,B\n101,0,0\n101,0,1\n,0,2\n7,1,1\n"
    for schema in ([], ["--schema", "id:int, A:int, B:int"]):
        code, doc, err = _cli(tmp_path, "k.csv", text, "--id-column", "id", *schema)
        assert code == 0, err
        assert "101" not in json.dumps(doc) + err
        assert "occurrence rank" in doc["public"]["tuple_identity"]


@pytest.mark.parametrize("line", [b"0,\xff\xfe", b'"open,0', b"0,1,extra", b"", b"x,NaN", b"0,inf"],
                         ids=["bad utf-8", "open quote", "extra field", "blank", "text", "inf"])
def test_releases_are_total_and_counts_only_under_show_exact(tmp_path, line):
    text = b"A,B\n0,0\n0,1\n" + line + b"\n1,1\n"
    for schema in ([], ["--schema", "A:int, B:float"]):
        code, doc, err = _cli(tmp_path, "h.csv", text, *schema)
        assert code == 0 and err == "", err
        assert "NOT_PRIVATE" not in doc and "parse" not in json.dumps(doc)
        code, doc, err = _cli(tmp_path, "h.csv", text, "--show-exact", *schema)
        assert code == 0 and set(doc["NOT_PRIVATE"]["input"]) >= {"null", "unparseable"}


def test_harness_flags_a_loader_that_infers_types():
    """The file-level harness catches the old reader: the same entry with ``pandas.read_csv`` as its loader moves
    the cover by more than its sensitivity on one added line."""
    from dpworkbench.inconsistency import harness as H
    from dpworkbench.inconsistency.conflict_graph import build
    from dpworkbench.inconsistency.model import i_r_2approx
    from dpworkbench.testing.harness import EntryPoint, check_sensitivity

    base = next(e for e in H.entry_points() if e.name == "dpworkbench inconsistency")

    def inferred(text):
        df = pd.read_csv(io.StringIO(text))
        return {"cover": float(i_r_2approx(build(df, H.DCS), rule="rank", seed=0))}

    bad = EntryPoint(**{**base.__dict__, "statistics": inferred, "sensitivities": {"cover": 2.0},
                        "make_inputs": lambda rng: [H.FINDING1_TYPES],
                        "neighbours": lambda t: [t + "0,x\n"]})
    assert check_sensitivity(bad, np.random.default_rng(0)).violations
    good = EntryPoint(**{**bad.__dict__, "statistics": base.statistics})
    assert not check_sensitivity(good, np.random.default_rng(0)).violations


def test_finding5_baseline_dmax_is_research_only():
    """θ = d_max(G) is read off the data: a seeded research run may use it (listed in derived_public); a release
    (rng=None) refuses up front, before any spend."""
    from dpworkbench.accounting import Accountant
    from dpworkbench.inconsistency import FD, build, graph_projection

    df = pd.DataFrame({"A": [0, 0, 0, 1], "B": [0, 1, 2, 0]})
    g = build(df, [FD("A", "B")])
    assert graph_projection(g, "MI", 1.0, strategy="baseline_dmax", rng=0, n_bound=10).derived_public
    acc = Accountant(1.0)
    with pytest.raises(ValueError, match="rng="):
        graph_projection(g, "MI", 1.0, strategy="baseline_dmax", n_bound=10, accountant=acc)
    assert acc.spent == 0
