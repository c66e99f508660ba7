"""An engine on a declaration (``mechanisms.declaration.Engine``), paper-agnostic: a toy declaration (each record
clipped into the public [0, 1], then Laplace noise per record) with a toy engine that draws it part by part out of the
harness's sight. The core derives the engine's API entry and a command's ``--engine`` variant from the declaration,
audits the honest engine, and flags an engine whose parts compute other statistics than the declaration's."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from dpworkbench.accounting import LedgerEntry, Release
from dpworkbench.mechanisms import declaration as D
from dpworkbench.mechanisms.backends import check_rng
from dpworkbench.testing.declared import cli_entry, engine_entry, entry_point, observed_releases
from dpworkbench.testing.harness import check_entry_point, check_sensitivity

EPS = 1.0


def _statistics(data, *, epsilon):
    return {"values": np.clip(np.asarray(data, dtype=float), 0.0, 1.0)}  # the public bounds [0, 1]


def _noise(stats, backend, size, *, epsilon):
    return np.asarray(backend.add_laplace(stats["values"], 1.0 / epsilon), dtype=float)


def _neighbours(x):
    """Substitute one record at any position by an edge of the bounds or a hostile number."""
    for i in range(len(x)):
        for u in (0.0, 1.0, 1e9, -1e9):
            if x[i] != u:
                yield np.r_[x[:i], u, x[i + 1:]]


def _parts(scale_by_max: bool):
    """The engine: each half of the records through the declaration's statistics and noise (where a caller cannot
    see them), after the plan was recorded once. ``scale_by_max``: the leak, each part rescaled by its own maximum (a
    bound read off the rows instead of the public one): still in [0, 1], so only the brute force can tell."""
    def run(data, *, rng, accountant=None, epsilon):
        ledger = TOY.record(accountant, epsilon=epsilon)  # before any draw
        backend = check_rng(rng)
        out = []
        for part in np.array_split(np.asarray(data, dtype=float), 2):
            stats = TOY.statistics(part, epsilon=epsilon)
            top = stats["values"].max(initial=0.0)
            if scale_by_max and top > 0:
                stats = {"values": stats["values"] / top}
            out.append(TOY.noise(stats, backend, None, epsilon=epsilon))
        return Release(np.concatenate(out), ledger, public={"epsilon": epsilon}, mechanism=TOY.name)
    return run


def _prenoise(value, params):
    if not ((value >= 0) & (value <= 1)).all():  # what the declaration's clip would still move: not its output
        raise RuntimeError("the pre-noise output is outside the public bounds")
    return value  # already the declaration's statistics input: records in [0, 1]


def _engine(scale_by_max: bool = False) -> D.Engine:
    return D.Engine("parts", "toy.engine.parts", _prenoise, lambda v: {f"v[{i}]": float(y) for i, y in enumerate(v)},
                    run=_parts(scale_by_max), examples=1, harness_samples=1500,
                    tests="tests/privacy/test_harness_engine.py", note="two parts")


TOY = D.Mechanism(
    name="toy.local_laplace", summary="each record clipped into [0, 1], then Laplace(1/ε) per record",
    relation=D.SUBSTITUTE_ROW("one record of a 1-D array"), params=(D.EPSILON(),),
    cost=lambda *, epsilon: (LedgerEntry("toy-laplace", epsilon, "per record"),), statistics=_statistics,
    noise=_noise, sensitivity=lambda *, epsilon: {"values": 1.0},
    examples=lambda rng: [np.r_[0.0, np.round(rng.uniform(0.1, 0.3, 5), 2)], np.round(rng.uniform(0, 1, 4), 2)],
    harness_params={"epsilon": EPS}, harness_samples=1500, neighbours=_neighbours, engines=(_engine(),),
    register=False)  # a registered toy would join the registry, the privacy table and `dpworkbench release`
LEAKY = dataclasses.replace(TOY, engines=(_engine(scale_by_max=True),))


def test_the_engine_entry_is_the_declarations_own():
    base, entry = entry_point(TOY), engine_entry(TOY, "parts")
    assert base.name == TOY.name and entry.name == "toy.engine.parts"  # ε, its one parameter, is the claim
    for field in ("kind", "paper", "relation", "claimed_epsilon", "public_inputs", "sensitivities", "expect_flagged"):
        assert getattr(entry, field) == getattr(base, field), field
    x = entry.make_inputs(np.random.default_rng(0))
    assert len(x) == 1 and [list(n) for n in entry.neighbours(x[0])] == [list(n) for n in base.neighbours(x[0])]
    # the statistics are those of the engine's pre-noise output: here the declaration's own
    np.testing.assert_array_equal(entry.statistics(x[0])["values"], base.statistics(x[0])["values"])
    with pytest.raises(ValueError, match="declares no engine 'spark'"):
        engine_entry(TOY, "spark")


def test_an_honest_engine_passes_and_a_leaking_one_is_flagged():
    rep = check_entry_point(engine_entry(TOY, "parts"))
    assert not rep.flagged and rep.sensitivity.worst_ratio == pytest.approx(1.0), str(rep)
    leak = check_sensitivity(engine_entry(LEAKY, "parts"), np.random.default_rng(0))
    assert leak.violations and leak.worst_ratio > 1.5, str(leak)  # the declaration's own entry passes on the same data
    assert not check_sensitivity(entry_point(LEAKY), np.random.default_rng(0)).violations


def test_an_engine_output_outside_the_declarations_rules_is_an_error_not_a_statistic():
    unclipped = dataclasses.replace(TOY, engines=(dataclasses.replace(
        _engine(), run=lambda data, *, rng, accountant=None, epsilon: Release(np.asarray(data, float), (), {})),))
    with pytest.raises(RuntimeError, match="outside the public bounds"):
        check_sensitivity(engine_entry(unclipped, "parts"), np.random.default_rng(0))


def _command(mech, honour_engine: bool = True):
    """``dpworkbench toy run`` in miniature: ``--plan`` names the declaration, ``--engine`` the engine it runs on."""
    def run(x, *flags):
        if "--plan" in flags:
            return {"mechanism": mech.name, "epsilon": mech.epsilon(epsilon=EPS)}
        seed = int(flags[flags.index("--seed") + 1])
        if "--engine" in flags and honour_engine:
            rel = mech.release_on(flags[flags.index("--engine") + 1], x, rng=seed, epsilon=EPS)
        else:
            rel = mech.release(x, rng=seed, epsilon=EPS)
        return {"private": {f"v[{i}]": float(v) for i, v in enumerate(rel.value)}}
    return run


def _cli(mech, monkeypatch, **kw):
    monkeypatch.setitem(D._REGISTRY, mech.name, mech)  # cli_entry finds the declaration its --plan names
    return cli_entry("dpworkbench toy run", _command(mech, **kw), lambda rng: TOY.examples(rng)[:1], _neighbours,
                     public=("--epsilon", "number of records"), engine="parts", note="toy")


def test_the_command_engine_variant(monkeypatch):
    entry = _cli(TOY, monkeypatch)
    assert entry.name == "dpworkbench toy run --engine parts" and entry.kind == "cli" and entry.paper == "toy"
    assert entry.public_inputs == ("--epsilon", "--engine", "number of records") and entry.tests.endswith("engine.py")
    assert entry.claimed_epsilon == EPS and entry.n_samples == 1500 and entry.note == "toy; two parts"
    rep = check_sensitivity(entry, np.random.default_rng(0))
    assert not rep.violations and rep.worst_ratio == pytest.approx(1.0)
    # observed, the engine ran with the pre-noise back-end: the command's numbers are the clipped records themselves
    x = entry.make_inputs(np.random.default_rng(0))[0]
    with observed_releases("parts") as seen:
        out = _command(TOY)(x, "--engine", "parts", "--seed", "3")
    assert [v for _, v in sorted(out["private"].items())] == list(np.clip(x, 0, 1)) and len(seen) == 1
    # unobserved, the same command line is a noisy release
    assert _command(TOY)(x, "--engine", "parts", "--seed", "3")["private"]["v[0]"] != x[0]


def test_the_command_engine_variant_flags_a_leak_and_a_command_that_ignores_the_engine(monkeypatch):
    assert check_sensitivity(_cli(LEAKY, monkeypatch), np.random.default_rng(0)).violations
    ignored = _cli(TOY, monkeypatch, honour_engine=False)  # it releases in memory: no statistics of the engine's
    with pytest.raises(RuntimeError, match="no release on the engine 'parts'"):
        check_sensitivity(ignored, np.random.default_rng(0))


def _driver(data, *, rng, accountant=None, mode, epsilon):
    """An engine that computes the statistics out of sight (as Spark builds a graph) and hands them to the declaration's
    own release on the driver: ``prenoise=None``, the harness observes them there. ``mode="leak"``: rescaled by their
    own maximum (a bound read off the rows); ``"other"``: it releases another declaration's copy."""
    values = np.clip(np.asarray(data, dtype=float), 0.0, 1.0)
    if mode == "leak" and values.max(initial=0.0) > 0:
        values = values / values.max()
    mech = dataclasses.replace(TOY, name="toy.other", register=False) if mode == "other" else TOY
    return mech.release(data, rng=rng, accountant=accountant, statistics={"values": values}, epsilon=epsilon)


def _observed(mode: str):
    engine = D.Engine("driver", "toy.engine.driver", None, lambda v: {f"v[{i}]": float(y) for i, y in enumerate(v)},
                      run=_driver, examples=lambda rng: [np.r_[0.0, 0.2, 0.3]], harness_samples=1500,
                      options={"mode": mode})
    return engine_entry(dataclasses.replace(TOY, engines=(engine,)), "driver")


def test_an_engine_observed_on_the_driver():
    entry = _observed("honest")
    assert entry.name == "toy.engine.driver(mode='honest')" and entry.make_inputs(None)[0].size == 3
    rep = check_entry_point(entry)
    assert not rep.flagged and rep.sensitivity.worst_ratio == pytest.approx(1.0), str(rep)
    leak = check_sensitivity(_observed("leak"), np.random.default_rng(0))
    assert leak.violations and leak.worst_ratio > 1.5, str(leak)
    with pytest.raises(RuntimeError, match="made no release of toy.local_laplace"):
        check_sensitivity(_observed("other"), np.random.default_rng(0))


def test_a_command_on_an_engine_observed_on_the_driver(monkeypatch):
    mech = dataclasses.replace(TOY, engines=(D.Engine("parts", "toy.engine.driver", None, dict, run=_driver,
                                                     options={"mode": "leak"}),))
    leak = check_sensitivity(_cli(mech, monkeypatch), np.random.default_rng(0))
    assert leak.violations and leak.worst_ratio > 1.5, str(leak)
