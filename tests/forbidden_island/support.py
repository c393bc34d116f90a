"""Helpers that build Forbidden Island situations by hand for the focused tests.

Every helper moves cards between piles rather than creating or deleting them, so the 28 treasure
cards and 24 flood cards stay accounted for in every arranged game.

The arranged island is the canonical layout (tile codes in rules.TILE_CODES order, row by row):

        col: 1     2     3     4     5     6
    row 1:             FL    BrG
    row 2:       CoG   GoG   IrG   SiG
    row 3: CEm   CSh   HoG   WhG   TMo   TSu
    row 4: CoP   TiP   BBr   CAb   CFo   DDe
    row 5:       LLa   MMa   Obs   PRo
    row 6:             TwH   Wat
"""

from __future__ import annotations

import random

from sim.forbidden_island.engine import DRY, FLOODED, SUNK, Action, ForbiddenIslandEngine, Setup
from sim.forbidden_island.rules import (
    FOOLS_LANDING,
    LIFT,
    PICKUP_TILES,
    ROW_SPANS,
    SANDBAGS,
    TILE_CODES,
    TREASURE_DECK,
    TREASURES,
    Rules,
    neighbours,
    pickup_treasure,
)


def arranged(roles, difficulty: str = "novice", **rule_kw) -> ForbiddenIslandEngine:
    """A game on the canonical island with the given roles in turn order, no tile flooded,
    empty hands, and both decks in canonical order (nothing drawn yet)."""
    rules = Rules(players=len(roles), difficulty=difficulty, **rule_kw)
    setup = Setup(tuple(TILE_CODES), tuple(roles), tuple(TILE_CODES), tuple(TREASURE_DECK))
    game = ForbiddenIslandEngine(rules, setup)
    for tile in TILE_CODES:  # undo the six setup floods and the deal
        game.state[tile] = DRY
    game.flood_pile = list(TILE_CODES)
    game.flood_discard = []
    _one_flood_layer(game)
    game.treasure_pile = list(TREASURE_DECK)
    game.treasure_discard = []
    game.hands = [[] for _ in roles]
    game.events = []
    return game


def _one_flood_layer(game: ForbiddenIslandEngine) -> None:
    """After arranging the flood pile by hand, the table knows its cards but not their order."""
    game.flood_layers = [len(game.flood_pile)] if game.flood_pile else []


def place(game: ForbiddenIslandEngine, tile: str) -> tuple[int, int]:
    return game.place_of[tile]


def _take(game: ForbiddenIslandEngine, card: str) -> None:
    """Remove one `card` from the treasure pile, discard or any hand (in that order)."""
    for pile in [game.treasure_pile, game.treasure_discard, *game.hands]:
        if card in pile:
            pile.remove(card)
            return
    raise AssertionError(f"no {card} left to take")


def hand(game: ForbiddenIslandEngine, seat: int, cards) -> None:
    """Give player `seat` exactly these cards (taken from the piles or other hands)."""
    game.treasure_pile.extend(game.hands[seat])
    game.hands[seat] = []
    for card in cards:
        _take(game, card)
        game.hands[seat].append(card)


def treasure_top(game: ForbiddenIslandEngine, cards) -> None:
    """Put these cards on top of the treasure pile, first card drawn first."""
    for card in cards:
        _take(game, card)
    game.treasure_pile = list(cards) + game.treasure_pile


def treasure_discard(game: ForbiddenIslandEngine, cards) -> None:
    for card in cards:
        _take(game, card)
    game.treasure_discard.extend(cards)


def flood_top(game: ForbiddenIslandEngine, tiles) -> None:
    """Put these flood cards on top of the flood pile, first drawn first."""
    for tile in tiles:
        (game.flood_pile if tile in game.flood_pile else game.flood_discard).remove(tile)
    game.flood_pile = list(tiles) + game.flood_pile
    _one_flood_layer(game)


def flood_discard(game: ForbiddenIslandEngine, tiles) -> None:
    for tile in tiles:
        game.flood_pile.remove(tile)
    game.flood_discard.extend(tiles)
    _one_flood_layer(game)


def set_state(game: ForbiddenIslandEngine, where, state: str) -> None:
    """Set tiles (by place or code) to dry, flooded or sunk; a sunk tile's card leaves the game."""
    for w in where:
        tile = w if isinstance(w, str) else game.layout[w]
        if state == SUNK:
            for pile in (game.flood_pile, game.flood_discard):
                if tile in pile:
                    pile.remove(tile)
            if tile not in game.flood_out:
                game.flood_out.append(tile)
            _one_flood_layer(game)
        game.state[tile] = state


def picture(game: ForbiddenIslandEngine, rows: str) -> None:
    """Set tile states from a picture: one line per row, one character per place of that row
    ('.' dry, 'o' flooded, 'x' sunk); spaces are ignored."""
    lines = [line.replace(" ", "") for line in rows.splitlines() if line.strip()]
    assert len(lines) == 6, "a picture has six rows"
    for r, line in enumerate(lines, 1):
        lo, hi = ROW_SPANS[r]
        assert len(line) == hi - lo + 1, f"row {r} has {hi - lo + 1} places"
        for c, ch in zip(range(lo, hi + 1), line, strict=True):
            set_state(game, [(c, r)], {".": DRY, "o": FLOODED, "x": SUNK}[ch])


def places_in(rows: str) -> set[tuple[int, int]]:
    """The places marked '*' in a picture."""
    lines = [line.replace(" ", "") for line in rows.splitlines() if line.strip()]
    out = set()
    for r, line in enumerate(lines, 1):
        lo, _ = ROW_SPANS[r]
        out |= {(lo + i, r) for i, ch in enumerate(line) if ch == "*"}
    return out


def act(game: ForbiddenIslandEngine, *texts: str) -> None:
    for text in texts:
        game.apply(Action.parse(text))


def to_flood_phase(game: ForbiddenIslandEngine) -> None:
    """End the current player's actions and make both treasure draws (discarding the first
    card when needed: callers arrange hands so no discard is due)."""
    act(game, "draw", "draw")
    assert game.phase == "flood_draw", game.phase


def kinds(game: ForbiddenIslandEngine) -> set[str]:
    return {a.kind for a in game.legal_actions()}


def random_play(game: ForbiddenIslandEngine, rng: random.Random, on_step=None, limit: int = 20000,
                kind_first: bool = False, chooser=None) -> ForbiddenIslandEngine:
    """Random legal play to the end: uniform over the legal actions (the published random
    player's way), or with `kind_first` a uniform kind first, then an action of that kind (so
    that the many Helicopter Lift destinations do not crowd out everything else)."""
    for _ in range(limit):
        if game.over:
            return game
        before = on_step.before(game) if on_step else None
        if chooser is not None:
            game.apply(chooser(game, rng))
        else:
            legal = game.legal_actions()
            if kind_first:
                kind = rng.choice(sorted({a.kind for a in legal}))
                legal = [a for a in legal if a.kind == kind]
            game.apply(rng.choice(legal))
        if on_step:
            on_step.after(game, before)
    raise AssertionError(f"a random game did not end within {limit} decisions")


def _distance(game: ForbiddenIslandEngine, start, goal) -> int:
    """Side steps from `start` to `goal` over standing tiles (99 when cut off)."""
    seen, frontier, steps = {start}, [start], 0
    while frontier:
        if goal in frontier:
            return steps
        nxt = []
        for p in frontier:
            for q in neighbours(p):
                if q not in seen and game.standing(q):
                    seen.add(q)
                    nxt.append(q)
        frontier, steps = nxt, steps + 1
    return 99


def scout_choice(game: ForbiddenIslandEngine, rng: random.Random):
    """A crude goal-seeking chooser for tests only: it reaches captures and lift-offs that
    uniform random play never sees, so the invariants are checked on those paths too."""
    legal = game.legal_actions()
    for kind in ("liftoff", "capture"):
        for a in legal:
            if a.kind == kind:
                return a
    phase = game.phase
    if phase == "discard":
        seat = game.over_limit()
        held = game.hands[seat]
        discards = [a for a in legal if a.kind == "discard" and a.card not in (LIFT, SANDBAGS)]
        if discards:
            return min(discards, key=lambda a: (a.card not in game.captured, held.count(a.card)))
        return rng.choice(legal)
    landing = game.place_of[FOOLS_LANDING]
    if len(game.captured) == 4:
        for a in legal:  # everyone to Fools' Landing by Helicopter Lift
            if a.kind == "lift" and a.place == landing:
                return a
    if phase != "actions":
        return next(a for a in legal if a.kind in ("draw", "flood", "swim"))
    me = game.current
    hand_ = game.hands[me]
    goals = []
    if len(game.captured) == 4:
        goals = [landing]
    else:
        for t in TREASURES:
            if t not in game.captured and hand_.count(t) >= game.rules.capture_cards:
                goals = [game.place_of[tile] for tile in PICKUP_TILES[t] if game.standing(game.place_of[tile])]
    for a in legal:  # keep the tiles that matter dry
        if a.kind == "shore" and (pickup_treasure(game.tile_at(a.place)) or game.tile_at(a.place) == FOOLS_LANDING):
            return a
    for a in legal:  # hand a card to whoever holds more of it
        if a.kind == "give" and game.hands[a.pawn].count(a.card) >= hand_.count(a.card) \
                and len(game.hands[a.pawn]) < game.rules.hand_limit:
            return a
    if goals:
        here = min(_distance(game, game.pawns[me], g) for g in goals)
        steps = [a for a in legal if a.kind in ("move", "fly")
                 and min(_distance(game, a.place, g) for g in goals) < here]
        if steps:
            return min(steps, key=lambda a: min(_distance(game, a.place, g) for g in goals))
    if rng.random() < 0.3:
        return Action("draw")
    walk = [a for a in legal if a.kind in ("move", "shore")]
    return rng.choice(walk or legal)


def waters_rise_to_the_skull() -> ForbiddenIslandEngine:
    """Mark 9, two cards in the flood discard, and a Waters Rise! as the treasure pile's last
    card: the next draw loses the game (F14) where it would otherwise shuffle both piles
    (F6, F7)."""
    game = arranged(["engineer", "messenger"], difficulty="legendary")
    game.mark = 9
    flood_discard(game, ["watchtower", "observatory"])
    rest = list(TREASURE_DECK)
    rest.remove("waters_rise")
    treasure_discard(game, rest)
    assert game.treasure_pile == ["waters_rise"]
    return game


def last_flood_card_sinks_fools_landing() -> ForbiddenIslandEngine:
    """A flooded Fools' Landing whose card is the flood pile's last, every other card in the
    discard, at the flood draw: the draw loses the game (F14) where it would otherwise refill
    the empty pile (F7)."""
    game = arranged(["engineer", "messenger"])
    set_state(game, [FOOLS_LANDING], FLOODED)
    flood_discard(game, [t for t in TILE_CODES if t != FOOLS_LANDING])
    to_flood_phase(game)
    assert game.flood_pile == [FOOLS_LANDING]
    return game
