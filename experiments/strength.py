"""Strength against budget: what a game's search (`lookahead@N`, policies/search.py) wins as its
budget doubles, on the same games at every budget (common random numbers), so each doubling's
gain is measured game by game with a paired interval.

Per setting, the rollout policy (the search's floor) is played first, then budgets 1, 2, 4, ...
until a doubling gains less than `stop_gain`, the budget passes `max_budget`, or `minutes` have
been spent (a point started is finished). A competitive game's search plays seat 0 among its
rollout policy: the figure is that seat's share of the wins. Every point is handed to `on_point`
as soon as it is measured, so a long run loses nothing when stopped.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

import numpy as np

from experiments.sweep import paired_difference

SEARCH = "lookahead"


@dataclass
class Point:
    player: str  # the rollout policy, or `lookahead@N`
    budget: int  # 0 for the rollout policy
    games: int
    rate: float  # the searching seat's mean outcome: a team's win rate, a seat's share of the wins
    ci95: tuple[float, float]
    gain: float | None  # over the point before (the rollout policy for budget 1), paired
    gain_ci95: tuple[float, float] | None
    games_per_second: float  # wall clock, on `threads` threads
    seconds: float


def setting_player(game, rules, spec: str) -> str:
    """The player string that puts `spec` in the searching seat: every seat in a cooperative
    game; seat 0 among the rollout policy where seats play apart."""
    if not game.registry.seat_table or rules.players == 1:
        return spec
    return ",".join([spec] + [game.registry.rollout[SEARCH]] * (rules.players - 1))


def titled(title: str, setting: str) -> str:
    """A setting's line with its game's title in front, once."""
    return setting if setting.startswith(title) else f"{title}, {setting}"


def _interval(x: np.ndarray) -> tuple[float, float]:
    from scipy.stats import t

    half = float(t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x))) if x.std() > 0 else 0.0
    return float(x.mean() - half), float(x.mean() + half)


def budget_curve(game, rules, games: int = 2000, seed: int = 0, threads: int | None = None, max_budget: int = 64,
                 minutes: float = 60.0, stop_gain: float = 0.02,
                 on_point: Callable[[Point], None] | None = None) -> dict:
    """The curve of one setting: {"points": [Point as dict, ...], "verdict": "flattened" |
    "budget cap" | "time cap", "last_gain": ..., "last_gain_ci95": ...}."""
    start = time.perf_counter()
    rollout = game.registry.rollout[SEARCH]
    points: list[Point] = []
    before = None
    budget = 0
    verdict = "budget cap"
    while budget <= max_budget:
        spec = rollout if budget == 0 else game.registry.with_budget(SEARCH, budget)
        if budget <= 1:  # compiled (or loaded) before the clock starts; every budget shares the kernel
            game.run_games(rules, setting_player(game, rules, spec), 1, seed=seed, threads=1)
        t0 = time.perf_counter()
        raw = game.run_games(rules, setting_player(game, rules, spec), games, seed=seed, threads=threads)
        seconds = time.perf_counter() - t0
        won = game.seat_outcome(raw, rules, 0)
        gain = gain_ci = None
        if before is not None:
            d = paired_difference(won, before)
            gain, gain_ci = d["difference"], tuple(d["ci95"])
        point = Point(spec, budget, games, float(won.mean()), _interval(won), gain, gain_ci,
                      games / max(seconds, 1e-9), seconds)
        points.append(point)
        if on_point is not None:
            on_point(point)
        before = won
        if budget >= 2 and gain is not None and gain < stop_gain:
            verdict = "flattened"
            break
        if (time.perf_counter() - start) / 60 > minutes:
            verdict = "time cap"
            break
        budget = 1 if budget == 0 else budget * 2
    last = points[-1]
    return {"points": [asdict(p) for p in points], "verdict": verdict, "last_gain": last.gain,
            "last_gain_ci95": last.gain_ci95, "stop_gain": stop_gain}


def curve_sentence(curve: dict) -> str:
    """One line on where the curve stands: where it flattened, or that it had not, with the last
    doubling's gain."""
    last = curve["points"][-1]
    gain = curve["last_gain"]
    if gain is None:
        return "only the rollout policy was measured"
    lo, hi = curve["last_gain_ci95"]
    g = f"{100 * gain:+.1f} points (95% {100 * lo:+.1f} to {100 * hi:+.1f})"
    if curve["verdict"] == "flattened":
        return (f"flattens by budget {last['budget']}: that doubling gained {g}, under "
                f"{100 * curve['stop_gain']:.0f} points")
    why = "the time cap" if curve["verdict"] == "time cap" else "the largest budget asked for"
    return f"has not flattened at budget {last['budget']} ({why}): that doubling still gained {g}"


def curve_table(curve: dict) -> list[str]:
    """A markdown table of a curve's points."""
    lines = ["| player | rate (95% interval) | gain over the point before (95%) | games/s |",
             "| --- | --- | --- | --- |"]
    for p in curve["points"]:
        lo, hi = p["ci95"]
        gain = "" if p["gain"] is None else (f"{100 * p['gain']:+.1f} ({100 * p['gain_ci95'][0]:+.1f} to "
                                             f"{100 * p['gain_ci95'][1]:+.1f})")
        lines.append(f"| `{p['player']}` | {100 * p['rate']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}) | {gain} | "
                     f"{p['games_per_second']:,.1f} |")
    return lines


def write_report(results: dict, folder) -> tuple[str, str]:
    """reports' strength.json (game -> setting line -> curve) and strength.md from it; returns
    both paths."""
    import json
    from pathlib import Path

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "strength.json").write_text(json.dumps(results, indent=2) + "\n")
    lines = ["# Strength against budget", "",
             "What each game's search (`lookahead@N`: N times the rollouts, the worlds and the share of "
             "decisions searched of `lookahead`, which is budget 1) wins as its budget doubles, on the same "
             "games at every budget, so that each doubling's gain is measured game by game (paired 95% "
             "interval). The first row is the policy the search rolls out with, its floor. In a competitive "
             "game the search plays seat 0 among that policy and the rate is the seat's share of the wins. "
             "Games a second are wall-clock on this machine's threads. Written by `island-escape strength`.",
             ""]
    for title, settings in results.items():
        lines += [f"## {title}", ""]
        for setting, curve in settings.items():
            lines += [f"### {setting}", "", f"The search {curve_sentence(curve)}.", "", *curve_table(curve), ""]
    (folder / "strength.md").write_text("\n".join(lines))
    return str(folder / "strength.json"), str(folder / "strength.md")


def read_results(folder) -> dict | None:
    """strength.json in `folder` (game title -> setting -> curve); None when absent or not one."""
    import json
    from pathlib import Path

    try:
        data = json.loads((Path(folder) / "strength.json").read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def report_section(report_dir) -> list[str]:
    """The designer's report's section on the searches' strength against budget, from
    strength.json beside it (written by `island-escape strength`); a pointer to the command
    when it has not been run."""
    lines = ["## How much stronger a longer search plays", ""]
    results = read_results(report_dir)
    if results is None:
        return lines + ["Not measured yet: `make strength` (`island-escape strength`) plays each game's search "
                        "at doubling budgets and writes strength.md beside this report.", ""]
    lines += ["Each game's search at doubling budgets on the same games ([strength.md](strength.md) has every "
              "point with its interval and speed):", ""]
    for title, settings in results.items():
        for setting, curve in settings.items():
            best = max(curve["points"], key=lambda p: p["rate"])
            floor = curve["points"][0]
            lines.append(f"- {titled(title, setting)}: `{floor['player']}` {100 * floor['rate']:.1f}%, best "
                         f"`{best['player']}` {100 * best['rate']:.1f}% at {best['games_per_second']:,.1f} games/s; "
                         f"the search {curve_sentence(curve)}.")
    return lines + [""]
