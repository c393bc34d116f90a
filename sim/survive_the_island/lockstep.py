"""Survive the Island's kernel played beside its reference engine (sim/lockstep.py).

The engine is given the kernel's deal and, step by step, the kernel's rolls (it draws no random
numbers itself); before every decision both must list the same legal action codes in the same
order, and after every step both must give the same snapshot (sti-contract's keys).
"""

from __future__ import annotations

import random
from collections import deque

import numpy as np

from sim import lockstep
from sim.lockstep import Mismatch
from sim.survive_the_island import kernel as K
from sim.survive_the_island import layout as L
from sim.survive_the_island.convert import deal_of, kernel_snapshot, params_of, rescue_distances, rolls_of
from sim.survive_the_island.engine import Deal, SurviveTheIslandEngine, random_dice
from sim.survive_the_island.rules import TILES, Rules, action_text, decode

__all__ = ["Lockstep", "Mismatch", "RULE_GRID", "homeward_choice", "lockstep_games", "new_kernel_game",
           "play_lockstep"]


class RollFeed:
    """The engine's dice: the kernel's rolls, handed over as the kernel makes them."""

    def __init__(self):
        self.waiting: deque[int] = deque()

    def __iter__(self):
        return self

    def __next__(self) -> int:
        if not self.waiting:
            raise Mismatch("the engine rolls the die where the kernel does not")
        return self.waiting.popleft()


def new_kernel_game(rules: Rules, seed: int, game: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    p = params_of(rules)
    s = np.zeros(L.NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    K.init_game(s, p, rng, seed, game)
    return s, p, rng


class Lockstep(lockstep.Lockstep):
    """One game played by the kernel and the engine together."""

    kernel = K
    ordered = True

    def __init__(self, rules: Rules, seed: int, game: int):
        s, p, rng = new_kernel_game(rules, seed, game)
        d = deal_of(s, p)  # read right after init_game, before any tile floods
        deal = Deal(tuple(TILES[t] for t in d["tiles"]), tuple(d["values"]))
        if deal != Deal.random(rules, seed, game):
            raise Mismatch(f"game {game} of seed {seed}: the kernel's deal is not S3's (engine Deal.random)")
        self.feed = RollFeed()
        super().__init__(s, p, rng, SurviveTheIslandEngine(rules, deal, self.feed), L.MAX_LEGAL)
        self.rules, self.board = rules, rules.board_data
        self.where = f"{rules}, seed {seed}, game {game}"
        self.compare("at the start")

    def snapshots(self) -> tuple[dict, dict]:
        return self.engine.snapshot(), kernel_snapshot(self.s, self.p)

    def engine_legal(self) -> list[int]:
        return self.engine.legal_actions()

    def drawn(self) -> int:
        return len(self.feed.waiting) + len(self.engine.rolls)

    def follow(self, code: int, drawn_before: int) -> None:
        self.feed.waiting.extend(rolls_of(self.s)[drawn_before:])
        self.engine.apply(code)
        if self.feed.waiting:
            raise self.fail(f"step {self.steps + 1}: the kernel rolled {len(self.feed.waiting)} more times than "
                            "the engine")

    def text(self, code: int) -> str:
        return action_text(code, self.board)

    def situation(self) -> str:
        return f"step {self.steps} ({self.engine.phase}, turn {self.engine.turn})"


def homeward_choice(engine: SurviveTheIslandEngine, codes: list[int], rng: random.Random) -> int:
    """A chooser that mostly moves its pieces nearer a rescue island (any legal action otherwise),
    so that checks reach the rescues, the landings and the games that end with the board cleared."""
    moves = [c for c in codes if decode(c)[0] in ("move", "raft", "oars", "dolphin")]
    if not moves or rng.random() < 0.25:
        return rng.choice(codes)
    far = rescue_distances(engine.board)

    def gain(code: int) -> int:
        kind, piece, direction, *distance = decode(code)
        start = engine.rafts[piece].space if kind in ("raft", "oars") else engine.adventurers[piece].space
        stop = engine.step(start, direction, distance[0] if distance else 1)
        return far[start] - far[stop]

    best = max(gain(c) for c in moves)
    return rng.choice([c for c in moves if gain(c) == best])


def play_lockstep(rules: Rules, seed: int, game: int, choice_seed: int, limit: int = 20000,
                  choose=None) -> Lockstep:
    """One game to its end in lockstep, each decision uniform over the legal list (or
    `choose(engine, codes, rng)`'s); raises Mismatch at the first difference."""
    both = Lockstep(rules, seed, game)
    chooser = random.Random(choice_seed)
    both.play(lambda codes: choose(both.engine, codes, chooser) if choose else chooser.choice(codes), limit)
    rolls = rolls_of(both.s)
    dice = random_dice(rules, seed, game)
    if rolls != [next(dice) for _ in rolls]:
        raise both.fail("the kernel's rolls are not the dice stream's (S5, engine random_dice)")
    return both


# --- what the conformance suite asks of every game (tests/test_conformance.py) ------------------------

# Every player count, and the parameters a sweep varies.
RULE_GRID = [
    Rules(players=2),
    Rules(players=3),
    Rules(players=4),
    Rules(players=5),
    Rules(players=2, moves=1, raft_capacity=1, rafts=8, die=(0, 3, 3)),
    Rules(players=3, sharks=8, kaijus=4, serpents=2, volcanoes_to_end=4, setup="snake"),
    Rules(players=4, moves=5, raft_capacity=5, rafts=24, die=(1, 1, 4)),
    Rules(players=5, serpents=0, sharks=1, kaijus=1, volcanoes_to_end=1, die=(6, 0, 0), setup="snake"),
]


def lockstep_games(rules: Rules, seed: int, games: int) -> dict:
    """Games of uniform random play, kernel and engine side by side from the kernel's deal and
    rolls: the same legal actions at every decision and the same snapshot after every step
    (raises Mismatch, an AssertionError, at the first difference)."""
    steps = 0
    for i in range(games):
        steps += play_lockstep(rules, seed, i, choice_seed=seed * 1000 + i).steps
    return {"decisions": steps, "steps": steps}
