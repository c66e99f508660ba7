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
# # Table 1 — graph datasets (what we used)
# Paper: R2T/OPT² (TODS 2024), Table 1 (SNAP: Deezer, Amazon1, Amazon2, RoadnetPA, RoadnetCA). Data: **Deezer is real** — the gemsec-Deezer graphs of Hungary and Romania as a disjoint union with relabelled ids, i.e. the **two-country subset** of the paper's HR ∪ HU ∪ RO (89,311 nodes / 348,713 edges vs 143,884 / 846,915; HR is not available); Amazon1/2 and RoadnetPA/CA are **not available offline**, so they are **seeded synthetic stand-ins** (spec 5.3: degree-capped Holme–Kim for social graphs, thinned grid for road networks) unless the published SNAP files are in the data directory (verified by size and sha256); Email-Enron and GitHub are **real** SNAP graphs not in the paper. Real graphs are BFS-subsampled in the ci/quick profiles. The `source` column says which.
#
# Stand-ins are far smaller than the originals; results are compared by error/DS (scale free), not absolute error. A user with the SNAP files can load them with `dpworkbench.r2t.datasets.load_snap`.

# %% tags=["parameters"]
profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...

# %%
import pandas as pd
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.r2t import claims, figures, reference
from dpworkbench.r2t import datasets, patterns
ctx = NotebookContext("r2t/tab01_datasets", profile=profile, output_dir=output_dir, seed=seed)
n_social = pick(profile, ci=400, quick=5000, paper=50000)
n_road = pick(profile, ci=600, quick=20000, paper=200000)
n_real = pick(profile, ci=300, quick=8000, paper=None)

# %%
rows, loaded = [], {}
for name, (label, D, kind) in datasets.GRAPHS.items():
    n = datasets.sample_size(name, {"social": n_social, "road": n_road, "real": n_real})
    ds, D = datasets.load_graph(name, n=n, seed=seed)
    loaded[name] = ds
    g = ds.data
    row = {"dataset": name, "paper counterpart": label, "source": ds.source, "nodes": g.n, "edges": g.num_edges,
           "max degree (= DS of Q1-)": g.max_degree, "degree bound D": D}
    if name in reference.TABLE1_MAX_DEGREE:
        pn, pe, pd_ = datasets.PAPER_TABLE1[name]
        row.update({"paper nodes": pn, "paper edges": pe, "paper max degree": pd_})
    row["triangles"] = patterns.count(g, "triangle")
    row["length-2 paths"] = patterns.count(g, "path2")
    rows.append(row)
table1 = pd.DataFrame(rows)
ctx.save_table(table1, "table1")
table1

# %%
fig = figures.degree_distributions(loaded)
ctx.save_figure(fig, "tab01_degree_distributions")
fig

# %%
claims.tab01_datasets(ctx.claims, table1)
ctx.finish()
