"""Desert Island's rule data (docs/RULES-DI.md D1-D4): the characters and places in play at each
player count, the two decks built from their data file, and every bad setting or decks file
refused with what is wrong named."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from sim.desert_island.rules import (
    CHARACTERS,
    EVENTS,
    FATE_CARDS,
    ITEM_CARDS,
    STANDARD_DECKS,
    DeckError,
    FateCard,
    RuleError,
    Rules,
    load_decks,
)

NAMES = [name for name, _, _ in CHARACTERS]


def test_the_fate_deck_spreads_names_events_numbers_and_markers_evenly():
    fate = Rules().deck_data.fate
    assert len(fate) == FATE_CARDS
    assert Counter(c.character for c in fate) == dict.fromkeys(NAMES, 5)
    assert Counter(c.event for c in fate) == dict.fromkeys(EVENTS, 6)
    assert Counter(c.number for c in fate) == dict.fromkeys(range(1, 7), 5)
    assert Counter(c.marker for c in fate) == {"wood": 10, "torch": 8, "ship": 6, None: 6}
    for name in NAMES:  # each character meets five numbers and every event once, a ship and a blank once
        mine = [c for c in fate if c.character == name]
        assert len({c.number for c in mine}) == 5 and {c.event for c in mine} == set(EVENTS)
        assert Counter(c.marker for c in mine)["ship"] == 1 and Counter(c.marker for c in mine)[None] == 1
    for event in EVENTS:  # no event goes with one marker only
        assert len({c.marker for c in fate if c.event == event}) >= 3
    # D2's layout, card by card (before the game's shuffle): the same deck for every game
    assert fate[0] == FateCard("Bosun", 1, "boar", "wood")
    assert fate[7] == FateCard("Cap", 3, "rats", "wood")
    assert fate[16] == FateCard("Milady", 1, "rats", "torch")
    assert fate[29] == FateCard("Kid", 4, "rats", None)


def test_the_item_deck_holds_the_kinds_d3_names():
    items = Rules().deck_data.items
    assert len(items) == ITEM_CARDS
    assert Counter(c.kind for c in items) == {"food": 10, "weapon": 10, "medicine": 5, "treasure": 8, "trap": 2,
                                              "shovel": 2, "lens": 2, "garden": 1}
    assert {c.uses for c in items if c.kind == "treasure"} == {"held"}
    assert {c.uses for c in items if c.kind == "garden"} == {"face_up"}
    assert sorted(c.value for c in items if c.kind == "weapon" and c.uses == "kept") == [1, 1, 1, 2, 2, 3]


@pytest.mark.parametrize("players, gone", [(6, set()), (5, {"Cave", "Kid"}), (4, {"Cave", "Kid", "Hill", "Milady"})])
def test_fewer_players_leave_places_and_characters_out(players, gone):
    rules = Rules(players=players)
    assert len(rules.places) == len(rules.characters) == players
    assert gone == ({"Beach", "Jungle", "Swamp", "Stream", "Hill", "Cave"} - set(rules.places)) | (
        set(NAMES) - set(rules.characters))


@pytest.mark.parametrize("setting, message", [
    ({"players": 3}, "rules.players must be a whole number from 4 to 6, not 3"),
    ({"players": True}, "rules.players"),
    ({"ships_to_rescue": 0}, "rules.ships_to_rescue"),
    ({"start_food": -1}, "rules.start_food"),
    ({"decks": "no-such-file.toml"}, "rules.decks: no-such-file.toml: cannot be read"),
])
def test_an_impossible_setting_is_refused_naming_it(setting, message):
    with pytest.raises(RuleError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Rules(**setting)


def _decks_file(tmp_path: Path, old: str, new: str) -> Path:
    text = STANDARD_DECKS.read_text()
    assert old in text
    path = tmp_path / "decks.toml"
    path.write_text(text.replace(old, new))
    return path


def test_a_decks_file_with_other_counts_builds_its_own_decks(tmp_path):
    """The decks are rule parameters: a file with more ships gives more ship markers, the rest alike."""
    path = _decks_file(tmp_path, "ship = 6", "ship = 10")
    rules = Rules(decks=str(path))
    assert Counter(c.marker for c in rules.deck_data.fate) == {"wood": 10, "torch": 8, "ship": 10, None: 2}
    assert rules.deck_data.items == Rules().deck_data.items and rules.as_record()["decks"] == str(path)


@pytest.mark.parametrize("old, new, key", [
    ("count = 4}", "count = 5}", "items.cards: the counts add up to 41 cards, not 40"),
    ('kind = "trap"', 'kind = "snare"', "items.cards[13].kind: unknown kind 'snare'"),
    ('uses = "kept", count = 1},\n    {name = "rock"', 'uses = "later", count = 1},\n    {name = "rock"',
     "items.cards[5].uses: unknown use 'later'"),
    ("wood = 10", "wood = 20", "fate.markers: 34 markers for 30 cards"),
    ('"storm"]', '"storm", "flood"]', "fate.events: must list each of"),
    ("[fate]", "[fate", "cannot be read as TOML"),
])
def test_a_bad_decks_file_is_refused_naming_the_file_and_key(tmp_path, old, new, key):
    path = _decks_file(tmp_path, old, new)
    with pytest.raises(DeckError) as info:
        load_decks(path)
    assert str(info.value).startswith(str(path)) and key in str(info.value) and "\n" not in str(info.value)
