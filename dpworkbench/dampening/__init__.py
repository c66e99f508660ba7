"""Local dampening (de Farias, PhD thesis, UFC 2021; PVLDB 14(4) 2020).

Modules:

* ``model`` — non-private: sensitivity functions (Defs. 3.2.1–3.2.5), the dampening function D
  (Def. 3.3.1), LD / shifted-LD log-weights.
* ``mechanisms`` — every ε-spending step, declared once: LD (Def. 3.4.1), shifted LD (Def. 4.2.1), median and
  percentile selection (EM / PF / LD / SLD), PrivTopk (Alg. 3, also on a raw projected edge list) and DiffPID3
  (Alg. 4: NoisyCount + split selection per level); plans recorded by the framework, research noise by ``sample``.
* Models, each with the thin API wrapper of its declarations: ``ebc`` (egocentric betweenness, δ^EBC;
  ``priv_top_k``), ``median`` (median utility, box bound; ``select_median``), ``percentile`` (proved δ;
  ``select_percentile``), ``id3`` (information gain, LS^IG; ``fit``).
* ``datasets`` (real files and seeded stand-ins), ``worked_examples`` (the thesis' toy graphs and
  brute-force LS oracles), ``experiments`` (drivers), ``figures`` (plotly builders), ``teaching``
  (widget views), ``reference`` (the thesis' numbers), ``claims`` (verdict rules), ``cli``.

References
----------
V. A. E. de Farias, *Local Dampening: Differential Privacy for Non-numeric Queries via Local
Sensitivity*, PhD thesis, UFC 2021; V. A. E. de Farias et al., PVLDB 14(4), 2020.
"""

from ..papers import Paper

PAPER = Paper(key="dampening", title="Local dampening (de Farias; PhD thesis 2021, PVLDB 2020)", seeds=('004',), order=4)

from .mechanisms import local_dampening, shifted_local_dampening
from .model import (
    SensitivityFunction,
    SensitivityMatrix,
    bound_delta,
    check_admissible_bruteforce,
    dampen,
    is_monotone,
    ld_logits,
    sld_logits,
    sld_logits_explicit_shift,
    sld_slack,
)

__all__ = [
    "SensitivityFunction", "SensitivityMatrix", "bound_delta", "dampen", "ld_logits", "local_dampening", "shifted_local_dampening",
    "sld_logits", "sld_logits_explicit_shift", "sld_slack", "check_admissible_bruteforce", "is_monotone",
]
