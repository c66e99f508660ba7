"""Noise back-ends behind one interface.

* :class:`NumpyBackend` — seeded ``numpy.random.Generator``. For research, tests,
  papermill runs and fast sweeps. **Seeded noise is not a private release**: anyone
  with the seed can subtract the noise, and float sampling is open to Mironov's
  least-significant-bit attack.
* :class:`OpenDPBackend` — OpenDP's samplers (unseeded, OS entropy; Laplace and
  selection noise are sampled exactly on a discretised grid, so they are
  floating-point safe). Use this for an actual release.

Mechanisms accept ``rng`` as a ``Generator``, an int seed (research: seeded numpy), ``None`` (a release:
the OpenDP back-end) or a back-end instance; :func:`check_rng` (alias :func:`resolve_backend`) turns any of those into a back-end;
:data:`RngLike` is their type.
"""

from __future__ import annotations

import inspect
import secrets
from functools import lru_cache
from typing import Any, Protocol, Sequence, TypeAlias, runtime_checkable

import numpy as np


@runtime_checkable
class NoiseBackend(Protocol):
    """What a mechanism may ask of its randomness source."""

    name: str
    seeded: bool

    def laplace(self, scale: float, size: int | tuple[int, ...] | None = None) -> Any:
        """Centred Laplace noise with the given scale."""

    def discrete_laplace(self, scale: float, size: int | tuple[int, ...] | None = None) -> Any:
        """Two-sided geometric noise: P(k) ∝ exp(-|k|/scale) on the integers."""

    def add_laplace(self, value: Any, scale: Any) -> Any:
        """value + Lap(scale), element-wise; ``scale`` may be an array of the value's shape.

        This is the only way a release adds continuous noise: a floating-point-safe back-end samples the
        noisy value itself (OpenDP), never a unit sample multiplied and added in numpy."""

    def add_discrete_laplace(self, value: Any, scale: float) -> Any:
        """Integer value + two-sided geometric noise of the given scale, element-wise."""

    def gumbel_argmax(self, logits: np.ndarray) -> int:
        """Index of max(logits + Gumbel(0,1)): an exact softmax(logits) sample."""

    def gumbel_top_k(self, logits: np.ndarray, k: int) -> np.ndarray:
        """Indices of the k largest logits + Gumbel(0,1), best first."""

    def exponential_argmax(self, logits: np.ndarray) -> int:
        """Index of max(logits + Exponential(1)): permute-and-flip's law."""

    @property
    def generator(self) -> np.random.Generator:
        """A numpy generator for discrete, non-noise draws (permutations, uniform choices)."""


_EXPJ_MIN_SIZE = 4096


class NumpyBackend:
    """Seeded numpy back-end (research mode; not a private release)."""

    name = "numpy"

    def __init__(self, rng: np.random.Generator | int | None = None):
        if isinstance(rng, np.random.Generator):
            self._rng = rng
            self.seeded = True
        else:
            self._rng = np.random.default_rng(rng)
            self.seeded = rng is not None

    @property
    def generator(self) -> np.random.Generator:
        return self._rng

    def laplace(self, scale: float, size=None):
        return self._rng.laplace(0.0, scale, size)

    def discrete_laplace(self, scale: float, size=None):
        # Difference of two iid geometric variables on {0,1,...} with success 1-α,
        # α = exp(-1/scale), is two-sided geometric with P(k) ∝ α^|k|.
        alpha = np.exp(-1.0 / scale)
        p = -np.expm1(-1.0 / scale)  # 1 - α, accurate for large scale
        if p <= 0.0:
            raise ValueError(f"discrete Laplace scale {scale!r} too large for float64")
        g1 = self._rng.geometric(p, size) - 1
        g2 = self._rng.geometric(p, size) - 1
        del alpha
        return np.asarray(g1 - g2, dtype=np.int64) if size is not None else int(g1 - g2)

    def add_laplace(self, value, scale):
        arr = np.asarray(value, dtype=float)
        if arr.ndim == 0 and np.ndim(scale) == 0:
            return float(arr) + float(self._rng.laplace(0.0, float(scale)))
        return arr + self._rng.laplace(0.0, scale, np.broadcast(arr, scale).shape)

    def add_discrete_laplace(self, value, scale: float):
        arr = np.asarray(value)
        if arr.ndim == 0:
            return int(arr) + int(self.discrete_laplace(scale))
        return arr.astype(np.int64) + self.discrete_laplace(scale, arr.shape)

    def gumbel_argmax(self, logits: np.ndarray) -> int:
        logits = np.ascontiguousarray(logits, dtype=float).ravel()
        if logits.size >= _EXPJ_MIN_SIZE:
            # Same law as Gumbel-max with O(log n) random draws (see _kernels).
            from ._kernels import softmax_sample_expj

            return int(softmax_sample_expj(logits, self._rng))
        return int(np.argmax(logits + self._rng.gumbel(size=logits.shape)))

    def gumbel_top_k(self, logits: np.ndarray, k: int) -> np.ndarray:
        logits = np.asarray(logits, dtype=float)
        keys = logits + self._rng.gumbel(size=logits.shape)
        return _top_k_indices(keys, k)

    def exponential_argmax(self, logits: np.ndarray) -> int:
        logits = np.asarray(logits, dtype=float)
        return int(np.argmax(logits + self._rng.exponential(size=logits.shape)))


def _top_k_indices(keys: np.ndarray, k: int) -> np.ndarray:
    if k >= keys.size:
        return np.argsort(-keys, kind="stable")
    part = np.argpartition(-keys, k - 1)[:k]
    return part[np.argsort(-keys[part], kind="stable")]


@lru_cache(maxsize=None)
def _opendp():
    import opendp.prelude as dp

    dp.enable_features("contrib")
    return dp


class OpenDPBackend:
    """Release back-end on OpenDP's samplers (unseeded, floating-point safe).

    Continuous noise and selection use OpenDP measurements run on zero vectors /
    the given scores, so the noise is the library's exact discretised sampler.
    Discrete helper draws (permutations) use a numpy generator seeded from the OS
    CSPRNG; they carry no floating-point vulnerability.
    """

    name = "opendp"
    seeded = False

    def __init__(self) -> None:
        self._rng = np.random.default_rng(secrets.randbits(128))

    @property
    def generator(self) -> np.random.Generator:
        return self._rng

    @staticmethod
    def _shape(size) -> tuple[int, ...]:
        if size is None:
            return ()
        return (size,) if isinstance(size, (int, np.integer)) else tuple(size)

    def laplace(self, scale: float, size=None):
        dp = _opendp()
        shape = self._shape(size)
        n = int(np.prod(shape)) if shape else 1
        meas = dp.m.make_laplace(
            dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l1_distance(T=float), scale=float(scale)
        )
        out = np.asarray(meas([0.0] * n), dtype=float)
        return out.reshape(shape) if shape else float(out[0])

    def discrete_laplace(self, scale: float, size=None):
        shape = self._shape(size)
        n = int(np.prod(shape)) if shape else 1
        out = self._discrete(np.zeros(n, dtype=np.int64), float(scale))
        return out.reshape(shape) if shape else int(out[0])

    @staticmethod
    def _discrete(values: np.ndarray, scale: float) -> np.ndarray:
        dp = _opendp()
        meas = dp.m.make_laplace(
            dp.vector_domain(dp.atom_domain(T="i64")), dp.l1_distance(T="i64"), scale=float(scale)
        )
        return np.asarray(meas([int(v) for v in values.ravel()]), dtype=np.int64)

    def add_laplace(self, value, scale):
        # OpenDP adds the noise to the value itself on its discretised grid: the output support does not
        # depend on the input (no Mironov holes). A per-element scale is served one scale at a time.
        dp = _opendp()
        arr = np.asarray(value, dtype=float)
        if not np.all(np.isfinite(arr)):
            raise ValueError("value contains NaN or inf: nothing can be released")
        scales = np.broadcast_to(np.asarray(scale, dtype=float), arr.shape) if arr.ndim else np.asarray(scale, float)
        flat, sflat = arr.ravel(), np.asarray(scales, dtype=float).ravel()
        out = np.empty(flat.size, dtype=float)
        for sc in np.unique(sflat):
            idx = np.flatnonzero(sflat == sc)
            meas = dp.m.make_laplace(
                dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l1_distance(T=float), scale=float(sc)
            )
            out[idx] = np.asarray(meas(flat[idx].tolist()), dtype=float)
        return float(out[0]) if arr.ndim == 0 else out.reshape(arr.shape)

    def add_discrete_laplace(self, value, scale: float):
        arr = np.asarray(value)
        if arr.size and not np.all(np.asarray(arr) == np.round(np.asarray(arr, dtype=float))):
            raise ValueError("add_discrete_laplace needs integer values")
        out = self._discrete(arr.astype(np.int64).ravel(), float(scale))
        return int(out[0]) if arr.ndim == 0 else out.reshape(arr.shape)

    def gumbel_argmax(self, logits: np.ndarray) -> int:
        # OpenDP draws Gumbel noise in make_noisy_max under zero-concentrated
        # divergence (exponential noise under max divergence). Only the noise law is
        # used here; the ε accounting is ours. NB: the deprecated
        # make_report_noisy_max_gumbel of OpenDP 0.16 draws *exponential* noise
        # (permute-and-flip's law), which a chi-square test in tests/foundation caught.
        return _opendp_noisy_max(logits, gumbel=True)

    def gumbel_top_k(self, logits: np.ndarray, k: int) -> np.ndarray:
        # Sequential Gumbel draws without replacement equal Gumbel-top-k in law.
        logits = np.asarray(logits, dtype=float)
        remaining = np.arange(logits.size)
        chosen: list[int] = []
        for _ in range(min(k, logits.size)):
            j = self.gumbel_argmax(logits[remaining])
            chosen.append(int(remaining[j]))
            remaining = np.delete(remaining, j)
        return np.asarray(chosen, dtype=np.int64)

    def exponential_argmax(self, logits: np.ndarray) -> int:
        return _opendp_noisy_max(logits, gumbel=False)


def _opendp_noisy_max(logits: np.ndarray, *, gumbel: bool) -> int:
    """argmax of logits + unit-scale noise drawn by OpenDP's make_noisy_max: Gumbel noise under zero-concentrated
    divergence (``gumbel``), exponential noise under max divergence. Logits are shifted to max 0 first."""
    dp = _opendp()
    logits = np.asarray(logits, dtype=float)
    shift = logits - logits.max()
    meas = dp.m.make_noisy_max(
        dp.vector_domain(dp.atom_domain(T=float, nan=False)),
        dp.linf_distance(T=float),
        dp.zero_concentrated_divergence() if gumbel else dp.max_divergence(),
        scale=1.0,
    )
    return int(meas(shift.tolist()))


def release_backend() -> OpenDPBackend:
    """An unseeded, floating-point-safe back-end for real releases."""
    return OpenDPBackend()


def cli_backend(seed: int | None) -> "NoiseBackend":
    """The back-end of a CLI run: ``--seed`` gives a seeded numpy back-end (research, tests, figures: NOT a
    private release); no seed is a release and uses the floating-point-safe OpenDP back-end."""
    return release_backend() if seed is None else NumpyBackend(int(seed))


def noise_label(backend: "RngLike") -> str:
    """How a run's noise was drawn, for output next to every release."""
    b = check_rng(backend)
    if b.name == "opendp":
        return "OpenDP floating-point-safe samplers, OS entropy (release)"
    return "seeded numpy (research/test run: NOT a private release)" if b.seeded else "unseeded numpy"


RngLike: TypeAlias = "np.random.Generator | int | np.integer | None | NoiseBackend"
"""What every randomised function accepts as ``rng``: a ``numpy.random.Generator`` or an int seed (seeded numpy:
research, tests, figures; NOT a private release), ``None`` (a release on the floating-point-safe OpenDP back-end)
or a back-end instance (used as is). :func:`check_rng` turns it into a back-end."""

_BACKEND_MEMBERS = ("name", "seeded", "laplace", "discrete_laplace", "add_laplace", "add_discrete_laplace",
                    "gumbel_argmax", "gumbel_top_k", "exponential_argmax", "generator")


def _is_backend(obj: Any) -> bool:
    """Structural check against :class:`NoiseBackend` without evaluating properties (a scripted back-end may
    refuse ``generator`` access; ``isinstance(obj, NoiseBackend)`` would call it)."""
    return all(_has_static(obj, m) for m in _BACKEND_MEMBERS)


def _has_static(obj: Any, member: str) -> bool:
    try:
        inspect.getattr_static(obj, member)
    except AttributeError:
        return False
    return True


def check_rng(rng: RngLike = None) -> NoiseBackend:
    """The one place a public entry point turns ``rng`` into a noise back-end.

    * a back-end (``NumpyBackend``, ``OpenDPBackend``, or any object with the :class:`NoiseBackend` members, e.g.
      the r2t worked examples' ``ScriptedNoise``) is returned unchanged;
    * ``None`` → :func:`release_backend` (no seed and no generator: a release, so the floating-point-safe sampler;
      unseeded numpy would be neither reproducible nor safe);
    * a ``numpy.random.Generator`` → a ``NumpyBackend`` drawing from that very generator (its stream continues);
    * an int seed → a ``NumpyBackend`` on ``numpy.random.default_rng(seed)``.
    """
    if isinstance(rng, (NumpyBackend, OpenDPBackend)):
        return rng
    if rng is None:
        return release_backend()
    if isinstance(rng, (np.random.Generator, int, np.integer)):
        return NumpyBackend(rng if not isinstance(rng, np.integer) else int(rng))
    if _is_backend(rng):
        return rng
    raise ValueError(
        f"rng must be a numpy.random.Generator, an int seed, None or a NoiseBackend, got {type(rng).__name__}"
    )


def as_generator(rng: Any = None, seed: Any = None) -> np.random.Generator:
    """Turn ``rng`` / ``seed`` into a :class:`numpy.random.Generator` for randomness that is *not* DP noise
    (data generators, error injection, permutations, audits); noise is drawn through a back-end
    (:func:`dpworkbench.mechanisms.check_rng`).

    The one randomness contract holds here too: ``None`` (neither given) is the release back-end's generator
    (seeded from the OS CSPRNG); a seed or Generator is research. Seeded noise is not a private release.
    """
    if rng is not None and seed is not None:
        raise ValueError("pass either rng or seed, not both")
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is not None:
        if isinstance(rng, (int, np.integer)):
            return np.random.default_rng(int(rng))
        raise ValueError(f"rng must be a numpy.random.Generator or an int seed, got {type(rng).__name__}")
    if seed is None:
        return release_backend().generator
    return np.random.default_rng(seed)


resolve_backend = check_rng  # the earlier name, kept as an alias


__all__: Sequence[str] = [
    "NoiseBackend",
    "as_generator",
    "NumpyBackend",
    "RngLike",
    "check_rng",
    "OpenDPBackend",
    "cli_backend",
    "noise_label",
    "release_backend",
    "resolve_backend",
]
