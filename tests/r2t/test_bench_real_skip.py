"""The full Enron/GitHub benchmark skips cleanly, with a message and no rows, when the graph files are absent, and
leaves the heavy queries out unless DPWB_BENCH_FULL is set."""

import importlib.util
from pathlib import Path


def _load(monkeypatch, full: bool):
    if full:
        monkeypatch.setenv("DPWB_BENCH_FULL", "1")
    else:
        monkeypatch.delenv("DPWB_BENCH_FULL", raising=False)
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_r2t_real_full.py"
    spec = importlib.util.spec_from_file_location("bench_r2t_real_full", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_real_full_bench_skips_without_data(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DPWB_DATA", str(tmp_path))  # exists, but holds no graph files
    assert _load(monkeypatch, True).run() == []
    out = capsys.readouterr().out
    assert "enron skipped" in out and "github skipped" in out


def test_heavy_rows_need_the_full_switch(tmp_path, monkeypatch, capsys):
    """With a tiny Enron-format file present: Q1-/Q△ run, Q2-/Q□ are left out without DPWB_BENCH_FULL."""
    from dpworkbench.graphs import holme_kim

    g = holme_kim(60, 3, 0.6, seed=1)
    (tmp_path / "graphs").mkdir()
    e = g.edge_array()
    (tmp_path / "graphs" / "email-enron.txt").write_text("".join(f"{a}\t{b}\n{b}\t{a}\n" for a, b in e))
    monkeypatch.setenv("DPWB_DATA", str(tmp_path))
    monkeypatch.setenv("DPWB_BENCH_R2T_GRAPHS", "enron")
    rows = _load(monkeypatch, False).run()
    assert [r["benchmark"] for r in rows] == ["r2t_enron_full_edge", "r2t_enron_full_triangle"]
    assert all(r["value"] > 0 and "peak RSS" in r["note"] for r in rows)
    assert "left out" in capsys.readouterr().out
