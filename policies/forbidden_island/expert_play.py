"""Whole Forbidden Island games on the numba kernel played by the ported `expert`.

`play_expert(rules, seed, first, count)` plays games first .. first+count-1 of `seed` (the
kernel's deal streams, sim/forbidden_island/kernel.py `init_game`) and returns one row per game:
the outcome code (layout.CAUSES) and the turn it ended on. The kernel engineer's general play
loop (any policy, `--game forbidden-island`) supersedes this one when it lands; this loop exists
so that the port's strength and speed can be measured now.
"""

from __future__ import annotations

import numpy as np
from numba import njit

import sim.forbidden_island.numba_cache  # noqa: F401  (before any Forbidden Island @njit)
from policies.forbidden_island.expert import NB, NBI, choose
from sim.forbidden_island.convert import params_of
from sim.forbidden_island.kernel import apply_action, init_game, legal_actions
from sim.forbidden_island.layout import MAX_LEGAL, NSTATE, OUTCOME, TURN
from sim.forbidden_island.rules import Rules


@njit(cache=True)
def _play(p, seed, first, count, rows):
    s = np.zeros(NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    legal = np.zeros(MAX_LEGAL, dtype=np.int64)
    b = np.zeros(NB, dtype=np.float64)
    bi = np.zeros(NBI, dtype=np.int64)
    for g in range(count):
        s[:] = 0
        init_game(s, p, rng, seed, first + g)
        n = legal_actions(s, p, legal)
        while n > 0:
            apply_action(s, p, choose(s, p, legal, n, b, bi), rng)
            n = legal_actions(s, p, legal)
        rows[g, 0] = s[OUTCOME]
        rows[g, 1] = s[TURN]


def play_expert(rules: Rules, seed: int, first: int, count: int) -> np.ndarray:
    rows = np.zeros((count, 2), dtype=np.int64)
    _play(params_of(rules), seed, first, count, rows)
    return rows
