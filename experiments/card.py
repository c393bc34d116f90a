"""The printable difficulty card: reports/difficulty-card.png and .pdf.

One page a designer can put in the rulebook: for each player count, the gauge drawn as cards
(A♣ at the top, where the water starts, down to 5♣ and the optional 5♦), and beside it a rail per
level - like the difficulty marks on a water meter - with a mark on every card that level plays
and a triangle where its water starts. Under the gauges, the one-line rule of each level.
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

if "ipykernel" not in sys.modules:
    matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyBboxPatch  # noqa: E402

from experiments.calibrate import ALL_GAUGE_CARDS, Ladder  # noqa: E402
from sim.island_escape.rules import FULL_GAUGE, pretty  # noqa: E402

LEVEL_COLOURS = {"easy": "#2e8b57", "normal": "#d68910", "hard": "#c0392b"}
RED_SUITS = ("D", "H")


def _players_columns(lad: Ladder) -> list[tuple[str, int]]:
    """(label, players) per column; R5: 1 and 2 players share a column."""
    counts = list(dict.fromkeys(p for lv in lad.levels for p in lv.rungs))
    out = []
    for p in counts:
        if p == 1 and 2 in counts:
            continue
        out.append(("1-2 players" if p == 2 and 1 in counts else f"{p} player{'s' if p > 1 else ''}", p))
    return out


def _card(ax, x: float, y: float, code: str, w: float, h: float, extra: bool) -> None:
    ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0,rounding_size=0.06",
                                facecolor="#fbfbf8" if not extra else "white", edgecolor="#555555",
                                linewidth=1.0, linestyle="--" if extra else "-"))
    colour = "#c0392b" if code[-1] in RED_SUITS else "#1b1b1b"
    ax.text(x + w / 2, y + h / 2, pretty(code), ha="center", va="center", fontsize=11, color=colour,
            fontweight="bold")


def difficulty_card(lad: Ladder, printed: dict[int, dict] | None, path: str | Path) -> Path:
    """Draw the card for `lad` (the rulebook-ready ladder); `printed` (players -> win_rate) adds
    the printed rules' win rates. Writes PNG and, beside it, PDF; returns the PNG path."""
    path = Path(path)
    columns = _players_columns(lad)
    levels = lad.levels
    cw, ch, step = 0.95, 0.46, 0.54  # card width, height, vertical step
    rail_gap = 0.62
    col_w = cw + 0.55 + rail_gap * len(levels) + 0.25
    width = max(0.6 + col_w * len(columns), 9.5)
    top = 7.0
    bottom_cards = top - step * (len(ALL_GAUGE_CARDS) - 1)
    height = top + 2.9
    low = bottom_cards - 1.3 - 0.5 * len(levels) - 0.32 * 3 - 0.1
    fig, ax = plt.subplots(figsize=(width * 0.72, (height - low) * 0.72))
    ax.set_xlim(0, width)
    ax.set_ylim(low, height)
    ax.axis("off")
    ax.text(0.3, height - 0.1, "Island Escape - difficulty levels", fontsize=17, fontweight="bold", va="top")
    ax.text(0.3, height - 0.8, "Find your player count and your level. Lay out the gauge cards that have a "
            "dot,\ntop card where the triangle points (the water starts there); then play with the level's "
            "rule below.", fontsize=9.5, va="top", color="#333333", linespacing=1.4)

    for k, (label, players) in enumerate(columns):
        x0 = 0.6 + k * col_w
        ax.text(x0, top + 1.0, label, ha="left", fontsize=12, fontweight="bold")
        for i, code in enumerate(ALL_GAUGE_CARDS):
            y = top - i * step
            _card(ax, x0, y, code, cw, ch, extra=code not in FULL_GAUGE)
        for j, lv in enumerate(levels):
            rung = lv.rungs[players]
            xr = x0 + cw + 0.55 + j * rail_gap
            colour = LEVEL_COLOURS.get(lv.level, "#34495e")
            ax.text(xr, top + 0.62, lv.level[0].upper(), ha="center", fontsize=10, fontweight="bold", color=colour)
            ax.plot([xr, xr], [bottom_cards + ch / 2, top + ch / 2], color=colour, alpha=0.25, linewidth=2,
                    solid_capstyle="round")
            for i, code in enumerate(ALL_GAUGE_CARDS):
                yc = top - i * step + ch / 2
                if code == rung.gauge[0]:  # the water starts here: the level's tick on the meter
                    ax.plot(xr, yc, marker="<", color=colour, markersize=11)
                elif code in rung.gauge:
                    ax.plot(xr, yc, "o", color=colour, markersize=7)
                else:
                    ax.plot(xr, yc, marker="x", color="#999999", markersize=5, linestyle="none")
            mark = "" if rung.inside else "*"
            ax.text(xr, bottom_cards - 0.25, f"{100 * rung.result.rate:.0f}%{mark}", ha="center", fontsize=7.5,
                    color=colour, va="top")
        if printed:
            rate = printed.get(players, {}).get("win_rate")
            if rate is not None:
                ax.text(x0, bottom_cards - 0.7, f"printed rules: {100 * rate:.0f}% won", ha="left",
                        fontsize=8, color="#555555", va="top")

    y = bottom_cards - 1.3
    for lv in levels:
        colour = LEVEL_COLOURS.get(lv.level, "#34495e")
        ax.text(0.3, y, f"{lv.level.capitalize()}:", fontsize=11, fontweight="bold", color=colour, va="top")
        ax.text(1.65, y, f"{lv.rule.describe()}; the gauge as marked "
                f"(aim: {100 * lv.band[0]:.0f}-{100 * lv.band[1]:.0f}% of games won).", fontsize=10, va="top")
        y -= 0.5
    outside = sum(not r.inside for lv in levels for r in lv.rungs.values())
    foot = [f"Percentages: games won by the lab's judge ({lad.policy}, its strongest fast fair player), each "
            "confirmed on thousands of simulated games.",
            "A solo game is played with two pawns, like two players (R5). Dashed: 5♦ is not in the printed "
            "gauge; add it at the bottom where it has a dot."]
    if outside:
        foot.append("* outside its aim: no gauge of up to three cards changed reaches it with this level's rule.")
    for line in foot:
        ax.text(0.3, y - 0.05, line, fontsize=7.5, color="#555555", va="top")
        y -= 0.32
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=150, bbox_inches="tight")
    fig.savefig(path.with_suffix(".pdf"), bbox_inches="tight")
    plt.close(fig)
    return path
