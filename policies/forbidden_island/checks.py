"""Forbidden Island's checks of itself: its kernel against its reference engine, and its players
against the hidden information (what tests/test_conformance.py asks of every game, and what the
kernel tests use).

The kernel played beside the reference engine, decision by decision (OpenSpiel style).

`Lockstep` starts the kernel from an engine Setup, and at every decision point compares the two
legal action sets and, after each step, the two whole states. The kernel's shuffles come from
its own random stream; each one is handed to the engine's Shuffler as a script before the engine
plays the same step, so both see the same cards.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np

from policies import checks as shared_checks
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
from sim.streams import seed_streams

NO_LOG = np.zeros(1, dtype=np.int32)  # the log the shared `apply_action` is given when nothing is logged (nlog -1)


class Mismatch(AssertionError):
    pass


class Lockstep:
    """One game played by the kernel and the engine together."""

    def __init__(self, rules: Rules, setup: Setup | None, kernel_seed: int, game: ForbiddenIslandEngine | None = None):
        """From a Setup (the kernel plays F3 and the engine follows), or from an engine `game` in
        any state (the kernel starts from convert.state_of)."""
        self.rules = rules
        self.p = params_of(rules)
        self.rng = np.zeros(3, dtype=np.uint64)
        self.out = np.zeros(L.MAX_LEGAL, dtype=np.int64)
        seed_streams(self.rng, kernel_seed, 0)
        if game is None:
            self.s = np.zeros(L.NSTATE, dtype=np.int32)
            setup_into(self.s, setup)
            K.set_up(self.s, self.p, self.rng)
            script = [("treasure", treasure_pile_order(self.s))] if self.s[L.N_TSHUFFLES] else []
            game = ForbiddenIslandEngine(rules, setup, Shuffler(seed=10**9, script=script))
        else:
            self.s = state_of(game)
            game.shuffler = Shuffler(seed=10**9)
        self.game = game
        self.steps = 0
        self.compare("at the start")

    def compare(self, where: str) -> None:
        want, got = engine_snapshot(self.game), kernel_snapshot(self.s, self.p)
        for key in want:
            if want[key] != got[key]:
                raise Mismatch(f"{where}: {key} differs: engine {want[key]!r}, kernel {got[key]!r}")

    def legal_codes(self) -> list[int]:
        n = K.legal_actions(self.s, self.p, self.out)
        codes = sorted(int(c) for c in self.out[:n])
        want = sorted(encode(a) for a in self.game.legal_actions())
        if codes != want:
            extra = [str(decode(c)) for c in sorted(set(codes) - set(want))][:5]
            missing = [str(decode(c)) for c in sorted(set(want) - set(codes))][:5]
            raise Mismatch(f"step {self.steps}: legal actions differ: kernel also {extra}, kernel lacks {missing}")
        if len(set(codes)) != len(codes):
            raise Mismatch(f"step {self.steps}: the kernel lists an action twice")
        return codes

    def step(self, code: int) -> None:
        s = self.s
        tshuffles, fshuffles = int(s[L.N_TSHUFFLES]), int(s[L.N_FSHUFFLES])
        K.apply_action(s, self.p, code, self.rng, NO_LOG, -1)
        if s[L.N_FSHUFFLES] > fshuffles:  # the engine shuffles the flood deck first (F6, then F7)
            self.game.shuffler.script.append(("flood", flood_top_layer_order(s)))
        if s[L.N_TSHUFFLES] > tshuffles:
            self.game.shuffler.script.append(("treasure", treasure_pile_order(s)))
        self.game.apply(decode(code))
        self.steps += 1
        self.compare(f"step {self.steps} ({decode(code)})")


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
    game = Lockstep(rules, setup, kernel_seed, game)
    rng = random.Random(choice_seed)
    while not game.game.over and game.steps < limit:
        codes = game.legal_codes()
        code = encode(scout(game.game, rng)) if scout else by_kind_choice(codes, rng)
        action = decode(code)
        if seen is not None:
            seen[action.kind] += 1
        if freedoms is not None:
            g = game.game
            if action.kind == "fly" and action.place in g.move_targets(g.current):
                freedoms["fly to a walkable tile"] += 1
            if action.kind == "swim" and action.by != min(g.swimmers):
                freedoms["swim ahead of a lower seat"] += 1
        game.step(code)
    if game.legal_codes():
        raise Mismatch("the kernel offers actions after the end")
    return game


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
        game = play_lockstep(rules, deal(rules, seed * 1000 + i), kernel_seed=seed * 1000 + i, choice_seed=i)
        decisions += game.steps
    return {"decisions": decisions, "steps": decisions}


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


def departure_share(skill: float, decisions: int, seed: int = 0, rules: Rules | None = None,
                    care: float | None = None) -> float:
    """The share of `skilled`'s actions at `skill` (in its own games; the actions of a turn, F5,
    as Island Escape's decisions are) where it does not choose what the expert would in the
    same state: how much error a skill means, counted in decisions (matched to Island Escape's
    skill axis)."""
    from policies.forbidden_island import expert, skilled

    rules = rules or Rules(players=2, difficulty="normal")
    p = params_of(rules)
    acts = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    pp = skilled.skill_params(skill, care)
    own = expert.default_params()  # the expert's own scratch: its caches are not the player's
    departed = seen = game = 0
    while seen < decisions:
        s = np.zeros(L.NSTATE, dtype=np.int32)
        rng = np.zeros(3, dtype=np.uint64)
        K.init_game(s, p, rng, seed, game)
        while s[L.OUTCOME] < 0 and seen < decisions:
            code = K.only_draw(s, p, K.phase(s, p))
            if code < 0:
                expert.choose(s.copy(), p, own, acts, 0, rng.copy())
                want = int(acts[0])
                actions = K.phase(s, p) == L.PH_ACTIONS
                skilled.choose(s, p, pp, acts, 0, rng)
                code = int(acts[0])
                seen += actions
                departed += actions and code != want
            K.apply_action(s, p, code, rng, NO_LOG, -1)
        game += 1
    return departed / seen
