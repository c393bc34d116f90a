"""Finding games: pick rows of a per-game table by a condition and turn them into records.

Every row names its rules, policy, seed and game index, and a game depends only on those, so
the kernel replays it exactly and exports its record (RECORD-FORMAT.md) for `replay` to tell
and draw.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from experiments.runner import export_records
from sim.records import Record, write_record
from sim.rules import Rules

NEEDED = ("seed", "game", "players", "cards_per_treasure", "gauge", "swim_cost", "actions_per_turn", "policy")


class FindError(ValueError):
    pass


def find_games(df: pd.DataFrame, where: str | None = None, limit: int | None = 10) -> pd.DataFrame:
    """Rows matching a pandas query, e.g. "cause == 'treasure' and treasures_raised == 3"."""
    missing = [c for c in NEEDED if c not in df.columns]
    if missing:
        raise FindError(f"the table lacks the column(s) {', '.join(missing)} needed to replay a game")
    if where:
        try:
            df = df.query(where)
        except Exception as exc:  # pandas raises many kinds for a bad expression
            raise FindError(f"--where {where!r}: {str(exc).splitlines()[0]}") from None
    return df.head(limit) if limit else df


def records_for(rows: pd.DataFrame) -> list[tuple[pd.Series, Record]]:
    """Records of the games in `rows`, in the rows' order (one kernel replay per game)."""
    out: dict[int, Record] = {}
    keys = list(NEEDED[2:]) + ["seed"]
    for key, group in rows.groupby(keys, observed=True, sort=False):
        players, cpt, gauge, swim, actions, policy, seed = key
        rules = Rules(players=int(players), cards_per_treasure=int(cpt), gauge=str(gauge).split(),
                      swim_cost=int(swim), actions_per_turn=int(actions))
        for idx, record in zip(group.index, export_records(rules, str(policy), int(seed), group["game"].tolist()),
                               strict=True):
            out[idx] = record
    return [(rows.loc[i], out[i]) for i in rows.index]


def export_found(rows: pd.DataFrame, folder: str | Path) -> list[Path]:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for row, record in records_for(rows):
        path = folder / f"{row['policy']}-p{row['players']}-seed{row['seed']}-game{row['game']:07d}.json"
        write_record(path, record)
        paths.append(path)
    return paths
