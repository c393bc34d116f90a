"""Kernel games as records (docs/STI-RECORD-FORMAT.md): the kernel plays each game logging every
decision, and the reference engine plays the same decisions from the kernel's deal and rolls; the
record is the engine's, and its replay must end where the kernel's game ended, or ExportError."""

from __future__ import annotations

from collections.abc import Iterable

from policies.survive_the_island.runner import ExportError, logged_game
from sim.survive_the_island import layout as L
from sim.survive_the_island.engine import Deal, DiceError, IllegalAction, SurviveTheIslandEngine
from sim.survive_the_island.records import Record, RecordError, record_of, replay, result_json
from sim.survive_the_island.rules import TILES, Rules, action_text

__all__ = ["ExportError", "export_record", "export_records"]


def export_record(rules: Rules, policy: str, seed: int, game: int) -> Record:
    """Game `game` of `seed` played by `policy` on the kernel, as a record."""
    logged = logged_game(rules, policy, seed, game)
    deal = Deal(tuple(TILES[t] for t in logged["tiles"]), tuple(logged["values"]))
    engine = SurviveTheIslandEngine(rules, deal, iter(logged["rolls"]))
    where = f"{policy}, seed {seed}, game {game}"
    for i, code in enumerate(logged["codes"], 1):
        try:
            engine.apply(code)
        except (IllegalAction, DiceError) as exc:
            raise ExportError(f"{where}: decision {i} ({action_text(code, engine.board)}) in turn {engine.turn}: "
                              f"the engine refuses it: {exc}") from None
    _same_end(engine, logged, where)
    record = record_of(engine, seed, game)
    try:
        again = replay(record)
    except RecordError as exc:
        raise ExportError(f"{where}: the record does not replay: {exc}") from None
    if result_json(again) != record.result:
        raise ExportError(f"{where}: the record's replay ends otherwise than the game it was written from")
    return record


def export_records(rules: Rules, policy: str, seed: int, games: int | Iterable[int]) -> list[Record]:
    """Records of the kernel's games `games` (a count from game 0, or the game numbers) of `seed`."""
    numbers = range(games) if isinstance(games, int) else games
    return [export_record(rules, policy, seed, g) for g in numbers]


def _same_end(engine: SurviveTheIslandEngine, logged: dict, where: str) -> None:
    """The engine's game ends as the kernel's: the same final snapshot and results row."""
    final = engine.snapshot()
    for key, value in logged["final"].items():
        if final.get(key) != value:
            raise ExportError(f"{where}: at the end {key} differs: engine {final.get(key)!r}, kernel {value!r}")
    row = engine.result_row()
    mine = {"ending": row["ending"], "turns": row["turns"], "volcanoes": row["volcanoes"], "floods": row["floods"],
            "rescued": row["rescued"], "lost": row["lost"], "winners": row["winners"]}
    for seat in range(5):
        mine[f"score{seat}"] = row["score"][seat] if seat < len(row["score"]) else 0
        mine[f"rescued{seat}"] = row["rescued_by_seat"][seat] if seat < len(row["rescued_by_seat"]) else 0
    for key in L.RESULT_FIELDS:
        if mine[key] != logged["result"][key]:
            raise ExportError(f"{where}: the results row's {key} differs: engine {mine[key]}, kernel "
                              f"{logged['result'][key]}")
