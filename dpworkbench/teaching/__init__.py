"""Teaching views for the shared core: seeded experiments and figures behind the ``learn_`` notebooks.

A presentation layer (it uses :mod:`dpworkbench.plots` and :mod:`dpworkbench.experiments`), kept out of the
core so that ``mechanisms``, ``accounting``, ``testing``, ``graphs`` and ``datasets`` import no presentation
module (checked by import-linter, ``[tool.importlinter]`` in pyproject.toml). Each paper keeps its own teaching
views in ``dpworkbench/<paper>/teaching.py``.

* :mod:`dpworkbench.teaching.mechanisms` — Laplace and composition, randomized response, EM / PF / RNM, SVT.
* :mod:`dpworkbench.teaching.epsilon_needed` — "how much ε do I need for ±x %?": the inverse of a release's
  error bar (:class:`~dpworkbench.mechanisms.declaration.Accuracy`), with the learn notebooks' planning panel.
"""
