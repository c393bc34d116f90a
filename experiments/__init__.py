"""The lab's experiments and commands. `sim` is imported first: it points numba's cache at the
folder named after the lab's sources (sim/__init__.py) before anything here imports numba."""

import sim  # noqa: F401

MAX_SEED = 2**63 - 1  # the kernels key their random streams by a signed 64-bit seed: the seeds a command takes
