"""One browser test at a time across pytest-xdist workers (``make test`` runs two).

Each browser test starts JupyterLab or Voilà, a kernel and Chromium; two at once on the 2 cores made the widget waits
time out. pytest 9 ignores xdist's ``xdist_group`` (the renamed node id no longer reaches the scheduler), so the
workers take an exclusive lock on a file instead: a second browser test waits for the first to finish."""

from __future__ import annotations

import fcntl
import os
import tempfile
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _one_browser_test_at_a_time():
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        yield
        return
    # one lock per test run: the controller's id is shared by its workers (PYTEST_XDIST_TESTRUNUID)
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "run")
    with open(Path(tempfile.gettempdir()) / f"dpwb-browser-{run}.lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
