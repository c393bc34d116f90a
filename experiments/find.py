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


def record_name(row: pd.Series) -> str:
    """A file name that says which game it is: the policy, every rule and the seed and game index,
    so games of different cells (which play the same game numbers) never share a name."""
    gauge = "".join(str(row["gauge"]).split())  # card codes are two characters each
    return (f"{row['policy']}-p{row['players']}-c{row['cards_per_treasure']}-s{row['swim_cost']}"
            f"-a{row['actions_per_turn']}-g{gauge}-seed{row['seed']}-game{int(row['game']):07d}.json")


def planned_paths(rows: pd.DataFrame, folder: str | Path) -> tuple[pd.DataFrame, list[Path]]:
    """The rows to export (one per distinct game) and their paths; FindError if a path exists.

    Checked before anything is written, so `find` never overwrites a file, its own or another's.
    """
    folder = Path(folder)
    rows = rows.drop_duplicates(subset=list(NEEDED))  # the same game listed twice is one record
    paths = [folder / record_name(row) for _, row in rows.iterrows()]
    existing = [p for p in paths if p.exists()]
    if existing:
        more = f" and {len(existing) - 1} more" if len(existing) > 1 else ""
        raise FindError(f"{existing[0]}{more} already exist(s); choose another folder or remove them")
    return rows, paths


def export_found(rows: pd.DataFrame, folder: str | Path) -> list[Path]:
    """Write the games of `rows` as records into `folder`, one file per game, never overwriting."""
    rows, paths = planned_paths(rows, folder)
    Path(folder).mkdir(parents=True, exist_ok=True)
    for (_, record), path in zip(records_for(rows), paths, strict=True):
        with open(path, "x"):  # exclusive create: a file that appeared meanwhile is not overwritten
            pass
        write_record(path, record)
    return paths
