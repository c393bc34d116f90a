"""Forbidden Island's `GAME`: what the commands need of it (policies/game.py)."""

from __future__ import annotations

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
        RuleOption("players", "--players", "number", "Players 2-4.  [default: 2]"),
        # F4: the printed levels are the starting water marks
        RuleOption("difficulty", "--difficulty", "level", "A printed level: its starting water mark (F4).  "
                   "[default: novice]", choices=tuple(DIFFICULTIES)),
    )
    rule_words_example = "players=3 difficulty=elite"
    setting_help = "--players (2-4) and --difficulty"
    grid_keys = ("players", "difficulty")
    replay_keys = ("players", "difficulty", "policy")
    sweep_keys = ("players", "difficulty", "policy")
    sweep_number_keys = ("players",)
    sweep_name_keys = ("difficulty", "policy")
    action_columns = ()
    # F4: the printed game's four levels are its starting water marks
    levels = {name: {"difficulty": name} for name in ("novice", "normal", "elite", "legendary")}

    @cached_property
    def rules_module(self):
        from sim.forbidden_island import rules

        return rules

    @cached_property
    def layout(self):
        from sim.forbidden_island import layout

        return layout

    @cached_property
    def records(self):
        from sim.forbidden_island import records

        return records

    @cached_property
    def boards(self):
        from sim.forbidden_island import boards

        return boards

    @cached_property
    def narrative(self):
        from sim.forbidden_island import narrative

        return narrative

    @cached_property
    def checks(self):
        from policies.forbidden_island import checks

        return checks

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
        return {"players": rules.players, "difficulty": rules.difficulty, "start_mark": rules.start_mark}

    def options_of(self, rules) -> dict:
        options = {"players": rules.players}
        if rules.difficulty != self.rules_from_options().difficulty:
            options["difficulty"] = rules.difficulty
        return options

    def rule_controls(self) -> list[dict]:
        from sim.forbidden_island.rules import DIFFICULTIES

        return [{"name": "difficulty", "kind": "choice", "label": "Level (the starting water mark, F4)",
                 "choices": [{"value": name, "label": f"{name.capitalize()} (water mark {mark})"}
                             for name, mark in DIFFICULTIES.items()],
                 "default": self.rules_from_options().difficulty}]

    def cell_key(self, rules, policy, variant):
        return f"fi_p{rules.players}_{rules.difficulty}_{policy}"

    def rules_of_row(self, row):
        return self.rules(players=int(row["players"]), difficulty=str(row["difficulty"]))

    def record_name(self, row) -> str:
        return (f"fi-{row['policy']}-p{row['players']}-{row['difficulty']}-seed{row['seed']}"
                f"-game{int(row['game']):07d}.json")

    def sweep_settings(self, grid: dict, bad) -> list:
        """The settings a sweep grid names: players x difficulty x policy (F2, F4), as
        (rules, policy, variant, labels) with no variant nor labels."""
        import itertools
        import re

        from policies.registry import UnknownPolicy
        from sim.forbidden_island.rules import RuleError

        def as_list(value) -> list:
            return value if isinstance(value, list) else [value]

        for name in as_list(grid.get("policy", [self.default_policy])):
            try:
                self.check_policy(name)
            except UnknownPolicy as exc:
                raise bad("grid.policy", str(exc)) from None
        settings = []
        for players, difficulty, policy in itertools.product(
                as_list(grid.get("players", [2])), as_list(grid.get("difficulty", ["novice"])),
                as_list(grid.get("policy", [self.default_policy]))):
            try:
                rules = self.rules(players=players, difficulty=difficulty)
            except RuleError as exc:
                found = re.match(r"rules\.(\w+) (.*)", str(exc))
                key, why = (f"grid.{found.group(1)}", found.group(2)) if found else ("grid", str(exc))
                raise bad(key, why) from None
            settings.append((rules, policy, "normal", {}))
        return settings

    def cell_labels(self, rules, variant, extra) -> dict:
        return {}

    # --- pages, tuning and benchmarks ----------------------------------------------------------
    # No play page, and no tunable weights (no player of it declares DEFAULTS): the protocol's
    # refusals stand.

    def bench(self):
        from policies.forbidden_island import bench

        return bench


GAME = ForbiddenIsland()
