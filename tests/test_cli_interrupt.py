"""Ctrl-C during a headless run stops quietly: no traceback, no half-written notebook, exit 130.

The installed CLI runs a notebook that sleeps; SIGINT goes to the whole process group, as a terminal's
Ctrl-C does (the kernel gets it too). An unknown ``-p`` name fails before any kernel starts, naming the
notebook's parameters.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from dpworkbench.experiments.nbtools import new_notebook

pytestmark = pytest.mark.notebook


def _sleepy(tmp_path: Path) -> Path:
    nb = new_notebook([
        ("md", "# Sleepy\nA test notebook."),
        ("params", "profile = 'ci'\ninteractive = True\noutput_dir = ''\nseconds = 60"),
        ("code", "print('started', flush=True)"),
        ("code", "import time\ntime.sleep(seconds)"),
    ])
    path = tmp_path / "nbs" / "mechanisms" / "learn_sleepy.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(nb, str(path))
    return path


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "DPWB_REPORTS": str(tmp_path / "reports"), "DPWB_RESULTS": str(tmp_path / "results"),
            "JUPYTER_RUNTIME_DIR": str(tmp_path / "rt")}


@pytest.mark.timeout(180)
def test_ctrl_c_during_a_run_is_quiet_and_leaves_no_partial_notebook(tmp_path):
    nb = _sleepy(tmp_path)
    out_dir = tmp_path / "reports" / "ci" / "mechanisms" / "learn_sleepy"
    proc = subprocess.Popen([sys.executable, "-m", "dpworkbench", "run", str(nb), "--profile", "ci"], env=_env(tmp_path),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    partial = out_dir / ".learn_sleepy.partial.ipynb"
    while time.monotonic() < deadline and proc.poll() is None:
        # papermill saves the notebook after each cell: once cell 1 ran, the kernel is in the sleep
        if partial.exists() and "started" in partial.read_text(errors="replace"):
            break
        time.sleep(0.3)
    assert proc.poll() is None, f"the run ended before it could be interrupted: {proc.communicate()}"
    time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (proc.returncode, out, err)
    assert "Traceback" not in out + err and "KeyboardInterrupt" not in out + err, err
    assert len((out + err).strip().splitlines()) <= 2, out + err
    assert "stopped" in err
    assert not partial.exists() and not (out_dir / "learn_sleepy.ipynb").exists()


@pytest.mark.timeout(120)
def test_unknown_parameter_fails_naming_the_parameters(tmp_path):
    nb = _sleepy(tmp_path)
    res = subprocess.run([sys.executable, "-m", "dpworkbench", "run", str(nb), "-p", "secondz", "1"], env=_env(tmp_path),
                         capture_output=True, text=True, timeout=100)
    assert res.returncode == 2
    assert "Traceback" not in res.stderr
    assert "'secondz'" in res.stderr and "seconds=60" in res.stderr
    assert not (tmp_path / "reports").exists() or not list((tmp_path / "reports").rglob("*.ipynb"))


def _listening(port: int) -> bool:
    import socket

    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.timeout(180)
def test_sigterm_to_lab_stops_jupyterlab_and_frees_its_port(tmp_path):
    """`kill PID` (SIGTERM to dpworkbench alone, as a service manager sends it) must not leave JupyterLab behind."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "dpworkbench", "lab", "--no-browser", "--port", str(port), "--ip",
                             "127.0.0.1", "--", "--ServerApp.token=", "--ServerApp.password="],
                            env=_env(tmp_path), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not _listening(port):
            assert proc.poll() is None and time.monotonic() < deadline, "JupyterLab did not start"
            time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)  # to dpworkbench only, not its process group
        proc.wait(timeout=60)
        deadline = time.monotonic() + 30
        while _listening(port) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not _listening(port), "JupyterLab still holds the port after SIGTERM to `dpworkbench lab`"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the group: JupyterLab too, if the test failed
        except ProcessLookupError:
            pass
