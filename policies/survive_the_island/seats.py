"""A table with a policy in each seat ("expert,random,random,random"), played as one policy: each
decision goes to the deciding seat's own policy, read at run time from the parameter array
(pp[SEAT_POLICY + seat], `seat_params`).

A single policy's loop is compiled with its id as a constant, so numba compiles that policy alone
into it; this one calls every policy a seat may play (the registry's seat_choices), so all of
them are compiled into its loop. A seat's policy decides every decision of that seat: set-up
placements, actions, floods, creature moves, pushes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from policies.registry import PARAMS_LENGTH, UnknownPolicy
from policies.survive_the_island import expert, lookahead, uniform_random
from policies.survive_the_island.registry import REGISTRY
from sim.intrinsics import borrowed
from sim.survive_the_island import kernel as K
from sim.survive_the_island.rules import MAX_PLAYERS

DESCRIPTION = "a policy a seat, as the player string names them"
USES_LEGAL = False  # every seat policy lists its own candidates
SEAT_POLICY = PARAMS_LENGTH - MAX_PLAYERS  # pp[SEAT_POLICY + seat]: the policy id of each seat
EXPERT_ID, LOOKAHEAD_ID = REGISTRY.table["expert"][0], REGISTRY.table["lookahead"][0]
assert SEAT_POLICY >= lookahead.KNOBS  # the search's own slots come first
assert set(REGISTRY.seat_choices) == {"random", "expert", "lookahead"}  # `choose` below names each


def seat_params(names: list[str], pp: np.ndarray | None = None) -> np.ndarray:
    """A parameter array (a copy of `pp`, zeros by default) with each seat's policy id, and the
    search's slots of a `lookahead@N` seat (every searching seat searches at one budget: they
    read the same slots)."""
    out = np.zeros(PARAMS_LENGTH, dtype=np.float64) if pp is None else np.array(pp, dtype=np.float64)
    budgets = {name for name in names if "@" in name}
    if len(budgets) > 1:
        raise UnknownPolicy(f"seats search at one budget, not {' and '.join(sorted(budgets))}")
    for name in budgets:
        out[:lookahead.KNOBS] = REGISTRY.default_params(name)[:lookahead.KNOBS]
    for seat, name in enumerate(names):
        out[SEAT_POLICY + seat] = REGISTRY.policy_id(name)
    return out


@njit(cache=True)
def choose(s, p, pp, acts, n, rng):
    """The deciding seat's policy's choice (blind: its code in acts[0], returns 0)."""
    s, p, pp, acts, rng = borrowed(s), borrowed(p), borrowed(pp), borrowed(acts), borrowed(rng)
    pid = int(pp[SEAT_POLICY + K.decider(s)])
    if pid == EXPERT_ID:
        return expert.choose(s, p, pp, acts, 0, rng)
    if pid == LOOKAHEAD_ID:
        return lookahead.choose(s, p, pp, acts, 0, rng)
    return uniform_random.choose(s, p, pp, acts, 0, rng)
