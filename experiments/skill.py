"""Who finds it easy: win rate against skill on the report's rules (the "skill axis").

For the rulebook's rules and each recommended level, per player count, the `skilled` player is
played at a grid of skills on the same games (common random numbers), with the strongest fair
search (`lookahead`) and the clairvoyant bound (`clairvoyant`, a cheat: how much is luck) marked
beside the curve. From the curve the report says from which skill on a level lands in its
band: the table a designer should have in mind when printing "Normal".
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd

from experiments.runner import wilson_interval
from policies.game import game as game_named

SKILLS = (0.0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


WIN = 0  # the kernel's outcome code of a win (a game's causes list the win first)


def _rate(game, rules, player: str, games: int, seed: int, threads: int | None) -> dict:
    start = time.perf_counter()
    won = int((game.run_games(rules, player, games, seed=seed, threads=threads)[:, 0] == WIN).sum())
    seconds = time.perf_counter() - start
    lo, hi = wilson_interval(won, games)
    return {"wins": won, "games": games, "win_rate": won / games, "ci_low": lo, "ci_high": hi, "seconds": seconds}


def judge_sentence(df: pd.DataFrame, judged_games: int, judge: str) -> str:
    """Why `lookahead` does not judge, from what was measured: its speed here and the games the
    calibration above played with the judge."""
    part = df[df["player"] == "lookahead"]
    if part.empty or not part["seconds"].sum():
        return f"The verdicts stay `{judge}`'s."
    rate = part["games"].sum() / part["seconds"].sum()
    if not judged_games:
        return (f"The verdicts stay `{judge}`'s: `lookahead` played {rate:,.0f} games a second here, shown "
                "here and beside each level.")
    minutes = judged_games / rate / 60
    return (f"The verdicts stay `{judge}`'s: `lookahead` played {rate:,.0f} games a second here, and the "
            f"calibration above played {judged_games:,} games with `{judge}`, which would take `lookahead` "
            f"about {minutes:,.0f} minutes on this machine; so it is shown here and beside each level, not "
            "used to judge (`island-escape calibrate --policy lookahead` judges with it, given the time).")


def skill_curves(settings: list[tuple[str, str, object]], games: int, search_games: int, seed: int,
                 threads: int | None = None, skills=SKILLS, game=None) -> pd.DataFrame:
    """One row per (setting, player): `level` and `label` name the setting; `player` is
    `skilled@S` (the game's skill policy), `lookahead` or `clairvoyant`; `skill` is S (NaN for
    the searches). `game`: the lab's own game by default."""
    game = game if game is not None else game_named()
    rows = []
    for level, label, rules in settings:
        base = {"level": level, "label": label, "players": rules.players}
        for skill in skills:
            player = game.with_skill(game.skill_policy, skill)
            rows.append({**base, "player": player, "skill": skill, **_rate(game, rules, player, games, seed, threads)})
        for search in ("lookahead", "clairvoyant"):
            if search_games:
                rows.append({**base, "player": search, "skill": np.nan,
                             **_rate(game, rules, search, search_games, seed, threads)})
    return pd.DataFrame(rows)


def skill_in_band(curve: pd.DataFrame, band: tuple[float, float]) -> tuple[float, float] | None:
    """The skills (linearly interpolated between grid points) whose win rate lies in `band`,
    as (lowest, highest); None if the curve never enters it. The curve is the `skilled` rows of
    one setting, by skill."""
    c = curve.dropna(subset=["skill"]).sort_values("skill")
    xs = np.linspace(0.0, 1.0, 201)
    ys = np.interp(xs, c["skill"].to_numpy(float), c["win_rate"].to_numpy(float))
    inside = xs[(ys >= band[0]) & (ys <= band[1])]
    if not len(inside):
        return None
    return float(inside.min()), float(inside.max())


def band_sentence(level: str, label: str, curve: pd.DataFrame, band: tuple[float, float]) -> str:
    """From which skill on the setting plays at its level: the win rate rises with skill, so the
    band is entered at one skill and left (or not) at a higher one."""
    lo, hi = band
    c = curve.dropna(subset=["skill"]).sort_values("skill")
    span = skill_in_band(curve, band)
    name = level.capitalize()
    head = f"{name} ({label}, band {lo:.0%}-{hi:.0%})"
    if span is None:
        if c["win_rate"].max() < lo:
            return f"{head} is harder than its band at every skill: even the expert wins {c['win_rate'].max():.0%}."
        if c["win_rate"].min() > hi:
            return (f"{head} is easier than its band at every skill: even a careless table wins "
                    f"{c['win_rate'].min():.0%}.")
        return f"{head} jumps across its band between two grid skills."
    a, b = span
    text = f"{head} plays at its level from skill {a:.2f}"
    text += " up to the expert" if b >= 1.0 else f" to {b:.2f}; stronger tables find it easier"
    return text + f"; below skill {a:.2f} it is harder than {name}."


def plot_skill(df: pd.DataFrame, bands: dict[str, tuple[float, float]], path: Path) -> Path:
    """Per player count, win rate against skill for each setting with 95% bands; lookahead
    (triangle) and clairvoyant (star) at the right edge; the level bands shaded."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    counts = sorted(df["players"].unique())
    fig, axes = plt.subplots(1, len(counts), figsize=(4.2 * len(counts), 4.0), sharey=True, squeeze=False)
    colours = {"rulebook": "#444444", "easy": "#2a9d8f", "normal": "#e9c46a", "hard": "#e76f51"}
    for ax, n in zip(axes[0], counts, strict=True):
        for level, (lo, hi) in bands.items():
            ax.axhspan(lo, hi, color=colours.get(level, "#cccccc"), alpha=0.12, lw=0)
        part = df[df["players"] == n]
        for k, (label, setting) in enumerate(part.groupby("label", sort=False)):
            level = setting["level"].iloc[0]
            c = setting.dropna(subset=["skill"]).sort_values("skill")
            colour = colours.get(level, None)
            ax.plot(c["skill"], c["win_rate"], "-o", ms=3, color=colour, label=label)
            ax.fill_between(c["skill"], c["ci_low"], c["ci_high"], color=colour, alpha=0.25, lw=0)
            for marker, player, dx in (("^", "lookahead", 0.03), ("*", "clairvoyant", 0.06)):
                row = setting[setting["player"] == player]
                if len(row):
                    r = row.iloc[0]
                    ax.errorbar([1.0 + dx + 0.01 * k], [r["win_rate"]],
                                yerr=[[r["win_rate"] - r["ci_low"]], [r["ci_high"] - r["win_rate"]]],
                                fmt=marker, color=colour, ms=7 if marker == "*" else 5, capsize=2)
        ax.set_title(f"{n} players" if n > 1 else "1 player (two pawns, R5)")
        ax.set_xlabel("skill (0 careless - 1 expert);  ▲ lookahead, ★ clairvoyant")
        ax.set_xlim(-0.02, 1.12)
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="upper left")
    axes[0][0].set_ylabel("win rate")
    fig.suptitle("Who finds it easy: win rate by skill (shaded: Easy, Normal and Hard bands)")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def report_settings(recs: list[dict], game=None) -> list[tuple[str, str, object]]:
    """The rulebook's rules for 2-4 players and every recommendation; a solo game is the
    two-player game (R5), so 1-player rows are folded into the 2-player ones."""
    game = game if game is not None else game_named()
    out: list[tuple[str, str, object]] = [("rulebook", f"rulebook {n}p", game.rules(players=n))
                                          for n in game.players if n >= 2]
    seen: set[str] = set()  # a level whose rules are the rulebook's still gets its own row
    for rec in recs:
        rules = game.rules(**{**rec["rules"], "players": max(2, rec["rules"]["players"])})
        if repr(rules.as_record()) in seen:
            continue
        seen.add(repr(rules.as_record()))
        out.append((rec["level"], f"{rec['level']} {rules.players}p", rules))
    return out


def skill_section(recs: list[dict], bands: dict[str, tuple[float, float]], games: int, search_games: int,
                  seed: int, figures: Path, report_dir: Path, threads: int | None = None,
                  judged_games: int = 0, judge: str = "expert", game=None) -> list[str]:
    """The report's "Who finds it easy" section (markdown lines) and its figure; `judged_games`:
    how many games the calibration played with the `judge`."""
    df = skill_curves(report_settings(recs, game), games, search_games, seed, threads, game=game)
    path = plot_skill(df, bands, figures / "skill_curves.png")
    shown = [s for s in SKILLS if s in (0.0, 0.4, 0.6, 0.8, 1.0)]
    lines = ["## Who finds it easy", "",
             "The verdicts above are the expert's. People play worse: the `skilled` player makes an "
             "expert's plan with a person's mistakes (goals misjudged by noise that grows as skill falls, "
             "flooded Kings overlooked, steps taken at random); at skill 1 it is the expert, game for game. "
             f"Every curve plays the same {games:,} games per skill (seed {seed}); ▲ is `lookahead`, the "
             f"strongest fair search, and ★ `clairvoyant`, a cheat that knows every card and flood "
             f"({search_games:,} games each): what it still loses is bad luck no skill can beat. "
             + judge_sentence(df, judged_games, judge), "",
             f"![win rate by skill]({path.relative_to(report_dir)})", "",
             "| setting | " + " | ".join(f"skill {s:g}" for s in shown) + " | lookahead | clairvoyant |",
             "| --- |" + " ---: |" * (len(shown) + 2)]
    for label, part in df.groupby("label", sort=False):
        cells = []
        for s in shown:
            row = part[part["skill"] == s]
            cells.append(f"{row['win_rate'].iloc[0]:.0%}" if len(row) else "-")
        for search in ("lookahead", "clairvoyant"):
            row = part[part["player"] == search]
            cells.append(f"{row['win_rate'].iloc[0]:.0%} ({row['ci_low'].iloc[0]:.0%}-{row['ci_high'].iloc[0]:.0%})"
                         if len(row) else "-")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append("")
    for label, part in df.groupby("label", sort=False):
        level = part["level"].iloc[0]
        if level in bands:
            lines.append("- " + band_sentence(level, label, part, bands[level]))
    lines.append("")
    return lines
