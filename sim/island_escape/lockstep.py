"""Island Escape's kernel as a shadow of its reference engine: every step the engine plays, the
kernel plays too, and the two must agree (what tests/test_conformance.py asks of every game, and
what the ruling and kernel tests use).

`shadow()` patches `IslandEscapeEngine.apply` and `IslandEscapeEngine.flood` so that every action and
every flood the engine plays - in a ruling scenario, a replayed record or a property test - is also played by the
kernel's rule primitives on the same state, and the two must agree:

- before each action and at the end of each action phase: the kernel's legal-action mask equals
  the engine's legal actions mapped to kernel ids (`engine_mask`);
- after each action and each flood: the engine's new state, written in the kernel's layout
  (`to_kernel`), equals the state the kernel reached.

The kernel is entered only through `kernel_legal`, `kernel_apply` and `kernel_flood` below, so a
change of the kernel's signatures is adapted here once. Steps the kernel cannot take the same way
are counted in `Shadow.skipped` rather than compared: a give of part of a suit or a raise with
other cards than the kernel's canonical ones (the kernel's action space has one give per suit and
one raise), an escape (R15) to another place than the first in the default order (the kernel's
escape is a policy's choice; `idle`'s picks the first), and an action on a state built by hand
that was cut off or short of cards already (the kernel checks R16/R17 only after the steps that
can change them, which in real play is the same).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from sim.island_escape import kernel as K
from sim.island_escape import layout as L
from sim.island_escape.convert import card_id, engine_mask, final_of, kernel_id, names, record_of_log, to_kernel
from sim.island_escape.convert import params_of as rules_to_params
from sim.island_escape.engine import Action, IslandEscapeEngine
from sim.island_escape.kernel import apply_turn_action, legal_actions, legal_mask
from sim.island_escape.rules import FULL_GAUGE, Rules

# The state fields both sides define the same way. Not compared: COLP/ROWP after a reshuffle
# (each side shuffles with its own randomness), the unused-action count (the engine does not
# keep it) and RAISE_TURN (the engine keeps it in its events only, and scanning them at every
# step would make a game's shadow quadratic).
COMPARED = {
    "CARD": (L.CARD, 25), "TSTATE": (L.TSTATE, 25), "PAWN": (L.PAWN, 4), "HAND": (L.HAND, 4),
    "RAISED": (L.RAISED, 1), "RAISE_SEQ": (L.RAISE_SEQ, 1), "GAUGE_TOP": (L.GAUGE_TOP, 1),
    "PILE_POS": (L.PILE_POS, 1), "TURN": (L.TURN, 1), "ACTS": (L.ACTS, 1), "FLOODS": (L.FLOODS, 1),
    "OUTCOME": (L.OUTCOME, 1), "ISLAND_LAND": (L.ISLAND_LAND, 1), "TILES": (L.TILES, 1),
    "KINGPOS": (L.KINGPOS, 4), "COUNT": (L.COUNT, 7), "SUNK": (L.SUNK, 1), "PASSES": (L.PASSES, 1),
    "FLOODED_AT": (L.FLOODED_AT, 1), "FACE_UP_LAND": (L.FACE_UP_LAND, 1),
}

COMPARED_AT = np.array([at + k for at, n in COMPARED.values() for k in range(n)])


# --- the kernel's rule primitives (a flood, its escapes to the first option) --------------------


def kernel_legal(s: np.ndarray, p: np.ndarray) -> int:
    """The legal actions of the shared entry point (sim/kernel_api.py) as a mask, checked against
    the mask the play loop reads."""
    if s[L.OUTCOME] >= 0:  # a finished game offers no decision at all there
        return int(legal_mask(s, p))
    out = np.zeros(L.N_DECISIONS, dtype=np.int64)
    n = legal_actions(s, p, out)
    mask = sum(1 << int(a) for a in out[:n])
    assert mask == int(legal_mask(s, p)), "legal_actions and legal_mask differ"
    return mask


def kernel_apply(s: np.ndarray, p: np.ndarray, a: int) -> None:
    """One action of the current pawn, its flood phase left to `kernel_flood`."""
    apply_turn_action(s, p, a, np.zeros((1, 4), dtype=np.int32), -1)


def kernel_flood(s: np.ndarray, p: np.ndarray) -> None:
    """One flood (R14, R15) with the kernel's steps; a pawn whose place sinks escapes to its first
    option in the default order."""
    rng = np.zeros(3, dtype=np.uint64)  # used only if the piles are reshuffled
    log = np.zeros((1, 4), dtype=np.int32)
    _, sank, card = K.draw_flood(s, p, log, -1)
    if s[L.OUTCOME] >= 0:
        return
    if sank >= 0:
        opts = np.zeros(8, dtype=np.int64)
        for pawn in range(int(p[L.P_PAWNS])):
            if s[L.PAWN + pawn] == sank:
                if K.escape_options(s, p, sank, opts) == 0:  # drowned (R15)
                    return
                K.escape_to(s, pawn, opts[0], log, -1)
    K.end_flood(s, p, rng, sank, card)


# --- the shadow -------------------------------------------------------------------------------------


@dataclass
class Shadow:
    masks: int = 0  # legal-action masks compared
    actions: int = 0  # actions played by both and compared
    floods: int = 0  # floods played by both and compared
    refused: int = 0  # illegal actions the kernel's mask also refuses
    checks: int = 0  # `IslandEscapeEngine.check` answers compared with the kernel's mask
    skipped: dict[str, int] = field(default_factory=dict)
    seen: set[int] = field(default_factory=set)  # kernel action ids found legal

    def skip(self, why: str) -> None:
        self.skipped[why] = self.skipped.get(why, 0) + 1


def assert_same_state(before: IslandEscapeEngine | None, engine: np.ndarray, kernel: np.ndarray, what: str,
                      reshuffled: bool = False) -> None:
    if np.array_equal(engine[COMPARED_AT], kernel[COMPARED_AT]) and (
            reshuffled or np.array_equal(engine[L.COLP:L.ROWP + 5], kernel[L.COLP:L.ROWP + 5])) and (
            engine[L.LOSS_PLACE] == kernel[L.LOSS_PLACE] or engine[L.OUTCOME] < 0):
        return
    diffs = []
    for name, (at, n) in COMPARED.items():
        if not np.array_equal(engine[at:at + n], kernel[at:at + n]):
            diffs.append(f"{name}: engine {engine[at:at + n].tolist()} kernel {kernel[at:at + n].tolist()}")
    if not reshuffled:
        for name, at in (("COLP", L.COLP), ("ROWP", L.ROWP)):
            if not np.array_equal(engine[at:at + 5], kernel[at:at + 5]):
                diffs.append(f"{name}: engine {engine[at:at + 5].tolist()} kernel {kernel[at:at + 5].tolist()}")
    if engine[L.OUTCOME] in (L.CAUSE_TREASURE, L.CAUSE_HELICOPTER, L.CAUSE_DROWNED) \
            and engine[L.LOSS_PLACE] != kernel[L.LOSS_PLACE]:
        diffs.append(f"LOSS_PLACE: engine {engine[L.LOSS_PLACE]} kernel {kernel[L.LOSS_PLACE]}")
    assert not diffs, f"kernel and engine differ after {what}: " + "; ".join(diffs)


def compare_masks(game: IslandEscapeEngine, p: np.ndarray, record: Shadow) -> np.ndarray:
    """Compare the legal actions; returns the state in the kernel's layout."""
    s = to_kernel(game)
    want, got = engine_mask(game), kernel_legal(s, p)
    assert got == want, (f"turn {game.turn}, pawn {game.current_pawn}: kernel offers {names(got)}, "
                         f"the engine {names(want)}")
    record.masks += 1
    record.seen |= {a for a in range(L.N_ACTIONS) if (got >> a) & 1}
    return s


@contextmanager
def shadow():
    """Within the block every engine action and flood is also played by the kernel and compared."""
    record = Shadow()
    engine = IslandEscapeEngine
    real_apply, real_flood, real_phase, real_check = engine.apply, engine.flood, engine.start_flood_phase, engine.check
    params: dict[str, np.ndarray] = {}

    def p_of(game: IslandEscapeEngine) -> np.ndarray:
        key = repr(game.rules)  # by value: the id of a freed Rules object is reused
        if key not in params:
            params[key] = rules_to_params(game.rules)
        return params[key]

    def apply(game: IslandEscapeEngine, action: Action) -> None:
        busy.append(1)
        try:
            return shadow_apply(game, action)
        finally:
            busy.pop()

    def shadow_apply(game: IslandEscapeEngine, action: Action) -> None:
        in_phase = not game.over and game.turn > 0 and not game.floods_left
        if not in_phase:
            return real_apply(game, action)
        p = p_of(game)
        s = compare_masks(game, p, record)
        a = kernel_id(game, action)
        if game.check(action) is not None:
            if a is not None and action.kind not in ("give", "raise"):
                assert not (kernel_legal(s, p) >> a) & 1, f"the kernel allows {action}"
                record.refused += 1
            return real_apply(game, action)
        real_apply(game, action)
        if a is None:
            return record.skip("a give of part of a suit")
        if action.kind == "raise" and not _canonical_raise(s, p, game, action):
            return record.skip("a raise with other cards than the kernel's")
        kernel_apply(s, p, a)
        after = to_kernel(game)
        if (action.kind in ("move", "swim", "shore", "give") and after[L.OUTCOME] in (L.CAUSE_CUT_OFF, L.CAUSE_CARDS)
                and s[L.OUTCOME] < 0):
            # These actions cannot change R16 or R17, so the state was lost before the action:
            # a state built by hand (in play the loss came first and ended the game, R18). The
            # kernel checks R16/R17 only after the steps that can change them.
            after[L.OUTCOME] = -1
            record.skip("a hand-built state lost before the action")
        assert_same_state(game, after, s, f"turn {game.turn}: {action}")
        record.actions += 1

    busy = []  # the engine's own calls of `check` (from legal_actions, apply) are not shadowed

    def check(game: IslandEscapeEngine, action: Action) -> str | None:
        if busy:
            return real_check(game, action)
        busy.append(1)
        try:
            reason = real_check(game, action)
            in_phase = not game.over and game.turn > 0 and not game.floods_left
            a = kernel_id(game, action) if in_phase else None
            if a is not None:
                offered = (kernel_legal(to_kernel(game), p_of(game)) >> a) & 1
                if reason is None:
                    assert offered, f"the kernel refuses {action}, which the engine allows"
                elif action.kind not in ("give", "raise"):  # the kernel's give and raise take other cards
                    assert not offered, f"the kernel allows {action}: {reason}"
                record.checks += 1
            return reason
        finally:
            busy.pop()

    def start_flood_phase(game: IslandEscapeEngine) -> None:
        if not game.over and game.turn > 0 and not game.floods_left and game.actions_left > 0:
            busy.append(1)
            try:
                compare_masks(game, p_of(game), record)  # the decision to end the turn
            finally:
                busy.pop()
        real_phase(game)

    def flood_(game: IslandEscapeEngine, choose_escape=None) -> None:
        if game.over or not game.floods_left:
            return real_flood(game, *(() if choose_escape is None else (choose_escape,)))
        p = p_of(game)
        s = to_kernel(game)
        passes = game.passes
        chose_other = []

        def watching(g, pawn, options):
            target = (choose_escape or (lambda g, pawn, options: options[0]))(g, pawn, options)
            if target != options[0]:
                chose_other.append(target)
            return target

        real_flood(game, watching)
        if chose_other:
            return record.skip("an escape to another place than the first option")
        kernel_flood(s, p)
        assert_same_state(game, to_kernel(game), s, f"flood {game.floods}", reshuffled=game.passes != passes)
        record.floods += 1

    engine.apply, engine.flood, engine.start_flood_phase, engine.check = apply, flood_, start_flood_phase, check
    try:
        yield record
    finally:
        engine.apply, engine.flood = real_apply, real_flood
        engine.start_flood_phase, engine.check = real_phase, real_check


def _canonical_raise(s: np.ndarray, p: np.ndarray, game: IslandEscapeEngine, action: Action) -> bool:
    """The raise discards the cards the kernel would (its `raise_cards` choice)."""
    from sim.island_escape.kernel import raise_cards

    me = int(s[L.CUR])
    suit = int(s[L.CARD + s[L.PAWN + me]])
    mask = int(raise_cards(s, p, me, suit))
    return mask == sum(1 << (card_id(c) - 4) for c in action.cards)


# --- what the conformance suite asks of every game (tests/test_conformance.py) ------------------------

# Random play over these keeps the game's invariants: every player count, both variants, the
# shortest and longest gauges, several cards a treasure, swim costs and turn lengths.
RULE_GRID = [
    Rules(players=1), Rules(players=2), Rules(players=3), Rules(players=4),
    Rules(cards_per_treasure=1), Rules(cards_per_treasure=5, players=4), Rules().with_variant("divers"),
    Rules(players=3).with_variant("divers", "short"), Rules(gauge=("5C",)), Rules(gauge=FULL_GAUGE + ("5D",)),
    Rules(actions_per_turn=1, swim_cost=3), Rules(actions_per_turn=12, swim_cost=1, players=2),
]


def random_records(rules: Rules, seed: int, games: int) -> Iterator[tuple]:
    """Games of uniform random play (every decision, escapes included, uniform over the kernel's
    legal list) through the kernel's shared entry points, each as its record and final state."""
    p = rules_to_params(rules)
    chooser = random.Random(seed)
    acts = np.zeros(L.N_DECISIONS, dtype=np.int64)
    for game in range(games):
        s, rng = np.zeros(L.NSTATE, dtype=np.int32), np.zeros(3, dtype=np.uint64)
        log, row = np.zeros(L.LOG_SHAPE, dtype=np.int32), np.zeros((1, L.NRESULT), dtype=np.int32)
        K.init_game(s, p, rng, seed, game)
        n = 0
        while (legal := K.legal_actions(s, p, acts)) > 0:
            n = K.apply_action(s, p, acts[chooser.randrange(legal)], rng, log, n)
        K.write_result(s, p, row, 0)
        yield record_of_log(rules, seed, game, log[:n], row[0], s, f"seed {seed}, game {game}"), s


def lockstep_games(rules: Rules, seed: int, games: int) -> dict:
    """Random games played by the kernel and replayed by the engine under the kernel's shadow:
    the same legal actions before every action and the same state after every action and flood
    (raises AssertionError at the first difference), and the engine's result the kernel's."""
    from sim.island_escape.records import parse_record, replay, result_json

    def in_card_order(hands):  # the kernel holds salvage as a set, the engine in the order taken
        return [sorted(h, key=lambda code: (code[-1], int(code[:-1]))) for h in hands]

    with shadow() as seen:
        for record, state in random_records(rules, seed, games):
            final = final_of(rules, state, record)
            got = result_json(replay(parse_record(record.to_json())))  # through JSON, as another engine would
            for key in ("outcome", "cause", "turns", "floods"):
                assert got[key] == record.result[key], (key, got[key], record.result[key])
            got["final"]["salvage"] = in_card_order(got["final"]["salvage"])
            final = {**final, "salvage": in_card_order(final["salvage"])}
            assert got["final"] == final, "the engine's final state is not the kernel's"
    return {"decisions": seen.masks, "steps": seen.actions + seen.floods}
