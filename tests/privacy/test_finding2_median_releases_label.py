"""Finding 2: ``dpworkbench dampening median`` printed the value of the selected row (unclipped). The thesis'
median selection releases a *label* (the selected element's position); the privacy proof covers that label only,
and the row's value is a raw data value, not a post-processing of it. The CLI and the API (``select_median``) now
release the row position only; the value is a NOT PRIVATE diagnostic shown only with ``--show-exact``."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dpworkbench.accounting import Release, check_ledger_matches
from dpworkbench.cli import main
from dpworkbench.dampening import median as M
from dpworkbench.dampening import mechanisms as DM

# distinctive values (far outside the public range for one of them: the old CLI printed it unclipped)
VALUES = [17.3125, 42.6875, 55.4375, 63.8125, 4711.0625, 29.5625, 48.1875]


def _csv(tmp_path):
    p = tmp_path / "x.csv"
    p.write_text("val\n" + "\n".join(str(v) for v in VALUES))
    return p


@pytest.mark.parametrize("mech", ["EM", "PF", "LD", "SLD"])
def test_finding2_cli_median_prints_no_value(tmp_path, capsys, mech):
    p = _csv(tmp_path)
    for seed in range(8):
        assert main(["dampening", "median", str(p), "--column", "val", "--upper", "100", "--mechanism", mech,
                     "--epsilon", "2", "--seed", str(seed)]) == 0
        text = capsys.readouterr().out
        assert not any(f"{v:g}" in text for v in VALUES), text
        assert "row (seeded research value, not a release):" in text and "value" not in text.split("row (seeded research value, not a release):")[1].splitlines()[0]
        assert main(["dampening", "median", str(p), "--column", "val", "--upper", "100", "--mechanism", mech,
                     "--epsilon", "2", "--seed", str(seed), "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert set(out["private"]) == {"row"} and 0 <= out["private"]["row"] < len(VALUES)
        assert "NOT_PRIVATE" not in out and not any(str(v) in json.dumps(out) for v in VALUES)


def test_finding2_show_exact_labels_the_value_not_private(tmp_path, capsys):
    p = _csv(tmp_path)
    assert main(["dampening", "median", str(p), "--column", "val", "--upper", "100", "--seed", "0", "--json",
                 "--show-exact"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["NOT_PRIVATE"]["selected_value"] == VALUES[out["private"]["row"]]
    assert main(["dampening", "median", str(p), "--column", "val", "--upper", "100", "--seed", "0", "--show-exact"]) == 0
    assert "NOT PRIVATE selected_value" in capsys.readouterr().out


def test_finding2_help_says_why(capsys):
    with pytest.raises(SystemExit):
        main(["dampening", "median", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "row position" in text.lower() or "POSITION" in text
    assert "not a post-processing of the label" in text and "NOT PRIVATE" in text


def test_finding2_api_releases_the_label_only():
    x = np.array(VALUES)
    for mech in M.MECHANISMS:
        rel = DM.select_median(x, lower=0, upper=100, epsilon=1.0, mechanism=mech, rng=3)
        assert isinstance(rel, Release) and isinstance(rel.value, int) and 0 <= rel.value < x.size
        assert rel.details == {} and rel.private                       # nothing else is released
        check_ledger_matches(DM.privacy_cost_median(1.0, mech), rel.ledger)
        assert rel.exact["selected_value"] == VALUES[rel.value]         # kept apart as NOT PRIVATE
