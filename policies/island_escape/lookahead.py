"""`lookahead`: the strongest fair policy - every game's search (policies/search.py) over the next
action, rolling out with `expert`, leaving the expert's choice only when fresh evidence says
another action is better.

At a decision with more than one legal action it samples worlds: completions of the hidden
information consistent with what the table sees (R19: the face-down cards dealt at random among
the face-down places, Kings' places following, and the undrawn column and row cards of this
pass in a random order: the kernel's `sample_world`; later passes are shuffled from the world's
own seed). A world is scored for an action by playing that action and then the rest of the game
with `expert` through the play loop (`policies/play.py: play_on`): 1 for a win plus 0.05 per
treasure raised (`rollout_value`). Every action is scored on the same worlds (common random
numbers), so their differences are measured game by game.

1. Screening: every legal action on `screen` worlds, each played on for `horizon` turns only
   and then valued at `still` (a game not yet lost) plus its treasures. Only actions whose
   paired score beats the expert's choice stay in the race; when none does (most decisions)
   the expert's choice stands at once.
2. Successive halving: the survivors play on twice as many worlds each round (same horizon)
   and the worse half drops out, until one challenger is left or `budget` rollouts are spent.
3. Confirmation: the challenger and the expert's choice play on `confirm` fresh worlds, never
   used to select it, and always to the end of the game. The search deviates only if the
   challenger's paired mean gain exceeds `z` standard errors. Selecting and judging on the same
   worlds would reward the luckiest of a dozen noisy estimates (the winner's curse), which is
   how the former lookahead lost 13 points to its own rollout policy on moderate settings.

So the search is never worse than `expert` in expectation: it changes a decision only on
independent, unbiased evidence (the short horizon only decides which action gets tested), and
tests/test_search.py checks it on paired games.

The defaults spend the budget where it pays (the aim: 100 games/s on 2 cores, so that the
report can play it beside every level, and at least 15 points above expert on the hard setting,
3 players and 3 cards a treasure). Seed 77, where
expert wins 15.0% of the first 500 hard games: the former full search (2 screening worlds,
16 confirming, 48 halving, every rollout to the end) won 52.7% of 150 at a few games/s; 1, 8
and 16 won 42% of 150; a 6-turn screening horizon kept most of that (37.6% of 500) for twice the
speed, where 4 turns fell to 29%; searching a random 80% of decisions won 34.2% of 500 at 84
games per core-second (Normal 2p: 95.2%, 67 per core-second). Those are the defaults.

Fair: worlds depend only on the public state and the policy stream (the face-down cards are
gathered in sorted order before shuffling, so which face-down place holds which card never
matters). `clairvoyant` (policies/island_escape/clairvoyant.py) runs this search on the one true world.

pp slots (0 = default): 0 screening worlds (1), 1 confirmation worlds (8), 2 z (1.0),
3 screening horizon in turns (6; -1: to the end), 4 halving budget in rollouts per decision
(16), 5 worth of a screening rollout still going at the horizon (0.3), 6 share of decisions
searched, drawn from the policy stream (0.8; the others play the expert's choice at once),
13 the budget (1; `lookahead@N`: policies/search.py). The former defaults, a full search at
every decision, are `2,16,1,-1,48,0.5,1`.
"""

import numpy as np
from numba import njit

from policies import search as S
from policies.island_escape import expert
from policies.island_escape.decision_pieces import fill
from policies.island_escape.decisions import by_mask
from policies.registry import PARAMS_LENGTH
from policies.search import KNOBS
from sim.intrinsics import borrowed, stack_empty
from sim.island_escape.layout import N_ACTIONS, OUTCOME, RAISED, popcount

DESCRIPTION = "fair search: samples hidden cards and floods, rolls out with expert, deviates only on fresh evidence"
USES_LEGAL = False  # decides on the legal mask, which it builds itself (decisions.py)

# the game's, this policy's and the rollout policy's ids (policies/dispatch.py, registry.py); tested
GAME_ID, LOOKAHEAD_ID, EXPERT_ID = 0, 6, 4
# the search's knobs where pp's slots are 0 (policies/search.py names the slots)
DEFAULTS = np.zeros(KNOBS)
DEFAULTS[S.K_SCREEN], DEFAULTS[S.K_CONFIRM], DEFAULTS[S.K_Z], DEFAULTS[S.K_HORIZON] = 1.0, 8.0, 1.0, 6.0
DEFAULTS[S.K_BUDGET], DEFAULTS[S.K_STILL], DEFAULTS[S.K_SHARE] = 16.0, 0.3, 0.8
DEFAULTS[S.K_ROUNDS], DEFAULTS[S.K_WORLDS] = 1.0, 256.0


def budget_params(budget: int) -> np.ndarray:
    """The parameter array of `lookahead@budget`."""
    return S.with_budget(np.zeros(PARAMS_LENGTH), budget)


@njit(cache=True)
def rollout_value(u, p, seat, still, leaf):
    """A rollout's worth: 1 for a win, `still` for a game still going at the horizon, plus 0.05
    per raised treasure."""
    u = borrowed(u)
    v = 0.05 * popcount(u[RAISED])
    if u[OUTCOME] == 0:
        v += 1.0
    elif u[OUTCOME] < 0:
        v += still
    return v


@njit(cache=True)
def search(s, p, pp, legal, rng, exact):
    """The action to play: expert's unless another is confirmed better (see the module doc)."""
    s, p, pp, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(rng)
    none = stack_empty(1, np.float64)  # expert's default weights, counted by nobody
    fill(none, 0.0)
    cand = stack_empty(N_ACTIONS, np.int64)
    cand[0] = expert.action(s, p, none, legal, rng)
    nc = 1
    for a in range(N_ACTIONS):
        if (legal >> a) & 1 and a != cand[0]:
            cand[nc] = a
            nc += 1
    knobs = stack_empty(KNOBS, np.float64)
    for k in range(KNOBS):
        knobs[k] = pp[k] if k < pp.shape[0] and pp[k] != 0.0 else DEFAULTS[k]
    return S.search(GAME_ID, LOOKAHEAD_ID, EXPERT_ID, s, p, none, rng, cand, nc, 0, knobs, exact)


@njit(cache=True)  # it creates arrays, which numba counts as usual
def action(s, p, pp, legal, rng):
    s, p, pp, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(rng)
    return search(s, p, pp, legal, rng, False)


escape = expert.escape  # an escape (R15) is the expert's, unsearched


@njit(cache=True)
def choose(s, p, pp, acts, n, rng):  # the one signature (decisions.py)
    return by_mask(s, p, pp, acts, rng, action, escape)
