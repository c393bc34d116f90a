"""The lab's simulators: each game's rules, reference engine, records and numba kernel."""

import hashlib
import os
import warnings
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent


# The modules that face the commands or the tests rather than play: a game's object (game.py: its
# parts, settings and words), its players' checks (checks.py) and its kernel's (lockstep.py), its
# levels and the rule changes a calibration tries (levels.py), a game served at a table
# (table.py), its own benchmarks (bench.py); what every game's commands share to count a run
# (outcomes.py) and the contracts they read (contracts.py); and the generator of
# policies/entries.py (gen_entries.py: the file it writes is played, and counted). No compiled
# code or game result depends on them, so editing one need not recompile every kernel.
_NOT_PLAYED = ("game.py", "checks.py", "lockstep.py", "levels.py", "table.py", "bench.py", "outcomes.py",
               "contracts.py", "gen_entries.py")


def source_digest() -> str:
    """A hash of the rules' and the players' sources (every `.py` under `sim/` and `policies/`,
    every game, but the modules above), 16 hex digits.

    Everything a game's result depends on lives there, so two runs with the same digest, rules,
    policy, seed and game index play the same game. It names numba's cache folder and marks each
    sweep cell, so that neither stale compiled code nor a cell played by other code is reused.
    """
    global _DIGEST
    if _DIGEST is None:
        digest = hashlib.sha256()
        for folder in ("sim", "policies"):
            for path in sorted((_ROOT / folder).rglob("*.py")):
                if path.name in _NOT_PLAYED:
                    continue
                digest.update(path.relative_to(_ROOT).as_posix().encode())
                digest.update(path.read_bytes())
        _DIGEST = digest.hexdigest()[:16]
    return _DIGEST


_DIGEST: str | None = None


def numba_cache_dir() -> Path:
    """The folder numba caches the lab's compiled code in: one per `source_digest()`.

    numba re-validates a cached function only against its own file, not against the functions
    it calls in other files (its documentation says to clear the cache then): an edited policy
    would otherwise keep running its old compiled code inside a cached play loop. A new digest
    is a fresh folder. NUMBA_CACHE_DIR, numba's documented setting, is how numba is told.
    """
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "island-escape" / "numba" / source_digest()


def _use_source_keyed_numba_cache() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return  # an explicit choice is respected
    import sys

    if "numba" in sys.modules:
        warnings.warn("numba was imported before the lab: its cache folder is not keyed to the lab's "
                      "sources, so stale compiled code may run; import sim first", stacklevel=3)
        return
    os.environ["NUMBA_CACHE_DIR"] = str(numba_cache_dir())


_use_source_keyed_numba_cache()
