"""Forbidden Island's `GAME`: what the commands need of it (policies/game.py)."""

from __future__ import annotations

import itertools
from functools import cached_property

from policies.game import Game, RuleOption
from sim.forbidden_island.rules import DIFFICULTIES


class ForbiddenIsland(Game):
    name = "forbidden-island"
    title = "Forbidden Island"
    rules_doc = "docs/RULES-FI.md"
    skilled_policy = "skilled"
    players = (2, 3, 4)
    options = (
        RuleOption("players", "--players", "number", "Players 2-4.  [default: 2]", tag="p"),
        # F4: the printed levels are the starting water marks
        RuleOption("difficulty", "--difficulty", "level", "A printed level: its starting water mark (F4).  "
                   "[default: novice]", choices=tuple(DIFFICULTIES), label="Level (the starting water mark, F4)"),
    )
    rule_words_example = "players=3 difficulty=elite"
    setting_help = "--players (2-4) and --difficulty"
    action_columns = ()
    # F4: the printed game's four levels are its starting water marks
    levels = {name: {"difficulty": name} for name in ("novice", "normal", "elite", "legendary")}
    strength_settings = ({"players": 2, "difficulty": "normal"}, {"players": 4, "difficulty": "normal"})
    # the printed ladder at every player count: the cells the anchored report reads
    tune_cells = tuple({"players": n, "difficulty": level} for n, level in itertools.product(players, levels))

    @cached_property
    def printed_ladder(self):
        from policies.forbidden_island import levels

        return levels

    def rules_from_options(self, players=None, difficulty=None):
        from sim.forbidden_island.rules import Rules

        return Rules(players=2 if players is None else players, difficulty=difficulty or "novice")

    def treasures_of(self, played) -> int:
        return len(played.captured)

    def setting_line(self, rules) -> str:
        return f"Forbidden Island, {rules.players} players, {rules.difficulty} (water mark {rules.start_mark})"

    def setting(self, rules) -> dict:
        return super().setting(rules) | {"start_mark": rules.start_mark}

    def choice_label(self, option, value: str) -> str:
        return f"{value.capitalize()} (water mark {DIFFICULTIES[value]})"


GAME = ForbiddenIsland()
