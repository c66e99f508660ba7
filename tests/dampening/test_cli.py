import json

import networkx as nx
import numpy as np

from dpworkbench.cli import main
from dpworkbench.dampening import ebc as E
from dpworkbench.graphs import from_networkx


def _json(capsys):
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_cli_median_all_mechanisms(tmp_path, capsys):
    rng = np.random.default_rng(0)
    vals = rng.integers(0, 101, 301)
    p = tmp_path / "x.csv"
    p.write_text("id,val\n" + "\n".join(f"{i},{v}" for i, v in enumerate(vals)))
    med = np.sort(vals)[150]
    for mech in ("EM", "PF", "LD", "SLD"):
        assert main(["dampening", "median", str(p), "--column", "val", "--upper", "100", "--mechanism", mech,
                     "--epsilon", "50", "--seed", "1", "--json"]) == 0
        out = _json(capsys)
        row = out["private"]["row"]
        assert out["epsilon_spent"] == 50 and out["public"]["mechanism"] == mech and 0 <= row < 301
        assert "NOT_PRIVATE" not in out and "value" not in out["private"]   # a label, never the row's value
        assert abs(vals[row] - med) <= 15   # high ε: near the median
    # same seed → same output
    main(["dampening", "median", str(p), "--column", "val", "--upper", "100", "--seed", "3", "--json"]); a = _json(capsys)
    main(["dampening", "median", str(p), "--column", "val", "--upper", "100", "--seed", "3", "--json"]); b = _json(capsys)
    assert a == b
    for sub, extra, truth in (("median", [], med), ("percentile", ["--p", "0.9"], None)):  # the truth beside the selection
        assert main(["dampening", sub, str(p), "--column", "val", "--upper", "100", "--seed", "3", "--json",
                     "--show-exact", *extra]) == 0
        ex = _json(capsys)["NOT_PRIVATE"]
        truth = ex["true_median"] if truth is not None else ex["true_percentile"]
        assert "abs_error" not in ex and (sub != "median" or truth == med)  # the release computes no error
    assert main(["dampening", "median", str(p), "--column", "nope", "--upper", "100"]) == 2
    assert "not in" in capsys.readouterr().err
    assert main(["dampening", "median", str(p), "--column", "val", "--upper", "100", "--epsilon", "-1"]) == 2


def test_cli_topk_edge_list(tmp_path, capsys):
    H = nx.powerlaw_cluster_graph(300, 3, 0.3, seed=4)
    H = nx.relabel_nodes(H, {v: 1000 + 7 * v for v in H})   # non-dense ids are reported as given
    p = tmp_path / "g.txt"
    p.write_text("# test\n" + "\n".join(f"{u}\t{v}" for u, v in H.edges))
    assert main(["dampening", "topk", str(p), "--k", "3", "--epsilon", "1e4", "--mechanism", "SLD", "--seed", "0", "--json"]) == 0
    out = _json(capsys)
    g, labels = from_networkx(H)
    truth = {labels[v] for v in E.true_top_k(E.ebc_all(g), 3)}
    nodes = out["private"]["nodes"]
    assert out["epsilon_spent"] == 1e4 and len(nodes) == 3 and set(nodes) <= set(H.nodes)
    assert len(truth & set(nodes)) >= 2
    nodes_file = tmp_path / "nodes.txt"
    nodes_file.write_text("\n".join(str(v) for v in sorted(H.nodes)))
    release = ["dampening", "topk", str(p), "--nodes", str(nodes_file), "--max-degree-bound", "50"]
    assert main(release + ["--k", "2", "--mechanism", "PF", "--epsilon", "1", "--json"]) == 0  # release back-end
    out = _json(capsys)
    assert len(out["private"]["nodes"]) == 2 and out["noise"].startswith("OpenDP")
    assert out["public_derived_from_data"] == [] and out["public"]["stability"] == 3
    # a release takes the node set and the degree bound from flags, refused up front (same message for any graph)
    assert main(["dampening", "topk", str(p), "--k", "2"]) == 2
    assert "--nodes and --max-degree-bound" in capsys.readouterr().err
    assert main(release + ["--k", "1000"]) == 2
    assert "larger than the number of nodes in --nodes (300)" in capsys.readouterr().err
