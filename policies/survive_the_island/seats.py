"""A table with a policy in each seat ("expert,random,random,random"): the play loop of play.py
with the policy chosen at run time, seat by seat.

A single policy's loop is compiled with its id as a constant (entries.py), so numba compiles
that policy alone into it; here each decision reads the deciding seat's policy id from the
policy parameter array (pp[SEAT_POLICY + seat], `seat_params`) and calls that policy, so every
policy a seat may play (registry.SEAT_POLICIES) is compiled into this one loop. A seat's policy
decides every decision of that seat: set-up placements, actions, floods, creature moves, pushes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.survive_the_island import expert, lookahead, uniform_random
from policies.survive_the_island.registry import POLICIES, SEAT_POLICIES
from sim.intrinsics import borrowed, stack_empty
from sim.survive_the_island import kernel as K
from sim.survive_the_island.layout import MAX_LEGAL, NSTATE, PH_OVER, PHASE, SEAT, TURN
from sim.survive_the_island.rules import MAX_PLAYERS

POLICY_PARAMS = 32  # a player's parameter array (runner.POLICY_PARAMS)
SEAT_POLICY = POLICY_PARAMS - MAX_PLAYERS  # pp[SEAT_POLICY + seat]: the policy id of each seat
RANDOM_ID, EXPERT_ID, LOOKAHEAD_ID = POLICIES["random"][0], POLICIES["expert"][0], POLICIES["lookahead"][0]
assert set(SEAT_POLICIES) == {"random", "expert", "lookahead"}  # the dispatch below names each


def seat_params(names: list[str], pp: np.ndarray | None = None) -> np.ndarray:
    """A parameter array (a copy of `pp`, zeros by default) with each seat's policy id."""
    out = np.zeros(POLICY_PARAMS, dtype=np.float64) if pp is None else np.array(pp, dtype=np.float64)
    for seat, name in enumerate(names):
        out[SEAT_POLICY + seat] = POLICIES[name][0]
    return out


@njit(cache=True)
def choose_for_seat(s, p, pp, acts, rng):
    """The code the deciding seat's policy chooses (every seat policy is blind: USES_LEGAL False)."""
    s, p, pp, acts, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(acts), borrowed(rng)
    pid = int(pp[SEAT_POLICY + s[SEAT]])
    if pid == EXPERT_ID:
        return acts[expert.choose(s, p, pp, acts, 0, rng)]
    if pid == LOOKAHEAD_ID:
        return acts[lookahead.choose(s, p, pp, acts, 0, rng)]
    return acts[uniform_random.choose(s, p, pp, acts, 0, rng)]


@njit(cache=True)
def play_on(s, p, pp, rng, acts, log, nlog, turns):
    """play.play_on with each seat's own policy."""
    s, p, pp, rng, acts, log = borrowed(s), borrowed(p), borrowed(pp), borrowed(rng), borrowed(acts), borrowed(log)
    last = s[TURN] + turns if turns > 0 else 1 << 30
    while s[TURN] < last and s[PHASE] != PH_OVER:
        a = choose_for_seat(s, p, pp, acts, rng)
        if 0 <= nlog < log.size:
            log[nlog] = a
            nlog += 1
        K.play_action(s, p, a, rng)
    return nlog


@njit(cache=True)
def _play_game(s, p, pp, rng, acts, seed, game, log, logging):
    s, p, pp, rng, acts, log = borrowed(s), borrowed(p), borrowed(pp), borrowed(rng), borrowed(acts), borrowed(log)
    K.init_game(s, p, rng, seed, game)
    return max(play_on(s, p, pp, rng, acts, log, 0 if logging else -1, 0), 0)


@njit(cache=True, nogil=True)
def play_chunk(p, pp, seed, first_game, out, lo, hi):
    """play.play_chunk with each seat's own policy (the runner's entry for a mixed table)."""
    p, pp, out = borrowed(p), borrowed(pp), borrowed(out)
    s = stack_empty(NSTATE, np.int32)
    rng = stack_empty(3, np.uint64)
    acts = stack_empty(MAX_LEGAL, np.int64)
    log = stack_empty(1, np.int32)
    p_own = p.copy()
    pp_own = pp.copy()
    for i in range(lo, hi):
        _play_game(s, borrowed(p_own), borrowed(pp_own), rng, acts, seed, first_game + i, log, False)
        K.write_result(s, p_own, out, i)


@njit(cache=True)
def play_logged(p, pp, seed, game, out, log, s):
    """play.play_logged with each seat's own policy."""
    p, pp, out, log, s = borrowed(p), borrowed(pp), borrowed(out), borrowed(log), borrowed(s)
    rng = stack_empty(3, np.uint64)
    acts = stack_empty(MAX_LEGAL, np.int64)
    n = _play_game(s, p, pp, rng, acts, seed, game, log, True)
    K.write_result(s, p, out, 0)
    return n
