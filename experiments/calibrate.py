"""Difficulty calibration: which rules a table can lay out with one deck make Easy, Normal, Hard.

The search space is what a table can set up with one deck: 1-3 cards per treasure, a gauge made
of aces to fives of clubs and diamonds in rank order (any subset of AC AD 2C 2D 3C 3D 4C 4D 5C
5D, so 5D may extend the rulebook gauge), Divers on or off. A setting's *change* from the rulebook
counts the steps a designer would write down: each card taken off or added to the gauge, each
card more or less per treasure, and Divers.

The search deepens by change: all settings with 0 changes are screened with a few games, then
those with 1, 2, … For each player count and level, the candidates whose screen falls in the
band are confirmed with more games in order of fewest changes (then closest to the band's
centre); the first whose 95% interval lies inside the band is the recommendation. Every cell
plays the same games of one seed, so settings are compared on the same islands.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

from experiments.runner import run_games, wilson_interval
from policies.registry import POLICIES, SLOW, UNFAIR
from sim.rules import FULL_GAUGE, Rules, pretty

ALL_GAUGE_CARDS = FULL_GAUGE + ("5D",)  # rank order, clubs before diamonds
DEFAULT_BANDS = {"easy": (0.70, 0.80), "normal": (0.45, 0.55), "hard": (0.20, 0.30)}
LEVELS = ("easy", "normal", "hard")
SLOW_SHARE = 20  # a slow (searching) policy plays 1/20 of the games of the others, at least 100


@dataclass(frozen=True)
class Setting:
    cards_per_treasure: int
    gauge: tuple[str, ...]
    divers: bool

    def rules(self, players: int) -> Rules:
        return Rules(players=players, cards_per_treasure=self.cards_per_treasure, gauge=self.gauge,
                     swim_cost=1 if self.divers else 2)

    @property
    def changes(self) -> int:
        gauge_changes = len(set(self.gauge) ^ set(FULL_GAUGE))
        return gauge_changes + abs(self.cards_per_treasure - 2) + int(self.divers)

    def describe(self) -> str:
        """The change from the rulebook in words a designer can print on a card."""
        parts = []
        if self.cards_per_treasure != 2:
            n = self.cards_per_treasure
            parts.append(f"a treasure takes {n} card{'s' if n != 1 else ''} of its suit "
                         f"({n + 1} of any suits when short)")
        removed = [c for c in FULL_GAUGE if c not in self.gauge]
        added = [c for c in self.gauge if c not in FULL_GAUGE]
        if removed:
            parts.append("take " + ", ".join(pretty(c) for c in removed) + " off the gauge")
        if added:
            parts.append("add " + ", ".join(pretty(c) for c in added) + " at the bottom of the gauge")
        if self.divers:
            parts.append("Divers (swimming costs 1 action)")
        return "; ".join(parts) if parts else "the rulebook's rules"


def candidate_settings(changes: int) -> list[Setting]:
    """Every setting with exactly `changes` changes from the rulebook."""
    out = []
    for cpt, divers in itertools.product((1, 2, 3), (False, True)):
        rest = changes - abs(cpt - 2) - int(divers)
        if rest < 0:
            continue
        for add_5d in (False, True):
            k = rest - int(add_5d)
            if k < 0 or k > len(FULL_GAUGE) - (0 if add_5d else 1):
                continue
            for removed in itertools.combinations(FULL_GAUGE, k):
                gauge = tuple(c for c in ALL_GAUGE_CARDS
                              if (c in FULL_GAUGE and c not in removed) or (c == "5D" and add_5d))
                if gauge:
                    out.append(Setting(cpt, gauge, divers))
    return out


def player_groups(players: list[int]) -> dict[int, int]:
    """R5: a solo game plays exactly like two players, so 1 and 2 share their simulations."""
    return {p: (2 if p == 1 else p) for p in players}


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


def measure(rules: Rules, policy: str, games: int, seed: int, threads: int | None = None) -> Measured:
    raw = run_games(rules, policy, games, seed, threads=threads)
    return Measured(int((raw[:, 0] == 0).sum()), games)


@dataclass
class Recommendation:
    players: int
    level: str
    band: tuple[float, float]
    policy: str
    setting: Setting
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
class Calibration:
    recommendations: list[Recommendation]
    shared: dict[str, Setting | None]  # level -> one setting that serves every player count
    missing: list[tuple[int, str]]  # (players, level) without a recommendation
    screened: int  # settings screened per player group
    policy: str


def calibrate(players: list[int] = (1, 2, 3, 4), bands: dict[str, tuple[float, float]] | None = None,
              policy: str = "expert", seed: int = 2026, screen_games: int = 1000,
              confirm_games: int = 8000, max_changes: int = 3, other_games: int = 4000,
              validate_games: int = 8000, others: list[str] | None = None, threads: int | None = None,
              echo: Callable[[str], None] = lambda s: None) -> Calibration:
    bands = dict(bands or DEFAULT_BANDS)
    groups = player_groups(list(players))
    sims = sorted(set(groups.values()))
    screen: dict[tuple[int, Setting], Measured] = {}
    confirmed: dict[tuple[int, Setting], Measured] = {}
    chosen: dict[tuple[int, str], Setting] = {}
    screened = 0

    def confirm(sim: int, s: Setting) -> Measured:
        if (sim, s) not in confirmed:
            confirmed[(sim, s)] = measure(s.rules(sim), policy, confirm_games, seed, threads)
        return confirmed[(sim, s)]

    for changes in range(max_changes + 1):
        batch = candidate_settings(changes)
        screened += len(batch)
        echo(f"  {changes} change(s): screening {len(batch)} settings x {len(sims)} player group(s)")
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
                        if g == sim and m.ci[1] >= lo and m.ci[0] <= hi]
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
    shared: dict[str, Setting | None] = {}
    for level, (lo, hi) in bands.items():
        shared[level] = None
        if len(sims) < 2:
            continue
        settings = {s for (_, s) in screen}
        ok = [s for s in settings
              if all((sim, s) in screen and screen[(sim, s)].ci[1] >= lo and screen[(sim, s)].ci[0] <= hi
                     for sim in sims)]
        centre = (lo + hi) / 2
        def spread(s: Setting, centre: float = centre) -> tuple[int, float]:
            return (s.changes, max(abs(screen[(g, s)].rate - centre) for g in sims))

        for s in sorted(ok, key=spread)[:4]:
            if all(lo <= confirm(sim, s).ci[0] and confirm(sim, s).ci[1] <= hi for sim in sims):
                shared[level] = s
                break
        if shared[level] is not None:
            for sim in sims:
                chosen[(sim, level)] = shared[level]

    fair = [p for p in (others if others is not None else POLICIES) if p not in UNFAIR and p != "idle"]
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
                    n = max(100, other_games // SLOW_SHARE) if other in SLOW else other_games
                    rec.others[other] = measure(s.rules(sim), other, n, seed, threads)
            if validate_games:
                rec.validation_seed = seed + 1000
                rec.validation = measure(s.rules(sim), policy, validate_games, seed + 1000, threads)
            recs.append(rec)
    return Calibration(recs, shared, missing, screened, policy)
