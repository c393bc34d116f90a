"""Outcomes of a run of games, counted batch by batch in constant memory, as each game's `tally`
gives them to the commands: a cooperative game's team (its win rate with a 95% Wilson interval
and its losses by cause, `TeamTally`) or a competitive game's seats (each seat's win share and
score with 95% intervals, `SeatTally`); each says its summary in `simulate`'s lines too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from sim.stats import wilson_interval


def _speed(summary: dict, threads: int) -> list[str]:
    if not summary["games_per_second"]:
        return []
    return [f"speed       {summary['games_per_second']:,.0f} games/s on {threads} thread{'' if threads == 1 else 's'}"]


def summary_of(n: int, wins: int, cause_counts, turn_sum: int, causes: tuple[str, ...],
               seconds: float | None = None) -> dict:
    """The `simulate` summary from counts: win rate with a 95% Wilson interval, loss causes
    (in the game's order: R18 for Island Escape, F14 for Forbidden Island), mean turns, speed.
    `cause_counts[i]` counts cause i of `causes`, whose first is the win.

    Every rate is a fraction of the games played (`win_rate`, `ci95`, `loss_rates`), never a
    percentage, and the dict says so in `rate_unit`."""
    lo, hi = wilson_interval(wins, n)
    losses = {c: int(cause_counts[i]) / n if n else 0.0 for i, c in enumerate(causes) if i > 0}
    return {
        "games": n, "wins": wins, "rate_unit": "fraction of games", "win_rate": wins / n if n else 0.0,
        "ci95": [lo, hi], "loss_rates": losses, "mean_turns": turn_sum / n if n else 0.0,
        "games_per_second": (n / seconds) if seconds else None,
    }


class TeamTally:
    """A cooperative game's `simulate` summary (its one team's win rate, `summary_of`) of a run
    seen batch by batch of raw rows, in constant memory: counts only, so a run of any length can
    be summarized (and an interrupted one summarizes the games it finished)."""

    def __init__(self, causes: tuple[str, ...]) -> None:
        self.causes = causes
        self.games = self.turns = 0
        self.counts = np.zeros(len(causes), dtype=np.int64)

    def add(self, raw: np.ndarray) -> None:
        self.games += len(raw)
        self.counts += np.bincount(raw[:, 0], minlength=len(self.causes))
        self.turns += int(raw[:, 1].sum(dtype=np.int64))

    def result(self, seconds: float | None = None) -> dict:
        return summary_of(self.games, int(self.counts[0]), self.counts, self.turns, self.causes, seconds)

    @staticmethod
    def sides(raw: np.ndarray) -> tuple[list[str], np.ndarray]:
        return ["win rate"], (raw[:, :1] == 0).astype(float)  # cause 0 is the win

    @staticmethod
    def rows(a: dict, b: dict) -> list[tuple[str, str, str]]:
        def rate(side: dict) -> str:
            lo, hi = side["ci95"]
            return f"{100 * side['win_rate']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"

        return [("win rate (95% CI)", rate(a), rate(b))] + [
            (f"lost: {cause}", f"{100 * a['loss_rates'][cause]:.1f}%", f"{100 * b['loss_rates'][cause]:.1f}%")
            for cause in a["loss_rates"]]

    @staticmethod
    def row(summary: dict) -> dict:
        lo, hi = summary["ci95"]
        return {"wins": summary["wins"], "win_rate": summary["win_rate"], "ci_low": lo, "ci_high": hi,
                "mean_turns": summary["mean_turns"],
                **{f"loss_{cause}": rate for cause, rate in summary["loss_rates"].items()}}

    def half_width(self) -> float:
        """Half the width of the win rate's 95% Wilson interval."""
        lo, hi = wilson_interval(int(self.counts[0]), self.games)
        return (hi - lo) / 2

    @staticmethod
    def text(summary: dict, threads: int) -> str:
        """`simulate`'s lines: the win rate with its interval, the losses by cause, the mean
        turns and the speed."""
        lo, hi = summary["ci95"]
        causes = "  ".join(f"{c} {100 * v:.1f}%" for c, v in summary["loss_rates"].items())
        lines = [
            f"games       {summary['games']:,}",
            f"win rate    {100 * summary['win_rate']:.2f}%  (95% Wilson interval {100 * lo:.2f}-{100 * hi:.2f}%)",
            f"losses      {causes}",
            f"mean turns  {summary['mean_turns']:.2f}",
        ]
        return "\n".join(lines + _speed(summary, threads))


Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


def mean_interval(total: float, squares: float, n: int) -> tuple[float, float, float]:
    """A mean and its 95% interval (normal approximation) from a sum and a sum of squares of `n`
    values: (mean, low, high). A win share is not a count of wins (ties share a win), so the
    interval of its mean is the mean's, not Wilson's."""
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = total / n
    var = max(squares / n - mean * mean, 0.0) * n / max(n - 1, 1)
    half = Z95 * (var / n) ** 0.5
    return mean, mean - half, mean + half


def fair_share(summary: dict) -> float:
    """A seat's fair share: the wins the games gave out, split evenly (1/seats where every game
    has a winner; less in a game whose rules may leave none, Desert Island's D8)."""
    seats = summary["seats"]
    return sum(s["win_share"] for s in seats) / len(seats) if seats else 0.0


def furthest_from_fair(summary: dict) -> float:
    """How far the seat furthest from a fair share (`fair_share`) lies from it, as a fraction."""
    fair = fair_share(summary)
    return max(abs(s["win_share"] - fair) for s in summary["seats"]) if summary["seats"] else 0.0


@dataclass(frozen=True)
class SeatGroups:
    """Another way than by seat to count a competitive game's results: each seat of each game
    belongs to one group (Desert Island's characters, dealt anew every game), and a group's win
    share and score are the means over the seat-games it played."""

    word: str  # one group as the summary names it ("role")
    names: tuple[str, ...]  # the groups, by number
    of: Callable[[np.ndarray], np.ndarray]  # raw rows -> each seat's group, int [games, seats]


class SeatTally:
    """A competitive game's `simulate` summary seen batch by batch, in constant memory: each seat's
    win share and score (sums and sums of squares), how the games ended and their length, and
    the same counts for each of the game's other groupings (`SeatGroups`, a summary key each)."""

    def __init__(self, game, rules, policy: str, groups: dict[str, SeatGroups] | None = None) -> None:
        self.game, self.rules = game, rules
        self.groups = groups or {}
        # per grouping: [seat-games, share sum, share squares, score sum, score squares] a group
        self.group_sums = {key: np.zeros((5, len(g.names))) for key, g in self.groups.items()}
        self.players = game.seat_players(policy, rules)
        seats = len(self.players)
        self.games = self.turns = 0
        self.endings = np.zeros(len(game.causes), dtype=np.int64)
        self.share = np.zeros((2, seats))  # sums, sums of squares
        self.score = np.zeros((2, seats))
        self.score_range = np.array([np.full(seats, np.inf), np.full(seats, -np.inf)])  # lowest, highest seen
        self.margin = 0.0  # the winner's lead over the next seat, summed

    def add(self, raw: np.ndarray) -> None:
        share, score = self.game.seat_results(raw, self.rules)
        self.games += len(raw)
        self.turns += int(raw[:, 1].sum(dtype=np.int64))
        self.endings += np.bincount(raw[:, 0], minlength=len(self.game.causes))
        self.share += (share.sum(axis=0), (share * share).sum(axis=0))
        self.score += (score.sum(axis=0), (score * score).sum(axis=0))
        if len(raw):
            self.score_range = np.array([np.minimum(self.score_range[0], score.min(axis=0)),
                                         np.maximum(self.score_range[1], score.max(axis=0))])
        for key, group in self.groups.items():
            of = group.of(raw).ravel()
            size = len(group.names)
            for row, values in enumerate((np.ones(of.size), share.ravel(), share.ravel() ** 2, score.ravel(),
                                          score.ravel() ** 2)):
                self.group_sums[key][row] += np.bincount(of, weights=values, minlength=size)[:size]
        ranked = np.sort(score, axis=1)
        self.margin += float((ranked[:, -1] - ranked[:, -2]).sum())

    def result(self, seconds: float | None = None) -> dict:
        """`simulate --json`'s summary of a competitive game: `seats` (one object a seat, in turn
        order: its player, win share and mean score with 95% intervals; the shares sum to 1), the
        endings as fractions of the games, mean turns and the mean winning margin."""
        n = self.games
        seats = []
        for k, player in enumerate(self.players):
            # a normal interval can reach past what any game can give (below 0 for a rare score):
            # it is cut at the shares' 0 and 1 and at the lowest and highest score seen
            share, share_lo, share_hi = mean_interval(self.share[0, k], self.share[1, k], n)
            share_lo, share_hi = max(share_lo, 0.0), min(share_hi, 1.0)
            score, score_lo, score_hi = mean_interval(self.score[0, k], self.score[1, k], n)
            if n:
                score_lo, score_hi = max(score_lo, self.score_range[0, k]), min(score_hi, self.score_range[1, k])
            seats.append({"seat": k + 1, "policy": player, "win_share": share, "win_share_ci95": [share_lo, share_hi],
                          "mean_score": score, "mean_score_ci95": [score_lo, score_hi]})
        groups = {}
        for key, group in self.groups.items():
            sums, rows = self.group_sums[key], []
            for k, name in enumerate(group.names):
                played = int(sums[0, k])
                share, share_lo, share_hi = mean_interval(sums[1, k], sums[2, k], played)
                score, score_lo, score_hi = mean_interval(sums[3, k], sums[4, k], played)
                rows.append({group.word: name, "games": played, "win_share": share,
                             "win_share_ci95": [max(share_lo, 0.0), min(share_hi, 1.0)], "mean_score": score,
                             "mean_score_ci95": [score_lo, score_hi]})
            groups[key] = rows
        return {
            "games": n, "rate_unit": "fraction of games", "seats": seats, **groups,
            "endings": {c: int(self.endings[i]) / n if n else 0.0 for i, c in enumerate(self.game.causes)},
            "mean_turns": self.turns / n if n else 0.0, "mean_margin": self.margin / n if n else 0.0,
            "games_per_second": (n / seconds) if seconds else None,
        }

    def sides(self, raw: np.ndarray) -> tuple[list[str], np.ndarray]:
        return [f"seat {k + 1}" for k in range(len(self.players))], self.game.seat_results(raw, self.rules)[0]

    def rows(self, a: dict, b: dict) -> list[tuple[str, str, str]]:
        """A row a seat (its win share with its 95% interval, where both settings have that seat),
        a row a group of each grouping (where both have it), how far the least fairly treated seat
        is from a fair share, and the endings."""
        def rate(entry: dict | None) -> str:
            if entry is None:
                return "-"
            lo, hi = entry["win_share_ci95"]
            return f"{100 * entry['win_share']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"

        def share(summary: dict, k: int) -> str:
            return rate(summary["seats"][k] if k < len(summary["seats"]) else None)

        def named(key: str, word: str) -> list[tuple[str, str, str]]:
            by_name = [{g[word]: g for g in summary.get(key, ())} for summary in (a, b)]
            names = dict.fromkeys(name for side in by_name for name in side)
            return [(f"{name} win share", rate(by_name[0].get(name)), rate(by_name[1].get(name))) for name in names]

        def unfair(summary: dict) -> str:
            return f"{100 * furthest_from_fair(summary):.1f} points"

        seats = max(len(a["seats"]), len(b["seats"]))
        return ([(f"seat {k + 1} win share", share(a, k), share(b, k)) for k in range(seats)]
                + [row for key, group in self.groups.items() for row in named(key, group.word)]
                + [("furthest from fair", unfair(a), unfair(b))]
                + [(f"ended: {name}", f"{100 * a['endings'][name]:.1f}%", f"{100 * b['endings'][name]:.1f}%")
                   for name in a["endings"]])

    def row(self, summary: dict) -> dict:
        """Each seat's win share with its interval, each group's win share and mean score, the
        furthest seat's distance from a fair share, the mean turns and the endings."""
        out: dict = {}
        for seat in summary["seats"]:
            k = seat["seat"]
            out |= {f"seat{k}_share": seat["win_share"], f"seat{k}_low": seat["win_share_ci95"][0],
                    f"seat{k}_high": seat["win_share_ci95"][1]}
        for key, group in self.groups.items():
            for g in summary.get(key, ()):
                name = g[group.word].lower().replace(" ", "_")
                out |= {f"{group.word}_{name}_share": g["win_share"], f"{group.word}_{name}_score": g["mean_score"]}
        return {**out, "furthest_from_fair": furthest_from_fair(summary), "mean_turns": summary["mean_turns"],
                **{f"ended_{name}": rate for name, rate in summary["endings"].items()}}

    def half_width(self) -> float:
        """The widest seat's: half the width of its win share's 95% interval."""
        return max(((hi - lo) / 2 for lo, hi in (mean_interval(self.share[0, k], self.share[1, k], self.games)[1:]
                                                  for k in range(self.share.shape[1]))), default=1.0)

    def text(self, summary: dict, threads: int) -> str:
        """`simulate`'s lines: a line a seat (its win share and mean score, each with its 95%
        interval), a line a group of each grouping, then how the games ended and their length."""
        fair = fair_share(summary)
        lines = [f"games       {summary['games']:,}",
                 f"seat  {'player':<16} {'win share (95% interval)':<28} mean score (95% interval)"]
        for seat in summary["seats"]:
            (a, b), (c, d) = seat["win_share_ci95"], seat["mean_score_ci95"]
            lines.append(f"{seat['seat']:>4}  {seat['policy']:<16} {100 * seat['win_share']:5.1f}%  ({100 * a:.1f}-"
                         f"{100 * b:.1f}%)      {seat['mean_score']:5.2f}  ({c:.2f}-{d:.2f})")
        lines.append(f"fair share  {100 * fair:.1f}% a seat")
        for key, group in self.groups.items():
            lines.append(f"{group.word:<22} {'win share (95% interval)':<28} mean score (95% interval)")
            for g in summary.get(key, ()):
                (a, b), (c, d) = g["win_share_ci95"], g["mean_score_ci95"]
                lines.append(f"{g[group.word]:<22} {100 * g['win_share']:5.1f}%  ({100 * a:.1f}-{100 * b:.1f}%)      "
                             f"{g['mean_score']:5.2f}  ({c:.2f}-{d:.2f})")
        lines.append("endings     " + "  ".join(f"{name} {100 * v:.1f}%" for name, v in summary["endings"].items()))
        lines.append(f"mean turns  {summary['mean_turns']:.2f}  (winning margin {summary['mean_margin']:.2f} points)")
        return "\n".join(lines + _speed(summary, threads))


def seats_summary(game, rules, policy: str, raw: np.ndarray, seconds: float | None = None) -> dict:
    """`SeatTally`'s summary of raw rows seen at once."""
    tally = SeatTally(game, rules, policy)
    tally.add(raw)
    return tally.result(seconds)
