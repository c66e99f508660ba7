"""Engine core: target resolution, Java detection, one-line errors (no JVM stack trace)."""

from __future__ import annotations

import pytest

from dpworkbench.spark import SparkUnavailable, find_java, resolve_target
from dpworkbench.spark.session import _java_major


def test_target_order(monkeypatch):
    for v in ("SPARK_REMOTE", "SPARK_MASTER", "MASTER"):
        monkeypatch.delenv(v, raising=False)
    assert resolve_target().url == "local[*]" and resolve_target().source == "default"
    monkeypatch.setenv("SPARK_MASTER", "spark://h:7077")
    assert resolve_target().url == "spark://h:7077" and resolve_target().source == "SPARK_MASTER"
    monkeypatch.setenv("SPARK_REMOTE", "sc://h:15002")
    assert resolve_target().kind == "remote"
    assert resolve_target(master="local[2]").url == "local[2]"  # the argument wins over the environment


@pytest.mark.parametrize("url", ["bogus://x", "local[two]", "spark//h", ""])
def test_bad_master_one_line(url, monkeypatch):
    for v in ("SPARK_REMOTE", "SPARK_MASTER", "MASTER"):
        monkeypatch.delenv(v, raising=False)
    if not url:
        monkeypatch.setenv("SPARK_MASTER", "nonsense")
    with pytest.raises(SparkUnavailable) as e:
        resolve_target(master=url or None)
    msg = str(e.value)
    assert "\n" not in msg and ("master URL" in msg)
    if not url:
        assert "SPARK_MASTER" in msg


def test_both_targets_refused():
    with pytest.raises(SparkUnavailable, match="not both"):
        resolve_target(master="local[1]", remote="sc://h:1")


def test_java_version_parsing():
    assert _java_major('openjdk version "17.0.15" 2025-04-15') == 17
    assert _java_major('java version "1.8.0_392"') == 8
    assert _java_major('openjdk version "21" 2023-09-19') == 21


def test_missing_java_named(monkeypatch, tmp_path):
    monkeypatch.setenv("JAVA_HOME", str(tmp_path))
    with pytest.raises(SparkUnavailable, match="JAVA_HOME=.*no bin/java"):
        find_java()
    monkeypatch.delenv("JAVA_HOME")
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(SparkUnavailable, match="no 'java' was found"):
        find_java()


def test_old_java_refused(monkeypatch, tmp_path):
    java = tmp_path / "bin" / "java"
    java.parent.mkdir()
    java.write_text('#!/bin/sh\necho \'java version "1.8.0_392"\' >&2\n')
    java.chmod(0o755)
    monkeypatch.setenv("JAVA_HOME", str(tmp_path))
    with pytest.raises(SparkUnavailable, match="Java 8"):
        find_java()


def test_session_runs_sql(spark):
    assert spark.sql("SELECT 1 + 1 AS x").collect()[0].x == 2
