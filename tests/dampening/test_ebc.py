import networkx as nx
import numpy as np
import pytest

from dpworkbench.dampening import SensitivityMatrix, dampen
from dpworkbench.dampening import ebc as E
from dpworkbench.dampening import worked_examples as ex
from dpworkbench.graphs import from_networkx, holme_kim
from dpworkbench.testing import audit_mechanism
from dpworkbench.dampening import mechanisms as DM


def test_ebc_matches_definition_on_random_graphs():
    for s in range(8):
        H = nx.gnp_random_graph(11, 0.45, seed=s)
        g, labels = from_networkx(H)
        ref = E.ebc_reference_networkx(H)
        np.testing.assert_allclose(E.ebc_all(g, cache=False), [ref[v] for v in labels])


def test_worked_examples_fig2_fig9c():
    G2 = ex.fig2_graph()
    e = ex.ebc_nx(G2)
    assert e[0] == 7.5 and np.all(e[2:] == 0)
    H = G2.copy(); H.remove_edge("a", "b")
    e2 = ex.ebc_nx(H)
    assert e2[0] == 15 and np.all(e2[2:] == 1)
    G = ex.fig9c_graph()
    np.testing.assert_allclose(ex.ebc_nx(G), ex.fig9c_utilities())
    ls = ex.element_ls_bruteforce(G, t_max=1)
    np.testing.assert_allclose(ls, ex.fig9c_element_ls()[:, :2])
    assert ls[:, 0].max() == 3 and ls[:, 1].max() == 5   # LS(G,0)=3, LS(G,1)=5 (Ex. 2.4.1)


def _random_graphs(count, n=7, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        yield nx.gnp_random_graph(n, float(rng.uniform(0.2, 0.7)), seed=int(rng.integers(1 << 30)))


def test_delta_ebc_admissible_bruteforce():
    """Condition 1 (δ ≥ LS0) and condition 2 (δ(x,t+1) ≥ δ(y,t)) over all edge toggles; bound Δ fixed publicly."""
    for G in _random_graphs(25):
        deg = np.array([d for _, d in G.degree()])
        e = ex.ebc_nx(G)
        ls0 = np.max([np.abs(ex.ebc_nx(H) - e) for H in ex.toggles(G)], axis=0)
        assert np.all(E.delta_ebc(deg, 0, max_degree_bound=6) >= ls0 - 1e-12)
        for H in ex.toggles(G):
            dh = np.array([d for _, d in H.degree()])
            for t in range(3):
                assert np.all(E.delta_ebc(deg, t + 1, max_degree_bound=6) >= E.delta_ebc(dh, t, max_degree_bound=6))


def test_ld_and_sld_scores_match_generic_dampening():
    g = holme_kim(300, 3, 0.3, seed=1)
    e, d = E.ebc_all(g), g.degrees
    Dm = int(d.max())
    T = Dm + 2
    mat = np.column_stack([E.delta_ebc(d, t, max_degree_bound=Dm) for t in range(T)])
    sm = SensitivityMatrix(mat, E.global_sensitivity_ebc(Dm))
    np.testing.assert_allclose(E.ld_scores(e, d), dampen(e, sm), rtol=1e-10, atol=1e-10)
    closed = (e - np.sum(sm.global_sensitivity - sm.values, axis=1)) / sm.global_sensitivity
    diff = E.sld_scores(e, d) - closed
    assert np.ptp(diff) < 1e-8


@pytest.mark.parametrize("eps", [1.0, 4.0])
def test_dp_ratio_all_edge_toggles(eps):
    """Exact log-ratio of one PrivTopk draw (k=1) over every neighbouring graph, public Δ bound: EM, PF, LD, SLD."""
    from dpworkbench.mechanisms import permute_and_flip_probabilities

    bound = 6
    for G in _random_graphs(12, seed=5):
        def laws(H):
            e = ex.ebc_nx(H); d = np.array([x for _, x in H.degree()])
            gs = E.global_sensitivity_ebc(bound)
            out = {"EM": eps * e / (2 * gs), "LD": eps * E.ld_scores(e, d, max_degree_bound=bound) / 2,
                   "SLD": eps * E.sld_scores(e, d, max_degree_bound=bound) / 2}
            out = {k: v - np.logaddexp.reduce(v) for k, v in out.items()}
            out["PF"] = np.log(permute_and_flip_probabilities(e, epsilon=eps, sensitivity=gs))   # exact PF law
            return out
        lg = laws(G)
        for H in ex.toggles(G):
            lh = laws(H)
            for k in lg:
                assert np.max(np.abs(lg[k] - lh[k])) <= eps * (1 + 1e-9), k


def _worst_toggle(G, method, eps, bound):
    """The neighbouring graph with the largest exact one-draw log-ratio for ``method`` (the audit's hardest pair)."""
    from dpworkbench.mechanisms import permute_and_flip_probabilities

    def law(H):
        e = ex.ebc_nx(H); d = np.array([x for _, x in H.degree()])
        if method == "PF":
            return np.log(permute_and_flip_probabilities(e, epsilon=eps, sensitivity=E.global_sensitivity_ebc(bound)))
        lg = E.method_logits(e, d, 1, epsilon=eps, method=method, max_degree_bound=bound)
        return lg - np.logaddexp.reduce(lg)
    lg = law(G)
    return max(ex.toggles(G), key=lambda H: float(np.max(np.abs(law(H) - lg))))


def _graph_data(X):
    return ex.ebc_nx(X), np.array([x for _, x in X.degree()])


@pytest.mark.parametrize("method", E.METHODS)
def test_audit_privtopk_on_small_graph(method):
    """Privacy auditor on the release function ``priv_top_k`` (k = 2, ε = 1, ordered pairs as outputs) on the Fig. 9c graph
    and its worst neighbour for the method."""
    G = ex.fig9c_graph()
    H = _worst_toggle(G, method, 1.0, 7)
    mech = lambda dat, rng: tuple(DM.priv_top_k(dat[0], dat[1], 2, epsilon=1.0, method=method, max_degree_bound=7, rng=rng).value.tolist())  # noqa: E731
    res = audit_mechanism(mech, _graph_data(G), _graph_data(H), 1.0, n_samples=10000, seed=0)
    assert not res.flagged, res


def test_audit_has_power_on_this_graph():
    """The same audit (ε = 1, 10,000 samples) flags the classic bug — EM top-1 calibrated with sensitivity 1 instead of
    ΔEBC — on the Fig. 9c graph and that mechanism's worst neighbour, so the audits above can fail."""
    from dpworkbench.mechanisms import exponential_mechanism

    G = ex.fig9c_graph()
    law = lambda X: (lambda lg: lg - np.logaddexp.reduce(lg))(ex.ebc_nx(X) / 2)  # noqa: E731
    H = max(ex.toggles(G), key=lambda X: float(np.max(np.abs(law(X) - law(G)))))
    buggy = lambda e, rng: exponential_mechanism(e, epsilon=1.0, sensitivity=1.0, rng=rng)  # noqa: E731
    res = audit_mechanism(buggy, ex.ebc_nx(G), ex.ebc_nx(H), 1.0, n_samples=10000, seed=0)
    assert res.flagged and res.epsilon_lower > 1.5, res


def test_ebc_nodes_and_ego_reference_agree_with_kernel():
    g = holme_kim(500, 4, 0.4, seed=9)
    full = E.ebc_all(g, cache=False)
    nodes = np.random.default_rng(0).choice(500, 60, replace=False)
    np.testing.assert_allclose(E.ebc_nodes(g, nodes), full[nodes])
    G = g.to_networkx()
    for ref in (E.ebc_reference_ego(G, nodes.tolist()), E.ebc_reference_sets(G, nodes.tolist())):
        np.testing.assert_allclose([ref[int(v)] for v in nodes], full[nodes])
    with pytest.raises(ValueError, match="nodes"):
        E.ebc_nodes(g, [500])


def test_privtopk_accounting_and_errors():
    from dpworkbench.accounting import Accountant, check_ledger_matches
    from dpworkbench.dampening.mechanisms import TOPK

    g = holme_kim(200, 3, 0.3, seed=2)
    e, d = E.ebc_all(g), g.degrees
    acc = Accountant(4.0)
    for m in E.METHODS:
        rel = DM.priv_top_k(e, d, 5, epsilon=1.0, method=m, rng=0, accountant=acc)
        assert len(set(rel.value.tolist())) == 5
        check_ledger_matches(TOPK[m].plan(epsilon=1.0, k=5), rel.ledger)   # k draws of ε/k, recorded
        assert rel.derived_public == ("max_degree_bound",) and rel.public["max_degree_bound"] == int(d.max())
    assert abs(acc.spent - 4.0) < 1e-9                      # 4 calls × ε = 1
    with pytest.raises(ValueError, match="larger than the number of nodes"):
        DM.priv_top_k(e, d, 500, epsilon=1.0, rng=0)
    with pytest.raises(ValueError, match="max_degree_bound"):
        DM.priv_top_k(e, d, 5, epsilon=1.0, max_degree_bound=2, rng=0)
    with pytest.raises(ValueError, match="method"):
        DM.priv_top_k(e, d, 5, epsilon=1.0, method="XX", rng=0)


def test_priv_top_k_on_scores_is_not_a_release():
    """Scores in: a degree over the bound could only be refused, a refusal that would depend on the private graph.
    The release back-end is refused before the scores are read, even with a bound that holds; the graph entry point
    releases the same graph."""
    g = holme_kim(60, 3, 0.3, seed=2)
    e, d = E.ebc_all(g), g.degrees
    for bound in (None, int(d.max()), 1):
        with pytest.raises(ValueError, match="priv_top_k_graph"):
            DM.priv_top_k(e, d, 3, epsilon=1.0, max_degree_bound=bound)
    assert len(DM.priv_top_k_graph(g.edge_array(), g.n, 3, epsilon=1.0, max_degree_bound=int(d.max())).value) == 3


def test_sld_beats_em_at_small_budget():
    g = holme_kim(3000, 5, 0.3, seed=3)
    e, d = E.ebc_all(g), g.degrees
    sld = DM.top_k_accuracy(e, d, 5, epsilon=1.0, method="SLD", runs=30, rng=0)
    em = DM.top_k_accuracy(e, d, 5, epsilon=1.0, method="EM", runs=30, rng=0)
    assert sld > em + 0.3


def test_ebc_disk_cache_hit(tmp_path, monkeypatch):
    from dpworkbench import cache

    monkeypatch.setenv("DPWB_CACHE", str(tmp_path))
    g = holme_kim(400, 3, 0.3, seed=11)
    cache.clear("dampening.ebc", disk=False)
    first = E.ebc_all(g)
    files = sorted(tmp_path.rglob("*.joblib"))
    assert len(files) == 1 and str(tmp_path) in str(files[0])
    cache.clear("dampening.ebc", disk=False)   # a later process: nothing in memory
    calls = []
    real = E.ebc_kernel
    monkeypatch.setattr(E, "ebc_kernel", lambda *a: calls.append(1) or real(*a))
    second = E.ebc_all(g)
    assert calls == []                       # served from the disk cache, kernel not called
    np.testing.assert_array_equal(first, second)
    other = holme_kim(400, 3, 0.3, seed=12)  # different graph → different key → computed
    cache.clear("dampening.ebc", disk=False)
    E.ebc_all(other)
    assert calls == [1] and len(sorted(tmp_path.rglob("*.joblib"))) == 2


def test_sample_privtopk_matches_sequential_law():
    """The declaration's research path (``TOPK[m].sample``, size=R) has the law of k sequential draws."""
    from dpworkbench.dampening.mechanisms import TOPK, topk_statistics
    from dpworkbench.mechanisms import exponential_probabilities, permute_and_flip_probabilities

    ebc = np.array([6.0, 5.0, 3.0, 1.0, 0.0]); deg = np.array([4, 4, 3, 2, 1]); k, eps, runs = 2, 3.0, 40000
    gs = E.global_sensitivity_ebc(4)
    for method in ("PF", "SLD"):
        stats = topk_statistics(ebc, deg, method=method, max_degree_bound=None)
        got = TOPK[method].sample(stats, size=runs, rng=np.random.default_rng(0), epsilon=eps, k=k,
                                  max_degree_bound=4)
        emp = np.zeros((5, 5))
        np.add.at(emp, (got[:, 0], got[:, 1]), 1 / runs)
        exact = np.zeros((5, 5))
        score = ebc if method == "PF" else E.sld_scores(ebc, deg)
        sens = gs if method == "PF" else 1.0
        law = permute_and_flip_probabilities if method == "PF" else exponential_probabilities
        p1 = law(score, epsilon=eps / k, sensitivity=sens)
        for a in range(5):
            rest = [b for b in range(5) if b != a]
            p2 = law(score[rest], epsilon=eps / k, sensitivity=sens)
            exact[a, rest] = p1[a] * p2
        assert 0.5 * np.abs(emp - exact).sum() < 0.015, method


@pytest.mark.parametrize("method,sampler,logits", [
    ("EM", "rejection", [0.0, -0.1, -0.3, -0.5, -1.0]),   # rejection sampler of sequential draws
    ("EM", "gumbel", [0.0, -2.0, -3.0, -8.0, -70.0]),     # Gumbel-top-k over candidates; −70 is truncated
    ("EM", "auto", [0.0, -2.0, -3.0, -8.0, -70.0]),
    ("PF", "auto", [0.0, -0.1, -0.3, -0.5, -1.0]),
    ("PF", "auto", [0.0, -2.0, -3.0, -8.0, -70.0]),
])
def test_fast_batch_sampler_matches_exact_sequential_law(method, sampler, logits):
    """The core's numba/rejection/truncated sampler has the exact law of two sequential draws without replacement."""
    from dpworkbench.mechanisms import exponential_probabilities, permute_and_flip_probabilities
    from dpworkbench.mechanisms.topk_sampling import gumbel_top_k_samples, sequential_top_k_samples

    lg = np.array(logits); runs = 40000
    got = sequential_top_k_samples(lg, 2, runs, pf=method == "PF", gen=np.random.default_rng(1), sampler=sampler)
    assert got.shape == (runs, 2) and np.all(got[:, 0] != got[:, 1])
    emp = np.zeros((5, 5))
    np.add.at(emp, (got[:, 0], got[:, 1]), 1 / runs)
    law = permute_and_flip_probabilities if method == "PF" else exponential_probabilities
    exact = np.zeros((5, 5))
    p1 = law(lg, epsilon=2.0, sensitivity=1.0)           # ε/(2Δ) = 1: the logits are the log-weights
    for a in range(5):
        rest = [b for b in range(5) if b != a]
        exact[a, rest] = p1[a] * law(lg[rest], epsilon=2.0, sensitivity=1.0)
    assert 0.5 * np.abs(emp - exact).sum() < 0.012
    ref = gumbel_top_k_samples(lg, 2, runs, pf=method == "PF", gen=np.random.default_rng(2))
    emp_ref = np.zeros((5, 5))
    np.add.at(emp_ref, (ref[:, 0], ref[:, 1]), 1 / runs)
    assert 0.5 * np.abs(emp - emp_ref).sum() < 0.02


def test_fast_batch_sampler_is_seeded():
    from dpworkbench.mechanisms.topk_sampling import sequential_top_k_samples

    lg = np.linspace(0, -3, 50)
    a = sequential_top_k_samples(lg, 5, 100, pf=True, gen=np.random.default_rng(5))
    b = sequential_top_k_samples(lg, 5, 100, pf=True, gen=np.random.default_rng(5))
    np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="method"):
        DM.top_k_accuracy(np.zeros(5), np.ones(5, int), 2, epsilon=1.0, method="XX", runs=10, rng=0)
    with pytest.raises(ValueError, match="sampler"):
        sequential_top_k_samples(lg, 5, 10, pf=False, gen=np.random.default_rng(0), sampler="XX")


def test_sld_limit_is_the_top_k_of_its_degree_dominated_score():
    """Issue 24: SLDPrivTopk plateaus below accuracy 1 because as ε → ∞ it returns the top-k of φ(d_v) + EBC(v)/ΔEBC.
    A hub whose neighbours are all linked (EBC 0, degree 10) outranks a 3-leaf star centre (EBC 3) in that score, so the
    limit misses the true top-1 (accuracy 0) while the EM's limit (the top-k by EBC) would hit it."""
    from dpworkbench.dampening import ebc as E

    ebc_values = np.array([0.0, 3.0, 0.0, 0.0, 0.0])
    degrees = np.array([10, 3, 1, 1, 1])
    assert E.sld_limit_accuracy(ebc_values, degrees, 1, max_degree_bound=10) == 0.0
    assert int(np.argmax(E.sld_scores(ebc_values, degrees, max_degree_bound=10))) == 0
    assert E.sld_limit_accuracy(ebc_values, np.array([3, 3, 1, 1, 1]), 1, max_degree_bound=10) == 1.0  # equal degrees: EBC decides
    # the limit is what the sampler converges to: SLD's top-1 draws at a huge ε all pick the hub
    logits = E.method_logits(ebc_values, degrees, 1, epsilon=1e6, method="SLD", max_degree_bound=10)
    assert int(np.argmax(logits)) == 0
