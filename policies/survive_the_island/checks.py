"""Survive the Island's players against the hidden information (S16): states at real decisions,
the same states with what the deciding seat cannot see drawn again, and a policy's choice at each
(what tests/test_conformance.py asks of every game). Its kernel against its reference engine is
sim/survive_the_island/lockstep.py.
"""

from __future__ import annotations

import numpy as np

from policies import checks as shared_checks
from sim.lockstep import NO_LOG
from sim.survive_the_island import kernel as K
from sim.survive_the_island import layout as L
from sim.survive_the_island.convert import recount
from sim.survive_the_island.lockstep import new_kernel_game
from sim.survive_the_island.rules import TILES, Rules

STREAM_DEAL, STREAM_DICE, STREAM_PLAYER = 0, 1, 2


HONESTY_RULES = (Rules(players=2), Rules(players=3), Rules(players=5))


def decision_states(count: int, seed: int) -> list[tuple]:
    """`count` kernel states at decisions with a choice, across HONESTY_RULES, from games of
    uniform random play: (s, p, rng) each."""
    def play(s, p, code, rng):
        K.apply_action(s, p, code, rng, NO_LOG, -1)

    return shared_checks.random_walk_states(count, seed, HONESTY_RULES, new_kernel_game, K.legal_actions, play,
                                            0.1, L.MAX_LEGAL)


def rehide(decision: tuple, gen: np.random.Generator) -> tuple:
    """The same state as the deciding seat sees it, what it cannot see drawn again (S16): the
    tiles not yet flooded shuffled among their spaces within each terrain, every other seat's
    values shuffled among its adventurers (its score following its rescued ones), and another
    dice stream."""
    s, p, rng = decision
    t = s.copy()
    spaces = int(p[L.P_NSPACES])
    for terrain in range(3):
        at = [q for q in range(spaces) if t[L.TILE_AT + q] >= 0 and TILES[t[L.TILE_AT + q]][0] == terrain]
        tiles = t[[L.TILE_AT + q for q in at]]
        t[[L.TILE_AT + q for q in at]] = gen.permutation(tiles)
    seat, each = int(K.decider(t)), int(p[L.P_ADV_EACH])
    for other in range(int(p[L.P_PLAYERS])):
        if other == seat:
            continue
        lo = L.VALUE + other * each
        t[lo:lo + each] = gen.permutation(t[lo:lo + each])
        rescued = t[L.ADV_SPACE + other * each:L.ADV_SPACE + (other + 1) * each] == -1
        t[L.SCORE + other] = int(t[lo:lo + each][rescued].sum())
    recount(t, p)  # the placement bits follow the values (S7)
    r = rng.copy()
    r[STREAM_DICE] = np.uint64(gen.integers(1 << 62))
    return t, p, r


def hidden_redrawn(decision: tuple, other: tuple) -> bool:
    return not np.array_equal(decision[0], other[0]) or decision[2][STREAM_DICE] != other[2][STREAM_DICE]


def quick_params(policy: str) -> np.ndarray:
    """A policy's parameters for the honesty check: its defaults (the skill axis at 0.5)."""
    from policies.survive_the_island.registry import REGISTRY

    mod = REGISTRY.module(policy)
    if hasattr(mod, "skill_params"):
        return mod.skill_params(0.5)
    return mod.default_params() if hasattr(mod, "default_params") else np.zeros(32)


def decide(policy: str, decision: tuple) -> int:
    """The action code `policy` (with `quick_params`) chooses at a decision (policies/checks.py)."""
    return shared_checks.decide("survive_the_island", policy, quick_params(policy), decision)
