"""One place that starts (or reaches) Spark, finds Java, and turns JVM failures into one clear line.

Where Spark runs is chosen, in this order, by the explicit ``master`` / ``remote`` argument (the CLI's
``--spark-master`` / ``--spark-remote``), then the usual environment (``SPARK_REMOTE`` for Spark Connect,
``SPARK_MASTER`` or ``MASTER`` for a classic master URL), then ``local[*]`` on this machine. The same code runs on
a laptop and on a cluster: only the URL changes.

Java: pyspark 4 needs a Java 17 or 21 runtime. ``JAVA_HOME`` wins when set; otherwise ``java`` on ``PATH``.
A missing or too old Java raises :class:`SparkUnavailable` naming what is missing and how to get it (the
Makefile's install step installs Debian's ``openjdk-17-jre-headless`` when it can). Nothing here lets a Py4J/JVM
stack trace reach a user: every failure becomes ``SparkUnavailable`` (a ``ValueError``, which the CLI prints as
one line).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MIN_JAVA = 17  # pyspark 4.x runs on Java 17 and 21

_MASTER_RE = re.compile(r"^(local(\[(\*|\d+)(,\s*\d+)?\])?|local-cluster\[\d+,\s*\d+,\s*\d+\]|spark://[^\s/]+(:\d+)?"
                        r"(,[^\s/]+(:\d+)?)*|yarn|k8s://\S+|mesos://\S+)$")
_REMOTE_RE = re.compile(r"^(sc://[^\s/]+(:\d+)?(/;?\S*)?|local(\[(\*|\d+)\])?)$")

_LOG4J = Path(__file__).with_name("log4j2.properties")
_lock = threading.Lock()
_sessions: dict[tuple, Any] = {}


class SparkUnavailable(ValueError):
    """Spark cannot be used here: no pyspark, no Java ≥ 17, a malformed master URL or an unreachable cluster.

    A ``ValueError`` so the CLI prints its one-line message (no traceback)."""


@dataclass(frozen=True)
class JavaInfo:
    executable: str
    version: int
    text: str


def _java_major(text: str) -> int | None:
    m = re.search(r'version "(\d+)(?:\.(\d+))?', text)
    if not m:
        m = re.search(r"openjdk (\d+)", text)
        if not m:
            return None
    major = int(m.group(1))
    if major == 1 and m.lastindex and m.group(2):  # "1.8.0_x" → 8
        major = int(m.group(2))
    return major


def find_java() -> JavaInfo:
    """The Java runtime Spark would use (``JAVA_HOME/bin/java``, else ``java`` on PATH), checked to be ≥ 17."""
    home = os.environ.get("JAVA_HOME")
    exe = None
    if home:
        cand = Path(home) / "bin" / "java"
        if not cand.exists():
            raise SparkUnavailable(f"JAVA_HOME={home} has no bin/java: point JAVA_HOME at a Java {MIN_JAVA}+ runtime "
                                   "or unset it (Debian: apt-get install openjdk-17-jre-headless)")
        exe = str(cand)
    else:
        exe = shutil.which("java")
    if exe is None:
        raise SparkUnavailable(f"Spark needs Java {MIN_JAVA}+ and no 'java' was found on PATH (and JAVA_HOME is unset): "
                               "run `make install` as root, or apt-get install openjdk-17-jre-headless")
    try:
        out = subprocess.run([exe, "-version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SparkUnavailable(f"cannot run {exe} -version: {exc}") from None
    text = (out.stderr or out.stdout).strip()
    major = _java_major(text)
    if major is None:
        raise SparkUnavailable(f"cannot tell the Java version of {exe} (its -version printed {text[:80]!r})")
    if major < MIN_JAVA:
        raise SparkUnavailable(f"Spark 4 needs Java {MIN_JAVA}+, but {exe} is Java {major}: install "
                               "openjdk-17-jre-headless and set JAVA_HOME")
    return JavaInfo(exe, major, text.splitlines()[0] if text else "")


def _require_pyspark():
    try:
        import pyspark  # noqa: F401
    except ImportError:
        raise SparkUnavailable("pyspark is not installed: `make install` (pyproject lists pyspark>=4.0,<5)") from None
    return pyspark


def _require_connect() -> None:
    """Spark Connect's client needs grpc + protobuf (``pip install "pyspark[connect]"``); without them pyspark
    exits the interpreter from inside its import check, so look first."""
    import importlib.util

    missing = [m for m in ("grpc", "google.protobuf", "grpc_status") if importlib.util.find_spec(m.split(".")[0]) is None]
    if missing:
        raise SparkUnavailable(f"--spark-remote needs the Spark Connect client (missing Python modules: "
                               f"{', '.join(missing)}): pip install 'pyspark[connect]>=4.0,<5'")


@dataclass(frozen=True)
class SparkTarget:
    """Where Spark runs: ``kind`` is "master" (classic, incl. local[*]) or "remote" (Spark Connect)."""

    kind: str
    url: str
    source: str  # "argument", "SPARK_REMOTE", "SPARK_MASTER", "MASTER" or "default"


def resolve_target(master: str | None = None, remote: str | None = None) -> SparkTarget:
    """Arguments first, then ``SPARK_REMOTE`` / ``SPARK_MASTER`` / ``MASTER``, then ``local[*]``; URLs validated."""
    if master and remote:
        raise SparkUnavailable("give either --spark-master or --spark-remote, not both")
    if remote:
        target = SparkTarget("remote", remote.strip(), "argument")
    elif master:
        target = SparkTarget("master", master.strip(), "argument")
    elif os.environ.get("SPARK_REMOTE"):
        target = SparkTarget("remote", os.environ["SPARK_REMOTE"].strip(), "SPARK_REMOTE")
    elif os.environ.get("SPARK_MASTER"):
        target = SparkTarget("master", os.environ["SPARK_MASTER"].strip(), "SPARK_MASTER")
    elif os.environ.get("MASTER"):
        target = SparkTarget("master", os.environ["MASTER"].strip(), "MASTER")
    else:
        target = SparkTarget("master", "local[*]", "default")
    where = "--spark-master/--spark-remote" if target.source == "argument" else target.source
    if target.kind == "master" and not _MASTER_RE.match(target.url):
        raise SparkUnavailable(f"{where}: bad Spark master URL {target.url!r}; expected local[*], local[N], "
                               "spark://HOST:PORT, yarn or k8s://URL")
    if target.kind == "remote" and not _REMOTE_RE.match(target.url):
        raise SparkUnavailable(f"{where}: bad Spark Connect URL {target.url!r}; expected sc://HOST:PORT")
    return target


def default_conf(memory: str | None = None, shuffle_partitions: int | None = None,
                 local_dir: str | None = None) -> dict[str, str]:
    """Settings for a quiet, bounded local session: no UI, a memory cap, few shuffle partitions on 2 cores.

    ``memory`` caps the driver JVM (in local mode the driver is the executor), e.g. "8g"; default
    ``DPWB_SPARK_MEMORY`` or "4g". ``shuffle_partitions`` defaults to ``DPWB_SPARK_SHUFFLE_PARTITIONS`` or 8
    (Spark's 200 is tuned for clusters; on 2 cores it is mostly task overhead)."""
    memory = memory or os.environ.get("DPWB_SPARK_MEMORY", "4g")
    if not re.fullmatch(r"\d+[kmgtKMGT]?", memory):
        raise SparkUnavailable(f"bad Spark memory {memory!r}; expected e.g. 4g or 8192m")
    parts = shuffle_partitions or int(os.environ.get("DPWB_SPARK_SHUFFLE_PARTITIONS", "8"))
    conf = {
        "spark.driver.memory": memory,
        "spark.executor.memory": memory,
        "spark.sql.shuffle.partitions": str(parts),
        "spark.default.parallelism": str(parts),
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.session.timeZone": "UTC",
        "spark.sql.ansi.enabled": "false",  # Spark 4 default is ANSI; our SQL is DuckDB-compatible, non-ANSI casts
        "spark.sql.execution.arrow.pyspark.enabled": "true",
        "spark.driver.extraJavaOptions": f"-Dlog4j2.configurationFile={_LOG4J}",
        "spark.executor.extraJavaOptions": f"-Dlog4j2.configurationFile={_LOG4J}",
        "spark.log.level": "ERROR",
    }
    if local_dir or os.environ.get("DPWB_SPARK_LOCAL_DIR"):
        conf["spark.local.dir"] = local_dir or os.environ["DPWB_SPARK_LOCAL_DIR"]
    return conf


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("at ", "File ", "Traceback", "JVM stacktrace")):
            return line[:300]
    return type(exc).__name__


def get_session(master: str | None = None, remote: str | None = None, *, memory: str | None = None,
                shuffle_partitions: int | None = None, app_name: str = "dpworkbench",
                conf: dict[str, str] | None = None):
    """A SparkSession (cached per target): local[*] by default, a cluster with ``master``, Spark Connect with
    ``remote`` (see module docstring). Raises :class:`SparkUnavailable` with one line on any failure."""
    target = resolve_target(master, remote)
    key = (target.kind, target.url)
    with _lock:
        s = _sessions.get(key)
        if s is not None and _alive(s):
            return s
        _require_pyspark()
        if target.kind == "master" and target.url.startswith("local"):
            find_java()  # a local session starts a JVM here; a remote one needs none
        settings = default_conf(memory, shuffle_partitions)
        settings.update(conf or {})
        from pyspark.sql import SparkSession

        builder = SparkSession.builder.appName(app_name)
        if target.kind == "remote":
            _require_connect()
            builder = builder.remote(target.url)
            settings = {k: v for k, v in settings.items() if k.startswith("spark.sql.")}
        else:
            builder = builder.master(target.url)
            if target.url.startswith("local"):
                # a local session talks to itself only: bind the driver to the loopback interface
                os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
                settings.setdefault("spark.driver.host", "127.0.0.1")
                settings.setdefault("spark.driver.bindAddress", "127.0.0.1")
                # Python workers run this interpreter (the venv with numpy/pandas/opendp), not the system python3
                os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
                settings.setdefault("spark.pyspark.python", sys.executable)
        # pyspark warns about pandas 3 on every conversion; the conversions used here are tested
        warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas", category=FutureWarning)
        for k, v in settings.items():
            builder = builder.config(k, v)
        try:
            s = builder.getOrCreate()
            s.sparkContext.setLogLevel("ERROR") if target.kind == "master" else None
            if target.kind == "remote":
                s.range(1).count()  # Spark Connect is lazy: touch the server now, so 'unreachable' is said here
        except SparkUnavailable:
            raise
        except (Exception, SystemExit) as exc:  # Py4J / gRPC / JVM start failures → one line
            raise SparkUnavailable(f"cannot start Spark ({target.kind} {target.url}, from {target.source}): "
                                   f"{_first_line(exc)}") from None
        _sessions[key] = s
        return s


def _alive(s) -> bool:
    try:
        sc = getattr(s, "_sc", None)
        return sc is None or sc._jsc is not None
    except Exception:
        return False


def stop_sessions() -> None:
    """Stop every session this module started (tests, benchmarks)."""
    with _lock:
        for s in _sessions.values():
            try:
                s.stop()
            except Exception:
                pass
        _sessions.clear()


def session_or(spark=None, **kwargs):
    """``spark`` when a session is given; else the session this process already opened (e.g. the CLI's, from
    ``--spark-master``/``--spark-remote``) when no target is named; else :func:`get_session` with ``kwargs``."""
    if spark is not None:
        return spark
    if not kwargs.get("master") and not kwargs.get("remote"):
        with _lock:
            live = [s for s in _sessions.values() if _alive(s)]
        if live:
            return live[-1]
    return get_session(**kwargs)


def add_spark_arguments(parser) -> None:
    """``--spark-master`` and ``--spark-remote`` for a subcommand that has ``--engine ... spark``."""
    parser.add_argument("--spark-master", default=None, metavar="URL",
                        help="with --engine spark: Spark master URL (local[*], spark://HOST:PORT, yarn, k8s://...); "
                             "default: SPARK_MASTER / MASTER from the environment, else local[*]")
    parser.add_argument("--spark-remote", default=None, metavar="sc://HOST:PORT",
                        help="with --engine spark: a Spark Connect server instead of a master (default: SPARK_REMOTE)")


def session_from_args(args):
    """The session of a CLI run with ``--engine spark`` (one-line SparkUnavailable on any failure); None otherwise.
    Naming a Spark target without ``--engine spark`` is refused (it would silently do nothing)."""
    engine = getattr(args, "engine", None)
    master, remote = getattr(args, "spark_master", None), getattr(args, "spark_remote", None)
    if engine != "spark":
        if master or remote:
            raise ValueError("--spark-master/--spark-remote need --engine spark")
        return None
    return get_session(master, remote)


def spark_errors(fn):
    """Decorator: run ``fn``; a Py4J/Spark analysis or JVM error becomes one-line :class:`SparkUnavailable`."""
    import functools

    @functools.wraps(fn)
    def wrapper(*a, **k):
        try:
            return fn(*a, **k)
        except (ValueError, TypeError, KeyError, MemoryError):
            raise
        except Exception as exc:
            name = type(exc).__module__ or ""
            if "py4j" in name or "pyspark" in name:
                raise SparkUnavailable(f"Spark failed in {fn.__name__}: {_first_line(exc)}") from None
            raise
    return wrapper


__all__ = ["JavaInfo", "MIN_JAVA", "SparkTarget", "SparkUnavailable", "add_spark_arguments", "default_conf", "find_java",
           "get_session", "resolve_target", "session_from_args", "session_or", "spark_errors", "stop_sessions"]
