"""Dataset registrations for PrivateClean (synthetic stand-ins; spec §6.2–6.3)."""
from dpworkbench.datasets import register

from .synthetic import generate


def _synthetic(seed, S=1000, N=50, z=2.0, numeric_mode="uniform"):
    return generate(S, N, z, numeric_mode=numeric_mode, rng=seed)


register("privateclean_synthetic", paper="privateclean",
         description="Appendix D synthetic relation: Zipf(z) category on N values, numeric in [0,100] (Table 1 defaults)",
         generate=_synthetic)


def _intel(seed, scale=0.01):
    from .standins import intel_like
    return intel_like(seed, scale=scale)


def _cars_synthetic(seed):
    from .standins import cars
    return cars("synthetic", seed)[0]


def _customer_address(seed, S=50_000):
    from .standins import customer_address_like
    return customer_address_like(seed, S)


register("privateclean_intel_like", paper="privateclean",
         description="IntelWireless-like sensor readings: 54 valid ids + 14 spurious codes incl. NULL, failure temperatures "
                     "(spec §6.2; the real data are not available offline)", generate=_intel)
register("privateclean_cars_synthetic", paper="privateclean",
         description="MCAFE stand-in fallback: synthetic copy of the vega_datasets cars makes (same frequencies and "
                     "misspellings) with acceleration; the real cars table is read by standins.cars('real')",
         generate=_cars_synthetic)
register("privateclean_customer_address_like", paper="privateclean",
         description="TPC-DS customer_address fallback (FD (city, county) → state holds); the real table comes from "
                     "DuckDB dsdgen via privateclean.tpcds.load_customer_address", generate=_customer_address)
