"""The play loop: a policy's choices fed into the rules kernel, for whole games or from any state.

The rules (`sim/kernel.py`) know nothing of policies; this module asks the policy for every
choice - each action of a turn and each R15 escape - and applies it with the kernel's step
functions. The same loop serves three callers:
- the runner's entries (`policies/entries.py`: `play_chunk`, `play_logged`), whole games;
- search policies (`lookahead`, `clairvoyant`), which play a game on from a sampled state with
  their rollout policy (`play_on`);
- tests, which drive single floods (`flood_step`) and compare the kernel with the engine.

The policy id `pid` must be a compile-time constant wherever it reaches `policies/dispatch.py`:
the generated entries (`policies/entries.py`: PLAY_CHUNK, PLAY_LOGGED, FLOOD, PLAY_ON) pass
constants, so each policy gets its own compiled copy with only that policy in it. (numba's
`literally` would do the same for a Python caller, but its cached copies crashed on reload.)

Speed: the loop runs without numba's reference counting (`_nrt=False`): nothing in a game
allocates, and counting array references cost more than the game itself. Policies that
allocate switch counting back on for themselves (see policies/dispatch.py).
"""

import numpy as np
from numba import njit
from numba.core import cgutils
from numba.extending import intrinsic

from policies.dispatch import choose_action, choose_escape, uses_legal
from sim import kernel as K
from sim.layout import A_END, ACTS, NSTATE, OUTCOME, P_PAWNS, PAWN, TURN, seed_streams


@njit(cache=True, inline="never")
def keep_alive(a, b, c, d, e, f):
    return a.size + b.size + c.size + d.size + e.size + f.size

@intrinsic
def borrowed(typingctx, arr):
    """A view of `arr` that carries no reference count (a null meminfo).

    For the arrays a chunk hands to its games: the policies' functions are compiled with
    numba's reference counting (they may allocate), and every call into them would otherwise
    pay atomic increments and decrements on these arrays. The chunk owns the arrays and
    outlives the view.
    """
    def codegen(context, builder, signature, args):
        view = context.make_array(arr)(context, builder, value=args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        return view._getvalue()
    return arr(arr), codegen

@njit(cache=True, forceinline=True, _nrt=False)
def flood_step(s, p, pid, pp, rng, opts, log, nlog):
    """R14, R15: one flood, the escapes of the pawns on a sinking place chosen by the policy."""
    nlog, sank, card = K.draw_flood(s, p, log, nlog)
    if s[OUTCOME] >= 0:
        return nlog
    if sank >= 0:
        for pawn in range(p[P_PAWNS]):
            if s[PAWN + pawn] != sank:
                continue
            n = K.escape_options(s, p, sank, opts)
            if n == 0:  # drowned (R15)
                return nlog
            nlog = K.escape_to(s, pawn, opts[choose_escape(pid, s, p, pp, pawn, opts, n, rng)], log, nlog)
    K.end_flood(s, p, rng, sank, card)
    return nlog

@njit(cache=True, forceinline=True, _nrt=False)
def play_on(s, p, pid, pp, rng, opts, log, nlog, turns):
    """Play from the current state to the end of the game: the rest of this turn's actions
    (none if the state is between turns with no actions left), its flood phase, then whole turns.
    With `turns` > 0 it stops after the flood phase of turn s[TURN] + turns - 1, the game maybe
    still going. Returns the new log length."""
    last = s[TURN] + turns - 1 if turns > 0 else 1 << 30
    while True:
        while s[ACTS] > 0:
            legal = K.legal_actions(s, p) if uses_legal(pid) else np.int64(1) << A_END
            a = choose_action(pid, s, p, pp, legal, rng)
            nlog = K.apply_action(s, p, a, log, nlog)
            if s[OUTCOME] >= 0:
                return nlog
        for _ in range(K.floods_due(s, p)):
            nlog = flood_step(s, p, pid, pp, rng, opts, log, nlog)
            if s[OUTCOME] >= 0:
                return nlog
        if s[TURN] >= last:
            return nlog
        K.begin_turn(s, p)

@njit(cache=True, _nrt=False)
def play_game(s, p, pid, pp, rng, opts, seed, game, log, logging):
    """Deal game `game` of `seed` and play it to its end; returns the number of log rows."""
    K.init_game(s, p, rng, seed, game)
    K.begin_turn(s, p)
    nlog = play_on(s, p, pid, pp, rng, opts, log, 0 if logging else -1, 0)
    return max(nlog, 0)

@njit(cache=True, nogil=True)
def play_chunk(p, pid, pp, seed, first_game, out, lo, hi):
    """Play the games of rows lo … hi-1 of `out` (row i is game first_game + i).

    Scratch arrays are allocated once per chunk; each game writes only its own row, and its
    randomness depends only on (seed, game), so any split into chunks and threads gives the same
    table. `nogil` lets the runner play chunks on several threads at once. Each chunk plays on
    its own copies of the rule and policy parameters, so that threads share no memory that
    they touch per game (only their own rows of `out`).
    """
    s = np.empty(NSTATE, dtype=np.int32)
    rng = np.empty(3, dtype=np.uint64)
    opts = np.empty(8, dtype=np.int64)
    log = np.empty((1, 4), dtype=np.int32)
    p_own = p.copy()
    pp_own = pp.copy()
    s_, p_, pp_ = borrowed(s), borrowed(p_own), borrowed(pp_own)
    rng_, opts_, log_ = borrowed(rng), borrowed(opts), borrowed(log)
    for i in range(lo, hi):
        play_game(s_, p_, pid, pp_, rng_, opts_, seed, first_game + i, log_, False)
        K.write_result(s_, p_, out, i)
    # keep the owners alive until the games are done: numba frees a variable after its last use
    keep_alive(s, p_own, pp_own, rng, opts, log)

@njit(cache=True)
def play_logged(p, pid, pp, seed, game, out, log, layout, s):
    """One game with every action, escape and flood logged (for record export).

    `layout` receives the dealt cards, `s` the final state, `out[0]` the result row.
    """
    rng = np.empty(3, dtype=np.uint64)
    opts = np.empty(8, dtype=np.int64)
    seed_streams(rng, seed, game)
    K.deal_layout(rng, layout)
    n = play_game(s, p, pid, pp, rng, opts, seed, game, log, True)
    K.write_result(s, p, out, 0)
    return n
