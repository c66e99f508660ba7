"""The public-schema reader: one line is one row, every cell typed by a declared (or header-only) rule, so no row
can change how another is read (issue 21, finding 1)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd
import pytest

from dpworkbench.datasets.public_schema import PublicSchema, read_csv_public, read_raw_lines
from dpworkbench.testing.harness import csv_line_neighbours, hostile_lines


def _write(tmp_path, text: str, name: str = "t.csv"):
    p = tmp_path / name
    p.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return p


def test_one_added_text_row_does_not_retype_the_others(tmp_path):
    body = "".join(f"{i},{'1' if i % 2 else '1.0'}\n" for i in range(20))
    d = _write(tmp_path, "A,B\n" + body, "d.csv")
    dp = _write(tmp_path, "A,B\n" + body + "20,x\n", "dp.csv")
    for schema in (None, PublicSchema.parse("A:int, B:float")):
        x, _, _ = read_csv_public(d, schema)
        y, _, _ = read_csv_public(dp, schema)
        pd.testing.assert_frame_equal(x, y.iloc[:20])
    # pandas' inference (the code before the fix) reads the same 20 rows differently once the text row exists
    assert pd.read_csv(d)["B"].dtype != pd.read_csv(dp)["B"].dtype


def test_types_bounds_and_domains(tmp_path):
    p = _write(tmp_path, "a,b,c\n1,5,x\n2.0,150,y\n2.5,-3,q\n,n/a,\nz,inf,x\n")
    df, schema, rep = read_csv_public(p, PublicSchema.parse("a:int, b:float[0,100], c:text{x|y}"))
    assert df["a"].tolist()[:2] == [1, 2] and df["a"].isna().tolist() == [False, False, True, True, True]
    assert df["b"].tolist()[:3] == [5.0, 100.0, 0.0] and np.isnan(df["b"].iloc[3]) and np.isnan(df["b"].iloc[4])
    assert df["c"].tolist() == ["x", "y", None, None, "x"]
    assert rep.columns["b"]["clipped"] == 2 and rep.columns["c"]["out_of_domain"] == 1
    assert schema.to_public()["columns"] == ["a:int", "b:float[0,100]", "c:text{x|y}"]


def test_one_line_is_one_row(tmp_path):
    raw = read_raw_lines(_write(tmp_path, 'a,b\n1,2\n\n"open,3\n4,5,6\n7,8\n'))
    assert len(raw) == 5
    assert raw.iloc[0].tolist() == ["1", "2"] and raw.iloc[4].tolist() == ["7", "8"]
    assert raw.iloc[1].isna().all() and raw.iloc[3].isna().all()  # blank line, too many fields
    bad = read_raw_lines(_write(tmp_path, b"a,b\n1,\xff\xfe\n3,4\n", "bad.csv"))
    assert bad.iloc[1].tolist() == ["3", "4"]


def test_refusals_name_public_things_only(tmp_path):
    p = _write(tmp_path, "a,b\nsecret,1\n")
    with pytest.raises(ValueError, match="header does not match") as e:
        read_csv_public(p, PublicSchema.parse("a:text, c:int"))
    assert "secret" not in str(e.value)
    with pytest.raises(ValueError, match="write NAME:TYPE"):
        PublicSchema.parse("a int")


def test_every_file_neighbour_changes_one_row_only(tmp_path):
    text = "a,b\n1,2.5\n2,x\n3,\n"
    rng = np.random.default_rng(0)
    extras = hostile_lines(text, rng, limit=None)
    schema = PublicSchema.parse("a:int, b:float[0,10]")
    base, _, _ = read_csv_public(_write(tmp_path, text, "base.csv"), schema)
    n = 0
    for i, nb in enumerate(csv_line_neighbours(text, extras)):
        other, _, _ = read_csv_public(_write(tmp_path, nb, f"n{i}.csv"), schema)
        # the multiset of typed rows differs by one row at most (add/remove), or one row swapped (substitute)
        a = Counter(map(tuple, base.astype(str).to_numpy().tolist()))
        b = Counter(map(tuple, other.astype(str).to_numpy().tolist()))
        assert sum(((a - b) + (b - a)).values()) <= 2, nb
        n += 1
    body = text.split("\n")[1:4]
    assert n == 3 + len(extras) * 4 + sum(1 for ln in body for e in extras if e != ln)


def test_fast_reader_equals_the_per_line_rule():
    """The C-parser fast path is an optimisation of the one-line-one-row rule, never a different rule."""
    from dpworkbench.datasets.public_schema import _read_lines_fast, _read_lines_python

    rng = np.random.default_rng(3)
    pieces = ["1", "2.5", "x", "", '"a,b"', '"open', "n/a", " 7 ", "é", "1,2", "\r"]
    for _ in range(300):
        k = int(rng.integers(1, 4))
        header = [f"c{j}" for j in range(k)]
        lines = [",".join(rng.choice(pieces, size=int(rng.integers(1, k + 2))).tolist()) for _ in range(int(rng.integers(0, 6)))]
        body = ("\n".join(lines) + ("\n" if rng.random() < 0.5 else "")).encode()
        if b"\r" in body.replace(b"\r\n", b""):
            continue  # lone carriage returns always take the per-line path
        fast = _read_lines_fast(body, header).astype(object)
        slow = _read_lines_python(body, header).astype(object)
        assert fast.shape == slow.shape, body
        assert fast.where(fast.notna(), None).values.tolist() == slow.where(slow.notna(), None).values.tolist(), body


def test_unreadable_files_are_refused_without_quoting_them(tmp_path):
    """The real-data readers' refusals name the file and the problem, never a line, a field count or a value of it."""
    import pytest

    from dpworkbench.datasets.real import read_edges, read_table

    ragged = tmp_path / "ragged.csv"
    ragged.write_text("A,B\n1,2\n" + "3,4\n" * 40 + "5,6,SECRET_917,8\n")
    with pytest.raises(ValueError) as exc:
        read_table(ragged, dtype=str)
    msg = str(exc.value)
    assert "cannot read as CSV" in msg and "SECRET" not in msg and "43" not in msg and "line" not in msg.lower(), msg
    edges = tmp_path / "edges.txt"
    edges.write_text("917 x917secret\n1 2\n")  # the old message quoted this first line
    with pytest.raises(ValueError) as exc:
        read_edges(edges)
    assert "integers" in str(exc.value) and "917" not in str(exc.value), str(exc.value)
