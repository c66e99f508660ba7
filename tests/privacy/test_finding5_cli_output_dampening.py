"""Finding 5 (dampening): the CLI printed exact values (the selected row's value, …) next to the private release.
By default ``dpworkbench dampening median|topk`` now prints only private values and public parameters; exact values
appear only with ``--show-exact``, each labelled NOT PRIVATE; ``--json`` puts every field under private / public /
NOT_PRIVATE; ``--help`` states the neighbouring relation, what is public and that ``--seed`` is a research run."""

from __future__ import annotations

import json

import networkx as nx
import pytest

from dpworkbench.cli import main


@pytest.fixture()
def files(tmp_path):
    csv = tmp_path / "x.csv"
    csv.write_text("val\n" + "\n".join(str(v) for v in [3, 50, 7, 90, 40, 61, 12]))
    G = nx.powerlaw_cluster_graph(40, 3, 0.3, seed=1)
    edges = tmp_path / "g.txt"
    edges.write_text("\n".join(f"{u} {v}" for u, v in G.edges))
    nodes = tmp_path / "nodes.txt"
    nodes.write_text("\n".join(str(v) for v in range(45)))   # public node set, 5 isolated nodes
    return csv, edges, nodes


def _runs(files):
    csv, edges, nodes = files
    return {"median": ["dampening", "median", str(csv), "--column", "val", "--upper", "100", "--seed", "1"],
            "topk": ["dampening", "topk", str(edges), "--k", "3", "--nodes", str(nodes), "--max-degree-bound", "40",
                     "--seed", "1"]}


def test_finding5_default_output_has_no_exact_values(files, capsys):
    for name, argv in _runs(files).items():
        assert main(argv) == 0
        text = capsys.readouterr().out
        assert "NOT PRIVATE" not in text and "true" not in text.lower(), (name, text)
        assert "(seeded research value, not a release)" in text and "public inputs:" in text and "epsilon spent:" in text
        assert "seeded numpy" in text                               # the research run says so
        assert main(argv + ["--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert {"private", "public", "ledger", "noise", "epsilon_spent"} <= set(out) and "NOT_PRIVATE" not in out


def test_finding5_show_exact_labels_each_value(files, capsys):
    for name, argv in _runs(files).items():
        assert main(argv + ["--show-exact"]) == 0
        lines = capsys.readouterr().out.splitlines()
        exact = [ln for ln in lines if "true" in ln.lower()]
        assert exact and all(ln.startswith("NOT PRIVATE") for ln in exact), (name, lines)
        assert main(argv + ["--show-exact", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        key = "true_median" if name == "median" else "true_top_k"
        assert key in out["NOT_PRIVATE"] and key not in out["private"] and key not in out["public"]


def test_finding5_strict_topk_has_nothing_derived(files, capsys):
    argv = _runs(files)["topk"] + ["--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["public_derived_from_data"] == [] and out["public"]["max_degree_bound"] == 40
    assert main(argv[:3] + ["--k", "3", "--seed", "1", "--json"]) == 0       # defaults: derived, and reported
    assert set(json.loads(capsys.readouterr().out)["public_derived_from_data"]) == {"max_degree_bound", "node set"}


@pytest.mark.parametrize("cmd,relation", [("median", "substitution"), ("topk", "edge-DP")])
def test_finding5_help_states_relation_public_and_seed(cmd, relation, capsys):
    with pytest.raises(SystemExit):
        main(["dampening", cmd, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "Neighbouring relation" in text and relation in text and "Treated as public" in text
    assert "research run" in text and "NOT a private release" in text and "--show-exact" in text
