"""One or more focused tests for every ruling R1-R19 (../shared/rules/RULINGS.md).

Situations are built either as small records (RECORD-FORMAT.md) or by setting up a `IslandEscapeEngine` by hand.
"""

from __future__ import annotations

import pytest

from sim.island_escape.engine import (
    DOWN,
    DRY,
    FLOODED,
    SEA,
    IllegalAction,
    IslandEscapeEngine,
    PileSource,
    PublicView,
    deal,
    new_game,
)
from sim.island_escape.lockstep import shadow
from sim.island_escape.records import RecordError, parse_record, result_json
from sim.island_escape.rules import (
    FULL_GAUGE,
    HELICOPTER,
    ISLAND_CARDS,
    KINGS,
    LAND_CARDS,
    RuleError,
    Rules,
    floods_per_turn,
    gauge_of_length,
    is_card_code,
)

from .support import act, check, everything_but, grid, kinds, make_game, play, record, set_state, sink


@pytest.fixture(autouse=True)
def through_the_kernel():
    """Every scenario below also runs through the kernel: each action, `check` and flood the
    engine plays is played by the kernel's rule primitives on the same state and compared
    (sim/island_escape/lockstep.py), so each ruling is pinned in the kernel as well."""
    with shadow() as seen:
        yield seen
    KERNEL_STEPS.append(seen)


KERNEL_STEPS = []  # what each scenario compared, for the coverage check at the end of this file

# A fully named layout (rows top first); the Kings sit at 3,1 (S), 1,3 (H), 5,3 (D), 3,5 (C).
BASE_ROWS = [
    ["9S", "6S", "KS", "7S", "10S"],
    ["6D", "8S", "6H", "7H", "8C"],
    ["KH", "9C", "JK", "8H", "KD"],
    ["7D", "8D", "7C", "9H", "10H"],
    ["9D", "10D", "KC", "6C", "10C"],
]
BASE = {(c, r): BASE_ROWS[r - 1][c - 1] for r in range(1, 6) for c in range(1, 6)}

# One diagonal hit in every pass: each column and row once, never a King or the helicopter. The
# first pass floods these five land tiles, the second sinks them, later passes hit only sea.
DIAGONAL = [(1, 2), (2, 3), (3, 4), (4, 5), (5, 1)]
DIAGONAL_NAMED = {(1, 2): "6S", (2, 3): "7S", (3, 4): "6H", (4, 5): "7H", (5, 1): "6D",
                  (3, 2): "KS", (4, 3): "KH", (2, 2): "KD", (4, 4): "KC"}


def base_game(rules: Rules | None = None, floods=(), **kw) -> IslandEscapeEngine:
    return make_game(rules or Rules(**kw), BASE, floods)


def started(game: IslandEscapeEngine) -> IslandEscapeEngine:
    game.begin_turn()
    return game


def place_of(game: IslandEscapeEngine, card: str):
    (place,) = [p for p, t in game.board.items() if t.card == card]
    return place


# --- R1 Cards --------------------------------------------------------------------------------


def test_r1_card_codes_rank_then_suit():
    for code in ("AS", "10C", "KH", "JK", "5D"):
        assert is_card_code(code), code
    for code in ("1S", "11C", "KX", "SK", "J", "", "10"):
        assert not is_card_code(code), code
    assert KINGS == ("KS", "KH", "KD", "KC")
    assert sorted(LAND_CARDS) == sorted(f"{r}{s}" for r in range(6, 11) for s in "SHDC")
    assert len(ISLAND_CARDS) == 24


def test_r1_flood_pair_is_column_then_row():
    # R1: the spade (column) card gives the column, the heart (row) card the row. 9C lies at
    # column 4, row 2 and 8C at the mirrored column 2, row 4: a flood [4, 2] must hit 9C.
    data = record(layout=grid({(4, 2): "9C", (2, 4): "8C"}), floods=[[4, 2]], turns=[[]])
    game = play(data)
    (flood,) = kinds(game, "flood")
    assert flood["at"] == [4, 2] and flood["card"] == "9C"
    assert game.board[(4, 2)].state == FLOODED
    assert game.board[(2, 4)].state == DOWN


# --- R2 Places -------------------------------------------------------------------------------


def test_r2_layout_rows_top_first_columns_from_left():
    game = parse_record(record(layout=grid({(5, 1): "KS", (1, 5): "KH"}))).new_game()
    assert game.board[(5, 1)].card == "KS"  # top row, last column
    assert game.board[(1, 5)].card == "KH"  # bottom row, first column
    assert game.board[HELICOPTER].card == "JK" and HELICOPTER == (3, 3)


def test_r2_up_is_towards_row_1_and_left_towards_column_1():
    game = started(base_game())
    act(game, "move up")
    assert game.pawns[0] == (3, 2)
    act(game, "move left")
    assert game.pawns[0] == (2, 2)
    act(game, "move down", "move right")
    assert game.pawns[0] == (3, 3)


def test_r2_next_to_is_orthogonal_only():
    game = started(base_game())
    set_state(game, FLOODED, (4, 2))
    set_state(game, DRY, (2, 2))
    assert "next to" in check(game, "shore 4,2")
    assert "next to you" in check(game, "salvage 2,2")


# --- R3 Gauge --------------------------------------------------------------------------------


def test_r3_water_level_is_rank_of_top_card():
    assert FULL_GAUGE == ("AC", "AD", "2C", "2D", "3C", "3D", "4C", "4D", "5C")
    levels = []
    game = base_game()
    while game.gauge:
        levels.append(game.water_level)
        game.gauge.pop(0)
    assert levels == [1, 1, 2, 2, 3, 3, 4, 4, 5]
    assert base_game(gauge=("3D", "4C")).water_level == 3


def test_r3_gauge_only_ace_to_five_of_clubs_and_diamonds_each_once():
    assert Rules(gauge=gauge_of_length(10)).gauge == FULL_GAUGE + ("5D",)  # 5D may be added
    for bad in (["6C"], ["AS"], ["5H"], ["JK"], ["AC", "AC"], []):
        with pytest.raises(RuleError):
            Rules(gauge=bad)


def test_r3_gauge_order_is_free():
    # Decision (h): experiments may lay the gauge in any order.
    rules = Rules(gauge=("3C", "AC"))
    assert make_game(rules, BASE).water_level == 3


# --- R4 Setup --------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_r4_setup(seed):
    game = new_game(Rules(players=3), seed)
    cards = [game.board[p].card for p in game.board if p != HELICOPTER]
    assert sorted(cards) == sorted(ISLAND_CARDS)
    assert game.board[HELICOPTER].card == "JK" and game.board[HELICOPTER].state == DRY
    assert all(t.state == DOWN for p, t in game.board.items() if p != HELICOPTER)
    assert game.pawns == [HELICOPTER] * 3
    assert sorted(game.col_pile) == [1, 2, 3, 4, 5] and sorted(game.row_pile) == [1, 2, 3, 4, 5]


def test_r4_deal_keeps_named_cards_and_uses_each_card_once():
    layout = deal(3, {(1, 1): "KS"})
    assert layout[(1, 1)] == "KS" and layout[HELICOPTER] == "JK"
    assert sorted(c for p, c in layout.items() if p != HELICOPTER) == sorted(ISLAND_CARDS)


def test_r4_column_and_row_piles_shuffled_independently():
    orders = [PileSource(seed).piles(0) for seed in range(20)]
    assert any(cols != rows for cols, rows in orders)
    assert len({tuple(cols) for cols, _ in orders}) > 5


def test_r4_pawn_0_first_then_in_order():
    game = base_game(players=3)
    order = []
    for _ in range(7):
        game.begin_turn()
        order.append(game.current_pawn)
        game.run_flood_phase()
    assert order == [0, 1, 2, 0, 1, 2, 0]


# --- R5 Players ------------------------------------------------------------------------------


def test_r5_solo_game_runs_two_pawns_and_records_one_player():
    rules = Rules(players=1)
    assert rules.pawns == 2 and rules.as_record()["players"] == 1
    game = play(record(rules={"players": 1}, layout=BASE_ROWS, turns=[["move up"], ["move down"]]))
    assert [(e["turn"], e["pawn"]) for e in kinds(game, "move")] == [(1, 0), (2, 1)]
    assert game.pawns == [(3, 2), (3, 4)]


@pytest.mark.parametrize("players", [0, 5])
def test_r5_players_1_to_4(players):
    with pytest.raises(RuleError, match="players"):
        Rules(players=players)


# --- R6 Actions ------------------------------------------------------------------------------


def test_r6_four_actions_then_no_more():
    game = started(base_game())
    act(game, "move up", "move down", "move up", "move down")
    assert check(game, "move up") == "all 4 actions of the turn are used"


def test_r6_unused_actions_are_lost():
    game = started(base_game(players=1))
    act(game, "move up")
    game.run_flood_phase()
    game.begin_turn()
    assert game.actions_left == 4
    game.run_flood_phase()
    game.begin_turn()  # pawn 0 again: still 4, not 7
    assert game.current_pawn == 0 and game.actions_left == 4


def test_r6_actions_per_turn_is_a_parameter():
    game = started(base_game(actions_per_turn=6))
    act(game, *["move up", "move down"] * 3)
    assert check(game, "move up") == "all 6 actions of the turn are used"


# --- R7 Move ---------------------------------------------------------------------------------


def test_r7_move_explores_a_face_down_tile():
    game = started(base_game())
    act(game, "move right")
    assert game.pawns[0] == (4, 3)
    assert game.board[(4, 3)].state == DRY
    assert kinds(game, "move")[-1] == {"turn": 1, "pawn": 0, "kind": "move", "at": [4, 3], "card": "8H"}
    assert game.actions_left == 3


def test_r7_move_refused_onto_sea_and_off_the_island():
    game = started(base_game())
    sink(game, (3, 2))
    assert "sea" in check(game, "move up")
    game.pawns[0] = (1, 1)
    assert check(game, "move up") == "that is off the island"
    assert check(game, "move left") == "that is off the island"


def test_r7_move_onto_flooded_tile_and_share_a_place():
    game = started(base_game())
    set_state(game, FLOODED, (3, 2))
    game.pawns[1] = (3, 2)
    act(game, "move up")
    assert game.pawns == [(3, 2), (3, 2)]
    assert game.board[(3, 2)].state == FLOODED  # entering does not change a flooded tile


# --- R8 Swim ---------------------------------------------------------------------------------


def test_r8_swim_across_exactly_one_sea_place():
    game = started(base_game())
    sink(game, (3, 2))
    act(game, "swim up")
    assert game.pawns[0] == (3, 1)
    assert game.actions_left == 2  # a swim costs 2
    assert game.board[(3, 1)].state == DRY  # the tile reached is explored
    assert kinds(game, "swim") == [{"turn": 1, "pawn": 0, "kind": "swim", "at": [3, 1], "card": "KS"}]


def test_r8_swim_refused_over_a_tile():
    game = started(base_game())
    assert "exactly one sea place" in check(game, "swim up")  # 3,2 is a tile: walk instead


def test_r8_swim_refused_onto_sea_or_off_the_island():
    game = started(base_game())
    sink(game, (3, 2), (3, 1))
    assert "must end on a tile" in check(game, "swim up")
    game.pawns[0] = (4, 1)
    assert check(game, "swim right") == "that is off the island"


def test_r8_swim_refused_with_one_action_left():
    game = started(base_game())
    sink(game, (3, 2))
    set_state(game, FLOODED, HELICOPTER)
    act(game, "move right", "move left", "shore 3,3")  # back on 3,3 with one action left
    assert check(game, "swim up") == "a swim costs 2 actions and only 1 are left"
    with pytest.raises(IllegalAction):
        act(game, "swim up")
    assert game.pawns[0] == HELICOPTER and game.actions_left == 1


def test_r8_divers_swim_costs_one():
    rules = Rules().with_variant("divers")
    assert rules.swim_cost == 1
    game = started(make_game(rules, BASE))
    sink(game, (3, 2))
    set_state(game, FLOODED, HELICOPTER)
    act(game, "move right", "move left", "shore 3,3")
    assert game.actions_left == 1
    act(game, "swim up")
    assert game.pawns[0] == (3, 1) and game.actions_left == 0


def test_r8_swim_cost_three():
    game = started(base_game(swim_cost=3))
    sink(game, (3, 2))
    act(game, "swim up")
    assert game.actions_left == 1


# --- R9 Shore up -----------------------------------------------------------------------------


def test_r9_shore_own_place_and_next_to_you():
    game = started(base_game())
    set_state(game, FLOODED, (3, 3), (3, 4))
    act(game, "shore 3,3", "shore 3,4")
    assert game.board[(3, 3)].state == DRY and game.board[(3, 4)].state == DRY
    assert [e["at"] for e in kinds(game, "shore")] == [[3, 3], [3, 4]]


def test_r9_shore_refused_on_dry_far_or_diagonal_places():
    game = started(base_game())
    set_state(game, FLOODED, (3, 1), (2, 2))
    set_state(game, DRY, (3, 2))
    assert "not flooded" in check(game, "shore 3,2")
    assert "not flooded" in check(game, "shore 3,3")
    assert "next to" in check(game, "shore 3,1")
    assert "next to" in check(game, "shore 2,2")


# --- R10 Salvage -----------------------------------------------------------------------------


@pytest.mark.parametrize("state", [DRY, FLOODED])
def test_r10_salvage_face_up_land_tile_dry_or_flooded(state):
    game = started(base_game())
    set_state(game, state, (3, 2))
    act(game, "salvage 3,2")
    assert game.salvage[0] == ["6H"]
    assert game.board[(3, 2)].state == SEA and game.board[(3, 2)].card is None
    assert kinds(game, "salvage") == [{"turn": 1, "pawn": 0, "kind": "salvage", "at": [3, 2], "card": "6H"}]


def test_r10_salvage_refused_for_kings():
    game = started(base_game())
    game.pawns[0] = (2, 3)
    set_state(game, DRY, (1, 3), (2, 3))  # KH
    assert check(game, "salvage 1,3") == "Kings can never be salvaged"


def test_r10_salvage_refused_for_the_helicopter():
    game = started(base_game())
    game.pawns[0] = (3, 2)
    set_state(game, DRY, (3, 2))
    assert check(game, "salvage 3,3") == "the helicopter can never be salvaged"


def test_r10_salvage_refused_for_face_down_tiles():
    game = started(base_game())
    assert "face down" in check(game, "salvage 3,2")


def test_r10_salvage_refused_for_your_own_place():
    game = started(base_game())
    game.pawns[0] = (3, 2)
    set_state(game, DRY, (3, 2))
    assert check(game, "salvage 3,2") == "you cannot salvage your own place"


def test_r10_salvage_refused_where_a_pawn_stands():
    game = started(base_game())
    game.pawns[1] = (3, 2)
    set_state(game, DRY, (3, 2))
    assert check(game, "salvage 3,2") == "a pawn stands there"


def test_r10_salvage_refused_for_sea_and_far_places():
    game = started(base_game())
    sink(game, (3, 2))
    set_state(game, DRY, (3, 1))
    assert check(game, "salvage 3,2") == "that place is sea"
    assert "next to you" in check(game, "salvage 3,1")


# --- R11 Give --------------------------------------------------------------------------------


def test_r11_give_any_number_to_a_pawn_on_your_place():
    game = started(base_game(players=3))
    game.salvage[0] = ["6S", "7S", "8H"]
    act(game, "give 2 6S 8H")
    assert game.salvage == [["7S"], [], ["6S", "8H"]]
    (event,) = kinds(game, "give")
    assert event == {"turn": 1, "pawn": 0, "kind": "give", "at": [3, 3], "card": None, "to": 2,
                     "cards": ["6S", "8H"]}


def test_r11_give_only_on_the_same_place():
    game = started(base_game())
    game.salvage[0] = ["6S"]
    game.pawns[1] = (3, 2)
    assert check(game, "give 1 6S") == "pawn 1 does not stand on your place"
    game.pawns[1] = (3, 3)
    assert check(game, "give 1 6S") is None


def test_r11_give_refused_without_the_cards_or_to_yourself():
    game = started(base_game())
    game.salvage[0] = ["6S"]
    assert check(game, "give 1 7S") == "7S is not in your salvage"
    assert check(game, "give 1 6S 6S") == "a card is named twice"
    assert check(game, "give 0 6S") == "you cannot give cards to yourself"
    assert check(game, "give 2 6S") == "there is no pawn 2"


def test_r11_legal_actions_list_whole_suits_but_any_give_is_accepted():
    # Decision (g): legal_actions offers "all cards of one suit to one pawn"; apply takes any give.
    game = started(base_game(players=3))
    game.salvage[0] = ["6S", "8H", "7S"]
    game.pawns[2] = (3, 2)
    gives = {str(a) for a in game.legal_actions() if a.kind == "give"}
    assert gives == {"give 1 6S 7S", "give 1 8H"}
    act(game, "give 1 7S 8H")
    assert game.salvage[:2] == [["6S"], ["7S", "8H"]]


# --- R12 Raise -------------------------------------------------------------------------------


def on_king_of_spades(game: IslandEscapeEngine, hand: list[str], state: str = DRY) -> IslandEscapeEngine:
    """Pawn 0 on KS (3,1) holding `hand`, whose tiles are taken off the board (salvaged)."""
    sink(game, *(place_of(game, c) for c in hand))
    game.pawns[0] = (3, 1)
    set_state(game, state, (3, 1))
    game.salvage[0] = list(hand)
    return game


@pytest.mark.parametrize("state", [DRY, FLOODED])
def test_r12_raise_with_two_cards_of_the_kings_suit(state):
    game = on_king_of_spades(started(base_game()), ["6H", "6S", "7S"], state)
    act(game, "raise 6S 7S")
    assert game.raised == ["S"]
    assert game.under_kings == {"S": ["6S", "7S"]}
    assert game.salvage[0] == ["6H"]
    (event,) = kinds(game, "raise")
    assert event["at"] == [3, 1] and event["card"] == "KS" and event["cards"] == ["6S", "7S"]


def test_r12_raise_refused_with_wrong_suit_or_count_when_not_short():
    game = on_king_of_spades(started(base_game()), ["6S", "6H", "7H", "7S"])
    assert check(game, "raise 6S 6H") == "the raise takes 2 cards of S (the suit is not short)"
    assert check(game, "raise 6S 6H 7H") == "the raise takes 2 cards of S (the suit is not short)"
    assert check(game, "raise 6S") == "the raise takes 2 cards of S (the suit is not short)"


def test_r12_raise_refused_off_a_king_or_twice():
    game = on_king_of_spades(started(base_game()), ["6S", "7S", "8S", "9S"])
    game.pawns[0] = (3, 2)
    set_state(game, DRY, (3, 2))
    assert check(game, "raise 6S 7S") == "you are not standing on a King"
    game.pawns[0] = (3, 1)
    act(game, "raise 6S 7S")
    assert check(game, "raise 8S 9S") == "that treasure is raised already"


def test_r12_short_of_a_suit_raise_with_one_more_card_of_any_suits():
    game = on_king_of_spades(started(base_game()), ["6S", "6H", "7H"])
    # Only 6S (in salvage) is left of the spades: 7S 8S 9S 10S are gone (sea).
    sink(game, *(place_of(game, c) for c in ("7S", "8S", "9S", "10S")))
    assert game.suit_short("S")
    assert check(game, "raise 6S 6H") == "S is short of a suit: the raise takes 3 cards of any suits"
    act(game, "raise 6H 6S 7H")
    assert game.raised == ["S"] and game.salvage[0] == []
    assert not game.over


def test_r12_short_counts_face_down_tiles_and_every_salvage():
    game = on_king_of_spades(started(base_game()), ["6S"])
    sink(game, *(place_of(game, c) for c in ("8S", "9S", "10S")))
    assert place_of(game, "7S") == (4, 1) and game.board[(4, 1)].state == DOWN
    assert not game.suit_short("S")  # 6S in salvage + 7S face down = 2
    game.salvage[1] = ["7S"]
    sink(game, (4, 1))
    assert not game.suit_short("S")  # 7S now in pawn 1's salvage: still in play
    game.salvage[1] = []
    assert game.suit_short("S")


def test_r12_legal_actions_list_canonical_raises():
    game = on_king_of_spades(started(base_game()), ["8S", "6H", "6S", "7S"])
    raises = [str(a) for a in game.legal_actions() if a.kind == "raise"]
    assert raises == ["raise 8S 6S"]  # the first spades in salvage order
    act(game, "raise 7S 6S")  # any other legal choice is accepted too (decision (g))
    assert game.under_kings["S"] == ["7S", "6S"]


def test_r12_legal_actions_offer_the_short_raise():
    game = on_king_of_spades(started(base_game()), ["6S", "6H", "7H", "8C"])
    sink(game, *(place_of(game, c) for c in ("7S", "8S", "9S", "10S")))
    (raise_,) = [a for a in game.legal_actions() if a.kind == "raise"]
    assert len(raise_.cards) == 3 and set(raise_.cards) <= {"6S", "6H", "7H", "8C"}
    act(game, str(raise_))
    assert game.raised == ["S"] and len(game.salvage[0]) == 1


# --- R13 Take off ----------------------------------------------------------------------------


@pytest.mark.parametrize("state", [DRY, FLOODED])
def test_r13_take_off_wins(state):
    game = started(base_game())
    game.raised = ["S", "H", "D", "C"]
    set_state(game, state, HELICOPTER)
    act(game, "takeoff")
    assert game.outcome == "win" and game.over
    assert kinds(game, "takeoff")[0]["card"] == "JK"
    assert result_json(game)["outcome"] == "win" and result_json(game)["cause"] == "win"
    with pytest.raises(IllegalAction, match="over"):
        act(game, "move up")


def test_r13_take_off_refused_before_all_treasures_or_pawns():
    game = started(base_game())
    game.raised = ["S", "H", "D"]
    assert check(game, "takeoff") == "only 3 of 4 treasures are raised"
    game.raised.append("C")
    game.pawns[1] = (3, 2)
    assert check(game, "takeoff") == "not every pawn stands on the helicopter"


# --- R14 Floods ------------------------------------------------------------------------------


def test_r14_flood_dry_down_flooded_and_sea():
    floods = [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]
    game = started(base_game(gauge=("5C", "5D"), floods=floods))
    set_state(game, DRY, (2, 2))
    set_state(game, FLOODED, (4, 4))
    sink(game, (5, 5))
    game.run_flood_phase()
    assert game.board[(1, 1)].state == FLOODED  # face down: turned up and flooded
    assert game.board[(2, 2)].state == FLOODED
    assert game.board[(3, 3)].state == FLOODED
    assert game.board[(4, 4)].state == SEA  # flooded: sinks
    assert game.board[(5, 5)].state == SEA
    assert [(e.kind, e.at, e.card) for e in game.events] == [
        ("flood", (1, 1), "9S"), ("flood", (2, 2), "8S"), ("flood", (3, 3), "JK"),
        ("flood", (4, 4), "9H"), ("sink", (4, 4), "9H"), ("flood", (5, 5), None),
        ("rise", None, "5C")]
    assert game.box == ["9H"]
    assert game.gauge == ["5D"] and game.floods == 5


def diagonal_record(rules: dict, turns: int, passes: int = 9) -> dict:
    return record(rules=rules, layout=grid(DIAGONAL_NAMED),
                  floods=[list(p) for p in DIAGONAL] * passes, turns=[[] for _ in range(turns)])


def floods_by_turn(game: IslandEscapeEngine) -> list[int]:
    counts = [0] * game.turn
    for e in game.events:
        if e.kind == "flood":
            counts[e.turn - 1] += 1
    return counts


def test_r14_flood_count_fixed_at_start_of_the_phase():
    # Level 2: turns 1-2 flood twice each; in turn 3 the fifth flood comes first and the water
    # rises to 3, but the second flood of turn 3 still belongs to the level-2 phase.
    game = play(diagonal_record({"gauge": ["2C", "3C", "4C"]}, turns=6, passes=3))
    assert floods_by_turn(game) == [2, 2, 2, 3, 3, 3]
    turn3 = [(e.kind, e.card) for e in game.events if e.turn == 3]
    # (the sixth flood starts the second pass on 1,2 again, so that tile sinks)
    assert [k for k, _ in turn3] == ["flood", "rise", "flood", "sink"] and turn3[1][1] == "2C"
    assert game.outcome == "water" and game.floods == 15  # the 15th flood, mid-phase (R14)
    assert floods_per_turn(["2C", "3C", "4C"]) == [2, 2, 2, 3, 3, 3]


def test_r14_gauge_ace_then_two():
    game = play(diagonal_record({"gauge": ["AC", "2C"]}, turns=8, passes=2))
    assert floods_by_turn(game) == [1, 1, 1, 1, 1, 2, 2, 1]
    assert floods_per_turn(["AC", "2C"]) == [1, 1, 1, 1, 1, 2, 2, 1]
    assert game.outcome == "water" and game.gauge == ["2C"]


def test_r14_the_water_rises_after_every_fifth_flood():
    game = play(diagonal_record({}, turns=12))
    rises = [(e.turn, e.card) for e in game.events if e.kind == "rise"]
    assert rises == [(5, "AC"), (10, "AD")]
    assert game.water_level == 2 and game.floods == 14


def test_r14_full_gauge_45th_flood_in_turn_22_is_water():
    result = result_json(play(diagonal_record({}, turns=22)))
    assert (result["outcome"], result["cause"]) == ("loss", "water")
    assert result["turns"] == 22 and result["floods"] == 45
    assert result["final"]["gauge"] == ["5C"]
    assert sum(1 for e in result["events"] if e["kind"] == "rise") == 8
    assert result["events"][-1]["kind"] == "flood"  # the last card cannot come off: no rise
    assert len(floods_per_turn(FULL_GAUGE)) == 22 and sum(floods_per_turn(FULL_GAUGE)) == 45


def test_r14_game_goes_on_until_turn_22():
    game = play(diagonal_record({}, turns=21))
    assert not game.over and game.floods == 40 and game.gauge == ["5C"]


def test_r14_short_game_ends_after_40_floods_in_turn_17():
    rules = Rules().with_variant("short")
    assert rules.cards_per_treasure == 1 and rules.gauge == FULL_GAUGE[1:]
    game = play(diagonal_record(rules.as_record(), turns=17, passes=8))
    assert game.outcome == "water" and game.turn == 17 and game.floods == 40
    assert game.gauge == ["5C"]
    with pytest.raises(RecordError, match="turn 18: the game already ended in turn 17"):
        play(diagonal_record(rules.as_record(), turns=18, passes=8))


# --- R15 Sinking -----------------------------------------------------------------------------


def test_r15_land_tile_goes_to_the_box():
    game = started(base_game(floods=[(3, 2)]))
    set_state(game, FLOODED, (3, 2))
    game.run_flood_phase()
    assert game.board[(3, 2)].state == SEA and game.box == ["6H"]
    assert not game.over


def test_r15_raised_king_is_set_aside_safely():
    game = started(base_game(floods=[(3, 1)]))
    sink(game, (2, 1), (4, 1))  # 6S and 7S, now tucked under the raised KS
    game.raised, game.under_kings = ["S"], {"S": ["6S", "7S"]}
    set_state(game, FLOODED, (3, 1))
    game.run_flood_phase()
    assert game.set_aside == ["KS"] and not game.over and game.box == []
    assert game.board[(3, 1)].state == SEA
    assert sorted(game.all_cards()) == sorted(ISLAND_CARDS)


def test_r15_unraised_king_sinks_treasure_lost():
    game = started(base_game(floods=[(3, 1)]))
    set_state(game, FLOODED, (3, 1))
    game.run_flood_phase()
    assert game.outcome == "treasure"
    assert sorted(game.all_cards()) == sorted(ISLAND_CARDS)  # the lost King is still counted


def test_r15_helicopter_sinks():
    game = started(base_game(floods=[(3, 3)]))
    set_state(game, FLOODED, HELICOPTER)
    game.run_flood_phase()
    assert game.outcome == "helicopter"
    # Decision (a): pawns on the sunk helicopter do not escape; they stay on its place.
    assert game.pawns == [HELICOPTER, HELICOPTER]
    assert [e.kind for e in game.events] == ["flood", "sink"]


def test_r15_emergency_escape_may_be_diagonal():
    game = started(base_game(floods=[(1, 1)]))
    game.pawns[1] = (1, 1)
    set_state(game, FLOODED, (1, 1))
    sink(game, (2, 1), (1, 2))
    assert game.escape_options((1, 1)) == [(2, 2)]
    game.run_flood_phase()
    assert game.pawns[1] == (2, 2)
    assert game.board[(2, 2)].state == DRY  # face down: turned up
    # The escape event names the escaping pawn; flood and sink name the pawn whose turn it is.
    assert [(e.kind, e.pawn, e.at, e.card) for e in game.events] == [
        ("flood", 0, (1, 1), "9S"), ("sink", 0, (1, 1), "9S"), ("escape", 1, (2, 2), "8S")]
    assert not game.over


# Around 2,2 in the default order: up, up-right, right, down-right, down, down-left, left, up-left.
AROUND_2_2 = [(2, 1), (3, 1), (3, 2), (3, 3), (2, 3), (1, 3), (1, 2), (1, 1)]


@pytest.mark.parametrize("k", range(8))
def test_r15_default_escape_order(k):
    game = started(base_game(floods=[(2, 2)]))
    game.pawns[1] = (2, 2)
    set_state(game, FLOODED, (2, 2))
    sink(game, *AROUND_2_2[:k])
    game.run_flood_phase()
    assert game.pawns[1] == AROUND_2_2[k]


def test_r15_escape_chooser_picks_among_the_options():
    game = started(base_game(floods=[(2, 2)]))
    game.pawns = [(2, 2), (2, 2)]
    set_state(game, FLOODED, (2, 2))
    seen = []

    def chooser(g, pawn, options):
        seen.append((pawn, list(options)))
        return options[-1] if pawn == 0 else options[2]

    game.run_flood_phase(chooser)
    assert seen == [(0, AROUND_2_2), (1, AROUND_2_2)]
    assert game.pawns == [(1, 1), (3, 2)]


def test_r15_escape_chooser_cannot_leave_the_options():
    game = started(base_game(floods=[(2, 2)]))
    game.pawns[0] = (2, 2)
    set_state(game, FLOODED, (2, 2))
    with pytest.raises(IllegalAction, match="cannot escape to 5,5"):
        game.run_flood_phase(lambda g, pawn, options: (5, 5))


ESCAPE_FLOODS = [[3, 2], [1, 1], [2, 3], [4, 4], [5, 5]] * 2


def test_r15_escape_entry_chooses_the_place():
    # Pawn 0 walks onto 3,2 (flooded by the first flood) and stays; the sixth flood sinks it.
    turns = [["move up"], [], [], [], [], ["escape 0 2,1"]]
    game = play(record(layout=BASE_ROWS, floods=ESCAPE_FLOODS, turns=turns))
    escapes = kinds(game, "escape")
    assert escapes == [{"turn": 6, "pawn": 0, "kind": "escape", "at": [2, 1], "card": "6S"}]
    assert game.pawns[0] == (2, 1)
    # Without the entry the default order sends it up, to 3,1.
    default = play(record(layout=BASE_ROWS, floods=ESCAPE_FLOODS, turns=turns[:5] + [[]]))
    assert default.pawns[0] == (3, 1)


def test_r15_escape_entries_matched_by_pawn_number():
    # Decision (e): both pawns stand on 3,2; pawn 0 escapes first whatever the entry order.
    turns = [["move up"], ["move up"], [], [], [], ["escape 1 4,1", "escape 0 2,1"]]
    game = play(record(layout=BASE_ROWS, floods=ESCAPE_FLOODS, turns=turns))
    assert [(e["pawn"], e["at"]) for e in kinds(game, "escape")] == [(0, [2, 1]), (1, [4, 1])]


def test_r15_escape_entry_to_a_place_not_around_is_refused():
    turns = [["move up"], [], [], [], [], ["escape 0 3,4"]]
    with pytest.raises(RecordError, match=r"turn 6, entry 1 'escape 0 3,4': pawn 0 can escape only to 3,1 "):
        play(record(layout=BASE_ROWS, floods=ESCAPE_FLOODS, turns=turns))


def test_r15_no_tile_around_drowns():
    game = started(base_game(floods=[(1, 1)]))
    game.pawns[1] = (1, 1)
    set_state(game, FLOODED, (1, 1))
    sink(game, (2, 1), (1, 2), (2, 2))
    game.run_flood_phase()
    assert game.outcome == "drowned"
    assert game.pawns[1] == (1, 1)  # reported where it drowned
    assert result_json(game)["final"]["pawns"][1] == [1, 1]


# --- R16 Cut off -----------------------------------------------------------------------------

# 1,1 is an islet: two sea places in every direction, so neither walking nor swimming leaves it.
ISLET_SEA = [(2, 1), (3, 1), (1, 2), (1, 3), (2, 2)]
ISLET_NAMED = {(2, 1): "6S", (3, 1): "6H", (1, 2): "6D", (1, 3): "6C", (2, 2): "7S",
               (4, 3): "KS", (3, 4): "KH", (2, 4): "KD", (4, 2): "KC"}


def islet_game(pawns) -> IslandEscapeEngine:
    game = started(make_game(Rules(), ISLET_NAMED))
    sink(game, *ISLET_SEA)
    game.pawns = list(pawns)
    set_state(game, FLOODED, (1, 1))
    return game


def test_r16_one_pawn_reaching_keeps_the_game_going():
    game = islet_game([(3, 3), (1, 1)])
    act(game, "move up")
    assert not game.over
    assert not game.cut_off()
    reach = game.reachable()
    assert {(4, 3), (3, 4), (2, 4), (4, 2), HELICOPTER} <= reach
    assert (1, 1) in reach and (1, 2) not in reach and (1, 4) in reach


def test_r16_no_pawn_reaching_is_cut_off():
    game = islet_game([(1, 1), (1, 1)])
    act(game, "shore 1,1")  # losses are checked after every action (R18)
    assert game.outcome == "cut_off"
    assert game.reachable() == {(1, 1)}


# Column 4 is all sea: the right-hand strip with KS is reached only by swimming across it.
CHANNEL_NAMED = {(4, 1): "6S", (4, 2): "6H", (4, 3): "6D", (4, 4): "6C", (4, 5): "7S",
                 (5, 3): "KS", (1, 1): "KH", (2, 5): "KD", (1, 4): "KC"}


@pytest.mark.parametrize("swim_cost, cut", [(2, False), (4, False), (5, True)])
def test_r16_swimming_counts_when_a_swim_is_possible(swim_cost, cut):
    # Decision (c): a swim dearer than a whole turn never happens, so it does not count.
    game = started(make_game(Rules(swim_cost=swim_cost), CHANNEL_NAMED))
    sink(game, (4, 1), (4, 2), (4, 3), (4, 4), (4, 5))
    act(game, "move up")
    assert game.over is cut
    assert ((5, 3) in game.reachable()) is not cut
    if cut:
        assert game.outcome == "cut_off"


def test_r16_face_down_tiles_count_and_targets_include_helicopter():
    game = started(make_game(Rules(), CHANNEL_NAMED))
    assert game.board[(5, 3)].state == DOWN
    assert set(game.targets()) == {HELICOPTER, (5, 3), (1, 1), (2, 5), (1, 4)}
    game.raised = ["S"]
    assert (5, 3) not in game.targets()


# --- R17 Cards (joint check) -----------------------------------------------------------------

JOINT_NAMED = {(3, 2): "KS", (4, 3): "KH", (2, 3): "KD", (3, 4): "KC",
               (2, 2): "6S", (4, 2): "7S", (2, 4): "6H", (4, 4): "6D", (1, 3): "7D"}


def test_r17_cards_checked_jointly():
    game = started(make_game(Rules(), JOINT_NAMED, floods=[(1, 3)]))
    game.raised = ["D", "C"]
    sink(game, *everything_but(*JOINT_NAMED))
    set_state(game, FLOODED, (1, 3))
    # Before: spades 2 (enough), hearts 1 (short, needs 3 of any suit); 5 cards cover 2 + 3.
    assert not game.cards_short()
    act(game, "move up")
    assert not game.over
    game.run_flood_phase()  # 7D sinks: 4 cards left
    assert sorted(game.land_in_play()) == ["6D", "6H", "6S", "7S"]
    # Each suit alone could still be raised: spades have 2, and 4 cards >= 3 for short hearts...
    assert not game.suit_short("S") and game.suit_short("H")
    # ...but not both: spades reserve 2, leaving 2 < 3 for hearts.
    assert game.outcome == "cards"


def test_r17_cards_single_suit_condition():
    rules = Rules(cards_per_treasure=5)
    game = started(make_game(rules, BASE, floods=[(3, 2)]))
    set_state(game, FLOODED, (3, 2))  # 6H: hearts become short and nothing is spare
    game.run_flood_phase()
    assert game.outcome == "cards"


def test_r17_raised_suits_need_nothing():
    rules = Rules(cards_per_treasure=5)
    game = started(make_game(rules, BASE, floods=[(3, 2)]))
    game.raised = ["S", "H", "D", "C"]
    set_state(game, FLOODED, (3, 2))
    game.run_flood_phase()
    assert not game.over



def test_r17_a_short_raise_can_lose_by_cards_at_once():
    # Spades unraised with exactly 6S 7S in play (both in pawn 0's salvage), hearts short, 8D 9D
    # spare: 5 cards cover spades' 2 + hearts' 3. Raising hearts short of a suit (R12) takes
    # all three salvaged cards, spades' two among them: 2 cards are left for spades' 3 (R17),
    # and the game ends on the raise itself (R18: checked after every action).
    named = {(3, 2): "KH", (4, 3): "KS", (2, 3): "8D", (3, 4): "9D", (1, 1): "6S", (1, 2): "7S", (1, 3): "6D"}
    game = started(make_game(Rules(), named))
    sink(game, *everything_but((3, 2), (4, 3), (2, 3), (3, 4)))
    game.raised = ["D", "C"]
    game.salvage[0] = ["6S", "7S", "6D"]
    game.pawns[0] = (3, 2)
    set_state(game, DRY, (3, 2))
    assert not game.cards_short() and game.suit_short("H")
    act(game, "raise 6S 7S 6D")
    assert game.raised == ["D", "C", "H"] and game.outcome == "cards"

# --- R18 Order of the losses -----------------------------------------------------------------


def corner_game(rules: Rules, floods) -> IslandEscapeEngine:
    """KS on 1,1, joined to the rest only through the flooded 6S on 1,2 (a corner, no swim)."""
    named = {(1, 1): "KS", (1, 2): "6S", (2, 2): "KD", (3, 2): "KH", (4, 4): "KC"}
    game = started(make_game(rules, named, floods=floods))
    sink(game, (2, 1), (3, 1), (1, 3))
    set_state(game, FLOODED, (1, 2))
    return game


def test_r18_cut_off_by_a_flood():
    game = corner_game(Rules(), floods=[(1, 2)])
    game.run_flood_phase()
    assert game.outcome == "cut_off" and (1, 1) not in game.reachable()


def test_r18_water_before_cut_off():
    # The fifth flood of the last pass both cuts KS off and would need the last gauge card.
    floods = [(2, 1), (3, 3), (4, 4), (5, 5), (1, 2)]
    game = corner_game(Rules(gauge=("5C",)), floods)
    game.run_flood_phase()
    assert game.outcome == "water" and game.floods == 5
    assert game.cut_off()  # it is cut off too, but the water comes first


def test_r18_cut_off_before_cards():
    named = {(1, 1): "KS", (1, 2): "6S", (2, 2): "KD", (3, 2): "KH"}
    game = started(make_game(Rules(cards_per_treasure=1), named, floods=[(1, 2)]))
    game.raised = ["H", "D", "C"]
    sink(game, *everything_but(*named))
    set_state(game, FLOODED, (1, 2))
    assert not game.cut_off() and not game.cards_short()
    game.run_flood_phase()
    assert game.cut_off() and game.cards_short()
    assert game.outcome == "cut_off"


def test_r18_treasure_before_drowned_and_pawn_reported_there():
    game = started(base_game(floods=[(3, 1)]))
    game.pawns[1] = (3, 1)
    set_state(game, FLOODED, (3, 1))
    sink(game, (2, 1), (4, 1), (2, 2), (3, 2), (4, 2))
    game.run_flood_phase()
    result = result_json(game)
    assert result["cause"] == "treasure"
    assert result["final"]["pawns"][1] == [3, 1]
    assert not kinds(game, "escape")


def test_r18_helicopter_before_drowned():
    game = started(base_game(floods=[(3, 3)]))
    set_state(game, FLOODED, HELICOPTER)
    sink(game, (2, 2), (3, 2), (4, 2), (2, 3), (4, 3), (2, 4), (3, 4), (4, 4))
    game.run_flood_phase()
    assert game.outcome == "helicopter"


@pytest.mark.parametrize("escape, outcome", [(False, "drowned"), (True, "water")])
def test_r18_drowned_before_water(escape, outcome):
    # The fifth flood of the only pass sinks pawn 1's place: drowning stops everything, so the
    # water never rises (decision (a)); a pawn that can escape lets the water end the game.
    floods = [(2, 2), (3, 4), (4, 3), (5, 5), (1, 1)]
    game = started(base_game(gauge=("5C",), floods=floods))
    game.pawns[1] = (1, 1)
    set_state(game, FLOODED, (1, 1))
    sink(game, (2, 1), (1, 2), *([] if escape else [(2, 2)]))
    game.run_flood_phase()
    assert game.outcome == outcome and game.floods == 5
    assert game.gauge == ["5C"]
    assert not kinds(game, "rise")


def test_r18_a_game_ending_sinking_stops_the_flood_phase():
    # Decision (a): level 5, the first flood sinks KS: no more floods, nothing else happens.
    game = started(base_game(gauge=("5C", "5D"), floods=[(3, 1)]))
    set_state(game, FLOODED, (3, 1))
    game.run_flood_phase()
    assert game.outcome == "treasure" and game.floods == 1 and game.floods_left == 0
    with pytest.raises(IllegalAction):
        game.flood()
    with pytest.raises(IllegalAction):
        game.begin_turn()


def corner_salvage_game(gap_below: bool = True) -> IslandEscapeEngine:
    """KS on 5,1 hangs on 5,2 (6D); pawn 0 stands on 4,2 next to it. 4,1 and 3,1 are sea, and
    5,3 too when `gap_below`."""
    named = {(5, 1): "KS", (5, 2): "6D", (4, 2): "7D", (4, 1): "6S", (3, 1): "6H", (5, 3): "6C",
             (1, 1): "KH", (1, 5): "KD", (5, 5): "KC"}
    game = started(make_game(Rules(), named))
    sink(game, (4, 1), (3, 1), *([(5, 3)] if gap_below else []))
    set_state(game, DRY, (5, 2), (4, 2))
    game.pawns[0] = (4, 2)
    return game


def test_r18_checked_after_every_action():
    game = corner_salvage_game()
    assert not game.cut_off()
    act(game, "salvage 5,2")  # neither a walk nor a swim reaches 5,1 any more
    assert game.outcome == "cut_off" and game.salvage[0] == ["6D"]
    assert check(game, "move up") == "the game is over"


def test_r16_salvage_leaving_a_swim_is_not_cut_off():
    game = corner_salvage_game(gap_below=False)
    act(game, "salvage 5,2")  # 5,1 is still reached by swimming from 5,3 over 5,2
    assert not game.over and (5, 1) in game.reachable()


# --- R19 Public information ------------------------------------------------------------------


def test_r19_face_down_cards_hidden():
    game = started(base_game(floods=[(1, 1)]))
    act(game, "move up")
    view = game.public_view()
    assert isinstance(view, PublicView)
    assert view.board[(3, 2)] == ("6H", DRY)
    assert view.board[(3, 1)] == (None, DOWN)  # KS lies there face down
    game.run_flood_phase()
    assert game.public_view().board[(1, 1)] == ("9S", FLOODED)
    hidden = [t.card for t in game.board.values() if t.state == DOWN]
    assert len(hidden) == 22
    assert sorted(game.public_view().unseen_cards()) == sorted(hidden)


def test_r19_view_does_not_depend_on_hidden_things():
    # Two games that differ only in face-down cards and in the undrawn part of the piles.
    a_named = dict(BASE)
    b_named = dict(BASE)
    b_named[(5, 5)], b_named[(1, 5)] = BASE[(1, 5)], BASE[(5, 5)]
    a = started(make_game(Rules(), a_named, floods=[(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]))
    b = started(make_game(Rules(), b_named, floods=[(1, 1), (5, 2), (4, 3), (3, 4), (2, 5)]))
    a.run_flood_phase()
    b.run_flood_phase()
    assert a.col_pile != b.col_pile and a.board[(5, 5)].card != b.board[(5, 5)].card
    assert a.public_view() == b.public_view()
    assert not any("pile" in name for name in PublicView.__dataclass_fields__)


def test_r19_drawn_columns_and_rows_of_the_current_pass_are_public():
    floods = [(1, 2), (2, 3), (3, 4), (4, 5), (5, 1), (2, 1)]
    game = make_game(Rules(gauge=("2C", "3C")), DIAGONAL_NAMED, floods=floods)
    game.begin_turn()
    game.run_flood_phase()
    view = game.public_view()
    assert view.columns_drawn == (1, 2) and view.rows_drawn == (2, 3)
    game.begin_turn()
    game.run_flood_phase()
    assert game.public_view().columns_drawn == (1, 2, 3, 4)
    assert game.public_view().rows_drawn == (2, 3, 4, 5)
    game.begin_turn()
    game.start_flood_phase()
    game.flood()  # the fifth: the piles are reshuffled
    assert game.public_view().columns_drawn == () and game.public_view().rows_drawn == ()
    game.flood()
    assert game.public_view().columns_drawn == (2,) and game.public_view().rows_drawn == (1,)


def test_the_rulings_ran_through_the_kernel():
    """The scenarios above really reached the kernel (when the whole file runs)."""
    if len(KERNEL_STEPS) < 80:
        pytest.skip("only part of the file ran")
    total = {k: sum(getattr(s, k) for s in KERNEL_STEPS) for k in ("masks", "actions", "floods", "checks")}
    print(total, {k: sum(s.skipped.get(k, 0) for s in KERNEL_STEPS) for s0 in KERNEL_STEPS for k in s0.skipped})
    assert all(v > 40 for v in total.values()), total
