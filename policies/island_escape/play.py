"""The play loop: a policy's choices fed into the rules kernel, for whole games or from any state.

The rules (`sim/island_escape/kernel.py`) know nothing of policies; this module asks the policy for every
choice - each action of a turn and each R15 escape - and applies it with the kernel's step
functions. The same loop serves three callers:
- the runner's entries (`policies/island_escape/entries.py`: `play_chunk`, `play_logged`), whole games;
- search policies (`lookahead`, `clairvoyant`), which play a game on from a sampled state with
  their rollout policy (`play_on`);
- tests, which drive single floods (`flood_step`) and compare the kernel with the engine.

The policy id `pid` must be a compile-time constant wherever it reaches `policies/island_escape/dispatch.py`:
the generated entries (`policies/island_escape/entries.py`: PLAY_CHUNK, PLAY_LOGGED, FLOOD, PLAY_ON) pass
constants, so each policy gets its own compiled copy with only that policy in it. (numba's
`literally` would do the same for a Python caller, but its cached copies crashed on reload.)

Speed: nothing in a game allocates (its scratch arrays live on the entry's stack), and the
arrays Python passes in are borrowed as views with no reference count (sim/intrinsics.py):
counting array references, atomically at every call, cost more than the game itself.

Compile time: numba optimises and compiles every function of its own together with everything
it calls, so each wrapper between the entry and the policy (play_chunk, play_game, play_on, the
dispatch) used to cost one more pass over the whole game and policy: about a third of expert's
cold compile. These functions are therefore inlined into the generated entry (`inline="always"`,
numba's own inlining, before typing), and the policy is called through an intrinsic; only
`play_on`, for the search policies' rollouts, remains a function of its own.
"""

import numpy as np
from numba import njit

from policies.island_escape.dispatch import choose_action, choose_escape, uses_legal
from sim.intrinsics import borrowed, stack_empty, stack_empty_2d
from sim.island_escape import kernel as K
from sim.island_escape.layout import A_END, ACTS, NPARAMS, NSTATE, OUTCOME, P_PAWNS, PAWN, TURN, seed_streams


@njit(cache=True, inline="always")
def flood_step(s, p, pid, pp, rng, opts, log, nlog):
    """R14, R15: one flood, the escapes of the pawns on a sinking place chosen by the policy."""
    s, p, pp, rng, opts, log = borrowed(s), borrowed(p), borrowed(pp), borrowed(rng), borrowed(opts), borrowed(log)
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


@njit(cache=True, inline="always")
def play_on_inline(s, p, pid, pp, rng, opts, log, nlog, turns):
    """`play_on`'s body, inlined into the caller's own code (see `play_on`)."""
    last = s[TURN] + turns - 1 if turns > 0 else 1 << 30
    while True:
        while s[ACTS] > 0:
            legal = K.legal_mask(s, p) if uses_legal(pid) else np.int64(1) << A_END
            a = choose_action(pid, s, p, pp, legal, rng)
            nlog = K.apply_turn_action(s, p, a, log, nlog)
            if s[OUTCOME] >= 0:
                return nlog
        for _ in range(K.floods_due(s, p)):
            nlog = flood_step(s, p, pid, pp, rng, opts, log, nlog)
            if s[OUTCOME] >= 0:
                return nlog
        if s[TURN] >= last:
            return nlog
        K.begin_turn(s, p)


@njit(cache=True, forceinline=True)
def play_on(s, p, pid, pp, rng, opts, log, nlog, turns):
    """Play from the current state to the end of the game: the rest of this turn's actions
    (none if the state is between turns with no actions left), its flood phase, then whole turns.
    With `turns` > 0 it stops after the flood phase of turn s[TURN] + turns - 1, the game maybe
    still going. Returns the new log length.

    A function of its own for the search policies' rollouts; the whole-game entries below
    inline `play_on_inline` instead, so that numba does not compile (and optimise) the game
    loop and the policy once more as a separate function.
    """
    s, p, pp, rng, opts, log = borrowed(s), borrowed(p), borrowed(pp), borrowed(rng), borrowed(opts), borrowed(log)
    return play_on_inline(s, p, pid, pp, rng, opts, log, nlog, turns)


@njit(cache=True, inline="always")
def play_game(s, p, pid, pp, rng, opts, seed, game, log, logging):
    """Deal game `game` of `seed` and play it to its end; returns the number of log rows."""
    K.deal_game(s, p, rng, seed, game)
    K.begin_turn(s, p)
    nlog = play_on_inline(s, p, pid, pp, rng, opts, log, 0 if logging else -1, 0)
    return max(nlog, 0)


@njit(cache=True, inline="always")
def play_chunk(p, pid, pp, seed, first_game, out, lo, hi):
    """Play the games of rows lo … hi-1 of `out` (row i is game first_game + i).

    The caller (a generated entry, compiled with `nogil`) gets this loop inlined and works on
    borrowed views of what Python passed in. Scratch arrays live on its stack, once per chunk; each game writes only
    its own row, and its randomness depends only on (seed, game), so any split into chunks and
    threads gives the same table. The rule parameters are copied onto the stack as well: the
    compiler then knows that writing the state never changes them.
    """
    s = stack_empty(NSTATE, np.int32)
    rng = stack_empty(3, np.uint64)
    opts = stack_empty(8, np.int64)
    log = stack_empty_2d(1, 4, np.int32)  # never written: the games are not logged
    p_own = stack_empty(NPARAMS, np.int32)
    pp, out = borrowed(pp), borrowed(out)
    for i in range(NPARAMS):
        p_own[i] = p[i]
    for i in range(lo, hi):
        play_game(s, p_own, pid, pp, rng, opts, seed, first_game + i, log, False)
        K.write_result(s, p_own, out, i)


@njit(cache=True, inline="always")
def play_logged(p, pid, pp, seed, game, out, log, layout, s):
    """One game with every action, escape and flood logged (for record export).

    `layout` receives the dealt cards, `s` the final state, `out[0]` the result row.
    """
    rng = stack_empty(3, np.uint64)
    opts = stack_empty(8, np.int64)
    p, pp, out, log, layout, s = borrowed(p), borrowed(pp), borrowed(out), borrowed(log), borrowed(layout), borrowed(s)
    seed_streams(rng, seed, game)
    K.deal_layout(rng, layout)
    n = play_game(s, p, pid, pp, rng, opts, seed, game, log, True)
    K.write_result(s, p, out, 0)
    return n
