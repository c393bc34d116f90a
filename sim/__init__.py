"""Island Escape simulator: rules, reference engine, records, numba kernel and runners."""

import hashlib
import os
from pathlib import Path


def source_digest() -> str:
    """A hash of the rules' and the players' sources (`sim/*.py`, `policies/*.py`), 16 hex digits.

    Everything a game's result depends on lives there, so two runs with the same digest, rules,
    policy, seed and game index play the same game. It names numba's cache folder and marks each
    sweep cell, so that neither stale compiled code nor a cell played by other code is reused.
    """
    global _DIGEST
    if _DIGEST is None:
        root = Path(__file__).resolve().parent.parent
        digest = hashlib.sha256()
        for folder in ("sim", "policies"):
            for path in sorted((root / folder).glob("*.py")):
                digest.update(path.name.encode())
                digest.update(path.read_bytes())
        _DIGEST = digest.hexdigest()[:16]
    return _DIGEST


_DIGEST: str | None = None


def _use_source_keyed_numba_cache() -> None:
    """Keep numba's on-disk cache in a folder named after `source_digest()`.

    numba re-validates a cached function only against its own file, not against the functions
    it calls in other files: an edited policy would otherwise keep running its old compiled
    code inside the cached kernel, silently. A new hash means a fresh cache. An explicit
    NUMBA_CACHE_DIR is respected.
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    cache = base / "island-escape" / "numba" / source_digest()
    os.environ["NUMBA_CACHE_DIR"] = str(cache)
    try:  # numba may already be imported (a notebook, a test): tell its config too
        import sys

        if "numba" in sys.modules:
            sys.modules["numba"].config.CACHE_DIR = str(cache)
    except AttributeError:
        pass


_use_source_keyed_numba_cache()
