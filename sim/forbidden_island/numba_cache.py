"""Keep Forbidden Island's compiled code from ever running stale, without touching Island Escape's.

numba checks a cached function only against its own source file. A cached play loop that has
the kernel's step functions compiled into it would keep the old rules after `kernel.py` was
edited. Island Escape solves this with `sim.source_digest()` naming the whole cache folder; doing
the same with Forbidden Island's files in that digest would make every Island Escape run
recompile (minutes) whenever only Forbidden Island's code changes.

Instead, every numba function defined in a Forbidden Island package (`sim/forbidden_island/`,
`policies/forbidden_island/`) is stamped with one digest of all those packages' sources
(`fi_source_digest`). Any edit to any of them changes the stamp, so numba recompiles all of
Forbidden Island's functions and overwrites the stale entries, while Island Escape's cache is left
alone. The other direction is covered already: Forbidden Island's code uses Island Escape's random
streams (`sim/layout.py`), and the cache folder is named after `sim.source_digest()`, so an edit
there gives Forbidden Island a fresh folder too.

This relies on numba's cache locator classes (numba.core.caching), a private interface of the
pinned numba (pyproject.toml); tests/forbidden_island/test_kernel.py checks the stamp is in use.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from numba.core import caching

ROOT = Path(__file__).resolve().parent.parent.parent
FI_PACKAGES = (ROOT / "sim" / "forbidden_island", ROOT / "policies" / "forbidden_island")


@cache
def fi_source_digest() -> str:
    """A hash of every Forbidden Island source file of the rules and the players (16 hex digits),
    read once a process (numba asks for it once a function)."""
    digest = hashlib.sha256()
    for folder in FI_PACKAGES:
        for path in sorted(folder.glob("*.py")):
            digest.update(f"{folder.name}/{path.name}".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _in_fi_package(py_file: str) -> bool:
    parent = Path(py_file).resolve().parent
    return any(parent == folder for folder in FI_PACKAGES)


class ForbiddenIslandCacheLocator(caching.UserProvidedCacheLocator):
    """numba's usual cache folder, but the freshness stamp is the digest of all Forbidden Island
    sources rather than of the function's own file."""

    def get_source_stamp(self):
        return ("forbidden-island", fi_source_digest())

    @classmethod
    def from_function(cls, py_func, py_file):
        if not _in_fi_package(py_file):
            return None
        return super().from_function(py_func, py_file)


def install() -> None:
    """Put the locator first in numba's list (once); call before any Forbidden Island @njit."""
    classes = caching.CacheImpl._locator_classes
    if not any(c.__name__ == ForbiddenIslandCacheLocator.__name__ for c in classes):
        classes.insert(0, ForbiddenIslandCacheLocator)


install()
