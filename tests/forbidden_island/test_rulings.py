"""Focused tests for each Forbidden Island ruling F1-F14 (../shared/rules/FI-RULINGS.md).

Role powers (F10) and escapes (F11) are in test_roles.py. Situations are arranged by hand on
the canonical island drawn in support.py.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from sim.forbidden_island.engine import (
    DRY,
    FLOODED,
    SUNK,
    Action,
    ForbiddenIslandEngine,
    IllegalAction,
    Setup,
    Shuffler,
    deal,
    new_game,
)
from sim.forbidden_island.rules import (
    DIFFICULTIES,
    FLOOD_DRAWS,
    FOOLS_LANDING,
    PICKUP_TILES,
    PLACES,
    ROLES,
    START_TILE,
    TILE_CODES,
    TREASURE_DECK,
    TREASURES,
    RuleError,
    Rules,
)

from .support import (
    act,
    arranged,
    flood_discard,
    flood_top,
    hand,
    kinds,
    last_flood_card_sinks_fools_landing,
    place,
    set_state,
    to_flood_phase,
    treasure_discard,
    treasure_top,
    waters_rise_to_the_skull,
)

# --- F1 Island -----------------------------------------------------------------------------------


def test_f1_island_has_rows_of_2_4_6_6_4_2_centred():
    rows = Counter(r for _, r in PLACES)
    assert [rows[r] for r in range(1, 7)] == [2, 4, 6, 6, 4, 2]
    assert len(PLACES) == 24
    for corner in [(1, 1), (2, 1), (1, 2), (6, 1), (5, 1), (6, 2), (1, 6), (1, 5), (2, 6), (6, 6), (5, 6), (6, 5)]:
        assert corner not in PLACES


def test_f1_the_24_tiles_are_shuffled_onto_the_island():
    layouts = {deal(Rules(), seed).layout for seed in range(20)}
    assert len(layouts) == 20
    for layout in layouts:
        assert sorted(layout) == sorted(TILE_CODES)
    assert deal(Rules(), 5) == deal(Rules(), 5)


def test_f1_start_tiles_and_pickup_pairs():
    assert START_TILE["pilot"] == FOOLS_LANDING
    assert {START_TILE[r] for r in ROLES if r != "pilot"} == {
        "bronze_gate", "copper_gate", "gold_gate", "iron_gate", "silver_gate"}
    for treasure in TREASURES:
        assert len(PICKUP_TILES[treasure]) == 2
    game = new_game(Rules(players=4), seed=3)
    for seat, role in enumerate(game.roles):
        assert game.tile_at(game.pawns[seat]) == START_TILE[role]


# --- F2 Players ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 5, "2"])
def test_f2_two_to_four_players(players):
    with pytest.raises(RuleError, match="rules.players"):
        Rules(players=players)


def test_f2_each_player_a_different_random_role():
    seen = set()
    for seed in range(30):
        roles = deal(Rules(players=4), seed).roles
        assert len(set(roles)) == 4 and set(roles) <= set(ROLES)
        seen |= set(roles)
    assert seen == set(ROLES)


def test_f2_turns_pass_in_deal_order():
    game = arranged(["engineer", "diver", "messenger"])
    order = []
    for _ in range(4):
        order.append(game.current)
        act(game, "draw", "draw")
        while game.phase == "discard":
            seat = game.over_limit()
            act(game, f"discard {seat} {game.hands[seat][0]}")
        while game.phase == "flood_draw":
            act(game, "flood")
    assert order == [0, 1, 2, 0]


# --- F3 Setup ------------------------------------------------------------------------------------


def test_f3_six_floods_and_two_cards_each():
    game = new_game(Rules(players=3), seed=11)
    flooded = [t for t in TILE_CODES if game.state[t] == FLOODED]
    assert len(flooded) == 6 and sorted(game.flood_discard) == sorted(flooded)
    assert game.flood_discard == list(game.setup.flood_deck[:6])  # the top six, in order
    assert all(len(h) == 2 for h in game.hands)
    assert all("waters_rise" not in h for h in game.hands)
    assert game.turn == 1 and game.current == 0 and game.phase == "actions"


def _deck_with(top):
    rest = list(TREASURE_DECK)
    for card in top:
        rest.remove(card)
    return tuple(top) + tuple(rest)


def test_f3_waters_rise_during_setup_is_replaced_and_shuffled_back():
    top = ["waters_rise", "fire", "waters_rise", "waters_rise", "wind", "earth", "lift"]
    setup = Setup(tuple(TILE_CODES), ("diver", "pilot"), tuple(TILE_CODES), _deck_with(top))
    shuffler = Shuffler(seed=4)
    game = ForbiddenIslandEngine(Rules(players=2, difficulty="normal"), setup, shuffler)
    # dealt one at a time: player 0 fire, player 1 wind, player 0 earth, player 1 lift
    assert game.hands == [["fire", "earth"], ["wind", "lift"]]
    assert game.mark == 2  # the water does not rise during setup
    assert game.treasure_pile.count("waters_rise") == 3 and game.treasure_discard == []
    assert [pile for pile, _ in shuffler.log] == ["treasure"]  # the deck was reshuffled once
    assert len(game.treasure_pile) == 28 - 4


def test_f3_pawns_start_on_their_tile_even_if_flooded():
    flood = ("iron_gate", "fools_landing") + tuple(t for t in TILE_CODES if t not in ("iron_gate", "fools_landing"))
    setup = Setup(tuple(TILE_CODES), ("diver", "pilot"), flood, tuple(TREASURE_DECK))
    game = ForbiddenIslandEngine(Rules(players=2), setup)
    assert game.state["iron_gate"] == FLOODED and game.state["fools_landing"] == FLOODED
    assert game.pawns == [game.place_of["iron_gate"], game.place_of["fools_landing"]]


# --- F4 Water meter ----------------------------------------------------------------------------------


def test_f4_flood_counts_and_starting_marks():
    assert [FLOOD_DRAWS[m] for m in range(1, 10)] == [2, 2, 3, 3, 3, 4, 4, 5, 5]
    assert DIFFICULTIES == {"novice": 1, "normal": 2, "elite": 3, "legendary": 4}
    for difficulty, mark in DIFFICULTIES.items():
        assert new_game(Rules(difficulty=difficulty), seed=1).mark == mark
    with pytest.raises(RuleError, match="rules.difficulty"):
        Rules(difficulty="easy")


def test_f4_difficulty_changes_the_starting_mark_only():
    games = [new_game(Rules(players=3, difficulty=d), seed=9) for d in DIFFICULTIES]
    for g in games[1:]:
        assert g.setup == games[0].setup and g.hands == games[0].hands and g.state == games[0].state


@pytest.mark.parametrize("mark", range(1, 10))
def test_f4_each_mark_draws_its_count(mark):
    game = arranged(["engineer", "messenger"])
    game.mark = mark
    to_flood_phase(game)
    assert game.floods_left == FLOOD_DRAWS[mark]


# --- F5 Turn ---------------------------------------------------------------------------------------------


def test_f5_three_actions_then_two_draws_then_floods():
    game = arranged(["engineer", "messenger"])
    act(game, "move 4,2", "move 4,3", "move 4,4")
    assert game.phase == "treasure_draw" and game.draws_left == 2
    assert "move" not in kinds(game)
    act(game, "draw")
    assert game.phase == "treasure_draw"
    act(game, "draw")
    assert game.phase == "flood_draw" and game.floods_left == 2
    act(game, "flood")
    assert game.current == 0
    act(game, "flood")
    assert game.current == 1 and game.phase == "actions" and game.actions_left == 3


def test_f5_fewer_actions_drawing_early():
    game = arranged(["engineer", "messenger"])
    act(game, "move 4,2", "draw")
    assert game.phase == "treasure_draw" and game.draws_left == 1 and len(game.hands[0]) == 1


def test_f5_flood_count_fixed_at_the_start_of_the_flood_draw():
    """The count is read after both treasure draws (so a Waters Rise! in them counts) and
    then stays fixed while the flood cards are drawn."""
    game = arranged(["engineer", "messenger"])
    game.mark = 5  # 3 flood cards at mark 5, 4 at mark 6
    treasure_top(game, ["earth", "waters_rise"])
    hand(game, 1, ["sandbags"])
    assert game.flood_count == 3
    to_flood_phase(game)
    assert game.mark == 6 and game.floods_left == 4
    act(game, "flood")
    set_state(game, [game.flood_discard[-1]], FLOODED)
    act(game, f"sandbags 1 {','.join(map(str, game.place_of[game.flood_discard[-1]]))}")
    assert game.floods_left == 3
    act(game, "flood", "flood", "flood")
    assert game.turn == 2 and sum(e["kind"] in ("flood", "sink") for e in game.events if e["turn"] == 1) == 4


# --- F6 Waters Rise! ---------------------------------------------------------------------------------


def test_f6_waters_rise_in_play():
    game = arranged(["engineer", "messenger"])
    flood_discard(game, ["watchtower", "observatory", "lost_lagoon"])
    below = list(game.flood_pile)
    treasure_top(game, ["waters_rise", "fire"])
    act(game, "draw")
    assert game.mark == 2
    assert sorted(game.flood_pile[:3]) == sorted(["watchtower", "observatory", "lost_lagoon"])
    assert game.flood_pile[3:] == below and game.flood_discard == []
    assert game.treasure_discard == ["waters_rise"]
    assert game.hands[0] == []  # it used one of the two draws, with no replacement
    act(game, "draw")
    assert game.hands[0] == ["fire"] and game.phase == "flood_draw"


def test_f6_two_waters_rise_in_one_turn():
    game = arranged(["engineer", "messenger"], difficulty="normal")
    flood_discard(game, ["watchtower", "observatory"])
    treasure_top(game, ["waters_rise", "waters_rise"])
    act(game, "draw")
    after_first = list(game.flood_pile)
    act(game, "draw")
    assert game.mark == 4  # two marks up
    assert game.flood_pile == after_first  # the second reshuffle found an empty discard
    assert game.treasure_discard == ["waters_rise", "waters_rise"]
    assert game.floods_left == FLOOD_DRAWS[4]


def test_f6_waters_rise_with_an_empty_flood_discard_only_raises():
    game = arranged(["engineer", "messenger"])
    pile = list(game.flood_pile)
    treasure_top(game, ["waters_rise"])
    act(game, "draw")
    assert game.mark == 2 and game.flood_pile == pile


# --- F7 Decks -----------------------------------------------------------------------------------------


def test_f7_empty_treasure_pile_is_replaced_at_once():
    game = arranged(["engineer", "messenger"])
    treasure_discard(game, list(game.treasure_pile[2:]))
    assert len(game.treasure_pile) == 2
    act(game, "draw")
    act(game, "draw")  # the pile empties: the discard becomes the new pile at once
    assert len(game.treasure_pile) == 26 and game.treasure_discard == []
    assert any(e["kind"] == "treasure_reshuffle" for e in game.events)


def test_f7_captured_treasure_cards_stay_in_circulation():
    game = arranged(["engineer", "messenger"])
    hand(game, 0, ["fire"] * 4)
    game.pawns[0] = place(game, "cave_of_embers")
    act(game, "capture")
    assert game.captured == ["fire"] and game.treasure_discard == ["fire"] * 4
    assert Counter(game.treasure_cards()) == Counter(TREASURE_DECK)


def test_f7_sunk_tile_card_leaves_the_game_and_empty_flood_pile_is_refilled():
    game = arranged(["engineer", "messenger"])
    flood_top(game, ["watchtower"])
    flood_discard(game, list(game.flood_pile[1:]))  # one card left in the pile
    top = "watchtower"
    set_state(game, [top], FLOODED)
    to_flood_phase(game)
    act(game, "flood")  # sinks `top`, empties the pile: the discard is reshuffled at once
    assert game.state[top] == SUNK and game.flood_out == [top]
    assert top not in game.flood_pile + game.flood_discard
    assert len(game.flood_pile) == 23
    act(game, "flood")  # the remaining draw comes from the new pile
    assert game.turn == 2


def test_f7_a_tile_can_come_up_twice_in_one_flood_phase():
    game = arranged(["engineer", "messenger"])
    flood_discard(game, [t for t in TILE_CODES if t != "watchtower"])  # only watchtower in the pile
    game.shuffler = Shuffler(script=[("flood", ["watchtower"] + [t for t in TILE_CODES if t != "watchtower"])])
    to_flood_phase(game)
    act(game, "flood")
    assert game.state["watchtower"] == FLOODED and game.flood_pile[0] == "watchtower"
    act(game, "flood")
    assert game.state["watchtower"] == SUNK


# --- F8 Hand limit ---------------------------------------------------------------------------------------


def test_f8_a_sixth_card_must_be_discarded_at_once():
    game = arranged(["engineer", "messenger"])
    hand(game, 0, ["earth", "earth", "fire", "fire", "wind"])
    treasure_top(game, ["chalice", "wind"])
    act(game, "draw")
    assert game.phase == "discard" and game.over_limit() == 0
    with pytest.raises(IllegalAction, match="discard"):
        act(game, "draw")  # the next draw waits for the discard
    legal = game.legal_actions()
    assert {a.kind for a in legal} == {"discard"}
    assert {a.card for a in legal} == {"earth", "fire", "wind", "chalice"}  # the player chooses
    act(game, "discard 0 fire")
    assert len(game.hands[0]) == 5 and game.treasure_discard == ["fire"]
    assert game.phase == "treasure_draw"


def test_f8_hand_limit_out_of_turn_with_a_special_card_instead_of_a_discard():
    """A gift pushes the receiver above five during someone else's turn; the receiver plays
    Sandbags instead of discarding, and nobody else may act until then."""
    game = arranged(["messenger", "engineer", "diver"])
    hand(game, 0, ["wind"])
    hand(game, 1, ["earth", "earth", "fire", "chalice", "sandbags"])
    hand(game, 2, ["lift"])
    set_state(game, ["watchtower"], FLOODED)
    act(game, "give 1 wind")  # the Messenger gives from afar
    assert game.phase == "discard" and game.over_limit() == 1 and game.current == 0
    with pytest.raises(IllegalAction, match="player 1"):
        act(game, "lift 2 2 3,1")  # player 2's Helicopter Lift must wait (F8)
    assert {a.by for a in game.legal_actions()} == {1}
    act(game, f"sandbags 1 {place(game, 'watchtower')[0]},{place(game, 'watchtower')[1]}")
    assert len(game.hands[1]) == 5 and game.state["watchtower"] == DRY
    assert game.phase == "actions" and game.actions_left == 2  # only the gift cost an action


def test_f8_helicopter_lift_instead_of_discarding():
    game = arranged(["engineer", "messenger"])
    hand(game, 1, ["earth", "earth", "fire", "chalice", "lift"])
    treasure_top(game, ["wind"])
    game.current = 1
    game.pawns[0] = game.pawns[1]
    act(game, "draw")
    assert game.over_limit() == 1
    act(game, "lift 1 0+1 3,1")
    assert game.pawns == [(3, 1), (3, 1)] and len(game.hands[1]) == 5


# --- F9 Special cards -------------------------------------------------------------------------------------


@pytest.mark.parametrize("stage", ["actions", "treasure_draw", "flood_draw"])
def test_f9_helicopter_lift_out_of_turn_at_any_decision_point(stage):
    game = arranged(["engineer", "messenger", "diver"])
    hand(game, 2, ["lift"])
    game.pawns[1] = game.pawns[0]
    if stage != "actions":
        act(game, "draw")
    if stage == "flood_draw":
        act(game, "draw")
    assert game.phase == stage
    actions_left = game.actions_left
    act(game, "lift 2 0+1 4,6")  # player 2 lifts two others, not itself
    assert game.pawns[0] == game.pawns[1] == (4, 6) and game.pawns[2] == place(game, "iron_gate")
    assert game.phase == stage and game.actions_left == actions_left  # not an action
    assert "lift" in game.treasure_discard


def test_f9_sandbags_between_flood_draws_out_of_turn():
    game = arranged(["engineer", "messenger"])
    hand(game, 1, ["sandbags"])
    flood_top(game, ["watchtower", "observatory"])
    to_flood_phase(game)
    act(game, "flood")
    assert game.state["watchtower"] == FLOODED
    act(game, "sandbags 1 4,6")  # anywhere on the island, on the other player's turn
    assert game.state["watchtower"] == DRY and game.floods_left == 1


def test_f9_lift_moves_any_subset_of_pawns_standing_together_to_a_standing_tile():
    game = arranged(["engineer", "messenger", "diver"])
    hand(game, 0, ["lift"])
    for seat in range(3):
        game.pawns[seat] = (3, 4)
    lifts = [a for a in game.legal_actions() if a.kind == "lift" and a.place == (4, 6)]
    assert {a.pawns for a in lifts} == {(0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2)}
    set_state(game, [(4, 6)], SUNK)
    with pytest.raises(IllegalAction, match="sunk"):
        act(game, "lift 0 1 4,6")
    game.pawns[2] = (3, 5)
    with pytest.raises(IllegalAction, match="together"):
        act(game, "lift 0 1+2 3,1")


def test_f9_no_special_card_while_a_pawn_swims_or_after_the_end():
    game = arranged(["engineer", "messenger"])
    hand(game, 1, ["lift", "sandbags"])
    set_state(game, ["misty_marsh", "watchtower"], FLOODED)
    game.pawns[0] = place(game, "misty_marsh")
    flood_top(game, ["misty_marsh"])
    to_flood_phase(game)
    act(game, "flood")
    assert game.phase == "swim"
    assert kinds(game) == {"swim"}
    with pytest.raises(IllegalAction, match="swim"):
        act(game, "sandbags 1 4,6")
    act(game, "swim 0 3,4")
    assert "sandbags" in kinds(game)
    game.outcome = "water"
    assert game.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        act(game, "sandbags 1 4,6")


def test_f9_special_cards_are_never_given():
    game = arranged(["engineer", "messenger"])
    hand(game, 0, ["lift", "sandbags", "fire"])
    game.pawns[1] = game.pawns[0]
    gives = {a.card for a in game.legal_actions() if a.kind == "give"}
    assert gives == {"fire"}
    with pytest.raises(IllegalAction, match="only treasure cards"):
        act(game, "give 1 lift")


# --- F12 Capture ------------------------------------------------------------------------------------------


def test_f12_capture_on_a_flooded_pickup_tile():
    game = arranged(["engineer", "messenger"])
    hand(game, 0, ["wind"] * 4 + ["earth"])
    game.pawns[0] = place(game, "tidal_palace")
    set_state(game, ["tidal_palace"], FLOODED)
    act(game, "capture")
    assert game.captured == ["wind"] and game.hands[0] == ["earth"] and game.actions_left == 2


@pytest.mark.parametrize("cards, tile, captured", [
    (["wind"] * 3, "tidal_palace", []),  # too few
    (["wind"] * 4, "temple_of_the_sun", []),  # the wrong tile
    (["wind"] * 4, "breakers_bridge", []),  # no pickup tile
    (["wind"] * 4, "coral_palace", ["wind"]),  # captured already
])
def test_f12_no_capture_otherwise(cards, tile, captured):
    game = arranged(["engineer", "messenger"])
    hand(game, 0, cards)
    game.captured = list(captured)
    game.pawns[0] = place(game, tile)
    assert "capture" not in kinds(game)
    with pytest.raises(IllegalAction, match="capture"):
        act(game, "capture")


def test_f12_cards_spread_over_hands_do_not_capture():
    game = arranged(["engineer", "messenger"])
    hand(game, 0, ["fire"] * 2)
    hand(game, 1, ["fire"] * 2)
    game.pawns = [place(game, "cave_of_embers")] * 2
    assert "capture" not in kinds(game)


# --- F13 Win ------------------------------------------------------------------------------------------------


def _ready_to_leave(game: ForbiddenIslandEngine) -> None:
    game.captured = list(TREASURES)
    game.pawns = [place(game, FOOLS_LANDING)] * game.rules.players


def test_f13_the_win_out_of_turn_by_anyone_holding_a_lift():
    game = arranged(["engineer", "messenger", "diver"])
    _ready_to_leave(game)
    hand(game, 2, ["lift"])
    set_state(game, [FOOLS_LANDING], FLOODED)  # flooded is fine
    act(game, "draw")  # player 0's turn, treasure draw phase
    assert Action("liftoff", by=2) in game.legal_actions()
    act(game, "liftoff 2")
    assert game.outcome == "win" and game.over and game.legal_actions() == []


def test_f13_no_win_without_every_pawn_treasure_and_a_lift():
    game = arranged(["engineer", "messenger"])
    _ready_to_leave(game)
    assert "liftoff" not in kinds(game)  # nobody holds a Helicopter Lift
    hand(game, 1, ["lift"])
    assert "liftoff" in kinds(game)
    game.pawns[0] = (4, 1)
    assert "liftoff" not in kinds(game)
    with pytest.raises(IllegalAction, match="every pawn"):
        act(game, "liftoff 1")
    _ready_to_leave(game)
    game.captured = ["earth", "fire", "wind"]
    assert "liftoff" not in kinds(game)
    assert game.outcome is None


# --- F14 Losses ---------------------------------------------------------------------------------------------


def test_f14_water_reaches_the_skull():
    game = arranged(["engineer", "messenger"], difficulty="legendary")
    game.mark = 9
    hand(game, 1, ["sandbags"])
    treasure_top(game, ["waters_rise"])
    act(game, "draw")
    assert game.mark == 10 and game.outcome == "water" and game.legal_actions() == []


def test_f14_a_waters_rise_at_the_skull_shuffles_nothing():
    """The rise to the skull is the loss: the flood discard stays where it is and the emptied
    treasure pile is not refilled, so a record of the game lists no shuffle after it."""
    game = waters_rise_to_the_skull()
    flood_pile = list(game.flood_pile)
    act(game, "draw")
    assert game.outcome == "water" and game.shuffler.log == []
    assert game.flood_pile == flood_pile and sorted(game.flood_discard) == ["observatory", "watchtower"]
    assert game.treasure_pile == [] and len(game.treasure_discard) == 28
    assert [e["kind"] for e in game.events[-3:]] == ["draw", "waters_rise", "loss"]


def test_f14_a_losing_sinking_leaves_the_empty_flood_pile_as_it_is():
    game = last_flood_card_sinks_fools_landing()
    act(game, "flood")
    assert game.outcome == "fools_landing" and game.shuffler.log == []
    assert game.flood_pile == [] and len(game.flood_discard) == 23
    assert [e["kind"] for e in game.events[-2:]] == ["sink", "loss"]


def test_f14_both_pickup_tiles_of_an_uncaptured_treasure():
    game = arranged(["engineer", "messenger"])
    set_state(game, ["cave_of_embers"], SUNK)
    set_state(game, ["cave_of_shadows"], FLOODED)
    flood_top(game, ["cave_of_shadows"])
    to_flood_phase(game)
    act(game, "flood")
    assert game.outcome == "treasure"


def test_f14_both_pickup_tiles_of_a_captured_treasure_sink_harmlessly():
    game = arranged(["engineer", "messenger"])
    game.captured = ["fire"]
    set_state(game, ["cave_of_embers"], SUNK)
    set_state(game, ["cave_of_shadows"], FLOODED)
    flood_top(game, ["cave_of_shadows"])
    to_flood_phase(game)
    act(game, "flood")
    assert game.outcome is None


def test_f14_fools_landing_sinks():
    """Lost at once, before the pawn standing there could swim away."""
    game = arranged(["engineer", "messenger"])
    set_state(game, [FOOLS_LANDING], FLOODED)
    game.pawns[1] = place(game, FOOLS_LANDING)
    flood_top(game, [FOOLS_LANDING])
    to_flood_phase(game)
    act(game, "flood")
    assert game.outcome == "fools_landing" and game.phase == "over" and game.legal_actions() == []


def test_f14_first_cause_wins_drowned_before_fools_landing():
    game = arranged(["engineer", "messenger"])
    set_state(game, ["bronze_gate", "gold_gate"], SUNK)  # Fools' Landing's only neighbours
    set_state(game, [FOOLS_LANDING], FLOODED)
    game.pawns[1] = place(game, FOOLS_LANDING)
    flood_top(game, [FOOLS_LANDING])
    to_flood_phase(game)
    act(game, "flood")
    assert game.outcome == "drowned"


def test_f14_a_loss_is_not_undone_by_a_later_card():
    """The second Cave sinks: the game is lost at once, and no Sandbags or Helicopter Lift
    played afterwards (nor the rest of the flood draw) changes it."""
    game = arranged(["engineer", "messenger"])
    hand(game, 1, ["sandbags", "lift"])
    set_state(game, ["cave_of_embers"], SUNK)
    set_state(game, ["cave_of_shadows", "watchtower"], FLOODED)
    flood_top(game, ["cave_of_shadows"])
    to_flood_phase(game)
    act(game, "flood")
    assert game.outcome == "treasure"
    assert game.legal_actions() == [] and game.phase == "over"
    for text in ("sandbags 1 4,6", "lift 1 0 4,6", "flood", "draw"):
        with pytest.raises(IllegalAction, match="over"):
            act(game, text)
    assert game.outcome == "treasure" and game.hands[1] == ["sandbags", "lift"]


def test_f14_a_drowned_pawn_ends_the_game():
    game = arranged(["engineer", "messenger"])
    # the Messenger on Twilight Hollow (3,6), whose side neighbours are 3,5 and 4,6
    set_state(game, ["misty_marsh", "watchtower"], SUNK)
    set_state(game, ["twilight_hollow"], FLOODED)
    game.pawns[1] = place(game, "twilight_hollow")
    flood_top(game, ["twilight_hollow"])
    to_flood_phase(game)
    act(game, "flood")
    assert game.outcome == "drowned" and game.phase == "over"


# --- What the players see (the draw piles are hidden) --------------------------------------------


def test_public_view_hides_only_the_order_of_the_draw_piles():
    game = new_game(Rules(players=3), seed=21)
    other = new_game(Rules(players=3), seed=21)
    rng = random.Random(0)
    rng.shuffle(other.treasure_pile)
    rng.shuffle(other.flood_pile)  # one layer at the start: its order is hidden
    assert other.flood_pile != game.flood_pile and other.treasure_pile != game.treasure_pile
    assert other.public_view() == game.public_view()
    # a card that changes hands with the pile is seen
    i = next(i for i, c in enumerate(other.treasure_pile) if c != other.hands[0][0])
    other.hands[0][0], other.treasure_pile[i] = other.treasure_pile[i], other.hands[0][0]
    assert other.public_view() != game.public_view()


def test_public_view_after_waters_rise_shows_the_old_discard_on_top():
    """F6: the flood discard goes back on top, shuffled: the table knows which cards come next,
    though not in which order."""
    game = arranged(["engineer", "messenger"])
    flood_discard(game, ["watchtower", "observatory", "lost_lagoon"])
    treasure_top(game, ["waters_rise"])
    act(game, "draw")
    layers = game.public_view().flood_layers
    assert layers[0] == ("lost_lagoon", "observatory", "watchtower")
    assert len(layers) == 2 and len(layers[1]) == 21
    act(game, "draw", "flood")
    assert len(game.public_view().flood_layers[0]) == 2
