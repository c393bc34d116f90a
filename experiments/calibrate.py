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

import math
from collections.abc import Callable
from dataclasses import dataclass, field
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


def games_judged(policy: str) -> int:
    """How many games `policy` has played for calibrations in this process (each measured once)."""
    return sum(key[2] for key in _measured if key[1] == policy)


def measure(rules, policy: str, games: int, seed: int, threads: int | None = None) -> Measured:
    """The wins of `games` games of `rules` (any game's) by `policy`, each setting measured once."""
    key = (rules, policy, games, seed)
    if key not in _measured:
        raw = game_of_rules(rules).run_games(rules, policy, games, seed, threads=threads)
        _measured[key] = Measured(int((raw[:, 0] == 0).sum()), games)
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


# --- levels anchored on another game's playtested levels ----------------------------------------------
#
# Forbidden Island's levels were playtested by people; Island Escape adapts it. A level of Island
# Escape that wins as often as a Forbidden Island level for the same player at every skill is as
# hard as that level for any table, as far as the two games' skill scales agree (both count error
# as the share of decisions departing from the game's expert: docs/RULES-FI.md). The anchored
# ladder keeps the rulebook-ready shape of `ladder` (one rule per level for every player count,
# the count adjusting only the gauge) and picks, per level, the rule and gauges whose win rate
# tracks the anchor level's over a grid of skills and the fair search: the smallest largest gap.

ANCHOR_SKILLS = (0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
ANCHOR_SEARCH = "lookahead"  # the strongest fair player, measured beside the skill grid
# A level plays like its anchor level for a player while its win rate is nearer that level's rate
# than any other level's - or within this much of it: where a player wins (almost) never at any
# level, the levels cannot be told apart by their rates, and a few points are not a difference a
# table would notice in a season of games.
LIKE_WITHIN = 0.05


def likeness_bands(rates: dict[str, float], within: float = LIKE_WITHIN) -> dict[str, tuple[float, float]]:
    """For one player's win rates on a ladder of levels (easiest first), the win rates that play
    like each level: nearer its rate than its neighbours' (halfway to each; an end level reaches
    as far beyond it as towards its one neighbour), and never less than `within` either side."""
    levels = list(rates)
    out = {}
    for i, level in enumerate(levels):
        r = rates[level]
        harder = rates[levels[i + 1]] if i + 1 < len(levels) else None
        easier = rates[levels[i - 1]] if i > 0 else None
        down = (r - harder) / 2 if harder is not None else ((easier - r) / 2 if easier is not None else within)
        up = (easier - r) / 2 if easier is not None else down
        out[level] = (max(0.0, r - max(down, within)), min(1.0, r + max(up, within)))
    return out


@dataclass
class AnchoredRung:
    players: int
    gauge: tuple[str, ...]
    rates: dict[str, float]  # the player (a skill spec or the search) -> the game's win rate
    anchor_rates: dict[str, float]  # the same players on the anchor level
    games: dict[str, int] = field(default_factory=dict)  # the games behind each player's rate
    bands: dict[str, tuple[float, float]] = field(default_factory=dict)  # player -> likeness_bands' band

    @property
    def gaps(self) -> dict[str, float]:
        return {k: self.rates[k] - self.anchor_rates[k] for k in self.rates}

    @property
    def largest_gap(self) -> tuple[float, str]:
        """The largest gap (a fraction, Island Escape's rate minus the anchor's) and where."""
        at = max(self.gaps, key=lambda k: abs(self.gaps[k]))
        return self.gaps[at], at

    @property
    def win_range(self) -> tuple[float, float]:
        """The lowest and highest win rate over the skill grid (the search apart)."""
        skilled = [r for k, r in self.rates.items() if "@" in k]
        return min(skilled), max(skilled)

    def leaves_band(self) -> list[str]:
        """The players for whom this level's 95% interval lies wholly outside the band of rates
        that play like the anchor level: there it plays like another level."""
        out = []
        for k, (lo, hi) in self.bands.items():
            ci_lo, ci_hi = wilson_interval(round(self.rates[k] * self.games[k]), self.games[k])
            if ci_hi < lo or ci_lo > hi:
                out.append(k)
        return out


@dataclass
class AnchoredLevel:
    level: str
    anchor: str
    rule: Any  # the design space's LevelRule
    rungs: dict[int, AnchoredRung]
    # harder than the level before for every player count (`no_easier`); False where the knobs
    # allow no such rule, and the level is then the closest to its anchor regardless
    harder_than_before: bool = True


@dataclass
class AnchoredLadder:
    anchor_game: str
    levels: list[AnchoredLevel]
    games: int
    search_games: int
    seed: int
    # every rate the search measured: level, rule, player group, gauge, player, Island Escape's
    # rate and the anchor level's (what the choice was made from, for a reader to check it)
    candidates: list[dict] = field(default_factory=list)
    design: Any = None  # the game's design space, which words the rules

    def to_json(self) -> list[dict]:
        out = []
        for lv in self.levels:
            for p, r in lv.rungs.items():
                gap, at = r.largest_gap
                out.append({"players": p, "level": lv.level, "anchor": lv.anchor, "anchor_game": self.anchor_game,
                            "rules": lv.rule.setting(r.gauge).rules(p).as_record(),
                            "level_rule": lv.rule.describe(),
                            "gauge_change": self.design.gauge_change_text(r.gauge),
                            "largest_gap": abs(gap), "signed_gap": gap,
                            "gap_at": float(at.partition("@")[2]) if "@" in at else at,
                            "win_range": list(r.win_range), "like_bands": {k: list(b) for k, b in r.bands.items()},
                            "leaves_band_at": r.leaves_band(), "harder_than_before": lv.harder_than_before,
                            "win_rates": r.rates, "anchor_win_rates": r.anchor_rates,
                            "games": self.games, "search_games": self.search_games, "seed": self.seed})
        return out


def no_easier(rate: float, before: float, games: int) -> bool:
    """A level winning `rate` is no easier than the level before, winning `before`, each over
    `games` games: it wins no more often - except where both win so rarely (under LIKE_WITHIN)
    that the two cannot be told apart, and there by no more than the 95% margin of the
    difference of two such rates (near 0, noise alone reverses them)."""
    if rate <= before:
        return True
    margin = 1.96 * math.sqrt((rate * (1 - rate) + before * (1 - before)) / games)
    return max(rate, before) < LIKE_WITHIN and rate <= before + margin


def _player_name(skill_or_search, game) -> str:
    return skill_or_search if isinstance(skill_or_search, str) else game.with_skill(game.skill_policy, skill_or_search)


def anchored_ladder(anchor, players: list[int] = (1, 2, 3, 4), skills=ANCHOR_SKILLS, games: int = 1000,
                    search_games: int = 100, seed: int = 2026, knobs: tuple[str, ...] | None = None,
                    threads: int | None = None, echo: Callable[[str], None] = lambda s: None,
                    game=None) -> AnchoredLadder:
    """Island Escape's Easy, Normal and Hard anchored on `anchor`'s levels (a Game with printed
    levels, Forbidden Island): for each level, the level rule (as `ladder`'s) and each player
    count's gauge whose win rates over `skills` (the skilled player) and ANCHOR_SEARCH come
    closest to the anchor level's for the same players at the same player count (a solo game is
    two pawns, R5: compared with the anchor's smallest player count), judged by the largest gap.
    Levels are chosen easiest first, each among the settings other than the level before's that
    win no more often than it for any player of the skill grid (`no_easier`); where the knobs leave
    no such setting for some player count, the level is the closest regardless and says so."""
    game, space = design_of(game)
    knobs = tuple(knobs or space.KNOBS)
    groups = space.player_groups(list(players))
    sims = sorted(set(groups.values()))
    gauges = space.adjustments(knobs)
    who = [_player_name(s, game) for s in skills] + [ANCHOR_SEARCH]

    def n_games(player: str) -> int:
        return search_games if player == ANCHOR_SEARCH else games

    anchor_rates: dict[tuple[int, str], dict[str, float]] = {}
    for sim in sims:
        at = min(max(sim, anchor.players[0]), anchor.players[-1])
        for level in anchor.levels:  # every level, for the bands between them
            rules = anchor.rules(players=at, **anchor.levels[level])
            anchor_rates[(sim, level)] = {
                w: float((anchor.run_games(rules, w, n_games(w), seed, threads=threads)[:, 0] == 0).mean())
                for w in who}
            echo(f"  anchor {anchor.title} {at}p {level}: " + ", ".join(
                f"{w} {100 * r:.0f}%" for w, r in anchor_rates[(sim, level)].items()))
    bands = {(sim, level): {} for sim in sims for level in anchor.levels}
    for sim in sims:
        for w in who:
            for level, band in likeness_bands({lv: anchor_rates[(sim, lv)][w] for lv in anchor.levels}).items():
                bands[(sim, level)][w] = band
    counts = {w: n_games(w) for w in who}
    candidates: list[dict] = []
    # Each level is no easier than the one before for every player of the skill grid: a harder
    # label never plays easier for anyone.
    easier: dict[int, dict[str, float]] = {}
    before: dict[int, Any] = {}
    levels = []
    for level, fi_level in space.ANCHOR_LEVELS.items():
        band = DEFAULT_BANDS.get(level, (0.0, 1.0))
        rules = space.level_rules(knobs, band, DEFAULT_BANDS["normal"])
        echo(f"  anchored {level} on {fi_level}: {len(rules)} level rule(s) x {len(gauges)} gauge(s) x "
             f"{len(sims)} player group(s) x {len(who)} players")
        best, strict, first = None, True, len(candidates)
        while best is None:  # strict first; if no rule can be, the closest regardless, marked
            for rule in rules:
                rungs = {}
                for sim in sims:
                    want = anchor_rates[(sim, fi_level)]

                    def rung(g, rates, no_easier, sim=sim, want=want, level=level, rule=rule, fi_level=fi_level):
                        for w, rate in rates.items():
                            candidates.append({"level": level, **rule.columns(), "players": sim, "gauge": " ".join(g),
                                               "player": w, "win_rate": rate, "anchor_win_rate": want[w],
                                               "no_easier": no_easier})
                        return AnchoredRung(sim, g, rates, want, {w: counts[w] for w in rates},
                                            bands[(sim, fi_level)])

                    # screen every gauge on the skill grid alone (the search is slow), then measure the
                    # search on the closest few of those no easier than the level before
                    screened = []
                    for g in gauges:
                        rates = {w: measure(rule.setting(g).rules(sim), w, games, seed, threads).rate
                                 for w in who if w != ANCHOR_SEARCH}
                        ordered = sim not in easier or (
                            rule.setting(g) != before[sim]  # a level is another setting than the one before
                            and all(no_easier(rates[w], easier[sim][w], games) for w in rates))
                        screened.append((not ordered, max(abs(rates[w] - want[w]) for w in rates), g, rates))
                    screened.sort(key=lambda x: (x[0] and strict, x[1], space.adjustment_key(x[2])))
                    shortlist = [x for x in screened if not (x[0] and strict)][:3]
                    for x in screened:
                        if x not in shortlist:
                            rung(x[2], x[3], not x[0])
                    if not shortlist:
                        break  # this rule cannot be harder than the level before at this player count
                    closest = []
                    for flag, _, g, rates in shortlist:
                        rates = {**rates, ANCHOR_SEARCH: measure(rule.setting(g).rules(sim), ANCHOR_SEARCH,
                                                                 search_games, seed, threads).rate}
                        closest.append(rung(g, rates, not flag))
                    rungs[sim] = min(closest, key=lambda r: (abs(r.largest_gap[0]), space.adjustment_key(r.gauge)))
                if len(rungs) < len(sims):
                    continue
                score = (round(max(abs(r.largest_gap[0]) for r in rungs.values()), 3), rule.changes)
                if best is None or score < best[0]:
                    best = (score, rule, rungs)
            if best is None:
                strict = False
                del candidates[first:]  # the rows again, from the pass that is kept
        _, rule, rungs = best
        easier = {sim: {w: v for w, v in r.rates.items() if w != ANCHOR_SEARCH} for sim, r in rungs.items()}
        before = {sim: rule.setting(r.gauge) for sim, r in rungs.items()}
        by_players = {p: AnchoredRung(p, rungs[groups[p]].gauge, rungs[groups[p]].rates,
                                      rungs[groups[p]].anchor_rates, rungs[groups[p]].games,
                                      rungs[groups[p]].bands) for p in players}
        levels.append(AnchoredLevel(level, fi_level, rule, by_players, strict))
    return AnchoredLadder(anchor.name, levels, games, search_games, seed, candidates, space)


def anchored_table(lad: AnchoredLadder) -> str:
    """The anchored ladder as the terminal shows it."""
    lines = [f"{'level':<7} {'players':>7}  {'anchor':<8} {'wins over skill':>15}  {'largest gap':>11}  "
             f"{'where':<10} {'plays like it':<17} rules"]
    for row in lad.to_json():
        at = row["gap_at"]
        where = f"skill {at:g}" if isinstance(at, float) else at
        text = lad.design.rules_text(row["rules"])
        lo, hi = row["win_range"]
        leaves = row["leaves_band_at"]
        like = "everywhere" if not leaves else "not at " + ", ".join(
            k.partition("@")[2] or k for k in leaves)
        lines.append(f"{row['level']:<7} {row['players']:>7}  {row['anchor']:<8} "
                     f"{f'{100 * lo:.0f}-{100 * hi:.0f}%':>15}  {100 * row['signed_gap']:>+10.1f}%  {where:<10} "
                     f"{like:<17} {text}")
    loose = [lv.level for lv in lad.levels if not lv.harder_than_before]
    if loose:
        lines.append(f"not harder than the level before at every player count (no rule the knobs allow is): "
                     f"{', '.join(loose)}")
    return "\n".join(lines)
