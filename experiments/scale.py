"""One strength scale for every game: the points a table places itself on.

A point of the scale is a player, the same kind of player in every game:

- from 0 to 1, the game's skilled player at that skill (`skilled@S`): the expert's plan with
  mistakes that depart from the game's expert in the same share of decisions at the same skill
  in every game (docs/RULES-FI.md, "What a skill means in both games"); 1 is the expert itself;
- above 1, the game's search (policies/search.py) at doubling budgets: 2 is `lookahead@1`, 3 is
  `lookahead@2`, 4 is `lookahead@4`, each point twice the budget of the one before. The search
  is written once for every game and a budget multiplies the same knobs in each, so budget N is
  the same amount of search in every game, on top of the same rollout player (the game's expert).

Between two points the scale is read by linear interpolation of the win rates, so a table may
sit between the expert and `lookahead@1`. The scale ends at the strongest search the lab
measures (`TOP_BUDGET`); a table that wins more than that player would is beyond it, and the
estimate says so instead of pinning the table to the end of the axis.

The game with printed, playtested levels (Forbidden Island) is the yardstick people know:
`scale_rates` plays every point there at each printed level and player count, so that a table
can place itself by what it wins (`island-escape scale`, reports/scale.md).
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np

# Where the skilled player's curve is measured: every 0.05, and every 0.02 from 0.8 up, where the
# win rates of both games climb steeply to the expert's (interpolated linearly between 0.95 and
# 1, a log of skill-0.97 games put the table below 0.96 every time).
SKILL_GRID = np.round(np.concatenate([np.arange(0.0, 0.8, 0.05), np.arange(0.8, 1.0001, 0.02)]), 3)
EXPERT = 1.0  # the skilled player at skill 1 plays the expert's games exactly
TOP_BUDGET = 4  # the strongest search the lab measures for a table: lookahead@4
SEARCH_GAMES = 300  # games a search point of the lab's curve plays (a second or more a game)
# the points `island-escape scale` reports (the search's budgets are added to them)
SHOWN_SKILLS = (0.0, 0.5, 0.8, 0.9, 0.95, 0.98, 1.0)
ONE_SIDED_95 = 1.6448536269514722  # the normal quantile a one-sided 95% test exceeds


def budgets(top: int = TOP_BUDGET) -> list[int]:
    """The search's budgets on a scale reaching `top`: 1, 2, 4, ... up to `top` (a power of 2)."""
    if top < 1 or top & (top - 1):
        raise ValueError(f"the scale's top budget is a power of 2 from 1 up, not {top}")
    return [1 << k for k in range(int(math.log2(top)) + 1)]


def budget_position(budget: int) -> float:
    """Where `lookahead@budget` sits: 2 for budget 1, one point further for each doubling."""
    return EXPERT + 1.0 + math.log2(budget)


def budget_at(position: float) -> int:
    """The search's budget at one of its points (2 -> 1, 3 -> 2, 4 -> 4, ...): budget_position's inverse."""
    return 2 ** int(round(position - EXPERT - 1.0))


def grid(top: int = TOP_BUDGET) -> np.ndarray:
    """Every point a table's curve is measured at: the skill grid, then the search's budgets."""
    return np.concatenate([SKILL_GRID, [budget_position(b) for b in budgets(top)]])


def search_policy(game) -> str:
    """The game's policy that takes a budget (its search)."""
    return next(name for name in game.policy_names() if game.registry.takes_budget(name))


def player_at(game, position: float) -> str:
    """The player at a point of the scale: `skilled@S` up to the expert, `lookahead@N` above it
    (only at a budget's own point: between them there is no player, only an interpolation)."""
    if position <= EXPERT:
        return game.player(None, float(position))
    if position < EXPERT + 1.0 or abs(position - round(position)) > 1e-9:
        raise ValueError(f"no player sits at {position:g} on the scale (the search's points are 2, 3, 4, ...)")
    return game.registry.with_budget(search_policy(game), budget_at(position))


def is_search_point(position: float) -> bool:
    return position > EXPERT


def name_at(position: float, search: str = "lookahead") -> str:
    """A point of the scale in words, for any position: `skill 0.62`, `the expert`, `lookahead@2`,
    or `between lookahead@1 and lookahead@2` (with how far between)."""
    if position < EXPERT - 1e-9:
        return f"skill {position:.2f}"
    if position <= EXPERT + 1e-9:
        return "the expert"
    below = math.floor(position + 1e-9)
    if abs(position - below) < 1e-9:
        return f"{search}@{budget_at(below)}"
    lower = "the expert" if below <= EXPERT else f"{search}@{budget_at(below)}"
    return f"{position - below:.0%} of the way from {lower} to {search}@{budget_at(below + 1)}"


def top_position(top: int = TOP_BUDGET) -> float:
    return budget_position(top)


# --- a table beyond the strongest player ----------------------------------------------------------


def beyond_top(counts, top_rates: dict, floor: float) -> dict:
    """Whether a table's games are more than the strongest player of the scale would win: the
    one-sided 95% test of its wins against that player's rate on each of its settings (wins
    summed over the settings, their spread the sum of the binomial variances). `counts`: (rules,
    games, wins) per setting; `top_rates`: rules -> the top player's rate there."""
    expected = variance = 0.0
    wins = games = 0
    for rules, n, w in counts:
        p = min(max(top_rates[rules], floor), 1 - floor)
        expected += n * p
        variance += n * p * (1 - p)
        wins += int(w)
        games += int(n)
    z = (wins - expected) / math.sqrt(variance) if variance > 0 else 0.0
    return {"beyond": bool(z > ONE_SIDED_95), "wins": wins, "games": games, "expected_wins": float(expected),
            "z": float(z)}


# --- the yardstick: every point at the printed levels ---------------------------------------------


def scale_points(top: int = TOP_BUDGET, skills=SHOWN_SKILLS) -> list[float]:
    return [float(s) for s in skills] + [budget_position(b) for b in budgets(top)]


def scale_rates(game, players=None, levels=None, games: int = 2000, search_games: int = SEARCH_GAMES,
                seed: int = 0, threads: int | None = None, top: int = TOP_BUDGET, skills=SHOWN_SKILLS,
                cheats: bool = True, echo=lambda s: None) -> list[dict]:
    """Win rate of every point of the scale on `game`'s printed levels for each player count (the
    same deals at every point), then each unfair policy's (labelled: a luck ceiling, never a
    point of the scale). One dict a (point, player count, level)."""
    from experiments.runner import wilson_interval

    players = list(players or game.players)
    levels = list(levels or game.levels)
    who = [(x, player_at(game, x)) for x in scale_points(top, skills)]
    if cheats:
        who += [(None, name) for name in sorted(game.unfair_policies())]
    rows = []
    for position, player in who:
        slow = position is None or is_search_point(position)
        n = search_games if slow else games
        for p in players:
            for level in levels:
                rules = game.rules(players=p, **game.levels[level])
                start = time.perf_counter()
                raw = game.run_games(rules, player, n, seed, threads=threads)
                seconds = time.perf_counter() - start
                won = int((raw[:, 0] == 0).sum())
                lo, hi = wilson_interval(won, n)
                rows.append({"position": position, "player": player, "players": p, "level": level, "wins": won,
                             "games": n, "rate": won / n, "ci95": [lo, hi], "games_per_second": n / seconds})
            echo(f"  {player}, {p} players: " + ", ".join(
                f"{r['level']} {100 * r['rate']:.0f}%" for r in rows[-len(levels):]))
    return rows


# Where a first game stands: Forbidden Island's designer aims at about 40% wins for an experienced
# group's first game, so the point of the scale that wins its easiest level that often is taken for
# a table sitting down to a cooperative game for the first time.
FIRST_GAME = ("novice", 0.40)


def point_winning(rows: list[dict], players: int, level: str, rate: float) -> float | None:
    """The first point of the scale (interpolated between measured points) that wins `level` at
    `players` `rate` of the time; None when no measured point does."""
    pts = sorted((r["position"], r["rate"]) for r in rows
                 if r["position"] is not None and r["players"] == players and r["level"] == level)
    if pts and pts[0][1] >= rate:
        return pts[0][0]
    for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
        if y0 < rate <= y1:
            return x0 + (rate - y0) / (y1 - y0) * (x1 - x0)
    return None


def first_game_lines(rows: list[dict]) -> list[str]:
    """Where a first-game table stands at each player count, in words."""
    level, rate = FIRST_GAME
    counts = sorted({r["players"] for r in rows if r["level"] == level})
    if not counts:
        return []
    out = [f"A first game: the point that wins {level.capitalize()} {rate:.0%} of the time (the rate Forbidden "
           "Island's designer aims at for an experienced group's first game) is"]
    for n in counts:
        x = point_winning(rows, n, level, rate)
        if x is None:
            where = f"beyond {name_at(max(r['position'] for r in rows if r['position'] is not None))}"
        else:
            where = name_at(x) if x < EXPERT else f"{x:.2f} on the scale, {name_at(x)}"
        out.append(f"- with {n} players: {where}")
    return out + ["", "Tables that have played the game for a while stand above that point.", ""]


def rates_at(rows: list[dict], position: float) -> dict[tuple[int, str], float]:
    """(players, level) -> rate of the scale's point at `position`."""
    return {(r["players"], r["level"]): r["rate"] for r in rows if r["position"] == position}


def rates_line(rows: list[dict], position: float, players: int) -> str:
    """What the point wins at one player count, in words: `novice 83%, normal 55%, elite 31%`."""
    return ", ".join(f"{r['level']} {100 * r['rate']:.0f}%" for r in rows
                     if r["position"] == position and r["players"] == players)


def _cell(r: dict) -> str:
    lo, hi = r["ci95"]
    return f"{100 * r['rate']:.0f}% ({100 * lo:.0f}-{100 * hi:.0f})"


def scale_table(rows: list[dict]) -> list[str]:
    """Markdown tables, one a player count: a row a point of the scale, a column a level."""
    lines = []
    for players in dict.fromkeys(r["players"] for r in rows):
        mine = [r for r in rows if r["players"] == players]
        levels = list(dict.fromkeys(r["level"] for r in mine))
        lines += [f"**{players} players**", "",
                  "| point | player | " + " | ".join(levels) + " |", "| ---: | --- |" + " ---: |" * len(levels)]
        for player in dict.fromkeys(r["player"] for r in mine):
            cells = {r["level"]: r for r in mine if r["player"] == player}
            position = next(iter(cells.values()))["position"]
            where = "cheat" if position is None else f"{position:g}"
            label = f"`{player}`" + (" (the expert)" if position == EXPERT else "")
            lines.append(f"| {where} | {label} | " + " | ".join(_cell(cells[lv]) if lv in cells else "-"
                                                               for lv in levels) + " |")
        lines.append("")
    return lines


def _search_points(rows: list[dict]) -> str:
    points = sorted({r["position"] for r in rows if r["position"] is not None and is_search_point(r["position"])})
    if not points:
        return "no search point was measured"
    return (f"{', '.join(f'{x:g}' for x in points)} {'is' if len(points) == 1 else 'are'} the search at budget "
            + ", ".join(str(budget_at(x)) for x in points))


def _games_a_point(rows: list[dict], search: bool) -> int:
    """The games a point played: the search's points (with the cheats) or the skilled ones."""
    return max((r["games"] for r in rows if (r["position"] is None or is_search_point(r["position"])) == search),
               default=0)


def describe_scale(game_title: str, rows: list[dict], seed: int) -> list[str]:
    games = {search: _games_a_point(rows, search) for search in (True, False)}
    return [f"Each point of the lab's strength scale is a player; its win rate on {game_title}'s printed "
            "levels tells a table where it stands: a group that wins about what a row wins plays about as "
            "well as that row's player. Points 0 to 1 are the skilled player at that skill (1 is the expert, "
            "the same share of departing decisions in every game); "
            f"{_search_points(rows)} (each point twice the search of the one before, the same search in every "
            "game). Between two rows a table sits between their players. A cheat that "
            "sees the hidden cards is shown last: what it loses is luck no table can beat, and it is not a "
            "point of the scale. `island-escape calibrate --table` and `playtest summarize` place a table's "
            "logs on this scale.", "",
            f"{games[False]:,} games a skilled point and {games[True]:,} a search point or cheat, seed {seed}, "
            "the same deals at every point; 95% intervals in brackets. Written by `island-escape scale`.", ""]


def write_report(game, rows: list[dict], seed: int, folder) -> tuple[str, str]:
    """reports' scale.json and scale.md; returns both paths."""
    import json

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "scale.json").write_text(json.dumps({"game": game.name, "title": game.title, "seed": seed,
                                                   "rows": rows}, indent=2) + "\n")
    lines = [f"# The strength scale on {game.title}'s levels", "", *describe_scale(game.title, rows, seed),
             *first_game_lines(rows), *scale_table(rows)]
    (folder / "scale.md").write_text("\n".join(lines))
    return str(folder / "scale.json"), str(folder / "scale.md")


def read_report(folder) -> dict | None:
    """scale.json in `folder` (None when absent or not one)."""
    import json

    path = Path(folder) / "scale.json"
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("rows"), list) else None


def report_section(report_dir) -> list[str]:
    """The designer's report's section on the scale, from scale.json beside it."""
    lines = ["## Where a table stands: the strength scale", ""]
    data = read_report(report_dir)
    if data is None:
        return lines + ["Not measured yet: `make scale` (`island-escape scale`) plays every point of the lab's "
                        "strength scale on Forbidden Island's printed levels and writes scale.md beside this "
                        "report.", ""]
    return lines + [*describe_scale(data["title"], data["rows"], data["seed"]), *first_game_lines(data["rows"]),
                    *scale_table(data["rows"])]
