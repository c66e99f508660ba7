"""A noise back-end that draws nothing, for the harness only: it runs a declaration's real release path (the one
whose noise goes through a back-end, partition samplers included) with randomness switched off, so what that path
computed before the noise can be read off its output. No release chooses it (:func:`~dpworkbench.mechanisms.backends.
cli_backend` and ``check_rng(None)`` never do); a caller must pass it by hand."""

from __future__ import annotations

import numpy as np

from ..mechanisms.backends import NumpyBackend


class PreNoiseBackend(NumpyBackend):
    """A draw from its generator is the first outcome (``random`` 1: no record is replaced; ``integers`` 0), and
    Laplace noise added is 0."""

    class _Never:
        @staticmethod
        def random(size=None):
            return np.ones(size)

        @staticmethod
        def integers(lo, hi=None, size=None):
            return np.zeros(size, dtype=np.int64)

    @property
    def generator(self):
        return self._Never()

    def add_laplace(self, value, scale):
        return np.asarray(value, dtype=float)

    def for_partition(self, part: int) -> PreNoiseBackend:
        """Every Spark partition draws nothing either (the instance is pickled to the executors, so the class lives
        at module level)."""
        return self


__all__ = ["PreNoiseBackend"]
