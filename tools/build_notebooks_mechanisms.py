"""Writes notebooks/mechanisms/*.ipynb (clean, no outputs). Run: python tools/build_notebooks_mechanisms.py"""

from pathlib import Path

from dpworkbench.experiments.nbtools import write_notebook

OUT = Path(__file__).resolve().parent.parent / "notebooks" / "mechanisms"

PARAMS_COMMON = '''profile = "quick"      # ci | quick | paper
seed = 0
interactive = True     # papermill runs pass False and still get every figure
output_dir = ""        # set by dpworkbench reproduce; empty means reports/interactive/...'''

write_notebook(OUT / "learn_laplace_composition.ipynb", [
    ("md", """# The Laplace mechanism and sequential composition
Teaching notebook (shared DP core, no paper figure). Data: none — a counting query with true answer 100 and a neighbour with 101.

Seeded noise here is for teaching and reproducibility; a real release uses `dpworkbench.mechanisms.release_backend()`."""),
    ("params", PARAMS_COMMON + '''
epsilon = 1.0
sensitivity = 1.0
total_epsilon = 1.0
n_queries = 5'''),
    ("code", '''from IPython.display import display
from dpworkbench.experiments import NotebookContext, pick, summarize
from dpworkbench.accounting import Accountant, BudgetExceededError
from dpworkbench.mechanisms import teaching, laplace_mechanism
from dpworkbench import widgets, plots

ctx = NotebookContext("mechanisms/learn_laplace_composition", profile=profile, output_dir=output_dir, seed=seed)
n_samples = pick(profile, ci=2000, quick=20000, paper=200000)
repetitions = pick(profile, ci=50, quick=500, paper=5000)'''),
    ("md", "## Output distributions on two neighbours\nThe log ratio of the two densities never leaves [−ε, ε]: that is ε-DP."),
    ("code", '''controls = {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=10)}
panel = widgets.control_panel(
    lambda epsilon: teaching.laplace_figure(100, 101, epsilon=epsilon, sensitivity=sensitivity, n=n_samples, seed=seed),
    controls, interactive=interactive, title="Laplace mechanism")
panel if interactive else None'''),
    ("code", '''ctx.save_figure(teaching.laplace_figure(100, 101, epsilon=epsilon, sensitivity=sensitivity, n=n_samples, seed=seed), "laplace_densities")'''),
    ("md", "## Sequential composition: k queries share one budget\nEach query gets ε/k, so the error per query grows linearly in k. The ledger shows every spend."),
    ("code", '''errors, ledger = teaching.composition_experiment([100 + 10 * i for i in range(n_queries)], total_epsilon=total_epsilon,
                                                  sensitivity=sensitivity, repetitions=repetitions, seed=seed)
display(ledger)
stats = summarize(errors, ["query"], "abs_error")
stats'''),
    ("code", '''curve = teaching.composition_error_curve(range(1, 21), total_epsilon=total_epsilon, sensitivity=sensitivity)
fig = plots.line_with_band(curve.rename(columns={"expected_abs_error": "mean"}), "k", "mean", band=None, summarized=True,
                           title="Expected |error| per query when ε is split over k queries", y_title="E|error| = kΔ/ε")
ctx.save_figure(fig, "composition_error")
fig'''),
    ("md", "## The accountant refuses to overspend\nA sixth query after the budget is used raises an error *before* any noise is drawn."),
    ("code", '''try:
    laplace_mechanism(1.0, epsilon=total_epsilon / n_queries, sensitivity=1, rng=seed, accountant=ledger, note="one too many")
    refused = False
except BudgetExceededError as err:
    refused = True
    print("refused:", err)'''),
    ("code", '''measured = float(stats["mean"].mean())
expected = n_queries * sensitivity / total_epsilon
ctx.claims.add("mean |error| per query with ε split over k queries equals kΔ/ε", paper=expected, ours=measured, rtol=0.15,
               note="Laplace E|Z| = scale; Monte-Carlo over repetitions")
ctx.claims.add("accountant refuses a spend past the budget", paper="refused", ours="refused" if refused else "allowed",
               verdict="pass" if refused else "differs")
ctx.finish()'''),
])

write_notebook(OUT / "learn_selection_em_pf_rnm.ipynb", [
    ("md", """# Private selection: exponential mechanism vs permute-and-flip vs report-noisy-max
Teaching notebook (shared DP core). Data: synthetic utility vectors (seeded); no paper figure.

EM and PF output laws are computed exactly (log-space); RNM (Laplace noise 2Δ/ε) by Monte-Carlo. PF is never worse than EM (McKenna & Sheldon 2020)."""),
    ("params", PARAMS_COMMON + '''
epsilon = 1.0
n_candidates = 20
gap = 1.0'''),
    ("code", '''from IPython.display import display
import numpy as np
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.accounting import Accountant
from dpworkbench.mechanisms import teaching, exponential_mechanism, permute_and_flip, report_noisy_max
from dpworkbench.testing import audit_mechanism
from dpworkbench import widgets, plots

ctx = NotebookContext("mechanisms/learn_selection_em_pf_rnm", profile=profile, output_dir=output_dir, seed=seed)
repetitions = pick(profile, ci=100, quick=1000, paper=10000)
audit_samples = pick(profile, ci=3000, quick=30000, paper=200000)
utilities = np.arange(n_candidates, dtype=float) * gap'''),
    ("md", "## Output probabilities per candidate"),
    ("code", '''panel = widgets.control_panel(lambda epsilon: teaching.selection_probability_figure(utilities, epsilon=epsilon), {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.01, maximum=20)},
                              interactive=interactive, title="Who gets selected?")
panel if interactive else None'''),
    ("code", '''ctx.save_figure(teaching.selection_probability_figure(utilities, epsilon=epsilon), "selection_probabilities")'''),
    ("md", "## Accuracy vs ε"),
    ("code", '''eps_grid = np.logspace(-2, 1.3, pick(profile, ci=5, quick=12, paper=25))
acc = teaching.selection_accuracy(utilities, eps_grid, repetitions=repetitions, seed=seed)
fig = teaching.selection_figure(acc)
ctx.save_figure(fig, "selection_accuracy")
ctx.save_table(acc, "selection_accuracy")
fig'''),
    ("md", "## Each mechanism spends ε: ledger and empirical privacy audit on neighbouring utility vectors"),
    ("code", '''ledger = Accountant(3 * epsilon)
for mech in (exponential_mechanism, permute_and_flip, report_noisy_max):
    mech(utilities, epsilon=epsilon, sensitivity=1.0, rng=seed, accountant=ledger, note="one selection")
display(ledger)
u_neighbour = utilities.copy(); u_neighbour[-1] -= 1.0; u_neighbour[0] += 1.0   # sensitivity-1 neighbour
audits = []
for name, mech in (("exponential", exponential_mechanism), ("permute-and-flip", permute_and_flip), ("report-noisy-max", report_noisy_max)):
    res = audit_mechanism(lambda u, rng, m=mech: m(u, epsilon=epsilon, sensitivity=1.0, rng=rng), utilities, u_neighbour, epsilon,
                          n_samples=audit_samples, seed=seed)
    audits.append({"mechanism": name, "epsilon": epsilon, "epsilon_hat": res.epsilon_hat, "lower_95": res.epsilon_lower, "flagged": res.flagged})
import pandas as pd
audits = pd.DataFrame(audits); audits'''),
    ("code", '''em = acc[acc.mechanism == "exponential"].set_index("epsilon")["expected_loss"]
pf = acc[acc.mechanism == "permute-and-flip"].set_index("epsilon")["expected_loss"]
ctx.claims.add("PF expected loss ≤ EM expected loss at every ε (McKenna & Sheldon 2020)", paper="PF ≤ EM",
               ours=f"max PF−EM = {float((pf - em).max()):.2e}", verdict="pass" if bool((pf <= em + 1e-9).all()) else "differs")
ctx.claims.add("no mechanism flagged by the privacy audit", paper=0, ours=int(audits.flagged.sum()), atol=0)
ctx.finish()'''),
])

write_notebook(OUT / "learn_randomized_response.ipynb", [
    ("md", """# Randomized response: estimation and its bias correction
Teaching notebook (shared DP core; GRR is PrivateClean's mechanism, seed 002). Data: a synthetic Zipf population (seeded).

Counting the reported values is biased towards uniform; inverting the known response matrix removes the bias. The GRR ε table shows PrivateClean's Lemma 1 (ln(3/p − 2)) next to the exact ln(1 + N(1−p)/p)."""),
    ("params", PARAMS_COMMON + '''
epsilon = 1.0
domain_size = 10
skew = 1.0'''),
    ("code", '''from IPython.display import display
import numpy as np
from dpworkbench.experiments import NotebookContext, pick, summarize
from dpworkbench.accounting import Accountant
from dpworkbench.mechanisms import teaching, randomized_response, randomized_response_keep_probability
from dpworkbench import widgets, plots

ctx = NotebookContext("mechanisms/learn_randomized_response", profile=profile, output_dir=output_dir, seed=seed)
n = pick(profile, ci=2000, quick=20000, paper=100000)
repetitions = pick(profile, ci=5, quick=30, paper=200)'''),
    ("code", '''panel = widgets.control_panel(
    lambda epsilon, domain_size: teaching.rr_bias_figure(n, domain_size, epsilon=epsilon, skew=skew, repetitions=repetitions, seed=seed), {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=10),
                                          "domain_size": widgets.choice([2, 5, 10, 50], domain_size, "N")},
                              interactive=interactive, title="Randomized response")
panel if interactive else None'''),
    ("code", '''eps_grid = list(np.round(np.logspace(-1, 1, pick(profile, ci=3, quick=8, paper=15)), 3))
res = teaching.rr_estimation_experiment(n, domain_size, eps_grid, skew=skew, repetitions=repetitions, seed=seed)
fig = plots.line_with_band(res, "epsilon", "l1_error", color="estimator", log_x=True, log_y=True,
                           title="Total variation error of the estimated distribution", x_title="ε")
ctx.save_figure(fig, "rr_error_vs_epsilon")
ctx.save_table(res, "rr_estimation")
fig'''),
    ("code", '''bias = summarize(res, ["epsilon", "estimator"], "top_value_error")
bias'''),
    ("code", '''ledger = Accountant(epsilon)
randomized_response(["v0"] * 10, [f"v{i}" for i in range(domain_size)], epsilon=epsilon, rng=seed, accountant=ledger,
                    note="each respondent: local ε-DP")
display(ledger)
table = teaching.grr_epsilon_table([0.1, 0.25, 0.5, 0.75], [2, 3, 10, 50])
table'''),
    ("code", '''corr = bias[bias.estimator == "bias-corrected"]
worst_z = float((corr["mean"].abs() / corr["se"].clip(lower=1e-12)).max())
ctx.claims.add("bias-corrected RR estimator is unbiased (max |mean|/se over ε)", paper="< 3", ours=round(worst_z, 2),
               verdict="pass" if worst_z < 3 else "differs")
naive = bias[bias.estimator == "naive"]
ctx.claims.add("naive counting under-estimates the most frequent value", paper="negative bias", ours=float(naive["mean"].mean()),
               verdict="pass" if float(naive["mean"].max()) < 0 else "differs")
row = table[(table.p == 0.25) & (table.N == 50)].iloc[0]
ctx.claims.add("GRR exact ε at p=0.25, N=50 (PrivateClean's Lemma 1 gives ln 10 ≈ 2.30)", paper=5.017, ours=row.epsilon_exact, rtol=0.001,
               note="ln(1+50·0.75/0.25)=ln 151")
ctx.finish()'''),
])

write_notebook(OUT / "learn_sparse_vector.ipynb", [
    ("md", """# The sparse vector technique (AboveThreshold)
Teaching notebook (shared DP core; exactly R2T's Algorithm 1, seed 001: threshold noise Lap(2/ε), query noise Lap(4/ε)). Data: a synthetic increasing query sequence.

SVT pays ε once, however many queries fall below the threshold."""),
    ("params", PARAMS_COMMON + '''
epsilon = 1.0
threshold = 10.0
n_queries = 30'''),
    ("code", '''from IPython.display import display
import numpy as np
from dpworkbench.experiments import NotebookContext, pick
from dpworkbench.accounting import Accountant
from dpworkbench.mechanisms import teaching, above_threshold
from dpworkbench import widgets, plots

ctx = NotebookContext("mechanisms/learn_sparse_vector", profile=profile, output_dir=output_dir, seed=seed)
repetitions = pick(profile, ci=200, quick=2000, paper=20000)
queries = np.linspace(0, 20, n_queries)     # the first query above the threshold is index 15'''),
    ("code", '''panel = widgets.control_panel(
    lambda epsilon: teaching.svt_figure(queries, threshold, epsilon=epsilon, repetitions=repetitions, seed=seed), {"epsilon": widgets.epsilon_slider(epsilon, minimum=0.05, maximum=20)},
                              interactive=interactive, title="Sparse vector")
panel if interactive else None'''),
    ("code", '''eps_grid = [0.25, 1.0, 4.0, 16.0]
res = teaching.svt_experiment(queries, threshold, eps_grid, repetitions=repetitions, seed=seed)
summary = teaching.svt_localisation_error(res, queries, threshold)
fig = plots.line_with_band(summary, "epsilon", "mean", band=None,
                           summarized=True, log_x=True, title="SVT localisation error vs ε", y_title="mean |returned − first above T|")
ctx.save_figure(fig, "svt_error_vs_epsilon")
fig'''),
    ("code", '''ledger = Accountant(epsilon)
above_threshold(queries, threshold, epsilon=epsilon, rng=seed, accountant=ledger, note=f"{n_queries} queries, one spend")
display(ledger)
errs = summary.set_index("epsilon")["mean"]
ctx.claims.add("SVT localisation error decreases with ε", paper="decreasing", ours=f"{errs.iloc[0]:.2f} → {errs.iloc[-1]:.2f}",
               verdict="pass" if errs.iloc[-1] < errs.iloc[0] else "differs")
ctx.claims.add("one ε spend for all queries", paper=epsilon, ours=ledger.spent, rtol=1e-9)
ctx.finish()'''),
])
print("wrote", sorted(p.name for p in OUT.glob("*.ipynb")))
