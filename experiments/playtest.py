"""Games played by people, brought back to the lab: win rates, the table's skill, its levels.

A log is a CSV file of games played with real cards, one row a game (README, `playtest summarize`), or
a folder of records saved by `island-escape play`. A row is an Island Escape game, or, with `game`
= forbidden-island, a Forbidden Island game (`players` F2, `difficulty` F4); its outcome is a win,
one of its game's loss causes (R18, F14) or `loss` when nobody wrote the cause down. A row carrying
another game's rule is a bad row: it is more likely a misfiled game than a rule to ignore.

The table's place on the lab's strength scale (experiments/scale.py: the skilled player from 0 to
1, the expert at 1, the search at doubling budgets above it) is estimated by maximum likelihood
from all of its games at once: with p_k(x) the lab's win rate on setting k at point x, the
table's wins w_k of n_k games have log-likelihood sum_k [w_k log p_k(x) + (n_k - w_k) log(1 -
p_k(x))]. The curve p_k is measured at the scale's points and interpolated linearly between them;
the 95% interval holds the points whose likelihood ratio to the best is within the chi-square(1)
bound (2 * drop <= 3.84). The search's points cost seconds a game, so they are measured only for a
table whose interval on the skilled player's part reaches the expert: win rates rise along the
scale, so a table whose likelihood has fallen by the bound before the expert only falls further
above it. A table that wins more than the scale's strongest player would (a one-sided 95% test)
is beyond the scale, and the estimate says so rather than pin it to the end of the axis.
The settings may be of both games: each point is the same kind of player in every game
(docs/RULES-FI.md; experiments/scale.py), so one point explains a table's Island Escape and
Forbidden Island games alike, and the printed, people-tested Forbidden Island levels a group
already plays place it on the scale as well as its Island Escape games.
The win-rate curve is passed in (`WinRate`, optionally with the `grid` of points it is measured
at), so the statistics can be checked on a known curve.

A table's levels (`table_levels`) are calibrate's own search played at its skill, so that
`calibrate --table` and `playtest summarize` can only agree; each level is replayed at the ends of
the skill's interval, because a level tuned to the estimate alone may miss its band for a table
whose true skill is anywhere the log allows.
"""

from __future__ import annotations

import csv
import functools
import io
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from experiments import scale
from experiments.pages import clip, parse_json, shorten
from experiments.scale import EXPERT, SKILL_GRID
from policies.game import DEFAULT_GAME, counted, game_of_record, game_of_rules, with_win_rates
from policies.game import game as game_named

WinRate = Callable[[Any, float], float]  # the lab's win rate on these rules at this skill
GAME_COLUMN = "game"  # which game a row is: a name `--game` takes; empty is the lab's own game
RULE_COLUMNS = ("players", "cards_per_treasure", "gauge", "swim_cost", "actions_per_turn")  # Island Escape's
OPTIONAL_COLUMNS = ("turns", "treasures_raised", "date", "table")
UNKNOWN_LOSS = "loss"  # a loss whose cause nobody wrote down
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
class LoggedGame:
    table: str
    rules: Any  # the Rules of the game it is a game of
    outcome: str  # win, a loss cause of its game (R18, F14) or UNKNOWN_LOSS
    where: str  # file and row, for messages
    turns: int | None = None
    treasures_raised: int | None = None

    @property
    def won(self) -> bool:
        return self.outcome == "win"

    @property
    def game(self):
        """The game of the lab these rules belong to (policies/game.py)."""
        return game_of_rules(self.rules)


# --- reading ---------------------------------------------------------------------------------------


def _whole(text: str, column: str) -> int:
    if not re.fullmatch("[+-]?[0-9]{1,18}", text):  # no count of a game has 19 digits
        raise ValueError(f"column {column}: {clip(text)} is not a whole number")
    return int(text)


@functools.cache
def rule_columns() -> tuple[str, ...]:
    """Every game's rule columns (a game's `grid_keys`: the rule keys a setting is named by), in
    the order the games are listed: Island Escape's, then Forbidden Island's `difficulty`."""
    return tuple(dict.fromkeys(c for g in with_win_rates() for c in g.grid_keys))


@functools.cache
def outcomes(game) -> tuple[str, ...]:
    """What a row of `game` may say it ended with: a win, one of the game's loss causes (Island
    Escape's R18, Forbidden Island's F14) or a loss of unknown cause."""
    return (*game.causes, UNKNOWN_LOSS)


@functools.cache
def _rulebook(game) -> dict:
    return game.rules().as_record()


def _rule_value(game, text: str, column: str, default):
    """A rule cell as its game's Rules take it, by the kind of the rulebook's value: cards (the
    gauge, top first, as the game reads them: Game.cards_from_text), a whole number, or a name
    (Forbidden Island's difficulty, F4)."""
    if isinstance(default, (list, tuple)):
        return game.cards_from_text(text)
    if isinstance(default, int):
        return _whole(text, column)
    return text.lower()


def _row_game(row: dict[str, str], table: str, where: str) -> LoggedGame:
    try:
        game = game_named((row.get(GAME_COLUMN) or "").strip().lower() or DEFAULT_GAME)
    except ValueError:
        logged = ", ".join(g.name for g in with_win_rates())
        raise ValueError(f"column {GAME_COLUMN}: {clip(row.get(GAME_COLUMN) or '')} is not a game of the lab "
                         f"({logged})") from None
    if game not in with_win_rates():  # a log row is a table's win or loss; a competitive game's seats each score
        raise ValueError(f"column {GAME_COLUMN}: {game.title} is competitive; a playtest log holds cooperative games")
    own = game.grid_keys
    for column in rule_columns():  # another game's rule: the row names the wrong game, or none
        if column not in own and (row.get(column) or "").strip():
            owners = ", ".join(g.name for g in with_win_rates() if column in g.grid_keys)
            raise ValueError(f"column {column}: {game.title} has no {column.replace('_', ' ')} (a rule of "
                             f"{owners}; column {GAME_COLUMN} names a row's game, {DEFAULT_GAME} when empty)")
    defaults = _rulebook(game)
    keys = {}
    for column in own:
        text = (row.get(column) or "").strip()
        if text:  # a missing rule means the rulebook's value
            try:
                keys[column] = _rule_value(game, text, column, defaults[column])
            except game.rule_error as exc:
                raise ValueError(f"column {column}: {exc}") from None
    try:
        rules = game.rules(**keys)
    except game.rule_error as exc:
        message = str(exc)
        column = next((c for c in own if c in message or c.replace("_", " ") in message), "rules")
        raise ValueError(f"column {column}: {message}") from None
    outcome = (row.get("outcome") or "").strip().lower()
    if outcome not in outcomes(game):
        raise ValueError(f"column outcome: {clip(outcome)} is not win, {UNKNOWN_LOSS} or a loss cause of "
                         f"{game.title} ({', '.join(game.causes[1:])})")
    extra = {}
    for column in ("turns", "treasures_raised"):
        text = (row.get(column) or "").strip()
        if text:
            extra[column] = _whole(text, column)
            if extra[column] < 0:
                raise ValueError(f"column {column}: {clip(text)} is negative")
    if extra.get("treasures_raised", 0) > 4:  # four treasures in either game (R12, F12)
        raise ValueError(f"column treasures_raised: {extra['treasures_raised']} is more than 4")
    return LoggedGame((row.get("table") or "").strip() or table, rules, outcome, where, **extra)


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


def read_csv(path: Path, problems: list[str]) -> list[LoggedGame]:
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
        unknown = [h for h in header if h not in (GAME_COLUMN, *rule_columns(), "outcome", *OPTIONAL_COLUMNS)]
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


def _record_game(path: Path, table: str) -> LoggedGame:
    """The finished game of one record file, replayed (the moves decide, not what the file
    says); ValueError in one line if the file is not a finished record."""
    try:
        document = parse_json(read_text(path, MAX_RECORD_BYTES), max_depth=RECORD_DEPTH)
        if not isinstance(document, dict):
            raise ValueError(f"a record is a JSON object, not {type(document).__name__}")
        game = game_of_record(document)
        if game not in with_win_rates():  # as for a log's row: a table's win or loss
            raise ValueError(f"{game.title} is competitive; a playtest log holds cooperative games")
        try:
            rules, outcome, turns, treasures = game.finished(game.records.load_record(document))
        except game.records.RecordError as exc:
            raise ValueError(str(exc)) from None
    except LogError as exc:
        raise ValueError(str(exc).removeprefix(f"{path}").lstrip(":, ")) from None
    if outcome is None:
        raise ValueError("the game is not finished")
    return LoggedGame(table, rules, outcome, str(path), turns, treasures)


def read_records(folder: Path, problems: list[str]) -> list[LoggedGame]:
    """Finished games saved by `island-escape play`; the table is the folder's name."""
    games, bad = [], _Problems(folder, problems)
    for path in sorted(folder.glob("*.json")):
        try:
            games.append(_record_game(path, folder.name))
        except ValueError as exc:
            bad.add(f"{path}: {exc}")
    bad.close()
    return games


def read_records_file(path: Path, problems: list[str]) -> list[LoggedGame]:
    try:
        return [_record_game(path, path.parent.name)]
    except ValueError as exc:
        problems.append(shorten(f"{path}: {exc}", PROBLEM_CHARS))
        return []


def read_logs(paths: Iterable[str | Path]) -> tuple[list[LoggedGame], list[str]]:
    """All good games of CSV logs, record folders and record files, and one line per bad row or
    file (a file that is not a log at all is one line too; the other files are still read)."""
    problems: list[str] = []
    games: list[LoggedGame] = []
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


def describe(rules) -> str:
    """One setting in one line, as its game writes it (Forbidden Island's names the game)."""
    return game_of_rules(rules).setting_line(rules)


def by_setting(games: list[LoggedGame]) -> list[tuple[Any, int, int]]:
    """(rules, games, wins) for each rule setting, in the order first played."""
    counts: dict[Any, list[int]] = {}
    for g in games:
        c = counts.setdefault(g.rules, [0, 0])
        c[0] += 1
        c[1] += g.won
    return [(rules, n, w) for rules, (n, w) in counts.items()]


def fine_grid(grid: np.ndarray) -> np.ndarray:
    """Where the likelihood is maximised: every 0.0025 of the scale up to the grid's last point."""
    top = float(grid[-1])
    return np.round(np.linspace(0.0, top, int(round(top * 400)) + 1), 4)


def log_likelihood(counts: list[tuple[Any, int, int]], curves: dict[Any, np.ndarray], floor: float,
                   grid: np.ndarray = SKILL_GRID) -> np.ndarray:
    """The table's log-likelihood at each point of `fine_grid(grid)`; `curves` on `grid`."""
    fine = fine_grid(grid)
    total = np.zeros(len(fine))
    for rules, n, w in counts:
        p = np.interp(fine, grid, curves[rules][:len(grid)])
        p = np.clip(p, floor, 1 - floor)  # a lab rate of 0 or 1 is a finite sample, not a certainty
        total += w * np.log(p) + (n - w) * np.log1p(-p)
    return total


def _fit(counts, curves, floor: float, grid: np.ndarray) -> tuple[float, tuple[float, float]]:
    fine = fine_grid(grid)
    ll = log_likelihood(counts, curves, floor, grid)
    best = int(np.argmax(ll))
    inside = fine[2 * (ll[best] - ll) <= CHI2_1_95]
    return float(fine[best]), (float(inside.min()), float(inside.max()))


def estimate_skill(counts: list[tuple[Any, int, int]], win_rate: WinRate, floor: float = 1e-3,
                   echo: Callable[[str], None] = lambda s: None,
                   ) -> tuple[float, tuple[float, float], dict[Any, np.ndarray]]:
    """Maximum-likelihood point of the scale and its 95% likelihood-ratio interval, and the
    curves used (on the first points of `win_rate.grid`, SKILL_GRID without one). The settings
    may be of different games: each point is the same kind of player in every game, so one
    point explains a table's games of both. The search's points are measured only when the
    interval on the skilled player's points reaches the expert."""
    grid = np.asarray(getattr(win_rate, "grid", SKILL_GRID), dtype=float)
    below = grid[grid <= EXPERT]
    curves = {}
    for k, (rules, _, _) in enumerate(counts):
        echo(f"  lab curve {k + 1}/{len(counts)}: {describe(rules)}, {len(below)} skills")
        curves[rules] = np.array([win_rate(rules, float(s)) for s in below])
    skill, ci = _fit(counts, curves, floor, below)
    if len(grid) > len(below) and ci[1] >= EXPERT:
        for k, (rules, _, _) in enumerate(counts):
            echo(f"  lab curve {k + 1}/{len(counts)} above the expert: {describe(rules)}, "
                 + ", ".join(scale.name_at(x) for x in grid[len(below):]))
            curves[rules] = np.concatenate([curves[rules], [win_rate(rules, float(x)) for x in grid[len(below):]]])
        skill, ci = _fit(counts, curves, floor, grid)
    return skill, ci, curves


@dataclass
class TableSkill:
    """A table's place on the scale from all its games, and the evidence: each setting's games and
    wins and the lab's curve on it (at the first points of `grid`). `beyond`: the test of the
    table's wins against the curves' last point (scale.beyond_top), set when the estimate is
    that point: `beyond["beyond"]` says the table wins more than that player would."""

    skill: float
    ci: tuple[float, float]
    counts: list[tuple[Any, int, int]]
    curves: dict[Any, np.ndarray]
    grid: np.ndarray = field(default_factory=lambda: SKILL_GRID)
    beyond: dict | None = None

    @property
    def measured(self) -> np.ndarray:
        """The points the curves were measured at."""
        return self.grid[:len(next(iter(self.curves.values())))] if self.curves else self.grid[:1]

    def lab_rate(self, rules) -> float:
        """The lab's win rate on `rules` at the estimated point (the curve, interpolated)."""
        return float(np.interp(self.skill, self.measured, self.curves[rules]))

    @property
    def beyond_strongest(self) -> bool:
        return bool(self.beyond and self.beyond["beyond"])

    @property
    def strongest(self) -> float:
        """The strongest point the curves reach."""
        return float(self.measured[-1])

    def place(self) -> str:
        """Where the table stands, in words."""
        if self.beyond_strongest:
            return f"beyond {scale.name_at(self.strongest)}, the strongest player measured"
        return scale.name_at(self.skill)


def table_skill(games: list[LoggedGame], win_rate: WinRate, floor: float | None = None,
                echo: Callable[[str], None] = lambda s: None) -> TableSkill:
    floor = getattr(win_rate, "floor", 1e-3) if floor is None else floor
    counts = by_setting(games)
    skill, ci, curves = estimate_skill(counts, win_rate, floor, echo)
    grid = np.asarray(getattr(win_rate, "grid", SKILL_GRID), dtype=float)
    est = TableSkill(skill, ci, counts, curves, grid)
    if skill >= est.strongest - 1e-9:
        est.beyond = scale.beyond_top(counts, {rules: float(c[-1]) for rules, c in curves.items()}, floor)
    return est


# --- a table's levels ------------------------------------------------------------------------------
#
# The levels are calibrate's own search (experiments/calibrate.py: fewest changes, Divers only for
# a level easier than Normal, each recommendation confirmed with a 95% interval inside its band
# and validated on a fresh seed), played by the lab's skilled player at the table's estimated
# skill. The estimate is uncertain, so each level is also played at the two ends of the skill's
# interval: a level whose win rate stays in its band there holds for any skill the log allows.
# `playtest summarize` and `calibrate --table` both come here, with the same options (Search).


@dataclass(frozen=True)
class Search:
    """How a table's levels are searched: calibrate's options, the defaults of both commands."""

    bands: dict[str, tuple[float, float]] | None = None  # calibrate's DEFAULT_BANDS
    seed: int = 2026
    screen_games: int = 1000
    confirm_games: int = 8000
    max_changes: int = 3
    knobs: tuple[str, ...] | None = None  # the game's knobs (all of them)
    threads: int | None = None


LAB_GAMES = 2000  # games the lab plays a setting at each skill of SKILL_GRID
LAB_SEED = 7100  # the lab's curve: other games than the search's (Search.seed) and a log's
REPORTS = Path(__file__).resolve().parents[1] / "reports"  # where `island-escape scale` writes


def table_levels(games: list[LoggedGame], win_rate: WinRate, players: list[int] | None = None,
                 search: Search = Search(), table: str = ALL_TABLES, floor: float | None = None,
                 echo: Callable[[str], None] = lambda s: None, skill: TableSkill | None = None) -> list[dict]:
    """Easy, Normal and Hard of Island Escape for the table whose games these are: calibrate's
    records (`Recommendation.to_json`) for the skilled player at the table's skill (rounded to
    two decimals), each with `table`, `skill`, `skill_ci` and `across_skill_ci` (the setting's win
    rate at the interval's two ends, `confirm_games` games of the search's seed each, and whether
    both lie inside the band). A level calibrate does not confirm within `max_changes` is a record
    with `rules` None and its `nearest` candidates (Near.to_json). `players` defaults to the
    player counts of the games; `skill` is `table_skill` of these games when already estimated."""
    from experiments.calibrate import DEFAULT_BANDS, calibrate, measure

    est = skill or table_skill(games, win_rate, floor, echo)
    searched = game_named()  # calibrate searches the rules of the lab's own game
    # Calibrate plays thousands of games a setting: above the expert (a search, seconds a game) it
    # cannot, so a stronger table's levels are the expert's, said so in every record.
    policy = searched.player(None, round(min(est.skill, EXPERT), 2))
    ends = [round(min(s, EXPERT), 2) for s in est.ci]
    bands = dict(search.bands or DEFAULT_BANDS)
    players = sorted(set(players or {g.rules.players for g in games}))
    above = est.skill > EXPERT
    echo(f"{table}: {skill_line(est.skill, est.ci, est.place())}; calibrating for {policy}"
         + (" (the strongest player calibrate can afford: these levels will feel easier to this table)"
            if above else ""))
    cal = calibrate(players=players, bands=bands, policy=policy, seed=search.seed,
                    screen_games=search.screen_games, confirm_games=search.confirm_games,
                    max_changes=search.max_changes, validate_games=search.confirm_games, others=[],
                    threads=search.threads, echo=echo, knobs=search.knobs, game=searched)
    found = {(r.players, r.level): r for r in cal.recommendations}
    base = {"table": table, "skill": est.skill, "skill_ci": list(est.ci), **scale_fields(est),
            "calibrated_above_expert": above}
    out = []
    for p in players:
        for level, band in bands.items():
            rec = found.get((p, level))
            if rec is None:
                out.append({"players": p, "level": level, "band": list(band), "policy": policy, "rules": None,
                            "change": f"nothing confirmed within {counted(search.max_changes, 'change')}",
                            "win_rate": None, "nearest": [n.to_json() for n in cal.near.get((p, level), [])],
                            **base, "across_skill_ci": None})
                continue
            rules = rec.setting.rules(searched.design.player_groups([p])[p])  # a player count that plays like another
            at = [measure(rules, searched.player(None, s), search.confirm_games, search.seed, search.threads)
                  for s in ends]
            rates = [m.rate for m in at]
            outside = max(max(band[0] - r, r - band[1], 0.0) for r in rates)
            out.append({**rec.to_json(), **base, "across_skill_ci": {
                "skills": ends, "win_rates": rates, "ci95": [list(m.ci) for m in at],
                "games": search.confirm_games, "seed": search.seed,
                "inside_band": outside == 0, "outside_by": outside}})
            echo(f"  {p}p {level}: {100 * rec.result.rate:.1f}% at skill {round(min(est.skill, EXPERT), 2):g}, "
                 f"{100 * rates[0]:.1f}% at {ends[0]:g}, {100 * rates[1]:.1f}% at {ends[1]:g}")
    return out


# --- summaries -------------------------------------------------------------------------------------


def summarize_table(name: str, games: list[LoggedGame], win_rate: WinRate | None, floor: float = 1e-3) -> dict:
    from experiments.runner import wilson_interval

    wins = sum(g.won for g in games)
    settings = []
    counts = by_setting(games)
    for rules, n, w in counts:
        settings.append({"game": game_of_rules(rules).name, "rules": rules.as_record(), "setting": describe(rules),
                         "games": n, "wins": w, "win_rate": w / n, "ci95": list(wilson_interval(w, n)),
                         "lab_win_rate": None})
    out = {"table": name, "games": len(games), "wins": wins, "win_rate": wins / len(games) if games else 0.0,
           "ci95": list(wilson_interval(wins, len(games))), "settings": settings,
           "skill": None, "skill_ci": None, "place": None, "beyond_strongest": None, "levels": None}
    if win_rate is None or not games:
        return out
    est = table_skill(games, win_rate, floor)
    out["skill"], out["skill_ci"] = est.skill, list(est.ci)
    out.update(scale_fields(est))
    for st, (rules, _, _) in zip(settings, counts, strict=True):
        st["lab_win_rate"] = est.lab_rate(rules)
    return out


def summarize(games: list[LoggedGame], win_rate: WinRate | None, floor: float = 1e-3, search: Search | None = None,
              players: list[int] | None = None, echo: Callable[[str], None] = lambda s: None) -> list[dict]:
    """One summary a table, then one of all tables together (when there are several). With
    `search`, the last summary (the whole log's) carries its levels (`table_levels`): one search
    for all the log's games, as `calibrate --table` does; the other summaries' levels are None."""
    tables: dict[str, list[LoggedGame]] = {}
    for g in games:
        tables.setdefault(g.table, []).append(g)
    out = [summarize_table(name, gs, win_rate, floor) for name, gs in tables.items()]
    if len(tables) > 1:
        out.append(summarize_table(ALL_TABLES, games, win_rate, floor))
    if search is not None and win_rate is not None and games:
        out[-1]["levels"] = table_levels(games, win_rate, players, search, out[-1]["table"], floor, echo)
    return out


# --- the lab's curve ---------------------------------------------------------------------------------


def skill_player(game) -> str | None:
    """The policy of `game` that takes a skill (`game.player(None, skill)` plays it), None when
    its players take none."""
    try:
        return game.skill_policy or game.player(None, 1.0).partition("@")[0]
    except ValueError:
        return None


class LabWinRate:
    """The lab's win rate at a point of the strength scale (experiments/scale.py) on whichever
    game's rules: the game's skilled player (`Game.skill_policy`) at a skill up to the expert,
    `games` kernel games of `seed`; its search at a budget above it, `search_games` games of the
    same seed (the same deals at every point and setting of a game, so the curve is smooth).
    `top`: the strongest search budget on the scale (0: the skilled player's points alone)."""

    def __init__(self, games: int = LAB_GAMES, seed: int = LAB_SEED, threads: int | None = None,
                 top: int = scale.TOP_BUDGET, search_games: int = scale.SEARCH_GAMES):
        self.games, self.seed, self.threads = games, seed, threads
        self.top, self.search_games = top, search_games
        self.cache: dict[tuple[Any, float], float] = {}

    @property
    def grid(self) -> np.ndarray:
        return scale.grid(self.top) if self.top else SKILL_GRID

    @staticmethod
    def available() -> bool:
        return all(skill_player(g) for g in with_win_rates())  # the games a log may hold

    def __call__(self, rules: Any, position: float) -> float:
        key = (rules, round(position, 4))
        if key not in self.cache:
            game = game_of_rules(rules)
            games = self.search_games if scale.is_search_point(position) else self.games
            raw = game.run_games(rules, scale.player_at(game, position), games, self.seed, threads=self.threads)
            self.cache[key] = float((raw[:, 0] == 0).mean())
        return self.cache[key]

    @property
    def floor(self) -> float:
        fewest = min(self.games, self.search_games) if self.top else self.games  # a rate's fewest games
        return 0.5 / (fewest + 1)


def scale_fields(est: TableSkill, report_dir: Path | None = None) -> dict:
    """What the records say of a table's place: `place` in words and `beyond_strongest` (None, or
    the strongest player measured, what the table won against what that player would, and that
    player's rates on the yardstick game's printed levels from reports/scale.json when written)."""
    out: dict[str, Any] = {"place": est.place(), "beyond_strongest": None}
    if est.beyond_strongest:
        b = est.beyond
        rows = (scale.read_report(report_dir or REPORTS) or {}).get("rows", [])
        counts = sorted({rules.players for rules, _, _ in est.counts})
        out["beyond_strongest"] = {
            "player": scale.name_at(est.strongest), "position": est.strongest, "wins": b["wins"],
            "games": b["games"], "expected_wins": b["expected_wins"],
            "yardstick": {str(p): scale.rates_line(rows, est.strongest, p) for p in counts
                          if scale.rates_line(rows, est.strongest, p)}}
    return out


def skill_line(skill: float, ci, place: str) -> str:
    """The table's point and interval, with where that is when it is not a plain skill."""
    text = f"skill {skill:.2f} (95% interval {ci[0]:.2f}-{ci[1]:.2f})"
    return text if place.startswith("skill ") else f"{text}: {place}"


def beyond_line(b: dict) -> str:
    """One line for a table beyond the scale's strongest player."""
    said = "; ".join(f"{p}p {line}" for p, line in b["yardstick"].items())
    where = (f"; that player wins {said} of Forbidden Island's games" if said
             else " (its Forbidden Island rates: `island-escape scale`)")
    return (f"beyond the strongest player the lab measures, {b['player']}: the table won {b['wins']} of "
            f"{b['games']} games where it would win about {b['expected_wins']:.0f}{where}")


def level_line(lv: dict) -> str:
    """One level of `table_levels` as the commands print it."""
    head = f"{lv['players']}p {lv['level']:<7}"
    if lv["rules"] is None:
        nearest = "".join(f"; nearest: {n['change']} {100 * n['win_rate']:.0f}%" for n in lv["nearest"][:1])
        return f"{head} {lv['change']}{nearest}"
    across = lv["across_skill_ci"]
    lo, hi = across["skills"]
    a, b = across["win_rates"]
    verdict = "in the band" if across["inside_band"] else f"{100 * across['outside_by']:.0f} points out of the band"
    above = "; the expert's level: easier for this table" if lv.get("calibrated_above_expert") else ""
    return (f"{head} {lv['change']}  ({lv['policy']} {100 * lv['win_rate']:.0f}%; "
            f"skill {lo:g}: {100 * a:.0f}%, {hi:g}: {100 * b:.0f}%, {verdict}{above})")


def format_text(summaries: list[dict]) -> str:
    lines = []
    for s in summaries:
        lo, hi = s["ci95"]
        lines.append(f"{s['table']}: {counted(s['games'], 'game')}, {s['wins']} won, "
                     f"win rate {100 * s['win_rate']:.0f}% (95% interval {100 * lo:.0f}-{100 * hi:.0f}%)")
        width = max((len(st["setting"]) for st in s["settings"]), default=0)
        for st in s["settings"]:
            lo, hi = st["ci95"]
            lab = "" if st["lab_win_rate"] is None else f"  lab {100 * st['lab_win_rate']:.0f}%"
            lines.append(f"  {st['setting']:<{width}} {st['wins']:>3}/{st['games']:<3} won  "
                         f"{100 * st['win_rate']:>3.0f}% ({100 * lo:.0f}-{100 * hi:.0f}%){lab}")
        if s["skill"] is None:
            lines.append("  skill: not estimated (needs the lab's skilled policy)")
        else:
            lo, hi = s["skill_ci"]
            lines.append("  " + skill_line(s["skill"], (lo, hi), s["place"]))
            if s["beyond_strongest"]:
                lines.append("  " + beyond_line(s["beyond_strongest"]))
        for lv in s["levels"] or []:
            lines.append("  " + level_line(lv))
    return "\n".join(lines)


def json_objects(summaries: list[dict]) -> list[dict]:
    keys = ("table", "games", "wins", "win_rate", "ci95", "skill", "skill_ci", "place", "beyond_strongest", "levels",
            "settings")
    return [{k: s[k] for k in keys} for s in summaries]


__all__ = ["LoggedGame", "LabWinRate", "LogError", "Search", "TableSkill", "WinRate", "estimate_skill", "format_text",
           "json_objects", "read_logs", "summarize", "table_levels", "table_skill"]
