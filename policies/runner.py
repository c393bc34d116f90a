"""Games in bulk for every game, written once: a setting's games played by a player into raw result
rows, tables and records. Seeds, threads and batches are policies/batches.py's.

A game's parts are found from its `Rules` (their module is `sim/<game>/rules.py`): its kernel's
layout (`sim/<game>/layout.py`: RESULT_FIELDS, CAUSES, RESULT_INT8, LOG_SHAPE), its conversions
(`sim/<game>/convert.py`: `params_of(rules)`, `record_of_log(...)`), its players
(`policies/<game>/registry.py`: REGISTRY) and the compiled entries of policies/entries.py. Game
g of a seed is dealt the same whatever plays it and in every setting (common random numbers).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib import import_module
from typing import TYPE_CHECKING

import numpy as np

from policies.batches import play_batches, play_in_chunks

if TYPE_CHECKING:
    import pandas as pd


class ExportError(RuntimeError):
    """A game whose record cannot be written (its log ran out, or its replay differs)."""


def folder_of(rules) -> str:
    """The folder of the game whose rules `rules` are (sim/<folder>/rules.py)."""
    module = type(rules).__module__.split(".")
    if len(module) != 3 or module[0] != "sim" or module[2] != "rules":
        raise TypeError(f"{type(rules).__name__} is not a game's Rules")
    return module[1]


def part(rules, name: str):
    """A part of the game of `rules`: "layout" or "convert" (sim/<game>/), "registry" (its REGISTRY)."""
    folder = folder_of(rules)
    if name == "registry":
        return import_module(f"policies.{folder}.registry").REGISTRY
    return import_module(f"sim.{folder}.{name}")


def _entry(rules, policy: str, table: str, policy_params: np.ndarray | None = None):
    """The compiled entry that plays `policy` (a player string) in this setting, the rule
    parameters and the policy's parameters."""
    from policies import entries

    name, pp = part(rules, "registry").playing(policy, rules.players, policy_params)
    return getattr(entries, table)[folder_of(rules), name], part(rules, "convert").params_of(rules), pp


def run_games(rules, policy: str, games: int, seed: int = 0, first_game: int = 0, threads: int | None = None,
              policy_params: np.ndarray | None = None, on_batch: Callable[[int], None] | None = None) -> np.ndarray:
    """Raw kernel results, int32 [games, NRESULT] (columns: the layout's RESULT_FIELDS)."""
    return play_in_chunks(*_entry(rules, policy, "PLAY_CHUNK", policy_params), games, seed, first_game, threads,
                          part(rules, "layout").NRESULT, on_batch)


def raw_batches(rules, policy: str, games: int, seed: int = 0, threads: int | None = None):
    """`run_games`' rows batch by batch, (first game, rows), in constant memory (`play_batches`)."""
    return play_batches(*_entry(rules, policy, "PLAY_CHUNK"), games, seed, 0, threads, part(rules, "layout").NRESULT)


def results_frame(raw: np.ndarray, rules, policy: str, seed: int, first_game: int = 0) -> pd.DataFrame:
    """Per-game results as a table: the game, seed and game number, the setting (the game's
    `table_keys`), the player, then the outcome (`won` where a game is won, and its cause or
    ending), then the result fields; small counts as int8, the others int16."""
    import pandas as pd  # imported here so that playing games does not pay for pandas

    from policies.game import game_of_rules

    game, layout = game_of_rules(rules), part(rules, "layout")
    n = len(raw)

    def constant(value) -> pd.Categorical | np.ndarray:
        if isinstance(value, str):
            return pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), categories=[value])
        return np.full(n, value, dtype=np.int8)

    columns = {"game_kind": constant(game.name), "seed": np.full(n, seed, dtype=np.int64),
               "game": np.arange(first_game, first_game + n, dtype=np.int64)}
    setting = game.setting(rules)
    columns.update((key, constant(setting[key])) for key in game.table_keys)
    columns["policy"] = constant(policy)
    first = layout.RESULT_FIELDS[0]
    if "win" in layout.CAUSES:
        columns["won"] = raw[:, 0] == layout.CAUSES.index("win")
    columns[first] = pd.Categorical.from_codes(raw[:, 0], categories=list(layout.CAUSES))
    df = pd.DataFrame(columns)
    for i, name in enumerate(layout.RESULT_FIELDS[1:], 1):
        df[name] = raw[:, i].astype(np.int8 if name in layout.RESULT_INT8 else np.int16)
    return df


def iter_batches(rules, policy: str, games: int, seed: int = 0, threads: int | None = None):
    """Yield the per-game table batch by batch, so that callers can save work as it completes."""
    for done, raw in raw_batches(rules, policy, games, seed, threads):
        yield results_frame(raw, rules, policy, seed, first_game=done)


def raw_of_frame(df: pd.DataFrame, rules) -> np.ndarray:
    """The kernel's raw rows back from a per-game table of `rules` (`results_frame`'s inverse)."""
    layout = part(rules, "layout")
    raw = np.empty((len(df), layout.NRESULT), dtype=np.int32)
    first = layout.RESULT_FIELDS[0]
    raw[:, 0] = df[first].astype(str).map({c: i for i, c in enumerate(layout.CAUSES)}).to_numpy()
    for i, name in enumerate(layout.RESULT_FIELDS[1:], 1):
        raw[:, i] = df[name].to_numpy()
    return raw


def simulate(rules, policy: str = "random", games: int = 1000, seed: int = 0, threads: int | None = None,
             progress: bool | None = None) -> pd.DataFrame:
    """Play `games` games and return the per-game table (`results_frame`).

    `progress`: None shows a bar on a terminal only, True always, False never.
    """
    import pandas as pd
    from tqdm import tqdm

    frames = []
    with tqdm(total=games, unit="game", unit_scale=True, delay=1.0, mininterval=0.5, desc=policy,
              disable=None if progress is None else not progress) as bar:
        for df in iter_batches(rules, policy, games, seed, threads):
            frames.append(df)
            bar.update(len(df))
    if not frames:
        return results_frame(np.empty((0, part(rules, "layout").NRESULT), dtype=np.int32), rules, policy, seed)
    return pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]


def logged_games(rules, policy: str, seed: int, games: Iterable[int]):
    """Each chosen game played with its log: (game, log, results row, final state), the log cut
    to its length (the layout's LOG_SHAPE; ExportError where a game outran it)."""
    entry, p, pp = _entry(rules, policy, "PLAY_LOGGED")
    layout = part(rules, "layout")
    res = np.zeros((1, layout.NRESULT), dtype=np.int32)
    for game in games:
        log = np.zeros(layout.LOG_SHAPE, dtype=np.int32)
        s = np.zeros(layout.NSTATE, dtype=np.int32)
        n = entry(p, pp, seed, game, res, log, s)
        if n >= layout.LOG_SHAPE[0]:
            raise ExportError(f"game {game} took more than {layout.LOG_SHAPE[0]} decisions; its record would be "
                              "cut short")
        yield game, log[:n], res[0].copy(), s


def export_games(rules, policy: str, seed: int, games: Iterable[int]) -> list[tuple]:
    """Records of chosen games (the game's record format), each with the kernel's final state."""
    convert = part(rules, "convert")
    out = []
    for game, log, row, s in logged_games(rules, policy, seed, games):
        where = f"{policy}, seed {seed}, game {game}"
        try:
            out.append((convert.record_of_log(rules, seed, game, log, row, s, where), s))
        except convert.ExportError as exc:
            raise ExportError(str(exc)) from None
    return out


def export_records(rules, policy: str, seed: int, games: int | Iterable[int]) -> list:
    """Replayable records of the chosen games (a count from game 0, or the game numbers): the
    kernel plays each again with its log, and the game's `record_of_log` writes it down."""
    numbers = range(games) if isinstance(games, int) else games
    return [record for record, _ in export_games(rules, policy, seed, numbers)]
