"""The players of every game. `sim` is imported first: it points numba's cache at the folder
named after the lab's sources (sim/__init__.py) before any player imports numba."""

import sim  # noqa: F401
