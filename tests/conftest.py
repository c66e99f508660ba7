"""Shared fixtures. Tests write results/reports into a temporary directory, never the repo."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

# Test-only helper modules (claims_flip.py) sit beside this file; importlib mode does not put it on sys.path.
sys.path.insert(0, str(Path(__file__).resolve().parent))


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
