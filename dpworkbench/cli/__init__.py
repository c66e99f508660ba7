"""The ``dpworkbench`` command: list, run, reproduce, report, index, bench, lab, plus paper subcommands.

Paper subpackages add subcommands by defining ``register(subparsers)`` in
``dpworkbench/<paper>/cli.py``; they are discovered here without editing this file.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from typing import Callable, Sequence

from ..experiments.context import PROFILES
from ..paths import reports_dir

# Seconds one notebook cell may run. The paper profile's R2T Table 2 runs its whole grid in one cell: on whole graphs
# it took 30.5 + 22.4 min (2026-11-27: the first run was stopped at 1800 s and a second reused its finished cells).
CELL_TIMEOUT = {"ci": 1800, "quick": 1800, "paper": 4 * 3600}



def _parse_value(text: str):
    import json

    try:
        return json.loads(text)
    except ValueError:
        return text


def cmd_list(args: argparse.Namespace) -> int:
    from ..experiments.nbtools import discover_notebooks

    infos = discover_notebooks(args.only)
    if not infos:
        print("no notebooks found", file=sys.stderr)
        return 1
    width = max(len(i.name) for i in infos)
    current = None
    for i in infos:
        if i.paper != current:
            current = i.paper
            print(f"\n[{current}]")
        print(f"  {i.name:<{width}}  {i.title}")
    return 0


def _plural(n: int, word: str) -> str:
    """``1 notebook``, ``2 notebooks``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def resolve_run(notebook: str, params: dict):
    """The run ``dpworkbench run NOTEBOOK`` means: a manifest run name (``inconsistency/fig05_true_vs_private_conoise``),
    or a notebook path / ``<paper>/<stem>`` (the manifest run whose parameters ``params`` match, if any). None if not found."""
    from ..experiments.nbtools import describe_notebook, discover_notebooks, notebooks_dir

    runs = discover_notebooks()
    key = notebook[: -len(".ipynb")] if notebook.endswith(".ipynb") else notebook
    by_name = [i for i in runs if i.name == key]
    if by_name and not Path(notebook).exists():
        return by_name[0]
    path = Path(notebook)
    if not path.exists():
        path = notebooks_dir() / (key + ".ipynb")
        if not path.exists():
            return None
    path = path.resolve()
    matching = [i for i in runs if i.path.resolve() == path and all(k in params and params[k] == v for k, v in i.parameters)]
    return matching[0] if len(matching) == 1 else describe_notebook(path)


def cmd_run(args: argparse.Namespace) -> int:
    from ..experiments.nbtools import (RUNNER_PARAMETERS, check_parameters, parameter_overrides, parameterised_dir,
                                       run_notebook)
    from ..experiments.report import write_runs

    params = {k: _parse_value(v) for k, v in (args.parameter or [])}
    runner_own = sorted(set(params) & set(RUNNER_PARAMETERS))
    if runner_own:  # the runner sets these itself; a -p value would be silently overridden or misfile the run
        print(f"-p {runner_own[0]} is set by the runner (use --profile for the profile)", file=sys.stderr)
        return 2
    info = resolve_run(args.notebook, params)
    if info is None:
        print(f"notebook not found: {args.notebook} (try `dpworkbench list`)", file=sys.stderr)
        return 2
    check_parameters(info, params)  # an unknown -p name is a mistake, not a notice (ValueError: one line, exit 2)
    overrides = parameter_overrides(info, params)
    if overrides:
        # Other parameters than the profile's: its own folder and runs.csv, never the reproduction's
        out_root = reports_dir() / "runs"
        out_dir = parameterised_dir(info, args.profile, overrides, out_root)
        shown = ", ".join(f"{k}={v!r}" for k, v in sorted(overrides.items()))
        print(f"parameterised run of {info.name} ({shown}, {args.profile} profile); "
              f"the {args.profile} reproduction is left as it is", flush=True)
    else:
        out_root, out_dir = reports_dir() / args.profile, None
    try:
        res = run_notebook(info, profile=args.profile, output_root=out_root, parameters=params, out_dir=out_dir,
                           timeout=CELL_TIMEOUT[args.profile])
    except KeyboardInterrupt:
        print(f"stopped (Ctrl-C): {info.name} not written", file=sys.stderr)
        return 130
    # so `dpworkbench report` shows a profile run; parameterised runs are listed in reports/runs/runs.csv
    write_runs(out_root, [res], key=("notebook", "parameters") if overrides else ("notebook",))
    print(f"{res.status} in {res.seconds:.1f}s -> {res.output_dir}")
    if res.error:
        print(res.error, file=sys.stderr)
    return 0 if res.status == "ok" else 1


def cmd_reproduce(args: argparse.Namespace) -> int:
    from ..experiments.nbtools import discover_notebooks, run_many
    from ..experiments.report import build_report, write_runs

    infos = discover_notebooks(args.only)
    if not infos:
        print(f"no notebooks match {args.only!r}", file=sys.stderr)
        return 2
    out_root = reports_dir() / args.profile
    from ..experiments.nbtools import RunInterrupted

    if args.max_memory is not None and args.max_memory <= 0:
        print(f"--max-memory must be a positive number of GB, got {args.max_memory}", file=sys.stderr)
        return 2
    if args.jobs < 1:
        print(f"--jobs must be at least 1, got {args.jobs}", file=sys.stderr)
        return 2
    if args.timeout is not None and args.timeout <= 0:
        print(f"--timeout must be a positive number of seconds, got {args.timeout}", file=sys.stderr)
        return 2
    timeout = CELL_TIMEOUT[args.profile] if args.timeout is None else args.timeout
    how = " (keeping finished runs whose code is unchanged: --resume)" if args.resume else ""
    print(f"reproducing {_plural(len(infos), 'notebook')} in the {args.profile!r} profile -> {out_root}{how}", flush=True)
    out_root.mkdir(parents=True, exist_ok=True)
    try:
        # runs.csv is rewritten after every notebook, so a crash or a lost machine costs at most the one in progress
        results = run_many(infos, profile=args.profile, output_root=out_root, timeout=int(timeout), resume=args.resume, jobs=args.jobs,
                           max_memory_gb=args.max_memory,
                           on_result=lambda r: write_runs(out_root, [r]))
    except RunInterrupted as stop:  # Ctrl-C: keep what finished, drop the notebook in progress, no traceback
        from ..experiments.claims import ClaimsIncomplete

        try:
            index = build_report(out_root, args.profile)
        except ClaimsIncomplete as exc:
            index = f"not built ({exc})"
        print(f"stopped (Ctrl-C) during {stop.current}: {len(stop.results)} of {_plural(len(infos), 'notebook')} finished and kept; "
              f"report: {index}. Run again to continue (finished experiment cells are cached).", file=sys.stderr)
        return 130
    from ..experiments.claims import ClaimsIncomplete

    try:
        index = build_report(out_root, args.profile)
    except ClaimsIncomplete as exc:  # the runs are kept (runs.csv); the report waits for the claim to be fixed
        print(exc, file=sys.stderr)
        return 1
    failed = [r for r in results if r.status != "ok"]
    kept = sum(r.kept for r in results)
    total = sum(r.seconds for r in results)
    print(f"{len(results) - len(failed)} ok ({kept} kept from earlier runs), {len(failed)} failed; "
          f"{total / 60:.1f} min of notebook time in all (timing.md); report: {index}")
    return 1 if failed else 0


def cmd_report(args: argparse.Namespace) -> int:
    from ..experiments.report import build_report

    from ..experiments.claims import ClaimsIncomplete

    try:
        index = build_report(reports_dir() / args.profile, args.profile)
    except ClaimsIncomplete as exc:  # a claim with no source, or a non-pass with no cause: one line naming it
        print(exc, file=sys.stderr)
        return 1
    print(index)
    return 0


def cmd_index(args: argparse.Namespace) -> int:
    from ..experiments.index_notebook import main as index_main

    return index_main(["--check"] if args.check else [])


def cmd_bench(args: argparse.Namespace) -> int:
    from ..bench import run_benchmarks

    return run_benchmarks(only=args.only, output=Path(args.output) if args.output else None)


def cmd_privacy_table(args: argparse.Namespace) -> int:
    from ..privacy_harness import readme_table

    print(readme_table())
    return 0


def cmd_layers(args: argparse.Namespace) -> int:
    """Check DESIGN.md's layers with import-linter, on contracts built from the discovered papers."""
    import subprocess
    import tempfile

    from ..papers import import_contracts
    from ..paths import project_root

    with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as f:
        f.write(import_contracts())
    try:
        exe = Path(sys.executable).with_name("lint-imports")
        return subprocess.run([str(exe), "--no-cache", "--config", f.name], cwd=project_root()).returncode
    finally:
        Path(f.name).unlink()


def lab_command(args: argparse.Namespace) -> list[str]:
    """The JupyterLab command line of ``dpworkbench lab`` (rooted at the project, opening the gallery)."""
    import os

    from ..paths import project_root

    root = Path(args.root).resolve() if args.root else project_root()
    index = root / "notebooks" / "index.ipynb"
    cmd = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={root}"]
    settings = project_root() / "lab" / "settings"  # the project's lab defaults (no news pop-up): lab/README.md
    if settings.is_dir():
        cmd.append(f"--LabApp.app_settings_dir={settings}")
    if index.exists():
        cmd.append("--LabApp.default_url=/lab/tree/notebooks/index.ipynb")
    if args.port:
        cmd.append(f"--port={args.port}")
    if args.ip:
        cmd.append(f"--ip={args.ip}")
    if args.no_browser:
        cmd.append("--no-browser")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")  # containers and CI machines often run as root
    extra = list(args.jupyter_args or [])
    if extra[:1] == ["--"]:
        extra = extra[1:]
    return cmd + extra  # later options win, so these can override the defaults above


def cmd_lab(args: argparse.Namespace) -> int:
    return _launch(args, lab_command(args), "jupyterlab",
                   "JupyterLab is not installed in this environment: run `make install` first",
                   "starting JupyterLab on notebooks/index.ipynb (Ctrl-C to stop)")


def _launch(args: argparse.Namespace, cmd: list[str], module: str, missing: str, starting: str,
            env: Callable[[], dict[str, str]] | None = None) -> int:
    """``--print-command``: print the server's command line; else check that its package (``module``) imports
    (``missing`` and exit 2 when it does not), say ``starting`` and serve it (:func:`_serve`) in ``env()`` (called
    only then: the teaching app's environment writes its Voilà template)."""
    if args.print_command:
        print(" ".join(cmd))
        return 0
    try:
        importlib.import_module(module)
    except ImportError:
        print(missing, file=sys.stderr)
        return 2
    print(starting, flush=True)
    return _serve(cmd, env() if env is not None else None)


def _serve(cmd: list[str], env: dict[str, str] | None = None) -> int:
    """Run a server (JupyterLab, Voilà) in the foreground until it ends, Ctrl-C or SIGTERM.

    SIGTERM (``kill``, a service manager, a closed container) is passed on to the server and waited for: without
    this the server outlived ``dpworkbench`` and kept holding its port. Ctrl-C reaches the server through the
    terminal's process group by itself.
    """
    import signal
    import subprocess

    proc = subprocess.Popen(cmd, env=env)

    def forward(signum, frame):  # noqa: ARG001 - signal handler signature
        if proc.poll() is None:
            proc.terminate()

    previous = signal.signal(signal.SIGTERM, forward)
    try:
        while True:
            try:
                code = proc.wait(timeout=30)
                break
            except subprocess.TimeoutExpired:
                continue
            except KeyboardInterrupt:  # the server got the same Ctrl-C; give it time to shut its kernels down
                try:
                    proc.wait(timeout=30)
                except (subprocess.TimeoutExpired, KeyboardInterrupt):
                    proc.kill()
                    proc.wait()
                return 0
    finally:
        signal.signal(signal.SIGTERM, previous)
    return 0 if code == -signal.SIGTERM else code


def cmd_teach(args: argparse.Namespace) -> int:
    """Serve a teaching notebook as a Voilà app on localhost (widgets and figures, no code)."""
    from ..teaching.app import resolve_teaching_notebook, teach_environment, teaching_notebooks, voila_command

    if args.list:  # name and title, as `dpworkbench list` shows them
        from ..experiments.nbtools import describe_notebook

        infos = [describe_notebook(p) for p in teaching_notebooks()]
        width = max((len(i.notebook) for i in infos), default=0)
        for i in infos:
            print(f"{i.notebook:<{width}}  {i.title}")
        return 0
    notebook = resolve_teaching_notebook(args.notebook) if args.notebook else None  # ValueError: one line, exit 2
    cmd = voila_command(notebook, port=args.port, ip=args.ip, open_browser=not args.no_browser, extra=args.voila_args)
    what = f"{notebook.parent.name}/{notebook.stem}" if notebook else "the notebook tree"
    return _launch(args, cmd, "voila",
                   "Voilà is not installed in this environment: run `make install` (it is a dev dependency)",
                   f"serving {what} as an app on http://{args.ip}:{args.port}/ (Ctrl-C to stop)", env=teach_environment)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dpworkbench", description="Differential privacy research workbench")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("list", help="list notebooks with one-line descriptions")
    p.add_argument("--only", help="regular expression on <paper>/<notebook>")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("run", help="run one notebook headlessly (papermill)")
    p.add_argument("notebook", help="path, <paper>/<notebook> under notebooks/, or a run name from `dpworkbench list`")
    p.add_argument("-p", "--parameter", nargs=2, action="append", metavar=("NAME", "VALUE"),
                   help="papermill parameter (JSON value); a run with parameters other than the profile's goes to its "
                   "own folder reports/runs/<paper>/<notebook>/<profile>-<hash>/, never replacing the reproduction")
    p.add_argument("--profile", choices=PROFILES, default="quick")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("reproduce", help="run every notebook and build reports/<profile>/index.html")
    p.add_argument("--profile", choices=PROFILES, default="quick")
    p.add_argument("--only", help="regular expression on <paper>/<notebook>")
    p.add_argument("--resume", action="store_true", help="keep runs that finished ok and whose notebook and reachable "
                   "package code are unchanged (runs.csv's code_version); run the rest")
    p.add_argument("--jobs", type=int, default=1, help="notebooks run side by side, one kernel each (default 1; "
                   "the paper profile uses 2 on a 2-core machine), longest first by the last recorded time")
    p.add_argument("--max-memory", type=float, default=None, metavar="GB", help="stop a notebook whose kernel's resident "
                   "memory passes GB and record it as 'memory' (default: no limit; make reproduce: 45%% of RAM per job)")
    p.add_argument("--timeout", type=float, default=None, help="seconds any one cell may run before the notebook is "
                   "stopped and recorded as 'timeout' (default: 1800 in ci/quick, 14400 in paper)")
    p.set_defaults(func=cmd_reproduce)

    p = sub.add_parser("report", help="rebuild reports/<profile>/index.html from existing outputs")
    p.add_argument("--profile", choices=PROFILES, default="quick")
    p.set_defaults(func=cmd_report)

    from ..experiments import report_stability

    p = sub.add_parser("stability", help=report_stability.DESCRIPTION)
    report_stability.add_arguments(p)
    p.set_defaults(func=report_stability.command)

    p = sub.add_parser("index", help="rewrite the landing notebook notebooks/index.ipynb (+ index.py) from the notebook list")
    p.add_argument("--check", action="store_true", help="only report whether it is current (exit 1 when stale)")
    p.set_defaults(func=cmd_index)

    p = sub.add_parser("bench", help="run benchmarks/ and write reports/bench.csv")
    p.add_argument("--only", help="regular expression on benchmark file names")
    p.add_argument("--output", help="CSV path (default reports/bench.csv)")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("privacy-table", help="print the privacy harness table (every release entry point, its "
                       "neighbouring relation, claimed ε and public inputs) as Markdown")
    p.set_defaults(func=cmd_privacy_table)

    p = sub.add_parser("layers", help="check the package's layers (core, papers, comparisons) with import-linter")
    p.set_defaults(func=cmd_layers)

    p = sub.add_parser("lab", help="start JupyterLab on notebooks/index.ipynb (the notebook gallery)")
    p.add_argument("--port", type=int, default=0, help="port (default: JupyterLab's, 8888 or the next free one)")
    p.add_argument("--ip", default="", help="interface to listen on (default: JupyterLab's, localhost)")
    p.add_argument("--no-browser", action="store_true", help="do not open a web browser")
    p.add_argument("--root", default="", help="directory JupyterLab serves (default: the project; opens <root>/notebooks/index.ipynb)")
    p.add_argument("--print-command", action="store_true", help="print the JupyterLab command instead of running it")
    p.add_argument("jupyter_args", nargs=argparse.REMAINDER, help="further JupyterLab options, after --")
    p.set_defaults(func=cmd_lab)

    p = sub.add_parser("teach", help="serve a learn_ notebook as a Voilà app on localhost (widgets and figures, no code)")
    p.add_argument("notebook", nargs="?", default="",
                   help="learn_<name>, <paper>/learn_<name> or a path (default: the notebooks/ tree)")
    p.add_argument("--port", type=int, default=8866, help="port (default: 8866)")
    p.add_argument("--ip", default="127.0.0.1", help="interface (default: 127.0.0.1, this machine only)")
    p.add_argument("--no-browser", action="store_true", help="do not open a web browser")
    p.add_argument("--list", action="store_true", help="list the teaching notebooks and exit")
    p.add_argument("--print-command", action="store_true", help="print the Voilà command instead of running it")
    p.add_argument("--voila-option", dest="voila_args", action="append", default=[], metavar="OPTION",
                   help="a further Voilà option, e.g. --voila-option=--theme=dark (repeatable)")
    p.set_defaults(func=cmd_teach)

    from ..papers import papers

    for paper in papers():  # discovered: a paper with a ``cli`` module adds its subcommand
        if paper.has("cli"):
            importlib.import_module(paper.module("cli")).register(sub)
    from .release import register as register_release

    register_release(sub)
    from .common import document_defaults

    return document_defaults(parser)  # every flag's help states its default


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from .common import run_handler

    return run_handler(args.func, args)  # bad input, Ctrl-C, a closed pipe: one line, never a traceback


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
