"""The full-Deezer benchmark skips cleanly, with a message and no rows, when the real data is absent."""

import importlib.util
from pathlib import Path


def test_deezer_full_bench_skips_without_real_data(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DPWB_DATA", str(tmp_path))  # exists, but holds no Deezer files
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_r2t_deezer_full.py"
    spec = importlib.util.spec_from_file_location("bench_r2t_deezer_full", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.run() == []
    assert "skipped" in capsys.readouterr().out
