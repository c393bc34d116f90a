"""`lookahead`: the strongest fair policy - a search over the next action that rolls out with
`expert` and leaves the expert's choice only when fresh evidence says another action is better.

At a decision with more than one legal action it samples worlds: completions of the hidden
information consistent with what the table sees (R19: the face-down cards dealt at random among
the face-down places, Kings' places following, and the undrawn column and row cards of this
pass in a random order; later passes are shuffled from the world's own seed). A world is
scored for an action by playing that action and then the rest of the game with `expert`
through the play loop (`policies/play.py: play_on`): 1 for a win plus 0.05 per treasure
raised. Every action is scored on the same worlds (common random numbers), so their
differences are measured game by game.

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
searched, drawn from the policy stream (0.8; the others play the expert's choice at once).
The former defaults, a full search at every decision, are `2,16,1,-1,48,0.5,1`.
"""

import numpy as np
from numba import njit

import sim.island_escape.kernel as K
from policies import play
from policies.island_escape import expert
from policies.island_escape._search import fill
from policies.island_escape.decisions import by_mask
from sim.intrinsics import borrowed, stack_empty
from sim.island_escape.layout import (
    MAX_LEGAL,
    N_ACTIONS,
    NSTATE,
    OUTCOME,
    RAISED,
    STREAM_DEAL,
    STREAM_FLOOD,
    STREAM_POLICY,
    TURN,
    popcount,
    rand_below,
    rand_unit,
)

DESCRIPTION = "fair search: samples hidden cards and floods, rolls out with expert, deviates only on fresh evidence"
USES_LEGAL = False  # decides on the legal mask, which it builds itself (decisions.py)

# the game's and the rollout policy's ids (policies/dispatch.py, policies/island_escape/registry.py); tested
GAME_ID, EXPERT_ID = 0, 4
MAX_WORLDS = 256


@njit(cache=True)
def _param(pp, k, default):
    pp = borrowed(pp)
    if k < pp.shape[0] and pp[k] != 0.0:
        return pp[k]
    return default


@njit(cache=True)
def rollout(t, p, pp, first, rr, acts, log, horizon, still):
    """Play action `first` for the current pawn of `t`, then the game on with expert (for
    `horizon` turns, this one included: until turn t[TURN] + horizon begins; 0: to the end);
    returns the score: 1 for a win, `still` for a game still going at the horizon, plus 0.05 per
    raised treasure."""
    t, p, pp, rr, acts, log = borrowed(t), borrowed(p), borrowed(pp), borrowed(rr), borrowed(acts), borrowed(log)
    last = t[TURN] + horizon
    K.apply_action(t, p, first, rr, log, -1)
    if t[OUTCOME] < 0 and (horizon == 0 or t[TURN] < last):
        play.play_on(GAME_ID, EXPERT_ID, t, p, pp, rr, acts, log, -1, last - t[TURN] if horizon > 0 else 0)
    score = 0.05 * popcount(t[RAISED])
    if t[OUTCOME] == 0:
        score += 1.0
    elif t[OUTCOME] < 0:
        score += still
    return score


@njit(cache=True)
def _score(worlds, seeds, w, a, p, none, u, rr, acts, log, horizon, still, value, done):
    """The score of action `a` in world `w`, computed once (value/done cache it)."""
    worlds, seeds, p, none, u = borrowed(worlds), borrowed(seeds), borrowed(p), borrowed(none), borrowed(u)
    rr, acts, log, value, done = borrowed(rr), borrowed(acts), borrowed(log), borrowed(value), borrowed(done)
    if done[a, w]:
        return value[a, w]
    for i in range(NSTATE):
        u[i] = worlds[w, i]
    rr[STREAM_DEAL] = seeds[w, 0]
    rr[STREAM_FLOOD] = seeds[w, 1]
    rr[STREAM_POLICY] = seeds[w, 2]
    v = rollout(u, p, none, a, rr, acts, log, horizon, still)
    value[a, w] = v
    done[a, w] = True
    return v


@njit(cache=True)
def _make_worlds(s, p, rng, worlds, seeds, lo, hi, exact):
    """Worlds lo … hi-1: sampled completions of the hidden state (fair), or with `exact` the
    true state and the game's own flood stream (the clairvoyant's one world)."""
    s, p, rng, worlds, seeds = borrowed(s), borrowed(p), borrowed(rng), borrowed(worlds), borrowed(seeds)
    for w in range(lo, hi):
        if exact:
            for i in range(NSTATE):
                worlds[w, i] = s[i]
            seeds[w, 0] = rng[STREAM_DEAL]
            seeds[w, 1] = rng[STREAM_FLOOD]
            seeds[w, 2] = rng[STREAM_POLICY]
        else:
            K.sample_world(s, p, rng, worlds[w])
            seeds[w, 0] = np.uint64(rand_below(rng, STREAM_POLICY, 1 << 30))
            seeds[w, 1] = np.uint64(rand_below(rng, STREAM_POLICY, 1 << 30)) * np.uint64(0x9E3779B97F4A7C15)
            seeds[w, 2] = seeds[w, 0] ^ seeds[w, 1]


@njit(cache=True)
def search(s, p, pp, legal, rng, exact):
    """The action to play: expert's unless another is confirmed better (see the module doc)."""
    s, p, pp, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(rng)
    none = stack_empty(1, np.float64)  # expert's default weights, counted by nobody
    fill(none, 0.0)
    base = expert.action(s, p, none, legal, rng)
    nlegal = popcount(legal & 0xFFFFFFFF) + popcount(legal >> 32)
    if nlegal <= 1:
        return base
    screen = int(_param(pp, 0, 1.0))
    confirm = int(_param(pp, 1, 8.0))
    z = _param(pp, 2, 1.0)
    horizon = max(int(_param(pp, 3, 6.0)), 0)  # 0: to the end
    budget = int(_param(pp, 4, 16.0))
    still = _param(pp, 5, 0.3)
    share = _param(pp, 6, 0.8)
    if exact:  # one true world: every score is exact, no confirmation needed
        screen = 1
        confirm = 0
        horizon = 0
    elif share < 1.0 and rand_unit(rng, STREAM_POLICY) >= share:
        return base
    worlds = np.empty((MAX_WORLDS, NSTATE), dtype=np.int32)
    seeds = np.empty((MAX_WORLDS, 3), dtype=np.uint64)
    value = np.empty((N_ACTIONS, MAX_WORLDS))  # read only where `done`
    done = np.zeros((N_ACTIONS, MAX_WORLDS), dtype=np.bool_)
    u = np.empty(NSTATE, dtype=np.int32)
    rr = np.empty(3, dtype=np.uint64)
    acts = np.empty(MAX_LEGAL, dtype=np.int64)
    log = np.empty((1, 4), dtype=np.int32)
    alive = np.empty(N_ACTIONS, dtype=np.int64)
    gain = np.empty(N_ACTIONS)

    # 1. screening: the actions that beat the expert's choice on the first worlds
    nw = screen
    _make_worlds(s, p, rng, worlds, seeds, 0, nw, exact)
    n = 0
    for a in range(N_ACTIONS):
        if not (legal >> a) & 1 or a == base:
            continue
        g = 0.0
        for w in range(nw):
            g += _score(worlds, seeds, w, a, p, none, u, rr, acts, log, horizon, still, value, done)
            g -= _score(worlds, seeds, w, base, p, none, u, rr, acts, log, horizon, still, value, done)
        if g > 1e-9:
            alive[n] = a
            gain[n] = g / nw
            n += 1
    if n == 0:
        return base
    if exact:  # the best exact gain
        best = 0
        for i in range(1, n):
            if gain[i] > gain[best]:
                best = i
        return alive[best]

    # 2. successive halving on more (shared) worlds until one challenger is left
    spent = 0
    while n > 1 and nw * 2 + confirm <= MAX_WORLDS and spent < budget:
        old = nw
        nw = nw * 2
        _make_worlds(s, p, rng, worlds, seeds, old, nw, exact)
        for i in range(n):
            g = 0.0
            for w in range(nw):
                g += _score(worlds, seeds, w, alive[i], p, none, u, rr, acts, log, horizon, still, value, done)
                g -= _score(worlds, seeds, w, base, p, none, u, rr, acts, log, horizon, still, value, done)
            gain[i] = g / nw
        spent += (n + 1) * (nw - old)
        # keep the better half (stable selection by gain)
        keep = (n + 1) // 2
        for i in range(keep):
            b = i
            for j in range(i + 1, n):
                if gain[j] > gain[b]:
                    b = j
            x = alive[i]
            alive[i] = alive[b]
            alive[b] = x
            y = gain[i]
            gain[i] = gain[b]
            gain[b] = y
        n = keep
    best = 0
    for i in range(1, n):
        if gain[i] > gain[best]:
            best = i
    challenger = alive[best]
    if gain[best] <= 0.0:
        return base

    # 3. confirmation on fresh worlds: paired gain above z standard errors
    _make_worlds(s, p, rng, worlds, seeds, nw, nw + confirm, exact)
    total = 0.0
    squares = 0.0
    for w in range(nw, nw + confirm):
        # always to the end of the game: the evidence that decides must be unbiased
        d = (_score(worlds, seeds, w, challenger, p, none, u, rr, acts, log, 0, 0.0, value, done)
             - _score(worlds, seeds, w, base, p, none, u, rr, acts, log, 0, 0.0, value, done))
        total += d
        squares += d * d
    mean = total / confirm
    var = max(squares / confirm - mean * mean, 0.0) * confirm / max(confirm - 1, 1)
    if mean > 0.0 and mean > z * np.sqrt(var / confirm):
        return challenger
    return base


@njit(cache=True)  # it creates arrays, which numba counts as usual
def action(s, p, pp, legal, rng):
    s, p, pp, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(rng)
    return search(s, p, pp, legal, rng, False)


escape = expert.escape  # an escape (R15) is the expert's, unsearched


@njit(cache=True)
def choose(s, p, pp, acts, n, rng):  # the one signature (decisions.py)
    return by_mask(s, p, pp, acts, rng, action, escape)
