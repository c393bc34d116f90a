"""Forbidden Island's players against the hidden information: states at real decisions, the same
states with the draw piles in another order, and a policy's choice at each (what
tests/test_conformance.py asks of every game). Its kernel against its reference engine is
sim/forbidden_island/lockstep.py.
"""

from __future__ import annotations

import numpy as np

from policies import checks as shared_checks
from sim.forbidden_island import kernel as K
from sim.forbidden_island import layout as L
from sim.forbidden_island.convert import params_of
from sim.forbidden_island.rules import Rules
from sim.lockstep import NO_LOG


def quick_params(policy: str) -> np.ndarray:
    """A policy's parameters for the honesty check: its defaults, the search screening on two
    worlds (the argument does not depend on how many it samples), the skill axis at 0.5."""
    from policies.forbidden_island.registry import REGISTRY

    mod = REGISTRY.module(policy)
    pp = REGISTRY.default_params(policy)  # a weighted player's weights included
    if policy == "lookahead":
        pp[0] = 2.0
    if hasattr(mod, "skill_params"):
        pp = mod.skill_params(0.5)  # so that its mistakes are made
    return pp


HONESTY_RULES = (Rules(players=2, difficulty="normal"), Rules(players=3, difficulty="elite"),
                 Rules(players=4, difficulty="novice"))


def decision_states(count: int, seed: int) -> list[tuple]:
    """`count` states at decisions a player takes (actions, discards, swims with a choice) in
    games the expert plays on the kernel's deals, across HONESTY_RULES: (s, p, rng) each."""
    from policies.forbidden_island import expert

    out: list[tuple] = []
    acts = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    gen = np.random.default_rng(seed)
    pp = expert.default_params()
    game = 0
    while len(out) < count:
        rules = HONESTY_RULES[game % len(HONESTY_RULES)]
        p = params_of(rules)
        s = np.zeros(L.NSTATE, dtype=np.int32)
        rng = np.zeros(3, dtype=np.uint64)
        K.init_game(s, p, rng, seed, game)
        while (n := K.legal_actions(s, p, acts)) > 0 and len(out) < count:
            if n > 1 and K.phase(s, p) in (L.PH_ACTIONS, L.PH_DISCARD, L.PH_SWIM) and gen.random() < 0.1:
                out.append((s.copy(), p, rng.copy()))
            K.apply_action(s, p, acts[expert.choose(s, p, pp, acts, n, rng)], rng, NO_LOG, -1)
        game += 1
    return out


def rehide(decision: tuple, gen: np.random.Generator) -> tuple:
    """The same public state with the draw piles in another order (the treasure pile as a whole,
    the flood pile within each public layer) and another shuffle stream."""
    s, p, rng = decision
    t = s.copy()
    n = t[L.TPILE_N]
    t[L.TPILE:L.TPILE + n] = gen.permutation(t[L.TPILE:L.TPILE + n])
    layers = t[L.FLAYERS_N]
    for k in range(layers):
        lo = L.FPILE + t[L.FLAYER + k]
        hi = L.FPILE + (t[L.FLAYER + k + 1] if k + 1 < layers else t[L.FPILE_N])
        t[lo:hi] = gen.permutation(t[lo:hi])
    r = rng.copy()
    r[L.STREAM_SHUFFLE] = np.uint64(gen.integers(1 << 62))
    return t, p, r


def hidden_redrawn(decision: tuple, other: tuple) -> bool:
    return not np.array_equal(decision[0], other[0]) or decision[2][L.STREAM_SHUFFLE] != other[2][L.STREAM_SHUFFLE]


def decide(policy: str, decision: tuple) -> int:
    """The action code `policy` (with `quick_params`) chooses at a decision (policies/checks.py)."""
    return shared_checks.decide("forbidden_island", policy, quick_params(policy), decision)
