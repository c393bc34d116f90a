"""Between the kernel's arrays and the rules and records, in plain Python: `params_of` gives the
kernel's parameter array of a `Rules`, `record_of_log` turns a logged kernel game into a record
the reference engine replays (RECORD-FORMAT), `final_of` the kernel's final state into the
record's `final` block."""

from __future__ import annotations

import numpy as np

from sim.island_escape import layout as L
from sim.island_escape.rules import SUITS, Rules, rank_of


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
