"""The entry points every game's kernel exports (`sim/<game>/kernel.py`), one signature for all.

A caller that knows no game (the play loop written once in policies/play.py, a lockstep check, a
search, a table) plays any game through these numba functions.

    init_game(s, p, rng, seed, game)
        Game `game` of `seed` into the state `s` (int32, the game's `layout.NSTATE`) under the
        rule parameters `p` (int32, `layout.NPARAMS`): the random streams `rng` (uint64, 3)
        seeded, the game dealt and set up, up to its first decision.

    legal_actions(s, p, out) -> n
        The decisions open now, as action codes in out[:n] (int64, room for the game's longest
        list: `layout.N_DECISIONS` or `layout.MAX_LEGAL`); 0 once the game is over. Whose
        decision a code is follows from the state and the code (Island Escape: the current
        pawn, or for an escape the lowest pawn on the sunk place; Forbidden Island: `decider`).

    apply_action(s, p, a, rng, log, nlog) -> nlog
        Play decision `a`, one that `legal_actions` listed (not checked), then the game on to
        its next decision (whatever no one chooses, such as a flood phase, is played at once).
        What the game logs goes to `log` (the game's own format) from entry `nlog`, unless
        `nlog` is negative; returns the new log length.

    is_over(s, p) -> bool
        Whether the game has ended (no decision is open).

    turn_number(s, p) -> int
        The turn the game is in (the game's own count, rising by one a turn): a play-on from any
        state stops when the turn it was told to reach begins.

    sample_world(s, p, rng, out)
        Into `out` (int32, NSTATE) a state the deciding seat cannot tell from `s`: what it cannot
        see drawn anew from the policy stream of `rng`, consistently with what it can (the game's
        rulings say what is hidden). It depends on nothing hidden in `s`, only on what is public
        and on `rng`: a search plays its candidates on such worlds.

    write_result(s, p, out, row)
        The ended game's results row into out[row] (int32, the game's `layout.RESULT_FIELDS`).

    seat_outcomes(s, p, out) -> n
        Each seat's result in out[:n] (int64), n the seats: 1 a win, 0 a loss, -1 while the
        game runs. A cooperative game has one team, so every seat has the same result; a
        competitive game gives each seat its own.

tests/test_kernel_api.py checks that every game's kernel exports them with these parameter names.
"""

ENTRY_POINTS = {
    "init_game": ("s", "p", "rng", "seed", "game"),
    "legal_actions": ("s", "p", "out"),
    "apply_action": ("s", "p", "a", "rng", "log", "nlog"),
    "is_over": ("s", "p"),
    "turn_number": ("s", "p"),
    "sample_world": ("s", "p", "rng", "out"),
    "write_result": ("s", "p", "out", "row"),
    "seat_outcomes": ("s", "p", "out"),
}
