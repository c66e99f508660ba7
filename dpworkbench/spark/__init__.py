"""Apache Spark as a second engine (issue 14): the same pipelines, the same outputs, on a cluster or out of core.

``session`` starts or reaches Spark (``local[*]``, ``--spark-master``, ``--spark-remote`` or ``SPARK_*``), checks
Java, caps memory and turns JVM failures into one-line :class:`SparkUnavailable` errors. ``frames`` moves tables
between pandas and Spark. The paper-specific Spark pipelines live in each paper's ``spark_engine`` module.
Importing this package does not import pyspark or start a JVM.
"""

from .session import (MIN_JAVA, JavaInfo, SparkTarget, SparkUnavailable, add_spark_arguments, default_conf, find_java,
                      get_session, resolve_target, session_from_args, session_or, spark_errors, stop_sessions)
from .frames import ENGINES, to_pandas, to_spark

__all__ = ["ENGINES", "MIN_JAVA", "JavaInfo", "SparkTarget", "SparkUnavailable", "add_spark_arguments",
           "default_conf", "session_from_args",
           "find_java", "get_session", "resolve_target", "session_or", "spark_errors", "stop_sessions", "to_pandas",
           "to_spark"]
