"""A mechanism declared once: parameters, neighbouring relation, public inputs, cost and noise in one value.

Everything else is derived from a :class:`Mechanism`:

* :meth:`Mechanism.release` validates the parameters (once, from :class:`Param` data), records the cost plan on
  the accountant *before* any draw (an overspend is refused before the data is touched), computes the
  non-private ``statistics``, draws the noise on the back-end chosen by ``rng`` and builds the :class:`Release`;
* :meth:`Mechanism.sample` draws ``size`` independent outputs through the *same* noise code for research sweeps
  (seeded back-ends only: research noise can never reach a release);
* the privacy harness (:mod:`dpworkbench.testing.declared`) brute-forces ``statistics`` over the declared
  relation's neighbours and audits the worst pair at the ε the plan claims;
* the CLI (``dpworkbench release``) builds its flags from the parameters;
* the experiment runner (:func:`dpworkbench.experiments.runner.run_mechanisms`) sweeps ε and repetitions.

Declarations register themselves on creation. :func:`registry` discovers them: every module of each paper's
``mechanisms`` package (or module), and every ``*.py`` file in the folders on ``DPWB_MECHANISMS_PATH`` (a
researcher's own mechanisms, outside the package). The core knows no paper: papers are found on disk
(:mod:`dpworkbench.papers`).

Modelled on OpenDP (a measurement holds its privacy map; the cost can be asked before running), DPComp/Ektelo
(one ``run(x, ε, seed)`` shape) and scikit-learn (constraints as data).
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import os
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from ..accounting import AccountantLike, LedgerEntry, Release, ledger_epsilon, open_ledger, planned
from .backends import RngLike, check_rng

REQUIRED: Any = type("Required", (), {"__repr__": lambda self: "REQUIRED"})()


# ---------------------------------------------------------------------------------------------------------------
# parameters: constraints as data
# ---------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Param:
    """One parameter of a mechanism and its constraint. Every parameter is public (an argument, never read off
    the data). ``kind`` is ``float``, ``int``, ``str`` or ``bool``; ``low``/``high`` bound numbers (``open_low``:
    strictly above ``low``; ``open_high``: strictly below ``high``, e.g. a probability in (0, 1)); ``choices`` lists
    the allowed values."""

    name: str
    kind: type = float
    default: Any = REQUIRED
    help: str = ""
    low: float | None = None
    high: float | None = None
    open_low: bool = False
    choices: tuple[Any, ...] | None = None
    open_high: bool = False

    def check(self, value: Any, label: str | None = None) -> Any:
        """The value, converted to ``kind``, or a one-line ValueError naming the parameter (or ``label``, e.g. its CLI
        flag) and what it allows."""
        name = self.name if label is None else label
        if value is REQUIRED:
            raise ValueError(f"{name} is required")
        if value is None and self.default is None:
            return None
        try:
            if self.kind is bool:
                if isinstance(value, str):
                    if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                        raise ValueError
                    value = value.lower() in ("true", "1", "yes")
                out = bool(value)
            elif isinstance(value, (bool, np.bool_)) and self.kind in (int, float):
                raise ValueError  # a flag where a count or an ε belongs is a mistake, not 1 or 0
            elif self.kind is int:
                f = float(value)
                if not f.is_integer():
                    raise ValueError
                out = int(f)
            elif self.kind is float:
                out = float(value)
                if not math.isfinite(out):
                    raise ValueError
            else:
                out = self.kind(value)
        except (TypeError, ValueError):  # the range too, so one refusal says all that is allowed
            what = f"a finite {self.kind.__name__}" if self.kind in (int, float) else f"a {self.kind.__name__}"
            raise ValueError(f"{name} must be {what}{self._range()}, got {value!r}") from None
        if self.choices is not None and out not in self.choices:
            raise ValueError(f"{name} must be one of {', '.join(map(str, self.choices))}; got {out!r}")
        below = self.low is not None and (out < self.low or (self.open_low and out == self.low))
        if below or (self.high is not None and (out > self.high or (self.open_high and out == self.high))):
            raise ValueError(f"{name} must be{self._range()}, got {out!r}")
        return out

    def _range(self) -> str:
        """`` in (0, 1]``, `` > 0``, `` ≤ 5`` or nothing: the bounds in words (both: the whole interval)."""
        if self.low is not None and self.high is not None:
            return (f" in {'(' if self.open_low else '['}{self.low:g}, {self.high:g}"
                    f"{')' if self.open_high else ']'}")
        if self.low is not None:
            return f" {'>' if self.open_low else '≥'} {self.low:g}"
        return "" if self.high is None else f" {'<' if self.open_high else '≤'} {self.high:g}"

    def describe(self) -> str:
        rule = ""
        if self.choices is not None:
            rule = " ∈ {" + ", ".join(map(str, self.choices)) + "}"
        elif self.low is not None or self.high is not None:
            lo = "" if self.low is None else f"{self.low:g} {'<' if self.open_low else '≤'} "
            hi = "" if self.high is None else f" {'<' if self.open_high else '≤'} {self.high:g}"
            rule = f": {lo}{self.name}{hi}"
        return f"{self.name} ({self.kind.__name__}{rule})"


def EPSILON(default: Any = REQUIRED) -> Param:  # noqa: N802 - a constant-like factory
    """The ε parameter every mechanism has."""
    return Param("epsilon", float, default, "privacy budget ε spent by one release", low=0.0, open_low=True)


# ---------------------------------------------------------------------------------------------------------------
# neighbouring relations: the small set declared in the core
# ---------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Relation:
    """A neighbouring relation at the user's input level. ``key`` is one of :data:`RELATIONS`; ``detail`` says how
    a particular mechanism's input realises it (which table, which node set is public)."""

    key: str
    text: str
    detail: str = ""

    def __call__(self, detail: str) -> "Relation":
        return Relation(self.key, self.text, detail)

    def describe(self) -> str:
        return f"{self.text}; {self.detail}" if self.detail else self.text


ADD_REMOVE_ROW = Relation("add_remove_row", "add or remove one row at any position")
SUBSTITUTE_ROW = Relation("substitute_row", "substitute one row at any position (bounded DP: the row count is public)")
NODE = Relation("node", "node-DP: remove or add one node with its edges (remaining nodes relabelled)")
EDGE = Relation("edge", "edge-DP: add or remove one edge between two nodes of a fixed, public node set")
FK_TUPLE = Relation("fk_tuple", "delete or add one tuple of a primary private relation with every tuple referencing "
                    "it through the declared foreign keys")
RELATIONS: dict[str, Relation] = {r.key: r for r in (ADD_REMOVE_ROW, SUBSTITUTE_ROW, NODE, EDGE, FK_TUPLE)}


# ---------------------------------------------------------------------------------------------------------------
# the declaration
# ---------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Accuracy:
    """A noise-only error bar from public inputs: the noise scale and a bound ``|release − statistic| ≤ bound`` that
    holds with probability ≥ 1 − β (noise only: truncation or clipping bias is not in it). ``clip`` is the public
    range of the value (the interval is clipped to it)."""

    noise_scale: float
    bound: float
    beta: float = 0.05
    clip: tuple[float, float] | None = None

    def interval(self, value: float) -> tuple[float, float]:
        lo, hi = float(value) - self.bound, float(value) + self.bound
        if self.clip is not None:
            lo, hi = max(lo, self.clip[0]), min(hi, self.clip[1])
        return lo, hi

    @staticmethod
    def laplace(scale: float, beta: float = 0.05, clip: tuple[float, float] | None = None) -> "Accuracy":
        """Lap(scale): P(|Z| > scale·ln(1/β)) = β."""
        return Accuracy(float(scale), float(scale) * math.log(1.0 / beta), beta, clip)


@dataclass(frozen=True)
class Drawn:
    """What a noise step returns when it has more than the value: private ``details`` (post-processing of the
    noisy value) and NOT PRIVATE ``exact`` diagnostics."""

    value: Any
    details: Mapping[str, Any] = field(default_factory=dict)
    exact: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Engine:
    """Another engine that runs a declaration: each part of the data (e.g. a Spark partition) goes through the
    declaration's own ``statistics`` then ``noise`` where the caller cannot observe them, after the plan was recorded
    once through the declaration (:meth:`Mechanism.record`). Declared on the mechanism (:attr:`Mechanism.engines`), so
    the privacy harness derives the engine's entries from the declaration (:mod:`dpworkbench.testing.declared`): its
    claim, relation, neighbours and sensitivities, on the declaration's statistics of what the engine returns when its
    back-end draws nothing.

    Attributes
    ----------
    key : the engine's name, a command's ``--engine`` value (``"spark"``).
    entry : what a user calls, ``"<paper>.<module>.<function>"``: the harness table's name of the API entry and,
        unless ``run`` is given, the function itself (``dpworkbench.<entry>``, imported when the engine first runs: an
        engine imports its declaration, and an optional dependency such as pyspark is imported only when needed).
    prenoise : ``prenoise(value, params) -> data``: the value the engine returns with a back-end that draws nothing
        (the harness's pre-noise back-end) mapped back to the declaration's statistics input, at the checked
        ``params`` it was given; it raises a RuntimeError (not a refusal) when that value is not what the
        declaration's public rules produce. ``None``: the engine computes the statistics out of sight but hands them
        to the declaration's own :meth:`Mechanism.release` on the driver (e.g. a conflict graph's F(θ) streamed
        from edges Spark sorted), so the harness observes them there instead of mapping an output back.
    components : ``components(value) -> {name: number}``, the numbers of one release the harness audits.
    run : ``run(data, *, rng, accountant=None, **kwargs) -> Release``, the engine's release, when it is not ``entry``;
        ``kwargs`` are the declaration's parameters and the engine's own options (a session, an output folder). A
        dotted name (``"<paper>.<module>.<function>"``) is imported as ``entry`` is, when the engine first runs.
    options : keywords the engine's function always gets (which measure one function releases), shown in the entry's
        name.
    examples : how many of the declaration's example inputs the harness runs the engine on (``None``: all), or the
        engine's own ``examples(rng) -> list`` (smaller inputs, when each run of the engine costs seconds).
    harness_samples, tests, note : the audit's samples per side, the test file that checks the engine's entries, and
        what the harness table's notes say of the engine.
    """

    key: str
    entry: str
    prenoise: Callable[[Any, Mapping[str, Any]], Any] | None
    components: Callable[[Any], Mapping[str, float]]
    run: Callable[..., Release] | str | None = None
    examples: int | Callable[[np.random.Generator], list] | None = None
    harness_samples: int = 4000
    tests: str = ""
    note: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)

    def release(self, data: Any, *, rng: RngLike = None, accountant: AccountantLike | None = None,
                **kwargs: Any) -> Release:
        """The engine's release (``run``, else the function ``entry`` names), with its ``options``."""
        run = self.entry if self.run is None else self.run
        if isinstance(run, str):
            module, function = f"dpworkbench.{run}".rsplit(".", 1)
            run = getattr(importlib.import_module(module), function)
        return run(data, rng=rng, accountant=accountant, **self.options, **kwargs)


@dataclass(frozen=True)
class Mechanism:
    """One mechanism, declared once.

    Attributes
    ----------
    name : ``"<paper>.<mechanism>"``, what the registry, the CLI and the harness call it.
    summary : one line for tables and ``--help``.
    relation : the neighbouring relation (one of :data:`RELATIONS`, with a detail).
    params : the parameters with their constraints (ε is one of them).
    public : public inputs that are not parameters (schema, domains, bounds), by name.
    cost : ``cost(**params) -> tuple[LedgerEntry, ...]``, the ledger plan, askable before running.
    statistics : ``statistics(data, **params) -> mapping``, the non-private, cacheable pre-noise values.
    sensitivity : ``sensitivity(**params) -> {statistic: claimed L1 sensitivity}`` (what the harness checks).
    noise : ``noise(stats, backend, size, **params)``: with ``size=None`` one release (a value or a
        :class:`Drawn`); with ``size=R`` an array of R independent outputs (first axis), through the same code.
        It draws only through the back-end and :mod:`dpworkbench.mechanisms` primitives (never an accountant:
        the plan is recorded by the framework).
    truth : ``truth(stats, **params)``, the exact answer the release estimates (NOT PRIVATE; for metrics and
        ``--show-exact``); ``None`` when there is none (a selection).
    examples : ``examples(rng) -> list`` of small user-level inputs for the harness, with ``harness_params``.
    neighbours : ``neighbours(data) -> iterable`` of the relation's neighbours of ``data`` (default: the core's
        generic generator for the relation and the data's type, :mod:`dpworkbench.testing.declared`).
    load : ``load(path, **params) -> data``, the input parsing the CLI uses (a paper supplies it).
    accuracy : ``accuracy(**params) -> Accuracy`` (or a sentence), the noise-only error bar of the release from
        public parameters only, shown next to every private value and asked by ``--plan`` before the data is read.
    paper_option : True for a labelled paper option that is NOT private at the claimed ε (the harness must flag it).
    joint_check : ``joint_check(params)``, a constraint between checked parameters that no single :class:`Param` can
        state (``lower < upper``): a one-line ValueError, raised by :meth:`check_params`, so before any spend.
    engines : other engines that run this declaration (:class:`Engine`), called through :meth:`release_on`.
    """

    name: str
    summary: str
    relation: Relation
    params: tuple[Param, ...]
    cost: Callable[..., tuple[LedgerEntry, ...]]
    statistics: Callable[..., Mapping[str, Any]]
    noise: Callable[..., Any]
    sensitivity: Callable[..., Mapping[str, float]] | None = None
    truth: Callable[..., Any] | None = None
    public: tuple[str, ...] = ()
    examples: Callable[[np.random.Generator], list] | None = None
    harness_params: Mapping[str, Any] = field(default_factory=dict)
    harness_samples: int = 4000
    neighbours: Callable[[Any], Iterable[Any]] | None = None
    load: Callable[..., Any] | None = None
    accuracy: Callable[..., "Accuracy | str"] | None = None
    paper_option: bool = False
    joint_check: Callable[[Mapping[str, Any]], None] | None = None
    release_type: type = Release
    references: str = ""
    register: bool = True
    engines: tuple[Engine, ...] = ()

    def __post_init__(self) -> None:
        if "." not in self.name:
            raise ValueError(f"mechanism name {self.name!r} must be '<paper>.<name>'")
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.name}: duplicate parameter names")
        if self.register:
            _REGISTRY[self.name] = self

    # -- parameters --------------------------------------------------------------------------------------------
    @property
    def paper(self) -> str:
        return self.name.split(".", 1)[0]

    def check_params(self, params: Mapping[str, Any], labels: Mapping[str, str] | None = None) -> dict[str, Any]:
        """Defaults filled in and every value checked against its constraint; an unknown name is refused. ``labels``
        names a parameter in a refusal as the caller knows it (an API's ``budget`` for the declaration's ``epsilon``)."""
        known = {p.name: p for p in self.params}
        unknown = sorted(set(params) - set(known))
        if unknown:
            raise ValueError(f"{self.name} has no parameter {unknown[0]!r} (parameters: {', '.join(known)})")
        out = {name: p.check(params.get(name, p.default), (labels or {}).get(name)) for name, p in known.items()}
        if self.joint_check is not None:
            self.joint_check(out)
        return out

    # -- cost --------------------------------------------------------------------------------------------------
    def plan(self, **params: Any) -> tuple[LedgerEntry, ...]:
        """The ledger this mechanism records for ``params``, without running it."""
        return tuple(self.cost(**self.check_params(params)))

    def epsilon(self, **params: Any) -> float:
        return ledger_epsilon(self.plan(**params))

    # -- running -----------------------------------------------------------------------------------------------
    def release(self, data: Any, *, rng: RngLike = None, accountant: AccountantLike | None = None,
                statistics: Mapping[str, Any] | None = None, **params: Any) -> Release:
        """One release: plan recorded first (refused if over budget), then statistics, then noise.

        ``rng=None`` is a release on the floating-point-safe back-end; a seed or Generator is research noise.
        ``statistics`` may pass cached pre-noise values of ``data`` (computed by :attr:`statistics`)."""
        p = self.check_params(params)
        plan = tuple(self.cost(**p))
        backend = check_rng(rng)
        acc, mark = open_ledger(accountant)
        record_plan(acc, plan)
        stats = self.statistics(data, **p) if statistics is None else statistics
        out = self.noise(stats, backend, None, **p)
        drawn = out if isinstance(out, Drawn) else Drawn(out)
        exact = dict(drawn.exact)
        if self.truth is not None and "truth" not in exact:
            exact["truth"] = self.truth(stats, **p)
        return self.release_type(value=drawn.value, ledger=acc.entries_since(mark), public=p,
                                 details=dict(drawn.details), exact=exact, private=not self.paper_option,
                                 mechanism=self.name)

    def record(self, accountant: AccountantLike | None = None, **params: Any) -> tuple[LedgerEntry, ...]:
        """Record this mechanism's plan (refusing an overspend) and return the entries recorded: for an engine
        that draws the noise itself, in parallel, through this declaration's ``noise`` (e.g. one Spark partition
        each) and then builds the release. Call it before any draw."""
        plan = self.plan(**params)
        acc, mark = open_ledger(accountant)
        record_plan(acc, plan)
        return acc.entries_since(mark)

    def engine(self, key: str) -> Engine:
        """The engine called ``key`` that runs this declaration, or a one-line error naming the declared ones."""
        for e in self.engines:
            if e.key == key:
                return e
        known = ", ".join(e.key for e in self.engines) or "none"
        raise ValueError(f"{self.name} declares no engine {key!r} (engines: {known})")

    def release_on(self, engine: str, data: Any, *, rng: RngLike = None, accountant: AccountantLike | None = None,
                   **kwargs: Any) -> Release:
        """One release of this declaration on the engine ``engine`` (:class:`Engine`): the engine's own function,
        which records the plan (:meth:`record`) before any draw. ``kwargs``: the parameters and the engine's own
        options."""
        return self.engine(engine).release(data, rng=rng, accountant=accountant, **kwargs)

    def sample(self, statistics: Mapping[str, Any], *, size: int, rng: RngLike, **params: Any) -> np.ndarray:
        """``size`` independent outputs from cached ``statistics`` through the release's own noise code.

        Research only: ``rng`` must be a seed, a Generator or a seeded back-end (a release has one output and a
        ledger: use :meth:`release`)."""
        backend = check_rng(rng) if rng is not None else None
        if backend is None or not backend.seeded:
            raise ValueError(f"{self.name}.sample draws research noise: pass a seed or a numpy Generator as rng")
        size = int(size)
        if size < 1:
            raise ValueError("size must be ≥ 1")
        p = self.check_params(params)
        out = self.noise(statistics, backend, size, **p)
        return np.asarray(out.value if isinstance(out, Drawn) else out)

    def run(self, data: Any, epsilon: float, seed: int | None = None, **params: Any) -> Release:
        """DPComp's shape: ``run(x, ε, seed)``."""
        return self.release(data, rng=seed, epsilon=epsilon, **params)

    def describe(self) -> str:
        return f"{self.name}: {self.summary} [{', '.join(p.describe() for p in self.params)}]"


def record_plan(acc: AccountantLike, plan: Sequence[LedgerEntry]) -> None:
    """Record a plan on an accountant, sequential entries as spends and each parallel block as one block with its
    branches; a spend over budget raises before anything after it (and before any draw)."""
    i = 0
    while i < len(plan):
        e = plan[i]
        if e.composition != "parallel":
            acc.spend(e.epsilon, e.mechanism, e.note)
            i += 1
            continue
        j = i
        while j < len(plan) and plan[j].composition == "parallel" and plan[j].block == e.block:
            j += 1
        branches: dict[Any, list[LedgerEntry]] = {}
        for x in plan[i:j]:
            branches.setdefault(x.branch, []).append(x)
        with acc.parallel(e.group or "parallel composition") as block:
            for entries in branches.values():
                with block.branch() as branch:
                    for x in entries:
                        branch.spend(x.epsilon, x.mechanism, x.note)
        i = j


def parallel_plan(group: str, branches: Sequence[Sequence[LedgerEntry]], block: int = 0) -> tuple[LedgerEntry, ...]:
    """One parallel block over disjoint parts of the data, from each part's sequential plan."""
    return tuple(LedgerEntry(e.mechanism, e.epsilon, e.note, "parallel", group, block, b)
                 for b, entries in enumerate(branches) for e in entries)


# ---------------------------------------------------------------------------------------------------------------
# the registry: discovered, not listed
# ---------------------------------------------------------------------------------------------------------------
_REGISTRY: dict[str, Mechanism] = {}
_DISCOVERED: set[str] = set()


def _import_tree(module_name: str) -> None:
    try:
        mod = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return
        raise
    for info in pkgutil.iter_modules(getattr(mod, "__path__", []) or []):
        importlib.import_module(f"{module_name}.{info.name}")


def discover() -> None:
    """Import every declaration: each paper's ``mechanisms`` module (and, when it is a package, every module in
    it), then every ``*.py`` file in the folders on ``DPWB_MECHANISMS_PATH`` (``os.pathsep``-separated)."""
    from ..papers import papers

    for paper in papers():
        key = f"dpworkbench.{paper.key}.mechanisms"
        if key not in _DISCOVERED:
            _import_tree(key)
            _DISCOVERED.add(key)
    for folder in filter(None, os.environ.get("DPWB_MECHANISMS_PATH", "").split(os.pathsep)):
        for path in sorted(Path(folder).glob("*.py")):
            key = str(path.resolve())
            if key in _DISCOVERED:
                continue
            spec = importlib.util.spec_from_file_location(f"dpwb_user_mechanisms.{path.stem}", path)
            if spec is None or spec.loader is None:
                continue
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            _DISCOVERED.add(key)


def registry(paper: str | None = None) -> dict[str, Mechanism]:
    """Every declared mechanism (after :func:`discover`), in paper order then declaration order."""
    from ..papers import paper_keys

    discover()
    order = {k: i for i, k in enumerate(paper_keys())}
    items = sorted(_REGISTRY.values(), key=lambda m: order.get(m.paper, len(order)))
    return {m.name: m for m in items if paper is None or m.paper == paper}


def get(name: str) -> Mechanism:
    """The declaration called ``name``, or a one-line error listing the known names."""
    reg = registry()
    if name not in reg:
        raise ValueError(f"no mechanism called {name!r}; known: {', '.join(reg)}")
    return reg[name]


__all__ = ["ADD_REMOVE_ROW", "Accuracy", "Drawn", "EDGE", "EPSILON", "Engine", "FK_TUPLE", "Mechanism", "NODE", "Param",
           "RELATIONS", "REQUIRED", "Relation", "SUBSTITUTE_ROW", "discover", "get", "parallel_plan", "planned", "record_plan",
           "registry"]
