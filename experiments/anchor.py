"""Forbidden Island's ladder measured by the lab's players, beside the only published bot, and
Island Escape placed against that ladder.

Forbidden Island's four levels (the starting water mark: Novice, Normal, Elite, Legendary) were
playtested by people and printed on its water meter, so their win rates under one kind of player
are reference points that a new ladder can borrow. The open-source simulator
GrahamLea/forbidden-island-kotlin published its rule-based bot's rates (100,000 games a cell);
our rulings F1-F14 follow its reading of the rules so that the comparison is like for like.

`measure_ladder` plays every level and player count (2-4) with each policy on the same deals
(game g of a seed is dealt alike at every level, the kernel's deal). `forbidden_island_markdown`
writes `reports/forbidden-island.md`; `island_escape_against_ladder` writes the section of
`reports/difficulty.md` that says which Forbidden Island level each of the expert's Island Escape
levels plays like (the levels anchored on Forbidden Island for every skill are
`experiments/calibrate.py`'s `anchored_ladder`).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from experiments.runner import wilson_interval
from sim.forbidden_island import layout as FL
from sim.forbidden_island.rules import DIFFICULTIES
from sim.forbidden_island.rules import Rules as FIRules

LEVELS = tuple(DIFFICULTIES)  # novice, normal, elite, legendary
PLAYERS = (2, 3, 4)

# The published rule-based bot (GrahamLea/forbidden-island-kotlin, its RuleBasedGamePlayer's
# results, 100,000 games a cell; 1.2 million games in 2,763.7 s, about 434 games/s).
PUBLISHED_GAMES = 100_000
PUBLISHED_GAMES_PER_S = 1_200_000 / 2763.7
PUBLISHED_WIN = {
    2: {"novice": 0.2019, "normal": 0.0891, "elite": 0.0230, "legendary": 0.0078},
    3: {"novice": 0.1847, "normal": 0.0846, "elite": 0.0272, "legendary": 0.0081},
    4: {"novice": 0.0869, "normal": 0.0393, "elite": 0.0124, "legendary": 0.0021},
}
# Outcomes pooled over 2-4 players (equal games per player count), per level, as published; the
# published names map onto F14's causes.
PUBLISHED_CAUSES = {
    "win": {"novice": 0.158, "normal": 0.071, "elite": 0.021, "legendary": 0.006},
    "treasure": {"novice": 0.346, "normal": 0.420, "elite": 0.493, "legendary": 0.418},
    "fools_landing": {"novice": 0.201, "normal": 0.210, "elite": 0.213, "legendary": 0.172},
    "water": {"novice": 0.162, "normal": 0.168, "elite": 0.146, "legendary": 0.323},
    "drowned": {"novice": 0.133, "normal": 0.131, "elite": 0.126, "legendary": 0.080},
}
PUBLISHED_TREASURES = {"novice": 2.44, "normal": 2.05, "elite": 1.65, "legendary": 1.37}
CAUSE_TEXT = {"win": "won", "treasure": "both pickup tiles of a treasure sank", "fools_landing": "Fools' Landing sank",
              "water": "the water reached the skull", "drowned": "a pawn drowned"}


def measure_ladder(policies: list[str], games: int, search_games: int, seed: int, threads: int | None = None,
                   echo: Callable[[str], None] = lambda s: None, cache_dir: Path | None = None,
                   search_levels: tuple[str, ...] = LEVELS) -> pd.DataFrame:
    """One row per (policy, players, level): wins with their 95% interval, the share of each
    cause, mean treasures captured, and games/s. Search policies play `search_games`, at
    `search_levels` only (a search plays tens of games a second, not thousands).

    With `cache_dir`, each cell's row is kept there as it is measured and taken again by a later
    run with the same policy, games, seed and code (the game's source digest): an interrupted
    report loses at most the cell it was playing, and a rerun plays only what changed."""
    from policies.game import game as game_named
    FORBIDDEN_ISLAND = game_named("forbidden-island")
    from policies.forbidden_island.registry import POLICIES
    from policies.forbidden_island.runner import run_games

    code = FORBIDDEN_ISLAND.code_digest() if cache_dir is not None else ""
    rows = []
    for policy in policies:
        if policy not in POLICIES:
            echo(f"  Forbidden Island: no policy {policy!r} registered, left out")
            continue
        search = policy in SEARCHES
        n = search_games if search else games
        for players in PLAYERS:
            first = len(rows)
            for level in search_levels if search else LEVELS:
                key = {"policy": policy, "players": players, "level": level, "games": n, "seed": seed, "code": code}
                cached = _cached_row(cache_dir, key)
                if cached is not None:
                    rows.append(cached)
                    continue
                rules = FIRules(players=players, difficulty=level)
                run_games(rules, policy, min(n, 8), seed=seed + 1, threads=threads)  # compiled first
                start = time.perf_counter()
                raw = run_games(rules, policy, n, seed=seed, threads=threads)
                seconds = time.perf_counter() - start
                # Other work on the machine slows every figure of the speed table: the load it
                # ran under is kept beside it (the 1-minute average, which counts this run's own
                # threads too, and the cells played just before).
                load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
                wins = int((raw[:, 0] == FL.CAUSE_WIN).sum())
                lo, hi = wilson_interval(wins, n)
                row = {"policy": policy, "players": players, "level": level, "games": n, "wins": wins,
                       "win_rate": wins / n, "ci_low": lo, "ci_high": hi,
                       "treasures": float(raw[:, FL.RESULT_FIELDS.index("treasures")].mean()),
                       "games_per_s": n / seconds, "load": load}
                for code_, cause in enumerate(FL.CAUSES):
                    row[f"cause_{cause}"] = float((raw[:, 0] == code_).mean())
                _keep_row(cache_dir, key, row)
                rows.append(row)
            echo(f"  Forbidden Island {policy}, {players} players: "
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


SEARCHES = {"lookahead"}


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


def save_ladder_figure(df: pd.DataFrame, path: Path) -> Path | None:
    """The win rate by level, a line per player count and player, the published bot's dashed."""
    from experiments.plots import win_rate_by_level

    return win_rate_by_level(df.rename(columns={"level": "difficulty"}), path)


def lookahead_budget_note() -> str:
    """The one budget `lookahead` searches with, at every level and player count."""
    from policies.forbidden_island import lookahead as LA

    worlds, horizon, rounds = int(LA.SCREEN), int(LA.HORIZON), int(LA.ROUNDS)
    searched = "every decision" if LA.SHARE >= 1 else f"{LA.SHARE:.0%} of its decisions"
    return (f"`lookahead` searches with one budget at every level and player count ({worlds} screening "
            f"world{'s' * (worlds > 1)}, {horizon} turns ahead, {rounds} confirmation round"
            f"{'s' * (rounds > 1)} of {int(LA.CONFIRM)} worlds, {searched}): one fixed player, so its column "
            "compares levels as the other players' do.")


def forbidden_island_markdown(df: pd.DataFrame, seed: int, study_path: str, figure: str | None = None) -> str:
    policies = list(dict.fromkeys(df.policy))
    games = {p: int(df[df.policy == p].games.iloc[0]) for p in policies}
    md = ["# Forbidden Island: the playtested ladder, played by the lab's players", "",
          f"*Generated by `make report` from `{study_path}` (seed {seed}); do not edit by hand.*", "",
          "Forbidden Island's levels are the starting mark on its water meter: Novice, Normal, Elite, "
          "Legendary. People playtested them; this page measures them with the lab's players on the "
          "rules of `docs/RULES-FI.md` (rulings F1-F14, which follow the published simulator "
          "GrahamLea/forbidden-island-kotlin where the rulebook is open), beside that simulator's "
          f"rule-based bot ({PUBLISHED_GAMES:,} games a cell). Every level and player count plays the same "
          "deals (game g of the seed). Intervals are 95% Wilson intervals.", "",
          "## Win rates", "",
          "| players | level | published bot | " + " | ".join(f"`{p}` ({games[p]:,} games)" for p in policies)
          + " |",
          "| --- | --- | ---: |" + " ---: |" * len(policies)]
    for players in PLAYERS:
        for level in LEVELS:
            pub = PUBLISHED_WIN[players][level]
            cells = []
            for p in policies:
                r = _rate(df, p, players, level)
                cells.append("not played" if r is None else f"{_cell(r)}, {r.win_rate / pub:.1f}×")
            md.append(f"| {players} | {level.capitalize()} | {_pct(pub, 2)} | " + " | ".join(cells) + " |")
    md += ["", "× = the lab's rate over the published bot's in the same cell, whatever it is: a player is "
           "not tuned to reach a ratio. A search plays fewer games (tens a second where `expert` plays "
           "thousands)."]
    if "lookahead" in policies:
        md += ["", lookahead_budget_note()]
    if figure:
        md += ["", f"![win rate by level]({figure})", "",
               "Error bars: 95% intervals; dashed: the published bot at the same player count."]
    md += ["", "## Why games are lost", "",
           "Shares of all games, pooled over 2-4 players as the published table is (equal games per player "
           "count). The published bot's share comes first, then each of the lab's players.", "",
           "| outcome | level | published bot | " + " | ".join(f"`{p}`" for p in policies) + " |",
           "| --- | --- | ---: |" + " ---: |" * len(policies)]
    for cause in ("win", "treasure", "fools_landing", "water", "drowned"):
        for level in LEVELS:
            cells = [_pct(part[f"cause_{cause}"].mean()) if len(part := df[(df.policy == p) & (df.level == level)])
                     else "–" for p in policies]
            md.append(f"| {CAUSE_TEXT[cause]} | {level.capitalize()} | {_pct(PUBLISHED_CAUSES[cause][level])} | "
                      + " | ".join(cells) + " |")
    md += ["", "Mean treasures captured per game:", "",
           "| level | published bot | " + " | ".join(f"`{p}`" for p in policies) + " |",
           "| --- | ---: |" + " ---: |" * len(policies)]
    for level in LEVELS:
        cells = [f"{part.treasures.mean():.2f}" if len(part := df[(df.policy == p) & (df.level == level)]) else "–"
                 for p in policies]
        md.append(f"| {level.capitalize()} | {PUBLISHED_TREASURES[level]:.2f} | " + " | ".join(cells) + " |")

    md += ["", "## Speed", "",
           f"Games per second over the whole table on this machine (threads: all cores), against the published "
           f"bot's {PUBLISHED_GAMES_PER_S:,.0f} games/s (its 1.2 million games took 2,763.7 s on its author's "
           "machine; `make bench` has the kernel's own figures):", "",
           "| player | games/s | load while played |", "| --- | ---: | ---: |"]
    for p in policies:
        part = df[df.policy == p]
        md.append(f"| `{p}` | {part.games.sum() / (part.games / part.games_per_s).sum():,.0f} | {_load_range(part)} |")
    md += ["", f"Load: the 1-minute load average when each of the player's cells ended, lowest to highest, on "
           f"this machine's {os.cpu_count()} cores. The lab's own run counts in it (one per busy thread), so a "
           "load near the number of cores is a quiet machine, and anything above it is other work, which "
           "slows the figures in proportion."]
    md += ["", "## How this was made", "",
           "- Rules: `docs/RULES-FI.md`; the kernel (`sim/forbidden_island/kernel.py`) is checked decision by "
           "decision against the readable engine (`sim/forbidden_island/engine.py`).",
           "- Players (`island-escape policies --game forbidden-island`): fair ones see only what the table "
           "sees (the draw piles stay hidden; the flood discard pile is public).",
           "- Reproduce: `make report`; one cell: `island-escape simulate --game forbidden-island "
           "--players 2 --difficulty novice --policy expert --games 20000 --seed "
           f"{seed}`.", ""]
    return "\n".join(md)


# --- Island Escape against the ladder ---------------------------------------------------------------

def _pts(x: float) -> str:
    return f"{100 * x:.1f}".removesuffix(".0")


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


def island_escape_against_ladder(recs: list[dict], fi: pd.DataFrame, judge: str) -> list[str]:
    """The difficulty report's section: each of the expert's recommendations placed on Forbidden
    Island's ladder under the same kind of player."""
    md = ["## The expert's levels against Forbidden Island's playtested ladder", "",
          "Where the fewest-changes levels for one near-perfect player fall on Forbidden Island's ladder "
          "(`reports/forbidden-island.md`), for that player and for `lookahead`: why they are not the levels "
          "to print. Played by the same kind of player, an Island Escape level that wins as often as a "
          "Forbidden Island level is about as hard for that player. Solo Island Escape is set against "
          "2-player Forbidden Island (both move two pawns, R5).", ""]
    kinds = [p for p in (judge, "lookahead") if p in set(fi.policy)]
    head = "| level | players | " + " | ".join(f"`{k}`: Island Escape" for k in kinds) + " |"
    md += [head, "| --- | ---: |" + " --- |" * len(kinds)]
    for r in recs:
        q = max(2, r["players"])
        cells = []
        for kind in kinds:
            rate = r["win_rate"] if kind == judge else r.get("other_policies", {}).get(kind, {}).get("win_rate")
            if rate is None:
                cells.append("–")
                continue
            ladder = {lv: row.win_rate for lv in LEVELS if (row := _rate(fi, kind, q, lv)) is not None}
            cells.append(f"{_pct(rate)}: {plays_like(rate, ladder)} "
                         f"({', '.join(f'{lv[:3].capitalize()} {_pct(v, 0)}' for lv, v in ladder.items())})")
        md.append(f"| {r['level'].capitalize()} | {r['players']} | " + " | ".join(cells) + " |")
    md += ["", "In brackets: Forbidden Island's win rates for the same player and player count (Novice, Normal, "
           "Elite, Legendary; a search only at the levels it played).", ""]
    return md


def save_ladder(df: pd.DataFrame, out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "forbidden-island-ladder.parquet"
    df.to_parquet(path)
    return path
