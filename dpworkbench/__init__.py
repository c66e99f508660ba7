"""dpworkbench: a Jupyter-centric research workbench for differential privacy.

Seeded noise (any function given ``rng`` or ``seed``) is for research, tests and
reproducible notebooks; it is **not** a private release. For a release use the
OpenDP back-end (:func:`dpworkbench.mechanisms.release_backend`), which is unseeded
and floating-point safe.
"""

__version__ = "0.1.0"
