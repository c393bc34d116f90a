"""Difficulty calibration: which settings of a game make Easy, Normal, Hard.

What a setting may change, and how its changes from the printed rules are counted, is the game's
own: its design space (`Game.design`, e.g. policies/island_escape/levels.py), which gives the
candidate settings with a number of changes, the knobs that turn them and the player counts that
play alike. A game without one has printed levels instead (`printed_level_fits`).

The search deepens by change: all settings with 0 changes are screened with a few games, then
those with 1, 2, … For each player count and level, the candidates whose screen falls in the
band are confirmed with more games in order of fewest changes (then closest to the band's
centre); the first whose 95% interval lies inside the band is the recommendation. Every cell
plays the same games of one seed, so settings are compared on the same islands.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from experiments.runner import wilson_interval
from policies.game import counted, game_of_rules
from policies.game import game as game_named

DEFAULT_BANDS = {"easy": (0.70, 0.80), "normal": (0.45, 0.55), "hard": (0.20, 0.30)}
LEVELS = ("easy", "normal", "hard")
SLOW_SHARE = 20  # a slow (searching) policy plays 1/20 of the games of the others, at least 100


def design_of(game=None):
    """The design space of `game` (a Game, a name or None for the lab's own game); the game's
    refusal when its rules are printed and not for a designer to vary."""
    game = game_named(game) if game is None or isinstance(game, str) else game
    if game.design is None:
        raise game.refuse("rule changes to calibrate (its levels are printed)")
    return game, game.design


def parse_knobs(text: str | None, game=None) -> tuple[str, ...]:
    """'gauge,cards' -> ('gauge', 'cards') of the game's knobs; ValueError naming an unknown knob."""
    return design_of(game)[1].parse_knobs(text)


@dataclass
class Measured:
    wins: int
    games: int

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def ci(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)


    def games_to_fit(self, band: tuple[float, float]) -> int | None:
        """About how many games would make the 95% interval fit inside `band`, if the rate stays
        where it is; None when the rate itself lies outside the band (more games cannot help)."""
        lo, hi = band
        p = self.rate
        room = min(p - lo, hi - p)
        if room <= 0:
            return None
        return max(self.games, math.ceil(1.96 ** 2 * p * (1 - p) / room ** 2))


_measured: dict[tuple, Measured] = {}  # (rules, policy, games, seed) -> result: a game is fixed by those
_kept: dict[str, Any] = {"path": None, "wins": {}}  # measures kept on disk (`keep_measures`)


def games_judged(policy: str) -> int:
    """How many games `policy` has played for calibrations in this process (each measured once)."""
    return sum(key[2] for key in _measured if key[1] == policy)


def keep_measures(path) -> int:
    """From now on keep every measure in `path` (JSON lines) and take again those already there that
    the same code measured (`sim.source_digest`): a study interrupted resumes where it stopped.
    None stops keeping. Returns how many measures were found."""
    from sim import source_digest

    _kept["path"], _kept["wins"] = None, {}
    if path is None:
        return 0
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    digest = source_digest()
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                item = json.loads(line)
                if item["code"] == digest:
                    _kept["wins"][item["key"]] = int(item["wins"])
            except (ValueError, KeyError, TypeError):
                continue  # a line cut short by an interruption
    _kept["path"], _kept["code"] = path, digest
    return len(_kept["wins"])


def _disk_key(rules, policy: str, games: int, seed: int) -> str:
    return json.dumps([game_of_rules(rules).name, rules.as_record(), policy, games, seed], sort_keys=True)


def measure(rules, policy: str, games: int, seed: int, threads: int | None = None) -> Measured:
    """The wins of `games` games of `rules` (any game's) by `policy`, each setting measured once
    (and kept on disk while `keep_measures` says where)."""
    key = (rules, policy, games, seed)
    if key not in _measured:
        disk = _disk_key(rules, policy, games, seed) if _kept["path"] is not None else None
        if disk is not None and disk in _kept["wins"]:
            _measured[key] = Measured(_kept["wins"][disk], games)
            return _measured[key]
        raw = game_of_rules(rules).run_games(rules, policy, games, seed, threads=threads)
        _measured[key] = Measured(int((raw[:, 0] == 0).sum()), games)
        if disk is not None:
            with _kept["path"].open("a") as out:
                out.write(json.dumps({"code": _kept["code"], "key": disk, "wins": _measured[key].wins}) + "\n")
            _kept["wins"][disk] = _measured[key].wins
    return _measured[key]


@dataclass
class Recommendation:
    players: int
    level: str
    band: tuple[float, float]
    policy: str
    setting: Any  # the game's design space's Setting (None: a printed level)
    result: Measured
    others: dict[str, Measured] = field(default_factory=dict)
    validation: Measured | None = None
    validation_seed: int | None = None

    def to_json(self) -> dict:
        rules = self.setting.rules(self.players).as_record()
        d = {"players": self.players, "level": self.level, "band": list(self.band), "policy": self.policy,
             "rules": rules, "win_rate": self.result.rate, "ci95": list(self.result.ci),
             "games": self.result.games, "changes": self.setting.changes, "change": self.setting.describe(),
             "other_policies": {name: {"win_rate": m.rate, "ci95": list(m.ci), "games": m.games}
                                for name, m in self.others.items()}}
        if self.validation is not None:
            lo, hi = self.validation.ci
            d["validation"] = {"seed": self.validation_seed, "win_rate": self.validation.rate,
                               "ci95": [lo, hi], "games": self.validation.games,
                               "inside_band": self.band[0] <= self.validation.rate <= self.band[1]}
        return d


@dataclass
class Near:
    """A candidate that came closest to a band no setting was confirmed in."""

    setting: Any  # the game's design space's Setting (None: a printed level)
    result: Measured
    band: tuple[float, float]

    @property
    def distance(self) -> float:
        """Points (as a fraction) between the rate and the band; 0 inside it."""
        return max(self.band[0] - self.result.rate, self.result.rate - self.band[1], 0.0)

    def verdict(self) -> str:
        n = self.result.games_to_fit(self.band)
        if n is None and self.distance == 0:
            return "on the band's edge: more games cannot confirm it inside"
        if n is None:
            return f"{100 * self.distance:.1f} points outside the band: more games would not bring it in"
        return (f"rate inside the band, interval not yet: about {n:,} games could confirm it "
                "(if the rate holds)")

    def to_json(self) -> dict:
        return {"change": self.setting.describe(), "win_rate": self.result.rate, "ci95": list(self.result.ci),
                "games": self.result.games, "games_to_confirm": self.result.games_to_fit(self.band),
                "verdict": self.verdict()}


@dataclass
class Calibration:
    recommendations: list[Recommendation]
    shared: dict[str, Any]  # level -> one setting that serves every player count
    missing: list[tuple[int, str]]  # (players, level) without a recommendation
    screened: int  # settings screened per player group
    policy: str
    near: dict[tuple[int, str], list[Near]] = field(default_factory=dict)  # nearest, for the missing ones
    knobs: tuple[str, ...] = ()


def calibrate(players: list[int] = (1, 2, 3, 4), bands: dict[str, tuple[float, float]] | None = None,
              policy: str = "expert", seed: int = 2026, screen_games: int = 1000,
              confirm_games: int = 8000, max_changes: int = 3, other_games: int = 4000,
              validate_games: int = 8000, others: list[str] | None = None, threads: int | None = None,
              echo: Callable[[str], None] = lambda s: None, knobs: tuple[str, ...] | None = None,
              game=None) -> Calibration:
    game, space = design_of(game)
    knobs = tuple(knobs or space.KNOBS)
    bands = dict(bands or DEFAULT_BANDS)

    def fits(s, band: tuple[float, float]) -> bool:  # a variant never against its label
        return s.allowed(band, DEFAULT_BANDS["normal"])

    groups = space.player_groups(list(players))
    sims = sorted(set(groups.values()))
    screen: dict[tuple[int, Any], Measured] = {}
    confirmed: dict[tuple[int, Any], Measured] = {}
    chosen: dict[tuple[int, str], Any] = {}
    screened = 0

    def confirm(sim: int, s) -> Measured:
        if (sim, s) not in confirmed:
            confirmed[(sim, s)] = measure(s.rules(sim), policy, confirm_games, seed, threads)
        return confirmed[(sim, s)]

    for changes in range(max_changes + 1):
        batch = space.candidate_settings(changes, knobs)
        screened += len(batch)
        echo(f"  {counted(changes, 'change')}: screening {counted(len(batch), 'setting')} x "
             f"{counted(len(sims), 'player group')}")
        for sim in sims:
            for s in batch:
                screen[(sim, s)] = measure(s.rules(sim), policy, screen_games, seed, threads)
        for sim in sims:
            for level, (lo, hi) in bands.items():
                if (sim, level) in chosen:
                    continue
                centre = (lo + hi) / 2
                pool = [(s.changes, abs(m.rate - centre), i, s)
                        for i, ((g, s), m) in enumerate(screen.items())
                        if g == sim and m.ci[1] >= lo and m.ci[0] <= hi and fits(s, (lo, hi))]
                for _, _, _, s in sorted(pool)[:6]:
                    m = confirm(sim, s)
                    lo_ci, hi_ci = m.ci
                    if lo <= lo_ci and hi_ci <= hi:
                        chosen[(sim, level)] = s
                        break
        if all((sim, level) in chosen for sim in sims for level in bands):
            break

    # One setting for every player count? Among the settings confirmed or screened in band for
    # all groups, the one with fewest changes, confirmed for each group.
    shared: dict[str, Any] = {}
    for level, (lo, hi) in bands.items():
        shared[level] = None
        if len(sims) < 2:
            continue
        settings = {s for (_, s) in screen}
        ok = [s for s in settings if fits(s, (lo, hi))
              and all((sim, s) in screen and screen[(sim, s)].ci[1] >= lo and screen[(sim, s)].ci[0] <= hi
                     for sim in sims)]
        centre = (lo + hi) / 2
        def spread(s, centre: float = centre) -> tuple[int, float]:
            return (s.changes, max(abs(screen[(g, s)].rate - centre) for g in sims))

        for s in sorted(ok, key=spread)[:4]:
            if all(lo <= confirm(sim, s).ci[0] and confirm(sim, s).ci[1] <= hi for sim in sims):
                shared[level] = s
                break
        if shared[level] is not None:
            for sim in sims:
                chosen[(sim, level)] = shared[level]

    # Where nothing was confirmed: the nearest candidates, with their intervals, and whether more
    # games could confirm them (a small budget leaves intervals wider than the band).
    near: dict[tuple[int, str], list[Near]] = {}
    for sim in sims:
        for level, band in bands.items():
            if (sim, level) in chosen:
                continue
            pool = [Near(s, confirmed.get((sim, s), m), band) for (g, s), m in screen.items()
                    if g == sim and fits(s, band)]
            near[(sim, level)] = sorted(pool, key=lambda n: (n.distance, n.setting.changes,
                                                            -n.result.games))[:3]

    # every fair policy but the skill axis (at its default it is the expert; the report plays it
    # at every skill in its own section)
    fair = [p for p in (others if others is not None else game.policy_names())
            if p not in game.unfair_policies() and p != "idle" and not game.registry.takes_skill(p)]
    recs, missing = [], []
    for p in players:
        sim = groups[p]
        for level, band in bands.items():
            s = chosen.get((sim, level))
            if s is None:
                missing.append((p, level))
                continue
            rec = Recommendation(p, level, band, policy, s, confirm(sim, s))
            for other in fair:
                if other != policy:
                    n = max(100, other_games // SLOW_SHARE) if other in game.search_policies() else other_games
                    rec.others[other] = measure(s.rules(sim), other, n, seed, threads)
            if validate_games:
                rec.validation_seed = seed + 1000
                rec.validation = measure(s.rules(sim), policy, validate_games, seed + 1000, threads)
            recs.append(rec)
    near_by_players = {(p, level): near[(groups[p], level)] for p, level in missing}
    return Calibration(recs, shared, missing, screened, policy, near_by_players, tuple(knobs))


# --- the rulebook-ready ladder ---------------------------------------------------------------------
#
# The fewest-changes search above may pick a different kind of change for every player count. A
# rulebook wants one rule per level, the same at every table, with the player count as a small
# adjustment (the way Forbidden Island's levels are marks on its water meter). The ladder gives
# each level one of the design space's level rules for every player count and lets the player
# count choose only among the space's adjustments (Island Escape's: its gauge). Where no
# adjustment brings a player count into the band, the ladder says how far it stays.


@dataclass
class Rung:
    """One player count on one level of the ladder: its gauge and the confirmed win rate."""

    players: int
    gauge: tuple[str, ...]
    result: Measured
    band: tuple[float, float]

    @property
    def inside(self) -> bool:
        lo, hi = self.result.ci
        return self.band[0] <= lo and hi <= self.band[1]

    @property
    def distance(self) -> float:
        return max(self.band[0] - self.result.rate, self.result.rate - self.band[1], 0.0)

    def status(self) -> str:
        if self.inside:
            return "in band"
        if self.distance == 0:
            return "rate in band, interval overlaps its edge"
        side = "below" if self.result.rate < self.band[0] else "above"
        return f"{100 * self.distance:.1f} points {side} the band"


@dataclass
class LadderLevel:
    level: str
    band: tuple[float, float]
    rule: Any  # the design space's LevelRule
    rungs: dict[int, Rung]  # players -> rung


@dataclass
class Ladder:
    levels: list[LadderLevel]
    policy: str
    knobs: tuple[str, ...]
    design: Any = None  # the game's design space, which words the adjustments

    def to_json(self) -> list[dict]:
        out = []
        for lv in self.levels:
            for p, r in lv.rungs.items():
                s = lv.rule.setting(r.gauge)
                out.append({"level": lv.level, "players": p, "band": list(lv.band), "policy": self.policy,
                            "level_rule": lv.rule.describe(),
                            "gauge_change": self.design.gauge_change_text(r.gauge), "rules": s.rules(p).as_record(),
                            "win_rate": r.result.rate,
                            "ci95": list(r.result.ci), "games": r.result.games, "inside_band": r.inside,
                            "status": r.status()})
        return out


def ladder(players: list[int] = (1, 2, 3, 4), bands: dict[str, tuple[float, float]] | None = None,
           policy: str = "expert", seed: int = 2026, screen_games: int = 1000, confirm_games: int = 8000,
           knobs: tuple[str, ...] | None = None, threads: int | None = None,
           echo: Callable[[str], None] = lambda s: None, game=None) -> Ladder:
    """One rule per level for every player count, the player count adjusting only the gauge.

    For each level, every level rule the knobs allow is screened with every gauge adjustment for
    every player group; the rule that brings the most player counts into the band (then the least
    distance outside it, then the fewest changes) wins. Each player group's adjustment is the one
    with the fewest gauge changes whose screen lies in the band (else the closest); it is then
    confirmed with `confirm_games`, trying the next candidates while the interval does not fit.
    """
    game, space = design_of(game)
    knobs = tuple(knobs or space.KNOBS)
    bands = dict(bands or DEFAULT_BANDS)
    groups = space.player_groups(list(players))
    sims = sorted(set(groups.values()))
    gauges = space.adjustments(knobs)
    levels = []
    for level, band in bands.items():
        lo, hi = band
        centre = (lo + hi) / 2
        rules = space.level_rules(knobs, band, DEFAULT_BANDS["normal"])
        echo(f"  ladder, {level}: {counted(len(rules), 'level rule')} x {counted(len(gauges), 'gauge')} x "
             f"{counted(len(sims), 'player group')}")
        best = None
        for rule in rules:
            ranked, out, far = {}, 0, 0.0
            for sim in sims:
                m = {g: measure(rule.setting(g).rules(sim), policy, screen_games, seed, threads) for g in gauges}

                def key(g, m=m, lo=lo, hi=hi, centre=centre):
                    d = max(lo - m[g].rate, m[g].rate - hi, 0.0)
                    return (d > 0, space.adjustment_changes(g) if d == 0 else d, abs(m[g].rate - centre))

                ranked[sim] = sorted(gauges, key=key)
                top = m[ranked[sim][0]].rate
                d = max(lo - top, top - hi, 0.0)
                out += d > 0
                far += d
            score = (out, round(far, 3), rule.changes,
                     sum(space.adjustment_changes(r[0]) for r in ranked.values()))
            if best is None or score < best[0]:
                best = (score, rule, ranked)
        _, rule, ranked = best
        rungs: dict[int, Rung] = {}
        for sim in sims:
            top = measure(rule.setting(ranked[sim][0]).rules(sim), policy, screen_games, seed, threads)
            if "gauge" in knobs and not lo <= top.rate <= hi:
                # Out of reach with small adjustments: one gauge card more, for this rule only.
                deeper = space.deeper_adjustments()
                m = {g: measure(rule.setting(g).rules(sim), policy, screen_games, seed, threads) for g in deeper}
                m[ranked[sim][0]] = top
                ranked[sim] = sorted(m, key=lambda g, m=m, c=centre: abs(m[g].rate - c))
            tried = []
            for g in ranked[sim][:4]:
                r = Rung(sim, g, measure(rule.setting(g).rules(sim), policy, confirm_games, seed, threads), band)
                tried.append(r)
                if r.inside:
                    break
            pick = min(tried, key=lambda r: (not r.inside, r.distance, abs(r.result.rate - centre)))
            for p in players:
                if groups[p] == sim:
                    rungs[p] = Rung(p, pick.gauge, pick.result, band)
        levels.append(LadderLevel(level, band, rule, dict(sorted(rungs.items()))))
    return Ladder(levels, policy, tuple(knobs), space)


# --- Forbidden Island: its printed levels against the bands -------------------------------------


@dataclass
class LevelFit:
    """Which printed level of a game (Forbidden Island's: F4, the starting water mark) plays
    inside a band for one player count, judged by one policy; `difficulty` is None when none is
    confirmed inside it."""

    players: int
    level: str
    band: tuple[float, float]
    policy: str
    difficulty: str | None
    rates: dict[str, Measured]  # every level's result at this player count
    game: str = ""  # the game's name

    def nearest(self) -> tuple[str, Measured]:
        """The level whose rate lies closest to the band (the chosen one, when there is one)."""
        if self.difficulty is not None:
            return self.difficulty, self.rates[self.difficulty]
        lo, hi = self.band
        return min(self.rates.items(), key=lambda kv: max(lo - kv[1].rate, kv[1].rate - hi, 0.0))

    def verdict(self) -> str:
        name, m = self.nearest()
        lo, hi = m.ci
        text = f"{name} {100 * m.rate:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)"
        if self.difficulty is not None:
            return text
        near = Near(None, m, self.band)  # only its verdict is used
        return f"none; nearest {text}: {near.verdict()}"

    def to_json(self) -> dict:
        name, m = self.nearest()
        return {"game": self.game, "players": self.players, "level": self.level, "band": list(self.band),
                "policy": self.policy, "difficulty": self.difficulty, "confirmed": self.difficulty is not None,
                "nearest": {"difficulty": name, "win_rate": m.rate, "ci95": list(m.ci), "games": m.games},
                "rates": {lv: {"win_rate": r.rate, "ci95": list(r.ci), "games": r.games}
                          for lv, r in self.rates.items()}}


def printed_level_fits(game, players: list[int], bands: dict[str, tuple[float, float]] | None = None,
                       policy: str | None = None, games: int = 8000, seed: int = 2026,
                       threads: int | None = None) -> list[LevelFit]:
    """`calibrate` of a game with printed levels (Forbidden Island's water marks): its rules are
    printed, so the only setting a table chooses is the level. Each level is played `games`
    times per player count (the same deals at every level), and a band is met by the level whose
    95% interval lies inside it - where two do, the one nearer the band's centre."""
    bands = bands or DEFAULT_BANDS
    policy = policy or game.default_policy
    fits = []
    for p in players:
        rates = {}
        for level, setting in game.levels.items():
            raw = game.run_games(game.rules(players=p, **setting), policy, games, seed, threads=threads)
            rates[level] = Measured(int((raw[:, 0] == 0).sum()), games)
        for level, (lo, hi) in bands.items():
            inside = [d for d, m in rates.items() if lo <= m.ci[0] and m.ci[1] <= hi]
            best = min(inside, key=lambda d: abs(rates[d].rate - (lo + hi) / 2)) if inside else None
            fits.append(LevelFit(p, level, (lo, hi), policy, best, rates, game.name))
    return fits


# --- levels anchored on another game's playtested levels, over the tables that exist ----------------
#
# Forbidden Island's levels were playtested by people; Island Escape adapts it. A level of Island
# Escape that wins as often as a Forbidden Island level for the same player, for every table from
# a first game to the strongest player the lab can measure, is as hard as that level for those
# tables, as far as the two games' strength scales agree (experiments/scale.py: the same share of
# departing decisions below the expert, the same search above it). Weaker players than a first
# game are left out: at those strengths no level of either game is won more than a few games in a
# hundred, so the levels cannot be told apart there and would only blur the comparison.
#
# The anchored ladder keeps the rulebook-ready shape of `ladder` (one rule per level for every
# player count, the count adjusting only the gauge) and picks, per level, the rule and gauges with
# the smallest largest gap over the span. The search is screened cheaply - every gauge by the
# skilled players, the search only on a few gauges, its gain over the expert read between them -
# and the chosen levels are then replayed on fresh games: every rate the answer rests on comes
# from those games.

ANCHOR_SEARCH = "lookahead"  # the game's fair search, the scale's points above the expert
ANCHOR_TOP = 1  # the strongest search a study measures by default: lookahead@1 (scale point 2)
ANCHOR_GOAL = 0.05  # a level keeps to its anchor while no point of the span is further from it than this
CONFIRM_SEED_OFFSET = 1000  # the chosen levels are replayed on the deals of seed + this: fresh games
FIRST_GAME_POINT = "a first game"
# A level is no easier than the one before for a player while it wins no more often - except
# where both win so rarely (under this) that noise alone reverses them (`no_easier`).
RARE = 0.05


@dataclass
class Span:
    """The tables a level is judged for at one of the anchor's player counts: from a first game
    (the point of the strength scale winning the anchor's easiest level at the rate Forbidden
    Island's designer aims at for a first game, experiments/scale.py FIRST_GAME) to the
    strongest player measured. `who` are the measured points from the one at or below the first
    game up, weakest first; the first game's rates are read between the first two (`weights`)."""

    players: int  # the anchor's player count
    first_game: float  # the first game's point on the scale
    positions: list[float]  # the measured points, weakest first
    who: list[str]  # the players at them
    reached: bool = True  # False: even the strongest point wins less; the span is that point alone

    @property
    def weights(self) -> dict[str, float]:
        """The first game's rate as weights on the measured players' rates (linear between the two
        points around it, as the scale reads a table between two points)."""
        x0 = self.positions[0]
        if len(self.positions) == 1 or self.first_game <= x0 + 1e-9:
            return {self.who[0]: 1.0}
        x1 = self.positions[1]
        t = (self.first_game - x0) / (x1 - x0)
        return {self.who[0]: 1.0 - t, self.who[1]: t}

    def first_game_rate(self, rates: dict[str, float]) -> float:
        """What a first game wins, from the measured players' `rates`."""
        return _weighted(self.weights, rates)

    def points(self) -> list[tuple[str, dict[str, float]]]:
        """The span's points as (name, weights on the measured players): the first game, then every
        measured point above it."""
        above = [(w, {w: 1.0}) for x, w in zip(self.positions, self.who, strict=True)
                 if x > self.first_game + 1e-9]
        return [(FIRST_GAME_POINT, self.weights), *above]

    def to_json(self) -> dict:
        return {"players": self.players, "first_game": self.first_game, "positions": self.positions,
                "players_measured": self.who, "first_game_weights": self.weights, "reached": self.reached}


def first_game_span(anchor, players: int, top: int = ANCHOR_TOP, games: int = 2000, seed: int = 2026,
                    threads: int | None = None) -> Span:
    """The span at `players` of `anchor` (a game with printed levels): its easiest level is played by
    every point of the strength scale up to lookahead@`top` on `games` games, and the first point
    winning it FIRST_GAME's rate (between measured points, as the scale reads) starts the span."""
    from experiments import scale

    level, rate = scale.FIRST_GAME
    rules = anchor.rules(players=players, **anchor.levels[level])
    positions = [float(x) for x in scale.grid(top)]
    rows = [{"position": x, "players": players, "level": level,
             "rate": measure(rules, scale.player_at(anchor, x), games, seed, threads).rate} for x in positions]
    first = scale.point_winning(rows, players, level, rate)
    if first is None:  # the strongest point wins less than a first game: the span is that point
        return Span(players, positions[-1], positions[-1:], [scale.player_at(anchor, positions[-1])], False)
    below = max(x for x in positions if x <= first + 1e-9)
    kept = [x for x in positions if x == below or x > first + 1e-9]
    return Span(players, first, kept, [scale.player_at(anchor, x) for x in kept])


def _weighted(weights: dict[str, float], rates: dict[str, float]) -> float:
    return sum(w * rates[k] for k, w in weights.items())


@dataclass
class AnchoredRung:
    """One player count's gauge of a level, with both games' win rates for the span's players."""

    players: int
    gauge: tuple[str, ...]
    span: Span
    rates: dict[str, float]  # the span's measured players -> the game's win rate
    anchor_rates: dict[str, float]  # the same players on the anchor level
    games: dict[str, int] = field(default_factory=dict)  # the games behind each of `rates`
    anchor_games: dict[str, int] = field(default_factory=dict)  # and behind each of `anchor_rates`
    # a rule of this player count's own, where the level's rule leaves the anchor here by more than
    # ANCHOR_GOAL and this rule comes closer by more than that on the same fresh games (None: the
    # level's rule); `shared_gap` is then the level rule's largest gap here, for the report
    rule: Any = None
    shared_gap: tuple[float, str] | None = None

    @property
    def gaps(self) -> dict[str, float]:
        """Per point of the span (its name): the game's rate minus the anchor level's."""
        return {name: _weighted(w, self.rates) - _weighted(w, self.anchor_rates) for name, w in self.span.points()}

    @property
    def largest_gap(self) -> tuple[float, str]:
        """The largest gap over the span (a fraction, signed) and the point where it lies."""
        gaps = self.gaps
        at = max(gaps, key=lambda k: abs(gaps[k]))
        return gaps[at], at

    def gap_interval(self, point: str) -> tuple[float, float]:
        """The 95% interval of the gap at a point of the span: the two games' rates are independent
        binomial estimates, and a first game's a weighted sum of two of them."""
        weights = dict(self.span.points())[point]
        var = sum(w * w * (self.rates[k] * (1 - self.rates[k]) / max(self.games.get(k, 1), 1)
                           + self.anchor_rates[k] * (1 - self.anchor_rates[k]) / max(self.anchor_games.get(k, 1), 1))
                  for k, w in weights.items())
        gap = self.gaps[point]
        half = 1.96 * math.sqrt(var)
        return gap - half, gap + half

    @property
    def first_game_rate(self) -> float:
        return self.span.first_game_rate(self.rates)

    @property
    def win_range(self) -> tuple[float, float]:
        """What the level wins for a first game and for the strongest player of the span."""
        return self.first_game_rate, self.rates[self.span.who[-1]]

    @property
    def keeps_to_anchor(self) -> bool:
        return abs(self.largest_gap[0]) <= ANCHOR_GOAL


@dataclass
class AnchoredLevel:
    level: str
    anchor: str
    rule: Any  # the design space's LevelRule
    rungs: dict[int, AnchoredRung]
    # no easier than the level before for every player of the span at every player count
    # (`no_easier`, on the screened rates); False where the knobs allow no such rule, and the level
    # is then the closest to its anchor regardless
    harder_than_before: bool = True

    def rule_of(self, players: int):
        """The rule the level plays at a player count: the level's, or that count's own."""
        return self.rungs[players].rule or self.rule


@dataclass
class AnchoredLadder:
    anchor_game: str
    levels: list[AnchoredLevel]
    games: int  # the games behind every rate of the chosen levels and of the anchor's
    screen_games: int  # the skilled players' screening games per gauge
    search_screen_games: int  # the search's screening games per gauge it plays
    seed: int  # the screening's (and the anchor's) deals; the chosen levels replay seed + CONFIRM_SEED_OFFSET
    spans: dict[int, Span] = field(default_factory=dict)  # the anchor's player count -> its span
    # every rate the search measured: level, rule, player group, gauge, player, stage (screen, search
    # or confirm), the game's rate and the anchor level's (what the choice was made from)
    candidates: list[dict] = field(default_factory=list)
    design: Any = None  # the game's design space, which words the rules

    @property
    def confirm_seed(self) -> int:
        return self.seed + CONFIRM_SEED_OFFSET

    def to_json(self) -> list[dict]:
        out = []
        for lv in self.levels:
            for p, r in lv.rungs.items():
                gap, at = r.largest_gap
                lo, hi = r.gap_interval(at)
                out.append({"players": p, "level": lv.level, "anchor": lv.anchor, "anchor_game": self.anchor_game,
                            "rules": lv.rule_of(p).setting(r.gauge).rules(p).as_record(),
                            "level_rule": lv.rule_of(p).describe(), "own_rule": r.rule is not None,
                            "shared_rule": lv.rule.describe(),
                            "shared_rule_gap": None if r.shared_gap is None else r.shared_gap[0],
                            "gauge_change": self.design.gauge_change_text(r.gauge),
                            "span": r.span.to_json(),
                            "largest_gap": abs(gap), "signed_gap": gap, "gap_ci95": [lo, hi], "gap_at": at,
                            "gaps": r.gaps, "keeps_to_anchor": r.keeps_to_anchor,
                            "first_game_rate": r.first_game_rate,
                            "anchor_first_game_rate": r.span.first_game_rate(r.anchor_rates),
                            "win_range": list(r.win_range), "harder_than_before": lv.harder_than_before,
                            "win_rates": r.rates, "anchor_win_rates": r.anchor_rates,
                            "games": self.games, "seed": self.confirm_seed, "anchor_seed": self.seed,
                            })
        return out


def no_easier(rate: float, before: float, games: int) -> bool:
    """A level winning `rate` is no easier than the level before, winning `before`, each over
    `games` games: it wins no more often - except where both win so rarely (under RARE) that the
    two cannot be told apart, and there by no more than the 95% margin of the difference of two
    such rates (near 0, noise alone reverses them)."""
    if rate <= before:
        return True
    margin = 1.96 * math.sqrt((rate * (1 - rate) + before * (1 - before)) / games)
    return max(rate, before) < RARE and rate <= before + margin


def takes_own_rule(own: AnchoredRung, shared_gap: float, before: dict[str, float] | None, games: int) -> bool:
    """Whether a player count plays another rule than its level's: where the level's rule leaves
    the anchor by `shared_gap` there, `own` (the other rule, on the same fresh games) must come
    closer by more than ANCHOR_GOAL - a difference a table would notice, not the luck of picking the
    better of two measures - and win no more often than the level before (`before`: its rates,
    None for the first level or where levels need not be ordered) for any player of the span."""
    if abs(own.largest_gap[0]) >= abs(shared_gap) - ANCHOR_GOAL:
        return False
    return before is None or all(no_easier(own.rates[w], before[w], games) for w in own.rates)


def _probes(allowed: list, reference: dict, targets: list[float], key) -> list:
    """The gauges the search screens first: for each target rate, the allowed gauge whose
    reference (expert) rate is nearest it, each gauge once."""
    out = []
    for t in targets:
        rest = [g for g in allowed if g not in out]
        if rest:
            out.append(min(rest, key=lambda g: (abs(reference[g] - t), key(g))))
    return out


def _gain_reader(points: list[tuple[float, float]]):
    """The search's gain over the expert as a function of the expert's rate, read linearly between
    the screened gauges (flat beyond them): within one rule and player count it moves slowly."""
    import numpy as np

    xs, ys = zip(*sorted(points), strict=True)
    return lambda x: float(np.interp(x, xs, ys))


def anchored_ladder(anchor, players: list[int] = (1, 2, 3, 4), games: int = 2000, screen_games: int = 1000,
                    search_screen_games: int = 300, top: int = ANCHOR_TOP, seed: int = 2026,
                    knobs: tuple[str, ...] | None = None, threads: int | None = None,
                    echo: Callable[[str], None] = lambda s: None, game=None) -> AnchoredLadder:
    """Island Escape's Easy, Normal and Hard anchored on `anchor`'s levels (a Game with printed
    levels, Forbidden Island) over the span of tables from a first game to lookahead@`top`: for
    each level, the level rule (as `ladder`'s) and each player count's gauge whose win rates for the
    span's players come closest to the anchor level's for the same players at the same player count
    (a solo game is two pawns, R5: compared with the anchor's smallest player count), judged by the
    largest gap over the span.

    Screening: every gauge is played by the span's skilled players (and the expert) on
    `screen_games`; the search plays `search_screen_games` on three gauges spread over the anchor's
    range, its gain over the expert is read between them for every other gauge, and the two gauges
    closest by that reading are played too. The rule and gauges closest on those measured rates are
    then replayed on `games` fresh games by every player of the span (the anchor's rates are on
    `games` of the screening's seed). Levels are chosen easiest first, each among the settings other
    than the level before's that win no more often than it for any player of the span (`no_easier`);
    where the knobs leave no such setting for some player count, the level is the closest regardless
    and says so."""
    from experiments import scale

    game, space = design_of(game)
    knobs = tuple(knobs or space.KNOBS)
    groups = space.player_groups(list(players))
    sims = sorted(set(groups.values()))
    gauges = space.adjustments(knobs)
    at = {sim: min(max(sim, anchor.players[0]), anchor.players[-1]) for sim in sims}
    spans = {}
    for n in sorted(set(at.values())):
        spans[n] = first_game_span(anchor, n, top, games, seed, threads)
        s = spans[n]
        echo(f"  {anchor.title}, {n} players: a first game at {s.first_game:.2f} on the scale "
             f"({scale.name_at(s.first_game)}); the span's players {', '.join(s.who)}")
    expert = scale.player_at(game, scale.EXPERT)
    anchor_rates: dict[tuple[int, str], dict[str, float]] = {}
    for sim in sims:
        for fi_level in space.ANCHOR_LEVELS.values():
            rules = anchor.rules(players=at[sim], **anchor.levels[fi_level])
            anchor_rates[(sim, fi_level)] = {w: measure(rules, w, games, seed, threads).rate
                                             for w in spans[at[sim]].who}
            echo(f"  anchor {anchor.title} {at[sim]}p {fi_level}: " + ", ".join(
                f"{w} {100 * r:.0f}%" for w, r in anchor_rates[(sim, fi_level)].items()))
    candidates: list[dict] = []
    easier: dict[int, dict[str, float]] = {}  # the level before's confirmed rates, per player group
    before: dict[int, Any] = {}  # and its setting
    levels = []
    steps, step = len(space.ANCHOR_LEVELS) * len(sims), 0
    for level, fi_level in space.ANCHOR_LEVELS.items():
        band = DEFAULT_BANDS.get(level, (0.0, 1.0))
        rules = space.level_rules(knobs, band, DEFAULT_BANDS["normal"])
        best, strict, first = None, True, len(candidates)
        per_rule: dict[Any, dict[int, AnchoredRung]] = {}
        while best is None:  # strict first; if no rule can be, the closest regardless, marked
            for i, rule in enumerate(rules, 1):
                echo(f"  screening {level} ({fi_level}): rule {i} of {len(rules)}, {rule.describe()}"
                     + ("" if strict else ", no longer asking it to be harder than the level before"))
                rungs = {}
                for sim in sims:
                    span = spans[at[sim]]
                    rung = _screen_rung(game, space, rule, sim, span, anchor_rates[(sim, fi_level)], gauges,
                                        expert, screen_games, search_screen_games, seed, threads,
                                        easier.get(sim), before.get(sim), strict, candidates, level)
                    if rung is not None:  # None: this rule cannot be harder than the level before here
                        rungs[sim] = rung
                per_rule[rule] = rungs
                if len(rungs) < len(sims):
                    continue
                score = (round(max(abs(r.largest_gap[0]) for r in rungs.values()), 3), rule.changes)
                if best is None or score < best[0]:
                    best = (score, rule, rungs)
            if best is None:
                strict = False
                per_rule = {}
                del candidates[first:]  # the rows again, from the pass that is kept
        _, rule, screened = best

        def confirm(rule, r, stage, level=level):
            """`r` replayed on fresh games by every player of the span."""
            rates = {w: measure(rule.setting(r.gauge).rules(r.players), w, games, seed + CONFIRM_SEED_OFFSET,
                                threads).rate for w in r.span.who}
            for w, rate in rates.items():
                candidates.append({"level": level, **rule.columns(), "players": r.players,
                                   "gauge": " ".join(r.gauge), "player": w, "stage": stage, "games": games,
                                   "win_rate": rate, "anchor_win_rate": r.anchor_rates[w], "no_easier": True})
            return AnchoredRung(r.players, r.gauge, r.span, rates, r.anchor_rates, dict.fromkeys(rates, games),
                                dict.fromkeys(rates, games))

        confirmed = {}
        for sim, r in screened.items():
            step += 1
            confirmed[sim] = confirm(rule, r, "confirm")
            gap, where = confirmed[sim].largest_gap
            echo(f"  [{step}/{steps}] {level} ({fi_level}), {sim} players: {rule.describe()}; "
                 f"{space.gauge_change_text(r.gauge)}: largest gap {100 * gap:+.1f} points at {where}")
            if abs(gap) > ANCHOR_GOAL:  # a rule of this player count's own, if it comes clearly closer
                others = [(abs(rs[sim].largest_gap[0]), space.adjustment_key(rs[sim].gauge), k)
                          for k, (other, rs) in enumerate(per_rule.items())
                          if other != rule and sim in rs and abs(rs[sim].largest_gap[0]) < abs(r.largest_gap[0])]
                if others:
                    other, rs = list(per_rule.items())[min(others)[2]]
                    own = confirm(other, rs[sim], "own rule")
                    if takes_own_rule(own, gap, easier.get(sim) if strict else None, games):
                        own.rule, own.shared_gap = other, (gap, where)
                        confirmed[sim] = own
                        echo(f"      its own rule there: {other.describe()}; {space.gauge_change_text(own.gauge)}: "
                             f"largest gap {100 * own.largest_gap[0]:+.1f} points at {own.largest_gap[1]}")
        easier = {sim: r.rates for sim, r in confirmed.items()}
        before = {sim: (r.rule or rule).setting(r.gauge) for sim, r in confirmed.items()}
        by_players = {p: confirmed[groups[p]] for p in players}
        levels.append(AnchoredLevel(level, fi_level, rule, by_players, strict))
    return AnchoredLadder(anchor.name, levels, games, screen_games, search_screen_games, seed, spans, candidates,
                          space)


def _screen_rung(game, space, rule, sim, span, want, gauges, expert, screen_games, search_games, seed, threads,
                 easier, before, strict, candidates, level):
    """The gauge of `rule` at `sim` players closest to the anchor (`want`: its rates for the
    span's players) on screened rates, among those no easier than the level before (`easier`,
    `before`) when `strict`; None when there is none."""
    from experiments.scale import EXPERT

    skilled = [w for x, w in zip(span.positions, span.who, strict=True) if x <= EXPERT]
    searched = [w for w in span.who if w not in skilled]
    reference = [*skilled, *([expert] if expert not in skilled else [])]

    def row(g, w, rate, n, stage, ordered):
        candidates.append({"level": level, **rule.columns(), "players": sim, "gauge": " ".join(g), "player": w,
                           "stage": stage, "games": n, "win_rate": rate, "anchor_win_rate": want.get(w),
                           "no_easier": ordered})

    def ordered(g, rates, n):
        if easier is None:
            return True
        return rule.setting(g) != before and all(no_easier(rates[w], easier[w], n) for w in rates if w in easier)

    screened = {}
    for g in gauges:
        rules = rule.setting(g).rules(sim)
        screened[g] = {w: measure(rules, w, screen_games, seed, threads).rate for w in reference}
    flags = {g: ordered(g, {w: screened[g][w] for w in skilled}, screen_games) for g in gauges}
    allowed = [g for g in gauges if flags[g] or not strict]
    if not allowed:
        for g in gauges:
            for w in reference:
                row(g, w, screened[g][w], screen_games, "screen", flags[g])
        return None

    def rung(g, rates):
        return AnchoredRung(sim, g, span, rates, want)

    if not searched:
        chosen = {g: rung(g, screened[g]) for g in allowed}
    else:
        lo, hi = span.first_game_rate(want), want[searched[-1]]
        probes = _probes(allowed, {g: screened[g][expert] for g in allowed}, [lo, (lo + hi) / 2, hi],
                         space.adjustment_key)
        played = {}

        def play(g):
            rules = rule.setting(g).rules(sim)
            played[g] = {**screened[g], **{w: measure(rules, w, search_games, seed, threads).rate for w in searched}}

        for g in probes:
            play(g)
        gains = {w: _gain_reader([(played[g][expert], played[g][w] - played[g][expert]) for g in probes])
                 for w in searched}

        def read(g):  # the search's rates this gauge would have, read from its expert's
            x = screened[g][expert]
            return {**screened[g], **{w: min(1.0, max(0.0, x + gains[w](x))) for w in searched}}

        reads = {g: rung(g, read(g)) for g in allowed if g not in played}
        for g in sorted(reads, key=lambda g: (abs(reads[g].largest_gap[0]), space.adjustment_key(g)))[:2]:
            play(g)
        chosen = {}
        for g, rates in played.items():
            ok = not strict or ordered(g, {w: rates[w] for w in searched}, search_games)
            if not ok:
                flags[g] = False
            else:
                chosen[g] = rung(g, rates)
            for w in searched:
                row(g, w, rates[w], search_games, "search", flags[g])
    for g in gauges:
        for w in reference:
            row(g, w, screened[g][w], screen_games, "screen", flags[g])
    if not chosen:
        return None
    return min(chosen.values(), key=lambda r: (abs(r.largest_gap[0]), space.adjustment_key(r.gauge)))


def anchored_table(lad: AnchoredLadder) -> str:
    """The anchored ladder as the terminal shows it."""
    lines = [f"{'level':<7} {'players':>7}  {'anchor':<8} {'wins over the span':>18}  {'largest gap':>11}  "
             f"{'where':<14} rules"]
    for row in lad.to_json():
        text = lad.design.rules_text(row["rules"])
        lo, hi = row["win_range"]
        lines.append(f"{row['level']:<7} {row['players']:>7}  {row['anchor']:<8} "
                     f"{f'{100 * lo:.0f}-{100 * hi:.0f}%':>18}  {100 * row['signed_gap']:>+10.1f}%  "
                     f"{row['gap_at']:<14} {text}")
    for row in lad.to_json():
        if row["own_rule"]:
            lines.append(f"{row['level']} for {row['players']} players has a rule of its own: the level's rule "
                         f"leaves its anchor by {100 * row['shared_rule_gap']:+.1f}% there")
    loose = [lv.level for lv in lad.levels if not lv.harder_than_before]
    if loose:
        lines.append(f"not harder than the level before at every player count (no rule the knobs allow is): "
                     f"{', '.join(loose)}")
    return "\n".join(lines)
