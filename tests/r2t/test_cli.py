"""`dpworkbench r2t sql|graph`: auto-discovered subcommand, JSON output, ε ledger, bad input."""

from __future__ import annotations

import json

import pytest

from dpworkbench.cli import main


@pytest.fixture()
def files(tmp_path):
    (tmp_path / "g.txt").write_text("# toy\n0\t1\n1\t2\n2\t0\n2\t3\n3\t0\n")
    (tmp_path / "cust.csv").write_text("id,name\n1,a\n2,b\n3,c\n")
    (tmp_path / "orders.csv").write_text("oid,cid,price\n1,1,5\n2,1,7\n3,2,1\n4,3,2\n5,3,2\n")
    return tmp_path


def _json(capsys):
    return json.loads(capsys.readouterr().out)


def test_graph_triangle_json(files, capsys):
    assert main(["r2t", "graph", str(files / "g.txt"), "--query", "triangle", "--max-degree", "4",
                 "--epsilon", "0.5", "--seed", "3", "--json", "--show-exact"]) == 0
    out = _json(capsys)
    assert out["NOT_PRIVATE"]["answer"] == 2.0 and out["NOT_PRIVATE"]["DS"] == 2.0
    assert out["public"]["GS_Q"] == 16.0 and out["public"]["taus"] == [2.0, 4.0, 8.0, 16.0]
    assert out["NOT_PRIVATE"]["join_results"] == 2
    assert sum(e["epsilon"] for e in out["ledger"]) == pytest.approx(0.5) == out["epsilon_spent"]
    assert out["private"]["estimate"] >= 0.0


def test_graph_seed_reproducible_and_base(files, capsys):
    args = ["r2t", "graph", str(files / "g.txt"), "--gs", "100", "--base", "5.5", "--seed", "7", "--json", "--prune", "false",
            "--show-exact"]
    main(args)
    a = _json(capsys)
    main(args)
    b = _json(capsys)
    assert a["private"] == b["private"] and a["NOT_PRIVATE"]["solved"] == len(a["public"]["taus"]) == 3


def test_sql_sum_on_csv_and_parquet(files, capsys):
    import pandas as pd

    pd.read_csv(files / "orders.csv").to_parquet(files / "orders.parquet")
    (files / "s.sql").write_text("CREATE TABLE cust(id INT PRIMARY KEY, name TEXT);\n"
                                 "CREATE TABLE orders(oid INT PRIMARY KEY, cid INT REFERENCES cust(id), price DOUBLE);\n")
    # without a schema every CSV column is text (header-only rule): the query casts; with --schema the DDL types it
    for q, schema in (("SELECT SUM(CAST(o.price AS DOUBLE)) FROM cust c, orders o WHERE c.id=CAST(o.cid AS VARCHAR)", []),
                      ("SELECT SUM(o.price) FROM cust c, orders o WHERE c.id=o.cid", ["--schema", str(files / "s.sql")])):
        for orders in ("orders.csv", "orders.parquet"):
            assert main(["r2t", "sql", q, "--table", f"cust={files / 'cust.csv'}", "--table", f"orders={files / orders}",
                         "--private", "c:id", "--gs", "100", "--seed", "1", "--json", "--show-exact", *schema]) == 0
            out = _json(capsys)
            assert out["NOT_PRIVATE"]["answer"] == 17.0 and out["NOT_PRIVATE"]["DS"] == 12.0
            assert out["public"]["query"] == "SQL (sum)" and out["public"]["primary private"] == "c:id"


def test_text_output(files, capsys):
    assert main(["r2t", "graph", str(files / "g.txt"), "--max-degree", "3", "--seed", "0"]) == 0
    text = capsys.readouterr().out
    assert "estimate (seeded research value, not a release)" in text and "(private)" not in text and "NOT PRIVATE" not in text and "seeded numpy" in text
    assert main(["r2t", "graph", str(files / "g.txt"), "--max-degree", "3", "--seed", "0", "--show-exact"]) == 0
    assert "NOT PRIVATE answer" in capsys.readouterr().out


@pytest.mark.parametrize("argv, msg", [
    (["r2t", "graph", "{g}"], "--max-degree"),
    (["r2t", "graph", "{g}", "--gs", "10", "--query", "star"], "--query"),
    (["r2t", "graph", "{g}", "--gs", "10", "--epsilon", "0"], "--epsilon"),
    (["r2t", "graph", "{g}", "--gs", "10", "--beta", "1.5"], "--beta"),
    (["r2t", "graph", "{g}", "--gs", "10", "--base", "1"], "--base"),
    (["r2t", "graph", "{d}/missing.txt", "--gs", "10"], "not found"),
    (["r2t", "sql", "SELECT COUNT(*) FROM cust c", "--table", "cust={d}/cust.csv", "--private", "x:id", "--gs", "9"], "'x'"),
    (["r2t", "sql", "SELECT COUNT(*) FROM cust c", "--table", "cust={d}/cust.csv", "--private", "c:nope", "--gs", "9"], "DuckDB"),
    (["r2t", "sql", "SELECT COUNT(*) FROM cust c", "--table", "cust={d}/cust.csv", "--private", "c:id"], "--gs"),
    (["r2t", "sql", "SELECT COUNT(*) FROM cust c", "--table", "cust={d}/none.csv", "--private", "c:id", "--gs", "9"], "--table"),
    (["r2t", "sql", "SELECT COUNT(*) FROM cust c", "--table", "cust={d}/cust.csv", "--private", "c", "--gs", "9"], "--private"),
])
def test_bad_input_is_a_clear_error(files, capsys, argv, msg):
    argv = [a.format(g=files / "g.txt", d=files) for a in argv]
    assert main(argv) == 2
    assert msg in capsys.readouterr().err


def test_prune_and_early_stop_flags_come_from_the_declaration(files, capsys):
    """--prune/--early-stop are R2T's declared bool parameters (one flag each, the declaration's help and check): every
    combination gives the same seeded release, solving every τ only when both are off, and a bad value is one line."""
    base = ["r2t", "graph", str(files / "g.txt"), "--gs", "100", "--seed", "7", "--json", "--show-exact"]
    outs = {}
    for prune in ("true", "false"):
        for stop in ("true", "false"):
            main([*base, "--prune", prune, "--early-stop", stop])
            outs[prune, stop] = _json(capsys)
    assert len({json.dumps(o["private"], sort_keys=True) for o in outs.values()}) == 1
    assert outs["false", "false"]["NOT_PRIVATE"]["solved"] == len(outs["false", "false"]["public"]["taus"])
    assert main([*base, "--prune", "maybe"]) == 2
    err = capsys.readouterr().err
    assert "--prune" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
