"""Desert Island's players against the hidden information (D6, the engine's `known_to`): states
at real decisions, the same states with what the deciding seat cannot see drawn again, and a
policy's choice at each (what tests/test_conformance.py asks of every game). Its kernel against
its reference engine is sim/desert_island/lockstep.py.

What `rehide` draws again, for the deciding seat:
- every other seat's best friend and sworn enemy (shuffled among the other seats);
- the face-down cards in other castaways' hands together with the item deck still to come
  (shuffled among those hands, each keeping its count, and the deck), but the cards the seat
  dealt from the Beach this week, which it saw; a garden, laid face up as soon as it is
  received (D3), stays in the deck;
- the fate cards no one has seen, those never drawn since the shuffle: while the deck has not
  gone round once, the run from its top that is still in the shuffled order (the deal's record
  of that run is dealt again with it);
- a fist someone else closed (its split of the same food), against a picker or the rats;
- the draw stream (the cards taken blind, D11).
Kept as they are, though the seat may not see them all: the item cards the Beach player drew and
has not yet dealt, the two fate cards another castaway drew to choose from, and fate cards put
back at the bottom unseen by the seat.
"""

from __future__ import annotations

import numpy as np

from policies import checks as shared_checks
from sim.desert_island import kernel as K
from sim.desert_island import layout as L
from sim.desert_island.lockstep import new_kernel_game
from sim.desert_island.rules import FATE_CARDS, ITEM_CARDS, Rules

HONESTY_RULES = (Rules(players=4), Rules(players=5), Rules(players=6, start_food=8))


def decision_states(count: int, seed: int) -> list[tuple]:
    """`count` kernel states at decisions with a choice, across HONESTY_RULES, from games of
    uniform random play: (s, p, rng) each."""
    return shared_checks.random_walk_states(count, seed, HONESTY_RULES, new_kernel_game, K.legal_actions,
                                            K.play_action, 0.2, L.MAX_LEGAL)


def _shuffle_others(t: np.ndarray, at: int, seat: int, seats: int, gen: np.random.Generator) -> None:
    """The values of block `at` of every seat but `seat`, shuffled among those seats."""
    others = [at + k for k in range(seats) if k != seat]
    t[others] = gen.permutation(t[others])


def rehide(decision: tuple, gen: np.random.Generator) -> tuple:
    """The same state as the deciding seat sees it, what it cannot see drawn again (the module's
    list says what that is)."""
    s, p, rng = decision
    t = s.copy()
    seats = int(p[L.P_PLAYERS])
    seat = int(K.decider(t))
    me = int(t[L.ROLES + seat])
    _shuffle_others(t, L.FRIENDS, seat, seats, gen)
    _shuffle_others(t, L.ENEMIES, seat, seats, gen)
    # hands and the item deck
    seen = {int(t[L.DEALT_CARD + i]) for i in range(int(t[L.NDEALT]))} if t[L.GIVER] == me else set()
    holders = [(k, int(t[L.OWNER + k])) for k in range(ITEM_CARDS)
               if t[L.OWNER + k] >= 0 and t[L.OWNER + k] != me and t[L.SHOWN + k] == 0 and k not in seen]
    top = int(t[L.ITEM_TOP])
    deck = [int(k) for k in t[L.ITEM_ORDER + top:L.ITEM_ORDER + ITEM_CARDS] if p[L.P_ITEM_USES + k] != L.FACE_UP]
    slots = [L.ITEM_ORDER + top + i for i in range(ITEM_CARDS - top)
             if p[L.P_ITEM_USES + t[L.ITEM_ORDER + top + i]] != L.FACE_UP]
    pool = list(gen.permutation([k for k, _ in holders] + deck))
    for (_, owner), k in zip(holders, pool, strict=False):
        t[L.OWNER + k], t[L.SHOWN + k] = owner, 0
    for slot, k in zip(slots, pool[len(holders):], strict=True):
        t[slot] = k
        t[L.OWNER + k], t[L.SHOWN + k] = L.IN_DECK, 0
    # the fate cards never drawn: the deck's first pass, still in the shuffled order
    head, n = int(t[L.FATE_HEAD]), int(t[L.FATE_N])
    if head + n >= FATE_CARDS and all(t[L.FATE + q] == t[L.FATE_ORDER + q] for q in range(head, FATE_CARDS)):
        # the deal's record of the deck follows, so that the cards stay the never-drawn run
        fate = gen.permutation(t[L.FATE + head:L.FATE + FATE_CARDS])
        t[L.FATE + head:L.FATE + FATE_CARDS] = fate
        t[L.FATE_ORDER + head:L.FATE_ORDER + FATE_CARDS] = fate
    # fists closed by others
    if t[L.FIST_OF] >= 0 and t[L.FIST_OF] != me:
        total = int(t[L.FIST_LEFT] + t[L.FIST_RIGHT])
        t[L.FIST_LEFT] = gen.integers(total + 1)
        t[L.FIST_RIGHT] = total - t[L.FIST_LEFT]
    for c in range(seats):
        if c != me and (t[L.RAT_SPLIT] >> c) & 1:
            total = int(t[L.RAT_LEFT + c] + t[L.RAT_RIGHT + c])
            t[L.RAT_LEFT + c] = gen.integers(total + 1)
            t[L.RAT_RIGHT + c] = total - t[L.RAT_LEFT + c]
    r = rng.copy()
    r[L.STREAM_DRAW] = np.uint64(gen.integers(1 << 62))
    return t, p, r


def hidden_redrawn(decision: tuple, other: tuple) -> bool:
    return not np.array_equal(decision[0], other[0]) or decision[2][L.STREAM_DRAW] != other[2][L.STREAM_DRAW]


def decide(policy: str, decision: tuple) -> int:
    """The action code `policy` (with its default parameters) chooses at a decision (policies/checks.py)."""
    from policies.desert_island.registry import REGISTRY

    return shared_checks.decide("desert_island", policy, REGISTRY.default_params(policy), decision)
