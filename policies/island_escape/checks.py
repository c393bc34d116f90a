"""Island Escape's checks of itself: its kernel against its reference engine, and its players
against the hidden information (what tests/test_conformance.py asks of every game, and what the
ruling and kernel tests use).

The kernel as a shadow of the reference engine:

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

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from policies.island_escape.registry import REGISTRY
from sim.island_escape import kernel as K
from sim.island_escape import layout as L
from sim.island_escape.convert import card_id, engine_mask, final_of, kernel_id, names, to_kernel
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
    here = int(s[L.PAWN + pawn])
    opts = np.zeros(8, dtype=np.int64)
    n = 0
    for dc, dr in zip(L.ESC_DC, L.ESC_DR, strict=True):
        c, r = here % 5 + dc, here // 5 + dr
        if 0 <= c < 5 and 0 <= r < 5 and s[L.TSTATE + r * 5 + c] != L.SEA:
            opts[n] = r * 5 + c
            n += 1
    return opts, n


# --- what the conformance suite asks of every game (tests/test_conformance.py) ------------------------

# Random play over these keeps the game's invariants: every player count, both variants, the
# shortest and longest gauges, several cards a treasure, swim costs and turn lengths.
RULE_GRID = [
    Rules(players=1), Rules(players=2), Rules(players=3), Rules(players=4),
    Rules(cards_per_treasure=1), Rules(cards_per_treasure=5, players=4), Rules().with_variant("divers"),
    Rules(players=3).with_variant("divers", "short"), Rules(gauge=("5C",)), Rules(gauge=FULL_GAUGE + ("5D",)),
    Rules(actions_per_turn=1, swim_cost=3), Rules(actions_per_turn=12, swim_cost=1, players=2),
]


def lockstep_games(rules: Rules, seed: int, games: int) -> dict:
    """Random games exported by the kernel and replayed by the engine under the kernel's shadow:
    the same legal actions before every action and the same state after every action and flood
    (raises AssertionError at the first difference), and the engine's result the kernel's."""
    from policies.runner import export_games
    from sim.island_escape.records import parse_record, replay, result_json

    def in_card_order(hands):  # the kernel holds salvage as a set, the engine in the order taken
        return [sorted(h, key=lambda code: (code[-1], int(code[:-1]))) for h in hands]

    with shadow() as seen:
        for record, state in export_games(rules, "random", seed, range(games)):
            final = final_of(rules, state, record)
            got = result_json(replay(parse_record(record.to_json())))  # through JSON, as another engine would
            for key in ("outcome", "cause", "turns", "floods"):
                assert got[key] == record.result[key], (key, got[key], record.result[key])
            got["final"]["salvage"] = in_card_order(got["final"]["salvage"])
            final = {**final, "salvage": in_card_order(final["salvage"])}
            assert got["final"] == final, "the engine's final state is not the kernel's"
    return {"decisions": seen.masks, "steps": seen.actions + seen.floods}


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


def departure_share(skill: float, decisions: int, seed: int = 0, rules: Rules | None = None) -> float:
    """The share of `skilled`'s decisions at `skill` (in its own games) where it does not choose
    what the expert would in the same state: how much error a skill means, counted in decisions
    (the measure Forbidden Island's skill axis is matched to)."""
    from policies.island_escape import expert, skilled

    p = rules_to_params(rules or Rules())
    s = np.zeros(L.NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    pp = skilled.skill_params(skill)
    none = np.zeros(32)
    departed = seen = 0

    def choose(legal):
        nonlocal departed, seen
        want = expert.action(s.copy(), p, none, legal, rng.copy())
        a = skilled.action(s, p, pp, legal, rng)
        seen += 1
        departed += a != want
        return a

    game = 0
    while seen < decisions:
        for _ in kernel_decisions(s, p, rng, seed, game, "skilled", pp, choose):
            pass
        game += 1
    return departed / seen
