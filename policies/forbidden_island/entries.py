"""Each policy's entries into the play loop, with its id written out as a constant, so that numba
compiles (and caches) the loop for that policy alone (dispatch.py says why).

Adding a policy: register it in registry.py, then add its three entries here and its name to
the three tables; tests/forbidden_island/test_play.py checks every registered policy has them.
"""

from numba import njit

from policies.forbidden_island import play


@njit(cache=True, nogil=True)
def play_chunk_random(p, pp, seed, first_game, out, lo, hi):
    play.play_chunk(p, 0, pp, seed, first_game, out, lo, hi)


@njit(cache=True)
def play_logged_random(p, pp, seed, game, out, log):
    return play.play_logged(p, 0, pp, seed, game, out, log)


@njit(cache=True)
def play_on_random(s, p, pp, rng, acts, log, nlog, turns):
    return play.play_on(s, p, 0, pp, rng, acts, log, nlog, turns)


@njit(cache=True, nogil=True)
def play_chunk_expert(p, pp, seed, first_game, out, lo, hi):
    play.play_chunk(p, 1, pp, seed, first_game, out, lo, hi)


@njit(cache=True)
def play_logged_expert(p, pp, seed, game, out, log):
    return play.play_logged(p, 1, pp, seed, game, out, log)


@njit(cache=True)
def play_on_expert(s, p, pp, rng, acts, log, nlog, turns):
    return play.play_on(s, p, 1, pp, rng, acts, log, nlog, turns)


@njit(cache=True, nogil=True)
def play_chunk_lookahead(p, pp, seed, first_game, out, lo, hi):
    play.play_chunk(p, 2, pp, seed, first_game, out, lo, hi)


@njit(cache=True)
def play_logged_lookahead(p, pp, seed, game, out, log):
    return play.play_logged(p, 2, pp, seed, game, out, log)


@njit(cache=True)
def play_on_lookahead(s, p, pp, rng, acts, log, nlog, turns):
    return play.play_on(s, p, 2, pp, rng, acts, log, nlog, turns)


@njit(cache=True, nogil=True)
def play_chunk_skilled(p, pp, seed, first_game, out, lo, hi):
    play.play_chunk(p, 3, pp, seed, first_game, out, lo, hi)


@njit(cache=True)
def play_logged_skilled(p, pp, seed, game, out, log):
    return play.play_logged(p, 3, pp, seed, game, out, log)


@njit(cache=True)
def play_on_skilled(s, p, pp, rng, acts, log, nlog, turns):
    return play.play_on(s, p, 3, pp, rng, acts, log, nlog, turns)


PLAY_CHUNK = {"random": play_chunk_random, "expert": play_chunk_expert, "lookahead": play_chunk_lookahead,
              "skilled": play_chunk_skilled}
PLAY_LOGGED = {"random": play_logged_random, "expert": play_logged_expert, "lookahead": play_logged_lookahead,
               "skilled": play_logged_skilled}
PLAY_ON = {"random": play_on_random, "expert": play_on_expert, "lookahead": play_on_lookahead,
           "skilled": play_on_skilled}
