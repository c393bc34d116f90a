"""Island Escape simulator: rules, reference engine, records, numba kernel and runners."""

import hashlib
import os
from pathlib import Path


def _use_source_keyed_numba_cache() -> None:
    """Keep numba's on-disk cache in a folder named after a hash of the kernel's sources.

    numba re-validates a cached function only against its own file, not against the functions
    it calls in other files: an edited policy would otherwise keep running its old compiled
    code inside the cached kernel, silently. A new hash means a fresh cache. An explicit
    NUMBA_CACHE_DIR is respected.
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for folder in ("sim", "policies"):
        for path in sorted((root / folder).glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    cache = base / "island-escape" / "numba" / digest.hexdigest()[:16]
    os.environ["NUMBA_CACHE_DIR"] = str(cache)
    try:  # numba may already be imported (a notebook, a test): tell its config too
        import sys

        if "numba" in sys.modules:
            sys.modules["numba"].config.CACHE_DIR = str(cache)
    except AttributeError:
        pass


_use_source_keyed_numba_cache()
