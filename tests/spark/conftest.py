"""One local SparkSession for every Spark test (JVM start-up is the expensive part): 2 shuffle partitions,
UI off, quiet log4j, 2 GB cap. Every test in this folder is marked ``spark`` (``pytest -m spark`` runs them alone);
they are skipped with the reason when Java 17+ or pyspark is missing."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/spark/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.spark)


@pytest.fixture(scope="session")
def spark():
    from dpworkbench.spark import SparkUnavailable, get_session, stop_sessions

    try:
        s = get_session("local[2]", memory="2g", shuffle_partitions=2)
    except SparkUnavailable as exc:
        pytest.skip(f"Spark unavailable: {exc}")
    yield s
    stop_sessions()
