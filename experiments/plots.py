"""Figures for sweeps and the difficulty report (matplotlib, PNG, no screen needed)."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import matplotlib

if "ipykernel" not in sys.modules:  # files only, no screen; a notebook keeps its inline backend
    matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from experiments.anchor import printed_ladder  # noqa: E402
from policies.game import counted  # noqa: E402
from policies.game import game as game_named  # noqa: E402

CAUSE_COLOURS = {"treasure": "#c0392b", "helicopter": "#8e44ad", "drowned": "#2c3e50",
                 "water": "#2980b9", "cut_off": "#e67e22", "cards": "#7f8c8d"}
LOSS_CAUSES = tuple(CAUSE_COLOURS)
# Forbidden Island's losses (F14), in the same colours where the cause is the same kind of loss
FI_CAUSE_COLOURS = {"water": "#2980b9", "drowned": "#2c3e50", "treasure": "#c0392b", "fools_landing": "#8e44ad"}
PALETTE = {**FI_CAUSE_COLOURS, **CAUSE_COLOURS}  # every cause of every game, one colour a kind of loss


def cause_colours(game) -> dict[str, str]:
    """`game`'s loss causes in the order its rules check them, in the palette's colours."""
    return {cause: PALETTE.get(cause, "#7f8c8d") for cause in game.causes[1:]}


def _gauge_tick(gauge: str, game=None) -> str:
    """A gauge column value ("AD 2C … 5C") as a short tick label named by its cards (the game's
    own words for it: `value_text`; the lab's own game by default)."""
    name = (game or game_named()).value_text("gauge", gauge)
    return name.replace(", ", "\n") if "-" in name else name.replace(" ", "\n")


def _solo_folded(summary: pd.DataFrame) -> tuple[pd.DataFrame, dict[int, str]]:
    """R5: a solo game is the two-player game, so when a sweep has both, show them once as
    "1-2 players" (drawing both would hide one line under the other)."""
    labels = {n: f"{n} player{'s' if n > 1 else ''}" for n in summary["players"].unique()}
    if {1, 2} <= set(summary["players"]):
        keys = ["policy", "variant", "swim_cost", "actions_per_turn", "cards_per_treasure", "gauge"]
        one = summary[summary["players"] == 1].set_index(keys)["win_rate"]
        two = summary[summary["players"] == 2].set_index(keys)["win_rate"]
        if one.index.equals(two.index) and np.allclose(one.to_numpy(), two.reindex(one.index).to_numpy()):
            summary = summary[summary["players"] != 1]
            labels[2] = "1-2 players"
    return summary, labels


def _save(fig, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return path


# The columns of a sweep's summary that can vary from cell to cell, as figures name them; `skill`
# is read off a player spec `name@skill` (a skill sweep), `player` is the spec without it.
SWEPT = ("gauge_length", "cards_per_treasure", "swim_cost", "actions_per_turn", "variant", "player", "skill")
X_AXES = ("gauge_length", "skill", "cards_per_treasure", "swim_cost", "actions_per_turn")  # first swept one wins
X_LABELS = {"gauge_length": "gauge (first-last card)", "skill": "skill (0 careless - 1 expert)",
            "cards_per_treasure": "cards a treasure", "swim_cost": "actions a swim costs",
            "actions_per_turn": "actions a turn"}
MAX_PANELS = 12  # panels a figure holds; more slices go on to further figures (name-2.png, …)


def _with_skill(summary: pd.DataFrame) -> pd.DataFrame:
    """The summary with `player` and `skill` columns split off its player specs (`skilled@0.5`)."""
    summary = summary.copy()
    spec = summary["policy"].astype(str)
    summary["player"] = spec.str.partition("@")[0]
    # `lookahead@4` is a search's budget, not a skill: it stays in the player's name
    budgeted = summary["player"].isin(_budget_policies())
    summary.loc[budgeted, "player"] = spec[budgeted]
    summary["skill"] = pd.to_numeric(spec.str.partition("@")[2].where(~budgeted, "").replace("", np.nan))
    return summary


@functools.cache
def _budget_policies() -> frozenset[str]:
    """The policies of every game that take a search budget (looked up once)."""
    from policies.game import every_game

    return frozenset(name for g in every_game() for name in g.policy_names() if g.registry.takes_budget(name))


def swept(summary: pd.DataFrame) -> list[str]:
    """The columns of SWEPT whose value differs between the summary's cells."""
    summary = _with_skill(summary)
    return [k for k in SWEPT if k in summary and summary[k].nunique(dropna=False) > 1]


def slice_title(key: dict) -> str:
    """A panel's title: the value of every swept column its cells share, in words."""
    parts = []
    for name, value in key.items():
        if name == "gauge_length":
            parts.append(f"gauge of {counted(int(value), 'card')}")
        elif name == "cards_per_treasure":
            parts.append(f"{counted(int(value), 'card')} a treasure")
        elif name == "swim_cost":
            parts.append(f"swim {int(value)}")
        elif name == "actions_per_turn":
            parts.append(counted(int(value), "action"))
        elif name == "skill":
            parts.append(f"skill {value:g}" if pd.notna(value) else "no skill")
        else:
            parts.append(str(value))
    return ", ".join(parts) or "every cell"


def slices(summary: pd.DataFrame, x: str | None,
           inside: tuple[str, ...] = ("players",)) -> list[tuple[dict, pd.DataFrame]]:
    """The summary cut into one part per combination of the swept columns other than `x` and
    `inside` (what one panel draws): every cell lands in exactly one part, none is left out."""
    summary = _with_skill(summary)
    keys = [k for k in swept(summary) if k != x and k not in inside]
    if not keys:
        return [({}, summary)]
    return [(dict(zip(keys, value if isinstance(value, tuple) else (value,), strict=True)), part)
            for value, part in summary.groupby(keys, sort=False, observed=True, dropna=False)]


def _pages(items: list, size: int = MAX_PANELS) -> list[list]:
    return [items[i:i + size] for i in range(0, len(items), size)] or [[]]


def _page_path(path: Path, page: int) -> Path:
    return path if page == 0 else path.with_name(f"{path.stem}-{page + 1}{path.suffix}")


def win_rate_figures(summary: pd.DataFrame, folder: Path) -> list[Path]:
    """Win rate against the first swept rule (gauge length, skill, cards a treasure, swim cost
    or actions a turn), a line per player count, one panel per combination of the other swept
    columns (policy, variant, …), so that no cell is left out; with no such rule swept, the win
    rate by player count, a line per combination. `win_rate_by_<rule>.png` (and -2, -3, … when
    the panels do not fit in one figure)."""
    summary = _with_skill(summary)
    x = next((k for k in X_AXES if k in swept(summary)), None)
    if x is None:
        parts = slices(summary, "players", inside=())
        fig, ax = plt.subplots(figsize=(6.5, 3.8))
        for key, part in parts:
            part = part.sort_values("players")
            ax.errorbar(part["players"], 100 * part["win_rate"],
                        yerr=[100 * (part["win_rate"] - part["ci_low"]), 100 * (part["ci_high"] - part["win_rate"])],
                        marker="o", capsize=3, label=slice_title(key))
        ax.set_xticks(sorted(summary["players"].unique()))
        ax.set_xlabel("players")
        ax.set_ylabel("win rate, % (95% interval)")
        ax.set_ylim(0, 100)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
        ax.set_title("Win rate by player count")
        return [_save(fig, folder / "win_rate_by_players.png")]
    name = "gauge" if x == "gauge_length" else x
    paths = []
    for page, parts in enumerate(_pages(slices(summary, x))):
        cols = min(len(parts), 3)
        rows = -(-len(parts) // cols)
        fig, axes = plt.subplots(rows, cols, figsize=(4.4 * cols, 3.6 * rows), sharey=True, squeeze=False)
        for ax in axes.flat[len(parts):]:
            ax.set_visible(False)
        for ax, (key, part) in zip(axes.flat, parts, strict=False):
            part, names = _solo_folded(part)
            for players, line in part.groupby("players"):
                line = line.sort_values(x)
                ax.plot(line[x], 100 * line["win_rate"], marker="o", label=names[players])
                ax.fill_between(line[x], 100 * line["ci_low"], 100 * line["ci_high"], alpha=0.2)
            if x == "gauge_length":
                ticks = part.drop_duplicates(x).set_index(x)["gauge"].sort_index()
                ax.set_xticks(list(ticks.index), [_gauge_tick(v) for v in ticks], fontsize=7)
            else:
                ax.set_xticks(sorted(part[x].unique()))
            ax.set_title(slice_title(key), fontsize=9)
            ax.set_xlabel(X_LABELS[x])
            ax.grid(alpha=0.3)
            ax.set_ylim(0, 100)
            ax.legend(loc="lower right", fontsize=7)
        for row in axes:
            row[0].set_ylabel("win rate, % (95% band)")
        fig.suptitle(f"Win rate by {X_LABELS[x].split(' (')[0]}" + (f" ({page + 1})" if page else ""), y=1.02)
        fig.tight_layout()
        paths.append(_save(fig, _page_path(folder / f"win_rate_by_{name}.png", page)))
    return paths


def heatmaps(summary: pd.DataFrame, folder: Path) -> list[Path]:
    """Win rate over cards per treasure x gauge length: a row of heatmaps (one per player count)
    for every combination of the other swept columns."""
    summary = _with_skill(summary)
    if summary["gauge_length"].nunique() < 2 or summary["cards_per_treasure"].nunique() < 2:
        return []
    out = []
    rows_per_page = max(1, MAX_PANELS // max(1, summary["players"].nunique()))
    for page, parts in enumerate(_pages(slices(summary, "gauge_length", ("players", "cards_per_treasure")),
                                        rows_per_page)):
        folded = [(key, *_solo_folded(part)) for key, part in parts]
        players_list = sorted({p for _, part, _ in folded for p in part["players"].unique()})
        fig, axes = plt.subplots(len(folded), len(players_list), figsize=(3.8 * len(players_list), 3.4 * len(folded)),
                                 squeeze=False)
        im = None
        for r, (key, g, names) in enumerate(folded):
            ticks = g.drop_duplicates("gauge_length").set_index("gauge_length")["gauge"]
            for ax, players in zip(axes[r], players_list, strict=True):
                part = g[g["players"] == players]
                if part.empty:
                    ax.set_visible(False)
                    continue
                table = part.pivot_table(index="cards_per_treasure", columns="gauge_length", values="win_rate")
                im = ax.imshow(100 * table.values, vmin=0, vmax=100, cmap="RdYlGn", aspect="auto", origin="lower")
                ax.set_xticks(range(len(table.columns)), [_gauge_tick(ticks[c]) for c in table.columns], fontsize=6)
                ax.set_yticks(range(len(table.index)), table.index)
                for (i, j), v in np.ndenumerate(table.values):
                    ax.text(j, i, f"{100 * v:.0f}", ha="center", va="center", fontsize=8)
                ax.set_title(f"{names[players]}; {slice_title(key)}", fontsize=8)
                ax.set_xlabel("gauge (first-last card)")
            axes[r][0].set_ylabel("cards per treasure")
        if im is not None:
            fig.colorbar(im, ax=axes.ravel().tolist(), label="win rate, %")
        fig.suptitle("Win rate over cards a treasure and gauge" + (f" ({page + 1})" if page else ""), y=1.02)
        out.append(_save(fig, _page_path(folder / "heatmap_win_rate.png", page)))
    return out


def cell_label(row) -> str:
    """A sweep cell in one line: its players, cards a treasure, gauge, swim cost, actions,
    variant and policy."""
    gauge = _gauge_tick(row.gauge).replace(chr(10), " ")
    return (f"{row.players}p, {counted(row.cards_per_treasure, 'card')}, gauge {gauge}, swim {row.swim_cost}, "
            f"{counted(row.actions_per_turn, 'action')}, {row.variant}, {row.policy}")


def loss_causes_pages(summary: pd.DataFrame, path: Path, max_rows: int = 40) -> list[Path]:
    """`loss_causes` of every cell of a sweep, `max_rows` cells a figure (path, path-2, …)."""
    rows = list(range(len(summary)))
    return [loss_causes(summary.iloc[part], _page_path(path, page), max_rows=max_rows,
                        title="How games end" + (f" ({page + 1})" if page else ""))
            for page, part in enumerate(_pages(rows, max_rows))]


def loss_causes(summary: pd.DataFrame, path: Path, max_rows: int = 40, labels: list[str] | None = None,
                title: str = "How games end", colours: dict[str, str] | None = None) -> Path:
    """Stacked bars: how each setting's games end (wins and each loss cause; `colours` names the
    causes and their colours, Island Escape's by default); the first `max_rows` settings (a
    sweep's figures page through them all: loss_causes_pages)."""
    colours = colours or CAUSE_COLOURS
    s = summary.head(max_rows)
    if labels is None:
        labels = [cell_label(r) for r in s.itertuples()]
    labels = labels[:max_rows]
    fig, ax = plt.subplots(figsize=(8, 0.28 * len(s) + 1.5))
    left = np.zeros(len(s))
    y = np.arange(len(s))
    ax.barh(y, 100 * s["win_rate"], left=left, color="#27ae60", label="win")
    left += 100 * s["win_rate"].to_numpy()
    for cause, colour in colours.items():
        v = 100 * s[f"loss_{cause}"].to_numpy()
        ax.barh(y, v, left=left, color=colour, label=cause)
        left += v
    ax.set_yticks(y, labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of games")
    ax.legend(ncol=4, fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.08 - 1.0 / (len(s) + 4)))
    ax.set_title(title)
    return _save(fig, path)


def loss_hazard(games: pd.DataFrame, path: Path, colours: dict[str, str] | None = None,
                title: str = "Loss hazard over turns, by cause") -> Path:
    """When games are lost: per turn, the share of games still running that are lost, by cause."""
    colours = colours or CAUSE_COLOURS
    turns = np.arange(1, int(games["turns"].max()) + 1)
    alive = np.array([(games["turns"] >= t).sum() for t in turns], dtype=float)
    fig, ax = plt.subplots(figsize=(7, 3.6))
    bottom = np.zeros(len(turns))
    for cause, colour in colours.items():
        lost = games[games["cause"] == cause]["turns"].value_counts().reindex(turns, fill_value=0).to_numpy()
        rate = np.divide(100 * lost, alive, out=np.zeros_like(alive), where=alive > 0)
        ax.bar(turns, rate, bottom=bottom, color=colour, label=cause, width=0.85)
        bottom += rate
    ax.set_xlabel("turn")
    ax.set_ylabel("% of games still running, lost this turn")
    ax.set_title(title)
    ax.legend(fontsize=7, ncol=3)
    ax.grid(alpha=0.3, axis="y")
    return _save(fig, path)


def loss_hazard_grid(frames: dict[tuple[str, str], pd.DataFrame], path: Path, title: str = "") -> Path:
    """The loss hazard per setting: a panel per (level, players) - rows are levels, columns player
    counts - so settings with different gauges are never mixed in one curve."""
    levels = list(dict.fromkeys(k[0] for k in frames))
    counts = list(dict.fromkeys(k[1] for k in frames))
    longest = max(int(df["turns"].max()) for df in frames.values())
    fig, axes = plt.subplots(len(levels), len(counts), figsize=(3.4 * len(counts), 2.3 * len(levels)),
                             sharex=True, sharey=True, squeeze=False)
    turns = np.arange(1, longest + 1)
    rates = {}
    for key, df in frames.items():
        alive = np.array([(df["turns"] >= t).sum() for t in turns], dtype=float)
        rates[key] = {}
        for cause in LOSS_CAUSES:
            lost = df[df["cause"] == cause]["turns"].value_counts().reindex(turns, fill_value=0).to_numpy()
            rates[key][cause] = np.divide(100 * lost, alive, out=np.zeros_like(alive), where=alive > 0)
    # The last turn of a gauge loses most games still running to the water (the clock, R14): its
    # bar would flatten every other, so the axis stops above the earlier turns and the last bar
    # is clipped, with its height written on it.
    before_last = [sum(r.values())[: int(frames[k]["turns"].max()) - 1].max(initial=0) for k, r in rates.items()]
    top = max(5.0, 1.4 * max(before_last))
    for i, level in enumerate(levels):
        for j, count in enumerate(counts):
            ax = axes[i][j]
            if (level, count) not in frames:
                ax.set_visible(False)
                continue
            bottom = np.zeros(len(turns))
            for cause in LOSS_CAUSES:
                rate = rates[(level, count)][cause]
                ax.bar(turns, rate, bottom=bottom, color=CAUSE_COLOURS[cause], label=cause, width=0.85)
                bottom += rate
            for t, total in zip(turns, bottom, strict=True):
                if total > top:
                    ax.text(t, 0.97 * top, f"{total:.0f}%", ha="center", va="top", fontsize=7, rotation=90,
                            color="white", fontweight="bold")
            ax.set_ylim(0, top)
            ax.set_title(f"{level}, {count} player{'s' if count != '1' else ''}", fontsize=9)
            ax.grid(alpha=0.3, axis="y")
            if i == len(levels) - 1:
                ax.set_xlabel("turn")
            if j == 0:
                ax.set_ylabel("% lost this turn")
    handles, names = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, names, ncol=len(names), fontsize=8, loc="lower center", bbox_to_anchor=(0.5, -0.04))
    if title:
        fig.suptitle(title, y=1.01)
    fig.tight_layout()
    return _save(fig, path)


def policy_ladder(rows: pd.DataFrame, path: Path) -> Path:
    """Win rate of each policy on each recommended setting (rows: label, policy, win_rate, ci)."""
    labels = list(dict.fromkeys(rows["label"]))
    policies = list(dict.fromkeys(rows["policy"]))
    width = 0.8 / max(1, len(policies))
    fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(labels) + 2), 3.8))
    for k, policy in enumerate(policies):
        part = rows[rows["policy"] == policy].set_index("label").reindex(labels)
        x = np.arange(len(labels)) + k * width
        err = [100 * (part["win_rate"] - part["ci_low"]), 100 * (part["ci_high"] - part["win_rate"])]
        ax.bar(x, 100 * part["win_rate"], width, yerr=err, label=policy, capsize=2)
    ax.set_xticks(np.arange(len(labels)) + width * (len(policies) - 1) / 2, labels, rotation=30, ha="right",
                  fontsize=8)
    ax.set_ylabel("win rate, %")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=8, ncol=len(policies))
    ax.set_title("Every policy on the recommended settings")
    ax.grid(alpha=0.3, axis="y")
    return _save(fig, path)


def win_rate_by_level(summary: pd.DataFrame, path: Path, levels: tuple[str, ...],
                      published: dict[int, dict[str, float]], title: str, axis: str,
                      column: str = "level") -> Path | None:
    """Win rate by printed level (the summary's `column`), a line per player count and policy
    with 95% intervals, beside a published player's rates (dashed; players -> level -> rate)."""
    levels = [lv for lv in levels if lv in set(summary[column].astype(str))]
    if not levels:
        return None
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    x = np.arange(len(levels))
    colours = dict(zip(sorted(summary["players"].unique()), ("#e74c3c", "#2980b9", "#27ae60"), strict=False))
    markers = dict(zip(summary["policy"].astype(str).unique(), "osD^v", strict=False))
    counts = sorted(summary["players"].unique())
    for (players, policy), g in summary.groupby(["players", "policy"], sort=True, observed=True):
        g = g.set_index(g[column].astype(str)).reindex(levels)
        rate = 100 * g["win_rate"].to_numpy(dtype=float)
        err = [rate - 100 * g["ci_low"].to_numpy(dtype=float), 100 * g["ci_high"].to_numpy(dtype=float) - rate]
        shift = 0.05 * (counts.index(players) - (len(counts) - 1) / 2)  # equal rates stay visible side by side
        ax.errorbar(x + shift, rate, yerr=err, color=colours.get(players, "grey"),
                    marker=markers.get(str(policy), "o"), capsize=3, label=f"{players} players, {policy}")
    for players in sorted(summary["players"].unique()):
        if players in published:
            ax.plot(x, [100 * published[players][lv] for lv in levels], color=colours.get(players, "grey"),
                    ls="--", lw=1, alpha=0.7, label=f"{players} players, published bot")
    ax.set_xticks(x, [lv.capitalize() for lv in levels])
    ax.set_xlabel(axis)
    ax.set_ylabel("win rate, %")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    return _save(fig, path)


def ladder_figure(game, summary: pd.DataFrame, path: Path, column: str = "level") -> Path | None:
    """`game`'s win rate by printed level beside its published player's (experiments/anchor.py)."""
    facts = printed_ladder(game)
    return win_rate_by_level(summary, path, tuple(game.levels), facts.PUBLISHED_WIN,
                             f"{game.title}: win rate by level", facts.LEVEL_AXIS, column)


def level_column(game) -> str:
    """The table column naming a printed level: the rule key its levels set."""
    return next(iter(next(iter(game.levels.values()))))


def printed_level_figures(games: pd.DataFrame, summary: pd.DataFrame, folder: Path, game) -> list[Path]:
    """A sweep over a game's printed levels: win rate by level beside the published player's,
    loss causes and the loss hazard."""
    column = level_column(game)
    colours = cause_colours(game)
    labels = [f"{r.players}p, {getattr(r, column)}, {r.policy}" for r in summary.itertuples()]
    paths = [ladder_figure(game, summary, folder / "win_rate_by_level.png", column),
             loss_causes(summary, folder / "loss_causes.png", labels=labels, colours=colours)]
    if len(games):
        paths.append(loss_hazard(games, folder / "loss_hazard.png", colours=colours))
    return [p for p in paths if p is not None]


def sweep_figures(games: pd.DataFrame, summary: pd.DataFrame, folder: Path, game=None) -> list[Path]:
    """A sweep's figures: by level for a game with printed levels, else by the rules swept."""
    folder = Path(folder)
    if game is not None and game.levels:
        return printed_level_figures(games, summary, folder, game)
    if "furthest_from_fair" in summary:  # the cells' seats, where seats play for themselves
        return seat_sweep_figures(summary, folder)
    paths = win_rate_figures(summary, folder)
    paths += heatmaps(summary, folder)
    paths += loss_causes_pages(summary, folder / "loss_causes.png")
    if len(games):
        cells = games["cell"].nunique() if "cell" in games else 1
        paths.append(loss_hazard(games, folder / "loss_hazard.png",
                                 title="Loss hazard over turns, by cause" + (f" ({cells} cells together)"
                                                                             if cells > 1 else "")))
    return [p for p in paths if p is not None]


# --- a competitive game's seats (experiments/seats.py) ----------------------------------------------


def seat_shares_figure(groups: list[tuple[str, list[dict]]], path: Path, title: str) -> Path:
    """Each seat's win share with its 95% interval, a group of bars per (label, seats) - a player
    count, a sweep's cell - with the group's fair share drawn across it. A seat is a summary's
    seat: `win_share` and `win_share_ci95`."""
    fig, ax = plt.subplots(figsize=(max(8, 1.1 * sum(len(seats) + 1.5 for _, seats in groups) / 2), 4))
    x = 0.0
    ticks, labels = [], []
    for label, seats in groups:
        for k, seat in enumerate(seats):
            lo, hi = seat["win_share_ci95"]
            share = seat["win_share"]
            ax.bar(x + k, 100 * share, color=f"C{k}", width=0.8)
            ax.errorbar(x + k, 100 * share, yerr=[[100 * (share - lo)], [100 * (hi - share)]], color="black",
                        capsize=3, linewidth=1)
        ax.hlines(100 / len(seats), x - 0.5, x + len(seats) - 0.5, colors="black", linestyles="dashed", linewidth=1)
        ticks.append(x + (len(seats) - 1) / 2)
        labels.append(label)
        x += len(seats) + 1.5
    ax.set_xticks(ticks, labels, fontsize=8 if len(groups) > 4 else 10)
    ax.set_ylabel("win share (%)")
    ax.set_title(title + "\n(bars: seat 1, 2, ... in turn order; dashes: a fair share)", fontsize=10)
    return _save(fig, path)


def seat_sweep_figures(summary: pd.DataFrame, folder: Path) -> list[Path]:
    """A competitive game's sweep: the seats' win shares of every cell (`MAX_PANELS` cells a
    figure) and how far each cell's furthest seat lies from fair."""
    setting = list(summary.columns[:list(summary.columns).index("games")])  # labels, player, rules
    keys = [k for k in setting if k != "cell" and summary[k].nunique(dropna=False) > 1] or ["policy"]

    def label(row) -> str:
        return "\n".join(f"{k} {row[k]}" for k in keys)

    def seats(row) -> list[dict]:
        out, k = [], 1
        while f"seat{k}_share" in row and pd.notna(row[f"seat{k}_share"]):
            out.append({"win_share": row[f"seat{k}_share"],
                        "win_share_ci95": [row[f"seat{k}_low"], row[f"seat{k}_high"]]})
            k += 1
        return out

    rows = [row for _, row in summary.iterrows()]
    paths = [seat_shares_figure([(label(r), seats(r)) for r in page],
                                _page_path(folder / "seat_shares.png", i), "Win share by seat, cell by cell")
             for i, page in enumerate(_pages(rows))]
    fig, ax = plt.subplots(figsize=(max(6, 0.6 * len(rows)), 3.6))
    ax.bar(range(len(rows)), [100 * r["furthest_from_fair"] for r in rows], color="C0")
    ax.set_xticks(range(len(rows)), [label(r) for r in rows], fontsize=7)
    ax.set_ylabel("furthest seat from fair (points)")
    ax.set_title("How far each cell's least fairly treated seat is from a fair share", fontsize=10)
    return paths + [_save(fig, folder / "furthest_from_fair.png")]


def game_length_figure(runs: dict, endings: tuple[str, ...], path: Path, title: str) -> Path:
    """How many turns games last, one panel per player count, stacked by how they ended."""
    fig, axes = plt.subplots(1, len(runs), figsize=(3.2 * len(runs), 3), sharey=True, squeeze=False)
    for ax, (players, run) in zip(axes[0], sorted(runs.items()), strict=True):
        bins = np.arange(run.turns.min(), run.turns.max() + 2) - 0.5
        data = [run.turns[run.ending == k] for k in range(len(endings))]
        ax.hist(data, bins=bins, stacked=True, label=list(endings), color=[f"C{k + 3}" for k in range(len(endings))],
                density=True)
        ax.set_title(f"{players} players", fontsize=10)
        ax.set_xlabel("turns")
    axes[0][0].set_ylabel("share of games")
    axes[0][-1].legend(fontsize=8)
    fig.suptitle(title, fontsize=11, y=1.04)  # above the panels' own titles
    return _save(fig, path)


def fairness_figure(results: list, path: Path, title: str) -> Path:
    """For each player count, how far from fair the furthest seat lies under each setting tried
    (the printed rules marked, the chosen setting ringed), against the tolerance."""
    fig, ax = plt.subplots(figsize=(8, 3.6))
    for i, f in enumerate(results):
        values = [100 * run.largest_unfairness for _, run in f.tried]
        ax.scatter(np.full(len(values), i) + np.linspace(-0.25, 0.25, len(values)), values, s=12, color="C0",
                   alpha=0.6)
        printed = next(100 * run.largest_unfairness for change, run in f.tried if not change)
        ax.scatter([i], [printed], marker="s", s=50, color="C3", label="the printed rules" if i == 0 else None)
        chosen = 100 * f.chosen[1].largest_unfairness
        ax.scatter([i], [chosen], marker="o", s=90, facecolors="none", edgecolors="black",
                   label="the setting chosen" if i == 0 else None)
    tolerance = 100 * results[0].tolerance if results else 2
    ax.axhline(tolerance, color="black", linestyle="dashed", linewidth=1, label=f"±{tolerance:.0f} points")
    ax.set_xticks(range(len(results)), [f"{f.players} players" for f in results])
    ax.set_ylabel("furthest seat from fair (points)")
    ax.set_title(title, fontsize=11)
    ax.legend(fontsize=8)
    return _save(fig, path)
