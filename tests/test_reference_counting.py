"""The kernels' speed rests on numba counting no array references inside the decisions: every
function numba compiles on its own borrows its array arguments (sim/intrinsics.py), and numba's
clean-up then drops its NRT_incref/NRT_decref calls. A new compiled function that forgets the
borrow line brings them back (a call per array passed on, in every decision); this counts them in
the machine code of two kernels compiled afresh (tools/nrt_sites.py)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent  # tools/ is run from the repository's root

# the entries' own calls, once a chunk: their CPython wrapper and the chunk's copies
ALLOWED = {("island-escape", "expert"): 9, ("forbidden-island", "random"): 9}


@pytest.mark.parametrize("game,policy", sorted(ALLOWED))
def test_the_decisions_count_no_array_references(game, policy):
    out = subprocess.run([sys.executable, "-m", "tools.nrt_sites", game, policy], cwd=ROOT,
                         capture_output=True, text=True, timeout=600, check=True).stdout
    total = int(re.match(r"(\d+) call sites", out).group(1))
    assert total <= ALLOWED[(game, policy)], out
