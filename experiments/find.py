"""Finding games: pick rows of a per-game table by a condition and turn them into records.

Every row names its rules, policy, seed and game index, and a game depends only on those, so
the kernel replays it exactly and exports its record (RECORD-FORMAT.md, or FI-RECORD-FORMAT.md
for Forbidden Island) for `replay` to tell and draw. Which game a table holds is read from the
table itself (policies/game.py), so the same command serves both.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from policies.game import Game, game_of_table


class FindError(ValueError):
    pass


def needed_columns(game: Game) -> tuple[str, ...]:
    """The columns that name one game of `game`: seed, game index, setting and policy."""
    return ("seed", "game", *game.replay_keys)


def table_game(df: pd.DataFrame) -> Game:
    """The game a table holds, or FindError naming why it cannot be told."""
    try:
        return game_of_table(df)
    except ValueError as exc:
        raise FindError(str(exc)) from None


def find_games(df: pd.DataFrame, where: str | None = None, limit: int | None = 10) -> pd.DataFrame:
    """Rows matching a pandas query, e.g. "cause == 'treasure' and treasures_raised == 3". A
    query pandas cannot evaluate is a FindError that names the table's columns and causes."""
    game = table_game(df)
    missing = [c for c in needed_columns(game) if c not in df.columns]
    if missing:
        raise FindError(f"the table lacks the column{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                        "needed to replay a game")
    if where:
        try:
            df = df.query(where)
        except Exception as exc:  # pandas raises many kinds for a bad expression
            raise FindError(f"--where {where!r}: {str(exc).splitlines()[0]}; {columns_text(df, game)}") from None
    return df.head(limit) if limit else df


def columns_text(df: pd.DataFrame, game: Game) -> str:
    """The names a query can use: the table's columns and the game's causes."""
    return f"the columns are {', '.join(map(str, df.columns))}; the causes are {', '.join(game.causes)}"


def no_match_text(df: pd.DataFrame, where: str | None) -> list[str]:
    """Why a query may have matched nothing, for the message that says so: every quoted value
    that no column of the table holds, with the values the column it is compared to takes (a
    cause is `drowned`, not `drowning`), then the names a query can use; a line each."""
    import re

    game = table_game(df)
    lines = []
    named = [c for c in df.columns if re.search(rf"\b{re.escape(str(c))}\b", where or "")]
    for literal in dict.fromkeys(a or b for a, b in re.findall(r"'([^']*)'|\"([^\"]*)\"", where or "")):
        texts = [c for c in named if df[c].dtype == object or isinstance(df[c].dtype, pd.CategoricalDtype)]
        if any(literal in set(map(str, _values(df[c]))) for c in texts):
            continue
        for column in texts or ["cause"]:
            if column in df.columns:
                known = ", ".join(map(str, _values(df[column])))
                lines.append(f"{literal!r} is not a value of {column} (its values: {known})")
    lines.append(columns_text(df, game))
    return lines


def _values(column: pd.Series) -> list:
    """A text column's possible values: a category's categories, else the values it holds."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        return list(column.cat.categories)
    return sorted(column.dropna().astype(str).unique())[:30]


def records_for(rows: pd.DataFrame) -> list[tuple[pd.Series, object]]:
    """Records of the games in `rows`, in the rows' order (one kernel replay per game)."""
    game = table_game(rows)
    out: dict[int, object] = {}
    keys = [*game.replay_keys, "seed"]
    for _, group in rows.groupby(keys, observed=True, sort=False):
        first = group.iloc[0]
        rules = game.rules_of_row(first)
        records = game.export(rules, str(first["policy"]), int(first["seed"]), group["game"].tolist())
        for idx, record in zip(group.index, records, strict=True):
            out[idx] = record
    return [(rows.loc[i], out[i]) for i in rows.index]


def record_name(row: pd.Series, game: Game) -> str:
    """A file name that says which game it is (see Game.record_name)."""
    return game.record_name(row)


def planned_paths(rows: pd.DataFrame, folder: str | Path) -> tuple[pd.DataFrame, list[Path]]:
    """The rows to export (one per distinct game) and their paths; FindError if a path exists.

    Checked before anything is written, so `find` never overwrites a file, its own or another's.
    """
    folder = Path(folder)
    game = table_game(rows)
    rows = rows.drop_duplicates(subset=list(needed_columns(game)))  # the same game listed twice is one record
    paths = [folder / record_name(row, game) for _, row in rows.iterrows()]
    existing = [p for p in paths if p.exists()]
    if existing:
        more = f" and {len(existing) - 1} more" if len(existing) > 1 else ""
        raise FindError(f"{existing[0]}{more} already exist{'' if more else 's'}; choose another folder or "
                        "remove them")
    return rows, paths


def export_found(rows: pd.DataFrame, folder: str | Path) -> list[Path]:
    """Write the games of `rows` as records into `folder`, one file per game, never overwriting."""
    rows, paths = planned_paths(rows, folder)
    game = table_game(rows)
    Path(folder).mkdir(parents=True, exist_ok=True)
    for (_, record), path in zip(records_for(rows), paths, strict=True):
        with open(path, "x"):  # exclusive create: a file that appeared meanwhile is not overwritten
            pass
        game.records.write_record(path, record)
    return paths
