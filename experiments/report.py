"""The difficulty report: reports/difficulty.md, its figures and reports/difficulty.json.

Everything comes from one committed study definition (experiments/studies/difficulty.toml) and
fixed seeds, so the committed report is exactly what the committed code produces: no times,
speeds or dates go into it. The study names its games: the game the report designs levels for
(`game`, a game with a design space, `Game.design`), the game its levels are anchored on
(`anchor.game`) and the game whose printed ladder it measures (`ladder.game`, games with printed
levels); every rule, player and word of a game comes from its Game object.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from experiments import rulebook, scale, strength
from experiments.calibrate import (
    ANCHOR_GOAL,
    ANCHOR_TOP,
    DEFAULT_BANDS,
    LEVELS,
    RARE,
    AnchoredLadder,
    Calibration,
    Ladder,
    anchored_ladder,
    calibrate,
    games_judged,
    keep_measures,
    ladder,
    no_easier,
    parse_knobs,
)
from experiments.plots import CAUSE_COLOURS, loss_causes, loss_hazard_grid, policy_ladder
from experiments.runner import wilson_interval
from experiments.skill import skill_section
from experiments.sweep import SweepError, load_config, read_toml, run_sweep, summarize_cell
from policies.game import DEFAULT_GAME, GAMES, counted
from policies.game import game as game_named

STUDY_KEYS = {"name", "game", "sweep", "policy", "seed", "calibrate", "rulebook", "skill", "ladder", "anchor"}
ANCHOR_KEYS = {"game", "games", "screen_games", "search_screen_games", "top"}
SKILL_KEYS = {"games", "search_games"}
CALIBRATE_KEYS = {"screen_games", "confirm_games", "max_changes", "other_games", "validate_games", "players",
                  "knobs"}
RULEBOOK_KEYS = {"games", "policies"}
LADDER_KEYS = {"game", "games", "search_games", "search_levels", "policies"}


@dataclass
class Study:
    path: str
    sweep: str
    policy: str
    seed: int
    calibrate: dict
    rulebook: dict
    skill: dict  # the "Who finds it easy" section: games per skill, games per search
    ladder: dict = field(default_factory=dict)  # a printed ladder's page (reports/<game>.md) and its section
    anchor: dict = field(default_factory=dict)  # the levels to print: the game anchored on, games per skill
    game: str = DEFAULT_GAME  # the game the report designs levels for

    @property
    def ladder_game(self) -> str | None:
        """The game whose printed ladder is measured: the ladder's own, else the anchor's."""
        return self.ladder.get("game", self.anchor.get("game")) if self.ladder else None


def _printed_levels_game(path: str, where: str, name) -> object:
    """The game `name` if it has printed levels; SweepError naming `where` otherwise."""
    if name not in GAMES or not game_named(name).levels:
        raise SweepError(f"{path}: {where}: {name!r} is not a game with printed levels")
    return game_named(name)


def load_study(path: str | Path) -> Study:
    path = str(path)
    data = read_toml(path)
    for key in data:
        if key not in STUDY_KEYS:
            raise SweepError(f"{path}: {key}: unknown key (a study has {', '.join(sorted(STUDY_KEYS))})")
    for section, allowed in (("calibrate", CALIBRATE_KEYS), ("rulebook", RULEBOOK_KEYS), ("skill", SKILL_KEYS),
                             ("ladder", LADDER_KEYS), ("anchor", ANCHOR_KEYS)):
        for key in data.get(section, {}):
            if key not in allowed:
                raise SweepError(f"{path}: {section}.{key}: unknown key")
    name = data.get("game", DEFAULT_GAME)
    if name not in GAMES or game_named(name).design is None:
        raise SweepError(f"{path}: game: {name!r} is not a game with a design space (choose from "
                         f"{', '.join(g for g in GAMES if game_named(g).design is not None)})")
    designed = game_named(name)
    known = set(designed.policy_names())
    policy = data.get("policy", "expert")
    if policy not in known or policy in designed.unfair_policies():
        raise SweepError(f"{path}: policy: {policy!r} is not a registered fair policy")
    for p in data.get("rulebook", {}).get("policies", []):
        if p not in known:
            raise SweepError(f"{path}: rulebook.policies: unknown policy {p!r}")
    anchor = dict(data.get("anchor", {}))
    if anchor:
        _printed_levels_game(path, "anchor.game", anchor.get("game"))
        for key in ("games", "search_games"):
            if key in anchor and (not isinstance(anchor[key], int) or anchor[key] < 10):
                raise SweepError(f"{path}: anchor.{key}: a whole number of games, at least 10")
    measured = dict(data.get("ladder", {}))
    if measured:
        printed = _printed_levels_game(path, "ladder.game", measured.get("game", anchor.get("game")))
        for p in measured.get("policies", []):
            if p not in printed.policy_names():
                raise SweepError(f"{path}: ladder.policies: unknown policy {p!r}")
        for key in ("games", "search_games"):
            if key in measured and (not isinstance(measured[key], int) or measured[key] < 1):
                raise SweepError(f"{path}: ladder.{key}: a whole number of games, at least 1")
        levels = measured.get("search_levels", list(printed.levels))
        if not isinstance(levels, list) or not levels or any(lv not in printed.levels for lv in levels):
            raise SweepError(f"{path}: ladder.search_levels: a list of levels from "
                             f"{', '.join(printed.levels)}, not {levels!r}")
    return Study(path, data.get("sweep", "experiments/configs/gauge-by-players.toml"), policy,
                 int(data.get("seed", 2026)), dict(data.get("calibrate", {})), dict(data.get("rulebook", {})),
                 dict(data.get("skill", {})), measured, anchor, name)


def _pct(rate: float) -> str:
    return f"{100 * rate:.1f}%"


def _ci(ci) -> str:
    return f"{100 * ci[0]:.1f}-{100 * ci[1]:.1f}%"


def rules_text(rules: dict, game=None) -> str:
    """A setting's rules (Rules.as_record) as the report's tables word them."""
    game = game if game is not None else game_named()
    swim = "Divers: swimming costs 1 action" if rules["swim_cost"] == 1 else "swimming costs 2 actions"
    cpt = rules["cards_per_treasure"]
    gauge = game.value_text("gauge", " ".join(rules["gauge"]))
    return f"{cpt} card{'s' if cpt != 1 else ''} a treasure; gauge {gauge}; {swim}"


SOLO_NOTE = ("A solo game is played with two pawns exactly like a two-player game (R5), so the 1-player "
             "results are the 2-player games: every table shows them once, as \"1-2\".")
SHORT_NOTE = ("*When short of the suit*: the rulebook's \"Short of a suit\" rule lets a treasure be raised with "
              "one card more than usual, of any suits, once too few cards of its King's suit are left on the "
              "island and in the salvage together; with 3 cards a treasure that means any 4 salvaged cards, "
              "with 1 card a treasure any 2.")


def merge_solo(rows: list[dict]) -> list[tuple[str, dict]]:
    """(players label, row) with the 1-player row folded into the 2-player one (R5: same games)."""
    keys = {(r.get("level"), r["players"]) for r in rows}
    out = []
    for r in rows:
        if r["players"] == 1 and (r.get("level"), 2) in keys:
            continue
        label = "1-2" if r["players"] == 2 and (r.get("level"), 1) in keys else str(r["players"])
        out.append((label, r))
    return out


def player_counts_text(label: str) -> str:
    return {"1-2": "1 or 2 players", "1": "1 player"}.get(label, f"{label} players")


def verdict(rate: float, bands: dict[str, tuple[float, float]]) -> str:
    """Where a win rate falls among the bands, in words."""
    for level, (lo, hi) in bands.items():
        if lo <= rate <= hi:
            return f"{'an' if level[0] in 'aeiou' else 'a'} {level.capitalize()} game"
    ordered = sorted(bands.items(), key=lambda kv: -kv[1][1])
    top_level, (_, top_hi) = ordered[0]
    if rate > top_hi:
        return f"far too easy, above even {top_level.capitalize()} ({_band(bands[top_level])})"
    bottom_level, (bottom_lo, _) = ordered[-1]
    if rate < bottom_lo:
        return f"harder than {bottom_level.capitalize()} ({_band(bands[bottom_level])})"
    for (upper, (ulo, _)), (lower, (_, lhi)) in zip(ordered, ordered[1:], strict=False):
        if lhi < rate < ulo:
            return f"between {lower.capitalize()} and {upper.capitalize()}"
    return "outside the bands"


def _band(band: tuple[float, float]) -> str:
    return f"{100 * band[0]:.0f}-{100 * band[1]:.0f}% wins"


def headline(rows: dict[int, dict], policy: str, bands: dict[str, tuple[float, float]]) -> list[str]:
    """The finding first: one sentence per player count on the printed rules."""
    merged = merge_solo([{"players": n, **r} for n, r in rows.items()])
    lines = []
    for label, r in merged:
        lines.append(f"- **{player_counts_text(label).capitalize()}**: the printed rules win "
                     f"{_pct(r['win_rate'])} of games for `{policy}` ({_ci(r['ci95'])}): "
                     f"{verdict(r['win_rate'], bands)}.")
    return lines


def printed_rules_table(rows: dict[int, dict], bands: dict[str, tuple[float, float]], games: int) -> list[str]:
    lines = ["| players | win rate (95% CI) | games | where it falls |", "| --- | --- | --- | --- |"]
    for label, r in merge_solo([{"players": n, **r} for n, r in rows.items()]):
        lines.append(f"| {label} | {_pct(r['win_rate'])} ({_ci(r['ci95'])}) | {games:,} | "
                     f"{verdict(r['win_rate'], bands)} |")
    return lines


def ladder_table(lad: Ladder) -> str:
    """The rulebook-ready ladder as a Markdown table: a row per level, a column per player count."""
    counts = list(dict.fromkeys(p for lv in lad.levels for p in lv.rungs))
    labels = merge_solo([{"players": p} for p in counts])
    head = "| level | rule for every player count | " + " | ".join(
        f"{player_counts_text(lab)}: gauge" for lab, _ in labels) + " |"
    lines = [head, "| --- | --- |" + " --- |" * len(labels)]
    for lv in lad.levels:
        cells = []
        for _, row in labels:
            r = lv.rungs[row["players"]]
            lo, hi = r.result.ci
            lo_hi = f"{100 * lo:.1f}-{100 * hi:.1f}%"
            cells.append(f"{lad.design.gauge_change_text(r.gauge)}: {_pct(r.result.rate)} ({lo_hi}), "
                         f"{r.status()}")
        lines.append(f"| **{lv.level.capitalize()}** ({_band(lv.band)}) | {lv.rule.describe()} | "
                     + " | ".join(cells) + " |")
    return "\n".join(lines)


def ladder_section(lad: Ladder) -> list[str]:
    inside = sum(r.inside for lv in lad.levels for p, r in lv.rungs.items() if p != 1)
    total = sum(1 for lv in lad.levels for p in lv.rungs if p != 1)
    lines = ["### The rulebook-ready ladder for the expert", "",
             "One rule per level, the same at every table; the player count only adjusts the gauge (a card "
             "or two taken off, or 5♦ added at the bottom). Each cell is confirmed on its own games; a cell "
             "no adjustment brings into its band says how far it stays. "
             f"{inside} of {total} cells are confirmed inside their band.", "", ladder_table(lad), ""]
    return lines


# --- the levels for people: anchored on a printed game's playtested ladder --------------------------

def people_note(anchor: str, levels: list[str], top: str) -> str:
    """Why the anchored levels are the ones to print: `anchor` (a title) playtested `levels`."""
    named = ", ".join(lv.capitalize() for lv in levels[:-1]) + " and " + levels[-1].capitalize()
    return PEOPLE_NOTE.format(anchor=anchor, levels=named, top=top, goal=f"{100 * ANCHOR_GOAL:.0f}")


PEOPLE_NOTE = (
    "Print these levels. They are tied to people: {anchor}'s {levels} were playtested at real tables, and "
    "each level here wins about as often as its {anchor} level for the same simulated player, for every "
    "table from a first game to a seasoned group. A *first game* is the strength that wins {anchor}'s "
    "Novice about 40% of the time, the rate its designer aims at for an experienced group's first game "
    "(reports/scale.md); the span ends at `{top}`, the strongest player the study measures on every rate. "
    "The two games' players are the same points of one strength scale (a skill is the same share of "
    "departing decisions in both games, a search the same search), so a level that keeps to its anchor "
    "over the span should feel as hard as that level to those tables. A level *keeps to its anchor* while "
    "no point of the span wins more than {goal} points more or less than the anchor level. The bands of "
    "\"For one near-perfect player\" further down answer another question, how the lab's expert fares; "
    "they are not for print.")


def _rate_pair(ours: float, theirs: float) -> str:
    return f"{100 * ours:.0f}% / {100 * theirs:.0f}%"


def span_lines(lad: AnchoredLadder) -> list[str]:
    """Each player count's span in words: where a first game sits and what every point of the span
    wins at the anchor's levels."""
    anchor = game_named(lad.anchor_game).title
    rung_of = {r.span.players: (lv, r) for lv in lad.levels for r in lv.rungs.values()}
    lines = []
    for n, span in sorted(lad.spans.items()):
        by_level = {lv.anchor: r for lv in lad.levels for r in lv.rungs.values() if r.span.players == n}
        if n not in rung_of:
            continue
        first = ", ".join(f"{a.capitalize()} {100 * r.span.first_game_rate(r.anchor_rates):.0f}%"
                          for a, r in by_level.items())
        where = scale.name_at(span.first_game)
        if not span.reached:
            where = f"beyond {where}: even that wins Novice less than 40%"
        parts = [f"a first game sits at {span.first_game:.2f} on the scale ({where}; wins {first})"]
        for point, _ in span.points()[1:]:
            wins = ", ".join(f"{a.capitalize()} {100 * r.anchor_rates[point]:.0f}%" for a, r in by_level.items())
            parts.append(f"`{point}` wins {wins}")
        lines.append(f"- {anchor} with {n} players: " + "; ".join(parts) + ".")
    return lines


def _rule_words(rule: str) -> str:
    return "the printed rules" if rule == "no other change" else rule


def _gap_text(row: dict) -> str:
    lo, hi = row["gap_ci95"]
    return f"{100 * row['signed_gap']:+.1f} points ({100 * lo:+.1f} to {100 * hi:+.1f}) at {_point(row['gap_at'])}"


def _point(name: str) -> str:
    return name if " " in name else f"`{name}`"


def anchored_rows_table(lad: AnchoredLadder) -> list[str]:
    """Per level and player count: both games' win rates at every point of the span, the largest
    gap with its 95% interval and where it lies."""
    rows = merge_solo(lad.to_json())
    lines = ["| level | players | gauge (and a count's own rule) | a first game | above it | "
             f"largest gap (95% interval) | within {100 * ANCHOR_GOAL:.0f} points |",
             "| --- | --- | --- | ---: | --- | --- | --- |"]
    for label, r in rows:
        above = "; ".join(f"`{w}` {_rate_pair(r['win_rates'][w], r['anchor_win_rates'][w])}"
                          for w, x in zip(r["span"]["players_measured"], r["span"]["positions"], strict=True)
                          if x > r["span"]["first_game"] + 1e-9)
        first = _rate_pair(r["first_game_rate"], r["anchor_first_game_rate"])
        own = f"{_rule_words(r['level_rule'])} (its own rule); " if r["own_rule"] else ""
        lines.append(f"| {r['level'].capitalize()} ({r['anchor'].capitalize()}) | {label} | {own}{r['gauge_change']} | "
                     f"{first} | {above} | {_gap_text(r)} | {'yes' if r['keeps_to_anchor'] else 'no'} |")
    return lines


def strength_shift(report_dir: Path, game_title: str, anchor_title: str, top: str) -> list[str]:
    """How the levels move for tables stronger than the span's end (`top`, lookahead@1), from the
    strength curves (reports/strength.json): what each game's search gains over `top` at the
    largest budget both games' curves reach on every setting, and how far each curve goes on."""
    from experiments.scale import budget_at

    data = strength.read_results(report_dir) or {}
    curves = {t: {s: {pt["player"]: pt for pt in c.get("points", [])} for s, c in data.get(t, {}).items()}
              for t in (game_title, anchor_title)}
    if not all(curves.values()) or any(top not in pts for c in curves.values() for pts in c.values()):
        return [f"Tables stronger than `{top}`: not measured yet (`make strength` writes the strength curves this "
                "paragraph reads)."]
    search = top.partition("@")[0]
    reached = [max(int(p.partition("@")[2] or 0) for p in pts if p.startswith(search + "@"))
               for c in curves.values() for pts in c.values()]
    common = f"{search}@{min(reached)}"
    first = budget_at(2)
    if min(reached) <= first:
        return [f"Tables stronger than `{top}`: the strength curves (reports/strength.md) reach no further on every "
                "setting."]
    gains = {t: [(s, pts[common]["rate"] - pts[top]["rate"]) for s, pts in c.items()] for t, c in curves.items()}
    mean = {t: sum(g for _, g in v) / len(v) for t, v in gains.items()}
    shift = mean[game_title] - mean[anchor_title]
    said = "; ".join(f"{t} " + ", ".join(f"{100 * g:+.1f} ({s})" for s, g in v) for t, v in gains.items())
    far = "; ".join(f"{t}: " + ", ".join(
        f"`{list(pts)[-1]}` {100 * (list(pts.values())[-1]['rate'] - pts[top]['rate']):+.1f} ({s})"
        for s, pts in c.items()) for t, c in curves.items())
    way = "more" if shift > 0 else "less"
    return [f"Tables stronger than `{top}` exist; the study cannot afford them on every rate, and the strength "
            f"curves (reports/strength.md) say how the levels move for them. At `{common}`, the strongest search "
            f"both games' curves reach on every setting, the search gains over `{top}` (points): {said}. For such "
            f"tables a level would win about {100 * abs(shift):.0f} points {way}, against its anchor, than at "
            f"`{top}` (the mean of {game_title}'s gains minus {anchor_title}'s). Further out, each curve's "
            f"strongest point over `{top}`: {far}."]


def level_ranges(lad: AnchoredLadder) -> dict[int, dict[str, str]]:
    """The card's ranges: per player count, each level's wins from a first game to the span's end."""
    out: dict[int, dict[str, str]] = {}
    for lv in lad.levels:
        for p, r in lv.rungs.items():
            lo, hi = r.win_range
            out.setdefault(p, {})[lv.level] = f"{100 * lo:.0f}-{100 * hi:.0f}%"
    return out


def must_know(lad: AnchoredLadder, printed: dict[int, dict], policy: str, expert: str) -> list[str]:
    """The report's first lines: what the designer must know before printing the levels."""
    rows = merge_solo(lad.to_json())
    lines = ["**Before you print:**", ""]
    missing = [(label, r) for label, r in rows if not r["keeps_to_anchor"]]
    anchor = game_named(lad.anchor_game).title
    if missing:
        lines.append(f"- {len(missing)} of {len(rows)} cells leave their anchor by more than "
                     f"{100 * ANCHOR_GOAL:.0f} points somewhere over the span: " + "; ".join(
                         f"{r['level'].capitalize()} for {player_counts_text(label)} "
                         f"({'easier' if r['signed_gap'] > 0 else 'harder'} than {anchor}'s "
                         f"{r['anchor'].capitalize()}: {_gap_text(r)})" for label, r in missing) + ".")
    else:
        lines.append(f"- Every level keeps within {100 * ANCHOR_GOAL:.0f} points of its anchor over the whole span.")
    own = [(label, r) for label, r in rows if r["own_rule"]]
    if own:
        lines.append("- A level's rule is not the same at every player count: " + "; ".join(
            f"{r['level'].capitalize()} for {player_counts_text(label)} plays {_rule_words(r['level_rule'])}, "
            f"because the level's rule leaves {anchor}'s {r['anchor'].capitalize()} by "
            f"{100 * r['shared_rule_gap']:+.1f} points there" for label, r in own)
                     + ". The card and the rulebook sentences say so.")
    def below_printed(r):  # the level's interval wholly below the printed rules' for the expert
        n, rate = lad.games, r["win_rates"][expert]
        return wilson_interval(round(rate * n), n)[1] < printed[r["players"]]["ci95"][0]

    harder = [(label, r) for label, r in rows if r["level"] == LEVELS[0] and expert in r["win_rates"]
              and below_printed(r)]
    if harder:
        lines.append(f"- {LEVELS[0].capitalize()} is harder than the printed rules for the lab's `{policy}`: "
                     + "; ".join(f"{player_counts_text(label)} {_pct(r['win_rates'][expert])} against "
                                 f"{_pct(printed[r['players']]['win_rate'])}" for label, r in harder)
                     + ". The printed rules play easier than these levels: a table that wins them too easily "
                     "wants Normal or Hard, not Easy.")
    ranges = level_ranges(lad)
    shared = [(p, lv) for p, by in ranges.items() for lv in by
              if list(by.values()).count(by[lv]) > 1]
    if shared:
        lines.append("- Levels sharing a range on the card: " + ", ".join(
            f"{lv.capitalize()} for {p} player{'s' if p > 1 else ''}" for p, lv in shared) + ".")
    unordered = [(label, r) for label, r in rows if not _ordered_after(lad, r)]
    if unordered:
        lines.append("- A harder level wins more often than the level before for some player of the span: " + ", ".join(
            f"{r['level'].capitalize()} for {player_counts_text(label)}" for label, r in unordered) + ".")
    return lines + [""]


def _ordered_after(lad: AnchoredLadder, row: dict) -> bool:
    """Whether the level of `row` wins no more often than the level before for every player of the
    span (confirmed rates)."""
    names = [lv.level for lv in lad.levels]
    i = names.index(row["level"])
    if i == 0:
        return True
    before = lad.levels[i - 1].rungs[row["players"]].rates
    return all(no_easier(row["win_rates"][w], before[w], lad.games) for w in row["win_rates"])


def rulebook_text_section(lad: AnchoredLadder) -> list[str]:
    """For each level, the rulebook's sentences that change, written out per player count (the
    counts that share the rules share the sentences)."""
    lines = ["### What the rulebook says at each level", "",
             "The sentences of the rulebook each level changes, ready to print (solo is played as two players, "
             "R5):", ""]
    anchor_title = game_named(lad.anchor_game).title
    for lv in lad.levels:
        groups: dict[tuple, list[int]] = {}
        for p, r in lv.rungs.items():
            groups.setdefault(tuple(lad.design.changed_sentences(lv.rule_of(p).setting(r.gauge).rules(p))),
                              []).append(p)
        lines.append(f"**{lv.level.capitalize()}** (plays like {anchor_title}'s {lv.anchor.capitalize()}):")
        lines.append("")
        for sentences, counts in groups.items():
            who = ", ".join(str(p) for p in counts[:-1]) + (" or " if len(counts) > 1 else "") + str(counts[-1])
            lines.append(f"- {who} player{'s' if counts != [1] else ''}: "
                         + (" ".join(sentences) if sentences else "the printed rules, unchanged."))
        lines.append("")
    return lines


def printed_level_recs(lad: AnchoredLadder, policy: str) -> list[dict]:
    """The levels to print as the records the other sections take (rules, change, players, level),
    played by `policy`."""
    out = []
    for row in lad.to_json():
        rules = row["rules"]
        rule = ", ".join(t for t in (counted(rules["cards_per_treasure"], "card") + " a treasure"
                                     if rules["cards_per_treasure"] != 2 else "",
                                     "Divers" if rules["swim_cost"] == 1 else "") if t)
        change = "; ".join(t for t in (rule, row["gauge_change"]) if t and t != "the printed gauge")
        change = change or "the rulebook's rules"
        out.append({"players": row["players"], "level": row["level"], "rules": row["rules"], "policy": policy,
                    "change": change})
    return out


def anchored_section(lad: AnchoredLadder, card: Path | None, report_dir: Path, game: str | None = None) -> list[str]:
    counts = list(dict.fromkeys(p for lv in lad.levels for p in lv.rungs))
    labels = merge_solo([{"players": p} for p in counts])
    game, anchor = game_named(game), game_named(lad.anchor_game)
    top = next(iter(lad.spans.values())).who[-1]
    lines = ["## The levels to print", "", people_note(anchor.title, [lv.anchor for lv in lad.levels], top), "",
             "| level | plays like | rule (for every player count unless one has its own) | " + " | ".join(
                 player_counts_text(lab) for lab, _ in labels) + " |",
             "| --- | --- | --- |" + " --- |" * len(labels)]
    for lv in lad.levels:
        cells = []
        for _, row in labels:
            r = lv.rungs[row["players"]]
            lo, hi = r.win_range
            star = "" if r.keeps_to_anchor else f" (leaves its anchor by {100 * abs(r.largest_gap[0]):.0f} points)"
            own = f"{_rule_words(r.rule.describe())} (its own rule); " if r.rule is not None else ""
            cells.append(f"{own}{lad.design.gauge_change_text(r.gauge)}: wins {100 * lo:.0f}-{100 * hi:.0f}%{star}")
        lines.append(f"| **{lv.level.capitalize()}** | {anchor.title}'s {lv.anchor.capitalize()} | "
                     f"{lv.rule.describe()} | " + " | ".join(cells) + " |")
    cells = [(lv, label, lv.rungs[row["players"]]) for lv in lad.levels for label, row in labels]
    keep = sum(r.keeps_to_anchor for _, _, r in cells)
    lines += ["", f"Wins: from a first game to `{top}`, on {lad.games:,} fresh games a rate (seed {lad.confirm_seed}; "
              f"{anchor.title}'s on {lad.games:,} games of seed {lad.seed}). {keep} of {len(cells)} cells keep to "
              "their anchor over the whole span. Where the span lies at each player count:", ""]
    lines += span_lines(lad) + [""]
    lines += ["Each cell's rates, as *" + game.title + " / " + anchor.title + "* for the same player: the first "
              "game's read between the two measured points around it, then every measured point above it; the "
              "largest gap is the game's rate minus the anchor's where they are furthest apart, with its 95% "
              "interval. Each level is another setting than the level before and wins no more often than it for "
              f"any player of the span (but by noise where both win under {100 * RARE:.0f}%).", ""]
    lines += anchored_rows_table(lad) + [""]
    loose = [lv.level.capitalize() for lv in lad.levels if not lv.harder_than_before]
    if loose:
        lines += [f"{', '.join(loose)}: no rule the study's knobs allow is harder than the level before at every "
                  "player count; shown is the closest to its anchor regardless.", ""]
    lines += strength_shift(report_dir, game.title, anchor.title, top) + [""]
    lines += rulebook_text_section(lad)
    if card is not None:
        lines += [f"![the difficulty card]({card.relative_to(report_dir)})", "",
                  f"The card above (also as [PDF]({card.with_suffix('.pdf').relative_to(report_dir)})) is these "
                  "levels for the rulebook: the gauge as cards, each level's marks per player count, what a table "
                  "wins from a first game to a seasoned group.", ""]
    lines += ["### Levels for your own table", "",
              "A table that plays better or worse than most gets levels of its own: `island-escape calibrate "
              "--skill 0.7` searches Easy, Normal and Hard for a table of that skill, and `island-escape "
              "calibrate --table games.csv` first estimates the table's skill from its logged games, of "
              f"{game.title} or of {anchor.title} at its printed levels (a CSV row a game; the README's "
              "`calibrate --table` gives the columns, `examples/playtest-log.csv` is one), then calibrates at "
              "that skill and plays each level again at the two ends of the skill's interval. The bands there "
              "are the win rates a table wants; the levels above are the ones to print for everyone.", ""]
    return lines


def fewest_changes_section(cal: Calibration, recs: list[dict], game=None) -> list[str]:
    lines = ["### Fewest changes, per player count", "",
             "For each player count and level, the setting with the fewest changes from the "
             "rulebook whose interval lies inside the band. It may use a different kind of change for each "
             "player count. Divers (the rulebook's *easier* variant) only serves Easy. Bands: "
             + ", ".join(f"{lvl.capitalize()} {_band(b)}" for lvl, b in DEFAULT_BANDS.items()) + ".", ""]
    for level in LEVELS:
        shared = cal.shared.get(level)
        if shared is not None:
            lines.append(f"- **{level.capitalize()}**, every player count: {shared.describe()}.")
            continue
        per = merge_solo([r for r in recs if r["level"] == level])
        if not per:
            lines.append(f"- **{level.capitalize()}**: no setting within the searched changes lands in the band.")
            continue
        parts = [f"{player_counts_text(label)}: {r['change']}" for label, r in per]
        lines.append(f"- **{level.capitalize()}** - " + "; ".join(parts) + ".")
    lines += ["", "| level | players | rules | change from the rulebook | win rate (95% CI) | "
                  "re-simulated, new seed |", "| --- | --- | --- | --- | --- | --- |"]
    for label, r in merge_solo(recs):
        v = r.get("validation", {})
        check = (f"{_pct(v['win_rate'])} ({_ci(v['ci95'])}) {'in band' if v['inside_band'] else 'OUT of band'}"
                 if v else "-")
        lines.append(f"| {r['level']} | {label} | {rules_text(r['rules'], game)} | {r['change']} | "
                     f"{_pct(r['win_rate'])} ({_ci(r['ci95'])}), {r['games']:,} games | {check} |")
    if cal.missing:
        lines += ["", "Not confirmed within the searched changes, with the nearest candidates:", ""]
        for p, lvl in cal.missing:
            if p == 1 and (2, lvl) in cal.missing:
                continue
            for n in cal.near.get((p, lvl), []):
                lines.append(f"- {lvl}, {player_counts_text('1-2' if p == 2 else str(p))}: {n.setting.describe()}: "
                             f"{_pct(n.result.rate)} ({_ci(n.result.ci)}), {n.result.games:,} games; {n.verdict()}")
    return lines


def policies_section(recs: list[dict], figures: Path, report_dir: Path) -> list[str]:
    rows = []
    for players, r in merge_solo(recs):
        label = f"{r['level']} {players}p"
        rows.append({"label": label, "policy": r["policy"], "win_rate": r["win_rate"],
                     "ci_low": r["ci95"][0], "ci_high": r["ci95"][1]})
        for name, m in r["other_policies"].items():
            rows.append({"label": label, "policy": name, "win_rate": m["win_rate"], "ci_low": m["ci95"][0],
                         "ci_high": m["ci95"][1]})
    if not rows:
        return []
    df = pd.DataFrame(rows)
    path = policy_ladder(df, figures / "policy_ladder.png")
    policies = list(dict.fromkeys(df["policy"]))
    lines = ["## Weaker and stronger players on these rules", "",
             f"![policy ladder]({path.relative_to(report_dir)})", "",
             "| setting | " + " | ".join(policies) + " |", "| --- |" + " --- |" * len(policies)]
    for label, part in df.groupby("label", sort=False):
        cells = []
        for p in policies:
            row = part[part.policy == p]
            cells.append(_pct(row.win_rate.iloc[0]) if len(row) else "-")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    # Does the order of difficulty hold for every policy, per player count?
    lines.append("")
    for players in sorted({label for label, _ in merge_solo(recs)}):
        per = {r["level"]: r for label, r in merge_solo(recs) if label == players}
        if len(per) < 2:
            continue
        ok = []
        for p in policies:
            rates = [(per[lvl]["win_rate"] if per[lvl]["policy"] == p else per[lvl]["other_policies"].get(p, {})
                      .get("win_rate")) for lvl in LEVELS if lvl in per]
            if None in rates:
                continue
            ok.append((p, all(a >= b for a, b in zip(rates, rates[1:], strict=False))))
        never = {p for p in policies if all(
            (r["win_rate"] if r["policy"] == p else r["other_policies"].get(p, {}).get("win_rate", 0)) == 0
            for r in per.values())}
        holds = [p for p, good in ok if good and p not in never]
        broken = [p for p, good in ok if not good]
        text = (f"{player_counts_text(players)}: Easy ≥ Normal ≥ Hard holds for " + (", ".join(holds) or "no policy"))
        if broken:
            text += f"; not for {', '.join(broken)}"
        if never:
            text += f"; {', '.join(sorted(never))} never win{'s' if len(never) == 1 else ''}"
        lines.append(f"- {text}.")
    return lines


def near_misses(df: pd.DataFrame) -> dict:
    """How close the lost games came: the share of losses with all four treasures raised (lost on
    the way home) and with three."""
    lost = df[~df["won"]]
    n = len(lost)
    return {"losses": n, "four": float((lost["treasures_raised"] == 4).mean()) if n else 0.0,
            "three": float((lost["treasures_raised"] == 3).mean()) if n else 0.0}


def causes_section(recs: list[dict], seed: int, figures: Path, report_dir: Path, games: int,
                   threads: int | None, settings: str = "the recommended settings", game=None) -> list[str]:
    from experiments.sweep import Cell

    game = game if game is not None else game_named()
    Setting = game.design.Setting
    merged = merge_solo(recs)
    rows, frames = [], {}
    for label, r in merged:
        rules_d = r["rules"]
        s = Setting(rules_d["cards_per_treasure"], tuple(rules_d["gauge"]), rules_d["swim_cost"] == 1)
        rules = s.rules(r["players"])
        df = game.results_frame(game.run_games(rules, r["policy"], games, seed, threads=threads), rules, r["policy"],
                                seed)
        row = summarize_cell(Cell(rules, r["policy"], r["level"]), df)
        row["label"] = f"{r['level']} {label}p: {r['change']}"
        rows.append(row)
        frames[(r["level"], label)] = df
    if not rows:
        return []
    summary = pd.DataFrame(rows)
    summary["variant"] = [r["level"] for _, r in merged]
    policy = recs[0]["policy"]
    p1 = loss_causes(summary, figures / "loss_causes_recommended.png", labels=list(summary["label"]),
                     title=f"How {policy}'s games end on {settings}")
    p2 = loss_hazard_grid(frames, figures / "loss_hazard_recommended.png",
                          title=f"Loss hazard by level and player count ({policy}, {settings})")
    causes = list(CAUSE_COLOURS)
    lines = ["## Why games are lost", "",
             f"How {settings} end, played by `{policy}`, {games:,} games each (seed {seed}, the deals every "
             "setting of this report plays):", "",
             f"![how games end]({p1.relative_to(report_dir)})", "",
             "| level | players | win | " + " | ".join(causes) + " | mean turns |",
             "| --- | --- | --- |" + " --- |" * len(causes) + " --- |"]
    for (label, r), row in zip(merged, rows, strict=True):
        lines.append(f"| {r['level']} | {label} | {_pct(row['win_rate'])} | "
                     + " | ".join(_pct(row[f"loss_{c}"]) for c in causes) + f" | {row['mean_turns']:.1f} |")
    top = {c: sum(row[f"loss_{c}"] for row in rows) for c in causes}
    main = sorted(top, key=top.get, reverse=True)[:2]
    lines += ["", f"Across {settings} most losses are `{main[0]}`"
              + (f", then `{main[1]}`" if len(main) > 1 and top[main[1]] > 0 else "") + " (R18 causes).", "",
              "When in the game they come, one panel per setting (the share of games still running that are "
              "lost in each turn; the last turn's bar, the water clock running out, is cut off and labelled):", "",
              f"![loss hazard]({p2.relative_to(report_dir)})", ""]

    # Near misses: the printed rules and every recommended setting.
    lines += ["### Near misses", "",
              "How close the lost games came. A loss with all four treasures raised was lost on the way back "
              "to the helicopter: where that share is large, the escape is the hard part of the game, not "
              "the treasures.", "",
              "| setting | players | losses | all four treasures raised | three raised |",
              "| --- | --- | --- | --- | --- |"]
    printed = {}
    for label in dict.fromkeys(label for label, _ in merged):
        players = 2 if label == "1-2" else int(label)
        rules = game.rules(players=players)
        printed[label] = near_misses(game.results_frame(game.run_games(rules, policy, games, seed, threads=threads),
                                                        rules, policy, seed))
    for label, nm in printed.items():
        lines.append(f"| the printed rules | {label} | {nm['losses']:,} | {_pct(nm['four'])} | {_pct(nm['three'])} |")
    for (label, r), df in zip(merged, frames.values(), strict=True):
        nm = near_misses(df)
        lines.append(f"| {r['level']}: {r['change']} | {label} | {nm['losses']:,} | {_pct(nm['four'])} | "
                     f"{_pct(nm['three'])} |")
    return lines


def paired_section(recs: list[dict], seed: int, games: int, threads: int | None, game=None) -> list[str]:
    """Each recommendation against the rulebook's rules on the same games: a paired interval."""
    from experiments.sweep import paired_difference

    game = game if game is not None else game_named()

    lines = ["## How much each change moves the win rate", "",
             "Each recommended setting against the rulebook's rules for the same player count, both played "
             f"on the same {games:,} games (same islands, same flood orders). Pairing the games narrows the "
             "interval: the last column says how many times more games two independent runs would need for "
             "the same precision.", "",
             "| level | players | change | difference (paired 95% CI) | unpaired 95% CI | games saved |",
             "| --- | --- | --- | --- | --- | --- |"]
    base_cache: dict[int, object] = {}
    for label, r in merge_solo(recs):
        players = r["players"]
        if players not in base_cache:
            base_cache[players] = game.run_games(game.rules(players=players), r["policy"], games, seed,
                                                 threads=threads)
        if r["changes"] == 0:
            continue
        rules = game.rules(**r["rules"])
        won = game.run_games(rules, r["policy"], games, seed, threads=threads)[:, 0] == 0
        d = paired_difference(won, base_cache[players][:, 0] == 0)
        pci, uci = d["ci95"], d["unpaired_ci95"]
        lines.append(f"| {r['level']} | {label} | {r['change']} | {100 * d['difference']:+.1f} points "
                     f"({100 * pci[0]:+.1f} to {100 * pci[1]:+.1f}) | {100 * uci[0]:+.1f} to {100 * uci[1]:+.1f} | "
                     f"{d['games_ratio']:.1f}x |")
    return lines


def sweep_section(sweep_out: Path, report_dir: Path, figures: Path) -> list[str]:
    lines = ["## How the knobs move the win rate", ""]
    lines += ["The sweep takes the rulebook's gauge and takes cards off its top (the water starts higher) or "
              "adds 5♦ at the bottom; each gauge is named by its first and last card.", ""]
    for name, text in (("win_rate_by_gauge.png", "win rate by gauge"),
                       ("heatmap_win_rate.png", "win rate over cards per treasure and gauge")):
        src = sweep_out / "figures" / name
        if src.exists():
            dst = figures / f"sweep_{name}"
            dst.write_bytes(src.read_bytes())
            lines += [f"![{text}]({dst.relative_to(report_dir)})", ""]
    return lines


def build_report(study_path: str, report_dir: str | Path = "reports", out_dir: str | Path = "out/report",
                 threads: int | None = None, echo: Callable[[str], None] = print) -> list[dict]:
    """Run the study and write difficulty.md, difficulty.json, the card and the figures; returns
    the JSON (the fewest-changes recommendations, as `calibrate --json` prints them). Every win rate
    measured is kept in `out_dir`/measured.jsonl: run again after an interruption, the study takes
    those the same code measured and plays only the rest."""
    study = load_study(study_path)
    game = game_named(study.game)
    report_dir = Path(report_dir)
    figures = report_dir / "figures"
    figures.mkdir(parents=True, exist_ok=True)
    kept = keep_measures(Path(out_dir) / "measured.jsonl")
    try:
        return _build_report(study, game, report_dir, figures, out_dir, threads, echo, kept)
    finally:
        keep_measures(None)


def _build_report(study: Study, game, report_dir: Path, figures: Path, out_dir: str | Path, threads: int | None,
                  echo: Callable[[str], None], kept: int) -> list[dict]:
    from experiments.card import difficulty_card

    if kept:
        echo(f"resuming: {kept:,} win rates the same code measured are read from {Path(out_dir) / 'measured.jsonl'}")
    echo(f"sweep {study.sweep}")
    sweep_cfg = load_config(study.sweep)
    sweep = run_sweep(sweep_cfg, Path(out_dir) / "sweep", resume=True, threads=threads)
    echo(f"calibrating with {study.policy}")
    c = study.calibrate
    knobs = parse_knobs(c.get("knobs"), game) if c.get("knobs") else game.design.KNOBS
    players = c.get("players", [1, 2, 3, 4])
    cal = calibrate(players=players, policy=study.policy, seed=study.seed,
                    screen_games=c.get("screen_games", 1000), confirm_games=c.get("confirm_games", 8000),
                    max_changes=c.get("max_changes", 3), other_games=c.get("other_games", 4000),
                    validate_games=c.get("validate_games", 8000), threads=threads, echo=echo, knobs=knobs,
                    game=game)
    recs = [r.to_json() for r in cal.recommendations]
    (report_dir / "difficulty.json").write_text(json.dumps(recs, indent=2, ensure_ascii=False) + "\n")
    echo("the rulebook-ready ladder")
    lad = ladder(players=players, policy=study.policy, seed=study.seed, screen_games=c.get("screen_games", 1000),
                 confirm_games=c.get("confirm_games", 8000), knobs=knobs, threads=threads, echo=echo, game=game)
    (report_dir / "difficulty-ladder.json").write_text(json.dumps(lad.to_json(), indent=2, ensure_ascii=False)
                                                       + "\n")
    echo("checking the rulebook's numbers")
    rb_policies = study.rulebook.get("policies", [p for p in game.policy_names()
                                                  if p not in game.unfair_policies() | {"idle"}])
    if study.policy not in rb_policies:
        rb_policies = [*rb_policies, study.policy]
    rb_games = study.rulebook.get("games", 20_000)
    rb = rulebook.check(rb_policies, games=rb_games, seed=study.seed, threads=threads, game=game)
    printed = rb["players"][study.policy]
    alad, card, anchor = None, None, None
    if study.anchor:
        anchor = game_named(study.anchor["game"])
        echo(f"the levels to print: anchored on {anchor.title}'s")
        a = study.anchor
        alad = anchored_ladder(anchor, players, games=a.get("games", 2000), screen_games=a.get("screen_games", 1000),
                               search_screen_games=a.get("search_screen_games", 300), top=a.get("top", ANCHOR_TOP),
                               seed=study.seed, knobs=knobs, threads=threads, echo=echo, game=game)
        (report_dir / "difficulty-anchored.json").write_text(
            json.dumps(alad.to_json(), indent=2, ensure_ascii=False) + "\n")
        Path(out_dir).mkdir(parents=True, exist_ok=True)
        pd.DataFrame(alad.candidates).to_parquet(Path(out_dir) / "anchored-candidates.parquet")
        card = difficulty_card(alad, report_dir / "difficulty-card.png")

    md = [f"# {game.title}: which rules make Easy, Normal and Hard",
          "",
          f"*Generated by `make report` from `{study.path}` (seed {study.seed}); do not edit by hand.*",
          ""]
    if alad is not None:
        md += must_know(alad, printed, study.policy, scale.player_at(game, scale.EXPERT))
        md += anchored_section(alad, card, report_dir, game.name)
    md += ["## The printed rules", "",
           f"For the lab's `{study.policy}`, the strongest fair player fast enough for the whole study (it sees "
           "only what a table sees, R19; the search `lookahead` plays better but slower, see \"Who finds it "
           "easy\" for its measured speed), the rules as printed play:",
           ""]
    md += headline(printed, study.policy, DEFAULT_BANDS)
    md += ["", SOLO_NOTE, "", "Bands: " + ", ".join(f"{lvl.capitalize()} {_band(b)}"
                                                  for lvl, b in DEFAULT_BANDS.items()) + ".", ""]
    md += printed_rules_table(printed, DEFAULT_BANDS, rb_games)
    md += ["", "## For one near-perfect player", "",
           f"The bands below are win rates for `{study.policy}`, a player that makes almost no mistakes; a real "
           "table plays each of these levels harder than its label (\"Who finds it easy\" shows by how much). "
           + ("They answer how an expert table would fare; the levels to print are the anchored ones above."
              if alad is not None else "They answer how an expert table would fare."), ""]
    md += ladder_section(lad)
    md += fewest_changes_section(cal, recs, game)
    if any(r["rules"]["cards_per_treasure"] != 2 for r in recs) or any(
            lv.rule.cards_per_treasure != 2 for lv in lad.levels):
        md += ["", SHORT_NOTE]
    if study.skill:  # who finds it easy: players of every skill on these levels
        echo("playing the skill axis")
        md += [""] + skill_section(recs, dict(DEFAULT_BANDS), study.skill.get("games", 2000),
                                   study.skill.get("search_games", 0), study.seed, figures, report_dir, threads,
                                   judged_games=games_judged(study.policy), judge=study.policy, game=game)
    md += [""] + paired_section(recs, study.seed, c.get("other_games", 4000), threads, game)
    md += [""] + policies_section(recs, figures, report_dir)
    md += [""] + strength.report_section(report_dir)
    md += [""] + scale.report_section(report_dir)
    if alad is not None:  # why the levels to print are lost, played by the expert (skill 1)
        md += [""] + causes_section(printed_level_recs(alad, study.policy), study.seed, figures, report_dir,
                                    c.get("confirm_games", 8000), threads, settings="the levels to print", game=game)
    else:
        md += [""] + causes_section(recs, study.seed, figures, report_dir, c.get("confirm_games", 8000), threads,
                                    game=game)
    md += [""] + sweep_section(sweep.out, report_dir, figures)
    if study.ladder:  # a printed game's playtested ladder
        md += ladder_sections(study, recs, report_dir, Path(out_dir), threads, echo)
    md += ["## The rulebook's numbers, checked", "", rulebook.markdown(rb, game), ""]
    md += ["## How this was made", ""]
    if alad is not None:
        md += [f"- The levels to print: the span of tables at each player count runs from a first game (the point of "
               f"the strength scale winning {anchor.title}'s Novice 40% of the time, found by playing every point of "
               f"the scale there on {alad.games:,} games) to `lookahead@{a.get('top', ANCHOR_TOP)}`. For each level, "
               "every rule for all player counts (cards a treasure; Divers for Easy) with every gauge adjustment of "
               f"up to two cards per player count is screened by the span's skilled players ({alad.screen_games:,} "
               f"games each); the search plays {alad.search_screen_games:,} games on three gauges spread over the "
               "anchor's range and on the two its gain over the expert, read between them, puts closest; the rule "
               "and gauges with the smallest largest gap are then replayed by every player of the span on "
               f"{alad.games:,} fresh games. Where that rule leaves its anchor at a player count by more than "
               f"{100 * ANCHOR_GOAL:.0f} points, the closest other rule there is replayed on the same games and "
               f"taken if it comes closer by more than {100 * ANCHOR_GOAL:.0f} points, still harder than the level "
               f"before (`island-escape calibrate --anchor {anchor.name}`; every rate measured "
               f"is in `{Path(out_dir) / 'anchored-candidates.parquet'}`, the chosen rows in "
               "`reports/difficulty-anchored.json`)."]
    md += [f"- Policy for the expert's verdicts: `{study.policy}`; every fair policy is shown on the same rules. "
           "Policies decide from public information only (R19); `oracle` would read hidden cards and is "
           "never used for a recommendation. `simulate`, `sweep` and `compare` play the same policy by default.",
           f"- Fewest changes: every setting a table can lay out with one deck (1-3 cards per treasure, gauges "
           f"of A-5 of clubs and diamonds in rank order, Divers on or off; knobs: {', '.join(knobs)}) with up "
           f"to {c.get('max_changes', 3)} changes from the rulebook, screened with "
           f"{c.get('screen_games', 1000):,} games each; candidates confirmed with "
           f"{c.get('confirm_games', 8000):,} games, fewest changes first; a recommendation's 95% Wilson interval "
           "lies inside its band. Divers is only used where the band is easier than Normal's.",
           "- Rulebook-ready ladder: for each level, every rule for all player counts (cards a treasure; "
           "Divers for Easy) with every gauge adjustment of up to two cards per player count, screened with the "
           "same games; the rule that brings the most player counts into the band wins, then each count's "
           f"adjustment is confirmed with {c.get('confirm_games', 8000):,} games (`island-escape calibrate "
           "--same-rule`, and `--knobs` to restrict what may change).",
           f"- All settings play the same games of seed {study.seed} (same islands, same flood orders); the "
           f"re-simulation uses seed {study.seed + 1000}.",
           f"- {cal.screened} settings screened per player group; players 1 and 2 share their games (R5).",
           f"- Sweep: `{study.sweep}` ({len(sweep.summary)} cells, {sweep_cfg.games:,} games each), "
           f"tables in `{Path(out_dir) / 'sweep'}` (the notebook `notebooks/loss_causes.ipynb` reads them).",
           "- Reproduce: `make report` (or `island-escape report`); the numbers depend only on the "
           "code, the study file and the seeds.", ""]
    (report_dir / "difficulty.md").write_text("\n".join(md))
    return recs


def ladder_sections(study: Study, recs: list[dict], report_dir: Path, out_dir: Path, threads: int | None,
                    echo: Callable[[str], None]) -> list[str]:
    """Write the printed ladder's page (reports/<game>.md); return the difficulty report's section
    placing the study's game against that ladder."""
    from experiments import anchor as ladders
    from experiments.plots import ladder_figure

    cfg = study.ladder
    printed = game_named(study.ladder_game)
    echo(f"{printed.title}'s ladder")
    measured = ladders.measure_ladder(printed, cfg.get("policies", ["random", "expert"]), cfg.get("games", 20_000),
                                      cfg.get("search_games", 2_000), study.seed, threads, echo,
                                      cache_dir=out_dir / f"{printed.name}-cells",
                                      search_levels=tuple(cfg.get("search_levels", printed.levels)))
    ladders.save_ladder(printed, measured, out_dir)
    figure = ladder_figure(printed, measured, report_dir / "figures" / f"{printed.name.replace('-', '_')}_ladder.png")
    (report_dir / f"{printed.name}.md").write_text(ladders.ladder_markdown(
        printed, measured, study.seed, study.path, figure=figure and f"figures/{figure.name}"))
    if study.policy not in set(measured.policy):
        return []
    return ladders.against_ladder(game_named(study.game), printed, recs, measured, study.policy) + [""]


def difficulty_table(recs: list[dict]) -> str:
    """The short table `make run` prints."""
    lines = [f"{'level':<7} {'players':>7}  {'win rate (95% CI)':<22} rules"]
    for r in recs:
        lines.append(f"{r['level']:<7} {r['players']:>7}  {_pct(r['win_rate']):>6} ({_ci(r['ci95'])})"
                     f"{'':<3} {r['change']}")
    return "\n".join(lines)


def anchored_summary(rows: list[dict]) -> str:
    """The levels to print as `make run` shows them: a line per level and player count."""
    lines = [f"{'level':<7} {'players':>7}  {'plays like':<10} {'wins':>8}  {'largest gap':>11}  rules"]
    for label, r in merge_solo(rows):
        lo, hi = r["win_range"]
        rule = r["level_rule"] if r["level_rule"] != "no other change" else ""
        lines.append(f"{r['level']:<7} {label:>7}  {r['anchor']:<10} {f'{100 * lo:.0f}-{100 * hi:.0f}%':>8}  "
                     f"{100 * r['signed_gap']:>+10.1f}%  " + "; ".join(t for t in (rule, r["gauge_change"]) if t))
    lines.append("wins: from a first game to the span's strongest player; gap: the level's rate minus its anchor's "
                 "where they are furthest apart")
    return "\n".join(lines)
