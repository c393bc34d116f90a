"""`novice`: a first-time table, the low end of the skill axis (`skilled` at skill NOVICE_SKILL).

The former novice followed the rulebook's beginner tips with rules of thumb of its own and
was not consistent with itself: on the same games it won 97.7%, 4.9%, 11.7% and 0.2% with 1,
2, 3 and 4 cards a treasure (3 players). A fixed point of the skill axis makes the same kinds of
mistakes on every setting, so harder rules never help it (tests/test_monotone_rules.py).
"""

from numba import njit

from policies.island_escape.decisions import by_mask
from policies.island_escape.expert import escape
from policies.island_escape.skilled import choose_at
from sim.intrinsics import borrowed

DESCRIPTION = "a first-time table: the skill axis at skill 0.25 (misjudges, forgets floods, wanders)"
USES_LEGAL = False  # decides on the legal mask, which it builds itself (decisions.py)

NOVICE_SKILL = 0.25


@njit(cache=True)  # allocates nothing: see policies/island_escape/decision_pieces.py
def action(s, p, pp, legal, rng):
    s, p, pp, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(rng)
    return choose_at(s, p, legal, rng, NOVICE_SKILL)


@njit(cache=True)
def choose(s, p, pp, acts, n, rng):  # the one signature (decisions.py)
    return by_mask(s, p, pp, acts, rng, action, escape)
