"""Desert Island's reference engine (sim/desert_island/engine.py): the rulebook's rules and the
lab's rulings D10-D22 (docs/RULES-DI.md), each in a situation built by hand, hidden information,
and games of random legal choices."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.desert_island import actions as A
from sim.desert_island.engine import (
    BOSUN,
    CAP,
    DECISIONS,
    IN_BOX,
    KID,
    LADLE,
    MAX_WEEKS,
    MILADY,
    SNOB,
    Deal,
    DealError,
    DesertIslandEngine,
    IllegalAction,
    play_random,
    random_draws,
)
from sim.desert_island.rules import Rules, decks_of

# item cards by number in decks.toml's order
RATION, FISH, STORES, KNIFE, SPEAR, PISTOL, FLARE = 0, 4, 7, 10, 13, 15, 18
MEDICINE, GOLD, TRAP, SHOVEL, MONOCLE, SPYGLASS, GARDEN = 20, 25, 33, 35, 37, 38, 39
# fate cards that, with 4 players, put no token anywhere (their character and place are out)
QUIET_BOAR, QUIET_MONKEY, QUIET_STORM = 5, 10, 4


def order(first, size: int) -> tuple[int, ...]:
    first = list(first)
    return tuple(first + [k for k in range(size) if k not in first])


def game(players: int = 4, places=None, fate=(), draws=(), **rules) -> DesertIslandEngine:
    """A game whose seat k plays character k, with character k at place k unless `places` says
    otherwise, the item deck in card order and the fate deck in card order after `fate`."""
    rules = Rules(players=players, **rules)
    n = rules.players
    deal = Deal(tuple(range(n)), tuple(places or range(n)), order((), 40), order(fate, 30), tuple(range(n)),
                tuple(range(n)))
    return DesertIslandEngine(rules, deal, iter(draws))


def first_choices_until(e: DesertIslandEngine, done) -> None:
    """Plays the lowest code of every decision (a deal's first card, the first fate card, looking
    for food, passing) until `done(e)`."""
    while not done(e):
        e.apply(e.legal_actions()[0])


def to_keep(e: DesertIslandEngine, character: int) -> None:
    first_choices_until(e, lambda g: g.phase == "keep" and g.actor == character)


def keep(e: DesertIslandEngine, card: int) -> None:
    """The acting castaway keeps fate card `card` (moved into its two drawn cards)."""
    if card not in e.choice:
        i = e.fate_deck.index(card)
        e.fate_deck[i], e.choice[0] = e.choice[0], card
    e.apply(A.KEEP + e.choice.index(card))


def on_top(e: DesertIslandEngine, *cards: int) -> None:
    for card in reversed(cards):
        e.fate_deck.remove(card)
        e.fate_deck.insert(0, card)


def hand_only(e: DesertIslandEngine, character: int, *cards: int, face_up=()) -> None:
    """`character` holds exactly these cards (the rest of its cards leave the game)."""
    for k in e.cards_of(character):
        e.owner[k] = IN_BOX
    for k in (*cards, *face_up):
        if k in e.item_deck:
            e.item_deck.remove(k)
        e.owner[k], e.face_up[k] = character, k in face_up


def week_keeping(e: DesertIslandEngine, cards: dict[int, int], until) -> None:
    """Every castaway keeps its card in `cards` and looks for food, until `until(e)`."""
    while not until(e):
        if e.phase == "keep" and e.actor in cards:
            keep(e, cards[e.actor])
        else:
            e.apply(e.legal_actions()[0])


def events(e: DesertIslandEngine, kind: str) -> list[dict]:
    return [ev for ev in e.events if ev["kind"] == kind]


# --- action codes (D10) ---------------------------------------------------------------------------


def test_every_code_decodes_and_encodes_back():
    decoded = 0
    for code in range(A.ACTION_LIMIT + 10):
        try:
            action = A.decode(code)
        except ValueError:
            continue
        decoded += 1
        assert A.encode(action) == code
    assert decoded == 14 + 2 + 18 + 6 + 6 + 3 * 40 + 81 + 6 * A.GOODS * A.GOODS


def test_action_text_names_characters_cards_and_goods():
    decks = decks_of("standard")
    assert A.action_text(A.FIGHT + 3 * CAP + 1, decks) == "fight Cap item"
    assert A.action_text(A.DEAL + SPEAR, decks) == "deal spear #13"
    offer = A.encode(("offer", KID, A.food_good(2), KNIFE))
    assert A.action_text(offer, decks) == "offer Kid 2 food for knife #10"


# --- the deal and set-up (D11) ----------------------------------------------------------------------


def test_a_deal_is_the_same_for_the_same_seed_and_game_and_is_checked():
    rules = Rules(players=5)
    assert Deal.random(rules, 4, 2) == Deal.random(rules, 4, 2)
    assert Deal.random(rules, 4, 2) != Deal.random(rules, 4, 3)
    deal = Deal.random(rules, 4, 2)
    with pytest.raises(DealError, match="roles"):
        Deal((0, 0, 1, 2, 3), *[getattr(deal, f) for f in ("places", "items", "fate", "friends", "enemies")]
             ).validate(rules)


def test_set_up_gives_each_seat_one_card_and_the_start_food():
    e = game(players=5, start_food=6)
    assert [e.cards_of(c) for c in range(5)] == [[0], [1], [2], [3], [4]]
    assert e.food == [6] * 5
    assert e.phase == "deal" and e.decider == 0  # Bosun is on the Beach


def test_a_draw_picks_a_hand_card_as_rand_below_does():
    draws = random_draws(Rules(), 1, 0)
    u = next(draws)
    assert 0 <= u < 1 << 32
    assert (u * 5) >> 32 < 5


# --- the Beach player's deal (D18, D6) ------------------------------------------------------------


def test_the_beach_player_gives_in_turn_order_keeps_the_last_and_only_receivers_see_their_card():
    e = game()
    assert e.legal_actions() == [A.DEAL + FISH, A.DEAL + STORES]  # one fish basket stands for all three
    assert e.known_to(0)["drawn"] == [4, 5, 6, 7] and e.known_to(1)["drawn"] == []
    e.apply(A.DEAL + STORES)  # to Cap, first after the Beach
    e.apply(A.DEAL + FISH)  # to Ladle
    assert e.legal_actions() == [A.DEAL + FISH + 1]  # the fish baskets left
    e.apply(A.DEAL + FISH + 1)  # to Snob
    assert e.cards_of(BOSUN) == [0, 6] and e.cards_of(CAP) == [1, 7]
    assert e.cards_of(LADLE) == [2, 4] and e.cards_of(SNOB) == [3, 5]
    assert e.known_to(0)["dealt"] == [(CAP, STORES), (LADLE, FISH), (SNOB, 5)]
    assert e.known_to(1)["dealt"] == [] and e.known_to(1)["hand"] == [1, 7]
    assert e.phase == "keep" and e.actor == BOSUN
    assert e.known_to(0)["choice"] == e.choice and len(e.choice) == 2 and e.known_to(1)["choice"] == []


def test_a_short_item_deck_leaves_the_last_in_turn_order_without_a_card():
    e = game()
    first_choices_until(e, lambda g: g.phase == "act")
    e.item_deck = e.item_deck[:2]
    first_choices_until(e, lambda g: g.week == 2 and g.phase == "deal")
    before = [len(e.cards_of(c)) for c in range(4)]
    e.apply(e.legal_actions()[0])
    after = [len(e.cards_of(c)) for c in range(4)]
    assert [a - b for a, b in zip(after, before, strict=True)] == [1, 1, 0, 0] and not e.item_deck


# --- actions: food, the fire, abilities, the Swamp (D3, D13, D19) ----------------------------------------


def test_looking_for_food_adds_the_card_the_stream_bosun_and_one_shovel():
    e = game(places=(3, 0, 1, 2))  # Bosun at the Stream
    to_keep(e, BOSUN)
    hand_only(e, BOSUN, SHOVEL, SHOVEL + 1)
    food = e.food[BOSUN]
    keep(e, 28)  # Milady 3 malaria
    e.apply(A.FOOD)
    assert events(e, "found")[-1]["portions"] == 3 + 3 + 1 + 2
    assert e.face_up[SHOVEL] and not e.face_up[SHOVEL + 1]
    assert e.food[BOSUN] >= food  # the week went on: hunger may have eaten some


def test_the_rulebooks_example_card_marks_the_beach_and_milady_and_finds_one_portion():
    e = game(players=5, places=(1, 0, 2, 3, 4))  # Cap on the Beach
    to_keep(e, CAP)
    keep(e, 16)  # Milady 1 rats
    e.apply(A.FOOD)
    assert e.place_tokens[0] == 1 and e.tokens[MILADY] == 1
    assert events(e, "found")[-1]["portions"] == 1
    assert e.phase == "ability" and A.ABILITY + MILADY in e.legal_actions()  # Cap may take it off


def test_playing_a_card_marks_its_place_and_its_character():
    e = game()
    to_keep(e, BOSUN)
    keep(e, 13)  # Cap 4 boar
    e.apply(A.FOOD)
    assert e.place_tokens == [0, 0, 0, 1] and e.tokens == [0, 1, 0, 0]


def test_the_fire_gets_one_token_and_one_more_each_for_the_hill_the_monocle_and_the_spyglass():
    e = game(players=5)  # Milady on the Hill
    to_keep(e, MILADY)
    hand_only(e, MILADY, MONOCLE, SPYGLASS)
    keep(e, e.choice[0])
    e.apply(A.FIRE)
    assert events(e, "fire")[-1]["added"] == 4


def test_cap_takes_a_token_off_another_and_the_swamp_costs_a_portion():
    e = game()
    to_keep(e, BOSUN)
    keep(e, 0)  # Bosun 1: a token on Bosun and on the Beach
    e.apply(A.FOOD)
    keep(e, 28)  # Milady 3: only the Swamp's token
    e.apply(A.FOOD)
    assert e.phase == "ability" and e.legal_actions() == [A.PASS, A.ABILITY + BOSUN]
    e.apply(A.ABILITY + BOSUN)
    assert e.tokens[BOSUN] == 0 and e.place_tokens[0] == 1
    food = e.food[LADLE]
    keep(e, 27)  # Snob 2 monkey
    e.apply(A.FOOD)
    assert e.food[LADLE] == food + 2 - 1  # Ladle is in the Swamp


def test_snob_may_mark_anyone_alive_and_milady_only_herself():
    e = game(players=5)
    to_keep(e, SNOB)
    keep(e, 16)  # Milady 1 rats: a token on Milady
    e.apply(A.FOOD)
    assert e.legal_actions() == [A.PASS] + [A.ABILITY + c for c in range(5)]
    tokens = e.tokens[MILADY]
    e.apply(A.ABILITY + MILADY)
    assert e.tokens[MILADY] == tokens + 1
    keep(e, e.choice[0])
    e.apply(A.FOOD)
    if e.tokens[MILADY]:
        assert e.legal_actions() == [A.PASS, A.ABILITY + MILADY]
        tokens = e.tokens[MILADY]
        e.apply(A.ABILITY + MILADY)
        assert e.tokens[MILADY] == tokens - 1


@pytest.mark.parametrize("milady_food", [0, 3])
def test_the_kid_takes_a_portion_from_each_living_neighbour_that_has_food(milady_food):
    e = game(players=6)  # the Kid in the Cave, Milady on the Hill next to him
    to_keep(e, KID)
    e.food[MILADY] = milady_food
    keep(e, e.choice[0])
    e.apply(A.FOOD)
    assert [ev["source"] for ev in events(e, "kid_takes")] == ([MILADY] if milady_food else [])


def test_food_beyond_eighty_portions_is_left_on_the_island():
    e = game()
    to_keep(e, BOSUN)
    e.food[BOSUN] = A.MAX_FOOD - 1
    keep(e, 25)  # a 6, and 1 more for Bosun
    e.apply(A.FOOD)
    assert e.food[BOSUN] == A.MAX_FOOD and e.phase == "keep" and e.actor == CAP


# --- fights (D14, D15) ------------------------------------------------------------------------------


def test_a_place_given_up_is_swapped_and_the_one_displaced_acts_next():
    e = game()
    to_keep(e, BOSUN)
    keep(e, 28)
    e.apply(A.FIGHT + 3 * SNOB + 2)
    assert e.phase == "yield" and e.decider == SNOB
    e.apply(A.YIELD)
    assert e.place[BOSUN] == 3 and e.place[SNOB] == 0
    assert e.place_tokens[2] == 1 and e.tokens[BOSUN] == 1  # the place's token stays, Bosun's moves with him
    assert e.phase == "keep" and e.actor == SNOB


def test_others_join_one_at_a_time_in_turn_order_and_the_defenders_win_a_tie():
    e = game()
    to_keep(e, BOSUN)
    keep(e, 28)
    e.apply(A.FIGHT + 3 * CAP + 0)  # Bosun 8 and his card's 3 against Cap 7, over food
    e.apply(A.RESIST)
    assert e.phase == "join" and e.decider == LADLE
    e.apply(A.STAY_OUT)
    assert e.decider == SNOB
    on_top(e, 3)  # the last card: a 4
    e.apply(A.STAY_OUT)
    fight = events(e, "fight")[-1]
    assert (fight["attack"], fight["defence"], fight["attacker_won"]) == (8 + 3, 7 + 4, False)
    assert e.wounds[BOSUN] == 1 and e.wounds[CAP] == 0
    assert e.tokens[BOSUN] == 1 and e.tokens[CAP] == 1


def test_joiners_take_a_token_and_the_attackers_win_with_more_strength():
    e = game()
    to_keep(e, BOSUN)
    keep(e, 28)
    e.apply(A.FIGHT + 3 * SNOB + 2)
    e.apply(A.RESIST)
    e.apply(A.JOIN_DEFENDER)  # Cap
    e.apply(A.JOIN_ATTACKER)  # Ladle, who may then flee
    assert e.phase == "flee" and e.legal_actions() == [A.PASS, A.FLEE]
    on_top(e, 0)
    e.apply(A.PASS)
    fight = events(e, "fight")[-1]
    assert (fight["attack"], fight["defence"]) == (8 + 3 + 6, 5 + 7 + 1)
    assert e.place[BOSUN] == 3 and e.wounds[SNOB] == 1 and e.wounds[CAP] == 1
    assert e.tokens[CAP] == 1 and e.tokens[LADLE] == 1 and e.tokens[SNOB] == 1


def test_a_fighter_counts_its_best_kept_weapon_and_may_spend_a_stronger_single_use_one():
    e = game()
    to_keep(e, BOSUN)
    hand_only(e, BOSUN, KNIFE, FLARE, ROCK := 16)
    hand_only(e, CAP, face_up=(SPEAR,))
    keep(e, 28)
    e.apply(A.FIGHT + 3 * CAP + 2)
    e.apply(A.RESIST)
    e.apply(A.STAY_OUT)
    e.apply(A.STAY_OUT)
    assert e.phase == "weapon" and e.decider == BOSUN
    assert e.legal_actions() == [A.PASS, A.WEAPON + ROCK, A.WEAPON + FLARE]
    assert e.face_up[KNIFE]  # laid out: it counts by itself
    on_top(e, 0)
    e.apply(A.WEAPON + FLARE)  # Cap has no single-use weapon: no decision for him
    fight = events(e, "fight")[-1]
    assert (fight["attack"], fight["defence"]) == (8 + 3 + 4, 7 + 2 + 1)
    assert e.owner[FLARE] == IN_BOX and e.owner[KNIFE] == BOSUN and e.place[BOSUN] == 1


def test_ladle_may_flee_with_one_more_token_and_no_wound():
    e = game(places=(1, 2, 0, 3))  # Ladle on the Beach acts first
    to_keep(e, LADLE)
    keep(e, 28)
    e.apply(A.FIGHT + 3 * SNOB + 2)
    e.apply(A.RESIST)
    e.apply(A.JOIN_DEFENDER)  # Bosun
    e.apply(A.STAY_OUT)  # Cap
    e.apply(A.FLEE)
    fight = events(e, "fight")[-1]
    assert fight["fled"] == [LADLE] and fight["attack"] == 0 and not fight["attacker_won"]
    assert e.wounds[LADLE] == 0 and e.tokens[LADLE] == 2 and e.place[LADLE] == 0


def test_ladle_defending_flees_unhurt_but_still_gives_up_the_claim():
    e = game()
    to_keep(e, BOSUN)
    keep(e, 28)
    e.apply(A.FIGHT + 3 * LADLE + 2)
    e.apply(A.RESIST)
    e.apply(A.STAY_OUT)  # Cap
    e.apply(A.STAY_OUT)  # Snob
    e.apply(A.FLEE)
    assert events(e, "fight")[-1]["attacker_won"]
    assert e.place[BOSUN] == 2 and e.place[LADLE] == 0 and e.wounds[LADLE] == 0


@pytest.mark.parametrize("joiner", [False, True])
def test_the_caves_castaway_adds_a_card_to_the_defenders(joiner):
    e = game(players=6)
    to_keep(e, BOSUN)
    keep(e, 28)
    e.apply(A.FIGHT + 3 * (MILADY if joiner else KID) + 2)
    e.apply(A.RESIST)
    while e.phase == "join":
        e.apply(A.JOIN_DEFENDER if e.deciding == KID else A.STAY_OUT)
    while e.phase in ("weapon", "flee"):
        e.apply(A.PASS)
    assert len(events(e, "fight")[-1]["cards"]) == 2


def test_food_given_up_is_split_in_two_fists_and_the_attacker_picks_one():
    e = game()
    to_keep(e, BOSUN)
    keep(e, 28)
    e.apply(A.FIGHT + 3 * CAP + 0)
    e.apply(A.YIELD)
    assert e.phase == "fists" and e.decider == CAP
    assert e.legal_actions() == [A.FIST + k for k in range(5)]
    e.apply(A.FIST + 1)
    assert e.known_to(CAP)["fists"] == (1, 3) and e.known_to(BOSUN)["fists"] is None
    assert e.phase == "pick" and e.decider == BOSUN
    e.apply(A.RIGHT_HAND)
    assert e.food[CAP] == 1 and e.food[BOSUN] == 4 + 3


def test_an_item_claim_takes_a_face_up_card_or_a_random_hand_card():
    e = game(draws=[(2 << 32) // 3 + 1])  # picks the third of three hand cards
    to_keep(e, BOSUN)
    hand_only(e, CAP, RATION, MEDICINE, GOLD, face_up=(KNIFE,))
    keep(e, 28)
    e.apply(A.FIGHT + 3 * CAP + 1)
    e.apply(A.YIELD)
    assert e.legal_actions() == [A.TAKE_HAND, A.TAKE + KNIFE]
    e.apply(A.TAKE_HAND)
    assert e.owner[GOLD] == BOSUN and not e.face_up[GOLD]


def test_a_fight_is_only_over_what_the_target_visibly_has():
    e = game()
    to_keep(e, BOSUN)
    hand_only(e, CAP)
    e.food[CAP] = 0
    keep(e, 28)
    fights = [c for c in e.legal_actions() if A.FIGHT <= c < A.ABILITY]
    assert A.FIGHT + 3 * CAP + 2 in fights
    assert A.FIGHT + 3 * CAP + 0 not in fights and A.FIGHT + 3 * CAP + 1 not in fights


# --- the lookout (D20) ------------------------------------------------------------------------------


def drawn_before_the_lookout(cards) -> list[int]:
    """A fate deck whose `cards` come up at the lookout after four castaways drew two each."""
    return [k for k in range(30) if k not in cards][:8] + list(cards)


@pytest.mark.parametrize("cards, ships, fire", [
    ((0, 10, 18), 1, 0),  # wood, a torch and a ship
    ((0, 10, 24), 0, 0),  # the fire burns, no ship
    ((0, 24, 25), 0, 3),  # no torch: the tokens stay
])
def test_the_lookout_turns_up_one_card_a_token(cards, ships, fire):
    e = game(places=(3, 0, 1, 2), fate=drawn_before_the_lookout(cards), ships_to_rescue=2)
    to_keep(e, BOSUN)  # Bosun, acting last, has no ability
    keep(e, e.choice[0])
    e.fire = 2
    e.apply(A.FOOD)
    assert events(e, "lookout")[-1]["cards"] == list(cards)
    assert e.ships == ships and (e.fire == fire or events(e, "fate")[-1]["event"] == "storm")


def test_the_last_ship_rescues_everyone_at_once():
    e = game(places=(3, 0, 1, 2), fate=drawn_before_the_lookout((0, 10, 18)), ships_to_rescue=1)
    to_keep(e, BOSUN)
    keep(e, e.choice[0])
    e.fire = 2
    e.apply(A.FOOD)
    assert e.over and e.ending == "rescued" and not events(e, "fate")
    assert sum(e.win_shares()) == pytest.approx(1.0) and e.legal_actions() == []
    with pytest.raises(IllegalAction):
        e.apply(A.FOOD)


# --- the week's event (D3, D21) -------------------------------------------------------------------


def after_fate(e):
    return e.phase == "offer"


def test_a_boar_wounds_twice_unless_a_trap_catches_it():
    for trap in (False, True):
        e = game()
        to_keep(e, BOSUN)
        if trap:
            hand_only(e, CAP, TRAP)
        week_keeping(e, {BOSUN: QUIET_BOAR, CAP: 22, LADLE: QUIET_MONKEY, SNOB: QUIET_STORM}, after_fate)
        assert events(e, "fate")[-1] == {**events(e, "fate")[-1], "event": "boar", "struck": [CAP]}
        assert e.wounds[CAP] == (0 if trap else 2)
        assert (e.owner[TRAP] == IN_BOX) == trap


def test_malaria_wounds_once_and_the_first_played_of_equal_events_happens():
    e = game()
    week_keeping(e, {BOSUN: 28, CAP: QUIET_BOAR, LADLE: QUIET_MONKEY, SNOB: QUIET_STORM}, after_fate)
    assert events(e, "fate")[-1]["event"] == "malaria" and events(e, "fate")[-1]["struck"] == [LADLE]
    assert e.wounds == [0, 0, 1, 0]


def test_with_no_token_on_anyone_fate_strikes_everyone_alive():
    e = game()
    week_keeping(e, {BOSUN: QUIET_BOAR, CAP: QUIET_MONKEY, LADLE: QUIET_STORM, SNOB: 22},
                 lambda g: g.phase == "ability" and g.actor == SNOB)
    e.place_tokens = [0] * 4  # as if the Jungle's token had been taken off
    e.apply(A.PASS)
    assert events(e, "fate")[-1]["struck"] == [BOSUN, CAP, LADLE, SNOB]
    assert e.wounds == [2, 2, 2, 2]


def test_a_storm_reaches_from_the_beach_to_the_struck_and_washes_away_face_up_cards():
    e = game()
    to_keep(e, BOSUN)
    hand_only(e, BOSUN, RATION, face_up=(KNIFE,))
    hand_only(e, SNOB, face_up=(SPEAR,))
    e.fire = 3
    week_keeping(e, {BOSUN: QUIET_STORM, CAP: 17, LADLE: QUIET_MONKEY, SNOB: QUIET_BOAR}, after_fate)
    assert events(e, "fate")[-1]["struck"] == [CAP]
    assert [ev["character"] for ev in events(e, "wound")] == [BOSUN, CAP]
    assert e.food[BOSUN] == 0 and e.food[CAP] == 0 and e.food[SNOB] > 0
    assert e.owner[KNIFE] == IN_BOX and e.owner[RATION] == BOSUN and e.owner[SPEAR] == SNOB
    assert e.fire == 0


def test_rats_eat_the_struck_food_and_one_fist_of_everyone_else():
    e = game()
    week_keeping(e, {BOSUN: 29, CAP: 3, LADLE: QUIET_MONKEY, SNOB: QUIET_BOAR},
                 lambda g: g.phase == "fists")
    assert events(e, "fate")[-1] == {**events(e, "fate")[-1], "event": "rats", "struck": [SNOB]}
    assert e.food[SNOB] == 0 and e.decider == BOSUN
    food = list(e.food)
    on_top(e, 0)  # a 1: odd, the left fists are lost
    e.apply(A.FIST + food[BOSUN])
    assert e.decider == CAP
    e.apply(A.FIST + 0)
    e.apply(A.FIST + 1)
    assert e.food[:3] == [0, food[CAP], food[LADLE] - 1]


def test_a_monkeys_victim_names_a_neighbour_who_throws_a_card_away():
    e = game()
    to_keep(e, BOSUN)
    hand_only(e, LADLE, RATION, face_up=(KNIFE,))
    week_keeping(e, {BOSUN: 23, CAP: QUIET_MONKEY, LADLE: QUIET_BOAR, SNOB: QUIET_STORM},
                 lambda g: g.phase == "neighbour")
    assert e.decider == LADLE and e.legal_actions() == [A.NEIGHBOUR + CAP, A.NEIGHBOUR + SNOB]
    e.apply(A.NEIGHBOUR + SNOB)
    assert e.decider == SNOB and e.legal_actions() == [A.TAKE_HAND, A.TAKE + KNIFE]
    e.apply(A.TAKE + KNIFE)
    assert e.owner[KNIFE] == IN_BOX and e.phase == "offer"


# --- trades (D16) -----------------------------------------------------------------------------------


def test_an_accepted_offer_swaps_the_goods_and_one_that_cannot_be_met_is_refused_at_once():
    e = game()
    to_keep(e, BOSUN)
    hand_only(e, CAP, KNIFE + 1)
    week_keeping(e, {}, after_fate)
    assert e.decider == BOSUN
    e.apply(A.encode(("offer", CAP, A.food_good(2), PISTOL)))
    assert events(e, "refused")[-1]["why"] == "cannot" and e.decider == CAP
    e.apply(A.PASS)
    assert e.decider == LADLE
    offer = A.encode(("offer", CAP, A.food_good(1), KNIFE))  # the first knife names them all
    assert offer in e.legal_actions()
    food = list(e.food)
    e.apply(offer)
    assert e.phase == "answer" and e.decider == CAP
    e.apply(A.ACCEPT)
    assert e.owner[KNIFE + 1] == LADLE and not e.face_up[KNIFE + 1]
    assert e.food[LADLE] == food[LADLE] - 1 and e.food[CAP] == food[CAP] + 1
    assert e.phase == "offer" and e.decider == SNOB


def test_offers_never_trade_food_for_food_and_name_items_by_their_first_card():
    e = game()
    week_keeping(e, {}, after_fate)
    for code in e.legal_actions()[1:]:
        _, other, given, wanted = A.decode(code)
        assert not (A.good_portions(given) and A.good_portions(wanted))
        for good in (given, wanted):
            if not A.good_portions(good):
                assert e.name_good[good] == good


# --- hunger, wounds and death (D17, D19, D8) -----------------------------------------------------------


def test_hunger_eats_strength_less_in_the_jungle_with_the_garden_and_food_cards_smallest_first():
    e = game()
    week_keeping(e, {}, after_fate)
    hand_only(e, BOSUN, STORES, RATION)
    hand_only(e, CAP)
    hand_only(e, LADLE, face_up=(GARDEN,))
    hand_only(e, SNOB, MEDICINE)
    e.food = [5, 4, 3, 2]
    e.wounds = [0, 0, 5, 4]
    first_choices_until(e, lambda g: g.week == 2)
    assert e.food[:2] == [5 + 2 + 4 - 8, 0] and e.owner[STORES] == IN_BOX and e.owner[RATION] == IN_BOX
    assert not e.alive[LADLE] and e.food[LADLE] == 0  # 3 + 2 portions short of 6: a sixth wound
    assert e.alive[SNOB] and e.wounds[SNOB] == 4 and e.owner[MEDICINE] == IN_BOX  # medicine saved him
    assert e.food[SNOB] == 2  # too little to eat: he keeps it


def test_the_dead_take_no_tokens_and_never_decide():
    e = game()
    week_keeping(e, {}, after_fate)
    e.food[LADLE], e.wounds[LADLE] = 0, 5
    hand_only(e, LADLE)
    first_choices_until(e, lambda g: g.week == 2 and g.phase == "keep")
    assert not e.alive[LADLE]
    while e.week == 2 and not e.over:
        assert e.deciding != LADLE
        if e.phase == "keep":
            keep(e, 2 if 2 in e.choice or 2 in e.fate_deck else e.choice[0])  # Ladle 3: his card and place
        else:
            e.apply(e.legal_actions()[0])
        assert e.tokens[LADLE] == 0 and e.place_tokens[e.place[LADLE]] == 0


def test_when_everyone_dies_the_game_is_lost_by_all():
    e = game()
    week_keeping(e, {}, after_fate)
    for c in range(4):
        hand_only(e, c)
        e.food[c], e.wounds[c] = 0, [8, 7, 6, 5][c] - 1
    first_choices_until(e, lambda g: g.over)
    assert e.ending == "lost" and e.win_shares() == [0.0] * 4


def test_a_game_ends_stranded_after_the_last_week():
    e = game()
    e.week = MAX_WEEKS
    first_choices_until(e, lambda g: g.over)
    assert e.ending == "stranded" and e.week == MAX_WEEKS
    assert sum(e.win_shares()) == pytest.approx(1.0)


# --- hidden information (D6) ----------------------------------------------------------------------------


def test_a_seat_sees_its_own_friend_enemy_and_hand_and_nothing_of_anothers():
    rules = Rules(players=5)
    deal = Deal.random(rules, 9, 1)
    e = DesertIslandEngine(rules, deal, random_draws(rules, 9, 1))
    rnd = random.Random(1)
    for _ in range(60):
        if e.over:
            break
        for seat in range(5):
            seen = e.known_to(seat)
            me = deal.roles[seat]
            assert (seen["friend"], seen["enemy"]) == (deal.friends[seat], deal.enemies[seat])
            assert seen["hand"] == e.cards_of(me, face_up=False)
            other = (seat + 1) % 5
            them = deal.roles[other]
            # another seat's secrets changed: what this seat sees does not change
            hand = e.cards_of(them, face_up=False)
            spare = [k for k in e.item_deck if k not in hand]
            if hand and spare:
                e.owner[hand[0]], e.owner[spare[0]] = -1, them
                e.item_deck[e.item_deck.index(spare[0])] = hand[0]
                changed = e.known_to(seat)
                e.owner[hand[0]], e.owner[spare[0]] = them, -1
                e.item_deck[e.item_deck.index(hand[0])] = spare[0]
                assert changed == seen
        e.apply(rnd.choice(e.legal_actions()))


@given(st.integers(0, 10**6))
@settings(max_examples=15, deadline=None)
def test_the_friends_and_enemies_of_others_never_reach_a_seat(seed):
    rules = Rules(players=4)
    deal = Deal.random(rules, seed, 0)
    swapped = Deal(deal.roles, deal.places, deal.items, deal.fate, (deal.friends[0], deal.friends[2],
                   deal.friends[1], deal.friends[3]), (deal.enemies[0], deal.enemies[2], deal.enemies[1],
                                                       deal.enemies[3]))
    a = DesertIslandEngine(rules, deal, random_draws(rules, seed, 0))
    b = DesertIslandEngine(rules, swapped, random_draws(rules, seed, 0))
    rnd = random.Random(seed)
    while not a.over:
        assert a.known_to(0) == b.known_to(0) and a.legal_actions() == b.legal_actions()
        code = rnd.choice(a.legal_actions())
        a.apply(code)
        b.apply(code)
    assert b.over


# --- games of random choices ---------------------------------------------------------------------------


def random_game(players: int, seed: int, game_index: int, phases: set | None = None) -> DesertIslandEngine:
    rules = Rules(players=players)
    engine = DesertIslandEngine(rules, Deal.random(rules, seed, game_index), random_draws(rules, seed, game_index))
    rnd = random.Random(seed * 7919 + game_index)
    while not engine.over:
        codes = engine.legal_actions()
        assert codes and codes == sorted(set(codes)) and codes[-1] < A.ACTION_LIMIT, engine.phase
        assert engine.alive[engine.deciding], "the dead never decide"
        if phases is not None:
            phases.add(engine.phase)
        engine.apply(rnd.choice(codes))
        assert all(0 <= f <= A.MAX_FOOD for f in engine.food)
        assert all(t >= 0 for t in engine.tokens) and engine.fire >= 0
        assert all(engine.food[c] == 0 for c in range(players) if not engine.alive[c])
        held = [k for k in range(40) if engine.owner[k] >= 0]
        assert len(held) + len(engine.item_deck) + len(engine.drawn) + engine.owner.count(IN_BOX) == 40
        kept = [engine.kept] if engine.phase == "act" else []
        assert sorted(engine.fate_deck + [k for _, k in engine.played] + engine.choice + kept) == list(range(30))
    assert engine.decider == -1 and engine.legal_actions() == []
    return engine


@pytest.mark.parametrize("players", [4, 5, 6])
def test_random_games_end_with_shares_that_sum_to_one_or_a_general_loss(players):
    phases: set[str] = set()
    for g in range(600):
        engine = random_game(players, 11, g, phases)
        assert 1 <= engine.week <= MAX_WEEKS and len(engine.history) < 2000
        shares = engine.win_shares()
        if any(engine.alive):
            assert sum(shares) == pytest.approx(1.0)
        else:
            assert engine.ending == "lost" and shares == [0.0] * players
    assert phases == set(DECISIONS)  # every kind of decision came up


@given(st.integers(4, 6), st.integers(0, 2**32 - 1), st.integers(0, 1000))
@settings(max_examples=40, deadline=None)
def test_any_seed_plays_to_an_end(players, seed, g):
    engine = random_game(players, seed, g)
    assert engine.ending in ("rescued", "lost", "stranded")


def test_play_random_is_the_same_game_for_the_same_seed():
    a = play_random(Rules(players=6), 3, 5)
    b = play_random(Rules(players=6), 3, 5)
    assert a.over and a.history == b.history and a.events == b.events
