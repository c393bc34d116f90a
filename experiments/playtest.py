"""Games played by people, brought back to the lab: win rates, the table's skill, its levels.

A log is a CSV file of games played with real cards, one row a game (README, `playtest summarize`), or
a folder of records saved by `island-escape play`. For each table (and all tables together)
`summarize` gives the games and win rate with a 95% interval for each rule setting, the table's
place on the skill axis, and the rules that would make Easy, Normal and Hard for it.

The skill is estimated by maximum likelihood from all of a table's games at once: with p_k(s)
the lab's win rate on setting k at skill s, the table's wins w_k of n_k games have
log-likelihood sum_k [w_k log p_k(s) + (n_k - w_k) log(1 - p_k(s))]. The curve p_k is measured
on a grid of skills and interpolated linearly between them; the 95% interval holds the skills
whose likelihood ratio to the best is within the chi-square(1) bound (2 * drop <= 3.84).
The win-rate curve is passed in (`WinRate`), so the statistics can be checked on a known curve.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from experiments.pages import clip, parse_json, shorten
from policies.game import counted
from sim.island_escape.engine import LOSS_CAUSES
from sim.island_escape.rules import RuleError, Rules, pretty

WinRate = Callable[[Rules, float], float]  # the lab's win rate on these rules at this skill
RULE_COLUMNS = ("players", "cards_per_treasure", "gauge", "swim_cost", "actions_per_turn")
OPTIONAL_COLUMNS = ("turns", "treasures_raised", "date", "table")
OUTCOMES = ("win", *LOSS_CAUSES)
SKILL_GRID = np.round(np.linspace(0.0, 1.0, 21), 3)  # where the lab measures the curve
FINE_GRID = np.round(np.linspace(0.0, 1.0, 401), 4)  # where the likelihood is maximised
CHI2_1_95 = 3.841458820694124  # 95% quantile of chi-square with 1 degree of freedom
ALL_TABLES = "all tables"
LISTED_PROBLEMS = 20  # bad rows (or records) listed a file (or folder); the rest are counted
MAX_LOG_BYTES = 64 << 20  # a log of real games is a few KB: anything near this is not one
MAX_RECORD_BYTES = 4 << 20
RECORD_DEPTH = 8  # a record nests 4 deep (turns: a list of turns, each a list of entries)
PROBLEM_CHARS = 300  # a problem line quotes at most this much of the file


class LogError(ValueError):
    """A log that cannot be read at all (a missing file, no header, no outcome column)."""


@dataclass(frozen=True)
class Game:
    table: str
    rules: Rules
    outcome: str  # win or an R18 cause
    where: str  # file and row, for messages
    turns: int | None = None
    treasures_raised: int | None = None

    @property
    def won(self) -> bool:
        return self.outcome == "win"


# --- reading ---------------------------------------------------------------------------------------


def _whole(text: str, column: str) -> int:
    if not re.fullmatch("[+-]?[0-9]{1,18}", text):  # no count of a game has 19 digits
        raise ValueError(f"column {column}: {clip(text)} is not a whole number")
    return int(text)


def _row_game(row: dict[str, str], table: str, where: str) -> Game:
    keys = {}
    for column in RULE_COLUMNS:
        text = (row.get(column) or "").strip()
        if not text:
            continue  # a missing rule means the rulebook's value
        if column == "gauge":
            keys["gauge"] = [c.upper() for c in text.replace(",", " ").split()]
        else:
            keys[column] = _whole(text, column)
    try:
        rules = Rules(**keys)
    except RuleError as exc:
        message = str(exc)
        column = next((c for c in RULE_COLUMNS if c in message or c.replace("_", " ") in message), "rules")
        raise ValueError(f"column {column}: {message}") from None
    outcome = (row.get("outcome") or "").strip().lower()
    if outcome not in OUTCOMES:
        raise ValueError(f"column outcome: {clip(outcome)} is not win or an R18 cause ({', '.join(LOSS_CAUSES)})")
    extra = {}
    for column in ("turns", "treasures_raised"):
        text = (row.get(column) or "").strip()
        if text:
            extra[column] = _whole(text, column)
            if extra[column] < 0:
                raise ValueError(f"column {column}: {clip(text)} is negative")
    if extra.get("treasures_raised", 0) > 4:
        raise ValueError(f"column treasures_raised: {extra['treasures_raised']} is more than 4")
    return Game((row.get("table") or "").strip() or table, rules, outcome, where, **extra)


class _Problems:
    """The problem lines of one file or folder: the first LISTED_PROBLEMS in full, then a count."""

    def __init__(self, where: Path, problems: list[str]):
        self.where, self.problems, self.count = where, problems, 0

    def add(self, line: str) -> None:
        self.count += 1
        if self.count <= LISTED_PROBLEMS:
            self.problems.append(shorten(line, PROBLEM_CHARS))

    def close(self) -> None:
        if self.count > LISTED_PROBLEMS:
            self.problems.append(f"{self.where}: {self.count - LISTED_PROBLEMS} more bad rows or records not listed")


def read_text(path: Path, limit: int) -> str:
    """A file's text, strictly UTF-8 (a byte-order mark allowed) and free of NUL; LogError saying
    where it is not."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(limit + 1)
    except OSError as exc:
        raise LogError(f"{path}: cannot read it ({exc.strerror})") from None
    if len(raw) > limit:
        raise LogError(f"{path}: larger than {limit >> 20} MB, not a log of games")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise LogError(f"{path}, line {line}: not UTF-8 text (byte 0x{raw[exc.start]:02x}); "
                       "save it as UTF-8") from None
    if "\0" in text:
        line = text.count("\n", 0, text.index("\0")) + 1
        raise LogError(f"{path}, line {line}: a NUL byte - a binary file, not a CSV log")
    return text


def read_csv(path: Path, problems: list[str]) -> list[Game]:
    """The good rows of one CSV log; each bad row adds one line to `problems` (the first
    LISTED_PROBLEMS of them, then their count). A file that is not a CSV log raises LogError."""
    reader = csv.DictReader(io.StringIO(read_text(path, MAX_LOG_BYTES), newline=""), strict=True)
    bad = _Problems(path, problems)
    try:
        header = [h.strip() for h in (reader.fieldnames or [])]
        if not header:
            raise LogError(f"{path}: empty, expected a header row")
        reader.fieldnames = header
        if "outcome" not in header:
            raise LogError(f"{path}: no outcome column (columns: {shorten(', '.join(header), 200)})")
        unknown = [h for h in header if h not in (*RULE_COLUMNS, "outcome", *OPTIONAL_COLUMNS)]
        if unknown:
            raise LogError(f"{path}: unknown column {clip(unknown[0])}")
        games = []
        for row in reader:
            n = reader.line_num  # the line in the file (the header is line 1; blank lines count)
            if not any((v or "").strip() for v in row.values() if isinstance(v, str)):
                continue  # a line of empty cells
            try:
                games.append(_row_game(row, path.stem, f"{path}, row {n}"))
            except ValueError as exc:
                bad.add(f"{path}, row {n}: {exc}")
    except csv.Error as exc:  # the dialect: a stray quote, a field over csv.field_size_limit()
        raise LogError(f"{path}, line {reader.line_num + 1}: not a CSV log ({exc})") from None
    bad.close()
    return games


def _record_game(path: Path, table: str) -> Game:
    """The finished game of one record file, replayed (the moves decide, not what the file
    says); ValueError in one line if the file is not a finished record."""
    from sim.island_escape.records import RecordError, load_record, replay

    try:
        document = parse_json(read_text(path, MAX_RECORD_BYTES), max_depth=RECORD_DEPTH)
        if not isinstance(document, dict):
            raise ValueError(f"a record is a JSON object, not {type(document).__name__}")
        game = replay(load_record(document))
    except LogError as exc:
        raise ValueError(str(exc).removeprefix(f"{path}").lstrip(":, ")) from None
    except RecordError as exc:
        raise ValueError(str(exc)) from None
    if game.outcome is None:
        raise ValueError("the game is not finished")
    return Game(table, game.rules, game.outcome, str(path), game.turn, len(game.raised))


def read_records(folder: Path, problems: list[str]) -> list[Game]:
    """Finished games saved by `island-escape play`; the table is the folder's name."""
    games, bad = [], _Problems(folder, problems)
    for path in sorted(folder.glob("*.json")):
        try:
            games.append(_record_game(path, folder.name))
        except ValueError as exc:
            bad.add(f"{path}: {exc}")
    bad.close()
    return games


def read_records_file(path: Path, problems: list[str]) -> list[Game]:
    try:
        return [_record_game(path, path.parent.name)]
    except ValueError as exc:
        problems.append(shorten(f"{path}: {exc}", PROBLEM_CHARS))
        return []


def read_logs(paths: Iterable[str | Path]) -> tuple[list[Game], list[str]]:
    """All good games of CSV logs, record folders and record files, and one line per bad row or
    file (a file that is not a log at all is one line too; the other files are still read)."""
    problems: list[str] = []
    games: list[Game] = []
    for name in paths:
        path = Path(name)
        try:
            if path.is_dir():
                games += read_records(path, problems)
            elif path.suffix.lower() == ".json":
                if not path.exists():
                    raise LogError(f"{path}: no such file")
                games += read_records_file(path, problems)
            else:
                games += read_csv(path, problems)
        except LogError as exc:
            problems.append(shorten(str(exc), PROBLEM_CHARS))
    return games, problems


# --- statistics ------------------------------------------------------------------------------------


def describe(rules: Rules) -> str:
    return (f"{rules.players}p, {counted(rules.cards_per_treasure, 'card')}, swim {rules.swim_cost}, "
            f"{counted(rules.actions_per_turn, 'action')}, gauge {' '.join(pretty(c) for c in rules.gauge)}")


def by_setting(games: list[Game]) -> list[tuple[Rules, int, int]]:
    """(rules, games, wins) for each rule setting, in the order first played."""
    counts: dict[Rules, list[int]] = {}
    for g in games:
        c = counts.setdefault(g.rules, [0, 0])
        c[0] += 1
        c[1] += g.won
    return [(rules, n, w) for rules, (n, w) in counts.items()]


def log_likelihood(counts: list[tuple[Rules, int, int]], curves: dict[Rules, np.ndarray], floor: float) -> np.ndarray:
    """The table's log-likelihood at each skill of FINE_GRID; `curves` on SKILL_GRID."""
    total = np.zeros(len(FINE_GRID))
    for rules, n, w in counts:
        p = np.interp(FINE_GRID, SKILL_GRID, curves[rules])
        p = np.clip(p, floor, 1 - floor)  # a lab rate of 0 or 1 is a finite sample, not a certainty
        total += w * np.log(p) + (n - w) * np.log1p(-p)
    return total


def estimate_skill(counts: list[tuple[Rules, int, int]], win_rate: WinRate,
                   floor: float = 1e-3) -> tuple[float, tuple[float, float], dict[Rules, np.ndarray]]:
    """Maximum-likelihood skill and its 95% likelihood-ratio interval, and the curves used."""
    curves = {rules: np.array([win_rate(rules, float(s)) for s in SKILL_GRID]) for rules, _, _ in counts}
    ll = log_likelihood(counts, curves, floor)
    best = int(np.argmax(ll))
    inside = FINE_GRID[2 * (ll[best] - ll) <= CHI2_1_95]
    return float(FINE_GRID[best]), (float(inside.min()), float(inside.max())), curves


def levels_for(players: int, skill: float, win_rate: WinRate, bands: dict[str, tuple[float, float]],
               max_changes: int = 2) -> list[dict]:
    """For each band, the rules with fewest changes from the rulebook (then closest to the band's
    centre) whose lab win rate at this skill lies in the band; the search space of calibrate."""
    from experiments.calibrate import candidate_settings

    rates = []
    for changes in range(max_changes + 1):
        for setting in candidate_settings(changes):
            rules = setting.rules(players)
            rates.append((setting, rules, win_rate(rules, skill)))
    out = []
    for level, (lo, hi) in bands.items():
        centre = (lo + hi) / 2
        fits = [(s.changes, abs(r - centre), i) for i, (s, _, r) in enumerate(rates) if lo <= r <= hi]
        if not fits:
            out.append({"players": players, "level": level, "band": [lo, hi], "rules": None,
                        "change": f"nothing within {max_changes} changes of the rulebook", "win_rate": None})
            continue
        setting, rules, rate = rates[min(fits)[2]]
        out.append({"players": players, "level": level, "band": [lo, hi], "rules": rules.as_record(),
                    "change": setting.describe(), "win_rate": rate})
    return out


def summarize_table(name: str, games: list[Game], win_rate: WinRate | None,
                    bands: dict[str, tuple[float, float]], floor: float = 1e-3) -> dict:
    from experiments.runner import wilson_interval

    wins = sum(g.won for g in games)
    settings = []
    counts = by_setting(games)
    for rules, n, w in counts:
        settings.append({"rules": rules.as_record(), "setting": describe(rules), "games": n, "wins": w,
                         "win_rate": w / n, "ci95": list(wilson_interval(w, n))})
    out = {"table": name, "games": len(games), "wins": wins, "win_rate": wins / len(games) if games else 0.0,
           "ci95": list(wilson_interval(wins, len(games))), "settings": settings,
           "skill": None, "skill_ci": None, "levels": []}
    if win_rate is None or not games:
        return out
    skill, ci, _ = estimate_skill(counts, win_rate, floor)
    out["skill"], out["skill_ci"] = skill, list(ci)
    for players in sorted({g.rules.players for g in games}):
        out["levels"] += levels_for(players, skill, win_rate, bands)
    return out


def summarize(games: list[Game], win_rate: WinRate | None, bands: dict[str, tuple[float, float]] | None = None,
              floor: float = 1e-3) -> list[dict]:
    """One summary a table, then one of all tables together (when there are several)."""
    from experiments.calibrate import DEFAULT_BANDS

    bands = dict(bands or DEFAULT_BANDS)
    tables: dict[str, list[Game]] = {}
    for g in games:
        tables.setdefault(g.table, []).append(g)
    out = [summarize_table(name, gs, win_rate, bands, floor) for name, gs in tables.items()]
    if len(tables) > 1:
        out.append(summarize_table(ALL_TABLES, games, win_rate, bands, floor))
    return out


# --- the lab's curve ---------------------------------------------------------------------------------


class LabWinRate:
    """The lab's win rate of the `skilled` policy at a skill: `games` kernel games of `seed`
    (the same islands at every skill and setting, so the curve is smooth in the skill)."""

    def __init__(self, games: int = 2000, seed: int = 7100, threads: int | None = None):
        self.games, self.seed, self.threads = games, seed, threads
        self.cache: dict[tuple[Rules, float], float] = {}

    @staticmethod
    def available() -> bool:
        from policies.island_escape.registry import POLICIES

        return "skilled" in POLICIES

    def __call__(self, rules: Rules, skill: float) -> float:
        key = (rules, round(skill, 4))
        if key not in self.cache:
            from policies.island_escape import skilled
            from policies.island_escape.runner import run_games

            raw = run_games(rules, "skilled", self.games, self.seed, threads=self.threads,
                            policy_params=skilled.skill_params(skill))
            self.cache[key] = float((raw[:, 0] == 0).mean())
        return self.cache[key]

    @property
    def floor(self) -> float:
        return 0.5 / (self.games + 1)


def format_text(summaries: list[dict]) -> str:
    lines = []
    for s in summaries:
        lo, hi = s["ci95"]
        lines.append(f"{s['table']}: {counted(s['games'], 'game')}, {s['wins']} won, "
                     f"win rate {100 * s['win_rate']:.0f}% (95% interval {100 * lo:.0f}-{100 * hi:.0f}%)")
        for st in s["settings"]:
            lo, hi = st["ci95"]
            lines.append(f"  {st['setting']:<66} {st['wins']:>3}/{st['games']:<3} won  {100 * st['win_rate']:>3.0f}% "
                         f"({100 * lo:.0f}-{100 * hi:.0f}%)")
        if s["skill"] is None:
            lines.append("  skill: not estimated (needs the lab's skilled policy)")
        else:
            lo, hi = s["skill_ci"]
            lines.append(f"  skill {s['skill']:.2f} (95% interval {lo:.2f}-{hi:.2f})")
        for lv in s["levels"]:
            rate = "" if lv["win_rate"] is None else f"  (lab at this skill: {100 * lv['win_rate']:.0f}%)"
            lines.append(f"  {lv['players']}p {lv['level']:<7} {lv['change']}{rate}")
    return "\n".join(lines)


def json_objects(summaries: list[dict]) -> list[dict]:
    keys = ("table", "games", "wins", "win_rate", "ci95", "skill", "skill_ci", "levels", "settings")
    return [{k: s[k] for k in keys} for s in summaries]


__all__ = ["Game", "LabWinRate", "LogError", "WinRate", "estimate_skill", "format_text", "json_objects",
           "levels_for", "read_logs", "summarize"]
