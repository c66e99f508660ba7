"""The one cache: keyed by content, invalidated by code, cleared together."""

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from dpworkbench import cache


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("DPWB_CACHE", str(tmp_path))
    cache.clear()
    yield
    cache.clear()


def test_content_keyed_memory_and_disk():
    calls = []

    @cache.cached("test.sum", disk=True)
    def total(df, k):
        calls.append(1)
        return float(df.x.sum() * k)

    df = pd.DataFrame({"x": [1, 2, 3]})
    assert total(df, 2) == 12 and total(df.copy(), 2) == 12 and len(calls) == 1  # same content, one computation
    assert total(df.assign(x=[1, 2, 4]), 2) == 14 and len(calls) == 2  # changed content, recomputed
    cache._MEMORY.clear()
    assert total(df, 2) == 12 and len(calls) == 2  # from disk
    cache.clear("test.sum")
    assert total(df, 2) == 12 and len(calls) == 3


def test_fingerprints_distinguish_content():
    a = np.arange(5)
    assert cache.fingerprint(a) == cache.fingerprint(a.copy())
    assert cache.fingerprint(a) != cache.fingerprint(a.astype(np.int32))
    assert cache.fingerprint(nx.path_graph(3)) == cache.fingerprint(nx.path_graph(3))
    assert cache.fingerprint(nx.path_graph(3)) != cache.fingerprint(nx.cycle_graph(3))
    with pytest.raises(TypeError, match="cannot fingerprint"):
        cache.fingerprint(object())
