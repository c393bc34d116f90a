"""The reference engine of Survive the Island, ruling by ruling (docs/RULES-STI.md), on small
situations set up by hand on the standard board, and random games played to their end."""

from __future__ import annotations

import itertools
import random

import pytest

from sim.survive_the_island import rules as R
from sim.survive_the_island.engine import (
    LOST,
    RESCUED,
    SUPPLY,
    UNPLACED,
    VOLCANO_SPACE,
    Deal,
    IllegalAction,
    SurviveTheIslandEngine,
    play_random,
    random_dice,
)
from sim.survive_the_island.rules import (
    BEACH,
    FOREST,
    KAIJU,
    LAND,
    MOUNTAIN,
    SEA,
    SERPENT,
    SHARK,
    TILES,
    Rules,
    encode,
)

E, NE, NW, W, SW, SE = range(6)
# Spaces of the standard board used below (S1): land r4c5 (42) lies between the sea spaces r3c5
# (29, north-west) and r3c6 (30, north-east); r2c1 (13) touches the rescue island r1c1 (0).
SHORE_LAND, NW_SEA, NE_SEA = 42, 29, 30
RESCUE_ISLAND, BY_RESCUE = 0, 13


def table(players: int = 2, dice=None, **rules) -> SurviveTheIslandEngine:
    """A game in seat 0's first action phase with every piece off the board (adventurers lost,
    rafts in the supply, creatures in the supply): the tests put back what they need."""
    r = Rules(players=players, **rules)
    game = SurviveTheIslandEngine(r, Deal.random(r, 0), itertools.repeat(SERPENT) if dice is None else list(dice))
    for a in game.adventurers:
        a.space = LOST
    for c in game.in_game:
        c.space = SUPPLY
    game.phase, game.turn, game.seat = "action", 1, 0
    game.moves_left, game.floods_left = r.moves, 1
    return game


def put(game, number: int, space: int, raft: int = -1):
    a = game.adventurers[number]
    a.space, a.raft = space, raft
    return a


def creature(game, kind: int, space: int, which: int = 0):
    c = [c for c in game.in_game if c.kind == kind][which]
    c.space = space
    return c


def move(number: int, direction: int) -> int:
    return encode(("move", number, direction))


def targets(codes: list[int], base: int) -> set[int]:
    """The spaces of creature or dive codes (`base` + 256 * slot + space)."""
    return {(c - base) % R.MAX_SPACES for c in codes if base <= c < base + R.MAX_SPACES * R.MAX_CREATURES}


# --- the deal and the set-up (S2, S3, S6, S7) -----------------------------------------------------


def test_the_deal_shuffles_every_tile_and_each_seats_values():
    rules = Rules(players=3)
    deal = Deal.random(rules, 5, 2)
    assert sorted(deal.tiles) == sorted(TILES) and deal.tiles != TILES
    for seat in range(3):
        assert sorted(deal.values[seat * 10:(seat + 1) * 10]) == sorted(R.seat_values(rules))
    assert Deal.random(rules, 5, 2) == deal and Deal.random(rules, 5, 3) != deal
    # two players play two colours each (S6): twenty values a seat
    assert sorted(Deal.random(Rules(players=2), 5, 2).values[:20]) == [v for v in range(1, 6) for _ in range(4)]


def test_the_die_reads_serpent_faces_first():
    rules = Rules(die=(1, 0, 5))
    rolls = [k for k, _ in zip(random_dice(rules, 3), range(600), strict=False)]
    assert set(rolls) == {SERPENT, KAIJU} and 50 < rolls.count(SERPENT) < 150


def test_set_up_places_serpents_then_adventurers_in_turn_then_rafts():
    rules = Rules(players=3, serpents=4)
    game = SurviveTheIslandEngine(rules, Deal.random(rules, 1), random_dice(rules, 1))
    board = game.board
    assert [c.space for c in game.in_game if c.kind == SERPENT] == list(board.serpent_starts[:4])  # S2
    assert all(c.space == SUPPLY for c in game.in_game if c.kind != SERPENT)
    assert game.phase == "place" and game.turn == 0 and game.decider == 0
    # S7: any of the seat's values on any island space
    assert game.legal_actions() == [encode(("adventurer", v, q)) for v in (1, 2, 3, 4, 5) for q in board.land]
    five = next(a for a in game.seat_adventurers(0) if a.value == 5)  # the lowest-numbered 5
    game.apply(encode(("adventurer", 5, board.land[0])))
    assert five.space == board.land[0] and game.seat == 1
    assert encode(("adventurer", 1, board.land[0])) not in game.legal_actions()  # it holds one now
    one = next(a for a in game.seat_adventurers(1) if a.value == 1)
    game.apply(encode(("adventurer", 1, board.land[1])))
    assert one.space == board.land[1]  # seat 1's lowest-numbered 1
    while game.phase == "place":
        game.apply(game.legal_actions()[0])
    assert game.phase == "raft" and game.seat == 0
    for code in game.legal_actions():  # an empty sea space next to the island (S7)
        q = code - R.PLACE
        assert game.kind[q] == SEA and not game.creatures_at(q)
        assert any(game.kind[n] == LAND for n in board.neighbours[q])
    spaces = []
    while game.phase == "raft":
        spaces.append(game.legal_actions()[-1])
        game.apply(spaces[-1])
    assert [r.space for r in game.rafts[:6]] == [c - R.PLACE for c in spaces]  # numbered in placing order
    assert all(r.space == SUPPLY for r in game.rafts[6:])
    assert game.phase == "action" and game.turn == 1 and game.seat == 0 and game.moves_left == 3


def test_five_players_fill_the_island_then_double_up():
    rules = Rules(players=5, rafts=12)
    game = SurviveTheIslandEngine(rules, Deal.random(rules, 1), random_dice(rules, 1))
    for _ in range(40):
        game.apply(game.legal_actions()[0])
    held = {q for q in game.board.land}
    assert {a.space for a in game.adventurers if a.space >= 0} == held
    assert len(game.legal_actions()) == 40  # every space now holds exactly one
    game.apply(game.legal_actions()[0])
    assert len(game.legal_actions()) == 39


# --- moves (S9) -------------------------------------------------------------------------------------


def test_an_adventurer_swims_once_a_turn():
    game = table()
    a = put(game, 0, SHORE_LAND)
    put(game, 1, 80)
    game.apply(move(0, NW))  # land to sea: a swim
    assert a.space == NW_SEA and a.swam and game.moves_left == 2
    assert not any(c in game.legal_actions() for c in (move(0, d) for d in range(6)))  # it starts as a swimmer
    game.apply(R.END)
    game.apply(game.legal_actions()[0])  # seat 0 floods
    assert game.turn == 2 and not a.swam  # a new turn


def test_a_swimmer_may_walk_ashore_only_before_its_swim():
    game = table()
    put(game, 0, SHORE_LAND)
    put(game, 1, 80)  # something else to do: the phase stays open
    game.apply(move(0, NW))
    game.adventurers[0].swam = False
    game.apply(move(0, SE))  # sea to land: a swim too (it starts as a swimmer)
    assert game.adventurers[0].space == SHORE_LAND and game.adventurers[0].swam
    assert move(0, E) in game.legal_actions()  # land to land is no swim
    assert move(0, NW) not in game.legal_actions()


def test_boarding_a_raft_with_room_is_no_swim_and_a_full_raft_is_swum_to():
    game = table(raft_capacity=1)
    game.rafts[0].space = NW_SEA
    put(game, 0, SHORE_LAND)
    put(game, 1, 43)
    game.apply(move(0, NW))
    assert game.adventurers[0].raft == 0 and not game.adventurers[0].swam
    game.apply(move(1, W))  # to r4c5, then to the full raft's space
    game.apply(move(1, NW))
    assert game.adventurers[1].space == NW_SEA and game.adventurers[1].raft == -1 and game.adventurers[1].swam


def test_no_move_onto_a_volcano_or_a_kaijus_space():
    game = table()
    put(game, 0, SHORE_LAND)
    game.kind[NW_SEA] = VOLCANO_SPACE
    creature(game, KAIJU, NE_SEA)
    legal = game.legal_actions()
    assert move(0, NW) not in legal and move(0, NE) not in legal and move(0, E) in legal


def test_moves_are_shared_and_end_closes_the_phase_when_nothing_else_is_left():
    game = table(moves=2, dice=[SERPENT])
    put(game, 0, SHORE_LAND)
    game.apply(move(0, E))
    game.apply(move(0, W))
    assert game.phase == "flood"  # no moves left, no ability: the game ends the action phase itself


def test_reaching_a_rescue_island_scores_the_value():
    game = table()
    a = put(game, 0, BY_RESCUE)
    put(game, 1, 80)
    game.apply(move(0, NW))
    assert a.space == RESCUED and game.score[0] == a.value and game.rescued[0] == 1


def test_a_raft_carries_its_passengers_and_lands_them_on_a_rescue_island():
    game = table(players=3)
    game.rafts[0].space = 14
    put(game, 0, 14, raft=0)
    put(game, 10, 14, raft=0)
    put(game, 20, 80)
    game.apply(encode(("raft", 0, W)))
    assert game.rafts[0].space == BY_RESCUE and game.adventurers[10].space == BY_RESCUE
    game.apply(encode(("raft", 0, NW)))
    assert game.rafts[0].space == SUPPLY  # back to the supply
    assert game.rescued == [1, 1, 0] and game.score[1] == game.adventurers[10].value


def test_a_raft_moves_over_open_sea_only():
    game = table()
    game.rafts[0].space = NW_SEA
    game.rafts[1].space = 28
    put(game, 0, 80)
    legal = game.legal_actions()
    assert encode(("raft", 0, W)) not in legal  # another raft
    assert encode(("raft", 0, SE)) not in legal  # land
    assert encode(("raft", 0, E)) in legal and encode(("raft", 0, NE)) in legal


def test_raft_control_ties_let_each_tied_seat_move_it():
    game = table(players=3)
    game.rafts[0].space = NW_SEA
    put(game, 0, NW_SEA, raft=0)
    put(game, 10, NW_SEA, raft=0)
    put(game, 20, 80)
    raft_move = encode(("raft", 0, E))
    assert raft_move in game.legal_actions()  # seat 0 ties seat 1
    game.seat = 1
    assert raft_move in game.legal_actions()
    game.seat = 2
    assert raft_move not in game.legal_actions()  # seat 2 has fewer than the others
    put(game, 11, NW_SEA, raft=0)
    game.seat = 0
    assert raft_move not in game.legal_actions()  # seat 1 now has more
    game.rafts[1].space = 28
    assert encode(("raft", 1, W)) in game.legal_actions()  # an empty raft: anyone


def test_a_raft_entering_a_serpents_space_is_lost_with_its_passengers():
    game = table()
    game.rafts[0].space = NW_SEA
    put(game, 0, NW_SEA, raft=0)
    put(game, 1, 80)
    creature(game, SERPENT, NE_SEA)
    game.apply(encode(("raft", 0, E)))
    assert game.adventurers[0].space == LOST and game.rafts[0].space == SUPPLY


def test_a_swimmer_entering_a_sharks_space_is_lost_but_a_boarder_is_not():
    game = table()
    put(game, 0, SHORE_LAND)
    put(game, 1, SHORE_LAND)
    creature(game, SHARK, NW_SEA)
    creature(game, SHARK, NE_SEA, which=1)
    game.rafts[0].space = NE_SEA
    game.apply(move(0, NE))
    assert game.adventurers[0].raft == 0
    game.apply(move(1, NW))
    assert game.adventurers[1].space == LOST


def test_an_adventurer_entering_a_serpents_space_is_lost():
    game = table()
    put(game, 0, SHORE_LAND)
    put(game, 1, 80)
    creature(game, SERPENT, NW_SEA)
    game.apply(move(0, NW))
    assert game.adventurers[0].space == LOST


# --- abilities (S11) --------------------------------------------------------------------------------


def test_oars_move_a_raft_two_spaces_in_one_direction_without_a_move():
    game = table()
    game.hand[0][R.OARS - R.FIRST_ABILITY] = 1
    game.rafts[0].space = 28
    put(game, 0, 28, raft=0)
    oars = encode(("oars", 0, NE, 2))
    assert oars in game.legal_actions()
    game.apply(oars)
    assert game.rafts[0].space == 4 and game.adventurers[0].space == 4 and game.moves_left == 3
    assert game.hand[0] == [0, 0, 0, 0, 0]
    assert not any(1200 <= c < 1500 for c in game.legal_actions())


def test_oars_pass_over_sea_and_stop_only_where_a_raft_may_stop():
    game = table()
    game.hand[0][R.OARS - R.FIRST_ABILITY] = 1
    game.rafts[0].space = 28
    game.rafts[1].space = 16
    creature(game, KAIJU, 27)
    put(game, 0, 80)
    legal = game.legal_actions()
    assert encode(("oars", 0, NE, 1)) not in legal  # onto another raft
    assert encode(("oars", 0, NE, 2)) in legal  # over it: only the stop counts
    assert encode(("oars", 0, W, 1)) not in legal and encode(("oars", 0, W, 2)) in legal  # over the kaiju


def test_a_dolphin_carries_a_swimmer_two_spaces_without_counting_its_swim():
    game = table()
    game.hand[0][R.DOLPHIN - R.FIRST_ABILITY] = 1
    a = put(game, 0, 16)
    a.swam = True
    assert not any(300 <= c < 600 for c in game.legal_actions())  # it swam already
    game.rafts[0].space = NW_SEA
    dolphin = encode(("dolphin", 0, SE, 2))  # over the raft on r3c5 onto land r4c5
    assert dolphin in game.legal_actions()
    game.apply(dolphin)
    assert a.space == SHORE_LAND and game.moves_left == 3
    assert not any(1500 <= c < 2200 for c in game.legal_actions())  # a swimmer only, and it is used up


def test_dive_moves_any_creature_to_an_empty_sea_space():
    game = table()
    game.hand[0][R.DIVE - R.FIRST_ABILITY] = 1
    put(game, 0, SHORE_LAND)
    put(game, 1, NW_SEA)
    kaiju = creature(game, KAIJU, 55)
    dives = targets(game.legal_actions(), R.DIVE_MOVE)
    assert NW_SEA not in dives and SHORE_LAND not in dives and 55 not in dives and NE_SEA in dives
    game.apply(encode(("dive", kaiju.slot, NE_SEA)))
    assert kaiju.space == NE_SEA and game.phase == "action"


def test_the_die_ability_rolls_and_the_seat_moves_that_creature_then_acts_on():
    game = table(dice=[SHARK, KAIJU])
    game.hand[0][R.DIE - R.FIRST_ABILITY] = 2
    put(game, 0, SHORE_LAND)
    shark = creature(game, SHARK, 16)
    game.apply(R.USE_DIE)
    assert game.phase == "creature" and game.rolled == SHARK and game.rolls == [SHARK]
    game.apply(encode(("creature", shark.slot, NW_SEA)))
    assert shark.space == NW_SEA and game.phase == "action" and game.moves_left == 3
    game.apply(R.USE_DIE)  # no kaiju on the board: nothing happens
    assert game.phase == "action" and game.rolls == [SHARK, KAIJU] and game.rolled == -1


# --- flooding (S12) ---------------------------------------------------------------------------------


def test_the_lowest_terrain_touching_the_sea_floods_first():
    game = table()
    put(game, 0, 80)
    land = game.land_left()
    for q in land:
        game.tile[q] = (MOUNTAIN, R.DIVE)
    game.tile[SHORE_LAND] = (FOREST, R.DIVE)
    game.tile[69] = (FOREST, R.DIVE)  # inland but on the lake
    game.tile[56] = (FOREST, R.DIVE)  # inland, touching no sea
    game.apply(R.END)
    assert game.legal_actions() == [R.FLOOD + SHORE_LAND, R.FLOOD + 69]
    for q in (SHORE_LAND, 69):
        game.tile[q] = (MOUNTAIN, R.DIVE)
    assert game.legal_actions() == [R.FLOOD + 56]  # none of the lowest terrain touches the sea: any of it


def test_a_flooded_tile_becomes_sea_its_adventurers_swim_and_an_ability_goes_to_the_hand():
    game = table(dice=[SERPENT])
    put(game, 0, SHORE_LAND)
    put(game, 1, 80)
    game.tile[SHORE_LAND] = (BEACH, R.OARS)
    game.apply(R.END)
    game.apply(R.FLOOD + SHORE_LAND)
    assert game.kind[SHORE_LAND] == SEA and game.tile[SHORE_LAND] is None
    assert game.is_swimmer(game.adventurers[0]) and not game.adventurers[0].swam
    assert game.hand[0][R.OARS - R.FIRST_ABILITY] == 1 and game.turn == 2


def test_a_seat_with_no_adventurer_on_the_board_floods_two_tiles():
    game = table(dice=[SERPENT, SERPENT])
    put(game, 0, 80)  # seat 0's; seat 1 has none
    game.apply(R.END)
    game.apply(game.legal_actions()[0])
    assert game.turn == 2 and game.seat == 1 and game.floods_left == 2
    assert game.phase == "flood"  # seat 1 has nothing to move: its action phase closed itself
    game.apply(game.legal_actions()[0])
    assert game.phase == "flood" and game.floods_left == 1
    game.apply(game.legal_actions()[0])
    assert game.turn == 3


def test_a_volcano_takes_everything_there_and_nothing_enters_it_again():
    game = table(dice=[SERPENT])
    put(game, 0, SHORE_LAND)
    put(game, 1, 80)
    kaiju = creature(game, KAIJU, 43)
    game.tile[43] = (BEACH, R.VOLCANO)
    game.apply(R.END)
    game.apply(R.FLOOD + 43)
    assert game.kind[43] == VOLCANO_SPACE and game.volcanoes == 1 and kaiju.space == SUPPLY
    game.adventurers[0].space = SHORE_LAND
    game.apply(R.END) if game.seat == 0 else None
    assert all(c != move(0, E) for c in game.legal_actions())


def test_the_volcano_that_ends_the_game_ends_it_at_once():
    game = table(dice=[SERPENT], volcanoes_to_end=1)
    put(game, 0, SHORE_LAND)
    put(game, 1, 80)
    game.tile[SHORE_LAND] = (BEACH, R.VOLCANO)
    game.score = [4, 0]
    game.apply(R.END)
    game.apply(R.FLOOD + SHORE_LAND)
    assert game.ending == "volcano" and game.phase == "over" and game.adventurers[0].space == LOST
    assert game.adventurers[1].space == 80  # still on the board: it scores nothing (S14)
    assert game.winners() == [0] and game.win_shares() == [1.0, 0.0] and game.legal_actions() == []
    assert game.rolls == []  # no creature phase
    with pytest.raises(IllegalAction):
        game.apply(R.END)


def test_a_shark_tile_places_a_shark_that_takes_the_swimmers_there():
    game = table(dice=[SERPENT])
    put(game, 0, SHORE_LAND)
    put(game, 1, 80)
    game.tile[SHORE_LAND] = (BEACH, R.SHARK_TILE)
    game.apply(R.END)
    game.apply(R.FLOOD + SHORE_LAND)
    sharks = [c for c in game.in_game if c.kind == SHARK]
    assert sharks[0].space == SHORE_LAND and game.adventurers[0].space == LOST


def test_with_every_shark_out_the_lowest_slot_one_moves_and_nothing_happens_by_a_kaiju():
    game = table(dice=[SERPENT, SERPENT], sharks=2)
    put(game, 0, 80)
    put(game, 20, 93)
    a, b = creature(game, SHARK, 16), creature(game, SHARK, 17, which=1)
    game.tile[SHORE_LAND] = (BEACH, R.SHARK_TILE)
    game.tile[43] = (BEACH, R.SHARK_TILE)
    kaiju = creature(game, KAIJU, 43)
    game.apply(R.END)
    game.apply(R.FLOOD + SHORE_LAND)
    assert a.space == SHORE_LAND and b.space == 17
    game.apply(R.END)
    game.apply(R.FLOOD + 43)
    assert a.space == SHORE_LAND and kaiju.space == 43


def test_a_kaiju_tile_places_a_kaiju_and_the_seat_pushes_its_adventurers():
    game = table(dice=[SERPENT])
    put(game, 0, SHORE_LAND)
    put(game, 2, SHORE_LAND)
    put(game, 1, 80)
    game.tile[SHORE_LAND] = (BEACH, R.KAIJU_TILE)
    game.apply(R.END)
    game.apply(R.FLOOD + SHORE_LAND)
    kaiju = [c for c in game.in_game if c.kind == KAIJU][0]
    assert kaiju.space == SHORE_LAND and game.phase == "push" and game.push_space == SHORE_LAND
    assert game.decider == 0 and R.PUSH + NW in game.legal_actions()
    game.apply(R.PUSH + E)
    assert game.adventurers[0].space == game.adventurers[2].space == 43
    assert game.turn == 2  # the flood phase went on into the creature phase


def test_a_raft_tile_takes_the_supplys_lowest_raft_and_its_swimmers_board_in_order():
    game = table(dice=[SERPENT], raft_capacity=2)
    for n in (3, 1, 2):
        put(game, n, SHORE_LAND)
    game.rafts[0].space = 28
    game.tile[SHORE_LAND] = (BEACH, R.RAFT_TILE)
    game.apply(R.END)
    game.apply(R.FLOOD + SHORE_LAND)
    assert game.rafts[1].space == SHORE_LAND
    assert [game.adventurers[n].raft for n in (1, 2, 3)] == [1, 1, -1]


def test_a_raft_tile_with_an_empty_supply_moves_the_lowest_empty_raft_or_nothing():
    game = table(dice=[SERPENT, SERPENT], rafts=8)
    put(game, 0, SHORE_LAND)
    put(game, 1, 43)
    for r, q in enumerate((28, 16, 17, 18, 3, 4, 5, 6)):
        game.rafts[r].space = q
    put(game, 5, 28, raft=0)
    game.tile[SHORE_LAND] = (BEACH, R.RAFT_TILE)
    game.tile[43] = (BEACH, R.RAFT_TILE)
    game.apply(R.END)
    game.apply(R.FLOOD + SHORE_LAND)
    assert game.rafts[1].space == SHORE_LAND and game.adventurers[0].raft == 1
    for r in range(2, 8):
        put(game, 6 + r, game.rafts[r].space, raft=r)
    game.apply(R.END)
    game.apply(R.FLOOD + 43)
    assert [r.space for r in game.rafts] == [28, SHORE_LAND, 17, 18, 3, 4, 5, 6]  # no empty raft: nothing


def test_a_whirlpool_takes_everything_on_its_space_and_the_sea_around():
    game = table(dice=[SERPENT])
    put(game, 0, SHORE_LAND)
    put(game, 1, NW_SEA)
    put(game, 2, 43)  # land next to it stays
    put(game, 3, 80)
    game.rafts[0].space = NE_SEA
    shark = creature(game, SHARK, 41)
    game.tile[SHORE_LAND] = (BEACH, R.WHIRLPOOL)
    game.apply(R.END)
    game.apply(R.FLOOD + SHORE_LAND)
    assert [game.adventurers[n].space for n in range(4)] == [LOST, LOST, 43, 80]
    assert game.rafts[0].space == SUPPLY and shark.space == SUPPLY


# --- creatures (S13) --------------------------------------------------------------------------------


def creature_phase(game, kind):
    """End seat 0's action phase and flood a tile far from everything; the die shows `kind`."""
    game.dice = iter([kind])
    game.tile[120] = (BEACH, R.DIVE)
    for q in game.land_left():
        if q != 120:
            game.tile[q] = (MOUNTAIN, R.DIVE)
    game.apply(R.END)
    game.apply(R.FLOOD + 120)


def test_a_serpent_moves_to_a_sea_space_next_to_it_and_takes_rafts_and_adventurers():
    game = table()
    serpent = creature(game, SERPENT, 28)
    put(game, 0, SHORE_LAND)
    put(game, 1, NW_SEA, raft=0)
    game.rafts[0].space = NW_SEA
    creature(game, KAIJU, 16)
    creature_phase(game, SERPENT)
    assert game.phase == "creature" and game.rolled == SERPENT
    assert targets(game.legal_actions(), R.CREATURE_MOVE) == {n for n in game.neighbours(28)
                                                              if game.kind[n] == SEA and n != 16}
    game.apply(encode(("creature", serpent.slot, NW_SEA)))
    assert game.adventurers[1].space == LOST and game.rafts[0].space == SUPPLY and game.turn == 2


def test_a_roll_with_no_creature_of_that_kind_passes_the_turn():
    game = table()
    put(game, 0, SHORE_LAND)
    creature_phase(game, SHARK)
    assert game.turn == 2 and game.rolls == [SHARK]


def test_a_shark_moves_one_or_two_over_sea_and_takes_swimmers_only():
    game = table()
    shark = creature(game, SHARK, 16)
    put(game, 0, NW_SEA)
    put(game, 1, NE_SEA, raft=0)
    game.rafts[0].space = NE_SEA
    creature_phase(game, SHARK)
    reach = targets(game.legal_actions(), R.CREATURE_MOVE)
    assert NW_SEA in reach and NE_SEA in reach and 16 not in reach and SHORE_LAND not in reach
    game.apply(encode(("creature", shark.slot, NE_SEA)))
    assert game.adventurers[1].raft == 0
    game.seat, game.phase, game.rolled, game.turn = 0, "creature", SHARK, 1
    game.apply(encode(("creature", shark.slot, NW_SEA)))
    assert game.adventurers[0].space == LOST


def test_a_shark_passes_over_a_kaiju_but_never_stops_on_its_space():
    game = table()
    shark = creature(game, SHARK, 16)
    creature(game, KAIJU, NW_SEA)
    put(game, 0, 80)
    creature_phase(game, SHARK)
    reach = targets(game.legal_actions(), R.CREATURE_MOVE)
    assert NW_SEA not in reach and 41 in reach  # 16 -> r3c5 (the kaiju's) -> r4c4
    assert all(game.kind[q] == SEA for q in reach) and shark.space not in reach


def test_a_raft_tile_places_its_raft_even_where_a_kaiju_stands():
    game = table()
    put(game, 0, 80)
    kaiju = creature(game, KAIJU, SHORE_LAND)
    game.tile[SHORE_LAND] = (BEACH, R.RAFT_TILE)
    game.apply(R.END)
    game.apply(R.FLOOD + SHORE_LAND)
    assert game.rafts[0].space == SHORE_LAND and kaiju.space == SHORE_LAND


def test_a_kaiju_walks_over_land_sinks_rafts_and_pushes_the_adventurers():
    game = table()
    kaiju = creature(game, KAIJU, 55)
    put(game, 0, NW_SEA, raft=0)
    put(game, 1, NW_SEA, raft=0)
    put(game, 2, 80)
    game.rafts[0].space = NW_SEA
    shark = creature(game, SHARK, NW_SEA)
    game.kind[43] = VOLCANO_SPACE
    creature_phase(game, KAIJU)
    reach = targets(game.legal_actions(), R.CREATURE_MOVE)
    assert {SHORE_LAND, NW_SEA, 41}.issubset(reach) and 43 not in reach and 55 not in reach
    game.apply(encode(("creature", kaiju.slot, NW_SEA)))
    assert game.rafts[0].space == SUPPLY
    first_free = next(n for n in game.neighbours(NW_SEA) if game.kind[n] == SEA)
    assert shark.space == first_free  # displaced, in direction order, to a space with no piece
    assert game.phase == "push" and game.push_space == NW_SEA
    game.apply(R.PUSH + SE)  # back onto the land r4c5
    assert game.adventurers[0].space == game.adventurers[1].space == SHORE_LAND and game.turn == 2


def test_a_kaiju_displaces_another_kaiju_and_adventurers_with_nowhere_to_go_are_lost():
    game = table()
    kaiju, other = creature(game, KAIJU, 16), creature(game, KAIJU, NW_SEA, which=1)
    put(game, 1, 80)
    creature_phase(game, KAIJU)
    game.apply(encode(("creature", kaiju.slot, NW_SEA)))
    assert other.space == NE_SEA  # east of r3c5: the first space it may stand on
    game = table()
    put(game, 0, SHORE_LAND)
    put(game, 1, 80)
    for n in game.neighbours(SHORE_LAND):
        game.kind[n], game.tile[n] = VOLCANO_SPACE, None
    for q in game.land_left():
        game.tile[q] = (MOUNTAIN, R.DIVE)
    game.tile[SHORE_LAND] = (BEACH, R.KAIJU_TILE)  # the only beach left
    game.apply(R.END)
    game.apply(R.FLOOD + SHORE_LAND)
    assert game.adventurers[0].space == LOST and game.turn == 2  # placed by a tile, with nowhere to push


def test_pushed_adventurers_board_a_raft_with_room():
    game = table(raft_capacity=1)
    kaiju = creature(game, KAIJU, 55)
    put(game, 0, SHORE_LAND)
    put(game, 1, SHORE_LAND)
    game.rafts[0].space = NW_SEA
    creature_phase(game, KAIJU)
    game.apply(encode(("creature", kaiju.slot, SHORE_LAND)))
    game.apply(R.PUSH + NW)
    assert game.adventurers[0].raft == 0 and game.adventurers[1].raft == -1


# --- repellent (S15) --------------------------------------------------------------------------------


REPEL_CHOICE = [R.KEEP_REPELLENT, R.USE_REPELLENT]


def repellents(game, seat: int) -> int:
    return game.hand[seat][R.REPELLENT - R.FIRST_ABILITY]


def test_a_shark_waits_while_each_seat_holding_a_repellent_chooses_from_the_turns_seat_onward():
    game = table(players=3)
    shark = creature(game, SHARK, 16)
    put(game, 0, 80)
    put(game, 10, NW_SEA)
    put(game, 20, NW_SEA)
    game.hand[1][R.REPELLENT - R.FIRST_ABILITY] = 1
    game.hand[2][R.REPELLENT - R.FIRST_ABILITY] = 1
    creature_phase(game, SHARK)
    game.apply(encode(("creature", shark.slot, NW_SEA)))
    # S15: the shark is on its space and has done nothing yet; seat 1 (first from seat 0 on) is asked
    assert game.phase == "repel" and game.decider == 1 and game.seat == 0 and shark.space == NW_SEA
    assert game.legal_actions() == REPEL_CHOICE
    game.apply(R.KEEP_REPELLENT)
    assert game.phase == "repel" and game.decider == 2 and repellents(game, 1) == 1  # kept, seat 2 asked
    game.apply(R.USE_REPELLENT)
    assert shark.space == SUPPLY and game.adventurers[10].space == NW_SEA == game.adventurers[20].space
    assert repellents(game, 1) == 1 and repellents(game, 2) == 0
    assert game.phase == "action" and game.turn == 2 and game.decider == 1  # the creature phase went on


def test_a_shark_kept_by_every_seat_asked_takes_the_swimmers():
    game = table(players=3)
    shark = creature(game, SHARK, 16)
    put(game, 0, 80)
    put(game, 10, NW_SEA)
    game.hand[1][R.REPELLENT - R.FIRST_ABILITY] = 1
    game.hand[2][R.REPELLENT - R.FIRST_ABILITY] = 1  # no adventurer there: never asked
    creature_phase(game, SHARK)
    game.apply(encode(("creature", shark.slot, NW_SEA)))
    assert game.decider == 1
    game.apply(R.KEEP_REPELLENT)
    assert game.adventurers[10].space == LOST and shark.space == NW_SEA and repellents(game, 1) == 1
    assert game.turn == 2 and game.decider == 1  # the creature phase went on: seat 1's turn


def test_repellent_stops_a_placed_kaiju_and_a_swimmer_entering_a_sharks_space():
    game = table(dice=[SERPENT])
    put(game, 0, SHORE_LAND)
    put(game, 1, 80)
    game.hand[0][R.REPELLENT - R.FIRST_ABILITY] = 2
    game.tile[SHORE_LAND] = (BEACH, R.KAIJU_TILE)
    shark = creature(game, SHARK, NE_SEA)
    game.apply(move(0, NE))  # a swimmer into the shark's space
    assert game.phase == "repel" and game.decider == 0 and game.moves_left == 2
    game.apply(R.USE_REPELLENT)
    assert shark.space == SUPPLY and game.adventurers[0].space == NE_SEA and game.phase == "action"
    game.adventurers[0].space = SHORE_LAND
    game.apply(R.END)
    game.apply(R.FLOOD + SHORE_LAND)
    assert game.phase == "repel"  # the kaiju the tile places waits
    game.apply(R.USE_REPELLENT)
    assert all(c.space == SUPPLY for c in game.in_game if c.kind == KAIJU) and game.turn == 2
    assert repellents(game, 0) == 0


def test_a_kaiju_kept_sinks_the_raft_and_its_adventurers_wait_to_be_pushed():
    game = table(dice=[SERPENT])
    put(game, 0, SHORE_LAND)
    put(game, 1, 80)
    game.hand[0][R.REPELLENT - R.FIRST_ABILITY] = 1
    game.tile[SHORE_LAND] = (BEACH, R.KAIJU_TILE)
    game.apply(R.END)
    game.apply(R.FLOOD + SHORE_LAND)
    game.apply(R.KEEP_REPELLENT)
    assert game.phase == "push" and game.push_space == SHORE_LAND and repellents(game, 0) == 1


def test_after_a_repelled_shark_the_next_shark_there_meets_the_swimmer():
    game = table(players=2)
    first, second = creature(game, SHARK, NE_SEA), creature(game, SHARK, NE_SEA, which=1)
    put(game, 0, SHORE_LAND)
    put(game, 1, 80)
    game.hand[0][R.REPELLENT - R.FIRST_ABILITY] = 2
    game.apply(move(0, NE))
    game.apply(R.USE_REPELLENT)  # the first shark (lower slot) leaves
    assert first.space == SUPPLY and game.phase == "repel" and game.repel["slot"] == second.slot
    game.apply(R.KEEP_REPELLENT)
    assert game.adventurers[0].space == LOST and second.space == NE_SEA and repellents(game, 0) == 1


def test_repellent_is_not_spent_on_a_serpent():
    game = table()
    serpent = creature(game, SERPENT, 28)
    put(game, 0, NW_SEA)
    put(game, 1, 80)
    game.hand[0][R.REPELLENT - R.FIRST_ABILITY] = 1
    creature_phase(game, SERPENT)
    game.apply(encode(("creature", serpent.slot, NW_SEA)))
    assert game.adventurers[0].space == LOST and game.hand[0][R.REPELLENT - R.FIRST_ABILITY] == 1


# --- the end (S14) ----------------------------------------------------------------------------------


def test_the_game_ends_when_the_last_adventurer_leaves_and_ties_share_the_win():
    game = table(players=3)
    put(game, 0, BY_RESCUE)
    game.score = [0, 5, 0]
    game.adventurers[0].value = 5
    game.apply(move(0, NW))
    assert game.ending == "cleared" and game.phase == "over" and game.score == [5, 5, 0]
    assert game.winners() == [0, 1] and game.win_shares() == [0.5, 0.5, 0.0]
    assert game.snapshot()["ending"] == "cleared"


def test_illegal_actions_are_refused():
    game = table()
    put(game, 0, SHORE_LAND)
    with pytest.raises(IllegalAction):
        game.apply(R.FLOOD + SHORE_LAND)
    with pytest.raises(IllegalAction):
        game.apply(move(5, E))  # not on the board


# --- whole games ----------------------------------------------------------------------------------


def homeward(game, rng: random.Random) -> int:
    """A chooser that heads for the rescue islands now and then, so that games see rescues."""
    codes = game.legal_actions()
    moves = [c for c in codes if R.MOVE_ADVENTURER <= c < R.FLOOD]
    if moves and rng.random() < 0.7:
        def distance(code):
            kind, piece, d = R.decode(code)
            space = (game.adventurers[piece].space if kind == "move" else game.rafts[piece].space)
            r, c = game.board.cells[game.step(space, d)]
            return min(abs(r - rr) + abs(c - cc) for rr, cc in (game.board.cells[q] for q in game.board.rescue))
        return min(moves, key=distance)
    return rng.choice(codes)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_end_with_win_shares_summing_to_one(players):
    rules = Rules(players=players)
    rescued = 0
    for g in range(3):
        rng = random.Random(g)
        game = SurviveTheIslandEngine(rules, Deal.random(rules, 7, g), random_dice(rules, 7, g))
        seen = 0
        while not game.over:
            codes = game.legal_actions()
            assert codes == sorted(set(codes)) and codes
            game.apply(homeward(game, rng) if g else rng.choice(codes))
            seen += 1
            assert seen < 5000
        assert sum(game.win_shares()) == pytest.approx(1.0)
        snap = game.snapshot()
        assert snap["ending"] in ("cleared", "volcano") and snap["phase"] == "over"
        assert all(s != UNPLACED for s in snap["adventurer_space"])
        assert sum(snap["score"]) == sum(a.value for a in game.adventurers if a.space == RESCUED)
        rescued += sum(game.rescued)
    assert players == 5 or rescued > 0


def test_an_engine_game_is_its_seed_and_index():
    rules = Rules(players=3)
    a = play_random(rules, 2, 1)
    b = play_random(rules, 2, 1)
    assert a.history == b.history and a.snapshot() == b.snapshot()
