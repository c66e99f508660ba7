"""Build the defective figures of issue 24 item 5 / issue 28 with the code as it was before their fix.

The JSON files in ``fixtures/`` are these figures as the old code drew them: ``*_saved.json`` as
``save_figure`` wrote them (styled, at their saved size), ``*_screen.json`` as a learn notebook showed them
(unstyled, the old template embedded). ``builders(pkg)`` is shared with the tests, which build the same
figures from today's code and expect no finding. Regenerate (not needed for the tests) with::

    mkdir /tmp/old && git archive 89bca1c dpworkbench | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old python tests/plots/make_fixtures.py
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

FIXTURES = Path(__file__).parent / "fixtures"

R2T_MECHS = ["R2T", "OPT2", "LP", "NT", "SDE", "RM"]
R2T_EPS = [0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 12.8]
R2T_QUERIES = ["edge", "path2", "triangle", "rectangle"]
TAB02_DATASETS = ["Amazon1", "Amazon2", "Deezer", "RoadnetPA", "RoadnetCA", "Gowalla", "Facebook"]


def _pc_table() -> pd.DataFrame:
    return pd.DataFrame([{"agg": a, "method": m, "error_rate": v, "mean": 0.1 + 0.1 * k, "median": 0.1, "q25": 0.05, "q75": 0.2, "n": 10}
                         for a in ("count", "sum") for m in ("direct", "privateclean", "pc_noprov", "dirty_nonprivate")
                         for k, v in enumerate([0.0, 0.1, 0.2, 0.3])])


def _r2t_sweep() -> tuple[pd.DataFrame, dict]:
    rows = [{"query": q, "mechanism": m, "epsilon": e, "error": 10.0 ** (1 + i * 0.3) / e} for q in R2T_QUERIES
            for i, m in enumerate(R2T_MECHS) if m != "RM" or q in ("triangle", "rectangle") for e in R2T_EPS]
    paper = {q: {m: (R2T_EPS, [50.0 / e for e in R2T_EPS]) for m in ("R2T", "LP", "RM")} for q in R2T_QUERIES}
    return pd.DataFrame(rows), paper


def _r2t_tab02() -> pd.DataFrame:
    return pd.DataFrame([{"query": q, "mechanism": m, "dataset": d, "error_over_DS": 2.0 + i + j, "rel_error_pct": 1.0 + i}
                         for q in R2T_QUERIES for i, m in enumerate(["R2T", "OPT2", "NT", "SDE", "LP"]) for j, d in enumerate(TAB02_DATASETS)])


def _inc_fig06() -> pd.DataFrame:
    rows = []
    for d in ["Adult", "Flight", "Hospital", "Stock", "Tax"]:
        for m in ["I_MI", "I_P"]:
            for a in ["baseline_V", "baseline_dmax", "em", "hier_em", "bound_hier"]:
                # Adult's I_P is ~n (10,000 rows) at every checkpoint: one x value in that panel
                for t in ([10000.0] if (d, m) == ("Adult", "I_P") else [100.0, 500.0, 2000.0]):
                    rows.append({"dataset": d, "measure": m, "algo": a, "true": t, "rel_error": 0.01 * (1 + len(a))})
    return pd.DataFrame(rows)


def builders() -> dict:
    """name -> (callable building the figure from the importable dpworkbench, 'saved' or 'screen')."""
    from dpworkbench.dampening import teaching as dt
    from dpworkbench.inconsistency import figures as inf
    from dpworkbench.privateclean import figures as pcf
    from dpworkbench.r2t import figures as r2f

    summary, paper = _r2t_sweep()
    return {
        "privateclean_fig05": (lambda: pcf.error_curves(_pc_table(), "error_rate", "Fig. 5: error vs data-error rate (sum, count)"), "saved"),
        "r2t_fig07": (lambda: r2f.sweep_panels(summary, x="epsilon", facet="query", paper=paper, x_title="ε (log)",
                                               answers={"edge": 5987.0, "path2": 1e5, "triangle": 300.0, "rectangle": 200.0},
                                               title="Fig. 7: error vs ε, RoadnetPA stand-in"), "saved"),
        "r2t_tab02": (lambda: r2f.grouped_bars(_r2t_tab02(), value="error_over_DS", title="Table 2 (ε=0.8): error / DS per mechanism (log)",
                                               y_title="error / DS (log)", x_title="dataset"), "saved"),
        "inconsistency_fig06": (lambda: inf.fig_strategies(_inc_fig06(), "Fig. 6: θ strategies (RNoise α=0.01, ε=1.0, 10000 rows)"), "saved"),
        "dampening_topk": (lambda: dt.teaching_topk("karate", 2.0, 3, runs=50)[0], "screen"),
        "dampening_median": (lambda: dt.median_teaching_figure(1.0), "screen"),
        "dampening_privacy_loss": (lambda: dt.privacy_loss_figure(1.0)[0], "screen"),
    }


def main() -> None:
    from dpworkbench.plots import apply_style

    FIXTURES.mkdir(exist_ok=True)
    for name, (build, mode) in builders().items():
        fig = build()
        if mode == "saved":
            fig = apply_style(fig)
        (FIXTURES / f"{name}_{mode}.json").write_text(json.dumps(json.loads(fig.to_json()), separators=(",", ":")))


if __name__ == "__main__":
    main()
