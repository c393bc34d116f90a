"""`lookahead`: Monte Carlo search over the next action, rolling out with `expert`.

At each decision it samples `samples` completions of the hidden information consistent with
what the table sees (R19): the face-down cards dealt at random among the face-down places
(Kings' places follow) and the undrawn column and row cards of this pass in a random order;
later passes are shuffled afresh inside the rollout. For every legal action it plays that
action on each sample and then the rest of the game with `expert` (the kernel's own rules:
sim/kernel.py apply_action, flood), scoring a win 1 plus 0.05 per treasure raised. All
actions see the same samples and the same rollout floods (common random numbers); the expert's
own choice is kept unless another action beats it by more than `margin`.

Fair: the samples depend only on the public state and the policy stream. The face-down cards
are gathered in sorted order before they are shuffled, so which face-down place holds which
card never matters (the set of face-down cards is public: every other card was seen).

pp slots: 0 samples per action (default 4), 1 margin (default 0.15), 2 rollout horizon in
turns (default 0: to the end of the game). Slow by design: a few games a second per thread.
"""

import numpy as np
from numba import njit

import sim.kernel as K
from policies import expert, play
from sim.layout import (
    CARD,
    COLP,
    DOWN,
    KINGPOS,
    N_ACTIONS,
    NSTATE,
    OUTCOME,
    PILE_POS,
    RAISED,
    ROWP,
    STREAM_DEAL,
    STREAM_FLOOD,
    STREAM_POLICY,
    TSTATE,
    popcount,
    rand_below,
)

DESCRIPTION = "Monte Carlo lookahead: samples the hidden cards and floods, rolls each action out with expert"

EXPERT_ID = 4  # the expert's id in policies/registry.py (the rollouts' escapes); tested


@njit(cache=True)
def _param(pp, k, default):
    if k < pp.shape[0] and pp[k] != 0.0:
        return pp[k]
    return default


@njit(cache=True)
def _sort_small(a, n):
    for i in range(1, n):
        j = i
        while j > 0 and a[j] < a[j - 1]:
            x = a[j]
            a[j] = a[j - 1]
            a[j - 1] = x
            j -= 1


@njit(cache=True)
def determinize(s, t, rng):
    """Write into `t` a copy of `s` whose hidden parts are drawn at random (policy stream of
    `rng`) from everything consistent with the public state."""
    for i in range(NSTATE):
        t[i] = s[i]
    down = np.empty(25, dtype=np.int64)
    cards = np.empty(25, dtype=np.int64)
    n = 0
    for place in range(25):
        if s[TSTATE + place] == DOWN:
            down[n] = place
            cards[n] = s[CARD + place]
            n += 1
    _sort_small(cards, n)  # only the (public) set of face-down cards is used
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, STREAM_POLICY, i + 1)
        x = cards[i]
        cards[i] = cards[j]
        cards[j] = x
    for i in range(n):
        t[CARD + down[i]] = cards[i]
        if cards[i] < 4:
            t[KINGPOS + cards[i]] = down[i]
    pos = s[PILE_POS]
    rest = np.empty(5, dtype=np.int64)
    for base in (COLP, ROWP):
        m = 0
        for k in range(pos, 5):
            rest[m] = s[base + k]
            m += 1
        _sort_small(rest, m)
        for i in range(m - 1, 0, -1):
            j = rand_below(rng, STREAM_POLICY, i + 1)
            x = rest[i]
            rest[i] = rest[j]
            rest[j] = x
        for k in range(m):
            t[base + pos + k] = rest[k]


@njit(cache=True)
def rollout(t, p, pp, first, rr, opts, log, horizon):
    """Play action `first` for the current pawn of `t`, then the game on with expert; returns
    the score (1 for a win, plus 0.05 per raised treasure)."""
    K.apply_action(t, p, first, log, -1)
    if t[OUTCOME] < 0:
        play.play_on(t, p, EXPERT_ID, pp, rr, opts, log, -1, horizon + 1 if horizon > 0 else 0)
    score = 0.05 * popcount(t[RAISED])
    if t[OUTCOME] == 0:
        score += 1.0
    return score


@njit(cache=True, _nrt=True)  # may create arrays: see policies/dispatch.py
def choose(s, p, pp, legal, rng):
    none = np.zeros(1)
    base = expert.choose(s, p, none, legal, rng)
    nlegal = popcount(legal & 0xFFFFFFFF) + popcount(legal >> 32)
    if nlegal <= 1:
        return base
    samples = int(_param(pp, 0, 4.0))
    margin = _param(pp, 1, 0.15)
    horizon = int(_param(pp, 2, 0.0))
    score = np.zeros(N_ACTIONS)
    t = np.empty(NSTATE, dtype=np.int32)
    u = np.empty(NSTATE, dtype=np.int32)
    rr = np.empty(3, dtype=np.uint64)
    opts = np.empty(8, dtype=np.int64)
    log = np.empty((1, 4), dtype=np.int32)
    for _ in range(samples):
        determinize(s, t, rng)
        r0 = np.uint64(rand_below(rng, STREAM_POLICY, 1 << 30))
        r1 = np.uint64(rand_below(rng, STREAM_POLICY, 1 << 30))
        for a in range(N_ACTIONS):
            if not (legal >> a) & 1:
                continue
            for i in range(NSTATE):
                u[i] = t[i]
            rr[STREAM_DEAL] = r0
            rr[STREAM_FLOOD] = r1 * np.uint64(0x9E3779B97F4A7C15)
            rr[STREAM_POLICY] = r0 ^ r1
            score[a] += rollout(u, p, none, a, rr, opts, log, horizon)
    best = base
    for a in range(N_ACTIONS):
        if (legal >> a) & 1 and score[a] > score[best] + margin * samples:
            best = a
    return best


@njit(cache=True, _nrt=True)
def escape(s, p, pp, pawn, opts, n, rng):
    return expert.escape(s, p, pp, pawn, opts, n, rng)
