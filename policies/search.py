"""The search, written once for every game: which of a decision's candidates to play, judged on
worlds the deciding seat cannot tell from the true one, each played out by a rollout policy.

A game's search policy (its `lookahead`) names the candidates worth searching, the rollout
policy's choice first (`cand[0]`), and calls `search` with its game's id, its own id, the
rollout policy's id and its knobs. The search keeps the rollout policy's choice unless fresh
evidence says another is better:

1. Screening: every candidate on `screen` worlds (`sample_world`, the kernel's: sim/kernel_api.py),
   each played on for `horizon` turns (this one included) and then valued by the searching
   policy's `rollout_value` (the seat's result, a small worth of its progress, and the worth of
   a game still going: `still`, or the policy's own estimate). Only candidates whose paired
   gain over the rollout policy's choice exceeds `margin` a world stay in the race; when none
   does (most decisions) the choice stands at once. Every candidate is scored on the same
   worlds, and each world's streams are the same for every candidate (common random numbers),
   so their differences are measured game by game.
2. Successive halving: the survivors play on twice as many worlds a round and the worse half
   drops out, until one challenger is left or `budget` rollouts are spent.
3. Confirmation: the challenger and the choice on `confirm` fresh worlds, never used to select
   it, played to the end of the game (or, where the game sets `chorizon`, that many turns on and
   then valued as a screening rollout is). The search deviates only when the paired mean gain
   exceeds `z` standard errors; a verdict left open (a gain, but under `z` standard errors)
   earns another block of `confirm` fresh worlds, up to `rounds` blocks. Selecting and judging
   on the same worlds would reward the luckiest of many noisy estimates (the winner's curse).

So a search is never worse than its rollout policy in expectation: it changes a decision only on
independent evidence, unbiased when the confirmation plays to the end. A confirmation cut at a
horizon trusts the policy's worth of an unfinished game: its verdicts are much less noisy than
a win or a loss (more good deviations pass) and cost a fraction of the rollout, at the price of
that worth's bias; each game's search tests check on paired games that its player still beats
its rollout policy. `exact` searches the one true world with the game's own streams
instead (a cheat that bounds luck: every score is exact, the best one is played).

One integer budget scales it (`lookahead@N`, `with_budget`): at budget N the screening,
each confirmation block and the halving spend N times the rollouts, N times as many worlds are
allowed, and N times the share of decisions is searched (all of them from the share's reciprocal
on). Budget 1 is the searching policy's own knobs.

The knobs (float64, `KNOBS` of them; the searching policy resolves its defaults): see the
constants below. All arrays of the search are its own; the worlds are at most `K_WORLDS` times
the budget, and never more than `MAX_WORLDS`.
"""

import numpy as np
from numba import njit

from policies import dispatch as G
from policies import play
from sim.intrinsics import borrowed
from sim.streams import rand_below, rand_unit

# knob slots: 0 screening worlds, 1 confirmation worlds a block, 2 z, 3 screening horizon in
# turns (0 or less: to the end), 4 halving budget in rollouts, 5 worth of a screening rollout still
# going at the horizon, 6 share of decisions searched (drawn from the policy stream)
K_SCREEN, K_CONFIRM, K_Z, K_HORIZON, K_BUDGET, K_STILL, K_SHARE = 0, 1, 2, 3, 4, 5, 6
K_UNSAFE = 7  # the safeguards off, for the test that shows they matter: 1 no confirmation, 2 ties pass too
K_KINDS = 8  # the searching policy's own: which decisions it searches
K_LEAF = 9  # passed to the policy's rollout_value: which worth a game still going at the horizon has
K_MARGIN = 10  # the screening's margin per world
K_ROUNDS = 11  # confirmation blocks at most
K_WORLDS = 12  # worlds at most
K_SCALE = 13  # the budget (`with_budget`; 0 or 1: the policy's own)
# the confirmation's rollouts' depth in turns, then valued as a screening rollout is (0: to the end)
K_CHORIZON = 14
KNOBS = 15
MAX_WORLDS = 4096
STREAM_POLICY = 2  # every game's policy stream (sim/streams.py)


def with_budget(pp: np.ndarray, budget: int) -> np.ndarray:
    """A copy of a searching policy's parameter array that searches at `budget` (an integer, 1 or
    more), for policies whose array's first KNOBS slots override their knobs."""
    out = np.array(pp, dtype=np.float64)
    out[K_SCALE] = float(budget)
    return out


@njit(cache=True)
def make_worlds(gid, s, p, rng, worlds, seeds, lo, hi, exact):
    """Worlds lo … hi-1 and their streams: sampled completions of what is hidden (fair), or with
    `exact` the true state and the game's own streams."""
    s, p, rng, worlds, seeds = borrowed(s), borrowed(p), borrowed(rng), borrowed(worlds), borrowed(seeds)
    for w in range(lo, hi):
        if exact:
            for i in range(s.size):
                worlds[w, i] = s[i]
            for k in range(3):
                seeds[w, k] = rng[k]
        else:
            G.sample_world(gid, s, p, rng, worlds[w])
            seeds[w, 0] = np.uint64(rand_below(rng, STREAM_POLICY, 1 << 30))
            seeds[w, 1] = np.uint64(rand_below(rng, STREAM_POLICY, 1 << 30)) * np.uint64(0x9E3779B97F4A7C15)
            seeds[w, 2] = seeds[w, 0] ^ seeds[w, 1]


@njit(cache=True)
def score(gid, sid, rid, worlds, seeds, w, i, code, p, rpp, seat, u, rr, acts, log, horizon, still, leaf,
          value, done):
    """Candidate i (decision `code`) in world w: played, then the game on with the rollout policy
    for `horizon` turns, this one included (0: to the end), and valued by the searching policy;
    computed once (value/done keep it)."""
    worlds, seeds, p, rpp, u = borrowed(worlds), borrowed(seeds), borrowed(p), borrowed(rpp), borrowed(u)
    rr, acts, log, value, done = borrowed(rr), borrowed(acts), borrowed(log), borrowed(value), borrowed(done)
    if done[i, w]:
        return value[i, w]
    for k in range(u.size):
        u[k] = worlds[w, k]
    for k in range(3):
        rr[k] = seeds[w, k]
    last = G.turn_number(gid, u, p) + horizon
    G.apply_action(gid, u, p, code, rr, log, -1)
    if not G.is_over(gid, u, p) and (horizon == 0 or G.turn_number(gid, u, p) < last):
        play.play_on(gid, rid, u, p, rpp, rr, acts, log, -1, last - G.turn_number(gid, u, p) if horizon > 0 else 0)
    v = G.rollout_value(gid, sid, u, p, seat, still, leaf)
    value[i, w] = v
    done[i, w] = True
    return v


@njit(cache=True)
def search(gid, sid, rid, s, p, rpp, rng, cand, nc, seat, knobs, exact):
    """The candidate to play: cand[0] (the rollout policy's choice) unless another is confirmed
    better (the module's doc). `sid` is the searching policy (its `rollout_value`), `rid` the
    rollout policy and `rpp` its parameters, `seat` the deciding seat."""
    s, p, rpp, rng = borrowed(s), borrowed(p), borrowed(rpp), borrowed(rng)
    cand, knobs = borrowed(cand), borrowed(knobs)
    base = cand[0]
    if nc <= 1:
        return base
    screen = int(knobs[K_SCREEN])
    confirm = int(knobs[K_CONFIRM])
    z = knobs[K_Z]
    horizon = max(int(knobs[K_HORIZON]), 0)
    budget = int(knobs[K_BUDGET])
    still = knobs[K_STILL]
    share = knobs[K_SHARE]
    unsafe = int(knobs[K_UNSAFE])
    margin = knobs[K_MARGIN]
    rounds = max(int(knobs[K_ROUNDS]), 1)
    leaf = int(knobs[K_LEAF])
    most = int(knobs[K_WORLDS])
    scale = knobs[K_SCALE]
    chorizon = max(int(knobs[K_CHORIZON]), 0)
    if scale > 1.0:  # the budget (module doc)
        screen = int(screen * scale)
        confirm = int(confirm * scale)
        budget = int(budget * scale)
        share = min(share * scale, 1.0)
        most = int(most * scale)
    most = min(most, MAX_WORLDS)
    if exact:  # one true world: every score is exact, no confirmation needed
        screen = 1
        confirm = 0
        horizon = 0
    elif share < 1.0 and rand_unit(rng, STREAM_POLICY) >= share:
        return base
    worlds = np.empty((most, s.size), dtype=np.int32)
    seeds = np.empty((most, 3), dtype=np.uint64)
    value = np.empty((nc, most))  # read only where `done`
    done = np.zeros((nc, most), dtype=np.bool_)
    u = np.empty(s.size, dtype=np.int32)
    rr = np.empty(3, dtype=np.uint64)
    acts = G.decisions_scratch(gid)
    log = G.no_log(gid)
    alive = np.empty(nc, dtype=np.int64)  # candidate indices
    gain = np.empty(nc)

    # 1. screening: the candidates that beat the choice on the first worlds
    nw = screen
    make_worlds(gid, s, p, rng, worlds, seeds, 0, nw, exact)
    na = 0
    for i in range(1, nc):
        g = 0.0
        for w in range(nw):
            g += score(gid, sid, rid, worlds, seeds, w, i, cand[i], p, rpp, seat, u, rr, acts, log, horizon, still,
                       leaf, value, done)
            g -= score(gid, sid, rid, worlds, seeds, w, 0, base, p, rpp, seat, u, rr, acts, log, horizon, still,
                       leaf, value, done)
        if g > margin * nw + 1e-9 or (unsafe == 2 and g > -1e-9):
            alive[na] = i
            gain[na] = g / nw
            na += 1
    if na == 0:
        return base
    if exact:  # the best exact gain
        best = 0
        for k in range(1, na):
            if gain[k] > gain[best]:
                best = k
        return cand[alive[best]]

    # 2. successive halving on more (shared) worlds until one challenger is left
    spent = 0
    while na > 1 and nw * 2 + confirm <= most and spent < budget:
        old = nw
        nw = nw * 2
        make_worlds(gid, s, p, rng, worlds, seeds, old, nw, exact)
        for k in range(na):
            i = alive[k]
            g = 0.0
            for w in range(nw):
                g += score(gid, sid, rid, worlds, seeds, w, i, cand[i], p, rpp, seat, u, rr, acts, log, horizon,
                           still, leaf, value, done)
                g -= score(gid, sid, rid, worlds, seeds, w, 0, base, p, rpp, seat, u, rr, acts, log, horizon,
                           still, leaf, value, done)
            gain[k] = g / nw
        spent += (na + 1) * (nw - old)
        keep = (na + 1) // 2  # the better half, by gain (a stable selection)
        for k in range(keep):
            b = k
            for j in range(k + 1, na):
                if gain[j] > gain[b]:
                    b = j
            x = alive[k]
            alive[k] = alive[b]
            alive[b] = x
            y = gain[k]
            gain[k] = gain[b]
            gain[b] = y
        na = keep
    best = 0
    for k in range(1, na):
        if gain[k] > gain[best]:
            best = k
    if gain[best] <= 0.0 and unsafe != 2:
        return base
    ci = alive[best]
    if unsafe >= 1:  # the mutant the paired test must catch: trust the selecting worlds
        return cand[ci]

    # 3. confirmation on fresh worlds (to the end, or `chorizon` turns and the leaf's worth): a paired
    # gain above z standard errors
    total = 0.0
    squares = 0.0
    used = nw
    played = 0
    for _ in range(rounds):
        if used + confirm > most:
            return base
        make_worlds(gid, s, p, rng, worlds, seeds, used, used + confirm, exact)
        for w in range(used, used + confirm):
            d = (score(gid, sid, rid, worlds, seeds, w, ci, cand[ci], p, rpp, seat, u, rr, acts, log, chorizon,
                       still, leaf, value, done)
                 - score(gid, sid, rid, worlds, seeds, w, 0, base, p, rpp, seat, u, rr, acts, log, chorizon,
                         still, leaf, value, done))
            total += d
            squares += d * d
        used += confirm
        played += confirm
        mean = total / played
        var = max(squares / played - mean * mean, 0.0) * played / max(played - 1, 1)
        if mean <= 0.0:
            return base
        if mean > z * np.sqrt(var / played):
            return cand[ci]
    return base
