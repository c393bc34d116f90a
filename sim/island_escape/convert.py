"""Between the kernel's arrays and the rules, the reference engine and the records, in plain
Python: `params_of` gives the kernel's parameter array of a `Rules`, `to_kernel` an engine game's
state in the kernel's layout, `kernel_id` and `engine_mask` an engine action and the engine's
legal actions as kernel action ids; `record_of_log` turns a logged kernel game into a record the
reference engine replays (RECORD-FORMAT), `final_of` the kernel's final state into the record's
`final` block."""

from __future__ import annotations

import numpy as np

from sim.island_escape import layout as L
from sim.island_escape.rules import DIRECTIONS, ISLAND_CARDS, SUITS, Rules, is_king, rank_of, step, suit_of


class ExportError(RuntimeError):
    """A logged kernel game that cannot be written as a record."""


def card_code(card_id: int) -> str | None:
    """Kernel card id -> card code (R1)."""
    if card_id < 0:
        return None
    if card_id < 4:
        return "K" + SUITS[card_id]
    if card_id < 24:
        k = card_id - 4
        return f"{6 + k % 5}{SUITS[k // 5]}"
    return "JK"


def cards_of_mask(mask: int) -> list[str]:
    return [card_code(4 + b) for b in range(20) if (mask >> b) & 1]


def params_of(rules: Rules) -> np.ndarray:
    """The kernel's rule parameters (layout.PARAMS) of `rules`."""
    if len(rules.gauge) > L.MAX_GAUGE:
        raise ValueError(f"the kernel takes gauges of at most {L.MAX_GAUGE} cards")
    p = np.zeros(L.NPARAMS, dtype=np.int32)
    p[L.P_PLAYERS] = rules.players
    p[L.P_PAWNS] = rules.pawns
    p[L.P_CPT] = rules.cards_per_treasure
    p[L.P_SWIM] = rules.swim_cost
    p[L.P_ACTIONS] = rules.actions_per_turn
    p[L.P_GLEN] = len(rules.gauge)
    for i, card in enumerate(rules.gauge):
        p[L.P_GRANK + i] = rank_of(card)
    return p


DIRS = list(DIRECTIONS)  # up, down, left, right: the kernel's direction order too
STATES = {"down": L.DOWN, "dry": L.DRY, "flooded": L.FLOODED, "sea": L.SEA}


def index(place: tuple[int, int]) -> int:
    return (place[1] - 1) * 5 + place[0] - 1


def _card_id(card: str) -> int:
    if card == "JK":
        return L.JOKER_ID
    if is_king(card):
        return SUITS.index(card[1])
    return 4 + 5 * SUITS.index(suit_of(card)) + rank_of(card) - 6


CARD_IDS = {card: _card_id(card) for card in (*ISLAND_CARDS, "JK")}
CARD_IDS[None] = -1
PLACES = {(c, r): (r - 1) * 5 + c - 1 for r in range(1, 6) for c in range(1, 6)}


def card_id(card: str | None) -> int:
    return CARD_IDS[card]


def to_kernel(game) -> np.ndarray:
    """The engine's state in the kernel's layout (sim/island_escape/layout.py)."""
    s = np.zeros(L.NSTATE, dtype=np.int32)
    land = tiles = flooded = face_up_land = 0
    for k in range(4):
        s[L.KINGPOS + k] = -1
        s[L.PAWN + k] = -1
        s[L.RAISE_TURN + k] = -1
    for place, tile in game.board.items():
        i = PLACES[place]
        cid = CARD_IDS[tile.card]
        s[L.CARD + i] = cid
        s[L.TSTATE + i] = STATES[tile.state]
        if tile.state != "sea":
            tiles |= 1 << i
            flooded |= (tile.state == "flooded") << i
            face_up_land |= (tile.state != "down" and 4 <= cid < 24) << i
            if 0 <= cid < 4:
                s[L.KINGPOS + cid] = i
            elif 4 <= cid < 24:
                land |= 1 << (cid - 4)
    s[L.ISLAND_LAND] = land
    s[L.TILES] = tiles
    s[L.FLOODED_AT] = flooded
    s[L.FACE_UP_LAND] = face_up_land
    for k, place in enumerate(game.pawns):
        s[L.PAWN + k] = PLACES[place]
        s[L.HAND + k] = sum(1 << (CARD_IDS[c] - 4) for c in game.salvage[k])
    seq = 0
    for suit in game.raised:
        s[L.RAISED] |= 1 << SUITS.index(suit)
        seq = seq * 5 + SUITS.index(suit) + 1
    s[L.RAISE_SEQ] = seq
    s[L.GAUGE_TOP] = len(game.rules.gauge) - len(game.gauge)
    drawn = len(game.col_drawn)
    s[L.PILE_POS] = drawn
    s[L.COLP:L.COLP + 5] = list(game.col_drawn) + list(game.col_pile)
    s[L.ROWP:L.ROWP + 5] = list(game.row_drawn) + list(game.row_pile)
    s[L.TURN] = game.turn
    s[L.CUR] = game.current_pawn
    s[L.ACTS] = game.actions_left
    s[L.FLOODS] = game.floods
    s[L.OUTCOME] = -1 if game.outcome is None else L.CAUSES.index(game.outcome)
    for k, kind in enumerate(("move", "swim", "shore", "salvage", "give", "raise", "takeoff")):
        s[L.COUNT + k] = game.actions_used[kind]
    # tiles sunk by floods (R15): land tiles and lost Kings go to the box, raised Kings are set
    # aside, the helicopter ends the game where it was
    s[L.SUNK] = len(game.box) + len(game.set_aside) + (game.outcome == "helicopter")
    s[L.PASSES] = game.passes
    s[L.LOSS_PLACE] = -1
    s[L.ESCAPE_FROM] = -1  # the engine's state lies between decisions, no escape pending
    if game.outcome in ("treasure", "helicopter", "drowned"):
        s[L.LOSS_PLACE] = index(next(e.at for e in reversed(game.events) if e.kind == "sink"))
    return s


def kernel_id(game, action) -> int | None:
    """The kernel's id for an engine action of the current pawn, None if the kernel has no
    action that does exactly this (part of a suit given, other cards raised)."""
    me = game.current_pawn
    here = game.pawns[me]
    if action.kind in ("move", "swim"):
        return (L.A_MOVE if action.kind == "move" else L.A_SWIM) + DIRS.index(action.direction)
    if action.kind in ("shore", "salvage"):
        if action.kind == "shore" and action.place == here:
            return L.A_SHORE_HERE
        for d, name in enumerate(DIRS):
            if step(here, DIRECTIONS[name]) == action.place:
                return (L.A_SHORE if action.kind == "shore" else L.A_SALVAGE) + d
        return None
    if action.kind == "give":
        suits = {suit_of(c) for c in action.cards}
        if len(suits) != 1 or not 0 <= action.to < 4:
            return None
        suit = suits.pop()
        if sorted(action.cards) != sorted(c for c in game.salvage[me] if suit_of(c) == suit):
            return None
        return L.A_GIVE + 4 * action.to + SUITS.index(suit)
    if action.kind == "raise":
        return L.A_RAISE
    if action.kind == "takeoff":
        return L.A_TAKEOFF
    return None


def engine_mask(game) -> int:
    """The engine's legal actions of the current pawn as a kernel mask (A_END always set)."""
    mask = 1 << L.A_END
    for action in game.legal_actions():
        mask |= 1 << kernel_id(game, action)
    return mask


def names(mask: int) -> list[str]:
    labels = ([f"move {d}" for d in DIRS] + [f"swim {d}" for d in DIRS] + ["shore here"]
              + [f"shore {d}" for d in DIRS] + [f"salvage {d}" for d in DIRS]
              + [f"give {k // 4} {SUITS[k % 4]}" for k in range(16)] + ["raise", "takeoff", "end"])
    return [labels[a] for a in range(L.N_ACTIONS) if (mask >> a) & 1]


_STATE_NAMES = ("down", "dry", "flooded", "sea")


def final_of(rules: Rules, s: np.ndarray, record) -> dict:
    """The kernel's final state `s` as RECORD-FORMAT's `final` (salvage in card order, as the
    kernel keeps salvage as a set)."""
    board = [[{"card": card_code(int(s[L.CARD + r * 5 + c])), "state": _STATE_NAMES[s[L.TSTATE + r * 5 + c]]}
              for c in range(5)] for r in range(5)]
    raised = []
    seq = int(s[L.RAISE_SEQ])
    while seq:
        raised.insert(0, SUITS[seq % 5 - 1])
        seq //= 5
    return {
        "board": board,
        "pawns": [[int(s[L.PAWN + i]) % 5 + 1, int(s[L.PAWN + i]) // 5 + 1] for i in range(rules.pawns)],
        "salvage": [cards_of_mask(int(s[L.HAND + i])) for i in range(rules.pawns)],
        "raised": raised,
        "gauge": list(rules.gauge[int(s[L.GAUGE_TOP]):]),
    }


_DIRS = ("up", "down", "left", "right")


def record_of_log(rules: Rules, seed: int, game: int, log: np.ndarray, res: np.ndarray, s: np.ndarray,
                  where: str):
    """The record of a kernel game: its deal (the state `init_game` deals), and its log's rows
    (turn, code, a, b: every action, flood and escape) as the record's turns and floods; `res`
    is its results row."""
    from sim.island_escape.kernel import init_game
    from sim.island_escape.records import Record, layout_grid  # the engine behind records loads only when exported

    start = np.zeros(L.NSTATE, dtype=np.int32)
    init_game(start, params_of(rules), np.zeros(3, dtype=np.uint64), seed, game)
    layout = {(i % 5 + 1, i // 5 + 1): card_code(int(start[L.CARD + i])) for i in range(25)}
    turns_played = int(res[1])
    turns: list[list[str]] = [[] for _ in range(turns_played)]
    floods: list[list[int]] = []
    pawns = [12] * rules.pawns  # follow positions to name shore/salvage places
    for turn, code, a, b in log.tolist():
        me = (turn - 1) % rules.pawns
        entries = turns[turn - 1]
        here = pawns[me]
        if code == L.LOG_FLOOD:
            floods.append([a % 5 + 1, a // 5 + 1])
            continue
        if code == L.LOG_ESCAPE:
            pawns[a] = b
            entries.append(f"escape {a} {b % 5 + 1},{b // 5 + 1}")
            continue
        if code < L.A_SHORE_HERE:  # move or swim
            d = code % 4
            dist = 1 if code < L.A_SWIM else 2
            c, r = here % 5 + int(L.DIR_DC[d]) * dist, here // 5 + int(L.DIR_DR[d]) * dist
            pawns[me] = r * 5 + c
            entries.append(f"{'move' if code < L.A_SWIM else 'swim'} {_DIRS[d]}")
        elif code < L.A_GIVE:
            if code == L.A_SHORE_HERE:
                t = here
            else:
                d = code - (L.A_SHORE if code < L.A_SALVAGE else L.A_SALVAGE)
                t = (here // 5 + int(L.DIR_DR[d])) * 5 + here % 5 + int(L.DIR_DC[d])
            entries.append(f"{'shore' if code < L.A_SALVAGE else 'salvage'} {t % 5 + 1},{t // 5 + 1}")
        elif code < L.A_RAISE:
            entries.append(f"give {a} " + " ".join(cards_of_mask(b)))
        elif code == L.A_RAISE:
            entries.append("raise " + " ".join(cards_of_mask(b)))
        elif code == L.A_TAKEOFF:
            entries.append("takeoff")
    cause = L.CAUSES[int(res[0])]
    result = {"outcome": "win" if cause == "win" else "loss", "cause": cause,
              "turns": turns_played, "floods": int(res[2])}
    return Record(rules, layout_grid(layout), seed, [tuple(f) for f in floods], turns, result)
