"""Between Desert Island's kernel and its records: the kernel's parameters of a setting, and a
logged kernel game written as a record that the reference engine replays to the same end."""

from __future__ import annotations

import numpy as np

from sim.desert_island import layout as L
from sim.desert_island.engine import ENDINGS, DesertIslandEngine, random_draws
from sim.desert_island.layout import params_of
from sim.desert_island.lockstep import deal_of
from sim.desert_island.records import Record, RecordError, replay, result_json
from sim.desert_island.rules import Rules

__all__ = ["ExportError", "params_of", "record_of_log"]


class ExportError(RuntimeError):
    """A logged kernel game whose record does not replay to the kernel's end."""


def record_of_log(rules: Rules, seed: int, game: int, log: np.ndarray, res: np.ndarray, s: np.ndarray,
                  where: str) -> Record:
    """The record of a kernel game from its decision log, its results row and final state `s`:
    the deal kept whole in the state, the draws the kernel read (D11), the decisions by week as
    the engine replays them; ExportError where the replay ends otherwise than the kernel."""
    draws = random_draws(rules, seed, game)
    record = Record(rules, seed, game, deal_of(s, params_of(rules)),
                    [next(draws) for _ in range(int(s[L.NDRAWS]))], [])
    try:
        played = DesertIslandEngine(rules, record.full_deal(), iter(record.draws))
        for code in log:
            played.apply(int(code))
    except (RecordError, ValueError) as exc:
        raise ExportError(f"{where}: the engine cannot replay the kernel's game ({exc})") from None
    record.weeks = []
    for week, code in played.history:
        while len(record.weeks) < week:
            record.weeks.append([])
        record.weeks[week - 1].append(code)
    engine = replay(record)
    want = (ENDINGS[int(res[L.R_ENDING])], int(res[L.R_WEEKS]))
    if (engine.ending, engine.week) != want:
        raise ExportError(f"{where}: the engine ends {engine.ending} in week {engine.week}, the kernel "
                          f"{want[0]} in week {want[1]}")
    record.result = result_json(engine)
    return record
