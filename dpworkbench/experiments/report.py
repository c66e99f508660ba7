"""The report index: a gallery of every notebook plus runs.csv, claims.csv and checks.csv.

``reports/<profile>/index.html`` is rebuilt from what is on disk (executed
notebooks, ``manifest.json`` and ``claims.json`` per notebook, ``runs.csv``), so
``dpworkbench report`` works after an interrupted or partial ``reproduce``.

The top of that page is the notebook gallery, the same one as the landing notebook
``notebooks/index.ipynb`` (written by ``dpworkbench index``,
:mod:`dpworkbench.experiments.index_notebook`, with :func:`gallery_markdown`; its thumbnails come
from :func:`notebook_gallery`):
the four works in a few lines, then every notebook grouped by paper, one line
each, with a figure thumbnail where a report holds one.
"""

from __future__ import annotations

import base64
import functools
import html
import json
import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .claims import ClaimsIncomplete, claim_row_problems, rule_text
from .nbtools import NotebookInfo, describe_notebook, discover_notebooks, notebook_groups
from .runner import atomic_write_csv, atomic_write_text

PAPER_TITLES = {
    "mechanisms": "DP mechanisms (teaching)",
    "inconsistency": "DP inconsistency measures (seeds 000, 003)",
    "r2t": "R2T and OPT² (seed 001)",
    "privateclean": "PrivateClean (seed 002)",
    "dampening": "Local dampening (seed 004)",
}

# The four works, in a few lines each (shared by the report and the landing notebook).
WORKS = {
    "inconsistency": (
        "How inconsistent is a database with its denial constraints, measured under differential privacy: "
        "conflict graphs, the measures I_D, I_MI, I_P, I_R, I_MC, graph projection with a privately chosen "
        "degree bound θ, and a private vertex cover."
    ),
    "r2t": (
        "Race-to-the-top (R2T): instance-optimal truncation for SPJA queries with foreign-key joins (self-joins "
        "included), LP-based truncation, node-DP graph pattern counting and TPC-H queries; OPT² for the "
        "optimal truncation of sums."
    ),
    "privateclean": (
        "PrivateClean: a relation privatized once with generalized randomized response, then cleaned and "
        "queried; COUNT/SUM/AVG estimates corrected for the privacy noise and for the cleaning."
    ),
    "dampening": (
        "Local dampening: the exponential mechanism with local instead of global sensitivity (LD and shifted "
        "LD) for the median, the top-k most influential nodes of a graph (egocentric betweenness), and private ID3 trees."
    ),
}
WORKS_INTRO = (
    "dpworkbench reproduces the figures and tables of four works on differential privacy for relational "
    "and graph data, over a shared core of DP mechanisms (Laplace, geometric, exponential, permute-and-flip, "
    "report-noisy-max, sparse vector, randomized response). Every notebook says whether it used the real "
    "data or its seeded synthetic stand-in; `learn_*` notebooks are for teaching, with widgets."
)

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em;max-width:1300px;color:#222}
h1{margin-bottom:0}.sub{color:#666;margin-top:.2em}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(290px,1fr));gap:14px}
.card{border:1px solid #ddd;border-radius:8px;padding:10px;background:#fafafa}
.card img{width:100%;border:1px solid #eee;background:white}
.card h4{margin:.2em 0;font-size:1em}.card p{font-size:.85em;color:#444;margin:.3em 0}
.ok{color:#1a7f37;font-weight:bold}.error{color:#b00;font-weight:bold}.missing{color:#888}
table{border-collapse:collapse;font-size:.85em;margin:1em 0}td,th{border:1px solid #ddd;padding:3px 6px;text-align:left}
.unstable{color:#8a4b00;font-weight:bold;font-size:.85em}.pass{background:#e6ffec}.differs{background:#fff4e5}.not-comparable{background:#f0f0f0}
.works{font-size:.92em;color:#333}.works li{margin:.25em 0}
.thumb{height:150px;display:flex;align-items:center;justify-content:center;background:#fff;border:1px dashed #ddd;color:#999;font-size:.8em}
"""



@dataclass(frozen=True)
class GalleryEntry:
    """One notebook in the gallery: where it lives and its latest outputs, if any."""

    info: NotebookInfo
    output_dir: Path | None  # reports/<profile>/<paper>/<stem> of the newest run found
    thumbnail: Path | None  # a PNG figure of that run


def _thumbnail(out_dir: Path) -> Path | None:
    mp = out_dir / "manifest.json"
    if mp.exists():
        try:
            figs = json.loads(mp.read_text()).get("figures", [])
        except ValueError:
            figs = []
        for f in figs:
            if f.get("png") and (out_dir / f["png"]).exists():
                return out_dir / f["png"]
    pngs = sorted((out_dir / "figures").glob("*.png"))
    return pngs[0] if pngs else None


def latest_output_dir(info: NotebookInfo, reports_root: Path | None = None, prefer: str | None = None) -> Path | None:
    """The newest ``reports/<profile>/<paper>/<stem>`` holding a run of ``info`` (``prefer``'s profile first)."""
    from ..paths import reports_dir

    root = Path(reports_root) if reports_root is not None else reports_dir()
    if not root.is_dir():
        return None
    found = []
    for profile_dir in root.iterdir():
        d = profile_dir / info.paper / info.stem
        if d.is_dir() and ((d / "manifest.json").exists() or (d / "figures").is_dir()):
            ref = d / "manifest.json" if (d / "manifest.json").exists() else d / "figures"
            found.append((profile_dir.name == prefer, _thumbnail(d) is not None, ref.stat().st_mtime, d))
    return max(found, key=lambda t: t[:3])[3] if found else None


def gallery_entries(infos: list[NotebookInfo] | None = None, *, reports_root: Path | None = None, prefer: str | None = None) -> list[GalleryEntry]:
    """Every notebook (``discover_notebooks()`` order) with its newest outputs and thumbnail."""
    infos = discover_notebooks() if infos is None else infos
    out = []
    for info in infos:
        d = latest_output_dir(info, reports_root, prefer)
        out.append(GalleryEntry(info, d, _thumbnail(d) if d is not None else None))
    return out


def _grouped(infos: list) -> list[tuple[str, list]]:
    key = (lambda x: x.info.paper) if infos and isinstance(infos[0], GalleryEntry) else (lambda x: x.paper)
    groups = notebook_groups()
    papers = [p for p in groups if any(key(i) == p for i in infos)]
    papers += sorted({key(i) for i in infos} - set(groups))
    return [(p, [i for i in infos if key(i) == p]) for p in papers]


def gallery_markdown(infos: list[NotebookInfo] | None = None, *, link_prefix: str = "") -> list[tuple[str, str]]:
    """Markdown for the landing notebook: ``[(paper, text)]``, one section per paper, one line per notebook
    file (a notebook with several manifest runs is listed once, naming its runs).

    Links are relative (``<link_prefix><paper>/<stem>.ipynb``) so the notebook works wherever the
    repository is checked out.
    """
    infos = discover_notebooks() if infos is None else infos
    sections = []
    for paper, group in _grouped(infos):
        lines = [f"## {PAPER_TITLES.get(paper, paper)}"]
        if paper in WORKS:
            lines.append(f"*{WORKS[paper]}*")
        lines.append("")
        runs: dict[Path, list[NotebookInfo]] = {}
        for info in group:
            runs.setdefault(info.path, []).append(info)
        for path, same in runs.items():
            info = same[0]
            title = describe_notebook(path).title if info.parameters else info.title
            desc = " ".join(title.replace("|", "/").split())  # the notebook's own heading: what it shows
            if len(desc) > 220:
                desc = desc[:217].rstrip() + "…"
            if info.parameters:
                desc += " (runs: " + "; ".join(
                    f"`{i.stem}` with " + ", ".join(f"{k}={v!r}" for k, v in i.parameters) for i in same) + ")"
            kind = "🎓 " if info.kind == "teaching" else ""
            lines.append(f"- {kind}[`{path.stem}`]({link_prefix}{paper}/{path.name}) — {desc}")
        sections.append((paper, "\n".join(lines)))
    return sections


def _data_uri(png: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(png.read_bytes()).decode("ascii")


def gallery_html(entries: list[GalleryEntry], *, href, thumb_src, links=None, show_missing: bool = True) -> str:
    """The card grid, grouped by paper. ``href(entry)`` links a card's title, ``thumb_src(entry)``
    gives an image URL (or None), ``links(entry)`` extra HTML under the description."""
    parts = []
    for paper, group in _grouped(entries):
        parts.append(f"<h3>{html.escape(PAPER_TITLES.get(paper, paper))}</h3><div class='grid'>")
        for e in group:
            src = thumb_src(e)
            if src:
                img = f"<img src='{html.escape(src)}' alt='{html.escape(e.info.stem)}' loading='lazy'>"
            elif show_missing:
                img = "<div class='thumb'>no figure yet (run <code>make reproduce</code>)</div>" if e.output_dir is None else "<div class='thumb'>no PNG thumbnail</div>"
            else:
                img = ""
            extra = links(e) if links else ""
            parts.append(
                f"<div class='card'>{img}<h4><a href='{html.escape(href(e))}'>{html.escape(e.info.stem)}</a></h4>"
                f"<p>{html.escape(e.info.title)}</p><p>{html.escape(e.info.description)}</p>{extra}</div>"
            )
        parts.append("</div>")
    return "\n".join(parts)


def notebook_gallery(prefer: str | None = None, *, reports_root: Path | None = None):
    """Thumbnails for the landing notebook: the newest figure of every notebook, inlined as
    data URIs (so they show wherever JupyterLab was started). Degrades to a note when no
    report exists yet."""
    from IPython.display import HTML

    entries = gallery_entries(reports_root=reports_root, prefer=prefer)
    n_thumbs = sum(e.thumbnail is not None for e in entries)
    note = (
        f"<p class='sub'>{n_thumbs} of {len(entries)} notebooks have a figure thumbnail from a report run.</p>"
        if n_thumbs
        else "<p class='sub'>No thumbnails yet: <code>make reproduce</code> writes the figures "
        "(PNG needs a headless Chromium), then re-run this cell.</p>"
    )
    body = gallery_html(
        entries,
        href=lambda e: f"{e.info.paper}/{e.info.path.name}",
        thumb_src=lambda e: _data_uri(e.thumbnail) if e.thumbnail is not None else None,
        show_missing=n_thumbs > 0,
    )
    css = _CSS.replace("body{", ".dpwb-gallery{").replace("h1{", ".dpwb-gallery h1{")
    return HTML(f"<div class='dpwb-gallery'><style>{css}</style>{note}{body}</div>")


def _relpath(target: Path, start: Path) -> str:
    import os

    return Path(os.path.relpath(Path(target).resolve(), Path(start).resolve())).as_posix()


def _works_html() -> str:
    items = "".join(
        f"<li><b>{html.escape(PAPER_TITLES[p])}</b> — {html.escape(WORKS[p])} (<code>dpworkbench.{p}</code>)</li>" for p in WORKS
    )
    return f"<div class='works'><p>{html.escape(WORKS_INTRO).replace('`', '')}</p><ul>{items}</ul></div>"


def _collect(profile_dir: Path, infos: list[NotebookInfo]) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    runs_path = profile_dir / "runs.csv"
    runs = pd.read_csv(runs_path) if runs_path.exists() else pd.DataFrame(columns=["notebook", "status", "seconds"])
    claims_rows, problems = [], []
    manifests = {}
    for info in infos:
        d = profile_dir / info.paper / info.stem
        cp = d / "claims.json"
        if cp.exists():
            for row in json.loads(cp.read_text()):
                row = {"notebook": info.name, **row}
                problems += claim_row_problems(row)
                claims_rows.append({**row, "rule": rule_text(row)})  # the rule as text, derived from the stored rule
        mp = d / "manifest.json"
        if mp.exists():
            manifests[info.name] = json.loads(mp.read_text())
    if problems:  # one clear line naming the claim (and how many more there are)
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ClaimsIncomplete(f"report not built: {problems[0]}{more}")
    claims = pd.DataFrame(claims_rows, columns=CLAIMS_COLUMNS)
    return runs, claims, manifests


#: The columns of ``claims.csv``.
CLAIMS_COLUMNS = ["notebook", "claim", "source", "paper_value", "our_value", "verdict", "unstable", "rule", "cause", "note"]


def _stability_text(claims: pd.DataFrame, paper_claims: pd.DataFrame, root: Path, seeds: int) -> str:
    """The headline's sentence on unstable verdicts: how many claims were rerun on other seeds and how many flipped."""
    checked = claims["unstable"].isin(["yes", "no"])
    if not checked.any():
        return ("No claim was rerun on other seeds (unstable verdicts: <code>python -m "
                "dpworkbench.experiments.report_stability --profile …</code>)")
    n, n_paper = int((claims["unstable"] == "yes").sum()), int((paper_claims["unstable"] == "yes").sum())
    return (f"<b>{n}</b> of {int(checked.sum())} claims rerun on {seeds} seeds flip their verdict (<span class='unstable'>"
            f"unstable</span>; {n_paper} of them paper claims) — <a href='../stability/{html.escape(root.name)}/stability.csv'>"
            "stability.csv</a>")


#: Where the report lists the checks (source ``check``) apart from the claims (issue 24); same columns as claims.csv.
CHECKS_CSV = "checks.csv"


def split_checks(claims: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(claims, checks)``: the rows compared with a reference (``paper``, ``spec``, ``artifact``) and the ``check``
    rows (a property tested: sanity, theorem, pre-registered expectation), each in its original order."""
    is_check = claims["source"] == "check"
    return claims[~is_check].reset_index(drop=True), claims[is_check].reset_index(drop=True)


def claims_tally(claims: pd.DataFrame) -> dict:
    """What issue 24 asks the report to show: the paper claims' verdicts, the share of all passes that test a number
    the paper prints (``paper_share_of_passes``, NaN without passes) and how many non-passes have an ``open:`` cause."""
    from .claims import VERDICTS

    paper = claims[claims["source"] == "paper"]
    passes = claims[claims["verdict"] == "pass"]
    counts = paper["verdict"].value_counts().to_dict() if len(paper) else {}
    open_ = claims[(claims["verdict"] != "pass") & claims["cause"].astype(object).fillna("").astype(str).str.startswith("open:")]
    return {"paper": {v: int(counts.get(v, 0)) for v in VERDICTS},
            "passes": len(passes), "paper_passes": int((passes["source"] == "paper").sum()),
            "paper_share_of_passes": float((passes["source"] == "paper").mean()) if len(passes) else float("nan"),
            "open": len(open_), "open_differs": int((open_["verdict"] == "differs").sum())}


def verdict_tally(claims: pd.DataFrame) -> str:
    """``"12 pass, 3 differs, 1 not-comparable"`` (every verdict named, zeros included)."""
    from .claims import VERDICTS

    counts = claims["verdict"].value_counts().to_dict() if len(claims) else {}
    return ", ".join(f"{int(counts.get(v, 0))} {v}" for v in VERDICTS)


def refresh_notebook_pages(profile_dir: Path, infos: list[NotebookInfo]) -> list[Path]:
    """Re-render the HTML page of every executed notebook whose page is missing, older than the notebook or
    written before figures were drawn (no :data:`~dpworkbench.experiments.nbtools.HTML_MARKER`). Returns the
    pages written; a page that cannot be rendered is skipped (the notebook link still works)."""
    from ..plots import write_plotlyjs
    from .nbtools import HTML_MARKER, notebook_html

    written = []
    for info in infos:
        d = Path(profile_dir) / info.paper / info.stem
        executed, page = d / f"{info.stem}.ipynb", d / f"{info.stem}.html"
        if not executed.exists():
            continue
        if page.exists() and page.stat().st_mtime >= executed.stat().st_mtime:
            with page.open(encoding="utf-8", errors="replace") as fh:
                if HTML_MARKER in fh.read(4096):
                    continue
        try:
            js = write_plotlyjs(Path(profile_dir) / "_static" / "plotly.min.js")
            atomic_write_text(page, notebook_html(executed, js))
            written.append(page)
        except Exception:  # noqa: BLE001 - a broken executed notebook must not stop the report
            continue
    return written


def _review_notebook(executed: Path, *, teaching: bool = False) -> list[dict]:
    """Every plotly figure an executed notebook shows, with what a reviewer would reject in it, or ``ok``.

    Each figure is checked from its JSON (:func:`dpworkbench.plots.figure_problems`, as saved) and on the laid-out
    page (:func:`dpworkbench.plots.render.rendered_problems`: rendered once at its saved size in the shared headless
    Chromium; a ``teaching`` notebook's figures also as shown on a 1024×768 projector).
    """
    import plotly.graph_objects as go

    from ..plots import figure_problems
    from ..plots.render import rendered_problems

    rows = []
    nb = json.loads(executed.read_text())
    k = 0
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []):
            data = out.get("data", {}).get("application/vnd.plotly.v1+json")
            if not data:
                continue
            k += 1
            try:
                fig = go.Figure(data)
                title = " ".join(str(fig.layout.title.text or "").split())[:90]
                problems = figure_problems(fig)
                drawn = rendered_problems(fig, screen=teaching)
                problems += (["not rendered: no headless Chromium (playwright) for the laid-out checks"] if drawn is None
                             else [p for p in drawn if p not in problems])
            except Exception as exc:  # noqa: BLE001 - a figure plotly cannot rebuild is itself a finding
                title, problems = "", [f"plotly cannot rebuild this figure: {type(exc).__name__}: {exc}"]
            rows += [{"figure": k, "title": title, "problem": p} for p in problems or [FIGURE_OK]]
    return rows


@functools.lru_cache(maxsize=1)
def _reviewer_version() -> str:
    """Hash of the code that decides what a figure looks like and what is wrong with it: a change re-reviews."""
    import hashlib

    from .. import plots

    h = hashlib.sha256()
    for f in sorted(Path(plots.__file__).parent.glob("*.py")):
        h.update(f.read_bytes())
    return h.hexdigest()[:12]


#: The ``problem`` of a figure in which the review found nothing (one row per figure, so every figure is listed).
FIGURE_OK = "ok"


def _is_teaching(info: NotebookInfo) -> bool:
    """Learn notebooks are shown on a projector: their figures are also reviewed at 1024×768."""
    return info.stem.startswith("learn_") or info.paper == "teaching"


def figure_review(profile_dir: Path, infos: list[NotebookInfo]) -> pd.DataFrame:
    """Every figure of the report with what a reviewer would reject in it, or ``ok`` (see :func:`_review_notebook`).

    One row per finding (``ok`` for a clean figure): notebook, figure number (in the notebook's output order), its
    title, the problem.
    Each notebook's findings are kept in ``figure_review.json`` next to it and recomputed only when the
    executed notebook is newer.
    """
    rows = []
    for info in infos:
        d = Path(profile_dir) / info.paper / info.stem
        executed, cache = d / f"{info.stem}.ipynb", d / "figure_review.json"
        if not executed.exists():
            continue
        found = None
        if cache.exists() and cache.stat().st_mtime >= executed.stat().st_mtime:
            try:
                cached = json.loads(cache.read_text())
                if isinstance(cached, dict) and cached.get("reviewer") == _reviewer_version():
                    found = cached["rows"]
            except (ValueError, KeyError):
                found = None
        if found is None:
            try:
                found = _review_notebook(executed, teaching=_is_teaching(info))
            except (OSError, ValueError):
                continue
            atomic_write_text(cache, json.dumps({"reviewer": _reviewer_version(), "rows": found}, indent=1))
        rows += [{"notebook": info.name, **r} for r in found]
    return pd.DataFrame(rows, columns=["notebook", "figure", "title", "problem"])


def build_report(profile_dir: Path, profile: str) -> Path:
    """Write ``claims.csv``, ``checks.csv`` and ``index.html`` under ``profile_dir``; returns the index path."""
    profile_dir = Path(profile_dir)
    profile_dir.mkdir(parents=True, exist_ok=True)
    infos = discover_notebooks()
    refresh_notebook_pages(profile_dir, infos)
    runs, claims, manifests = _collect(profile_dir, infos)
    from .report_stability import SEEDS, stability_root, unstable_column

    # yes / no for a claim other seeds also ran (reports/stability/<profile>), empty when none did (issue 24)
    claims["unstable"] = unstable_column(claims, profile_dir)
    # Issue 24: the checks are listed apart. claims.csv holds what is compared with a reference outside our code (a
    # number the paper prints, a spec recomputation, the authors' artifact); checks.csv, with the same columns, the
    # sanity, theorem and pre-registered checks, which test a property rather than reproduce a number.
    every = claims
    claims, checks_only = split_checks(every)
    atomic_write_csv(claims, profile_dir / "claims.csv")
    atomic_write_csv(checks_only, profile_dir / CHECKS_CSV)
    review = figure_review(profile_dir, infos)
    atomic_write_csv(review, profile_dir / "figure_review.csv")
    from ..datasets.provenance import provenance_table  # which data each notebook used (its datasets.json)

    datasets_used = provenance_table(profile_dir)
    atomic_write_csv(datasets_used, profile_dir / "datasets.csv")
    atomic_write_text(profile_dir / "timing.md", timing_markdown(profile_dir, infos))
    status = {r.notebook: r for r in runs.itertuples()} if len(runs) else {}
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>dpworkbench report — "
        f"{html.escape(profile)}</title><style>{_CSS}</style></head><body>",
        f"<h1>dpworkbench — {html.escape(profile)} profile</h1>",
        f"<p class='sub'>Generated {time.strftime('%Y-%m-%d %H:%M:%S')}. "
        "Seeded noise in these runs is for reproducibility, not a private release.</p>",
    ]
    parts.append(_works_html())
    entries = []
    for info in infos:
        d = profile_dir / info.paper / info.stem
        has_run = d.is_dir() and ((d / "manifest.json").exists() or info.name in status)
        entries.append(GalleryEntry(info, d if has_run else None, _thumbnail(d) if d.is_dir() else None))

    def href(e: GalleryEntry) -> str:
        rel = f"{e.info.paper}/{e.info.stem}"
        return f"{rel}/{e.info.stem}.html" if (profile_dir / rel / f"{e.info.stem}.html").exists() else _relpath(e.info.path, profile_dir)

    def thumb_src(e: GalleryEntry) -> str | None:
        return e.thumbnail.relative_to(profile_dir).as_posix() if e.thumbnail is not None else None

    def links(e: GalleryEntry) -> str:
        info, rel = e.info, f"{e.info.paper}/{e.info.stem}"
        run = status.get(info.name)
        if run is None:
            badge = "<span class='missing'>not run</span>"
        else:
            cls = "ok" if run.status == "ok" else "error"
            badge = f"<span class='{cls}'>{html.escape(str(run.status))}</span> in {float(run.seconds):.1f} s"
        figs = manifests.get(info.name, {}).get("figures", [])
        lk = [f"<a href='{rel}/{info.stem}.html'>notebook</a>"] if (profile_dir / rel / f"{info.stem}.html").exists() else []
        lk += [f"<a href='{rel}/{html.escape(f['html'])}'>{html.escape(f['name'])}</a>" for f in figs if f.get("html")]
        nclaims = every[every["notebook"] == info.name]  # claims and checks
        claim_txt = ", ".join(f"{v} {k}" for k, v in nclaims["verdict"].value_counts().items()) if len(nclaims) else "no claims"
        from ..datasets.provenance import NO_DATASET

        used = datasets_used[(datasets_used["notebook"] == info.name) & (datasets_used["dataset"] != NO_DATASET)]
        data_txt = "; ".join(f"{html.escape(str(u.dataset))} ({html.escape(str(u.source))}"
                             + (f" for {html.escape(str(u.stands_in_for))}" if isinstance(u.stands_in_for, str) and u.stands_in_for else "")
                             + f", {int(u.rows_or_nodes):,})"
                             for u in used.drop_duplicates(["dataset", "source", "rows_or_nodes"]).itertuples())
        data_p = f"<p class='data'>data: {data_txt} — <a href='datasets.csv'>datasets.csv</a></p>" if data_txt else ""
        n_fig = int(((review["notebook"] == info.name) & (review["problem"] != FIGURE_OK)).sum())
        fig_txt = f" · <a href='#figure-review'>{n_fig} figure finding{'s' if n_fig != 1 else ''}</a>" if n_fig else ""
        return f"<p>{badge} · {claim_txt}{fig_txt}</p><p>{' · '.join(lk)}</p>{data_p}"

    parts.append("<h2>Notebooks</h2>")
    parts.append(gallery_html(entries, href=href, thumb_src=thumb_src, links=links))
    parts.append("<h2>Runs and claims</h2>")
    n_ok = int((runs["status"] == "ok").sum()) if len(runs) else 0
    n_err = int((runs["status"] != "ok").sum()) if len(runs) else 0
    total_s = float(runs["seconds"].sum()) if len(runs) else 0.0
    paper_claims, references = claims[claims["source"] == "paper"], claims[claims["source"] != "paper"]
    t, t_all = claims_tally(claims), claims_tally(every)
    tally_text = (f"{t['paper_passes']} of the {t['passes']} passes in claims.csv ({t['paper_share_of_passes']:.0%}) test a "
                  f"number the paper prints ({t_all['paper_passes']} of {t_all['passes']}, "
                  f"{t_all['paper_share_of_passes']:.0%}, with the checks); <b>{t_all['open']}</b> non-passes have an open "
                  f"cause ({t_all['open_differs']} of them differ). ") if t["passes"] else ""
    parts.append(
        f"<p><b>{n_ok}</b> notebooks executed without error, <b>{n_err}</b> with errors (or past a time or memory "
        f"limit), {len(infos) - len(runs)} not run; {total_s / 60:.1f} min of notebook time. "
        f"<b>Paper claims</b> (a value the paper prints): {verdict_tally(paper_claims)}. "
        f"Other references (spec recomputations, the authors' artifact — not counted as reproduction): "
        f"{verdict_tally(references)}. "
        f"Checks (sanity, theorem and pre-registered checks, listed apart in {CHECKS_CSV}): {verdict_tally(checks_only)}. "
        + tally_text
        + _stability_text(every, paper_claims, stability_root(profile_dir), SEEDS)
        + f" — <a href='claims.csv'>claims.csv</a>, <a href='{CHECKS_CSV}'>{CHECKS_CSV}</a>, <a href='runs.csv'>runs.csv</a>, "
        "<a href='timing.md'>timing.md</a> (time and verdicts per notebook)</p>"
    )
    for title, part in (("Reproduction table (paper claims)", paper_claims),
                        ("Other references (spec recomputations, the authors' artifact: not counted as reproduction)", references),
                        (f"Checks (not counted as reproduction; {CHECKS_CSV})", checks_only)):
        if not len(part):
            continue
        parts.append(f"<h2>{title}</h2><table><tr><th>notebook</th><th>claim</th><th>source</th><th>paper</th><th>ours</th>"
                     "<th>verdict</th><th>rule</th><th>cause</th><th>note</th></tr>")
        for r in part.itertuples():
            flips = (" <span class='unstable' title='the verdict flips across seeds (stability.csv)'>unstable</span>"
                     if r.unstable == "yes" else "")
            parts.append(
                f"<tr class='{html.escape(str(r.verdict))}'><td>{html.escape(r.notebook)}</td><td>{html.escape(str(r.claim))}</td>"
                f"<td>{html.escape(str(r.source))}</td><td>{html.escape(str(r.paper_value))}</td><td>{html.escape(str(r.our_value))}</td>"
                f"<td>{html.escape(str(r.verdict))}{flips}</td><td><code>{html.escape(str(r.rule))}</code></td>"
                f"<td>{html.escape(str(r.cause))}</td><td>{html.escape(str(r.note))}</td></tr>"
            )
        parts.append("</table>")
    found = review[review["problem"] != FIGURE_OK]
    n_figs = len(review.drop_duplicates(["notebook", "figure"])) if len(review) else 0
    n_clean = n_figs - (len(found.drop_duplicates(["notebook", "figure"])) if len(found) else 0)
    parts.append(f"<h2 id='figure-review'>Figure review</h2><p>What a reviewer would reject, found by "
                 f"<code>dpworkbench.plots.figure_problems</code> and on the rendered page "
                 f"(<code>dpworkbench.plots.render</code>: overlapping or clipped text, cut legends, degenerate axes; learn "
                 f"notebooks also at 1024×768) in the figures as saved: <b>{len(found)}</b> finding(s) in "
                 f"{found['notebook'].nunique() if len(found) else 0} notebook(s); {n_clean} of {n_figs} figure(s) ok — "
                 f"<a href='figure_review.csv'>figure_review.csv</a></p>")
    if len(found):
        parts.append("<table><tr><th>notebook</th><th>figure</th><th>title</th><th>finding</th></tr>")
        for r in found.itertuples():
            parts.append(f"<tr><td>{html.escape(r.notebook)}</td><td>{r.figure}</td><td>{html.escape(str(r.title))}</td>"
                         f"<td>{html.escape(str(r.problem))}</td></tr>")
        parts.append("</table>")
    parts.append("</body></html>")
    index = profile_dir / "index.html"
    atomic_write_text(index, "\n".join(parts))
    return index


def _relative(path: Path, root: Path) -> str:
    try:
        return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return str(path)


RUNS_COLUMNS = ["notebook", "status", "seconds", "error", "claims_pass", "claims_differs", "claims_not_comparable",
                "code_version", "commit", "finished", "parameters", "output_dir"]


def _claim_counts(out_dir: Path) -> dict[str, int | None]:
    path = Path(out_dir) / "claims.json"
    if not path.exists():
        return {"claims_pass": None, "claims_differs": None, "claims_not_comparable": None}
    from .claims import VERDICTS

    verdicts = [str(c.get("verdict", "")) for c in json.loads(path.read_text())]
    unknown = sorted(set(verdicts) - set(VERDICTS))
    if unknown:  # a count under a misspelt name would silently read 0
        raise ValueError(f"{path}: unknown verdicts {unknown} (known: {', '.join(VERDICTS)})")
    passed, differs, not_comparable = (verdicts.count(v) for v in VERDICTS)
    return {"claims_pass": passed, "claims_differs": differs, "claims_not_comparable": not_comparable}


def write_runs(profile_dir: Path, results: list, *, key: tuple[str, ...] = ("notebook",)) -> Path:
    """Merge this run's results into ``runs.csv`` (a partial ``--only`` run keeps the others).

    One row per run: status, seconds, its claims' verdict counts, the code version and commit it ran at, when it
    finished, its parameters (canonical JSON) and folder (``reproduce --resume`` keeps a run while its code version
    and parameters are the profile's). A row replaces the earlier rows with the same ``key``: the notebook in a
    profile's folder (one run each), ``("notebook", "parameters")`` for the parameterised runs of ``reports/runs``."""
    path = Path(profile_dir) / "runs.csv"
    rows = []
    for r in results:
        counts = _claim_counts(r.output_dir) if r.status == "ok" else _claim_counts(Path("/nonexistent"))
        rows.append({"notebook": r.name, "status": r.status, "seconds": round(r.seconds, 2), "error": r.error, **counts,
                     "code_version": getattr(r, "code_version", ""), "commit": getattr(r, "commit", ""),
                     "finished": getattr(r, "finished", ""), "parameters": getattr(r, "parameters", ""),
                     "output_dir": _relative(r.output_dir, profile_dir)})
    new = pd.DataFrame(rows, columns=RUNS_COLUMNS)
    if path.exists():
        old = pd.read_csv(path, dtype={"code_version": str, "commit": str, "parameters": str}).reindex(columns=RUNS_COLUMNS)
        replaced = pd.MultiIndex.from_frame(new[list(key)].astype(str))
        old = old[~pd.MultiIndex.from_frame(old[list(key)].astype(str)).isin(replaced)]
        new = pd.concat([old.reindex(columns=RUNS_COLUMNS), new], ignore_index=True)
    for col in ("claims_pass", "claims_differs", "claims_not_comparable"):  # counts, blank when there is no claims.json
        new[col] = pd.to_numeric(new[col], errors="coerce").astype("Int64")
    atomic_write_csv(new, path)
    return path


def timing_markdown(profile_dir: Path, infos: list[NotebookInfo] | None = None) -> str:
    """``runs.csv`` as a Markdown table in notebook order: minutes, status, claim verdicts, the commit it ran at; then
    the total. ``reproduce`` writes it to ``<profile>/timing.md`` (the README quotes the paper profile's)."""
    path = Path(profile_dir) / "runs.csv"
    if not path.exists():
        return "(no runs yet)\n"
    runs = pd.read_csv(path, dtype={"code_version": str, "commit": str}).reindex(columns=RUNS_COLUMNS)
    order = {i.name: k for k, i in enumerate(infos if infos is not None else discover_notebooks())}
    runs = runs[runs["notebook"].isin(order)].assign(_k=lambda d: d["notebook"].map(order)).sort_values("_k")
    lines = ["| notebook | status | minutes | claims pass / differs / n-c | commit |", "|---|---|---:|---|---|"]

    def count(v) -> str:
        return "–" if pd.isna(v) else str(int(v))

    for r in runs.itertuples():
        claims = " / ".join(count(v) for v in (r.claims_pass, r.claims_differs, r.claims_not_comparable))
        lines.append(f"| {r.notebook} | {r.status} | {r.seconds / 60:.1f} | {claims} | {'' if pd.isna(r.commit) else r.commit} |")
    ok = runs["status"].eq("ok")
    total = runs["seconds"].sum()
    lines.append(f"| **total ({int(ok.sum())} ok of {len(runs)})** | | **{total / 60:.1f}** "
                 f"({total / 3600:.2f} h) | {int(runs['claims_pass'].sum())} / {int(runs['claims_differs'].sum())} / "
                 f"{int(runs['claims_not_comparable'].sum())} | |")
    return "\n".join(lines) + "\n"
