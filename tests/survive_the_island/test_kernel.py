"""The kernel's rulings on states arranged by hand (docs/RULES-STI.md, S-numbers in each name)."""

from __future__ import annotations

import numpy as np

from sim.survive_the_island import kernel as K
from sim.survive_the_island import layout as L
from sim.survive_the_island.convert import count_errors, kernel_snapshot, params_of
from sim.survive_the_island.rules import (
    BEACH,
    CREATURE_MOVE,
    DIE,
    DIVE,
    DIVE_MOVE,
    END,
    FLOOD,
    FOREST,
    KAIJU,
    KAIJU_TILE,
    KEEP_REPELLENT,
    MAX_SPACES,
    MOUNTAIN,
    MOVE_ADVENTURER,
    MOVE_RAFT,
    PUSH,
    REPELLENT,
    SERPENT,
    SHARK,
    TILES,
    USE_DIE,
    USE_REPELLENT,
    VOLCANO,
    WHIRLPOOL,
    Rules,
)
from tests.survive_the_island.support import after_setup, arrange, creature_slot, legal, play, set_tile

E, NE, NW, W, SW, SE = range(6)
SHORE = 42  # the island's top-left space: sea to its W (41), NW (29) and NE (30)


def _moves_of(codes, adventurer):
    return [c for c in codes if MOVE_ADVENTURER + 6 * adventurer <= c < MOVE_ADVENTURER + 6 * adventurer + 6]


def _creature_phase(s, kind):
    """Seat 0's creature phase with `kind` rolled (the creature phase of its turn)."""
    s[L.PHASE] = L.PH_CREATURE
    s[L.ROLLED] = kind
    s[L.ROLL_FROM] = L.PH_FLOOD


def test_s9_an_adventurer_swims_once_a_turn():
    s, p, rng = after_setup()
    arrange(s, p, adventurers={0: SHORE})
    play(s, p, rng, MOVE_ADVENTURER + 6 * 0 + W)  # onto the sea: a swim
    assert s[L.ADV_SPACE] == 41 and s[L.SWAM] == 1
    assert _moves_of(legal(s, p), 0) == []  # a swimmer that swam stays put
    # one that swam, back on land, may walk on land or board a raft with room, not swim again
    arrange(s, p, adventurers={1: SHORE}, rafts={0: 41}, clear=False)
    s[L.SWAM + 1] = 1
    moves = _moves_of(legal(s, p), 1)
    assert MOVE_ADVENTURER + 6 + W in moves and MOVE_ADVENTURER + 6 + E in moves
    assert MOVE_ADVENTURER + 6 + NW not in moves and MOVE_ADVENTURER + 6 + NE not in moves


def test_s10_a_raft_moves_for_every_seat_tied_for_most_adventurers_on_it():
    s, p, rng = after_setup()
    arrange(s, p, adventurers={0: (41, 0), 10: (41, 0)}, rafts={0: 41})
    assert any(MOVE_RAFT <= c < MOVE_RAFT + 6 for c in legal(s, p))  # seat 0 ties seat 1
    arrange(s, p, adventurers={0: (41, 0), 10: (41, 0), 11: (41, 0)}, rafts={0: 41})
    assert not any(MOVE_RAFT <= c < MOVE_RAFT + 6 for c in legal(s, p))  # seat 1 has more
    arrange(s, p, rafts={0: 41})
    assert any(MOVE_RAFT <= c < MOVE_RAFT + 6 for c in legal(s, p))  # an empty raft: anyone's


def test_s13_a_shark_eats_the_swimmers_where_it_stops():
    s, p, rng = after_setup()
    shark = creature_slot(SHARK)
    arrange(s, p, adventurers={10: 30, 11: (31, 0)}, rafts={0: 31}, creatures={shark: 28})
    _creature_phase(s, SHARK)
    assert CREATURE_MOVE + MAX_SPACES * shark + 30 in legal(s, p)  # two steps over sea
    play(s, p, rng, CREATURE_MOVE + MAX_SPACES * shark + 30)
    assert s[L.ADV_SPACE + 10] == L.LOST_SPACE and s[L.CREATURE_SPACE + shark] == 30
    assert s[L.ADV_SPACE + 11] == 31  # aboard a raft: no swimmer
    assert s[L.TURN] == 2 and s[L.SEAT] == 1  # the turn is over: seat 1's begins


def test_s13_a_serpent_sinks_a_raft_with_its_passengers():
    s, p, rng = after_setup()
    arrange(s, p, adventurers={0: (29, 0), 10: (29, 0)}, rafts={0: 29}, creatures={0: 28})
    _creature_phase(s, SERPENT)
    play(s, p, rng, CREATURE_MOVE + 0 * MAX_SPACES + 29)
    assert s[L.RAFT_SPACE] == -1  # back to the supply
    assert s[L.ADV_SPACE] == L.LOST_SPACE and s[L.ADV_SPACE + 10] == L.LOST_SPACE


def test_s13_a_kaiju_pushes_the_adventurers_where_it_stops():
    s, p, rng = after_setup()
    kaiju = creature_slot(KAIJU)
    arrange(s, p, adventurers={0: SHORE, 10: SHORE}, creatures={kaiju: 41})
    others_on_43 = [a for a in range(40) if s[L.ADV_SPACE + a] == 43]
    pushed = [a for a in range(40) if s[L.ADV_SPACE + a] == SHORE]
    _creature_phase(s, KAIJU)
    play(s, p, rng, CREATURE_MOVE + MAX_SPACES * kaiju + SHORE)
    assert s[L.PHASE] == L.PH_PUSH and s[L.PUSH_SPACE] == SHORE and s[L.SEAT] == 0
    pushes = legal(s, p)
    assert set(pushes) == {PUSH + d for d in range(6)}  # land and sea alike
    play(s, p, rng, PUSH + E)
    assert s[L.ADV_SPACE] == 43 and s[L.ADV_SPACE + 10] == 43
    assert sorted(a for a in range(40) if s[L.ADV_SPACE + a] == 43) == sorted(pushed + others_on_43)
    assert s[L.TURN] == 2


def test_s12_a_whirlpool_empties_its_space_and_the_sea_around_it():
    s, p, rng = after_setup()
    shark = creature_slot(SHARK)
    arrange(s, p, adventurers={0: SHORE, 10: 41, 11: (30, 0)}, rafts={0: 30}, creatures={shark: 29})
    set_tile(s, p, SHORE, FOREST, WHIRLPOOL)
    land_neighbour = [a for a in range(40) if s[L.ADV_SPACE + a] == 43]
    s[L.PHASE] = L.PH_FLOOD
    K.play_action(s, p, FLOOD + SHORE, rng)  # the effect (forest floods only after the beaches)
    assert count_errors(s, p) == []
    for a in (0, 10, 11):
        assert s[L.ADV_SPACE + a] == L.LOST_SPACE
    assert s[L.CREATURE_SPACE + shark] == -1 and s[L.RAFT_SPACE] == -1
    assert all(s[L.ADV_SPACE + a] == 43 for a in land_neighbour)  # land next to it stays
    assert s[L.KIND + SHORE] == L.K_SEA


def test_s14_the_third_volcano_ends_the_game_at_once():
    s, p, rng = after_setup()
    arrange(s, p)
    set_tile(s, p, SHORE, MOUNTAIN, VOLCANO)
    s[L.VOLCANOES] = 2
    s[L.PHASE] = L.PH_FLOOD
    s[L.FLOODS_LEFT] = 2
    K.play_action(s, p, FLOOD + SHORE, rng)
    snap = kernel_snapshot(s, p)
    assert snap["ending"] == "volcano" and snap["phase"] == "over" and snap["space_kind"][SHORE] == L.K_VOLCANO
    assert legal(s, p) == []
    out = np.zeros(5, dtype=np.int64)
    assert K.seat_outcomes(s, p, out) == 4 and list(out[:4]) == [1, 1, 1, 1]  # 0 each: all tie (S14)


def test_s12_beaches_flood_first_and_those_touching_the_sea_first():
    s, p, rng = after_setup()
    s[L.PHASE] = L.PH_FLOOD
    land = [int(q) for q in p[L.P_LAND:L.P_LAND + 40]]
    terrain = {q: TILES[s[L.TILE_AT + q]][0] for q in land}
    touching = {q for q in land if s[L.SEA_NEAR + q] > 0}
    assert legal(s, p) == [FLOOD + q for q in land if terrain[q] == BEACH and q in touching]
    # one beach left, inland: it floods, though forests touch the sea
    inland = next(q for q in land if q not in touching)
    forest_tile = next(i for i, t in enumerate(TILES) if t[0] == FOREST)
    for q in land:
        if terrain[q] == BEACH:
            s[L.TILE_AT + q] = forest_tile
    set_tile(s, p, inland, BEACH, TILES[0][1])
    s[L.TILE_AT + inland] = 0
    from sim.survive_the_island.convert import recount

    recount(s, p)
    assert legal(s, p) == [FLOOD + inland]


def test_s12_a_seat_with_no_adventurer_left_floods_two_tiles():
    s, p, rng = after_setup()
    lost = {a: -2 for a in range(10, 20)}
    arrange(s, p, adventurers=lost)
    play(s, p, rng, END)
    assert s[L.PHASE] == L.PH_FLOOD and s[L.FLOODS_LEFT] == 1
    while s[L.TURN] == 1:
        play(s, p, rng, legal(s, p)[0])
    assert s[L.SEAT] == 1 and s[L.FLOODS_LEFT] == 2
    assert s[L.PHASE] == L.PH_FLOOD  # nothing to move: its action phase closed itself (S9)
    play(s, p, rng, legal(s, p)[0])
    assert s[L.PHASE] == L.PH_FLOOD and s[L.FLOODS_LEFT] == 1 and s[L.FLOODED_N] >= 2


def test_s9_a_raft_landing_on_a_rescue_island_rescues_everyone_aboard():
    s, p, rng = after_setup()
    arrange(s, p, adventurers={0: (1, 0), 10: (1, 0)}, rafts={0: 1})
    play(s, p, rng, MOVE_RAFT + 6 * 0 + W)  # onto the rescue island in the corner
    assert s[L.ADV_SPACE] == L.RESCUED_SPACE and s[L.ADV_SPACE + 10] == L.RESCUED_SPACE
    assert s[L.SCORE] == s[L.VALUE] and s[L.SCORE + 1] == s[L.VALUE + 10]
    assert s[L.RESCUED] == 1 and s[L.RESCUED + 1] == 1 and s[L.RAFT_SPACE] == -1


def test_s15_the_seat_holding_a_repellent_chooses_to_send_the_shark_away():
    s, p, rng = after_setup()
    shark = creature_slot(SHARK)
    arrange(s, p, adventurers={10: 30}, creatures={shark: 28}, hand={(1, REPELLENT): 1, (2, REPELLENT): 1})
    _creature_phase(s, SHARK)
    play(s, p, rng, CREATURE_MOVE + MAX_SPACES * shark + 30)
    assert s[L.PHASE] == L.PH_REPEL and K.decider(s) == 1 and s[L.SEAT] == 0  # only the seat affected is asked
    assert legal(s, p) == [KEEP_REPELLENT, USE_REPELLENT] and s[L.ADV_SPACE + 10] == 30
    play(s, p, rng, USE_REPELLENT)
    assert s[L.ADV_SPACE + 10] == 30 and s[L.CREATURE_SPACE + shark] == -1
    hands = kernel_snapshot(s, p)["hand"]
    assert hands[1][REPELLENT - 5] == 0 and hands[2][REPELLENT - 5] == 1


def test_s15_a_repellent_kept_lets_the_kaiju_strike():
    s, p, rng = after_setup()
    kaiju = creature_slot(KAIJU)
    arrange(s, p, adventurers={10: (30, 0), 11: (30, 0)}, rafts={0: 30}, creatures={kaiju: 28},
            hand={(1, REPELLENT): 1})
    _creature_phase(s, KAIJU)
    play(s, p, rng, CREATURE_MOVE + MAX_SPACES * kaiju + 30)
    assert s[L.PHASE] == L.PH_REPEL and K.decider(s) == 1 and s[L.RAFT_SPACE] == 30
    play(s, p, rng, KEEP_REPELLENT)
    assert s[L.PHASE] == L.PH_PUSH and s[L.RAFT_SPACE] == -1 and s[L.ADV_RAFT + 10] == -1
    assert kernel_snapshot(s, p)["hand"][1][REPELLENT - 5] == 1


def test_s13_a_swimmer_entering_a_serpents_space_is_lost():
    s, p, rng = after_setup()
    arrange(s, p, adventurers={0: SHORE}, creatures={0: 41})
    play(s, p, rng, MOVE_ADVENTURER + W)
    assert s[L.ADV_SPACE] == L.LOST_SPACE and s[L.LOST_N] == 1


def test_s7_five_players_place_on_empty_spaces_then_on_spaces_holding_one():
    p = params_of(Rules(players=5))
    s = np.zeros(L.NSTATE, dtype=np.int32)
    rng = np.zeros(3, dtype=np.uint64)
    K.init_game(s, p, rng, 0, 0)
    for k in range(50):
        codes = legal(s, p)
        assert s[L.SEAT] == k % 5
        spaces = 40 - k if k < 40 else 40 - (k - 40)
        values = len({int(s[L.VALUE + a]) for a in range(10 * (k % 5), 10 * (k % 5) + 10)
                      if s[L.ADV_SPACE + a] == L.UNPLACED_SPACE})
        assert len(codes) == values * spaces  # S7: each value left, on each open space
        play(s, p, rng, codes[-1])
    assert s[L.PHASE] == L.PH_RAFT
    assert sorted(int(x) for x in s[L.ADV_N:L.ADV_N + 163] if x) == [1] * 30 + [2] * 10


def test_s3_the_deal_is_a_shuffle_of_the_tiles_and_of_each_seats_values():
    p = params_of(Rules(players=2))
    s = np.zeros(L.NSTATE, dtype=np.int32)
    K.init_game(s, p, np.zeros(3, dtype=np.uint64), 4, 9)
    land = [int(q) for q in p[L.P_LAND:L.P_LAND + 40]]
    assert sorted(int(s[L.TILE_AT + q]) for q in land) == list(range(40))
    for seat in range(2):
        assert sorted(int(v) for v in s[L.VALUE + 20 * seat:L.VALUE + 20 * seat + 20]) == sorted([1, 2, 3, 4, 5] * 4)
    assert [q for q in range(163) if s[L.SERPENT_N + q]] == [27, 35, 81, 127, 135]  # S2


def test_s11_the_die_ability_rolls_a_creature_then_the_action_phase_goes_on():
    s, p, rng = after_setup()
    arrange(s, p, creatures={0: 28, creature_slot(SHARK): 29, creature_slot(KAIJU): 41}, hand={(0, DIE): 1})
    assert USE_DIE in legal(s, p)
    play(s, p, rng, USE_DIE)
    snap = kernel_snapshot(s, p)
    assert snap["hand"][0][DIE - 5] == 0 and len(snap["rolls"]) == 1
    assert snap["phase"] == "creature" and snap["rolled"] == snap["rolls"][0] and snap["moves_left"] == 3
    play(s, p, rng, legal(s, p)[0])
    assert s[L.PHASE] == L.PH_ACTION and s[L.SEAT] == 0 and s[L.MOVES_LEFT] == 3 and s[L.TURN] == 1


def test_s11_a_dive_moves_a_creature_to_open_sea_only():
    s, p, rng = after_setup()
    shark = creature_slot(SHARK)
    arrange(s, p, adventurers={10: 30}, rafts={0: 31}, creatures={shark: 28}, hand={(0, DIVE): 1})
    dives = [c for c in legal(s, p) if c >= DIVE_MOVE]
    assert dives and all((c - DIVE_MOVE) // MAX_SPACES == shark for c in dives)
    targets = {(c - DIVE_MOVE) % MAX_SPACES for c in dives}
    assert 30 not in targets and 31 not in targets and 28 not in targets and 29 in targets
    assert all(s[L.KIND + q] == L.K_SEA for q in targets)
    play(s, p, rng, DIVE_MOVE + MAX_SPACES * shark + 29)
    assert s[L.CREATURE_SPACE + shark] == 29 and s[L.ADV_SPACE + 10] == 30  # it meets nothing there


def test_s12_a_kaiju_tile_pushes_the_new_swimmers_then_the_flood_phase_goes_on():
    s, p, rng = after_setup()
    arrange(s, p, adventurers={0: SHORE})
    set_tile(s, p, SHORE, BEACH, KAIJU_TILE)
    s[L.PHASE] = L.PH_FLOOD
    s[L.FLOODS_LEFT] = 2
    play(s, p, rng, FLOOD + SHORE)
    kaiju = creature_slot(KAIJU)
    assert s[L.CREATURE_SPACE + kaiju] == SHORE and s[L.PHASE] == L.PH_PUSH and s[L.PUSH_SPACE] == SHORE
    play(s, p, rng, PUSH + W)
    assert s[L.ADV_SPACE] == 41 and s[L.PHASE] == L.PH_FLOOD and s[L.FLOODS_LEFT] == 1
