"""`sim` first, as the lab's packages do: numba's cache then lives in the folder named after the
lab's sources, so a test never runs compiled code of an older source (sim/__init__.py)."""

import sim  # noqa: F401
