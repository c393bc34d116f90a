"""The play loop, written once for every game: a policy's choices fed to a game's kernel, for whole
games or on from any state.

The rules (`sim/<game>/kernel.py`) know nothing of policies, and play every step no one decides
themselves (floods, draws, dice). This loop asks the policy for every decision the kernel's
`legal_actions` would list - whoever's it is - and applies it with `apply_action` (sim/kernel_api.py),
which logs it in the game's own format. A policy that lists its own candidates (`USES_LEGAL =
False`) is asked blind, with n = 0, and writes its code into acts[0]: the loop then builds no
legal list. The same loop serves
- the runner (policies/runner.py), through the generated entries (policies/entries.py):
  `play_chunk` plays a run's games into rows of a results table, `play_logged` one game with
  its log (for records);
- search policies, which play a sampled world on with their rollout policy (`play_on`).

`gid` and `pid` must be compile-time constants (policies/dispatch.py): enter through
policies/entries.py, or pass constants as a search does.

Speed: nothing in a game allocates (a chunk's scratch arrays live on the entry's stack), and the
arrays Python passes in are borrowed as views with no reference count (sim/intrinsics.py):
counting array references, atomically at every call, cost more than some games themselves.

Compile time: numba optimises and compiles every function of its own together with everything it
calls, so each wrapper between the entry and the policy would cost one more pass over the whole
game and policy. These functions are therefore inlined into the generated entry (`inline=
"always"`, numba's own inlining, before typing); only `play_on`, for the searches' rollouts,
is a function of its own.
"""

import numpy as np
from numba import njit

from policies import dispatch as G
from sim.intrinsics import borrowed, stack_empty


@njit(cache=True, inline="always")
def play_on_inline(gid, pid, s, p, pp, rng, acts, log, nlog, turns):
    """`play_on`'s body, inlined into the caller's own code (see `play_on`)."""
    last = G.turn_number(gid, s, p) + turns if turns > 0 else 1 << 30
    while G.turn_number(gid, s, p) < last:
        if G.uses_legal(gid, pid):
            n = G.legal_actions(gid, s, p, acts)
            if n == 0:
                break
            a = acts[G.choose(gid, pid, s, p, pp, acts, n, rng)]
        else:
            if G.is_over(gid, s, p):
                break
            a = acts[G.choose(gid, pid, s, p, pp, acts, 0, rng)]
        nlog = G.apply_action(gid, s, p, a, rng, log, nlog)
    return nlog


@njit(cache=True)
def play_on(gid, pid, s, p, pp, rng, acts, log, nlog, turns):
    """Play from the current decision to the end of the game, or with `turns` > 0 until turn
    turn_number + turns begins (the game maybe still going). The game logs into `log` from
    entry `nlog` unless it is negative; returns the new log length. `acts` is scratch room for
    the game's longest legal list (layout.MAX_LEGAL)."""
    s, p, pp, rng, acts, log = borrowed(s), borrowed(p), borrowed(pp), borrowed(rng), borrowed(acts), borrowed(log)
    return play_on_inline(gid, pid, s, p, pp, rng, acts, log, nlog, turns)


@njit(cache=True, inline="always")
def play_game(gid, pid, s, p, pp, rng, acts, seed, game, log, logging):
    """Deal game `game` of `seed` and play it to its end; returns the length of its log."""
    G.init_game(gid, s, p, rng, seed, game)
    return max(play_on_inline(gid, pid, s, p, pp, rng, acts, log, 0 if logging else -1, 0), 0)


@njit(cache=True, inline="always")
def play_chunk(gid, pid, p, pp, seed, first_game, out, lo, hi):
    """Play the games of rows lo ... hi-1 of `out` (row i is game first_game + i).

    Each game writes only its own row, and its randomness depends only on (seed, game), so any
    split into chunks and threads gives the same table (the entry is compiled with `nogil`).
    The rule parameters are copied onto the stack: the compiler then knows that writing the state
    never changes them. The policy's parameters are copied once a chunk, as a policy may keep
    scratch in them (Forbidden Island's expert does) and chunks run on several threads.
    """
    s = G.state_scratch(gid)
    rng = stack_empty(3, np.uint64)
    acts = G.decisions_scratch(gid)
    log = G.no_log(gid)
    p_own = G.params_scratch(gid)
    out = borrowed(out)
    for i in range(p_own.size):
        p_own[i] = p[i]
    pp_own = pp.copy()
    for i in range(lo, hi):
        # the copy is borrowed afresh each game, so that the array it views stays alive meanwhile
        play_game(gid, pid, s, p_own, borrowed(pp_own), rng, acts, seed, first_game + i, log, False)
        G.write_result(gid, s, p_own, out, i)


@njit(cache=True, inline="always")
def play_logged(gid, pid, p, pp, seed, game, out, log, s):
    """One game with its log: `log` (the game's LOG_SHAPE) receives what the game logs, `s`
    (int32, NSTATE) the final state, `out[0]` the results row. Returns the log's length (its
    first extent when the log ran out: the caller refuses that)."""
    rng = stack_empty(3, np.uint64)
    acts = G.decisions_scratch(gid)
    p, pp, out, log, s = borrowed(p), borrowed(pp), borrowed(out), borrowed(log), borrowed(s)
    n = play_game(gid, pid, s, p, pp, rng, acts, seed, game, log, True)
    G.write_result(gid, s, p, out, 0)
    return n
