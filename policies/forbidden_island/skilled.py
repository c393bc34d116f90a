"""`skilled` for Forbidden Island: the expert's plan played with a person's mistakes, `skill` from
0 to 1; the twin of Island Escape's `skilled` (policies/island_escape/skilled.py), with the same
three kinds of mistakes, each more often or larger as `care = 1 - skill` grows:

- misjudging (every decision it is asked): the worth of every goal - the walk to Fools' Landing,
  to a pickup tile, to a trade, a card handed to its collector, a treasure card's worth - is
  misjudged by a factor exp(N(0, MISJUDGE * care)), drawn afresh for each decision. A clear
  choice survives small noise; a close one flips.
- forgetting (per decision, chance FORGET * care): the flooded tiles go unnoticed - their worth
  and the danger of their sinking count for nothing, so nothing is shored up or sandbagged to
  save them and no walk heads for them.
- wandering (per decision of the actions, chance WANDER * care): a walk to a random neighbouring
  tile instead of the plan.

At skill 1 it makes no mistakes and draws nothing: it plays the expert's games, decision for
decision. Fair (F-rules' counterpart of R19): it reads what the expert reads and draws only from
the policy stream. Like the expert it lists its own candidates (USES_LEGAL = False).

What a skill means in both games: `care` is not 1 - skill but SKILL_TO_CARE's value at it, set
so that the share of its decisions that depart from the expert's choice at a skill is Island
Escape's `skilled`'s at the same skill (tests/forbidden_island/test_skilled.py measures both):
the same amount of error, counted in decisions, in either game. docs/RULES-FI.md says more.

pp: SLOTS slots (slot 0 the skill, slot 1 its care), then the expert's array (its weights and
scratch space); `skill_params(skill)` builds it, `default_params()` is skill 1.
"""

import numpy as np
from numba import njit

from policies.forbidden_island import expert
from policies.forbidden_island.expert import (
    DEFAULT_WEIGHTS,
    W_CARD_BASE,
    W_CARD_COLLECTOR,
    W_CARD_PER_HELD,
    W_FUTURE,
    W_GIVE,
    W_GIVE_PER_CARD,
    W_LOSING,
    W_PICKUP_TWIN,
    W_PLAIN,
    W_PULL,
    W_SOON,
    W_TO_CAPTURE,
    W_TO_COMPLETING,
    W_TO_DEFAULT,
    W_TO_LANDING,
    W_TO_TRADE,
)
from sim.forbidden_island.kernel import move_targets, only_draw, phase
from sim.forbidden_island.layout import A_MOVE, CUR, PH_ACTIONS, STREAM_POLICY
from sim.intrinsics import borrowed, kth_set_bit, popcount
from sim.streams import rand_below, rand_normal, rand_unit

DESCRIPTION = "expert with a person's mistakes (misjudged goals, forgotten floods, wandering); --skill 0-1"
USES_LEGAL = False  # as the expert: it finds its own candidates

MISJUDGE = 1.0  # s.d. of the log of a goal's misjudged worth, at care 1
FORGET = 0.9  # chance a decision overlooks the flooded tiles, at care 1
WANDER = 0.5  # chance of a random walk instead of the plan, at care 1
# care at these skills (linear between): the share of actions departing from the expert's choice
# then matches Island Escape's skilled player at the same skill. Set from departure_share in
# policies/*/skilled.py (4,000 decisions each, seed 1): Island Escape departs in 57.3%, 50.6%,
# 41.4%, 36.9%, 32.7%, 27.1%, 18.5%, 15.4% and 12.2% of its decisions at the skills below (0 at
# skill 1: the noise that flips close choices vanishes there); Forbidden Island's player does at
# the cares below.
SKILL_GRID = (0.0, 0.25, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 1.0)
SKILL_TO_CARE = (0.807, 0.668, 0.507, 0.452, 0.401, 0.319, 0.206, 0.167, 0.131, 0.0)

SLOTS = 4  # this policy's own slots; the expert's array follows them
SKILL, CARE = 0, 1
GOALS = np.array([W_TO_LANDING, W_TO_CAPTURE, W_TO_COMPLETING, W_TO_TRADE, W_TO_DEFAULT, W_GIVE, W_GIVE_PER_CARD,
                  W_CARD_BASE, W_CARD_PER_HELD, W_CARD_COLLECTOR], dtype=np.int64)
FLOODS = np.array([W_LOSING, W_PICKUP_TWIN, W_PLAIN, W_FUTURE, W_SOON, W_PULL], dtype=np.int64)
OVERLOOKED = 1e-12  # a forgotten weight: 0 would mean the expert's own value


def care_at(skill: float) -> float:
    """How careless a player of `skill` is: SKILL_TO_CARE interpolated (0 at skill 1)."""
    return float(np.interp(skill, SKILL_GRID, SKILL_TO_CARE))


def skill_params(skill: float, care: float | None = None) -> np.ndarray:
    """The policy parameters of a player of this skill (`care` given: that care instead of the
    skill's, for measuring the scale)."""
    if not 0.0 <= skill <= 1.0:
        raise ValueError(f"skill must be from 0 to 1, not {skill}")
    pp = np.concatenate([np.zeros(SLOTS), expert.default_params()])
    pp[SKILL] = skill
    pp[CARE] = care_at(skill) if care is None else care
    return pp


def default_params() -> np.ndarray:
    return skill_params(1.0)


@njit(cache=True)
def _wander(s, p, rng):
    """A walk to a random neighbouring tile (F5), or -1 if the current pawn has none."""
    s, p, rng = borrowed(s), borrowed(p), borrowed(rng)
    targets = move_targets(s, p, s[CUR])
    n = popcount(targets)
    if n == 0:
        return -1
    return A_MOVE + kth_set_bit(targets, rand_below(rng, STREAM_POLICY, n))


@njit(cache=True)
def choose(s, p, pp, acts, n, rng):
    """As the expert's `choose` (blind: the code into acts[0], returns 0), with the mistakes of
    a player of care pp[CARE]."""
    s, p, pp, acts, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(acts), borrowed(rng)
    code = only_draw(s, p, phase(s, p))
    if code >= 0:  # the rules leave one action: played without a draw of chance, as the expert does
        acts[0] = code
        return 0
    epp = pp[SLOTS:]
    care = pp[CARE]
    if care <= 0.0:
        return expert.choose(s, p, epp, acts, n, rng)
    if phase(s, p) == PH_ACTIONS and rand_unit(rng, STREAM_POLICY) < min(WANDER * care, 1.0):
        code = _wander(s, p, rng)
        if code >= 0:
            acts[0] = code
            return 0
    forget = rand_unit(rng, STREAM_POLICY) < FORGET * care
    for w in GOALS:
        epp[w] = DEFAULT_WEIGHTS[w] * np.exp(MISJUDGE * care * rand_normal(rng, STREAM_POLICY))
    for w in FLOODS:
        epp[w] = OVERLOOKED if forget else 0.0
    return expert.choose(s, p, epp, acts, n, rng)


def departure_share(skill: float, decisions: int, seed: int = 0, rules=None,
                    care: float | None = None) -> float:
    """The share of `skilled`'s actions at `skill` (in its own games; the actions of a turn, F5,
    as Island Escape's decisions are) where it does not choose what the expert would in the
    same state: how much error a skill means, counted in decisions (matched to Island Escape's
    skill axis)."""
    import sim.forbidden_island.kernel as K
    from sim.forbidden_island import layout as L
    from sim.forbidden_island.convert import params_of
    from sim.forbidden_island.rules import Rules
    from sim.lockstep import NO_LOG

    rules = rules or Rules(players=2, difficulty="normal")
    p = params_of(rules)
    acts = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    pp = skill_params(skill, care)
    own = expert.default_params()  # the expert's own scratch: its caches are not the player's
    departed = seen = game = 0
    while seen < decisions:
        s = np.zeros(L.NSTATE, dtype=np.int32)
        rng = np.zeros(3, dtype=np.uint64)
        K.init_game(s, p, rng, seed, game)
        while s[L.OUTCOME] < 0 and seen < decisions:
            code = K.only_draw(s, p, K.phase(s, p))
            if code < 0:
                expert.choose(s.copy(), p, own, acts, 0, rng.copy())
                want = int(acts[0])
                actions = K.phase(s, p) == L.PH_ACTIONS
                choose(s, p, pp, acts, 0, rng)
                code = int(acts[0])
                seen += actions
                departed += actions and code != want
            K.apply_action(s, p, code, rng, NO_LOG, -1)
        game += 1
    return departed / seen
