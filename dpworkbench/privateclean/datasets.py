"""Dataset registrations for PrivateClean (synthetic stand-ins; spec §6.2–6.3)."""
from dpworkbench.datasets import register

from .synthetic import generate


def _synthetic(seed, S=1000, N=50, z=2.0, numeric_mode="uniform"):
    return generate(S, N, z, numeric_mode=numeric_mode, rng=seed)


register("privateclean_synthetic", paper="privateclean",
         description="Appendix D synthetic relation: Zipf(z) category on N values, numeric in [0,100] (Table 1 defaults)",
         generate=_synthetic)
