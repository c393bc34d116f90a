"""The parts of a Desert Island week that read fate cards (sim/desert_island/week.py): the
rulebook's own examples, and D9."""

from __future__ import annotations

import pytest

from sim.desert_island.week import FIRE, NOTHING, SHIP, lookout, storm_reach, struck, week_event


@pytest.mark.parametrize("markers, seen", [
    (["wood", "torch", "ship"], SHIP),
    (["ship", None, "torch", "wood", "ship"], SHIP),  # one ship token, however many ships
    (["wood", "torch", None], FIRE),  # the fire burns, no ship sees it
    (["wood", "ship"], NOTHING),  # no torch: the tokens stay for next week
    (["torch", "torch", "ship"], NOTHING),
    ([None], NOTHING),
])
def test_the_lookout_needs_wood_and_a_torch_and_a_ship_for_a_ship(markers, seen):
    assert lookout(markers) == seen


def test_the_most_frequent_event_happens():
    # the rulebook's example: rats, wild boar, wild boar, malaria, storm
    assert week_event(["rats", "boar", "boar", "malaria", "storm"]) == "boar"


def test_among_equally_frequent_events_the_one_played_first_happens():
    # the rulebook's example: rats, wild boar, wild boar, malaria, rats, storm -> the wild boar,
    # whose second card came before the rats' second
    assert week_event(["rats", "boar", "boar", "malaria", "rats", "storm"]) == "boar"
    assert week_event(["storm", "monkey"]) == "storm"
    assert week_event(["rats", "boar", "malaria", "boar", "rats"]) == "boar"  # boar's pair is complete first


def test_fate_strikes_the_most_marked_and_every_one_tied_with_them():
    assert struck({"Bosun": 2, "Cap": 4, "Kid": 1}) == ["Cap"]
    assert struck({"Bosun": 3, "Cap": 1, "Kid": 3}) == ["Bosun", "Kid"]


def test_a_storm_reaches_the_furthest_place_of_those_it_strikes():
    assert storm_reach([4]) == 4 and storm_reach([2, 5]) == 5
