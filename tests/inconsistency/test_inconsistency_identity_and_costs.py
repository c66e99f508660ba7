"""Tuple identity behind the stable order (issue 11, finding 1) and the privacy_cost plans (Release ledgers)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpworkbench.accounting import check_ledger_matches
from dpworkbench.inconsistency import FD, build, dp_vertex_cover, dp_vertex_cover_cost, from_edges
from dpworkbench.inconsistency import conflict_graph as CG
from dpworkbench.inconsistency.model import node_sequence


def test_id_column_must_be_a_key_and_present():
    df = pd.DataFrame({"id": [1, 2, 2], "A": [0, 0, 0], "B": [0, 1, 2]})
    with pytest.raises(ValueError, match="not a key"):
        build(df, [FD("A", "B")], id_column="id")
    with pytest.raises(ValueError, match="not a column"):
        build(df, [FD("A", "B")], id_column="nope")
    with pytest.raises(ValueError, match="missing"):
        build(df.assign(id=[1, None, 3]), [FD("A", "B")], id_column="id")


def test_identity_ignores_position_and_dtype():
    df = pd.DataFrame({"A": [0, 0, 1], "B": [1.0, 2.0, np.nan], "C": ["x", "y", None]})
    a = CG.tuple_identity(df)
    b = CG.tuple_identity(df.iloc[[2, 0, 1]].reset_index(drop=True))
    assert a.key1.tolist() == b.key1[[1, 2, 0]].tolist()
    ints = CG.tuple_identity(pd.DataFrame({"A": [0, 1], "B": [1, 2]}))
    floats = CG.tuple_identity(pd.DataFrame({"A": [0.0, 1.0], "B": [1.0, 2.0]}))
    assert ints.key1.tolist() == floats.key1.tolist()  # a CSV re-read that changes int ↔ float keeps identities


def test_identical_rows_tie_by_occurrence_and_collisions_by_content(monkeypatch):
    df = pd.DataFrame({"A": [5, 5, 7, 5], "B": [1, 1, 2, 1]})
    ident = CG.tuple_identity(df)
    assert ident.occ.tolist() == [0, 1, 0, 2] and not ident.tie.any()
    monkeypatch.setattr(CG, "_row_hashes", lambda canon: (np.zeros(len(canon), np.uint64),) * 2)
    ident = CG.tuple_identity(df)  # every row collides: different contents are ordered by content
    assert ident.tie.tolist() == [0, 0, 1, 0] and ident.occ.tolist() == [0, 1, 0, 2]
    seq = node_sequence(ident)
    assert seq.tolist() == [0, 1, 3, 2]


def test_edge_list_graphs_use_labels():
    g = from_edges(4, [(0, 1), (1, 2)])
    assert g.identity is None
    gt = build(pd.DataFrame({"A": [0, 0], "B": [1, 2]}), [FD("A", "B")])
    assert gt.identity is not None and gt.identity.source == "content"
    assert gt.union_of_first(1).identity is gt.identity


@pytest.mark.parametrize("noise", ["paper", "typo"])
def test_dp_vertex_cover_ledger_matches_its_plan(noise):
    g = build(pd.DataFrame({"A": [0] * 5, "B": range(5)}), [FD("A", "B")])
    rel = dp_vertex_cover(g, 0.7, rng=1, noise=noise)
    check_ledger_matches(dp_vertex_cover_cost(0.7), rel.ledger)
    assert rel.private == (noise == "paper")
    assert rel.value >= 0 and rel.public["n_bound"].startswith("none")
    assert dp_vertex_cover(g, 0.7, rng=1, n_bound=3).value <= 3


def test_cli_run_releases_spends_exactly_epsilon():
    from dpworkbench.inconsistency.cli import run_releases

    df = pd.DataFrame({"A": [0, 0, 0, 1], "B": [0, 1, 2, 0]})
    for n_bound in (None, 10):
        rel, size, _ = run_releases(df, [FD("A", "B")], epsilon=0.9, backend=np.random.default_rng(0), n_bound=n_bound)
        total = sum(r.epsilon for r in rel.values()) + (size.epsilon if size else 0.0)
        assert total == pytest.approx(0.9) and (size is None) == (n_bound is not None)
