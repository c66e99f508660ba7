"""Unstable verdicts (issue 24): a claim whose verdict flips across three seeds is marked ``unstable`` in the report.

The profile's run (seed s, ``reports/<profile>``) is the first seed; :func:`run_stability` reruns notebooks with
seeds s + 1 and s + 2 into ``reports/stability/<profile>/seed+<k>/<paper>/<notebook>`` (their own folders: they never
replace the reproduction, ``reproduce --resume`` never keeps them, and their datasets and figures stay out of the
profile's report). :func:`stability_table` lines up every claim's verdicts by (notebook, claim) and writes
``stability.csv`` beside them; :func:`~dpworkbench.experiments.report.build_report` then adds an ``unstable`` column to
``claims.csv`` (``yes`` / ``no``, empty for a claim no other seed ran) and marks the claims in the report.

Only the notebooks asked for are rerun (``only``, a regular expression as for ``reproduce``), so the cost is chosen:
the ci profile reruns every notebook in minutes, the quick profile a chosen few.

    python -m dpworkbench.experiments.report_stability --profile ci [--only REGEX] [--seeds 3]
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path
from typing import Any

import pandas as pd

#: Seeds a claim is checked on (the profile's seed s, then s + 1, …): "flips across 3 seeds" (issue 24)
SEEDS = 3
#: The columns of ``stability.csv``.
COLUMNS = ["notebook", "claim", "seeds", "verdicts", "unstable"]


def stability_root(profile_dir: Path) -> Path:
    """``reports/stability/<profile>`` for ``reports/<profile>``."""
    profile_dir = Path(profile_dir)
    return profile_dir.parent / "stability" / profile_dir.name


def base_seed(info) -> int:
    """The seed the profile's run of ``info`` uses: its manifest entry's, else its parameters cell's default."""
    from .nbtools import notebook_parameters

    own = dict(info.parameters)
    value: Any = own["seed"] if "seed" in own else notebook_parameters(info.path).get("seed")
    if isinstance(value, str):
        value = ast.literal_eval(value)
    if value is None:
        raise ValueError(f"{info.name} has no seed parameter")
    return int(value)


def has_seed(info) -> bool:
    from .nbtools import notebook_parameters

    return "seed" in dict(info.parameters) or "seed" in notebook_parameters(info.path)


def run_stability(profile: str, *, only: str | None = None, seeds: int = SEEDS, timeout: int | None = 1800,
                  reports: Path | None = None, progress: bool = True) -> pd.DataFrame:
    """Rerun the notebooks matching ``only`` (reproductions with a ``seed`` parameter) with seeds s + 1 … s + seeds − 1
    and write ``stability.csv``; returns :func:`stability_table`. The profile's own run (seed s) must exist for a
    claim to be compared: a notebook without one is run at s too, into the stability folder."""
    from ..paths import reports_dir
    from .nbtools import discover_notebooks, run_notebook

    if seeds < 2:
        raise ValueError(f"seeds must be at least 2 to compare verdicts, got {seeds}")
    profile_dir = (Path(reports) if reports is not None else reports_dir()) / profile
    root = stability_root(profile_dir)
    infos = [i for i in discover_notebooks(only) if i.kind == "reproduction" and has_seed(i)]
    for info in infos:
        s = base_seed(info)
        offsets = list(range(1, seeds))
        if not (profile_dir / info.paper / info.stem / "claims.json").exists():
            offsets = [0, *offsets]  # no profile run to compare with: run seed s here too
        for k in offsets:
            out = root / f"seed+{k}" / info.paper / info.stem
            res = run_notebook(info, profile=profile, output_root=root, parameters={"seed": s + k}, out_dir=out,
                               timeout=timeout, html=False)
            if progress:
                print(f"{info.name} seed {s + k}: {res.status} in {res.seconds:.1f}s", flush=True)
    return write_stability(profile_dir)


def _claims(path: Path) -> list[dict]:
    try:
        return json.loads(path.read_text()) if path.exists() else []
    except ValueError:
        return []


def stability_table(profile_dir: Path) -> pd.DataFrame:
    """Every claim of a notebook that another seed also ran, with its verdict per seed and whether it flips.

    ``seeds`` counts the seeds the claim was made on (a claim missing in a seed's run, e.g. a failed run, is compared on
    the others); ``verdicts`` reads ``s+0:pass s+1:differs …``; ``unstable`` is True when the verdicts are not all the
    same. Claims are matched by notebook and claim text.
    """
    profile_dir = Path(profile_dir)
    root = stability_root(profile_dir)
    if not root.is_dir():
        return pd.DataFrame(columns=COLUMNS)
    runs: dict[int, Path] = {}
    for d in sorted(root.glob("seed+*")):
        try:
            runs[int(d.name.split("+", 1)[1])] = d
        except ValueError:
            continue
    verdicts: dict[tuple[str, str], dict[int, str]] = {}
    notebooks = {f"{p.parent.parent.name}/{p.parent.name}" for d in runs.values() for p in d.glob("*/*/claims.json")}
    for nb in sorted(notebooks):
        # seed s is the profile's run, unless the stability folder ran it itself (no profile run when it was made)
        sources = {0: profile_dir / nb / "claims.json"}
        sources.update({k: d / nb / "claims.json" for k, d in runs.items() if (d / nb / "claims.json").exists()})
        for k, path in sorted(sources.items()):
            for row in _claims(path):
                verdicts.setdefault((nb, str(row.get("claim"))), {})[k] = str(row.get("verdict"))
    rows = [{"notebook": nb, "claim": claim, "seeds": len(v), "verdicts": " ".join(f"s+{k}:{x}" for k, x in sorted(v.items())),
             "unstable": len(set(v.values())) > 1}
            for (nb, claim), v in verdicts.items() if len(v) >= 2]
    return pd.DataFrame(rows, columns=COLUMNS)


def write_stability(profile_dir: Path) -> pd.DataFrame:
    """:func:`stability_table` written to ``reports/stability/<profile>/stability.csv``."""
    from .runner import atomic_write_csv

    table = stability_table(profile_dir)
    root = stability_root(profile_dir)
    root.mkdir(parents=True, exist_ok=True)
    atomic_write_csv(table, root / "stability.csv")
    return table


def unstable_column(claims: pd.DataFrame, profile_dir: Path) -> pd.Series:
    """``claims.csv``'s ``unstable`` column: ``yes`` / ``no`` for a claim other seeds ran, empty otherwise."""
    table = stability_table(profile_dir)
    if not len(table) or not len(claims):
        return pd.Series([""] * len(claims), index=claims.index, dtype=object)
    flag = {(r.notebook, r.claim): ("yes" if r.unstable else "no") for r in table.itertuples()}
    return pd.Series([flag.get((nb, str(c)), "") for nb, c in zip(claims["notebook"], claims["claim"])], index=claims.index,
                     dtype=object)


DESCRIPTION = ("rerun notebooks with seeds s+1, s+2 and mark claims whose verdict flips "
               "(then rebuild the report: dpworkbench report --profile P)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The flags, shared by ``dpworkbench stability`` and ``python -m dpworkbench.experiments.report_stability``."""
    from .context import PROFILES

    p.add_argument("--profile", choices=PROFILES, default="ci")
    p.add_argument("--only", help="regular expression on <paper>/<notebook> (default: every reproduction notebook)")
    p.add_argument("--seeds", type=int, default=SEEDS, help=f"seeds per claim, the profile's included (default {SEEDS})")
    p.add_argument("--timeout", type=float, default=1800, help="seconds any one cell may run")


def command(args: argparse.Namespace) -> int:
    if args.seeds < 2:
        print(f"--seeds must be at least 2, got {args.seeds}", file=sys.stderr)
        return 2
    from ..paths import reports_dir

    table = run_stability(args.profile, only=args.only, seeds=args.seeds, timeout=int(args.timeout))
    n = int(table["unstable"].sum()) if len(table) else 0
    print(f"{n} of {len(table)} claims unstable across {args.seeds} seeds -> "
          f"{stability_root(reports_dir() / args.profile) / 'stability.csv'}")
    for r in table[table["unstable"]].itertuples() if n else []:
        print(f"  {r.notebook}: {r.claim} ({r.verdicts})")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m dpworkbench.experiments.report_stability", description=DESCRIPTION)
    add_arguments(p)
    return command(p.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
