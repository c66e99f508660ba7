"""The cell time limit follows the profile: the paper profile's R2T Table 2 runs its whole grid in one cell, which took
more than 30 minutes on whole graphs, so a 1800 s limit there stopped a run that was fine."""

import pytest

from dpworkbench import cli
from dpworkbench.experiments import nbtools
from dpworkbench.experiments.context import PROFILES


class _Captured(BaseException):  # main() turns an Exception into one error line
    pass


@pytest.mark.parametrize("profile, flag, expected", [("quick", [], 1800), ("paper", [], 4 * 3600),
                                                     ("paper", ["--timeout", "60"], 60)])
def test_reproduce_passes_the_profiles_cell_limit(monkeypatch, tmp_path, profile, flag, expected):
    def fake_run_many(infos, **kw):
        raise _Captured(kw["timeout"])

    monkeypatch.setattr(nbtools, "run_many", fake_run_many)
    monkeypatch.setenv("DPWB_REPORTS", str(tmp_path))
    with pytest.raises(_Captured) as got:
        cli.main(["reproduce", "--profile", profile, "--only", "r2t/tab02_graph_queries", *flag])
    assert got.value.args[0] == expected


def test_every_profile_has_a_cell_limit():
    assert set(cli.CELL_TIMEOUT) == set(PROFILES) and min(cli.CELL_TIMEOUT.values()) >= 1800
