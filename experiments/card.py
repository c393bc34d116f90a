"""The printable difficulty card: reports/difficulty-card.png and .pdf.

One page a designer can put in the rulebook, for the players rather than the lab: for each
player count, the gauge drawn as cards (A♣ at the top, where the water starts, down to 5♣ and
the optional 5♦), and beside it a rail per level - like the difficulty marks on a water meter -
with a triangle on the top card that level plays, a dot on each card below it that it plays, and
a cross on each card it leaves out. Under each rail, how often tables win that level, from a
first game to a seasoned group; under the gauges, each level's rule and the anchor game's level (Forbidden Island's)
it plays like. The levels are the anchored ladder (experiments/calibrate.py, `anchored_ladder`).
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import matplotlib

if "ipykernel" not in sys.modules:
    matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyBboxPatch  # noqa: E402

from experiments.calibrate import AnchoredLadder  # noqa: E402
from policies.game import game as game_named  # noqa: E402

LEVEL_COLOURS = {"easy": "#2e8b57", "normal": "#d68910", "hard": "#c0392b"}


def _players_columns(lad: AnchoredLadder) -> list[tuple[str, int]]:
    """(label, players) per column; R5: 1 and 2 players share a column."""
    counts = list(dict.fromkeys(p for lv in lad.levels for p in lv.rungs))
    out = []
    for p in counts:
        if p == 1 and 2 in counts:
            continue
        out.append(("1-2 players" if p == 2 and 1 in counts else f"{p} player{'s' if p > 1 else ''}", p))
    return out


def _card(ax, x: float, y: float, face: tuple[str, bool], w: float, h: float, extra: bool) -> None:
    ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0,rounding_size=0.06",
                                facecolor="#fbfbf8" if not extra else "white", edgecolor="#555555",
                                linewidth=1.0, linestyle="--" if extra else "-"))
    text, red = face
    colour = "#c0392b" if red else "#1b1b1b"
    ax.text(x + w / 2, y + h / 2, text, ha="center", va="center", fontsize=11, color=colour,
            fontweight="bold")


def difficulty_card(lad: AnchoredLadder, path: str | Path) -> Path:
    """Draw the card for `lad`; writes PNG and, beside it, PDF; returns the PNG path. Its gauge
    cards and words are the ladder's design space's (`CARD_*`, `card_face`)."""
    path = Path(path)
    design = lad.design
    gauge_cards, printed = design.CARD_GAUGE, design.FULL_GAUGE
    columns = _players_columns(lad)
    levels = lad.levels
    cw, ch, step = 0.95, 0.46, 0.54  # card width, height, vertical step
    rail_gap = 1.0  # room under each rail for a range such as "46-63%*"
    col_w = cw + 0.55 + rail_gap * len(levels) + 0.2
    width = max(0.6 + col_w * len(columns), 9.5)
    top = 7.0
    bottom_cards = top - step * (len(gauge_cards) - 1)
    height = top + 3.3
    uses_extra = any(c not in printed for lv in levels for r in lv.rungs.values() for c in r.gauge)
    starred = any(not r.keeps_to_anchor for lv in levels for r in lv.rungs.values())
    foot_lines = 2 + uses_extra + starred
    anchor_title = game_named(lad.anchor_game).title
    level_texts = []
    def words(rule) -> str:
        text = rule.describe()
        return "the printed rules" if text == "no other change" else text

    for lv in levels:
        rule = words(lv.rule)
        own: dict[str, list[str]] = {}  # a player count's own rule -> the counts that play it
        for label, p in columns:
            if lv.rungs[p].rule is not None:
                own.setdefault(words(lv.rungs[p].rule), []).append(label.split()[0].replace("-", " or "))
        exceptions = "".join(
            f" With {', '.join(counts[:-1]) + ' or ' if len(counts) > 1 else ''}{counts[-1]} players: {text} "
            "instead." for text, counts in own.items())
        level_texts.append(f"{rule[0].upper()}{rule[1:]}.{exceptions} The gauge as marked. Plays like "
                           f"{anchor_title}'s {lv.anchor.capitalize()}.")
    chars = int((width - 2.0) * 11)  # characters of 10-point text a line holds
    text_lines = sum(len(textwrap.wrap(t, chars)) for t in level_texts)
    low = bottom_cards - 1.0 - 0.5 * text_lines - 0.32 * foot_lines - 0.1
    fig, ax = plt.subplots(figsize=(width * 0.72, (height - low) * 0.72))
    ax.set_xlim(0, width)
    ax.set_ylim(low, height)
    ax.axis("off")
    ax.text(0.3, height - 0.1, design.CARD_TITLE, fontsize=17, fontweight="bold", va="top")
    ax.text(0.3, height - 0.75, "For every table, from a first game to a seasoned group: each level is about as "
            f"hard as the {anchor_title} level named with it.", fontsize=9.5, va="top", color="#1b1b1b")
    ax.text(0.3, height - 1.2, "Find your player count and your level. In that level's column, the triangle marks "
            "the top card of the gauge (the water starts there)\nand a dot each card below it; lay out those "
            "cards in that order and leave out the cards with a cross. Then play with the level's rule below.",
            fontsize=9.5, va="top", color="#333333", linespacing=1.4)

    for k, (label, players) in enumerate(columns):
        x0 = 0.6 + k * col_w
        ax.text(x0, top + 1.0, label, ha="left", fontsize=12, fontweight="bold")
        for i, code in enumerate(gauge_cards):
            y = top - i * step
            _card(ax, x0, y, design.card_face(code), cw, ch, extra=code not in printed)
        for j, lv in enumerate(levels):
            rung = lv.rungs[players]
            xr = x0 + cw + 0.55 + j * rail_gap
            colour = LEVEL_COLOURS.get(lv.level, "#34495e")
            ax.text(xr, top + 0.62, lv.level[0].upper(), ha="center", fontsize=10, fontweight="bold", color=colour)
            ax.plot([xr, xr], [bottom_cards + ch / 2, top + ch / 2], color=colour, alpha=0.25, linewidth=2,
                    solid_capstyle="round")
            for i, code in enumerate(gauge_cards):
                yc = top - i * step + ch / 2
                if code == rung.gauge[0]:  # the water starts here: the level's tick on the meter
                    ax.plot(xr, yc, marker="<", color=colour, markersize=11)
                elif code in rung.gauge:
                    ax.plot(xr, yc, "o", color=colour, markersize=7)
                else:
                    ax.plot(xr, yc, marker="x", color="#999999", markersize=5, linestyle="none")
            lo, hi = rung.win_range
            mark = "" if rung.keeps_to_anchor else "*"
            ax.text(xr, bottom_cards - 0.22, f"{100 * lo:.0f}-{100 * hi:.0f}%{mark}", ha="center", fontsize=7,
                    color=colour, va="top")

    y = bottom_cards - 1.0
    for lv, text in zip(levels, level_texts, strict=True):
        colour = LEVEL_COLOURS.get(lv.level, "#34495e")
        ax.text(0.3, y, f"{lv.level.capitalize()}:", fontsize=11, fontweight="bold", color=colour, va="top")
        ax.text(1.65, y, textwrap.fill(text, chars), fontsize=10, va="top", linespacing=1.3)
        y -= 0.5 * len(textwrap.wrap(text, chars))
    foot = ["Percentages: how often a table wins that level, from a group playing its first game (left) to a "
            "seasoned group that plans every turn ahead (right), over many simulated games.",
            design.CARD_SOLO_NOTE]
    if uses_extra:
        foot.append(design.CARD_EXTRA_NOTE)
    if starred:
        foot.append(f"* For some tables this level is easier or harder than its {anchor_title} level by more than "
                    "a few games in a hundred.")
    for line in foot:
        ax.text(0.3, y - 0.05, line, fontsize=7.5, color="#555555", va="top")
        y -= 0.32
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=150, bbox_inches="tight")
    fig.savefig(path.with_suffix(".pdf"), bbox_inches="tight")
    plt.close(fig)
    return path
