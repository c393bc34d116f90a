"""`lookahead`: every game's search (policies/search.py) over the deciding seat's floods, creature
moves and pushes, rolling out with `expert` and leaving the expert's choice only when fresh
evidence says another is better for the seat. Every other decision is the expert's.

Worlds (S16): the seat knows the board, its own values and the counts of the others' hands. A
world keeps the state and redraws what it cannot know: each other seat's values shuffled among
that seat's adventurers (its score then recounted from those rescued), the unflooded tiles
shuffled among the unflooded spaces of their terrain (the world keeps which backs are still
unflooded in each terrain; strictly, the seat knows that only up to the abilities the others
flooded, which it never saw), and the kinds of each other seat's abilities drawn again
(its count kept), each by the abilities' share of the tiles: the kernel's `sample_world`. The
dice of a world are its own stream. Randomness comes from the policy stream only.

A world is scored for a candidate by playing it and then the whole game on with expert in every
seat (`play.play_on`): the seat's win share (S14: 1/k for k tied winners), plus a small term for
its lead in score (`rollout_value`). All candidates are scored on the same worlds (common random
numbers).

The search's steps (policies/search.py): screening on SCREEN worlds, where the best challenger
must beat the expert's choice by more than MARGIN a world; no successive halving (BUDGET 0: among
a handful of candidates it cost a fifth of the speed and bought no measurable strength);
confirmation on CONFIRM fresh worlds, where the paired mean gain must exceed Z standard errors.
Decisions with more than MOST candidates are left to the expert.
The parameter array's first KNOBS slots, where not 0, override those knobs (slot 13 the budget,
`lookahead@N`); a table of seats (`seats.py`) keeps its seats' ids beyond them.

So the search is never worse than expert in expectation (tests/survive_the_island/test_players.py
plays them on paired games).
"""
import numpy as np
from numba import njit

from policies import search as S
from policies.registry import PARAMS_LENGTH
from policies.search import KNOBS
from policies.survive_the_island import expert
from sim.intrinsics import borrowed, stack_empty
from sim.survive_the_island import kernel as K
from sim.survive_the_island.layout import ENDING, P_PLAYERS, PH_CREATURE, PH_FLOOD, PH_PUSH, PHASE, SCORE

DESCRIPTION = "expert, its floods, creature moves and pushes searched by expert rollouts on redrawn hidden facts"
USES_LEGAL = False  # as the expert: the loop need not list every dive
# the game's, this policy's and the rollout policy's ids (policies/dispatch.py, registry.py); tested
GAME_ID, LOOKAHEAD_ID, EXPERT_ID = 2, 2, 1
SCREEN = 6  # worlds each candidate is screened on
CONFIRM = 24  # fresh worlds the challenger and the expert's choice are compared on
MARGIN = 0.05  # a challenger's screened gain per world it must exceed to be confirmed
Z = 2.0  # standard errors its confirmed gain must exceed
BUDGET = 0  # no successive halving: the screening's best challenger goes to the confirmation
MOST = 16  # decisions with more candidates are left to the expert
LEAD = 0.002  # a point of score lead, in win shares
# the search's knobs (policies/search.py); every game is played to its end
KNOB_VALUES = np.zeros(KNOBS)
KNOB_VALUES[S.K_SCREEN], KNOB_VALUES[S.K_CONFIRM], KNOB_VALUES[S.K_Z] = SCREEN, CONFIRM, Z
KNOB_VALUES[S.K_BUDGET], KNOB_VALUES[S.K_SHARE], KNOB_VALUES[S.K_MARGIN] = BUDGET, 1.0, MARGIN
KNOB_VALUES[S.K_ROUNDS], KNOB_VALUES[S.K_WORLDS] = 1.0, 256.0


def budget_params(budget: int) -> np.ndarray:
    """The parameter array of `lookahead@budget` (its first KNOBS slots override the knobs; the
    expert reads none)."""
    return S.with_budget(np.zeros(PARAMS_LENGTH), budget)


@njit(cache=True)
def rollout_value(u, p, seat, still, leaf):
    """The seat's worth at the end: its win share (S14: 1/k for k tied winners) plus LEAD a point
    of its lead over the best other seat."""
    u, p = borrowed(u), borrowed(p)
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
def choose(s, p, pp, acts, n, rng):
    s, p, pp, acts, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(acts), borrowed(rng)
    i = expert.choose(s, p, pp, acts, 0, rng)
    ph = s[PHASE]
    if ph != PH_FLOOD and ph != PH_CREATURE and ph != PH_PUSH:
        return i
    mine = acts[i]
    cand = stack_empty(MOST, np.int64)
    n = K.legal_actions(s, p, acts)
    if n < 2 or n > MOST:
        acts[0] = mine
        return 0
    cand[0] = mine
    nc = 1
    for k in range(n):  # the expert's choice first, then the others in the kernel's order
        if acts[k] != mine:
            cand[nc] = acts[k]
            nc += 1
    knobs = stack_empty(KNOBS, np.float64)
    for k in range(KNOBS):
        knobs[k] = pp[k] if pp[k] != 0.0 else KNOB_VALUES[k]
    acts[0] = S.search(GAME_ID, LOOKAHEAD_ID, EXPERT_ID, s, p, pp, rng, cand, nc, K.decider(s), knobs, False)
    return 0
