"""A mechanism is declared once (issue 23): a new mechanism in one new file is in the privacy table, audited by
the harness, run by the experiment runner and offered by the CLI, with no other file edited; a declaration that
understates its cost is flagged."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpworkbench.accounting import Accountant, BudgetExceededError
from dpworkbench.mechanisms import declaration
from dpworkbench.mechanisms.declaration import EPSILON, Mechanism, Param, registry
from dpworkbench.testing.declared import entry_point, generic_neighbours
from dpworkbench.testing.harness import check_entry_point

PLUGIN = Path(__file__).with_name("plugin_conflict_count.py")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def plugin_dir(tmp_path, monkeypatch):
    """The one new file, alone in a folder on DPWB_MECHANISMS_PATH (nothing else is edited)."""
    folder = tmp_path / "mine"
    folder.mkdir()
    shutil.copy(PLUGIN, folder / "conflict_count.py")
    monkeypatch.setenv("DPWB_MECHANISMS_PATH", str(folder))
    yield folder
    declaration._REGISTRY.pop("plugin.conflict_count", None)
    declaration._REGISTRY.pop("plugin.conflict_count_understated", None)


def _cli(*argv: str, env_dir: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "DPWB_MECHANISMS_PATH": str(env_dir), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "dpworkbench", *argv], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=300)


def test_a_new_mechanism_in_one_file_is_everywhere(plugin_dir, tmp_path):
    mech = registry()["plugin.conflict_count"]
    # privacy table (through the CLI the README's table comes from)
    table = _cli("privacy-table", env_dir=plugin_dir)
    assert table.returncode == 0, table.stderr
    row = [ln for ln in table.stdout.splitlines() if "plugin.conflict_count" in ln]
    assert row and "add or remove one row" in row[0] and "| 1 |" in row[0]
    # audited by the harness (brute force over neighbours, audit of the worst pair)
    report = check_entry_point(entry_point(mech))
    assert report.sensitivity.pairs > 50 and report.sensitivity.worst_ratio > 0 and not report.flagged, str(report)
    # run by the experiment runner through the release's noise code
    df = pd.DataFrame({"A": [1, 1, 2, 2, 3], "B": [1, 2, 3, 3, 4]})
    from dpworkbench.experiments.runner import run_mechanisms

    res = run_mechanisms("plugin", {"toy": df}, ["plugin.conflict_count"], epsilons=[0.5, 2.0], repetitions=400,
                         seed=1, results_dir=tmp_path, progress=False)
    assert len(res) == 800 and set(res["truth"]) == {2.0}
    mae = res.groupby("epsilon")["absolute_error"].mean()
    assert mae[0.5] == pytest.approx(2 / 0.5, rel=0.15) and mae[2.0] == pytest.approx(2 / 2.0, rel=0.15)
    # offered by the CLI, its flags from the declaration
    csv = tmp_path / "t.csv"
    csv.write_text("A,B\n1,1\n1,2\n2,3\n")
    out = _cli("release", "plugin.conflict_count", str(csv), "--epsilon", "0.5", "--cap", "2", "--seed", "3",
               "--json", "--show-exact", env_dir=plugin_dir)
    assert out.returncode == 0, out.stderr
    payload = json.loads(out.stdout.strip().splitlines()[-1])
    assert payload["epsilon_spent"] == 0.5 and payload["public"]["cap"] == 2 and payload["NOT_PRIVATE"]["truth"] == 2
    bad = _cli("release", "plugin.conflict_count", str(csv), "--cap", "0", env_dir=plugin_dir)
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0 and "cap must be" in bad.stderr


def test_an_understated_cost_is_flagged(tmp_path, monkeypatch):
    folder = tmp_path / "under"
    folder.mkdir()
    text = PLUGIN.read_text().replace("UNDERSTATE = False", "UNDERSTATE = True")
    text = text.replace('NAME = "plugin.conflict_count"', 'NAME = "plugin.conflict_count_understated"')
    (folder / "understated.py").write_text(text)
    monkeypatch.setenv("DPWB_MECHANISMS_PATH", str(folder))
    try:
        mech = registry()["plugin.conflict_count_understated"]
        assert mech.epsilon(epsilon=1.0, cap=3) == 0.5
        assert check_entry_point(entry_point(mech)).flagged
    finally:
        declaration._REGISTRY.pop("plugin.conflict_count_understated", None)


def _toy(**kw) -> Mechanism:
    base = dict(name="toy.count", summary="toy", relation=declaration.ADD_REMOVE_ROW, register=False,
                params=(EPSILON(), Param("k", int, 1, low=1)),
                cost=lambda *, epsilon, k: declaration.planned(("laplace", epsilon)),
                statistics=lambda x, **p: {"n": float(len(x))}, noise=lambda s, b, size, *, epsilon, k:
                b.add_laplace(np.full(size, s["n"]) if size else s["n"], 1 / epsilon))
    base.update(kw)
    return Mechanism(**base)


def test_plan_is_recorded_before_any_draw_and_overspend_refused():
    calls = []

    def stats(x, **p):
        calls.append("statistics")
        return {"n": 1.0}

    mech = _toy(statistics=stats)
    acc = Accountant(total_epsilon=1.0)
    mech.release([1], rng=0, accountant=acc, epsilon=0.75)
    with pytest.raises(BudgetExceededError):
        mech.release([1], rng=0, accountant=acc, epsilon=0.5)
    assert calls == ["statistics"], "an overspend must be refused before the data is touched"
    assert acc.spent == pytest.approx(0.75)


def test_parameters_are_checked_once_with_one_line_messages():
    mech = _toy()
    with pytest.raises(ValueError, match="k must be ≥ 1"):
        mech.plan(epsilon=1.0, k=0)
    with pytest.raises(ValueError, match="epsilon is required"):
        mech.plan()
    with pytest.raises(ValueError, match="has no parameter 'z'"):
        mech.plan(epsilon=1.0, z=3)


def test_a_bool_is_no_count_and_labels_name_the_callers_argument():
    """An API that called check_int refused k=True; its declaration now does, and refuses ε=True (the CLI's "3" is
    still a count). A
    caller's own name (``budget``) is the one a refusal shows."""
    mech = _toy()
    for flag in (True, np.True_):
        with pytest.raises(ValueError, match="k must be a finite int ≥ 1, got"):
            mech.plan(epsilon=1.0, k=flag)
        with pytest.raises(ValueError, match="epsilon must be a finite float > 0, got"):  # nor an ε
            mech.plan(epsilon=flag, k=1)
    assert mech.check_params({"epsilon": "0.5", "k": "3"}) == {"epsilon": 0.5, "k": 3}
    with pytest.raises(ValueError, match="^budget must be > 0, got -1.0$"):
        mech.check_params({"epsilon": -1}, labels={"epsilon": "budget"})


def test_sample_is_research_only_and_same_law_as_release():
    mech = _toy()
    with pytest.raises(ValueError, match="research noise"):
        mech.sample({"n": 3.0}, size=5, rng=None, epsilon=1.0)
    many = mech.sample({"n": 3.0}, size=20000, rng=1, epsilon=1.0)
    one = np.array([mech.release([0, 0, 0], rng=s, epsilon=1.0).value for s in range(4000)])
    assert abs(many.mean() - 3) < 0.05 and abs(np.abs(many - 3).mean() - 1) < 0.03
    assert abs(np.abs(one - 3).mean() - 1) < 0.06


def test_generic_neighbours_cover_the_relations():
    df = pd.DataFrame({"a": [1, 2, 3]})
    add_remove = list(generic_neighbours("add_remove_row", df))
    assert {len(d) for d in add_remove} == {2, 4}
    subs = list(generic_neighbours("substitute_row", np.array([1.0, 2.0])))
    assert all(len(s) == 2 for s in subs) and len(subs) >= 2
    node = list(generic_neighbours("node", (3, np.array([[0, 1], [1, 2]]))))
    assert len(node) == 3 and all(n == 2 for n, _ in node)
    edge = list(generic_neighbours("edge", (3, np.array([[0, 1]]))))
    assert len(edge) == 3
    with pytest.raises(ValueError, match="own `neighbours`"):
        list(generic_neighbours("fk_tuple", df))


def test_runner_records_out_of_time(tmp_path):
    import time as _time

    from dpworkbench.experiments.runner import run_mechanisms

    def slow(x, **p):
        _time.sleep(5)
        return {"n": 1.0}

    mech = _toy(name="toy.slow", statistics=slow, register=True)
    try:
        t0 = _time.perf_counter()
        res = run_mechanisms("slow", {"a": [1]}, ["toy.slow"], epsilons=[1.0], repetitions=3, seed=0,
                             results_dir=tmp_path, progress=False, timeout=0.5)
        assert _time.perf_counter() - t0 < 4 and list(res["status"]) == ["OT"] * 3
    finally:
        declaration._REGISTRY.pop(mech.name, None)


def test_the_error_bar_covers_the_truth(plugin_dir):
    """The declared noise-only interval covers the statistic in ≥ 1 − β − 3 SE of seeded releases."""
    from dpworkbench.cli.release import accuracy_payload

    mech = registry()["plugin.conflict_count"]
    df = pd.DataFrame({"A": [1, 1, 2, 2, 3], "B": [1, 2, 3, 3, 4]})
    n, beta = 3000, 0.05
    covered = 0
    for s in range(n):
        rel = mech.release(df, rng=s, epsilon=0.7, cap=2)
        lo, hi = accuracy_payload(mech.accuracy(epsilon=0.7, cap=2), rel.value)["interval"]
        covered += lo <= rel.exact["truth"] <= hi
    se = (beta * (1 - beta) / n) ** 0.5
    assert covered / n >= 1 - beta - 3 * se


def test_a_new_file_in_a_papers_mechanisms_package_is_discovered(tmp_path):
    """The README's claim: adding a mechanism to a paper is one new file in its ``mechanisms`` package."""
    shutil.copytree(ROOT / "dpworkbench", tmp_path / "dpworkbench", ignore=shutil.ignore_patterns("__pycache__"))
    text = PLUGIN.read_text().replace('NAME = "plugin.conflict_count"', 'NAME = "inconsistency.conflict_count"')
    (tmp_path / "dpworkbench" / "inconsistency" / "mechanisms" / "conflict_count.py").write_text(text)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    env.pop("DPWB_MECHANISMS_PATH", None)
    out = subprocess.run([sys.executable, "-m", "dpworkbench", "privacy-table"], capture_output=True, text=True,
                         env=env, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    rows = [ln for ln in out.stdout.splitlines() if "inconsistency.conflict_count" in ln]
    assert rows and "test_harness_declared.py" in rows[0]
    listed = subprocess.run([sys.executable, "-m", "dpworkbench", "release", "--help"], capture_output=True, text=True,
                            env=env, cwd=tmp_path, timeout=300)
    assert "inconsistency.conflict_count" in listed.stdout
