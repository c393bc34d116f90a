"""The play loop: each decision of Survive the Island's kernel asked of a policy, for whole games
or from any state.

The rules (sim/survive_the_island/kernel.py) know nothing of policies, and play every step no one
decides themselves. This loop asks the policy for every decision - set-up placements, actions,
floods, creature moves and pushes - of whichever seat decides (`s[SEAT]`) and applies it.
`play_on` plays on from any state (whole games, or a search's rollouts); `play_chunk` plays a
run's games into rows of a results table; `play_logged` plays one game and logs every decision's
code (for records: the deal and the rolls are read back from the state, convert.py).

`pid` must be a compile-time constant (dispatch.py): enter through `entries.py`; seats.py holds
the same loop with a policy per seat. Nothing in a game allocates: a chunk's scratch arrays live
on its stack, and the arrays from Python are borrowed as views with no reference count
(sim/intrinsics.py).
"""

import numpy as np
from numba import njit

from policies.survive_the_island.dispatch import choose, uses_legal
from sim.intrinsics import borrowed, stack_empty
from sim.survive_the_island import kernel as K
from sim.survive_the_island.layout import MAX_LEGAL, NSTATE, PH_OVER, PHASE, TURN

LOG_SIZE = 1 << 12  # decisions a logged game may take (a game takes a few hundred)


@njit(cache=True)
def play_on(s, p, pid, pp, rng, acts, log, nlog, turns):
    """Play from the current state to the end of the game, or with `turns` > 0 until turn
    s[TURN] + turns begins. Logs each decision's code into log[nlog:] while nlog >= 0 (and
    the log has room); returns the new nlog."""
    s, p, pp, rng, acts, log = borrowed(s), borrowed(p), borrowed(pp), borrowed(rng), borrowed(acts), borrowed(log)
    last = s[TURN] + turns if turns > 0 else 1 << 30
    while s[TURN] < last and s[PHASE] != PH_OVER:
        if uses_legal(pid):
            n = K.legal_actions(s, p, acts)
            a = acts[choose(pid, s, p, pp, acts, n, rng)]
        else:  # a blind policy writes its code into acts[0] (dispatch.py)
            a = acts[choose(pid, s, p, pp, acts, 0, rng)]
        if 0 <= nlog < log.size:
            log[nlog] = a
            nlog += 1
        K.play_action(s, p, a, rng)
    return nlog


@njit(cache=True)
def play_game(s, p, pid, pp, rng, acts, seed, game, log, logging):
    """Deal game `game` of `seed` and play it to its end; returns the number of logged codes."""
    s, p, pp, rng, acts, log = borrowed(s), borrowed(p), borrowed(pp), borrowed(rng), borrowed(acts), borrowed(log)
    K.init_game(s, p, rng, seed, game)
    return max(play_on(s, p, pid, pp, rng, acts, log, 0 if logging else -1, 0), 0)


@njit(cache=True, nogil=True)
def play_chunk(p, pid, pp, seed, first_game, out, lo, hi):
    """Play the games of rows lo ... hi-1 of `out` (row i is game first_game + i). Each game's
    randomness depends only on (seed, game), so any split into chunks and threads gives the same
    table; `nogil` lets the runner play chunks on several threads."""
    p, pp, out = borrowed(p), borrowed(pp), borrowed(out)
    s = stack_empty(NSTATE, np.int32)
    rng = stack_empty(3, np.uint64)
    acts = stack_empty(MAX_LEGAL, np.int64)
    log = stack_empty(1, np.int32)
    p_own = p.copy()
    pp_own = pp.copy()
    for i in range(lo, hi):
        # the scratch lives on this function's stack; the parameters' copies are borrowed afresh
        # each game, so that the arrays they view stay alive while this loop runs
        play_game(s, borrowed(p_own), pid, borrowed(pp_own), rng, acts, seed, first_game + i, log, False)
        K.write_result(s, p_own, out, i)


@njit(cache=True)
def play_logged(p, pid, pp, seed, game, out, log, s):
    """One game with every decision's code logged; `out[0]` receives its results row and `s`
    (int32, NSTATE) the final state. Returns the number of codes (log.size when the log ran
    out: the caller refuses that)."""
    p, pp, out, log, s = borrowed(p), borrowed(pp), borrowed(out), borrowed(log), borrowed(s)
    rng = stack_empty(3, np.uint64)
    acts = stack_empty(MAX_LEGAL, np.int64)
    n = play_game(s, p, pid, pp, rng, acts, seed, game, log, True)
    K.write_result(s, p, out, 0)
    return n
