"""Full public files a user may have (SNAP graphs, Deezer HR): found or pointed at, verified before use.

The sizes and sha256 are those of the published files (``shared/data/README.md``). A file is used only
when both match: a truncated download or a different version would silently change every number
computed from it. Verification checks the size first (free), then the hash (cached by path, size and
mtime, so a file is hashed once).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..paths import data_dir
from .provenance import file_sha256


@dataclass(frozen=True)
class ExternalFile:
    key: str  # the name a caller uses
    filename: str  # the published file name
    size: int
    sha256: str
    source: str  # where to download it (named in error messages)


EXTERNAL_FILES: dict[str, ExternalFile] = {f.key: f for f in (
    ExternalFile("roadnet_pa", "roadNet-PA.txt.gz", 9_945_340,
                 "450b8733635d887466a2b96b26411f6e62caf7006f8a264f59cf9b5d75cdf549", "https://snap.stanford.edu/data/roadNet-PA.html"),
    ExternalFile("roadnet_ca", "roadNet-CA.txt.gz", 17_892_860,
                 "383f7b14424530a9e25c392969a9c19dace32ebcfd141f0967a1433498c2acdd", "https://snap.stanford.edu/data/roadNet-CA.html"),
    ExternalFile("amazon0302", "amazon0302.txt.gz", 4_664_334,
                 "5f1071ac04203b1bc8fc4af5fb473818a180ff1b97e3d7bd716d789801d1f2a3", "https://snap.stanford.edu/data/amazon0302.html"),
    ExternalFile("com_amazon", "com-amazon.ungraph.txt", 12_585_884,
                 "9c403688d01417ca452910947a7000bcd61965fc583f4afe57eb209c8b057b7a", "https://snap.stanford.edu/data/com-Amazon.html"),
    ExternalFile("com_dblp", "com-dblp.ungraph.txt", 13_931_442,
                 "ad025cd5933e163e3007e214b3554e0a99d735a3133d0a4e34fd001621219231", "https://snap.stanford.edu/data/com-DBLP.html"),
    ExternalFile("deezer_hr", "HR_edges.csv", 5_769_739,
                 "017793568a225c409bb9bf291080431073d14a17665ce7239f06d49bd512e1d3", "https://snap.stanford.edu/data/gemsec-Deezer.html"),
)}


class ExternalFileError(ValueError):
    """A user's file is missing or is not the published one (message: one line naming the file)."""


def verify_external(key: str, path: Path | str) -> Path:
    """Check that ``path`` is the published file ``key`` (size, then sha256); returns the path or raises one clear line."""
    if key not in EXTERNAL_FILES:
        raise ExternalFileError(f"unknown external file {key!r}; known: {', '.join(sorted(EXTERNAL_FILES))}")
    spec = EXTERNAL_FILES[key]
    p = Path(path).expanduser()
    if not p.is_file():
        raise ExternalFileError(f"{p}: not found (expected {spec.filename} from {spec.source})")
    size = p.stat().st_size
    if size != spec.size:
        raise ExternalFileError(f"{p}: {size:,} bytes, but the published {spec.filename} has {spec.size:,} "
                                f"(a partial download or another version?); get it from {spec.source}")
    digest = file_sha256(p)
    if digest != spec.sha256:
        raise ExternalFileError(f"{p}: sha256 {digest[:16]}… differs from the published {spec.filename} "
                                f"({spec.sha256[:16]}…); get it from {spec.source}")
    return p


def find_external(key: str) -> Path | None:
    """The published file ``key`` under the data directory (``graphs/`` or its top level), verified; None if absent.

    A file with the published name that fails verification raises rather than being skipped: the user
    put it there to be used, and a stand-in would hide the problem.
    """
    if key not in EXTERNAL_FILES:
        raise ExternalFileError(f"unknown external file {key!r}; known: {', '.join(sorted(EXTERNAL_FILES))}")
    base = data_dir()
    if base is None:
        return None
    name = EXTERNAL_FILES[key].filename
    for candidate in (base / "graphs" / name, base / name):
        if candidate.exists():
            return verify_external(key, candidate)
    return None


__all__ = ["EXTERNAL_FILES", "ExternalFile", "ExternalFileError", "find_external", "verify_external"]
