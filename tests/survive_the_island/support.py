"""Kernel states arranged by hand for the rulings' tests.

`after_setup` plays a game's set-up with the lowest legal code each time (turn 1, seat 0's
action phase); `arrange` then moves the pieces where a test wants them, writing only where each
piece is, and rebuilds the kernel's occupancy counts from that (convert.recount), so that every
arranged state is one the kernel keeps itself.
"""

from __future__ import annotations

import numpy as np

from sim.survive_the_island import kernel as K
from sim.survive_the_island import layout as L
from sim.survive_the_island.convert import count_errors, params_of, recount
from sim.survive_the_island.rules import CREATURE_BASE, FIRST_ABILITY, TILES, Rules, load_board

BOARD = load_board()


def space(text: str) -> int:
    return BOARD.parse_space(text)


def step(q: int, *directions: int) -> int:
    for d in directions:
        q = BOARD.neighbours[q][d]
    return q


def after_setup(rules: Rules | None = None, seed: int = 0, game: int = 0):
    """(s, p, rng) at the first action phase, the set-up played with the lowest legal codes."""
    rules = rules or Rules()
    p = params_of(rules)
    s = np.zeros(L.NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    K.init_game(s, p, rng, seed, game)
    out = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    while s[L.PHASE] in (L.PH_PLACE, L.PH_RAFT):
        K.legal_actions(s, p, out)
        K.play_action(s, p, int(out[0]), rng)
    return s, p, rng


def arrange(s, p, adventurers=None, rafts=None, creatures=None, clear=True, hand=None):
    """Move pieces: `adventurers` {adventurer: space or (space, raft)}, `rafts` {raft: space},
    `creatures` {slot: space}; with `clear`, every creature and raft not named leaves the board
    first. `hand` {(seat, back): count}. Then the counts are rebuilt."""
    if clear:
        s[L.CREATURE_SPACE:L.CREATURE_SPACE + 17] = -1
        s[L.RAFT_SPACE:L.RAFT_SPACE + 24] = -1
        s[L.ADV_RAFT:L.ADV_RAFT + 50] = -1
    for r, q in (rafts or {}).items():
        s[L.RAFT_SPACE + r] = q
    for a, where in (adventurers or {}).items():
        q, r = where if isinstance(where, tuple) else (where, -1)
        s[L.ADV_SPACE + a] = q
        s[L.ADV_RAFT + a] = r
    for slot, q in (creatures or {}).items():
        s[L.CREATURE_SPACE + slot] = q
    for (seat, back), n in (hand or {}).items():
        s[L.HAND + L.NABILITIES * seat + back - FIRST_ABILITY] = n
    recount(s, p)


def set_tile(s, p, q, terrain, back):
    """The unflooded tile on island space q becomes one of (terrain, back), swapped with that
    tile's space when it lies on the board, so the tiles on the board stay a set."""
    candidates = [i for i, t in enumerate(TILES) if t == (terrain, back)]
    here = int(s[L.TILE_AT + q])
    if here in candidates:
        return
    want = next((i for i in candidates if i in s[L.TILE_AT:L.TILE_AT + 256]), candidates[0])
    for x in range(256):
        if s[L.TILE_AT + x] == want:
            s[L.TILE_AT + x] = here
    s[L.TILE_AT + q] = want
    recount(s, p)


def creature_slot(kind: int, k: int = 0) -> int:
    return CREATURE_BASE[kind] + k


def legal(s, p) -> list[int]:
    out = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    n = K.legal_actions(s, p, out)
    return [int(x) for x in out[:n]]


def play(s, p, rng, code: int):
    assert code in legal(s, p), code
    K.play_action(s, p, code, rng)
    assert count_errors(s, p) == []
