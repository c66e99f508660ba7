"""R2T / OPT² behaviour: one-sidedness, pruning identity, privacy audits; every ε-spending function returns a
Release whose ledger is its declaration's plan."""

import math

import numpy as np
import pytest

from dpworkbench.accounting import Accountant, BudgetExceededError
from dpworkbench.graphs import holme_kim
from dpworkbench.r2t import FHat, Truncation, fixed_tau, from_lists, naive_laplace, opt2, r2t, random_tau
from dpworkbench.r2t.mechanisms import baselines as B
from dpworkbench.r2t.mechanisms import OPT2, R2T, InstanceStats, tau_grid
from dpworkbench.r2t.patterns import graph_joininfo
from dpworkbench.testing import audit_mechanism
from dpworkbench.accounting import Release, check_ledger_matches
from dpworkbench.graphs import from_edge_array
from dpworkbench.r2t.mechanisms import EXP_OPT2, FIXED_TAU, NAIVE_LAPLACE, RANDOM_TAU, exp_opt2, privacy_cost_r2t


@pytest.fixture(scope="module")
def social():
    return graph_joininfo(holme_kim(400, 3, 0.5, seed=1), "edge")


@pytest.mark.parametrize("seed", range(5))
def test_pruned_r2t_and_opt2_equal_unpruned(social, seed):
    a = r2t(social, epsilon=0.8, beta=0.1, gs=1024, rng=seed, prune=True)
    b = r2t(social, epsilon=0.8, beta=0.1, gs=1024, rng=seed, prune=False)
    assert a.value == pytest.approx(b.value, rel=1e-9, abs=1e-6)
    c = opt2(social, epsilon=0.8, beta=0.1, rng=seed, prune=True)
    d = opt2(social, epsilon=0.8, beta=0.1, rng=seed, prune=False)
    assert c.value == pytest.approx(d.value, rel=1e-9) and c.tau == d.tau

def test_r2t_one_sided_at_beta_001(social):
    tr = Truncation(social)
    out = R2T.sample(tr, size=20000, rng=np.random.default_rng(0), epsilon=0.8, beta=0.01, gs=1024)
    assert np.mean(out <= social.answer) >= 0.99
    # the scalar mechanism agrees in law with the vectorised sampler (means within noise)
    one = np.array([r2t(tr, epsilon=0.8, beta=0.01, gs=1024, rng=s).value for s in range(200)])
    assert abs(one.mean() - out.mean()) < 4 * out.std() / math.sqrt(200) + 1e-9

def test_r2t_error_within_theorem_5_1(social):
    from dpworkbench.r2t import r2t_bound
    out = R2T.sample(Truncation(social), size=5000, rng=np.random.default_rng(1), epsilon=0.8, beta=0.1, gs=1024)
    bound = r2t_bound(social.DS, epsilon=0.8, beta=0.1, gs=1024)
    assert np.mean(np.abs(out - social.answer) <= bound) >= 0.9

def test_opt2_samples_match_scalar(social):
    fh, tr = FHat(social), Truncation(social)
    vals = OPT2.sample(InstanceStats(tr, fhat=fh), size=4000, rng=np.random.default_rng(2), epsilon=0.8, beta=0.1)
    one = np.array([opt2(social, epsilon=0.8, beta=0.1, rng=s, fhat=fh, truncation=tr).value for s in range(150)])
    assert abs(np.median(one) - np.median(vals)) < 0.05 * social.DS * 24 / 0.8

def _tiny_pair():
    # neighbouring instances: I' = I minus primary tuple 0 and its join results
    lists = [[0, 1], [0, 2], [0, 3], [1, 2], [2, 3], [3, 4], [1, 4]]
    info = from_lists(np.ones(len(lists)), lists, n=5)
    return info, info.remove_tuples([0])


def test_privacy_audit_r2t():
    eps = 1.0
    I, Ip = _tiny_pair()
    trunc = {id(x): Truncation(x, "lp", shortcut=False) for x in (I, Ip)}
    mech = lambda x, gen, n: R2T.sample(trunc[id(x)], size=n, rng=gen, epsilon=eps, beta=0.1, gs=8)
    res = audit_mechanism(mech, I, Ip, eps, n_samples=200000, vectorized=True, seed=0, bins=40)
    assert not res.flagged, str(res)

def test_privacy_audit_opt2():
    eps = 1.0
    I, Ip = _tiny_pair()
    caches = {id(x): InstanceStats(Truncation(x)) for x in (I, Ip)}
    mech = lambda x, gen, n: OPT2.sample(caches[id(x)], size=n, rng=gen, epsilon=eps, beta=0.1)
    res = audit_mechanism(mech, I, Ip, eps, n_samples=200000, vectorized=True, seed=1, bins=40)
    assert not res.flagged, str(res)

def test_audit_detects_a_broken_r2t():
    """Sanity of the audit: R2T without the K factor in the noise (ε/K per term ignored) is flagged at ε/ K."""
    I, Ip = _tiny_pair()
    v = {id(x): Truncation(x, "lp", shortcut=False) for x in (I, Ip)}
    bad = lambda x, gen, n: R2T.sample(v[id(x)], size=n, rng=gen, epsilon=20.0, beta=0.1, gs=8)
    res = audit_mechanism(bad, I, Ip, 0.2, n_samples=50000, vectorized=True, seed=0)
    assert res.flagged

def test_accountant_records_and_refuses(social):
    acc = Accountant(1.0)
    r2t(social, epsilon=0.5, beta=0.1, gs=64, rng=0, accountant=acc)
    opt2(social, epsilon=0.5, beta=0.1, rng=0, accountant=acc)
    assert acc.spent == pytest.approx(1.0)
    with pytest.raises(BudgetExceededError):
        fixed_tau(social, 4, epsilon=0.1, rng=0, accountant=acc)

def test_bad_parameters(social):
    with pytest.raises(ValueError):
        r2t(social, epsilon=0, gs=10)
    with pytest.raises(ValueError):
        r2t(social, epsilon=1, gs=10, beta=1.5)
    with pytest.raises(ValueError):
        tau_grid(10, base=1.0)
    with pytest.raises(ValueError):
        Truncation(social).value(-1)
    with pytest.raises(ValueError):
        Truncation(social, "clip")

def test_gs_violation_biases_but_runs():
    info = graph_joininfo(holme_kim(300, 3, 0.5, seed=2), "edge")  # DS > GS = 4
    res = r2t(info, epsilon=1, gs=4, rng=0)
    assert res.value < info.answer

def test_naive_laplace_and_random_tau(social):
    v = naive_laplace(social, epsilon=1, gs=1024, rng=0)
    assert math.isfinite(v.value) and v.epsilon == 1
    rel = random_tau(social, epsilon=1, gs=1024, rng=np.random.default_rng(0))
    assert rel.details["tau"] in tau_grid(1024) and math.isfinite(rel.value)

@pytest.mark.parametrize("query,base", [("triangle", 2.0), ("rectangle", 2.0), ("triangle", 5.5)])
@pytest.mark.parametrize("seed", range(3))
def test_pruned_r2t_equals_unpruned_on_the_lp_engine(query, base, seed):
    """Bound pruning on the HiGHS engine (SJA with |D_j| > 2): same output, never more LPs solved."""
    info = graph_joininfo(holme_kim(150, 4, 0.5, seed=seed + 10), query)
    gs = 2.0**12
    a = r2t(Truncation(info, "lp"), epsilon=0.8, beta=0.1, gs=gs, base=base, rng=seed, prune=True)
    b = r2t(Truncation(info, "lp"), epsilon=0.8, beta=0.1, gs=gs, base=base, rng=seed, prune=False)
    assert a.value == pytest.approx(b.value, rel=1e-9, abs=1e-6)
    assert a.winner_tau == b.winner_tau and a.solved <= b.solved

def test_privacy_audit_of_the_r2t_function_itself():
    """Audit the scalar :func:`r2t` (bound pruning and all), not only the vectorised sampler, on tiny neighbours."""
    eps = 1.0
    I, Ip = _tiny_pair()
    trunc = {id(x): Truncation(x, "lp") for x in (I, Ip)}  # values cached after the first call: only noise is redrawn
    mech = lambda x, gen: r2t(trunc[id(x)], epsilon=eps, beta=0.1, gs=8, rng=gen).value
    res = audit_mechanism(mech, I, Ip, eps, n_samples=20000, seed=3, bins=20)
    assert not res.flagged, str(res)
    # the same harness flags R2T run at a 10× smaller noise than its stated ε
    bad = lambda x, gen: r2t(trunc[id(x)], epsilon=10 * eps, beta=0.1, gs=8, rng=gen).value
    assert audit_mechanism(bad, I, Ip, 0.5 * eps, n_samples=20000, seed=3, bins=20).flagged

def test_random_tau_is_uniform_and_uses_the_given_backend(social):
    from dpworkbench.mechanisms.backends import resolve_backend
    taus = tau_grid(64)
    gen = np.random.default_rng(5)
    picks = np.array([random_tau(social, epsilon=1, gs=64, rng=gen).details["tau"] for _ in range(3000)])
    counts = np.array([(picks == t).sum() for t in taus])
    assert counts.min() > 0.8 * 3000 / taus.size and counts.max() < 1.2 * 3000 / taus.size
    b = resolve_backend(7)
    calls = []
    orig = b.add_laplace
    b.add_laplace = lambda value, scale: calls.append(scale) or orig(value, scale)
    random_tau(social, epsilon=1, gs=64, rng=b)
    assert len(calls) == 1  # the Laplace noise was added by the back-end passed in


# --- releases and ledgers (was test_r2t_release.py) ---------------------------------------------------
E = np.array([[0, 1], [0, 2], [0, 3], [1, 2], [3, 4], [4, 5], [1, 3]])


@pytest.fixture(scope="module")
def graph():
    return from_edge_array(E, n=6)


@pytest.fixture(scope="module")
def info(graph):
    return graph_joininfo(graph, "edge")


def test_plans_match_ledgers(info, graph):
    sjf = from_lists(np.ones(6), [[0], [0], [1], [2], [2], [2]], n=3)
    cases = [
        (lambda a: r2t(info, epsilon=0.7, gs=64, base=2.0, rng=1, accountant=a), privacy_cost_r2t(0.7, 64, 2.0)),
        (lambda a: r2t(info, epsilon=0.7, gs=100, base=5.5, rounding="floor", rng=1, accountant=a),
         privacy_cost_r2t(0.7, 100, 5.5, "floor")),
        (lambda a: opt2(info, epsilon=0.7, rng=1, accountant=a), OPT2.plan(epsilon=0.7)),
        (lambda a: exp_opt2(info, epsilon=0.7, rng=1, accountant=a), EXP_OPT2.plan(epsilon=0.7)),
        (lambda a: naive_laplace(info, epsilon=0.7, gs=8, rng=1, accountant=a), NAIVE_LAPLACE.plan(epsilon=0.7, gs=8)),
        (lambda a: fixed_tau(info, 4, epsilon=0.7, rng=1, accountant=a), FIXED_TAU.plan(epsilon=0.7, tau=4)),
        (lambda a: random_tau(info, epsilon=0.7, gs=8, rng=1, accountant=a), RANDOM_TAU.plan(epsilon=0.7, gs=8)),
        (lambda a: B.rm(info, epsilon=0.7, rng=1, accountant=a), B.RM.plan(epsilon=0.7)),
        (lambda a: B.ls(sjf, epsilon=0.7, gs=8, rng=1, accountant=a), B.LS.plan(epsilon=0.7, gs=8)),
        (lambda a: B.nt(graph, "edge", epsilon=0.7, degree_bound=8, rng=1, accountant=a), B.NT.plan(epsilon=0.7, degree_bound=8)),
        (lambda a: B.sde(graph, "edge", epsilon=0.7, degree_bound=8, rng=1, accountant=a), B.SDE.plan(epsilon=0.7, degree_bound=8)),
    ]
    for run, plan in cases:
        acc = Accountant(0.7)
        rel = run(acc)
        assert isinstance(rel, Release)
        check_ledger_matches(plan, rel.ledger)
        check_ledger_matches(plan, acc.entries)
        assert rel.epsilon == pytest.approx(0.7)


def test_result_views_keep_their_attributes(info):
    res = r2t(info, epsilon=1.0, gs=16, rng=0)
    assert res.winner_tau == res.details["winner_tau"] and res["output"] == res.value
    assert res.truncated.shape == res.taus.shape and res.extra["K"] == 4 and res.epsilon == pytest.approx(1.0)
    o = opt2(info, epsilon=1.0, rng=0)
    assert o.tau == 2.0 ** o.level and "noisy_threshold" in o.exact and "noisy_threshold" not in o.details
    assert B.rm(info, epsilon=1.0, rng=0)["value"] == B.rm(info, epsilon=1.0, rng=0).value


def test_opt2_takes_no_gs(social):
    """Fig. 9's former claim "OPT² error independent of GS", as what it is: OPT² has no GS input at all."""
    import inspect

    assert "gs" not in inspect.signature(opt2).parameters
    with pytest.raises(TypeError):
        opt2(social, epsilon=1.0, rng=0, gs=64.0)
    assert opt2(social, epsilon=1.0, rng=3).value == opt2(social, epsilon=1.0, rng=3).value


def test_a_release_refuses_time_limited_solvers_before_spending():
    """The research tables stop LPs at a time limit and report "OT"; a release must not: whether it came out would
    depend on how long the LPs take on the private data. Refused on the release back-end, nothing spent."""
    info, _ = _tiny_pair()
    for make, mechanism in ((lambda: r2t(Truncation(info, time_limit=30.0), epsilon=0.5, gs=8, rng=None, accountant=acc), "r2t"),
                            (lambda: opt2(info, epsilon=0.5, truncation=Truncation(info, time_limit=30.0), rng=None,
                                          accountant=acc), "opt2"),
                            (lambda: opt2(info, epsilon=0.5, fhat=FHat(info, time_limit=30.0), rng=None, accountant=acc), "opt2")):
        acc = Accountant(10.0)
        with pytest.raises(ValueError, match=f"{mechanism}: a .* time limit or deadline cannot make a release"):
            make()
        assert acc.spent == 0.0
    timed = Truncation(info)
    timed.deadline = 1e18
    with pytest.raises(ValueError, match="deadline"):
        r2t(timed, epsilon=0.5, gs=8, rng=None)
    # research noise (seeded) keeps the convention: the tables need it
    acc = Accountant(10.0)
    r2t(Truncation(info, time_limit=30.0), epsilon=0.5, gs=8, rng=1, accountant=acc)
    opt2(info, epsilon=0.5, fhat=FHat(info, time_limit=30.0), rng=1, accountant=acc)
    assert acc.spent == pytest.approx(1.0)
    # and a release without limits runs
    assert np.isfinite(r2t(info, epsilon=0.5, gs=8, rng=None).value)


@pytest.mark.parametrize("query", ["edge", "triangle", "rectangle"])
def test_fhat_dual_bounds_are_valid_at_every_tau(query):
    # any λ ≥ 0 bounds a max LP (weak duality): the duals of the LPs solved so far bound Ĝ at every other τ, at τ
    # between and below the solved ones, and more tightly than F̂'s monotonicity alone somewhere
    info = graph_joininfo(holme_kim(300, 3, 0.5, seed=4), query)
    fh, exact = FHat(info), FHat(info)
    tighter = 0
    for tau in (64.0, 16.0, 4.0, 1.0):
        fh.g(tau)
        for t in (48.0, 32.0, 12.0, 8.0, 3.0, 2.0, 1.5, 1.0):
            bound, value = fh.g_upper(t), exact.g(t)
            assert bound >= value - 1e-7, (tau, t, bound, value)
            monotone = min([0.0] + [fh.g(s) for s in fh.solved() if s >= t])
            tighter += bound < monotone - 1e-6
    assert tighter > 0


def test_opt2_dual_bound_early_stop_same_output_fewer_lps(monkeypatch):
    # Algorithm 4 with §9.1's dual-bound stop: the same τ and value as Algorithm 2 (sequential SVT, no pruning) for
    # every seed, and fewer F̂ LPs in all than pruning by monotonicity alone (g_upper answering "nothing known")
    infos = [graph_joininfo(holme_kim(300, 3, 0.5, seed=2), q) for q in ("edge", "triangle", "rectangle")]
    runs = [[opt2(info, epsilon=0.8, beta=0.1, rng=s, prune=True) for s in range(40)] for info in infos]
    for info, rs in zip(infos, runs):
        fh = FHat(info)
        for s, a in enumerate(rs):
            b = opt2(info, epsilon=0.8, beta=0.1, rng=s, prune=False, fhat=fh)
            assert a.tau == b.tau and a.value == pytest.approx(b.value, rel=1e-9, abs=1e-6)
    monkeypatch.setattr(InstanceStats, "g_upper", lambda self, tau: 0.0)
    plain = [[opt2(info, epsilon=0.8, beta=0.1, rng=s, prune=True) for s in range(40)] for info in infos]
    assert [[r.tau for r in rs] for rs in plain] == [[r.tau for r in rs] for rs in runs]
    solved, solved_plain = (sum(r.solved for rs in x for r in rs) for x in (runs, plain))
    assert solved < solved_plain
