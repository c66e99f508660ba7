"""Shared fixtures. Tests write results/reports into a temporary directory, never the repo."""

from __future__ import annotations

import os

import numpy as np
import pytest


@pytest.fixture(autouse=True, scope="session")
def _isolated_outputs(tmp_path_factory):
    base = tmp_path_factory.mktemp("dpwb")
    os.environ.setdefault("DPWB_RESULTS", str(base / "results"))
    os.environ.setdefault("DPWB_REPORTS", str(base / "reports"))
    os.environ.setdefault("DPWB_NO_PNG", "1")
    yield


@pytest.fixture
def rng():
    return np.random.default_rng(20261122)
