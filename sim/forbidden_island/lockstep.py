"""Forbidden Island's kernel played beside its reference engine (sim/lockstep.py), OpenSpiel style.

The kernel starts from an engine Setup (or from an engine game in any state), and at every
decision point both legal action sets and, after each step, both whole states are compared. The
kernel's shuffles come from its own random stream; each one is handed to the engine's Shuffler as
a script before the engine plays the same step, so both see the same cards.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np

from sim import lockstep
from sim.forbidden_island import kernel as K
from sim.forbidden_island import layout as L
from sim.forbidden_island.convert import (
    decode,
    encode,
    engine_snapshot,
    flood_top_layer_order,
    kernel_snapshot,
    params_of,
    setup_into,
    state_of,
    treasure_pile_order,
)
from sim.forbidden_island.engine import ForbiddenIslandEngine, Setup, Shuffler, deal
from sim.forbidden_island.rules import DIFFICULTIES, TREASURES, Rules
from sim.lockstep import Mismatch
from sim.streams import seed_streams

__all__ = ["Lockstep", "Mismatch", "RULE_GRID", "late_game", "lockstep_games", "play_lockstep"]


class Lockstep(lockstep.Lockstep):
    """One game played by the kernel and the engine together."""

    kernel = K

    def __init__(self, rules: Rules, setup: Setup | None, kernel_seed: int, game: ForbiddenIslandEngine | None = None):
        """From a Setup (the kernel plays F3 and the engine follows), or from an engine `game` in
        any state (the kernel starts from convert.state_of)."""
        p = params_of(rules)
        rng = np.zeros(3, dtype=np.uint64)
        seed_streams(rng, kernel_seed, 0)
        if game is None:
            s = np.zeros(L.NSTATE, dtype=np.int32)
            setup_into(s, setup)
            K.set_up(s, p, rng)
            script = [("treasure", treasure_pile_order(s))] if s[L.N_TSHUFFLES] else []
            game = ForbiddenIslandEngine(rules, setup, Shuffler(seed=10**9, script=script))
        else:
            s = state_of(game)
            game.shuffler = Shuffler(seed=10**9)
        super().__init__(s, p, rng, game, L.MAX_LEGAL)
        self.rules = rules
        self.compare("at the start")

    def snapshots(self) -> tuple[dict, dict]:
        return engine_snapshot(self.engine), kernel_snapshot(self.s, self.p)

    def engine_legal(self) -> list[int]:
        return [encode(a) for a in self.engine.legal_actions()]

    def drawn(self) -> tuple[int, int]:
        return int(self.s[L.N_TSHUFFLES]), int(self.s[L.N_FSHUFFLES])

    def follow(self, code: int, drawn_before: tuple[int, int]) -> None:
        tshuffles, fshuffles = drawn_before
        if self.s[L.N_FSHUFFLES] > fshuffles:  # the engine shuffles the flood deck first (F6, then F7)
            self.engine.shuffler.script.append(("flood", flood_top_layer_order(self.s)))
        if self.s[L.N_TSHUFFLES] > tshuffles:
            self.engine.shuffler.script.append(("treasure", treasure_pile_order(self.s)))
        self.engine.apply(decode(code))

    def text(self, code: int) -> str:
        return str(decode(code))


def by_kind_choice(codes: list[int], rng: random.Random) -> int:
    """A random legal action, the kind drawn first: uniform play would lift almost every time
    (a Helicopter Lift has hundreds of codes), and the kinds are what the check must reach."""
    groups: dict[str, list[int]] = {}
    for c in codes:
        groups.setdefault(decode(c).kind, []).append(c)
    kinds = sorted(groups)
    # the turn's own flow is the most common choice, so that games reach the late stages
    weights = [4 if k in ("move", "shore", "draw", "flood", "capture", "give", "swim", "discard") else 1
               for k in kinds]
    return rng.choice(groups[rng.choices(kinds, weights)[0]])


def play_lockstep(rules: Rules, setup: Setup | None, kernel_seed: int, choice_seed: int,
                  seen: Counter | None = None, scout=None, limit: int = 5000,
                  game: ForbiddenIslandEngine | None = None, freedoms: Counter | None = None) -> Lockstep:
    """Play one game to its end in lockstep; raises Mismatch at the first difference.

    The choices are random by kind (`by_kind_choice`) or, given `scout(engine game, rng) ->
    action`, a goal-seeking chooser's (the tests' support.scout_choice reaches captures, water
    losses and wins).
    `freedoms` counts the choices the rules leave open that a player seldom takes: a flight to
    a tile the Pilot could walk to (F10) and a swim ahead of a lower seat (F11)."""
    both = Lockstep(rules, setup, kernel_seed, game)
    rng = random.Random(choice_seed)

    def choose(codes: list[int]) -> int:
        code = encode(scout(both.engine, rng)) if scout else by_kind_choice(codes, rng)
        action, g = decode(code), both.engine
        if seen is not None:
            seen[action.kind] += 1
        if freedoms is not None:
            if action.kind == "fly" and action.place in g.move_targets(g.current):
                freedoms["fly to a walkable tile"] += 1
            if action.kind == "swim" and action.by != min(g.swimmers):
                freedoms["swim ahead of a lower seat"] += 1
        return code

    return both.play(choose, limit)


def late_game(rules: Rules, setup: Setup, mark: int) -> ForbiddenIslandEngine:
    """A dealt game moved on to its end stage: all four treasures captured and the meter at
    `mark`, so that lift-offs (F13) and the water's loss (F14) come within reach of the scout."""
    game = ForbiddenIslandEngine(rules, setup)
    game.captured = list(TREASURES)
    game.mark = mark
    return game


# --- what the conformance suite asks of every game (tests/test_conformance.py) ------------------------

# Random play over these keeps the game's invariants: every player count at every level.
RULE_GRID = [Rules(players=players, difficulty=level) for players in (2, 3, 4) for level in DIFFICULTIES]


def lockstep_games(rules: Rules, seed: int, games: int) -> dict:
    """Games of random play by kind, kernel and engine side by side from the engine's deal:
    the same legal actions at every decision and the same whole state after every step (raises
    Mismatch, an AssertionError, at the first difference)."""
    decisions = 0
    for i in range(games):
        decisions += play_lockstep(rules, deal(rules, seed * 1000 + i), kernel_seed=seed * 1000 + i,
                                   choice_seed=i).steps
    return {"decisions": decisions, "steps": decisions}
