"""`lookahead`: a fair search over the deciding seat's floods, creature moves and pushes that
rolls out with `expert`, and leaves the expert's choice only when fresh evidence says another is
better for the seat. Every other decision is the expert's.

Worlds (S16): the seat knows the board, its own values and the counts of the others' hands. A
world keeps the state and redraws what it cannot know: each other seat's values shuffled among
that seat's adventurers (its score then recounted from those rescued), the unflooded tiles
shuffled among the unflooded spaces of their terrain (the world keeps which backs are still
unflooded in each terrain; strictly, the seat knows that only up to the abilities the others
flooded, which it never saw), and the kinds of each other seat's abilities drawn again
(its count kept), each by the abilities' share of the tiles. The dice of a world are its own
stream. Randomness comes from the policy stream only.

A world is scored for a candidate by playing it and then the whole game on with expert in every
seat (`play.play_on`): the seat's win share (S14: 1/k for k tied winners), plus a small term for
its lead in score. All candidates are scored on the same worlds (common random numbers).

1. Screening: every candidate on SCREEN worlds; the best challenger must beat the expert's choice
   by more than MARGIN, or the expert's choice stands at once.
2. Confirmation: the challenger and the expert's choice on CONFIRM fresh worlds, never used to
   select it; the search deviates only when the paired mean gain exceeds Z standard errors (a
   winner picked on noisy estimates would otherwise be trusted for its luck).

So the search is never worse than expert in expectation (tests/survive_the_island/test_players.py
plays them on paired games).
"""

import numpy as np
from numba import njit

from policies import play
from policies.survive_the_island import expert
from sim.intrinsics import borrowed, stack_empty, stack_empty_2d
from sim.streams import rand_below
from sim.survive_the_island import kernel as K
from sim.survive_the_island.layout import (
    ENDING,
    MAX_LEGAL,
    NSTATE,
    P_PLAYERS,
    PH_CREATURE,
    PH_FLOOD,
    PH_PUSH,
    PHASE,
    SCORE,
    SEAT,
    STREAM_POLICY,
)

DESCRIPTION = "expert, its floods, creature moves and pushes searched by expert rollouts on redrawn hidden facts"
USES_LEGAL = False  # as the expert: the loop need not list every dive
# the game's and the rollout policy's ids (policies/dispatch.py, registry.py); tested
GAME_ID, EXPERT_ID = 2, 1
SCREEN = 6  # worlds each candidate is screened on
CONFIRM = 24  # fresh worlds the challenger and the expert's choice are compared on
MARGIN = 0.05  # a challenger's screened gain per world it must exceed to be confirmed
Z = 2.0  # standard errors its confirmed gain must exceed
MOST = 16  # decisions with more candidates are left to the expert
LEAD = 0.002  # a point of score lead, in win shares
@njit(cache=True)
def _rollout(u, p, pp, code, seat, dice, acts):
    """Play `code`, then the game on with expert in every seat; the seat's worth at the end."""
    u, p, pp, dice, acts = borrowed(u), borrowed(p), borrowed(pp), borrowed(dice), borrowed(acts)
    log = stack_empty(1, np.int32)
    K.play_action(u, p, code, dice)
    play.play_on(GAME_ID, EXPERT_ID, u, p, pp, dice, acts, log, -1, 0)
    if u[ENDING] < 0:
        return 0.0
    mask = K.winners(u, p)
    tied = 0
    for k in range(p[P_PLAYERS]):
        tied += (mask >> k) & 1
    share = 1.0 / tied if (mask >> seat) & 1 else 0.0
    lead = -1 << 20
    for k in range(p[P_PLAYERS]):
        if k != seat and u[SCORE + k] > lead:
            lead = u[SCORE + k]
    return share + LEAD * (u[SCORE + seat] - lead)


@njit(cache=True)
def _scores(s, p, pp, codes, n, worlds, rng, out, acts):
    """Each candidate's score on each of `worlds` worlds, into out[candidate, world]."""
    s, p, pp, codes, rng, out, acts = (borrowed(s), borrowed(p), borrowed(pp), borrowed(codes), borrowed(rng),
                                       borrowed(out), borrowed(acts))
    world = stack_empty(NSTATE, np.int32)
    u = stack_empty(NSTATE, np.int32)
    dice = stack_empty(3, np.uint64)
    seat = s[SEAT]
    for w in range(worlds):
        K.sample_world(s, p, rng, world)
        seed = rand_below(rng, STREAM_POLICY, 1 << 30)
        for c in range(n):
            for i in range(NSTATE):
                u[i] = world[i]
            dice[0] = np.uint64(seed) * np.uint64(3) + np.uint64(1)
            dice[1] = np.uint64(seed) * np.uint64(7) + np.uint64(5)  # the world's dice, the same for every candidate
            dice[2] = np.uint64(seed) * np.uint64(11) + np.uint64(9)
            out[c, w] = _rollout(u, p, pp, codes[c], seat, dice, acts)


@njit(cache=True)
def choose(s, p, pp, acts, n, rng):
    s, p, pp, acts, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(acts), borrowed(rng)
    i = expert.choose(s, p, pp, acts, 0, rng)
    ph = s[PHASE]
    if ph != PH_FLOOD and ph != PH_CREATURE and ph != PH_PUSH:
        return i
    mine = acts[i]
    codes = stack_empty(MOST, np.int64)
    n = K.legal_actions(s, p, acts)
    if n < 2 or n > MOST:
        acts[0] = mine
        return 0
    at = 0
    for k in range(n):  # the expert's choice first
        codes[k] = acts[k]
        if acts[k] == mine:
            at = k
    codes[0], codes[at] = codes[at], codes[0]
    scratch = stack_empty(MAX_LEGAL, np.int64)
    screen = stack_empty_2d(MOST, SCREEN, np.float64)
    _scores(s, p, pp, codes, n, SCREEN, rng, screen, scratch)
    best = 0
    gain = MARGIN
    for c in range(1, n):
        g = 0.0
        for w in range(SCREEN):
            g += screen[c, w] - screen[0, w]
        g /= SCREEN
        if g > gain:
            gain = g
            best = c
    acts[0] = mine
    if best == 0:
        return 0
    pair = stack_empty(2, np.int64)
    pair[0] = codes[0]
    pair[1] = codes[best]
    confirm = stack_empty_2d(2, CONFIRM, np.float64)
    _scores(s, p, pp, pair, 2, CONFIRM, rng, confirm, scratch)
    mean = 0.0
    for w in range(CONFIRM):
        mean += confirm[1, w] - confirm[0, w]
    mean /= CONFIRM
    var = 0.0
    for w in range(CONFIRM):
        d = confirm[1, w] - confirm[0, w] - mean
        var += d * d
    se = np.sqrt(var / (CONFIRM - 1) / CONFIRM)
    if mean > Z * se and mean > 0.0:
        acts[0] = codes[best]
    return 0

