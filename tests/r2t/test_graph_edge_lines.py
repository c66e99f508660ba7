"""`dpworkbench r2t graph` reads an edge list one line at a time (issue 21): a line that is not two integer ids is
dropped on its own, so a file and its neighbour with one odd line added release alike, and no message quotes a line.
Before the fix the reader decided header and separator from the first data line and refused, quoting it, a
non-integer id: one added line turned a release into a refusal."""

from __future__ import annotations

import json

import pytest

from dpworkbench.cli import main

EDGES = "0 1\n1 2\n2 0\n2 3\n3 4\n"


@pytest.mark.parametrize("odd", ["1.5 2", "secret_id 7", "x,y", "\xff\xfe 3", "7", "0 1 extra"])
@pytest.mark.parametrize("where", ["first", "last"])
def test_an_odd_line_changes_nothing_and_is_never_quoted(tmp_path, capsys, odd, where):
    base, nb = tmp_path / "g.txt", tmp_path / "g2.txt"
    base.write_text(EDGES, encoding="utf-8")
    text = odd + "\n" + EDGES if where == "first" else EDGES + odd + "\n"
    nb.write_bytes(text.encode("utf-8", errors="surrogateescape") if "\xff" not in odd else
                   text.replace("\xff\xfe", "").encode() + b"\xff\xfe 3\n")
    outs = []
    for p in (base, nb):
        assert main(["r2t", "graph", str(p), "--query", "triangle", "--max-degree", "3", "--seed", "1", "--json",
                     "--show-exact"]) == 0
        captured = capsys.readouterr()
        assert "secret_id" not in captured.out + captured.err and "1.5 2" not in captured.out + captured.err
        outs.append(json.loads(captured.out.strip().splitlines()[-1]))
    a, b = (o["NOT_PRIVATE"] for o in outs)
    assert a["answer"] == b["answer"] == 1 and a["DS"] == b["DS"]
    assert outs[0]["private"] == outs[1]["private"]  # same seed, same pre-noise statistics: the same release


def test_gzip_edge_list(tmp_path, capsys):
    import gzip

    p = tmp_path / "g.txt.gz"
    p.write_bytes(gzip.compress(("# SNAP header\nFromNodeId\tToNodeId\n" + EDGES.replace(" ", "\t")).encode()))
    assert main(["r2t", "graph", str(p), "--query", "triangle", "--max-degree", "3", "--seed", "1", "--json",
                 "--show-exact"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["NOT_PRIVATE"]["answer"] == 1
