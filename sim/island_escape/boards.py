"""Pictures of the island (matplotlib): the 5x5 cards, pawns, salvage, raised treasures, gauge.

Face-down tiles show a card back, face-up tiles their rank and suit (hearts and diamonds red),
flooded tiles lie crosswise on a blue tint, sea is water, the helicopter is the joker. Pawns
are coloured tokens; each pawn's salvage, the raised treasures and the gauge (top card = water
level) stand beside the board.
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

if "ipykernel" not in sys.modules:  # files only, no screen; a notebook keeps its inline backend
    matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Circle, FancyBboxPatch, Rectangle  # noqa: E402

from sim.boards import SEA_BLUE, grid_numbers, save_figure, sea_square, verdict, write_gif  # noqa: E402
from sim.island_escape.engine import DOWN, FLOODED, SEA, IslandEscapeEngine  # noqa: E402
from sim.island_escape.rules import SUIT_SYMBOL, pretty, rank_of  # noqa: E402

PAWN_COLOURS = ("#e74c3c", "#2980b9", "#27ae60", "#f39c12")
RED_SUITS = ("H", "D")
FLOOD_TINT = "#d6eaf8"
BACK = "#34495e"


def tile_look(tile) -> tuple[bool, float, float, str, str]:
    """How a land tile is drawn, the same in the PNG and the SVG: (flooded, width, height, face
    colour, edge colour); a flooded card lies crosswise."""
    flooded = tile.state == FLOODED
    w, h = (0.86, 0.62) if flooded else (0.62, 0.86)
    if tile.state == DOWN:
        return flooded, w, h, BACK, "#1b2631"
    return flooded, w, h, ("#fdebd0" if tile.card == "JK" else "white"), "#7f8c8d"


def _card_label(card: str) -> tuple[str, str]:
    if card == "JK":
        return "JK\nheli", "#6c3483"
    return card[:-1] + SUIT_SYMBOL[card[-1]], "#c0392b" if card[-1] in RED_SUITS else "#1c2833"


def _place_xy(c: int, r: int) -> tuple[float, float]:
    """Lower-left corner of a place's square: column to the right, row 1 at the top."""
    return (c - 1, 5 - r)


def draw_board(game: IslandEscapeEngine, title: str = "", ax_board=None, ax_side=None):
    """Draw `game` as it stands now; returns the figure."""
    if ax_board is None:
        fig = plt.figure(figsize=(9.6, 6.0))
        ax_board = fig.add_axes((0.02, 0.05, 0.58, 0.85))
        ax_side = fig.add_axes((0.62, 0.05, 0.36, 0.85))
    fig = ax_board.figure
    ax_board.set_xlim(-0.1, 5.1)
    ax_board.set_ylim(-0.1, 5.1)
    ax_board.set_aspect("equal")
    ax_board.axis("off")
    for (c, r), tile in game.board.items():
        x, y = _place_xy(c, r)
        if tile.state == SEA:
            sea_square(ax_board, x, y, gid=f"place-{c}-{r}")
            continue
        flooded, w, h, face, edge = tile_look(tile)
        if flooded:  # crosswise on a blue tint
            ax_board.add_patch(Rectangle((x, y), 1, 1, color=FLOOD_TINT, lw=0))
        cx, cy = x + 0.5, y + 0.5
        # the id lets the play page make a place clickable in the SVG (experiments/play)
        ax_board.add_patch(FancyBboxPatch((cx - w / 2, cy - h / 2), w, h, boxstyle="round,pad=0.0,rounding_size=0.06",
                                          fc=face, ec=edge, lw=1.2, gid=f"place-{c}-{r}"))
        if tile.state == DOWN:
            ax_board.add_patch(Rectangle((cx - w / 2 + 0.07, cy - h / 2 + 0.07), w - 0.14, h - 0.14, fill=False,
                                         ec="#85929e", lw=0.8, hatch="xx"))
        else:
            text, colour = _card_label(tile.card)
            weight = "bold" if tile.card.startswith("K") or tile.card == "JK" else "normal"
            ax_board.text(cx, cy, text, ha="center", va="center", fontsize=12 if len(text) < 4 else 9,
                          color=colour, weight=weight, rotation=90 if flooded else 0)
            if tile.card.startswith("K") and tile.card[-1] in game.raised:
                ax_board.text(cx, y + 0.08, "raised", ha="center", va="bottom", fontsize=6, color="#1e8449")
    # pawns: tokens in the corners of their place
    offsets = ((-0.3, 0.3), (0.3, 0.3), (-0.3, -0.3), (0.3, -0.3))
    for i, (c, r) in enumerate(game.pawns):
        x, y = _place_xy(c, r)
        dx, dy = offsets[i]
        ax_board.add_patch(Circle((x + 0.5 + dx, y + 0.5 + dy), 0.13, fc=PAWN_COLOURS[i], ec="black", lw=1, zorder=5))
        ax_board.text(x + 0.5 + dx, y + 0.5 + dy, str(i), ha="center", va="center", fontsize=7, color="white",
                      weight="bold", zorder=6)
    grid_numbers(ax_board, 5)
    # the side panel: salvage, raised treasures, gauge
    ax_side.axis("off")
    ax_side.set_xlim(0, 1)
    ax_side.set_ylim(0, 1)
    yy = 0.97
    ax_side.text(0, yy, "salvage", fontsize=10, weight="bold", va="top")
    for i, hand in enumerate(game.salvage):
        yy -= 0.07
        ax_side.add_patch(Circle((0.03, yy - 0.015), 0.018, fc=PAWN_COLOURS[i], ec="black",
                                 transform=ax_side.transAxes))
        ax_side.text(0.08, yy, f"pawn {i}: " + (" ".join(pretty(c) for c in hand) or "-"), fontsize=9, va="top")
    yy -= 0.1
    raised = " ".join(f"{SUIT_SYMBOL[s]}" for s in game.raised) or "-"
    ax_side.text(0, yy, f"raised treasures: {raised}", fontsize=10, weight="bold", va="top")
    yy -= 0.1
    ax_side.text(0, yy, f"gauge (water level {rank_of(game.gauge[0])})", fontsize=10, weight="bold", va="top")
    yy -= 0.07
    for k, card in enumerate(game.gauge):
        text, colour = _card_label(card)
        x0 = 0.02 + 0.1 * k
        ax_side.add_patch(FancyBboxPatch((x0, yy - 0.09), 0.08, 0.09, boxstyle="round,pad=0.0,rounding_size=0.01",
                                         fc="#fef9e7" if k == 0 else "white", ec="#7f8c8d", lw=1.5 if k == 0 else 0.8))
        ax_side.text(x0 + 0.04, yy - 0.045, text, ha="center", va="center", fontsize=8, color=colour)
    yy -= 0.16
    drawn = " ".join(f"({c},{r})" for c, r in zip(game.col_drawn, game.row_drawn, strict=True)) or "-"
    ax_side.text(0, yy, f"floods this pass: {drawn}", fontsize=8, va="top", color="#555")
    yy -= 0.05
    ax_side.text(0, yy, f"turn {game.turn}, {game.floods} floods so far", fontsize=8, va="top", color="#555")
    verdict(ax_side, yy - 0.08, game.outcome)
    if title:
        fig.suptitle(title, fontsize=12)
    return fig


# --- the same picture as SVG text, built directly (the play page's board) --------------------------
#
# matplotlib would take ~70 ms a board and pyplot one drawing at a time; the page needs many
# boards at once. The picture below is draw_board's, element for element: the same figure
# (9.6 x 6 inches, in points), the same axes boxes, colours and sizes, so a board on the page and
# a replay's PNG look alike.

FIGURE_PT = (9.6 * 72, 6.0 * 72)
BOARD_AXES = (0.02, 0.05, 0.58, 0.85)  # the figure fractions draw_board gives its two axes
SIDE_AXES = (0.62, 0.05, 0.36, 0.85)
BOARD_LIMITS = (-0.1, 5.1)


def _board_transform():
    """Data (column, row units) to SVG points, as matplotlib places an equal-aspect axes."""
    w, h = FIGURE_PT
    left, bottom, width, height = BOARD_AXES[0] * w, BOARD_AXES[1] * h, BOARD_AXES[2] * w, BOARD_AXES[3] * h
    span = BOARD_LIMITS[1] - BOARD_LIMITS[0]
    scale = min(width, height) / span
    x0 = left + (width - span * scale) / 2
    top = h - bottom - height + (height - span * scale) / 2
    return (lambda x: x0 + (x - BOARD_LIMITS[0]) * scale), (lambda y: top + (BOARD_LIMITS[1] - y) * scale), scale


def _side_transform():
    w, h = FIGURE_PT
    left, bottom, width, height = SIDE_AXES[0] * w, SIDE_AXES[1] * h, SIDE_AXES[2] * w, SIDE_AXES[3] * h
    return (lambda x: left + x * width), (lambda y: h - bottom - y * height), width, height


def _f(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _rounded(x: float, y: float, w: float, h: float, r: float) -> str:
    """A rounded rectangle as a path (the page's CSS outlines a clickable place's path)."""
    return (f"M{_f(x + r)} {_f(y)}H{_f(x + w - r)}Q{_f(x + w)} {_f(y)} {_f(x + w)} {_f(y + r)}"
            f"V{_f(y + h - r)}Q{_f(x + w)} {_f(y + h)} {_f(x + w - r)} {_f(y + h)}H{_f(x + r)}"
            f"Q{_f(x)} {_f(y + h)} {_f(x)} {_f(y + h - r)}V{_f(y + r)}Q{_f(x)} {_f(y)} {_f(x + r)} {_f(y)}Z")


def _text(x: float, y: float, text: str, size: float, colour: str = "black", anchor: str = "start",
          baseline: str = "central", weight: str = "normal", rotate: bool = False) -> str:
    from xml.sax.saxutils import escape

    lines = text.split("\n")
    turn = f' transform="rotate(-90 {_f(x)} {_f(y)})"' if rotate else ""
    head = (f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(size)}" fill="{colour}" text-anchor="{anchor}" '
            f'dominant-baseline="{baseline}" font-weight="{weight}"{turn}>')
    if len(lines) == 1:
        return head + escape(text) + "</text>"
    first = -(len(lines) - 1) / 2 * 1.2
    spans = "".join(f'<tspan x="{_f(x)}" dy="{_f((first if k == 0 else 1.2) * size)}">{escape(line)}</tspan>'
                    for k, line in enumerate(lines))
    return head + spans + "</text>"


def board_svg(game: IslandEscapeEngine, title: str = "") -> str:
    """draw_board's picture as SVG text for the play page: text kept as text, stable ids
    (place-C-R on each place, which the page makes clickable), no date, so the same state always
    gives the same bytes. Pure string building: safe from any thread, no lock."""
    bx, by, unit = _board_transform()
    sx, sy, side_w, side_h = _side_transform()
    width, height = FIGURE_PT
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}pt" height="{_f(height)}pt" '
           f'viewBox="0 0 {_f(width)} {_f(height)}" font-family="DejaVu Sans, Bitstream Vera Sans, sans-serif">',
           '<defs><pattern id="card-back" width="6" height="6" patternUnits="userSpaceOnUse">'
           '<path d="M0 0L6 6M6 0L0 6" stroke="#85929e" stroke-width="0.8"/></pattern></defs>',
           f'<rect width="{_f(width)}" height="{_f(height)}" fill="white"/>']
    for (c, r), tile in sorted(game.board.items()):
        x, y = _place_xy(c, r)
        left, top = bx(x), by(y + 1)
        if tile.state == SEA:
            out.append(f'<g id="place-{c}-{r}"><path d="M{_f(left)} {_f(top)}h{_f(unit)}v{_f(unit)}h{_f(-unit)}Z" '
                       f'fill="{SEA_BLUE}" fill-opacity="0.55"/></g>')
            for k in range(3):
                wy = by(y + 0.25 + 0.25 * k)
                out.append(f'<path d="M{_f(bx(x + 0.15))} {_f(wy)}H{_f(bx(x + 0.75))}" stroke="white" '
                           f'stroke-width="0.8" stroke-opacity="0.7" stroke-dasharray="1.6 1.6"/>')
            continue
        flooded, w, h, face, edge = tile_look(tile)
        if flooded:  # crosswise on a blue tint
            out.append(f'<rect x="{_f(left)}" y="{_f(top)}" width="{_f(unit)}" height="{_f(unit)}" '
                       f'fill="{FLOOD_TINT}"/>')
        cx, cy = x + 0.5, y + 0.5
        card = _rounded(bx(cx - w / 2), by(cy + h / 2), w * unit, h * unit, 0.06 * unit)
        out.append(f'<g id="place-{c}-{r}"><path d="{card}" fill="{face}" stroke="{edge}" stroke-width="1.2"/></g>')
        if tile.state == DOWN:
            inset = 0.07
            out.append(f'<rect x="{_f(bx(cx - w / 2 + inset))}" y="{_f(by(cy + h / 2 - inset))}" '
                       f'width="{_f((w - 2 * inset) * unit)}" height="{_f((h - 2 * inset) * unit)}" '
                       'fill="url(#card-back)" stroke="#85929e" stroke-width="0.8"/>')
        else:
            text, colour = _card_label(tile.card)
            weight = "bold" if tile.card.startswith("K") or tile.card == "JK" else "normal"
            out.append(_text(bx(cx), by(cy), text, 12 if len(text) < 4 else 9, colour, "middle",
                             weight=weight, rotate=flooded))
            if tile.card.startswith("K") and tile.card[-1] in game.raised:
                out.append(_text(bx(cx), by(y + 0.08), "raised", 6, "#1e8449", "middle", "auto"))
    offsets = ((-0.3, 0.3), (0.3, 0.3), (-0.3, -0.3), (0.3, -0.3))
    for i, (c, r) in enumerate(game.pawns):
        x, y = _place_xy(c, r)
        px, py = bx(x + 0.5 + offsets[i][0]), by(y + 0.5 + offsets[i][1])
        out.append(f'<circle cx="{_f(px)}" cy="{_f(py)}" r="{_f(0.13 * unit)}" fill="{PAWN_COLOURS[i]}" '
                   'stroke="black" stroke-width="1"/>')
        out.append(_text(px, py, str(i), 7, "white", "middle", weight="bold"))
    for k in range(5):  # grid_numbers: columns above, rows at the left (row 1 at the top)
        out.append(_text(bx(k + 0.5), by(5.03), str(k + 1), 7, "grey", "middle", "auto"))
        out.append(_text(bx(-0.05), by(5 - 0.5 - k), str(k + 1), 7, "grey", "end"))
    yy = 0.97
    out.append(_text(sx(0), sy(yy), "salvage", 10, weight="bold", baseline="hanging"))
    for i, hand in enumerate(game.salvage):
        yy -= 0.07
        out.append(f'<circle cx="{_f(sx(0.03))}" cy="{_f(sy(yy - 0.015))}" r="{_f(0.018 * side_w)}" '
                   f'fill="{PAWN_COLOURS[i]}" stroke="black"/>')
        hand_text = " ".join(pretty(c) for c in hand) or "-"
        out.append(_text(sx(0.08), sy(yy), f"pawn {i}: {hand_text}", 9, baseline="hanging"))
    yy -= 0.1
    raised = " ".join(f"{SUIT_SYMBOL[s]}" for s in game.raised) or "-"
    out.append(_text(sx(0), sy(yy), f"raised treasures: {raised}", 10, weight="bold", baseline="hanging"))
    yy -= 0.1
    out.append(_text(sx(0), sy(yy), f"gauge (water level {rank_of(game.gauge[0])})", 10, weight="bold",
                     baseline="hanging"))
    yy -= 0.07
    for k, card in enumerate(game.gauge):
        text, colour = _card_label(card)
        x0 = 0.02 + 0.1 * k
        out.append(f'<path d="{_rounded(sx(x0), sy(yy), 0.08 * side_w, 0.09 * side_h, 0.01 * side_w)}" '
                   f'fill="{"#fef9e7" if k == 0 else "white"}" stroke="#7f8c8d" '
                   f'stroke-width="{1.5 if k == 0 else 0.8}"/>')
        out.append(_text(sx(x0 + 0.04), sy(yy - 0.045), text, 8, colour, "middle"))
    yy -= 0.16
    drawn = " ".join(f"({c},{r})" for c, r in zip(game.col_drawn, game.row_drawn, strict=True)) or "-"
    out.append(_text(sx(0), sy(yy), f"floods this pass: {drawn}", 8, "#555", baseline="hanging"))
    yy -= 0.05
    out.append(_text(sx(0), sy(yy), f"turn {game.turn}, {game.floods} floods so far", 8, "#555", baseline="hanging"))
    if game.outcome:  # verdict()
        text = "the team escapes!" if game.outcome == "win" else f"lost: {game.outcome}"
        out.append(_text(sx(0), sy(yy - 0.08), text, 12, "#1e8449" if game.outcome == "win" else "#c0392b",
                         weight="bold", baseline="hanging"))
    if title:  # fig.suptitle: centred, 2% below the top
        out.append(_text(width / 2, 0.02 * height, title, 12, anchor="middle", baseline="hanging"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def save_board(game: IslandEscapeEngine, path: str | Path, title: str = "") -> Path:
    return save_figure(draw_board(game, title), path)


def replay_pictures(record, folder: str | Path, gif: str | Path | None = None, sinkings: bool = True) -> list[Path]:
    """Replay a record and write one PNG per turn (and one after each sinking); optionally a GIF."""
    from sim.island_escape.records import replay

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    state = {"events": 0}

    def after_flood(game: IslandEscapeEngine) -> None:
        new = game.events[state["events"]:]
        sank = [e for e in new if e.kind == "sink"]
        if sinkings and sank:
            e = sank[-1]
            title = f"Turn {game.turn}, flood {game.floods}: {pretty(e.card)} sinks at column {e.at[0]}, row {e.at[1]}"
            paths.append(save_board(game, folder / f"turn-{game.turn:02d}-flood-{game.floods:02d}.png", title))
        state["events"] = len(game.events)

    def after_turn(game: IslandEscapeEngine) -> None:
        state["events"] = len(game.events)
        pawn = (game.turn - 1) % game.rules.pawns
        title = f"Turn {game.turn} (pawn {pawn}) - after the flood phase"
        if game.over:
            title = f"Turn {game.turn} (pawn {pawn}) - " + ("win" if game.outcome == "win" else f"lost: {game.outcome}")
        paths.append(save_board(game, folder / f"turn-{game.turn:02d}.png", title))

    replay(record, after_turn=after_turn, after_flood=after_flood)
    if gif:
        write_gif(paths, gif)
    return paths
