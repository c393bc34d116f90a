"""Each adventurer's power (F10) and each one's escape from a sinking tile (F11).

Places are (column, row) on the canonical island drawn in support.py.
"""

from __future__ import annotations

import pytest

from sim.forbidden_island.engine import FLOODED, SUNK, Action, IllegalAction
from sim.forbidden_island.rules import PLACES, TREASURES

from .support import act, arranged, flood_top, hand, kinds, picture, place, places_in, set_state, to_flood_phase


def moves(game):
    return {a.place for a in game.legal_actions() if a.kind == "move"}


# --- ordinary movement and shoring up (F5) ----------------------------------------------------------


def test_f5_ordinary_walk_is_to_side_neighbours_flooded_or_not_never_sunk():
    game = arranged(["engineer", "messenger"])
    game.pawns[0] = (3, 4)
    set_state(game, [(4, 4)], FLOODED)
    set_state(game, [(2, 4)], SUNK)
    assert moves(game) == {(3, 3), (4, 4), (3, 5)}
    with pytest.raises(IllegalAction):
        act(game, "move 4,3")  # a corner: only the Explorer
    act(game, "move 4,4")
    assert game.pawns[0] == (4, 4) and game.actions_left == 2


def test_f5_ordinary_shore_up_own_tile_or_a_side_neighbour():
    game = arranged(["messenger", "engineer"])
    game.pawns[0] = (3, 4)
    set_state(game, [(3, 4), (3, 3), (4, 3), (6, 4)], FLOODED)
    shores = sorted(a.place for a in game.legal_actions() if a.kind == "shore")
    assert shores == [(3, 3), (3, 4)]
    assert all(a.place2 is None for a in game.legal_actions() if a.kind == "shore")
    with pytest.raises(IllegalAction, match="Engineer"):
        act(game, "shore 3,3 3,4")


# --- F10 powers -----------------------------------------------------------------------------------------


def test_f10_explorer_moves_and_shores_diagonally():
    game = arranged(["explorer", "messenger"])
    game.pawns[0] = (3, 4)
    set_state(game, [(4, 5)], SUNK)
    set_state(game, [(2, 3), (4, 3)], FLOODED)
    assert moves(game) == {(2, 3), (3, 3), (4, 3), (2, 4), (4, 4), (2, 5), (3, 5)}
    shores = sorted(a.place for a in game.legal_actions() if a.kind == "shore")
    assert shores == [(2, 3), (4, 3)]
    act(game, "shore 2,3", "move 4,3")
    assert game.state_at((2, 3)) == "dry" and game.pawns[0] == (4, 3)


def test_f10_engineer_shores_up_two_tiles_for_one_action():
    game = arranged(["engineer", "messenger"])
    game.pawns[0] = (3, 4)
    set_state(game, [(3, 4), (3, 3), (2, 4), (5, 4)], FLOODED)
    pairs = {(a.place, a.place2) for a in game.legal_actions() if a.kind == "shore" and a.place2}
    assert pairs == {((3, 3), (2, 4)), ((3, 3), (3, 4)), ((2, 4), (3, 4))}
    act(game, "shore 2,4 3,3")  # either order, one action
    assert game.history[-1][1] == Action("shore", place=(3, 3), place2=(2, 4))
    assert str(game.history[-1][1]) == "shore 3,3 2,4"
    assert game.state_at((3, 3)) == game.state_at((2, 4)) == "dry"
    assert game.actions_left == 2
    with pytest.raises(IllegalAction):
        act(game, "shore 3,4 5,4")  # 5,4 is out of reach: the power does not extend it


def test_f10_messenger_gives_to_anyone_anywhere_one_card_an_action():
    game = arranged(["messenger", "engineer", "diver"])
    hand(game, 0, ["fire", "fire", "earth"])
    assert game.pawns[0] != game.pawns[1] != game.pawns[2]
    gives = {(a.pawn, a.card) for a in game.legal_actions() if a.kind == "give"}
    assert gives == {(1, "fire"), (1, "earth"), (2, "fire"), (2, "earth")}
    act(game, "give 2 fire")
    assert game.hands[0] == ["fire", "earth"] and game.hands[2] == ["fire"] and game.actions_left == 2


def test_f5_others_give_only_on_the_same_tile():
    game = arranged(["engineer", "messenger"])
    hand(game, 0, ["fire"])
    assert "give" not in kinds(game)
    with pytest.raises(IllegalAction, match="Messenger"):
        act(game, "give 1 fire")
    game.pawns[1] = game.pawns[0]
    act(game, "give 1 fire")
    assert game.hands == [[], ["fire"]]


DIVER_MAP = """
      ..
     ....
    ......
    .xoxo.
     ....
      ..
"""
# The Diver at 1,4: through 2,4 (sunk), 3,4 (flooded), 4,4 (sunk), 5,4 (flooded) it reaches every
# standing tile touching that chain, and 6,4 at its end; 6,3 touches only dry tiles.
DIVER_REACH = """
      ..
     ....
    *****.
    ..*.**
     ****
      ..
"""


def test_f10_diver_swims_through_flooded_and_sunk_places_for_one_action():
    game = arranged(["diver", "messenger"])
    picture(game, DIVER_MAP)
    game.pawns[0] = (1, 4)
    assert moves(game) == places_in(DIVER_REACH)
    act(game, "move 6,4")
    assert game.pawns[0] == (6, 4) and game.actions_left == 2


def test_f10_diver_chain_turns_corners_but_stops_at_dry_tiles():
    game = arranged(["diver", "messenger"])
    picture(game, """
      o.
     oo..
    oo....
    o.....
     ....
      ..
    """)
    game.pawns[0] = (1, 4)
    assert (4, 1) in moves(game)  # up the flooded staircase and round to the top right
    assert (4, 2) in moves(game)  # next to the flooded 3,2
    assert (5, 2) not in moves(game)  # only dry tiles lead there


def test_f10_diver_without_water_walks_like_anyone():
    game = arranged(["diver", "messenger"])
    game.pawns[0] = (3, 4)
    assert moves(game) == {(3, 3), (2, 4), (4, 4), (3, 5)}


def test_f10_navigator_moves_another_pawn_up_to_two_places_for_one_action():
    game = arranged(["navigator", "engineer"])
    game.pawns[1] = (3, 4)
    targets = {a.place for a in game.legal_actions() if a.kind == "navigate" and a.pawn == 1}
    two_steps = {p for p in PLACES if 0 < abs(p[0] - 3) + abs(p[1] - 4) <= 2}
    assert targets == two_steps
    act(game, "navigate 1 4,5")  # a turn on the way
    assert game.pawns[1] == (4, 5) and game.actions_left == 2
    assert moves(game) == {(3, 1), (3, 3), (2, 2), (4, 2)}  # own walk: one step


def test_f10_navigator_moves_others_by_their_own_walk():
    game = arranged(["navigator", "explorer", "diver", "pilot"])
    game.pawns[1] = game.pawns[2] = game.pawns[3] = (3, 4)
    set_state(game, [(4, 4)], SUNK)

    def targets(pawn):
        return {a.place for a in game.legal_actions() if a.kind == "navigate" and a.pawn == pawn}

    assert (5, 2) in targets(1)  # the Explorer two corners away
    assert (5, 4) in targets(2)  # the Diver across one sunk place ...
    assert (4, 4) not in targets(2)  # ... but never left on it
    assert (5, 4) not in targets(3)  # the Pilot does not cross it ...
    set_state(game, [(5, 4)], SUNK)
    assert (6, 4) not in targets(2)  # ... and the Diver not two
    assert all(abs(p[0] - 3) + abs(p[1] - 4) <= 2 for p in targets(3))  # the Pilot walks, no flight
    assert 0 not in {a.pawn for a in game.legal_actions() if a.kind == "navigate"}
    with pytest.raises(IllegalAction, match="sunk|cannot"):
        act(game, "navigate 3 4,4")


def test_f10_only_the_navigator_navigates():
    game = arranged(["engineer", "messenger"])
    with pytest.raises(IllegalAction, match="Navigator"):
        act(game, "navigate 1 3,4")


def test_f10_pilot_flies_once_a_turn_to_any_standing_tile():
    game = arranged(["pilot", "engineer"])
    assert game.pawns[0] == (3, 1)
    set_state(game, [(4, 6)], SUNK)
    flights = {a.place for a in game.legal_actions() if a.kind == "fly"}
    assert flights == set(PLACES) - {(3, 1), (4, 6)}  # neighbours too: F10 says any tile not sunk
    act(game, "fly 3,6")
    assert game.pawns[0] == (3, 6) and game.actions_left == 2
    assert "fly" not in kinds(game)
    with pytest.raises(IllegalAction, match="flown"):
        act(game, "fly 3,1")
    act(game, "move 3,5")  # ordinary moves still allowed
    act(game, "draw", "draw", "flood", "flood")  # player 1's turn
    act(game, "draw", "draw", "flood", "flood")  # the Pilot's next turn
    assert game.current == 0 and "fly" in kinds(game)


def test_f10_pilot_may_fly_to_a_tile_it_could_walk_to():
    """F10: any tile that has not sunk, a neighbour too. It costs the turn's one flight, which
    the walk there would have kept, but a table may play it and a record may hold it."""
    game = arranged(["pilot", "engineer"])
    game.pawns[0] = (5, 3)
    assert (6, 3) in moves(game)
    act(game, "fly 6,3")
    assert game.pawns[0] == (6, 3) and game.flew and game.actions_left == 2
    assert "fly" not in kinds(game) and (5, 3) in moves(game)


def test_f10_only_the_pilot_flies():
    game = arranged(["engineer", "pilot"])
    with pytest.raises(IllegalAction, match="Pilot"):
        act(game, "fly 3,6")


# --- F11 escapes from a sinking tile ------------------------------------------------------------------


def sink_under(game, seat):
    """Flood the tile under `seat`, put its card on top and draw it: the tile sinks."""
    sink_under_without_swim(game, seat)
    assert game.state_at(game.pawns[seat]) == SUNK


def sink_under_without_swim(game, seat):
    tile = game.tile_at(game.pawns[seat])
    set_state(game, [tile], FLOODED)
    flood_top(game, [tile])
    to_flood_phase(game)
    act(game, "flood")


def swims(game):
    return {a.place for a in game.legal_actions() if a.kind == "swim"}


@pytest.mark.parametrize("role", ["engineer", "messenger", "navigator"])
def test_f11_ordinary_escape_to_a_side_neighbour(role):
    game = arranged([role, "diver"])
    game.pawns[0] = (3, 4)
    set_state(game, [(3, 3)], SUNK)
    set_state(game, [(4, 4)], FLOODED)
    sink_under(game, 0)
    assert game.phase == "swim" and kinds(game) == {"swim"}
    assert swims(game) == {(2, 4), (4, 4), (3, 5)}  # flooded is fine
    act(game, "swim 0 4,4")
    assert game.pawns[0] == (4, 4) and game.phase == "flood_draw"


def test_f11_explorer_escapes_diagonally_too():
    game = arranged(["explorer", "diver"])
    game.pawns[0] = (3, 4)
    sink_under(game, 0)
    assert swims(game) == {(2, 3), (3, 3), (4, 3), (2, 4), (4, 4), (2, 5), (3, 5), (4, 5)}


def test_f11_diver_escapes_to_a_nearest_standing_tile():
    game = arranged(["diver", "engineer"])
    picture(game, """
      ..
     ..x.
    ..xx..
    ..xoxx
     .xx.
      ..
    """)
    game.captured = list(TREASURES)  # so that no sunk temple or garden ends the game
    game.pawns[0] = (4, 4)
    flood_top(game, [game.tile_at((4, 4))])
    to_flood_phase(game)
    act(game, "flood")
    # two side steps away across sunk places: 5,3 (via 5,4 or 4,3), 2,4, 5,5 and 4,6
    assert swims(game) == {(5, 3), (2, 4), (5, 5), (4, 6)}


def test_f11_pilot_escapes_anywhere_even_after_its_flight():
    game = arranged(["pilot", "engineer"])
    act(game, "fly 3,4")
    sink_under(game, 0)
    assert swims(game) == {p for p in PLACES if p != (3, 4)}


@pytest.mark.parametrize("role", ["engineer", "messenger", "navigator", "explorer"])
def test_f11_others_drown_with_nowhere_to_go(role):
    game = arranged([role, "diver"])
    game.pawns[0] = (3, 6)  # Twilight Hollow
    set_state(game, [(4, 6), (3, 5), (2, 5), (4, 5)], SUNK)  # its side and corner neighbours
    sink_under_without_swim(game, 0)
    assert game.outcome == "drowned" and game.legal_actions() == []


@pytest.mark.parametrize("role", ["diver", "pilot"])
def test_f11_diver_and_pilot_never_drown(role):
    game = arranged([role, "engineer"])
    game.pawns[0] = (4, 6)  # Watchtower, cut off from the rest of the island
    set_state(game, [(3, 6), (4, 5), (3, 5), (5, 5)], SUNK)
    sink_under(game, 0)
    assert game.outcome is None and game.phase == "swim"
    options = sorted(swims(game))
    assert options and all(game.standing(p) for p in options)
    act(game, f"swim 0 {options[0][0]},{options[0][1]}")
    assert game.standing(game.pawns[0])


def test_f11_pawns_on_a_sinking_tile_swim_in_any_order():
    """F11 sets no order: at each swim every pawn still on the sunk tile may go."""
    game = arranged(["engineer", "messenger", "explorer"])
    game.pawns = [(3, 4), (3, 4), (3, 4)]
    sink_under(game, 0)
    assert game.swimmers == [0, 1, 2]
    assert {a.by for a in game.legal_actions()} == {0, 1, 2}
    assert {a.place for a in game.legal_actions() if a.by == 2} == {(2, 3), (3, 3), (4, 3), (2, 4), (4, 4),
                                                                    (2, 5), (3, 5), (4, 5)}
    act(game, "swim 2 4,5")
    assert game.swimmers == [0, 1] and game.phase == "swim"
    assert {a.by for a in game.legal_actions()} == {0, 1}
    with pytest.raises(IllegalAction, match="player 2 is not on the tile that sank"):
        act(game, "swim 2 3,3")
    act(game, "swim 1 2,4", "swim 0 3,3")
    assert game.pawns == [(3, 3), (2, 4), (4, 5)] and game.phase == "flood_draw"


def test_f11_a_swim_of_a_pawn_on_another_tile_is_refused():
    game = arranged(["engineer", "messenger"])
    game.pawns = [(3, 4), (6, 4)]
    sink_under(game, 0)
    assert {a.by for a in game.legal_actions()} == {0}
    with pytest.raises(IllegalAction, match="player 1 is not on the tile that sank; player 0 must swim"):
        act(game, "swim 1 5,4")


def test_f11_swim_is_only_after_a_sinking():
    game = arranged(["engineer", "messenger"])
    with pytest.raises(IllegalAction, match="nobody is swimming"):
        act(game, "swim 0 3,2")


def test_f1_pilot_starts_on_fools_landing():
    game = arranged(["pilot", "engineer"])
    assert game.pawns[0] == place(game, "fools_landing")
