"""``dpworkbench release <mechanism>``: the one release front end, derived from the declarations.

Every declared mechanism with an input parser (``load``) is a subcommand; its flags are its parameters (names,
types, defaults, allowed values and help from :class:`~dpworkbench.mechanisms.declaration.Param`), plus the shared
flags every release has (:func:`add_release_flags`): ``--seed`` (research noise, NOT a private release; without it
the run is a release on the floating-point-safe OpenDP back-end), ``--json``, ``--show-exact`` (NOT PRIVATE values,
labelled), ``--plan`` (print the ledger the run would record, and stop). Output goes through :func:`emit`, the one
emitter paper subcommands use too.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Mapping

from .common import EXIT_BAD_INPUT, print_json, run_handler


def add_release_flags(p: argparse.ArgumentParser, *, epsilon: float | None = None, engines: tuple[str, ...] = (),
                      n_bound: str | None = None, engine_help: str = "where the statistics are computed") -> None:
    """The flags every release shares: ``--seed``, ``--json``, ``--show-exact``, ``--plan``; with ``epsilon`` (its
    default) ``--epsilon``; with ``engines`` ``--engine`` (the first is the default; with ``spark`` among them, also
    Spark's ``--spark-master``/``--spark-remote``); with ``n_bound`` (what it bounds, in words) ``--n-bound``, a
    public bound that is an argument, never read off the data."""
    if epsilon is not None:
        p.add_argument("--epsilon", type=float, default=epsilon, help="privacy budget ε of the whole run")
    if engines:
        p.add_argument("--engine", choices=list(engines), default=engines[0], help=engine_help)
    if n_bound is not None:
        p.add_argument("--n-bound", type=int, default=None, help=f"public upper bound on {n_bound}")
    p.add_argument("--seed", type=int, default=None,
                   help="seed the noise (research, tests and figures: NOT a private release); default: a release "
                        "on the floating-point-safe OpenDP back-end")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--show-exact", action="store_true", help="also print the exact values (labelled NOT PRIVATE)")
    p.add_argument("--plan", action="store_true", help="print the privacy ledger the run would record, and stop")
    if "spark" in engines:
        from ..spark import add_spark_arguments

        add_spark_arguments(p)


def run_backend(args: argparse.Namespace, epsilon: float | None = None) -> Any:
    """The run's noise back-end from ``--seed`` (:func:`~dpworkbench.mechanisms.backends.cli_backend`: a seed is a
    research run, none a release), kept on ``args`` for the emitter's noise label; with ``epsilon``, an extreme ε is
    warned first (ε is public: the warning says nothing about the data)."""
    from ..mechanisms.backends import cli_backend
    from .common import warn_epsilon

    if epsilon is not None:
        warn_epsilon(epsilon)
    args._backend = cli_backend(args.seed)
    return args._backend


def accuracy_payload(accuracy: Any, value: Any) -> dict | str | None:
    """``{"noise_scale", "interval", "beta", "bound"}`` of an :class:`Accuracy` around a numeric ``value`` (with
    ``"covers"``, what the interval is for, when the Accuracy says so: e.g. a selection's utility loss)."""
    from ..mechanisms.declaration import Accuracy

    if accuracy is None or isinstance(accuracy, str):
        return accuracy
    if isinstance(accuracy, Accuracy):
        out = {"noise_scale": accuracy.noise_scale, "bound": accuracy.bound, "beta": accuracy.beta}
        covers = getattr(accuracy, "covers", "")
        if covers:
            out["covers"] = covers
        try:  # a number's interval; a selection's Accuracy gives its loss interval whatever the label
            out["interval"] = list(accuracy.interval(float(value) if isinstance(value, (int, float)) else value))
        except (TypeError, ValueError):
            pass
        return out
    raise TypeError(f"accuracy must be an Accuracy or a sentence, got {type(accuracy).__name__}")


def accuracy_text(acc: dict | str) -> str:
    """One line: the (1−β) noise-only interval (or bound) and the noise scale; it covers the noise only, never a
    truncation or clipping bias."""
    if isinstance(acc, str):
        return acc
    pct = f"{100 * (1 - acc['beta']):g}%"
    from ..accounting import format_number

    n = lambda v: format_number(float(v))  # noqa: E731
    where = f"[{n(acc['interval'][0])}, {n(acc['interval'][1])}]" if "interval" in acc else f"±{n(acc['bound'])}"
    what = f" for {acc['covers']}" if acc.get("covers") else ""
    return (f"{pct} noise-only interval {where}{what} (noise scale {n(acc['noise_scale'])}; covers the noise only, "
            "not truncation or clipping bias)")


def accuracy_payloads(accuracy: Any, value: Any, label: str) -> dict | None:
    """``{name: payload}``: one Accuracy (or sentence) for ``value`` under ``label``, or a mapping ``{name:
    (Accuracy or sentence, value)}`` when a release has several private values (e.g. one per group)."""
    if accuracy is None:
        return None
    if isinstance(accuracy, Mapping):
        return {str(k): accuracy_payload(a, v) for k, (a, v) in accuracy.items()}
    return {label: accuracy_payload(accuracy, value)}


def emit(release: Any, args: argparse.Namespace, *, label: str = "value", accuracy: Any = None,
         extra: dict | None = None, header: list[str] = (), notes: list[str] = (), inputs: dict | None = None) -> None:
    """Print a release: private values with their error bar and public inputs, ε and the noise source; exact values
    only with ``--show-exact``, labelled NOT PRIVATE. ``--json`` prints the same as one JSON object, the error bar
    under a top-level ``accuracy`` object keyed by the value's name (a null value says why in ``null_reasons``), with
    the public ``extra`` keys (e.g. warnings) added. ``accuracy``: an Accuracy (or a sentence) of ``release.value``,
    or ``{name: (Accuracy, value)}`` for several private values. ``header``: public lines printed first (text only);
    ``notes``: remarks on the private output (post-processing), last in text, under ``notes`` in JSON. ``inputs``:
    NOT PRIVATE counts of how the public rules read the input file (shown with ``--show-exact`` only), under
    ``NOT_PRIVATE.input`` in JSON and one line each in text. A :class:`~dpworkbench.accounting.DescribedRelease`
    brings its own error bar, header, notes and input counts (the API's, so a command restates none of them), and a
    release with ``as_text()`` its text form."""
    from dataclasses import replace

    from ..accounting import jsonable

    accuracy = getattr(release, "error_bar", None) if accuracy is None else accuracy
    header, notes = [*getattr(release, "header", ()), *header], [*notes, *getattr(release, "notes", ())]
    inputs = {**getattr(release, "input_counts", {}), **(inputs or {})}
    if not args.json and hasattr(release, "as_text"):
        release = release.as_text()
    if inputs:
        release = replace(release, exact={**release.exact, **({"input": inputs} if args.json else inputs)})
    from ..mechanisms.backends import noise_label
    from .common import release_json

    if not args.json:
        print("\n".join([*header, *release_text(release, args, label=label, accuracy=accuracy, notes=notes)]))
        return
    noise = noise_label(args._backend) if hasattr(args, "_backend") else "unknown"
    acc = accuracy_payloads(accuracy, release.value, label)
    payload = release_json(release, noise=noise, show_exact=args.show_exact, label=label)
    if acc is not None:
        payload["accuracy"] = jsonable(acc)
    payload.update(extra or {})
    if notes:
        payload["notes"] = list(notes)
    print_json(payload)


def release_text(release: Any, args: argparse.Namespace, *, label: str = "value", accuracy: Any = None,
                 notes: list[str] = ()) -> list[str]:
    """The text lines of :func:`emit` (without its header): the release's lines with the error bar after the value,
    then the notes, each labelled private or seeded research value."""
    from ..accounting import release_lines, value_tag
    from ..mechanisms.backends import noise_label

    noise = noise_label(args._backend) if hasattr(args, "_backend") else "unknown"
    acc = accuracy_payloads(accuracy, release.value, label)
    lines = release_lines(release, noise=noise, show_exact=args.show_exact, label=label)
    if acc is not None:
        bars = [f"  error bar{'' if len(acc) == 1 else ' of ' + name} (public parameters only): {accuracy_text(a)}"
                for name, a in acc.items()]
        lines[1:1] = bars
    return lines + [f"note ({value_tag(noise)}): {n}" for n in notes]


def emit_plan(mech: Any, params: dict, args: argparse.Namespace, *, accuracy: Any = None) -> None:
    """``--plan``: the ledger the run would record and the expected noise error for these public parameters,
    printed before any data is read. ``accuracy`` (an Accuracy, a sentence or ``{name: Accuracy}``) overrides the
    declaration's own (a command that composes several declarations states each)."""
    plan = mech.plan(**params)
    from ..accounting import jsonable, ledger_epsilon

    if accuracy is None and getattr(mech, "accuracy", None) is not None:
        accuracy = mech.accuracy(**params)
    if isinstance(accuracy, Mapping):
        acc = {str(k): accuracy_payload(a, None) for k, a in accuracy.items()}
    else:
        acc = accuracy_payload(accuracy, None)
    if args.json:
        print_json({"mechanism": mech.name, "epsilon": ledger_epsilon(plan), "accuracy": jsonable(acc), "plan": [
            {"mechanism": e.mechanism, "epsilon": e.epsilon, "note": e.note, "composition": e.composition} for e in plan]})
        return
    print(f"{mech.name} would spend ε = {ledger_epsilon(plan):.6g} in {len(plan)} step(s):")
    for i, e in enumerate(plan, 1):
        print(f"  {i}. {e.mechanism}: ε = {e.epsilon:.6g}" + (f" ({e.note})" if e.note else "")
              + (f" [parallel: {e.group}, branch {e.branch}]" if e.composition == "parallel" else ""))
    if isinstance(accuracy, Mapping):
        for name, a in acc.items():
            print(f"expected noise error of {name}: {accuracy_text(a)}")
    elif acc is not None:
        print(f"expected noise error: {accuracy_text(acc)}")


def planned(args: argparse.Namespace, mech: Any, params: dict, *, accuracy: Any = None) -> bool:
    """With ``--plan``: print the plan (:func:`emit_plan`) and return True, so the command stops before any data is
    read; else False."""
    if args.plan:
        emit_plan(mech, params, args, accuracy=accuracy)
    return bool(args.plan)


def flag_of(name: str) -> str:
    """The command-line flag of a declared parameter: ``--name`` with underscores as dashes."""
    return "--" + name.replace("_", "-")


def _bool(text: str) -> bool | str:
    return {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}.get(text.lower(), text)


def add_param_flags(p: argparse.ArgumentParser, mech: Any, names: Any = None, *, defaults: Mapping | None = None,
                    helps: Mapping | None = None, typed: bool = True) -> None:
    """One flag per declared parameter (``names``: which ones, default all) of ``mech`` (a declaration, or its
    parameters: :class:`~dpworkbench.mechanisms.declaration.Param` values) on ``p`` (a parser or an argument group):
    its flag (:func:`flag_of`), type, allowed values, default and help are the Param's, so a command states none of
    them again; ``defaults``/``helps`` give this command's own. A parameter with no default is a required flag.
    ``typed=False`` leaves every value a string (checked by the declaration) with default ``None`` (filled by it)."""
    from ..mechanisms.declaration import REQUIRED

    params = {q.name: q for q in getattr(mech, "params", mech)}
    for name in params if names is None else names:
        q = params[name]
        default = (defaults or {}).get(name, q.default)
        kw: dict[str, Any] = {"dest": name, "help": ((helps or {}).get(name) or q.help or q.describe()).replace("%", "%%")}
        kw["type"] = _bool if q.kind is bool else q.kind if typed and q.kind in (int, float) else str
        kw["metavar"] = "{true,false}" if q.kind is bool else None if q.choices else name.upper()
        if q.choices is not None:
            kw["choices"] = list(q.choices) if typed else [str(c) for c in q.choices]
        if default is REQUIRED:
            kw["required"] = True
        else:
            kw["default"] = default if typed else None
            if default is not None and default != "" and "default" not in kw["help"]:
                kw["help"] += f" (default {default})"
        p.add_argument(flag_of(name), **kw)


def checked_params(args: argparse.Namespace, mech: Any, names: Any) -> dict:
    """The named flags' values checked by their declared constraints, each refusal one line naming its flag; a flag
    left unset (``None``) is left out."""
    params = {q.name: q for q in mech.params}
    return {n: params[n].check(getattr(args, n), flag_of(n)) for n in names if getattr(args, n, None) is not None}


#: What every release command says about its noise and its exact values (one text, not four).
NOISE_TEXT = ("Without --seed the run is a release: noise from OpenDP's floating-point-safe samplers (OS entropy). "
              "--seed N makes it a reproducible research run on seeded numpy noise, NOT a private release. "
              "--show-exact adds the exact values, each labelled NOT PRIVATE (in --json under NOT_PRIVATE); --plan "
              "prints the privacy ledger the run would record, and stops.")


def describe(*paragraphs: str, relation: Any, public: str) -> str:
    """A release command's ``--help`` description: its own paragraphs, then its neighbouring relation (a declared
    :class:`~dpworkbench.mechanisms.declaration.Relation` or its words), what it treats as public and
    :data:`NOISE_TEXT`, every paragraph wrapped (for ``RawDescriptionHelpFormatter``)."""
    import textwrap

    rel = relation if isinstance(relation, str) else relation.describe()
    blocks = [*paragraphs, f"Neighbouring relation: {rel}.", f"Treated as public: {public}.", NOISE_TEXT]
    return "\n\n".join(textwrap.fill(b, 116) for b in blocks)


def release_parser(sub: argparse._SubParsersAction, name: str, *paragraphs: str, help: str, relation: Any,
                   public: str) -> argparse.ArgumentParser:
    """A release subcommand of ``sub``: its ``--help`` description is :func:`describe`'s (its own paragraphs, the
    neighbouring relation, what it treats as public and the noise text), printed as laid out there."""
    return sub.add_parser(name, help=help, description=describe(*paragraphs, relation=relation, public=public),
                          formatter_class=argparse.RawDescriptionHelpFormatter)


def _run(args: argparse.Namespace) -> int:
    from ..mechanisms.declaration import get

    mech = get(args.mechanism)
    params = {p.name: getattr(args, p.name) for p in mech.params if getattr(args, p.name, None) is not None}
    params = mech.check_params(params)
    if planned(args, mech, params):
        return 0
    run_backend(args)
    data = mech.load(args.input, **params)
    release = mech.release(data, rng=args._backend, **params)
    emit(release, args, accuracy=mech.accuracy(**params) if mech.accuracy is not None else None)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    from ..mechanisms.declaration import registry

    p = sub.add_parser("release", help="run one declared mechanism on a file (a release unless --seed)",
                       description=__doc__.split("\n\n")[0])
    mechs = p.add_subparsers(dest="mechanism", required=True, metavar="MECHANISM")
    for mech in registry().values():
        if mech.load is None:
            continue
        m = mechs.add_parser(mech.name, help=mech.summary, description=f"{mech.summary}. Neighbouring relation: "
                             f"{mech.relation.describe()}.")
        m.add_argument("input", help="the input file (read by the mechanism's own public-schema loader)")
        add_param_flags(m, mech, typed=False)
        add_release_flags(m)
        m.set_defaults(func=lambda a: run_handler(_run, a))


def main(argv: list[str] | None = None) -> int:  # pragma: no cover - convenience
    parser = argparse.ArgumentParser(prog="dpworkbench")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args) if hasattr(args, "func") else EXIT_BAD_INPUT


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
