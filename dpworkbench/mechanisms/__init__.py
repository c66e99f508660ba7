"""Noise and selection primitives with two back-ends (seeded numpy, OpenDP release)."""

from .backends import NoiseBackend, NumpyBackend, OpenDPBackend, RngLike, check_rng, release_backend, resolve_backend
from .core import *  # noqa: F401,F403
from .core import __all__ as _core_all

__all__ = ["NoiseBackend", "NumpyBackend", "OpenDPBackend", "RngLike", "check_rng", "release_backend", "resolve_backend", *_core_all]
