# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # R2T on your own database
# **What this shows** (no paper figure or table of its own; it reuses the queries of R2T's Table 5, TODS 2024 §3.2 and §10): how `dpworkbench r2t sql` treats a database whose keys are declared. R2T's individual is a tuple of a *primary private relation* (here `customer`, or `supplier`, or `orders`) together with every tuple that references it through foreign keys; the keys are read from the database's catalog (`--db`), never from the rows. A query is *completed* along the declared keys (§3.2), so Table 5's queries are run exactly as the paper writes them, naming only the private relation, and give the same join information — hence the same Q(I, τ) — as the hand-declared atoms used by the Table 5 notebook. The last part releases a GROUP BY nation query (parallel composition: a customer has one nation) and plots the error against ε per nation.
#
# Data: **real generator** — TPC-H generated offline with `tpchgen-cli` and loaded into a DuckDB file with the TPC-H primary and foreign keys (`tpch.make_database`); the profile sets the scale factor (ci: 0.01, quick: 0.1, paper: 1).

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...
epsilon_grid = [0.1, 0.2, 0.4, 0.8, 1.6]
group_gs = 1e4         # public GS_Q for the per-nation counts (sets the τ grid only)

# %%
from IPython.display import display
import duckdb
import numpy as np
import pandas as pd
import plotly.graph_objects as go
from dpworkbench.experiments import NotebookContext, pick
import functools
from dpworkbench import plots, widgets
from dpworkbench.r2t import teaching, tpch
from dpworkbench.r2t.mechanisms import r2t
from dpworkbench.r2t.model import Truncation
from dpworkbench.r2t.schema import catalog_from_duckdb
from dpworkbench.r2t.spark_engine import same_joininfo
from dpworkbench.r2t.sql import complete, extract
ctx = NotebookContext("r2t/learn_own_database", profile=profile, output_dir=output_dir, seed=seed)
sf = pick(profile, ci=0.01, quick=0.1, paper=1.0)
repetitions = pick(profile, ci=3, quick=10, paper=20)
db = tpch.make_database(sf)
con = duckdb.connect(str(db), read_only=True)
catalog = catalog_from_duckdb(con)  # PRIMARY KEY / FOREIGN KEY constraints: public, read before any row
print(f"TPC-H SF {sf} with declared keys in {db.name}")
pd.DataFrame({"declared foreign key": [f.describe() for f in catalog.foreign]})

# %% [markdown]
# ## Table 5's queries as the paper writes them
# Each query is given with `--private` naming the primary private relation(s) only. The completion joins every table to the private relations it depends on (reusing the joins the query already writes; `lineitem` → `partsupp` → `supplier` is added where `supplier` is private). The join information equals the one built from the hand-declared atoms (`tpch.extract_query`, the Table 5 notebook's path); for the self-join-free queries Q(I, τ) is shown at three τ.

# %%
rows = []
taus = [8.0, 64.0, 512.0]
for name, q in tpch.QUERIES.items():
    private = [rel for _, _, rel in q.private]
    plan = complete(q.sql, private, catalog=catalog, project=q.project)
    ex = extract(con, q.sql, private, catalog=catalog, project=q.project, plan=plan)
    hand = tpch.extract_query(con, name)
    row = {"query": name, "--private": ", ".join(private), "atoms added": "; ".join(plan.added) or "—",
           "answer": ex.info.answer, "DS/IS": ex.info.DS, "same join information": same_joininfo(ex.info, hand.info)}
    if ex.info.self_join_free and not ex.info.is_spja:
        tc, th = Truncation(ex.info), Truncation(hand.info)
        row.update({f"Q(I,{t:g})": tc.value(t) for t in taus})
        row["Q(I,τ) equal"] = all(np.isclose(tc.value(t), th.value(t)) for t in taus)
    rows.append(row)
completion = pd.DataFrame(rows)
ctx.save_table(completion, "completion")
completion

# %% [markdown]
# ## GROUP BY nation: one release per nation
# `n_name` is a column of a public relation (nation is referenced by customer, so it is public), and the nation is a function of the customer through `customer.c_nationkey`: each individual falls in exactly one group, so the groups compose in parallel and each gets the whole ε. Below: the completed query, then the median relative error over the repetitions against ε, one line per nation.

# %%
group_sql = ("select n_name, count(*) from orders, customer, nation "
             "where o_custkey = c_custkey and c_nationkey = n_nationkey group by n_name")
gx = extract(con, group_sql, ["customer"], catalog=catalog)
print("completed query (public):", gx.completed_sql)
print("parallel composition over groups:", gx.parallel_groups, f"({len(gx.groups)} groups)")
runs = []
for g, info in zip(gx.groups, gx.group_infos):
    tr = Truncation(info)
    for eps in epsilon_grid:
        for r in range(repetitions):
            res = r2t(tr, epsilon=eps, beta=0.1, gs=group_gs, rng=seed * 100003 + r)
            runs.append({"nation": g[0], "epsilon": eps, "answer": info.answer, "DS": info.DS,
                         "rel_error_pct": 100 * abs(res.value - info.answer) / max(info.answer, 1.0)})
runs = pd.DataFrame(runs)
per_group = runs.groupby(["nation", "epsilon"], as_index=False)["rel_error_pct"].median()
ctx.save_table(per_group, "group_by_nation")
display(runs.groupby("nation")[["answer", "DS"]].first().T)

# %%
# 25 lines in one plot (and a 25-entry legend) are unreadable on a page or a projector: the figure shows the median
# over the nations and their range; the per-nation numbers are the saved table `group_by_nation` above.
band = per_group.groupby("epsilon")["rel_error_pct"].agg(median="median", lo="min", hi="max").reset_index()
n_groups = per_group["nation"].nunique()
fig = go.Figure([
    go.Scatter(x=band["epsilon"], y=band["hi"], mode="lines", line=dict(width=0, color="#1f77b4"), legendgroup="range",
               showlegend=False, hoverinfo="skip"),
    go.Scatter(x=band["epsilon"], y=band["lo"], mode="lines", line=dict(width=0, color="#1f77b4"), legendgroup="range",
               fill="tonexty", fillcolor="rgba(31,119,180,0.25)", name=f"range over the {n_groups} nations"),
    go.Scatter(x=band["epsilon"], y=band["median"], mode="lines+markers", line_color="#1f77b4", name="median over nations"),
])
fig.update_layout(title=f"Median relative error % vs ε, per nation (SF {sf:g})", xaxis_title="ε (per group = total)",
                  yaxis_title="error %", xaxis_type="log", yaxis_type="log",
                  # the legend under the plot: beside it, it took half of a one-column figure's width
                  legend=dict(orientation="h", x=0, xanchor="left", y=0, yanchor="bottom", yref="container"), margin_b=150)
plots.style.decade_ticks(fig)
ctx.save_figure(fig, "own_database_group_by")
fig

# %% [markdown]
# ## Try it: one release per nation at your ε
# Each nation's count is released with the whole ε (parallel composition: a customer has one nation). Grey: the exact answer (NOT PRIVATE, shown for teaching); blue: the release.
#
# > **Try this.** Move **ε** from 0.1 to 10: small nations' releases jump around at small ε, then settle on the grey bars.

# %%
truncations = [Truncation(info) for info in gx.group_infos]
panel = widgets.control_panel(functools.partial(teaching.group_by_panel, groups=gx.groups, truncations=truncations, gs=group_gs),
                              {"epsilon": widgets.epsilon_slider(0.8, minimum=0.05, maximum=12.8), "seed": widgets.seed_box(seed)},
                              interactive=interactive, title="GROUP BY nation")
panel if interactive else None

# %% [markdown]
# ## How much ε do I need for ±x %?
# Per nation, R2T releases a count with GS = `group_gs`: Theorem 5.1 bounds its error by 2b·K·ln(K/β)·DS/ε. DS (the
# most orders of one customer) is stated as a public bound, DS ≤ 64. The size must be public (stated before looking at
# the data), never the private answer. Noise only: truncation or clipping bias is not in it.
#
# > **Try this.** A nation with 1,000 orders needs ten times the ε of one with 10,000 for the same ±x %.

# %%
from dpworkbench.teaching import epsilon_needed
from dpworkbench.r2t.mechanisms import r2t_bound
eps_panel = epsilon_needed.epsilon_needed_panel(epsilon_needed.from_bound(lambda eps, b: r2t_bound(64.0, epsilon=eps, beta=b, gs=group_gs)), reference=10_000, sizes=[1000, 100_000], what="a nation's count",
                                                 interactive=interactive)
eps_panel if interactive else None

