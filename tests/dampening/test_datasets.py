"""dampening.datasets: the ID3 loaders (class column, Adult's public bins)."""

import pytest


def test_loader_reports_missing_class_column(tmp_path):
    from dpworkbench.dampening.datasets import _load_binary

    p = tmp_path / "t.dat"
    p.write_text("0 1 0\n1 1 0\n")
    with pytest.raises(ValueError, match="class attribute missing.*column 13"):
        _load_binary(p, class_col=13)
    assert _load_binary(p, class_col=2)["X"].shape == (2, 2)


def test_adult_continuous_attributes_binned_from_public_bounds(tmp_path):
    """Continuous Adult attributes go into b equal-width bins over public bounds (not data quantiles): the codes depend
    only on each value and the public range, so a record's code does not change when other records change."""
    from dpworkbench.dampening.datasets import ADULT_CONT, ADULT_PRED, _load_adult

    row = "{age}, Private, 1, Bachelors, 13, Never-married, Tech-support, Not-in-family, White, Male, {cg}, 0, {hpw}, United-States, {inc}"
    lines = [row.format(age=a, cg=c, hpw=h, inc=i) for a, c, h, i in ((17, 0, 1, "<=50K"), (53, 50_000, 50, ">50K"), (90, 99_999, 99, ">50K"))]
    p = tmp_path / "adult.data"
    p.write_text("\n".join(lines) + "\n")
    for b in (4, 10):
        d = _load_adult(p, bins=b)
        for name in ADULT_CONT:
            j = ADULT_PRED.index(name)
            assert d["domains"][j] == b
            assert d["X"][:, j].min() >= 0 and d["X"][:, j].max() <= b - 1
        age = d["X"][:, ADULT_PRED.index("age")]
        assert age[0] == 0 and age[2] == b - 1                       # public bounds 17..90 map to the end bins
        assert age[1] == int((53 - 17) / ((90 - 17) / b))             # equal-width bins over the public range
    assert d["y"].tolist() == [0, 1, 1]
    # categorical attributes use their full public domains (UCI), not the values present in the file
    assert [d["domains"][ADULT_PRED.index(c)] for c in ("workclass", "education-num", "native-country")] == [8, 16, 41]
    bad = tmp_path / "bad" / "adult.data"; bad.parent.mkdir()
    bad.write_text(lines[0].replace("Private", "Astronaut") + "\n")
    with pytest.raises(ValueError, match="public domain"):
        _load_adult(bad)
    one = _load_adult(p, bins=10)
    p.write_text(lines[1] + "\n")                                     # drop the other records
    assert _load_adult(p, bins=10)["X"][0, ADULT_PRED.index("age")] == one["X"][1, ADULT_PRED.index("age")]
