"""``dpworkbench release`` offers built-in declarations that have a public reader (issue 28 item 4 follow-up):
the dampening median/percentile selections on a one-column CSV, read by the same public rules as
``dpworkbench dampening median``."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dpworkbench.cli import main


@pytest.fixture()
def files(tmp_path):
    rng = np.random.default_rng(4)
    vals = [f"{x:.2f}" for x in rng.uniform(0, 100, 30)] + ["oops", "", "250"]  # unparseable, blank, out of range
    (tmp_path / "one.csv").write_text("v\n" + "\n".join(vals) + "\n")
    (tmp_path / "two.csv").write_text("v,w\n1,2\n")
    return tmp_path


def test_release_lists_the_builtin_selections(capsys):
    with pytest.raises(SystemExit):
        main(["release", "--help"])
    text = capsys.readouterr().out
    for sel in ("em", "pf", "ld", "sld"):
        assert f"dampening.median_{sel}" in text and f"dampening.percentile_{sel}" in text
    assert "thesis_candidates" not in text  # a labelled paper option is not offered as a release


@pytest.mark.parametrize("sel", ["EM", "LD"])
def test_release_matches_the_paper_subcommand(files, capsys, sel):
    """Same declaration, same public reading rules, same seed: the same row as `dampening median`."""
    assert main(["release", f"dampening.median_{sel.lower()}", str(files / "one.csv"), "--epsilon", "2", "--lower", "0",
                 "--upper", "100", "--seed", "5", "--json"]) == 0
    a = json.loads(capsys.readouterr().out)
    assert main(["dampening", "median", str(files / "one.csv"), "--column", "v", "--epsilon", "2", "--upper", "100",
                 "--mechanism", sel, "--seed", "5", "--json"]) == 0
    b = json.loads(capsys.readouterr().out)
    assert a["private"]["value"] == b["private"]["row"]
    assert isinstance(a["accuracy"]["value"], str) and "ln(n/0.05)" in a["accuracy"]["value"]


def test_release_refuses_a_wide_file_in_one_line(files, capsys):
    assert main(["release", "dampening.median_em", str(files / "two.csv"), "--epsilon", "1", "--lower", "0",
                 "--upper", "10", "--seed", "1"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "one-column CSV" in err[0] and "Traceback" not in err[0]
