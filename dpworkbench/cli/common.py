"""Shared plumbing of the ``dpworkbench`` subcommands: what a CLI user sees when something goes wrong, JSON that is
always valid, warnings on extreme ε, progress bars on stderr, and help text that states every default.

Why one module: every paper subcommand must behave the same way at the edges (a bad file, a closed pipe, Ctrl-C,
an ε of 1e9), and a fix made once here reaches all of them.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

# ε outside this range is allowed (the mechanism decides what it accepts) but a user should hear what it means.
EPSILON_WARN_HIGH = 20.0
EPSILON_WARN_LOW = 1e-3

# Exit codes: 2 = bad input (argparse uses it too), 130 = Ctrl-C, 141 = closed pipe (128 + SIGPIPE, as shells
# report it), 70 = an internal error (EX_SOFTWARE): a bug, still shown as one line.
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141
EXIT_INTERNAL = 70

TRACEBACK_ENV = "DPWORKBENCH_TRACEBACK"  # set to 1 to let internal errors raise (for debugging the workbench)
PROGRESS_ENV = "DPWORKBENCH_PROGRESS"  # 1 forces progress bars on (tests), 0 forces them off


class CLIInputError(ValueError):
    """Bad user input, with a message that already names the file, flag or column."""


def warn(message: str) -> None:
    """One ``warning:`` line on stderr (stdout stays the result, so ``--json | jq`` keeps working)."""
    print(f"warning: {message}", file=sys.stderr)


def _one_line(text: str) -> str:
    lines = [ln.strip() for ln in str(text).strip().splitlines() if ln.strip()]
    return lines[0] if lines else ""


def describe_error(exc: BaseException) -> str:
    """One line for an exception raised by a subcommand. Input errors keep their own message (it names the file,
    flag or column); anything else is labelled an internal error with its type."""
    if isinstance(exc, UnicodeDecodeError):
        where = f" at byte {exc.start}" if exc.start is not None else ""
        return f"input is not UTF-8 text ({exc.encoding} cannot decode{where}); re-save the file as UTF-8"
    if isinstance(exc, (FileNotFoundError, IsADirectoryError, PermissionError, NotADirectoryError)):
        name = getattr(exc, "filename", None)
        what = {FileNotFoundError: "not found", IsADirectoryError: "is a folder, not a file",
                PermissionError: "permission denied", NotADirectoryError: "a parent is not a folder"}[type(exc)]
        return f"{name}: {what}" if name else _one_line(exc)
    if isinstance(exc, (ValueError, OSError)):
        return _one_line(exc) or type(exc).__name__
    return f"internal error ({type(exc).__name__}: {_one_line(exc)}); set {TRACEBACK_ENV}=1 for the traceback"


def _silence_stdout() -> None:
    # After a closed pipe, Python's final flush of stdout would raise again at exit (and print "Exception ignored").
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # stdout is not a real file (tests capture it)
        pass


def run_handler(func: Callable[[argparse.Namespace], Any], args: argparse.Namespace) -> int:
    """Run a subcommand's handler so that a CLI user never sees a traceback: bad input → one ``error:`` line and
    exit 2; Ctrl-C → ``interrupted`` and 130; a reader that closed the pipe (``| head``) → silent 141; any other
    exception → one ``error: internal error …`` line and 70 (``DPWORKBENCH_TRACEBACK=1`` re-raises it)."""
    try:
        code = int(func(args) or 0)
        sys.stdout.flush()  # a closed pipe shows up here, inside the handler, not at interpreter exit
        return code
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except (ValueError, OSError) as exc:  # UnicodeDecodeError and the pandas/duckdb input errors are among these
        if os.environ.get(TRACEBACK_ENV) == "1":
            raise
        print(f"error: {describe_error(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one line, never a traceback
        if os.environ.get(TRACEBACK_ENV) == "1":
            raise
        if _is_input_error(exc):
            print(f"error: {describe_error(ValueError(str(exc)))}", file=sys.stderr)
            return EXIT_BAD_INPUT
        print(f"error: {describe_error(exc)}", file=sys.stderr)
        return EXIT_INTERNAL


def _is_input_error(exc: BaseException) -> bool:
    """pandas' and DuckDB's errors about the user's files or query (not ValueError subclasses everywhere)."""
    mod = type(exc).__module__ or ""
    if mod.startswith("pandas.errors"):
        return True
    return mod.startswith("duckdb") and type(exc).__name__ in {
        "BinderException", "ParserException", "CatalogException", "InvalidInputException", "ConversionException",
        "IOException", "HTTPException", "SyntaxException"}


# --- reading a user's files -------------------------------------------------------------------------------------------
def check_input_file(path: str | Path, what: str) -> Path:
    """``path`` as a Path after checking it is an existing, non-empty, readable file; messages name ``what``
    (e.g. ``"CSV"``, ``"--table orders"``) and the path."""
    p = Path(path)
    if not p.exists():
        raise CLIInputError(f"{what} file not found: {p}")
    if p.is_dir():
        raise CLIInputError(f"{what} {p} is a folder, not a file")
    if not os.access(p, os.R_OK):
        raise CLIInputError(f"{what} {p} is not readable (permission denied)")
    if p.stat().st_size == 0:
        raise CLIInputError(f"{what} {p} is empty: not even a header row")
    return p


def check_output_path(path: str | Path, flag: str) -> Path:
    """Check, before any work or privacy budget is spent, that ``path`` can be written: its folder exists and is
    writable and it is not a folder itself."""
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise CLIInputError(f"{flag} {p} is a folder; give a file name")
    if not parent.is_dir():
        raise CLIInputError(f"{flag} {p}: folder {parent} does not exist (create it first)")
    if not os.access(parent, os.W_OK):
        raise CLIInputError(f"{flag} {p}: folder {parent} is not writable")
    return p


def write_csv_atomic(df, path: str | Path) -> None:
    """Write ``df`` to ``path`` via a temporary file in the same folder and an atomic rename: a reader (or a crash
    half-way) never sees a half-written file."""
    import tempfile

    p = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent if str(p.parent) else ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            df.to_csv(fh, index=False)
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# --- edge lists -------------------------------------------------------------------------------------------------------
class EdgeListScan:
    """A user's edge list read line by line (:func:`dpworkbench.graphs.read_edge_lines`) and what the graph rule
    dropped. The counts depend on the graph, so a release command prints them only with ``--show-exact``,
    labelled NOT PRIVATE."""

    def __init__(self, raw, counts: dict[str, int]):
        import numpy as np

        self.raw = raw  # the (lines, 2) int64 array of node ids as read
        keep = raw[raw[:, 0] != raw[:, 1]]
        und = np.sort(keep, axis=1)
        self.counts = {**counts, "self_loops_dropped": int(raw.shape[0] - keep.shape[0]),
                       "duplicate_edges_dropped": int(und.shape[0] - (np.unique(und, axis=0).shape[0] if und.size else 0))}

    def graph(self):
        """The simple undirected graph, node ids relabelled densely 0..n-1 (as ``load_edge_list`` builds it)."""
        import numpy as np

        from ..graphs import from_edge_array

        ids, inv = np.unique(self.raw.ravel(), return_inverse=True)
        return from_edge_array(inv.reshape(-1, 2), n=ids.size)

    def exact(self) -> dict:
        return dict(self.counts)

    def on_nodes(self, ids=None):
        """``(edges, ids)``: the lines as indices into a public node set ``ids`` (sorted integer ids, e.g. from
        :func:`read_node_set`; ``None``: the ids in the edge list, derived from the data). A line naming a node
        outside the set maps outside 0..n−1 (−1), so the caller's graph rule drops it — never quoted."""
        import numpy as np

        ids = np.unique(self.raw.ravel()) if ids is None else ids
        flat = self.raw.ravel()
        pos = np.searchsorted(ids, flat).clip(0, max(ids.size - 1, 0))
        hit = (ids[pos] == flat) if ids.size else np.zeros(flat.size, bool)
        return np.where(hit, pos, -1).reshape(-1, 2), ids

    @staticmethod
    def notes() -> list[str]:
        """Public remarks: the input rule (no counts, no line)."""
        return ["a line is an edge iff its first two fields are integer node ids; any other line (header, comment, "
                "malformed) is dropped, and so are self-loops and repeated edges (how many is an exact count of the "
                "data: shown only with --show-exact)"]


def scan_edge_list(path: str | Path, what: str = "edge list") -> EdgeListScan:
    """Read an edge list by the one-line-at-most-one-edge rule of :func:`dpworkbench.graphs.read_edge_lines`:
    nothing a line holds causes a refusal or appears in a message (issue 21); only a missing or unreadable file is
    refused, naming the path."""
    from ..graphs import read_edge_lines

    try:
        raw, counts = read_edge_lines(path)
    except ValueError as exc:
        raise CLIInputError(str(exc)) from None
    return EdgeListScan(raw, counts)


def read_node_set(path: str | Path, flag: str = "--nodes"):
    """A public node set: one node id per line (blank lines and ``#`` comments skipped), as a sorted unique int64
    array. Every line is typed by the edge list's public id rule (:data:`dpworkbench.graphs.io.NODE_ID`, read as
    int64 exactly as :func:`~dpworkbench.graphs.read_edge_lines` reads an edge's ids), so the ids match the edge
    list's and no value in the file can change how another is read (pandas' inference made a column of ids uint64,
    then wrapped, when one id passed 2^63). Public input: a line that is not an id is refused, quoting it."""
    import re

    import numpy as np
    import pyarrow as pa

    from .._validation import read_user_bytes
    from ..graphs.io import NODE_ID, node_ids_int64

    check_input_file(path, flag)
    try:
        text = read_user_bytes(path, flag).decode("utf-8")  # a .gz file decompressed, as an edge list is
    except UnicodeDecodeError:
        raise ValueError(f"{flag} {path} is not UTF-8 text; re-save it as UTF-8") from None
    tokens = []
    for i, line in enumerate(text.splitlines(), 1):
        t = line.strip()
        if not t or t.startswith("#"):
            continue
        if not re.fullmatch(NODE_ID, t):
            raise ValueError(f"{flag} {path} line {i}: {t[:40]!r} is not a node id (one integer of at most 18 digits "
                             "per line, as in the edge list)")
        tokens.append(t)
    if not tokens:
        raise ValueError(f"{flag} {path} is empty: give one node id per line")
    return np.unique(node_ids_int64(pa.array(tokens, type=pa.string()))).astype(np.int64)


# --- ε ----------------------------------------------------------------------------------------------------------------
def epsilon_warnings(epsilon: float, flag: str = "--epsilon") -> list[str]:
    """What an extreme ε means, in words (empty for an ordinary ε). ε is public, so this reveals nothing."""
    if epsilon > EPSILON_WARN_HIGH:
        return [f"{flag} {epsilon:g} is very large: e^ε = {_exp_text(epsilon)}, so the release gives essentially no "
                "privacy (values near the exact answer)"]
    if epsilon < EPSILON_WARN_LOW:
        return [f"{flag} {epsilon:g} is very small: the noise will swamp any answer (expect a useless estimate)"]
    return []


def _exp_text(x: float) -> str:
    return f"{math.exp(x):.3g}" if x < 700 else f"10^{x / math.log(10):.3g}"


def warn_epsilon(epsilon: float, flag: str = "--epsilon") -> list[str]:
    msgs = epsilon_warnings(epsilon, flag)
    for m in msgs:
        warn(m)
    return msgs


# --- JSON -------------------------------------------------------------------------------------------------------------
def json_safe(obj: Any) -> tuple[Any, dict[str, str]]:
    """A copy of ``obj`` that is valid JSON (numpy → Python; NaN/±inf → null), and for every value written as null a
    reason keyed by its path (``"private.N"``: ``"NaN (undefined: ...)"``)."""
    import numpy as np

    reasons: dict[str, str] = {}

    def walk(x: Any, path: str) -> Any:
        if isinstance(x, dict):
            return {str(k): walk(v, f"{path}.{k}" if path else str(k)) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [walk(v, f"{path}[{i}]") for i, v in enumerate(x)]
        if isinstance(x, np.ndarray):
            return walk(x.tolist(), path)
        if isinstance(x, np.generic):
            x = x.item()
        if isinstance(x, float) and not math.isfinite(x):
            reasons[path] = ("NaN: undefined here (e.g. an average over no selected rows)" if math.isnan(x)
                             else f"{'+' if x > 0 else '-'}infinity: not a finite number")
            return None
        if isinstance(x, (str, int, float, bool)) or x is None:
            return x
        return str(x)

    return walk(obj, ""), reasons


def print_json(obj: Any, *, indent: int | None = None) -> None:
    """Print ``obj`` as one valid JSON document (``allow_nan=False``); values that were NaN/inf are null and
    listed under ``null_reasons``."""
    safe, reasons = json_safe(obj)
    if reasons and isinstance(safe, dict):
        safe["null_reasons"] = {**(safe.get("null_reasons") or {}), **reasons}
    print(json.dumps(safe, indent=indent, allow_nan=False, ensure_ascii=False))


def release_json(release, *, noise: str, show_exact: bool = False, label: str = "value") -> dict:
    """``accounting.release_payload`` plus ``null_reasons``: the payload already writes NaN/inf as null, and this
    says, per field, why a value is null (the reasons are found on the release itself, before that conversion)."""
    from ..accounting import release_payload

    out = release_payload(release, noise=noise, show_exact=show_exact, label=label)
    raw = {"private": {label: release.value, **dict(release.details)}, "public": dict(release.public)}
    if show_exact:
        raw["NOT_PRIVATE"] = dict(release.exact)
    _, reasons = json_safe(raw)
    if reasons:
        out["null_reasons"] = reasons
    return out


# --- progress ---------------------------------------------------------------------------------------------------------
def progress_enabled(args: argparse.Namespace | None = None) -> bool:
    """Progress bars go to stderr only for a person at a terminal: never with ``--json``, never when stderr is a
    file or pipe (logs stay clean). ``DPWORKBENCH_PROGRESS=1``/``0`` overrides the terminal check."""
    if args is not None and getattr(args, "json", False):
        return False
    forced = os.environ.get(PROGRESS_ENV)
    if forced in ("0", "1"):
        return forced == "1"
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


class Stages:
    """A tqdm bar over the named stages of one command (``with Stages(args, ["read", "solve"]) as st:
    st.next("read")``). ``add(n)`` grows the bar when a stage turns out to have n sub-steps (R2T's τ grid)."""

    def __init__(self, args: argparse.Namespace | None, names: list[str], desc: str):
        from tqdm import tqdm  # the terminal bar: a CLI never runs inside a notebook front-end

        self._bar = tqdm(total=len(names), desc=desc, file=sys.stderr, disable=not progress_enabled(args),
                         leave=False, unit="step", dynamic_ncols=True)
        self._started = False

    def next(self, name: str) -> None:
        if self._started:
            self._bar.update(1)
        self._started = True
        self._bar.set_postfix_str(name, refresh=True)

    def add(self, n: int) -> None:
        self._bar.total = (self._bar.total or 0) + int(n)
        self._bar.refresh()

    def tick(self, name: str | None = None) -> None:
        self._bar.update(1)
        if name:
            self._bar.set_postfix_str(name, refresh=False)

    def close(self) -> None:
        if self._started:
            self._bar.update(1)
        self._bar.close()

    def __enter__(self) -> "Stages":
        return self

    def __exit__(self, exc_type, *exc) -> None:
        if exc_type is None:
            self.close()
        else:
            self._bar.close()  # an error: leave the bar where it stopped, the error line follows


# --- help text --------------------------------------------------------------------------------------------------------
def _iter_parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):  # aliases map to the same parser
                yield from _iter_parsers(sub)


def _default_text(action: argparse.Action) -> str | None:
    """How a flag's default reads in its help, or None when the help already says it."""
    if action.default is argparse.SUPPRESS or action.required:
        return None
    if isinstance(action, (argparse._StoreTrueAction, argparse._StoreFalseAction)):
        return "off" if action.default is False else "on"
    if isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
        return None
    if action.default is None:
        return "none"
    if isinstance(action.default, list) and not action.default:
        return "none"
    return str(action.default)


def document_defaults(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Give every optional flag of ``parser`` and its subcommands a help text that states its default (appended as
    ``(default: X)`` unless the text already mentions one). Positional arguments get a help text if they lack one."""
    for p in _iter_parsers(parser):
        for action in p._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)) or action.help is argparse.SUPPRESS:
                continue
            if not action.option_strings:  # positional
                if not action.help:
                    action.help = action.dest.replace("_", " ")
                continue
            text = _default_text(action)
            helptext = action.help or ""
            if text is None:
                action.help = helptext or action.dest.replace("_", " ")
                continue
            if "default" in helptext.lower():
                continue
            sep = " " if helptext else ""
            action.help = f"{helptext}{sep}(default: {text.replace('%', '%%')})"
    return parser


def undocumented_flags(parser: argparse.ArgumentParser) -> list[str]:
    """Optional flags whose help text is missing or does not state a default (for the help test)."""
    bad = []
    for p in _iter_parsers(parser):
        for action in p._actions:
            if not action.option_strings or isinstance(action, argparse._HelpAction) or action.help is argparse.SUPPRESS:
                continue
            helptext = action.help or ""
            if not helptext or (_default_text(action) is not None and "default" not in helptext.lower()):
                bad.append(f"{p.prog} {'/'.join(action.option_strings)}")
    return bad


__all__ = ["CLIInputError", "EPSILON_WARN_HIGH", "EPSILON_WARN_LOW", "Stages", "check_input_file", "check_output_path",
           "describe_error", "document_defaults", "epsilon_warnings", "json_safe", "print_json", "progress_enabled",
           "read_node_set", "release_json", "run_handler", "scan_edge_list", "EdgeListScan",
           "undocumented_flags", "warn", "warn_epsilon", "write_csv_atomic"]
