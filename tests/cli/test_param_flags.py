"""Paper commands take their flags, help and checks from the declared parameters (issue 23): add_param_flags and
checked_params in dpworkbench/cli/release.py."""

from __future__ import annotations

import argparse

import pytest

from dpworkbench.cli.release import add_param_flags, checked_params, describe
from dpworkbench.mechanisms.declaration import EPSILON, REQUIRED, Mechanism, Param, SUBSTITUTE_ROW

MECH = Mechanism(
    name="test.flags", summary="a declaration for the flag test", relation=SUBSTITUTE_ROW,
    params=(EPSILON(), Param("level", float, REQUIRED, "public level", low=0.0, high=1.0, open_low=True),
            Param("max_items", int, 5, "public cap", low=1), Param("mode", str, "a", "the mode", choices=("a", "b"))),
    cost=lambda **p: (), statistics=lambda data, **p: {}, noise=lambda *a, **k: 0.0, register=False)


def _parser(**kw) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="t", exit_on_error=False)
    add_param_flags(p, MECH, **kw)
    return p


def test_flags_carry_the_declared_type_default_choices_and_help():
    p = _parser(defaults={"epsilon": 1.0})
    args = p.parse_args(["--level", "0.5"])
    assert (args.epsilon, args.level, args.max_items, args.mode) == (1.0, 0.5, 5, "a")
    assert isinstance(args.max_items, int)
    text = p.format_help()
    assert "--max-items MAX_ITEMS" in text and "public cap (default 5)" in text and "{a,b}" in text
    with pytest.raises(SystemExit):  # no default declared and none given: a required flag
        _parser(defaults={"epsilon": 1.0}).parse_args([])
    with pytest.raises(argparse.ArgumentError):
        p.parse_args(["--level", "0.5", "--mode", "c"])


@pytest.mark.parametrize("argv, message", [
    (["--level", "1.5"], "--level must be in (0, 1], got 1.5"),
    (["--level", "0"], "--level must be in (0, 1], got 0.0"),
    (["--level", "0.5", "--max-items", "0"], "--max-items must be ≥ 1, got 0"),
    (["--level", "0.5", "--epsilon", "-1"], "--epsilon must be > 0, got -1.0"),
    (["--level", "nan"], "--level must be a finite float in (0, 1], got nan"),
])
def test_a_refusal_is_one_line_naming_the_flag(argv, message):
    args = _parser(defaults={"epsilon": 1.0}).parse_args(argv)
    with pytest.raises(ValueError) as err:
        checked_params(args, MECH, ("epsilon", "level", "max_items"))
    assert str(err.value) == message


def test_checked_params_returns_the_checked_values_and_leaves_unset_flags_out():
    args = _parser(defaults={"epsilon": 2.0, "max_items": None}).parse_args(["--level", "1"])
    assert checked_params(args, MECH, ("epsilon", "level", "max_items")) == {"epsilon": 2.0, "level": 1.0}


def test_describe_states_relation_public_inputs_and_noise():
    text = describe("What it does.", relation=MECH.relation, public="--level")
    assert "Neighbouring relation: " + SUBSTITUTE_ROW.describe() in text.replace("\n", " ")
    assert "Treated as public: --level." in text and "NOT a private release" in text.replace("\n", " ")


def test_an_open_upper_bound_is_constraint_data():
    """A probability in (0, 1) is declared, not checked by hand (privateclean's --p): both ends are refused, the
    message and the description say the bound is open."""
    q = Param("p", float, None, "replacement probability", low=0.0, high=1.0, open_low=True, open_high=True)
    assert q.check("0.5", "--p") == 0.5 and q.describe() == "p (float: 0 < p < 1)"
    for bad in (0.0, 1.0, 1.5):
        with pytest.raises(ValueError) as err:
            q.check(bad, "--p")
        assert str(err.value) == f"--p must be in (0, 1), got {bad!r}"
    with pytest.raises(ValueError, match=r"^x must be < 2, got 2\.0$"):
        Param("x", float, None, high=2.0, open_high=True).check(2.0)
    assert Param("x", float, None, high=2.0).check(2.0) == 2.0  # a closed bound still admits its end


def test_privateclean_budget_flags_come_from_their_declaration(capsys):
    """--p, --epsilon, --b, ... of `privateclean query` are the declared PARAMS: their help, and their refusals in
    both query front ends (one attribute and several)."""
    from dpworkbench.cli import build_parser, main
    from dpworkbench.privateclean.query import PARAMS

    sub = build_parser()._subparsers._group_actions[0].choices["privateclean"]
    text = sub._subparsers._group_actions[0].choices["query"].format_help()
    assert all(q.help.split(" (")[0][:30] in " ".join(text.split()) for q in PARAMS.values())
    one = ["privateclean", "query", "missing.csv", "--attr", "a", "--domain", "x,y", "--equals", "x"]
    many = ["privateclean", "query", "missing.csv", "--attr", "a", "--domain", "x,y", "--attr", "b", "--domain", "u,v",
            "--where", "a = x"]
    for argv in (one, many):
        assert main([*argv, "--p", "1"]) == 2
        assert capsys.readouterr().err.strip() == "error: --p must be in (0, 1), got 1.0"
