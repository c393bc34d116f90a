"""Desert Island's kernel played beside its reference engine (sim/lockstep.py).

The engine is built from the kernel's deal and reads the draw stream only as far as the kernel
has read it (D11): a card the engine takes blind where the kernel does not is a mismatch. Before
every decision both must list the same legal codes in the same order, and after every step both
must give the same snapshot: the whole state, hidden cards, fists and the week's working lists
included.
"""

from __future__ import annotations

import numpy as np

from sim import lockstep
from sim.desert_island import kernel as K
from sim.desert_island import layout as L
from sim.desert_island.actions import CLAIMS, action_text
from sim.desert_island.engine import ENDINGS, Deal, DesertIslandEngine, random_draws
from sim.desert_island.rules import FATE_CARDS, ITEM_CARDS, Rules
from sim.lockstep import Mismatch
from sim.streams import rand_below

__all__ = ["Lockstep", "Mismatch", "RULE_GRID", "engine_snapshot", "kernel_snapshot", "lockstep_games",
           "new_kernel_game", "play_lockstep"]


class DrawFeed:
    """The engine's draws: the draw stream of the game, read no further than the kernel read it."""

    def __init__(self, rules: Rules, seed: int, game: int):
        self.stream = random_draws(rules, seed, game)
        self.allowed = 0  # draws the kernel has made
        self.read = 0

    def __iter__(self):
        return self

    def __next__(self) -> int:
        if self.read >= self.allowed:
            raise Mismatch("the engine takes a card blind where the kernel does not")
        self.read += 1
        return next(self.stream)


def new_kernel_game(rules: Rules, seed: int, game: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    p = L.params_of(rules)
    s = np.zeros(L.NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    K.init_game(s, p, rng, seed, game)
    return s, p, rng


def deal_of(s: np.ndarray, p: np.ndarray) -> Deal:
    """The deal the kernel shuffled (D11), as the engine's."""
    n = int(p[L.P_PLAYERS])

    def block(at: int, size: int) -> tuple[int, ...]:
        return tuple(int(x) for x in s[at:at + size])

    return Deal(block(L.ROLES, n), block(L.START_PLACE, n), block(L.ITEM_ORDER, ITEM_CARDS),
                block(L.FATE_ORDER, FATE_CARDS), block(L.FRIENDS, n), block(L.ENEMIES, n))


def engine_snapshot(e: DesertIslandEngine, draws: int) -> dict:
    """The engine's whole state in the snapshot's form."""
    f = e.fight
    fight = None
    if f is not None:
        fight = {"attacker": f.attacker, "defender": f.defender, "claim": CLAIMS[f.claim],
                 "side": [[c, side] for c, side in f.side.items()], "waiting": list(f.waiting),
                 "armed": list(f.armed), "bonus": sorted([c, b] for c, b in f.bonus.items()),
                 "fled": list(f.fled), "cards": list(f.cards), "attacker_won": f.attacker_won}
    return {
        "phase": e.phase, "decider": e.decider, "deciding": e.deciding, "week": e.week, "fire": e.fire,
        "ships": e.ships, "ending": e.ending, "place": list(e.place), "alive": list(e.alive),
        "wounds": list(e.wounds), "food": list(e.food), "tokens": list(e.tokens),
        "place_tokens": list(e.place_tokens), "owner": list(e.owner), "face_up": list(e.face_up),
        "item_deck": list(e.item_deck), "fate_deck": list(e.fate_deck), "played": [list(x) for x in e.played],
        "acted": sorted(e.acted), "actor": e.actor, "giver": e.giver, "drawn": list(e.drawn),
        "receivers": list(e.receivers), "dealt": [list(x) for x in e.dealt], "choice": list(e.choice),
        "kept": e.kept, "fight": fight, "fists": list(e.fists), "queue": list(e.queue), "victim": e.victim,
        "offer": list(e.offer) if e.offer is not None else None,
        "rat_fists": sorted([c, left, right] for c, (left, right) in e.rat_fists.items()),
        "draws": draws, "scores": e.scores, "shares": e.win_shares(),
    }


def kernel_snapshot(s: np.ndarray, p: np.ndarray) -> dict:
    """The kernel's state in the snapshot's form (engine_snapshot's keys)."""
    n = int(p[L.P_PLAYERS])

    def block(at: int, size: int) -> list[int]:
        return [int(x) for x in s[at:at + size]]

    def bits(word: int) -> list[int]:
        return [c for c in range(n) if (int(word) >> c) & 1]

    fight = None
    if s[L.F_ON]:
        order = block(L.F_ORDER, int(s[L.F_NORDER]))
        armed_from = int(s[L.F_ARMED_I])
        fight = {"attacker": int(s[L.F_ATTACKER]), "defender": int(s[L.F_DEFENDER]),
                 "claim": CLAIMS[int(s[L.F_CLAIM])], "side": [[c, int(s[L.F_SIDE + c])] for c in order],
                 "waiting": block(L.F_WAIT + int(s[L.F_WAIT_I]), int(s[L.F_WAIT_N] - s[L.F_WAIT_I])),
                 "armed": order[armed_from:] if armed_from >= 0 else [],
                 "bonus": [[c, int(s[L.F_BONUS + c])] for c in sorted(order) if s[L.F_BONUS + c] != L.UNSET],
                 "fled": [2] if s[L.F_FLED] else [], "cards": block(L.F_CARDS, int(s[L.F_NCARDS])),
                 "attacker_won": bool(s[L.F_WON])}
    head, count = int(s[L.FATE_HEAD]), int(s[L.FATE_N])
    ending = int(s[L.ENDING])
    scores = [int(K.score(s, p, seat)) for seat in range(n)]
    mask = int(K.winners(s, p))
    shares = [1 / bin(mask).count("1") if (mask >> seat) & 1 else 0.0 for seat in range(n)]
    choice = block(L.CHOICE, 2)
    return {
        "phase": L.PHASES[int(s[L.PHASE])], "decider": int(K.decider(s)), "deciding": int(s[L.DECIDING]),
        "week": int(s[L.WEEK]), "fire": int(s[L.FIRE]), "ships": int(s[L.SHIPS]),
        "ending": ENDINGS[ending] if ending >= 0 else None,
        "place": block(L.PLACE, n), "alive": [bool(x) for x in block(L.ALIVE, n)], "wounds": block(L.WOUNDS, n),
        "food": block(L.FOOD, n), "tokens": block(L.TOKENS, n), "place_tokens": block(L.PLACE_TOKENS, n),
        "owner": block(L.OWNER, ITEM_CARDS), "face_up": [bool(x) for x in block(L.SHOWN, ITEM_CARDS)],
        "item_deck": block(L.ITEM_ORDER + int(s[L.ITEM_TOP]), ITEM_CARDS - int(s[L.ITEM_TOP])),
        "fate_deck": [int(s[L.FATE + (head + i) % FATE_CARDS]) for i in range(count)],
        "played": [[int(s[L.PLAYED_BY + i]), int(s[L.PLAYED_CARD + i])] for i in range(int(s[L.NPLAYED]))],
        "acted": bits(s[L.ACTED]), "actor": int(s[L.ACTOR]), "giver": int(s[L.GIVER]),
        "drawn": block(L.DRAWN, int(s[L.NDRAWN])),
        "receivers": block(L.RECEIVERS + int(s[L.RECV_I]), int(s[L.RECV_N] - s[L.RECV_I])),
        "dealt": [[int(s[L.DEALT_TO + i]), int(s[L.DEALT_CARD + i])] for i in range(int(s[L.NDEALT]))],
        "choice": choice if choice[0] >= 0 else [], "kept": int(s[L.KEPT_CARD]), "fight": fight,
        "fists": [int(s[L.FIST_OF]), int(s[L.FIST_LEFT]), int(s[L.FIST_RIGHT])],
        "queue": block(L.QUEUE + int(s[L.QUEUE_I]), int(s[L.QUEUE_N] - s[L.QUEUE_I])), "victim": int(s[L.VICTIM]),
        "offer": ([int(s[L.OFFER_BY]), int(s[L.OFFER_TO]), int(s[L.OFFER_GIVEN]), int(s[L.OFFER_WANTED])]
                  if s[L.OFFER_ON] else None),
        "rat_fists": [[c, int(s[L.RAT_LEFT + c]), int(s[L.RAT_RIGHT + c])] for c in bits(s[L.RAT_SPLIT])],
        "draws": int(s[L.NDRAWS]), "scores": scores, "shares": shares,
    }


class Lockstep(lockstep.Lockstep):
    """One game played by the kernel and the engine together."""

    kernel = K
    ordered = True

    def __init__(self, rules: Rules, seed: int, game: int):
        s, p, rng = new_kernel_game(rules, seed, game)
        deal = deal_of(s, p)  # the deal stays in the state whole
        self.where = f"{rules}, seed {seed}, game {game}"
        if deal != Deal.random(rules, seed, game):
            raise Mismatch(f"{self.where}: the kernel's deal is not the engine's (D11, engine Deal.random)")
        self.feed = DrawFeed(rules, seed, game)
        self.feed.allowed = int(s[L.NDRAWS])
        super().__init__(s, p, rng, DesertIslandEngine(rules, deal, self.feed), L.MAX_LEGAL)
        self.rules = rules
        self.compare("at the start")

    def snapshots(self) -> tuple[dict, dict]:
        return engine_snapshot(self.engine, self.feed.read), kernel_snapshot(self.s, self.p)

    def engine_legal(self) -> list[int]:
        return self.engine.legal_actions()

    def follow(self, code: int, drawn_before) -> None:
        self.feed.allowed = int(self.s[L.NDRAWS])
        try:
            self.engine.apply(code)
        except Mismatch as exc:
            raise self.fail(f"step {self.steps + 1}: {exc}") from None

    def text(self, code: int) -> str:
        return action_text(code, self.rules.deck_data)

    def situation(self) -> str:
        return f"step {self.steps} ({self.engine.phase}, week {self.engine.week})"

    def result_row(self) -> list[int]:
        row = np.zeros((1, L.NRESULT), dtype=np.int32)
        K.write_result(self.s, self.p, row, 0)
        return [int(x) for x in row[0]]


def play_lockstep(rules: Rules, seed: int, game: int, choose=None, limit: int = L.MAX_STEPS) -> Lockstep:
    """One game to its end in lockstep, each decision `choose(codes)`'s or, by default, uniform
    over the legal list from the game's policy stream, as the kernel's `play_random` chooses (so
    that the same seed and game are the same game there); raises Mismatch at the first
    difference, or when the results row is not the engine's."""
    both = Lockstep(rules, seed, game)
    if choose is None:
        def choose(codes: list[int]) -> int:
            return codes[rand_below(both.rng, L.STREAM_POLICY, len(codes))]
    both.play(choose, limit)
    check_result(both)
    return both


def check_result(both: Lockstep) -> None:
    """The kernel's results row against the engine's result (D7, D8, D22)."""
    e, row = both.engine, both.result_row()
    want = e.result_row()
    n = e.n
    got = {"ending": row[L.R_ENDING], "weeks": row[L.R_WEEKS], "ships": row[L.R_SHIPS],
           "alive": [bool((row[L.R_ALIVE] >> c) & 1) for c in range(n)],
           "scores": row[L.R_SCORE:L.R_SCORE + n],
           "shares": [1 / bin(row[L.R_WINNERS]).count("1") if (row[L.R_WINNERS] >> seat) & 1 else 0.0
                      for seat in range(n)]}
    for key, value in got.items():
        if want[key] != value:
            raise both.fail(f"the results row's {key} differs: {lockstep.difference(want[key], value)}")
    if row[L.R_CHARACTER:L.R_CHARACTER + n] != list(e.deal.roles) or row[L.R_DEATHS] != n - sum(e.alive):
        raise both.fail("the results row's characters or deaths differ")


# Every player count, and the parameters a sweep varies (a non-standard deck file among them).
RULE_GRID = [
    Rules(players=4),
    Rules(players=5),
    Rules(players=6),
    Rules(players=6, ships_to_rescue=1, start_food=12),
    Rules(players=4, ships_to_rescue=2, start_food=0),
]


def lockstep_games(rules: Rules, seed: int, games: int) -> dict:
    """Games 0 .. games-1 of `seed` as the kernel's `play_random` plays them (uniform over the
    legal codes from the policy stream), kernel and engine side by side from the kernel's deal and
    draws: the same legal actions at every decision, the same state after every step and the
    same results row (raises Mismatch, an AssertionError, at the first difference)."""
    steps = 0
    seen = [0] * len(ENDINGS)
    for i in range(games):
        both = play_lockstep(rules, seed, i)
        steps += both.steps
        seen[ENDINGS.index(both.engine.ending)] += 1
    # every step is a decision here: the kernel plays what no one chooses inside each
    return {"games": games, "decisions": steps, "steps": steps, **dict(zip(ENDINGS, seen, strict=True))}
