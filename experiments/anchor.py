"""A game's printed ladder measured by the lab's players, beside a published reference player,
and another game's levels placed against that ladder.

A game whose levels were playtested by people and printed (`Game.levels`) gives reference
points that a new ladder can borrow: their win rates under one kind of player. Its printed-ladder
facts (`printed_ladder`: the published player's rates, causes, treasures and speed, the words of
its causes and of its ladder page) come from the game's own levels module.

`measure_ladder` plays every level and player count with each policy on the same deals (game g
of a seed is dealt alike at every level, the kernel's deal). `ladder_markdown` writes the
ladder's page (`reports/<game>.md`); `against_ladder` writes the section of the difficulty report
that says which level of the ladder each of the judge's levels plays like (the levels anchored on
the ladder for every skill are `experiments/calibrate.py`'s `anchored_ladder`).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from experiments.calibrate import ANCHOR_SEARCH
from experiments.runner import wilson_interval

WIN = 0  # the kernel's outcome code of a win (a game's causes list the win first)


def printed_ladder(game):
    """The facts of `game`'s printed ladder (its package's levels module: PUBLISHED_WIN,
    PUBLISHED_CAUSES, PUBLISHED_TREASURES, PUBLISHED_GAMES, PUBLISHED_GAMES_PER_S, CAUSE_TEXT,
    CAUSE_COLOURS, STRONGEST_SEARCH, search_budget_note(), the page's words)."""
    if game.printed_ladder is None:
        raise game.refuse("printed ladder to measure")
    return game.printed_ladder


def measure_ladder(game, policies: list[str], games: int, search_games: int, seed: int,
                   threads: int | None = None, echo: Callable[[str], None] = lambda s: None,
                   cache_dir: Path | None = None, search_levels: tuple[str, ...] | None = None) -> pd.DataFrame:
    """One row per (policy, players, level) of `game`'s printed levels: wins with their 95%
    interval, the share of each cause, mean treasures, and games/s. Search policies play
    `search_games`, at `search_levels` only (all levels by default; a search plays tens of games a
    second, not thousands).

    With `cache_dir`, each cell's row is kept there as it is measured and taken again by a later
    run with the same policy, games, seed and code (the game's source digest): an interrupted
    report loses at most the cell it was playing, and a rerun plays only what changed."""
    levels = tuple(game.levels)
    search_levels = levels if search_levels is None else tuple(search_levels)
    known, searches = set(game.policy_names()), game.search_policies()
    treasures = game.result_fields.index(game.treasures_field)
    code = game.code_digest() if cache_dir is not None else ""
    rows = []
    for policy in policies:
        if policy not in known:
            echo(f"  {game.title}: no policy {policy!r} registered, left out")
            continue
        search = policy in searches
        n = search_games if search else games
        for players in game.players:
            first = len(rows)
            for level in search_levels if search else levels:
                key = {"policy": policy, "players": players, "level": level, "games": n, "seed": seed, "code": code}
                cached = _cached_row(cache_dir, key)
                if cached is not None:
                    rows.append(cached)
                    continue
                rules = game.rules(players=players, **game.levels[level])
                game.run_games(rules, policy, min(n, 8), seed=seed + 1, threads=threads)  # compiled first
                start = time.perf_counter()
                raw = game.run_games(rules, policy, n, seed=seed, threads=threads)
                seconds = time.perf_counter() - start
                # Other work on the machine slows every figure of the speed table: the load it
                # ran under is kept beside it (the 1-minute average, which counts this run's own
                # threads too, and the cells played just before).
                load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
                wins = int((raw[:, 0] == WIN).sum())
                lo, hi = wilson_interval(wins, n)
                row = {"policy": policy, "players": players, "level": level, "games": n, "wins": wins,
                       "win_rate": wins / n, "ci_low": lo, "ci_high": hi,
                       "treasures": float(raw[:, treasures].mean()),
                       "games_per_s": n / seconds, "load": load}
                for code_, cause in enumerate(game.causes):
                    row[f"cause_{cause}"] = float((raw[:, 0] == code_).mean())
                _keep_row(cache_dir, key, row)
                rows.append(row)
            echo(f"  {game.title} {policy}, {players} players: "
                 + ", ".join(f"{r['level']} {100 * r['win_rate']:.1f}%" for r in rows[first:]))
    return pd.DataFrame(rows)


def _row_path(cache_dir: Path, key: dict) -> Path:
    return cache_dir / f"{key['policy']}-p{key['players']}-{key['level']}.json"


def _cached_row(cache_dir: Path | None, key: dict) -> dict | None:
    """A cell's row measured by an earlier run with the same key, or None."""
    if cache_dir is None:
        return None
    try:
        kept = json.loads(_row_path(cache_dir, key).read_text())
    except (OSError, ValueError):
        return None
    return kept.get("row") if kept.get("key") == key else None


def _keep_row(cache_dir: Path | None, key: dict, row: dict) -> None:
    if cache_dir is None:
        return
    cache_dir.mkdir(parents=True, exist_ok=True)
    path = _row_path(cache_dir, key)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps({"key": key, "row": row}))
    os.replace(tmp, path)  # whole or absent, never a half-written row


def _load_range(part: pd.DataFrame) -> str:
    """The load average its cells were played under ("not recorded" for cells kept from a run
    that did not record it)."""
    loads = part["load"].dropna() if "load" in part else pd.Series(dtype=float)
    if loads.empty:
        return "not recorded"
    lo, hi = loads.min(), loads.max()
    return f"{lo:.1f}" if f"{lo:.1f}" == f"{hi:.1f}" else f"{lo:.1f}–{hi:.1f}"


def _pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}%"


def _cell(row: pd.Series) -> str:
    return f"{_pct(row.win_rate)} ({_pct(row.ci_low)}–{_pct(row.ci_high)})"


def _rate(df: pd.DataFrame, policy: str, players: int, level: str) -> pd.Series | None:
    part = df[(df.policy == policy) & (df.players == players) & (df.level == level)]
    return None if part.empty else part.iloc[0]


def _span(counts) -> str:
    """Player counts as a span: "2-4"."""
    counts = sorted(counts)
    return f"{counts[0]}-{counts[-1]}" if len(counts) > 1 else f"{counts[0]}"


def ladder_markdown(game, df: pd.DataFrame, seed: int, study_path: str, figure: str | None = None) -> str:
    """The ladder's page: the lab's players beside the published one, level by level."""
    facts = printed_ladder(game)
    levels = tuple(game.levels)
    published_win = facts.PUBLISHED_WIN
    policies = list(dict.fromkeys(df.policy))
    games = {p: int(df[df.policy == p].games.iloc[0]) for p in policies}
    md = [f"# {game.title}: the playtested ladder, played by the lab's players", "",
          f"*Generated by `make report` from `{study_path}` (seed {seed}); do not edit by hand.*", "",
          facts.PAGE_INTRO, "",
          "## Win rates", "",
          "| players | level | published bot | " + " | ".join(f"`{p}` ({games[p]:,} games)" for p in policies)
          + " |",
          "| --- | --- | ---: |" + " ---: |" * len(policies)]
    for players in game.players:
        for level in levels:
            pub = published_win[players][level]
            cells = []
            for p in policies:
                r = _rate(df, p, players, level)
                cells.append("not played" if r is None else f"{_cell(r)}, {r.win_rate / pub:.1f}×")
            md.append(f"| {players} | {level.capitalize()} | {_pct(pub, 2)} | " + " | ".join(cells) + " |")
    md += ["", "× = the lab's rate over the published bot's in the same cell, whatever it is: a player is "
           "not tuned to reach a ratio. A search plays fewer games (tens a second where `expert` plays "
           "thousands)."]
    if facts.STRONGEST_SEARCH in policies:
        md += ["", facts.search_budget_note()]
    if figure:
        md += ["", f"![win rate by level]({figure})", "",
               "Error bars: 95% intervals; dashed: the published bot at the same player count."]
    md += ["", "## Why games are lost", "",
           f"Shares of all games, pooled over {_span(published_win)} players as the published table is (equal "
           "games per player count). The published bot's share comes first, then each of the lab's players.", "",
           "| outcome | level | published bot | " + " | ".join(f"`{p}`" for p in policies) + " |",
           "| --- | --- | ---: |" + " ---: |" * len(policies)]
    for cause, published in facts.PUBLISHED_CAUSES.items():
        for level in levels:
            cells = [_pct(part[f"cause_{cause}"].mean()) if len(part := df[(df.policy == p) & (df.level == level)])
                     else "–" for p in policies]
            md.append(f"| {facts.CAUSE_TEXT[cause]} | {level.capitalize()} | {_pct(published[level])} | "
                      + " | ".join(cells) + " |")
    md += ["", facts.TREASURES_TEXT, "",
           "| level | published bot | " + " | ".join(f"`{p}`" for p in policies) + " |",
           "| --- | ---: |" + " ---: |" * len(policies)]
    for level in levels:
        cells = [f"{part.treasures.mean():.2f}" if len(part := df[(df.policy == p) & (df.level == level)]) else "–"
                 for p in policies]
        md.append(f"| {level.capitalize()} | {facts.PUBLISHED_TREASURES[level]:.2f} | " + " | ".join(cells) + " |")

    md += ["", "## Speed", "",
           f"Games per second over the whole table on this machine (threads: all cores), against the published "
           f"bot's {facts.PUBLISHED_GAMES_PER_S:,.0f} games/s ({facts.PUBLISHED_SPEED_TEXT}; `make bench` has "
           "the kernel's own figures):", "",
           "| player | games/s | load while played |", "| --- | ---: | ---: |"]
    for p in policies:
        part = df[df.policy == p]
        md.append(f"| `{p}` | {part.games.sum() / (part.games / part.games_per_s).sum():,.0f} | {_load_range(part)} |")
    md += ["", f"Load: the 1-minute load average when each of the player's cells ended, lowest to highest, on "
           f"this machine's {os.cpu_count()} cores. The lab's own run counts in it (one per busy thread), so a "
           "load near the number of cores is a quiet machine, and anything above it is other work, which "
           "slows the figures in proportion."]
    md += ["", "## How this was made", "", *facts.page_method(seed), ""]
    return "\n".join(md)


# --- another game's levels against the ladder ----------------------------------------------------

LIKE = 0.025  # within 2.5 points of a level's rate: plays like it


def plays_like(rate: float, ladder: dict[str, float]) -> str:
    """Where `rate` falls on a ladder of win rates (level -> rate, easiest first)."""
    levels = list(ladder)
    for level in levels:
        if abs(rate - ladder[level]) <= LIKE:
            return f"like {level.capitalize()}"
    if rate > ladder[levels[0]]:
        return f"easier than {levels[0].capitalize()}"
    for a, b in zip(levels, levels[1:], strict=False):
        if ladder[a] >= rate >= ladder[b]:
            return f"between {a.capitalize()} and {b.capitalize()}"
    return f"harder than {levels[-1].capitalize()}"


def against_ladder(game, anchor, recs: list[dict], measured: pd.DataFrame, judge: str,
                   search: str = ANCHOR_SEARCH) -> list[str]:
    """The difficulty report's section: each of `game`'s recommendations for `judge` placed on
    `anchor`'s measured ladder under the same kind of player (and `search`)."""
    levels = tuple(anchor.levels)
    fewest = anchor.players[0]
    md = [f"## The expert's levels against {anchor.title}'s playtested ladder", "",
          f"Where the fewest-changes levels for one near-perfect player fall on {anchor.title}'s ladder "
          f"(`reports/{anchor.name}.md`), for that player and for `{search}`: why they are not the levels "
          f"to print. Played by the same kind of player, an {game.title} level that wins as often as a "
          f"{anchor.title} level is about as hard for that player. Solo {game.title} is set against "
          f"{fewest}-player {anchor.title} (both move two pawns, R5).", ""]
    kinds = [p for p in (judge, search) if p in set(measured.policy)]
    head = "| level | players | " + " | ".join(f"`{k}`: {game.title}" for k in kinds) + " |"
    md += [head, "| --- | ---: |" + " --- |" * len(kinds)]
    for r in recs:
        q = min(max(fewest, r["players"]), anchor.players[-1])
        cells = []
        for kind in kinds:
            rate = r["win_rate"] if kind == judge else r.get("other_policies", {}).get(kind, {}).get("win_rate")
            if rate is None:
                cells.append("–")
                continue
            ladder = {lv: row.win_rate for lv in levels if (row := _rate(measured, kind, q, lv)) is not None}
            cells.append(f"{_pct(rate)}: {plays_like(rate, ladder)} "
                         f"({', '.join(f'{lv[:3].capitalize()} {_pct(v, 0)}' for lv, v in ladder.items())})")
        md.append(f"| {r['level'].capitalize()} | {r['players']} | " + " | ".join(cells) + " |")
    md += ["", f"In brackets: {anchor.title}'s win rates for the same player and player count "
           f"({', '.join(lv.capitalize() for lv in levels)}; a search only at the levels it played).", ""]
    return md


def save_ladder(game, df: pd.DataFrame, out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{game.name}-ladder.parquet"
    df.to_parquet(path)
    return path
