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

from sim.forbidden_island.engine import DRY, FLOODED, SUNK, Action, Game, Setup
from sim.forbidden_island.rules import PLACES, ROW_SPANS, TILE_CODES, TREASURE_DECK, Rules


def arranged(roles, difficulty: str = "novice", **rule_kw) -> Game:
    """A game on the canonical island with the given roles in turn order, no tile flooded,
    empty hands, and both decks in canonical order (nothing drawn yet)."""
    rules = Rules(players=len(roles), difficulty=difficulty, **rule_kw)
    setup = Setup(tuple(TILE_CODES), tuple(roles), tuple(TILE_CODES), tuple(TREASURE_DECK))
    game = Game(rules, setup)
    for tile in TILE_CODES:  # undo the six setup floods and the deal
        game.state[tile] = DRY
    game.flood_pile = list(TILE_CODES)
    game.flood_discard = []
    game.treasure_pile = list(TREASURE_DECK)
    game.treasure_discard = []
    game.hands = [[] for _ in roles]
    game.events = []
    return game


def place(game: Game, tile: str) -> tuple[int, int]:
    return game.place_of[tile]


def _take(game: Game, card: str) -> None:
    """Remove one `card` from the treasure pile, discard or any hand (in that order)."""
    for pile in [game.treasure_pile, game.treasure_discard, *game.hands]:
        if card in pile:
            pile.remove(card)
            return
    raise AssertionError(f"no {card} left to take")


def hand(game: Game, seat: int, cards) -> None:
    """Give player `seat` exactly these cards (taken from the piles or other hands)."""
    game.treasure_pile.extend(game.hands[seat])
    game.hands[seat] = []
    for card in cards:
        _take(game, card)
        game.hands[seat].append(card)


def treasure_top(game: Game, cards) -> None:
    """Put these cards on top of the treasure pile, first card drawn first."""
    for card in cards:
        _take(game, card)
    game.treasure_pile = list(cards) + game.treasure_pile


def treasure_discard(game: Game, cards) -> None:
    for card in cards:
        _take(game, card)
    game.treasure_discard.extend(cards)


def flood_top(game: Game, tiles) -> None:
    """Put these flood cards on top of the flood pile, first drawn first."""
    for tile in tiles:
        (game.flood_pile if tile in game.flood_pile else game.flood_discard).remove(tile)
    game.flood_pile = list(tiles) + game.flood_pile


def flood_discard(game: Game, tiles) -> None:
    for tile in tiles:
        game.flood_pile.remove(tile)
    game.flood_discard.extend(tiles)


def set_state(game: Game, where, state: str) -> None:
    """Set tiles (by place or code) to dry, flooded or sunk; a sunk tile's card leaves the game."""
    for w in where:
        tile = w if isinstance(w, str) else game.layout[w]
        if state == SUNK:
            for pile in (game.flood_pile, game.flood_discard):
                if tile in pile:
                    pile.remove(tile)
            if tile not in game.flood_out:
                game.flood_out.append(tile)
        game.state[tile] = state


def picture(game: Game, rows: str) -> None:
    """Set tile states from a picture: one line per row, one character per place of that row
    ('.' dry, 'o' flooded, 'x' sunk); spaces are ignored."""
    lines = [line.replace(" ", "") for line in rows.strip("\n").splitlines()]
    assert len(lines) == 6, "a picture has six rows"
    for r, line in enumerate(lines, 1):
        lo, hi = ROW_SPANS[r]
        assert len(line) == hi - lo + 1, f"row {r} has {hi - lo + 1} places"
        for c, ch in zip(range(lo, hi + 1), line, strict=True):
            set_state(game, [(c, r)], {".": DRY, "o": FLOODED, "x": SUNK}[ch])


def places_in(rows: str) -> list[tuple[int, int]]:
    """The places marked '*' in a picture."""
    lines = [line.replace(" ", "") for line in rows.strip("\n").splitlines()]
    out = []
    for r, line in enumerate(lines, 1):
        lo, _ = ROW_SPANS[r]
        out += [(lo + i, r) for i, ch in enumerate(line) if ch == "*"]
    return sorted(out, key=PLACES.index)


def act(game: Game, *texts: str) -> None:
    for text in texts:
        game.apply(Action.parse(text))


def to_flood_phase(game: Game) -> None:
    """End the current player's actions and make both treasure draws (discarding the first
    card when needed: callers arrange hands so no discard is due)."""
    act(game, "draw", "draw")
    assert game.phase == "flood_draw", game.phase


def kinds(game: Game) -> set[str]:
    return {a.kind for a in game.legal_actions()}


def random_play(game: Game, rng: random.Random, on_step=None, limit: int = 20000) -> Game:
    """Uniformly random legal play to the end (the published random player's way)."""
    for _ in range(limit):
        if game.over:
            return game
        before = on_step.before(game) if on_step else None
        game.apply(rng.choice(game.legal_actions()))
        if on_step:
            on_step.after(game, before)
    raise AssertionError(f"a random game did not end within {limit} decisions")
