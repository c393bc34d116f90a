"""Island Escape's players against the hidden information (R19): states at real decisions, the
same states with what the table cannot see drawn again, and a policy's choice at each (what
tests/test_conformance.py asks of every game). Its kernel against its reference engine is
sim/island_escape/lockstep.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from policies.island_escape.decisions import escape_places
from policies.island_escape.registry import REGISTRY
from sim.island_escape import kernel as K
from sim.island_escape import layout as L
from sim.island_escape.convert import params_of as rules_to_params
from sim.island_escape.kernel import legal_mask
from sim.island_escape.rules import FULL_GAUGE, Rules

# --- kernel states at decisions, and the hidden information (R19) ------------------------------------


def kernel_decisions(s: np.ndarray, p: np.ndarray, rng: np.ndarray, seed: int, game: int, policy: str,
                     pp: np.ndarray, choose: Callable[[int], int]) -> Iterator[int]:
    """Play one game into `s` and `rng` through the kernel's shared entry points, from Python.

    Yields the legal-action mask before each action of the current pawn (`s` and `rng` are then
    the state at that decision); `choose(legal)` picks the action, which must be legal. Escapes
    (R15) are `policy`'s own, with its parameters `pp`.
    """
    acts = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    log = np.zeros((1, 4), dtype=np.int32)
    escape = REGISTRY.module(policy).choose
    K.init_game(s, p, rng, seed, game)
    while s[L.OUTCOME] < 0:
        if s[L.ESCAPE_FROM] >= 0:
            a = acts[escape(s, p, pp, acts, 0, rng)]
        else:
            legal = legal_mask(s, p)
            yield legal
            a = choose(legal)
            assert (legal >> a) & 1
        K.apply_action(s, p, a, rng, log, -1)


def hide_differently(s: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    """A state the table cannot tell from `s` (R19): face-down cards permuted among the
    face-down places (Kings' places follow them), undrawn column and row cards reordered."""
    t = s.copy()
    down = [i for i in range(25) if t[L.TSTATE + i] == L.DOWN]
    cards = t[[L.CARD + i for i in down]]
    perm = gen.permutation(len(down))
    for i, place in enumerate(down):
        card = cards[perm[i]]
        t[L.CARD + place] = card
        if card < 4:
            t[L.KINGPOS + card] = place
    pos = int(t[L.PILE_POS])
    for base in (L.COLP, L.ROWP):
        t[base + pos:base + 5] = gen.permutation(t[base + pos:base + 5])
    return t


def escape_options(s: np.ndarray, pawn: int) -> tuple[np.ndarray, int]:
    """The pawn's escape options if its place sank now (R15), in the default order, and how many."""
    sunk = s.copy()
    sunk[L.ESCAPE_FROM] = s[L.PAWN + pawn]
    opts = np.zeros(8, dtype=np.int64)
    return opts, int(escape_places(sunk, opts))


# Cheap settings for the searches: 1 screening world, 2 confirmation worlds, z 1, rollouts of
# 2 turns, a halving budget of 4 (the honesty argument does not depend on how many worlds they
# sample); `skilled` at skill 0.5, so that its mistakes are made.
QUICK_PARAMS = {"lookahead": (1.0, 2.0, 1.0, 2.0, 4.0), "clairvoyant": (1.0, 2.0, 1.0, 2.0, 4.0),
                "skilled": (0.5,)}


def quick_params(policy: str) -> np.ndarray:
    """The player's own array (a weighted player's weights in it), the cheap settings above on top."""
    pp = np.zeros(32) if policy not in REGISTRY.weighted else REGISTRY.default_params(policy)
    for k, v in enumerate(QUICK_PARAMS.get(policy, ())):
        pp[k] = v
    return pp


HONESTY_RULES = (
    Rules(), Rules(players=1), Rules(players=3, cards_per_treasure=3), Rules(players=4),
    Rules(players=2).with_variant("divers"), Rules(players=3).with_variant("short"),
    Rules(players=4, cards_per_treasure=1, gauge=FULL_GAUGE[2:]),
)


def decision_states(count: int, seed: int) -> list[tuple]:
    """`count` states at decisions of real games across HONESTY_RULES (the expert playing, a
    quarter of its actions random so that odd states appear too): (s, p, legal, rng) each."""
    from policies.island_escape import expert, uniform_random

    out: list[tuple] = []
    pp = np.zeros(32)
    gen = np.random.default_rng(seed)
    per_rules = -(-count // len(HONESTY_RULES))
    for k, rules in enumerate(HONESTY_RULES):
        p = rules_to_params(rules)
        s = np.zeros(L.NSTATE, dtype=np.int32)
        rng = np.zeros(3, dtype=np.uint64)

        def choose(legal, p=p, s=s, rng=rng):
            if gen.random() < 0.25:
                return uniform_random.action(s, p, pp, legal, rng)
            return expert.action(s, p, pp, legal, rng)

        game = got = 0
        while got < per_rules and len(out) < count:
            for legal in kernel_decisions(s, p, rng, seed + k, game, "expert", pp, choose):
                if gen.random() < 0.3 and got < per_rules and len(out) < count:
                    out.append((s.copy(), p, legal, rng.copy()))
                    got += 1
            game += 1
    return out


def rehide(decision: tuple, gen: np.random.Generator) -> tuple:
    """The decision with what the table cannot see drawn again (`hide_differently`)."""
    s, p, legal, rng = decision
    return hide_differently(s, gen), p, legal, rng


def hidden_redrawn(decision: tuple, other: tuple) -> bool:
    return not np.array_equal(decision[0], other[0])


def decide(policy: str, decision: tuple) -> tuple[int, int]:
    """What `policy` (with `quick_params`) does at a decision: its action and, where the current
    pawn could escape, its escape. Checks that the choice is legal and that the policy drew only
    from its own random stream (R19)."""
    s, p, legal, rng = decision
    module = REGISTRY.module(policy)
    pp = quick_params(policy)
    me = int(s[L.CUR])
    r = rng.copy()
    a = int(module.action(s.copy(), p, pp, legal, r))
    assert (legal >> a) & 1, (policy, a)
    assert r[L.STREAM_DEAL] == rng[L.STREAM_DEAL] and r[L.STREAM_FLOOD] == rng[L.STREAM_FLOOD], policy
    opts, n = escape_options(s, me)
    e = -1
    if n:
        r = rng.copy()
        e = int(module.escape(s.copy(), p, pp, me, opts, n, r))
        assert 0 <= e < n, (policy, e)
        assert r[L.STREAM_DEAL] == rng[L.STREAM_DEAL] and r[L.STREAM_FLOOD] == rng[L.STREAM_FLOOD], policy
    return a, e
