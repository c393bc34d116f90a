"""Survive the Island's checks of itself: its kernel against its reference engine, and its players
against the hidden information (what tests/test_conformance.py asks of every game).

`Lockstep` plays one game with the kernel (through its shared entry points init_game,
legal_actions and apply_action) and the reference engine side by side: the engine is given the
kernel's deal and, step by step, the kernel's rolls (it draws no random numbers itself); before
every decision both must list the same legal action codes, and after every step both must give
the same snapshot (sti-contract's keys).
"""

from __future__ import annotations

import random
from collections import deque

import numpy as np

from policies import checks as shared_checks
from sim.survive_the_island import kernel as K
from sim.survive_the_island import layout as L
from sim.survive_the_island.convert import deal_of, kernel_snapshot, params_of, rescue_distances, rolls_of
from sim.survive_the_island.engine import Deal, SurviveTheIslandEngine, random_dice
from sim.survive_the_island.rules import TILES, Rules, action_text, decode

NO_LOG = np.zeros(1, dtype=np.int32)  # the log `apply_action` is given when nothing is logged (nlog -1)
STREAM_DEAL, STREAM_DICE, STREAM_PLAYER = 0, 1, 2


class Mismatch(AssertionError):
    pass


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


def kernel_deal(s: np.ndarray, p: np.ndarray) -> Deal:
    """The deal a kernel game holds (read right after init_game, before any tile floods)."""
    d = deal_of(s, p)
    return Deal(tuple(TILES[t] for t in d["tiles"]), tuple(d["values"]))


class Lockstep:
    """One game played by the kernel and the engine together."""

    def __init__(self, rules: Rules, seed: int, game: int):
        self.rules = rules
        self.board = rules.board_data
        self.s, self.p, self.rng = new_kernel_game(rules, seed, game)
        self.out = np.zeros(L.MAX_LEGAL, dtype=np.int64)
        deal = kernel_deal(self.s, self.p)
        if deal != Deal.random(rules, seed, game):
            raise Mismatch(f"game {game} of seed {seed}: the kernel's deal is not S3's (engine Deal.random)")
        self.feed = RollFeed()
        self.engine = SurviveTheIslandEngine(rules, deal, self.feed)
        self.steps = 0
        self.where = f"{rules}, seed {seed}, game {game}"
        self.compare("at the start")

    def compare(self, when: str) -> None:
        want, got = self.engine.snapshot(), kernel_snapshot(self.s, self.p)
        if set(want) != set(got):
            raise Mismatch(f"{self.where}, {when}: the snapshots' keys differ: "
                           f"engine only {sorted(set(want) - set(got))}, kernel only {sorted(set(got) - set(want))}")
        for key in want:
            if want[key] != got[key]:
                raise Mismatch(f"{self.where}, {when}: {key} differs: {_difference(want[key], got[key])}")

    def legal_codes(self) -> list[int]:
        n = K.legal_actions(self.s, self.p, self.out)
        codes = [int(c) for c in self.out[:n]]
        want = self.engine.legal_actions()
        if codes != want:
            text = lambda cs: [action_text(c, self.board) for c in sorted(cs)][:6]  # noqa: E731
            if sorted(codes) == want:
                raise Mismatch(f"{self.where}, step {self.steps}: the kernel lists its legal actions out of order")
            raise Mismatch(f"{self.where}, step {self.steps} ({self.engine.phase}, turn {self.engine.turn}): "
                           f"legal actions differ: kernel also {text(set(codes) - set(want))}, "
                           f"kernel lacks {text(set(want) - set(codes))}")
        return codes

    def step(self, code: int) -> None:
        before = len(self.feed.waiting) + len(self.engine.rolls)
        K.apply_action(self.s, self.p, code, self.rng, NO_LOG, -1)
        self.feed.waiting.extend(rolls_of(self.s)[before:])
        self.engine.apply(code)
        self.steps += 1
        if self.feed.waiting:
            raise Mismatch(f"{self.where}, step {self.steps}: the kernel rolled {len(self.feed.waiting)} more "
                           "times than the engine")
        self.compare(f"step {self.steps} ({action_text(code, self.board)}, turn {self.engine.turn})")


def _difference(want, got) -> str:
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        at = [i for i, (a, b) in enumerate(zip(want, got, strict=True)) if a != b]
        return "; ".join(f"[{i}] engine {want[i]!r}, kernel {got[i]!r}" for i in at[:5])
    return f"engine {want!r}, kernel {got!r}"


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
    lock = Lockstep(rules, seed, game)
    chooser = random.Random(choice_seed)
    while not lock.engine.over and lock.steps < limit:
        codes = lock.legal_codes()
        lock.step(choose(lock.engine, codes, chooser) if choose else chooser.choice(codes))
    if lock.legal_codes():
        raise Mismatch(f"{lock.where}: actions are offered after the end")
    rolls = rolls_of(lock.s)
    dice = random_dice(rules, seed, game)
    if rolls != [next(dice) for _ in rolls]:
        raise Mismatch(f"{lock.where}: the kernel's rolls are not the dice stream's (S5, engine random_dice)")
    return lock


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


HONESTY_RULES = (Rules(players=2), Rules(players=3), Rules(players=5))


def decision_states(count: int, seed: int) -> list[tuple]:
    """`count` kernel states at decisions with a choice, across HONESTY_RULES, from games of
    uniform random play: (s, p, rng) each."""
    out: list[tuple] = []
    acts = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    chooser = random.Random(seed)
    game = 0
    while len(out) < count:
        rules = HONESTY_RULES[game % len(HONESTY_RULES)]
        s, p, rng = new_kernel_game(rules, seed, game)
        while (n := K.legal_actions(s, p, acts)) > 0 and len(out) < count:
            if n > 1 and chooser.random() < 0.1:
                out.append((s.copy(), p, rng.copy()))
            K.apply_action(s, p, int(acts[chooser.randrange(n)]), rng, NO_LOG, -1)
        game += 1
    return out


def rehide(decision: tuple, gen: np.random.Generator) -> tuple:
    """The same state as the deciding seat sees it, what it cannot see drawn again (S16): the
    tiles not yet flooded shuffled among their spaces within each terrain, every other seat's
    values shuffled among its adventurers (its score following its rescued ones), and another
    dice stream."""
    s, p, rng = decision
    t = s.copy()
    spaces = int(p[L.P_NSPACES])
    for terrain in range(3):
        at = [q for q in range(spaces) if t[L.TILE_AT + q] >= 0 and TILES[t[L.TILE_AT + q]][0] == terrain]
        tiles = t[[L.TILE_AT + q for q in at]]
        t[[L.TILE_AT + q for q in at]] = gen.permutation(tiles)
    seat, each = int(t[L.SEAT]), int(p[L.P_ADV_EACH])
    for other in range(int(p[L.P_PLAYERS])):
        if other == seat:
            continue
        lo = L.VALUE + other * each
        t[lo:lo + each] = gen.permutation(t[lo:lo + each])
        rescued = t[L.ADV_SPACE + other * each:L.ADV_SPACE + (other + 1) * each] == -1
        t[L.SCORE + other] = int(t[lo:lo + each][rescued].sum())
    r = rng.copy()
    r[STREAM_DICE] = np.uint64(gen.integers(1 << 62))
    return t, p, r


def hidden_redrawn(decision: tuple, other: tuple) -> bool:
    return not np.array_equal(decision[0], other[0]) or decision[2][STREAM_DICE] != other[2][STREAM_DICE]


def quick_params(policy: str) -> np.ndarray:
    """A policy's parameters for the honesty check: its defaults (the skill axis at 0.5)."""
    from policies.survive_the_island.registry import REGISTRY

    mod = REGISTRY.module(policy)
    if hasattr(mod, "skill_params"):
        return mod.skill_params(0.5)
    return mod.default_params() if hasattr(mod, "default_params") else np.zeros(32)


def decide(policy: str, decision: tuple) -> int:
    """The action code `policy` (with `quick_params`) chooses at a decision (policies/checks.py)."""
    return shared_checks.decide("survive_the_island", policy, quick_params(policy), decision)
