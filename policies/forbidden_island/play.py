"""The play loop: a policy's choices fed to Forbidden Island's kernel, for whole games or from
any state.

The rules (sim/forbidden_island/kernel.py) know nothing of policies. This loop asks the policy
for every decision - actions, draws, discards, swims and any player's special cards alike, as the
kernel lists them (unless the policy decides without the list) - and applies it. A policy
that decides without the list is not asked where the rules leave a single action (a draw while
no hand holds a special card, `kernel.only_draw`); one that reads the list is always asked, as
it may draw randomness even then. `play_on`
plays on from any state (whole games, or a search policy's rollouts); `play_chunk` plays a run's
games into rows of a results table;
`play_logged` plays one game and logs every decision's code (for records).

`pid` must be a compile-time constant (policies/forbidden_island/dispatch.py): enter through
`entries.py`. Nothing in a game allocates: a chunk's scratch arrays live on its stack, and the
arrays from Python are borrowed as views with no reference count (sim/intrinsics.py). Otherwise
every call passing the state or the scratch arrays pays atomic increments and decrements, and
those cost the expert two thirds of its time. A policy may allocate arrays of its own; numba
counts those as usual.
"""

import numpy as np
from numba import njit

from policies.forbidden_island.dispatch import choose, uses_legal
from sim.forbidden_island import kernel as K
from sim.forbidden_island.layout import MAX_LEGAL, NSTATE, OUTCOME, TURN
from sim.intrinsics import borrowed, stack_empty

LOG_SIZE = 1 << 14  # decisions a logged game may take (a long game takes about a thousand)


@njit(cache=True)
def play_on(s, p, pid, pp, rng, acts, log, nlog, turns):
    """Play from the current state to the end of the game, or with `turns` > 0 until turn
    s[TURN] + turns begins. Logs each decision's code into log[nlog:] while nlog >= 0 (and
    the log has room); returns the new nlog."""
    s, p, pp, rng, acts, log = borrowed(s), borrowed(p), borrowed(pp), borrowed(rng), borrowed(acts), borrowed(log)
    last = s[TURN] + turns if turns > 0 else 1 << 30
    while s[TURN] < last:
        if uses_legal(pid):
            n = K.legal_actions(s, p, acts)
            if n == 0:
                break
            a = acts[choose(pid, s, p, pp, acts, n, rng)]
        else:  # a blind policy writes its code into acts[0] (dispatch.py)
            if s[OUTCOME] >= 0:
                break
            # a draw with no special card in any hand is the only legal action: a blind policy
            # is not asked (a third of a game's decisions; it draws no randomness for them)
            a = K.only_draw(s, p, K.phase(s, p))
            if a < 0:
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
def play_logged(p, pid, pp, seed, game, out, log):
    """One game with every decision's code logged; `out[0]` receives its results row.
    Returns the number of codes (log.size when the log ran out: the caller refuses that)."""
    p, pp, out, log = borrowed(p), borrowed(pp), borrowed(out), borrowed(log)
    s = stack_empty(NSTATE, np.int32)
    rng = stack_empty(3, np.uint64)
    acts = stack_empty(MAX_LEGAL, np.int64)
    n = play_game(s, borrowed(p), pid, borrowed(pp), rng, acts, seed, game, borrowed(log), True)
    K.write_result(s, p, out, 0)
    return n
