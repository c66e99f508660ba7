"""Issue 21 (privacy at the input boundary), PrivateClean's part, through the public entry points (``grr`` and
``dpworkbench privateclean query``). Each test here fails on the code before the fix:

* finding 2 — a declared Δ without bounds bounded nothing: ``--delta 10`` / ``deltas=`` released v = 0 and v = 100
  alike, and a range above Δ was refused with the data's exact range in the message;
* finding 5 — without ``--domain`` the domain was read off the rows and released as private (a single record's rare
  value printed in the output);
* finding 6 — refusals echoed private data (an out-of-domain value, a count of missing numbers);
* finding 1 — the file was typed by pandas from the rows (one unparseable cell made the release refuse; a quote could
  swallow the following lines).
"""
from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest

from dpworkbench.cli import main
from dpworkbench.privateclean import grr
from dpworkbench.testing.harness import csv_line_neighbours, hostile_lines


def _run(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _file(tmp_path, name, text):
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    return str(f)


NUM = ["--attr", "c", "--p", "0.5", "--domain", "a,b", "--value-col", "v", "--b", "10", "--agg", "sum",
       "--equals", "a"]


# --- finding 2: a Δ without bounds -------------------------------------------------------------------------------------
def test_api_delta_without_bounds_is_refused_alike_for_neighbours():
    """D = {0}, D′ = {100}: a substitution. Before the fix both were released with ε(v) = Δ/b = 1 while the value
    moved by 100 (privacy loss ≈ 10). Now both are refused, with one message, before any value is read."""
    msgs = set()
    for v in (0.0, 100.0):
        with pytest.raises(ValueError) as exc:
            grr(pd.DataFrame({"v": [v]}), {}, {"v": 10.0}, deltas={"v": 10.0}, rng=0)
        msgs.add(str(exc.value))
    assert len(msgs) == 1 and "bounds" in msgs.pop()


def test_cli_delta_without_bounds_is_refused_alike_and_names_bounds(tmp_path, capsys):
    errs = set()
    for name, text in (("d.csv", "c,v\na,0\n"), ("dp.csv", "c,v\na,100\n"), ("r.csv", "c,v\na,0\nb,11\n")):
        code, out, err = _run(capsys, ["privateclean", "query", _file(tmp_path, name, text), *NUM, "--delta", "10"])
        assert code == 2 and out == "" and "--bounds" in err
        assert "11" not in err and "range (" not in err  # never the data's range
        errs.add(err.replace(name, "F"))
    assert len(errs) == 1  # the same message for every dataset


def test_cli_bounds_clip_a_substitution_to_delta(tmp_path, capsys):
    """With --bounds 0,10 the pre-noise SUM moves by at most Δ = 10 between v = 0 and v = 100 (and v = 'x')."""
    truths = []
    for name, v in (("a.csv", "0"), ("b.csv", "100"), ("c.csv", "x"), ("d.csv", "-1e9")):
        code, out, _ = _run(capsys, ["privateclean", "query", _file(tmp_path, name, f"c,v\na,{v}\nb,3\n"), *NUM,
                                     "--bounds", "0,10", "--seed", "1", "--json", "--show-exact"])
        assert code == 0
        doc = json.loads(out)
        assert doc["ledger"][1]["epsilon"] == pytest.approx(1.0)  # Δ/b = 10/10
        truths.append(doc["NOT_PRIVATE"]["true_answer"])
    assert truths == [0.0, 10.0, 5.0, 0.0]  # 'x' is missing → the midpoint; −1e9 is clipped to 0
    assert max(truths) - min(truths) <= 10.0


# --- finding 5: domains read off the data -------------------------------------------------------------------------------
def test_cli_release_without_domain_refuses_up_front(tmp_path, capsys):
    """A release (no --seed) without --domain: before the fix the domain was read off the rows and printed — a single
    record's rare value 'zebra-7' appeared in the output of a release labelled private."""
    errs = set()
    for name, text in (("z.csv", "c\na\nb\nzebra-7\n"), ("y.csv", "c\na\na\nb\n")):
        code, out, err = _run(capsys, ["privateclean", "query", _file(tmp_path, name, text), "--attr", "c",
                                       "--epsilon", "1", "--equals", "a", "--json"])
        assert code == 2 and out == "" and "--domain" in err and "zebra" not in err
        errs.add(err.replace(name, "F"))
    assert len(errs) == 1


def test_api_release_without_domain_refuses():
    df = pd.DataFrame({"c": ["a", "b", "zebra-7"]})
    with pytest.raises(ValueError, match="domains=") as exc:
        grr(df, {"c": 0.5})  # rng=None: the release back-end
    assert "zebra" not in str(exc.value)


def test_research_run_with_derived_domain_is_never_private_as_claimed(tmp_path, capsys):
    code, out, _ = _run(capsys, ["privateclean", "query", _file(tmp_path, "z.csv", "c\na\nb\nzebra-7\n"), "--attr", "c",
                                 "--epsilon", "1", "--equals", "a", "--seed", "3", "--json"])
    doc = json.loads(out)
    assert code == 0 and doc["private_as_claimed"] is False
    assert any(d.startswith("domain[") for d in doc["public_derived_from_data"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rel = grr(pd.DataFrame({"c": ["a", "zebra-7"]}), {"c": 0.5}, rng=0)
    assert not rel.private and rel.derived_public == ("domain[c]",)


def test_out_of_domain_values_are_mapped_not_refused(tmp_path, capsys):
    """A value outside --domain goes to NULL (a category of the released domain) or to --other; the release happens
    for every file. Before the fix: refused, with the value in the message."""
    f = _file(tmp_path, "o.csv", "c,v\na,1\nb,2\nsecret-42,3\n,4\n")
    base = ["privateclean", "query", f, *NUM, "--bounds", "0,5", "--seed", "2", "--json", "--show-exact"]
    code, out, err = _run(capsys, base)
    doc = json.loads(out)
    assert code == 0 and "secret-42" not in out + err
    assert doc["public"]["domain"]["c"] == ["a", "b", None]
    assert doc["NOT_PRIVATE"]["input"]["out_of_domain"] == {"c": 1}
    code, out, _ = _run(capsys, base + ["--other", "b"])
    assert code == 0 and json.loads(out)["public"]["domain"]["c"] == ["a", "b"]
    code, _, err = _run(capsys, base + ["--other", "zz"])
    assert code == 2 and "--other" in err  # a public check on the flags
    # the API: NULL or a declared other; without either (no NULL in the domain) the row is replaced with prob. 1
    df = pd.DataFrame({"c": ["a", "secret-42", None]})
    assert grr(df, {"c": 0.3}, domains={"c": ["a", "b", None]}, rng=0).value.data["c"].isin(["a", "b", None]).all()
    assert set(grr(df, {"c": 1e-12}, domains={"c": ["a", "b"]}, other={"c": "b"}, rng=0).value.data["c"]) == {"a", "b"}
    assert set(grr(df, {"c": 0.3}, domains={"c": ["a", "b"]}, rng=0).value.data["c"]) <= {"a", "b"}


# --- finding 6: messages never echo private data -------------------------------------------------------------------------
SECRET = "SECRET9137"


def test_no_output_names_a_cell_or_a_count(tmp_path, capsys):
    """Files with hostile cells (an unknown category, unparseable numbers, blanks): the release happens and nothing
    printed without --show-exact names a cell of the file or a count of what was mapped, filled or clipped."""
    text = f"c,v\na,1\n{SECRET},2\nb,{SECRET}\nb,n/a\na,\n,7777\n"
    f = _file(tmp_path, "h.csv", text)
    for extra in ([], ["--json"], ["--seed", "4"], ["--seed", "4", "--json"]):
        code, out, err = _run(capsys, ["privateclean", "query", f, *NUM, "--bounds", "0,5", *extra])
        assert code == 0, err
        assert SECRET not in out + err and "7777" not in out + err
        for key in ("numbers_missing_filled", "numbers_clipped", "out_of_domain", "NOT_PRIVATE", "NOT PRIVATE"):
            assert key not in out + err
    code, out, _ = _run(capsys, ["privateclean", "query", f, *NUM, "--bounds", "0,5", "--seed", "4", "--json",
                                 "--show-exact"])
    got = json.loads(out)["NOT_PRIVATE"]["input"]  # the counts exist, labelled NOT PRIVATE, only on request
    assert got["numbers_missing_filled"] == {"v": 3} and got["numbers_clipped"] == {"v": 1}
    assert got["out_of_domain"] == {"c": 1}


def test_api_messages_name_no_cell():
    df = pd.DataFrame({"c": [SECRET, "a"], "v": [SECRET, 1.0]})
    rel = grr(df, {"c": 0.5}, {"v": 1.0}, domains={"c": ["a"]}, bounds={"v": (0.0, 1.0)}, rng=0)
    assert rel.exact["out_of_domain"] == {"c": 1} and rel.exact["numbers_missing_filled"] == {"v": 1}
    assert SECRET not in json.dumps({k: str(v) for k, v in rel.public.items()})


# --- finding 1: the file is read by a public rule ---------------------------------------------------------------------------
def test_one_line_never_changes_how_another_is_read(tmp_path, capsys):
    """D has v = '1' and '1.0' (one number); substituting one line with an unparseable value, an open quote, a blank
    line or an extra field: every neighbour releases, and the pre-noise SUM moves by at most Δ (before the fix,
    pandas typed the column from the rows: 'x' made the release refuse, and an open quote swallowed later lines)."""
    text = "c,v\na,1\na,1.0\nb,1\na,1\n"
    f0 = _file(tmp_path, "d.csv", text)
    base = [*NUM, "--bounds", "0,5", "--seed", "0", "--json", "--show-exact"]
    code, out, _ = _run(capsys, ["privateclean", "query", f0, *base])
    t0 = json.loads(out)["NOT_PRIVATE"]["true_answer"]
    assert code == 0 and t0 == 3.0
    extra = ['a,x', '"a,1', '', 'a,1,extra', 'zz_new,1', 'a,inf', 'a,1e9']
    for i, nb in enumerate(csv_line_neighbours(text, extra, remove=False, add=False)):
        code, out, err = _run(capsys, ["privateclean", "query", _file(tmp_path, f"n{i}.csv", nb), *base])
        assert code == 0, (nb, err)
        doc = json.loads(out)
        assert doc["public"]["rows"] == 4 and abs(doc["NOT_PRIVATE"]["true_answer"] - t0) <= 5.0, nb


def test_harness_cli_entry_uses_file_level_neighbours_with_hostile_lines():
    from dpworkbench.privateclean.harness import entry_points

    entry = {e.name: e for e in entry_points()}["dpworkbench privateclean query"]
    text = entry.make_inputs(np.random.default_rng(0))[0]
    assert isinstance(text, str) and text.startswith("cat,val\n")
    nbs = list(entry.neighbours(text))
    n = len(text.splitlines()) - 1
    assert len(nbs) >= n * 10 and all(len(x.splitlines()) - 1 == n or x.endswith("\n\n") for x in nbs)
    assert set(hostile_lines(text, limit=None)) <= {line for x in nbs for line in x.split("\n")}
