"""Harness entries derived from declarations: nothing about a declared mechanism is restated here.

:func:`entry_point` turns a :class:`~dpworkbench.mechanisms.declaration.Mechanism` into an
:class:`~dpworkbench.testing.harness.EntryPoint`: its relation, claimed ε (the ledger its plan records) and public
inputs are the declaration's; its neighbours are the declaration's own generator or the core's generic one for the
relation and the data's type (:func:`generic_neighbours`); the statistics brute-forced are the declaration's
``statistics`` against its ``sensitivity``; the audited release is :meth:`Mechanism.release` itself (with the
statistics of each input computed once, since the brute force has already checked them).

A command's entry (:func:`cli_entry`) reads its statistics off the command itself (:func:`observed_releases`): the
declaration's statistics of what the command's own reader handed it, so a paper's harness restates no reader.

An engine on a declaration (:class:`~dpworkbench.mechanisms.declaration.Engine`, e.g. Spark) computes the statistics
where the harness cannot observe them. Its entries are derived the same way (:func:`engine_entry`, and
``cli_entry(engine=…)`` for a command's ``--engine`` variant): the engine's real path runs with the pre-noise back-end
(:class:`~dpworkbench.testing.harness.PreNoiseBackend`, which draws nothing), and the statistics brute-forced are the
declaration's own of what it returned, mapped back by the engine's ``prenoise``. An engine that computes the statistics
out of sight but hands them to the declaration's own release on the driver (``prenoise=None``) is observed instead:
the statistics are those that release received on the engine's real path (:func:`observed_releases`).
"""

from __future__ import annotations

import dataclasses
from contextlib import contextmanager
from itertools import takewhile
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from ..accounting import ledger_epsilon
from .harness import EntryPoint, PreNoiseBackend, node_neighbours, numeric_components, seed_of


def _mixed_row(df):
    """A row built from different rows' cells (column j from row j mod n): in the data's domain, yet usually new."""
    n = len(df)
    return {c: df[c].iloc[j % n] for j, c in enumerate(df.columns)}


def generic_neighbours(relation_key: str, data: Any) -> Iterable[Any]:
    """The core's neighbours of ``data`` under a relation, for the data types the core knows:

    * a DataFrame or a 1-D array (rows are records): ``add_remove_row`` removes each row, and inserts a copy of
      each row and a mixed row at every position; ``substitute_row`` replaces each row by each other row and by
      the mixed row;
    * a graph ``(n, edges)`` on nodes 0..n−1: ``node`` removes each node with its edges (relabelling the rest;
      adding is the same pair read the other way); ``edge`` adds or removes each possible edge.
    Other relations (``fk_tuple``: :func:`~.harness.fk_tuple_neighbours`, given the instance's declared keys) and
    types need the declaration's own ``neighbours``."""
    import pandas as pd

    if relation_key in ("add_remove_row", "substitute_row") and isinstance(data, (pd.DataFrame, np.ndarray)):
        frame = isinstance(data, pd.DataFrame)
        df = data.reset_index(drop=True) if frame else pd.DataFrame({"v": np.asarray(data)})
        n = len(df)
        extra = [df.iloc[i].to_dict() for i in range(n)] + ([_mixed_row(df)] if n else [])

        def out(rows: list[dict]):
            res = pd.DataFrame(rows, columns=df.columns).astype(df.dtypes.to_dict())
            return res if frame else res["v"].to_numpy()

        rows = [df.iloc[i].to_dict() for i in range(n)]
        if relation_key == "add_remove_row":
            for i in range(n):
                yield out(rows[:i] + rows[i + 1:])
            for e in extra:
                for pos in range(n + 1):
                    yield out(rows[:pos] + [e] + rows[pos:])
        else:
            for i in range(n):
                for e in extra:
                    if e != rows[i]:
                        yield out(rows[:i] + [e] + rows[i + 1:])
        return
    if relation_key in ("node", "edge") and isinstance(data, tuple) and len(data) == 2:
        n, edges = int(data[0]), np.asarray(data[1], dtype=np.int64).reshape(-1, 2)
        if relation_key == "node":
            yield from node_neighbours(n, edges)
            return
        present = {tuple(sorted(e)) for e in edges.tolist()}
        for u in range(n):
            for v in range(u + 1, n):
                if (u, v) in present:
                    yield n, np.asarray([e for e in edges.tolist() if tuple(sorted(e)) != (u, v)], np.int64).reshape(-1, 2)
                else:
                    yield n, np.vstack([edges, [[u, v]]])
        return
    raise ValueError(f"no generic neighbours for relation {relation_key!r} on {type(data).__name__}: "
                     "the declaration must give its own `neighbours`")


def _numeric(out: Any) -> dict[str, float]:
    """The numeric components of a released value (a number, an array, or a mapping of numbers)."""
    if isinstance(out, dict):
        return {str(k): float(v) for k, v in out.items() if np.ndim(v) == 0 and v is not None}
    arr = np.asarray(out, dtype=float)
    if arr.ndim == 0:
        return {"output": float(arr)}
    return {f"output[{i}]": float(v) for i, v in enumerate(arr.ravel())}


def declared_statistics(mech, params):
    """``(statistics, sensitivities)`` of a declaration at ``params``: ``statistics(x, s=None)`` is the part of its
    statistics of ``x`` (or of ``s``, already computed) that it claims a sensitivity for (all of them when it
    claims none): what the harness brute-forces, whether ``x`` is the API's input or what a command read from a file."""
    checked = mech.check_params(params)
    sens = dict(mech.sensitivity(**checked)) if mech.sensitivity is not None else None

    def statistics(x, s=None):
        s = mech.statistics(x, **checked) if s is None else s
        return {k: v for k, v in s.items() if sens is None or k in sens}
    return statistics, sens or {}


def entry_point(mech) -> EntryPoint:
    """The harness entry of one declaration (see the module docstring)."""
    params = dict(mech.harness_params)
    checked = mech.check_params(params)
    declared, _ = declared_statistics(mech, params)
    cache: dict[int, tuple[Any, Any]] = {}

    def stats_of(x):
        hit = cache.get(id(x))
        if hit is None or hit[0] is not x:
            hit = (x, mech.statistics(x, **checked))
            cache[id(x)] = hit
        return hit[1]

    def neighbours(x):
        return mech.neighbours(x) if mech.neighbours is not None else generic_neighbours(mech.relation.key, x)

    def release(x, rng):
        return _numeric(mech.release(x, rng=rng, statistics=stats_of(x), **params).value)

    shown = ", ".join(f"{k}={v!r}" for k, v in params.items() if k != "epsilon")
    return wrapped_entry(
        mech, params, f"{mech.name}({shown})" if shown else mech.name, None, release,
        statistics=lambda x: declared(x, stats_of(x)), make_inputs=mech.examples, neighbours=neighbours,
        expect_flagged=mech.paper_option, n_samples=mech.harness_samples,
        pilot_samples=_pilot(mech.harness_samples), tests="tests/privacy/test_harness_declared.py",
        note="derived from the declaration")


def _pilot(samples: int) -> int:
    return min(2000, max(200, samples // 3))


def engine_entry(mech, key: str) -> EntryPoint:
    """The API entry of the engine ``key`` of a declaration: the declaration's own entry (:func:`entry_point`: its
    harness parameters, claim, relation, neighbours and sensitivities) with the engine's function as the release (its
    ``components`` audited) and, as the statistics of an input, the declaration's statistics of what that function
    returns on it with the pre-noise back-end (mapped back by the engine's ``prenoise``): what the engine computed,
    not what the declaration would."""
    engine = mech.engine(key)
    params = dict(mech.harness_params)
    checked = mech.check_params(params)
    declared, _ = declared_statistics(mech, params)
    base = entry_point(mech)
    # prenoise=None: the declaration's own release receives the engine's statistics; one seeded run per input, observed
    runs = observed_runs(lambda x: engine.release(x, rng=0, **params))

    def statistics(x):
        if engine.prenoise is not None:
            return declared(engine.prenoise(engine.release(x, rng=PreNoiseBackend(0), **params).value, checked))
        got = [s for m, _, _, s in runs(x) if m.name == mech.name]
        if not got:  # the engine released something else: no statistics of this declaration, an error
            raise RuntimeError(f"{engine.entry} made no release of {mech.name}")
        return {k: v for s in got for k, v in s.items()}

    def release(x, rng):
        return engine.components(engine.release(x, rng=rng, **params).value)

    first = engine.examples
    own = first if callable(first) else None
    options = f"({', '.join(f'{k}={v!r}' for k, v in engine.options.items())})" if engine.options else ""
    return dataclasses.replace(
        base, name=engine.entry + options + base.name[len(mech.name):], statistics=statistics, release=release,
        make_inputs=own or (mech.examples if first is None else (lambda rng: mech.examples(rng)[:first])),
        n_samples=engine.harness_samples, pilot_samples=_pilot(engine.harness_samples),
        tests=engine.tests or base.tests, note=f"the {key} engine of {mech.name}; {engine.note}")


def wrapped_entry(mech, params: dict, name: str, read, release, **kw) -> EntryPoint:
    """An API entry point that runs the declaration ``mech`` at ``params`` on what ``read(x)`` makes of its input (a
    conflict graph's truncation, …): its claimed ε is the declaration's plan, its statistics and sensitivities the
    declaration's on ``read(x)``; its relation and public inputs are the declaration's unless given."""
    stats, sens = declared_statistics(mech, params)
    kw.setdefault("relation", mech.relation.describe())
    kw.setdefault("public_inputs", tuple(p.name for p in mech.params) + tuple(mech.public))
    kw.setdefault("statistics", lambda x: stats(read(x)))
    return EntryPoint(name=name, kind=kw.pop("kind", "api"), paper=kw.pop("paper", name.split(".")[0]),
                      claimed_epsilon=ledger_epsilon(mech.plan(**params)), sensitivities=sens, release=release, **kw)


@contextmanager
def observed_releases(engine: str | None = None) -> Iterator[list[tuple[Any, dict, Any, Any]]]:
    """Every declared release made inside the block, in order, as ``(mechanism, checked params, data, statistics)``:
    what a command handed its declaration through its real path (reader, extraction), read off that path instead of
    replicated by the harness. The statistics are computed once and passed on to the release as its cache, so the run
    is the one it would be unobserved (its plan, noise and output are unchanged); the observation ends with the block.
    What is kept of them is the declared part (:func:`declared_statistics`), read as soon as the release returns: a
    path's statistics may be read lazily from what the path removes when it returns (F(θ) streamed from a folder of
    sorted edges), so read after the block they would be read from nothing.

    A release on an engine (:meth:`~dpworkbench.mechanisms.declaration.Mechanism.release_on`) computes its statistics
    out of sight: it is run with the pre-noise back-end instead of the caller's, and ``data`` is what it returned
    mapped back by the engine's ``prenoise`` (so the block's output is no release). ``engine``: the block must make a
    release on that engine (a command that ignored its ``--engine`` flag is an error, not an empty set of statistics)."""
    from ..mechanisms.declaration import Mechanism

    seen: list[tuple[Any, dict, Any, Any]] = []
    engines: list[str] = []
    release, release_on = Mechanism.release, Mechanism.release_on

    def observed(self, data, *, rng=None, accountant=None, statistics=None, **params):
        checked = self.check_params(params)
        stats = self.statistics(data, **checked) if statistics is None else statistics
        out = release(self, data, rng=rng, accountant=accountant, statistics=stats, **params)
        seen.append((self, checked, data, dict(declared_statistics(self, checked)[0](None, stats))))
        return out

    def observed_on(self, key, data, *, rng=None, accountant=None, **kwargs):
        if self.engine(key).prenoise is None:  # it hands the declaration's own release its statistics: observed there
            engines.append(key)
            return release_on(self, key, data, rng=rng, accountant=accountant, **kwargs)
        names = {p.name for p in self.params}  # the rest of kwargs are the engine's own options
        checked = self.check_params({k: v for k, v in kwargs.items() if k in names})
        out = release_on(self, key, data, rng=PreNoiseBackend(0), accountant=accountant, **kwargs)
        pre = self.engine(key).prenoise(out.value, checked)
        seen.append((self, checked, pre, self.statistics(pre, **checked)))
        engines.append(key)
        return out

    Mechanism.release, Mechanism.release_on = observed, observed_on
    try:
        yield seen
    finally:
        Mechanism.release, Mechanism.release_on = release, release_on
    if engine is not None and engine not in engines:
        raise RuntimeError(f"the run made no release on the engine {engine!r}")


def observed_runs(call: Callable[[Any], Any], engine: str | None = None
                  ) -> Callable[[Any], list[tuple[Any, dict, Any, Any]]]:
    """``x ↦`` the declared releases (:func:`observed_releases`, which must include one on ``engine`` when given) of
    one run ``call(x)``, kept per input (the harness asks for an input's statistics more than once)."""
    cache: dict[str, list] = {}

    def releases(x):
        key = repr(x)
        if key not in cache:
            with observed_releases(engine) as seen:
                call(x)
            cache[key] = seen
        return cache[key]
    return releases


def command_releases(run: Callable[..., Any], engine: str | None = None
                     ) -> Callable[[Any], list[tuple[Any, dict, Any, Any]]]:
    """:func:`observed_runs` of one seeded run of a command, ``run(x, "--seed", "0", "--json")``."""
    return observed_runs(lambda x: run(x, "--seed", "0", "--json"), engine)


def declared_pairs(mech, params: dict, stats) -> dict[str, tuple[Any, float | None]]:
    """``{statistic: (value, claimed sensitivity)}`` of a declaration's (already computed) statistics at ``params``
    (:func:`declared_statistics`; ``None``: a statistic it claims nothing for)."""
    values, sens = declared_statistics(mech, params)
    return {k: (v, sens.get(k)) for k, v in values(None, stats).items()}


def command_statistics(run: Callable[..., Any], pairs: Callable[..., dict] | None = None, engine: str | None = None
                       ) -> tuple[Callable[[Any], dict], Callable[[Any], dict]]:
    """``(statistics, sensitivities)`` of a command: ``x ↦`` the statistics of what the command read from ``x``, and
    ``x ↦`` their claimed sensitivities at the parameters the command passed, over the declared releases of one run
    (merged by name: releases on the same table share its statistics; ``engine``: the run must release on it).
    ``pairs(mech, params, data, stats) -> {statistic: (value, sensitivity)}`` says which (default: the declaration's
    own, :func:`declared_pairs`)."""
    releases = command_releases(run, engine)

    def pairs_of(x):
        out: dict = {}
        for mech, params, data, stats in releases(x):
            out.update(pairs(mech, params, data, stats) if pairs else declared_pairs(mech, params, stats))
        return out
    return ((lambda x: {k: v for k, (v, _) in pairs_of(x).items()}),
            (lambda x: {k: d for k, (_, d) in pairs_of(x).items() if d is not None}))


def cli_entry(name: str, run, make_inputs, neighbours, statistics=None, sensitivities=None, *,
              public: tuple[str, ...], cli=None, pairs=None, relation: str | None = None, components=None,
              engine: str | None = None, **kw) -> EntryPoint:
    """The entry of the command ``name`` (``dpworkbench <paper> …``), run in process: ``run(x, *flags)`` is its JSON
    on input ``x``. What the command claims is derived from it, not restated: its ε is its own ``--plan`` (the plan
    of the declaration it names, from public inputs only; on the first example input), its relation that
    declaration's unless a file-level one is given, its paper the command's second word; its statistics, unless
    given, those of the declared release it makes (:func:`command_statistics`, with ``pairs``). Its public inputs
    are ``public`` (the command's own: its input's shape, flags that are no parameter) and, given the command's
    runner ``cli`` (:class:`~dpworkbench.testing.harness.FileCLI`), the command's flag of each parameter of that
    declaration, in the declaration's order. The audited release is a ``--seed <int> --json`` run; its components
    are the numbers of ``private`` (or ``components(json)``).

    ``engine``: the command's ``--engine <engine>`` variant, on an engine its declaration declares: the flag joins
    the command line, its name and the public flags (before the input's shape); its statistics are those of the
    engine's pre-noise output (:func:`observed_releases`); its samples, tests and note are the engine's."""
    from ..mechanisms.declaration import registry

    if engine is not None:
        name = f"{name} --engine {engine}"
        public = (*[p for p in public if p.startswith("-")], "--engine", *[p for p in public if not p.startswith("-")])
        flagless = run

        def with_engine(x, *flags):
            return flagless(x, "--engine", engine, *flags)
        run = with_engine
    plan = run(make_inputs(np.random.default_rng(0))[0], "--plan", "--json")
    mech = registry().get(plan["mechanism"])
    if relation is None:
        relation = mech.relation.describe()
    if engine is not None:
        declared = mech.engine(engine)
        kw = {"n_samples": declared.harness_samples, "pilot_samples": _pilot(declared.harness_samples),
              "tests": declared.tests, **kw, "note": f"{kw.get('note', '')}; {declared.note}"}
    if statistics is None:
        statistics, sensitivities = command_statistics(run, pairs, engine)
    if cli is not None and mech is not None:
        words = list(takewhile(lambda w: not w.startswith(("-", "(")), name.split()[1:]))  # the subcommand
        flags = cli.flags(words)
        public = tuple(dict.fromkeys([*public, *(flags[p.name] for p in mech.params if p.name in flags)]))

    def release(x, rng):
        out = run(x, "--seed", str(seed_of(rng)), "--json")
        return components(out) if components is not None else numeric_components(out["private"])

    return EntryPoint(name=name, kind="cli", paper=name.split()[1], relation=relation,
                      claimed_epsilon=float(plan["epsilon"]), public_inputs=public, make_inputs=make_inputs,
                      neighbours=neighbours, statistics=statistics, sensitivities=sensitivities, release=release, **kw)


__all__ = ["cli_entry", "command_releases", "command_statistics", "declared_pairs", "declared_statistics", "engine_entry",
           "entry_point", "generic_neighbours", "observed_releases", "observed_runs", "wrapped_entry"]
