"""`make bench`'s own measurements (experiments/bench.py); its speed figures are not tested."""

import numpy as np

from experiments.bench import memory


def test_memory_is_the_childs_own_peak():
    """The memory figure is the peak of the child that plays the games, not the size of the
    process that started it (Linux keeps getrusage's ru_maxrss across fork and exec, which made
    the bench report its own 1.2 GiB for every size)."""
    block = np.ones(80_000_000)  # 640 MB, touched, in this process
    peak, table = memory("random", 1000)
    assert table < peak < block.nbytes
