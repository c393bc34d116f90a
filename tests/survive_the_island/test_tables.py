"""The tables and kept sets the kernel reads instead of working things out: each against the plain
rule it stands for (the creature stops of S13 walked step by step, the seats of S7-S8, the flood
list's sets of spaces), on the printed board and on states from played games."""

from __future__ import annotations

import numpy as np
import pytest

from policies.survive_the_island import uniform_random
from sim.survive_the_island import kernel as K
from sim.survive_the_island import layout as L
from sim.survive_the_island.convert import count_errors, params_of
from sim.survive_the_island.rules import (
    FLOOD,
    KAIJU,
    MAX_CREATURES,
    SERPENT,
    Rules,
    creature_kind,
    load_board,
    placing_seat,
)

BOARD = load_board()


def _played_states(rules: Rules, games: int, seed: int = 0):
    """Every decision state of a few games played by `random` (copies)."""
    p = params_of(rules)
    s = np.zeros(L.NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    acts = np.zeros(L.MAX_LEGAL, dtype=np.int64)
    pp = np.zeros(1)
    for game in range(games):
        K.init_game(s, p, rng, seed, game)
        while s[L.PHASE] != L.PH_OVER:
            yield s.copy(), p
            i = uniform_random.choose(s, p, pp, acts, 0, rng)
            K.play_action(s, p, int(acts[i]), rng)


def _walked_stops(s, p, slot) -> list[int]:
    """S13's stops by walking the neighbours: a serpent to a sea neighbour, a shark 1 or 2 steps
    over sea, a kaiju 1 or 2 steps over sea or land; serpents and sharks never onto a kaiju."""
    q0 = int(s[L.CREATURE_SPACE + slot])
    kind = creature_kind(slot)
    neigh = BOARD.neighbours

    def passable(q):
        k = s[L.KIND + q]
        return k == L.K_SEA or (kind == KAIJU and k == L.K_LAND)

    def stop(q):
        return passable(q) and (kind == KAIJU or s[L.KAIJU_AT + q] < 0)

    found = {q1 for q1 in neigh[q0] if q1 >= 0 and stop(q1)}
    if kind != SERPENT:
        for q1 in neigh[q0]:
            if q1 >= 0 and passable(q1):
                found |= {q2 for q2 in neigh[q1] if q2 >= 0 and q2 != q0 and stop(q2)}
    return sorted(found)


def test_the_reach_table_lists_the_spaces_within_two_steps_with_their_directions():
    p = params_of(Rules())
    for q0 in range(BOARD.spaces):
        n = int(p[L.P_NREACH + q0])
        entries = [int(e) for e in p[L.P_REACH + L.REACH_ROOM * q0:L.P_REACH + L.REACH_ROOM * q0 + n]]
        spaces = [e & L.REACH_SPACE_MASK for e in entries]
        assert spaces == sorted(spaces) and q0 not in spaces
        near = {q for q in BOARD.neighbours[q0] if q >= 0}
        two = {m for q in near for m in BOARD.neighbours[q] if m >= 0 and m != q0}
        assert set(spaces) == near | two
        for e, q in zip(entries, spaces, strict=True):
            for d, n1 in enumerate(BOARD.neighbours[q0]):
                assert bool(e >> (L.REACH_STEP_SHIFT + d) & 1) == (n1 == q)
                assert bool(e >> (L.REACH_VIA_SHIFT + d) & 1) == (n1 >= 0 and q in BOARD.neighbours[n1])


def test_the_directions_in_ascending_order_give_the_neighbours_ascending():
    for q in range(BOARD.spaces):
        near = [BOARD.neighbours[q][d] for d in K.ASCENDING_DIRECTIONS if BOARD.neighbours[q][d] >= 0]
        assert near == sorted(near)
    assert sorted(K.ASCENDING_DIRECTIONS) == list(range(6))


@pytest.mark.parametrize("rules", [Rules(), Rules(players=2, kaijus=4, sharks=8), Rules(players=5, serpents=2)])
def test_s13_the_creature_stops_are_the_neighbours_walked(rules):
    out = np.zeros(L.REACH_ROOM, dtype=np.int64)
    checked = 0
    for s, p in _played_states(rules, 6):
        for slot in range(MAX_CREATURES):
            if s[L.CREATURE_SPACE + slot] < 0:
                continue
            n = K.creature_destinations(s, p, slot, out)
            walked = _walked_stops(s, p, slot)
            assert [int(x) for x in out[:n]] == walked
            assert K.creature_can_move(s, p, slot) == bool(walked)
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("rules", [Rules(), Rules(players=2), Rules(players=3, setup="snake"),
                                   Rules(players=5, setup="snake")])
def test_s7_s8_the_seat_tables_are_the_rules_seats(rules):
    p = params_of(rules)
    each = rules.adventurers_each
    assert [int(x) for x in p[L.P_SEAT_OF:L.P_SEAT_OF + rules.adventurers]] == [
        a // each for a in range(rules.adventurers)]
    assert [int(x) for x in p[L.P_NEXT_SEAT:L.P_NEXT_SEAT + rules.players]] == [
        (k + 1) % rules.players for k in range(rules.players)]
    assert [K.placing_seat(p, k) for k in range(rules.adventurers)] == [
        placing_seat(k, rules.players, rules.setup) for k in range(rules.adventurers)]


def test_the_kept_sets_and_bits_agree_with_the_pieces_in_every_state():
    """count_errors rebuilds MAY, SHORE_BITS, TILE_BITS and the counts from where the pieces are;
    the flood list they give is S12's, read from the tiles themselves."""
    seen = 0
    for s, p in _played_states(Rules(players=3), 4, seed=2):
        assert count_errors(s, p) == []
        if s[L.PHASE] == L.PH_FLOOD:
            out = np.zeros(L.MAX_LEGAL, dtype=np.int64)
            got = [int(x) - FLOOD for x in out[:K.flood_list(s, p, out)]]
            tiles = [q for q in BOARD.land if s[L.TILE_AT + q] >= 0]
            lowest = min(int(p[L.P_TILE_TERRAIN + s[L.TILE_AT + q]]) for q in tiles)
            mine = [q for q in tiles if p[L.P_TILE_TERRAIN + s[L.TILE_AT + q]] == lowest]
            shore = [q for q in mine if any(n >= 0 and s[L.KIND + n] == L.K_SEA for n in BOARD.neighbours[q])]
            assert got == (shore or mine)
            seen += 1
    assert seen > 50
