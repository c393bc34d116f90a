"""The balance explorer's numbers: the same games and the same summaries as `simulate`.

A `Run` is one setting played by one player on games 0 … n-1 of a seed, grown batch by batch
when more precision is asked for and kept in a `RunStore` (least recently used dropped first),
so that switching a card off and on again, or the reference every update compares with, costs
nothing the second time. Game g of a seed is dealt the same however the games are cut into
batches, so a run of n games is exactly `simulate --games n`'s, and `estimate` answers
`simulate --json`'s object for it (`experiments.runner.summary_object`).

A page update is a `Job`: the setting and its reference for every player count, a curve across
skill (or across a game's printed levels) and the strongest fair search beside it. Its first
stage plays a couple of thousand games a run, answered at once; later stages refine towards
the report's precision. Between batches a job asks whether a newer request has superseded it
and stops if so: a designer clicking through settings never waits for an answer they no longer
want, and a job never plays more than its plan.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import numpy as np

from experiments import MAX_SEED
from experiments.pages import PageError, clip, shorten
from experiments.runner import summary_object, wilson_interval
from policies.game import DEFAULT_GAME, GAMES, Game, counted, every_game, with_win_rates
from policies.game import game as game_named
from policies.outcomes import fair_share, furthest_from_fair

FIRST_GAMES = 2_000  # a run's first answer: a 95% interval of about +-2 points, in a few hundredths of a second
CURVE_FIRST = 1_000  # a curve point's first answer (+-3 points): five of them, twice, stay within the second
TARGET_GAMES = 10_000  # the report's precision (its printed-rules rows): about +-1 point
MAX_TARGET = 100_000  # the most a page update refines a run to
MAX_GAMES = 200_000  # the most games `GET /api/estimate` plays for one answer: two to five seconds
MAX_SEARCH_GAMES = 1_000  # the same for a search (seconds for Island Escape's, minutes for Forbidden Island's)
SEARCH_SHARE = 20  # a search plays a twentieth of the games of a fast player (as calibrate's SLOW_SHARE)
SEARCH_MARK_GAMES = 200  # the search beside the curve (the report's skill axis plays 60)
# A search's games take from milliseconds (Island Escape's lookahead) to a fifth of a second of a
# core (Forbidden Island's on its hardest cells): the first answer waits at most FIRST_SEARCH_SECONDS
# for a search, and the mark beside the curve is played for at most SEARCH_SECONDS; each shows its
# games and interval.
FIRST_SEARCH_SECONDS = 1.0
SEARCH_SECONDS = 10.0
SEARCH_BATCH = 10  # a search's games between two looks at whether a newer request came
BATCH = 2_000  # games between two looks at whether a newer request superseded the job
SKILLS = (0.0, 0.25, 0.5, 0.75, 1.0)  # the skill curve's points
STORE_GAMES = 4_000_000  # games the store keeps over all its runs (4 bytes a game)


def bands() -> dict[str, tuple[float, float]]:
    from experiments.calibrate import DEFAULT_BANDS

    return dict(DEFAULT_BANDS)


# --- runs ------------------------------------------------------------------------------------------


class Kernels:
    """Which players' kernels this process has loaded. With `compile_apart`, a player's first use
    compiles it in a process of its own (only loaded there when numba's cache holds it already):
    compiling holds the GIL for tens of seconds, which would freeze a server's every answer
    meanwhile, where loading the compiled kernel from the cache takes a moment."""

    _CHILD = ("import sys; from policies.game import game; g = game(sys.argv[1]); "
              "g.run_games(g.rules(), sys.argv[2], 1, 0, threads=1)")

    def __init__(self, compile_apart: bool = False):
        self.compile_apart = compile_apart
        self.loaded: set[tuple[str, str]] = set()
        self.lock = threading.Lock()
        self.pending: dict[tuple[str, str], threading.Lock] = {}

    def load(self, game: Game, player: str) -> None:
        """Compile or load the player's kernel in this process (one game)."""
        key = (game.name, player.partition("@")[0])
        game.run_games(game.rules(), key[1], 1, 0, threads=1)
        with self.lock:
            self.loaded.add(key)

    def ready(self, game: Game, player: str) -> None:
        key = (game.name, player.partition("@")[0])
        with self.lock:
            if key in self.loaded:
                return
            lock = self.pending.setdefault(key, threading.Lock())
        with lock:  # one compile a player; the others' answers go on meanwhile
            if key in self.loaded:
                return
            if self.compile_apart:
                import subprocess
                import sys

                subprocess.run([sys.executable, "-c", self._CHILD, *key], check=True, capture_output=True)
            self.load(game, player)


class Run:
    """One setting and player on games 0 … n-1 of a seed: per game the columns of its raw row that
    the game's tally and the page read (`Game.kept_fields`: how it ended, its turns, the treasures
    raised, a competitive game's winners and scores), grown on demand (`grow`), never played twice."""

    def __init__(self, game: Game, rules, player: str, seed: int, threads: int | None = None,
                 kernels: Kernels | None = None):
        self.game, self.rules, self.player, self.seed, self.threads = game, rules, player, seed, threads
        self.kernels = kernels
        self.search = player.partition("@")[0] in game.search_policies()
        self.columns = [game.result_fields.index(name) for name in game.kept_fields(rules)]
        self.rows = np.empty((0, len(self.columns)), dtype=np.int16)  # every kept value is small
        self.n = 0
        self.seconds = 0.0  # spent playing its games
        self.lock = threading.Lock()

    @property
    def cause(self) -> np.ndarray:
        return self.rows[:, 0]

    @property
    def turns(self) -> np.ndarray:
        return self.rows[:, 1]

    @property
    def treasures(self) -> np.ndarray:
        return self.rows[:, 2]

    def _reserve(self, size: int) -> None:
        if size > len(self.rows):
            new = np.empty((max(size, 2 * len(self.rows)), len(self.columns)), dtype=self.rows.dtype)
            new[:self.n] = self.rows[:self.n]
            self.rows = new

    def grow(self, target: int, stop: Callable[[], bool] = lambda: False, batch: int = BATCH,
             threads: int | None = None) -> bool:
        """Play games until the run holds `target`, `batch` games at a time on `threads` threads
        (the run's own by default); False if `stop()` said to stop before it got there (the
        games played so far are kept)."""
        with self.lock:
            if self.n < target and self.kernels is not None:
                self.kernels.ready(self.game, self.player)
            self._reserve(target)
            while self.n < target:
                if stop():
                    return False
                count = min(SEARCH_BATCH if self.search else batch, target - self.n)
                start = time.perf_counter()
                raw = self.game.run_games(self.rules, self.player, count, self.seed, first_game=self.n,
                                          threads=threads or self.threads)
                self.seconds += time.perf_counter() - start
                kept = raw[:, self.columns]
                if len(kept) and np.abs(kept).max() > np.iinfo(self.rows.dtype).max:
                    raise ValueError(f"{self.game.name}: a kept result beyond {np.iinfo(self.rows.dtype).max}")
                self.rows[self.n:self.n + count] = kept
                self.n += count
        return True

    def raw(self, n: int | None = None) -> np.ndarray:
        """The first `n` games' raw rows as the kernel gave them, in the columns kept (zero in the
        others, which neither the tally nor the page reads)."""
        n = self.n if n is None else min(n, self.n)
        out = np.zeros((n, len(self.game.result_fields)), dtype=np.int32)
        out[:, self.columns] = self.rows[:n]
        return out

    def summary(self, n: int | None = None, seconds: float | None = None) -> dict:
        """`simulate`'s summary of the first `n` games (all of them by default): the game's tally
        of them (a team's win rate and losses, or each seat's win share and the endings)."""
        tally = self.game.tally(self.rules, self.player)
        tally.add(self.raw(n))
        return tally.result(seconds)

    def estimate(self, n: int | None = None, seconds: float | None = None) -> dict:
        """`simulate --json`'s object for the first `n` games."""
        return summary_object(self.game, self.rules, self.player, self.seed, self.summary(n, seconds))

    def sides(self, n: int) -> tuple[list[str], np.ndarray]:
        """What each side got in each of the first `n` games (the game's tally: the team's win, or
        each seat's share of the win) and the sides' names."""
        return self.game.tally(self.rules, self.player).sides(self.raw(n))

    def won(self, n: int) -> np.ndarray:
        return self.cause[:n] == 0

    def near_misses(self) -> dict:
        """How close the lost games came: the share of losses with all four treasures raised (lost
        on the way home) and with three."""
        lost = self.cause[:self.n] != 0
        losses = int(lost.sum())
        raised = self.treasures[:self.n][lost]
        return {"losses": losses, "four": float((raised == 4).mean()) if losses else 0.0,
                "three": float((raised == 3).mean()) if losses else 0.0}

    def hazard(self, turns: int) -> dict:
        """Per turn 1 … `turns`: the games still running at its start and, by cause, the share of
        them lost in it."""
        t = np.arange(1, turns + 1)
        played = self.turns[:self.n].astype(np.int64)
        alive = np.bincount(np.minimum(played, turns + 1), minlength=turns + 2)[::-1].cumsum()[::-1][1:turns + 1]
        out = {}
        for code, cause in enumerate(self.game.causes):
            if code == 0:
                continue
            lost = np.bincount(played[self.cause[:self.n] == code], minlength=turns + 2)[1:turns + 1]
            out[cause] = np.divide(lost, alive, out=np.zeros(turns), where=alive > 0).round(5).tolist()
        return {"turns": t.tolist(), "alive": alive.tolist(), "lost": out}


class RunStore:
    """The runs of a server, by (game, rules, player, seed), the least recently used dropped once
    they hold more than `max_games` games together."""

    def __init__(self, max_games: int = STORE_GAMES, threads: int | None = None, kernels: Kernels | None = None):
        self.max_games, self.threads, self.kernels = max_games, threads, kernels or Kernels()
        self.runs: OrderedDict[tuple, Run] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, game: Game, rules, player: str, seed: int) -> Run:
        key = (game.name, json.dumps(rules.as_record(), sort_keys=True), player, seed)
        with self.lock:
            run = self.runs.get(key)
            if run is None:
                run = self.runs[key] = Run(game, rules, player, seed, self.threads, self.kernels)
            self.runs.move_to_end(key)
            total = sum(r.n for r in self.runs.values())
            while total > self.max_games and len(self.runs) > 1:
                _, dropped = self.runs.popitem(last=False)  # a job still holding it keeps its own reference
                total -= dropped.n
            return run


# --- reading a setting ------------------------------------------------------------------------------

def _option_names() -> dict[str, Any]:
    """Every game's rule options by name (RuleOption): a page's parameters are their names. An
    option that names a file is the command line's only: a page would read the server's files."""
    out: dict[str, Any] = {}
    for g in every_game():
        for option in g.options:
            if not option.file:
                out.setdefault(option.name, option)
    return out


def _field_names() -> dict[str, str]:
    """A rule's refusal names the rule by its flag, its Rules field or in words: each as the
    parameter's name, longest first (--gauge-length before --gauge), then the bare `rules.` off."""
    names = {}
    for g in every_game():
        for option in g.options:
            for said in (option.flag, f"rules.{option.field or option.name}", option.name.replace("_", " ")):
                if said != option.name:
                    names[said] = option.name
    return {**dict(sorted(names.items(), key=lambda kv: -len(kv[0]))), "rules.": ""}


RULE_OPTION_NAMES = _option_names()
# `GET /api/estimate`'s parameters: simulate's option names (a variant once for each variant on)
ESTIMATE_PARAMETERS = ("game", "players", *(n for n in RULE_OPTION_NAMES if n not in ("players", "variants")),
                       "variant", "policy", "skill", "games", "seed")
_FIELD_NAMES = _field_names()


def parameter_message(message: str, names=ESTIMATE_PARAMETERS) -> str:
    """A rule's refusal in the words of the parameters (`actions`, not `rules.actions_per_turn`),
    led by the parameter it is about."""
    for old, new in _FIELD_NAMES.items():
        message = message.replace(old, new)
    named = sorted((message.find(n), n) for n in names if n in message)
    if named and not message.startswith(named[0][1]):
        return f"{named[0][1]}: {message}"
    return message


def whole(name: str, value: object, low: int, high: int) -> int:
    """`value` as a whole number from low to high: a JSON number or the digits of a query."""
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value.strip()) <= 20:
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise PageError(f"{name}: must be a whole number from {low} to {high}, not {clip(value)}")
    return value


def any_whole(name: str, value: object) -> int:
    """`value` as a whole number whose range the rules check (they say which numbers they take)."""
    try:
        return whole(name, value, -(2**31), 2**31)
    except PageError:
        raise PageError(f"{name}: must be a whole number, not {clip(value)}") from None


def number(name: str, value: object, low: float, high: float) -> float:
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            raise PageError(f"{name}: must be a number from {low:g} to {high:g}, not {clip(value)}") from None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
            or not low <= value <= high:
        raise PageError(f"{name}: must be a number from {low:g} to {high:g}, not {clip(value)}")
    return float(value)


def game_of(value: object) -> Game:
    if value is None:
        return game_named(DEFAULT_GAME)
    if not isinstance(value, str) or value not in GAMES:
        raise PageError(f"game: must be one of {', '.join(GAMES)}, not {clip(value)}")
    return game_named(value)


def rule_options(game: Game, given: dict[str, Any], players: int | None) -> dict[str, Any]:
    """`rules_from_options`' keywords from given rule options (None: not given), checked: an
    option of another game, a number that is no number or an impossible setting is a PageError
    naming the parameter."""
    options: dict[str, Any] = {}
    kinds = {o.name: o.kind for o in game.options}
    for name, value in given.items():
        if value is None or value == [] or value == ():
            continue
        option = "variants" if name == "variant" else name
        if option not in RULE_OPTION_NAMES:
            raise PageError(f"{name}: not a rule option (the rule options: "
                            f"{', '.join(n for n in RULE_OPTION_NAMES if n != 'variants')}, variant)")
        if option not in game.rule_options:
            takes = ", ".join("variant" if o == "variants" else o for o in game.rule_options
                              if o != "players" and o in RULE_OPTION_NAMES)
            raise PageError(f"{name}: not an option of {game.title} (it takes players, {takes})")
        if kinds[option] == "number":
            value = any_whole(name, value)
        elif kinds[option] == "variants":  # which names are variants is the game's to say (its RuleError)
            value = tuple(value if isinstance(value, list | tuple) else [value])
            for v in value:
                if not isinstance(v, str):
                    raise PageError(f"variant: must be a variant's name, not {clip(v)}")
        elif not isinstance(value, str):
            raise PageError(f"{name}: must be text, not {clip(value)}")
        options[option] = value
    if players is not None:
        options["players"] = players
    return options


def rules_of(game: Game, options: dict[str, Any]):
    try:
        return game.rules_from_options(**options)
    except game.rule_error as exc:
        raise PageError(parameter_message(str(exc))) from None


def player_of(game: Game, policy: object, skill: object) -> str:
    if policy is not None and not isinstance(policy, str):
        raise PageError(f"policy: must be a policy's name, not {clip(policy)}")
    level = None if skill is None or skill == "" else number("skill", skill, 0.0, 1.0)
    try:
        return game.player(policy or None, level)
    except ValueError as exc:
        text = str(exc).replace("--skill: ", "")
        about = "skill" if level is not None and "skill" in text else "policy"
        raise PageError(f"{about}: {text}") from None


@dataclass(frozen=True)
class Query:
    """What `GET /api/estimate` asks: `simulate`'s setting, player, seed and number of games."""

    game: Game
    rules: Any
    player: str
    seed: int
    games: int


def parse_query(items: list[tuple[str, str]]) -> Query:
    """The query string of `GET /api/estimate` (simulate's option names), checked: an unknown or
    repeated parameter, a value that is not what it should be, an impossible setting or more
    games than the cap is a PageError (400) naming the parameter."""
    values: dict[str, Any] = {}
    for name, value in items:
        if name not in ESTIMATE_PARAMETERS:
            raise PageError(f"{shorten(name)}: unknown parameter (the endpoint takes {', '.join(ESTIMATE_PARAMETERS)})")
        if name == "variant":
            values.setdefault("variant", []).append(value)
        elif name in values:
            raise PageError(f"{name}: given twice")
        else:
            values[name] = value
    game = game_of(values.pop("game", None))
    seed = whole("seed", values.pop("seed", "0"), 0, MAX_SEED)
    player = player_of(game, values.pop("policy", None), values.pop("skill", None))
    cap = MAX_SEARCH_GAMES if player.partition("@")[0] in game.search_policies() else MAX_GAMES
    games = whole("games", values.pop("games", str(TARGET_GAMES)), 0, cap)
    players = values.pop("players", None)
    players = None if players is None else any_whole("players", players)
    rules = rules_of(game, rule_options(game, values, players))
    return Query(game, rules, player, seed, games)


def estimate(store: RunStore, query: Query) -> dict:
    """`simulate --json`'s object for the query: its games played now, or kept from before.
    `games_per_second` is the rate of the games this answer played (None when none were)."""
    run = store.get(query.game, query.rules, query.player, query.seed)
    before, seconds = run.seconds, None
    played = max(0, query.games - run.n)
    run.grow(query.games)
    if played:
        seconds = (run.seconds - before) * query.games / played  # the rate of the games played now
    return run.estimate(query.games, seconds)


# --- a page update ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One side of the comparison: rule options (without players) and a player."""

    options: tuple[tuple[str, Any], ...]
    player: str

    def rules(self, game: Game, players: int, **more):
        return rules_of(game, {**dict(self.options), **more, "players": players})


@dataclass(frozen=True)
class Spec:
    """A page update: the setting and its reference for each player count, a curve at one count."""

    game: Game
    counts: tuple[int, ...]
    setting: Side
    reference: Side
    reference_label: str
    curve_players: int
    seed: int
    target: int


def _side(game: Game, data: object, where: str) -> Side:
    if not isinstance(data, dict):
        raise PageError(f"{where}: must be an object of rules, policy and skill")
    unknown = sorted(set(data) - {"rules", "policy", "skill"})
    if unknown:
        raise PageError(f"{where}.{shorten(str(unknown[0]))}: unknown key (a side has rules, policy, skill)")
    given = data.get("rules") or {}
    if not isinstance(given, dict):
        raise PageError(f"{where}.rules: must be an object of rule options")
    if "players" in given:
        raise PageError(f"{where}.rules.players: the player counts are the update's `players`")
    options = rule_options(game, given, None)
    player = player_of(game, data.get("policy"), data.get("skill"))
    return Side(tuple(sorted(options.items())), player)


def parse_spec(data: dict) -> Spec:
    """A page update's JSON (see server.py), checked; a PageError names what is wrong."""
    known = {"request", "game", "players", "setting", "reference", "curve_players", "seed", "games"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise PageError(f"{shorten(str(unknown[0]))}: unknown key (an update has {', '.join(sorted(known))})")
    game = game_of(data.get("game"))
    counts = data.get("players", list(game.players))
    if not isinstance(counts, list) or not counts:
        raise PageError("players: must be a list of player counts, at least one")
    counts = tuple(sorted({whole("players", n, game.players[0], game.players[-1]) for n in counts}))
    setting = _side(game, data.get("setting", {}), "setting")
    reference = data.get("reference")
    label = "the rulebook"
    if reference is None:
        reference_side = Side((), setting.player)
    else:
        reference_side = _side(game, reference, "reference")
        label = "the pinned setting"
    curve = whole("curve_players", data.get("curve_players", counts[0]), game.players[0], game.players[-1])
    seed = whole("seed", data.get("seed", 0), 0, MAX_SEED)
    target = whole("games", data.get("games", TARGET_GAMES), FIRST_GAMES, MAX_TARGET)
    for n in sorted({*counts, curve}):
        setting.rules(game, n)
        reference_side.rules(game, n)
    return Spec(game, counts, setting, reference_side, label, curve, seed, target)


@dataclass
class Task:
    """A run and how many games a stage wants of it."""

    run: Run
    games: int
    role: str  # what it is on the page: "count", "curve" or "search"
    seconds: float | None = None  # at most this long (from the stage's start), then the stage goes on


@dataclass
class Plan:
    """The runs a page update reads and the games each stage plays of them."""

    spec: Spec
    counts: dict[int, tuple[Run, Run]]  # players -> (setting, reference)
    curve: list[tuple[Any, str, Run, Run]]  # (x, label, setting, reference)
    search: tuple[str, Run, Run] | None
    stages: list[list[Task]] = field(default_factory=list)

    def runs(self) -> dict[int, tuple[Run, int]]:
        """Every distinct run and the most games any stage wants of it."""
        out: dict[int, tuple[Run, int]] = {}
        for stage in self.stages:
            for task in stage:
                old = out.get(id(task.run), (task.run, 0))[1]
                out[id(task.run)] = (task.run, max(old, task.games))
        return out

    def progress(self) -> dict:
        """Games played of the games planned; `fraction` counts a search's game as SEARCH_SHARE
        games (it takes about as long), so that the bar moves with the time left."""
        runs = self.runs().values()
        planned = sum(games for _, games in runs)
        done = sum(min(run.n, games) for run, games in runs)
        weight = {id(run): SEARCH_SHARE if run.search else 1 for run, _ in runs}
        work = sum(weight[id(run)] * games for run, games in runs)
        worked = sum(weight[id(run)] * min(run.n, games) for run, games in runs)
        return {"games": done, "planned": planned, "fraction": worked / work if work else 1.0}


def search_judge(game: Game, player: str) -> bool:
    return player.partition("@")[0] in game.search_policies()


def plan(store: RunStore, spec: Spec) -> Plan:
    """The runs of an update and its stages: first a couple of thousand games of every run (the
    first answer), then the player counts refined towards `spec.target` a batch at a time, all
    of them in step, then the curve, then the search beside it."""
    game, seed = spec.game, spec.seed

    def run(side: Side, players: int, player: str | None = None, **more) -> Run:
        return store.get(game, side.rules(game, players, **more), player or side.player, seed)

    def share(player: str, games: int) -> int:
        return max(1, games // SEARCH_SHARE) if search_judge(game, player) else games

    counts = {n: (run(spec.setting, n), run(spec.reference, n)) for n in spec.counts}
    curve = []
    if game.skill_policy:
        for skill in SKILLS:
            player = game.player(game.skill_policy, skill)
            curve.append((skill, f"skill {skill:g}", run(spec.setting, spec.curve_players, player),
                          run(spec.reference, spec.curve_players, player)))
    elif game.levels:
        for name, level in game.levels.items():
            curve.append((name, name, run(spec.setting, spec.curve_players, None, **level),
                          run(spec.reference, spec.curve_players, None, **level)))
    fair_searches = sorted(game.search_policies() - game.unfair_policies())
    search = None
    if fair_searches and curve:  # the search is a mark beside the curve
        name = fair_searches[0]
        search = (name, run(spec.setting, spec.curve_players, name), run(spec.reference, spec.curve_players, name))

    p = Plan(spec, counts, curve, search)

    def budget(r: Run) -> float | None:
        return FIRST_SEARCH_SECONDS if r.search else None

    first = [Task(r, share(r.player, FIRST_GAMES), "count", budget(r)) for pair in counts.values() for r in pair]
    first += [Task(r, share(r.player, CURVE_FIRST), "curve", budget(r)) for _, _, *pair in curve for r in pair]
    p.stages.append(first)
    for games in range(FIRST_GAMES + BATCH, spec.target + BATCH, BATCH):  # every count a batch further, in step
        p.stages.append([Task(r, share(r.player, min(games, spec.target)), "count") for pair in counts.values()
                         for r in pair])
    curve_games = max(CURVE_FIRST, spec.target // 2)
    p.stages.append([Task(r, share(r.player, curve_games), "curve") for _, _, *pair in curve for r in pair])
    if search:
        p.stages.append([Task(r, SEARCH_MARK_GAMES, "search", SEARCH_SECONDS) for r in search[1:]])
    return p


class Job:
    """A page update being played: `plan`'s stages in order, stopping between batches as soon as
    `superseded()` says a newer request has come. `first` is set when the first answer is ready
    (or the job ends without one)."""

    def __init__(self, number: int, request: int, plan: Plan, superseded: Callable[[], bool]):
        self.number, self.request, self.plan, self.superseded = number, request, plan, superseded
        self.state = "waiting"  # then "first" (playing its first answer), "refining", "done", "superseded", "failed"
        self.error: str | None = None
        self.first = threading.Event()
        self.started = self.ended = None

    def run(self, threads: int | None = None) -> None:
        """Play the stages. The runs of a stage share the cores a run each, one thread apiece:
        many small runs keep every core busy to the end, where one run cut in chunks would leave
        a core waiting for the other's last chunk every batch."""
        from concurrent.futures import ThreadPoolExecutor

        from policies.batches import default_threads

        self.started = time.perf_counter()
        threads = threads or default_threads()
        try:
            with ThreadPoolExecutor(threads, thread_name_prefix="explore-run") as pool:
                for k, stage in enumerate(self.plan.stages):
                    self.state = "first" if k == 0 else "refining"
                    wanted: dict[int, Task] = {}  # a run named twice (setting and reference alike) is one task
                    for task in stage:
                        if task.games > wanted.get(id(task.run), task).games or id(task.run) not in wanted:
                            wanted[id(task.run)] = task
                    each = max(1, threads // len(wanted)) if wanted else 1  # a lone run takes every core
                    began = time.perf_counter()

                    def grow(task: Task, each: int = each, began: float = began) -> None:
                        def stop() -> bool:
                            late = task.seconds is not None and time.perf_counter() - began > task.seconds
                            return late or self.superseded()

                        task.run.grow(task.games, stop, threads=each)

                    list(pool.map(grow, wanted.values()))
                    if self.superseded():
                        self.state = "superseded"
                        return
                    if k == 0:
                        self.state = "refining" if len(self.plan.stages) > 1 else self.state
                        self.first.set()
            self.state = "done"
        except Exception as exc:  # a kernel that cannot play: the page says so; the server's log keeps why
            self.state, self.error = "failed", f"{type(exc).__name__}: {exc}"
            raise
        finally:
            self.ended = time.perf_counter()
            self.first.set()

    @property
    def over(self) -> bool:
        return self.state in ("done", "superseded", "failed")


# --- the answer --------------------------------------------------------------------------------------


def _rate(run: Run) -> dict:
    wins = int((run.cause[:run.n] == 0).sum())
    lo, hi = wilson_interval(wins, run.n)
    return {"games": run.n, "wins": wins, "win_rate": wins / run.n if run.n else 0.0, "ci95": [lo, hi]}


def band_of(rate: float, ci: list[float]) -> dict:
    """Where a win rate falls: the band it lies in (if any), whether its 95% interval lies inside
    that band too, and the report's words for it."""
    from experiments.report import verdict

    level = next((name for name, (lo, hi) in bands().items() if lo <= rate <= hi), None)
    inside = level is not None and bands()[level][0] <= ci[0] and ci[1] <= bands()[level][1]
    return {"level": level, "inside": inside, "verdict": verdict(rate, bands())}


def differences(a: Run, b: Run) -> list[dict]:
    """The setting minus the reference on the games both have played, side by side as `compare`
    gives it (a cooperative game's team: its win rate; a competitive game's seats: each one's
    share of the win, a seat against the same seat), each with its paired 95% interval
    (experiments.sweep.paired_difference)."""
    from experiments.sweep import paired_difference

    n = min(a.n, b.n)
    if n < 2:
        return []
    names_a, got_a = a.sides(n)
    names_b, got_b = b.sides(n)
    if names_a != names_b:  # another number of seats: no seat to pair with
        return []
    out = []
    for k, name in enumerate(names_a):
        d = paired_difference(got_a[:, k], got_b[:, k])
        out.append({"side": name, "games": n, "a_minus_b": d["difference"], "ci95": list(d["ci95"]),
                    "unpaired_ci95": list(d["unpaired_ci95"]),
                    "games_ratio": d["games_ratio"] if math.isfinite(d["games_ratio"]) else None})
    return out


def has_win_rates(game: Game) -> bool:
    """Whether the game's seats win or lose together (one win rate a game) or each their own."""
    return game in with_win_rates()


FIGURES_OF = {True: ("rates", "curve", "causes", "hazard"), False: ("rates", "causes")}  # by has_win_rates


def estimate_url(run: Run) -> str:
    """The `GET /api/estimate` query that answers this run's number."""
    game = run.game
    params = {"game": game.name} if game.name != DEFAULT_GAME else {}
    params.update(game.options_of(run.rules))
    params.update({"policy": run.player, "games": run.n, "seed": run.seed})
    return "/api/estimate?" + urlencode(params)


def answer(job: Job) -> dict:
    """What the page shows of a job now: every number from the games played so far."""
    p, spec = job.plan, job.plan.spec
    game = spec.game
    state = job.state  # read once: the job's thread may finish it while this answer is written
    progress = p.progress()
    if state == "done":  # a search's time ran out before its games: what it played is the plan
        progress = {**progress, "planned": progress["games"], "fraction": 1.0}
    rows = []
    team = has_win_rates(game)
    longest = max([int(r.turns[:r.n].max(initial=0)) for pair in p.counts.values() for r in pair] + [1])
    for n, (a, b) in p.counts.items():
        mine, theirs = a.estimate(), b.estimate()
        sides = differences(a, b)
        row = {"players": n, "setting": mine, "reference": theirs, "differences": sides,
               "difference": {k: v for k, v in sides[0].items() if k != "side"} if len(sides) == 1 else None,
               "estimate_url": estimate_url(a), "reference_url": estimate_url(b)}
        if team:
            row |= {"band": band_of(mine["win_rate"], mine["ci95"]) if a.n else None,
                    "near_misses": {"setting": a.near_misses(), "reference": b.near_misses()},
                    "hazard": {"setting": a.hazard(longest), "reference": b.hazard(longest)}}
        else:
            row["furthest_from_fair"] = {"setting": furthest_from_fair(mine), "reference": furthest_from_fair(theirs)}
            row["fair_share"] = {"setting": fair_share(mine), "reference": fair_share(theirs)}
        rows.append(row)
    curve = None
    if p.curve:
        curve = {"axis": "skill" if game.skill_policy else "level", "players": spec.curve_players,
                 "points": [{"x": x, "label": label, "setting": _rate(a), "reference": _rate(b),
                             "player": a.player} for x, label, a, b in p.curve],
                 "search": None, "marked": _marked(spec)}
        if p.search:
            name, a, b = p.search
            curve["search"] = {"player": name, "setting": _rate(a), "reference": _rate(b)}
    return {
        "request": job.request, "job": job.number, "state": state, "error": job.error,
        "progress": progress, "game": game.name, "title": game.title, "seed": spec.seed,
        "target": spec.target, "bands": bands(),
        "setting": {"player": spec.setting.player, "line": game.setting_line(spec.setting.rules(game, spec.counts[0])),
                    "options": dict(spec.setting.options)},
        "reference": {"player": spec.reference.player, "label": spec.reference_label,
                      "line": game.setting_line(spec.reference.rules(game, spec.counts[0])),
                      "options": dict(spec.reference.options)},
        "measure": "win rate" if team else "seat shares", "figures": list(FIGURES_OF[team]),
        "causes": list(game.causes[1:]) if team else [], "endings": [] if team else list(game.causes),
        "counts": rows, "curve": curve, "commands": commands(spec),
        "seconds": (job.ended or time.perf_counter()) - job.started if job.started else 0.0,
    }


def _marked(spec: Spec):
    """The x of the setting's own player on the curve: its skill, or its level."""
    game = spec.game
    name, _, arg = spec.setting.player.partition("@")
    if game.skill_policy:
        return float(arg) if name == game.skill_policy and arg else None
    rules = spec.setting.rules(game, spec.curve_players)  # the level that leaves the setting as it is
    return next((level for level, keys in (game.levels or {}).items()
                 if spec.setting.rules(game, spec.curve_players, **keys) == rules), None)


# --- the setting as commands ---------------------------------------------------------------------------


def _toml_value(value) -> str:
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"{value:g}" if isinstance(value, float) else str(value)
    return json.dumps(str(value), ensure_ascii=False)


def sweep_toml(spec: Spec) -> str:
    """The setting over the update's player counts as a sweep file (`island-escape sweep FILE`,
    experiments/configs/)."""
    game = spec.game
    rules = spec.setting.rules(game, spec.counts[0])
    setting = game.setting(rules)
    name, _, skill = spec.setting.player.partition("@")
    lines = ["# The explorer's setting as a sweep: island-escape sweep explore.toml --out out/explore",
             'name = "explore"']
    if game.name != DEFAULT_GAME:
        lines.append(f"game = {_toml_value(game.name)}")
    lines += [f"games = {spec.target}", f"seed = {spec.seed}", "", "[grid]",
              f"players = {_toml_value(list(spec.counts))}"]
    for key in game.grid_keys:
        if key != "players":
            lines.append(f"{key} = {_toml_value(setting[key])}")
    lines.append(f"policy = {_toml_value(name)}")
    if skill:
        lines.append(f"skill = {_toml_value(float(skill))}")
    return "\n".join(lines) + "\n"


def _flags(game: Game, rules) -> list[str]:
    import shlex

    flag = {o.name: o.flag for o in game.options}
    flags = ["--game", game.name] if game.name != DEFAULT_GAME else []
    for option, value in game.options_of(rules).items():
        flags += [flag[option], shlex.quote(str(value))]
    return flags


def simulate_line(spec: Spec, side: Side, players: int) -> str:
    game = spec.game
    return " ".join(["island-escape", "simulate", *_flags(game, side.rules(game, players)), "--policy", side.player,
                     "--games", str(spec.target), "--seed", str(spec.seed)])


def compare_line(spec: Spec, players: int) -> str | None:
    """`island-escape compare` of the setting against its reference at one player count, when
    the two share a player (compare plays one); None where they do not. Each side is written as
    simulate's options, which compare's rules text takes, a gauge's cards joined by commas."""
    game = spec.game
    if spec.setting.player != spec.reference.player:
        return None
    flag = {o.name: o.flag for o in game.options}

    def words(side: Side) -> str:
        options = game.options_of(side.rules(game, players))
        return " ".join(f"{flag[k]} {str(v).replace(' ', ',')}" for k, v in options.items())

    which = f"--game {game.name} " if game.name != DEFAULT_GAME else ""
    return (f'island-escape compare {which}--a "{words(spec.setting)}" --b "{words(spec.reference)}" '
            f"--policy {spec.setting.player} --games {spec.target} --seed {spec.seed}")


def commands(spec: Spec) -> dict:
    simulate = [simulate_line(spec, spec.setting, n) for n in spec.counts]
    compare = [line for line in (compare_line(spec, n) for n in spec.counts) if line]
    if not compare:  # no compare command for this game or these players: the same games, side by side
        compare = ["# compare plays both sides with one player: here the two sides' simulate commands, "
                   "the same games each"]
        compare += [f"{simulate_line(spec, spec.setting, n)}\n{simulate_line(spec, spec.reference, n)}"
                    for n in spec.counts]
    return {"sweep_toml": sweep_toml(spec), "simulate": "\n".join(simulate), "compare": "\n".join(compare),
            "summary": f"{spec.game.title}: {counted(len(spec.counts), 'player count')}, seed {spec.seed}"}
