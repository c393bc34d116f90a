"""Harder rules never help the same player: paired games (same seed: the same islands and
flood orders) under cards per treasure 1 -> 2 -> 3, gauge length 10 -> 9 -> 8 and swim cost
1 -> 2. For every fair policy and several skills, the harder setting may not win clearly more
(its paired 95% interval of "harder minus easier" must reach zero or below).
"""

from __future__ import annotations

import pytest

from experiments.sweep import paired_difference
from policies.island_escape.registry import REGISTRY
from policies.runner import run_games
from sim.island_escape import layout as L
from sim.island_escape.rules import Rules, gauge_of_length

CHAINS = {
    "cards per treasure": [Rules(players=3, cards_per_treasure=c) for c in (1, 2, 3)],
    "gauge length": [Rules(players=3, gauge=gauge_of_length(n)) for n in (10, 9, 8)],
    "swim cost": [Rules(players=3, swim_cost=c) for c in (1, 2)],
}
PLAYERS = sorted(n for n in REGISTRY.policies if n not in REGISTRY.unfair | REGISTRY.slow and n != "skilled") + [
    "skilled@0", "skilled@0.3", "skilled@0.6"]


def _won(rules, player, games):
    return run_games(rules, player, games, seed=13)[:, 0] == L.CAUSE_WIN


@pytest.mark.parametrize("player", PLAYERS)
@pytest.mark.parametrize("knob", sorted(CHAINS))
def test_harder_rules_never_win_clearly_more(player, knob):
    games = 3000
    won = [_won(rules, player, games) for rules in CHAINS[knob]]
    for easier, harder in zip(won, won[1:], strict=False):
        d = paired_difference(harder, easier)
        assert d["ci95"][0] <= 0.0, (player, knob, d)


@pytest.mark.slow
@pytest.mark.parametrize("knob", sorted(CHAINS))
def test_harder_rules_never_help_the_search(knob):
    won = [_won(rules, "lookahead", 300) for rules in CHAINS[knob]]
    for easier, harder in zip(won, won[1:], strict=False):
        assert paired_difference(harder, easier)["ci95"][0] <= 0.0
