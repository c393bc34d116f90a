"""The Forbidden Island rules layer is plain Python: it imports and plays without numba."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_importable_and_playable_without_numba():
    code = (
        "import sys; sys.modules['numba'] = None\n"  # any `import numba` now fails
        "import sim.forbidden_island.engine as e, sim.forbidden_island.records as r\n"
        "from sim.forbidden_island.rules import Rules\n"
        "g = e.new_game(Rules(players=4, difficulty='legendary'), 1)\n"
        "import random; rng = random.Random(1)\n"
        "while not g.over: g.apply(rng.choice(g.legal_actions()))\n"
        "assert r.replay(r.record_of(g, 1)).outcome == g.outcome\n"
        "print(g.outcome)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() in ("win", "water", "drowned", "treasure", "fools_landing")
