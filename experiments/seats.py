"""The balance report of a competitive game (reports/<game>.md): is any seat favoured, how games
end and how long they last, by how much they are won, whether skill beats luck, and which rule
changes make every seat's chance fair.

A competitive game's balance is fairness between seats, not a win rate: a game of n seats is fair
when each seat's win share (ties shared, so the shares of a game sum to 1) is 1/n. Everything
comes from one study file (experiments/studies/<game>.toml) and fixed seeds, so the committed
report is what the committed code produces; no times or speeds go into it. The game is named by
the study; every rule and player comes from its Game object (`seat_players`, `seat_results`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from experiments.sweep import SweepError, read_toml
from policies.game import game as game_named
from policies.game import with_seats
from policies.outcomes import furthest_from_fair, mean_interval, seats_summary

STUDY_KEYS = {"name", "game", "policy", "seed", "players", "games", "skill", "fairness"}
SKILL_KEYS = {"games", "search_games", "weak"}
FAIRNESS_KEYS = {"games", "confirm_games", "tolerance", "max_changes", "pairs_from", "knobs"}


@dataclass
class SeatStudy:
    path: str
    game: str
    policy: str  # the player at every seat of the balance questions
    seed: int
    players: list[int]
    games: int  # per player count, for the seats' shares
    skill: dict = field(default_factory=dict)
    fairness: dict = field(default_factory=dict)


def is_seat_study(path: str | Path) -> bool:
    """Whether a study file names a competitive game (its report is this module's)."""
    data = read_toml(str(path))
    name = data.get("game")
    return isinstance(name, str) and name in {g.name for g in with_seats()}


def load_seat_study(path: str | Path) -> SeatStudy:
    """A competitive game's study, every key checked before anything is played (SweepError
    names the file and the key)."""
    path = str(path)
    data = read_toml(path)
    for key in data:
        if key not in STUDY_KEYS:
            raise SweepError(f"{path}: unknown key {key!r} (known: {', '.join(sorted(STUDY_KEYS))})")
    for section, known in (("skill", SKILL_KEYS), ("fairness", FAIRNESS_KEYS)):
        for key in data.get(section, {}):
            if key not in known:
                raise SweepError(f"{path}: [{section}] unknown key {key!r} (known: {', '.join(sorted(known))})")
    name = data.get("game")
    if name not in {g.name for g in with_seats()}:
        raise SweepError(f"{path}: game: {name!r} is not a game of the lab whose seats play for themselves "
                         f"(choose from {', '.join(g.name for g in with_seats())})")
    game = game_named(name)
    study = SeatStudy(path=path, game=name, policy=data.get("policy", game.default_policy),
                      seed=int(data.get("seed", 0)), players=list(data.get("players", game.players)),
                      games=int(data.get("games", 20_000)), skill=dict(data.get("skill", {})),
                      fairness=dict(data.get("fairness", {})))
    for p in study.players:
        if p not in game.players:
            raise SweepError(f"{path}: players: {p!r} is not a player count of {game.title} "
                             f"({', '.join(map(str, game.players))})")
    try:
        game.check_policy(study.policy)
        for p in study.players:
            game.seat_players(study.policy, game.rules_from_options(players=p))
    except ValueError as exc:
        raise SweepError(f"{path}: policy: {exc}") from None
    for key, values in study.fairness.get("knobs", {}).items():
        if key not in game.rule_options or key == "players":
            raise SweepError(f"{path}: [fairness] knobs: {key!r} is not a rule option of {game.title} "
                             f"(its options: {', '.join(o for o in game.rule_options if o != 'players')})")
        for value in values if isinstance(values, list) else [values]:
            for p in study.players:
                try:
                    game.rules_from_options(players=p, **{key: value})
                except game.rule_error as exc:
                    raise SweepError(f"{path}: [fairness] knobs.{key}: {value!r} with {p} players: {exc}") from None
    return study


# --- measuring ----------------------------------------------------------------------------------


@dataclass
class SeatRun:
    """One setting played by one line-up of players: the summary (`SeatTally.result`) and the
    per-game win shares, scores, endings and turns behind it."""

    rules: object
    policy: str
    summary: dict
    share: np.ndarray
    score: np.ndarray
    ending: np.ndarray
    turns: np.ndarray

    @property
    def seats(self) -> int:
        return self.share.shape[1]

    @property
    def largest_unfairness(self) -> float:
        """The largest distance of a seat's win share from the fair 1/n, in share points."""
        return furthest_from_fair(self.summary)


def play(game, rules, policy: str, games: int, seed: int, threads: int | None) -> SeatRun:
    raw = game.run_games(rules, policy, games, seed, threads=threads)
    share, score = game.seat_results(raw, rules)
    return SeatRun(rules, policy, seats_summary(game, rules, policy, raw), share, score,
                   raw[:, 0].copy(), raw[:, 1].copy())


def line_up(players: int, at: int, one: str, others: str) -> str:
    """A per-seat policy spec: `one` at seat `at` (from 0), `others` at every other seat."""
    return ",".join(one if k == at else others for k in range(players))


@dataclass
class Fairness:
    """The fewest-changes search for fair seats at one player count."""

    players: int
    tolerance: float
    tried: list[tuple[dict, SeatRun]]  # every candidate measured: its changes and its run
    chosen: tuple[dict, SeatRun] | None
    confirmed: SeatRun | None


def fairness_search(game, players: int, policy: str, knobs: dict, games: int, confirm_games: int,
                    tolerance: float, max_changes: int, pairs_from: int, seed: int, threads: int | None,
                    echo: Callable[[str], None]) -> Fairness:
    """The settings nearest the printed rules whose every seat's win share lies within
    `tolerance` of fair: the printed rules first, then each single change of `knobs`, then pairs
    of the `pairs_from` single changes that came closest (a change of a rule a pair already
    holds is not tried twice); the fewest changes win, then the smallest largest distance from
    fair. The choice is played again on fresh games (seed + 1000) to confirm it."""
    base = game.rules_from_options(players=players)
    base_options = game.options_of(base)
    tried: list[tuple[dict, SeatRun]] = []

    def measure(change: dict) -> SeatRun | None:
        try:
            rules = game.rules_from_options(**{**base_options, **change})
        except game.rule_error:
            return None
        run = play(game, rules, policy, games, seed, threads)
        tried.append((change, run))
        return run

    measure({})
    singles = []
    for key, values in knobs.items():
        for value in values if isinstance(values, list) else [values]:
            if base_options.get(key, getattr(base, game_field(game, key))) == value:
                continue
            run = measure({key: value})
            if run is not None:
                singles.append(({key: value}, run))
    if max_changes >= 2:
        closest = sorted(singles, key=lambda item: item[1].largest_unfairness)[:pairs_from]
        for (a, _), (b, _) in itertools.combinations(closest, 2):
            if set(a) & set(b):
                continue
            measure({**a, **b})
    echo(f"  {players} players: {len(tried)} settings tried")
    passing = [(c, r) for c, r in tried if r.largest_unfairness <= tolerance]
    chosen = min(passing, key=lambda item: (len(item[0]), item[1].largest_unfairness)) if passing else \
        min(tried, key=lambda item: (item[1].largest_unfairness, len(item[0])))
    confirmed = play(game, chosen[1].rules, policy, confirm_games, seed + 1000, threads)
    return Fairness(players, tolerance, tried, chosen, confirmed)


def game_field(game, option: str) -> str:
    """The Rules field a rule option sets."""
    return next((o.field or o.name for o in game.options if o.name == option), option)


# --- the report ---------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _share_ci(seat: dict) -> str:
    lo, hi = seat["win_share_ci95"]
    return f"{_pct(seat['win_share'])} ({100 * lo:.1f}-{100 * hi:.1f})"


def _change_text(change: dict) -> str:
    return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in change.items()) or "the printed rules"


def seats_table(runs: dict[int, SeatRun]) -> list[str]:
    top = max(run.seats for run in runs.values())
    head = "| players | " + " | ".join(f"seat {k + 1}" for k in range(top)) + " | fair | seat 1 - fair |"
    lines = [head, "|" + "---|" * (top + 3)]
    for players, run in sorted(runs.items()):
        seats = run.summary["seats"]
        cells = [_share_ci(s) for s in seats] + [""] * (top - len(seats))
        first = seats[0]
        lo, hi = first["win_share_ci95"]
        fair = 1 / len(seats)
        lines.append(f"| {players} | " + " | ".join(cells) +
                     f" | {_pct(fair)} | {100 * (first['win_share'] - fair):+.1f} ({100 * (lo - fair):+.1f} to "
                     f"{100 * (hi - fair):+.1f}) |")
    return lines


def scores_table(runs: dict[int, SeatRun]) -> list[str]:
    top = max(run.seats for run in runs.values())
    lines = ["| players | " + " | ".join(f"seat {k + 1}" for k in range(top)) + " |", "|" + "---|" * (top + 1)]
    for players, run in sorted(runs.items()):
        cells = []
        for s in run.summary["seats"]:
            lo, hi = s["mean_score_ci95"]
            cells.append(f"{s['mean_score']:.2f} ({lo:.2f}-{hi:.2f})")
        lines.append(f"| {players} | " + " | ".join(cells + [""] * (top - len(cells))) + " |")
    return lines


def endings_table(game, runs: dict[int, SeatRun]) -> list[str]:
    lines = ["| players | " + " | ".join(game.causes) + " | mean turns | turns (quartiles) | rounds |",
             "|" + "---|" * (len(game.causes) + 4)]
    for players, run in sorted(runs.items()):
        q1, q2, q3 = np.percentile(run.turns, [25, 50, 75])
        ends = " | ".join(_pct(run.summary["endings"][c]) for c in game.causes)
        lines.append(f"| {players} | {ends} | {run.turns.mean():.1f} | {q1:.0f} / {q2:.0f} / {q3:.0f} | "
                     f"{run.turns.mean() / players:.1f} |")
    return lines


def margins_table(runs: dict[int, SeatRun]) -> list[str]:
    lines = ["| players | mean margin | median | shared wins | won by 1-2 points | won by 10 or more |",
             "|---|---|---|---|---|---|"]
    for players, run in sorted(runs.items()):
        ranked = np.sort(run.score, axis=1)
        margin = ranked[:, -1] - ranked[:, -2]
        lines.append(f"| {players} | {margin.mean():.2f} | {np.median(margin):.0f} | {_pct((margin == 0).mean())} | "
                     f"{_pct(((margin >= 1) & (margin <= 2)).mean())} | {_pct((margin >= 10).mean())} |")
    return lines


def skill_rows(game, study: SeatStudy, threads, echo) -> list[dict]:
    """One player among others, at every seat in turn: its mean win share against the fair 1/n."""
    cfg = study.skill
    weak = cfg.get("weak", "random")
    pairs = [(study.policy, weak, cfg.get("games", study.games)), (weak, study.policy, cfg.get("games", study.games))]
    search = sorted(game.search_policies())
    for name in search:
        few = cfg.get("search_games", 400)
        pairs += [(study.policy, name, few), (name, study.policy, few)]
    rows = []
    for one, others, games in pairs:
        for players in study.players:
            echo(f"  one {one} among {others}, {players} players")
            shares = []
            for at in range(players):
                rules = game.rules_from_options(players=players)
                run = play(game, rules, line_up(players, at, one, others), games, study.seed, threads)
                shares.append(run.share[:, at])
            column = np.concatenate(shares)
            mean, lo, hi = mean_interval(column.sum(), (column * column).sum(), len(column))
            rows.append({"one": one, "others": others, "players": players, "games": games * players,
                         "share": mean, "ci95": [max(lo, 0.0), min(hi, 1.0)], "fair": 1 / players,
                         "by_seat": [float(s.mean()) for s in shares]})
    return rows


def skill_table(rows: list[dict]) -> list[str]:
    lines = ["| one seat | the others | players | its win share (95% interval) | fair | by seat |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        lo, hi = r["ci95"]
        by_seat = " / ".join(f"{100 * s:.0f}" for s in r["by_seat"])
        lines.append(f"| `{r['one']}` | `{r['others']}` | {r['players']} | {_pct(r['share'])} ({100 * lo:.1f}-"
                     f"{100 * hi:.1f}) | {_pct(r['fair'])} | {by_seat} |")
    return lines


def fairness_lines(game, results: list[Fairness], knobs: dict) -> list[str]:
    lines = ["| players | printed rules: furthest seat from fair | fairest setting found | its furthest seat | "
             "confirmed on fresh games | settings tried |", "|---|---|---|---|---|---|"]
    for f in results:
        printed = next(run for change, run in f.tried if not change)
        change, run = f.chosen
        ok = "within" if run.largest_unfairness <= f.tolerance else "outside"
        confirmed = f.confirmed
        lines.append(f"| {f.players} | {100 * printed.largest_unfairness:.1f} points | {_change_text(change)} | "
                     f"{100 * run.largest_unfairness:.1f} points ({ok} ±{100 * f.tolerance:.0f}) | "
                     f"{100 * confirmed.largest_unfairness:.1f} points | {len(f.tried)} |")
    return lines


def build_seats_report(study_path: str, report_dir: str | Path = "reports", threads: int | None = None,
                       echo: Callable[[str], None] = print) -> Path:
    """Play the study and write reports/<game>.md with its figures; returns the report's path."""
    from experiments.plots import fairness_figure, game_length_figure, seat_shares_figure

    study = load_seat_study(study_path)
    game = game_named(study.game)
    report_dir = Path(report_dir)
    figures = report_dir / "figures"
    figures.mkdir(parents=True, exist_ok=True)
    stem = game.name.replace("-", "_")
    echo(f"{game.title}: every seat played by `{study.policy}`")
    runs = {p: play(game, game.rules_from_options(players=p), study.policy, study.games, study.seed, threads)
            for p in study.players}
    shares_png = seat_shares_figure([(f"{p} players", run.summary["seats"]) for p, run in sorted(runs.items())],
                                    figures / f"{stem}_seat_shares.png", f"{game.title}: win share by seat")
    length_png = game_length_figure(runs, game.causes, figures / f"{stem}_game_length.png",
                                    f"{game.title}: how long games last")
    echo("skill against luck")
    skill = skill_rows(game, study, threads, echo)
    cfg = study.fairness
    knobs = cfg.get("knobs", {})
    tolerance = float(cfg.get("tolerance", 0.02))
    echo(f"fair seats: rule changes within ±{100 * tolerance:.0f} points")
    fair = [fairness_search(game, p, study.policy, knobs, int(cfg.get("games", study.games)),
                            int(cfg.get("confirm_games", study.games)), tolerance, int(cfg.get("max_changes", 2)),
                            int(cfg.get("pairs_from", 5)), study.seed, threads, echo) for p in study.players]
    fair_png = fairness_figure(fair, figures / f"{stem}_fairness.png", f"{game.title}: the furthest seat from fair")

    first = {p: run.summary["seats"][0]["win_share"] - 1 / p for p, run in runs.items()}
    worst = max(first, key=lambda p: abs(first[p]))
    md = [f"# {game.title}: is every seat's chance fair?", "",
          f"*Generated by `make report` from `{study.path}` (seed {study.seed}); do not edit by hand.*", "",
          f"{game.title} is competitive: each seat plays for itself and the highest score wins; tied seats share "
          "the win, so a game's win shares add up to 1 and a fair game gives each of n seats 1/n. Every seat "
          f"below is played by `{study.policy}` unless a line-up is named; each rate rests on "
          f"{study.games:,} games (95% intervals in brackets, in points).", "",
          "## In short", ""]
    md.append(f"- The first seat's largest edge is at {worst} players: {100 * first[worst]:+.1f} points on a fair "
              f"{_pct(1 / worst)}. " + " ".join(f"{p} players: {100 * v:+.1f}." for p, v in sorted(first.items())))
    for f in fair:
        change, run = f.chosen
        verdict = "fair within" if run.largest_unfairness <= f.tolerance else "no setting tried is within"
        md.append(f"- {f.players} players: {_change_text(change)} — {verdict} ±{100 * f.tolerance:.0f} points "
                  f"(furthest seat {100 * run.largest_unfairness:.1f} points from fair; "
                  f"{100 * f.confirmed.largest_unfairness:.1f} on fresh games).")
    beats = [r for r in skill if r["one"] == study.policy and r["others"] == study.skill.get("weak", "random")]
    if beats:
        md.append("- Skill beats luck: one `" + study.policy + "` among `" + beats[0]["others"] + "` seats wins " +
                  ", ".join(f"{_pct(r['share'])} at {r['players']} players (fair {_pct(r['fair'])})" for r in beats)
                  + ".")
    md += ["", "## Win share by seat", "",
           f"Each seat's win share with `{study.policy}` at every seat. The last column is the first seat's edge "
           "over a fair share, with its interval.", ""]
    md += seats_table(runs)
    md += ["", f"![Win share by seat]({Path('figures') / shares_png.name})", "", "### Mean score by seat", ""]
    md += scores_table(runs)
    md += ["", "## How games end and how long they last", "",
           "A turn is one seat's turn; a round is every seat's. " + ending_words(game), ""]
    md += endings_table(game, runs)
    md += ["", f"![Game length]({Path('figures') / length_png.name})", "", "## Score margins", "",
           "The winner's lead over the next seat, in treasure points.", ""]
    md += margins_table(runs)
    md += ["", "## Skill against luck", "",
           "One seat played by one player, every other seat by another, the odd one moved through every seat "
           "in turn (the same games at each seat); its mean win share against the fair share, and by seat "
           "(in percent).", ""]
    md += skill_table(skill)
    md += ["", "## Rules that make the seats fair", "",
           f"For each player count, the printed rules and then every single change of the rule values below, "
           f"then pairs of the {int(cfg.get('pairs_from', 5))} single changes that came closest; the setting with "
           f"the fewest changes whose every seat lies within ±{100 * tolerance:.0f} points of fair is chosen "
           f"(the closest when none is), and played again on {int(cfg.get('confirm_games', study.games)):,} fresh "
           "games.", "",
           "Values tried: " + "; ".join(f"{k.replace('_', ' ')} {', '.join(map(str, v))}" for k, v in knobs.items())
           + ".", ""]
    md += fairness_lines(game, fair, knobs)
    md += ["", f"![Fairness]({Path('figures') / fair_png.name})", "",
           "## How this was made", "",
           f"- `island-escape report --study {study.path}` (`make report`); the numbers depend only on the code, "
           "the study file and the seeds. Every setting of a player count plays the same games of the seed "
           "(the same deal and dice).",
           f"- Rules: {game.rules_doc}; players: `island-escape policies --game {game.name}`.", ""]
    path = report_dir / f"{game.name}.md"
    path.write_text("\n".join(md))
    return path


def ending_words(game) -> str:
    return "Endings: " + "; ".join(f"`{c}`, {game.cause_words.get(c, c)}" for c in game.causes) + "."
