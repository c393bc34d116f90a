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
    ANCHOR_SEARCH,
    ANCHOR_SKILLS,
    DEFAULT_BANDS,
    LEVELS,
    LIKE_WITHIN,
    AnchoredLadder,
    Calibration,
    Ladder,
    anchored_ladder,
    calibrate,
    games_judged,
    ladder,
    parse_knobs,
)
from experiments.plots import CAUSE_COLOURS, loss_causes, loss_hazard_grid, policy_ladder
from experiments.skill import skill_section
from experiments.sweep import SweepError, load_config, read_toml, run_sweep, summarize_cell
from policies.game import DEFAULT_GAME, GAMES, counted
from policies.game import game as game_named

STUDY_KEYS = {"name", "game", "sweep", "policy", "seed", "calibrate", "rulebook", "skill", "ladder", "anchor"}
ANCHOR_KEYS = {"game", "games", "search_games"}
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

def people_note(anchor: str, levels: list[str]) -> str:
    """Why the anchored levels are the ones to print: `anchor` (a title) playtested `levels`."""
    named = ", ".join(lv.capitalize() for lv in levels[:-1]) + " and " + levels[-1].capitalize()
    return PEOPLE_NOTE.format(anchor=anchor, levels=named)


PEOPLE_NOTE = (
    "Print these levels. They are tied to people: {anchor}'s {levels} were "
    "playtested at real tables, and each level here wins about as often as its {anchor} level for "
    "the same simulated player, at every skill from 0.5 (a table that departs from the expert's choice in "
    "about two decisions of five) to 1 (the expert), and for the strongest fair search (`lookahead`). A "
    "level that keeps to its anchor for every such player should feel as hard as that level to any table, "
    "as far as the two games' skill scales agree (a skill is set to the same share of departing decisions "
    "in both games: docs/RULES-FI.md). The bands of the section \"For one near-perfect player\" further "
    "down answer another question, how the lab's expert fares; they are not for print.")


def _skill_label(player: str) -> str:
    return f"skill {player.partition('@')[2]}" if "@" in player else player


def anchored_rows_table(lad: AnchoredLadder) -> list[str]:
    """Per level and player count: both games' win rates for each player, the largest gap and
    whether the level stays in its anchor's band (rates nearer the anchor level than any other)."""
    rows = merge_solo(lad.to_json())
    players = list(rows[0][1]["win_rates"]) if rows else []
    lines = ["| level | players | gauge | " + " | ".join(_skill_label(w) for w in players)
             + " | largest gap | plays like its anchor |",
             "| --- | --- | --- |" + " ---: |" * len(players) + " ---: | --- |"]
    for label, r in rows:
        cells = [f"{100 * r['win_rates'][w]:.0f}% / {100 * r['anchor_win_rates'][w]:.0f}%" for w in players]
        at = r["gap_at"]
        where = f"skill {at:g}" if isinstance(at, float) else at
        leaves = r["leaves_band_at"]
        like = "at every skill and the search" if not leaves else "not for " + ", ".join(
            _skill_label(w) for w in leaves)
        lines.append(f"| {r['level'].capitalize()} ({r['anchor'].capitalize()}) | {label} | {r['gauge_change']} | "
                     + " | ".join(cells) + f" | {100 * r['signed_gap']:+.1f} points at {where} | {like} |")
    return lines


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
            groups.setdefault(tuple(lad.design.changed_sentences(lv.rule.setting(r.gauge).rules(p))), []).append(p)
        lines.append(f"**{lv.level.capitalize()}** (plays like {anchor_title}'s {lv.anchor.capitalize()}):")
        lines.append("")
        for sentences, counts in groups.items():
            who = ", ".join(str(p) for p in counts[:-1]) + (" or " if len(counts) > 1 else "") + str(counts[-1])
            lines.append(f"- {who} player{'s' if counts != [1] else ''}: "
                         + (" ".join(sentences) if sentences else "the printed rules, unchanged."))
        lines.append("")
    return lines


def scale_note(lad: AnchoredLadder) -> list[str]:
    """Where people sit on the skill scale, as far as the anchor's own rates say: from which skill
    its easiest level is won one game in ten, and what the weakest skill wins anywhere."""
    easiest = lad.levels[0]
    p = min(easiest.rungs)
    rung = easiest.rungs[p]
    skills = [w for w in rung.anchor_rates if "@" in w]
    up = next((w for w in skills if rung.anchor_rates[w] >= 0.10), None)
    weakest = max(max(r.rates[skills[0]], r.anchor_rates[skills[0]]) for lv in lad.levels for r in lv.rungs.values())
    if up is None:
        return []
    anchor = game_named(lad.anchor_game).title
    return [f"Both games punish mistakes hard: {anchor}'s {easiest.anchor.capitalize()} with "
            f"{player_counts_text(str(max(2, p)))} is won one game in ten only from {_skill_label(up)} up, and "
            f"even at {_skill_label(skills[-1])} {100 * rung.anchor_rates[skills[-1]]:.0f}% of the time; at "
            f"{_skill_label(skills[0])} no level of either game is won more than {100 * weakest:.0f}% of the time. "
            f"A table that wins {anchor} now and then therefore plays high on this scale, where the "
            "levels differ most; where a table stands, its own log of games says (below).", ""]


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
    skills = [w for w in next(iter(lad.levels[0].rungs.values())).rates if "@" in w]
    low, high = _skill_label(skills[0]), _skill_label(skills[-1])
    game, anchor = game_named(game), game_named(lad.anchor_game)
    lines = ["## The levels to print", "", people_note(anchor.title, [lv.anchor for lv in lad.levels]), "",
             "| level | plays like | rule for every player count | " + " | ".join(
                 player_counts_text(lab) for lab, _ in labels) + " |",
             "| --- | --- | --- |" + " --- |" * len(labels)]
    for lv in lad.levels:
        cells = []
        for _, row in labels:
            r = lv.rungs[row["players"]]
            lo, hi = r.win_range
            star = " (leaves its band)" if r.leaves_band() else ""
            cells.append(f"{lad.design.gauge_change_text(r.gauge)}: wins {100 * lo:.0f}-{100 * hi:.0f}%{star}")
        lines.append(f"| **{lv.level.capitalize()}** | {anchor.title}'s {lv.anchor.capitalize()} | "
                     f"{lv.rule.describe()} | " + " | ".join(cells) + " |")
    cells = [(lv, label, lv.rungs[row["players"]]) for lv in lad.levels for label, row in labels]
    lv_worst, label_worst, worst = max(cells, key=lambda c: abs(c[2].largest_gap[0]))
    gap, at = worst.largest_gap
    keep = sum(not r.leaves_band() for _, _, r in cells)
    at_search = sum(r.largest_gap[1] == ANCHOR_SEARCH for _, _, r in cells)
    lines += ["", f"Win rates: from a table at {low} to one at {high} ({lad.games:,} games at each skill, seed "
              f"{lad.seed}). {keep} of {len(cells)} cells keep to their anchor for every player; the table below "
              "says where the others leave it. Each level is another setting than the level before and wins no "
              f"more often than it at any skill of the grid (but by noise where both win under "
              f"{100 * LIKE_WITHIN:.0f}%). The largest gap between a level and its anchor is "
              f"{100 * abs(gap):.1f} points ({lv_worst.level.capitalize()}, {player_counts_text(label_worst)}: "
              f"{'easier' if gap > 0 else 'harder'} than the anchor, at {_skill_label(at)}); {at_search} of "
              f"{len(cells)} cells have theirs at `{ANCHOR_SEARCH}`, whose search gains more over the expert in "
              f"{anchor.title} than in {game.title}. Each cell's rates are below, as *{game.title} / "
              f"{anchor.title}* for the same player (`{ANCHOR_SEARCH}`: {lad.search_games:,} games). A level *plays "
              "like its anchor* for a player while its 95% interval reaches the rates nearer the anchor level's "
              f"than any other level's (or within {100 * LIKE_WITHIN:.0f} points of it, where that player hardly "
              "ever wins at any level).", ""]
    lines += anchored_rows_table(lad) + [""]
    loose = [lv.level.capitalize() for lv in lad.levels if not lv.harder_than_before]
    if loose:
        lines += [f"{', '.join(loose)}: no rule the study's knobs allow is harder than the level before at every "
                  "player count; shown is the closest to its anchor regardless.", ""]
    lines += scale_note(lad)
    lines += rulebook_text_section(lad)
    if card is not None:
        lines += [f"![the difficulty card]({card.relative_to(report_dir)})", "",
                  f"The card above (also as [PDF]({card.with_suffix('.pdf').relative_to(report_dir)})) is these "
                  "levels for the rulebook: the gauge as cards, each level's marks per player count, the win "
                  "range over skill.", ""]
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
    the JSON (the fewest-changes recommendations, as `calibrate --json` prints them)."""
    from experiments.card import difficulty_card

    study = load_study(study_path)
    game = game_named(study.game)
    report_dir = Path(report_dir)
    figures = report_dir / "figures"
    figures.mkdir(parents=True, exist_ok=True)
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
        alad = anchored_ladder(anchor, players, games=study.anchor.get("games", 1000),
                               search_games=study.anchor.get("search_games", 100), seed=study.seed, knobs=knobs,
                               threads=threads, echo=echo, game=game)
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
        md += [f"- The levels to print: for each level, every rule for all player counts (cards a treasure; "
               f"Divers for Easy) with every gauge adjustment of up to two cards per player count, played by the "
               f"skilled player at skills {', '.join(f'{k:g}' for k in ANCHOR_SKILLS)} ({alad.games:,} games "
               f"each) on {game.title} and on {anchor.title}'s {', '.join(game.design.ANCHOR_LEVELS.values())} "
               f"at the same player count; the three gauges closest on skill alone are also played by "
               f"`{ANCHOR_SEARCH}` ({alad.search_games:,} games), and the rule and gauges with the smallest largest "
               f"gap win (`island-escape calibrate --anchor {anchor.name}`; every rate measured is in "
               f"`{Path(out_dir) / 'anchored-candidates.parquet'}`, the chosen rows in "
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
    lines = [f"{'level':<7} {'players':>7}  {'plays like':<10} {'wins over skill':>15}  rules"]
    for label, r in merge_solo(rows):
        lo, hi = r["win_range"]
        rule = r["level_rule"] if r["level_rule"] != "no other change" else ""
        lines.append(f"{r['level']:<7} {label:>7}  {r['anchor']:<10} {f'{100 * lo:.0f}-{100 * hi:.0f}%':>15}  "
                     + "; ".join(t for t in (rule, r["gauge_change"]) if t))
    return "\n".join(lines)
