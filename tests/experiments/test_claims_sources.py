"""Issue 24: every claim names its source, its rule as text and, when it is not a pass, a cause; a printed paper
number is judged by a two-sided band of its rounding plus ≥ 3 Monte-Carlo SEs; the report refuses what lacks these."""

from __future__ import annotations

import dataclasses
import json

import pandas as pd
import pytest

from dpworkbench.experiments.claims import (
    ClaimsIncomplete,
    Claims,
    Rule,
    Scale,
    at_least,
    band,
    between,
    claim_defaults,
    claim_row_problems,
    close,
    equals,
    not_comparable,
    printed_rounding,
    rule_text,
)


def _rows(claims):
    return json.loads(json.dumps([dataclasses.asdict(c) for c in claims.rows]))


def test_rule_text_is_derived_from_the_rule_and_survives_claims_json():
    c = Claims()
    c.add("a", paper=176, ours=150, rule=close(176, rtol=1.0), source="paper")
    c.add("b", paper="> 10", ours=19.5, rule=at_least(10, strict=True), source="check")
    c.add("c", paper=2, ours=2, rule=between(1, 9), source="artifact")
    c.add("d", paper=8, ours=8, rule=equals(8), source="spec")
    c.add("e", paper="152.8", ours=150, rule=band("152.8", se=1.5))
    texts = [rule_text(r) for r in _rows(c)]  # from the stored rule dict, as the report reads it
    assert texts == ["close(176, rtol=1)", "at_least(10, strict=True)", "between(1, 9)", "equals(8)",
                     "band(152.8, rounding=0.05, se=1.5, k=3)"]
    # changing the rule changes its text: nothing is written twice
    assert Rule.from_json({**_rows(c)[0]["rule"], "rtol": 0.1}).text() == "close(176, rtol=0.1)"


def test_band_is_two_sided_rounding_plus_three_se():
    assert printed_rounding("152.8") == pytest.approx(0.05) and printed_rounding("176") == 0.5
    assert printed_rounding("0.10") == pytest.approx(0.005) and printed_rounding("1.2e3") == pytest.approx(50)
    r = band("152.8", se=2.0)  # half-width 0.05 + 3 × 2 = 6.05
    assert r.verdict(152.8 + 6.0) == "pass" and r.verdict(152.8 - 6.0) == "pass"
    assert r.verdict(152.8 + 6.1) == "differs" and r.verdict(152.8 - 6.1) == "differs"  # both sides fail
    assert r.verdict(19.5) == "differs"  # tab05 Q3's 19.5 against 152.8: a one-sided "> 10" passed it
    assert r.verdict(r.breaking(150.0)) == "differs" and r.verdict(r.breaking(100.0)) == "pass"
    with pytest.raises(ValueError, match="at least 3"):
        band("152.8", se=2.0, k=2)
    with pytest.raises(ValueError, match="stated reason"):
        band("152.8", se=2.0, widen=10)
    assert band("152.8", se=2.0, widen=10, reason="trimmed mean of 5 runs").verdict(165) == "pass"
    c = Claims()
    c.add("x", paper=152.8, ours=19.5, rule=band("152.8", se=1.0), cause="scale:SF 0.1")
    assert (c.rows[0].source, c.rows[0].verdict) == ("paper", "differs")  # a band is a printed number: source derived
    with pytest.raises(ValueError, match="source is 'paper' or 'artifact'"):
        c.add("y", paper=1, ours=1, rule=band("1", se=0.1), source="spec")


def test_sources_and_causes_come_from_the_paper_function_and_are_checked():
    @claim_defaults("spec", cause="open:suspected")
    def paper_fn(claims):
        claims.add("recomputed", paper=1.0, ours=2.0, rule=close(1.0, rtol=0.1))
        claims.add("theorem", paper=1.0, ours=1.0, rule=at_least(1.0), source="check")

    c = Claims()
    paper_fn(c)
    assert [(r.source, r.verdict, r.cause) for r in c.rows] == [("spec", "differs", "open:suspected"), ("check", "pass", "")]
    assert c.default_source == ""  # the default does not leak past the function
    with pytest.raises(ValueError, match="not one of"):
        c.add("z", paper=1, ours=1, rtol=0.1, source="paper", cause="because")
    with pytest.raises(ValueError, match="source"):
        c.add("z", paper=1, ours=1, rtol=0.1, source="thesis")


def test_below_its_scale_a_claim_is_not_comparable_with_the_scale_as_cause():
    c = Claims()
    c.add("R2T error/DS", paper=0.5, ours=3.0, rule=close(0.5, rtol=0.5), source="paper", scale=Scale("answer/DS", 33, 500))
    c.add("R2T error/DS big", paper=0.5, ours=3.0, rule=close(0.5, rtol=0.5), source="paper", scale=Scale("answer/DS", 2000, 500),
          cause="open:?")
    (small, big) = c.rows
    assert small.verdict == "not-comparable" and small.cause == "scale:answer/DS 33 < 500" and "close(0.5, rtol=0.5)" in small.note
    assert big.verdict == "differs"  # at scale the rule applies


def test_report_refuses_a_non_pass_without_cause_and_counts_only_paper_claims(tmp_path):
    from dpworkbench.experiments.nbtools import discover_notebooks
    from dpworkbench.experiments.report import build_report

    info = discover_notebooks()[0]
    d = tmp_path / "ci" / info.paper / info.stem
    d.mkdir(parents=True)
    c = Claims()
    c.add("printed number", paper=10, ours=10.2, rule=band("10", se=0.1), note="")
    c.add("sanity check", paper=1, ours=0, rule=at_least(1), source="check")  # differs, no cause
    (d / "claims.json").write_text(json.dumps(_rows(c)))
    with pytest.raises(ClaimsIncomplete) as err:
        build_report(tmp_path / "ci", "ci")
    msg = str(err.value)
    assert "'sanity check'" in msg and "no cause" in msg and "\n" not in msg
    assert not (tmp_path / "ci" / "claims.csv").exists()
    rows = _rows(c)
    rows[1]["cause"] = "open:the check's bound is wrong"
    rows.append({**rows[0], "claim": "unclassified", "source": ""})
    assert claim_row_problems({**rows[2], "notebook": info.name}) == [f"claim 'unclassified' of {info.name} has no source "
                                                                      "(paper|spec|artifact|check), got ''"]
    (d / "claims.json").write_text(json.dumps(rows[:2]))
    page = build_report(tmp_path / "ci", "ci").read_text()
    csv = pd.read_csv(tmp_path / "ci" / "claims.csv")
    assert {"source", "rule", "cause"} <= set(csv.columns)
    assert csv.set_index("claim").loc["printed number", "rule"] == "band(10, rounding=0.5, se=0.1, k=3)"
    assert "Paper claims</b> (a value the paper prints): 1 pass, 0 differs, 0 not-comparable" in page
    assert "0 pass, 1 differs, 0 not-comparable" in page  # the check, listed apart
    assert page.index("Reproduction table (paper claims)") < page.index("Checks (not counted as reproduction; checks.csv)")
    # the check is in checks.csv (same columns), not in claims.csv: the share of passes from the paper is claims.csv's
    checks = pd.read_csv(tmp_path / "ci" / "checks.csv")
    assert list(csv["claim"]) == ["printed number"] and list(checks["claim"]) == ["sanity check"]
    assert list(checks.columns) == list(csv.columns)


def test_checks_are_listed_apart_and_the_share_counts_claims_csv(tmp_path):
    """Issue 24: claims.csv holds the rows compared with a reference (paper, spec, artifact); the sanity, theorem and
    pre-registered checks go to checks.csv. The headline gives the share of claims.csv's passes from the paper, and
    also the share with the checks, so the split cannot hide them."""
    from dpworkbench.experiments.nbtools import discover_notebooks
    from dpworkbench.experiments.report import build_report

    info = discover_notebooks()[0]
    d = tmp_path / "ci" / info.paper / info.stem
    d.mkdir(parents=True)
    c = Claims()
    for k in range(4):
        c.add(f"paper {k}", paper=10, ours=10, rule=band("10", se=0.1))
    c.add("spec", paper=3, ours=3, rule=equals(3), source="spec")
    for k in range(3):
        c.add(f"check {k}", paper=1, ours=1, rule=at_least(1), source="check")
    c.add("failing check", paper=1, ours=0, rule=at_least(1), source="check", cause="open:suspected")
    (d / "claims.json").write_text(json.dumps(_rows(c)))
    page = build_report(tmp_path / "ci", "ci").read_text()
    claims = pd.read_csv(tmp_path / "ci" / "claims.csv")
    checks = pd.read_csv(tmp_path / "ci" / "checks.csv")
    assert sorted(claims["source"].unique()) == ["paper", "spec"] and set(checks["source"]) == {"check"}
    assert len(claims) + len(checks) == 9
    assert "4 of the 5 passes in claims.csv (80%) test a number the paper prints (4 of 8, 50%, with the checks)" in page
    assert "<b>1</b> non-passes have an open cause" in page  # an open cause among the checks still counts
    assert "Checks (sanity, theorem and pre-registered checks, listed apart in checks.csv): 3 pass, 1 differs" in page


def test_not_comparable_rule_still_needs_a_cause_in_the_report():
    c = Claims()
    c.add("n-c", paper=1, ours=1, rule=not_comparable("stand-in"), source="paper")
    assert claim_row_problems(_rows(c)[0]) and "no cause" in claim_row_problems(_rows(c)[0])[0]


def test_every_paper_claims_function_names_a_source():
    """A claims function of a paper module gives its claims a default source (claim_defaults), so no claim of a
    notebook reaches the report unclassified; a new function without one fails here."""
    import importlib
    import inspect

    missing = []
    from dpworkbench.papers import paper_keys

    for paper in (*paper_keys(), "teaching"):  # the discovered papers, and the mechanisms' teaching claims
        try:
            mod = importlib.import_module(f"dpworkbench.{paper}.claims")
        except ModuleNotFoundError as exc:  # a paper without claims of its own (any other missing module fails)
            if exc.name != f"dpworkbench.{paper}.claims":
                raise
            continue
        for name, fn in inspect.getmembers(mod, inspect.isfunction):
            if fn.__module__ != mod.__name__ or name.startswith("_"):
                continue
            params = list(inspect.signature(inspect.unwrap(fn)).parameters)
            if params[:1] == ["claims"] and not hasattr(fn, "__wrapped__"):
                missing.append(f"{paper}.{name}")
    assert missing == []


def test_report_command_refuses_in_one_line(tmp_path, monkeypatch, capsys):
    from dpworkbench.cli import main
    from dpworkbench.experiments.nbtools import discover_notebooks

    monkeypatch.setenv("DPWB_REPORTS", str(tmp_path))
    info = discover_notebooks()[0]
    d = tmp_path / "ci" / info.paper / info.stem
    d.mkdir(parents=True)
    c = Claims()
    c.add("a difference nobody explained", paper=1, ours=2, rule=close(1, rtol=0.1), source="paper")
    (d / "claims.json").write_text(json.dumps(_rows(c)))
    assert main(["report", "--profile", "ci"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "'a difference nobody explained'" in err and "Traceback" not in err


#: claims functions that do not give every non-pass a cause yet, and whose file this branch does not own (issue 24):
#: each makes some claims without ``cause=`` and has no default. Remove an entry when its function gets one; the
#: test fails on an entry that is no longer needed, so the list cannot go stale.
CAUSES_PENDING: set[str] = set()


def _claims_functions():
    import importlib
    import inspect

    from dpworkbench.papers import paper_keys

    for paper in (*paper_keys(), "teaching"):
        try:
            mod = importlib.import_module(f"dpworkbench.{paper}.claims")
        except ModuleNotFoundError as exc:
            if exc.name != f"dpworkbench.{paper}.claims":
                raise
            continue
        for name, fn in inspect.getmembers(mod, inspect.isfunction):
            if fn.__module__ == mod.__name__ and not name.startswith("_") and hasattr(fn, "__wrapped__"):
                yield f"{paper}.{name}", fn


def test_every_paper_claims_function_gives_a_non_pass_a_cause():
    """Issue 24: a claims function's default cause (claim_defaults) is what a claim it makes carries when it comes out
    other than pass and names no cause of its own, so with a default no claim of a notebook can stop the report. Each
    default must be a known kind, and not one blanket text shared across functions."""
    from dpworkbench.experiments.claims import check_cause

    missing, defaults = [], {}
    for key, fn in _claims_functions():
        cause = getattr(fn, "claim_cause", None)
        assert cause is not None, f"{key}: not wrapped by claim_defaults"
        check_cause(cause, key)  # a known kind
        if not cause:
            missing.append(key)
        else:
            defaults.setdefault(cause, []).append(key)
    assert sorted(set(missing) - CAUSES_PENDING) == [], "claims functions with no default cause"
    assert sorted(CAUSES_PENDING - set(missing)) == [], "CAUSES_PENDING lists functions that now have a cause: remove them"
    # an open cause is what is suspected in that function's claims: one text shared by several functions would be a
    # blanket placeholder (a shared spec item, stand-in or scale is one reason and may be shared)
    shared = {c: fns for c, fns in defaults.items() if len(fns) > 1 and c.startswith("open:")}
    assert shared == {}


@pytest.mark.slow  # runs every paper's claims tests (≈ 15 s); the fast variant is the default-cause test above
def test_forced_non_passes_carry_a_cause(monkeypatch):
    """Force every rule to come out "differs" and run each paper's claims tests (their hand-made inputs): every claim a
    paper's claims function then makes has a cause — its own or its function's default — so the report would build
    whatever the verdicts. The tests' own assertions expect the real verdicts and fail under the patch; only the
    claims they make are looked at here."""
    import importlib.util
    import inspect
    import pathlib
    import sys

    from dpworkbench.experiments import claims as C
    from dpworkbench.papers import paper_keys

    made = []
    add = C.Claims.add

    def recording_add(self, *args, **kwargs):
        c = add(self, *args, **kwargs)
        caller = sys._getframe(1)  # the claims function that made the claim
        made.append((f"{caller.f_globals.get('__name__', '')}.{caller.f_code.co_name}", c))
        return c

    monkeypatch.setattr(C.Rule, "holds", lambda self, ours: False)
    monkeypatch.setattr(C.Claims, "add", recording_add)
    tests = pathlib.Path(__file__).resolve().parents[1]
    for paper in paper_keys():
        for path in sorted((tests / paper).glob("test_claims*.py")):
            spec = importlib.util.spec_from_file_location(f"_forced_{paper}_{path.stem}", path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            for name, fn in vars(mod).items():
                if name.startswith("test_") and inspect.isfunction(fn) and not inspect.signature(fn).parameters:
                    try:
                        fn()
                    except Exception:  # noqa: BLE001 - the test's assertions expect real verdicts
                        pass
    made = [(f.removeprefix("dpworkbench."), c) for f, c in made if f.startswith("dpworkbench.") and ".claims." in f]
    functions = {f for f, _ in made}
    assert all(c.verdict != "pass" for _, c in made)
    problems = sorted({f"{f}: {p}" for f, c in made if f.replace(".claims.", ".") not in CAUSES_PENDING
                       for p in C.claim_row_problems({**dataclasses.asdict(c), "source": c.source or "check"})})
    assert problems == []
    # the paper tests exercise most claims functions (the others are held to a default cause by the test above and run
    # on every notebook's claims by tests/test_notebooks.py), so this is not a check of a few
    every = {k for k, _ in _claims_functions() if not k.startswith("teaching.")}
    covered = every & {f.replace(".claims.", ".") for f in functions}
    assert len(covered) >= 0.75 * len(every), sorted(every - covered)
