"""`skilled`: the expert's plan played with a person's mistakes; one number, `skill` from 0 to 1.

The skill axis of the lab: at skill 1 it is `expert`, decision for decision (it then draws
nothing, so its table is expert's table); lower skills make three kinds of mistakes, each
more often or larger as `care = 1 - skill` grows:

- misjudging (every decision): the worth of every goal - a King to raise, a card to collect,
  a flooded King to save, the walk home - is misjudged by normal noise with a standard
  deviation of MISJUDGE * care actions. A clear choice survives small noise; a close one flips.
  This is most of what separates a good table from an average one.
- forgetting (per decision, chance FORGET * care): the flooded Kings, the helicopter and the
  bridges to them go unnoticed - no shore-up to guard them, no walk to rescue them.
- wandering (per decision, chance WANDER * care): a step in a random direction instead of
  the plan (a player exploring out of curiosity or walking the wrong way).

The model is deliberately simple and monotone: every mistake's size or chance falls linearly to
zero at skill 1. It keeps the expert's good habits that people share (raising when able,
giving to the pawn that collects a suit) and blurs the judgement that takes experience.
Fair (R19): it reads what the expert reads and draws only from the policy stream.

pp slot 0: the skill (0 to 1). `skill_params(skill)` builds the array; `default_params()`
is skill 1 (the expert).
"""

import numpy as np
from numba import njit

from policies.island_escape.decision_pieces import fill, stack_empty
from policies.island_escape.decisions import by_mask
from policies.island_escape.expert import decide, escape
from sim.intrinsics import borrowed
from sim.island_escape.layout import A_MOVE, STREAM_POLICY, rand_below, rand_unit

DESCRIPTION = "expert with a person's mistakes (misjudged goals, forgotten floods, wandering); --skill 0-1"
USES_LEGAL = False  # decides on the legal mask, which it builds itself (decisions.py)

MISJUDGE = 24.0  # noise s.d. in actions at skill 0
FORGET = 0.9  # chance a decision overlooks flooded Kings and the helicopter, at skill 0
WANDER = 0.5  # chance of a random step instead of the plan, at skill 0
SKILL = 0  # pp slot


def skill_params(skill: float) -> np.ndarray:
    """The policy parameters of a player of this skill."""
    if not 0.0 <= skill <= 1.0:
        raise ValueError(f"skill must be from 0 to 1, not {skill}")
    pp = np.zeros(32, dtype=np.float64)
    pp[SKILL] = skill
    return pp


def default_params() -> np.ndarray:
    return skill_params(1.0)


@njit(cache=True)
def _random_move(legal, rng):
    """A uniformly random legal move (R7), or -1 if there is none."""
    n = 0
    for d in range(4):
        n += (legal >> (A_MOVE + d)) & 1
    if n == 0:
        return -1
    k = rand_below(rng, STREAM_POLICY, n)
    for d in range(4):
        if (legal >> (A_MOVE + d)) & 1:
            if k == 0:
                return A_MOVE + d
            k -= 1
    return -1


@njit(cache=True)
def choose_at(s, p, legal, rng, skill):
    """The action of a player of `skill` (shared with `novice`, a fixed point of the axis)."""
    s, p, rng = borrowed(s), borrowed(p), borrowed(rng)
    care = 1.0 - min(max(skill, 0.0), 1.0)
    # no weights: the expert's defaults; on the stack, so that no decision allocates
    none = stack_empty(1, np.float64)
    fill(none, 0.0)
    if care <= 0.0:
        return decide(s, p, none, legal, False, 0.0, False, rng)
    if rand_unit(rng, STREAM_POLICY) < WANDER * care:
        a = _random_move(legal, rng)
        if a >= 0:
            return a
    forget = rand_unit(rng, STREAM_POLICY) < FORGET * care
    return decide(s, p, none, legal, False, MISJUDGE * care, forget, rng)


@njit(cache=True)  # allocates nothing: see policies/island_escape/decision_pieces.py
def action(s, p, pp, legal, rng):
    s, p, pp, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(rng)
    return choose_at(s, p, legal, rng, pp[SKILL])


@njit(cache=True)
def choose(s, p, pp, acts, n, rng):  # the one signature (decisions.py)
    return by_mask(s, p, pp, acts, rng, action, escape)


def departure_share(skill: float, decisions: int, seed: int = 0, rules=None) -> float:
    """The share of `skilled`'s decisions at `skill` (in its own games) where it does not choose
    what the expert would in the same state: how much error a skill means, counted in decisions
    (the measure Forbidden Island's skill axis is matched to)."""
    from policies.island_escape import expert
    from policies.island_escape.checks import kernel_decisions
    from sim.island_escape import layout as L
    from sim.island_escape.convert import params_of
    from sim.island_escape.rules import Rules

    p = params_of(rules or Rules())
    s = np.zeros(L.NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    pp = skill_params(skill)
    none = np.zeros(32)
    departed = seen = 0

    def choose(legal):
        nonlocal departed, seen
        want = expert.action(s.copy(), p, none, legal, rng.copy())
        a = action(s, p, pp, legal, rng)
        seen += 1
        departed += a != want
        return a

    game = 0
    while seen < decisions:
        for _ in kernel_decisions(s, p, rng, seed, game, "skilled", pp, choose):
            pass
        game += 1
    return departed / seen
