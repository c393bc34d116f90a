"""What a designer may change in Island Escape: the settings a calibration tries (experiments/calibrate.py).

A setting is what a table can lay out with one deck: 1-3 cards per treasure, a gauge made of aces
to fives of clubs and diamonds in rank order (any subset of AC AD 2C 2D 3C 3D 4C 4D 5C 5D, so 5D
may extend the rulebook gauge), Divers on or off. Its *change* from the rulebook counts the steps
a designer would write down: each card taken off or added to the gauge, each card more or less
per treasure, and Divers.

A rulebook ladder gives each level one rule for every player count (cards a treasure, and Divers
for a level easier than Normal) and lets the player count adjust only the gauge, by at most
LADDER_GAUGE_CHANGES cards taken off or 5♦ added: the way Forbidden Island's levels are marks on
its water meter. (Taking only top cards off, a pure starting mark, is too coarse: with 2 players
and 2 cards a treasure, A♣ off moves the expert from 94% to 69% wins, A♦ too to 9%.) The ladder's
per-player-count *adjustment* is therefore a gauge.

Every name here is what the calibration asks of a game's design space (`Game.design`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from sim.island_escape.rules import FULL_GAUGE, Rules, floods_per_turn, gauge_name, pretty, rank_of

ALL_GAUGE_CARDS = FULL_GAUGE + ("5D",)  # rank order, clubs before diamonds
KNOBS = ("gauge", "cards", "divers")  # what a setting may change: the gauge, cards a treasure, Divers
LADDER_GAUGE_CHANGES = 2
# The levels anchored on Forbidden Island's printed ones: each of ours and the level it should
# play like (docs/RULES-FI.md: the two games' skill scales).
ANCHOR_LEVELS = {"easy": "novice", "normal": "normal", "hard": "elite"}


def parse_knobs(text: str | None) -> tuple[str, ...]:
    """'gauge,cards' -> ('gauge', 'cards'); ValueError naming an unknown knob."""
    if not text:
        return KNOBS
    knobs = tuple(k.strip().lower() for k in text.split(",") if k.strip())
    for k in knobs:
        if k not in KNOBS:
            raise ValueError(f"{k!r} is not a knob (choose from {', '.join(KNOBS)})")
    if not knobs:
        raise ValueError("name at least one knob")
    return knobs


def divers_allowed(band: tuple[float, float], normal: tuple[float, float]) -> bool:
    """The rulebook labels Divers the *easier* variant: it may serve only a level easier than
    Normal (a band above Normal's), never be used against its label to reach Normal or Hard."""
    return band[0] >= normal[1]


@dataclass(frozen=True)
class Setting:
    cards_per_treasure: int
    gauge: tuple[str, ...]
    divers: bool

    def rules(self, players: int) -> Rules:
        return Rules(players=players, cards_per_treasure=self.cards_per_treasure, gauge=self.gauge,
                     swim_cost=1 if self.divers else 2)

    @property
    def knobs(self) -> set[str]:
        """The knobs this setting turns away from the rulebook."""
        return ({"gauge"} if self.gauge != FULL_GAUGE else set()) | (
            {"cards"} if self.cards_per_treasure != 2 else set()) | ({"divers"} if self.divers else set())

    @property
    def changes(self) -> int:
        gauge_changes = len(set(self.gauge) ^ set(FULL_GAUGE))
        return gauge_changes + abs(self.cards_per_treasure - 2) + int(self.divers)

    def allowed(self, band: tuple[float, float], normal: tuple[float, float]) -> bool:
        """May this setting serve a level of `band`? A variant is never used against its label."""
        return not self.divers or divers_allowed(band, normal)

    def describe(self) -> str:
        """The change from the rulebook in words a designer can print on a card."""
        parts = []
        if self.cards_per_treasure != 2:
            n = self.cards_per_treasure
            parts.append(f"a treasure takes {n} card{'s' if n != 1 else ''} of its suit "
                         f"({n + 1} of any suits when short of the suit)")
        removed = [c for c in FULL_GAUGE if c not in self.gauge]
        added = [c for c in self.gauge if c not in FULL_GAUGE]
        if removed:
            parts.append("take " + ", ".join(pretty(c) for c in removed) + " off the gauge")
        if added:
            parts.append("add " + ", ".join(pretty(c) for c in added) + " at the bottom of the gauge")
        if self.divers:
            parts.append("Divers (swimming costs 1 action)")
        return "; ".join(parts) if parts else "the rulebook's rules"


PRINTED = Setting(2, FULL_GAUGE, False)  # the rulebook's own setting


def candidate_settings(changes: int, knobs: tuple[str, ...] = KNOBS) -> list[Setting]:
    """Every setting with exactly `changes` changes from the rulebook, turning only `knobs`."""
    out = []
    cpts = (1, 2, 3) if "cards" in knobs else (2,)
    for cpt, divers in itertools.product(cpts, (False, True) if "divers" in knobs else (False,)):
        rest = changes - abs(cpt - 2) - int(divers)
        if rest < 0:
            continue
        for add_5d in (False, True) if "gauge" in knobs else (False,):
            k = rest - int(add_5d)
            if k and "gauge" not in knobs:
                continue
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


# --- a ladder's level rules and per-player-count adjustments (gauges) ------------------------------


def ladder_gauges(max_changes: int = LADDER_GAUGE_CHANGES) -> list[tuple[str, ...]]:
    """Every gauge a player count may use: the rulebook's, with up to `max_changes` cards taken
    off or 5♦ added."""
    out = []
    for k in range(max_changes + 1):
        for s in candidate_settings(k, ("gauge",)):
            out.append(s.gauge)
    return out


def adjustments(knobs: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The adjustments a player count may make to a level's rule: gauges, when the gauge is a knob."""
    return ladder_gauges() if "gauge" in knobs else [FULL_GAUGE]


def deeper_adjustments() -> list[tuple[str, ...]]:
    """One gauge card more than `ladder_gauges` allows: tried for a player count out of reach."""
    return [s.gauge for s in candidate_settings(LADDER_GAUGE_CHANGES + 1, ("gauge",))]


def adjustment_changes(gauge: tuple[str, ...]) -> int:
    return Setting(2, tuple(gauge), False).changes


def gauge_change_text(gauge: tuple[str, ...]) -> str:
    text = Setting(2, tuple(gauge), False).describe()
    return "the printed gauge" if text == "the rulebook's rules" else text


def adjustment_key(gauge: tuple[str, ...]) -> tuple:
    """Among gauges that fit equally well: fewer changes from the printed gauge first, then the
    cards in rank order (so that a tie is broken the same way by anyone who checks)."""
    return adjustment_changes(gauge), tuple(ALL_GAUGE_CARDS.index(c) for c in gauge)


@dataclass(frozen=True)
class LevelRule:
    """What a level changes for every player count (the gauge adjustment aside)."""

    cards_per_treasure: int = 2
    divers: bool = False

    def setting(self, gauge: tuple[str, ...]) -> Setting:
        return Setting(self.cards_per_treasure, tuple(gauge), self.divers)

    @property
    def changes(self) -> int:
        return abs(self.cards_per_treasure - 2) + int(self.divers)

    def describe(self) -> str:
        text = Setting(self.cards_per_treasure, FULL_GAUGE, self.divers).describe()
        return "no other change" if text == "the rulebook's rules" else text

    def columns(self) -> dict:
        """The rule as the columns of the calibration's table of candidates."""
        return {"cards_per_treasure": self.cards_per_treasure, "divers": self.divers}


def level_rules(knobs: tuple[str, ...], band: tuple[float, float], normal: tuple[float, float]) -> list[LevelRule]:
    """Every level rule the knobs allow for a level of `band` (Divers only above Normal)."""
    return [LevelRule(c, d) for c in ((1, 2, 3) if "cards" in knobs else (2,))
            for d in ((False, True) if "divers" in knobs and divers_allowed(band, normal) else (False,))]


def rules_text(record: dict) -> str:
    """A setting's rules (Rules.as_record) in a few words, for a terminal table."""
    n = record["cards_per_treasure"]
    cards = f"{n} card{'s' if n != 1 else ''}"
    return f"{cards} a treasure, swim {record['swim_cost']}, gauge {gauge_name(record['gauge'])}"


# --- the rulebook's words -----------------------------------------------------------------------

def changed_sentences(rules: Rules) -> list[str]:
    """The rulebook's sentences these rules change, rewritten for them (none for the printed
    rules): the gauge of the set-up (R3) with the water's first level, the clock it gives (R14),
    the card the island sinks on, the cards a raise takes with the short-of-a-suit rule (R12), a
    swim's cost (R8) and the actions of a turn (R6)."""
    printed = Rules(players=rules.players)
    out = []
    if rules.gauge != printed.gauge:
        cards = [pretty(c) for c in reversed(rules.gauge)]  # bottom first, as the set-up stacks them
        stack = (f"{cards[0]} at the bottom, then {', '.join(cards[1:-1])} and {cards[-1]} on top"
                 if len(cards) > 2 else " under ".join(reversed(cards)))
        out.append(f"Set-up, water gauge: stack these {len(cards)} cards face up, the lowest on top: {stack}. "
                   f"The water starts at level {rank_of(rules.gauge[0])}.")
        turns = len(floods_per_turn(rules.gauge))
        out.append(f"The budget: this gauge lets the island take {rules.max_floods} floods, which is {turns} turns "
                   f"and {turns * rules.actions_per_turn} actions for the team; take off by turn {turns}.")
        if rules.gauge[-1] != printed.gauge[-1]:
            out.append(f"End of the game: you lose when the water has to rise while the gauge shows its last "
                       f"card, {pretty(rules.gauge[-1])} (not {pretty(printed.gauge[-1])}).")
    if rules.cards_per_treasure != printed.cards_per_treasure:
        n = rules.cards_per_treasure
        out.append(f"Raise a treasure: discard {n} salvaged card{'s' if n != 1 else ''} of the King's suit. "
                   f"Short of a suit: raise it with any {n + 1} salvaged cards.")
    if rules.swim_cost != printed.swim_cost:
        n = rules.swim_cost
        out.append(f"Swim: costs {n} action{'s' if n != 1 else ''}"
                   + (" (the Divers variant)." if n == 1 else "."))
    if rules.actions_per_turn != printed.actions_per_turn:
        out.append(f"Your turn: take up to {rules.actions_per_turn} actions.")
    return out


# --- the difficulty card (experiments/card.py) ------------------------------------------------------

CARD_TITLE = "Island Escape - difficulty levels"
CARD_GAUGE = ALL_GAUGE_CARDS  # the gauge drawn as cards, top first: the printed gauge's solid, 5♦ dashed
CARD_SOLO_NOTE = "Playing alone: take two pawns and play as two players."  # R5
CARD_EXTRA_NOTE = ("Dashed: 5♦ is not in the printed gauge; where it is marked, add it at the bottom. The island "
                   "then sinks when the water must rise while 5♦ shows.")  # R14: the last card ends the game


def card_face(code: str) -> tuple[str, bool]:
    """A gauge card as the card prints it: its face ("A♣") and whether it is red."""
    return pretty(code), code[-1] in ("D", "H")
