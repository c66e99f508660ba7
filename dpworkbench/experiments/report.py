"""The report index: a gallery of every notebook plus runs.csv and claims.csv.

``reports/<profile>/index.html`` is rebuilt from what is on disk (executed
notebooks, ``manifest.json`` and ``claims.json`` per notebook, ``runs.csv``), so
``dpworkbench report`` works after an interrupted or partial ``reproduce``.
"""

from __future__ import annotations

import html
import json
import time
from pathlib import Path

import pandas as pd

from .nbtools import PAPERS, NotebookInfo, discover_notebooks
from .runner import atomic_write_csv, atomic_write_text

PAPER_TITLES = {
    "mechanisms": "DP mechanisms (teaching)",
    "inconsistency": "DP inconsistency measures (seeds 000, 003)",
    "r2t": "R2T and OPT² (seed 001)",
    "privateclean": "PrivateClean (seed 002)",
    "dampening": "Local dampening (seed 004)",
}

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em;max-width:1300px;color:#222}
h1{margin-bottom:0}.sub{color:#666;margin-top:.2em}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(290px,1fr));gap:14px}
.card{border:1px solid #ddd;border-radius:8px;padding:10px;background:#fafafa}
.card img{width:100%;border:1px solid #eee;background:white}
.card h4{margin:.2em 0;font-size:1em}.card p{font-size:.85em;color:#444;margin:.3em 0}
.ok{color:#1a7f37;font-weight:bold}.error{color:#b00;font-weight:bold}.missing{color:#888}
table{border-collapse:collapse;font-size:.85em;margin:1em 0}td,th{border:1px solid #ddd;padding:3px 6px;text-align:left}
.pass{background:#e6ffec}.differs{background:#fff4e5}.not-comparable{background:#f0f0f0}
.thumb{height:150px;display:flex;align-items:center;justify-content:center;background:#fff;border:1px dashed #ddd;color:#999;font-size:.8em}
"""


def _collect(profile_dir: Path, infos: list[NotebookInfo]) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    runs_path = profile_dir / "runs.csv"
    runs = pd.read_csv(runs_path) if runs_path.exists() else pd.DataFrame(columns=["notebook", "status", "seconds"])
    claims_rows = []
    manifests = {}
    for info in infos:
        d = profile_dir / info.paper / info.stem
        cp = d / "claims.json"
        if cp.exists():
            for row in json.loads(cp.read_text()):
                claims_rows.append({"notebook": info.name, **row})
        mp = d / "manifest.json"
        if mp.exists():
            manifests[info.name] = json.loads(mp.read_text())
    claims = pd.DataFrame(claims_rows, columns=["notebook", "claim", "paper_value", "our_value", "verdict", "note"])
    return runs, claims, manifests


def build_report(profile_dir: Path, profile: str) -> Path:
    """Write ``claims.csv`` and ``index.html`` under ``profile_dir``; returns the index path."""
    profile_dir = Path(profile_dir)
    profile_dir.mkdir(parents=True, exist_ok=True)
    infos = discover_notebooks()
    runs, claims, manifests = _collect(profile_dir, infos)
    atomic_write_csv(claims, profile_dir / "claims.csv")
    status = {r.notebook: r for r in runs.itertuples()} if len(runs) else {}
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>dpworkbench report — "
        f"{html.escape(profile)}</title><style>{_CSS}</style></head><body>",
        f"<h1>dpworkbench — {html.escape(profile)} profile</h1>",
        f"<p class='sub'>Generated {time.strftime('%Y-%m-%d %H:%M:%S')}. "
        "Seeded noise in these runs is for reproducibility, not a private release.</p>",
    ]
    n_ok = int((runs["status"] == "ok").sum()) if len(runs) else 0
    n_err = int((runs["status"] != "ok").sum()) if len(runs) else 0
    verdicts = claims["verdict"].value_counts().to_dict() if len(claims) else {}
    parts.append(
        f"<p><b>{n_ok}</b> notebooks executed without error, <b>{n_err}</b> with errors, "
        f"{len(infos) - len(runs)} not run. Claims: "
        + ", ".join(f"{v} {k}" for k, v in sorted(verdicts.items()))
        + " — <a href='claims.csv'>claims.csv</a>, <a href='runs.csv'>runs.csv</a></p>"
    )
    for paper in PAPERS:
        group = [i for i in infos if i.paper == paper]
        if not group:
            continue
        parts.append(f"<h2>{html.escape(PAPER_TITLES.get(paper, paper))}</h2><div class='grid'>")
        for info in group:
            rel = f"{info.paper}/{info.stem}"
            run = status.get(info.name)
            if run is None:
                badge = "<span class='missing'>not run</span>"
            else:
                cls = "ok" if run.status == "ok" else "error"
                badge = f"<span class='{cls}'>{html.escape(str(run.status))}</span> in {float(run.seconds):.1f} s"
            man = manifests.get(info.name, {})
            figs = man.get("figures", [])
            thumb = next((f["png"] for f in figs if f.get("png")), None)
            img = (
                f"<a href='{rel}/{figs[0]['html']}'><img src='{rel}/{thumb}' alt='{html.escape(info.stem)}'></a>"
                if thumb
                else f"<div class='thumb'>{len(figs)} figure(s), no PNG thumbnail</div>" if figs else "<div class='thumb'>no figure</div>"
            )
            links = [f"<a href='{rel}/{info.stem}.html'>notebook</a>"] if (profile_dir / rel / f"{info.stem}.html").exists() else []
            links += [f"<a href='{rel}/{html.escape(f['html'])}'>{html.escape(f['name'])}</a>" for f in figs if f.get("html")]
            nclaims = claims[claims["notebook"] == info.name]
            claim_txt = (
                ", ".join(f"{v} {k}" for k, v in nclaims["verdict"].value_counts().items()) if len(nclaims) else "no claims"
            )
            parts.append(
                f"<div class='card'>{img}<h4>{html.escape(info.stem)}</h4><p>{html.escape(info.title)}</p>"
                f"<p>{html.escape(info.description)}</p><p>{badge} · {claim_txt}</p><p>{' · '.join(links)}</p></div>"
            )
        parts.append("</div>")
    if len(claims):
        parts.append("<h2>Reproduction table</h2><table><tr><th>notebook</th><th>claim</th><th>paper</th><th>ours</th><th>verdict</th><th>note</th></tr>")
        for r in claims.itertuples():
            parts.append(
                f"<tr class='{html.escape(str(r.verdict))}'><td>{html.escape(r.notebook)}</td><td>{html.escape(str(r.claim))}</td>"
                f"<td>{html.escape(str(r.paper_value))}</td><td>{html.escape(str(r.our_value))}</td>"
                f"<td>{html.escape(str(r.verdict))}</td><td>{html.escape(str(r.note))}</td></tr>"
            )
        parts.append("</table>")
    parts.append("</body></html>")
    index = profile_dir / "index.html"
    atomic_write_text(index, "\n".join(parts))
    return index


def write_runs(profile_dir: Path, results: list) -> Path:
    """Merge this run's results into ``runs.csv`` (a partial ``--only`` run keeps the others)."""
    path = Path(profile_dir) / "runs.csv"
    new = pd.DataFrame([{"notebook": r.name, "status": r.status, "seconds": round(r.seconds, 2), "error": r.error} for r in results])
    if path.exists():
        old = pd.read_csv(path)
        old = old[~old["notebook"].isin(new["notebook"])]
        new = pd.concat([old, new], ignore_index=True)
    atomic_write_csv(new, path)
    return path
