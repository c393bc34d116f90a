"""The lab's two games behind one interface, for the commands that work on either.

`sweep`, `find` and the pictures ask a `GameKind` for what differs between Island Escape and
Forbidden Island - which rule keys make a setting, how its games are played, tabulated and
written as records, how a table row names its game - and keep everything else (seeds, batches,
resuming, summaries, figures) written once. Each game's own modules load only when that game
is used, so a command on one game never pays for the other's imports.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

GAME_COLUMN = "game_kind"  # the table column naming the game; Island Escape's tables predate it


class GameKind:
    """What a command needs to know of one game. Subclasses fill in the class attributes."""

    name: str  # as `--game` takes it
    title: str
    layout_module: str  # the kernel's layout: its result columns and causes
    rules_module: str  # the game's Rules
    grid_keys: tuple[str, ...]  # the rule keys of a setting, as a sweep file's grid names them
    replay_keys: tuple[str, ...]  # the table columns that name one game (with seed and game)

    @property
    def causes(self) -> tuple[str, ...]:
        """The win first, then the loss causes in the order the rules check them."""
        return import_module(self.layout_module).CAUSES

    @property
    def result_fields(self) -> tuple[str, ...]:
        """The columns of the kernel's raw result rows."""
        return import_module(self.layout_module).RESULT_FIELDS

    def rules(self, **setting: Any):
        return import_module(self.rules_module).Rules(**setting)

    def code_digest(self) -> str:
        """A hash of every source a game's result depends on: equal digests, rules, policy, seed
        and game index play the same game (a sweep cell is resumed only under the same one)."""
        from sim import source_digest

        return source_digest()

    def check_policy(self, name: str) -> None:
        """Raise ValueError (naming the known policies) if `name` is not one of the game's."""
        raise NotImplementedError

    def policy_names(self) -> list[str]:
        raise NotImplementedError

    def search_policies(self) -> set[str]:
        """The policies that search (seconds a game; the longest to compile too)."""
        raise NotImplementedError

    @property
    def default_policy(self) -> str:
        raise NotImplementedError

    def run_games(self, rules, policy: str, games: int, seed: int = 0, first_game: int = 0,
                  threads: int | None = None, on_batch=None) -> np.ndarray:
        raise NotImplementedError

    def results_frame(self, raw: np.ndarray, rules, policy: str, seed: int, first_game: int = 0) -> pd.DataFrame:
        raise NotImplementedError

    def setting(self, rules) -> dict:
        """The setting as table columns (a sweep's summary row starts with them)."""
        raise NotImplementedError

    def cell_key(self, rules, policy: str, variant: str) -> str:
        """A sweep cell's file name: every rule that can vary, and the policy."""
        raise NotImplementedError

    def rules_of_row(self, row) -> Any:
        """The rules a per-game table row was played under (its `replay_keys` columns)."""
        raise NotImplementedError

    def record_name(self, row) -> str:
        """A record's file name for a table row: game, policy, setting, seed and game index, so
        games of different cells (which play the same game numbers) never share a name."""
        raise NotImplementedError

    def export(self, rules, policy: str, seed: int, games: Iterable[int]) -> list:
        """Replayable records of the chosen games of a setting (the kernel plays them again)."""
        raise NotImplementedError

    records_module: str  # where the game's records are read and written
    boards_module: str  # where its island is drawn

    def write_record(self, path: str | Path, record) -> None:
        import_module(self.records_module).write_record(path, record)

    def load_record(self, path: str | Path):
        return import_module(self.records_module).load_record(path)

    def replay_pictures(self, record, folder: str | Path, gif: str | Path | None = None) -> list[Path]:
        """The island drawn after each turn of a record, as PNG files in `folder` (and, given
        `gif`, an animated GIF of them)."""
        return import_module(self.boards_module).replay_pictures(record, folder, gif=gif)

    def __repr__(self) -> str:
        return f"<game {self.name}>"


class IslandEscape(GameKind):
    name = "island-escape"
    title = "Island Escape"
    grid_keys = ("players", "cards_per_treasure", "gauge", "swim_cost", "actions_per_turn")
    replay_keys = ("players", "cards_per_treasure", "gauge", "swim_cost", "actions_per_turn", "policy")
    layout_module = "sim.layout"
    rules_module = "sim.rules"
    records_module = "sim.records"
    boards_module = "experiments.boards"


    def check_policy(self, name: str) -> None:
        from policies.registry import player_params

        player_params(name)  # raises UnknownPolicy (a ValueError) naming the known ones

    def policy_names(self) -> list[str]:
        from policies.registry import POLICIES

        return list(POLICIES)

    def search_policies(self) -> set[str]:
        from policies.registry import SLOW

        return set(SLOW)

    @property
    def default_policy(self) -> str:
        from policies.registry import DEFAULT_POLICY

        return DEFAULT_POLICY

    def run_games(self, rules, policy, games, seed=0, first_game=0, threads=None, on_batch=None):
        from experiments.runner import run_games

        return run_games(rules, policy, games, seed, first_game=first_game, threads=threads, on_batch=on_batch)

    def results_frame(self, raw, rules, policy, seed, first_game=0):
        from experiments.runner import results_frame

        return results_frame(raw, rules, policy, seed, first_game=first_game)

    def setting(self, rules) -> dict:
        return {"players": rules.players, "cards_per_treasure": rules.cards_per_treasure,
                "gauge": " ".join(rules.gauge), "swim_cost": rules.swim_cost,
                "actions_per_turn": rules.actions_per_turn}

    def cell_key(self, rules, policy, variant):
        gauge = "-".join(rules.gauge)
        return (f"p{rules.players}_c{rules.cards_per_treasure}_s{rules.swim_cost}_a{rules.actions_per_turn}"
                f"_{variant}_{policy}_g{gauge}")

    def rules_of_row(self, row):
        return self.rules(players=int(row["players"]), cards_per_treasure=int(row["cards_per_treasure"]),
                          gauge=tuple(str(row["gauge"]).split()), swim_cost=int(row["swim_cost"]),
                          actions_per_turn=int(row["actions_per_turn"]))

    def record_name(self, row) -> str:
        gauge = "".join(str(row["gauge"]).split())  # card codes are two characters each
        return (f"{row['policy']}-p{row['players']}-c{row['cards_per_treasure']}-s{row['swim_cost']}"
                f"-a{row['actions_per_turn']}-g{gauge}-seed{row['seed']}-game{int(row['game']):07d}.json")

    def export(self, rules, policy, seed, games):
        from experiments.runner import export_records

        return export_records(rules, policy, seed, games)



class ForbiddenIsland(GameKind):
    name = "forbidden-island"
    title = "Forbidden Island"
    grid_keys = ("players", "difficulty")
    replay_keys = ("players", "difficulty", "policy")
    layout_module = "sim.forbidden_island.layout"
    rules_module = "sim.forbidden_island.rules"
    records_module = "sim.forbidden_island.records"
    boards_module = "experiments.forbidden_island_boards"


    def code_digest(self) -> str:
        from sim import source_digest

        return source_digest()

    def check_policy(self, name: str) -> None:
        from policies.forbidden_island.registry import policy_id

        policy_id(name)

    def policy_names(self) -> list[str]:
        from policies.forbidden_island.registry import describe

        return [name for name, _ in describe()]

    def search_policies(self) -> set[str]:
        from policies.forbidden_island.registry import SLOW

        return set(SLOW)

    @property
    def default_policy(self) -> str:
        from policies.forbidden_island.registry import DEFAULT_POLICY

        return DEFAULT_POLICY

    def run_games(self, rules, policy, games, seed=0, first_game=0, threads=None, on_batch=None):
        from experiments.forbidden_island import run_games

        return run_games(rules, policy, games, seed, first_game, threads, on_batch=on_batch)

    def results_frame(self, raw, rules, policy, seed, first_game=0):
        from experiments.forbidden_island import results_frame

        return results_frame(raw, rules, policy, seed, first_game)

    def setting(self, rules) -> dict:
        return {"players": rules.players, "difficulty": rules.difficulty, "start_mark": rules.start_mark}

    def cell_key(self, rules, policy, variant):
        return f"fi_p{rules.players}_{rules.difficulty}_{policy}"

    def rules_of_row(self, row):
        return self.rules(players=int(row["players"]), difficulty=str(row["difficulty"]))

    def record_name(self, row) -> str:
        return (f"fi-{row['policy']}-p{row['players']}-{row['difficulty']}-seed{row['seed']}"
                f"-game{int(row['game']):07d}.json")

    def export(self, rules, policy, seed, games):
        from experiments.forbidden_island import export_games

        return export_games(rules, policy, seed, games)



ISLAND_ESCAPE = IslandEscape()
FORBIDDEN_ISLAND = ForbiddenIsland()
GAME_KINDS: dict[str, GameKind] = {g.name: g for g in (ISLAND_ESCAPE, FORBIDDEN_ISLAND)}
NAMES = tuple(GAME_KINDS)


def game_kind(name: str) -> GameKind:
    try:
        return GAME_KINDS[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r} (choose from {', '.join(GAME_KINDS)})") from None


def game_of_rules(rules) -> GameKind:
    """The game whose Rules class `rules` is."""
    from sim.rules import Rules

    return ISLAND_ESCAPE if isinstance(rules, Rules) else FORBIDDEN_ISLAND


def game_of_table(df: pd.DataFrame) -> GameKind:
    """The game a per-game table holds: its `game_kind` column, absent from Island Escape's
    tables (written before a second game existed). A table mixing both games is refused."""
    if GAME_COLUMN not in df.columns:
        return ISLAND_ESCAPE
    names = set(df[GAME_COLUMN].astype(str).unique())
    if len(names) > 1:
        raise ValueError(f"the table mixes games ({', '.join(sorted(names))}); pick one with --where")
    return game_kind(names.pop()) if names else ISLAND_ESCAPE
