"""Local dampening (de Farias, PhD thesis, UFC 2021; PVLDB 14(4) 2020).

Modules: ``core`` (dampening function, LD, shifted LD in closed form, sensitivity-function
checks), ``median`` (median selection), ``ebc`` (egocentric betweenness, PrivTopk),
``id3`` (private ID3), ``datasets`` (real files and seeded stand-ins), ``examples``
(the thesis' worked examples).
"""

from .core import (
    SensitivityFunction,
    SensitivityMatrix,
    bound_delta,
    dampen,
    ld_logits,
    local_dampening,
    shifted_local_dampening,
    sld_logits,
    sld_logits_explicit_shift,
    sld_slack,
    check_admissible_bruteforce,
    is_monotone,
)

__all__ = [
    "SensitivityFunction", "SensitivityMatrix", "bound_delta", "dampen", "ld_logits", "local_dampening", "shifted_local_dampening",
    "sld_logits", "sld_logits_explicit_shift", "sld_slack", "check_admissible_bruteforce", "is_monotone",
]
