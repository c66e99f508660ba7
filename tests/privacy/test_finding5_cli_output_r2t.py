"""Finding 5 (R2T): ``dpworkbench r2t sql|graph`` printed exact statistics next to the private estimate — the
true answer and DS, the join size, the Theorem 5.1 bound (a function of DS), pruning counts, timings, the node
count — some unlabelled. By default it now prints only private values and public parameters; exact values only
with ``--show-exact``, each labelled NOT PRIVATE; ``--json`` puts every field under private / public /
NOT_PRIVATE; ``--help`` states the neighbouring relation, what is public and that ``--seed`` is a research run."""

from __future__ import annotations

import json

import pytest

from dpworkbench.cli import main

EXACT_KEYS = ("answer", "DS", "join_results", "theorem_5_1_bound", "solved", "pruned", "seconds")


@pytest.fixture()
def runs(tmp_path):
    (tmp_path / "g.txt").write_text("0\t1\n1\t2\n2\t0\n2\t3\n3\t0\n3\t4\n")
    (tmp_path / "cust.csv").write_text("id\n1\n2\n3\n")
    (tmp_path / "orders.csv").write_text("oid,cid\n1,1\n2,1\n3,2\n4,3\n5,3\n")
    return {
        "graph": ["r2t", "graph", str(tmp_path / "g.txt"), "--query", "triangle", "--max-degree", "4", "--seed", "1"],
        "sql": ["r2t", "sql", "SELECT COUNT(*) FROM cust c, orders o WHERE c.id = o.cid", "--table",
                f"cust={tmp_path / 'cust.csv'}", "--table", f"orders={tmp_path / 'orders.csv'}", "--private", "c:id",
                "--gs", "8", "--seed", "1"],
    }


def test_finding5_default_output_has_only_private_and_public_values(runs, capsys):
    for name, argv in runs.items():
        assert main(argv) == 0
        text = capsys.readouterr().out
        assert "NOT PRIVATE" not in text, (name, text)
        for word in ("join results", "exact", "DS", "bound", "solved", "pruned", "(n="):
            assert word not in text, (name, word, text)
        assert "estimate (seeded research value, not a release)" in text and "public inputs:" in text and "epsilon spent: 1" in text
        assert "seeded numpy" in text
        assert main(argv + ["--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert {"private", "public", "ledger", "noise", "epsilon_spent"} <= set(out) and "NOT_PRIVATE" not in out
        assert set(out["private"]) == {"estimate", "winner_tau"}
        assert out["public"]["GS_Q"] > 0 and out["public"]["taus"] and "neighbouring relation" in out["public"]
        assert not any(k in out["public"] for k in EXACT_KEYS)


def test_finding5_show_exact_labels_each_exact_value(runs, capsys):
    for name, argv in runs.items():
        assert main(argv + ["--show-exact"]) == 0
        lines = capsys.readouterr().out.splitlines()
        for key in EXACT_KEYS:
            hits = [ln for ln in lines if f" {key}:" in ln or ln.startswith(f"{key}:")]
            assert hits and all(ln.startswith("NOT PRIVATE") for ln in hits), (name, key, lines)
        assert main(argv + ["--show-exact", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert set(EXACT_KEYS) <= set(out["NOT_PRIVATE"])
        assert not set(EXACT_KEYS) & (set(out["private"]) | set(out["public"]))


@pytest.mark.parametrize("sub", ["sql", "graph"])
def test_finding5_help_states_relation_public_inputs_and_seed(sub, capsys):
    with pytest.raises(SystemExit):
        main(["r2t", sub, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "neighbouring relation:" in text.lower() and "treated as public:" in text.lower()
    assert ("node-DP" in text) if sub == "graph" else ("primary private relation" in text)
    assert "GS_Q" in text and "β" in text and "base" in text
    assert "research run" in text and "NOT a private release" in text and "OpenDP" in text
